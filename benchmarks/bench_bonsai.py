"""Bonsai speed: complete random games, each against a same-run baseline.

    python -m pytest benchmarks/bench_bonsai.py --benchmark-only

Each step of a random game is ``legal_moves()`` of the seat to act, a random
choice and ``apply()``. Machines here are shared and noisy, so the figure is
also given as ratios against two baselines measured in the same test,
interleaved: as many bare ``random.choice`` calls on a tuple, and random Bosk
games played the same way (``extra_info``, printed).
"""

from __future__ import annotations

import json
import random
import time

import pytest

import forestgames as fg

GAMES = 20
BOSK_GAMES = 3


def best_time(fn, repeats=5):
    """The fastest of ``repeats`` runs of ``fn`` (the least disturbed by other load)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def play_random(game, seed):
    """One complete random game; returns its number of moves."""
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


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games(benchmark, players):
    """Complete random games: moves/s, and the time ratio to the baseline loop."""
    game = fg.make("bonsai", num_players=players)
    seeds = iter(range(10**9))
    moves = benchmark(lambda: play_random(game, next(seeds)))
    assert moves > 10
    if benchmark.disabled:  # --benchmark-disable: one game checked, no timing
        return
    total = sum(play_random(game, seed) for seed in range(GAMES))
    bosk = fg.make("bosk", num_players=max(players, 2))
    bosk_total = sum(play_random(bosk, seed) for seed in range(BOSK_GAMES))
    # interleaved, so that all three see the same load; the fastest run of each is the least
    # disturbed
    elapsed = base = bosk_elapsed = float("inf")
    for _ in range(5):
        elapsed = min(elapsed, best_time(lambda: [play_random(game, s) for s in range(GAMES)], 1))
        base = min(base, best_time(lambda: baseline_loop(total), 1))
        bosk_elapsed = min(
            bosk_elapsed, best_time(lambda: [play_random(bosk, s) for s in range(BOSK_GAMES)], 1)
        )
    info = {
        "players": players,
        "moves_per_s": round(total / elapsed),
        "baseline_calls_per_s": round(total / base),
        "game_over_baseline": round(elapsed / base, 1),
        "bosk_moves_per_s": round(bosk_total / bosk_elapsed),
        "bonsai_over_bosk_speed": round((total / elapsed) / (bosk_total / bosk_elapsed), 2),
    }
    benchmark.extra_info.update(info)
    print("\n" + json.dumps(info))
