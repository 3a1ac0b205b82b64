"""Simulation benchmarks: the 2-worker speed-up, and Greedy's and MCTS's strength against Random.

    python -m pytest benchmarks/bench_sim.py --benchmark-only -s

Figures are printed (``-s``) and stored in the benchmark's ``extra_info``.
Under ``--benchmark-disable`` every test runs a token workload quickly and
checks only that it works.
"""

from __future__ import annotations

import time

import forestgames as fg

BOSK = fg.make("bosk", num_players=2)  # the smallest player count


def _games_per_second(agents: list[str], games: int, workers: int) -> float:
    start = time.perf_counter()
    fg.simulate(BOSK, agents, games, seed=1, workers=workers, progress=False)
    return games / (time.perf_counter() - start)


def test_two_workers_speedup(benchmark):
    """simulate with 2 local workers vs 1: games per second, Greedy against Random (target 1.8x).

    The machine may be shared: each figure is the best of two alternating runs.
    """
    games = 8 if benchmark.disabled else 600
    agents = ["greedy", "random"]
    one = two = 0.0
    for _ in range(1 if benchmark.disabled else 2):
        one = max(one, _games_per_second(agents, games, workers=1))
        two = max(two, _games_per_second(agents, games, workers=2))
    benchmark.pedantic(_games_per_second, args=(agents, games, 2), rounds=1, iterations=1)
    speedup = two / one
    benchmark.extra_info.update(one_worker=one, two_workers=two, speedup=speedup)
    print(f"\n{games} games: 1 worker {one:.1f}/s, 2 workers {two:.1f}/s, x{speedup:.2f}")
    assert two > 0 and one > 0


def _win_rate(agent: str, games: int, workers: int) -> tuple[float, tuple[float, float]]:
    result = fg.simulate(
        BOSK, [agent, "random"], games, seed=2026, workers=workers, rotate=True, progress=False
    )
    tally = next(t for t in result.summary()["agents"] if t["label"] == agent)
    return tally["win_rate"], tally["ci95"]


def test_greedy_against_random(benchmark):
    """Greedy's win rate against Random, 2-player Bosk, seats rotated."""
    games = 4 if benchmark.disabled else 100
    rate, (low, high) = benchmark.pedantic(
        _win_rate, args=("greedy", games, 2), rounds=1, iterations=1
    )
    benchmark.extra_info.update(win_rate=rate, ci95=(low, high), games=games)
    print(f"\ngreedy vs random, {games} games: {rate:.1%} [{low:.1%}, {high:.1%}]")
    if not benchmark.disabled:
        assert rate >= 0.7


def test_mcts_against_random(benchmark):
    """MCTS (50 iterations a decision) win rate against Random, 2-player Bosk, seats rotated."""
    games, agent = (2, "mcts:5") if benchmark.disabled else (50, "mcts:50")
    rate, (low, high) = benchmark.pedantic(
        _win_rate, args=(agent, games, 2), rounds=1, iterations=1
    )
    benchmark.extra_info.update(win_rate=rate, ci95=(low, high), games=games)
    print(f"\n{agent} vs random, {games} games: {rate:.1%} [{low:.1%}, {high:.1%}]")
    if not benchmark.disabled:
        assert rate >= 0.7
