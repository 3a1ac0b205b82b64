"""Promises of the public API's docstrings (core, sim, tournament, viewer, testing, schema)
that a docstring hunt found the code did not keep."""

from __future__ import annotations

from typing import Any

import pytest

import forestgames as fg
from forestgames import core
from forestgames.core import hidden_from
from forestgames.sim import GameRow


def _guardian_phase() -> tuple[Any, Any, Any]:
    """A simultaneous Guardian phase of Living Forest, one of seat 0's private moves and a
    Bosk state (another game's)."""
    game = fg.make("living_forest", guardian_phase="simultaneous")
    state = game.new_game(1)
    return game, state, state.legal_moves(0)[0]


def test_hidden_from_answers_for_good_arguments() -> None:
    """hidden_from: a private move is hidden from another seat, not from its own."""
    game, state, move = _guardian_phase()
    assert hidden_from(game, state, move, 1) is True
    assert hidden_from(game, state, str(move), 1) is True
    assert hidden_from(game, state, move, 0) is False


@pytest.mark.parametrize(
    ("args", "error", "words"),
    [
        (lambda g, s, m: (g, None, m, 1), fg.ConfigError, "not a state of"),
        (lambda g, s, m: (g, fg.make("bosk").new_game(1), m, 1), fg.ConfigError, "not a state"),
        (lambda g, s, m: (g, s, m, 9), fg.ConfigError, "not a seat"),
        (lambda g, s, m: (g, s, m, "a"), fg.ConfigError, "player"),
        (lambda g, s, m: (g, s, 3, 1), fg.IllegalMoveError, "not a Living Forest move"),
        (lambda g, s, m: (g, s, None, 1), fg.IllegalMoveError, "not a Living Forest move"),
        (lambda g, s, m: (None, s, m, 1), fg.ConfigError, "must be a game"),
    ],
)
def test_hidden_from_refuses_bad_arguments_with_the_librarys_errors(
    args: Any, error: type[Exception], words: str
) -> None:
    """hidden_from: a non-state, a seat not in the game, a non-move or a non-game is the
    library's error naming it (an AttributeError escaped, or a seat 9 got an answer)."""
    game, state, move = _guardian_phase()
    with pytest.raises(error, match=words):
        hidden_from(*args(game, state, move))


def test_a_truncated_game_row_has_no_winners() -> None:
    """GameRow: "winners is empty for a truncated game" (a row cut at the cap naming a
    winner was taken, by the constructor and from_dict alike)."""
    row = fg.simulate("bosk", ["random", "greedy"], 1, seed=1, progress=False).rows[0]
    data = row.to_dict() | {"truncated": True}
    with pytest.raises(fg.ConfigError, match="so it has no winners"):
        GameRow.from_dict(data)
    assert GameRow.from_dict(data | {"winners": []}).winners == ()


@pytest.mark.parametrize("replace", ["no", 1, None])
def test_register_game_refuses_a_replace_that_is_not_a_bool(
    replace: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """register_game: replace is True or False; "no" or 1 was taken by its truth and
    silently replaced a registered game."""
    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))  # kept whatever happens
    before = fg.make("bosk")
    with pytest.raises(fg.ConfigError, match="replace must be True or False"):
        core.register_game("bosk", lambda **options: before, replace=replace)
    assert type(fg.make("bosk")) is type(before)
    assert core._REGISTRY["bosk"] == type(before).create
