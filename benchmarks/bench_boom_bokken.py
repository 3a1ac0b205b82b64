"""Speed of Boom Bokken: complete random games, against a same-run baseline.

Each step takes ``legal_moves()`` of the seat the game waits for, picks one at
random and applies it. The baseline does the same number of ``random.choice``
calls on a tuple in a bare loop, so the ratio engine/baseline is comparable
across runs on a noisy, shared machine::

    python -m pytest benchmarks/bench_boom_bokken.py --benchmark-only -s
"""

from __future__ import annotations

import random
import time

import pytest

import forestgames as fg

SEEDS = range(20)
TARGET_MOVES_PER_SECOND = 20_000
CHOICES = tuple(range(40))


def random_games(game, seeds=SEEDS) -> int:
    """Play one complete random game per seed; return the number of moves made."""
    rng = random.Random(0)
    moves = 0
    for seed in seeds:
        state = game.new_game(seed=seed)
        while not state.is_terminal:
            state = state.apply(rng.choice(state.legal_moves()))
            moves += 1
    return moves


def baseline(count: int) -> int:
    """``count`` random.choice calls on a tuple: the trivial loop the engine is compared to."""
    rng = random.Random(0)
    total = 0
    for _ in range(count):
        total += rng.choice(CHOICES)
    return total


def _best_rates(runs: list[tuple], repeats: int) -> list[float]:
    """Best rate (count / seconds) of each ``(function, args, count)``, runs interleaved so
    that a busy spell on the shared machine hits all of them alike."""
    best = [float("inf")] * len(runs)
    for _ in range(repeats):
        for k, (function, args, _count) in enumerate(runs):
            start = time.perf_counter()
            function(*args)
            best[k] = min(best[k], time.perf_counter() - start)
    return [count / seconds for (_f, _a, count), seconds in zip(runs, best, strict=True)]


@pytest.mark.parametrize(
    ("players", "expert"), [(4, False), (6, False), (9, False), (6, True), (9, True)]
)
def test_random_games(benchmark, players, expert):
    """Complete random games of each size, in both modes (pytest-benchmark timing)."""
    game = fg.make("boom_bokken", num_players=players, expert=expert)
    moves = benchmark(random_games, game)
    benchmark.extra_info["moves"] = moves
    assert moves > 0


def test_baseline_random_choice(benchmark):
    """The same-run baseline: as many bare random.choice calls as a 6-player run has moves."""
    count = random_games(fg.make("boom_bokken", num_players=6))
    benchmark(baseline, count)
    benchmark.extra_info["calls"] = count


def test_speed_report(benchmark, request):
    """Moves per second against the baselines (bare random.choice calls, Bosk random games),
    measured together, best of a few interleaved runs."""
    disabled = request.config.getoption("benchmark_disable", False)
    repeats = 1 if disabled else 7
    game = fg.make("boom_bokken", num_players=6)
    bosk = fg.make("bosk", num_players=2)
    count = random_games(game)
    bosk_count = random_games(bosk, range(2))
    engine, base, bosk_rate = _best_rates(
        [(random_games, (game,), count), (baseline, (count,), count),
         (random_games, (bosk, range(2)), bosk_count)],
        repeats,
    )  # fmt: skip
    benchmark.extra_info.update(
        moves_per_second=round(engine), baseline_per_second=round(base), bosk=round(bosk_rate)
    )
    benchmark.pedantic(random_games, args=(game, range(2)), rounds=1, iterations=1)
    print(
        f"\nboom_bokken 6p: {engine:,.0f} moves/s; baseline {base:,.0f} choices/s "
        f"(ratio {engine / base:.4f}); Bosk 2p {bosk_rate:,.0f} moves/s "
        f"(ratio {engine / bosk_rate:.2f}); target {TARGET_MOVES_PER_SECOND:,} moves/s"
    )
