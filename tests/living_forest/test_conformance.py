"""The shared protocol, checked on Living Forest for every player count and option set."""

import pytest

import forestgames as fg
from tests.conformance import check_conformance


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players):
    """Random Living Forest games with the default options obey the whole shared protocol."""
    check_conformance(fg.make("living_forest", num_players=players), seeds=(0, 1))


def test_conformance_with_options():
    """The other readings of the rules choices obey the protocol too."""
    game = fg.make(
        "living_forest",
        num_players=3,
        fire_tiles=(10, 10, 10),
        duplicate_trees=False,
        reveal_after_third=False,
        varan_returns=True,
        turn_limit=25,
    )
    check_conformance(game, seeds=(5, 6))
