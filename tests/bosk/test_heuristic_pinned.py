"""Bosk's position value (docs/simulation.md, "Game heuristics"), which a mutation audit of
``forestgames/bosk/heuristic.py`` found pinned only through MCTS's win rates: each seat's
points as if the next scoring happened now."""

from __future__ import annotations

import attrs
import numpy as np

import forestgames as fg
from forestgames.bosk import PlantTree
from forestgames.bosk.heuristic import position_value
from tests.bosk.helpers import autumn_turn
from tests.strategies import final_state


def test_in_spring_the_value_is_the_summer_score_of_the_board_as_it_stands():
    """2 players: seat 0's tree at (2, 3) is alone in row 2 and column 3 (sole, 3 each):
    [6, 0]. Seat 1's 4 at (2, 5) then leads row 2 over seat 0's 1 (2 and 1) and is alone
    in column 5 (3): seat 0 1 + 3 = 4, seat 1 2 + 3 = 5. Nothing is scored yet."""
    state = fg.make("bosk", num_players=2).new_game(seed=0, first_player=0)
    state = state.apply(PlantTree(0, 1, (2, 3)))
    assert position_value(state).tolist() == [6.0, 0.0]
    state = state.apply(PlantTree(1, 4, (2, 5)))
    assert position_value(state).tolist() == [4.0, 5.0]
    assert state.scores == (0, 0)


def test_after_spring_the_value_adds_the_winter_score_of_the_leaves_as_they_lie():
    """2 players, summer points [5, 2] already scored: on the default map's terrain type 3
    (column 0, rows 0-6, and (3, 1)) seat 0 shows two leaves, (0, 0) and (1, 0), and seat 1
    one, (2, 0): first 5, second 3, so [5 + 5, 2 + 3] = [10, 5]."""
    state = autumn_turn(2, leaves={(0, 0): (0,), (1, 0): (0,), (2, 0): (1,)})
    state = attrs.evolve(state, summer=(5, 2))
    assert position_value(state).tolist() == [10.0, 5.0]


def test_once_the_game_is_over_the_value_is_the_final_score():
    """A finished game (random legal moves, seeded) is valued at its final scores."""
    state = final_state(fg.make("bosk", num_players=3), 4)
    value = position_value(state)
    assert value.dtype == np.float64
    assert value.tolist() == list(state.scores)
