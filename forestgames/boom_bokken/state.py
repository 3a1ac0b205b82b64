"""The Boom Bokken state: an immutable position (data and read-only views; rules are the game's).

Who may act, and how a driver should run the out-of-turn play
--------------------------------------------------------------
Several seats may have a legal move at the same moment: the named player
(who must answer, or explode), and anyone still in the round who can put a
Flash on the top card, play a Temps Mort, or (Expert mode) a Gardien whose
teammate is named. The state says so through:

* ``state.current_player``: the seat the game is waiting for (the named
  player, or the leader when the pile is empty); None once the game is over;
* ``state.players_to_act``: every seat with a legal move now, the current
  player first, the others in seat order;
* ``state.legal_moves(seat)``: that seat's moves now (``()`` if none).

A driver that wants a table-like order does, after every move::

    order = list(state.players_to_act[1:])   # the seats who may react
    rng.shuffle(order)                        # a seeded "reaction" order
    for seat in order:                        # each gets one chance
        move = agents[seat].react(state, seat)   # a move of legal_moves(seat), or None
        if move is not None:
            break                             # apply it, then start again from the new state
    else:
        move = agents[state.current_player].choose(state)  # nobody reacted: the named one plays
    state = state.apply(move)

A reaction changes the position (new top card, new named player, or an empty
pile), so the reaction round starts over from the new state. When the pile is
empty (a lead is due) nobody can react: ``players_to_act`` is the leader alone.
Games end, whatever the seats do: every play spends a card, a Temps Mort is
followed by a lead, explosions are at most one per player per round, and with
Temps Mort set aside (the Expert default) each Temps Mort is spent for the
round. Only Expert mode with ``spent_time_outs="deck"`` can, in principle, go
on for ever (see ``traits.max_moves`` in docs/boom_bokken.md).

Stored position (prefer the properties): ``packed`` holds each seat's hand as one
int, 8 bits per card code (``hands`` shows them as 17 counts per seat indexed by
card code, see ``_tables``), ``deck`` the draw pile top first,
``pile`` the played cards bottom first, ``active`` a bit mask of the seats
still in the round.

What every seat knows besides the cards on the table is kept too, so that a
seat's view and its determinizations keep it: ``known_bottom`` counts the
cards at the bottom of the draw pile that every seat saw go there (the pile
put under it by a Boom or a Temps Mort), ``known`` holds per seat the cards
everyone knows are in its hand (drawn from that known part of the draw pile),
and ``exploded_on`` records for each exploded seat what it could not answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from forestgames.boom_bokken._tables import (
    ANNOUNCEMENTS,
    CARD_NAMES,
    LOW_SEVENS,
    NUM_CODES,
    PLAY_ORDER,
    PRESENT_BITS,
    REACTION_FIELDS,
    SEATS_OF,
    TIME_OUT,
)
from forestgames.boom_bokken.moves import BoomBokkenMove
from forestgames.boom_bokken.scoring import round_coins
from forestgames.core import StateBase

if TYPE_CHECKING:
    from forestgames.boom_bokken.rules import BoomBokkenGame

__all__ = ["BoomBokkenState", "card_holders", "hand_counts", "hand_names", "pack_hand"]


def hand_names(counts: tuple[int, ...]) -> tuple[str, ...]:
    """The card names of a hand given as 17 counts, sorted by code."""
    return tuple(name for name, n in zip(CARD_NAMES, counts, strict=True) for _ in range(n))


def pack_hand(counts: tuple[int, ...]) -> int:
    """A hand given as 17 counts as the state keeps it: one int, 8 bits per card code."""
    return int.from_bytes(bytes(counts), "little")


def hand_counts(packed: int) -> tuple[int, ...]:
    """The 17 counts of a packed hand."""
    return tuple(packed.to_bytes(NUM_CODES, "little"))


CODES_PRESENT_LIMIT = 1 << 15
"""Most entries :data:`_CODES_PRESENT` keeps (about 6 MB; 2**17 presence patterns exist)."""


class _CodesPresent(dict[int, tuple[int, ...]]):
    """Presence bits (8c + 7) -> the codes present, in legal-move order (by value, orange
    before Flash; the Temps Mort first)."""

    def __missing__(self, present: int) -> tuple[int, ...]:
        if len(self) >= CODES_PRESENT_LIMIT:  # bounded: emptied when full
            self.clear()
        order = (TIME_OUT, *PLAY_ORDER)
        codes = self[present] = tuple(c for c in order if present >> (8 * c + 7) & 1)
        return codes


_CODES_PRESENT = _CodesPresent()


def card_holders(packed: tuple[int, ...]) -> tuple[int, ...]:
    """Per card code, the bit mask of the seats holding one: for the Temps Mort and the
    Flash codes, the cards played out of turn (0 for the orange codes)."""
    holders = [0] * NUM_CODES
    for seat, hand in enumerate(packed):
        for code in _CODES_PRESENT[((hand & REACTION_FIELDS) + LOW_SEVENS) & PRESENT_BITS]:
            holders[code] |= 1 << seat
    return tuple(holders)


@attrs.frozen(slots=False, repr=False)
class BoomBokkenState(StateBase[BoomBokkenMove]):
    """A Boom Bokken position. Build with ``game.new_game()``; change with ``apply()``.

    ``round`` is 1..3; ``over`` is set once the third round ended. ``teams``
    and ``roles`` (Expert mode, else ``()``) are this round's character cards.
    ``safe`` and ``exploded`` list this round's seats out, in order. ``leader``
    is the seat to lead when the pile is empty (else -1); ``target`` the named
    seat (-1 when none), ``higher`` the announcement, ``last_player`` the seat
    that played the top card (-1 when the pile is empty). ``history`` holds
    ``(safe_order, teams)`` of every finished round; ``seed`` drives the deals
    of the rounds to come (hidden, like the deck order). ``known_bottom``,
    ``known`` (per seat, card codes sorted) and ``exploded_on`` (per exploded
    seat: ``(top card code, higher)`` of the announcement it could not answer,
    or None for a leader holding only Temps Mort) are what every seat knows.
    ``flashers`` (a bit mask) holds the seats that played the run of Flash cards on top
    of the pile, with the option ``distinct_flashers`` only (else 0).
    ``holders`` is derived from the hands (see :func:`card_holders`), for a fast
    ``players_to_act``; it takes no part in comparisons, nor does ``is_terminal``.
    """

    game: BoomBokkenGame
    round: int
    over: bool
    seed: int
    teams: tuple[int, ...]
    roles: tuple[str, ...]
    packed: tuple[int, ...]
    deck: tuple[int, ...]
    pile: tuple[int, ...]
    aside: int
    safe: tuple[int, ...]
    exploded: tuple[int, ...]
    active: int
    leader: int
    target: int
    higher: bool
    last_player: int
    tokens: tuple[int, ...]
    history: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    known_bottom: int
    known: tuple[tuple[int, ...], ...]
    exploded_on: tuple[tuple[int, bool] | None, ...]
    holders: tuple[int, ...] = attrs.field(eq=False, repr=False)
    flashers: int = 0
    is_terminal: bool = attrs.field(init=False, eq=False, repr=False)
    """Whether the game is over: ``over``, kept as a plain attribute by the transitions
    (cheaper to read than a property on the hot path); not compared or saved."""

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        object.__setattr__(self, "is_terminal", self.over)

    # ------------------------------------------------------------------ who acts

    @property
    def current_player(self) -> int | None:
        """The seat the game waits for: the named player, else the leader; None once over."""
        if self.over:
            return None
        return self.target if self.target >= 0 else self.leader

    def __repr__(self) -> str:
        return (
            f"<BoomBokkenState {self.game.num_players}p round {self.round} "
            f"to act: {self.players_to_act} scores {self.scores}>"
        )

    # ------------------------------------------------------------------ the position

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's hand as 17 counts, indexed by card code (see ``_tables``)."""
        return tuple(map(hand_counts, self.packed))

    def hand(self, seat: int) -> tuple[str, ...]:
        """The card names in ``seat``'s hand, sorted (T, oranges, Flash)."""
        return hand_names(hand_counts(self.packed[self._seat(seat, "seat")]))

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds (exploded seats' set-aside cards included)."""
        return tuple(sum(hand_counts(hand)) for hand in self.packed)

    @property
    def deck_size(self) -> int:
        """How many cards the draw pile holds."""
        return len(self.deck)

    @property
    def pile_cards(self) -> tuple[str, ...]:
        """The names of the cards on the pile, bottom first."""
        return tuple(CARD_NAMES[c] for c in self.pile)

    @property
    def top_card(self) -> str | None:
        """The name of the card on top of the pile, or None if the pile is empty."""
        return CARD_NAMES[self.pile[-1]] if self.pile else None

    @property
    def announcement(self) -> str | None:
        """``"higher"`` or ``"lower"`` while a player is named, else None."""
        return ANNOUNCEMENTS[self.higher] if self.target >= 0 else None

    @property
    def named_player(self) -> int | None:
        """The seat that must answer the announcement, or None."""
        return self.target if self.target >= 0 else None

    @property
    def players_in_round(self) -> tuple[int, ...]:
        """Seats neither safe nor exploded this round."""
        return SEATS_OF[self.active]

    @property
    def deck_bottom(self) -> tuple[str, ...]:
        """The cards at the bottom of the draw pile that every seat saw go there, in order."""
        return tuple(CARD_NAMES[c] for c in self.deck[len(self.deck) - self.known_bottom :])

    def known_cards(self, seat: int) -> tuple[str, ...]:
        """The cards every seat knows are in ``seat``'s hand (drawn from the known deck bottom)."""
        return tuple(CARD_NAMES[c] for c in self.known[self._seat(seat, "seat")])

    @property
    def coins(self) -> tuple[int, ...]:
        """Coin points per seat from the finished rounds."""
        totals = [0] * self.game.num_players
        clay = self.game.last_team_clay
        for order, teams in self.history:
            for seat, coins in enumerate(round_coins(order, teams, last_team_clay=clay)):
                totals[seat] += coins
        return tuple(totals)
