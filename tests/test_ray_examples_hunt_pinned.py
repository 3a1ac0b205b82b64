"""Simulation on Ray against local runs; the examples, the benchmarks' helpers and
``forestgames bench`` against what they say."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import forestgames as fg
from forestgames.core import Option
from tests.test_fake_game import BuzzGame

RAY_LIMIT = pytest.mark.timeout(300)
"""A Ray test gets 5 minutes (they take seconds), as tests/test_sim.py's do."""


@pytest.fixture
def ray_one_cpu():
    """A local Ray of one CPU, no dashboard, new for the test and shut down after it."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, logging_level="warning")
    yield ray
    ray.shutdown()


@attrs.frozen(slots=False)
class _NoTurns(BuzzGame, name="no_turns_ray"):
    """Buzz that may be played to a target of 0: over before its first move."""

    OPTIONS = (
        BuzzGame.OPTIONS[0],
        Option.integer("target", 10, 0, 1000, "the counter value that ends the game"),
        BuzzGame.OPTIONS[2],
    )

    def _max_moves(self) -> int:
        return max(1, 2 * self.target)


class _FailsAtOnce:
    """An agent whose every choice raises LookupError."""

    name = "fails"

    def choose(self, state: Any) -> Any:
        raise LookupError("no move for you")


def _raised(**run: Any) -> BaseException:
    """The exception ``fg.simulate(**run)`` raises."""
    with pytest.raises(Exception) as caught:
        fg.simulate(progress=False, **run)
    return caught.value


@RAY_LIMIT
def test_an_error_in_a_ray_task_is_raised_as_itself_and_ray_plays_on(ray_one_cpu):
    """An error raised in a Ray task comes back as itself, with a local run's message and
    notes (it came as Ray's wrapper class, whose text is the worker's traceback: the command
    line printed that traceback, colour codes and all, as its error line); Ray plays on."""
    bosk = fg.make("bosk", num_players=2)
    for run in (
        dict(game=_NoTurns.create(target=0), agents=["random"], games=1, seed=1),
        dict(game=bosk, agents=[_FailsAtOnce()], games=1, seed=1),
    ):
        local, on_ray = _raised(**run), _raised(**run, backend="ray")
        assert type(on_ray) is type(local) and str(on_ray) == str(local)
        assert getattr(on_ray, "__notes__", None) == getattr(local, "__notes__", None)
        assert "game 0 of the run" in str(on_ray) + "".join(getattr(on_ray, "__notes__", []))
    args = dict(game=bosk, agents=["random"], games=2, seed=5, progress=False)
    assert fg.simulate(**args, backend="ray").rows == fg.simulate(**args).rows


@pytest.mark.parametrize("address", [123, b"auto", ["auto"], 1.5])
@pytest.mark.parametrize("run", [fg.simulate, fg.tournament])
def test_a_ray_address_that_is_no_str_is_a_config_error(run, address):
    """An address of another type than str is a ConfigError naming it, before Ray starts
    (Ray raised TypeError: "argument of type 'int' is not iterable")."""
    with pytest.raises(fg.ConfigError, match=r"address must be a Ray cluster's address as a"):
        run("bosk", ["random"], 1, seed=1, backend="ray", address=address, progress=False)
