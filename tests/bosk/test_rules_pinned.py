"""Rules the mutation audit found unpinned in Bosk: each test here fails when that one
rule is broken in the engine, and passes on the rules as written (rules/bosk.md)."""

import pytest

import forestgames as fg
from forestgames.bosk import PlaceLeaf, placement_points
from tests.bosk.helpers import autumn_turn, start_path, targets

# the winter table (rules/bosk.md, Winter): first 5, second 3, sole 8, tied first 4,
# tied second 1 each
WINTER = {"first": 5, "second": 3, "sole": 8, "tied_first": 4, "tied_second": 1}


def test_placement_points_gives_a_third_place_nothing():
    """Three seats with 5, 3 and 1: the leader 5, the single runner-up 3, the third 0."""
    assert placement_points([[5, 3, 1]], **WINTER).tolist() == [5, 3, 0]


def test_placement_points_gives_a_lone_seat_the_sole_points():
    """One seat with a total, two with none: the lone seat scores sole (8), the others are
    not placed (0 each), not tied seconds."""
    assert placement_points([[5, 0, 0]], **WINTER).tolist() == [8, 0, 0]
    assert placement_points([[0, 0, 2]], **WINTER).tolist() == [0, 0, 8]


def test_a_too_costly_base_square_is_explained_by_its_cost_in_a_west_wind():
    """Wind W, tree on intersection (3, 3): its base squares are (3, 3) and (4, 3). With 2
    active leaves, (3, 3) under another seat's 2 leaves needs 3: refused for its cost, as
    a square downwind it is; (4, 3) under 1 such leaf needs 2 and stays open."""
    leaves = {(3, 3): (1, 1), (4, 3): (1,)}
    state = autumn_turn(wind="W", trees={(3, 3): (0, 1)}, leaves=leaves)
    state = start_path(state, (3, 3), 2)
    assert targets(state) == {(4, 3)}
    with pytest.raises(fg.IllegalMoveError, match="covering 2 leaves there needs 3 active"):
        state.apply(PlaceLeaf(0, (3, 3)))
