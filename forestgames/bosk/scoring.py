"""Bosk's scoring kernels: pure numpy over any leading batch axes.

The game itself scores with these functions (one source of truth), and users
can score millions of boards at once::

    owner = np.full((100_000, 11, 11), -1); value = np.zeros_like(owner)
    summer_scores(owner, value, num_players=4)     # -> (100_000, 4)

Both seasons use one ranking rule, :func:`placement_points`: per line (summer)
or terrain type (winter) a seat with a zero total is not placed; a single
leader alone scores ``sole``; a single leader scores ``first`` and a single
runner-up ``second``; runners-up tied share nothing but ``tied_second`` each;
leaders tied score ``tied_first`` each and nobody scores second.

Inputs are checked (shapes, integer dtypes, ranges) and a bad one raises
``StateError`` naming the problem; a bad ``num_players`` raises ``ConfigError``.
When numba is installed (the ``fast`` extra) large batches run through the
compiled kernels of ``forestgames.bosk._numba``, with identical results.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from forestgames.bosk._tables import NUM_TERRAINS, SUMMER_POINTS, WINTER_POINTS
from forestgames.core import (
    ConfigError,
    IntLike,
    StateError,
    as_bool,
    as_int,
    check_seat,
    excerpt,
    is_list_like,
    is_row,
)

__all__ = [
    "compiled_kernels",
    "placement_points",
    "plain_board_scores",
    "plain_scores",
    "summer_scores",
    "winter_scores",
]

IntArray = npt.NDArray[np.integer[Any]]

MAX_TREE_VALUE = 4
BLOCK = 2048
"""Boards scored per numpy pass: the block's temporaries stay in the core's cache."""
BLAS_THREADING_WORK = 4 * 65536
"""Multiply-adds from which OpenBLAS (numpy's wheels' BLAS) runs a matrix product on a
thread per core (its GEMM_MULTITHREAD_THRESHOLD, 4, times 65536). The scoring products are
thin, summer's (2N, N*N) and winter's (8, S*S) by the boards' (N*N or S*S, boards), and
threads cost them more than they save (they spin while waiting): products are cut into
slices of boards below this."""
COMPILED_MIN_BOARDS = 1024
"""Smaller calls stay on the numpy path (the compiled call's fixed cost is not worth it)."""
TERRAIN_CACHE_SIZE = 64
"""Terrain maps whose incidence matrices the numpy path keeps (2.4 KB each on 8x8)."""


# --------------------------------------------------------------------------- the ranking rule


def _check_points(name: str, points: Any) -> None:
    """ConfigError unless ``points`` is an int that fits the kernels' 32 bits."""
    if isinstance(points, bool) or not isinstance(points, int | np.integer):
        raise ConfigError(f"placement_points: {name} must be an int, not {excerpt(points)}")
    if not -(2**31) <= points < 2**31:
        raise ConfigError(f"placement_points: {name} must fit in 32 bits, not {excerpt(points)}")


def placement_points(
    totals: npt.ArrayLike,
    first: int,
    second: int,
    sole: int,
    tied_first: int,
    tied_second: int,
) -> IntArray:
    """Points per seat from ``totals`` (..., K, P): K contests, P seats -> (..., P).

    Each of the K contests (a line, a terrain type) is ranked on its own and
    the points are summed over K. Totals of 0 mean "not in the contest";
    totals must be non-negative integers.
    """
    totals = _check_totals(totals)
    for name, points in zip(
        ("first", "second", "sole", "tied_first", "tied_second"),
        (first, second, sole, tied_first, tied_second),
        strict=True,
    ):
        _check_points(name, points)
    seats = [totals[..., p].astype(np.int64) for p in range(totals.shape[-1])]
    best = functools.reduce(np.maximum, seats)
    is_first = [(t == best) & (t > 0) for t in seats]
    n_first = functools.reduce(np.add, [f.astype(np.int8) for f in is_first])
    rest = [np.where(f, 0, t) for f, t in zip(is_first, seats, strict=True)]
    runner = functools.reduce(np.maximum, rest)
    is_second = [(r == runner) & (r > 0) for r in rest]
    n_second = functools.reduce(np.add, [s.astype(np.int8) for s in is_second])
    single = n_first == 1
    lead = np.where(single, np.where(n_second == 0, sole, first), tied_first).astype(np.int64)
    runner_up = np.where(single, np.where(n_second == 1, second, tied_second), 0).astype(np.int64)
    points_of = [
        (f * lead + s * runner_up).sum(axis=-1) for f, s in zip(is_first, is_second, strict=True)
    ]
    return np.stack(points_of, axis=-1)


# --------------------------------------------------------------------------- checks


def _check_totals(totals: Any) -> np.ndarray:
    """``totals`` as an integer array (..., K, P) of values 0 .. 2**63 - 1; StateError if not."""
    array = _int_array(totals, "totals")
    if array.ndim < 2 or array.shape[-1] == 0:
        raise StateError(f"totals must have shape (..., K, P) with P >= 1, got {array.shape}")
    if array.size and array.min() < 0:
        raise StateError(f"totals must be >= 0, found {array.min()}")
    wide_unsigned = array.dtype.kind == "u" and array.dtype.itemsize == 8  # either byte order
    if wide_unsigned and array.size and array.max() >= 2**63:  # int64 would wrap
        raise StateError(f"totals must be below 2**63, found {array.max()}")
    return array


_SEATS_BY_COUNT = range(2, 5)


def _check_players(num_players: Any) -> int:
    if isinstance(num_players, bool) or not isinstance(num_players, int | np.integer):
        raise ConfigError(f"num_players must be an int 2..4, not {_excerpt(num_players)}")
    if num_players not in _SEATS_BY_COUNT:
        raise ConfigError(f"Bosk is played by 2 to 4 players, not num_players={num_players}")
    return int(num_players)


def _excerpt(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _as_array(value: Any, name: str) -> np.ndarray:
    """``value`` as a plain numpy array (not copied if it is one; a subclass's, such as
    np.matrix, is read as its plain data); StateError if it cannot be, or if it is a masked
    array (its mask would be lost: masked cells scored as what they hold)."""
    if type(value) is np.ndarray:
        return value
    if isinstance(value, np.ma.MaskedArray):
        raise StateError(
            f"{name} must be a plain array, not a masked array (its mask would be lost)"
        )
    try:
        return np.asarray(value)
    except (ValueError, TypeError, OverflowError) as error:
        raise StateError(f"{name} must be an integer array: {error}") from None


def _require_ints(array: np.ndarray, name: str) -> None:
    if array.dtype.kind not in "iu":
        raise StateError(f"{name} must hold integers, not dtype {array.dtype}")


def _int_array(value: Any, name: str) -> np.ndarray:
    """``value`` as an integer numpy array; StateError otherwise."""
    array = _as_array(value, name)
    _require_ints(array, name)
    return array


def _first_bad(name: str, array: np.ndarray, bad: np.ndarray) -> str:
    """``name[i, j, ...] = x`` for the first True of ``bad`` (an index into ``array``): found
    by ``argmax``, not by listing every bad entry's index (``argwhere``: gigabytes for a large
    batch wrong throughout)."""
    index = tuple(int(i) for i in np.unravel_index(int(np.argmax(bad)), bad.shape))
    return f"{name}[{', '.join(map(str, index))}] = {array[index]}"


def _check_range(array: np.ndarray, name: str, low: int, high: int, meaning: str) -> None:
    """StateError naming the first entry of ``array`` outside ``low..high``."""
    bad = (array < low) | (array > high)
    if bad.any():
        raise StateError(f"{_first_bad(name, array, bad)}: {meaning} must be {low}..{high}")


def _explain_trees(owner: np.ndarray, value: np.ndarray, players: int) -> None:
    """Raise the StateError that says what is wrong with ``owner``/``value`` (found bad)."""
    _check_range(owner, "owner", -1, players - 1, f"seats of a {players}-player game")
    _check_range(value, "value", 0, MAX_TREE_VALUE, "tree values")
    empty = owner < 0
    valued = value != 0
    if (empty & valued).any():
        where = _first_bad("value", value, empty & valued)
        raise StateError(f"{where} but owner there is -1: no tree, so the value must be 0")
    where = _first_bad("value", value, ~empty & ~valued)
    raise StateError(f"{where} but owner there holds a tree: a tree's value is 1..4")


def _explain_tops(top: np.ndarray, players: int) -> None:
    """Raise the StateError that says what is wrong with ``top`` (found bad)."""
    _check_range(top, "top", -1, players - 1, f"seats of a {players}-player game")
    raise AssertionError("top was found bad but is not")  # pragma: no cover


def _check_trees(owner: Any, value: Any) -> tuple[np.ndarray, np.ndarray]:
    """``owner`` and ``value`` as integer arrays of one shape (..., N, N); StateError if not."""
    owner = _as_array(owner, "owner")
    value = _as_array(value, "value")
    if owner.ndim < 2 or owner.shape[-1] != owner.shape[-2] or owner.shape[-1] == 0:
        raise StateError(f"owner must have shape (..., N, N) with N >= 1, got {owner.shape}")
    if value.shape != owner.shape:
        raise StateError(f"value must have owner's shape {owner.shape}, got {value.shape}")
    _require_ints(owner, "owner")
    _require_ints(value, "value")
    return owner, value


def check_terrain(terrain: Any) -> np.ndarray:
    """``terrain`` as an (S, S) integer array of terrain ids 0..7; StateError if it is not."""
    grid = _as_array(terrain, "terrain")
    if grid.ndim != 2 or grid.shape[0] != grid.shape[1] or grid.shape[0] == 0:
        raise StateError(f"terrain must have shape (S, S) with S >= 1, got {grid.shape}")
    _require_ints(grid, "terrain")
    _check_range(grid, "terrain", 0, NUM_TERRAINS - 1, "terrain ids")
    return grid


def _check_tops(top: Any, terrain: Any) -> tuple[np.ndarray, np.ndarray]:
    """``top`` (..., S, S) and ``terrain`` (S, S) of ids 0..7 checked; StateError if not."""
    terrain = check_terrain(terrain)
    top = _as_array(top, "top")
    if top.ndim < 2 or top.shape[-2:] != terrain.shape:
        raise StateError(
            f"top must have shape (..., S, S) matching terrain {terrain.shape}, got {top.shape}"
        )
    _require_ints(top, "top")
    return top, terrain


# --------------------------------------------------------------------------- packing
#
# How the numpy path goes fast, per block of boards. Each cell's amount is
# packed into the bit field of its seat (``bits`` wide), as a float whose
# value is ``amount * 2**(bits * seat)``, built from exponent bits (no
# lookups). One matrix product of the (contest, cell) 0/1 incidence by the
# packed cells then sums every seat's amounts per contest at once; the sums
# are integers below 2**mantissa, so float32 (or float64 for wide fields) is
# exact. The product comes out contests-major, (K, boards), so the ranking
# below works on contiguous per-seat planes of small unsigned ints with a few
# dozen whole-array operations, and the sum over contests adds whole rows.
# Field widths come from the shape (the largest total a valid board can
# reach), so every valid board fits: there is no slow path per board.


class _Packing:
    """Field width and float type packing P seats' totals of at most ``largest``."""

    def __init__(self, largest: int, players: int) -> None:
        self.bits = bits = max(1, int(largest).bit_length())
        self.players = players
        self.fits_float32 = bits * players <= 24
        self.fits = bits * players <= 53  # float64's mantissa
        self.float: Any = np.float32 if self.fits_float32 else np.float64
        self.int: Any = np.int32 if self.fits_float32 else np.int64
        self.mantissa = 23 if self.fits_float32 else 52
        self.bias = 127 if self.fits_float32 else 1023
        self.plane: Any = np.uint8 if largest < 256 else np.uint16 if largest < 65536 else np.uint32
        self.garbage = float(2.0 ** (bits * players))  # sums at or above: a cell off the seats


def _pow2_of_seats(seats: np.ndarray, packing: _Packing, empty_is_zero: bool) -> np.ndarray:
    """``2**(bits * seat)`` per cell of int8 ``seats`` as packing.float, exactly.

    Built from exponent bits in small unsigned ints (no lookups). Seat -1
    (read as 7 through ``& 7``) gives ``2**(7 * bits)``, above every seat's
    field, so an amount there shows in the sums; with ``empty_is_zero`` it
    gives 0.0 instead.
    """
    small: Any = np.uint8 if packing.fits_float32 else np.uint16  # holds bias + 7 * bits
    exponent: np.ndarray = (seats.view(np.uint8) & np.uint8(7)).astype(small, copy=False)
    exponent *= small(packing.bits)
    exponent += small(packing.bias)
    if empty_is_zero:
        keep = ~(seats >> 7)  # 0 at seat -1, all ones elsewhere
        exponent &= keep.view(np.uint8) if small is np.uint8 else keep.astype(small)
    bits = exponent.astype(packing.int)
    bits <<= packing.mantissa
    return bits.view(packing.float)


def _planes(packed: np.ndarray, packing: _Packing) -> list[np.ndarray]:
    """Each seat's totals (K, B) as packing.plane, out of the packed integer sums."""
    plane = packing.plane
    mask = plane((1 << packing.bits) - 1)
    wider = packing.bits < 8 * np.dtype(plane).itemsize  # the cast alone does not mask
    planes = []
    for seat in range(packing.players):
        field = (packed >> (packing.bits * seat) if seat else packed).astype(plane)
        if wider and seat < packing.players - 1:  # the top field has nothing above it
            field &= mask
        planes.append(field)
    return planes


# Sorting networks (descending) for 2..4 values: the comparators (i, j).
_NETWORKS: dict[int, tuple[tuple[int, int], ...]] = {
    1: (),
    2: ((0, 1),),
    3: ((0, 1), (1, 2), (0, 1)),
    4: ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)),
}


def _top_three(planes: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The largest, second and third largest total per contest (with repeats)."""
    values = list(planes)
    for i, j in _NETWORKS[len(values)]:
        values[i], values[j] = np.maximum(values[i], values[j]), np.minimum(values[i], values[j])
    zero = np.zeros_like(values[0])
    second = values[1] if len(values) > 1 else zero
    third = values[2] if len(values) > 2 else None
    return values[0], second, third


def _as_byte(flags: np.ndarray) -> np.ndarray:
    return flags.view(np.uint8)


def _byte(points: int) -> np.uint8:
    """``points`` modulo 256, for uint8 arithmetic that wraps back to the true sum."""
    return np.uint8(points % 256)


def _rank(planes: list[np.ndarray], points: Mapping[str, int], out: np.ndarray) -> None:
    """Add each seat's points, summed over the K contests, to ``out`` (B, P) in place.

    Branch-free per contest, in uint8 arithmetic modulo 256 (the points and
    their sums per contest are small non-negative ints, so the wrap is exact).
    """
    best, runner, third = _top_three(planes)
    lead_alone = _as_byte(runner < best)  # a single leader (so best > 0)
    scored = _as_byte(best > 0)
    seconded = lead_alone & _as_byte(runner > 0)
    lead = scored * _byte(points["tied_first"])
    lead += lead_alone * _byte(points["sole"] - points["tied_first"])
    lead += seconded * _byte(points["first"] - points["sole"])
    runner_up = seconded * _byte(points["second"])
    if third is not None:
        tied = seconded & _as_byte(third == runner)
        runner_up += tied * _byte(points["tied_second"] - points["second"])
    most = planes[0].shape[0] * max(points.values())
    total = np.uint8 if most < 256 else np.uint16 if most < 65536 else np.uint32
    for seat, plane in enumerate(planes):
        mine = _as_byte(plane == best) * lead
        mine += _as_byte(plane == runner) * runner_up
        out[:, seat] += np.add.reduce(mine, axis=0, dtype=total)


def _contest_points(
    packed: np.ndarray, packing: _Packing, points: Mapping[str, int], out: np.ndarray
) -> None:
    """Rank the packed contest sums (K, B) (floats holding exact ints) into ``out``."""
    _rank(_planes(packed.astype(packing.int), packing), points, out)


# --------------------------------------------------------------------------- incidence


def _product(incidence: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """``incidence @ cells.T``, in slices of boards small enough for BLAS to run each on the
    calling thread (see :data:`BLAS_THREADING_WORK`)."""
    rows, inner = incidence.shape
    boards = cells.shape[0]
    step = max(1, (BLAS_THREADING_WORK - 1) // (rows * inner))
    out = np.empty((rows, boards), incidence.dtype)
    for start in range(0, boards, step):
        np.matmul(incidence, cells[start : start + step].T, out=out[:, start : start + step])
    return out


@functools.cache
def _line_incidence(n: int, dtype: Any) -> np.ndarray:
    """(2n, n*n) 0/1: row i of intersections (first n contests), then column j."""
    cells = np.arange(n * n)
    matrix: np.ndarray = np.zeros((2 * n, n * n), dtype=dtype)
    matrix[cells // n, cells] = 1
    matrix[n + cells % n, cells] = 1
    matrix.flags.writeable = False
    return matrix


@functools.lru_cache(maxsize=TERRAIN_CACHE_SIZE)
def _terrain_incidence(terrain_bytes: bytes, dtype: Any) -> np.ndarray:
    """(8, S*S) 0/1: terrain type k (rows) holds square s (columns); the most recent
    maps' (a run drawing a new map per game must not keep them all)."""
    terrain = np.frombuffer(terrain_bytes, dtype=np.int8)
    matrix: np.ndarray = (np.arange(NUM_TERRAINS)[:, None] == terrain[None, :]).astype(dtype)
    matrix.flags.writeable = False
    return matrix


# --------------------------------------------------------------------------- summer


def _summer_block(
    owner: np.ndarray, value: np.ndarray, n: int, packing: _Packing, out: np.ndarray
) -> bool:
    """Score one block of boards (M, N*N) into ``out``; False if the block is invalid."""
    players = packing.players
    if owner.min() < -1 or owner.max() >= players or value.min() < 0:
        return False
    if value.max() > MAX_TREE_VALUE:
        return False
    if np.count_nonzero(value) != np.count_nonzero(owner >= 0):
        return False
    owner8 = owner.astype(np.int8, copy=False)
    cells = value.astype(packing.float)
    cells *= _pow2_of_seats(owner8, packing, empty_is_zero=False)
    sums = _product(_line_incidence(n, packing.float), cells)  # (2N, M)
    if sums.size and sums.max() >= packing.garbage:  # a value where no tree stands
        return False
    _contest_points(sums, packing, SUMMER_POINTS, out)
    return True


def summer_scores(owner: npt.ArrayLike, value: npt.ArrayLike, num_players: IntLike) -> IntArray:
    """Summer points: every row and column of intersections, by tree values.

    ``owner`` (..., N, N) holds the seat of each intersection's tree or -1,
    ``value`` the tree values 1..4, and 0 exactly where there is no tree.
    Returns (..., num_players) int64. int8 inputs are the fastest. StateError
    if an array is malformed, ConfigError if ``num_players`` is not 2..4.
    """
    players = _check_players(num_players)
    owner, value = _check_trees(owner, value)
    n, lead = owner.shape[-1], owner.shape[:-2]
    owner2, value2 = owner.reshape(-1, n * n), value.reshape(-1, n * n)
    out = np.zeros((owner2.shape[0], players), dtype=np.int64)
    if not _summer_into(owner2, value2, n, out):
        _explain_trees(owner, value, players)
    return out.reshape(*lead, players)


def _summer_into(owner: np.ndarray, value: np.ndarray, n: int, out: np.ndarray) -> bool:
    """Score boards (M, N*N) into ``out`` (M, P); False if a cell is out of range."""
    boards, players = out.shape
    compiled = _compiled() if boards >= COMPILED_MIN_BOARDS else None
    if compiled is not None and MAX_TREE_VALUE * n < 256:
        return compiled.summer(owner, value, n, players, out)
    packing = _Packing(MAX_TREE_VALUE * n, players)
    if not packing.fits:
        raise StateError(f"boards of {n}x{n} intersections are too large to score")
    for start in range(0, boards, BLOCK):
        block = slice(start, start + BLOCK)
        if not _summer_block(owner[block], value[block], n, packing, out[block]):
            return False
    return True


# --------------------------------------------------------------------------- winter


def _winter_block(
    top: np.ndarray, incidence: np.ndarray, packing: _Packing, out: np.ndarray
) -> bool:
    """Score one block of tops (M, S*S) into ``out``; False if a seat is out of range."""
    if top.min() < -1 or top.max() >= packing.players:
        return False
    cells = _pow2_of_seats(top.astype(np.int8, copy=False), packing, empty_is_zero=True)
    _contest_points(_product(incidence, cells), packing, WINTER_POINTS, out)
    return True


def winter_scores(top: npt.ArrayLike, terrain: npt.ArrayLike, num_players: IntLike) -> IntArray:
    """Winter points: squares controlled per terrain type.

    ``top`` (..., S, S) holds the seat whose leaf or squirrel tops each square,
    or -1; ``terrain`` (S, S) the terrain ids 0..7. Returns (..., num_players)
    int64. StateError if an array is malformed, ConfigError for ``num_players``.
    """
    players = _check_players(num_players)
    top, terrain = _check_tops(top, terrain)
    top2 = top.reshape(-1, terrain.size)
    out = np.zeros((top2.shape[0], players), dtype=np.int64)
    if not _winter_into(top2, terrain.reshape(-1).astype(np.int8), out):
        _explain_tops(top, players)
    return out.reshape(*top.shape[:-2], players)


def _winter_into(top: np.ndarray, kinds: np.ndarray, out: np.ndarray) -> bool:
    """Score tops (M, S*S) with terrain ids ``kinds`` into ``out`` (M, P); False if bad."""
    boards, players = out.shape
    largest = int(np.bincount(kinds, minlength=NUM_TERRAINS).max())
    compiled = _compiled() if boards >= COMPILED_MIN_BOARDS else None
    if compiled is not None and largest < 256:
        return compiled.winter(top, kinds, players, out)
    packing = _Packing(largest, players)
    if not packing.fits:
        raise StateError(f"a terrain type of {largest} squares is too large to score")
    incidence = _terrain_incidence(kinds.tobytes(), packing.float)
    for start in range(0, boards, BLOCK):
        block = slice(start, start + BLOCK)
        if not _winter_block(top[block], incidence, packing, out[block]):
            return False
    return True


# --------------------------------------------------------------------------- compiled path


class _Compiled:
    """The numba kernels, wrapped to take the checked grids (any integer dtype)."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def summer(
        self, owner: np.ndarray, value: np.ndarray, n: int, players: int, out: np.ndarray
    ) -> bool:
        owner8, value8 = _narrow(owner, -1, players - 1), _narrow(value, 0, MAX_TREE_VALUE)
        if owner8 is None or value8 is None:
            return False
        return bool(self.module.summer(owner8, value8, n, players, out))

    def winter(self, top: np.ndarray, kinds: np.ndarray, players: int, out: np.ndarray) -> bool:
        top8 = _narrow(top, -1, players - 1)
        if top8 is None:
            return False
        return bool(self.module.winter(top8, kinds, players, out))


def _narrow(array: np.ndarray, low: int, high: int) -> np.ndarray | None:
    """``array`` as C-contiguous int8 (None if a value is outside ``low..high``)."""
    if array.dtype != np.int8:
        if array.size and (array.min() < low or array.max() > high):
            return None
        array = array.astype(np.int8)
    return np.ascontiguousarray(array)


@functools.cache
def _load_compiled() -> _Compiled | None:
    try:
        from forestgames.bosk import _numba
    except ImportError:
        return None
    return _Compiled(_numba)


_USE_COMPILED = [True]


def _compiled() -> _Compiled | None:
    return _load_compiled() if _USE_COMPILED[0] else None


def compiled_kernels(enabled: bool | None = None) -> bool:
    """Whether large batches use the compiled (numba) kernels; ``enabled`` switches.

    True when numba imports (install the ``fast`` extra) and the compiled path
    has not been switched off. Both paths give identical results. ConfigError if
    ``enabled`` is neither a bool nor None (bool("off") would switch the path on).
    """
    if enabled is not None:
        _USE_COMPILED[0] = as_bool(enabled, "compiled_kernels: enabled")
    return _compiled() is not None


# --------------------------------------------------------------------------- plain reference


# --------------------------------------------------------------------------- one board


@functools.cache
def _board_keys(n: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Per intersection, the bincount keys ``line * P`` of its row and its column."""
    cells = np.arange(n * n)
    return (cells // n) * players, (n + cells % n) * players


def _rank_board(totals: np.ndarray, points: Mapping[str, int]) -> tuple[int, ...]:
    """Each seat's points from the contests' totals (K, P) of one board: the same
    branch-free rule as the kernels, on a handful of small arrays."""
    ordered = np.sort(totals, axis=1)
    best, runner = ordered[:, -1], ordered[:, -2]
    lead_alone = runner < best
    seconded = lead_alone & (runner > 0)
    lead = (best > 0) * points["tied_first"] + lead_alone * (points["sole"] - points["tied_first"])
    lead += seconded * (points["first"] - points["sole"])
    runner_up = seconded * points["second"]
    if totals.shape[1] > 2:
        tied = seconded & (ordered[:, -3] == runner)
        runner_up += tied * (points["tied_second"] - points["second"])
    mine = (totals == best[:, None]) * lead[:, None] + (totals == runner[:, None]) * runner_up[
        :, None
    ]
    return tuple(int(x) for x in mine.sum(axis=0))


def board_summer(owners: Sequence[int], values: Sequence[int], num_players: int) -> tuple[int, ...]:
    """Summer points of one board given as flat row-major intersections (the engine's
    form: owner -1 and value 0 where there is no tree); unchecked, for the engine."""
    n = math.isqrt(len(owners))
    row_keys, col_keys = _board_keys(n, num_players)
    seat = np.array(owners, dtype=np.int64)
    np.maximum(seat, 0, out=seat)  # an empty cell has value 0: its key does not matter
    amount = np.array(values, dtype=np.int64)
    size = n * num_players
    rows = np.bincount(row_keys + seat, weights=amount, minlength=size)
    cols = np.bincount(col_keys - size + seat, weights=amount, minlength=size)
    totals = np.concatenate((rows, cols)).astype(np.int64).reshape(2 * n, num_players)
    return _rank_board(totals, SUMMER_POINTS)


def board_winter(tops: Sequence[int], terrain: np.ndarray, num_players: int) -> tuple[int, ...]:
    """Winter points of one board given as flat row-major square tops (-1 where
    empty) and its terrain map; unchecked, for the engine."""
    seat = np.array(tops, dtype=np.int64)
    placed = seat >= 0
    keys = terrain.ravel()[placed].astype(np.int64) * num_players + seat[placed]
    counts = np.bincount(keys, minlength=NUM_TERRAINS * num_players)
    return _rank_board(counts.reshape(NUM_TERRAINS, num_players), WINTER_POINTS)


PLACES = ("sole", "first", "second", "tied_first", "tied_second")
"""The keys of a points table (``SUMMER_POINTS``, ``WINTER_POINTS``)."""


def plain_scores(
    lines: Sequence[Sequence[tuple[int, int]]], num_players: int, points: Mapping[str, int]
) -> list[int]:
    """The ranking rule written plainly, one contest at a time (the kernels' reference).

    ``lines`` lists contests; each is a list of ``(seat, amount)`` entries, ``points``
    maps each of :data:`PLACES` to an int. ConfigError names a malformed argument.
    """
    players = as_int(num_players, "plain_scores: num_players", 1, 64)
    places = _check_places(points)
    checked = [_check_contest(entries, players, i) for i, entries in enumerate(_listed(lines))]
    return _plain_scores(checked, players, places)


def _listed(value: Any, what: str = "lines") -> list[Any]:
    if not is_list_like(value) or not isinstance(value, Sequence | np.ndarray):
        raise ConfigError(f"plain_scores: {what} must be a sequence, not {excerpt(value)}")
    return list(value)


def _check_places(points: Any) -> dict[str, int]:
    """``points`` as ints per place (numpy's made ints: they would wrap and be returned)."""
    if not isinstance(points, Mapping):
        raise ConfigError(f"plain_scores: points must be a mapping, not {excerpt(points)}")
    for place in PLACES:
        if place not in points:
            raise ConfigError(f"plain_scores: points has no {excerpt(place)} (needs {PLACES})")
    return {place: as_int(points[place], f"plain_scores: points[{place!r}]") for place in PLACES}


def _check_contest(entries: Any, players: int, index: int) -> list[tuple[int, int]]:
    """One contest's ``(seat, amount)`` entries checked (seats of ``players``, amounts >= 0)."""
    checked = []
    for entry in _listed(entries, f"lines[{index}]"):
        if not is_row(entry, 2):
            raise ConfigError(
                f"plain_scores: lines[{index}] entries are (seat, amount) pairs, "
                f"not {excerpt(entry)}"
            )
        seat = check_seat(players, entry[0], f"plain_scores: lines[{index}] seat")
        checked.append((seat, as_int(entry[1], f"plain_scores: lines[{index}] amount", 0)))
    return checked


def _plain_scores(
    lines: Sequence[Sequence[tuple[int, int]]], num_players: int, points: Mapping[str, int]
) -> list[int]:
    """:func:`plain_scores` unchecked (the reference boards call it with their own data)."""
    result = [0] * num_players
    for entries in lines:
        total = [0] * num_players
        for seat, amount in entries:
            total[seat] += amount
        ranked = sorted({t for t in total if t > 0}, reverse=True)
        if not ranked:
            continue
        leaders = [p for p in range(num_players) if total[p] == ranked[0]]
        if len(leaders) > 1:
            for p in leaders:
                result[p] += points["tied_first"]
            continue
        if len(ranked) == 1:
            result[leaders[0]] += points["sole"]
            continue
        result[leaders[0]] += points["first"]
        runners = [p for p in range(num_players) if total[p] == ranked[1]]
        award = points["second"] if len(runners) == 1 else points["tied_second"]
        for p in runners:
            result[p] += award
    return result


def plain_board_scores(
    owner: npt.ArrayLike,
    value: npt.ArrayLike,
    top: npt.ArrayLike,
    terrain: npt.ArrayLike,
    num_players: int,
) -> tuple[list[int], list[int]]:
    """Summer and winter points of one board, line by line in plain Python.

    The readable definition the kernels are tested (and benchmarked) against. Takes one
    board (no batch axes); StateError or ConfigError as :func:`summer_scores` and
    :func:`winter_scores` for malformed input.
    """
    players = _check_players(num_players)
    owner, value = _check_trees(owner, value)
    top, terrain = _check_tops(top, terrain)
    if owner.ndim != 2 or top.ndim != 2:
        raise StateError(
            f"plain_board_scores scores one board: owner and top must be 2-D, "
            f"got shapes {owner.shape} and {top.shape}"
        )
    bad_value = (value < 0) | (value > MAX_TREE_VALUE) | ((owner < 0) != (value == 0))
    if ((owner < -1) | (owner >= players) | bad_value).any():
        _explain_trees(owner, value, players)
    if ((top < -1) | (top >= players)).any():
        _explain_tops(top, players)
    return _plain_board_scores(owner, value, top, terrain, players)


def _plain_board_scores(
    owner: npt.ArrayLike,
    value: npt.ArrayLike,
    top: npt.ArrayLike,
    terrain: npt.ArrayLike,
    num_players: int,
) -> tuple[list[int], list[int]]:
    """:func:`plain_board_scores` unchecked: the baseline the benchmarks time."""
    seats: list[list[int]] = np.asarray(owner).tolist()
    values: list[list[int]] = np.asarray(value).tolist()
    n = len(seats)
    rows = [[(seats[i][j], values[i][j]) for j in range(n) if seats[i][j] >= 0] for i in range(n)]
    cols = [[(seats[i][j], values[i][j]) for i in range(n) if seats[i][j] >= 0] for j in range(n)]
    regions: list[list[tuple[int, int]]] = [[] for _ in range(NUM_TERRAINS)]
    tops: list[list[int]] = np.asarray(top).tolist()
    kinds: list[list[int]] = np.asarray(terrain).tolist()
    for top_row, terrain_row in zip(tops, kinds, strict=True):
        for seat, kind in zip(top_row, terrain_row, strict=True):
            if seat >= 0:
                regions[kind].append((seat, 1))
    return (
        _plain_scores(rows + cols, num_players, SUMMER_POINTS),
        _plain_scores(regions, num_players, WINTER_POINTS),
    )
