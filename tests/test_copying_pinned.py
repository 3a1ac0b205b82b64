"""Copies, pickles and sharing of the objects a user can reach: a copy plays on as the
original does, and nothing a copy or a call hands out changes the original."""

import copy
import pickle

import numpy as np
import pytest

import forestgames as fg

DUPLICATES = {
    "deepcopy": copy.deepcopy,
    "pickle 2": lambda value: pickle.loads(pickle.dumps(value, protocol=2)),
    "pickle 5": lambda value: pickle.loads(pickle.dumps(value, protocol=5)),
}


@pytest.mark.parametrize("duplicate", DUPLICATES.values(), ids=DUPLICATES.keys())
@pytest.mark.parametrize("players", [2, 4])
def test_a_copied_vector_bosk_plays_out_as_the_original(duplicate, players):
    """A VectorBosk deep-copied or pickled mid-run plays the same random playout from the
    same seed as the original (a copy's leaf costs were cut off from the copy of the
    array its leaf walks read, so its leaves went by the costs of the moment of copying)."""
    vec = fg.bosk.VectorBosk(num_players=players, batch=6, seed=5)
    rng = np.random.default_rng(1)
    for _ in range(30):
        vec.step(vec.random_actions(rng))
    twin = duplicate(vec)
    np.testing.assert_array_equal(twin.play_random(seed=9), vec.play_random(seed=9))
    np.testing.assert_array_equal(twin.scores, vec.scores)
    assert [twin.state(i) for i in range(6)] == [vec.state(i) for i in range(6)]
