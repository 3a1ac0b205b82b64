"""Pictures of Boom Bokken positions: text and SVG, the referee's view or one seat's.

Both pictures are drawn from a *view*: ``state.observation(seat)`` for a seat
(its own hand, the other hands face down with their sizes), or for the
referee (``player=None``) the same with every hand and the deck face up. The
text shows the round and the announcement, the pile, the deck's size and the scores, then
one line per seat (here seat 2's view)::

    Boom Bokken 4p · round 1/3 · seat 2 named: lower than 2 (played by seat 3)
    pile 2 · deck 59 · scores [0, 0, 0, 2]
     seat 0       team 1          exploded  tokens 0   0 pts  3 cards  ■ ■ ■
     seat 1       team 0          in        tokens 0   0 pts  4 cards  ■ ■ ■ ■
    >seat 2 (you) team 1          in        tokens 0   0 pts  3 cards  1 1 8
     seat 3       team 0          safe 1st  tokens 1   2 pts  0 cards
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from forestgames import _svg as svg
from forestgames._text import game_over, wrap_line
from forestgames.boom_bokken.scoring import decide_winners, final_scores, round_coins
from forestgames.boom_bokken.state import BoomBokkenState
from forestgames.core import ConfigError, excerpt

__all__ = ["picture_view", "render_svg", "render_text"]

PLACES = ("1st", "2nd", "3rd") + tuple(f"{k}th" for k in range(4, 10))
TEAM_COLOURS: tuple[str, ...] = ("#6a3d9a", "#1b9e77", "#c0392b", "#b07d00")
"""Teams by id; cards use orange, blue and black, seats' teams these."""
CARD_COLOURS = MappingProxyType({"orange": "#ef8a17", "flash": "#1f6fc5", "timeout": "#1d1d1d"})
TOKEN_COLOUR = "#855629"
"""Bokken tokens (●): 4.5:1 or more on every seat box, an exploded seat's pink included."""
BOOM_COLOUR = "#b13428"
"""BOOM on an exploded seat's pink box (4.5:1; the team red #c0392b was 4.0:1)."""
CARD_W, CARD_H = 20, 28
SEAT_W, SEAT_H = 168, 92
TOKENS_SHOWN = 4  # more Bokken tokens than this are written ●×N
WIDTH, HEIGHT = 900, 640
TABLE = (450.0, 300.0, 230.0, 118.0)  # centre x, y and radii of the table
RING = (330.0, 212.0)  # radii of the ellipse the seats sit on


def picture_view(state: BoomBokkenState, player: int | None = None) -> dict[str, Any]:
    """What a picture may show: ``state.observation(player)``, or everything for None;
    ConfigError if ``state`` is not a Boom Bokken state."""
    if not isinstance(state, BoomBokkenState):
        raise ConfigError(f"a picture needs a Boom Bokken state, not {excerpt(state)}")
    if player is not None:
        view = state.observation(player)
    else:
        view = state.to_dict()
        del view["seed"]  # the deals to come are nobody's business, not even the picture's
        view.update(observer=None, hand_sizes=list(state.hand_sizes), deck_size=len(view["deck"]))
    return {**view, "scores": _scores(view, state.game.last_team_clay)}


def _hand_of(view: Mapping[str, Any], seat: int) -> list[str] | None:
    """``seat``'s cards if the view shows them, else None (face down)."""
    if "hands" in view:
        return list(view["hands"][seat])
    return list(view["hand"]) if seat == view["observer"] else None


def _scores(view: Mapping[str, Any], last_team_clay: bool) -> tuple[int, ...]:
    """The points so far, from what ``view`` shows (the game's coin rule is public)."""
    coins = [0] * len(view["hand_sizes"])
    for finished in view["history"]:
        order, teams = finished["safe_order"], finished["teams"]
        for seat, won in enumerate(round_coins(order, teams, last_team_clay=last_team_clay)):
            coins[seat] += won
    return final_scores(coins, view["tokens"])


def _place(view: Mapping[str, Any], seat: int) -> str:
    if seat in view["safe"]:
        return f"safe {PLACES[view['safe'].index(seat)]}"
    return "exploded" if seat in view["exploded"] else "in"


def _to_act(view: Mapping[str, Any]) -> int | None:
    """The seat the game waits for: the named player, else the leader; None once over."""
    if view["over"]:
        return None
    seat = view["target"] if view["target"] is not None else view["leader"]
    return int(seat)


def _status(view: Mapping[str, Any]) -> str:
    players = len(view["hand_sizes"])
    expert = " expert" if view["roles"] else ""
    head = f"Boom Bokken {players}p{expert} · round {view['round']}/3"
    if view["over"]:
        winners = decide_winners(view["scores"], view["tokens"])
        return f"{head} · {game_over(winners, players)}"
    if view["target"] is not None:
        return (
            f"{head} · seat {view['target']} named: {view['announce']} than "
            f"{view['pile'][-1]} (played by seat {view['last_player']}){_run(view)}"
        )
    return f"{head} · seat {view['leader']} leads"


def _run(view: Mapping[str, Any]) -> str:
    """The run of Flash cards on top, where the option ``distinct_flashers`` keeps it and
    more than one seat flashed."""
    flashers = view.get("flashers", ())
    if len(flashers) < 2:
        return ""
    return f", Flash run by seats {', '.join(map(str, flashers))}"


# --------------------------------------------------------------------------- text


def _seat_line(view: Mapping[str, Any], seat: int, scores: Sequence[int]) -> str:
    you = " (you)" if seat == view["observer"] else ""
    mover = ">" if seat == _to_act(view) else " "
    role = view["roles"][seat] if view["roles"] else ""
    hand = _hand_of(view, seat)
    size = view["hand_sizes"][seat]
    cards = " ".join(hand) if hand is not None else " ".join("■" * size)
    return (
        f"{mover}seat {seat}{you:<6} team {view['teams'][seat]}  {role:<7} "
        f"{_place(view, seat):<9} tokens {view['tokens'][seat]}  {scores[seat]:>2} pts  "
        f"{size} cards  {cards}"
    ).rstrip()


def text_of_view(view: Mapping[str, Any]) -> str:
    """The text picture of ``view`` (an observation, or the referee's view)."""
    scores = view["scores"]
    pile = " ".join(view["pile"]) or "-"
    table = f"pile {pile} · deck {view['deck_size']}"
    if view["aside"]:
        table += f" · {view['aside']} Temps Mort aside"
    table += f" · scores {list(scores)}"
    lines = [_status(view), table]
    lines += [_seat_line(view, seat, scores) for seat in range(len(view["hand_sizes"]))]
    if "deck" in view:
        lines.append(f"deck, top first: {' '.join(view['deck']) or '-'}")
    return "\n".join(piece for line in lines for piece in wrap_line(line))


def render_text(state: BoomBokkenState, player: int | None = None) -> str:
    """The position as text, seen by ``player`` (None: the referee, who sees everything)."""
    return text_of_view(picture_view(state, player))


# --------------------------------------------------------------------------- SVG


def _card_colour(name: str) -> str:
    if name == "T":
        return CARD_COLOURS["timeout"]
    return CARD_COLOURS["flash"] if name.startswith("F") else CARD_COLOURS["orange"]


def _card_label(name: str) -> str:
    return "T" if name == "T" else name.removeprefix("F")


def _card_title(name: str) -> str:
    if name == "T":
        return "Temps Mort"
    return f"Flash {name[1:]}" if name.startswith("F") else f"orange {name}"


def _face(x: float, y: float, name: str, w: float = CARD_W, h: float = CARD_H) -> str:
    """A face-up card: its colour, its value (T for a Temps Mort), a bolt on a Flash."""
    colour = _card_colour(name)
    parts = [
        svg.rect(x, y, w, h, rx=3, fill=colour, stroke="#ffffff", stroke_width=1.2),
        svg.text(
            x + w / 2,
            y + h / 2 + h * 0.18,
            _card_label(name),
            text_anchor="middle",
            fill=svg.on(colour),
            font_weight="bold",
            font_size=round(h * 0.5),
        ),
    ]
    if name.startswith("F"):
        k = h / 28
        bolt = [
            (x + 6 * k, y + 2 * k),
            (x + 2 * k, y + 8 * k),
            (x + 5 * k, y + 8 * k),
            (x + 3 * k, y + 13 * k),
            (x + 8 * k, y + 6 * k),
            (x + 5 * k, y + 6 * k),
        ]
        parts.append(svg.polygon(bolt, fill="#ffe14d"))
    return svg.group(parts, title=_card_title(name))


def _seat_centre(index: int, players: int) -> tuple[float, float]:
    """The centre of the ``index``-th seat clockwise from the bottom of the table."""
    angle = math.pi / 2 + 2 * math.pi * index / players
    cx, cy, _, _ = TABLE
    return cx + RING[0] * math.cos(angle), cy + RING[1] * math.sin(angle)


def _hand_svg(view: Mapping[str, Any], seat: int, x: float, y: float) -> list[str]:
    hand = _hand_of(view, seat)
    size = view["hand_sizes"][seat]
    room = SEAT_W - 16
    step = min(CARD_W + 2, (room - CARD_W) / max(size - 1, 1))
    if hand is not None:
        return [_face(x + k * step, y, name) for k, name in enumerate(hand)]
    return [svg.card_back(x + k * step, y, CARD_W, CARD_H) for k in range(size)]


def _seat_svg(view: Mapping[str, Any], seat: int, centre: tuple[float, float]) -> list[str]:
    x, y = centre[0] - SEAT_W / 2, centre[1] - SEAT_H / 2
    team = view["teams"][seat]
    acting = seat == _to_act(view)
    place = _place(view, seat)
    fill = {"in": "#ffffff", "exploded": "#f6d5d0"}.get(place, "#e3f2e1")
    you = " (you)" if seat == view["observer"] else ""
    role = f" · {view['roles'][seat]}" if view["roles"] else ""
    scores = view["scores"]
    cards = view["hand_sizes"][seat]
    parts = [
        svg.rect(
            x,
            y,
            SEAT_W,
            SEAT_H,
            rx=8,
            fill=fill,
            stroke=svg.INK if acting else "#b9b09a",
            stroke_width=3 if acting else 1,
        ),
        svg.rect(
            x, y, 8, SEAT_H, rx=3, fill=TEAM_COLOURS[team % len(TEAM_COLOURS)], title=f"team {team}"
        ),
        svg.text(x + 16, y + 17, f"seat {seat}{you}", font_weight="bold"),
        svg.text(
            x + SEAT_W - 8, y + 17, f"{scores[seat]} pts", text_anchor="end", font_weight="bold"
        ),
        svg.text(x + 16, y + 31, f"team {team}{role}", font_size=10),
        svg.text(x + 16, y + 43, f"{place} · {cards} cards", font_size=10),
    ]
    if view["tokens"][seat]:
        tokens = svg.text(
            x + SEAT_W - 8,
            y + 31,
            _tokens(view["tokens"][seat]),
            text_anchor="end",
            fill=TOKEN_COLOUR,
            font_size=11,
        )
        parts.append(svg.group([tokens], title=f"{view['tokens'][seat]} Bokken tokens"))
    parts += _hand_svg(view, seat, x + 12, y + 48)
    if place == "exploded":
        parts.append(
            svg.text(
                x + SEAT_W - 8,
                y + SEAT_H - 5,
                "BOOM",
                text_anchor="end",
                fill=BOOM_COLOUR,
                font_weight="bold",
                font_size=11,
            )
        )
    return parts


def _tokens(count: int) -> str:
    """A seat's Bokken tokens: one ● each, or ●×N past :data:`TOKENS_SHOWN`."""
    return "●" * count if count <= TOKENS_SHOWN else f"●×{count}"


def _pile_svg(view: Mapping[str, Any]) -> list[str]:
    cx, cy, _, _ = TABLE
    pile = view["pile"]
    parts = [svg.text(cx - 40, cy - 52, "pile", text_anchor="middle", font_size=11, fill="#f4f0e6")]
    shown = pile[-4:]
    for k, name in enumerate(shown):
        offset = (k - len(shown) + 1) * 12
        parts.append(_face(cx - 62 + offset, cy - 42, name, 44, 62))
    if not pile:
        parts.append(
            svg.rect(
                cx - 62,
                cy - 42,
                44,
                62,
                rx=4,
                fill="none",
                stroke="#f4f0e6",
                stroke_dasharray="4 3",
            )
        )
    if len(pile) > 4:
        parts.append(
            svg.text(
                cx - 40,
                cy + 36,
                f"{len(pile)} cards",
                text_anchor="middle",
                font_size=10,
                fill="#f4f0e6",
            )
        )
    parts.append(svg.card_back(cx + 20, cy - 42, 44, 62, view["deck_size"]))
    parts.append(
        svg.text(cx + 42, cy - 52, "deck", text_anchor="middle", font_size=11, fill="#f4f0e6")
    )
    if view["aside"]:
        parts.append(
            svg.text(
                cx + 42,
                cy + 36,
                f"{view['aside']} T aside",
                text_anchor="middle",
                font_size=10,
                fill="#f4f0e6",
            )
        )
    return parts


def _announcement_svg(view: Mapping[str, Any], centres: Mapping[int, tuple[float, float]]) -> str:
    if view["target"] is None:
        cx, cy, _, _ = TABLE
        words = "game over" if view["over"] else f"seat {view['leader']} leads"
        return svg.text(
            cx,
            cy + 70,
            words,
            text_anchor="middle",
            fill="#ffffff",
            font_weight="bold",
            font_size=14,
        )
    tx, ty = centres[view["target"]]
    # From the table's rim toward the named seat, stopping at the edge of its box.
    cx, cy, rx, ry = TABLE
    dx, dy = tx - cx, ty - cy
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    rim = 0.8 / math.hypot(ux / rx, uy / ry)
    start = (cx + ux * rim, cy + uy * rim)
    edge = min(SEAT_W / 2 / max(abs(ux), 1e-9), SEAT_H / 2 / max(abs(uy), 1e-9)) + 6
    tip = (tx - ux * edge, ty - uy * edge)
    side = (-uy * 9, ux * 9)
    head = [
        tip,
        (tip[0] - 16 * ux + side[0], tip[1] - 16 * uy + side[1]),
        (tip[0] - 16 * ux - side[0], tip[1] - 16 * uy - side[1]),
    ]
    words = f"seat {view['target']}: {view['announce']} than {view['pile'][-1]}"
    return svg.group(
        [
            svg.line(*start, tip[0] - 10 * ux, tip[1] - 10 * uy, stroke="#ffd54a", stroke_width=5),
            svg.polygon(head, fill="#ffd54a"),
            svg.text(
                cx,
                cy + 70,
                words,
                text_anchor="middle",
                fill="#ffffff",
                font_weight="bold",
                font_size=14,
            ),
        ],
        title=f"seat {view['last_player']} named seat {view['target']}: {view['announce']}",
    )


def _legend_entries(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    teams = sorted(set(view["teams"]))
    entries = [
        (_face(2, 0, "5", 12, 16), "orange card"),
        (_face(2, 0, "F5", 12, 16), "Flash card"),
        (_face(2, 0, "T", 12, 16), "Temps Mort"),
        (svg.card_back(2, 0, 12, 16), "face-down card"),
        (
            svg.polygon(
                [(0, 5), (10, 5), (10, 1), (16, 8), (10, 15), (10, 11), (0, 11)],
                fill="#ffd54a",
                stroke="#a08000",
            ),
            "named player",
        ),
        (svg.text(1, 13, "●", fill=TOKEN_COLOUR, font_size=14), "Bokken token (2 pts)"),
        (svg.rect(0, 2, 16, 12, rx=3, fill="#e3f2e1", stroke="#b9b09a"), "safe"),
        (svg.rect(0, 2, 16, 12, rx=3, fill="#f6d5d0", stroke="#b9b09a"), "exploded"),
    ]
    entries += [
        (svg.rect(4, 0, 8, 16, rx=2, fill=TEAM_COLOURS[t % len(TEAM_COLOURS)]), f"team {t}")
        for t in teams
    ]
    return entries


def svg_of_view(view: Mapping[str, Any]) -> str:
    """The SVG picture of ``view`` (an observation, or the referee's view)."""
    players = len(view["hand_sizes"])
    bottom = view["observer"] if view["observer"] is not None else 0
    centres = {seat: _seat_centre((seat - bottom) % players, players) for seat in range(players)}
    cx, cy, rx, ry = TABLE
    parts = [
        svg.text(20, 30, f"Boom Bokken · {players} players", font_size=16, font_weight="bold"),
        svg.text(20, 48, _status(view).split(" · ", 1)[1], font_size=11),
        svg.element(
            "ellipse",
            {
                "cx": cx,
                "cy": cy,
                "rx": rx,
                "ry": ry,
                "fill": "#2f6b45",
                "stroke": "#6b4a2b",
                "stroke_width": 10,
            },
        ),
        *_pile_svg(view),
        _announcement_svg(view, centres),
    ]
    for seat in range(players):
        parts += _seat_svg(view, seat, centres[seat])
    entries = _legend_entries(view)
    legend_y = HEIGHT - 8
    parts.append(svg.legend(20, legend_y, entries, WIDTH - 40))
    height = legend_y + svg.legend_height(entries, WIDTH - 40) + 12
    return svg.document(WIDTH, height, parts, _status(view))


def render_svg(state: BoomBokkenState, player: int | None = None) -> str:
    """The position as an SVG picture, seen by ``player`` (None: the referee)."""
    return svg_of_view(picture_view(state, player))
