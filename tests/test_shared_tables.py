"""Nothing a user can reach is both shared between games and writable (issue 10, class 7).

Every public module-level table of the package, and every table a game or a state
hands out, is immutable all the way down: tuples, frozensets, read-only mappings,
frozen attrs values, sealed tensor layouts, or numpy arrays whose ``writeable`` flag
cannot be set again.
"""

import copy
import importlib
import pickle
import pkgutil
from types import MappingProxyType, ModuleType

import attrs
import numpy as np
import pytest

import forestgames as fg
from forestgames._codec import Layout

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
    if isinstance(value, Layout):
        return _layout_problems(value, where, seen)
    if attrs.has(type(value)) and not isinstance(value, type):
        return [
            p
            for field in attrs.fields(type(value))
            for p in _problems(getattr(value, field.name), f"{where}.{field.name}", seen)
        ]
    return []


def _layout_problems(layout, where, seen):
    """Where a tensor layout (plain object, read by the docs and ``field``) could change."""
    problems = []
    changes = {
        "set offset": lambda copy_: setattr(copy_, "offset", {}),
        "set size": lambda copy_: setattr(copy_, "size", 0),
        "delete shape": lambda copy_: delattr(copy_, "shape"),
        "add a field": lambda copy_: copy_.add("extra", (1,), "a field added once built"),
    }
    for what, change in changes.items():
        try:
            change(copy.copy(layout))  # a copy: the layout itself stays as it is
        except AttributeError:
            continue
        problems.append(f"{where}: {what} succeeded")
    for name in ("offset", "shape", "doc"):
        problems += _problems(getattr(layout, name), f"{where}.{name}", seen)
    return problems


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


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_the_codec_layout_is_read_only(name):
    """game.codec.layout (the tensor's fields, which docs/<game>.md tells users to read)
    cannot be changed: its tables are read-only and its attributes cannot be set or deleted."""
    layout = fg.make(name).codec.layout
    assert _problems(layout, "game.codec.layout", set()) == []


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_a_copy_or_pickle_of_the_codec_layout_is_the_same_sealed_layout(name):
    """copy, deepcopy and a pickle round trip of game.codec.layout give a layout with the
    same fields, offsets, shapes and docs, read-only like the original."""
    layout = fg.make(name).codec.layout
    for copy_of in (copy.copy, copy.deepcopy, lambda value: pickle.loads(pickle.dumps(value))):
        twin = copy_of(layout)
        assert twin.size == layout.size
        assert list(twin.offset.items()) == list(layout.offset.items())
        assert (dict(twin.shape), dict(twin.doc)) == (dict(layout.shape), dict(layout.doc))
        assert _problems(twin, "the copy", set()) == []
