"""Draw the pictures of the docs (docs/img/<game>.svg) from seeded games.

    python docs/make_pictures.py      # rewrites docs/img/*.svg

tests/test_pictures.py checks that the committed files are what this script draws,
so a change to a picture shows as a diff of these files.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import forestgames as fg

IMG = Path(__file__).resolve().parent / "img"


def _position(name: str, players: int, seed: int, moves: int) -> fg.core.State:
    """The position after ``moves`` random legal moves (or the end) of the game seeded ``seed``."""
    state = fg.make(name, num_players=players).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        seats = state.players_to_act
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        state = state.apply(rng.choice(state.legal_moves(seat)))
    return state


PICTURES: dict[Path, Callable[[], str]] = {
    IMG / "bosk.svg": lambda: _position("bosk", 2, 3, 75).to_svg() + "\n",
    IMG / "bonsai.svg": lambda: _position("bonsai", 2, 3, 70).to_svg() + "\n",
    IMG / "living_forest.svg": lambda: _position("living_forest", 2, 3, 150).to_svg(0) + "\n",
    IMG / "boom_bokken.svg": lambda: _position("boom_bokken", 5, 3, 9).to_svg(0) + "\n",
}
"""Each picture of the docs and how it is drawn (seat 0's view where cards are hidden)."""


if __name__ == "__main__":
    for path, draw in PICTURES.items():
        path.write_text(draw(), encoding="utf-8")
        print(f"wrote {path.relative_to(IMG.parent.parent)}")
