"""The shared protocol, checked on Bosk for every player count and option set."""

import pytest

import forestgames as fg
from tests.conformance import check_conformance


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players):
    """Random Bosk games obey the whole shared protocol."""
    check_conformance(fg.make("bosk", num_players=players), seeds=(0, 1))


def test_conformance_with_options():
    """The other readings of the rules choices obey the protocol too."""
    game = fg.make("bosk", num_players=3, squirrel_exactly_three=True, ties_include_start=False)
    check_conformance(game, seeds=(5,))
