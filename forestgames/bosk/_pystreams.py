"""Many copies of Python's ``random.Random`` at once: MT19937 on numpy arrays.

``PythonStreams(seeds)`` holds one Mersenne Twister per seed, seeded exactly
as ``random.Random(seed)`` is (``init_by_array`` over the seed's 32-bit words),
and ``randbelow(streams, n)`` draws what ``random.Random.randrange(n)`` and
``.choice`` of a length-n sequence draw: ``k = n.bit_length()`` top bits of the
next 32-bit word, again while the result is >= n. So a batch of games can follow
the very random streams the scalar agents use, draw for draw.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["PythonStreams"]

_N, _M = 624, 397
_PEEK = 4  # words tried at once per draw
_MATRIX, _UPPER, _LOWER = np.uint32(0x9908B0DF), np.uint32(0x80000000), np.uint32(0x7FFFFFFF)


def _genrand_base() -> np.ndarray:
    """``init_genrand(19650218)``: the state every ``init_by_array`` starts from."""
    mt = np.zeros(_N, dtype=np.uint64)
    mt[0] = 19650218
    for i in range(1, _N):
        mt[i] = (1812433253 * (int(mt[i - 1]) ^ (int(mt[i - 1]) >> 30)) + i) & 0xFFFFFFFF
    return mt.astype(np.uint32)


_BASE = _genrand_base()


def _keys(seeds: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Each seed's 32-bit words, low first (at least one word), and how many there are."""
    words = []
    for seed in seeds:
        value, key = abs(int(seed)), []
        while value:
            key.append(value & 0xFFFFFFFF)
            value >>= 32
        words.append(key or [0])
    width = max(len(key) for key in words)
    table = np.zeros((len(words), width), dtype=np.uint32)
    for row, key in enumerate(words):
        table[row, : len(key)] = key
    return table, np.array([len(key) for key in words], dtype=np.int64)


def _init_by_array(keys: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """(S, 624) states of ``init_by_array(key)`` for S keys, one numpy pass per step."""
    count = len(lengths)
    mt = np.tile(_BASE, (count, 1))
    rows = np.arange(count)
    i, j = 1, np.zeros(count, dtype=np.int64)
    for _ in range(max(_N, int(lengths.max(initial=1)))):
        prev = mt[:, i - 1]
        mixed = (mt[:, i] ^ ((prev ^ (prev >> np.uint32(30))) * np.uint32(1664525))).astype(
            np.uint32
        )
        mt[:, i] = mixed + keys[rows, j] + j.astype(np.uint32)
        i += 1
        j += 1
        if i >= _N:
            mt[:, 0] = mt[:, _N - 1]
            i = 1
        j[j >= lengths] = 0
    for _ in range(_N - 1):
        prev = mt[:, i - 1]
        mixed = mt[:, i] ^ ((prev ^ (prev >> np.uint32(30))) * np.uint32(1566083941))
        mt[:, i] = mixed - np.uint32(i)
        i += 1
        if i >= _N:
            mt[:, 0] = mt[:, _N - 1]
            i = 1
    mt[:, 0] = 0x80000000
    return mt


def _twist(mt: np.ndarray) -> None:
    """Regenerate the 624 words of each state row (G, 624) in place, as genrand does."""

    def mix(low: int, high: int, source: np.ndarray) -> None:
        y = (mt[:, low:high] & _UPPER) | (mt[:, low + 1 : high + 1] & _LOWER)
        mt[:, low:high] = source ^ (y >> np.uint32(1)) ^ ((y & np.uint32(1)) * _MATRIX)

    mix(0, _N - _M, mt[:, _M:_N].copy())  # reads words not yet regenerated
    mix(_N - _M, 2 * (_N - _M), mt[:, : _N - _M].copy())  # reads the new first block
    mix(2 * (_N - _M), _N - 1, mt[:, _N - _M : _M - 1].copy())
    y = (mt[:, _N - 1] & _UPPER) | (mt[:, 0] & _LOWER)
    mt[:, _N - 1] = mt[:, _M - 1] ^ (y >> np.uint32(1)) ^ ((y & np.uint32(1)) * _MATRIX)


def _temper(y: np.ndarray) -> np.ndarray:
    y = y ^ (y >> np.uint32(11))
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    return np.asarray(y ^ (y >> np.uint32(18)))


class PythonStreams:
    """``random.Random(seed)`` for each of ``seeds``, drawn from in vectorised calls."""

    def __init__(self, seeds: Sequence[int]) -> None:
        self.state = _init_by_array(*_keys(seeds))
        self.index = np.full(len(seeds), _N, dtype=np.int64)

    def words(self, streams: np.ndarray) -> np.ndarray:
        """The next 32-bit output of each of ``streams`` (distinct stream numbers)."""
        spent = streams[self.index[streams] >= _N]
        if len(spent):
            block = self.state[spent]
            _twist(block)
            self.state[spent] = block
            self.index[spent] = 0
        y = self.state[streams, self.index[streams]]
        self.index[streams] += 1
        return _temper(y)

    def randbelow(self, streams: np.ndarray, n: np.ndarray) -> np.ndarray:
        """``random.Random.randrange(n)`` for each stream (each n >= 1; distinct streams).

        Each stream's next few words are tried at once (a draw that is too
        large is followed by the next word, as in Python); only the rare
        stream that rejects them all, or is near the end of its 624 words,
        goes on one word at a time.
        """
        n = np.asarray(n, dtype=np.int64)
        bits = np.frexp(n.astype(np.float64))[1].astype(np.int64)  # n.bit_length()
        result = np.empty(len(streams), dtype=np.int64)
        ahead = np.flatnonzero(self.index[streams] <= _N - _PEEK)
        if len(ahead):
            chosen = streams[ahead]
            cells = self.index[chosen][:, None] + np.arange(_PEEK)
            draws = _temper(self.state[chosen[:, None], cells]).astype(np.int64)
            draws >>= (32 - bits[ahead])[:, None]
            fits = draws < n[ahead][:, None]
            first = np.argmax(fits, axis=1)
            found = fits[np.arange(len(ahead)), first]
            self.index[chosen] += np.where(found, first + 1, _PEEK)
            result[ahead[found]] = draws[np.flatnonzero(found), first[found]]
            todo = np.setdiff1d(np.arange(len(streams)), ahead[found], assume_unique=True)
        else:
            todo = np.arange(len(streams))
        while len(todo):
            draw = self.words(streams[todo]).astype(np.int64) >> (32 - bits[todo])
            fits = draw < n[todo]
            result[todo[fits]] = draw[fits]
            todo = todo[~fits]
        return result
