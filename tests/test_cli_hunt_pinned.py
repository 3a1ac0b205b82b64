"""Command-line behaviours found unpinned (or broken) by a bug hunt of ``forestgames/cli.py``
and game record files; each runs ``main`` in-process and reads its exit status and output."""

from __future__ import annotations

import io
import sys

import pytest

from forestgames.cli import main


@pytest.mark.parametrize(
    "command",
    [
        ["play", "bosk", "--seed", "1", "--save"],
        ["simulate", "bosk", "-n", "1", "--no-progress", "--csv"],
        ["tournament", "bosk", "-n", "1", "-a", "random,greedy", "--no-progress", "--json"],
    ],
)
def test_an_output_linked_into_a_missing_folder_is_refused_before_any_game(
    command, capsys, tmp_path, monkeypatch
):
    """An output file named by a symlink into a folder that does not exist is refused before
    any game is played (docs/simulation.md), naming that folder: it passed the check and the
    write at the end failed, losing the game played or the run."""
    link = tmp_path / "out"
    link.symlink_to(tmp_path / "missing" / "file")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main([*command, str(link)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"forestgames: error: --{command[-1][2:]} {link}: no directory {tmp_path / 'missing'} "
        "to write it in\n"
    )
