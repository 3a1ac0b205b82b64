"""Metamorphic properties: symmetries and invariances the rules imply.

Each property transforms a position (or a pure function's input) in a way the
rules say cannot matter, or can only matter in a known way (a permutation of
seats, of squares, of left and right), and checks that the engine agrees. The
positions are reachable: random legal games cut at a random move.
"""

from __future__ import annotations

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
from tests.strategies import random_step

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2**32 - 1)
DIRS = ("N", "E", "S", "W")


def play_to(game: Any, seed: int, cut: float) -> Any:
    """A reachable state: random legal game ``seed`` stopped after a ``cut`` share of it."""
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    states = [state]
    while not state.is_terminal:
        state = state.apply(random_step(state, rng))
        states.append(state)
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
    {"squirrel_exactly_three": st.booleans(), "ties_include_start": st.booleans()}
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
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    first = state.current_player
    image_game = bosk_map_state(state, t).game
    image = image_game.new_game(seed=seed + 1, first_player=(first + k) % p)
    while not state.is_terminal:
        move = random_step(state, rng)
        state = state.apply(move)
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
@SLOW
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
