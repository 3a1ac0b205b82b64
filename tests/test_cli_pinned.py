"""Command-line behaviours a mutation audit of ``forestgames/cli.py`` found unpinned; each
runs ``main`` in-process (no subprocess) and reads its exit status and error line."""

from __future__ import annotations

import pytest

import forestgames as fg
from forestgames.boom_bokken import TimeOut
from forestgames.cli import HumanAgent, build_parser, main, move_pages

SIMULATE = ["simulate", "bosk", "-n", "1", "--no-progress"]


def test_an_integer_argument_of_4000_digits_is_read_and_4001_is_too_long(capsys):
    """The longest integer argument read is 4000 digits (cli._ARGUMENT_DIGITS): a 4000-digit
    seed reaches the seed check (0..2**64 - 1), one of 4001 digits is a usage error."""
    assert main([*SIMULATE, "--seed", "1" + "0" * 3999]) == 2
    err = capsys.readouterr().err
    assert "seed must be in 0..18446744073709551615" in err and "too long" not in err
    with pytest.raises(SystemExit) as exit_:
        main([*SIMULATE, "--seed", "1" + "0" * 4000])
    assert exit_.value.code == 2
    assert "--seed/-s: an integer of 4,001 digits is too long" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["squirrel_exactly_three", "=true", "="])
def test_an_option_without_its_key_or_its_value_is_a_usage_error(option, capsys):
    """-o takes KEY=VALUE (docs/simulation.md): a bare key, or a value with no key, is a
    usage error saying so (it was taken as the option '' or the text value '')."""
    with pytest.raises(SystemExit) as exit_:
        main([*SIMULATE, "-o", option])
    assert exit_.value.code == 2
    assert "options are KEY=VALUE (VALUE in JSON, e.g. true)" in capsys.readouterr().err


def test_a_decimal_argument_of_4000_characters_is_read_and_4001_is_not():
    """The longest decimal argument read is 4000 characters (as for integers): --seconds
    0.000... of 4000 characters is 0.0; of 4001 it is a usage error."""
    parser = build_parser()
    assert parser.parse_args(["bench", "--seconds", "0." + "0" * 3998]).seconds == 0.0
    with pytest.raises(SystemExit) as exit_:
        parser.parse_args(["bench", "--seconds", "0." + "0" * 3999])
    assert exit_.value.code == 2


def test_an_option_value_that_is_not_json_is_taken_as_text(capsys):
    """-o KEY=VALUE reads VALUE as JSON, and text that is not JSON as itself, unquoted:
    -o goal_setup=published is Bonsai's option goal_setup='published'."""
    args = build_parser().parse_args(["simulate", "bonsai", "-o", "goal_setup=published"])
    assert args.option == [("goal_setup", "published")]
    assert (
        main(["simulate", "bonsai", "-n", "1", "--no-progress", "-o", "goal_setup=published"]) == 0
    )


def test_players_and_a_num_players_option_that_disagree_are_refused(capsys):
    """--players N and -o num_players=M must agree (docs/simulation.md): 3 and 4 is an
    error naming both; 3 and 3 is one game of 3 players."""
    assert main([*SIMULATE, "--players", "3", "-o", "num_players=4"]) == 2
    err = capsys.readouterr().err
    assert "--players 3 and -o num_players=4 disagree: give it once" in err
    assert main([*SIMULATE, "--players", "3", "-o", "num_players=3"]) == 0
    assert "bosk, 3 players: " in capsys.readouterr().out


def test_an_output_that_is_a_directory_or_empty_is_named_as_such(capsys, tmp_path):
    """--csv naming a directory is refused as one (not as a file that exists), and an
    empty --out (--out=) is refused as an empty name, each before any game."""
    assert main([*SIMULATE, "--csv", str(tmp_path)]) == 2
    assert f"--csv {tmp_path}: is a directory, not a file" in capsys.readouterr().err
    assert main([*SIMULATE, "--out="]) == 2
    captured = capsys.readouterr()
    assert "--out needs a file name, not an empty one" in captured.err and captured.out == ""


def test_an_output_file_that_cannot_be_looked_at_is_named_with_the_reason(capsys, tmp_path):
    """An output path whose lookup fails (a symlink loop) is one error line: the option, the
    path and the system's reason, not Python's '[Errno N] ...' text."""
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    assert main([*SIMULATE, "--csv", str(loop)]) == 2
    err = capsys.readouterr().err
    assert err == f"forestgames: error: --csv {loop}: Too many levels of symbolic links\n"


def test_move_pages_group_moves_without_an_at_sign_by_their_words():
    """? lists moves grouped by kind: a notation without '@' is grouped by all but its last
    word ('attract Wolf' under 'attract'), a one-word move is a group of its own; columns
    are the widest entry plus 2 (8), labels the longest group plus 2 (9)."""
    pages = move_pages(["0:attract Wolf", "0:attract Bear", "0:pass"])
    assert pages == ["attract  1 Wolf  2 Bear\npass     3"]


def test_a_human_agent_by_default_sees_its_seat_and_is_not_asked_about_a_temps_mort():
    """HumanAgent(read, write) defaults: reveal=False, the position drawn as its seat sees
    it (not the referee's view), and every_reaction=False, a lone Temps Mort out of turn
    not asked about (react is None, nothing read)."""

    def read(prompt: str) -> str:
        raise AssertionError(f"asked {prompt!r}")

    human = HumanAgent(read, lambda text: None)
    state = fg.make("boom_bokken", num_players=4).new_game(seed=1)
    state = state.apply(state.legal_moves()[0])  # seat 0 to play; seat 1 may call Temps Mort
    assert state.legal_moves(1) == (TimeOut(1),)
    assert human.picture(state, 1) == state.render(1) != state.render()
    assert human.react(state, 1) is None


def test_a_move_list_of_one_page_has_no_page_line():
    """? on a move list that fits one page shows it without the 'page 1/1 of N moves' line
    (that line tells how to turn pages, of which there is one)."""
    written: list[str] = []
    typed = iter(["?", "1"])
    human = HumanAgent(lambda prompt: next(typed), written.append)
    state = fg.make("boom_bokken", num_players=4).new_game(seed=1)
    assert len(move_pages(state.legal_moves())) == 1
    assert human.choose(state) == state.legal_moves()[0]
    assert move_pages(state.legal_moves())[0] in written
    assert not any(text.startswith("page ") for text in written)


def test_the_current_directory_is_searched_only_for_import(capsys, tmp_path, monkeypatch):
    """The current directory joins sys.path only when --import names a module (for it to
    be found there): a command without --import leaves sys.path as it was."""
    import sys

    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.chdir(tmp_path)
    before = list(sys.path)
    assert main(SIMULATE) == 0
    assert sys.path == before
    assert main(["--import", "json", *SIMULATE]) == 0
    assert sys.path == [*before, str(tmp_path)]


def test_the_last_number_picks_the_last_move_and_question_one_shows_page_one():
    """Numbers are 1 to the number of legal moves, both ends included: the last one picks
    the last move; ?1 shows page 1 (pages are 1 to their count), not 'no page 1'."""
    written: list[str] = []
    state = fg.make("bosk", num_players=4).new_game(seed=1)  # 484 moves, 4 pages
    moves = state.legal_moves()
    typed = iter(["?1", str(len(moves))])
    human = HumanAgent(lambda prompt: next(typed), written.append)
    assert human.choose(state) == moves[-1]
    assert move_pages(moves)[0] in written
    assert not any(text.startswith("no page") for text in written)


@pytest.mark.parametrize("name", ["..", "", "my games", "1st"])
def test_import_of_no_module_name_says_what_it_takes(capsys, name):
    """--import with what is no dotted module name ('..', empty, a space, a leading digit)
    is refused before any import, saying it takes a module's name (it was the import
    machinery's own TypeError or ValueError, or a search for it)."""
    assert main(["--import", name, *SIMULATE]) == 2
    err = capsys.readouterr().err
    assert err.startswith("forestgames: error: --import takes a module's name (like my_games)")


def test_replay_refuses_only_files_larger_than_the_largest_record(capsys, tmp_path, monkeypatch):
    """replay's size limit admits every record (each of MAX_RECORD_MOVES moves of up to
    MAX_NOTATION characters costs at most 4 more in JSON: 2 quotes, a comma and a space),
    and refuses only a larger file: one of exactly the limit is read (here as a bad record),
    one byte more is too large (the limit made 10 bytes to try both)."""
    from forestgames import cli
    from forestgames.core import MAX_NOTATION, MAX_RECORD_MOVES

    assert cli._RECORD_BYTES >= MAX_RECORD_MOVES * (MAX_NOTATION + 4)
    monkeypatch.setattr(cli, "_RECORD_BYTES", 10)
    path = tmp_path / "game.json"
    path.write_text('"' + "x" * 8 + '"', encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "too large" not in capsys.readouterr().err
    path.write_text('"' + "x" * 9 + '"', encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "11 bytes is too large" in capsys.readouterr().err


def test_play_stopped_without_save_tells_how_to_keep_the_record(capsys, monkeypatch):
    """play stopped by quit without --save ends (status 1) saying how to keep the record
    next time; a game played to its end says nothing of it."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "bosk", "--seed", "1"]) == 1
    out = capsys.readouterr().out
    assert "stopped (quit)" in out
    assert out.endswith("(play with --save FILE to keep the record of a game)\n")
    record = fg.play(fg.make("bosk"), ["random", "greedy"], seed=3)
    typed = "\n".join(move for move in record.moves if move.startswith("0:"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed + "\n"))
    assert main(["play", "bosk", "--seed", "3", "--agents", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "game over" in out and "--save" not in out


def test_replay_of_json_lines_that_are_no_rows_says_so(capsys, tmp_path):
    """replay of a file of several JSON values, one a line, that are not results rows says
    it holds JSON lines, not one record."""
    path = tmp_path / "lines.jsonl"
    path.write_text('{"a": 1}\n{"b": 2}\n', encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "it holds several JSON values, one a line (JSON lines)" in capsys.readouterr().err


def test_play_refuses_the_seat_one_past_the_last(capsys):
    """play --seat 2 in a 2-player game (seats 0 and 1) is an error line naming it."""
    assert main(["play", "bosk", "--seat", "2"]) == 2
    assert "--seat 2 is not a seat of a 2-player game" in capsys.readouterr().err


def test_simulate_says_where_the_rows_went_only_with_csv(capsys, tmp_path):
    """simulate --csv FILE ends saying 'rows written to FILE'; without --csv it says
    nothing of rows."""
    csv = tmp_path / "rows.csv"
    assert main([*SIMULATE, "--csv", str(csv)]) == 0
    assert capsys.readouterr().out.endswith(f"rows written to {csv}\n")
    assert main(SIMULATE) == 0
    assert "rows written" not in capsys.readouterr().out


def test_replay_refuses_a_seat_not_in_the_game(capsys, tmp_path):
    """replay --seat 2 of a 2-player game (seats 0 and 1) is an error line naming it."""
    path = tmp_path / "game.json"
    path.write_text(fg.play(fg.make("bosk"), ["random"], seed=1).to_json(), encoding="utf-8")
    assert main(["replay", str(path), "--seat", "2"]) == 2
    assert "--seat 2 is not a seat of this game" in capsys.readouterr().err


def test_tournament_notes_time_budgets_only_when_an_agent_has_one(capsys):
    """tournament prints its note on time-budget agents (mcts:t=...) only when one plays:
    random against greedy gets none."""
    args = ["tournament", "bosk", "-n", "1", "-a", "random,greedy", "--no-progress"]
    assert main(args) == 0
    assert "note:" not in capsys.readouterr().out


def test_no_command_is_a_usage_error(capsys):
    """forestgames with no command is a usage error naming COMMAND as required."""
    with pytest.raises(SystemExit) as exit_:
        main([])
    assert exit_.value.code == 2
    assert "the following arguments are required: COMMAND" in capsys.readouterr().err


def test_play_echoes_exactly_the_other_seats_moves_it_may_see(capsys, monkeypatch):
    """play tells the human every move of another seat that its seat sees, and no more: in
    Living Forest with guardian_phase="simultaneous" the other Spirit's moves of a Guardian
    phase stay hidden (docs/living_forest.md: seen by their own seat only until the Action
    phase), its other moves are echoed in order, and the human's own moves are never echoed."""
    import io
    import re
    import sys

    game = fg.make("living_forest", guardian_phase="simultaneous")
    record = fg.play(game, ["random", "greedy"], seed=5)
    states = record.replay()
    public = [
        move
        for state, move in zip(states, record.moves, strict=False)
        if move.startswith("1:") and state.guardian_start is None
    ]
    assert 0 < len(public) < sum(move.startswith("1:") for move in record.moves)
    typed = "\n".join(move for move in record.moves if move.startswith("0:"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed + "\n"))
    options = ["-o", "guardian_phase=simultaneous"]
    assert main(["play", "living_forest", "--seed", "5", "--agents", "greedy", *options]) == 0
    out = capsys.readouterr().out
    assert re.findall(r"seat 1 plays (.+)$", out, re.MULTILINE) == public
    assert "seat 0 plays" not in out


def test_a_record_file_that_is_not_there_is_named_with_the_reason(capsys, tmp_path):
    """replay of a file that does not exist is one error line naming the file and the
    system's reason, not Python's "[Errno 2] ...: 'x'" text."""
    missing = tmp_path / "missing.json"
    assert main(["replay", str(missing)]) == 2
    assert capsys.readouterr().err == f"forestgames: error: {missing}: No such file or directory\n"


def test_a_replay_page_of_one_move_says_one_move(capsys, tmp_path):
    """replay --html of a one-move record says "replay page of 1 move" (it said "1 moves")."""
    game = fg.make("bosk")
    start = fg.GameRecord.start(game, seed=1, first_player=0)
    record = start.with_moves([str(start.replay()[0].legal_moves()[0])])
    path, page = tmp_path / "one.json", tmp_path / "one.html"
    path.write_text(record.to_json(), encoding="utf-8")
    assert main(["replay", str(path), "--html", str(page)]) == 0
    assert "replay page of 1 move (" in capsys.readouterr().out
