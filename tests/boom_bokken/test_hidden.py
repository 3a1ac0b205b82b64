"""Hidden information: what a seat sees, and the positions determinize deals in its place."""

import json
import math
import random
from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import forestgames as fg
from forestgames.boom_bokken import hidden
from forestgames.boom_bokken._tables import CARD_CODE, CARD_VALUE, NUM_CODES
from forestgames.core import new_rng
from tests.boom_bokken.helpers import play, table
from tests.strategies import playthroughs

TEAMS = [0, 1, 0, 1]
# Every card is dealt: a Boom puts the 5 under the empty draw pile, a Temps Mort then puts
# the 6 and itself under it, and its player draws the 5 that everyone saw go there.
ALL_DEALT = {"T": 2, "1": 6, "2": 6, "3": 6, "4": 6, "5": 1, "6": 1}
ALL_DEALT_HANDS = [
    ["5", "2", "2", "2", "2", "2", "2"],
    ["T", "1", "1", "1", "1", "1", "1"],
    ["T", "4", "4", "4", "4", "4", "4"],
    ["6", "3", "3", "3", "3", "3", "3"],
]


def _cards(state):
    total = Counter(state.pile) + Counter(state.deck)
    for hand in state.hands:
        total.update({code: n for code, n in enumerate(hand) if n})
    total[0] += state.aside
    return total


def _known_draw():
    """The position after seat 2's Temps Mort drew the known 5 (see ALL_DEALT)."""
    state = table(ALL_DEALT_HANDS, TEAMS, deck=ALL_DEALT)
    assert state.deck == ()
    return play(state, "0:play 5 @1 higher", "1:boom @3", "3:play 6 @2 lower", "2:timeout")


def test_observation_of_a_scripted_position():
    """Seat 1 sees its own hand, the sizes of the others, the pile and the announcement."""
    state = table([["5", "1"], ["2", "T"], ["4", "F5"], ["7"]], TEAMS, deck_top=("8",))
    state = play(state, "0:play 5 @1 higher")
    view = state.observation(1)
    assert view["hand"] == ["T", "2"]
    assert view["hand_sizes"] == [1, 2, 2, 1]
    assert view["deck_size"] == state.deck_size
    assert view["pile"] == ["5"] and view["target"] == 1 and view["announce"] == "higher"
    assert view["last_player"] == 0 and view["teams"] == [0, 1, 0, 1]
    assert "F5" not in str(view) and "deck" not in view and "hands" not in view
    assert view["deck_bottom"] == [] and view["known_cards"] == [[], [], [], []]
    assert view["exploded_on"] == []


def test_observation_keys_are_the_public_ones():
    """A view has the seat's own hand, sizes, the known deck bottom and the public fields of
    to_dict (the game's name and player count included); never the hidden seed, the other
    hands or the order of the deck."""
    state = fg.make("boom_bokken", num_players=5).new_game(seed=4)
    view = state.observation(2)
    hidden = {"seed", "hands", "deck", "known_bottom"}
    public = set(state.to_dict()) - hidden
    assert set(view) == public | {"observer", "hand", "hand_sizes", "deck_size", "deck_bottom"}
    json.dumps(view)


def test_boom_keeps_the_pile_at_the_bottom_of_the_draw_pile():
    """After a Boom the pile lies under the draw pile where every seat saw it go; every
    determinization keeps it there, in order, and deals the rest of the deck anew."""
    state = table([["5", "1"], ["2", "3"], ["4", "6"], ["7", "8"]], TEAMS)
    state = play(state, "0:play 5 @1 lower", "1:play 3 @2 higher", "2:play 4 @3 lower")
    state = play(state, "3:boom @0")
    assert state.known_bottom == 3 and state.deck_bottom == ("5", "3", "4")
    for seat in range(4):
        view = state.observation(seat)
        assert view["deck_bottom"] == ["5", "3", "4"]
        tops = set()
        for seed in range(12):
            sample = state.determinize(seat, seed)
            assert sample.deck[-3:] == state.deck[-3:]
            assert sample.observation(seat) == view
            tops.add(sample.deck[:5])
        assert len(tops) > 1  # the unknown part is dealt anew


def test_temps_mort_puts_pile_and_itself_under_the_draw_pile():
    """A Temps Mort (spent_time_outs='deck') adds the pile and the Temps Mort to the known
    bottom; set aside, only the pile."""
    state = table([["5", "1"], ["2", "6"], ["4", "T"], ["7"]], TEAMS)
    state = play(state, "0:play 5 @1 higher", "2:timeout")
    assert state.deck_bottom == ("5", "T")
    state = table([["5", "1"], ["2", "6"], ["4", "T"], ["7"]], TEAMS, spent_time_outs="aside")
    state = play(state, "0:play 5 @1 higher", "2:timeout")
    assert state.deck_bottom == ("5",) and state.aside == 1


def test_a_card_drawn_from_the_known_bottom_is_known_to_all():
    """With every card dealt, the Boom's 5 is the whole draw pile; seat 2's Temps Mort puts
    the 6 and itself under it and draws the 5: everyone knows seat 2 holds it, and every
    determinization keeps it there, with the 6 and the Temps Mort as the draw pile."""
    state = _known_draw()
    assert state.known_cards(2) == ("5",) and state.hand(2).count("5") == 1
    assert state.deck_bottom == ("6", "T") and state.known_bottom == 2 == state.deck_size
    for seat in (0, 1, 3):
        assert state.observation(seat)["known_cards"] == [[], [], ["5"], []]
        for seed in range(8):
            sample = state.determinize(seat, seed)
            assert "5" in sample.hand(2) and sample.deck == state.deck
            assert sample.observation(seat) == state.observation(seat)
    state = play(state, "2:play 5 @3 higher")
    assert state.known_cards(2) == ()


def test_a_saved_state_keeps_the_known_cards_and_loads_back():
    """The position of the test above saves seat 2's known 5 (its only 5) and the two known
    cards under the draw pile, and loads back equal."""
    state = _known_draw()
    data = state.to_dict()
    assert data["known_cards"] == [[], [], ["5"], []] and data["known_bottom"] == 2
    assert state.game.state_from_dict(data) == state


def test_exploded_seat_is_dealt_nothing_it_could_have_answered_with():
    """Seat 1 exploded on a 5 'higher': no determinization gives it a card of 5 or more,
    though the unknown cards hold many."""
    state = table([["5", "1"], ["2", "3", "T"], ["4", "6"], ["7", "8"]], TEAMS)
    state = play(state, "0:play 5 @1 higher", "1:boom @2")
    assert state.exploded_on == ((CARD_CODE["5"], True),)
    assert state.observation(0)["exploded_on"] == [["5", "higher"]]
    for seat in (0, 2, 3):
        for seed in range(30):
            hand = state.determinize(seat, seed).hand(1)
            assert len(hand) == 3
            assert all(card == "T" or CARD_VALUE[CARD_CODE[card]] < 5 for card in hand), hand


def test_exploded_leader_holds_only_temps_mort_in_every_determinization():
    """A leader who exploded holding only Temps Mort is dealt only Temps Mort in its place."""
    state = play(table([["T", "T"], ["2"], ["4"], ["7"]], TEAMS), "0:boom @1")
    assert state.observation(1)["exploded_on"] == [None]
    for seed in range(20):
        assert state.determinize(2, seed).hand(0) == ("T", "T")


def test_determinize_keeps_the_random_stream():
    """determinize(seat, seed) deals the same sample for the same seed (pinned: the unseen
    cards, sorted, shuffled by the seed's stream)."""
    state = fg.make("boom_bokken", num_players=5).new_game(seed=3)
    sample = state.determinize(2, 11).to_dict()
    assert sample["hands"][0] == ["T", "1", "2", "F2", "F4", "F5", "F8"]
    assert sample["hands"][4] == ["4", "6", "7", "8", "8", "8", "F1"]
    assert sample["deck"][:6] == ["8", "1", "F7", "1", "F4", "T"]
    assert sample["seed"] == 4178807061501601403


# Seat 1 explodes on a 6 "higher" (it may hold Temps Mort and values 1-5), seat 2 on a 2
# "lower" (Temps Mort and 3-8): their allowed cards overlap in Temps Mort and the 4s. Every
# card is dealt, so seat 3 sees the known 6 and 2 under an empty draw pile and deals the 19
# cards of seats 0, 1 and 2 again.
OVERLAP_HANDS = [
    ["6", "2", "4", "7", "7", "T", "2"],
    ["2", "2", "4", "4", "T", "T", "2"],
    ["4", "6", "6", "7", "7", "T", "4"],
    ["2", "4", "6", "6", "7", "T", "4"],
]


def _overlap_position():
    """Seats 1 and 2 exploded with overlapping allowed cards (see OVERLAP_HANDS)."""
    deck = dict(Counter(card for hand in OVERLAP_HANDS for card in hand))
    state = table(OVERLAP_HANDS, TEAMS, deck=deck)
    return play(state, "0:play 6 @1 higher", "1:boom @0", "0:play 2 @2 lower", "2:boom @3")


def _uniform_hands(state, seat):
    """The exact law of the other seats' hands (as count tuples) when every placement of
    the physical cards ``seat`` cannot see, that keeps the exploded seats' facts, is equally
    likely: the weight of a split is prod over codes of n! / (each seat's count)!."""
    others = [s for s in range(state.game.num_players) if s != seat]
    pool = Counter()
    for other in others:
        pool.update({code: n for code, n in enumerate(state.hands[other]) if n})
    allowed = {
        s: hidden.allowed_codes(f) for s, f in zip(state.exploded, state.exploded_on, strict=True)
    }
    law = Counter()

    def split(k, left, hands):
        if k == len(others):
            weight = 1
            for code, n in pool.items():
                weight *= math.factorial(n)
                for hand in hands:
                    weight //= math.factorial(hand.get(code, 0))
            law[tuple(_counts(hand) for hand in hands)] += weight
            return
        codes = sorted(c for c in left if left[c] and c in allowed.get(others[k], left))
        size = sum(state.hands[others[k]])
        for combo in combinations_with_replacement(codes, size):
            hand = Counter(combo)
            if all(hand[c] <= left[c] for c in hand):
                split(k + 1, left - hand, [*hands, hand])

    split(0, pool, [])
    total = sum(law.values())
    return {hands: weight / total for hands, weight in law.items()}


def _counts(hand):
    """A Counter of codes as a hand's count tuple."""
    return tuple(hand.get(code, 0) for code in range(NUM_CODES))


def test_determinize_is_uniform_over_the_deals_the_seat_cannot_rule_out():
    """Over 3000 seeds the three hidden hands follow the exact uniform law (every placement
    of the unseen physical cards keeping the exploded seats' facts equally likely, counted
    by brute force here): total variation below 0.2 on the 342 joint deals and 0.1 on each
    seat's hand (sampling noise alone: about 0.1 and 0.03-0.06), each code's mean count
    within 0.06 card. The greedy deal before 0.2.0 was 0.47 away on the joint deals, 0.36
    to 0.46 on each hand, and off by up to 0.7 card in a mean."""
    state = _overlap_position()
    assert state.exploded == (1, 2)
    exact = _uniform_hands(state, 3)
    seeds = 3000
    seen = Counter(
        tuple(state.determinize(3, seed).hands[s] for s in (0, 1, 2)) for seed in range(seeds)
    )
    assert set(seen) <= set(exact)
    joint = sum(abs(exact.get(h, 0) - seen[h] / seeds) for h in set(exact) | set(seen)) / 2
    assert joint < 0.2, joint
    for k in range(3):
        law, freq = Counter(), Counter()
        for hands, p in exact.items():
            law[hands[k]] += p
        for hands, n in seen.items():
            freq[hands[k]] += n / seeds
        distance = sum(abs(law[h] - freq[h]) for h in set(law) | set(freq)) / 2
        assert distance < 0.1, (k, distance)
        for code in range(NUM_CODES):
            mean = sum(h[code] * p for h, p in law.items())
            sampled = sum(h[code] * p for h, p in freq.items())
            assert abs(mean - sampled) < 0.06, (k, code, mean, sampled)


def test_constrained_deal_is_uniform_on_the_smallest_overlap():
    """Seat A may hold 1-3 (Temps Mort aside), seat B 1-2, one card each of 1, 2, 3: the four
    deals (A, B) = (1, 2), (2, 1), (3, 1), (3, 2) are equally likely (the greedy deal gave
    A the 3 a third of the time, not half), over 4000 seeds each within 0.03."""
    higher_4, higher_3 = (CARD_CODE["4"], True), (CARD_CODE["3"], True)
    constraints = {0: hidden.allowed_codes(higher_4), 1: hidden.allowed_codes(higher_3)}
    seen = Counter()
    for seed in range(4000):
        dealt = hidden._deal_constrained(new_rng(seed), [1, 2, 3], {0: 1, 1: 1}, constraints)
        seen[dealt[0][0], dealt[1][0]] += 1
    assert set(seen) == {(1, 2), (2, 1), (3, 1), (3, 2)}
    assert all(abs(n / 4000 - 0.25) < 0.03 for n in seen.values()), seen


def test_constrained_deal_of_seven_exploded_seats_stays_small():
    """Seven exploded seats, four low and three high, each needing 5 of 40 unseen cards:
    the plan's tables are three counts a state (designated, waiting, high), whatever the
    number of seats, one table a step, and the deal keeps every seat's facts."""
    facts = [
        (CARD_CODE["3"], True),
        (CARD_CODE["6"], True),
        (CARD_CODE["7"], True),
        (CARD_CODE["F8"], True),
        (CARD_CODE["2"], False),
        (CARD_CODE["4"], False),
        (CARD_CODE["5"], False),
    ]
    constraints = {seat: hidden.allowed_codes(fact) for seat, fact in enumerate(facts)}
    needs = {seat: 5 for seat in range(7)} | {7: 3}
    unseen = sorted([0] * 4 + [code for code in range(1, NUM_CODES) for _ in range(2)] + [5, 6])
    plan = hidden._Plan.of(unseen, needs, constraints)
    dealt = hidden._deal_constrained(new_rng(1), unseen, needs, constraints)
    assert len(plan.steps) < 20 and plan.tables[0].shape == (21, 5, 16)
    for seat, allowed in constraints.items():
        assert len(dealt[seat]) == 5 and set(dealt[seat]) <= allowed
    assert Counter(c for cards in dealt.values() for c in cards) == Counter(unseen)


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, "7", True, [1], None])
def test_determinize_refuses_bad_seeds(bad):
    """A seed must be a non-negative int below 2**64: anything else is a ConfigError."""
    state = fg.make("boom_bokken", num_players=4).new_game(seed=1)
    with pytest.raises(fg.ConfigError, match="seed must be"):
        state.determinize(0, bad)


GAMES = [
    fg.make("boom_bokken", num_players=4),
    fg.make("boom_bokken", num_players=7, spent_time_outs="aside"),
    fg.make("boom_bokken", num_players=5, expert=True),
    fg.make("boom_bokken", num_players=6, expert=True, spent_time_outs="deck"),
    fg.make("boom_bokken", num_players=4, deck=ALL_DEALT | {"7": 6}),
]


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(GAMES).flatmap(playthroughs), st.integers(0, 2**31))
def test_determinize_keeps_everything_the_seat_knows(states, seed):
    """A determinization has the seat's exact view, the same cards in all, the known bottom
    and known cards in place, nothing an exploded seat could have answered with, and is a
    state the rules could reach (it loads back); the hidden part is dealt anew."""
    rng = random.Random(seed)
    state = states[rng.randrange(len(states))]
    seat = rng.randrange(state.game.num_players)
    view = state.observation(seat)
    assert "hands" not in view and "deck" not in view and "seed" not in view
    assert view["hand"] == list(state.hand(seat))
    assert view["hand_sizes"] == list(state.hand_sizes) and view["deck_size"] == state.deck_size
    samples = [state.determinize(seat, seed + k) for k in range(4)]
    for sample in samples:
        assert sample.observation(seat) == view and _cards(sample) == _cards(state)
        assert sample.legal_moves(seat) == state.legal_moves(seat)
        assert sample.game.state_from_dict(sample.to_dict()) == sample
    hidden = [(s.deck, s.hands[:seat] + s.hands[seat + 1 :]) for s in samples]
    if not (state.known_bottom or any(state.known) or state.exploded):
        unseen = Counter(state.deck)
        for other, hand in enumerate(state.hands):
            if other != seat:
                unseen.update({code: n for code, n in enumerate(hand) if n})
        if sum(unseen.values()) > 3 and len(unseen) > 2:
            assert len(set(hidden)) > 1


def test_a_position_determinized_again_reuses_its_plan_and_deals_the_same():
    """A search determinizes one position many times: its plan is built once, shared with
    read-only tables, and a seed deals the same with the plan cached as freshly built."""
    state = _overlap_position()
    hidden._plan_of_counts.cache_clear()
    fresh = [state.determinize(3, seed) for seed in range(4)]
    info = hidden._plan_of_counts.cache_info()
    assert (info.misses, info.hits) == (1, 3)
    assert [state.determinize(3, seed) for seed in range(4)] == fresh
    hidden._plan_of_counts.cache_clear()
    assert [state.determinize(3, seed) for seed in (3, 2, 1, 0)] == fresh[::-1]
    constraints = {0: hidden.allowed_codes((CARD_CODE["4"], True))}
    plan = hidden._Plan.of([1, 2, 3, 4], {0: 1, 1: 3}, constraints)
    assert hidden._Plan.of([1, 2, 3, 4], {0: 1, 1: 3}, constraints) is plan
    with pytest.raises(ValueError, match="read-only"):
        plan.tables[0][0, 0, 0] = 0


@pytest.mark.parametrize(
    ("unseen", "constraints"),
    [([1, 2, 8], {1: frozenset({0})}), ([0, 2, 8], {1: frozenset({0, 1})})],
    ids=["temps-mort-only", "low-seat"],
)
def test_a_deal_no_placement_allows_is_a_state_error(unseen, constraints):
    """A hand-built position whose exploded seat cannot be dealt its cards is a StateError."""
    with pytest.raises(fg.StateError, match="no deal of the unseen cards"):
        hidden._deal_constrained(new_rng(0), unseen, {1: 2, 2: 1}, constraints)
