"""Environment behaviours a mutation audit of ``forestgames/rl`` found unpinned: cached masks,
refused negative ids, agents that do or do not react, per-step rewards, error wording."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import forestgames as fg
from forestgames import rl
from forestgames.rl._turns import TurnDriver


def _boom_env(seed: int) -> Any:
    env = rl.aec_env("boom_bokken", num_players=4)
    env.reset(seed=seed)
    return env


def test_a_selected_agents_mask_is_one_read_only_array_per_position() -> None:
    """docs/rl.md: masks are read-only arrays cached per position and seat, so observing the
    selected agent twice, on its own turn or a reaction turn, gives the very same array."""
    env = _boom_env(0)
    rng = random.Random(0)
    kinds = set()
    for _ in range(60):
        agent = env.agent_selection
        first = env.observe(agent)["action_mask"]
        assert env.observe(agent)["action_mask"] is first
        assert not first.flags.writeable
        kinds.add(env.infos[agent]["reaction"])
        env.step(int(rng.choice(np.flatnonzero(first))))
    assert kinds == {True, False}


def test_a_negative_id_is_refused_when_the_last_id_is_legal() -> None:
    """-1 is outside 0..n-1 even when the codec's last id (Boom Bokken's Temps Mort) is in
    the mask: the AEC env raises IllegalMoveError and nothing changes (a negative id must
    not index the mask from its end)."""
    env = _boom_env(0)
    game, rng = env.game, random.Random(0)
    last = game.num_actions - 1
    for _ in range(500):
        mask = env.observe(env.agent_selection)["action_mask"]
        if mask[last]:
            break
        env.step(int(rng.choice(np.flatnonzero(mask))))
    else:
        raise AssertionError("no position with the last id legal")
    seat = env.agent_name_mapping[env.agent_selection]
    assert isinstance(game.move_from_id(last, seat), fg.boom_bokken.TimeOut)
    state, agent = env.game_state, env.agent_selection
    with pytest.raises(fg.IllegalMoveError, match=r"action id -1 is outside"):
        env.step(-1)
    assert env.game_state is state and env.agent_selection == agent


class _ChoosesOnly:
    """An agent with ``choose`` and no ``react`` (docs/simulation.md: react is optional)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: Any) -> Any:
        return self.rng.choice(state.legal_moves(state.current_player))


def _drive(agents: list[Any], seed: int) -> tuple[int, int]:
    """Play one Boom Bokken game by ``TurnDriver.play_agent``; returns (reaction turns where
    the seat had a legal out-of-turn move, out-of-turn moves made)."""
    driver = TurnDriver(fg.make("boom_bokken", num_players=4))
    driver.reset(seed)
    could, reacted = 0, 0
    while not driver.is_over:
        seat, reacting, state = driver.seat, driver.reacting, driver.state
        held = reacting and bool(state.legal_moves(seat))
        move = driver.play_agent(agents[seat])
        could += held
        reacted += move is not None and reacting
        assert move is not None or reacting
    return could, reacted


def test_an_agent_without_react_passes_its_reaction_turns() -> None:
    """An opponent agent that has only ``choose`` passes every reaction turn, even one where
    its seat holds a legal out-of-turn move, and the game plays to its end."""
    could, reacted = 0, 0
    for seed in range(4):
        a, b = _drive([_ChoosesOnly(seed * 4 + k) for k in range(4)], seed)
        could, reacted = could + a, reacted + b
    assert could > 0 and reacted == 0


def test_an_agent_with_react_is_asked_and_its_reactions_are_played() -> None:
    """On a reaction turn an agent with ``react`` is asked: random agents, which play each
    legal out-of-turn move or pass equally likely, do move out of turn in some games."""
    reacted = 0
    for seed in range(4):
        agents = [fg.RandomAgent(seed * 4 + k) for k in range(4)]
        reacted += _drive(agents, seed)[1]
    assert reacted > 0


def test_before_the_first_reset_the_aec_env_says_no_game_is_under_way() -> None:
    """step(), last() and observe() before any reset() raise StateError saying no game is
    under way, not that a game ended and its agents left."""
    env = rl.aec_env("bosk", num_players=2)
    for call in (lambda: env.step(0), lambda: env.step(None), env.last):
        with pytest.raises(fg.StateError, match="no game under way"):
            call()


def test_score_rewards_of_each_step_are_that_steps_score_changes() -> None:
    """With reward="score", ``env.rewards`` after each step holds every seat's change in
    score made by that step alone: all 0 after a step that changes no score (a PASS, most
    plays), not the last scoring step's rewards again."""
    env = rl.aec_env("boom_bokken", num_players=4, reward="score")
    env.reset(seed=3)
    rng = random.Random(3)
    scoring = quiet = 0
    while not env.terminations[env.agent_selection]:
        before = env.game_state.scores
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        after = env.game_state.scores
        change = {f"player_{s}": float(after[s] - before[s]) for s in range(4)}
        assert env.rewards == change
        scoring, quiet = scoring + (after != before), quiet + (after == before)
    assert scoring and quiet


def test_the_aec_env_is_not_parallelizable() -> None:
    """docs/rl.md: ``metadata["is_parallelizable"]`` is False, so PettingZoo's
    aec_to_parallel refuses the env (compound and reaction turns have no parallel form)."""
    from pettingzoo.utils.conversions import aec_to_parallel

    env = rl.aec_env("boom_bokken", num_players=4)
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env)


def test_one_misspelt_keyword_is_answered_with_the_closest_name() -> None:
    """A single unknown keyword is named with the closest game option or env argument
    ("did you mean"), as the library's other unknown-name errors are."""
    with pytest.raises(rl.ArgumentError, match=r"'num_player' \(did you mean 'num_players'\?\)"):
        rl.aec_env("bosk", num_player=2)
    with pytest.raises(rl.ArgumentError, match=r"'rewards' \(did you mean 'reward'\?\)"):
        rl.gym_env("bosk", rewards="score")


def test_the_action_mask_space_is_int8_zeros_and_ones() -> None:
    """docs/rl.md: ``"action_mask"`` is ``Box(int8, (n,))`` of 0/1 flags, n the ids plus PASS
    in Boom Bokken, in both envs (trainers build their mask specs from its bounds)."""
    aec = rl.aec_env("boom_bokken", num_players=4)
    gym = rl.gym_env("bosk", num_players=2)
    # docs/rl.md's table: 117 Boom Bokken 4p ids (and PASS), 385 Bosk 2p ids
    for space, n in ((aec.observation_space("player_0"), 118), (gym.observation_space, 385)):
        mask = space["action_mask"]
        assert (mask.shape, mask.dtype) == ((n,), np.int8)
        assert (mask.low == 0).all() and (mask.high == 1).all()
