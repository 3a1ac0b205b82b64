"""The greedy agent: the move with the best immediate estimated score margin."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from forestgames.agents.base import SeededAgent, _finite_array, acting_seat, reaction_moves
from forestgames.agents.heuristics import _evaluate_moves as evaluate_moves  # unchecked
from forestgames.agents.heuristics import _position_value as position_value  # unchecked
from forestgames.core import ConfigError, check_seat, excerpt

__all__ = ["GreedyAgent", "greedy_reaction", "margins"]


def margins(values: np.ndarray, seat: int) -> np.ndarray:
    """Per candidate: ``seat``'s estimate minus the best other seat's (M,). ConfigError if
    ``values`` is not finite numbers (M, P) or ``seat`` is not one of its P seats."""
    array = _finite_array(values, "values", 2)
    return _margins(array, check_seat(array.shape[1], seat))


def _margins(values: np.ndarray, seat: int) -> np.ndarray:
    """:func:`margins` unchecked (the agents call it on their own estimates)."""
    others = np.delete(values, seat, axis=1)
    best_other = others.max(axis=1) if others.shape[1] else 0.0
    return values[:, seat] - best_other


class GreedyAgent(SeededAgent):
    """Plays the move whose estimated scores (the game's heuristic, see
    ``forestgames.agents.heuristics``) put it furthest ahead of the best other
    seat; ties are broken at random. Out of turn it plays its best reaction
    only when that beats passing (the position's value as it stands)."""

    name = "greedy"

    def choose(self, state: Any) -> Any:
        """The legal move the game's heuristic rates best (ties drawn from the seed)."""
        seat = acting_seat(state)
        moves = state.legal_moves(seat)
        if len(moves) == 1:
            return moves[0]
        gain = _margins(evaluate_moves(state, moves), seat)
        best = np.flatnonzero(gain == gain.max())
        return moves[int(best[self.rng.randrange(len(best))])]

    def react(self, state: Any, player: int) -> Any | None:
        """Seat ``player``'s best reaction out of turn by the heuristic, or None to pass."""
        return _greedy_reaction(state, player, self.rng)


def greedy_reaction(state: Any, player: int, rng: random.Random) -> Any | None:
    """``player``'s out-of-turn move with the best estimated margin, if it beats passing
    (the position's value as it stands); ties broken by ``rng``. None: pass. ConfigError
    if ``rng`` is not a ``random.Random`` (and as :func:`reaction_moves` for the others)."""
    if not isinstance(rng, random.Random):
        raise ConfigError(f"rng must be a random.Random, not {excerpt(rng)}")
    return _greedy_reaction(state, player, rng)


def _greedy_reaction(state: Any, player: int, rng: random.Random) -> Any | None:
    """:func:`greedy_reaction` with ``rng`` unchecked (the agents pass their own)."""
    moves = reaction_moves(state, player)
    if not moves:
        return None
    gain = _margins(evaluate_moves(state, moves), player)
    now = _margins(position_value(state)[None], player)[0]
    if gain.max() <= now:
        return None
    best = np.flatnonzero(gain == gain.max())
    return moves[int(best[rng.randrange(len(best))])]
