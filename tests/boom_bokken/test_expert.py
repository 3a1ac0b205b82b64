"""Expert mode: roles dealt by the seed's priority, Gardien, Cogneur and Coureur powers."""

import random
from collections import defaultdict

import pytest

import forestgames as fg
from forestgames.boom_bokken import Play, TimeOut
from forestgames.boom_bokken._tables import CARD_NAMES, ROLE_PRIORITY, TEAM_SIZES
from tests.boom_bokken.positions import groups, play, table

TEAMS = [0, 1, 0, 1]
# seat 0: team 0 Gardien, seat 1: team 1 Cogneur, seat 2: team 0 Cogneur, seat 3: team 1 Gardien
ROLES = ["gardien", "cogneur", "cogneur", "gardien"]
# five players, teams of 2 and 3: seats 0, 3 in team 0; seats 1, 2, 4 in team 1 (4 the Coureur)
TEAMS5 = [0, 1, 1, 0, 1]
ROLES5 = ["gardien", "gardien", "cogneur", "cogneur", "coureur"]


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8, 9])
def test_roles_follow_the_priority_in_every_round(players):
    """Each team of k holds Gardien, Cogneur, then Coureur, then Cogneur, in every round."""
    for split in TEAM_SIZES[players]:
        game = fg.make("boom_bokken", num_players=players, team_sizes=list(split), expert=True)
        state, rng, seen = game.new_game(seed=players), random.Random(players), 0
        last_round = 0
        while not state.is_terminal:
            if state.round != last_round:
                last_round, seen = state.round, seen + 1
                members = defaultdict(list)
                for team, role in zip(state.teams, state.roles, strict=True):
                    members[team].append(role)
                for team, size in enumerate(split):
                    assert sorted(members[team]) == sorted(ROLE_PRIORITY[:size])
            state = state.apply(rng.choice(state.legal_moves()))
        assert seen == 3


def test_no_roles_without_expert_mode():
    """Without Expert mode no seat has a role and nobody knocks."""
    state = fg.make("boom_bokken", num_players=4).new_game(seed=1)
    assert state.roles == ()
    assert not any(m.knock for m in state.legal_moves() if isinstance(m, Play))


def test_gardien_answers_for_a_named_teammate():
    """Seat 1 names seat 2; seat 0, the Gardien of team 0, answers in its place with a fitting
    6 (not its 1), then leads; seat 2 is no longer named."""
    state = table([["6", "1"], ["5", "2"], ["3"], ["7"]], TEAMS, leader=1, roles=ROLES)
    state = play(state, "1:play 5 @2 higher")
    assert state.players_to_act == (2, 0)
    assert groups(state, 0) == {("6",)}
    with pytest.raises(fg.IllegalMoveError):
        state.apply(Play(0, ("1",), 1, "lower"))
    state = play(state, "0:play 6 @1 lower")
    assert state.current_player == 1 and state.last_player == 0 and state.legal_moves(2) == ()


def test_gardien_does_not_answer_for_the_other_team():
    """A Gardien may not answer when a player of the other team is named."""
    state = table([["6", "1"], ["5", "2"], ["4", "3"], ["7"]], TEAMS, leader=2, roles=ROLES)
    state = play(state, "2:play 4 @1 higher")
    assert 0 not in state.players_to_act and state.legal_moves(0) == ()
    with pytest.raises(fg.IllegalMoveError, match="Gardien"):
        state.apply(Play(0, ("6",), 1, "lower"))


def test_cogneur_knock_makes_the_target_draw_at_once():
    """Seat 2 (Cogneur) plays an orange 5 with a knock: seat 1 draws the deck's 8 before
    answering, and may answer with it."""
    state = table(
        [["1"], ["2"], ["5", "F5", "3"], ["7"]], TEAMS, leader=2, deck_top=("8", "6"), roles=ROLES
    )
    knocks = {(m.cards, m.knock) for m in state.legal_moves(2)}
    assert (("5",), True) in knocks and (("F5",), True) not in knocks and (("3",), True) in knocks
    state = play(state, "2:play 5 @1 higher knock")
    assert state.hand(1) == ("2", "8") and CARD_NAMES[state.deck[0]] == "6"
    assert groups(state, 1) == {("8",)}


def test_knock_only_by_a_cogneur_with_an_orange_card():
    """A Gardien may not knock, nor a Cogneur with a Flash card."""
    state = table([["5", "1"], ["2"], ["F5", "3"], ["7"]], TEAMS, leader=0, roles=ROLES)
    with pytest.raises(fg.IllegalMoveError, match="Cogneur"):
        state.apply(Play(0, ("5",), 1, "higher", True))
    state = table([["1"], ["2"], ["F5", "3"], ["7"]], TEAMS, leader=2, roles=ROLES)
    with pytest.raises(fg.IllegalMoveError, match="orange"):
        state.apply(Play(2, ("F5",), 1, "higher", True))


def test_knock_draw_survives_a_flash():
    """Seat 1 drew because of the knock; seat 3 then Flashes the 5 away: seat 1 keeps the card."""
    state = table(
        [["1"], ["2"], ["5", "3"], ["F5", "7"]], TEAMS, leader=2, deck_top=("8",), roles=ROLES
    )
    state = play(state, "2:play 5 @1 higher knock", "3:play F5 @0 lower")
    assert state.hand(1) == ("2", "8") and state.current_player == 0


def test_knock_draw_survives_a_temps_mort():
    """A Temps Mort after the knock clears the pile; the knocked seat keeps its drawn card."""
    state = table(
        [["1", "T"], ["2"], ["5", "3"], ["7"]], TEAMS, leader=2, deck_top=("8", "4"), roles=ROLES
    )
    state = play(state, "2:play 5 @1 higher knock", "0:timeout")
    assert state.hand(1) == ("2", "8") and state.hand(0) == ("1", "4") and state.leader == 0


def test_knock_draw_survives_a_gardien_answer():
    """Seat 2 knocks seat 1; seat 3, Gardien of seat 1's team, answers for it: seat 1 keeps
    the drawn card."""
    state = table(
        [["1"], ["2"], ["5", "3"], ["6", "7"]], TEAMS, leader=2, deck_top=("8",), roles=ROLES
    )
    state = play(state, "2:play 5 @1 higher knock", "3:play 6 @0 lower")
    assert state.hand(1) == ("2", "8") and state.current_player == 0 and state.last_player == 3


def test_knock_on_an_empty_deck_draws_nothing():
    """With every card dealt, the knocked seat draws nothing."""
    deck = {"5": 7, "6": 7, "7": 7, "8": 7}
    hands = [["7"] * 7, ["6"] * 7, ["5"] * 7, ["8"] * 7]
    state = table(hands, TEAMS, leader=2, roles=ROLES, deck=deck)
    assert state.deck == ()
    state = play(state, "2:play 5 @1 higher knock")
    assert state.hand_sizes == (7, 7, 6, 7)


def test_coureur_plays_several_cards_of_one_value():
    """The Coureur leads with any set of one value, orange and Flash mixed; others play one card."""
    hands = [["1"], ["2"], ["3", "3"], ["4"], ["5", "5", "F5", "2"]]
    state = table(hands, TEAMS5, leader=4, roles=ROLES5)
    assert groups(state, 4) == {
        ("2",), ("5",), ("F5",), ("5", "5"), ("5", "F5"), ("5", "5", "F5"),
    }  # fmt: skip
    state = play(state, "4:play 5+5+F5 @2 lower")
    assert state.pile_cards == ("5", "5", "F5") and state.hand(4) == ("2",)
    assert groups(state, 2) == {("3",)}  # seat 2 is a Cogneur: one card at a time
    with pytest.raises(fg.IllegalMoveError, match="Coureur"):
        state.apply(Play(2, ("3", "3"), 0, "higher"))


def test_coureur_answers_with_several_cards():
    """Named, the Coureur may answer with two 6s at once."""
    hands = [["5", "1"], ["2"], ["3"], ["4"], ["6", "6", "1"]]
    state = play(table(hands, TEAMS5, leader=0, roles=ROLES5), "0:play 5 @4 higher")
    assert groups(state, 4) == {("6",), ("6", "6")}
    state = play(state, "4:play 6+6 @0 lower")
    assert state.hand(4) == ("1",) and state.top_card == "6"


def test_coureur_flashes_several_cards_out_of_turn():
    """Out of turn the Coureur may put one or both of its Flash 6 on a 6; others only one."""
    hands = [["6", "1"], ["F6", "F6"], ["3"], ["4"], ["F6", "F6", "1"]]
    deck = {"T": 6} | {str(v): 6 for v in range(1, 9)} | {f"F{v}": 4 for v in range(1, 9)}
    state = table(hands, TEAMS5, leader=0, roles=ROLES5, deck=deck)
    state = play(state, "0:play 6 @2 higher")
    assert groups(state, 4) == {("F6",), ("F6", "F6")}
    assert groups(state, 1) == {("F6",)}
    state = play(state, "4:play F6+F6 @3 lower")
    assert state.pile_cards == ("6", "F6", "F6") and state.last_player == 4
    assert TimeOut(4) not in state.legal_moves(4)


def test_gardien_may_take_over_from_a_teammate_it_named():
    """[choice] The Gardien 'can always' play for a partner: even right after naming them."""
    state = table([["6", "7", "1"], ["5"], ["3"], ["2"]], TEAMS, leader=0, roles=ROLES)
    state = play(state, "0:play 6 @2 higher")
    assert 0 in state.players_to_act and groups(state, 0) == {("7",)}
    state = play(state, "0:play 7 @1 lower")
    assert state.current_player == 1 and state.pile_cards == ("6", "7")
