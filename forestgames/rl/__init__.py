"""Reinforcement-learning environments for every forestgames game (the ``rl`` extra).

    from forestgames import rl
    env = rl.aec_env("boom_bokken", num_players=6, reward="win")     # PettingZoo AECEnv
    env = rl.gym_env("bosk", num_players=2, seat=0, opponents="random")  # gymnasium.Env

Install with ``pip install "forestgames[rl]"`` (pettingzoo and gymnasium).
Agent ``player_k`` is seat k; an action id is the game codec's id
(``game.action_id``); PASS, on Boom Bokken's reaction turns, is the one extra
id ``game.num_actions``. See ``docs/rl.md``.
"""

from __future__ import annotations

from typing import Any

from forestgames.core import make

__all__ = ["aec_env", "gym_env"]


def _require_extra() -> None:
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError as error:  # pragma: no cover - depends on the install
        raise ImportError(
            f"forestgames.rl needs the 'rl' extra: pip install 'forestgames[rl]' ({error})"
        ) from None


def aec_env(name: str, reward: str = "win", render_mode: str | None = None, **options: Any) -> Any:
    """A PettingZoo ``AECEnv`` of game ``name`` with ``options`` (``num_players=...``, ...).

    ``reward``: ``"win"`` (+1 winners, -1 the others, at the end) or ``"score"``
    (each move's change in the scores); ``render_mode``: None or ``"ansi"``.
    ConfigError names a bad game, option or reward.
    """
    _require_extra()
    from forestgames.rl._spaces import check_reward
    from forestgames.rl.aec import ForestGamesAECEnv

    check_reward(reward)
    _check_render_mode(render_mode)
    return ForestGamesAECEnv(make(name, **options), reward=reward, render_mode=render_mode)


def gym_env(
    name: str,
    seat: int = 0,
    opponents: Any = "random",
    reward: str = "win",
    illegal_reward: float = -1.0,
    render_mode: str | None = None,
    **options: Any,
) -> Any:
    """A ``gymnasium.Env`` for seat ``seat`` of game ``name`` against ``opponents``.

    ``opponents``: one agent spec for every other seat (``"random"``, ``"greedy"``,
    ``"mcts:200"``, ...), a list of one spec or agent per other seat (in seat
    order), or agent objects. An illegal action ends the episode with
    ``illegal_reward`` and ``info["illegal_action"] = True``.
    """
    _require_extra()
    from forestgames.rl._spaces import check_reward
    from forestgames.rl.gym import ForestGamesGymEnv

    check_reward(reward)
    _check_render_mode(render_mode)
    return ForestGamesGymEnv(
        make(name, **options), seat, opponents, reward, illegal_reward, render_mode
    )


def _check_render_mode(render_mode: Any) -> None:
    from forestgames.core import ConfigError

    if render_mode not in (None, "ansi"):
        raise ConfigError(f"render_mode must be None or 'ansi', not {render_mode!r}")
