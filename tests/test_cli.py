"""The forestgames command, driven end to end through subprocesses."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import forestgames as fg
from forestgames.cli import main

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def run_cli(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m forestgames.cli ARGS`` with ``stdin`` fed in; output captured."""
    return subprocess.run(
        [sys.executable, "-m", "forestgames.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=ENV,
        cwd=ROOT,
        timeout=timeout,
    )


def test_console_script_is_declared():
    """pyproject declares the forestgames console script as forestgames.cli:main."""
    assert 'forestgames = "forestgames.cli:main"' in (ROOT / "pyproject.toml").read_text()


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
    assert csv.read_text() == expected.to_csv()
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
        if out.exists() and len(out.read_text().splitlines()) >= 3:
            break
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()
    before = len(out.read_text().splitlines())
    assert 3 <= before < 40, "the run should have been interrupted part-way"
    again = run_cli(*args)
    assert again.returncode == 2 and "exists" in again.stderr
    done = run_cli(*args, "--resume")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
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
    assert "seat 1 plays 1:plant" in out and "game over: scores" in out
    assert out.count("seat 0> ") == len(mine) + 5  # one prompt per line typed
    saved = fg.GameRecord.from_json(save.read_text())
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
    partial = fg.GameRecord.from_json(save.read_text())
    assert 1 <= len(partial.moves) <= 3 and partial.replay()
    ended = run_cli("play", "bosk", "--seed", "1", stdin="")
    assert ended.returncode == 1 and "stopped (input ended)" in ended.stdout
    bad = run_cli("play", "bosk", "--seat", "5")
    assert bad.returncode == 2 and "not a seat" in bad.stderr


def test_replay_rejects_a_bad_record(tmp_path):
    """replay of a file that is not a game record fails with the library's message."""
    path = tmp_path / "bad.json"
    path.write_text('{"game": "bosk"}')
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
        text=True,
        env=env,
    )
    try:
        address = head.stdout.readline().strip()
        assert address, "the Ray head did not start"
        args = ["simulate", "bosk", "-n", "4", "--agents", "greedy,random", "--seed", "6"]
        on_ray = subprocess.run(
            [sys.executable, "-m", "forestgames.cli", *args, "--ray", address],
            capture_output=True, text=True, env=env, cwd=ROOT, timeout=300,
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
    path.write_text(fg.play(fg.make("bosk"), ["random"], seed=1).to_json())
    done = run_cli("replay", str(path), stdin="\n".join(NOT_NUMBERS[::2]) + "\nq\n")
    assert done.returncode == 0 and done.stdout.count("unknown command") == 2


def test_an_option_value_that_cannot_be_read_is_a_usage_error():
    """-o KEY=VALUE with JSON nested too deep (RecursionError) or a number too long is a
    usage error naming the option."""
    for value in ("[" * 100_000, "9" * 5000):
        done = run_cli("simulate", "bosk", "-n", "1", "--no-progress", "-o", f"terrain={value}")
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert "terrain" in done.stderr


def test_bench_refuses_endless_or_negative_seconds():
    """bench --seconds inf (it would never end), nan or a negative time is a usage error."""
    for seconds in ("inf", "nan", "-1"):
        done = run_cli("bench", "bosk", "--seconds", seconds)
        assert done.returncode == 2 and "--seconds" in done.stderr


def test_play_checks_the_save_path_before_the_game(tmp_path):
    """play --save into a folder that does not exist fails before any move is asked for."""
    done = run_cli("play", "bosk", "--save", str(tmp_path / "no" / "game.json"), stdin="1\n")
    assert done.returncode == 2 and "no directory" in done.stderr and done.stdout == ""
