"""Fuzz ``fg.GameRecord.from_json(text)`` then ``record.replay()``: the library's errors
or a replay whose states save, load back equal and write the record back.

Seeds are records of random games of each case (whole, and cut short); the custom
mutator edits their fields with odd values (``_common.ODD_VALUES``).

    python fuzz/fuzz_record.py fuzz/corpus/record -max_total_time=300 -max_len=65536
"""

from __future__ import annotations

import random
import time

from _common import CASES, LIBRARY_ERROR, case_game, check_timed, exercise, fg, json_mutator, run


def test(raw: bytes) -> None:
    """One input: read it as a record; if it reads, replay it and check the last state."""
    started = time.perf_counter()
    try:
        record = fg.GameRecord.from_json(raw)
        assert fg.GameRecord.from_json(record.to_json()) == record, "record round trip"
        states = record.replay()
    except LIBRARY_ERROR:
        return
    finally:
        check_timed("from_json and replay", started)
    exercise(states[-1])
    again = fg.GameRecord.start(record.make_game(), record.seed, record.first_player).with_moves(
        record.moves
    )
    assert again.replay()[-1] == states[-1]


def seeds() -> list[bytes]:
    """Records of a random game of each case, whole and cut to a few moves."""
    found = []
    for name, players in CASES:
        game = case_game(name, players)
        agents = [fg.agents.RandomAgent(seat) for seat in range(players)]
        record = fg.play(game, agents, seed=players)
        found.append(record.to_json().encode())
        cut = random.Random(players).randrange(1, 12)
        found.append(
            record.with_moves([])
            .__class__.from_dict(record.to_dict() | {"moves": list(record.moves[:cut])})
            .to_json()
            .encode()
        )
    return found


if __name__ == "__main__":
    SEEDS = seeds()
    run(test, SEEDS, json_mutator(SEEDS))
