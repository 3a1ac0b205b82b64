"""Bosk's agent heuristic: each seat's points as if the next scoring happened now.

* :func:`position_value`: in spring, the summer score of the board as it stands;
  from the wind phase on, the summer points plus the winter score of the leaves
  as they lie. After the game, the final scores.
* :func:`move_values`: the same estimate after each candidate move, all
  candidates in one batched kernel call on a stack of candidate boards. Choosing
  the wind, a tree or a tile changes no board: those candidates tie.

Bosk has no hidden information, so nothing here can leak.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from forestgames.bosk.moves import PlaceLeaf, PlaceSquirrel, PlantTree
from forestgames.bosk.scoring import summer_scores, winter_scores
from forestgames.bosk.state import Phase

__all__ = ["move_values", "position_value"]


def position_value(state: Any) -> np.ndarray:
    """(P,) points per seat as if the next scoring happened now (final scores once over)."""
    p = state.game.num_players
    if state.phase is Phase.OVER:
        return np.asarray(state.scores, dtype=np.float64)
    if state.phase is Phase.SPRING:
        return np.asarray(summer_scores(state.tree_owner, state.tree_value, p), dtype=np.float64)
    summer = np.asarray(state.summer, dtype=np.float64)
    return summer + winter_scores(state.top, state.game.terrain, p)


def move_values(state: Any, moves: Sequence[Any]) -> np.ndarray:
    """(M, P): :func:`position_value` after each of ``moves`` (moves of one seat).

    Spring trees by the summer score with the tree planted; leaves and squirrels
    by summer points plus the winter score with the token placed; other moves
    leave the board as it is.
    """
    m = len(moves)
    first = moves[0] if m else None
    if isinstance(first, PlantTree):
        return _after_trees(state, moves)
    if isinstance(first, PlaceLeaf | PlaceSquirrel):
        return _after_tokens(state, moves)
    now = position_value(state) if m else np.zeros(state.game.num_players)
    return np.repeat(now[None], m, axis=0)


def _squares(moves: Sequence[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = np.array([move.at[0] for move in moves])
    cols = np.array([move.at[1] for move in moves])
    seats = np.array([move.player for move in moves])
    return rows, cols, seats


def _after_trees(state: Any, moves: Sequence[Any]) -> np.ndarray:
    m, p = len(moves), state.game.num_players
    rows, cols, seats = _squares(moves)
    batch = np.arange(m)
    owner = np.repeat(state.tree_owner[None], m, axis=0)
    value = np.repeat(state.tree_value[None], m, axis=0)
    owner[batch, rows, cols] = seats
    value[batch, rows, cols] = [move.value for move in moves]
    return np.asarray(summer_scores(owner, value, p), dtype=np.float64)


def _after_tokens(state: Any, moves: Sequence[Any]) -> np.ndarray:
    m, p = len(moves), state.game.num_players
    rows, cols, seats = _squares(moves)
    top = np.repeat(state.top[None], m, axis=0)
    top[np.arange(m), rows, cols] = seats
    summer = np.asarray(state.summer, dtype=np.float64)
    return summer + winter_scores(top, state.game.terrain, p)
