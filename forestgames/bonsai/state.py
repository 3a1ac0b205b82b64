"""The Bonsai state: an immutable position (data and read-only views; the rules are the game's).

Read the position through the properties: ``tree(p)`` (a :class:`Tree`),
``supply(p)``, ``cards_of(p)``, ``market_cards``, ``deck_size``, ``goal_owners``,
``phase`` and ``current_player``. Card fields hold card *types* (indices of
``CARD_TYPES``): copies of a card are identical, so states that differ only by
which copy is where are the same state.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

import attrs

from forestgames.bonsai._tables import CARD_TYPES, GOALS, KINDS
from forestgames.bonsai.moves import BonsaiMove
from forestgames.bonsai.tree import Tree
from forestgames.core import StateBase

if TYPE_CHECKING:
    from forestgames.bonsai.rules import BonsaiGame

__all__ = ["SYMBOL_NAMES", "BonsaiState", "Phase"]

SYMBOL_NAMES = (*KINDS, "wild")
"""The placement symbols, in the order of ``BonsaiState.symbols``."""


class Phase(StrEnum):
    """What the current player is deciding."""

    ACTION = "action"  # start of a turn: Meditate, first Cultivate placement, or a prune
    CULTIVATE = "cultivate"  # more placements of this Cultivate, or finish
    HELPER = "helper"  # the Helper card's placements, or finish
    DISCARD = "discard"  # over the storage limit after Meditate
    GOALS = "goals"  # claim or renounce the offered goal
    OVER = "over"


_OVER = Phase.OVER


def mover(game: BonsaiGame, phase: Phase, turn: int, first_player: int) -> int | None:
    """The seat to move in ``phase`` of ``turn``, or None once the game is over."""
    return None if phase is _OVER else (first_player + turn) % game.num_players


@attrs.frozen(slots=False, repr=False)
class BonsaiState(StateBase[BonsaiMove]):
    """A Bonsai position. Build with ``game.new_game()``; change with ``apply()``.

    ``turn`` counts the turns before this one (the first player's first turn is
    0), ``last_turn`` is the game's final turn once the deck has run out (-1
    before). ``deck`` (card types, top first) is hidden from observations;
    ``market`` holds slots 1..4 (-1 for an empty slot; empty slots are always
    on the deck side). ``symbols`` are the placements still allowed this
    Cultivate or Helper as (wood, leaf, flower, fruit, wild). Goals are ids
    into ``GOALS``: ``goals_in_play`` and each seat's ``renounced`` are bit
    masks, ``goal_owner`` the seat holding each goal (-1 if none).
    """

    game: BonsaiGame
    phase: Phase
    first_player: int
    turn: int
    last_turn: int
    deck: tuple[int, ...]
    market: tuple[int, ...]
    discards: tuple[int, ...]
    trees: tuple[Tree, ...]
    supplies: tuple[tuple[int, int, int, int], ...]
    cards: tuple[tuple[int, ...], ...]
    goals_in_play: int
    goal_owner: tuple[int, ...]
    renounced: tuple[int, ...]
    symbols: tuple[int, int, int, int, int]

    # Derived from the fields above (kept by the transitions; not compared or saved).
    current_player: int | None = attrs.field(init=False, eq=False, repr=False)
    """The seat to move, or None once the game is over."""
    is_terminal: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        object.__setattr__(
            self, "current_player", mover(self.game, self.phase, self.turn, self.first_player)
        )
        object.__setattr__(self, "is_terminal", self.phase is _OVER)

    def __repr__(self) -> str:
        return (
            f"<BonsaiState {self.game.num_players}p {self.phase.value} turn {self.turn} "
            f"to move: {self.current_player} scores {self.scores}>"
        )

    # ------------------------------------------------------------------ the position

    def tree(self, player: int) -> Tree:
        """``player``'s bonsai (``.tiles`` maps (q, r) to a Tile, the bud included)."""
        return self.trees[self._seat(player)]

    def supply(self, player: int) -> dict[str, int]:
        """``player``'s personal supply of tiles by kind."""
        return dict(zip(map(str, KINDS), self.supplies[self._seat(player)], strict=True))

    def cards_of(self, player: int) -> tuple[str, ...]:
        """The names of the Zen cards ``player`` holds (Parchments included)."""
        return tuple(CARD_TYPES[c].name for c in self.cards[self._seat(player)])

    def storage_limit(self, player: int) -> int:
        """5 tiles, +2 per Tool card held."""
        return self.game._storage_limit(self.cards[self._seat(player)])

    def cultivate_symbols(self, player: int) -> tuple[int, int, int, int, int]:
        """The Seishi tile's symbols plus one per Growth card: (wood, leaf, flower, fruit, wild)."""
        return self.game._cultivate_symbols(self.cards[self._seat(player)])

    def score_parts(self, player: int) -> dict[str, int]:
        """``player``'s points by source: tree, goals, parchments, and their total."""
        return self.game._score_parts(self, self._seat(player))

    @property
    def market_cards(self) -> tuple[str | None, ...]:
        """Card names in slots 1..4 (None for an empty slot)."""
        return tuple(None if c < 0 else CARD_TYPES[c].name for c in self.market)

    @property
    def deck_size(self) -> int:
        """Cards left in the deck (their order is hidden)."""
        return len(self.deck)

    @property
    def goal_owners(self) -> dict[str, int]:
        """Claimed goals by name (``"brown 2"``) and the seat holding each."""
        return {GOALS[g].name: s for g, s in enumerate(self.goal_owner) if s >= 0}

    @property
    def offered_goal(self) -> str | None:
        """In the goals step, the goal the current player must claim or renounce."""
        player = self.current_player
        if self.phase is not Phase.GOALS or player is None:
            return None
        return GOALS[self.game._offered_goal(self, player)].name

    @property
    def solo_won(self) -> bool:
        """Solo: three goals claimed (one per colour) and the difficulty's points reached."""
        return self.game._solo_won(self)
