"""Boom Bokken speed: complete random games against same-run baselines (see ``common``).

Each step plays a move of the seat the game waits for (``players_to_act[0]``). Also
``determinize`` late in 9-player rounds, where most seats have exploded (the dealing
check that keeps their cards consistent once grew exponentially with them).

    python -m pytest benchmarks/bench_boom_bokken.py --benchmark-only -s
"""

import random

import pytest

import forestgames as fg
from benchmarks.common import random_games, record, speed_report


@pytest.mark.parametrize(("players", "expert"), [(4, False), (6, False), (9, False), (6, True)])
def test_random_games(benchmark, players, expert):
    """Random Boom Bokken games: moves/s and the ratios to both baselines."""
    game = fg.make("boom_bokken", num_players=players, expert=expert)
    moves = benchmark(random_games, game, range(5))
    assert moves > 10
    if not benchmark.disabled:
        record(benchmark, speed_report(game, range(20)))


def late_round_positions(count: int) -> list:
    """``count`` positions of 9-player Expert games where five or more seats exploded this
    round (random games whose seats explode whenever they may)."""
    game = fg.make("boom_bokken", num_players=9, expert=True)
    found = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        while not state.is_terminal and len(found) < count:
            if len(state.exploded) >= 5 and state.current_player is not None:
                found.append(state)
            moves = state.legal_moves(rng.choice(state.players_to_act))
            booms = [m for m in moves if isinstance(m, fg.boom_bokken.Boom)]
            state = state.apply(rng.choice(booms or moves))
        seed += 1
    return found


def determinize_all(states: list) -> int:
    """Every seat's determinization of each of ``states``; return how many were made."""
    made = 0
    for k, state in enumerate(states):
        for seat in range(state.game.num_players):
            state.determinize(seat, k)
            made += 1
    return made


def test_determinize_late_in_big_rounds(benchmark):
    """determinize for every seat of 9-player positions with five or more seats exploded."""
    states = late_round_positions(40)
    assert benchmark(determinize_all, states) == 40 * 9
