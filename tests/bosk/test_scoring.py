"""Summer and winter scoring: every case of rules/bosk.md, the seed's example, the kernels."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import forestgames as fg
from forestgames.bosk import (
    DEFAULT_TERRAIN,
    placement_points,
    scoring,
    summer_scores,
    winter_scores,
)
from forestgames.bosk.scoring import (
    board_summer,
    board_winter,
    plain_board_scores,
)
from forestgames.core import ConfigError, StateError
from tests.bosk.helpers import HAVE_NUMBA, kernel_path, needs_numba
from tests.strategies import reachable_states

N4 = 11  # intersections per side, 4 players


def one_row(trees, players=4):
    """Summer scores of a 4-player board whose row 5 holds ``trees`` [(seat, value), ...]."""
    owner = np.full((N4, N4), -1)
    value = np.zeros((N4, N4), dtype=int)
    for col, (seat, v) in enumerate(trees):
        owner[5, 2 * col], value[5, 2 * col] = seat, v
    return owner, value


def column_points(owner, value, players=4):
    """The points the columns alone give (each tree is alone in its column)."""
    per_tree = np.zeros(players, dtype=int)
    for seat in owner[owner >= 0]:
        per_tree[seat] += 3
    return per_tree


def row_points(trees, players=4):
    owner, value = one_row(trees, players)
    return list(summer_scores(owner, value, players) - column_points(owner, value, players))


def test_seed_worked_example():
    """Two yellow 1s, a red 3 and an orange 2 in a row: red takes 2 there, nobody else scores it."""
    yellow, red, orange = 0, 1, 2
    points = row_points([(yellow, 1), (yellow, 1), (red, 3), (orange, 2)])
    assert points == [0, 2, 0, 0]


def test_summer_first_and_second():
    """A single first and a single second score 2 and 1."""
    assert row_points([(0, 4), (1, 2), (2, 1)]) == [2, 1, 0, 0]


def test_summer_tie_for_second():
    """A single first and a tie for second: 2 for first, 0 for the tied seconds."""
    assert row_points([(0, 4), (1, 2), (2, 2)]) == [2, 0, 0, 0]


def test_summer_sole_player():
    """A single first with nobody else in the line scores 3."""
    assert row_points([(3, 1)]) == [0, 0, 0, 3]
    assert row_points([(3, 1), (3, 4)]) == [0, 0, 0, 3]


def test_summer_tie_for_first():
    """Tied firsts score 1 each and nobody scores second."""
    assert row_points([(0, 3), (1, 3), (2, 2)]) == [1, 1, 0, 0]
    assert row_points([(0, 2), (1, 1), (2, 2), (3, 1)]) == [1, 0, 1, 0]


def test_summer_sums_values_not_trees():
    """A line is won on the sum of values: one 4 beats three 1s."""
    assert row_points([(0, 1), (0, 1), (0, 1), (1, 4)]) == [1, 2, 0, 0]


def test_summer_absent_player_never_placed():
    """A seat with no tree in a line takes no place, even as a would-be second."""
    owner, value = one_row([(0, 2)])
    assert list(summer_scores(owner, value, 4)) == [6, 0, 0, 0]  # row: 3 alone, column: 3 alone


def test_summer_columns_count_like_rows():
    """Columns are scored exactly like rows."""
    owner = np.full((N4, N4), -1)
    value = np.zeros((N4, N4), dtype=int)
    owner[2:5, 7], value[2:5, 7] = [0, 1, 2], [4, 2, 1]
    # column 7: seat 0 first (2), seat 1 second (1); each tree is alone in its row (3 each)
    assert list(summer_scores(owner, value, 4)) == [5, 4, 3, 0]


def winter_board(squares, players=4, terrain=None):
    top = np.full((12, 12), -1)
    for (r, c), seat in squares.items():
        top[r, c] = seat
    terrain = np.zeros((12, 12), dtype=int) if terrain is None else terrain
    return list(winter_scores(top, terrain, players))


def test_winter_first_and_second():
    """A single first and a single second of a terrain type score 5 and 3."""
    assert winter_board({(0, 0): 0, (0, 1): 0, (0, 2): 1}) == [5, 3, 0, 0]


def test_winter_tie_for_second():
    """A single first and a tie for second: 5, and 1 for each tied second."""
    assert winter_board({(0, 0): 0, (0, 1): 0, (0, 2): 1, (5, 5): 2}) == [5, 1, 1, 0]


def test_winter_sole_player():
    """A single first with nobody else in the terrain type scores 8."""
    assert winter_board({(3, 3): 2}) == [0, 0, 8, 0]


def test_winter_tie_for_first():
    """Tied firsts score 4 each and nobody scores second."""
    assert winter_board({(0, 0): 0, (1, 1): 3, (2, 2): 1, (2, 3): 1, (4, 4): 0, (4, 5): 3}) == [
        4,
        4,
        0,
        4,
    ]
    assert winter_board({(0, 0): 0, (0, 1): 0, (1, 1): 3, (2, 2): 3, (4, 4): 1}) == [4, 0, 0, 4]


def test_winter_terrain_types_apart_and_disconnected():
    """Each terrain type is a separate contest; its squares count together though apart."""
    terrain = np.zeros((12, 12), dtype=int)
    terrain[:, 6:] = 1
    terrain[11, 0] = 1  # a far, disconnected square of type 1
    squares = {(0, 0): 0, (0, 7): 1, (11, 0): 1}
    assert winter_board(squares, terrain=terrain) == [8, 8, 0, 0]
    squares = {(0, 0): 0, (0, 7): 0, (11, 0): 1, (5, 10): 1}
    assert winter_board(squares, terrain=terrain) == [8 + 3, 5, 0, 0]


def test_placement_points_general():
    """The shared ranking rule over (..., K, P) totals, summed over K contests."""
    totals = np.array([[[5, 3, 0]], [[2, 2, 1]], [[0, 0, 0]], [[1, 4, 4]]])
    got = placement_points(totals, first=5, second=3, sole=8, tied_first=4, tied_second=1)
    assert got.tolist() == [[5, 3, 0], [4, 4, 0], [0, 0, 0], [0, 4, 4]]


def test_kernels_on_the_default_maps():
    """The default maps score through the kernel as through the plain scorer."""
    rng = np.random.default_rng(5)
    for size, players in ((8, 2), (10, 3), (12, 4)):
        top = rng.integers(-1, players, (size, size))
        owner = rng.integers(-1, players, (size - 1, size - 1))
        value = np.where(owner >= 0, rng.integers(1, 5, owner.shape), 0)
        expected = plain_board_scores(owner, value, top, DEFAULT_TERRAIN[size], players)
        assert list(summer_scores(owner, value, players)) == expected[0]
        assert list(winter_scores(top, DEFAULT_TERRAIN[size], players)) == expected[1]


def test_kernel_shape_errors():
    """Mismatched shapes are refused with a clear ValueError."""
    with pytest.raises(ValueError, match="N, N"):
        summer_scores(np.zeros((3, 4)), np.zeros((3, 4)), 2)
    with pytest.raises(ValueError, match="terrain"):
        winter_scores(np.zeros((5, 5)), np.zeros((4, 4)), 2)


@st.composite
def boards(draw):
    """A random board of any size and seat count, with a random terrain of 1 to 8 types."""
    players = draw(st.integers(2, 4))
    size = draw(st.integers(3, 12))
    seats = st.integers(-1, players - 1)
    owner = draw(hnp.arrays(np.int8, (size - 1, size - 1), elements=seats))
    value = draw(hnp.arrays(np.int8, (size - 1, size - 1), elements=st.integers(1, 4)))
    value[owner < 0] = 0  # no tree, no value
    top = draw(hnp.arrays(np.int8, (size, size), elements=seats))
    kinds = draw(st.integers(1, 8))
    terrain = draw(hnp.arrays(np.int64, (size, size), elements=st.integers(0, kinds - 1)))
    return players, owner, value, top, terrain


@settings(max_examples=300, deadline=None)
@given(boards())
def test_kernels_agree_with_plain_scorer(board):
    """On any random board the numpy kernels give exactly the plain per-line scores."""
    players, owner, value, top, terrain = board
    summer, winter = plain_board_scores(owner, value, top, terrain, players)
    assert summer_scores(owner, value, players).tolist() == summer
    assert winter_scores(top, terrain, players).tolist() == winter


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4))
def test_kernels_batch_axes(seed, players):
    """Scoring a (3, 5) batch equals scoring each board on its own."""
    rng = np.random.default_rng(seed)
    size = {2: 8, 3: 10, 4: 12}[players]
    owner = rng.integers(-1, players, (3, 5, size - 1, size - 1))
    value = np.where(owner >= 0, rng.integers(1, 5, owner.shape), 0)
    top = rng.integers(-1, players, (3, 5, size, size))
    terrain = DEFAULT_TERRAIN[size]
    summer = summer_scores(owner, value, players)
    winter = winter_scores(top, terrain, players)
    assert summer.shape == winter.shape == (3, 5, players)
    for i in range(3):
        for j in range(5):
            assert (
                summer[i, j].tolist() == summer_scores(owner[i, j], value[i, j], players).tolist()
            )
            assert winter[i, j].tolist() == winter_scores(top[i, j], terrain, players).tolist()


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_one_board_path_equals_the_kernels(data):
    """The engine's one-board scorers give the batch kernels' points on reachable boards."""
    players = data.draw(st.sampled_from([2, 3, 4]))
    game = fg.make("bosk", num_players=players)
    state = data.draw(reachable_states(game))
    summer = tuple(int(x) for x in summer_scores(state.tree_owner, state.tree_value, players))
    assert board_summer(state.owners, state.values, players) == summer
    winter = tuple(int(x) for x in winter_scores(state.top, game.terrain, players))
    assert board_winter(state.top.ravel().tolist(), game.terrain, players) == winter


# ---------------------------------------------------------------------- from kernels


PATHS = [False, True] if HAVE_NUMBA else [False]
SIZE = {2: 8, 3: 10, 4: 12}


@needs_numba
def test_compiled_kernels_load_where_numba_cannot_cache(monkeypatch):
    """With no folder numba may cache in, the compiled kernels load uncached, same results."""
    import importlib

    from numba.core import caching

    from forestgames.bosk import _numba

    monkeypatch.setattr(caching.CacheImpl, "_locator_classes", [])
    try:
        importlib.reload(_numba)
        assert isinstance(_numba.summer._cache, caching.NullCache)
        rng = np.random.default_rng(0)
        owner, value = random_trees(rng, (scoring.COMPILED_MIN_BOARDS, 9, 9), 3)
        with kernel_path(True):
            compiled = summer_scores(owner, value, 3)
        with kernel_path(False):
            assert np.array_equal(compiled, summer_scores(owner, value, 3))
    finally:
        monkeypatch.undo()
        importlib.reload(_numba)


def random_trees(rng, shape, players, heavy=0.0):
    """Owner and value grids; ``heavy`` of the boards are one seat's 4s on every intersection."""
    owner = rng.integers(-1, players, shape).astype(np.int8)
    value = np.where(owner >= 0, rng.integers(1, 5, shape), 0).astype(np.int8)
    boards = owner.reshape(-1, *shape[-2:])
    values = value.reshape(-1, *shape[-2:])
    for b in np.flatnonzero(rng.random(len(boards)) < heavy):
        boards[b] = rng.integers(players)
        values[b] = 4
    return owner, value


def random_tops(rng, shape, players, heavy=0.0):
    """Tops; ``heavy`` of the boards are covered by one seat."""
    top = rng.integers(-1, players, shape).astype(np.int8)
    boards = top.reshape(-1, *shape[-2:])
    for b in np.flatnonzero(rng.random(len(boards)) < heavy):
        boards[b] = rng.integers(players)
    return top


def expected_scores(owner, value, top, terrain, players):
    """The plain scorer's (summer, winter) for every board of the batch, as arrays."""
    n, s = owner.shape[-1], top.shape[-1]
    pairs = [
        plain_board_scores(o, v, t, terrain, players)
        for o, v, t in zip(
            owner.reshape(-1, n, n), value.reshape(-1, n, n), top.reshape(-1, s, s), strict=True
        )
    ]
    lead = owner.shape[:-2]
    summer = np.array([p[0] for p in pairs], dtype=np.int64).reshape(*lead, players)
    winter = np.array([p[1] for p in pairs], dtype=np.int64).reshape(*lead, players)
    return summer, winter


@st.composite
def batches(draw):
    """A batch of random boards: any size, seat count, terrain, leading axes of rank 0..3."""
    players = draw(st.integers(2, 4))
    size = draw(st.integers(2, 13))
    lead = tuple(draw(st.lists(st.integers(0, 3), max_size=3)))
    kinds = draw(st.integers(1, 8))
    terrain = draw(hnp.arrays(np.int64, (size, size), elements=st.integers(0, kinds - 1)))
    seed = draw(st.integers(0, 2**32 - 1))
    heavy = draw(st.sampled_from([0.0, 0.3, 1.0]))
    return players, size, lead, terrain, seed, heavy


@pytest.mark.parametrize("compiled", PATHS)
@settings(max_examples=150, deadline=None)
@given(batches())
def test_kernels_match_plain_scorer(compiled, batch):
    """Any batch shape, board size and terrain, boards with overflow-size totals mixed in:
    every board scores exactly as the plain per-board scorer says."""
    players, size, lead, terrain, seed, heavy = batch
    rng = np.random.default_rng(seed)
    owner, value = random_trees(rng, (*lead, size - 1, size - 1), players, heavy)
    top = random_tops(rng, (*lead, size, size), players, heavy)
    summer, winter = expected_scores(owner, value, top, terrain, players)
    with kernel_path(compiled):
        got_summer = summer_scores(owner, value, players)
        got_winter = winter_scores(top, terrain, players)
    assert got_summer.shape == got_winter.shape == (*lead, players)
    assert got_summer.dtype == got_winter.dtype == np.int64
    np.testing.assert_array_equal(got_summer, summer)
    np.testing.assert_array_equal(got_winter, winter)


@pytest.mark.parametrize(("rows", "inner"), [(20, 100), (8, 121), (14, 49)])
def test_products_are_sliced_below_blas_threading_and_exact(rows, inner):
    """The scoring products are cut into slices of boards whose work stays under
    BLAS_THREADING_WORK (one BLAS thread each); the result equals the whole product at
    every size around a slice's edge."""
    step = (scoring.BLAS_THREADING_WORK - 1) // (rows * inner)
    assert rows * inner * step < scoring.BLAS_THREADING_WORK
    rng = np.random.default_rng(rows)
    incidence = (rng.random((rows, inner)) < 0.2).astype(np.float64)
    for boards in (0, 1, step - 1, step, step + 1, 3 * step + 7):
        cells = rng.integers(0, 2**20, (boards, inner)).astype(np.float64)
        np.testing.assert_array_equal(scoring._product(incidence, cells), incidence @ cells.T)


@pytest.mark.parametrize("compiled", PATHS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_large_mixed_batch_over_several_blocks(compiled, players):
    """A batch larger than a numpy block (and than many compiled blocks), with a few boards
    whose line and terrain totals exceed 31 (a row of 4s, a terrain type covered by one seat),
    scores every board exactly; the extreme boards do not change the others' scores."""
    rng = np.random.default_rng(players)
    size = SIZE[players]
    boards = scoring.BLOCK + 300
    owner, value = random_trees(rng, (boards, size - 1, size - 1), players, heavy=0.002)
    top = random_tops(rng, (boards, size, size), players, heavy=0.002)
    terrain = DEFAULT_TERRAIN[size].copy()
    terrain[: size // 2] = 3  # one terrain type of S*S/2 squares: counts up to 72
    summer, winter = expected_scores(owner, value, top, terrain, players)
    with kernel_path(compiled):
        np.testing.assert_array_equal(summer_scores(owner, value, players), summer)
        np.testing.assert_array_equal(winter_scores(top, terrain, players), winter)
        alone = summer_scores(owner[5:6], value[5:6], players)
    np.testing.assert_array_equal(alone, summer[5:6])


@needs_numba
@settings(max_examples=25, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32 - 1), st.sampled_from([np.int8, np.int64]))
def test_compiled_path_equals_numpy_path(players, seed, dtype):
    """The numba kernels give exactly the numpy kernels' points on the same batch."""
    rng = np.random.default_rng(seed)
    size = SIZE[players]
    count = int(rng.integers(scoring.COMPILED_MIN_BOARDS, scoring.COMPILED_MIN_BOARDS + 600))
    owner, value = random_trees(rng, (count, size - 1, size - 1), players, heavy=0.05)
    top = random_tops(rng, (count, size, size), players, heavy=0.05)
    terrain = rng.integers(0, 8, (size, size))
    owner, value, top = owner.astype(dtype), value.astype(dtype), top.astype(dtype)
    results = []
    for compiled in (False, True):
        with kernel_path(compiled):
            results.append(
                (summer_scores(owner, value, players), winter_scores(top, terrain, players))
            )
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])


def test_numpy_integer_player_count_and_list_inputs():
    """num_players may be a numpy integer, and the grids nested lists of ints."""
    owner = [[0, -1], [1, -1]]
    value = [[2, 0], [3, 0]]
    assert summer_scores(owner, value, np.int64(2)).tolist() == [3 + 1, 3 + 2]
    top = [[0, 0], [1, -1]]
    assert winter_scores(top, [[0, 0], [1, 1]], np.uint8(2)).tolist() == [8, 8]


def test_plain_scores_adds_numpy_points_as_ints():
    """plain_scores given numpy points returns the ints the same points give (it returned
    numpy scalars, which wrapped: 5 contests of 120 as uint8 scored 88, not 600)."""
    for kind in (np.uint8, np.int8, np.int64):
        points = {place: kind(120) for place in ("sole", "first", "second", "tied_first")}
        got = fg.bosk.plain_scores([[(0, 1)]] * 5, 2, {**points, "tied_second": kind(1)})
        assert got == [600, 0] and all(type(x) is int for x in got), kind


# --------------------------------------------------------------------------- input checks


def board(players=3, batch=()):
    """A valid (owner, value, top, terrain) of the size for ``players``."""
    rng = np.random.default_rng(0)
    size = SIZE[players]
    owner, value = random_trees(rng, (*batch, size - 1, size - 1), players)
    top = random_tops(rng, (*batch, size, size), players)
    return owner, value, top, DEFAULT_TERRAIN[size]


def with_cell(array, index, x, dtype=None):
    """A copy of ``array`` (optionally cast) with ``array[index] = x``."""
    copy = np.array(array, dtype=dtype or array.dtype)
    copy[index] = x
    return copy


SUMMER_CASES = [
    # (what, owner change, value change, message)
    ("seat 5 of 3", ((1, 2), 5), ((1, 2), 1), r"owner\[1, 2\] = 5: seats .* -1\.\.2"),
    ("seat -2", ((0, 0), -2), ((0, 0), 0), r"owner\[0, 0\] = -2"),
    ("value -2", ((3, 3), 1), ((3, 3), -2), r"value\[3, 3\] = -2: tree values must be 0\.\.4"),
    ("value 5", ((3, 3), 2), ((3, 3), 5), r"value\[3, 3\] = 5: tree values must be 0\.\.4"),
    ("value 9", ((3, 3), 2), ((3, 3), 9), r"value\[3, 3\] = 9"),
    ("value 40", ((3, 3), 2), ((3, 3), 40), r"value\[3, 3\] = 40"),
    ("value, no tree", ((2, 4), -1), ((2, 4), 3), r"value\[2, 4\] = 3 but owner there is -1"),
    ("tree, no value", ((2, 4), 0), ((2, 4), 0), r"value\[2, 4\] = 0 but owner there holds"),
]


@pytest.mark.parametrize("compiled", PATHS)
@pytest.mark.parametrize(("what", "owner_at", "value_at", "message"), SUMMER_CASES)
def test_summer_refuses_bad_cells(compiled, what, owner_at, value_at, message):
    """Each kind of bad tree cell raises StateError naming the cell, on either path and in
    a single board or deep inside a large batch (never a wrong score)."""
    owner, value, _, _ = board(3)
    bad_owner, bad_value = with_cell(owner, *owner_at), with_cell(value, *value_at)
    with kernel_path(compiled), pytest.raises(StateError, match=message):
        summer_scores(bad_owner, bad_value, 3)
    owners, values, _, _ = board(3, (scoring.COMPILED_MIN_BOARDS + 100,))
    owners[1037], values[1037] = bad_owner, bad_value
    with (
        kernel_path(compiled),
        pytest.raises(StateError, match=message.replace(r"\[", r"\[1037, ")),
    ):
        summer_scores(owners, values, 3)


@pytest.mark.parametrize("compiled", PATHS)
@pytest.mark.parametrize(("seat", "dtype"), [(3, np.int8), (-2, np.int8), (300, np.int64)])
def test_winter_refuses_bad_tops(compiled, seat, dtype):
    """A top seat outside -1..P-1 raises StateError naming the square (any dtype, any batch)."""
    _, _, top, terrain = board(3, (scoring.COMPILED_MIN_BOARDS + 100,))
    bad = with_cell(top, (1061, 4, 7), seat, dtype)
    with kernel_path(compiled), pytest.raises(StateError, match=rf"top\[1061, 4, 7\] = {seat}"):
        winter_scores(bad, terrain, 3)


@pytest.mark.parametrize(
    ("terrain", "message"),
    [
        (with_cell(DEFAULT_TERRAIN[10], (2, 3), 8), r"terrain\[2, 3\] = 8: terrain ids"),
        (with_cell(DEFAULT_TERRAIN[10], (0, 0), -1), r"terrain\[0, 0\] = -1"),
        (DEFAULT_TERRAIN[12], r"matching terrain \(12, 12\)"),
        (np.zeros((10, 9), int), r"terrain must have shape \(S, S\)"),
        (np.zeros((10, 10)), "terrain must hold integers, not dtype float64"),
        ("plains", r"terrain must have shape"),
    ],
)
def test_winter_refuses_bad_terrain(terrain, message):
    """A terrain map with ids outside 0..7, of the wrong shape or not of ints: StateError."""
    _, _, top, _ = board(3)
    with pytest.raises(StateError, match=message):
        winter_scores(top, terrain, 3)


@pytest.mark.parametrize(
    ("owner", "value", "message"),
    [
        (np.zeros((3, 4), int), np.zeros((3, 4), int), r"\(\.\.\., N, N\)"),
        (np.zeros(5, int), np.zeros(5, int), r"\(\.\.\., N, N\)"),
        (np.zeros((0, 0), int), np.zeros((0, 0), int), "N >= 1"),
        (np.full((4, 4), -1), np.zeros((5, 5), int), "value must have owner's shape"),
        (np.full((4, 4), -1.0), np.zeros((4, 4)), "owner must hold integers, not dtype float64"),
        (np.full((4, 4), True), np.zeros((4, 4), int), "owner must hold integers, not dtype bool"),
        ([[-1, -1], [-1]], [[0, 0], [0]], "owner must"),
        ([["a", "b"], ["c", "d"]], [[0, 0], [0, 0]], "owner must hold integers"),
        (np.full((2, 2), None), np.zeros((2, 2), int), "owner must hold integers, not dtype obj"),
    ],
)
def test_summer_refuses_bad_arrays(owner, value, message):
    """Arrays of the wrong shape or dtype (or not arrays at all) raise StateError."""
    with pytest.raises(StateError, match=message):
        summer_scores(owner, value, 2)


@pytest.mark.parametrize("players", ["3", 3.0, True, 1, 5, None, [3]])
def test_bad_player_count_is_a_config_error(players):
    """num_players must be an int 2..4: anything else raises ConfigError for both kernels."""
    owner, value, top, terrain = board(3)
    with pytest.raises(ConfigError, match=r"num_players|2 to 4"):
        summer_scores(owner, value, players)
    with pytest.raises(ConfigError, match=r"num_players|2 to 4"):
        winter_scores(top, terrain, players)


def test_placement_points_refuses_bad_totals():
    """placement_points wants non-negative integer totals (..., K, P) and int points."""
    with pytest.raises(StateError, match=">= 0"):
        placement_points([[3, -1]], 2, 1, 3, 1, 0)
    with pytest.raises(StateError, match="integers"):
        placement_points([[1.5, 2.0]], 2, 1, 3, 1, 0)
    with pytest.raises(StateError, match=r"\(\.\.\., K, P\)"):
        placement_points([3, 1], 2, 1, 3, 1, 0)
    with pytest.raises(ConfigError, match="first"):
        placement_points([[3, 1]], "2", 1, 3, 1, 0)
    with pytest.raises(ConfigError, match="32 bits"):
        placement_points([[3, 1]], 2**70, 1, 3, 1, 0)  # was numpy's OverflowError


def test_placement_points_refuses_uint64_totals_beyond_int64():
    """uint64 totals of 2**63 or more are a StateError: they wrapped to negative int64s and
    lost silently ([2**64 - 1, 5] gave seat 1 the sole win)."""
    for total in (2**63, 2**64 - 1):
        with pytest.raises(StateError, match=r"below 2\*\*63"):
            placement_points(np.array([[total, 5]], dtype=np.uint64), 2, 1, 3, 1, 0)
    big = np.array([[2**63 - 1, 5]], dtype=np.uint64)
    assert placement_points(big, 2, 1, 3, 1, 0).tolist() == [2, 1]


@settings(max_examples=300, deadline=None)
@given(
    st.integers(2, 4),
    hnp.arrays(
        np.int16,
        hnp.array_shapes(min_dims=1, max_dims=4, max_side=4),
        elements=st.integers(-3, 6),
    ),
    st.sampled_from([np.int8, np.int16, np.uint8, np.int64]),
    st.data(),
)
def test_fuzzed_grids_score_right_or_raise_state_error(players, grid, dtype, data):
    """Arbitrary small integer grids of any dtype (negative ones wrap in unsigned dtypes):
    the kernels either raise StateError or return exactly the plain scorer's points;
    never another exception, never a wrong number."""
    grid = grid.astype(dtype)
    value = data.draw(hnp.arrays(np.int16, grid.shape, elements=st.integers(-1, 5))).astype(dtype)
    terrain = data.draw(
        hnp.arrays(np.int8, grid.shape[-2:] if grid.ndim >= 2 else (1,), elements=st.integers(0, 8))
    )
    valid_trees = (
        grid.ndim >= 2
        and grid.shape[-1] == grid.shape[-2]
        and grid.shape[-1] > 0
        and grid.min(initial=0) >= -1
        and grid.max(initial=0) < players
        and value.min(initial=0) >= 0
        and value.max(initial=0) <= 4
        and np.array_equal(grid.astype(int) < 0, value == 0)
    )
    try:
        summer = summer_scores(grid, value, players)
    except StateError:
        assert not valid_trees
    else:
        assert valid_trees
        n = grid.shape[-1]
        for o, v, got in zip(grid.reshape(-1, n, n), value.reshape(-1, n, n),
                             summer.reshape(-1, players), strict=True):  # fmt: skip
            assert got.tolist() == plain_board_scores(o, v, o[:1, :1], [[0]], players)[0]
    valid_tops = (
        grid.ndim >= 2
        and grid.shape[-2:] == terrain.shape
        and terrain.shape[0] == terrain.shape[1]
        and grid.shape[-1] > 0
        and grid.min(initial=0) >= -1
        and grid.max(initial=0) < players
        and terrain.max(initial=0) <= 7
    )
    try:
        winter = winter_scores(grid, terrain, players)
    except StateError:
        assert not valid_tops
    else:
        assert valid_tops
        s = grid.shape[-1]
        for t, got in zip(grid.reshape(-1, s, s), winter.reshape(-1, players), strict=True):
            empty = np.full((1, 1), -1)
            assert got.tolist() == plain_board_scores(empty, [[0]], t, terrain, players)[1]
