"""Lockstep Bosk: thousands of games stepped at once on numpy arrays.

    vec = fg.bosk.VectorBosk(num_players=4, batch=1024, seed=0)
    rng = np.random.default_rng(1)
    while not vec.terminated.all():
        mask = vec.legal_action_mask()            # (batch, num_actions) int8
        vec.step(vec.random_actions(rng))         # one id per game; finished games ignore theirs
    vec.scores, vec.winners, vec.state(17)        # state(i) is an ordinary BoskState
    vec.reset(2); vec.play(["greedy", "random", "random", "random"], seed=3)  # playouts

Game i of ``VectorBosk(p, batch, seed)`` starts as ``game.new_game(derive_seed(seed, i))``
and follows the rules of the scalar engine (``forestgames.bosk.rules``), every
season and option included; ``state(i)`` equals the scalar state after the
same moves.

Action ids (N = S-1 intersections per side, t = row*N + col, s = row*S + col)::

    PlantTree(value v, intersection t)   (v-1)*N*N + t           [0, 4N²)
    ChooseWind(d), d in N E S W          4N² + index of d        4 ids
    ChooseTree(t)                        4N² + 4 + t             N² ids
    ChooseTile(tile 1..8, 1 = squirrel)  5N² + 4 + tile - 1      8 ids
    PlaceLeaf(s)                         5N² + 12 + s            S² ids
    PlaceSquirrel(s)                     5N² + 12 + S² + s       S² ids

Each phase lists a game's legal ids as a row of candidates in the scalar
engine's ``legal_moves()`` order (-1 where a candidate is not legal): the
mask, the legality check of ``step`` and the playouts all read those rows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Concatenate, ParamSpec, TypeVar

import numpy as np

from forestgames._codec import as_action_id
from forestgames.bosk._pystreams import PythonStreams
from forestgames.bosk._tables import (
    BOARD_SIZE,
    DIRECTIONS,
    LEAF_TILES,
    NUM_TERRAINS,
    ROUNDS,
    SQUIRREL,
    SQUIRREL_MAX_STEPS,
    SUMMER_POINTS,
    TREE_VALUES,
    TREES_PER_VALUE,
    WINTER_POINTS,
    Geometry,
    geometry,
)
from forestgames.bosk._vector_random import (
    Choices,
    NumpyChoices,
    StreamChoices,
    game_index,
    plant_random,
    play_random_turns,
)
from forestgames.bosk.rules import BoskGame
from forestgames.bosk.scoring import _rank
from forestgames.bosk.state import BoskState, Phase
from forestgames.core import (
    ConfigError,
    IllegalMoveError,
    IntLike,
    Sealed,
    StateError,
    as_int,
    check_seat,
    check_seed,
    derive_seed,
    excerpt,
    frozen_array,
    new_rng,
    resolve_seed,
)

__all__ = ["ActionLayout", "VectorBosk"]

# Phase codes of the arrays, in the order of Phase.
PHASES: tuple[Phase, ...] = (
    Phase.SPRING,
    Phase.WIND,
    Phase.TREE,
    Phase.TILE,
    Phase.LEAVES,
    Phase.SQUIRREL,
    Phase.OVER,
)
SPRING, WIND, TREE, TILE, LEAVES, SQUIRREL_STEP, OVER = range(len(PHASES))
PHASE_CODE = MappingProxyType({phase: code for code, phase in enumerate(PHASES)})
VALUES = (1, 2, 3, 4)
_UNDER_SQUIRREL = 127  # a leaf cost no path can pay
LEAF_TILE_COUNT = len(LEAF_TILES)
MAX_BATCH = 1 << 20
"""The most games one VectorBosk holds (a game takes about 3 KB with 2 players, 9 KB with 4)."""


_PLAYERS_OF_SIZE = {size: players for players, size in BOARD_SIZE.items()}
_MOVE_KINDS = {kind: kind.__name__ for kind in BoskGame.MOVE_TYPES}  # by class, not by name


class ActionLayout(Sealed):
    """The id ranges of one board size (see the module docstring). Read-only: shared by
    every VectorBosk of that size (``vec.layout``)."""

    _read_only = "a VectorBosk action layout is read-only"

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles are the one layout of the size (read-only)."""
        return (_layout, (self.size,))

    def __init__(self, size: IntLike) -> None:
        size = as_int(size, "ActionLayout: size (squares a side)", 2)
        n = size - 1
        self.size, self.n = size, n
        self.num_players = _PLAYERS_OF_SIZE.get(size)  # the seats its moves may have
        self.intersections, self.squares = n * n, size * size
        self.plant = 0
        self.wind = 4 * n * n
        self.tree = self.wind + 4
        self.tile = self.tree + n * n
        self.leaf = self.tile + LEAF_TILE_COUNT
        self.squirrel = self.leaf + size * size
        self.num_actions = self.squirrel + size * size
        self._seal()

    def action_id(self, move: Any) -> int:
        """The id of a Bosk move (for tests and conversions; the seat is not part of it).
        IllegalMoveError if ``move`` is not a Bosk move on this board."""
        kind = _MOVE_KINDS.get(type(move))  # None for another class, one of the same name too
        what = f"{excerpt(move)} is not a Bosk move on a {self.size}x{self.size} board"
        if kind is not None and self.num_players is not None:  # as game.action_id
            check_seat(
                self.num_players, getattr(move, "player", None), "move's player", IllegalMoveError
            )
        try:
            if kind == "PlantTree":
                value = as_int(move.value, "value", 1, max(TREE_VALUES), IllegalMoveError)
                return (value - 1) * self.intersections + self._point(move.at, self.n)
            if kind == "ChooseWind" and move.direction in DIRECTIONS:
                return self.wind + DIRECTIONS.index(move.direction)
            if kind == "ChooseTree":
                return self.tree + self._point(move.at, self.n)
            if kind == "ChooseTile":
                return (
                    self.tile + as_int(move.tile, "tile", 1, LEAF_TILE_COUNT, IllegalMoveError) - 1
                )
            if kind == "PlaceLeaf":
                return self.leaf + self._point(move.at, self.size)
            if kind == "PlaceSquirrel":
                return self.squirrel + self._point(move.at, self.size)
        except (IllegalMoveError, AttributeError, TypeError, ValueError):
            raise IllegalMoveError(what) from None
        raise IllegalMoveError(what)

    @staticmethod
    def _point(at: Any, width: int) -> int:
        """The index of point ``at`` (row, column) on a ``width``-wide grid (an error if it
        is not one; ``action_id`` words it)."""
        row, column = at
        for index in (row, column):
            as_int(index, "a coordinate", 0, width - 1, IllegalMoveError)
        return int(row) * width + int(column)

    def describe(self, action: int) -> str:
        """A short text for an id, for error messages."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            return f"{excerpt(action)} (not an id: ids are ints)"
        for name, low, high in (
            ("PlantTree", self.plant, self.wind),
            ("ChooseWind", self.wind, self.tree),
            ("ChooseTree", self.tree, self.tile),
            ("ChooseTile", self.tile, self.leaf),
            ("PlaceLeaf", self.leaf, self.squirrel),
            ("PlaceSquirrel", self.squirrel, self.num_actions),
        ):
            if low <= action < high:
                return f"{action} ({name})"
        return f"{action} (not an id: ids are 0..{self.num_actions - 1})"


class _Tables:
    """Geometry of one board size as padded numpy arrays (-1 = no square)."""

    def __init__(self, size: int, exactly_three: bool) -> None:
        self.key = (size, exactly_three)
        g = geometry(size)
        self.layout = _layout(size)
        n2, s2 = g.intersections, g.squares
        self.base = np.full((4, n2, 3), -1, dtype=np.intp)
        self.next = np.full((4, s2, 3), -1, dtype=np.intp)
        reach = [
            [sorted(_stops(steps, exactly_three)) for steps in g.squirrel_reach[d]]
            for d in DIRECTIONS
        ]
        width = max(len(r) for per_wind in reach for r in per_wind)
        self.reach = np.full((4, n2, width), -1, dtype=np.intp)
        for d, wind in enumerate(DIRECTIONS):
            for t in range(n2):
                self.base[d, t, :2] = g.base[wind][t]
                self.reach[d, t, : len(reach[d][t])] = reach[d][t]
            for s in range(s2):
                self.next[d, s, : len(g.next[wind][s])] = g.next[wind][s]
        # the next leaf's candidates by wind and source: the last square s (row s), or,
        # for the first leaf, the tree t (row S² + t)
        self.leaf_from = np.concatenate([self.next, self.base], axis=1).reshape(-1, 3)
        # the same with holes as square 0 and a flag where a square is real: one gather
        # each, no clipping per pass
        self.leaf_safe = np.maximum(self.leaf_from, 0)
        self.leaf_real = self.leaf_from >= 0
        self.via, self.via_real = _squirrel_paths(g, self.reach)
        for table in (self.base, self.next, self.reach, self.leaf_from, self.leaf_safe,
                      self.leaf_real, self.via, self.via_real):  # fmt: skip
            table.flags.writeable = False

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles are the shared tables of the size and rule (built once)."""
        return (_tables, self.key)


def _squirrel_paths(g: Geometry, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each wind d, tree t and stop ``reach[d, t, r]``, the squares a squirrel's path
    crosses before that stop, one path per row q: ``via[d, t, r, q]`` (the stop's first
    and second steps, -1 padded; a path of one step crosses none), ``via_real[d, t, r, q]``
    where path q exists. Every step goes one square further downwind, so all paths to a
    stop have the same length."""
    crossed: dict[tuple[int, int, int], set[tuple[int, ...]]] = {}
    for d, wind in enumerate(DIRECTIONS):
        for t in range(g.intersections):
            frontier: list[tuple[int, ...]] = [(b,) for b in g.base[wind][t]]
            paths = list(frontier)
            for _ in range(SQUIRREL_MAX_STEPS - 1):
                frontier = [(*p, n) for p in frontier for n in g.next[wind][p[-1]]]
                paths += frontier
            for path in paths:
                crossed.setdefault((d, t, path[-1]), set()).add(path[:-1])
    most = max(len(v) for v in crossed.values())
    via = np.full((*reach.shape, most, SQUIRREL_MAX_STEPS - 1), -1, dtype=np.intp)
    via_real = np.zeros((*reach.shape, most), dtype=bool)
    for (d, t, r), stop in np.ndenumerate(reach):
        for q, before in enumerate(sorted(crossed.get((d, t, stop), ()))):
            via[d, t, r, q, : len(before)] = before
            via_real[d, t, r, q] = True
    return via, via_real


def _stops(steps: tuple[frozenset[int], ...], exactly_three: bool) -> frozenset[int]:
    """The squares a squirrel may stop on, given the squares 1, 2 and 3 steps away."""
    return steps[-1] if exactly_three else steps[0] | steps[1] | steps[2]


@functools.cache
def _tables(size: int, exactly_three: bool) -> _Tables:
    return _Tables(size, exactly_three)


@functools.cache
def _layout(size: int) -> ActionLayout:
    """The one layout of a board size, whatever the squirrel's rule (docs: shared by every
    batch of that board size)."""
    return ActionLayout(size)


@functools.cache
def _first_seats(players: int, offset: int) -> np.ndarray:
    """``table[start << P | mask]``: the seat of ``mask`` (bit s: seat s) reached first going
    clockwise from ``start + offset``; ``start`` itself where the mask is empty."""
    table = np.zeros(players << players, dtype=np.intp)
    for start in range(players):
        for mask in range(1 << players):
            order = [(start + offset + k) % players for k in range(players)]
            table[(start << players) + mask] = next((s for s in order if mask >> s & 1), start)
    return frozen_array(table, np.intp)


def _row_count(flags: np.ndarray) -> np.ndarray:
    """(G,) the number of True per row of ``flags`` (G, C): column adds for narrow rows
    (numpy's per-row reductions cost more than a few whole-column additions)."""
    if flags.shape[1] > 16:
        return np.asarray(flags.sum(axis=1))
    columns = flags.view(np.int8)
    total = columns[:, 0].astype(np.intp)
    for c in range(1, flags.shape[1]):
        total += columns[:, c]
    return total


def _nth_true(valid: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Per row, the column of the ``index``-th True (counting from 0) of ``valid`` (G, C).

    The column is the number of prefixes holding at most ``index`` Trues: running
    counts column by column for narrow rows, down the transposed mask for wide ones,
    so that every numpy operation runs along the G games.
    """
    if valid.shape[1] > 16:
        counts = np.cumsum(valid.T, axis=0, dtype=np.int16)
        return np.asarray((counts <= index.astype(np.int16)).sum(axis=0))
    columns = valid.view(np.int8)
    running = columns[:, 0].astype(np.intp)
    position = (running <= index).astype(np.intp)
    for c in range(1, valid.shape[1] - 1):
        running += columns[:, c]
        position += running <= index
    return position


_R = TypeVar("_R")
_P = ParamSpec("_P")


_Method = Callable[Concatenate["VectorBosk", _P], _R]


def _no_memory(batch: int, name: str, part_way: bool = False) -> ConfigError:
    """The error of ``name`` running out of memory on ``batch`` games (``part_way``: it left
    them part-way through)."""
    return ConfigError(
        f"batch={batch}: not enough memory for {name} on so many games"
        + (" (they were left part-way: reset() them)" if part_way else "")
        + ": take a smaller batch"
    )


def _memory_guarded(
    changes_games: bool, resets: bool = False
) -> Callable[[_Method[_P, _R]], _Method[_P, _R]]:
    """A public method with numpy's MemoryError turned into a ConfigError (a batch can fit
    in memory yet a call on it not). One that ``changes_games`` leaves them part-way
    through then, so every method but the one that ``resets`` them refuses until it runs."""

    def wrap(method: _Method[_P, _R]) -> _Method[_P, _R]:
        @functools.wraps(method)
        def guarded(self: VectorBosk, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
            if self._spoiled and not resets:
                raise StateError(self._spoiled)
            try:
                result = method(self, *args, **kwargs)
            except MemoryError:
                name = f"{method.__name__}()"
                if changes_games:
                    self._spoiled = f"{name} ran out of memory part-way: reset() the games"
                raise _no_memory(self.batch, name, changes_games) from None
            if resets:
                self._spoiled = ""
            return result

        return guarded

    return wrap


class VectorBosk:
    """``batch`` Bosk games stepped in lockstep; see the module docstring.

    ``current_player`` (batch,) int8 is -1 once a game is over; ``terminated``
    (batch,) bool; ``scores`` (batch, P) summer plus winter; ``winners``
    (batch,) int8, the winning seat once over, else -1.
    """

    def __init__(
        self,
        num_players: IntLike = 2,
        batch: IntLike = 1,
        seed: IntLike | None = None,
        *,
        first_game: IntLike = 0,
        **options: Any,
    ) -> None:
        self.game = BoskGame.create(num_players=num_players, **options)
        self.batch = as_int(batch, "batch", 1, MAX_BATCH)
        seed = resolve_seed(seed)  # both checked before the games' arrays take memory
        first_game = as_int(first_game, "first_game", 0)
        self._spoiled = ""  # why the games cannot be used until reset() ("": they can)
        try:
            self._setup()
            self._reset(seed, first_game)  # unguarded: a MemoryError is this call's
        except MemoryError:
            raise ConfigError(
                f"batch={self.batch}: not enough memory for so many games "
                "(about 3 KB each with 2 players, 9 KB with 4): take a smaller batch"
            ) from None

    # ------------------------------------------------------------------ construction

    def _setup(self) -> None:
        game, b = self.game, self.batch
        p, size = game.num_players, game.size
        self.num_players = p
        self._t = _tables(size, bool(game.squirrel_exactly_three))
        self._passes_squirrels = bool(game.squirrel_passes_squirrels)
        self._kinds = np.asarray(game.terrain, dtype=np.intp).reshape(-1)  # terrain of each square
        self.layout = self._t.layout
        n2, s2 = self.layout.intersections, self.layout.squares
        # A stack holds at most 7P leaves in play (one per square per leaf path, which the
        # saved-state checks hold loaded states to as well); room for 8P, the tensor's bound.
        self._height_limit = LEAF_TILE_COUNT * p
        self._phase = np.zeros(b, np.intp)
        self._round = np.zeros(b, np.intp)
        self._start = np.zeros(b, np.intp)
        self._turn = np.zeros(b, np.intp)
        self._owner = np.full((b, n2), -1, np.int8)
        self._value = np.zeros((b, n2), np.int8)
        self._stack = np.full((b, s2, self._height_limit), -1, np.int8)
        self._height = np.zeros((b, s2), np.int8)
        self._leaf_top = np.full((b, s2), -1, np.int8)
        self._squirrel_on = np.full((b, s2), -1, np.int8)
        # [game, square s, seat p]: the leaves p must return to lay one on s: 0 if s is
        # empty or topped by p's leaf, the stack's height if by another's, 127 under a squirrel
        # one cell more at the end, never written: what a leaf walk reads past the board
        self._cost_cells = np.zeros(b * s2 * p + 1, np.int8)
        self._cost_cells[-1] = _UNDER_SQUIRREL
        self._cost = self._cost_cells[:-1].reshape(b, s2, p)
        self._tiles_used = np.zeros((b, p), np.int16)
        self._round_tile = np.zeros((b, p), np.int8)
        self._first_wind = np.full(b, -1, np.intp)
        self._tree = np.full(b, -1, np.intp)
        self._active = np.zeros(b, np.intp)
        self._last = np.full(b, -1, np.intp)
        self._summer = np.zeros((b, p), np.int16)
        self._winter = np.zeros((b, p), np.int16)
        # each seat's trees after spring: intersections ascending, -1 once removed
        self._trees = np.full((b, p, len(TREE_VALUES)), -1, np.int16)
        self._tree_values = np.zeros((b, p, len(TREE_VALUES)), np.int8)  # of _trees, 0 at -1
        # the legal ids of a leaf path or squirrel under way (scalar order, -1 padded),
        # worked out once when the previous move is applied
        self._leaf_moves = np.full((b, 3), -1, np.intp)
        self._squirrel_moves = np.full((b, self._t.reach.shape[2]), -1, np.intp)
        self._planted = np.zeros((b, p, 5), np.int8)  # spring: trees planted per seat and value
        self._move_count = np.zeros(b, np.intp)
        self._winter_due = np.zeros(b, bool)  # ended, winter not scored yet (see _settle)
        self._mover = np.zeros(b, np.intp)  # (start + turn) % P, kept in step
        self._blow = np.zeros(b, np.intp)  # this round's wind, kept in step

    def __getstate__(self) -> dict[str, Any]:
        """The games' arrays for copies and pickles, without ``_cost``: a view of
        ``_cost_cells``, which a copied array would no longer be."""
        fields = dict(self.__dict__)
        del fields["_cost"]
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        """The arrays of :meth:`__getstate__`, ``_cost`` a view of ``_cost_cells`` again, and
        the layout the shared tables' own."""
        self.__dict__.update(fields)
        self.layout = self._t.layout
        shape = (self.batch, self.layout.squares, self.num_players)
        self._cost = self._cost_cells[:-1].reshape(shape)

    @_memory_guarded(changes_games=True, resets=True)
    def reset(self, seed: IntLike | None = None, *, first_game: IntLike = 0) -> None:
        """Start every game anew: game i as ``game.new_game(seed=derive_seed(seed, i))``
        (``derive_seed(seed, first_game + i)`` to continue a run's numbering)."""
        self._reset(seed, first_game)

    def _reset(self, seed: IntLike | None, first_game: IntLike) -> None:
        seed = resolve_seed(seed)
        first_game = as_int(first_game, "first_game", 0)
        self.seed = seed
        p = self.num_players
        firsts = [
            int(new_rng(derive_seed(seed, first_game + i)).integers(p)) for i in range(self.batch)
        ]
        self._clear()
        self._start[:] = firsts
        self._sync(slice(None))

    def _clear(self) -> None:
        for name, fill in (
            ("_phase", SPRING), ("_round", 0), ("_start", 0), ("_turn", 0), ("_owner", -1),
            ("_value", 0), ("_stack", -1), ("_height", 0), ("_leaf_top", -1),
            ("_squirrel_on", -1), ("_cost", 0), ("_tiles_used", 0), ("_round_tile", 0),
            ("_first_wind", -1), ("_tree", -1), ("_active", 0), ("_last", -1), ("_summer", 0),
            ("_winter", 0), ("_trees", -1), ("_tree_values", 0), ("_leaf_moves", -1),
            ("_squirrel_moves", -1), ("_move_count", 0), ("_planted", 0),
            ("_winter_due", False),
        ):  # fmt: skip
            getattr(self, name)[...] = fill

    @classmethod
    def from_states(cls, states: Sequence[BoskState]) -> VectorBosk:
        """A batch holding ``states`` (all of one game and options), read through ``to_dict``."""
        try:
            states = list(states)
        except TypeError:
            raise ConfigError(
                f"from_states takes a list of Bosk states, not {excerpt(states)}"
            ) from None
        if not 1 <= len(states) <= MAX_BATCH:
            raise ConfigError(f"from_states takes 1..{MAX_BATCH} states, not {len(states)}")
        for state in states:
            if not isinstance(state, BoskState):
                raise ConfigError(f"from_states takes Bosk states, not {excerpt(state)}")
        game = states[0].game
        other = next((i for i, s in enumerate(states) if s.game != game), None)
        if other is not None:
            raise ConfigError(
                f"from_states: every state must be of the same game and options; state {other} "
                f"has {_how_games_differ(game, states[other].game)}"
            )
        vec = cls(game.num_players, len(states), 0, **_options_without_players(game))
        for i, state in enumerate(states):
            vec._load(i, state.to_dict())
        return vec

    def _load(self, i: int, data: dict[str, Any]) -> None:
        n, size = self.layout.n, self.layout.size
        self._phase[i] = PHASE_CODE[Phase(data["phase"])]
        self._round[i] = data["round"]
        self._start[i] = data["order"][0]
        self._turn[i] = data["turn"]
        self._owner[i], self._value[i] = -1, 0
        self._planted[i] = 0
        for r, c, seat, value in data["trees"]:
            self._owner[i, r * n + c], self._value[i, r * n + c] = seat, value
            self._planted[i, seat, value] += 1
        self._stack[i], self._height[i], self._leaf_top[i] = -1, 0, -1
        self._squirrel_on[i] = -1
        self._cost[i] = 0
        for r, row in enumerate(data["stacks"]):
            for c, text in enumerate(row):
                self._load_square(i, r * size + c, text)
        for seat, used in enumerate(data["tiles_used"]):
            self._tiles_used[i, seat] = sum(1 << t for t in used)
        self._round_tile[i] = data["round_tiles"]
        wind = data["first_wind"]
        self._first_wind[i] = -1 if wind is None else DIRECTIONS.index(wind)
        self._tree[i] = -1 if data["tree"] is None else data["tree"][0] * n + data["tree"][1]
        self._active[i] = data["active"]
        self._last[i] = -1 if data["last"] is None else data["last"][0] * size + data["last"][1]
        self._summer[i], self._winter[i] = data["summer"], data["winter"]
        games = np.array([i])
        self._sync(games)
        if self._phase[i] != SPRING:
            self._list_trees(games)
        if self._phase[i] == LEAVES:
            self._store_leaf_moves(games)
        if self._phase[i] == SQUIRREL_STEP:
            self._store_moves(games, self._squirrel_squares(games), self.layout.squirrel)

    def _load_square(self, i: int, square: int, text: str) -> None:
        squirrel = "S" in text
        if squirrel:
            text, seat = text.split("S")
            self._squirrel_on[i, square] = int(seat)
        leaves = [int(ch) for ch in text]
        if len(leaves) > self._height_limit:
            raise StateError(f"a stack of {len(leaves)} leaves cannot be reached")
        self._stack[i, square, : len(leaves)] = leaves
        self._height[i, square] = len(leaves)
        self._leaf_top[i, square] = leaves[-1] if leaves else -1
        if squirrel:
            self._cost[i, square] = _UNDER_SQUIRREL
        elif leaves:
            seats = np.arange(self.num_players)
            self._cost[i, square] = np.where(seats == leaves[-1], 0, len(leaves))

    # ------------------------------------------------------------------ reading

    @property
    def num_actions(self) -> int:
        """The size of the action space (``game.num_actions``)."""
        return self.layout.num_actions

    @property
    def terminated(self) -> np.ndarray:
        """(batch,) bool: which games are over."""
        return np.asarray(self._phase == OVER)

    @property
    def current_player(self) -> np.ndarray:
        """(batch,) int8: the seat to move in each game, -1 once it is over."""
        return np.where(self._phase == OVER, -1, self._mover).astype(np.int8)

    @property
    def scores(self) -> np.ndarray:
        """(batch, P) int: points so far per seat (summer after spring, plus winter at the end)."""
        return self._read("scores", self._scores)

    @property
    def winners(self) -> np.ndarray:
        """(batch,) int8: each finished game's winner (ties to the earlier in round 8's order)."""
        return self._read("winners", self._winners)

    def _read(self, name: str, compute: Callable[[], np.ndarray]) -> np.ndarray:
        """``compute()`` for attribute ``name``; running out of memory there (winter is scored
        when first read) is a ConfigError naming it, the games as they were."""
        try:
            return compute()
        except MemoryError:
            raise _no_memory(self.batch, name) from None

    def _scores(self) -> np.ndarray:
        self._settle()
        return self._summer.astype(np.int64) + self._winter

    def _winners(self) -> np.ndarray:
        scores = self._scores()
        best = scores.max(axis=1, keepdims=True)
        p = self.num_players
        seats = (self._start[:, None] + np.arange(p)) % p  # round 8's order
        tops = np.take_along_axis(scores, seats, axis=1) == best
        winner = np.take_along_axis(seats, np.argmax(tops, axis=1)[:, None], axis=1)[:, 0]
        return np.where(self.terminated, winner, -1).astype(np.int8)

    @_memory_guarded(changes_games=False)
    def state(self, i: IntLike) -> BoskState:
        """Game ``i`` as an ordinary BoskState (equal to the scalar engine's)."""
        if isinstance(i, bool) or not isinstance(i, int | np.integer) or not 0 <= i < self.batch:
            raise ConfigError(f"game index must be an int in 0..{self.batch - 1}, not {excerpt(i)}")
        return self.game.state_from_dict(self._state_dict(int(i)))

    def _state_dict(self, i: int) -> dict[str, Any]:
        self._settle()
        n, size, p = self.layout.n, self.layout.size, self.num_players
        start = int(self._start[i])
        owner, value = self._owner[i].tolist(), self._value[i].tolist()
        heights = self._height[i].tolist()
        stacks = self._stack[i].tolist()
        squirrel_on = self._squirrel_on[i].tolist()
        texts = [
            "".join(map(str, stacks[s][: heights[s]]))
            + (f"S{squirrel_on[s]}" if squirrel_on[s] >= 0 else "")
            for s in range(size * size)
        ]
        tree, last, wind = int(self._tree[i]), int(self._last[i]), int(self._first_wind[i])
        return {
            "game": "bosk",
            "num_players": p,
            "phase": PHASES[self._phase[i]].value,
            "round": int(self._round[i]),
            "order": [(start + k) % p for k in range(p)],
            "turn": int(self._turn[i]),
            "trees": [[t // n, t % n, o, value[t]] for t, o in enumerate(owner) if o >= 0],
            "stacks": [texts[r * size : (r + 1) * size] for r in range(size)],
            "tiles_used": [
                [t for t in LEAF_TILES if int(used) >> t & 1] for used in self._tiles_used[i]
            ],
            "round_tiles": self._round_tile[i].tolist(),
            "first_wind": None if wind < 0 else DIRECTIONS[wind],
            "tree": None if tree < 0 else [tree // n, tree % n],
            "active": int(self._active[i]),
            "last": None if last < 0 else [last // size, last % size],
            "summer": self._summer[i].tolist(),
            "winter": self._winter[i].tolist(),
        }

    # ------------------------------------------------------------------ legal ids

    def _player(self, games: np.ndarray) -> np.ndarray:
        """(G,) intp: the seat to move."""
        return np.asarray(self._mover[games])

    def _sync(self, games: np.ndarray | slice) -> None:
        """Recompute the mover and the wind of ``games`` after their turn, start or round moved."""
        self._mover[games] = (self._start[games] + self._turn[games]) % self.num_players
        self._blow[games] = (self._first_wind[games] + self._round[games] - 1) % 4

    def _values_left(self, games: np.ndarray) -> np.ndarray:
        """(G, 4) bool: the tree values 1..4 the mover still has to plant."""
        planted = self._planted.reshape(-1, 5)[games * self.num_players + self._player(games)]
        return np.asarray(planted[:, 1:] < TREES_PER_VALUE)

    def _spring_legal(self, games: np.ndarray) -> np.ndarray:
        """(G, 4N²) bool: legal PlantTree ids, values outer and intersections inner (the
        PlantTree ids are 0..4N²-1 in this order, so row g is game g's mask of them)."""
        legal = self._values_left(games)[:, :, None] & (self._owner[games] < 0)[:, None, :]
        return np.asarray(legal.reshape(len(games), -1))

    def _spring_ids(self, games: np.ndarray) -> np.ndarray:
        """(G, 4N²): PlantTree ids, values outer and intersections inner, -1 where illegal."""
        ids = np.arange(4 * self.layout.intersections, dtype=np.int32)
        return np.where(self._spring_legal(games), ids, -1)

    def _wind_ids(self, games: np.ndarray) -> np.ndarray:
        ids = np.arange(self.layout.wind, self.layout.wind + 4, dtype=np.int32)
        return np.broadcast_to(ids, (len(games), 4))

    def _tree_ids(self, games: np.ndarray) -> np.ndarray:
        """(G, 8): ChooseTree ids of the mover's trees allowed this round, ascending."""
        per_seat = self._trees.reshape(-1, len(TREE_VALUES))
        trees = per_seat[games * self.num_players + self._player(games)].astype(np.int32)
        flat = games[:, None] * self.layout.intersections + np.maximum(trees, 0)
        value = self._value.reshape(-1).take(flat)
        rnd = self._round[games][:, None]
        allowed = (trees >= 0) & ((rnd > 4) | (value == rnd))
        return np.where(allowed, trees + self.layout.tree, -1)

    def _tile_ids(self, games: np.ndarray) -> np.ndarray:
        """(G, 8): ChooseTile ids of the mover's unspent tiles, 1 (squirrel) first."""
        used = self._tiles_used.reshape(-1)[games * self.num_players + self._player(games)]
        tiles = np.arange(1, LEAF_TILE_COUNT + 1)
        unused = (used[:, None] >> tiles) & 1 == 0
        return np.where(unused, (tiles - 1 + self.layout.tile).astype(np.int32), -1)

    def _leaf_options(self, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(G, 3) the next leaf's candidate squares (holes read as square 0) and (G, 3)
        bool where the leaf may go (a real square the mover can pay for)."""
        n2, s2, p = self.layout.intersections, self.layout.squares, self.num_players
        last = self._last[games]
        source = np.where(last >= 0, last, s2 + self._tree[games])
        source += self._blow[games] * (s2 + n2)
        squares = self._t.leaf_safe[source]
        cells = (games * s2)[:, None] + squares
        cells *= p
        cells += self._mover[games][:, None]
        legal = self._cost.reshape(-1).take(cells) < self._active[games][:, None]
        legal &= self._t.leaf_real[source]
        return squares, legal

    def _store_leaf_moves(self, games: np.ndarray) -> np.ndarray:
        """Work out and keep the next leaf's legal ids of ``games``; return their counts."""
        squares, legal = self._leaf_options(games)
        squares += self.layout.leaf
        self._leaf_moves[games] = np.where(legal, squares, -1)
        count = _row_count(legal)
        self._move_count[games] = count
        return count

    def _stored_leaf_ids(self, games: np.ndarray) -> np.ndarray:
        return np.asarray(self._leaf_moves[games])

    def _stored_squirrel_ids(self, games: np.ndarray) -> np.ndarray:
        return np.asarray(self._squirrel_moves[games])

    def _store_moves(self, games: np.ndarray, squares: np.ndarray, base: int) -> np.ndarray:
        """Keep the legal squares (G, C, -1 where not) of ``games`` as ids, in order (leaf
        squares, or squirrel squares if ``base`` is the squirrel's); return their counts."""
        into = self._leaf_moves if base == self.layout.leaf else self._squirrel_moves
        into[games] = np.where(squares >= 0, squares + base, -1)
        count = _row_count(squares >= 0)
        self._move_count[games] = count
        return count

    def _squirrel_squares(self, games: np.ndarray) -> np.ndarray:
        """(G, R): squares the squirrel may stop on (sorted), -1 where it may not."""
        n2, s2 = self.layout.intersections, self.layout.squares
        reach = self._t.reach.reshape(-1, self._t.reach.shape[2])
        rows = self._blow[games] * n2 + np.maximum(self._tree[games], 0)
        squares = reach[rows]
        flat = games[:, None] * s2 + np.maximum(squares, 0)
        taken = self._squirrel_on.reshape(-1).take(flat) >= 0
        free = (squares >= 0) & ~taken
        if not self._passes_squirrels:  # a path into a squirrel's square is closed
            via = self._t.via.reshape(-1, *self._t.via.shape[2:])[rows]  # (G, R, Q, 2)
            cells = games[:, None, None, None] * s2 + np.maximum(via, 0)
            on = self._squirrel_on.reshape(-1).take(cells) >= 0
            closed = (on & (via >= 0)).any(axis=3)
            opened = self._t.via_real.reshape(-1, *self._t.via_real.shape[2:])[rows] & ~closed
            free &= opened.any(axis=2)
        return np.where(free, squares, -1)

    def _candidates(self, phase: int, games: np.ndarray) -> np.ndarray:
        """(G, C) legal ids of ``games`` (all in ``phase``), -1 holes, in legal_moves() order."""
        return self._ID_LISTS[phase](self, games)

    _ID_LISTS: ClassVar[dict[int, Callable[[VectorBosk, np.ndarray], np.ndarray]]] = {
        SPRING: _spring_ids,
        WIND: _wind_ids,
        TREE: _tree_ids,
        TILE: _tile_ids,
        LEAVES: _stored_leaf_ids,
        SQUIRREL_STEP: _stored_squirrel_ids,
    }

    def _groups(self) -> list[tuple[int, np.ndarray]]:
        """The games of each live phase: (phase, game indices)."""
        return [
            (phase, games)
            for phase in self._ID_LISTS
            if len(games := np.flatnonzero(self._phase == phase))
        ]

    @_memory_guarded(changes_games=False)
    def legal_action_mask(self) -> np.ndarray:
        """(batch, num_actions) int8: 1 at the ids of each game's legal moves now."""
        mask = np.zeros((self.batch, self.num_actions), dtype=np.int8)
        for phase, games in self._groups():
            if phase == SPRING:  # hundreds of ids a game: copy the rows, don't scatter
                legal = self._spring_legal(games)
                mask[games, : legal.shape[1]] = legal
                continue
            ids = self._candidates(phase, games)
            rows, cols = np.nonzero(ids >= 0)
            mask[games[rows], ids[rows, cols]] = 1
        return mask

    # ------------------------------------------------------------------ stepping

    @_memory_guarded(changes_games=True)
    def step(self, actions: Any) -> None:
        """Apply one id per game (finished games ignore theirs).

        IllegalMoveError names the first game whose id is not legal, and then
        nothing has changed.
        """
        actions, unreadable = self._checked_actions(actions)
        groups = self._groups()
        refused = [self._first_illegal(phase, games, actions) for phase, games in groups]
        first = min((r for r in refused if r is not None), default=None)  # lowest game index
        if first is not None:
            game, phase, action = first
            if unreadable is not None and unreadable[0] == game:
                raise IllegalMoveError(unreadable[1])
            self._refuse(phase, game, action)
        self._apply_groups(groups, actions)

    def _first_illegal(
        self, phase: int, games: np.ndarray, actions: np.ndarray
    ) -> tuple[int, int, int] | None:
        """(game, phase, id) of the first of ``games`` (all in ``phase``) whose id in
        ``actions`` is not legal; None if every one is."""
        ids = self._candidates(phase, games)
        chosen = actions[games]
        legal = (chosen >= 0) & (ids == chosen[:, None]).any(axis=1)  # -1: a hole, no id
        if legal.all():
            return None
        bad = int(np.flatnonzero(~legal)[0])
        return int(games[bad]), phase, int(chosen[bad])

    def _checked_actions(self, actions: Any) -> tuple[np.ndarray, _Unreadable]:
        """``actions`` as (batch,) int64 ids, and the first live game whose entry is no id at
        all (a bool, an int past int64) with the message naming it. Such games' ids read -1,
        never legal, so that step names whichever bad game comes first."""
        try:
            array = np.asarray(actions)
        except (TypeError, ValueError) as error:
            raise IllegalMoveError(f"actions must be {self.batch} ints: {error}") from None
        unreadable: _Unreadable = None
        if isinstance(actions, list | tuple) and len(actions) == self.batch:
            array, unreadable = self._listed_ids(actions, array)
        if array.shape != (self.batch,) or array.dtype.kind not in "iu":
            raise IllegalMoveError(
                f"actions must be {self.batch} integer ids (one per game), "
                f"not an array of shape {array.shape} and dtype {array.dtype}"
            )
        if array.dtype.kind == "u" and array.dtype.itemsize == 8:  # astype would wrap ids
            # past int64's range (a big-endian uint64 too, which is not np.uint64)
            return self._wide_ids(array)
        return array.astype(np.int64), unreadable

    def _wide_ids(self, array: np.ndarray) -> tuple[np.ndarray, _Unreadable]:
        """The ids of uint64 ``array``: -1 for a live game's id past int64's range (the
        first named), 0 for a finished game's (which it ignores)."""
        huge = array > _INT64_MAX
        live = huge & ~self.terminated
        ids = np.where(huge, 0, array).astype(np.int64)
        if not live.any():
            return ids, None
        ids[live] = -1
        game = int(np.flatnonzero(live)[0])
        what = f"0..{self.num_actions - 1}"
        return ids, (game, f"game {game}: action {int(array[game])} is not an id (ids are {what})")

    def _listed_ids(
        self, actions: Sequence[Any], array: np.ndarray
    ) -> tuple[np.ndarray, _Unreadable]:
        """The ids of list ``actions``: numpy's ``array`` of it where that reads them right,
        else read one by one. numpy reads a bool beside ints as id 0 or 1, and ints past
        int64 (or int64 beside uint64) as floats: a live game's bool or int past int64 reads
        -1, the first named (see _checked_actions), a finished game's is ignored. A list
        holding anything else (a float, text) comes back as numpy read it, to be refused
        whole."""
        kinds = set(map(type, actions))  # one pass in C: most lists hold ints of one kind
        misread = kinds & {bool, np.bool_} or any(issubclass(k, np.ndarray) for k in kinds)
        if array.dtype.kind in "iu" and not misread:
            return array, None
        ids = np.zeros(self.batch, np.int64)
        unreadable: _Unreadable = None
        for game, action in enumerate(actions):
            number = as_action_id(action)
            if number is None and not _is_bool(action):
                return array, None  # not ids
            if number is None or not -_INT64_MAX <= number <= _INT64_MAX:
                live = self._phase[game] != OVER
                if live and unreadable is None:
                    what = "ints, not bools" if number is None else f"0..{self.num_actions - 1}"
                    shown = excerpt(action if number is None else number)
                    message = f"game {game}: action {shown} is not an id (ids are {what})"
                    unreadable = (game, message)
                number = -1 if live else 0  # never legal; a finished game ignores its id
            ids[game] = number
        return ids, unreadable

    def _refuse(self, phase: int, game: int, action: int) -> None:
        raise IllegalMoveError(
            f"game {game}: action {self.layout.describe(action)} is not legal for seat "
            f"{int(self._player(np.array([game]))[0])} in the {PHASES[phase].value} step"
        )

    def _apply_groups(self, groups: list[tuple[int, np.ndarray]], actions: np.ndarray) -> None:
        for phase, games in groups:
            self._APPLY[phase](self, games, actions[games])

    def _apply_spring(self, games: np.ndarray, ids: np.ndarray) -> None:
        n2 = self.layout.intersections
        t, value = ids % n2, ids // n2 + 1
        player = self._player(games)
        self._owner[games, t] = player
        self._value[games, t] = value
        self._planted.reshape(-1)[(games * self.num_players + player) * 5 + value] += 1
        self._turn[games] += 1
        self._sync(games)
        done = games[self._turn[games] == 8 * self.num_players]
        if len(done):
            self._summer_of(done)

    def _list_trees(self, games: np.ndarray) -> None:
        """Fill ``_trees`` and ``_tree_values`` of ``games`` (ascending) from the board:
        each seat's trees, intersections ascending, -1 (value 0) for the ones not there."""
        at = game_index(games, self.batch)
        owner = self._owner[at]
        width, n2 = len(TREE_VALUES), self.layout.intersections
        starts = (np.arange(len(games)) * n2)[:, None]
        for seat in range(self.num_players):
            found = np.flatnonzero(owner == seat)
            if len(found) == width * len(games):  # every tree planted: 8 in each game
                cells = found.reshape(len(games), width)
                self._trees[at, seat] = cells - starts
                self._tree_values[at, seat] = self._value[at].reshape(-1).take(cells)
                continue
            mine = owner == seat
            order = np.argsort(~mine, axis=1, kind="stable")[:, :width]
            kept = np.take_along_axis(mine, order, axis=1)
            self._trees[at, seat] = np.where(kept, order, -1)
            value = np.take_along_axis(self._value[at], order, axis=1)
            self._tree_values[at, seat] = np.where(kept, value, 0)

    # Scoring inside the batch sums with integer reductions and ranks with the kernels'
    # ranking (forestgames.bosk.scoring._rank): the same rule, without the kernels'
    # matrix product, whose BLAS threads cost more than they save on a game's batch.

    def _lines(self, games: np.ndarray) -> np.ndarray:
        """(G, 2N, P) each seat's tree values summed per row, then per column."""
        n, p = self.layout.n, self.num_players
        owner = self._owner[games].reshape(-1, n, n)
        value = self._value[games].reshape(-1, n, n)
        lines = np.zeros((len(games), 2 * n, p), dtype=np.int64)
        for seat in range(p):
            mine = np.where(owner == seat, value, 0)
            lines[:, :n, seat] = mine.sum(axis=2, dtype=np.int64)
            lines[:, n:, seat] = mine.sum(axis=1, dtype=np.int64)
        return lines

    def _ranked(self, totals: np.ndarray, points: Any) -> np.ndarray:
        """(G, P) points of G boards' contest totals (G, K, P) under ``points``."""
        out = np.zeros((totals.shape[0], self.num_players), dtype=np.int64)
        planes = [np.ascontiguousarray(totals[:, :, seat].T.astype(np.uint8)) for seat in
                  range(self.num_players)]  # fmt: skip
        _rank(planes, points, out)
        return out

    def _winter_points(self, tops: np.ndarray) -> np.ndarray:
        """(M, P) winter points of M boards' tops (M, S²)."""
        p = self.num_players
        kinds = self._kinds
        placed = tops >= 0
        board = np.broadcast_to(np.arange(len(tops))[:, None], tops.shape)
        index = ((board * NUM_TERRAINS + kinds) * p + tops)[placed]
        counts = np.bincount(index, minlength=len(tops) * NUM_TERRAINS * p)
        return self._ranked(counts.reshape(len(tops), NUM_TERRAINS, p), WINTER_POINTS)

    def _summer_of(self, games: np.ndarray) -> None:
        """Score summer and hand the wind choice to the autumn start player."""
        self._list_trees(games)
        summer = self._listed_summer(games)
        self._summer[games] = summer
        fewest = summer == summer.min(axis=1, keepdims=True)
        self._start[games] = self._first_reached(fewest, self._start[games])
        self._phase[games] = WIND
        self._turn[games] = 0
        self._sync(games)

    def _listed_summer(self, games: np.ndarray) -> np.ndarray:
        """(G, P) summer points of ``games`` (ascending) from their tree lists: one count
        of each seat's values per row and column of intersections, then the ranking."""
        at = game_index(games, self.batch)
        n, g = self.layout.n, len(games)
        lines = (np.arange(g) * 2 * n)[:, None]  # game g's 2n lines (one seat at a time)
        planes = []
        for seat in range(self.num_players):
            trees = np.maximum(self._trees[at, seat], 0)  # (G, 8); not there: value 0
            rows, columns = trees // n + lines, trees % n + lines
            columns += n
            values = self._tree_values[at, seat].reshape(-1).astype(np.float64)
            totals = np.bincount(
                np.concatenate([rows.reshape(-1), columns.reshape(-1)]),
                weights=np.concatenate([values, values]),
                minlength=2 * n * g,
            )
            planes.append(np.ascontiguousarray(totals.astype(np.uint8).reshape(g, 2 * n).T))
        out = np.zeros((g, self.num_players), dtype=np.int64)
        _rank(planes, SUMMER_POINTS, out)
        return out

    def _first_reached(self, candidates: np.ndarray, start: np.ndarray) -> np.ndarray:
        """The candidate seat (G, P) reached first clockwise from ``start`` (ties option)."""
        masks = candidates[:, 0].astype(np.intp)
        for seat in range(1, self.num_players):
            masks |= candidates[:, seat].view(np.uint8) << seat
        return self._first_of(masks, start)

    def _first_of(self, masks: np.ndarray, start: np.ndarray) -> np.ndarray:
        """The seat of ``masks`` (bit s: seat s, at least one) reached first clockwise from
        ``start`` (ties option), by one table look-up."""
        p = self.num_players
        table = _first_seats(p, 0 if self.game.ties_include_start else 1)
        return np.asarray(table.take((start << p) + masks))

    def _apply_wind(self, games: np.ndarray, ids: np.ndarray) -> None:
        self._first_wind[games] = ids - self.layout.wind
        self._round[games] = 1
        self._phase[games] = TREE
        self._sync(games)

    def _apply_tree(self, games: np.ndarray, ids: np.ndarray) -> None:
        self._tree[games] = ids - self.layout.tree
        self._phase[games] = TILE

    def _apply_tile(self, games: np.ndarray, ids: np.ndarray) -> None:
        stuck = self._take_tile(games, ids)
        if stuck.any():
            self._end_turn(games[stuck])

    def _take_tile(self, games: np.ndarray, ids: np.ndarray) -> np.ndarray:
        """Spend the tiles; start the leaf paths or squirrels. True where the turn is over
        at once (a path that cannot start, a squirrel with nowhere to stop)."""
        tile = ids - self.layout.tile + 1
        row = games * self.num_players + self._mover[games]
        self._tiles_used.reshape(-1)[row] |= (1 << tile).astype(np.int16)
        self._round_tile.reshape(-1)[row] = tile
        squirrel = tile == SQUIRREL
        self._phase[games] = np.where(squirrel, SQUIRREL_STEP, LEAVES)
        self._active[games] = np.where(squirrel, 0, tile)
        stuck = np.zeros(len(games), dtype=bool)
        leaves = ~squirrel
        if leaves.all():
            stuck[:] = self._store_leaf_moves(games) == 0
        elif leaves.any():
            stuck[leaves] = self._store_leaf_moves(games[leaves]) == 0
        if squirrel.any():
            subset = games[squirrel]
            stuck[squirrel] = (
                self._store_moves(subset, self._squirrel_squares(subset), self.layout.squirrel) == 0
            )
        return stuck

    def _apply_leaf(self, games: np.ndarray, ids: np.ndarray) -> None:
        goes_on = self._place_leaf(games, ids)
        if not goes_on.all():
            self._end_turn(games[~goes_on])

    def _place_leaf(self, games: np.ndarray, ids: np.ndarray) -> np.ndarray:
        """Lay the leaves; True where the path goes on (its next legal squares stored)."""
        square = ids - self.layout.leaf
        player = self._mover[games]
        s2, p = self.layout.squares, self.num_players
        flat = games * s2 + square
        height = self._height.reshape(-1)[flat]
        seat_cell = flat * p + player
        cost = self._cost.reshape(-1)[seat_cell]
        self._stack.reshape(-1)[flat * self._height_limit + height] = player
        height += 1
        self._height.reshape(-1)[flat] = height
        self._leaf_top.reshape(-1)[flat] = player
        self._cost.reshape(-1, p)[flat] = height[:, None]  # every seat's cost: the height
        self._cost.reshape(-1)[seat_cell] = 0
        active = self._active[games] - cost
        active -= 1
        self._active[games] = active
        self._last[games] = square
        going = active > 0
        if going.all():
            return np.asarray(self._store_leaf_moves(games) > 0)
        goes_on = np.zeros(len(games), dtype=bool)
        if going.any():
            goes_on[going] = self._store_leaf_moves(games[going]) > 0
        return goes_on

    def _apply_squirrel(self, games: np.ndarray, ids: np.ndarray) -> None:
        self._place_squirrel(games, ids)
        self._end_turn(games)

    def _place_squirrel(self, games: np.ndarray, ids: np.ndarray) -> None:
        square = ids - self.layout.squirrel
        player = self._mover[games]
        self._squirrel_on[games, square] = player
        self._cost[games, square] = _UNDER_SQUIRREL

    def _end_turn(self, games: np.ndarray) -> None:
        """Remove the tree, pass to the next seat, end the round or the game."""
        per_seat = self._trees.reshape(-1, len(TREE_VALUES))
        row = games * self.num_players + self._mover[games]
        trees, tree = per_seat[row], self._tree[games]
        per_seat[row] = np.where(trees == tree[:, None], -1, trees)
        self._pass_turn(games)

    def _pass_turn(self, games: np.ndarray) -> None:
        """Take the turn's tree off the board (``_trees`` already updated), clear the turn,
        pass to the next seat, end the round or the game."""
        at = game_index(games, self.batch)
        flat = games * self.layout.intersections + self._tree[at]
        self._owner.reshape(-1)[flat] = -1
        self._value.reshape(-1)[flat] = 0
        self._tree[at], self._active[at], self._last[at] = -1, 0, -1
        self._phase[at] = TREE
        turn = self._turn[at]
        turn += 1
        over = turn == self.num_players
        if over.any():
            turn[over] = 0
            self._turn[at] = turn
            self._end_round(games[over])
        else:
            self._turn[at] = turn
        self._sync(at)

    def _end_round(self, games: np.ndarray) -> None:
        """After every seat's turn: winter after round 8, else the next round's start seat."""
        final = self._round[games] == ROUNDS
        if final.any():
            self._winter_of(games[final])
        going = games[~final]
        if len(going):
            at = game_index(going, self.batch)
            tiles = self._round_tile[at]
            low = tiles[:, 0].copy()
            for seat in range(1, self.num_players):
                np.minimum(low, tiles[:, seat], out=low)
            lowest = (tiles[:, 0] == low).astype(np.intp)
            for seat in range(1, self.num_players):
                lowest |= (tiles[:, seat] == low).view(np.uint8) << seat
            self._start[at] = self._first_of(lowest, self._start[at])
            self._round[at] += 1
            self._round_tile[at] = 0

    def _winter_of(self, games: np.ndarray) -> None:
        """End ``games``; winter is scored when next read, in one call for all that ended."""
        self._phase[games] = OVER
        self._winter_due[games] = True

    def _settle(self) -> None:
        """Score winter for every game that ended since the last reading."""
        games = np.flatnonzero(self._winter_due)
        if not len(games):
            return
        on = self._squirrel_on[games]
        self._winter[games] = self._winter_points(np.where(on >= 0, on, self._leaf_top[games]))
        self._winter_due[games] = False

    _APPLY: ClassVar[dict[int, Callable[[VectorBosk, np.ndarray, np.ndarray], None]]] = {
        SPRING: _apply_spring,
        WIND: _apply_wind,
        TREE: _apply_tree,
        TILE: _apply_tile,
        LEAVES: _apply_leaf,
        SQUIRREL_STEP: _apply_squirrel,
    }

    # ------------------------------------------------------------------ playouts

    def _random_plants(self, games: np.ndarray, draw: Draw) -> np.ndarray:
        """Uniform PlantTree ids: a value drawn among those left, then an empty
        intersection found by rejection (uniform, but not the scalar order's r-th move).

        Only ``random_actions`` plants here, with a numpy draw: playouts plant through
        forestgames.bosk._vector_random, which follows the scalar order for Python streams.
        """
        assert isinstance(draw, _Uniform), "playouts plant through _vector_random"
        left = self._values_left(games)
        value = _nth_true(left, draw(np.arange(len(games)), _row_count(left)))
        return np.asarray(value * self.layout.intersections + self._random_empty(games, draw.rng))

    def _random_empty(self, games: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random empty intersection of each game, by rejection."""
        n2 = self.layout.intersections
        owner = self._owner.reshape(-1)
        spot = np.empty(len(games), dtype=np.intp)
        todo = np.arange(len(games))
        while len(todo):
            guess = rng.integers(0, n2, len(todo))
            empty = owner[games[todo] * n2 + guess] < 0
            spot[todo[empty]] = guess[empty]
            todo = todo[~empty]
        return spot

    def _random_ids(self, phase: int, games: np.ndarray, draw: Draw) -> np.ndarray:
        """A uniformly random legal id for each of ``games`` (all in ``phase``)."""
        if phase == SPRING:
            return self._random_plants(games, draw)
        everyone = np.arange(len(games))
        ids = self._candidates(phase, games)
        valid = ids >= 0
        stored = phase in (LEAVES, SQUIRREL_STEP)
        pick = draw(everyone, self._move_count[games] if stored else _row_count(valid))
        return _nth_id(ids, valid, pick)

    # ------------------------------------------------------------------ greedy

    def _line_points(self, totals: np.ndarray) -> np.ndarray:
        """Summer points (M, P) of M single lines with seat totals ``totals`` (M, P)."""
        out = np.zeros(totals.shape, dtype=np.int64)
        planes = [totals[None, :, seat].astype(np.uint8) for seat in range(self.num_players)]
        _rank(planes, SUMMER_POINTS, out)
        return out

    def _plant_estimates(self, games: np.ndarray) -> np.ndarray:
        """(G, 4, N², P) summer points after each PlantTree (value, intersection) of ``games``.

        A tree changes only its row and its column: the board's points less
        those two lines' points before, plus after.
        """
        n, p = self.layout.n, self.num_players
        lines = self._lines(games)
        base = self._ranked(lines, SUMMER_POINTS)  # (G, P)
        cells = np.arange(n * n)
        row, col = lines[:, cells // n], lines[:, n + cells % n]  # (G, N², P)
        g, c = len(games), n * n
        before = self._line_points(row.reshape(-1, p)) + self._line_points(col.reshape(-1, p))
        mover = np.eye(p, dtype=np.int64)[self._mover[games]][:, None, :]  # (G, 1, P)
        estimates = np.empty((g, len(VALUES), c, p), dtype=np.int64)
        for k, v in enumerate(VALUES):
            after = self._line_points((row + v * mover).reshape(-1, p))
            after += self._line_points((col + v * mover).reshape(-1, p))
            estimates[:, k] = (after - before).reshape(g, c, p)
        return np.asarray(estimates + base[:, None, None, :])

    def _cover_estimates(self, games: np.ndarray, ids: np.ndarray, base: int) -> np.ndarray:
        """(G, C, P) summer + winter points with the mover on each candidate square."""
        p = self.num_players
        top = np.where(
            self._squirrel_on[games] >= 0, self._squirrel_on[games], self._leaf_top[games]
        )
        rows, cols = np.nonzero(ids >= 0)
        boards = top[rows]
        boards[np.arange(len(rows)), ids[rows, cols] - base] = self._mover[games][rows]
        estimates = np.zeros((*ids.shape, p), dtype=np.int64)
        estimates[rows, cols] = self._winter_points(boards) + self._summer[games][rows]
        return estimates

    def _greedy_ids(self, phase: int, games: np.ndarray, draw: Draw) -> np.ndarray:
        """The greedy agent's choice for each of ``games``: the legal id whose estimated
        scores put the mover furthest ahead of the best other seat, ties drawn at random
        (a single legal move is played without a draw, as GreedyAgent does)."""
        if phase == SPRING:
            ids = self._spring_ids(games)
            estimates = self._plant_estimates(games).reshape(*ids.shape, self.num_players)
            best = self._best(games, ids, estimates)
        elif phase in (LEAVES, SQUIRREL_STEP):
            ids = self._candidates(phase, games)
            base = self.layout.leaf if phase == LEAVES else self.layout.squirrel
            best = self._best(games, ids, self._cover_estimates(games, ids, base))
        else:  # wind, tree and tile change no board: every choice ties
            ids = np.asarray(self._candidates(phase, games))
            best = ids >= 0
        pick = np.zeros(len(games), dtype=np.intp)
        several = np.flatnonzero(_row_count(ids >= 0) > 1)
        if len(several):
            pick[several] = draw(several, _row_count(best[several]))
        return _nth_id(ids, best, pick)

    def _best(self, games: np.ndarray, ids: np.ndarray, estimates: np.ndarray) -> np.ndarray:
        """(G, C) bool: the legal candidates of greatest margin (own estimate less the best
        other seat's), from ``estimates`` (G, C, P)."""
        mover = self._mover[games]
        own = np.take_along_axis(estimates, mover[:, None, None], axis=2)[:, :, 0]
        others = estimates.copy()
        np.put_along_axis(others, mover[:, None, None], np.iinfo(np.int64).min, axis=2)
        margin = np.where(ids >= 0, own - others.max(axis=2), np.iinfo(np.int64).min)
        return np.asarray(margin == margin.max(axis=1, keepdims=True))

    @_memory_guarded(changes_games=False)
    def greedy_actions(self, rng: np.random.Generator) -> np.ndarray:
        """(batch,) the greedy agent's id for each live game (0 for finished ones)."""
        draw = _Uniform(_generator(rng))  # checked even when every game is over
        actions = np.zeros(self.batch, dtype=np.int64)
        for phase, games in self._groups():
            actions[games] = self._greedy_ids(phase, games, draw)
        return actions

    @_memory_guarded(changes_games=True)
    def play(
        self, policies: Any = "random", seed: IntLike | None = None, *, streams: Any = None
    ) -> np.ndarray:
        """Play every game to its end; return the moves made per game.

        ``policies`` is ``"random"`` or ``"greedy"`` for every seat, a list of
        those per seat, or an array (batch, P) of them per game and seat
        (True/1 = greedy). Random picks a uniformly random legal move; greedy
        the move the greedy agent's heuristic prefers (``GreedyAgent``), ties
        at random. Games move phase by phase, not in lockstep (see play_random).

        The draws come from one numpy generator seeded ``seed``, or, with
        ``streams`` (batch, P) ints, seat p of game g draws from
        ``random.Random(streams[g, p])`` exactly as the scalar RandomAgent and
        GreedyAgent draw from theirs: the games then repeat the scalar agents'
        games move for move.
        """
        greedy = self._greedy_seats(policies)
        p = self.num_players
        uniform = _Uniform(np.random.default_rng(resolve_seed(seed)))
        python = None if streams is None else PythonStreams(self._stream_seeds(streams))
        choices: Choices = NumpyChoices(uniform.rng) if python is None else StreamChoices(python)

        def choose(phase: int, games: np.ndarray) -> np.ndarray:
            thinking = greedy[games, self._mover[games]]
            ids = np.empty(len(games), dtype=np.intp)
            for chosen, policy in ((~thinking, self._random_ids), (thinking, self._greedy_ids)):
                if not chosen.any():
                    continue
                subset = games[chosen]
                draw: Draw = uniform
                if python is not None:
                    rows = subset * p + self._mover[subset]
                    draw = functools.partial(_stream_draw, python, rows)
                ids[chosen] = policy(phase, subset, draw)
            return ids

        return self._play(choose, choices, greedy)

    def _stream_seeds(self, streams: Any) -> list[int]:
        seeds = np.asarray(streams, dtype=object)
        if seeds.shape != (self.batch, self.num_players):
            raise ConfigError(
                f"streams must be ({self.batch}, {self.num_players}) seeds, not {seeds.shape}"
            )
        return [check_seed(seed, "a stream's seed") for seed in seeds.reshape(-1).tolist()]

    def _greedy_seats(self, policies: Any) -> np.ndarray:
        """(batch, P) bool: which seats of which games play greedy."""
        shape = (self.batch, self.num_players)
        if isinstance(policies, str):
            policies = [policies] * self.num_players
        array = np.asarray(policies, dtype=object)
        if array.shape not in (shape, shape[1:]):
            raise ConfigError(
                f"policies must be one per seat or an array {shape}, not {array.shape}"
            )
        try:
            flags = np.vectorize(_is_greedy, otypes=[bool])(array)
        except KeyError:
            raise ConfigError(
                f"policies are 'random' or 'greedy' (or False/0 and True/1), not "
                f"{excerpt(policies)}"
            ) from None
        result: np.ndarray = np.broadcast_to(flags, shape)
        return result

    @_memory_guarded(changes_games=False)
    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """(batch,) one uniformly random legal id per live game (0 for finished ones)."""
        draw = _Uniform(_generator(rng))  # checked even when every game is over
        actions = np.zeros(self.batch, dtype=np.int64)
        for phase, games in self._groups():
            actions[games] = self._random_ids(phase, games, draw)
        return actions

    @_memory_guarded(changes_games=True)
    def play_random(self, seed: IntLike | None = None) -> np.ndarray:
        """Play every game to its end with uniformly random legal moves; moves made per game.

        Games are independent, so a playout need not keep them in lockstep: each
        pass moves the games of the most common phase (the others wait), and an
        autumn pass plays whole turns (tree, tile, every leaf), which keeps the
        groups large. Each game's moves are a uniformly random legal game all
        the same; ``seed`` makes the run repeatable.
        """
        draw = _Uniform(np.random.default_rng(resolve_seed(seed)))
        return self._play(
            lambda phase, games: self._random_ids(phase, games, draw), NumpyChoices(draw.rng)
        )

    def _play(
        self,
        choose: Callable[[int, np.ndarray], np.ndarray],
        choices: Choices,
        greedy: np.ndarray | None = None,
    ) -> np.ndarray:
        """Play every game to its end with ``choose``; the autumn turns of random seats
        (every seat unless ``greedy`` (batch, P) says otherwise) are played whole by
        forestgames.bosk._vector_random with ``choices``."""
        moves = np.zeros(self.batch, dtype=np.int64)
        while True:
            counts = np.bincount(self._phase, minlength=len(PHASES))[:OVER]
            if not counts.any():
                return moves
            phase = int(np.argmax(counts))
            games = np.flatnonzero(self._phase == phase)
            thinking = np.zeros(len(games), bool) if greedy is None else (
                greedy[games, self._mover[games]])  # fmt: skip
            if phase in (SPRING, TREE) and not thinking.all():
                fast = plant_random if phase == SPRING else play_random_turns
                fast(self, games[~thinking], choices, moves)
                games = games[thinking]
                if not len(games):
                    continue
            if phase == TREE:
                self._play_turns(games, choose, moves)
                continue
            self._APPLY[phase](self, games, choose(phase, games))
            moves[games] += 1

    def _play_turns(
        self, games: np.ndarray, choose: Callable[[int, np.ndarray], np.ndarray], moves: np.ndarray
    ) -> None:
        """One whole autumn turn of each of ``games`` (all choosing a tree): the tree, the
        tile, the squirrel or every leaf of the path, each chosen by ``choose``; the turns
        end together."""
        self._apply_tree(games, choose(TREE, games))
        moves[games] += 1
        stuck = self._take_tile(games, choose(TILE, games))
        moves[games] += 1
        done = [games[stuck]]
        squirrels = games[~stuck & (self._phase[games] == SQUIRREL_STEP)]
        if len(squirrels):
            self._place_squirrel(squirrels, choose(SQUIRREL_STEP, squirrels))
            moves[squirrels] += 1
            done.append(squirrels)
        walking = games[~stuck & (self._phase[games] == LEAVES)]
        while len(walking):
            goes_on = self._place_leaf(walking, choose(LEAVES, walking))
            moves[walking] += 1
            done.append(walking[~goes_on])
            walking = walking[goes_on]
        self._end_turn(np.sort(np.concatenate(done)))


_Unreadable = tuple[int, str] | None
"""The first live game whose action is no id at all, and the message naming it (or None)."""

Draw = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""``draw(positions, counts)``: a number below each count for those rows of a group."""


def _is_bool(value: Any) -> bool:
    """Whether ``value`` is a bool: Python's, numpy's or a 0-d bool array."""
    return isinstance(value, bool | np.bool_) or (
        isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind == "b"
    )


def _is_greedy(policy: Any) -> bool:
    """Whether ``policy`` names greedy play: "greedy", True or 1 (KeyError if it names
    neither random nor greedy; a float is neither)."""
    if isinstance(policy, str) and policy in ("random", "greedy"):
        return policy == "greedy"
    if isinstance(policy, bool | np.bool_ | int | np.integer) and policy in (0, 1):
        return bool(policy)
    raise KeyError(policy)


class _Uniform:
    """A Draw from a numpy generator: uniform below each count."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def __call__(self, positions: np.ndarray, counts: np.ndarray) -> np.ndarray:
        return np.asarray((self.rng.random(len(positions)) * counts).astype(np.intp))


_INT64_MAX = np.iinfo(np.int64).max


def _generator(rng: Any) -> np.random.Generator:
    """``rng`` if it is a numpy Generator; ConfigError otherwise."""
    if not isinstance(rng, np.random.Generator):
        raise ConfigError(
            f"rng must be a numpy Generator (np.random.default_rng(seed)), not {excerpt(rng)}"
        )
    return rng


def _stream_draw(
    streams: PythonStreams, rows: np.ndarray, positions: np.ndarray, counts: np.ndarray
) -> np.ndarray:
    return streams.randbelow(rows[positions], counts)


def _nth_id(ids: np.ndarray, chosen: np.ndarray, pick: np.ndarray) -> np.ndarray:
    """Per row of ``ids`` (G, C), the id at the ``pick``-th True of ``chosen``."""
    column = _nth_true(chosen, pick)
    return np.asarray(ids.reshape(-1)[np.arange(len(ids)) * ids.shape[1] + column])


def _options_without_players(game: BoskGame) -> dict[str, Any]:
    options = game.options()
    options.pop("num_players")
    return options


def _how_games_differ(game: BoskGame, odd: BoskGame) -> str:
    """The options in which ``odd`` differs from ``game`` (state 0's), for a message."""
    first, then = game.options(), odd.options()
    differ = ", ".join(
        f"another {key}{_first_difference(getattr(game, key), getattr(odd, key))}"
        if key == "terrain"  # a grid: where it differs
        else f"{key}={_option_text(then, key)} (state 0: {_option_text(first, key)})"
        for key in sorted(set(first) | set(then))
        if not _same_option(first.get(key), then.get(key))
    )
    return differ or "another game"


def _same_option(a: Any, b: Any) -> bool:
    """Whether two option values (ints, bools, or terrain grids) are equal."""
    return bool(np.array_equal(a, b)) if isinstance(a, np.ndarray | list) else bool(a == b)


def _option_text(options: dict[str, Any], key: str) -> str:
    """An option's value for a message; "the default" for one a game leaves out."""
    return excerpt(options[key], 30) if key in options else "the default"


def _first_difference(a: Any, b: Any) -> str:
    """Where two games' terrains differ, for a message: the first square (row-major)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return f" of shape {b.shape} (state 0: {a.shape})"
    row, col = (int(i) for i in np.argwhere(a != b)[0])
    return f" with {b[row, col]} at square ({row}, {col}) (state 0: {a[row, col]})"
