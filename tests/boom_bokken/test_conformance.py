"""The shared protocol, checked on Boom Bokken for every player count and option set."""

import pytest

import forestgames as fg
from forestgames.boom_bokken._tables import TEAM_SIZES
from tests.conformance import check_conformance


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8, 9])
def test_conformance(players):
    """Random Boom Bokken games obey the whole shared protocol (default options)."""
    check_conformance(fg.make("boom_bokken", num_players=players), seeds=(0, 1))


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8, 9])
def test_conformance_expert(players):
    """Expert mode (roles, Temps Mort set aside) obeys the whole shared protocol."""
    check_conformance(fg.make("boom_bokken", num_players=players, expert=True), seeds=(0, 1))


@pytest.mark.parametrize("players", [6, 7, 8, 9])
def test_conformance_second_team_split(players):
    """The second team split of the seed's table obeys the protocol, in both modes."""
    second = list(TEAM_SIZES[players][1])
    check_conformance(fg.make("boom_bokken", num_players=players, team_sizes=second), seeds=(3,))
    game = fg.make("boom_bokken", num_players=players, team_sizes=second, expert=True)
    check_conformance(game, seeds=(4,))


def test_conformance_other_options():
    """A custom deck and Temps Mort set aside obey the protocol too."""
    deck = {str(v): 3 for v in range(1, 9)} | {f"F{v}": 1 for v in range(1, 9)} | {"T": 4}
    game = fg.make("boom_bokken", num_players=4, deck=deck, spent_time_outs="aside")
    check_conformance(game, seeds=(5,))
