"""The rules of Boom Bokken, scripted: setup and options, the chain of leads and answers,
Boom, safety, Flash and Temps Mort, the end of a round, the Expert roles, the notation and the
reaction driver.

Positions are dealt by hand (``game.deal``, see ``helpers``); seats 0..3 play in teams
0/1/0/1 unless a test says otherwise. The draw pile is ``deck_top`` followed by the rest of
the deck in card order (Temps Mort first).
"""

import random
from collections import Counter, defaultdict

import pytest

import forestgames as fg
from forestgames.boom_bokken import DEFAULT_DECK, Boom, BoomBokkenGame, Play, TimeOut, parse_move
from forestgames.boom_bokken import moves as moves_module
from forestgames.boom_bokken._tables import CARD_CODE, CARD_NAMES, TEAM_SIZES
from tests.boom_bokken.helpers import groups, play, table

TEAMS = [0, 1, 0, 1]


# ------------------------------------------------------------------------------ Setup and options


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


def test_deck_option_takes_the_counts_game_deck_holds():
    """``deck=game.deck`` (17 counts, T, 1..8, F1..F8) rebuilds the game, as a game built by
    its class needs; a tuple of another length is refused, naming both forms."""
    game = fg.make("boom_bokken", num_players=5, deck={"2": 9, "F6": 3, "T": 30})
    assert game.deck[CARD_CODE["2"]] == 9 and len(game.deck) == 17
    assert fg.make("boom_bokken", num_players=5, deck=game.deck) == game
    both_forms = r"card names .* \(or be the tuple of 17 counts game.deck holds\)"
    with pytest.raises(fg.ConfigError, match=both_forms):
        fg.make("boom_bokken", deck=game.deck[:16])
    with pytest.raises(fg.ConfigError, match=r"deck: 17 cards cannot deal 28 to 4 players"):
        fg.make("boom_bokken", deck=(1,) * 17)


def test_a_game_built_by_its_class_takes_make_s_temps_mort_default():
    """BoomBokkenGame(..., expert=True) without spent_time_outs sets Temps Mort aside, as
    make does (the class's own default was "deck", so the two games differed)."""
    for expert in (False, True):
        made = fg.make("boom_bokken", num_players=4, expert=expert)
        built = BoomBokkenGame(4, made.team_sizes, made.deck, expert=expert)
        assert built == made and built.spent_time_outs == ("aside" if expert else "deck")


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


# --------------------------- The chain: announcements, Boom, safety, Flash, Temps Mort, round end


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


# -------------------------------------------------- Expert mode: roles, Gardien, Cogneur, Coureur

# seat 0: team 0 Gardien, seat 1: team 1 Cogneur, seat 2: team 0 Cogneur, seat 3: team 1 Gardien
ROLES = ["gardien", "cogneur", "cogneur", "gardien"]
# five players, teams of 2 and 3: seats 0, 3 in team 0; seats 1, 2, 4 in team 1 (4 the Coureur)
TEAMS5 = [0, 1, 1, 0, 1]
ROLES5 = ["gardien", "gardien", "cogneur", "cogneur", "coureur"]


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8, 9])
def test_roles_follow_the_priority_in_every_round(players):
    """Each team of k holds Gardien, Cogneur, then Coureur, then Cogneur, in every round
    (the rules page's list, written out: a team of 4 has two Cogneurs)."""
    expected = {
        2: ["cogneur", "gardien"],
        3: ["cogneur", "coureur", "gardien"],
        4: ["cogneur", "cogneur", "coureur", "gardien"],
    }
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
                    assert sorted(members[team]) == expected[size]
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
    with pytest.raises(
        fg.IllegalMoveError,
        match="1 does not answer 'higher' on 5, as a Gardien's answer for named seat 2 must",
    ):
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


def test_knock_draws_the_last_card_of_the_draw_pile():
    """With one card left in the draw pile the knocked seat draws it: only an empty pile
    draws nothing (a mutant drawing nothing from a one-card pile passed every test)."""
    deck = {"5": 7, "6": 7, "7": 7, "8": 8}  # 29 cards, 28 dealt: one "8" left
    hands = [["7"] * 7, ["6"] * 7, ["5"] * 7, ["8"] * 7]
    state = table(hands, TEAMS, leader=2, roles=ROLES, deck=deck)
    assert [CARD_NAMES[c] for c in state.deck] == ["8"]
    state = play(state, "2:play 5 @1 higher knock")
    assert state.deck == () and state.hand_sizes == (7, 8, 6, 7)
    assert "8" in state.hand(1)


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


def test_gardien_takes_over_from_a_teammate_it_named_without_a_flash_card():
    """ "No Flash card on a card one has just laid" holds for a Gardien's answer too: seat 0
    (Gardien) leads a 6 naming its teammate seat 2 and holds F6, F7 and 7. It may take over
    with the orange 7 only; a Flash card over its own 6, equal (F6) or higher (F7), is
    refused, and F6 is no Flash reaction either. Seat 2 may still answer with its F7."""
    state = table([["6", "F6", "F7", "7"], ["5"], ["F7", "1"], ["2"]], TEAMS, leader=0, roles=ROLES)
    state = play(state, "0:play 6 @2 higher")
    assert groups(state, 0) == {("7",)}
    for card in ("F6", "F7"):
        with pytest.raises(fg.IllegalMoveError, match="not even as a Gardien's answer"):
            state.apply(Play(0, (card,), 1, "lower"))
    assert ("F7",) in groups(state, 2)
    assert state.players_to_act == (2, 0)
    no_orange = table([["6", "F6", "F7", "1"], ["5"], ["3"], ["2"]], TEAMS, leader=0, roles=ROLES)
    no_orange = play(no_orange, "0:play 6 @2 higher")
    assert 0 not in no_orange.players_to_act and no_orange.legal_moves(0) == ()


def test_gardien_may_take_over_with_a_flash_card_on_an_opponents_card():
    """The Flash ban is about one's own card only: seat 1 leads a 6 naming seat 2, whose
    Gardien (seat 0, holding F6, F7 and 7) may take over with the orange 7, or with a Flash
    card, F6 or F7, over the opponent's 6; F6 is also a Flash reaction."""
    state = table([["F6", "F7", "7", "1"], ["6", "5"], ["3"], ["2"]], TEAMS, leader=1, roles=ROLES)
    state = play(state, "1:play 6 @2 higher")
    assert {("7",), ("F6",), ("F7",)} <= groups(state, 0)
    assert 0 in state.players_to_act
    state = state.apply(Play(0, ("F7",), 1, "lower"))
    assert state.pile_cards == ("6", "F7")


# ---------------------------------------------------------------------------------- Move notation

EXAMPLES = [
    ("0:play 5 @2 higher", Play(0, ("5",), 2, "higher")),
    ("0:play 5 @2 lower knock", Play(0, ("5",), 2, "lower", True)),
    ("3:play 5+F5 @1 higher", Play(3, ("5", "F5"), 1, "higher")),
    ("4:play F6+F6 @3 lower", Play(4, ("F6", "F6"), 3, "lower")),
    ("0:play 5", Play(0, ("5",))),
    ("1:timeout", TimeOut(1)),
    ("2:boom @3", Boom(2, 3)),
    ("2:boom", Boom(2)),
]


@pytest.mark.parametrize(("text", "move"), EXAMPLES)
def test_notation_round_trip(text, move):
    """Each documented notation parses to its move, prints back, and its repr evaluates back."""
    assert parse_move(text) == move
    assert str(move) == text
    assert eval(repr(move), vars(moves_module)) == move


def test_cards_are_kept_in_canonical_order():
    """Cards given in any order (or a single name) are stored sorted: 'F5+5' is '5+F5'."""
    assert Play(0, ("F5", "5"), 1, "higher") == Play(0, ("5", "F5"), 1, "higher")
    assert parse_move("0:play F5+5 @1 higher") == Play(0, ("5", "F5"), 1, "higher")
    assert Play(0, "5", 1, "higher").cards == ("5",)


def test_surrounding_spaces_are_ignored():
    """Leading and trailing spaces do not matter."""
    assert fg.make("boom_bokken", num_players=4).parse_move("  1:timeout \n") == TimeOut(1)


# ---------------------------- The reaction driver of the state module's docstring, run as written


class RandomReactor:
    """Reacts with a random legal move one time in three; chooses at random when asked."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def react(self, state, seat):
        moves = state.legal_moves(seat)
        return self.rng.choice(moves) if moves and self.rng.random() < 1 / 3 else None

    def choose(self, state):
        return self.rng.choice(state.legal_moves())


def drive(game, seed):
    """Play one game with the documented loop; return the moves made."""
    agents = [RandomReactor(seed * 100 + seat) for seat in range(game.num_players)]
    rng = random.Random(seed)
    state, made = game.new_game(seed=seed), []
    while not state.is_terminal:
        order = list(state.players_to_act[1:])
        rng.shuffle(order)
        for seat in order:
            move = agents[seat].react(state, seat)
            if move is not None:
                assert move.player == seat and seat != state.current_player
                break
        else:
            move = agents[state.current_player].choose(state)
            assert move.player == state.current_player
        state = state.apply(move)
        made.append(move)
        assert len(made) <= game.traits.max_moves
    return made


@pytest.mark.parametrize(("players", "expert"), [(4, False), (7, False), (6, True), (9, True)])
def test_documented_driver_plays_whole_games(players, expert):
    """The driver loop gives reactors their chance, applies only legal moves and ends."""
    game = fg.make("boom_bokken", num_players=players, expert=expert)
    for seed in range(3):
        made = drive(game, seed)
        assert made and made == drive(game, seed)  # seeded: the same game again


# ------------------------------------------------------------------------------- The text picture


def test_render_shows_status_pile_and_seats():
    """render() names the round, the named seat and announcement, the pile and every seat."""
    state = table([["5", "1"], ["2"], ["4"], ["7"]], [0, 1, 0, 1])
    text = play(state, "0:play 5 @1 higher", "1:boom @3").render()
    assert "round 1" in text and "seat 3 leads" in text
    seats = {line.split()[1]: line for line in text.splitlines() if line[1:].startswith("seat")}
    assert "team 1" in seats["1"] and "exploded" in seats["1"] and "tokens 1" in seats["0"]
    text = play(
        table([["5", "1"], ["2"], ["4"], ["7"]], [0, 1, 0, 1]), "0:play 5 @1 higher"
    ).render()
    assert "seat 1 named: higher than 5 (played by seat 0)" in text and "pile 5" in text


# ------------------------------------------------------------------------------- Expert mode


def test_expert_mode_with_temps_mort_under_the_deck():
    """Expert mode with spent_time_outs='deck' plays to the end; its traits.max_moves is the
    figure of Temps Mort set aside (a bound on games with no more Temps Mort plays per round
    than Temps Mort cards, as documented), and fg.play's move cap is four times it."""
    game = fg.make("boom_bokken", num_players=6, expert=True, spent_time_outs="deck")
    aside = fg.make("boom_bokken", num_players=6, expert=True)
    assert game.traits.max_moves == aside.traits.max_moves == 3 * (6 + 6) * 72
    for seed in range(3):
        record = fg.play(game, ["random"], seed=seed)
        assert record.final_state().is_terminal
        assert len(record.moves) <= game.traits.max_moves
