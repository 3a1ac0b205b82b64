"""Error messages from a user's side: a misspelt name gets the close one suggested, a
wrong kind of input is named with the way to the right one."""

from __future__ import annotations

import pytest

import forestgames as fg
from forestgames.agents import make_agent


@pytest.mark.parametrize(
    ("name", "close"),
    [
        ("Bosk", "bosk"),
        ("living-forest", "living_forest"),
        ("bosc", "bosk"),
        ("Boom Bokken", "boom_bokken"),
    ],
)
def test_unknown_game_suggests_the_close_name(name: str, close: str) -> None:
    """make() of a misspelt game name suggests the registered name closest to it."""
    with pytest.raises(
        fg.ConfigError, match=rf"unknown game '{name}' \(did you mean '{close}'\?\)"
    ):
        fg.make(name)


def test_unknown_game_far_from_any_suggests_nothing() -> None:
    """A name close to no game gets the list of games, no guess."""
    with pytest.raises(fg.ConfigError) as error:
        fg.make("chess")
    assert "did you mean" not in str(error.value) and "known games: bosk" in str(error.value)


@pytest.mark.parametrize("game", fg.GAME_NAMES)
@pytest.mark.parametrize("typo", ["num_player", "players", "Num_Players"])
def test_misspelt_option_suggests_the_option(game: str, typo: str) -> None:
    """An option name close to a real one (every game) is answered with that option's name."""
    with pytest.raises(fg.ConfigError, match=rf"'{typo}' \(did you mean 'num_players'\?\); known"):
        fg.make(game, **{typo: 3})


def test_env_keyword_typo_suggests_the_argument() -> None:
    """An RL env's misspelt keyword is matched against the game's options and the env's own
    arguments alike."""
    rl = pytest.importorskip("forestgames.rl")
    pytest.importorskip("gymnasium")
    with pytest.raises(fg.ConfigError, match=r"'oponents' \(did you mean 'opponents'\?\)"):
        rl.gym_env("bosk", oponents="random")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcst", r"unknown agent 'mcst' \(did you mean 'mcts'\?\)"),
        ("mcts:iterations=50", r"'iterations' is not a setting \(did you mean n\?\)"),
        ("mcts:time_per_move=1", r"'time_per_move' is not a setting \(did you mean t\?\)"),
        ("mcts:n=5:n=6", r"agent 'mcts:n=5:n=6': n is given twice"),
    ],
)
def test_agent_spec_mistakes_are_named(spec: str, message: str) -> None:
    """A misspelt agent kind or MCTS setting suggests the right one; a repeated key says so."""
    with pytest.raises(fg.ConfigError, match=message):
        make_agent(spec)
