"""Bad and odd input to the integer-action surfaces: the environments' opponents, lockstep
Bosk's ids, the codec's tensor layout. Each is refused with the library's own error, and what
was refused leaves everything as it was."""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import forestgames as fg
from forestgames import rl
from forestgames.testing import random_game


class _SeatAs:
    """An opponent playing its seat's first legal move with ``player`` made ``as_seat(seat)``."""

    def __init__(self, as_seat: Any) -> None:
        self.as_seat = as_seat

    def choose(self, state: Any) -> Any:
        move = state.legal_moves()[0]
        return attrs.evolve(move, player=self.as_seat(move.player))


@pytest.mark.parametrize(
    "as_seat",
    [bool, float, np.float64, np.array, lambda seat: np.array([seat, seat])],
    ids=["bool", "float", "numpy float", "0-d array", "array"],
)
def test_an_opponents_move_whose_seat_is_no_int_is_refused(as_seat: Any) -> None:
    """An opponent's move whose player is its seat as a bool, a float or an array (which
    state.apply refuses) is refused naming the agent, not played (True, 1.0) nor a raw
    ValueError (an array); the episode is then over and a reset plays on."""
    env = rl.gym_env("bosk", num_players=2, seat=0, opponents=[_SeatAs(as_seat)])
    with pytest.raises(
        fg.IllegalMoveError, match=r"agent _SeatAs at seat 1 returned .* not a move"
    ):
        observation, _ = env.reset(seed=1)  # raises at seat 1's first move
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.game_state.current_player == 1  # its move was not played
    with pytest.raises(rl.gym.ResetNeeded):
        env.step(0)
    env = rl.gym_env("bosk", num_players=2, seat=0, opponents=[_SeatAs(np.int64)])
    for _ in range(3):
        observation, _ = env.reset(seed=1)
        _, _, _, _, info = env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        assert not info["illegal_action"] and env.game_state.current_player == 0


def test_play_refuses_an_agents_move_whose_seat_is_an_array() -> None:
    """fg.play refuses an agent's move whose player is an array with IllegalMoveError naming
    the agent (numpy's ValueError, on comparing it with the seat, escaped), as the gym env's
    opponents are refused."""
    game = fg.make("bosk", num_players=2)
    agents = [_SeatAs(lambda seat: np.array([seat, seat]))] * 2
    with pytest.raises(
        fg.IllegalMoveError, match=r"agent _SeatAs at seat \d returned .* not a move"
    ):
        fg.play(game, agents, seed=3)
    record = fg.play(game, [_SeatAs(np.int64)] * 2, seed=3)  # a numpy int seat plays on
    assert record.replay()[-1].is_terminal


def test_lockstep_bosk_refuses_a_bool_among_a_lists_ids() -> None:
    """VectorBosk.step of a list holding a bool beside ints (which numpy reads as id 0 or 1)
    is IllegalMoveError naming the game, as a bool array is, and no game moves; a finished
    game ignores its id, a bool too."""
    vec = fg.bosk.VectorBosk(num_players=2, batch=2, seed=0)
    assert vec.legal_action_mask()[:, :2].all()  # ids 0 and 1: plantings, legal in both
    before = [vec.state(i) for i in range(2)]
    for flag in (True, False, np.True_, np.array(True)):
        for actions in ([flag, 5], (5, flag)):
            game = actions.index(flag) if isinstance(actions, list) else 1
            with pytest.raises(fg.IllegalMoveError, match=f"game {game}: action .* not an id"):
                vec.step(actions)
            assert [vec.state(i) for i in range(2)] == before
    with pytest.raises(fg.IllegalMoveError, match="one per game"):
        vec.step(np.array([True, False]))
    vec.step([1, 5])  # the same ids as ints are played
    assert [vec.state(i) for i in range(2)] != before
    vec.play_random(1)
    finished = [vec.state(i) for i in range(2)]
    vec.step([True, 5])
    assert [vec.state(i) for i in range(2)] == finished


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_a_layout_refuses_a_ragged_tensor_with_a_config_error(name: str) -> None:
    """codec.layout.field of a ragged list (no array: numpy raised its own ValueError) is a
    ConfigError, as a tensor of the wrong shape is; the layout then cuts real tensors."""
    game = fg.make(name)
    layout = game.codec.layout
    tensor = game.new_game(seed=0).observation_tensor(0)
    field = next(iter(layout.offset))
    for ragged in ([tensor.tolist(), [0.0]], [[0.0, 1.0], [2.0]]):
        with pytest.raises(fg.ConfigError, match="a tensor of this layout is an array, not"):
            layout.field(ragged, field)
    start, size = layout.offset[field], int(np.prod(layout.shape[field]))
    np.testing.assert_array_equal(layout.field(tensor, field).reshape(-1), tensor[start:][:size])


@pytest.mark.parametrize(
    ("name", "move", "seat"),
    [
        ("living_forest", fg.living_forest.TakeVictory(float("inf"), 1, "tree"), 0),
        ("boom_bokken", fg.boom_bokken.Play(float("-inf"), ("4",), 0, "higher"), 1),
        ("boom_bokken", fg.boom_bokken.Boom(np.float64("inf"), 0), 1),
    ],
    ids=["TakeVictory", "Play", "Boom"],
)
def test_the_codec_gives_no_id_to_a_move_of_an_infinite_seat(
    name: str, move: Any, seat: int
) -> None:
    """game.codec.action_id of a move whose seat is infinite (its id is relative to the
    seat, so the codec does arithmetic with it) is IllegalMoveError, not Python's
    OverflowError; game.action_id refuses it too, and the codec numbers that move given a
    real seat."""
    game = fg.make(name)
    for action_id in (game.codec.action_id, game.action_id):
        with pytest.raises(fg.IllegalMoveError):
            action_id(move)
    real = attrs.evolve(move, player=seat)
    assert game.move_from_id(game.codec.action_id(real), seat) == real


def test_the_lockstep_layout_refuses_look_alike_moves_as_the_game_does() -> None:
    """vec.layout.action_id refuses what game.action_id refuses (docs/bosk.md): a class that
    is not Bosk's own, however named (a namedtuple PlantTree, a subclass), has no id; it
    read moves by their class's name and numbered them."""
    from collections import namedtuple

    game = fg.make("bosk", num_players=2)
    layout = fg.bosk.VectorBosk(num_players=2, batch=1, seed=0).layout
    plant = namedtuple("PlantTree", "player value at")
    wind = namedtuple("ChooseWind", "player direction")

    @attrs.frozen
    class PlantTree(fg.bosk.PlantTree):  # a subclass of the same name
        pass

    for move in (plant(0, 2, (1, 1)), wind(0, "E"), PlantTree(0, 2, (1, 1))):
        with pytest.raises(fg.IllegalMoveError):
            game.action_id(move)
        with pytest.raises(fg.IllegalMoveError, match="not a Bosk move on a 8x8 board"):
            layout.action_id(move)
    real = fg.bosk.PlantTree(0, 2, (1, 1))
    assert layout.action_id(real) == game.action_id(real)


@pytest.mark.parametrize(
    "bad",
    [None, 1.0, np.array([0]), -1, np.int16(-1), 10**30, "0"],
    ids=["None", "float", "1-d array", "-1", "numpy -1", "huge", "str"],
)
def test_a_gym_env_ends_on_a_bad_id_keeping_it_in_info_and_playing_nothing(bad: Any) -> None:
    """docs/rl.md: a gym env never raises for a bad id: the episode ends with the penalty,
    info["action"] is the very id given and there is no info["move"]; nothing was played,
    the mask is all zeros, step() then asks for a reset, and a reset plays on."""
    env = rl.gym_env("boom_bokken", num_players=4, seat=1, illegal_reward=-3)
    env.reset(seed=2)
    before = env.game_state
    observation, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-3.0, True, False, True)
    assert info["action"] is bad and "move" not in info
    assert env.game_state is before and not observation["action_mask"].any()
    with pytest.raises(rl.gym.ResetNeeded):
        env.step(0)
    observation, _ = env.reset(seed=2)
    assert env.game_state == before
    legal = int(np.flatnonzero(observation["action_mask"])[0])
    assert not env.step(legal)[4]["illegal_action"]


def test_both_envs_accept_and_ignore_reset_options() -> None:
    """docs/rl.md: reset(options=...) is accepted and ignored in both environments
    (PettingZoo's own tests pass some): the same seed gives the same game with any options."""
    for options in ({}, {"num_players": 4}, {"anything": [1, 2]}):
        aec, plain = rl.aec_env("bosk"), rl.aec_env("bosk")
        aec.reset(seed=5, options=options)
        plain.reset(seed=5)
        assert aec.game_state == plain.game_state and aec.agents == plain.agents
        gym, plain_gym = rl.gym_env("bosk"), rl.gym_env("bosk")
        observation, _ = gym.reset(seed=5, options=options)
        expected, _ = plain_gym.reset(seed=5)
        assert gym.game_state == plain_gym.game_state and gym.game.num_players == 2
        np.testing.assert_array_equal(observation["observation"], expected["observation"])


def test_a_gym_env_takes_a_seed_as_the_aec_env_does() -> None:
    """docs/rl.md: a seed is an int in 0..2**64-1, numpy's too, in both environments: the gym
    env refuses a bool, a float, -1 and 2**64 with ConfigError (Gymnasium's own check would
    take True as 1) and keeps its game; numpy seeds give the int seed's game."""
    env = rl.gym_env("living_forest")
    env.reset(seed=2**64 - 1)
    state = env.game_state
    for bad in (True, np.bool_(False), 1.0, np.float64(3), -1, 2**64, "3", np.array([3])):
        with pytest.raises(fg.ConfigError, match="seed"):
            env.reset(seed=bad)
        assert env.game_state is state
    env.reset(seed=np.uint64(2**64 - 1))
    assert env.game_state == state
    env.reset(seed=3)
    three = env.game_state
    for same in (np.int8(3), np.uint16(3), np.int64(3)):
        env.reset(seed=same)
        assert env.game_state == three


def test_lockstep_bosk_reads_a_list_of_ints_numpy_reads_as_floats() -> None:
    """VectorBosk.step of a list of ints that numpy reads as floats (an int64 beside a
    uint64, an int past int64) takes them as ids (they were refused as "dtype float64"): a
    live game's id past int64 is IllegalMoveError naming the game and nothing moves, and a
    finished game ignores its id, whatever it is (docs/bosk.md), as in a uint64 array."""
    vec = fg.bosk.VectorBosk(num_players=2, batch=2, seed=0)
    before = [vec.state(i) for i in range(2)]
    for huge in (2**63, -(2**70), np.uint64(2**64 - 1)):
        with pytest.raises(fg.IllegalMoveError, match=r"game 1: action -?\d+ is not an id"):
            vec.step([np.int64(1), huge])
        assert [vec.state(i) for i in range(2)] == before
    vec.step([np.int64(1), np.uint64(2)])
    moved = [vec.state(i) for i in range(2)]
    for i, action in enumerate((1, 2)):  # as the scalar engine plays those ids
        assert moved[i] == before[i].apply(vec.game.move_from_id(action, before[i].current_player))
    vec.play_random(3)
    finished = [vec.state(i) for i in range(2)]
    vec.step([2**63, np.uint64(2**64 - 1)])
    vec.step([np.int64(-5), np.uint64(7)])
    assert [vec.state(i) for i in range(2)] == finished


@pytest.mark.parametrize("players", [2, 4])
def test_a_bosk_wind_choice_loads_only_at_turn_0(players: int) -> None:
    """state_from_dict refuses a wind-choice position whose turn is not 0 (the seat that
    starts autumn chooses before any turn): one loaded, and its legal wind choice made a
    position that would not load again (VectorBosk.state(i) of it raised StateError)."""
    game = fg.make("bosk", num_players=players)
    state = next(s for s, _ in random_game(game, 0) if s.phase.value == "wind")
    saved = state.to_dict()
    assert saved["turn"] == 0
    for turn in range(1, players):
        with pytest.raises(fg.StateError, match=f"turn {turn} is outside 0..0 in the wind phase"):
            game.state_from_dict({**saved, "turn": turn})
    vec = fg.bosk.VectorBosk.from_states([game.state_from_dict(saved)])
    vec.step([int(np.flatnonzero(vec.legal_action_mask()[0])[0])])
    after = vec.state(0)
    assert game.state_from_dict(after.to_dict()) == after


def test_a_bosk_leaf_path_that_would_come_back_to_its_square_does_not_load() -> None:
    """state_from_dict refuses a leaf path under way whose next square already holds the
    mover's leaf from each leaf tile it spent (here the first wind edited from S to N: the
    path laid downwind of S turns back): one loaded, and its legal next leaf made a state
    that would not load (VectorBosk.state(i) of it raised StateError). The real position
    loads and plays on, in the vector engine too."""
    game = fg.make("bosk", num_players=2)
    state = next(
        s
        for s, _ in random_game(game, 0)
        if s.phase.value == "leaves" and s.round == 1 and s.to_dict()["last"] == [3, 5]
    )
    saved = state.to_dict()
    assert (saved["first_wind"], saved["active"]) == ("S", 3)
    with pytest.raises(fg.StateError, match=r"could lay again on square \(2, 4\)"):
        game.state_from_dict({**saved, "first_wind": "N"})
    vec = fg.bosk.VectorBosk.from_states([game.state_from_dict(saved)])
    while not vec.terminated.all():
        vec.step([int(np.flatnonzero(vec.legal_action_mask()[0])[-1])])
        after = vec.state(0)
        assert game.state_from_dict(after.to_dict()) == after
