"""Bosk as integer actions and float32 tensors (for RL code, search and ``VectorBosk``).

Action ids, with S the side in squares, N = S - 1 intersections per side,
``t = row*N + col`` an intersection and ``s = row*S + col`` a square::

    PlantTree(v, t)     (v-1)*N² + t          [0, 4N²)
    ChooseWind(d)       4N² + "NESW".index(d)
    ChooseTree(t)       4N² + 4 + t
    ChooseTile(tile)    5N² + 4 + tile - 1    tile 1..8, 1 = SQUIRREL
    PlaceLeaf(s)        5N² + 12 + s
    PlaceSquirrel(s)    5N² + 12 + S² + s     num_actions = 5N² + 12 + 2S²

385, 617 and 905 ids for 2, 3 and 4 players. The observation tensor is flat:
first the board planes, shape ``board_shape = (C, S, S)`` (intersection
``(i, j)`` at ``[i, j]``, its last row and column unused), then the fields
(see ``docs/bosk.md``, "Actions and tensors"); seats in observer order.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from itertools import compress
from operator import is_not, ne
from typing import Any, NamedTuple

import numpy as np

from forestgames._codec import CodecBase, Layout, Pieces, seat_order
from forestgames.bosk._tables import DIRECTIONS, LEAF_TILES, NUM_TERRAINS, ROUNDS
from forestgames.bosk.moves import (
    ChooseTile,
    ChooseTree,
    ChooseWind,
    PlaceLeaf,
    PlaceSquirrel,
    PlantTree,
)
from forestgames.bosk.state import Phase

__all__ = ["PHASES", "BoskCodec"]

PHASES: tuple[Phase, ...] = tuple(Phase)
"""Phases in the order of the tensor's one-hot ``phase`` field."""
_PHASE_INDEX = {phase: k for k, phase in enumerate(PHASES)}
_EMPTY = (-1).__eq__  # an intersection without a tree


class _View(NamedTuple):
    """The fields a tensor is made of, taken from a state or from an observation dict."""

    observer: int
    phase: Phase
    round: int
    order: tuple[int, ...]
    turn: int
    owners: tuple[int, ...]
    values: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...]
    squirrels: tuple[int, ...]
    tiles_used: tuple[int, ...]
    round_tiles: tuple[int, ...]
    first_wind: int
    tree: int
    active: int
    last: int
    summer: tuple[int, ...]
    winter: tuple[int, ...]


def _layout(p: int, size: int) -> Layout:
    sq = (size, size)
    layout = Layout()
    layout.add("trees", (p, 4, *sq), "seat's tree of value 1..4 on intersection [i, j], one-hot")
    layout.add("terrain", (NUM_TERRAINS, *sq), "terrain type of each square, one-hot")
    layout.add("top", (p, *sq), "the seat whose leaf or squirrel tops the square")
    layout.add("height", (1, *sq), "leaves on the square")
    layout.add("squirrel", (p, *sq), "the seat's squirrel on the square")
    layout.add("stack", (ROUNDS * p, *sq), "level l of the stack: 1 + the leaf's seat, 0 none")
    layout.add("chosen_tree", (1, *sq), "the tree whose leaves fall this turn")
    layout.add("last_leaf", (1, *sq), "the square of the last leaf laid this turn")
    layout.add("phase", (len(PHASES),), "spring, wind, tree, tile, leaves, squirrel, over")
    layout.add("round", (1,), "autumn round 1..8 (0 before autumn)")
    layout.add("wind", (4,), "this round's wind N, E, S, W, one-hot (none before autumn)")
    layout.add("first_wind", (4,), "round 1's wind, one-hot")
    layout.add("turn", (1,), "turns taken in the round (spring: trees planted)")
    layout.add("to_move", (p,), "the seat to move")
    layout.add("active", (1,), "active leaves left in the path under way")
    layout.add("order_start", (p,), "the seat that starts this round's turn order")
    layout.add("tiles_used", (p, len(LEAF_TILES)), "spent leaf tiles 1..8 (1 = squirrel)")
    layout.add("round_tiles", (p, len(LEAF_TILES) + 1), "tile played this round, 0 = none")
    layout.add("summer", (p,), "summer points")
    layout.add("winter", (p,), "winter points")
    return layout


class _Seen:
    """The last position a seat's tensor showed, with its tree and leaf planes."""

    __slots__ = ("leaves", "leaves_bytes", "state", "trees", "trees_bytes")

    def __init__(
        self, state: Any, trees: array[float], trees_bytes: bytes, leaves: array[float],
        leaves_bytes: bytes,
    ) -> None:  # fmt: skip
        self.state = state
        self.trees, self.trees_bytes = trees, trees_bytes
        self.leaves, self.leaves_bytes = leaves, leaves_bytes


class BoskCodec(CodecBase):
    """Integer actions and observation tensors of one Bosk game (its options fixed)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        size = self.size = game.size
        n = self.n = size - 1
        self.wind_base = 4 * n * n
        self.tree_base = self.wind_base + 4
        self.tile_base = 5 * n * n + 4
        self.leaf_base = 5 * n * n + 12
        self.squirrel_base = self.leaf_base + size * size
        self.num_actions = self.squirrel_base + size * size
        p = self.num_players
        self.layout = _layout(p, size)
        self.board_shape = (self.layout.offset["phase"] // (size * size), size, size)
        self.observation_shape = (self.layout.size,)
        self._square_of_point = [i * size + j for i in range(n) for j in range(n)]
        terrain = np.zeros((NUM_TERRAINS, size * size), np.float32)
        terrain[np.asarray(game.terrain).ravel(), np.arange(size * size)] = 1.0
        self._terrain = array("f", terrain.ravel().tobytes())
        self._rel = [seat_order(obs, p) for obs in range(p)]
        self._trees_at = self.layout.offset["trees"]
        self._turn_at = tuple(
            self.layout.offset[name]
            for name in (
                "phase", "round", "turn", "active", "chosen_tree", "last_leaf", "first_wind",
                "wind", "to_move",
            )
        )  # fmt: skip
        self._points = range(n * n)
        self._squares = range(size * size)
        self._init_pieces()
        self._encoders: dict[type, Callable[[Any], int | None]] = {
            PlantTree: self._plant_id,
            ChooseWind: self._wind_id,
            ChooseTree: self._tree_id,
            ChooseTile: self._tile_id,
            PlaceLeaf: self._leaf_id,
            PlaceSquirrel: self._squirrel_id,
        }

    # ------------------------------------------------------------------ ids

    def _point(self, at: Any, side: int) -> int | None:
        if type(at) is not tuple or len(at) != 2:
            return None
        r, c = at
        if type(r) is not int or type(c) is not int or not (0 <= r < side and 0 <= c < side):
            return None
        return r * side + c

    def _plant_id(self, move: Any) -> int | None:
        """PlantTree: a value 1..4 on an intersection."""
        t = self._point(move.at, self.n)
        value = move.value
        if t is None or type(value) is not int or not 1 <= value <= 4:
            return None
        return int((value - 1) * self.n * self.n + t)

    def _wind_id(self, move: Any) -> int | None:
        """ChooseWind: one of N, E, S, W."""
        if move.direction not in DIRECTIONS:
            return None
        return int(self.wind_base + DIRECTIONS.index(move.direction))

    def _tree_id(self, move: Any) -> int | None:
        """ChooseTree: an intersection."""
        t = self._point(move.at, self.n)
        return None if t is None else self.tree_base + t

    def _tile_id(self, move: Any) -> int | None:
        """ChooseTile: a leaf tile 1..8."""
        tile = move.tile
        ok = type(tile) is int and tile in LEAF_TILES
        return int(self.tile_base + tile - 1) if ok else None

    def _leaf_id(self, move: Any) -> int | None:
        """PlaceLeaf: a square."""
        s = self._point(move.at, self.size)
        return None if s is None else self.leaf_base + s

    def _squirrel_id(self, move: Any) -> int | None:
        """PlaceSquirrel: a square."""
        s = self._point(move.at, self.size)
        return None if s is None else self.squirrel_base + s

    def _build(self, action_id: int, player: int) -> Any:
        """The engine's own move object for ``action_id`` (so applying it is the fast path)."""
        n = self.n
        table = self.game._moves
        if action_id >= self.squirrel_base:
            return table.squirrel[player][action_id - self.squirrel_base]
        if action_id >= self.leaf_base:
            return table.leaf[player][action_id - self.leaf_base]
        if action_id >= self.tile_base:
            return table.tile[player][action_id - self.tile_base + 1]
        if action_id >= self.tree_base:
            return table.tree[player][action_id - self.tree_base]
        if action_id >= self.wind_base:
            return table.wind[player][action_id - self.wind_base]
        value, t = divmod(action_id, n * n)
        return table.plant[player][value + 1][t]

    # ------------------------------------------------------------------ masks

    def _fill_mask(self, flags: bytearray, state: Any, player: int) -> None:
        """Spring straight from the board (every empty intersection, each value left)."""
        if state.phase is not Phase.SPRING or player != state.current_player:
            super()._fill_mask(flags, state, player)
            return
        n2 = self.n * self.n
        empty = bytes(map(_EMPTY, state.owners))
        for v in self.game.values_to_plant(state, player):
            flags[(v - 1) * n2 : v * n2] = empty

    # ------------------------------------------------------------------ tensors
    #
    # The state's tensor is float32 pieces joined: the tree planes, the terrain, the leaf
    # planes (top .. stack), the chosen tree and last leaf planes with the turn's fields,
    # the slow fields (order start .. winter). The tree and leaf planes of each seat are
    # patched from the position it saw last: a changed intersection or square gets its
    # whole column (every plane at that square, one strided slice) from a table of
    # columns. The other pieces are kept in bounded tables keyed by what they are made
    # of. ``tensor_from_observation`` builds the same tensor with the writers below.

    def _init_pieces(self) -> None:
        at, ss = self.layout.offset, self.size * self.size
        self._trees_span = (at["trees"], at["terrain"])
        self._leaves_span = (at["top"], at["chosen_tree"])
        self._terrain_bytes = self._terrain.tobytes()
        self._tensor_keys = [("tensor", seat) for seat in range(self.num_players)]
        self._previous: list[_Seen | None] = [None] * self.num_players
        self._tree_columns = Pieces(self._tree_column)
        self._leaf_columns = Pieces(self._leaf_column)
        self._turn_start = at["chosen_tree"]
        self._turn_zeros = array("f", bytes(4 * (at["order_start"] - at["chosen_tree"])))
        self._slow_pieces = Pieces(self._slow_piece)
        self._plane = ss

    def tensor(self, state: Any, player: int) -> np.ndarray:
        """The observation tensor of seat ``player``, straight from ``state``."""
        memo = state._memo
        player = self.check_seat(player)
        key = self._tensor_keys[player]
        cached: np.ndarray | None = memo.get(key)
        if cached is not None:
            return cached
        seen = self._previous[player]
        if seen is None:
            seen = self._previous[player] = self._first_seen(state, player)
        else:
            self._patch(seen, state, player)
        pieces = (
            seen.trees_bytes,
            self._terrain_bytes,
            seen.leaves_bytes,
            self._turn_piece(state, player),
            self._slow_pieces[
                (player, state.order[0], state.tiles_used, state.round_tiles, state.summer,
                 state.winter)
            ],
        )  # fmt: skip
        tensor = memo[key] = np.frombuffer(b"".join(pieces), np.float32)  # read-only
        return tensor

    def _first_seen(self, state: Any, observer: int) -> _Seen:
        """The planes of ``state`` for ``observer``, written whole."""
        buffer = self._encode_buffer(state, observer)
        a, b = self._trees_span
        c, d = self._leaves_span
        trees, leaves = buffer[a:b], buffer[c:d]
        return _Seen(state, trees, trees.tobytes(), leaves, leaves.tobytes())

    def _patch(self, seen: _Seen, state: Any, observer: int) -> None:
        """Bring ``seen``'s tree and leaf planes from its position to ``state``."""
        old, ss = seen.state, self._plane
        if old.owners is not state.owners or old.values is not state.values:
            points = set(compress(self._points, map(ne, old.owners, state.owners)))
            points.update(compress(self._points, map(ne, old.values, state.values)))
            trees, columns, owners, values = (
                seen.trees,
                self._tree_columns,
                state.owners,
                state.values,
            )
            for t in points:
                square = self._square_of_point[t]
                trees[square::ss] = columns[(observer, owners[t], values[t])]
            seen.trees_bytes = trees.tobytes()
        if old.stacks is not state.stacks or old.squirrels is not state.squirrels:
            squares = set(compress(self._squares, map(is_not, old.stacks, state.stacks)))
            if old.squirrels != state.squirrels:
                squares.update(old.squirrels, state.squirrels)
                squares.discard(-1)
            leaves, columns, stacks = seen.leaves, self._leaf_columns, state.stacks
            squirrels = state.squirrels
            for s in squares:
                seat = squirrels.index(s) if s in squirrels else -1
                leaves[s::ss] = columns[(observer, stacks[s], seat)]
            seen.leaves_bytes = leaves.tobytes()
        seen.state = state

    def _tree_column(self, key: tuple[int, int, int]) -> array[float]:
        """The tree planes at one intersection: (observer, owner, value) -> the column."""
        observer, owner, value = key
        column = array("f", bytes(4 * self.num_players * 4))
        if owner >= 0:
            column[((owner - observer) % self.num_players) * 4 + value - 1] = 1.0
        return column

    def _leaf_column(self, key: tuple[int, tuple[int, ...], int]) -> array[float]:
        """The leaf planes at one square (top, height, squirrel, stack; as ``_write_leaves``)
        by (observer, the square's stack, the seat of the squirrel on it or -1)."""
        observer, leaves, seat = key
        p, rel = self.num_players, self._rel[observer]
        column = array("f", bytes(4 * (2 * p + 1 + ROUNDS * p)))
        if seat >= 0:
            column[rel[seat]] = column[p + 1 + rel[seat]] = 1.0
        if leaves:
            if seat < 0:
                column[rel[leaves[-1]]] = 1.0
            column[p] = len(leaves)
            for level, owner in enumerate(leaves):
                column[2 * p + 1 + level] = 1 + rel[owner]
        return column

    def _turn_piece(self, v: Any, observer: int) -> bytes:
        """Chosen tree and last leaf planes, phase .. active (as ``_write_turn``)."""
        piece = self._turn_zeros[:]
        for i, x in zip(*self._turn_entries(v, observer), strict=True):
            piece[i - self._turn_start] = x
        return piece.tobytes()

    def _slow_piece(self, key: tuple[Any, ...]) -> bytes:
        """Order start, spent and played tiles, summer and winter points."""
        observer, start, tiles_used, round_tiles, summer, winter = key
        view = _View(
            observer, Phase.OVER, 0, (start,), 0, (), (), (), (), tiles_used, round_tiles, -1,
            -1, 0, -1, summer, winter,
        )  # fmt: skip
        buffer = array("f", bytes(4 * self.layout.size))
        self._write_slow(buffer, view, observer)
        return buffer[self.layout.offset["order_start"] :].tobytes()

    def tensor_from_observation(self, observation: dict[str, Any]) -> np.ndarray:
        """The observation tensor built from ``state.observation(player)`` alone."""
        obs = observation
        n, size, p = self.n, self.size, self.num_players
        owners, values = [-1] * (n * n), [0] * (n * n)
        for r, c, owner, value in obs["trees"]:
            owners[r * n + c], values[r * n + c] = owner, value
        stacks: list[tuple[int, ...]] = []
        squirrels = [-1] * p
        for r, row in enumerate(obs["stacks"]):
            for c, text in enumerate(row):
                leaves, _, squirrel = text.partition("S")
                stacks.append(tuple(int(ch) for ch in leaves))
                if squirrel:
                    squirrels[int(squirrel)] = r * size + c
        wind = obs["first_wind"]
        view = _View(
            observer=obs["observer"],
            phase=Phase(obs["phase"]),
            round=obs["round"],
            order=tuple(obs["order"]),
            turn=obs["turn"],
            owners=tuple(owners),
            values=tuple(values),
            stacks=tuple(stacks),
            squirrels=tuple(squirrels),
            tiles_used=tuple(sum(1 << t for t in used) for used in obs["tiles_used"]),
            round_tiles=tuple(obs["round_tiles"]),
            first_wind=-1 if wind is None else DIRECTIONS.index(wind),
            tree=-1 if obs["tree"] is None else obs["tree"][0] * n + obs["tree"][1],
            active=obs["active"],
            last=-1 if obs["last"] is None else obs["last"][0] * size + obs["last"][1],
            summer=tuple(obs["summer"]),
            winter=tuple(obs["winter"]),
        )
        return self._encode_view(view)

    # The writers below take a state or a _View (the same field names) and the observer;
    # ``on=False`` writes 0 where ``on=True`` writes the values, so a patch takes the old
    # position's entries out and puts the new one's in.

    def _encode_view(self, v: _View) -> np.ndarray:
        """The whole tensor of view ``v``."""
        return np.frombuffer(self._encode_buffer(v, v.observer), np.float32).copy()

    def _encode_buffer(self, v: Any, observer: int) -> array[float]:
        """The whole tensor as a float32 ``array``, every section written."""
        buffer = array("f", bytes(4 * self.layout.size))
        terrain = self.layout.offset["terrain"]
        buffer[terrain : terrain + len(self._terrain)] = self._terrain
        for t in range(self.n * self.n):
            self._write_tree(buffer, v, observer, t, 1.0)
        self._write_leaves(buffer, v, observer, range(self.size * self.size), True)
        self._write_slow(buffer, v, observer)
        self._write_turn(buffer, v, observer)
        return buffer

    def _write_tree(
        self, buffer: array[float], v: Any, observer: int, t: int, value: float
    ) -> None:
        """Set intersection ``t``'s tree entry (if it has a tree) to ``value``."""
        owner = v.owners[t]
        if owner >= 0:
            plane = ((owner - observer) % self.num_players) * 4 + v.values[t] - 1
            square = self._square_of_point[t]
            buffer[self._trees_at + plane * self.size * self.size + square] = value

    def _write_leaves(
        self, buffer: array[float], v: Any, observer: int, squares: Any, on: bool
    ) -> None:
        """The top, height, squirrel and stack planes at ``squares``."""
        at = self.layout.offset
        ss = self.size * self.size
        rel = self._rel[observer]
        squirrel_on = {s: seat for seat, s in enumerate(v.squirrels) if s >= 0}
        top, height, stack, squirrel = at["top"], at["height"], at["stack"], at["squirrel"]
        stacks = v.stacks
        one = 1.0 if on else 0.0
        for s in squares:
            leaves = stacks[s]
            seat = squirrel_on.get(s)
            if seat is not None:  # a squirrel tops its square, not the leaf below
                buffer[top + rel[seat] * ss + s] = one
                buffer[squirrel + rel[seat] * ss + s] = one
            if leaves:
                if seat is None:
                    buffer[top + rel[leaves[-1]] * ss + s] = one
                buffer[height + s] = len(leaves) if on else 0.0
                for level, owner in enumerate(leaves):
                    buffer[stack + level * ss + s] = 1 + rel[owner] if on else 0.0

    def _write_slow(self, buffer: array[float], v: Any, observer: int) -> None:
        """Order start, spent and played tiles, summer and winter points (zero before)."""
        at = self.layout.offset
        rel = self._rel[observer]
        buffer[at["order_start"] + rel[v.order[0]]] = 1.0
        used_at, round_at = at["tiles_used"], at["round_tiles"]
        summer, winter = at["summer"], at["winter"]
        for seat in range(self.num_players):
            k = rel[seat]
            used = v.tiles_used[seat]
            for tile in LEAF_TILES:
                if used >> tile & 1:
                    buffer[used_at + k * 8 + tile - 1] = 1.0
            buffer[round_at + k * 9 + v.round_tiles[seat]] = 1.0
            buffer[summer + k] = v.summer[seat]
            buffer[winter + k] = v.winter[seat]

    def _write_turn(self, buffer: array[float], v: Any, observer: int) -> list[int]:
        """Phase, round, winds, turn, the seat to move, the tree and leaf of the turn;
        returns where they went (a patch takes them out again)."""
        index, value = self._turn_entries(v, observer)
        for i, x in zip(index, value, strict=True):
            buffer[i] = x
        return index

    def _turn_entries(self, v: Any, observer: int) -> tuple[list[int], list[float]]:
        """Where the turn fields of ``v`` go in the tensor, and their values."""
        at = self._turn_at
        index = [at[0] + _PHASE_INDEX[v.phase], at[1], at[2], at[3]]
        value = [1.0, v.round, v.turn, v.active]
        if v.tree >= 0:
            index.append(at[4] + self._square_of_point[v.tree])
            value.append(1.0)
        if v.last >= 0:
            index.append(at[5] + v.last)
            value.append(1.0)
        if v.first_wind >= 0:
            index.append(at[6] + v.first_wind)
            value.append(1.0)
            if v.round >= 1:
                index.append(at[7] + (v.first_wind + v.round - 1) % 4)
                value.append(1.0)
        if v.phase is not Phase.OVER:
            p = self.num_players
            index.append(at[8] + (v.order[v.turn % p] - observer) % p)
            value.append(1.0)
        return index, value
