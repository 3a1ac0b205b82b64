"""The Gymnasium ids ``forestgames.rl`` registers: ``gymnasium.make`` and ``make_vec``."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

import forestgames as fg
from forestgames import rl
from forestgames.rl.gym import ForestGamesGymEnv


def _masked_episode(env: Any, seed: int) -> tuple[int, float]:
    """One episode with random legal ids drawn from the mask: (steps, total reward)."""
    obs, _ = env.reset(seed=seed)
    space = env.action_space
    space.seed(seed)
    steps, total, done = 0, 0.0, False
    while not done:
        obs, reward, terminated, truncated, info = env.step(space.sample(obs["action_mask"]))
        assert not info["illegal_action"]
        steps, total, done = steps + 1, total + reward, terminated or truncated
    return steps, total


def test_one_id_per_game():
    """Each game has one id, ``forestgames/<CamelCase name>-v0``, in Gymnasium's registry."""
    assert rl.GYM_IDS == {
        "bosk": "forestgames/Bosk-v0",
        "bonsai": "forestgames/Bonsai-v0",
        "living_forest": "forestgames/LivingForest-v0",
        "boom_bokken": "forestgames/BoomBokken-v0",
    }
    assert set(rl.GYM_IDS) == set(fg.GAME_NAMES)
    for env_id in rl.GYM_IDS.values():
        assert env_id in gymnasium.registry


@pytest.mark.parametrize("name", sorted(rl.GYM_IDS))
def test_make_builds_the_games_gym_env(name: str):
    """``gymnasium.make(id, **options)`` is ``rl.gym_env(name, **options)`` inside Gymnasium's
    own wrappers: same game, same first observation, and a masked episode plays to the end
    with the passive checker watching."""
    env = gymnasium.make(rl.GYM_IDS[name], num_players=4, opponents="greedy")
    inner = env.unwrapped
    assert isinstance(inner, ForestGamesGymEnv)
    assert env.spec.id == rl.GYM_IDS[name] and env.spec.kwargs["name"] == name
    assert inner.game == fg.make(name, num_players=4)
    assert inner._agents[1].name == "greedy"
    plain = rl.gym_env(name, num_players=4, opponents="greedy")
    made_obs, _ = env.reset(seed=5)
    plain_obs, _ = plain.reset(seed=5)
    np.testing.assert_array_equal(made_obs["observation"], plain_obs["observation"])
    np.testing.assert_array_equal(made_obs["action_mask"], plain_obs["action_mask"])
    steps, total = _masked_episode(env, seed=5)
    assert steps >= 1 and total in (-1.0, 1.0)


def test_made_env_passes_check_env_without_the_spec_warning():
    """With a spec, ``check_env`` tests the render modes too and has nothing to warn about."""
    env = gymnasium.make(rl.GYM_IDS["boom_bokken"], num_players=4, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.reset(seed=0)
    assert env.render() == env.unwrapped.game_state.render(player=0)


def test_make_with_a_bad_option_is_the_librarys_error():
    """A bad option through ``gymnasium.make`` is the same ConfigError as through ``gym_env``."""
    with pytest.raises(fg.ConfigError, match="2 to 4 players, not 9"):
        gymnasium.make(rl.GYM_IDS["bosk"], num_players=9)
    with pytest.raises(fg.ConfigError, match="opponents"):
        gymnasium.make(rl.GYM_IDS["bonsai"], num_players=3, opponents=["random"])


def test_an_argument_the_env_lacks_is_a_type_error_trainers_retry_without():
    """An unknown keyword or render mode is a ConfigError and a TypeError in Python's wording."""
    with pytest.raises(TypeError, match="unexpected keyword argument 'frameskip'") as error:
        gymnasium.make(rl.GYM_IDS["bosk"], frameskip=4)  # TorchRL's GymEnv passes it
    assert isinstance(error.value, fg.ConfigError) and isinstance(error.value, rl.ArgumentError)
    with pytest.raises(TypeError, match=r"arguments 'a', 'b'"):
        rl.aec_env("bosk", a=1, b=2)
    kwargs = {"num_players": 2}
    try:  # what SB3's make_vec_env does with an id
        env = gymnasium.make(rl.GYM_IDS["bosk"], render_mode="rgb_array", **kwargs)
    except TypeError as refused:
        assert isinstance(refused, fg.ConfigError) and "render_mode" in str(refused)
        env = gymnasium.make(rl.GYM_IDS["bosk"], **kwargs)
    assert env.unwrapped.render_mode is None


def test_an_id_makes_its_own_game_only():
    """``name=`` would replace the id's game in ``gymnasium.make``'s merged keywords, so a
    Bosk id could build Bonsai: another name is refused, the id's own is accepted."""
    with pytest.raises(fg.ConfigError, match="Bosk-v0 makes bosk, not 'bonsai'"):
        gymnasium.make(rl.GYM_IDS["bosk"], name="bonsai")
    env = gymnasium.make(rl.GYM_IDS["bonsai"], name="bonsai", num_players=3)
    assert env.unwrapped.game == fg.make("bonsai", num_players=3)


def test_make_vec_steps_several_games_at_once_reproducibly():
    """``gymnasium.make_vec`` runs several games side by side (autoreset included): the same
    seeds give the same observations, and each game's mask holds its legal ids."""

    def run(seed: int) -> list[np.ndarray]:
        envs = gymnasium.make_vec(
            rl.GYM_IDS["boom_bokken"], num_envs=3, vectorization_mode="sync", num_players=4
        )
        obs, _ = envs.reset(seed=seed)
        rng = np.random.default_rng(seed)
        seen, finished = [], np.zeros(3, bool)
        for _ in range(400):
            masks = obs["action_mask"]
            assert masks.shape == (3, envs.single_action_space.n)
            actions = [
                rng.choice(np.flatnonzero(mask)) if mask.any() else 0 for mask in masks
            ]  # a finished game's mask is all 0: its action is ignored while it resets
            obs, _, terminated, _, _ = envs.step(np.array(actions))
            seen.append(obs["observation"].copy())
            finished |= terminated
        envs.close()
        assert finished.all()
        return seen

    first, again = run(2), run(2)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))


def test_make_vec_async_runs_the_games_in_worker_processes():
    """``vectorization_mode="async"`` builds each game in its own process from the id and
    gives the same first observations as the in-process vector env."""
    kwargs = {"num_envs": 2, "num_players": 2}
    sync = gymnasium.make_vec(rl.GYM_IDS["bosk"], vectorization_mode="sync", **kwargs)
    workers = gymnasium.make_vec(rl.GYM_IDS["bosk"], vectorization_mode="async", **kwargs)
    try:
        expected, _ = sync.reset(seed=4)
        obs, _ = workers.reset(seed=4)
        np.testing.assert_array_equal(obs["observation"], expected["observation"])
        actions = np.array([np.flatnonzero(mask)[0] for mask in obs["action_mask"]])
        after, _, _, _, _ = workers.step(actions)
        np.testing.assert_array_equal(after["observation"], sync.step(actions)[0]["observation"])
    finally:
        workers.close()
        sync.close()
