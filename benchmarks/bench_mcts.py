"""MCTS speed: iterations per second of today's search against the old one, same run.

    python -m benchmarks.bench_mcts                 # the table, every game
    python -m pytest benchmarks/bench_mcts.py --benchmark-only -s

The old search is a frozen copy (``benchmarks/_mcts_baseline.py``): full random
playouts, move priorities at every node, moves hashed at every step. Both
search the same positions (the states 0%, 33% and 66% into two random games of
each game, forced moves skipped), in interleaved rounds; each figure is the
best round's (the machine may be shared). The new search runs at its default
settings with a fixed iteration count (a fresh tree per position: kept subtrees
would flatter it). Also measured: the time of a default decision, the
slowest of those positions.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import forestgames as fg
from benchmarks._mcts_baseline import BaselineMCTS
from forestgames.agents import MCTSAgent

SETUPS = {"bosk": 2, "bonsai": 2, "living_forest": 2, "boom_bokken": 4}
"""Game: the player count measured (the smallest that has opponents)."""
OLD_ITERATIONS = {"bosk": 200, "bonsai": 200, "living_forest": 40, "boom_bokken": 200}
"""The old search's iterations per position (fewer in Living Forest, where it is slow)."""
NEW_ITERATIONS = 400


def positions(game: Any, seeds: tuple[int, ...] = (0, 1)) -> list[Any]:
    """Live states 0%, 33% and 66% into random games ``seeds``, forced moves skipped."""
    import random

    found = []
    for seed in seeds:
        rng, state, states = random.Random(seed), game.new_game(seed=seed), []
        while not state.is_terminal:
            states.append(state)
            state = state.apply(rng.choice(state.legal_moves(state.players_to_act[0])))
        for fraction in (0.0, 0.33, 0.66):
            state = states[int(fraction * (len(states) - 1))]
            while not state.is_terminal and len(state.legal_moves(state.players_to_act[0])) < 2:
                state = state.apply(state.legal_moves(state.players_to_act[0])[0])
            if not state.is_terminal:
                found.append(state)
    return found


def _seconds(agent_of: Any, states: list[Any]) -> list[float]:
    times = []
    for state in states:
        agent = agent_of()
        start = time.perf_counter()
        agent.choose(state)
        times.append(time.perf_counter() - start)
    return times


def measure(name: str, rounds: int = 3) -> dict[str, Any]:
    """Iterations per second, old and new, best of ``rounds`` interleaved rounds."""
    game = fg.make(name, num_players=SETUPS[name])
    states = positions(game)
    old_n = OLD_ITERATIONS[name]
    old = new = 0.0
    slowest = []
    for _ in range(rounds):
        old_times = _seconds(lambda: BaselineMCTS(old_n, seed=1), states)
        new_times = _seconds(lambda: MCTSAgent(NEW_ITERATIONS, seed=1), states)
        default_times = _seconds(lambda: MCTSAgent(seed=1), states)
        old = max(old, old_n * len(states) / sum(old_times))
        new = max(new, NEW_ITERATIONS * len(states) / sum(new_times))
        slowest.append(max(default_times))
    return {
        "game": name,
        "players": SETUPS[name],
        "positions": len(states),
        "old_iterations_per_s": round(old),
        "new_iterations_per_s": round(new),
        "speedup": round(new / old, 2),
        "slowest_default_decision_s": round(min(slowest), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=sorted(SETUPS), action="append")
    args = parser.parse_args()
    print("| game | players | old it/s | new it/s | speed-up | slowest default decision (s) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in args.only or list(SETUPS):
        row = measure(name, args.rounds)
        print(
            f"| {name} | {row['players']} | {row['old_iterations_per_s']} | "
            f"{row['new_iterations_per_s']} | x{row['speedup']} | "
            f"{row['slowest_default_decision_s']} |",
            flush=True,
        )


def test_mcts_iterations_per_second(benchmark):
    """New vs old MCTS iterations per second on each game (target: x3); prints the table."""
    names = ["boom_bokken"] if benchmark.disabled else list(SETUPS)
    rounds = 1 if benchmark.disabled else 3
    rows = benchmark.pedantic(
        lambda: [measure(name, rounds) for name in names], rounds=1, iterations=1
    )
    benchmark.extra_info["rows"] = rows
    for row in rows:
        print(f"\n{row}")
        assert row["new_iterations_per_s"] > 0 and row["old_iterations_per_s"] > 0


if __name__ == "__main__":
    main()
