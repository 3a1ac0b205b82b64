"""The PettingZoo AEC environment of any forestgames game (see ``docs/rl.md``).

Agents ``player_0`` .. ``player_{P-1}`` are the seats. Observations are
``{"observation": float32 Box, "action_mask": int8 Box}`` (the codec's tensor
and mask), actions ``Discrete(num_actions)``, plus one PASS id where reaction
turns exist (Boom Bokken). A compound turn (a leaf path, a Cultivate) is the
same agent selected again; reaction turns are explained in
``forestgames.rl._turns``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from forestgames.core import ConfigError, IllegalMoveError, StateError, check_seed, excerpt
from forestgames.rl import RENDER_MODES
from forestgames.rl._spaces import (
    independent_copy,
    observation_space,
    own_space,
    render_picture,
    reward_fn,
    state_space,
)
from forestgames.rl._turns import TurnDriver

__all__ = ["ForestGamesAECEnv"]


def _info(reacting: bool) -> dict[str, Any]:
    """An agent's info: whether its selection is a reaction turn (every agent has the key)."""
    return {"reaction": reacting}


class ForestGamesAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """A forestgames game as a PettingZoo ``AECEnv``; build with ``forestgames.rl.aec_env``."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's instance attribute)
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,  # "human" prints pictures; the ecosystems' checkers ask for a rate
        "name": "forestgames_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: Any,
        reward: str = "win",
        render_mode: str | None = None,
        render_seat: int | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.reward_mode = reward
        self.render_mode = render_mode
        self.render_seat = render_seat
        # render modes in a list of its own: PettingZoo's CaptureStdoutWrapper appends to it
        name = f"forestgames_{game.name}_v0"
        self.metadata = {**self.metadata, "render_modes": list(RENDER_MODES), "name": name}
        self.driver = TurnDriver(game)
        self.possible_agents = [f"player_{k}" for k in range(game.num_players)]
        self.agent_name_mapping = {name: k for k, name in enumerate(self.possible_agents)}
        # spaces of its own per agent, as PettingZoo's envs have: one shared object would
        # make seeding one agent's space (seed_test seeds each with its own) reseed them all
        obs_space = observation_space(game, self.driver.num_ids)
        self.observation_spaces = {a: own_space(obs_space) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.driver.num_ids) for a in self.possible_agents}
        self.state_space = state_space(game)
        self._rewards_of = reward_fn(reward)
        self._win_rewards = reward == "win"
        self._seed_rng: random.Random | None = None  # from the OS at the first unseeded reset
        self.agents: list[str] = []
        self.agent_selection: Any = None  # an agent's name once reset
        self.rewards: dict[str, float] = {}  # each filled by reset()
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.last_move: Any = None

    def __deepcopy__(self, memo: dict[int, Any]) -> ForestGamesAECEnv:
        return independent_copy(self, memo)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self._known(agent)]

    def _known(self, agent: Any) -> str:
        """``agent`` checked as one of ``possible_agents`` (ConfigError if not)."""
        if not isinstance(agent, str) or agent not in self.agent_name_mapping:
            names = ", ".join(self.possible_agents)
            raise ConfigError(f"{excerpt(agent)} is not an agent of this env (its agents: {names})")
        return agent

    def _check_started(self) -> None:
        if self.driver.state is None:
            raise StateError("no game under way: call env.reset() first")

    @property
    def game_state(self) -> Any:
        """The game state under way (a forestgames State); None before the first reset."""
        return self.driver.state

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        """PettingZoo's iterator over the selected agents; StateError before the first
        ``reset()`` (a loop over it would end at once, playing nothing)."""
        self._check_started()
        return super().agent_iter(max_iter)

    def state(self) -> np.ndarray:
        """PettingZoo's global state, for centralised training (QMIX, MAPPO's critic):
        every seat's observation tensor, seat 0 first, in ``state_space``. It shows every
        hand; the deck order and later deals stay hidden. A new array each call."""
        self._check_started()
        codec, state = self.driver.codec, self.driver.state
        return np.concatenate([codec.tensor(state, seat) for seat in range(self.game.num_players)])

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: ``reset(seed=s)`` plays ``game.new_game(seed=s)``; without a seed the
        next game's seed comes from the generator the last seeded reset started (before any,
        from one the OS seeds)."""
        if seed is not None:
            game_seed = check_seed(seed)
            self._seed_rng = random.Random(game_seed)
        else:
            if self._seed_rng is None:  # not at __init__: copies of a new env must differ
                self._seed_rng = random.Random()
            game_seed = self._seed_rng.getrandbits(62)
        self.driver.reset(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._no_rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: _info(reacting=False) for a in self.agents}
        self.last_move = None
        # PettingZoo's _was_dead_step keeps the first agent to leave here until the last
        # leaves: a reset while agents are leaving must not carry it into the next game
        self._skip_agent_selection = None
        self._select()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        """Select the agent of the seat to decide (if any), its info saying whether it reacts."""
        seat = self.driver.seat
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
            self.infos[self.agent_selection] = _info(self.driver.reacting)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The seat's tensor and mask: read-only arrays, cached per position (copy to change)."""
        seat = self.agent_name_mapping.get(agent) if type(agent) is str else None
        driver = self.driver
        if seat is None or driver.state is None:
            seat = self.agent_name_mapping[self._known(agent)]
            self._check_started()
        return {
            "observation": driver.codec.tensor(driver.state, seat),
            "action_mask": driver.mask(seat),
        }

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """Observation, cumulative reward, termination, truncation and info of the selected
        agent (PettingZoo's ``last``, without its generic indirections)."""
        agent = self.agent_selection
        if agent is None:
            self._check_started()
        try:
            return (
                self.observe(agent) if observe else None,
                self._cumulative_rewards[agent],
                self.terminations[agent],
                self.truncations[agent],
                self.infos[agent],
            )
        except KeyError:
            raise self._all_gone() from None

    def _all_gone(self) -> StateError:
        return StateError("the game is over and every agent has left it: call env.reset()")

    def step(self, action: Any) -> None:
        """Apply ``action`` (an id of the selected agent's mask; IllegalMoveError if not)."""
        agent = self.agent_selection
        if agent is None:
            self._check_started()
        if agent not in self.terminations:
            raise self._all_gone()
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalMoveError(
                    f"the game is over for {agent}: step(None) takes it out of the env, "
                    f"not {excerpt(action)}"
                )
            self._was_dead_step(action)
            return
        driver = self.driver
        before = driver.state
        self.last_move = driver.step(action)  # IllegalMoveError here changes nothing
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = _info(reacting=False)  # its turn is over
        seat = driver.seat
        if self._win_rewards and seat is not None:
            self.rewards = self._no_rewards.copy()  # nothing is won before the end
        else:
            self._reward(before, driver.state)
        if seat is None:
            self.terminations = dict.fromkeys(self.agents, True)
            self._select_next_dead(agent)
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def _reward(self, before: Any, after: Any) -> None:
        """Set the rewards of the move from ``before`` to ``after`` and add them up."""
        rewards = self._rewards_of(before, after) if after is not before else None
        if rewards is None or not any(rewards):
            # each step's own dict: users may edit it in place (a step cost, shaping)
            self.rewards = self._no_rewards.copy()
        else:
            self.rewards = dict(zip(self.agents, rewards, strict=True))
            self._accumulate_rewards()

    def _select_next_dead(self, agent: str) -> None:
        """Once the game is over each agent is selected once more, in seat order after ``agent``."""
        k = self.agent_name_mapping[agent]
        self.agent_selection = self.possible_agents[(k + 1) % len(self.possible_agents)]

    def render(self) -> str | None:
        """The position as text (``render_mode="ansi"``; ``"human"`` prints it) or an SVG
        document (``"svg"``): the referee's picture, or seat ``render_seat``'s view."""
        if self.render_mode is not None:
            self._check_started()
        return render_picture(self.driver.state, self.render_mode, self.render_seat)

    def close(self) -> None:
        """Nothing to release."""
