"""Bad input gets the library's errors and changes nothing: illegal moves, notation,
options, saved states."""

import copy
import json
import re
from pathlib import Path

import numpy as np
import pytest

import forestgames as fg
from forestgames.core import options_table
from forestgames.living_forest import (
    Attract,
    Done,
    Extinguish,
    MoveSpirit,
    Plant,
    Reveal,
    SpendFragment,
    Stop,
    TakeFragment,
    TakeVictory,
)
from forestgames.living_forest._tables import CARD_INDEX
from forestgames.living_forest.state import Phase, Step
from tests import refusals
from tests.living_forest.helpers import (
    acting,
    checked,
    forest,
    make,
    play,
    put,
    start,
    to_row,
    with_seat,
)
from tests.strategies import final_state, random_game

# ==================================================================================== illegal moves


def refused(state, move, match):
    """As ``tests.refusals.refused``, ``move`` a move or its notation."""
    refusals.refused(state, state.game.parse_move(move) if isinstance(move, str) else move, match)


def two_action_state():
    """Seat 0 (wind 1, water 2, plant 0, flower 1) choosing; seat 1 can act too."""
    state = put(put(start(), 0, "line", ["Hare", "Goldfish", "Fawn"]), 1, "line", ["Hare"])
    return checked(acting(state))


def test_third_action_is_refused():
    """After two actions the Spirit's Action phase is over: a third action is refused."""
    state = play(two_action_state(), "0:fragment", "0:extinguish 2")
    assert state.current_player == 1
    refused(state, "0:move 1", "seat 1's turn, not seat 0's")


def test_third_action_refused_during_bonus_of_second():
    """While the bonus of the second action (a Move) is under way, no further action starts."""
    state = to_row(two_action_state(), ["Raven"])
    state = put(state, 0, "line", ["Weasel"])
    state = checked(with_seat(state, "rocks", 0, 1))
    state = play(state, "0:fragment", "0:move 1")  # rock 2: bonus Attract
    assert state.step is Step.ATTRACT and state.actions == (0, 3)
    refused(state, "0:extinguish 2", "finish the attract")


def test_repeated_action_without_tree_11_is_refused():
    """The second action must differ from the first without Tree 11."""
    refused(play(two_action_state(), "0:fragment"), "0:fragment", "must differ")


def test_over_budget_attract_and_extinguish_are_refused():
    """Attract above the sun and Extinguish above the water are refused."""
    state = to_row(two_action_state(), ["Lemur"])
    refused(checked(state), "0:attract Lemur", "costs 5 sun, only 0")
    state = checked(
        acting(
            state,
            centre=(4,),
            fire_supply=(state.fire_supply[0] + 1, state.fire_supply[1], state.fire_supply[2] - 1),
        )
    )
    refused(state, "0:extinguish 4", "needs 4 water, only 2")


def test_non_adjacent_tree_is_refused():
    """A tree away from every tree is refused."""
    state = checked(put(two_action_state(), 0, "line", ["Bear", "Boar"]))
    refused(state, "0:plant 3A@0,0", "not orthogonally next")
    refused(state, "0:plant 3A@1,2", "already has a tree")


def test_wrong_seat_and_wrong_phase_are_refused():
    """Moves of a seat not to act, and of the other phase, are refused."""
    state = start()
    refused(state, "1:reveal", "seat 0's turn, not seat 1's")
    refused(state, "0:fragment", "allows only reveal, spend and stop")
    refused(state, "0:spend Bear", "no Fragment")
    refused(two_action_state(), "0:reveal", "revealed before the Action phase")
    refused(two_action_state(), "0:victory 1 fire", "no Victory tile is due")


def test_moves_of_another_kind_or_game_are_refused():
    """Objects that are not Living Forest moves (a Bosk move, a string) are refused."""
    state = start()
    refused(state, fg.bosk.PlantTree(0, 3, (1, 1)), "not a Living Forest move")
    with pytest.raises(fg.IllegalMoveError, match="is a string, not a Living Forest move"):
        state.apply("0:reveal")


@pytest.mark.parametrize("move,match", [
    (Attract(0, 5), "5 is not face up"),
    (Attract(0, "Unicorn"), "not face up"),
    (Extinguish(0, "2"), "field value = '2' is not of the right form"),
    (Extinguish(0, 5), "no fire of value 5"),
    (MoveSpirit(0, 99), "1 to min"),
    (Plant(0, "99", (1, 1)), "no tree type"),
    (Plant(0, "3A", (7, 7)), "forest cells"),
    (TakeVictory(0, 1, "gold"), "no Victory tile"),
])  # fmt: skip
def test_move_objects_with_bad_fields_are_refused(move, match):
    """Hand-built moves with impossible fields raise IllegalMoveError, not a TypeError."""
    refused(two_action_state(), move, match)


def test_bonus_action_cannot_be_declined():
    """A bonus Attract that can take a card must take one: 'done' is refused."""
    state = put(two_action_state(), 0, "line", ["Weasel"])
    state = checked(with_seat(to_row(state, ["Raven"]), "rocks", 0, 1))
    state = play(state, "0:move 1")
    refused(state, "0:done", "must take something first")


def test_victory_step_must_be_taken_first():
    """While a Victory tile is due, other moves are refused."""
    state = put(start(3), 0, "line", ["Hare"])
    state = put(put(state, 1, "line", ["Hare"]), 2, "line", ["Hare"])
    state = checked(acting(state, rocks=(5, 6, 10)))
    state = play(state, "0:move 1")
    refused(state, "0:fragment", "take one of seat 1's Victory tiles first")


def test_plant_bonus_comes_first():
    """While a rock's bonus Plant is due, other moves are refused."""
    state = put(two_action_state(), 0, "line", ["Bear", "Boar"])
    state = checked(with_seat(state, "rocks", 0, 11))
    state = play(state, "0:move 1")
    assert state.step is Step.PLANT
    refused(state, "0:fragment", "bonus Plant action comes first")


def test_duplicate_tree_message():
    """duplicate_trees=False refuses a second tree of a type with a message naming it."""
    state = start(duplicate_trees=False)
    state = put(put(state, 0, "line", ["Bear", "Bee"]), 1, "line", ["Hare"])
    state = checked(
        acting(with_seat(state, "forests", 0, forest(". . . . .", ". 3A S . .", ". . . . .")))
    )
    refused(state, "0:plant 3A@1,3", "already has a tree 3A")


@pytest.mark.parametrize("text", [
    "", "reveal", "0:reveal now", "4:reveal", "0:attract Unicorn", "0:spend bear",
    "0:plant 12@1,1", "0:plant 3A@3,0", "0:plant 3A@1,5", "0:extinguish 5", "0:move 0",
    "0:move 11", "0:victory 1 gold", "0:victory 4 fire", "0:done!", "0 : done",
])  # fmt: skip
def test_malformed_notation(text):
    """Text that is not Living Forest notation raises ParseError."""
    with pytest.raises(fg.ParseError, match=r"is not a Living Forest move|no Guardian Animal card"):
        fg.make("living_forest").parse_move(text)


def test_parse_move_rejects_non_text():
    """parse_move takes text only."""
    with pytest.raises(fg.ParseError, match="is text"):
        fg.make("living_forest").parse_move(3)


@pytest.mark.parametrize("options,match", [
    ({"num_players": 5}, "2 to 4"),
    ({"num_players": "2"}, "must be an int"),
    ({"fire_tiles": (20, 20)}, "3 counts"),
    ({"fire_tiles": (0, 20, 18)}, "at least one fire of value 2"),
    ({"fire_tiles": (20, -1, 18)}, "fire_tiles"),
    ({"fire_tiles": np.array(20)}, "3 counts"),
    ({"fire_tiles": np.full((3, 1), 20)}, "3 counts"),
    ({"duplicate_trees": "yes"}, "True or False"),
    ({"reveal_after_third": 1}, "True or False"),
    ({"varan_returns": None}, "True or False"),
    ({"turn_limit": 0}, "turn_limit"),
    ({"turn_limit": True}, "turn_limit"),
    ({"colour": "red"}, "unknown Living Forest option"),
])  # fmt: skip
def test_bad_options(options, match):
    """Bad or unknown options raise ConfigError naming them."""
    with pytest.raises(fg.ConfigError, match=match):
        fg.make("living_forest", **options)


def test_options_round_trip():
    """options() rebuilds an equal game, defaults and non-defaults alike."""
    for game in (
        fg.make("living_forest"),
        fg.make(
            "living_forest",
            num_players=4,
            fire_tiles=[5, 5, 5],
            duplicate_trees=False,
            varan_returns=True,
            turn_limit=7,
        ),
    ):
        assert fg.make("living_forest", **game.options()) == game
        assert eval(repr(game), {"LivingForestGame": fg.living_forest.LivingForestGame}) == game


# ===================================================================================== saved states


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
    (
        "card name",
        _mutate(("spirits", 0, "line"), ["Unicorn"]),
        r"line\[0\] must be one of .*not \'Unicorn\'",
    ),
    ("spirits length", _mutate(("spirits",), lambda s: s[:2]), "list of 3"),
    ("spirit key", _mutate(("spirits", 1), lambda s: {**s, "mana": 1}), "unknown keys mana"),
    ("start card duplicated", _swap_first_deck_card_for("Bear"), "Bear cards; each Spirit has 1"),
    (
        "level card twice",
        _mutate(("spirits", 0, "discard"), lambda d: _card_order(d + ["Hedgehog"])),
        "Hedgehog appears 2 times",
    ),
    ("varans", _mutate(("varans",), lambda v: v - 1 if v else v + 1), "Fire Varans"),
    (
        "fire supply",
        _mutate(("fire_supply", 2), lambda v: v + 1),
        r"fire_supply\[2\] must be an int",
    ),
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
    (
        "tree id",
        _mutate(("spirits", 0, "forest", 0, 0), "12"),
        r"forest\[0\]\[0\] must be one of .*not \'12\'",
    ),
    ("start tree moved", _mutate(("spirits", 0, "forest", 1, 2), None), "starting tree"),
    (
        "second starting tree",
        _mutate(("spirits", 0, "forest", 0, 2), "start"),
        "starting tree at row 1, col 2 and only there",
    ),
    (
        "floating tree",
        _mutate(("spirits", 0, "forest", 0), ["3A", None, None, None, None]),
        "not connected|3A planted",
    ),
    (
        "known beyond pile size",
        _mutate(("spirits", 0, "known"), 99),
        "known must be an int in 0..88",
    ),
    (
        "known beyond deck",
        _mutate(("spirits", 0, "known"), lambda k: 60),
        "known = 60, but the deck",
    ),
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
    ("bonus outside victory", _mutate(("bonus",), "fragment"), "rock bonus belong to the victory"),
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
    assert later != state.current_player
    spirit = data["spirits"][later]
    spirit["line"] = [spirit["discard"].pop()]  # a card it owns (a new Bear would be a 2nd)
    with pytest.raises(fg.StateError, match="has not revealed yet, its Help Line must be empty"):
        state.game.state_from_dict(data)
    data = state.to_dict()
    data["taken"] = [1, 0, 0]
    with pytest.raises(fg.StateError, match=r"no card taken yet|reserve row"):
        state.game.state_from_dict(data)


@pytest.mark.parametrize(
    "under_way",
    [
        {"actions": ["attract"]},
        {"step": "attract", "actions": ["attract"]},
        {"budget": 1},
        {"picks": 1},
        {"passed": [1]},
        {"bonus": "fragment"},
    ],
)
def test_no_action_is_under_way_while_revealing(under_way):
    """In the Guardian phase an action taken, an action's step, budget, picks, passed
    Spirits or a pending rock bonus (even the first action's, Fragment) are refused."""
    state = midgame("guardians")
    data = state.to_dict()
    assert state.game.state_from_dict(copy.deepcopy(data)) == state
    data.update(under_way)
    refused_data(state.game, data, "guardians: no action may be under way")


def _limited_to_one_action():
    """An Action phase's start for a seat with three solitary symbols (one action only)."""
    return first_state(
        lambda s: (
            s.phase is Phase.ACTIONS
            and s.step is Step.CHOOSE
            and not s.actions
            and s.solitary(s.current_player) >= 3
        )
    )


def test_actions_taken_within_the_seats_limit_and_different():
    """An Action-phase state is refused if its seat took more actions than its limit (1 with
    three solitary symbols in its Help Line) or one action twice without Tree 11."""
    state = _limited_to_one_action()
    data = state.to_dict()
    data["actions"] = ["fragment", "attract"]
    refused_data(state.game, data, f"seat {state.current_player} has 2 actions; its limit is 1")
    state = midgame()
    forest = {tree for row in state.forest(state.current_player) for tree in row}
    assert state.phase is Phase.ACTIONS and "11" not in forest
    data = state.to_dict()
    data["actions"] = ["attract", "attract"]
    refused_data(state.game, data, "repeated an action without Tree 11")


def test_over_without_goal_is_refused():
    """A finished game needs a Spirit at a goal (or the turn limit)."""
    data = midgame().to_dict()
    data.update(phase="over", seat_index=0, actions=[], step="choose", budget=0, picks=0)
    with pytest.raises(fg.StateError, match="over before turn"):
        make(3).state_from_dict(data)


@pytest.mark.parametrize("under_way", [{"seat_index": 1}, {"actions": ["attract"]}])
def test_a_finished_game_has_no_seat_to_play_and_no_action_under_way(under_way):
    """A finished 2-player game loads back, but not with its second seat still to play or
    an action taken."""
    state = final_state(make(2), 1)
    data = state.to_dict()
    assert state.is_terminal and state.game.state_from_dict(copy.deepcopy(data)) == state
    data.update(under_way)
    refused_data(state.game, data, "over: no action may be under way")


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
    with pytest.raises(fg.StateError, match=r"must be a JSON object|state lacks"):
        make(2).state_from_dict(bad)


def test_failed_load_leaves_the_input_untouched():
    """A rejected saved state is not modified by the attempt."""
    data = midgame().to_dict()
    data["spirits"][0]["fragments"] = 99
    before = copy.deepcopy(data)
    with pytest.raises(fg.StateError, match=r"fragments must be an int in 0\.\.20, not 99"):
        make(3).state_from_dict(data)
    assert data == before


def test_bad_seats_for_views_are_refused():
    """observation and determinize of a seat not in the game raise IllegalMoveError."""
    state = midgame()
    for bad in (3, -1, "0", True):
        with pytest.raises(fg.IllegalMoveError, match=r"is not a seat of|must be an int seat"):
            state.observation(bad)
        with pytest.raises(fg.IllegalMoveError, match=r"is not a seat of|must be an int seat"):
            state.determinize(bad, 1)


def first_state(predicate, players=3, seeds=range(40)):
    """The first state of the random games ``seeds`` for which ``predicate`` holds."""
    game = make(players)
    for seed in seeds:
        for state, _ in random_game(game, seed):
            if predicate(state):
                return state
    raise AssertionError("no such state in the random games")


def refused_data(game, data, match):
    """Loading ``data`` into ``game`` raises StateError matching ``match``."""
    with pytest.raises(fg.StateError, match=match):
        game.state_from_dict(data)


def test_cards_taken_this_turn_stay_on_deck_tops():
    """Reserve cards taken this turn are still known deck tops (nobody draws before next turn)."""
    state = first_state(lambda s: s.phase is Phase.ACTIONS and any(s.taken))
    data = state.to_dict()
    for spirit in data["spirits"]:
        spirit["known"] = 0
    refused_data(state.game, data, "lie on the known tops of decks")


def test_attract_budget_and_picks_within_reach():
    """An Attract's budget is at most the sun (+3 at a corner), its picks the cards taken."""
    state = first_state(lambda s: s.step is Step.ATTRACT and s.picks > 0)
    seat = state.current_player
    data = state.to_dict()
    data["budget"] = state.totals(seat)[0] + 4
    refused_data(state.game, data, "is more than seat")
    data = state.to_dict()
    data["picks"] = sum(state.taken) + 1
    refused_data(state.game, data, "picks, but seat")


def test_extinguish_picks_within_fires_held():
    """An Extinguish cannot have taken more fires than the seat holds."""
    state = first_state(lambda s: s.step is Step.EXTINGUISH and s.picks > 0)
    data = state.to_dict()
    data["picks"] = sum(state.fires_held[state.current_player]) + 1
    refused_data(state.game, data, "picks, but seat")


def test_steps_follow_their_actions():
    """A step beyond choosing needs an action taken; the victory and plant steps need a Move."""
    state = first_state(lambda s: s.step is Step.ATTRACT)
    data = state.to_dict()
    data["actions"] = []
    refused_data(state.game, data, "follows an action")
    state = first_state(lambda s: s.step is Step.VICTORY)
    data = state.to_dict()
    data["actions"] = ["fragment"]
    refused_data(state.game, data, "follows a Move")


def test_victory_tiles_due_in_passing_order():
    """Spirits passed by a Move give their tiles in the order they were passed."""
    state = first_state(lambda s: s.step is Step.VICTORY and len(s.passed) > 1, players=4)
    data = state.to_dict()
    data["passed"] = data["passed"][::-1]
    refused_data(state.game, data, "not in the order the Move passed them")


def test_victory_passed_spirits_are_other_seats_each_once():
    """At the victory step the passed Spirits may not include the moving seat nor one seat
    twice."""
    state = first_state(lambda s: s.step is Step.VICTORY)
    for passed in ([state.current_player], state.passed * 2):
        data = state.to_dict()
        data["passed"] = list(passed)
        refused_data(state.game, data, "the passed Spirits must be other seats, each once")


def test_a_seat_with_nothing_left_to_do_is_not_the_one_to_move():
    """A seat limited to one action (three solitary symbols) that has taken it can only
    end its turn, so a saved state waiting for it is refused: the turn passes on by itself."""
    state = _limited_to_one_action()
    data = state.to_dict()
    data["actions"] = ["fragment"]
    refused_data(state.game, data, "has nothing to do; the turn should have passed on")


def test_bonus_plant_comes_from_a_plant_rock():
    """The plant step follows a Move onto a rock whose bonus is Plant."""
    state = put(two_action_state(), 0, "line", ["Bear", "Boar"])
    state = play(checked(with_seat(state, "rocks", 0, 11)), "0:move 1")
    assert state.step is Step.PLANT
    checked(state)
    data = state.to_dict()
    data["spirits"][0]["rock"] = 1
    refused_data(state.game, data, "comes from a Plant rock")


def test_no_goal_while_revealing():
    """Trees and fires only grow in the Action phase, which ends the game at 12 of either."""
    game = make(2, fire_tiles=(40, 20, 18))
    data = game.new_game(seed=1).to_dict()
    data["spirits"][0]["fires"]["2"] = 10
    data["fire_supply"][0] -= 10
    assert game.state_from_dict(data).progress[0][1] == 11
    data["spirits"][0]["fires"]["2"] += 1
    data["fire_supply"][0] -= 1
    refused_data(game, data, "the game ended at 12")


def test_turns_start_with_a_fire():
    """In the Guardian phase the centre holds a fire, unless fires of value 2 ran out."""
    game = make(2, fire_tiles=(2, 20, 18))
    data = game.new_game(seed=1).to_dict()
    data["centre"] = []
    data["spirits"][0]["fires"]["2"] = 1
    refused_data(game, data, "the centre is empty")
    data["spirits"][1]["fires"]["2"] = 1
    data["fire_supply"][0] = 0
    assert game.state_from_dict(data).centre == ()


def test_reshuffle_seed_within_its_range():
    """The reshuffle seed is drawn below 2**62: a larger one was never written by the game."""
    data = start().to_dict()
    data["entropy"] = 2**62
    refused_data(start().game, data, "entropy must be an int in 0..")


# ================================================================================ getters, fields


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.totals(5),
        lambda s: s.totals(-1),
        lambda s: s.forest(9),
        lambda s: s.help_line(2),
        lambda s: s.deck_size(-2),
        lambda s: s.discard_size("0"),
        lambda s: s.solitary(True),
        lambda s: s.totals(1.0),
        lambda s: s.reserve_row(4),
        lambda s: s.reserve_row(0),
        lambda s: s.reserve_row(-1),
        lambda s: s.reserve_row("1"),
    ],
)
def test_getters_refuse_bad_seats_and_levels(call):
    """Per-seat getters and reserve_row raise IllegalMoveError for a seat or level not in
    the game (levels are 1..3: no negative-index surprises)."""
    with pytest.raises(fg.IllegalMoveError, match=r"seat|level"):
        call(start())


def test_getters_take_numpy_ints():
    """numpy integers are the seats and levels they stand for."""
    state = start()
    assert state.totals(np.int64(1)) == state.totals(1)
    assert state.forest(np.int8(0)) == state.forest(0)
    assert state.reserve_row(np.int16(3)) == state.reserve_row(3)
    assert state.legal_moves(np.int64(0)) == state.legal_moves(0)


_NEVER_LEGAL = [1.5, "x", None, [1, 2], (1,), (1, 2, 3), {}, np.array([1, 2]), 10**5000, -1, 99]


def _states():
    guardians = start()
    choosing = two_action_state()
    attracting = play(checked(to_row(put(choosing, 0, "line", ["Weasel"]), ["Raven"])), "0:move 1")
    return {"guardians": guardians, "choosing": choosing, "attracting": attracting}


@pytest.mark.parametrize("where", ["guardians", "choosing", "attracting"])
def test_malformed_move_fields_are_illegal_moves(where):
    """Every move class with any field malformed (a float, a list, an array, a huge int...)
    raises IllegalMoveError naming the move, never TypeError or IndexError."""
    state = _states()[where]
    valid = {
        Reveal: (0,),
        SpendFragment: (0, "Bear"),
        Stop: (0,),
        TakeFragment: (0,),
        Attract: (0, "Raven"),
        Extinguish: (0, 2),
        MoveSpirit: (0, 1),
        TakeVictory: (0, 1, "fire"),
        Plant: (0, "3A", (1, 1)),
        Done: (0,),
    }
    for cls, args in valid.items():
        for k in range(len(args)):
            for value in _NEVER_LEGAL:
                move = cls(*args[:k], value, *args[k + 1 :])
                # refused for a field, or for the move's kind where it is not legal at all
                with pytest.raises(fg.IllegalMoveError, match="^" + re.escape(str(move)[:30])):
                    state.apply(move)


@pytest.mark.parametrize("at", [1.5, (1.5, 1), (1,), (1, 2, 3), "1,1", np.array([1.5, 1])])
def test_plant_with_a_malformed_cell(at):
    """Plant(0, "3A", 1.5) and other malformed cells are illegal moves, whether or not
    planting is possible now (issue 10)."""
    with pytest.raises(fg.IllegalMoveError, match=r"form|forest cells"):
        two_action_state().apply(Plant(0, "3A", at))  # plant 0: no Plant is legal
    rich = checked(put(two_action_state(), 0, "line", ["Bear", "Boar"]))
    assert any(isinstance(m, Plant) for m in rich.legal_moves())
    with pytest.raises(fg.IllegalMoveError, match=r"form|forest cells"):
        rich.apply(Plant(0, "3A", at))


def test_numpy_ints_in_move_fields_are_the_ints_they_are():
    """A move built with numpy integers is the legal move it equals."""
    state = two_action_state()
    after = state.apply(Extinguish(np.int64(0), np.int8(2)))
    assert after == state.apply(Extinguish(0, 2))


def test_options_take_numpy_ints():
    """Option values may be numpy integers (and fire_tiles a numpy array)."""
    game = fg.make(
        "living_forest",
        num_players=np.int64(3),
        turn_limit=np.int32(9),
        fire_tiles=np.array([5, 6, 7]),
    )
    assert game.options()["fire_tiles"] == [5, 6, 7] and game.turn_limit == 9
    assert fg.make("living_forest", **game.options()) == game


def test_docs_options_table_is_the_declared_one():
    """docs/living_forest.md shows exactly the Options table made from OPTIONS."""
    text = (Path(__file__).parents[2] / "docs" / "living_forest.md").read_text(encoding="utf-8")
    table = text.split("<!-- options -->\n", 1)[1].split("\n<!-- /options -->", 1)[0]
    assert table.strip() == options_table(fg.living_forest.LivingForestGame.OPTIONS)
