"""Golden playthroughs (OpenSpiel style): seeded random games written out move by move.

Any change to the rules shows as a readable diff of these files. After a
deliberate rules change, rewrite them with ``python -m tests.bonsai.test_playthrough``
and review the diff.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import forestgames as fg

DATA = Path(__file__).parent / "data"
CASES = {
    "playthrough_2p.txt": ({"num_players": 2}, 11),
    "playthrough_4p_options.txt": (
        {"num_players": 4, "goal_setup": "published", "end_rule": "extra_turn"},
        12,
    ),
    "playthrough_solo.txt": ({"num_players": 1, "solo_difficulty": 2}, 13),
}


def transcript(options: dict, seed: int) -> str:
    """A random game of ``options`` from ``seed``: each move with the step it was made in,
    then the final position."""
    game = fg.make("bonsai", **options)
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    lines = [f"bonsai {options} seed {seed}", state.render(), ""]
    while not state.is_terminal:
        move = rng.choice(state.legal_moves())
        lines.append(f"turn {state.turn + 1:>3} {state.phase.value:<9} {move}")
        state = state.apply(move)
    lines += ["", state.render(), f"scores {list(state.scores)} winners {list(state.winners)}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    """The seeded random game replays exactly as recorded (moves, final position, scores)."""
    options, seed = CASES[name]
    assert transcript(options, seed) == (DATA / name).read_text()


if __name__ == "__main__":
    for name, (options, seed) in CASES.items():
        (DATA / name).write_text(transcript(options, seed))
