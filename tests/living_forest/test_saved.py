"""Saved states: exact round trips, and StateError for every malformed or inconsistent one."""

import copy
import json

import pytest

import forestgames as fg
from forestgames.living_forest._tables import CARD_INDEX
from tests.living_forest.helpers import make
from tests.strategies import random_game


def midgame(phase="actions", players=3, seed=4):
    """A state of a random game, well into it, in ``phase``."""
    game = make(players)
    for state, _ in random_game(game, seed):
        if state.turn >= 4 and state.phase.value == phase and any(state.fragments):
            return state
    raise AssertionError("no such state")


def test_round_trip_through_json():
    """to_dict -> JSON -> state_from_dict gives back an equal state with the same moves."""
    for phase in ("guardians", "actions"):
        state = midgame(phase)
        restored = state.game.state_from_dict(json.loads(json.dumps(state.to_dict())))
        assert restored == state and restored.legal_moves() == state.legal_moves()


def _mutate(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value(target[path[-1]]) if callable(value) else value

    return change


def _card_order(names):
    return sorted(names, key=CARD_INDEX.__getitem__)


def _swap_reserve_levels(data):
    one, three = data["reserve"]["I"]["row"], data["reserve"]["III"]["row"]
    data["reserve"]["I"]["row"], data["reserve"]["III"]["row"] = (
        one[1:] + three[:1],
        one[:1] + three[1:],
    )


def _swap_first_deck_card_for(name):
    return _mutate(("spirits", 0, "deck"), lambda deck: [name] + deck[1:])


BREAKAGES = [
    ("wrong game", _mutate(("game",), "bosk"), "not a Living Forest state"),
    ("player count", _mutate(("num_players",), 2), "for 2 players"),
    ("phase", _mutate(("phase",), "dusk"), "phase must be one of"),
    ("step", _mutate(("step",), "dance"), "step must be one of"),
    ("action", _mutate(("actions",), ["nap"]), r"actions\[0\] must be one of"),
    ("turn type", _mutate(("turn",), "3"), "turn must be an int"),
    ("turn bool", _mutate(("sacred",), True), "sacred must be an int"),
    ("seat range", _mutate(("seat_index",), 3), "seat_index must be an int in 0..2"),
    ("card name", _mutate(("spirits", 0, "line"), ["Unicorn"]), r"line\[0\] must be one of .*not \'Unicorn\'"),
    ("spirits length", _mutate(("spirits",), lambda s: s[:2]), "list of 3"),
    ("spirit key", _mutate(("spirits", 1), lambda s: {**s, "mana": 1}), "unknown keys mana"),
    ("start card duplicated", _swap_first_deck_card_for("Bear"), "Bear cards; each Spirit has 1"),
    (
        "level card twice",
        _mutate(("spirits", 0, "discard"), lambda d: _card_order(d + ["Hedgehog"])),
        "Hedgehog appears 2 times",
    ),
    ("varans", _mutate(("varans",), lambda v: v - 1 if v else v + 1), "Fire Varans"),
    ("fire supply", _mutate(("fire_supply", 2), lambda v: v + 1), r"fire_supply\[2\] must be an int"),
    ("fires lost", _mutate(("fire_supply", 2), lambda v: v - 1), "value 4"),
    ("centre unsorted", _mutate(("centre",), [4, 2]), "sorted"),
    ("centre values", _mutate(("centre",), [5]), r"centre\[0\] must be an int in 2..4"),
    ("eight fires", _mutate(("centre",), [2] * 8), "centre must be a list of 0..7"),
    ("fragments", _mutate(("spirits", 0, "fragments"), 21), "fragments must be an int in 0..20"),
    (
        "victory tiles",
        _mutate(("spirits", 0, "victory", "fire"), lambda v: v + 1),
        "fire Victory tiles",
    ),
    ("rocks", _mutate(("spirits", 1, "rock"), lambda r: None), "rock must be an int"),
    ("tree id", _mutate(("spirits", 0, "forest", 0, 0), "12"), r"forest\[0\]\[0\] must be one of .*not \'12\'"),
    ("start tree moved", _mutate(("spirits", 0, "forest", 1, 2), None), "starting tree"),
    (
        "floating tree",
        _mutate(("spirits", 0, "forest", 0), ["3A", None, None, None, None]),
        "not connected|3A planted",
    ),
    ("known beyond pile size", _mutate(("spirits", 0, "known"), 99), "known must be an int in 0..88"),
    ("known beyond deck", _mutate(("spirits", 0, "known"), lambda k: 60), "known = 60, but the deck"),
    (
        "discard order",
        _mutate(
            ("spirits", 0, "discard"), lambda d: list(reversed(d)) + ["Bear"] * (len(set(d)) < 2)
        ),
        "card order|Bear",
    ),
    ("reserve level", _swap_reserve_levels, "another level"),
    ("reserve key", _mutate(("reserve",), lambda r: {"I": r["I"], "II": r["II"]}), "lacks III"),
    ("taken", _mutate(("taken",), [0, 0, 9]), r"taken\[2\] must be an int in 0..4"),
    ("entropy", _mutate(("entropy",), -1), "entropy must be an int in 0.."),
    ("budget without attract", _mutate(("budget",), 3), "budget and picks|nothing to do"),
    ("passed outside victory", _mutate(("passed",), [1]), "victory step"),
]


@pytest.mark.parametrize("what,breakage,match", BREAKAGES, ids=[b[0] for b in BREAKAGES])
def test_malformed_saved_states(what, breakage, match):
    """Each broken field or invariant raises StateError with a message naming it."""
    state = midgame()
    data = copy.deepcopy(state.to_dict())
    breakage(data)
    with pytest.raises(fg.StateError, match=match):
        state.game.state_from_dict(data)


def test_guardian_phase_invariants():
    """A seat later in the turn with a Help Line already, or a taken card, is refused."""
    state = midgame("guardians")
    data = state.to_dict()
    later = state.turn_order[-1]
    if later != state.current_player:
        data["spirits"][later]["line"] = ["Bear"]
        with pytest.raises(fg.StateError):
            state.game.state_from_dict(data)
    data = state.to_dict()
    data["taken"] = [1, 0, 0]
    with pytest.raises(fg.StateError, match="no card taken yet|reserve row"):
        state.game.state_from_dict(data)


def test_over_without_goal_is_refused():
    """A finished game needs a Spirit at a goal (or the turn limit)."""
    data = midgame().to_dict()
    data.update(phase="over", seat_index=0, actions=[], step="choose", budget=0, picks=0)
    with pytest.raises(fg.StateError, match="over before turn"):
        make(3).state_from_dict(data)


def test_duplicate_trees_refused_when_option_off():
    """A forest with two trees of one type does not load in a duplicate_trees=False game."""
    game = make(2, duplicate_trees=False)
    data = game.new_game(seed=1).to_dict()
    data["spirits"][0]["forest"][1] = [None, "3A", "start", "3A", None]
    with pytest.raises(fg.StateError, match="two trees of one type"):
        game.state_from_dict(data)
    assert make(2).state_from_dict(data).forests[0][6] == 1


def test_state_of_other_game_options_refused():
    """A 3-player state does not load into a 2-player game."""
    with pytest.raises(fg.StateError, match="for 3 players"):
        make(2).state_from_dict(midgame().to_dict())


@pytest.mark.parametrize("bad", [None, [], "state", 3, {"game": "living_forest"}])
def test_not_a_state(bad):
    """Things that are not state dicts raise StateError."""
    with pytest.raises(fg.StateError):
        make(2).state_from_dict(bad)


def test_failed_load_leaves_the_input_untouched():
    """A rejected saved state is not modified by the attempt."""
    data = midgame().to_dict()
    data["spirits"][0]["fragments"] = 99
    before = copy.deepcopy(data)
    with pytest.raises(fg.StateError):
        make(3).state_from_dict(data)
    assert data == before


def test_bad_seats_for_views_are_refused():
    """observation and determinize of a seat not in the game raise IllegalMoveError."""
    state = midgame()
    for bad in (3, -1, "0", True):
        with pytest.raises(fg.IllegalMoveError):
            state.observation(bad)
        with pytest.raises(fg.IllegalMoveError):
            state.determinize(bad, 1)
