"""Replay pages (fg.viewer) and the play/replay commands that use the pictures."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import attrs
import pytest

import forestgames as fg
from forestgames import _svg
from forestgames.boom_bokken import TimeOut
from forestgames.cli import PAGE_LINES, HumanAgent, move_pages
from forestgames.sim import play_game
from tests.test_fake_game import BuzzGame

ROOT = Path(__file__).resolve().parents[1]
# The children print pictures ('·', '■') that the tests read back as UTF-8, whatever the
# machine's locale (a test about another console encoding sets its own).
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m forestgames.cli ARGS`` with ``stdin`` fed in; output captured."""
    return subprocess.run(
        [sys.executable, "-m", "forestgames.cli", *args],
        input=stdin,
        capture_output=True,
        encoding="utf-8",
        env=ENV,
        cwd=ROOT,
        timeout=120,
    )


def short_record(name: str, players: int, moves: int = 24, seed: int = 2) -> fg.GameRecord:
    """The first ``moves`` moves of a random-agent game."""
    record = fg.play(fg.make(name, num_players=players), ["random"], seed=seed)
    return fg.GameRecord(record.game, record.options, record.seed, None, record.moves[:moves])


def page_data(html: str) -> dict[str, Any]:
    """The positions embedded in a replay page."""
    found = re.search(r'<script type="application/json" id="positions">(.*?)</script>', html, re.S)
    assert found, "no embedded positions"
    return json.loads(found.group(1))  # type: ignore[no-any-return]


CASES = [("bosk", 2), ("bonsai", 2), ("living_forest", 3), ("boom_bokken", 5)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_replay_page_is_self_contained(name, players):
    """The page loads nothing: no external script, style sheet, image, font or URL (the only
    http text is the SVG namespace)."""
    html = fg.viewer.replay_html(short_record(name, players))
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    for outside in ("<link", " src=", " href=", "@import", "url(", "@font-face", "fetch("):
        assert outside not in html, outside
    assert set(re.findall(r"https?://[^\"'\\ ]+", html)) == {"http://www.w3.org/2000/svg"}


@pytest.mark.parametrize(("name", "players"), CASES)
@pytest.mark.parametrize("seat", [None, 1])
def test_every_position_is_that_states_picture_with_its_scores(name, players, seat):
    """Position k of the page is to_svg(seat) of state k of the record (the start first),
    with that state's scores and a caption naming the move that led there."""
    record = short_record(name, players)
    data = page_data(fg.viewer.replay_html(record, seat))
    states = record.replay()
    assert len(data["positions"]) == len(states) == len(record.moves) + 1
    for k, (position, state) in enumerate(zip(data["positions"], states, strict=True)):
        picture = "\n".join(data["lines"][i] for i in position["picture"])
        assert picture == state.to_svg(seat)
        assert position["scores"] == list(state.scores)
        assert position["caption"].startswith("start" if k == 0 else f"after move {k}: ")


def test_page_has_controls_move_list_and_scores():
    """Slider over every position, First/Previous/Next/Last, arrow keys, one list item per
    position (the moves escaped), one score row per seat, the seat's view named."""
    record = short_record("boom_bokken", 4)
    html = fg.viewer.replay_html(record, 2)
    assert f'max="{len(record.moves)}"' in html
    for button in ("first", "prev", "next", "last"):
        assert f'<button id="{button}"' in html
    assert "ArrowRight" in html and "ArrowLeft" in html
    items = re.findall(r"<li>.*?</li>", html)
    assert len(items) == len(record.moves) + 1
    assert all(move.replace(">", "&gt;") in html for move in record.moves)
    assert html.count('class="score"') == 4 and "seat 2 (you)" in html
    assert "seat 2&#x27;s view" in html or "seat 2's view" in html


def test_a_seats_page_leaves_the_seed_out():
    """The seed deals every hidden card, so only the referee's page names it: with it, a
    seat could rebuild the others' hands."""
    game = fg.make("boom_bokken", num_players=4)
    record = fg.play(game, ["random"], seed=987654321)
    assert "987654321" in fg.viewer.replay_html(record)
    for seat in range(4):
        assert "987654321" not in fg.viewer.replay_html(record, seat)


def test_replay_with_a_seat_leaves_the_seed_out(tmp_path):
    """`forestgames replay --seat K` prints only seat K's view: no seed."""
    record = fg.play(fg.make("bosk", num_players=2), ["random"], seed=987654321)
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    referee = run_cli("replay", str(path), "--all")
    seat = run_cli("replay", str(path), "--all", "--seat", "1")
    assert referee.returncode == seat.returncode == 0
    assert "987654321" in referee.stdout and "987654321" not in seat.stdout


def test_a_bad_seat_is_refused():
    """replay_html(record, seat) refuses a seat outside the game with ConfigError."""
    with pytest.raises(fg.ConfigError, match="player 2 is not a seat of a 2-player game"):
        fg.viewer.replay_html(short_record("bosk", 2, moves=3), 2)


@pytest.mark.parametrize("junk", [None, "game.json", {"game": "bosk"}, 3])
def test_a_record_that_is_not_one_is_refused(junk):
    """replay_html and positions take a GameRecord: anything else is a ConfigError."""
    with pytest.raises(fg.ConfigError, match="a replay is made of a GameRecord"):
        fg.viewer.replay_html(junk)
    with pytest.raises(fg.ConfigError, match="GameRecord"):
        fg.viewer.positions(junk, 0)


@attrs.frozen(slots=False)
class LoudBuzz(BuzzGame, name="loud_buzz"):
    """Buzz whose status line and picture carry markup, as a game of one's own may."""

    def _render_text(self, state: Any, player: int | None) -> str:
        return f"<!--<script> seat {state.turn} </script> & ]]> \" ' to add"

    def _render_svg(self, state: Any, player: int | None) -> str:
        words = self._render_text(state, player)
        return _svg.document(320, 40, [_svg.text(10, 24, words)], words)


@pytest.fixture
def loud_buzz(monkeypatch: pytest.MonkeyPatch) -> fg.GameRecord:
    """A record of LoudBuzz, registered for the test only."""
    from forestgames import core

    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    core.register_game("loud_buzz", LoudBuzz.create)
    return fg.play(LoudBuzz(2, target=6), ["random"], seed=1)


def test_markup_in_a_games_text_stays_inside_the_pages_json(loud_buzz):
    """A game's status line holding '<!--<script>' and '</script>' cannot end the embedded
    JSON's script element early, nor hide its end: the JSON holds no '</' and no '<!', and
    reads back to the very captions."""
    html = fg.viewer.replay_html(loud_buzz)
    found = re.search(r'<script type="application/json" id="positions">(.*?)</script>', html, re.S)
    assert found
    assert "</" not in found.group(1) and "<!" not in found.group(1)
    states = loud_buzz.replay()
    captions = [position["caption"] for position in page_data(html)["positions"]]
    assert captions[0] == f"start · {states[0].render()}"
    assert captions[-1].endswith(f": {loud_buzz.moves[-1]} · {states[-1].render()}")


@attrs.frozen(slots=False)
class QuietBuzz(BuzzGame, name="quiet_buzz"):
    """Buzz whose seats' text views are empty (a game of one's own may draw nothing)."""

    def _render_text(self, state: Any, player: int | None) -> str:
        return "" if player is not None else f"seat {state.turn} to add"

    def _render_svg(self, state: Any, player: int | None) -> str:
        return _svg.document(100, 40, [], "Quiet")


class PlainBuzz:
    """A game on the protocol alone (no GameBase): Buzz's rules, states with no to_svg."""

    name = "plain_buzz"

    def __init__(self, **options: Any) -> None:
        self.inner = BuzzGame.create(**options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def new_game(self, seed: int, first_player: int | None = None) -> PlainState:
        return PlainState(self.inner.new_game(seed=seed, first_player=first_player), self)


class PlainState:
    """A PlainBuzz position: everything of a Buzz state but to_svg."""

    def __init__(self, inner: Any, game: PlainBuzz) -> None:
        self.inner, self.game = inner, game

    def __getattr__(self, name: str) -> Any:
        if name == "to_svg":
            raise AttributeError(name)
        return getattr(self.inner, name)

    def apply(self, move: Any) -> PlainState:
        return PlainState(self.inner.apply(move), self.game)


@pytest.fixture
def own_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """QuietBuzz and PlainBuzz registered, for the test only."""
    from forestgames import core

    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    core.register_game("quiet_buzz", QuietBuzz.create)
    core.register_game("plain_buzz", PlainBuzz)


def test_a_view_that_draws_no_text_gets_bare_captions(own_games):
    """A seat's view whose text is empty makes a page (it raised IndexError): each caption
    is where the position is, with no status after it."""
    record = fg.play(fg.make("quiet_buzz"), ["random"], seed=1)
    captions = [position["caption"] for position in fg.viewer.positions(record, 1)]
    assert captions[0] == "start" and captions[1] == f"after move 1: {record.moves[0]}"
    assert "seat" in fg.viewer.positions(record)[0]["caption"]


def test_a_game_whose_states_draw_no_svg_is_refused(own_games):
    """replay_html of a protocol game whose states have no to_svg is a ConfigError naming
    the game (it was AttributeError)."""
    record = fg.play(fg.make("plain_buzz"), ["random"], seed=1)
    assert record.replay()[-1].is_terminal
    for view in (None, 0):
        with pytest.raises(fg.ConfigError, match="plain_buzz draws no pictures"):
            fg.viewer.replay_html(record, view)


# --------------------------------------------------------------------------- command line


def test_replay_command_writes_the_page(tmp_path):
    """`forestgames replay game.json --html out.html --seat N` writes that seat's page."""
    record = short_record("living_forest", 2, moves=10)
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    out = tmp_path / "page.html"
    done = run_cli("replay", str(path), "--html", str(out), "--seat", "1")
    assert done.returncode == 0, done.stderr
    assert f"written to {out}" in done.stdout
    assert page_data(out.read_text(encoding="utf-8"))["positions"][0]["picture"]
    assert fg.viewer.replay_html(record, 1) == out.read_text(encoding="utf-8")
    text = run_cli("replay", str(path), "--all", "--seat", "1")
    assert text.returncode == 0 and text.stdout.count("Living Forest 2p") == 11


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "is not a game record"),
        (b"not json at all", "game record is not JSON"),
        (b'{"game": "bosk"}', "game record lacks"),
    ],
)
def test_replay_of_a_file_that_is_no_record_says_so_in_one_line(tmp_path, content, says):
    """A picture, a text file or a wrong JSON object: status 2, one error line naming the
    file, no traceback."""
    path = tmp_path / "picture.png"
    path.write_bytes(content)
    done = run_cli("replay", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and str(path) in lines[0]


def test_play_shows_the_human_seat_view_unless_revealed():
    """`play` draws the other hands face down; `--reveal` draws the referee's view."""
    args = ("play", "boom_bokken", "--players", "4", "--seed", "3", "--agents", "random")
    hidden = run_cli(*args, stdin="quit\n")
    assert "■" in hidden.stdout and "you see what seat 0 sees" in hidden.stdout
    shown = run_cli(*args, "--reveal", stdin="quit\n")
    assert "■" not in shown.stdout and "deck, top first" in shown.stdout
    assert all(len(line) <= 100 for line in hidden.stdout.splitlines())


def _sigint_as_at_a_terminal() -> None:
    """In the child: SIGINT's default action, so that Python turns it into
    KeyboardInterrupt even when the tests run where SIGINT is ignored (a shell's
    background job inherits SIG_IGN, and Python then leaves SIGINT ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_saves_the_record(tmp_path):
    """Ctrl-C (SIGINT) at the prompt stops the game with status 130 and saves the moves
    played so far (seat 0 moves first with seed 1)."""
    save = tmp_path / "stopped.json"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "forestgames.cli",
            "play",
            "bosk",
            "--seat",
            "1",
            "--seed",
            "1",
            "--agents",
            "random",
            "--save",
            str(save),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        cwd=ROOT,
        preexec_fn=_sigint_as_at_a_terminal,
    )
    assert process.stdout is not None and process.stdin is not None
    seen, deadline = b"", time.monotonic() + 60
    while b"seat 1> " not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 1)
        if ready:
            seen += os.read(process.stdout.fileno(), 65536)
    assert b"seat 1> " in seen, "no prompt"
    process.send_signal(signal.SIGINT)
    process.wait(timeout=60)  # stdin open: only the signal may end the game
    out, err = process.stdout.read(), process.stderr.read()
    for stream in (process.stdin, process.stdout, process.stderr):
        stream.close()
    assert process.returncode == 130, err.decode(errors="replace")
    assert b"stopped (interrupted)" in seen + out
    record = fg.GameRecord.from_json(save.read_text(encoding="utf-8"))
    assert len(record.moves) == seen.count(b"seat 0 plays") >= 1 and record.replay()


# --------------------------------------------------------------------------- the human seat


def test_move_list_pages_number_every_move_once_within_the_screen():
    """? pages: every legal move's number appears exactly once, each page fits in 20 lines
    of at most 100 columns (the 484 spring moves of 4-player Bosk take four pages)."""
    state = fg.make("bosk", num_players=4).new_game(seed=1)
    moves = state.legal_moves()
    pages = move_pages(moves)
    assert len(pages) == 4
    numbers = [int(n) for page in pages for n in re.findall(r"(?<![\d,])(\d+) \d+,\d+", page)]
    assert sorted(numbers) == list(range(1, len(moves) + 1))
    for page in pages:
        lines = page.splitlines()
        assert len(lines) <= PAGE_LINES and max(map(len, lines)) <= 100


def test_question_mark_turns_the_pages():
    """? shows page 1, ? again page 2, ?4 page 4, ?9 says there is no such page."""
    written: list[str] = []
    typed = iter(["?", "?", "?4", "?9", "1"])
    human = HumanAgent(lambda prompt: next(typed), written.append)
    state = fg.make("bosk", num_players=4).new_game(seed=1)
    assert human.choose(state) == state.legal_moves()[0]
    notes = [w for w in written if w.startswith(("page", "no page"))]
    assert [n.split(" of ")[0] for n in notes[:3]] == ["page 1/4", "page 2/4", "page 4/4"]
    assert notes[3] == "no page 9: the move list has pages 1 to 4"


def _scripted_boom(every_reaction: bool) -> tuple[int, list[Any]]:
    """A 5-player game with the human at seat 0: its length and the moves of each ask."""
    asked: list[Any] = []

    class Counting(HumanAgent):
        """Records each time the game stops to ask; passes, or plays the first move."""

        def _ask(self, state: Any, seat: int, may_pass: bool) -> Any:
            if may_pass:
                asked.append(state.legal_moves(seat))
                return None
            return state.legal_moves(seat)[0]

    human = Counting(lambda prompt: "", lambda text: None, every_reaction=every_reaction)
    game = fg.make("boom_bokken", num_players=5)
    record, _, _ = play_game(game, [human, "random"], seed=4)
    return len(record.moves), asked


def test_boom_bokken_asks_about_a_reaction_only_when_there_is_one_worth_asking():
    """Out of turn, the human is asked only with a Flash or Gardien move to make (a lone
    Temps Mort does not stop the game), unless every_reaction is set."""
    moves, asked = _scripted_boom(every_reaction=False)
    assert asked and all(any(not isinstance(m, TimeOut) for m in legal) for legal in asked)
    _, every = _scripted_boom(every_reaction=True)
    assert len(every) > len(asked)
    assert len(asked) < moves / 2


def test_example_saves_the_replay_page_of_an_mcts_game(tmp_path):
    """examples/replay_page.py plays MCTS against greedy and writes the page and the record;
    the page is replay_html of that record."""
    out = tmp_path / "mcts.html"
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "replay_page.py"), "--game", "boom_bokken",
         "--players", "4", "--iterations", "6", "--seat", "2", "--out", str(out)],
        capture_output=True, encoding="utf-8", env=ENV, cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"replay page written to {out}" in done.stdout
    record = fg.GameRecord.from_json(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert record.final_state().is_terminal
    assert out.read_text(encoding="utf-8") == fg.viewer.replay_html(record, 2)


def _contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two #rrggbb (or #rgb) colours."""

    def luminance(colour: str) -> float:
        digits = colour.lstrip("#")
        if len(digits) == 3:
            digits = "".join(c * 2 for c in digits)
        channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_pages_text_colours_meet_wcag_aa():
    """The page's ink and muted text (move numbers, captions, key hints) are at least 4.5:1
    on every background they sit on (paper, white list, hovered and current move), the
    buttons' edges at least 3:1 on the paper."""
    style = fg.viewer.PAGE_STYLE
    colours = dict(re.findall(r"--(\w+): (#[0-9a-f]{3,6})", style))
    for text in ("ink", "muted"):
        for background in ("paper", "panel", "mark"):
            ratio = _contrast(colours[text], colours[background])
            assert ratio >= 4.5, (text, background, round(ratio, 2))
        assert _contrast(colours[text], "#ffffff") >= 4.5, text
    border = re.search(r"\.controls button \{[^}]*border: 1px solid ([^;]+);", style)
    assert border, "no button border"
    edge = colours.get(border.group(1).removeprefix("var(--").rstrip(")"), border.group(1))
    assert _contrast(edge, colours["paper"]) >= 3


def test_the_page_says_it_needs_javascript_when_it_is_off():
    """A <noscript> note says the positions need JavaScript, and hides the controls that
    would do nothing without it and the score table (the scripts fill it in)."""
    html = fg.viewer.replay_html(short_record("bosk", 2, moves=3))
    notes = re.findall(r"<noscript>(.*?)</noscript>", html, re.S)
    assert any("JavaScript" in note for note in notes)
    assert any(".controls" in note and "display: none" in note for note in notes)
    assert any("#scores" in note and "display: none" in note for note in notes)
