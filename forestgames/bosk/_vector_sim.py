"""``fg.simulate(..., engine="vector")``: random and greedy Bosk games played by VectorBosk.

Game k of a run seeded S starts as in the scalar path (``new_game(derive_seed(S, k))``,
so the same first player), and each seat plays the same policy: random picks a
uniformly random legal move, greedy the greedy agent's heuristic choice with
ties at random. The random streams differ from the scalar agents' (one numpy
generator per batch instead of one ``random.Random`` per agent), so the rows
are not identical to the scalar path's; their distribution is the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from forestgames.core import ConfigError, derive_seed

__all__ = ["VECTOR_BATCH", "vector_policies", "simulate_vector"]

VECTOR_BATCH = 1024
"""Games played at once by the vector engine."""


def vector_policies(game: Any, agents: Sequence[Any]) -> list[str] | None:
    """The policy name of each agent if the vector engine can play them all, else None."""
    if getattr(game, "name", None) != "bosk":
        return None
    names = []
    for agent in agents:
        name = agent.strip().lower() if isinstance(agent, str) else None
        if name is None:
            kind = type(agent).__name__
            name = {"RandomAgent": "random", "GreedyAgent": "greedy"}.get(kind)
        if name not in ("random", "greedy"):
            return None
        names.append(name)
    return names


def simulate_vector(
    game: Any, agents: Sequence[Any], games: int, seed: int, rotate: bool, digest: str
) -> list[Any]:
    """The rows of ``games`` Bosk games between random/greedy ``agents`` (see the module doc)."""
    from forestgames.bosk.vector import VectorBosk
    from forestgames.sim import GameRow

    names = vector_policies(game, agents)
    if names is None:
        raise ConfigError(
            'engine="vector" plays Bosk between random and greedy agents only, '
            f"not {game.name} with {list(agents)!r}"
        )
    p = game.num_players
    seats = [names[seat % len(names)] for seat in range(p)]
    run = hashlib.sha256(f"{digest}:vector".encode()).hexdigest()[:12]
    options = game.options()
    options.pop("num_players")
    rows = []
    for first in range(0, games, VECTOR_BATCH):
        count = min(VECTOR_BATCH, games - first)
        vec = VectorBosk(p, count, seed, first_game=first, **options)
        first_players = vec.current_player.copy()
        shifts = (np.arange(first, first + count) % p) if rotate else np.zeros(count, int)
        lineup = [[seats[(seat + shift) % p] for seat in range(p)] for shift in shifts]
        moves = vec.play(np.array(lineup, dtype=object), seed=derive_seed(seed, 3, first))
        scores, winners = vec.scores, vec.winners
        for k in range(count):
            rows.append(
                GameRow(
                    index=first + k,
                    seed=derive_seed(seed, first + k),
                    first_player=int(first_players[k]),
                    agents=tuple(lineup[k]),
                    scores=tuple(int(x) for x in scores[k]),
                    winners=(int(winners[k]),),
                    moves=int(moves[k]),
                    truncated=False,
                    run=run,
                )
            )
    return rows
