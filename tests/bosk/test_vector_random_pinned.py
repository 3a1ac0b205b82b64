"""VectorBosk's fast random playouts (forestgames.bosk._vector_random) and fg.simulate's
vector batches: behaviours an integer-constant mutation audit found unpinned. The uniform
tests play one decision of many copies of a position with fixed seeds and check that every
legal choice comes about as often as the scalar engine's legal moves, each drawn uniformly,
make it (docs/bosk.md: "Every decision is still a uniformly random legal move"), within
five standard deviations of a binomial count."""

from __future__ import annotations

import warnings
from collections import Counter

import numpy as np
import pytest

import forestgames as fg
import forestgames.bosk.vector as vector_module
from forestgames.bosk import BoskState, PlantTree
from forestgames.bosk import _vector_random as fast
from forestgames.bosk.vector import VectorBosk
from tests.bosk.helpers import Key, autumn_turn, uniform_outcomes


def batch_outcomes(batch: VectorBosk, arrays: list[np.ndarray], key: Key) -> Counter:
    """How many games of ``batch`` end with each key: games are told apart by their rows of
    ``arrays``, and state(i) is read once per distinct row."""
    rows = np.concatenate([a.reshape(len(a), -1).astype(np.int64) for a in arrays], axis=1)
    _, first, counts = np.unique(rows, axis=0, return_index=True, return_counts=True)
    outcomes: Counter = Counter()
    for i, count in zip(first.tolist(), counts.tolist(), strict=True):
        outcomes[key(batch.state(i))] += count
    return outcomes


def assert_binomial(counts: Counter, expected: Counter, n: int) -> None:
    """No key the scalar engine cannot reach, and each key's count within 5 standard
    deviations of n * p."""
    assert set(counts) <= set(expected)
    for outcome, p in expected.items():
        sd = (n * p * (1 - p)) ** 0.5
        assert abs(counts[outcome] - n * p) <= 5 * sd, (outcome, counts[outcome], n * p)


def test_each_leaf_is_a_uniform_choice_among_two_or_three_squares():
    """Round 1, wind N, the mover's two trees of value 1 on intersections (1, 1) and (1, 4)
    (its others and seat 1's on rows 5 and 6): a tree is drawn 1/2 of the time and a tile
    1/8; a leaf path goes on one of the tree's 2 base squares of row 1 (1/2 each), then on
    one of the 3 squares of row 0 downwind of it (1/3 each; an empty board takes any), then
    off the board: each of the 2 x 2 x 3 = 12 paths 1/2 x 7/8 x 1/6 = 7/96 (146 of 2,000
    games, sd 12), the squirrel's turns (no leaf) 1/8. A column drawn from 1..5 of the 0..5
    uniform numbers would give a path 1/2 x 7/8 x 2/5 x 1/5 = 0.035 (70 games)."""
    trees = {(1, 1): (0, 1), (1, 4): (0, 1), (6, 6): (1, 1), (5, 6): (1, 1)}
    trees |= {(5, c): (0, v) for c, v in enumerate((2, 2, 3, 3, 4, 4))}
    trees |= {(6, c): (1, v) for c, v in enumerate((2, 2, 3, 3, 4, 4))}
    start = autumn_turn(trees=trees)
    expected = uniform_outcomes(start, key=lambda state: state.stacks)
    assert sorted(expected.values()) == pytest.approx([7 / 96] * 12 + [1 / 8])
    games = 2000
    batch = VectorBosk.from_states([start] * games)
    moves = np.zeros(games, dtype=np.int64)
    choices = fast.NumpyChoices(np.random.default_rng(0))
    fast.play_random_turns(batch, np.arange(games), choices, moves)
    counts = batch_outcomes(batch, [batch._height], key=lambda state: state.stacks)
    assert_binomial(counts, expected, games)


def test_a_planting_is_uniform_over_values_and_empty_intersections():
    """A new 2-player game's first planting: any of the 4 values on any of the 7 x 7 = 49
    empty intersections, each PlantTree 1/196, so each intersection 1/49 (60 of 2,940
    games, sd 7.7) and each value 1/4; intersection (0, 0) too, the first of the scalar
    order, which random intersections drawn from 1..48 would never give."""
    start = fg.make("bosk", num_players=2).new_game(seed=0, first_player=0)

    def planted(state: BoskState) -> tuple[int, int]:
        spot = next(t for t, owner in enumerate(state.owners) if owner >= 0)
        return spot, state.values[spot]

    games = 2940
    batch = VectorBosk(2, games, seed=0)
    moves = np.zeros(games, dtype=np.int64)
    fast.plant_random(batch, np.arange(games), fast.NumpyChoices(np.random.default_rng(0)), moves)
    assert (moves == 1).all()
    counts = batch_outcomes(batch, [batch._owner >= 0, batch._value], key=planted)
    for part in (0, 1):
        expected = uniform_outcomes(start, key=lambda state, part=part: planted(state)[part])
        assert len(expected) == (49, 4)[part]
        seen: Counter = Counter()
        for outcome, count in counts.items():
            seen[outcome[part]] += count
        assert_binomial(seen, expected, games)


class FirstDrawsOn:
    """A numpy generator whose first draws of intersections (the (games, tries) block) all
    give ``spot``; every other draw is the wrapped generator's."""

    def __init__(self, rng: np.random.Generator, spot: int) -> None:
        self.rng, self.spot = rng, spot

    def integers(self, low: int, high: int, size: int | tuple[int, int]) -> np.ndarray:
        if isinstance(size, tuple):
            return np.full(size, self.spot)
        return self.rng.integers(low, high, size)

    def random(self, size: int) -> np.ndarray:
        return self.rng.random(size)


def test_a_planting_draws_on_until_an_empty_intersection_comes():
    """docs/bosk.md: the empty intersection of a planting is found "by drawing
    intersections until an empty one comes". Every game's first tree on the centre (3, 3)
    (intersection 24) and a generator whose first draws all give 24 again: every game
    draws on, uniformly over the 48 empty intersections (50 of 2,400 games each, sd 7),
    (0, 0) and (6, 6) included."""
    game = fg.make("bosk", num_players=2)
    first = game.action_id(PlantTree(0, 1, (3, 3)))
    start = game.new_game(seed=0, first_player=0).apply(PlantTree(0, 1, (3, 3)))

    def second(state: BoskState) -> int:
        return next(t for t, owner in enumerate(state.owners) if owner >= 0 and t != 24)

    expected = uniform_outcomes(start, key=second)
    assert expected == pytest.approx({t: 1 / 48 for t in range(49) if t != 24})
    games = 2400
    batch = VectorBosk(2, games, seed=0)
    batch.step(np.full(games, first))
    moves = np.zeros(games, dtype=np.int64)
    choices = fast.NumpyChoices(FirstDrawsOn(np.random.default_rng(0), 24))  # type: ignore[arg-type]
    fast.plant_random(batch, np.arange(games), choices, moves)
    counts = batch_outcomes(batch, [batch._owner >= 0], key=second)
    assert_binomial(counts, expected, games)


def test_new_games_play_out_without_a_numpy_warning():
    """The first planting of new games (no tree yet, so no share of filled intersections to
    take the log of) draws one intersection per game: play_random of a new batch warns
    nothing (numpy's "divide by zero encountered in log" is an error here)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        moves = VectorBosk(2, 8, seed=0).play_random(seed=1)
    assert (moves > 0).all()


def test_simulate_vector_plays_batches_of_1024_games(monkeypatch):
    """docs/bosk.md: engine="vector" plays its games "in batches of 1,024 on VectorBosk": a
    run of 2,000 games makes its first VectorBosk of 1,024 games (stopped right there)."""
    sizes = []

    class FirstBatch(Exception):
        pass

    def first_batch(players: int, batch: int, *args: object, **kwargs: object) -> None:
        sizes.append(batch)
        raise FirstBatch

    monkeypatch.setattr(vector_module, "VectorBosk", first_batch)
    with pytest.raises(FirstBatch):
        fg.simulate("bosk", ["random"], 2000, seed=0, progress=False, engine="vector")
    assert sizes == [1024]
