"""The public card table of Living Forest: each card's level, cost and elements by name.

    import forestgames as fg
    fg.living_forest.CARDS["Wolf"]        # Card(name='Wolf', level='I', cost=5, ...)
    fg.living_forest.CARDS["Wolf"].describe()   # '5 sun: wind 2'

Built once at import from the same table the rules use (``data/living_forest_cards.csv``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from forestgames.living_forest._tables import (
    CARD_COST,
    CARD_ELEMENTS,
    CARD_LEVEL,
    CARD_NAMES,
    CARD_SYMBOL,
    ELEMENTS,
    LEVEL_NAMES,
)

__all__ = ["CARDS", "ELEMENT_SHORT", "Card"]

ELEMENT_SHORT: Mapping[str, str] = MappingProxyType({
    "sun": "Su", "water": "Wa", "plant": "Pl", "wind": "Wi", "flower": "Fl",
})  # fmt: skip
"""Two-letter element names of the compact card notation (``Bear Wa1 Pl2 *``)."""


class Card(NamedTuple):
    """One Guardian Animal (or start, or Fire Varan) card.

    ``level`` is ``"start"``, ``"I"``, ``"II"``, ``"III"`` or ``"varan"``;
    ``cost`` the sun an Attract spends on it (0 for start cards and the Fire
    Varan, which are never attracted); ``elements`` (sun, water, plant, wind,
    flower), possibly negative; ``symbol`` +1 solitary, -1 gregarious, 0 none.
    """

    name: str
    level: str
    cost: int
    elements: tuple[int, int, int, int, int]
    symbol: int

    @property
    def solitary(self) -> bool:
        """Whether the card shows a solitary symbol (it counts towards the Help Line's limit)."""
        return self.symbol > 0

    @property
    def gregarious(self) -> bool:
        """Whether the card shows a gregarious symbol (it cancels one solitary symbol)."""
        return self.symbol < 0

    def element_dict(self) -> dict[str, int]:
        """The card's non-zero elements by name."""
        return {name: n for name, n in zip(ELEMENTS, self.elements, strict=True) if n}

    def short(self) -> str:
        """Compact notation: name, cost in brackets, elements, ``*`` solitary, ``~`` gregarious
        (``Wolf[5] Wi2``, ``Bear Wa1 Pl2 *``)."""
        cost = f"[{self.cost}]" if self.cost else ""
        elements = " ".join(f"{ELEMENT_SHORT[k]}{n}" for k, n in self.element_dict().items())
        mark = "*" if self.solitary else "~" if self.gregarious else ""
        return " ".join(p for p in (f"{self.name}{cost}", elements, mark) if p)

    def describe(self) -> str:
        """Words: ``'5 sun: wind 2'``, ``'water 1, plant 2, solitary'``."""
        words = [f"{k} {n}" for k, n in self.element_dict().items()]
        if self.symbol:
            words.append("solitary" if self.solitary else "gregarious")
        body = ", ".join(words) or "no element"
        return f"{self.cost} sun: {body}" if self.cost else body


CARDS: Mapping[str, Card] = MappingProxyType(
    {
        name: Card(name, LEVEL_NAMES[CARD_LEVEL[c]], CARD_COST[c], CARD_ELEMENTS[c], CARD_SYMBOL[c])
        for c, name in enumerate(CARD_NAMES)
    }
)
"""Every card by name (read-only), in the order of the card table."""
