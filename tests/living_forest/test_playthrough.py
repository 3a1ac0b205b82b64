"""Golden playthrough: a seeded random game's transcript, so any rules change shows as a diff.

Regenerate after an intended rules change with ``LF_GOLDEN_UPDATE=1 python -m pytest
tests/living_forest/test_golden.py`` and review the diff of the data file.
"""

import os
from pathlib import Path

import forestgames as fg
from tests.strategies import random_game

GOLDEN = Path(__file__).parent / "data" / "golden_3p_seed7.txt"


def transcript() -> str:
    """Every move of random game 7 (3 players, 4 turns), each turn's start and the end."""
    game = fg.make("living_forest", num_players=3, turn_limit=4)
    lines, turn = [], 0
    for state, move in random_game(game, 7):
        if state.turn != turn:
            turn = state.turn
            lines.append(f"== turn {turn}: sacred {state.sacred}, centre {list(state.centre)}")
        if move is None:
            lines.append(state.render())
        else:
            lines.append(str(move))
    return "\n".join(lines) + "\n"


def test_golden_playthrough():
    """Random game 7 replays move for move as recorded (deal, reshuffles, rules, render)."""
    text = transcript()
    if os.environ.get("LF_GOLDEN_UPDATE"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()
