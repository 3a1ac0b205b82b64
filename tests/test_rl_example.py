"""The RL example runs (a small workload) and prints its win rates."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_policy_gradient_example_runs() -> None:
    """The policy-gradient example trains a little and prints both win rates."""
    pytest.importorskip("pettingzoo")
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "rl_policy_gradient.py"), "--games", "60"]
        + ["--eval", "20"],
        capture_output=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("win rate before training: ")
    assert lines[2].startswith("win rate after 60 games: ")
