"""Agents that play every forestgames game: random, greedy and MCTS.

    from forestgames.agents import make_agent
    agents = [make_agent("greedy", seed=1), make_agent("mcts:100", seed=2)]

An agent is any object with ``choose(state) -> Move``; it may have
``react(state, player)`` for out-of-turn play and a ``name`` (its display name,
else its class name). Agent *specs* name an agent in text: ``random``,
``greedy``, ``mcts``, ``mcts:ITERATIONS`` or ``mcts:ITERATIONS:ROLLOUT_LIMIT``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from forestgames.agents.base import (
    Agent,
    SeededAgent,
    acting_seat,
    agent_for_game,
    agent_name,
    check_react,
)
from forestgames.agents.greedy import GreedyAgent
from forestgames.agents.heuristics import evaluate_moves, heuristic_for, register_heuristic
from forestgames.agents.mcts import MCTSAgent
from forestgames.agents.random_agent import RandomAgent
from forestgames.core import ConfigError, check_seed, did_you_mean, excerpt

__all__ = [
    "AGENT_KINDS",
    "Agent",
    "GreedyAgent",
    "MCTSAgent",
    "RandomAgent",
    "SeededAgent",
    "acting_seat",
    "agent_for_game",
    "agent_name",
    "evaluate_moves",
    "heuristic_for",
    "make_agent",
    "register_heuristic",
]

AGENT_KINDS: tuple[str, ...] = ("random", "greedy", "mcts")


def make_agent(spec: Any, seed: int | None = None) -> Any:
    """An agent from a spec; an object that is already an agent is returned as is.

    Specs: ``random``, ``greedy``, ``mcts`` (the default budget), ``mcts:N``
    (N iterations a decision), ``mcts:N:L`` (and playouts cut after L moves),
    or ``mcts:`` followed by ``KEY=VALUE`` settings joined by ``:`` —
    ``t`` seconds a decision, ``n`` iterations, ``l`` playout limit (``none``:
    play to the end), ``c`` exploration, ``z`` confidence (standard errors the search
    needs to overrule Greedy's move; 0 never defers), ``reuse`` (0 or 1), e.g.
    ``mcts:t=0.5`` or ``mcts:t=0.2:l=20``. ConfigError names a bad spec, an
    object without ``choose(state)``, one whose ``react`` is not a method and an agent
    class given for an agent.
    """
    if isinstance(spec, type):
        raise ConfigError(
            f"{spec.__name__} is a class: pass an agent instance (e.g. {spec.__name__}()) "
            "or a spec string such as 'random'"
        )
    if not isinstance(spec, str):
        if isinstance(spec, np.ndarray | np.generic) or not callable(getattr(spec, "choose", None)):
            raise ConfigError(
                f"{excerpt(spec)} is not an agent: give an object with a choose(state) "
                "method, or a spec string such as 'random'"
            )
        check_react(spec)
        return spec
    kind, colon, argument = spec.strip().lower().partition(":")
    if colon and not argument:
        raise ConfigError(f"agent {excerpt(spec)}: nothing after the colon; {_KNOWN_SPECS}")
    if kind == "random" and not argument:
        return RandomAgent(seed)
    if kind == "greedy" and not argument:
        return GreedyAgent(seed)
    if kind == "mcts":
        settings = _mcts_settings(spec, argument)
        if seed is not None:
            check_seed(seed)  # a bad seed is the caller's, not the spec's
        try:
            return MCTSAgent(seed=seed, **settings)
        except ConfigError as error:
            raise ConfigError(f"agent {excerpt(spec)}: {error}") from None
    hint = did_you_mean(kind, AGENT_KINDS)
    raise ConfigError(f"unknown agent {excerpt(spec)}{hint}; {_KNOWN_SPECS}")


_KNOWN_SPECS = "known: random, greedy, mcts, mcts:N, mcts:N:L, mcts:t=SECONDS"


_MCTS_SETTINGS = {
    "n": "iterations",
    "l": "rollout_limit",
    "t": "time_per_move",
    "c": "exploration",
    "z": "confidence",
    "reuse": "reuse_tree",
}
"""Every key a spec may give, and the MCTSAgent keyword it sets."""
_MCTS_SHORT = {long: short for short, long in _MCTS_SETTINGS.items()}
"""A keyword's key in a spec (``iterations`` -> ``n``)."""
_MCTS_HELP = (
    "expected mcts, mcts:N, mcts:N:L (ints N >= 1, L >= 0) or mcts:KEY=VALUE[:KEY=VALUE...] "
    "with keys t (seconds), n (iterations), l (playout moves or none), c (exploration), "
    "z (confidence), reuse (0/1), e.g. mcts:t=0.5"
)


def _mcts_settings(spec: str, argument: str) -> dict[str, Any]:
    """MCTSAgent keywords from the part of a spec after ``mcts:``."""
    if not argument:
        return {}
    settings: dict[str, Any] = {}
    keyed = False  # positional values come first: N, then L
    for position, token in enumerate(argument.split(":")):
        key, equals, value = token.partition("=")
        keyed = keyed or bool(equals)
        if not equals:
            if keyed or position > 1 or not _is_digits(token):
                raise ConfigError(f"agent {excerpt(spec)}: {_MCTS_HELP}")
            key, value = ("n", "l")[position], token
        name = _MCTS_SETTINGS.get(key)
        if name is None:
            hint = (
                f" (did you mean {_MCTS_SHORT[key]!r}?)"
                if key in _MCTS_SHORT
                else did_you_mean(key, _MCTS_SETTINGS)
            )
            raise ConfigError(
                f"agent {excerpt(spec)}: {excerpt(key)} is not a setting{hint}; {_MCTS_HELP}"
            )
        if name in settings:
            raise ConfigError(f"agent {excerpt(spec)}: {key} is given twice; {_MCTS_HELP}")
        settings[name] = _mcts_value(spec, key, value)
    return settings


def _is_digits(text: str) -> bool:
    """Whether ``text`` is ASCII digits only (int() also reads '١٢', ' 5' and '1_0')."""
    return text.isascii() and text.isdigit()


def _mcts_value(spec: str, key: str, text: str) -> Any:
    try:
        if not text.isascii() or text != text.strip() or "_" in text:
            raise ValueError(text)  # as written in a spec: no spaces, '_' or other digits
        if key in ("n", "l"):
            return None if key == "l" and text == "none" else int(text)
        if key == "reuse":
            return {"0": False, "1": True}[text]
        return float(text)
    except (ValueError, KeyError):
        raise ConfigError(
            f"agent {excerpt(spec)}: bad value {excerpt(text)} for {key}; {_MCTS_HELP}"
        ) from None
