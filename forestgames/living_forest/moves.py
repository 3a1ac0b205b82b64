"""Living Forest moves: small frozen value objects with a text notation both ways.

Notation (``player`` is the 0-based seat; cards by their CSV name, trees by id;
forest cells ``row,col`` with rows 0..2 and columns 0..4)::

    0:reveal              Reveal(player=0)                  Guardian phase: next card
    0:spend Bear          SpendFragment(player=0, card='Bear')   a solitary card to discard
    0:stop                Stop(player=0)                    end the reveal
    0:fragment            TakeFragment(player=0)            Fragment action
    0:attract Wolf        Attract(player=0, card='Wolf')    one card of an Attract
    0:extinguish 3        Extinguish(player=0, value=3)     one fire of an Extinguish
    0:move 2              MoveSpirit(player=0, steps=2)     Move on the circle
    0:victory 1 fire      TakeVictory(player=0, source=1, kind='fire')   from a passed Spirit
    0:plant 5A@1,3        Plant(player=0, tree='5A', at=(1, 3))
    0:done                Done(player=0)                    end the Attract/Extinguish
                                                            under way, else the actions

``repr(move)`` evaluates back to the move; ``parse_move(str(move)) == move``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import attrs

from forestgames.core import (
    ParseError,
    as_move_int,
    as_pair,
    did_you_mean,
    excerpt,
    notation,
    notation_error,
)
from forestgames.living_forest._tables import CARD_INDEX, TREE_NAMES, VICTORY_KINDS

__all__ = [
    "Attract",
    "Done",
    "Extinguish",
    "LivingForestMove",
    "MoveSpirit",
    "Plant",
    "Reveal",
    "SpendFragment",
    "Stop",
    "TakeFragment",
    "TakeVictory",
    "parse_move",
]


@attrs.frozen
class Reveal:
    """Guardian phase: turn the top card of your deck face up into your Help Line."""

    player: int

    @notation
    def __str__(self) -> str:
        return f"{self.player}:reveal"


@attrs.frozen
class SpendFragment:
    """Guardian phase: pay a Fragment to move solitary ``card`` from your Help Line to discard."""

    player: int
    card: str

    @notation
    def __str__(self) -> str:
        return f"{self.player}:spend {self.card}"


@attrs.frozen
class Stop:
    """Guardian phase: stop revealing cards."""

    player: int

    @notation
    def __str__(self) -> str:
        return f"{self.player}:stop"


@attrs.frozen
class TakeFragment:
    """The Fragment action: take one Fragment tile from the supply."""

    player: int

    @notation
    def __str__(self) -> str:
        return f"{self.player}:fragment"


@attrs.frozen
class Attract:
    """Take face-up reserve ``card`` onto your deck (starts or continues an Attract)."""

    player: int
    card: str

    @notation
    def __str__(self) -> str:
        return f"{self.player}:attract {self.card}"


@attrs.frozen
class Extinguish:
    """Take a fire tile of ``value`` from the centre (starts or continues an Extinguish)."""

    player: int
    value: int = attrs.field(converter=as_move_int)

    @notation
    def __str__(self) -> str:
        return f"{self.player}:extinguish {self.value}"


@attrs.frozen
class MoveSpirit:
    """The Move action: advance ``steps`` free rocks clockwise on the Circle of Spirits."""

    player: int
    steps: int = attrs.field(converter=as_move_int)

    @notation
    def __str__(self) -> str:
        return f"{self.player}:move {self.steps}"


@attrs.frozen
class TakeVictory:
    """After a Move: take a Victory tile of ``kind`` from ``source``, a Spirit passed."""

    player: int
    source: int = attrs.field(converter=as_move_int)
    kind: str

    @notation
    def __str__(self) -> str:
        return f"{self.player}:victory {self.source} {self.kind}"


@attrs.frozen
class Plant:
    """Plant a tree of type ``tree`` (``"3A"``..``"11"``) on forest cell ``at`` = (row, col)."""

    player: int
    tree: str
    at: tuple[int, int] = attrs.field(converter=as_pair)

    @notation
    def __str__(self) -> str:
        return f"{self.player}:plant {self.tree}@{self.at[0]},{self.at[1]}"


@attrs.frozen
class Done:
    """End the Attract or Extinguish under way; otherwise end your Action phase."""

    player: int

    @notation
    def __str__(self) -> str:
        return f"{self.player}:done"


LivingForestMove = (
    Reveal | SpendFragment | Stop | TakeFragment | Attract | Extinguish | MoveSpirit
    | TakeVictory | Plant | Done
)  # fmt: skip

_SEAT = r"([0-3])"
_NAME = r"([A-Za-z]+)"


def _card(text: str, name: str) -> str:
    if name not in CARD_INDEX:
        hint = did_you_mean(name, CARD_INDEX)
        raise ParseError(
            f"{excerpt(text)}: there is no Guardian Animal card named {excerpt(name)}{hint}"
        )
    return name


_Groups = tuple[str, ...]
_PATTERNS: tuple[tuple[re.Pattern[str], Callable[[str, _Groups], LivingForestMove]], ...] = (
    (re.compile(rf"{_SEAT}:reveal"), lambda _, g: Reveal(int(g[0]))),
    (re.compile(rf"{_SEAT}:stop"), lambda _, g: Stop(int(g[0]))),
    (re.compile(rf"{_SEAT}:fragment"), lambda _, g: TakeFragment(int(g[0]))),
    (re.compile(rf"{_SEAT}:done"), lambda _, g: Done(int(g[0]))),
    (re.compile(rf"{_SEAT}:spend {_NAME}"), lambda t, g: SpendFragment(int(g[0]), _card(t, g[1]))),
    (re.compile(rf"{_SEAT}:attract {_NAME}"), lambda t, g: Attract(int(g[0]), _card(t, g[1]))),
    (re.compile(rf"{_SEAT}:extinguish ([234])"), lambda _, g: Extinguish(int(g[0]), int(g[1]))),
    (re.compile(rf"{_SEAT}:move ([1-9]|10)"), lambda _, g: MoveSpirit(int(g[0]), int(g[1]))),
    (
        re.compile(rf"{_SEAT}:victory {_SEAT} ({'|'.join(VICTORY_KINDS)})"),
        lambda _, g: TakeVictory(int(g[0]), int(g[1]), g[2]),
    ),
    (
        re.compile(rf"{_SEAT}:plant ({'|'.join(TREE_NAMES[1:])})@([0-2]),([0-4])"),
        lambda _, g: Plant(int(g[0]), g[1], (int(g[2]), int(g[3]))),
    ),
)


def parse_move(text: str) -> LivingForestMove:
    """The move written as ``text`` (see the module docstring); ParseError if it is not one.

    Parsing checks the notation (and that a card name exists); legality is the state's call.
    """
    if not isinstance(text, str):
        raise ParseError(f"a Living Forest move is text, not {excerpt(text)}")
    stripped = text.strip()
    for pattern, build in _PATTERNS:
        match = pattern.fullmatch(stripped)
        if match is not None:
            return build(text, match.groups())
    raise notation_error("Living Forest", text, _EXAMPLES, _FORMS, "seat, 0..3")


_EXAMPLES = (
    "0:reveal", "0:spend Bear", "0:stop", "0:fragment", "0:attract Wolf", "0:extinguish 3",
    "0:move 2", "0:victory 1 fire", "0:plant 5A@1,3", "0:done",
)  # fmt: skip
_FORMS = {
    **{verb: f"'S:{verb}', e.g. '0:{verb}'" for verb in ("reveal", "stop", "fragment", "done")},
    "spend": "'S:spend NAME' (NAME a Guardian Animal card), e.g. '0:spend Bear'",
    "attract": "'S:attract NAME' (NAME a Guardian Animal card), e.g. '0:attract Wolf'",
    "extinguish": "'S:extinguish V' (V a fire's value 2, 3 or 4), e.g. '0:extinguish 3'",
    "move": "'S:move N' (N 1..10 rocks), e.g. '0:move 2'",
    "victory": (
        f"'S:victory T K' (T a seat 0..3, K one of {', '.join(VICTORY_KINDS)}), "
        "e.g. '0:victory 1 fire'"
    ),
    "plant": (
        f"'S:plant TREE@R,C' (TREE one of {', '.join(TREE_NAMES[1:])}, R 0..2, "
        "C 0..4), e.g. '0:plant 5A@1,3'"
    ),
}
