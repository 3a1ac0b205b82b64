"""Pictures of Bonsai trees and positions: text, and SVG (hexes with the pot).

``render_tree`` draws one tree as offset text rows, the top of the tree first
(``#`` wood, ``B`` the bud, ``L`` leaf, ``*`` flower, ``o`` fruit, ``_`` pot)::

          L   L
            #   *
          B _ _ _
       _ _ _ _ _ _      (the pot's three rows, widest first)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from forestgames.bonsai._tables import BUD, CARD_TYPES, GOALS, KINDS, POT_CELLS, POT_QR, qr_of
from forestgames.bonsai.tree import Tree

if TYPE_CHECKING:
    from forestgames.bonsai.state import BonsaiState

__all__ = ["render_state", "render_tree", "tree_svg"]

_CHARS = ("#", "L", "*", "o")
_COLOURS = ("#8b5a2b", "#3f9b3a", "#f2a7c3", "#f08a24")
_POT_COLOUR = "#4a6fa5"
_CORNERS = tuple(
    (math.cos(math.radians(60 * i - 30)), math.sin(math.radians(60 * i - 30))) for i in range(6)
)
"""Unit offsets of a pointy-top hexagon's corners (SVG y grows downward)."""


def _as_tree(tree: Tree | Mapping[Any, Any]) -> Tree:
    return tree if isinstance(tree, Tree) else Tree.from_tiles(tree)


def render_tree(tree: Tree | Mapping[Any, Any]) -> str:
    """One tree (a Tree or ``{(q, r): kind}``) as text rows, the top first."""
    cells = _as_tree(tree).cells
    marks = {qr_of(c): "B" if c == BUD else _CHARS[k] for c, k in cells.items()}
    for qr in POT_QR:
        marks.setdefault(qr, "_")
    columns = [2 * q + r for q, r in marks]
    left = min(columns)
    lines = []
    for row in range(min(r for _, r in marks), max(r for _, r in marks) + 1):
        line = [" "] * (2 * (max(columns) - left) + 1)
        for (q, r), mark in marks.items():
            if r == row:
                line[2 * (2 * q + r - left)] = mark
        lines.append("".join(line).rstrip())
    return "\n".join(lines)


def tree_svg(tree: Tree | Mapping[Any, Any], size: float = 20.0) -> str:
    """One tree as an SVG picture: pointy-top hexes, the pot in blue, the bud outlined."""
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


def render_state(state: BonsaiState) -> str:
    """The position as text: status, market, goals, then each seat's supply, cards, tree."""
    game = state.game
    status = f"Bonsai {game.num_players}p · turn {state.turn + 1} · {state.phase.value}"
    if state.current_player is not None:
        status += f" · seat {state.current_player} to move"
    elif game.num_players == 1:
        status += " · over, " + ("won" if state.solo_won else "lost")
    else:
        status += f" · over, winner seat {state.winners[0]}"
    lines = [status, f"deck {state.deck_size} · market (slot 1..4): " + ", ".join(
        c or "-" for c in state.market_cards
    )]  # fmt: skip
    free = [
        GOALS[g].name
        for g in range(len(GOALS))
        if state.goals_in_play >> g & 1 and state.goal_owner[g] < 0
    ]
    lines.append("goals free: " + (", ".join(free) or "none"))
    if state.phase.value in ("cultivate", "helper"):
        lines.append(f"symbols left (wood, leaf, flower, fruit, wild): {state.symbols}")
    for seat in range(game.num_players):
        parts = state.score_parts(seat)
        supply = " ".join(f"{k}:{n}" for k, n in state.supply(seat).items() if n)
        cards = ", ".join(CARD_TYPES[c].name for c in state.cards[seat]) or "none"
        goals = ", ".join(name for name, s in state.goal_owners.items() if s == seat) or "none"
        lines.append(
            f"seat {seat}: {parts['total']} points (tree {parts['tree']}, goals {parts['goals']}, "
            f"parchments {parts['parchments']}) · supply {supply or 'empty'} "
            f"(limit {state.storage_limit(seat)}) · cards {cards} · goals {goals}"
        )
        lines.extend("    " + line for line in render_tree(state.trees[seat]).splitlines())
    return "\n".join(lines)
