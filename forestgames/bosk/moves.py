"""Bosk moves: small frozen value objects with a text notation both ways.

Notation (one move, ``player`` is the 0-based seat; coordinates ``row,col``)::

    0:plant 3@4,5      PlantTree(player=0, value=3, at=(4, 5))      an intersection
    1:wind N           ChooseWind(player=1, direction='N')
    2:tree@4,5         ChooseTree(player=2, at=(4, 5))
    2:tile 6           ChooseTile(player=2, tile=6)
    2:tile squirrel    ChooseTile(player=2, tile=1)                  SQUIRREL == 1
    2:leaf@3,5         PlaceLeaf(player=2, at=(3, 5))               a square
    2:squirrel@1,5     PlaceSquirrel(player=2, at=(1, 5))           a square

``repr(move)`` evaluates back to the move; ``parse_move(str(move)) == move``.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from forestgames.bosk._tables import DIRECTIONS, SQUIRREL
from forestgames.core import ParseError, as_move_int, as_pair, notation, notation_error

__all__ = [
    "SQUIRREL",
    "BoskMove",
    "ChooseTile",
    "ChooseTree",
    "ChooseWind",
    "PlaceLeaf",
    "PlaceSquirrel",
    "PlantTree",
    "parse_move",
]


def _at(text_at: tuple[int, int]) -> str:
    return f"{text_at[0]},{text_at[1]}"


@attrs.frozen
class PlantTree:
    """Spring: put one of your trees of ``value`` (1–4) on intersection ``at``."""

    player: int
    value: int = attrs.field(converter=as_move_int)
    at: tuple[int, int] = attrs.field(converter=as_pair)

    @notation
    def __str__(self) -> str:
        return f"{self.player}:plant {self.value}@{_at(self.at)}"


@attrs.frozen
class ChooseWind:
    """Autumn start: the start player picks round 1's wind, ``"N" | "E" | "S" | "W"``."""

    player: int
    direction: str

    @notation
    def __str__(self) -> str:
        return f"{self.player}:wind {self.direction}"


@attrs.frozen
class ChooseTree:
    """Autumn turn, step 1: the tree (an intersection) whose leaves fall."""

    player: int
    at: tuple[int, int] = attrs.field(converter=as_pair)

    @notation
    def __str__(self) -> str:
        return f"{self.player}:tree@{_at(self.at)}"


@attrs.frozen
class ChooseTile:
    """Autumn turn, step 2: an unused leaf tile, 2–8 leaves or ``SQUIRREL`` (== 1)."""

    player: int
    tile: int = attrs.field(converter=as_move_int)

    @notation
    def __str__(self) -> str:
        name = "squirrel" if self.tile == SQUIRREL else str(self.tile)
        return f"{self.player}:tile {name}"


@attrs.frozen
class PlaceLeaf:
    """Autumn turn: the next leaf of the path, on square ``at``."""

    player: int
    at: tuple[int, int] = attrs.field(converter=as_pair)

    @notation
    def __str__(self) -> str:
        return f"{self.player}:leaf@{_at(self.at)}"


@attrs.frozen
class PlaceSquirrel:
    """Autumn turn with the squirrel tile: where the squirrel stops (a square)."""

    player: int
    at: tuple[int, int] = attrs.field(converter=as_pair)

    @notation
    def __str__(self) -> str:
        return f"{self.player}:squirrel@{_at(self.at)}"


BoskMove = PlantTree | ChooseWind | ChooseTree | ChooseTile | PlaceLeaf | PlaceSquirrel

_NUM = r"(0|[1-9]\d{0,2})"
_AT = rf"@{_NUM},{_NUM}"
_PATTERNS: tuple[tuple[re.Pattern[str], Any], ...] = (
    (re.compile(rf"{_NUM}:plant ([1-4]){_AT}"), lambda p, v, r, c: PlantTree(p, v, (r, c))),
    (re.compile(rf"{_NUM}:tree{_AT}"), lambda p, r, c: ChooseTree(p, (r, c))),
    (re.compile(rf"{_NUM}:tile ([2-8])"), lambda p, t: ChooseTile(p, t)),
    (re.compile(rf"{_NUM}:leaf{_AT}"), lambda p, r, c: PlaceLeaf(p, (r, c))),
    (re.compile(rf"{_NUM}:squirrel{_AT}"), lambda p, r, c: PlaceSquirrel(p, (r, c))),
)
_WIND = re.compile(rf"{_NUM}:wind ([NESW])")
_SQUIRREL_TILE = re.compile(rf"{_NUM}:tile squirrel")


def parse_move(text: str) -> BoskMove:
    """The move written as ``text`` (see the module docstring); ParseError if it is not one.

    Parsing checks the notation only; whether the move is legal is the state's call.
    """
    if not isinstance(text, str):
        raise ParseError(f"a Bosk move is text, not {type(text).__name__}")
    stripped = text.strip()
    if match := _WIND.fullmatch(stripped):
        assert match.group(2) in DIRECTIONS
        return ChooseWind(int(match.group(1)), match.group(2))
    if match := _SQUIRREL_TILE.fullmatch(stripped):
        return ChooseTile(int(match.group(1)), SQUIRREL)
    for pattern, build in _PATTERNS:
        if match := pattern.fullmatch(stripped):
            return build(*map(int, match.groups()))  # type: ignore[no-any-return]
    raise notation_error("Bosk", text, _EXAMPLES, _FORMS)


_EXAMPLES = (
    "0:plant 3@4,5", "1:wind N", "2:tree@4,5", "2:tile 6", "2:tile squirrel", "2:leaf@3,5",
    "2:squirrel@1,5",
)  # fmt: skip
_FORMS = {
    "plant": "'S:plant V@R,C' (V a tree value 1..4, R,C an intersection), e.g. '0:plant 3@4,5'",
    "wind": "'S:wind D' (D one of N, E, S, W), e.g. '1:wind N'",
    "tree": "'S:tree@R,C' (R,C the chosen tree's intersection), e.g. '2:tree@4,5'",
    "tile": "'S:tile T' (T 2..8 or squirrel), e.g. '2:tile 6' or '2:tile squirrel'",
    "leaf": "'S:leaf@R,C' (R,C a square), e.g. '2:leaf@3,5'",
    "squirrel": "'S:squirrel@R,C' (R,C a square), e.g. '2:squirrel@1,5'",
}
