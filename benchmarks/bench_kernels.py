"""Bosk scoring kernels on one core: boards/s of summer + winter, numpy and compiled paths.

    python -m pytest benchmarks/bench_kernels.py --benchmark-only -s

Every figure comes with the plain-Python per-board scorer (``plain_board_scores``)
measured in the same test, interleaved, best of several rounds (the machines
here are shared and noisy). BLAS is held to one thread (threadpoolctl): the
targets are per core. Each figure also comes in CPU time (``cpu_boards_per_s``):
under load a long call is preempted more than a short one. Also here: the first
use of the 4-player kernels and the resident memory of a 4-player simulation,
each in a fresh process.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from benchmarks.common import best_seconds, record
from forestgames.bosk import DEFAULT_TERRAIN, summer_scores, winter_scores
from forestgames.bosk.scoring import _plain_board_scores, compiled_kernels

PLAIN_BOARDS = 200
TARGET_NUMPY = 2_000_000
TARGET_COMPILED = 5_000_000


def four_player_boards(count: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random 4-player boards (int8): trees with values where owned, random tops."""
    rng = np.random.default_rng(seed)
    owner = rng.integers(-1, 4, (count, 11, 11)).astype(np.int8)
    value = np.where(owner >= 0, rng.integers(1, 5, owner.shape), 0).astype(np.int8)
    top = rng.integers(-1, 4, (count, 12, 12)).astype(np.int8)
    return owner, value, top


@contextlib.contextmanager
def kernel_path(compiled: bool) -> Iterator[None]:
    before = compiled_kernels()
    compiled_kernels(compiled)
    try:
        yield
    finally:
        compiled_kernels(before)


def _path_available(path: str) -> None:
    if path == "compiled" and not compiled_kernels():
        pytest.skip("numba (the fast extra) is not installed")


def best_cpu_seconds(run: Callable[[], object], rounds: int) -> float:
    """The least CPU time (this process's) of ``run`` over ``rounds``: on a loaded machine
    a long call is preempted far more often than a short one, which wall time counts."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize("boards", [10_000, 100_000, 1_000_000])
@pytest.mark.parametrize("path", ["numpy", "compiled"])
def test_kernel_boards_per_second(benchmark, path, boards):
    """Summer + winter of 4-player boards, one core: boards/s, the plain scorer's boards/s
    in the same run, their ratio, and the target (2 M/s numpy, 5 M/s compiled)."""
    _path_available(path)
    if benchmark.disabled:
        boards = 2_000  # the CI smoke run: only that it runs
    owner, value, top = four_player_boards(boards)
    terrain = DEFAULT_TERRAIN[12]

    def kernels() -> None:
        summer_scores(owner, value, 4)
        winter_scores(top, terrain, 4)

    def plain() -> None:
        for b in range(PLAIN_BOARDS):
            _plain_board_scores(owner[b], value[b], top[b], terrain, 4)

    with threadpool_limits(limits=1), kernel_path(path == "compiled"):
        kernels()  # the compiled path compiles (or loads its cache) on first use
        benchmark.pedantic(kernels, rounds=3, iterations=1)
        if benchmark.disabled:
            return
        kernel_s, plain_s = best_seconds([kernels, plain], rounds=5 if boards < 10**6 else 3)
        cpu_s = best_cpu_seconds(kernels, rounds=5 if boards < 10**6 else 3)
    rate, plain_rate = boards / kernel_s, PLAIN_BOARDS / plain_s
    record(
        benchmark,
        {
            "path": path,
            "boards": boards,
            "boards_per_s": round(rate),
            "plain_boards_per_s": round(plain_rate),
            "speedup_over_plain": round(rate / plain_rate),
            "cpu_boards_per_s": round(boards / cpu_s),
            "target_boards_per_s": TARGET_COMPILED if path == "compiled" else TARGET_NUMPY,
        },
    )


def test_one_extreme_board_does_not_slow_the_batch(benchmark):
    """A batch with one board of overflow-size totals (a row of eleven 4s, every square one
    seat's) scores at the speed of the same batch without it (numpy path), same run."""
    boards = 2_000 if benchmark.disabled else 100_000
    owner, value, top = four_player_boards(boards)
    extreme_owner, extreme_value, extreme_top = owner.copy(), value.copy(), top.copy()
    extreme_owner[boards // 2], extreme_value[boards // 2], extreme_top[boards // 2] = 2, 4, 1
    terrain = DEFAULT_TERRAIN[12]

    def batch(o: np.ndarray, v: np.ndarray, t: np.ndarray) -> None:
        summer_scores(o, v, 4)
        winter_scores(t, terrain, 4)

    with threadpool_limits(limits=1), kernel_path(False):
        benchmark.pedantic(batch, (extreme_owner, extreme_value, extreme_top), rounds=3)
        if benchmark.disabled:
            return
        plain_s, extreme_s = best_seconds(
            [
                lambda: batch(owner, value, top),
                lambda: batch(extreme_owner, extreme_value, extreme_top),
            ],
            rounds=5,
        )
    record(
        benchmark,
        {
            "boards": boards,
            "ordinary_batch_s": round(plain_s, 4),
            "with_one_extreme_board_s": round(extreme_s, 4),
            "ratio": round(extreme_s / plain_s, 3),
        },
    )


FIRST_USE = """
import time, numpy as np
from forestgames.bosk import summer_scores, winter_scores, DEFAULT_TERRAIN
owner = np.full((11, 11), -1, np.int8); value = np.zeros_like(owner)
top = np.full((12, 12), -1, np.int8)
start = time.perf_counter()
summer_scores(owner, value, 4); winter_scores(top, DEFAULT_TERRAIN[12], 4)
print(time.perf_counter() - start)
"""


def test_first_use_of_four_player_kernels(benchmark):
    """Seconds from import to the first scored 4-player board, in a fresh process (<= 0.1 s)."""
    seconds = benchmark.pedantic(
        lambda: float(subprocess.run([sys.executable, "-c", FIRST_USE], capture_output=True,
                                     encoding="utf-8", check=True).stdout),
        rounds=1,
    )  # fmt: skip
    assert seconds <= 0.1
    record(benchmark, {"first_use_s": round(seconds, 4), "target_s": 0.1})


def test_simulation_memory(benchmark):
    """Peak resident memory of `forestgames simulate bosk --players 4 --games 200` (< 100 MB)."""
    games = 20 if benchmark.disabled else 200
    # VmHWM (Linux) is this process's own peak; ru_maxrss would count the parent's at fork.
    code = (
        "import resource, sys\n"
        "from forestgames.cli import main\n"
        f"sys.argv = ['forestgames', 'simulate', 'bosk', '--players', '4', '--games', '{games}']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "try:\n"
        "    status = open('/proc/self/status', encoding='utf-8').read().split('VmHWM:')[1]\n"
        "    peak = int(status.split()[0])\n"
        "except OSError:\n"
        "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(peak, file=sys.stderr)\n"
    )

    def run() -> tuple[float, float]:
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, encoding="utf-8",
                              check=True)  # fmt: skip
        return int(done.stderr.strip().splitlines()[-1]) / 1024, time.perf_counter() - start

    megabytes, seconds = benchmark.pedantic(run, rounds=1)
    assert megabytes < 100
    record(
        benchmark,
        {"games": games, "peak_rss_mb": round(megabytes, 1), "seconds": round(seconds, 2)},
    )
