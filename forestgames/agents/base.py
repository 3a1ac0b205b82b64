"""What an agent is, and the seeding every shipped agent shares.

An agent is any object with ``choose(state) -> Move`` (a move of the seat that
acts now, ``state.players_to_act[0]``) and, for games where seats act out of
turn, optionally ``react(state, player) -> Move | None`` (None passes). Its
display name (in results rows, ratings and error messages) is its ``name``
attribute if it has one, else its class name: :func:`agent_name`. The
simulation driver gives each game fresh agents with :func:`agent_for_game`, so
a game's moves depend only on its seed, never on the games played before it.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Protocol, runtime_checkable

import numpy as np

from forestgames.core import (
    ConfigError,
    IllegalMoveError,
    StateError,
    check_seed,
    derive_seed,
    excerpt,
    resolve_seed,
)

__all__ = [
    "Agent",
    "SeededAgent",
    "acting_seat",
    "agent_for_game",
    "agent_name",
    "no_move_error",
    "reaction_moves",
]


@runtime_checkable
class Agent(Protocol):
    """The protocol of an agent: ``choose``; ``name``, ``react`` and ``for_game`` are
    optional (the shipped agents have them all)."""

    def choose(self, state: Any) -> Any:
        """The move to play in ``state``: one of ``state.legal_moves(seat)``, for the seat that
        decides now."""
        ...


def acting_seat(state: Any) -> int:
    """The seat whose move ``choose`` returns: ``players_to_act[0]``. ConfigError if
    ``state`` is not a game state, IllegalMoveError if nobody may act (the game is over),
    StateError if the game is not over but no seat can move (:func:`no_move_error`)."""
    try:
        seats = state.players_to_act
    except AttributeError:
        raise ConfigError(f"an agent chooses in a game state, not in {excerpt(state)}") from None
    if not seats and state.is_terminal:
        raise IllegalMoveError(f"{excerpt(state)}: nobody may act (is the game over?)")
    if not seats:
        raise no_move_error(state, None)
    if not state.legal_moves(seats[0]):
        raise no_move_error(state, seats[0])
    return int(seats[0])


def no_move_error(state: Any, seat: int | None) -> StateError:
    """The error for a state that is not over where a seat cannot move: ``seat`` is listed
    in ``players_to_act`` but has no legal move, or (None) ``players_to_act`` is empty (a
    game's hooks that disagree; ``check_game`` names such a state)."""
    if seat is None:
        why = "its players_to_act is empty"
    else:
        why = f"seat {seat}, in players_to_act, has no legal move"
    return StateError(f"{excerpt(state)}: the game is not over, but {why}")


def reaction_moves(state: Any, player: Any) -> tuple[Any, ...]:
    """The moves ``react`` picks from: seat ``player``'s legal moves now (out of turn).
    ConfigError if ``state`` is not a game state, IllegalMoveError if ``player`` is not
    one of its seats."""
    if not hasattr(state, "players_to_act"):
        raise ConfigError(f"an agent reacts in a game state, not in {excerpt(state)}")
    if player is None:
        raise IllegalMoveError("react(state, player) needs the reacting seat, not None")
    return state.legal_moves(player)  # type: ignore[no-any-return]


def is_move_of(move: Any, seat: int) -> bool:
    """Whether ``move`` is a move of seat ``seat``: its ``player`` an int seat number as the
    engines read one (numpy's too; not a bool, a float or an array) equal to ``seat``."""
    player = getattr(move, "player", None)
    if isinstance(player, bool | np.bool_) or not isinstance(player, int | np.integer):
        return False
    return bool(player == seat)


def agent_name(agent: Any) -> str:
    """The display name of ``agent``: its ``name`` attribute if it has one, else its
    class name."""
    name = getattr(agent, "name", None)
    return type(agent).__name__ if name is None else str(name)


def check_react(agent: Any) -> None:
    """ConfigError naming ``agent`` if it has a ``react`` that is not a method (None, or no
    ``react``, is an agent that never moves out of turn)."""
    react = getattr(agent, "react", None)
    if react is not None and not callable(react):
        raise ConfigError(
            f"agent {agent_name(agent)!r}: react is {excerpt(react)}, not a method "
            "react(state, player) (leave it out, or None, for an agent that never reacts)"
        )


def agent_for_game(agent: Any, seed: int) -> Any:
    """A fresh copy of ``agent`` for one game seeded ``seed``.

    Agents with ``for_game(seed)`` (all shipped ones) return a new agent whose
    random stream is derived from their own seed and ``seed``; any other
    object is deep-copied, so state it keeps never leaks from game to game.
    """
    for_game = getattr(agent, "for_game", None)
    if for_game is not None:
        if not callable(for_game):
            raise ConfigError(f"agent {agent_name(agent)!r}: for_game is not a method")
        fresh = for_game(seed)
        if not callable(getattr(fresh, "choose", None)):
            raise ConfigError(
                f"agent {agent_name(agent)!r}: for_game(seed) returned {excerpt(fresh)}, "
                "not an agent (an object with a choose(state) method)"
            )
        check_react(fresh)
        return fresh
    try:
        return copy.deepcopy(agent)
    except Exception as error:  # a lock, an open file, a generator... that cannot be copied
        raise ConfigError(
            f"agent {agent_name(agent)!r} cannot be copied for each game "
            f"({type(error).__name__}: {excerpt(str(error))}): give it a for_game(seed) "
            "method that returns a fresh agent for a game"
        ) from None


class SeededAgent:
    """Base of the shipped agents: a name, a seed and a private ``random.Random``.

    Subclasses list their settings (constructor keywords besides ``seed``) in
    ``settings()``; ``for_game`` rebuilds the agent with a derived seed. Without a
    seed an agent draws one from the OS for its own use (``seeded`` is False and its
    repr leaves the seed out), but in a driver (``play``, ``simulate``, ``tournament``,
    an env's opponents) it plays as its spec does, from seed 0, so a seeded run is
    reproducible whichever form the agent was given in.
    """

    name: str = "agent"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = resolve_seed(seed)
        self.rng = random.Random(self.seed)
        self.seeded = seed is not None
        self._game_seed_base = self.seed if self.seeded else 0

    def settings(self) -> dict[str, Any]:
        """Constructor keywords (other than ``seed``) that rebuild this agent."""
        return {}

    def for_game(self, seed: int) -> SeededAgent:
        """The same agent, fresh, its stream derived from its seed (0 if it was given none)
        and ``seed``."""
        return type(self)(**self.settings(), seed=self.seed_for_game(seed))

    def seed_for_game(self, seed: int) -> int:
        """The seed of :meth:`for_game`'s agent: derived from this agent's seed (0 if it was
        given none) and ``seed``."""
        return derive_seed(self._game_seed_base, check_seed(seed))

    def choose(self, state: Any) -> Any:  # pragma: no cover - overridden
        """The move to play in ``state`` (each agent's own)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        """The call that rebuilds this agent; an unseeded one's without its OS seed, since in a
        driver it plays from seed 0 (and ``RandomAgent(seed=s)`` would not)."""
        seed = {"seed": self.seed} if getattr(self, "seeded", True) else {}  # (old pickles)
        args = ", ".join(f"{k}={v!r}" for k, v in {**self.settings(), **seed}.items())
        return f"{type(self).__name__}({args})"


def _finite_array(values: Any, what: str, ndim: int) -> np.ndarray:
    """``values`` as a float64 array of ``ndim`` dimensions, not empty, of finite numbers;
    ConfigError naming ``what`` otherwise (the checks of the agents' public helpers)."""
    shape = "a sequence" if ndim == 1 else "an (M, P) array"
    must = f"{what} must be {shape} of finite numbers"
    if isinstance(values, str | bytes):
        raise ConfigError(f"{must}, not {excerpt(values)}")
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise ConfigError(f"{must}, not {excerpt(values)}") from None
    if array.ndim != ndim or array.shape[-1] == 0:
        raise ConfigError(f"{must} (one per seat), not {excerpt(values)}")
    if not np.isfinite(array).all():
        raise ConfigError(f"{must}, not {excerpt(values)}")
    return array
