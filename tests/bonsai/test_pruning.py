"""Pruning: when no wood tile can be placed, the fewest leaves may go (with what they carry).

The bud touches only two cells outside the pot, (0,-1) and (1,-1): leaves on both
leave no place for wood. A flower on (0,-2) rests on the leaf (0,-1) alone; a
fruit on (1,-2) sits between the leaves (0,-1) (its SW side) and (1,-1) (its SE side).
"""

import pytest

import forestgames as fg
from forestgames.bonsai import Meditate, Phase, Prune
from forestgames.bonsai.tree import Tree
from tests.bonsai.helpers import arrange, play, supply

BLOCKED = {(0, -1): "leaf", (1, -1): "leaf", (0, -2): "flower", (1, -2): "fruit"}


def test_blocked_tree_offers_pruning_besides_the_usual_actions():
    """No wood fits: Prune moves on both leaves are offered, and Meditate stays allowed."""
    state = arrange(2, trees={0: BLOCKED})
    moves = state.legal_moves()
    assert [m for m in moves if isinstance(m, Prune)] == [Prune(0, (0, -1)), Prune(0, (1, -1))]
    assert any(isinstance(m, Meditate) for m in moves)


def test_pruning_a_leaf_takes_what_rests_on_it():
    """Removing (0,-1) takes the flower (no leaf left beside it) and the fruit (no leaf pair)."""
    after = play(arrange(2, trees={0: BLOCKED}, supplies={0: supply()}), "0:prune@0,-1")
    assert after.tree(0).tiles == {(0, 0): "wood", (1, -1): "leaf"}
    assert after.phase is Phase.ACTION and after.current_player == 0
    assert after.supply(0) == supply()  # removed tiles go back to the general supply
    assert not any(isinstance(m, Prune) for m in after.legal_moves())


def test_pruning_the_other_leaf_keeps_the_flower():
    """Removing (1,-1) breaks the fruit's leaf pair; the flower still touches (0,-1)."""
    after = play(arrange(2, trees={0: BLOCKED}), "0:prune@1,-1")
    assert after.tree(0).tiles == {(0, 0): "wood", (0, -1): "leaf", (0, -2): "flower"}


def test_no_pruning_while_wood_fits():
    """With a free cell beside wood, Prune is refused."""
    state = arrange(2, trees={0: {(0, -1): "leaf"}})
    assert not any(isinstance(m, Prune) for m in state.legal_moves())
    with pytest.raises(fg.IllegalMoveError, match="only when no wood"):
        state.apply(Prune(0, (0, -1)))


def test_one_leaf_is_always_enough():
    """Every leaf touches wood, so removing any one frees a cell beside wood: all leaves of a
    blocked tree are choices, and after one prune wood fits again. Wood (1,-1) with leaves
    on its four free sides, one of them (0,-1) also filling the bud's last free side."""
    tiles = {(1, -1): "wood", (0, -1): "leaf", (1, -2): "leaf", (2, -2): "leaf", (2, -1): "leaf"}
    tree = Tree.from_tiles(tiles)
    assert not tree.open_cells(0)
    assert len(tree.prune_choices()) == 4
    for leaf in tree.prune_choices():
        assert tree.without_leaf(leaf).open_cells(0)
