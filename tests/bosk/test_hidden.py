"""Bosk has no hidden information: every seat sees everything, determinize changes nothing."""

import json

import pytest

import forestgames as fg
from tests.strategies import random_game


@pytest.mark.parametrize("players", [2, 4])
def test_every_seat_sees_the_whole_position(players):
    """observation(p) is the saved state plus the observer; determinize returns the state."""
    game = fg.make("bosk", num_players=players)
    for step, (state, _) in enumerate(random_game(game, 3)):
        if step % 23:
            continue
        for seat in range(players):
            seen = state.observation(seat)
            assert seen == {"observer": seat, **state.to_dict()}
            json.dumps(seen)
            assert state.determinize(seat, 9) is state
