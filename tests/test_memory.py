"""Long runs hold bounded memory: caches keyed by what a run may vary are bounded, and
tables that depend only on a game's options are shared by its games, not rebuilt each."""

from __future__ import annotations

import gc
import itertools
import random
import tracemalloc
import weakref

import numpy as np
import pytest

import forestgames as fg
from forestgames.boom_bokken import state as bb_state
from forestgames.bosk import scoring as bosk_scoring

NEW_GAME_BUDGET = 150 * 1024
"""Bytes a new game with its codec used (one mask, one tensor) may add. Each Bonsai game
used to add 0.75 MB (its codec's cell tables) and each Boom Bokken game 220 KB (its move
tables); dropped games wait for the cycle collector, so a loop of them piled these up."""


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_a_new_game_and_its_codec_are_small(name: str) -> None:
    """Making games of the same options again and again adds little each time: the codec's
    and the move tables that depend only on the options are shared."""
    first = fg.make(name).new_game(seed=0)
    first.legal_action_mask()
    first.observation_tensor(first.players_to_act[0])
    games = []
    if tracemalloc.is_tracing():
        pytest.skip("tracemalloc is already tracing (python -X tracemalloc)")
    gc.collect()
    gc.disable()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for seed in range(20):
            state = fg.make(name).new_game(seed=seed)
            state.legal_action_mask()
            state.observation_tensor(state.players_to_act[0])
            games.append(state)
        per_game = (tracemalloc.get_traced_memory()[0] - before) / len(games)
    finally:
        tracemalloc.stop()
        gc.enable()
    assert per_game < NEW_GAME_BUDGET, f"{name}: {per_game / 1024:.0f} KB a new game"


def test_winter_scoring_keeps_the_incidence_of_recent_maps_only() -> None:
    """Scoring boards of ever new terrain maps (a map drawn per game) keeps at most
    TERRAIN_CACHE_SIZE maps' tables, and each map's scores are still its own."""
    rng = np.random.default_rng(0)
    top = rng.integers(-1, 2, size=(3, 8, 8))
    first = rng.integers(0, 8, size=(8, 8))
    first_scores = fg.bosk.winter_scores(top, first, 2)
    for _ in range(bosk_scoring.TERRAIN_CACHE_SIZE + 40):
        fg.bosk.winter_scores(top, rng.integers(0, 8, size=(8, 8)), 2)
    info = bosk_scoring._terrain_incidence.cache_info()
    assert info.currsize <= bosk_scoring.TERRAIN_CACHE_SIZE
    np.testing.assert_array_equal(fg.bosk.winter_scores(top, first, 2), first_scores)


def _legal_moves_of_a_random_game(seed: int) -> list[str]:
    state = fg.make("boom_bokken", num_players=5).new_game(seed=seed)
    rng, seen = random.Random(seed), []
    while not state.is_terminal:
        seat = state.players_to_act[0]
        moves = state.legal_moves(seat)
        seen.append(" ".join(map(str, moves)))
        state = state.apply(rng.choice(moves))
    return seen


def test_boom_bokken_card_presence_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache of which cards a hand holds is emptied when full (2**17 patterns exist),
    and the legal moves are the same whether it was emptied or not."""
    expected = _legal_moves_of_a_random_game(3)
    monkeypatch.setattr(bb_state, "CODES_PRESENT_LIMIT", 8)
    bb_state._CODES_PRESENT.clear()
    assert _legal_moves_of_a_random_game(3) == expected
    assert 0 < len(bb_state._CODES_PRESENT) <= 8


CASES = [
    (name, options) for name in fg.GAME_NAMES for options in type(fg.make(name)).conformance_cases()
]


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}-{o}" for n, o in CASES])
def test_played_states_are_not_kept(name: str, options: dict) -> None:
    """Caches hold on to a few states of a game at most once the caller drops them (the
    codecs keep their last positions; a module-level ``functools.cache`` on a function of
    states would keep every one of them), in every conformance case's rules."""
    game = fg.make(name, **options)
    rng, refs = random.Random(5), []
    for seed in itertools.count():
        state = game.new_game(seed=seed)
        refs.append(weakref.ref(state))
        while not state.is_terminal and len(refs) < 150:
            seat = rng.choice(state.players_to_act)
            state = state.apply(rng.choice(state.legal_moves(seat)))
            state.legal_action_mask(seat)
            state.observation_tensor(seat)
            refs.append(weakref.ref(state))
        if len(refs) >= 150:
            break
    del state
    gc.collect()
    alive = sum(ref() is not None for ref in refs)
    assert alive <= 8, f"{alive} of {len(refs)} states still referenced"
