"""MCTS speed: iterations per second of today's search against the old one, same run.

    python -m benchmarks.bench_mcts                 # the table, every game
    python -m benchmarks.bench_mcts --before /path/to/old/checkout
    python -m pytest benchmarks/bench_mcts.py --benchmark-only -s

``--before`` names a copy of the library as it was before (e.g. ``git archive
9640a2f forestgames | tar -x -C /tmp/before``): its own MCTS on its own engine
then runs in a subprocess, alternating with this tree's in another, on the
same positions (passed as saved states): the whole change, engine included.

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


_WORKER = """
import json, sys, time
import forestgames as fg
from forestgames.agents.mcts import MCTSAgent
name, players, path, iterations = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
game = fg.make(name, num_players=players)
states = [game.state_from_dict(d) for d in json.load(open(path))]
start = time.perf_counter()
for state in states if iterations else ():
    MCTSAgent(iterations, seed=1).choose(state)
print(json.dumps({"seconds": time.perf_counter() - start, "iterations": iterations * len(states)}))
"""


def _run_worker(
    tree: str, name: str, path: str, iterations: int, prefix: tuple[str, ...] = ()
) -> Any:
    import os
    import subprocess
    import sys

    return subprocess.run(
        [*prefix, sys.executable, "-c", _WORKER, name, str(SETUPS[name]), path, str(iterations)],
        capture_output=True, encoding="utf-8", check=True, cwd=os.path.dirname(path),
        env={**os.environ, "PYTHONPATH": tree},
    )  # fmt: skip


def _subprocess_rate(tree: str, name: str, path: str, iterations: int) -> float:
    import json

    figures = json.loads(_run_worker(tree, name, path, iterations).stdout.splitlines()[-1])
    return float(figures["iterations"] / figures["seconds"])


CALLGRIND = ("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")


def _instructions(tree: str, name: str, path: str, iterations: int) -> int:
    """Instructions executed by the worker (valgrind's callgrind): a count no other load
    on the machine changes."""
    import re

    done = _run_worker(tree, name, path, iterations, CALLGRIND)
    return int(re.findall(r"Collected : (\d+)", done.stderr)[-1])


def instructions_per_iteration(tree: str, name: str, path: str, iterations: int) -> float:
    """Instructions per MCTS iteration: a run's count less that of a run without search."""
    full = _instructions(tree, name, path, iterations)
    bare = _instructions(tree, name, path, 0)
    return (full - bare) / (iterations * len(_load_json(path)))


def _load_json(path: str) -> Any:
    import json
    from pathlib import Path

    return json.loads(Path(path).read_text(encoding="utf-8"))


CALLGRIND_ITERATIONS = {"bosk": 50, "bonsai": 50, "living_forest": 10, "boom_bokken": 50}
"""Iterations per position under callgrind (it runs some 50 times slower)."""


def measure_against(
    before: str, name: str, rounds: int = 3, instructions: bool = False
) -> dict[str, Any]:
    """Iterations per second of the library at ``before`` (its MCTS, its engine) and of
    this tree, each in its own process, alternating, on the same saved positions."""
    import json
    import tempfile
    from pathlib import Path

    here = str(Path(__file__).resolve().parents[1])
    game = fg.make(name, num_players=SETUPS[name])
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "states.json")
        Path(path).write_text(json.dumps([s.to_dict() for s in positions(game)]), encoding="utf-8")
        old = new = 0.0
        for _ in range(rounds):
            old = max(old, _subprocess_rate(before, name, path, OLD_ITERATIONS[name]))
            new = max(new, _subprocess_rate(here, name, path, NEW_ITERATIONS))
        row = {"game": name, "players": SETUPS[name], "before_iterations_per_s": round(old),
               "now_iterations_per_s": round(new), "speedup": round(new / old, 2)}  # fmt: skip
        if instructions:
            before_ipi = instructions_per_iteration(before, name, path, CALLGRIND_ITERATIONS[name])
            now_ipi = instructions_per_iteration(here, name, path, CALLGRIND_ITERATIONS[name])
            row |= {"before_instructions_per_iteration": round(before_ipi),
                    "now_instructions_per_iteration": round(now_ipi),
                    "instruction_ratio": round(before_ipi / now_ipi, 2)}  # fmt: skip
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=sorted(SETUPS), action="append")
    parser.add_argument("--before", help="a copy of the library before (see the module doc)")
    parser.add_argument(
        "--instructions", action="store_true",
        help="with --before: also count instructions per iteration (needs valgrind)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.rounds < 1:  # no round timed: the speed-up divided by zero
        parser.error(f"--rounds must be at least 1, not {args.rounds}")
    if args.instructions and not args.before:
        parser.error("--instructions counts with --before only: give --before too")
    if args.before:
        print("| game | players | before: it/s | now: it/s | speed-up | instructions/iteration "
              "before → now | ratio |")  # fmt: skip
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for name in args.only or list(SETUPS):
            row = measure_against(args.before, name, args.rounds, args.instructions)
            counts = (
                f"{row['before_instructions_per_iteration']:,} → "
                f"{row['now_instructions_per_iteration']:,} | x{row['instruction_ratio']}"
                if args.instructions else "- | -"
            )  # fmt: skip
            print(
                f"| {name} | {row['players']} | {row['before_iterations_per_s']} | "
                f"{row['now_iterations_per_s']} | x{row['speedup']} | {counts} |",
                flush=True,
            )
        return
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
