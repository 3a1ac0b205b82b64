"""Behaviours of the OpenSpiel game layer (forestgames.rl.openspiel._spiel and _params) that
a mutation audit found unpinned: the views a game declares, resampling's draw, parameters
given as text."""

from __future__ import annotations

from typing import Any

import pytest

import forestgames as fg
from forestgames.rl import openspiel as fos
from forestgames.rl.openspiel import _params

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


def test_a_negative_sampler_draw_is_a_config_error():
    """A draw below 0 (-0.5, the least negative double) is outside [0, 1): ConfigError, as
    1.0 is; 0.0 is taken."""
    state = _dealt("bonsai", num_players=2)
    for draw in (-0.5, -5e-324):
        with pytest.raises(fg.ConfigError, match=r"probability_sampler\(\) must return"):
            state.resample_from_infostate(0, lambda draw=draw: draw)
    assert state.resample_from_infostate(0, lambda: 0.0).information_state_string(0) == (
        state.information_state_string(0)
    )


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


def test_parameters_given_as_text_read_bools_and_ints():
    """A bool parameter given as text is "true" or "false" in any case, spaces around
    allowed, an int parameter its digits (a game built from a dict of text values, as
    ForestGamesGame takes them); other text is a ConfigError naming the kind."""
    options, _ = _params.options_from_parameters(
        "bosk", {"squirrel_exactly_three": "TRUE", "squirrel_passes_squirrels": " false "}
    )
    assert options == {
        "num_players": 2,
        "squirrel_exactly_three": True,
        "squirrel_passes_squirrels": False,
    }
    options, _ = _params.options_from_parameters("living_forest", {"turn_limit": "20"})
    assert options == {"num_players": 2, "turn_limit": 20}
    from forestgames.rl.openspiel._spiel import GAME_CLASSES

    game = GAME_CLASSES["bosk"]({"squirrel_exactly_three": "true", "ties_include_start": "False"})
    assert game.table.game.options()["squirrel_exactly_three"] is True
    assert game.table.game.options()["ties_include_start"] is False
    with pytest.raises(fg.ConfigError, match="not a bool"):
        _params.options_from_parameters("bosk", {"squirrel_exactly_three": "yes"})


def test_a_refused_saved_state_says_what_saved_it_and_what_refuses_it():
    """A state loaded in another game names both games with their options (JSON) and
    utilities; text OpenSpiel cannot read names the game it is no state of; what is not
    text at all (None, 5) is refused as such before OpenSpiel sees it."""
    bosk4 = fos.load_game("bosk", num_players=4)
    state = bosk4.new_initial_state()
    state.apply_action(3)
    text = state.serialize()
    saved = r'bosk \{"num_players":4,[^}]*\} \(utility \'win\'\)'
    with pytest.raises(fg.StateError, match=rf'{saved} cannot load in bosk \{{"num_players":2,'):
        fos.load_game("bosk", num_players=2).deserialize_state(text)
    with pytest.raises(fg.StateError, match=r"cannot load in bosk \{.*\} \(utility 'score'\)"):
        fos.load_game("bosk", "score", num_players=4).deserialize_state(text)
    with pytest.raises(fg.StateError, match=f"^not a state saved by {saved}: "):
        bosk4.deserialize_state("garbage")
    for junk in (None, 5):
        with pytest.raises(fg.StateError, match=f"^a saved OpenSpiel state is text, not {junk}$"):
            bosk4.deserialize_state(junk)
