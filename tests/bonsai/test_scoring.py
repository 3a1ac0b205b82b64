"""Scoring: the published worked example, flowers by free sides, Parchments, goal measures;
the docs page's examples."""

import doctest
import re
from pathlib import Path

import numpy as np
import pytest

import forestgames as fg
from forestgames.bonsai import COLOURS, GOALS, can_place, goal_measures, scoring, tree_points
from forestgames.bonsai._tables import cell_of
from forestgames.bonsai.scoring import flower_free_sides
from forestgames.bonsai.tree import Tree
from tests.bonsai.helpers import (
    CARD_ORDER,
    EXAMPLE_FLOWERS,
    EXAMPLE_FRUITS,
    EXAMPLE_LEAVES,
    EXAMPLE_WOOD,
    arrange,
    example_tiles,
)


def test_worked_example_tree_is_legal_in_placement_order():
    """Every tile of the worked example's tree fits when laid wood, leaves, flowers, fruit."""
    tiles: dict = {}
    for at, kind in example_tiles().items():
        assert can_place(tiles, at, kind), (at, kind)
        tiles[at] = kind


def test_worked_example_tree_parts():
    """13 leaves (39) + flowers with 5, 3, 3, 3, 5 free sides (19) + 2 fruits (14) = 72."""
    tiles = example_tiles()
    cells = Tree.from_tiles(tiles).cells
    assert len(EXAMPLE_LEAVES) == 13 and len(EXAMPLE_FRUITS) == 2
    assert [flower_free_sides(cells, cell_of(*at)) for at in EXAMPLE_FLOWERS] == [5, 3, 3, 3, 5]
    assert tree_points(tiles) == 39 + 19 + 14


def test_cells_as_numpy_integers_score_as_ints():
    """The worked example with every cell's coordinates numpy integers (from an array, say)
    scores 72 and places as with ints (they were refused: "a cell is a (q, r) tuple of
    ints, not (0, 0)")."""

    def numpy(at):
        return tuple(np.int8(x) if x < 0 else np.uint16(x) for x in at)

    tiles = {numpy(at): kind for at, kind in example_tiles().items()}
    assert tree_points(tiles) == 72
    assert can_place({}, numpy((0, -1)), "wood") and not can_place({}, numpy((0, -2)), "wood")
    with pytest.raises(fg.StateError, match=r"a cell is a \(q, r\) tuple of ints, not"):
        tree_points({(0.0, -1.0): "wood"})


def test_tree_takes_numpy_cells_kinds_and_bool():
    """Tree(cells, wood_beside_pot) takes numpy integer cells and kinds and a numpy bool as
    the ints and bool they are (they were refused: "a cell is an engine int (cell_of(q, r)),
    not 524800", "wood_beside_pot must be a bool, not True"), and keeps ints."""
    expected = Tree.from_tiles(example_tiles(), True)
    for kind in (np.int64, np.uint32, np.uint64):
        cells = {kind(cell): kind(k) for cell, k in expected.cells.items()}
        tree = Tree(cells, np.bool_(True))
        assert tree == expected and tree.points() == expected.points() == 72
        assert tree.wood_beside_pot is True
        assert all(type(x) is int for item in tree.cells.items() for x in item)
    with pytest.raises(fg.StateError, match="is too far from the pot"):
        Tree({np.uint8(5): np.uint8(0)})  # its (q, r) is worked out in ints, not uint8


def test_worked_example_scores_100_in_a_game():
    """The published example as a real position: tree 72 + Parchments 13 (1 per leaf) and
    10 (2 per flower) + the 5-point brown goal (8 wood with the bud) = 100."""
    state = arrange(
        2,
        trees={0: example_tiles()},
        hands={0: ["parchment:leaf", "parchment:flower"]},
        goal_owners={"brown 1": 0},
    )
    assert goal_measures(example_tiles())[0] == 8 == len(EXAMPLE_WOOD) + 1
    assert state.score_parts(0) == {"tree": 72, "goals": 5, "parchments": 23, "total": 100}
    assert state.scores == (100, 0)


def test_flower_scores_its_free_sides_not_a_fixed_amount():
    """Seed mistake 4: a flower scores 1 per side touching no tile: the flower on (-1,-3)
    touches only the leaf (-1,-2) (5 points); with wood on (0,-3) and (0,-4), its E
    and NE sides, it scores 3."""
    alone = {(0, -1): "wood", (0, -2): "wood", (-1, -2): "leaf", (-1, -3): "flower"}
    assert tree_points(alone) == 3 + 5
    crowded = {**alone, (0, -3): "wood", (0, -4): "wood"}
    assert all(
        can_place({k: v for k, v in crowded.items() if k != at}, at, kind)
        for at, kind in crowded.items()
    )
    assert tree_points(crowded) == 3 + 3


def test_bud_blocks_a_flower_side_and_pot_sides_are_free_by_default():
    """A flower on (1,-1) touches the bud (a wood tile) and the pot cell (1,0): the bud's side
    is taken, the pot's side counts as free unless pot_sides_free=False."""
    tiles = {(0, -1): "wood", (1, -2): "leaf", (1, -1): "flower"}
    # (1,-1) neighbours: E (2,-1) free, NE (2,-2) free, NW (1,-2) leaf, W (0,-1) wood,
    # SW (0,0) the bud, SE (1,0) pot.
    assert tree_points(tiles) == 3 + 3
    assert tree_points(tiles, pot_sides_free=False) == 3 + 2


def test_pot_sides_free_option_changes_the_game_score():
    """The game passes its pot_sides_free option to the scoring."""
    tiles = {(0, -1): "wood", (1, -2): "leaf", (1, -1): "flower"}
    free = arrange(2, trees={0: tiles})
    taken = arrange(2, options={"pot_sides_free": False}, trees={0: tiles})
    assert free.scores[0] == 6 and taken.scores[0] == 5


def test_wood_scores_nothing_and_fruit_seven():
    """Wood 0, leaf 3, fruit 7."""
    assert tree_points({(0, -1): "wood", (0, -2): "wood"}) == 0
    tiles = {
        (0, -1): "wood",
        (0, -2): "wood",
        (-1, -1): "leaf",
        (-1, -2): "leaf",
        (-2, -1): "fruit",
    }
    assert tree_points(tiles) == 6 + 7


# A tree that its seat's eight cards below could have grown: 5 wood with the bud, two
# columns of 3 leaves beside the trunk, 2 flowers, 2 fruits between leaf pairs.
PARCHMENT_TREE = {
    (0, -1): "wood", (0, -2): "wood", (0, -3): "wood", (0, -4): "wood",
    (-1, -1): "leaf", (-1, -2): "leaf", (-1, -3): "leaf",
    (1, -2): "leaf", (1, -3): "leaf", (1, -4): "leaf",
    (-2, -1): "flower", (2, -3): "flower", (-2, -2): "fruit", (2, -4): "fruit",
}  # fmt: skip


@pytest.mark.parametrize(
    "parchment, expected",
    [
        ("parchment:wood", 5),  # 1 x 5 wood, the bud included
        ("parchment:leaf", 6),
        ("parchment:flower", 4),  # 2 x 2 flowers
        ("parchment:fruit", 4),
        ("parchment:growth", 4),  # 2 x 2 growth cards
        ("parchment:helper", 2),  # 2 x 1 helper card
        ("parchment:master", 6),  # 2 x 3 master cards: Masters score only this way
    ],
)
def test_each_parchment_card(parchment, expected):
    """Each Parchment scores its count at the end; other cards score nothing themselves."""
    hand = [parchment, "growth:leaf", "growth:wood", "helper:wild+wood", "master:wild",
            "master:wood+wood", "master:leaf+leaf", "tool"]  # fmt: skip
    state = arrange(2, trees={0: PARCHMENT_TREE}, hands={0: hand}, fill=False)
    assert state.cards_of(0) == tuple(sorted(hand, key=CARD_ORDER.__getitem__))
    assert state.score_parts(0)["parchments"] == expected


def test_goal_measures_of_the_example():
    """brown 8 wood, green 7 leaves in its largest group, orange 2, pink 2 (left), blue 0."""
    assert goal_measures(example_tiles()) == (8, 7, 2, 2, 0)


def test_green_counts_the_largest_connected_leaf_group():
    """Two groups of leaves (3 and 2) measure 3, not 5."""
    tiles = {(0, -1): "wood", (0, -2): "wood", (0, -3): "wood"}
    tiles.update(
        {(-1, -1): "leaf", (-1, -2): "leaf", (-1, -3): "leaf", (1, -2): "leaf", (1, -3): "leaf"}
    )
    assert goal_measures(tiles)[1] == 3


def test_pink_counts_flowers_protruding_on_one_same_side():
    """2 flowers left and 1 right measure 2 (the sides are not added)."""
    tiles = {(-3, -1): "flower", (-4, 0): "flower", (5, -3): "flower"}
    assert goal_measures(tiles)[3] == 2


@pytest.mark.parametrize(
    "tiles, level",
    [
        ({(-4, -1): "leaf"}, 0),  # left only: not the gold crack's side
        ({(4, -2): "leaf"}, 1),  # right: small
        ({(4, -2): "leaf", (-3, 0): "leaf"}, 2),  # both sides: medium
        ({(4, -2): "leaf", (-3, 2): "leaf"}, 3),  # right, and below-left: large
        ({(-3, 0): "leaf", (2, 2): "leaf"}, 3),  # left, and below-right: large
        ({(2, 2): "leaf"}, 1),  # below and right alone: small only
        ({(4, -2): "leaf", (-3, 1): "leaf"}, 2),  # left at r = 1 is not below the pot: medium
        ({(-3, 0): "leaf", (3, 1): "leaf"}, 2),  # right at r = 1 (x = 3.5): not below either
    ],
)
def test_blue_levels(tiles, level):
    """Blue: small a tile right (gold crack); medium both sides; large one side and the
    other side below the pot."""
    assert goal_measures(tiles)[4] == level


def _trunk(length):
    return {(0, -k): "wood" for k in range(1, length + 1)}


def _goal_tree(colour, measure):
    """A legal tree whose ``colour`` measure is ``measure`` (hand-built, see each case)."""
    if colour == "brown":  # the bud and a trunk
        return _trunk(measure - 1)
    if colour == "green":  # one group: leaves up the trunk's left side
        return {**_trunk(measure), **{(-1, -k): "leaf" for k in range(1, measure + 1)}}
    if colour == "orange":  # fruit on every other cell left of a leaf column: no two touch
        tiles = {**_trunk(2 * measure), **{(-1, -k): "leaf" for k in range(1, 2 * measure + 1)}}
        return {**tiles, **{(-2, -2 * k + 1): "fruit" for k in range(1, measure + 1)}}
    if colour == "pink":  # flowers at x <= -2, left of a leaf column
        tiles = {**_trunk(measure), **{(-1, -k): "leaf" for k in range(1, measure + 1)}}
        return {**tiles, **{(-2, -k): "flower" for k in range(1, measure + 1)}}
    # blue: wood out to x = 3.5 on the right; then to x = -2.5 on the left; then down to
    # (2, 2), below the pot and beyond its right side
    right = {(1, -1): "wood", (2, -1): "wood", (3, -1): "wood", (4, -1): "wood"}
    left = {(0, -1): "wood", (-1, -1): "wood", (-2, -1): "wood"}
    below = {(4, 0): "wood", (3, 1): "wood", (2, 2): "wood"}
    return [{}, right, {**right, **left}, {**right, **left, **below}][measure]


@pytest.mark.parametrize("goal", range(15))
def test_every_goal_threshold(goal):
    """Each goal is offered for a real tree at its threshold and not one below (with only
    that goal in play, held by nobody)."""
    g = GOALS[goal]
    game = fg.make("bonsai")
    for measure, offered in ((g.threshold, goal), (g.threshold - 1, -1)):
        tiles = _goal_tree(g.colour, measure)
        assert goal_measures(tiles)[COLOURS.index(g.colour)] == measure
        grown: dict = {}
        for at, kind in tiles.items():  # a real tree: listed in a placement order
            assert can_place(grown, at, kind), (at, kind)
            grown[at] = kind
        tree = Tree.from_tiles(tiles)
        assert game._goal_to_offer(tree, (-1,) * 15, 0, 1 << goal, 0) == offered


def test_goal_table_matches_the_rules_page():
    """Thresholds and points of the 15 goal tiles."""
    table = {g.name: (g.threshold, g.points) for g in GOALS}
    assert table == {
        "brown 1": (8, 5), "brown 2": (10, 10), "brown 3": (12, 15),
        "green 1": (5, 6), "green 2": (7, 9), "green 3": (9, 12),
        "orange 1": (3, 9), "orange 2": (4, 11), "orange 3": (5, 13),
        "pink 1": (3, 8), "pink 2": (4, 12), "pink 3": (5, 16),
        "blue 1": (1, 7), "blue 2": (2, 10), "blue 3": (3, 14),
    }  # fmt: skip


def test_scoring_docstring_examples_run():
    """The module docstring of bonsai/scoring.py computes what it says (the tree scores 10)."""
    failures, tried = doctest.testmod(scoring, verbose=False)
    assert tried >= 3 and failures == 0
    assert (
        tree_points({(0, -1): "wood", (1, -2): "leaf", (0, -2): "leaf", (1, -3): "flower"})
        == 3 + 3 + 4
    )  # the flower (1, -3) touches only the two leaves: 4 free sides


# ---------------------------------------------------------------------- the docs page

DOCS = Path(__file__).parents[2] / "docs"


def _python_blocks(text):
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_docs_example_tree_is_a_legal_tree():
    """The small tree of the Usage block could grow: each tile fits with the others."""
    block = _python_blocks((DOCS / "bonsai.md").read_text(encoding="utf-8"))[0]
    line = next(x for x in block.splitlines() if x.startswith("tiles = "))
    tiles = eval(line.split("=", 1)[1].split("#")[0])
    grown: dict = {}
    for at, kind in tiles.items():  # listed in a placement order
        assert can_place(grown, at, kind), (at, kind)
        grown[at] = kind


def test_committed_svg_is_the_worked_example():
    """docs/img/bonsai_example.svg is what tree_svg draws for the worked example."""
    from forestgames.bonsai import tree_svg

    svg = (DOCS / "img" / "bonsai_example.svg").read_text(encoding="utf-8")
    assert svg == tree_svg(example_tiles()) + "\n"


@pytest.mark.parametrize("flag", ["no", None, 1, np.array([True])])
def test_rules_choice_keywords_must_be_bools(flag):
    """tree_points, Tree.points, can_place and render_tree refuse a rules-choice or display
    keyword that is not a bool ("no" was taken as True, None as False), naming it."""
    tiles = example_tiles()
    calls = {
        "pot_sides_free": [
            lambda: tree_points(tiles, pot_sides_free=flag),
            lambda: Tree.from_tiles(tiles).points(flag),
        ],
        "wood_beside_pot": [lambda: can_place(tiles, (0, -1), "wood", wood_beside_pot=flag)],
        "coordinates": [lambda: fg.bonsai.render_tree(tiles, coordinates=flag)],
    }
    for name, refused in calls.items():
        for call in refused:
            with pytest.raises(fg.ConfigError, match=f"{name} must be True or False"):
                call()
    assert tree_points(tiles, pot_sides_free=np.bool_(True)) == 72


# ------------------------------------ found by the audit of scoring.py's and tree.py's constants

# the six neighbours of a cell in DIRECTIONS' order, E NE NW W SW SE: each touches the next,
# and SE touches E again
AROUND = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@pytest.mark.parametrize("side", range(6))
def test_a_fruit_needs_two_touching_leaves_on_any_two_neighbouring_sides(side):
    """A fruit on (0, -4) is allowed between leaves on two neighbouring sides, the pair SE and
    E included, and refused between leaves two sides apart, which do not touch."""
    fruit = (0, -4)

    def leaves(*sides):
        return {(fruit[0] + AROUND[s][0], fruit[1] + AROUND[s][1]): "leaf" for s in sides}

    assert can_place(leaves(side, (side + 1) % 6), fruit, "fruit")
    assert not can_place(leaves(side, (side + 2) % 6), fruit, "fruit")


def test_pink_counts_the_flowers_protruding_right():
    """Flowers on (4, -1) and (4, 0) protrude right (2q + r >= 7), the one on (0, -2) on no
    side: pink, the most flowers protruding on one side, is 2."""
    tiles = {(4, -1): "flower", (4, 0): "flower", (0, -2): "flower"}
    assert goal_measures(tiles)[COLOURS.index("pink")] == 2


def test_blue_is_3_for_a_tree_protruding_below_on_both_sides():
    """(-3, 2) protrudes left below the pot, (3, 2) right below it: every protrusion bit is
    set, and blue is 3 (a tile protruding on one side, one below the pot on the other)."""
    assert goal_measures({(-3, 2): "wood", (3, 2): "wood"})[COLOURS.index("blue")] == 3


@pytest.mark.parametrize("at", [(511, 0), (-511, 0), (0, 511), (0, -511)])
def test_a_cell_past_the_coordinate_limit_on_either_axis_is_refused(at):
    """Cells are within 510 of the pot on each axis: 511 on q or r, either sign, is a
    StateError saying the cell is too far (not another cell read in its place)."""
    with pytest.raises(fg.StateError, match=re.escape(f"cell {at} is too far from the pot")):
        can_place({}, at, "wood")


@pytest.mark.parametrize("kind", [-1, 4])
def test_a_tree_cell_holds_a_kind_index_0_to_3(kind):
    """Tree(cells) takes kind indices 0..3 (wood, leaf, flower, fruit): -1 or 4 on (0, -1)
    is a StateError naming the cell and the kind."""
    with pytest.raises(fg.StateError, match=rf"cell \(0, -1\) holds kind {kind}, not 0\.\.3"):
        Tree({cell_of(0, 0): 0, cell_of(0, -1): kind})
