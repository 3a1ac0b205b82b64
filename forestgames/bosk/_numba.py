"""Compiled Bosk scoring kernels (numba, the ``fast`` extra); imported only if numba is.

Same results as the numpy path of ``forestgames.bosk.scoring``, which checks
shapes and hands over C-contiguous int8 grids (M, cells). Each kernel checks
every cell's range itself and returns False at the first bad block, so that
the caller can name the problem.

A block of ``_BLOCK`` boards is first turned cells-major (cell, board), so
every later loop runs over the boards of the block, which LLVM vectorises.
Each cell's amount goes into its seat's 8-bit field of a uint32
(``amount << 8 * seat``): one add per cell sums all seats of a line or a
terrain type at once, and the packed sums are ranked with branch-free code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

__all__ = ["summer", "winter"]

_BLOCK = 32
_SUMMER = (2, 1, 3, 1, 0)  # first, second, sole, tied_first, tied_second
_WINTER = (5, 3, 8, 4, 1)

_F = TypeVar("_F", bound=Callable[..., Any])


_OPTIONS: dict[str, Any] = {"nogil": True, "boundscheck": False, "error_model": "numpy"}


def _jit(function: _F) -> _F:
    """Compile ``function`` with numba (no GIL, no bounds checks), cached on disk where
    numba finds a folder it may write (beside this file, or the user's cache folder).
    Where it finds none (a read-only install and no writable home) ``cache=True`` is a
    RuntimeError: the kernel then compiles in each process instead."""
    try:
        return cast(_F, numba.njit(cache=True, **_OPTIONS)(function))
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return cast(_F, numba.njit(**_OPTIONS)(function))


@_jit
def _rank_block(sums: Any, count: int, players: int, points: Any, out: Any, offset: int) -> None:
    """Add the points of ``count`` boards' packed contest sums (K, count) to ``out``."""
    first, second, sole = np.int32(points[0]), np.int32(points[1]), np.int32(points[2])
    tied_first, tied_second = np.int32(points[3]), np.int32(points[4])
    acc = np.zeros((4, _BLOCK), dtype=np.int32)
    for k in range(sums.shape[0]):
        for b in range(count):
            packed = sums[k, b]
            t0 = np.int32(packed & 255)
            t1 = np.int32((packed >> 8) & 255)
            t2 = np.int32((packed >> 16) & 255)
            t3 = np.int32(packed >> 24)
            # a descending sorting network; the fourth value is not needed
            a0, a1 = max(t0, t1), min(t0, t1)
            a2, a3 = max(t2, t3), min(t2, t3)
            v0, b2 = max(a0, a2), min(a0, a2)
            b1 = max(a1, a3)
            v1, v2 = max(b1, b2), min(b1, b2)
            alone = np.int32(v1 < v0)
            seconded = alone * np.int32(v1 > 0)
            lead = (
                tied_first * np.int32(v0 > 0)
                + (sole - tied_first) * alone
                + (first - sole) * seconded
            )
            runner_up = seconded * (second + (tied_second - second) * np.int32(v2 == v1))
            acc[0, b] += lead * np.int32(t0 == v0) + runner_up * np.int32(t0 == v1)
            acc[1, b] += lead * np.int32(t1 == v0) + runner_up * np.int32(t1 == v1)
            acc[2, b] += lead * np.int32(t2 == v0) + runner_up * np.int32(t2 == v1)
            acc[3, b] += lead * np.int32(t3 == v0) + runner_up * np.int32(t3 == v1)
    for b in range(count):
        for p in range(players):
            out[offset + b, p] += acc[p, b]


@_jit
def _cells_major(grid: Any, start: int, count: int, into: Any) -> None:
    """``into[c, b] = grid[start + b, c]``: a block of boards turned cells-major."""
    cells = grid.shape[1]
    for b in range(count):
        row = grid[start + b]
        for c in range(cells):
            into[c, b] = row[c]


@_jit
def summer(owner: Any, value: Any, n: int, players: int, out: Any) -> bool:
    """Summer points of boards (M, n*n) into ``out`` (M, players); False if a cell is bad."""
    boards, cells = owner.shape
    owners = np.empty((cells, _BLOCK), dtype=np.int8)
    values = np.empty((cells, _BLOCK), dtype=np.int8)
    sums = np.zeros((2 * n, _BLOCK), dtype=np.uint32)
    points = np.array(_SUMMER, dtype=np.int64)
    for start in range(0, boards, _BLOCK):
        count = min(_BLOCK, boards - start)
        _cells_major(owner, start, count, owners)
        _cells_major(value, start, count, values)
        sums[:, :] = 0
        seat_max = np.uint32(0)
        value_max = np.uint32(0)
        mismatch = np.uint32(0)
        for c in range(cells):
            line, column = c // n, n + c % n
            for b in range(count):
                o = np.int32(owners[c, b])
                v = np.int32(values[c, b])
                seat_max = max(seat_max, np.uint32(o + 1))
                value_max = max(value_max, np.uint32(v))
                mismatch |= np.uint32(o < 0) ^ np.uint32(v == 0)
                code = np.uint32(v) << np.uint32((o & 3) * 8)
                sums[line, b] += code
                sums[column, b] += code
        if seat_max > players or value_max > 4 or mismatch:
            return False
        _rank_block(sums, count, players, points, out, start)
    return True


@_jit
def winter(top: Any, kinds: Any, players: int, out: Any) -> bool:
    """Winter points of tops (M, S*S) into ``out`` (M, players); False if a seat is bad."""
    boards, squares = top.shape
    order = np.argsort(kinds, kind="mergesort")  # squares grouped by terrain type
    ends = np.zeros(9, dtype=np.int64)
    for s in range(squares):
        ends[kinds[s] + 1] += 1
    for k in range(1, 9):
        ends[k] += ends[k - 1]
    tops = np.empty((squares, _BLOCK), dtype=np.int8)
    sums = np.zeros((8, _BLOCK), dtype=np.uint32)
    points = np.array(_WINTER, dtype=np.int64)
    for start in range(0, boards, _BLOCK):
        count = min(_BLOCK, boards - start)
        _cells_major(top, start, count, tops)
        sums[:, :] = 0
        seat_max = np.uint32(0)
        for k in range(8):
            for s in range(ends[k], ends[k + 1]):
                square = tops[order[s]]
                for b in range(count):
                    t = np.int32(square[b])
                    seat_max = max(seat_max, np.uint32(t + 1))
                    sums[k, b] += np.uint32(t >= 0) << np.uint32((t & 3) * 8)
        if seat_max > players:
            return False
        _rank_block(sums, count, players, points, out, start)
    return True
