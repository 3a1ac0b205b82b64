"""Bosk speed: batch scoring kernels and complete random games, each against a same-run baseline.

    python -m pytest benchmarks/bench_bosk.py --benchmark-only

Machines here are shared and noisy, so each figure is also given as a ratio
against a baseline measured in the same test (``extra_info``, printed).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

import forestgames as fg
from benchmarks.common import best_seconds, random_games, record, speed_report
from forestgames.bosk import DEFAULT_TERRAIN, summer_scores, winter_scores
from forestgames.bosk.scoring import _plain_board_scores

BATCH = 20_000
PLAIN_BOARDS = 300


def random_boards(batch, seed=0):
    """4-player boards: legal-looking tree grids and top grids."""
    rng = np.random.default_rng(seed)
    owner = rng.integers(-1, 4, (batch, 11, 11)).astype(np.int8)
    value = np.where(owner >= 0, rng.integers(1, 5, (batch, 11, 11)), 0).astype(np.int8)
    top = rng.integers(-1, 4, (batch, 12, 12)).astype(np.int8)
    return owner, value, top


def test_batch_scoring_vs_plain_python(benchmark):
    """Summer + winter of 20,000 4-player boards on one core: boards/s and the speed-up
    over the plain-Python scorer, measured interleaved in the same run.

    BLAS is held to one thread (threadpoolctl): the target is per core, and on a
    shared 2-core machine a second BLAS thread mostly waits for the other load.
    """
    owner, value, top = random_boards(BATCH)
    terrain = DEFAULT_TERRAIN[12]

    def kernels():
        return summer_scores(owner, value, 4), winter_scores(top, terrain, 4)

    def plain():
        for b in range(PLAIN_BOARDS):
            _plain_board_scores(owner[b], value[b], top[b], terrain, 4)

    with threadpool_limits(limits=1):
        summer, winter = benchmark(kernels)
        assert summer.shape == winter.shape == (BATCH, 4)
        if benchmark.disabled:
            return
        kernel_s, plain_s = best_seconds([kernels, plain], rounds=5)
    kernel_rate, plain_rate = BATCH / kernel_s, PLAIN_BOARDS / plain_s
    record(
        benchmark,
        {
            "kernel_boards_per_s": round(kernel_rate),
            "plain_boards_per_s": round(plain_rate),
            "speedup": round(kernel_rate / plain_rate, 1),
        },
    )


def test_random_four_player_game(benchmark):
    """A complete random 4-player game: ms per game, moves/s, and the ratio to the baseline."""
    game = fg.make("bosk", num_players=4)
    moves = benchmark(random_games, game, range(1))
    assert moves > 100
    if not benchmark.disabled:
        record(benchmark, speed_report(game, range(20)))


@pytest.mark.parametrize("players", [2, 3])
def test_random_games(benchmark, players):
    """Random 2- and 3-player games: moves/s and the ratios to both baselines."""
    game = fg.make("bosk", num_players=players)
    assert benchmark(random_games, game, range(2)) > 50
    if not benchmark.disabled:
        record(benchmark, speed_report(game, range(20)))


PERFT = json.loads(
    (Path(__file__).parents[1] / "tests/bosk/data/perft.json").read_text(encoding="utf-8")
)


def test_perft_positions(benchmark):
    """legal_moves() over every golden perft position (python-chess style): counts must match."""
    games = {p: fg.make("bosk", num_players=p) for p in (2, 3, 4)}
    states = [games[row["players"]].state_from_dict(row["state"]) for row in PERFT["positions"]]
    expected = [row["count"] for row in PERFT["positions"]]
    counts = benchmark(lambda: [len(s.legal_moves()) for s in states])
    assert counts == expected
