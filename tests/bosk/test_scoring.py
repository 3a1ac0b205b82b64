"""Summer and winter scoring: every case of rules/bosk.md, the seed's example, the kernels."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import forestgames as fg
from forestgames.bosk import DEFAULT_TERRAIN, placement_points, summer_scores, winter_scores
from forestgames.bosk.scoring import board_summer, board_winter, plain_board_scores
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
