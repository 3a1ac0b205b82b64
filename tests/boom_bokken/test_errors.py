"""Bad input: illegal moves, malformed moves and notation, bad saved states and bad options
raise the library's errors, say what is wrong and change nothing."""

import copy
import time

import numpy as np
import pytest

import forestgames as fg
from forestgames.boom_bokken import Boom, Play, TimeOut
from forestgames.bosk import ChooseWind
from tests.boom_bokken.helpers import play, table
from tests.strategies import final_state

TEAMS = [0, 1, 0, 1]


@pytest.fixture
def named():
    """Seat 0 has led 5 "higher" at seat 1; seat 2 holds a Flash 5, seat 1 a Temps Mort."""
    state = table([["5", "1", "2"], ["3", "6", "T"], ["F5", "4"], ["7"]], TEAMS, deck_top=("8",))
    return play(state, "0:play 5 @1 higher")


@pytest.mark.parametrize(
    ("move", "message"),
    [
        (Play(1, ("8",), 0, "higher"), "does not hold"),
        (Play(1, ("3",), 0, "higher"), "does not answer"),
        (Play(2, ("4",), 0, "higher"), "out of turn"),
        (Play(2, ("F4",), 0, "higher"), "does not hold"),
        (Play(1, ("6",), 1, "higher"), "target"),
        (Play(1, ("6",), 7, "higher"), "target"),
        (Play(1, ("6",), True, "higher"), "target"),
        (Play(1, ("6",), 0, "up"), "announcement"),
        (Play(1, ("6",), 0, None), "announcement"),
        (Play(1, ("6",)), "target"),
        (Play(1, ("6",), 0, "higher", True), "Cogneur"),
        (Play(1, ("6",), 0, "higher", "yes"), "knock"),
        (Play(1, ("T",), 0, "higher"), "named 1..8"),
        (Play(1, ("X",), 0, "higher"), "named 1..8"),
        (Play(1, (), 0, "higher"), "named 1..8"),
        (Play(1, ([6],), 0, "higher"), "named 1..8"),
        (Play(1, ("6", "3"), 0, "higher"), "one value"),
        (Play(3, ("7",), 0, "higher"), "out of turn"),
        (Boom(1, 2), "holds a card"),
        (Boom(2, 0), "only the named player"),
        (TimeOut(0), "holds no Temps Mort"),
        (ChooseWind(0, "N"), "not a Boom Bokken move"),
    ],
)
def test_illegal_moves_raise_and_change_nothing(named, move, message):
    """Each illegal move raises IllegalMoveError naming the rule; the state is unchanged."""
    before = named.to_dict()
    with pytest.raises(fg.IllegalMoveError, match=message):
        named.apply(move)
    assert named.to_dict() == before
    assert move not in named.legal_moves(move.player)


def test_target_who_is_out_is_refused():
    """A safe seat cannot be named."""
    state = play(table([["5"], ["6", "2"], ["4"], ["7"]], TEAMS), "0:play 5 @1 higher")
    with pytest.raises(fg.IllegalMoveError, match="target"):
        state.apply(Play(1, ("6",), 0, "higher"))


def test_moves_of_seats_out_of_the_round_are_refused():
    """A safe or exploded seat may not act, not even with a Temps Mort."""
    state = table([["5", "1"], ["2", "T"], ["4", "T"], ["7"]], TEAMS)
    state = play(state, "0:play 5 @1 higher", "1:boom @2", "2:play 4 @0 lower")
    assert state.legal_moves(1) == () and 1 not in state.players_to_act
    with pytest.raises(fg.IllegalMoveError, match="exploded"):
        state.apply(TimeOut(1))


def test_game_over_refuses_moves():
    """No move is legal once the game is over."""
    import random

    game = fg.make("boom_bokken", num_players=4)
    state, rng = game.new_game(seed=3), random.Random(3)
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_moves()))
    with pytest.raises(fg.IllegalMoveError, match="over"):
        state.apply(TimeOut(0))
    assert state.legal_moves(0) == () and state.players_to_act == ()


def test_bad_seat_numbers():
    """Seat numbers outside the table are refused by legal_moves, observation, determinize."""
    state = fg.make("boom_bokken", num_players=4).new_game(seed=0)
    for call in (state.legal_moves, state.observation, lambda s: state.determinize(s, 1)):
        with pytest.raises(fg.IllegalMoveError, match="player 4 is not a seat of a 4-player game"):
            call(4)
    with pytest.raises(fg.IllegalMoveError, match="seat 9 is not in this game"):
        state.apply(Play(9, ("5",), 0, "higher"))


@pytest.mark.parametrize(
    "text",
    [
        "0:play", "0:play 9 @1 higher", "0:play T @1 higher", "0:play 5 @1", "0:play 5 higher",
        "0:play 5 @1 up", "0:play 5 @1 higher knock knock", "0:play 5+ @1 higher", "x:play 5",
        "0:timeout 3", "0:boom @", "0:boom 3", "0:play F9 @1 higher", "0 play 5", "play 5",
        "0:play 5 @01 higher", "-1:timeout",
    ],
)  # fmt: skip
def test_malformed_notation(text):
    """Malformed move text raises ParseError."""
    with pytest.raises(fg.ParseError, match="is not a Boom Bokken move"):
        fg.make("boom_bokken", num_players=4).parse_move(text)


def test_parse_move_rejects_non_text():
    """parse_move of a non-string raises ParseError."""
    with pytest.raises(fg.ParseError, match="a Boom Bokken move is text, not 5"):
        fg.make("boom_bokken", num_players=4).parse_move(5)


def _corrupt(data, change):
    broken = copy.deepcopy(data)
    change(broken)
    return broken


CORRUPTIONS = {
    "extra card": lambda d: d["hands"][0].append("5"),
    "lost card": lambda d: d["deck"].pop(),
    "unknown card": lambda d: d["hands"][0].__setitem__(0, "9"),
    "card as int": lambda d: d["hands"][0].__setitem__(0, 5),
    "Temps Mort on pile": lambda d: (d["pile"].append("T"), d["deck"].remove("T")),
    "target out of range": lambda d: d.__setitem__("target", 9),
    "target is the last player": lambda d: d.__setitem__("target", 0),
    "announce without target": lambda d: d.__setitem__("target", None),
    "bad announce": lambda d: d.__setitem__("announce", "up"),
    "leader with a pile": lambda d: d.__setitem__("leader", 0),
    "wrong team sizes": lambda d: d.__setitem__("teams", [0, 0, 0, 1]),
    "roles without expert": lambda d: d.__setitem__("roles", ["gardien"] * 4),
    "tokens without explosions": lambda d: d.__setitem__("tokens", [1, 0, 0, 0]),
    "history too long": lambda d: d["history"].append({"safe_order": [0], "teams": [0, 1, 0, 1]}),
    "safe seat with cards": lambda d: d.__setitem__("safe", [3]),
    "safe and exploded": lambda d: (d.__setitem__("safe", [3]), d.__setitem__("exploded", [3])),
    "bad round": lambda d: d.__setitem__("round", 4),
    "over too early": lambda d: d.__setitem__("over", True),
    "over not bool": lambda d: d.__setitem__("over", 1),
    "wrong players": lambda d: d.__setitem__("num_players", 5),
    "wrong game": lambda d: d.__setitem__("game", "bosk"),
    "aside without option": lambda d: (d.__setitem__("aside", 1), d["deck"].remove("T")),
    "negative seed": lambda d: d.__setitem__("seed", -1),
    "hands not a list": lambda d: d.__setitem__("hands", "all"),
    "unknown key": lambda d: d.__setitem__("colour", "red"),
}


# What each corruption's StateError says.
CORRUPTION_MESSAGES = {
    "extra card": r"cards are not the game's deck: extra \['5'\]",
    "lost card": r"cards are not the game's deck: extra \[\], missing \['F8'\]",
    "unknown card": r"hands\[0\]\[0\] must be one of .*, not '9'",
    "card as int": r"hands\[0\]\[0\] must be one of .*, not 5",
    "Temps Mort on pile": r"pile\[1\] must be one of .*, not 'T'",
    "target out of range": r"target must be an int in 0\.\.3, not 9",
    "target is the last player": "the top card's player, not the target",
    "announce without target": "'higher' or 'lower' exactly while a player is named",
    "bad announce": "announce must be one of 'lower', 'higher', not 'up'",
    "leader with a pile": "nobody leads while a card is on the pile",
    "wrong team sizes": r"teams \[0, 0, 0, 1\]: team k must have",
    "roles without expert": "roles must be None",
    "tokens without explosions": "1 Bokken tokens, but 0 this round",
    "history too long": "round 1 needs 0 finished rounds",
    "safe seat with cards": "safe seat 3 still holds cards",
    "safe and exploded": "a seat is both safe and exploded",
    "bad round": r"round must be an int in 1\.\.3, not 4",
    "over too early": "over: three rounds must be recorded",
    "over not bool": "over must be true or false, not 1",
    "wrong players": "state is for 5 players, the game for 4",
    "wrong game": "not a Boom Bokken state: game is 'bosk'",
    "aside without option": "Temps Mort cards are set aside only with spent_time_outs='aside'",
    "negative seed": r"seed must be an int in 0\.\.18446744073709551615, not -1",
    "hands not a list": "hands must be a list of 4 items, not 'all'",
    "unknown key": "unknown keys colour",
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_bad_saved_states(named, name):
    """Each malformed or inconsistent saved state raises StateError."""
    data = named.to_dict()
    broken = _corrupt(data, CORRUPTIONS[name])
    with pytest.raises(fg.StateError, match=CORRUPTION_MESSAGES[name]):
        named.game.state_from_dict(broken)
    assert named.to_dict() == data


def test_saved_state_round_trip(named):
    """A state survives to_dict/state_from_dict exactly."""
    assert named.game.state_from_dict(named.to_dict()) == named


def test_deal_rejects_cards_not_in_the_deck():
    """game.deal refuses hands that use more cards than the deck holds."""
    game = fg.make("boom_bokken", num_players=4)
    with pytest.raises(fg.StateError, match="'F1' is not a card left in the game's deck"):
        game.deal([["F1", "F1", "F1"], ["2"], ["3"], ["4"]], TEAMS, 0)


def test_round_ending_moves_name_nobody():
    """A last card or a Boom that leaves one team names no target, announcement or leader;
    while the round goes on they must."""
    state = table([["5"], ["1", "2"], ["6"], ["7", "8"]], TEAMS)
    state = play(state, "0:play 5 @2 higher")
    with pytest.raises(fg.IllegalMoveError, match="ends the round"):
        state.apply(Play(2, ("6",), 1, "higher"))
    state = table([["3", "4"], ["5", "4"], ["6"], ["1", "2"]], [0, 0, 1, 1], leader=2)
    state = play(state, "2:play 6 @1 lower", "1:play 5 @3 higher")
    with pytest.raises(fg.IllegalMoveError, match="ends the round"):
        state.apply(Boom(3, 0))
    fresh = table([["5", "1"], ["2"], ["4"], ["7"]], TEAMS)
    with pytest.raises(fg.IllegalMoveError, match="target"):
        fresh.apply(Play(0, ("5",)))
    with pytest.raises(fg.IllegalMoveError, match="next leader"):
        play(fresh, "0:play 5 @1 higher").apply(Boom(1))


def test_numpy_seat_numbers_are_stored_as_ints():
    """A target given as a numpy integer is accepted and stored as a plain int (JSON-able)."""
    import json

    import numpy as np

    state = table([["5", "1"], ["2"], ["4"], ["7"]], TEAMS)
    state = state.apply(Play(0, ("5",), np.int64(1), "higher"))
    assert type(state.target) is int and json.dumps(state.to_dict())
    state = state.apply(Boom(1, np.int64(3)))
    assert type(state.leader) is int and json.dumps(state.to_dict())


# -------------------------------------------------------------------------------- options


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
        ({"team_sizes": [2.0, 2.0]}, "team_sizes"),
        ({"team_sizes": "22"}, "team_sizes"),
        ({"team_sizes": [10**5000, 2]}, "team_sizes"),
        ({"team_sizes": list(range(10**6))}, "team_sizes"),
        ({"deck": {5: 40}}, "not a card"),
        ({"deck": {"1": 10**5000}}, "count"),
        ({"spent_time_outs": ["deck"]}, "spent_time_outs"),
        ({"team_sizes": np.array(2)}, "team_sizes"),
        ({"team_sizes": np.array([[2, 2]])}, "team_sizes"),
    ],
)
def test_bad_options(options, message):
    """Bad options raise ConfigError naming the problem."""
    options = {"num_players": 4} | options
    with pytest.raises(fg.ConfigError, match=message):
        fg.make("boom_bokken", **options)


def test_expert_mode_offers_temps_mort_under_the_deck():
    """Expert mode takes spent_time_outs='deck', the rules as written (no longer refused)."""
    game = fg.make("boom_bokken", num_players=6, expert=True, spent_time_outs="deck")
    assert game.spent_time_outs == "deck" and game.options()["spent_time_outs"] == "deck"
    assert fg.make("boom_bokken", **game.options()) == game


# ------------------------------------------------------------------------ malformed moves


FORM = "is not of the right form"
CARDS = r"a play puts down one card or more, named 1\.\.8 or F1\.\.F8"


@pytest.mark.parametrize(
    ("move", "message"),
    [
        # seat 1 is the one to answer (with its 6), so each move is refused for its field
        (Play(1, 1.5, 0, "higher"), FORM),
        (Play(1, ("6",), 1.5, "higher"), FORM),
        (Play(1, ("6",), 0, 5), FORM),
        (Play(1, ("6",), 0, "higher", 1), FORM),
        (Play(1, ("6",), 0, "higher", "yes"), FORM),
        (Play(1, (["6"],), 0, "higher"), CARDS),
        (Play(1, ({"6": 1},), 0, "higher"), CARDS),
        (Play(1, ("6",), [0], "higher"), FORM),
        (Play(1, ("6",), np.array([1, 2]), "higher"), FORM),
        (Play(1, ("6",), 10**5000, "higher"), FORM),
        (Play(1, ("6",) * 1000, 0, "higher"), FORM),
        (Play(1, ("X" * 10**6,), 0, "higher"), CARDS),
        (Play(1, ("6",), -1, "higher"), "the target must be another seat still in the round"),
        (Play(1, None, 0, "higher"), FORM),
        (Play(0.0, ("5",), 1, "higher"), r"seat 0\.0 is not in this game"),
        (Play(None, ("5",), 1, "higher"), "seat None is not in this game"),
        (Play(True, ("5",), 1, "higher"), "seat True is not in this game"),
        (Play(10**5000, ("5",), 1, "higher"), "seat <an int of 5001 digits> is not in this game"),
        (TimeOut(1.5), r"seat 1\.5 is not in this game"),
        (TimeOut(np.int64(9)), "seat 9 is not in this game"),
        ("0:play 5 @1 higher", "is a string, not a Boom Bokken move"),
        (None, "None is not a Boom Bokken move"),
    ],
)
def test_malformed_moves_are_illegal_moves(named, move, message):
    """A move with fields of the wrong form (or no move at all) is an IllegalMoveError,
    never a TypeError or IndexError, quickly, and the state is unchanged."""
    before = named.to_dict()
    start = time.perf_counter()
    with pytest.raises(fg.IllegalMoveError, match=message):
        named.apply(move)
    assert time.perf_counter() - start < 1
    assert named.to_dict() == before


@pytest.mark.parametrize(
    "next_leader",
    [1.5, "2", 10**5000, [2], np.array([2, 3])],
    ids=["float", "str", "huge", "list", "array"],
)
def test_a_boom_naming_a_leader_of_the_wrong_form_is_refused(next_leader):
    """Where seat 1 must Boom, a Boom whose next leader is of the wrong form names its field."""
    state = play(
        table([["5", "1"], ["2", "3"], ["4", "6"], ["7", "8"]], TEAMS), "0:play 5 @1 higher"
    )
    assert Boom(1, 2) in state.legal_moves(1)
    with pytest.raises(fg.IllegalMoveError, match=f"field next_leader = .* {FORM}"):
        state.apply(Boom(1, next_leader))


def test_numpy_fields_are_accepted_as_the_ints_they_are(named):
    """numpy integers and a numpy bool are fine seats, targets and knocks."""
    move = Play(np.int64(1), ("6",), np.int8(0), "lower", np.False_)
    assert named.apply(move).target == 0
    assert named.legal_moves(np.int64(2)) == named.legal_moves(2)


def test_illegal_moves_of_seats_that_may_not_act_say_why(named):
    """A seat with no legal move now hears which rule its move breaks, not only whose turn it
    is: out of the round, the pile is empty, not its card to answer, no Temps Mort."""
    with pytest.raises(fg.IllegalMoveError, match="out of turn only a Flash of 5"):
        named.apply(Play(3, ("7",), 0, "higher"))
    with pytest.raises(fg.IllegalMoveError, match="holds no Temps Mort"):
        named.apply(TimeOut(3))
    with pytest.raises(fg.IllegalMoveError, match="only the named player"):
        named.apply(Boom(3, 0))


@pytest.mark.parametrize("seat", [4, 9, -1, 1.5, True, "0", None, np.int64(7)])
def test_per_seat_getters_refuse_bad_seats(seat):
    """hand(seat) and known_cards(seat) raise IllegalMoveError for a seat not in the game
    (no IndexError, no negative-index surprise)."""
    state = fg.make("boom_bokken", num_players=4).new_game(seed=0)
    with pytest.raises(fg.IllegalMoveError, match="seat"):
        state.hand(seat)
    with pytest.raises(fg.IllegalMoveError, match="seat"):
        state.known_cards(seat)
    assert state.hand(np.int64(3)) == state.hand(3)


@pytest.mark.parametrize(
    "text", ["0:play \uff15 @1 higher", "1\u0661:timeout", "0:play 5 @1\u0661 higher"]
)
def test_notation_is_ascii_only(text):
    """Non-ASCII digits are not notation, through the game or the module's parse_move."""
    game = fg.make("boom_bokken", num_players=4)
    with pytest.raises(fg.ParseError, match=r"\(ASCII notation only\)"):
        game.parse_move(text)
    with pytest.raises(fg.ParseError, match="is not a Boom Bokken move"):
        fg.boom_bokken.parse_move(text)


# ------------------------------------------------------------- impossible saved states


@pytest.fixture
def exploded():
    """Seat 0 went out with its 5 'higher' at seat 1, who exploded and named seat 2 to lead."""
    state = table([["5"], ["2", "3"], ["4", "6"], ["7", "8"]], TEAMS)
    return play(state, "0:play 5 @1 higher", "1:boom @2")


def _move_cards(data, seat, to):
    data["hands"][to] += data["hands"][seat]
    data["hands"][seat] = []


def _swap(data, a, card_a, b, card_b):
    data["hands"][a][data["hands"][a].index(card_a)] = card_b
    data["hands"][b][data["hands"][b].index(card_b)] = card_a


def _deck_to_hand(data, seat, count):
    data["hands"][seat] += data["deck"][:count]
    del data["deck"][:count]


IMPOSSIBLE = {
    "exploded seat holds nothing": (lambda d: _move_cards(d, 1, 2), "exploded seat 1 holds no"),
    "exploded seat could answer": (
        lambda d: _swap(d, 1, "3", 2, "6"),
        "exploded seat 1 holds a card that answers 'higher' on 5",
    ),
    "explosion forgotten": (lambda d: d.__setitem__("exploded_on", []), "exploded_on"),
    "token lost": (lambda d: d.__setitem__("tokens", [0, 0, 0, 0]), "tokens"),
    "token without explosion": (lambda d: d.__setitem__("tokens", [2, 0, 0, 0]), "tokens"),
    "known card not held": (lambda d: d["known_cards"].__setitem__(2, ["8"]), "known_cards"),
    "known bottom too long": (lambda d: d.__setitem__("known_bottom", 99), "known_bottom"),
    "hand bigger than the deal": (lambda d: _deck_to_hand(d, 3, 6), "cards; 7 are dealt"),
    "announcement without target": (lambda d: d.__setitem__("announce", "lower"), "announce"),
    "safe seat with cards": (lambda d: _move_cards(d, 3, 0), "safe seat 0"),
    "last player without a pile": (
        lambda d: d.__setitem__("last_player", 0),
        "no named player without a card on the pile",
    ),
    "named seat without a pile": (
        lambda d: d.update(target=0, announce="higher"),
        "no named player without a card on the pile",
    ),
    "one team left in play": (
        lambda d: d.__setitem__("teams", [0, 0, 1, 1]),
        "the round should be over: one team is left",
    ),
}


@pytest.mark.parametrize("name", sorted(IMPOSSIBLE))
def test_impossible_saved_states(exploded, name):
    """A saved state the rules could not reach (as far as the state shows) is refused with a
    StateError naming the broken rule: hands reordered so that an exploded seat holds
    nothing, or a card it could have answered with; tokens, knowledge or draws that do not
    fit the round."""
    data = exploded.to_dict()
    assert exploded.game.state_from_dict(copy.deepcopy(data)) == exploded
    change, message = IMPOSSIBLE[name]
    broken = copy.deepcopy(data)
    change(broken)
    with pytest.raises(fg.StateError, match=message):
        exploded.game.state_from_dict(broken)


def test_a_leader_exploded_on_temps_mort_loads_and_may_not_hold_a_card_to_lead_with():
    """Seat 0 leads holding only a Temps Mort and explodes (exploded_on null): the position
    loads back; the same hands with seat 0's T and seat 1's 2 swapped are refused, since
    seat 0 could then have led the 2."""
    state = play(table([["T"], ["2"], ["4"], ["7"]], TEAMS), "0:boom @1")
    data = state.to_dict()
    assert data["exploded_on"] == [None]
    assert state.game.state_from_dict(copy.deepcopy(data)) == state
    _swap(data, 0, "T", 1, "2")
    with pytest.raises(fg.StateError, match="exploded seat 0 holds a card to lead with"):
        state.game.state_from_dict(data)


@pytest.fixture(scope="module")
def finished():
    """A 4-player game played to its end by seeded random moves."""
    return final_state(fg.make("boom_bokken", num_players=4), 3)


OVER_TOO_SOON = {
    "a round's record missing": (lambda d: d["history"].pop(0), "three rounds must be recorded"),
    "round 2": (lambda d: d.__setitem__("round", 2), "three rounds must be recorded"),
    "a leader": (lambda d: d.__setitem__("leader", 0), "no leader and no named player"),
    "a named seat": (
        lambda d: d.update(target=0, announce="lower"),
        "no leader and no named player",
    ),
}


@pytest.mark.parametrize("name", sorted(OVER_TOO_SOON))
def test_a_finished_game_has_three_rounds_recorded_and_nobody_to_play(finished, name):
    """A saved finished game loads back, but not with a round's record missing, in round 2,
    or with a leader or a named seat left."""
    data = finished.to_dict()
    assert data["over"] and finished.game.state_from_dict(copy.deepcopy(data)) == finished
    change, message = OVER_TOO_SOON[name]
    change(data)
    with pytest.raises(fg.StateError, match=f"over: {message}"):
        finished.game.state_from_dict(data)


def test_deck_bottom_set_aside_mode_holds_no_temps_mort():
    """With Temps Mort set aside, none can lie in the known bottom of the draw pile."""
    state = table(
        [["5", "1"], ["2", "6"], ["4", "T"], ["7"]], TEAMS, deck_top=("T",), spent_time_outs="aside"
    )
    state = play(state, "0:play 5 @1 higher", "2:timeout")
    data = state.to_dict()
    data["known_bottom"] = len(data["deck"])
    with pytest.raises(fg.StateError, match="set aside"):
        state.game.state_from_dict(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # a saved state lacking its other keys is refused for those first ...
        ({"game": "boom_bokken", "num_players": 4, "seed": [[[[[]]]]]}, "state lacks hands"),
        ({"game": "boom_bokken", "num_players": 4, "hands": "x" * 10**6}, "state lacks seed"),
        # ... and a complete one for the malformed field itself
        ({"seed": [[[[[]]]]]}, r"seed must be an int in 0\.\.18446744073709551615, not \[\["),
        ({"hands": "x" * 10**6}, "hands must be a list of 4 items, not 'xxx"),
        ("{}", r"must be a JSON object \(a dict\), not the text '\{\}'"),
    ],
)
def test_malformed_saved_states_fail_fast(data, message):
    """Malformed saved states are refused quickly with a StateError."""
    game = fg.make("boom_bokken", num_players=4)
    if isinstance(data, dict) and "game" not in data:
        data = {**game.new_game(seed=0).to_dict(), **data}
    start = time.perf_counter()
    with pytest.raises(fg.StateError, match=message):
        game.state_from_dict(data)
    assert time.perf_counter() - start < 1


def test_team_sizes_take_numpy_arrays():
    """A 1-d numpy array of team sizes is a list of them, as for the other list options."""
    game = fg.make("boom_bokken", num_players=6, team_sizes=np.array([3, 3]))
    assert game == fg.make("boom_bokken", num_players=6, team_sizes=[3, 3])
    assert game.options()["team_sizes"] == [3, 3]


def _pile_back_to_hand_and_no_leader(data):
    data["hands"][data["last_player"]] += data["pile"]
    data.update(pile=[], leader=None, target=None, announce=None, last_player=None)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_pile_back_to_hand_and_no_leader, "leader None must be"),
        (lambda d: d.update(target=None, announce=None), "target None must be"),
        (lambda d: d.update(last_player=None), "last_player None:"),
    ],
)
def test_saved_seat_left_out_is_named_as_given(exploded, change, message):
    """A saved state whose leader, target or last player is null where the turn needs a seat
    is refused with a message quoting the null it was given, not the engine's -1."""
    state = play(exploded, "2:play 4 @3 higher")
    data = state.to_dict()
    change(data)
    with pytest.raises(fg.StateError, match=message):
        state.game.state_from_dict(data)
