"""Living Forest paths no other test reached: the refusals of a reveal and of a Fragment
taken from an empty supply, and the state's tree supply and action names."""

import pytest

from forestgames.living_forest import Reveal, SpendFragment, TakeFragment
from forestgames.living_forest._tables import CARD_INDEX, TREE_INDEX
from tests.living_forest.helpers import (
    acting,
    checked,
    names,
    play,
    put,
    stack_deck,
    start,
    with_seat,
)
from tests.refusals import refused


def test_reveal_refused_at_the_third_solitary_symbol():
    """At 3 uncancelled solitary symbols a Spirit holding a Fragment may spend or stop, and
    a reveal is refused as 'revealing must stop'; a card not in its Help Line cannot be spent."""
    state = with_seat(start(), "fragments", 0, 1)
    state = checked(stack_deck(state, 0, "Bear", "Beetle", "Lynx", "Hare"))
    state = play(state, "0:reveal", "0:reveal", "0:reveal")
    assert "0:reveal" not in names(state.legal_moves())
    refused(state, Reveal(0), "3 uncancelled solitary symbols: revealing must stop")
    refused(state, SpendFragment(0, "Hare"), "no solitary card 'Hare' in seat 0's Help Line")


def test_reveal_refused_with_nothing_left_to_draw():
    """With an empty deck and discard pile (every card but Hare in the Help Line, then Hare
    revealed) a reveal is refused naming both piles."""
    state = put(start(), 0, "line", ["Chimpanzee", "Toucan", "Butterfly"])
    rest = tuple(c for c in state.decks[0] if c != CARD_INDEX["Hare"])
    state = with_seat(state, "lines", 0, state.lines[0] + rest)
    state = with_seat(state, "decks", 0, (CARD_INDEX["Hare"],))
    state = play(checked(with_seat(state, "fragments", 0, 1)), "0:reveal")
    assert state.current_player == 0 and state.deck_size(0) == state.discard_size(0) == 0
    refused(state, Reveal(0), "seat 0's deck and discard pile are both empty")


def test_no_fragment_is_taken_from_an_empty_supply():
    """With all 20 Fragments held by the Spirits, Take Fragment is not offered and is refused
    as 'the Fragment supply is empty'; with one left it is offered again."""
    base = acting(put(start(), 0, "line", ["Beetle"]))  # sun 3: Attract stays open
    empty = checked(with_seat(with_seat(base, "fragments", 0, 10), "fragments", 1, 10))
    assert empty.fragment_supply == 0
    assert TakeFragment(0) not in empty.legal_moves()
    refused(empty, TakeFragment(0), "the Fragment supply is empty")
    one_left = checked(with_seat(empty, "fragments", 1, 9))
    assert TakeFragment(0) in one_left.legal_moves()


@pytest.mark.parametrize(
    "players, copies",
    [
        (2, [2] * 12),
        (3, [3] * 9 + [2] * 3),
        (4, [4] * 6 + [3] * 3 + [2] * 3),
    ],
)
def test_tree_supply_follows_the_copies_table(players, copies):
    """tree_supply() starts at the rules' copies per player count (3A..11) and drops by one
    for each tree planted."""
    state = start(players)
    types = ["3A", "3B", "4A", "4B", "5A", "5B", "6", "7", "8", "9", "10", "11"]
    assert state.tree_supply() == dict(zip(types, copies, strict=True))
    forest = list(state.forests[1])
    forest[forest.index(0) + 1] = TREE_INDEX["9"]  # beside the start tree
    planted = with_seat(state, "forests", 1, tuple(forest))
    assert planted.tree_supply()["9"] == 1 and planted.tree_supply()["3A"] == copies[0]


def test_action_names_list_the_actions_taken_this_turn():
    """action_names is () before the first action and names the action once taken."""
    state = acting(put(start(), 0, "line", ["Beetle"]))  # sun 3: Attract stays open
    assert state.action_names == ()
    after = play(state, "0:fragment")
    assert after.current_player == 0 and after.action_names == ("fragment",)
