"""The replay page in a real browser: headless Chromium driven by Selenium and the system
chromedriver (Debian's ``chromium`` and ``chromium-driver``; nothing is downloaded).

Outside CI the test skips when no browser, driver or Selenium is installed; with
``CI=true`` any of them missing fails it, so CI cannot pass without running it.
"""

from __future__ import annotations

import os
import shutil
import struct
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import forestgames as fg

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1280,900", "--hide-scrollbars",
)  # fmt: skip


def _missing(what: str) -> None:
    """Skip outside CI; fail in CI, where the browser must be there."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{what} is required in CI (.ci/run installs chromium and chromium-driver)")
    pytest.skip(f"{what} is not installed")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium under the system chromedriver, with a fresh profile."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("selenium (pip install -e '.[browser]')")
    binary = next((path for name in BROWSERS if (path := shutil.which(name))), None)
    driver_path = shutil.which("chromedriver")
    if binary is None:
        _missing("chromium")
    if driver_path is None:
        _missing("chromedriver")
    profile = tempfile.mkdtemp(prefix="forestgames-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _pixels(png: bytes) -> list[bytes]:
    """The pixels of an 8-bit RGB or RGBA PNG (what Chromium writes), one bytes per pixel."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, chunks, header = 8, [], b""
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), f"unexpected PNG format {depth}/{colour}"
    step = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(b"".join(chunks)), width * step
    rows: list[bytearray] = []
    previous = bytearray(stride)
    for y in range(height):
        row = raw[y * (stride + 1) : (y + 1) * (stride + 1)]
        kind, line = row[0], bytearray(row[1:])
        _unfilter(kind, line, previous, step)
        rows.append(line)
        previous = line
    return [bytes(row[x : x + step]) for row in rows for x in range(0, stride, step)]


def _unfilter(kind: int, line: bytearray, previous: bytearray, step: int) -> None:
    for i in range(len(line)):
        left = line[i - step] if i >= step else 0
        up = previous[i]
        corner = previous[i - step] if i >= step else 0
        if kind == 1:
            line[i] = (line[i] + left) & 255
        elif kind == 2:
            line[i] = (line[i] + up) & 255
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 255
        elif kind == 4:
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            line[i] = (
                line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)
            ) & 255


def _not_blank(png: bytes) -> tuple[int, float]:
    """Distinct colours and the share of pixels unlike the commonest colour."""
    pixels = _pixels(png)
    counts: dict[bytes, int] = {}
    for pixel in pixels:
        counts[pixel] = counts.get(pixel, 0) + 1
    return len(counts), 1 - max(counts.values()) / len(pixels)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, fg.GameRecord]:
    """A saved replay page of a short Bosk game (every move changes the board)."""
    record = fg.play("bosk", ["greedy", "random"], seed=5)
    record = fg.GameRecord(record.game, record.options, record.seed, None, record.moves[:30])
    path = tmp_path_factory.mktemp("replay") / "bosk.html"
    path.write_text(fg.viewer.replay_html(record), encoding="utf-8")
    return path, record


def _board(driver: Any) -> tuple[str, str]:
    element = driver.find_element("id", "board-picture")
    return element.get_attribute("data-index"), element.get_attribute("innerHTML")


def test_replay_page_in_headless_chromium(browser: Any, page: tuple[Path, fg.GameRecord]) -> None:
    """The saved page draws a non-blank board; Next and the arrow keys step the board, the
    slider position and the highlighted move follow; nothing is fetched from the network."""
    from selenium.webdriver.common.keys import Keys

    path, record = page
    browser.get(path.resolve().as_uri())
    index, first = _board(browser)
    assert index == "0" and first.startswith("<svg")
    colours, share = _not_blank(browser.get_screenshot_as_png())
    assert colours > 30 and share > 0.05, f"blank screenshot: {colours} colours, {share:.3f}"
    start_shot = browser.get_screenshot_as_png()

    browser.find_element("id", "next").click()
    index, second = _board(browser)
    assert index == "1" and second != first
    assert browser.get_screenshot_as_png() != start_shot
    assert browser.find_element("id", "slider").get_attribute("value") == "1"
    current = browser.find_elements("css selector", "#moves li.current")
    assert len(current) == 1 and current[0].text.endswith(record.moves[0])

    browser.find_element("tag name", "body").send_keys(Keys.ARROW_RIGHT)
    index, third = _board(browser)
    assert index == "2" and third != second
    browser.find_element("tag name", "body").send_keys(Keys.ARROW_LEFT)
    assert _board(browser) == ("1", second)
    browser.find_element("tag name", "body").send_keys(Keys.END)
    assert _board(browser)[0] == str(len(record.moves))
    assert browser.find_element("id", "next").get_attribute("aria-disabled") == "true"

    resources = browser.execute_script("return performance.getEntriesByType('resource').length")
    assert resources == 0


def test_a_page_with_markup_in_its_text_still_runs(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game of one's own whose status line holds '<!--<script>' and '</script>': its page
    still runs (the board is drawn, End reaches the last move), no script of the text runs
    and the caption shows the text as it is."""
    from selenium.webdriver.common.keys import Keys

    from forestgames import core
    from tests.test_viewer import LoudBuzz

    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    core.register_game("loud_buzz", LoudBuzz.create)
    record = fg.play(LoudBuzz(2, target=6), ["random"], seed=1)
    path = tmp_path / "loud.html"
    path.write_text(fg.viewer.replay_html(record), encoding="utf-8")
    browser.get(path.resolve().as_uri())
    index, first = _board(browser)
    assert index == "0" and first.startswith("<svg")
    browser.find_element("tag name", "body").send_keys(Keys.END)
    assert _board(browser)[0] == str(len(record.moves))
    caption = browser.find_element("id", "caption").text
    assert caption.endswith(record.final_state().render())
    assert browser.execute_script("return document.scripts.length") == 2


def _active(driver: Any) -> str:
    """The focused element: its id, or for a move of the list 'move N' (N its position)."""
    return str(
        driver.execute_script(
            "var a = document.activeElement, list = document.getElementById('moves');"
            "return a.parentNode === list ? 'move ' + [].indexOf.call(list.children, a) : a.id"
        )
    )


def _press(driver: Any, *keys: str, shift: bool = False) -> None:
    """Type ``keys`` into the focused element, with Shift held if ``shift``."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    actions = ActionChains(driver)
    if shift:
        actions.key_down(Keys.SHIFT)
    actions.send_keys(*keys)
    if shift:
        actions.key_up(Keys.SHIFT)
    actions.perform()


def test_every_control_and_the_current_move_are_reached_and_worked_by_keyboard(
    browser: Any, page: tuple[Path, fg.GameRecord]
) -> None:
    """Tab reaches First, Previous, Next, Last, the slider and the current move (one tab stop
    for the list); Enter and Space work the buttons, a button that stops applying keeps the
    focus; on the focused move the arrows step and the focus follows; the slider's own
    arrows step once."""
    from selenium.webdriver.common.keys import Keys

    path, record = page
    browser.get(path.resolve().as_uri())
    order = []
    for _ in range(6):
        _press(browser, Keys.TAB)
        order.append(_active(browser))
    assert order == ["first", "prev", "next", "last", "slider", "move 0"]
    _press(browser, Keys.ARROW_DOWN)
    assert _board(browser)[0] == "1" and _active(browser) == "move 1"
    _press(browser, Keys.TAB)
    assert not _active(browser).startswith("move")  # the list is one tab stop
    _press(browser, Keys.TAB, shift=True)
    assert _active(browser) == "move 1"
    _press(browser, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_UP)
    assert _board(browser)[0] == "2" and _active(browser) == "move 2"
    selected = browser.find_elements("css selector", "#moves [aria-selected='true']")
    assert len(selected) == 1 and selected[0].text.endswith(record.moves[1])
    _press(browser, Keys.END)
    assert _active(browser) == f"move {len(record.moves)}"

    browser.execute_script("document.getElementById('first').click()")
    browser.execute_script("document.getElementById('next').focus()")
    _press(browser, Keys.ENTER, Keys.SPACE)
    assert _board(browser)[0] == "2"
    browser.execute_script("document.getElementById('last').focus()")
    _press(browser, Keys.ENTER)
    assert _board(browser)[0] == str(len(record.moves)) and _active(browser) == "last"
    assert browser.find_element("id", "next").get_attribute("aria-disabled") == "true"
    _press(browser, Keys.TAB, shift=True)
    assert _active(browser) == "next"

    browser.execute_script("document.getElementById('first').click()")
    browser.execute_script("document.getElementById('slider').focus()")
    _press(browser, Keys.ARROW_RIGHT)
    assert _board(browser)[0] == "1" and _active(browser) == "slider"
    _press(browser, Keys.ARROW_RIGHT)
    assert _board(browser)[0] == "2"


def test_the_page_leaves_the_browsers_own_keys_alone(
    browser: Any, page: tuple[Path, fg.GameRecord]
) -> None:
    """Outside the move list only the documented keys step: Alt/Ctrl/Meta with an arrow (Alt+Left
    is Back) and Up/Down (page scrolling) are neither taken nor prevented."""
    path, _ = page
    browser.get(path.resolve().as_uri())
    browser.execute_script("document.getElementById('next').click()")
    for key, modifier in [
        ("ArrowLeft", "altKey"),
        ("ArrowRight", "altKey"),
        ("ArrowRight", "ctrlKey"),
        ("End", "metaKey"),
        ("ArrowDown", ""),
        ("ArrowUp", ""),
    ]:
        prevented, index = browser.execute_script(
            "var init = {key: arguments[0], bubbles: true, cancelable: true};"
            "if (arguments[1]) { init[arguments[1]] = true; }"
            "var event = new KeyboardEvent('keydown', init); document.body.dispatchEvent(event);"
            "var board = document.getElementById('board-picture');"
            "return [event.defaultPrevented, board.dataset.index]",
            key,
            modifier,
        )
        assert (prevented, index) == (False, "1"), (key, modifier)


def test_the_page_names_its_parts_for_assistive_technology(
    browser: Any, page: tuple[Path, fg.GameRecord]
) -> None:
    """In Chromium's accessibility tree: the move list is a listbox named 'moves' whose one
    selected option is the current move, the caption is a polite live region, the picture an
    image named by its title; the slider's aria-valuetext says the move."""
    path, record = page
    browser.get(path.resolve().as_uri())
    browser.execute_script("for (var i = 0; i < 3; i++) document.getElementById('next').click()")
    browser.execute_cdp_cmd("Accessibility.enable", {})
    nodes = browser.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]

    def props(node: dict[str, Any]) -> dict[str, Any]:
        return {p["name"]: p["value"].get("value") for p in node.get("properties", [])}

    def named(role: str) -> list[tuple[str, dict[str, Any]]]:
        return [
            (node.get("name", {}).get("value", ""), props(node))
            for node in nodes
            if node.get("role", {}).get("value") == role
        ]

    assert [name for name, _ in named("listbox")] == ["moves"]
    options = named("option")
    assert len(options) == len(record.moves) + 1
    chosen = [name for name, p in options if p.get("selected")]
    assert len(chosen) == 1 and chosen[0].endswith(record.moves[2])
    slider = browser.find_element("id", "slider")  # the tree shows no aria-valuetext
    assert slider.get_attribute("aria-valuetext") == f"move 3 of {len(record.moves)}"
    assert any(p.get("live") == "polite" for _, p in named("paragraph"))
    assert [name for name, _ in named("image")] == [record.replay()[3].render().splitlines()[0]]


LAYOUT = """
var board = document.getElementById('board-picture').getBoundingClientRect();
var aside = document.querySelector('aside').getBoundingClientRect();
var list = document.getElementById('moves').getBoundingClientRect();
var current = document.querySelector('#moves li.current').getBoundingClientRect();
return {width: innerWidth, board: board.width, below: aside.top >= board.bottom,
        sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        scrolled: scrollY, shown: current.top >= list.top - 1 && current.bottom <= list.bottom + 1};
"""


@pytest.mark.parametrize(
    ("width", "height", "zoom"), [(360, 740, 1), (400, 800, 1), (640, 450, 2)]
)  # the last: a 1280 x 900 window at 200 % zoom
def test_a_narrow_or_zoomed_window_puts_the_board_above_the_controls(
    browser: Any, page: tuple[Path, fg.GameRecord], width: int, height: int, zoom: int
) -> None:
    """At 360-400 CSS pixels (or 200 % zoom) the board takes the page's width with the
    controls below it, nothing scrolls sideways, and stepping scrolls the move list to the
    current move but never the page away from the board."""
    path, record = page
    metrics = {"width": width, "height": height, "deviceScaleFactor": zoom, "mobile": False}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        browser.get(path.resolve().as_uri())
        layout = browser.execute_script(LAYOUT)
        assert layout["width"] == width and layout["board"] >= width - 40, layout
        assert layout["below"] and layout["sideways"] == 0, layout
        for steps in (20, len(record.moves)):
            browser.execute_script(
                "for (var i = 0; i < arguments[0]; i++) document.getElementById('next').click()",
                steps,
            )
            layout = browser.execute_script(LAYOUT)
            assert layout["scrolled"] == 0 and layout["shown"], (steps, layout)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_without_javascript_the_page_says_so(
    browser: Any, page: tuple[Path, fg.GameRecord]
) -> None:
    """With scripts off the note that the positions need JavaScript shows, and the buttons
    and slider (which would do nothing) and the score table (which they fill in) do not."""
    path, _ = page
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(path.resolve().as_uri())
        assert "JavaScript" in browser.find_element("id", "noscript").text
        assert not browser.find_element("id", "next").is_displayed()
        assert not browser.find_element("id", "slider").is_displayed()
        assert not browser.find_element("id", "scores").is_displayed()
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


def test_printing_shows_the_position_and_every_move_but_no_controls(
    browser: Any, page: tuple[Path, fg.GameRecord]
) -> None:
    """In print (an A4 page's 718 CSS pixels) the board takes the width, the buttons,
    slider and key hint are left out and the move list is not cut to its scroll box."""
    path, _ = page
    metrics = {"width": 718, "height": 1040, "deviceScaleFactor": 1, "mobile": False}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        browser.get(path.resolve().as_uri())
        printed = browser.execute_script(
            "var list = document.getElementById('moves');"
            "return {board: document.getElementById('board-picture').offsetWidth,"
            " cut: list.scrollHeight > list.clientHeight,"
            " shown: ['.controls', '#slider', '.keys'].filter(function (s) {"
            "   return getComputedStyle(document.querySelector(s)).display !== 'none'; })}"
        )
        assert printed == {"board": printed["board"], "cut": False, "shown": []}, printed
        assert printed["board"] >= 718 - 40
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


TEXT_BOXES = """
var host = document.createElement('div');
document.body.appendChild(host);
function box(el) {
  var r = el.getBoundingClientRect();
  return {l: r.left, t: r.top, r: r.right, b: r.bottom};
}
function inside(a, b, tol) {
  return a.l >= b.l - tol && a.r <= b.r + tol && a.t >= b.t - tol && a.b <= b.b + tol;
}
function meets(a, b, w, h) {
  return Math.min(a.r, b.r) - Math.max(a.l, b.l) > w
    && Math.min(a.b, b.b) - Math.max(a.t, b.t) > h;
}
function holds(b, p) { return p.x >= b.l && p.x <= b.r && p.y >= b.t && p.y <= b.b; }
function card(el) {  // the rect of a card's group: fans and piles stack alike cards
  var g = el.parentNode, r = g.tagName === 'g' ? g.querySelector(':scope > rect') : null;
  return r ? {g: g, b: box(r)} : null;
}
function alike(a, b) {
  return a && b && a.g !== b.g && Math.abs((a.b.r - a.b.l) - (b.b.r - b.b.l)) < 1
    && Math.abs((a.b.b - a.b.t) - (b.b.b - b.b.t)) < 1;
}
function covers(shape, b, svg) {  // does a piece drawn later hide part of the text?
  if (shape.tagName === 'rect') return shape.getAttribute('fill') !== 'none';
  var inv = shape.getScreenCTM().inverse(), hits = 0;
  for (var i = 0; i < 5; i++) {
    for (var j = 0; j < 3; j++) {
      var q = svg.createSVGPoint();
      q.x = b.l + 1.5 + (b.r - b.l - 3) * i / 4;
      q.y = b.t + 2 + (b.b - b.t - 4) * j / 2;
      if (shape.isPointInFill(q.matrixTransform(inv))) hits++;
    }
  }
  return hits >= 2;
}
function home(svg, t, p, shapes, sb, order) {  // the shape or box the text is written in
  var own = [].filter.call(t.parentNode.children, function (s) {
    return t.parentNode !== svg && s !== t && shapes.indexOf(s) >= 0 && holds(box(s), p);
  });
  if (own.length) return own[own.length - 1];
  var best = null, area = Infinity;
  shapes.forEach(function (s, k) {
    var a = (sb[k].r - sb[k].l) * (sb[k].b - sb[k].t);
    if (s.tagName === 'rect' && order.get(s) < order.get(t) && holds(sb[k], p) && a < area) {
      best = s;
      area = a;
    }
  });
  return best;
}
return arguments[0].map(function (source) {
  host.innerHTML = source;
  var svg = host.firstElementChild, root = box(svg), out = [], order = new Map();
  svg.querySelectorAll('*').forEach(function (e, k) { order.set(e, k); });
  var texts = [].filter.call(svg.querySelectorAll('text'), function (t) {
    return t.textContent.trim();
  });
  var shapes = [].slice.call(svg.querySelectorAll('rect,circle,ellipse,polygon,path'), 1);
  var sb = shapes.map(box), tb = texts.map(box);
  texts.forEach(function (t, i) {
    var b = tb[i], words = t.textContent, p = svg.createSVGPoint();
    p.x = t.x.baseVal[0].value;
    p.y = t.y.baseVal[0].value - 3;
    p = p.matrixTransform(t.getScreenCTM());
    var within = home(svg, t, p, shapes, sb, order);
    if (!inside(b, root, 1)) out.push(['leaves the picture', words]);
    if (within && !inside(b, box(within), 1)) out.push(['leaves its box', words]);
    for (var j = i + 1; j < texts.length; j++) {
      if (meets(b, tb[j], 1, 3) && !alike(card(t), card(texts[j]))) {
        out.push(['overlaps', words, texts[j].textContent]);
      }
    }
    shapes.forEach(function (s, k) {
      if (order.get(s) < order.get(t) || s.parentNode === t.parentNode) return;
      if (inside(b, sb[k], 0.5) || !meets(b, sb[k], 2, 2)) return;
      if (covers(s, b, svg) && !alike(card(t), card(s))) out.push(['hidden by a piece', words]);
    });
  });
  return out;
});
"""

LAYOUT_CASES = [
    ("bosk", 2, {}), ("bosk", 4, {}), ("bonsai", 1, {}), ("bonsai", 4, {}),
    ("living_forest", 2, {}), ("living_forest", 4, {}), ("boom_bokken", 4, {}),
    ("boom_bokken", 9, {}), ("boom_bokken", 6, {"expert": True}),
]  # fmt: skip
"""Seeded games of each game, at its smallest and largest table and with Expert mode."""


@pytest.mark.parametrize(("name", "players", "options"), LAYOUT_CASES)
def test_no_text_of_a_picture_leaves_its_box_or_hides_under_another(
    browser: Any, name: str, players: int, options: dict[str, Any]
) -> None:
    """Measured in Chromium, in nine positions of a seeded game, for the referee and the first
    and last seat: no text runs out of the picture or of the box, card or panel it is written
    in, overlaps another text or hides under a piece drawn later (cards fanned or piled on
    purpose aside)."""
    game = fg.make(name, num_players=players, **options)
    agents = ["greedy", "random"][:players] if name != "boom_bokken" else ["random"]
    states = fg.play(game, agents, seed=3).replay()
    picks = sorted({round(k * (len(states) - 1) / 8) for k in range(9)})
    pictures = [states[k].to_svg(view) for k in picks for view in (None, 0, players - 1)]
    browser.get("about:blank")
    found = browser.execute_script(TEXT_BOXES, pictures)
    faults = {(picks[k // 3], *fault) for k, faults in enumerate(found) for fault in faults}
    assert not faults, sorted(faults)[:10]
