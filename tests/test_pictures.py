"""Pictures of every game: SVG that parses as XML, text within 100 columns, one seat's view
that hidden information cannot change, the referee's view that shows it."""

from __future__ import annotations

import importlib
import importlib.util
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import forestgames as fg
from tests.strategies import random_game

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[1]
GAMES = [
    ("bosk", 2), ("bosk", 4), ("bonsai", 1), ("bonsai", 3), ("living_forest", 2),
    ("living_forest", 4), ("boom_bokken", 4), ("boom_bokken", 7),
]  # fmt: skip
HIDDEN = [case for case in GAMES if case[0] != "bosk"]


def sampled(name: str, players: int, seed: int = 0, count: int = 20) -> list[Any]:
    """About ``count`` states spread along a random game, the first and last included."""
    states = [state for state, _ in random_game(fg.make(name, num_players=players), seed)]
    return states[:: max(1, len(states) // count)] + [states[-1]]


def titles(svg: str) -> list[str]:
    """Every hover title in a picture (the accessible labels of its pieces)."""
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}title")]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_svg_parses_with_a_title_and_a_legend_for_every_view(name, players):
    """Every sampled position's SVG, for the referee and each seat, is XML with an <svg>
    root, a size, a title naming the game and a legend."""
    for state in sampled(name, players):
        for player in (None, *range(players)):
            root = ET.fromstring(state.to_svg(player))
            assert root.tag == f"{SVG}svg" and float(root.get("width")) > 100
            assert root.find(f"{SVG}title").text.startswith(state.render(player).split(" ")[0])
            assert any(t.text == "Legend" for t in root.iter(f"{SVG}text"))


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_text_lines_fit_in_100_columns(name, players):
    """render(player) never draws a line wider than 100 characters, for any view."""
    for state in sampled(name, players, count=40):
        for player in (None, *range(players)):
            widest = max(len(line) for line in state.render(player).splitlines())
            assert widest <= 100, f"{name} {players}p, view {player}: {widest} columns"


@pytest.mark.parametrize(("name", "players"), HIDDEN)
def test_a_seat_cannot_tell_determinized_states_apart_but_the_referee_can(name, players):
    """A seat's text and SVG are identical across determinize(seat, seed) of that seat; the
    referee's pictures, which show the hidden cards, differ for some seed."""
    referee_saw_a_change = False
    for state in sampled(name, players, seed=3, count=12):
        if state.is_terminal:
            continue
        for seat in range(players):
            text, svg = state.render(seat), state.to_svg(seat)
            for seed in (1, 2):
                other = state.determinize(seat, seed)
                assert other.render(seat) == text and other.to_svg(seat) == svg
                referee_saw_a_change |= (
                    other.render() != state.render() and other.to_svg() != state.to_svg()
                )
    assert referee_saw_a_change


def test_bosk_seat_views_differ_only_by_the_you_mark():
    """Bosk hides nothing: a seat's picture is the referee's with "(you)" at that seat."""
    state = sampled("bosk", 3)[5]
    for seat in range(3):
        assert state.render(seat).replace(" (you)", "") == state.render()
        assert state.to_svg(seat).replace(" (you)", "") == state.to_svg()


YOU = re.compile(r"seat (\d+) \(you\)")


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_only_the_viewing_seat_is_marked_you(name, players):
    """A seat's text and SVG mark that seat's own label "(you)", and no other; the
    referee's pictures, which are nobody's view, mark no seat."""
    for state in sampled(name, players, count=3):
        for player in (None, *range(players)):
            marked = [] if player is None else [str(player)]
            assert YOU.findall(state.render(player)) == marked
            assert YOU.findall(state.to_svg(player)) == marked


def test_repr_svg_and_to_svg_are_the_render_modules_pictures():
    """_repr_svg_ (notebooks) is the referee's SVG; to_svg and render hand over to the game's
    render.py (render_svg, render_text) with the same player."""
    for name, players in GAMES[::2]:
        state = sampled(name, players)[3]
        module = importlib.import_module(f"forestgames.{name}.render")
        assert state._repr_svg_() == state.to_svg() == module.render_svg(state)
        assert state.to_svg(1 % players) == module.render_svg(state, 1 % players)
        assert state.render(0) == module.render_text(state, 0)


def test_a_bad_seat_is_refused():
    """A seat outside the game is refused with the library's error, in text and SVG."""
    state = fg.make("boom_bokken").new_game(seed=1)
    with pytest.raises(fg.ForestGamesError, match="player 9 is not a seat of a 4-player game"):
        state.to_svg(9)
    with pytest.raises(fg.ForestGamesError, match="player -1 is not a seat of a 4-player game"):
        state.render(-1)


@pytest.mark.parametrize("name", ["bosk", "bonsai", "living_forest", "boom_bokken"])
def test_a_render_module_refuses_what_is_not_its_games_state(name):
    """render_text and render_svg of a game's render.py (docs/viewer.md) refuse None or
    another game's state with a ConfigError naming the game (AttributeError, KeyError)."""
    module = importlib.import_module(f"forestgames.{name}.render")
    other = fg.make("bosk" if name != "bosk" else "bonsai").new_game(seed=0)
    game_words = name.replace("_", " ").title()
    for junk in (None, other):
        for draw in (module.render_text, module.render_svg):
            with pytest.raises(fg.ConfigError, match=f"a picture needs a {game_words} state"):
                draw(junk)


# --------------------------------------------------------------------------- text widths


PIECES = {f"{SVG}circle", f"{SVG}polygon", f"{SVG}path"}
BUDGET_CASES = [*((name, players, {}) for name, players in GAMES), ("bosk", 3, {}),
    ("boom_bokken", 6, {"expert": True}), ("boom_bokken", 9, {}), ("bonsai", 4, {})]  # fmt: skip


def _budget(words: str, size: float, bold: bool) -> float:
    """The width budgeted for ``words``: 0.58 em a character (0.72 bold), 0.9 em a ● or ■."""
    wide = sum(ch in "●■MW@" for ch in words)
    return ((len(words) - wide) * (0.72 if bold else 0.58) + wide * 0.9) * size


def _budget_overflows(picture: str) -> list[str]:
    """Texts whose budgeted width (``_svg.text_width``: 0.58 em a character, 0.72 bold) runs
    out of the picture's width or, sideways, out of the box it is written in: the smallest
    rect drawn before it that holds its anchor, or a rect of its own group (a card)."""
    root = ET.fromstring(picture)
    width = float(root.get("width") or 0)
    found: list[str] = []
    rects: list[tuple[float, float, float, float]] = []

    def box(el: ET.Element) -> tuple[float, float, float, float]:
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        return x, y, x + float(el.get("width", 0)), y + float(el.get("height", 0))

    def holds(r: tuple[float, float, float, float], x: float, y: float) -> bool:
        return r[0] <= x <= r[2] and r[1] <= y <= r[3]

    def walk(node: ET.Element, size: float, moved: bool) -> None:
        size = float(node.get("font-size", size))
        moved = moved or node.get("transform") is not None
        own = [box(c) for c in node if c.tag == f"{SVG}rect"] if node is not root else []
        if any(c.tag in PIECES for c in node) and node is not root:
            moved = True  # a piece's label (a tree's value): the browser test measures those
        for child in node:
            if child.tag == f"{SVG}rect" and not moved:
                rects.append(box(child))
            elif child.tag == f"{SVG}text" and not moved and (child.text or "").strip():
                check(child, float(child.get("font-size", size)), own)
            elif child.tag == f"{SVG}g":
                walk(child, size, moved)

    def check(el: ET.Element, size: float, own: list[tuple[float, float, float, float]]) -> None:
        words, x, y = el.text or "", float(el.get("x", 0)), float(el.get("y", 0))
        wide = _budget(words, size, el.get("font-weight") == "bold")
        left = x - {"middle": wide / 2, "end": wide}.get(el.get("text-anchor", ""), 0)
        mine = [r for r in own if holds(r, x, y - 3)]
        held = mine or [r for r in rects if holds(r, x, y - 3)]
        inner = min(held, key=lambda r: (r[2] - r[0]) * (r[3] - r[1]), default=(0, 0, width, 0))
        if left < max(inner[0], 0) - 1 or left + wide > min(inner[2], width) + 1:
            found.append(f"{words!r} at x {left:.0f}-{left + wide:.0f} in {inner}")

    walk(root, 12.0, False)
    return found


@pytest.mark.parametrize(("name", "players", "options"), BUDGET_CASES)
def test_svg_text_fits_its_box_at_the_budgeted_width(name, players, options):
    """At 0.58 em a character (0.72 em bold, 0.9 em a ●; DejaVu Sans, the usual fallback,
    takes 0.5-0.55 em on these words) no text of any view runs sideways out of the picture
    or out of the panel, card or box it is written in. Texts grouped with a circle, polygon
    or path (pieces' labels, Living Forest's card names) are left to the browser test."""
    game = fg.make(name, num_players=players, **options)
    states = [state for state, _ in random_game(game, 1)]
    for state in states[:: max(1, len(states) // 25)] + [states[-1]]:
        for player in (None, *range(players)):
            assert _budget_overflows(state.to_svg(player)) == [], (name, players, player)


# --------------------------------------------------------------------------- how a game ended


ENDINGS = [
    ("bosk", 2, 3, (0,), "seat 0 wins"),
    ("bosk", 2, 31, (0,), "seat 0 wins"),  # 51 all: the earlier seat in round 8's order
    ("bonsai", 2, 3, (0,), "seat 0 wins"),
    ("bonsai", 2, 18, (0,), "seat 0 wins"),  # 75 all: the seat farthest from the first
    ("bonsai", 1, 0, (), "lost"),
    ("living_forest", 2, 3, (1,), "seat 1 wins"),
    ("living_forest", 2, 1, (0, 1), "seats 0 and 1 tie"),
    ("living_forest", 3, 237, (0, 1, 2), "seats 0, 1 and 2 tie"),
    ("boom_bokken", 4, 3, (2,), "seat 2 wins"),
    ("boom_bokken", 4, 27, (0, 3), "seats 0 and 3 tie"),
    ("boom_bokken", 5, 37, (0, 1, 2), "seats 0, 1 and 2 tie"),
]  # fmt: skip
"""(game, players, seed of a random game, its winners, the words for them). Bosk and
Bonsai break ties, so their games with equal top scores still name one seat."""


@pytest.mark.parametrize(("name", "players", "seed", "winners", "words"), ENDINGS)
def test_a_finished_game_says_who_won_in_the_same_words_in_text_and_svg(
    name, players, seed, winners, words
):
    """Every view of a finished game ends its text's first line with 'over · seat N wins',
    'over · seats 0 and 1 tie' (or 'seats 0, 1 and 2 tie'), or a solo 'over · lost', saying
    'over' once; its SVG has that first line as its title and those words as a line that
    fits its box."""
    state = list(random_game(fg.make(name, num_players=players), seed))[-1][0]
    assert state.winners == winners, "the seed no longer ends this way: pick another"
    for player in (None, *range(players)):
        head = state.render(player).splitlines()[0]
        assert head.endswith(f" · over · {words}") and head.count("over") == 1, head
        picture = state.to_svg(player)
        root = ET.fromstring(picture)
        assert root.find(f"{SVG}title").text == head
        assert any((t.text or "").endswith(f"over · {words}") for t in root.iter(f"{SVG}text"))
        assert _budget_overflows(picture) == [], (name, seed, player)


def test_outcome_words_one_winner_a_tie_nobody_and_a_solo_game():
    """The shared words: one winner, a tie of two or more (in seat order), nobody, solo."""
    from forestgames._text import game_over, outcome

    assert outcome((2,), 4) == "seat 2 wins" and game_over((2,), 4) == "over · seat 2 wins"
    assert outcome((3, 0), 4) == "seats 0 and 3 tie"
    assert outcome((0, 1, 3), 4) == "seats 0, 1 and 3 tie"
    assert outcome((), 3) == "no winner"
    assert (outcome((0,), 1), outcome((), 1)) == ("won", "lost")


# --------------------------------------------------------------------------- contrast


SHAPES = {f"{SVG}{tag}" for tag in ("rect", "circle", "ellipse", "polygon", "path")}


def _luminance(colour: str) -> float:
    """WCAG 2's relative luminance of ``#rgb`` or ``#rrggbb`` (written here, not taken from
    _svg, so that the test does not check the library with itself)."""
    channels = [int(_full(colour)[k : k + 2], 16) / 255 for k in (1, 3, 5)]
    r, g, b = (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _ratio(first: str, second: str) -> float:
    light, dark = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _inside(shape: ET.Element, x: float, y: float) -> bool:
    """Whether (x, y) is in ``shape``: a rect, circle, ellipse or polygon exactly, a path by
    the bounding box of its coordinates."""
    get = lambda key: float(shape.get(key, 0))  # noqa: E731
    tag = shape.tag.removeprefix(SVG)
    if tag == "rect":
        left, top = get("x"), get("y")
        return left <= x <= left + get("width") and top <= y <= top + get("height")
    if tag == "circle":
        return (x - get("cx")) ** 2 + (y - get("cy")) ** 2 <= get("r") ** 2
    if tag == "ellipse":
        return ((x - get("cx")) / get("rx")) ** 2 + ((y - get("cy")) / get("ry")) ** 2 <= 1
    if tag == "path":
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", shape.get("d", ""))]
        xs, ys = numbers[0::2], numbers[1::2]
        return min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys)
    corners = [tuple(map(float, p.split(","))) for p in shape.get("points", "").split()]
    inside = False  # even-odd ray casting
    for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _blend(colour: str, under: str, opacity: float) -> str:
    mixed = [
        opacity * int(colour[k : k + 2], 16) + (1 - opacity) * int(under[k : k + 2], 16)
        for k in (1, 3, 5)
    ]
    return "#" + "".join(f"{round(v):02x}" for v in mixed)


def _low_contrast(picture: str, least: float = 4.5) -> list[str]:
    """Texts under ``least``:1 (WCAG AA for small text) against the colour behind them.

    "Behind" is the colour at the text's centre: its anchor moved by half its budgeted
    width (:func:`_budget`) and 0.35 em above its baseline; there the fills of the shapes
    drawn before the text (in document order, a legend swatch moved by its translate) that
    hold the point are painted in order over white, each at its opacity. A text with a halo
    (``paint-order="stroke"``) is read against its halo's colour instead."""
    root = ET.fromstring(picture)
    fills: list[tuple[ET.Element, float, float, str, float]] = []  # shape, dx, dy, fill, opacity
    found: list[str] = []

    def behind(x: float, y: float) -> str:
        colour = "#ffffff"
        for shape, dx, dy, fill, opacity in fills:
            if _inside(shape, x - dx, y - dy):
                colour = _blend(fill, colour, opacity)
        return colour

    def walk(node: ET.Element, fill: str, size: float, dx: float, dy: float) -> None:
        fill, size = node.get("fill", fill), float(node.get("font-size", size))
        moved = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", node.get("transform", "(0,0)"))
        assert moved or node.get("transform") is None, node.get("transform")
        dx, dy = (dx + float(moved[1]), dy + float(moved[2])) if moved else (dx, dy)
        for child in node:
            colour = child.get("fill", fill)
            if child.tag in SHAPES and colour != "none":
                fills.append((child, dx, dy, _full(colour), float(child.get("opacity", 1))))
            elif child.tag == f"{SVG}text" and (child.text or "").strip():
                words, at = child.text or "", float(child.get("font-size", size))
                wide = _budget(words, at, child.get("font-weight") == "bold")
                x = float(child.get("x", 0)) + dx
                x += {"middle": 0.0, "end": -wide / 2}.get(child.get("text-anchor", ""), wide / 2)
                y = float(child.get("y", 0)) + dy - 0.35 * at
                haloed = child.get("paint-order", "").startswith("stroke")
                under = _full(child.get("stroke", "")) if haloed else behind(x, y)
                ratio = _ratio(_full(colour), under)
                if ratio < least:
                    found.append(f"{words!r} {colour} on {under}: {ratio:.2f}")
            elif child.tag == f"{SVG}g":
                walk(child, fill, size, dx, dy)

    walk(root, "#000000", 12.0, 0.0, 0.0)
    return found


def _full(colour: str) -> str:
    """``#rrggbb`` for ``#rgb`` or ``#rrggbb``."""
    digits = colour.removeprefix("#")
    return "#" + ("".join(ch * 2 for ch in digits) if len(digits) == 3 else digits)


@pytest.mark.parametrize(("name", "players", "options"), BUDGET_CASES)
def test_every_svg_text_reaches_4_5_to_1_against_what_is_behind_it(name, players, options):
    """Each text of the referee's and seat 0's pictures reaches 4.5:1 on the fill behind it."""
    game = fg.make(name, num_players=players, **options)
    for seed in (1, 2):
        states = [state for state, _ in random_game(game, seed)]
        for state in states[:: max(1, len(states) // 10)] + [states[-1]]:
            for player in (None, 0):
                low = _low_contrast(state.to_svg(player))
                assert low == [], (name, players, seed, player, low[:4])


def test_a_label_on_a_fill_is_white_or_ink_whichever_contrasts_more():
    """_svg.on(fill) is whichever of white and ink contrasts more; _svg.contrast is WCAG's."""
    from forestgames import _svg

    assert _svg.contrast("#000000", "#ffffff") == pytest.approx(21)
    assert _svg.contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)
    for fill in ("#ffffff", "#ef8a17", "#e8a800", *_svg.SEAT_COLOURS, _svg.INK, "#3b4a6b"):
        best = max((_svg.WHITE, _svg.INK), key=lambda label: _ratio(label, fill))
        assert _svg.on(fill) == best, fill


# --------------------------------------------------------------------------- Bosk


def _bosk_trees(state: Any) -> list[str]:
    """The hover title each tree of ``state`` should have."""
    owner, value = state.tree_owner, state.tree_value
    return [
        f"seat {owner[i, j]}'s tree of value {value[i, j]} at intersection ({i}, {j})"
        for i, j in zip(*(owner >= 0).nonzero(), strict=True)
    ]


def _bosk_stacks(state: Any) -> list[str]:
    """The hover title (up to its stack list) each leaf stack of ``state`` should have."""
    titles = []
    for r, c in zip(*(state.leaf_height > 0).nonzero(), strict=True):
        leaves = state.stack((r, c))
        titles.append(f"({r}, {c}): {len(leaves)} leaves, seat {leaves[-1]} on top")
    return titles


def test_bosk_svg_draws_every_tree_leaf_stack_squirrel_and_the_wind():
    """Each tree (owner, value, intersection), each leaf stack (top seat, height) and each
    squirrel has its piece, and the wind arrow names the direction."""
    states = [s for s, _ in random_game(fg.make("bosk", num_players=2), 4)]
    state = next(
        s for s in states if s.round >= 5 and any(q is not None for q in s.squirrel_squares)
    )
    labels = titles(state.to_svg())
    assert sorted(t for t in labels if "'s tree" in t) == sorted(_bosk_trees(state))
    stacks = [t.split(" (bottom")[0] for t in labels if "leaves, seat" in t]
    assert sorted(stacks) == sorted(_bosk_stacks(state))
    squirrels = [s for s in state.squirrel_squares if s is not None]
    assert sum("squirrel" in t and t.startswith("(") for t in labels) == len(squirrels)
    assert f"leaves blow {state.wind}" in labels


def test_bosk_text_shows_tiles_and_trees_left_and_coordinates():
    """Each seat's line lists its unspent tiles and its trees (to plant in spring); the board
    labels square rows and columns and intersection rows and columns."""
    states = [s for s, _ in random_game(fg.make("bosk", num_players=2), 4)]
    spring, autumn = states[5], states[60]
    assert "to plant" in spring.render(0) and "tiles S 2 3 4 5 6 7 8" in spring.render(0)
    line = next(x for x in autumn.render(0).splitlines() if x[1:].startswith("seat 1"))
    tiles = " ".join("S" if t == 1 else str(t) for t in autumn.tiles_left(1))
    trees = " ".join(map(str, autumn.trees_left(1)))
    assert f"tiles {tiles}" in line and f"trees {trees}" in line
    board = autumn.render().splitlines()
    assert any(x.strip().startswith("(6)") for x in board) and board[-1].split()[-1] == "(6)"


# --------------------------------------------------------------------------- Bonsai


def test_bonsai_svg_draws_each_tree_tile_pot_market_and_held_goals():
    """Every tile of every tree has a hexagon with its kind and (q, r), each seat has the
    15-cell pot (the bud as wood), every market card and every held goal is drawn."""
    state = sampled("bonsai", 3, seed=2)[-1]
    labels = titles(state.to_svg())
    tiles = [f"{kind} {qr}" for p in range(3) for qr, kind in state.tree(p).tiles.items()]
    hexes = [t for t in labels if re.fullmatch(r"(wood|leaf|flower|fruit|pot) \(-?\d+, -?\d+\)", t)]
    assert sorted(h for h in hexes if not h.startswith("pot")) == sorted(tiles)
    assert sum(h.startswith("pot") for h in hexes) == 3 * 14
    assert sum(t.startswith("held by seat") for t in labels) == len(state.goal_owners)
    assert all(name in labels for name in state.market_cards if name is not None)


def test_bonsai_text_tree_has_coordinates():
    """The text tree labels each row r and each tile's q: every tile can be named."""
    state = sampled("bonsai", 2, seed=2)[-1]
    text = state.render(0)
    for (q, r), kind in state.tree(0).tiles.items():
        if (q, r) == (0, 0):
            continue
        row = next(x for x in text.splitlines() if x.strip().startswith(f"r{r} "))
        assert f"{'#L*o'['wood leaf flower fruit'.split().index(kind)]}{q}" in row.split()


# --------------------------------------------------------------------------- Living Forest


def _planted(forest: Any) -> int:
    """Trees in a Living Forest forest (3 rows of tree ids or None), the start tree included."""
    return sum(tree is not None for row in forest for tree in row)


def test_living_forest_svg_draws_circle_fires_reserve_and_forests():
    """The circle's 12 rocks (with their bonus), each Spirit on its rock, every fire in the
    centre, every face-up reserve card (with its elements) and every planted tree."""
    state = sampled("living_forest", 3, seed=1)[-2]
    labels = titles(state.to_svg(0))
    assert sum(t.startswith("rock ") for t in labels) == 12
    for seat in range(3):
        assert f"seat {seat}'s Spirit" in labels
    assert sum(t.startswith("fire of value") for t in labels) >= len(state.centre)
    cards = [name for level in (1, 2, 3) for name in state.reserve_row(level)]
    assert all(f"{name}: {fg.living_forest.CARDS[name].describe()}" in labels for name in cards)
    trees = [t for t in labels if t.startswith("tree ") and "plant" in t]
    assert len(trees) == sum(_planted(state.forest(p)) for p in range(3))


def test_living_forest_text_shows_each_card_cost_and_elements():
    """Reserve and Help Line cards are written with their cost and elements (CARDS.short)."""
    state = sampled("living_forest", 2, seed=1)[4]
    text = state.render(1)
    for level in (1, 2, 3):
        for name in state.reserve_row(level):
            assert fg.living_forest.CARDS[name].short() in text
    for seat in range(2):
        for name in state.help_line(seat):
            assert fg.living_forest.CARDS[name].short() in text


def test_living_forest_cards_table():
    """CARDS holds every card of the game with the rules' own cost, elements and symbol."""
    cards = fg.living_forest.CARDS
    assert len(cards) == len(fg.living_forest.CARD_NAMES) == 66
    wolf = cards["Wolf"]
    assert (wolf.level, wolf.cost, wolf.elements, wolf.symbol) == ("I", 5, (0, 0, 0, 2, 0), 0)
    assert cards["Bear"].solitary and cards["Bear"].short() == "Bear Wa1 Pl2 *"
    assert cards["Wolf"].describe() == "5 sun: wind 2"
    with pytest.raises(TypeError, match="does not support item assignment"):
        cards["Wolf"] = wolf  # type: ignore[index]


# --------------------------------------------------------------------------- Boom Bokken


def _boom_state() -> Any:
    game = fg.make("boom_bokken", num_players=5)
    rng = random.Random(2)
    for state, _ in random_game(game, 2):
        if state.named_player is not None and rng.random() < 0.2:
            return state
    raise AssertionError("no named player in the game")


def test_boom_bokken_seat_sees_its_hand_and_only_backs_of_the_others():
    """A seat's SVG shows its own cards face up and every other hand face down with its size
    (card backs); the referee's shows every hand face up; the named player has the arrow."""
    state = _boom_state()
    seat = (state.named_player + 1) % 5
    backs = state.to_svg(seat).count('fill="#3b4a6b"')
    others = sum(state.hand_sizes) - state.hand_sizes[seat]
    assert backs - state.to_svg().count('fill="#3b4a6b"') == others  # deck and legend in both
    assert f"seat {state.last_player} named seat {state.named_player}" in " ".join(
        titles(state.to_svg(seat))
    )
    text = state.render(seat)
    line = next(x for x in text.splitlines() if x[1:].startswith(f"seat {seat}"))
    assert line.endswith(" ".join(state.hand(seat)))
    other = (seat + 1) % 5
    hidden = next(x for x in text.splitlines() if x[1:].startswith(f"seat {other} "))
    assert hidden.endswith(" ".join("■" * state.hand_sizes[other]))
    assert " ".join(state.hand(other)) in state.render()


# --------------------------------------------------------------------------- docs pictures


def test_docs_pictures_are_what_the_script_draws():
    """docs/img/<game>.svg are exactly what docs/make_pictures.py draws today."""
    spec = importlib.util.spec_from_file_location(
        "make_pictures", ROOT / "docs" / "make_pictures.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    for path, picture in script.PICTURES.items():
        assert path.read_text(encoding="utf-8") == picture(), "run docs/make_pictures.py"


def test_living_forest_writes_an_empty_deck_as_a_dash():
    """A Spirit whose deck is empty (all drawn, discard not yet shuffled) shows "-" after
    its deck label, in its own view and the referee's, as an empty help line does (the
    labels ended with nothing after them)."""
    game = fg.make("living_forest")
    state = next(
        s for s, _ in random_game(game, 0) if not s.observation(0)["spirits"][0]["deck_rest"]
    )
    assert "    rest of deck (unordered): -" in state.render(0).splitlines()
    assert "    deck, top first: -" in state.render().splitlines()
