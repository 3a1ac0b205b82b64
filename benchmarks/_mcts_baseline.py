"""The MCTS agent as it was before the time budget (a frozen copy: the speed baseline).

Kept only so that ``benchmarks/bench_mcts.py`` can measure iterations per
second of the old and the new search in the same run, on the same positions.
Its move priorities use the evaluators of that time: Bosk's batched one, and
elsewhere each seat's ``state.scores`` after the move (Boom Bokken: its
position value, unchanged since).

Original description: Monte Carlo tree search (UCT) over determinized states.

Each iteration samples a full state consistent with what the searching seat
may see (``state.determinize(seat, seed)``: the state itself in games without
hidden information), walks down the tree by UCB1 among the moves legal in that
sample (moves not legal in every sample are weighed by how often they were
available: "information set" UCT), expands one untried move (the best by the
game's heuristic margin first, as Greedy ranks them), finishes the game with
random moves and backs up each seat's reward: its share of the win (1 / number
of winners, 0 for a loser). Seats act in the tree as in the driver's main line
(``players_to_act[0]``); in rollouts every seat that may act is picked at random.
"""

from __future__ import annotations

import math
from typing import Any

from forestgames.agents.base import SeededAgent, acting_seat
from forestgames.agents.greedy import margins
from forestgames.agents.heuristics import evaluate_moves, position_value
from forestgames.core import ConfigError

__all__ = ["BaselineMCTS"]


class _Node:
    """Statistics of one move sequence from the root."""

    __slots__ = ("available", "children", "priority", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat that made the move leading here
        self.children: dict[Any, _Node] = {}
        self.priority: dict[Any, float] = {}  # heuristic margin of moves not yet tried
        self.visits = 0
        self.available = 0
        self.reward = 0.0


class BaselineMCTS(SeededAgent):
    """UCT with ``iterations`` playouts per decision (forced moves are played at once).

    ``exploration`` is UCB1's constant. ``rollout_limit`` (default None: play
    to the end) cuts each random playout after that many moves and rewards
    the seats then leading on ``state.scores``, as if the game ended there:
    much faster for long games, at the price of a cruder estimate.
    """

    def __init__(
        self,
        iterations: int = 200,
        seed: int | None = None,
        exploration: float = 1.4,
        rollout_limit: int | None = None,
    ) -> None:
        super().__init__(seed)
        for what, value in (("iterations", iterations), ("rollout_limit", rollout_limit)):
            if value is None and what == "rollout_limit":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"{what} must be a positive int, not {value!r}")
        self.iterations = iterations
        self.exploration = float(exploration)
        self.rollout_limit = rollout_limit
        limit = "" if rollout_limit is None else f":{rollout_limit}"
        self.name = f"baseline-mcts:{iterations}{limit}"

    def settings(self) -> dict[str, Any]:
        return {
            "iterations": self.iterations,
            "exploration": self.exploration,
            "rollout_limit": self.rollout_limit,
        }

    def choose(self, state: Any) -> Any:
        seat = acting_seat(state)
        moves = state.legal_moves(seat)
        if len(moves) == 1:
            return moves[0]
        root = _Node(seat)
        for _ in range(self.iterations):
            sample = state.determinize(seat, self.rng.randrange(2**63))
            self._iterate(root, sample)
        # The most visited root move that is legal in the real state.
        return max(moves, key=lambda m: root.children[m].visits if m in root.children else -1)

    def _iterate(self, root: _Node, state: Any) -> None:
        path = [root]
        node = root
        while not state.is_terminal:
            seat = state.players_to_act[0]
            moves = state.legal_moves(seat)
            for move in moves:
                child = node.children.get(move)
                if child is not None:
                    child.available += 1
            fresh = [m for m in moves if m not in node.children]
            if fresh:
                move = self._most_promising(node, seat, state, fresh)
                child = node.children[move] = _Node(seat)
                child.available = 1
                state = state.apply(move)
                path.append(child)
                break
            move = self._select(node, moves)
            node = node.children[move]
            state = state.apply(move)
            path.append(node)
        rewards = self._rollout(state)
        for visited in path:
            visited.visits += 1
            if visited is not root:
                visited.reward += rewards[visited.seat]

    def _most_promising(self, node: _Node, seat: int, state: Any, fresh: list[Any]) -> Any:
        """The untried move with the best heuristic margin (ties: the first drawn)."""
        unknown = [m for m in fresh if m not in node.priority]
        if unknown:
            gains = margins(_old_evaluate(state, unknown), seat)
            noise = [self.rng.random() * 1e-6 for _ in unknown]
            node.priority.update(zip(unknown, (gains + noise).tolist(), strict=True))
        move = max(fresh, key=node.priority.__getitem__)
        del node.priority[move]
        return move

    def _select(self, node: _Node, moves: tuple[Any, ...]) -> Any:
        c = self.exploration
        best, best_value = moves[0], -math.inf
        for move in moves:
            child = node.children[move]
            value = child.reward / child.visits + c * math.sqrt(
                math.log(max(child.available, 1)) / child.visits
            )
            if value > best_value:
                best, best_value = move, value
        return best

    def _rollout(self, state: Any) -> list[float]:
        rng, steps = self.rng, 0
        while not state.is_terminal and steps != self.rollout_limit:
            seats = state.players_to_act
            seat = seats[0] if len(seats) == 1 else seats[rng.randrange(len(seats))]
            moves = state.legal_moves(seat)
            state = state.apply(moves[rng.randrange(len(moves))])
            steps += 1
        if state.is_terminal:
            winners = state.winners
        else:  # cut short: the leaders on points so far
            scores = state.scores
            winners = tuple(s for s, v in enumerate(scores) if v == max(scores))
        rewards = [0.0] * state.game.num_players
        for winner in winners:
            rewards[winner] = 1.0 / len(winners)
        return rewards


def _old_evaluate(state: Any, moves: list[Any]) -> Any:
    """The move evaluators of the time: Bosk's batched one, else scores after each move."""
    import numpy as np

    name = state.game.name
    if name == "bosk":
        return evaluate_moves(state, moves)
    if name == "boom_bokken":
        return np.array([position_value(state.apply(m)) for m in moves])
    return np.array([state.apply(m).scores for m in moves], dtype=np.float64)
