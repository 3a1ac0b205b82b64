"""Bonsai's fast state tensor and mask paths: patched pieces, grown tree blocks, the scratch
mask buffer; each checked against the independent builds (observation dict, legal ids)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import forestgames as fg
from forestgames.bonsai import Prune
from tests.strategies import random_game


def _expected_mask(game: Any, state: Any, seat: int) -> np.ndarray:
    """The mask made directly from the legal moves' ids."""
    mask = np.zeros(game.num_actions, np.int8)
    mask[[game.action_id(move) for move in state.legal_moves(seat)]] = 1
    return mask


@pytest.mark.parametrize("players", [2, 4])
def test_env_order_tensors_and_masks_are_exact(players: int) -> None:
    """Seat to move's tensor and mask at every step (the env's order, where blocks grow by
    one row and pieces are patched) equal the dict-built tensor and the ids-built mask."""
    game = fg.make("bonsai", num_players=players)
    codec = type(game.codec)(game)  # a fresh codec: no tables shared with other tests
    for seed in (5, 6):
        for state, _ in random_game(game, seed):
            seat = state.current_player
            if seat is None:
                break
            expected = codec.tensor_from_observation(state.observation(seat))
            assert np.array_equal(codec.tensor(state, seat), expected), (seed, state)
            assert np.array_equal(codec.mask(state, seat), _expected_mask(game, state, seat))
    assert not any(codec._flags), "the scratch mask buffer is left zeroed"


def test_pruned_tree_tensor_is_rebuilt() -> None:
    """After a prune (a tree that did not grow by one tile) the tensor still equals the
    dict-built one: the block is rebuilt, not patched."""
    game = fg.make("bonsai", num_players=2)
    codec = type(game.codec)(game)
    rng = random.Random(3)
    prunes = 0
    for seed in range(40):
        state = game.new_game(seed=seed)
        while not state.is_terminal and prunes < 3:
            seat = state.current_player
            codec.tensor(state, seat)
            moves = state.legal_moves(seat)
            pruning = [m for m in moves if isinstance(m, Prune)]
            state = state.apply(pruning[0] if pruning else rng.choice(moves))
            if pruning:
                prunes += 1
                for viewer in range(2):
                    expected = codec.tensor_from_observation(state.observation(viewer))
                    assert np.array_equal(codec.tensor(state, viewer), expected)
        if prunes >= 3:
            break
    assert prunes >= 1, "no prune met in these games"


def test_tensor_after_another_games_state() -> None:
    """A tensor patched from a state of another game (other deck, other trees, same seat)
    equals the dict-built one."""
    game = fg.make("bonsai", num_players=2)
    codec = type(game.codec)(game)
    first = [s for s, _ in random_game(game, 1)]
    second = [s for s, _ in random_game(game, 2)]
    rng = random.Random(0)
    for _ in range(60):
        state = rng.choice(rng.choice((first, second)))
        seat = rng.randrange(2)
        expected = codec.tensor_from_observation(state.observation(seat))
        assert np.array_equal(codec.tensor(state, seat), expected)
