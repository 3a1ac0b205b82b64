"""Living Forest speed: complete random games against same-run baselines (see ``common``).

python -m pytest benchmarks/bench_living_forest.py --benchmark-only -s
"""

import pytest

import forestgames as fg
from benchmarks.common import random_games, record, speed_report


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games(benchmark, players):
    """Random Living Forest games: moves/s and the ratios to both baselines."""
    game = fg.make("living_forest", num_players=players)
    moves = benchmark(random_games, game, range(2))
    assert moves > 10
    if not benchmark.disabled:
        record(benchmark, speed_report(game, range(6)))
