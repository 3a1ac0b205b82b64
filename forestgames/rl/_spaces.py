"""Spaces, rewards and copies the environments share."""

from __future__ import annotations

import copy
import io
import pickle
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import numpy as np
from gymnasium import spaces

from forestgames._text import print_text
from forestgames.core import ConfigError, _create_game, _fresh_game, as_number, excerpt

__all__ = [
    "REWARDS",
    "check_penalty",
    "check_reward",
    "independent_copy",
    "observation_space",
    "own_space",
    "render_picture",
    "reward_fn",
    "state_space",
]

REWARDS: tuple[str, ...] = ("win", "score")
"""``"win"``: +1 to each winner, -1 to every other seat, at the end (0 before);
``"score"``: after each move, each seat's change in ``state.scores``."""


def observation_space(game: Any, num_ids: int) -> spaces.Dict:
    """``{"observation": float32 Box of observation_shape, "action_mask": int8 Box (num_ids,)}``."""
    low, high = game.codec.observation_bounds
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, game.observation_shape, np.float32),
            "action_mask": spaces.Box(0, 1, (num_ids,), np.int8),
        }
    )


def own_space(space: spaces.Dict) -> spaces.Dict:
    """A copy of observation space ``space``, sharing its bounds arrays (large in Bonsai's
    masks), whose random generators are its own (seeding one copy does not seed another)
    as long as ``space`` was never seeded nor sampled: a generator it has made already is
    shared by its copies until they are seeded."""
    return spaces.Dict({key: copy.copy(part) for key, part in space.spaces.items()})


def state_space(game: Any) -> spaces.Box:
    """The float32 Box of every seat's observation tensor joined (the AEC env's ``state()``)."""
    low, high = game.codec.observation_bounds
    size = game.num_players * int(np.prod(game.observation_shape))
    return spaces.Box(low, high, (size,), np.float32)


def check_reward(reward: Any) -> str:
    """``reward`` checked: one of :data:`REWARDS` (numpy text too, as a plain ``str``);
    ConfigError otherwise."""
    if not isinstance(reward, str) or reward not in REWARDS:
        raise ConfigError(f"reward must be one of {list(REWARDS)}, not {excerpt(reward)}")
    return str(reward)


def check_penalty(value: Any) -> float:
    """``value`` checked as a finite real number (an int or float, numpy's too; not a bool)."""
    return as_number(value, "illegal_reward")


def _win(before: Any, after: Any) -> tuple[float, ...]:
    if not after.is_terminal:
        return (0.0,) * int(after.game.num_players)
    winners = set(after.winners)
    return tuple(1.0 if seat in winners else -1.0 for seat in range(after.game.num_players))


def _score(before: Any, after: Any) -> tuple[float, ...]:
    """Each seat's change in score (all agents stay in the game until it ends)."""
    return tuple(float(b - a) for a, b in zip(before.scores, after.scores, strict=True))


def reward_fn(reward: str) -> Callable[[Any, Any], tuple[float, ...]]:
    """Per-seat rewards of one move, from the states before and after it."""
    return _win if check_reward(reward) == "win" else _score


def render_picture(state: Any, mode: str | None, seat: int | None) -> str | None:
    """``state`` as text (``"ansi"``) or SVG (``"svg"``), all of it (``seat`` None) or as
    ``seat`` sees it; ``"human"`` prints the text and returns None, as does no game yet,
    or no render mode (with Gymnasium's warning, as its own environments give)."""
    if mode is None:
        _warn_no_render_mode()
        return None
    if state is None:
        return None
    if mode == "svg":
        return str(state.to_svg(seat))
    text = str(state.render(seat))
    if mode == "human":
        print_text(text)  # '?' for what the console cannot show
        return None
    return text


def _warn_no_render_mode() -> None:
    from gymnasium import logger  # both extras' environments come with Gymnasium

    logger.warn(
        "render() without a render mode draws nothing: make the environment with "
        'render_mode="ansi", "svg" or "human"',
        stacklevel=4,  # the caller of env.render()
    )


Env = TypeVar("Env")


class _Pickler(pickle.Pickler):
    """Pickles everything but ``outside`` objects, which it leaves as references."""

    def __init__(self, file: io.BytesIO, outside: dict[int, Any]) -> None:
        super().__init__(file, pickle.HIGHEST_PROTOCOL)
        self.outside = outside

    def persistent_id(self, obj: Any) -> int | None:
        key = id(obj)
        return key if key in self.outside else None


class _Unpickler(pickle.Unpickler):
    """Unpickles, putting the given objects where the references are."""

    def __init__(self, file: io.BytesIO, copies: dict[int, Any]) -> None:
        super().__init__(file)
        self.copies = copies

    def persistent_load(self, key: int) -> Any:
        return self.copies[key]

    def find_class(self, module: str, name: str) -> Any:
        found = super().find_class(module, name)
        # a copy's game of its own, not the one game of its options unpickled states share
        return _fresh_game if found is _create_game else found


def independent_copy(env: Env, memo: dict[int, Any], user_objects: Iterable[Any] = ()) -> Env:
    """A deep copy of environment ``env`` with a game, codec and states of its own.

    Games and states deep-copy as themselves (they are immutable), so a plain deep copy
    would share the game and its codec's caches (safe across threads, under the codec's
    lock, but not the copy of its own a deep copy promises). The library's parts are
    copied by pickling, its game built afresh (``find_class``: not the one game unpickled
    states share); ``user_objects`` (agents given by a user, which need not pickle) are
    deep copied as usual."""
    outside = {id(obj): obj for obj in user_objects}
    copies = {key: copy.deepcopy(obj, memo) for key, obj in outside.items()}
    buffer = io.BytesIO()
    _Pickler(buffer, outside).dump(env)
    buffer.seek(0)
    twin: Env = _Unpickler(buffer, copies).load()
    return twin
