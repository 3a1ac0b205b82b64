"""Nothing a user can reach is both shared between games and writable (issue 10, class 7).

Every public module-level table of the package, and every table a game or a state
hands out, is immutable all the way down: tuples, frozensets, read-only mappings,
frozen attrs values, or numpy arrays whose ``writeable`` flag cannot be set again.
"""

import importlib
import pkgutil
from types import MappingProxyType, ModuleType

import attrs
import numpy as np
import pytest

import forestgames as fg

SKIP_MODULES = ("forestgames.rl", "forestgames.bosk._numba", "forestgames.__main__")
MUTABLE = (dict, list, set, bytearray)


def _modules() -> list[ModuleType]:
    names = [
        info.name
        for info in pkgutil.walk_packages(fg.__path__, "forestgames.")
        if not info.name.startswith(SKIP_MODULES)
    ]
    return [fg, *map(importlib.import_module, names)]


def _problems(value, where, seen):
    """Where ``value`` (a table reachable by users) could be changed in place."""
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, MUTABLE):
        return [f"{where} is a {type(value).__name__}"]
    if isinstance(value, np.ndarray):
        try:
            value.flags.writeable = True
        except ValueError:
            return []
        value.flags.writeable = False
        return [f"{where} is an array that can be made writable"]
    if isinstance(value, MappingProxyType):
        return [p for k, v in value.items() for p in _problems(v, f"{where}[{k!r}]", seen)]
    if isinstance(value, tuple | frozenset):
        return [p for k, v in enumerate(value) for p in _problems(v, f"{where}[{k}]", seen)]
    if attrs.has(type(value)) and not isinstance(value, type):
        return [
            p
            for field in attrs.fields(type(value))
            for p in _problems(getattr(value, field.name), f"{where}.{field.name}", seen)
        ]
    return []


def _public_tables(module):
    for name, value in vars(module).items():
        if name.startswith("_"):
            continue
        if isinstance(value, ModuleType | type) or callable(value):
            continue
        yield f"{module.__name__}.{name}", value


def test_module_tables_are_immutable():
    """Every public table of every module (the games' ``_tables`` included) is immutable."""
    seen: set[int] = set()
    problems = [
        p
        for module in _modules()
        for where, value in _public_tables(module)
        for p in _problems(value, where, seen)
    ]
    assert problems == []


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_game_and_state_attributes_are_immutable(name):
    """A game's attributes and a new state's fields cannot be changed in place."""
    game = fg.make(name)
    state = game.new_game(seed=1)
    seen: set[int] = set()
    problems = [
        p
        for owner, label in ((game, "game"), (state, "state"))
        for field in attrs.fields(type(owner))
        for p in _problems(getattr(owner, field.name), f"{label}.{field.name}", seen)
    ]
    assert problems == []
