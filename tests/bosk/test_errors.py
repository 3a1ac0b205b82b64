"""Bad input raises the library's own errors, names the problem, and changes nothing."""

import copy
import json

import attrs
import numpy as np
import pytest

import forestgames as fg
from forestgames.bosk import ChooseTile, ChooseTree, ChooseWind, PlaceLeaf, PlantTree
from tests.bosk.helpers import autumn_turn, plant_everything
from tests.refusals import refused
from tests.strategies import final_state, random_game


@pytest.fixture
def spring():
    """A 2-player spring with seat 0 to move and a tree at (3, 3)."""
    game = fg.make("bosk", num_players=2)
    return game.new_game(seed=0, first_player=0).apply(PlantTree(0, 2, (3, 3)))


def test_illegal_moves_name_the_problem(spring):
    """Wrong seat, occupied intersection, off the grid, bad value, wrong phase, wrong kind."""
    refused(spring, PlantTree(0, 1, (0, 0)), "seat 1's turn")
    refused(spring, PlantTree(1, 1, (3, 3)), "already has a tree")
    refused(spring, PlantTree(1, 1, (7, 0)), "intersections")
    refused(spring, PlantTree(1, 1, (-1, 2)), "intersections")
    refused(spring, PlantTree(1, 1, (0.5, 2)), "not of the right form")  # never truncated to (0, 2)
    refused(spring, PlantTree(1, 5, (1, 1)), "values are 1..4")
    refused(spring, ChooseTile(1, 5), "spring step the move is a PlantTree")
    refused(spring, ChooseWind(1, "N"), "PlantTree")
    refused(spring, PlantTree(4, 1, (1, 1)), "not in this game")
    for junk in ("1:plant 1@1,1", 42, None, object()):
        refused(spring, junk, "not a bosk move|not a Bosk move")


def test_moves_of_other_games_are_refused(spring):
    """A foreign object with a ``player`` attribute is not a Bosk move."""

    class Other:
        player = 1

    refused(spring, Other(), "not a Bosk move")


def test_autumn_illegal_moves():
    """Autumn: wrong tile, spent tile, bad wind, a leaf off the path or off the board."""
    state = plant_everything(fg.make("bosk", num_players=2))
    seat = state.current_player
    refused(state, ChooseWind(seat, "X"), "one of N, E, S, W")
    state = autumn_turn(trees={(3, 3): (0, 1)})
    state = state.apply(ChooseTree(0, (3, 3)))
    refused(state, ChooseTile(0, 9), "2..8 or the squirrel")
    state = state.apply(ChooseTile(0, 2))
    refused(state, PlaceLeaf(0, (8, 8)), "squares are")
    refused(state, PlaceLeaf(0, (0, 0)), "downwind")
    spent = attrs.evolve(autumn_turn(trees={(3, 3): (0, 1)}), tiles_used=(1 << 4, 0))
    spent = spent.apply(ChooseTree(0, (3, 3)))
    assert ChooseTile(0, 4) not in spent.legal_moves()
    refused(spent, ChooseTile(0, 4), "tile 4 is already spent")


def test_moves_after_the_end_are_refused():
    """Any move on a finished game is refused."""
    state = final_state(fg.make("bosk", num_players=2), 1)
    refused(state, PlantTree(0, 1, (0, 0)), "game is over")


@pytest.mark.parametrize(
    "text",
    ["", "plant", "0:plant 5@1,1", "0:plant 1@1", "0 plant 1@1,1", "x:tile 3", "0:tile 9",
     "0:tile 1", "0:wind Q", "0:leaf@a,b", "0:leaf@1,1,1", "0:squirrel", "-1:tile 2",
     "0:plant 1@01,1", "0:tile squirrelx"],
)  # fmt: skip
def test_malformed_notation(text):
    """Text that is not Bosk notation raises ParseError naming the text."""
    with pytest.raises(fg.ParseError, match="is not a Bosk move"):
        fg.make("bosk").parse_move(text)


def test_parse_error_on_non_text():
    """parse_move refuses non-strings with ParseError."""
    with pytest.raises(fg.ParseError, match="a Bosk move is text, not 12"):
        fg.make("bosk").parse_move(12)


def corrupt(state, change, match):
    """``change`` edits a copy of the saved state; loading it raises StateError(match)."""
    data = copy.deepcopy(state.to_dict())
    change(data)
    with pytest.raises(fg.StateError, match=match):
        state.game.state_from_dict(json.loads(json.dumps(data)))


@pytest.fixture(scope="module")
def midgame():
    """A 3-player game stopped in the middle of a leaf path."""
    game = fg.make("bosk", num_players=3)
    for state, _ in random_game(game, 4):
        if state.phase.value == "leaves" and state.round >= 3 and state.last_leaf:
            return state
    raise AssertionError("no mid-path state found")


def test_malformed_states(midgame):
    """Malformed and inconsistent saved states raise StateError saying what is wrong."""
    s = midgame

    def three_of_a_value(d):
        seat = d["trees"][0][2]
        for tree in d["trees"]:
            if tree[2] == seat:
                tree[3] = 2

    corrupt(s, three_of_a_value, "trees of value 2; each player has 2")
    corrupt(s, lambda d: d["stacks"][0].__setitem__(0, "S10"), "nothing may lie on a squirrel")
    corrupt(s, lambda d: d["stacks"][0].__setitem__(0, "7"), "must be a stack")
    corrupt(s, lambda d: d.__setitem__("phase", "summer"), "phase must be one of")
    corrupt(s, lambda d: d.__setitem__("num_players", 4), "for 4 players")
    corrupt(s, lambda d: d.__setitem__("extra", 1), "unknown keys extra")
    corrupt(s, lambda d: d.pop("stacks"), "lacks stacks")
    corrupt(s, lambda d: d.__setitem__("order", [0, 2, 1]), "clockwise")
    corrupt(s, lambda d: d.__setitem__("round", "3"), "round must be an int")
    corrupt(s, lambda d: d.__setitem__("active", 0), "active leaves")
    corrupt(s, lambda d: d.__setitem__("winter", [1, 0, 0]), "winter points before winter")
    corrupt(s, lambda d: d["trees"].append(list(d["trees"][0])), "two trees|trees")
    corrupt(s, lambda d: d["tiles_used"][0].append(d["tiles_used"][0][0]), "repeats a tile")
    corrupt(s, lambda d: d.__setitem__("first_wind", "up"), "first_wind")
    corrupt(s, lambda d: d.__setitem__("stacks", "x"), "rows")


def test_leaves_still_to_lay_count_against_the_tiles(midgame):
    """A seat laying leaves has its spent tiles' leaves on the board, still active, or
    blown off the board: a saved path whose board and active leaves together exceed
    them is refused. (It used to load, and the engine's next legal leaf then made a
    state that would not.) At the bound it loads, and plays on to a loadable state."""
    s, seat = midgame, midgame.current_player
    given = sum(t for t in s.to_dict()["tiles_used"][seat] if t != 1)
    spare = given - s.leaves_on_board(seat) - s.active  # leaves that blew off the board
    assert spare >= 0 and s.active >= 1

    def add_leaves(d, count):
        empty = [(r, c) for r, row in enumerate(d["stacks"]) for c, x in enumerate(row) if x == ""]
        for r, c in empty[:count]:
            d["stacks"][r][c] = str(seat)

    corrupt(s, lambda d: add_leaves(d, spare + 1), "leaves on the board and .* still to lay")
    data = copy.deepcopy(s.to_dict())
    add_leaves(data, spare)
    loaded = s.game.state_from_dict(json.loads(json.dumps(data)))
    assert loaded.leaves_on_board(seat) + loaded.active == given
    for move in loaded.legal_moves():
        after = loaded.apply(move)
        assert s.game.state_from_dict(after.to_dict()) == after


def test_a_square_holds_at_most_one_leaf_per_spent_leaf_tile():
    """A path visits a square once, so a seat has at most one leaf on a square per leaf
    tile it has spent: a saved stack with more is refused (one of 14 leaves, 7 a seat's
    after 4 tiles, loaded, and VectorBosk lost the 15th leaf laid on it). At the bound
    it loads."""
    game = fg.make("bosk", num_players=2)
    state = next(s for s, _ in random_game(game, 1) if s.phase.value == "tree" and s.round == 5)
    seat = state.current_player
    leaf_tiles = len([t for t in state.to_dict()["tiles_used"][seat] if t != 1])

    def stack_of(count):
        def change(d):
            d["stacks"] = [[""] * 8 for _ in range(8)]
            d["stacks"][3][3] = str(seat) * count

        return change

    corrupt(state, stack_of(leaf_tiles + 1), f"{leaf_tiles + 1} leaves on one square")
    data = copy.deepcopy(state.to_dict())
    stack_of(leaf_tiles)(data)
    assert game.state_from_dict(data).stack((3, 3)) == (seat,) * leaf_tiles


def test_autumn_starts_with_a_seat_of_the_fewest_summer_points():
    """The wind phase and round 1 belong to a seat with the fewest summer points: a saved
    one started by another seat is refused (it loaded and played on)."""
    game = fg.make("bosk", num_players=3)
    for state, _ in random_game(game, 2):
        if state.phase.value == "wind" or (state.round == 1 and state.phase.value == "leaves"):
            richer = max(range(3), key=lambda seat: state.summer[seat])
            assert state.summer[richer] > min(state.summer)
            rotate = [(richer + k) % 3 for k in range(3)]
            corrupt(state, lambda d, order=rotate: d.__setitem__("order", order), "fewest is")
            assert game.state_from_dict(state.to_dict()) == state


def test_loaded_state_equals_original(midgame):
    """The round trip through JSON gives an equal state that plays on identically."""
    game = midgame.game
    loaded = game.state_from_dict(json.loads(json.dumps(midgame.to_dict())))
    assert loaded == midgame and loaded.legal_moves() == midgame.legal_moves()


def test_summer_points_are_none_in_spring_and_the_boards_in_the_wind_phase(spring):
    """Spring has no summer points yet; in the wind phase they are the trees' summer score
    exactly (one point more for seat 0 is refused)."""
    corrupt(spring, lambda d: d["summer"].__setitem__(1, 1), "spring: summer points before")
    game = fg.make("bosk", num_players=3)
    wind = next(s for s, _ in random_game(game, 2) if s.phase.value == "wind")
    assert game.state_from_dict(wind.to_dict()) == wind
    corrupt(
        wind, lambda d: d["summer"].__setitem__(0, d["summer"][0] + 1), "do not match the trees"
    )


def test_the_chosen_tree_is_the_movers_own(midgame):
    """Mid-path, the chosen tree saved as another seat's tree is refused."""
    mover = midgame.current_player
    other = next(t for t in midgame.to_dict()["trees"] if t[2] != mover)
    corrupt(midgame, lambda d: d.__setitem__("tree", other[:2]), f"not seat {mover}'s")


def test_a_tree_of_seat_0_listed_twice_is_refused(midgame):
    """Two trees saved on one intersection are refused, also when the first is seat 0's."""
    first = next(t for t in midgame.to_dict()["trees"] if t[2] == 0)
    corrupt(midgame, lambda d: d["trees"].append(list(first)), f"two trees at \\({first[0]}, ")


def test_a_seat_keeps_at_most_one_tree_of_each_value_it_has_chosen(midgame):
    """In round 3 seat 1 has chosen its value-1 tree (round 1): turning one of its unchosen
    3s into a 1 leaves it 2 trees of value 1, which is refused."""
    assert midgame.round == 3 and midgame.current_player == 1

    def second_one(data):
        tree = next(t for t in data["trees"] if t[2] == 1 and t[3] == 3 and t[:2] != data["tree"])
        tree[3] = 1

    corrupt(midgame, second_one, "seat 1 still has 2 trees of value 1 after round 1")


def test_the_last_leaf_is_the_movers_and_only_while_laying_leaves(midgame):
    """Mid-path, the last leaf's square topped by another seat's leaf is refused; so is a
    last leaf saved in the tile phase."""
    row, col = midgame.to_dict()["last"]
    other = (midgame.current_player + 1) % 3
    corrupt(
        midgame,
        lambda d: d["stacks"][row].__setitem__(col, str(other)),
        "not topped by the current player's leaf",
    )
    game = midgame.game
    tile = next(s for s, _ in random_game(game, 4) if s.phase.value == "tile")
    corrupt(tile, lambda d: d.__setitem__("last", [1, 1]), "last leaf only while laying leaves")


def test_a_path_of_a_2_tile_loads_back():
    """A leaf path laid with the smallest leaf tile (2) is a position like any other."""
    game = fg.make("bosk", num_players=3)
    state = next(
        s
        for s, _ in random_game(game, 1)
        if s.phase.value == "leaves" and s.round_tiles[s.current_player] == 2
    )
    assert game.state_from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_the_squirrel_step_needs_the_squirrel_in_hand():
    """At the squirrel step, a saved squirrel already on the board is refused."""
    game = fg.make("bosk", num_players=3)
    state = next(s for s, _ in random_game(game, 4) if s.phase.value == "squirrel")
    mover = state.current_player
    corrupt(
        state,
        lambda d: d["stacks"][7].__setitem__(0, f"S{mover}"),
        "squirrel step without the squirrel tile, or the squirrel is already out",
    )


def test_spring_has_no_wind_and_no_squirrel(spring):
    """In spring a first wind (even N) or a squirrel on the board is refused."""
    corrupt(spring, lambda d: d.__setitem__("first_wind", "N"), "no round, wind or tile")
    corrupt(spring, lambda d: d["stacks"][0].__setitem__(0, "S0"), "no leaf or squirrel")


def test_final_state_winter_must_match_board():
    """A finished game's winter points are checked against its board."""
    state = final_state(fg.make("bosk", num_players=2), 3)
    corrupt(state, lambda d: d["winter"].__setitem__(0, d["winter"][0] + 1), "do not match")


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"num_players": 5}, "2 to 4 players"),
        ({"num_players": "2"}, "must be an int"),
        ({"terrain": np.zeros((9, 9), int)}, r"grid of 8x8 terrain ids .* shape \(9, 9\)"),
        ({"terrain": np.full((8, 8), 8)}, "ids must be 0..7"),
        ({"terrain": np.full((8, 8), 0.5)}, "integer type ids"),
        ({"terrain": "map"}, "grid of 8x8 terrain ids with 2 players, not 'map'"),
        ({"terrain": [[1, 2], [3]]}, r"not \[\[1, 2\], \[3\]\] \(rows of unequal length\)"),
        ({"squirrel_exactly_three": "yes"}, "True or False"),
        ({"ties_include_start": 1}, "True or False"),
        ({"wind": "N"}, "unknown Bosk option"),
    ],
)
def test_bad_options(options, match):
    """Each bad option raises ConfigError naming it."""
    with pytest.raises(fg.ConfigError, match=match):
        fg.make("bosk", **options)


def test_bad_new_game_arguments():
    """A bad seed or first player raises ConfigError."""
    game = fg.make("bosk", num_players=3)
    with pytest.raises(fg.ConfigError, match="seed"):
        game.new_game(seed=-3)
    with pytest.raises(fg.ConfigError, match="first_player 3"):
        game.new_game(seed=1, first_player=3)
    with pytest.raises(fg.ConfigError, match="unknown game"):
        fg.make("chess")


def test_errors_are_value_errors():
    """Every specific error is also a ValueError and a ForestGamesError."""
    for error in (fg.IllegalMoveError, fg.ConfigError, fg.ParseError, fg.StateError):
        assert issubclass(error, ValueError) and issubclass(error, fg.ForestGamesError)
