"""Saved data across library versions: what a later version reads, and what it refuses.

The files under tests/data/compat_0.1.0 were written by forestgames 0.1.0 (commit 9640a2f).
"""

import json
from pathlib import Path

import pytest

import forestgames as fg

OLD = Path(__file__).parent / "data" / "compat_0.1.0"


def test_resume_refuses_a_results_file_of_another_version(tmp_path):
    """A results file begun by another version (0.1.0's Greedy played other Living Forest
    games) is not resumed: its rows and this version's games would mix silently."""
    out = tmp_path / "results.jsonl"
    out.write_bytes((OLD / "living_forest_greedy_random_seed3.jsonl").read_bytes())
    game = fg.make("living_forest", num_players=2)
    with pytest.raises(fg.ConfigError, match=r"another run.*forestgames version"):
        fg.simulate(game, ["greedy", "random"], 6, seed=3, progress=False, out=out, resume=True)
    assert out.read_bytes() == (OLD / "living_forest_greedy_random_seed3.jsonl").read_bytes()


def test_resume_refuses_rows_written_by_another_version(tmp_path, monkeypatch):
    """Rows written by one version are another run for the next version, even when every
    argument of the run is the same."""
    args = dict(game="bosk", agents=["random"], games=4, seed=2, progress=False)
    out = tmp_path / "results.jsonl"
    monkeypatch.setattr(fg.sim, "__version__", "0.1.9", raising=False)
    fg.simulate(**args | {"games": 2}, out=out)
    monkeypatch.undo()
    with pytest.raises(fg.ConfigError, match=r"this is " + fg.__version__):
        fg.simulate(**args, out=out, resume=True)
    fg.simulate(**args | {"games": 2}, out=tmp_path / "same.jsonl")
    assert len(fg.simulate(**args, out=tmp_path / "same.jsonl", resume=True).rows) == 4


@pytest.mark.parametrize(
    "tag", ["bosk_0_0_1", "bonsai_0_1_1", "living_forest_2_1_1", "boom_bokken_0_7_0"]
)
def test_old_records_replay_to_their_scores(tag):
    """A game record of 0.1.0 replays to the scores and winners 0.1.0 gave it."""
    expected = json.loads((OLD / "final_scores.json").read_text())[tag]
    record = fg.GameRecord.from_json((OLD / f"{tag}.record.json").read_text())
    final = record.final_state()
    assert len(record.moves) == expected["moves"]
    assert final.is_terminal
    assert list(final.scores) == expected["scores"]
    assert list(final.winners) == expected["winners"]


def test_old_saved_state_is_refused_with_a_state_error():
    """A Boom Bokken state saved by 0.1.0 lacks fields added since: a StateError, not a
    state made up from defaults."""
    data = json.loads((OLD / "boom_bokken_state.json").read_text())
    game = fg.make("boom_bokken", num_players=4)
    with pytest.raises(fg.StateError, match="lacks known_cards"):
        game.state_from_dict(data)
