"""Boom Bokken speed: complete random games against same-run baselines (see ``common``).

Each step plays a move of the seat the game waits for (``players_to_act[0]``).

    python -m pytest benchmarks/bench_boom_bokken.py --benchmark-only -s
"""

import pytest

import forestgames as fg
from benchmarks.common import random_games, record, speed_report


@pytest.mark.parametrize(("players", "expert"), [(4, False), (6, False), (9, False), (6, True)])
def test_random_games(benchmark, players, expert):
    """Random Boom Bokken games: moves/s and the ratios to both baselines."""
    game = fg.make("boom_bokken", num_players=players, expert=expert)
    moves = benchmark(random_games, game, range(5))
    assert moves > 10
    if not benchmark.disabled:
        record(benchmark, speed_report(game, range(20)))
