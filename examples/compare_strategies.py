"""Compare agents head to head on 2-player Bosk: every pair, seats rotated.

    python examples/compare_strategies.py --games 40 --workers 2

Prints, for each pair, the first agent's win rate with its 95% interval.
"""

from __future__ import annotations

import argparse
import itertools

import forestgames as fg
from forestgames.agents import make_agent


def compare(agents: list[str], games: int, workers: int, seed: int) -> list[tuple[str, str, dict]]:
    """For each pair of agents (specs), their names and the first one's tally (win rate,
    interval, mean score)."""
    game = fg.make("bosk", num_players=2)
    table = []
    for first, second in itertools.combinations(agents, 2):
        result = fg.simulate(
            game, [first, second], games, seed=seed, workers=workers, rotate=True, progress=False
        )
        name, other = (make_agent(spec).name for spec in (first, second))  # "RANDOM": random
        tally = next(t for t in result.summary()["agents"] if t["label"] == name)
        table.append((name, other, tally))
    return table


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--agents", default="random,greedy,mcts:30", help="comma-separated agent specs"
    )
    parser.add_argument("--games", type=int, default=20, help="games per pair (default 20)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    agents = args.agents.split(",")
    if len(agents) < 2:
        parser.error(f"--agents: give two or more agents to compare, not {args.agents!r}")
    if args.games < 1:  # no game played: every win rate printed as nan%
        parser.error(f"--games must be at least 1, not {args.games}")
    try:  # a bad agent spec, game count or seed: the library's error, as a usage error
        names = [make_agent(spec).name for spec in agents]  # checked before any game
        if len(set(names)) < len(names):  # a pair of one agent pools both its seats: 50%
            parser.error(f"--agents: name each agent once, not {', '.join(names)}")
        table = compare(agents, args.games, args.workers, args.seed)
    except fg.ConfigError as error:
        parser.error(str(error))
    print(f"{'agent':<10} {'vs':<10} {'win rate':>9}  95% interval    mean score")
    for first, second, tally in table:
        low, high = tally["ci95"]
        print(
            f"{first:<10} {second:<10} {tally['win_rate']:>9.1%}  [{low:5.1%}, {high:5.1%}]  "
            f"{tally['mean_score']:>9.1f}"
        )


if __name__ == "__main__":  # the guard keeps worker processes (spawn) from re-running main
    main()
