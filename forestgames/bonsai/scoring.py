"""Bonsai's pure rule functions: where a tile may go, what a tree scores, goal measures.

The game uses these very functions (one source of truth); users may call the
public ones on any tree written as a dict ``{(q, r): kind}``:

>>> tiles = {(0, -1): "wood", (1, -2): "leaf", (0, -2): "leaf", (1, -3): "flower"}
>>> tree_points(tiles)  # two leaves 3 + 3, the flower's 4 free sides
10
>>> can_place(tiles, (-1, -1), "leaf")  # beside the wood
True
>>> can_place(tiles, (-1, -2), "fruit")  # beside one leaf only
False

Inside the engine a tree is a dict ``{cell: kind index}`` (see ``_tables``)
that always holds the bud; the kernels below take that form. They are the
engine's internals, unchecked for speed and not part of the API (they are not in
``__all__``): call the public functions above, which check their input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forestgames.bonsai._tables import (
    BELOW_LEFT,
    BELOW_RIGHT,
    BESIDE_POT,
    BUD,
    CARD_TYPES,
    COORD_LIMIT,
    DIRECTIONS,
    FLOWER,
    FRUIT,
    GOALS,
    KIND_INDEX,
    KINDS,
    LEAF,
    LEFT,
    POT_CELLS,
    RIGHT,
    TILE_POINTS,
    WOOD,
    CardKind,
    cell_of,
    protrusion_bits,
)
from forestgames.core import StateError, as_bool, as_pair, excerpt

__all__ = [
    "BLUE_LEVEL",
    "can_place",
    "goal_measures",
    "tree_points",
]

Cells = Mapping[int, int]

HAS_TOUCHING_PAIR: tuple[bool, ...] = tuple(
    bool(m & ((m << 1 | m >> 5) & 0b111111)) for m in range(64)
)
"""For a 6-bit mask of the sides holding a leaf (bit i = DIRECTIONS[i]): two of them touch."""

# ---------------------------------------------------------------------- kernels (engine form)


def cell_allows(cells: Cells, cell: int, kind: int, wood_beside_pot: bool = False) -> bool:
    """Whether a ``kind`` tile may go on ``cell`` of tree ``cells`` (see :func:`allowed_kinds`)."""
    if cell in cells or cell in POT_CELLS:
        return False
    return allowed_kinds(cells, cell, wood_beside_pot)[kind]


def allowed_kinds(
    cells: Cells, cell: int, wood_beside_pot: bool = False
) -> tuple[bool, bool, bool, bool]:
    """Which kinds (wood, leaf, flower, fruit) the placement rule lets go on empty ``cell``.

    Wood touches wood (the bud counts; with ``wood_beside_pot`` any cell beside
    the pot also does); a leaf touches wood; a flower touches a leaf; a fruit
    touches two leaves that touch each other and no other fruit. The caller
    checks that ``cell`` is neither on the pot nor taken.
    """
    get = cells.get
    d0, d1, d2, d3, d4, d5 = DIRECTIONS
    around = (
        get(cell + d0),
        get(cell + d1),
        get(cell + d2),
        get(cell + d3),
        get(cell + d4),
        get(cell + d5),
    )
    wood = WOOD in around
    leaf = LEAF in around
    fruit = leaf and FRUIT not in around and HAS_TOUCHING_PAIR[
        (around[0] == LEAF) | (around[1] == LEAF) << 1 | (around[2] == LEAF) << 2
        | (around[3] == LEAF) << 3 | (around[4] == LEAF) << 4 | (around[5] == LEAF) << 5
    ]  # fmt: skip
    return (wood or (wood_beside_pot and cell in BESIDE_POT), wood, leaf, fruit)


def flower_free_sides(cells: Cells, cell: int, pot_sides_free: bool = True) -> int:
    """Sides of the flower on ``cell`` touching no tile (pot cells free if ``pot_sides_free``)."""
    free = 0
    for d in DIRECTIONS:
        side = cell + d
        if side in cells:
            continue
        if side in POT_CELLS and not pot_sides_free:
            continue
        free += 1
    return free


def points_of(cells: Cells, pot_sides_free: bool = True) -> int:
    """Points of a tree: leaf 3, fruit 7, flower 1 per free side, wood 0."""
    total = 0
    for cell, kind in cells.items():
        if kind == FLOWER:
            total += flower_free_sides(cells, cell, pot_sides_free)
        else:
            total += TILE_POINTS[kind]
    return total


def largest_leaf_group(cells: Cells) -> int:
    """Size of the largest group of leaves each touching another of the group."""
    leaves = {c for c, k in cells.items() if k == LEAF}
    best = 0
    while leaves:
        stack = [leaves.pop()]
        size = 0
        while stack:
            c = stack.pop()
            size += 1
            for d in DIRECTIONS:
                if c + d in leaves:
                    leaves.remove(c + d)
                    stack.append(c + d)
        best = max(best, size)
    return best


BLUE_LEVEL: tuple[int, ...] = tuple(
    0 if not m & RIGHT else 1 if not m & LEFT else 3 if m & (BELOW_LEFT | BELOW_RIGHT) else 2
    for m in range(16)
)
"""The blue measure of a tree from the OR of its cells' protrusion bits (``protrusion_bits``)."""


def flowers_protruding(cells: Cells) -> tuple[int, int]:
    """How many flowers protrude left, and how many right."""
    left = right = 0
    for cell, kind in cells.items():
        if kind == FLOWER:
            sides = protrusion_bits(cell)
            left += 1 if sides & LEFT else 0
            right += 1 if sides & RIGHT else 0
    return left, right


def measures_of(cells: Cells) -> tuple[int, int, int, int, int]:
    """Per goal colour (brown, green, orange, pink, blue) the measure its thresholds apply to.

    brown: wood tiles, bud included; green: the largest leaf group; orange:
    fruits; pink: the most flowers protruding on one same side (left or right);
    blue: 0..3, the hardest blue goal the tree meets (1: a tile protruding right,
    the gold crack's side; 2: tiles protruding left and right; 3: a tile
    protruding on one side and a tile below the pot protruding on the other).
    """
    kinds = list(cells.values())
    sides = 0
    for cell in cells:
        sides |= protrusion_bits(cell)
    return (
        kinds.count(WOOD),
        largest_leaf_group(cells),
        kinds.count(FRUIT),
        max(flowers_protruding(cells)),
        BLUE_LEVEL[sides],
    )


def parchment_points(card: int, tile_counts: tuple[int, ...], cards: tuple[int, ...]) -> int:
    """End points of Parchment card type ``card`` for a tree with ``tile_counts`` (wood, leaf,
    flower, fruit; bud included) and the held card types ``cards``."""
    parchment = CARD_TYPES[card]
    if parchment.parchment in KIND_INDEX:
        return parchment.per * tile_counts[KIND_INDEX[parchment.parchment]]
    kind = CardKind[parchment.parchment.upper()]
    return parchment.per * sum(1 for c in cards if CARD_TYPES[c].kind is kind)


def parchments_points(tile_counts: tuple[int, ...], cards: tuple[int, ...]) -> int:
    """End points of every Parchment among the held card types ``cards``."""
    return sum(
        parchment_points(c, tile_counts, cards)
        for c in cards
        if CARD_TYPES[c].kind is CardKind.PARCHMENT
    )


def goal_points(goal_owner: tuple[int, ...], player: int) -> int:
    """Points of the goal tiles ``player`` holds (``goal_owner``: the seat per goal id)."""
    return sum(GOALS[g].points for g, owner in enumerate(goal_owner) if owner == player)


# ---------------------------------------------------------------------- public form


def _kind_index(kind: Any, what: str) -> int:
    index = KIND_INDEX.get(kind) if isinstance(kind, str) else None
    if index is None:
        raise StateError(f"{what}: a tile kind is one of {', '.join(KINDS)}, not {excerpt(kind)}")
    return index


def _cell(at: Any, what: str) -> int:
    if isinstance(at, tuple):
        at = as_pair(at)  # numpy integers as ints (a list stays refused)
    if (
        not isinstance(at, tuple)
        or len(at) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in at)
    ):
        raise StateError(f"{what}: a cell is a (q, r) tuple of ints, not {excerpt(at)}")
    if max(abs(at[0]), abs(at[1])) > COORD_LIMIT:
        raise StateError(f"{what}: cell {at} is too far from the pot")
    return cell_of(*at)


def cells_from_tiles(tiles: Mapping[Any, Any]) -> dict[int, int]:
    """The engine form of a ``{(q, r): kind}`` tree; the bud is added; StateError if malformed."""
    if not isinstance(tiles, Mapping):
        raise StateError(f"tiles must map (q, r) to a kind, not {type(tiles).__name__}")
    cells = {BUD: WOOD}
    for at, kind in tiles.items():
        cell = _cell(at, "tiles")
        index = _kind_index(kind, f"tile at {at}")
        if cell == BUD:
            if index != WOOD:
                raise StateError(f"the bud at (0, 0) is wood, not {kind}")
        elif cell in POT_CELLS:
            raise StateError(f"tile at {at}: no tile may go on the pot")
        cells[cell] = index
    return cells


def tree_points(tiles: Mapping[Any, Any], pot_sides_free: bool = True) -> int:
    """Points of one tree ``{(q, r): "wood" | "leaf" | "flower" | "fruit"}``: leaves 3,
    fruit 7, each flower 1 per side touching no tile (pot cells count as free
    unless ``pot_sides_free`` is False); wood 0. Goals and Parchments not included."""
    return points_of(cells_from_tiles(tiles), as_bool(pot_sides_free, "pot_sides_free"))


def goal_measures(tiles: Mapping[Any, Any]) -> tuple[int, int, int, int, int]:
    """Per goal colour (brown, green, orange, pink, blue) the measure of tree ``tiles`` its
    thresholds apply to (see :func:`measures_of`)."""
    return measures_of(cells_from_tiles(tiles))


def can_place(
    tiles: Mapping[Any, Any], at: tuple[int, int], kind: Any, wood_beside_pot: bool = False
) -> bool:
    """Whether the placement rule lets a ``kind`` tile go on ``at`` of tree ``tiles``."""
    beside = as_bool(wood_beside_pot, "wood_beside_pot")
    return cell_allows(cells_from_tiles(tiles), _cell(at, "at"), _kind_index(kind, "kind"), beside)
