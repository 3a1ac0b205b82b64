"""VectorBosk against the scalar engine: every step, every seat count and option.

Set FORESTGAMES_LONG=1 for a longer differential run (more games per seat count).
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import forestgames as fg
from forestgames.bosk.vector import ActionLayout, VectorBosk
from forestgames.core import ConfigError, IllegalMoveError, derive_seed

LONG = bool(os.environ.get("FORESTGAMES_LONG"))
GAMES = 24 if LONG else 3

OPTIONS = [
    (2, {}),
    (3, {}),
    (4, {}),
    (2, {"squirrel_exactly_three": True, "ties_include_start": False}),
    (3, {"squirrel_exactly_three": True}),
    (
        4,
        {"ties_include_start": False, "terrain": np.random.default_rng(4).integers(0, 8, (12, 12))},
    ),
]


def legal_ids(layout: ActionLayout, state) -> list[int]:
    """The ids of a scalar state's legal moves, sorted."""
    return sorted(layout.action_id(move) for move in state.legal_moves())


def snapshot(vec: VectorBosk) -> list[dict]:
    """Every game's saved form (to compare whole batches)."""
    return [vec.state(i).to_dict() for i in range(vec.batch)]


@pytest.mark.parametrize(("players", "options"), OPTIONS)
def test_vector_games_follow_the_scalar_engine(players, options):
    """Random games in lockstep: after every step each game's state(i) equals the scalar
    state after the same moves, and its mask row holds exactly that state's legal ids."""
    seed = 11 + players
    vec = VectorBosk(players, GAMES, seed, **options)
    states = [vec.game.new_game(seed=derive_seed(seed, i)) for i in range(GAMES)]
    rng = random.Random(seed)
    steps = 0
    while not all(s.is_terminal for s in states):
        mask = vec.legal_action_mask()
        actions = np.zeros(GAMES, dtype=np.int64)
        for i, state in enumerate(states):
            assert vec.state(i) == state
            assert int(vec.current_player[i]) == (
                -1 if state.current_player is None else state.current_player
            )
            assert np.flatnonzero(mask[i]).tolist() == legal_ids(vec.layout, state)
            if not state.is_terminal:
                move = rng.choice(state.legal_moves())
                actions[i] = vec.layout.action_id(move)
                states[i] = state.apply(move)
        vec.step(actions)
        steps += 1
        if steps % 50 == 0:  # a batch rebuilt from states goes on identically
            vec = VectorBosk.from_states([vec.state(i) for i in range(GAMES)])
    for i, state in enumerate(states):
        assert vec.state(i) == state
        assert tuple(vec.scores[i]) == state.scores
        assert (int(vec.winners[i]),) == state.winners
    assert vec.terminated.all() and not vec.legal_action_mask().any()


def test_new_batch_starts_like_new_games():
    """Game i of VectorBosk(p, batch, seed) is game.new_game(seed=derive_seed(seed, i))."""
    vec = VectorBosk(3, 20, seed=123)
    game = fg.make("bosk", num_players=3)
    for i in range(20):
        assert vec.state(i) == game.new_game(seed=derive_seed(123, i))
    vec.reset(7)
    assert vec.state(5) == game.new_game(seed=derive_seed(7, 5))


def test_illegal_id_names_the_game_and_changes_nothing():
    """An illegal id raises IllegalMoveError naming the game; no game of the batch moves."""
    vec = VectorBosk(2, 5, seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        vec.step(vec.random_actions(rng))
    before = snapshot(vec)
    actions = vec.random_actions(rng)
    mask = vec.legal_action_mask()
    bad = int(np.flatnonzero(mask[3] == 0)[0])
    actions[3] = bad
    with pytest.raises(IllegalMoveError, match=rf"game 3: action {bad} "):
        vec.step(actions)
    assert snapshot(vec) == before
    actions[3] = vec.num_actions + 5
    with pytest.raises(IllegalMoveError, match=r"game 3: .*not an id"):
        vec.step(actions)
    for wrong in (actions[:4], actions.astype(float), "north", [[1, 2]]):
        with pytest.raises(IllegalMoveError, match="one per game"):
            vec.step(wrong)
    assert snapshot(vec) == before


def test_bad_construction_is_a_config_error():
    """Bad player counts, batch sizes, options and game indices raise ConfigError."""
    for players, batch in ((5, 2), (2, 0), (2, 1.5), (True, 2)):
        with pytest.raises(ConfigError):
            VectorBosk(players, batch, seed=0)
    with pytest.raises(ConfigError, match="unknown"):
        VectorBosk(2, 2, seed=0, wind="N")
    vec = VectorBosk(2, 2, seed=0)
    for index in (2, -1, "0", 1.0):
        with pytest.raises(ConfigError, match="game index"):
            vec.state(index)
    with pytest.raises(ConfigError, match="same game"):
        VectorBosk.from_states([vec.state(0), fg.make("bosk", num_players=3).new_game(seed=1)])


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_random_playouts_end_in_reachable_finished_games(players, batch, seed):
    """Batched random playouts end every game; each final state(i) is a valid saved state
    (state_from_dict checks the rules' invariants) whose scores and winner the arrays show,
    and the move count is the game's length."""
    vec = VectorBosk(players, batch, seed)
    moves = vec.play_random(seed=seed)
    assert vec.terminated.all()
    assert (vec.current_player == -1).all()
    for i in range(batch):
        state = vec.state(i)
        assert state.is_terminal
        assert tuple(vec.scores[i]) == state.scores
        assert (int(vec.winners[i]),) == state.winners
    assert (moves >= 8 * players + 1 + 2 * 8 * players).all()


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(1, 12), st.integers(0, 2**32 - 1), st.data())
def test_lockstep_random_steps_are_legal_and_round_trip(players, batch, seed, data):
    """Random legal ids stepped in lockstep never raise; at any point the batch rebuilt with
    from_states equals it, and its masks mark exactly one seat's moves per live game."""
    vec = VectorBosk(players, batch, seed)
    rng = np.random.default_rng(seed)
    for _ in range(data.draw(st.integers(0, 300))):
        vec.step(vec.random_actions(rng))
    again = VectorBosk.from_states([vec.state(i) for i in range(batch)])
    assert snapshot(again) == snapshot(vec)
    np.testing.assert_array_equal(again.legal_action_mask(), vec.legal_action_mask())
    mask = vec.legal_action_mask()
    assert (mask.any(axis=1) == ~vec.terminated).all()
    picked = vec.random_actions(rng)
    live = ~vec.terminated
    assert mask[np.arange(batch), picked][live].all()


def test_greedy_playouts_match_scalar_greedy_choices():
    """A greedy playout picks, in every game and step, one of the moves the scalar greedy
    agent considers best (same estimates, ties broken at random)."""
    from forestgames.agents.greedy import margins
    from forestgames.agents.heuristics import evaluate_moves

    vec = VectorBosk(3, 4, seed=5)
    rng = np.random.default_rng(1)
    while not vec.terminated.all():
        actions = vec.greedy_actions(rng)
        for i in range(vec.batch):
            if vec.terminated[i]:
                continue
            state = vec.state(i)
            moves = state.legal_moves()
            gain = margins(evaluate_moves(state, moves), state.current_player)
            best = {vec.layout.action_id(m) for m, g in zip(moves, gain, strict=True)
                    if g == gain.max()}  # fmt: skip
            assert int(actions[i]) in best
        vec.step(actions)
