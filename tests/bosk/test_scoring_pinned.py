"""Scoring-kernel behaviours a mutation audit of ``forestgames/bosk/scoring.py`` found
unpinned: the compiled path's switch and threshold (docs/bosk.md, "Compiled path"), its
range checks on wide dtypes, and the kernels' messages."""

from __future__ import annotations

import numpy as np
import pytest

from forestgames.bosk import DEFAULT_TERRAIN, scoring, summer_scores, winter_scores
from forestgames.bosk.scoring import compiled_kernels
from forestgames.core import ConfigError, StateError

try:
    from forestgames.bosk import _numba
except ImportError:  # pragma: no cover - the fast extra is not installed
    _numba = None

needs_numba = pytest.mark.skipif(_numba is None, reason="numba (the fast extra) is not installed")


@pytest.fixture
def restore_switch():
    """Leave the compiled path switched as it was."""
    before = compiled_kernels()
    yield
    compiled_kernels(before)


@needs_numba
def test_compiled_kernels_is_on_with_numba_and_switches(restore_switch):
    """With numba importable the compiled path is on; compiled_kernels() only reads the
    switch, compiled_kernels(False) turns it off until compiled_kernels(True)."""
    compiled_kernels(True)
    assert compiled_kernels() is True
    assert compiled_kernels() is True  # reading does not switch it
    assert compiled_kernels(False) is False
    assert compiled_kernels() is False
    assert compiled_kernels(True) is True
    assert compiled_kernels() is True


@needs_numba
def test_calls_of_1024_boards_or_more_run_compiled(monkeypatch, restore_switch):
    """docs/bosk.md: calls of 1,024 boards or more (over all leading axes) run through the
    compiled kernels, smaller ones stay on numpy; switched off, none does."""
    calls = []
    for name in ("summer", "winter"):
        kernel = getattr(_numba, name)
        monkeypatch.setattr(_numba, name, lambda *a, k=kernel, n=name: calls.append(n) or k(*a))
    compiled_kernels(True)
    owner = np.full((2, 512, 7, 7), -1, np.int8)
    top = np.full((2, 512, 8, 8), -1, np.int8)
    terrain = DEFAULT_TERRAIN[8]
    summer_scores(owner.reshape(-1, 7, 7)[:1023], np.zeros((1023, 7, 7), np.int8), 2)
    winter_scores(top.reshape(-1, 8, 8)[:1023], terrain, 2)
    assert calls == []
    summer_scores(owner, np.zeros_like(owner), 2)
    winter_scores(top, terrain, 2)
    assert calls == ["summer", "winter"]
    compiled_kernels(False)
    summer_scores(owner, np.zeros_like(owner), 2)
    winter_scores(top, terrain, 2)
    assert calls == ["summer", "winter"]


@needs_numba
@pytest.mark.parametrize("dtype", [np.int16, np.int64])
def test_compiled_path_refuses_seats_and_values_that_wrap_to_int8(dtype, restore_switch):
    """The compiled kernels read int8 cells: an owner, value or top of 256 (0 as int8) in a
    wider dtype is still a StateError naming the cell, never a seat-0 tree or leaf."""
    compiled_kernels(True)
    boards = scoring.COMPILED_MIN_BOARDS
    owner = np.full((boards, 7, 7), -1, dtype)
    value = np.zeros((boards, 7, 7), dtype)
    owner[700, 1, 2], value[700, 1, 2] = 256, 2
    with pytest.raises(StateError, match=r"owner\[700, 1, 2\] = 256: seats"):
        summer_scores(owner, value, 2)
    owner[700, 1, 2], value[700, 1, 2] = 0, 256 + 2
    with pytest.raises(StateError, match=r"value\[700, 1, 2\] = 258: tree values"):
        summer_scores(owner, value, 2)
    top = np.full((boards, 8, 8), -1, dtype)
    top[900, 3, 4] = 256
    with pytest.raises(StateError, match=r"top\[900, 3, 4\] = 256: seats"):
        winter_scores(top, DEFAULT_TERRAIN[8], 2)


def test_a_bad_player_count_is_named_in_the_message():
    """A num_players that is no int is named (its repr, cut to 57 characters and "...")."""
    owner, value = np.full((7, 7), -1), np.zeros((7, 7), int)
    with pytest.raises(ConfigError, match=r"num_players must be an int 2\.\.4, not '3'$"):
        summer_scores(owner, value, "3")
    long = "x" * 70  # repr: 72 characters
    message = rf"not '{'x' * 56}\.\.\.$"
    with pytest.raises(ConfigError, match=message):
        winter_scores(np.full((8, 8), -1), DEFAULT_TERRAIN[8], long)
    exact = "y" * 58  # repr: 60 characters, kept whole
    with pytest.raises(ConfigError, match=rf"not '{exact}'$"):
        summer_scores(owner, value, exact)
