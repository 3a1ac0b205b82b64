"""The greedy agent: the move with the best immediate estimated score margin."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from forestgames.agents.base import SeededAgent, acting_seat, reaction_moves
from forestgames.agents.heuristics import _evaluate_moves as evaluate_moves  # unchecked
from forestgames.agents.heuristics import _position_value as position_value  # unchecked

__all__ = ["GreedyAgent", "greedy_reaction", "margins"]


def margins(values: np.ndarray, seat: int) -> np.ndarray:
    """Per candidate: ``seat``'s estimate minus the best other seat's (M,)."""
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
        gain = margins(evaluate_moves(state, moves), seat)
        best = np.flatnonzero(gain == gain.max())
        return moves[int(best[self.rng.randrange(len(best))])]

    def react(self, state: Any, player: int) -> Any | None:
        """Seat ``player``'s best reaction out of turn by the heuristic, or None to pass."""
        return greedy_reaction(state, player, self.rng)


def greedy_reaction(state: Any, player: int, rng: random.Random) -> Any | None:
    """``player``'s out-of-turn move with the best estimated margin, if it beats passing
    (the position's value as it stands); ties broken by ``rng``. None: pass."""
    moves = reaction_moves(state, player)
    if not moves:
        return None
    gain = margins(evaluate_moves(state, moves), player)
    now = margins(position_value(state)[None], player)[0]
    if gain.max() <= now:
        return None
    best = np.flatnonzero(gain == gain.max())
    return moves[int(best[rng.randrange(len(best))])]
