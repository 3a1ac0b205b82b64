"""What a fresh process pays before its first result: modules, not seconds.

Wall-clock limits would flake on a shared machine, so these tests pin what makes
``import forestgames`` slow instead: the modules it loads. Each runs its code in a
new interpreter and lists ``sys.modules`` there. ``benchmarks/bench_cold_start.py``
measures the times.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys

import pytest

import forestgames as fg
from forestgames import _svg
from forestgames.core import as_pair

HEAVY = (
    "multiprocessing",  # the process pool of simulate(workers > 1)
    "concurrent.futures",
    "tqdm",  # a run's progress bar
    "logging",  # Ray
    "socket",
    "hashlib",  # a run's identity, a file's temporary name
    "secrets",
    "xml.sax.saxutils",  # it imports urllib.request, http.client, email, ssl
    "urllib.request",
    "http.client",
    "email",
    "ssl",
    "importlib.resources",  # it imports tempfile, zipfile, shutil
    "tempfile",
    "zipfile",
)
"""Modules no game needs until a run, a pool, Ray or a file (99 modules in all, with theirs)."""


def _loaded_by(code: str) -> set[str]:
    """The modules a new interpreter has loaded once it has run ``code``."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        encoding="utf-8",
        check=True,
        timeout=120,
    )
    return set(json.loads(result.stdout.splitlines()[-1]))


@functools.cache
def _numpys_own() -> frozenset[str]:
    """The modules of HEAVY that ``import numpy`` loads by itself, which forestgames cannot
    spare: numpy 1.x imports numpy.random, and with it ``hashlib`` and ``secrets``, at import
    (numpy 2 at first use; none then)."""
    return frozenset(_loaded_by("import numpy") & set(HEAVY))


def test_importing_the_package_loads_none_of_the_heavy_modules() -> None:
    """``import forestgames`` loads none of HEAVY (it loaded all of them, 387 modules; 288 now)
    but what numpy's own import loads (``_numpys_own``)."""
    assert sorted(_loaded_by("import forestgames") & set(HEAVY) - _numpys_own()) == []


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_a_games_first_moves_mask_tensor_and_picture_load_none_either(name: str) -> None:
    """A game's first state, moves, mask, tensor and SVG picture load none of HEAVY but
    ``hashlib`` and ``secrets``, which numpy.random imports (a first deal needs it)."""
    code = (
        "import forestgames as fg\n"
        f"state = fg.make({name!r}).new_game(seed=1)\n"
        "state.legal_moves(); state.legal_action_mask(); state.observation_tensor(0)\n"
        "state.to_svg(); state.to_svg(0)"
    )
    assert sorted(_loaded_by(code) & set(HEAVY) - {"hashlib", "secrets"}) == []


def test_the_commands_help_loads_none_either() -> None:
    """``forestgames --help`` (the parser of every command) loads none of HEAVY (but what
    numpy's own import loads)."""
    code = (
        "import contextlib, io\nfrom forestgames.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help'])"
    )
    assert sorted(_loaded_by(code) & set(HEAVY) - _numpys_own()) == []


def test_a_run_still_finds_what_it_imports_where_it_is_used() -> None:
    """A one-game simulate, written to a file, and a process pool's context work in a process
    that imported the package alone (their modules are imported on the way)."""
    code = (
        "import os, tempfile, forestgames as fg, forestgames.sim as sim\n"
        "path = os.path.join(tempfile.mkdtemp(), 'rows.jsonl')\n"
        "result = fg.simulate('bosk', ['random'], 1, seed=1, progress=False, out=path)\n"
        "assert len(result.rows) == 1 and os.path.getsize(path)\n"
        "assert sim.process_context().get_start_method() in ('fork', 'forkserver', 'spawn')"
    )
    assert {"tqdm", "hashlib", "secrets", "multiprocessing"} <= _loaded_by(code)


@pytest.mark.parametrize(
    "text",
    ["", "plain", "a & b < c > d", "&amp;", 'say "hi"', "it's", "both \" and '", "\n\r\t", "é ✓"],
)
def test_svg_escapes_as_xml_sax_saxutils_did(text: str) -> None:
    """The pictures' own ``escape`` and ``quoteattr`` write what xml.sax.saxutils' wrote."""
    from xml.sax import saxutils

    assert _svg.escape(text) == saxutils.escape(text)
    assert _svg.quoteattr(text) == saxutils.quoteattr(text)


def test_a_pair_of_two_ints_is_taken_as_it_is() -> None:
    """``as_pair`` returns a tuple of two ints itself, unchecked further (the move tables build
    thousands of moves: Bosk's first ``legal_moves`` took 10 ms, now 4 ms, at 4 players);
    anything else still goes through the checks."""
    import numpy as np

    pair = (3, 4)
    assert as_pair(pair) is pair
    converted = as_pair([np.int64(3), np.int8(4)])
    assert converted == (3, 4) and all(type(v) is int for v in converted)
    assert as_pair((True, 4)) == (True, 4) and type(as_pair((True, 4))[0]) is bool
