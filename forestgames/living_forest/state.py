"""The Living Forest state: an immutable position (data and read-only views; rules: the game).

Cards are ids (rows of the card CSV, see ``_tables``); per-seat data are tuples
indexed by seat. Decks list the top card first; discard piles and face-up
reserve rows are kept sorted (their order carries no information).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

import attrs

from forestgames.core import IllegalMoveError, StateBase, as_int
from forestgames.living_forest._tables import (
    ACTIONS,
    CARD_NAMES,
    FOREST_COLS,
    FOREST_ROWS,
    FRAGMENT_SUPPLY,
    TREE_COPIES,
    TREE_NAMES,
)
from forestgames.living_forest.moves import LivingForestMove
from forestgames.living_forest.scoring import _element_totals, _progress_of, _solitary_count

if TYPE_CHECKING:
    from forestgames.living_forest.rules import LivingForestGame

__all__ = ["GuardianStart", "LivingForestState", "Phase", "Step"]


class Phase(StrEnum):
    """The part of the turn under way."""

    GUARDIANS = "guardians"  # seats reveal Guardian Animals, one after the other
    ACTIONS = "actions"  # seats take their actions, one after the other
    OVER = "over"


class Step(StrEnum):
    """What the acting seat is in the middle of during the Action phase."""

    CHOOSE = "choose"  # free to start an action or to end its actions
    ATTRACT = "attract"  # taking reserve cards within ``budget`` sun
    EXTINGUISH = "extinguish"  # taking fires within ``budget`` water
    VICTORY = "victory"  # taking Victory tiles from the Spirits ``passed`` by a Move
    PLANT = "plant"  # planting the tree of a rock's bonus action


class GuardianStart(NamedTuple):
    """Each seat's pieces a Guardian turn changes, as the phase started (option
    ``guardian_phase="simultaneous"``): decks (top first), their known tops, discard
    piles, Fragments, and the Varan stack. Help Lines are empty at the start."""

    decks: tuple[tuple[int, ...], ...]
    known: tuple[int, ...]
    discards: tuple[tuple[int, ...], ...]
    fragments: tuple[int, ...]
    varans: int


_OVER = Phase.OVER  # a module constant: reading a member from its enum class is slow


@attrs.frozen(slots=False, repr=False)
class LivingForestState(StateBase[LivingForestMove]):
    """A Living Forest position. Build with ``game.new_game()``; change with ``apply()``.

    Per seat: ``decks`` (top first; the first ``known`` cards were put there by
    Attract and are public), ``lines`` (Help Lines in reveal order),
    ``discards`` (sorted), ``fragments``, ``forests`` (15 cells row-major, tree
    ids, -1 empty), ``rocks``, ``victory`` (tiles held by kind: tree, fire,
    flower) and ``fires_held`` (fire tiles taken, by value 2, 3, 4).
    Shared: ``centre`` (fire values, sorted), ``fire_supply`` (by value),
    ``varans`` (Fire Varans in their stack), ``stacks`` and ``rows`` (reserve
    levels I–III, face down top first / face up sorted), ``taken`` (reserve cards
    taken this turn by level). Turn: ``sacred`` holds the Sacred Tree and acts
    first; ``seat_index`` counts the seats done in this phase. The acting
    seat's Action phase: ``actions`` (its normal actions so far), ``step``,
    ``budget`` and ``picks`` (of the Attract/Extinguish under way), ``passed``
    (Spirits still to take a Victory tile from) and ``bonus`` (the rock's
    action then due, -1 none). ``entropy`` seeds the next reshuffle (hidden).
    """

    game: LivingForestGame
    phase: Phase
    turn: int
    sacred: int
    seat_index: int
    decks: tuple[tuple[int, ...], ...]
    known: tuple[int, ...]
    lines: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    fragments: tuple[int, ...]
    forests: tuple[tuple[int, ...], ...]
    rocks: tuple[int, ...]
    victory: tuple[tuple[int, int, int], ...]
    fires_held: tuple[tuple[int, int, int], ...]
    centre: tuple[int, ...]
    fire_supply: tuple[int, int, int]
    varans: int
    stacks: tuple[tuple[int, ...], ...]
    rows: tuple[tuple[int, ...], ...]
    taken: tuple[int, int, int]
    actions: tuple[int, ...]
    step: Step
    budget: int
    picks: int
    passed: tuple[int, ...]
    bonus: int
    entropy: int
    guardian_start: GuardianStart | None = None

    # ------------------------------------------------------------------ who acts

    @property
    def current_player(self) -> int | None:
        """The seat to move, or None once the game is over."""
        if self.phase is _OVER:
            return None
        return (self.sacred + self.seat_index) % len(self.decks)

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase is _OVER

    def __repr__(self) -> str:
        return (
            f"<LivingForestState {len(self.decks)}p {self.phase.value} turn {self.turn} "
            f"to move: {self.current_player} progress {self.progress}>"
        )

    # ------------------------------------------------------------------ the position

    @property
    def num_players(self) -> int:
        """How many seats play."""
        return len(self.decks)

    @property
    def turn_order(self) -> tuple[int, ...]:
        """This turn's seats in order, from the Sacred Tree holder."""
        p = len(self.decks)
        return tuple((self.sacred + k) % p for k in range(p))

    def totals(self, seat: int) -> tuple[int, int, int, int, int]:
        """``seat``'s (sun, water, plant, wind, flower): Help Line + forest, each ≥ 0."""
        seat = self._seat(seat, "seat")
        return _element_totals(self.lines[seat], self.forests[seat])

    def solitary(self, seat: int) -> int:
        """Uncancelled solitary symbols in ``seat``'s Help Line."""
        return _solitary_count(self.lines[self._seat(seat, "seat")])

    @property
    def progress(self) -> tuple[tuple[int, int, int], ...]:
        """Per seat (trees, fires, flowers), Victory tiles included."""
        return tuple(
            _progress_of(self.lines[s], self.forests[s], sum(self.fires_held[s]), self.victory[s])
            for s in range(len(self.decks))
        )

    def help_line(self, seat: int) -> tuple[str, ...]:
        """Names of the cards in ``seat``'s Help Line, in reveal order."""
        return tuple(CARD_NAMES[c] for c in self.lines[self._seat(seat, "seat")])

    def deck_size(self, seat: int) -> int:
        """How many cards ``seat``'s deck holds."""
        return len(self.decks[self._seat(seat, "seat")])

    def discard_size(self, seat: int) -> int:
        """How many cards ``seat``'s discard pile holds."""
        return len(self.discards[self._seat(seat, "seat")])

    def forest(self, seat: int) -> tuple[tuple[str | None, ...], ...]:
        """``seat``'s forest as 3 rows of 5 tree names (``"start"``, ``"3A"``, ...; None where
        empty): the names of the int ids in ``forests``."""
        cells = [None if t < 0 else TREE_NAMES[t] for t in self.forests[self._seat(seat, "seat")]]
        return tuple(
            tuple(cells[r * FOREST_COLS : (r + 1) * FOREST_COLS]) for r in range(FOREST_ROWS)
        )

    def reserve_row(self, level: int) -> tuple[str, ...]:
        """Names of the face-up reserve cards of ``level`` (1, 2 or 3: I, II, III)."""
        level = as_int(level, "reserve level", 1, 3, IllegalMoveError)
        return tuple(CARD_NAMES[c] for c in self.rows[level - 1])

    @property
    def fragment_supply(self) -> int:
        """Fragment tiles left in the supply."""
        return FRAGMENT_SUPPLY - sum(self.fragments)

    def tree_supply(self) -> dict[str, int]:
        """Trees left to plant, by type."""
        copies = TREE_COPIES[len(self.decks)]
        planted = [0] * len(TREE_NAMES)
        for forest in self.forests:
            for tree in forest:
                if tree > 0:
                    planted[tree] += 1
        return {TREE_NAMES[t]: copies[t] - planted[t] for t in range(1, len(TREE_NAMES))}

    @property
    def action_names(self) -> tuple[str, ...]:
        """The acting seat's normal actions this turn, by name."""
        return tuple(ACTIONS[a] for a in self.actions)
