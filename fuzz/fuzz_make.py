"""Fuzz ``fg.make(name, **options)`` and ``game.new_game(seed=..., first_player=...)``
with options from JSON: the library's errors, or a game that plays (a few random moves,
each state saved and loaded back equal) and whose record replays.

The input is JSON ``{"game": name, "options": {...}, "seed": s, "first_player": p}``.
Seeds are every game's default options and a few documented variants; the custom
mutator edits their fields with odd values (``_common.ODD_VALUES``).

    python fuzz/fuzz_make.py fuzz/corpus/make -max_total_time=300
"""

from __future__ import annotations

import json
import random
import time

from _common import CASES, LIBRARY_ERROR, case_game, check_timed, exercise, fg, json_mutator, run


def test(raw: bytes) -> None:
    """One input: make the game and start it; if it starts, play a little."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return
    if not isinstance(data, dict) or not isinstance(data.get("options"), dict):
        return
    started = time.perf_counter()
    try:
        game = fg.make(data.get("game"), **data["options"])
        state = game.new_game(seed=data.get("seed"), first_player=data.get("first_player"))
    except LIBRARY_ERROR:
        return
    finally:
        check_timed("make and new_game", started)
    assert fg.make(game.name, **game.options()) == game, "options() do not make the game"
    assert game.num_actions > 0
    assert game.observation_shape
    first = state
    rng = random.Random(0)
    for _ in range(6):
        exercise(state, quick=True)
        if state.is_terminal:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    if data.get("seed") is not None:  # new_game(seed=None) draws one
        record = fg.GameRecord.start(game, data["seed"], data.get("first_player"))
        assert fg.GameRecord.from_json(record.to_json()).replay()[0] == first


def seeds() -> list[bytes]:
    """Every case's options as the game gives them back, and some variants."""
    found = []
    for name, players in CASES:
        options = case_game(name, players).options()
        found.append({"game": name, "options": options, "seed": players, "first_player": None})
        found.append(
            {"game": name, "options": {"num_players": players}, "seed": 0, "first_player": 0}
        )
    found.append(
        {
            "game": "bonsai",
            "options": {"num_players": 1, "solo_difficulty": 3},
            "seed": 1,
            "first_player": None,
        }
    )
    found.append(
        {
            "game": "boom_bokken",
            "options": {"num_players": 9, "expert": True},
            "seed": 1,
            "first_player": None,
        }
    )
    return [json.dumps(item).encode() for item in found]


if __name__ == "__main__":
    SEEDS = seeds()
    run(test, SEEDS, json_mutator(SEEDS))
