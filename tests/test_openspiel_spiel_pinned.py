"""Behaviours of the OpenSpiel game layer (forestgames.rl.openspiel._spiel) that a mutation
audit found unpinned: the views a game declares, resampling's draw."""

from __future__ import annotations

from typing import Any

import pytest

import forestgames as fg
from forestgames.rl import openspiel as fos

pyspiel = pytest.importorskip("pyspiel")


def _dealt(name: str, **options: Any) -> Any:
    """A state of game ``name`` past its first deal (every chance node's first outcome)."""
    state = fos.load_game(name, **options).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_every_game_declares_both_strings_and_both_tensors(name):
    """docs/openspiel.md gives every game observation and information-state strings and
    tensors: get_type() says all four are provided (OpenSpiel's algorithms and
    rl_environment read these flags before asking for the views)."""
    kind = fos.load_game(name).get_type()
    assert kind.provides_observation_string
    assert kind.provides_observation_tensor
    assert kind.provides_information_state_string
    assert kind.provides_information_state_tensor


def test_a_sampler_draw_no_float_holds_is_a_config_error():
    """A sampler returning an int too large for a float (10**400, -10**400) is not a number
    in [0, 1): the library's ConfigError, not the OverflowError float() raises."""
    state = _dealt("bonsai", num_players=2)
    for huge in (10**400, -(10**400)):
        with pytest.raises(fg.ConfigError, match=r"probability_sampler\(\) must return"):
            state.resample_from_infostate(0, lambda huge=huge: huge)


def test_resampling_keeps_the_whole_draw():
    """The same draw gives the same world (a seeded sampler repeats), and draws a billionth
    apart give different worlds: the seed keeps the draw's precision, so the many draws an
    ISMCTS search makes are not folded onto a few seeds (or one)."""
    state = _dealt("bonsai", num_players=2)

    def world(draw: float) -> Any:
        return state.resample_from_infostate(1, lambda: draw).forestgames_state

    assert world(0.5) == world(0.5)
    for draw in (0.0, 0.25, 0.5, 0.75):
        assert world(draw) != world(draw + 1e-9), draw
