"""Living Forest's agent heuristic: what a Spirit owns, and what its turn can still do.

The victory counts move only when a tree is planted, a fire put out or a
flower shown, so a value built on them alone cannot tell a good reveal, card
or Move from a bad one. :func:`position_value` adds, per seat, in units of one
step toward a goal:

* **progress** toward each goal, convex (``x + x**2 / 12`` per count), so
  that a count near 12 is worth more than the same steps spread thin; flowers
  of the Help Line count at a discount (they leave at the end of the turn);
* **cards**: every card the Spirit owns (deck, discard pile, Help Line) by its
  elements (``CARD_VALUE``): gregarious symbols up, solitary ones and Fire
  Varans down;
* **the forest's permanent elements** (tree and full-line bonuses), worth more
  than a card's because they count every turn; **Fragments**;
* **this turn's potential**: for a Spirit that still has actions this turn,
  the best of what its element totals allow (a tree to plant, fires to put
  out, cards to attract, a Fragment, a Move), one per action left, at a
  discount; an Attract, Extinguish or Plant under way counts in full, with its
  budget;
* **Onibi's threat**: a Spirit whose water is below the centre's fires faces
  one Fire Varan per fire at the end of the turn.

:func:`move_values` values each candidate by :func:`position_value` after it,
finishing a compound action the move starts (the Attract's cards, the Move's
Victory tiles and bonus action) greedily, one move at a time, for at most
:data:`COMPLETION_STEPS` moves. A ``reveal`` is valued as the average over the
cards the revealing seat may draw (the attracted cards on top are known;
otherwise its own deck's contents, or its discard pile when the deck is empty):
the real top card is never looked at.

What the value reads is public, except the cards a Spirit owns: those are what
a player with perfect memory could track, and what ``determinize`` keeps.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np

from forestgames.living_forest._tables import (
    CARD_COST,
    CARD_ELEMENTS,
    CARD_SYMBOL,
    FLOWER,
    FOREST_CELLS,
    FRAGMENT_SUPPLY,
    GOAL,
    NEIGHBOURS,
    PLANT,
    SOLITARY_LIMIT,
    SUN,
    TREE_BONUS,
    TREE_COPIES,
    TREE_COST,
    TREE_NAMES,
    WATER,
    WIND,
)
from forestgames.living_forest.moves import Reveal
from forestgames.living_forest.scoring import (
    _element_totals,
    _forest_bonus,
    _solitary_count,
    _tree_count,
)
from forestgames.living_forest.state import Phase, Step

__all__ = ["CARD_VALUE", "move_values", "position_value", "seat_value"]

Rows = tuple[tuple[int, ...], ...]

# --------------------------------------------------------------------------- weights

ELEMENT_WEIGHTS = (0.12, 0.2, 0.2, 0.08, 0.25)
"""Value of one element (sun, water, plant, wind, flower) on a card."""
SYMBOL_WEIGHT = 0.35
"""Value of a gregarious symbol on a card (a solitary one costs as much)."""
PERMANENT_FACTOR = 4.0
"""A forest element counts every turn: this many times a card element."""
FRAGMENT_VALUE = 0.4
LINE_FLOWER_FACTOR = 0.3
"""Help Line flowers count toward the flower goal only at the end of this turn."""
POTENTIAL_FACTOR = 0.6
"""This turn's possible actions, at a discount (other seats act first, plans change)."""
VARAN_THREAT = 0.5
"""Cost of each Fire Varan Onibi would add at the end of the turn."""
WIN_BONUS = 40.0
"""Value of being among the winners once the game is over."""
COMPLETION_STEPS = 12
"""Bound on the moves :func:`move_values` plays to finish a compound action."""


def _card_value(card: int) -> float:
    elements = sum(w * x for w, x in zip(ELEMENT_WEIGHTS, CARD_ELEMENTS[card], strict=True))
    return elements - SYMBOL_WEIGHT * CARD_SYMBOL[card]


CARD_VALUE: tuple[float, ...] = tuple(_card_value(c) for c in range(len(CARD_ELEMENTS)))
"""Each card's value by id (a Fire Varan: one solitary symbol, no element)."""
TREE_VALUE: tuple[float, ...] = tuple(
    PERMANENT_FACTOR * sum(w * x for w, x in zip(ELEMENT_WEIGHTS, bonus, strict=True))
    for bonus in TREE_BONUS
)
"""A planted tree's permanent bonus, by tree id (tree 11's repeat right not valued)."""


# --------------------------------------------------------------------------- the value


def position_value(state: Any, rows: Rows | None = None) -> np.ndarray:
    """(P,) estimated worth of each Spirit's position, in steps toward a goal (module doc);
    with ``rows``, the face-up reserve is taken to be those cards."""
    return np.array([seat_value(state, seat, rows=rows) for seat in range(state.num_players)])


def seat_value(
    state: Any, seat: int, line: tuple[int, ...] | None = None, rows: Rows | None = None
) -> float:
    """``seat``'s value in ``state``, its Help Line replaced by ``line`` and the face-up
    reserve by ``rows`` if given."""
    if line is None:
        line = state.lines[seat]
    forest = state.forests[seat]
    tiles = state.victory[seat]
    totals = _element_totals(line, forest)
    permanent = _forest_bonus(forest)
    trees = _tree_count(forest) + tiles[0]
    fires = sum(state.fires_held[seat]) + tiles[1]
    flowers = max(0, permanent[FLOWER]) + tiles[2]
    value = _progress(trees) + _progress(fires) + _progress(flowers)
    value += LINE_FLOWER_FACTOR * (totals[FLOWER] + tiles[2] - flowers)
    value += _owned_cards(state, seat, line)
    value += PERMANENT_FACTOR * sum(
        w * max(0, x) for w, x in zip(ELEMENT_WEIGHTS, permanent, strict=True)
    )
    value += FRAGMENT_VALUE * state.fragments[seat]
    if state.phase is Phase.OVER:
        return float(value + WIN_BONUS * (seat in state.winners))
    reserve = state.rows if rows is None else rows
    value += _potential(state, seat, line, totals, reserve)
    return float(value - _onibi_threat(state, totals))


def _progress(count: int) -> float:
    return count + count * count / GOAL


def _owned_cards(state: Any, seat: int, line: tuple[int, ...]) -> float:
    """The cards' values summed exactly (``fsum``): a float sum in deck order would differ
    in its last bits between two orders of the same deck, which is hidden."""
    value = CARD_VALUE.__getitem__
    return math.fsum(map(value, chain(state.decks[seat], state.discards[seat], line)))


def _onibi_threat(state: Any, totals: tuple[int, ...]) -> float:
    centre = state.centre
    if not centre or totals[WATER] >= sum(centre):
        return 0.0
    return VARAN_THREAT * len(centre)


# --------------------------------------------------------------------------- this turn


def _actions_left(state: Any, seat: int, line: tuple[int, ...]) -> int:
    """Normal actions ``seat`` may still start this turn."""
    limit = 1 if _solitary_count(line) >= SOLITARY_LIMIT else 2
    if state.phase is Phase.GUARDIANS:
        return limit
    order = (seat - state.sacred) % state.num_players
    if order < state.seat_index:
        return 0
    if order > state.seat_index:
        return limit
    return max(0, limit - len(state.actions))


def _potential(
    state: Any, seat: int, line: tuple[int, ...], totals: tuple[int, ...], rows: Rows
) -> float:
    """What this turn's remaining actions of ``seat`` could do: the action under way in
    full, the best of each action still to start at ``POTENTIAL_FACTOR``."""
    left = _actions_left(state, seat, line)
    under_way = 0.0
    if state.phase is Phase.ACTIONS and state.current_player == seat:
        under_way = _under_way(state, seat, totals, rows)
    if not left:
        return under_way
    gains = sorted(
        (
            FRAGMENT_VALUE if sum(state.fragments) < FRAGMENT_SUPPLY else 0.0,
            _attract_gain(rows, totals[SUN]),
            _extinguish_gain(state, seat, totals[WATER]),
            _plant_gain(state, seat, totals[PLANT]),
            0.5 if totals[WIND] else 0.0,
        ),
        reverse=True,
    )
    return under_way + POTENTIAL_FACTOR * sum(gains[:left])


def _under_way(state: Any, seat: int, totals: tuple[int, ...], rows: Rows) -> float:
    step = state.step
    if step is Step.ATTRACT:
        return _attract_gain(rows, state.budget)
    if step is Step.EXTINGUISH:
        return _extinguish_gain(state, seat, state.budget)
    if step is Step.PLANT:
        return _plant_gain(state, seat, totals[PLANT])
    if step is Step.VICTORY:
        return 2.0 * len(state.passed)
    return 0.0


def _attract_gain(rows: Rows, sun: int) -> float:
    """Face-up cards ``sun`` can pay for, the best value per sun first."""
    cards = sorted(
        (c for row in rows for c in row if CARD_COST[c] <= sun and CARD_VALUE[c] > 0),
        key=lambda c: CARD_VALUE[c] / max(1, CARD_COST[c]),
        reverse=True,
    )
    gain = 0.0
    for card in cards:
        if CARD_COST[card] <= sun:
            sun -= CARD_COST[card]
            gain += CARD_VALUE[card]
    return gain


def _extinguish_gain(state: Any, seat: int, water: int) -> float:
    """Fires ``water`` can put out, the smallest first, each one step toward the goal."""
    fires = sum(state.fires_held[seat]) + state.victory[seat][1]
    gain = 0.0
    for value in state.centre:  # sorted
        if value > water:
            break
        water -= value
        gain += _progress(fires + 1) - _progress(fires)
        fires += 1
    return gain


def _plant_gain(state: Any, seat: int, plant: int) -> float:
    """The best tree ``plant`` can pay for: a new type's step plus its bonus."""
    if plant < TREE_COST[1]:
        return 0.0
    forest = state.forests[seat]
    if not any(
        forest[c] < 0 and any(forest[n] >= 0 for n in NEIGHBOURS[c]) for c in range(FOREST_CELLS)
    ):
        return 0.0
    left = list(TREE_COPIES[state.num_players])
    for other in state.forests:
        for tree in other:
            if tree > 0:
                left[tree] -= 1
    trees = _tree_count(forest) + state.victory[seat][0]
    step = _progress(trees + 1) - _progress(trees)
    duplicates = getattr(state.game, "duplicate_trees", True)
    best = 0.0
    for tree in range(1, len(TREE_NAMES)):
        if TREE_COST[tree] > plant or left[tree] <= 0:
            continue
        new = tree not in forest
        if new or duplicates:
            best = max(best, step * new + TREE_VALUE[tree])
    return best


# --------------------------------------------------------------------------- moves


def move_values(state: Any, moves: Sequence[Any]) -> np.ndarray:
    """(M, P): :func:`position_value` after each of ``moves`` (see the module doc)."""
    return np.array([_value_after(state, move) for move in moves]).reshape(
        len(moves), state.num_players
    )


def _value_after(state: Any, move: Any) -> np.ndarray:
    if isinstance(move, Reveal):
        return _reveal_value(state, move.player)
    after = _finish_action(state.apply(move), move.player, state)
    return position_value(after, _known_rows(state, after))


def _known_rows(before: Any, after: Any) -> Rows | None:
    """The reserve as the mover knows it: once a turn ends, the refill is hidden from the
    one who looks ahead, so the rows it saw stand in for the new ones."""
    return before.rows if after.turn != before.turn else None


def _reveal_value(state: Any, seat: int) -> np.ndarray:
    """The value after a reveal, averaged over the cards ``seat`` may turn up."""
    value = position_value(state)
    line = state.lines[seat]
    deck = state.decks[seat]
    if state.known[seat]:
        draws = Counter(deck[:1])
    else:
        draws = Counter(deck or state.discards[seat])
    total = sum(draws.values())
    value[seat] = math.fsum(  # exact: the same whatever the order the deck lists its cards
        count * seat_value(state, seat, line + (card,)) for card, count in draws.items()
    ) / max(1, total)
    return value


def _finish_action(state: Any, seat: int, origin: Any) -> Any:
    """Play ``seat``'s compound action under way to its end, the best margin each step
    (valued as the mover in ``origin`` would see it)."""
    for _ in range(COMPLETION_STEPS):
        if (
            state.phase is not Phase.ACTIONS
            or state.current_player != seat
            or state.step is Step.CHOOSE
        ):
            break
        best, best_margin = None, -np.inf
        for move in state.legal_moves(seat):
            after = state.apply(move)
            values = position_value(after, _known_rows(origin, after))
            margin = values[seat] - np.delete(values, seat).max(initial=-np.inf)
            if margin > best_margin:
                best, best_margin = after, margin
        state = best
    return state
