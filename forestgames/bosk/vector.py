"""Lockstep Bosk: thousands of games stepped at once on numpy arrays.

    vec = fg.bosk.VectorBosk(num_players=4, batch=1024, seed=0)
    while not vec.terminated.all():
        mask = vec.legal_action_mask()            # (batch, num_actions) int8
        vec.step(pick_one_id_per_row(mask))       # finished games ignore theirs
    vec.scores, vec.winners, vec.state(17)        # state(i) is an ordinary BoskState

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
from typing import Any

import numpy as np

from forestgames.bosk._tables import (
    DIRECTIONS,
    LEAF_TILES,
    ROUNDS,
    SQUIRREL,
    TREES_PER_VALUE,
    geometry,
)
from forestgames.bosk.rules import BoskGame
from forestgames.bosk.scoring import summer_scores, winter_scores
from forestgames.bosk.state import BoskState, Phase
from forestgames.core import (
    ConfigError,
    IllegalMoveError,
    StateError,
    derive_seed,
    new_rng,
    resolve_seed,
)

__all__ = ["VectorBosk", "ActionLayout"]

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
PHASE_CODE = {phase: code for code, phase in enumerate(PHASES)}
VALUES = (1, 2, 3, 4)
LEAF_TILE_COUNT = len(LEAF_TILES)


class ActionLayout:
    """The id ranges of one board size (see the module docstring)."""

    def __init__(self, size: int) -> None:
        n = size - 1
        self.size, self.n = size, n
        self.intersections, self.squares = n * n, size * size
        self.plant = 0
        self.wind = 4 * n * n
        self.tree = self.wind + 4
        self.tile = self.tree + n * n
        self.leaf = self.tile + LEAF_TILE_COUNT
        self.squirrel = self.leaf + size * size
        self.num_actions = self.squirrel + size * size

    def action_id(self, move: Any) -> int:
        """The id of a Bosk move (for tests and conversions; the seat is not part of it)."""
        kind = type(move).__name__
        if kind == "PlantTree":
            return (move.value - 1) * self.intersections + self._point(move.at, self.n)
        if kind == "ChooseWind":
            return self.wind + DIRECTIONS.index(move.direction)
        if kind == "ChooseTree":
            return self.tree + self._point(move.at, self.n)
        if kind == "ChooseTile":
            return self.tile + move.tile - 1
        if kind == "PlaceLeaf":
            return self.leaf + self._point(move.at, self.size)
        if kind == "PlaceSquirrel":
            return self.squirrel + self._point(move.at, self.size)
        raise IllegalMoveError(f"{move!r} is not a Bosk move")

    @staticmethod
    def _point(at: tuple[int, int], width: int) -> int:
        return int(at[0]) * width + int(at[1])

    def describe(self, action: int) -> str:
        """A short text for an id, for error messages."""
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
        g = geometry(size)
        self.layout = ActionLayout(size)
        n2, s2 = g.intersections, g.squares
        self.base = np.full((4, n2, 3), -1, dtype=np.int16)
        self.next = np.full((4, s2, 3), -1, dtype=np.int16)
        reach = [
            [sorted(steps[-1] if exactly_three else steps[0] | steps[1] | steps[2]) for steps in g.squirrel_reach[d]]
            for d in DIRECTIONS
        ]  # fmt: skip
        width = max(len(r) for per_wind in reach for r in per_wind)
        self.reach = np.full((4, n2, width), -1, dtype=np.int16)
        for d, wind in enumerate(DIRECTIONS):
            for t in range(n2):
                self.base[d, t, :2] = g.base[wind][t]
                self.reach[d, t, : len(reach[d][t])] = reach[d][t]
            for s in range(s2):
                self.next[d, s, : len(g.next[wind][s])] = g.next[wind][s]
        for table in (self.base, self.next, self.reach):
            table.flags.writeable = False


@functools.cache
def _tables(size: int, exactly_three: bool) -> _Tables:
    return _Tables(size, exactly_three)


def _nth_true(valid: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Per row, the column of the ``index``-th True of ``valid`` (G, C)."""
    return np.argmax(np.cumsum(valid, axis=1) > index[:, None], axis=1)


class VectorBosk:
    """``batch`` Bosk games stepped in lockstep; see the module docstring.

    ``current_player`` (batch,) int8 is -1 once a game is over; ``terminated``
    (batch,) bool; ``scores`` (batch, P) summer plus winter; ``winners``
    (batch,) int8, the winning seat once over, else -1.
    """

    def __init__(
        self, num_players: int = 2, batch: int = 1, seed: int | None = None, **options: Any
    ) -> None:
        self.game = BoskGame.create(num_players=num_players, **options)
        if isinstance(batch, bool) or not isinstance(batch, int | np.integer) or batch < 1:
            raise ConfigError(f"batch must be a positive int, not {batch!r}")
        self.batch = int(batch)
        self._setup()
        self.reset(seed)

    # ------------------------------------------------------------------ construction

    def _setup(self) -> None:
        game, b = self.game, self.batch
        p, size = game.num_players, game.size
        self.num_players = p
        self._t = _tables(size, bool(game.squirrel_exactly_three))
        self.layout = self._t.layout
        n2, s2 = self.layout.intersections, self.layout.squares
        self._height_limit = (LEAF_TILE_COUNT - 1) * p  # one leaf per square per leaf path
        self._phase = np.zeros(b, np.int8)
        self._round = np.zeros(b, np.int8)
        self._start = np.zeros(b, np.int8)
        self._turn = np.zeros(b, np.int16)
        self._owner = np.full((b, n2), -1, np.int8)
        self._value = np.zeros((b, n2), np.int8)
        self._stack = np.full((b, s2, self._height_limit), -1, np.int8)
        self._height = np.zeros((b, s2), np.int8)
        self._leaf_top = np.full((b, s2), -1, np.int8)
        self._squirrel = np.full((b, p), -1, np.int16)
        self._squirrel_on = np.full((b, s2), -1, np.int8)
        self._tiles_used = np.zeros((b, p), np.int16)
        self._round_tile = np.zeros((b, p), np.int8)
        self._first_wind = np.full(b, -1, np.int8)
        self._tree = np.full(b, -1, np.int16)
        self._active = np.zeros(b, np.int8)
        self._last = np.full(b, -1, np.int16)
        self._summer = np.zeros((b, p), np.int16)
        self._winter = np.zeros((b, p), np.int16)
        self._rows = np.arange(b)

    def reset(self, seed: int | None = None) -> None:
        """Start every game anew: game i as ``game.new_game(seed=derive_seed(seed, i))``."""
        seed = resolve_seed(seed)
        self.seed = seed
        p = self.num_players
        firsts = [int(new_rng(derive_seed(seed, i)).integers(p)) for i in range(self.batch)]
        self._clear()
        self._start[:] = firsts

    def _clear(self) -> None:
        for name, fill in (
            ("_phase", SPRING), ("_round", 0), ("_start", 0), ("_turn", 0), ("_owner", -1),
            ("_value", 0), ("_stack", -1), ("_height", 0), ("_leaf_top", -1),
            ("_squirrel", -1), ("_squirrel_on", -1), ("_tiles_used", 0), ("_round_tile", 0),
            ("_first_wind", -1), ("_tree", -1), ("_active", 0), ("_last", -1), ("_summer", 0),
            ("_winter", 0),
        ):  # fmt: skip
            getattr(self, name)[...] = fill

    @classmethod
    def from_states(cls, states: Sequence[BoskState]) -> VectorBosk:
        """A batch holding ``states`` (all of one game and options), read through ``to_dict``."""
        states = list(states)
        if not states:
            raise ConfigError("from_states needs at least one state")
        game = states[0].game
        if any(s.game != game for s in states):
            raise ConfigError("from_states: every state must be of the same game and options")
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
        for r, c, seat, value in data["trees"]:
            self._owner[i, r * n + c], self._value[i, r * n + c] = seat, value
        self._stack[i], self._height[i], self._leaf_top[i] = -1, 0, -1
        self._squirrel[i], self._squirrel_on[i] = -1, -1
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

    def _load_square(self, i: int, square: int, text: str) -> None:
        if "S" in text:
            text, seat = text.split("S")
            self._squirrel[i, int(seat)] = square
            self._squirrel_on[i, square] = int(seat)
        leaves = [int(ch) for ch in text]
        if len(leaves) > self._height_limit:
            raise StateError(f"a stack of {len(leaves)} leaves cannot be reached")
        self._stack[i, square, : len(leaves)] = leaves
        self._height[i, square] = len(leaves)
        self._leaf_top[i, square] = leaves[-1] if leaves else -1

    # ------------------------------------------------------------------ reading

    @property
    def num_actions(self) -> int:
        return self.layout.num_actions

    @property
    def terminated(self) -> np.ndarray:
        """(batch,) bool: which games are over."""
        return self._phase == OVER

    @property
    def current_player(self) -> np.ndarray:
        """(batch,) int8: the seat to move in each game, -1 once it is over."""
        seat = ((self._start + self._turn) % self.num_players).astype(np.int8)
        return np.where(self._phase == OVER, np.int8(-1), seat)

    @property
    def scores(self) -> np.ndarray:
        """(batch, P) int: points so far per seat (summer after spring, plus winter at the end)."""
        return self._summer.astype(np.int64) + self._winter

    @property
    def winners(self) -> np.ndarray:
        """(batch,) int8: each finished game's winner (ties to the earlier in round 8's order)."""
        scores = self.scores
        best = scores.max(axis=1, keepdims=True)
        p = self.num_players
        seats = (self._start[:, None] + np.arange(p)) % p  # round 8's order
        tops = np.take_along_axis(scores, seats, axis=1) == best
        winner = np.take_along_axis(seats, np.argmax(tops, axis=1)[:, None], axis=1)[:, 0]
        return np.where(self.terminated, winner, -1).astype(np.int8)

    def state(self, i: int) -> BoskState:
        """Game ``i`` as an ordinary BoskState (equal to the scalar engine's)."""
        if isinstance(i, bool) or not isinstance(i, int | np.integer) or not 0 <= i < self.batch:
            raise ConfigError(f"game index must be 0..{self.batch - 1}, not {i!r}")
        return self.game.state_from_dict(self._state_dict(int(i)))

    def _state_dict(self, i: int) -> dict[str, Any]:
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

    def _wind(self, games: np.ndarray) -> np.ndarray:
        return (self._first_wind[games] + self._round[games] - 1) % 4

    def _player(self, games: np.ndarray) -> np.ndarray:
        return (self._start[games] + self._turn[games]) % self.num_players

    def _spring_ids(self, games: np.ndarray) -> np.ndarray:
        """(G, 4N²): PlantTree ids, values outer and intersections inner, -1 where illegal."""
        owner, value = self._owner[games], self._value[games]
        mine = owner == self._player(games)[:, None].astype(np.int8)
        left = np.stack([(mine & (value == v)).sum(axis=1) < TREES_PER_VALUE for v in VALUES], 1)
        legal = left[:, :, None] & (owner < 0)[:, None, :]
        ids = np.arange(4 * self.layout.intersections, dtype=np.int32)
        return np.where(legal.reshape(len(games), -1), ids, -1)

    def _wind_ids(self, games: np.ndarray) -> np.ndarray:
        ids = np.arange(self.layout.wind, self.layout.wind + 4, dtype=np.int32)
        return np.broadcast_to(ids, (len(games), 4))

    def _tree_ids(self, games: np.ndarray) -> np.ndarray:
        """(G, N²): ChooseTree ids of the mover's trees allowed this round."""
        mine = self._owner[games] == self._player(games)[:, None].astype(np.int8)
        rnd = self._round[games][:, None]
        allowed = mine & ((rnd > 4) | (self._value[games] == rnd))
        ids = np.arange(self.layout.intersections, dtype=np.int32) + self.layout.tree
        return np.where(allowed, ids, -1)

    def _tile_ids(self, games: np.ndarray) -> np.ndarray:
        """(G, 8): ChooseTile ids of the mover's unspent tiles, 1 (squirrel) first."""
        used = self._tiles_used[games, self._player(games)]
        tiles = np.arange(1, LEAF_TILE_COUNT + 1)
        unused = (used[:, None] >> tiles) & 1 == 0
        return np.where(unused, (tiles - 1 + self.layout.tile).astype(np.int32), -1)

    def _leaf_squares(self, games: np.ndarray) -> np.ndarray:
        """(G, 3): squares the next leaf may go on (the scalar order), -1 where it may not."""
        wind = self._wind(games)
        last, tree = self._last[games], self._tree[games]
        first = self._t.base[wind, np.maximum(tree, 0)]
        after = self._t.next[wind, np.maximum(last, 0)]
        squares = np.where((last < 0)[:, None], first, after).astype(np.int32)
        safe = np.maximum(squares, 0)
        rows = games[:, None]
        height = self._height[rows, safe]
        player = self._player(games)[:, None].astype(np.int8)
        free = (height == 0) | (self._leaf_top[rows, safe] == player)
        free |= height < self._active[games][:, None]
        legal = (squares >= 0) & (self._squirrel_on[rows, safe] < 0) & free
        return np.where(legal, squares, -1)

    def _leaf_ids(self, games: np.ndarray) -> np.ndarray:
        squares = self._leaf_squares(games)
        return np.where(squares >= 0, squares + self.layout.leaf, -1)

    def _squirrel_squares(self, games: np.ndarray) -> np.ndarray:
        """(G, R): squares the squirrel may stop on (sorted), -1 where it may not."""
        squares = self._t.reach[self._wind(games), np.maximum(self._tree[games], 0)].astype(np.int32)
        taken = self._squirrel_on[games[:, None], np.maximum(squares, 0)] >= 0
        return np.where((squares >= 0) & ~taken, squares, -1)

    def _squirrel_ids(self, games: np.ndarray) -> np.ndarray:
        squares = self._squirrel_squares(games)
        return np.where(squares >= 0, squares + self.layout.squirrel, -1)

    def _candidates(self, phase: int, games: np.ndarray) -> np.ndarray:
        """(G, C) legal ids of ``games`` (all in ``phase``), -1 holes, in legal_moves() order."""
        return self._ID_LISTS[phase](self, games)

    _ID_LISTS: dict[int, Callable[[VectorBosk, np.ndarray], np.ndarray]] = {
        SPRING: _spring_ids,
        WIND: _wind_ids,
        TREE: _tree_ids,
        TILE: _tile_ids,
        LEAVES: _leaf_ids,
        SQUIRREL_STEP: _squirrel_ids,
    }

    def _groups(self) -> list[tuple[int, np.ndarray]]:
        """The games of each live phase: (phase, game indices)."""
        return [
            (phase, games)
            for phase in self._ID_LISTS
            if len(games := np.flatnonzero(self._phase == phase))
        ]

    def legal_action_mask(self) -> np.ndarray:
        """(batch, num_actions) int8: 1 at the ids of each game's legal moves now."""
        mask = np.zeros((self.batch, self.num_actions), dtype=np.int8)
        for phase, games in self._groups():
            ids = self._candidates(phase, games)
            rows, cols = np.nonzero(ids >= 0)
            mask[games[rows], ids[rows, cols]] = 1
        return mask

    # ------------------------------------------------------------------ stepping

    def step(self, actions: Any) -> None:
        """Apply one id per game (finished games ignore theirs).

        IllegalMoveError names the first game whose id is not legal, and then
        nothing has changed.
        """
        actions = self._checked_actions(actions)
        groups = self._groups()
        for phase, games in groups:
            ids = self._candidates(phase, games)
            legal = (ids == actions[games, None]).any(axis=1)
            if not legal.all():
                self._refuse(phase, games[np.flatnonzero(~legal)[0]], int(actions[games][~legal][0]))
        self._apply_groups(groups, actions)

    def _checked_actions(self, actions: Any) -> np.ndarray:
        try:
            array = np.asarray(actions)
        except (TypeError, ValueError) as error:
            raise IllegalMoveError(f"actions must be {self.batch} ints: {error}") from None
        if array.shape != (self.batch,) or array.dtype.kind not in "iu":
            raise IllegalMoveError(
                f"actions must be {self.batch} integer ids (one per game), "
                f"not an array of shape {array.shape} and dtype {array.dtype}"
            )
        return array.astype(np.int64)

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
        self._owner[games, t] = self._player(games)
        self._value[games, t] = value
        self._turn[games] += 1
        done = games[self._turn[games] == 8 * self.num_players]
        if len(done):
            self._summer_of(done)

    def _summer_of(self, games: np.ndarray) -> None:
        """Score summer and hand the wind choice to the autumn start player."""
        n = self.layout.n
        boards = (len(games), n, n)
        summer = summer_scores(
            self._owner[games].reshape(boards), self._value[games].reshape(boards), self.num_players
        )
        self._summer[games] = summer
        fewest = summer == summer.min(axis=1, keepdims=True)
        self._start[games] = self._first_reached(fewest, self._start[games])
        self._phase[games] = WIND
        self._turn[games] = 0

    def _first_reached(self, candidates: np.ndarray, start: np.ndarray) -> np.ndarray:
        """The candidate seat (G, P) reached first clockwise from ``start`` (ties option)."""
        p = self.num_players
        offset = 0 if self.game.ties_include_start else 1
        seats = (start[:, None].astype(np.int64) + offset + np.arange(p)) % p
        first = np.argmax(np.take_along_axis(candidates, seats, axis=1), axis=1)
        return seats[np.arange(len(start)), first]

    def _apply_wind(self, games: np.ndarray, ids: np.ndarray) -> None:
        self._first_wind[games] = ids - self.layout.wind
        self._round[games] = 1
        self._phase[games] = TREE

    def _apply_tree(self, games: np.ndarray, ids: np.ndarray) -> None:
        self._tree[games] = ids - self.layout.tree
        self._phase[games] = TILE

    def _apply_tile(self, games: np.ndarray, ids: np.ndarray) -> None:
        tile = ids - self.layout.tile + 1
        player = self._player(games)
        self._tiles_used[games, player] |= (1 << tile).astype(np.int16)
        self._round_tile[games, player] = tile
        squirrel = tile == SQUIRREL
        self._phase[games] = np.where(squirrel, SQUIRREL_STEP, LEAVES)
        self._active[games] = np.where(squirrel, 0, tile)
        leaves, squirrels = games[~squirrel], games[squirrel]
        stuck = []
        if len(leaves):
            stuck.append(leaves[(self._leaf_squares(leaves) < 0).all(axis=1)])
        if len(squirrels):
            stuck.append(squirrels[(self._squirrel_squares(squirrels) < 0).all(axis=1)])
        if stuck and len(ended := np.concatenate(stuck)):
            self._end_turn(ended)

    def _apply_leaf(self, games: np.ndarray, ids: np.ndarray) -> None:
        square = ids - self.layout.leaf
        player = self._player(games).astype(np.int8)
        height = self._height[games, square].astype(np.int64)
        covered = (height > 0) & (self._leaf_top[games, square] != player)
        self._stack[games, square, height] = player
        self._height[games, square] += 1
        self._leaf_top[games, square] = player
        self._active[games] -= (np.where(covered, height, 0) + 1).astype(np.int8)
        self._last[games] = square
        going = games[self._active[games] > 0]
        going = going[(self._leaf_squares(going) >= 0).any(axis=1)] if len(going) else going
        ended = np.setdiff1d(games, going, assume_unique=True)
        if len(ended):
            self._end_turn(ended)

    def _apply_squirrel(self, games: np.ndarray, ids: np.ndarray) -> None:
        square = ids - self.layout.squirrel
        player = self._player(games)
        self._squirrel[games, player] = square
        self._squirrel_on[games, square] = player
        self._end_turn(games)

    def _end_turn(self, games: np.ndarray) -> None:
        """Remove the tree, pass to the next seat, end the round or the game."""
        tree = self._tree[games]
        self._owner[games, tree], self._value[games, tree] = -1, 0
        self._tree[games], self._active[games], self._last[games] = -1, 0, -1
        self._turn[games] += 1
        self._phase[games] = TREE
        rounds_over = games[self._turn[games] == self.num_players]
        if not len(rounds_over):
            return
        self._turn[rounds_over] = 0
        final = self._round[rounds_over] == ROUNDS
        if final.any():
            self._winter_of(rounds_over[final])
        going = rounds_over[~final]
        if len(going):
            tiles = self._round_tile[going]
            lowest = tiles == tiles.min(axis=1, keepdims=True)
            self._start[going] = self._first_reached(lowest, self._start[going])
            self._round[going] += 1
            self._round_tile[going] = 0

    def _winter_of(self, games: np.ndarray) -> None:
        size = self.layout.size
        top = np.where(self._squirrel_on[games] >= 0, self._squirrel_on[games], self._leaf_top[games])
        self._winter[games] = winter_scores(
            top.reshape(len(games), size, size), self.game.terrain, self.num_players
        )
        self._phase[games] = OVER

    _APPLY: dict[int, Callable[[VectorBosk, np.ndarray, np.ndarray], None]] = {
        SPRING: _apply_spring,
        WIND: _apply_wind,
        TREE: _apply_tree,
        TILE: _apply_tile,
        LEAVES: _apply_leaf,
        SQUIRREL_STEP: _apply_squirrel,
    }

    # ------------------------------------------------------------------ playouts

    def random_actions(self, rng: np.random.Generator) -> np.ndarray:
        """(batch,) one uniformly random legal id per live game (0 for finished ones)."""
        actions = np.zeros(self.batch, dtype=np.int64)
        for phase, games in self._groups():
            ids = self._candidates(phase, games)
            valid = ids >= 0
            pick = (rng.random(len(games)) * valid.sum(axis=1)).astype(np.int64)
            actions[games] = ids[np.arange(len(games)), _nth_true(valid, pick)]
        return actions

    def play_random(self, seed: int | None = None, max_steps: int = 10_000) -> np.ndarray:
        """Play every game to its end with uniformly random legal moves; moves per game."""
        rng = np.random.default_rng(resolve_seed(seed))
        moves = np.zeros(self.batch, dtype=np.int64)
        for _ in range(max_steps):
            live = ~self.terminated
            if not live.any():
                break
            moves += live
            self._apply_groups(self._groups(), self.random_actions(rng))
        return moves


def _options_without_players(game: BoskGame) -> dict[str, Any]:
    options = game.options()
    options.pop("num_players")
    return options
