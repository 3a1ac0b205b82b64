"""Hidden information: what a seat is shown, and what its agents choose, depends on what
that seat sees alone (``state.observation(seat)``), for the cases the other hidden-card tests
leave out."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

import forestgames as fg
from forestgames.agents.heuristics import position_value
from tests.strategies import random_game


def _state_at(game: Any, seed: int, step: int) -> Any:
    """The position after ``step`` moves of random game ``seed``."""
    return next(itertools.islice(random_game(game, seed), step, None))[0]


def test_mcts_in_a_simultaneous_guardian_phase_chooses_on_the_seats_view():
    """MCTS's choice in a simultaneous Guardian phase is the same in a determinization for
    its seat: the position value its rewards are centred on is the seat's view's, not the
    real state's (which counts the other Spirits' hidden reveals)."""
    game = fg.make("living_forest", guardian_phase="simultaneous")
    state = _state_at(game, 5, 48)
    seat = state.players_to_act[0]
    assert state.guardian_start is not None and seat == 0
    other = state.determinize(seat, 1)
    assert not np.array_equal(position_value(other), position_value(state))  # what differs
    chosen = fg.MCTSAgent(20, seed=0).choose(state)
    assert fg.MCTSAgent(20, seed=0).choose(other) == chosen
