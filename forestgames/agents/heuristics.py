"""Game knowledge for the agents, in one place: a move evaluator per game.

A *move evaluator* takes a live state and some of its legal moves (all by one
seat) and returns a float array of shape ``(len(moves), num_players)``: each
seat's estimated score right after each move. :class:`GreedyAgent` picks the
move that maximises its own estimate minus the best opponent's.

Adding a game is a function and one line::

    def _my_game_scores(state, moves):
        ...                                  # (M, P) estimates, batched if you can
    register_heuristic("my_game", _my_game_scores)

Games without an evaluator fall back to :func:`scores_after`: apply each move
and read the position's value (exact where points are scored as you go; where
points come later every move ties and Greedy plays like Random).

A *position value* (``(P,)`` estimates for one state, default ``state.scores``)
may be registered too: the fallback evaluator uses it, and Greedy compares a
reaction out of turn against passing with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from forestgames import bosk

__all__ = [
    "MoveEvaluator",
    "PositionValue",
    "evaluate_moves",
    "heuristic_for",
    "position_value",
    "register_heuristic",
    "register_position_value",
    "scores_after",
]

MoveEvaluator = Callable[[Any, Sequence[Any]], np.ndarray]

PositionValue = Callable[[Any], Any]  # state -> (P,) array-like

_HEURISTICS: dict[str, MoveEvaluator] = {}
_POSITION_VALUES: dict[str, PositionValue] = {}


def register_heuristic(game_name: str, evaluator: MoveEvaluator) -> None:
    """Use ``evaluator`` for the states of the game called ``game_name``."""
    _HEURISTICS[game_name] = evaluator


def register_position_value(game_name: str, value: PositionValue) -> None:
    """Use ``value(state)`` as the game's per-seat estimate of a position."""
    _POSITION_VALUES[game_name] = value


def position_value(state: Any) -> np.ndarray:
    """Each seat's estimated score in ``state`` (default: ``state.scores``)."""
    value = _POSITION_VALUES.get(state.game.name)
    return np.asarray(state.scores if value is None else value(state), dtype=np.float64)


def heuristic_for(game_name: str) -> MoveEvaluator:
    """The evaluator registered for ``game_name``, or the fallback :func:`scores_after`."""
    return _HEURISTICS.get(game_name, scores_after)


def evaluate_moves(state: Any, moves: Sequence[Any]) -> np.ndarray:
    """Estimated scores (M, P) after each of ``moves`` in ``state`` (see the module doc)."""
    values = np.asarray(heuristic_for(state.game.name)(state, moves), dtype=np.float64)
    expected = (len(moves), state.game.num_players)
    if values.shape != expected:
        raise ValueError(
            f"{state.game.name} heuristic returned shape {values.shape}, not {expected}"
        )
    return values


def scores_after(state: Any, moves: Sequence[Any]) -> np.ndarray:
    """The fallback evaluator: the position value after each move."""
    return np.array([position_value(state.apply(move)) for move in moves], dtype=np.float64)


# --------------------------------------------------------------------------- Bosk


def _bosk_scores(state: bosk.BoskState, moves: Sequence[Any]) -> np.ndarray:
    """Bosk: spring trees by the summer score as if scored now; leaves and
    squirrels by summer points plus the winter score as if scored now.

    Choosing the wind, a tree or a tile changes no board: those moves tie
    (Greedy then picks at random among them). All candidates are scored in one
    batched kernel call on a stack of candidate boards.
    """
    p, m = state.game.num_players, len(moves)
    first = moves[0] if m else None
    summer = np.asarray(state.summer, dtype=np.float64)
    if isinstance(first, bosk.PlantTree | bosk.PlaceLeaf | bosk.PlaceSquirrel):
        batch = np.arange(m)
        rows = np.array([move.at[0] for move in moves])
        cols = np.array([move.at[1] for move in moves])
        seats = [move.player for move in moves]
        if isinstance(first, bosk.PlantTree):
            owner = np.repeat(state.tree_owner[None], m, axis=0)
            value = np.repeat(state.tree_value[None], m, axis=0)
            owner[batch, rows, cols] = seats
            value[batch, rows, cols] = [move.value for move in moves]
            return bosk.summer_scores(owner, value, p).astype(np.float64)
        top = np.repeat(state.top[None], m, axis=0)
        top[batch, rows, cols] = seats
        return summer + bosk.winter_scores(top, state.game.terrain, p)
    now: np.ndarray
    if state.phase is bosk.Phase.SPRING:
        now = bosk.summer_scores(state.tree_owner, state.tree_value, p)
    else:
        now = summer + bosk.winter_scores(state.top, state.game.terrain, p)
    return np.repeat(np.asarray(now, dtype=np.float64)[None], m, axis=0)


register_heuristic("bosk", _bosk_scores)


# --------------------------------------------------------------------------- Boom Bokken

BOOM_BOKKEN_CARD_WEIGHT = 0.5
"""Points a card in hand is estimated to cost: coins go to the seats that empty
their hands first, so each card shed is a step toward them."""


def _boom_bokken_value(state: Any) -> np.ndarray:
    """Boom Bokken: coins and tokens so far, less ``BOOM_BOKKEN_CARD_WEIGHT`` per card held."""
    scores = np.asarray(state.scores, dtype=np.float64)
    return scores - BOOM_BOKKEN_CARD_WEIGHT * np.asarray(state.hand_sizes, dtype=np.float64)


register_position_value("boom_bokken", _boom_bokken_value)
