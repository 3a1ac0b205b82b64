"""The OpenSpiel classes: a ``pyspiel.Game``, ``pyspiel.State`` and observer per game.

A thin layer over :mod:`forestgames.rl.openspiel._nodes`: a state holds one
immutable node (``_node``), so OpenSpiel's ``clone`` (which deep-copies the
Python attributes) shares it, and its ``serialize`` (which pickles them) saves
the node as JSON through the engine's ``to_dict``.
"""

from __future__ import annotations

import math
import numbers
import threading
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel

from forestgames import GAME_NAMES
from forestgames.core import (
    ConfigError,
    ForestGamesError,
    IllegalMoveError,
    StateError,
    as_int,
    excerpt,
    make,
)
from forestgames.rl.openspiel._nodes import HEADER, Node, Table, table_for
from forestgames.rl.openspiel._params import options_from_parameters, parameter_spec, short_name

__all__ = ["ForestGamesGame", "ForestGamesState", "register", "short_name"]

SINGLE_WINNER = frozenset({"bosk", "bonsai"})
"""Games whose multi-player games always have exactly one winner (ties are broken; solo
Bonsai has one or none): with ``utility="win"`` the returns of n >= 2 players always sum
to 1 - (n - 1) = 2 - n, zero-sum with 2 players and constant-sum with more."""


def _game_type(name: str, table: Table | None = None) -> pyspiel.GameType:
    """The GameType of ``name`` (registered), or of one game's options (``table``)."""
    game = make(name) if table is None else table.game
    traits = game.traits
    kinds = pyspiel.GameType.Utility
    total = None if table is None else _utility_sum(table)
    utility = kinds.GENERAL_SUM if total is None else kinds.CONSTANT_SUM
    if total == 0:
        utility = kinds.ZERO_SUM
    hidden = traits.hidden_information
    information = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"forestgames {name.replace('_', ' ').title()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information.IMPERFECT_INFORMATION
        if hidden
        else information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=traits.max_players,
        min_num_players=traits.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_spec(name)[0],
    )


def _utility_sum(table: Table) -> float | None:
    """What the returns of every finished game sum to, or None where that varies: with
    ``utility="win"`` a single-winner game of n >= 2 players pays +1 to one seat and -1
    to the n - 1 others (:data:`SINGLE_WINNER`)."""
    if table.utility == "win" and table.name in SINGLE_WINNER and table.num_players >= 2:
        return 2.0 - table.num_players
    return None


def _game_info(table: Table) -> pyspiel.GameInfo:
    low, high = table.utility_range()
    return pyspiel.GameInfo(
        num_distinct_actions=table.num_distinct_actions,
        max_chance_outcomes=table.max_chance_outcomes,
        num_players=table.num_players,
        min_utility=low,
        max_utility=high,
        utility_sum=_utility_sum(table),
        max_game_length=table.max_game_length(),
    )


class ForestGamesGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """One forestgames game with its options, as an OpenSpiel game."""

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        options, utility = options_from_parameters(name, dict(params or {}))
        game = make(name, **options)
        table = table_for(name, _json(game.options()), utility)
        super().__init__(_game_type(name, table), _game_info(table), dict(params or {}))
        self.table = table

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class and parameters (OpenSpiel's own pickling would drop the
        Python attributes); unpickling registers the games first, as a state's does."""
        return _unpickled_game, (type(self), self.get_parameters())

    def new_initial_state(self) -> ForestGamesState:
        """The root: the chance node that draws the first player."""
        return ForestGamesState(self, self.table.initial)

    def deserialize_state(self, text: Any) -> ForestGamesState:
        """OpenSpiel's ``deserialize_state``, whose failures on text it cannot load (its own
        checks and pickle's) are the library's StateError. It unpickles what the text
        holds, as every OpenSpiel Python game does: load only text you saved."""
        if not isinstance(text, str | bytes | bytearray):  # what pybind11 takes as a string
            raise StateError(f"a saved OpenSpiel state is text, not {excerpt(text)}")
        try:
            state: ForestGamesState = super().deserialize_state(text)
        except (ForestGamesError, MemoryError):
            raise
        except Exception as error:  # whatever corrupted text sets off
            raise StateError(
                f"not a state saved by {_described(self.table.initial)}: "
                f"{type(error).__name__}: {excerpt(str(error))}"
            ) from error
        _check_history(state)
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer | None:
        """An observer of one seat's view (OpenSpiel's default and information-state kinds);
        None for another kind (public or private information only, every seat's), as
        OpenSpiel's ``make_observation`` promises for a kind a game does not support (its
        ``generate_playthrough`` asks for them and skips what is None). OpenSpiel's
        ``game.make_observer(params)``, with no kind, passes its parameters first: the
        default observer."""
        if params is None and isinstance(iig_obs_type, Mapping):
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ConfigError(f"observer parameters are not supported, got {params}")
        if iig_obs_type is None:
            return Observer(self.table, info_state=False)
        if not isinstance(iig_obs_type, pyspiel.IIGObservationType):
            raise ConfigError(
                f"an observer's type is a pyspiel.IIGObservationType, not {excerpt(iig_obs_type)}"
            )
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not (
            iig_obs_type.public_info
        ):
            return None  # the views are built from one seat's observation
        return Observer(self.table, info_state=bool(iig_obs_type.perfect_recall))


def _unpickled_game(
    cls: Callable[[dict[str, Any]], ForestGamesGame], params: dict[str, Any]
) -> ForestGamesGame:
    """A pickled game, loaded: the games registered first (in a fresh process, a spawned
    worker or Ray, OpenSpiel knew none of them: ``pyspiel.load_game(str(game))`` and
    ``deserialize_game_and_state`` of its states raised SpielError "Unknown game")."""
    register()
    return cls(params)


def _json(value: Any) -> str:
    import json

    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class ForestGamesState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A node of a forestgames game's tree, as an OpenSpiel state."""

    def __init__(self, game: ForestGamesGame, node: Node) -> None:
        super().__init__(game)
        self._node = node

    def __setattr__(self, name: str, value: Any) -> None:
        """Attributes as usual; a node (OpenSpiel's ``deserialize_state`` sets the saved
        one) must be of this state's game: StateError if it was saved from another game
        or other options."""
        if name == "_node":
            mine = self.__dict__.get("_node")
            if mine is not None and value.table is not mine.table and _key(value) != _key(mine):
                raise StateError(
                    f"a state saved from {_described(value)} cannot load in {_described(mine)}"
                )
        super().__setattr__(name, value)
        if name == _TRAIL and self.history():  # loading (a clone's history comes after)
            _check_history(self)

    def __setstate__(self, text: str) -> None:
        """Unpickling (OpenSpiel's: its ``deserialize_game_and_state`` of the saved text,
        which loads the game by name) registers the games first: in a fresh process (a
        spawned worker, Ray) they were unknown to OpenSpiel and the state did not load."""
        register()
        try:
            super().__setstate__(text)
        except (ForestGamesError, MemoryError):
            raise
        except Exception as error:  # whatever corrupted text sets off, as deserialize_state
            raise StateError(
                f"not a state saved by {_saved_game(text)}: "
                f"{type(error).__name__}: {excerpt(str(error))}"
            ) from error
        _check_history(self)

    @property
    def forestgames_state(self) -> Any:
        """The engine position (every seat's cards included; None before the first deal)."""
        return self._node.state

    @property
    def node(self) -> Node:
        return self._node

    def current_player(self) -> int:
        return self._node.player

    def _legal_actions(self, player: int) -> list[int]:
        return self._node.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._node.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        # straight into the dict: the per-move path skips __setattr__'s load check
        node, action = self._node, int(action)
        self.__dict__["_node"] = node.apply(action)
        trail = self.__dict__.get(_TRAIL)
        if trail is None:  # a new state (or one saved without a trail): from its history
            trail = _trail_of(self.full_history())
        self.__dict__[_TRAIL] = _chained(trail, node.player, action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._node.action_string(int(player), int(action))

    def is_terminal(self) -> bool:
        return self._node.is_over

    def returns(self) -> list[float]:
        return self._node.returns()

    def rewards(self) -> list[float]:
        return self._node.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ForestGamesState:
        """A state ``player_id`` cannot tell from this one (its hidden part drawn through
        ``state.determinize`` with a seed from ``probability_sampler()``). It keeps this
        state's ``history()``, whose chance outcomes are this state's, not the sample's."""
        as_int(player_id, "player_id", 0, self._node.table.num_players - 1, ConfigError)
        if not callable(probability_sampler):
            raise ConfigError(
                f"probability_sampler must be callable, not {excerpt(probability_sampler)}"
            )
        draw = probability_sampler()
        number = _fraction(draw)
        if not 0 <= number < 1:
            raise ConfigError(
                f"probability_sampler() must return a number in [0, 1), not {excerpt(draw)}"
            )
        seed = int(number * 2**62)
        sample = self.clone()
        sample._node = self._node.resample(int(player_id), seed)
        return sample  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return self._node.describe()


def _fraction(draw: Any) -> float:
    """A sampler's draw as a float (ints, floats and numpy numbers; NaN for anything else,
    bools and ints beyond a float included)."""
    if isinstance(draw, bool | np.bool_) or not isinstance(draw, numbers.Real):
        return math.nan
    try:
        return float(draw)
    except OverflowError:
        return math.nan


_TRAIL = "_trail"
"""The attribute holding a digest of the state's history (pickled with its node), by which
loading tells a saved history changed apart from the one that led to the saved node."""


def _chained(trail: int, player: int, action: int) -> int:
    """``trail``, the digest of a history, with one more (player, action) pair: a polynomial
    hash modulo the prime 2**61 - 1 (plain ints: the same in every process and version)."""
    return (trail * 1_000_003 + (player + 8) * 2**32 + action) % (2**61 - 1)


def _trail_of(history: Any) -> int:
    """The digest of a ``full_history()`` (0 for none)."""
    trail = 0
    for entry in history:
        trail = _chained(trail, entry.player, entry.action)
    return trail


def _check_history(state: ForestGamesState) -> None:
    """StateError unless a loaded ``state``'s history is the one its saved node was reached
    by (its move count, and its digest where it was saved with one): OpenSpiel saves the
    history as text beside the node and loads both as they stand."""
    history = state.full_history()
    trail = state.__dict__.get(_TRAIL)
    if state.move_number() != len(history) or (trail is not None and trail != _trail_of(history)):
        raise StateError(
            f"a saved state's history ({len(history)} actions, move number "
            f"{state.move_number()}) is not the one that led to its position: its text "
            "was changed"
        )


def _saved_game(text: Any) -> str:
    """The game string a pickled state's text names (its ``[Game]`` line), in short."""
    lines = str(text).split("\n")
    named = lines[lines.index("[Game]") + 1] if "[Game]" in lines[:-1] else "?"
    return excerpt(named)


def _key(node: Node) -> tuple[str, str, str]:
    return node.table.name, node.table.options_json, node.table.utility


def _described(node: Node) -> str:
    table = node.table
    return f"{table.name} {table.options_json} (utility {table.utility!r})"


_Views = tuple[np.ndarray, dict[str, np.ndarray]]
"""An observer's tensor and its named parts (one pair per thread)."""


class Observer:
    """OpenSpiel's observer protocol for one seat's view: ``tensor``, ``dict`` of named
    views of it, ``set_from(state, player)``, ``string_from(state, player)``.

    ``tensor`` and ``dict`` are the calling thread's own buffer: OpenSpiel keeps one
    default observer per game, whose ``set_from`` then reads of ``dict`` threads sharing
    the game would otherwise interleave (one thread's tensor written over another's)."""

    def __init__(self, table: Table, info_state: bool) -> None:
        self.table = table
        self.info_state = info_state
        self._buffers = threading.local()

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles are an observer of the same view, with buffers of their own."""
        return (type(self), (self.table, self.info_state))

    @property
    def tensor(self) -> np.ndarray:
        """This thread's tensor, as the last ``set_from`` in this thread filled it."""
        return self._views()[0]

    @property
    def dict(self) -> dict[str, np.ndarray]:
        """This thread's tensor's named parts: ``turn``, ``flags``, ``observation``."""
        return self._views()[1]

    def _views(self) -> _Views:
        views: _Views | None = getattr(self._buffers, "views", None)
        if views is None:
            players = self.table.num_players
            tensor = np.zeros(self.table.tensor_size, np.float32)
            parts = {
                "turn": tensor[:players],
                "flags": tensor[players : players + HEADER],
                "observation": tensor[players + HEADER :],
            }
            views = self._buffers.views = (tensor, parts)
        return views

    def set_from(self, state: ForestGamesState, player: int) -> None:
        node, seat = self._checked(state, player)
        views = self.dict
        node.write_tensor(seat, views["turn"], views["flags"], views["observation"])

    def string_from(self, state: ForestGamesState, player: int) -> str:
        node, seat = self._checked(state, player)
        return node.view(seat, self.info_state)

    def _checked(self, state: Any, player: Any) -> tuple[Node, int]:
        """The node of ``state``, a state of this observer's game (ConfigError if not), and
        ``player`` as one of its seats (IllegalMoveError if not)."""
        mine = (self.table.name, self.table.options_json)
        if (
            not isinstance(state, ForestGamesState)
            or (state.node.table.name, state.node.table.options_json) != mine
        ):
            raise ConfigError(f"not a state of this observer's game: {excerpt(state)}")
        seat = as_int(player, "player", 0, self.table.num_players - 1, IllegalMoveError)
        return state.node, seat


def register() -> tuple[str, ...]:
    """Register every forestgames game with OpenSpiel (again: nothing happens); return
    their OpenSpiel names."""
    known = set(pyspiel.registered_names())
    for name, cls in GAME_CLASSES.items():
        if short_name(name) not in known:
            pyspiel.register_game(_game_type(name), cls)
    return tuple(short_name(name) for name in GAME_CLASSES)


def _creator(name: str) -> type[ForestGamesGame]:
    """The class OpenSpiel builds game ``name`` with, from its parameters. A class, as
    OpenSpiel's own Python games register: OpenSpiel keeps its creator past the
    interpreter's end, and a creator freed then (a closure, a ``functools.partial``)
    aborts the exit; a class lives in a reference cycle (its ``__mro__``) that nothing
    frees then."""

    def __init__(self: ForestGamesGame, params: dict[str, Any] | None = None) -> None:
        ForestGamesGame.__init__(self, name, params)

    title = name.replace("_", " ").title().replace(" ", "")
    return type(f"ForestGames{title}Game", (ForestGamesGame,), {"__init__": __init__})


GAME_CLASSES: dict[str, type[ForestGamesGame]] = {name: _creator(name) for name in GAME_NAMES}
"""The class of each game, bound in this module by its name so that pickle finds it (a
game pickles as its class and parameters)."""
globals().update({cls.__name__: cls for cls in GAME_CLASSES.values()})
