"""Lookup tables of Bonsai, built once at import: hex geometry, cards, goals, market.

Cells are pointy-top hexes in axial coordinates ``(q, r)``; ``r`` grows
downward, so the tree grows toward negative ``r``. Inside the engine a cell is
one int, ``cell = (q + 512) * 1024 + (r + 512)``, so a neighbour is ``cell + d``
for ``d`` in :data:`DIRECTIONS` (listed around the hex, each next to the
following one: two consecutive directions are two cells that touch)::

            NW(0,-1)  NE(+1,-1)
       W(-1,0)   (q,r)   E(+1,0)          x = q + r/2 (horizontal centre)
            SW(-1,+1) SE(0,+1)

The pot (15 cells, ``B`` the printed wood bud at (0, 0))::

    r=0   . . B . . .        q = -2..3
    r=1    . . . . .         q = -2..2
    r=2     . . . .          q = -2..1
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from enum import IntEnum, StrEnum
from types import MappingProxyType
from typing import NamedTuple

from forestgames.core import _data_text, as_int

__all__ = [
    "BASE_STORAGE",
    "BUD",
    "CARD_NAMES",
    "CARD_TYPES",
    "COLOURS",
    "DIRECTIONS",
    "FLOWER",
    "FRUIT",
    "GOALS",
    "GROWTH_CARDS",
    "HELPER_SYMBOLS",
    "KINDS",
    "LEAF",
    "MARKET_SIZE",
    "MASTER_TILES",
    "MAX_GAIN",
    "POT_CELLS",
    "SEISHI_SYMBOLS",
    "SLOT_TILES",
    "SOLO_STARTING_TILES",
    "SOLO_TARGETS",
    "STARTING_TILES",
    "TILE_POINTS",
    "TOOL_CARD",
    "TOOL_STORAGE",
    "WOOD",
    "CardType",
    "Goal",
    "Tile",
    "cell_of",
    "deck_counts",
    "protrusion_bits",
    "qr_of",
]


class Tile(StrEnum):
    """A bonsai tile kind; equal to its name, so ``Tile.LEAF == "leaf"``."""

    WOOD = "wood"
    LEAF = "leaf"
    FLOWER = "flower"
    FRUIT = "fruit"


KINDS: tuple[Tile, ...] = tuple(Tile)
"""Kinds by engine index: 0 wood, 1 leaf, 2 flower, 3 fruit."""
WOOD, LEAF, FLOWER, FRUIT = 0, 1, 2, 3
KIND_INDEX: Mapping[str, int] = MappingProxyType({kind.value: i for i, kind in enumerate(KINDS)})
WILD = 4
"""Index of the wild symbol in a symbols tuple ``(wood, leaf, flower, fruit, wild)``."""

# ---------------------------------------------------------------------- geometry

_OFFSET, _STRIDE = 512, 1024


def cell_of(q: int, r: int) -> int:
    """The engine's int for cell ``(q, r)``."""
    return (q + _OFFSET) * _STRIDE + (r + _OFFSET)


def qr_of(cell: int) -> tuple[int, int]:
    """The ``(q, r)`` of an engine cell."""
    q, r = divmod(cell, _STRIDE)
    return (q - _OFFSET, r - _OFFSET)


COORD_LIMIT = _OFFSET - 2
"""Largest |q| or |r| a cell may have (far beyond any tree a game can grow)."""

DIRECTIONS: tuple[int, ...] = tuple(
    cell_of(dq, dr) - cell_of(0, 0)
    for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
)
"""E, NE, NW, W, SW, SE as cell offsets: consecutive entries are touching cells."""

POT_QR: tuple[tuple[int, int], ...] = tuple(
    (q, r)
    for r, (low, high) in enumerate(((-2, 3), (-2, 2), (-2, 1)))
    for q in range(low, high + 1)
)
POT_CELLS: frozenset[int] = frozenset(cell_of(q, r) for q, r in POT_QR)
BUD = cell_of(0, 0)
BESIDE_POT: frozenset[int] = frozenset(
    c + d for c in POT_CELLS for d in DIRECTIONS if c + d not in POT_CELLS
)
"""Cells outside the pot touching it (where wood may go with ``wood_beside_pot``)."""


def protrudes(q: int, r: int) -> tuple[bool, bool, bool]:
    """Whether cell ``(q, r)`` protrudes (left, right, below) the pot: x ≤ −2, x ≥ 3, r ≥ 2."""
    twice_x = 2 * q + r
    return (twice_x <= -4, twice_x >= 6, r >= 2)


LEFT, RIGHT, BELOW_LEFT, BELOW_RIGHT = 1, 2, 4, 8
"""Protrusion bits of a cell (see :func:`protrusion_bits`)."""


def protrusion_bits(cell: int) -> int:
    """The protrusion bits of engine ``cell``: LEFT, RIGHT, and BELOW_* when also below
    (the arithmetic of :func:`protrudes` on the engine's int)."""
    r = (cell & (_STRIDE - 1)) - _OFFSET
    twice_x = 2 * (cell // _STRIDE - _OFFSET) + r
    bits = (LEFT if twice_x <= -4 else 0) | (RIGHT if twice_x >= 6 else 0)
    return bits | bits << 2 if r >= 2 else bits


# ---------------------------------------------------------------------- cards


class CardKind(IntEnum):
    TOOL = 0
    GROWTH = 1
    MASTER = 2
    HELPER = 3
    PARCHMENT = 4


class CardType(NamedTuple):
    """One kind of Zen card (copies are identical, so a card is its type).

    ``tiles``: per kind index the tiles it gives or shows (Master: tiles taken;
    Growth: the extra symbol; Helper: the shown type), ``wild`` its wild tiles
    or symbols. ``parchment``: what a Parchment counts (a tile kind name or a
    card kind name) and ``per`` the points per item.
    """

    name: str
    kind: CardKind
    tiles: tuple[int, int, int, int]
    wild: int
    parchment: str
    per: int
    copies: tuple[int, int, int]  # in every game, added with 3+ players, added with 4


def _tiles_of(words: list[str]) -> tuple[tuple[int, int, int, int], int]:
    counts = [0, 0, 0, 0]
    wild = 0
    for word in words:
        if word == "wild":
            wild += 1
        else:
            counts[KIND_INDEX[word]] += 1
    return (counts[0], counts[1], counts[2], counts[3]), wild


def _load_cards() -> tuple[CardType, ...]:
    text = _data_text("forestgames.bonsai", "data/bonsai_cards.csv")
    cards = []
    for row in csv.DictReader(text.splitlines()):
        kind = CardKind[row["type"].upper()]
        detail = row["detail"]
        copies = (int(row["copies_any_count"]), int(row["copies_3plus"]), int(row["copies_4only"]))
        tiles, wild, parchment, per = (0, 0, 0, 0), 0, "", 0
        if kind is CardKind.TOOL:
            name = "tool"
        elif kind is CardKind.PARCHMENT:
            points, _, what, *_ = detail.split()
            parchment, per = what, int(points)
            name = f"parchment:{what}"
        else:
            tiles, wild = _tiles_of(detail.split("+"))
            name = f"{kind.name.lower()}:{detail}"
        cards.append(CardType(name, kind, tiles, wild, parchment, per, copies))
    return tuple(cards)


CARD_TYPES: tuple[CardType, ...] = _load_cards()
"""The 25 kinds of Zen card, in the order of ``data/bonsai_cards.csv``; a card is its index."""
CARD_NAMES: Mapping[str, int] = MappingProxyType(
    {card.name: i for i, card in enumerate(CARD_TYPES)}
)


def deck_counts(num_players: int) -> tuple[int, ...]:
    """Copies of each card type in a game of ``num_players`` 1..4 (solo uses the 2-player
    deck); ConfigError for another count."""
    num_players = as_int(num_players, "deck_counts: num_players", 1, 4)
    return tuple(
        c.copies[0]
        + (c.copies[1] if num_players >= 3 else 0)
        + (c.copies[2] if num_players >= 4 else 0)
        for c in CARD_TYPES
    )


DECKS: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {p: tuple(c for c, n in enumerate(deck_counts(p)) for _ in range(n)) for p in (1, 2, 3, 4)}
)
"""The unshuffled deck (card types in table order) for each player count."""

TOOL_STORAGE = 2
BASE_STORAGE = 5
SEISHI_SYMBOLS: tuple[int, int, int, int, int] = (1, 1, 0, 0, 1)
"""Cultivate allowance of the Seishi tile: 1 wood, 1 leaf, 1 wild."""

TOOL_CARD = CARD_NAMES["tool"]
"""The Tool card type (storage +2 for good)."""
GROWTH_CARDS: tuple[int, int, int, int] = tuple(  # type: ignore[assignment]
    CARD_NAMES[f"growth:{kind}"] for kind in KINDS
)
"""The Growth card type of each kind (wood, leaf, flower, fruit): +1 symbol of it."""
HELPER_SYMBOLS: Mapping[int, tuple[int, int, int, int, int]] = MappingProxyType(
    {c: (*card.tiles, 1) for c, card in enumerate(CARD_TYPES) if card.kind is CardKind.HELPER}
)
"""Per Helper card type, the placements it allows at once: its shown kind and one wild."""
MASTER_TILES: tuple[int, ...] = tuple(
    sum(card.tiles) + card.wild if card.kind is CardKind.MASTER else 0 for card in CARD_TYPES
)
"""Per card type, the tiles taking it gives (Masters; a wild tile is one of them)."""

# ---------------------------------------------------------------------- market and setup

MARKET_SIZE = 4
SLOT_TILES: tuple[tuple[int, int, int, int], ...] = (
    (0, 0, 0, 0),
    (0, 0, 0, 0),
    (1, 0, 1, 0),
    (0, 1, 0, 1),
)
"""Tiles taken with the card of slot 1..4 (index 0..3); slot 2 adds 1 wood or 1 leaf, the
player's choice."""
SLOT_CHOICE = 2
"""The slot whose tile (wood or leaf) the player chooses."""
MAX_SLOT_TILES = 2
"""The most tiles a market slot gives with its card (slots 3 and 4)."""
MAX_GAIN = MAX_SLOT_TILES + max(MASTER_TILES)
"""The most tiles one Meditate gives (slot 3 or 4 with a three-tile Master)."""

STARTING_TILES: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 0),
    (1, 1, 0, 0),
    (1, 1, 1, 0),
    (1, 1, 1, 1),
)
"""Starting supply by position in turn order (1st, 2nd, 3rd, 4th)."""
SOLO_STARTING_TILES = (1, 1, 0, 0)
SOLO_TARGETS: Mapping[int, int] = MappingProxyType({1: 80, 2: 100, 3: 120, 4: 140})
"""Points a solo player needs (with 3 goals) at each difficulty."""

TILE_POINTS = (0, 3, 0, 7)
"""Points per wood, leaf, flower (0 here: flowers score their free sides), fruit."""

# ---------------------------------------------------------------------- goals

COLOURS: tuple[str, ...] = ("brown", "green", "orange", "pink", "blue")
"""Goal colours; each colour's measure is in ``forestgames.bonsai.scoring.goal_measures``."""


class Goal(NamedTuple):
    """A goal tile: met when the colour's measure reaches ``threshold``."""

    colour: str
    tier: int  # 1 small, 2 medium, 3 large
    threshold: int
    points: int

    @property
    def name(self) -> str:
        return f"{self.colour} {self.tier}"


_GOAL_DATA = {
    "brown": ((8, 5), (10, 10), (12, 15)),
    "green": ((5, 6), (7, 9), (9, 12)),
    "orange": ((3, 9), (4, 11), (5, 13)),
    "pink": ((3, 8), (4, 12), (5, 16)),
    "blue": ((1, 7), (2, 10), (3, 14)),
}
GOALS: tuple[Goal, ...] = tuple(
    Goal(colour, tier + 1, threshold, points)
    for colour in COLOURS
    for tier, (threshold, points) in enumerate(_GOAL_DATA[colour])
)
"""The 15 goal tiles; goal id = colour index * 3 + tier - 1."""
GOAL_IDS: Mapping[tuple[str, int], int] = MappingProxyType(
    {(g.colour, g.tier): i for i, g in enumerate(GOALS)}
)
ALL_GOALS_MASK = (1 << len(GOALS)) - 1
