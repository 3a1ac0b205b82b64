"""The environments driven through sequences of calls, as the ecosystems' conventions and
tools drive them: spaces seeded per agent, PettingZoo's wrappers, Gymnasium's wrappers and
vector envs, rewards counted once over whole episodes."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

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
