"""Pictures and replay pages: behaviours a bug hunt of the pictures, the replay pages and
``forestgames replay`` found wrong or unpinned."""

from __future__ import annotations

from pathlib import Path

import forestgames as fg
from forestgames.cli import main


def _record_file(tmp_path: Path) -> Path:
    """A short 2-player Bosk record saved as JSON."""
    record = fg.play(fg.make("bosk"), ["random"], seed=1)
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    return path


def test_replay_html_refuses_a_seat_not_in_the_game_naming_the_option(capsys, tmp_path):
    """replay --html --seat 2 of a 2-player game names --seat, as the text replay does (it
    said 'player 2'), and writes no page."""
    path, page = _record_file(tmp_path), tmp_path / "page.html"
    assert main(["replay", str(path), "--html", str(page), "--seat", "2"]) == 2
    assert "--seat 2 is not a seat of this game" in capsys.readouterr().err
    assert not page.exists()
