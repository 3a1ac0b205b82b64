"""Stateful (rule-based) tests: random interleavings of the calls of the library's stateful
objects, the way unusual user code makes them, checked after every step against a model.

- the PettingZoo AEC env (``rl.aec_env``) of every game, against a replay of the ids taken;
- the Gymnasium env (``rl.gym_env``), against a replay of the episodes since the last seed;
- ``VectorBosk``, against one scalar ``BoskState`` per game;
- ``MCTSAgent`` with ``reuse_tree``, fed positions of different games and seats in turn.
"""

from __future__ import annotations

import copy
import os
import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import forestgames as fg
from forestgames import rl
from forestgames.agents import MCTSAgent
from forestgames.core import derive_seed
from forestgames.rl.gym import ResetNeeded

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("bosk", {"num_players": 2}),
    ("bosk", {"num_players": 3}),
    ("bonsai", {"num_players": 2}),
    ("living_forest", {"num_players": 3, "turn_limit": 12}),
    ("boom_bokken", {"num_players": 4}),
    ("boom_bokken", {"num_players": 6, "expert": True}),
]
SEEDS = st.integers(0, 2**64 - 1)
SMALL_SEEDS = st.integers(0, 2**16)

FAST = settings(
    max_examples=100,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
SLOW = settings(FAST, max_examples=120, stateful_step_count=60)


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _expected_ids(game: Any, state: Any, seat: int, reacting: bool, pass_id: int) -> set[int]:
    """The ids a seat may choose in ``state``: its legal moves' (plus PASS on a reaction)."""
    ids = {game.action_id(m) for m in state.legal_moves(seat)}
    return ids | {pass_id} if reacting else ids


# --------------------------------------------------------------------------- PettingZoo AEC


class AECMachine(RuleBasedStateMachine):
    """``rl.aec_env``: resets, steps (legal, illegal, PASS, None), reads, copies, closes."""

    @initialize(
        config=st.sampled_from(CONFIGS),
        reward=st.sampled_from(["win", "score"]),
        render_mode=st.sampled_from([None, "ansi", "svg"]),
        first_seed=SEEDS,
    )
    def build(
        self, config: tuple[str, dict[str, Any]], reward: str, render_mode: Any, first_seed: int
    ) -> None:
        name, options = config
        self.name, self.options = name, options
        self.reward, self.render_mode = reward, render_mode
        self.env = rl.aec_env(name, reward=reward, render_mode=render_mode, **options)
        self.game = self.env.game
        self.pass_id = self.game.num_actions if self.game.traits.out_of_turn else -1
        self.rng = random.Random(0)
        self.started = False
        self.seed_rng: random.Random | None = None  # the model of the env's seed generator
        self.game_seed: int | None = None  # None: an unseeded first reset (not replayable)
        self.actions: list[Any] = []  # every step since the reset, dead steps' None too
        self.cum: dict[str, float] = {}
        self.total: dict[str, float] = {}
        self.start_scores: tuple[int, ...] = ()
        self.unstarted_calls_refuse("player_1")
        # the first reset is seeded: an unseeded one draws from the OS (test_first_unseeded_reset)
        self.reset_seeded(first_seed, False)

    # -------------------------------------------------------------- helpers

    def _done(self) -> bool:
        return self.env.driver.seat is None

    def _legal(self) -> list[int]:
        obs = self.env.observe(self.env.agent_selection)
        return [int(a) for a in np.flatnonzero(obs["action_mask"])]

    def _snapshot(self) -> tuple[Any, ...]:
        env = self.env
        return (
            env.game_state,
            env.agent_selection,
            list(env.agents),
            dict(env.rewards),
            dict(env._cumulative_rewards),
            dict(env.terminations),
            env.driver.reacting,
            list(env.driver._queue),
        )

    def _live_step(self, action: Any) -> None:
        env = self.env
        agent = env.agent_selection
        env.step(action)
        self.actions.append(action)
        self.cum[agent] = 0.0
        for a, r in env.rewards.items():
            self.cum[a] += r
            self.total[a] += r

    # -------------------------------------------------------------- before a reset

    def unstarted_calls_refuse(self, agent: str) -> None:
        env = self.env
        for call in (env.last, lambda: env.observe(agent), lambda: env.step(0), env.state):
            with pytest.raises(
                fg.StateError, match=r"no game under way: call env\.reset\(\) first"
            ):
                call()
        if self.render_mode is not None:
            with pytest.raises(
                fg.StateError, match=r"no game under way: call env\.reset\(\) first"
            ):
                env.render()
        else:
            assert env.render() is None
        assert env.game_state is None

    # -------------------------------------------------------------- resets

    @rule(seed=SEEDS, numpy_int=st.booleans())
    def reset_seeded(self, seed: int, numpy_int: bool) -> None:
        self.env.reset(seed=np.uint64(seed) if numpy_int else seed)
        self.seed_rng = random.Random(seed)
        self._after_reset(seed)

    @rule()
    def reset_unseeded(self) -> None:
        self.env.reset()
        game_seed = None if self.seed_rng is None else self.seed_rng.getrandbits(62)
        self._after_reset(game_seed)

    @rule(seed=st.one_of(st.integers(max_value=-1), st.integers(min_value=2**64), st.just(1.5)))
    def reset_bad_seed(self, seed: Any) -> None:
        before = self._snapshot() if self.started else None
        with pytest.raises(fg.ConfigError, match="seed must be"):
            self.env.reset(seed=seed)
        if before is not None:
            assert self._snapshot() == before

    def _after_reset(self, game_seed: int | None) -> None:
        self.started = True
        self.game_seed = game_seed
        self.actions = []
        agents = self.env.possible_agents
        self.cum = dict.fromkeys(agents, 0.0)
        self.total = dict.fromkeys(agents, 0.0)
        self.start_scores = tuple(self.env.game_state.scores)
        if game_seed is not None:
            assert self.env.game_state == self.game.new_game(seed=game_seed)

    # -------------------------------------------------------------- steps

    @precondition(lambda self: self.started and not self._done())
    @rule(data=st.data())
    def step_legal(self, data: st.DataObject) -> None:
        self._live_step(data.draw(st.sampled_from(self._legal())))

    @precondition(lambda self: self.started and not self._done())
    @rule(count=st.integers(1, 300))
    def step_burst(self, count: int) -> None:
        """Many legal steps, PASS preferred half the time (games reach their end)."""
        for _ in range(count):
            if self._done():
                break
            legal = self._legal()
            if self.pass_id in legal and self.rng.random() < 0.5:
                self._live_step(self.pass_id)
            else:
                self._live_step(self.rng.choice(legal))

    @precondition(lambda self: self.started and not self._done())
    @rule(data=st.data(), kind=st.sampled_from(["int", "np", "0d"]))
    def step_numpy_id(self, data: st.DataObject, kind: str) -> None:
        action = data.draw(st.sampled_from(self._legal()))
        given: Any = {"int": action, "np": np.int16(action), "0d": np.array(action)}[kind]
        self._live_step(given)
        self.actions[-1] = action

    @precondition(lambda self: self.started and self.env.agents and not self._done())
    @rule(action=st.one_of(st.integers(-3, 2000), st.none(), st.just("1"), st.just(1.0)))
    def step_illegal(self, action: Any) -> None:
        legal = self._legal()
        if action in legal and type(action) is int:
            return
        before = self._snapshot()
        refusal = r"an action id is an int|action id -?\d+ is outside|is not legal for seat"
        with pytest.raises(fg.IllegalMoveError, match=refusal):
            self.env.step(action)
        assert self._snapshot() == before

    @precondition(lambda self: self.started and not self._done() and self.pass_id >= 0)
    @rule()
    def step_pass(self) -> None:
        if self.pass_id in self._legal():
            self._live_step(self.pass_id)
        else:
            before = self._snapshot()
            with pytest.raises(fg.IllegalMoveError, match="is offered on reaction turns only"):
                self.env.step(self.pass_id)
            assert self._snapshot() == before

    @precondition(lambda self: self.started and self._done() and bool(self.env.agents))
    @rule(action=st.one_of(st.none(), st.integers(0, 5)))
    def step_dead(self, action: Any) -> None:
        env = self.env
        agent = env.agent_selection
        if action is not None:
            before = self._snapshot()
            over = r"the game is over for player_\d+: step\(None\) takes it out of the env"
            with pytest.raises(fg.IllegalMoveError, match=over):
                env.step(action)
            assert self._snapshot() == before
            return
        env.step(None)
        self.actions.append(None)
        assert agent not in env.agents
        del self.cum[agent]
        event("aec: an agent left an ended game")

    @precondition(lambda self: self.started and self._done() and bool(self.env.agents))
    @rule()
    def leave_all(self) -> None:
        while self.env.agents:
            self.step_dead(None)

    @precondition(lambda self: self.started and not self.env.agents)
    @rule()
    def all_gone_refuses(self) -> None:
        gone = "the game is over and every agent has left it"
        with pytest.raises(fg.StateError, match=gone):
            self.env.last()
        with pytest.raises(fg.StateError, match=gone):
            self.env.step(None)

    @precondition(lambda self: self.started)
    @rule(max_iter=st.integers(1, 60))
    def agent_iter_loop(self, max_iter: int) -> None:
        """PettingZoo's documented loop: last(), then None for the dead or a legal id."""
        env = self.env
        for agent in env.agent_iter(max_iter):
            assert agent == env.agent_selection
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                self.actions.append(None)
                del self.cum[agent]
            else:
                legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
                self._live_step(self.rng.choice(legal))

    # -------------------------------------------------------------- reads

    @precondition(lambda self: self.started and bool(self.env.agents))
    @rule(observe=st.booleans())
    def last(self, observe: bool) -> None:
        env = self.env
        agent = env.agent_selection
        obs, cum, terminated, truncated, info = env.last(observe=observe)
        assert cum == self.cum[agent]
        assert terminated == self._done()
        assert truncated is False
        if observe:
            assert obs is not None
            assert env.observation_space(agent).contains(obs)
        else:
            assert obs is None
        if not terminated:
            assert info == {"reaction": env.driver.reacting}

    @precondition(lambda self: self.started)
    @rule(k=st.integers(0, 8))
    def observe(self, k: int) -> None:
        env = self.env
        names = env.possible_agents
        if k >= len(names):
            with pytest.raises(fg.ConfigError, match=f"'player_{k}' is not an agent of this env"):
                env.observe(f"player_{k}")
            return
        agent = names[k]
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs)
        assert not obs["observation"].flags.writeable
        mask = obs["action_mask"]
        if self._done() or agent != env.agent_selection:
            assert not mask.any()
        else:
            got = {int(a) for a in np.flatnonzero(mask)}
            state = env.game_state
            assert got == _expected_ids(self.game, state, k, env.driver.reacting, self.pass_id)
        expected = self.game.codec.tensor_from_observation(env.game_state.observation(k))
        np.testing.assert_array_equal(obs["observation"], expected)

    @precondition(lambda self: self.started)
    @rule()
    def global_state(self) -> None:
        env = self.env
        x = env.state()
        assert env.state_space.contains(x)
        parts = [env.observe(a)["observation"] for a in env.possible_agents]
        np.testing.assert_array_equal(x, np.concatenate(parts))

    @precondition(lambda self: self.started)
    @rule()
    def render(self) -> None:
        picture = self.env.render()
        if self.render_mode is None:
            assert picture is None
        elif self.render_mode == "ansi":
            assert picture == self.env.game_state.render(None)
        else:
            assert isinstance(picture, str)
            assert picture.lstrip().startswith("<")

    @rule()
    def close(self) -> None:
        before = self._snapshot() if self.started else None
        self.env.close()
        if before is not None:
            assert self._snapshot() == before

    @precondition(lambda self: self.started)
    @rule()
    def deep_copy_is_independent(self) -> None:
        env = self.env
        twin = copy.deepcopy(env)
        assert twin.game_state == env.game_state
        assert twin.game is not env.game
        assert (twin.agent_selection, twin.agents) == (env.agent_selection, env.agents)
        if twin.driver.seat is not None:  # a step of the copy leaves the original alone
            before = self._snapshot()
            legal = np.flatnonzero(twin.observe(twin.agent_selection)["action_mask"])
            twin.step(int(legal[0]))
            assert self._snapshot() == before

    @precondition(lambda self: self.started and self.game_seed is not None)
    @rule()
    def replay_matches(self) -> None:
        """A fresh env, the same game seed and the same ids: the same everything."""
        fresh = rl.aec_env(self.name, reward=self.reward, **self.options)
        fresh.reset(seed=self.game_seed)
        for action in self.actions:
            fresh.step(action)
        env = self.env
        assert fresh.game_state == env.game_state
        assert fresh.agents == env.agents
        assert fresh.agent_selection == env.agent_selection
        assert fresh.rewards == env.rewards
        assert fresh._cumulative_rewards == env._cumulative_rewards
        assert fresh.terminations == env.terminations
        assert fresh.infos == env.infos

    # -------------------------------------------------------------- invariants

    @invariant()
    def consistent(self) -> None:
        if not getattr(self, "started", False):
            return
        env = self.env
        state = env.game_state
        driver = env.driver
        assert driver.state is state
        if driver.seat is None:
            assert state.is_terminal
            assert all(env.terminations[a] for a in env.agents)
        else:
            assert not state.is_terminal
            agent = env.agent_selection
            assert agent in env.agents
            assert env.agent_name_mapping[agent] == driver.seat
            assert not env.terminations[agent]
            assert env.observe(agent)["action_mask"].any()
            if not driver.reacting:
                assert driver.seat == state.current_player
            else:
                assert self.pass_id >= 0
        assert env._cumulative_rewards == self.cum
        assert set(env.rewards) == set(env.agents) == set(env._cumulative_rewards)
        # rewards given so far add up to what the mode promises
        if self.reward == "score":
            for k, a in enumerate(env.possible_agents):
                gained = state.scores[k] - self.start_scores[k]
                assert self.total[a] == pytest.approx(gained)
        elif not state.is_terminal:
            assert not any(self.total.values())
        else:
            winners = set(state.winners)
            for k, a in enumerate(env.possible_agents):
                assert self.total[a] == (1.0 if k in winners else -1.0)

    def teardown(self) -> None:
        if getattr(self, "started", False):
            event(f"aec: {self.name}, {min(len(self.actions) // 50 * 50, 200)}+ steps since reset")
        if getattr(self, "started", False) and self.game_seed is not None:
            self.replay_matches()


TestAEC = AECMachine.TestCase
TestAEC.settings = FAST


# --------------------------------------------------------------------------- Gymnasium


GYM_CONFIGS = [c for c in CONFIGS if c[0] != "bosk" or c[1]["num_players"] == 2]


class GymMachine(RuleBasedStateMachine):
    """``rl.gym_env``: reset/step/render/close in any order; seeds reproduce."""

    @initialize(
        config=st.sampled_from(GYM_CONFIGS),
        reward=st.sampled_from(["win", "score"]),
        seat=st.integers(0, 5),
        opponents=st.sampled_from(["random", "greedy"]),
        render_mode=st.sampled_from([None, "ansi", "svg"]),
        first_seed=SEEDS,
    )
    def build(
        self,
        config: tuple[str, dict[str, Any]],
        reward: str,
        seat: int,
        opponents: str,
        render_mode: Any,
        first_seed: int,
    ) -> None:
        name, options = config
        seat %= options["num_players"]
        self.kwargs = dict(options, seat=seat, opponents=opponents, reward=reward)
        self.name, self.seat, self.reward, self.render_mode = name, seat, reward, render_mode
        self.env = rl.gym_env(name, render_mode=render_mode, **self.kwargs)
        self.game = self.env.game
        self.rng = random.Random(1)
        self.started = False
        self.over = True
        self.log_seed = 0
        self.log: list[Any] | None = None  # since the last seeded reset: ("reset",) / ids
        self.outputs: list[Any] = []  # what each of those calls returned (reward, terminated)
        self.total = 0.0
        self.start = self.game.new_game(seed=0).scores[seat]  # every start scores alike
        self.render()
        self.step_when_over(0)
        self.reset_seeded(first_seed)  # an unseeded first reset draws from the OS

    def _mask(self) -> np.ndarray:
        return self.env.driver.mask(self.seat)

    @rule(seed=SEEDS)
    def reset_seeded(self, seed: int) -> None:
        obs, info = self.env.reset(seed=seed)
        self.log_seed = seed
        self.log, self.outputs = [("reset",)], []
        self._after_reset(obs, info)

    @rule()
    def reset_unseeded(self) -> None:
        obs, info = self.env.reset()
        if self.log is not None:
            self.log.append(("reset",))
        self._after_reset(obs, info)

    def _after_reset(self, obs: Any, info: Any) -> None:
        self.started = True
        self.over = self.env.driver.is_over
        self.total = 0.0
        self._check_obs(obs)
        assert info["illegal_action"] is False
        self.outputs.append(("obs", obs["observation"].tobytes(), obs["action_mask"].tobytes()))

    def _check_obs(self, obs: Any) -> None:
        env = self.env
        assert env.observation_space.contains(obs)
        assert obs["observation"].flags.writeable  # fresh copies
        if env.driver.is_over:
            assert not obs["action_mask"].any()
        else:
            assert env.driver.seat == self.seat
            expected = _expected_ids(
                self.game, env.game_state, self.seat, env.driver.reacting, env.driver.pass_id
            )
            assert {int(a) for a in np.flatnonzero(obs["action_mask"])} == expected

    def _step(self, action: Any) -> tuple[Any, ...]:
        result = self.env.step(action)
        obs, reward, terminated, truncated, _ = result
        self._check_obs(obs)
        assert truncated is False
        assert isinstance(reward, float)
        if self.log is not None:
            self.log.append(action)
            self.outputs.append(
                (reward, terminated, obs["observation"].tobytes(), obs["action_mask"].tobytes())
            )
        self.over = terminated
        return result

    @precondition(lambda self: self.started and not self.over)
    @rule(count=st.integers(1, 60))
    def step_legal(self, count: int) -> None:
        for _ in range(count):
            if self.over:
                break
            action = self.rng.choice(np.flatnonzero(self._mask()).tolist())
            _, reward, terminated, _, info = self._step(action)
            assert info["illegal_action"] is False
            assert terminated == self.env.game_state.is_terminal
            self.total += reward
            if self.reward == "win" and not terminated:
                assert reward == 0.0
        if self.over:
            event("gym: an episode played to its end")
        if self.over and self.reward == "score":
            assert self.total == self.env.game_state.scores[self.seat] - self.start
        if self.over and self.reward == "win":
            assert self.total == (1.0 if self.seat in self.env.game_state.winners else -1.0)

    @precondition(lambda self: self.started and not self.over)
    @rule(action=st.integers(-2, 60000))
    def step_illegal(self, action: int) -> None:
        if 0 <= action < self._mask().size and self._mask()[action]:
            return
        state = self.env.game_state
        _, reward, terminated, _, info = self._step(action)
        assert (reward, terminated) == (-1.0, True)
        assert info["illegal_action"] is True and info["action"] == action
        assert "move" not in info
        assert self.env.game_state is state

    @precondition(lambda self: self.over)
    @rule(action=st.integers(0, 5))
    def step_when_over(self, action: int) -> None:
        state = self.env.game_state
        why = "the episode is over" if self.started else "no episode under way"
        with pytest.raises(ResetNeeded, match=why):
            self.env.step(action)
        with pytest.raises(fg.StateError, match=why):
            self.env.step(action)
        assert self.env.game_state is state

    @rule()
    def render(self) -> None:
        if not self.started and self.render_mode is not None:
            with pytest.raises(
                fg.StateError, match=r"no game under way: call env\.reset\(\) first"
            ):
                self.env.render()
            return
        picture = self.env.render()
        if self.render_mode == "ansi":
            assert picture == self.env.game_state.render(self.seat)
        elif self.render_mode == "svg":
            assert isinstance(picture, str)
        else:
            assert picture is None

    @rule()
    def close(self) -> None:
        state = self.env.game_state
        self.env.close()
        assert self.env.game_state is state

    @precondition(lambda self: self.log is not None)
    @rule()
    def replay_matches(self) -> None:
        """A fresh env replaying the calls since the last seeded reset returns the same."""
        fresh = rl.gym_env(self.name, **self.kwargs)
        assert self.log is not None
        got: list[Any] = []
        first = True
        for call in self.log:
            if call == ("reset",):
                obs, _ = fresh.reset(seed=self.log_seed) if first else fresh.reset()
                first = False
                got.append(("obs", obs["observation"].tobytes(), obs["action_mask"].tobytes()))
            else:
                obs, reward, terminated, _, _ = fresh.step(call)
                got.append(
                    (reward, terminated, obs["observation"].tobytes(), obs["action_mask"].tobytes())
                )
        assert got == self.outputs
        assert fresh.game_state == self.env.game_state


TestGym = GymMachine.TestCase
TestGym.settings = settings(FAST, max_examples=60, stateful_step_count=40)


# --------------------------------------------------------------------------- VectorBosk


class VectorMachine(RuleBasedStateMachine):
    """``VectorBosk`` against one scalar BoskState per game, moved by the same ids."""

    @initialize(players=st.integers(2, 4), batch=st.integers(1, 4), seed=SMALL_SEEDS)
    def build(self, players: int, batch: int, seed: int) -> None:
        self.vec = fg.bosk.VectorBosk(num_players=players, batch=batch, seed=seed)
        self.game = fg.make("bosk", num_players=players)
        self.states = [self.game.new_game(seed=derive_seed(seed, i)) for i in range(batch)]
        self.rng = np.random.default_rng(seed)

    def _legal_ids(self, i: int) -> list[int]:
        state = self.states[i]
        if state.is_terminal:
            return []
        return sorted(self.game.action_id(m) for m in state.legal_moves())

    def _apply(self, actions: np.ndarray) -> None:
        self.vec.step(actions)
        for i, state in enumerate(self.states):
            if not state.is_terminal:
                move = self.game.move_from_id(int(actions[i]), state.current_player)
                self.states[i] = state.apply(move)

    def _random_legal(self) -> np.ndarray:
        ids = []
        for i in range(len(self.states)):
            legal = self._legal_ids(i)
            ids.append(int(self.rng.choice(legal)) if legal else int(self.rng.integers(-5, 10**6)))
        return np.array(ids, dtype=np.int64)

    def _snapshot(self) -> list[Any]:
        return [self.vec.state(i) for i in range(len(self.states))]

    @rule(dtype=st.sampled_from([np.int64, np.int32, np.uint16, np.int16]))
    def step_legal(self, dtype: Any) -> None:
        actions = self._random_legal()
        live = ~np.array([s.is_terminal for s in self.states])
        actions = np.where(live, actions, 0)  # any id for a finished game (0 fits every dtype)
        self._apply(actions.astype(dtype))

    @rule(count=st.integers(1, 80), greedy=st.booleans())
    def step_burst(self, count: int, greedy: bool) -> None:
        for _ in range(count):
            if all(s.is_terminal for s in self.states):
                break
            if greedy:
                actions = self.vec.greedy_actions(self.rng)
            else:
                actions = self.vec.random_actions(self.rng)
            for i, state in enumerate(self.states):
                if not state.is_terminal:
                    assert int(actions[i]) in self._legal_ids(i)
            self._apply(np.asarray(actions))

    @rule(data=st.data(), bad=st.integers(-3, 1000))
    def step_one_illegal(self, data: st.DataObject, bad: int) -> None:
        live = [i for i, s in enumerate(self.states) if not s.is_terminal]
        if not live:
            return
        game = data.draw(st.sampled_from(live))
        if bad in self._legal_ids(game):
            return
        actions = self._random_legal()
        actions[game] = bad
        before = self._snapshot()
        with pytest.raises(fg.IllegalMoveError, match=f"game {game}:"):
            self.vec.step(actions)
        assert self._snapshot() == before

    @rule(kind=st.sampled_from(["short", "float", "2d", "text", "none"]))
    def step_bad_shape(self, kind: str) -> None:
        b = len(self.states)
        actions: Any = {
            "short": np.zeros(b + 1, np.int64),
            "float": np.zeros(b, np.float64),
            "2d": np.zeros((b, 1), np.int64),
            "text": ["0"] * b,
            "none": None,
        }[kind]
        before = self._snapshot()
        with pytest.raises(fg.IllegalMoveError, match=r"integer ids \(one per game\), not"):
            self.vec.step(actions)
        assert self._snapshot() == before

    @rule(seed=SMALL_SEEDS, first_game=st.integers(0, 50))
    def reset(self, seed: int, first_game: int) -> None:
        self.vec.reset(seed, first_game=first_game)
        self.states = [
            self.game.new_game(seed=derive_seed(seed, first_game + i))
            for i in range(len(self.states))
        ]

    @rule(data=st.data())
    def from_states(self, data: st.DataObject) -> None:
        """A new batch of some of the games (in any order, repeats allowed)."""
        picks = data.draw(
            st.lists(st.integers(0, len(self.states) - 1), min_size=1, max_size=4), label="picks"
        )
        states = [self.states[i] for i in picks]
        self.vec = fg.bosk.VectorBosk.from_states(states)
        self.states = states

    @rule(index=st.integers(-2, 6))
    def state_index(self, index: int) -> None:
        if 0 <= index < len(self.states):
            assert self.vec.state(index) == self.states[index]
        else:
            with pytest.raises(
                fg.ConfigError,
                match=f"game index must be an int in 0..{len(self.states) - 1}, not {index}",
            ):
                self.vec.state(index)

    @invariant()
    def matches_scalar(self) -> None:
        vec, states = self.vec, self.states
        mask = vec.legal_action_mask()
        assert mask.shape == (len(states), self.game.num_actions)
        for i, state in enumerate(states):
            assert vec.state(i) == state
            assert sorted(np.flatnonzero(mask[i]).tolist()) == self._legal_ids(i)
            if not state.is_terminal:
                np.testing.assert_array_equal(mask[i], state.legal_action_mask())
            assert bool(vec.terminated[i]) == state.is_terminal
            player = -1 if state.is_terminal else state.current_player
            assert int(vec.current_player[i]) == player
            assert tuple(int(x) for x in vec.scores[i]) == tuple(state.scores)
            winner = int(vec.winners[i])
            if state.is_terminal:
                event("vector: a game ended")
                assert winner == state.winners[0]
            else:
                assert winner == -1


TestVector = VectorMachine.TestCase
TestVector.settings = settings(FAST, max_examples=50, stateful_step_count=30)


# --------------------------------------------------------------------------- MCTS reuse_tree


MCTS_CONFIGS = [
    ("bosk", {"num_players": 2}),
    ("bosk", {"num_players": 3}),
    ("bonsai", {"num_players": 2}),
    ("living_forest", {"num_players": 2}),
    ("boom_bokken", {"num_players": 4}),
]


class MCTSMachine(RuleBasedStateMachine):
    """One MCTSAgent with reuse_tree, asked about positions of several games in turn."""

    @initialize(
        iterations=st.integers(1, 12),
        rollout_limit=st.sampled_from([0, 1, 4, None]),
        seed=SMALL_SEEDS,
        confidence=st.sampled_from([0.0, 1.0]),
    )
    def build(self, iterations: int, rollout_limit: Any, seed: int, confidence: float) -> None:
        self.agent = MCTSAgent(
            iterations=iterations,
            seed=seed,
            rollout_limit=rollout_limit,
            reuse_tree=True,
            confidence=confidence,
        )
        self.rng = random.Random(seed)
        self.games = [fg.make(name, **options) for name, options in MCTS_CONFIGS]
        self.positions = [g.new_game(seed=seed + k) for k, g in enumerate(self.games)]
        self.last: Any = None

    def _choose(self, state: Any) -> Any:
        seat = state.players_to_act[0]
        move = self.agent.choose(state)
        assert move in state.legal_moves(seat)
        self.last = state
        return move

    def _advance(self, k: int, state: Any) -> None:
        if state.is_terminal:
            state = self.games[k].new_game(seed=self.rng.randrange(2**32))
        self.positions[k] = state

    @rule(k=st.integers(0, len(MCTS_CONFIGS) - 1), play=st.booleans())
    def choose(self, k: int, play: bool) -> None:
        """Choose in game k; play the chosen move there (the tree's own path) or not."""
        state = self.positions[k]
        move = self._choose(state)
        if play:
            self._advance(k, state.apply(move))

    @rule(k=st.integers(0, len(MCTS_CONFIGS) - 1), steps=st.integers(1, 30))
    def others_move(self, k: int, steps: int) -> None:
        """Random moves in game k (seats move that the agent never chose for)."""
        state = self.positions[k]
        for _ in range(steps):
            if state.is_terminal:
                break
            seats = state.players_to_act
            seat = seats[self.rng.randrange(len(seats))]
            state = state.apply(self.rng.choice(state.legal_moves(seat)))
        self._advance(k, state)

    @rule(k=st.integers(0, len(MCTS_CONFIGS) - 1), seed=SMALL_SEEDS)
    def choose_determinized(self, k: int, seed: int) -> None:
        state = self.positions[k]
        seat = state.players_to_act[0]
        self._choose(state.determinize(seat, seed))

    @precondition(lambda self: self.last is not None)
    @rule()
    def choose_same_again(self) -> None:
        if not self.last.is_terminal:
            self._choose(self.last)

    @rule(k=st.integers(0, len(MCTS_CONFIGS) - 1))
    def react(self, k: int) -> None:
        state = self.positions[k]
        for seat in range(state.game.num_players):
            move = self.agent.react(state, seat)
            if move is not None:
                assert move in state.legal_moves(seat)

    @rule(k=st.integers(0, len(MCTS_CONFIGS) - 1))
    def terminal_refuses(self, k: int) -> None:
        """choose on a finished game: the library's error, and the agent still works."""
        state = self.positions[k]
        while not state.is_terminal:
            state = state.apply(self.rng.choice(state.legal_moves(state.players_to_act[0])))
        with pytest.raises(fg.IllegalMoveError, match=r"nobody may act \(is the game over\?\)"):
            self.agent.choose(state)


TestMCTS = MCTSMachine.TestCase
TestMCTS.settings = settings(FAST, max_examples=60, stateful_step_count=30)


def test_first_unseeded_reset() -> None:
    """Before any seeded reset, reset() draws the game's seed from the OS (the machines
    above always seed their first reset, so that their runs repeat)."""
    for env in (rl.aec_env("bosk"), rl.gym_env("bosk")):
        for _ in range(3):
            env.reset()
            assert not env.game_state.is_terminal
    a, b = rl.aec_env("boom_bokken", num_players=4), rl.aec_env("boom_bokken", num_players=4)
    a.reset()
    b.reset()
    assert a.game_state != b.game_state


# --------------------------------------------------------------------------- heavier runs


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("FORESTGAMES_SLOW"), reason="longer state machines: set FORESTGAMES_SLOW=1"
)
@pytest.mark.timeout(0)
@pytest.mark.parametrize("machine", [AECMachine, GymMachine, VectorMachine, MCTSMachine])
def test_machines_longer(machine: type[RuleBasedStateMachine]) -> None:
    """The state machines above hold over more and longer runs (FORESTGAMES_SLOW=1)."""
    from hypothesis.stateful import run_state_machine_as_test

    run_state_machine_as_test(machine, settings=SLOW)
