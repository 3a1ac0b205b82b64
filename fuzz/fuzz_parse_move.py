"""Fuzz ``game.parse_move(text)`` for the four games: a move that parses writes back to
text that parses to it again, has an action id that decodes to it, and applying it to a
few real states either works or raises ``IllegalMoveError``.

The input's first byte picks the game (``_common.CASES``), the rest is the text (UTF-8,
undecodable bytes escaped). Seeds are the notation of moves along random games.

    python fuzz/fuzz_parse_move.py fuzz/corpus/move -max_total_time=300
"""

from __future__ import annotations

import itertools
import time

from _common import CASES, LIBRARY_ERROR, case_game, check_timed, fg, run, sample_states, states_of

STATES = sample_states()
GAMES = {case: states[0].game for case, states in STATES.items()}


def test(raw: bytes) -> None:
    """One input: parse it; if it parses, check the round trip and apply it."""
    if not raw:
        return
    case = CASES[raw[0] % len(CASES)]
    game = GAMES[case]
    text = raw[1:].decode("utf-8", "surrogateescape")
    started = time.perf_counter()
    try:
        move = game.parse_move(text)
    except LIBRARY_ERROR:
        return
    finally:
        check_timed("parse_move", started)
    written = str(move)
    assert game.parse_move(written) == move, f"{text!r} -> {move!r} -> {written!r}"
    assert repr(move)
    try:
        number = game.action_id(move)
    except fg.IllegalMoveError:
        number = None
    if number is not None:
        assert game.move_from_id(number, move.player) == move, f"{move!r} id {number}"
    for state in STATES[case]:
        try:
            after = state.apply(move)
        except fg.IllegalMoveError:
            continue
        after.to_dict()
        after.legal_moves()


def seeds() -> list[bytes]:
    """The notation of the moves along one random game of each case."""
    found = []
    for index, (name, players) in enumerate(CASES):
        states = states_of(case_game(name, players), seed=index)
        for before, after in itertools.pairwise(states):
            move = next(m for m in before.legal_moves() if before.apply(m) == after)
            found.append(bytes([index]) + str(move).encode())
    return sorted(set(found))


if __name__ == "__main__":
    run(test, seeds())
