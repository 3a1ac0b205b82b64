"""Figures and printed outputs in README.md and docs/*.md's prose that no other test pinned,
checked against what the code gives (a docs audit): each test reads the claim from its page,
so a change to either side fails it."""

from __future__ import annotations

import ast
import contextlib
import io
import math
import re
from pathlib import Path
from typing import Any

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


# --------------------------------------------------------------------------- action counts

PROSE_ACTIONS = [  # page, the sentence (a pattern), the configurations it names, in order
    (
        "bosk.md",
        r"`num_actions` is 5N² \+ 12 \+ 2S²: ([\d ]+) for 2 players, ([\d ]+) for 3, "
        r"([\d ]+) for 4\.",
        [("bosk", {"num_players": p}) for p in (2, 3, 4)],
    ),
    (
        "bonsai.md",
        r"`num_actions` = 60 \+ 5C \(([\d ]+) with 2 players\)",
        [("bonsai", {"num_players": 2})],
    ),
    (
        "living_forest.md",
        r"`num_actions` is ([\d ]+) with 2 players, ([\d ]+) with 3 and ([\d ]+) with 4\.",
        [("living_forest", {"num_players": p}) for p in (2, 3, 4)],
    ),
    (
        "boom_bokken.md",
        r"`num_actions` is ([\d ]+) with 4 players, ([\d ]+) with 9, ([\d ]+) with 6 in "
        r"Expert mode\.",
        [
            ("boom_bokken", {"num_players": 4}),
            ("boom_bokken", {"num_players": 9}),
            ("boom_bokken", {"num_players": 6, "expert": True}),
        ],
    ),
]


@pytest.mark.parametrize(
    ("page", "pattern", "configs"), PROSE_ACTIONS, ids=[p for p, _, _ in PROSE_ACTIONS]
)
def test_game_page_prose_action_counts_are_the_games(page, pattern, configs):
    """The action counts a game page's prose gives below its id table (besides its specs
    table, which test_docs pins) are its games' num_actions."""
    found = re.search(pattern, _prose(page))
    assert found, f"docs/{page} does not give its action counts as expected"
    shown = [int(n.replace(" ", "")) for n in found.groups()]
    assert shown == [fg.make(name, **options).num_actions for name, options in configs]


def test_rl_page_bonsai_mask_lengths_span_its_action_spaces():
    """docs/rl.md's span of Bonsai's mask lengths (23 340 to 58 560 ids) runs from the
    smallest to the largest num_actions over every player count, wood_beside_pot or not."""
    found = re.search(r"Bonsai's mask is ([\d ]+) to ([\d ]+) ids long", _prose("rl.md"))
    assert found, "docs/rl.md gives no span of Bonsai's mask lengths"
    sizes = [
        fg.make("bonsai", num_players=p, wood_beside_pot=w).num_actions
        for p in (1, 2, 3, 4)
        for w in (False, True)
    ]
    assert [int(n.replace(" ", "")) for n in found.groups()] == [min(sizes), max(sizes)]


# --------------------------------------------------------------------------- code comments


def _shown_value(comment: str) -> tuple[bool, Any]:
    """The Python literal a code comment shows as a result (``# 6``, ``# -> (1,)``,
    ``# (3, 2): seat 2 may ...``: the longest literal before a colon, a bracket or a word
    that follows it), and whether it shows one; digits may be grouped by ``_``."""
    text = comment.strip().removeprefix("->").strip()
    cuts = [len(text), *(m.start() for m in re.finditer(r":| \(| ", text))]
    for cut in sorted(set(cuts), reverse=True):
        candidate = text[:cut].strip().rstrip(",")
        try:
            return True, ast.literal_eval(candidate) if candidate else None
        except (ValueError, SyntaxError):
            continue
    return False, None


def _commented_results(block: str, body: list[ast.stmt]) -> list[tuple[ast.Expr, Any]]:
    """The statements of ``body`` (the parsed ``block``) that are expressions whose comment
    (on their last line, or a ``# ->`` line right below) shows a literal result, with it."""
    lines = block.splitlines()
    found = []
    for node in body:
        if not isinstance(node, ast.Expr) or node.end_lineno is None:
            continue
        comment = lines[node.end_lineno - 1].partition("#")[2]
        below = lines[node.end_lineno] if node.end_lineno < len(lines) else ""
        if not comment and below.lstrip().startswith("# ->"):
            comment = below.partition("#")[2]
        shows, value = _shown_value(comment) if comment else (False, None)
        if shows and value is not None:
            found.append((node, value))
    return found


COMMENTED_BLOCKS = [
    (name, index, block)
    for name in ["README.md", *sorted(p.name for p in (ROOT / "docs").glob("*.md"))]
    for index, block in enumerate(re.findall(r"```python\n(.*?)```", _page(name), re.S))
    if _commented_results(block, ast.parse(block).body)
]


@pytest.mark.parametrize(
    ("name", "index", "block"),
    COMMENTED_BLOCKS,
    ids=[f"{name}-{index}" for name, index, _ in COMMENTED_BLOCKS],
)
def test_docs_block_comments_show_the_results_the_code_gives(name, index, block):
    """Where a docs code block's comment shows an expression's result as a literal (``#
    385``, ``# -> (1,)``, ``# ('1', '2', ...): seat 2 leads``), the expression gives it (an
    array: its shape); test_docs only runs the blocks. Bosk's kernels run on numpy here."""
    body = ast.parse(block).body
    checks = {id(node): value for node, value in _commented_results(block, body)}
    namespace: dict[str, Any] = {"__name__": "docs_block"}
    compiled = fg.bosk.scoring.compiled_kernels()
    fg.bosk.scoring.compiled_kernels(False)  # a 100,000-board call, without numba's start
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            for node in body:
                if id(node) not in checks:
                    exec(compile(ast.Module([node], []), name, "exec"), namespace)
                    continue
                assert isinstance(node, ast.Expr)
                got = eval(compile(ast.Expression(node.value), name, "eval"), namespace)
                got = got.shape if isinstance(got, np.ndarray) else got
                assert got == checks[id(node)], f"docs/{name}: {ast.unparse(node)}"
    finally:
        fg.bosk.scoring.compiled_kernels(compiled)


# --------------------------------------------------------------------------- bonsai.md


def test_bonsai_page_worked_example_picture_is_render_tree():
    """docs/bonsai.md's picture of the published worked example, labelled render_tree, is
    what render_tree draws of that tree (its legend, on the right, set aside)."""
    from tests.bonsai.helpers import example_tiles

    found = re.search(r"\*\*The tree\.\*\*.*?\n```\n(.*?)```", _page("bonsai.md"), re.S)
    assert found, "docs/bonsai.md shows no picture of the worked example"
    assert "the worked example (render_tree)" in found.group(1)
    drawn = [re.sub(r"\s{6,}(the worked example|# wood).*$", "", line).rstrip()
             for line in found.group(1).splitlines()]  # fmt: skip
    assert drawn == fg.bonsai.render_tree(example_tiles()).splitlines()


# --------------------------------------------------------------------------- the command line


def _usage_flags(command: str) -> set[str]:
    """The long options ``forestgames COMMAND --help`` names in its usage lines."""
    from forestgames.cli import build_parser

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        build_parser().parse_args([command, "--help"])
    usage = out.getvalue().split("\n\n")[0]
    return set(re.findall(r"\[(--[a-z-]+)", usage))


def test_simulation_page_command_synopsis_names_every_option():
    """docs/simulation.md's synopsis of the command line gives each command exactly the
    options its --help lists (``-o`` for ``--option``), and every command there is."""
    block = re.search(r"## The command line\n\n```text\n(.*?)```", _page("simulation.md"), re.S)
    assert block, "docs/simulation.md has no synopsis of the command line"
    synopsis: dict[str, str] = {}
    for line in block.group(1).splitlines():
        if line.startswith("forestgames "):
            command = line.split()[1]
            synopsis[command] = ""
        synopsis[command] += line
    assert sorted(synopsis) == ["bench", "play", "replay", "simulate", "tournament"]
    for command, text in synopsis.items():
        shown = set(re.findall(r"\[(--[a-z-]+)", text))
        shown |= {"--option"} if re.search(r"\[-o KEY=VALUE", text) else set()
        assert shown == _usage_flags(command) - {"--help"}, command


def _plain_signature(function: Any) -> str:
    """``function``'s parameters as the docs write them: no annotations, defaults as repr
    with double quotes, ``*`` before keyword-only ones."""
    import inspect

    parts, star = [], False
    for param in inspect.signature(function).parameters.values():
        if param.kind is param.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        prefix = "**" if param.kind is param.VAR_KEYWORD else ""
        default = "" if param.default is param.empty else "=" + repr(param.default)
        parts.append(prefix + param.name + default.replace("'", '"'))
    return ", ".join(parts)


@pytest.mark.parametrize("name", ["play", "simulate", "tournament"])
def test_simulation_page_api_signatures_are_the_functions(name):
    """docs/simulation.md's signatures of fg.play, fg.simulate and fg.tournament give each
    function's parameters, defaults and keyword-only marker as the function has them."""
    block = re.search(r"## The Python API\n\n```text\n(.*?)```", _page("simulation.md"), re.S)
    assert block, "docs/simulation.md has no signatures block"
    text = " ".join(block.group(1).split())
    shown = re.search(rf"fg\.{name}\((.*?)\) ->", text)
    assert shown, f"docs/simulation.md gives no signature of fg.{name}"
    assert shown.group(1) == _plain_signature(getattr(fg, name))


INLINE_SIGNATURES = [  # page, the call as the page writes it (a prefix), the function
    ("bosk.md", "VectorBosk(", lambda: fg.bosk.VectorBosk),
    ("bosk.md", "vec.play(", lambda: fg.bosk.VectorBosk.play),
    ("boom_bokken.md", "game.deal(", lambda: fg.make("boom_bokken").deal),
    ("boom_bokken.md", "round_coins(", lambda: fg.boom_bokken.round_coins),
    ("bonsai.md", "fg.bonsai.tree_points(", lambda: fg.bonsai.tree_points),
    ("simulation.md", "forestgames.sim.play_game(", lambda: fg.sim.play_game),
]


@pytest.mark.parametrize(
    ("page", "call", "function"),
    INLINE_SIGNATURES,
    ids=[f"{page}-{call.rstrip('(')}" for page, call, _ in INLINE_SIGNATURES],
)
def test_game_pages_inline_signatures_are_the_functions(page, call, function):
    """A signature a page gives in its prose (`VectorBosk(num_players=2, ...)`,
    `game.deal(...)`, `round_coins(...)`, ...) lists the function's parameters and defaults."""
    shown = re.search(rf"`{re.escape(call)}(.*?)\)`", _prose(page))
    assert shown, f"docs/{page} gives no signature of {call}...)"
    target = function()
    plain = _plain_signature(target)
    plain = re.sub(r"^self, ", "", plain)
    assert shown.group(1) == plain


# --------------------------------------------------------------------------- rl.md


@pytest.mark.parametrize(("name", "players"), [("bosk", 2), ("boom_bokken", 4)])
def test_rl_page_checkers_warn_only_as_the_page_says(name, players):
    """docs/rl.md's expected warnings are all the checkers give: PettingZoo's api_test and
    seed_test the two quoted there, Gymnasium's check_env on rl.gym_env(...) only that it
    cannot test other render modes without a spec."""
    pytest.importorskip("pettingzoo")
    import warnings

    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test

    from forestgames import rl

    quoted = re.findall(r'api_test` warns "(.*?)" and "(.*?)"', _prose("rl.md"))
    assert quoted, "docs/rl.md quotes no api_test warnings"
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("always")
        api_test(rl.aec_env(name, num_players=players), num_cycles=100)
        seed_test(lambda: rl.aec_env(name, num_players=players), num_cycles=20)
    assert {str(w.message) for w in caught} == set(quoted[0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(rl.gym_env(name, num_players=players))
    assert [re.search(r"render modes.*not having a spec", str(w.message)) is not None
            for w in caught] == [True]  # fmt: skip
