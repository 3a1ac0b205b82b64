"""The protocol every game follows, the library's errors, seeding and game records.

This module knows no game. Each game package registers a factory with
:func:`register_game`; :func:`make` builds a game from its name and options.

A game object (frozen, compared by value) holds the options and builds states::

    game = make("bosk", num_players=3)
    state = game.new_game(seed=7)
    while not state.is_terminal:
        state = state.apply(state.legal_moves()[0])

A state is immutable: ``state.apply(move)`` returns a new state and leaves the
old one untouched, or raises :class:`IllegalMoveError` and changes nothing.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

import attrs
import numpy as np

__all__ = [
    "ForestGamesError",
    "IllegalMoveError",
    "ConfigError",
    "ParseError",
    "StateError",
    "Move",
    "Game",
    "State",
    "GameTraits",
    "StateBase",
    "GameRecord",
    "register_game",
    "make",
    "registered_games",
    "derive_seed",
    "new_rng",
    "resolve_seed",
    "check_player_count",
    "check_option_names",
    "as_pair",
    "check_bool_option",
    "check_seat",
    "require",
]


# --------------------------------------------------------------------------- errors


class ForestGamesError(Exception):
    """Base class of every error the library raises on purpose."""


class IllegalMoveError(ForestGamesError, ValueError):
    """A move that the rules do not allow in this state (the state is unchanged)."""


class ConfigError(ForestGamesError, ValueError):
    """An unknown game or a bad game option."""


class ParseError(ForestGamesError, ValueError):
    """Text that is not a move (or record) in the game's notation."""


class StateError(ForestGamesError, ValueError):
    """A saved state (or record) that is malformed or breaks the rules' invariants."""


def require(condition: bool, error: type[ForestGamesError], message: str) -> None:
    """Raise ``error(message)`` unless ``condition`` holds."""
    if not condition:
        raise error(message)


# --------------------------------------------------------------------------- seeding


def resolve_seed(seed: int | None) -> int:
    """Return ``seed`` checked, or fresh entropy from the OS when it is None."""
    if seed is None:
        entropy: int = np.random.SeedSequence().entropy  # type: ignore[assignment]
        return entropy % 2**63
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ConfigError(f"seed must be a non-negative int or None, not {seed!r}")
    return int(seed)


def derive_seed(seed: int, *keys: int) -> int:
    """A 63-bit seed derived from ``seed`` and integer ``keys`` (stable across runs).

    ``derive_seed(run_seed, k)`` is game k's seed in a simulation: it does not
    depend on how many workers play the games.
    """
    words = np.random.SeedSequence([int(seed), *map(int, keys)]).generate_state(2, np.uint32)
    return (int(words[0]) << 31) ^ int(words[1])


def new_rng(seed: int, *keys: int) -> np.random.Generator:
    """A numpy Generator for ``seed`` (and optional sub-stream ``keys``)."""
    return np.random.default_rng(np.random.SeedSequence([int(seed), *map(int, keys)]))


def check_player_count(name: str, num_players: Any, low: int, high: int) -> int:
    """Validate a ``num_players`` option and return it as an int."""
    if isinstance(num_players, bool) or not isinstance(num_players, int | np.integer):
        raise ConfigError(f"{name}: num_players must be an int, not {num_players!r}")
    if not low <= num_players <= high:
        raise ConfigError(f"{name} is played by {low} to {high} players, not {num_players}")
    return int(num_players)


def as_pair(value: Any) -> Any:
    """Move-field converter: two ints in a list or array become a tuple (``at=[4, 5]``).

    Anything else (floats included) is kept as given, for the state to refuse
    as an illegal move.
    """
    try:
        r, c = value
        return (operator.index(r), operator.index(c))
    except (TypeError, ValueError):
        return value


def check_option_names(title: str, options: dict[str, Any], known: Sequence[str]) -> None:
    """ConfigError unless every key of ``options`` is one of ``known``."""
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ConfigError(f"unknown {title} option(s) {unknown}; known: {list(known)}")


def check_bool_option(name: str, value: Any) -> bool:
    """Validate a True/False option and return it as a bool."""
    if not isinstance(value, bool | np.bool_):
        raise ConfigError(f"option {name} must be True or False, not {value!r}")
    return bool(value)


def check_seat(num_players: int, seat: Any, what: str = "seat") -> int:
    """Validate a seat number (0-based) and return it as an int."""
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
        raise ConfigError(f"{what} must be an int seat number, not {seat!r}")
    if not 0 <= seat < num_players:
        raise ConfigError(f"{what} {seat} is not a seat of a {num_players}-player game")
    return int(seat)


# --------------------------------------------------------------------------- protocol


@runtime_checkable
class Move(Protocol):
    """One atomic decision by one seat. ``str(move)`` is its notation."""

    @property
    def player(self) -> int: ...


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


@runtime_checkable
class Game(Protocol):
    """A game with its options fixed: builds and loads states, parses moves."""

    name: ClassVar[str]

    @property
    def num_players(self) -> int: ...

    @property
    def traits(self) -> GameTraits: ...

    def options(self) -> dict[str, Any]: ...

    def new_game(self, seed: int | None = None, first_player: int | None = None) -> State: ...

    def parse_move(self, text: str) -> Move: ...

    def state_from_dict(self, data: dict[str, Any]) -> State: ...


@runtime_checkable
class State(Protocol):
    """An immutable position. See DESIGN.md for the full contract."""

    @property
    def game(self) -> Game: ...

    @property
    def current_player(self) -> int | None: ...

    @property
    def players_to_act(self) -> tuple[int, ...]: ...

    @property
    def is_terminal(self) -> bool: ...

    @property
    def scores(self) -> tuple[int, ...]: ...

    @property
    def winners(self) -> tuple[int, ...]: ...

    def legal_moves(self, player: int | None = None) -> tuple[Move, ...]: ...

    def apply(self, move: Move) -> State: ...

    def observation(self, player: int) -> dict[str, Any]: ...

    def determinize(self, player: int, seed: int) -> State: ...

    def to_dict(self) -> dict[str, Any]: ...

    def render(self) -> str: ...


class StateBase:
    """Behaviour shared by the games' states (a mixin for attrs frozen classes).

    A subclass provides ``game``, ``current_player`` and ``is_terminal``; its
    game provides ``legal_moves_of(state, player)`` (one seat's legal moves, the
    game not over), ``apply_move(state, move)`` (the new state, the move known
    legal), ``state_to_dict(state)`` unless the state writes its own ``to_dict``,
    and optionally ``why_illegal(state, move)``. A state may override
    ``_moves_of``, ``_is_legal``, ``_why_illegal`` and ``_apply`` (to cache or to
    check faster). Games where seats act out of turn override ``players_to_act``.
    """

    __slots__ = ()

    game: Any

    @property
    def current_player(self) -> int | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def legal_moves(self, player: int | None = None) -> tuple[Any, ...]:
        """Every legal move now, in a fixed order; of ``player`` if given."""
        if player is None:
            player = self.current_player
            if player is None:
                return ()
        else:
            player = self._checked_player(player)
        if self.is_terminal:
            return ()
        return self._moves_of(player)

    @property
    def is_terminal(self) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError

    @property
    def players_to_act(self) -> tuple[int, ...]:
        """Seats with a legal move now, the current player first."""
        current = self.current_player
        return () if current is None else (current,)

    def apply(self, move: Any) -> Any:
        """The state after ``move``; raise IllegalMoveError (and change nothing) if illegal."""
        if self.is_terminal:
            raise IllegalMoveError(f"{move!r}: the game is over")
        player = getattr(move, "player", None)
        if isinstance(player, bool) or not isinstance(player, int):
            raise IllegalMoveError(f"{move!r} is not a {self.game.name} move")
        if not 0 <= player < self.game.num_players:
            raise IllegalMoveError(f"{move!r}: seat {player} is not in this game")
        if not self._is_legal(move):
            raise IllegalMoveError(self._why_illegal(move))
        return self._apply(move)

    def _is_legal(self, move: Any) -> bool:
        """Whether ``move`` (of a seat in the game) is legal now; games may do it faster."""
        return move in self._moves_of(move.player)

    def _why_illegal(self, move: Any) -> str:
        """A message saying why ``move`` is illegal: the game's own, or a plain one."""
        why = getattr(self.game, "why_illegal", None)
        return why(self, move) if why else f"{move} is not legal now"

    def _checked_player(self, player: Any) -> int:
        if isinstance(player, bool) or not isinstance(player, int | np.integer):
            raise IllegalMoveError(f"player must be a seat number, not {player!r}")
        if not 0 <= player < self.game.num_players:
            raise IllegalMoveError(
                f"seat {player} is not in this {self.game.num_players}-player game"
            )
        return int(player)

    # The rules live in the game object; by default a state hands over to it.

    def _moves_of(self, player: int) -> tuple[Any, ...]:
        return self.game.legal_moves_of(self, player)  # type: ignore[no-any-return]

    def _apply(self, move: Any) -> Any:
        return self.game.apply_move(self, move)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict; ``game.state_from_dict`` rebuilds this exact state."""
        return self.game.state_to_dict(self)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- registry

_REGISTRY: dict[str, Callable[..., Any]] = {}


def register_game(name: str, factory: Callable[..., Any]) -> None:
    """Make ``make(name, **options)`` build a game with ``factory(**options)``."""
    _REGISTRY[name] = factory


def registered_games() -> tuple[str, ...]:
    """The names :func:`make` knows, in registration order."""
    return tuple(_REGISTRY)


def make(name: str, **options: Any) -> Any:
    """Build the game called ``name`` with ``options``; ConfigError if either is bad."""
    factory = _REGISTRY.get(name)
    if factory is None:
        known = ", ".join(_REGISTRY) or "none"
        raise ConfigError(f"unknown game {name!r}; known games: {known}")
    return factory(**options)


# --------------------------------------------------------------------------- records


def _jsonable(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def _as_tuple(moves: Iterable[str]) -> tuple[str, ...]:
    return tuple(moves)


@attrs.frozen(eq=True)
class GameRecord:
    """A whole game as data: enough to replay it exactly.

    ``options`` are the keyword options of :func:`make` (``num_players``
    included), ``moves`` the moves in notation. JSON in and out::

        record = GameRecord.from_json(text)
        states = record.replay()          # every state, the first one included
    """

    game: str
    options: dict[str, Any] = attrs.field(converter=_jsonable)
    seed: int
    first_player: int | None
    moves: tuple[str, ...] = attrs.field(converter=_as_tuple)

    __hash__ = None  # type: ignore[assignment]  # options is a dict

    @classmethod
    def start(cls, game: Game, seed: int, first_player: int | None = None) -> GameRecord:
        """An empty record for ``game`` started with ``seed``."""
        return cls(game.name, game.options(), seed, first_player, ())

    def with_moves(self, moves: Iterable[Move | str]) -> GameRecord:
        """This record with ``moves`` appended."""
        return attrs.evolve(self, moves=self.moves + tuple(str(m) for m in moves))

    def make_game(self) -> Any:
        """The game these options describe."""
        return make(self.game, **self.options)

    def replay(self) -> tuple[Any, ...]:
        """Every state of the game, from the first to the last; errors if a move is bad."""
        game = self.make_game()
        state = game.new_game(seed=self.seed, first_player=self.first_player)
        states = [state]
        for index, text in enumerate(self.moves):
            try:
                state = state.apply(game.parse_move(text))
            except IllegalMoveError as error:
                raise IllegalMoveError(f"move {index + 1} ({text!r}): {error}") from None
            states.append(state)
        return tuple(states)

    def final_state(self) -> Any:
        """The state after the last move."""
        return self.replay()[-1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "first_player": self.first_player,
            "moves": list(self.moves),
        }

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """A record from :meth:`to_dict` output; StateError if malformed."""
        if not isinstance(data, dict):
            raise StateError(f"a game record must be a JSON object, not {type(data).__name__}")
        missing = {"game", "options", "seed", "first_player", "moves"} - set(data)
        if missing:
            raise StateError(f"game record lacks {', '.join(sorted(missing))}")
        if not isinstance(data["game"], str) or not isinstance(data["options"], dict):
            raise StateError("game record: 'game' must be a name and 'options' an object")
        seed, first = data["seed"], data["first_player"]
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise StateError(f"game record: bad seed {seed!r}")
        if first is not None and (isinstance(first, bool) or not isinstance(first, int)):
            raise StateError(f"game record: bad first_player {first!r}")
        moves = data["moves"]
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise StateError("game record: 'moves' must be a list of move texts")
        return cls(data["game"], data["options"], seed, first, tuple(moves))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise StateError(f"game record is not JSON: {error}") from None
        return cls.from_dict(data)


# --------------------------------------------------------------------------- helpers for games


def expect_keys(data: Any, keys: Sequence[str], what: str) -> dict[str, Any]:
    """Check that ``data`` is a dict with exactly ``keys``; StateError otherwise."""
    if not isinstance(data, dict):
        raise StateError(f"{what} must be a dict, not {type(data).__name__}")
    missing = [k for k in keys if k not in data]
    extra = [k for k in data if k not in keys]
    if missing:
        raise StateError(f"{what} lacks {', '.join(missing)}")
    if extra:
        raise StateError(f"{what} has unknown keys {', '.join(map(str, extra))}")
    return data


def expect_int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """Check an int field of a saved state (bounds inclusive); StateError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise StateError(f"{what} must be an int, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise StateError(f"{what} = {value} is outside {low}..{high}")
    return int(value)


_FIELDS: dict[type, tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]]] = {}


def replace(instance: Any, **changes: Any) -> Any:
    """``attrs.evolve`` for hot paths: a copy of an attrs instance with ``changes``.

    Several times faster than ``attrs.evolve`` (no introspection per call);
    for classes without validators or converters, which states are. Fields
    with ``init=False`` (caches) start afresh.
    """
    cls = type(instance)
    known = _FIELDS.get(cls)
    if known is None:
        names = [a.name for a in attrs.fields(cls) if a.init]
        known = _FIELDS[cls] = (operator.attrgetter(*names), {n: i for i, n in enumerate(names)})
    get_all, position = known
    values = list(get_all(instance))
    for name, value in changes.items():
        values[position[name]] = value
    return cls(*values)
