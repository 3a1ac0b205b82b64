"""Hidden information: only the deck order is hidden; determinize resamples it."""

import json
from collections import Counter
from itertools import permutations

import forestgames as fg
from tests.bonsai.helpers import arrange
from tests.stats import chi_square
from tests.strategies import random_game


def test_observation_has_no_deck_order():
    """observation(p) is JSON-able, shows the deck's size, never its cards."""
    state = fg.make("bonsai", num_players=3).new_game(seed=8)
    view = state.observation(1)
    json.dumps(view)
    assert "deck" not in view and view["deck_size"] == state.deck_size == 39
    assert view["observer"] == 1


def test_states_differing_only_in_deck_order_look_the_same():
    """Two deck orders, one view: the order is not leaked by any field."""
    state = fg.make("bonsai", num_players=2).new_game(seed=8)
    other = state.determinize(0, seed=123)
    assert other.deck != state.deck and sorted(other.deck) == sorted(state.deck)
    for seat in (0, 1):
        assert other.observation(seat) == state.observation(seat)


def test_determinize_keeps_everything_but_the_deck_order():
    """Market, hands (Parchments included), trees and goals are kept."""
    state = arrange(2, hands={1: ["parchment:leaf"]})
    sample = state.determinize(0, seed=5)
    assert (
        sample.market == state.market
        and sample.cards == state.cards
        and sample.trees == state.trees
    )
    assert sample.observation(0)["players"][1]["cards"] == ["parchment:leaf"]
    assert state.determinize(0, seed=5) == sample  # reproducible


def test_traits_declare_chance_and_hidden_information():
    """Bonsai declares a shuffled deck (chance) and hidden information."""
    traits = fg.make("bonsai", num_players=4).traits
    assert traits.chance and traits.hidden_information and not traits.out_of_turn
    assert traits.min_players == 1 and traits.max_players == 4


def test_observation_is_the_saved_state_but_the_deck_order():
    """What a seat sees is everything the saved state holds except the deck's order."""
    state = arrange(3, trees={2: {(0, -1): "wood"}}, hands={1: ["tool"]})
    saved = state.to_dict()
    for seat in range(3):
        view = state.observation(seat)
        assert view.pop("observer") == seat and view.pop("deck_size") == len(saved["deck"])
        assert view == {k: v for k, v in saved.items() if k != "deck"}


def test_states_pickle_and_copy_as_themselves():
    """A pickled state comes back equal with the same moves; copies are the state itself."""
    import copy
    import pickle

    state = arrange(2, trees={0: {(0, -1): "wood", (-1, -1): "leaf"}})
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.legal_moves() == state.legal_moves()
    assert copy.copy(state) is state and copy.deepcopy(state) is state


def test_determinize_deals_every_deck_order_equally_often():
    """A 5-card deck late in a random game (two copies of one card: 60 orders): over 6000
    seeds every order comes up as often as uniform says (chi-square under its p < 1e-4
    bound; measured 56.4 on 59 degrees of freedom) and each top card within 0.025 of
    its share (measured 0.011)."""
    game = fg.make("bonsai", num_players=2)
    state = next(s for s, _ in random_game(game, 3) if len(s.deck) <= 5)
    orders = set(permutations(state.deck))
    assert len(state.deck) == 5 and len(orders) == 60
    draws = 6000
    seen = Counter(state.determinize(0, seed).deck for seed in range(draws))
    statistic, bound = chi_square(seen, {order: 1 / 60 for order in orders}, draws)
    assert set(seen) <= orders and statistic < bound, statistic
    tops = Counter(deck[0] for deck in seen.elements())
    for card, copies in Counter(state.deck).items():
        assert abs(tops[card] / draws - copies / 5) < 0.025, (card, tops[card])
