"""Living Forest's patched observation tensors and shared masks against their definitions."""

from __future__ import annotations

import random

import numpy as np
import pytest

import forestgames as fg


def _walk(game: fg.GameBase, seed: int) -> list[tuple[object, int]]:
    """A random game as (state, seat to move) pairs, the end left out."""
    rng, state, walk = random.Random(seed), game.new_game(seed=seed), []
    while not state.is_terminal:
        seat = state.current_player
        walk.append((state, seat))
        state = state.apply(rng.choice(state.legal_moves(seat)))
    return walk


@pytest.mark.parametrize("players", [2, 4])
def test_env_walk_tensors_and_masks_are_exact(players: int) -> None:
    """Seat to move, every step (as an environment reads them): the patched tensor equals
    the one built from the observation and the mask is exactly the legal ids."""
    game = fg.make("living_forest", num_players=players)
    codec = type(game.codec)(game)
    for seed in (5, 6):
        for step, (state, seat) in enumerate(_walk(game, seed)):
            expected = codec.tensor_from_observation(state.observation(seat))
            assert np.array_equal(codec.tensor(state, seat), expected), (seed, step)
            ids = sorted(codec.action_id(move) for move in state.legal_moves(seat))
            assert np.flatnonzero(codec.mask(state, seat)).tolist() == ids, (seed, step)


def test_other_seats_patched_after_many_moves() -> None:
    """A seat's tensor patched from a position many moves back (every third step, a random
    seat) still equals the one built from the observation."""
    game = fg.make("living_forest", num_players=3)
    codec = type(game.codec)(game)
    rng = random.Random(1)
    for state, _ in _walk(game, 9)[::3]:
        seat = rng.randrange(3)
        expected = codec.tensor_from_observation(state.observation(seat))
        assert np.array_equal(codec.tensor(state, seat), expected), state


def test_masks_with_the_same_ids_are_one_read_only_array() -> None:
    """Two positions with the same legal ids (in order) share one read-only mask."""
    game = fg.make("living_forest", num_players=2)
    codec = type(game.codec)(game)
    seen: dict[tuple[int, ...], np.ndarray] = {}
    shared = 0
    for state, seat in _walk(game, 3):
        mask = codec.mask(state, seat)
        key = tuple(codec.legal_ids(state, seat))
        assert not mask.flags.writeable
        assert codec.mask_bytes(state, seat) == mask.tobytes()
        if key in seen:
            assert seen[key] is mask
            shared += 1
        seen[key] = mask
    assert shared > 0
