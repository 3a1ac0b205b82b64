"""Metamorphic properties: symmetries and invariances the rules imply.

Each property transforms a position (or a pure function's input) in a way the
rules say cannot matter, or can only matter in a known way (a permutation of
seats, of squares, of left and right), and checks that the engine agrees. The
positions are reachable: random legal games cut at a random move.
"""

from __future__ import annotations

import os
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import forestgames as fg
from forestgames.bonsai._tables import LEFT as B_LEFT
from forestgames.bonsai._tables import POT_QR, cell_of, protrusion_bits
from forestgames.bonsai._tables import RIGHT as B_RIGHT
from forestgames.bonsai.scoring import flowers_protruding, measures_of
from forestgames.bosk import (
    ChooseTile,
    ChooseTree,
    ChooseWind,
    PlaceLeaf,
    PlaceSquirrel,
    PlantTree,
    VectorBosk,
    placement_points,
    summer_scores,
    winter_scores,
)
from forestgames.bosk.scoring import plain_board_scores
from tests.strategies import random_game

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONGER = pytest.mark.skipif(
    not os.environ.get("FORESTGAMES_SLOW"), reason="longer property runs: set FORESTGAMES_SLOW=1"
)
SEEDS = st.integers(0, 2**32 - 1)
DIRS = ("N", "E", "S", "W")


def play_to(game: Any, seed: int, cut: float) -> Any:
    """A reachable state: random legal game ``seed`` stopped after a ``cut`` share of it."""
    states = [state for state, _ in random_game(game, seed)]
    return states[min(len(states) - 1, int(cut * len(states)))]


CUTS = st.floats(0.0, 1.0)

# ====================================================================== Bosk geometry
# A transform of the S×S board: its action on squares, intersections and directions.
# The four rotations keep "clockwise" (the wind turns N→E→S→W in every image);
# the four reflections reverse it, so they are only symmetries of one round (the
# current wind is mapped, the next rounds' winds are not).


class BoardMap:
    def __init__(self, size: int, turns: int, flip: bool) -> None:
        self.size, self.turns, self.flip = size, turns % 4, flip

    @property
    def keeps_clockwise(self) -> bool:
        return not self.flip

    def _point(self, r: int, c: int, last: int) -> tuple[int, int]:
        if self.flip:  # mirror east-west first
            c = last - c
        for _ in range(self.turns):  # then rotate 90° clockwise
            r, c = c, last - r
        return r, c

    def square(self, at: tuple[int, int]) -> tuple[int, int]:
        return self._point(at[0], at[1], self.size - 1)

    def inter(self, at: tuple[int, int]) -> tuple[int, int]:
        return self._point(at[0], at[1], self.size - 2)

    def direction(self, d: str) -> str:
        k = DIRS.index(d)
        if self.flip:
            k = (-k) % 4  # N, S fixed; E <-> W
        return DIRS[(k + self.turns) % 4]

    def grid(self, a: np.ndarray) -> np.ndarray:
        """Image of an (..., n, n) array: out[image of (r, c)] = a[r, c]."""
        if self.flip:
            a = a[..., ::-1]
        return np.rot90(a, k=-self.turns, axes=(-2, -1))


BOARD_MAPS = st.builds(BoardMap, st.just(0), st.integers(0, 3), st.booleans())
BOSK_OPTIONS = st.fixed_dictionaries(
    {
        "squirrel_exactly_three": st.booleans(),
        "squirrel_passes_squirrels": st.booleans(),
        "ties_include_start": st.booleans(),
    }
)


def bosk_map_state(state: Any, t: BoardMap) -> Any:
    """The image of a Bosk state under board transform ``t`` (terrain mapped too)."""
    game = state.game
    d = state.to_dict()
    n = game.size - 1
    d["trees"] = [[*t.inter((i, j)), o, v] for i, j, o, v in d["trees"]]
    stacks = np.empty((game.size, game.size), dtype=object)
    stacks[:, :] = [list(row) for row in d["stacks"]]
    d["stacks"] = t.grid(stacks).tolist()
    if d["tree"] is not None:
        d["tree"] = list(t.inter(tuple(d["tree"])))
    if d["last"] is not None:
        d["last"] = list(t.square(tuple(d["last"])))
    if d["first_wind"] is not None:
        # keep the current wind's image; for a rotation that is the first wind's image
        shift = max(d["round"], 1) - 1
        current = DIRS[(DIRS.index(d["first_wind"]) + shift) % 4]
        d["first_wind"] = DIRS[(DIRS.index(t.direction(current)) - shift) % 4]
    assert all(0 <= x < n for tr in d["trees"] for x in tr[:2])
    image_game = fg.make(
        "bosk",
        num_players=game.num_players,
        terrain=t.grid(np.asarray(game.terrain)).copy(),
        squirrel_exactly_three=game.squirrel_exactly_three,
        squirrel_passes_squirrels=game.squirrel_passes_squirrels,
        ties_include_start=game.ties_include_start,
    )
    return image_game.state_from_dict(d)


def bosk_map_move(move: Any, t: BoardMap) -> Any:
    if isinstance(move, PlantTree):
        return PlantTree(move.player, move.value, t.inter(move.at))
    if isinstance(move, ChooseTree):
        return ChooseTree(move.player, t.inter(move.at))
    if isinstance(move, PlaceLeaf):
        return PlaceLeaf(move.player, t.square(move.at))
    if isinstance(move, PlaceSquirrel):
        return PlaceSquirrel(move.player, t.square(move.at))
    if isinstance(move, ChooseWind):
        return ChooseWind(move.player, t.direction(move.direction))
    assert isinstance(move, ChooseTile)
    return move


def bosk_relabel_state(state: Any, k: int) -> Any:
    """The image of a Bosk state with every seat s renamed (s + k) % P."""
    p = state.game.num_players

    def seat(s: int) -> int:
        return (s + k) % p

    def stack(text: str) -> str:
        return "".join(str(seat(int(ch))) if ch.isdigit() else ch for ch in text)

    def permuted(row: list[Any]) -> list[Any]:
        out = [None] * p
        for s, x in enumerate(row):
            out[seat(s)] = x
        return out

    d = state.to_dict()
    d["order"] = [seat(s) for s in d["order"]]
    d["trees"] = [[i, j, seat(o), v] for i, j, o, v in d["trees"]]
    d["stacks"] = [[stack(x) for x in row] for row in d["stacks"]]
    for key in ("tiles_used", "round_tiles", "summer", "winter"):
        d[key] = permuted(d[key])
    return state.game.state_from_dict(d)


def bosk_relabel_move(move: Any, k: int, p: int) -> Any:
    import attrs

    return attrs.evolve(move, player=(move.player + k) % p)


def random_bosk_boards(
    rng: np.random.Generator, batch: int, p: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    size = {2: 8, 3: 10, 4: 12}[p]
    n = size - 1
    owner = rng.integers(-1, p, (batch, n, n)).astype(np.int8)
    owner[rng.random(owner.shape) < rng.random()] = -1  # sparse boards too
    value = np.where(owner >= 0, rng.integers(1, 5, owner.shape), 0).astype(np.int8)
    top = rng.integers(-1, p, (batch, size, size)).astype(np.int8)
    top[rng.random(top.shape) < rng.random()] = -1
    terrain = rng.integers(0, 8, (size, size)).astype(np.int8)
    return owner, value, top, terrain


# ---------------------------------------------------------------------- Bosk kernels


@SETTINGS
@given(seed=SEEDS, p=st.integers(2, 4), t=BOARD_MAPS)
def test_bosk_kernels_dihedral(seed, p, t):
    """Summer scores rows and columns alike, winter counts squares per terrain type
    wherever they are (rules/bosk.md, Summer and Winter): any of the 8 symmetries of
    the square, applied to the boards and the terrain together, keeps every score.
    A batch of boards scores as each board alone and as the plain reference."""
    rng = np.random.default_rng(seed)
    owner, value, top, terrain = random_bosk_boards(rng, 40, p)
    t.size = terrain.shape[0]
    summer = summer_scores(owner, value, p)
    winter = winter_scores(top, terrain, p)
    np.testing.assert_array_equal(summer_scores(t.grid(owner), t.grid(value), p), summer)
    np.testing.assert_array_equal(winter_scores(t.grid(top), t.grid(terrain), p), winter)
    # batch shape (5, 8): the kernels are per board
    np.testing.assert_array_equal(
        summer_scores(
            owner.reshape(5, 8, *owner.shape[1:]), value.reshape(5, 8, *owner.shape[1:]), p
        ),
        summer.reshape(5, 8, p),
    )
    for b in (0, 17, 39):
        plain_summer, plain_winter = plain_board_scores(owner[b], value[b], top[b], terrain, p)
        assert (list(summer[b]), list(winter[b])) == (plain_summer, plain_winter)
        np.testing.assert_array_equal(summer_scores(owner[b], value[b], p), summer[b])


@SETTINGS
@given(seed=SEEDS, p=st.integers(2, 4), data=st.data())
def test_bosk_kernels_seat_permutation(seed, p, data):
    """The ranking rule (rules/bosk.md, Summer, Winter) names no seat: renaming the
    seats on the board renames the scores the same way (any permutation, not only
    clockwise rotations)."""
    perm = data.draw(st.permutations(range(p)))
    rng = np.random.default_rng(seed)
    owner, value, top, terrain = random_bosk_boards(rng, 40, p)
    lut = np.array([*perm, -1], dtype=np.int8)  # lut[-1] = -1
    summer = summer_scores(owner, value, p)
    winter = winter_scores(top, terrain, p)
    summer2 = summer_scores(lut[owner], value, p)
    winter2 = winter_scores(lut[top], terrain, p)
    np.testing.assert_array_equal(summer2[..., list(perm)], summer)
    np.testing.assert_array_equal(winter2[..., list(perm)], winter)
    # the shared ranking rule itself, over the seat axis
    totals = rng.integers(0, 5, (30, 6, p))
    pts = placement_points(totals, 5, 3, 8, 4, 1)
    np.testing.assert_array_equal(
        placement_points(totals[..., np.argsort(perm)], 5, 3, 8, 4, 1)[..., list(perm)], pts
    )


# ---------------------------------------------------------------------- Bosk positions


@SETTINGS
@given(seed=SEEDS, p=st.integers(2, 4), cut=CUTS, t=BOARD_MAPS, opts=BOSK_OPTIONS)
def test_bosk_position_symmetry(seed, p, cut, t, opts):
    """Nothing in Bosk's rules depends on where north is: the legal moves of a
    rotated or mirrored position (terrain, trees, leaves, squirrels and the current
    wind mapped) are the images of the original's, with the same scores; after any
    move the images agree again (for the reflections, which turn the wind the other
    way round, only while the round lasts)."""
    state = play_to(fg.make("bosk", num_players=p, **(opts or {})), seed, cut)
    t.size = state.game.size
    image = bosk_map_state(state, t)
    assert image.scores == state.scores
    assert image.current_player == state.current_player
    assert image.phase == state.phase
    if state.wind is not None:
        assert image.wind == t.direction(state.wind)
    for seat in range(p):
        mapped = {bosk_map_move(m, t) for m in state.legal_moves(seat)}
        assert mapped == set(image.legal_moves(seat))
    if state.is_terminal:
        assert image.winners == state.winners
        return
    rng = random.Random(seed)
    for move in rng.sample(state.legal_moves(), min(3, len(state.legal_moves()))):
        after = state.apply(move)
        after_image = image.apply(bosk_map_move(move, t))
        assert after_image.scores == after.scores
        expected = bosk_map_state(after, t).to_dict()
        got = after_image.to_dict()
        if not t.keeps_clockwise and after.round != state.round:
            expected.pop("first_wind"), got.pop("first_wind")
        assert got == expected


@SETTINGS
@given(seed=SEEDS, p=st.integers(2, 4), cut=CUTS, k=st.integers(1, 3), opts=BOSK_OPTIONS)
def test_bosk_seat_rotation(seed, p, cut, k, opts):
    """Seats only matter through the clockwise order (spring, start-player ties,
    round order, the end tie-break: rules/bosk.md): renaming every seat s as
    s + k mod P renames the scores, the winners and the legal moves, and moves
    commute with the renaming."""
    state = play_to(fg.make("bosk", num_players=p, **(opts or {})), seed, cut)
    k %= p
    image = bosk_relabel_state(state, k)
    for s in range(p):
        assert image.scores[(s + k) % p] == state.scores[s]
        assert {bosk_relabel_move(m, k, p) for m in state.legal_moves(s)} == set(
            image.legal_moves((s + k) % p)
        )
    assert image.winners == tuple((w + k) % p for w in state.winners)
    if state.is_terminal:
        return
    move = random.Random(seed).choice(state.legal_moves())
    after = image.apply(bosk_relabel_move(move, k, p))
    assert after.to_dict() == bosk_relabel_state(state.apply(move), k).to_dict()


@SETTINGS
@given(seed=SEEDS, p=st.integers(2, 4), k=st.integers(0, 3), t=BOARD_MAPS, opts=BOSK_OPTIONS)
def test_bosk_whole_game_rotation(seed, p, k, t, opts):
    """A whole game played on the rotated board by the renamed seats (start seat
    renamed, every move mapped) ends in the image of the original game's final
    position, with the renamed scores and winner: the rotations and clockwise
    renamings are symmetries of every season, wind turns included."""
    t.flip = False
    game = fg.make("bosk", num_players=p, **(opts or {}))
    t.size = game.size
    k %= p
    start = game.new_game(seed=seed)
    image_game = bosk_map_state(start, t).game
    image = image_game.new_game(seed=seed + 1, first_player=(start.current_player + k) % p)
    *steps, (state, _) = random_game(game, seed)
    for _, move in steps:
        image = image.apply(bosk_relabel_move(bosk_map_move(move, t), k, p))
    assert image.is_terminal
    assert image.to_dict() == bosk_relabel_state(bosk_map_state(state, t), k).to_dict()
    assert image.scores == tuple(state.scores[(s - k) % p] for s in range(p))
    assert image.winners == tuple((w + k) % p for w in state.winners)
    # scores kept along the way equal the kernels on the final board, from scratch
    final = np.array(state.scores)
    from_scratch = summer_scores(state.tree_owner, state.tree_value, p)  # trees are gone
    assert (from_scratch == 0).all()
    np.testing.assert_array_equal(
        final,
        np.array(state.summer) + winter_scores(state.top, game.terrain, p),
    )


@SETTINGS
@given(seed=SEEDS, p=st.integers(2, 4), cut=CUTS, t=BOARD_MAPS, opts=BOSK_OPTIONS)
def test_vector_bosk_symmetry(seed, p, cut, t, opts):
    """The lockstep engine follows the same rules: the masks of a position and of
    its rotated or mirrored image (VectorBosk.from_states) mark the images of the
    same moves, and their scores agree."""
    state = play_to(fg.make("bosk", num_players=p, **(opts or {})), seed, cut)
    t.size = state.game.size
    image = bosk_map_state(state, t)
    vec, vec_image = VectorBosk.from_states([state]), VectorBosk.from_states([image])
    np.testing.assert_array_equal(vec.scores, vec_image.scores)
    ids = np.flatnonzero(vec.legal_action_mask()[0])
    image_ids = np.flatnonzero(vec_image.legal_action_mask()[0])
    player = state.current_player
    if player is None:
        assert len(ids) == len(image_ids) == 0
        return
    moves = {bosk_map_move(state.game.move_from_id(int(i), player), t) for i in ids}
    assert moves == {image.game.move_from_id(int(i), player) for i in image_ids}


# ====================================================================== Bonsai


def bonsai_trees(seed: int, cut: float, p: int) -> list[dict[tuple[int, int], str]]:
    state = play_to(fg.make("bonsai", num_players=p), seed, cut)
    return [{(q, r): kind for q, r, kind in pl["tree"]} for pl in state.to_dict()["players"]]


def bud_mirror(at: tuple[int, int]) -> tuple[int, int]:
    """Reflection of hex (q, r) about the vertical line through the bud (x = q + r/2 -> -x)."""
    q, r = at
    return (-q - r, r)


def pot_mirror(at: tuple[int, int]) -> tuple[int, int]:
    """Reflection about the pot's own axis, x = 1/2 (x -> 1 - x)."""
    q, r = at
    return (1 - q - r, r)


POT = set(POT_QR)
# The pot is symmetric about x = 1/2, the bud is at x = 0: the bud's mirror sends
# these three pot cells off the pot and their images onto it.
ASYMMETRIC = {c for c in POT if bud_mirror(c) not in POT} | {
    bud_mirror(c) for c in POT if bud_mirror(c) not in POT
}


def test_bonsai_pot_and_protrusion_symmetry():
    """The pot (15 cells, rules/bonsai.md) is symmetric about x = 1/2, and so are the
    protrusion limits x <= -2 / x >= 3: the pot's mirror swaps left and right
    protrusion (and below-left, below-right), cell by cell."""
    assert {pot_mirror(c) for c in POT} == POT
    for q in range(-12, 13):
        for r in range(-12, 6):
            bits = protrusion_bits(cell_of(q, r))
            image = protrusion_bits(cell_of(*pot_mirror((q, r))))
            swapped = (
                (bits & ~(B_LEFT | B_RIGHT | B_LEFT << 2 | B_RIGHT << 2))
                | ((bits & B_LEFT) and B_RIGHT)
                | ((bits & B_RIGHT) and B_LEFT)
                | ((bits & B_LEFT << 2) and B_RIGHT << 2)
                | ((bits & B_RIGHT << 2) and B_LEFT << 2)
            )
            assert image == swapped, (q, r)
    assert ASYMMETRIC == {(3, 0), (2, 1), (1, 2), (-3, 0), (-3, 1), (-3, 2)}


@SETTINGS
@given(seed=SEEDS, cut=CUTS, p=st.integers(1, 4), data=st.data())
def test_bonsai_tree_points_invariances(seed, cut, p, data):
    """Points depend on the tiles and which touch which (leaf 3, fruit 7, flower 1
    per free side, pot sides free: rules/bonsai.md, End and scoring), not on the
    order the tiles were placed nor on left and right: a shuffled tile dict and the
    tree mirrored about the bud score the same (pot sides count as free, so the
    pot's shape does not matter). With pot cells as occupied sides the mirror keeps
    the points when no flower touches the pot's asymmetric cells."""
    for tiles in bonsai_trees(seed, cut, p):
        points = fg.bonsai.tree_points(tiles)
        items = list(tiles.items())
        data.draw(st.randoms()).shuffle(items)
        assert fg.bonsai.tree_points(dict(items)) == points
        mirrored = {bud_mirror(at): kind for at, kind in tiles.items()}
        if POT & set(mirrored):
            continue  # a tile mirrored onto the pot: no such tree
        assert fg.bonsai.tree_points(mirrored) == points
        strict = fg.bonsai.tree_points(tiles, pot_sides_free=False)
        touches = {
            (q + dq, r + dr)
            for (q, r), kind in tiles.items()
            if kind == "flower"
            for dq, dr in ((1, 0), (-1, 0), (0, -1), (1, -1), (-1, 1), (0, 1))
        }
        if not touches & ASYMMETRIC:
            assert fg.bonsai.tree_points(mirrored, pot_sides_free=False) == strict
        # goal measures: counts and leaf groups are mirror-free
        m, mm = fg.bonsai.goal_measures(tiles), fg.bonsai.goal_measures(mirrored)
        assert m[:3] == mm[:3]


@SETTINGS
@given(seed=SEEDS, cut=CUTS, p=st.integers(1, 4))
def test_bonsai_goal_measures_pot_mirror(seed, cut, p):
    """Pink counts flowers protruding on one same side and blue's medium and large
    tiles ask for both sides (rules/bonsai.md, Goal tiles): mirroring a tree about
    the pot's axis swaps the left and right flower counts and keeps brown, green,
    orange, pink and whether blue 2 / blue 3 are met; blue 1 (the gold crack's side,
    the right) is the one asymmetric goal."""
    for tiles in bonsai_trees(seed, cut, p):
        cells = {cell_of(*at): fg.bonsai.KINDS.index(k) for at, k in tiles.items()}
        cells[cell_of(0, 0)] = fg.bonsai.KINDS.index("wood")
        image = {cell_of(*pot_mirror(fg.bonsai._tables.qr_of(c))): k for c, k in cells.items()}
        left, right = flowers_protruding(cells)
        assert flowers_protruding(image) == (right, left)
        m, mm = measures_of(cells), measures_of(image)
        assert m[:4] == mm[:4]
        assert (m[4] >= 2) == (mm[4] >= 2) and (m[4] == 3) == (mm[4] == 3)


@SETTINGS
@given(seed=SEEDS, cut=CUTS, p=st.integers(1, 4))
def test_bonsai_can_place_mirror(seed, cut, p):
    """The placement rule (wood touches wood, leaf touches wood, flower a leaf, fruit
    two touching leaves and no fruit; never on the pot or a tile: rules/bonsai.md)
    is about neighbours only: mirrored about the bud it gives the mirrored answer,
    except on the pot cells the bud's mirror does not keep."""
    for tiles in bonsai_trees(seed, cut, p):
        mirrored = {bud_mirror(at): kind for at, kind in tiles.items()}
        if (POT | ASYMMETRIC) & set(mirrored) or ASYMMETRIC & set(tiles):
            continue
        span = {
            (q + dq, r + dr) for q, r in [*tiles, (0, 0)] for dq in (-1, 0, 1) for dr in (-1, 0, 1)
        }
        for at in span - ASYMMETRIC:
            for kind in fg.bonsai.KINDS:
                assert fg.bonsai.can_place(tiles, at, kind) == fg.bonsai.can_place(
                    mirrored, bud_mirror(at), kind
                ), (at, kind)


GOAL_POINTS = {
    "brown": (5, 10, 15),
    "green": (6, 9, 12),
    "orange": (9, 11, 13),
    "pink": (8, 12, 16),
    "blue": (7, 10, 14),
}
PARCHMENT_PER = {"wood": 1, "leaf": 1, "flower": 2, "fruit": 2}


@SETTINGS
@given(seed=SEEDS, cut=CUTS, p=st.integers(1, 4))
def test_bonsai_scores_from_scratch(seed, cut, p):
    """A seat's points are its tree's points, its claimed goals and its Parchments
    (rules/bonsai.md, End and scoring), recomputed here from the saved position and
    the rulebook's numbers, independently of the engine's running totals."""
    state = play_to(fg.make("bonsai", num_players=p), seed, cut)
    d = state.to_dict()
    for seat, pl in enumerate(d["players"]):
        tiles = {(q, r): kind for q, r, kind in pl["tree"]}
        counts = {k: sum(1 for v in tiles.values() if v == k) for k in PARCHMENT_PER}
        counts["wood"] += 1  # the bud
        kinds = [c.split(":")[0] for c in pl["cards"]]
        parchments = 0
        for card in pl["cards"]:
            kind, _, what = card.partition(":")
            if kind == "parchment":
                parchments += (
                    PARCHMENT_PER[what] * counts[what] if what in counts else 2 * kinds.count(what)
                )
        goals = sum(
            GOAL_POINTS[name.split()[0]][int(name.split()[1]) - 1]
            for name, owner in d["goal_owners"].items()
            if owner == seat
        )
        assert state.scores[seat] == fg.bonsai.tree_points(tiles) + goals + parchments


# ====================================================================== Living Forest, Boom Bokken


@SETTINGS
@given(data=st.data(), p=st.integers(2, 4))
def test_living_forest_decide_winners_symmetry(data, p):
    """The winner rule (12 of one kind; several: highest sum, ties shared:
    rules/living_forest.md) names no seat and no kind first: permuting the seats
    permutes the winners, permuting the three kinds alike for every seat changes
    nothing."""
    progress = data.draw(st.lists(st.tuples(*[st.integers(0, 14)] * 3), min_size=p, max_size=p))
    perm = data.draw(st.permutations(range(p)))
    kinds = data.draw(st.permutations(range(3)))
    winners = fg.living_forest.decide_winners(progress)
    moved = [None] * p
    for s in range(p):
        moved[perm[s]] = progress[s]
    assert set(fg.living_forest.decide_winners(moved)) == {perm[w] for w in winners}
    swapped = [tuple(row[k] for k in kinds) for row in progress]
    assert fg.living_forest.decide_winners(swapped) == winners


@SETTINGS
@given(data=st.data(), p=st.integers(2, 8))
def test_boom_bokken_round_coins_symmetry(data, p):
    """Coins go by team rank of the first safe member (rules/boom_bokken.md, End of a
    round): renaming seats renames the coins; renaming teams changes nothing; moving
    a safe seat later without passing another team's first safe member changes
    nothing."""
    team_of = data.draw(st.lists(st.integers(0, 3), min_size=p, max_size=p))
    safe = data.draw(st.permutations(range(p)))[: data.draw(st.integers(0, p))]
    coins = fg.boom_bokken.round_coins(safe, team_of)
    perm = data.draw(st.permutations(range(p)))
    team2 = [None] * p
    for s in range(p):
        team2[perm[s]] = team_of[s]
    coins2 = fg.boom_bokken.round_coins([perm[s] for s in safe], team2)
    assert all(coins2[perm[s]] == coins[s] for s in range(p))
    names = data.draw(st.permutations(["yellow", "green", "violet", "red"]))
    assert fg.boom_bokken.round_coins(safe, [names[t] for t in team_of]) == coins
    # moving the last safe seat of a team that is already ranked to the end
    ranked = [s for i, s in enumerate(safe) if team_of[s] in {team_of[x] for x in safe[:i]}]
    if ranked:
        s = ranked[0]
        assert fg.boom_bokken.round_coins([x for x in safe if x != s] + [s], team_of) == coins


# ====================================================================== every game

GAMES = {
    "bosk": (2, 4),
    "bonsai": (1, 4),
    "living_forest": (2, 4),
    "boom_bokken": (4, 9),
}


@st.composite
def any_state(draw: st.DrawFn) -> Any:
    name = draw(st.sampled_from(sorted(GAMES)))
    low, high = GAMES[name]
    game = fg.make(name, num_players=draw(st.integers(low, high)))
    return play_to(game, draw(SEEDS), draw(CUTS))


@SETTINGS
@given(state=any_state(), det_seed=SEEDS)
def test_determinize_keeps_the_view(state, det_seed):
    """determinize(seat, seed) only resamples what that seat cannot see (DESIGN.md):
    its observation, its tensor, its legal moves (and whether it may act now), whose
    turn it is and the scores (public in every game) are unchanged, and determinizing
    twice is stable."""
    for seat in range(state.game.num_players):
        other = state.determinize(seat, det_seed)
        assert other.observation(seat) == state.observation(seat)
        np.testing.assert_array_equal(
            other.observation_tensor(seat), state.observation_tensor(seat)
        )
        assert other.current_player == state.current_player
        # who else may act out of turn can depend on their hidden hands (Boom Bokken)
        assert (seat in other.players_to_act) == (seat in state.players_to_act)
        assert other.is_terminal == state.is_terminal
        assert other.scores == state.scores
        assert set(other.legal_moves(seat)) == set(state.legal_moves(seat))
        again = other.determinize(seat, det_seed + 1)
        assert again.observation(seat) == state.observation(seat)


@SETTINGS
@given(state=any_state())
def test_round_trip_keeps_everything(state):
    """A saved and reloaded position is the same position (DESIGN.md, to_dict):
    every seat's moves, view and the scores agree."""
    back = state.game.state_from_dict(state.to_dict())
    assert back == state
    assert back.scores == state.scores and back.winners == state.winners
    for seat in range(state.game.num_players):
        assert back.legal_moves(seat) == state.legal_moves(seat)
        assert back.observation(seat) == state.observation(seat)


@pytest.mark.slow
@LONGER
@SLOW
@pytest.mark.timeout(0)
@given(
    seed=SEEDS, p=st.integers(2, 4), cut=CUTS, t=BOARD_MAPS, k=st.integers(0, 3), opts=BOSK_OPTIONS
)
def test_bosk_symmetry_slow(seed, p, cut, t, k, opts):
    """The Bosk position and seat symmetries above, ten times as many positions."""
    test_bosk_position_symmetry.hypothesis.inner_test(seed, p, cut, t, opts)
    test_bosk_seat_rotation.hypothesis.inner_test(seed, p, cut, max(k, 1), opts)


@SETTINGS
@given(seed=SEEDS, p=st.integers(4, 9), cut=CUTS, data=st.data())
def test_boom_bokken_hand_order(seed, p, cut, data):
    """A hand is a set of cards (rules/boom_bokken.md): shuffling the cards within
    every hand changes no seat's legal moves (as a set), no score and no seat's
    ability to act."""
    state = play_to(fg.make("boom_bokken", num_players=p), seed, cut)
    d = state.to_dict()
    rnd = data.draw(st.randoms())
    for hand in d["hands"]:
        rnd.shuffle(hand)
    other = state.game.state_from_dict(d)
    assert other.scores == state.scores
    assert set(other.players_to_act) == set(state.players_to_act)
    for seat in range(p):
        assert set(other.legal_moves(seat)) == set(state.legal_moves(seat))
    if not state.is_terminal:
        move = rnd.choice(state.legal_moves())
        assert other.apply(move).scores == state.apply(move).scores


# ====================================================================== seat relabelling:
# Living Forest and Boom Bokken
# A relabelling sigma sends seat s to sigma[s]: every per-seat list is permuted
# (out[sigma[s]] = row[s]), every seat number inside the state or a move is mapped.
# Decks, the reserve and the deals' seeds are not seat-indexed and stay as they are.


def permuted(row: list[Any], sigma: list[int]) -> list[Any]:
    """out[sigma[s]] = row[s]."""
    out: list[Any] = [None] * len(row)
    for s, x in enumerate(row):
        out[sigma[s]] = x
    return out


def rotation(p: int, k: int) -> list[int]:
    return [(s + k) % p for s in range(p)]


def relabel_move(move: Any, sigma: list[int]) -> Any:
    """A move of either game with its player and any seat it names mapped."""
    import attrs

    changes: dict[str, Any] = {"player": sigma[move.player]}
    for key in ("source", "target", "next_leader"):  # TakeVictory, Play, Boom
        value = getattr(move, key, None)
        if value is not None:
            changes[key] = sigma[value]
    return attrs.evolve(move, **changes)


# ---------------------------------------------------------------------- Living Forest

LF_OPTIONS = st.fixed_dictionaries(
    {
        "duplicate_trees": st.booleans(),
        "reveal_after_third": st.booleans(),
        "varan_returns": st.booleans(),
        # short games end at the limit (highest sums); few fires run the supply dry
        "turn_limit": st.sampled_from([100, 100, 3, 8]),
        "fire_tiles": st.sampled_from([(20, 20, 18), (20, 20, 18), (2, 1, 0), (4, 3, 3)]),
        "guardian_phase": st.sampled_from(["turn_order", "simultaneous"]),
    }
)


def lf_relabel_dict(d: dict[str, Any], sigma: list[int]) -> dict[str, Any]:
    """A Living Forest saved state or observation with its seats renamed by ``sigma``."""
    d = dict(d)
    d["sacred"] = sigma[d["sacred"]]
    d["passed"] = [sigma[s] for s in d["passed"]]
    d["spirits"] = permuted(d["spirits"], sigma)
    if d.get("guardian_start"):  # guardian_phase="simultaneous": the seats as they started
        d["guardian_start"] = {
            **d["guardian_start"],
            "spirits": permuted(d["guardian_start"]["spirits"], sigma),
        }
    if "observer" in d:
        d["observer"] = sigma[d["observer"]]
    return d


def lf_relabel_state(state: Any, sigma: list[int]) -> Any:
    return state.game.state_from_dict(lf_relabel_dict(state.to_dict(), sigma))


def check_relabelled_position(state: Any, image: Any, sigma: list[int]) -> None:
    """Who acts, scores, winners, every seat's legal moves and view map by ``sigma``."""
    p = state.game.num_players
    assert image.is_terminal == state.is_terminal
    cur = state.current_player
    assert image.current_player == (None if cur is None else sigma[cur])
    assert set(image.players_to_act) == {sigma[s] for s in state.players_to_act}
    if state.players_to_act:
        assert image.players_to_act[0] == sigma[state.players_to_act[0]]
    assert list(image.scores) == permuted(list(state.scores), sigma)
    assert sorted(image.winners) == sorted(sigma[w] for w in state.winners)
    for s in range(p):
        mapped = [relabel_move(m, sigma) for m in state.legal_moves(s)]
        got = image.legal_moves(sigma[s])
        assert set(mapped) == set(got) and len(got) == len(mapped), s


@SETTINGS
@given(seed=SEEDS, p=st.integers(2, 4), cut=CUTS, k=st.integers(1, 3), opts=LF_OPTIONS)
def test_living_forest_seat_rotation(seed, p, cut, k, opts):
    """Seats differ only by the turn order from the Sacred Tree holder (rules/
    living_forest.md, A turn: reveals, actions, Varans dealt "in turn order", the
    Sacred Tree passing clockwise); starting rocks are part of the position. So
    renaming every seat s as s + k mod P (Sacred Tree, Spirits, Spirits passed by
    a Move, seats in moves) renames who acts, the legal moves, each seat's view,
    the scores and the winners, and every move commutes with the renaming."""
    state = play_to(fg.make("living_forest", num_players=p, **opts), seed, cut)
    sigma = rotation(p, k % p or 1)
    image = lf_relabel_state(state, sigma)
    assert image.progress == tuple(permuted(list(state.progress), sigma))
    check_relabelled_position(state, image, sigma)
    for s in range(p):
        assert image.observation(sigma[s]) == lf_relabel_dict(state.observation(s), sigma)
    if state.is_terminal:
        return
    rng = random.Random(seed)
    moves = state.legal_moves()
    for move in rng.sample(moves, min(3, len(moves))):
        after, after_image = state.apply(move), image.apply(relabel_move(move, sigma))
        assert after_image.to_dict() == lf_relabel_state(after, sigma).to_dict(), move
        check_relabelled_position(after, after_image, sigma)  # moves the step worked out


@SETTINGS
@given(seed=SEEDS, p=st.integers(2, 4), k=st.integers(1, 3), opts=LF_OPTIONS)
def test_living_forest_whole_game_rotation(seed, p, k, opts):
    """The same, over a whole game: the renamed start position, played with the
    renamed moves (reshuffles, Onibi's Varans, reserve refills and the Sacred Tree's
    passing included), ends in the renamed final position with the renamed winners."""
    game = fg.make("living_forest", num_players=p, **opts)
    sigma = rotation(p, k % p or 1)
    image = lf_relabel_state(game.new_game(seed=seed), sigma)
    *steps, (state, _) = random_game(game, seed)
    for _, move in steps:
        image = image.apply(relabel_move(move, sigma))
    assert image.to_dict() == lf_relabel_state(state, sigma).to_dict()
    check_relabelled_position(state, image, sigma)


# ---------------------------------------------------------------------- Boom Bokken

BB_CARDS = ("T", *(str(v) for v in range(1, 9)), *(f"F{v}" for v in range(1, 9)))


@st.composite
def bb_game(draw: st.DrawFn, p: int) -> Any:
    """A Boom Bokken game of ``p`` seats with random options: either team split, Expert
    mode, where Temps Mort go, the clay rule, distinct flashers, and now and then a small
    odd deck (just enough cards, many of a few values: Flashes, empty draw piles)."""
    from forestgames.boom_bokken._tables import HAND_SIZE, TEAM_SIZES

    splits = TEAM_SIZES[p]
    opts: dict[str, Any] = {
        "team_sizes": list(splits[draw(st.integers(0, len(splits) - 1))]),
        "expert": draw(st.booleans()),
        "last_team_clay": draw(st.booleans()),
        "distinct_flashers": draw(st.booleans()),
        "spent_time_outs": draw(st.sampled_from(["deck", "aside"])),
    }
    if draw(st.integers(0, 3)) == 0:
        names = draw(st.lists(st.sampled_from(BB_CARDS), min_size=1, max_size=5, unique=True))
        need = p * HAND_SIZE[p] + draw(st.integers(0, 6))
        deck = {name: 0 for name in names}
        for k in range(need):
            deck[names[k % len(names)]] += 1
        if max(deck.values()) <= 99:
            opts["deck"] = deck
    return fg.make("boom_bokken", num_players=p, **opts)


def bb_relabel_dict(d: dict[str, Any], sigma: list[int], tau: list[int]) -> dict[str, Any]:
    """A Boom Bokken saved state or observation with seat s renamed sigma[s] and team t
    renamed tau[t] (tau only swaps teams of one size)."""
    d = dict(d)

    def seat(s: int | None) -> int | None:
        return None if s is None else sigma[s]

    def teams(row: list[int]) -> list[int]:
        return permuted([tau[t] for t in row], sigma)

    for key in ("hands", "hand_sizes", "tokens", "known_cards", "roles"):
        if d.get(key) is not None:
            d[key] = permuted(d[key], sigma)
    for key in ("leader", "target", "last_player", "observer"):
        if key in d:
            d[key] = seat(d[key])
    d["safe"] = [sigma[s] for s in d["safe"]]
    d["exploded"] = [sigma[s] for s in d["exploded"]]  # exploded_on follows this order
    if "flashers" in d:
        d["flashers"] = sorted(sigma[s] for s in d["flashers"])
    d["teams"] = teams(d["teams"])
    d["history"] = [
        {"safe_order": [sigma[s] for s in h["safe_order"]], "teams": teams(h["teams"])}
        for h in d["history"]
    ]
    return d


def bb_relabel_state(state: Any, sigma: list[int], tau: list[int]) -> Any:
    return state.game.state_from_dict(bb_relabel_dict(state.to_dict(), sigma, tau))


@st.composite
def team_relabelling(draw: st.DrawFn, sizes: tuple[int, ...]) -> list[int]:
    """A permutation of the team ids that keeps every team's size."""
    tau = list(range(len(sizes)))
    for size in set(sizes):
        ids = [t for t, n in enumerate(sizes) if n == size]
        for t, image in zip(ids, draw(st.permutations(ids)), strict=True):
            tau[t] = image
    return tau


def is_rotation(sigma: list[int]) -> bool:
    p = len(sigma)
    return sigma == rotation(p, sigma[0])


def check_bb_step(state: Any, image: Any, move: Any, sigma: list[int], tau: list[int]) -> Any:
    """Apply ``move`` and its image; check they agree as far as the rules say. Returns
    the original's next state."""
    after = state.apply(move)
    after_image = image.apply(relabel_move(move, sigma))
    round_ends = after.round != state.round or after.over
    if not round_ends:
        assert after_image.to_dict() == bb_relabel_state(after, sigma, tau).to_dict(), move
        check_relabelled_position(after, after_image, sigma)
        return after
    # the seats left are safe clockwise from the last leader: only rotations keep that
    if not is_rotation(sigma):
        assert set(after_image.history[-1][0]) == {sigma[s] for s in after.history[-1][0]}
        return after
    expected = bb_relabel_dict(after.to_dict(), sigma, tau)
    got = after_image.to_dict()
    if not after.over:  # the next round's deal is dealt by seat from the seed: not mapped
        for key in ("hands", "deck", "teams", "roles", "known_cards", "known_bottom"):
            expected.pop(key), got.pop(key)
    assert got == expected, move
    assert list(after_image.scores) == permuted(list(after.scores), sigma)
    return after


@SETTINGS
@given(seed=SEEDS, p=st.integers(4, 9), cut=CUTS, data=st.data())
def test_boom_bokken_seat_permutation(seed, p, cut, data):
    """Within a round Boom Bokken names no seat order (rules/boom_bokken.md, The chain,
    Out-of-turn cards: a lead names any player still in; anyone may Flash or play a
    Temps Mort; teams by character cards, team ids only names): any renaming of the
    seats, with the teams of one size renamed among themselves, maps the legal moves
    of every seat, who may act, the scores, each seat's view, and every move (answers,
    Flashes, Temps Mort, Booms, Gardiens' answers) commutes with it. A move that ends
    the round (seats left safe "clockwise from the last leader") commutes for the
    rotations; for any renaming it still makes the same seats safe."""
    game = data.draw(bb_game(p))
    state = play_to(game, seed, cut)
    sigma = data.draw(st.permutations(range(p)))
    tau = data.draw(team_relabelling(game.team_sizes))
    image = bb_relabel_state(state, sigma, tau)
    check_relabelled_position(state, image, sigma)
    for s in range(p):
        assert image.observation(sigma[s]) == bb_relabel_dict(state.observation(s), sigma, tau)
    if state.is_terminal:
        return
    rng = random.Random(seed)
    for seat in state.players_to_act:  # one move of every seat that may act: reactions too
        check_bb_step(state, image, rng.choice(state.legal_moves(seat)), sigma, tau)


@settings(SETTINGS, max_examples=100)
@given(seed=SEEDS, p=st.integers(4, 9), k=st.integers(1, 8), data=st.data())
def test_boom_bokken_whole_game_rotation(seed, p, k, data):
    """A whole game under a clockwise renaming (teams of one size renamed too): the
    renamed deal played with the renamed moves, reactions included, follows the
    original round by round (each new deal is drawn by seat from the seed, so it is
    renamed afresh), ending in the renamed scores, tokens and winners."""
    game = data.draw(bb_game(p))
    sigma = rotation(p, k % p or 1)
    tau = data.draw(team_relabelling(game.team_sizes))
    image = bb_relabel_state(game.new_game(seed=seed), sigma, tau)
    *steps, (state, _) = random_game(game, seed)
    for before, move in steps:
        after = check_bb_step(before, image, move, sigma, tau)
        image = image.apply(relabel_move(move, sigma))
        if after.round != before.round:
            image = bb_relabel_state(after, sigma, tau)  # the new deal, renamed
    assert image.to_dict() == bb_relabel_state(state, sigma, tau).to_dict()
    check_relabelled_position(state, image, sigma)


@SETTINGS
@given(
    name=st.sampled_from(["living_forest", "boom_bokken"]),
    seed=SEEDS,
    cut=CUTS,
    k=st.integers(1, 8),
    data=st.data(),
)
def test_rotation_keeps_tensors_and_ids(name, seed, cut, k, data):
    """Tensors list the seats in observer order and action ids name a seat by its
    offset from the player (docs/living_forest.md, docs/boom_bokken.md, Actions and
    tensors); with the rules' seat symmetry, a clockwise renaming changes no seat's
    tensor, legal action mask or move ids (Boom Bokken: team ids one-hot, so a
    renaming of teams permutes those columns only)."""
    if name == "living_forest":
        game = fg.make(name, num_players=data.draw(st.integers(2, 4)))
    else:
        game = data.draw(bb_game(data.draw(st.integers(4, 9))))
    p = game.num_players
    state = play_to(game, seed, cut)
    sigma = rotation(p, k % p or 1)
    if name == "living_forest":
        image, tau = lf_relabel_state(state, sigma), []
    else:
        tau = data.draw(team_relabelling(game.team_sizes))
        image = bb_relabel_state(state, sigma, tau)
    layout = game.codec.layout
    for s in range(p):
        x, y = state.observation_tensor(s), image.observation_tensor(sigma[s]).copy()
        for field in ("teams", "history_teams") if tau else ():
            moved = layout.field(y, field)
            moved[...] = moved[..., tau].copy()  # team t's column back where it was
        np.testing.assert_array_equal(y, x)
        np.testing.assert_array_equal(image.legal_action_mask(sigma[s]), state.legal_action_mask(s))
        for move in state.legal_moves(s)[:20]:
            assert game.action_id(relabel_move(move, sigma)) == game.action_id(move)


@pytest.mark.slow
@LONGER
@SLOW
@pytest.mark.timeout(0)
@given(seed=SEEDS, p=st.integers(2, 4), cut=CUTS, k=st.integers(1, 3), opts=LF_OPTIONS)
def test_living_forest_seat_rotation_slow(seed, p, cut, k, opts):
    """The Living Forest seat rotation above, ten times as many positions."""
    test_living_forest_seat_rotation.hypothesis.inner_test(seed, p, cut, k, opts)


@pytest.mark.slow
@LONGER
@SLOW
@pytest.mark.timeout(0)
@given(seed=SEEDS, p=st.integers(4, 9), cut=CUTS, data=st.data())
def test_boom_bokken_seat_permutation_slow(seed, p, cut, data):
    """The Boom Bokken seat and team renamings above, ten times as many positions."""
    test_boom_bokken_seat_permutation.hypothesis.inner_test(seed, p, cut, data)
