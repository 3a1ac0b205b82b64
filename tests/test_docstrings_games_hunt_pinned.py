"""Docstring promises of the games' public functions and of ``forestgames.rl`` found
unkept (or unpinned) by a bug hunt, each pinned by one test."""

from __future__ import annotations

import pytest

import forestgames as fg
from forestgames.boom_bokken import round_coins


def test_round_coins_refuses_a_team_id_that_does_not_hash() -> None:
    """round_coins: a team id that cannot be hashed (a tuple holding a list) is a StateError."""
    with pytest.raises(fg.StateError, match=r"team_of\[0\].*not a team id"):
        round_coins([0], [([1],)])
