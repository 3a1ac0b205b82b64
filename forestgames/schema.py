"""Declared shapes of JSON data: saved states, and the checks that read them back.

A schema is a tree of small specs. ``spec.read(value, path)`` checks ``value``
(a parsed JSON value) and returns it in Python form (lists become tuples), or
raises :class:`~forestgames.core.StateError` naming the path, what was
expected and a bounded excerpt of what was found::

    TREE = Tuple(Int(0, 10), Int(0, 10), Int(0, 3), Int(1, 4))
    List(TREE, max_len=121).read([[4, 5, 0, 3]], "trees")   # -> ((4, 5, 0, 3),)

Checks look at sizes before contents, so a huge or deeply nested input is
refused after a constant amount of work per level of the schema (never more
levels than the schema has: no recursion on the input's depth).

A game's saved state is a :class:`StateSchema`: one :class:`Field` per key of
``to_dict``, each with its spec and the function that writes it from a state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from forestgames.core import StateError, excerpt

__all__ = [
    "Bool",
    "Choice",
    "Const",
    "Field",
    "Int",
    "List",
    "Map",
    "Nullable",
    "Record",
    "Spec",
    "StateSchema",
    "Str",
    "Tuple",
]


def _fail(path: str, expected: str, value: Any) -> StateError:
    return StateError(f"{path} must be {expected}, not {excerpt(value)}")


def _wrong_length(path: str, expected: str, items: Sequence[Any]) -> StateError:
    """The error for a list of another length than ``expected``: it says the length."""
    size = "1 item" if len(items) == 1 else f"{len(items)} items"
    return StateError(f"{path} must be {expected}, not {size}: {excerpt(items)}")


class Spec:
    """One node of a schema: ``read`` checks a JSON value and returns it."""

    @property
    def expected(self) -> str:
        """What the node takes, in words, for error messages (``an int in 0..3``)."""
        return "a value"

    def read(self, value: Any, path: str) -> Any:  # pragma: no cover - abstract
        """``value`` checked (and converted where the node says); StateError naming
        ``path`` and what was expected if it is not what the node takes."""
        raise NotImplementedError


@attrs.frozen
class Int(Spec):
    """An int in ``low..high`` (inclusive; None: unbounded). Bools are refused;
    numpy integers are read as the ints they are."""

    low: int | None = None
    high: int | None = None

    @property
    def expected(self) -> str:
        if self.low is None and self.high is None:
            return "an int"
        if self.high is None:
            return f"an int >= {self.low}"
        if self.low is None:
            return f"an int <= {self.high}"
        return f"an int in {self.low}..{self.high}"

    def read(self, value: Any, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise _fail(path, self.expected, value)
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise _fail(path, self.expected, value)
        return int(value)


@attrs.frozen
class Bool(Spec):
    """true or false."""

    expected = "true or false"

    def read(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool | np.bool_):
            raise _fail(path, self.expected, value)
        return bool(value)


@attrs.frozen
class Str(Spec):
    """A string of at most ``max_len`` characters, matching ``pattern`` if given."""

    max_len: int = 64
    pattern: str | None = None
    form: str = ""

    @property
    def expected(self) -> str:
        if self.form:
            return self.form
        shape = f" of the form {self.pattern}" if self.pattern else ""
        return f"a string of at most {self.max_len} characters{shape}"

    def read(self, value: Any, path: str) -> str:
        if not isinstance(value, str) or len(value) > self.max_len:
            raise _fail(path, self.expected, value)
        if self.pattern is not None and not re.fullmatch(self.pattern, value, re.ASCII):
            raise _fail(path, self.expected, value)
        return value


def _str_tuple(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


@attrs.frozen
class Choice(Spec):
    """One of a fixed set of strings (names, phases, directions)."""

    choices: tuple[str, ...] = attrs.field(converter=_str_tuple)

    @property
    def expected(self) -> str:
        shown = ", ".join(repr(c) for c in self.choices[:12])
        more = ", ..." if len(self.choices) > 12 else ""
        return f"one of {shown}{more}"

    def read(self, value: Any, path: str) -> str:
        if not isinstance(value, str) or value not in self._index:
            raise _fail(path, self.expected, value)
        return value

    @property
    def _index(self) -> frozenset[str]:
        return _choice_index(self.choices)


_CHOICE_INDEX: dict[tuple[str, ...], frozenset[str]] = {}


def _choice_index(choices: tuple[str, ...]) -> frozenset[str]:
    found = _CHOICE_INDEX.get(choices)
    if found is None:
        found = _CHOICE_INDEX[choices] = frozenset(choices)
    return found


@attrs.frozen
class Const(Spec):
    """Exactly ``value`` (a game's name, its player count); a numpy scalar is read as the
    Python value it is."""

    value: Any

    @property
    def expected(self) -> str:
        return repr(self.value)

    def read(self, value: Any, path: str) -> Any:
        if isinstance(value, np.generic):
            value = value.item()  # np.int64(3) is 3, np.bool_ a bool (refused where 3 is due)
        if type(value) is not type(self.value) or value != self.value:
            raise _fail(path, self.expected, value)
        return value


@attrs.frozen
class Nullable(Spec):
    """null, or what ``spec`` reads (null is read as None)."""

    spec: Spec

    @property
    def expected(self) -> str:
        return f"null or {self.spec.expected}"

    def read(self, value: Any, path: str) -> Any:
        return None if value is None else self.spec.read(value, path)


@attrs.frozen
class List(Spec):
    """A list of ``item``: exactly ``length`` long if given, else ``min_len..max_len``."""

    item: Spec
    length: int | None = None
    max_len: int = 10_000
    min_len: int = 0
    form: str = ""

    @property
    def expected(self) -> str:
        if self.form:
            return self.form
        if self.length is not None:
            return f"a list of {self.length} items"
        return f"a list of {self.min_len}..{self.max_len} items"

    def read(self, value: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple):
            raise _fail(path, self.expected, value)
        n = len(value)
        if (self.length is not None and n != self.length) or not (
            self.min_len <= n <= (self.max_len if self.length is None else n)
        ):
            raise _wrong_length(path, self.expected, value)
        read = self.item.read
        return tuple(read(v, f"{path}[{k}]") for k, v in enumerate(value))


@attrs.frozen(init=False)
class Tuple(Spec):
    """A fixed-length list whose entries have their own specs (``[row, col, seat]``)."""

    items: tuple[Spec, ...]

    def __init__(self, *items: Spec) -> None:
        self.__attrs_init__(items)

    @property
    def expected(self) -> str:
        return f"a list of {len(self.items)} items"

    def read(self, value: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple):
            raise _fail(path, self.expected, value)
        if len(value) != len(self.items):
            raise _wrong_length(path, self.expected, value)
        return tuple(
            spec.read(v, f"{path}[{k}]")
            for k, (spec, v) in enumerate(zip(self.items, value, strict=True))
        )


@attrs.frozen
class Record(Spec):
    """A JSON object with exactly these keys, each read by its spec, in order; the keys in
    ``optional`` may be absent (a seat's own view of a player has more than another's)."""

    fields: Mapping[str, Spec]
    optional: frozenset[str] = frozenset()

    expected = "an object"

    def read(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise _fail(path, "an object", value)
        keys = tuple(k for k in self.fields if k not in self.optional or k in value)
        check_keys(value, keys, path)
        return {key: self.fields[key].read(value[key], f"{path}.{key}") for key in keys}


@attrs.frozen
class Map(Spec):
    """A JSON object from keys read by ``key`` to values read by ``value``."""

    key: Spec
    value: Spec
    max_len: int = 1_000

    @property
    def expected(self) -> str:
        return f"an object of at most {self.max_len} entries"

    def read(self, value: Any, path: str) -> dict[Any, Any]:
        if not isinstance(value, dict) or len(value) > self.max_len:
            raise _fail(path, self.expected, value)
        return {
            self.key.read(k, f"{path} key"): self.value.read(v, f"{path}.{excerpt(k, 20)}")
            for k, v in value.items()
        }


def check_keys(value: dict[Any, Any], keys: Sequence[str], path: str) -> None:
    """StateError unless ``value`` has exactly ``keys`` (a bounded list of the others)."""
    if len(value) == len(keys) and all(k in value for k in keys):
        return
    missing = [k for k in keys if k not in value]
    if missing:
        raise StateError(f"{path} lacks {', '.join(missing)}")
    known = set(keys)
    extra = [
        k[:30] if isinstance(k, str) else excerpt(k, 30)
        for k in list(value)[: len(keys) + 5]
        if k not in known
    ]
    raise StateError(f"{path} has unknown keys {', '.join(extra)}")


@attrs.frozen
class Field:
    """One key of a saved state: its spec and how a state writes it."""

    key: str
    spec: Spec
    write: Callable[[Any], Any]


@attrs.frozen
class StateSchema:
    """A game's saved state: its fields in ``to_dict`` order."""

    title: str
    fields: tuple[Field, ...]

    def write(self, state: Any) -> dict[str, Any]:
        """The JSON-able dict of ``state``."""
        return {field.key: field.write(state) for field in self.fields}

    def read(self, data: Any) -> dict[str, Any]:
        """Every field of ``data`` checked and in Python form; StateError otherwise."""
        title = f"{self.title} state"
        if isinstance(data, str | bytes | bytearray):
            raise StateError(
                f"a {title} must be a JSON object (a dict), not the text {excerpt(data, 40)}: "
                "json.loads(text) first"
            )
        if not isinstance(data, dict):
            raise StateError(f"a {title} must be a JSON object, not {excerpt(data)}")
        check_keys(data, tuple(f.key for f in self.fields), title)
        return {f.key: f.spec.read(data[f.key], f.key) for f in self.fields}
