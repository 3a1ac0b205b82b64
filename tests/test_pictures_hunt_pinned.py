"""Pictures and replay pages: behaviours a bug hunt of the pictures, the replay pages and
``forestgames replay`` found wrong or unpinned."""

from __future__ import annotations

import importlib
import itertools
from pathlib import Path
from typing import Any

import pytest

import forestgames as fg
from forestgames.cli import main
from tests.strategies import random_game


def _record_file(tmp_path: Path) -> Path:
    """A short 2-player Bosk record saved as JSON."""
    record = fg.play(fg.make("bosk"), ["random"], seed=1)
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    return path


def test_replay_html_refuses_a_seat_not_in_the_game_naming_the_option(capsys, tmp_path):
    """replay --html --seat 2 of a 2-player game names --seat, as the text replay does (it
    said 'player 2'), and writes no page."""
    path, page = _record_file(tmp_path), tmp_path / "page.html"
    assert main(["replay", str(path), "--html", str(page), "--seat", "2"]) == 2
    assert "--seat 2 is not a seat of this game" in capsys.readouterr().err
    assert not page.exists()


RENDER_MODULES = ("_svg", "bosk.render", "bonsai.render", "living_forest.render",
                  "boom_bokken.render")  # fmt: skip


def _clear_picture_caches() -> int:
    """Empty every cache of the picture modules (the shapes kept once drawn); how many."""
    cleared = 0
    for name in RENDER_MODULES:
        module = importlib.import_module(f"forestgames.{name}")
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
                cleared += 1
    return cleared


def test_a_picture_is_the_same_whatever_was_drawn_before_it():
    """The pieces the pictures keep once drawn (squares, cards, trees, forest cells, card
    backs) are keyed by all they show: a replay's pictures, drawn one after another, are
    those drawn with every cache emptied first, for the referee and for a seat."""
    assert _clear_picture_caches() >= 8  # the caches this test is about are still there
    cases = [("bosk", 2), ("bonsai", 2), ("living_forest", 2), ("boom_bokken", 5)]
    warm = []
    for name, players in cases:
        states = [state for state, _ in random_game(fg.make(name, num_players=players), 2)]
        for k, state in enumerate(states[:: max(1, len(states) // 5)]):
            warm.append((state, k % 2 or None, state.to_svg(k % 2 or None)))
    for state, player, picture in warm:
        _clear_picture_caches()
        assert state.to_svg(player) == picture, (state.game.name, player)


def test_a_seats_page_holds_no_trace_of_moves_it_did_not_see():
    """In a simultaneous Guardian phase seat 1's replay page is byte for byte the same
    whether seat 0 revealed twice before stopping or stopped at once (no hidden move, count,
    picture or score anywhere in it); the referee's and seat 0's pages tell them apart."""
    game = fg.make("living_forest", guardian_phase="simultaneous")
    start = fg.GameRecord.start(game, seed=1, first_player=0)
    revealed = start.with_moves(["0:reveal", "0:reveal", "0:stop", "1:reveal"])
    stopped = start.with_moves(["0:stop", "1:reveal"])
    assert revealed.replay()[-1].guardian_start is not None  # still in the phase
    assert fg.viewer.replay_html(revealed, 1) == fg.viewer.replay_html(stopped, 1)
    for player in (None, 0):
        assert fg.viewer.replay_html(revealed, player) != fg.viewer.replay_html(stopped, player)


def _after(name: str, players: int, seed: int, moves: int) -> Any:
    """The position after ``moves`` moves of random game ``seed``."""
    game = fg.make(name, num_players=players)
    return next(itertools.islice(random_game(game, seed), moves, None))[0]


def _worked_tree() -> str:
    """render_tree of a five-tile tree (the bonsai render module's example)."""
    tiles = {(0, -1): "wood", (1, -1): "wood", (-1, -1): "leaf", (0, -2): "leaf", (1, -2): "flower"}
    return fg.bonsai.render_tree(tiles)


DOC_EXAMPLES = {
    "bosk": lambda: _after("bosk", 2, 4, 40).render(0),
    "bonsai": _worked_tree,
    "living_forest": lambda: _after("living_forest", 2, 9, 15).render(1),
    "boom_bokken": lambda: _after("boom_bokken", 4, 21, 21).render(2),
}
"""What each render module's docstring example draws (a seeded position, a seat's view)."""


@pytest.mark.parametrize("name", sorted(DOC_EXAMPLES))
def test_each_render_modules_docstring_example_is_what_it_draws(name):
    """The text example of each game's render.py docstring (help() shows it) is lines the
    module draws, in order: Boom Bokken's said 'coins and tokens so far:' and spaced its
    seat lines otherwise, Living Forest's wrote Onibi's total '(5)', Bonsai's pot rows were
    spaced as no picture draws them, Bosk's board columns were off by one."""
    module = importlib.import_module(f"forestgames.{name}.render")
    example = (module.__doc__ or "").split("::\n\n", 1)[1]
    wanted = [line.removeprefix("    ").rstrip() for line in example.splitlines() if line]
    drawn = iter(DOC_EXAMPLES[name]().splitlines())
    missing = [line for line in wanted if line not in drawn]  # in order: drawn is consumed
    assert missing == [], missing
