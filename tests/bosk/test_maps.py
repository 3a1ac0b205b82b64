"""The shipped default terrain maps: sizes, balance, contiguous patches, the 10×10 crop."""

import numpy as np
import pytest

import forestgames as fg
from forestgames.bosk import DEFAULT_TERRAIN


def patch_count(grid, kind):
    """Number of 4-connected patches of squares of ``kind``."""
    size = grid.shape[0]
    seen = set()
    count = 0
    for start in zip(*np.nonzero(grid == kind), strict=True):
        if start in seen:
            continue
        count += 1
        todo = [start]
        seen.add(start)
        while todo:
            r, c = todo.pop()
            for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if (
                    0 <= nr < size
                    and 0 <= nc < size
                    and grid[nr, nc] == kind
                    and (nr, nc) not in seen
                ):
                    seen.add((nr, nc))
                    todo.append((nr, nc))
    return count


@pytest.mark.parametrize("size", [8, 10, 12])
def test_default_maps_balanced_and_contiguous(size):
    """Each map has 8 types, each about 1/8 of the area (± 4 squares) in one patch."""
    grid = DEFAULT_TERRAIN[size]
    assert grid.shape == (size, size) and not grid.flags.writeable
    counts = np.bincount(grid.ravel(), minlength=8)
    assert len(counts) == 8 and abs(counts - size * size / 8).max() <= 4
    assert all(patch_count(grid, kind) == 1 for kind in range(8))


def test_ten_by_ten_is_the_inner_crop():
    """The 3-player map is the 12×12 map inside its white border."""
    assert np.array_equal(DEFAULT_TERRAIN[10], DEFAULT_TERRAIN[12][1:-1, 1:-1])


@pytest.mark.parametrize(("players", "size"), [(2, 8), (3, 10), (4, 12)])
def test_games_use_the_default_map_of_their_size(players, size):
    """A game without a terrain option plays on the default map of its board size."""
    assert np.array_equal(fg.make("bosk", num_players=players).terrain, DEFAULT_TERRAIN[size])


def test_custom_terrain_option_round_trips():
    """A user map is validated, kept read-only, and survives options() and make()."""
    terrain = np.arange(64).reshape(8, 8) % 8
    game = fg.make("bosk", num_players=2, terrain=terrain.tolist())
    assert np.array_equal(game.terrain, terrain) and not game.terrain.flags.writeable
    assert fg.make("bosk", **game.options()) == game
    assert game != fg.make("bosk", num_players=2)
    assert "terrain" not in fg.make("bosk", num_players=2).options()
