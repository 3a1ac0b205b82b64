"""Replay-page behaviours a mutation audit of ``forestgames/viewer.py`` found unpinned."""

from __future__ import annotations

import re
from typing import Any

import pytest

import forestgames as fg
from tests.test_viewer import LoudBuzz, short_record


class _PublicBuzz:
    """A game on the protocol alone, with pictures: LoudBuzz's public members and none of
    the engine's private hooks (no ``_seat_view``, no ``_private_move``)."""

    name = "public_buzz"

    def __init__(self, **options: Any) -> None:
        self.inner = LoudBuzz.create(**options)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.inner, name)

    def new_game(self, seed: int, first_player: int | None = None) -> _PublicState:
        return _PublicState(self.inner.new_game(seed=seed, first_player=first_player), self)


class _PublicState:
    """A _PublicBuzz position: a LoudBuzz state whose game is the _PublicBuzz."""

    def __init__(self, inner: Any, game: _PublicBuzz) -> None:
        self.inner, self.game = inner, game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def apply(self, move: Any) -> _PublicState:
        return _PublicState(self.inner.apply(move), self.game)


@pytest.fixture
def public_buzz(monkeypatch: pytest.MonkeyPatch) -> fg.GameRecord:
    """A record of _PublicBuzz, registered for the test only."""
    from forestgames import core

    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    core.register_game("public_buzz", _PublicBuzz)
    return fg.play(fg.make("public_buzz"), ["random"], seed=1)


def test_a_seats_page_of_a_game_without_seat_views_shows_each_state(public_buzz):
    """A seat's positions of a protocol game with no _seat_view hook are the states
    themselves: every move (none private without _private_move), each with the state's
    scores."""
    states = public_buzz.replay()
    assert type(states[0].game) is _PublicBuzz
    for seat in (0, 1):
        shown = fg.viewer.positions(public_buzz, seat)
        assert len(shown) == len(public_buzz.moves) + 1
        assert [p["scores"] for p in shown] == [list(s.scores) for s in states]
        assert shown[-1]["caption"].startswith(f"after move {len(public_buzz.moves)}: ")


def test_the_score_table_marks_the_viewing_seat_and_colours_each_seat_as_drawn():
    """The page's score table has a row per seat, each with its seat colour (SEAT_COLOURS
    in seat order, the pictures' colours), and '(you)' on the viewing seat's row only: on
    no row of the referee's page."""
    from forestgames._svg import SEAT_COLOURS

    record = short_record("boom_bokken", 5, moves=3)
    row = r'<tr><td><span class="dot" style="background:(#\w+)"></span>seat (\d)( \(you\))?</td>'
    for player in (None, 0, 3):
        rows = re.findall(row, fg.viewer.replay_html(record, player))
        assert [(colour, int(seat)) for colour, seat, _ in rows] == [
            (SEAT_COLOURS[seat], seat) for seat in range(5)
        ]
        assert [int(seat) for _, seat, you in rows if you] == ([] if player is None else [player])


def test_a_solo_page_title_says_one_player():
    """A solo Bonsai page is titled "1 player", as its pictures say (it said "1 players");
    a 2-player page "2 players"."""
    for players, said in ((1, "<title>bonsai · 1 player ·"), (2, "<title>bonsai · 2 players ·")):
        record = fg.play(fg.make("bonsai", num_players=players), ["random"] * players, seed=3)
        assert said in fg.viewer.replay_html(record)
