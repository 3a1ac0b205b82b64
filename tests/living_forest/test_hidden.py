"""Hidden information: what observation(p) shows, and what determinize(p) resamples."""

import json
import random
from collections import Counter

from forestgames.living_forest._tables import CARD_NAMES
from tests.living_forest.helpers import acting, checked, make, play, put, start, to_row
from tests.stats import chi_square
from tests.strategies import final_state, random_game


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


def test_each_spirits_cards_shown_together_not_split():
    """Every Spirit's ``cards`` (its deck below the known top and its discard pile) are shown
    to all, sorted, as one multiset: which of them are in the deck is hidden."""
    state = final_state(start().game, 3)
    for seat in range(2):
        spirit = state.observation(1 - seat)["spirits"][seat]
        below = state.decks[seat][state.known[seat] :]
        assert spirit["cards"] == [CARD_NAMES[c] for c in sorted(below + state.discards[seat])]


def test_determinize_depends_only_on_the_view():
    """Two positions that differ only in how seat 1's cards are split between its deck and
    its discard pile look the same to seat 0, and seat 0's determinizations of them are the
    same; each keeps seat 1's cards, deck size and discard size."""
    state = start()
    rng = random.Random(1)
    while not (state.discards[1] and len(state.decks[1]) > state.known[1]):
        state = state.apply(rng.choice(state.legal_moves()))
    data = state.to_dict()
    spirit = data["spirits"][1]
    k = next(
        i
        for i in range(state.known[1], len(spirit["deck"]))
        if spirit["deck"][i] != spirit["discard"][0]
    )
    spirit["deck"][k], spirit["discard"][0] = spirit["discard"][0], spirit["deck"][k]
    spirit["discard"].sort(key=CARD_NAMES.index)
    other = state.game.state_from_dict(data)
    assert other != state and other.observation(0) == state.observation(0)
    for seed in (0, 5):
        sample = state.determinize(0, seed)
        assert other.determinize(0, seed) == sample
        assert sample.observation(0) == state.observation(0)
        assert len(sample.discards[1]) == len(state.discards[1])
        assert sorted(sample.decks[1] + sample.discards[1]) == sorted(
            state.decks[1] + state.discards[1]
        )
        state.game.state_from_dict(sample.to_dict())  # every invariant holds


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


def _listed(text, label, sep=" "):
    """The cards a text picture lists after each line starting ``label`` (its wrapped lines,
    indented 8, too), one list per such line; ``sep=","`` lists fold repeats (``Hare x2``)."""
    lists, lines = [], text.splitlines()
    for k, line in enumerate(lines):
        if not line.strip().startswith(label):
            continue
        words = [line.strip()[len(label) :]]
        for more in lines[k + 1 :]:
            if not more.startswith(" " * 8):
                break
            words.append(more.strip())
        items = [w.strip() for w in sep.join(words).split(sep) if w.strip()]
        cards = []
        for item in items:
            name, _, count = item.partition(" x")
            cards += [name] * (int(count) if count else 1)
        lists.append(cards)
    return lists


def _with_every_pile():
    """A mid-game position (2 Spirits) where every deck, discard and reserve stack has cards."""
    for state, _ in random_game(make(2), 1):
        data = state.to_dict()
        piles = [s["deck"] for s in data["spirits"]] + [s["discard"] for s in data["spirits"]]
        piles += [level["stack"] for level in data["reserve"].values()]
        if all(len(pile) > 1 for pile in piles):
            return state
    raise AssertionError("no position with every pile filled")


def test_text_shows_the_referee_every_pile_and_a_seat_only_its_own_cards():
    """The referee's text lists each deck and reserve stack top first and each discard pile;
    a seat's text lists its own discard and the rest of its own deck (unordered) and no
    deck order, stack or other Spirit's discard (docs/living_forest.md, pictures)."""
    state = _with_every_pile()
    data, referee = state.to_dict(), state.render()
    assert _listed(referee, "deck, top first:") == [s["deck"] for s in data["spirits"]]
    assert _listed(referee, "stack, top first:") == [
        level["stack"] for level in data["reserve"].values()
    ]
    discards = [Counter(s["discard"]) for s in data["spirits"]]
    assert [Counter(cards) for cards in _listed(referee, "discard:", ",")] == discards
    for seat in range(2):
        own = state.observation(seat)["spirits"][seat]
        text = state.render(seat)
        assert [Counter(c) for c in _listed(text, "discard:", ",")] == [Counter(own["discard"])]
        rest = _listed(text, "rest of deck (unordered):", ",")
        assert [Counter(c) for c in rest] == [Counter(own["deck_rest"])]
        assert not _listed(text, "deck, top first:") and not _listed(text, "stack, top first:")


def _svg_texts(svg):
    """The words of every <text> of an SVG picture."""
    import xml.etree.ElementTree as ET

    return [t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]


def test_svg_shows_the_referee_decks_and_next_stack_cards_and_a_seat_attracted_tops():
    """The referee's SVG writes each deck "top first" (from its top card, even with none
    attracted) and each reserve stack's next three cards; a seat's SVG writes only the
    cards attracted on top of a deck, which are public."""
    state = attracted()
    data = state.to_dict()
    referee = _svg_texts(state.to_svg())
    for spirit in data["spirits"]:
        first = [t for t in referee if t.startswith(f"top first: {spirit['deck'][0]} ")]
        assert len(first) == 1
    for level in data["reserve"].values():
        assert f"next: {' '.join(level['stack'][:3])}" in referee
    top = " ".join(data["spirits"][0]["deck"][: data["spirits"][0]["known"]])
    assert top == "Beaver Raven" and data["spirits"][1]["known"] == 0
    for seat in range(2):
        texts = _svg_texts(state.to_svg(seat))
        assert [t for t in texts if "top" in t and ":" in t] == [f"attracted on top: {top}"]
        assert not any(t.startswith("next:") for t in texts)


def test_determinize_deals_hidden_cards_uniformly():
    """Mid-game (3 Spirits, random game 1): over 4000 seeds of seat 0's determinization,
    the first card below another Spirit's known top, the first of seat 0's own deck below
    its known top and each reserve stack's top card follow their shares of the cards
    they are drawn from (chi-square under its p < 1e-4 bound; each share within 0.03), and
    each card's mean count in that Spirit's discard pile is its share of the discard's
    size (within 0.1): every split and order of the unseen cards equally likely."""
    game = start(3).game
    state = next(
        s
        for s, _ in random_game(game, 1)
        if len(s.discards[1]) >= 4 and len(s.decks[1]) - s.known[1] >= 4
    )
    draws = 4000
    samples = [state.determinize(0, seed) for seed in range(draws)]
    pool = state.decks[1][state.known[1] :] + state.discards[1]
    drawn_from = [
        (pool, [s.decks[1][s.known[1]] for s in samples]),
        (state.decks[0][state.known[0] :], [s.decks[0][s.known[0]] for s in samples]),
    ]
    drawn_from += [
        (stack, [s.stacks[k][0] for s in samples]) for k, stack in enumerate(state.stacks)
    ]
    for cards, firsts in drawn_from:
        law = {card: n / len(cards) for card, n in Counter(cards).items()}
        seen = Counter(firsts)
        statistic, bound = chi_square(seen, law, draws)
        assert statistic < bound, (cards, statistic)
        assert all(abs(seen[card] / draws - p) < 0.03 for card, p in law.items())
    discarded = Counter(card for s in samples for card in s.discards[1])
    share = len(state.discards[1]) / len(pool)
    for card, n in Counter(pool).items():
        assert abs(discarded[card] / draws - n * share) < 0.1, card
