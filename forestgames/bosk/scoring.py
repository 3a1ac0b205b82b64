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
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from forestgames.bosk._tables import NUM_TERRAINS, SUMMER_POINTS, WINTER_POINTS

__all__ = [
    "placement_points",
    "plain_board_scores",
    "plain_scores",
    "summer_scores",
    "winter_scores",
]

IntArray = npt.NDArray[np.integer]


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
    the points are summed over K. Totals of 0 mean "not in the contest".
    Works seat by seat on (..., K) slices: P is small, so this beats reducing
    over a tiny last axis.
    """
    totals = np.asarray(totals)
    if totals.ndim < 2:
        raise ValueError(f"totals must have shape (..., K, P), got {totals.shape}")
    seats = [totals[..., p] for p in range(totals.shape[-1])]
    best = functools.reduce(np.maximum, seats)
    is_first = [(t == best) & (t > 0) for t in seats]
    n_first = functools.reduce(np.add, [f.view(np.int8) for f in is_first])
    rest = [np.where(f, 0, t) for f, t in zip(is_first, seats, strict=True)]
    runner = functools.reduce(np.maximum, rest)
    is_second = [(r == runner) & (r > 0) for r in rest]
    n_second = functools.reduce(np.add, [s.view(np.int8) for s in is_second])
    single = n_first == 1
    lead = np.where(single, np.where(n_second == 0, sole, first), tied_first).astype(np.int32)
    runner_up = np.where(single, np.where(n_second == 1, second, tied_second), 0).astype(np.int32)
    points = [
        (f * lead + s * runner_up).sum(axis=-1) for f, s in zip(is_first, is_second, strict=True)
    ]
    return np.stack(points, axis=-1)


# How the kernels go fast. Each cell's amount is packed into the bit field of
# its seat (field width ``bits``), so one matrix product of the packed cells by
# a 0/1 cell->contest matrix adds every seat's amounts per contest at once
# (float32 when all fields fit its 24-bit mantissa, else float64: sums stay
# exact). When every seat's total in every contest is below 32 — always true of
# legal boards — the contest's totals repacked into 5-bit fields index a table of
# packed points built once from placement_points (8-bit point fields when a
# board's points per seat stay below 256); otherwise placement_points ranks the
# unpacked totals.
_KEY_BITS = 5


def _unpack(packed: IntArray, num_players: int, bits: int) -> IntArray:
    shifts = np.arange(num_players, dtype=np.int64) * bits
    return (packed[..., None] >> shifts) & ((1 << bits) - 1)


@functools.cache
def _packed_amounts(num_players: int, bits: int, dtype: type) -> np.ndarray:
    """Table of one cell's packed amount (0..7), indexed by ``seat * 8 + amount``.

    Seat -1 gives negative indices, which wrap to the table's zero tail.
    """
    max_amount = 7
    table: np.ndarray = np.zeros(8 * (num_players + 1), dtype=dtype)
    for seat in range(num_players):
        for amount in range(max_amount + 1):
            table[seat * 8 + amount] = amount * 2.0 ** (bits * seat)
    return table


@functools.cache
def _points_table(num_players: int, points: tuple[int, ...], point_bits: int) -> np.ndarray:
    """Packed points of one contest, indexed by its totals packed in 5-bit fields."""
    keys = np.arange(1 << (_KEY_BITS * num_players), dtype=np.int64)
    totals = _unpack(keys, num_players, _KEY_BITS)[:, None, :]
    table = placement_points(totals, *points).astype(np.int64)
    packed = (table << (np.arange(num_players, dtype=np.int64) * point_bits)).sum(axis=-1)
    return packed.astype(np.int32 if point_bits * num_players <= 31 else np.int64)


def _contest_points(
    cells: np.ndarray, incidence: np.ndarray, num_players: int, bits: int, points: dict[str, int]
) -> IntArray:
    """Points (M, P) of M boards whose cells (M, C) hold ``seat * 8 + amount`` codes."""
    dtype = np.float32 if bits * num_players <= 24 else np.float64
    amounts = _packed_amounts(num_players, bits, dtype)[cells]
    packed = (amounts @ incidence.astype(dtype, copy=False)).astype(np.int64)  # (M, K)
    shifts = np.arange(num_players, dtype=np.int64) * bits
    high = int(sum(((1 << bits) - (1 << _KEY_BITS)) << int(s) for s in shifts))
    ranks = (
        points["first"],
        points["second"],
        points["sole"],
        points["tied_first"],
        points["tied_second"],
    )
    if num_players * _KEY_BITS <= 20 and not (packed & high).any():
        key = np.zeros_like(packed)
        for seat, shift in enumerate(shifts):
            key |= ((packed >> shift) & ((1 << _KEY_BITS) - 1)) << (seat * _KEY_BITS)
        point_bits = 8 if packed.shape[-1] * max(ranks) < 256 else 16
        total = _points_table(num_players, ranks, point_bits)[key].sum(axis=-1, dtype=np.int64)
        return _unpack(total, num_players, point_bits)
    return placement_points(_unpack(packed, num_players, bits), *ranks)


@functools.cache
def _line_matrix(n: int) -> np.ndarray:
    """(n*n, 2n) 0/1 matrix: intersection -> its row (first n) and column (last n)."""
    cells = np.arange(n * n)
    matrix = np.zeros((n * n, 2 * n))
    matrix[cells, cells // n] = 1
    matrix[cells, n + cells % n] = 1
    return matrix


def _field_bits(largest_total: int) -> int:
    return max(_KEY_BITS + 1, int(largest_total).bit_length())


def summer_scores(owner: npt.ArrayLike, value: npt.ArrayLike, num_players: int) -> IntArray:
    """Summer points: every row and column of intersections, by tree values.

    ``owner`` (..., N, N) holds the seat of each intersection's tree or -1,
    ``value`` the tree values 1..4 (ignored where there is no tree). Returns
    (..., num_players) ints. int8 inputs are the fastest.
    """
    owner = np.asarray(owner)
    value = np.asarray(value)
    if owner.shape != value.shape or owner.ndim < 2 or owner.shape[-1] != owner.shape[-2]:
        raise ValueError(
            f"owner and value must both be (..., N, N), got {owner.shape}, {value.shape}"
        )
    n, lead = owner.shape[-1], owner.shape[:-2]
    cells = owner.astype(np.int8, copy=False) * np.int8(8) + value.astype(np.int8, copy=False)
    bits = _field_bits(4 * n)
    result = _contest_points(
        cells.reshape(-1, n * n), _line_matrix(n), num_players, bits, SUMMER_POINTS
    )
    return result.reshape(*lead, num_players)


@functools.cache
def _terrain_matrix(terrain_bytes: bytes, size: int) -> np.ndarray:
    """(S*S, 8) 0/1 matrix: square -> its terrain type."""
    terrain = np.frombuffer(terrain_bytes, dtype=np.int64)
    return (terrain.reshape(-1, 1) == np.arange(NUM_TERRAINS)).astype(np.float64)


def winter_scores(top: npt.ArrayLike, terrain: npt.ArrayLike, num_players: int) -> IntArray:
    """Winter points: squares controlled per terrain type.

    ``top`` (..., S, S) holds the seat whose leaf or squirrel tops each square,
    or -1; ``terrain`` (S, S) the terrain ids 0..7. Returns (..., num_players).
    """
    top = np.asarray(top)
    terrain = np.asarray(terrain, dtype=np.int64)
    if top.ndim < 2 or top.shape[-2:] != terrain.shape:
        raise ValueError(f"top (..., S, S) must match terrain {terrain.shape}, got {top.shape}")
    lead, squares = top.shape[:-2], terrain.size
    cells = top.astype(np.int8, copy=False) * np.int8(8) + np.int8(1)
    bits = _field_bits(np.bincount(terrain.ravel(), minlength=NUM_TERRAINS).max())
    incidence = _terrain_matrix(terrain.tobytes(), terrain.shape[0])
    result = _contest_points(
        cells.reshape(-1, squares), incidence, num_players, bits, WINTER_POINTS
    )
    return result.reshape(*lead, num_players)


def plain_scores(
    lines: Sequence[Sequence[tuple[int, int]]], num_players: int, points: dict[str, int]
) -> list[int]:
    """The ranking rule written plainly, one contest at a time (the kernels' reference).

    ``lines`` lists contests; each is a list of ``(seat, amount)`` entries.
    """
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

    The readable definition the kernels are tested (and benchmarked) against.
    """
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
        plain_scores(rows + cols, num_players, SUMMER_POINTS),
        plain_scores(regions, num_players, WINTER_POINTS),
    )
