"""Figures and printed outputs in README.md and docs/*.md's prose that no other test pinned,
checked against what the code gives (a docs audit): each test reads the claim from its page,
so a change to either side fails it."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

import forestgames as fg
from forestgames.tournament import ELO_PER_NATURAL, PRIOR_PRECISION, fit_bradley_terry

ROOT = Path(__file__).resolve().parents[1]


def _page(name: str) -> str:
    """A docs page's text (``README.md`` at the root, the others under docs/)."""
    path = ROOT / name if name == "README.md" else ROOT / "docs" / name
    return path.read_text(encoding="utf-8")


def _prose(name: str) -> str:
    """A docs page's text with every run of white space made one space (prose wraps)."""
    return " ".join(_page(name).split())


# --------------------------------------------------------------------------- bosk.md


BOSK_MAP_TITLES = {8: "8×8 (2 players; ", 10: "10×10 (3 players; ", 12: "12×12 (4 players; "}


@pytest.mark.parametrize("size", sorted(BOSK_MAP_TITLES))
def test_bosk_page_default_maps_are_the_shipped_maps(size):
    """docs/bosk.md's printed default map of each size is render_terrain of the shipped
    DEFAULT_TERRAIN, and its title's squares-per-type figure is that map's."""
    title = re.escape(BOSK_MAP_TITLES[size])
    found = re.search(title + r"(\d+)(?:–(\d+))? squares of each type\):\n\n```\n(.*?)```",
                      _page("bosk.md"), re.S)  # fmt: skip
    assert found, f"docs/bosk.md shows no {size}x{size} map"
    grid = fg.bosk.DEFAULT_TERRAIN[size]
    assert found.group(3).strip() == fg.bosk.render_terrain(grid).strip()
    counts = np.bincount(grid.ravel(), minlength=8)
    low, high = int(found.group(1)), int(found.group(2) or found.group(1))
    assert (counts.min(), counts.max()) == (low, high)


# --------------------------------------------------------------------------- simulation.md


def test_simulation_page_study_summary_is_what_the_command_prints():
    """docs/simulation.md's summary of its study (``simulate bosk --players 2 --games 200
    --agents greedy,random --rotate``, seed 0) is what the command prints for it: the rows
    come from the vector engine, whose rows are the scalar engine's (tested elsewhere)."""
    shown = re.search(r"--rotate --workers 2 --out greedy_vs_random\.jsonl\n(.*?)```",
                      _page("simulation.md"), re.S)  # fmt: skip
    assert shown, "docs/simulation.md shows no summary of its study"
    result = fg.simulate(
        fg.make("bosk", num_players=2), ["greedy", "random"], 200, seed=0, rotate=True,
        progress=False, engine="vector",
    )  # fmt: skip
    assert shown.group(1).strip() == result.format_summary().strip()


def test_simulation_page_rating_gaps_are_the_fits():
    """docs/simulation.md's ratings of two agents of which one always wins (460 points
    apart after 1 game, 1,117 after 100) and the prior's spread (about 780 Elo points) are
    what fit_bradley_terry and PRIOR_PRECISION give."""
    page = _prose("simulation.md")
    found = re.search(r"are ([\d,]+) points apart after 1 game and ([\d,]+) after 100", page)
    assert found, "docs/simulation.md gives no rating gaps"
    for games, shown in zip((1, 100), found.groups(), strict=True):
        theta = fit_bradley_terry(np.array([[0.0, games], [0.0, 0.0]]), PRIOR_PRECISION)
        assert round(ELO_PER_NATURAL * (theta[0] - theta[1])) == int(shown.replace(",", ""))
    spread = re.search(r"a standard deviation of about (\d+) Elo points", page)
    assert spread, "docs/simulation.md gives no spread for the prior"
    assert round(ELO_PER_NATURAL / math.sqrt(PRIOR_PRECISION), -1) == int(spread.group(1))
