"""Pictures of Living Forest positions: text and SVG, the referee's view or one seat's.

Both pictures are drawn from a *view*: ``state.observation(seat)`` for a seat
(deck orders, the other discards and the reserve stacks face down), or for the
referee (``player=None``) the same with every deck, discard and stack face up.
Cards are written compactly, ``name[cost] elements``, ``*`` solitary, ``~``
gregarious (see ``fg.living_forest.CARDS``). Some lines of seat 1's view::

    Living Forest 2p · turn 3 · actions · seat 1 to move (attract, budget 1 sun)
    Onibi's fires in the centre 2 (total 2) · fire supply 2:19 3:20 4:18 · varans 19 · fragments 18
    reserve I  Cockatoo[4] Su3 Pl-1 Fl1, Spider[1] Su2 Pl4 *, HornedOwl[2] Su1 Wa1 Wi3 * (stack 19)
    >seat 1 (you) · rock 6 · fragments 1
        trees 2 · fires 1 · flowers 1 (of 12)                                 forest   0  1  2  3  4
        victory tiles tree 1 fire 1 flower 1 · fires held 2:0 3:0 4:0              0   .  .  .  .  .
        elements Su 3 Wa 0 Pl 1 Wi 0 Fl 0 · solitary 1/3                           1   .  .  S  .  .
        deck 12 · discard 4                                                        2   .  .  .  .  .
        help line: Beetle Su3 Pl1 *
        deck top (attracted, public) Beaver
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from forestgames import _svg as svg
from forestgames._text import game_over, side_by_side, wrap, wrap_line
from forestgames.core import ConfigError, excerpt
from forestgames.living_forest._tables import (
    ACTIONS,
    CARD_INDEX,
    ELEMENTS,
    FOREST_COLS,
    FOREST_ROWS,
    FRAGMENT_SUPPLY,
    GOAL,
    LINE_BONUSES,
    ROCK_BONUS,
    ROCKS,
    SOLITARY_LIMIT,
    TREE_BONUS,
    TREE_COST,
    TREE_INDEX,
    VICTORY_KINDS,
)
from forestgames.living_forest.cards import CARDS, ELEMENT_SHORT
from forestgames.living_forest.scoring import (
    _element_totals,
    _progress_of,
    _solitary_count,
    limit_winners,
)
from forestgames.living_forest.state import LivingForestState

__all__ = ["picture_view", "render_svg", "render_text"]

LEVELS = ("I", "II", "III")
ELEMENT_COLOURS: Mapping[str, str] = MappingProxyType({
    "sun": "#e8a800", "water": "#2979c8", "plant": "#2e9d57", "wind": "#8795a1",
    "flower": "#c8418e",
})  # fmt: skip
"""Element discs, their amount written on them in white or ink (``_svg.on``). Water and
flower are #2e86de and #d9479a darkened a tenth, so that white reaches 4.5:1 on them."""
FIRE_COLOUR = "#d9381e"
ROCK_COLOUR = "#9c9485"
BONUS_LETTERS = MappingProxyType(
    {"plant": "P", "fragment": "F", "attract": "A", "extinguish": "E", "move": "M"}
)
WIDTH = 1000
SPIRIT_W, SPIRIT_H = 480, 300
CELL = 44  # forest cell
CARD_W, CARD_H = 78, 50
DECK_LINE_W = 262  # a Spirit's deck line, from after the deck to before the discard pile


def picture_view(state: LivingForestState, player: int | None = None) -> dict[str, Any]:
    """What a picture may show: ``state.observation(player)``, or everything for None
    (``state.to_dict()`` with the observation's counts added: each Spirit's
    ``deck_size``, ``deck_top`` and ``discard_size``, each reserve level's ``stack``
    count beside its ``stack_cards``; no ``cards`` or ``deck_rest``, whose cards ``deck``
    and ``discard`` list in order); ConfigError if ``state`` is not a Living Forest state."""
    if not isinstance(state, LivingForestState):
        raise ConfigError(f"a picture needs a Living Forest state, not {excerpt(state)}")
    if player is not None:
        return state.observation(player)
    data = state.to_dict()
    del data["entropy"]
    for level in data["reserve"].values():
        level["stack_cards"] = level["stack"]
        level["stack"] = len(level["stack_cards"])
    for spirit in data["spirits"]:
        spirit["deck_size"] = len(spirit["deck"])
        spirit["deck_top"] = spirit["deck"][: spirit["known"]]
        spirit["discard_size"] = len(spirit["discard"])
    data["observer"] = None
    return data


class Spirit(NamedTuple):
    """One Spirit's counts, computed from a view with the rules' own functions."""

    totals: tuple[int, int, int, int, int]
    solitary: int
    progress: tuple[int, int, int]


def _forest_ids(forest: list[list[str | None]]) -> tuple[int, ...]:
    return tuple(-1 if t is None else TREE_INDEX[t] for row in forest for t in row)


def _spirit(spirit: Mapping[str, Any]) -> Spirit:
    line = tuple(CARD_INDEX[name] for name in spirit["line"])
    forest = _forest_ids(spirit["forest"])
    held = sum(spirit["fires"].values())
    tiles = tuple(spirit["victory"][k] for k in VICTORY_KINDS)
    return Spirit(
        _element_totals(line, forest),
        _solitary_count(line),
        _progress_of(line, forest, held, tiles),
    )


def _to_move(view: Mapping[str, Any]) -> int | None:
    if view["phase"] == "over":
        return None
    return int((view["sacred"] + view["seat_index"]) % view["num_players"])


def _status(view: Mapping[str, Any], spirits: list[Spirit]) -> str:
    head = f"Living Forest {view['num_players']}p · turn {view['turn']}"
    mover = _to_move(view)
    if mover is None:
        winners = limit_winners([s.progress for s in spirits])
        return f"{head} · {game_over(winners, len(spirits))}"
    head += f" · {view['phase']} · seat {mover} to move"
    step = view["step"]
    if view["phase"] == "actions" and step != "choose":
        unit = {"attract": " sun", "extinguish": " water"}.get(step)
        head += f" ({step}, budget {view['budget']}{unit})" if unit else f" ({step})"
    return head


def _fire_text(view: Mapping[str, Any]) -> str:
    centre = view["centre"]
    supply = " ".join(f"{v}:{n}" for v, n in zip((2, 3, 4), view["fire_supply"], strict=True))
    fragments = FRAGMENT_SUPPLY - sum(s["fragments"] for s in view["spirits"])
    fires = " ".join(map(str, centre)) or "none"
    return (
        f"Onibi's fires in the centre {fires} (total {sum(centre)}) · fire supply {supply} · "
        f"varans {view['varans']} · fragments {fragments}"
    )


def _reserve_text(view: Mapping[str, Any]) -> list[str]:
    lines = []
    for level in LEVELS:
        reserve = view["reserve"][level]
        cards = [CARDS[name].short() for name in reserve["row"]] or ["-"]
        cards[-1] += f" (stack {reserve['stack']})"
        lines += wrap(cards, f"reserve {level:<3}", "            ", sep=", ")
        if "stack_cards" in reserve:
            lines += wrap(reserve["stack_cards"], "    stack, top first:", "        ", sep=" ")
    return lines


def _forest_text(forest: list[list[str | None]]) -> list[str]:
    lines = ["forest " + "".join(f"{c:>3}" for c in range(FOREST_COLS))]
    for r, row in enumerate(forest):
        cells = ["." if t is None else ("S" if t == "start" else t) for t in row]
        lines.append(f"{r:>6} " + "".join(f"{c:>3}" for c in cells))
    return lines


def _spirit_text(view: Mapping[str, Any], seat: int, info: Spirit) -> list[str]:
    spirit = view["spirits"][seat]
    you = " (you)" if seat == view["observer"] else ""
    mover = ">" if seat == _to_move(view) else " "
    sacred = " · Sacred Tree" if seat == view["sacred"] else ""
    trees, fires, flowers = info.progress
    elements = " ".join(
        f"{ELEMENT_SHORT[k]} {n}" for k, n in zip(ELEMENTS, info.totals, strict=True)
    )
    held = " ".join(f"{v}:{n}" for v, n in spirit["fires"].items())
    tiles = " ".join(f"{k} {n}" for k, n in spirit["victory"].items())
    left = [
        f"{mover}seat {seat}{you}{sacred} · rock {spirit['rock']} · fragments "
        f"{spirit['fragments']}",
        f"    trees {trees} · fires {fires} · flowers {flowers} (of {GOAL})",
        f"    victory tiles {tiles} · fires held {held}",
        f"    elements {elements} · solitary {info.solitary}/{SOLITARY_LIMIT}",
        f"    deck {spirit['deck_size']} · discard {spirit['discard_size']}",
    ]
    block = side_by_side(left, [""] + _forest_text(spirit["forest"]), 74)
    line = [CARDS[name].short() for name in spirit["line"]] or ["-"]
    block += wrap(line, "    help line:", "        ", sep=", ")
    block += _hidden_cards(spirit)
    return block


def _hidden_cards(spirit: Mapping[str, Any]) -> list[str]:
    """The deck and discard lines a view shows: known top cards, own or referee's cards."""
    lines = []
    if spirit["deck_top"]:
        lines += wrap(spirit["deck_top"], "    deck top (attracted, public)", "        ", " ")
    if "deck" in spirit:
        lines += wrap(spirit["deck"] or ["-"], "    deck, top first:", "        ", sep=" ")
    elif "deck_rest" in spirit:
        rest = _counted(spirit["deck_rest"]) or ["-"]
        lines += wrap(rest, "    rest of deck (unordered):", "        ")
    if spirit.get("discard"):
        lines += wrap(_counted(spirit["discard"]), "    discard:", "        ")
    return lines


def _counted(names: list[str]) -> list[str]:
    """Card names with repeats folded: ``FireVaran x3``."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return [f"{name} x{n}" if n > 1 else name for name, n in counts.items()]


def text_of_view(view: Mapping[str, Any]) -> str:
    """The text picture of ``view`` (an observation, or the referee's view)."""
    spirits = [_spirit(s) for s in view["spirits"]]
    bonuses = " ".join(f"{k}:{BONUS_LETTERS[ACTIONS[b]]}" for k, b in enumerate(ROCK_BONUS))
    lines = [_status(view, spirits)]
    lines += wrap_line(_fire_text(view))
    lines += wrap_line(f"circle, rock:bonus (Plant Fragment Attract Extinguish): {bonuses}")
    if view["phase"] == "actions" and view["actions"]:
        lines.append(f"actions taken this turn: {', '.join(view['actions'])}")
    lines += _reserve_text(view)
    for seat, info in enumerate(spirits):
        lines += _spirit_text(view, seat, info)
    return "\n".join(lines)


def render_text(state: LivingForestState, player: int | None = None) -> str:
    """The position as text, seen by ``player`` (None: the referee, who sees everything)."""
    return text_of_view(picture_view(state, player))


# --------------------------------------------------------------------------- SVG


def _pips(card_elements: Mapping[str, int], x: float, y: float, r: float = 7) -> list[str]:
    """One coloured disc per element of a card, its amount inside."""
    parts = []
    for k, (name, amount) in enumerate(card_elements.items()):
        cx = x + r + k * (2 * r + 2)
        parts.append(svg.circle(cx, y, r, fill=ELEMENT_COLOURS[name], title=f"{name} {amount}"))
        parts.append(
            svg.text(
                cx,
                y + r * 0.45,
                amount,
                text_anchor="middle",
                fill=svg.on(ELEMENT_COLOURS[name]),
                font_size=round(r * 1.3),
                font_weight="bold",
            )
        )
    return parts


@functools.lru_cache(maxsize=1024)  # a replay draws the same cards at the same places
def _animal(x: float, y: float, name: str, w: float = CARD_W, h: float = CARD_H) -> str:
    """A face-up card: name, cost (sun) in the corner, element discs, solitary mark."""
    card = CARDS[name]
    varan = card.level == "varan"
    fill = "#f7d4cc" if varan else "#ffffff"
    parts = [
        svg.rect(x, y, w, h, rx=4, fill=fill, stroke="#8a8170", title=f"{name}: {card.describe()}"),
        svg.text(
            x + 4,
            y + 13,
            _fit("Fire Varan" if varan else name, w - (22 if card.cost else 8)),
            font_size=9.5,
            font_weight="bold",
        ),
    ]
    if card.cost:
        parts.append(svg.circle(x + w - 9, y + 9, 7, fill=ELEMENT_COLOURS["sun"], stroke="#fff"))
        parts.append(
            svg.text(
                x + w - 9,
                y + 12.5,
                card.cost,
                text_anchor="middle",
                fill=svg.on(ELEMENT_COLOURS["sun"]),
                font_size=9,
                font_weight="bold",
            )
        )
    pips = card.element_dict()
    parts += _pips(pips, x + 4, y + h - 12, 7 if len(pips) <= 3 else 5.5)
    if card.symbol:
        mark = "#3b2a1a" if card.solitary else "#ffffff"
        parts.append(
            svg.circle(
                x + w - 9,
                y + h - 12,
                6,
                fill=mark,
                stroke="#3b2a1a",
                title="solitary" if card.solitary else "gregarious",
            )
        )
    return svg.group(parts)


def _fit(name: str, width: float) -> str:
    """``name`` cut (with a dot) to ``width`` pixels of 9.5-pixel bold type (as budgeted by
    :func:`forestgames._svg.text_width`; the card's title keeps the whole name)."""
    if svg.fits(name, width, 9.5, bold=True):
        return name
    cut = len(name) - 1
    while cut > 1 and not svg.fits(name[:cut] + ".", width, 9.5, bold=True):
        cut -= 1
    return name[:cut] + "."


def _fire(x: float, y: float, value: int, size: float = 22) -> str:
    points = [
        (x + size / 2, y),
        (x + size, y + size * 0.45),
        (x + size * 0.82, y + size),
        (x + size * 0.18, y + size),
        (x, y + size * 0.45),
    ]
    return svg.group(
        [
            svg.polygon(points, fill=FIRE_COLOUR, stroke="#7a1a0a"),
            svg.text(
                x + size / 2,
                y + size * 0.78,
                value,
                text_anchor="middle",
                fill=svg.on(FIRE_COLOUR),
                font_weight="bold",
                font_size=round(size * 0.5),
            ),
        ],
        title=f"fire of value {value}",
    )


def _circle_svg(view: Mapping[str, Any], cx: float, cy: float, radius: float) -> list[str]:
    parts = [
        svg.circle(cx, cy, radius + 22, fill="#e4ddc9", stroke="#b9ae92"),
        svg.circle(cx, cy, radius - 24, fill="#3a2c2a", stroke="#1f1514"),
        svg.text(
            cx, cy - radius - 44, "Circle of Spirits", text_anchor="middle", font_weight="bold"
        ),
    ]
    rocks = {s["rock"]: seat for seat, s in enumerate(view["spirits"])}
    for rock in range(ROCKS):
        angle = -math.pi / 2 + 2 * math.pi * rock / ROCKS
        x, y = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
        bonus = ACTIONS[ROCK_BONUS[rock]]
        parts.append(
            svg.circle(
                x, y, 17, fill=ROCK_COLOUR, stroke="#5b554a", title=f"rock {rock}: bonus {bonus}"
            )
        )
        if rock in rocks:  # the token covers the rock's number and letter (not its title)
            parts += _spirit_token(view, rocks[rock], x, y)
            continue
        label = svg.on(ROCK_COLOUR)
        parts.append(svg.text(x, y - 3, rock, text_anchor="middle", font_size=9, fill=label))
        parts.append(
            svg.text(
                x,
                y + 9,
                BONUS_LETTERS[bonus],
                text_anchor="middle",
                font_size=10,
                font_weight="bold",
                fill=label,
            )
        )
    centre = view["centre"]
    parts.append(
        svg.text(
            cx,
            cy - 22,
            f"Onibi · {sum(centre)}",
            text_anchor="middle",
            fill="#ffb199",
            font_weight="bold",
        )
    )
    for k, value in enumerate(centre):
        row, col = divmod(k, 4)
        parts.append(_fire(cx - 48 + col * 24, cy - 12 + row * 26, value))
    return parts


def _spirit_token(view: Mapping[str, Any], seat: int, x: float, y: float) -> list[str]:
    colour = svg.seat_colour(seat)
    parts = [
        svg.circle(
            x, y, 12, fill=colour, stroke="#fff", stroke_width=2.5, title=f"seat {seat}'s Spirit"
        )
    ]
    label = svg.on(colour)
    parts.append(svg.text(x, y + 4, seat, text_anchor="middle", fill=label, font_weight="bold"))
    if seat == view["sacred"]:
        parts.append(_sacred_tree(x + 10, y - 22))
    return parts


def _sacred_tree(x: float, y: float, scale: float = 1.0) -> str:
    k = scale
    return svg.group(
        [
            svg.rect(x - 2 * k, y + 6 * k, 4 * k, 6 * k, fill="#6b4a2b"),
            svg.polygon(
                [(x, y - 8 * k), (x + 9 * k, y + 7 * k), (x - 9 * k, y + 7 * k)],
                fill="#2e7d32",
                stroke="#fff",
            ),
        ],
        title="the Sacred Tree: plays first this turn",
    )


def _reserve_svg(view: Mapping[str, Any], x: float, y: float) -> list[str]:
    parts = [svg.text(x, y, "Guardian Animals (reserve)", font_weight="bold")]
    for k, level in enumerate(LEVELS):
        reserve = view["reserve"][level]
        top = y + 12 + k * (CARD_H + 10)
        parts.append(svg.text(x, top + CARD_H / 2 + 5, level, font_weight="bold", font_size=14))
        parts.append(svg.card_back(x + 28, top, 40, CARD_H, reserve["stack"]))
        for j, name in enumerate(reserve["row"]):
            parts.append(_animal(x + 76 + j * (CARD_W + 6), top, name))
        if reserve.get("stack_cards"):
            words = "next: " + " ".join(reserve["stack_cards"][:3])
            parts.append(
                svg.text(x + 76 + 4 * (CARD_W + 6), top + 30, words, font_size=9, fill=svg.MUTED)
            )
    return parts


def _supply_svg(view: Mapping[str, Any], x: float, y: float) -> list[str]:
    fragments = FRAGMENT_SUPPLY - sum(s["fragments"] for s in view["spirits"])
    parts = [svg.text(x, y, "supply", font_weight="bold")]
    for k, (value, count) in enumerate(zip((2, 3, 4), view["fire_supply"], strict=True)):
        parts.append(_fire(x + k * 56, y + 8, value, 20))
        parts.append(svg.text(x + 24 + k * 56, y + 24, f"×{count}", font_size=11))
    parts.append(_animal(x + 170, y - 4, "FireVaran", 70, 34))
    parts.append(svg.text(x + 246, y + 18, f"×{view['varans']}", font_size=11))
    parts.append(_fragment(x + 290, y + 14))
    parts.append(svg.text(x + 302, y + 18, f"×{fragments}", font_size=11))
    return parts


def _fragment(x: float, y: float, size: float = 8) -> str:
    points = [(x, y - size), (x + size, y), (x, y + size), (x - size, y)]
    return svg.polygon(points, fill="#7fd3e6", stroke="#2b6f80", title="Fragment")


def _forest_svg(forest: list[list[str | None]], x: float, y: float) -> list[str]:
    ids = _forest_ids(forest)
    full = {c for cells, _ in LINE_BONUSES if all(ids[i] >= 0 for i in cells) for c in cells}
    parts = []
    for r in range(FOREST_ROWS):
        for c in range(FOREST_COLS):
            tree = forest[r][c]
            cx, cy = x + c * CELL, y + r * CELL
            parts.append(_forest_cell(cx, cy, r, c, (r * FOREST_COLS + c) in full))
            if tree is not None:
                parts.append(_forest_tree(cx + (CELL - 2) / 2, cy + (CELL - 2) / 2, tree))
    return parts


@functools.lru_cache(maxsize=1024)  # a replay draws the same cells at the same places
def _forest_cell(x: float, y: float, r: int, c: int, full: bool) -> str:
    """Cell (r, c) of a forest, green when its line is full (a bonus)."""
    fill = "#e9f4dd" if full else "#f6f1e4"
    cell = CELL - 2
    return svg.rect(x, y, cell, cell, rx=4, fill=fill, stroke="#c9bfa5", title=f"forest ({r}, {c})")


@functools.lru_cache(maxsize=1024)  # a replay draws the same trees at the same places
def _forest_tree(x: float, y: float, tree: str) -> str:
    index = TREE_INDEX[tree]
    bonus = {k: n for k, n in zip(ELEMENTS, TREE_BONUS[index], strict=True) if n}
    title = f"tree {tree} (cost {TREE_COST[index]} plant)" + "".join(
        f", +{n} {k}" for k, n in bonus.items()
    )
    if index == TREE_INDEX["11"]:
        title += ": its owner's two actions may be the same"
    colour = "#2e7d32" if index else "#6b4a2b"
    parts = [
        svg.circle(x, y - 3, 15, fill=colour, stroke="#fff"),
        svg.text(
            x,
            y + 1,
            "start" if not index else tree,
            text_anchor="middle",
            fill=svg.on(colour),
            font_size=9 if not index else 12,
            font_weight="bold",
        ),
    ]
    parts += _pips(bonus, x - 7 * len(bonus), y + 15, 5)
    return svg.group(parts, title=title)


def _progress_svg(info: Spirit, x: float, y: float) -> list[str]:
    parts = []
    for k, (name, value) in enumerate(
        zip(("trees", "fires", "flowers"), info.progress, strict=True)
    ):
        top = y + k * 16
        colour = ("#2e7d32", FIRE_COLOUR, ELEMENT_COLOURS["flower"])[k]
        parts.append(svg.text(x, top + 10, name, font_size=10))
        parts.append(svg.rect(x + 44, top + 2, 120, 9, rx=3, fill="#ece6d6"))
        parts.append(
            svg.rect(
                x + 44,
                top + 2,
                120 * min(value, GOAL) / GOAL,
                9,
                rx=3,
                fill=colour,
                title=f"{name} {value} of {GOAL}",
            )
        )
        parts.append(svg.text(x + 170, top + 10, f"{value}/{GOAL}", font_size=10))
    return parts


def _spirit_svg(view: Mapping[str, Any], seat: int, info: Spirit, x: float, y: float) -> list[str]:
    spirit = view["spirits"][seat]
    acting = seat == _to_move(view)
    parts = [
        *svg.seat_panel(x, y, SPIRIT_W, SPIRIT_H, seat, acting, seat == view["observer"]),
        svg.text(
            x + 150,
            y + 23,
            f"rock {spirit['rock']} · solitary {info.solitary}/{SOLITARY_LIMIT}",
            font_size=11,
        ),
    ]
    if seat == view["sacred"]:
        parts.append(_sacred_tree(x + SPIRIT_W - 20, y + 16, 0.9))
    parts += _forest_svg(spirit["forest"], x + 12, y + 36)
    parts += _progress_svg(info, x + 250, y + 36)
    totals = dict(zip(ELEMENTS, info.totals, strict=True))
    parts.append(svg.text(x + 250, y + 100, "elements", font_size=10))
    parts += _pips(totals, x + 300, y + 96, 8)
    parts += _tokens_svg(spirit, x + 250, y + 124)
    parts.append(
        svg.text(
            x + 12, y + 190, f"help line ({len(spirit['line'])})", font_size=10, font_weight="bold"
        )
    )
    parts += _line_svg(spirit["line"], x + 12, y + 196, SPIRIT_W - 24)
    parts += _deck_svg(spirit, x + 12, y + SPIRIT_H - 40)
    return parts


def _tokens_svg(spirit: Mapping[str, Any], x: float, y: float) -> list[str]:
    held = sum(spirit["fires"].values())
    parts = [
        _fragment(x + 8, y + 4),
        svg.text(x + 20, y + 8, f"fragments {spirit['fragments']}", font_size=10),
    ]
    parts.append(_fire(x + 100, y - 6, held, 18))
    parts.append(svg.text(x + 122, y + 8, "fires held", font_size=10))
    tiles = ", ".join(f"{k} {n}" for k, n in spirit["victory"].items())
    parts.append(svg.text(x, y + 30, f"victory tiles: {tiles}", font_size=10))
    return parts


def _line_svg(line: list[str], x: float, y: float, width: float) -> list[str]:
    if not line:
        return [
            svg.rect(x, y, CARD_W, CARD_H, rx=4, fill="none", stroke="#bbb", stroke_dasharray="4 3")
        ]
    step = min(CARD_W + 4, (width - CARD_W) / max(len(line) - 1, 1))
    return [_animal(x + k * step, y, name) for k, name in enumerate(line)]


def _deck_svg(spirit: Mapping[str, Any], x: float, y: float) -> list[str]:
    parts = [
        svg.card_back(x, y, 26, 32, spirit["deck_size"]),
        svg.text(x + 32, y + 13, "deck", font_size=10),
    ]
    known = spirit["deck_top"]
    shown = spirit.get("deck") or known
    if shown:
        label = "top first" if "deck" in spirit else "attracted on top"
        parts.append(svg.fitted_list(x + 32, y + 27, f"{label}: ", shown, DECK_LINE_W, 9))
    discard = spirit.get("discard")
    parts.append(svg.card_back(x + 300, y, 26, 32, spirit["discard_size"]))
    title = ", ".join(discard) if discard else "face down to the others"
    parts.append(svg.text(x + 332, y + 13, "discard", font_size=10))
    parts.append(
        svg.text(
            x + 332, y + 27, "yours to see" if discard else "hidden", font_size=9, fill=svg.MUTED
        )
    )
    parts.append(svg.rect(x + 300, y, 26, 32, fill="none", title=title))
    return parts


def _legend_entries() -> list[tuple[str, str]]:
    entries = [(svg.circle(8, 8, 7, fill=colour), name) for name, colour in ELEMENT_COLOURS.items()]
    entries += [
        (svg.circle(8, 8, 6, fill="#3b2a1a"), "solitary symbol"),
        (svg.circle(8, 8, 6, fill="#ffffff", stroke="#3b2a1a"), "gregarious symbol"),
        (svg.circle(8, 8, 7, fill=ELEMENT_COLOURS["sun"]), "cost in sun (corner)"),
        (_fire(0, 0, 3, 16), "fire tile (value)"),
        (_fragment(8, 8), "Fragment"),
        (svg.card_back(2, 0, 12, 16), "face-down cards"),
        (_sacred_tree(8, 8, 0.7), "Sacred Tree"),
        (svg.rect(0, 0, 16, 16, rx=3, fill="#e9f4dd", stroke="#c9bfa5"), "full line: bonus"),
        (svg.circle(8, 8, 8, fill=ROCK_COLOUR), "rock: P F A E bonus"),
    ]
    return entries


def svg_of_view(view: Mapping[str, Any]) -> str:
    """The SVG picture of ``view`` (an observation, or the referee's view)."""
    spirits = [_spirit(s) for s in view["spirits"]]
    players = len(spirits)
    parts = [
        svg.text(20, 28, f"Living Forest · {players} players", font_size=16, font_weight="bold"),
        svg.text(20, 46, _status(view, spirits).split(" · ", 1)[1], font_size=11),
    ]
    parts += _circle_svg(view, 170, 230, 118)
    parts += _reserve_svg(view, 360, 80)
    parts += _supply_svg(view, 360, 290)
    if view["phase"] == "actions" and view["actions"]:
        parts.append(
            svg.text(
                360, 340, f"actions taken this turn: {', '.join(view['actions'])}", font_size=11
            )
        )
    top = 370
    for seat, info in enumerate(spirits):
        row, col = divmod(seat, 2)
        parts += _spirit_svg(
            view, seat, info, 20 + col * (SPIRIT_W + 20), top + row * (SPIRIT_H + 14)
        )
    legend_y = top + -(-players // 2) * (SPIRIT_H + 14)
    entries = _legend_entries()
    parts.append(svg.legend(20, legend_y, entries, WIDTH - 40))
    height = legend_y + svg.legend_height(entries, WIDTH - 40) + 12
    return svg.document(WIDTH, height, parts, _status(view, spirits))


def render_svg(state: LivingForestState, player: int | None = None) -> str:
    """The position as an SVG picture, seen by ``player`` (None: the referee)."""
    return svg_of_view(picture_view(state, player))
