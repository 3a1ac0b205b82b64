"""PythonStreams behaviours a mutation audit of ``forestgames/bosk/_pystreams.py`` found
unpinned: each test seeds streams the random differential tests rarely draw and checks
them against Python's ``random.Random`` itself, which docs/bosk.md promises they copy
("copies of Python's Mersenne Twister run on numpy arrays")."""

from __future__ import annotations

import random

import numpy as np

from forestgames.bosk._pystreams import PythonStreams


def test_a_stream_seeded_zero_is_random_random_zero():
    """Seed 0 has no nonzero 32-bit word, yet random.Random(0) seeds init_by_array with
    the one-word key [0] (CPython's random_seed keeps at least one word): its stream is
    Random(0)'s, next to seeds 1 and 2**32 (keys [1] and [0, 1]), word by word and in
    randrange(n) draws."""
    seeds = [0, 1, 2**32]
    ours = PythonStreams(seeds)
    theirs = [random.Random(seed) for seed in seeds]
    everyone = np.arange(len(seeds))
    for _ in range(5):
        assert ours.words(everyone).tolist() == [r.getrandbits(32) for r in theirs]
    for n in (1, 2, 3, 6, 1000):
        expected = [r.randrange(n) for r in theirs]
        assert ours.randbelow(everyone, np.full(len(seeds), n)).tolist() == expected
