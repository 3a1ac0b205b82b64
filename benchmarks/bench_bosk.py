"""Bosk speed: batch scoring kernels and complete random games, each against a same-run baseline.

    python -m pytest benchmarks/bench_bosk.py --benchmark-only

Machines here are shared and noisy, so each figure is also given as a ratio
against a baseline measured in the same test (``extra_info``, printed).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import numpy as np

import forestgames as fg
from forestgames.bosk import DEFAULT_TERRAIN, summer_scores, winter_scores
from forestgames.bosk.scoring import plain_board_scores

BATCH = 20_000
PLAIN_BOARDS = 300


def best_time(fn, repeats=5):
    """The fastest of ``repeats`` runs of ``fn`` (the least disturbed by other load)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def random_boards(batch, seed=0):
    """4-player boards: legal-looking tree grids and top grids."""
    rng = np.random.default_rng(seed)
    owner = rng.integers(-1, 4, (batch, 11, 11)).astype(np.int8)
    value = rng.integers(1, 5, (batch, 11, 11)).astype(np.int8)
    top = rng.integers(-1, 4, (batch, 12, 12)).astype(np.int8)
    return owner, value, top


def report(benchmark, **info):
    benchmark.extra_info.update(info)
    print("\n" + json.dumps(info))


def test_batch_scoring_vs_plain_python(benchmark):
    """Summer + winter of 20,000 4-player boards: boards/s and the speed-up over plain Python."""
    owner, value, top = random_boards(BATCH)
    terrain = DEFAULT_TERRAIN[12]

    def kernels():
        return summer_scores(owner, value, 4), winter_scores(top, terrain, 4)

    def plain():
        for b in range(PLAIN_BOARDS):
            plain_board_scores(owner[b], value[b], top[b], terrain, 4)

    summer, winter = benchmark(kernels)
    assert summer.shape == winter.shape == (BATCH, 4)
    kernel_rate = BATCH / best_time(kernels)
    plain_rate = PLAIN_BOARDS / best_time(plain, repeats=3)
    report(
        benchmark,
        kernel_boards_per_s=round(kernel_rate),
        plain_boards_per_s=round(plain_rate),
        speedup=round(kernel_rate / plain_rate, 1),
    )


def play_random(game, seed):
    """One complete random game: each step legal_moves(), a random choice, apply()."""
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    moves = 0
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_moves()))
        moves += 1
    return moves


def baseline_loop(moves, seed=0):
    """The same number of random.choice calls on a small tuple: the interpreter's floor."""
    rng = random.Random(seed)
    options = tuple(range(8))
    total = 0
    for _ in range(moves):
        total += rng.choice(options)
    return total


def test_random_four_player_game(benchmark):
    """A complete random 4-player game: median ms, moves/s, and ratio to the baseline loop."""
    game = fg.make("bosk", num_players=4)
    seeds = iter(range(10**9))
    moves = benchmark(lambda: play_random(game, next(seeds)))
    assert moves > 100
    total_moves, start = 0, time.perf_counter()
    for seed in range(20):
        total_moves += play_random(game, seed)
    elapsed = time.perf_counter() - start
    base = best_time(lambda: baseline_loop(total_moves))
    report(
        benchmark,
        ms_per_game=round(1000 * elapsed / 20, 2),
        moves_per_s=round(total_moves / elapsed),
        baseline_calls_per_s=round(total_moves / base),
        game_over_baseline=round(elapsed / base, 1),
    )


PERFT = json.loads((Path(__file__).parents[1] / "tests/bosk/data/perft.json").read_text())


def test_perft_positions(benchmark):
    """legal_moves() over every golden perft position (python-chess style): counts must match."""
    games = {p: fg.make("bosk", num_players=p) for p in (2, 3, 4)}
    states = [games[row["players"]].state_from_dict(row["state"]) for row in PERFT["positions"]]
    expected = [row["count"] for row in PERFT["positions"]]
    counts = benchmark(lambda: [len(s.legal_moves()) for s in states])
    assert counts == expected
