"""The conformance harness: the shared protocol, checked on any game (yours too).

::

    from forestgames.testing import check_game
    check_game(fg.make("bosk", num_players=3), games=20, seed=0)

:func:`check_game` plays random legal games (every seat that may act is
offered its turn, so out-of-turn play is exercised) and checks, on every state,
the cheap promises of the protocol, and on every few states the expensive
ones: strict JSON and pickle round trips, rendering, notation both ways, observations
and determinizations, refused moves that change nothing (at the end, every move legal
just before it), copies that are free, and, for a game with integer actions, its ids,
masks (with no seat given too) and tensors.
It raises AssertionError naming the game, the seed and the step of the first
promise broken. It needs no test framework, and checks as much under ``python -O``.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from forestgames.agents.base import acting_seat
from forestgames.core import (
    ConfigError,
    ForestGamesError,
    GameBase,
    GameRecord,
    IllegalMoveError,
    ParseError,
    StateBase,
    StateError,
    as_game,
    as_int,
    check_seed,
    derive_seed,
    excerpt,
    make,
    registered_games,
)

__all__ = ["check_game", "random_game", "random_step"]


def _require(ok: object, message: str) -> None:
    """AssertionError(message) unless ``ok``: a checking ``assert`` would vanish under
    ``python -O`` and let every broken promise through."""
    if not ok:
        raise AssertionError(message)


def random_step(state: Any, rng: random.Random) -> Any:
    """One random legal move of a seat that may act now (any seat, for out-of-turn games).
    ConfigError for a bad argument, IllegalMoveError when nobody may act (the game is over)."""
    if not isinstance(rng, random.Random):
        raise ConfigError(f"rng must be a random.Random, not {excerpt(rng)}")
    acting_seat(state)  # ConfigError for a non-state, IllegalMoveError when nobody may act
    seats = state.players_to_act
    player = seats[0] if len(seats) == 1 else rng.choice(seats)
    return rng.choice(state.legal_moves(player))


def random_game(game: Any, seed: int, max_moves: int | None = None) -> list[tuple[Any, Any]]:
    """Every ``(state, move)`` of one random game from ``seed``; the last move is None.

    AssertionError if the game outlives ``max_moves`` (default: its declared maximum);
    ConfigError for a bad argument.
    """
    game = as_game(game)
    limit = game.traits.max_moves if max_moves is None else as_int(max_moves, "max_moves", 0)
    seed = check_seed(seed)
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    steps = []
    for _ in range(limit):
        if state.is_terminal:
            break
        move = random_step(state, rng)
        steps.append((state, move))
        state = state.apply(move)
    _require(state.is_terminal, f"{game.name}: random game {seed} not over after {limit} moves")
    steps.append((state, None))
    return steps


class _NotAMove:
    player = 0

    def __repr__(self) -> str:
        return "<not a move>"


def _raises(error: type[Exception], what: str, call: Callable[..., Any], *args: Any) -> None:
    try:
        call(*args)
    except error:
        return
    except Exception as other:
        raise AssertionError(f"{what}: raised {type(other).__name__}: {other}") from other
    raise AssertionError(f"{what}: did not raise {error.__name__}")


def check_game(game: Any, games: int = 20, seed: int = 0, deep_every: int = 7) -> None:
    """Play ``games`` random games of ``game`` and check the whole shared protocol on them.

    Every ``deep_every``-th state gets the expensive checks. AssertionError
    names what broke; ConfigError a bad argument.
    """
    game = as_game(game)
    if not isinstance(game, GameBase):
        raise ConfigError(
            f"check_game checks games built on forestgames.core.GameBase, not {excerpt(game)}"
        )
    games = as_int(games, "games", 1)
    seed = check_seed(seed)
    deep_every = as_int(deep_every, "deep_every", 1)
    name = game.name
    _named(f"{name}: its traits", lambda: game.traits)
    registered = _named(f"{name}: rebuilt from options()", _check_rebuilt, game)
    saved: dict[Any, str] = {}  # each deep-checked state, to its saved form
    for k in range(games):
        _check_one_game(game, _game_seed(seed, k), deep_every, saved)
    _named(f"{name}: reproducing", _check_reproducible, game, _game_seed(seed, 0), registered)
    _named(f"{name}: first_player", _check_first_player, game)
    _named(f"{name}: bad input", _check_bad_input, game, registered)
    _named(f"{name}: action ids", _check_id_range, game)


def _game_seed(seed: int, k: int) -> int:
    """The seed of ``check_game``'s k-th random game."""
    return derive_seed(seed, k) % 2**32


def _check_rebuilt(game: Any) -> bool:
    """The game's class and (if registered) ``make`` rebuild it from ``options()``; whether
    it is registered."""
    rebuilt = type(game).create(**game.options())
    _require(rebuilt == game, f"{game.name}: options() does not rebuild the game")
    registered = game.name in registered_games()
    if registered:
        _require(make(game.name, **game.options()) == game, f"{game.name}: make(options) differs")
    return registered


def _check_one_game(game: Any, seed: int, deep_every: int, saved: dict[Any, str]) -> None:
    """The random game ``random_game(game, seed)`` plays, each state checked before its
    move is applied; an error a hook raises becomes an AssertionError naming the step."""
    rng, moves = random.Random(seed ^ 0x5EED), random.Random(seed)
    named = f"{game.name} {game.options()} seed {seed}: new_game"
    state = _named(named, game.new_game, seed)
    _require(
        _named(named, game.new_game, seed) == state,
        f"{named}({seed}) gives another state the second time: the start depends on "
        "something besides the seed (a global RNG)",
    )
    start = f"{game.name} {game.options()} seed {seed} step 0"
    _named(start, _check_svg_views, state, start)
    for step in range(game.traits.max_moves + 1):
        where = f"{game.name} {game.options()} seed {seed} step {step}"
        deep = step % deep_every == 0
        state = _named(where, _check_state, game, state, where, saved, deep, rng, moves)
        if state is None:
            return
    raise AssertionError(f"{game.name}: random game {seed} not over after its maximum moves")


def _check_svg_views(state: Any, where: str) -> None:
    """In a game that draws SVG pictures, the referee's and each seat's are text, and a
    seat's is the same in a state it cannot tell apart (a determinization), as its text
    is. Checked at the start of each game only: the pictures take time to draw."""
    game = state.game
    if not game._draws_svg:
        return
    for seat in (None, *range(game.num_players)):
        svg = state.to_svg(seat)
        call = f"to_svg({'' if seat is None else seat})"
        _require(isinstance(svg, str) and svg, f"{where}: {call} is {excerpt(svg)}, not text")
        _require(
            seat is None or state.determinize(seat, 1).to_svg(seat) == svg,
            f"{where}: {call} differs in determinize({seat}, 1), a state seat {seat} cannot "
            "tell apart: it shows something hidden from the seat",
        )


def _named(where: str, call: Any, *args: Any) -> Any:
    """``call(*args)``; any error but the harness's own AssertionError (a broken promise,
    named already) raised as one naming ``where``: an ``assert`` in a game's hook too."""
    try:
        return call(*args)
    except AssertionError as error:
        if _raised_here(error):
            raise
        raise AssertionError(f"{where}: AssertionError: {error}") from error
    except Exception as error:
        raise AssertionError(f"{where}: {type(error).__name__}: {error}") from error


def _raised_here(error: BaseException) -> bool:
    """Whether ``error`` was raised by this module (a promise found broken), not by the
    game's own code (an ``assert`` in a hook, which names no game, seed or step)."""
    last = error.__traceback__
    while last is not None and last.tb_next is not None:
        last = last.tb_next
    return last is not None and last.tb_frame.f_globals.get("__name__") == __name__


def _check_state(
    game: Any,
    state: Any,
    where: str,
    saved: dict[Any, str],
    deep: bool,
    rng: random.Random,
    moves: random.Random,
) -> Any:
    """Check one state of a random game; return its successor by a random move (drawn from
    ``moves``), or None at the end. ``saved``: the states deep-checked so far (to their
    saved forms); ``deep``: whether this state gets the expensive checks (the end always
    does)."""
    if state.is_terminal:
        _check_terminal(game, state, where)
        _check_deep(game, state, None, where, rng, saved)
        return None
    _check_live(game, state, where)
    move = random_step(state, moves)
    if deep:
        _check_deep(game, state, move, where, rng, saved)
    before = state.to_dict()
    successor = state.apply(move)
    _require(
        isinstance(successor, StateBase),
        f"{where}: apply({move}) returned {excerpt(successor)}, not a state (_step returns the "
        "next state)",
    )
    _require(state.to_dict() == before, f"{where}: apply changed the state it was given")
    _require(successor != state, f"{where}: apply returned an equal state")
    hash(successor)
    if successor.is_terminal:
        _check_no_move_after_end(state, successor, where)
    if deep:
        _check_equal_move(game, state, move, successor, where)
    return successor


def _check_equal_move(game: Any, state: Any, move: Any, successor: Any, where: str) -> None:
    """An equal move (parsed from the legal one's notation, as a user holds it) is applied
    too, to the same state."""
    parsed = game.parse_move(str(move))
    try:
        again = state.apply(parsed)
    except IllegalMoveError as error:
        raise AssertionError(
            f"{where}: apply refused {str(move)!r} parsed from its notation, an equal copy "
            f"of a legal move (is its class in MOVE_TYPES?): {error}"
        ) from error
    _require(
        again == successor,
        f"{where}: applying {str(move)!r} twice gives two states: the transition depends "
        "on something besides the state and the move (a global RNG, the move object)",
    )


def _check_no_move_after_end(before: Any, end: Any, where: str) -> None:
    """Each move legal just before the end is refused at the end (IllegalMoveError), and
    the final state is left as it was."""
    data = end.to_dict()
    for seat in before.players_to_act:
        for move in before.legal_moves(seat):
            _raises(IllegalMoveError, f"{where}: after the end, apply({move})", end.apply, move)
    _require(end.to_dict() == data, f"{where}: a move refused after the end changed the state")


def _check_terminal(game: Any, state: Any, where: str) -> None:
    _require(state.current_player is None, f"{where}: current_player is not None at the end")
    _require(state.legal_moves() == (), f"{where}: legal_moves() at the end")
    acting = state.players_to_act
    _require(acting == (), f"{where}: players_to_act is {excerpt(acting)} at the end, not ()")
    winners = state.winners
    _require(
        type(winners) is tuple and all(_is_seat(w, game.num_players) for w in winners),
        f"{where}: winners {excerpt(winners)} are not a tuple of int seats{_not_ints(winners)}",
    )
    _require(winners or game.num_players == 1, f"{where}: nobody won (a lost solo game may)")
    _require(len(set(winners)) == len(winners), f"{where}: a winner listed twice")
    _check_scores(game, state, where)
    low, high = game.traits.score_range
    _require(
        all(low <= s <= high for s in state.scores),
        f"{where}: final scores {state.scores} outside the declared score_range {(low, high)}",
    )
    _require(
        all(state.legal_moves(seat) == () for seat in range(game.num_players)),
        f"{where}: legal moves after the end",
    )


def _check_live(game: Any, state: Any, where: str) -> None:
    moves = state.legal_moves()
    _require(moves == state.legal_moves(), f"{where}: legal_moves not deterministic")
    _require(isinstance(moves, tuple), f"{where}: legal_moves must be a tuple")
    acting = state.players_to_act
    _require(
        type(acting) is tuple and all(_is_seat(seat, game.num_players) for seat in acting),
        f"{where}: players_to_act {excerpt(acting)} is not a tuple of seats{_not_ints(acting)}",
    )
    _require(acting, f"{where}: nobody may act in a live state")
    _require(
        state.current_player is None or acting[0] == state.current_player,
        f"{where}: players_to_act {acting} does not start with current_player "
        f"{state.current_player}",
    )
    _require(len(set(acting)) == len(acting), f"{where}: a seat listed twice in players_to_act")
    _check_current(state, moves, where)
    for seat in range(game.num_players):
        _require(
            bool(state.legal_moves(seat)) == (seat in acting),
            f"{where}: seat {seat} has legal moves exactly when it is in players_to_act "
            f"{acting}: not so",
        )
    _require(state.winners == (), f"{where}: winners before the end")
    _check_scores(game, state, where)
    for seat in acting:
        seat_moves = state.legal_moves(seat)
        _require(len(set(seat_moves)) == len(seat_moves), f"{where}: a legal move listed twice")
        for m in seat_moves:
            if m.player != seat:  # an explicit test: the message is built only on failure
                raise AssertionError(f"{where}: {m!r} belongs to another seat")
            if game.parse_move(str(m)) != m:
                raise AssertionError(f"{where}: notation round trip of {m!r}")


def _check_current(state: Any, moves: Any, where: str) -> None:
    """``legal_moves()`` with no seat given is the current seat's moves (none if no seat
    is current)."""
    current = state.current_player
    _require(
        moves == (() if current is None else state.legal_moves(current)),
        f"{where}: legal_moves() is not legal_moves(current_player), seat {current}'s moves",
    )


def _check_scores(game: Any, state: Any, where: str) -> None:
    scores = state.scores
    _require(
        type(scores) is tuple
        and len(scores) == game.num_players
        and all(isinstance(s, int) and not isinstance(s, bool) for s in scores),
        f"{where}: scores {excerpt(scores)} are not a tuple of one int per seat{_not_ints(scores)}",
    )


def _not_ints(values: Any) -> str:
    """The types of ``values``' items that are not ints, to end a message with (a numpy
    integer or a float prints as the int it equals): "" if there are none."""
    if not isinstance(values, tuple | list):
        return ""
    names = sorted(
        kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
        for kind in {type(v) for v in values if type(v) is not int}
    )
    return f" (they hold {', '.join(names)}, not int)" if names else ""


def _is_seat(value: Any, num_players: int) -> bool:
    return type(value) is int and 0 <= value < num_players


def _check_deep(
    game: Any, state: Any, move: Any, where: str, rng: random.Random, saved: dict[Any, str]
) -> None:
    """The expensive checks of ``state`` (``move`` its random move, None at the end)."""
    data = state.to_dict()
    text = _strict_json(data, "to_dict()", where)
    restored = game.state_from_dict(json.loads(text))
    _require(
        saved.setdefault(state, text) == text,
        f"{where}: the state equals an earlier one (==, hash) that saves otherwise: equality "
        "leaves out part of the state",
    )
    _require(restored == state, f"{where}: to_dict/state_from_dict round trip")
    _require(hash(restored) == hash(state), f"{where}: equal states hash differently")
    loaded = f"{where}: the state loaded from to_dict() has other"
    _require(restored.legal_moves() == state.legal_moves(), f"{loaded} legal moves")
    _require(restored.current_player == state.current_player, f"{loaded} current_player")
    _require(restored.players_to_act == state.players_to_act, f"{loaded} players_to_act")
    _require(restored.is_terminal == state.is_terminal, f"{loaded} is_terminal")
    _require(
        copy.copy(state) is state and copy.deepcopy(state) is state,
        f"{where}: copy.copy or copy.deepcopy of a state is not the state itself",
    )
    _require(
        pickle.loads(pickle.dumps(state)) == state,
        f"{where}: a state pickled and loaded is not equal to itself",
    )
    fields = {a.name for a in attrs.fields(type(state))}
    _require(set(vars(state)) == fields, f"{where}: stray attributes {set(vars(state)) - fields}")
    _check_frozen(state, where)
    picture = state.render()
    _require(
        isinstance(picture, str) and picture,
        f"the referee's picture, render(), is {excerpt(picture)}, not a non-empty text, at {where}",
    )
    if move is not None:
        _require(eval(repr(move), _move_namespace(move)) == move, f"{where}: repr of {move!r}")
    for seat in range(game.num_players):
        _check_seat_view(state, seat, where, rng, saved)
    if _codec_of(game) is not None:
        _check_default_mask(state, where)
    _check_refused(state, data, where)


def _strict_json(data: Any, what: str, where: str) -> str:
    """``data`` as JSON text (keys sorted): strict JSON, no NaN or Infinity, which
    ``json.dumps`` writes by default and other languages' parsers refuse."""
    try:
        return json.dumps(data, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise AssertionError(f"{where}: {what} is not strict JSON: {error}") from error


def _check_frozen(state: Any, where: str) -> None:
    """Setting a field of the state (to its own value: no harm if it works) is refused."""
    name = attrs.fields(type(state))[0].name
    try:
        setattr(state, name, getattr(state, name))
    except AttributeError:  # attrs' FrozenInstanceError among them
        return
    raise AssertionError(f"{where}: state.{name} can be set: a state must be frozen")


def _move_namespace(move: Any) -> dict[str, Any]:
    import importlib

    return vars(importlib.import_module(type(move).__module__))


def _check_seat_view(
    state: Any, seat: int, where: str, rng: random.Random, saved: dict[Any, str]
) -> None:
    """Seat's view, its determinizations and its picture (``saved``: as in _check_deep)."""
    observation = state.observation(seat)
    view = _strict_json(observation, f"observation({seat})", where)
    codec = _codec_of(state.game)
    if isinstance(state.game, GameBase):
        _check_observation_form(state.game, observation, seat, where, codec is None)
    seed = rng.randrange(2**31)
    sample = state.determinize(seat, seed)
    _check_same_view(observation, sample.observation(seat), seat, where)
    _require(
        sample.legal_moves(seat) == state.legal_moves(seat),
        f"{where}: determinize({seat}, seed) changed seat {seat}'s legal moves: they depend on "
        "something hidden from the seat, or determinize redraws something the seat sees",
    )
    other = state.determinize(seat, seed + 1)
    _require(
        other.determinize(seat, seed) == sample,
        f"{where}: determinize({seat}, seed) differs between two states seat {seat} cannot "
        "tell apart: it depends on something hidden from the seat",
    )
    picture = state.render(seat)
    _require(isinstance(picture, str), f"{where}: render({seat})")
    _require(
        other.render(seat) == picture,
        f"{where}: render({seat}) differs between two states seat {seat} cannot tell apart: "
        "it shows something hidden from the seat",
    )
    _check_view_alone(state, seat, view, where, saved)
    if codec is not None:
        _check_actions(state, seat, where)
        _check_tensor(codec, state, other, seat, where)


def _check_same_view(observation: Any, seen: Any, seat: int, where: str) -> None:
    """``seen``, the seat's observation of its determinization, is ``observation``; else an
    AssertionError naming the keys that differ."""
    if seen == observation:
        return
    missing = object()
    keys = sorted(
        str(key)
        for key in {*observation, *seen}
        if seen.get(key, missing) != observation.get(key, missing)
    )
    raise AssertionError(
        f"{where}: observation({seat}) differs at {keys} in determinize({seat}, seed), a state "
        "drawn for the seat's view: the observation shows something hidden from the seat, or "
        "determinize redraws something the seat sees"
    )


def _check_view_alone(state: Any, seat: int, view: str, where: str, saved: dict[Any, str]) -> None:
    """Seat's determinization of seed 0 is the same at every deep-checked state where its
    observation (``view``, as JSON) is the same: it is drawn from its view alone. (Two
    determinizations of one state cannot tell this where determinize returns the state
    itself, the base's default.) ``saved`` keeps them, keyed apart from the states."""
    sample = _strict_json(state.determinize(seat, 0).to_dict(), f"determinize({seat}, 0)", where)
    _require(
        saved.setdefault(("determinize", seat, view), sample) == sample,
        f"{where}: determinize({seat}, 0) differs from an earlier state's where seat {seat}'s "
        "observation was the same: it depends on something hidden from the seat (the base's "
        "determinize, the state itself, shows it every hidden card: a game with hidden "
        "information overrides _determinize)",
    )


def _check_observation_form(game: Any, observation: Any, seat: int, where: str, read: bool) -> None:
    """The observation is seat's own, with the keys and values _observation_fields()
    declares (``read``: checked here; a codec's ``tensor_from_observation`` reads them
    anyway)."""
    _require(
        isinstance(observation, dict) and observation.get("observer") == seat,
        f"{where}: observation({seat}) is not a dict whose 'observer' is {seat}",
    )
    if not read:
        return
    try:
        game._observation_schema.read(observation, f"observation({seat})")
    except StateError as error:
        raise AssertionError(
            f"{where}: observation({seat}) is not what _observation_fields() declares: {error}"
        ) from error


def _codec_of(game: Any) -> Any:
    """The game's integer-action codec, or None if it has none (a codec that fails to
    build is an error, not a game without one)."""
    if isinstance(game, GameBase):
        has_codec = type(game)._make_codec is not GameBase._make_codec
    else:
        has_codec = hasattr(type(game), "codec")
    return game.codec if has_codec else None


def _check_actions(state: Any, seat: int, where: str) -> None:
    """Each of the seat's legal moves has its own id, which decodes back to it, and the
    mask is 1 exactly at those ids."""
    game, moves = state.game, state.legal_moves(seat)
    ids = [game.action_id(m) for m in moves]
    _require(len(set(ids)) == len(ids), f"{where}: two of seat {seat}'s legal moves share an id")
    for move, action in zip(moves, ids, strict=True):
        if not 0 <= action < game.num_actions:  # as in _check_live: no message built per move
            raise AssertionError(f"{where}: id {action} of {move!r} out of range")
        back = game.move_from_id(action, seat)
        if back != move:
            raise AssertionError(f"{where}: id {action} decodes to {back!r}, not {move!r}")
    mask = state.legal_action_mask(seat)
    _require(mask.dtype == np.int8 and mask.shape == (game.num_actions,), f"{where}: mask form")
    _check_not_shared(mask, state.legal_action_mask, seat, f"{where}: legal_action_mask({seat})")
    _require(
        np.flatnonzero(mask).tolist() == sorted(ids),
        f"{where}: seat {seat}'s mask is not 1 exactly at its legal moves' ids",
    )


def _check_not_shared(array: Any, call: Callable[[int], Any], seat: int, what: str) -> None:
    """An array the game hands out is read-only or the caller's own: writing to a writable
    one (as a user may, to mask out moves) changes nothing the game returns next, and the
    next call does not write into it (a buffer shared by every caller)."""
    if not array.flags.writeable:
        return
    kept = array.copy()
    array[...] = 1 - kept
    again = call(seat)
    unchanged = np.array_equal(again, kept)  # before the array is put back
    array[...] = kept
    _require(
        unchanged,
        f"{what} is writable, and writing to it changed the next call's result: the game "
        "keeps it (make it read-only, array.flags.writeable = False, or hand out a copy)",
    )
    _require(
        not np.shares_memory(again, array),
        f"{what} is writable, and the next call hands out the same memory: one caller's "
        "array changes under another's (make it read-only, or hand out a copy)",
    )


def _check_default_mask(state: Any, where: str) -> None:
    """``legal_action_mask()`` and ``legal_action_mask(None)`` are the current seat's mask,
    all zeros when no seat is current (at the end: ``legal_moves()`` is empty there)."""
    current = state.current_player
    if current is None:
        expected = np.zeros(state.game.num_actions, np.int8)
        whose = "all zeros (no seat is current)"
    else:
        expected = state.legal_action_mask(current)
        whose = f"seat {current}'s mask, the current seat's"
    for call, args in (("legal_action_mask()", ()), ("legal_action_mask(None)", (None,))):
        mask = _named(f"{where}: {call}", state.legal_action_mask, *args)
        _require(
            isinstance(mask, np.ndarray)
            and mask.dtype == np.int8
            and np.array_equal(mask, expected),
            f"{where}: {call} is not {whose}",
        )


def _check_tensor(codec: Any, state: Any, other: Any, seat: int, where: str) -> None:
    """The seat's tensor has the declared form, is the one its observation gives, and is
    the same in a state the seat cannot tell apart."""
    tensor = state.observation_tensor(seat)
    shape = tuple(state.game.observation_shape)
    _require(tensor.dtype == np.float32 and tensor.shape == shape, f"{where}: tensor form")
    low, high = codec.observation_bounds
    _require(
        tensor.size == 0 or bool(low <= tensor.min() and tensor.max() <= high),
        f"{where}: observation_tensor({seat}) holds values in {tensor.min()}..{tensor.max()}, "
        f"outside the codec's observation_bounds {(low, high)} (the environments' Box)",
    )
    _check_not_shared(
        tensor, state.observation_tensor, seat, f"{where}: observation_tensor({seat})"
    )
    from_view = codec.tensor_from_observation(state.observation(seat))
    _require(
        np.array_equal(tensor, from_view),
        f"{where}: seat {seat}'s tensor is not the one its observation gives",
    )
    _require(
        np.array_equal(other.observation_tensor(seat), tensor),
        f"{where}: observation_tensor({seat}) differs between two states seat {seat} cannot "
        "tell apart: it shows something hidden from the seat",
    )


def _check_refused(state: Any, data: dict[str, Any], where: str) -> None:
    for junk in (_NotAMove(), "not a move", None, 42):
        _raises(IllegalMoveError, f"{where}: apply({junk!r})", state.apply, junk)
    acting = state.players_to_act
    for seat in range(state.game.num_players):
        if acting and seat not in acting:
            for other in state.legal_moves(acting[0])[:1]:
                moved = attrs.evolve(other, player=seat)
                _raises(IllegalMoveError, f"{where}: {moved}", state.apply, moved)
    _require(state.to_dict() == data, f"{where}: a refused move changed the state")
    broken = copy.deepcopy(data)
    broken.pop(next(iter(broken)))
    _raises(StateError, f"{where}: missing key", state.game.state_from_dict, broken)


def _check_id_range(game: Any) -> None:
    """An id outside ``0..num_actions - 1`` (or no int) is refused, for a game with ids."""
    if _codec_of(game) is None:
        return
    for bad in (-1, game.num_actions, 1.5, None):
        what = f"{game.name}: move_from_id({bad!r}, 0)"
        _raises(IllegalMoveError, what, game.move_from_id, bad, 0)


def _check_reproducible(game: Any, seed: int, registered: bool) -> None:
    run1 = [(s.to_dict(), m) for s, m in random_game(game, seed)]
    run2 = [(s.to_dict(), m) for s, m in random_game(game, seed)]
    _require(run1 == run2, f"{game.name}: seed {seed} does not reproduce the game")
    if not registered:
        return
    record = GameRecord.start(game, seed).with_moves(m for _, m in run1 if m is not None)
    replayed = GameRecord.from_json(record.to_json()).replay()
    _require(replayed[-1].to_dict() == run1[-1][0], f"{game.name}: record replay differs")


def _new_game(game: Any, seed: Any, first_player: Any) -> Any:
    return game.new_game(seed=seed, first_player=first_player)


def _check_first_player(game: Any) -> None:
    for seat in range(game.num_players):
        state = game.new_game(seed=3, first_player=seat)
        _require(
            state.is_terminal or seat in (state.current_player, *state.players_to_act[:1]),
            f"{game.name}: first_player={seat} not honoured",
        )
    for bad_seat in (game.num_players, -1, 1.5, "0", True):
        what = f"{game.name}: new_game(first_player={bad_seat!r})"
        _raises(ConfigError, what, _new_game, game, 3, bad_seat)
    for bad_seed in (-1, 1.5, "7", True, [1], 2**64):
        _raises(ConfigError, f"{game.name}: seed {bad_seed!r}", _new_game, game, bad_seed, None)


BAD_TEXTS: tuple[Any, ...] = (
    "",
    "   ",
    "nonsense",
    "\x00",
    "9" * 50,
    "1:\u0663",
    7,
    None,
    "x" * 10_000,
)
_BAD_SAVES: tuple[Any, ...] = (None, [], {}, "state", {"game": "nope"}, [[[]]], 10**5000)
BAD_SEATS: tuple[Any, ...] = (-1, "0", 1.5, None)


def _check_bad_input(game: Any, registered: bool) -> None:
    for text in BAD_TEXTS:
        _raises(ParseError, f"{game.name}: parse {excerpt(text, 30)}", game.parse_move, text)
    for bad in _BAD_SAVES:
        what = f"{game.name}: load {excerpt(bad, 30)}"
        _raises(StateError, what, game.state_from_dict, bad)
    cls = type(game)
    _raises(ConfigError, f"{game.name}: unknown option", lambda: cls.create(no_such_option=1))
    _raises(ConfigError, f"{game.name}: 99 players", lambda: cls.create(num_players=99))
    state = game.new_game(seed=1)
    for bad_seat in (game.num_players, *BAD_SEATS[:3]):
        _raises(ForestGamesError, f"observation({bad_seat!r})", state.observation, bad_seat)
        _raises(ForestGamesError, f"legal_moves({bad_seat!r})", state.legal_moves, bad_seat)
    for bad_seed in (-1, 1.5, "7", [1]):
        _raises(
            ConfigError,
            f"{game.name}: determinize seed {bad_seed!r}",
            state.determinize,
            0,
            bad_seed,
        )
    if registered:
        _raises(ConfigError, f"{game.name}: make 99", lambda: make(game.name, num_players=99))
