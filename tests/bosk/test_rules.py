"""The rules of rules/bosk.md, one behaviour per test, on positions built by hand."""

import itertools
import re
import xml.etree.ElementTree as ET

import attrs
import numpy as np
import pytest

import forestgames as fg
from forestgames.bosk import (
    DEFAULT_TERRAIN,
    SQUIRREL,
    ChooseTile,
    ChooseTree,
    ChooseWind,
    Phase,
    PlaceLeaf,
    PlaceSquirrel,
    PlantTree,
)
from forestgames.testing import random_game
from tests.bosk.helpers import autumn_turn, plant_everything, start_path, targets

# ---------------------------------------------------------------- geometry and spring


@pytest.mark.parametrize(("players", "size", "points"), [(2, 8, 49), (3, 10, 81), (4, 12, 121)])
def test_play_area_and_interior_intersections(players, size, points):
    """S×S squares by player count; trees only on the (S−1)² interior intersections."""
    game = fg.make("bosk", num_players=players)
    state = game.new_game(seed=1, first_player=0)
    assert game.size == size and state.top.shape == (size, size)
    assert state.tree_owner.shape == (size - 1, size - 1)
    assert len(state.legal_moves()) == points * 4  # any free intersection, any of 4 values
    assert {m.at for m in state.legal_moves()} == {
        (i, j) for i in range(size - 1) for j in range(size - 1)
    }


def test_spring_clockwise_from_start_player():
    """Spring goes clockwise from the start player until all 8·P trees are planted."""
    game = fg.make("bosk", num_players=3)
    state = game.new_game(seed=1, first_player=2)
    seen = []
    while state.phase is Phase.SPRING:
        seen.append(state.current_player)
        state = state.apply(state.legal_moves()[-1])
    assert seen == [2, 0, 1] * 8
    assert sorted(state.trees_left(0)) == [1, 1, 2, 2, 3, 3, 4, 4]
    assert state.phase is Phase.WIND


def test_spring_two_trees_of_each_value():
    """After planting both trees of a value a seat can plant no third one."""
    game = fg.make("bosk", num_players=2)
    state = game.new_game(seed=1, first_player=0)
    for at0, at1 in (((0, 0), (6, 6)), ((0, 1), (6, 5))):
        state = state.apply(PlantTree(0, 1, at0)).apply(PlantTree(1, 2, at1))
    assert {m.value for m in state.legal_moves()} == {2, 3, 4}
    with pytest.raises(fg.IllegalMoveError, match="no tree of value 1"):
        state.apply(PlantTree(0, 1, (3, 3)))


def test_start_player_drawn_from_seed_and_reproducible():
    """Without first_player the start seat comes from the seed: same seed, same seat."""
    game = fg.make("bosk", num_players=4)
    seats = {game.new_game(seed=s).current_player for s in range(40)}
    assert seats == {0, 1, 2, 3}
    assert all(game.new_game(seed=s) == game.new_game(seed=s) for s in range(10))


# ---------------------------------------------------------------- summer and the autumn start

SYMMETRIC = {  # seat 0 in rows 0-1, seat 1 the same in rows 4-5: summer 10 each
    (0, 0): (0, 1), (0, 1): (0, 1), (0, 2): (0, 2), (0, 3): (0, 2),
    (1, 0): (0, 3), (1, 1): (0, 3), (1, 2): (0, 4), (1, 3): (0, 4),
    (4, 0): (1, 1), (4, 1): (1, 1), (4, 2): (1, 2), (4, 3): (1, 2),
    (5, 0): (1, 3), (5, 1): (1, 3), (5, 2): (1, 4), (5, 3): (1, 4),
}  # fmt: skip


def finish_spring(trees, last, first_player=1, **options):
    """Plant all ``trees`` but ``last`` by hand, then plant ``last`` (the 16th plant) by a move."""
    game = fg.make("bosk", num_players=2, **options)
    state = game.new_game(seed=0, first_player=first_player)
    n = game.size - 1
    owners, values = [-1] * n * n, [0] * n * n
    for (i, j), (seat, value) in trees.items():
        if (i, j) != last:
            owners[i * n + j], values[i * n + j] = seat, value
    state = attrs.evolve(state, owners=tuple(owners), values=tuple(values), turn=15)
    seat, value = trees[last]
    return state.apply(PlantTree(seat, value, last))


def test_summer_scored_when_spring_ends():
    """The last tree planted scores summer: rows 3+3 and four tied columns 1 each = 10 each.

    Seat 0: rows 0 (1+1+2+2) and 1 (3+3+4+4) alone, 3 each; columns 0..3 tie with
    seat 1's mirror image, 1 each. Seat 1 the same.
    """
    state = finish_spring(SYMMETRIC, (1, 3))
    assert state.phase is Phase.WIND and state.summer == (10, 10) and state.scores == (10, 10)


def test_autumn_start_tie_goes_to_previous_start_player():
    """Tied for fewest points: the previous start player itself is reached first [choice]."""
    assert finish_spring(SYMMETRIC, (1, 3), first_player=1).current_player == 1
    assert finish_spring(SYMMETRIC, (5, 3), first_player=0).current_player == 0


def test_autumn_start_tie_option_starts_at_next_seat():
    """With ties_include_start=False the search starts at the seat after the start player."""
    state = finish_spring(SYMMETRIC, (1, 3), first_player=1, ties_include_start=False)
    assert state.current_player == 0


def test_autumn_start_is_the_fewest_points():
    """The seat with fewest summer points chooses the wind, even if not the start player.

    Seat 1's (5, 3) tree moves to (6, 6): seat 1 wins row 6 and column 6 alone (3+3)
    and is second in column 3 (1): 16; seat 0 is first in column 3 (2): 11.
    """
    trees = dict(SYMMETRIC)
    trees[(6, 6)] = trees.pop((5, 3))
    state = finish_spring(trees, (1, 3), first_player=1)
    assert state.summer == (11, 16)
    assert state.current_player == 0 and state.legal_moves() == tuple(
        ChooseWind(0, d) for d in "NESW"
    )


@pytest.mark.parametrize("first", ["N", "E", "S", "W"])
def test_wind_turns_clockwise_each_round(first):
    """Round k blows in the chosen direction turned 90° clockwise k−1 times."""
    state = plant_everything(fg.make("bosk", num_players=2))
    state = state.apply(ChooseWind(state.current_player, first))
    order = "NESW" * 3
    start = order.index(first)
    for rnd in range(1, 9):
        assert attrs.evolve(state, round=rnd).wind == order[start + rnd - 1]


def test_rounds_one_to_four_need_that_tree_value():
    """Rounds 1–4 require a tree of value 1–4; rounds 5–8 allow any remaining tree."""
    trees = {(1, 1): (0, 1), (2, 2): (0, 2), (3, 3): (0, 3), (4, 4): (0, 4), (5, 5): (1, 1)}
    for rnd in range(1, 5):
        state = autumn_turn(round=rnd, trees=trees)
        assert {m.at for m in state.legal_moves()} == {(rnd, rnd)}
    state = autumn_turn(round=6, trees=trees)
    assert {m.at for m in state.legal_moves()} == {(1, 1), (2, 2), (3, 3), (4, 4)}
    with pytest.raises(fg.IllegalMoveError, match="needs a tree of value 2"):
        autumn_turn(round=2, trees=trees).apply(ChooseTree(0, (1, 1)))


def test_tree_then_tile():
    """A turn is tree first, then tile: each refused out of order."""
    state = autumn_turn(trees={(3, 3): (0, 1)})
    with pytest.raises(fg.IllegalMoveError, match="ChooseTree"):
        state.apply(ChooseTile(0, 5))
    state = state.apply(ChooseTree(0, (3, 3)))
    assert state.legal_moves() == tuple(ChooseTile(0, t) for t in range(1, 9))
    with pytest.raises(fg.IllegalMoveError, match="ChooseTile"):
        state.apply(ChooseTree(0, (3, 3)))


# ---------------------------------------------------------------- leaf paths

GEOMETRY = {  # wind: (base squares of tree (3, 3), first leaf, the 3 squares after it)
    "N": ({(3, 3), (3, 4)}, (3, 3), {(2, 2), (2, 3), (2, 4)}),
    "S": ({(4, 3), (4, 4)}, (4, 3), {(5, 2), (5, 3), (5, 4)}),
    "E": ({(3, 4), (4, 4)}, (3, 4), {(2, 5), (3, 5), (4, 5)}),
    "W": ({(3, 3), (4, 3)}, (3, 3), {(2, 2), (3, 2), (4, 2)}),
}


@pytest.mark.parametrize("wind", ["N", "E", "S", "W"])
def test_leaf_path_geometry(wind):
    """The first leaf on one of the 2 downwind squares under the tree, then straight or diagonal."""
    base, first, after = GEOMETRY[wind]
    state = start_path(autumn_turn(wind=wind, trees={(3, 3): (0, 1)}), (3, 3), 3)
    assert state.phase is Phase.LEAVES and targets(state) == base
    state = state.apply(PlaceLeaf(0, first))
    assert targets(state) == after
    with pytest.raises(fg.IllegalMoveError, match="one step downwind"):
        state.apply(PlaceLeaf(0, first))


def test_path_lays_every_leaf_then_ends():
    """n active leaves are laid one by one; the turn ends when none remain; the tree goes."""
    state = start_path(autumn_turn(trees={(5, 3): (0, 1)}, mover=0), (5, 3), 3)
    for at in ((5, 3), (4, 3), (3, 4)):
        assert state.current_player == 0 and state.phase is Phase.LEAVES
        state = state.apply(PlaceLeaf(0, at))
    assert state.current_player == 1 and state.phase is Phase.TREE
    assert state.tree_owner[5, 3] == -1
    assert state.leaves_on_board(0) == 3 and state.leaves_in_supply(0) == 32
    assert 3 not in state.tiles_left(0)


def test_path_ends_at_the_edge_and_returns_leftovers():
    """At the edge of the play area the path ends; unused leaves go back to the supply."""
    state = start_path(autumn_turn(trees={(0, 2): (0, 1)}), (0, 2), 8)
    state = state.apply(PlaceLeaf(0, (0, 2)))  # row 0: nothing further north
    assert state.current_player == 1 and state.leaves_on_board(0) == 1
    assert state.leaves_in_supply(0) == 34 and state.active_leaves == 0


def test_own_leaf_is_free_to_cover():
    """A square topped by one's own leaf takes another at no extra cost."""
    state = autumn_turn(trees={(3, 3): (0, 1)}, leaves={(3, 3): (1, 0, 0)})
    state = start_path(state, (3, 3), 2).apply(PlaceLeaf(0, (3, 3)))
    assert state.stack((3, 3)) == (1, 0, 0, 0) and state.active_leaves == 1


def test_covering_k_leaves_costs_k():
    """A stack of k leaves topped by another seat costs k leaves returned, then one laid on top."""
    state = autumn_turn(trees={(3, 3): (0, 1)}, leaves={(3, 3): (0, 1)})
    state = start_path(state, (3, 3), 4).apply(PlaceLeaf(0, (3, 3)))
    assert state.stack((3, 3)) == (0, 1, 0)
    assert state.active_leaves == 1  # 4 - 2 returned - 1 laid
    state = state.apply(PlaceLeaf(0, (2, 3)))
    assert state.leaves_on_board(0) == 3 and state.leaves_in_supply(0) == 32


def test_covering_needs_k_plus_one_active_leaves():
    """A stack of k foreign-topped leaves is unreachable with k or fewer active leaves."""
    leaves = {(3, 3): (1, 1), (3, 4): (1,)}
    state = start_path(autumn_turn(trees={(3, 3): (0, 1)}, leaves=leaves), (3, 3), 2)
    assert targets(state) == {(3, 4)}  # (3, 3) needs 3 active leaves
    with pytest.raises(fg.IllegalMoveError, match="needs 3 active leaves"):
        state.apply(PlaceLeaf(0, (3, 3)))
    state = start_path(autumn_turn(trees={(3, 3): (0, 1)}, leaves=leaves), (3, 3), 3)
    assert targets(state) == {(3, 3), (3, 4)}


def test_cost_counts_mid_path():
    """Costs apply at every step: with 2 active leaves left a 2-stack ahead is out of reach."""
    leaves = {(2, 2): (1, 1), (2, 3): (1,), (2, 4): ()}
    state = start_path(autumn_turn(trees={(3, 3): (0, 1)}, leaves=leaves), (3, 3), 3)
    state = state.apply(PlaceLeaf(0, (3, 3)))
    assert state.active_leaves == 2 and targets(state) == {(2, 3), (2, 4)}


def test_path_that_cannot_start_ends_the_turn():
    """Both base squares beyond reach: the turn ends at once, tile spent, tree removed."""
    leaves = {(3, 3): (1, 1, 1), (3, 4): (1, 1, 1)}
    state = start_path(autumn_turn(trees={(3, 3): (0, 1)}, leaves=leaves), (3, 3), 3)
    assert state.current_player == 1 and state.phase is Phase.TREE
    assert state.tree_owner[3, 3] == -1 and 3 not in state.tiles_left(0)
    assert state.leaves_on_board(0) == 0


def test_no_leaf_on_a_squirrel():
    """A square holding a squirrel can never receive a leaf."""
    state = autumn_turn(3, trees={(3, 3): (0, 1)}, squirrels={1: (3, 3), 2: (2, 4)})
    state = start_path(state, (3, 3), 4)
    assert targets(state) == {(3, 4)}
    state = state.apply(PlaceLeaf(0, (3, 4)))
    assert targets(state) == {(2, 3), (2, 5)}
    with pytest.raises(fg.IllegalMoveError, match="holds a squirrel"):
        state.apply(PlaceLeaf(0, (2, 4)))


def test_both_base_squares_with_squirrels():
    """Squirrels on both base squares: the path cannot start and the turn ends."""
    state = autumn_turn(3, trees={(3, 3): (0, 1)}, squirrels={1: (3, 3), 2: (3, 4)})
    state = start_path(state, (3, 3), 5)
    assert state.current_player == 1 and state.leaves_on_board(0) == 0


# ---------------------------------------------------------------- the squirrel

SQUIRREL_UP_TO_3 = {(3, 3), (3, 4)} | {(2, c) for c in range(2, 6)} | {(1, c) for c in range(1, 7)}


def test_squirrel_reach_up_to_three_steps():
    """The squirrel stops 1 to 3 steps downwind (first step a base square) [choice]."""
    state = start_path(autumn_turn(trees={(3, 3): (0, 1)}), (3, 3), 1)
    assert state.phase is Phase.SQUIRREL and targets(state) == SQUIRREL_UP_TO_3


def test_squirrel_exactly_three_option():
    """With squirrel_exactly_three it stops exactly 3 steps downwind."""
    state = autumn_turn(trees={(3, 3): (0, 1)}, squirrel_exactly_three=True)
    state = start_path(state, (3, 3), 1)
    assert targets(state) == {(1, c) for c in range(1, 7)}


def test_squirrel_passes_over_anything_and_sits_on_stacks():
    """It passes over squirrels and stacks, stops on any stack, never on a squirrel."""
    state = autumn_turn(
        trees={(3, 3): (0, 1)}, leaves={(1, 3): (1, 1, 1, 1)}, squirrels={1: (2, 3)}
    )
    state = start_path(state, (3, 3), 1)
    assert targets(state) == SQUIRREL_UP_TO_3 - {(2, 3)}
    state = state.apply(PlaceSquirrel(0, (1, 3)))
    assert state.squirrel_squares[0] == (1, 3) and state.top[1, 3] == 0
    assert state.stack((1, 3)) == (1, 1, 1, 1)
    assert state.current_player == 1 and state.tree_owner[3, 3] == -1


def test_squirrel_blocked_by_squirrels_option():
    """With squirrel_passes_squirrels=False its path, like a leaf path, enters no square
    holding a squirrel. Tree (3, 3), wind N, seat 1's squirrel on base square (3, 4):
    from (3, 3) alone it reaches (2, 2)..(2, 4), then (1, 1)..(1, 5); (2, 5) and (1, 6)
    lie only beyond (3, 4). By default it passes over (3, 4) to reach them."""
    blocked = {(3, 3), (2, 2), (2, 3), (2, 4)} | {(1, c) for c in range(1, 6)}
    for options, expected in (
        ({}, SQUIRREL_UP_TO_3 - {(3, 4)}),
        ({"squirrel_passes_squirrels": False}, blocked),
        (
            {"squirrel_passes_squirrels": False, "squirrel_exactly_three": True},
            {(1, c) for c in range(1, 6)},
        ),
    ):
        state = autumn_turn(trees={(3, 3): (0, 1)}, squirrels={1: (3, 4)}, **options)
        assert targets(start_path(state, (3, 3), 1)) == expected, options
    state = start_path(
        autumn_turn(trees={(3, 3): (0, 1)}, squirrels={1: (3, 4)}, squirrel_passes_squirrels=False),
        (3, 3),
        1,
    )
    with pytest.raises(fg.IllegalMoveError, match="never through a squirrel's square"):
        state.apply(PlaceSquirrel(0, (1, 6)))


def test_squirrel_walled_in_by_squirrels_is_not_placed():
    """With squirrel_passes_squirrels=False and squirrels on both base squares (3, 3) and
    (3, 4) of tree (3, 3), wind N, no path leaves the tree: the squirrel is not placed and
    the turn ends. By default it passes over them to rows 2 and 1."""
    squirrels = {1: (3, 3), 2: (3, 4)}
    state = autumn_turn(3, trees={(3, 3): (0, 1)}, squirrels=squirrels)
    assert targets(start_path(state, (3, 3), 1)) == SQUIRREL_UP_TO_3 - {(3, 3), (3, 4)}
    walled = autumn_turn(
        3, trees={(3, 3): (0, 1)}, squirrels=squirrels, squirrel_passes_squirrels=False
    )
    state = start_path(walled, (3, 3), 1)
    assert state.current_player == 1 and state.squirrel_squares[0] is None
    assert 1 not in state.tiles_left(0)


def test_squirrel_with_nowhere_to_stop():
    """A squirrel with no square to stop on is not placed; the turn ends."""
    state = autumn_turn(3, trees={(0, 0): (0, 1)}, squirrels={1: (0, 0), 2: (0, 1)})
    state = start_path(state, (0, 0), 1)
    assert state.current_player == 1 and state.squirrel_squares[0] is None
    assert 1 not in state.tiles_left(0)


def test_squirrel_tops_its_square_in_winter():
    """A squirrel on a foreign stack makes the square its owner's for winter."""
    state = autumn_turn(trees={(3, 3): (0, 1)}, leaves={(2, 3): (1, 1)})
    state = start_path(state, (3, 3), 1).apply(PlaceSquirrel(0, (2, 3)))
    assert state.top[2, 3] == 0 and state.leaf_height[2, 3] == 2


# ---------------------------------------------------------------- round order and the end


def play_round(state, tiles):
    """Each seat in turn order plays its only tree with the tile given, first legal leaves."""
    for _ in range(len(tiles)):
        seat = state.current_player
        state = state.apply(state.legal_moves()[0]).apply(ChooseTile(seat, tiles[seat]))
        while state.current_player == seat and state.phase in (Phase.LEAVES, Phase.SQUIRREL):
            state = state.apply(state.legal_moves()[0])
    return state


THREE_TREES = {
    (1, 1): (0, 1),
    (1, 4): (1, 1),
    (1, 7): (2, 1),
    (6, 1): (0, 2),
    (6, 4): (1, 2),
    (6, 7): (2, 2),
}


def test_lowest_tile_starts_next_round():
    """The seat that played the lowest tile starts the next round; the others follow clockwise."""
    state = play_round(autumn_turn(3, trees=THREE_TREES), {0: 5, 1: 2, 2: 4})
    assert state.round == 2 and state.order == (1, 2, 0)


def test_squirrel_counts_as_one_for_order():
    """The squirrel tile counts 1 when comparing tiles."""
    state = play_round(autumn_turn(3, trees=THREE_TREES), {0: 2, 1: 3, 2: 1})
    assert state.order == (2, 0, 1)


def test_lowest_tile_tie_from_current_start_player():
    """Tied lowest tiles: the tied seat reached first clockwise from the start player wins."""
    state = play_round(autumn_turn(3, trees=THREE_TREES, mover=0), {0: 5, 1: 3, 2: 3})
    assert state.order == (1, 2, 0)
    state = play_round(autumn_turn(3, trees=THREE_TREES, mover=2), {0: 3, 1: 3, 2: 5})
    assert state.order == (0, 1, 2)


def test_lowest_tile_tie_includes_start_player():
    """The current start player itself counts first among the tied [choice]; option: next seat."""
    state = play_round(autumn_turn(3, trees=THREE_TREES, mover=0), {0: 2, 1: 5, 2: 2})
    assert state.order == (0, 1, 2)
    state = autumn_turn(3, trees=THREE_TREES, mover=0, ties_include_start=False)
    assert play_round(state, {0: 2, 1: 5, 2: 2}).order == (2, 0, 1)


def last_round(order, summer, terrain=None):
    """Round 8, one tree each (seat 0 at (0,5), seat 1 at (0,0)), wind N: one leaf each."""
    options = {} if terrain is None else {"terrain": terrain}
    state = autumn_turn(
        2, mover=order[0], round=8, wind="N", trees={(0, 0): (1, 3), (0, 5): (0, 2)}, **options
    )
    return attrs.evolve(state, summer=summer)


def test_game_ends_after_round_eight_with_winter():
    """After round 8 winter is scored on the top pieces and the game is over."""
    terrain = np.zeros((8, 8), dtype=int)
    terrain[:, 4:] = 1
    state = play_round(last_round((1, 0), (6, 5), terrain), {0: 4, 1: 4})
    assert state.is_terminal and state.current_player is None and state.legal_moves() == ()
    assert state.winter == (8, 8) and state.scores == (14, 13) and state.winners == (0,)


@pytest.mark.parametrize(("order", "winner"), [((1, 0), 1), ((0, 1), 0)])
def test_final_tie_goes_to_earlier_in_round_eight(order, winner):
    """Equal totals: the seat earlier in round 8's turn order wins."""
    terrain = np.zeros((8, 8), dtype=int)
    terrain[:, 4:] = 1
    state = play_round(last_round(order, (5, 5), terrain), {0: 4, 1: 4})
    assert state.scores == (13, 13) and state.winners == (winner,)


def test_winter_uses_the_game_kernel():
    """The final winter points equal winter_scores on the final top grid."""
    state = plant_everything(fg.make("bosk", num_players=3))
    rng = np.random.default_rng(3)
    while not state.is_terminal:
        moves = state.legal_moves()
        state = state.apply(moves[rng.integers(len(moves))])
    expected = fg.bosk.winter_scores(state.top, state.game.terrain, 3)
    assert state.winter == tuple(expected.tolist())


# ---------------------------------------------------------------------- from maps


def patch_count(grid, kind):
    """Number of 4-connected patches of squares of ``kind``."""
    size = grid.shape[0]
    seen = set()
    count = 0
    for start in zip(*np.nonzero(grid == kind), strict=True):
        if start in seen:
            continue
        count += 1
        todo = [start]
        seen.add(start)
        while todo:
            r, c = todo.pop()
            for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if (
                    0 <= nr < size
                    and 0 <= nc < size
                    and grid[nr, nc] == kind
                    and (nr, nc) not in seen
                ):
                    seen.add((nr, nc))
                    todo.append((nr, nc))
    return count


@pytest.mark.parametrize("size", [8, 10, 12])
def test_default_maps_balanced_and_contiguous(size):
    """Each map has 8 types, each about 1/8 of the area (± 4 squares) in one patch."""
    grid = DEFAULT_TERRAIN[size]
    assert grid.shape == (size, size) and not grid.flags.writeable
    counts = np.bincount(grid.ravel(), minlength=8)
    assert len(counts) == 8 and abs(counts - size * size / 8).max() <= 4
    assert all(patch_count(grid, kind) == 1 for kind in range(8))


def test_ten_by_ten_is_the_inner_crop():
    """The 3-player map is the 12×12 map inside its white border."""
    assert np.array_equal(DEFAULT_TERRAIN[10], DEFAULT_TERRAIN[12][1:-1, 1:-1])


@pytest.mark.parametrize(("players", "size"), [(2, 8), (3, 10), (4, 12)])
def test_games_use_the_default_map_of_their_size(players, size):
    """A game without a terrain option plays on the default map of its board size."""
    assert np.array_equal(fg.make("bosk", num_players=players).terrain, DEFAULT_TERRAIN[size])


def test_custom_terrain_option_round_trips():
    """A user map is validated, kept read-only, and survives options() and make()."""
    terrain = np.arange(64).reshape(8, 8) % 8
    game = fg.make("bosk", num_players=2, terrain=terrain.tolist())
    assert np.array_equal(game.terrain, terrain) and not game.terrain.flags.writeable
    assert fg.make("bosk", **game.options()) == game
    assert game != fg.make("bosk", num_players=2)
    assert "terrain" not in fg.make("bosk", num_players=2).options()


# ------------------------------------------------------------------------------- The SVG picture


def test_the_svg_panels_status_line_fits_the_panel_and_does_not_repeat_round_or_wind():
    """The side panel's status line (11-pixel type: 6.4 pixels a character at a generous
    0.58 em) holds at most 47 characters, what the 300-pixel panel fits, in the referee's and
    every seat's view of seeded 2- and 4-player games; the round and wind are left to the
    lines below it."""
    for players, agents in ((2, ["greedy", "random"]), (4, ["random"])):
        record = fg.play(fg.make("bosk", num_players=players), agents, seed=3)
        for state, view in itertools.product(record.replay(), (None, *range(players))):
            root = ET.fromstring(state.to_svg(view))
            texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
            status = texts[texts.index(f"Bosk · {players} players") + 1]
            assert len(status) <= 47, status
            assert not re.search(r"round \d|wind [NESW]\b", status), status


@pytest.mark.parametrize("players", [2, 3, 4])
def test_max_moves_is_each_seats_sixty_moves_and_the_wind(players):
    """A game has at most 60 moves a seat and the wind, 60P + 1 (121 / 181 / 241): each
    seat plants its 8 trees, then in each of its 8 autumn turns chooses a tree and a tile
    and lays at most one leaf per active leaf of the tile (2 + 3 + ... + 8 = 35 over the
    game) or places its squirrel once. Random games keep every count within its share."""
    game = fg.make("bosk", num_players=players)
    assert game.traits.max_moves == 60 * players + 1
    for seed in range(6):
        moves = [move for _, move in random_game(game, seed) if move is not None]
        assert sum(isinstance(m, ChooseWind) for m in moves) == 1
        for seat in range(players):
            mine = [m for m in moves if m.player == seat]
            kinds = {kind: sum(isinstance(m, kind) for m in mine) for kind in
                     (PlantTree, ChooseTree, ChooseTile, PlaceLeaf, PlaceSquirrel)}  # fmt: skip
            leaves = sum(m.tile for m in mine if isinstance(m, ChooseTile) and m.tile != SQUIRREL)
            assert kinds[PlantTree] == kinds[ChooseTree] == kinds[ChooseTile] == 8
            assert kinds[PlaceLeaf] <= leaves == 35 and kinds[PlaceSquirrel] <= 1
            winds = sum(isinstance(m, ChooseWind) for m in mine)
            assert sum(kinds.values()) == len(mine) - winds  # no other kind of move
