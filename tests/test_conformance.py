"""The shared protocol, checked by the shipped harness on every registered game and case.

Each game declares its cases (every player count, plus option sets worth
checking: ``conformance_cases()``); the fake game of the tests is checked too,
so the harness is known to work on a game that is not registered.
"""

from __future__ import annotations

import pytest

import forestgames as fg
from forestgames.core import GameBase
from forestgames.testing import check_game
from tests.test_fake_game import BuzzGame


def _cases(name: str) -> tuple[dict, ...]:
    cls = type(fg.make(name))
    cases = getattr(cls, "conformance_cases", None)
    if cases is not None:
        return cases()  # type: ignore[no-any-return]
    traits = fg.make(name).traits
    return tuple({"num_players": p} for p in range(traits.min_players, traits.max_players + 1))


CASES = [(name, options) for name in fg.GAME_NAMES for options in _cases(name)]


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}-{o}" for n, o in CASES])
def test_conformance(name, options):
    """Random games of each registered game and case obey the whole shared protocol."""
    game = fg.make(name, **options)
    assert isinstance(game, GameBase)
    check_game(game, games=2, seed=7)


@pytest.mark.parametrize("players", [2, 3])
def test_conformance_of_an_unregistered_game(players):
    """The harness runs on a game of the user's own that ``make`` does not know."""
    check_game(BuzzGame.create(num_players=players, target=12), games=5, seed=1)


def test_harness_names_a_broken_promise():
    """A game whose options() cannot rebuild it fails the harness with a message naming it."""

    class Broken(BuzzGame):
        def options(self):
            return {"num_players": self.num_players}

    with pytest.raises(AssertionError, match="options"):
        check_game(Broken.create(target=20), games=1)
