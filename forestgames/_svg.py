"""Small SVG building blocks shared by the games' pictures (no dependency, no fonts to fetch).

Every function returns SVG text. A picture is ``document(width, height, parts)``;
the games' ``render.py`` modules lay out their parts with these helpers so all
four pictures share one look: the same seat colours, type, card shapes and legend.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

__all__ = [
    "INK",
    "MUTED",
    "PANEL",
    "PAPER",
    "SEAT_COLOURS",
    "WHITE",
    "Legend",
    "blend",
    "card",
    "card_back",
    "circle",
    "contrast",
    "document",
    "element",
    "fits",
    "fitted_list",
    "fitted_size",
    "group",
    "legend",
    "legend_height",
    "line",
    "luminance",
    "on",
    "path",
    "polygon",
    "rect",
    "seat_colour",
    "text",
    "text_width",
]

SEAT_COLOURS: tuple[str, ...] = (
    "#0072b2", "#c25600", "#009e73", "#b4478f", "#e69f00", "#56b4e9", "#7a5230", "#5f5f5f",
    "#8f7f00",
)  # fmt: skip
"""One colour per seat (Okabe-Ito first, so readable with colour-blindness). Seat 1's
vermillion is Okabe-Ito's #d55e00 darkened a tenth: neither white nor ink reached 4.5:1 on
it (3.9 and 4.1), and a tree's value or a Spirit's number is written on it (white, 4.5)."""
INK = "#222222"
WHITE = "#ffffff"
MUTED = "#6b6b6b"
PAPER = "#fbf8ef"
PANEL = "#f1ece0"
FONT = "system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif"
"""Fonts already on the reader's machine: nothing is fetched."""

EM_PER_CHAR = 0.58
"""A generous average advance of a character, in ems: what a text's width is budgeted
at. The widest of the fonts a reader may get (DejaVu Sans, Linux's usual fallback) takes
about 0.5-0.55 em a character on our lower-case words; Helvetica and Arial less."""
EM_PER_BOLD_CHAR = 0.72
"""The same for bold type (DejaVu Sans Bold takes about 0.7 em on a name like Woodpecker)."""
EM_WIDE = 0.9
"""The advance of the wide characters of :data:`WIDE` (● is 0.87 em in DejaVu Sans)."""
WIDE = frozenset("●■MW@")

Legend = Sequence[tuple[str, str]]
"""Legend entries: (swatch SVG drawn in a 16×16 box at the origin, label)."""


def seat_colour(seat: int) -> str:
    """The colour of ``seat`` (cycled past nine seats)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _rgb(colour: str) -> tuple[float, float, float]:
    """The channels of a ``#rrggbb`` or ``#rgb`` colour, 0 to 1."""
    digits = colour.removeprefix("#")
    if len(digits) == 3:
        digits = "".join(ch * 2 for ch in digits)
    r, g, b = (int(digits[k : k + 2], 16) / 255 for k in (0, 2, 4))
    return r, g, b


def luminance(colour: str) -> float:
    """The WCAG 2 relative luminance of a ``#rrggbb`` colour: 0 black to 1 white."""
    linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in _rgb(colour)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """The WCAG 2 contrast ratio of two colours, 1 to 21 (AA asks 4.5 of small text)."""
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@functools.cache  # a picture asks for a few fills hundreds of times
def on(fill: str) -> str:
    """The colour of a label drawn on ``fill``: :data:`WHITE` or :data:`INK`, whichever
    contrasts more with it. The fills that carry labels are chosen so that this reaches
    4.5:1 (tests/test_pictures.py measures every text of the pictures)."""
    return WHITE if contrast(WHITE, fill) >= contrast(INK, fill) else INK


def blend(colour: str, under: str, opacity: float) -> str:
    """``colour`` drawn at ``opacity`` over ``under``, as one ``#rrggbb`` colour."""
    mixed = (
        opacity * a + (1 - opacity) * b for a, b in zip(_rgb(colour), _rgb(under), strict=True)
    )
    return "#" + "".join(f"{round(v * 255):02x}" for v in mixed)


def escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` as entities: xml.sax.saxutils' ``escape``, whose
    module imports urllib, http and email (a fifth of ``import forestgames``)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """``text`` escaped and quoted as an attribute value, as xml.sax.saxutils' ``quoteattr``
    writes it: newlines and tabs as character references, in double quotes unless it holds
    a double quote and no single one (then single), ``&quot;`` if it holds both."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


@functools.lru_cache(maxsize=4096)  # colours, fonts and anchors recur thousands of times
def _quoted(value: str) -> str:
    return quoteattr(value)


@functools.cache
def _attr_name(key: str) -> str:
    """An attribute's name from its keyword: ``class_`` -> ``class``, ``font_size`` ->
    ``font-size``."""
    return key.rstrip("_").replace("_", "-")


def _attrs(values: dict[str, object]) -> str:
    out = []
    for key, value in values.items():
        if value is None:
            continue
        if isinstance(value, float):  # digits, '-' and '.' need no escaping
            number = f"{value:.1f}".rstrip("0").rstrip(".")
            out.append(f' {_attr_name(key)}="{number}"')
        else:
            out.append(f" {_attr_name(key)}={_quoted(str(value))}")
    return "".join(out)


def document(width: float, height: float, parts: Iterable[str], label: str) -> str:
    """A whole SVG picture ``width`` × ``height`` on paper, ``label`` as its accessible title."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="img" '
        f'font-family="{FONT}" font-size="12" fill="{INK}">'
    )
    body = [
        head,
        f"<title>{escape(label)}</title>",
        rect(0, 0, width, height, fill=PAPER),
        *parts,
        "</svg>",
    ]
    return "\n".join(body)


def element(tag: str, values: dict[str, object], content: str = "", title: str = "") -> str:
    """One SVG element; ``title`` (hover text) and ``content`` go inside it."""
    inner = (f"<title>{escape(title)}</title>" if title else "") + content
    if not inner:
        return f"<{tag}{_attrs(values)}/>"
    return f"<{tag}{_attrs(values)}>{inner}</{tag}>"


def rect(x: float, y: float, w: float, h: float, title: str = "", **style: object) -> str:
    box = {"x": float(x), "y": float(y), "width": float(w), "height": float(h)}
    return element("rect", {**box, **style}, title=title)


def circle(x: float, y: float, r: float, title: str = "", **style: object) -> str:
    return element("circle", {"cx": float(x), "cy": float(y), "r": float(r), **style}, title=title)


def line(x1: float, y1: float, x2: float, y2: float, **style: object) -> str:
    coords = {"x1": float(x1), "y1": float(y1), "x2": float(x2), "y2": float(y2)}
    return element("line", {**coords, **style})


def polygon(points: Iterable[tuple[float, float]], title: str = "", **style: object) -> str:
    text_points = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return element("polygon", {"points": text_points, **style}, title=title)


def path(d: str, title: str = "", **style: object) -> str:
    return element("path", {"d": d, **style}, title=title)


def text(x: float, y: float, words: object, **style: object) -> str:
    """Text at (x, y) (the baseline; ``text_anchor="middle"`` centres it)."""
    return element("text", {"x": float(x), "y": float(y), **style}, escape(str(words)))


def text_width(words: object, font_size: float, bold: bool = False) -> float:
    """The width budgeted for ``words`` at ``font_size`` (see :data:`EM_PER_CHAR`)."""
    words = str(words)
    wide = sum(ch in WIDE for ch in words)
    em = EM_PER_BOLD_CHAR if bold else EM_PER_CHAR
    return ((len(words) - wide) * em + wide * max(em, EM_WIDE)) * font_size


def fits(words: object, width: float, font_size: float, bold: bool = False) -> bool:
    """Whether ``words`` fit in ``width`` pixels at ``font_size`` (by :func:`text_width`)."""
    return text_width(words, font_size, bold) <= width


def fitted_size(words: object, width: float, font_size: float) -> float:
    """``font_size``, or the smaller size (to a tenth of a pixel) at which ``words`` fit in
    ``width`` pixels (by :func:`text_width`)."""
    unit = text_width(words, 1)
    return font_size if unit * font_size <= width else math.floor(width / unit * 10) / 10


def fitted_list(
    x: float,
    y: float,
    head: str,
    items: Sequence[str],
    width: float,
    font_size: float,
    sep: str = " ",
    **style: object,
) -> str:
    """A text at (x, y): ``head`` then as many of ``items`` (joined by ``sep``) as fit in
    ``width`` at ``font_size``, ending in `` …`` with the whole list in its title when some
    are left out."""
    for count in range(len(items), 0, -1):
        words = head + sep.join(items[:count])
        if count < len(items):
            words += " …"
        if fits(words, width, font_size):
            break
    else:
        count, words = 0, head + (" …" if items else "")
    line = text(x, y, words, font_size=font_size, **style)
    return group([line], title=head + sep.join(items)) if count < len(items) else line


def group(parts: Iterable[str], title: str = "", **style: object) -> str:
    return element("g", style, "".join(parts), title=title)


def card(
    x: float, y: float, w: float, h: float, face: str, lines: Sequence[str] = (), **style: object
) -> str:
    """A face-up card: rounded, ``face`` (its name) on top, then small ``lines`` (10 pixels,
    smaller for a line that would not fit the card)."""
    fill = style.pop("fill", "#ffffff")
    stroke = style.pop("stroke", INK)
    parts = [
        rect(x, y, w, h, rx=4, fill=fill, stroke=stroke, stroke_width=1),
        text(x + w / 2, y + 13, face, text_anchor="middle", font_weight="bold", **style),
    ]
    for k, words in enumerate(lines):
        size = fitted_size(words, w - 8, 10)
        parts.append(text(x + w / 2, y + 26 + 11 * k, words, text_anchor="middle", font_size=size))
    return group(parts)


def seat_panel(
    x: float, y: float, w: float, h: float, seat: int, acting: bool, you: bool
) -> list[str]:
    """A seat's panel frame: a card (dark outline while the seat acts), its colour dot and
    ``seat N`` (with `` (you)`` on the observer's own panel)."""
    return [
        rect(
            x,
            y,
            w,
            h,
            rx=8,
            fill="#ffffff",
            stroke=INK if acting else "#c9c2b0",
            stroke_width=2.5 if acting else 1,
        ),
        circle(x + 16, y + 18, 8, fill=seat_colour(seat)),
        text(
            x + 30,
            y + 23,
            f"seat {seat}{' (you)' if you else ''}",
            font_weight="bold",
            font_size=13,
        ),
    ]


@functools.lru_cache(maxsize=1024)  # decks and hands are drawn at the same places each move
def card_back(x: float, y: float, w: float, h: float, count: int | None = None) -> str:
    """A face-down card (a deck, or a hidden hand), with ``count`` written on it if given."""
    back = "#3b4a6b"
    parts = [
        rect(x, y, w, h, rx=4, fill=back, stroke=INK, stroke_width=1),
        rect(x + 3, y + 3, w - 6, h - 6, rx=3, fill="none", stroke="#9fb0d0", stroke_width=1),
    ]
    if count is not None:
        parts.append(
            text(
                x + w / 2,
                y + h / 2 + 5,
                count,
                text_anchor="middle",
                fill=on(back),
                font_weight="bold",
                font_size=14,
            )
        )
    return group(parts)


def legend(x: float, y: float, entries: Legend, width: float, title: str = "Legend") -> str:
    """A boxed legend at (x, y): entries in rows of swatch and label, wrapped to ``width``."""
    column_w = _column_width(entries)
    columns = max(1, int((width - 16) // column_w))
    rows = -(-len(entries) // columns)
    height = 30 + 20 * rows
    parts = [
        rect(x, y, width, height, rx=6, fill="#ffffff", stroke="#c9c2b0"),
        text(x + 10, y + 17, title, font_weight="bold"),
    ]
    for k, (swatch, label) in enumerate(entries):
        row, col = divmod(k, columns)
        left, top = x + 10 + col * column_w, y + 25 + row * 20
        parts.append(group([swatch], transform=f"translate({left:.0f},{top:.0f})"))
        parts.append(text(left + 22, top + 12, label, font_size=11))
    return group(parts)


def _column_width(entries: Legend) -> float:
    """Room for the longest label (about 6.2 pixels a character at 11 pixels)."""
    longest = max((len(label) for _, label in entries), default=0)
    return max(120.0, 30 + 6.2 * longest)


def legend_height(entries: Legend, width: float) -> float:
    """The height :func:`legend` takes for ``entries`` in ``width``."""
    columns = max(1, int((width - 16) // _column_width(entries)))
    return 30 + 20 * -(-len(entries) // columns)
