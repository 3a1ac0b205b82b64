"""The option ``distinct_flashers``: Flash cards played one on another are all by different
seats (the rulebook's "plusieurs cartes flash peuvent être jouées à la suite, mais seulement
par des joueurs différents" read strictly).

Positions are dealt by hand (``game.deal``, see ``helpers``); seats 0..3 play in teams
0/1/0/1. ``DECK`` holds four Flash cards of each value, so that a run can be long.
"""

import random

import pytest

import forestgames as fg
from forestgames.boom_bokken import Play
from forestgames.boom_bokken._tables import SEATS_OF
from tests.boom_bokken.helpers import groups, play, table

TEAMS = [0, 1, 0, 1]
ROLES = ["gardien", "cogneur", "cogneur", "gardien"]
DECK = {"T": 6} | {str(v): 6 for v in range(1, 9)} | {f"F{v}": 4 for v in range(1, 9)}
RUN_RULE = "the Flash cards of a run are all by different seats"


def strict(hands, **kw):
    """Round 1 with these hands, the option on and the four-Flash deck."""
    return table(hands, TEAMS, deck=DECK, distinct_flashers=True, **kw)


def test_a_seat_may_not_flash_twice_on_one_run():
    """Seat 0 leads a 5, seat 2 flashes F5, seat 3 flashes F5: the run is seats 2 and 3.
    Seat 0, whose 5 is under the run, may flash; seat 2 may not (its F5 is in the run,
    though the top card is seat 3's). Without the option seat 2 may (not its own card)."""
    hands = [["5", "F5", "1"], ["2"], ["F5", "F5", "4"], ["F5", "7"]]
    state = play(strict(hands), "0:play 5 @1 higher", "2:play F5 @1 higher")
    assert state.flashers == 0b100
    state = play(state, "3:play F5 @1 lower")
    assert state.flashers == 0b1100 and state.last_player == 3
    assert groups(state, 0) == {("F5",)} and groups(state, 2) == set()
    assert state.players_to_act == (1, 0)
    with pytest.raises(fg.IllegalMoveError, match=RUN_RULE):
        state.apply(Play(2, ("F5",), 1, "lower"))
    assert state.flashers == 0b1100  # the refused move changed nothing
    default = table(hands, TEAMS, deck=DECK)
    default = play(default, "0:play 5 @1 higher", "2:play F5 @1 higher", "3:play F5 @1 lower")
    assert groups(default, 2) == {("F5",)} and default.flashers == 0


def test_one_s_own_card_stays_barred_with_the_option():
    """The option adds to the rule, it does not replace it: seat 0 may not flash on its 5."""
    state = play(strict([["5", "F5", "1"], ["2"], ["3"], ["7"]]), "0:play 5 @1 higher")
    assert state.flashers == 0 and groups(state, 0) == set()
    with pytest.raises(fg.IllegalMoveError, match="own card"):
        state.apply(Play(0, ("F5",), 3, "lower"))


def test_a_named_seat_s_flash_answer_joins_the_run():
    """Seat 1, named 'higher' on a 5, answers with F5 (an equal value fits): the run starts
    with seat 1. Seat 2 flashes F5 on it; seat 1 may then not flash its second F5."""
    hands = [["5", "1"], ["F5", "F5", "2"], ["F5", "4"], ["7"]]
    state = play(strict(hands), "0:play 5 @1 higher", "1:play F5 @3 higher")
    assert state.flashers == 0b10
    state = play(state, "2:play F5 @3 lower")
    assert state.flashers == 0b110
    assert groups(state, 1) == set() and 1 not in state.players_to_act


def test_a_named_seat_in_the_run_may_still_answer_with_a_flash_of_the_top_value():
    """The option binds out-of-turn Flash cards and a Gardien's answer, not the named seat's
    own answer (docs/boom_bokken.md, Choices): seat 0 flashes F5 on seat 2's 5 naming seat
    1, seat 1 answers F5 naming seat 0; seat 0, in the run, may answer with its second F5,
    which joins the run again."""
    hands = [["F5", "F5", "1"], ["F5", "3", "2"], ["5", "F5", "2"], ["4", "6"]]
    state = play(strict(hands, leader=3), "3:play 4 @2 higher", "2:play 5 @1 higher")
    state = play(state, "0:play F5 @1 lower", "1:play F5 @0 lower")
    assert state.flashers == 0b11 and state.target == 0
    assert ("F5",) in groups(state, 0)
    after = play(state, "0:play F5 @2 higher")
    assert after.flashers == 0b11 and after.last_player == 0


def test_an_orange_card_ends_the_run():
    """Seat 2 flashes F5 on seat 0's 5; seat 1 answers the Flash with an orange 6: the run
    is over, and seat 2 may flash again, an F6 on the 6."""
    hands = [["5", "1"], ["6", "2"], ["F5", "F6", "4"], ["7"]]
    state = play(strict(hands), "0:play 5 @1 higher", "2:play F5 @1 higher")
    assert state.flashers == 0b100
    state = play(state, "1:play 6 @3 lower")
    assert state.flashers == 0 and groups(state, 2) == {("F6",)}
    state = play(state, "2:play F6 @0 lower")
    assert state.flashers == 0b100


def test_a_flash_of_another_value_starts_a_new_run():
    """Seat 1 answers 'higher' on seat 2's F5 with an F7 (a normal answer): the run of F5s
    is over and the F7 starts a run of its own, seat 1's alone."""
    hands = [["5", "1"], ["F7", "2"], ["F5", "4"], ["7"]]
    state = play(strict(hands), "0:play 5 @1 higher", "2:play F5 @1 higher")
    state = play(state, "1:play F7 @2 lower")
    assert state.flashers == 0b10


def test_temps_mort_ends_the_run():
    """A Temps Mort sends the pile under the draw pile: no run is left."""
    hands = [["5", "1"], ["T", "2"], ["F5", "4"], ["7"]]
    state = play(strict(hands), "0:play 5 @1 higher", "2:play F5 @1 higher")
    state = play(state, "1:timeout")
    assert state.pile == () and state.flashers == 0


def test_boom_ends_the_run():
    """A Boom sends the pile under the draw pile: no run is left."""
    hands = [["5", "1"], ["2", "3"], ["F5", "4"], ["7"]]
    state = play(strict(hands), "0:play 5 @1 higher", "2:play F5 @1 higher")
    state = play(state, "1:boom @0")
    assert state.pile == () and state.flashers == 0


def test_a_gardien_that_flashed_in_the_run_may_not_answer_with_a_flash():
    """Expert mode: seat 0 (Gardien of team 0) flashes F6 on seat 1's 6, naming seat 3;
    seat 3 answers with F6, naming seat 0's teammate seat 2. Seat 0 may answer for seat 2
    with its orange 7 but not with its second F6: it is in the run (seats 0 and 3)."""
    hands = [["F6", "F6", "7", "1"], ["6", "5"], ["3"], ["F6", "2"]]
    state = strict(hands, leader=1, roles=ROLES)
    state = play(state, "1:play 6 @2 higher", "0:play F6 @3 higher", "3:play F6 @2 higher")
    assert state.flashers == 0b1001
    assert groups(state, 0) == {("7",)}
    with pytest.raises(fg.IllegalMoveError, match="not even as a Gardien's answer"):
        state.apply(Play(0, ("F6",), 1, "lower"))


def test_a_coureur_s_flash_group_is_one_seat_of_the_run():
    """Expert mode, 5 seats: the Coureur (seat 4) puts both its F6 on a 6 at once; the
    run is seat 4's, and seat 1's F6 may still go on it."""
    teams, roles = [0, 1, 1, 0, 1], ["gardien", "gardien", "cogneur", "cogneur", "coureur"]
    hands = [["6", "1"], ["F6", "2"], ["3"], ["4"], ["F6", "F6", "1"]]
    state = table(hands, teams, roles=roles, deck=DECK, distinct_flashers=True)
    state = play(state, "0:play 6 @2 higher", "4:play F6+F6 @3 lower")
    assert state.flashers == 0b10000 and groups(state, 1) == {("F6",)}


# ------------------------------------------------------------------ saved states and views


def _in_a_run():
    hands = [["5", "F5", "1"], ["2"], ["F5", "F5", "4"], ["F5", "7"]]
    return play(strict(hands), "0:play 5 @1 higher", "2:play F5 @1 higher", "3:play F5 @1 lower")


def test_saved_state_keeps_the_run_and_only_with_the_option():
    """``to_dict`` writes ``flashers`` (seats in order) with the option only, and loads it
    back; a default game's saved state has no such key and refuses one."""
    state = _in_a_run()
    data = state.to_dict()
    assert data["flashers"] == [2, 3]
    assert state.game.state_from_dict(data) == state
    default = fg.make("boom_bokken", num_players=4).new_game(seed=1)
    assert "flashers" not in default.to_dict()
    with pytest.raises(fg.StateError, match="unknown keys flashers"):
        default.game.state_from_dict(default.to_dict() | {"flashers": []})


@pytest.mark.parametrize(
    ("flashers", "message"),
    [
        ([3, 2], r"flashers \[3, 2\]: each seat once, in seat order"),
        ([2, 2, 3], "each seat once"),
        ([2], r"top card's player 3 played the run's last Flash"),
        ([0, 2, 3], r"more seats than the run's 2 Flash cards"),
        ([4], "flashers"),
        ("2", "flashers"),
    ],
)
def test_saved_state_with_a_wrong_run_is_refused(flashers, message):
    """A saved run that is out of order, lacks the top card's player, has more seats than
    Flash cards, or names no seat is a StateError saying so."""
    data = _in_a_run().to_dict() | {"flashers": flashers}
    with pytest.raises(fg.StateError, match=message):
        _in_a_run().game.state_from_dict(data)


def test_saved_run_without_a_flash_on_top_is_refused():
    """Flashers while the top card is orange (or the pile empty) are a StateError."""
    state = play(strict([["5", "1"], ["2"], ["3"], ["7"]]), "0:play 5 @1 higher")
    with pytest.raises(fg.StateError, match=r"flashers \[0\]: no Flash is on top"):
        state.game.state_from_dict(state.to_dict() | {"flashers": [0]})


def test_every_seat_sees_the_run_in_its_view_tensor_and_picture():
    """The run is public: every seat's observation lists it, its tensor marks it turned to
    the observer (seat 2 first for seat 2), and the text picture names it."""
    state = _in_a_run()
    codec = state.game.codec
    for seat in range(4):
        assert state.observation(seat)["flashers"] == [2, 3]
        row = codec.layout.field(state.observation_tensor(seat), "flashers")
        assert [seat_ for seat_ in range(4) if row[(seat_ - seat) % 4]] == [2, 3]
    assert "Flash run by seats 2, 3" in state.render(1)


def test_default_games_keep_their_tensor_layout():
    """Without the option the tensor has no ``flashers`` field: its size is unchanged."""
    default = fg.make("boom_bokken", num_players=4, deck=DECK)
    strict_game = fg.make("boom_bokken", num_players=4, deck=DECK, distinct_flashers=True)
    assert "flashers" not in default.codec.layout.offset
    assert strict_game.observation_shape[0] == default.observation_shape[0] + 4


# ------------------------------------------------------------------ random games


def _run_after(flashers, pile, seat, cards):
    """A reference for the run's seats after ``seat`` played ``cards`` (names) on ``pile``
    (names), written from the rule's words rather than the engine's codes."""
    if not cards[-1].startswith("F"):
        return set()
    if pile and pile[-1].startswith("F") and all(card == pile[-1] for card in cards):
        return flashers | {seat}
    return {seat}


@pytest.mark.parametrize("expert", [False, True])
def test_random_games_never_flash_twice_on_one_run(expert):
    """Over random games (5 seats, four Flash per value), the run a reference tracks from
    the moves is the state's, and no seat of the run but the named one is ever offered a
    Flash card, though many hold one of the top card's value."""
    game = fg.make("boom_bokken", num_players=5, deck=DECK, expert=expert, distinct_flashers=True)
    rng, held = random.Random(3), 0
    for seed in range(40):
        state, run = game.new_game(seed=seed), set()
        while not state.is_terminal:
            for seat in run - {state.current_player}:
                plays = [m for m in state.legal_moves(seat) if isinstance(m, Play)]
                assert not any(card.startswith("F") for m in plays for card in m.cards), seed
                held += state.hands[seat][state.pile[-1]] > 0
            seat = rng.choice(state.players_to_act)
            move = rng.choice(state.legal_moves(seat))
            new = state.apply(move)
            if isinstance(move, Play) and new.round == state.round:
                run = _run_after(run, state.pile_cards, seat, move.cards)
            else:  # a Temps Mort, a Boom or a new round: the pile is gone
                run = set()
            state = new
            if not state.is_terminal:
                assert set(SEATS_OF[state.flashers]) == run, seed
    assert held > 20
