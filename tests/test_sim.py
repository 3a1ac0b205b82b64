"""play and simulate: the driver loop, the same rows on any backend, results files, summaries."""

from __future__ import annotations

import errno
import io
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Collection
from pathlib import Path
from typing import Any

import attrs
import pytest

import forestgames as fg
from forestgames import cli, sim
from forestgames.agents import RandomAgent
from forestgames.core import derive_seed
from forestgames.sim import (
    CHUNK_SECONDS,
    GameRow,
    SimulationResult,
    TruncatedGameWarning,
    _Chunker,
    play_game,
    process_context,
    wilson_interval,
)
from tests.test_fake_game import Add, Buzz, BuzzGame

BOSK = fg.make("bosk")


class SeatZeroDieFirst(RandomAgent):
    """A random agent whose process dies (hard) when it first moves while ``marker`` is absent."""

    def __init__(self, marker: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self.marker = marker
        self.name = "random"

    def settings(self):
        return {"marker": self.marker}

    def choose(self, state):
        if not os.path.exists(self.marker):
            Path(self.marker).write_text("died once", encoding="utf-8")
            os._exit(1)
        return super().choose(state)


# --------------------------------------------------------------------------- one game


def test_play_returns_a_replayable_record():
    """fg.play returns the GameRecord of a finished game; replaying it reaches the end."""
    record = fg.play(BOSK, ["greedy", "random"], seed=3)
    assert record.game == "bosk" and record.seed == 3 and record.options == BOSK.options()
    final = fg.GameRecord.from_json(record.to_json()).final_state()
    assert final.is_terminal and final.winners


def test_play_is_reproducible_and_seed_dependent():
    """Same game, agents and seed: the same record; another seed: another game."""
    assert fg.play(BOSK, ["random"], seed=5) == fg.play("bosk", [RandomAgent(0)], seed=5)
    assert fg.play(BOSK, ["random"], seed=5) != fg.play(BOSK, ["random"], seed=6)


def test_agents_cycle_over_seats():
    """A shorter agent list is cycled over the seats: agent k % len plays seat k."""
    game = fg.make("bosk", num_players=4)
    result = fg.simulate(game, ["greedy", "random"], 1, seed=0, progress=False)
    assert result.rows[0].agents == ("greedy", "random", "greedy", "random")


def test_driver_offers_reactions_before_the_turn():
    """Seats in players_to_act[1:] with react() are asked first; a move they return is applied."""
    log = []
    record, state, truncated = play_game(
        BuzzGame(3), ["random"], seed=4, observer=lambda s, m: log.append((s.players_to_act, m))
    )
    assert not truncated and state.is_terminal
    buzzes = [m for _, m in log if isinstance(m, Buzz)]
    assert buzzes, "random agents buzz out of turn sometimes"
    for acting, move in log:
        if isinstance(move, Buzz):
            assert move.player in acting[1:]
        else:
            assert move.player == acting[0]
    assert record.moves == tuple(str(m) for _, m in log)


def test_an_observer_that_is_not_a_function_is_refused_before_the_game():
    """play_game's observer must be callable: a ConfigError before any move (a string raised
    TypeError at the first move)."""
    for observer in ("log", 3, [print]):
        with pytest.raises(fg.ConfigError, match="observer must be a function"):
            play_game(BuzzGame(2), ["random"], seed=1, observer=observer)


def test_the_summary_table_keeps_its_columns_for_long_agent_specs_and_full_intervals():
    """Every line of format_summary's tables is as long as its header: a label longer than
    12 characters (an MCTS spec) widens the label column, and an interval reaching 100.0%
    keeps the columns after it in place (each pushed the rest of its line right)."""
    game = fg.make("bosk", num_players=2)
    result = fg.simulate(game, ["mcts:n=2:l=1:c=1.5", "random"], 3, seed=2, progress=False)
    lines = result.format_summary().splitlines()[1:]
    assert any("100.0%]" in line for line in lines)
    assert len({len(line) for line in lines}) == 1, lines


def test_the_summary_table_shows_an_agent_name_with_control_characters_on_one_line():
    """An agent named with a newline and a tab keeps the table's lines whole: the name is
    shown escaped, as in its repr, and the columns stay aligned (the newline split its
    line in two)."""

    class Odd(fg.RandomAgent):
        name = "two\nlines\tx"

    result = fg.simulate(fg.make("bosk", num_players=2), [Odd(1), "random"], 2, seed=1,
                         progress=False)  # fmt: skip
    lines = result.format_summary().splitlines()
    assert len(lines) == 1 + 2 * (1 + 2)  # title, then a header and two rows per table
    assert any(line.startswith(r"two\nlines\tx ") for line in lines)
    assert len({len(line) for line in lines[1:]}) == 1, lines
    assert {row.agents[0] for row in result.rows} == {"two\nlines\tx"}  # the data unchanged


def test_an_agent_playing_illegally_is_named():
    """A move that is illegal, or of another seat, raises IllegalMoveError naming the agent."""

    class Cheat:
        name = "cheat"

        def __init__(self, pick):
            self.pick = pick

        def choose(self, state):
            return self.pick(state)

    with pytest.raises(fg.IllegalMoveError, match=r"agent cheat at seat 1: .*plant 9"):
        play_game(
            BuzzGame(2), [RandomAgent(0), Cheat(lambda s: fg.bosk.PlantTree(1, 9, (0, 0)))], 0
        )
    with pytest.raises(fg.IllegalMoveError, match=r"agent cheat at seat .* not a move of its seat"):
        play_game(BuzzGame(2), [Cheat(lambda s: Add(1 - s.turn, 1))], 0)


class FirstMove:
    """An agent with choose(state) only: no name, no seed, no react."""

    def choose(self, state):
        return state.legal_moves()[0]


def test_an_agent_without_a_name_goes_by_its_class_name():
    """Any object with choose(state) is an agent in play, simulate (also in workers) and
    tournament; without a ``name`` it is shown by its class name."""
    fg.play(BOSK, [FirstMove()], seed=1)
    for workers in (1, 2):
        result = fg.simulate(BOSK, [FirstMove(), "random"], 2, seed=1, workers=workers,
                             progress=False)  # fmt: skip
        assert all(row.agents == ("FirstMove", "random") for row in result.rows)
    rated = fg.tournament(BOSK, [FirstMove(), "random"], 2, seed=1, progress=False)
    assert sorted(rated.agents) == ["FirstMove", "random"]


def test_an_agent_class_is_refused_with_a_hint():
    """An agent class where an agent belongs is a ConfigError at once, in every driver,
    saying to pass an instance or a spec."""
    hint = r"(\w+) is a class: pass an agent instance \(e\.g\. \1\(\)\) or a spec string"
    from forestgames import rl

    for call in (
        lambda: fg.play(BOSK, [fg.RandomAgent] * 2, seed=0),
        lambda: fg.simulate(BOSK, [fg.RandomAgent], 1, progress=False),
        lambda: fg.tournament(BOSK, [fg.RandomAgent, "random"], 1, progress=False),
        lambda: rl.gym_env("bosk", opponents=fg.RandomAgent),
        lambda: fg.agents.make_agent(FirstMove),
    ):
        with pytest.raises(fg.ConfigError, match=hint):
            call()


def test_agents_without_react_never_move_out_of_turn():
    """An agent with no react() is never asked out of turn: in Buzz nobody buzzes."""

    class ChooseOnly:
        name = "choose-only"

        def __init__(self, seed):
            self.inner = RandomAgent(seed)

        def choose(self, state):
            return self.inner.choose(state)

    _, state, _ = play_game(BuzzGame(2), [ChooseOnly(1), ChooseOnly(2)], seed=1)
    assert state.bonus == (0, 0)


def test_move_cap_truncates_and_is_reported():
    """A game longer than the move cap stops there: play() warns, rows say truncated."""
    game = BuzzGame(2, endless=True)
    with pytest.warns(TruncatedGameWarning, match="move cap"):
        record = fg.play(game, ["greedy"], seed=0, max_moves=7)
    assert len(record.moves) == 7
    result = fg.simulate(game, ["greedy"], 3, seed=0, progress=False, max_moves=9)
    assert all(row.truncated and row.winners == () and row.moves == 9 for row in result.rows)
    assert result.summary()["truncated"] == 3
    assert result.summary()["seats"][0]["games"] == 0
    with pytest.raises(fg.ConfigError, match="max_moves"):
        fg.simulate(game, ["greedy"], 1, max_moves=0)


def test_default_cap_is_generous():
    """The default move cap is 4x the game's declared maximum length."""
    game = BuzzGame(2, target=3, endless=True)
    record, _, truncated = play_game(game, ["greedy"], seed=0)
    assert truncated and len(record.moves) == 4 * game.traits.max_moves


# --------------------------------------------------------------------------- many games


def test_rows_follow_the_run_seed():
    """Game k is seeded derive_seed(seed, k); its row does not depend on how many games run."""
    few = fg.simulate(BOSK, ["greedy", "random"], 3, seed=11, progress=False)
    more = fg.simulate(BOSK, ["greedy", "random"], 6, seed=11, progress=False)
    assert [row.seed for row in more.rows] == [derive_seed(11, k) for k in range(6)]
    assert more.rows[:3] == few.rows
    first = few.rows[0]
    assert first.first_player == BOSK.new_game(seed=first.seed).current_player
    replayed = fg.play(BOSK, ["greedy", "random"], seed=first.seed)
    assert len(replayed.moves) == first.moves
    assert list(replayed.final_state().scores) == list(first.scores)


def test_same_rows_with_one_and_two_workers():
    """The rows of a run are identical with 1 worker and with 2 local processes."""
    args = dict(
        game=BOSK, agents=["greedy", "random"], games=10, seed=21, progress=False, rotate=True
    )
    assert fg.simulate(**args, workers=1).rows == fg.simulate(**args, workers=2).rows


def test_killed_local_worker_costs_no_game(tmp_path):
    """A worker process that dies mid-run is replaced and its games replayed: same rows."""
    marker = str(tmp_path / "died")
    agents = [SeatZeroDieFirst(marker, seed=1), "random"]
    calm = fg.simulate(BOSK, [RandomAgent(1), "random"], 6, seed=2, progress=False)
    hit = fg.simulate(BOSK, agents, 6, seed=2, workers=2, progress=False)
    assert os.path.exists(marker)
    assert [r.to_dict() | {"run": ""} for r in hit.rows] == [
        r.to_dict() | {"run": ""} for r in calm.rows
    ]


def test_rotate_gives_every_agent_every_seat():
    """With rotate, over a multiple of the player count each agent plays each seat equally."""
    game = fg.make("bosk", num_players=3)
    result = fg.simulate(
        game, ["greedy", "random", "random"], 6, seed=1, rotate=True, progress=False
    )
    for seat in range(3):
        assert [row.agents[seat] for row in result.rows].count("greedy") == 2


def test_greedy_beats_random():
    """Greedy wins at least 70% of 100 seeded 2-player Bosk games against Random (seats rotated)."""
    result = fg.simulate(BOSK, ["greedy", "random"], 100, seed=2026, rotate=True, progress=False)
    greedy = next(t for t in result.summary()["agents"] if t["label"] == "greedy")
    assert greedy["games"] == 100 and greedy["win_rate"] >= 0.70


def test_bad_arguments_raise_config_errors():
    """Bad games, workers, backend or agents raise ConfigError naming the problem."""
    for kwargs, word in [
        ({"games": -1}, "games"),
        ({"workers": 0}, "workers"),
        ({"backend": "dask"}, "backend"),
        ({"agents": []}, "agents"),
        ({"agents": ["nobody"]}, "unknown agent"),
        ({"resume": True}, "resume needs"),
    ]:
        args = {"game": BOSK, "agents": ["random"], "games": 1, "progress": False} | kwargs
        with pytest.raises(fg.ConfigError, match=word):
            fg.simulate(**args)


def test_a_ray_address_without_the_ray_backend_is_refused():
    """address= with the local backend is a ConfigError naming it, in simulate (either
    engine) and tournament: the run went local without a word."""
    words = r"address='auto' names a Ray cluster: give backend=\"ray\""
    for engine in ("scalar", "vector"):
        with pytest.raises(fg.ConfigError, match=words):
            fg.simulate(BOSK, ["random"], 1, progress=False, address="auto", engine=engine)
    with pytest.raises(fg.ConfigError, match=words):
        fg.tournament(BOSK, ["random", "greedy"], 1, progress=False, address="auto")


@pytest.mark.parametrize("flag", ["progress", "rotate", "resume"])
@pytest.mark.parametrize("value", ["no", 0, 1, None, "False"])
def test_a_flag_must_be_a_bool(flag, value):
    """progress, rotate and resume are True or False: anything else (progress="no" was
    taken as true) is a ConfigError naming the flag, for simulate and tournament alike;
    numpy's bools are bools."""
    args = {"game": BOSK, "agents": ["random"], "games": 1, "progress": False}
    with pytest.raises(fg.ConfigError, match=rf"^{flag} must be True or False, not"):
        fg.simulate(**args | {flag: value})
    if flag != "rotate":
        with pytest.raises(fg.ConfigError, match=rf"^{flag} must be True or False"):
            fg.tournament(BOSK, ["random", "greedy"], 1, **{flag: value})
    import numpy as np

    assert len(fg.simulate(**args | {flag: np.bool_(False)}).rows) == 1


def test_numpy_integers_count_as_ints():
    """numpy ints are accepted for games, workers, seeds and move caps, as plain ints are."""
    import numpy as np

    plain = fg.simulate(BOSK, ["random"], 3, seed=4, workers=2, max_moves=500, progress=False)
    same = fg.simulate(BOSK, ["random"], np.int64(3), seed=np.uint64(4), workers=np.int64(2),
                       max_moves=np.int32(500), progress=False)  # fmt: skip
    assert same.rows == plain.rows
    with pytest.warns(TruncatedGameWarning):
        record = fg.play(BOSK, ["random"], seed=np.int64(1), max_moves=np.int64(10))
    assert len(record.moves) == 10
    vector = fg.simulate(BOSK, ["random"], np.int64(2), seed=1, engine="vector", progress=False)
    assert len(vector.rows) == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": True}, "games must be an int, not True"),
        ({"games": 2.0}, "games must be an int, not 2.0"),
        ({"workers": True}, "workers must be an int, not True"),
        ({"max_moves": True}, "max_moves must be an int, not True"),
        ({"max_moves": 0}, "max_moves must be >= 1, not 0"),
    ],
)
def test_counts_that_are_not_ints_are_named(kwargs, message):
    """Bools and floats are refused as counts, by the same message as any other int check."""
    args = {"game": BOSK, "agents": ["random"], "games": 1, "progress": False} | kwargs
    with pytest.raises(fg.ConfigError, match=message):
        fg.simulate(**args)


# --------------------------------------------------------------------------- results files


def test_a_run_of_unseeded_agent_objects_resumes(tmp_path):
    """Unseeded agent objects play from seed 0 in a driver, so a new ``RandomAgent()`` is the
    same run: resuming with one finishes the file (it was refused as another run)."""
    out = tmp_path / "run.jsonl"
    fg.simulate(BOSK, [fg.RandomAgent()], 2, seed=1, out=out, progress=False)
    resumed = fg.simulate(BOSK, [fg.RandomAgent()], 4, seed=1, out=out, resume=True, progress=False)
    whole = fg.simulate(BOSK, ["random"], 4, seed=1, progress=False)
    assert [r.scores for r in resumed.rows] == [r.scores for r in whole.rows]


def test_out_file_and_resume_after_interruption(tmp_path):
    """A run cut short (some rows, then a torn line) resumes: only missing games are played,
    no row is lost or doubled, and the rows equal an undisturbed run's."""
    args = dict(game=BOSK, agents=["greedy", "random"], games=8, seed=5, progress=False)
    whole = fg.simulate(**args)
    out = tmp_path / "results.jsonl"
    fg.simulate(**args | {"games": 3}, out=out)
    with open(out, "a", encoding="utf-8") as file:
        file.write(whole.rows[5].to_json()[:40])  # interrupted in the middle of a line
    resumed = fg.simulate(**args, out=out, resume=True)
    assert resumed.rows == whole.rows
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(line["index"] for line in lines) == list(range(8))
    again = fg.simulate(**args, out=out, resume=True)  # nothing left to play
    assert again.rows == whole.rows and len(out.read_text(encoding="utf-8").splitlines()) == 8


@pytest.mark.parametrize("newline", [b"\n", b"\r\n"])
def test_resume_reads_a_results_file_a_windows_editor_saved(tmp_path, newline):
    """A results file saved with a byte-order mark (and CRLF) resumes, a torn line cut."""
    args = dict(game=BOSK, agents=["greedy", "random"], games=6, seed=5, progress=False)
    whole = fg.simulate(**args)
    out = tmp_path / "results.jsonl"
    fg.simulate(**args | {"games": 3}, out=out)
    saved = b"\xef\xbb\xbf" + out.read_bytes().replace(b"\n", newline)
    out.write_bytes(saved + whole.rows[4].to_json()[:30].encode())
    assert fg.simulate(**args, out=out, resume=True).rows == whole.rows
    assert out.read_bytes().startswith(saved)


def test_a_results_file_ends_its_lines_with_newline_where_the_platform_says_crlf(
    tmp_path, monkeypatch
):
    """A results file has \\n line ends where the platform's are \\r\\n (Windows)."""
    import _pyio

    monkeypatch.setattr(os, "linesep", "\r\n")
    monkeypatch.setattr(sim, "open", _pyio.open, raising=False)
    out = tmp_path / "results.jsonl"
    fg.simulate(BOSK, ["random"], 2, seed=1, out=out, progress=False)
    assert out.read_bytes().count(b"\n") == 2 and b"\r" not in out.read_bytes()


def test_a_run_with_no_stderr_draws_no_progress_bar(monkeypatch):
    """With sys.stderr None (Windows' pythonw) a run plays: tqdm wrote to None."""
    monkeypatch.setattr(sys, "stderr", None)
    assert len(fg.simulate(BOSK, ["random"], 2, seed=1, progress=True).rows) == 2
    assert fg.tournament(BOSK, ["random", "greedy"], 2, seed=1).simulation.rows


def test_a_last_row_without_its_newline_is_played_again(tmp_path):
    """A last row whole but for its newline (a short write, the disk full) is read as a row
    of the run and cut off, and its game played again; it used to be refused, and the run
    could not be resumed. Another run's row there is still refused, the file untouched."""
    args = dict(game=BOSK, agents=["greedy", "random"], games=5, seed=5, progress=False)
    whole = fg.simulate(**args)
    out = tmp_path / "results.jsonl"
    fg.simulate(**args | {"games": 3}, out=out)
    with open(out, "a", encoding="utf-8") as file:
        file.write(whole.rows[3].to_json())  # no newline
    assert fg.simulate(**args, out=out, resume=True).rows == whole.rows
    assert out.read_text(encoding="utf-8").count("\n") == 5
    other = tmp_path / "other.jsonl"
    fg.simulate(**args | {"games": 3}, out=other)
    with open(other, "a", encoding="utf-8") as file:
        file.write(fg.simulate(**args | {"seed": 6}).rows[3].to_json())
    before = other.read_bytes()
    with pytest.raises(fg.ConfigError, match="another run"):
        fg.simulate(**args, out=other, resume=True)
    assert other.read_bytes() == before


def test_out_file_is_never_overwritten_or_mixed(tmp_path):
    """An existing results file needs resume; resuming with other arguments is refused."""
    out = tmp_path / "r.jsonl"
    fg.simulate(BOSK, ["random"], 2, seed=1, out=out, progress=False)
    with pytest.raises(fg.ConfigError, match="exists"):
        fg.simulate(BOSK, ["random"], 2, seed=1, out=out, progress=False)
    with pytest.raises(fg.ConfigError, match="another run"):
        fg.simulate(BOSK, ["random"], 2, seed=2, out=out, resume=True, progress=False)
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2


def test_exports_write_whole_files_or_none(tmp_path, monkeypatch):
    """A results file is written whole or not at all: when the last step fails the file
    keeps what it held, no temporary file is left, and the error is the library's and names
    the path (Python's FileNotFoundError and, for a NUL byte, ValueError escaped)."""
    result = fg.simulate(BOSK, ["random"], 2, seed=9, progress=False)
    target = tmp_path / "r.csv"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)

    def full_disk(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", full_disk)
        with pytest.raises(fg.ConfigError, match=f"cannot write {target}: No space left"):
            result.to_csv(target)
    assert target.read_text(encoding="utf-8") == "old\n" and os.listdir(tmp_path) == ["r.csv"]
    result.to_jsonl(target)
    assert len(target.read_text(encoding="utf-8").splitlines()) == 2
    assert target.stat().st_mode & 0o777 == 0o640  # the file's permissions are kept
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    result.to_csv(link)
    assert link.is_symlink() and target.read_text(encoding="utf-8") == result.to_csv()
    for bad, words in [
        (tmp_path / "no" / "r.csv", "No such file or directory"),
        (tmp_path, "is a directory"),
        (str(tmp_path / "r\0.csv"), "NUL byte"),
    ]:
        for write in (result.to_csv, result.to_jsonl):
            with pytest.raises(fg.ConfigError, match=re.escape(words)):
                write(bad)
        with pytest.raises(fg.ConfigError, match=re.escape(words)):
            fg.simulate(BOSK, ["random"], 1, out=bad, progress=False)


def _folder_not_searchable(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Looking at anything inside ``folder`` is refused, as a folder without its execute
    permission refuses it (even root sees it so here)."""
    real_stat = os.stat

    def stat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        if Path(path).parent == folder:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)


@pytest.mark.parametrize("resume", [False, True])
def test_a_results_file_in_a_folder_that_cannot_be_searched_is_a_config_error(
    tmp_path, monkeypatch, resume
):
    """out= in a folder that cannot be searched is a ConfigError naming the file."""
    _folder_not_searchable(monkeypatch, tmp_path / "locked")
    out = tmp_path / "locked" / "r.jsonl"
    with pytest.raises(fg.ConfigError, match=f"cannot use {re.escape(str(out))} .*denied"):
        fg.simulate(BOSK, ["random"], 1, out=out, resume=resume, progress=False)
    with pytest.raises(fg.ConfigError, match=f"cannot use {re.escape(str(out))} .*denied"):
        fg.tournament(BOSK, ["random", "greedy"], 1, out=out, resume=resume, progress=False)


@pytest.mark.parametrize("option", ["--csv", "--out"])
def test_a_command_output_in_a_folder_that_cannot_be_searched_is_one_error_line(
    tmp_path, monkeypatch, capsys, option
):
    """--csv or --out in a folder that cannot be searched: an error naming the option's file."""
    _folder_not_searchable(monkeypatch, tmp_path / "locked")
    path = str(tmp_path / "locked" / "r.csv")
    assert cli.main(["simulate", "bosk", "-n", "1", option, path]) == 2
    err = capsys.readouterr().err
    assert err.startswith("forestgames: error: ") and path in err and "Errno" not in err


def test_write_file_writes_devices_in_place_and_never_through_a_planted_link(tmp_path, monkeypatch):
    """write_file replaces regular files only: a FIFO (as /dev/stdout or /dev/null) is
    written in place and stays one (it was replaced by a regular file). Its new file is
    made afresh, so a link planted at its name is left alone (it was written through),
    and a long file name still fits."""
    import threading

    from forestgames import sim

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    sim.write_file(fifo, "through the pipe\n")
    reader.join(10)
    assert received == [b"through the pipe\n"] and fifo.is_fifo()
    victim = tmp_path / "victim"
    victim.write_text("keep me", encoding="utf-8")
    names = iter(["planted", "fresh"])
    monkeypatch.setattr("secrets.token_hex", lambda n: next(names))
    (tmp_path / ".r.csv.planted.tmp").symlink_to(victim)
    sim.write_file(tmp_path / "r.csv", "rows\n")
    assert (
        victim.read_text(encoding="utf-8") == "keep me"
        and (tmp_path / "r.csv").read_text(encoding="utf-8") == "rows\n"
    )
    monkeypatch.undo()
    long_name = tmp_path / ("x" * 230 + ".csv")
    sim.write_file(long_name, "ok")
    assert long_name.read_text(encoding="utf-8") == "ok"


def test_csv_and_jsonl_exports(tmp_path):
    """Rows export to CSV (a column per seat) and JSON lines that load back to equal rows."""
    result = fg.simulate(BOSK, ["greedy", "random"], 3, seed=9, progress=False)
    text = result.to_csv(tmp_path / "r.csv")
    header, *lines = text.splitlines()
    assert header.split(",") == [
        "index",
        "seed",
        "first_player",
        "agent_0",
        "agent_1",
        "score_0",
        "score_1",
        "winners",
        "moves",
        "truncated",
        "run",
    ]
    assert len(lines) == 3 and (tmp_path / "r.csv").read_text(encoding="utf-8") == text
    first = lines[0].split(",")
    row = result.rows[0]
    assert first[3:7] == [*row.agents, *map(str, row.scores)]
    assert first[-2] == "false"  # booleans as the JSON lines write them
    cut = fg.simulate(BOSK, ["random"], 1, seed=9, max_moves=5, progress=False)
    assert cut.to_csv().splitlines()[1].split(",")[-2] == "true"
    result.to_jsonl(tmp_path / "r.jsonl")
    loaded = [
        GameRow.from_dict(json.loads(line))
        for line in (tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert tuple(loaded) == result.rows


# --------------------------------------------------------------------------- summaries


def test_wilson_interval_golden():
    """Wilson 95% intervals: 5/10 -> [0.2366, 0.7634]; 0/10 -> [0, 0.2775]; 0 trials -> [0, 1]."""
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_summary_counts_by_hand():
    """Summary of three hand-made rows: shared wins count for each winner; means and spreads."""
    rows = (
        GameRow(0, 1, 0, ("a", "b"), (10, 4), (0,), 20, False, "x"),
        GameRow(1, 2, 1, ("b", "a"), (6, 6), (0, 1), 30, False, "x"),
        GameRow(2, 3, 0, ("a", "b"), (0, 0), (), 40, True, "x"),
    )
    summary = SimulationResult("bosk", {"num_players": 2}, 0, rows).summary()
    assert summary["games"] == 3 and summary["truncated"] == 1 and summary["mean_moves"] == 30
    seat0, seat1 = summary["seats"]
    assert (seat0["games"], seat0["wins"], seat0["mean_score"]) == (2, 2, 8.0)
    assert (seat1["wins"], seat1["mean_score"]) == (1, 5.0)
    assert seat0["sd_score"] == pytest.approx(2**1.5)
    agents = {t["label"]: t for t in summary["agents"]}
    assert (agents["a"]["wins"], agents["a"]["games"], agents["a"]["mean_score"]) == (2, 2, 8.0)
    assert (agents["b"]["wins"], agents["b"]["win_rate"]) == (1, 0.5)
    text = SimulationResult("bosk", {"num_players": 2}, 0, rows).format_summary()
    assert "3 games (1 truncated)" in text and "100.0%" in text


@pytest.mark.parametrize(
    ("first", "scores", "winners"),
    [
        (0, (1,), ()),
        (0, (1, 2, 3), (0,)),
        (0, (1, 2), (2,)),
        (0, (1, 2), (-1,)),
        (0, (1, 2), (1, 1)),
        (2, (1, 2), (0,)),
    ],
)
def test_a_row_whose_seats_disagree_is_refused(first, scores, winners):
    """A GameRow without one score per agent, or with a first player or a winner that is
    no seat (or a winner twice), is a ConfigError naming the game, built directly or read
    from a results line (the summary and the ratings miscounted it or raised IndexError)."""
    with pytest.raises(fg.ConfigError, match="game 7 has 2 agents"):
        GameRow(7, 1, first, ("a", "b"), scores, winners, 10, False, "x")
    line = {"index": 7, "seed": 1, "first_player": first, "agents": ["a", "b"]}
    line |= {"scores": list(scores), "winners": list(winners), "moves": 10}
    with pytest.raises(fg.ConfigError, match=r"game 7 has 2 agents|winners must be >= 0"):
        GameRow.from_dict(line | {"truncated": False, "run": "x"})


@pytest.mark.parametrize(
    ("scores", "winners"), [(None, (0,)), ((1, 2), None), ((1, 2), ([0],)), ((1, 2), (True,))]
)
def test_a_row_of_the_wrong_types_is_refused(scores, winners):
    """A GameRow whose scores or winners are no tuples (or winners no seats) is a
    ConfigError naming the game, not the TypeError its checks raised."""
    with pytest.raises(fg.ConfigError, match="game 7: agents, scores and winners must be"):
        GameRow(7, 1, 0, ("a", "b"), scores, winners, 10, False, "x")


def test_a_result_refuses_rows_of_other_kinds_or_sizes():
    """SimulationResult takes GameRows of games with one number of seats: anything else is
    a ConfigError when it is built (its summary raised IndexError or AttributeError)."""
    two = GameRow(0, 1, 0, ("a", "b"), (10, 4), (0,), 20, False, "x")
    three = GameRow(1, 1, 0, ("a", "b", "c"), (10, 4, 2), (0,), 20, False, "x")
    with pytest.raises(fg.ConfigError, match=r"games of one size, not of \[2, 3\] seats"):
        SimulationResult("bosk", {"num_players": 2}, 0, (two, three))
    with pytest.raises(fg.ConfigError, match="rows must be a tuple of GameRow"):
        SimulationResult("bosk", {"num_players": 2}, 0, (two, two.to_dict()))
    assert SimulationResult("bosk", {}, 0, [two, two]).summary()["games"] == 2


def test_one_game_has_no_standard_deviation():
    """The sample deviation of one game's score is NaN (undefined, like a rate of no
    games), and the summary table prints "-" for it, never nan."""
    import math

    rows = (GameRow(0, 1, 0, ("a", "b"), (10, 4), (0,), 20, False, "x"),)
    result = SimulationResult("bosk", {"num_players": 2}, 0, rows)
    summary = result.summary()
    assert all(math.isnan(t["sd_score"]) for t in summary["seats"] + summary["agents"])
    assert [t["mean_score"] for t in summary["seats"]] == [10.0, 4.0]
    text = result.format_summary()
    assert "nan" not in text and text.splitlines()[2].split()[-1] == "-"


def test_agents_of_truncated_games_are_still_listed():
    """When every game is cut by the move cap, each agent is still listed, with 0 games."""
    result = fg.simulate(BOSK, ["greedy", "random"], 2, seed=1, max_moves=10, progress=False)
    agents = result.summary()["agents"]
    assert [(t["label"], t["games"], t["wins"]) for t in agents] == [
        ("greedy", 0, 0),
        ("random", 0, 0),
    ]
    text = result.format_summary()
    assert "nan" not in text and any(line.startswith("greedy ") for line in text.splitlines())


def test_agents_of_a_run_with_no_games_are_listed():
    """A run of 0 games (scalar, vector or tournament) lists each of its agents, with 0
    games, as a run whose games the move cap all cut does."""
    for engine in ("scalar", "vector"):
        result = fg.simulate(BOSK, ["greedy", "random"], 0, seed=1, engine=engine, progress=False)
        agents = result.summary()["agents"]
        assert [(t["label"], t["games"]) for t in agents] == [("greedy", 0), ("random", 0)]
    ratings = fg.tournament(BOSK, ["greedy", "random"], games=0, seed=1, progress=False)
    labels = [t["label"] for t in ratings.simulation.summary()["agents"]]
    assert labels == ["greedy", "random"]


def test_a_run_with_no_games_keeps_its_shape():
    """A run of 0 games names each agent once and writes the CSV header of any other run of
    its game (one agent and one score column per seat)."""
    three = fg.make("bosk", num_players=3)
    empty = fg.simulate(three, ["greedy", "random"], 0, seed=1, progress=False)
    one = fg.simulate(three, ["greedy", "random"], 1, seed=1, progress=False)
    assert empty.agents == ("greedy", "random")
    assert empty.to_csv() == one.to_csv().splitlines(keepends=True)[0]
    assert "agent_2" in empty.to_csv() and "score_2" in empty.to_csv()


def test_progress_only_on_a_terminal(monkeypatch):
    """The progress bar is drawn on a terminal stderr only, and never when disabled."""

    class Tty(io.StringIO):
        def isatty(self):
            return True

    game = fg.make("bosk", num_players=2)
    for stream, enabled, shown in ((Tty(), True, True), (io.StringIO(), True, False),
                                   (Tty(), False, False)):  # fmt: skip
        monkeypatch.setattr(sys, "stderr", stream)
        fg.simulate(game, ["random"], games=4, seed=1, progress=enabled)
        assert ("4/4" in stream.getvalue()) == shown


# --------------------------------------------------------------------------- Ray


RAY_LIMIT = pytest.mark.timeout(300)
"""A Ray test gets 5 minutes (they take seconds), not the suite's 15, before the run ends
with its stack (a Ray that lost its CPUs waits for ever)."""


@pytest.fixture
def ray_cluster():
    """A small local Ray (2 CPUs, no dashboard), new for each test: a Ray one test leaves
    broken costs no other test (in CI a Ray that had lost its CPUs hung the next test)."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="warning")
    yield ray
    ray.shutdown()


@RAY_LIMIT
def test_ray_rows_equal_local_rows(ray_cluster):
    """backend="ray" returns exactly the rows of a local run with the same arguments."""
    args = dict(game=BOSK, agents=["greedy", "random"], games=8, seed=31, progress=False)
    assert fg.simulate(**args, backend="ray").rows == fg.simulate(**args).rows


class SleepsOrFails:
    """An agent that sleeps a minute where seat 1 moves first, after writing its process id
    in a file of ``folder``; and fails where seat 0 does, once a sleeper wrote its file."""

    name = "sleepy"

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def choose(self, state):
        if state.players_to_act[0] == 0:
            deadline = time.monotonic() + 30
            while not any(Path(self.folder).glob("sleeper-*")) and time.monotonic() < deadline:
                time.sleep(0.05)
            raise LookupError("seat 0 first")
        Path(self.folder, f"sleeper-{os.getpid()}").touch()
        time.sleep(60)


@RAY_LIMIT
def test_an_error_on_a_users_ray_cancels_the_runs_other_tasks(ray_cluster, tmp_path):
    """On a Ray the user started (and that outlives the run), an error in one game cancels
    the run's other tasks, as Ctrl-C does: the sleepers' processes end within 30 s. They
    played on: here a minute, for ever behind a hung agent. Seed 6: game 0's first player
    is seat 1 (it sleeps), game 1's seat 0 (it fails). (Not checked: that a task needing
    both CPUs then runs, as this test did. Ray 2.60 sometimes keeps a cancelled task's
    worker leased, its CPU taken until ray.shutdown(): in CI, and here twice in about 100
    runs, both on a loaded machine.)"""
    agent = SleepsOrFails(str(tmp_path))
    with pytest.raises(LookupError, match="seat 0 first"):
        fg.simulate(BOSK, [agent], 6, seed=6, workers=2, backend="ray", progress=False)
    sleepers = [int(path.name.split("-")[1]) for path in tmp_path.glob("sleeper-*")]
    assert sleepers
    assert _end_within(sleepers, 30), "the run's other tasks played on"


@RAY_LIMIT
def test_killed_ray_worker_costs_no_game(ray_cluster, tmp_path):
    """A Ray worker that dies mid-task is retried by Ray: the rows equal an undisturbed run."""
    marker = str(tmp_path / "died")
    hit = fg.simulate(
        BOSK, [SeatZeroDieFirst(marker, seed=1), "random"], 4, seed=3, backend="ray", progress=False
    )
    calm = fg.simulate(BOSK, [RandomAgent(1), "random"], 4, seed=3, progress=False)
    assert os.path.exists(marker)
    strip = lambda rows: [r.to_dict() | {"run": ""} for r in rows]  # noqa: E731
    assert strip(hit.rows) == strip(calm.rows)


# --------------------------------------------------------------------------- workers and chunks


def test_chunks_grow_with_the_measured_pace_and_shrink_at_the_end():
    """The chunker hands out one game first, then about CHUNK_SECONDS of games at the pace
    measured, never more than a quarter of what is left per worker; dead chunks come back."""
    chunker = _Chunker(1000, workers=2)
    assert chunker.take() == [0]
    chunker.observe(1, CHUNK_SECONDS / 20)  # 20 games per chunk at this pace
    assert chunker.take() == list(range(1, 21))
    chunker.observe(100, 100.0)  # slow games: one per chunk
    assert chunker.take() == [21]
    chunker.give_back([1, 2])
    assert chunker.take() == [1]
    left = []
    while chunker:
        left += chunker.take()
    assert sorted(left) == [2, *range(22, 1000)]


def test_a_run_of_any_length_starts_at_once():
    """Indices are drawn as they are handed out: a run of 10**15 games (or 2**64) hands out
    its first chunk at once, with no list of every index (which filled the memory before
    any game was played); a resumed run skips the games done."""
    start = time.perf_counter()
    for games in (10**15, 2**64):
        chunker = _Chunker(games, workers=2)
        assert chunker.take() == [0] and chunker.left == games - 1
    assert time.perf_counter() - start < 1.0
    resumed = _Chunker(10**15, workers=1, done={0: None, 2: None, 5: None})
    assert [resumed.take()[0] for _ in range(4)] == [1, 3, 4, 6]
    assert resumed.left == 10**15 - 3 - 4


def test_workers_start_warm_by_fork_when_safe():
    """On Linux with one thread the workers fork (nothing re-imported or pickled); a second
    thread makes the library use a fork server instead."""
    if sys.platform != "linux":
        pytest.skip("fork is the Linux choice")
    import threading

    if threading.active_count() == 1:
        assert process_context().get_start_method() == "fork"
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert process_context().get_start_method() == "forkserver"
    finally:
        stop.set()
        thread.join()


def _live_children(pid: int) -> set[int]:
    """The pids of ``pid``'s child processes that are not zombies (Linux's /proc)."""
    children = set()
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # not a process, or gone
        if fields[1] == str(pid).encode() and fields[0] != b"Z":
            children.add(int(entry.name))
    return children


@pytest.mark.parametrize("start", ["fork", "forkserver", "spawn"])
def test_workers_end_when_their_run_is_killed(start):
    """A run's worker processes leave soon after its process is killed (SIGKILL: it cannot
    tell them); they used to wait for work for ever. Under a fork server (the library's
    choice when the run's process has a second thread) they are the server's children."""
    if sys.platform != "linux":
        pytest.skip("reads Linux's /proc")
    script = (
        "import multiprocessing, forestgames as fg, forestgames.sim as sim\n"
        f"sim.process_context = lambda: multiprocessing.get_context({start!r})\n"
        "if __name__ == '__main__':\n"
        "    fg.simulate('bosk', ['random'], 10**9, workers=2, progress=False)\n"
    )
    run = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 60
        while len(workers := _workers_of(run.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(workers) >= 2, "the run started no workers"
    finally:
        run.kill()
        run.wait()
    try:
        assert _end_within(workers, 10), "workers outlived their run"
    finally:
        for worker in filter(_is_alive, workers):
            os.kill(worker, signal.SIGKILL)


_FORCED_START = (
    "import multiprocessing, forestgames as fg, forestgames.sim as sim\n"
    "sim.process_context = lambda: multiprocessing.get_context({start!r})\n"
)


def _run_script(tmp_path: Path, start: str, body: str) -> subprocess.CompletedProcess[str]:
    """``body`` run as a script (a file, as spawned workers import it again) whose runs
    start their workers by ``start``."""
    script = tmp_path / "my_run.py"
    script.write_text(_FORCED_START.format(start=start) + body, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        encoding="utf-8",
        cwd=tmp_path,
        timeout=120,
    )


def _error_line(stderr: str) -> str:
    """The line of the error that ended a script (multiprocessing's resource tracker may
    warn after it), or ``""``."""
    raised = [
        line for line in stderr.splitlines() if line.startswith(("forestgames.", "concurrent."))
    ]
    return raised[-1] if raised else ""


@pytest.mark.parametrize("start", ["forkserver", "spawn"])
def test_a_script_without_a_main_guard_is_told_so(tmp_path, start):
    """Spawned workers of a script without a main guard: a ConfigError saying so, not retried."""
    done = _run_script(tmp_path, start, "fg.simulate('bonsai', ['random'], 4, workers=2)\n")
    assert done.returncode == 1, done.stderr
    error = _error_line(done.stderr)
    assert error.startswith("forestgames.core.ConfigError: the worker processes (started by")
    assert "if __name__" in error and "workers=1" in error


@pytest.mark.parametrize("start", ["forkserver", "spawn"])
def test_an_agent_class_a_worker_cannot_import_is_named(tmp_path, start):
    """An agent class a spawned worker cannot import is a ConfigError naming it."""
    body = (
        "if __name__ == '__main__':\n"
        "    class FirstMove:\n"
        "        def choose(self, state):\n"
        "            return state.legal_moves()[0]\n"
        "    fg.simulate('bonsai', [FirstMove(), 'random'], 4, workers=2, progress=False)\n"
    )
    done = _run_script(tmp_path, start, body)
    assert done.returncode == 1, done.stderr
    error = _error_line(done.stderr)
    assert error.startswith("forestgames.core.ConfigError: a worker process cannot load")
    assert "'FirstMove'" in error and "workers=1" in error


def _descendants(pid: int) -> set[int]:
    children = _live_children(pid)
    return children | {grandchild for child in children for grandchild in _live_children(child)}


def _runs(pid: int, *modules: str) -> bool:
    """Whether process ``pid``'s command line names one of ``modules`` (False once gone)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return any(module.encode() in cmdline for module in modules)


def _workers_of(pid: int) -> set[int]:
    """The worker processes of run ``pid``: its descendants, less the fork server and the
    resource tracker that multiprocessing starts beside them (they are not workers)."""
    helpers = {
        child
        for child in _live_children(pid)
        if _runs(child, "multiprocessing.forkserver", "resource_tracker")
    }
    return _descendants(pid) - helpers


def _is_alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def _end_within(pids: Collection[int], seconds: float) -> bool:
    """Whether every process of ``pids`` has ended (or is a zombie) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while any(map(_is_alive, pids)):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.1)
    return True


def test_same_rows_with_a_fork_server():
    """Workers started by a fork server (a process with threads) give the same rows."""
    import threading

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    args = dict(game=BOSK, agents=["greedy", "random"], games=6, seed=4, progress=False)
    try:
        assert fg.simulate(**args, workers=2).rows == fg.simulate(**args).rows
    finally:
        stop.set()
        thread.join()


def _blas_threads() -> int:
    """The most threads a BLAS library loaded here would use (threadpoolctl's view)."""
    from threadpoolctl import threadpool_info

    return max((i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"), default=0)


class BlasProbe(RandomAgent):
    """A random agent that writes, per process, how many BLAS threads its moves run with."""

    name = "probe"

    def __init__(self, folder: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self.folder = folder

    def settings(self):
        return {"folder": self.folder}

    def choose(self, state):
        Path(self.folder, str(os.getpid())).write_text(str(_blas_threads()), encoding="utf-8")
        return super().choose(state)


@pytest.mark.parametrize("start", ["fork", "forkserver"])
def test_worker_processes_run_blas_on_one_thread(tmp_path, monkeypatch, start):
    """Local workers (forked, or from a fork server) play with BLAS on one thread, whatever
    the parent uses; the parent's own setting is left as it was. The start method is set
    here: the library's own choice depends on the threads running (Ray's stay after its
    tests), so "fork" was a fork server after them."""
    import multiprocessing

    import threadpoolctl

    if start not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start} here")
    monkeypatch.setattr(sim, "process_context", lambda: multiprocessing.get_context(start))
    with threadpoolctl.threadpool_limits(2, user_api="blas"):
        if _blas_threads() < 2:
            pytest.skip("numpy's BLAS here has no thread pool to limit")
        agents = [BlasProbe(str(tmp_path), seed=1), "random"]
        fg.simulate(BOSK, agents, 4, seed=5, workers=2, progress=False)
        assert _blas_threads() == 2
    seen = {int(f.name): f.read_text(encoding="utf-8") for f in tmp_path.iterdir()}
    assert seen and os.getpid() not in seen
    assert set(seen.values()) == {"1"}


# --------------------------------------------------------------------------- the command line


def test_simulate_command_checks_its_output_file_first(tmp_path, capsys, monkeypatch):
    """A --csv that cannot be written is an error before any game is played."""
    monkeypatch.setattr(sys.modules["forestgames.cli"], "simulate", None)  # would crash if run
    status = cli.main(["simulate", "bosk", "-n", "5", "--csv", "/nonexistent/x.csv"])
    assert status == 2 and "no directory /nonexistent" in capsys.readouterr().err
    status = cli.main(["simulate", "bosk", "-n", "5", "--csv", str(tmp_path)])
    assert status == 2 and "is a directory" in capsys.readouterr().err


def test_simulate_command_with_no_games_prints_no_nan(capsys):
    """-n 0 prints a summary with dashes, never nan%, and lists each agent."""
    argv = ["simulate", "bosk", "-n", "0", "--agents", "greedy,random", "--no-progress"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "0 games" in out and "nan" not in out
    assert {line.split()[0] for line in out.splitlines()} >= {"greedy", "random"}


def test_players_and_option_must_agree(capsys):
    """-p 2 with -o num_players=3 is refused; the same count twice is accepted."""
    assert cli.main(["simulate", "bosk", "-p", "2", "-o", "num_players=3", "-n", "1"]) == 2
    assert "disagree" in capsys.readouterr().err
    assert cli.main(["simulate", "bosk", "-p", "3", "-o", "num_players=3", "-n", "1",
                     "--no-progress"]) == 0  # fmt: skip
    assert "3 players" in capsys.readouterr().out


def test_bench_times_the_warm_up_apart(capsys):
    """bench reports moves per second after the first game, the warm-up in its own column."""
    assert cli.main(["bench", "boom_bokken", "--seconds", "0.3"]) == 0
    header, row, note = capsys.readouterr().out.splitlines()
    assert header.split()[-2:] == ["warm-up", "s"] and row.split()[0] == "boom_bokken"
    assert float(row.split()[-2]) > 0 and "warm-up" in note and "interleaved" in note


def test_first_player_example_fails_at_once_without_matplotlib():
    """examples/first_player_advantage.py stops before simulating when matplotlib is missing."""
    script = Path(__file__).resolve().parents[1] / "examples" / "first_player_advantage.py"
    code = (
        "import sys, runpy; sys.modules['matplotlib'] = None; "
        f"sys.argv = ['x', '--games', '1000000']; runpy.run_path({str(script)!r}, "
        "run_name='__main__')"
    )
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, encoding="utf-8",
                          timeout=60)  # fmt: skip
    assert done.returncode != 0 and "matplotlib" in done.stderr
    assert time.perf_counter() - start < 30


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("index", None),
        ("index", -1),
        ("seed", "x"),
        ("first_player", 5),
        ("agents", [1, 2]),
        ("agents", ["random"]),
        ("scores", None),
        ("scores", [1, "2"]),
        ("winners", [9]),
        ("moves", [1]),
        ("truncated", None),
        ("run", 7),
        # rows well formed but not this run's games (resume kept them as they were)
        ("seed", 12345),
        ("agents", ["bogus", "random"]),
        ("winners", [0, 0]),
        ("moves", 10**30),
        ("scores", [10**400, 1]),
        ("index", "5000 digits"),  # written below: json.dumps refuses an int this long
    ],
)
def test_resume_refuses_malformed_rows(tmp_path, field, value):
    """A results file whose row has a wrong field is refused with ConfigError naming the line,
    and the file is left as it was."""
    out = tmp_path / "r.jsonl"
    fg.simulate(BOSK, ["random"], 2, seed=1, out=out, progress=False)
    lines = out.read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[0]) | {field: value}
    if value == "5000 digits":
        text = lines[0].replace('"index":0', '"index":' + "9" * 5000)
    else:
        text = json.dumps(row)
    out.write_text("\n".join([text, lines[1], lines[0][:30]]), encoding="utf-8")
    before = out.read_bytes()
    with pytest.raises(fg.ConfigError, match=r"r\.jsonl:1"):
        fg.simulate(BOSK, ["random"], 3, seed=1, out=out, resume=True, progress=False)
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    "content",
    [
        b"\x89PNG\r\n\x1a\n\x00\xff\xfe",
        b"name,score",
        b"[1]\n",
        b"\xff\n{",
        b'{"index": {"my": "precious notes"}}',  # whole JSON, no newline: not a torn row
    ],
)
def test_resume_refuses_a_file_that_is_not_results(tmp_path, content):
    """Resuming into a file that is not a results file is a ConfigError and the file is not
    cut (only a torn last line of a real results file is)."""
    out = tmp_path / "r.jsonl"
    out.write_bytes(content)
    with pytest.raises(fg.ConfigError, match="not a result"):
        fg.simulate(BOSK, ["random"], 2, seed=1, out=out, resume=True, progress=False)
    assert out.read_bytes() == content


def test_vector_runs_check_their_out_file_before_the_games(tmp_path, monkeypatch):
    """engine="vector" refuses an out file that exists, a directory, or one in a missing
    directory before it plays any game (it checked after playing them all)."""
    import forestgames.bosk._vector_sim as vector_sim

    def no_games(*args):
        raise AssertionError("games were played before the out file was checked")

    monkeypatch.setattr(vector_sim, "simulate_vector", no_games)
    taken = tmp_path / "taken.jsonl"
    taken.write_text("x", encoding="utf-8")
    for out, message in (
        (taken, "taken.jsonl exists: choose another file"),
        (tmp_path, "is a directory: name a file for the results"),
        (tmp_path / "missing" / "r.jsonl", "no directory .*missing to write r.jsonl in"),
    ):
        with pytest.raises(fg.ConfigError, match=message):
            fg.simulate(BOSK, ["random"], 5, seed=1, out=out, engine="vector", progress=False)


def test_vector_runs_name_an_out_file_they_cannot_even_look_at(tmp_path, monkeypatch):
    """engine="vector" refuses an out name too long, or a symlink loop, with a ConfigError
    naming it before any game (an OSError escaped; the loop failed after the games)."""
    import forestgames.bosk._vector_sim as vector_sim

    def no_games(*args):
        raise AssertionError("games were played before the out file was checked")

    monkeypatch.setattr(vector_sim, "simulate_vector", no_games)
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    for out in (tmp_path / ("x" * 300), loop):
        with pytest.raises(fg.ConfigError, match=r"cannot use .* for results"):
            fg.simulate(BOSK, ["random"], 5, seed=1, out=out, engine="vector", progress=False)


def test_a_bad_ray_address_is_a_config_error():
    """An address Ray cannot parse is a ConfigError naming it (Ray's ValueError escaped). In
    a fresh process: this module's other tests leave a Ray running, which a run then uses."""
    pytest.importorskip("ray")
    command = [sys.executable, "-m", "forestgames.cli", "simulate", "bosk", "-n", "1"]
    done = subprocess.run(
        [*command, "--ray", "::::", "--no-progress"],
        capture_output=True,
        encoding="utf-8",
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("forestgames: error: Ray cluster '::::'"), done.stderr


@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("[::1", "no host:port address"),
        ("127.0.0.1:99999", "Port out of range"),
        ("localhost:-1", "no host:port address"),
        (":", "names no host"),
    ],
)
def test_a_ray_address_that_is_no_address_is_refused_at_once(address, words):
    """A malformed address (a broken IPv6 bracket, a port out of range or negative, no
    host) is a ConfigError before Ray sees it (Ray retried such a port for minutes, and
    the bracket raised urllib's own ValueError)."""
    from forestgames.sim import _check_reachable

    with pytest.raises(fg.ConfigError, match=words):
        _check_reachable(address)


def test_workers_are_no_more_than_the_games_left(monkeypatch):
    """A run of 3 games asked for 64 workers starts 3 (under fork every worker starts up
    front: 1,024 of them took most of a minute for 5 games)."""
    from forestgames import sim

    started = []
    monkeypatch.setattr(
        sim, "_run_local", lambda run, chunker, workers, emit: started.append(workers)
    )
    fg.simulate("bosk", ["random"], 3, seed=1, workers=64, progress=False)
    assert started == [3]


def test_a_ray_address_where_nothing_answers_is_refused_at_once(monkeypatch):
    """An address naming a host and port where nothing listens is a ConfigError within a
    second (Ray itself tried for minutes). Addresses without a host (auto, local), and
    any behind a proxy, are left to Ray."""
    import socket

    from forestgames.sim import _PROXIES, _check_reachable

    for name in _PROXIES:
        monkeypatch.delenv(name, raising=False)
    with socket.socket() as probe:  # a port nothing listens on once it is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    start = time.perf_counter()
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        with pytest.raises(fg.ConfigError, match=f"nothing answers at 127.0.0.1:{port}"):
            _check_reachable(address)
    assert time.perf_counter() - start < 1.0
    monkeypatch.setenv("grpc_proxy", "http://proxy:3128")
    _check_reachable(f"127.0.0.1:{port}")  # through the proxy: Ray's to judge
    monkeypatch.delenv("grpc_proxy")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        _check_reachable(f"127.0.0.1:{server.getsockname()[1]}")  # something answers
    for address in ("auto", "local"):
        _check_reachable(address)  # Ray's to judge
    for address in ("::::", "host:port", ":6379", "ray://:10001", "ray://"):  # no usable one
        with pytest.raises(fg.ConfigError, match=r"no host:port address|names no host"):
            _check_reachable(address)


@pytest.mark.parametrize("junk", [None, 0, True, [1], object()])
def test_junk_games_and_paths_are_config_errors(tmp_path, junk):
    """play/simulate of something that is not a game, and outputs to something that is not a
    path (an int would be opened as a file descriptor), raise ConfigError."""
    with pytest.raises(fg.ConfigError, match="must be a game"):
        fg.play(junk, ["random"], seed=1)
    with pytest.raises(fg.ConfigError, match="must be a game"):
        fg.simulate(junk, ["random"], 1, seed=1, progress=False)
    with pytest.raises(fg.ConfigError, match="file path"):
        fg.simulate(BOSK, ["random"], 1, seed=1, progress=False, out=junk or 0)
    result = fg.simulate(BOSK, ["random"], 1, seed=1, progress=False)
    with pytest.raises(fg.ConfigError, match="file path"):
        result.to_jsonl(junk)
    if junk is not None:
        with pytest.raises(fg.ConfigError, match="file path"):
            result.to_csv(junk)
    with pytest.raises(fg.ConfigError, match="workers"):
        fg.simulate(BOSK, ["random"], 1, seed=1, progress=False, workers=2**40)


def test_records_refuse_junk_games_and_move_lists():
    """GameRecord.start of a non-game and with_moves of a non-list raise ConfigError."""
    with pytest.raises(fg.ConfigError, match="must be a game"):
        fg.GameRecord.start(None, 1)
    record = fg.GameRecord.start(BOSK, 1)
    for junk in (None, 5, "0:wind N"):
        with pytest.raises(fg.ConfigError, match="moves must be a list"):
            record.with_moves(junk)


def test_vector_engine_refuses_a_cap_it_would_ignore():
    """engine="vector" plays whole games, so a max_moves that could cut one short is a
    ConfigError (its rows differed from the scalar engine's truncated ones); a cap no game
    reaches gives the scalar engine's rows, and a bad out path is refused."""
    args = dict(game=BOSK, agents=["random", "greedy"], games=2, seed=1, progress=False)
    with pytest.raises(fg.ConfigError, match="whole games"):
        fg.simulate(**args, max_moves=5, engine="vector")
    cap = BOSK.traits.max_moves
    assert fg.simulate(**args, max_moves=cap, engine="vector").rows == (
        fg.simulate(**args, max_moves=cap).rows
    )
    with pytest.raises(fg.ConfigError, match="file path"):
        fg.simulate(**args, engine="vector", out=1)


def test_an_agent_returning_a_non_move_gets_a_short_message():
    """An agent that returns the whole tuple of legal moves is told so in a bounded message
    (it used to list every move: about 20 KB in 4-player Bosk)."""

    class Confused:
        name = "confused"

        def choose(self, state):
            return state.legal_moves()

    with pytest.raises(fg.IllegalMoveError, match="agent confused at seat") as caught:
        fg.play(fg.make("bosk", num_players=4), [Confused()] * 4, seed=1)
    assert len(str(caught.value)) < 200


def test_unseeded_agent_instances_play_as_their_specs_in_a_seeded_run():
    """``RandomAgent()`` (no seed) in a driver plays as the spec "random" does, so a seeded
    run is the same in every process; a seeded instance still has its own stream."""
    game = fg.make("bosk", num_players=2)
    by_spec = fg.play(game, ["random", "greedy"], seed=4)
    by_instance = fg.play(game, [fg.RandomAgent(), fg.GreedyAgent()], seed=4)
    assert by_instance.moves == by_spec.moves
    seeded = fg.play(game, [fg.RandomAgent(seed=9), fg.GreedyAgent()], seed=4)
    assert seeded.moves != by_spec.moves
    code = (
        "import forestgames as fg; g = fg.make('bosk', num_players=2); "
        "print(fg.play(g, [fg.RandomAgent(), fg.MCTSAgent(iterations=5)], seed=4).moves[-1])"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    runs = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, encoding="utf-8", check=True, env=env
        ).stdout
        for _ in range(2)
    }
    assert len(runs) == 1


def test_one_spec_as_a_bare_string_says_to_wrap_it_in_a_list():
    """``agents="greedy"`` is refused with the list that would play it at every seat; an
    empty list or a number is refused too."""
    for call in (fg.simulate, fg.play):
        with pytest.raises(fg.ConfigError, match=r"not the string 'greedy': \['greedy'\]"):
            call(BOSK, "greedy", 1) if call is fg.simulate else call(BOSK, "greedy", seed=0)
    for bad in ([], 3):
        with pytest.raises(fg.ConfigError, match="non-empty list of agents or specs"):
            fg.simulate(BOSK, bad, 1, progress=False)


def test_more_agents_than_seats_is_an_error():
    """Three agents for a 2-player game is a ConfigError (the third used to be dropped)."""
    with pytest.raises(fg.ConfigError, match="3 agents for a 2-player game"):
        fg.play(fg.make("bosk", num_players=2), ["greedy", "random", "mcts:5"], seed=0)
    with pytest.raises(fg.ConfigError, match="3 agents for a 2-player game"):
        fg.simulate(BOSK, ["greedy", "random", "random"], 1, progress=False)


def test_a_pooled_rate_over_several_seats_a_game_counts_games_not_seats():
    """Worked by hand: (wins, seats) per game (1, 2), (0, 2), (2, 2), (1, 2): rate 4/8 = 0.5;
    deviations w - 0.5 n are 0, -1, 1, 0, so the cluster-robust variance is
    4/3 * 2 / 8**2 = 1/24 and the effective trials 0.25 / (1/24) = 6: the Wilson interval of
    3 in 6. Seats that always win together are one trial a game; no spread (self-play,
    all wins or none, one game) keeps the seats' own interval, never a narrower one."""
    from forestgames.sim import clustered_interval, wilson_interval

    assert clustered_interval([(1, 2), (0, 2), (2, 2), (1, 2)]) == pytest.approx(
        wilson_interval(3, 6)
    )
    together = clustered_interval([(2, 2), (0, 2)] * 10)  # 19 effective trials of 40 seats
    assert together == pytest.approx(fg.sim._wilson(0.5, 19, 1.959964))
    for per_game, wins, seats in (([(1, 2)] * 10, 10, 20), ([(0, 2)] * 10, 0, 20),
                                  ([(2, 2)] * 10, 20, 20), ([(1, 3)], 1, 3),
                                  ([(1, 2)], 1, 2)):  # fmt: skip
        assert clustered_interval(per_game) == pytest.approx(wilson_interval(wins, seats))
    assert clustered_interval([]) == (0.0, 1.0)
    for bad in ([(3, 2)], [(-1, 2)], [(0.5, 2)], [("a", 2)], [(1,)], [1], [(0, 0)]):
        pair = r"wins must be|each game is a \(wins, seats\) pair|seats must be in 1\.\."
        with pytest.raises(fg.ConfigError, match=pair):
            clustered_interval(bad)


def test_an_agent_whose_seats_win_together_gets_a_wider_interval():
    """Seats that share their wins (both or neither) carry less evidence than independent
    ones: the interval of an agent on two seats that win together is that of one trial a
    game, and agrees with a bootstrap over games; one seat a game keeps Wilson's."""
    import numpy as np

    from forestgames.sim import clustered_interval, wilson_interval

    rng = np.random.default_rng(1)
    together = rng.random(200) < 0.4  # per game: both seats win, or neither
    per_game = [(2 if won else 0, 2) for won in together]
    low, high = clustered_interval(per_game)
    naive = wilson_interval(2 * int(together.sum()), 400)
    assert high - low > 1.3 * (naive[1] - naive[0])
    draws = rng.integers(0, 200, size=(4000, 200))
    boot_low, boot_high = np.quantile(together[draws].mean(axis=1), [0.025, 0.975])
    assert abs(low - boot_low) < 0.015 and abs(high - boot_high) < 0.015
    duel = fg.simulate("bosk", ["greedy", "random"], 20, seed=1, progress=False).summary()
    for tally in duel["agents"]:
        assert tally["ci95"] == fg.sim.wilson_interval(tally["wins"], tally["games"])


def test_a_fit_without_prior_is_refused_where_no_finite_one_exists():
    """With prior=0 an agent that never wins (or a group never beaten by the rest) has no
    finite rating: ConfigError, where Newton's method raised LinAlgError or returned
    whatever 100 steps reached. A chain of wins reaching everyone fits."""
    from forestgames.tournament import fit_bradley_terry

    for wins in ([[0, 10], [0, 0]], [[0, 0], [0, 0]], [[0, 5, 10], [5, 0, 10], [0, 0, 0]],
                 [[0, 3, 0, 0], [1, 0, 0, 0], [0, 0, 0, 2], [0, 0, 2, 0]]):  # fmt: skip
        with pytest.raises(fg.ConfigError, match="no finite fit"):
            fit_bradley_terry(wins, prior=0)
    for prior in (1e-16, 1e-10):  # too flat to hold the runaway rating
        with pytest.raises(fg.ConfigError, match="no finite fit"):
            fit_bradley_terry([[0, 5, 5], [0, 0, 5], [0, 0, 0]], prior=prior)
    held = fit_bradley_terry([[0, 5, 5], [0, 0, 5], [0, 0, 0]], prior=1e-6)
    assert held[1] == pytest.approx(0, abs=1e-9) and held[0] == pytest.approx(-held[2])
    assert fit_bradley_terry([[0, 1, 0], [0, 0, 1], [1, 0, 0]], prior=0) == pytest.approx(0)
    strengths = fit_bradley_terry([[0, 2], [1, 0]], prior=0)
    assert strengths[0] - strengths[1] == pytest.approx(math.log(2))


def test_a_result_shows_in_one_line_whatever_its_size():
    """A notebook shows a result by its repr: one line naming the run, not every row (a
    100,000-game run printed megabytes); a tournament's names its ratings."""
    small = fg.simulate("bosk", ["random"], 2, seed=1, progress=False)
    big = attrs.evolve(small, rows=small.rows * 5000)
    shown = repr(big)
    assert "10000 games" in shown and "seed=1" in shown and len(shown) < 300
    tournament = fg.tournament("bosk", ["random", "greedy"], 2, seed=1, progress=False)
    assert repr(tournament).startswith("<TournamentResult bosk") and "greedy" in repr(tournament)


def test_a_file_named_as_stdout_goes_through_whatever_stdout_is(tmp_path, monkeypatch):
    """A stdout replaced by a text-only wrapper (a codecs writer has no binary buffer) still
    takes a file written to its own path, once, in order with what was printed."""
    from forestgames.sim import write_file

    class TextOnly:
        def __init__(self, stream: io.TextIOBase) -> None:
            self.stream = stream

        def fileno(self) -> int:
            return self.stream.fileno()

        def write(self, text: str) -> int:
            return self.stream.write(text)

        def flush(self) -> None:
            self.stream.flush()

    path = tmp_path / "out.txt"
    with open(path, "w", encoding="utf-8") as stream:
        monkeypatch.setattr(sys, "stdout", TextOnly(stream))
        print("first")
        write_file(path, "rows\n")
        print("last")
        with pytest.raises(fg.ConfigError, match="text only"):  # a picture's bytes
            write_file(path, b"\x89PNG")
    assert path.read_text(encoding="utf-8") == "first\nrows\nlast\n"


class _PoolThatBreaks:
    """A process pool whose worker dies after its first chunk is sent: the next submit
    raises BrokenProcessPool, as ProcessPoolExecutor's does once it has seen the death."""

    def __init__(self):
        self.sent = []

    def submit(self, fn, chunk):
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool

        if self.sent:
            raise BrokenProcessPool("a child process terminated abruptly")
        self.sent.append(list(chunk))
        return Future()  # never done: its worker is gone


def test_a_chunk_refused_by_a_broken_pool_is_played_again():
    """A worker killed while the run hands out chunks costs no game: the chunk that the
    broken pool refused goes back with those in flight (it was lost: a run of 300 games
    with one worker killed by SIGKILL wrote 299 rows and exited 0)."""
    from concurrent.futures.process import BrokenProcessPool

    from forestgames.sim import _drain

    chunker = _Chunker(10, workers=2)
    with pytest.raises(BrokenProcessPool, match="terminated abruptly"):
        _drain(_PoolThatBreaks(), chunker, 2, lambda rows: None)
    left = []
    while chunker:
        left += chunker.take()
    assert sorted(left) == list(range(10))


class FailOnceElseStall(RandomAgent):
    """The first move of any game in any process raises; every other game's first move waits
    ``stall`` seconds (a long search, say)."""

    def __init__(self, marker: str, stall: float = 20.0, seed: int | None = None) -> None:
        super().__init__(seed)
        self.marker, self.stall, self.moved = marker, stall, False
        self.name = "fail-once"

    def settings(self):
        return {"marker": self.marker, "stall": self.stall}

    def choose(self, state):
        if not self.moved:
            self.moved = True
            try:
                os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                time.sleep(self.stall)
            else:
                raise RuntimeError("an agent's bug")
        return super().choose(state)


def _local_workers() -> set[int]:
    """This process's children, and the children of its fork server (the workers it forks)."""
    children = _live_children(os.getpid())
    servers = {pid for pid in children if _runs(pid, "multiprocessing.forkserver")}
    return children | {worker for server in servers for worker in _live_children(server)}


def test_an_error_in_one_game_stops_the_other_workers_at_once(tmp_path):
    """An agent's error in one worker's game is raised at once and ends the other workers:
    it waited for every chunk in flight (here 20 s a game; for ever behind a hung agent)."""
    agent = FailOnceElseStall(str(tmp_path / "failed"))
    if process_context().get_start_method() == "forkserver":  # another thread runs (Ray's)
        import multiprocessing.forkserver

        # the fork server and its resource tracker outlive every run: started first, so
        # that they are not taken for workers (a test before this one may have started them)
        multiprocessing.forkserver.ensure_running()
    before = _local_workers()
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="an agent's bug"):
        fg.simulate(BOSK, [agent], 8, seed=1, workers=2, progress=False)
    assert time.monotonic() - start < 10
    deadline = time.monotonic() + 5
    while _local_workers() - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _local_workers() - before, "workers outlived the failed run"


def test_stopping_a_pool_waits_for_its_manager_thread():
    """Stopping a pool's workers (Ctrl-C, an agent's error) returns once the pool's manager
    thread has ended and closed its wake-up pipe: Python 3.11's exit handler could write to
    that pipe as it closed ("Exception ignored ... OSError: Bad file descriptor" after
    about one interrupted run in twelve)."""
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(2, mp_context=process_context())
    futures = [pool.submit(time.sleep, 30) for _ in range(2)]
    deadline = time.monotonic() + 30
    while not all(future.running() for future in futures) and time.monotonic() < deadline:
        time.sleep(0.05)
    manager = pool._executor_manager_thread
    assert manager is not None and manager.is_alive()
    sim._stop_workers(pool)
    assert not manager.is_alive()


class _TwoPartError(Exception):
    """An exception that pickles but cannot be unpickled (its constructor takes two
    arguments; a pickle calls it with its message alone)."""

    def __init__(self, what, why):
        super().__init__(f"{what}: {why}")


class RaisesAtFirstMove(RandomAgent):
    """An agent whose every game fails at its first move (``two_part``: with an exception
    that cannot travel back from a worker)."""

    def __init__(self, two_part: bool = False, seed: int | None = None) -> None:
        super().__init__(seed)
        self.two_part = two_part
        self.name = "raiser"

    def settings(self):
        return {"two_part": self.two_part}

    def choose(self, state):
        if self.two_part:
            raise _TwoPartError("agent", "broken")
        raise KeyError("no such card")


def test_an_agents_error_names_the_game_to_replay():
    """An agent's exception keeps its type and gains notes naming the game of the run, its
    seed, the move, and the agent and seat, so the game can be replayed (it named none)."""
    with pytest.raises(KeyError, match="no such card") as caught:
        fg.simulate(BOSK, ["random", RaisesAtFirstMove()], 3, seed=5, progress=False)
    notes = "\n".join(caught.value.__notes__)
    seeded = f"the game seeded {derive_seed(5, 0)}, after 1 moves, with seat 1 (agent raiser)"
    assert seeded in notes
    assert "game 0 of the run" in notes


class FailsAtSeatZero(RandomAgent):
    """An agent that fails whenever it plays seat 0 (so only some games of a rotated run)."""

    name = "picky"

    def choose(self, state):
        if state.players_to_act[0] == 0:
            raise LookupError("seat 0 again")
        return super().choose(state)


def test_an_errors_note_replays_its_game_with_its_seats_agents():
    """With seats rotated, the note names game 1's own lineup (the run's agent list played
    it without the error), and fg.play of that lineup, from the seed in the note, fails the
    same way: the note is the call that replays the game."""
    with pytest.raises(LookupError, match="seat 0 again") as caught:
        fg.simulate(BOSK, ["random", FailsAtSeatZero()], 4, seed=9, rotate=True, progress=False)
    note = next(n for n in caught.value.__notes__ if "of the run" in n)
    index, seed = map(int, re.search(r"game (\d+) of the run; .*seed=(\d+)\)", note).groups())
    assert index % 2 == 1 and "['picky', 'random']" in note and "max_moves" not in note
    fg.play(BOSK, ["random", FailsAtSeatZero()], seed=seed)  # the run's list: no error
    with pytest.raises(LookupError, match="seat 0 again"):
        fg.play(BOSK, [FailsAtSeatZero(), "random"], seed=seed)


SHARED_ERROR = LookupError("one object, raised in every game")


class RaisesSharedError(RandomAgent):
    """An agent raising one module-level exception object every time."""

    def choose(self, state):
        raise SHARED_ERROR


def test_an_exception_raised_again_keeps_only_its_latest_game_in_its_notes():
    """An exception object raised in several games (caught by the user between them)
    keeps one note of each kind, for the game it came from last: notes naming every game it
    was ever raised in would send a replay to the wrong one."""
    for seed in (1, 2, 3):
        with pytest.raises(LookupError, match="one object, raised in every game"):
            fg.simulate(BOSK, [RaisesSharedError()], 1, seed=seed, progress=False)
    notes = SHARED_ERROR.__notes__
    assert len(notes) == 2, notes
    assert f"seeded {derive_seed(3, 0)}," in notes[0] and f"seed={derive_seed(3, 0)})" in notes[1]
    with pytest.raises(
        LookupError, match="one object, raised in every game"
    ):  # then alone: no note of the run's game is left
        fg.play(BOSK, [RaisesSharedError()], seed=777)
    assert len(SHARED_ERROR.__notes__) == 1 and "seeded 777," in SHARED_ERROR.__notes__[0]


class BuiltWithSharedError(RandomAgent):
    """An agent whose copy for a game raises the module-level SHARED_ERROR."""

    def for_game(self, seed):
        raise SHARED_ERROR


def test_an_error_while_agents_are_made_drops_an_earlier_games_notes():
    """An exception object raised again while a game's agents are made (a user's for_game)
    keeps no note of the game it came from before: its note names this game."""
    with pytest.raises(LookupError, match="one object, raised in every game"):
        fg.play(BOSK, [RaisesSharedError()], seed=777)
    with pytest.raises(LookupError, match="one object, raised in every game"):
        fg.play(BOSK, [BuiltWithSharedError()], seed=5)
    assert SHARED_ERROR.__notes__ == [
        "forestgames: in the game seeded 5, while its agents were made"
    ]


@pytest.mark.parametrize("agents", [b"random", bytearray(b"rg")])
def test_bytes_are_no_list_of_agents(agents):
    """Bytes given for the agents are refused as such (they were read as a list of ints:
    '6 agents for a 2-player game', or '114 is not an agent')."""
    with pytest.raises(fg.ConfigError, match=r"specs are str"):
        fg.play(BOSK, agents)
    with pytest.raises(fg.ConfigError, match=r"specs are str"):
        fg.simulate(BOSK, agents, 1, progress=False)
    with pytest.raises(fg.ConfigError, match=r"two or more agents, not b"):
        fg.tournament(BOSK, agents, 1, progress=False)


def test_a_worker_error_with_notes_not_in_a_list_still_comes_back_named():
    """An error that cannot travel back, whose __notes__ is no list (Python allows any
    value), still becomes the RuntimeError naming it (iterating 42 raised TypeError)."""
    from forestgames.sim import _sent_back_whole

    error = _TwoPartError("agent", "broken")
    error.__notes__ = 42
    with pytest.raises(RuntimeError, match="_TwoPartError: agent: broken") as caught:
        with _sent_back_whole():
            raise error
    assert caught.value.__notes__ == []


def test_notes_that_are_not_text_are_kept_and_do_not_hide_the_error():
    """An exception whose notes hold a non-string (Python allows it) keeps them and its own
    type (reading them as text replaced the agent's error with AttributeError)."""
    error = LookupError("odd notes")
    error.__notes__ = [42]

    class Raises(RandomAgent):
        def choose(self, state):
            raise error

    # no match=: pytest would join the notes into the text it matches, and 42 is no text
    with pytest.raises(LookupError) as caught:
        fg.play(BOSK, [Raises()], seed=3)
    assert caught.value is error
    assert caught.value.__notes__[0] == 42 and "seeded 3," in caught.value.__notes__[1]


@RAY_LIMIT
@pytest.mark.parametrize("backend", ["local", "ray"])
def test_an_error_that_cannot_come_back_from_a_worker_is_named(backend, request):
    """An agent's exception that cannot be unpickled comes back as a RuntimeError naming it
    and the game; it broke the process pool, which replayed the run four times and then
    said a worker "terminated abruptly" (Ray: an UnserializableException)."""
    if backend == "ray":
        request.getfixturevalue("ray_cluster")
    from concurrent.futures.process import BrokenProcessPool

    with pytest.raises(RuntimeError, match="_TwoPartError: agent: broken") as caught:
        fg.simulate(
            BOSK,
            [RaisesAtFirstMove(two_part=True)],
            4,
            seed=5,
            workers=2,
            backend=backend,
            progress=False,
        )
    assert not isinstance(caught.value, BrokenProcessPool)
    assert any("the game seeded" in note for note in caught.value.__notes__)


class PlainAgent:
    """A user's agent with the default repr (its memory address in it)."""

    name = "plain"

    def __init__(self):
        self.inner = RandomAgent(3)

    def choose(self, state):
        return self.inner.choose(state)


def test_a_run_of_an_agent_with_the_default_repr_resumes(tmp_path):
    """A run of an agent whose repr is the default one resumes with a new instance of it
    (the run's digest took the repr's memory address, so every process refused the file as
    another run's); its rows' run digest is the same in every process."""
    out = tmp_path / "run.jsonl"
    first, second = PlainAgent(), PlainAgent()
    started = fg.simulate(BOSK, [first, "random"], 2, seed=1, out=out, progress=False)
    resumed = fg.simulate(BOSK, [second, "random"], 4, seed=1, out=out, resume=True, progress=False)
    assert resumed.rows[:2] == started.rows and len(resumed.rows) == 4


class LockedAgent(RandomAgent):
    """An agent that cannot be pickled (it holds a lock)."""

    def __init__(self, seed: int | None = None) -> None:
        import threading

        super().__init__(seed)
        self.lock = threading.Lock()
        self.name = "locked"


@RAY_LIMIT
@pytest.mark.parametrize("backend", ["local", "ray"])
def test_an_agent_that_cannot_be_pickled_is_named(backend, request):
    """Workers that are not forked (a process with threads starts them from a fork server)
    and Ray need agents that pickle: one that does not is a ConfigError naming it (it was
    the pickler's bare TypeError: "cannot pickle '_thread.lock' object")."""
    import threading

    if backend == "ray":
        request.getfixturevalue("ray_cluster")
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        with pytest.raises(fg.ConfigError, match=r"agent locked cannot be pickled.*workers=1"):
            fg.simulate(
                BOSK,
                [LockedAgent(), "random"],
                4,
                seed=1,
                workers=2,
                backend=backend,
                progress=False,
            )
    finally:
        stop.set()
        thread.join()


def test_resume_refuses_a_game_given_two_outcomes(tmp_path):
    """A results file with two different rows for one game is refused, untouched (the first
    was kept silently, whichever it was); a repeated identical row is harmless."""
    out = tmp_path / "run.jsonl"
    fg.simulate(BOSK, ["random"], 3, seed=2, out=out, progress=False)
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(lines) + lines[1], encoding="utf-8")
    again = fg.simulate(BOSK, ["random"], 3, seed=2, out=out, resume=True, progress=False)
    assert len(again.rows) == 3
    row = json.loads(lines[1])
    row["scores"][0] += 1
    changed = "".join(lines) + json.dumps(row, separators=(",", ":")) + "\n"
    out.write_text(changed, encoding="utf-8")
    with pytest.raises(fg.ConfigError, match=f"run.jsonl:4 gives game {row['index']} another"):
        fg.simulate(BOSK, ["random"], 3, seed=2, out=out, resume=True, progress=False)
    assert out.read_text(encoding="utf-8") == changed
