"""VectorBosk's fast random playouts (forestgames.bosk._vector_random) against the scalar engine."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from forestgames.bosk import _vector_random as fast
from forestgames.bosk.vector import VectorBosk
from tests.bosk.helpers import uniform_outcomes


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {"squirrel_exactly_three": True}),
        (4, {"ties_include_start": False, "squirrel_passes_squirrels": False}),
    ],
)
def test_fast_turns_are_scalar_legal_moves(players, options, monkeypatch):
    """Every planting and whole autumn turn the fast path plays is legal: after each, each
    game's state(i) is one the scalar engine reaches from the state before by one planting
    or one whole turn of legal moves; the final scores and winners are the scalar ones."""
    vec = VectorBosk(players, 3, seed=5, **options)
    turns = {"plant": fast.plant_random, "turn": fast.play_random_turns}
    calls = Counter()

    def checked(kind):
        def run(v, games, choices, moves):
            before = {g: v.state(g) for g in games.tolist()}
            turns[kind](v, games, choices, moves)
            calls[kind] += 1
            for g, state in before.items():
                assert v.state(g) in reachable(state, kind), f"game {g}: {kind} not legal"

        return run

    import forestgames.bosk.vector as vector_module

    monkeypatch.setattr(vector_module, "plant_random", checked("plant"))
    monkeypatch.setattr(vector_module, "play_random_turns", checked("turn"))
    vec.play_random(seed=9)
    assert calls == {"plant": 8 * players, "turn": 8 * players}
    for i in range(vec.batch):
        state = vec.state(i)
        assert state.is_terminal
        assert tuple(vec.scores[i]) == state.scores and (int(vec.winners[i]),) == state.winners


def reachable(state, kind):
    """Every state one planting ("plant") or one whole autumn turn ("turn") away."""
    if kind == "plant":
        return {state.apply(move) for move in state.legal_moves()}
    frontier, done = [state], set()
    seat = state.current_player
    while frontier:
        nxt = []
        for s in frontier:
            for move in s.legal_moves():
                after = s.apply(move)
                if after.is_terminal or after.current_player != seat or after.phase.value == "tree":
                    done.add(after)
                else:
                    nxt.append(after)
        frontier = nxt
    return done


def test_fast_choices_are_uniform_per_decision():
    """Over many games from one position, the fast path's first autumn decisions (tree, tile,
    first leaf) are uniform over the scalar legal moves (chi-square, fixed seeds)."""
    vec = VectorBosk(2, 1, seed=3)
    rng = np.random.default_rng(0)
    while vec.state(0).phase.value != "tree":
        vec.step(vec.random_actions(rng))
    start = vec.state(0)
    games = 3000
    batch = VectorBosk.from_states([start] * games)
    moves = np.zeros(games, dtype=np.int64)
    fast.play_random_turns(batch, np.arange(games), fast.NumpyChoices(rng), moves)
    after = Counter(batch.state(i) for i in range(games))
    expected = uniform_outcomes(start, key=lambda state: state)
    assert set(after) <= set(expected)
    chi2 = sum((after[s] - games * p) ** 2 / (games * p) for s, p in expected.items())
    dof = len(expected) - 1
    assert chi2 < dof + 6 * (2 * dof) ** 0.5, (chi2, dof)
