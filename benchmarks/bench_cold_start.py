"""Cold start: what a new process pays before its first result, against same-run baselines.

Each figure is the median of several new interpreters, interleaved with the baselines:
``python -c pass`` and ``import numpy, attrs`` (the two dependencies every game needs).
``first_calls`` times, inside one new process per game, the import and each first call
(make, new_game, legal_moves, legal_action_mask, observation_tensor, to_svg). Compiled
bytecode is allowed to be written and read, as in an installed package.
``tests/test_cold_start.py`` pins the modules the import loads, which decide these times.

    python -m pytest benchmarks/bench_cold_start.py --benchmark-only -s
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

import forestgames as fg
from benchmarks.common import record

ROUNDS = 11
CODE = {
    "python": "pass",
    "numpy_attrs": "import numpy, attrs",
    "forestgames": "import forestgames",
    "forestgames_cli_help": (
        "import contextlib, io\nfrom forestgames.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help'])"
    ),
}
FIRST_CALLS = """
import json, sys, time
start = time.perf_counter()
import forestgames as fg
times, last = {}, start
def lap(name):
    global last
    now = time.perf_counter()
    times[name], last = round(1000 * (now - last), 2), now
lap("import")
game = fg.make(sys.argv[1]); lap("make")
state = game.new_game(seed=1); lap("new_game")
state.legal_moves(); lap("legal_moves")
state.legal_action_mask(); lap("legal_action_mask")
state.observation_tensor(0); lap("observation_tensor")
state.to_svg(); lap("to_svg")
print(json.dumps(times))
"""


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["OPENBLAS_NUM_THREADS"] = "1"  # no BLAS threads starting in the import's time
    return env


def _seconds(code: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def cold_start_report(rounds: int = ROUNDS) -> dict[str, Any]:
    """Median milliseconds of each CODE in new interpreters, interleaved, and the ratios."""
    env = _environment()
    for code in CODE.values():  # bytecode written once, as an install does
        _seconds(code, env)
    times: dict[str, list[float]] = {name: [] for name in CODE}
    for _ in range(rounds):
        for name, code in CODE.items():
            times[name].append(_seconds(code, env))
    ms = {name: round(1000 * statistics.median(t), 1) for name, t in times.items()}
    own = ms["forestgames"] - ms["numpy_attrs"]
    return {
        "median_ms": ms,
        "rounds": rounds,
        "forestgames_over_numpy_attrs": round(ms["forestgames"] / ms["numpy_attrs"], 2),
        "forestgames_own_ms": round(own, 1),
    }


def first_calls_report(rounds: int = ROUNDS) -> dict[str, Any]:
    """Median milliseconds of the import and of each first call, per game, new processes."""
    env, report = _environment(), {}
    laps: dict[str, list[dict[str, float]]] = {name: [] for name in fg.GAME_NAMES}
    for _ in range(rounds):
        for name in fg.GAME_NAMES:
            result = subprocess.run(
                [sys.executable, "-c", FIRST_CALLS, name],
                env=env,
                check=True,
                capture_output=True,
                encoding="utf-8",
            )
            laps[name].append(json.loads(result.stdout))
    for name, runs in laps.items():
        report[name] = {
            step: round(statistics.median(r[step] for r in runs), 2) for step in runs[0]
        }
    return {"first_calls_median_ms": report, "rounds": rounds}


def test_cold_import(benchmark: Any) -> None:
    """``import forestgames`` in new interpreters against ``import numpy, attrs``."""
    env = _environment()
    benchmark.pedantic(_seconds, args=(CODE["forestgames"], env), rounds=3)
    if not benchmark.disabled:
        record(benchmark, cold_start_report())


def test_first_calls(benchmark: Any) -> None:
    """Each game's first make, new_game, legal_moves, mask, tensor and picture."""
    env = _environment()
    benchmark.pedantic(_seconds, args=(CODE["forestgames"], env), rounds=1)
    if not benchmark.disabled:
        record(benchmark, first_calls_report())
