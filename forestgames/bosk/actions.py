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
from collections.abc import Callable, Iterable
from itertools import compress
from operator import ne
from typing import Any, NamedTuple

import numpy as np

from forestgames._codec import CodecBase, Layout, Pieces, one_hots, seat_order
from forestgames.bosk._tables import (
    ALL_TILES_MASK,
    DIRECTIONS,
    LEAF_TILES,
    NUM_TERRAINS,
    ROUNDS,
)
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
_TREE_VALUES = (1, 2, 3, 4)


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
    return layout.seal()


_LOG_LIMIT = 64
"""How many positions back along the chain a seat's board can be brought forward."""
_CHUNK = 4096
"""Bytes per view of a seat's board planes joined into a tensor (one copy of each; memcpy
copies pieces this small with vector moves, counted few by instruction profilers)."""
_ZERO_TO_ONE = bytes([1] + [0] * 255)
"""A ``bytes.translate`` table: 0 becomes 1, anything else 0."""
_USED_PIECES = tuple(
    array("f", [float(used >> tile & 1) for tile in LEAF_TILES]).tobytes()
    for used in range(ALL_TILES_MASK + 1)
)
"""The ``tiles_used`` field of one seat (float32 bytes), by its spent-tile bit mask."""


class _Changes(NamedTuple):
    """What changed from one position of the chain to the next."""

    squares: Iterable[int]  # leaf planes (stack or squirrel)
    points: Iterable[int]  # tree planes


class _Seen:
    """The last position a seat's tensor showed: the position, its serial on the chain, the
    seat's board planes (trees .. stack; ``chunks``: views of them, each small enough to be
    copied quickly) and the slow fields' bytes."""

    __slots__ = ("board", "chunks", "serial", "slow", "state")

    def __init__(self, state: Any, serial: int, board: array[float]) -> None:
        self.state, self.serial, self.board = state, serial, board
        view = memoryview(board).cast("B")
        self.chunks = tuple(view[i : i + _CHUNK] for i in range(0, len(view), _CHUNK))
        self.slow = b""


def _changes(old: tuple[Any, ...], new: tuple[Any, ...], hint: Iterable[int]) -> Iterable[int]:
    """The indices where two equally long tuples differ: checked in full (C-speed compare),
    quickest when only indices in ``hint`` differ."""
    if hint:
        probe = list(old)
        for i in hint:
            probe[i] = new[i]
        if tuple(probe) == new:
            return [i for i in hint if old[i] != new[i]]
    return list(compress(range(len(new)), map(ne, old, new)))


def _byte_changes(old: tuple[int, ...], new: tuple[int, ...]) -> list[int]:
    """The indices where two equally long tuples of ints 0..255 differ (as bytes, in C)."""
    diff = int.from_bytes(bytes(old), "little") ^ int.from_bytes(bytes(new), "little")
    found = []
    while diff:
        i = ((diff & -diff).bit_length() - 1) >> 3
        found.append(i)
        diff &= ~(255 << (i << 3))
    return found


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

    def _new_mask(self, state: Any, seat: int) -> tuple[bytes, np.ndarray]:
        """Spring's mask straight from the board; other masks shared by legal ids (the base)."""
        if state.phase is Phase.SPRING and seat == state.current_player:
            frozen = self._spring_flags(state, seat)
            return frozen, np.frombuffer(frozen, np.int8)
        return super()._new_mask(state, seat)

    def _spring_flags(self, state: Any, player: int) -> bytes:
        """Spring's mask straight from the board: every empty intersection (value 0), in
        the blocks of the values the seat has left."""
        empty = bytes(state.values).translate(_ZERO_TO_ONE)
        left = self.game._values_to_plant(state, player)
        none = self._no_points
        blocks = [empty if value in left else none for value in _TREE_VALUES]
        blocks.append(self._after_plants)
        return b"".join(blocks)

    # ------------------------------------------------------------------ tensors
    #
    # The state's tensor is float32 pieces joined: the board planes (trees .. stack) of the
    # seat, the chosen tree and last leaf planes, the turn's fields and the slow fields
    # (order start .. winter), the last three from bounded tables keyed by what they are
    # made of. Each seat keeps its board planes and patches them: a changed intersection
    # or square gets its whole column (every plane there, one strided slice) from a table
    # of columns. What changed is logged once per position along a chain (the positions
    # tensors were asked for, in order, each compared with the one before: an environment
    # asks for every position in turn), and a seat patches the squares logged since the
    # position it saw last. ``tensor_from_observation`` builds the same tensor with the
    # writers further below, a separate implementation.

    def _init_pieces(self) -> None:
        at, ss = self.layout.offset, self.size * self.size
        p = self.num_players
        self._plane = ss
        self._terrain_at, self._top_at = at["terrain"], at["top"]
        self._board_size = at["chosen_tree"]
        self._previous: list[_Seen | None] = [None] * p
        self._tree_columns = Pieces(self._tree_column)
        self._leaf_columns = Pieces(self._leaf_column)
        self._phase_fields = Pieces(self._phase_field_piece)
        self._turn_fields = Pieces(self._turn_field_piece)
        self._start_pieces = one_hots(p)
        self._used_pieces = _USED_PIECES
        self._seats_from = [tuple((observer + k) % p for k in range(p)) for observer in range(p)]
        self._points_pieces = Pieces(self._points_piece)
        self._played_pieces = one_hots(len(LEAF_TILES) + 1)
        zero = bytes(4 * ss)
        planes = one_hots(ss)
        self._tree_planes = (*map(planes.__getitem__, self._square_of_point), zero)  # [-1]: none
        self._last_planes = (*planes, zero)  # [-1]: none
        n2 = self.n * self.n
        self._no_points = bytes(n2)
        self._after_plants = bytes(self.num_actions - 4 * n2)
        self._head: Any = None  # the chain's last position
        self._serial = 0  # its number
        self._log: dict[int, _Changes] = {}  # by serial: what changed from the position before

    def _new_tensor(self, state: Any, player: int) -> np.ndarray:
        """The observation tensor of seat ``player``, straight from ``state`` (under the
        codec's lock: it uses the codec's shared tables and buffers)."""
        seen = self._previous[player]
        if seen is None:
            board = self._whole_board(state, player)
            seen = self._previous[player] = _Seen(state, self._advance(state), board)
            seen.slow = self._slow_piece(state, player)
        elif seen.state is not state:
            old = seen.state
            if (
                old.tiles_used is not state.tiles_used
                or old.round_tiles is not state.round_tiles
                or old.order is not state.order
                or old.summer is not state.summer
                or old.winter is not state.winter
            ):
                seen.slow = self._slow_piece(state, player)
            if old is self._head:  # the seat saw the position before: the common case
                squares, points = self._step(old, state)
            else:
                squares, points = self._catch_up(seen, state)
            if squares or points:
                self._patch_board(seen.board, state, player, squares, points)
            seen.state, seen.serial = state, self._serial
        pieces = (
            *seen.chunks,
            self._tree_planes[state.tree],
            self._last_planes[state.last],
            self._phase_fields[(state.phase, state.round, state.first_wind)],
            self._turn_fields[(player, state.turn, state.current_player, state.active)],
            seen.slow,
        )
        return np.frombuffer(b"".join(pieces), np.float32)  # read-only

    def _advance(self, state: Any) -> int:
        """Make ``state`` the chain's last position, logging what changed; its serial."""
        head = self._head
        if head is state:
            return self._serial
        if head is None:
            self._head = state
            self._serial += 1
            return self._serial
        self._step(head, state)
        return self._serial

    def _step(self, old: Any, new: Any) -> _Changes:
        """Log what changed from the chain's last position ``old`` to ``new``, now the last."""
        squares: Iterable[int] = ()
        stacks = new.stacks
        if old.stacks is not stacks:
            last = new.last
            if last >= 0:  # a leaf laid this turn: the one on ``last`` is new, checked
                squares = _changes(old.stacks, stacks, (last,))
            else:  # the turn's last leaf, where its path led (checked), or anywhere
                hint = self.game._leaf_candidates(old) if old.phase is Phase.LEAVES else ()
                squares = _changes(old.stacks, stacks, hint)
        if old.squirrels is not new.squirrels and old.squirrels != new.squirrels:
            pairs = zip(old.squirrels, new.squirrels, strict=True)
            moved = {s for pair in pairs if pair[0] != pair[1] for s in pair if s >= 0}
            squares = moved.union(squares)
        points: Iterable[int] = ()
        if old.owners is not new.owners or old.values is not new.values:
            points = self._point_changes(old, new)
        serial = self._serial = self._serial + 1
        changes = self._log[serial] = _Changes(squares, points)
        self._log.pop(serial - _LOG_LIMIT, None)
        self._head = new
        return changes

    def _catch_up(self, seen: _Seen, state: Any) -> tuple[Iterable[int], Iterable[int]]:
        """What changed from ``seen``'s position to ``state``: the union of the steps
        logged since, or (off the chain) the two positions compared."""
        serial = self._advance(state)
        first = seen.serial + 1
        log = self._log
        if serial - first < _LOG_LIMIT - 1 and first in log:
            changes = [log[k] for k in range(first, serial + 1)]
            squares = set().union(*(c.squares for c in changes))
            return squares, set().union(*(c.points for c in changes))
        old = seen.state
        squares = set(_changes(old.stacks, state.stacks, ()))
        squares.update(old.squirrels, state.squirrels)
        squares.discard(-1)
        return squares, self._point_changes(old, state)

    def _point_changes(self, old: Any, new: Any) -> Iterable[int]:
        """The intersections whose tree differs between two positions."""
        if old.owners is new.owners and old.values is new.values:
            return ()
        values = _byte_changes(old.values, new.values)
        owners = _changes(old.owners, new.owners, values)
        return set(values).union(owners) if owners != values else values

    def _whole_board(self, state: Any, observer: int) -> array[float]:
        """The board planes of ``state`` for ``observer``, every column written."""
        board = array("f", bytes(4 * self._board_size))
        board[self._terrain_at : self._top_at] = self._terrain
        self._patch_board(board, state, observer, self._squares, self._points)
        return board

    def _patch_board(
        self, board: array[float], state: Any, observer: int, squares: Iterable[int],
        points: Iterable[int],
    ) -> None:  # fmt: skip
        """Write the tree columns at ``points`` and the leaf columns at ``squares``."""
        ss = self._plane
        if points:
            columns, owners, values = self._tree_columns, state.owners, state.values
            end, square_of = self._terrain_at, self._square_of_point
            for t in points:
                s = square_of[t]
                board[s:end:ss] = columns[(observer, owners[t], values[t])]
        if squares:
            columns, stacks, squirrels = self._leaf_columns, state.stacks, state.squirrels
            top, end = self._top_at, self._board_size
            for s in squares:
                seat = squirrels.index(s) if s in squirrels else -1
                board[top + s : end : ss] = columns[(observer, stacks[s], seat)]

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

    def _phase_field_piece(self, key: tuple[Phase, int, int]) -> bytes:
        """Phase, round, wind and first wind by (phase, round, first wind)."""
        phase, round_, first_wind = key
        wind = (first_wind + round_ - 1) % 4 if first_wind >= 0 and round_ >= 1 else None
        fields = [1.0 if phase is each else 0.0 for each in PHASES]
        fields.append(round_)
        fields += (1.0 if d == wind else 0.0 for d in range(4))
        fields += (1.0 if d == first_wind else 0.0 for d in range(4))
        return array("f", fields).tobytes()

    def _turn_field_piece(self, key: tuple[int, int, int | None, int]) -> bytes:
        """Turn, the seat to move and active leaves by (observer, turn, mover, active)."""
        observer, turn, mover, active = key
        p = self.num_players
        fields = [float(turn)]
        fields += (1.0 if mover is not None and k == (mover - observer) % p else 0.0
                   for k in range(p))  # fmt: skip
        fields.append(active)
        return array("f", fields).tobytes()

    def _slow_piece(self, state: Any, observer: int) -> bytes:
        """Order start, spent and played tiles, summer and winter points."""
        seats = self._seats_from[observer]
        return b"".join(
            (
                self._start_pieces[self._rel[observer][state.order[0]]],
                *map(self._used_pieces.__getitem__, map(state.tiles_used.__getitem__, seats)),
                *map(self._played_pieces.__getitem__, map(state.round_tiles.__getitem__, seats)),
                self._points_pieces[(observer, state.summer, state.winter)],
            )
        )

    def _points_piece(self, key: tuple[int, tuple[int, ...], tuple[int, ...]]) -> bytes:
        """Summer and winter points by (observer, summer, winter)."""
        observer, summer, winter = key
        seats = self._seats_from[observer]
        return array("f", [*(summer[s] for s in seats), *(winter[s] for s in seats)]).tobytes()

    def _tensor_from_observation(self, observation: dict[str, Any]) -> np.ndarray:
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
