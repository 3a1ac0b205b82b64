"""Speed of Living Forest: complete random games, against same-run baselines.

Each step takes ``legal_moves()`` of the seat to act, picks one at random and
applies it (legality is checked by ``apply``, as for any user). Two baselines
run in the same process: a bare loop making the same number of
``random.choice`` calls on a tuple, and random Bosk games (the reference
engine). Their ratios are comparable across runs on a noisy, shared machine::

    python -m pytest benchmarks/bench_living_forest.py --benchmark-only -s
"""

from __future__ import annotations

import random
import time

import pytest

import forestgames as fg

SEEDS = range(4)
TARGET_MOVES_PER_SECOND = 20_000
CHOICES = tuple(range(20))


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


def _rate(function, *args, repeats: int = 2) -> float:
    """Moves per second of CPU time, best of ``repeats`` (``function`` returns its moves)."""
    best, count = float("inf"), 0
    for _ in range(repeats):
        start = time.process_time()
        count = function(*args)
        best = min(best, time.process_time() - start)
    return count / best


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games(benchmark, players):
    """Complete random games of each player count (pytest-benchmark timing)."""
    game = fg.make("living_forest", num_players=players)
    moves = benchmark.pedantic(random_games, args=(game,), rounds=3, iterations=1)
    benchmark.extra_info["moves"] = moves


def test_baseline_choice_loop(benchmark):
    """The bare random.choice loop, as many calls as a 3-player run makes moves."""
    count = random_games(fg.make("living_forest", num_players=3))
    benchmark.pedantic(baseline, args=(count,), rounds=3, iterations=1)


def test_speed_against_baselines(benchmark):
    """Moves per second of Living Forest and of both baselines, measured back to back."""
    game = fg.make("living_forest", num_players=3)
    count = random_games(game)
    engine = _rate(random_games, game)
    loop = _rate(lambda n: baseline(n) and n, count)
    bosk = _rate(random_games, fg.make("bosk", num_players=3), range(2))
    benchmark.extra_info.update(
        moves_per_second=round(engine),
        choice_loop_per_second=round(loop),
        bosk_moves_per_second=round(bosk),
        ratio_to_choice_loop=round(engine / loop, 5),
        ratio_to_bosk=round(engine / bosk, 3),
    )
    print(
        f"\nliving_forest {engine:,.0f} moves/s (CPU); choice loop {loop:,.0f}/s "
        f"(ratio {engine / loop:.4f}); bosk {bosk:,.0f} moves/s (ratio {engine / bosk:.2f}); "
        f"target {TARGET_MOVES_PER_SECOND:,}"
    )
    benchmark.pedantic(random_games, args=(game, range(1)), rounds=1, iterations=1)
    assert engine > 0
