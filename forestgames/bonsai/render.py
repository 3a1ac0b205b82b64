"""Pictures of Bonsai trees and positions: text, and SVG (hexes with the pot).

``render_tree`` draws one tree as offset text rows, the top of the tree first
(``#`` wood, ``B`` the bud, ``L`` leaf, ``*`` flower, ``o`` fruit, ``_`` pot), then the
pot's three rows (the bud's, widest, first)::

        L   *
      L   #   #
    _   _   B   _   _   _
      _   _   _   _   _
        _   _   _   _
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from forestgames import _svg as svg
from forestgames._text import game_over, wrap, wrap_line
from forestgames.bonsai._tables import (
    BUD,
    CARD_NAMES,
    CARD_TYPES,
    COLOURS,
    GOALS,
    KINDS,
    POT_CELLS,
    POT_QR,
    SLOT_TILES,
    SOLO_TARGETS,
    CardKind,
    qr_of,
)
from forestgames.bonsai.scoring import parchment_points
from forestgames.bonsai.state import BonsaiState
from forestgames.bonsai.tree import Tree
from forestgames.core import ConfigError, as_bool, as_number, excerpt

if TYPE_CHECKING:
    from forestgames.bonsai.rules import BonsaiGame

__all__ = ["picture_view", "render_svg", "render_text", "render_tree", "tree_svg"]

_CHARS = ("#", "L", "*", "o")
_COLOURS = ("#8b5a2b", "#3f9b3a", "#f2a7c3", "#f08a24")
_POT_COLOUR = "#4a6fa5"
_CORNERS = tuple(
    (math.cos(math.radians(60 * i - 30)), math.sin(math.radians(60 * i - 30))) for i in range(6)
)
"""Unit offsets of a pointy-top hexagon's corners (SVG y grows downward)."""


def _as_tree(tree: Tree | Mapping[Any, Any]) -> Tree:
    return tree if isinstance(tree, Tree) else Tree.from_tiles(tree)


def render_tree(tree: Tree | Mapping[Any, Any], coordinates: bool = False) -> str:
    """One tree (a Tree or ``{(q, r): kind}``) as text rows, the top first.

    With ``coordinates``, each row starts with its ``r`` and each tile is
    followed by its ``q`` (``L-1`` is a leaf at ``q = -1``), so every cell can
    be named in a move without counting.
    """
    coordinates = as_bool(coordinates, "coordinates")
    cells = _as_tree(tree).cells
    marks = {qr_of(c): "B" if c == BUD else _CHARS[k] for c, k in cells.items()}
    for qr in POT_QR:
        marks.setdefault(qr, "_")
    if coordinates:
        marks = {(q, r): mark if mark in "B_" else f"{mark}{q}" for (q, r), mark in marks.items()}
    columns = [2 * q + r for q, r in marks]
    left = min(columns)
    lines = []
    for row in range(min(r for _, r in marks), max(r for _, r in marks) + 1):
        line = [" "] * (2 * (max(columns) - left) + 4)
        for (q, r), mark in marks.items():
            if r == row:
                at = 2 * (2 * q + r - left)
                line[at : at + len(mark)] = list(mark)
        drawn = "".join(line).rstrip()
        lines.append(f"r{row:<3} {drawn}" if coordinates else drawn)
    return "\n".join(lines)


MAX_HEX_SIZE = 10_000.0
"""The largest hex :func:`tree_svg` draws, in pixels (from its centre to a corner)."""


def tree_svg(tree: Tree | Mapping[Any, Any], size: float = 20.0) -> str:
    """One tree as an SVG picture: pointy-top hexes, the pot in blue, the bud outlined;
    ``size`` is a hex's size in pixels, above 0 and at most :data:`MAX_HEX_SIZE`
    (ConfigError otherwise)."""
    size = as_number(size, "tree_svg's size", 0, strict=True)
    if size > MAX_HEX_SIZE:
        raise ConfigError(f"tree_svg's size must be at most {MAX_HEX_SIZE:g} pixels, not {size:g}")
    cells = _as_tree(tree).cells
    shapes = [(c, _POT_COLOUR) for c in POT_CELLS if c not in cells]
    shapes += [(c, _COLOURS[k]) for c, k in cells.items()]
    width, height = math.sqrt(3) * size, 1.5 * size
    centres = {c: (width * (q + r / 2), height * r) for c, _ in shapes for q, r in [qr_of(c)]}
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    pad = size * 1.2
    left, top = min(xs) - pad, min(ys) - pad
    view_w, view_h = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{left:.1f} {top:.1f} {view_w:.1f} {view_h:.1f}" '
        f'width="{view_w:.0f}" height="{view_h:.0f}">',
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{view_w:.1f}" height="{view_h:.1f}" '
        'fill="#fbf8ef"/>',
    ]
    for cell, colour in sorted(shapes):
        x, y = centres[cell]
        corners = " ".join(f"{x + size * cos:.1f},{y + size * sin:.1f}" for cos, sin in _CORNERS)
        stroke = (
            ' stroke="#222" stroke-width="2.5"'
            if cell == BUD
            else ' stroke="#fff" stroke-width="1.5"'
        )
        kind = "pot" if cell in POT_CELLS and cell != BUD else KINDS[cells[cell]].value
        q, r = qr_of(cell)
        parts.append(
            f'<polygon points="{corners}" fill="{colour}"{stroke}>'
            f"<title>{kind} ({q}, {r})</title></polygon>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


# --------------------------------------------------------------------------- positions

GOAL_COLOURS: Mapping[str, str] = MappingProxyType({
    "brown": "#8b5a2b", "green": "#3f9b3a", "orange": "#f08a24", "pink": "#e58fb4",
    "blue": "#4a90d9",
})  # fmt: skip
CARD_FILLS: Mapping[CardKind, str] = MappingProxyType({
    CardKind.TOOL: "#d9d4c7", CardKind.GROWTH: "#cfe8c6", CardKind.MASTER: "#f5dc9a",
    CardKind.HELPER: "#c9dcf2", CardKind.PARCHMENT: "#efe3c8",
})  # fmt: skip
SLOT_EXTRAS: tuple[str, ...] = ("", "+ wood or leaf", "+ wood, flower", "+ leaf, fruit")
"""What the market slots 1..4 give besides their card (``SLOT_TILES``, slot 2's choice)."""
assert len(SLOT_EXTRAS) == len(SLOT_TILES)
HEX = 15.0  # hex radius in the position picture
PANEL_W, CARD_W, CARD_H = 330, 96, 54
HELD_SHOWN = 10  # held cards drawn in a seat's panel (two rows of five)


def picture_view(state: BonsaiState, player: int | None = None) -> dict[str, Any]:
    """What a picture may show: ``state.observation(player)``, or everything for None;
    ConfigError if ``state`` is not a Bonsai state."""
    if not isinstance(state, BonsaiState):
        raise ConfigError(f"a picture needs a Bonsai state, not {excerpt(state)}")
    if player is not None:
        return state.observation(player)
    return {"observer": None, "deck_size": state.deck_size, **state.to_dict()}


def _tiles(view: Mapping[str, Any], seat: int) -> dict[tuple[int, int], str]:
    return {(q, r): kind for q, r, kind in view["players"][seat]["tree"]}


class Seat(NamedTuple):
    """One seat's tree and points, read from a view."""

    tree: Tree
    cards: tuple[int, ...]
    parts: dict[str, int]


def _seat(view: Mapping[str, Any], game: BonsaiGame, seat: int) -> Seat:
    tree = Tree.from_tiles(_tiles(view, seat), game.wood_beside_pot)
    cards = tuple(CARD_NAMES[name] for name in view["players"][seat]["cards"])
    goals = sum(
        GOALS[_goal_id(name)].points for name, s in view["goal_owners"].items() if s == seat
    )
    counts = tree.counts()
    parchments = sum(
        parchment_points(c, counts, cards)
        for c in cards
        if CARD_TYPES[c].kind is CardKind.PARCHMENT
    )
    points = tree.points(game.pot_sides_free)
    parts = {"tree": points, "goals": goals, "parchments": parchments}
    return Seat(tree, cards, {**parts, "total": points + goals + parchments})


def _goal_id(name: str) -> int:
    return next(g for g, goal in enumerate(GOALS) if goal.name == name)


def _to_move(view: Mapping[str, Any]) -> int | None:
    if view["phase"] == "over":
        return None
    return int((view["first_player"] + view["turn"]) % view["num_players"])


def _winners(view: Mapping[str, Any], game: BonsaiGame, seats: list[Seat]) -> tuple[int, ...]:
    """Once over, as the rules say: the best total, ties to the seat farthest clockwise
    from the first player; solo: won with three goals and the difficulty's points."""
    totals = [s.parts["total"] for s in seats]
    if len(seats) == 1:
        goals = sum(1 for owner in view["goal_owners"].values() if owner == 0)
        return (0,) if goals == 3 and totals[0] >= SOLO_TARGETS[game.solo_difficulty] else ()
    first, p, best = view["first_player"], len(seats), max(totals)
    return (max((s for s in range(p) if totals[s] == best), key=lambda s: (s - first) % p),)


def _status(view: Mapping[str, Any], game: BonsaiGame, seats: list[Seat]) -> str:
    head = f"Bonsai {view['num_players']}p · turn {view['turn'] + 1}"
    mover = _to_move(view)
    if mover is not None:
        last = " · last round" if view["last_turn"] is not None else ""
        return f"{head}{last} · {view['phase']} · seat {mover} to move"
    winners = _winners(view, game, seats)
    return f"{head} · {game_over(winners, len(seats))}"


def _goal_table(view: Mapping[str, Any]) -> list[str]:
    """Per colour, the tiers in play, ``=sN`` after a tier that seat N holds."""
    in_play, owners = set(view["goals_in_play"]), view["goal_owners"]
    cells = []
    for colour in COLOURS:
        tiers = []
        for goal in GOALS:
            if goal.colour == colour and goal.name in in_play:
                owner = owners.get(goal.name)
                tiers.append(f"{goal.tier}{'' if owner is None else f'=s{owner}'}")
        if tiers:
            cells.append(f"{colour} {' '.join(tiers)}")
    return cells


def _seat_text(view: Mapping[str, Any], seat: int, info: Seat, storage: int) -> list[str]:
    parts = info.parts
    you = " (you)" if seat == view["observer"] else ""
    mover = ">" if seat == _to_move(view) else " "
    supply = " ".join(f"{k} {n}" for k, n in view["players"][seat]["supply"].items() if n)
    lines = [
        f"{mover}seat {seat}{you}: {parts['total']} points (tree {parts['tree']}, goals "
        f"{parts['goals']}, parchments {parts['parchments']}) · supply {supply or 'empty'} "
        f"(holds {storage})"
    ]
    cards = [f"{name} x{n}" if n > 1 else name for name, n in _grouped(view, seat)] or ["none"]
    lines += wrap(cards, "    cards", "          ")
    lines += _goal_line(view, seat)
    lines += ["    " + row for row in render_tree(info.tree, coordinates=True).splitlines()]
    return lines


def _goal_line(view: Mapping[str, Any], seat: int) -> list[str]:
    """The goals ``seat`` holds and has renounced (no line when neither)."""
    goals = [name for name, s in view["goal_owners"].items() if s == seat]
    renounced = view["renounced"][seat]
    if not goals and not renounced:
        return []
    given_up = f" · renounced {', '.join(renounced)}" if renounced else ""
    return [f"    goals {', '.join(goals) or 'none'}{given_up}"]


def _grouped(view: Mapping[str, Any], seat: int) -> list[tuple[str, int]]:
    """``seat``'s cards as (name, copies), in the order held."""
    counts: dict[str, int] = {}
    for name in view["players"][seat]["cards"]:
        counts[name] = counts.get(name, 0) + 1
    return list(counts.items())


def _storage(cards: tuple[int, ...], game: BonsaiGame) -> int:
    return game._storage_limit(cards)


def text_of_view(view: Mapping[str, Any], game: BonsaiGame) -> str:
    """The text picture of ``view`` (an observation, or the referee's view)."""
    seats = [_seat(view, game, p) for p in range(view["num_players"])]
    market = [
        f"{slot + 1} {name or '-'}{f' ({SLOT_EXTRAS[slot]})' if SLOT_EXTRAS[slot] else ''}"
        for slot, name in enumerate(view["market"])
    ]
    lines = [_status(view, game, seats)]
    lines += wrap(market, f"deck {view['deck_size']} · market:", "    ")
    if view.get("deck"):
        lines += wrap(list(view["deck"][:6]), "next cards (referee):", "    ")
    lines += wrap(_goal_table(view) or ["none"], "goals (tier, =sN held by seat N):", "    ")
    if view["phase"] in ("cultivate", "helper"):
        left = " ".join(f"{k} {n}" for k, n in view["symbols"].items() if n)
        lines.append(f"placements left this {view['phase']}: {left or 'none'}")
    for seat, info in enumerate(seats):
        lines += _seat_text(view, seat, info, _storage(info.cards, game))
    return "\n".join(piece for line in lines for piece in wrap_line(line))


def render_text(state: BonsaiState, player: int | None = None) -> str:
    """The position as text, seen by ``player`` (None: the referee, who sees everything)."""
    return text_of_view(picture_view(state, player), state.game)


# --------------------------------------------------------------------------- SVG


def _hexagon(x: float, y: float, size: float, colour: str, title: str, bud: bool = False) -> str:
    corners = [(x + size * cos, y + size * sin) for cos, sin in _CORNERS]
    stroke = (
        {"stroke": "#222", "stroke_width": 2.2} if bud else {"stroke": "#fff", "stroke_width": 1.2}
    )
    return svg.polygon(corners, fill=colour, title=title, **stroke)


@functools.lru_cache(maxsize=256)  # a replay draws each seat's tree again every move
def _tree_parts(tree: Tree, x0: float, y0: float, width: float, height: float) -> tuple[str, ...]:
    """The tree and its pot fitted in the box (x0, y0, width, height), pot at the bottom."""
    cells = dict(tree.cells)
    shown = set(cells) | POT_CELLS
    qrs = [qr_of(c) for c in shown]
    xs = [q + r / 2 for q, r in qrs]
    ys = [r for _, r in qrs]
    span_x = (max(xs) - min(xs)) * math.sqrt(3) + 2
    span_y = (max(ys) - min(ys)) * 1.5 + 2
    size = min(HEX, width / span_x, height / span_y)
    centre_x = x0 + width / 2 - (max(xs) + min(xs)) / 2 * math.sqrt(3) * size
    bottom = y0 + height - size - (max(ys)) * 1.5 * size
    parts = []
    for cell in sorted(shown):
        q, r = qr_of(cell)
        x, y = centre_x + (q + r / 2) * math.sqrt(3) * size, bottom + r * 1.5 * size
        if (cell in cells and cell != BUD) or cell == BUD:
            kind = KINDS[cells[cell]].value
            colour = _COLOURS[cells[cell]]
        else:
            kind, colour = "pot", _POT_COLOUR
        parts.append(_hexagon(x, y, size, colour, f"{kind} ({q}, {r})", bud=cell == BUD))
    return tuple(parts)


def _card_face(x: float, y: float, name: str, extra: str = "") -> str:
    card = CARD_TYPES[CARD_NAMES[name]]
    kind, _, detail = name.partition(":")
    spaced = detail.replace("+", " + ")
    lines = [spaced if svg.fits(spaced, CARD_W - 8, 10) else detail] if detail else []
    if card.kind is CardKind.PARCHMENT:
        lines = [f"{card.per} per {card.parchment}"]
    if extra:
        lines.append(extra)
    face = svg.card(x, y, CARD_W, CARD_H, kind, lines, fill=CARD_FILLS[card.kind])
    return svg.group([face], title=name)


def _market_parts(view: Mapping[str, Any], x: float, y: float) -> list[str]:
    parts = [svg.text(x, y - 6, "market (slot 1-4) and deck", font_weight="bold")]
    for slot, name in enumerate(view["market"]):
        left = x + slot * (CARD_W + 8)
        if name is None:
            parts.append(
                svg.rect(
                    left,
                    y,
                    CARD_W,
                    CARD_H,
                    rx=4,
                    fill="none",
                    stroke="#999",
                    stroke_dasharray="4 3",
                )
            )
        else:
            parts.append(_card_face(left, y, name, SLOT_EXTRAS[slot]))
    deck_x = x + 4 * (CARD_W + 8) + 6
    discarded = f"{len(view['discards'])} discarded"
    parts.append(svg.card_back(deck_x, y, 44, CARD_H, view["deck_size"]))
    parts.append(
        svg.text(
            deck_x + 22,
            y + CARD_H + 13,
            discarded,
            text_anchor="middle",
            font_size=10,
            fill=svg.MUTED,
        )
    )
    if view.get("deck"):
        head, upcoming = "next in the deck (referee): ", view["deck"][:3]
        room = deck_x + 22 - svg.text_width(discarded, 10) / 2 - 8 - x
        parts.append(
            svg.fitted_list(x, y + CARD_H + 13, head, upcoming, room, 10, ", ", fill=svg.MUTED)
        )
    return parts


def _goal_parts(view: Mapping[str, Any], x: float, y: float) -> list[str]:
    in_play, owners = set(view["goals_in_play"]), view["goal_owners"]
    parts = [svg.text(x, y - 6, "goals (needed → points)", font_weight="bold")]
    for col, colour in enumerate(COLOURS):
        for goal in (g for g in GOALS if g.colour == colour):
            gx, gy = x + col * 62, y + (goal.tier - 1) * 24
            owner = owners.get(goal.name)
            fill = GOAL_COLOURS[colour] if goal.name in in_play else "#dddddd"
            opacity = 1.0 if owner is None else 0.5  # a held goal fades (over the paper)
            title = f"{goal.name}: {goal.threshold} → {goal.points} points"
            parts.append(svg.rect(gx, gy, 56, 20, rx=4, fill=fill, opacity=opacity, title=title))
            parts.append(
                svg.text(
                    gx + 5,
                    gy + 14,
                    f"{goal.threshold}→{goal.points}",
                    font_size=10,
                    fill=svg.on(svg.blend(fill, svg.PAPER, opacity)),
                    font_weight="bold",
                )
            )
            if owner is not None:
                parts.append(
                    svg.circle(
                        gx + 47,
                        gy + 10,
                        6,
                        fill=svg.seat_colour(owner),
                        stroke="#fff",
                        title=f"held by seat {owner}",
                    )
                )
    return parts


def _supply_parts(supply: Mapping[str, int], x: float, y: float) -> list[str]:
    parts = []
    for k, (kind, count) in enumerate(supply.items()):
        cx = x + 8 + k * 42
        parts.append(_hexagon(cx, y, 8, _COLOURS[k], f"{count} {kind} in supply"))
        parts.append(svg.text(cx + 12, y + 4, count, font_size=11, font_weight="bold"))
    return parts


def _seat_panel(
    view: Mapping[str, Any], seat: int, info: Seat, x: float, y: float, height: float, limit: int
) -> list[str]:
    acting = seat == _to_move(view)
    parts = [
        *svg.seat_panel(x, y, PANEL_W, height, seat, acting, seat == view["observer"]),
        svg.text(
            x + PANEL_W - 10,
            y + 23,
            f"{info.parts['total']} pts",
            text_anchor="end",
            font_weight="bold",
            font_size=13,
        ),
        svg.text(
            x + 30,
            y + 39,
            f"tree {info.parts['tree']} · goals {info.parts['goals']} · "
            f"parchments {info.parts['parchments']}",
            font_size=10,
            fill=svg.MUTED,
        ),
    ]
    tree_h = height - 140
    parts += _tree_parts(info.tree, x + 10, y + 48, PANEL_W - 20, tree_h)
    base = y + 48 + tree_h + 14
    parts.append(svg.text(x + 10, base + 4, f"supply (holds {limit})", font_size=10))
    parts += _supply_parts(view["players"][seat]["supply"], x + 120, base)
    cards = _grouped(view, seat)
    shown = cards if len(cards) <= HELD_SHOWN else cards[: HELD_SHOWN - 1]
    for k, (name, copies) in enumerate(shown):
        parts.append(_small_card(x + 10 + (k % 5) * 63, base + 14 + (k // 5) * 30, name, copies))
    if len(shown) < len(cards):
        k = len(shown)
        rest = [f"{name} x{n}" if n > 1 else name for name, n in cards[k:]]
        parts.append(_more_card(x + 10 + (k % 5) * 63, base + 14 + (k // 5) * 30, len(rest), rest))
    return parts


def _more_card(x: float, y: float, count: int, names: list[str]) -> str:
    """The last slot of a seat's held cards when they do not all fit: ``+N more``, the
    cards left out in its title."""
    return svg.group(
        [
            svg.rect(x, y, 59, 26, rx=3, fill=svg.WHITE, stroke="#999", stroke_dasharray="3 2"),
            svg.text(x + 29.5, y + 11, f"+{count} more", text_anchor="middle", font_size=9),
            svg.text(x + 29.5, y + 22, "kinds", text_anchor="middle", font_size=8),
        ],
        title=", ".join(names),
    )


def _small_card(x: float, y: float, name: str, copies: int) -> str:
    """A held card, 59 × 26, with ×N when several copies are held."""
    card = CARD_TYPES[CARD_NAMES[name]]
    kind, _, detail = name.partition(":")
    parts = [
        svg.rect(x, y, 59, 26, rx=3, fill=CARD_FILLS[card.kind], stroke="#999", title=name),
        svg.text(x + 29.5, y + 11, kind, text_anchor="middle", font_size=9, font_weight="bold"),
        svg.text(
            x + 29.5,
            y + 22,
            detail or "+2 storage",
            text_anchor="middle",
            font_size=svg.fitted_size(detail or "+2 storage", 55, 8),  # 55 inner pixels
        ),
    ]
    if copies > 1:
        parts.append(svg.circle(x + 55, y + 3, 7, fill=svg.INK))
        parts.append(
            svg.text(
                x + 55,
                y + 6.5,
                f"{copies}",
                text_anchor="middle",
                font_size=9,
                fill=svg.on(svg.INK),
                font_weight="bold",
            )
        )
    return svg.group(parts)


def _legend_entries() -> list[tuple[str, str]]:
    entries = [
        (_hexagon(8, 8, 8, _COLOURS[k], kind.value), kind.value) for k, kind in enumerate(KINDS)
    ]
    entries += [
        (_hexagon(8, 8, 8, _POT_COLOUR, "pot"), "pot"),
        (_hexagon(8, 8, 7, _COLOURS[0], "bud", bud=True), "the bud (0, 0)"),
        (svg.rect(0, 3, 16, 10, rx=2, fill=GOAL_COLOURS["green"]), "goal: needed → points"),
        (svg.circle(8, 8, 6, fill=svg.seat_colour(0)), "goal held by a seat"),
    ]
    entries += [
        (
            svg.rect(0, 2, 16, 12, rx=2, fill=CARD_FILLS[kind], stroke="#999"),
            f"{kind.name.lower()} card",
        )
        for kind in CardKind
    ]
    return entries


def svg_of_view(view: Mapping[str, Any], game: BonsaiGame) -> str:
    """The SVG picture of ``view`` (an observation, or the referee's view)."""
    seats = [_seat(view, game, p) for p in range(view["num_players"])]
    players = len(seats)
    columns = players if players <= 3 else 2
    width = max(24 + columns * (PANEL_W + 12), 880)
    parts = [
        svg.text(
            20,
            28,
            f"Bonsai · {players} player{'s' if players > 1 else ''}",
            font_size=16,
            font_weight="bold",
        ),
        svg.text(20, 46, _status(view, game, seats).split(" · ", 1)[1], font_size=11),
    ]
    parts += _market_parts(view, 20, 74)
    parts += _goal_parts(view, 540, 74)
    if view["phase"] in ("cultivate", "helper"):
        left = " ".join(f"{k} {n}" for k, n in view["symbols"].items() if n) or "none"
        parts.append(
            svg.text(20, 160, f"placements left this {view['phase']}: {left}", font_size=11)
        )
    panel_h = 420
    for seat, info in enumerate(seats):
        row, col = divmod(seat, columns)
        x, y = 20 + col * (PANEL_W + 12), 172 + row * (panel_h + 12)
        parts += _seat_panel(view, seat, info, x, y, panel_h, _storage(info.cards, game))
    rows = -(-players // columns)
    legend_y = 172 + rows * (panel_h + 12)
    entries = _legend_entries()
    parts.append(svg.legend(20, legend_y, entries, width - 40))
    height = legend_y + svg.legend_height(entries, width - 40) + 12
    return svg.document(width, height, parts, _status(view, game, seats))


def render_svg(state: BonsaiState, player: int | None = None) -> str:
    """The position as an SVG picture, seen by ``player`` (None: the referee)."""
    return svg_of_view(picture_view(state, player), state.game)
