"""Rules the mutation audit found unpinned in Bosk: each test here fails when that one
rule is broken in the engine, and passes on the rules as written (rules/bosk.md)."""

import copy
import pickle

import numpy as np
import pytest

import forestgames as fg
from forestgames.bosk import PlaceLeaf, PlantTree, placement_points
from tests.bosk.helpers import autumn_turn, start_path, targets
from tests.refusals import refused

# the winter table (rules/bosk.md, Winter): first 5, second 3, sole 8, tied first 4,
# tied second 1 each
WINTER = {"first": 5, "second": 3, "sole": 8, "tied_first": 4, "tied_second": 1}


def test_placement_points_gives_a_third_place_nothing():
    """Three seats with 5, 3 and 1: the leader 5, the single runner-up 3, the third 0."""
    assert placement_points([[5, 3, 1]], **WINTER).tolist() == [5, 3, 0]


def test_placement_points_gives_a_lone_seat_the_sole_points():
    """One seat with a total, two with none: the lone seat scores sole (8), the others are
    not placed (0 each), not tied seconds."""
    assert placement_points([[5, 0, 0]], **WINTER).tolist() == [8, 0, 0]
    assert placement_points([[0, 0, 2]], **WINTER).tolist() == [0, 0, 8]


def test_a_too_costly_base_square_is_explained_by_its_cost_in_a_west_wind():
    """Wind W, tree on intersection (3, 3): its base squares are (3, 3) and (4, 3). With 2
    active leaves, (3, 3) under another seat's 2 leaves needs 3: refused for its cost, as
    a square downwind it is; (4, 3) under 1 such leaf needs 2 and stays open."""
    leaves = {(3, 3): (1, 1), (4, 3): (1,)}
    state = autumn_turn(wind="W", trees={(3, 3): (0, 1)}, leaves=leaves)
    state = start_path(state, (3, 3), 2)
    assert targets(state) == {(4, 3)}
    with pytest.raises(fg.IllegalMoveError, match="covering 2 leaves there needs 3 active"):
        state.apply(PlaceLeaf(0, (3, 3)))


def test_a_terrain_id_below_zero_is_refused_naming_its_square():
    """Terrain ids are 0..7 (rules/bosk.md, Geometry): a map that is all 0 but for -1 on
    square (2, 5) is a ConfigError naming that id and square, the only one out of range."""
    grid = np.zeros((8, 8), int)
    grid[2, 5] = -1
    match = r"terrain ids must be 0\.\.7, not -1 at square \(2, 5\) \(1 out of range\)"
    with pytest.raises(fg.ConfigError, match=match):
        fg.make("bosk", num_players=2, terrain=grid)


@pytest.mark.parametrize("value", [1, 2, 3, 4])
def test_a_third_tree_of_a_value_is_refused_as_none_left(value):
    """Each seat has two trees of each value 1..4 (rules/bosk.md, Components): once seat 0
    has planted both of ``value`` (on (0, 0) and (0, 1)), a third is refused as none left to
    plant, not as a value outside 1..4."""
    state = fg.make("bosk", num_players=2).new_game(seed=0, first_player=0)
    for at0, at1 in (((0, 0), (6, 6)), ((0, 1), (6, 5))):
        state = state.apply(PlantTree(0, value, at0)).apply(PlantTree(1, value, at1))
    with pytest.raises(fg.IllegalMoveError, match=f"seat 0 has no tree of value {value} left"):
        state.apply(PlantTree(0, value, (3, 3)))


def test_a_refused_plant_on_an_edge_row_or_column_names_its_real_reason():
    """Intersections are (0..6, 0..6) with 2 players (rules/bosk.md: 0 ≤ i, j < S−1): a plant
    on a taken (0, 4) or (2, 0), row or column 0, is refused as already having a tree, and
    (2, -1), off the grid, for its coordinates (not as intersection 2·7 − 1 = (1, 6))."""
    state = fg.make("bosk", num_players=2).new_game(seed=0, first_player=0)
    state = state.apply(PlantTree(0, 2, (0, 4))).apply(PlantTree(1, 2, (2, 0)))
    refused(state, PlantTree(0, 1, (0, 4)), r"intersection \(0, 4\) already has a tree")
    refused(state, PlantTree(0, 1, (2, 0)), r"intersection \(2, 0\) already has a tree")
    refused(state, PlantTree(0, 1, (2, -1)), r"trees stand on intersections \(0\.\.6, 0\.\.6\)")


def test_a_leaf_off_the_north_or_west_edge_is_refused_for_its_coordinates():
    """Squares are (0..7, 0..7) with 2 players: a leaf on (3, -1) or (-1, 3) is refused as
    off the squares, not read as square 3·8 − 1 = (2, 7) or −8 + 3."""
    state = start_path(autumn_turn(trees={(3, 3): (0, 1)}), (3, 3), 2)
    refused(state, PlaceLeaf(0, (-1, 3)), r"squares are \(0\.\.7, 0\.\.7\)")
    refused(state, PlaceLeaf(0, (3, -1)), r"squares are \(0\.\.7, 0\.\.7\)")


def test_the_cost_of_covering_counts_the_whole_stack_under_another_seats_top():
    """Wind N, tree on (3, 3), 2 active leaves: square (3, 3) holds seat 0's leaf under seat
    1's, so covering it costs its 2 leaves (rules/bosk.md: k leaves topped by another
    player cost k), needs 3 and is refused as such, though the bottom leaf is seat 0's."""
    state = autumn_turn(trees={(3, 3): (0, 1)}, leaves={(3, 3): (0, 1)})
    state = start_path(state, (3, 3), 2)
    assert targets(state) == {(3, 4)}
    refused(state, PlaceLeaf(0, (3, 3)), "covering 2 leaves there needs 3 active leaves, only 2")


def test_the_board_geometry_shared_by_games_of_one_size_refuses_changes():
    """game.geometry is one object for every 2-player game (built once per size; its
    docstring: shared, read-only): setting any attribute of it, an existing table or a new
    name, raises AttributeError, and another 2-player game still sees its 8×8 tables."""
    game, other = fg.make("bosk", num_players=2), fg.make("bosk", num_players=2)
    shared = game.geometry
    assert shared is other.geometry
    for name in ("size", "squares", "base", "next", "squirrel_reach", "extra"):
        with pytest.raises(AttributeError, match="read-only"):
            setattr(shared, name, None)
    assert (other.geometry.size, other.geometry.squares, other.geometry.intersections) == (
        8,
        64,
        49,
    )


def test_the_board_geometry_shared_by_games_of_one_size_refuses_deletions():
    """Deleting a table of game.geometry (one object for every 2-player game, read-only)
    raises AttributeError, and another 2-player game still finds its squirrel reach (from
    intersection (0, 0), wind S (toward the last row), one step: the squares under it on
    that side, (1, 0) and (1, 1), that is 8 and 9)."""
    game, other = fg.make("bosk", num_players=2), fg.make("bosk", num_players=2)
    for name in ("base", "next", "squirrel_reach", "size"):
        with pytest.raises(AttributeError, match="read-only"):
            delattr(game.geometry, name)
    assert other.geometry.squirrel_reach["S"][0][0] == frozenset({8, 9})


@pytest.mark.parametrize(
    "copy_of", [copy.copy, copy.deepcopy, lambda value: pickle.loads(pickle.dumps(value))]
)
def test_a_copy_or_pickle_of_the_board_geometry_is_the_shared_geometry(copy_of):
    """Copying, deep-copying or pickling game.geometry (read-only, one per board size)
    gives back the one 3-player (9×9) geometry, not a failure or a second set of tables."""
    shared = fg.make("bosk", num_players=3).geometry
    assert copy_of(shared) is shared


def test_a_game_built_by_its_class_has_make_s_defaults():
    """BoskGame(num_players=n) is make's game: the default map for the board, and a bad
    player count is a ConfigError (the class asked for terrain, a TypeError)."""
    for players in (2, 3, 4):
        built = fg.bosk.BoskGame(num_players=players)
        made = fg.make("bosk", num_players=players)
        assert built == made and built.terrain.shape == made.terrain.shape
        assert not built.terrain.flags.writeable
    with pytest.raises(fg.ConfigError, match="Bosk is played by 2 to 4 players, not 5"):
        fg.bosk.BoskGame(num_players=5)
