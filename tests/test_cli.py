"""The forestgames command, driven end to end through subprocesses."""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import forestgames as fg
from forestgames.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
# The children print pictures ('·', '■') that the tests read back as UTF-8, whatever the
# machine's locale (a test about another console encoding sets its own).
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}


def run_cli(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m forestgames.cli ARGS`` with ``stdin`` fed in; output captured."""
    return subprocess.run(
        [sys.executable, "-m", "forestgames.cli", *args],
        input=stdin,
        capture_output=True,
        encoding="utf-8",
        env=ENV,
        cwd=ROOT,
        timeout=timeout,
    )


def test_python_dash_m_forestgames_is_the_command():
    """``python -m forestgames`` runs the command line (there was no ``__main__``)."""
    done = subprocess.run(
        [sys.executable, "-m", "forestgames", "--version"],
        capture_output=True, encoding="utf-8", env=ENV, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout.startswith("forestgames ")


def test_console_script_is_declared():
    """pyproject declares the forestgames console script as forestgames.cli:main."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'forestgames = "forestgames.cli:main"' in pyproject


@pytest.mark.parametrize(
    ("command", "mentions"),
    [
        ([], ["simulate", "play", "replay", "bench"]),
        (["simulate"], ["--players", "--agents", "--workers", "--ray", "--resume", "--rotate"]),
        (["play"], ["--seat", "--agents", "--save"]),
        (["replay"], ["--all"]),
        (["bench"], ["--seconds", "baseline"]),
    ],
)
def test_help_everywhere(command, mentions):
    """--help works for the program and each command and names its options."""
    done = run_cli(*command, "--help")
    assert done.returncode == 0 and "usage: forestgames" in done.stdout
    for word in mentions:
        assert word in done.stdout


def test_simulate_with_defaults():
    """`forestgames simulate bosk --players 4 --games 100` plays 100 random games, prints rates."""
    done = run_cli("simulate", "bosk", "--players", "4", "--games", "100")
    assert done.returncode == 0, done.stderr
    assert "bosk, 4 players: 100 games (0 truncated)" in done.stdout
    assert "random" in done.stdout and "win rate" in done.stdout and "95% CI" in done.stdout
    assert done.stderr == ""  # no progress bar when stderr is not a terminal


def test_simulate_options_rotate_csv_and_errors(tmp_path):
    """Agents, --rotate, game options and --csv reach the run; a bad agent is a clear error."""
    csv = tmp_path / "rows.csv"
    done = run_cli(
        "simulate",
        "bosk",
        "-n",
        "4",
        "--agents",
        "greedy,random",
        "--rotate",
        "-o",
        "squirrel_exactly_three=true",
        "--csv",
        str(csv),
        "--seed",
        "3",
    )
    assert done.returncode == 0, done.stderr
    expected = fg.simulate(
        fg.make("bosk", squirrel_exactly_three=True),
        ["greedy", "random"],
        4,
        seed=3,
        rotate=True,
        progress=False,
    )
    assert csv.read_text(encoding="utf-8") == expected.to_csv()
    bad = run_cli("simulate", "bosk", "--agents", "genius")
    assert bad.returncode == 2 and "unknown agent 'genius'" in bad.stderr
    bad = run_cli("simulate", "bosk", "--players", "9")
    assert bad.returncode == 2 and "2 to 4 players" in bad.stderr
    bad = run_cli("simulate", "chess")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def test_simulate_killed_then_resumed(tmp_path):
    """A CLI run killed mid-way (SIGKILL) and resumed with the same arguments plays only the
    missing games: the file then holds each game once, equal to an undisturbed run."""
    out = tmp_path / "results.jsonl"
    args = ["simulate", "bosk", "-n", "40", "--agents", "greedy", "--seed", "8", "--out", str(out)]
    process = subprocess.Popen(
        [sys.executable, "-m", "forestgames.cli", *args],
        env=ENV,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if out.exists() and len(out.read_text(encoding="utf-8").splitlines()) >= 3:
            break
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()
    before = len(out.read_text(encoding="utf-8").splitlines())
    assert 3 <= before < 40, "the run should have been interrupted part-way"
    again = run_cli(*args)
    assert again.returncode == 2 and "exists" in again.stderr
    done = run_cli(*args, "--resume")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(row["index"] for row in rows) == list(range(40))
    whole = fg.simulate(fg.make("bosk"), ["greedy"], 40, seed=8, progress=False)
    assert sorted(rows, key=lambda r: r["index"]) == [row.to_dict() for row in whole.rows]


def _scripted_human_moves(seed: int) -> tuple[fg.GameRecord, list[str]]:
    """A whole game, seat 0 a seeded random agent against greedy, and seat 0's moves."""
    record = fg.play(fg.make("bosk"), ["random", "greedy"], seed=seed)
    return record, [m for m in record.moves if m.startswith("0:")]


def test_play_session_from_scripted_input_then_replay(tmp_path):
    """A whole `play` game typed on stdin (with bad input, a move list request, an illegal move,
    moves without the seat prefix and by number) is saved and replays to the same game."""
    record, mine = _scripted_human_moves(seed=12)
    lines = ["nonsense", "?", "0:leaf@0,0", "1:plant 1@0,0", "help"]
    for index, move in enumerate(mine):
        lines.append(move.split(":", 1)[1] if index % 3 == 1 else move)
    save = tmp_path / "game.json"
    done = run_cli(
        "play",
        "bosk",
        "--seed",
        "12",
        "--agents",
        "greedy",
        "--save",
        str(save),
        stdin="\n".join(lines) + "\n",
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "not a move: 'nonsense' is not a Bosk move" in out
    assert "plant 1@  1 0,0 " in out  # the ? list, grouped
    assert "illegal: 0:leaf@0,0" in out
    assert "is a move of seat 1; you play seat 0" in out
    final = record.final_state()
    ended = f"game over: seat {final.winners[0]} wins, scores {list(final.scores)}"
    assert "seat 1 plays 1:plant" in out and ended in out
    assert out.count("seat 0> ") == len(mine) + 5  # one prompt per line typed
    saved = fg.GameRecord.from_json(save.read_text(encoding="utf-8"))
    assert saved == record

    replay = run_cli("replay", str(save), "--all")
    assert replay.returncode == 0
    assert f"{len(record.moves)}. {record.moves[-1]}" in replay.stdout
    assert replay.stdout.count("Bosk 2p") == len(record.moves) + 1

    stepped = run_cli("replay", str(save), stdin="\n\nb\n5\nx\nq\n")
    assert stepped.returncode == 0
    shown = [line for line in stepped.stdout.splitlines() if line.startswith("[")]
    assert [line.split("]")[0] for line in shown] == [
        f"[{i}/{len(record.moves)}" for i in (0, 1, 2, 1, 5, 5)
    ]
    assert "unknown command 'x'" in stepped.stdout


def test_play_quit_saves_the_partial_record(tmp_path):
    """Quitting (or the input ending) stops with status 1 and saves the moves so far."""
    save = tmp_path / "partial.json"
    done = run_cli(
        "play",
        "bosk",
        "--seed",
        "1",
        "--seat",
        "1",
        "--agents",
        "random",
        "--save",
        str(save),
        stdin="1\nquit\n",
    )
    assert done.returncode == 1 and "stopped (quit)" in done.stdout
    partial = fg.GameRecord.from_json(save.read_text(encoding="utf-8"))
    assert 1 <= len(partial.moves) <= 3 and partial.replay()
    ended = run_cli("play", "bosk", "--seed", "1", stdin="")
    assert ended.returncode == 1 and "stopped (input ended)" in ended.stdout
    bad = run_cli("play", "bosk", "--seat", "5")
    assert bad.returncode == 2 and "not a seat" in bad.stderr


def test_play_keeps_a_drawn_seed_of_hidden_cards_until_the_end():
    """A drawn seed deals every hidden card, so with hidden information `play` tells it only
    once the game stops; a seed given with --seed, or --reveal, or a game without hidden
    information (Bosk) tells it at once."""
    hidden = run_cli("play", "boom_bokken", "--players", "4", stdin="quit\n")
    greeting, *rest = hidden.stdout.splitlines()
    assert greeting.startswith("boom_bokken, 4 players; you are seat 0") and "seed" not in greeting
    told = [line for line in rest if line.startswith("the game's seed was ")]
    assert len(told) == 1 and "stopped (quit)" in hidden.stdout.split(told[0])[0]
    seed = int(told[0].rsplit(" ", 1)[1])
    again = run_cli("play", "boom_bokken", "--players", "4", "--seed", str(seed), stdin="quit\n")
    greeting_again, *rest_again = again.stdout.splitlines()
    assert greeting_again.startswith(f"boom_bokken, 4 players, seed {seed};")
    assert rest_again == [line for line in rest if line != told[0]]  # the same deal
    revealed = run_cli("play", "boom_bokken", "--players", "4", "--reveal", stdin="quit\n")
    assert ", seed " in revealed.stdout.splitlines()[0]
    assert ", seed " in run_cli("play", "bosk", stdin="quit\n").stdout.splitlines()[0]


def test_replay_rejects_a_bad_record(tmp_path):
    """replay of a file that is not a game record fails with the library's message."""
    path = tmp_path / "bad.json"
    path.write_text('{"game": "bosk"}', encoding="utf-8")
    done = run_cli("replay", str(path))
    assert done.returncode == 2 and "game record lacks" in done.stderr


def test_bench_prints_each_game_with_a_baseline():
    """bench measures every registered game and prints moves/s with a same-run baseline."""
    done = run_cli("bench", "--seconds", "0.2")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert "baseline/s" in lines[0]
    for name in fg.GAME_NAMES:
        fields = next(line for line in lines if line.startswith(name)).split()
        assert int(fields[1]) == fg.make(name).traits.min_players and float(fields[3]) > 0


def test_main_in_process_returns_status(capsys):
    """main() can be called in-process; it returns 0 on success."""
    assert main(["simulate", "bosk", "-n", "2", "--no-progress"]) == 0
    assert "2 games" in capsys.readouterr().out


def test_simulate_on_a_local_ray_started_for_the_run():
    """--ray without an address starts a local Ray for the run and prints the same rates."""
    pytest.importorskip("ray")
    args = ["simulate", "bosk", "-n", "6", "--agents", "greedy,random", "--seed", "4"]
    local = run_cli(*args)
    on_ray = run_cli(*args, "--ray", "--workers", "2", timeout=300)
    assert on_ray.returncode == 0, on_ray.stderr
    assert on_ray.stdout == local.stdout


HEAD_SCRIPT = """
import sys, ray
context = ray.init(num_cpus=2, include_dashboard=False)
print(context.address_info["gcs_address"], flush=True)
sys.stdin.read()
ray.shutdown()
"""


def test_simulate_on_a_ray_cluster_at_an_address():
    """--ray ADDRESS connects to a running cluster (one this test starts on this machine,
    token authentication off) and prints the same rates as a local run."""
    pytest.importorskip("ray")
    env = {**ENV, "RAY_AUTH_MODE": "disabled"}
    head = subprocess.Popen(
        [sys.executable, "-c", HEAD_SCRIPT],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        encoding="utf-8",
        env=env,
    )
    try:
        address = head.stdout.readline().strip()
        assert address, "the Ray head did not start"
        args = ["simulate", "bosk", "-n", "4", "--agents", "greedy,random", "--seed", "6"]
        on_ray = subprocess.run(
            [sys.executable, "-m", "forestgames.cli", *args, "--ray", address],
            capture_output=True, encoding="utf-8", env=env, cwd=ROOT, timeout=300,
        )  # fmt: skip
        assert on_ray.returncode == 0, on_ray.stderr
        assert on_ray.stdout == run_cli(*args).stdout
    finally:
        head.communicate(timeout=120)  # closing its stdin shuts the cluster down


NOT_NUMBERS = ["²", "?²", "9" * 5000, "?" + "9" * 5000]


def test_play_reads_odd_numbers_as_text():
    """Typed lines that str.isdigit() takes for numbers but int() refuses ('²', 5000 digits)
    are answered as bad input, not a traceback."""
    lines = "\n".join(NOT_NUMBERS) + "\nquit\n"
    played = run_cli("play", "bosk", "--seed", "1", "--agents", "random", stdin=lines)
    assert played.returncode == 1 and "Traceback" not in played.stderr
    assert played.stdout.count("not a move") == len(NOT_NUMBERS)


def test_replay_reads_odd_numbers_as_unknown_commands(tmp_path):
    """The replay prompt answers '²' and a 5000-digit line as unknown commands."""
    path = tmp_path / "game.json"
    path.write_text(fg.play(fg.make("bosk"), ["random"], seed=1).to_json(), encoding="utf-8")
    done = run_cli("replay", str(path), stdin="\n".join(NOT_NUMBERS[::2]) + "\nq\n")
    assert done.returncode == 0 and done.stdout.count("unknown command") == 2


def test_an_option_value_that_cannot_be_read_is_a_usage_error():
    """-o KEY=VALUE with JSON nested too deep (RecursionError) or a number too long is a
    usage error naming the option."""
    for value in ("[" * 100_000, "9" * 5000):
        done = run_cli("simulate", "bosk", "-n", "1", "--no-progress", "-o", f"terrain={value}")
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert "terrain" in done.stderr


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("١٢", "not an integer"),
        ("1_0", "not an integer"),
        (" 7", "not an integer"),
        ("0x10", "not an integer"),
        ("1e3", "not an integer"),
        ("9" * 5000, "an integer of 5,000 digits is too long"),
    ],
)
def test_integer_arguments_are_ascii_digits(value, words, capsys):
    """An integer argument is ASCII digits with an optional sign: Python's int also read
    other scripts' digits, underscores and spaces; one too long to read says so."""
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "bosk", "--no-progress", "-n", value])
    assert exit_.value.code == 2
    assert f"--games/-n: {words}" in capsys.readouterr().err


def test_empty_names_are_refused(tmp_path, capsys):
    """An empty output file name and an agent spec ending in a bare colon are errors; both
    were taken (no CSV written, plain MCTS played)."""
    assert main(["simulate", "bosk", "-n", "1", "--no-progress", "--csv", ""]) == 2
    assert "--csv needs a file name" in capsys.readouterr().err
    assert main(["simulate", "bosk", "-n", "1", "--no-progress", "-a", "mcts:"]) == 2
    assert "nothing after the colon" in capsys.readouterr().err
    assert main(["simulate", "bosk", "-n", "1", "--no-progress", "-s", "+3"]) == 0


def test_bench_refuses_endless_or_negative_seconds():
    """bench --seconds inf (it would never end), nan or a negative time is a usage error."""
    for seconds in ("inf", "nan", "-1"):
        done = run_cli("bench", "bosk", "--seconds", seconds)
        assert done.returncode == 2 and "--seconds" in done.stderr


@pytest.mark.parametrize("seconds", ["1_0", "\u0661", " 2", "0x1", "1e", ".", "9" * 5000])
def test_decimal_arguments_are_ascii_decimals(seconds, capsys):
    """--seconds is an ASCII decimal (Python's float read underscores, other scripts' digits
    and spaces); 0.5, .5, 1e-1 and 2 are."""
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "bosk", "--seconds", seconds])
    assert exit_.value.code == 2
    assert "--seconds: not a decimal number" in capsys.readouterr().err
    parser = build_parser()
    for good in ("0.5", ".5", "1e-1", "2", "+1."):
        assert parser.parse_args(["bench", "bosk", "--seconds", good]).seconds == float(good)


def test_an_output_device_needs_no_writable_folder(tmp_path, monkeypatch):
    """A device or FIFO named as an output (--html /dev/stdout) is written in place, so
    only it must be writable, not its folder (/dev is not, for most users); a new file
    still needs its folder writable."""
    from forestgames import cli

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    real_access = os.access
    monkeypatch.setattr(
        cli.os, "access", lambda p, mode: Path(p) != tmp_path and real_access(p, mode)
    )
    cli._check_writable("--html", str(fifo))
    with pytest.raises(fg.ConfigError, match="not writable"):
        cli._check_writable("--html", str(tmp_path / "page.html"))


def test_play_checks_the_save_path_before_the_game(tmp_path):
    """play --save into a folder that does not exist fails before any move is asked for."""
    done = run_cli("play", "bosk", "--save", str(tmp_path / "no" / "game.json"), stdin="1\n")
    assert done.returncode == 2 and "no directory" in done.stderr and done.stdout == ""


# --------------------------------------------------------------------------- review fixes


def run_with_stdout_closed(
    *args: str, stdin: str = "", unbuffered: bool = False
) -> subprocess.CompletedProcess[str]:
    """The CLI with its stdout a pipe whose reading end is already closed (as `| true`)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    env = {key: value for key, value in ENV.items() if key != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    try:
        return subprocess.run(
            [sys.executable, "-m", "forestgames.cli", *args],
            input=stdin, stdout=write_end, stderr=subprocess.PIPE, encoding="utf-8", env=env,
            cwd=ROOT, timeout=120,
        )  # fmt: skip
    finally:
        os.close(write_end)


@pytest.mark.parametrize("unbuffered", [False, True])
def test_a_closed_stdout_ends_quietly_and_the_files_are_written(tmp_path, unbuffered):
    """simulate --csv, tournament --csv/--json and replay --all into a closed pipe stop with
    status 141 and no message, and the files are written all the same."""
    csv = tmp_path / "rows.csv"
    done = run_with_stdout_closed(
        "simulate", "bosk", "-n", "3", "--no-progress", "--csv", str(csv), unbuffered=unbuffered
    )
    assert (done.returncode, done.stderr) == (141, "")
    expected = fg.simulate(fg.make("bosk"), ["random"], 3, seed=0, progress=False)
    assert csv.read_text(encoding="utf-8") == expected.to_csv()
    ratings, table = tmp_path / "ratings.csv", tmp_path / "ratings.json"
    done = run_with_stdout_closed(
        "tournament", "bosk", "-n", "4", "-a", "random,greedy", "--no-progress",
        "--csv", str(ratings), "--json", str(table), unbuffered=unbuffered,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (141, "")
    assert (
        ratings.read_text(encoding="utf-8").startswith("agent,")
        and json.loads(table.read_text(encoding="utf-8"))["ratings"]
    )
    record = tmp_path / "game.json"
    record.write_text(fg.play(fg.make("bosk"), ["random"], seed=1).to_json(), encoding="utf-8")
    done = run_with_stdout_closed("replay", str(record), "--all", unbuffered=unbuffered)
    assert (done.returncode, done.stderr) == (141, "")


def test_play_into_a_closed_stdout_still_saves_the_record(tmp_path):
    """play with stdout closed stops quietly (status 141) and still writes --save."""
    save = tmp_path / "game.json"
    done = run_with_stdout_closed("play", "bosk", "--seed", "2", "--save", str(save), stdin="1\n")
    assert (done.returncode, done.stderr) == (141, "")
    assert fg.GameRecord.from_json(save.read_text(encoding="utf-8")).seed == 2


COMMANDS = ["simulate", "tournament", "play", "replay", "bench"]


def help_text(capsys: pytest.CaptureFixture[str], *command: str) -> str:
    """What `forestgames COMMAND --help` prints (in-process), whitespace made single."""
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--help"])
    assert exit_.value.code == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_no_help_shows_a_doubled_percent(capsys, command):
    """No --help shows argparse's %% escape (or a %(...)s placeholder) literally."""
    text = help_text(capsys, *command)
    assert "%%" not in text and "%(" not in text
    if command == ["tournament"]:
        assert "95% interval" in text


@pytest.mark.parametrize("command", ["simulate", "tournament", "play"])
def test_every_agents_help_lists_every_spec_form(capsys, command):
    """simulate, tournament and play --help list the same agent specs, mcts:t= and
    mcts:KEY=VALUE included."""
    text = help_text(capsys, command)
    assert "mcts:KEY=VALUE" in text and "mcts:t=0.2" in text and "mcts:N:L" in text


def test_version(capsys):
    """forestgames --version prints the package version and exits 0."""
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"forestgames {fg.__version__}\n"


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "bosk", "-n", "1", "--no-progress"],
        ["tournament", "bosk", "-n", "1", "--no-progress"],
        ["play", "bosk"],
    ],
)
def test_an_empty_agent_spec_is_an_error_naming_its_position(capsys, command):
    """-a greedy,,random (and a trailing comma) is refused, naming the empty agent."""
    assert main([*command, "-a", "greedy,,random"]) == 2
    assert "agent 2 of 3 is empty" in capsys.readouterr().err
    assert main([*command, "-a", "greedy,"]) == 2
    assert "agent 2 of 2 is empty" in capsys.readouterr().err


def test_a_repeated_option_key_is_an_error_naming_it(capsys):
    """-o num_players=2 -o num_players=3 is refused, naming the key; one -o is kept."""
    args = ["simulate", "bosk", "-n", "1", "--no-progress", "-o", "num_players=2"]
    assert main([*args, "-o", "num_players=3"]) == 2
    assert "-o num_players given twice (2 and 3)" in capsys.readouterr().err
    assert main(args) == 0


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["simulate", "bosk", "-n", "1", "--no-progress"], "--csv"),
        (["simulate", "bosk", "-n", "1", "--no-progress"], "--out"),
        (["tournament", "bosk", "-n", "1", "-a", "random,greedy", "--no-progress"], "--csv"),
        (["tournament", "bosk", "-n", "1", "-a", "random,greedy", "--no-progress"], "--json"),
        (["tournament", "bosk", "-n", "1", "-a", "random,greedy", "--no-progress"], "--png"),
        (["play", "bosk"], "--save"),
        (["replay", "GAME"], "--html"),
    ],
)
def test_no_output_file_overwrites_an_existing_one(capsys, tmp_path, command, option):
    """Every output-file option refuses an existing non-empty file before any work, like
    --out, and leaves it as it was; its help says so."""
    game = tmp_path / "game.json"
    game.write_text(fg.play(fg.make("bosk"), ["random"], seed=1).to_json(), encoding="utf-8")
    target = tmp_path / "kept.txt"
    target.write_text("keep me\n", encoding="utf-8")
    command = [str(game) if word == "GAME" else word for word in command]
    assert main([*command, option, str(target)]) == 2
    captured = capsys.readouterr()
    assert "exists" in captured.err and captured.out == ""
    assert target.read_text(encoding="utf-8") == "keep me\n"
    assert "exists and is not empty" in option_help(command[0], option)


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["simulate", "bosk", "-n", "1", "--no-progress"], "--csv"),
        (["simulate", "bosk", "-n", "1", "--no-progress"], "--out"),
        (["tournament", "bosk", "-n", "1", "-a", "random,greedy", "--no-progress"], "--json"),
        (["play", "bosk"], "--save"),
        (["replay", "GAME"], "--html"),
    ],
)
def test_an_output_file_in_a_symlink_loop_is_an_error_line(capsys, tmp_path, command, option):
    """An output file that is a symlink loop exits 2 with one error line naming the loop
    before any game (Path.resolve raised a RuntimeError traceback; --csv passed its checks)."""
    game = tmp_path / "game.json"
    game.write_text(fg.play(fg.make("bosk"), ["random"], seed=1).to_json(), encoding="utf-8")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    command = [str(game) if word == "GAME" else word for word in command]
    assert main([*command, option, str(loop)]) == 2
    captured = capsys.readouterr()
    assert "symbolic links" in captured.err and captured.out == ""


def test_tournament_png_of_an_unknown_format_is_refused_before_any_game(capsys, tmp_path):
    """tournament --png with a suffix matplotlib cannot write (x.95) exits 2 naming the
    format before any game is played (it was refused after them: --out was written)."""
    pytest.importorskip("matplotlib")
    results = tmp_path / "results.jsonl"
    tour = ["tournament", "bosk", "-n", "2", "-a", "random,greedy", "--no-progress"]
    assert main([*tour, "--out", str(results), "--png", str(tmp_path / "x.95")]) == 2
    err = capsys.readouterr().err
    assert "no picture format '95'" in err and "png" in err
    assert not results.exists()


def test_file_options_expand_a_leading_tilde(capsys, tmp_path, monkeypatch):
    """``--out=~/r.jsonl`` and the other file arguments name files in the home folder, as
    a shell's ``~`` does (a folder named '~' appeared in the working directory)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    run = ["simulate", "bosk", "-n", "1", "--no-progress", "--out=~/r.jsonl", "--csv=~/r.csv"]
    assert main(run) == 0
    record = fg.play(fg.make("bosk"), ["random"], seed=1).to_json()
    (home / "game.json").write_text(record, encoding="utf-8")
    assert main(["replay", "~/game.json", "--html", "~/page.html"]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in home.iterdir()) == ["game.json", "page.html", "r.csv", "r.jsonl"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home"]


def option_help(command: str, option: str) -> str:
    """The help string of ``option`` of ``command``."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    action = next(a for a in commands.choices[command]._actions if option in a.option_strings)
    return str(action.help)


def test_two_output_options_may_not_name_one_file(capsys, tmp_path):
    """--out and --csv (or --csv and --json) naming the same file is refused before the run."""
    same = str(tmp_path / "same")
    assert main(["simulate", "bosk", "-n", "1", "--out", same, "--csv", same]) == 2
    assert "is also the --out file" in capsys.readouterr().err
    tour = ["tournament", "bosk", "-n", "1", "-a", "random,greedy", "--no-progress"]
    assert main([*tour, "--csv", same, "--json", same]) == 2
    assert "is also the --csv file" in capsys.readouterr().err
    assert not Path(same).exists()


def test_replay_of_a_results_file_says_what_it_is(capsys, tmp_path):
    """replay of a simulate --out results file (many rows, or one) says it is a results
    file and names what replay takes."""
    for games in (3, 1):
        results = tmp_path / f"results{games}.jsonl"
        fg.simulate(fg.make("bosk"), ["random"], games, progress=False, out=results)
        assert main(["replay", str(results)]) == 2
        err = capsys.readouterr().err
        assert "looks like a results file" in err and "play --save" in err
        assert "GameRecord.to_json" in err and "Extra data" not in err


def test_replay_reads_regular_files_only(capsys, tmp_path):
    """replay of a device, a FIFO with no writer or a directory is an error at once (it read
    /dev/zero until memory ran out, and waited forever on the FIFO)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo), str(tmp_path)):
        start = time.perf_counter()
        assert main(["replay", path]) == 2
        assert "not a regular file" in capsys.readouterr().err
        assert time.perf_counter() - start < 1


@pytest.mark.parametrize("args", [["chess"], ["bonsai", "-p", "9"], ["bosk", "chess"]])
def test_bench_checks_its_arguments_before_printing(capsys, args):
    """bench of an unknown game or a bad player count prints only the error."""
    assert main(["bench", "--seconds", "0", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "forestgames: error:" in captured.err


@pytest.mark.parametrize(
    "args",
    [
        ["bench", "bosk", "--seconds", "0", "--seed", "-1"],
        ["bench", "bosk", "--seconds", "0", "-p", "0"],
        ["play", "bosk", "--seed", "-1"],
        ["play", "bosk", "-a", "mcts:x"],
        ["play", "bosk", "-a", "random,random,random"],
        ["--import=", "simulate", "bosk", "-n", "1"],
        ["--import", "..", "simulate", "bosk", "-n", "1"],
        ["simulate", "bosk", "-n", "1", "--out="],
    ],
)
def test_bad_arguments_are_refused_before_anything_is_printed(capsys, args):
    """A bad seed, player count (0 is no default), agent spec, too many opponents, module
    name or empty --out is one error line, before a header or greeting is printed (play
    greeted, then failed; bench took -p 0 for its default; --import .. raised TypeError)."""
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("forestgames: error:")
    assert len(captured.err.splitlines()) == 1


def test_bench_takes_every_seed_of_the_range(capsys):
    """The largest seed is a seed (bench's games once added offsets to it, out of range)."""
    assert main(["bench", "bosk", "--seconds", "0", "--seed", str(2**64 - 1)]) == 0
    assert "bosk" in capsys.readouterr().out


def test_files_named_as_standard_output_go_through_it(tmp_path):
    """--csv /dev/stdout writes the rows into the pipe, in order before the summary (it
    failed: the pipe's /proc name is no file); --out needs a file of its own (a device or
    stdout cannot be resumed), said up front."""
    piped = run_cli("simulate", "bosk", "-n", "2", "--no-progress", "--csv", "/dev/stdout")
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.startswith("index,seed,") and "mean length" in piped.stdout
    for target, words in (("/dev/null", "not a regular file"), ("/dev/stdout", "standard output")):
        done = run_cli("simulate", "bosk", "-n", "2", "--no-progress", "--out", target)
        assert done.returncode == 2 and words in done.stderr and done.stdout == ""


def test_a_closed_reader_of_a_file_on_stdout_is_a_quiet_end():
    """--csv /dev/stdout into a pipe whose reader has gone ends quietly (141), as printing
    does; a broken pipe elsewhere stays an error (test_a_broken_pipe_elsewhere_...)."""
    done = subprocess.run(
        ["bash", "-c", f"{sys.executable} -m forestgames.cli simulate bosk -n 300 "
         "--no-progress --csv /dev/stdout | true; exit ${PIPESTATUS[0]}"],
        capture_output=True, encoding="utf-8", env=ENV, cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert done.returncode == 141 and done.stderr == "", done.stderr


def test_an_ascii_terminal_gets_question_marks_not_a_traceback(tmp_path):
    """Pictures use '·'; where stdout cannot encode it (PYTHONIOENCODING=ascii) it is
    replaced, and play and replay run as usual."""
    env = {**ENV, "PYTHONIOENCODING": "ascii"}
    command = [sys.executable, "-m", "forestgames.cli"]
    save = tmp_path / "game.json"
    played = subprocess.run(
        [*command, "play", "bosk", "--seed", "1", "--save", str(save)],
        input="1\nquit\n", capture_output=True, encoding="utf-8", env=env, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert played.returncode == 1 and "Traceback" not in played.stderr, played.stderr
    assert "Bosk 2p ? spring ? seat 0" in played.stdout and "·" not in played.stdout
    assert "stopped (quit)" in played.stdout
    shown = subprocess.run(
        [*command, "replay", str(save), "--all"],
        capture_output=True, encoding="utf-8", env=env, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert shown.returncode == 0 and "Traceback" not in shown.stderr, shown.stderr
    assert "Bosk 2p ? spring ? seat" in shown.stdout and "·" not in shown.stdout


@pytest.mark.parametrize("encoding", ["ascii", "utf-8", "cp1252"])
def test_input_stdin_cannot_decode_is_refused_text_not_a_traceback(tmp_path, encoding):
    """A typed line stdin's encoding cannot decode is a move play refuses, not a crash."""
    env = {**ENV, "PYTHONIOENCODING": encoding}
    command = [sys.executable, "-m", "forestgames.cli"]
    played = subprocess.run(
        [*command, "play", "bosk", "--seed", "1"],
        input="é●\n".encode() + b"\xff\x81\nquit\n", capture_output=True, env=env, cwd=ROOT,
        timeout=120,
    )  # fmt: skip
    assert played.returncode == 1 and b"Traceback" not in played.stderr, played.stderr
    assert played.stdout.count(b"not a move") == 2 and b"stopped (quit)" in played.stdout


def test_closed_standard_streams_are_an_end_not_a_traceback(tmp_path):
    """Started with stdout closed (>&-), a run stops quietly (141, as a closed pipe); with
    stdin closed (<&-), play sees the end of its input. Both raised AttributeError."""
    command = [sys.executable, "-m", "forestgames.cli"]
    no_stdout = subprocess.run(
        [*command, "simulate", "bosk", "-n", "1", "--no-progress"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV, cwd=ROOT, timeout=120,
        preexec_fn=lambda: os.close(1),
    )  # fmt: skip
    assert no_stdout.returncode == 141 and b"Traceback" not in no_stdout.stderr
    no_stdin = subprocess.run(
        [*command, "play", "bosk", "--seed", "1"],
        stdin=subprocess.DEVNULL, capture_output=True, env=ENV, cwd=ROOT, timeout=120,
        preexec_fn=lambda: os.close(0),
    )  # fmt: skip
    assert no_stdin.returncode == 1 and b"stopped (input ended)" in no_stdin.stdout


def test_replay_reads_a_record_with_a_byte_order_mark(tmp_path, capsys):
    """A record saved by an editor that writes a UTF-8 byte-order mark replays (it was
    refused with Python's 'decode using utf-8-sig')."""
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + fg.play("bosk", ["random"], seed=2).to_json().encode())
    assert main(["replay", str(path), "--all"]) == 0
    assert "Bosk" in capsys.readouterr().out


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_replay_reads_a_record_in_utf_16_or_32(tmp_path, capsys, encoding):
    """A record saved as UTF-16 (PowerShell 5's '>') or UTF-32 replays."""
    path = tmp_path / "game.json"
    record = fg.play("bosk", ["random"], seed=2)
    path.write_bytes((record.to_json() + "\r\n").encode(encoding))
    assert main(["replay", str(path), "--all"]) == 0
    assert capsys.readouterr().out.startswith(f"bosk {record.options}, seed 2")


def test_an_empty_line_at_the_play_prompt_asks_again():
    """An empty line at the play prompt (on the person's turn) is no error: it prompts
    again."""
    done = run_cli("play", "bosk", "--seed", "1", stdin="\n\nquit\n")
    assert done.returncode == 1 and "stopped (quit)" in done.stdout
    assert "not a move" not in done.stdout and done.stdout.count("seat 0> ") == 3


def test_a_broken_pipe_elsewhere_is_still_an_error(capsys, monkeypatch):
    """A BrokenPipeError not from stdout (a worker's, a cluster's) is reported as an error
    (status 2), not taken for a closed stdout."""

    def broken(*args, **kwargs):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("forestgames.cli.simulate", broken)
    assert main(["simulate", "bosk", "-n", "1", "--no-progress"]) == 2
    assert "forestgames: error: Broken pipe\n" == capsys.readouterr().err


def test_import_reaches_a_game_of_ones_own(tmp_path, monkeypatch, capsys):
    """--import MODULE imports a module beside you before the command, so the game it
    registers can be simulated; a module that is not there exits 2 saying so."""
    from forestgames import core

    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "my_buzz", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_buzz.py").write_text(
        "from forestgames.core import register_game\n"
        "from tests.test_fake_game import BuzzGame\n"
        "register_game('buzz', BuzzGame.create)\n",
        encoding="utf-8",
    )
    args = ["--import", "my_buzz", "simulate", "buzz", "-n", "4", "--no-progress"]
    assert main([*args, "--out", "rows.jsonl"]) == 0
    assert "buzz, 2 players: 4 games" in capsys.readouterr().out
    assert len((tmp_path / "rows.jsonl").read_text(encoding="utf-8").splitlines()) == 4
    assert main(["--import", "no_such_module_here", "simulate", "bosk", "-n", "1"]) == 2
    assert "--import no_such_module_here: No module named" in capsys.readouterr().err
    assert main(["--import", "my_buzz.py", "simulate", "bosk", "-n", "1"]) == 2
    assert "a module's name (my_buzz), not a file's" in capsys.readouterr().err
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:  # after the command it is no option of the command's
        main(["simulate", "bosk", "--import", "my_buzz"])
    assert exit_.value.code == 2
    assert "unrecognized arguments: --import my_buzz" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:  # no other spelling
        main(["--imp", "my_buzz", "simulate", "bosk"])
    assert exit_.value.code == 2
    assert "invalid choice: 'my_buzz'" in capsys.readouterr().err


def test_import_of_a_module_that_raises_exits_2_naming_the_error(tmp_path, monkeypatch, capsys):
    """A module --import names that fails as it is imported (a SyntaxError, an error of its
    own) exits 2 with one line naming the module and the error, the SyntaxError's line
    included (it printed the traceback)."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad_syntax.py").write_text("def broken(:\n", encoding="utf-8")
    (tmp_path / "bad_import.py").write_text("raise RuntimeError('no table')\n", encoding="utf-8")
    for module, said in (
        ("bad_syntax", r"--import bad_syntax: importing it raised SyntaxError: .*line 1"),
        ("bad_import", r"--import bad_import: importing it raised RuntimeError: no table"),
    ):
        monkeypatch.delitem(sys.modules, module, raising=False)
        assert main(["--import", module, "simulate", "bosk", "-n", "1"]) == 2
        err = capsys.readouterr().err
        assert re.search(said, err) and "Traceback" not in err, err


def _children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid`` (from /proc; zombies are not alive)."""
    children = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[1] == str(pid).encode() and fields[0] != b"Z":
            children.append(int(entry.name))
    return children


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not)."""
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_bytes()
        return stat.rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_stops_a_run_with_workers_at_once(tmp_path):
    """Ctrl-C during ``simulate --workers 2`` ends the run within seconds, with status 130,
    its workers gone and the results file whole: the games in flight (a 4-player Living
    Forest game between MCTS agents takes many seconds) are dropped, not waited for."""
    out = tmp_path / "rows.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "forestgames.cli", "simulate", "living_forest", "-p", "4"]
        + ["-n", "50", "-a", "mcts:n=200", "-w", "2", "--out", str(out), "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        cwd=ROOT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while len(workers := _children(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(workers) >= 2, "no workers started"
    time.sleep(1.0)  # each worker is inside a game now
    process.send_signal(signal.SIGINT)
    start = time.monotonic()
    _, err = process.communicate(timeout=60)
    assert time.monotonic() - start < 10, "the run waited for the games in flight"
    assert process.returncode == 130 and b"interrupted" in err and b"Traceback" not in err
    deadline = time.monotonic() + 5
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(_alive, workers))
    assert all(json.loads(line) for line in out.read_text(encoding="utf-8").splitlines())
