"""One player's bonsai: an immutable tree with the facts the rules ask for, held as data.

A :class:`Tree` is a value (equal when it holds the same tiles). Besides its
tiles it holds, computed when it is built, where each kind may go next
(``open_cells``) and what its goal measures are made of: tiles per kind, the
sides of the pot it protrudes on, its largest leaf group, its protruding
flowers. A tree grown by one tile derives these from its parent instead of
recomputing them: a tile changes what may go on its six neighbours only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from forestgames._version import __version__
from forestgames.bonsai._tables import (
    BESIDE_POT,
    BUD,
    COORD_LIMIT,
    DIRECTIONS,
    FLOWER,
    FRUIT,
    KINDS,
    LEAF,
    LEFT,
    POT_CELLS,
    RIGHT,
    WOOD,
    Tile,
    protrusion_bits,
    qr_of,
)
from forestgames.bonsai.scoring import (
    BLUE_LEVEL,
    allowed_kinds,
    cells_from_tiles,
    flowers_protruding,
    largest_leaf_group,
    points_of,
)
from forestgames.core import StateError, as_bool, as_int, excerpt, is_int, pickled_elsewhere

__all__ = ["Tree"]

Open = tuple[frozenset[int], frozenset[int], frozenset[int], frozenset[int]]


def _placement_option(wood_beside_pot: Any) -> bool:
    """``wood_beside_pot`` as a Python bool (numpy's too); StateError if it is no bool."""
    if not isinstance(wood_beside_pot, bool | np.bool_):
        raise StateError(f"wood_beside_pot must be a bool, not {excerpt(wood_beside_pot)}")
    return bool(wood_beside_pot)


class Tree:
    """A bonsai as ``{cell: kind index}`` (bud included), grown under one placement option."""

    __slots__ = (
        "_cells",
        "_counts",
        "_green",
        "_open",
        "_pink",
        "_placing",
        "_sides",
        "_wood_beside_pot",
    )

    _cells: dict[int, int]
    _wood_beside_pot: bool
    _open: Open
    _counts: tuple[int, int, int, int]
    _sides: int  # the OR of the cells' protrusion bits
    _green: int  # the largest group of touching leaves
    _pink: tuple[int, int]  # flowers protruding left, right
    _placing: dict[int, Any] | None
    """The rules' cache of this tree's placement moves per seat (not part of the value)."""

    def __init__(self, cells: dict[int, int], wood_beside_pot: bool = False) -> None:
        """A tree of engine ``cells`` (see :attr:`cells`; ``from_tiles`` takes ``(q, r)``
        keys); StateError if ``cells`` is not such a tree."""
        wood_beside_pot = _placement_option(wood_beside_pot)
        cells = _checked_cells(cells)
        self._cells = cells
        self._wood_beside_pot = wood_beside_pot
        self._open = _open_cells(cells, wood_beside_pot)
        self._counts = _counts(cells)
        self._sides = _sides(cells)
        self._green = largest_leaf_group(cells)
        self._pink = flowers_protruding(cells)
        self._placing = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as this version's slots (the placement cache left out), read back as
        they are (re-deriving them took 8 times as long); another version's pickle is a
        StateError."""
        return (_unpickled_tree, (__version__, *(getattr(self, name) for name in _PICKLED)))

    def __setstate__(self, fields: Any) -> None:
        """Only a tree pickled before trees pickled with their version comes here (they
        pickle through ``_unpickled_tree``): StateError, as its slots may not be this
        version's."""
        raise pickled_elsewhere("a bonsai Tree", None)

    @classmethod
    def seedling(cls, wood_beside_pot: bool = False) -> Tree:
        """The bud alone; StateError if ``wood_beside_pot`` is not a bool."""
        return SEEDLINGS[_placement_option(wood_beside_pot)]

    @classmethod
    def from_tiles(cls, tiles: Mapping[Any, Any], wood_beside_pot: bool = False) -> Tree:
        """A tree from ``{(q, r): kind}`` (no placement check; StateError if malformed)."""
        return cls(cells_from_tiles(tiles), wood_beside_pot)

    # ------------------------------------------------------------------ value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tree) and self._cells == other._cells

    def __hash__(self) -> int:
        return hash(frozenset(self._cells.items()))

    def __repr__(self) -> str:
        return f"Tree.from_tiles({ {k: str(v) for k, v in self.tiles.items()}!r})"

    def __len__(self) -> int:
        """Tiles on the tree, the bud included."""
        return len(self._cells)

    @property
    def wood_beside_pot(self) -> bool:
        """The placement option the tree grows under (read-only: a tree is shared by the
        states that hold it, the seedling by every game of its option)."""
        return self._wood_beside_pot

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
        return self._counts

    def points(self, pot_sides_free: bool = True) -> int:
        """The tree's points (see :func:`forestgames.bonsai.tree_points`)."""
        if type(pot_sides_free) is not bool:  # the engine's case first
            pot_sides_free = as_bool(pot_sides_free, "pot_sides_free")
        return points_of(self._cells, pot_sides_free)

    def goal_measures(self) -> tuple[int, int, int, int, int]:
        """Per goal colour (brown, green, orange, pink, blue) the measure of this tree
        (see :func:`forestgames.bonsai.goal_measures`)."""
        counts = self._counts
        return (counts[WOOD], self._green, counts[FRUIT], max(self._pink), BLUE_LEVEL[self._sides])

    # ------------------------------------------------------------------ placement

    def open_cells(self, kind: int) -> frozenset[int]:
        """The cells where a ``kind`` tile (0..3: wood, leaf, flower, fruit) may go now;
        StateError for another ``kind``."""
        if type(kind) is int and 0 <= kind < len(self._open):  # the engine's case first
            return self._open[kind]
        return self._open[as_int(kind, "open_cells: kind", 0, len(self._open) - 1, StateError)]

    def with_tile(self, cell: int, kind: int) -> Tree:
        """This tree with ``kind`` on ``cell`` (the caller has checked the placement).

        Its facts are derived from the parent's. Open cells: ``cell`` closes, and
        only its empty neighbours can change, in the one way the new tile allows:
        wood lets wood and leaves go beside it; a leaf lets flowers go beside it,
        and fruit where it makes a touching pair with a leaf beside it; a fruit
        forbids fruit beside it; a flower changes nothing around it. An open-cell
        set the tile does not change is the parent's very set.
        """
        cells = self._cells.copy()
        cells[cell] = kind
        grown = object.__new__(Tree)
        grown._cells = cells
        grown._wood_beside_pot = self._wood_beside_pot
        grown._green, grown._pink = self._green, self._pink
        sides = protrusion_bits(cell)
        grown._sides = self._sides | sides
        grown._counts = _PLUS_ONE[kind](self._counts)
        grown._open = _GROW[kind](grown, self._open, cell, sides)
        grown._placing = None
        return grown

    # ------------------------------------------------------------------ pruning

    def without_leaf(self, cell: int) -> Tree:
        """This tree with the leaf on ``cell`` removed, and any flower or fruit left
        without its required leaves removed with it; StateError if ``cell`` holds no leaf."""
        if not is_int(cell) or self._cells.get(cell) != LEAF:
            raise StateError(f"without_leaf: cell {excerpt(cell)} holds no leaf of this tree")
        cells = dict(self._cells)
        del cells[cell]
        removed = [cell]
        for d in DIRECTIONS:
            side = cell + d
            kind = cells.get(side)
            if kind in (FLOWER, FRUIT) and not _supported(cells, side, kind):
                del cells[side]
                removed.append(side)
        return self._shrunk(cells, removed)

    def _shrunk(self, cells: dict[int, int], removed: list[int]) -> Tree:
        """This tree as ``cells``, once the tiles on ``removed`` are gone: open cells change
        only on those cells and beside them; the other facts are counted again."""
        near = {c + d for c in removed for d in DIRECTIONS}.union(removed)
        near = {c for c in near if c not in cells} - POT_CELLS
        beside_pot = self._wood_beside_pot
        found = [set(cells_open - near) for cells_open in self._open]
        for c in near:
            for kind, allowed in enumerate(allowed_kinds(cells, c, beside_pot)):
                if allowed:
                    found[kind].add(c)
        shrunk = object.__new__(Tree)
        shrunk._cells = cells
        shrunk._wood_beside_pot = beside_pot
        wood, leaf, flower, fruit = map(frozenset, found)
        shrunk._open = (wood, leaf, flower, fruit)
        shrunk._counts = _counts(cells)
        shrunk._sides = _sides(cells)
        shrunk._green = largest_leaf_group(cells)
        shrunk._pink = flowers_protruding(cells)
        shrunk._placing = None
        return shrunk

    def prune_choices(self) -> tuple[int, ...]:
        """The leaves (sorted cells) that may be pruned: every leaf when no wood tile can be
        placed, none otherwise.

        The fewest leaves to remove is always one: every leaf touches wood, so
        removing any leaf frees a cell beside wood (and in a tree with no leaf,
        nothing hems the wood in, so wood fits).
        """
        if self._open[WOOD]:
            return ()
        return tuple(sorted(c for c, k in self._cells.items() if k == LEAF))


_PLUS_ONE: tuple[Callable[[tuple[int, int, int, int]], tuple[int, int, int, int]], ...] = (
    lambda c: (c[0] + 1, c[1], c[2], c[3]),
    lambda c: (c[0], c[1] + 1, c[2], c[3]),
    lambda c: (c[0], c[1], c[2] + 1, c[3]),
    lambda c: (c[0], c[1], c[2], c[3] + 1),
)
"""Per kind, the tile counts with one more tile of it."""


_PICKLED = ("_cells", "_wood_beside_pot", "_open", "_counts", "_sides", "_green", "_pink")
"""A tree's slots in its pickle: all but the placement cache."""


def _unpickled_tree(version: Any, *fields: Any) -> Tree:
    """The tree :meth:`Tree.__reduce__` pickled; StateError if another version did. Keep
    this name and module: pickles name them, and another version's must reach the check."""
    if version != __version__ or len(fields) != len(_PICKLED):
        raise pickled_elsewhere("a bonsai Tree", version)
    tree = object.__new__(Tree)
    for name, value in zip(_PICKLED, fields, strict=True):
        setattr(tree, name, value)
    tree._placing = None
    return tree


def _checked_cells(cells: Any) -> dict[int, int]:
    """``cells`` as a dict ``{cell: kind index}`` holding the bud as wood and no pot cell."""
    if not isinstance(cells, Mapping):
        raise StateError(f"Tree: cells must map engine cells to kind indices, not {excerpt(cells)}")
    for cell, kind in cells.items():
        if not is_int(cell):
            raise StateError(f"Tree: a cell is an engine int (cell_of(q, r)), not {excerpt(cell)}")
        cell = int(cell)  # a numpy integer's (q, r) would wrap in its own type
        if max(map(abs, qr_of(cell))) > COORD_LIMIT:
            raise StateError(f"Tree: cell {cell} (q, r = {qr_of(cell)}) is too far from the pot")
        if cell != BUD and cell in POT_CELLS:
            raise StateError(f"Tree: cell {qr_of(cell)} is on the pot, where no tile may go")
        if not is_int(kind) or not 0 <= kind < len(KINDS):
            raise StateError(f"Tree: cell {qr_of(cell)} holds kind {excerpt(kind)}, not 0..3")
    if cells.get(BUD) != WOOD:
        raise StateError("Tree: cells must hold the bud (0, 0) as wood (0)")
    return {int(cell): int(kind) for cell, kind in cells.items()}  # numpy integers as ints


def _around(cells: Mapping[int, int], cell: int) -> set[int]:
    """The empty cells off the pot beside ``cell``."""
    return {c for c in map(cell.__add__, DIRECTIONS) if c not in cells and c not in POT_CELLS}


def _grow_wood(grown: Tree, parent: Open, cell: int, sides: int) -> Open:
    """Open cells after wood on ``cell``: wood and leaves may go beside it."""
    wood, leaf, flower, fruit = parent
    around = _around(grown._cells, cell)
    closed = {cell}
    return (
        (wood - closed) | around,
        (leaf - closed) | around,
        flower - closed if cell in flower else flower,
        fruit - closed if cell in fruit else fruit,
    )


def _grow_leaf(grown: Tree, parent: Open, cell: int, sides: int) -> Open:
    """Open cells after a leaf on ``cell``: flowers may go beside it, and fruit beside it
    and a leaf it touches (a new touching pair, which may also make a bigger group)."""
    wood, leaf, flower, fruit = parent
    cells = grown._cells
    around = _around(cells, cell)
    closed = {cell}
    get = cells.get
    ring = [get(cell + d) for d in DIRECTIONS]
    if LEAF in ring:  # a new touching pair (fruit), a bigger group maybe (green)
        fruit = fruit | _fruit_beside_new_leaf(cells, cell, ring, around)
        grown._green = max(grown._green, _leaf_group(cells, cell))
    else:
        grown._green = max(grown._green, 1)
    return (
        wood - closed if cell in wood else wood,
        leaf - closed,
        (flower - closed) | around,
        fruit - closed if cell in fruit else fruit,
    )


def _grow_flower(grown: Tree, parent: Open, cell: int, sides: int) -> Open:
    """Open cells after a flower on ``cell``: only that cell closes."""
    left, right = grown._pink
    grown._pink = (left + (1 if sides & LEFT else 0), right + (1 if sides & RIGHT else 0))
    closed = {cell}
    return tuple(  # type: ignore[return-value]
        cells - closed if cell in cells else cells for cells in parent
    )


def _grow_fruit(grown: Tree, parent: Open, cell: int, sides: int) -> Open:
    """Open cells after a fruit on ``cell``: no fruit may go beside it."""
    wood, leaf, flower, fruit = parent
    closed = {cell}
    d0, d1, d2, d3, d4, d5 = DIRECTIONS
    return (
        wood - closed if cell in wood else wood,
        leaf - closed if cell in leaf else leaf,
        flower - closed if cell in flower else flower,
        fruit - {cell, cell + d0, cell + d1, cell + d2, cell + d3, cell + d4, cell + d5},
    )


_GROW: tuple[Callable[[Tree, Open, int, int], Open], ...] = (
    _grow_wood,
    _grow_leaf,
    _grow_flower,
    _grow_fruit,
)
"""Per kind placed, the open cells of the grown tree from its parent's."""


def _fruit_beside_new_leaf(
    cells: Mapping[int, int], cell: int, ring: list[int | None], around: set[int]
) -> set[int]:
    """The empty cells beside a new leaf on ``cell`` that a fruit may now take: the two
    cells beside both it and another leaf it touches, with no fruit around them.
    ``ring`` holds the kinds around ``cell``, ``around`` its empty cells off the pot."""
    found: set[int] = set()
    for i, kind in enumerate(ring):
        if kind == LEAF:
            for side in (cell + DIRECTIONS[i - 1], cell + DIRECTIONS[i - 5]):
                if side in around and FRUIT not in [cells.get(side + d) for d in DIRECTIONS]:
                    found.add(side)
    return found


def _leaf_group(cells: Mapping[int, int], start: int) -> int:
    """The number of leaves in the group of touching leaves holding ``start``."""
    seen = {start}
    stack = [start]
    while stack:
        c = stack.pop()
        for d in DIRECTIONS:
            side = c + d
            if side not in seen and cells.get(side) == LEAF:
                seen.add(side)
                stack.append(side)
    return len(seen)


def _open_cells(cells: Mapping[int, int], wood_beside_pot: bool) -> Open:
    """Per kind, the empty cells off the pot where that kind may go."""
    frontier = {c + d for c in cells for d in DIRECTIONS} - cells.keys() - POT_CELLS
    if wood_beside_pot:
        frontier |= BESIDE_POT - cells.keys()
    found: tuple[list[int], list[int], list[int], list[int]] = ([], [], [], [])
    for c in frontier:
        for kind, allowed in enumerate(allowed_kinds(cells, c, wood_beside_pot)):
            if allowed:
                found[kind].append(c)
    return (frozenset(found[0]), frozenset(found[1]), frozenset(found[2]), frozenset(found[3]))


def _sides(cells: Mapping[int, int]) -> int:
    """The OR of the protrusion bits of ``cells``."""
    sides = 0
    for cell in cells:
        sides |= protrusion_bits(cell)
    return sides


def _counts(cells: Mapping[int, int]) -> tuple[int, int, int, int]:
    kinds = list(cells.values())
    return (kinds.count(WOOD), kinds.count(LEAF), kinds.count(FLOWER), kinds.count(FRUIT))


def _supported(cells: Mapping[int, int], cell: int, kind: int) -> bool:
    """Whether the flower or fruit on ``cell`` still has the leaves it needs."""
    around = [cells.get(cell + d) for d in DIRECTIONS]
    if kind == FLOWER:
        return LEAF in around
    return any(around[i] == LEAF and around[i - 1] == LEAF for i in range(6))


SEEDLINGS: Mapping[bool, Tree] = MappingProxyType(
    {beside: Tree({BUD: WOOD}, beside) for beside in (False, True)}
)
"""The bud alone, under each reading of where wood may start."""
