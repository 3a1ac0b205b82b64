"""The Gymnasium environment: one seat of a forestgames game against built-in agents.

The other seats are played by agents from specs (``"random"``, ``"greedy"``,
``"mcts:200"``, ... as on the command line) or agent objects. ``step`` takes
an action id of the learning seat; the opponents then move (reacting out of
turn on their reaction turns) until the seat decides again or the game ends.
An illegal id ends the episode at once with ``illegal_reward`` and
``info["illegal_action"] = True``, never an exception (``check_env`` and many
trainers step with unmasked samples).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from forestgames.agents import agent_for_game, make_agent
from forestgames.core import ConfigError, StateError, check_seat, check_seed, derive_seed
from forestgames.rl import RENDER_MODES
from forestgames.rl._spaces import (
    check_penalty,
    independent_copy,
    observation_space,
    render_picture,
    reward_fn,
)
from forestgames.rl._turns import TurnDriver, pass_notation

__all__ = ["ForestGamesGymEnv", "ResetNeeded"]


class ResetNeeded(StateError, gymnasium.error.ResetNeeded):
    """``step()`` once the episode is over: the library's StateError, and Gymnasium's
    ResetNeeded (what its order-enforcing wrapper raises) for code that catches that."""


def _opponents(spec: Any, seats: list[int]) -> dict[int, Any]:
    """One agent (not yet seeded for a game) per opponent seat, from a spec or a list.
    Each is copied for a game once now: ConfigError if it cannot be."""
    if isinstance(spec, str | bytes | bytearray) or not isinstance(spec, Sequence):
        built = [make_agent(spec, seed=0)]  # checked even with no other seat
        agents = dict.fromkeys(seats, built[0])  # each game copies it per seat
    else:
        if len(spec) != len(seats):
            raise ConfigError(
                f"opponents: one agent per other seat ({len(seats)}) is needed, not {len(spec)}"
            )
        built = [make_agent(s, seed=0) for s in spec]
        agents = dict(zip(seats, built, strict=True))
    for agent in built:
        agent_for_game(agent, 0)
    return agents


class ForestGamesGymEnv(gymnasium.Env):
    """One seat against agents; build with ``forestgames.rl.gym_env``."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012 (gymnasium's form)

    def __init__(
        self,
        game: Any,
        seat: int = 0,
        opponents: Any = "random",
        reward: str = "win",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.game = game
        self.seat = check_seat(game.num_players, seat, "seat")
        self.driver = TurnDriver(game)
        others = [s for s in range(game.num_players) if s != self.seat]
        self._agents = _opponents(opponents, others)
        self._playing: dict[int, Any] = {}
        self._rewards_of = reward_fn(reward)
        self.reward_mode = reward
        self.illegal_reward = check_penalty(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = observation_space(game, self.driver.num_ids)
        self.action_space = spaces.Discrete(self.driver.num_ids)

    def __deepcopy__(self, memo: dict[int, Any]) -> ForestGamesGymEnv:
        agents = [*self._agents.values(), *self._playing.values()]  # a user's need not pickle
        return independent_copy(self, memo, agents)

    @property
    def game_state(self) -> Any:
        """The game state under way (a forestgames State); None before the first reset."""
        return self.driver.state

    def _observe(self) -> dict[str, np.ndarray]:
        driver = self.driver
        return {
            "observation": driver.codec.tensor(driver.state, self.seat).copy(),
            "action_mask": driver.mask(self.seat).copy(),
        }

    def action_masks(self) -> np.ndarray:
        """The learning seat's legal ids now, as a bool array (a new one each call): what
        ``obs["action_mask"]`` shows, under the name sb3-contrib's ``MaskablePPO`` calls."""
        if self.driver.state is None:
            raise StateError("no game under way: call env.reset() first")
        return self.driver.mask(self.seat).astype(bool)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"reaction": self.driver.reacting, "illegal_action": False, **extra}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game (its seed drawn from the env's generator, seeded by ``seed``), played
        by the opponents until the learning seat first decides."""
        super().reset(seed=None if seed is None else check_seed(seed))
        game_seed = int(self.np_random.integers(2**62))
        self.driver.reset(game_seed)
        self._playing = {
            s: agent_for_game(agent, derive_seed(game_seed, 1, s))
            for s, agent in self._agents.items()
        }
        start = self.driver.state
        self._play_opponents()
        self._pending = self._rewards_of(start, self.driver.state)[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def _play_opponents(self) -> None:
        """The opponents' decisions up to the learning seat's next one or the end. If an
        opponent's agent fails, its error propagates and the episode is over (``step``
        then asks for a reset): the learning seat never plays an opponent's turn."""
        driver = self.driver
        try:
            while driver.seat is not None and driver.seat != self.seat:
                driver.play_agent(self._playing[driver.seat])
        except BaseException:
            driver.stop()
            self._pending = 0.0
            raise

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        driver = self.driver
        if driver.is_over:
            if driver.state is None:
                raise ResetNeeded("no episode under way: call reset() first")
            raise ResetNeeded("the episode is over: call reset()")
        if not driver.is_legal(action):
            driver.stop()  # the episode ends here
            info = self._info(illegal_action=True, action=action)
            return self._observe(), self.illegal_reward, True, False, info
        before = driver.state
        move = driver.step(action)
        self._play_opponents()
        reward = self._rewards_of(before, driver.state)[self.seat] + self._pending
        self._pending = 0.0
        if self.render_mode == "human":
            self.render()
        played = pass_notation(self.seat) if move is None else str(move)  # None: PASS
        return self._observe(), float(reward), driver.is_over, False, self._info(move=played)

    def render(self) -> str | None:
        """The learning seat's view of the position, as text (``render_mode="ansi"``;
        ``"human"`` prints it) or an SVG document (``"svg"``)."""
        if self.render_mode is not None and self.driver.state is None:
            raise StateError("no game under way: call env.reset() first")
        return render_picture(self.driver.state, self.render_mode, self.seat)

    def close(self) -> None:
        """Nothing to release."""
