"""RL environment speed: stepping ``rl.aec_env`` against the plain engine, same run.

The environment loop reads ``env.last()`` (observation tensor and action mask)
before every step and picks a random legal id from the mask; the baseline is
the engine's own random playout (``benchmarks.common.random_games``). Both are
timed interleaved, best of several rounds, on the same seeds. The figure is
environment steps per second over engine moves per second; Boom Bokken's
reaction turns are steps too (PASS moves nothing), so it also reports the
engine moves made through the environment.

Two more loops, timed in the same rounds, show where an environment step's
time goes: ``no_tensor_ratio`` is the environment with the tensor replaced by
a constant array (what the environment costs besides the tensor), and
``mask_loop_ratio`` a loop with no environment and no tensor that only builds
the mask, picks a random id from it and applies its move (the mask's share).

    python -m pytest benchmarks/bench_rl.py --benchmark-only -s
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import forestgames as fg
from benchmarks.common import best_seconds, random_games, record
from forestgames import rl

TARGET_RATIO = 0.5
CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("bosk", {"num_players": 2}, 8),
    ("bosk", {"num_players": 4}, 4),
    ("bonsai", {"num_players": 2}, 12),
    ("bonsai", {"num_players": 4}, 8),
    ("living_forest", {"num_players": 2}, 3),
    ("living_forest", {"num_players": 4}, 2),
    ("boom_bokken", {"num_players": 4}, 16),
    ("boom_bokken", {"num_players": 9}, 8),
    ("boom_bokken", {"num_players": 6, "expert": True}, 8),
]


def env_games(env: Any, seeds: range) -> tuple[int, int]:
    """Random masked games through ``env``: (environment steps, engine moves)."""
    steps = moves = 0
    for seed in seeds:
        env.reset(seed=seed)
        rng = random.Random(seed)
        while True:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                break
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
            moves += env.last_move is not None
    return steps, moves


def mask_loop(game: Any, seeds: range) -> int:
    """Random masked games without an environment or tensors: mask, pick an id, apply."""
    codec, moves = game.codec, 0
    for seed in seeds:
        state, rng = game.new_game(seed=seed), random.Random(seed)
        while not state.is_terminal:
            seat = state.players_to_act[0]
            legal = np.flatnonzero(codec.mask(state, seat).view(np.bool_))
            action = int(legal[rng.randrange(len(legal))])
            position = codec.legal_ids(state, seat).index(action)
            state = state.apply(state.legal_moves(seat)[position])
            moves += 1
    return moves


def tensorless_env(name: str, options: dict[str, Any]) -> Any:
    """The environment with the tensor replaced by one constant array."""
    env = rl.aec_env(name, **options)
    codec = env.driver.codec
    constant = np.zeros(codec.observation_shape, np.float32)
    codec.tensor = lambda state, seat: constant
    return env


def rl_speed_report(name: str, options: dict[str, Any], games: int, rounds: int = 7) -> dict:
    """Environment steps/s, engine moves/s on the same seeds, and their ratio."""
    game = fg.make(name, **options)
    env = rl.aec_env(name, **options)
    seeds = range(games)
    env_games(env, range(1))  # warm the codec's tables
    steps, moves = env_games(env, seeds)
    engine_moves = random_games(game, seeds)
    bare_game, bare_env = fg.make(name, **options), tensorless_env(name, options)
    bare_moves = mask_loop(bare_game, seeds)
    env_s, engine_s, bare_s, tensorless_s = best_seconds(
        [
            lambda: env_games(env, seeds),
            lambda: random_games(game, seeds),
            lambda: mask_loop(bare_game, seeds),
            lambda: env_games(bare_env, seeds),
        ],
        rounds,
    )
    engine_rate = engine_moves / engine_s
    return {
        "game": name,
        "options": options,
        "env_steps_per_s": round(steps / env_s),
        "env_engine_moves_per_s": round(moves / env_s),
        "engine_moves_per_s": round(engine_moves / engine_s),
        "ratio": round((steps / env_s) / engine_rate, 2),
        "target_ratio": TARGET_RATIO,
        "mask_loop_ratio": round((bare_moves / bare_s) / engine_rate, 2),
        "no_tensor_ratio": round((steps / tensorless_s) / engine_rate, 2),
    }


@pytest.mark.parametrize(("name", "options", "games"), CONFIGS)
def test_aec_env_speed(benchmark: Any, name: str, options: dict[str, Any], games: int) -> None:
    """Random masked games through the AEC env: steps/s against the engine's moves/s."""
    env = rl.aec_env(name, **options)
    steps, _ = benchmark(env_games, env, range(1))
    assert steps > 10
    if not benchmark.disabled:
        record(benchmark, rl_speed_report(name, options, games))
