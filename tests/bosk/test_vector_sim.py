"""simulate(engine="vector"): Bosk games of random and greedy agents played by VectorBosk."""

from __future__ import annotations

import json

import pytest

import forestgames as fg
from forestgames.cli import main
from forestgames.core import ConfigError


@pytest.mark.parametrize(
    ("players", "agents", "rotate", "options"),
    [
        (2, ["random"], False, {}),
        (3, ["random", "greedy"], True, {"squirrel_exactly_three": True}),
        (4, ["greedy", "random", "random"], True, {"ties_include_start": False}),
    ],
)
def test_vector_rows_equal_the_scalar_rows(players, agents, rotate, options):
    """engine="vector" replays the scalar agents' games move for move: every row (seed,
    first player, lineup, scores, winner, length, run digest) is the scalar row."""
    game = fg.make("bosk", num_players=players, **options)
    kwargs = {"seed": 4, "rotate": rotate, "progress": False}
    scalar = fg.simulate(game, agents, 5, **kwargs)
    vector = fg.simulate(game, agents, 5, engine="vector", **kwargs)
    assert vector.rows == scalar.rows


def test_vector_rows_with_seeded_agent_objects():
    """Agent objects with their own seeds draw the same streams on both engines."""
    game = fg.make("bosk", num_players=2)
    agents = [fg.agents.RandomAgent(seed=9), fg.agents.GreedyAgent(seed=3)]
    scalar = fg.simulate(game, agents, 4, seed=2, progress=False)
    assert fg.simulate(game, agents, 4, seed=2, progress=False, engine="vector").rows == scalar.rows


@pytest.mark.parametrize(
    ("game", "agents", "extra"),
    [
        ("bonsai", ["random"], {}),
        ("bosk", ["mcts:10"], {}),
        ("bosk", ["random"], {"resume": True, "out": "x.jsonl"}),
        ("bosk", ["random"], {"engine": "gpu"}),
    ],
)
def test_vector_engine_refuses_what_it_cannot_play(game, agents, extra):
    """Other games, other agents, resuming, or an unknown engine: ConfigError."""
    extra = {"engine": "vector", **extra}
    with pytest.raises(ConfigError):
        fg.simulate(fg.make(game), agents, 2, seed=0, progress=False, **extra)


def test_command_line_vector_engine(tmp_path, capsys):
    """forestgames simulate bosk --engine vector prints the summary and writes the rows."""
    out = tmp_path / "rows.jsonl"
    code = main(["simulate", "bosk", "-p", "4", "-n", "8", "--engine", "vector",
                 "--agents", "greedy,random", "--out", str(out), "--no-progress"])  # fmt: skip
    assert code == 0
    assert "8 games" in capsys.readouterr().out
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["index"] for r in rows] == list(range(8))
