"""The engine base every game is built on: errors, checks, seeding, options, records.

This module knows no game. A game is an attrs frozen class deriving from
:class:`GameBase`, declaring its traits as class keywords and its options as
data, and implementing a few hooks with fixed signatures (the pgx ``Env``
pattern); its states derive from :class:`StateBase`::

    @attrs.frozen(slots=False)
    class MyGame(GameBase["MyState", MyMove], name="my_game", players=(2, 4),
                 chance=True, hidden_information=False, out_of_turn=False):
        OPTIONS = (Option.integer("num_players", 2, 2, 4, "seats at the table"),)
        MOVE_TYPES = (MyMove,)
        num_players: int

        def _new_game(self, seed, first_player): ...      # the first state
        def _legal_moves(self, state, player): ...        # that seat's moves (game not over)
        def _step(self, state, move): ...                 # the next state (move known legal)
        def _state_fields(self): ...                      # the saved-state schema
        def _state_from_fields(self, fields): ...         # a state from checked fields

The base owns, once for every game: option checking (:meth:`GameBase.create`,
:meth:`GameBase.options`), the legal-move cache, the fast copy
(:meth:`StateBase._evolve`), the check in :meth:`StateBase.apply` (a move that
is one of the state's own legal moves is applied without re-validation; any
other move is looked up in the legal list, and only a move not in it is
explained, by the rule helpers the game's generator uses), saving and loading
through the schema, copying (free: states are immutable) and pickling (a game
pickles as its options, never its derived tables).

A state is immutable: ``state.apply(move)`` returns a new state and leaves the
old one untouched, or raises :class:`IllegalMoveError` and changes nothing.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import json
import math
import numbers
import operator
import os
import pkgutil
import re
import threading
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence, Sized
from itertools import islice, repeat
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Protocol,
    Self,
    SupportsIndex,
    TypeGuard,
    TypeVar,
    cast,
    overload,
    runtime_checkable,
)

import attrs
import numpy as np

from forestgames._text import game_over
from forestgames._version import __version__

if TYPE_CHECKING:
    import numpy.typing as npt

    from forestgames.schema import Field, Spec, StateSchema

__all__ = [
    "ConfigError",
    "ForestGamesError",
    "Game",
    "GameBase",
    "GameRecord",
    "GameTraits",
    "IllegalMoveError",
    "IntLike",
    "Move",
    "Option",
    "ParseError",
    "Sealed",
    "State",
    "StateBase",
    "StateError",
    "as_bool",
    "as_game",
    "as_int",
    "as_move_int",
    "as_pair",
    "check_seat",
    "check_seed",
    "derive_seed",
    "did_you_mean",
    "excerpt",
    "frozen_array",
    "hidden_from",
    "is_int",
    "is_list_like",
    "is_row",
    "make",
    "new_rng",
    "notation",
    "notation_error",
    "register_game",
    "registered_games",
    "require",
    "resolve_seed",
    "unarray",
]

IntLike = int | np.integer[Any]
"""An int or a numpy integer: what seeds and counts accept (``rng.integers(...)`` works)."""


# --------------------------------------------------------------------------- errors


class ForestGamesError(Exception):
    """Base class of every error the library raises on purpose."""


class IllegalMoveError(ForestGamesError, ValueError):
    """A move that the rules do not allow in this state (the state is unchanged)."""


class ConfigError(ForestGamesError, ValueError):
    """An unknown game, a bad game option, seed or setting."""


class ParseError(ForestGamesError, ValueError):
    """Text that is not a move (or record) in the game's notation."""


class StateError(ForestGamesError, ValueError):
    """A saved state (or record, or board array) that is malformed or breaks the rules; an
    environment asked for its position before ``reset()``."""


def require(condition: bool, error: type[ForestGamesError], message: str) -> None:
    """Raise ``error(message)`` unless ``condition`` holds."""
    if not condition:
        raise error(message)


_EXCERPT_ITEMS = 6
_EXCERPT_SIZED = 1000
"""Longer containers of other kinds (a deque, an array.array) are described by their size."""


def excerpt(value: Any, limit: int = 80) -> str:
    """A short repr of ``value`` for an error message: bounded time, memory and length.

    Huge ints are described by their size, long containers by their first
    items; the result is at most about ``limit`` characters.
    """
    text = _bounded_repr(value, 2)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def did_you_mean(name: Any, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the name of ``known`` closest to a misspelt ``name``
    (case, ``-`` and spaces aside), or ``""`` if none is close: for unknown-name messages."""
    if not isinstance(name, str) or len(name) > 100:
        return ""
    known = list(known)

    def plain(text: str) -> str:
        return text.strip().lower().replace("-", "_").replace(" ", "_")

    by_plain = {plain(k): k for k in known}
    close = by_plain.get(plain(name))
    if close is None:
        matches = difflib.get_close_matches(plain(name), list(by_plain), n=1, cutoff=0.6)
        close = by_plain[matches[0]] if matches else None
    return "" if close is None or close == name else f" (did you mean {close!r}?)"


def _bounded_repr(value: Any, depth: int) -> str:
    if isinstance(value, np.generic) and not isinstance(value, np.void):
        value = value.item()  # numpy scalars are shown as the Python values they are
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 200:
            return f"<an int of {math.floor(value.bit_length() * math.log10(2)) + 1} digits>"
        return repr(value)
    if isinstance(value, str):
        return repr(value[:60] + ("..." if len(value) > 60 else ""))
    if isinstance(value, bytes | bytearray):
        return repr(value[:60] + (b"..." if len(value) > 60 else b""))
    if isinstance(value, np.ndarray):
        return f"<array of shape {value.shape} and dtype {value.dtype}>"
    if isinstance(value, list | tuple | set | frozenset | dict):
        return _container_repr(value, depth)
    return _other_repr(value)


def _other_repr(value: Any) -> str:
    """A bounded repr of a value of another kind: a long container (a deque, whose repr
    is whole) by its size, anything else by its repr's head."""
    try:
        if isinstance(value, Sized) and len(value) > _EXCERPT_SIZED:
            return f"<{type(value).__name__} of {len(value)} items>"
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text[:200]


def _container_repr(value: Any, depth: int) -> str:
    name = type(value).__name__
    if depth <= 0:
        return f"<{name} of {len(value)}>"
    if isinstance(value, dict):
        items = [
            f"{_bounded_repr(k, 0)}: {_bounded_repr(v, depth - 1)}"
            for k, v in islice(value.items(), _EXCERPT_ITEMS)
        ]
        open_, close = "{", "}"
    else:
        if isinstance(value, set | frozenset) and not value:
            return f"{name}()"
        items = [_bounded_repr(v, depth - 1) for v in islice(value, _EXCERPT_ITEMS)]
        tuple_brackets = ("(", ",)" if len(value) == 1 else ")")
        open_, close = next((b for t, b in _BRACKETS if isinstance(value, t)), tuple_brackets)
    more = f", ... ({len(value)} items)" if len(value) > _EXCERPT_ITEMS else ""
    return open_ + ", ".join(items) + more + close


_BRACKETS = ((list, ("[", "]")), (set, ("{", "}")), (frozenset, ("frozenset({", "})")))


# --------------------------------------------------------------------------- checks


def as_int(
    value: Any,
    what: str,
    low: int | None = None,
    high: int | None = None,
    error: type[ForestGamesError] = ConfigError,
) -> int:
    """``value`` as an int in ``low..high`` (inclusive); numpy integers accepted,
    bools, floats and strings refused with ``error`` naming ``what``."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise error(f"{what} must be an int, not {excerpt(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"in {low}..{high}" if high is not None else f">= {low}"
        raise error(f"{what} must be {span}, not {excerpt(int(value))}")
    return int(value)


def as_bool(value: Any, what: str) -> bool:
    """``value`` as a bool (numpy's accepted); anything else (``"no"``, 0, None) is a
    ConfigError naming ``what``: such values would otherwise be taken by their truth."""
    if not isinstance(value, bool | np.bool_):
        raise ConfigError(f"{what} must be True or False, not {excerpt(value)}")
    return bool(value)


def as_number(
    value: Any,
    what: str,
    low: float | None = None,
    strict: bool = False,
    error: type[ForestGamesError] = ConfigError,
) -> float:
    """``value`` as a finite float, at least ``low`` (above it if ``strict``); ints,
    floats and numpy numbers accepted, bools and anything else refused with ``error``."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise error(f"{what} must be a number, not {excerpt(value)}")
    try:
        number = float(value)
    except OverflowError:  # an int beyond any float
        number = math.inf
    below = low is not None and (number <= low if strict else number < low)
    if not math.isfinite(number) or below:
        bound = "" if low is None else f" {'>' if strict else '>='} {low:g}"
        raise error(f"{what} must be a finite number{bound}, not {excerpt(value)}")
    return number


def check_seat(
    num_players: int, seat: Any, what: str = "seat", error: type[ForestGamesError] = ConfigError
) -> int:
    """``seat`` as an int seat number (0-based) of a ``num_players``-player game."""
    if isinstance(seat, bool | np.bool_) or not isinstance(seat, int | np.integer):
        raise error(f"{what} must be an int seat number, not {excerpt(seat)}")
    if not 0 <= seat < num_players:
        raise error(f"{what} {excerpt(int(seat))} is not a seat of a {num_players}-player game")
    return int(seat)


SEED_LIMIT = 2**64
"""Seeds are ints in ``0 .. SEED_LIMIT - 1`` (numpy's SeedSequence takes any of them)."""


def check_seed(seed: Any, what: str = "seed") -> int:
    """The one rule for seeds: a non-negative int below 2**64 (numpy ints accepted)."""
    return as_int(seed, what, 0, SEED_LIMIT - 1)


def resolve_seed(seed: Any, what: str = "seed") -> int:
    """``seed`` checked by :func:`check_seed`, or fresh entropy from the OS when None."""
    if seed is None:
        entropy: int = np.random.SeedSequence().entropy  # type: ignore[assignment]
        return entropy % 2**63
    return check_seed(seed, what)


def derive_seed(seed: int, *keys: int) -> int:
    """A 63-bit seed derived from ``seed`` and integer ``keys`` (stable across runs).

    ``derive_seed(run_seed, k)`` is game k's seed in a simulation: it does not
    depend on how many workers play the games.
    """
    words = np.random.SeedSequence(_entropy(seed, keys)).generate_state(2, np.uint32)
    return (int(words[0]) << 31) ^ int(words[1])


def new_rng(seed: int, *keys: int) -> np.random.Generator:
    """A numpy Generator for ``seed`` (and optional sub-stream ``keys``)."""
    return np.random.default_rng(np.random.SeedSequence(_entropy(seed, keys)))


def _entropy(seed: int, keys: tuple[int, ...]) -> list[int]:
    """``[seed, *keys]`` as the non-negative ints numpy's SeedSequence takes (numpy
    integers too); ConfigError for anything else (numpy raised its own ValueError)."""
    entropy = [seed, *keys]
    if all(type(value) is int and value >= 0 for value in entropy):  # the library's calls
        return entropy
    return [as_int(seed, "seed", 0), *(as_int(key, "a seed's key", 0) for key in keys)]


def is_list_like(value: Any) -> bool:
    """Whether ``value`` holds items to go through: an iterable, but not text, bytes, a
    mapping or a 0-d array (which numpy lets pass as iterable but cannot iterate)."""
    if isinstance(value, np.ndarray):
        return value.ndim > 0
    return isinstance(value, Iterable) and not isinstance(value, str | bytes | Mapping)


def unarray(value: Any) -> Any:
    """``value`` as a list if it is a 1-d numpy array (its numpy scalars as Python's), else
    ``value`` itself: the pure functions take arrays where they take sequences."""
    if isinstance(value, np.ndarray) and value.ndim == 1:
        return value.tolist()
    return value


def is_row(value: Any, length: int) -> bool:
    """Whether ``value`` is a tuple, list or one-dimensional array of ``length`` items."""
    if isinstance(value, np.ndarray):
        return value.ndim == 1 and len(value) == length
    return isinstance(value, tuple | list) and len(value) == length


def as_pair(value: Sequence[SupportsIndex] | npt.NDArray[np.integer[Any]]) -> tuple[int, int]:
    """Move-field converter: two ints in a list or array become a tuple (``at=[4, 5]``).

    Anything else (floats included) is kept as given, for the state to refuse
    as an illegal move (typed as two ints: what a checker should let through).
    """
    if type(value) is tuple and len(value) == 2 and type(value[0]) is type(value[1]) is int:
        return cast("tuple[int, int]", value)  # the move tables' case: thousands at once
    if is_row(value, 2):
        r, c = value
        if is_int(r) and is_int(c):
            return (int(r), int(c))
    return cast("tuple[int, int]", value)


@overload
def as_move_int(value: None) -> None: ...
@overload
def as_move_int(value: SupportsIndex) -> int: ...
def as_move_int(value: SupportsIndex | None) -> int | None:
    """Move-field converter: a numpy integer becomes an int (``value=np.int64(3)``), as
    :func:`as_pair` does for squares, so the move's id, notation and repr are those of
    the legal move it equals. Anything else (floats, bools, None) is kept as given."""
    if type(value) is int or not is_int(value):
        return cast("int | None", value)
    return int(cast("SupportsIndex", value))


def is_int(value: Any) -> bool:
    """Whether ``value`` is an int or a numpy integer, not a bool (nor numpy's)."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def frozen_array(values: Any, dtype: Any = np.int8) -> np.ndarray:
    """A read-only numpy array over immutable bytes: it cannot be made writable again.

    Tables shared between games are built with it, so no user can change the
    rules of another game by flipping ``flags.writeable``.
    """
    array = np.ascontiguousarray(values, dtype=dtype)
    frozen = np.frombuffer(array.tobytes(), dtype=array.dtype).reshape(array.shape)
    return frozen


class Sealed:
    """A plain object that becomes read-only once :meth:`_seal` is called: its attributes can
    then be neither set nor deleted (for tables shared by games or cut by a codec)."""

    __slots__ = ()

    _read_only = "these tables are read-only"
    """The AttributeError's message."""
    _sealed = False
    """Whether the object is read-only (a class may be sealed from the start)."""

    def __setattr__(self, name: str, value: object) -> None:
        if self._sealed:
            raise AttributeError(self._read_only)
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(self._read_only)

    def _seal(self) -> None:
        object.__setattr__(self, "_sealed", True)


def hidden_from(game: Any, before: Any, move: Any, player: int) -> bool:
    """Whether ``player`` did not see ``move`` (a move or its notation) made in ``before``:
    another seat's move the game keeps private (``_private_move``; a game without that
    hook hides none). ConfigError if ``game`` is not a game, ``before`` not one of its
    states or ``player`` not one of its seats; IllegalMoveError (ParseError for notation)
    if ``move`` is not one of its moves."""
    game = as_game(game)
    seat = check_seat(game.num_players, player, "player")
    if isinstance(game, GameBase):
        game._check_state(before, "hidden_from")
    elif getattr(before, "game", None) != game:
        raise ConfigError(f"hidden_from: {excerpt(before)} is not a state of {game!r}")
    if isinstance(move, str):
        move = game.parse_move(move)
    if isinstance(game, GameBase) and not isinstance(move, game.MOVE_TYPES):
        raise IllegalMoveError(f"hidden_from: {game._foreign_move(move)}")
    if not is_int(getattr(move, "player", None)):
        raise IllegalMoveError(f"hidden_from: {excerpt(move)} is not a move of a seat")
    return _hidden_from(game, before, move, seat)


def _hidden_from(game: Any, before: Any, move: Any, player: int) -> bool:
    """:func:`hidden_from` with its arguments known good (the replay pages, MCTS)."""
    private = getattr(game, "_private_move", None)
    if private is None:
        return False
    if isinstance(move, str):
        move = game.parse_move(move)
    return bool(move.player != player and private(before, move))


def _data_text(package: str, name: str) -> str:
    """The UTF-8 text of data file ``name`` shipped in ``package`` (``"data/cards.csv"``),
    read through the package's loader as importlib.resources would (from a zip too), without
    importlib.resources' own imports (tempfile, zipfile, shutil: 5-9 ms of an import)."""
    data = pkgutil.get_data(package, name)
    if data is None:  # pragma: no cover - a loader that reads no files
        raise FileNotFoundError(f"{package} cannot read its {name}")
    return data.decode("utf-8")


# --------------------------------------------------------------------------- options


def _identity(value: Any) -> Any:
    return value


@attrs.frozen
class Option:
    """One declared game option: from it come ``make``'s check, ``game.options()``,
    the error messages and the Options table of the game's docs page.

    ``default`` is a value or a function of the options read so far (in
    declaration order); ``check(value, so_far)`` returns the value to store or
    raises ConfigError, and takes that stored value back unchanged (a game built by
    its class is checked again). ``when(so_far)`` limits where the option may be given;
    ``omit_default`` leaves a default value out of ``options()``.
    """

    name: str
    default: Any
    check: Callable[[Any, Mapping[str, Any]], Any]
    kind: str
    doc: str
    default_doc: str = ""
    when: Callable[[Mapping[str, Any]], bool] | None = None
    when_doc: str = ""
    to_json: Callable[[Any], Any] = _identity
    omit_default: bool = False

    @classmethod
    def integer(cls, name: str, default: Any, low: int, high: int, doc: str, **kw: Any) -> Option:
        """An int option in ``low..high``."""
        if low > high:
            raise TypeError(f"option {name}: low {low} is above high {high}")

        def check(value: Any, _: Mapping[str, Any]) -> int:
            return as_int(value, f"option {name}", low, high)

        return cls(name, default, check, f"int {low}–{high}", doc, **kw)

    @classmethod
    def players(cls, title: str, default: int, low: int, high: int, doc: str) -> Option:
        """The ``num_players`` option of a game played by ``low`` to ``high`` seats."""

        def check(value: Any, _: Mapping[str, Any]) -> int:
            if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
                raise ConfigError(f"{title}: num_players must be an int, not {excerpt(value)}")
            if not low <= value <= high:
                raise ConfigError(
                    f"{title} is played by {low} to {high} players, not {excerpt(value)}"
                )
            return int(value)

        return cls("num_players", default, check, f"int {low}–{high}", doc)

    @classmethod
    def boolean(cls, name: str, default: bool, doc: str, **kw: Any) -> Option:
        """A True/False option."""

        def check(value: Any, _: Mapping[str, Any]) -> bool:
            return as_bool(value, f"option {name}")

        return cls(name, default, check, "bool", doc, **kw)

    @classmethod
    def choice(cls, name: str, default: Any, choices: Sequence[Any], doc: str, **kw: Any) -> Option:
        """One of ``choices`` (compared by value and type; a text choice takes any ``str``,
        numpy's ``np.str_`` too, and a tuple choice a list, as JSON reads it back)."""
        allowed = tuple(choices)
        if not allowed:
            raise TypeError(f"option {name} declares no choices")

        def check(value: Any, _: Mapping[str, Any]) -> Any:
            read_back = tuple(value) if type(value) is list else None  # JSON's tuple
            for choice in allowed:
                texts = isinstance(value, str) and isinstance(choice, str)
                if (texts or type(value) is type(choice)) and value == choice:
                    return choice
                if read_back is not None and type(choice) is tuple and read_back == choice:
                    return choice
            raise ConfigError(
                f"option {name} must be one of {', '.join(map(repr, allowed))}, "
                f"not {excerpt(value)}"
            )

        kind = " / ".join(map(repr, allowed))
        return cls(name, default, check, kind, doc, **kw)

    def default_for(self, so_far: Mapping[str, Any]) -> Any:
        """The default value given the options read so far."""
        return self.default(so_far) if callable(self.default) else self.default

    def table_row(self) -> str:
        """This option's row of the docs Options table."""
        default = self.default_doc or f"`{self.default!r}`"
        doc = self.doc + (f" ({self.when_doc})" if self.when_doc else "")
        return f"| `{self.name}` | {self.kind} | {default} | {doc} |"


def read_options(title: str, spec: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option of ``spec``: checked if given, else its default (ConfigError if bad)."""
    names = [option.name for option in spec]
    bad = [k for k in given if k not in names]
    if bad:
        unknown = ", ".join(excerpt(k, 40) for k in bad[:_EXCERPT_ITEMS])
        if len(bad) > _EXCERPT_ITEMS:  # named in bounded time and length, however many
            unknown += f" and {len(bad) - _EXCERPT_ITEMS:,} more"
        hint = did_you_mean(bad[0], names) if len(bad) == 1 else ""
        raise ConfigError(f"unknown {title} option(s) {unknown}{hint}; known: {names}")
    values: dict[str, Any] = {}
    for option in spec:
        default = option.default_for(values)
        if option.name not in given:
            values[option.name] = default
            continue
        value = option.check(given[option.name], values)
        if option.when is not None and not option.when(values) and value != default:
            raise ConfigError(
                f"option {option.name} is for {option.when_doc} only "
                f"(here only its default {default!r} is accepted)"
            )
        values[option.name] = value
    return values


def options_table(spec: Sequence[Option]) -> str:
    """The Markdown Options table of a game's docs page, made from its spec."""
    rows = [
        "| option | type | default | what it does |",
        "| --- | --- | --- | --- |",
        *(option.table_row() for option in spec),
    ]
    return "\n".join(rows)


_TRAIT_WORDS = (
    ("chance", "chance"),
    ("hidden_information", "hidden information"),
    ("out_of_turn", "out-of-turn play"),
)
_REWARDS_DOC = (
    '`reward="win"`: +1 to each winner, -1 to the others, at the end; `"score"`: '
    "each seat's change in `scores` after every move ([rl.md](rl.md))"
)


def specs_table(game_class: type[GameBase[Any, Any]]) -> str:
    """The Markdown specs table of a game's docs page, made from the game: traits, actions
    and observation of each player count's game with default options (a codec each; a game
    without integer actions raises ConfigError)."""
    first = game_class.create().traits
    counts = range(first.min_players, first.max_players + 1)
    games = [game_class.create(num_players=p) for p in counts]
    traits = [game.traits for game in games]
    kinds = [word if getattr(first, key) else f"no {word}" for key, word in _TRAIT_WORDS]
    pass_id = " (the RL environments add PASS, id `num_actions`)" if first.out_of_turn else ""
    rows = (
        ("players", _by_count(counts)),
        ("traits", "; ".join(kinds)),
        ("moves in a game, at most (`traits.max_moves`)", _by_count(t.max_moves for t in traits)),
        (
            "scores (`traits.score_range`)",
            _by_count("{}–{}".format(*t.score_range) for t in traits),
        ),
        ("actions (`num_actions`)", _by_count(g.num_actions for g in games) + pass_id),
        ("observation (`observation_shape`)", _by_count(f"`{g.observation_shape}`" for g in games)),
        ("observation type", str(games[0].new_game(seed=0).observation_tensor(0).dtype)),
        ("rewards (RL environments)", _REWARDS_DOC),
    )
    head = ["| | default options, by player count |", "| --- | --- |"]
    return "\n".join(head + [f"| {name} | {value} |" for name, value in rows])


def _by_count(values: Iterable[object]) -> str:
    """One value per player count as ``a / b / c``, or one value if they are all the same."""
    texts = [str(value) for value in values]
    return texts[0] if len(set(texts)) == 1 else " / ".join(texts)


# --------------------------------------------------------------------------- protocol


@runtime_checkable
class Move(Protocol):
    """One atomic decision by one seat. ``str(move)`` is its notation."""

    @property
    def player(self) -> int:
        """The seat making the move."""
        ...


@attrs.frozen
class GameTraits:
    """What a game is, as data (OpenSpiel-style).

    ``max_moves`` bounds the length of any legal game (a simulation may cap
    lower); ``score_range`` is the lowest and highest score a seat can end with.
    """

    name: str
    min_players: int
    max_players: int
    chance: bool
    hidden_information: bool
    out_of_turn: bool
    max_moves: int
    score_range: tuple[int, int]

    def __attrs_post_init__(self) -> None:
        """ConfigError unless the bounds are ones a run can use (a game's ``_max_moves``
        and ``_score_range`` hooks give them): an int of at least 1, two ordered numbers."""
        as_int(self.max_moves, f"{self.name}'s max_moves (its _max_moves())", 1)
        what = f"{self.name}'s score_range (its _score_range())"
        bounds = self.score_range
        if not isinstance(bounds, tuple) or len(bounds) != 2:
            raise ConfigError(f"{what} must be a (low, high) tuple, not {excerpt(bounds)}")
        low, high = (as_number(bound, what) for bound in bounds)
        if low > high:
            raise ConfigError(f"{what} must have low <= high, not {excerpt(bounds)}")


@runtime_checkable
class Game(Protocol):
    """A game with its options fixed: builds and loads states, parses moves, and numbers
    them (the integer actions raise ConfigError for a game without a codec)."""

    name: ClassVar[str]

    @property
    def num_players(self) -> int:
        """How many seats play."""
        ...

    @property
    def traits(self) -> GameTraits:
        """What the game is, as data (players, chance, hidden information, bounds)."""
        ...

    def options(self) -> dict[str, Any]:
        """Every option, given or defaulted: ``make(name, **game.options())`` is this game."""
        ...

    def new_game(self, seed: IntLike | None = None, first_player: IntLike | None = None) -> State:
        """The first position, dealt from ``seed``."""
        ...

    def parse_move(self, text: str) -> Move:
        """The move ``str(move) == text`` names (ParseError if none)."""
        ...

    def state_from_dict(self, data: Any) -> State:
        """The state ``state.to_dict() == data`` describes (StateError if none)."""
        ...

    if TYPE_CHECKING:  # typed for users; not read by isinstance (they may raise ConfigError)

        @property
        def num_actions(self) -> int:
            """The size of the fixed integer action space."""
            ...

        @property
        def observation_shape(self) -> tuple[int, ...]:
            """The shape of ``state.observation_tensor(player)``."""
            ...

        def action_id(self, move: Any) -> int:
            """``move``'s id in ``0 .. num_actions - 1``."""
            ...

        def move_from_id(self, action_id: int, player: int) -> Move:
            """The move of ``player`` with id ``action_id``."""
            ...

        @property
        def codec(self) -> Any:
            """The game's integer-action and tensor codec (each game's page documents it)."""
            ...


@runtime_checkable
class State(Protocol):
    """An immutable position (the contract every game's state follows)."""

    @property
    def game(self) -> Game:
        """The game (and options) this position belongs to."""
        ...

    @property
    def num_players(self) -> int:
        """How many seats play (the game's ``num_players``)."""
        ...

    @property
    def current_player(self) -> int | None:
        """The seat whose turn it is; None once the game is over."""
        ...

    @property
    def players_to_act(self) -> tuple[int, ...]:
        """The seats with a legal move now, the current player first."""
        ...

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        ...

    @property
    def scores(self) -> tuple[int, ...]:
        """Points so far, per seat."""
        ...

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats; () until the game is over."""
        ...

    def legal_moves(self, player: int | None = None) -> tuple[Move, ...]:
        """Every legal move of ``player`` (default: the current player), in a fixed order."""
        ...

    def apply(self, move: Any) -> Self:
        """The position after ``move`` (IllegalMoveError if it is not legal)."""
        ...

    def observation(self, player: int) -> dict[str, Any]:
        """A JSON-able dict of exactly what ``player`` may see."""
        ...

    def determinize(self, player: int, seed: int) -> Self:
        """A position ``player`` cannot tell from this one, hidden parts drawn from ``seed``."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """Everything, as JSON-able data: ``game.state_from_dict`` reads it back."""
        ...

    def render(self, player: int | None = None) -> str:
        """A text picture: the referee's view, or only what ``player`` sees."""
        ...

    if TYPE_CHECKING:  # typed for users; not read by isinstance (a game may lack them)

        def legal_action_mask(self, player: int | None = None) -> npt.NDArray[np.int8]:
            """(num_actions,) int8: 1 exactly at the ids of ``legal_moves(player)``."""
            ...

        def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
            """float32 of ``game.observation_shape``: what ``observation(player)`` shows."""
            ...

        def to_svg(self, player: int | None = None) -> str:
            """An SVG picture: the referee's view, or only what ``player`` sees."""
            ...


S = TypeVar("S", bound="StateBase[Any]")
M = TypeVar("M")

MAX_NOTATION = 200
"""Longest move text :meth:`GameBase.parse_move` reads (longer text is refused at once)."""


def _create_game(cls: Any, options: dict[str, Any]) -> Any:
    """The game of a pickle: states unpickled one at a time (sent to a worker each) share
    one game of their class and options, and so its codec's tables, built once (the last
    eight games are kept: a codec's tables are bounded, a few MB to tens of MB). Options
    that are not plain JSON (a user's tuple or enum option) give a game of their own."""
    try:
        key = json.dumps(options, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return _fresh_game(cls, options)
    if json.loads(key) != options:  # a tuple read back as a list: not the same options
        return _fresh_game(cls, options)
    return _unpickled_game(cls, key)


@functools.lru_cache(maxsize=8)
def _unpickled_game(cls: Any, options: str) -> Any:  # a game class (typed Any: hashable)
    return _fresh_game(cls, json.loads(options))


def _fresh_game(cls: type[GameBase[Any, Any]], options: dict[str, Any]) -> Any:
    """A new game of ``cls`` with ``options``, shared with nothing (an env's deep copy)."""
    return cls.create(**options)


class GameBase(Generic[S, M]):
    """The base of every game class (an attrs frozen class with ``slots=False``).

    A subclass declares, at class level: its traits as class keywords
    (``name``, ``title``, ``players=(low, high)``, ``chance``,
    ``hidden_information``, ``out_of_turn``), ``OPTIONS`` (a tuple of
    :class:`Option`, one attrs field of the same name each) and
    ``MOVE_TYPES``. It implements the hooks ``_new_game``, ``_legal_moves``,
    ``_step``, ``_state_fields`` and ``_state_from_fields``, and where it has
    them ``_explain``, ``_explain_kind``, ``_invariants``, ``_players_to_act``, ``_observe``,
    ``_determinize``, ``_scores``, ``_winners``, ``_max_moves``,
    ``_score_range``, ``_parse_move``, the renderers and ``_make_codec``.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    MOVE_TYPES: ClassVar[tuple[type, ...]] = ()
    CASES: ClassVar[tuple[dict[str, Any], ...]] = ()
    """Option sets worth checking besides each player count with defaults (the harness's)."""
    _TRAITS: ClassVar[dict[str, Any]]
    _OUT_OF_TURN: ClassVar[bool] = False

    num_players: int

    def __init_subclass__(
        cls,
        *,
        name: str | None = None,
        title: str | None = None,
        players: tuple[int, int] | None = None,
        chance: bool | None = None,
        hidden_information: bool | None = None,
        out_of_turn: bool | None = None,
        **kwargs: Any,
    ) -> None:
        """A named game class declares its traits; those it leaves out are its parent
        game's (a variant of a game keeps its chance, hidden cards and seats), else False.
        Its ``MOVE_TYPES`` must be attrs classes (the base reads and compares their fields),
        its ``OPTIONS`` of distinct names."""
        super().__init_subclass__(**kwargs)
        _take_agent_hooks(cls)
        others = [kind.__name__ for kind in cls.MOVE_TYPES if not attrs.has(kind)]
        if others:
            raise TypeError(
                f"{cls.__name__}.MOVE_TYPES must be attrs classes (@attrs.frozen), not {others}"
            )
        names = [option.name for option in cls.OPTIONS]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise TypeError(f"{cls.__name__}.OPTIONS declares {twice} twice")
        if name is None:
            return
        parent: dict[str, Any] = getattr(cls, "_TRAITS", {})
        if players is None and not parent:
            raise TypeError(f"game {name!r} must declare players=(low, high)")
        low, high = players or (parent["min_players"], parent["max_players"])
        given = dict(chance=chance, hidden_information=hidden_information, out_of_turn=out_of_turn)
        traits = {k: parent.get(k, False) if v is None else v for k, v in given.items()}
        cls.name = name
        cls.title = title or name.replace("_", " ").title()
        cls._OUT_OF_TURN = traits["out_of_turn"]
        cls._TRAITS = {"min_players": low, "max_players": high, **traits}

    # ------------------------------------------------------------------ building

    @classmethod
    def create(cls, **options: Any) -> Self:
        """The game with ``options`` (see ``OPTIONS``); ConfigError names a bad one."""
        return cls(**cls._read_options(options))

    @classmethod
    def _read_options(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option, checked if given, else its default, and the cross-option rules;
        ConfigError, naming this game, if any is bad."""
        try:
            values = read_options(cls.title, cls.OPTIONS, given)
            cls._check_options(values)
        except ConfigError as error:
            if type(error) is not ConfigError or cls.title in str(error):
                raise
            raise ConfigError(f"{cls.title}: {error}") from None  # say which game's options
        return values

    def __attrs_post_init__(self) -> None:
        """A game built by its class or by ``attrs.evolve`` rather than ``create`` is
        checked the same way, and keeps its options as the checks return them."""
        given = {option.name: getattr(self, option.name) for option in self.OPTIONS}
        for name, value in self._read_options(given).items():
            object.__setattr__(self, name, value)

    @classmethod
    def conformance_cases(cls) -> tuple[dict[str, Any], ...]:
        """Each player count with default options, then the declared ``CASES``."""
        low, high = cls._TRAITS["min_players"], cls._TRAITS["max_players"]
        return tuple({"num_players": p} for p in range(low, high + 1)) + cls.CASES

    @classmethod
    def _check_options(cls, values: dict[str, Any]) -> None:
        """Cross-option rules (hook); ConfigError if the combination is bad."""

    def options(self) -> dict[str, Any]:
        """The options that rebuild this game with ``make(name, **options)``."""
        result: dict[str, Any] = {}
        values: dict[str, Any] = {}
        for option in self.OPTIONS:
            value = values[option.name] = getattr(self, option.name)
            if option.when is not None and not option.when(values):
                continue
            if option.omit_default and _same(value, option.default_for(values)):
                continue
            result[option.name] = option.to_json(value)
        return result

    def __repr__(self) -> str:
        return f"{type(self).__name__}.create(**{self.options()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_create_game, (type(self), self.options()))

    def __setstate__(self, fields: Any) -> None:
        """Only a game pickled by a version before 0.2 comes here (a game pickles as its
        class and options): StateError, as it may not hold this version's fields."""
        raise pickled_elsewhere(f"a {type(self).__name__}", None)

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: Any) -> Self:
        return self

    @property
    def traits(self) -> GameTraits:
        """Players, chance, hidden information, out-of-turn play, length and score bounds."""
        return GameTraits(
            self.name, **self._TRAITS, max_moves=self._max_moves(), score_range=self._score_range()
        )

    def _max_moves(self) -> int:  # pragma: no cover - every game overrides
        raise NotImplementedError(_missing_hook(self, "_max_moves()"))

    def _score_range(self) -> tuple[int, int]:  # pragma: no cover - every game overrides
        raise NotImplementedError(_missing_hook(self, "_score_range()"))

    # ------------------------------------------------------------------ new games and notation

    def new_game(self, seed: IntLike | None = None, first_player: IntLike | None = None) -> S:
        """The first state; the same ``seed`` and moves give the same states.

        ``first_player`` is the start seat; None draws it from ``seed``.
        """
        seed = resolve_seed(seed)
        if first_player is not None:
            first_player = check_seat(self.num_players, first_player, "first_player")
        return self._new_game(seed, first_player)

    def _new_game(self, seed: int, first_player: int | None) -> S:  # pragma: no cover
        raise NotImplementedError(_missing_hook(self, "_new_game(seed, first_player)"))

    def parse_move(self, text: str) -> M:
        """The move written as ``text``; ParseError if it is not this game's notation.

        Parsing checks the notation only; whether the move is legal is the state's call.
        """
        if not isinstance(text, str):
            raise ParseError(f"a {self.title} move is text, not {excerpt(text)}")
        if len(text) > MAX_NOTATION or not text.isascii():
            raise ParseError(f"{excerpt(text)} is not a {self.title} move (ASCII notation only)")
        text = text.strip()
        try:
            return self._parse_move(text)
        except ParseError as error:
            if not self._parses(f"0:{text}"):  # more than the seat is wrong (or not missing)
                raise
            raise ParseError(f"{error} (a move starts with its seat, e.g. '0:{text}')") from None

    def _parses(self, text: str) -> bool:
        """Whether ``text`` is this game's notation."""
        try:
            self._parse_move(text)
        except ParseError:
            return False
        return True

    def _parse_move(self, text: str) -> M:  # pragma: no cover - every game overrides
        raise NotImplementedError(_missing_hook(self, "_parse_move(text)"))

    # ------------------------------------------------------------------ rules hooks

    def _legal_moves(self, state: S, player: int) -> tuple[M, ...]:  # pragma: no cover
        raise NotImplementedError(_missing_hook(self, "_legal_moves(state, player)"))

    def _step(self, state: S, move: M) -> S:  # pragma: no cover - every game overrides
        raise NotImplementedError(_missing_hook(self, "_step(state, move)"))

    def _players_to_act(self, state: S) -> tuple[int, ...]:
        """Seats with a legal move now, the current one first (out-of-turn games override)."""
        current = state.current_player
        return () if current is None else (current,)

    def _scores(self, state: S) -> tuple[int, ...]:  # pragma: no cover - every game overrides
        raise NotImplementedError(_missing_hook(self, "_scores(state)"))

    def _winners(self, state: S) -> tuple[int, ...]:  # pragma: no cover - every game overrides
        raise NotImplementedError(_missing_hook(self, "_winners(state)"))

    def _index_hint(self, state: S, move: Any) -> int | None:
        """Where ``move`` would stand in its seat's long legal list, if the game can say
        cheaply (hook: the base then checks that very entry by identity, no search)."""
        return None

    def _step_name(self, state: S) -> str:
        """What the acting seat is deciding, in a word (for messages)."""
        return "current"

    def _explain(self, state: S, move: Any) -> str | None:
        """Why ``move`` (of this game, by a seat that may act, with well-formed
        fields) is illegal, from the rule helpers the legal moves come from."""
        return None

    def _explain_kind(self, state: S, move: Any) -> str | None:
        """Why no move of ``move``'s kind is legal now (hook, for games whose steps
        mix kinds: the rule that rules the kind out; its fields may be malformed).
        None: the base names the kinds that are legal."""
        return None

    # ------------------------------------------------------------------ information

    def _observe(self, state: S, player: int) -> dict[str, Any]:
        """What ``player`` sees (hook): everything, by default."""
        return {"observer": player, **self.state_to_dict(state)}

    def _determinize(self, state: S, player: int, seed: int) -> S:
        """A state ``player`` cannot tell from ``state`` (hook): itself, by default."""
        return state

    def _seat_view(self, state: S, player: int) -> S:
        """``state`` as ``player`` knows it (hook, for games whose seats do not see every
        move at once): the position itself, by default."""
        return state

    def _private_move(self, state: S, move: M) -> bool:
        """Whether ``move``, made in ``state``, is seen by its own seat only (hook: the
        OpenSpiel history and the replay pages keep it from the others). Every move is
        seen by every seat, by default."""
        return False

    # ------------------------------------------------------------------ saved states

    @functools.cached_property
    def _schema(self) -> StateSchema:
        from forestgames.schema import Const, Field, StateSchema

        head = (
            Field("game", Const(self.name), lambda s: self.name),
            Field("num_players", Const(self.num_players), lambda s: self.num_players),
        )
        return StateSchema(self.title, head + tuple(self._state_fields()))

    def _state_fields(self) -> Sequence[Field]:  # pragma: no cover - every game overrides
        raise NotImplementedError(_missing_hook(self, "_state_fields()"))

    def _state_from_fields(self, fields: dict[str, Any]) -> S:  # pragma: no cover
        raise NotImplementedError(_missing_hook(self, "_state_from_fields(fields)"))

    @functools.cached_property
    def _observation_schema(self) -> Spec:
        """What an ``observation(seat)`` dict holds: its keys, each value's type and range."""
        from forestgames.schema import Int, Record

        seat = Int(0, self.num_players - 1)
        return Record({"observer": seat, **self._observation_fields()})

    def _observation_fields(self) -> Mapping[str, Spec]:
        """The specs of an observation's keys besides ``observer`` (hook): a saved state's,
        for a game that hides nothing."""
        return {field.key: field.spec for field in self._schema.fields}

    def _invariants(self) -> Sequence[Callable[[S], None]]:
        """Named cross-field checks a loaded state must pass (each raises StateError)."""
        return ()

    def state_to_dict(self, state: S) -> dict[str, Any]:
        """The JSON-able form of ``state`` (``state.to_dict()``); ConfigError if it is not a
        state of this game."""
        return self._schema.write(self._check_state(state, "state_to_dict"))

    def state_from_dict(self, data: Any) -> S:
        """The state ``data`` describes (from ``to_dict``); StateError if it is malformed
        or is not a position the rules could reach, as far as the state shows."""
        if isinstance(data, dict) and "game" in data and not _same(data["game"], self.name):
            raise StateError(f"not a {self.title} state: game is {excerpt(data['game'])}")
        if isinstance(data, dict) and not _same(
            data.get("num_players", self.num_players), self.num_players
        ):
            raise StateError(
                f"state is for {excerpt(data['num_players'])} players, "
                f"the game for {self.num_players}"
            )
        fields = self._schema.read(data)
        state = self._state_from_fields(fields)
        for check in self._invariants():
            check(state)
        return state

    # ------------------------------------------------------------------ agents' hooks

    search_iterations: ClassVar[int] = 400
    """MCTS's default iterations a decision here (``mcts`` with no budget): as many as
    keep a decision well under a second; a game whose search needs more raises it."""

    # A game overrides ``evaluate_moves``, ``position_value`` and ``chance_outcome`` with
    # its heuristic; the base keeps each override as the unchecked hook ``_evaluate_moves``
    # (and so on), which the agents call, and puts the same function behind the base's
    # argument checks under the public name (see ``_take_agent_hooks``). The base's public
    # methods run the base's own defaults (an override's ``super()`` call lands here).

    def evaluate_moves(self, state: S, moves: Sequence[M]) -> np.ndarray:
        """Each seat's estimated score right after each of ``moves`` (M, P): legal moves of
        one seat in ``state``. ConfigError if ``state`` is not a state of this game,
        IllegalMoveError if a move is not one of its legal moves.

        The default applies each move and reads :meth:`position_value`;
        games with a batched heuristic override it.
        """
        return GameBase._evaluate_moves(self, state, self._evaluate_args(state, moves))

    def position_value(self, state: S) -> np.ndarray:
        """Each seat's estimated score in ``state`` (P,): ``state.scores`` by default.
        ConfigError if ``state`` is not a state of this game."""
        return GameBase._position_value(self, self._check_state(state, "position_value"))

    def chance_outcome(self, before: S, move: M, after: S) -> Hashable | None:
        """What chance decided when ``move`` took ``before`` to ``after``, as every seat saw
        it (a card turned face up), or None where the move's result follows from the
        position alone (hook: None by default). Search trees branch on it, so that a
        decision after a reveal is taken for the card revealed. ConfigError if ``before``
        or ``after`` is not a state of this game, IllegalMoveError if ``move`` is not legal
        in ``before``."""
        return GameBase._chance_outcome(self, before, self._chance_args(before, move, after), after)

    def _evaluate_moves(self, state: S, moves: Sequence[M]) -> np.ndarray:
        values = [self._position_value(state.apply(m)) for m in moves]
        if not values:
            return np.zeros((0, self.num_players), np.float64)
        try:  # checked at once (a game's own position value may return anything)
            return _estimates(values, (len(moves), self.num_players), self, "position value")
        except ConfigError:
            for value in values:  # the first bad one named as it was returned
                _estimates(value, (self.num_players,), self, "position value")
            raise

    def _position_value(self, state: S) -> np.ndarray:
        return np.asarray(state.scores, dtype=np.float64)

    def _chance_outcome(self, before: S, move: M, after: S) -> Hashable | None:
        return None

    def _evaluate_args(self, state: Any, moves: Any) -> tuple[M, ...]:
        """``evaluate_moves``' arguments checked: ``moves`` as ``state``'s legal moves."""
        return self._check_moves(self._check_state(state, "evaluate_moves"), moves)

    def _chance_args(self, before: Any, move: Any, after: Any) -> M:
        """``chance_outcome``'s arguments checked: ``move`` as ``before``'s legal move."""
        self._check_state(after, "chance_outcome")
        (move,) = self._check_moves(self._check_state(before, "chance_outcome"), (move,))
        return move  # type: ignore[no-any-return]

    def _check_state(self, state: Any, what: str) -> S:
        """``state`` if it is a state of this game; ConfigError naming it otherwise."""
        game = getattr(state, "game", None) if isinstance(state, StateBase) else None
        if game is not self and game != self:
            raise ConfigError(f"{what}: {excerpt(state)} is not a state of {self!r}")
        return state  # type: ignore[no-any-return]

    def _check_moves(self, state: S, moves: Any) -> tuple[M, ...]:
        """``moves`` as the tuple of ``state``'s legal moves they are, all of one seat;
        IllegalMoveError for the first that is not one."""
        if isinstance(moves, str | bytes | Mapping) or not isinstance(moves, Sequence):
            raise IllegalMoveError(f"moves must be a sequence of moves, not {excerpt(moves)}")
        checked = _legal_forms(state, moves)
        if len({m.player for m in checked}) > 1:
            raise IllegalMoveError(f"moves must all be of one seat: {excerpt(list(moves))}")
        return checked

    # ------------------------------------------------------------------ pictures

    def _render_text(self, state: S, player: int | None) -> str:
        """A one-line text picture (games draw their own): the scores and whose turn."""
        if state.is_terminal:
            turn = game_over(state.winners, state.game.num_players)
        else:
            turn = f"seat {state.current_player} to move"
        return f"{self.title}: scores {list(state.scores)}, {turn}"

    def _render_svg(self, state: S, player: int | None) -> str:
        raise ConfigError(f"{self.title} has no SVG picture yet")

    @property
    def _draws_svg(self) -> bool:
        """Whether the game draws SVG pictures (a game of one's own need not)."""
        return type(self)._render_svg is not GameBase._render_svg

    # ------------------------------------------------------------------ integer actions

    @functools.cached_property
    def codec(self) -> Any:
        """The game's integer-action and tensor codec (built once per game, under a lock:
        Python 3.12's cached_property has none, so threads sharing a fresh game each built
        one, a second for an Expert Boom Bokken of huge decks)."""
        with _CODEC_LOCK:
            built = self.__dict__.get("codec")  # by a thread this one waited for
            return built if built is not None else self._make_codec()

    def _make_codec(self) -> Any:
        raise ConfigError(f"{self.title} has no integer action codec")

    @property
    def num_actions(self) -> int:
        """The size of the fixed integer action space for these options."""
        return int(self.codec.num_actions)

    def action_id(self, move: M) -> int:
        """``move``'s id in ``0 .. num_actions - 1`` (the seat is not part of it);
        IllegalMoveError if it has none (a move of another game, or of a seat not in this one:
        some ids are relative to the mover)."""
        if not isinstance(move, self.MOVE_TYPES):
            raise IllegalMoveError(f"{self._foreign_move(move)}; it has no action id")
        player = getattr(move, "player", None)
        if type(player) is not int or not 0 <= player < self.num_players:
            check_seat(self.num_players, player, "move's player", IllegalMoveError)
        return int(self.codec.action_id(move))

    def move_from_id(self, action_id: int, player: int) -> M:
        """The move of ``player`` with id ``action_id``; IllegalMoveError if out of range."""
        player = check_seat(self.num_players, player, "player", IllegalMoveError)
        return self.codec.move_from_id(action_id, player)  # type: ignore[no-any-return]

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of ``state.observation_tensor(player)``."""
        return tuple(self.codec.observation_shape)

    # ------------------------------------------------------------------ moves

    def _describe_illegal(self, state: S, move: Any) -> str:
        """The message of an IllegalMoveError for ``move`` in ``state`` (known illegal)."""
        text = describe_move(move)
        if not isinstance(move, self.MOVE_TYPES):
            return self._foreign_move(move)
        seat = getattr(move, "player", None)
        try:
            player = check_seat(self.num_players, seat, "player", IllegalMoveError)
        except IllegalMoveError:
            return f"{text}: seat {excerpt(seat)} is not in this game ({self.num_players} players)"
        if state.is_terminal:
            return f"{text}: the game is over"
        moves = state.legal_moves(player)
        if not moves:
            return self._not_acting(state, text, player)
        same_kind = [m for m in moves if type(m) is type(move)]
        if not same_kind:
            return self._explain_kind(state, move) or self._wrong_kind(state, text, moves)
        bad = _malformed_field(move, same_kind)
        if bad is not None:
            return f"{text}: {bad}"
        return self._explain(state, move) or f"{text} is not legal now"

    def _foreign_move(self, move: Any) -> str:
        """What ``move``, of none of this game's move classes, is instead."""
        text = describe_move(move)
        if isinstance(move, str):
            return (
                f"{text} is a string, not a {self.title} move: game.parse_move(text) turns "
                "notation into a move"
            )
        if is_int(move):
            return (
                f"{text} is not a {self.title} move: for an action id, "
                "game.move_from_id(action_id, player) gives its move"
            )
        if move is None or not _has_static(move, "player") or not self.MOVE_TYPES:
            return f"{text} is not a {self.title} move"
        kinds = ", ".join(kind.__name__ for kind in self.MOVE_TYPES)
        kind = type(move).__name__
        article = "an" if kind[:1].lower() in "aeiou" else "a"
        return f"{text} is {article} {kind}, not a {self.title} move (one of {kinds})"

    def _wrong_kind(self, state: S, text: str, moves: Sequence[Any]) -> str:
        kinds = " or ".join(sorted({type(m).__name__ for m in moves}))
        article = "an" if kinds[:1] in tuple("AEIOU") else "a"
        return f"{text}: in the {self._step_name(state)} step the move is {article} {kinds}"

    def _not_acting(self, state: S, text: str, player: int) -> str:
        acting = state.players_to_act
        current = state.current_player
        if current is not None and player != current:
            return f"{text}: it is seat {current}'s turn, not seat {player}'s"
        return f"{text}: seat {player} may not act now (seats {list(acting)} may)"


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(a, b))
    return bool(a == b)


def _has_static(value: Any, name: str) -> bool:
    """Whether ``value`` has attribute ``name``, found without running its code (a property
    or ``__getattr__`` of a user's object may raise anything)."""
    return inspect.getattr_static(value, name, None) is not None


def describe_move(move: Any) -> str:
    """``str(move)`` if the move can say it, else a bounded repr (for messages)."""
    try:
        own_str = type(move).__str__ is not object.__str__  # type: ignore[comparison-overlap]
        text = str(move) if own_str else excerpt(move)
    except Exception:
        text = excerpt(move)
    return text if len(text) <= 120 else text[:117] + "..."


_VERB = re.compile(r"\s*\d{1,3}:\s*([A-Za-z]{1,20})")


def notation_error(
    title: str, text: str, examples: Sequence[str], forms: Mapping[str, str], seat: str = "seat"
) -> ParseError:
    """The ParseError for ``text``, which is not a ``title`` move: how its kind of move is
    written when it starts with a seat and a known verb (``forms``: verb -> written form,
    e.g. ``"'S:plant V@R,C' (V 1..4)"``; ``seat`` says what S is), else a few ``examples``
    of every kind."""
    match = _VERB.match(text)
    verb = match.group(1).lower() if match else ""
    form = forms.get(verb)
    if form is not None:
        article = "an" if verb[:1] in "aeiou" else "a"
        return ParseError(
            f"{excerpt(text)} is not a {title} move: {article} {verb!r} move (S the {seat}) is "
            f"written {form}"
        )
    quoted = [f"'{example}'" for example in examples]
    if len(quoted) > 1:
        quoted = [", ".join(quoted[:-1]) + " or " + quoted[-1]]
    expected = f"; expected e.g. {quoted[0]}" if quoted else ""
    return ParseError(f"{excerpt(text)} is not a {title} move{expected}")


def notation(method: Callable[[Any], str]) -> Callable[[Any], str]:
    """Decorates a move class's ``__str__``: a malformed move (a field no legal move has, such
    as ``at=None`` or a 5000-digit int, kept for ``apply`` to refuse) is written as its class
    and bounded field values instead of raising, and so is a move with a field too large to
    write out in bounded time (see :func:`_writable`)."""

    @functools.wraps(method)
    def text(move: Any) -> str:
        if _all_writable(move):
            try:
                return method(move)
            except (TypeError, ValueError, IndexError, KeyError, AttributeError, RecursionError):
                pass
        fields = attrs.fields(type(move))
        shown = ", ".join(f"{f.name}={excerpt(getattr(move, f.name), 30)}" for f in fields)
        return f"{type(move).__name__}({shown})"

    return text


def _all_writable(move: Any) -> bool:
    """Whether every field of ``move`` is small enough to write out whole (see
    :func:`_writable`; ints, bools, None and short strings are told at once)."""
    cls: Any = type(move)  # hashable (a type, to mypy, is not)
    for value in _field_getter(cls)(move):
        kind = type(value)
        if kind is int or kind is bool or value is None:
            continue
        if not (kind is str and len(value) <= MAX_NOTATION) and not _writable(value):
            return False
    return True


@functools.cache
def _field_getter(cls: type) -> Callable[[Any], Sequence[Any]]:
    """The values of an attrs class's fields, in order, as a sequence (none for a class
    of another kind)."""
    names = [field.name for field in attrs.fields(cls)] if attrs.has(cls) else []
    if not names:
        return lambda obj: ()
    getter = operator.attrgetter(*names)
    return getter if len(names) > 1 else lambda obj: (getter(obj),)


def _writable(value: Any, depth: int = 0) -> bool:
    """Whether a move field's value is small enough to write out whole: no string or
    container of more than :data:`MAX_NOTATION` characters or items, nor containers three
    deep (writing a field of millions of items took seconds, one nested thousands deep
    raised RecursionError; no legal move has such a field)."""
    if type(value) is tuple and len(value) <= MAX_NOTATION and all(map(_is_scalar, value)):
        return True  # a square, or a play's cards: the usual case, told fast
    if isinstance(value, str | bytes | bytearray):
        return len(value) <= MAX_NOTATION
    if isinstance(value, np.ndarray):
        return value.size <= MAX_NOTATION
    if isinstance(value, list | tuple | set | frozenset | dict):
        return (
            depth < 2 and len(value) <= MAX_NOTATION and all(_writable(v, depth + 1) for v in value)
        )
    return not isinstance(value, Sized) or _small_size(value)


def _is_scalar(value: Any) -> bool:
    """Whether ``value`` is an int, a bool, None or a string of at most 64 characters."""
    kind = type(value)
    return kind is int or kind is bool or value is None or (kind is str and len(value) <= 64)


def _small_size(value: Sized) -> bool:
    """Whether ``value`` (a sized object of another kind, a deque say) has at most
    :data:`MAX_NOTATION` items (False if its ``len`` fails)."""
    try:
        return len(value) <= MAX_NOTATION
    except Exception:
        return False


def _form(value: Any, nested: bool = False) -> Any:
    """The shape class of a move field's value: int, str, bool, None, enum or tuple of those
    (a tuple in a tuple is never a legal field: not looked into, however deep it nests; nor
    is one of more items than a move's notation has characters, but a Boom Bokken play of
    198 cards is legal)."""
    if isinstance(value, bool | np.bool_):
        return bool
    if isinstance(value, int | np.integer):
        return int if -(2**63) <= value < 2**63 else object
    if isinstance(value, str):
        return type(value) if len(value) <= MAX_NOTATION else None
    if value is None:
        return type(None)
    if isinstance(value, tuple) and len(value) <= MAX_NOTATION and not nested:
        return tuple(_form(v, True) for v in value)
    return object  # anything else is never a legal field


def _never_legal(form: Any) -> bool:
    """Whether a field of this form (see :func:`_form`) is never a legal move's."""
    return form is object or (isinstance(form, tuple) and any(map(_never_legal, form)))


def _same_forms(move: Any, legal: Any) -> bool:
    """Whether every field of ``move`` has the form of ``legal``'s (an equal move with a
    float, a bool or an array where the legal one has an int is not excused)."""
    return all(
        _form(getattr(move, f.name)) == _form(getattr(legal, f.name))
        for f in attrs.fields(type(move))
    )


def _malformed_field(move: Any, legal: Sequence[Any]) -> str | None:
    """The first field of ``move`` whose form no legal move of its kind has."""
    for field in attrs.fields(type(move)):
        value = getattr(move, field.name)
        form = _form(value)
        if form is object or all(form != _form(getattr(m, field.name)) for m in legal):
            example = excerpt(getattr(legal[0], field.name), 30)
            return (
                f"field {field.name} = {excerpt(value)} is not of the right form "
                f"(a legal one: {field.name} = {example})"
            )
    return None


# --------------------------------------------------------------------------- states


class StateBase(Generic[M]):
    """The base of every game's state (an attrs frozen class with ``slots=False``).

    A subclass holds its game (field ``game``) and the position as data, with
    read-only properties; it provides ``current_player`` and ``is_terminal``.
    Everything else hands over to the game's hooks. ``_memo`` is the state's
    one cache (legal moves per seat, and what the game keeps beside them); it
    is not part of the state: not compared, hashed, copied or pickled.
    """

    __slots__ = ("_memo",)

    game: Any
    _memo: dict[Any, Any]

    def __attrs_post_init__(self) -> None:
        _set_memo(self, {})

    # ------------------------------------------------------------------ who acts
    # Every state provides ``current_player`` (the seat the game waits for; None once
    # the game is over) and ``is_terminal``: as properties, or as plain attributes its
    # transitions keep up to date (cheaper to read on the hot path).

    if TYPE_CHECKING:

        @property
        def current_player(self) -> int | None: ...

        @property
        def is_terminal(self) -> bool: ...

    @property
    def num_players(self) -> int:
        """How many seats play (the game's ``num_players``)."""
        return int(self.game.num_players)

    @property
    def players_to_act(self) -> tuple[int, ...]:
        """Seats with a legal move now, the current player first."""
        if self.game._OUT_OF_TURN:
            return self.game._players_to_act(self)  # type: ignore[no-any-return]
        current = self.current_player
        return () if current is None else (current,)

    def _seat(self, player: Any, what: str = "player") -> int:
        """``player`` checked as a seat of this game (IllegalMoveError if it is not)."""
        return check_seat(self.game.num_players, player, what, IllegalMoveError)

    # ------------------------------------------------------------------ moves

    def legal_moves(self, player: int | None = None) -> tuple[M, ...]:
        """Every legal move now in a fixed order: of the current player, or of ``player``."""
        if type(player) is not int:  # before the memo, which 0.0 and True hit (0.0 == 0)
            if player is None:
                player = self.current_player
                if player is None:
                    return ()
            else:
                player = check_seat(self.game.num_players, player, "player", IllegalMoveError)
        try:
            return self._memo[player]  # type: ignore[no-any-return]
        except AttributeError:
            _set_memo(self, {})
        except KeyError:
            pass
        if not 0 <= player < self.game.num_players:  # an int that is no seat (never kept)
            player = check_seat(self.game.num_players, player, "player", IllegalMoveError)
        moves = () if self.is_terminal else self.game._legal_moves(self, player)
        self._memo[player] = moves
        return moves

    def apply(self, move: M) -> Self:
        """The state after ``move``; IllegalMoveError (and nothing changes) if it is illegal."""
        if self._is_own_move(move):
            return self.game._step(self, move)  # type: ignore[no-any-return]
        return self._apply_checked(move)

    def _is_own_move(self, move: Any) -> bool:
        """Whether ``move`` is one of this state's own legal move objects (by identity:
        the list its seat was given, at the game's hint first when it is long, through a
        set of its objects' ids when it is huge)."""
        try:
            moves = self._memo[move.player]
            if len(moves) > _LONG:
                at = self.game._index_hint(self, move)
                if at is not None and at < len(moves) and moves[at] is move:
                    return True
                if len(moves) > _HUGE:
                    return id(move) in self._ids_of_moves(move.player, moves)
            return any(map(operator.is_, moves, repeat(move)))
        except Exception:  # a malformed move (or a user object's raising attribute)
            return False  # the checked path says what is wrong

    def _ids_of_moves(self, player: int, moves: tuple[M, ...]) -> frozenset[int]:
        """The ids of ``moves``, ``player``'s legal move objects, kept in the memo with the
        very tuple they come from (which keeps its objects, so no id names another): a
        search of a huge list for each move applied was quadratic in its length."""
        key = ("move ids", player)
        kept = self._memo.get(key)
        if kept is None or kept[0] is not moves:
            kept = self._memo[key] = (moves, frozenset(map(id, moves)))
        return kept[1]

    def _apply_legal(self, move: M) -> Self:
        """The state after ``move``, which the caller has already shown legal: one of this
        state's ids in its exact action mask, decoded to the engine's own move object (the
        environments' step). No second check."""
        return self.game._step(self, move)  # type: ignore[no-any-return]

    def _apply_checked(self, move: Any) -> Self:
        return self.game._step(self, self._legal_form(move))  # type: ignore[no-any-return]

    def _legal_form(self, move: Any) -> M:
        """The legal move object equal to ``move``; IllegalMoveError saying why if none is."""
        game = self.game
        if isinstance(move, game.MOVE_TYPES) and not self.is_terminal:
            player: Any = getattr(move, "player", None)
            if is_int(player) and 0 <= player < game.num_players:
                moves = self.legal_moves(player)  # known now, so _is_own_move can look
                canonical = move if self._is_own_move(move) else _find(moves, move)
                if canonical is not None and (canonical is move or _same_forms(move, canonical)):
                    return canonical  # type: ignore[no-any-return]
        raise IllegalMoveError(game._describe_illegal(self, move))

    # ------------------------------------------------------------------ results

    @property
    def scores(self) -> tuple[int, ...]:
        """Points so far per seat."""
        return self.game._scores(self)  # type: ignore[no-any-return]

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over, () until then."""
        return self.game._winners(self) if self.is_terminal else ()

    # ------------------------------------------------------------------ information

    def observation(self, player: int) -> dict[str, Any]:
        """A JSON-able dict of exactly what ``player`` may see."""
        seat = check_seat(self.game.num_players, player, "player", IllegalMoveError)
        return self.game._observe(self, seat)  # type: ignore[no-any-return]

    def determinize(self, player: int, seed: int) -> Self:
        """A state consistent with everything ``player`` sees, the hidden part drawn by ``seed``."""
        seat = check_seat(self.game.num_players, player, "player", IllegalMoveError)
        return self.game._determinize(self, seat, check_seed(seed))  # type: ignore[no-any-return]

    def legal_action_mask(self, player: int | None = None) -> npt.NDArray[np.int8]:
        """(num_actions,) int8: 1 exactly at the ids of ``legal_moves(player)``."""
        if player is not None:
            player = check_seat(self.game.num_players, player, "player", IllegalMoveError)
        return self.game.codec.mask(self, player)  # type: ignore[no-any-return]

    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """float32 of ``game.observation_shape``: exactly what ``observation(player)`` shows."""
        seat = check_seat(self.game.num_players, player, "player", IllegalMoveError)
        return self.game.codec.tensor(self, seat)  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ saving and pictures

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict; ``game.state_from_dict`` rebuilds this exact state."""
        return self.game.state_to_dict(self)  # type: ignore[no-any-return]

    def render(self, player: int | None = None) -> str:
        """A text picture: the referee's view, or only what ``player`` sees."""
        if player is not None:
            player = check_seat(self.game.num_players, player, "player", IllegalMoveError)
        return self.game._render_text(self, player)  # type: ignore[no-any-return]

    def to_svg(self, player: int | None = None) -> str:
        """An SVG picture: the referee's view, or only what ``player`` sees."""
        if player is not None:
            player = check_seat(self.game.num_players, player, "player", IllegalMoveError)
        return self.game._render_svg(self, player)  # type: ignore[no-any-return]

    def _repr_svg_(self) -> str | None:
        """The SVG picture for notebooks; None (text then) if the game draws none."""
        return self.to_svg() if self.game._draws_svg else None

    # ------------------------------------------------------------------ copying

    def _primed(self, player: int, moves: tuple[M, ...]) -> Self:
        """This (new) state, told ``player``'s legal moves, which the transition already knows."""
        self._memo[player] = moves
        return self

    def _evolve(self, **changes: Any) -> Self:
        """This state with ``changes`` (field names), fast: no checks, no cache.

        The copy is made with ``dict()``, not ``.copy()``: a state built by its ``__init__``
        keeps its fields in a split (key-sharing) dict, whose ``.copy()`` is split again, and
        CPython 3.11 cannot specialise attribute reads on instances with a split ``__dict__``
        (``LOAD_ATTR_WITH_HINT`` deoptimises every time), so every state of a game read its
        fields the slow way. ``dict()`` makes a combined dict, and later copies stay combined.
        """
        new = object.__new__(type(self))
        fields = dict(self.__dict__)
        fields.update(changes)
        object.__setattr__(new, "__dict__", fields)
        _set_memo(new, {})
        return new

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: Any) -> Self:
        return self

    def __getstate__(self) -> tuple[str, dict[str, Any]]:
        return (__version__, self.__dict__)

    def __setstate__(self, pickled: Any) -> None:
        """A state pickled by this version; StateError for another version's (its fields
        may not be this version's: save a state with ``to_dict`` or a GameRecord)."""
        if not (isinstance(pickled, tuple) and len(pickled) == 2 and pickled[0] == __version__):
            version = pickled[0] if isinstance(pickled, tuple) and pickled else None
            raise pickled_elsewhere(f"a {type(self).__name__}", version)
        object.__setattr__(self, "__dict__", pickled[1])
        _set_memo(self, {})


def pickled_elsewhere(what: str, version: Any) -> StateError:
    """The error for ``what`` unpickled here but pickled by forestgames ``version`` (None:
    a version before 0.2, which wrote none)."""
    by = f"forestgames {version[:20]!s}" if isinstance(version, str) else "an earlier version"
    return StateError(
        f"{what} pickled by {by} cannot be read by forestgames {__version__}: pickles are "
        "read by the version that wrote them (carry states across versions with to_dict "
        "and games with a GameRecord)"
    )


_CODEC_LOCK = threading.Lock()
"""Held while a game's codec is built (one game's at a time)."""

_LONG = 32
"""Legal move lists longer than this are searched at the game's hint first."""

_HUGE = 1024
"""Legal move lists longer than this are searched through a set of their objects' ids."""

_set_memo = StateBase._memo.__set__  # type: ignore[attr-defined,misc]


AGENT_HOOKS = ("evaluate_moves", "position_value", "chance_outcome")
"""The agents' hooks a game overrides by their public names (see :class:`GameBase`)."""


def _take_agent_hooks(cls: type) -> None:
    """Keep a game class's own agents' hooks as the unchecked ``_evaluate_moves`` (and so
    on), which the agents call, and put under the public name that very function behind
    the base's checks (so an override that calls ``super().evaluate_moves`` reaches its
    parent's own hook, never itself)."""
    for hook in AGENT_HOOKS:
        own = cls.__dict__.get(hook)
        if own is not None and not getattr(own, "_checked_hook", False):
            setattr(cls, f"_{hook}", own)
            checked = _CHECKED_HOOKS[hook](own)
            checked.__doc__ = own.__doc__ or getattr(GameBase, hook).__doc__  # for help()
            setattr(cls, hook, checked)


def _checked_evaluate_moves(own: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(own)
    def evaluate_moves(self: Any, state: Any, moves: Any) -> Any:
        return own(self, state, self._evaluate_args(state, moves))

    return _mark_checked(evaluate_moves)


def _checked_position_value(own: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(own)
    def position_value(self: Any, state: Any) -> Any:
        return own(self, self._check_state(state, "position_value"))

    return _mark_checked(position_value)


def _checked_chance_outcome(own: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(own)
    def chance_outcome(self: Any, before: Any, move: Any, after: Any) -> Any:
        return own(self, before, self._chance_args(before, move, after), after)

    return _mark_checked(chance_outcome)


def _mark_checked(method: Callable[..., Any]) -> Callable[..., Any]:
    method._checked_hook = True  # type: ignore[attr-defined]
    return method


_CHECKED_HOOKS = {
    "evaluate_moves": _checked_evaluate_moves,
    "position_value": _checked_position_value,
    "chance_outcome": _checked_chance_outcome,
}


def _legal_forms(state: Any, moves: Sequence[Any]) -> tuple[Any, ...]:
    """The legal move object each of ``moves`` is (IllegalMoveError for one that is none):
    the state's own move objects at once, any other through ``_legal_form``."""
    player = getattr(moves[0], "player", None) if moves else None
    legal = state.legal_moves(player) if is_int(player) else ()
    if moves is legal or set(map(id, legal)).issuperset(map(id, moves)):
        return tuple(moves)  # the state's own move objects (the usual call)
    return tuple(map(state._legal_form, moves))


def _find(moves: tuple[Any, ...], move: Any) -> Any | None:
    """The legal move equal to ``move`` (the one to apply), or None. (The move itself is
    looked for first by ``_is_own_move``, at the game's hint.) A move with a field no legal
    move can have (an array, a float) is not compared: numpy would compare an array field
    element by element (an empty one warns before numpy 2.2, then raises)."""
    if any(_never_legal(_form(getattr(move, f.name))) for f in attrs.fields(type(move))):
        return None
    try:
        index = moves.index(move)
    except (ValueError, TypeError):
        return None
    return moves[index]


# --------------------------------------------------------------------------- registry

_REGISTRY: dict[str, Callable[..., Any]] = {}


GAME_NAME = re.compile(r"[a-z][a-z0-9_]*")
"""What a registered game's name looks like (it names files, ids and OpenSpiel games)."""


def register_game(name: str, factory: Callable[..., Any], *, replace: bool = False) -> None:
    """Make ``make(name, **options)`` build a game with ``factory(**options)``.

    ConfigError if ``name`` is not lower-case letters, digits and ``_``, if ``factory``
    is not callable, or if ``name`` is taken by another class's factory (``replace=True``
    to replace it; the same class registering again, from a module run twice, replaces
    itself). A game class given as the factory is built by its ``create``, which checks
    the options (its constructor would take unknown ones as a TypeError)."""
    if not isinstance(name, str) or not GAME_NAME.fullmatch(name):
        raise ConfigError(
            f"a game's name is lower-case letters, digits and '_' (a letter first), "
            f"not {excerpt(name)}"
        )
    if not callable(factory):
        raise ConfigError(f"game {name}: the factory must be callable, not {excerpt(factory)}")
    replace = as_bool(replace, "replace")  # "no" or 1 would be taken by its truth
    if isinstance(factory, type) and issubclass(factory, GameBase):
        factory = factory.create
    taken = _REGISTRY.get(name)
    if taken is not None and _factory_key(taken) != _factory_key(factory) and not replace:
        raise ConfigError(
            f"game {name} is registered already (by {excerpt(taken)}): choose another name, "
            "or pass replace=True"
        )
    _REGISTRY[name] = factory


def _factory_key(factory: Any) -> Any:
    """What makes two factories the same one: the class behind a classmethod (or the
    function), by module and name (and a function's first line: two lambdas of a module
    share a name), so that a module run again may register again."""
    owner = getattr(factory, "__self__", None)
    target = owner if isinstance(owner, type) else factory
    module, qualname = getattr(target, "__module__", None), getattr(target, "__qualname__", None)
    line = getattr(getattr(target, "__code__", None), "co_firstlineno", None)
    return (module, qualname, line) if module and qualname else factory


def registered_games() -> tuple[str, ...]:
    """The names :func:`make` knows, in registration order."""
    return tuple(_REGISTRY)


def _estimates(values: Any, shape: tuple[int, ...], game: Any, what: str) -> np.ndarray:
    """``values``, what a game's heuristic or position value returned, as a float64 array of
    ``shape``; ConfigError naming the game if it is not finite numbers of that shape."""
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise ConfigError(
            f"{game.name} {what} returned {excerpt(values)}, not numbers of shape {shape}"
        ) from None
    if array.shape != shape:
        raise ConfigError(f"{game.name} {what} returned shape {array.shape}, not {shape}")
    if not np.isfinite(array).all():
        raise ConfigError(f"{game.name} {what} returned {excerpt(values)}: not all finite")
    return array


def _missing_hook(game: Any, hook: str) -> str:
    """The message of a required game hook a game class does not implement."""
    return f"{type(game).__name__} must implement {hook} (see CONTRIBUTING.md, the hooks)"


def make(name: str, /, **options: Any) -> Game:
    """Build the game called ``name`` with ``options``; ConfigError if either is bad."""
    factory = _REGISTRY.get(name) if isinstance(name, str) else None
    if factory is None:
        known = ", ".join(_REGISTRY) or "none"
        hint = did_you_mean(name, _REGISTRY)
        raise ConfigError(f"unknown game {excerpt(name)}{hint}; known games: {known}")
    game = factory(**options)
    if not _is_game(game):
        raise ConfigError(f"the factory of game {name} returned {excerpt(game)}, not a game")
    if game.name != name:
        raise ConfigError(
            f"the factory of game {name} made a game named {excerpt(game.name)}: register a "
            "game under its own name (records and workers find it by that name)"
        )
    return game


def as_game(game: Any, what: str = "game") -> Game:
    """``game`` if it is a game (the :class:`Game` protocol), the registered game a name
    makes, or ConfigError naming ``what``."""
    if isinstance(game, str):
        return make(game)
    if not _is_game(game):
        raise ConfigError(f"{what} must be a game or a registered game's name, not {excerpt(game)}")
    return game


_GAME_MEMBERS = (*Game.__annotations__, *(name for name in vars(Game) if name[0] != "_"))
"""What a game has (the :class:`Game` protocol's members that isinstance would look up)."""


def _is_game(obj: Any) -> TypeGuard[Game]:
    """Whether ``obj`` is a game: built on GameBase (every built-in game, told without the
    member-by-member check), or having every member of the :class:`Game` protocol. The
    members are read with ``hasattr``, as isinstance did up to Python 3.11: a game that
    forwards them through ``__getattr__`` is one on every Python (3.12's isinstance looks
    them up statically and missed them)."""
    return isinstance(obj, GameBase) or all(hasattr(obj, member) for member in _GAME_MEMBERS)


# --------------------------------------------------------------------------- records


MAX_OPTION_DEPTH = 32
"""Deepest nesting of lists and dicts a record's options may have (a game's options nest
two or three levels; deeper ones would only exhaust the stack)."""

MAX_OPTION_VALUES = 100_000
"""Most values (lists, dicts and the scalars in them) a record's options may hold: far
above any game's (the largest shipped option, a 12×12 Bosk terrain, holds 157), and low
enough that a record of a huge option is refused at once instead of copied."""


_RECORD_DIGITS = 4000
"""Most digits of an int a record holds (in its options, or as ``first_player``): JSON
writes any int, but Python reads back none of over 4300 digits."""

_RECORD_INT_LIMIT = 10**_RECORD_DIGITS


def _record_int(value: Any, what: str) -> Any:
    """``value``; ConfigError naming ``what`` if it is an int JSON could not read back."""
    if isinstance(value, int) and not -_RECORD_INT_LIMIT < value < _RECORD_INT_LIMIT:
        raise ConfigError(
            f"{what} {excerpt(value)} has more than {_RECORD_DIGITS:,} digits: JSON could "
            "not read it back"
        )
    return value


def _jsonable(options: Any, owner: str = "record") -> Any:
    """``options`` in JSON's types (numpy arrays and scalars, tuples made lists, ints and
    floats); ConfigError past :data:`MAX_OPTION_DEPTH` levels or :data:`MAX_OPTION_VALUES`
    values, or for a value JSON has no type for, naming whose options (``owner``) they are."""
    count = 0
    too_many = f"{owner} options hold more than {MAX_OPTION_VALUES:,} values"

    def copy(value: Any, depth: int) -> Any:
        nonlocal count
        if isinstance(value, np.ndarray):
            if value.size > MAX_OPTION_VALUES:
                raise ConfigError(too_many)
            return copy(value.tolist(), depth)  # counted as the lists it becomes
        count += 1
        if count > MAX_OPTION_VALUES:
            raise ConfigError(too_many)
        if depth > MAX_OPTION_DEPTH:
            raise ConfigError(f"{owner} options nest deeper than {MAX_OPTION_DEPTH} levels")
        if isinstance(value, np.generic):
            value = value.item()  # numpy's own scalars become Python's
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"{owner} options must be JSON values, which have no {value}")
        if value is None or isinstance(value, str | int | float):
            return _record_int(value, f"a {owner}'s option value")
        if isinstance(value, tuple | list):
            return [copy(v, depth + 1) for v in value]
        if isinstance(value, dict):
            return {
                str(_record_int(k, f"a {owner}'s option key")): copy(v, depth + 1)
                for k, v in value.items()
            }
        raise ConfigError(
            f"{owner} options must be JSON values, not {type(value).__name__} {excerpt(value)}"
        )

    return copy(options, 0)


def _notation_of(move: Any) -> str:
    """A move's notation (a move object, or its notation already); ConfigError otherwise."""
    if isinstance(move, str):
        return move
    if not hasattr(move, "player"):  # the Move protocol
        raise ConfigError(f"a record's moves are moves or notations, not {excerpt(move)}")
    return str(move)


def _as_tuple(moves: Iterable[str]) -> tuple[str, ...]:
    """A record's moves as a tuple of notations; ConfigError if they are not strings."""
    if not is_list_like(moves):
        raise ConfigError(f"a record's moves are a list of notations, not {excerpt(moves)}")
    moves = tuple(moves)
    if len(moves) > MAX_RECORD_MOVES:
        raise ConfigError(f"a record holds at most {MAX_RECORD_MOVES:,} moves, not {len(moves):,}")
    if not all(isinstance(text, str) and len(text) <= MAX_NOTATION for text in moves):
        raise ConfigError(
            f"a record's moves must all be notation strings (of at most {MAX_NOTATION} "
            f"characters): {excerpt(moves)}"
        )
    return moves


MAX_RECORD_MOVES = 1_000_000
"""Most moves a :class:`GameRecord` may hold (built, or read from JSON)."""

_RECORD_NAMES = 64
"""Longest game name and option name, and most options, a :class:`GameRecord` may hold."""


_READ_THE_FILE = " (read the file first: GameRecord.from_json(path.read_bytes()))"
"""What a record error adds when it was given a file's path instead of its text (bytes:
JSON reads them as UTF-8 whatever the locale, a byte-order mark included)."""

VERSION_FORM = r"[0-9A-Za-z.+!_-]{1,64}"
"""What a record's ``version`` may be: a version's characters (PEP 440's and local labels')."""


@attrs.frozen(eq=True)
class GameRecord:
    """A whole game as data: enough to replay it exactly.

    ``options`` are the keyword options of :func:`make` (``num_players``
    included), ``moves`` the moves in notation, ``version`` the forestgames version
    that wrote it (None if unknown: records of 0.1 name none); it is provenance, not
    compared by ``==``, and replay errors name it when it is another version's.
    JSON in and out::

        record = GameRecord.from_json(text)
        states = record.replay()          # every state, the first one included
    """

    game: str
    options: dict[str, Any] = attrs.field(converter=_jsonable)
    seed: int
    first_player: int | None
    moves: tuple[str, ...] = attrs.field(converter=_as_tuple)
    version: str | None = attrs.field(default=__version__, eq=False, kw_only=True)

    __hash__ = None  # type: ignore[assignment]  # options is a dict

    def __getstate__(self) -> dict[str, Any]:
        """The fields by name (as attrs pickles a slotted class)."""
        return {field.name: getattr(self, field.name) for field in attrs.fields(GameRecord)}

    def __setstate__(self, fields: dict[str, Any]) -> None:
        """The fields by name; a record pickled before records kept their version has none
        (None: unknown, as in its JSON)."""
        for name, value in ({"version": None} | fields).items():
            object.__setattr__(self, name, value)

    def __attrs_post_init__(self) -> None:
        """ConfigError naming the field that is not of its kind (the moves are checked by
        their converter, the options and moves' legality by :meth:`replay`)."""
        if not isinstance(self.game, str) or len(self.game) > _RECORD_NAMES:
            raise ConfigError(
                f"a record's game is a game's name (of at most {_RECORD_NAMES} characters), "
                f"not {excerpt(self.game)}"
            )
        if not isinstance(self.options, dict):
            raise ConfigError(f"a record's options are a dict, not {excerpt(self.options)}")
        if len(self.options) > _RECORD_NAMES or any(len(k) > _RECORD_NAMES for k in self.options):
            raise ConfigError(
                f"a record holds at most {_RECORD_NAMES} options, named in at most "
                f"{_RECORD_NAMES} characters, not {excerpt(self.options)}"
            )
        # numpy integers kept as given would reach to_json, which cannot write them
        object.__setattr__(self, "seed", check_seed(self.seed, "a record's seed"))
        if self.first_player is not None:
            seat = as_int(self.first_player, "a record's first_player", 0)
            _record_int(seat, "a record's first_player")
            object.__setattr__(self, "first_player", seat)
        if self.version is not None and not (
            isinstance(self.version, str) and re.fullmatch(VERSION_FORM, self.version, re.ASCII)
        ):
            raise ConfigError(
                f"a record's version is a forestgames version (such as {__version__!r}) or "
                f"None, not {excerpt(self.version)}"
            )

    @classmethod
    def start(
        cls, game: Game | str, seed: int, first_player: int | None = None, **options: Any
    ) -> GameRecord:
        """An empty record for ``game`` (a game, or a name and its ``options``) from ``seed``."""
        built = make(game, **options) if isinstance(game, str) else as_game(game)
        if options and not isinstance(game, str):
            raise ConfigError("give options with a game name, not with a game")
        seed = check_seed(seed)
        if first_player is not None:
            first_player = check_seat(built.num_players, first_player, "first_player")
        return cls(built.name, built.options(), seed, first_player, ())

    def with_moves(self, moves: Iterable[Move | str]) -> GameRecord:
        """This record with ``moves`` appended (moves or their notation); ConfigError if
        ``moves`` is not a list of them."""
        if not is_list_like(moves):
            raise ConfigError(f"moves must be a list of moves or notations, not {excerpt(moves)}")
        return attrs.evolve(self, moves=self.moves + tuple(map(_notation_of, moves)))

    def make_game(self) -> Game:
        """The game these options describe (StateError if they are bad)."""
        try:
            return make(self.game, **self.options)
        except ConfigError as error:
            raise StateError(f"game record: {error}{self._written_elsewhere()}") from None

    def replay(self) -> tuple[State, ...]:
        """Every state of the game, from the first to the last; errors name the bad move
        (and the version that wrote the record, if another)."""
        game = self.make_game()
        elsewhere = self._written_elsewhere()
        try:
            state = game.new_game(seed=self.seed, first_player=self.first_player)
        except ConfigError as error:
            raise StateError(f"game record: {error}{elsewhere}") from None
        states = [state]
        for index, text in enumerate(self.moves):
            try:
                state = state.apply(game.parse_move(text))
            except IllegalMoveError as error:
                raise IllegalMoveError(
                    f"move {index + 1} ({excerpt(text)}): {error}{elsewhere}"
                ) from None
            except ParseError as error:
                raise ParseError(f"move {index + 1}: {error}{elsewhere}") from None
            states.append(state)
        return tuple(states)

    def _written_elsewhere(self) -> str:
        """What a replay error adds when another forestgames version wrote the record."""
        if self.version is None or self.version == __version__:
            return ""
        return (
            f" (the record was written by forestgames {self.version}, this is "
            f"{__version__}: rules, deals or notation may have changed since)"
        )

    def final_state(self) -> State:
        """The state after the last move."""
        return self.replay()[-1]

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-able data (``GameRecord.from_dict`` reads it back), a copy:
        changing it changes no record."""
        return {
            "game": self.game,
            "options": _jsonable(self.options),
            "seed": self.seed,
            "first_player": self.first_player,
            "moves": list(self.moves),
            "version": self.version,
        }

    def to_json(self, **kwargs: Any) -> str:
        """The record as JSON text (``kwargs`` go to ``json.dumps``)."""
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """A record from :meth:`to_dict` output; StateError if malformed."""
        from forestgames.schema import Int, List, Map, Nullable, Record, Str

        spec = Record(
            {
                "game": Str(_RECORD_NAMES),
                "options": Map(Str(_RECORD_NAMES), _ANY_JSON, max_len=_RECORD_NAMES),
                "seed": Int(0, SEED_LIMIT - 1),
                "first_player": Nullable(Int(0)),  # a seat of the game: replay() checks it
                "moves": List(Str(MAX_NOTATION), max_len=MAX_RECORD_MOVES),
                "version": Nullable(Str(64)),  # its form is the constructor's check
            },
            optional=frozenset({"version"}),
        )
        if isinstance(data, str | bytes | bytearray):
            raise StateError(
                f"a game record is a dict, not the text {excerpt(data, 40)}: "
                "GameRecord.from_json(text) reads the JSON"
            )
        fields = spec.read(data, "game record")
        try:  # the options are made JSON's own (and bounded) by the class's converter
            return cls(
                fields["game"],
                data["options"],
                fields["seed"],
                fields["first_player"],
                fields["moves"],
                version=fields.get("version"),
            )
        except ConfigError as error:
            raise StateError(f"game record: {error}") from None

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """A record from :meth:`to_json` text (or its UTF-8 bytes; a leading byte-order
        mark, as Windows editors write, is skipped); StateError if it is not one."""
        if not isinstance(text, str | bytes | bytearray):
            hint = _READ_THE_FILE if isinstance(text, os.PathLike) else ""
            raise StateError(f"a game record is JSON text, not {excerpt(text)}{hint}")
        if isinstance(text, str):
            text = text.removeprefix("\ufeff")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:  # bad JSON, bad UTF-8, huge numbers
            named = isinstance(text, str) and text.strip().endswith(".json")
            hint = _READ_THE_FILE if named else ""
            raise StateError(
                f"game record is not JSON ({excerpt(text, 40)}): {excerpt(str(error), 120)}{hint}"
            ) from None
        return cls.from_dict(data)


class _AnyJson:
    """Any JSON value (option values are checked by the game itself)."""

    expected = "a JSON value"

    def read(self, value: Any, path: str) -> Any:
        return value


_ANY_JSON: Any = _AnyJson()
