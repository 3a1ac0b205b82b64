"""Living Forest (Ludonaute): Spirits of nature save the forest from Onibi.

Rules as implemented: docs/living_forest.md. The card data ships as package
data (``data/living_forest_cards.csv``); ``decide_winners`` is the pure rule
the game uses to name its winners.
"""

from forestgames.living_forest._tables import (
    ACTIONS,
    CARD_NAMES,
    ELEMENTS,
    TREE_NAMES,
    VICTORY_KINDS,
)
from forestgames.living_forest.cards import CARDS, Card
from forestgames.living_forest.moves import (
    Attract,
    Done,
    Extinguish,
    LivingForestMove,
    MoveSpirit,
    Plant,
    Reveal,
    SpendFragment,
    Stop,
    TakeFragment,
    TakeVictory,
    parse_move,
)
from forestgames.living_forest.rules import LivingForestGame
from forestgames.living_forest.scoring import (
    decide_winners,
    element_totals,
    forest_bonus,
    limit_winners,
    progress_of,
    solitary_count,
    tree_count,
)
from forestgames.living_forest.state import LivingForestState, Phase, Step

__all__ = [
    "ACTIONS",
    "CARDS",
    "CARD_NAMES",
    "ELEMENTS",
    "TREE_NAMES",
    "VICTORY_KINDS",
    "Attract",
    "Card",
    "Done",
    "Extinguish",
    "LivingForestGame",
    "LivingForestMove",
    "LivingForestState",
    "MoveSpirit",
    "Phase",
    "Plant",
    "Reveal",
    "SpendFragment",
    "Step",
    "Stop",
    "TakeFragment",
    "TakeVictory",
    "decide_winners",
    "element_totals",
    "forest_bonus",
    "limit_winners",
    "parse_move",
    "progress_of",
    "solitary_count",
    "tree_count",
]
