"""Rules the mutation audit found unpinned in Bosk: each test here fails when that one
rule is broken in the engine, and passes on the rules as written (rules/bosk.md)."""

from forestgames.bosk import placement_points

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
