"""Lookup tables of Bosk, built once at import: geometry, winds, default maps.

Squares and intersections are numbered row-major. For a play area of S×S
squares there are N = S−1 interior intersections per side::

      col 0   col 1   col 2
    +-------+-------+-------+     square (r, c)      -> index r*S + c
    | (0,0) | (0,1) | (0,2) |     intersection (i, j) -> index i*N + j
    +-------*-------*-------+     '*' intersection (0,0) touches squares
    | (1,0) | (1,1) | (1,2) |         (0,0) (0,1) (1,0) (1,1)
    +-------*-------*-------+
    | (2,0) | (2,1) | (2,2) |     row 0 is north, column 0 is west
    +-------+-------+-------+

``BASE[D][t]`` are the 2 squares under intersection t on the downwind side of
wind D; ``NEXT[D][s]`` are the up to 3 squares one step downwind of square s
(diagonal, straight, diagonal). Both are tuples of square indices.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from forestgames.core import Sealed, frozen_array

DIRECTIONS: tuple[str, ...] = ("N", "E", "S", "W")
"""Wind directions in clockwise order; round k blows DIRECTIONS[(d0 + k − 1) % 4]."""

STEP: Mapping[str, tuple[int, int]] = MappingProxyType(
    {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
)
"""(row, col) step of one square downwind."""

BOARD_SIZE: Mapping[int, int] = MappingProxyType({2: 8, 3: 10, 4: 12})
"""Play-area side S by number of players."""

TREE_VALUES: tuple[int, ...] = (1, 1, 2, 2, 3, 3, 4, 4)
TREES_PER_VALUE = 2
LEAF_TILES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8)
"""Leaf tiles by order value: 1 is the squirrel tile, 2..8 give that many leaves."""
SQUIRREL = 1
LEAF_SUPPLY = 35  # 2 + 3 + ... + 8: the 36 tokens less the score marker
ALL_TILES_MASK = sum(1 << t for t in LEAF_TILES)
NUM_TERRAINS = 8
ROUNDS = 8
SQUIRREL_MAX_STEPS = 3

SUMMER_POINTS: Mapping[str, int] = MappingProxyType(
    {"first": 2, "second": 1, "sole": 3, "tied_first": 1, "tied_second": 0}
)
WINTER_POINTS: Mapping[str, int] = MappingProxyType(
    {"first": 5, "second": 3, "sole": 8, "tied_first": 4, "tied_second": 1}
)

# Default terrain maps: letters A..H are terrain ids 0..7. The 10×10 map is the
# inner crop of the 12×12 one, as the printed board's white border is.
_MAP_12 = """
AAAABBCCCCCC
AAAAABBCCCCC
AAAABBBCCCCC
AAABBBBBBCCC
ADAAEEEBBBCE
DDDDDEEEEEEE
DDDDEEEEFFEE
DDDGGHFFFFFE
DDGGGHHHFFFF
DGGGGHHHFFFF
DGGGGHHHHHHH
GGGGGHHHHHHH
"""
_MAP_8 = """
DAAABBBC
DAABBBCC
DAAEBBCC
DDAEEECC
DGEEEEFC
DGGHHFFF
DGGHHHFF
GGGHHHFF
"""


def _parse_map(text: str) -> np.ndarray:
    rows = [line.strip() for line in text.strip().splitlines()]
    return frozen_array([[ord(ch) - ord("A") for ch in row] for row in rows], np.int8)


def _crop(grid: np.ndarray) -> np.ndarray:
    return frozen_array(grid[1:-1, 1:-1], np.int8)


_MAP_ARRAY_12 = _parse_map(_MAP_12)
DEFAULT_TERRAIN: Mapping[int, np.ndarray] = MappingProxyType(
    {8: _parse_map(_MAP_8), 10: _crop(_MAP_ARRAY_12), 12: _MAP_ARRAY_12}
)
"""The shipped maps by board side, read-only (arrays over immutable bytes)."""


@functools.cache
def geometry(size: int) -> Geometry:
    """The tables of an S×S play area (built once per size)."""
    return Geometry(size)


class Geometry(Sealed):
    """Index tables of one play-area size; see the module docstring. Read-only:
    shared by every game of that size."""

    _read_only = "Bosk geometry tables are read-only"

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles are the shared tables of the size (read-only, rebuilt once)."""
        return (geometry, (self.size,))

    def __init__(self, size: int) -> None:
        self.size = size
        self.n = n = size - 1
        self.squares = size * size
        self.intersections = n * n
        self.intersection_ids = range(self.intersections)
        self.square_rc = tuple(divmod(s, size) for s in range(self.squares))
        self.intersection_rc = tuple(divmod(t, n) for t in range(self.intersections))
        base: dict[str, tuple[tuple[int, ...], ...]] = {}
        step: dict[str, tuple[tuple[int, ...], ...]] = {}
        for d in DIRECTIONS:
            base[d] = tuple(self._base(d, i, j) for i, j in self.intersection_rc)
            step[d] = tuple(self._next(d, r, c) for r, c in self.square_rc)
        self.base: Mapping[str, tuple[tuple[int, ...], ...]] = MappingProxyType(base)
        self.next: Mapping[str, tuple[tuple[int, ...], ...]] = MappingProxyType(step)
        # the same, by wind index (0..3 as in DIRECTIONS), for the hot paths
        self.base_of = tuple(base[d] for d in DIRECTIONS)
        self.next_of = tuple(step[d] for d in DIRECTIONS)
        # squares reachable by the squirrel from intersection t in exactly k steps
        self.squirrel_reach: Mapping[str, tuple[tuple[frozenset[int], ...], ...]] = (
            MappingProxyType(
                {
                    d: tuple(self.squirrel_steps(d, t) for t in range(self.intersections))
                    for d in DIRECTIONS
                }
            )
        )
        self._seal()

    def square(self, r: int, c: int) -> int:
        return r * self.size + c

    def _base(self, d: str, i: int, j: int) -> tuple[int, ...]:
        corners = {
            "N": ((i, j), (i, j + 1)),
            "S": ((i + 1, j), (i + 1, j + 1)),
            "E": ((i, j + 1), (i + 1, j + 1)),
            "W": ((i, j), (i + 1, j)),
        }[d]
        return tuple(self.square(r, c) for r, c in corners)

    def _next(self, d: str, r: int, c: int) -> tuple[int, ...]:
        dr, dc = STEP[d]
        r2, c2 = r + dr, c + dc
        side = (0, 1) if dr else (1, 0)  # the perpendicular axis
        cells = [(r2 - side[0], c2 - side[1]), (r2, c2), (r2 + side[0], c2 + side[1])]
        return tuple(
            self.square(a, b) for a, b in cells if 0 <= a < self.size and 0 <= b < self.size
        )

    def squirrel_steps(
        self, d: str, t: int, blocked: frozenset[int] = frozenset()
    ) -> tuple[frozenset[int], ...]:
        """The squares 1, 2 and 3 steps downwind (wind ``d``) of tree ``t``, along paths
        that enter no square of ``blocked``."""
        steps = [frozenset(self.base[d][t]) - blocked]
        for _ in range(SQUIRREL_MAX_STEPS - 1):
            steps.append(frozenset(s2 for s in steps[-1] for s2 in self.next[d][s]) - blocked)
        return tuple(steps)
