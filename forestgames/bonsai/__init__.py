"""Bonsai: grow a bonsai of wood, leaf, flower and fruit tiles, 1 to 4 players.

Rules as implemented: docs/bonsai.md. The pure rule functions
:func:`tree_points` and :func:`can_place` wrap the very kernels the game uses
(``scoring.points_of`` and ``scoring.allowed_kinds``): one source of truth.
"""

from forestgames.bonsai._tables import (
    CARD_TYPES,
    COLOURS,
    GOALS,
    KINDS,
    POT_QR,
    SOLO_TARGETS,
    Tile,
    deck_counts,
)
from forestgames.bonsai.moves import (
    BonsaiMove,
    ClaimGoal,
    Discard,
    Finish,
    Meditate,
    Place,
    Prune,
    RenounceGoal,
    parse_move,
)
from forestgames.bonsai.render import render_tree, tree_svg
from forestgames.bonsai.rules import BonsaiGame
from forestgames.bonsai.scoring import can_place, goal_measures, tree_points
from forestgames.bonsai.state import BonsaiState, Phase
from forestgames.bonsai.tree import Tree

__all__ = [
    "CARD_TYPES",
    "COLOURS",
    "GOALS",
    "KINDS",
    "POT_QR",
    "SOLO_TARGETS",
    "BonsaiGame",
    "BonsaiMove",
    "BonsaiState",
    "ClaimGoal",
    "Discard",
    "Finish",
    "Meditate",
    "Phase",
    "Place",
    "Prune",
    "RenounceGoal",
    "Tile",
    "Tree",
    "can_place",
    "deck_counts",
    "goal_measures",
    "parse_move",
    "render_tree",
    "tree_points",
    "tree_svg",
]
