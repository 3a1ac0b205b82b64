"""Random playouts of VectorBosk in few numpy calls: whole plantings and autumn turns.

A planting is a random value among the mover's values left and a random empty
intersection (each as likely as in the scalar order's uniform draw over
PlantTree moves, since every value has the same empty intersections).

An autumn turn of a random seat is the tree, the tile, then the squirrel or
every leaf of the path, each a uniformly random legal choice. A leaf path only
moves downwind and never comes back to a square, so no leaf of a path changes
what the path's later leaves may do except through the active leaves left:
the walk reads each candidate square's cost from the board as it was when the
turn began, keeps per game only its position, the leaves left and the squares
laid, and writes the board once when every path has ended.

The walk's arrays hold one column per walking game, sorted by tile (most
leaves first), so that step k works on the prefix of games whose tile still
has a leaf for it. Per step: the three candidate squares of each game's last
square (the tree's two base squares first), their costs for the mover, a 3-bit
mask of the legal ones, and one table look-up that turns the mask and the
game's draw into the chosen column (or "stop").

The choices are drawn by a ``Choices`` object: ``NumpyChoices`` (one numpy
generator; a leaf is chosen by a uniform number 0..5 read through the table,
which is exactly uniform over 1, 2 or 3 legal squares; an empty intersection
by drawing intersections until an empty one comes) or ``StreamChoices`` (one
``random.Random`` per game and seat, drawn exactly as the scalar RandomAgent
draws: ``randrange(number of legal moves)``, the r-th legal move in the scalar
order).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Protocol

import numpy as np

from forestgames.bosk._pystreams import PythonStreams
from forestgames.bosk._tables import LEAF_TILES, SQUIRREL, TREE_VALUES, TREES_PER_VALUE, geometry
from forestgames.core import frozen_array

if TYPE_CHECKING:
    from forestgames.bosk.vector import VectorBosk

__all__ = [
    "Choices",
    "NumpyChoices",
    "StreamChoices",
    "game_index",
    "plant_random",
    "play_random_turns",
]

_STOP = 3  # the column of "no leaf": the path has ended
_SLOTS = len(TREE_VALUES)  # trees per seat, and leaf tiles per seat
_BYTES_TO_BITS = np.uint64(0x0102040810204080)  # 8 bytes of 0/1 -> 8 bits, in the top byte
_TOP_BYTE = np.uint64(56)
_QUAD_TO_BITS = np.uint32(0x01020408)  # 4 bytes of 0/1 -> 4 bits, in the top byte
_QUAD_TOP_BYTE = np.uint32(24)
_TOP_BITS = np.uint32(0x80808080)  # the top bit of each of 4 bytes
_TOP_BITS_TO_MASK = np.uint32((1 << 17) | (1 << 10) | (1 << 3))  # bits 7, 15, 23 -> 24..26
_ROOM_BASE = np.int16(128)
# (127 + a) in each byte of a word, for a = 0..8 active leaves; -1 (clip) reads a = 0
_ROOM = frozen_array([(127 + a) * 0x01010101 for a in range(9)], np.uint32)
_OUT_OF_RANGE = 1 << 40  # a cost cell past the end: read as the sentinel (clip mode)
_SQUIRREL_COST = 127  # the cost of a square under a squirrel, for every seat (as in vector.py)
_LONGEST = max(LEAF_TILES)  # the most leaves of a tile
_MAX_TRIES = 16  # random intersections tried at once per game for an empty one


def _set_bits(mask: int) -> list[int]:
    return [bit for bit in range(_SLOTS) if mask >> bit & 1]


def _nth_bit_table() -> tuple[np.ndarray, np.ndarray]:
    """``NTH[mask * 8 + r]``: the position of the r-th set bit of an 8-bit mask; and
    ``POPCOUNT[mask]``."""
    nth = np.zeros(256 * _SLOTS, dtype=np.intp)
    for mask in range(256):
        bits = _set_bits(mask)
        nth[mask * _SLOTS : mask * _SLOTS + len(bits)] = bits
    popcount = np.array([len(_set_bits(mask)) for mask in range(256)], dtype=np.intp)
    return nth, popcount


NTH_BIT, POPCOUNT = (frozen_array(table, np.intp) for table in _nth_bit_table())


def _leaf_tables() -> tuple[np.ndarray, np.ndarray]:
    """For a 3-bit mask of legal candidates: ``BY_SIXTH[sixth * 8 + mask]``, the column of
    the (sixth * legal // 6)-th legal candidate for sixth 0..5 (uniform for 1, 2 or 3
    legal ones), and ``BY_RANK[mask * 4 + r]``, the r-th legal one; _STOP for mask 0."""
    by_sixth = np.full(6 * 8, _STOP, dtype=np.intp)
    by_rank = np.full(8 * 4, _STOP, dtype=np.intp)
    for mask in range(1, 8):
        bits = _set_bits(mask)
        for sixth in range(6):
            by_sixth[sixth * 8 + mask] = bits[sixth * len(bits) // 6]
        by_rank[mask * 4 : mask * 4 + len(bits)] = bits
    return by_sixth, by_rank


LEAF_BY_SIXTH, LEAF_BY_RANK = (frozen_array(table, np.intp) for table in _leaf_tables())


class _WalkTables:
    """A board size's leaf steps as tables (R, 4) over source rows.

    A source row is wind * (S² + N²) + square s (the leaf just laid on s) or
    wind * (S² + N²) + S² + t (the first leaf, under tree t). Columns 0..2 are
    the candidates in the scalar order; column 3 is "stop". ``cell[row, k]`` is
    candidate k's square times P (its cost cell less the game's and seat's
    offset), out of range where there is no candidate and for "stop" (read as a
    cost no path can pay); ``next[row, k]`` the source row of a leaf laid on it,
    -1 for "stop".
    """

    def __init__(self, size: int, players: int) -> None:
        g = geometry(size)
        s2, n2 = g.squares, g.intersections
        self.span = s2 + n2
        rows = 4 * self.span
        candidates = np.full((rows, _STOP + 1), -1, dtype=np.intp)
        for d, wind in enumerate(("N", "E", "S", "W")):
            for s in range(s2):
                nxt = g.next[wind][s]
                candidates[d * self.span + s, : len(nxt)] = nxt
            for t in range(n2):
                candidates[d * self.span + s2 + t, :2] = g.base[wind][t]
        real = candidates >= 0
        wind_offset = (np.arange(rows) // self.span * self.span)[:, None]
        self.cell = frozen_array(np.where(real, candidates * players, _OUT_OF_RANGE), np.intp)
        self.next = frozen_array(np.where(real, candidates + wind_offset, -1), np.intp)


@functools.cache
def _walk_tables(size: int, players: int) -> _WalkTables:
    return _WalkTables(size, players)


class Choices(Protocol):
    """Where a random playout's choices come from."""

    def below(self, rows: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """A uniform number below each count (each >= 1) for the seats ``rows``
        (game * P + seat, distinct)."""

    def plant(
        self, vec: VectorBosk, games: np.ndarray, rows: np.ndarray, values: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """A random PlantTree of each of ``games`` (ascending; the movers ``rows``) whose
        4-bit masks ``values`` say which values are left: (value 1..4, intersection)."""

    def column(self, rows: np.ndarray, valid: np.ndarray) -> np.ndarray:
        """A random True column of each row of ``valid`` (G, C) (in the scalar order's
        terms: the r-th for r drawn below their number), -1 for a row with none."""

    def start_walk(self, rows: np.ndarray, alive: np.ndarray) -> None:
        """Prepare the leaf choices of the walkers ``rows`` (game * P + seat): step k
        chooses for the first ``alive[k]`` of them."""

    def leaf(self, step: int, masks: np.ndarray) -> np.ndarray:
        """The chosen column (_STOP where no bit is set) of the first ``len(masks)``
        walkers, from each one's 3-bit mask (uint32) of legal candidates."""


class NumpyChoices:
    """Choices drawn from one numpy generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._sixths: np.ndarray = np.zeros(0, dtype=np.uint8)
        self._starts: list[int] = [0]

    def below(self, rows: np.ndarray, counts: np.ndarray) -> np.ndarray:
        return np.asarray((self.rng.random(len(rows)) * counts).astype(np.intp))

    def plant(
        self, vec: VectorBosk, games: np.ndarray, rows: np.ndarray, values: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        return _pick_bits(values, rows, self) + 1, self._empty_spots(vec, games)

    def _empty_spots(self, vec: VectorBosk, games: np.ndarray) -> np.ndarray:
        """A uniformly random empty intersection of each of ``games`` (in spring): the first
        empty one of a few random intersections per game (enough that about one game in
        the batch finds none), then one at a time for the games that found none."""
        n2, g = vec.layout.intersections, len(games)
        owner, base = vec._owner.reshape(-1), games * n2
        filled = int(vec._turn[game_index(games, vec.batch)].max()) / n2  # in spring: trees
        tries = 1 if filled == 0 else min(_MAX_TRIES, 1 + int(np.log(g) / -np.log(filled)))
        guess = self.rng.integers(0, n2, (g, tries))
        empty = owner.take(base[:, None] + guess) < 0
        chosen = np.arange(g) * tries + np.argmax(empty, axis=1)
        spot = guess.reshape(-1).take(chosen)
        todo = np.flatnonzero(~empty.reshape(-1).take(chosen))
        while len(todo):
            guess = self.rng.integers(0, n2, len(todo))
            found = owner.take(base.take(todo) + guess) < 0
            spot[todo[found]] = guess[found]
            todo = todo[~found]
        return np.asarray(spot)

    def column(self, rows: np.ndarray, valid: np.ndarray) -> np.ndarray:
        """The True column of greatest random key: uniform over each row's True ones."""
        keys = np.where(valid, self.rng.random(valid.shape), -1.0)
        column = np.argmax(keys, axis=1)
        return np.where(keys.reshape(-1).take(np.arange(len(keys)) * keys.shape[1] + column) >= 0,
                        column, -1)  # fmt: skip

    def start_walk(self, rows: np.ndarray, alive: np.ndarray) -> None:
        self._sixths = self.rng.integers(0, 6, int(alive.sum()), dtype=np.uint8)
        self._sixths <<= 3
        self._starts = np.concatenate([[0], np.cumsum(alive)]).tolist()

    def leaf(self, step: int, masks: np.ndarray) -> np.ndarray:
        masks += self._sixths[self._starts[step] : self._starts[step + 1]]
        return np.asarray(LEAF_BY_SIXTH.take(masks))


class StreamChoices:
    """Choices drawn as the scalar RandomAgent draws them, one stream per game and seat."""

    def __init__(self, streams: PythonStreams) -> None:
        self.streams = streams
        self._rows = np.zeros(0, dtype=np.intp)

    def below(self, rows: np.ndarray, counts: np.ndarray) -> np.ndarray:
        return np.asarray(self.streams.randbelow(rows, counts))

    def plant(
        self, vec: VectorBosk, games: np.ndarray, rows: np.ndarray, values: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The r-th PlantTree of the scalar order (values outer, intersections inner)."""
        empty = vec._owner[game_index(games, vec.batch)] < 0
        spots = np.count_nonzero(empty, axis=1)
        pick = self.below(rows, POPCOUNT.take(values) * spots)
        value = NTH_BIT.take(values * _SLOTS + pick // spots) + 1
        running = np.cumsum(empty, axis=1, dtype=np.int16)
        spot = np.count_nonzero(running <= (pick % spots)[:, None], axis=1)
        return value, spot

    def column(self, rows: np.ndarray, valid: np.ndarray) -> np.ndarray:
        counts = np.count_nonzero(valid, axis=1)
        column = np.full(len(valid), -1, dtype=np.intp)
        can = np.flatnonzero(counts)
        if len(can):
            rank = self.below(rows[can], counts[can])
            running = np.cumsum(valid[can], axis=1)
            column[can] = np.count_nonzero(running <= rank[:, None], axis=1)
        return column

    def start_walk(self, rows: np.ndarray, alive: np.ndarray) -> None:
        self._rows = rows

    def leaf(self, step: int, masks: np.ndarray) -> np.ndarray:
        counts = POPCOUNT.take(masks)
        rank = np.zeros(len(masks), dtype=np.intp)
        deciding = np.flatnonzero(counts)
        if len(deciding):
            rank[deciding] = self.streams.randbelow(self._rows[deciding], counts[deciding])
        return np.asarray(LEAF_BY_RANK.take(masks.astype(np.intp) * 4 + rank))


def _byte_masks(flags: np.ndarray) -> np.ndarray:
    """(G,) intp: the 8 bools of each row of ``flags`` (G, 8) as an 8-bit mask."""
    words = np.ascontiguousarray(flags).view(np.uint64)[:, 0]
    return np.asarray(((words * _BYTES_TO_BITS) >> _TOP_BYTE).astype(np.intp))


def _quad_masks(flags: np.ndarray) -> np.ndarray:
    """(G,) intp: the 4 bools of each row of ``flags`` (G, 4) as a 4-bit mask."""
    words = np.ascontiguousarray(flags).view(np.uint32)[:, 0]
    return np.asarray(((words * _QUAD_TO_BITS) >> _QUAD_TOP_BYTE).astype(np.intp))


def plant_random(vec: VectorBosk, games: np.ndarray, choices: Choices, moves: np.ndarray) -> None:
    """A uniformly random PlantTree in each of ``games`` (all in spring, ascending)."""
    at = game_index(games, vec.batch)
    p = vec.num_players
    seats = vec._mover[at]
    rows = games * p + seats
    planted = vec._planted.reshape(-1, 5).take(rows, axis=0)
    value, spot = choices.plant(vec, games, rows, _quad_masks(planted[:, 1:] < TREES_PER_VALUE))
    flat = games * vec.layout.intersections + spot
    vec._owner.reshape(-1)[flat] = seats
    vec._value.reshape(-1)[flat] = value
    rows *= 5
    rows += value
    vec._planted.reshape(-1)[rows] += 1
    vec._turn[at] += 1
    vec._sync(at)
    moves[at] += 1
    done = vec._turn[at] == 8 * p
    if done.any():
        vec._summer_of(games[done])


def _pick_bits(masks: np.ndarray, rows: np.ndarray, choices: Choices) -> np.ndarray:
    """A uniformly random set bit of each 8-bit mask (each has one): the r-th for r drawn
    below the mask's popcount."""
    rank = choices.below(rows, POPCOUNT.take(masks))
    return np.asarray(NTH_BIT.take(masks * _SLOTS + rank))


def _choose_trees(vec: VectorBosk, games: np.ndarray, rows: np.ndarray, choices: Choices) -> None:
    """ChooseTree: a random tree of the mover allowed this round (intersections ascending),
    taken off the mover's list at once."""
    trees = vec._trees.reshape(-1, _SLOTS).take(rows, axis=0)
    value = vec._tree_values.reshape(-1, _SLOTS).take(rows, axis=0)
    rnd = vec._round[game_index(games, vec.batch)][:, None]
    allowed = (value == rnd) | (rnd > 4)
    allowed &= trees >= 0
    slot = _pick_bits(_byte_masks(allowed), rows, choices)
    slot += rows * _SLOTS
    vec._tree[game_index(games, vec.batch)] = vec._trees.reshape(-1).take(slot)
    vec._trees.reshape(-1)[slot] = -1


def _choose_tiles(rows: np.ndarray, vec: VectorBosk, choices: Choices) -> np.ndarray:
    """ChooseTile: a random unspent tile of the mover (1 = squirrel first); spent at once."""
    used = vec._tiles_used.reshape(-1).take(rows)
    unspent = (~used.astype(np.intp) >> 1) & 0xFF  # bit k: tile k + 1 is unspent
    tile = _pick_bits(unspent, rows, choices) + 1
    vec._tiles_used.reshape(-1)[rows] = used | (1 << tile).astype(np.int16)
    vec._round_tile.reshape(-1)[rows] = tile
    return tile


def _place_squirrels(
    vec: VectorBosk, games: np.ndarray, rows: np.ndarray, choices: Choices, moves: np.ndarray
) -> None:
    """PlaceSquirrel: a random square the squirrel may stop on, if it has one."""
    squares = vec._squirrel_squares(games)
    column = choices.column(rows, squares >= 0)
    can = np.flatnonzero(column >= 0)
    if not len(can):
        return
    games, rows = games[can], rows[can]
    square = squares.reshape(-1).take(can * squares.shape[1] + column[can])
    seat = (rows % vec.num_players).astype(np.int8)
    flat = games * vec.layout.squares + square
    vec._squirrel_on.reshape(-1)[flat] = seat
    flat *= vec.num_players
    for seat_cell in range(vec.num_players):
        vec._cost.reshape(-1)[flat + seat_cell] = _SQUIRREL_COST
    moves[games] += 1


def play_random_turns(
    vec: VectorBosk, games: np.ndarray, choices: Choices, moves: np.ndarray
) -> None:
    """One whole autumn turn of each of ``games`` (all choosing a tree, ascending), every
    choice a uniformly random legal move; ``moves`` counts the moves made per game."""
    seats = vec._mover[games]
    rows = games * vec.num_players + seats
    _choose_trees(vec, games, rows, choices)
    tile = _choose_tiles(rows, vec, choices)
    moves[game_index(games, vec.batch)] += 2
    squirrel = tile == SQUIRREL
    leaves = ~squirrel
    if squirrel.any():
        _place_squirrels(vec, games[squirrel], rows[squirrel], choices, moves)
    if leaves.any():
        _walk(vec, games[leaves], seats[leaves], tile[leaves], choices, moves)
    vec._pass_turn(games)


def _walk(
    vec: VectorBosk,
    games: np.ndarray,
    seats: np.ndarray,
    tile: np.ndarray,
    choices: Choices,
    moves: np.ndarray,
) -> None:
    """Lay every leaf path of ``games`` (seat ``seats`` with ``tile`` leaves each), then put
    the leaves on the board."""
    t = _walk_tables(vec.layout.size, vec.num_players)
    order = np.argsort((_LONGEST - tile).astype(np.uint8), kind="stable")  # a radix sort
    games, seats, tile = games[order], seats[order], tile[order]
    g = len(games)
    p, s2 = vec.num_players, vec.layout.squares
    longest = int(tile[0])
    alive = np.searchsorted(-tile, -np.arange(longest), side="left")  # tile > k
    wind = vec._blow[games] * t.span
    source = wind + s2
    source += vec._tree[games]
    offset = games * (s2 * p) + seats
    active = tile.astype(np.int16)  # active leaves: 0 (or below) once the path ended
    width = 1 << (g - 1).bit_length()  # a power of two: a leaf's walker is its index's low bits
    path = np.full((longest, width), -1, dtype=np.intp)  # source row of each leaf laid
    costs = vec._cost_cells
    cell_offset = np.repeat(offset, _STOP + 1).reshape(g, _STOP + 1)
    quads = np.arange(g) * (_STOP + 1)
    choices.start_walk(games * p + seats, alive)
    for k in range(longest):
        n = int(alive[k])
        rows = source[:n]
        cells = t.cell.take(rows, axis=0, mode="clip")
        cells += cell_offset[:n]
        # per byte (candidate): 127 + active - cost, at least 0 (no borrow); its top bit is
        # set where cost < active, that is where the leaf may go
        room = _ROOM.take(active[:n], mode="clip")
        room -= costs.take(cells, mode="clip").view(np.uint32)[:, 0]
        masks = room & _TOP_BITS
        masks *= _TOP_BITS_TO_MASK
        masks >>= _QUAD_TOP_BYTE
        chosen = choices.leaf(k, masks)
        chosen += quads[:n]
        source = path[k]
        t.next.take(rows, axis=0, mode="clip").take(chosen, out=source[:n], mode="clip")
        np.subtract(room.view(np.uint8).take(chosen), _ROOM_BASE, out=active[:n])
    leaf = np.flatnonzero(path.reshape(-1) >= 0)
    walker = leaf & (width - 1)
    squares = path.reshape(-1).take(leaf)
    squares += (games * s2 - wind).take(walker)
    _lay_leaves(vec, squares, seats.take(walker))
    moves[games] += np.bincount(walker, minlength=g)


def _lay_leaves(vec: VectorBosk, squares: np.ndarray, seats: np.ndarray) -> None:
    """Put a leaf of ``seats`` on each of ``squares`` (game * S² + square, distinct)."""
    p = vec.num_players
    height = vec._height.reshape(-1).take(squares)
    vec._stack.reshape(-1)[squares * vec._height_limit + height] = seats
    height += 1
    vec._height.reshape(-1)[squares] = height
    vec._leaf_top.reshape(-1)[squares] = seats
    costs = vec._cost.reshape(-1)
    squares *= p  # the square's cost cells: every seat pays its height, its owner nothing
    for seat in range(p):
        costs[squares + seat] = height
    squares += seats
    costs[squares] = 0


def game_index(games: np.ndarray, batch: int) -> np.ndarray | slice:
    """``games`` (ascending, distinct) as an index: a slice when it is the whole batch."""
    return slice(None) if len(games) == batch else games
