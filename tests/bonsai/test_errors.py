"""Bad input raises the library's errors and changes nothing: moves (and their fields),
notation, saved states (malformed, or positions the rules could not reach), options,
seats and seeds."""

import copy
import json

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import forestgames as fg
from forestgames.bonsai import (
    ClaimGoal,
    Discard,
    Finish,
    Meditate,
    Phase,
    Place,
    Prune,
    RenounceGoal,
    parse_move,
)
from forestgames.bosk import PlantTree
from tests.bonsai.helpers import CARD_ORDER, arrange, supply
from tests.refusals import refused
from tests.strategies import random_game


def _position():
    """Seat 0 to act, with a trunk, two Master cards taken and a wood and a leaf in hand."""
    return arrange(
        2,
        trees={0: {(0, -1): "wood"}},
        hands={0: ["master:wood+leaf", "master:leaf+leaf"]},
        supplies={0: supply(wood=1, leaf=1)},
    )


POSITION = _position()


@pytest.fixture
def state():
    return POSITION


# ---------------------------------------------------------------------- illegal moves


@pytest.mark.parametrize(
    "move, message",
    [
        (Place(1, "leaf", (-1, -1)), "seat 0's turn"),
        (Finish(0), "in the action"),
        (Discard(0, "wood"), "in the action"),
        (ClaimGoal(0, "brown", 1), "in the action"),
        (Place(0, "bark", (-1, -1)), "kind and a cell"),
        (Place(0, "leaf", (0.5, -1)), "field at = .* is not of the right form"),
        (Place(0, "leaf", (1, 0)), "pot"),
        (Place(0, "leaf", (600, 0)), "kind and a cell"),
        (Place(0, "fruit", (-1, -1)), "holds no fruit"),
        (Meditate(0, 5), "slot 5"),
        (Meditate(0, -3), "slot -3"),
        (Meditate(0, 3, wild="leaf"), "wild"),
        (Meditate(0, 2, tile="flower"), "slot 2"),
        (Prune(0, (0, -1)), "no pruning while a wood tile fits"),
        (PlantTree(0, 1, (1, 1)), "not a Bonsai move"),
        (Finish(7), "seat 7 is not in this game"),
    ],
)
def test_illegal_moves_raise_and_change_nothing(state, move, message):
    """Each illegal move raises IllegalMoveError naming the problem; the state is untouched."""
    refused(state, move, message)


FORM = "is not of the right form"


@pytest.mark.parametrize(
    "move, message",
    [
        (Place(0, "wood", "x"), FORM),
        (Meditate(0, 3, wild=[0, 0]), FORM),
        (Meditate(0, 3, wild=np.array([1, 2])), FORM),
        (Meditate(0, "3"), FORM),
        (Place(0, "wood", (0, -1, 2)), FORM),
        (Place(0, "wood", ("0", "-1")), FORM),
        (Place(0, ["wood"], (0, -1)), FORM),
        (Place(0, "wood" * 100, (0, -1)), FORM),
        (Place(0, "wood", (10**40, -1)), FORM),
        (Place(0, "wood", (10**5000, -1)), FORM),
        (Meditate(0, 10**5000), FORM),
        (Meditate(0, 2, tile="wood" * 60), FORM),
        # No Prune is offered here, so this one is refused before its cell is looked at
        # (see the test below for a malformed Prune where pruning is allowed).
        (Prune(0, None), "no pruning while a wood tile fits"),
        (Meditate(True, 1), "seat True is not in this game"),
        (Meditate(None, 1), "seat None is not in this game"),
        ("0:meditate 1", "is a string, not a Bonsai move"),
        (None, "None is not a Bonsai move"),
    ],
)
def test_malformed_move_fields_raise_illegal_move_error(state, move, message):
    """A move whose fields are of the wrong form (or no move at all) is refused with
    IllegalMoveError saying what is wrong, never TypeError or IndexError."""
    with pytest.raises(fg.IllegalMoveError, match=message):
        state.apply(move)


@pytest.mark.parametrize("at", [None, "x", (0, -1, 1), (0.0, -1.0)])
def test_a_prune_of_the_wrong_form_is_refused_where_pruning_is_allowed(at):
    """Where pruning is offered, a Prune whose cell is of the wrong form names its field."""
    blocked = arrange(2, trees={0: {(0, -1): "leaf", (1, -1): "leaf", (0, -2): "flower"}})
    assert Prune(0, (0, -1)) in blocked.legal_moves()
    with pytest.raises(fg.IllegalMoveError, match=f"field at = .* {FORM}"):
        blocked.apply(Prune(0, at))


def test_numpy_integers_are_the_ints_they_are(state):
    """Numpy integers in move fields make the same moves as Python ints."""
    after = state.apply(Place(np.int64(0), "wood", (np.int8(0), np.int16(-2))))
    assert after == state.apply(Place(0, "wood", (0, -2)))
    assert state.apply(Meditate(np.int32(0), np.int64(3))) == state.apply(Meditate(0, 3))


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from([Place, Meditate, Discard, Prune, ClaimGoal, RenounceGoal, Finish]),
    values=st.lists(
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-(10**30), 10**30),
            st.just(10**5000),
            st.floats(allow_nan=True),
            st.text(max_size=8),
            st.sampled_from(["wood", "leaf", "flower", "fruit", "brown", "green"]),
            st.tuples(st.integers(-5, 5), st.integers(-5, 5)),
            st.lists(st.integers(-3, 3), max_size=3),
        ),
        min_size=4,
        max_size=4,
    ),
)
def test_any_move_fields_apply_or_raise_illegal_move_error(kind, values):
    """A move of any kind with any field values is applied or refused with IllegalMoveError."""
    state = POSITION
    fields = [f.name for f in attrs.fields(kind)]
    try:
        move = kind(**dict(zip(fields, values, strict=False)))
    except (TypeError, ValueError):  # the move class itself refused the values
        return
    try:
        state.apply(move)
    except fg.IllegalMoveError:
        pass


def test_moves_after_the_end_are_refused():
    """Nothing is legal once the game is over."""
    state = arrange(2, deck_size=0, turn=1, last_turn=1, phase="over")
    assert state.legal_moves() == ()
    with pytest.raises(fg.IllegalMoveError, match="over"):
        state.apply(Meditate(1, 1))


# ---------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    "text",
    [
        "",
        "meditate 1",
        "0:meditate 0",
        "0:meditate 5",
        "0:meditate 2 flower",
        "0:meditate 1 wild=bark",
        "0:place leaf",
        "0:place leaf@1",
        "0:place leaf@a,b",
        "0:place bark@0,-1",
        "0:place leaf@-0,1",
        "0:finish now",
        "0:discard",
        "0:prune@0",
        "0:claim purple 1",
        "0:claim brown 4",
        "0:renounce brown",
        "-1:finish",
        "0 : finish",
        "0:place leaf@01,-1",
    ],
)
def test_malformed_notation_raises_parse_error(text):
    """Text that is not Bonsai notation raises ParseError."""
    with pytest.raises(fg.ParseError, match="is not a Bonsai move"):
        parse_move(text)
    with pytest.raises(fg.ParseError, match="is not a Bonsai move"):
        fg.make("bonsai").parse_move(text)


def test_parse_error_for_non_text_and_non_ascii():
    """A non-string, or digits that are not ASCII, raise ParseError too."""
    with pytest.raises(fg.ParseError, match="a Bonsai move is text, not NoneType"):
        parse_move(None)
    with pytest.raises(fg.ParseError, match=r"\(ASCII notation only\)"):
        fg.make("bonsai").parse_move("0:place leaf@1,-２")  # noqa: RUF001 - a fullwidth digit on purpose


@pytest.mark.parametrize(
    "text",
    [
        "0:meditate 2 leaf wild=fruit",
        "3:place fruit@-12,-30",
        "1:prune@0,-1",
        "2:renounce blue 3",
        "0:discard flower",
        "1:finish",
        "0:claim pink 2",
        "0:meditate 4",
    ],
)
def test_notation_round_trip(text):
    """Every kind of move prints back to the text it was parsed from."""
    assert str(parse_move(text)) == text
    assert parse_move(f"  {text} ") == parse_move(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_text_parses_or_raises_parse_error(text):
    """parse_move never fails with anything but ParseError, and what parses prints back."""
    try:
        move = parse_move(text)
    except fg.ParseError:
        return
    assert parse_move(str(move)) == move


# ---------------------------------------------------------------------- saved states


def _broken(data, edit):
    data = copy.deepcopy(data)
    edit(data)
    return data


def _seat0(d):
    return d["players"][0]


EDITS = {
    "unknown key": (lambda d: d.update(extra=1), "unknown keys extra"),
    "wrong game": (lambda d: d.update(game="bosk"), "not a Bonsai state"),
    "wrong player count": (lambda d: d.update(num_players=3), "for 3 players"),
    "bad phase": (lambda d: d.update(phase="nap"), "phase must be one of"),
    "bad first player": (lambda d: d.update(first_player=2), "first_player must be an int"),
    "negative turn": (lambda d: d.update(turn=-1), "turn must be an int"),
    "huge turn": (lambda d: d.update(turn=10**5000), "turn must be an int"),
    "unknown card": (lambda d: d["deck"].__setitem__(0, "joker"), r"deck\[0\] must be one of"),
    "card duplicated": (lambda d: d["deck"].append(d["deck"][0]), "the state has"),
    "card lost": (lambda d: d["deck"].pop(), "the state has"),
    "market too short": (lambda d: d["market"].pop(), "market must be a list of 4"),
    "empty slot with a deck left": (
        lambda d: d["deck"].append(d["market"][0]) or d["market"].__setitem__(0, None),
        "empty only once the deck is empty",
    ),
    "tile on the pot": (
        lambda d: _seat0(d)["tree"].append([1, 0, "wood"]),
        "no tile may go on the pot",
    ),
    "the bud listed": (lambda d: _seat0(d)["tree"].append([0, 0, "wood"]), "the bud"),
    "floating leaf": (
        lambda d: _seat0(d)["tree"].append([3, -6, "leaf"]),
        r"the leaf at \(3, -6\) breaks the placement rules",
    ),
    "unsupported fruit": (
        lambda d: _seat0(d)["tree"].append([1, -1, "fruit"]),
        "fruit at .* breaks the placement rules",
    ),
    "two tiles on a cell": (
        lambda d: _seat0(d)["tree"].extend([[0, -2, "wood"], [0, -2, "wood"]]),
        "two tiles on",
    ),
    "bad kind": (lambda d: _seat0(d)["tree"].append([0, -2, "bark"]), "must be one of 'wood'"),
    "bad tree item": (lambda d: _seat0(d)["tree"].append([0, -1]), "must be a list of 3"),
    "negative supply": (lambda d: _seat0(d)["supply"].update(wood=-1), "supply.wood must be"),
    "over the storage limit": (
        lambda d: _seat0(d)["supply"].update(wood=6, leaf=0),
        "holds 6 tiles, over its storage limit 5",
    ),
    "supply key": (lambda d: _seat0(d)["supply"].update(bark=1), "unknown keys bark"),
    "unknown goal": (lambda d: d["goal_owners"].update({"purple 1": 0}), "must be one of"),
    "goal owner seat": (lambda d: d["goal_owners"].update({"brown 1": 5}), "must be an int"),
    "two goals of a colour": (
        lambda d: d["goal_owners"].update({"green 1": 0, "green 2": 0}),
        "two goals of one colour",
    ),
    "claimed and renounced": (
        lambda d: d["goal_owners"].update({"green 1": 0}) or d["renounced"][0].append("green 1"),
        "both claimed and renounced",
    ),
    "renounced twice": (
        lambda d: d["renounced"][0].extend(["green 1", "green 1"]),
        "lists green 1 twice",
    ),
    "symbols outside a cultivate": (
        lambda d: d["symbols"].update(wild=1),
        "no placement symbols may be left",
    ),
    "discard step within the limit": (lambda d: d.update(phase="discard"), "discard step"),
    "goals step with nothing to offer": (
        lambda d: d.update(phase="goals"),
        "goals step without a goal to offer",
    ),
    "over without an end": (lambda d: d.update(phase="over"), "must be its last turn"),
    "last turn with a deck": (lambda d: d.update(last_turn=5), "the deck is not empty"),
    "solo discards in a 2-player game": (
        lambda d: d["discards"].append(d["deck"].pop()),
        "only the solo game discards",
    ),
    "cards out of order": (
        lambda d: _seat0(d)["cards"].reverse(),
        "must be in card-table order",
    ),
    "not a dict": (lambda d: d["players"].__setitem__(0, []), r"players\[0\] must be an object"),
    "one goal in play of fifteen": (
        lambda d: d.update(goals_in_play=["green 1"]),
        "do not fit the 'all' goal setup",
    ),
    "brown goal without its wood": (
        lambda d: d["goal_owners"].update({"brown 1": 0}),
        r"holds brown 1 \(at least 8 wood\) with 2 wood",
    ),
    "tiles from nowhere": (
        lambda d: (
            _seat0(d)["tree"].extend([[0, -2, "wood"], [0, -3, "wood"], [0, -4, "wood"]])
            or _seat0(d)["supply"].update(wood=3, leaf=3)
        ),
        "gave at most 9",
    ),
    "a hand larger than the turns": (
        lambda d: _seat0(d).update(
            cards=sorted([*_seat0(d)["cards"], d["deck"].pop(0)], key=CARD_ORDER.__getitem__)
        ),
        "holds 3 cards after 2 turn",
    ),
    "a cultivate with nothing spent": (
        lambda d: (
            d.update(phase="cultivate")
            or d["symbols"].update(wood=1, leaf=1, flower=0, fruit=0, wild=1)
        ),
        "do not fit a cultivate step",
    ),
    "a helper without a Helper card": (
        lambda d: d.update(phase="helper") or d["symbols"].update(wood=1, wild=1),
        "do not fit a helper step",
    ),
}


@pytest.mark.parametrize("name", sorted(EDITS))
def test_bad_saved_states_raise_state_error(state, name):
    """Each broken or unreachable saved state raises StateError naming the rule it breaks
    (and the original still loads)."""
    data = json.loads(json.dumps(state.to_dict()))
    edit, message = EDITS[name]
    with pytest.raises(fg.StateError, match=message):
        state.game.state_from_dict(_broken(data, edit))
    assert state.game.state_from_dict(data) == state


def test_a_deck_card_in_a_hand_at_turn_zero_is_refused():
    """At the first turn nobody has taken a card yet."""
    game = fg.make("bonsai", num_players=2)
    data = game.new_game(seed=3).to_dict()
    data["players"][0]["cards"] = [data["deck"].pop(0)]
    with pytest.raises(fg.StateError, match="seat 0 holds 1 cards after 0 turn"):
        game.state_from_dict(data)


def test_a_seat_holds_no_more_cards_than_its_turns_while_another_seat_meditates():
    """Mid-turn after a Meditate (the helper step), only the seat on turn may hold a card
    from this turn: the other seat, with one card more than the turns it has played, is
    refused."""
    game = fg.make("bonsai", num_players=2)
    state = next(
        s
        for seed in range(20)
        for s, _ in random_game(game, seed)
        if s.phase is Phase.HELPER and s.turn >= 3
    )
    other = 1 - state.current_player
    played = sum(1 for t in range(state.turn) if (state.first_player + t) % 2 == other)
    data = state.to_dict()
    hand = data["players"][other]["cards"]
    while len(hand) <= played:
        hand.append(data["deck"].pop())
    hand.sort(key=CARD_ORDER.__getitem__)
    with pytest.raises(
        fg.StateError, match=f"seat {other} holds {played + 1} cards after {played}"
    ):
        game.state_from_dict(data)


def test_goals_in_play_must_fit_the_options():
    """A 3-player game with one goal in play, its options putting all 15 in play, is refused;
    the published setup needs three colours with the tiers of the player count."""
    game = fg.make("bonsai", num_players=3)
    data = game.new_game(seed=3).to_dict()
    data["goals_in_play"] = ["brown 1"]
    with pytest.raises(fg.StateError, match="do not fit the 'all' goal setup"):
        game.state_from_dict(data)
    published = fg.make("bonsai", num_players=3, goal_setup="published")
    data = published.new_game(seed=3).to_dict()
    assert published.state_from_dict(data).goals_in_play
    for names in (data["goals_in_play"][:-1], ["brown 1", "brown 3", "green 1", "green 3"]):
        with pytest.raises(fg.StateError, match="published"):
            published.state_from_dict({**data, "goals_in_play": names})


def test_a_seat_that_has_not_played_holds_its_start():
    """Before its first turn a seat holds its starting tiles, no card and the bud alone."""
    game = fg.make("bonsai", num_players=3)
    data = game.new_game(seed=3, first_player=0).to_dict()
    data["players"][2]["tree"] = [[0, -1, "wood"]]
    with pytest.raises(fg.StateError, match="seat 2 has not played yet"):
        game.state_from_dict(data)


def test_a_met_goal_left_unsettled_is_refused():
    """A seat that met a goal at the end of its action claimed or renounced it then."""
    trunk = {(0, -k): "wood" for k in range(1, 8)}  # 8 wood with the bud: brown 1 met
    state = arrange(2, trees={1: trunk})
    assert state.renounced[1] == 1  # the helper settles it: renounced
    data = state.to_dict()
    data["renounced"][1] = []
    with pytest.raises(fg.StateError, match="seat 1 meets brown 1"):
        state.game.state_from_dict(data)


def test_an_empty_deck_needs_its_last_turn():
    """Once a turn ends with the deck empty, the game's last turn is set."""
    state = arrange(2, deck_size=0, last_turn=1)
    data = state.to_dict()
    data["last_turn"] = None
    with pytest.raises(fg.StateError, match="the deck is empty, so last_turn must be set"):
        state.game.state_from_dict(data)


def test_a_turn_never_starts_with_an_empty_market():
    """With the deck empty, a turn may start with one market card left (on the far side
    from the deck), but not with none: the deck runs out refilling the market to 4, and at
    most one turn per seat (4 at the most) follows, each taking one card at the most."""
    last = arrange(2, market=[None, None, None, "parchment:wood"], deck_size=0, last_turn=1)
    assert last.phase is Phase.ACTION and not last.is_terminal
    with pytest.raises(fg.StateError, match="a turn starts with an empty market"):
        arrange(2, market=[None] * 4, deck_size=0, last_turn=1)


def test_last_turn_must_fit_the_end_rule():
    """A saved last turn that does not close a round is refused under the round rule only;
    it never lies more than a round ahead of the turn."""
    with pytest.raises(fg.StateError, match="round end rule"):
        arrange(2, deck_size=0, turn=2, last_turn=2)
    assert arrange(2, options={"end_rule": "extra_turn"}, deck_size=0, turn=2, last_turn=2)
    with pytest.raises(fg.StateError, match=r"last_turn \d+ does not fit turn \d+"):
        arrange(2, deck_size=0, turn=1, last_turn=5)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(value, prefix=()):
    """Every path to a value inside nested dicts and lists."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_corrupted_saved_state_loads_or_raises_state_error(data):
    """Replacing any one value of a saved state by arbitrary JSON either loads (the value was
    still valid) or raises StateError: never another exception."""
    state = arrange(
        3, trees={0: {(0, -1): "wood", (-1, -1): "leaf"}}, hands={1: ["tool", "parchment:leaf"]}
    )
    saved = state.to_dict()
    paths = [p for p in _paths(saved) if p]
    path = data.draw(st.sampled_from(paths))
    broken = copy.deepcopy(saved)
    target = broken
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(JSON_VALUES)
    try:
        loaded = state.game.state_from_dict(broken)
    except fg.StateError:
        return
    loaded.legal_moves()
    assert state.game.state_from_dict(loaded.to_dict()) == loaded


# ---------------------------------------------------------------------- seats and seeds


@pytest.mark.parametrize("seat", [5, 2, -1, -2, True, 1.0, "0", None, np.int64(7)])
def test_per_seat_getters_refuse_a_bad_seat(state, seat):
    """tree, supply, cards_of, score_parts, storage_limit and cultivate_symbols take a seat of
    the game and nothing else (no negative index reaching another seat)."""
    for getter in (
        state.tree,
        state.supply,
        state.cards_of,
        state.score_parts,
        state.storage_limit,
        state.cultivate_symbols,
    ):
        with pytest.raises(fg.IllegalMoveError, match="seat"):
            getter(seat)


def test_per_seat_getters_take_numpy_seats(state):
    """A numpy integer seat is the seat it is."""
    assert state.tree(np.int64(0)) == state.tree(0)
    assert state.supply(np.int8(1)) == state.supply(1)
    assert state.score_parts(np.int32(0)) == state.score_parts(0)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7", True, [1], float("nan"), None])
def test_determinize_refuses_a_bad_seed(state, seed):
    """determinize takes a non-negative int seed only."""
    with pytest.raises(fg.ConfigError, match="seed must be"):
        state.determinize(0, seed)


# ---------------------------------------------------------------------- options


@pytest.mark.parametrize(
    "options, message",
    [
        ({"num_players": 0}, "played by 1 to 4 players, not 0"),
        ({"num_players": 5}, "played by 1 to 4 players, not 5"),
        ({"num_players": "2"}, "num_players must be an int"),
        ({"goal_setup": "some"}, "option goal_setup must be one of"),
        ({"end_rule": "sudden"}, "option end_rule must be one of"),
        ({"pot_sides_free": "yes"}, "option pot_sides_free must be True or False"),
        ({"wood_beside_pot": 1}, "option wood_beside_pot must be True or False"),
        ({"colour": "red"}, r"unknown Bonsai option\(s\) 'colour'"),
        ({"num_players": 1, "solo_difficulty": []}, "option solo_difficulty must be an int"),
        ({"num_players": 1, "solo_difficulty": {}}, "option solo_difficulty must be an int"),
        ({"num_players": 1, "solo_difficulty": 2.0}, "option solo_difficulty must be an int"),
        ({"num_players": 1, "solo_difficulty": 10**5000}, "option solo_difficulty must be in 1..4"),
        ({"num_players": 1, "goal_setup": "all"}, "solo Bonsai always plays the published goal"),
        ({"num_players": 2, "solo_difficulty": 2}, "option solo_difficulty is for solo games only"),
    ],
)
def test_bad_options_raise_config_error(options, message):
    """Unknown or bad options raise ConfigError naming the option."""
    with pytest.raises(fg.ConfigError, match=message):
        fg.make("bonsai", **options)


def test_options_rebuild_the_game():
    """options() gives back the keyword options of make()."""
    game = fg.make(
        "bonsai", num_players=3, goal_setup="published", end_rule="extra_turn", wood_beside_pot=True
    )
    assert fg.make("bonsai", **game.options()) == game
    solo = fg.make("bonsai", num_players=1, solo_difficulty=3)
    assert (
        fg.make("bonsai", **solo.options()) == solo
        and eval(repr(solo), {"BonsaiGame": type(solo)}) == solo
    )
    assert fg.make("bonsai", num_players=np.int64(4)).num_players == 4


def test_docs_options_table_is_the_declared_one():
    """The Options table of docs/bonsai.md is the one the option spec makes."""
    from pathlib import Path

    from forestgames.core import options_table

    text = (Path(__file__).parents[2] / "docs" / "bonsai.md").read_text(encoding="utf-8")
    table = text.split("<!-- options -->\n", 1)[1].split("\n<!-- /options -->", 1)[0]
    assert table == options_table(fg.bonsai.BonsaiGame.OPTIONS)
