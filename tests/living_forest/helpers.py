"""Builders of hand-made Living Forest positions for the scripted tests.

Positions start from a real new game and move cards between places (never
creating or losing one), so every built state still passes ``state_from_dict``:
``checked(state)`` asserts that before a test relies on it.
"""

from __future__ import annotations

from typing import Any

import attrs

import forestgames as fg
from forestgames.living_forest._tables import CARD_INDEX, CARD_LEVEL, TREE_INDEX, VARAN
from forestgames.living_forest.state import Phase, Step


def make(players: int = 2, **options: Any) -> Any:
    """The game with ``options``."""
    return fg.make("living_forest", num_players=players, **options)


def start(players: int = 2, seed: int = 1, **options: Any) -> Any:
    """A new game, seat 0 holding the Sacred Tree."""
    return make(players, **options).new_game(seed=seed, first_player=0)


def ids(*names: str) -> tuple[int, ...]:
    """Card ids of ``names``."""
    return tuple(CARD_INDEX[n] for n in names)


def forest(*rows: str) -> tuple[int, ...]:
    """A forest from 3 rows of 5 space-separated cells: '.' empty, 'S' start, tree ids."""
    cells = []
    for row in rows:
        for cell in row.split():
            cells.append(-1 if cell == "." else 0 if cell == "S" else TREE_INDEX[cell])
    assert len(cells) == 15
    return tuple(cells)


def _take(state: Any, seat: int, card: int) -> Any:
    """``state`` with one copy of ``card`` removed from where it is (own piles, reserve stacks)."""
    if card == VARAN:
        return attrs.evolve(state, varans=state.varans - 1)
    if CARD_LEVEL[card] == 0:
        for field in ("decks", "discards", "lines"):
            piles = list(getattr(state, field))
            if card in piles[seat]:
                pile = list(piles[seat])
                pile.remove(card)
                piles[seat] = tuple(pile)
                return attrs.evolve(state, **{field: tuple(piles)})
        raise AssertionError(f"seat {seat} has no free {card}")
    level = CARD_LEVEL[card] - 1
    for field in ("stacks", "rows"):
        piles = list(getattr(state, field))
        if card in piles[level]:
            pile = list(piles[level])
            pile.remove(card)
            piles[level] = tuple(pile)
            return attrs.evolve(state, **{field: tuple(piles)})
    raise AssertionError(f"card {card} is not in the reserve")


def put(state: Any, seat: int, where: str, names: tuple[str, ...] | list[str]) -> Any:
    """Move the cards ``names`` to ``seat``'s ``where`` ('line', 'deck' top, 'discard')."""
    for name in names:
        card = CARD_INDEX[name]
        state = _take(state, seat, card)
        if where == "line":
            lines = list(state.lines)
            lines[seat] = lines[seat] + (card,)
            state = attrs.evolve(state, lines=tuple(lines))
        elif where == "deck":
            decks = list(state.decks)
            decks[seat] = (card,) + decks[seat]
            state = attrs.evolve(state, decks=tuple(decks))
        else:
            discards = list(state.discards)
            discards[seat] = tuple(sorted(discards[seat] + (card,)))
            state = attrs.evolve(state, discards=tuple(discards))
    return state


def to_row(state: Any, names: tuple[str, ...] | list[str]) -> Any:
    """Make ``names`` face up (swapping out the first face-up cards of their level)."""
    for name in names:
        card = CARD_INDEX[name]
        level = CARD_LEVEL[card] - 1
        rows, stacks = list(state.rows), list(state.stacks)
        if card in rows[level]:
            continue
        out = next(c for c in rows[level] if c not in ids(*names))
        rows[level] = tuple(sorted([c for c in rows[level] if c != out] + [card]))
        stacks[level] = tuple(out if c == card else c for c in stacks[level])
        state = attrs.evolve(state, rows=tuple(rows), stacks=tuple(stacks))
    return state


def empty_deck(state: Any, seat: int) -> Any:
    """Move all of ``seat``'s deck to its discard pile."""
    discards, decks = list(state.discards), list(state.decks)
    discards[seat] = tuple(sorted(discards[seat] + decks[seat]))
    decks[seat] = ()
    return attrs.evolve(
        state, decks=tuple(decks), discards=tuple(discards), known=(0,) * len(decks)
    )


def acting(state: Any, seat_index: int = 0, **changes: Any) -> Any:
    """``state`` in the Action phase, the ``seat_index``-th seat choosing its first action."""
    return attrs.evolve(
        state, phase=Phase.ACTIONS, seat_index=seat_index, step=Step.CHOOSE, actions=(), **changes
    )


def with_seat(state: Any, field: str, seat: int, value: Any) -> Any:
    """``state`` with ``field[seat]`` replaced."""
    values = list(getattr(state, field))
    values[seat] = value
    return attrs.evolve(state, **{field: tuple(values)})


def checked(state: Any) -> Any:
    """``state`` after asserting it is a valid saved state (a round trip through to_dict)."""
    restored = state.game.state_from_dict(state.to_dict())
    assert restored == state
    return state


def play(state: Any, *texts: str) -> Any:
    """Apply moves given in notation."""
    for text in texts:
        state = state.apply(state.game.parse_move(text))
    return state


def names(moves: Any) -> list[str]:
    """Moves as notation strings."""
    return [str(m) for m in moves]


def stack_deck(state: Any, seat: int, *names: str) -> Any:
    """``seat``'s deck reordered so that ``names`` are its top cards, in that order."""
    deck = list(state.decks[seat])
    top = []
    for name in names:
        deck.remove(CARD_INDEX[name])
        top.append(CARD_INDEX[name])
    return with_seat(state, "decks", seat, tuple(top + deck))
