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


OPENBLAS_THREADING_WORK = 65536 * 4
"""OpenBLAS's interface/gemm.c runs a product of this many multiply-adds (M * N * K) or more on
a thread per core: 65536 times its GEMM_MULTITHREAD_THRESHOLD, 4 in numpy's wheels."""


@pytest.mark.parametrize(
    ("players", "boards", "n"), [(2, 1000, 7), (4, 1000, 11), (2, 3, 41)], ids=str
)
def test_scoring_products_stay_below_blas_threading(monkeypatch, players, boards, n):
    """docs/bosk.md, BLAS threads: the numpy path's products are cut into slices of boards
    below OpenBLAS's threshold, so each runs on the calling thread. Every matmul of a call
    of ``boards`` boards (below 1,024: numpy path) has M * N * K < 4 * 65536, and the slices
    cover every board. 2 players, 7x7 intersections: summer (14, 49) x (49, b) in slices of
    382 boards (382 * 686 = 262,052), winter (8, 64) x (64, b) of 511 (511 * 512 = 261,632;
    512 boards would be 262,144, not below); 41x41: 2 * 41**3 = 137,842 a board, one board a
    slice (two would be 275,684)."""
    works, widths = [], []
    matmul = np.matmul

    def recording(a, b, *args, **kwargs):
        works.append(a.shape[0] * a.shape[1] * b.shape[1])
        widths.append(b.shape[1])
        return matmul(a, b, *args, **kwargs)

    monkeypatch.setattr(np, "matmul", recording)
    owner = np.zeros((boards, n, n), np.int8)
    summer_scores(owner, np.ones_like(owner), players)
    assert sum(widths) == boards and max(works) < OPENBLAS_THREADING_WORK
    works.clear()
    widths.clear()
    top = np.zeros((boards, n + 1, n + 1), np.int8)
    winter_scores(top, np.zeros((n + 1, n + 1), np.int8), players)
    assert sum(widths) == boards and max(works) < OPENBLAS_THREADING_WORK


def test_placement_points_of_one_seat_and_of_none():
    """placement_points takes P >= 1 seats and any K: with one seat, a contest it is in is
    its alone (sole: 3) and a contest of total 0 gives nothing, [[3], [0]] -> [3]; no
    contest (K = 0) gives each seat 0; P = 0 (totals of shape (2, 0)) is a StateError
    naming the shape, not a TypeError from an empty reduce."""
    assert placement_points([[3], [0]], 2, 1, 3, 1, 0).tolist() == [3]
    assert placement_points(np.zeros((0, 2), np.int64), 2, 1, 3, 1, 0).tolist() == [0, 0]
    with pytest.raises(StateError, match=r"\(\.\.\., K, P\) with P >= 1, got \(2, 0\)"):
        placement_points(np.zeros((2, 0), np.int64), 2, 1, 3, 1, 0)


def test_an_empty_terrain_map_is_refused():
    """A terrain map is S x S with S >= 1: a 0 x 0 map is a StateError naming its shape, in
    winter_scores (with a 0 x 0 top) and in render_terrain, not 0 points or an empty map."""
    empty = np.zeros((0, 0), np.int8)
    message = r"terrain must have shape \(S, S\) with S >= 1, got \(0, 0\)"
    with pytest.raises(StateError, match=message):
        winter_scores(empty, empty, 2)
    with pytest.raises(StateError, match=message):
        fg.bosk.render_terrain(empty)


def test_a_3_player_terrain_type_of_2_to_the_17_squares_is_refused():
    """The numpy path packs 3 seats' counts in a float64's 53 bits of mantissa: a terrain type
    of 363 * 363 = 131,769 squares (2**17 <= 131,769 < 2**18: 18 bits a seat, 54 for 3
    seats) is refused with a StateError; summed anyway, seat 0's 1 square beside seat 2's
    131,768 would be lost to rounding (131,768 * 2**36 >= 2**53)."""
    top = np.full((363, 363), 2, np.int8)
    top[0, 0] = 0
    with pytest.raises(StateError, match="a terrain type of 131769 squares is too large"):
        winter_scores(top, np.zeros((363, 363), np.int8), 3)


def test_placement_points_rank_totals_of_1():
    """A total of 1 is in the contest (only 0 is not): with summer's points (first 2,
    second 1, sole 3, tied_first 1, tied_second 0), [1, 0] is seat 0's alone (3), [1, 1] a
    tie for first (1 each), [2, 1] seat 0 first and seat 1 second (2 and 1): [6, 2]."""
    totals = [[1, 0], [1, 1], [2, 1]]
    assert placement_points(totals, 2, 1, 3, 1, 0).tolist() == [6, 2]


def test_a_bad_array_names_its_first_bad_cell():
    """docs/bosk.md: a bad array raises StateError naming the first bad cell (row-major):
    owner with seats 7 at [0, 3] and 5 at [2, 1] names [0, 3]; top with 4 at [1, 1] and 9
    at [5, 0] names [1, 1]; terrain with 8 at [0, 2] and -1 at [3, 3] names [0, 2]."""
    owner, value = np.full((7, 7), -1, np.int8), np.zeros((7, 7), np.int8)
    owner[0, 3], owner[2, 1] = 7, 5
    value[0, 3], value[2, 1] = 2, 2
    with pytest.raises(StateError, match=r"^owner\[0, 3\] = 7: seats"):
        summer_scores(owner, value, 2)
    top, terrain = np.full((8, 8), -1, np.int8), DEFAULT_TERRAIN[8].copy()
    top[1, 1], top[5, 0] = 4, 9
    with pytest.raises(StateError, match=r"^top\[1, 1\] = 4: seats"):
        winter_scores(top, terrain, 2)
    terrain[0, 2], terrain[3, 3] = 8, -1
    with pytest.raises(StateError, match=r"^terrain\[0, 2\] = 8: terrain ids"):
        winter_scores(np.full((8, 8), -1, np.int8), terrain, 2)


def test_plain_scores_amounts_of_0_are_not_in_the_contest_and_below_0_refused():
    """plain_scores' entries are (seat, amount) with amount >= 0, and a total of 0 is not
    in the contest (docs/bosk.md, Scoring): [(0, 0), (1, 2)] is seat 1's alone (summer's
    sole, 3) and [(0, 0)] scores nobody: [0, 3]; an amount of -1 is a ConfigError naming
    its contest."""
    points = scoring.SUMMER_POINTS
    assert fg.bosk.plain_scores([[(0, 0), (1, 2)], [(0, 0)]], 2, points) == [0, 3]
    with pytest.raises(ConfigError, match=r"lines\[1\] amount must be >= 0, not -1"):
        fg.bosk.plain_scores([[(1, 2)], [(0, -1)]], 2, points)


def test_the_numpy_path_scores_blocks_of_2048_boards(monkeypatch):
    """docs/bosk.md, How: the numpy path works per block of 2,048 boards (its temporaries
    stay in cache): 3,000 boards are scored as blocks of 2,048 and 952, summer and winter."""
    blocks = []
    for name in ("_summer_block", "_winter_block"):
        block = getattr(scoring, name)
        monkeypatch.setattr(
            scoring, name, lambda grid, *a, f=block: blocks.append(len(grid)) or f(grid, *a)
        )
    owner, top = np.full((3000, 7, 7), -1, np.int8), np.full((3000, 8, 8), -1, np.int8)
    with kernel_path(False):
        summer_scores(owner, np.zeros_like(owner), 2)
        winter_scores(top, DEFAULT_TERRAIN[8], 2)
    assert blocks == [2048, 952, 2048, 952]


@needs_numba
def test_the_compiled_kernels_are_cached_on_disk_where_numba_can():
    """docs/bosk.md, Compiled path: the kernels compile once, "cached afterwards": where numba
    finds a folder to cache in (it can build a FunctionCache for the kernel's source), each of
    the four kernels names its cache folder (``stats.cache_path``; None for numba's NullCache,
    which compiles anew in every process). (Mutant 151 of bosk/_numba.py, cache=True -> False,
    compiled them anew in every process.)"""
    from numba.core import caching

    from forestgames.bosk import _numba

    for kernel in (_numba.summer, _numba.winter, _numba._rank_block, _numba._cells_major):
        try:
            caching.FunctionCache(kernel.py_func)
        except RuntimeError:  # "no locator available": a read-only install, no writable home
            pytest.skip("numba finds no folder to cache in here")
        assert kernel.stats.cache_path is not None, kernel.py_func.__name__


@needs_numba
@pytest.mark.parametrize(
    ("low", "high", "seats", "expected"),
    [
        (0, 7, {0: [(0, 0), (0, 1), (0, 2)], 1: [(3, 7)], 2: [(2, 4), (4, 0), (7, 7)]}, [5, 1, 9]),
        (1, 2, {0: [(0, 0), (3, 7)], 1: [(1, 2)], 2: [(6, 6)]}, [5, 3, 8]),
    ],
)
def test_the_compiled_winter_scores_terrain_types_0_1_and_7(low, high, seats, expected):
    """docs/bosk.md, Scoring: on the compiled path (1,029 boards) terrain types 0 and 1 count
    like any other. Type ``low`` is rows 0-3 of an 8x8 map, type ``high`` rows 4-7.
    Types 0 and 7: on type 0 seat 0 holds 3 squares, seats 1 and 2 one each (first 5, tie for
    second 1 each); on type 7 seat 2 is alone on 2 squares (sole 8): [5, 1, 1 + 8] = [5, 1, 9].
    Types 1 and 2: on type 1 seat 0 holds 2 squares, seat 1 one (first 5, second 3); on type 2
    seat 2 is alone on 1 square (sole 8): [5, 3, 8]. That on every board, [0, 0, 0] on the
    empty last one. (Mutants of bosk/_numba.py that dropped a type: int-constant 121,
    ends[kinds[s]] counted, type 0, [0, 0, 8]; non-integer 77, ends[kinds[s] - 1], type 1,
    [0, 0, 8].)"""
    terrain = np.full((8, 8), low, np.int8)
    terrain[4:] = high
    top = np.full((scoring.COMPILED_MIN_BOARDS + 5, 8, 8), -1, np.int8)
    for seat, squares in seats.items():
        for r, c in squares:
            top[:, r, c] = seat
    top[-1] = -1
    with kernel_path(True):
        scores = winter_scores(top, terrain, 3)
    assert (scores[:-1] == expected).all() and scores[-1].tolist() == [0, 0, 0]
