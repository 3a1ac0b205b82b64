"""The environments driven through sequences of calls, as the ecosystems' conventions and
tools drive them: spaces seeded per agent, PettingZoo's wrappers, Gymnasium's wrappers and
vector envs, rewards counted once over whole episodes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import forestgames as fg
from forestgames import rl


def test_seeding_one_agents_action_space_leaves_the_others_alone() -> None:
    """Each agent has spaces of its own (as PettingZoo's own envs do): seeding player_1's
    action space, as PettingZoo's seed_test does with 42 + i per agent, does not reseed
    player_0's, whose samples follow its own seed."""
    env = rl.aec_env("bosk", num_players=2)
    alone = rl.aec_env("bosk", num_players=2)
    for one in (env, alone):
        one.action_space("player_0").seed(7)
        one.observation_space("player_0").seed(7)
    env.action_space("player_1").seed(8)
    env.observation_space("player_1").seed(8)
    assert [env.action_space("player_0").sample() for _ in range(5)] == [
        alone.action_space("player_0").sample() for _ in range(5)
    ]
    drawn, expected = (one.observation_space("player_0").sample() for one in (env, alone))
    np.testing.assert_array_equal(drawn["action_mask"], expected["action_mask"])
    assert env.action_space("player_0") is env.action_space("player_0")
    # alike by value, as trainers that check every agent's spaces match expect
    assert env.observation_space("player_0") == env.observation_space("player_1")
    assert env.action_space("player_0") == env.action_space("player_1")


def test_capturing_one_envs_stdout_leaves_other_envs_metadata_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """PettingZoo's CaptureStdoutWrapper appends "ansi" to its env's render modes: that
    env's own list, not one every aec env shares (each new env had one "ansi" more)."""
    from pettingzoo.utils.wrappers import CaptureStdoutWrapper

    env = CaptureStdoutWrapper(rl.aec_env("bosk", num_players=2, render_mode="human"))
    env.reset(seed=1)
    capsys.readouterr()
    assert env.render() == env.unwrapped.game_state.render() + "\n"
    assert capsys.readouterr().out == ""
    assert rl.aec_env("bosk", num_players=2).metadata["render_modes"] == list(rl.RENDER_MODES)
    assert type(env.unwrapped).metadata["render_modes"] == list(rl.RENDER_MODES)


def test_rewards_edited_in_place_do_not_carry_into_later_steps() -> None:
    """``env.rewards`` is each step's own dict: a step cost subtracted in place (as reward
    shaping does) is gone at the next step, whose rewards are all 0 before the end (the
    steps that won nothing shared one dict, so the costs added up across steps)."""
    for reward in ("win", "score"):
        env = rl.aec_env("bosk", num_players=2, reward=reward)
        env.reset(seed=0)
        for _ in range(6):
            agent = env.agent_selection
            env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
            assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
            env.rewards[agent] -= 0.01
        assert env.last()[1] == 0.0


def test_a_render_mode_in_numpy_text_is_that_mode() -> None:
    """``render_mode=np.str_("ansi")`` (a mode read from a numpy array of settings) is the
    mode "ansi", a plain str on the env, in both envs, as numpy text is elsewhere (it was
    refused as "must be one of ..., 'ansi', ..., not 'ansi'"); a reward too."""
    text = {"render_mode": np.str_("ansi"), "reward": np.str_("score")}
    for env in (
        rl.aec_env("bosk", num_players=2, **text),
        rl.gym_env("bosk", num_players=2, **text),
    ):
        assert type(env.render_mode) is str and env.render_mode == "ansi"
        assert type(env.reward_mode) is str and env.reward_mode == "score"
        env.reset(seed=0)
        assert env.game_state.render(None if hasattr(env, "agents") else 0) == env.render()


def test_agent_iter_before_the_first_reset_says_no_game_is_under_way() -> None:
    """``for agent in env.agent_iter()`` before any reset() raises StateError, as last() and
    step() do (it was a loop that ended at once, silently playing nothing); after a reset
    it plays the game, and after the game it ends."""
    env = rl.aec_env("bosk", num_players=2)
    with pytest.raises(fg.StateError, match=r"no game under way: call env\.reset"):
        env.agent_iter()
    env.reset(seed=0)
    steps = 0
    for _ in env.agent_iter(max_iter=3):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
        steps += 1
    assert steps == 3
    for _ in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        env.step(None if terminated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.game_state.is_terminal and list(env.agent_iter()) == []


@pytest.mark.parametrize("reward", ["win", "score"])
def test_parallel_rewards_over_a_game_add_up_to_its_result(reward: str) -> None:
    """Through PettingZoo's turn_based_aec_to_parallel (docs/rl.md: it wraps the env), each
    agent's rewards over a Boom Bokken game, reaction turns and all, add up to its result:
    +1 or -1 with reward="win", its score's change with "score" (counted once)."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    aec = rl.aec_env("boom_bokken", num_players=4, reward=reward)
    env = turn_based_aec_to_parallel(aec)
    observations, _ = env.reset(seed=2)
    start = aec.game_state.scores
    total = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(2)
    while env.agents:
        agent = aec.agent_selection
        actions = dict.fromkeys(env.agents, 0)
        actions[agent] = int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
        observations, rewards, *_ = env.step(actions)
        for name, value in rewards.items():
            total[name] += value
    state = aec.game_state
    for seat, name in enumerate(env.possible_agents):
        won = 1.0 if seat in state.winners else -1.0
        assert total[name] == (won if reward == "win" else state.scores[seat] - start[seat])


def test_gymnasium_wrappers_see_one_whole_episode() -> None:
    """Stacked as a researcher stacks them, Gymnasium's RecordEpisodeStatistics counts the
    episode's steps and its return (the game's +1 or -1), FlattenObservation gives the
    Dict flattened in the space's key order, and TimeLimit truncates a longer episode."""
    import gymnasium
    from gymnasium import wrappers

    base = rl.gym_env("boom_bokken", num_players=4, seat=2, opponents="greedy")
    env = wrappers.FlattenObservation(wrappers.RecordEpisodeStatistics(base))
    flat, _ = env.reset(seed=4)
    rng, steps, done, info = np.random.default_rng(4), 0, False, {}
    while not done:
        mask = base.action_masks()
        expected = np.concatenate([mask, base.driver.codec.tensor(base.game_state, 2)])
        np.testing.assert_array_equal(flat, expected)  # "action_mask" sorts first
        flat, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    won = 1.0 if 2 in base.game_state.winners else -1.0
    assert info["episode"]["r"] == won and info["episode"]["l"] == steps
    limited = gymnasium.wrappers.TimeLimit(rl.gym_env("bosk", num_players=2), max_episode_steps=3)
    observation, _ = limited.reset(seed=0)
    for _ in range(3):
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, _, terminated, truncated, _ = limited.step(action)
    assert (terminated, truncated) == (False, True)


def _next_round(env: Any, pass_id: int) -> list[int]:
    """The seats offered reaction turns from the position now, all passing, in order."""
    order = []
    while env.infos[env.agent_selection]["reaction"]:
        order.append(env.agent_name_mapping[env.agent_selection])
        env.step(pass_id)
    return order


def test_a_reaction_starts_a_new_round_offered_to_every_seat_again() -> None:
    """docs/rl.md: the first seat to play something other than PASS moves, and a new round of
    reactions starts from the new position: every seat still in the round but the one named
    now is offered a turn again, those that passed before the reaction included."""
    env = rl.aec_env("boom_bokken", num_players=4)
    pass_id, checked = env.game.num_actions, 0
    for seed in range(12):
        env.reset(seed=seed)
        rng, passed = np.random.default_rng(seed), set()
        while not env.game_state.is_terminal:
            agent = env.agent_selection
            mask = env.observe(agent)["action_mask"]
            if not env.infos[agent]["reaction"]:
                passed.clear()
                env.step(int(rng.choice(np.flatnonzero(mask))))
            elif passed and mask[:pass_id].any():  # a reaction after some seats passed
                env.step(int(np.flatnonzero(mask[:pass_id])[0]))
                state = env.game_state
                order = _next_round(env, pass_id)
                named = state.named_player  # None after a Temps Mort: a lead is due
                in_round = set(state.players_in_round) - {named} if named is not None else set()
                assert sorted(order) == sorted(in_round)
                again = passed & set(order)  # seats that passed are offered a turn again
                # each one, but the seat the reaction named (none when a lead is due)
                assert again == (passed - {named} if named is not None else set())
                checked += bool(again)
                passed.clear()
            else:
                passed.add(env.agent_name_mapping[agent])
                env.step(pass_id)
    assert checked >= 3
