"""Replay pages: a whole game as one self-contained HTML page, a picture per position.

    import forestgames as fg
    record = fg.play("bosk", ["mcts:100", "greedy"], seed=3)
    html = fg.viewer.replay_html(record)            # the referee's view: everything
    html = fg.viewer.replay_html(record, player=1)  # only what seat 1 sees
    Path("game.html").write_text(html, encoding="utf-8")

The page needs nothing from the network (no script, style sheet or font is
fetched): the SVG of every position is inside it. It has a slider, First /
Previous / Next / Last buttons, the arrow keys (Home and End too), the move list
with the current move highlighted (click a move to go there, or Tab to it and step
with the arrows) and each seat's score at the current position; all of it works
from the keyboard and is named for screen readers. From the command line:
``forestgames replay game.json --html game.html [--seat N]``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from typing import Any

from forestgames.core import ConfigError, GameRecord, _hidden_from, check_seat, excerpt

__all__ = ["positions", "replay_html"]

PAGE_STYLE = """
:root { --ink: #222; --muted: #5f5f5f; --paper: #fbf8ef; --panel: #f1ece0; --mark: #ffe08a;
        --edge: #8a8170; }  /* muted text >= 4.5:1 on every background, edges >= 3:1 */
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Helvetica, Arial,
       sans-serif; color: var(--ink); background: var(--paper); }
header { padding: 10px 18px; border-bottom: 1px solid #d8d0bc; }
h1 { font-size: 18px; margin: 0; }
header p { margin: 2px 0 0; color: var(--muted); }
main { display: flex; gap: 16px; padding: 12px 18px; align-items: flex-start; }
#board { flex: 1 1 auto; min-width: 0; }
#board svg { max-width: 100%; height: auto; display: block; }
#caption { margin: 6px 0 0; color: var(--muted); }
aside { flex: 0 0 300px; position: sticky; top: 8px; }
.controls { display: flex; gap: 4px; align-items: center; }
.controls button { font: inherit; padding: 4px 9px; border: 1px solid var(--edge);
                   border-radius: 5px; background: #fff; cursor: pointer; }
.controls button[aria-disabled="true"] { opacity: .45; cursor: default; }
#where { margin-left: auto; font-variant-numeric: tabular-nums; white-space: nowrap; }
#slider { width: 100%; margin: 10px 0; }
table { border-collapse: collapse; width: 100%; margin-bottom: 10px; }
td, th { padding: 2px 6px; border-bottom: 1px solid #e2dccb; text-align: left; }
td.score { text-align: right; font-variant-numeric: tabular-nums; font-weight: bold; }
.dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%;
       margin-right: 6px; }
#moves { list-style: none; margin: 0; padding: 0; max-height: 60vh; overflow-y: auto;
         position: relative;
         border: 1px solid #d8d0bc; border-radius: 6px; background: #fff;
         font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
#moves li { padding: 1px 8px; cursor: pointer; white-space: nowrap; }
#moves li:hover { background: var(--panel); }
#moves li.current { background: var(--mark); font-weight: bold; }
#moves li:focus-visible { outline: 2px solid var(--ink); outline-offset: -2px; }
#moves li .n { display: inline-block; width: 3.2em; color: var(--muted); }
.keys { color: var(--muted); font-size: 12px; margin-top: 6px; }
@media (max-width: 720px) {  /* phones, and 200 % zoom: the board on top, full width */
  main { flex-direction: column; align-items: stretch; }
  aside { position: static; flex: none; }
  #moves { max-height: 45vh; }
}
@media print {  /* the position on paper: no controls, the whole move list (after
                   the narrow window's rules, which a page's width may also meet) */
  main { display: block; }
  aside { position: static; }
  .controls, #slider, .keys { display: none; }
  #moves { max-height: none; overflow: visible; }
}
"""

PAGE_SCRIPT = r"""
(function () {
  var data = JSON.parse(document.getElementById("positions").textContent);
  var board = document.getElementById("board-picture");
  var caption = document.getElementById("caption");
  var slider = document.getElementById("slider");
  var where = document.getElementById("where");
  var list = document.getElementById("moves");
  var items = list.querySelectorAll("li");
  var scoreCells = document.querySelectorAll("#scores td.score");
  var buttons = ["first", "prev", "next", "last"].map(function (id) {
    return document.getElementById(id);
  });
  var last = data.positions.length - 1;
  var index = -1;
  // The move list is a listbox: one tab stop (the current move), which the keys move.
  list.setAttribute("role", "listbox");
  for (var i = 0; i < items.length; i++) {
    items[i].setAttribute("role", "option");
    items[i].setAttribute("aria-selected", "false");
    items[i].tabIndex = -1;
  }
  function mark(item, on) {
    item.classList.toggle("current", on);
    item.setAttribute("aria-selected", String(on));
    item.tabIndex = on ? 0 : -1;
  }
  function reveal(item) {  // scroll the list alone (scrollIntoView scrolls the page too)
    var top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < list.scrollTop) { list.scrollTop = top; }
    else if (bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = bottom - list.clientHeight;
    }
  }
  function show(k) {
    k = Math.max(0, Math.min(last, k));
    if (k === index) { return; }
    var focused = document.activeElement && document.activeElement.parentNode === list;
    if (items[index]) { mark(items[index], false); }
    index = k;
    var position = data.positions[k];
    board.innerHTML = position.picture.map(function (i) { return data.lines[i]; }).join("\n");
    board.setAttribute("data-index", String(k));
    caption.textContent = position.caption;
    slider.value = String(k);
    slider.setAttribute("aria-valuetext", k === 0 ? "start" : "move " + k + " of " + last);
    where.textContent = k + " / " + last;
    if (items[k]) {
      mark(items[k], true);
      reveal(items[k]);
      if (focused) { items[k].focus({preventScroll: true}); }
    }
    for (var s = 0; s < scoreCells.length; s++) {
      scoreCells[s].textContent = String(position.scores[s]);
    }
    // aria-disabled, not disabled: a button that stops applying keeps the keyboard focus.
    for (var b = 0; b < buttons.length; b++) {
      buttons[b].setAttribute("aria-disabled", String(b < 2 ? k === 0 : k === last));
    }
  }
  buttons[0].onclick = function () { show(0); };
  buttons[1].onclick = function () { show(index - 1); };
  buttons[2].onclick = function () { show(index + 1); };
  buttons[3].onclick = function () { show(last); };
  slider.oninput = function () { show(parseInt(slider.value, 10)); };
  for (var j = 0; j < items.length; j++) {
    items[j].onclick = (function (k) { return function () { show(k); }; })(j);
  }
  document.addEventListener("keydown", function (event) {
    // The slider steps itself; keys with Alt, Ctrl or Meta are the browser's (Alt+Left: back).
    if (event.target === slider || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var inList = event.target.parentNode === list;
    var moves = inList ? {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1}
                       : {ArrowRight: 1, ArrowLeft: -1};  // up and down scroll the page
    if (event.key in moves) { show(index + moves[event.key]); }
    else if (event.key === "Home") { show(0); }
    else if (event.key === "End") { show(last); }
    else if (inList && (event.key === "Enter" || event.key === " ")) {
      show(Array.prototype.indexOf.call(items, event.target));
    }
    else { return; }
    event.preventDefault();
  });
  show(0);
})();
"""


def _seat_colours() -> tuple[str, ...]:
    from forestgames._svg import SEAT_COLOURS

    return SEAT_COLOURS


def positions(record: GameRecord, player: int | None = None) -> list[dict[str, Any]]:
    """Every position of ``record`` as seen by ``player`` (None: the referee):
    ``{"svg", "caption", "scores"}``, the start first. A seat's positions leave out those
    after a move it did not see (another seat's move the game keeps private, as in Living
    Forest's simultaneous Guardian phase), and number the moves it saw."""
    return _shown(record, player)[0]


def _shown(record: GameRecord, player: int | None) -> tuple[list[dict[str, Any]], list[str]]:
    """The positions ``player`` sees (see ``positions``) and the moves it saw, in order."""
    if not isinstance(record, GameRecord):
        raise ConfigError(
            f"a replay is made of a GameRecord (fg.GameRecord, or fg.play's result), "
            f"not {excerpt(record)}"
        )
    states = record.replay()
    game = states[0].game
    if player is not None:
        player = check_seat(game.num_players, player, "player")
    if not callable(getattr(states[0], "to_svg", None)):  # the protocol leaves it optional
        raise ConfigError(f"{record.game} draws no pictures (its states have no to_svg)")
    shown, seen = [], []
    for move, state in _seen_steps(states, record.moves, player):
        if move is not None:
            seen.append(move)
        text = _picture(state.render(player), "render", player, record.game)
        status = next(iter(text.splitlines()), "")  # a view may draw nothing
        where = "start" if move is None else f"after move {len(seen)}: {move}"
        view = state if player is None else getattr(game, "_seat_view", _same)(state, player)
        shown.append(
            {
                "svg": _picture(state.to_svg(player), "to_svg", player, record.game),
                "caption": f"{where} · {status}" if status else where,
                "scores": [int(x) for x in view.scores],
            }
        )
    return shown, seen


def _picture(picture: Any, call: str, player: int | None, game: str) -> str:
    """``picture``, what ``state.<call>(player)`` drew, if it is text; ConfigError naming
    the game and the call otherwise (a game of one's own drawing None)."""
    if not isinstance(picture, str):
        seat = "" if player is None else player
        raise ConfigError(
            f"{game}: {call}({seat}) drew {excerpt(picture)}, not text, so no replay page"
        )
    return picture


def _same(state: Any, player: int) -> Any:
    return state


def _seen_steps(
    states: Sequence[Any], moves: Sequence[str], player: int | None
) -> list[tuple[str | None, Any]]:
    """``(None, start)``, then ``(move, the position after it)`` for each of ``moves`` (the
    notation of the moves between ``states``) that ``player`` saw: all of them for the
    referee (None), all but another seat's private moves for a seat."""
    steps: list[tuple[str | None, Any]] = [(None, states[0])]
    game = states[0].game
    for k, move in enumerate(moves):
        if player is None or not _hidden_from(game, states[k], move, player):
            steps.append((move, states[k + 1]))
    return steps


def _script_json(data: Any) -> str:
    """JSON safe inside a <script> element: no ``</`` to end it early, and no ``<!``,
    whose ``<!--`` followed by ``<script`` would make the parser skip its ``</script>``
    (the page then runs nothing). Both ``<`` only occur inside JSON strings."""
    text = json.dumps(data, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!", "\\u003c!")


def _move_items(moves: Sequence[str]) -> str:
    items = ['<li><span class="n"></span>start</li>']
    items += [
        f'<li><span class="n">{k}.</span>{escape(move)}</li>' for k, move in enumerate(moves, 1)
    ]
    return "\n".join(items)


def _score_rows(num_players: int, player: int | None) -> str:
    colours = _seat_colours()
    rows = []
    for seat in range(num_players):
        you = " (you)" if seat == player else ""
        colour = colours[seat % len(colours)]
        rows.append(
            f'<tr><td><span class="dot" style="background:{colour}"></span>seat {seat}{you}</td>'
            f'<td class="score">0</td></tr>'
        )
    return "\n".join(rows)


def replay_html(record: GameRecord, player: int | None = None) -> str:
    """The replay page of ``record`` (one self-contained HTML document) as seen by
    ``player``: None for the referee's view (everything), a seat for only what it sees."""
    return _page(record, player)[0]


def _page(record: GameRecord, player: int | None) -> tuple[str, int]:
    """:func:`replay_html`'s page, and how many moves it shows (a seat's: those it saw)."""
    shown, seen = _shown(record, player)
    # Pictures of one game share most of their lines (one SVG element a line): each
    # distinct line is stored once and a picture is the list of its lines' numbers.
    lines: dict[str, int] = {}
    for position in shown:
        svg = position.pop("svg")
        position["picture"] = [lines.setdefault(line, len(lines)) for line in svg.split("\n")]
    game = record.make_game()
    view = "the referee's view (every card shown)" if player is None else f"seat {player}'s view"
    players = game.num_players
    title = f"{record.game} · {players} player{'s' if players > 1 else ''}"
    if player is None:  # a seat's page leaves the seed out: it deals every hidden card
        title += f" · seed {record.seed}"
    data = {"lines": list(lines), "positions": shown}
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="forestgames">
<title>{escape(title)}</title>
<style>{PAGE_STYLE}</style>
<noscript><style>.controls, #slider, .keys, #scores {{ display: none; }}</style></noscript>
</head>
<body>
<header>
<h1>{escape(title)}</h1>
<p>{len(seen)} moves · {escape(view)} · options {escape(json.dumps(record.options))}</p>
</header>
<main>
<section id="board">
<noscript><p id="noscript">This replay shows its positions with JavaScript, which is off:
only the list of moves is here.</p></noscript>
<div id="board-picture" data-index="0"></div>
<p id="caption" aria-live="polite"></p>
</section>
<aside>
<div class="controls">
<button id="first" type="button" title="first position (Home)">First</button>
<button id="prev" type="button" title="previous move (left arrow)">Previous</button>
<button id="next" type="button" title="next move (right arrow)">Next</button>
<button id="last" type="button" title="last position (End)">Last</button>
<span id="where"></span>
</div>
<input id="slider" type="range" min="0" max="{len(shown) - 1}" value="0" aria-label="position">
<table id="scores"><thead><tr><th>seat</th><th>score</th></tr></thead>
<tbody>
{_score_rows(game.num_players, player)}
</tbody></table>
<ol id="moves" aria-label="moves">
{_move_items(seen)}
</ol>
<p class="keys">Keys: ← → step, Home / End jump; in the move list ↑ ↓ too.
Click a move to go there.</p>
</aside>
</main>
<script type="application/json" id="positions">{_script_json(data)}</script>
<script>{PAGE_SCRIPT}</script>
</body>
</html>
"""
    return page, len(seen)
