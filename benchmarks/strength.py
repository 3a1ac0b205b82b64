"""Agent strength: Greedy and MCTS against Random on every game, smallest player count.

    python -m benchmarks.strength --games 50 --workers 2

For each game, one Greedy (or MCTS) seat plays against Random in the other
seats, seats rotated between games so every seat is played equally; the win
rate is the share of games the agent is among the winners, with its 95%
Wilson interval. A fair share is 1 / players. Bonsai's smallest count is solo,
where nobody opposes, so Bonsai is measured with 2 players.
"""

from __future__ import annotations

import argparse
import time

import forestgames as fg

# game: (players, MCTS spec). MCTS playouts are cut after L moves (mcts:N:L)
# where random games run long, so that 50 games take minutes, not hours.
SETUPS = {
    "bosk": (2, "mcts:50"),
    "bonsai": (2, "mcts:50:60"),
    "living_forest": (2, "mcts:30:60"),
    "boom_bokken": (4, "mcts:50"),
}


def measure(name: str, agent: str, games: int, workers: int) -> dict:
    players, _ = SETUPS[name]
    game = fg.make(name, num_players=players)
    agents = [agent] + ["random"] * (players - 1)
    start = time.perf_counter()
    result = fg.simulate(
        game, agents, games, seed=2026, workers=workers, rotate=True, progress=False
    )
    tally = next(t for t in result.summary()["agents"] if t["label"] == agent)
    return {
        "game": name,
        "players": players,
        "agent": agent,
        "games": games,
        "win_rate": tally["win_rate"],
        "ci95": tally["ci95"],
        "fair_share": 1 / players,
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=sorted(SETUPS), action="append")
    args = parser.parse_args()
    print("| game | players | agent | games | win rate vs Random | 95% CI | fair share | s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in args.only or list(SETUPS):
        for agent in ("greedy", SETUPS[name][1]):
            row = measure(name, agent, args.games, args.workers)
            low, high = row["ci95"]
            print(
                f"| {name} | {row['players']} | {agent} | {row['games']} | "
                f"{row['win_rate']:.1%} | [{low:.1%}, {high:.1%}] | {row['fair_share']:.0%} | "
                f"{row['seconds']} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
