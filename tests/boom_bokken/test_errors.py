"""Bad input: illegal moves, malformed notation and saved states raise the library's errors
and change nothing."""

import copy

import pytest

import forestgames as fg
from forestgames.boom_bokken import Boom, Play, TimeOut
from forestgames.bosk import ChooseWind
from tests.boom_bokken.positions import play, table

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
        with pytest.raises(fg.IllegalMoveError):
            call(4)
    with pytest.raises(fg.IllegalMoveError):
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
    with pytest.raises(fg.ParseError):
        fg.make("boom_bokken", num_players=4).parse_move(text)


def test_parse_move_rejects_non_text():
    """parse_move of a non-string raises ParseError."""
    with pytest.raises(fg.ParseError):
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
    "leader with a pile": lambda d: d.__setitem__("leader", 2),
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


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_bad_saved_states(named, name):
    """Each malformed or inconsistent saved state raises StateError."""
    data = named.to_dict()
    broken = _corrupt(data, CORRUPTIONS[name])
    with pytest.raises(fg.StateError):
        named.game.state_from_dict(broken)
    assert named.to_dict() == data


def test_saved_state_round_trip(named):
    """A state survives to_dict/state_from_dict exactly."""
    assert named.game.state_from_dict(named.to_dict()) == named


def test_deal_rejects_cards_not_in_the_deck():
    """game.deal refuses hands that use more cards than the deck holds."""
    game = fg.make("boom_bokken", num_players=4)
    with pytest.raises(fg.StateError):
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
