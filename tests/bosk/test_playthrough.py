"""Golden playthroughs (OpenSpiel style): seeded random Bosk games written out move by move.

Any change to the rules shows as a readable diff of these files. After a
deliberate rules change, rewrite them with ``python -m tests.bosk.test_playthrough``
and review the diff.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import forestgames as fg
from forestgames.bosk import Phase

DATA = Path(__file__).parent / "data"
CASES = {
    "playthrough_2p.txt": ({"num_players": 2}, 21),
    "playthrough_3p_options.txt": (
        {"num_players": 3, "squirrel_exactly_three": True, "ties_include_start": False},
        22,
    ),
}


def transcript(options: dict, seed: int) -> str:
    """A random game of ``options`` from ``seed``: each move with its round and phase, the
    position after spring, and the final position with its scores."""
    game = fg.make("bosk", **options)
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    lines = [f"bosk {options} seed {seed}"]
    while not state.is_terminal:
        move = rng.choice(state.legal_moves())
        lines.append(f"round {state.round} {state.phase.value:<8} {move}")
        before = state.phase
        state = state.apply(move)
        if before is Phase.SPRING and state.phase is Phase.WIND:
            lines += ["", state.render(), ""]
    lines += ["", state.render(), f"scores {list(state.scores)} winners {list(state.winners)}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    """The seeded random game replays exactly as recorded (moves, positions, scores)."""
    options, seed = CASES[name]
    assert transcript(options, seed) == (DATA / name).read_text()


if __name__ == "__main__":
    for name, (options, seed) in CASES.items():
        (DATA / name).write_text(transcript(options, seed))
