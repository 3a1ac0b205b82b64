"""simulate(engine="vector"): Bosk games of random and greedy agents played by VectorBosk."""

from __future__ import annotations

import json

import pytest

import forestgames as fg
from forestgames.cli import main
from forestgames.core import ConfigError


def test_vector_rows_start_like_the_scalar_rows():
    """Each vector row has the scalar row's game seed, first player and seat lineup
    (rotation included), a finished game and a plausible length."""
    game = fg.make("bosk", num_players=3)
    agents = ["random", "greedy"]
    scalar = fg.simulate(game, agents, 6, seed=4, rotate=True, progress=False)
    vector = fg.simulate(game, agents, 6, seed=4, rotate=True, progress=False, engine="vector")
    for a, b in zip(scalar.rows, vector.rows, strict=True):
        assert (a.index, a.seed, a.first_player, a.agents) == (
            b.index,
            b.seed,
            b.first_player,
            b.agents,
        )
        assert not b.truncated and len(b.winners) == 1 and len(b.scores) == 3
        assert 8 * 3 + 1 + 2 * 8 * 3 <= b.moves <= game.traits.max_moves
        assert b.scores[b.winners[0]] == max(b.scores)
    assert vector.summary()["games"] == 6


def test_vector_statistics_agree_with_scalar_ones():
    """Random 2-player games: the vector engine's mean score and game length match the
    scalar engine's within a few standard errors (fixed seeds: the outcome is repeatable)."""
    game = fg.make("bosk", num_players=2)
    scalar = fg.simulate(game, ["random"], 150, seed=1, progress=False).summary()
    vector = fg.simulate(game, ["random"], 1500, seed=1, progress=False, engine="vector").summary()
    for key in ("mean_score",):
        s, v = scalar["agents"][0], vector["agents"][0]
        assert abs(s[key] - v[key]) < 4 * s["sd_score"] / (2 * 150) ** 0.5
    assert abs(scalar["mean_moves"] - vector["mean_moves"]) < 2.0


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
