"""Saved data across library versions: what a later version reads, and what it refuses.

The files under tests/data/compat_0.1.0 were written by forestgames 0.1.0 (commit 9640a2f).
"""

import json
import os
import pickle
import subprocess
import sys
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
    expected = json.loads((OLD / "final_scores.json").read_text(encoding="utf-8"))[tag]
    record = fg.GameRecord.from_json((OLD / f"{tag}.record.json").read_text(encoding="utf-8"))
    final = record.final_state()
    assert len(record.moves) == expected["moves"]
    assert final.is_terminal
    assert list(final.scores) == expected["scores"]
    assert list(final.winners) == expected["winners"]


def test_old_saved_state_is_refused_with_a_state_error():
    """A Boom Bokken state saved by 0.1.0 lacks fields added since: a StateError, not a
    state made up from defaults."""
    data = json.loads((OLD / "boom_bokken_state.json").read_text(encoding="utf-8"))
    game = fg.make("boom_bokken", num_players=4)
    with pytest.raises(fg.StateError, match="lacks known_cards"):
        game.state_from_dict(data)


@pytest.mark.parametrize("name", ["bonsai", "living_forest"])
def test_old_pickle_is_refused_with_a_state_error(name):
    """A state pickled by 0.1.0 is a StateError saying so (Bonsai's raised AttributeError;
    Living Forest's loaded as whatever fields 0.1.0 had)."""
    data = (OLD / f"{name}_state.pickle").read_bytes()
    with pytest.raises(fg.StateError, match="pickled by an earlier version"):
        pickle.loads(data)


def test_pickle_of_another_version_is_refused(monkeypatch):
    """A state pickled under another version string is refused with both versions named;
    the same version reads it back equal, with the same legal moves."""
    state = fg.make("bosk", num_players=3).new_game(seed=4)
    state = state.apply(state.legal_moves()[7])
    assert pickle.loads(pickle.dumps(state)) == state
    assert pickle.loads(pickle.dumps(state)).legal_moves() == state.legal_moves()
    monkeypatch.setattr(fg.core, "__version__", "0.1.9", raising=False)
    data = pickle.dumps(state)
    monkeypatch.undo()
    with pytest.raises(fg.StateError, match=r"pickled by forestgames 0\.1\.9"):
        pickle.loads(data)


def test_pickles_in_a_fresh_process_with_another_hash_seed(tmp_path):
    """A game and states pickled here load in a new interpreter with another PYTHONHASHSEED
    as equal states with the same legal moves, masks and to_dict."""
    states = []
    for name, players in (("bosk", 3), ("bonsai", 2), ("living_forest", 4), ("boom_bokken", 6)):
        record = fg.play(fg.make(name, num_players=players), ["random"], seed=11)
        states += list(record.replay()[:: max(1, len(record.moves) // 4)])
    path = tmp_path / "states.pickle"
    path.write_bytes(pickle.dumps(states))
    script = (
        "import pickle, sys, json\n"
        "states = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "print(json.dumps([[s.to_dict(), [str(m) for m in s.legal_moves()],"
        " s.legal_action_mask().tolist() if s.current_player is not None else None,"
        " s == s.game.state_from_dict(s.to_dict())] for s in states]))\n"
    )
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run(
        [sys.executable, "-c", script, str(path)], env=env, capture_output=True, encoding="utf-8"
    )
    assert out.returncode == 0, out.stderr
    for state, (saved, legal, mask, equal) in zip(states, json.loads(out.stdout), strict=True):
        assert equal and saved == json.loads(json.dumps(state.to_dict()))
        assert legal == [str(m) for m in state.legal_moves()]
        if mask is not None:
            assert mask == state.legal_action_mask().tolist()


def test_a_record_read_with_its_byte_order_mark_loads():
    """Record text starting with a byte-order mark (a Windows editor's) loads, as its bytes do."""
    record = fg.play("bonsai", ["random"], seed=3)
    text = record.to_json(indent=1).replace("\n", "\r\n")
    assert fg.GameRecord.from_json("\ufeff" + text) == record
    assert fg.GameRecord.from_json(("\ufeff" + text).encode()) == record


def test_a_record_names_the_version_that_wrote_it():
    """A record keeps the version that wrote it through JSON; 0.1's records name none and
    read as None; the version is provenance, so records of two versions compare equal."""
    record = fg.GameRecord.start("bosk", 3).with_moves(["0:plant 3@4,5"])
    assert record.version == fg.__version__
    data = json.loads(record.to_json())
    assert data["version"] == fg.__version__
    assert fg.GameRecord.from_json(record.to_json()).version == fg.__version__
    old = fg.GameRecord.from_json((OLD / "bosk_0_0_1.record.json").read_text(encoding="utf-8"))
    assert "version" not in json.loads((OLD / "bosk_0_0_1.record.json").read_text(encoding="utf-8"))
    assert old.version is None
    assert fg.GameRecord.from_dict(data | {"version": "0.1.0"}) == record


def test_a_replay_error_names_the_other_version_that_wrote_the_record():
    """A record of another version whose move is illegal here names both versions (a rules
    change may be why); this version's record, or one of no stated version, does not."""
    data = fg.GameRecord.start("bosk", 3).to_dict() | {"moves": ["0:plant 3@0,0"]}
    for version, named in (("0.1.0", True), (fg.__version__, False), (None, False)):
        record = fg.GameRecord.from_dict(data | {"version": version})
        with pytest.raises(fg.IllegalMoveError, match="move 1") as caught:
            record.replay()
        assert ("written by forestgames 0.1.0, this is " in str(caught.value)) is named
    record = fg.GameRecord.from_dict(data | {"version": "0.1.0", "options": {"trees": 3}})
    with pytest.raises(fg.StateError, match=r"trees.*written by forestgames 0\.1\.0"):
        record.replay()


@pytest.mark.parametrize("version", ["", "0.1\n", "x" * 65, 1, ["0.1"], "0.1 beta"])
def test_a_records_version_must_be_a_version(version):
    """A version that is no version's text is refused: StateError from JSON, ConfigError
    from the constructor."""
    data = fg.GameRecord.start("bosk", 3).to_dict() | {"version": version}
    with pytest.raises(fg.StateError, match="version"):
        fg.GameRecord.from_dict(data)
    with pytest.raises(fg.ConfigError, match="version"):
        fg.GameRecord("bosk", {}, 3, None, (), version=version)


def test_a_record_pickled_by_0_1_loads_with_no_version():
    """A GameRecord pickled by 0.1.0 (which had no version field) loads as a record of
    unknown version that replays (it raised AttributeError on replay, to_json and repr)."""
    record = pickle.loads((OLD / "bosk_record.pickle").read_bytes())
    assert record.version is None
    assert len(record.replay()) == 6 and "version" in repr(record)
    assert json.loads(record.to_json())["version"] is None
    again = pickle.loads(pickle.dumps(record))
    assert again == record and again.version is None
    fresh = fg.GameRecord.start("bosk", 3)
    assert pickle.loads(pickle.dumps(fresh)).version == fg.__version__


def test_a_bonsai_tree_pickles_with_its_version():
    """A Bonsai tree pickles as its fields, read back as they are (its placement cache left
    out)."""
    record = fg.play(fg.make("bonsai", num_players=2), ["random"], seed=1)
    tree = record.replay()[40].trees[0]
    tree._placing = {0: "cached"}
    again = pickle.loads(pickle.dumps(tree))
    assert again == tree and again._placing is None and again.points() == tree.points()
    assert repr(again) == repr(tree)


def test_a_bonsai_tree_of_another_version_is_refused(monkeypatch):
    """A tree pickled under another version string is refused, naming that version."""
    tree = fg.play(fg.make("bonsai", num_players=2), ["random"], seed=1).final_state().trees[1]
    monkeypatch.setattr(fg.bonsai.tree, "__version__", "0.1.9")
    data = pickle.dumps(tree)
    monkeypatch.undo()
    with pytest.raises(fg.StateError, match=r"bonsai Tree pickled by forestgames 0\.1\.9"):
        pickle.loads(data)


def test_a_boom_bokken_expert_record_of_0_1_stops_at_the_move_the_flash_rule_forbids():
    """docs/index.md's example: 0.2's Expert Flash rule (no Flash on one's own card) makes
    move 8 of this 0.1.0 record illegal: replay names that move, never a different game."""
    text = (OLD / "boom_bokken_1_12345_1.record.json").read_text(encoding="utf-8")
    with pytest.raises(fg.IllegalMoveError, match=r"^move 8 .*Flash on one's own card"):
        fg.GameRecord.from_json(text).replay()
