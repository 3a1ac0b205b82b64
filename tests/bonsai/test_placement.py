"""The hex geometry and the placement rules (``can_place``), from hand-worked positions.

Neighbours of (q, r): (q±1, r), (q, r−1), (q+1, r−1), (q−1, r+1), (q, r+1).
The bud (0, 0) sits in the pot's top row, so only (0, −1) and (1, −1) touch
it from outside the pot.
"""

import pytest

import forestgames as fg
from forestgames.bonsai import POT_QR, Tile, can_place
from forestgames.bonsai._tables import BESIDE_POT, DIRECTIONS, POT_CELLS, cell_of, protrudes, qr_of

TRUNK = {(0, -1): "wood", (0, -2): "wood"}


def test_pot_has_the_fifteen_cells_of_the_rules_page():
    """The pot: r=0 q=-2..3, r=1 q=-2..2, r=2 q=-2..1, the bud at (0, 0) among them."""
    assert len(POT_QR) == len(POT_CELLS) == 15
    assert set(POT_QR) == {(q, 0) for q in range(-2, 4)} | {(q, 1) for q in range(-2, 3)} | {
        (q, 2) for q in range(-2, 2)
    }
    assert cell_of(0, 0) in POT_CELLS


def test_neighbours_follow_the_axial_rule_and_go_round_the_hex():
    """The six directions are the page's neighbours, each touching the next one."""
    centre = cell_of(5, -7)
    around = [qr_of(centre + d) for d in DIRECTIONS]
    assert set(around) == {(6, -7), (4, -7), (5, -8), (6, -8), (4, -6), (5, -6)}
    for i in range(6):
        a, b = around[i], around[(i + 1) % 6]
        assert qr_of(cell_of(*a) - cell_of(*b) + cell_of(0, 0)) in {
            qr_of(cell_of(0, 0) + d) for d in DIRECTIONS
        }


def test_first_wood_goes_only_on_the_two_cells_above_the_bud():
    """From the bare pot, wood fits on (0,-1) and (1,-1) only: they touch the printed bud."""
    fits = {(q, r) for q in range(-5, 6) for r in range(-5, 4) if can_place({}, (q, r), "wood")}
    assert fits == {(0, -1), (1, -1)}


def test_wood_must_touch_wood():
    """Wood next to a leaf only, or far away, is refused; next to wood it fits."""
    tiles = {(0, -1): "wood", (-1, -1): "leaf"}
    assert can_place(tiles, (0, -2), "wood")
    assert not can_place(tiles, (-2, -1), "wood")  # touches only the leaf
    assert not can_place(tiles, (3, -6), "wood")


def test_wood_beside_pot_option_lets_wood_start_anywhere_beside_the_pot():
    """With wood_beside_pot any cell touching the pot takes wood; the default does not."""
    assert can_place({}, (-3, 1), "wood", wood_beside_pot=True)
    assert not can_place({}, (-3, 1), "wood")
    assert not can_place({}, (-3, -3), "wood", wood_beside_pot=True)
    assert qr_of(min(BESIDE_POT)) not in POT_QR


def test_leaf_must_touch_wood():
    """A leaf beside wood fits; beside only a leaf or flower it does not."""
    tiles = {**TRUNK, (-1, -1): "leaf"}
    assert can_place(tiles, (1, -2), "leaf")
    assert not can_place(tiles, (-2, -1), "leaf")


def test_flower_must_touch_a_leaf():
    """A flower needs a leaf neighbour; wood alone is not enough."""
    tiles = {**TRUNK, (-1, -1): "leaf"}
    assert can_place(tiles, (-2, -1), "flower")
    assert not can_place(tiles, (1, -2), "flower")


def test_fruit_needs_two_touching_leaves():
    """Seed mistake 1: a fruit goes only beside two different leaves that touch each other.

    (-2,-1) has the leaves (-1,-1) (its E side) and (-1,-2) (its NE side), which
    touch: it fits. With one of them only, it does not. (1,-2) has leaves on its
    NW (1,-3) and SE (1,-1) sides, opposite each other: two leaves, not touching.
    """
    pair = {**TRUNK, (-1, -1): "leaf", (-1, -2): "leaf"}
    assert can_place(pair, (-2, -1), "fruit")
    assert not can_place({**TRUNK, (-1, -1): "leaf"}, (-2, -1), "fruit")
    apart = {**TRUNK, (1, -1): "leaf", (1, -3): "leaf"}
    assert not can_place(apart, (1, -2), "fruit")


def test_fruit_may_not_touch_another_fruit():
    """The published rule: a fruit never goes beside another fruit, even between two leaves.

    Leaves (-1,-1), (-1,-2), (-1,-3) on a trunk: (-2,-2) sits between (-1,-2)
    and (-1,-3) and fits, until a fruit lies on (-2,-1), its SE neighbour.
    """
    tiles = {(0, -1): "wood", (0, -2): "wood", (0, -3): "wood"}
    tiles.update({(-1, -1): "leaf", (-1, -2): "leaf", (-1, -3): "leaf"})
    assert can_place(tiles, (-2, -2), "fruit")
    assert can_place(tiles, (-2, -1), "fruit")
    tiles[(-2, -1)] = "fruit"
    assert not can_place(tiles, (-2, -2), "fruit")


def test_nothing_goes_on_the_pot_or_on_a_tile():
    """Pot cells and taken cells refuse every kind, the bud included."""
    for kind in Tile:
        assert not can_place(TRUNK, (1, 0), kind)
        assert not can_place(TRUNK, (0, 0), kind)
        assert not can_place(TRUNK, (0, -1), kind)


def test_protrusion_thresholds():
    """Left when x = q + r/2 <= -2, right when x >= 3, below when r >= 2."""
    assert protrudes(-2, 0) == (True, False, False)
    assert protrudes(-1, -1) == (False, False, False)  # x = -1.5
    assert protrudes(-3, 1) == (True, False, False)  # x = -2.5
    assert protrudes(4, -2) == (False, True, False)  # x = 3
    assert protrudes(3, -1) == (False, False, False)  # x = 2.5
    assert protrudes(2, 2) == (False, True, True)
    assert protrudes(-3, 2) == (True, False, True)


@pytest.mark.parametrize(
    "tiles, at, kind",
    [
        ({(1, 0): "wood"}, (0, -1), "wood"),  # a tile on the pot
        ({(0, 0): "leaf"}, (0, -1), "wood"),  # the bud is wood
        ({(0, -1): "bark"}, (0, -2), "wood"),  # unknown kind
        ({(0, -1): "wood"}, (0, -2), "branch"),
        ({(0, -1): "wood"}, [0, -2], "wood"),  # a list is not a cell
        ({(0, -1.5): "wood"}, (0, -2), "wood"),
        ("not a tree", (0, -2), "wood"),
    ],
)
def test_bad_trees_and_cells_raise_state_error(tiles, at, kind):
    """Malformed input to can_place raises the library's StateError."""
    with pytest.raises(fg.StateError):
        can_place(tiles, at, kind)
