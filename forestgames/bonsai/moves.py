"""Bonsai moves: small frozen value objects with a text notation both ways.

Notation (``player`` is the 0-based seat; cells are ``q,r`` axial coordinates;
kinds are ``wood``, ``leaf``, ``flower``, ``fruit``)::

    0:meditate 3                  Meditate(0, 3)                    take slot 3's card and tiles
    0:meditate 2 leaf             Meditate(0, 2, tile='leaf')       slot 2: wood or leaf, by choice
    0:meditate 4 wild=fruit       Meditate(0, 4, wild='fruit')      a Master's wild tile as a fruit
    0:place leaf@1,-2             Place(0, 'leaf', (1, -2))         one tile (Cultivate or Helper)
    0:finish                      Finish(0)                         stop placing (Cultivate, Helper)
    0:discard wood                Discard(0, 'wood')                one tile over the storage limit
    0:prune@0,-1                  Prune(0, (0, -1))                 remove one leaf (no wood fits)
    0:claim brown 2               ClaimGoal(0, 'brown', 2)          take a met goal (tier 1..3)
    0:renounce green 1            RenounceGoal(0, 'green', 1)       give a met goal up for good

``repr(move)`` evaluates back to the move; ``parse_move(str(move)) == move``.
A Cultivate turn starts with its first ``place`` and ends with ``finish`` (or
by itself when nothing more can be placed).
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from forestgames.bonsai._tables import COLOURS, KINDS, Tile
from forestgames.core import ParseError, as_move_int, as_pair, notation, notation_error

__all__ = [
    "BonsaiMove",
    "ClaimGoal",
    "Discard",
    "Finish",
    "Meditate",
    "Place",
    "Prune",
    "RenounceGoal",
    "parse_move",
]


def _as_kind(value: Any) -> Any:
    """A ``Tile`` becomes its plain name, so moves compare and print alike."""
    return str(value) if isinstance(value, Tile) else value


def _at(at: tuple[int, int]) -> str:
    return f"{at[0]},{at[1]}"


@attrs.frozen
class Meditate:
    """Take the card of market ``slot`` (1 newest .. 4) with its tiles; ``tile`` is slot 2's
    wood or leaf, ``wild`` the kind a Master's wild tile becomes (else None)."""

    player: int
    slot: int = attrs.field(converter=as_move_int)
    tile: str | None = attrs.field(default=None, converter=_as_kind)
    wild: str | None = attrs.field(default=None, converter=_as_kind)

    @notation
    def __str__(self) -> str:
        text = f"{self.player}:meditate {self.slot}"
        if self.tile is not None:
            text += f" {self.tile}"
        if self.wild is not None:
            text += f" wild={self.wild}"
        return text


@attrs.frozen
class Place:
    """Place one tile of ``kind`` from the personal supply on cell ``at`` of one's tree."""

    player: int
    kind: str = attrs.field(converter=_as_kind)
    at: tuple[int, int] = attrs.field(converter=as_pair)

    @notation
    def __str__(self) -> str:
        return f"{self.player}:place {self.kind}@{_at(self.at)}"


@attrs.frozen
class Finish:
    """End the placements of a Cultivate turn or of a Helper card."""

    player: int

    @notation
    def __str__(self) -> str:
        return f"{self.player}:finish"


@attrs.frozen
class Discard:
    """Return one tile of ``kind`` to the supply (storage limit, end of Meditate)."""

    player: int
    kind: str = attrs.field(converter=_as_kind)

    @notation
    def __str__(self) -> str:
        return f"{self.player}:discard {self.kind}"


@attrs.frozen
class Prune:
    """Remove the leaf on ``at`` (allowed when no wood tile can be placed)."""

    player: int
    at: tuple[int, int] = attrs.field(converter=as_pair)

    @notation
    def __str__(self) -> str:
        return f"{self.player}:prune@{_at(self.at)}"


@attrs.frozen
class ClaimGoal:
    """Claim the met goal tile ``colour`` ``tier`` (1 small, 2 medium, 3 large)."""

    player: int
    colour: str
    tier: int = attrs.field(converter=as_move_int)

    @notation
    def __str__(self) -> str:
        return f"{self.player}:claim {self.colour} {self.tier}"


@attrs.frozen
class RenounceGoal:
    """Renounce the met goal tile ``colour`` ``tier``: this player can never claim it."""

    player: int
    colour: str
    tier: int = attrs.field(converter=as_move_int)

    @notation
    def __str__(self) -> str:
        return f"{self.player}:renounce {self.colour} {self.tier}"


BonsaiMove = Meditate | Place | Finish | Discard | Prune | ClaimGoal | RenounceGoal
MOVE_TYPES: tuple[type, ...] = (Meditate, Place, Finish, Discard, Prune, ClaimGoal, RenounceGoal)

_SEAT = r"(0|[1-9]\d{0,2})"
_INT = r"(0|-?[1-9]\d{0,3})"
_KIND = "(" + "|".join(KINDS) + ")"
_COLOUR = "(" + "|".join(COLOURS) + ")"
_AT = rf"@{_INT},{_INT}"
_MEDITATE = re.compile(rf"{_SEAT}:meditate ([1-4])(?: (wood|leaf))?(?: wild={_KIND})?")
_PATTERNS: tuple[tuple[re.Pattern[str], Any], ...] = (
    (
        re.compile(rf"{_SEAT}:place {_KIND}{_AT}"),
        lambda p, k, q, r: Place(int(p), k, (int(q), int(r))),
    ),
    (re.compile(rf"{_SEAT}:finish"), lambda p: Finish(int(p))),
    (re.compile(rf"{_SEAT}:discard {_KIND}"), lambda p, k: Discard(int(p), k)),
    (re.compile(rf"{_SEAT}:prune{_AT}"), lambda p, q, r: Prune(int(p), (int(q), int(r)))),
    (re.compile(rf"{_SEAT}:claim {_COLOUR} ([1-3])"), lambda p, c, t: ClaimGoal(int(p), c, int(t))),
    (
        re.compile(rf"{_SEAT}:renounce {_COLOUR} ([1-3])"),
        lambda p, c, t: RenounceGoal(int(p), c, int(t)),
    ),
)


def parse_move(text: str) -> BonsaiMove:
    """The move written as ``text`` (see the module docstring); ParseError if it is not one.

    Parsing checks the notation only; whether the move is legal is the state's call.
    """
    if not isinstance(text, str):
        raise ParseError(f"a Bonsai move is text, not {type(text).__name__}")
    stripped = text.strip()
    if match := _MEDITATE.fullmatch(stripped):
        seat, slot, tile, wild = match.groups()
        return Meditate(int(seat), int(slot), tile, wild)
    for pattern, build in _PATTERNS:
        if match := pattern.fullmatch(stripped):
            return build(*match.groups())  # type: ignore[no-any-return]
    raise notation_error("Bonsai", text, _EXAMPLES, _FORMS)


_EXAMPLES = (
    "0:meditate 2 leaf", "0:place leaf@1,-2", "0:finish", "0:discard wood", "0:prune@0,-1",
    "0:claim brown 2", "0:renounce green 1",
)  # fmt: skip
_KIND_NAMES = ", ".join(kind.value for kind in KINDS)
_COLOUR_NAMES = ", ".join(COLOURS)
_FORMS = {
    "meditate": (
        "'S:meditate N' (N the market slot 1..4), then ' wood' or ' leaf' for slot 2 and "
        f"' wild=K' for a wild tile (K one of {_KIND_NAMES}), e.g. '0:meditate 2 leaf'"
    ),
    "place": f"'S:place K@Q,R' (K one of {_KIND_NAMES}), e.g. '0:place leaf@1,-2'",
    "finish": "'S:finish', e.g. '0:finish'",
    "discard": f"'S:discard K' (K one of {_KIND_NAMES}), e.g. '0:discard wood'",
    "prune": "'S:prune@Q,R', e.g. '0:prune@0,-1'",
    "claim": f"'S:claim C T' (C one of {_COLOUR_NAMES}, T 1..3), e.g. '0:claim brown 2'",
    "renounce": (f"'S:renounce C T' (C one of {_COLOUR_NAMES}, T 1..3), e.g. '0:renounce green 1'"),
}
