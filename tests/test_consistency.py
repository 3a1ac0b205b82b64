"""The four games present the same surface in the same way: a user who learned one game
meets the same names, keys and shapes in the others."""

from __future__ import annotations

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
        head = [key for key in view if key in ("observer", "game", "num_players")]
        assert head == ["observer", "game", "num_players"]


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_every_state_has_num_players(name: str) -> None:
    """``state.num_players`` (Living Forest's since 0.1) is a plain int on every game's state,
    the game's player count."""
    for players in (fg.make(name).traits.min_players, fg.make(name).traits.max_players):
        state = fg.make(name, num_players=players).new_game(seed=1)
        assert type(state.num_players) is int and state.num_players == players
