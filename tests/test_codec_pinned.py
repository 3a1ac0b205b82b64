"""The codec base's safety net (``forestgames/_codec.py``), which a mutation audit found
unpinned: the observation schema stops every malformed dict the fuzzers found before the
tensor builder runs, so these tests make the builder itself fail."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import forestgames as fg


def _observation_and_codec() -> tuple[dict[str, Any], Any]:
    """Seat 0's observation of a new 2-player Bosk game, and that game's codec."""
    state = fg.make("bosk", num_players=2).new_game(seed=1)
    return state.observation(0), state.game.codec


def test_a_builder_error_is_a_state_error_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error of Python's own raised while building a tensor from an observation dict
    becomes StateError naming its type and message (so a user's report says what broke),
    and an error whose message cannot be printed (an int of 5,000 digits) still names its
    type."""
    observation, codec = _observation_and_codec()

    def fails(fields: dict[str, Any]) -> np.ndarray:
        raise IndexError("trees")

    monkeypatch.setattr(codec, "_tensor_from_observation", fails)
    with pytest.raises(fg.StateError) as caught:
        codec.tensor_from_observation(observation)
    assert str(caught.value) == "a malformed bosk observation (IndexError: 'trees')"

    def unprintable(fields: dict[str, Any]) -> np.ndarray:
        raise ValueError(10**5000)

    monkeypatch.setattr(codec, "_tensor_from_observation", unprintable)
    with pytest.raises(fg.StateError) as caught:
        codec.tensor_from_observation(observation)
    assert str(caught.value) == (
        "a malformed bosk observation (ValueError: '(a value too long to print)')"
    )


def test_a_tensor_of_the_wrong_shape_is_a_state_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tensor built from an observation dict must have the game's observation_shape: one
    of another shape is a StateError naming the shape it had, never returned."""
    observation, codec = _observation_and_codec()
    monkeypatch.setattr(codec, "_tensor_from_observation", lambda fields: np.zeros(3, np.float32))
    with pytest.raises(fg.StateError, match=r"^a malformed bosk observation \(it makes \(3,\)\)$"):
        codec.tensor_from_observation(observation)
