"""Rules the mutation audit found unpinned: each test fails if its rule is broken in the engine."""

from collections import Counter

import pytest

import forestgames as fg
from tests.boom_bokken.helpers import Boom, Play, play, table
from tests.boom_bokken.test_rules import ROLES, TEAMS

SEED_TABLE = {
    4: [(2, 2)],
    5: [(2, 3)],
    6: [(2, 2, 2), (3, 3)],
    7: [(2, 2, 3), (3, 4)],
    8: [(2, 2, 2, 2), (4, 4)],
    9: [(2, 2, 2, 3), (3, 3, 3)],
}
"""The seed's team splits per player count, written out: the first one is the default."""


@pytest.mark.parametrize("players", sorted(SEED_TABLE))
def test_team_splits_are_the_seed_table_first_one_by_default(players):
    """The default split is the first of the seed's row; the other is the option's other value."""
    default, *other = SEED_TABLE[players]
    game = fg.make("boom_bokken", num_players=players)
    assert game.team_sizes == default
    assert sorted(Counter(game.new_game(seed=3).teams).values()) == sorted(default)
    for split in other:
        chosen = fg.make("boom_bokken", num_players=players, team_sizes=list(split))
        assert chosen.team_sizes == split
        assert sorted(Counter(chosen.new_game(seed=3).teams).values()) == sorted(split)


def test_only_the_gardien_answers_for_a_named_teammate():
    """Expert, teams {0, 2} and {1, 3}: seat 1 names seat 0 "higher" on a 5. Seat 2, the
    Cogneur of seat 0's team, holds a fitting 6 but may not answer in seat 0's place."""
    state = table([["3"], ["5", "2"], ["6", "1"], ["7"]], TEAMS, leader=1, roles=ROLES)
    state = play(state, "1:play 5 @0 higher")
    assert state.players_to_act == (0,) and state.legal_moves(2) == ()
    with pytest.raises(
        fg.IllegalMoveError,
        match="out of turn only a Flash of 5, a Temps Mort or a Gardien's answer",
    ):
        state.apply(Play(2, ("6",), 1, "lower"))


def test_boom_after_lower_also_gives_the_announcer_a_token():
    """Seat 0 leads a 3 "lower" on seat 1, who holds only 6 and 7: seat 1 explodes and seat 0,
    the announcer, takes the Bokken token (2 points), as after "higher"."""
    state = table([["3", "1"], ["6", "7"], ["4"], ["8"]], TEAMS)
    state = play(state, "0:play 3 @1 lower")
    assert {type(m) for m in state.legal_moves(1)} == {Boom}
    state = play(state, "1:boom @2")
    assert state.exploded == (1,) and state.tokens == (1, 0, 0, 0) and state.scores[0] == 2
