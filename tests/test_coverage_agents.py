"""Public error paths of the agents' heuristics and of the tournament model that no other
test reached."""

import pytest

import forestgames as fg
from forestgames.agents.heuristics import evaluate_moves
from forestgames.sim import GameRow
from forestgames.tournament import pairwise_results


class _PlainGame:
    """A user's own game: a name and seats, none of the engine's hooks."""

    name = "plain"
    num_players = 2


class _PlainState:
    game = _PlainGame()


def test_pairwise_results_refuses_an_agent_not_named():
    """A row whose agents are not all in ``names`` is a ConfigError naming the stranger."""
    row = GameRow(0, 1, 0, ("a", "z"), (5, 9), (1,), 10, False, "x")
    with pytest.raises(fg.ConfigError, match=r"game 0 has agents \['z'\] not in names"):
        pairwise_results((row,), ("a", "b"))


def test_evaluate_moves_refuses_moves_that_are_not_a_sequence():
    """For a game without its own move check, a string or a set of moves is an
    IllegalMoveError, not a TypeError from the evaluator."""
    for moves in ("0:plant 1@0,0", {1, 2}, 3):
        with pytest.raises(fg.IllegalMoveError, match="moves must be a sequence of moves"):
            evaluate_moves(_PlainState(), moves)
