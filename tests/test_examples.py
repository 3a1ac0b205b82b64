"""The example scripts run (with small workloads) and do what their docstrings say."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_example(name: str, *args: str) -> str:
    """Run ``examples/NAME`` with ``args``; return its output (fails on a non-zero status)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / name), *args],
        capture_output=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_compare_strategies():
    """The strategy comparison prints one line per pair of agents."""
    out = run_example("compare_strategies.py", "--games", "2", "--agents", "random,greedy,mcts:4")
    pairs = [line.split()[:2] for line in out.splitlines()[1:]]
    assert pairs == [["random", "greedy"], ["random", "mcts:4"], ["greedy", "mcts:4"]]


def test_first_player_advantage_saves_a_png(tmp_path):
    """The first-player study prints a rate per player count and writes a PNG plot."""
    pytest.importorskip("matplotlib")
    png = tmp_path / "fp.png"
    out = run_example(
        "first_player_advantage.py", "--games", "3", "--players", "2,4", "--out", str(png)
    )
    assert "2 players: first player won" in out and "4 players" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_embedded_engine():
    """The miniature game server refuses bad requests and finishes a game between bots."""
    out = run_example("embedded_engine.py")
    assert "a bad request: {'ok': False" in out and "not seat" in out
    assert "winners [" in out


def test_replay_page_seats_one_mcts_agent(tmp_path):
    """The replay-page example puts MCTS at seat 0 only and the opponent at every other
    seat, whatever the player count (solo Bonsai included: two agents were refused)."""
    for game, players, lineup in [
        ("bosk", "3", "mcts:2, greedy, greedy"),
        ("bonsai", "1", "mcts:2"),
    ]:
        page = tmp_path / f"{game}.html"
        out = run_example(
            "replay_page.py", "--game", game, "--players", players, "--iterations", "2",
            "--out", str(page),
        )  # fmt: skip
        assert f"seats' agents {lineup}\n" in out, out
        assert page.exists() and page.with_suffix(".json").exists()


@pytest.mark.parametrize(
    "name",
    sorted(path.name for path in (ROOT / "examples").glob("*.py")),
)
def test_every_example_answers_help_without_running(name):
    """``--help`` prints a usage line and returns at once (it does not run the example)."""
    out = run_example(name, "--help")
    assert out.startswith("usage:"), out[:200]
