"""Small text-layout helpers shared by the games' text pictures (lines within 100 columns)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["WIDTH", "encodable", "print_text", "side_by_side", "wrap", "wrap_line"]

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
