"""``fg.simulate(..., engine="vector")``: random and greedy Bosk games played by VectorBosk.

Game k of a run seeded S is the scalar path's game k move for move: it starts
as ``new_game(derive_seed(S, k))``, and each seat draws from the very stream its
scalar agent would own (``random.Random(agent.seed_for_game(derive_seed(derive_seed(
S, k), 1, seat)))``, emulated on numpy arrays), choosing among the
legal moves in the scalar order as RandomAgent and GreedyAgent do. So the rows
are identical to the scalar path's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from forestgames.core import ConfigError, derive_seed, excerpt

__all__ = ["VECTOR_BATCH", "simulate_vector", "vector_agents"]

VECTOR_BATCH = 1024
"""Games played at once by the vector engine."""


def vector_agents(game: Any, agents: Sequence[Any]) -> list[Any] | None:
    """The built agents (random or greedy) if the vector engine can play them all, else None.

    Not with a heuristic registered for Bosk (``register_heuristic``): the scalar greedy
    agent would use it, and the vector one plays the built-in estimate."""
    from forestgames.agents import GreedyAgent, RandomAgent, make_agent
    from forestgames.agents.heuristics import heuristic_for, scores_after

    if getattr(game, "name", None) != "bosk" or not agents or isinstance(agents, str):
        return None
    try:
        built = [make_agent(agent, seed=0) for agent in agents]
    except ConfigError:
        return None
    if not all(type(agent) in (RandomAgent, GreedyAgent) for agent in built):
        return None
    registered = heuristic_for("bosk") is not scores_after
    if registered and any(type(agent) is GreedyAgent for agent in built):
        return None
    return built


def _policy(agent: Any) -> str:
    """The vector policy of a built random or greedy agent (by its class, not its name,
    which a user may change)."""
    from forestgames.agents import GreedyAgent

    return "greedy" if type(agent) is GreedyAgent else "random"


def simulate_vector(
    game: Any, agents: Sequence[Any], games: int, seed: int, rotate: bool, digest: str
) -> list[Any]:
    """The rows of ``games`` Bosk games between random/greedy ``agents`` (see the module doc)."""
    from forestgames.bosk.vector import VectorBosk
    from forestgames.sim import GameRow

    built = vector_agents(game, agents)
    if built is None:
        raise ConfigError(
            'engine="vector" plays Bosk between random and greedy agents only (and greedy '
            "with the built-in estimate: no heuristic registered for Bosk), not "
            f"{game.name} with {excerpt(list(agents))}"
        )
    p = game.num_players
    seats = [built[seat % len(built)] for seat in range(p)]
    options = game.options()
    options.pop("num_players")
    rows = []
    for first in range(0, games, VECTOR_BATCH):
        count = min(VECTOR_BATCH, games - first)
        vec = VectorBosk(p, count, seed, first_game=first, **options)
        first_players = vec.current_player.copy()
        lineups = []
        streams = np.zeros((count, p), dtype=object)
        for k in range(count):
            index = first + k
            shift = index % p if rotate else 0
            lineup = [seats[(seat + shift) % p] for seat in range(p)]
            lineups.append(lineup)
            game_seed = derive_seed(seed, index)
            for seat, agent in enumerate(lineup):
                streams[k, seat] = agent.seed_for_game(derive_seed(game_seed, 1, seat))
        policies = np.array([[_policy(agent) for agent in lineup] for lineup in lineups])
        moves = vec.play(policies, streams=streams)
        scores, winners = vec.scores, vec.winners
        for k in range(count):
            rows.append(
                GameRow(
                    index=first + k,
                    seed=derive_seed(seed, first + k),
                    first_player=int(first_players[k]),
                    agents=tuple(agent.name for agent in lineups[k]),
                    scores=tuple(int(x) for x in scores[k]),
                    winners=(int(winners[k]),),
                    moves=int(moves[k]),
                    truncated=False,
                    run=digest,
                )
            )
    return rows
