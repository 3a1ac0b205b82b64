"""Lookup tables of Living Forest, built once at import: cards, trees, forest, circle.

Cards are ints: the row of ``data/living_forest_cards.csv`` (0..65). A card id
stands for every copy of that card (the 14 start cards come once per Spirit,
the Fire Varan 23 times). Element vectors are ``(sun, water, plant, wind, flower)``.

The Forest board is 5 columns × 3 rows, cells numbered row-major::

          col 0  col 1  col 2  col 3  col 4
    row 0    0      1      2      3      4        corners 0, 4, 10, 14
    row 1    5      6      7      8      9        7 = the starting tree
    row 2   10     11     12     13     14

The Circle of Spirits has 12 rocks, 0..11 clockwise, with the bonus actions
``ROCK_BONUS[rock]``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from types import MappingProxyType

from forestgames.core import _data_text

__all__ = [
    "ACTIONS",
    "ATTRACT",
    "CARD_COST",
    "CARD_ELEMENTS",
    "CARD_INDEX",
    "CARD_LEVEL",
    "CARD_NAMES",
    "CARD_SYMBOL",
    "CENTRE_LIMIT",
    "CORNER_EXTRA",
    "CORNER_FRAGMENTS",
    "DEFAULT_FIRE_TILES",
    "ELEMENTS",
    "EXTINGUISH",
    "FIRE_OF_LEVEL",
    "FIRE_VALUES",
    "FLOWER",
    "FOREST_CELLS",
    "FOREST_COLS",
    "FOREST_ROWS",
    "FRAGMENT",
    "FRAGMENT_SUPPLY",
    "GOAL",
    "LEVEL_CARDS",
    "LEVEL_NAMES",
    "LINE_BONUSES",
    "MOVE",
    "NEIGHBOURS",
    "PLANT",
    "PLANT_ACTION",
    "ROCKS",
    "ROCK_BONUS",
    "ROW_SIZE",
    "SAME_ACTION_TREE",
    "SOLITARY_CARDS",
    "SOLITARY_LIMIT",
    "START_CELL",
    "START_DECK",
    "START_ROCKS",
    "START_TREE",
    "SUN",
    "TREE_BONUS",
    "TREE_COPIES",
    "TREE_COST",
    "TREE_INDEX",
    "TREE_NAMES",
    "VARAN",
    "VARAN_COPIES",
    "VICTORY_KINDS",
    "WATER",
    "WIND",
]  # fmt: skip

# --------------------------------------------------------------------------- elements

ELEMENTS: tuple[str, ...] = ("sun", "water", "plant", "wind", "flower")
SUN, WATER, PLANT, WIND, FLOWER = range(5)

# --------------------------------------------------------------------------- cards

LEVEL_NAMES: tuple[str, ...] = ("start", "I", "II", "III", "varan")
"""Card levels by code: 0 start deck, 1..3 reserve levels, 4 the Fire Varan."""
FIRE_OF_LEVEL: Mapping[int, int] = MappingProxyType({1: 2, 2: 3, 3: 4})
"""Value of the fire added at end of turn for each reserve card taken, by level."""


def _load_cards() -> list[dict[str, str]]:
    text = _data_text("forestgames.living_forest", "data/living_forest_cards.csv")
    return list(csv.DictReader(io.StringIO(text)))


_ROWS = _load_cards()
CARD_NAMES: tuple[str, ...] = tuple(row["name"] for row in _ROWS)
CARD_INDEX: Mapping[str, int] = MappingProxyType({name: i for i, name in enumerate(CARD_NAMES)})
CARD_LEVEL: tuple[int, ...] = tuple(LEVEL_NAMES.index(row["level"]) for row in _ROWS)
CARD_COST: tuple[int, ...] = tuple(int(row["cost_sun"] or 0) for row in _ROWS)
CARD_ELEMENTS: tuple[tuple[int, int, int, int, int], ...] = tuple(
    (int(r["sun"]), int(r["water"]), int(r["plant"]), int(r["wind"]), int(r["flower"]))
    for r in _ROWS
)
CARD_SYMBOL: tuple[int, ...] = tuple({"S": 1, "G": -1, "-": 0}[row["symbol"]] for row in _ROWS)
"""+1 solitary symbol, -1 gregarious symbol (cancels one solitary), 0 none."""
SOLITARY_CARDS: frozenset[int] = frozenset(c for c, s in enumerate(CARD_SYMBOL) if s == 1)
VARAN: int = CARD_INDEX["FireVaran"]
START_DECK: tuple[int, ...] = tuple(c for c, lv in enumerate(CARD_LEVEL) if lv == 0)
LEVEL_CARDS: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {lv: tuple(c for c, x in enumerate(CARD_LEVEL) if x == lv) for lv in (1, 2, 3)}
)

VARAN_COPIES = 23
FRAGMENT_SUPPLY = 20
DEFAULT_FIRE_TILES: tuple[int, int, int] = (20, 20, 18)
"""Fire tiles of value 2, 3, 4 (58 in all; the split is our choice)."""
FIRE_VALUES: tuple[int, ...] = (2, 3, 4)
CENTRE_LIMIT = 7
ROW_SIZE = 4
GOAL = 12
SOLITARY_LIMIT = 3

# --------------------------------------------------------------------------- trees

TREE_NAMES: tuple[str, ...] = (
    "start", "3A", "3B", "4A", "4B", "5A", "5B", "6", "7", "8", "9", "10", "11",
)  # fmt: skip
TREE_INDEX: Mapping[str, int] = MappingProxyType({name: i for i, name in enumerate(TREE_NAMES)})
START_TREE = 0
SAME_ACTION_TREE = TREE_INDEX["11"]
TREE_COST: tuple[int, ...] = (0, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 11)


def _bonus(**elements: int) -> tuple[int, int, int, int, int]:
    return tuple(elements.get(name, 0) for name in ELEMENTS)  # type: ignore[return-value]


TREE_BONUS: tuple[tuple[int, int, int, int, int], ...] = (
    _bonus(), _bonus(sun=1), _bonus(water=1), _bonus(wind=1), _bonus(flower=1),
    _bonus(sun=2), _bonus(plant=1), _bonus(water=2), _bonus(wind=2), _bonus(water=3),
    _bonus(flower=2), _bonus(sun=4), _bonus(),
)  # fmt: skip
TREE_COPIES: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {
        2: (0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2),
        3: (0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2),
        4: (0, 4, 4, 4, 4, 4, 4, 3, 3, 3, 2, 2, 2),
    }
)
"""Copies of each tree type in the supply by player count (the start trees are apart)."""

# --------------------------------------------------------------------------- forest board

FOREST_ROWS, FOREST_COLS = 3, 5
FOREST_CELLS = FOREST_ROWS * FOREST_COLS
START_CELL = 1 * FOREST_COLS + 2


def _neighbours(cell: int) -> tuple[int, ...]:
    r, c = divmod(cell, FOREST_COLS)
    near = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
    return tuple(
        a * FOREST_COLS + b for a, b in near if 0 <= a < FOREST_ROWS and 0 <= b < FOREST_COLS
    )


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(c) for c in range(FOREST_CELLS))
CORNER_FRAGMENTS: Mapping[int, int] = MappingProxyType({4: 2, 10: 2})
"""Top-right and bottom-left corners: Fragments taken when a tree is planted there."""

# --------------------------------------------------------------------------- actions, circle

ACTIONS: tuple[str, ...] = ("fragment", "attract", "extinguish", "move", "plant")
FRAGMENT, ATTRACT, EXTINGUISH, MOVE, PLANT_ACTION = range(5)

CORNER_EXTRA: Mapping[int, tuple[int, int]] = MappingProxyType(
    {0: (ATTRACT, 3), 14: (EXTINGUISH, 2)}
)
"""Top-left: an extra Attract with +3 sun; bottom-right: an extra Extinguish with +2 water."""
LINE_BONUSES: tuple[tuple[tuple[int, ...], tuple[int, int, int, int, int]], ...] = (
    ((1, 6, 11), _bonus(water=1)),
    ((2, 7, 12), _bonus(sun=1)),
    ((3, 8, 13), _bonus(wind=1)),
    ((5, 6, 7, 8, 9), _bonus(flower=2)),
)
"""Permanent bonuses of full lines: columns 1, 2, 3 and the middle row."""

ROCKS = 12
ROCK_BONUS: tuple[int, ...] = (
    PLANT_ACTION, FRAGMENT, ATTRACT, FRAGMENT, EXTINGUISH, FRAGMENT,
) * 2  # fmt: skip
START_ROCKS: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {2: (0, 6), 3: (2, 6, 10), 4: (0, 6, 9, 3)}
)
"""Starting rocks of the Spirits in turn order from the first player."""

VICTORY_KINDS: tuple[str, ...] = ("tree", "fire", "flower")
"""Victory tile kinds, in the order of the progress triple (trees, fires, flowers)."""
