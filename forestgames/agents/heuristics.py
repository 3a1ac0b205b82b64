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

from forestgames.core import ConfigError, GameBase, IllegalMoveError, _estimates, excerpt

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
    _HEURISTICS[_game_name(game_name)] = _callable(evaluator, "evaluator")


def register_position_value(game_name: str, value: PositionValue) -> None:
    """Use ``value(state)`` as the game's per-seat estimate of a position."""
    _POSITION_VALUES[_game_name(game_name)] = _callable(value, "value")


def _game_name(name: Any) -> str:
    if not isinstance(name, str):
        raise ConfigError(f"a heuristic is registered by game name (a str), not {excerpt(name)}")
    return name


def _callable(function: Any, what: str) -> Any:
    if not callable(function):
        raise ConfigError(f"{what} must be callable, not {excerpt(function)}")
    return function


def position_value(state: Any) -> np.ndarray:
    """Each seat's estimated score in ``state``: the registered position value, else the
    game's own ``position_value`` hook if it has one, else ``state.scores``. ConfigError
    if ``state`` is not a game state."""
    return _position_value(_checked_state(state, "position_value"))


def _position_value(state: Any) -> np.ndarray:
    """:func:`position_value` unchecked (the agents call it on their own states)."""
    game = state.game
    value = (  # the base's unchecked hook
        _POSITION_VALUES.get(game.name)
        or getattr(game, "_position_value", None)
        or getattr(game, "position_value", None)
    )
    if value is None:
        return np.asarray(state.scores, dtype=np.float64)
    return _estimates(value(state), (game.num_players,), game, "position value")


def heuristic_for(game_name: str) -> MoveEvaluator:
    """The evaluator registered for ``game_name``, or the fallback :func:`scores_after`
    (a game's own ``evaluate_moves`` hook is not in the registry; see :func:`evaluate_moves`).
    ConfigError if ``game_name`` is not a str."""
    if not isinstance(game_name, str):
        raise ConfigError(f"game_name must be a game's name (str), not {excerpt(game_name)}")
    return _HEURISTICS.get(game_name, scores_after)


def evaluate_moves(state: Any, moves: Sequence[Any]) -> np.ndarray:
    """Estimated scores (M, P) after each of ``moves`` (legal moves of one seat) in
    ``state``: the registered evaluator, else the game's own ``evaluate_moves`` hook if it
    has one, else :func:`scores_after`. ConfigError if ``state`` is not a game state,
    IllegalMoveError if a move is not one of its legal moves."""
    return _evaluate_moves(*_checked_moves(state, moves, "evaluate_moves"))


def _evaluate_moves(state: Any, moves: Sequence[Any]) -> np.ndarray:
    """:func:`evaluate_moves` unchecked (the agents call it on their own states and moves)."""
    game = state.game
    evaluator = (  # the base's unchecked hook
        _HEURISTICS.get(game.name)
        or getattr(game, "_evaluate_moves", None)
        or getattr(game, "evaluate_moves", None)
    )
    values = (evaluator or _scores_after)(state, moves)
    return _estimates(values, (len(moves), game.num_players), game, "heuristic")


def _checked_moves(state: Any, moves: Any, what: str) -> tuple[Any, Sequence[Any]]:
    """``state`` and ``moves`` if ``state`` is a game state and ``moves`` a sequence of
    its legal moves (ConfigError, IllegalMoveError otherwise)."""
    state = _checked_state(state, what)
    checker = getattr(state.game, "_check_moves", None)
    if checker is not None:
        moves = checker(state, moves)
    elif isinstance(moves, str | bytes) or not isinstance(moves, Sequence):
        raise IllegalMoveError(f"moves must be a sequence of moves, not {excerpt(moves)}")
    return state, moves


def _checked_state(state: Any, what: str) -> Any:
    """``state`` if it is a state of a game (of the engine base, or with a ``game``
    that has a name and seats); ConfigError otherwise."""
    game = getattr(state, "game", None)
    if isinstance(game, GameBase):
        return game._check_state(state, what)
    if not (isinstance(getattr(game, "name", None), str) and hasattr(game, "num_players")):
        raise ConfigError(f"{what}: {excerpt(state)} is not a game state")
    return state


def scores_after(state: Any, moves: Sequence[Any]) -> np.ndarray:
    """The fallback evaluator: the position value after each move. ConfigError if ``state``
    is not a game state, IllegalMoveError if a move is not one of its legal moves."""
    return _scores_after(*_checked_moves(state, moves, "scores_after"))


def _scores_after(state: Any, moves: Sequence[Any]) -> np.ndarray:
    """:func:`scores_after` unchecked (the agents call it on their own states and moves)."""
    return np.array([_position_value(state.apply(move)) for move in moves], dtype=np.float64)


def chance_outcomes(game: Any) -> ChanceOutcome | None:
    """The game's ``chance_outcome`` hook (an outcome that cannot be hashed a ConfigError
    naming the game), or None where it has none (or keeps the base's, which never reports
    an outcome), so that a search need not call it."""
    hook = _hook(type(game), "chance_outcome")
    if hook is None or hook is GameBase._chance_outcome:
        return None
    own: ChanceOutcome = _hook(game, "chance_outcome")

    def outcome_of(before: Any, move: Any, after: Any) -> Any:
        outcome = own(before, move, after)
        try:
            hash(outcome)
        except TypeError:
            raise ConfigError(
                f"{game.name} chance_outcome returned {excerpt(outcome)}: an outcome must be "
                "hashable (a search tree branches on it) or None"
            ) from None
        return outcome

    return outcome_of


def _hook(game: Any, name: str) -> Any:
    """A game's agents' hook ``name``: the base's unchecked form (``_name``; the search
    calls it on its own states and moves), else the game's public method, else None."""
    return getattr(game, f"_{name}", None) or getattr(game, name, None)
