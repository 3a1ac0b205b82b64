"""How the agents reach a game's heuristic (this module imports no game).

Each game ships its knowledge in ``forestgames/<game>/heuristic.py`` and exposes
it through the two hooks of its game class (``forestgames.core.GameBase``):

* ``game.evaluate_moves(state, moves) -> (M, P)`` takes a live state and some
  of its legal moves (all of one seat) and estimates each seat's score right
  after each move. :class:`GreedyAgent` plays the move that maximises its own
  estimate minus the best other seat's;
* ``game.position_value(state) -> (P,)`` estimates each seat's score in one
  position (the base's default: ``state.scores``). Greedy compares a reaction
  out of turn against passing with it, and MCTS scores a playout it cuts short
  with it.

:func:`register_heuristic` and :func:`register_position_value` override those
hooks by game name (to try another heuristic, or for a game whose class has no
hooks); a game with neither falls back to :func:`scores_after`: apply each move
and read the position value after it. A new game overrides the hooks::

    class MyGame(GameBase[MyState, MyMove], name="my_game", ...):
        def evaluate_moves(self, state, moves):
            ...                              # (M, P) estimates, batched if you can

An evaluator must not look at what the moving seat cannot know (a hidden card
that a move reveals): the fallback applies each move to the real state, which
is safe only where the position value reads public facts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from forestgames.core import GameBase

__all__ = [
    "ChanceOutcome",
    "MoveEvaluator",
    "PositionValue",
    "chance_outcomes",
    "evaluate_moves",
    "heuristic_for",
    "position_value",
    "register_heuristic",
    "register_position_value",
    "scores_after",
]

MoveEvaluator = Callable[[Any, Sequence[Any]], np.ndarray]

PositionValue = Callable[[Any], Any]  # state -> (P,) array-like

ChanceOutcome = Callable[[Any, Any, Any], Any]  # (before, move, after) -> hashable or None

_HEURISTICS: dict[str, MoveEvaluator] = {}
_POSITION_VALUES: dict[str, PositionValue] = {}


def register_heuristic(game_name: str, evaluator: MoveEvaluator) -> None:
    """Use ``evaluator`` for the states of the game called ``game_name``."""
    _HEURISTICS[game_name] = evaluator


def register_position_value(game_name: str, value: PositionValue) -> None:
    """Use ``value(state)`` as the game's per-seat estimate of a position."""
    _POSITION_VALUES[game_name] = value


def position_value(state: Any) -> np.ndarray:
    """Each seat's estimated score in ``state``: the registered position value, else the
    game's own ``position_value`` hook if it has one, else ``state.scores``."""
    game = state.game
    value = (  # the base's unchecked hook: the search passes its own states
        _POSITION_VALUES.get(game.name)
        or getattr(game, "_position_value", None)
        or getattr(game, "position_value", None)
    )
    return np.asarray(state.scores if value is None else value(state), dtype=np.float64)


def heuristic_for(game_name: str) -> MoveEvaluator:
    """The evaluator registered for ``game_name``, or the fallback :func:`scores_after`
    (a game's own ``evaluate_moves`` hook is not in the registry; see :func:`evaluate_moves`)."""
    return _HEURISTICS.get(game_name, scores_after)


def evaluate_moves(state: Any, moves: Sequence[Any]) -> np.ndarray:
    """Estimated scores (M, P) after each of ``moves`` in ``state``: the registered
    evaluator, else the game's own ``evaluate_moves`` hook if it has one, else
    :func:`scores_after`."""
    game = state.game
    evaluator = (  # the base's unchecked hook: the search passes its own moves
        _HEURISTICS.get(game.name)
        or getattr(game, "_evaluate_moves", None)
        or getattr(game, "evaluate_moves", None)
    )
    values = np.asarray((evaluator or scores_after)(state, moves), dtype=np.float64)
    expected = (len(moves), game.num_players)
    if values.shape != expected:
        raise ValueError(f"{game.name} heuristic returned shape {values.shape}, not {expected}")
    return values


def scores_after(state: Any, moves: Sequence[Any]) -> np.ndarray:
    """The fallback evaluator: the position value after each move."""
    return np.array([position_value(state.apply(move)) for move in moves], dtype=np.float64)


def chance_outcomes(game: Any) -> ChanceOutcome | None:
    """The game's ``chance_outcome`` hook, or None where it has none (or keeps the base's,
    which never reports an outcome), so that a search need not call it."""
    hook = _hook(type(game), "chance_outcome")
    if hook is None or hook is GameBase._chance_outcome:
        return None
    return _hook(game, "chance_outcome")  # type: ignore[no-any-return]


def _hook(game: Any, name: str) -> Any:
    """A game's agents' hook ``name``: the base's unchecked form (``_name``; the search
    calls it on its own states and moves), else the game's public method, else None."""
    return getattr(game, f"_{name}", None) or getattr(game, name, None)
