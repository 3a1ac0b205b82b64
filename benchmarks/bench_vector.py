"""VectorBosk speed: batched random playouts against scalar random playouts, same run.

    python -m pytest benchmarks/bench_vector.py --benchmark-only -s

The scalar baseline plays random games the way ``RandomAgent`` does (legal_moves(),
random.choice, apply), interleaved with the vector runs, best of several rounds.
BLAS is held to one thread (threadpoolctl) so that both sides use one core.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

import forestgames as fg
from benchmarks.common import record
from forestgames.bosk.vector import VectorBosk

BATCH = 1024
TARGET_RATIO = 50


def scalar_random_moves(starts) -> int:
    """Random games on the scalar engine from the states ``starts``; the moves made."""
    moves = 0
    for seed, state in enumerate(starts):
        rng = random.Random(seed)
        while not state.is_terminal:
            state = state.apply(rng.choice(state.legal_moves()))
            moves += 1
    return moves


def interleaved_rates(
    timed_vector_run: Callable[[int], tuple[int, float]], game: Any, rounds: int
) -> tuple[float, float]:
    """Best vector and scalar moves/s over ``rounds`` interleaved rounds: the vector run of
    seed 10 + round (its (moves, seconds)), then random playouts of six new scalar games."""
    best_vector = best_scalar = 0.0
    for round_ in range(rounds):
        moves, seconds = timed_vector_run(10 + round_)
        best_vector = max(best_vector, moves / seconds)
        starts = [game.new_game(seed=s) for s in range(6 * round_, 6 * round_ + 6)]
        start = time.perf_counter()
        scalar_moves = scalar_random_moves(starts)
        best_scalar = max(best_scalar, scalar_moves / (time.perf_counter() - start))
    return best_vector, best_scalar


@pytest.mark.parametrize("players", [2, 4])
def test_vector_random_playouts(benchmark, players):
    """Random playouts of a batch of 1,024 games: moves/s, the scalar engine's random-playout
    moves/s in the same run, and their ratio (target >= 50). Both start from new games made
    before the clock starts (reset() and new_game() cost the same seeding per game)."""
    batch = 16 if benchmark.disabled else BATCH
    vec = VectorBosk(players, batch, seed=1)
    game = fg.make("bosk", num_players=players)
    vec.play_random(seed=0)  # warm-up: tables, scoring kernels

    def vector_run(seed: int) -> int:
        return int(vec.play_random(seed=seed).sum())

    def timed_vector_run(seed: int) -> tuple[int, float]:
        vec.reset(seed)
        start = time.perf_counter()
        moves = vector_run(seed)
        return moves, time.perf_counter() - start

    with threadpool_limits(limits=1):
        vec.reset(2)
        moves = benchmark.pedantic(vector_run, (2,), rounds=1)
        assert moves > 0 and vec.terminated.all()
        if benchmark.disabled:
            return
        best_vector, best_scalar = interleaved_rates(timed_vector_run, game, rounds=7)
    record(
        benchmark,
        {
            "players": players,
            "batch": batch,
            "vector_moves_per_s": round(best_vector),
            "scalar_moves_per_s": round(best_scalar),
            "ratio": round(best_vector / best_scalar, 1),
            "target_ratio": TARGET_RATIO,
        },
    )


def masked_steps(vec: VectorBosk, seed: int) -> int:
    """Play ``vec``'s games to their end the way an RL loop does: read the mask, choose an
    id per game, step. The choice is ``random_actions`` (a policy's own cost is not the
    library's); the mask is checked against it so that it is built. The moves made."""
    rng = np.random.default_rng(seed)
    moves = 0
    while not vec.terminated.all():
        mask = vec.legal_action_mask()
        actions = vec.random_actions(rng)
        live = np.flatnonzero(~vec.terminated)
        assert mask[live, actions[live]].all()
        moves += len(live)
        vec.step(actions)
    return moves


@pytest.mark.parametrize("players", [2, 4])
def test_vector_masked_steps(benchmark, players):
    """A batch of 1,024 games stepped through legal_action_mask() and step() with random
    legal ids: moves/s against the scalar engine's random playouts in the same run."""
    batch = 16 if benchmark.disabled else BATCH
    vec = VectorBosk(players, batch, seed=1)
    game = fg.make("bosk", num_players=players)

    def timed_vector_run(seed: int) -> tuple[int, float]:
        vec.reset(seed)
        start = time.perf_counter()
        moves = masked_steps(vec, seed)
        return moves, time.perf_counter() - start

    with threadpool_limits(limits=1):
        moves, _ = benchmark.pedantic(timed_vector_run, (2,), rounds=1)
        assert moves > 0 and vec.terminated.all()
        if benchmark.disabled:
            return
        best_vector, best_scalar = interleaved_rates(timed_vector_run, game, rounds=5)
    record(
        benchmark,
        {
            "players": players,
            "batch": batch,
            "masked_moves_per_s": round(best_vector),
            "scalar_moves_per_s": round(best_scalar),
            "ratio": round(best_vector / best_scalar, 1),
        },
    )


def test_vector_simulation_engine(benchmark):
    """simulate(engine="vector") against the scalar engine, random 4-player games: games/s
    of each in the same run (rows identical), and the ratio."""
    game = fg.make("bosk", num_players=4)
    games = 8 if benchmark.disabled else 2048

    def vector() -> None:
        fg.simulate(game, ["random"], games, seed=1, progress=False, engine="vector")

    with threadpool_limits(limits=1):
        benchmark.pedantic(vector, rounds=1)
        if benchmark.disabled:
            return
        vector_s = scalar_s = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            vector()
            vector_s = min(vector_s, time.perf_counter() - start)
            start = time.perf_counter()
            fg.simulate(game, ["random"], 100, seed=1, progress=False)
            scalar_s = min(scalar_s, time.perf_counter() - start)
    record(
        benchmark,
        {
            "vector_games_per_s": round(games / vector_s),
            "scalar_games_per_s": round(100 / scalar_s),
            "ratio": round(games / vector_s / (100 / scalar_s), 1),
        },
    )


@pytest.mark.parametrize("players", [2, 4])
def test_vector_greedy_playouts(benchmark, players):
    """Greedy playouts of 256 games: games/s against scalar greedy games (GreedyAgent) in the
    same run, and the ratio."""
    batch = 4 if benchmark.disabled else 256
    vec = VectorBosk(players, batch, seed=1)
    game = fg.make("bosk", num_players=players)

    def vector_run() -> None:
        vec.reset(3)
        vec.play("greedy", seed=3)

    with threadpool_limits(limits=1):
        benchmark.pedantic(vector_run, rounds=1)
        if benchmark.disabled:
            return
        scalar_games = 3
        vector_s = scalar_s = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            vector_run()
            vector_s = min(vector_s, time.perf_counter() - start)
            start = time.perf_counter()
            for seed in range(scalar_games):
                fg.play(game, ["greedy"], seed=seed)
            scalar_s = min(scalar_s, time.perf_counter() - start)
    record(
        benchmark,
        {
            "players": players,
            "vector_games_per_s": round(batch / vector_s, 1),
            "scalar_games_per_s": round(scalar_games / scalar_s, 1),
            "ratio": round(batch / vector_s / (scalar_games / scalar_s), 1),
        },
    )
