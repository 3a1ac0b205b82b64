"""Fuzz ``game.state_from_dict(json.loads(data))`` for the four games, then everything a
loaded state offers (see ``_common.exercise``).

The input is JSON text: a saved state of any game (its ``game`` field picks the game; a
document without one is tried on every case). Seeds are saved states along random games;
the custom mutator edits their fields with odd values (``_common.ODD_VALUES``).

    python fuzz/fuzz_state_from_dict.py fuzz/corpus/state -max_total_time=300
"""

from __future__ import annotations

import json
import time
from typing import Any

from _common import CASES, LIBRARY_ERROR, check_timed, exercise, fg, json_mutator, run, states_of

# Rules variants besides the defaults: a state saved under one is also loaded by the
# other games of its name and player count.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "bosk": [{"squirrel_exactly_three": True, "ties_include_start": False}],
    "bonsai": [
        {"goal_setup": "published", "end_rule": "extra_turn", "wood_beside_pot": True},
        {"pot_sides_free": False},
    ],
    "living_forest": [
        {"duplicate_trees": False, "reveal_after_third": False, "varan_returns": True},
        {"fire_tiles": [1, 1, 1], "turn_limit": 3},
        {"guardian_phase": "simultaneous", "varan_returns": True},
    ],
    "boom_bokken": [
        {"expert": True},
        {"expert": True, "spent_time_outs": "aside", "last_team_clay": True},
        {"distinct_flashers": True},
        {"expert": True, "distinct_flashers": True},
    ],
}
GAMES = [
    fg.make(name, num_players=players, **options)
    for name, players in CASES
    for options in [{}, *VARIANTS[name]]
    if not (name == "bonsai" and players == 1 and options.get("goal_setup"))
]


def game_for(data: Any) -> list[Any]:
    """The games to load ``data`` with: those of its name and player count (every
    variant), or the first game."""
    if isinstance(data, dict):
        name, players = data.get("game"), data.get("num_players")
        found = [g for g in GAMES if g.name == name and g.num_players == players]
        if found:
            return found
    return GAMES[:1]


def test(raw: bytes) -> None:
    """One input: load it; if it loads, exercise it."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return
    for game in game_for(data):
        started = time.perf_counter()
        try:
            state = game.state_from_dict(data)
        except LIBRARY_ERROR:
            continue
        finally:
            check_timed("state_from_dict", started)
        started = time.perf_counter()
        try:
            exercise(state)
        except LIBRARY_ERROR as error:
            raise AssertionError(f"a loaded state then raised {error!r}") from error
        check_timed("using the loaded state", started)


def seeds() -> list[bytes]:
    """Saved states along one random game of each case."""
    found = []
    for index, game in enumerate(GAMES):
        for state in states_of(game, seed=index + 10, every=3):
            found.append(json.dumps(state.to_dict()).encode())
    return found


if __name__ == "__main__":
    SEEDS = seeds()
    run(test, SEEDS, json_mutator(SEEDS))
