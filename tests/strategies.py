"""Hypothesis strategies and plain helpers that play random legal games (any game).

Every game's tests reuse these: one way to play a random game, one place to fix.
A random step picks a seat among ``state.players_to_act`` and then one of that
seat's legal moves, so out-of-turn games are exercised too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st


def random_step(state: Any, rng: random.Random) -> Any:
    """One random legal move of a seat that may act now."""
    seats = state.players_to_act
    player = seats[0] if len(seats) == 1 else rng.choice(seats)
    return rng.choice(state.legal_moves(player))


def random_game(game: Any, seed: int, max_moves: int | None = None) -> Iterator[tuple[Any, Any]]:
    """Yield ``(state, move)`` pairs of a random game until it ends; the last move is None.

    ``seed`` fixes both the deal and the moves. Raises AssertionError if the
    game outlives ``max_moves`` (default: the game's declared maximum).
    """
    rng = random.Random(seed)
    limit = game.traits.max_moves if max_moves is None else max_moves
    state = game.new_game(seed=seed)
    for _ in range(limit):
        if state.is_terminal:
            yield state, None
            return
        move = random_step(state, rng)
        yield state, move
        state = state.apply(move)
    assert state.is_terminal, f"{game.name}: random game {seed} not over after {limit} moves"
    yield state, None


def final_state(game: Any, seed: int) -> Any:
    """The last state of random game ``seed``."""
    last = None
    for state, _ in random_game(game, seed):
        last = state
    return last


@st.composite
def playthroughs(draw: st.DrawFn, game: Any) -> list[Any]:
    """Every state of one random legal game of ``game`` (seeded by hypothesis)."""
    seed = draw(st.integers(0, 2**32 - 1))
    return [state for state, _ in random_game(game, seed)]


@st.composite
def reachable_states(draw: st.DrawFn, game: Any) -> Any:
    """One state somewhere along a random legal game of ``game``."""
    states = draw(playthroughs(game))
    return states[draw(st.integers(0, len(states) - 1))]
