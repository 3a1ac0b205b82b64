"""The PettingZoo and Gymnasium environments: the ecosystems' checkers, reaction turns, rewards."""

from __future__ import annotations

import functools
import io
import random
import sys
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import itertools

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

import forestgames as fg
from forestgames import rl

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("bosk", {"num_players": 2}),
    ("bosk", {"num_players": 3}),
    ("bonsai", {"num_players": 2}),
    ("bonsai", {"num_players": 3}),
    ("living_forest", {"num_players": 2}),
    ("living_forest", {"num_players": 3, "turn_limit": 12}),
    ("boom_bokken", {"num_players": 4}),
    ("boom_bokken", {"num_players": 6, "expert": True}),
]
IDS = [f"{name}-{options['num_players']}p" for name, options in CONFIGS]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        # api_test warns about Dict observations for every env not on its own list
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message=".*not having a spec")
        yield


def _play(env: Any, seed: int) -> list[tuple[str, Any, dict[str, Any]]]:
    """A whole random masked game; the (agent, observation, info) before every step."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    seen = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seen.append((agent, obs, info))
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    return seen


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_api_and_seed_tests(name: str, options: dict[str, Any]) -> None:
    """The AEC environment passes PettingZoo's api_test (a whole game) and seed_test."""
    api_test(rl.aec_env(name, **options), num_cycles=2000)
    seed_test(functools.partial(rl.aec_env, name, **options), num_cycles=200)


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_gymnasium_check_env(name: str, options: dict[str, Any]) -> None:
    """The single-seat environment passes Gymnasium's check_env."""
    check_env(rl.gym_env(name, **options))


@pytest.mark.parametrize(("name", "options"), CONFIGS[::2], ids=IDS[::2])
def test_aec_observations_are_the_codec_tensors(name: str, options: dict[str, Any]) -> None:
    """Agent player_k is seat k, its observation the seat's tensor and its mask the legal ids."""
    env = rl.aec_env(name, **options)
    env.reset(seed=5)
    for _ in range(30):
        seat = env.possible_agents.index(env.agent_selection)
        obs = env.observe(env.agent_selection)
        state = env.game_state
        assert np.array_equal(obs["observation"], state.observation_tensor(seat))
        codec_mask = obs["action_mask"][: state.game.num_actions]
        if not env.infos[env.agent_selection]["reaction"]:
            assert np.array_equal(codec_mask, state.legal_action_mask(seat))
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if env.terminations[env.agent_selection]:
            break


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=IDS)
def test_env_steps_make_the_engines_checked_moves(name: str, options: dict[str, Any]) -> None:
    """The environment applies a masked id without a second legality check; over a whole
    random game each step gives the state the engine's checked ``apply`` of that id's move
    gives (PASS leaves the state as it was)."""
    env = rl.aec_env(name, **options)
    env.reset(seed=11)
    rng = random.Random(11)
    steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        before, seat = env.game_state, env.agent_name_mapping[agent]
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        if action == before.game.num_actions:  # PASS
            assert env.game_state is before
        else:
            expected = before.apply(before.game.move_from_id(action, seat))
            assert env.game_state.to_dict() == expected.to_dict()
            assert env.last_move == before.game.move_from_id(action, seat)
        steps += 1
    assert env.game_state.is_terminal and steps > 10


def test_boom_bokken_reaction_turns_go_to_every_seat_in_a_seeded_order() -> None:
    """After a lead, every other seat still in the round gets a reaction turn with PASS, in a
    seeded order, whatever its cards; then the named seat plays, without PASS."""
    orders = set()
    for seed in range(6):
        env = rl.aec_env("boom_bokken", num_players=6)
        env.reset(seed=seed)
        game = env.game_state.game
        pass_id = game.num_actions
        lead = env.possible_agents.index(env.agent_selection)
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(legal[0]))  # a lead: someone is named now
        state = env.game_state
        named, in_round = state.named_player, state.players_in_round
        expected = {s for s in in_round if s != named}
        order = []
        while env.infos[env.agent_selection]["reaction"]:
            seat = env.possible_agents.index(env.agent_selection)
            mask = env.observe(env.agent_selection)["action_mask"]
            assert mask[pass_id] == 1
            assert np.array_equal(mask[:pass_id], state.legal_action_mask(seat))
            order.append(seat)
            env.step(pass_id)
        assert set(order) == expected and len(order) == len(expected)
        assert lead in order  # the leader may Temps Mort its own lead
        assert env.possible_agents.index(env.agent_selection) == named
        assert env.observe(env.agent_selection)["action_mask"][pass_id] == 0
        orders.add(tuple(order))
        replay = rl.aec_env("boom_bokken", num_players=6)
        replay.reset(seed=seed)
        replay.step(int(legal[0]))
        assert replay.agent_selection == env.possible_agents[order[0]]
    assert len(orders) > 1, "the reaction order should depend on the seed"


def _random_aec_game(env: Any, seed: int, on_turn: Any) -> list[str]:
    """A game of random legal ids (PASS on every reaction turn) through ``env``, seeded
    ``seed``; ``on_turn(agent, info)`` hears each live decision before it is made. Returns
    the agents selected after the end, in order."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    after = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            after.append(agent)
            env.step(None)
            continue
        on_turn(agent, info)
        mask = obs["action_mask"]
        env.step(len(mask) - 1 if info["reaction"] else int(rng.choice(np.flatnonzero(mask))))
    return after


@pytest.mark.parametrize("name", ["boom_bokken", "bosk"])
def test_every_agents_info_has_reaction_true_only_on_the_selected_reaction_turn(name: str) -> None:
    """Every agent's info has the same keys at every step: "reaction", True only when selected."""
    env = rl.aec_env(name, num_players=4)
    env.reset(seed=5)
    rng, reactions = np.random.default_rng(5), 0
    for agent in env.agent_iter():
        obs, _, terminated, _, info = env.last()
        assert set(env.infos) == set(env.agents)
        for other, other_info in env.infos.items():
            assert set(other_info) == {"reaction"}
            assert other_info["reaction"] is (other == agent and env.driver.reacting)
        reactions += info["reaction"]
        env.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert reactions or name == "bosk"


def test_reaction_orders_are_shuffled_from_the_reset_seed() -> None:
    """The seats offered reaction turns after a lead come in a shuffled order, not seat
    order (a driver that never shuffled passed the other tests), drawn from the reset's
    seed."""
    from forestgames.rl._turns import TurnDriver

    env = rl.aec_env("boom_bokken", num_players=4)
    orders: list[tuple[int, ...]] = []
    run: list[int] = []

    def note(agent: str, info: dict[str, Any]) -> None:
        if info["reaction"]:
            run.append(env.agent_name_mapping[agent])
        elif run:
            orders.append(tuple(run))
            run.clear()

    for seed in range(5):
        _random_aec_game(env, seed, note)
    assert len(orders) > 20 and any(list(o) != sorted(o) for o in orders)
    driver = TurnDriver(fg.make("boom_bokken", num_players=4))
    streams = set()
    for seed in range(5):
        driver.reset(seed)
        streams.add(driver._rng.random())
    assert len(streams) == 5  # one stream per seed


def test_agents_not_selected_see_an_empty_mask() -> None:
    """Only the selected agent's mask has ids: another seat's would show its out-of-turn
    moves, or PASS while queued for a reaction turn, telling who holds a reaction card."""
    env = rl.aec_env("boom_bokken", num_players=4)

    def check(agent: str, info: dict[str, Any]) -> None:
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()

    _random_aec_game(env, 0, check)


def test_after_the_end_agents_leave_from_the_seat_after_the_last_mover() -> None:
    """Once the game is over each agent is selected once more to leave, the first of them
    the seat after the one that moved last."""
    env = rl.aec_env("bosk", num_players=3)
    movers: list[str] = []
    after = _random_aec_game(env, 0, lambda agent, info: movers.append(agent))
    last = env.agent_name_mapping[movers[-1]]
    assert after[0] == f"player_{(last + 1) % 3}"
    assert sorted(after) == ["player_0", "player_1", "player_2"]


def test_compound_turns_repeat_the_agent() -> None:
    """A Bosk leaf path is several steps of the same agent."""
    seen = _play(rl.aec_env("bosk", num_players=2), seed=3)
    repeats = sum(1 for (a, _, _), (b, _, _) in itertools.pairwise(seen) if a == b)
    assert repeats > len(seen) // 4


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_score_rewards_add_up_to_the_final_scores(name: str) -> None:
    """With reward="score" each agent's rewards over a game sum to its score's change."""
    env = rl.aec_env(name, reward="score", num_players=4)
    env.reset(seed=2)
    start = env.game_state.scores
    total = dict.fromkeys(env.possible_agents, 0.0)
    rng = random.Random(2)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    change = [float(b - a) for a, b in zip(start, env.game_state.scores, strict=True)]
    assert [total[a] for a in env.possible_agents] == change


def test_win_rewards_at_the_end() -> None:
    """With reward="win" winners end with +1 and the others with -1."""
    env = rl.aec_env("bonsai", num_players=2)
    env.reset(seed=4)
    final = {}
    rng = random.Random(4)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        assert reward == 0.0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    winners = env.game_state.winners
    assert final == {f"player_{s}": 1.0 if s in winners else -1.0 for s in range(2)}


def test_aec_illegal_action_raises_and_changes_nothing() -> None:
    """The AEC environment refuses an id outside the mask with IllegalMoveError, and the
    state, the selected agent and every reward stay as they were (with score rewards, the
    reward an agent has built up since it last acted too)."""
    env = rl.aec_env("bosk", num_players=2, reward="score")
    env.reset(seed=0)
    rng = random.Random(0)
    while env.last()[1] == 0:  # play until the selected agent has a reward to keep
        env.step(int(rng.choice(np.flatnonzero(env.last()[0]["action_mask"]))))
    state, agent = env.game_state, env.agent_selection
    before = (dict(env.rewards), dict(env._cumulative_rewards), env.last()[1:])
    mask = env.observe(agent)["action_mask"]
    with pytest.raises(fg.IllegalMoveError, match=r"is not legal for seat .* now"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.game_state is state and env.agent_selection == agent
    assert (dict(env.rewards), dict(env._cumulative_rewards), env.last()[1:]) == before


@pytest.mark.parametrize(("name", "options"), [CONFIGS[0], CONFIGS[6]], ids=[IDS[0], IDS[6]])
def test_aec_env_under_pettingzoos_classic_wrappers(name: str, options: dict[str, Any]) -> None:
    """Wrapped as PettingZoo wraps its classic games (TerminateIllegalWrapper,
    AssertOutOfBoundsWrapper, OrderEnforcingWrapper), the env passes api_test, and an id
    outside the mask ends the game with the penalty for the selected agent instead of
    raising (as docs/rl.md says), the state left as it was."""
    from pettingzoo.utils import wrappers

    def wrapped() -> Any:
        env = wrappers.TerminateIllegalWrapper(rl.aec_env(name, **options), illegal_reward=-1)
        return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(env))

    api_test(wrapped(), num_cycles=200)
    env = wrapped()
    env.reset(seed=3)
    agent, state = env.agent_selection, env.unwrapped.game_state
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.rewards[agent] == -1 and all(env.terminations.values())
    assert env.unwrapped.game_state is state


def test_gym_illegal_action_ends_the_episode_with_a_penalty() -> None:
    """An illegal id ends the gym episode with illegal_reward and says so in info."""
    env = rl.gym_env("living_forest", num_players=2, illegal_reward=-5.0)
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, True)


def test_gym_info_names_the_move_played_a_pass_too() -> None:
    """``info["move"]`` is the learning seat's move in its notation, and ``"S:pass"`` for a
    PASS on a reaction turn (the string OpenSpiel's ``action_to_string`` gives), never
    ``"None"``."""
    env = rl.gym_env("boom_bokken", num_players=4, seat=2)
    obs, info = env.reset(seed=0)
    moves, passes = [], 0
    for _ in range(200):
        if info["reaction"]:
            action, passes = env.driver.pass_id, passes + 1
        else:
            action = int(np.flatnonzero(obs["action_mask"])[0])
        expected = "2:pass" if info["reaction"] else str(env.game.move_from_id(action, 2))
        obs, _, terminated, _, info = env.step(action)
        moves.append((info["move"], expected))
        if terminated:
            obs, info = env.reset()
    assert passes and all(played == expected for played, expected in moves)


def test_gym_action_masks_is_the_observed_mask_as_bools() -> None:
    """``action_masks()`` (what MaskablePPO calls, through wrappers) is the mask just observed."""
    import gymnasium

    env = gymnasium.make(rl.GYM_IDS["boom_bokken"], num_players=4, seat=1)
    action_masks = env.get_wrapper_attr("action_masks")
    with pytest.raises(fg.StateError, match="reset"):
        action_masks()
    obs, info = env.reset(seed=2)
    rng, reactions = np.random.default_rng(2), 0
    for _ in range(300):
        mask = action_masks()
        assert mask.dtype == bool and np.array_equal(mask, obs["action_mask"].astype(bool))
        reactions += info["reaction"] and mask[-1]  # PASS is the last id
        obs, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated:
            assert not action_masks().any()
            obs, info = env.reset()
    assert reactions


def test_gym_illegal_id_on_a_reaction_turn_ends_with_no_reaction_left() -> None:
    """An illegal id given on a reaction turn ends the episode: its info says no reaction
    turn is under way (it still said True), as every other ended episode's does."""
    env = rl.gym_env("boom_bokken", num_players=4)
    obs, info = env.reset(seed=0)
    while not info["reaction"]:
        obs, _, terminated, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if terminated:
            obs, info = env.reset()
    _, reward, terminated, _, info = env.step(env.action_space.n + 5)
    assert terminated and info["illegal_action"] and info["reaction"] is False and reward == -1


def test_gym_opponents_as_bytes_are_one_spec_refused() -> None:
    """Bytes are not a list of agents: b"random" is refused as one spec (it was read as a
    list of ints, one per seat)."""
    with pytest.raises(fg.ConfigError, match=r"b'random' is not an agent"):
        rl.gym_env("bosk", opponents=b"random")


def test_gym_against_agents_plays_whole_games() -> None:
    """The gym environment plays seat 1 against greedy agents to the end, rewards once."""
    env = rl.gym_env("boom_bokken", num_players=4, seat=1, opponents="greedy", reward="win")
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        done, rewards = False, []
        while not done:
            action = env.action_space.sample(obs["action_mask"])
            obs, reward, done, _, info = env.step(action)
            rewards.append(reward)
            assert not info["illegal_action"]
        assert rewards[-1] in (1.0, -1.0) and not any(rewards[:-1])


def test_an_unknown_keyword_is_named_with_the_envs_own_arguments() -> None:
    """A keyword that is neither a game option nor the env's argument (here the other env's)
    is a ConfigError listing both, so a user sees what each env takes."""
    with pytest.raises(fg.ConfigError, match=r"'render_seat'.*Bosk's options.*'opponents'"):
        rl.gym_env("bosk", render_seat=1)
    with pytest.raises(fg.ConfigError, match=r"'seat'.*'team_sizes'.*'render_seat'"):
        rl.aec_env("boom_bokken", seat=2)


class _Wrapped:
    """A game by the protocol alone (every attribute Bosk's), not built on GameBase."""

    name = "wrapped"

    def __init__(self, **options: Any) -> None:
        self._game = fg.make("bosk", **options)

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._game, attribute)


def test_a_game_not_built_on_the_base_is_refused_by_name(monkeypatch: Any) -> None:
    """``make`` takes a game that only follows the protocol, but the environments read the
    base's options and codec: ConfigError, not an AttributeError from inside."""
    from forestgames import core

    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    core.register_game("wrapped", _Wrapped)
    assert fg.make("wrapped", num_players=2).num_actions == fg.make("bosk").num_actions
    for build in (rl.aec_env, rl.gym_env):
        with pytest.raises(fg.ConfigError, match="wrapped is not built on"):
            build("wrapped", num_players=2)


def test_bad_arguments_are_config_errors() -> None:
    """Unknown games, rewards, render modes, seats and opponents are ConfigErrors."""
    render_mode = "render_mode must be None or one of 'human', 'ansi', 'svg', not"
    for call, message in (
        (lambda: rl.aec_env("chess"), "unknown game 'chess'"),
        (lambda: rl.aec_env("bosk", reward="money"), "reward must be one of"),
        (lambda: rl.aec_env("bosk", render_mode="rgb_array"), render_mode),
        (lambda: rl.aec_env("bosk", render_mode=np.array(["ansi", "svg"])), render_mode),
        (lambda: rl.gym_env("bosk", render_mode=["ansi"]), render_mode),
        (lambda: rl.gym_env("bosk", seat=2), "seat 2 is not a seat of a 2-player game"),
        (lambda: rl.gym_env("bosk", opponents="wizard"), "unknown agent 'wizard'"),
        (
            lambda: rl.gym_env("bosk", num_players=3, opponents=["random"]),
            "one agent per other seat",
        ),
    ):
        with pytest.raises(fg.ConfigError, match=message):
            call()


def test_render_modes() -> None:
    """render_mode="ansi" is the text picture, "svg" the SVG document; none: None, with
    Gymnasium's warning (silently before), for both environments."""
    env = rl.aec_env("bosk", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == env.game_state.render()
    env = rl.aec_env("bosk", render_mode="svg")
    env.reset(seed=0)
    picture = env.render()
    assert picture == env.game_state.to_svg() and picture.lstrip().startswith("<svg")
    for plain in (rl.aec_env("bosk"), rl.gym_env("bosk")):
        plain.reset(seed=0)
        with pytest.warns(UserWarning, match="without a render mode"):
            assert plain.render() is None
    assert {"ansi", "svg"} <= set(env.metadata["render_modes"])


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's render_test over every render mode ("human" prints the text picture)."""
    svg = {"svg": lambda picture: picture.lstrip().startswith("<svg")}
    render_test(functools.partial(rl.aec_env, "boom_bokken", num_players=4), svg)
    assert "Boom Bokken 4p" in capsys.readouterr().out
    env = rl.gym_env("bonsai", render_mode="human")
    env.reset(seed=1)
    assert env.render() is None and "(you)" in capsys.readouterr().out


@pytest.mark.parametrize("mode", ["ansi", "svg"])
def test_renders_show_only_a_seats_view(mode: str) -> None:
    """The gym env renders its learning seat's view (other hands hidden, in Boom Bokken);
    the AEC env the referee's picture unless told a ``render_seat``."""
    gym = rl.gym_env("boom_bokken", num_players=4, seat=2, render_mode=mode)
    gym.reset(seed=5)
    state = gym.game_state
    seat_view = state.to_svg(2) if mode == "svg" else state.render(2)
    referee = state.to_svg() if mode == "svg" else state.render()
    assert gym.render() == seat_view != referee
    aec = rl.aec_env("boom_bokken", num_players=4, render_mode=mode, render_seat=1)
    aec.reset(seed=5)
    assert aec.render() == (aec.game_state.to_svg(1) if mode == "svg" else aec.game_state.render(1))
    spectator = rl.aec_env("boom_bokken", num_players=4, render_mode=mode)
    spectator.reset(seed=5)
    assert spectator.render() == (
        spectator.game_state.to_svg() if mode == "svg" else spectator.game_state.render()
    )
    with pytest.raises(fg.ConfigError, match="render_seat"):
        rl.aec_env("boom_bokken", num_players=4, render_seat=4)
    with pytest.raises(fg.ConfigError, match="render_seat"):
        rl.aec_env("boom_bokken", num_players=4, render_seat="1")


def test_misuse_raises_the_librarys_errors() -> None:
    """Calls before reset(), unknown agents, bad seeds and penalties, and a move after the
    end raise the library's own errors (ValueError subclasses) and change nothing."""
    env = rl.aec_env("bosk")
    for call in (env.last, lambda: env.step(0), lambda: env.observe("player_0")):
        with pytest.raises(fg.StateError, match="reset"):
            call()
    with pytest.raises(fg.ConfigError, match="not an agent"):  # the agent first, as after reset
        env.observe("player_9")
    env.reset(seed=4)
    state, selected = env.game_state, env.agent_selection
    for bad in ("abc", 1.5, True, -1, 2**64):
        with pytest.raises(fg.ConfigError, match="seed"):
            env.reset(seed=bad)
        assert env.game_state is state and env.agent_selection == selected
    for agent in ("player_9", 0, None, ["player_0"], np.zeros(2)):
        for call in (env.observe, env.observation_space, env.action_space):
            with pytest.raises(fg.ConfigError, match="not an agent"):
                call(agent)
    env.reset(seed=np.int64(4))  # numpy ints are seeds too: the same game
    assert env.game_state == state
    while not all(env.terminations.values()):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    with pytest.raises(fg.IllegalMoveError, match="over"):
        env.step(3)
    for _ in env.agent_iter():
        env.step(None)  # PettingZoo's way out: every agent leaves
    assert env.agents == []
    for call in (env.last, lambda: env.step(None), lambda: env.step(0)):
        with pytest.raises(fg.StateError, match="reset"):
            call()
    env.reset(seed=4)
    assert env.game_state == state
    gym = rl.gym_env("bosk")
    with pytest.raises(fg.ConfigError, match="seed"):
        gym.reset(seed="abc")
    for penalty in ("x", None, float("nan"), float("inf"), True):
        with pytest.raises(fg.ConfigError, match="illegal_reward"):
            rl.gym_env("bosk", illegal_reward=penalty)
    assert rl.gym_env("bosk", illegal_reward=np.float32(-2)).illegal_reward == -2.0
    for opponents in (42, "nonsense"):  # checked even when there is no other seat
        with pytest.raises(fg.ConfigError, match=r"not an agent|unknown agent"):
            rl.gym_env("bonsai", num_players=1, opponents=opponents)


class _FailsOnce:
    """An opponent that raises IllegalMoveError once ``armed`` is set, then plays on."""

    armed = False

    def choose(self, state: Any) -> Any:
        if _FailsOnce.armed:
            _FailsOnce.armed = False
            raise fg.IllegalMoveError("this agent refused")
        return state.legal_moves()[0]


def test_a_failing_opponent_ends_the_episode() -> None:
    """An opponent's error propagates from reset() or step() and ends the episode: step()
    then asks for a reset. The learning seat used to be left on the opponent's turn, its
    next step playing the opponent's move."""
    env = rl.gym_env("bosk", num_players=2, seat=0, opponents=[_FailsOnce()])
    env.reset(seed=0)
    _FailsOnce.armed = True
    with pytest.raises(fg.IllegalMoveError, match="refused"):
        env.reset(seed=0)  # seat 1 starts this game
    assert env.game_state.current_player == 1
    with pytest.raises(fg.StateError, match="call reset"):
        env.step(0)
    observation, _ = env.reset(seed=1)
    action = int(np.flatnonzero(observation["action_mask"])[0])
    _FailsOnce.armed = True
    with pytest.raises(fg.IllegalMoveError, match="refused"):
        env.step(action)
    with pytest.raises(fg.StateError, match="call reset"):
        env.step(action)
    env.reset(seed=1)  # and plays on
    assert env.step(action)[4]["illegal_action"] is False


class _Plays:
    """An opponent that returns ``pick(state, seat)`` for its seat's legal moves."""

    def __init__(self, pick: Any) -> None:
        self.pick = pick

    def choose(self, state: Any) -> Any:
        seat = state.current_player
        return self.pick(state, seat)


def test_an_opponents_move_of_another_seat_or_not_legal_is_refused() -> None:
    """An opponent whose move is another seat's (an id does not say whose move it is) or not
    legal now raises IllegalMoveError naming it, as fg.play does; the first was played as
    its own seat's move."""
    import attrs

    def other_seat(state: Any, seat: int) -> Any:
        return attrs.evolve(state.legal_moves(seat)[0], player=1 - seat)

    def not_legal(state: Any, seat: int) -> Any:
        return fg.bosk.PlaceLeaf(seat, (0, 0))  # no leaf in spring

    for pick, says in ((other_seat, "not a move of its seat"), (not_legal, "is not legal")):
        env = rl.gym_env("bosk", num_players=2, seat=0, opponents=[_Plays(pick)])
        with pytest.raises(fg.IllegalMoveError, match=f"agent _Plays at seat 1.*{says}"):
            observation, _ = env.reset(seed=1)  # raises at seat 1's first move
            env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        assert env.game_state.current_player == 1  # its move was not played


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_envs_copy_and_pickle_mid_game(name: str) -> None:
    """An env copied (deep) or pickled mid-game, after its observations were computed,
    plays on exactly as the original (same observations after the same actions) with a
    game and codec of its own, so that copies may step in different threads."""
    import copy
    import pickle

    aec = rl.aec_env(name, num_players=4)
    aec.reset(seed=2)
    for _ in range(5):
        aec.step(int(np.flatnonzero(aec.last()[0]["action_mask"])[-1]))
    gym = rl.gym_env(name, num_players=4)
    gym.reset(seed=2)
    for env in (aec, gym):
        for duplicate in (copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))):
            twin = duplicate(env)
            assert twin.driver.codec is twin.game.codec
            assert twin.game.options() == env.game.options()
            assert twin.game.codec is not env.game.codec
            assert twin.driver.state is not env.driver.state
            for _ in range(20):
                if env.driver.is_over:
                    break
                seat = env.driver.seat
                mask = env.driver.mask(seat)
                np.testing.assert_array_equal(twin.driver.mask(seat), mask)
                tensor = env.driver.codec.tensor(env.driver.state, seat)
                np.testing.assert_array_equal(
                    twin.driver.codec.tensor(twin.driver.state, seat), tensor
                )
                action = int(np.flatnonzero(mask)[0])
                env.step(action)
                twin.step(action)


class _LocalAgent:
    """An opponent that cannot be pickled (it holds a lambda), as agents in notebooks are."""

    name = "local"

    def __init__(self) -> None:
        self.pick = lambda moves: moves[0]

    def choose(self, state: Any) -> Any:
        return self.pick(state.legal_moves(state.players_to_act[0]))


def test_a_gym_env_with_an_unpicklable_opponent_deep_copies() -> None:
    """A gym env whose opponent agent does not pickle still deep-copies (the agents are
    deep-copied, the rest pickled), each copy with a game of its own (not the one game
    unpickled states share), and the copy plays on as the original does."""
    import copy

    env = rl.gym_env("bosk", num_players=3, opponents=_LocalAgent())
    observation, _ = env.reset(seed=5)
    twin = copy.deepcopy(env)
    assert twin.game.codec is not env.game.codec
    assert copy.deepcopy(env).game.codec is not twin.game.codec
    for _ in range(30):
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, _, over, _, _ = env.step(action)
        mirrored, _, twin_over, _, _ = twin.step(action)
        np.testing.assert_array_equal(mirrored["observation"], observation["observation"])
        assert twin_over == over
        if over:
            break


def test_copies_of_a_new_env_play_different_unseeded_games() -> None:
    """Copies (deep or pickled) of an env never reset each draw their own unseeded games,
    as Gymnasium's env does: the seed generator is made at the first unseeded reset."""
    import copy
    import pickle

    for build in (rl.aec_env, rl.gym_env):
        new = build("boom_bokken", num_players=4)
        copies = [copy.deepcopy(new), pickle.loads(pickle.dumps(new)), new]
        for env in copies:
            env.reset()
        assert len({env.game_state for env in copies}) == len(copies)


def test_a_reset_while_agents_leave_keeps_nothing_of_that_game() -> None:
    """A reset after some (not all) agents left an ended game: the next game, same seed
    and same ids, ends in the same agent order as on a fresh env (PettingZoo's
    _was_dead_step kept the first agent to leave, and put it back at the next game's end)."""

    def finish(env: Any, leaving: int) -> None:
        while env.game_state is not None and not env.game_state.is_terminal:
            env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        for _ in range(leaving):
            env.step(None)

    used = rl.aec_env("bosk", num_players=2)
    used.reset(seed=1)
    finish(used, 1)  # one agent of two leaves, then a new game
    used.reset(seed=0)
    finish(used, 2)
    fresh = rl.aec_env("bosk", num_players=2)
    fresh.reset(seed=0)
    finish(fresh, 2)
    assert used.agents == fresh.agents == []
    assert used.agent_selection == fresh.agent_selection


@pytest.mark.parametrize("name", ["bosk", "boom_bokken"])
def test_turn_based_parallel_wrapper_plays_whole_games(name: str) -> None:
    """PettingZoo's turn_based_aec_to_parallel plays a whole game: at each parallel step
    exactly the agent whose decision it is has legal ids, the others all-zero masks."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    aec = rl.aec_env(name, num_players=4)
    env = turn_based_aec_to_parallel(aec)
    observations, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    while env.agents:
        live = [a for a in env.agents if observations[a]["action_mask"].any()]
        assert live == [aec.agent_selection]
        legal = np.flatnonzero(observations[live[0]]["action_mask"])
        actions = dict.fromkeys(env.agents, 0) | {live[0]: int(rng.choice(legal))}
        observations, *_ = env.step(actions)
    assert aec.game_state.is_terminal


def test_numpy_ids_are_ids_and_bad_ids_say_what_is_wrong() -> None:
    """A 0-d integer array (what RL libraries' ``predict`` returns for one env) and a numpy
    integer are ids like an int, in both envs and in ``move_from_id``; a bad id's error says
    whether it is no int, out of range, PASS off a reaction turn or not in the mask."""
    game = fg.make("bosk", num_players=2)
    assert game.move_from_id(np.array(3), 0) == game.move_from_id(np.int16(3), 0)
    with pytest.raises(fg.IllegalMoveError, match="int, not"):
        game.move_from_id(np.array([3]), 0)
    gym = rl.gym_env("bosk")
    obs, _ = gym.reset(seed=0)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    assert not gym.step(np.array(legal))[4]["illegal_action"]
    aec = rl.aec_env("boom_bokken", num_players=4)
    aec.reset(seed=0)
    n = aec.driver.num_ids
    for bad, message in [
        ("3", "an action id is an int, not '3'"),
        (6.0, "an action id is an int, not 6.0"),
        (True, "an action id is an int, not True"),
        (n, f"action id {n} is outside 0..{n - 1}"),
        (-1, f"action id -1 is outside 0..{n - 1}"),
        (n - 1, "PASS .* reaction turns only"),
    ]:
        with pytest.raises(fg.IllegalMoveError, match=message):
            aec.step(bad)
    legal = int(np.flatnonzero(aec.last()[0]["action_mask"])[0])
    aec.step(np.array(legal, dtype=np.int32))
    assert aec.last_move is not None


@pytest.mark.parametrize(("name", "options"), [CONFIGS[1], CONFIGS[7]], ids=[IDS[1], IDS[7]])
def test_global_state_for_centralised_training(name: str, options: dict[str, Any]) -> None:
    """``env.state()`` is every seat's observation tensor, seat 0 first, inside
    ``state_space``; PettingZoo's own state tests pass (stepped through its
    TerminateIllegalWrapper, as they sample unmasked ids); before reset it is a StateError."""
    from pettingzoo.test.state_test import test_state, test_state_space
    from pettingzoo.utils import wrappers

    env = rl.aec_env(name, **options)
    with pytest.raises(fg.StateError, match="reset"):
        env.state()
    test_state_space(env)
    test_state(wrappers.TerminateIllegalWrapper(rl.aec_env(name, **options), -1), 20)
    env.reset(seed=1)
    for _ in range(10):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    state = env.game_state
    views = [state.observation_tensor(seat) for seat in range(state.game.num_players)]
    np.testing.assert_array_equal(env.state(), np.concatenate(views))
    assert env.state_space.contains(env.state())


def test_game_state_through_wrappers_and_before_reset() -> None:
    """``env.game_state`` is None before reset and the state under way after, through
    PettingZoo's wrappers too (``state`` is PettingZoo's method, not shadowed); the
    bookkeeping dicts exist, empty, before the first reset."""
    from pettingzoo.utils import wrappers

    env = rl.aec_env("bosk")
    assert env.game_state is None
    assert (env.rewards, env.terminations, env.truncations, env.infos) == ({}, {}, {}, {})
    wrapped = wrappers.OrderEnforcingWrapper(wrappers.TerminateIllegalWrapper(env, -1))
    wrapped.reset(seed=3)
    assert wrapped.game_state is env.driver.state and wrapped.game_state.scores == (0, 0)
    assert rl.gym_env("bosk").game_state is None


def test_human_render_mode_draws_by_itself(capsys: pytest.CaptureFixture[str]) -> None:
    """``render_mode="human"`` prints the picture after every reset and step, as the
    ecosystems' human modes do (the AEC env the referee's, the gym env its seat's);
    ``render()`` before the first reset is a StateError."""
    aec, gym = rl.aec_env("bosk", render_mode="human"), rl.gym_env("bosk", render_mode="human")
    for env in (aec, gym):
        with pytest.raises(fg.StateError, match="reset"):
            env.render()
    capsys.readouterr()
    aec.reset(seed=0)
    assert capsys.readouterr().out == aec.game_state.render() + "\n"
    aec.step(int(np.flatnonzero(aec.last()[0]["action_mask"])[0]))
    assert capsys.readouterr().out == aec.game_state.render() + "\n"
    obs, _ = gym.reset(seed=0)
    assert capsys.readouterr().out == gym.game_state.render(0) + "\n"
    gym.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert capsys.readouterr().out == gym.game_state.render(0) + "\n"


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_human_render_mode_on_a_console_without_the_pictures_characters(
    monkeypatch: pytest.MonkeyPatch, name: str, encoding: str
) -> None:
    """On an ASCII or cp1252 stdout, ``"human"`` draws '?' where it cannot encode a character."""
    buffer = io.BytesIO()
    console = io.TextIOWrapper(buffer, encoding=encoding, newline="\n")
    monkeypatch.setattr(sys, "stdout", console)
    env = rl.aec_env(name, render_mode="human")
    env.reset(seed=0)
    env.render()
    console.flush()
    picture = env.game_state.render()
    expected = picture.encode(encoding, "replace").decode(encoding) + "\n"
    assert buffer.getvalue().decode(encoding) == expected * 2


def test_gym_step_after_the_end_is_both_errors() -> None:
    """``step()`` once the episode is over raises one error that is the library's
    StateError and Gymnasium's ResetNeeded."""
    import gymnasium

    env = rl.gym_env("boom_bokken", num_players=4)
    with pytest.raises(fg.StateError, match="no episode under way: call reset"):
        env.step(0)
    obs, _ = env.reset(seed=0)
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # illegal: the episode ends
    for error in (fg.StateError, gymnasium.error.ResetNeeded):
        with pytest.raises(error, match="the episode is over: call reset"):
            env.step(0)
