"""Command-line and game-record behaviours found unpinned (or broken) by a bug hunt of
``forestgames/cli.py`` and ``GameRecord``: the command is run in-process (``main``), its
exit status and output read; records are built and read through their own API."""

from __future__ import annotations

import contextlib
import io
import sys
from typing import Any

import pytest

import forestgames as fg
from forestgames.agents import acting_seat
from forestgames.cli import HumanAgent, main
from tests.strategies import random_game


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


@pytest.mark.parametrize(
    "fields",
    [
        {"options": {"num_players": 10**5000}},
        {"options": {"terrain": [[10**4000]]}},
        {"options": {"x": {10**4000: 1}}},
        {"first_player": 10**5000},
    ],
)
def test_a_record_refuses_an_int_that_json_could_not_read_back(fields):
    """GameRecord refuses (ConfigError) an option or first_player int of over 4,000 digits,
    which to_json wrote only to raise Python's ValueError (Python reads back no int of over
    4300 digits); from_dict of one is a StateError."""
    data = {"game": "bosk", "options": {}, "seed": 0, "first_player": None, "moves": ()}
    data |= fields
    with pytest.raises(fg.ConfigError, match="has more than 4,000 digits"):
        fg.GameRecord(**data)
    with pytest.raises(fg.StateError, match="has more than 4,000 digits"):
        fg.GameRecord.from_dict(data | {"moves": []})


def test_a_record_of_ints_of_4000_digits_round_trips_through_json():
    """The largest ints a record holds (4,000 digits, as option values and first_player)
    are written and read back by JSON to an equal record."""
    big = 10**4000 - 1
    record = fg.GameRecord("bosk", {"x": [big, -big]}, 0, big, ())
    assert fg.GameRecord.from_json(record.to_json()) == record


@pytest.mark.parametrize(
    "command",
    [
        ["replay", "game\0.json"],
        ["replay", "game.json", "--html", "page\0.html"],
        ["simulate", "bosk", "-n", "1", "--no-progress", "--csv", "rows\0.csv"],
        ["play", "bosk", "--save", "game\0.json"],
    ],
)
def test_a_file_name_with_a_nul_byte_is_a_usage_error(command, capsys):
    """main() called in-process with a file argument holding a NUL byte exits 2 with a
    usage error saying so (os.stat raised ValueError, a traceback, on it)."""
    with pytest.raises(SystemExit) as exit_:
        main(command)
    assert exit_.value.code == 2
    assert "a file name has no NUL byte" in capsys.readouterr().err


HIDDEN = [
    ("living_forest", {}),
    ("living_forest", {"guardian_phase": "simultaneous"}),
    ("boom_bokken", {"num_players": 5, "expert": True}),
    ("bonsai", {"num_players": 3}),
]


def _answers(state: Any, seat: int, typed: list[str]) -> list[str]:
    """What play writes back to ``typed`` (one line after another) at ``seat``'s prompt."""
    written: list[str] = []
    lines = iter(typed)
    human = HumanAgent(lambda prompt: next(lines), written.append)
    with contextlib.suppress(StopIteration):
        while True:
            written.append(f"chose {human.choose(state)}")
    return written


@pytest.mark.parametrize(("name", "options"), HIDDEN, ids=[f"{n}{o}" for n, o in HIDDEN])
def test_play_answers_typed_moves_alike_in_positions_the_seat_cannot_tell_apart(name, options):
    """What play writes back to any move a person types (accepted, or 'illegal: why') is
    the same in two positions their seat cannot tell apart (determinize): no explanation
    of an illegal move shows another seat's hidden cards or a hidden order."""
    game = fg.make(name, **options)
    ids = range(game.num_actions) if game.num_actions < 2000 else range(0, game.num_actions, 97)
    checked = 0
    for step, (state, _) in enumerate(random_game(game, seed=4)):
        if step % 40 != 20 or state.is_terminal:
            continue
        seat = acting_seat(state)
        other = state.determinize(seat, 1)
        typed = [str(game.move_from_id(i, seat)) for i in ids]
        typed += [str(move) for move in state.legal_moves(seat)]
        assert _answers(state, seat, typed) == _answers(other, seat, typed)
        checked += other != state
    assert checked >= 2  # positions whose hidden part the sample changed


def test_import_from_a_current_directory_that_is_gone_still_imports_or_says_why(
    capsys, monkeypatch
):
    """--import run from a current directory deleted under the shell imports a module found
    elsewhere (json) and names one found nowhere (exit 2, one line); os.getcwd raised
    FileNotFoundError, a traceback, first."""

    def gone() -> str:
        raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr("os.getcwd", gone)
    assert main(["--import", "json", "simulate", "bosk", "-n", "1", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["--import", "no_such_games_module", "bench", "bosk"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("forestgames: error: --import no_such_games_module: No module named")
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("ending", ["/", "/."])
@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "bosk", "-n", "1", "--no-progress", "--out"],
        ["simulate", "bosk", "-n", "1", "--no-progress", "--csv"],
        ["play", "bosk", "--seed", "1", "--save"],
    ],
)
def test_an_output_named_as_a_directory_that_does_not_exist_is_refused(
    command, ending, capsys, tmp_path, monkeypatch
):
    """An output named as a directory (``new/``, ``new/.``) that does not exist is refused
    before any game, as open() would refuse it; a file ``new`` was written instead."""
    path = f"{tmp_path / 'new'}{ending}"
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main([*command, path]) == 2
    captured = capsys.readouterr()
    option = command[-1]
    assert captured.err == f"forestgames: error: {option} {path}: names a directory, not a file\n"
    assert captured.out == "" and not (tmp_path / "new").exists()
