"""Boom Bokken moves: small frozen value objects with a text notation both ways.

Cards are named ``"1"``..``"8"`` (orange), ``"F1"``..``"F8"`` (Flash) and ``"T"``
(Temps Mort). Notation (``player`` is the 0-based seat)::

    0:play 5 @2 higher         Play(0, ("5",), target=2, announce="higher")
    0:play 5 @2 lower knock    ... a Cogneur's "je cogne": seat 2 draws a card at once
    3:play 5+F5 @1 higher      a Coureur's several cards of one value (or a Flash run)
    0:play 5                   a last card that ends the round: no target, no announcement
    1:timeout                  TimeOut(1): Temps Mort on the pile
    2:boom @3                  Boom(2, next_leader=3): seat 2 explodes, seat 3 leads next
    2:boom                     an explosion that ends the round

A ``Play`` is every card play: a lead, an answer to the announcement, a Flash
out of turn, a Gardien answering for a teammate. Which of those it is follows
from the position. ``cards`` is kept sorted (orange before Flash), so
``Play(0, ("F5", "5"), ...) == Play(0, ("5", "F5"), ...)``.

``repr(move)`` evaluates back to the move; ``parse_move(str(move)) == move``.
"""

from __future__ import annotations

import re
from typing import Any

import attrs
import numpy as np

from forestgames.boom_bokken._tables import ANNOUNCEMENTS, CARD_CODE
from forestgames.core import ParseError, as_move_int, notation, notation_error, unarray

__all__ = ["Boom", "BoomBokkenMove", "Play", "TimeOut", "parse_move"]


MAX_CARDS = 2 * 99
"""Most cards a play can hold (a Coureur's every card of one value: a deck has at most 99 of
a card, orange and Flash alike); longer values are kept as given, for the state to refuse."""


def _as_cards(value: Any) -> Any:
    """A card name or a sequence of names becomes a sorted tuple (unknown names kept)."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, np.ndarray) and value.size > MAX_CARDS:
        return value  # not made a list first: a huge array would fill the memory
    value = unarray(value)
    if not isinstance(value, tuple | list) or len(value) > MAX_CARDS:
        return value
    cards = tuple(value)
    try:
        return tuple(sorted(cards, key=lambda name: CARD_CODE.get(name, 99)))
    except TypeError:  # unhashable entries: left for the state to refuse
        return cards


@attrs.frozen
class Play:
    """Put ``cards`` (one, or several of one value) on the pile, name ``target``, announce.

    ``announce`` is ``"higher"`` or ``"lower"``; ``target`` and ``announce`` are
    None only when this play ends the round. ``knock`` is a Cogneur's
    "je cogne" (Expert mode, one orange card): the target draws a card at once.
    """

    player: int
    cards: tuple[str, ...] = attrs.field(converter=_as_cards)
    target: int | None = attrs.field(default=None, converter=as_move_int)
    announce: str | None = None
    knock: bool = False

    @notation
    def __str__(self) -> str:
        text = f"{self.player}:play {'+'.join(map(str, self.cards))}"
        if self.target is not None:
            text += f" @{self.target}"
        if self.announce is not None:
            text += f" {self.announce}"
        return text + (" knock" if self.knock else "")


@attrs.frozen
class TimeOut:
    """Temps Mort: the pile goes under the draw pile, ``player`` draws a card and leads."""

    player: int

    @notation
    def __str__(self) -> str:
        return f"{self.player}:timeout"


@attrs.frozen
class Boom:
    """``player`` cannot answer and explodes; ``next_leader`` leads next (None: round over)."""

    player: int
    next_leader: int | None = attrs.field(default=None, converter=as_move_int)

    @notation
    def __str__(self) -> str:
        tail = "" if self.next_leader is None else f" @{self.next_leader}"
        return f"{self.player}:boom{tail}"


BoomBokkenMove = Play | TimeOut | Boom

_NUM = r"(0|[1-9]\d{0,2})"
_CARD = r"(?:[1-8]|F[1-8])"
_PLAY = re.compile(
    rf"{_NUM}:play ({_CARD}(?:\+{_CARD}){{0,{MAX_CARDS - 1}}})"  # MAX_CARDS cards at most
    rf"(?: @{_NUM} ({'|'.join(ANNOUNCEMENTS)})( knock)?)?",
    re.ASCII,
)
_TIME_OUT = re.compile(rf"{_NUM}:timeout", re.ASCII)
_BOOM = re.compile(rf"{_NUM}:boom(?: @{_NUM})?", re.ASCII)


def parse_move(text: str) -> BoomBokkenMove:
    """The move written as ``text`` (see the module docstring); ParseError if it is not one.

    Parsing checks the notation only; whether the move is legal is the state's call.
    """
    if not isinstance(text, str):
        raise ParseError(f"a Boom Bokken move is text, not {type(text).__name__}")
    stripped = text.strip()
    if match := _PLAY.fullmatch(stripped):
        player, cards, target, announce, knock = match.groups()
        return Play(
            int(player),
            tuple(cards.split("+")),
            None if target is None else int(target),
            announce,
            knock is not None,
        )
    if match := _TIME_OUT.fullmatch(stripped):
        return TimeOut(int(match.group(1)))
    if match := _BOOM.fullmatch(stripped):
        leader = match.group(2)
        return Boom(int(match.group(1)), None if leader is None else int(leader))
    raise notation_error("Boom Bokken", text, _EXAMPLES, _FORMS)


_EXAMPLES = (
    "0:play 5 @2 higher", "0:play 5+F5 @2 lower", "0:play 3 @1 higher knock", "0:play 5",
    "1:timeout", "2:boom @3", "2:boom",
)  # fmt: skip
_FORMS = {
    "play": (
        "'S:play CARDS' then ' @P A' and ' knock' as needed (CARDS cards 1..8 or F1..F8 "
        "joined by +, P the target seat, A higher or lower), e.g. '0:play 5 @2 higher', "
        "'0:play 5+F5 @2 lower', '0:play 3 @1 higher knock' or '0:play 5'"
    ),
    "timeout": "'S:timeout', e.g. '1:timeout'",
    "boom": "'S:boom' or 'S:boom @L' (L the next leader's seat), e.g. '2:boom @3'",
}
