"""Saved states read back: a dict the rules cannot reach is refused with a StateError
naming what is wrong, never loaded to fail later (docs/index.md "Saved data and versions")."""

from __future__ import annotations

from typing import Any

import pytest

import forestgames as fg
from tests.strategies import random_game


def _first(game: Any, seed: int, found: Any) -> dict[str, Any]:
    """The saved form of the first state of random game ``seed`` whose saved form ``found``
    accepts."""
    for state, _ in random_game(game, seed):
        data: dict[str, Any] = state.to_dict()
        if found(data):
            return data
    raise AssertionError(f"random game {seed} has no such state")


def test_living_forest_victory_step_needs_a_passed_spirit() -> None:
    """A Living Forest victory step with no passed Spirit is refused, naming passed."""
    game = fg.make("living_forest")
    data = _first(game, 8, lambda d: d["step"] == "victory")
    game.state_from_dict(data)
    data["passed"] = []
    with pytest.raises(fg.StateError, match="passed"):
        game.state_from_dict(data)
