"""Every game's random playout against OpenSpiel's Python tic-tac-toe, same process, same run.

The target (issue 9): each game and player count steps at least 3x the moves
per second of ``python_tic_tac_toe`` played the same way. Ours: the loop of
``benchmarks.common.random_games`` (``players_to_act[0]``, ``legal_moves``,
``random.choice``, ``apply``); OpenSpiel's: ``legal_actions``,
``random.choice``, ``apply_action``. The two are timed interleaved, best of
several rounds, so load on the machine hits both alike.

OpenSpiel belongs to the benchmark environment only (``pip install open_spiel``
or the ``openspiel`` extra), never to the library's run-time dependencies::

    python -m pytest benchmarks/bench_openspiel_ttt.py --benchmark-only -s
    python -m benchmarks.bench_openspiel_ttt          # the table, without pytest
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import forestgames as fg
from benchmarks.common import best_seconds, random_games, record

TARGET_RATIO = 3.0
CASES = [
    (name, players)
    for name in fg.GAME_NAMES
    for players in range(fg.make(name).traits.min_players, fg.make(name).traits.max_players + 1)
]


def _tic_tac_toe() -> Any:
    import pyspiel as spiel
    from open_spiel.python.games import tic_tac_toe  # noqa: F401 - registers python_tic_tac_toe

    return spiel.load_game("python_tic_tac_toe")


def tic_tac_toe_games(game: Any, count: int, seed: int = 0) -> int:
    """``count`` random games of OpenSpiel's Python tic-tac-toe; the moves made."""
    rng = random.Random(seed)
    moves = 0
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves


def ratio_report(name: str, players: int, rounds: int = 5) -> dict[str, Any]:
    """Our moves/s, tic-tac-toe's moves/s (same run, interleaved) and their ratio."""
    game = fg.make(name, num_players=players)
    ttt = _tic_tac_toe()
    seeds = range(3)
    ours = random_games(game, seeds)  # warm: tables built, moves counted
    ttt_games = max(1, ours // 8)
    theirs = tic_tac_toe_games(ttt, ttt_games)
    ours_s, ttt_s = best_seconds(
        [lambda: random_games(game, seeds), lambda: tic_tac_toe_games(ttt, ttt_games)], rounds
    )
    rate, ttt_rate = ours / ours_s, theirs / ttt_s
    return {
        "game": name,
        "players": players,
        "moves_per_s": round(rate),
        "tic_tac_toe_moves_per_s": round(ttt_rate),
        "ratio": round(rate / ttt_rate, 2),
        "target_ratio": TARGET_RATIO,
    }


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_random_playout_vs_openspiel_tic_tac_toe(benchmark, name, players):
    """Random playouts of each game and player count against OpenSpiel's Python
    tic-tac-toe in the same run (the figure is the ratio)."""
    pytest.importorskip("pyspiel")
    game = fg.make(name, num_players=players)
    moves = benchmark(random_games, game, range(1))
    assert moves > 0
    if benchmark.disabled:
        return
    record(benchmark, ratio_report(name, players))


if __name__ == "__main__":
    print("| game | players | ours moves/s | tic-tac-toe moves/s | ratio |")
    print("| --- | --- | --- | --- | --- |")
    for case in CASES:
        row = ratio_report(*case)
        print(
            f"| {row['game']} | {row['players']} | {row['moves_per_s']} | "
            f"{row['tic_tac_toe_moves_per_s']} | {row['ratio']} |",
            flush=True,
        )
