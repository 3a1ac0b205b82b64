"""Agent behaviours found unpinned (or broken) by a bug hunt of ``forestgames/agents`` and of
how ``fg.play`` and ``fg.simulate`` drive agents on edge positions."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

import forestgames as fg
from forestgames.agents import MCTSAgent, make_agent
from forestgames.agents.base import reaction_moves
from forestgames.agents.greedy import greedy_reaction, margins
from forestgames.agents.heuristics import scores_after
from forestgames.agents.mcts import _all_rewards, cutoff_rewards, leads
from forestgames.sim import _make_run


@pytest.mark.parametrize(
    "settings",
    [
        {"exploration": 0.1234567891},
        {"confidence": 1.0000001},
        {"time_per_move": 0.30000000000000004},
        {"exploration": 1e-300, "confidence": 123456789.0},
    ],
)
def test_an_mcts_agents_name_rebuilds_its_settings_to_the_last_digit(settings):
    """An MCTS agent's name is a spec that rebuilds every one of its settings exactly."""
    agent = MCTSAgent(**settings)
    assert make_agent(agent.name).settings() == agent.settings()


def test_mcts_specs_that_differ_past_six_digits_are_different_runs():
    """Two MCTS specs whose settings differ only past six digits give different run digests."""
    game = fg.make("bosk")
    digests = {
        _make_run(game, [spec], 1, True, None).digest
        for spec in ("mcts:c=0.1234567891", "mcts:c=0.1234571")
    }
    assert len(digests) == 2


def test_an_mcts_agent_that_searched_living_forest_pickles_and_plays_on_alike():
    """An MCTS agent that searched in Living Forest pickles; its copy plays as it does."""
    game = fg.make("living_forest")
    state = game.new_game(seed=1)
    agent = MCTSAgent(20, seed=1)
    state = state.apply(agent.choose(state))
    copy = pickle.loads(pickle.dumps(agent))
    while state.players_to_act[0] != 0 or len(state.legal_moves()) < 2:
        state = state.apply(state.legal_moves()[0])
    assert copy.choose(state) == agent.choose(state)


def test_a_cut_playout_far_behind_the_roots_lead_is_rewarded_about_0():
    """A lead hundreds of scales below the root's gives a reward of about 0, not an overflow."""
    assert cutoff_rewards([0.0, 100.0], [0.0, 0.0], 1.0) == pytest.approx([0.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rewards = _all_rewards(np.array([[0.0, 100.0]]), [0.0, 0.0], 1.0)
    assert rewards[0] == pytest.approx([0.0, 1.0])


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (([],), "values"),
        (([1.0, float("nan")],), "values"),
        ((None,), "values"),
        ((["a", "b"],), "values"),
        (([[1.0, 2.0]],), "values"),
        (([1.0, 2.0], [0.0]), "centre"),
        (([1.0, 2.0], 5), "centre"),
        (([1.0, 2.0], [0.0, float("inf")]), "centre"),
        (([1.0, 2.0], None, 0), "scale"),
        (([1.0, 2.0], None, -1.0), "scale"),
        (([1.0, 2.0], None, "x"), "scale"),
    ],
)
def test_cutoff_rewards_refuses_bad_input_naming_the_argument(args, named):
    """cutoff_rewards refuses empty or non-finite values, a centre of the wrong length or a
    scale not above 0 with a ConfigError naming the argument."""
    with pytest.raises(fg.ConfigError, match=named):
        cutoff_rewards(*args)


def test_cutoff_rewards_of_tiny_values_are_numbers():
    """Subnormal values or scale give rewards in [0, 1] (0.5 for a tie), never NaN."""
    assert cutoff_rewards([1e-320, 1e-320]) == [0.5, 0.5]
    assert cutoff_rewards([1.0, 1.0], None, 5e-324) == [0.5, 0.5]


def test_cutoff_rewards_takes_a_centre_array():
    """A numpy centre is a centre (not an ambiguous truth value)."""
    rewards = cutoff_rewards([1.0, 2.0], np.array([0.0, 0.0]))
    assert rewards == cutoff_rewards([1.0, 2.0], [0.0, 0.0])


@pytest.mark.parametrize("values", [[], [None], 3, "ab", [1.0, float("nan")], [[1.0, 2.0]]])
def test_leads_refuses_values_that_are_not_finite_numbers(values):
    """leads refuses values that are not a non-empty sequence of finite numbers (ConfigError)."""
    with pytest.raises(fg.ConfigError, match="values"):
        leads(values)


@pytest.mark.parametrize(
    ("values", "seat", "named"),
    [
        (np.array([1.0, 2.0]), 0, "values"),
        (np.zeros((1, 0)), 0, "values"),
        ([[1.0, float("inf")]], 0, "values"),
        ("x", 0, "values"),
        ([[1.0, 2.0]], 2, "seat"),
        ([[1.0, 2.0]], True, "seat"),
        ([[1.0, 2.0]], None, "seat"),
    ],
)
def test_margins_refuses_bad_values_or_seat(values, seat, named):
    """margins refuses values that are not finite (M, P) numbers, or a seat not among P."""
    with pytest.raises(fg.ConfigError, match=named):
        margins(values, seat)


@pytest.mark.parametrize(
    ("state", "moves"), [(None, []), (3, [1]), ("bosk", None), ("bosk", 3), ("bosk", "ab")]
)
def test_scores_after_refuses_what_is_not_a_state_and_its_moves(state, moves):
    """scores_after refuses a non-state (ConfigError) or moves that are not its legal moves."""
    if state == "bosk":
        state = fg.make("bosk").new_game(seed=0)
    with pytest.raises(fg.ForestGamesError):
        scores_after(state, moves)


def test_greedy_reaction_refuses_an_rng_that_is_not_a_random():
    """greedy_reaction refuses an rng that is not a random.Random with a ConfigError."""
    state = fg.make("boom_bokken").new_game(seed=0)
    while not any(reaction_moves(state, p) for p in range(state.game.num_players)):
        state = state.apply(state.legal_moves()[0])
    seat = next(p for p in range(state.game.num_players) if reaction_moves(state, p))
    with pytest.raises(fg.ConfigError, match="rng"):
        greedy_reaction(state, seat, None)
