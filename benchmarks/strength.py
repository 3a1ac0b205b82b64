"""Agent strength: every pairing of Random, Greedy and MCTS on every game, with Wilson intervals.

    python -m benchmarks.strength --games 100 --workers 2 > pairings.md

For each game at its smallest player count with opponents (Bonsai with 2, as
solo has none; Boom Bokken with 4), each pair of agents A, B plays ``--games``
games, A and B alternating around the table (A, B, A, B with 4 seats), seats
rotated from game to game so each agent plays each seat equally often. A win
rate is the share of an agent's seats that are among the winners, with its 95%
Wilson interval; the fair share is 1 / players. MCTS runs at its default budget
(``mcts``: an iteration count, so the table is reproducible from the seed).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import os
import platform
import resource
import time
from typing import Any

import forestgames as fg
from forestgames.agents import make_agent
from forestgames.sim import MAX_WORKERS

SETUPS = {"bosk": 2, "bonsai": 2, "living_forest": 2, "boom_bokken": 4}
"""Game: its player count here."""
AGENTS = ("random", "greedy", "mcts")
SEED = 2026


def _cpu_seconds() -> float:
    """CPU seconds of this process and its finished children (the workers) so far."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def pairing(name: str, a: str, b: str, games: int, workers: int) -> dict[str, Any]:
    """Seat-rotated games of ``a`` against ``b``; each one's win rate with its interval."""
    players = SETUPS[name]
    start, cpu = time.perf_counter(), _cpu_seconds()
    result = fg.simulate(
        fg.make(name, num_players=players), [a, b], games, seed=SEED, workers=workers,
        rotate=True, progress=False,
    )  # fmt: skip
    tallies = {t["label"]: t for t in result.summary()["agents"]}
    names = [fg.agents.make_agent(spec).name for spec in (a, b)]
    return {
        "game": name,
        "players": players,
        "a": names[0],
        "b": names[1],
        "games": games,
        "truncated": result.summary()["truncated"],
        "a_rate": tallies[names[0]]["win_rate"],
        "a_ci": tallies[names[0]]["ci95"],
        "b_rate": tallies[names[1]]["win_rate"],
        "b_ci": tallies[names[1]]["ci95"],
        "seconds": round(time.perf_counter() - start),
        "cpu_seconds": round(_cpu_seconds() - cpu),
    }


def markdown_row(row: dict[str, Any]) -> str:
    (al, ah), (bl, bh) = row["a_ci"], row["b_ci"]
    return (
        f"| {row['game']} | {row['players']} | {row['a']} vs {row['b']} | {row['games']} | "
        f"{row['a_rate']:.1%} [{al:.1%}, {ah:.1%}] | {row['b_rate']:.1%} [{bl:.1%}, {bh:.1%}] | "
        f"{1 / row['players']:.0%} | {row['seconds']} | {row['cpu_seconds']} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=sorted(SETUPS), action="append")
    parser.add_argument("--mcts", default="mcts", help="the MCTS spec (default: mcts)")
    args = parser.parse_args()
    for flag, value in (("--games", args.games), ("--workers", args.workers)):
        if value < 1:  # no game: every win rate was nan; no worker: a traceback
            parser.error(f"{flag} must be at least 1, not {value}")
    if args.workers > MAX_WORKERS:  # simulate's ConfigError: a traceback after the header
        parser.error(f"--workers must be at most {MAX_WORKERS}, not {args.workers}")
    try:  # a bad spec: a usage error now, not a traceback after the header
        make_agent(args.mcts)
    except fg.ConfigError as error:
        parser.error(f"--mcts: {error}")
    agents = [args.mcts if a == "mcts" else a for a in AGENTS]
    start = time.perf_counter()
    print(
        f"<!-- python -m benchmarks.strength --games {args.games} --workers {args.workers} "
        f"--mcts {args.mcts}; seed {SEED}; {datetime.date.today()}; "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start -->"
    )
    print(
        "| game | players | A vs B | games | A's win rate [95% CI] | B's win rate [95% CI] "
        "| fair share | wall s | CPU s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in args.only or list(SETUPS):
        for a, b in itertools.combinations(agents, 2):
            print(markdown_row(pairing(name, b, a, args.games, args.workers)), flush=True)
    print(
        f"<!-- {time.perf_counter() - start:.0f} s in all; load average "
        f"{os.getloadavg()[0]:.1f} at the end -->"
    )


if __name__ == "__main__":
    main()
