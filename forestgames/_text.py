"""Small text helpers shared by the games' pictures: layout (lines within 100 columns) and
the words for how a game ended."""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = [
    "WIDTH",
    "encodable",
    "game_over",
    "outcome",
    "print_text",
    "side_by_side",
    "wrap",
    "wrap_line",
]

WIDTH = 100
"""The widest line a text picture draws."""


def wrap(
    items: Sequence[str], first: str, indent: str, sep: str = ", ", width: int = WIDTH
) -> list[str]:
    """``first`` then ``items`` joined by ``sep``, broken into lines of at most ``width``
    (continuation lines start with ``indent``; an item is never split)."""
    lines, current = [], first
    for k, item in enumerate(items):
        piece = item + (sep.rstrip() if k < len(items) - 1 else "")
        gap = " " if current and not current.endswith(" ") else ""
        if len(current) + len(gap) + len(piece) > width and current.strip():
            lines.append(current.rstrip())
            current = indent + piece
        else:
            current = current + gap + piece
    lines.append(current.rstrip())
    return lines


def wrap_line(line: str, indent: str = "    ", width: int = WIDTH) -> list[str]:
    """One long line broken at spaces into lines of at most ``width``."""
    if len(line) <= width:
        return [line]
    lead = line[: len(line) - len(line.lstrip(" "))]
    return wrap(line.split(), lead, lead + indent, sep=" ", width=width)


def side_by_side(left: Sequence[str], right: Sequence[str], left_width: int) -> list[str]:
    """Two blocks of lines next to each other, ``left`` padded to ``left_width``."""
    rows = max(len(left), len(right))
    out = []
    for k in range(rows):
        a = left[k] if k < len(left) else ""
        b = right[k] if k < len(right) else ""
        out.append(f"{a:<{left_width}}{b}".rstrip())
    return out


def outcome(winners: Sequence[int], players: int) -> str:
    """Who won a finished game, in the words every picture and the command line use:
    ``seat 0 wins``, ``seats 0 and 2 tie``, ``seats 0, 1 and 3 tie``; ``no winner`` when
    nobody won; a solo game ``won`` or ``lost``."""
    seats = sorted(int(s) for s in winners)
    if players == 1:
        return "won" if seats else "lost"
    if not seats:
        return "no winner"
    if len(seats) == 1:
        return f"seat {seats[0]} wins"
    return f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]} tie"


def game_over(winners: Sequence[int], players: int) -> str:
    """The end of a game as a headline ends: ``over · seat 0 wins`` (see :func:`outcome`)."""
    return f"over · {outcome(winners, players)}"


def encodable(text: str, encoding: str | None) -> str:
    """``text`` with each character ``encoding`` cannot write as '?' (an ASCII or cp1252
    console has no '·', '●' or '■', which the pictures draw)."""
    encoding = encoding or "ascii"
    return text.encode(encoding, "replace").decode(encoding)


def print_text(text: str) -> None:
    """Print ``text`` on stdout; what its encoding cannot write shows as '?' instead of
    raising UnicodeEncodeError."""
    try:
        print(text)
    except UnicodeEncodeError:
        print(encodable(text, sys.stdout.encoding))
