"""Scoring-kernel behaviours a mutation audit of ``forestgames/bosk/scoring.py`` found
unpinned: the compiled path's switch and threshold (docs/bosk.md, "Compiled path"), its
range checks on wide dtypes, and the kernels' messages."""

from __future__ import annotations

import numpy as np
import pytest

import forestgames as fg
from forestgames.bosk import (
    DEFAULT_TERRAIN,
    placement_points,
    scoring,
    summer_scores,
    winter_scores,
)
from forestgames.bosk.scoring import compiled_kernels
from forestgames.core import ConfigError, StateError
from tests.bosk.helpers import kernel_path, needs_numba


@pytest.fixture
def restore_switch():
    """Leave the compiled path switched as it was."""
    before = compiled_kernels()
    yield
    compiled_kernels(before)


@needs_numba
def test_compiled_kernels_is_on_with_numba_and_switches(restore_switch):
    """With numba importable the compiled path is on from the start (every test that
    switches it switches it back); compiled_kernels() only reads the switch,
    compiled_kernels(False) turns it off until compiled_kernels(True)."""
    assert compiled_kernels() is True
    assert compiled_kernels() is True  # reading does not switch it
    assert compiled_kernels(False) is False
    assert compiled_kernels() is False
    assert compiled_kernels(True) is True
    assert compiled_kernels() is True


@needs_numba
def test_calls_of_1024_boards_or_more_run_compiled(monkeypatch):
    """docs/bosk.md: calls of 1,024 boards or more (over all leading axes) run through the
    compiled kernels, smaller ones stay on numpy; switched off, none does."""
    from forestgames.bosk import _numba

    calls = []
    for name in ("summer", "winter"):
        kernel = getattr(_numba, name)
        monkeypatch.setattr(_numba, name, lambda *a, k=kernel, n=name: calls.append(n) or k(*a))
    owner = np.full((2, 512, 7, 7), -1, np.int8)
    top = np.full((2, 512, 8, 8), -1, np.int8)
    terrain = DEFAULT_TERRAIN[8]
    with kernel_path(True):
        summer_scores(owner.reshape(-1, 7, 7)[:1023], np.zeros((1023, 7, 7), np.int8), 2)
        winter_scores(top.reshape(-1, 8, 8)[:1023], terrain, 2)
        assert calls == []
        summer_scores(owner, np.zeros_like(owner), 2)
        winter_scores(top, terrain, 2)
        assert calls == ["summer", "winter"]
    with kernel_path(False):
        summer_scores(owner, np.zeros_like(owner), 2)
        winter_scores(top, terrain, 2)
    assert calls == ["summer", "winter"]


@needs_numba
@pytest.mark.parametrize("dtype", [np.int16, np.int64])
def test_compiled_path_refuses_seats_and_values_that_wrap_to_int8(dtype):
    """The compiled kernels read int8 cells: an owner, value or top of 256 (0 as int8) in a
    wider dtype is still a StateError naming the cell, never a seat-0 tree or leaf."""
    boards = scoring.COMPILED_MIN_BOARDS
    owner = np.full((boards, 7, 7), -1, dtype)
    value = np.zeros((boards, 7, 7), dtype)
    owner[700, 1, 2], value[700, 1, 2] = 256, 2
    top = np.full((boards, 8, 8), -1, dtype)
    top[900, 3, 4] = 256
    with kernel_path(True):
        with pytest.raises(StateError, match=r"owner\[700, 1, 2\] = 256: seats"):
            summer_scores(owner, value, 2)
        owner[700, 1, 2], value[700, 1, 2] = 0, 256 + 2
        with pytest.raises(StateError, match=r"value\[700, 1, 2\] = 258: tree values"):
            summer_scores(owner, value, 2)
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


def test_summer_totals_past_255_points_on_a_large_board():
    """Any N: on a 90x90 board filled by one seat every one of the 90 rows and 90 columns
    is that seat's alone (sole, 3 each): 180 * 3 = 540 points, past a byte, in each board
    of a (2, 1) batch (seat 0's 1s in one, seat 1's 4s in the other)."""
    owner = np.zeros((2, 1, 90, 90), np.int8)
    value = np.ones((2, 1, 90, 90), np.int8)
    owner[1], value[1] = 1, 4
    assert summer_scores(owner, value, 2).tolist() == [[[540, 0]], [[0, 540]]]


@needs_numba
def test_totals_of_256_stay_off_the_compiled_bytes():
    """The compiled kernels sum each seat in 8 bits: a terrain type of 256 squares (a 16x16
    map of one type) must not go there. 1,024 boards covered by seat 0, one by seat 1 in
    their middle: seat 0 alone holds the type in the first (sole, 8), seat 0 leads 255 to 1
    in the second (first 5, second 3)."""
    top = np.zeros((scoring.COMPILED_MIN_BOARDS, 16, 16), np.int8)
    top[1, 8, 8] = 1
    with kernel_path(True):
        scores = winter_scores(top, np.zeros((16, 16), np.int8), 2)
    assert scores[0].tolist() == [8, 0] and scores[1].tolist() == [5, 3]
    assert (scores[2:] == [8, 0]).all()


@needs_numba
def test_line_totals_of_256_stay_off_the_compiled_bytes(monkeypatch):
    """The compiled kernels sum each seat in 8 bits: 64x64 intersections (a row of 4s sums
    to 256) must not go there, whatever the batch. With the threshold lowered to 1 board:
    seat 0's 4s everywhere but seat 1's 4 at (5, 5): 126 lines seat 0's alone (3 each) and
    row 5 and column 5 won 252 to 4 (first 2, second 1): [126 * 3 + 2 * 2, 2] = [382, 2]."""
    monkeypatch.setattr(scoring, "COMPILED_MIN_BOARDS", 1)
    owner, value = np.zeros((1, 64, 64), np.int8), np.full((1, 64, 64), 4, np.int8)
    owner[0, 5, 5] = 1
    with kernel_path(True):
        assert summer_scores(owner, value, 2).tolist() == [[382, 2]]


def test_boards_too_large_to_score_exactly_are_refused():
    """The numpy path packs 4 seats' totals in a float64's 53 bits: with 4 players a line
    of 2048 intersections (up to 8192 = 2**13, 14 bits a seat) or a terrain type of
    91 * 91 = 8281 squares is refused with a StateError; a type of 90 * 90 = 8100 squares
    (13 bits) scores, seat 0 alone on it: 8."""
    owner = np.full((2048, 2048), -1, np.int8)
    with pytest.raises(StateError, match="boards of 2048x2048 intersections are too large"):
        summer_scores(owner, np.zeros_like(owner), 4)
    with pytest.raises(StateError, match="a terrain type of 8281 squares is too large"):
        winter_scores(np.zeros((91, 91), np.int8), np.zeros((91, 91), np.int8), 4)
    tops = np.zeros((90, 90), np.int8)
    assert winter_scores(tops, tops, 4).tolist() == [8, 0, 0, 0]


def test_plain_scores_names_a_missing_place():
    """plain_scores' points must map each of the 5 places: one left out is a ConfigError
    naming it (a KeyError from deep inside otherwise)."""
    points = {"sole": 3, "first": 2, "second": 1, "tied_first": 1}
    with pytest.raises(ConfigError, match=r"points has no 'tied_second' \(needs"):
        fg.bosk.plain_scores([[(0, 1)]], 2, points)


def test_plain_scores_takes_only_seat_amount_pairs():
    """Each entry of a contest is a (seat, amount) pair: a triple is a ConfigError naming
    the contest (it was read as its first two items otherwise)."""
    with pytest.raises(ConfigError, match=r"lines\[1\] entries are \(seat, amount\) pairs"):
        fg.bosk.plain_scores([[(0, 1)], [(0, 1, 2)]], 2, scoring.SUMMER_POINTS)


@pytest.mark.parametrize("bad", [5, -1])
def test_plain_board_scores_refuses_tree_values_outside_1_to_4(bad):
    """plain_board_scores checks its board as summer_scores does: a tree of value 5 or -1
    is a StateError naming the cell, not a score."""
    owner, value = np.zeros((3, 3), int), np.ones((3, 3), int)
    value[1, 2] = bad
    with pytest.raises(StateError, match=rf"value\[1, 2\] = {bad}: tree values must be 0\.\.4"):
        scoring.plain_board_scores(owner, value, np.full((4, 4), -1), np.zeros((4, 4), int), 2)


def test_placement_points_take_any_32_bit_points():
    """Points are any ints of 32 bits, -2**31 .. 2**31 - 1 both ends included; one past
    either end is a ConfigError. [3, 1]: seat 0 first, seat 1 second."""
    top, low = 2**31 - 1, -(2**31)
    assert placement_points([[3, 1]], top, low, 3, 1, 0).tolist() == [top, low]
    for bad in (top + 1, low - 1):
        with pytest.raises(ConfigError, match="first must fit in 32 bits"):
            placement_points([[3, 1]], bad, 1, 3, 1, 0)


@pytest.mark.parametrize(
    ("lines", "points", "message"),
    [
        (5, scoring.SUMMER_POINTS, "lines must be a sequence, not 5"),
        ({0: [(0, 1)]}, scoring.SUMMER_POINTS, r"lines must be a sequence, not \{0: "),
        ([{(0, 1)}], scoring.SUMMER_POINTS, r"lines\[0\] must be a sequence, not \{"),
        ([[(0, 1)]], [3, 2, 1, 1, 0], r"points must be a mapping, not \[3, 2"),
    ],
)
def test_plain_scores_names_what_is_not_a_sequence_or_mapping(lines, points, message):
    """plain_scores' lines and each contest are sequences (a dict or a set is not, though
    iterable), and its points a mapping: anything else is a ConfigError naming it."""
    with pytest.raises(ConfigError, match=message):
        fg.bosk.plain_scores(lines, 2, points)


def test_plain_board_scores_takes_one_board_only():
    """plain_board_scores scores one board: owner or top with a batch axis (the other one
    2-D) is a StateError, not a score."""
    owner, value = np.zeros((1, 3, 3), int), np.ones((1, 3, 3), int)
    top, terrain = np.full((4, 4), -1), np.zeros((4, 4), int)
    with pytest.raises(StateError, match="plain_board_scores scores one board"):
        scoring.plain_board_scores(owner, value, top, terrain, 2)
    with pytest.raises(StateError, match="plain_board_scores scores one board"):
        scoring.plain_board_scores(owner[0], value[0], top[None], terrain, 2)


def test_totals_of_256_on_the_numpy_path():
    """A total of 256 needs more than a byte on the numpy path too (one board, so no
    compiled kernel): a 16x16 terrain type covered by seat 0 is seat 0's alone (sole, 8);
    a 64x64 board of seat 0's 4s has 128 lines of 256 each seat 0's alone (3 each: 384)."""
    top = np.zeros((16, 16), np.int8)
    assert winter_scores(top, top, 2).tolist() == [8, 0]
    owner, value = np.zeros((64, 64), np.int8), np.full((64, 64), 4, np.int8)
    assert summer_scores(owner, value, 2).tolist() == [384, 0]


def test_a_misplaced_value_is_found_when_the_counts_balance():
    """A value on an empty intersection and a tree of value 0 elsewhere: as many values as
    trees, yet the board is bad: StateError naming the value without a tree (numpy path)."""
    owner, value = np.full((4, 4), -1, np.int8), np.zeros((4, 4), np.int8)
    owner[0, 0] = 0  # a tree without a value
    value[1, 1] = 3  # a value without a tree
    with pytest.raises(StateError, match=r"value\[1, 1\] = 3 but owner there is -1"):
        summer_scores(owner, value, 2)


@pytest.mark.parametrize("seat", [2, -2])
def test_plain_board_scores_refuses_seats_outside_the_game(seat):
    """plain_board_scores checks seats as summer_scores and winter_scores do: in a 2-player
    game an owner of 2 (with a tree value, so nothing else is wrong) or -2 (value 0), or a
    top of 2 or -2, is a StateError naming the cell, not a score."""
    owner, value = np.full((3, 3), -1), np.zeros((3, 3), int)
    top, terrain = np.full((4, 4), -1), np.zeros((4, 4), int)
    owner[2, 1], value[2, 1] = seat, 3 if seat >= 0 else 0
    with pytest.raises(StateError, match=rf"owner\[2, 1\] = {seat}: seats of a 2-player game"):
        scoring.plain_board_scores(owner, value, top, terrain, 2)
    owner[2, 1], value[2, 1] = -1, 0
    top[3, 0] = seat
    with pytest.raises(StateError, match=rf"top\[3, 0\] = {seat}: seats of a 2-player game"):
        scoring.plain_board_scores(owner, value, top, terrain, 2)


def test_a_terrain_type_of_65536_squares_scores():
    """Past two bytes on the numpy path: a 256x256 board of one terrain type (65,536
    squares, 17 bits a seat, 34 for 2 players: it fits) covered by seat 0 is seat 0's alone
    (sole, 8), not a total read as 0."""
    top = np.zeros((256, 256), np.int8)
    assert winter_scores(top, top, 2).tolist() == [8, 0]
