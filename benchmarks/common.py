"""What every game's speed benchmark shares: random games, baselines, the report.

A random game steps ``legal_moves()`` of the first seat that may act, a random
choice, ``apply()``. Machines here are shared and noisy, so each figure comes
with two baselines measured in the same run, interleaved (best of several
rounds each): as many bare ``random.choice`` calls on a tuple, and random
4-player Bosk games played the same way.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable
from typing import Any

import forestgames as fg

TARGET_MOVES_PER_SECOND = 20_000


def random_games(game: Any, seeds: Iterable[int]) -> int:
    """Play one complete random game per seed; return the number of moves made."""
    moves = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        while not state.is_terminal:
            seats = state.players_to_act
            state = state.apply(rng.choice(state.legal_moves(seats[0])))
            moves += 1
    return moves


def choice_loop(count: int) -> int:
    """``count`` random.choice calls on a small tuple: the interpreter's floor."""
    rng = random.Random(0)
    options = tuple(range(8))
    total = 0
    for _ in range(count):
        total += rng.choice(options)
    return total


def best_seconds(runs: list[Callable[[], object]], rounds: int) -> list[float]:
    """The fastest time of each run over ``rounds`` interleaved rounds."""
    best = [float("inf")] * len(runs)
    for _ in range(rounds):
        for k, run in enumerate(runs):
            start = time.perf_counter()
            run()
            best[k] = min(best[k], time.perf_counter() - start)
    return best


def speed_report(game: Any, seeds: range, rounds: int = 5) -> dict[str, Any]:
    """Moves per second of ``game`` with both same-run baselines and their ratios."""
    bosk = fg.make("bosk", num_players=4)
    bosk_seeds = range(3)
    moves = random_games(game, seeds)
    bosk_moves = random_games(bosk, bosk_seeds)
    game_s, loop_s, bosk_s = best_seconds(
        [
            lambda: random_games(game, seeds),
            lambda: choice_loop(moves),
            lambda: random_games(bosk, bosk_seeds),
        ],
        rounds,
    )
    rate = moves / game_s
    return {
        "game": game.name,
        "options": game.options(),
        "moves_per_s": round(rate),
        "ms_per_game": round(1000 * game_s / len(seeds), 2),
        "moves_per_game": round(moves / len(seeds), 1),
        "choice_loop_per_s": round(moves / loop_s),
        "game_over_choice_loop_time": round(game_s / loop_s, 1),
        "bosk4_moves_per_s": round(bosk_moves / bosk_s),
        "speed_vs_bosk4": round(rate / (bosk_moves / bosk_s), 2),
        "target_moves_per_s": TARGET_MOVES_PER_SECOND,
    }


def record(benchmark: Any, info: dict[str, Any]) -> None:
    """Attach ``info`` to the benchmark's JSON and print it."""
    benchmark.extra_info.update(info)
    print("\n" + json.dumps(info, default=str))
