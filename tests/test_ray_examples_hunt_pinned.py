"""Simulation on Ray against local runs; the examples, the benchmarks' helpers and
``forestgames bench`` against what they say."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import pickle
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import attrs
import pytest

import forestgames as fg
from forestgames import cli
from tests.test_fake_game import BuzzGame, NoTurnsGame

RAY_LIMIT = pytest.mark.timeout(300)
"""A Ray test gets 5 minutes (they take seconds), as tests/test_sim.py's do."""


@pytest.fixture
def ray_one_cpu():
    """A local Ray of one CPU, no dashboard, new for the test and shut down after it."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, logging_level="warning")
    yield ray
    ray.shutdown()


class _FailsAtOnce:
    """An agent whose every choice raises LookupError."""

    name = "fails"

    def choose(self, state: Any) -> Any:
        raise LookupError("no move for you")


class _TwoArguments(Exception):
    """An error that pickles but cannot be unpickled (its constructor takes two arguments)."""

    def __init__(self, first: int, second: int) -> None:
        super().__init__(f"{first} and {second}")


class _FailsUnsendably:
    """An agent whose every choice raises an error that cannot be sent back whole."""

    def choose(self, state: Any) -> Any:
        raise _TwoArguments(1, 2)


def _raised(**run: Any) -> BaseException:
    """The exception ``fg.simulate(**run)`` raises."""
    with pytest.raises(Exception) as caught:
        fg.simulate(progress=False, **run)
    return caught.value


class _Locked:
    """A random agent holding a lock: it cannot be pickled."""

    name = "locked"

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def choose(self, state: Any) -> Any:
        return state.legal_moves()[0]


@attrs.frozen(slots=False)
class _Unsendable(BuzzGame, name="unsendable_ray"):
    """Buzz that refuses to be pickled."""

    def __reduce__(self) -> Any:
        raise TypeError("this game stays here")


@RAY_LIMIT
def test_a_ray_tasks_error_comes_as_itself_unpicklable_runs_are_refused_ray_plays_on(ray_one_cpu):
    """An error raised in a Ray task comes back as itself, with a local run's message and
    notes (it came as Ray's wrapper class, whose text is the worker's traceback: the command
    line printed that traceback, colour codes and all, as its error line); an agent or a
    game that cannot be pickled for Ray is a ConfigError naming it and saying to run it
    locally; the user's Ray is left running and plays the next run."""
    bosk = fg.make("bosk", num_players=2)
    for run in (
        dict(game=NoTurnsGame.create(target=0), agents=["random"], games=1, seed=1),
        dict(game=bosk, agents=[_FailsAtOnce()], games=1, seed=1),
    ):
        local, on_ray = _raised(**run), _raised(**run, backend="ray")
        assert type(on_ray) is type(local) and str(on_ray) == str(local)
        assert getattr(on_ray, "__notes__", None) == getattr(local, "__notes__", None)
        assert "game 0 of the run" in str(on_ray) + "".join(getattr(on_ray, "__notes__", []))
    unsendable = _raised(game=bosk, agents=[_FailsUnsendably()], games=1, seed=1, backend="ray")
    assert type(unsendable) is RuntimeError
    assert str(unsendable).endswith("_TwoArguments: 1 and 2 (raised in a worker, as an "
                                    "exception that cannot be sent back whole)")  # fmt: skip
    refusals = (
        (bosk, [_Locked()], r"agent locked cannot be pickled \(.*lock.*\), so it cannot be sent"),
        (
            _Unsendable.create(),
            ["random"],
            r"game unsendable_ray cannot be pickled \('TypeError: this game stays here'\)",
        ),
    )
    for game, agents, words in refusals:
        with pytest.raises(fg.ConfigError, match=words) as caught:
            fg.simulate(game, agents, 2, seed=1, backend="ray", progress=False)
        assert 'run it locally (backend="local", workers=1)' in str(caught.value)
    assert ray_one_cpu.is_initialized()
    args = dict(game=bosk, agents=["random"], games=2, seed=5, progress=False)
    assert fg.simulate(**args, backend="ray").rows == fg.simulate(**args).rows


@pytest.mark.parametrize("address", [123, b"auto", ["auto"], 1.5])
@pytest.mark.parametrize("run", [fg.simulate, fg.tournament])
def test_a_ray_address_that_is_no_str_is_a_config_error(run, address):
    """An address of another type than str is a ConfigError naming it, before Ray starts
    (Ray raised TypeError: "argument of type 'int' is not iterable")."""
    with pytest.raises(fg.ConfigError, match=r"address must be a Ray cluster's address as a"):
        run("bosk", ["random"], 1, seed=1, backend="ray", address=address, progress=False)


class _Tty(io.StringIO):
    """A stderr that says it is a terminal, so the progress bar draws."""

    def isatty(self) -> bool:
        return True


@RAY_LIMIT
def test_ray_rows_summary_digest_resume_and_progress_equal_a_local_runs(
    ray_one_cpu, tmp_path, monkeypatch
):
    """On Ray (workers=2 on a one-CPU Ray, progress on and off, a results file resumed) the
    rows, the summary, the table and each row's run digest equal a local run's, and the
    progress bar counts the games as locally; a tournament's table too. A Ray already
    initialised is used whatever the address (as docs/simulation.md now says)."""
    game = fg.make("boom_bokken", num_players=4)
    args = dict(game=game, agents=["greedy", "random"], seed=11, rotate=True)
    local = fg.simulate(**args, games=4, progress=False)
    shown = {}
    for progress in (True, False):
        monkeypatch.setattr(sys, "stderr", _Tty())
        result = fg.simulate(**args, games=4, progress=progress, backend="ray", workers=2)
        shown[progress] = sys.stderr.getvalue()
        assert result.rows == local.rows and result.summary() == local.summary()
        assert result.format_summary() == local.format_summary()
    # progress off draws no bar (Ray may print its own warnings there on a busy machine)
    assert "4/4" in shown[True] and "4/4" not in shown[False]
    out = tmp_path / "run.jsonl"
    fg.simulate(**args, games=2, progress=False, out=out)
    resumed = fg.simulate(**args, games=4, progress=False, out=out, resume=True, backend="ray")
    assert resumed.rows == local.rows
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(written, key=lambda row: row["index"]) == [r.to_dict() for r in local.rows]
    assert {row["run"] for row in written} == {local.rows[0].run}
    elsewhere = fg.simulate(**args, games=4, progress=False, backend="ray", address="127.0.0.1:1")
    assert elsewhere.rows == local.rows  # the Ray already initialised, whatever address says
    rated = dict(game=game, agents=["random", "greedy"], games=2, seed=3, progress=False)
    on_ray = fg.tournament(**rated, backend="ray", workers=2)
    assert on_ray.format_table() == fg.tournament(**rated).format_table()


def test_ray_missing_is_a_config_error_saying_how_to_install_it(monkeypatch):
    """backend="ray" without Ray importable is a ConfigError saying how to install it, for
    simulate and tournament alike (Ray made unimportable here)."""
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    for run in (fg.simulate, fg.tournament):
        with pytest.raises(fg.ConfigError, match=r'backend="ray" needs Ray: pip install "forestg'):
            run("bosk", ["random", "greedy"], 1, seed=1, backend="ray", progress=False)


class _Stop(Exception):
    """Raised by the fake Ray's ``init`` once it has seen its arguments."""


@pytest.mark.parametrize(("workers", "games", "cpus"), [(1, 4, None), (3, 4, 3), (3, 2, 2)])
def test_workers_on_ray_are_the_cpus_of_its_local_ray_and_1_lets_ray_take_all(
    monkeypatch, workers, games, cpus
):
    """On a local Ray started for the run, workers=W > 1 asks Ray for W CPUs (at most one a
    game), and workers=1, the default, for every CPU (Ray's num_cpus=None), as the docs and
    the command's help now say (they said the workers are the Ray's CPUs, default 1)."""
    seen: list[dict[str, Any]] = []

    class FakeRay:
        cloudpickle = pickle  # what the run is checked with before Ray starts

        @staticmethod
        def is_initialized() -> bool:
            return False

        @staticmethod
        def init(**options: Any) -> None:
            seen.append(options)
            raise _Stop

    monkeypatch.setitem(sys.modules, "ray", FakeRay)
    with pytest.raises(_Stop):
        fg.simulate("bosk", ["random"], games, seed=1, workers=workers, backend="ray")
    assert seen[0]["num_cpus"] == cpus


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_the_workers_help_says_1_lets_a_local_ray_take_every_cpu(capsys, command):
    """--workers' help says what workers are with --ray: the local Ray's CPUs, every CPU
    with the default 1 (tournament's said "Ray CPUs (default 1)", simulate's nothing)."""
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    words = " ".join(capsys.readouterr().out.split())
    assert (
        "with --ray and no ADDRESS the CPUs of the local Ray (default 1; on Ray: every CPU)"
        in words
    )


def test_bench_of_a_game_with_no_moves_is_one_error_line(capsys, monkeypatch):
    """bench of a registered game whose games are over at their start exits 2 with one error
    line naming it (it divided by zero: ZeroDivisionError and a traceback)."""
    from forestgames import core

    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    core.register_game("no_turns", lambda **options: NoTurnsGame.create(target=0, **options))
    assert cli.main(["bench", "no_turns", "--seconds", "0"]) == 2
    error = capsys.readouterr().err
    assert error == (
        "forestgames: error: game no_turns: its 3 random games were each over before "
        "their first move, so there is no move to time\n"
    )


@pytest.mark.timeout(30)
def test_bench_of_a_game_that_never_ends_stops_each_game_at_the_move_cap(capsys, monkeypatch):
    """bench stops a random game at simulate's default move cap (4 x traits.max_moves), so a
    registered game that never ends is measured in its --seconds (bench ran for ever)."""
    from forestgames import core

    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    core.register_game("buzz", lambda **options: BuzzGame.create(endless=True, **options))
    assert cli.main(["bench", "buzz", "--seconds", "0"]) == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[:3] == ["buzz", "2", "3"]  # a game a round, each of 4 x 20 moves


ROOT = Path(__file__).resolve().parents[1]


NEEDS_MATPLOTLIB = pytest.mark.skipif(
    importlib.util.find_spec("matplotlib") is None, reason="the example plots with matplotlib"
)


def run_python(*argv: str) -> subprocess.CompletedProcess[str]:
    """``python ARGV...`` run from the repository (its output captured as UTF-8 text)."""
    return subprocess.run(
        [sys.executable, *argv],
        capture_output=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


@pytest.mark.parametrize(
    ("name", "flags", "words"),
    [
        ("compare_strategies.py", ["--agents", "random,greedy,bogus"], "unknown agent 'bogus'"),
        ("compare_strategies.py", ["--agents", "random"], "give two or more agents to compare"),
        ("compare_strategies.py", ["--agents", "greedy,random,greedy"], "name each agent once"),
        ("compare_strategies.py", ["--agents", "mcts:n=3,mcts:3"], "once, not mcts:3, mcts:3"),
        ("compare_strategies.py", ["--games", "0"], "--games must be at least 1, not 0"),
        ("first_player_advantage.py", ["--games", "0"], "argument --games: must be at least 1"),
        ("first_player_advantage.py", ["--players", "2,x"], "not player counts such as 2,3,4"),
        pytest.param(
            "first_player_advantage.py",
            ["--players", "2,9", "--games", "1000000"],
            "Bosk is played by 2 to 4 players, not 9",
            marks=NEEDS_MATPLOTLIB,  # checked first, before the player counts
        ),
        ("replay_page.py", ["--players", "9"], "Bosk is played by 2 to 4 players, not 9"),
        ("replay_page.py", ["--out", "no/such/folder/x.html"], "--out: no folder to write"),
        ("replay_page.py", ["--out", "game.json"], "game.json is where the record goes"),
        ("replay_page.py", ["--out", "game.JSON"], "game.JSON is where the record goes"),
        ("rl_policy_gradient.py", ["--eval", "0"], "--eval must be >= 1, not 0"),
        ("rl_policy_gradient.py", ["--seed", "1844674407371"], "<= 1844674407370, not 18446"),
        ("rl_policy_gradient.py", ["--rate", "nan"], "--rate must be a finite number, not nan"),
    ],
)
def test_an_examples_bad_flag_is_its_usage_and_one_error_line(name, flags, words):
    """An example given a bad flag exits 2 with its usage and one error line, as argparse
    does (a bad agent or player count was a traceback of the library's ConfigError; --games
    0, --eval 0 a ZeroDivisionError, --players 2,x a ValueError, a missing folder for --out
    a FileNotFoundError after the game, --players 2,9 was refused after every 2-player game
    (a million here: the 120 s timeout); replay_page --out game.json saved the record over
    the page, game.JSON too where file names ignore case; compare_strategies --agents
    greedy,random,greedy rated greedy against itself, both seats pooled as "the first
    agent's" win rate, and its --games 0 printed nan%; rl_policy_gradient --seed past the
    last whose training seeds are below 2**64 was a ConfigError after the first evaluation,
    and its --rate nan a numpy ValueError)."""
    done = run_python(str(ROOT / "examples" / name), *flags)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("usage: ") and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith(f"{name}: error: ")
    assert words in done.stderr.splitlines()[-1]


@pytest.mark.parametrize(
    ("module", "flags", "words"),
    [
        ("bench_sim", ["--rounds", "0"], "--rounds must be at least 1, not 0"),
        ("bench_mcts", ["--rounds", "0"], "--rounds must be at least 1, not 0"),
        ("bench_mcts", ["--instructions"], "--instructions counts with --before only"),
        ("strength", ["--games", "0"], "--games must be at least 1, not 0"),
        ("strength", ["--workers", "0"], "--workers must be at least 1, not 0"),
        ("bench_sim", ["--games", "-1"], "--games must be at least 1, not -1"),
        ("openspiel_vs_mcts", ["--games", "0"], "--games must be at least 1, not 0"),
        ("openspiel_vs_mcts", ["--workers", "0"], "--workers must be at least 1, not 0"),
        ("bench_sim", ["--agent", "bogus"], "--agent: unknown agent 'bogus'"),
        ("strength", ["--mcts", "bogus"], "--mcts: unknown agent 'bogus'"),
        ("strength", ["--workers", "5000"], "--workers must be at most 4096, not 5000"),
        ("openspiel_vs_mcts", ["--seconds", "-1"], "--seconds must be a positive number of s"),
        ("openspiel_vs_mcts", ["--seconds", "inf"], "--seconds must be a positive number of s"),
    ],
)
def test_a_benchmarks_bad_flag_is_its_usage_and_one_error_line(module, flags, words):
    """A benchmark's command line refuses a count that times nothing, and a flag it would
    ignore, with its usage and one error line, status 2 (bench_sim --rounds 0 printed inf
    and nan figures, bench_mcts's divided by zero, strength --games 0 printed nan% rows,
    --instructions without --before was ignored, openspiel_vs_mcts --games 0 divided by
    zero and its --workers 0 raised ValueError; bench_sim --games -1 and strength
    --workers 0 were tracebacks of the library's ConfigError, as were bench_sim --agent and
    strength --mcts given an unknown agent, after the warm-up game or the table's header, and
    strength --workers 5000 after the header; openspiel_vs_mcts --seconds -1 ran silently)."""
    done = run_python("-m", f"benchmarks.{module}", *flags)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("usage: ") and done.stdout == ""
    assert done.stderr.splitlines()[-1].startswith(f"{module}.py: error: {words}")


def test_compare_strategies_names_agents_as_their_rows_do():
    """compare_strategies takes any spelling of a spec (RANDOM, mcts:n=2) and prints the
    agents by their names (it looked the spec's text up among the names: StopIteration)."""
    script = str(ROOT / "examples" / "compare_strategies.py")
    done = run_python(script, "--agents", "RANDOM,mcts:n=2", "--games", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].split()[:2] == ["random", "mcts:2"]


def test_an_agent_ray_cannot_take_is_refused_before_ray_starts(monkeypatch):
    """An agent or game that cannot be pickled for Ray is a ConfigError before a Ray is
    started for the run (it was refused once Ray had started, seconds later)."""
    ray = pytest.importorskip("ray")

    def no_start(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("Ray was started for a run it cannot take")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", no_start)
    for game, agents in ((fg.make("bosk"), [_Locked()]), (_Unsendable.create(), ["random"])):
        with pytest.raises(fg.ConfigError, match="cannot be pickled"):
            fg.simulate(game, agents, 2, seed=1, backend="ray", progress=False)


def test_a_ray_run_with_no_game_left_starts_no_ray(monkeypatch, tmp_path):
    """A Ray run with no game to play (games=0, or a finished results file resumed) starts
    no Ray (it started one, seconds, for nothing) and returns the rows it has."""
    ray = pytest.importorskip("ray")

    def no_start(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("Ray was started for no game")

    out = tmp_path / "run.jsonl"
    done = fg.simulate("bosk", ["random"], 2, seed=1, progress=False, out=out)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", no_start)
    assert fg.simulate("bosk", ["random"], 0, seed=1, backend="ray", progress=False).rows == ()
    again = fg.simulate("bosk", ["random"], 2, seed=1, backend="ray", progress=False, out=out,
                        resume=True)  # fmt: skip
    assert again.rows == done.rows


def test_bench_refuses_a_game_named_twice(capsys):
    """bench bosk bonsai bosk is one error line, status 2, before any output (it measured
    Bosk twice, the second warm-up timing no build, as its tables were built)."""
    assert cli.main(["bench", "bosk", "bonsai", "bosk", "--seconds", "0"]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    assert printed.err == "forestgames: error: bench: 'bosk' is named twice: name each game once\n"


@attrs.frozen(slots=False)
class _NobodyActs(BuzzGame, name="nobody_acts_ray"):
    """Buzz whose live states have nobody to act (hooks that disagree)."""

    def _players_to_act(self, state: Any) -> tuple[int, ...]:
        return ()


@attrs.frozen(slots=False)
class _NoAdds(BuzzGame, name="no_adds_ray"):
    """Buzz whose seat to move has no move (hooks that disagree)."""

    def _players_to_act(self, state: Any) -> tuple[int, ...]:
        return () if state.is_terminal else (state.turn,)

    def _legal_moves(self, state: Any, player: int) -> tuple[Any, ...]:
        return ()


@pytest.mark.parametrize(
    ("game", "words"),
    [
        (_NobodyActs, "the game is not over, but its players_to_act is empty"),
        (_NoAdds, "the game is not over, but seat [01], in players_to_act, has no legal move"),
    ],
)
def test_bench_of_a_game_whose_hooks_disagree_is_one_error_line(capsys, monkeypatch, game, words):
    """bench of a registered game with a live state where nobody acts, or where the seat to
    act has no move, exits 2 with the StateError simulate gives (an IndexError escaped)."""
    from forestgames import core

    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    core.register_game(game.name, game.create)
    assert cli.main(["bench", game.name, "--seconds", "0"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("forestgames: error: ") and error.count("\n") == 1
    assert re.search(words, error), error
