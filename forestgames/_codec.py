"""What the four games' action codecs share: id checks, masks, per-state caches.

A codec (``forestgames.<game>.actions``) numbers every move a game's options
allow, ``0 <= id < num_actions``, the seat left out (``move_from_id`` takes it
back), and turns a position into a float32 observation tensor. A game's codec
provides ``_encoders`` (each move type's encoder, ``move -> int | None``; None:
the move has no id), ``_build(action_id, player) -> move`` (the base keeps
each decoded move), ``_new_tensor(state, player)`` and
``_tensor_from_observation(observation)``, and for a game with out-of-turn play
may narrow ``reaction_seats(state)``, the seats the environments offer a reaction turn
(by default every seat but the one to move); this base adds the checks (an
observation dict is read against the game's observation schema first), the
masks, the memo and a lock: what a codec builds (masks, id tables, tensors from
its shared buffers) is built under it, so threads may share a game. Tensor
pieces come from bounded tables: ``Pieces`` (by what a piece is made of) and
``SeatRows`` (per-seat rows turned to each observer).
Ids, masks and tensors of a state are kept in the state's own memo (the engine
base's one cache), under tuple keys: ``("ids", seat)``, ``("mask", seat)``,
``("tensor", seat)``.

Tensors put seats in observer order: block ``k`` of a per-seat field is the
seat ``k`` places after the observer (``(observer + k) % num_players``), so
block 0 is always "me". Counts are raw (not scaled); a category is one-hot.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from forestgames.core import (
    ConfigError,
    ForestGamesError,
    IllegalMoveError,
    Sealed,
    StateError,
    describe_move,
    excerpt,
)

__all__ = [
    "CodecBase",
    "Layout",
    "Pieces",
    "SeatRows",
    "as_action_id",
    "float32_bytes",
    "float32_numbers",
    "one_hots",
    "seat_order",
]

PIECES_LIMIT = 4096
"""The most entries a :class:`Pieces` table holds before it starts afresh."""
_MOVE_TABLE_LIMIT = 200_000


def as_action_id(value: Any) -> int | None:
    """``value`` as an int if it is one: an int, a numpy integer or a 0-d integer array (what
    ``predict`` of many RL libraries returns for one env); None for anything else, bools too."""
    if type(value) is int:
        return value
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        return None
    return int(value)


def seat_order(observer: int, num_players: int) -> tuple[int, ...]:
    """``block[seat]``: the position of ``seat`` in observer order (0 = the observer)."""
    return tuple((seat - observer) % num_players for seat in range(num_players))


def float32_bytes(values: Iterable[float]) -> bytes:
    """``values`` as float32 bytes (a piece of a tensor)."""
    return array("f", values).tobytes()


def one_hots(size: int) -> tuple[bytes, ...]:
    """``[k]``: the float32 bytes of ``size`` zeros with a one at ``k``."""
    return tuple(float32_bytes([float(i == k) for i in range(size)]) for k in range(size))


def float32_numbers() -> Pieces:
    """A new table of numbers as float32 bytes (``table[n]``, each made once)."""
    return Pieces(lambda number: float32_bytes((number,)))


class SeatRows:
    """A tensor's per-seat rows turned to an observer (its own row first), from the source
    objects they are made of: ``build(source, other)`` gives the rows of seats 0, 1, ...
    as float32 bytes, made once while the same objects (by identity) come back, and each
    observer's order is then one slice of them written twice."""

    __slots__ = ("_build", "_entry", "_row", "_width")

    def __init__(self, build: Callable[[Any, Any], bytes], num_players: int, row: int = 1) -> None:
        self._build = build
        self._row = 4 * row
        self._width = 4 * row * num_players
        self._entry: tuple[Any, Any, bytes] = (self, self, b"")  # matches no source

    def get(self, observer: int, source: Any, other: Any = None) -> bytes:
        """The rows of ``source`` (and ``other``) with seat ``observer``'s first."""
        entry = self._entry
        if entry[0] is not source or entry[1] is not other:
            entry = self._entry = (source, other, self._build(source, other) * 2)
        start = observer * self._row
        return entry[2][start : start + self._width]

    def table(self) -> Pieces:
        """A bounded table of these rows by ``(observer, source[, other])``: a hit costs one
        dict lookup, a miss one slice (or one build, for new sources)."""
        return Pieces(lambda key: self.get(*key))


class Pieces(dict[Any, Any]):
    """Pieces of tensors by what they are made of (a hashable key), built on a miss by
    ``build(key)``. Bounded: when full it starts afresh."""

    def __init__(self, build: Callable[[Any], Any]) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, key: Any) -> Any:
        if len(self) >= PIECES_LIMIT:
            self.clear()
        value = self[key] = self.build(key)
        return value


class Layout(Sealed):
    """Named fields of a flat tensor, in order: ``offset[name]``, ``shape[name]``, ``size``.

    Built by :meth:`add`, then :meth:`seal`-ed: a codec cuts its tensors by it, so once
    sealed it is read-only (read-only mappings, attributes that cannot be set or deleted).
    """

    _read_only = "a sealed tensor layout is read-only"

    def __init__(self) -> None:
        self.offset: Mapping[str, int] = {}
        self.shape: Mapping[str, tuple[int, ...]] = {}
        self.doc: Mapping[str, str] = {}
        self.size = 0

    def add(self, name: str, shape: tuple[int, ...], doc: str) -> int:
        """Append field ``name`` of ``shape`` (row-major); return its offset."""
        self.offset = {**self.offset, name: self.size}
        self.shape = {**self.shape, name: shape}
        self.doc = {**self.doc, name: doc}
        self.size += int(np.prod(shape, dtype=np.int64))
        return self.offset[name]

    def seal(self) -> Layout:
        """Make this layout read-only; return it."""
        self.offset = MappingProxyType(dict(self.offset))
        self.shape = MappingProxyType(dict(self.shape))
        self.doc = MappingProxyType(dict(self.doc))
        self._seal()
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles rebuild the layout from its fields (sealed if this one is)."""
        fields = tuple((name, self.shape[name], self.doc[name]) for name in self.offset)
        return (_layout_of, (fields, self._sealed))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={self.shape[name]}" for name in self.offset)
        return f"Layout({fields}; size {self.size})"

    def field(self, tensor: Any, name: Any) -> np.ndarray:
        """Field ``name`` of ``tensor`` (or of a batch of them, the fields on the last axis)
        as an array of the field's shape: a view, not a copy."""
        if not isinstance(name, str) or name not in self.offset:
            raise ConfigError(f"no tensor field {excerpt(name)}; fields: {list(self.offset)}")
        try:
            array_ = np.asarray(tensor)
        except (TypeError, ValueError) as error:  # a ragged list: numpy makes no array of it
            raise ConfigError(
                f"a tensor of this layout is an array, not {excerpt(tensor)} ({error})"
            ) from None
        if array_.ndim == 0 or array_.shape[-1] != self.size:
            raise ConfigError(
                f"a tensor of this layout ends in an axis of {self.size}, not shape {array_.shape}"
            )
        start = self.offset[name]
        stop = start + int(np.prod(self.shape[name], dtype=np.int64))
        return array_[..., start:stop].reshape(array_.shape[:-1] + self.shape[name])

    def table(self) -> str:
        """The fields as a Markdown table (for the docs)."""
        rows = ["| field | offset | shape | holds |", "|---|---|---|---|"]
        for name, offset in self.offset.items():
            shape = " × ".join(map(str, self.shape[name]))
            rows.append(f"| `{name}` | {offset} | {shape} | {self.doc[name]} |")
        return "\n".join(rows)


def _layout_of(fields: Iterable[tuple[str, tuple[int, ...], str]], sealed: bool) -> Layout:
    """The layout of ``fields`` (name, shape, doc) in order; sealed if ``sealed``."""
    layout = Layout()
    for name, shape, doc in fields:
        layout.add(name, shape, doc)
    return layout.seal() if sealed else layout


def _describe(error: Exception) -> str:
    """``error``'s type and message, bounded (its message may itself fail to print)."""
    try:
        message = str(error)
    except ValueError:  # an int too long to print, named in the message
        message = "(a value too long to print)"
    return f"{type(error).__name__}: {excerpt(message)}"


class CodecBase:
    """The checks and masks every game's codec shares (see the module docstring)."""

    num_actions: int
    observation_shape: tuple[int, ...]
    observation_bounds: tuple[float, float] = (0.0, 1e6)
    """Every tensor value lies in this range (for an environment's Box)."""
    _encoders: dict[type, Callable[[Any], int | None]]
    """The id of a move by its type's encoder (set by the game; a type not here has no id)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.num_players: int = game.num_players
        self._ids_by_identity: dict[int, tuple[Any, int]] = {}
        self._id_of: dict[int, int] = {}  # id(move) -> action id, for the moves held above
        self._mask_keys = [("mask", seat) for seat in range(self.num_players)]
        self._bytes_keys = [("mask bytes", seat) for seat in range(self.num_players)]
        self._ids_keys = [("ids", seat) for seat in range(self.num_players)]
        self._tensor_keys = [("tensor", seat) for seat in range(self.num_players)]
        self._decoded: dict[tuple[int, int], Any] = {}  # (id, seat) -> the move built
        self._shared_masks = Pieces(self._mask_of)  # legal ids -> (bytes, array)
        self._lock = threading.RLock()
        """Held while a mask, an id table entry or a tensor is built: they use buffers and
        tables of the codec, which a game's states share across threads (a web server's
        requests). A result already in a state's memo is read without it."""

    def __reduce__(self) -> tuple[Any, ...]:
        """A codec pickles (and deep-copies) as its game's codec: its caches are derived data,
        rebuilt on demand, and some (views of buffers) cannot be pickled at all."""
        return (getattr, (self.game, "codec"))

    # ------------------------------------------------------------------ ids

    def _decode(self, action_id: int, player: int) -> Any:
        """The move ``action_id`` stands for in seat ``player``'s hands, built once."""
        key = (action_id, player)
        move = self._decoded.get(key)
        if move is None:
            if len(self._decoded) > _MOVE_TABLE_LIMIT:
                self._decoded.clear()
            move = self._decoded[key] = self._build(action_id, player)
        return move

    def _build(self, action_id: int, player: int) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def action_id(self, move: Any) -> int:
        """The id of ``move`` (its seat left out); IllegalMoveError if it has none."""
        try:
            action = self._encoders[type(move)](move)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError):
            action = None  # a KeyError too: a type with no encoder; Overflow: an infinite seat
        if action is None:
            raise IllegalMoveError(
                f"{describe_move(move)} is not a {self.game.title} move these options can "
                f"ever allow ({self.num_players} players), so it has no action id"
            )
        return action

    def move_from_id(self, action_id: Any, player: Any) -> Any:
        """The move of seat ``player`` that ``action_id`` stands for; IllegalMoveError if
        the id is not an int in ``0..num_actions - 1`` or the seat is not in the game."""
        number = as_action_id(action_id)
        if number is None:
            raise IllegalMoveError(f"an action id is an int, not {excerpt(action_id)}")
        if not 0 <= number < self.num_actions:
            raise IllegalMoveError(
                f"action id {excerpt(number)} is outside 0..{self.num_actions - 1} "
                f"({self.game.title}, {self.num_players} players)"
            )
        return self._decode(number, self.check_seat(player))

    def ids_of(self, moves: Sequence[Any]) -> tuple[int, ...]:
        """The ids of ``moves`` (each move's id looked up by its identity once seen)."""
        ids: tuple[Any, ...] = tuple(map(self._id_of.get, map(id, moves)))
        if None in ids:
            ids = self._learn_ids(moves)
        return ids

    def _learn_ids(self, moves: Sequence[Any]) -> tuple[int, ...]:
        """The ids of ``moves``, each new move's id computed and kept (with the move, so
        that its ``id()`` names no other object while the entry lasts)."""
        table, id_of = self._ids_by_identity, self._id_of
        with self._lock:
            if len(table) > _MOVE_TABLE_LIMIT:
                id_of.clear()  # first: the lock-free ids_of reads it, never a freed move's id
                table.clear()
            ids: list[int] = []
            for move in moves:
                hit = table.get(id(move))
                if hit is None or hit[0] is not move:
                    hit = table[id(move)] = (move, self.action_id(move))
                    id_of[id(move)] = hit[1]
                ids.append(hit[1])
            return tuple(ids)

    # ------------------------------------------------------------------ masks

    def legal_ids(self, state: Any, player: int) -> list[int]:
        """The ids of ``state.legal_moves(player)``, in that order: a new list (the state's
        memo keeps them as a tuple, which masks and moves are read by)."""
        return list(self._legal_ids(state, player))

    def _legal_ids(self, state: Any, player: int) -> tuple[int, ...]:
        """The ids of ``state.legal_moves(player)`` as kept in the state's memo."""
        memo = state._memo
        key = self._ids_keys[player]
        ids: tuple[int, ...] | None = memo.get(key)
        if ids is None:
            ids = memo[key] = self.ids_of(state.legal_moves(player))
        return ids

    def mask(self, state: Any, player: int | None = None) -> np.ndarray:
        """(num_actions,) int8, 1 exactly at the ids of ``state.legal_moves(player)``.

        Read-only: kept in the state's memo, and states with the same legal ids share it.
        """
        if player is None:
            seat = state.current_player
            if seat is None:
                return self._no_mask(state)
        elif type(player) is int and 0 <= player < self.num_players:
            seat = player
        else:
            seat = self.check_seat(player)
        memo = state._memo
        cached: np.ndarray | None = memo.get(self._mask_keys[seat])
        if cached is not None:
            return cached
        with self._lock:
            frozen, mask = self._new_mask(state, seat)
        memo[self._bytes_keys[seat]] = frozen  # for quick membership tests
        memo[self._mask_keys[seat]] = mask
        return mask

    def _new_mask(self, state: Any, seat: int) -> tuple[bytes, np.ndarray]:
        """The mask of ``seat`` in ``state``, as bytes and the read-only int8 array over them.

        One pair per set of legal ids, shared by every state that has it (a bounded
        table); games with a faster way, or masks too large to keep, override this."""
        return self._shared_masks[self._legal_ids(state, seat)]  # type: ignore[no-any-return]

    def _mask_of(self, ids: Sequence[int]) -> tuple[bytes, np.ndarray]:
        """The mask of legal ids ``ids``: the bytes and a read-only int8 array over them."""
        flags = bytearray(self.num_actions)
        for action in ids:
            flags[action] = 1
        frozen = bytes(flags)
        return frozen, np.frombuffer(frozen, np.int8)

    def _no_mask(self, state: Any) -> np.ndarray:
        """The all-zero mask of a state nobody is to move in (cached in its memo)."""
        memo = state._memo
        cached: np.ndarray | None = memo.get(("mask", -1))
        if cached is None:
            frozen = bytes(self.num_actions)
            memo[("mask bytes", -1)] = frozen
            cached = memo[("mask", -1)] = np.frombuffer(frozen, np.int8)
        return cached

    def mask_bytes(self, state: Any, seat: int) -> bytes:
        """The mask of seat ``seat`` as bytes (0 or 1 per id), from the state's memo."""
        flags: bytes | None = state._memo.get(self._bytes_keys[seat])
        if flags is None:
            self.mask(state, seat)
            flags = state._memo[self._bytes_keys[seat]]
        return flags

    def reaction_seats(self, state: Any) -> tuple[int, ...]:
        """Seats to offer a reaction turn now: in a game with out-of-turn play, every seat
        but the one to move (so that each out-of-turn move can be played, and being offered
        one tells nothing); none in other games. A game whose reactions come only at some
        moments (Boom Bokken's, while a seat is named) overrides this."""
        current = state.current_player
        if current is None or not self.game._OUT_OF_TURN:
            return ()
        return tuple(seat for seat in range(self.num_players) if seat != current)

    # ------------------------------------------------------------------ tensors

    def check_seat(self, player: Any) -> int:
        """``player`` as an int seat; IllegalMoveError if it is not a seat of the game."""
        if type(player) is int and 0 <= player < self.num_players:
            return player
        if isinstance(player, bool) or not isinstance(player, int | np.integer):
            raise IllegalMoveError(f"player must be a seat number, not {excerpt(player)}")
        if not 0 <= player < self.num_players:
            raise IllegalMoveError(
                f"seat {excerpt(player)} is not in this {self.num_players}-player game"
            )
        return int(player)

    def tensor(self, state: Any, player: int) -> np.ndarray:
        """The observation tensor of seat ``player``, straight from ``state``: read-only,
        kept in the state's memo (built once, under the codec's lock)."""
        if type(player) is not int or not 0 <= player < self.num_players:
            player = self.check_seat(player)
        memo = state._memo
        key = self._tensor_keys[player]
        cached: np.ndarray | None = memo.get(key)
        if cached is not None:
            return cached
        with self._lock:
            tensor: np.ndarray | None = memo.get(key)  # another thread's, built meanwhile
            if tensor is None:
                tensor = memo[key] = self._new_tensor(state, player)
            return tensor

    def _new_tensor(self, state: Any, player: int) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError  # each game's codec builds its own

    def tensor_from_observation(self, observation: Any) -> np.ndarray:
        """The observation tensor built from ``state.observation(player)`` alone (the
        reference the fast ``tensor`` is tested against); StateError if ``observation`` is
        not an observation dict of this game."""
        game = self.game.name
        named = observation.get("game", game) if isinstance(observation, dict) else None
        if not isinstance(named, str) or named != game:
            raise StateError(f"not a {game} observation dict: {excerpt(observation)}")
        fields = self.game._observation_schema.read(observation, f"{game} observation")
        try:  # from the fields as read: plain ints (not numpy's), tuples for lists
            with self._lock:
                tensor = self._tensor_from_observation(fields)
        except ForestGamesError:
            raise
        except (
            AssertionError, AttributeError, IndexError, KeyError, OverflowError,
            RecursionError, TypeError, ValueError,
        ) as error:  # fmt: skip
            raise StateError(f"a malformed {game} observation ({_describe(error)})") from None
        if tensor.shape != self.observation_shape:  # a list of the wrong length, read whole
            raise StateError(f"a malformed {game} observation (it makes {tensor.shape})")
        return tensor

    def _tensor_from_observation(self, observation: dict[str, Any]) -> np.ndarray:
        raise NotImplementedError  # pragma: no cover - overridden
