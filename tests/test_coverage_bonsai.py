"""Bonsai paths no other test reached: the refusals of a prune on a non-leaf and of a goal
other than the one offered, and cells beyond the coordinate limit."""

import pytest

import forestgames as fg
from forestgames.bonsai import ClaimGoal, Prune, RenounceGoal, tree_points
from forestgames.bonsai._tables import COORD_LIMIT, cell_of
from forestgames.bonsai.tree import Tree
from tests.bonsai.helpers import arrange, play, supply
from tests.refusals import refused

# No wood fits beside the bud: both of its free upper sides hold leaves (as in test_rules).
BLOCKED = {(0, -1): "leaf", (1, -1): "leaf", (0, -2): "flower", (1, -2): "fruit"}


def test_only_leaves_are_pruned():
    """With pruning open, a Prune on the flower, the fruit, the bud or an empty cell is
    refused as 'only a leaf of one's own tree can be pruned'."""
    state = arrange(2, trees={0: BLOCKED})
    assert Prune(0, (0, -1)) in state.legal_moves()
    for at in [(0, -2), (1, -2), (0, 0), (5, -5)]:
        refused(state, Prune(0, at), "only a leaf of one's own tree can be pruned")


def test_a_goal_not_offered_is_refused_naming_the_offered_one():
    """Meeting brown 1 (8 wood, bud included) offers brown 1 only: claiming or renouncing
    another goal is refused naming 'brown 1'."""
    trunk = {(0, -r): "wood" for r in range(1, 7)}
    state = play(arrange(2, trees={0: trunk}, supplies={0: supply(wood=1)}), "0:place wood@0,-7")
    assert state.offered_goal == "brown 1"
    refused(state, ClaimGoal(0, "green", 1), "the goal offered now is brown 1")
    refused(state, RenounceGoal(0, "brown", 2), "the goal offered now is brown 1")


def test_cells_beyond_the_coordinate_limit_are_state_errors():
    """tree_points and Tree (engine cells) refuse a cell past COORD_LIMIT, and Tree a pot
    cell, with StateError rather than an IndexError from the cell tables."""
    far = (COORD_LIMIT + 1, 0)
    with pytest.raises(fg.StateError, match="too far from the pot"):
        tree_points({far: "leaf"})
    with pytest.raises(fg.StateError, match="too far from the pot"):
        Tree({cell_of(*far): 1})
    with pytest.raises(fg.StateError, match=r"cell \(1, 0\) is on the pot"):
        Tree({cell_of(1, 0): 1})
