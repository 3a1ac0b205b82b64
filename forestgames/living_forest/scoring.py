"""Pure rule functions of Living Forest: element totals, victory counts, winners.

Nothing here knows the State class; each function takes plain tuples, so users
and agents can call them on positions of their own.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from forestgames.core import StateError, excerpt
from forestgames.living_forest._tables import (
    CARD_ELEMENTS,
    CARD_SYMBOL,
    FLOWER,
    FOREST_CELLS,
    GOAL,
    LINE_BONUSES,
    TREE_BONUS,
    TREE_NAMES,
)

__all__ = [
    "decide_winners",
    "element_totals",
    "forest_bonus",
    "limit_winners",
    "line_elements",
    "progress_of",
    "solitary_count",
    "tree_count",
]

Elements = tuple[int, int, int, int, int]


@functools.lru_cache(maxsize=4096)
def forest_bonus(forest: tuple[int, ...]) -> Elements:
    """Permanent elements of a forest (15 cells, tree ids, -1 empty): trees plus full lines."""
    total = [0, 0, 0, 0, 0]
    for tree in forest:
        if tree > 0:
            for k, x in enumerate(TREE_BONUS[tree]):
                total[k] += x
    for cells, bonus in LINE_BONUSES:
        if all(forest[c] >= 0 for c in cells):
            for k, x in enumerate(bonus):
                total[k] += x
    return tuple(total)  # type: ignore[return-value]


def line_elements(line: Iterable[int]) -> Elements:
    """Raw element sums of the cards of a Help Line (may be negative)."""
    per_card = tuple(map(CARD_ELEMENTS.__getitem__, line))
    if not per_card:
        return (0, 0, 0, 0, 0)
    return tuple(map(sum, zip(*per_card, strict=True)))  # type: ignore[return-value]


@functools.lru_cache(maxsize=1 << 16)
def element_totals(line: tuple[int, ...], forest: tuple[int, ...]) -> Elements:
    """A Spirit's (sun, water, plant, wind, flower): Help Line + forest, each at least 0.

    ``line`` holds card ids, ``forest`` 15 tree ids (-1 empty); both tuples."""
    sun, water, plant, wind, flower = map(operator.add, line_elements(line), forest_bonus(forest))
    return (
        sun if sun > 0 else 0,
        water if water > 0 else 0,
        plant if plant > 0 else 0,
        wind if wind > 0 else 0,
        flower if flower > 0 else 0,
    )


@functools.lru_cache(maxsize=1 << 12)
def solitary_count(line: tuple[int, ...]) -> int:
    """Uncancelled solitary symbols of a Help Line, a tuple of card ids (each
    gregarious symbol cancels one, revealed before or after)."""
    return max(0, sum(map(CARD_SYMBOL.__getitem__, line)))


def tree_count(forest: Sequence[int]) -> int:
    """Different tree types in a forest (15 cells, tree ids, -1 empty), the starting tree
    included; StateError if ``forest`` is not such a sequence."""
    if isinstance(forest, str | bytes) or not isinstance(forest, Sequence):
        raise StateError(f"tree_count: forest must be a tuple of tree ids, not {excerpt(forest)}")
    if len(forest) != FOREST_CELLS:
        raise StateError(f"tree_count: a forest has {FOREST_CELLS} cells, not {len(forest)}")
    for cell, tree in enumerate(forest):
        if isinstance(tree, bool) or not isinstance(tree, int) or not -1 <= tree < len(TREE_NAMES):
            raise StateError(
                f"tree_count: forest[{cell}] must be a tree id 0..{len(TREE_NAMES) - 1} "
                f"or -1 (empty), not {excerpt(tree)}"
            )
    return _tree_count(forest)


def _tree_count(forest: Iterable[int]) -> int:
    """:func:`tree_count` unchecked (the engine's forests are valid)."""
    kinds = set(forest)
    kinds.discard(-1)
    return len(kinds)


def progress_of(
    line: Sequence[int], forest: tuple[int, ...], fires_held: int, tiles: Sequence[int]
) -> tuple[int, int, int]:
    """(trees, fires, flowers) of one Spirit, Victory tiles ``(tree, fire, flower)`` included."""
    flowers = element_totals(line, forest)[FLOWER]
    return (_tree_count(forest) + tiles[0], fires_held + tiles[1], flowers + tiles[2])


def decide_winners(progress: Sequence[Sequence[int]], goal: int = GOAL) -> tuple[int, ...]:
    """The winning seats given one ``(trees, fires, flowers)`` per seat.

    The seats with at least ``goal`` (12) in one count are the candidates; one
    candidate wins alone; several: the highest sum of the three counts wins,
    a tie shares the victory. With no candidate the game is not won: ``()``
    (see :func:`limit_winners` for the game's turn limit).
    """
    progress = _checked_progress(progress)
    candidates = [seat for seat, counts in enumerate(progress) if max(counts) >= goal]
    return _best_sums(progress, candidates)


def limit_winners(progress: Sequence[Sequence[int]], goal: int = GOAL) -> tuple[int, ...]:
    """Winners when the game stops at its turn limit: as :func:`decide_winners`, but
    with no seat at the goal every seat is a candidate (highest sum, ties shared)."""
    progress = _checked_progress(progress)
    return decide_winners(progress, goal) or _best_sums(progress, range(len(progress)))


def _checked_progress(progress: Any) -> tuple[tuple[int, ...], ...]:
    """``progress`` as one triple of non-negative ints per seat; StateError otherwise."""
    if isinstance(progress, str | bytes | Mapping) or not isinstance(progress, Iterable):
        raise StateError(
            f"progress must list (trees, fires, flowers) per seat, not {excerpt(progress)}"
        )
    rows = tuple(progress)
    for seat, counts in enumerate(rows):
        if (
            isinstance(counts, str | bytes | Mapping)
            or not isinstance(counts, Iterable)
            or len(counts := tuple(counts)) != 3
            or any(
                isinstance(c, bool) or not isinstance(c, int | np.integer) or c < 0 for c in counts
            )
        ):
            raise StateError(
                f"progress of seat {seat} must be (trees, fires, flowers), three non-negative "
                f"ints, not {excerpt(counts)}"
            )
    return tuple(tuple(int(c) for c in counts) for counts in rows)


def _best_sums(progress: Sequence[Sequence[int]], candidates: Iterable[int]) -> tuple[int, ...]:
    sums = {seat: sum(progress[seat]) for seat in candidates}
    if not sums:
        return ()
    best = max(sums.values())
    return tuple(seat for seat, total in sums.items() if total == best)
