"""Pure rule functions of Living Forest: element totals, victory counts, winners.

Nothing here knows the State class; each function takes plain tuples, so users
and agents can call them on positions of their own.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from forestgames.core import StateError, as_int, excerpt, is_list_like, unarray
from forestgames.living_forest._tables import (
    CARD_ELEMENTS,
    CARD_NAMES,
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
Ids = tuple[int, ...]


def forest_bonus(forest: Sequence[int]) -> Elements:
    """Permanent elements of a forest (15 cells, tree ids, -1 empty): trees plus full lines;
    StateError if ``forest`` is not such a sequence."""
    return _forest_bonus(_checked_forest("forest_bonus", forest))


@functools.lru_cache(maxsize=4096)
def _forest_bonus(forest: tuple[int, ...]) -> Elements:
    """:func:`forest_bonus` unchecked and cached (the engine's forests are valid)."""
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


def line_elements(line: Sequence[int]) -> Elements:
    """Raw element sums of the cards of a Help Line (may be negative); StateError if
    ``line`` is not a sequence of card ids."""
    return _line_elements(_checked_line("line_elements", line))


def _line_elements(line: Iterable[int]) -> Elements:
    """:func:`line_elements` unchecked."""
    per_card = tuple(map(CARD_ELEMENTS.__getitem__, line))
    if not per_card:
        return (0, 0, 0, 0, 0)
    return tuple(map(sum, zip(*per_card, strict=True)))  # type: ignore[return-value]


def element_totals(line: Sequence[int], forest: Sequence[int]) -> Elements:
    """A Spirit's (sun, water, plant, wind, flower): Help Line + forest, each at least 0.

    ``line`` holds card ids, ``forest`` 15 tree ids (-1 empty); StateError if not."""
    return _element_totals(
        _checked_line("element_totals", line), _checked_forest("element_totals", forest)
    )


@functools.lru_cache(maxsize=1 << 16)
def _element_totals(line: tuple[int, ...], forest: tuple[int, ...]) -> Elements:
    """:func:`element_totals` unchecked and cached (both tuples; the engine's are valid)."""
    sun, water, plant, wind, flower = map(operator.add, _line_elements(line), _forest_bonus(forest))
    return (
        sun if sun > 0 else 0,
        water if water > 0 else 0,
        plant if plant > 0 else 0,
        wind if wind > 0 else 0,
        flower if flower > 0 else 0,
    )


def solitary_count(line: Sequence[int]) -> int:
    """Uncancelled solitary symbols of a Help Line, a sequence of card ids (each
    gregarious symbol cancels one, revealed before or after); StateError if not."""
    return _solitary_count(_checked_line("solitary_count", line))


@functools.lru_cache(maxsize=1 << 12)
def _solitary_count(line: tuple[int, ...]) -> int:
    """:func:`solitary_count` unchecked and cached (a tuple; the engine's lines are valid)."""
    return max(0, sum(map(CARD_SYMBOL.__getitem__, line)))


def tree_count(forest: Sequence[int]) -> int:
    """Different tree types in a forest (15 cells, tree ids, -1 empty), the starting tree
    included; StateError if ``forest`` is not such a sequence."""
    return _tree_count(_checked_forest("tree_count", forest))


def _tree_count(forest: Iterable[int]) -> int:
    """:func:`tree_count` unchecked (the engine's forests are valid)."""
    kinds = set(forest)
    kinds.discard(-1)
    return len(kinds)


def progress_of(
    line: Sequence[int], forest: Sequence[int], fires_held: int, tiles: Sequence[int]
) -> tuple[int, int, int]:
    """(trees, fires, flowers) of one Spirit, Victory tiles ``(tree, fire, flower)`` included;
    StateError if an argument is not of that shape."""
    counts = _checked_counts("progress_of", (fires_held, *_checked_tiles(tiles)))
    return _progress_of(
        _checked_line("progress_of", line), _checked_forest("progress_of", forest),
        counts[0], counts[1:],
    )  # fmt: skip


def _progress_of(
    line: tuple[int, ...], forest: tuple[int, ...], fires_held: int, tiles: Sequence[int]
) -> tuple[int, int, int]:
    """:func:`progress_of` unchecked (the engine's arguments are valid)."""
    flowers = _element_totals(line, forest)[FLOWER]
    return (_tree_count(forest) + tiles[0], fires_held + tiles[1], flowers + tiles[2])


def decide_winners(progress: Sequence[Sequence[int]], goal: int = GOAL) -> tuple[int, ...]:
    """The winning seats given one ``(trees, fires, flowers)`` per seat.

    The seats with at least ``goal`` (12) in one count are the candidates; one
    candidate wins alone; several: the highest sum of the three counts wins,
    a tie shares the victory. With no candidate the game is not won: ``()``
    (see :func:`limit_winners` for the game's turn limit).
    """
    progress = _checked_progress(progress)
    goal = as_int(goal, "goal", 0)
    candidates = [seat for seat, counts in enumerate(progress) if max(counts) >= goal]
    return _best_sums(progress, candidates)


def limit_winners(progress: Sequence[Sequence[int]], goal: int = GOAL) -> tuple[int, ...]:
    """Winners when the game stops at its turn limit: as :func:`decide_winners`, but
    with no seat at the goal every seat is a candidate (highest sum, ties shared)."""
    progress = _checked_progress(progress)
    return decide_winners(progress, goal) or _best_sums(progress, range(len(progress)))


def _checked_progress(progress: Any) -> tuple[tuple[int, ...], ...]:
    """``progress`` as one triple of non-negative ints per seat; StateError otherwise."""
    if not is_list_like(progress):
        raise StateError(
            f"progress must list (trees, fires, flowers) per seat, not {excerpt(progress)}"
        )
    rows = tuple(progress)
    for seat, counts in enumerate(rows):
        if (
            not is_list_like(counts)
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


def _checked_ids(caller: str, what: str, ids: Any, kind: str, count: int, empty: bool) -> Ids:
    """``ids`` (a sequence or a 1-d array) as a tuple of ``kind`` ids ``0 .. count - 1`` (or
    -1 if ``empty``)."""
    ids = unarray(ids)  # numpy ints become ints; other items stay as they are, refused below
    if not isinstance(ids, Sequence) or isinstance(ids, str | bytes):
        raise StateError(f"{caller}: {what} must be a sequence of {kind} ids, not {excerpt(ids)}")
    low = -1 if empty else 0
    for k, each in enumerate(ids):
        if (
            isinstance(each, bool)
            or not isinstance(each, int | np.integer)
            or not low <= each < count
        ):
            raise StateError(
                f"{caller}: {what}[{k}] must be a {kind} id 0..{count - 1}"
                f"{' or -1 (empty)' if empty else ''}, not {excerpt(each)}"
            )
    return tuple(map(int, ids))


def _checked_line(caller: str, line: Any) -> Ids:
    """A Help Line: card ids (StateError if not)."""
    return _checked_ids(caller, "line", line, "card", len(CARD_NAMES), empty=False)


def _checked_forest(caller: str, forest: Any) -> Ids:
    """A forest: 15 tree ids, -1 for an empty cell (StateError if not)."""
    cells = _checked_ids(caller, "forest", forest, "tree", len(TREE_NAMES), empty=True)
    if len(cells) != FOREST_CELLS:
        raise StateError(f"{caller}: a forest has {FOREST_CELLS} cells, not {len(cells)}")
    return cells


def _checked_tiles(tiles: Any) -> tuple[Any, ...]:
    """Victory tiles (tree, fire, flower): three items, or a 1-d array (StateError if not)."""
    tiles = unarray(tiles)
    if not isinstance(tiles, Sequence) or isinstance(tiles, str | bytes) or len(tiles) != 3:
        raise StateError(f"progress_of: tiles must be (tree, fire, flower), not {excerpt(tiles)}")
    return tuple(tiles)


def _checked_counts(caller: str, counts: tuple[Any, ...]) -> Ids:
    """Non-negative int counts (StateError if not)."""
    for each in counts:
        if isinstance(each, bool) or not isinstance(each, int | np.integer) or each < 0:
            raise StateError(f"{caller}: a count must be a non-negative int, not {excerpt(each)}")
    return tuple(map(int, counts))
