"""Scripted chains of the base game: announcements, Boom, safety, Flash, Temps Mort, round end.

Positions are dealt by hand (``game.deal``); seats 0..3 play in teams 0/1/0/1
unless a test says otherwise. The draw pile is ``deck_top`` followed by the
rest of the deck in card order (Temps Mort first).
"""

import random

import pytest

import forestgames as fg
from forestgames.boom_bokken import Boom, Play, TimeOut
from tests.boom_bokken.positions import groups, play, table

TEAMS = [0, 1, 0, 1]


def test_higher_asks_for_equal_or_more():
    """After a 5 'higher' the named seat may answer 5, 8 or a Flash 6, not its 3."""
    state = table([["5", "1"], ["3", "5", "8", "F6"], ["2"], ["7"]], TEAMS)
    state = play(state, "0:play 5 @1 higher")
    assert state.current_player == 1 and state.announcement == "higher" and state.top_card == "5"
    assert groups(state, 1) == {("5",), ("8",), ("F6",)}


def test_lower_asks_for_equal_or_less():
    """After a 5 'lower' the named seat may answer its 3 or its 5 only."""
    state = play(
        table([["5", "1"], ["3", "5", "8", "F6"], ["2"], ["7"]], TEAMS), "0:play 5 @1 lower"
    )
    assert groups(state, 1) == {("3",), ("5",)}


def test_flash_card_sets_the_announced_value():
    """An answer with a Flash 6 is itself a lead: 'lower' then asks for 6 or less."""
    state = table([["5", "1"], ["3", "F6"], ["2", "7", "6"], ["7"]], TEAMS)
    state = play(state, "0:play 5 @1 higher", "1:play F6 @2 lower")
    assert state.current_player == 2 and state.top_card == "F6" and state.last_player == 1
    assert groups(state, 2) == {("2",), ("6",)}


def test_lower_after_one_asks_for_a_one():
    """Both announcements stay legal on a 1; 'lower' after a 1 is answered by a 1 only."""
    state = table([["1", "4"], ["1", "2"], ["3"], ["7"]], TEAMS)
    announcements = {m.announce for m in state.legal_moves(0) if m.cards == ("1",)}
    assert announcements == {"higher", "lower"}
    state = play(state, "0:play 1 @1 lower")
    assert groups(state, 1) == {("1",)}


def test_lead_names_any_other_player_in_the_round_teammates_included():
    """A lead names any other seat still in the round, its teammate too, never itself."""
    state = table([["5", "1"], ["3"], ["2"], ["7"]], TEAMS)
    targets = {m.target for m in state.legal_moves(0)}
    assert targets == {1, 2, 3}
    with pytest.raises(fg.IllegalMoveError, match="target"):
        state.apply(Play(0, ("5",), 0, "higher"))


def test_boom_when_no_card_fits_gives_the_announcer_a_token():
    """Seat 1 holds nothing >= 5: it explodes, seat 0 takes a token, the pile goes under
    the deck and seat 1 names seat 3 to lead on an empty pile."""
    state = table([["5", "1"], ["2", "3"], ["4"], ["7"]], TEAMS)
    state = play(state, "0:play 5 @1 higher")
    assert set(state.legal_moves(1)) == {Boom(1, 0), Boom(1, 2), Boom(1, 3)}
    deck_before = state.deck
    state = play(state, "1:boom @3")
    assert state.exploded == (1,) and 1 not in state.players_in_round
    assert state.tokens == (1, 0, 0, 0)
    assert state.pile == () and state.deck == deck_before + (5,)
    assert state.leader == 3 and state.current_player == 3 and state.players_to_act == (3,)
    assert state.hand(1) == ("2", "3")  # kept out of play until the round ends
    assert state.scores == (2, 0, 0, 0)


def test_boom_is_illegal_while_a_card_fits():
    """A named seat holding a fitting card may not explode."""
    state = play(table([["5", "1"], ["2", "6"], ["4"], ["7"]], TEAMS), "0:play 5 @1 higher")
    assert not any(isinstance(m, Boom) for m in state.legal_moves(1))
    with pytest.raises(fg.IllegalMoveError, match="holds a card"):
        state.apply(Boom(1, 3))


def test_others_may_interject_before_the_boom():
    """While the named seat can only explode, a seat with a Flash of the top value may act."""
    state = play(table([["5", "1"], ["2"], ["F5", "4"], ["7"]], TEAMS), "0:play 5 @1 higher")
    assert state.players_to_act == (1, 2)


def test_exploded_player_names_a_next_leader_still_in_the_round():
    """The next leader is a seat still in the round: not the exploded seat, not a safe one."""
    state = table([["5"], ["2"], ["4", "6"], ["7", "8"]], TEAMS)
    state = play(state, "0:play 5 @1 higher")  # seat 0 is safe
    assert {m.next_leader for m in state.legal_moves(1)} == {2, 3}
    with pytest.raises(fg.IllegalMoveError, match="next leader"):
        state.apply(Boom(1, 0))


def test_empty_hand_is_safe_and_can_no_longer_be_named():
    """Seat 0 plays its last card: safe 1st, still naming a target; nobody may name it after."""
    state = table([["5"], ["6", "2"], ["4"], ["7"]], TEAMS)
    assert Play(0, ("5",)) not in state.legal_moves(0)  # the round goes on: a target is named
    state = play(state, "0:play 5 @1 higher")
    assert state.safe == (0,) and state.players_in_round == (1, 2, 3)
    assert {m.target for m in state.legal_moves(1)} == {2, 3}
    assert state.legal_moves(0) == ()
    with pytest.raises(fg.IllegalMoveError, match="out of this round"):
        state.apply(TimeOut(0))


def test_flash_steals_the_lead():
    """Any seat may cover a 5 with a Flash 5 out of turn, then names and announces itself;
    the named seat's obligation is gone."""
    state = table([["5", "1"], ["2", "3"], ["F5", "4"], ["6", "7"]], TEAMS)
    state = play(state, "0:play 5 @1 higher")
    assert state.players_to_act == (1, 2)
    assert groups(state, 2) == {("F5",)}
    state = play(state, "2:play F5 @3 lower")
    assert state.current_player == 3 and state.last_player == 2 and state.announcement == "lower"
    assert state.legal_moves(1) == ()
    assert state.pile_cards == ("5", "F5")


def test_flash_may_not_cover_ones_own_card():
    """Seat 0 may not Flash on the 5 it just played, but may again after another's Flash."""
    state = table([["5", "F5", "1"], ["2"], ["F5", "4"], ["7"]], TEAMS)
    state = play(state, "0:play 5 @1 higher")
    assert state.legal_moves(0) == () and 0 not in state.players_to_act
    with pytest.raises(fg.IllegalMoveError, match="own card"):
        state.apply(Play(0, ("F5",), 3, "lower"))
    state = play(state, "2:play F5 @1 higher")
    assert groups(state, 0) == {("F5",)}
    state = play(state, "0:play F5 @3 lower")
    assert state.last_player == 0 and state.pile_cards == ("5", "F5", "F5")


def test_flash_needs_the_same_value():
    """A Flash 4 may not be played out of turn on a 5."""
    state = play(table([["5", "1"], ["2"], ["F4", "4"], ["7"]], TEAMS), "0:play 5 @1 higher")
    assert state.legal_moves(2) == ()
    with pytest.raises(fg.IllegalMoveError, match="out of turn"):
        state.apply(Play(2, ("F4",), 3, "lower"))


def test_temps_mort_clears_the_pile_draws_and_leads():
    """Seat 3 plays a Temps Mort out of turn: the pile and the Temps Mort go under the deck,
    seat 3 draws the top card (an 8) and leads on an empty pile; nobody else may act, not
    even seat 2 with its own Temps Mort (never a Temps Mort on a Temps Mort)."""
    state = table([["5", "1"], ["2", "6"], ["4", "T"], ["T", "7"]], TEAMS, deck_top=("8",))
    state = play(state, "0:play 5 @1 higher")
    assert 3 in state.players_to_act and TimeOut(3) in state.legal_moves(3)
    deck_before = state.deck
    state = play(state, "3:timeout")
    assert state.hand(3) == ("7", "8")
    assert state.deck == deck_before[1:] + (5, 0)  # the 5 then the Temps Mort at the bottom
    assert state.pile == () and state.leader == 3 and state.named_player is None
    assert state.players_to_act == (3,) and state.legal_moves(2) == ()
    with pytest.raises(fg.IllegalMoveError, match="pile is empty"):
        state.apply(TimeOut(2))
    assert {m.cards for m in state.legal_moves(3)} == {("7",), ("8",)}


def test_temps_mort_by_the_named_player_instead_of_exploding():
    """The named seat without a fitting card may play a Temps Mort instead of Boom."""
    state = table([["5", "1"], ["2", "T"], ["4"], ["7"]], TEAMS, deck_top=("3",))
    state = play(state, "0:play 5 @1 higher")
    assert set(state.legal_moves(1)) == {Boom(1, 0), Boom(1, 2), Boom(1, 3), TimeOut(1)}
    state = play(state, "1:timeout")
    assert state.exploded == () and state.tokens == (0, 0, 0, 0)
    assert state.hand(1) == ("2", "3") and state.leader == 1


def test_no_temps_mort_on_an_empty_pile():
    """A Temps Mort needs a card on the pile: the leader cannot open with one."""
    state = table([["5", "T"], ["2"], ["4"], ["T", "7"]], TEAMS)
    assert TimeOut(0) not in state.legal_moves(0) and state.legal_moves(3) == ()
    with pytest.raises(fg.IllegalMoveError, match="pile is empty"):
        state.apply(TimeOut(3))


def test_temps_mort_set_aside_option():
    """With spent_time_outs='aside' the Temps Mort leaves the round; the pile goes under the deck"""
    state = table(
        [["5", "1"], ["2"], ["4"], ["T", "7"]], TEAMS, deck_top=("8",), spent_time_outs="aside"
    )
    state = play(state, "0:play 5 @1 higher")
    deck_before = state.deck
    state = play(state, "3:timeout")
    assert state.aside == 1 and state.deck == deck_before[1:] + (5,)
    assert state.hand(3) == ("7", "8")


def test_leader_holding_only_temps_mort_explodes():
    """[choice] A leader whose hand is only Temps Mort cards explodes; nobody takes a token."""
    state = table([["T"], ["2"], ["4"], ["7"]], TEAMS)
    assert set(state.legal_moves(0)) == {Boom(0, 1), Boom(0, 2), Boom(0, 3)}
    state = play(state, "0:boom @2")
    assert state.exploded == (0,) and state.tokens == (0, 0, 0, 0) and state.leader == 2


def test_round_ends_when_one_team_remains_and_last_safe_leads_next():
    """Seats 0 and 2 (team 0) go out; seats 1 and 3 are safe clockwise from seat 2, the last
    leader: order 0, 2, 3, 1; coins 4, 3, 4, 3; seat 1 leads round 2 with new hands."""
    state = table([["5"], ["1", "2"], ["6"], ["7", "8"]], TEAMS)
    state = play(state, "0:play 5 @2 higher")
    assert Play(2, ("6",)) in state.legal_moves(2)  # the last card ends the round: no target
    assert not any(m.target is not None for m in state.legal_moves(2))
    state = play(state, "2:play 6")
    assert state.history == (((0, 2, 3, 1), (0, 1, 0, 1)),)
    assert state.coins == (4, 3, 4, 3)
    assert state.round == 2 and state.leader == 1 and state.pile == ()
    assert state.hand_sizes == (7, 7, 7, 7) and state.deck_size == 70 - 28
    assert state.safe == () and state.exploded == () and state.players_in_round == (0, 1, 2, 3)


def test_boom_ending_the_round_orders_the_rest_from_the_announcer():
    """Teams 0/0/1/1. Seat 2 goes out; seat 1 names seat 3, who explodes: seats 0 and 1 are
    left, safe clockwise from seat 1 (the announcer): order 2, 1, 0; seat 0 leads next."""
    state = table([["3", "4"], ["5", "4"], ["6"], ["1", "2"]], [0, 0, 1, 1], leader=2)
    state = play(state, "2:play 6 @1 lower", "1:play 5 @3 higher")
    assert set(state.legal_moves(3)) == {Boom(3)}
    state = play(state, "3:boom")
    assert state.history[0][0] == (2, 1, 0)
    assert state.tokens == (0, 1, 0, 0) and state.leader == 0 and state.round == 2


def test_new_teams_are_drawn_each_round():
    """Teams are dealt again at each round: over a few seeds, some round 2 differs from round 1."""
    game = fg.make("boom_bokken", num_players=6)
    changed = 0
    for seed in range(8):
        first = game.new_game(seed=seed)
        state = first
        rng = random.Random(seed)
        while state.round == 1:
            state = state.apply(rng.choice(state.legal_moves()))
        changed += state.teams != first.teams
        assert sorted(state.teams) == sorted(first.teams)
    assert changed >= 4
