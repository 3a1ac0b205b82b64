"""Bonsai speed: complete random games against same-run baselines (see ``common``).

python -m pytest benchmarks/bench_bonsai.py --benchmark-only -s
"""

import pytest

import forestgames as fg
from benchmarks.common import random_games, record, speed_report


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games(benchmark, players):
    """Random Bonsai games: moves/s and the ratios to both baselines."""
    game = fg.make("bonsai", num_players=players)
    moves = benchmark(random_games, game, range(3))
    assert moves > 10
    if not benchmark.disabled:
        record(benchmark, speed_report(game, range(10)))
