"""Pictures of Bosk positions: text and SVG, the referee's view or one seat's.

Both pictures are drawn from a *view*: ``state.observation(seat)`` for a seat,
the whole saved state for the referee (``player=None``). Bosk hides nothing,
so the two differ only in whose seat is marked "you". The text interleaves the
squares (terrain letter, top seat or ``.``, then the stack height from 2 or ``s`` for a
squirrel) and the rows of intersections between them (``seat:value`` of a tree, ``·``
none; labelled in brackets)::

            0    1    2    3    4    5    6    7
      0    D.   A.   A.   A.   B.   B.   B.   C.
        (0)    ·    ·    ·    ·    ·    ·    ·
      1    D.   A1   A1   B.   B.   B.   C.   C.
        (1)    ·  1:3  0:3    ·  1:2    ·    ·
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from forestgames import _svg as svg
from forestgames._text import game_over
from forestgames.bosk._tables import DIRECTIONS, LEAF_TILES, SQUIRREL, TREE_VALUES
from forestgames.bosk.scoring import check_terrain
from forestgames.bosk.state import BoskState
from forestgames.core import ConfigError, excerpt

if TYPE_CHECKING:
    from forestgames.bosk.rules import BoskGame

__all__ = ["picture_view", "render_svg", "render_terrain", "render_text"]

LETTERS = "ABCDEFGH"
TERRAIN_COLOURS: tuple[str, ...] = (
    "#cfe6b0", "#f2dea0", "#bcd8ee", "#e6cba8", "#d8c8ea", "#f4c4b6", "#bfe0d2", "#deddc8",
)  # fmt: skip
"""Fill of terrain ids 0..7 (A..H): soft, so the seats' pieces stand out."""
LETTER_COLOUR = "#585858"
"""A square's terrain letter: the darkest terrain fill's 4.5:1 (``_svg.MUTED`` was 3.4-4.0:1
on the fills). The letter is haloed in its terrain's fill, which a squirrel's tip reaches."""
PHASE_TASKS: Mapping[str, str] = MappingProxyType(
    {
        "spring": "plant a tree",
        "wind": "choose the first wind",
        "tree": "choose the tree whose leaves fall",
        "tile": "choose a leaf tile",
        "leaves": "lay the next leaf",
        "squirrel": "place the squirrel",
    }
)
ARROWS: Mapping[str, tuple[int, int]] = MappingProxyType(
    {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
)
CELL = 40  # SVG pixels per square
MARGIN = 28
PANEL_W = 300
STATUS_SIZE = 11  # the panel's status line, in pixels


def render_terrain(terrain: np.ndarray) -> str:
    """A terrain map (S, S) as letters A..H (ids 0..7), row 0 (north) first; StateError
    if ``terrain`` is not a square grid of terrain ids."""
    return "\n".join("".join(LETTERS[int(t)] for t in row) for row in check_terrain(terrain))


def picture_view(state: BoskState, player: int | None = None) -> dict[str, Any]:
    """What a picture may show: ``state.observation(player)``, or everything for None;
    ConfigError if ``state`` is not a Bosk state."""
    if not isinstance(state, BoskState):
        raise ConfigError(f"a picture needs a Bosk state, not {excerpt(state)}")
    if player is None:
        return {"observer": None, **state.to_dict()}
    return state.observation(player)


class Square(NamedTuple):
    """One square's pieces: its leaves bottom to top (seats) and its squirrel's seat or None."""

    leaves: tuple[int, ...]
    squirrel: int | None

    @property
    def top(self) -> int | None:
        if self.squirrel is not None:
            return self.squirrel
        return self.leaves[-1] if self.leaves else None


def _square(text: str) -> Square:
    if "S" in text:
        head, _, seat = text.partition("S")
        return Square(tuple(int(ch) for ch in head), int(seat))
    return Square(tuple(int(ch) for ch in text), None)


class Board(NamedTuple):
    """A view read once into the shapes both pictures draw."""

    view: Mapping[str, Any]
    size: int
    trees: dict[tuple[int, int], tuple[int, int]]  # intersection -> (seat, value)
    squares: dict[tuple[int, int], Square]

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> Board:
        rows = view["stacks"]
        squares = {
            (r, c): _square(text) for r, row in enumerate(rows) for c, text in enumerate(row)
        }
        trees = {(r, c): (seat, value) for r, c, seat, value in view["trees"]}
        return cls(view, len(rows), trees, squares)

    @property
    def players(self) -> int:
        return int(self.view["num_players"])

    @property
    def over(self) -> bool:
        return bool(self.view["phase"] == "over")

    @property
    def to_move(self) -> int | None:
        order = self.view["order"]
        return None if self.over else int(order[self.view["turn"] % len(order)])

    @property
    def wind(self) -> str | None:
        first, rnd = self.view["first_wind"], int(self.view["round"])
        if first is None or rnd < 1:
            return None
        return DIRECTIONS[(DIRECTIONS.index(first) + int(rnd) - 1) % 4]

    def score(self, seat: int) -> int:
        return int(self.view["summer"][seat] + self.view["winter"][seat])

    def winner(self) -> int | None:
        """Once over: the highest total, ties to the earlier seat in the last round's order."""
        if not self.over:
            return None
        best = max(self.score(s) for s in range(self.players))
        return next(int(s) for s in self.view["order"] if self.score(s) == best)

    def tiles_left(self, seat: int) -> tuple[int, ...]:
        used = set(self.view["tiles_used"][seat])
        return tuple(t for t in LEAF_TILES if t not in used)

    def trees_of(self, seat: int) -> list[int]:
        return sorted(v for s, v in self.trees.values() if s == seat)

    def trees_to_plant(self, seat: int) -> list[int]:
        """In spring, the values ``seat`` has not planted yet."""
        left = list(TREE_VALUES)
        for value in self.trees_of(seat):
            left.remove(value)
        return left if self.view["phase"] == "spring" else []

    def task(self) -> str:
        """What the seat to move is deciding, in words."""
        phase = self.view["phase"]
        if phase == "leaves":
            return f"lay the next leaf ({self.view['active']} active)"
        return PHASE_TASKS.get(phase, "")


def _tile_names(tiles: tuple[int, ...]) -> str:
    return " ".join("S" if t == SQUIRREL else str(t) for t in tiles) or "-"


def _status(board: Board) -> str:
    view = board.view
    head = f"Bosk {board.players}p" + ("" if board.over else f" · {view['phase']}")
    if view["round"]:
        head += f" · round {view['round']}/8 · wind {board.wind}"
    return f"{head} · {_panel_status(board)}"


# --------------------------------------------------------------------------- text


def _seat_line(board: Board, seat: int) -> str:
    view = board.view
    you = " (you)" if seat == view["observer"] else ""
    mover = ">" if seat == board.to_move else " "
    parts = [
        f"{mover}seat {seat}{you}: {board.score(seat)} points "
        f"(summer {view['summer'][seat]}, winter {view['winter'][seat]})"
    ]
    planting = board.trees_to_plant(seat)
    if planting:
        parts.append(f"to plant {' '.join(map(str, planting))}")
    else:
        parts.append(f"trees {' '.join(map(str, board.trees_of(seat))) or '-'}")
    parts.append(f"tiles {_tile_names(board.tiles_left(seat))}")
    return " · ".join(parts)


def _square_text(terrain: int, square: Square) -> str:
    top = "." if square.top is None else str(square.top)
    if square.squirrel is not None:
        mark = "s"
    else:
        mark = str(len(square.leaves)) if len(square.leaves) > 1 else ""
    return f"{LETTERS[terrain]}{top}{mark}"


def _board_lines(board: Board, terrain: np.ndarray) -> list[str]:
    """Square rows, each followed by the row of intersections below it (labels in brackets)."""
    size = board.size
    lines = ["    " + "".join(f"{c:>5}" for c in range(size))]
    for r in range(size):
        cells = [_square_text(int(terrain[r, c]), board.squares[r, c]) for c in range(size)]
        lines.append(f"{r:>3}  " + "".join(f"{cell:>4} " for cell in cells).rstrip())
        if r < size - 1:
            points = [board.trees.get((r, j)) for j in range(size - 1)]
            marks = ["·" if t is None else f"{t[0]}:{t[1]}" for t in points]
            lines.append(f"{f'({r})':>7}" + "".join(f"{m:>5}" for m in marks))
    lines.append("       " + "".join(f"{f'({j})':>5}" for j in range(size - 1)))
    return lines


def _turn_line(board: Board) -> str | None:
    view = board.view
    if view["tree"] is None:
        return None
    line = f"falling tree at {tuple(view['tree'])}"
    if view["last"] is not None:
        line += f", last leaf on {tuple(view['last'])}"
    return line


def text_of_view(view: Mapping[str, Any], game: BoskGame) -> str:
    """The text picture of ``view`` (an observation, or the referee's view)."""
    board = Board.of(view)
    lines = [_status(board)]
    lines += [_seat_line(board, seat) for seat in range(board.players)]
    turn = _turn_line(board)
    if turn:
        lines.append(turn)
    lines.append("squares: terrain A-H, top seat (. none), stack height (from 2) or s (squirrel)")
    lines.append("between them, intersections (labels in brackets): tree seat:value, · none")
    lines += _board_lines(board, game.terrain)
    return "\n".join(lines)


def render_text(state: BoskState, player: int | None = None) -> str:
    """The position as text, seen by ``player`` (None: the referee, who sees everything)."""
    return text_of_view(picture_view(state, player), state.game)


# --------------------------------------------------------------------------- SVG


def _leaf(x: float, y: float, colour: str, title: str, scale: float = 1.0) -> str:
    """A leaf token centred on (x, y), 24 pixels wide at scale 1."""
    k = scale
    d = (
        f"M{x - 12 * k:.1f},{y + 8 * k:.1f} C{x - 12 * k:.1f},{y - 6 * k:.1f} "
        f"{x - 2 * k:.1f},{y - 12 * k:.1f} {x + 12 * k:.1f},{y - 10 * k:.1f} "
        f"C{x + 12 * k:.1f},{y + 4 * k:.1f} {x + 2 * k:.1f},{y + 12 * k:.1f} "
        f"{x - 12 * k:.1f},{y + 8 * k:.1f} Z M{x - 12 * k:.1f},{y + 8 * k:.1f} "
        f"L{x + 5 * k:.1f},{y - 5 * k:.1f}"
    )
    return svg.path(d, title=title, fill=colour, stroke="#ffffff", stroke_width=1.5 * k)


def _squirrel(x: float, y: float, colour: str, title: str, scale: float = 1.0) -> str:
    """The squirrel token: a diamond with an S, 28 pixels wide at scale 1."""
    k = 14 * scale
    diamond = [(x, y - k), (x + k, y), (x, y + k), (x - k, y)]
    return svg.group(
        [
            svg.polygon(diamond, fill=colour, stroke=svg.INK, stroke_width=2 * scale),
            svg.text(
                x,
                y + 0.36 * k,
                "S",
                text_anchor="middle",
                fill=svg.on(colour),
                font_weight="bold",
                font_size=round(0.93 * k),
            ),
        ],
        title=title,
    )


def _tree(
    x: float, y: float, seat: int, value: int, ring: bool, title: str, radius: float = 12
) -> str:
    """A tree on an intersection: a disc in the seat's colour with its value."""
    parts = []
    if ring:
        parts.append(svg.circle(x, y, radius + 4, fill="none", stroke=svg.INK, stroke_width=3))
    colour = svg.seat_colour(seat)
    parts += [
        svg.circle(x, y, radius, fill=colour, stroke="#ffffff", stroke_width=2),
        svg.text(
            x,
            y + radius * 0.375,
            value,
            text_anchor="middle",
            fill=svg.on(colour),
            font_weight="bold",
            font_size=round(radius * 1.08),
        ),
    ]
    return svg.group(parts, title=title)


def _height_badge(x: float, y: float, height: int) -> str:
    return svg.group(
        [
            svg.circle(x, y, 7, fill="#ffffff", stroke=svg.INK, stroke_width=1),
            svg.text(x, y + 3.5, height, text_anchor="middle", font_size=10, font_weight="bold"),
        ]
    )


def _square_parts(board: Board, terrain: np.ndarray, r: int, c: int) -> tuple[str, ...]:
    """A square: its terrain, top leaf and squirrel, then on top of them the stack height (at
    the right edge's middle) and the terrain letter (at the bottom edge's middle). The
    corners are intersections, where a tree would hide them."""
    last = board.view["last"] == [r, c]
    return _square_svg(r, c, int(terrain[r, c]), board.squares[r, c], last)


@functools.lru_cache(maxsize=2048)  # a square mostly looks as it did a move ago
def _square_svg(r: int, c: int, kind: int, square: Square, last: bool) -> tuple[str, ...]:
    x, y = MARGIN + c * CELL, MARGIN + r * CELL
    parts = [
        svg.rect(
            x,
            y,
            CELL,
            CELL,
            fill=TERRAIN_COLOURS[kind],
            stroke="#ffffff",
            stroke_width=1,
            title=f"square ({r}, {c}) terrain {LETTERS[kind]}",
        )
    ]
    cx, cy = x + CELL / 2, y + CELL / 2
    if square.leaves:
        top = square.leaves[-1]
        stack = " ".join(map(str, square.leaves))
        title = (
            f"({r}, {c}): {len(square.leaves)} leaves, seat {top} on top (bottom to top {stack})"
        )
        parts.append(_leaf(cx, cy, svg.seat_colour(top), title))
    if square.squirrel is not None:
        seat = square.squirrel
        parts.append(
            _squirrel(cx, cy, svg.seat_colour(seat), f"({r}, {c}): seat {seat}'s squirrel")
        )
    if len(square.leaves) > 1:
        parts.append(_height_badge(x + CELL - 7, cy, len(square.leaves)))
    parts.append(
        svg.text(
            cx,
            y + 36.5,
            LETTERS[kind],
            text_anchor="middle",
            font_size=9,
            fill=LETTER_COLOUR,
            stroke=TERRAIN_COLOURS[kind],
            stroke_width=2,
            paint_order="stroke",
        )
    )
    if last:
        parts.append(
            svg.rect(
                x + 2,
                y + 2,
                CELL - 4,
                CELL - 4,
                fill="none",
                stroke=svg.INK,
                stroke_width=2,
                stroke_dasharray="4 3",
            )
        )
    return tuple(parts)


def _board_svg(board: Board, terrain: np.ndarray) -> list[str]:
    size = board.size
    parts: list[str] = []
    for r in range(size):
        for c in range(size):
            parts += _square_parts(board, terrain, r, c)
    for k in range(size):
        centre = MARGIN + k * CELL + CELL / 2
        parts.append(svg.text(centre, MARGIN - 8, k, text_anchor="middle", font_size=11))
        parts.append(svg.text(MARGIN - 8, centre + 4, k, text_anchor="end", font_size=11))
    bottom = MARGIN + size * CELL
    for k in range(size - 1):
        at = MARGIN + (k + 1) * CELL
        parts.append(
            svg.text(
                at,
                bottom + 14,
                k,
                text_anchor="middle",
                font_size=9,
                fill=svg.MUTED,
                font_style="italic",
            )
        )
        parts.append(
            svg.text(bottom + 6, at + 3, k, font_size=9, fill=svg.MUTED, font_style="italic")
        )
    chosen = board.view["tree"]
    for (i, j), (seat, value) in sorted(board.trees.items()):
        x, y = MARGIN + (j + 1) * CELL, MARGIN + (i + 1) * CELL
        title = f"seat {seat}'s tree of value {value} at intersection ({i}, {j})"
        parts.append(_tree(x, y, seat, value, chosen == [i, j], title))
    return parts


def _compass(x: float, y: float, wind: str | None) -> list[str]:
    parts = [
        svg.circle(x, y, 26, fill="#ffffff", stroke="#c9c2b0"),
        *(
            svg.text(
                x + 34 * dx,
                y + 34 * dy + 4,
                name,
                text_anchor="middle",
                font_size=10,
                fill=svg.MUTED,
            )
            for name, (dx, dy) in ARROWS.items()
        ),
    ]
    if wind is None:
        parts.append(svg.text(x, y + 4, "no wind", text_anchor="middle", font_size=10))
        return parts
    dx, dy = ARROWS[wind]
    tip, tail = (x + 20 * dx, y + 20 * dy), (x - 18 * dx, y - 18 * dy)
    side = (-dy * 8, dx * 8)
    head = [
        tip,
        (tip[0] - 12 * dx + side[0], tip[1] - 12 * dy + side[1]),
        (tip[0] - 12 * dx - side[0], tip[1] - 12 * dy - side[1]),
    ]
    parts.append(svg.line(*tail, tip[0] - 8 * dx, tip[1] - 8 * dy, stroke=svg.INK, stroke_width=4))
    parts.append(svg.polygon(head, fill=svg.INK, title=f"leaves blow {wind}"))
    return parts


def _panel_status(board: Board) -> str:
    """The panel's status line: who does what (or who won). The game, round and wind are on
    the panel's other lines (and the whole of :func:`_status` is the picture's title)."""
    winner = board.winner()
    if winner is not None:
        return game_over((winner,), board.players)
    return f"seat {board.to_move} to {board.task()}"


def _panel(board: Board, x: float, y: float) -> tuple[list[str], float]:
    view = board.view
    parts = [
        svg.text(x, y + 14, f"Bosk · {board.players} players", font_size=16, font_weight="bold")
    ]
    parts.append(svg.text(x, y + 34, _panel_status(board), font_size=STATUS_SIZE))
    parts += _compass(x + PANEL_W - 50, y + 90, board.wind)
    parts.append(
        svg.text(x, y + 62, f"round {view['round']}/8" if view["round"] else "spring", font_size=12)
    )
    parts.append(svg.text(x, y + 80, f"wind {board.wind or '-'}", font_size=12))
    top = y + 140
    for seat in range(board.players):
        parts += _seat_block(board, seat, x, top)
        top += 62
    return parts, top


def _seat_block(board: Board, seat: int, x: float, y: float) -> list[str]:
    view = board.view
    you = " (you)" if seat == view["observer"] else ""
    weight = "bold" if seat == board.to_move else "normal"
    planting = board.trees_to_plant(seat)
    trees = (
        f"to plant {' '.join(map(str, planting))}"
        if planting
        else f"trees {' '.join(map(str, board.trees_of(seat))) or '-'}"
    )
    parts = [
        svg.rect(
            x,
            y,
            PANEL_W,
            56,
            rx=6,
            fill="#ffffff",
            stroke=svg.INK if seat == board.to_move else "#c9c2b0",
            stroke_width=2 if seat == board.to_move else 1,
        ),
        svg.circle(x + 16, y + 18, 8, fill=svg.seat_colour(seat)),
        svg.text(x + 30, y + 22, f"seat {seat}{you}", font_weight=weight),
        svg.text(
            x + PANEL_W - 10,
            y + 22,
            f"{board.score(seat)} pts",
            text_anchor="end",
            font_weight="bold",
        ),
        svg.text(
            x + 30,
            y + 38,
            f"summer {view['summer'][seat]} · winter {view['winter'][seat]} · {trees}",
            font_size=10,
        ),
        svg.text(x + 30, y + 51, f"tiles left {_tile_names(board.tiles_left(seat))}", font_size=10),
    ]
    return parts


def _legend_entries() -> list[tuple[str, str]]:
    entries = [
        (svg.rect(0, 0, 16, 16, fill=TERRAIN_COLOURS[k], stroke="#999"), f"terrain {LETTERS[k]}")
        for k in range(8)
    ]
    entries += [
        (_tree(8, 8, 0, 3, False, "tree", radius=8), "tree, its value"),
        (_leaf(8, 8, svg.seat_colour(0), "leaf", scale=0.6), "top leaf"),
        (_height_badge(8, 8, 3), "stack height"),
        (_squirrel(8, 8, svg.seat_colour(0), "squirrel", scale=0.55), "squirrel"),
        (svg.circle(8, 8, 7, fill="none", stroke=svg.INK, stroke_width=3), "falling tree"),
        (svg.rect(1, 1, 14, 14, fill="none", stroke=svg.INK, stroke_dasharray="4 3"), "last leaf"),
    ]
    return entries


def svg_of_view(view: Mapping[str, Any], game: BoskGame) -> str:
    """The SVG picture of ``view`` (an observation, or the referee's view)."""
    board = Board.of(view)
    side = 2 * MARGIN + board.size * CELL
    panel, bottom = _panel(board, side + 10, MARGIN - 10)
    entries = _legend_entries()
    legend_w = PANEL_W
    legend_y = max(bottom + 6, 0)
    height = max(side, legend_y + svg.legend_height(entries, legend_w) + 12)
    width = side + PANEL_W + 24
    parts = _board_svg(board, game.terrain) + panel
    parts.append(svg.legend(side + 10, legend_y, entries, legend_w))
    return svg.document(width, height, parts, _status(board))


def render_svg(state: BoskState, player: int | None = None) -> str:
    """The position as an SVG picture, seen by ``player`` (None: the referee)."""
    return svg_of_view(picture_view(state, player), state.game)
