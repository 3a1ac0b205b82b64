"""Bad input raises the library's errors and changes nothing: moves, notation, states, options."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import forestgames as fg
from forestgames.bonsai import ClaimGoal, Discard, Finish, Meditate, Place, Prune, parse_move
from forestgames.bosk import PlantTree
from tests.bonsai.helpers import arrange, supply


@pytest.fixture
def state():
    return arrange(2, trees={0: {(0, -1): "wood"}}, supplies={0: supply(wood=1, leaf=1)})


@pytest.mark.parametrize(
    "move, message",
    [
        (Place(1, "leaf", (-1, -1)), "seat 0's turn"),
        (Finish(0), "action step"),
        (Discard(0, "wood"), "action step"),
        (ClaimGoal(0, "brown", 1), "action step"),
        (Place(0, "bark", (-1, -1)), "kind and a cell"),
        (Place(0, "leaf", (0.5, -1)), "kind and a cell"),
        (Place(0, "leaf", (1, 0)), "pot"),
        (Place(0, "fruit", (-1, -1)), "holds no fruit"),
        (Meditate(0, 5), "slot 5"),
        (Meditate(0, 3, wild="leaf"), "wild"),
        (Prune(0, (0, -1)), "only when no wood"),
        (PlantTree(0, 1, (1, 1)), "not a Bonsai move"),
    ],
)
def test_illegal_moves_raise_and_change_nothing(state, move, message):
    """Each illegal move raises IllegalMoveError naming the problem; the state is untouched."""
    before = state.to_dict()
    with pytest.raises(fg.IllegalMoveError, match=message):
        state.apply(move)
    assert state.to_dict() == before


def test_moves_after_the_end_are_refused():
    """Nothing is legal once the game is over."""
    state = arrange(2, deck_size=0, turn=1, last_turn=1, phase="over")
    assert state.legal_moves() == ()
    with pytest.raises(fg.IllegalMoveError, match="over"):
        state.apply(Meditate(1, 1))


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
    with pytest.raises(fg.ParseError):
        parse_move(text)


def test_parse_error_for_non_text():
    """A non-string raises ParseError too."""
    with pytest.raises(fg.ParseError):
        parse_move(None)


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


def _broken(data, edit):
    data = copy.deepcopy(data)
    edit(data)
    return data


EDITS = {
    "unknown key": lambda d: d.update(extra=1),
    "wrong game": lambda d: d.update(game="bosk"),
    "wrong player count": lambda d: d.update(num_players=3),
    "bad phase": lambda d: d.update(phase="nap"),
    "bad first player": lambda d: d.update(first_player=2),
    "negative turn": lambda d: d.update(turn=-1),
    "unknown card": lambda d: d["deck"].__setitem__(0, "joker"),
    "card duplicated": lambda d: d["deck"].append(d["deck"][0]),
    "card lost": lambda d: d["deck"].pop(),
    "market too short": lambda d: d["market"].pop(),
    "empty slot with a deck left": lambda d: (
        d["deck"].append(d["market"][0]) or d["market"].__setitem__(0, None)
    ),
    "tile on the pot": lambda d: d["players"][0]["tree"].append([1, 0, "wood"]),
    "floating leaf": lambda d: d["players"][0]["tree"].append([3, -6, "leaf"]),
    "unsupported fruit": lambda d: d["players"][0]["tree"].append([1, -1, "fruit"]),
    "two tiles on a cell": lambda d: d["players"][0]["tree"].extend(
        [[0, -1, "wood"], [0, -1, "wood"]]
    ),
    "bad kind": lambda d: d["players"][0]["tree"].append([0, -2, "bark"]),
    "bad tree item": lambda d: d["players"][0]["tree"].append([0, -1]),
    "negative supply": lambda d: d["players"][0]["supply"].update(wood=-1),
    "over the storage limit": lambda d: d["players"][0]["supply"].update(wood=6),
    "supply key": lambda d: d["players"][0]["supply"].update(bark=1),
    "unknown goal": lambda d: d["goal_owners"].update({"purple 1": 0}),
    "goal owner seat": lambda d: d["goal_owners"].update({"brown 1": 5}),
    "two goals of a colour": lambda d: d["goal_owners"].update({"brown 1": 0, "brown 2": 0}),
    "claimed and renounced": lambda d: (
        d["goal_owners"].update({"brown 1": 0}) or d["renounced"][0].append("brown 1")
    ),
    "symbols outside a cultivate": lambda d: d["symbols"].update(wild=1),
    "discard step within the limit": lambda d: d.update(phase="discard"),
    "goals step with nothing to offer": lambda d: d.update(phase="goals"),
    "over without an end": lambda d: d.update(phase="over"),
    "last turn with a deck": lambda d: d.update(last_turn=1),
    "solo discards in a 2-player game": lambda d: d["discards"].append(d["deck"].pop()),
    "cards out of order": lambda d: (
        d["players"][0].update(cards=["tool", "growth:wood"][::-1])
        or [d["deck"].remove(n) for n in ("tool", "growth:wood")]
    ),
    "not a dict": lambda d: d["players"].__setitem__(0, []),
}


@pytest.mark.parametrize("name", sorted(EDITS))
def test_malformed_saved_states_raise_state_error(state, name):
    """Each broken saved state raises StateError (and the original still loads)."""
    data = json.loads(json.dumps(state.to_dict()))
    bad = _broken(data, EDITS[name])
    with pytest.raises(fg.StateError):
        state.game.state_from_dict(bad)
    assert state.game.state_from_dict(data) == state


@pytest.mark.parametrize(
    "options",
    [
        {"num_players": 0},
        {"num_players": 5},
        {"num_players": "2"},
        {"goal_setup": "some"},
        {"end_rule": "sudden"},
        {"pot_sides_free": "yes"},
        {"wood_beside_pot": 1},
        {"colour": "red"},
    ],
)
def test_bad_options_raise_config_error(options):
    """Unknown or bad options raise ConfigError naming the option."""
    with pytest.raises(fg.ConfigError):
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


def test_last_turn_must_fit_the_end_rule():
    """A saved last turn that does not close a round is refused under the round rule only."""
    with pytest.raises(fg.StateError, match="round end rule"):
        arrange(2, deck_size=0, turn=2, last_turn=2)
    assert arrange(2, options={"end_rule": "extra_turn"}, deck_size=0, turn=2, last_turn=2)
    with pytest.raises(fg.StateError, match="last_turn 5 does not fit turn 1"):
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
        state.game.state_from_dict(broken)
    except fg.StateError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_text_parses_or_raises_parse_error(text):
    """parse_move never fails with anything but ParseError, and what parses prints back."""
    try:
        move = parse_move(text)
    except fg.ParseError:
        return
    assert parse_move(str(move)) == move
