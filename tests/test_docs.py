"""Every Python block of README.md and docs/*.md runs as written, pasted into a fresh script."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import forestgames as fg
from forestgames.core import options_table, specs_table
from tests import doc_tables

ROOT = Path(__file__).resolve().parents[1]
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
# The blocks run this checkout's package, not whichever forestgames is installed, and print
# their pictures ('·', '■') as UTF-8 whatever the machine's locale.
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    "PYTHONIOENCODING": "utf-8",
}
# A block that imports an optional extra's module skips when that extra is not installed
# (the rl extra's pettingzoo and gymnasium are in the test extra; OpenSpiel has no wheel
# for every platform, so it is optional there).
OPTIONAL = {  # extra: (its module, what a block that needs it says)
    "openspiel": (
        "pyspiel",
        re.compile(
            r"^\s*(import pyspiel|from open_spiel\b|from forestgames\.rl import openspiel)", re.M
        ),
    )
}
BLOCKS = [
    (page, k, block)
    for page in PAGES
    for k, block in enumerate(
        re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    )
]


@pytest.mark.parametrize(
    ("page", "index", "block"), BLOCKS, ids=[f"{p.name}-{k}" for p, k, _ in BLOCKS]
)
def test_docs_block_runs_as_a_script(page, index, block, tmp_path):
    """The block runs as its own script (a fresh interpreter, the working directory empty,
    this tree's library first on the path, as for the examples)."""
    for extra, (module, needs) in OPTIONAL.items():
        if needs.search(block) and importlib.util.find_spec(module) is None:
            pytest.skip(f"needs the {extra!r} extra ({module} is not installed)")
    script = tmp_path / f"{page.stem}_{index}.py"
    script.write_text(block, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=ENV,
        capture_output=True,
        encoding="utf-8",
        timeout=300,
    )
    assert result.returncode == 0, f"{page.name} block {index}:\n{block}\n{result.stderr[-3000:]}"


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_options_table_is_made_from_the_spec(name):
    """Each game page's Options table is exactly the one its declared options make."""
    page = (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- options -->\n(.*?)\n<!-- /options -->", page, re.S)
    assert found, f"docs/{name}.md has no <!-- options --> table"
    assert found.group(1) == options_table(type(fg.make(name)).OPTIONS)


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_specs_table_is_made_from_the_game(name):
    """Each game page's specs table, above its Usage, is exactly the one its games make."""
    page = (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- specs -->\n(.*?)\n<!-- /specs -->", page, re.S)
    assert found, f"docs/{name}.md has no <!-- specs --> table"
    assert found.end() < page.index("\n## Usage\n"), f"docs/{name}.md: specs after Usage"
    assert found.group(1) == specs_table(type(fg.make(name)))


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_game_page_ends_with_its_version_history(name):
    """Each game page's last section is its Version history, as in the pages' template."""
    page = (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8")
    assert re.findall(r"^## (.+)$", page, re.M)[-1] == "Version history"


RL_TABLE_GAMES = {  # the rows of docs/rl.md's table of sizes: game, its configurations
    "Bosk": ("bosk", [{"num_players": p} for p in (2, 3, 4)]),
    "Bonsai": ("bonsai", [{"num_players": p} for p in (1, 2, 3, 4)]),
    "Living Forest": ("living_forest", [{"num_players": p} for p in (2, 3, 4)]),
    "Boom Bokken": (
        "boom_bokken",
        [
            {"num_players": 4},
            {"num_players": 9},
            {"num_players": 6, "expert": True, "team_sizes": [2, 2, 2]},
        ],
    ),
}


def test_openspiel_page_score_span_is_the_games_own():
    """docs/openspiel.md's span of scores runs from the narrowest to the widest
    ``traits.score_range`` of the games at each player count (it once said 0–1 664 after
    4-player Bonsai's reached 0–2 369)."""
    ranges = []
    for name in fg.GAME_NAMES:
        traits = fg.make(name).traits
        for players in range(traits.min_players, traits.max_players + 1):
            ranges.append(fg.make(name, num_players=players).traits.score_range)
    narrowest, widest = min(ranges, key=lambda r: r[1]), max(ranges, key=lambda r: r[1])
    span = "their scores run from {}–{} to {}–{}".format(
        *map(doc_tables.spaced, (*narrowest, *widest))
    )
    page = (ROOT / "docs" / "openspiel.md").read_text(encoding="utf-8")
    assert span in " ".join(page.split())


@pytest.mark.parametrize("title", RL_TABLE_GAMES)
def test_rl_page_sizes_are_the_games_own(title):
    """docs/rl.md's table of num_actions and observation_shape gives each game's own, for
    the player counts its players column names."""
    page = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    row = re.search(rf"^\| {title} \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", page, re.M)
    assert row, f"docs/rl.md has no size row for {title}"
    name, configs = RL_TABLE_GAMES[title]
    games = [fg.make(name, **options) for options in configs]
    assert [cell.strip() for cell in row.groups()] == [
        doc_tables.players_cell(configs),
        doc_tables.cell(g.num_actions for g in games),
        doc_tables.cell(g.observation_shape[0] for g in games),
    ]


def test_simulation_page_example_row_is_the_studys_game_0(tmp_path):
    """docs/simulation.md's results-file row is game 0 of the study's command (``simulate
    bosk --players 2 --agents greedy,random --rotate``, seed 0), run digest included: the
    digest holds the options and version, and went stale when Bosk gained an option."""
    page = (ROOT / "docs" / "simulation.md").read_text(encoding="utf-8")
    shown = re.search(r"```json\n(.*?)```", page, re.S)
    assert shown, "docs/simulation.md shows no results-file row"
    game = fg.make("bosk", num_players=2)
    result = fg.simulate(game, ["greedy", "random"], 1, seed=0, rotate=True, progress=False)
    result.to_jsonl(tmp_path / "rows.jsonl")
    written = (tmp_path / "rows.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(shown.group(1)) == json.loads(written[0])


def test_simulation_page_names_the_summarys_keys():
    """docs/simulation.md names every key of ``SimulationResult.summary()`` and of its
    per-seat and per-agent entries (it left out ``seats``, ``agents`` and ``label``, the
    keys the examples read)."""
    page = " ".join((ROOT / "docs" / "simulation.md").read_text(encoding="utf-8").split())
    described = re.search(r"`summary\(\)` \(a dict: (.*?)\), `format_summary\(\)`", page)
    assert described, "docs/simulation.md does not describe summary()"
    named = set(re.findall(r"`(\w+)`", described.group(1)))
    summary = fg.simulate("bosk", ["random"], 1, seed=0, progress=False).summary()
    assert set(summary) | set(summary["seats"][0]) | set(summary["agents"][0]) <= named
