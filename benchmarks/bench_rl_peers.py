"""The field's own environments over pure-Python engines, measured like ``bench_rl``.

``bench_rl`` holds forestgames' environments to stepping at half the engine's
random-playout speed or better. For scale, the same measure, same run and
interleaved, of two environments the ecosystems ship over Python engines:

* PettingZoo's ``chess_v6`` (an ``AECEnv`` over python-chess; ``env.last()``
  then a random id from the mask), against python-chess's own random playout
  (``board.push`` of a random legal move until the game is over, draws claimed
  as the environment claims them);
* OpenSpiel's ``rl_environment.Environment`` over its Python tic-tac-toe (the
  time step's observations, then a random legal action), against
  ``state.apply_action`` of a random legal action.

Bosk with two players (``bench_rl``'s loops) runs in the same rounds. The peers
are benchmark-only: ``pip install -e ".[bench]"`` (python-chess, and pygame,
which PettingZoo's chess module imports); each test skips without its peer.

    python -m pytest benchmarks/bench_rl_peers.py --benchmark-only -s
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import forestgames as fg
from benchmarks.bench_rl import env_games
from benchmarks.common import best_seconds, random_games, record
from forestgames import rl

ROUNDS = 5


def chess_playouts(chess: Any, seeds: range) -> int:
    """python-chess random games (game over as PettingZoo's chess judges it): moves made."""
    moves = 0
    for seed in seeds:
        rng, board = random.Random(seed), chess.Board()
        while not board.is_game_over(claim_draw=True):
            board.push(rng.choice(list(board.legal_moves)))
            moves += 1
    return moves


def spiel_playouts(game: Any, seeds: range) -> int:
    """OpenSpiel random games through ``apply_action``: moves made."""
    moves = 0
    for seed in seeds:
        rng, state = random.Random(seed), game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves


def spiel_env_games(env: Any, seeds: range) -> int:
    """Random games through OpenSpiel's ``rl_environment``: steps taken."""
    steps = 0
    for seed in seeds:
        rng, step = random.Random(seed), env.reset()
        while not step.last():
            seat = step.observations["current_player"]
            step = env.step([rng.choice(step.observations["legal_actions"][seat])])
            steps += 1
    return steps


def peer_report(
    peer: str, env_run: Callable[[], int], engine_run: Callable[[], int], rounds: int = ROUNDS
) -> dict[str, Any]:
    """The peer's environment steps/s over its engine's moves/s, and Bosk's, same rounds."""
    bosk, bosk_env, bosk_seeds = fg.make("bosk"), rl.aec_env("bosk"), range(4)
    env_steps, engine_moves = env_run(), engine_run()
    bosk_steps, _ = env_games(bosk_env, bosk_seeds)
    bosk_moves = random_games(bosk, bosk_seeds)
    env_s, engine_s, bosk_env_s, bosk_s = best_seconds(
        [
            env_run,
            engine_run,
            lambda: env_games(bosk_env, bosk_seeds),
            lambda: random_games(bosk, bosk_seeds),
        ],
        rounds,
    )
    return {
        "peer": peer,
        "peer_env_steps_per_s": round(env_steps / env_s),
        "peer_engine_moves_per_s": round(engine_moves / engine_s),
        "peer_ratio": round((env_steps / env_s) / (engine_moves / engine_s), 2),
        "bosk2_env_steps_per_s": round(bosk_steps / bosk_env_s),
        "bosk2_engine_moves_per_s": round(bosk_moves / bosk_s),
        "bosk2_ratio": round((bosk_steps / bosk_env_s) / (bosk_moves / bosk_s), 2),
    }


def test_pettingzoo_chess(benchmark: Any) -> None:
    """PettingZoo's chess environment against python-chess, and Bosk's, same run."""
    chess = pytest.importorskip("chess")
    pytest.importorskip("pygame")
    from pettingzoo.classic import chess_v6

    env, seeds = chess_v6.env(), range(2)
    env.last_move = None  # env_games counts forestgames' engine moves by it; chess has none
    steps, _ = benchmark(env_games, env, range(1))
    assert steps > 10
    if not benchmark.disabled:
        report = peer_report(
            "pettingzoo chess_v6 / python-chess",
            lambda: env_games(env, seeds)[0],
            lambda: chess_playouts(chess, seeds),
        )
        record(benchmark, report)


def test_openspiel_rl_environment(benchmark: Any) -> None:
    """OpenSpiel's rl_environment over its Python tic-tac-toe, and Bosk's, same run."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import rl_environment
    from open_spiel.python.games import tic_tac_toe  # noqa: F401 (registers the game)

    game = pyspiel.load_game("python_tic_tac_toe")
    env, seeds = rl_environment.Environment(game), range(300)
    steps = benchmark(spiel_env_games, env, range(5))
    assert steps >= 25
    if not benchmark.disabled:
        report = peer_report(
            "open_spiel rl_environment / python_tic_tac_toe",
            lambda: spiel_env_games(env, seeds),
            lambda: spiel_playouts(game, seeds),
        )
        record(benchmark, report)
