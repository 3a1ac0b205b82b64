"""One player's bonsai: an immutable tree with the derived facts the rules ask for, cached.

A :class:`Tree` is a value (equal when it holds the same tiles). The facts a
turn needs again and again (where each kind may go, points, goal measures)
are computed once per tree, and a tree grown by one tile updates its parent's
open cells instead of recomputing them: a tile changes what may go on its six
neighbours only.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from forestgames.bonsai._tables import (
    BESIDE_POT,
    BUD,
    DIRECTIONS,
    FLOWER,
    FRUIT,
    KINDS,
    LEAF,
    POT_CELLS,
    WOOD,
    Tile,
    qr_of,
)
from forestgames.bonsai.scoring import (
    allowed_kinds,
    cells_from_tiles,
    measures_of,
    points_of,
)

__all__ = ["Tree"]


class Tree:
    """A bonsai as ``{cell: kind index}`` (bud included), grown under one placement option."""

    __slots__ = ("_cells", "_key", "_measures", "_moves", "_open", "wood_beside_pot")

    def __init__(self, cells: dict[int, int], wood_beside_pot: bool = False) -> None:
        self._cells = cells
        self.wood_beside_pot = wood_beside_pot
        self._open: tuple[frozenset[int], ...] | None = None
        self._key: frozenset[tuple[int, int]] | None = None
        self._measures: tuple[int, int, int, int, int] | None = None
        self._moves: dict[tuple[int, int], tuple[Any, ...]] = {}

    @classmethod
    def seedling(cls, wood_beside_pot: bool = False) -> Tree:
        """The bud alone."""
        return cls({BUD: WOOD}, wood_beside_pot)

    @classmethod
    def from_tiles(cls, tiles: Mapping[Any, Any], wood_beside_pot: bool = False) -> Tree:
        """A tree from ``{(q, r): kind}`` (no placement check; StateError if malformed)."""
        return cls(cells_from_tiles(tiles), wood_beside_pot)

    # ------------------------------------------------------------------ value

    def _frozen(self) -> frozenset[tuple[int, int]]:
        if self._key is None:
            self._key = frozenset(self._cells.items())
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tree) and self._frozen() == other._frozen()

    def __hash__(self) -> int:
        return hash(self._frozen())

    def __repr__(self) -> str:
        return f"Tree.from_tiles({ {k: str(v) for k, v in self.tiles.items()}!r})"

    def __len__(self) -> int:
        """Tiles on the tree, the bud included."""
        return len(self._cells)

    @property
    def cells(self) -> Mapping[int, int]:
        """The engine form ``{cell: kind index}`` (read-only)."""
        return MappingProxyType(self._cells)

    @property
    def tiles(self) -> dict[tuple[int, int], Tile]:
        """``{(q, r): Tile}``, the bud included, sorted by ``(q, r)``."""
        return {qr_of(c): KINDS[k] for c, k in sorted(self._cells.items())}

    def counts(self) -> tuple[int, int, int, int]:
        """Tiles per kind (wood, leaf, flower, fruit), the bud counted as wood."""
        n = [0, 0, 0, 0]
        for kind in self._cells.values():
            n[kind] += 1
        return (n[0], n[1], n[2], n[3])

    def points(self, pot_sides_free: bool = True) -> int:
        return points_of(self._cells, pot_sides_free)

    def goal_measures(self) -> tuple[int, int, int, int, int]:
        if self._measures is None:
            self._measures = measures_of(self._cells)
        return self._measures

    # ------------------------------------------------------------------ placement

    def open_cells(self, kind: int) -> frozenset[int]:
        """The cells where a ``kind`` tile may go now."""
        if self._open is None:
            self._open = self._compute_open()
        return self._open[kind]

    def _compute_open(self) -> tuple[frozenset[int], ...]:
        cells = self._cells
        frontier = {c + d for c in cells for d in DIRECTIONS} - cells.keys() - POT_CELLS
        if self.wood_beside_pot:
            frontier |= BESIDE_POT - cells.keys()
        return _open_among(cells, frontier, self.wood_beside_pot)

    def with_tile(self, cell: int, kind: int) -> Tree:
        """This tree with ``kind`` on ``cell`` (the caller has checked the placement).

        The parent's open cells are updated, not recomputed: ``cell`` closes, and
        only its empty neighbours can change, in the one way the new tile allows.
        Wood lets wood and leaves go beside it; a leaf lets flowers go beside it
        and maybe fruit (checked); a fruit forbids fruit beside it; a flower
        changes nothing around it.
        """
        cells = dict(self._cells)
        cells[cell] = kind
        grown = Tree(cells, self.wood_beside_pot)
        if self._open is not None:
            wood, leaf, flower, fruit = (cells_open - {cell} for cells_open in self._open)
            around = {cell + d for d in DIRECTIONS} - cells.keys() - POT_CELLS
            if kind == WOOD:
                wood, leaf = wood | around, leaf | around
            elif kind == LEAF:
                flower = flower | around
                fruit = fruit | {c for c in around if allowed_kinds(cells, c)[FRUIT]}
            elif kind == FRUIT:
                fruit = fruit - around
            grown._open = (wood, leaf, flower, fruit)
        return grown

    def place_moves(self, player: int, kind: int, table: Mapping[int, Any]) -> tuple[Any, ...]:
        """``table[cell]`` for every open cell of ``kind`` (sorted), cached on this tree."""
        key = (player, kind)
        moves = self._moves.get(key)
        if moves is None:
            moves = self._moves[key] = tuple(map(table.__getitem__, sorted(self.open_cells(kind))))
        return moves

    # ------------------------------------------------------------------ pruning

    def without_leaf(self, cell: int) -> Tree:
        """This tree with the leaf on ``cell`` removed, and any flower or fruit left
        without its required leaves removed with it."""
        cells = dict(self._cells)
        del cells[cell]
        for d in DIRECTIONS:
            side = cell + d
            kind = cells.get(side)
            if kind in (FLOWER, FRUIT) and not _supported(cells, side, kind):
                del cells[side]
        return Tree(cells, self.wood_beside_pot)

    def prune_choices(self) -> tuple[int, ...]:
        """The leaves (sorted cells) that may be pruned: every leaf when no wood tile can be
        placed, none otherwise.

        The fewest leaves to remove is always one: every leaf touches wood, so
        removing any leaf frees a cell beside wood (and in a tree with no leaf,
        nothing hems the wood in, so wood fits).
        """
        if self.open_cells(WOOD):
            return ()
        return tuple(sorted(c for c, k in self._cells.items() if k == LEAF))


def _open_among(
    cells: Mapping[int, int], candidates: set[int], beside_pot: bool
) -> tuple[frozenset[int], ...]:
    """Per kind, the ``candidates`` (empty, off the pot) where that kind may go."""
    wood, leaf, flower, fruit = [], [], [], []
    for c in candidates:
        w, lf, fl, fr = allowed_kinds(cells, c, beside_pot)
        if w:
            wood.append(c)
        if lf:
            leaf.append(c)
        if fl:
            flower.append(c)
        if fr:
            fruit.append(c)
    return (frozenset(wood), frozenset(leaf), frozenset(flower), frozenset(fruit))


def _supported(cells: Mapping[int, int], cell: int, kind: int) -> bool:
    """Whether the flower or fruit on ``cell`` still has the leaves it needs."""
    around = [cells.get(cell + d) for d in DIRECTIONS]
    if kind == FLOWER:
        return LEAF in around
    return any(around[i] == LEAF and around[i - 1] == LEAF for i in range(6))
