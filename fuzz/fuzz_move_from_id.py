"""Fuzz ``game.move_from_id(action_id, player)`` with arbitrary ints: the library's
errors, or a move whose id is ``action_id``, whose notation parses back, and which a
few real states apply or refuse with ``IllegalMoveError``.

The input drives ``atheris.FuzzedDataProvider``: the case (``_common.CASES``), then the
id and the seat, each either a small int, one near the action space's edges, or any
int of up to 80 bits (either sign).

    python fuzz/fuzz_move_from_id.py fuzz/corpus/id -max_total_time=300
"""

from __future__ import annotations

import time

import atheris
from _common import CASES, LIBRARY_ERROR, check_timed, fg, run, sample_states

STATES = sample_states()
GAMES = {case: states[0].game for case, states in STATES.items()}


def number(fdp: atheris.FuzzedDataProvider, size: int) -> int:
    """An int: near 0, near ``size``, or anything of up to 80 bits."""
    kind = fdp.ConsumeIntInRange(0, 2)
    if kind == 0:
        return int(fdp.ConsumeIntInRange(-3, size + 3))
    if kind == 1:
        return size + int(fdp.ConsumeIntInRange(-3, 3))
    return int(fdp.ConsumeInt(10))


def test(raw: bytes) -> None:
    """One input: decode an id; if it decodes, check the move."""
    fdp = atheris.FuzzedDataProvider(raw)
    case = CASES[fdp.ConsumeIntInRange(0, len(CASES) - 1)]
    game = GAMES[case]
    action = number(fdp, game.num_actions)
    player = number(fdp, game.num_players)
    started = time.perf_counter()
    try:
        move = game.move_from_id(action, player)
    except LIBRARY_ERROR:
        return
    finally:
        check_timed("move_from_id", started)
    assert game.action_id(move) == action, f"{move!r} has not id {action}"
    assert game.parse_move(str(move)) == move, f"{move!r} does not parse back"
    for state in STATES[case]:
        try:
            state.apply(move).to_dict()
        except fg.IllegalMoveError:
            pass


if __name__ == "__main__":
    run(test)
