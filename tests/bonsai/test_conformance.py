"""The shared protocol, checked on Bonsai for every player count and option set."""

import pytest

import forestgames as fg
from tests.conformance import check_conformance


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players):
    """Random Bonsai games obey the whole shared protocol."""
    check_conformance(fg.make("bonsai", num_players=players), seeds=(0, 1))


def test_conformance_with_options():
    """The other readings of the rules choices obey the protocol too."""
    game = fg.make(
        "bonsai",
        num_players=3,
        goal_setup="published",
        end_rule="extra_turn",
        pot_sides_free=False,
        wood_beside_pot=True,
    )
    check_conformance(game, seeds=(5, 6))


def test_conformance_solo():
    """Solo games obey the protocol (a lost solo game ends with no winner)."""
    for difficulty in (1, 4):
        check_conformance(
            fg.make("bonsai", num_players=1, solo_difficulty=difficulty), seeds=(0, 1)
        )
    check_conformance(fg.make("bonsai", num_players=1, end_rule="extra_turn"), seeds=(2,))
