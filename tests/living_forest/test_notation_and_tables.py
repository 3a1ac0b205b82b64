"""Move notation both ways, and the component tables shipped as package data."""

from importlib import resources

import pytest

import forestgames as fg
from forestgames.living_forest import _tables as t
from forestgames.living_forest import moves as mv

MOVES = [
    (mv.Reveal(0), "0:reveal"),
    (mv.SpendFragment(1, "FireVaran"), "1:spend FireVaran"),
    (mv.Stop(2), "2:stop"),
    (mv.TakeFragment(3), "3:fragment"),
    (mv.Attract(0, "HornedOwl"), "0:attract HornedOwl"),
    (mv.Extinguish(1, 4), "1:extinguish 4"),
    (mv.MoveSpirit(2, 10), "2:move 10"),
    (mv.TakeVictory(0, 3, "flower"), "0:victory 3 flower"),
    (mv.Plant(1, "11", (2, 4)), "1:plant 11@2,4"),
    (mv.Done(0), "0:done"),
]


@pytest.mark.parametrize("move,text", MOVES, ids=[m[1] for m in MOVES])
def test_notation_round_trip(move, text):
    """str(move) is the documented notation, parse_move reads it back, repr evaluates back."""
    assert str(move) == text
    assert fg.make("living_forest").parse_move(text) == move
    assert fg.make("living_forest").parse_move(f"  {text}\n") == move
    assert eval(repr(move), vars(mv)) == move


def test_plant_accepts_list_coordinates():
    """Plant(at=[r, c]) is the same move as at=(r, c)."""
    assert mv.Plant(0, "3A", [1, 3]) == mv.Plant(0, "3A", (1, 3))


def test_card_data_is_package_data():
    """The card CSV ships inside the package and is what the tables were built from."""
    text = (
        resources.files("forestgames.living_forest")
        .joinpath("data/living_forest_cards.csv")
        .read_text()
    )
    assert text.count("\n") == 1 + len(t.CARD_NAMES)


def test_card_counts_by_level():
    """14 start cards (5 solitary, no gregarious), reserve levels of 23/16/12, one Varan type."""
    assert len(t.START_DECK) == 14
    assert sum(t.CARD_SYMBOL[c] == 1 for c in t.START_DECK) == 5
    assert all(t.CARD_SYMBOL[c] != -1 for c in t.START_DECK)
    assert [len(t.LEVEL_CARDS[level]) for level in (1, 2, 3)] == [23, 16, 12]
    assert t.CARD_LEVEL[t.VARAN] == 4 and t.CARD_ELEMENTS[t.VARAN] == (0, 0, 0, 0, 0)
    assert t.CARD_SYMBOL[t.VARAN] == 1


def test_card_rows_transcribed():
    """Spot checks of the CSV: costs, elements and symbols land in the right fields."""
    c = t.CARD_INDEX
    assert t.CARD_COST[c["Bison"]] == 11 and t.CARD_ELEMENTS[c["Bison"]] == (6, 0, 1, 0, 0)
    assert t.CARD_ELEMENTS[c["Axolotl"]] == (0, 1, -1, 1, 1)
    assert t.CARD_SYMBOL[c["Stag"]] == -1 and t.CARD_SYMBOL[c["Tapir"]] == 1
    assert t.CARD_ELEMENTS[c["Tanuki"]] == (3, 0, 0, 0, -1)


def test_tree_table():
    """Tree costs, bonuses and copies per player count follow the rules page."""
    assert t.TREE_COST[t.TREE_INDEX["9"]] == 9
    assert t.TREE_BONUS[t.TREE_INDEX["10"]] == (4, 0, 0, 0, 0)
    assert t.TREE_BONUS[t.TREE_INDEX["8"]] == (0, 3, 0, 0, 0)
    assert t.TREE_BONUS[t.TREE_INDEX["5B"]] == (0, 0, 1, 0, 0)
    copies = {"3A": (2, 3, 4), "5B": (2, 3, 4), "6": (2, 3, 3), "8": (2, 3, 3), "9": (2, 2, 2)}
    for tree, counts in copies.items():
        assert tuple(t.TREE_COPIES[p][t.TREE_INDEX[tree]] for p in (2, 3, 4)) == counts
    assert [sum(t.TREE_COPIES[p]) for p in (2, 3, 4)] == [24, 33, 39]


def test_circle_and_start_rocks():
    """Rock bonuses repeat Plant, Fragment, Attract, Fragment, Extinguish, Fragment twice."""
    names = [t.ACTIONS[a] for a in t.ROCK_BONUS]
    assert names[:6] == ["plant", "fragment", "attract", "fragment", "extinguish", "fragment"]
    assert names[6:] == names[:6]


@pytest.mark.parametrize("players,rocks", [(2, (0, 6)), (3, (2, 6, 10)), (4, (0, 6, 9, 3))])
def test_start_rocks_in_turn_order(players, rocks):
    """Spirits start on the rules page's rocks, in turn order from the first player."""
    state = fg.make("living_forest", num_players=players).new_game(seed=1, first_player=1)
    assert tuple(state.rocks[(1 + k) % players] for k in range(players)) == rocks


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_components(players):
    """A new game: 14-card decks, 4 face-up cards per level, one fire 2, 23 Varans, full supply."""
    state = fg.make("living_forest", num_players=players).new_game(seed=9)
    assert all(len(d) == 14 for d in state.decks)
    assert [len(r) for r in state.rows] == [4, 4, 4] and [len(s) for s in state.stacks] == [
        19,
        12,
        8,
    ]
    assert state.centre == (2,) and state.fire_supply == (19, 20, 18)
    assert state.varans == 23 and state.fragment_supply == 20
    assert state.victory == ((1, 1, 1),) * players
    assert all(f[7] == 0 and sum(x >= 0 for x in f) == 1 for f in state.forests)


def test_fire_tiles_option_sets_the_supply():
    """fire_tiles=(a, b, c) is the supply (less the first fire of value 2)."""
    state = fg.make("living_forest", fire_tiles=(5, 6, 7)).new_game(seed=1)
    assert state.fire_supply == (4, 6, 7)


def test_same_seed_same_game_other_seed_other_deal():
    """A seed fixes the deal and the start seat; another seed deals otherwise."""
    game = fg.make("living_forest", num_players=3)
    assert game.new_game(seed=5) == game.new_game(seed=5)
    assert game.new_game(seed=5).decks != game.new_game(seed=6).decks
