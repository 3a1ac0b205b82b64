"""Bosk's scoring kernels: pure numpy over any leading batch axes.

The game itself scores with these functions (one source of truth), and users
can score millions of boards at once::

    owner = np.full((100_000, 11, 11), -1); value = np.zeros_like(owner)
    summer_scores(owner, value, num_players=4)     # -> (100_000, 4)

Both seasons use one ranking rule, :func:`placement_points`: per line (summer)
or terrain type (winter) a seat with a zero total is not placed; a single
leader alone scores ``sole``; a single leader scores ``first`` and a single
runner-up ``second``; runners-up tied share nothing but ``tied_second`` each;
leaders tied score ``tied_first`` each and nobody scores second.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from forestgames.bosk._tables import NUM_TERRAINS, SUMMER_POINTS, WINTER_POINTS

__all__ = ["placement_points", "summer_scores", "winter_scores", "plain_scores"]

IntArray = npt.NDArray[np.integer]


def placement_points(
    totals: npt.ArrayLike,
    first: int,
    second: int,
    sole: int,
    tied_first: int,
    tied_second: int,
) -> IntArray:
    """Points per seat from ``totals`` (..., K, P): K contests, P seats -> (..., P).

    Each of the K contests (a line, a terrain type) is ranked on its own and
    the points are summed over K. Totals of 0 mean "not in the contest".
    """
    totals = np.asarray(totals)
    if totals.ndim < 2:
        raise ValueError(f"totals must have shape (..., K, P), got {totals.shape}")
    present = totals > 0
    best = totals.max(axis=-1, keepdims=True)
    is_first = present & (totals == best)
    n_first = is_first.sum(axis=-1, keepdims=True)
    rest = np.where(is_first, 0, totals)
    runner = rest.max(axis=-1, keepdims=True)
    is_second = (rest == runner) & (rest > 0)
    n_second = is_second.sum(axis=-1, keepdims=True)
    single = n_first == 1
    lead_points = np.where(single, np.where(n_second == 0, sole, first), tied_first)
    second_points = np.where(single, np.where(n_second == 1, second, tied_second), 0)
    points = np.where(is_first, lead_points, 0) + np.where(is_second, second_points, 0)
    return points.sum(axis=-2)


def _player_totals(keys: IntArray, weights: IntArray | None, groups: int, players: int) -> IntArray:
    """Sum ``weights`` into (batch, groups, players) bins; a key of -1 is dropped."""
    batch = keys.shape[0]
    flat = keys.reshape(batch, -1)
    offsets = (np.arange(batch, dtype=np.int64) * (groups * players + 1))[:, None]
    index = np.where(flat >= 0, flat + offsets + 1, offsets)  # bin 0 of a board: dropped keys
    size = batch * (groups * players + 1)
    w = None if weights is None else weights.reshape(batch, -1).ravel()
    counts = np.bincount(index.ravel(), weights=w, minlength=size)
    counts = counts.reshape(batch, groups * players + 1)[:, 1:]
    return counts.reshape(batch, groups, players).astype(np.int32)


def summer_scores(owner: npt.ArrayLike, value: npt.ArrayLike, num_players: int) -> IntArray:
    """Summer points: every row and column of intersections, by tree values.

    ``owner`` (..., N, N) holds the seat of each intersection's tree or -1,
    ``value`` the tree values (ignored where there is no tree). Returns
    (..., num_players) ints.
    """
    owner = np.asarray(owner)
    value = np.asarray(value)
    if owner.shape != value.shape or owner.ndim < 2 or owner.shape[-1] != owner.shape[-2]:
        raise ValueError(f"owner and value must both be (..., N, N), got {owner.shape}, {value.shape}")
    lead, n = owner.shape[:-2], owner.shape[-1]
    owner = owner.reshape(-1, n, n).astype(np.int64)
    value = value.reshape(-1, n, n)
    rows = np.arange(n, dtype=np.int64)[:, None]
    valid = owner >= 0
    row_keys = np.where(valid, rows * num_players + owner, -1)
    col_keys = np.where(valid, rows.T * num_players + owner, -1)
    weights = np.where(valid, value, 0).astype(np.float64)
    totals = np.concatenate(
        [
            _player_totals(row_keys, weights, n, num_players),
            _player_totals(col_keys, weights, n, num_players),
        ],
        axis=1,
    )
    return placement_points(totals, **SUMMER_POINTS).reshape(*lead, num_players)


def winter_scores(top: npt.ArrayLike, terrain: npt.ArrayLike, num_players: int) -> IntArray:
    """Winter points: squares controlled per terrain type.

    ``top`` (..., S, S) holds the seat whose leaf or squirrel tops each square,
    or -1; ``terrain`` (S, S) the terrain ids 0..7. Returns (..., num_players).
    """
    top = np.asarray(top)
    terrain = np.asarray(terrain)
    if top.ndim < 2 or top.shape[-2:] != terrain.shape:
        raise ValueError(f"top (..., S, S) must match terrain {terrain.shape}, got {top.shape}")
    lead, shape = top.shape[:-2], top.shape[-2:]
    top = top.reshape(-1, *shape).astype(np.int64)
    keys = np.where(top >= 0, terrain.astype(np.int64) * num_players + top, -1)
    totals = _player_totals(keys, None, NUM_TERRAINS, num_players)
    return placement_points(totals, **WINTER_POINTS).reshape(*lead, num_players)


def plain_scores(
    lines: Sequence[Sequence[tuple[int, int]]], num_players: int, points: dict[str, int]
) -> list[int]:
    """The ranking rule written plainly, one contest at a time (the kernels' reference).

    ``lines`` lists contests; each is a list of ``(seat, amount)`` entries.
    """
    result = [0] * num_players
    for entries in lines:
        total = [0] * num_players
        for seat, amount in entries:
            total[seat] += amount
        ranked = sorted({t for t in total if t > 0}, reverse=True)
        if not ranked:
            continue
        leaders = [p for p in range(num_players) if total[p] == ranked[0]]
        if len(leaders) > 1:
            for p in leaders:
                result[p] += points["tied_first"]
            continue
        if len(ranked) == 1:
            result[leaders[0]] += points["sole"]
            continue
        result[leaders[0]] += points["first"]
        runners = [p for p in range(num_players) if total[p] == ranked[1]]
        award = points["second"] if len(runners) == 1 else points["tied_second"]
        for p in runners:
            result[p] += award
    return result
