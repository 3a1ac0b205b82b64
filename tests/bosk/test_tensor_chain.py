"""Bosk's tensors patched along the chain of positions and its shared masks stay exact."""

from __future__ import annotations

import random

import numpy as np
import pytest

import forestgames as fg
from forestgames.bosk.actions import BoskCodec
from tests.strategies import random_game


def _exact(codec: BoskCodec, state: object, seat: int) -> bool:
    """Whether the seat's tensor equals the one built from its observation dict."""
    expected = codec.tensor_from_observation(state.observation(seat))  # type: ignore[attr-defined]
    return bool(np.array_equal(codec.tensor(state, seat), expected))


@pytest.mark.parametrize("players", [2, 4])
def test_mover_tensors_along_whole_games(players: int) -> None:
    """Asked for the mover at every position (as an environment does), then for every seat
    at the end, each tensor equals the one built from the observation."""
    game = fg.make("bosk", num_players=players)
    codec = BoskCodec(game)
    for seed in (3, 4):
        for state, _ in random_game(game, seed):
            seat = state.current_player if state.current_player is not None else 0
            assert _exact(codec, state, seat), (seed, state)
        for seat in range(players):
            assert _exact(codec, state, seat), (seed, seat)


def test_interleaved_games_and_long_gaps() -> None:
    """Two games stepped in turn (each position far from the one before) and a seat that
    sees the board again only after many positions still get exact tensors."""
    game = fg.make("bosk", num_players=3)
    codec = BoskCodec(game)
    first = [state for state, _ in random_game(game, 5)]
    second = [state for state, _ in random_game(game, 6)]
    for a, b in zip(first, second, strict=False):
        for state in (a, b):
            assert _exact(codec, state, a.current_player or 0), state
    codec = BoskCodec(game)
    assert _exact(codec, first[0], 1)
    for state in first[1:]:
        assert _exact(codec, state, 0), state  # seat 1 falls far behind the chain
    assert _exact(codec, first[-1], 1)


def test_masks_are_shared_and_exact() -> None:
    """Positions with the same legal moves share one read-only mask array, and every mask
    is exactly the legal ids."""
    game = fg.make("bosk", num_players=2)
    codec = BoskCodec(game)
    rng = random.Random(0)
    by_moves: dict[tuple[int, ...], np.ndarray] = {}
    shared = 0
    for state, _ in random_game(game, rng.randrange(100)):
        seat = state.current_player
        if seat is None:
            continue
        mask = codec.mask(state, seat)
        moves = state.legal_moves(seat)
        assert sorted(np.flatnonzero(mask)) == sorted(codec.ids_of(moves)), state
        assert not mask.flags.writeable
        if state.phase != "spring":
            key = tuple(map(id, moves))
            shared += key in by_moves
            assert by_moves.setdefault(key, mask) is mask, state
    assert shared > 0  # the game did repeat some legal sets
