"""Bonsai's action ids and tensor as docs/bonsai.md ("Actions and tensors") states them,
where a mutation audit found them unpinned."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import forestgames as fg


@pytest.mark.parametrize("at", [(0, -2.0), (3, True), (0, np.float64(-2))])
def test_a_cell_whose_r_is_not_an_int_has_no_id(at: tuple[Any, Any]) -> None:
    """A Place or Prune whose row ``r`` is a float or a bool names no cell of the id table,
    even when it equals the ``r`` of one ((0, -2) and (3, 1) are cells off the pot, within
    W + 2 steps of the bud): it has no action id (IllegalMoveError), like a float ``q``."""
    game = fg.make("bonsai", num_players=2)
    assert (at[0], int(at[1])) in game.codec.cells
    for move in (fg.bonsai.Place(1, "leaf", at), fg.bonsai.Prune(1, at)):
        with pytest.raises(fg.IllegalMoveError, match="so it has no action id"):
            game.action_id(move)
