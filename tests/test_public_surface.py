"""Every public method of every game and state refuses junk arguments with the library's error.

A public call given bad input raises a ForestGamesError (ConfigError, StateError,
IllegalMoveError, ParseError), never Python's TypeError, AttributeError,
IndexError or KeyError, and it does so quickly. Each public method is called
with each junk value in each required positional argument (0 in the others).
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import re
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import forestgames as fg
from forestgames.core import ForestGamesError, GameBase, excerpt

JUNK: list[Any] = [
    None,
    "x",
    1.5,
    -1,
    10**30,
    [],
    [[None]],
    {"a": 1},
    np.zeros((2, 2)),
    (1, 2, 3),
    object(),
]

TIME_LIMIT = 1.0  # seconds per call

# Every game with its default options, plus the options that add rule helpers of their own.
CONFIGS: list[tuple[str, dict[str, Any]]] = [(name, {}) for name in fg.GAME_NAMES] + [
    ("boom_bokken", {"num_players": 6, "expert": True}),
]


def _required_positionals(fn: Callable[..., Any]) -> int:
    """How many positional arguments ``fn`` needs (0 when it has no readable signature)."""
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 0
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(p.default is p.empty and p.kind in kinds for p in parameters)


def _public_methods(obj: Any) -> list[tuple[str, int]]:
    """Names and arities of ``obj``'s public callables that take arguments (no properties)."""
    methods = []
    for name in dir(obj):
        if name.startswith("_") or isinstance(getattr(type(obj), name, None), property):
            continue
        attribute = getattr(obj, name)
        arity = _required_positionals(attribute) if callable(attribute) else 0
        if arity:
            methods.append((name, arity))
    return methods


def _cases() -> list[Any]:
    cases = []
    for name, options in CONFIGS:
        game = fg.make(name, **options)
        label = name + ("-expert" if options.get("expert") else "")
        for owner, obj in (("game", game), ("state", game.new_game(seed=1))):
            for method, arity in _public_methods(obj):
                cases.append(
                    pytest.param(
                        name, options, owner, method, arity, id=f"{label}-{owner}.{method}"
                    )
                )
    return cases


class _TooSlow(Exception):
    pass


def _too_slow(*_: Any) -> None:
    raise _TooSlow


def _outcome(fn: Callable[..., Any], args: list[Any]) -> str | None:
    """None if ``fn(*args)`` returns or raises a ForestGamesError in time; else what went wrong."""
    alarm = hasattr(signal, "SIGALRM")  # not on Windows: the elapsed time is checked there
    if alarm:
        previous = signal.signal(signal.SIGALRM, _too_slow)
        signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
    start = time.perf_counter()
    try:
        fn(*args)
    except ForestGamesError:
        pass
    except _TooSlow:
        return f"took over {TIME_LIMIT} s"
    except Exception as error:  # any other error is the failure reported
        return f"{type(error).__name__}: {error}"[:200]
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - start
    return None if elapsed <= TIME_LIMIT else f"took {elapsed:.2f} s"


@pytest.mark.parametrize(("name", "options", "owner", "method", "arity"), _cases())
def test_junk_arguments_raise_the_librarys_error(
    name: str, options: dict[str, Any], owner: str, method: str, arity: int
) -> None:
    """Junk in any required argument of a public method: no error, or a ForestGamesError."""
    game = fg.make(name, **options)
    obj = game if owner == "game" else game.new_game(seed=1)
    fn = getattr(obj, method)
    failures = []
    for position in range(arity):
        for junk in JUNK:
            args = [0] * arity
            args[position] = junk
            problem = _outcome(fn, args)
            if problem:
                failures.append(f"arg {position} = {excerpt(junk)}: {problem}")
    assert not failures, f"{owner}.{method}:\n" + "\n".join(failures)


def test_the_rule_helpers_are_internal() -> None:
    """Beyond the engine's protocol, a game's only public method with arguments is Boom
    Bokken's documented ``deal``: the rule helpers are internal."""
    protocol = set(dir(GameBase))
    extra = {
        name: [method for method, _ in _public_methods(fg.make(name)) if method not in protocol]
        for name in fg.GAME_NAMES
    }
    assert extra == {"bosk": [], "bonsai": [], "living_forest": [], "boom_bokken": ["deal"]}


@pytest.mark.parametrize(
    ("hands", "teams", "deck_top", "named"),
    [
        (None, [0, 1, 0, 1], [], "hands"),
        (["5", ["2"], ["7"], ["1"]], [0, 1, 0, 1], [], "hands[0]"),
        ([["5"], ["2"], ["7"], ["1"]], 1.5, [], "teams"),
        ([["5"], ["2"], ["7"], ["1"]], [0, 1, 0, 1], "8", "deck_top"),
    ],
)
def test_deal_names_the_argument_that_is_not_a_list(
    hands: Any, teams: Any, deck_top: Any, named: str
) -> None:
    """Boom Bokken's ``deal`` refuses a non-list argument (a string hand too) by its name."""
    game = fg.make("boom_bokken")
    with pytest.raises(fg.StateError, match=rf"deal: {re.escape(named)} must be a list"):
        game.deal(hands, teams, 0, deck_top)


def test_deal_takes_numpy_teams() -> None:
    """Boom Bokken's ``deal`` takes the teams as a 1-d numpy array as well as a list."""
    game = fg.make("boom_bokken")
    hands = [["5", "F5"], ["2"], ["7"], ["1"]]
    assert game.deal(hands, np.array([0, 1, 0, 1]), 0) == game.deal(hands, [0, 1, 0, 1], 0)


PUBLIC_MODULES = (
    "forestgames", "forestgames.core", "forestgames.bosk", "forestgames.bonsai",
    "forestgames.living_forest", "forestgames.boom_bokken", "forestgames.agents",
    "forestgames.sim", "forestgames.tournament", "forestgames.testing", "forestgames.viewer",
    "forestgames.schema", "forestgames.cli",
)  # fmt: skip


def _undocumented(module_name: str) -> list[str]:
    """Public names of ``module_name``'s ``__all__`` (and the methods and properties of its
    classes, not their attrs fields: the class docstring names those) without a docstring."""
    module = importlib.import_module(module_name)
    missing = []
    for name in module.__all__:
        obj = getattr(module, name)
        if not (inspect.isclass(obj) or callable(obj)):
            continue
        if not inspect.getdoc(obj):
            missing.append(name)
        if not inspect.isclass(obj):
            continue
        for attribute, value in vars(obj).items():
            member = value if isinstance(value, property) else getattr(obj, attribute)
            is_member = isinstance(value, property | functools.cached_property) or callable(member)
            if not attribute.startswith("_") and is_member and not inspect.getdoc(member):
                missing.append(f"{name}.{attribute}")
    return missing


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_public_function_method_and_property_has_a_docstring(module_name: str) -> None:
    """``help()`` says something for each public name (a method or property overriding a
    documented one inherits its docstring, as ``inspect.getdoc`` does)."""
    assert _undocumented(module_name) == []


def test_every_test_says_what_it_pins() -> None:
    """Every test function of tests/ and benchmarks/ has a docstring (CONTRIBUTING.md): the
    behaviour it pins, read in a failure's report."""
    root = Path(__file__).parent.parent
    missing = []
    for path in sorted([*root.glob("tests/**/test_*.py"), *root.glob("benchmarks/*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            is_test = isinstance(node, ast.FunctionDef) and node.name.startswith("test")
            if is_test and not ast.get_docstring(node):
                missing.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    assert missing == []


def test_the_package_namespace_holds_its_names_and_submodules_only() -> None:
    """``dir(forestgames)`` (what tab completion offers) lists ``__all__`` and the package's
    submodules, not the typing helpers behind ``make``'s signatures."""
    public = {name for name in dir(fg) if not name.startswith("_")}
    modules = {name for name in public if inspect.ismodule(getattr(fg, name))}
    assert public - modules == set(fg.__all__) - {"__version__"} - modules
    assert all(getattr(fg, name).__name__ == f"forestgames.{name}" for name in modules)
