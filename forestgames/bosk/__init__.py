"""Bosk (Floodgate Games): trees scored by rows and columns in summer, leaves by terrain in winter.

Rules as implemented: docs/bosk.md. The scoring kernels work on numpy arrays
batched over any leading axes.
"""

from forestgames.bosk._tables import DEFAULT_TERRAIN, DIRECTIONS, SQUIRREL
from forestgames.bosk.moves import (
    BoskMove,
    ChooseTile,
    ChooseTree,
    ChooseWind,
    PlaceLeaf,
    PlaceSquirrel,
    PlantTree,
    parse_move,
)
from forestgames.bosk.render import render_terrain
from forestgames.bosk.rules import BoskGame
from forestgames.bosk.scoring import placement_points, plain_scores, summer_scores, winter_scores
from forestgames.bosk.state import BoskState, Phase
from forestgames.bosk.vector import VectorBosk

__all__ = [
    "DEFAULT_TERRAIN",
    "DIRECTIONS",
    "SQUIRREL",
    "BoskGame",
    "BoskMove",
    "BoskState",
    "ChooseTile",
    "ChooseTree",
    "ChooseWind",
    "Phase",
    "PlaceLeaf",
    "PlaceSquirrel",
    "PlantTree",
    "VectorBosk",
    "parse_move",
    "placement_points",
    "plain_scores",
    "render_terrain",
    "summer_scores",
    "winter_scores",
]
