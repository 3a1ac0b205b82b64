"""Lookup tables of Boom Bokken, built once at import: cards, teams, roles, coins.

Cards are small ints (codes); a hand or a deck composition is a tuple of 17
counts indexed by code::

    code   0    1 .. 8          9 .. 16
    name   T    "1" .. "8"      "F1" .. "F8"
    kind   Temps Mort           orange 1..8     Flash (blue) 1..8
    value  0    1 .. 8          1 .. 8

``FITTING_VALUES[higher][v]`` lists the values that answer an announcement on
value ``v``: >= v after "higher", <= v after "lower" (an equal value always fits).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

TIME_OUT = 0
"""The code of a Temps Mort (time-out) card."""
VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8)
NUM_CODES = 17

CARD_NAMES: tuple[str, ...] = (
    ("T",) + tuple(str(v) for v in VALUES) + tuple(f"F{v}" for v in VALUES)
)
CARD_CODE: Mapping[str, int] = MappingProxyType(
    {name: code for code, name in enumerate(CARD_NAMES)}
)
CARD_VALUE: tuple[int, ...] = (0,) + VALUES + VALUES
IS_ORANGE: tuple[bool, ...] = tuple(1 <= code <= 8 for code in range(NUM_CODES))
IS_FLASH: tuple[bool, ...] = tuple(code >= 9 for code in range(NUM_CODES))
VALUED_CODES: tuple[int, ...] = tuple(range(1, NUM_CODES))


def flash(value: int) -> int:
    """The code of the Flash card of ``value``."""
    return 8 + value


FITTING_VALUES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    ((),) + tuple(tuple(w for w in VALUES if (w >= v if higher else w <= v)) for v in VALUES)
    for higher in (False, True)
)
"""``FITTING_VALUES[higher][v]``: the values that answer the announcement on ``v``."""

PLAY_ORDER: tuple[int, ...] = tuple(c for v in VALUES for c in (v, flash(v)))
"""The valued codes in the order of the legal moves: by value, orange before Flash."""

FIT_ORDER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    ((),) + tuple(tuple(c for w in values for c in (w, flash(w))) for values in fitting[1:])
    for fitting in FITTING_VALUES
)
"""``FIT_ORDER[higher][v]``: the codes answering the announcement on ``v``, in legal-move order."""

ANNOUNCEMENTS: tuple[str, str] = ("lower", "higher")
"""Announcement names, indexed by the bool ``higher``."""

DEFAULT_DECK: tuple[int, ...] = (6,) + (6,) * 8 + (2,) * 8
"""Six Temps Mort, six orange and two Flash cards of each value 1..8: 70 cards ([choice])."""

TEAM_SIZES: Mapping[int, tuple[tuple[int, ...], ...]] = MappingProxyType(
    {
        4: ((2, 2),),
        5: ((2, 3),),
        6: ((2, 2, 2), (3, 3)),
        7: ((2, 2, 3), (3, 4)),
        8: ((2, 2, 2, 2), (4, 4)),
        9: ((2, 2, 2, 3), (3, 3, 3)),
    }
)
"""The seed's team splits per player count; the first is the default."""

HAND_SIZE: Mapping[int, int] = MappingProxyType({4: 7, 5: 7, 6: 7, 7: 6, 8: 6, 9: 6})
ROUNDS = 3
COIN_POINTS: tuple[int, ...] = (4, 3, 2, 1)
"""Gold, silver, bronze, clay: the coin of the 1st, 2nd, 3rd, 4th team out."""
TOKEN_POINTS = 2
"""A Bokken token is worth 2 points."""

GARDIEN = "gardien"
COGNEUR = "cogneur"
COUREUR = "coureur"
ROLES: tuple[str, ...] = (GARDIEN, COGNEUR, COUREUR)
ROLE_PRIORITY: tuple[str, ...] = (GARDIEN, COGNEUR, COUREUR, COGNEUR)
"""Expert mode: the k-th member of a team gets ``ROLE_PRIORITY[k]`` (2: Gardien, Cogneur;
the 3rd: Coureur; the 4th: Cogneur)."""

SPENT_TIME_OUTS: tuple[str, ...] = ("deck", "aside")
"""Where a played Temps Mort goes: under the draw pile with the pile, or aside for the round."""

MAX_PLAYERS = 9
SEATS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(MAX_PLAYERS) if mask >> s & 1) for mask in range(1 << MAX_PLAYERS)
)
"""``SEATS_OF[mask]``: the seats of a bit mask, in seat order."""


def team_roles(size: int) -> tuple[str, ...]:
    """The roles of a team of ``size`` members (Expert mode)."""
    return ROLE_PRIORITY[:size]


# ---------------------------------------------------------------------- packed hands
# The state keeps each hand as one int: the count of code c in bits 8c .. 8c + 7 (counts are
# below 128, since a deck has at most 99 of a card). ``UNIT[c]`` is one card of code c; the
# codes present among those of a ``mask`` of fields are the set bits 8c + 7 of
# ``((hand & mask) + LOW_SEVENS) & PRESENT_BITS``.

UNIT: tuple[int, ...] = tuple(1 << (8 * code) for code in range(NUM_CODES))
LOW_SEVENS = sum(0x7F << (8 * code) for code in range(NUM_CODES))
PRESENT_BITS = sum(0x80 << (8 * code) for code in range(NUM_CODES))


def fields_of(codes: tuple[int, ...]) -> int:
    """The mask of the fields of ``codes`` in a packed hand."""
    return sum(0xFF << (8 * code) for code in codes)


VALUED_FIELDS = fields_of(VALUED_CODES)
ORANGE_FIELDS = fields_of(VALUES)
"""The fields of the orange cards (codes 1..8, value = code)."""
FIT_FIELDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(fields_of(FIT_ORDER[higher][CARD_VALUE[top]]) if top else 0 for top in range(NUM_CODES))
    for higher in (False, True)
)
"""``FIT_FIELDS[higher][top card code]``: the fields of the codes that answer the announcement."""
REACTION_CODES: tuple[int, ...] = (TIME_OUT, *range(9, NUM_CODES))
"""The codes played out of turn: Temps Mort and Flash."""
REACTION_FIELDS = fields_of(REACTION_CODES)
