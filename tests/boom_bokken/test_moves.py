"""Move notation: text both ways, repr, canonical card order."""

import pytest

import forestgames as fg
from forestgames.boom_bokken import Boom, Play, TimeOut, parse_move
from forestgames.boom_bokken import moves as moves_module

EXAMPLES = [
    ("0:play 5 @2 higher", Play(0, ("5",), 2, "higher")),
    ("0:play 5 @2 lower knock", Play(0, ("5",), 2, "lower", True)),
    ("3:play 5+F5 @1 higher", Play(3, ("5", "F5"), 1, "higher")),
    ("4:play F6+F6 @3 lower", Play(4, ("F6", "F6"), 3, "lower")),
    ("0:play 5", Play(0, ("5",))),
    ("1:timeout", TimeOut(1)),
    ("2:boom @3", Boom(2, 3)),
    ("2:boom", Boom(2)),
]


@pytest.mark.parametrize(("text", "move"), EXAMPLES)
def test_notation_round_trip(text, move):
    """Each documented notation parses to its move, prints back, and its repr evaluates back."""
    assert parse_move(text) == move
    assert str(move) == text
    assert eval(repr(move), vars(moves_module)) == move


def test_cards_are_kept_in_canonical_order():
    """Cards given in any order (or a single name) are stored sorted: 'F5+5' is '5+F5'."""
    assert Play(0, ("F5", "5"), 1, "higher") == Play(0, ("5", "F5"), 1, "higher")
    assert parse_move("0:play F5+5 @1 higher") == Play(0, ("5", "F5"), 1, "higher")
    assert Play(0, "5", 1, "higher").cards == ("5",)


def test_surrounding_spaces_are_ignored():
    """Leading and trailing spaces do not matter."""
    assert fg.make("boom_bokken", num_players=4).parse_move("  1:timeout \n") == TimeOut(1)
