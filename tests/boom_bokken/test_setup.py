"""Setup and options: hands, deck, teams, first leader, option validation."""

from collections import Counter

import pytest

import forestgames as fg
from forestgames.boom_bokken import DEFAULT_DECK, BoomBokkenGame
from forestgames.boom_bokken._tables import CARD_NAMES, TEAM_SIZES


def _all_cards(state):
    cards = Counter(state.pile_cards) + Counter(CARD_NAMES[c] for c in state.deck)
    for seat in range(state.game.num_players):
        cards.update(state.hand(seat))
    cards["T"] += state.aside
    return cards


@pytest.mark.parametrize(("players", "hand"), [(4, 7), (5, 7), (6, 7), (7, 6), (8, 6), (9, 6)])
def test_deal_sizes(players, hand):
    """7 cards each with 4–6 players, 6 with 7–9; the rest of the 70 cards is the draw pile."""
    state = fg.make("boom_bokken", num_players=players).new_game(seed=players)
    assert state.hand_sizes == (hand,) * players
    assert state.deck_size == 70 - hand * players
    assert state.pile == () and state.round == 1 and state.named_player is None


def test_default_deck_composition():
    """Default deck: 6 orange and 2 Flash cards of each value 1–8, and 6 Temps Mort."""
    state = fg.make("boom_bokken", num_players=4).new_game(seed=0)
    expected = Counter(
        {"T": 6} | {str(v): 6 for v in range(1, 9)} | {f"F{v}": 2 for v in range(1, 9)}
    )
    assert _all_cards(state) == expected
    assert sum(DEFAULT_DECK) == 70


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8, 9])
def test_teams_follow_the_table(players):
    """Teams have the sizes of the first split by default and of the second when asked."""
    for split in TEAM_SIZES[players]:
        game = fg.make("boom_bokken", num_players=players, team_sizes=list(split))
        teams = game.new_game(seed=1).teams
        assert sorted(Counter(teams).values()) == sorted(split)
    default = fg.make("boom_bokken", num_players=players).new_game(seed=1).teams
    assert sorted(Counter(default).values()) == sorted(TEAM_SIZES[players][0])


def test_teams_are_drawn_at_random():
    """The seating of teams depends on the seed."""
    game = fg.make("boom_bokken", num_players=6)
    assert len({game.new_game(seed=s).teams for s in range(10)}) > 3


def test_first_leader_seeded_or_given():
    """The first leader is drawn from the seed (reproducibly) unless given."""
    game = fg.make("boom_bokken", num_players=5)
    leaders = {game.new_game(seed=s).current_player for s in range(30)}
    assert len(leaders) >= 4
    assert game.new_game(seed=4).current_player == game.new_game(seed=4).current_player
    for seat in range(5):
        state = game.new_game(seed=4, first_player=seat)
        assert state.current_player == seat and state.players_to_act == (seat,)


def test_same_seed_same_deal():
    """Same seed, same hands, teams and deck."""
    game = fg.make("boom_bokken", num_players=7, expert=True)
    assert game.new_game(seed=11) == game.new_game(seed=11)
    assert game.new_game(seed=11) != game.new_game(seed=12)


def test_custom_deck_option():
    """A deck given as an option is the one dealt, and options() rebuilds the game."""
    deck = {"1": 10, "8": 10, "F4": 5, "T": 5}
    game = fg.make("boom_bokken", num_players=4, deck=deck)
    state = game.new_game(seed=2)
    assert _all_cards(state) == Counter(deck)
    assert fg.make("boom_bokken", **game.options()) == game
    assert game.options()["deck"] == deck


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"deck": {"9": 4, "1": 40}}, "not a card"),
        ({"deck": {"1": -1, "2": 40}}, "count"),
        ({"deck": {"1": True, "2": 40}}, "count"),
        ({"deck": {"1": 2.5, "2": 40}}, "count"),
        ({"deck": {"1": 10}}, "cannot deal"),
        ({"deck": ["1", "2"]}, "map"),
        ({"team_sizes": [3, 1]}, "team_sizes"),
        ({"num_players": 6, "team_sizes": [2, 4]}, "team_sizes"),
        ({"expert": "yes"}, "expert"),
        ({"spent_time_outs": "bin"}, "spent_time_outs"),
        ({"num_players": 3}, "4 to 9"),
        ({"num_players": 10}, "4 to 9"),
        ({"colour": "red"}, "unknown"),
    ],
)
def test_bad_options(options, message):
    """Bad options raise ConfigError naming the problem."""
    options = {"num_players": 4} | options
    with pytest.raises(fg.ConfigError, match=message):
        fg.make("boom_bokken", **options)


def test_option_defaults_and_round_trip():
    """Expert mode sets Temps Mort aside by default; options() rebuilds every variant."""
    assert fg.make("boom_bokken", num_players=4).spent_time_outs == "deck"
    assert fg.make("boom_bokken", num_players=4, expert=True).spent_time_outs == "aside"
    for options in (
        {"num_players": 8, "team_sizes": [4, 4]},
        {"num_players": 9, "expert": True, "team_sizes": [3, 3, 3]},
        {"num_players": 5, "spent_time_outs": "aside"},
    ):
        game = fg.make("boom_bokken", **options)
        assert fg.make("boom_bokken", **game.options()) == game
        assert eval(repr(game), {"BoomBokkenGame": BoomBokkenGame}) == game


def test_traits():
    """Traits: 4–9 players, chance, hidden information, out-of-turn play, a finite bound."""
    traits = fg.make("boom_bokken", num_players=6).traits
    assert (traits.min_players, traits.max_players) == (4, 9)
    assert traits.chance and traits.hidden_information and traits.out_of_turn
    assert traits.max_moves == 3 * 2 * (7 * 6 + 6)
    assert traits.score_range == (0, 12 + 2 * 3 * 5)
    assert fg.make("boom_bokken", num_players=6, expert=True).traits.max_moves == 3 * (6 + 6) * 72
