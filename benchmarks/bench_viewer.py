"""Replay pages: ``fg.viewer.replay_html`` of one recorded 4-player game per game.

Same-run baselines, interleaved (best of several rounds each): the page built with
every kept drawing bypassed (the parts of pictures kept by ``functools.lru_cache``,
called unwrapped, as pages were built before they were kept), and the engine
replaying the record.
``speed_up`` is the bypassed page's time over the page's; ``page_over_replay`` what
a page costs in replays of its game.

    python -m pytest benchmarks/bench_viewer.py --benchmark-only -s
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from typing import Any

import pytest

import forestgames as fg
from benchmarks.common import best_seconds, record

KEPT_DRAWINGS = (
    ("forestgames._svg", "card_back"),
    ("forestgames.bosk.render", "_square_svg"),
    ("forestgames.bonsai.render", "_tree_parts"),
    ("forestgames.living_forest.render", "_animal"),
    ("forestgames.living_forest.render", "_forest_cell"),
    ("forestgames.living_forest.render", "_forest_tree"),
)
PLAYERS = {"bosk": 4, "bonsai": 4, "living_forest": 4, "boom_bokken": 6}


@contextlib.contextmanager
def drawings_bypassed() -> Iterator[None]:
    """Every kept drawing called unwrapped while inside (each picture drawn from scratch)."""
    saved = []
    for module_name, name in KEPT_DRAWINGS:
        module = importlib.import_module(module_name)
        kept = getattr(module, name)
        saved.append((module, name, kept))
        setattr(module, name, kept.__wrapped__)
    try:
        yield
    finally:
        for module, name, kept in saved:
            setattr(module, name, kept)


def bypassed_page(record_: fg.GameRecord) -> str:
    """The replay page drawn without the kept drawings."""
    with drawings_bypassed():
        return fg.viewer.replay_html(record_)


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_replay_page(benchmark: Any, name: str) -> None:
    """A replay page of a random game: seconds, against the page drawn from scratch and the
    engine's replay, and the same bytes either way."""
    players = PLAYERS[name]
    game_record = fg.play(fg.make(name, num_players=players), ["random"] * players, seed=3)
    page = benchmark(fg.viewer.replay_html, game_record)
    assert page == bypassed_page(game_record)
    if benchmark.disabled:
        return
    page_s, bypassed_s, replay_s = best_seconds(
        [
            lambda: fg.viewer.replay_html(game_record),
            lambda: bypassed_page(game_record),
            game_record.replay,
        ],
        rounds=3,
    )
    record(
        benchmark,
        {
            "game": name,
            "players": players,
            "moves": len(game_record.moves),
            "page_ms": round(1000 * page_s, 1),
            "bypassed_page_ms": round(1000 * bypassed_s, 1),
            "speed_up": round(bypassed_s / page_s, 2),
            "page_over_replay": round(page_s / replay_s, 1),
        },
    )
