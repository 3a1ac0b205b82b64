"""Rules the mutation audit found unpinned: each test fails if its rule is broken in the engine."""

import random
from collections import Counter
from itertools import combinations

import pytest

import forestgames as fg
from forestgames.boom_bokken import hidden
from forestgames.boom_bokken._tables import CARD_CODE
from forestgames.boom_bokken.rules import _shuffle
from forestgames.core import new_rng
from tests.boom_bokken.helpers import Boom, Play, TimeOut, groups, play, table
from tests.boom_bokken.test_rules import ROLES, ROLES5, TEAMS
from tests.strategies import final_state

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


# --------------------------------------------------------------- found by the December 2026 audit


def test_a_knock_from_the_known_bottom_shrinks_the_known_bottom_by_one():
    """Expert, every card dealt. Seat 0 leads 4 at seat 2 "higher", seat 2 answers 5 at
    seat 1 "higher", seat 1 (only 2s) explodes naming seat 2: the pile 4, 5 goes under the
    empty draw pile, all of it known (known bottom 2). Seat 2, a Cogneur, leads 3 at seat 3
    with a knock: seat 3 draws the top card, the 4, which everyone saw go there. So seat 3
    is known to hold the 4, and the known bottom is the one card left, the 5."""
    deck = {"1": 6, "2": 7, "3": 8, "4": 1, "5": 1, "6": 5}
    hands = [["4"] + ["1"] * 6, ["2"] * 7, ["5", "3"] + ["6"] * 5, ["3"] * 7]
    state = table(hands, TEAMS, leader=0, roles=ROLES, deck=deck)
    state = play(state, "0:play 4 @2 higher", "2:play 5 @1 higher", "1:boom @2")
    assert state.deck_bottom == ("4", "5") and state.known_bottom == 2
    state = play(state, "2:play 3 @3 higher knock")
    assert state.hand(3) == ("3",) * 7 + ("4",)
    assert state.known_cards(3) == ("4",)
    assert state.deck_bottom == ("5",) and state.known_bottom == 1 == state.deck_size


def test_no_seat_is_still_in_the_round_once_the_game_is_over():
    """After the third round every seat is safe or exploded: nobody is left in the round."""
    for seed in (1, 2):
        state = final_state(fg.make("boom_bokken", num_players=5), seed)
        assert state.is_terminal and state.round == 3
        assert state.players_in_round == ()


def test_deal_shuffle_is_the_standard_library_shuffle():
    """A deal's shuffle is ``random.Random.shuffle`` of the round's stream, step for step:
    Fisher-Yates, uniform over the orders (the last swap, of the first two cards, included),
    drawing nothing more, so that the next shuffle of the deal (the cards after the
    character cards) goes on from the same point of the stream."""
    for n in (2, 3, 7, 70):
        for seed in range(5):
            mine, theirs = random.Random(seed), random.Random(seed)
            for _ in range(2):
                cards, expected = list(range(n)), list(range(n))
                _shuffle(mine.getrandbits, cards)
                theirs.shuffle(expected)
                assert cards == expected, (n, seed)


# Every card is dealt (as in test_hidden's ALL_DEALT, with a second 5): a Boom puts the 5
# under the empty draw pile, a Temps Mort puts the 6 and itself under it, and seat 2, which
# holds a 5 of its own, draws that known 5.
TWO_FIVES = {"T": 2, "1": 6, "2": 6, "3": 6, "4": 5, "5": 2, "6": 1}
TWO_FIVES_HANDS = [
    ["5", "2", "2", "2", "2", "2", "2"],
    ["T", "1", "1", "1", "1", "1", "1"],
    ["T", "5", "4", "4", "4", "4", "4"],
    ["6", "3", "3", "3", "3", "3", "3"],
]


def test_a_known_card_beside_an_unknown_copy_is_dealt_again_with_the_hand():
    """Seat 2 holds two 5s, one known to all (drawn from the known bottom) and one not: the
    others' determinizations keep its 7 cards, the known 5 and the same cards in all (the
    unknown 5 is dealt again, not dropped)."""
    state = table(TWO_FIVES_HANDS, TEAMS, deck=TWO_FIVES)
    state = play(state, "0:play 5 @1 higher", "1:boom @3", "3:play 6 @2 lower", "2:timeout")
    assert state.known_cards(2) == ("5",) and state.hand(2).count("5") == 2
    everything = Counter(state.pile) + Counter(state.deck)
    for hand in state.hands:
        everything.update({code: n for code, n in enumerate(hand) if n})
    for seat in (0, 1, 3):
        for seed in range(6):
            sample = state.determinize(seat, seed)
            assert sample.hand_sizes == state.hand_sizes
            assert "5" in sample.hand(2)
            cards = Counter(sample.pile) + Counter(sample.deck)
            for hand in sample.hands:
                cards.update({code: n for code, n in enumerate(hand) if n})
            assert cards == everything
            assert sample.observation(seat) == state.observation(seat)


def _exact_deal_law(unseen, needs, constraints):
    """The law of (each seat's sorted cards) when every placement of the physical cards
    ``unseen`` (two copies are two cards) into ``needs`` places, the rest to the draw pile,
    that gives each constrained seat only allowed cards, is equally likely: brute force."""
    seats = sorted(needs)
    law = Counter()

    def place(k, left):
        if k == len(seats):
            return [()]
        out = []
        for chosen in combinations(left, needs[seats[k]]):
            if seats[k] in constraints and not all(
                unseen[i] in constraints[seats[k]] for i in chosen
            ):
                continue
            rest = tuple(i for i in left if i not in chosen)
            out += [(chosen, *tail) for tail in place(k + 1, rest)]
        return out

    for placement in place(0, tuple(range(len(unseen)))):
        law[tuple(tuple(sorted(unseen[i] for i in cards)) for cards in placement)] += 1
    total = sum(law.values())
    return {deal: n / total for deal, n in law.items()}


def _sampled_deals(codes, needs, constraints, seeds):
    """How often each deal (each seat's sorted cards) comes up over seeds 0..seeds-1."""
    seen = Counter()
    for seed in range(seeds):
        dealt = hidden._deal_constrained(new_rng(seed), codes, needs, constraints)
        seen[tuple(tuple(sorted(dealt[s])) for s in sorted(needs))] += 1
    return seen


def test_constrained_deal_with_a_low_and_two_high_seats_is_uniform():
    """Seat 0 exploded on a 4 "higher" (may hold Temps Mort, 1-3), seat 1 on a 4 "lower"
    (Temps Mort, 5-8), seat 2 on a 6 "lower" (Temps Mort, 7-8), seat 3 free, 2 cards each,
    two left for the draw pile, of T, T, 2, 3, 5, 5, 5, 7, 8, 8. Over 2500 seeds no deal
    appears that brute force does not allow, and every hand it allows a seat appears (seat 1
    may hold 5s, the lowest value it is allowed, though three 5s outnumber its two places;
    the 7 and 8s are open to both high seats); each seat's hand is within 0.06 of
    the uniform law in total variation, each code's mean count within 0.06."""
    codes = [CARD_CODE[c] for c in ("T", "T", "2", "3", "5", "5", "5", "7", "8", "8")]
    constraints = {
        0: hidden.allowed_codes((CARD_CODE["4"], True)),
        1: hidden.allowed_codes((CARD_CODE["4"], False)),
        2: hidden.allowed_codes((CARD_CODE["6"], False)),
    }
    needs = {0: 2, 1: 2, 2: 2, 3: 2}
    exact = _exact_deal_law(codes, needs, constraints)
    seeds = 2500
    seen = _sampled_deals(codes, needs, constraints, seeds)
    assert set(seen) <= set(exact)
    for k in range(len(needs)):
        law, freq = Counter(), Counter()
        for deal, p in exact.items():
            law[deal[k]] += p
        for deal, n in seen.items():
            freq[deal[k]] += n / seeds
        assert set(freq) == set(law), k
        distance = sum(abs(law[h] - freq[h]) for h in set(law) | set(freq)) / 2
        assert distance < 0.06, (k, distance)
        for code in set(codes):
            mean = sum(h.count(code) * p for h, p in law.items())
            sampled = sum(h.count(code) * p for h, p in freq.items())
            assert abs(mean - sampled) < 0.06, (k, code, mean, sampled)


def test_boom_ending_the_round_orders_the_rest_from_the_announcer_seat_0():
    """Teams 0/1/0/1, seat 3 leads. Seat 3 plays its last card (safe, 1st); seat 0 answers
    and names seat 1, who cannot answer and explodes: only team 0 is left, seats 0 and 2,
    safe clockwise from seat 0, the announcer (not from seat 1, the exploded seat): order
    3, 0, 2; coins 3, 0, 3, 4 (team 1 first: gold; team 0: silver); seat 0's token; seat 2,
    the last safe, leads round 2."""
    state = table([["5", "1"], ["2", "3"], ["4"], ["6"]], TEAMS, leader=3)
    state = play(state, "3:play 6 @0 lower", "0:play 5 @1 higher")
    assert set(state.legal_moves(1)) == {Boom(1)}
    state = play(state, "1:boom")
    assert state.history[0][0] == (3, 0, 2)
    assert state.coins == (3, 0, 3, 4) and state.tokens == (1, 0, 0, 0)
    assert state.round == 2 and state.leader == 2


def test_a_coureur_s_group_that_keeps_cards_names_a_target_though_one_opponent_is_left():
    """Expert, 5 players, teams 0/1/1/0/1, seat 4 the Coureur. Seats 1, 2, 3 play their last
    card in turn (each naming the next): seats 0 (team 0) and 4 (team 1) are left, seat 4
    named "higher" on a 3. Its answers with 3, 3 3 or 5 leave it cards, so none ends the
    round: each names seat 0 and announces; there is no final play without a target."""
    hands = [["8"], ["1"], ["2"], ["3"], ["3", "3", "5"]]
    state = table(hands, [0, 1, 1, 0, 1], leader=1, roles=ROLES5)
    state = play(state, "1:play 1 @2 higher", "2:play 2 @3 higher", "3:play 3 @4 higher")
    assert state.players_in_round == (0, 4) and state.named_player == 4
    plays = [m for m in state.legal_moves(4) if isinstance(m, Play)]
    assert {m.cards for m in plays} == {("3",), ("3", "3"), ("5",)}
    assert all(m.target == 0 and m.announce in ("higher", "lower") for m in plays)
    assert Play(4, ("3",), 0, "higher") in plays


def test_a_cogneur_knocks_with_either_announcement():
    """Expert: seat 2, a Cogneur, leading an orange 5 at seat 1 may knock with "higher" and
    with "lower" alike (the knock is the target's draw, whatever the announcement)."""
    state = table([["1"], ["2"], ["5", "3"], ["7"]], TEAMS, leader=2, roles=ROLES)
    moves = state.legal_moves(2)
    assert Play(2, ("5",), 1, "higher", True) in moves
    assert Play(2, ("5",), 1, "lower", True) in moves


def test_a_gardien_answers_the_top_card_not_the_first_one():
    """Expert, teams 0/1/0/1. Seat 0 leads 2 at seat 1 "higher"; seat 1 answers 6 at seat 2
    "higher". Seat 0, Gardien of seat 2's team, may answer in its place with its 7 (at least
    the top card, 6), not with its 4 (which would fit the 2 under it)."""
    state = table([["2", "4", "7"], ["6", "1"], ["1", "3"], ["8"]], TEAMS, roles=ROLES)
    state = play(state, "0:play 2 @1 higher", "1:play 6 @2 higher")
    assert state.named_player == 2 and 0 in state.players_to_act
    assert groups(state, 0) == {("7",)}


def test_constrained_deal_gives_a_high_seat_s_cards_only_to_its_free_places():
    """Seat 0 exploded on a 5 "higher" (may hold Temps Mort, 1-4), seat 1 on a 3 "lower"
    (Temps Mort, 4-8), seat 2 on a 7 "lower" (Temps Mort, 8), needing 2, 1 and 1 of T, 1, 3,
    5, 6, 7, seat 3 the other 2. No 8 is unseen, so seat 2 takes the T, seat 0 the 1 and the
    3, and seat 1 one of 5, 6, 7, each with 1/3 (the three are alike to every seat): the count
    of placements gives a 5, 6 or 7 no place of seat 2's. Over 3000 seeds exactly these three
    deals appear, each within 0.04 of 1/3."""
    codes = [CARD_CODE[c] for c in ("T", "1", "3", "5", "6", "7")]
    constraints = {
        0: hidden.allowed_codes((CARD_CODE["5"], True)),
        1: hidden.allowed_codes((CARD_CODE["3"], False)),
        2: hidden.allowed_codes((CARD_CODE["7"], False)),
    }
    needs = {0: 2, 1: 1, 2: 1, 3: 2}
    exact = _exact_deal_law(codes, needs, constraints)
    assert sorted(deal[1] for deal in exact) == [(5,), (6,), (7,)]
    assert all(
        deal[:3:2] == ((1, 3), (0,)) and p == pytest.approx(1 / 3) for deal, p in exact.items()
    )
    seeds = 3000
    seen = _sampled_deals(codes, needs, constraints, seeds)
    assert set(seen) == set(exact)
    assert all(abs(n / seeds - 1 / 3) < 0.04 for n in seen.values()), seen


def test_a_deal_with_no_temps_mort_for_a_temps_mort_only_seat_is_a_state_error():
    """Seat 1, an exploded leader, needs a Temps Mort and none is unseen (1 and 8 only);
    seat 2, exploded on a 2 "higher", may hold Temps Mort or a 1, so the deal counts a step
    for the 1. Every count is 0: a StateError, not a division of the counts by their
    largest, 0."""
    constraints = {1: hidden.allowed_codes(None), 2: hidden.allowed_codes((CARD_CODE["2"], True))}
    with pytest.raises(fg.StateError, match="no deal of the unseen cards"):
        hidden._deal_constrained(
            new_rng(0), [CARD_CODE["1"], CARD_CODE["8"]], {1: 1, 2: 1}, constraints
        )


# ------------------------------------------- found by the audit of rules.py's integer constants


def test_a_dealt_position_without_a_seed_is_the_one_of_seed_0():
    """``game.deal(hands, teams, leader)`` takes ``seed=0`` by default, as docs/boom_bokken.md
    writes its signature: the same position (hidden seed of the later deals included) as
    ``seed=0``, not that of seed 1."""
    game = fg.make("boom_bokken", num_players=4)
    hands = [["5"], ["2"], ["7"], ["1"]]
    default = game.deal(hands, TEAMS, 0)
    assert default == game.deal(hands, TEAMS, 0, seed=0)
    assert default != game.deal(hands, TEAMS, 0, seed=1)
    assert default.to_dict()["seed"] == 0


def test_an_illegal_boom_names_the_rule_it_breaks_whoever_is_named():
    """Seat 0 leads holding a 5: its Boom is refused as a leader holding a card to lead with,
    seat 2's as nobody being named (seat 0 leads). Once seat 1 leads 5 "higher" at seat 0,
    seat 0 (named, seat 0 the target) holds a 6: its Boom is refused for that card."""
    state = table([["5", "1"], ["2", "3"], ["4"], ["8"]], TEAMS)
    with pytest.raises(fg.IllegalMoveError, match="seat 0 leads and holds a card to lead with"):
        state.apply(Boom(0, 1))
    with pytest.raises(fg.IllegalMoveError, match="nobody is named; seat 0 leads"):
        state.apply(Boom(2, 1))
    named = play(
        table([["6", "1"], ["5", "3"], ["4"], ["8"]], TEAMS, leader=1), "1:play 5 @0 higher"
    )
    assert named.named_player == 0
    with pytest.raises(fg.IllegalMoveError, match="seat 0 holds a card higher than 5"):
        named.apply(Boom(0, 1))


def test_team_sizes_none_is_the_first_split_of_the_table():
    """``team_sizes=None`` asks for the default, the first split of the seed's row: 2+2+2 with
    6 players (not 3+3), 2+2 with 4 (the row's only split)."""
    assert fg.make("boom_bokken", num_players=6, team_sizes=None).team_sizes == (2, 2, 2)
    assert fg.make("boom_bokken", num_players=4, team_sizes=None).team_sizes == (2, 2)


def test_a_deck_count_is_0_to_99():
    """docs/boom_bokken.md's Options: a card's count is 0–99. 99 orange 5s make a deck;
    100 are refused naming the count; 0 Temps Mort is a count like any other."""
    game = fg.make("boom_bokken", num_players=4, deck={"5": 99, "T": 0})
    assert game.deck[CARD_CODE["5"]] == 99 and sum(game.deck) == 99
    with pytest.raises(fg.ConfigError, match="the count of '5'"):
        fg.make("boom_bokken", num_players=4, deck={"5": 100})


def test_an_out_of_turn_flash_is_judged_on_the_top_card_not_the_first_one():
    """Seat 0 leads 2 at seat 1 "higher", seat 1 answers 6 at seat 3 "higher": the pile is
    2, 6. Seat 2's F2 fits the 2 under the 6, not the top card, and is refused as a play out
    of turn (only a Flash of 6 may be); seat 1's F6 is refused as a Flash on its own 6; seat
    2's F6 naming itself is refused for its target, the Flash itself being fine; seat 3's 4,
    named, does not answer "higher" on the 6 (though it would on the 2)."""
    hands = [["2", "1"], ["6", "F6", "3"], ["F2", "F6", "4"], ["7", "4"]]
    state = play(table(hands, TEAMS), "0:play 2 @1 higher", "1:play 6 @3 higher")
    assert state.pile_cards == ("2", "6") and state.named_player == 3
    with pytest.raises(fg.IllegalMoveError, match="seat 3 is named; out of turn only a Flash of 6"):
        state.apply(Play(2, ("F2",), 0, "higher"))
    with pytest.raises(fg.IllegalMoveError, match="seat 1 played the 6 on top; no Flash on one's"):
        state.apply(Play(1, ("F6",), 0, "higher"))
    with pytest.raises(fg.IllegalMoveError, match="the target must be another seat"):
        state.apply(Play(2, ("F6",), 2, "higher"))
    assert Play(2, ("F6",), 0, "higher") in state.legal_moves(2)
    with pytest.raises(fg.IllegalMoveError, match="4 does not answer 'higher' on 6"):
        state.apply(Play(3, ("4",), 0, "higher"))


@pytest.mark.parametrize("move", [Play(-1, ("5",), 1, "higher"), TimeOut(-1), Boom(-1, 2)])
def test_a_move_of_seat_minus_1_is_refused_as_no_seat_of_the_game(move):
    """Seats are 0..3 in a 4-player game: a move of seat -1 (Play, Temps Mort or Boom) is an
    IllegalMoveError naming the seat, not an error of the engine's own."""
    state = fg.make("boom_bokken", num_players=4).new_game(seed=1)
    with pytest.raises(fg.IllegalMoveError, match="seat -1 is not in this game"):
        state.apply(move)


def test_a_leader_s_boom_ending_the_round_orders_the_rest_from_the_leader():
    """6 players, teams 0/1/2/0/1/2. Seat 5 leads its last 5 at seat 2 (safe 1st); seat 2,
    holding a 1, explodes naming seat 4, who leads its last 2 at seat 0 (safe 2nd). Seat 1
    plays its Temps Mort and draws the T on top of the draw pile: it leads holding only
    Temps Mort and explodes, nobody having announced. Only team 0 is left, seats 0 and 3,
    safe clockwise from seat 1, the exploding leader (docs: Choices, End of a round): 3
    then 0, so seat 0, the last safe, leads round 2."""
    hands = [["7", "8"], ["T"], ["1"], ["7", "8"], ["2"], ["5"]]
    state = table(hands, [0, 1, 2, 0, 1, 2], leader=5, deck_top=("T",))
    state = play(state, "5:play 5 @2 higher", "2:boom @4", "4:play 2 @0 higher", "1:timeout")
    assert state.leader == 1 and state.hand(1) == ("T",)
    assert set(state.legal_moves(1)) == {Boom(1)}
    state = play(state, "1:boom")
    assert state.history[0][0] == (5, 4, 3, 0)
    assert state.round == 2 and state.leader == 0


def test_an_illegal_boom_on_a_pile_of_two_is_judged_on_the_top_card():
    """Seat 0 leads 2 at seat 1 "higher"; seat 1 answers 6 at seat 2 "lower": the pile is
    2, 6. Seat 2 holds a 3, which answers "lower" on the 6 (not on the 2 under it): its Boom
    is refused naming that rule and the 6."""
    state = table([["2", "1"], ["6", "3"], ["3", "8"], ["8"]], TEAMS)
    state = play(state, "0:play 2 @1 higher", "1:play 6 @2 lower")
    with pytest.raises(fg.IllegalMoveError, match="seat 2 holds a card lower than 6"):
        state.apply(Boom(2, 3))


def test_a_seat_keeping_a_second_flash_of_a_value_may_still_flash_it():
    """distinct_flashers, seat 2 holds two F5. Seat 0 leads 5 at seat 1; seat 2 flashes one
    F5 at seat 3 "lower"; seat 3 answers an orange 5 at seat 0 "lower" (the run is over).
    Seat 2 still holds an F5 and may flash it on seat 3's 5: it is among the seats to act,
    the F5 among its moves."""
    hands = [["5", "1"], ["8"], ["F5", "F5", "4"], ["5", "2"]]
    state = table(hands, TEAMS, distinct_flashers=True)
    state = play(state, "0:play 5 @1 higher", "2:play F5 @3 lower", "3:play 5 @0 lower")
    assert state.hand(2) == ("4", "F5") and state.flashers == 0
    assert 2 in state.players_to_act and groups(state, 2) == {("F5",)}


# ------------------------------------------ found by the audit of _tables.py's integer constants


def test_an_orange_8_starts_no_run_of_flash_cards():
    """distinct_flashers: seat 0 leads an orange 8 at seat 1 "lower"; the top card is no Flash,
    so the seats of the run on top are none, ``[]`` in the saved state (docs: "`[]` when the
    top card is no Flash"); seat 2's F8 then starts a run of its own."""
    state = table([["8", "1"], ["2"], ["F8", "3"], ["4"]], TEAMS, distinct_flashers=True)
    state = play(state, "0:play 8 @1 lower")
    assert state.flashers == 0 and state.to_dict()["flashers"] == []
    state = play(state, "2:play F8 @3 lower")
    assert state.flashers == 1 << 2 and state.to_dict()["flashers"] == [2]


def test_a_flash_1_is_a_flash_of_the_run():
    """distinct_flashers, a deck with three F1 (the rest as the default). Seat 0 leads 1 at
    seat 1 "higher"; seat 2 flashes an F1 at seat 3 "higher" (the run on top: ``[2]``), seat 1
    flashes its F1 on it at seat 3 (``[1, 2]``): seat 2, holding a second F1, may not flash
    again on this run (A, B, then A again is what the option forbids)."""
    deck = {"T": 6, **{str(v): 6 for v in range(1, 9)}, **{f"F{v}": 2 for v in range(1, 9)}}
    hands = [["1", "5"], ["F1", "6"], ["F1", "F1", "4"], ["7", "8"]]
    state = table(hands, TEAMS, distinct_flashers=True, deck={**deck, "F1": 3})
    state = play(state, "0:play 1 @1 higher", "2:play F1 @3 higher")
    assert state.flashers == 1 << 2 and state.to_dict()["flashers"] == [2]
    state = play(state, "1:play F1 @3 higher")
    assert state.to_dict()["flashers"] == [1, 2]
    assert ("F1",) not in groups(state, 2) and state.hand(2) == ("4", "F1")


def test_a_game_built_by_its_class_has_make_s_defaults():
    """BoomBokkenGame(num_players=n) is make's game: the default teams and deck (for Expert
    mode too), and a bad player count is a ConfigError (the class asked for team_sizes and
    deck, a TypeError)."""
    for players in range(4, 10):
        for expert in (False, True):
            built = fg.boom_bokken.BoomBokkenGame(num_players=players, expert=expert)
            assert built == fg.make("boom_bokken", num_players=players, expert=expert)
    with pytest.raises(fg.ConfigError, match="Boom Bokken is played by 4 to 9 players, not 3"):
        fg.boom_bokken.BoomBokkenGame(num_players=3)
