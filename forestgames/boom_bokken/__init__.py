"""Boom Bokken (Playad Games): pass the bomb with "higher" or "lower", in teams, for 4–9 players.

Rules as implemented: docs/boom_bokken.md. Out-of-turn play (Flash, Temps Mort,
the Expert Gardien) means several seats may act at once: see
``forestgames.boom_bokken.state`` for how a driver should give them their chance.
"""

from forestgames.boom_bokken._tables import (
    CARD_NAMES,
    COGNEUR,
    COUREUR,
    DEFAULT_DECK,
    GARDIEN,
    TEAM_SIZES,
)
from forestgames.boom_bokken.moves import Boom, BoomBokkenMove, Play, TimeOut, parse_move
from forestgames.boom_bokken.render import render_svg, render_text
from forestgames.boom_bokken.rules import BoomBokkenGame
from forestgames.boom_bokken.scoring import decide_winners, final_scores, round_coins
from forestgames.boom_bokken.state import BoomBokkenState

__all__ = [
    "CARD_NAMES",
    "COGNEUR",
    "COUREUR",
    "DEFAULT_DECK",
    "GARDIEN",
    "TEAM_SIZES",
    "Boom",
    "BoomBokkenGame",
    "BoomBokkenMove",
    "BoomBokkenState",
    "Play",
    "TimeOut",
    "decide_winners",
    "final_scores",
    "parse_move",
    "render_svg",
    "render_text",
    "round_coins",
]
