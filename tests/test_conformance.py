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


HIDDEN = [name for name in fg.GAME_NAMES if fg.make(name).traits.hidden_information]


@pytest.mark.parametrize("name", HIDDEN)
def test_determinize_depends_only_on_the_seats_view(name):
    """determinize(seat, seed) is the same from the real state and from any state the seat
    cannot tell from it, so a seeded search (MCTS) cannot learn the hidden order from it."""
    from tests.strategies import random_game

    game = fg.make(name, num_players=4)
    states = [state for state, _ in random_game(game, 3)]
    for k, state in enumerate(states[:: max(1, len(states) // 6)]):
        for seat in range(game.num_players):
            sample = state.determinize(seat, 7)
            for other in (state.determinize(seat, 1), state.determinize(seat, 2)):
                assert other.determinize(seat, 7) == sample, (name, k, seat)


@pytest.mark.parametrize("name", HIDDEN)
def test_mcts_choice_ignores_the_hidden_part(name):
    """A seeded MCTS agent chooses the same move in a state and in its determinizations."""
    from forestgames.agents import make_agent
    from tests.strategies import random_game

    game = fg.make(name, num_players=4)
    states = [s for s, _ in random_game(game, 1) if not s.is_terminal]
    for state in states[1 :: max(1, len(states) // 5)]:
        seat = state.players_to_act[0]
        choice = make_agent("mcts:20:4", seed=1).choose(state)
        for seed in range(2):
            sample = state.determinize(seat, seed)
            assert make_agent("mcts:20:4", seed=1).choose(sample) == choice


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"game": None}, "must be a game"),
        ({"game": 3}, "must be a game"),
        ({"games": 0}, "games"),
        ({"games": None}, "games"),
        ({"seed": -1}, "seed"),
        ({"seed": None}, "seed"),
        ({"deep_every": 0}, "deep_every"),
        ({"deep_every": 1.5}, "deep_every"),
    ],
)
def test_harness_refuses_bad_arguments(arguments, message):
    """check_game's own bad arguments are a ConfigError naming them (not ZeroDivisionError,
    IndexError or TypeError from deep inside)."""
    given = {"game": fg.make("bosk"), "games": 1} | arguments
    with pytest.raises(fg.ConfigError, match=message):
        check_game(**given)


def test_random_game_helpers_refuse_bad_arguments():
    """random_game of a non-game or a non-int move cap, and random_step with an rng that is
    not a random.Random, raise ConfigError."""
    import random

    from forestgames.testing import random_game, random_step

    with pytest.raises(fg.ConfigError, match="must be a game"):
        random_game(None, 1)
    with pytest.raises(fg.ConfigError, match="max_moves"):
        random_game(fg.make("bosk"), 1, max_moves="x")
    state = fg.make("bosk").new_game(seed=1)
    with pytest.raises(fg.ConfigError, match=r"random\.Random"):
        random_step(state, 1)
    assert random_step(state, random.Random(1)) in state.legal_moves()
