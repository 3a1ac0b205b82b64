"""Agents that play every forestgames game: random, greedy and MCTS.

    from forestgames.agents import make_agent
    agents = [make_agent("greedy", seed=1), make_agent("mcts:100", seed=2)]

An agent has ``choose(state) -> Move`` and may have ``react(state, player)``
for out-of-turn play. Agent *specs* name an agent in text: ``random``,
``greedy``, ``mcts``, ``mcts:ITERATIONS`` or ``mcts:ITERATIONS:ROLLOUT_LIMIT``.
"""

from __future__ import annotations

from typing import Any

from forestgames.agents.base import Agent, SeededAgent, acting_seat, agent_for_game
from forestgames.agents.greedy import GreedyAgent
from forestgames.agents.heuristics import evaluate_moves, heuristic_for, register_heuristic
from forestgames.agents.mcts import MCTSAgent
from forestgames.agents.random_agent import RandomAgent
from forestgames.core import ConfigError

__all__ = [
    "AGENT_KINDS",
    "Agent",
    "GreedyAgent",
    "MCTSAgent",
    "RandomAgent",
    "SeededAgent",
    "acting_seat",
    "agent_for_game",
    "evaluate_moves",
    "heuristic_for",
    "make_agent",
    "register_heuristic",
]

AGENT_KINDS: tuple[str, ...] = ("random", "greedy", "mcts")


def make_agent(spec: Any, seed: int | None = None) -> Any:
    """An agent from a spec (``"random"``, ``"greedy"``, ``"mcts"``,
    ``"mcts:ITERATIONS"``, ``"mcts:ITERATIONS:ROLLOUT_LIMIT"``); an object that is
    already an agent is returned as is.

    ConfigError names a bad spec.
    """
    if not isinstance(spec, str):
        if not callable(getattr(spec, "choose", None)):
            raise ConfigError(f"{spec!r} is not an agent (it has no choose(state) method)")
        return spec
    kind, _, argument = spec.strip().lower().partition(":")
    if kind == "random" and not argument:
        return RandomAgent(seed)
    if kind == "greedy" and not argument:
        return GreedyAgent(seed)
    if kind == "mcts":
        if not argument:
            return MCTSAgent(seed=seed)
        numbers = argument.split(":")
        if len(numbers) <= 2 and all(n.isdigit() and int(n) > 0 for n in numbers):
            limit = int(numbers[1]) if len(numbers) == 2 else None
            return MCTSAgent(int(numbers[0]), seed=seed, rollout_limit=limit)
        raise ConfigError(
            f"agent {spec!r}: expected mcts:ITERATIONS or mcts:ITERATIONS:ROLLOUT_LIMIT, "
            "positive ints, e.g. mcts:200"
        )
    raise ConfigError(f"unknown agent {spec!r}; known: random, greedy, mcts, mcts:ITERATIONS")
