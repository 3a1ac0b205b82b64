"""Simulation benchmarks: the 2-worker speed-up, the start-up of workers and of Ray.

    python -m benchmarks.bench_sim                     # the figures
    python -m benchmarks.bench_sim --agent greedy --games 100
    python -m pytest benchmarks/bench_sim.py --benchmark-only -s

The speed-up is measured as the issue states it: 600 random 4-player Bosk
games, 2 local workers against 1, each figure the best of interleaved rounds
(the machine may be shared). With greedy agents the games score batches of
candidate boards with matrix products, so that figure also shows whether the
workers' BLAS threads (held to one per worker) contend for the cores. The
one-time build of the 4-player scoring tables happens once, in the parent,
before the timed runs (a forked worker inherits it); it is timed apart.
Under ``--benchmark-disable`` each test runs a token workload and checks only
that it works.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import forestgames as fg
from forestgames.agents import make_agent
from forestgames.sim import process_context

BOSK4 = fg.make("bosk", num_players=4)


def _seconds(games: int, workers: int, backend: str = "local") -> float:
    return _timed(games, workers, backend)[0]


def _cpu() -> float:
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed(
    games: int, workers: int, backend: str = "local", agent: str = "random"
) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process and its finished children) of a run."""
    start, cpu = time.perf_counter(), _cpu()
    fg.simulate(BOSK4, [agent], games, seed=1, workers=workers, backend=backend, progress=False)
    return time.perf_counter() - start, _cpu() - cpu


def first_game_seconds() -> float:
    """One random 4-player Bosk game in this process: the tables' build, if not yet done."""
    start = time.perf_counter()
    fg.simulate(BOSK4, ["random"], 1, seed=0, progress=False)
    return time.perf_counter() - start


def speedup(games: int = 600, rounds: int = 3, agent: str = "random") -> dict[str, Any]:
    """Best-of-``rounds`` seconds with 1 and 2 workers, interleaved, and their ratio."""
    warm = first_game_seconds()
    load_before = os.getloadavg()[0]
    one = two = one_cpu = two_cpu = float("inf")
    ratios = []
    for _ in range(rounds):
        wall_one, cpu = _timed(games, 1, agent=agent)
        one, one_cpu = min(one, wall_one), min(one_cpu, cpu)
        wall_two, cpu = _timed(games, 2, agent=agent)
        two, two_cpu = min(two, wall_two), min(two_cpu, cpu)
        ratios.append(round(wall_one / wall_two, 2))
    return {
        "agent": agent,
        "games": games,
        "first_game_s": round(warm, 3),
        "one_worker_s": round(one, 3),
        "two_workers_s": round(two, 3),
        "speedup": round(one / two, 2),
        "speedup_per_round": ratios,
        "one_worker_cpu_s": round(one_cpu, 3),
        "two_workers_cpu_s": round(two_cpu, 3),
        # the CPU work of one worker over the CPU work of two (parent and workers): 1.0 if
        # running two workers costs no CPU beyond the games themselves
        "cpu_efficiency": round(one_cpu / two_cpu, 2),
        # what two idle cores would give if the work split evenly: 2 x (work alone / work
        # in two workers); a figure other load on the machine barely moves
        "speedup_bound_from_cpu": round(2 * one_cpu / two_cpu, 2),
        "start_method": process_context().get_start_method(),
        "cpus": os.cpu_count(),
        "load_average_before": round(load_before, 2),
        "load_average_after": round(os.getloadavg()[0], 2),
    }


def ray_startup(games: int = 8) -> dict[str, Any]:
    """Seconds of ``ray.init`` (2 CPUs, no dashboard) and of a first small Ray run."""
    import ray

    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, logging_level="warning")
    init = time.perf_counter() - start
    try:
        first = _seconds(games, 2, backend="ray")
        again = _seconds(games, 2, backend="ray")
        local = _seconds(games, 1)
    finally:
        ray.shutdown()
    return {
        "ray_init_s": round(init, 2),
        f"first_ray_run_{games}_games_s": round(first, 2),
        f"second_ray_run_{games}_games_s": round(again, 2),
        f"local_{games}_games_s": round(local, 3),
    }


def test_two_workers_speedup(benchmark):
    """simulate with 2 local workers vs 1 on random 4-player Bosk games (target: x1.8)."""
    games, rounds = (20, 1) if benchmark.disabled else (600, 3)
    info = benchmark.pedantic(speedup, args=(games, rounds), rounds=1, iterations=1)
    benchmark.extra_info.update(info)
    print(f"\n{info}")
    assert info["one_worker_s"] > 0 and info["two_workers_s"] > 0


def test_two_workers_speedup_greedy(benchmark):
    """The same with greedy agents, whose scoring runs BLAS matrix products: the workers'
    BLAS threads must not eat the speed-up (with a thread per core in each worker, 2
    workers were slower than 1)."""
    games, rounds = (4, 1) if benchmark.disabled else (100, 3)
    info = benchmark.pedantic(speedup, args=(games, rounds, "greedy"), rounds=1, iterations=1)
    benchmark.extra_info.update(info)
    print(f"\n{info}")
    assert info["one_worker_s"] > 0 and info["two_workers_s"] > 0


def test_ray_startup(benchmark):
    """The cost of starting Ray and of a first run on it (stated in docs/simulation.md)."""
    import pytest

    pytest.importorskip("ray")
    if benchmark.disabled:
        pytest.skip("Ray's start-up is timed in benchmark runs only (it takes seconds)")
    info = benchmark.pedantic(ray_startup, rounds=1, iterations=1)
    benchmark.extra_info.update(info)
    print(f"\n{info}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--agent", default="random", help="the agent spec of every seat")
    parser.add_argument("--ray", action="store_true", help="also time Ray's start-up")
    args = parser.parse_args()
    for flag, value in (("--games", args.games), ("--rounds", args.rounds)):
        if value < 1:  # no game or no round timed: no speed-up (inf, nan or a traceback)
            parser.error(f"{flag} must be at least 1, not {value}")
    try:  # a bad spec: a usage error now, not a traceback after the warm-up game
        make_agent(args.agent)
    except fg.ConfigError as error:
        parser.error(f"--agent: {error}")
    print(speedup(args.games, args.rounds, args.agent))
    if args.ray:
        print(ray_startup())


if __name__ == "__main__":
    main()
