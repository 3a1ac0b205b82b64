"""A user's type-checked code: ``mypy --strict`` checks this file in CI (``.ci/run``), so each
``assert_type`` below is a promise about the public types; pytest runs it too, so the code
it checks also works. Written as the docs show the calls."""

from __future__ import annotations

from typing import Any, assert_type

import numpy as np
import numpy.typing as npt
import pytest

import forestgames as fg
from forestgames.bosk.actions import BoskCodec
from forestgames.bosk.vector import ActionLayout
from forestgames.core import Game, State


def test_a_named_game_is_its_own_class_and_a_name_held_in_a_str_the_protocol() -> None:
    """A literal name gives its game's classes; a ``str`` the protocol, states and moves typed."""
    bosk = fg.make("bosk", num_players=2)
    assert_type(bosk, fg.bosk.BoskGame)
    assert_type(bosk.new_game(seed=1), fg.bosk.BoskState)
    assert_type(bosk.codec, BoskCodec)
    name: str = "boom_bokken"
    game = fg.make(name, num_players=4)
    assert_type(game, Game)
    state = game.new_game(seed=np.int64(7))  # numpy integers are seeds too
    assert_type(state, State)
    assert_type(state.num_players, int)
    while not state.is_terminal:
        moves = state.legal_moves()
        assert_type(moves, tuple[fg.core.Move, ...])
        state = state.apply(moves[0])
        assert_type(state, State)
    assert_type(state.winners, tuple[int, ...])
    assert state.winners


def test_masks_and_tensors_carry_their_dtypes() -> None:
    """Masks are int8 arrays, tensors float32 ones, ids ints, through the protocol."""
    game: Game = fg.make("living_forest", num_players=2)
    state = game.new_game(seed=3)
    mask = state.legal_action_mask()
    assert_type(mask, npt.NDArray[np.int8])
    tensor = state.observation_tensor(0)
    assert_type(tensor, npt.NDArray[np.float32])
    assert int(mask.sum()) == len(state.legal_moves())
    assert tensor.shape == game.observation_shape
    move = game.move_from_id(int(np.flatnonzero(mask)[0]), 0)
    assert game.action_id(move) == int(np.flatnonzero(mask)[0])


def test_records_replay_to_typed_states() -> None:
    """A record's replay, game and final state are typed."""
    record = fg.play("bonsai", ["random", "greedy"], seed=4)
    states = record.replay()
    assert_type(states, tuple[State, ...])
    assert_type(record.make_game(), Game)
    assert states[-1] == record.final_state()


def test_counts_and_kernel_arguments_take_numpy_integers() -> None:
    """Counts, seeds and a kernel's player count take numpy integers; a list is a pair."""
    result = fg.simulate("bosk", ["random"], np.int64(2), seed=np.int64(1), progress=False)
    assert len(result.rows) == 2
    owner = np.full((6, 6), -1)
    assert fg.bosk.summer_scores(owner, np.zeros((6, 6), int), np.int64(2)).tolist() == [0, 0]
    move = fg.bosk.PlantTree(0, 3, [2, 4])  # a list for a coordinate pair is converted
    assert_type(move.at, tuple[int, int])
    assert move.at == (2, 4)


def test_vector_bosk_methods_keep_their_signatures() -> None:
    """With ``warn_unused_ignores``, an ignore on a wrong call fails mypy if the method's
    parameters were erased (as a decorator typed with ``...`` did)."""
    vec = fg.bosk.VectorBosk(num_players=2, batch=2)
    vec.reset(seed=5)
    with pytest.raises(TypeError, match="unexpected keyword argument 'sede'"):
        vec.reset(sede=5)  # type: ignore[call-arg]
    assert_type(vec.state(0), fg.bosk.BoskState)
    assert vec.state(1) == fg.make("bosk").new_game(seed=fg.core.derive_seed(5, 1))


def test_vector_bosk_counts_seeds_and_index_take_numpy_integers() -> None:
    """VectorBosk's player count, batch, seeds, first game and game index, and ActionLayout's
    size, take numpy integers under mypy --strict, as they do at run time."""
    vec = fg.bosk.VectorBosk(np.int64(2), np.int64(2), np.int64(3), first_game=np.int64(1))
    vec.reset(np.int64(5), first_game=np.int64(0))
    assert vec.state(np.int64(1)) == fg.make("bosk").new_game(seed=fg.core.derive_seed(5, 1))
    assert vec.play_random(np.int64(0)).shape == (2,)
    assert vec.play("random", np.int64(0)).shape == (2,)
    assert ActionLayout(np.int64(8)).num_actions == vec.num_actions


def test_environments_are_their_classes() -> None:
    """The RL builders return their environment classes, so reset and step are typed."""
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from forestgames import rl
    from forestgames.rl.aec import ForestGamesAECEnv
    from forestgames.rl.gym import ForestGamesGymEnv

    env = rl.aec_env("bosk", num_players=2)
    assert_type(env, ForestGamesAECEnv)
    single = rl.gym_env("bosk", num_players=2)
    assert_type(single, ForestGamesGymEnv)
    observation: Any
    observation, _ = single.reset(seed=0)
    assert observation["action_mask"].dtype == np.int8
