"""Does moving first help in Bosk? First-player win rate per player count, saved as a PNG plot.

    pip install -e ".[plot]"   # in a checkout of forestgames
    python examples/first_player_advantage.py --games 400 --agents greedy --out first_player.png

The dashed line is the fair share, 1 / players; the bars' whiskers are 95%
Wilson intervals. The start seat is drawn from each game's seed, so the
"first player" is whoever moved first (the row's ``first_player``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import forestgames as fg
from forestgames.sim import wilson_interval


def first_player_rates(players: list[int], agents: list[str], games: int, workers: int, seed: int):
    """Per player count: (first player's wins, games that ended)."""
    rates = {}
    bosk_games = {count: fg.make("bosk", num_players=count) for count in players}  # checked first
    for count, game in bosk_games.items():
        result = fg.simulate(
            game,
            agents,
            games,
            seed=seed,
            workers=workers,
            rotate=True,
            progress=False,
        )
        ended = [row for row in result.rows if not row.truncated]
        wins = sum(row.first_player in row.winners for row in ended)
        rates[count] = (wins, len(ended))
    return rates


def pyplot():
    """matplotlib's pyplot (no display needed); exit at once with a hint if it is missing."""
    try:
        import matplotlib
    except ImportError:
        raise SystemExit(
            'this example plots with matplotlib: pip install -e ".[plot]" in a checkout'
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot(rates: dict[int, tuple[int, int]], path: str, title: str) -> None:
    plt = pyplot()

    counts = sorted(rates)
    shares = [rates[c][0] / rates[c][1] for c in counts]
    intervals = [wilson_interval(*rates[c]) for c in counts]
    below = [s - low for s, (low, _) in zip(shares, intervals, strict=True)]
    above = [high - s for s, (_, high) in zip(shares, intervals, strict=True)]
    figure, axes = plt.subplots(figsize=(5, 3.5))
    axes.bar([str(c) for c in counts], shares, yerr=[below, above], capsize=6, color="#5b8c5a")
    for i, c in enumerate(counts):
        axes.hlines(1 / c, i - 0.4, i + 0.4, colors="black", linestyles="dashed")
    axes.set_xlabel("players")
    axes.set_ylabel("first player's win rate")
    axes.set_title(title)
    axes.set_ylim(0, 1)
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def positive(text: str) -> int:
    """A whole number of at least 1 (argparse's error otherwise)."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def player_counts(text: str) -> list[int]:
    """Comma-separated player counts (argparse's error otherwise)."""
    try:
        return [int(p) for p in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not player counts such as 2,3,4: {text!r}") from None


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--games", type=positive, default=200, help="games per player count (default 200)"
    )
    parser.add_argument(
        "--agents", default="random", help="agents, cycled over the seats (default random)"
    )
    parser.add_argument(
        "--players", type=player_counts, default="2,3,4", help="player counts (default 2,3,4)"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="first_player.png", help="the PNG to write")
    args = parser.parse_args()
    pyplot()  # before the simulations: a missing matplotlib fails now, not after them
    if not Path(args.out).absolute().parent.is_dir():  # before the simulations too
        parser.error(f"--out: no folder to write {args.out} in")
    try:  # a bad player count, agent spec or seed: the library's error, as a usage error
        rates = first_player_rates(
            args.players, args.agents.split(","), args.games, args.workers, args.seed
        )
    except fg.ConfigError as error:
        parser.error(str(error))
    for count, (wins, ended) in rates.items():
        low, high = wilson_interval(wins, ended)
        print(
            f"{count} players: first player won {wins}/{ended} = {wins / ended:.1%} "
            f"[{low:.1%}, {high:.1%}], fair share {1 / count:.1%}"
        )
    plot(rates, args.out, f"Bosk, {args.agents} agents, {args.games} games each")
    print(f"plot saved to {args.out}")


if __name__ == "__main__":
    main()
