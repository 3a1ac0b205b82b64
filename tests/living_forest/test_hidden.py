"""Hidden information: what observation(p) shows, and what determinize(p) resamples."""

import json

from forestgames.living_forest._tables import CARD_NAMES
from tests.living_forest.helpers import acting, checked, play, put, start, to_row
from tests.strategies import final_state


def attracted():
    """Seat 0 has attracted Raven and Beaver onto its deck (known to all)."""
    state = to_row(start(), ["Raven", "Beaver"])
    state = put(put(state, 0, "line", ["Tanuki", "Weasel"]), 1, "line", ["Hare"])
    state = play(checked(acting(state)), "0:attract Raven", "0:attract Beaver", "0:done")
    return state


def test_observation_hides_deck_orders_stacks_and_reshuffle_seed():
    """No deck order, reserve stack or reshuffle seed appears in any observation."""
    state = start(3)
    for seat in range(3):
        view = state.observation(seat)
        assert "entropy" not in view and view["observer"] == seat
        assert all("deck" not in spirit for spirit in view["spirits"])
        assert all(isinstance(level["stack"], int) for level in view["reserve"].values())
        json.dumps(view)


def test_own_discard_visible_others_only_counted():
    """A Spirit sees its own discard pile; of the others only the size."""
    state = final_state(start().game, 3)
    view = state.observation(0)
    assert view["spirits"][0]["discard"] == [CARD_NAMES[c] for c in state.discards[0]]
    assert "discard" not in view["spirits"][1]
    assert view["spirits"][1]["discard_size"] == len(state.discards[1])


def test_own_deck_contents_shown_sorted_not_in_order():
    """A Spirit's own deck is shown as sorted contents (which it can work out), not its order."""
    state = start()
    rest = state.observation(0)["spirits"][0]["deck_rest"]
    assert rest == sorted(CARD_NAMES[c] for c in state.decks[0])
    assert "deck_rest" not in state.observation(1)["spirits"][0]


def test_attracted_cards_on_top_are_public_until_drawn():
    """Cards put on a deck by Attract are seen by everyone until revealed."""
    state = attracted()
    for seat in (0, 1):
        assert state.observation(seat)["spirits"][0]["deck_top"] == ["Beaver", "Raven"]


def test_determinize_keeps_attracted_cards_on_top():
    """determinize reshuffles only the unknown part of each deck."""
    state = attracted()
    for seed in range(5):
        sample = state.determinize(1, seed)
        assert sample.decks[0][:2] == state.decks[0][:2]
        assert sorted(sample.decks[0]) == sorted(state.decks[0])


def test_determinize_resamples_hidden_order_and_keeps_the_view():
    """Samples differ in deck and stack order, never in what the seat sees."""
    state = start(3)
    samples = [state.determinize(1, seed) for seed in range(6)]
    assert len({s.decks for s in samples}) > 1 and len({s.stacks for s in samples}) > 1
    assert all(s.observation(1) == state.observation(1) for s in samples)
    assert all(s.legal_moves() == state.legal_moves() for s in samples)


def test_observation_does_not_depend_on_hidden_order():
    """Two states differing only in hidden order look the same to every seat."""
    state = start(3)
    other = state.determinize(0, 42)
    assert other.decks != state.decks
    for seat in range(3):
        assert other.observation(seat) == state.observation(seat)


def test_render_shows_public_deck_top_only():
    """render() names attracted deck-top cards; a seat's picture ignores hidden order."""
    state = attracted()
    assert "deck top (attracted, public) Beaver Raven" in state.render()
    assert all(state.determinize(1, seed).render(1) == state.render(1) for seed in range(4))
