"""The numpy copies of Python's random.Random that let VectorBosk replay the scalar agents."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from forestgames.bosk._pystreams import PythonStreams


@settings(max_examples=10, deadline=None)
@given(
    st.lists(st.integers(0, 2**64), min_size=1, max_size=6),
    st.integers(0, 2**32 - 1),
    st.sampled_from([2, 3, 9, 130, 1000]),
)
def test_randbelow_draws_what_random_randrange_draws(seeds, order_seed, largest):
    """Streams seeded like random.Random(seed) give randrange(n)'s numbers, draw for draw,
    whatever subset of streams draws each time, past several regenerations of the state."""
    ours = PythonStreams(seeds)
    theirs = [random.Random(seed) for seed in seeds]
    rng = np.random.default_rng(order_seed)
    for _ in range(700):
        streams = np.flatnonzero(rng.random(len(seeds)) < 0.8)
        n = rng.integers(1, largest, len(streams))
        expected = [theirs[s].randrange(int(k)) for s, k in zip(streams, n, strict=True)]
        assert ours.randbelow(streams, n).tolist() == expected


def test_words_are_the_mersenne_twister_outputs():
    """words() returns random.Random.getrandbits(32), 32-bit word by word."""
    ours = PythonStreams([7, 2**40 + 3])
    theirs = [random.Random(7), random.Random(2**40 + 3)]
    for _ in range(1300):
        assert ours.words(np.array([0, 1])).tolist() == [r.getrandbits(32) for r in theirs]
