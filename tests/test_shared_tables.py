"""Nothing a user can reach is both shared between games and writable (issue 10, class 7).

Every public module-level table of the package, and every table a game or a state
hands out, is immutable all the way down: tuples, frozensets, read-only mappings,
frozen attrs values, sealed plain objects (``core.Sealed``: tensor layouts, Bosk's
geometry, move tables; any other plain object of the package is a problem), or numpy
arrays whose ``writeable`` flag cannot be set again.
"""

import copy
import enum
import importlib
import pickle
import pkgutil
from types import MappingProxyType, ModuleType

import attrs
import numpy as np
import pytest

import forestgames as fg
from forestgames.core import Sealed

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
    if isinstance(value, Sealed):
        return _sealed_problems(value, where, seen)
    if attrs.has(type(value)) and not isinstance(value, type):
        return [
            p
            for field in attrs.fields(type(value))
            for p in _problems(getattr(value, field.name), f"{where}.{field.name}", seen)
        ]
    if _plain_object(value):
        return [f"{where} is a plain {type(value).__name__} whose attributes can be set"]
    return []


def _plain_object(value):
    """Whether ``value`` is an object of the package's own (not an enum member, a function
    or a class) whose attributes are plain: settable, unless it is ``Sealed``."""
    kind = type(value)
    return (
        kind.__module__.startswith("forestgames")
        and hasattr(value, "__dict__")
        and not isinstance(value, enum.Enum | type)
        and not callable(value)
    )


def _sealed_problems(value, where, seen):
    """Where a read-only plain object (``core.Sealed``: a layout, a geometry, a move table)
    could change: an attribute it lets be set or deleted, or a table it holds."""
    problems = []
    names = [name for name in vars(value) if not name.startswith("_")]
    for name in names:
        try:  # set to what it holds: no harm done even where it is allowed
            setattr(value, name, getattr(value, name))
        except AttributeError:
            pass
        else:
            problems.append(f"{where}.{name} can be set")
        twin = copy.copy(value)  # a copy where it is not the shared object itself
        if twin is not value:
            try:
                delattr(twin, name)
            except AttributeError:
                pass
            else:
                problems.append(f"{where}.{name} can be deleted")
    for name in names:
        problems += _problems(getattr(value, name), f"{where}.{name}", seen)
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
