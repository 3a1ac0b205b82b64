"""The random agent: a uniformly random legal move (the baseline)."""

from __future__ import annotations

from typing import Any

from forestgames.agents.base import SeededAgent, acting_seat, reaction_moves

__all__ = ["RandomAgent"]


class RandomAgent(SeededAgent):
    """Plays a uniformly random legal move; reacts out of turn with a random
    legal move or a pass, each option equally likely."""

    name = "random"

    def choose(self, state: Any) -> Any:
        """A legal move drawn uniformly (from the agent's seeded generator)."""
        seat = acting_seat(state)  # first: it names a state that is not one
        return self.rng.choice(state.legal_moves(seat))

    def react(self, state: Any, player: int) -> Any | None:
        """Seat ``player``'s reaction out of turn: each legal one, or passing (None), equally
        likely."""
        moves = reaction_moves(state, player)
        pick = self.rng.randrange(len(moves) + 1)
        return None if pick == len(moves) else moves[pick]
