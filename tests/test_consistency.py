"""The four games present the same surface in the same way: a user who learned one game
meets the same names, keys and shapes in the others."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import forestgames as fg


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_observation_names_its_game_and_player_count(name: str) -> None:
    """Every game's ``observation(seat)`` starts with ``observer``, ``game`` and
    ``num_players``, as a saved state starts with the last two."""
    game = fg.make(name)
    state = game.new_game(seed=3)
    for seat in range(game.num_players):
        view = state.observation(seat)
        assert view["observer"] == seat
        assert view["game"] == name and view["num_players"] == game.num_players
        assert list(view)[:3] == ["observer", "game", "num_players"]


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_every_state_has_num_players(name: str) -> None:
    """``state.num_players`` (Living Forest's since 0.1) is a plain int on every game's state,
    the game's player count."""
    for players in (fg.make(name).traits.min_players, fg.make(name).traits.max_players):
        state = fg.make(name, num_players=players).new_game(seed=1)
        assert type(state.num_players) is int and state.num_players == players


def _section(name: str, heading: str) -> str:
    """The text of ``## heading`` on the game's docs page, whitespace collapsed."""
    page = (Path(__file__).parent.parent / "docs" / f"{name}.md").read_text(encoding="utf-8")
    body = page.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return " ".join(body.split())


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_moves_section_says_repr_evaluates_back_and_where(name: str) -> None:
    """Each game page's Moves and notation says that ``repr(move)`` evaluates back with the
    names of ``fg.<game>``, and it does for the moves of a seeded game."""
    text = _section(name, "Moves and notation")
    assert f"`repr(move)` evaluates back to the move with the names of `fg.{name}`" in text
    assert "`str(move)` and `game.parse_move(text)` round-trip" in text
    state = fg.make(name).new_game(seed=2)
    rng = random.Random(2)
    while not state.is_terminal:
        for move in state.legal_moves():
            assert eval(repr(move), dict(vars(getattr(fg, name)))) == move
        state = state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_options_and_choices_sections_open_alike(name: str) -> None:
    """Each game page's Options section says what a bad option raises and what
    ``game.options()`` gives back, and its Choices open by saying how choices were made."""
    options = _section(name, "Options")
    assert "`fg.ConfigError` naming the option" in options
    assert "`game.options()` gives back the options that rebuild the game" in options
    assert _section(name, "Choices").startswith("Where the ")


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_state_repr_has_one_shape(name: str) -> None:
    """``repr(state)`` reads the same in every game: class, player count, the phase (where
    the game has phases) before the round or turn, then who acts."""
    state = fg.make(name).new_game(seed=1)
    shape = r"<[A-Za-z]+State \d+p (?:[a-z]+ )?(?:round|turn) \d+ to (?:move|act): "
    assert re.match(shape, repr(state)), repr(state)
