"""Bad input: illegal moves, malformed notation and bad options raise the library's errors
and change nothing."""

import pytest

import forestgames as fg
from forestgames.living_forest import Attract, Extinguish, MoveSpirit, Plant, TakeVictory
from forestgames.living_forest.state import Step
from tests.living_forest.helpers import acting, checked, forest, play, put, start, to_row, with_seat


def refused(state, move, match):
    """Applying ``move`` raises IllegalMoveError matching ``match``; the state is unchanged."""
    before = state.to_dict()
    if isinstance(move, str):
        move = state.game.parse_move(move)
    with pytest.raises(fg.IllegalMoveError, match=match):
        state.apply(move)
    assert state.to_dict() == before


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
    with pytest.raises(fg.IllegalMoveError):
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
    with pytest.raises(fg.ParseError):
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
