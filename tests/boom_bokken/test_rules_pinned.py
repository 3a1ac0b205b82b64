"""Rules the mutation audit found unpinned: each test fails if its rule is broken in the engine."""

from collections import Counter

import pytest

import forestgames as fg

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
