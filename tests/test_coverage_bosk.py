"""Bosk paths no other test reached: the squirrel's and a chosen tree's refusals, the
chosen tree property, and bad input to the plain scorer and the lockstep engine."""

import numpy as np
import pytest

import forestgames as fg
from forestgames.bosk import SQUIRREL, ChooseTile, ChooseTree, PlaceSquirrel
from forestgames.bosk.scoring import plain_board_scores
from tests.bosk.helpers import autumn_turn
from tests.refusals import refused


def squirrel_step(**options):
    """Seat 0's squirrel turn from its value-1 tree at (3, 3), wind N, seat 1's squirrel on
    (2, 3)."""
    state = autumn_turn(trees={(3, 3): (0, 1)}, squirrels={1: (2, 3)}, **options)
    return state.apply(ChooseTree(0, (3, 3))).apply(ChooseTile(0, SQUIRREL))


def test_squirrel_reach_and_refusals():
    """From intersection (3, 3) with wind N the squirrel stops 1 step on (3, 3)/(3, 4),
    2 steps on row 2 cols 2..5, 3 steps on row 1 cols 1..6 (worked out by hand from the
    base squares and the three downwind neighbours), never on seat 1's squirrel at
    (2, 3); each other square is refused with the rule it breaks."""
    state = squirrel_step()
    reach = {(3, 3), (3, 4), (2, 2), (2, 4), (2, 5)} | {(1, c) for c in range(1, 7)}
    assert {m.at for m in state.legal_moves()} == reach
    refused(state, PlaceSquirrel(0, (8, 8)), r"squares are \(0\.\.7, 0\.\.7\)")
    refused(state, PlaceSquirrel(0, (-1, 0)), r"squares are \(0\.\.7, 0\.\.7\)")
    refused(state, PlaceSquirrel(0, (2, 3)), r"square \(2, 3\) holds a squirrel")
    refused(state, PlaceSquirrel(0, (0, 3)), r"moves 1 to 3 steps downwind \(N\)")
    refused(state, PlaceSquirrel(0, (4, 3)), r"moves 1 to 3 steps downwind \(N\)")


def test_squirrel_exactly_three_refuses_shorter_steps():
    """With squirrel_exactly_three the squirrel stops only on row 1 (3 steps north), and a
    1-step square is refused naming 'exactly 3'."""
    state = squirrel_step(squirrel_exactly_three=True)
    assert {m.at for m in state.legal_moves()} == {(1, c) for c in range(1, 7)}
    refused(state, PlaceSquirrel(0, (3, 3)), "moves exactly 3 steps downwind")


def test_choosing_a_tree_off_the_intersections_is_refused():
    """ChooseTree at (7, 0) on the 2-player board (intersections 0..6) names the grid."""
    state = autumn_turn(trees={(3, 3): (0, 1)})
    refused(state, ChooseTree(0, (7, 0)), r"trees stand on intersections \(0\.\.6, 0\.\.6\)")


def test_chosen_tree_is_none_until_a_tree_is_chosen():
    """state.chosen_tree is None in the tree step and the chosen intersection after it."""
    state = autumn_turn(trees={(3, 3): (0, 1)})
    assert state.chosen_tree is None
    assert state.apply(ChooseTree(0, (3, 3))).chosen_tree == (3, 3)


def test_plain_board_scores_refuses_a_top_of_no_seat():
    """A top of seat 5 in a 2-player board is a StateError naming the square."""
    owner, value = np.full((1, 1), -1), np.zeros((1, 1), dtype=int)
    with pytest.raises(fg.StateError, match=r"top\[0, 0\] = 5"):
        plain_board_scores(owner, value, [[5]], [[0]], 2)


def test_vector_step_refuses_actions_that_are_not_an_array():
    """VectorBosk.step with ragged actions raises IllegalMoveError, not numpy's ValueError."""
    vec = fg.bosk.VectorBosk(num_players=2, batch=2, seed=0)
    with pytest.raises(fg.IllegalMoveError, match="actions must be 2 ints"):
        vec.step([[1], [1, 2]])


def test_vector_play_refuses_misshapen_policies_and_streams():
    """VectorBosk.play checks the shape of its policies and its stream seeds (ConfigError)."""
    vec = fg.bosk.VectorBosk(num_players=2, batch=3, seed=0)
    with pytest.raises(fg.ConfigError, match=r"policies must be one per seat"):
        vec.play(["random"] * 3)
    with pytest.raises(fg.ConfigError, match=r"streams must be \(3, 2\) seeds"):
        vec.play("random", streams=[[1, 2]] * 2)
