"""Play one game between agents, or simulate many: locally, in processes, or on Ray.

    import forestgames as fg
    record = fg.play(fg.make("bosk"), ["greedy", "random"], seed=1)
    result = fg.simulate(fg.make("bosk", num_players=4), ["random", "greedy"],
                         games=1000, seed=7, workers=2)
    print(result.format_summary())
    result.to_csv("bosk.csv")

Reproducibility: game k of a run seeded S is seeded ``derive_seed(S, k)``, and
every agent is rebuilt fresh for each game from that seed and its seat
(:func:`forestgames.agents.agent_for_game`). So a game's row depends only on
the run's arguments and k: never on the number of workers or the backend.

The driver loop of one game: while it is not over, each seat of
``players_to_act[1:]`` (in a seeded random order) whose agent has
``react(state, seat)`` may move out of turn (a returned move is applied and
the loop starts again); then ``players_to_act[0]`` plays ``choose(state)``.

What only some runs need is imported where it is used, so that ``import forestgames``
(which imports this module for ``fg.play`` and ``fg.simulate``) does not load it: the
process pool's ``multiprocessing`` and ``concurrent.futures`` (workers > 1), ``tqdm`` (a
run), ``hashlib`` and ``secrets`` (a run, a file written), ``logging`` and ``socket``
(Ray). ``tests/test_cold_start.py`` checks.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import errno
import functools
import io
import json
import math
import numbers
import os
import pickle
import random
import re
import stat
import sys
import threading
import time
import urllib.parse
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import attrs

from forestgames._version import __version__
from forestgames.agents import agent_for_game, agent_name, make_agent
from forestgames.agents.base import is_move_of, no_move_error
from forestgames.core import (
    ConfigError,
    GameRecord,
    IllegalMoveError,
    IntLike,
    _jsonable,
    as_bool,
    as_game,
    as_int,
    as_number,
    check_seed,
    derive_seed,
    excerpt,
    is_list_like,
    is_row,
    resolve_seed,
)

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

__all__ = [
    "DEFAULT_CAP_FACTOR",
    "GameRow",
    "SimulationResult",
    "TruncatedGameWarning",
    "clustered_interval",
    "play",
    "play_game",
    "simulate",
    "wilson_interval",
]

DEFAULT_CAP_FACTOR = 4
"""The default move cap is this many times the game's declared ``traits.max_moves``."""

_LOCAL_RETRIES = 3  # times a broken local process pool is rebuilt before giving up
_RAY_RETRIES = 5  # Ray re-runs a task this many times if its worker dies


class TruncatedGameWarning(UserWarning):
    """:func:`play` stopped a game at the move cap before it ended."""


# --------------------------------------------------------------------------- one game


def _move_cap(game: Any, max_moves: IntLike | None) -> int:
    if max_moves is None:
        return DEFAULT_CAP_FACTOR * int(game.traits.max_moves)
    return as_int(max_moves, "max_moves", 1)


def _seat_agents(agents: Sequence[Any], num_players: int) -> list[Any]:
    """The agent of each seat: ``agents`` cycled over the seats, specs built."""
    if isinstance(agents, str):
        raise ConfigError(
            f"agents must be a list of agents or specs, not the string {excerpt(agents)}: "
            f"[{excerpt(agents)}] plays it at every seat"
        )
    if isinstance(agents, bytes | bytearray):
        raise ConfigError(
            f"agents must be a list of agents or specs (specs are str), not {excerpt(agents)}"
        )
    if not isinstance(agents, Sequence) or not agents:
        raise ConfigError(
            f"agents must be a non-empty list of agents or specs, not {excerpt(agents)}"
        )
    if len(agents) > num_players:
        raise ConfigError(
            f"{len(agents)} agents for a {num_players}-player game: give at most one per "
            "seat (fewer are cycled over the seats)"
        )
    built = [make_agent(a, seed=0) for a in agents]
    return [built[seat % len(built)] for seat in range(num_players)]


def play_game(
    game: Any,
    agents: Sequence[Any],
    seed: int,
    max_moves: IntLike | None = None,
    observer: Callable[[Any, Any], None] | None = None,
) -> tuple[GameRecord, Any, bool]:
    """Play one game; return its record, its last state and whether the cap cut it short.

    ``agents`` has one agent (or spec) per seat, cycled if shorter; each is
    rebuilt for this game from ``seed`` and its seat. ``observer(state, move)``,
    if given, hears every move just before it is applied.
    """
    game = as_game(game)
    seed = resolve_seed(seed)
    cap = _move_cap(game, max_moves)
    if observer is not None and not callable(observer):
        raise ConfigError(f"observer must be a function (state, move), not {excerpt(observer)}")
    seats: list[Any] = []
    moves: list[Any] = []
    mover = 0

    def where() -> str:
        if not seats:
            return f"{seed}, while its agents were made"
        agent = agent_name(seats[mover])
        return f"{seed}, after {len(moves)} moves, with seat {mover} (agent {agent}) to move"

    with _noting(f"{_NOTED}in the game seeded ", where, stale=_NOTED):  # notes start here
        seats = [
            agent_for_game(agent, derive_seed(seed, 1, seat))
            for seat, agent in enumerate(_seat_agents(agents, game.num_players))
        ]
        react_order = random.Random(derive_seed(seed, 2))
        state = game.new_game(seed=seed)
        while not state.is_terminal and len(moves) < cap:
            acting = state.players_to_act
            if not acting:
                raise no_move_error(state, None)
            move, mover = None, acting[0]
            if len(acting) > 1:
                others = list(acting[1:])
                react_order.shuffle(others)
                for mover in others:
                    react = getattr(seats[mover], "react", None)
                    if react is not None and (move := react(state, mover)) is not None:
                        break
            if move is None:
                mover = acting[0]
                move = seats[mover].choose(state)
            if observer is not None:
                observer(state, move)
            state = _apply_for(state, move, mover, seats[mover])
            moves.append(move)
    record = GameRecord.start(game, seed).with_moves(moves)
    return record, state, not state.is_terminal


_NOTED = "forestgames: "
"""How this module's notes on exceptions begin."""


@contextlib.contextmanager
def _noting(kind: str, detail: Callable[[], str], stale: str | None = None) -> Iterator[None]:
    """Note ``kind + detail()`` on an exception raised inside (an agent's or the engine's:
    where it happened, to replay it), first dropping the notes that begin with ``stale``
    (default ``kind``): an exception object raised again (a user's module-level one) must
    not keep notes of a game it came from before."""
    try:
        yield
    except Exception as error:
        old = stale if stale is not None else kind
        notes = getattr(error, "__notes__", [])
        if isinstance(notes, list):  # else not notes Python can add to: left as they are
            kept = [n for n in notes if not (isinstance(n, str) and n.startswith(old))]
            error.__notes__ = [*kept, kind + detail()]
        raise


def _apply_for(state: Any, move: Any, seat: int, agent: Any) -> Any:
    """``state.apply(move)`` for the agent of ``seat``; its errors name the agent."""
    name = agent_name(agent)
    if not is_move_of(move, seat):
        raise IllegalMoveError(
            f"agent {name} at seat {seat} returned {excerpt(move)}, not a move of its seat"
        )
    try:
        return state.apply(move)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"agent {name} at seat {seat}: {error}") from None


def play(
    game: Any,
    agents: Sequence[Any],
    seed: IntLike | None = None,
    max_moves: IntLike | None = None,
) -> GameRecord:
    """Play one game between ``agents`` (one per seat, or cycled) and return its record.

    ``game`` is a game or a registered name; ``agents`` are agents or specs
    (``"random"``, ``"greedy"``, ``"mcts:200"``). A game stopped by the move
    cap (default ``DEFAULT_CAP_FACTOR * game.traits.max_moves``) warns with
    :class:`TruncatedGameWarning`; its record then ends before the game does.
    """
    record, _, truncated = play_game(game, agents, resolve_seed(seed), max_moves)
    if truncated:
        warnings.warn(
            f"game seeded {record.seed} stopped at the move cap ({len(record.moves)} moves)",
            TruncatedGameWarning,
            stacklevel=2,
        )
    return record


# --------------------------------------------------------------------------- rows


@attrs.frozen
class GameRow:
    """The outcome of game ``index`` of a run (one JSON line of a results file).

    ``agents`` names each seat's agent, ``first_player`` the seat that moved
    first, ``winners`` is empty for a truncated game, ``run`` the digest of the
    run's arguments (it ties a results file to its run for resuming).
    """

    index: int
    seed: int
    first_player: int
    agents: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    moves: int
    truncated: bool
    run: str

    def __attrs_post_init__(self) -> None:
        """ConfigError unless the seats agree: one score per agent, and the first player
        and each winner (at most once) one of the seats; and a truncated game has none."""
        parts = (self.agents, self.scores, self.winners)
        if not all(isinstance(part, tuple | list) for part in parts) or not all(
            isinstance(w, numbers.Integral) and not isinstance(w, bool) for w in self.winners
        ):
            raise ConfigError(
                f"game {self.index}: agents, scores and winners must be tuples (winners of "
                f"seats), not {excerpt(self.agents)}, {excerpt(self.scores)}, "
                f"{excerpt(self.winners)}"
            )
        seats = range(len(self.agents))
        if (
            len(self.scores) != len(seats)
            or self.first_player not in seats
            or len(set(self.winners)) != len(self.winners)
            or not set(self.winners) <= set(seats)
        ):
            raise ConfigError(
                f"game {self.index} has {len(seats)} agents, scores {excerpt(self.scores)}, "
                f"first player {excerpt(self.first_player)} and winners {excerpt(self.winners)}:"
                " one score per seat, the first player and each winner (once) among the seats"
            )
        self._keep_plain()
        if self.truncated and self.winners:
            raise ConfigError(
                f"game {self.index} is truncated, so it has no winners, not {excerpt(self.winners)}"
            )

    def _keep_plain(self) -> None:
        """Keep the fields as the plain values a results line holds, numpy's integers and
        bools as ints and bools, lists as tuples, so that the row writes as JSON and reads
        back as itself; ConfigError naming a count below 0, a score that is no int, a flag
        that is no bool, or names that are no text (from_dict refuses each)."""
        plain: dict[str, Any] = {name: as_int(getattr(self, name), name, 0) for name in _ROW_COUNTS}
        plain["scores"] = tuple(as_int(score, "each score") for score in self.scores)
        plain["winners"] = tuple(int(w) for w in self.winners)
        plain["truncated"] = as_bool(self.truncated, "truncated")
        if not all(isinstance(name, str) for name in self.agents) or not isinstance(self.run, str):
            raise ConfigError(
                f"game {self.index}: the agents' names and the run must be text, not "
                f"{excerpt(self.agents)} and {excerpt(self.run)}"
            )
        plain["agents"] = tuple(self.agents)
        for name, value in plain.items():
            object.__setattr__(self, name, value)

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON-able data (one line of a results file)."""
        return {
            "index": self.index,
            "seed": self.seed,
            "first_player": self.first_player,
            "agents": list(self.agents),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "moves": self.moves,
            "truncated": self.truncated,
            "run": self.run,
        }

    @classmethod
    def from_dict(cls, data: Any) -> GameRow:
        """A row from :meth:`to_dict` output (lists become tuples); ConfigError names a
        missing field or a value of the wrong type."""
        if not isinstance(data, dict):
            raise ConfigError(f"a result row is an object, not {excerpt(data)}")
        missing = [field.name for field in attrs.fields(cls) if field.name not in data]
        if missing:
            raise ConfigError(f"a result row needs {', '.join(missing)}")
        values: dict[str, Any] = {name: as_int(data[name], name, 0) for name in _ROW_COUNTS}
        values["scores"] = _row_items(data, "scores", int, as_int)
        values["winners"] = _row_items(data, "winners", int, lambda v, what: as_int(v, what, 0))
        values["agents"] = _row_items(data, "agents", str, lambda v, what: v)
        values["truncated"] = _row_value(data, "truncated", bool)
        values["run"] = _row_value(data, "run", str)
        return cls(**values)

    def to_json(self) -> str:
        """The row as one compact JSON line."""
        return json.dumps(self.to_dict(), separators=(",", ":"))


_ROW_COUNTS = ("index", "seed", "first_player", "moves")


def _row_value(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data[name]
    if not isinstance(value, kind):
        raise ConfigError(f"field {name} must be a {kind.__name__}, not {excerpt(value)}")
    return value


def _row_items(
    data: dict[str, Any], name: str, kind: type, check: Callable[[Any, str], Any]
) -> tuple[Any, ...]:
    items = _row_value(data, name, list)
    if any(not isinstance(item, kind) or isinstance(item, bool) for item in items):
        raise ConfigError(f"field {name} must list {kind.__name__}s, not {excerpt(items)}")
    return tuple(check(item, name) for item in items)


@attrs.frozen
class _Run:
    """Everything a worker needs to play any game of a run (picklable).

    ``agents`` are the run's agents; game ``index`` seats them as
    ``lineups[index % len(lineups)]`` says (one agent index per seat).
    """

    game: Any
    agents: tuple[Any, ...]
    lineups: tuple[tuple[int, ...], ...]
    seed: int
    cap: int
    digest: str

    @property
    def names(self) -> tuple[str, ...]:
        """The agents' names, as rows give them, each once."""
        return tuple(dict.fromkeys(agent_name(agent) for agent in self.agents))

    def lineup(self, index: int) -> list[Any]:
        """The agent of each seat in game ``index``."""
        return [self.agents[k] for k in self.lineups[index % len(self.lineups)]]

    def _replayed_by(self, index: int) -> str:
        """Game ``index`` and the call that replays it alone (its seats' agents, its seed
        and the cap)."""
        cap = "" if self.cap == _move_cap(self.game, None) else f", max_moves={self.cap}"
        names = list(self.lineup_names(index))
        seed = derive_seed(self.seed, index)
        return (
            f"{index} of the run; fg.play(game, agents, seed={seed}{cap}) replays it, "
            f"with the seats' agents {names}"
        )

    def lineup_names(self, index: int) -> tuple[str, ...]:
        """The name of each seat's agent in game ``index``, as its row gives them."""
        return tuple(agent_name(agent) for agent in self.lineup(index))

    def play(self, index: int) -> GameRow:
        seed = derive_seed(self.seed, index)
        with _noting(f"{_NOTED}game ", lambda: self._replayed_by(index)):
            record, state, truncated = play_game(self.game, self.lineup(index), seed, self.cap)
        acting = self.game.new_game(seed=seed).players_to_act
        if not acting:
            raise ConfigError(
                f"game {index} of the run (seed {seed}) is over before its first move: its row "
                "would name no first player (a row names the seat that moved first)"
            )
        return GameRow(
            index=index,
            seed=seed,
            first_player=int(acting[0]),
            agents=self.lineup_names(index),
            scores=tuple(int(s) for s in state.scores),
            winners=() if truncated else tuple(int(w) for w in state.winners),
            moves=len(record.moves),
            truncated=truncated,
            run=self.digest,
        )

    def play_many(self, indices: Sequence[int]) -> tuple[list[GameRow], float]:
        """The rows of games ``indices`` and the seconds they took."""
        start = time.perf_counter()
        rows = [self.play(index) for index in indices]
        return rows, time.perf_counter() - start


def _digest(described: dict[str, Any]) -> str:
    """The run's identity in a results file's rows. It holds the library's version: rules,
    deals and agents change between versions, so another version's rows are not this run's
    games (a resume would mix the two silently)."""
    import hashlib  # here, as the modules below: see the module's docstring

    text = json.dumps(described | {"forestgames": __version__}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _make_run(
    game: Any, agents: Sequence[Any], seed: int, rotate: bool, max_moves: IntLike | None
) -> _Run:
    """The run of :func:`simulate`: ``agents`` cycled over the seats, turned each game
    by one seat if ``rotate``."""
    seats = tuple(_seat_agents(agents, game.num_players))
    cap = _move_cap(game, max_moves)
    p = game.num_players
    turns = range(p) if rotate else range(1)
    lineups = tuple(tuple((seat + shift) % p for seat in range(p)) for shift in turns)
    described = {
        "game": game.name,
        "options": game.options(),
        "seed": seed,
        "agents": [
            _described(s, a) for s, a in zip(_cycle(agents, len(seats)), seats, strict=True)
        ],
        "rotate": bool(rotate),
        "cap": cap,
    }
    return _Run(game, seats, lineups, seed, cap, _digest(described))


def make_lineup_run(
    game: Any,
    agents: Sequence[Any],
    lineups: Sequence[Sequence[int]],
    seed: int,
    max_moves: IntLike | None,
) -> _Run:
    """A run seating ``agents`` (built from specs) by ``lineups`` (used cyclically)."""
    built = tuple(make_agent(a, seed=0) for a in agents)
    p = game.num_players
    last = len(built) - 1
    tables = tuple(tuple(as_int(k, "a lineup's agent index", 0, last) for k in t) for t in lineups)
    if not tables or any(len(t) != p for t in tables):
        raise ConfigError(f"lineups must list {p} agent indices per game, not {excerpt(lineups)}")
    cap = _move_cap(game, max_moves)
    described = {
        "game": game.name,
        "options": game.options(),
        "seed": seed,
        "agents": [_described(s, a) for s, a in zip(agents, built, strict=True)],
        "lineups": [list(t) for t in tables],
        "cap": cap,
    }
    return _Run(game, built, tables, seed, cap, _digest(described))


_ADDRESS = re.compile(r" at 0x[0-9A-Fa-f]+")
"""The memory address in a default repr (``<mine.Agent object at 0x7f...>``)."""


def _described(spec: Any, agent: Any) -> str:
    """An agent as a run's digest knows it: a spec's name, else its repr without a memory
    address (which differs from process to process: a run of an agent of the default repr
    could never be resumed)."""
    return str(agent.name) if isinstance(spec, str) else _ADDRESS.sub("", repr(agent))


def _cycle(items: Sequence[Any], n: int) -> list[Any]:
    return [items[i % len(items)] for i in range(n)]


# --------------------------------------------------------------------------- statistics


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for the default ``z``); ConfigError
    unless ``0 <= successes <= trials`` are ints and ``z`` a finite number > 0."""
    trials = as_int(trials, "trials", 0, 2**53)  # counts a float holds exactly
    successes = as_int(successes, "successes", 0, trials)
    z = as_number(z, "z", 0, strict=True)
    if trials == 0:
        return (0.0, 1.0)
    return _wilson(successes / trials, trials, z)


def _wilson(p: float, trials: float, z: float) -> tuple[float, float]:
    """The Wilson interval of rate ``p`` over ``trials`` > 0 (a float: an effective number)."""
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return (low, high)


def clustered_interval(
    per_game: Sequence[tuple[int, int]], z: float = 1.959964
) -> tuple[float, float]:
    """A 95% interval (for the default ``z``) of a rate pooled over games where one agent
    held several seats: ``per_game`` is (wins, seats) of each game. Seats of one game
    that win together (shared wins) are fewer independent trials than seats, so the
    Wilson interval is taken over the effective number of trials the spread between
    games implies (Kish's design effect, with the cluster-robust variance of the pooled
    rate), never more than the seats: where seats rarely win together (self-play) the
    seats' own interval is kept, on the safe side, as the spread of a few games cannot
    tell. Like any interval from an estimated spread, one more win can move a bound the
    other way by a little (under 0.002 in 20 games of 3 seats). ConfigError unless each
    game's seats are an int >= 1 and its wins an int in 0..seats (``per_game`` a list of
    such pairs, not one pair's text or None)."""
    z = as_number(z, "z", 0, strict=True)
    if not is_list_like(per_game):
        raise ConfigError(
            f"per_game must be a list of (wins, seats) pairs, not {excerpt(per_game)}"
        )
    counts = [_game_counts(entry) for entry in per_game]
    games = len(counts)
    wins = sum(w for w, _ in counts)
    seats = sum(n for _, n in counts)
    if not seats:
        return (0.0, 1.0)
    p = wins / seats
    spread = 0.0
    if games > 1:
        spread = games / (games - 1) * sum((w - p * n) ** 2 for w, n in counts) / seats**2
    if spread == 0:  # all wins or none, or the same rate every game: the seats' interval
        return _wilson(p, seats, z)
    return _wilson(p, min(seats, p * (1 - p) / spread), z)


def _game_counts(entry: Any) -> tuple[int, int]:
    """One game's (wins, seats) of :func:`clustered_interval`; ConfigError if it is not."""
    if not is_row(entry, 2):
        raise ConfigError(f"each game is a (wins, seats) pair, not {excerpt(entry)}")
    seats = as_int(entry[1], "seats", 1, 2**53)  # a game without the agent is left out
    return as_int(entry[0], "wins", 0, seats), seats


def _mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation; NaN where undefined (no values, or
    one value for the deviation)."""
    if not values:
        return (math.nan, math.nan)
    mean = sum(values) / len(values)
    if len(values) < 2:
        return (mean, math.nan)
    return (mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)))


def _tally(
    label: str,
    wins: int,
    games: int,
    scores: Sequence[float],
    ci95: tuple[float, float] | None = None,
) -> dict[str, Any]:
    """The summary of one seat or agent: ``ci95`` the interval, Wilson's when None."""
    low, high = wilson_interval(wins, games) if ci95 is None else ci95
    mean, sd = _mean_sd(scores)
    return {
        "label": label,
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else math.nan,
        "ci95": (low, high),
        "mean_score": mean,
        "sd_score": sd,
    }


def _places_tally(
    label: str, rows: Sequence[GameRow], chosen: Callable[[GameRow, int], bool]
) -> dict[str, Any]:
    """The tally of the seats ``chosen(row, seat)`` picks in ``rows``; its interval is
    :func:`clustered_interval`'s where some game gave it several seats."""
    held = [(row, [s for s in range(len(row.scores)) if chosen(row, s)]) for row in rows]
    per_game = [(sum(s in row.winners for s in seats), len(seats)) for row, seats in held if seats]
    scores = [row.scores[s] for row, seats in held for s in seats]
    clustered = clustered_interval(per_game) if any(n > 1 for _, n in per_game) else None
    return _tally(label, sum(w for w, _ in per_game), len(scores), scores, clustered)


def _at_seat(seat: int, row: GameRow, place: int) -> bool:
    return place == seat


def _played_by(name: str, row: GameRow, place: int) -> bool:
    return row.agents[place] == name


def table_label(label: str) -> str:
    """A label as the table prints it: on one line (a newline, tab or other control
    character in an agent's name is shown escaped, as in its repr)."""
    return label if label.isprintable() else repr(label)[1:-1]


def _tally_line(t: dict[str, Any], width: int) -> str:
    """One line of the summary table, its label ``width`` wide; "-" where no game ended
    (no rate to show), and for the standard deviation of a single game."""
    label = table_label(t["label"])
    if not t["games"]:
        return f"{label:<{width}} {0:>6} {0:>6} {'-':>9}  {'-':<15} {'-':>10} {'-':>6}"
    low, high = t["ci95"]
    interval = f"[{low:5.1%}, {high:5.1%}]"
    sd = "-" if math.isnan(t["sd_score"]) else f"{t['sd_score']:.2f}"
    return (
        f"{label:<{width}} {t['games']:>6} {t['wins']:>6} {t['win_rate']:>9.1%}  "
        f"{interval:<15} {t['mean_score']:>10.2f} {sd:>6}"
    )


@attrs.frozen
class SimulationResult:
    """The rows of a run (sorted by game index) and their summary."""

    game: str
    options: dict[str, Any]
    seed: int
    rows: tuple[GameRow, ...]
    agents: tuple[str, ...] = ()
    """The names of the run's agents, each once: the summary lists each, with 0 games if it
    played none."""

    __hash__ = None  # type: ignore[assignment]  # options is a dict, as a GameRecord's

    def __attrs_post_init__(self) -> None:
        """ConfigError unless ``rows`` are GameRows of games with the same number of seats,
        and the run's game, options, seed and agents what a run has (a name, JSON values, a
        seed, names); kept as plain values (numpy's as Python's, lists as tuples), so that
        its summary and a tournament's JSON of it can be written."""
        rows = self.rows
        if not isinstance(rows, tuple | list) or not all(isinstance(r, GameRow) for r in rows):
            raise ConfigError(f"rows must be a tuple of GameRow, not {excerpt(rows)}")
        sizes = sorted({len(row.agents) for row in rows})
        if len(sizes) > 1:
            raise ConfigError(f"rows must be games of one size, not of {sizes} seats")
        agents = self.agents
        if (
            not isinstance(self.game, str)
            or not isinstance(self.options, dict)
            or not isinstance(agents, tuple | list)
            or not all(isinstance(name, str) for name in agents)
        ):
            raise ConfigError(
                "a result's game is a name, its options a dict and its agents a tuple of names, "
                f"not {excerpt(self.game)}, {excerpt(self.options)} and {excerpt(agents)}"
            )
        object.__setattr__(self, "options", _jsonable(self.options, "result"))
        object.__setattr__(self, "seed", check_seed(self.seed, "a result's seed"))
        object.__setattr__(self, "rows", tuple(rows))
        object.__setattr__(self, "agents", tuple(agents))

    def __repr__(self) -> str:
        """One line, whatever the number of rows (a notebook shows it): ``format_summary()``
        gives the figures, ``rows`` the games."""
        return (
            f"<SimulationResult {self.game} {self.options!r} seed={self.seed}: "
            f"{len(self.rows)} games, agents {list(self.agents)}>"
        )

    def _players(self) -> int:
        """The seats of the run's games (from the options when there are no rows)."""
        return len(self.rows[0].scores) if self.rows else int(self.options.get("num_players", 0))

    def summary(self) -> dict[str, Any]:
        """Win rates (a shared win counts for each winner) with Wilson 95% intervals
        (:func:`clustered_interval`'s for an agent that held several seats of a game; an
        agent's ``games`` count its seats), score means and sample standard deviations,
        per seat and per agent, over
        the games that ended (every agent of the run is listed, with 0 games if
        none of its games ended); plus game counts and the mean length of all
        games. A value with no data (a rate of no games, the deviation of one
        game) is NaN."""
        done = [row for row in self.rows if not row.truncated]
        players = self._players()
        seats = [
            _places_tally(str(seat), done, functools.partial(_at_seat, seat))
            for seat in range(players)
        ]
        names = sorted({name for row in self.rows for name in row.agents}.union(self.agents))
        agents = [_places_tally(name, done, functools.partial(_played_by, name)) for name in names]
        lengths = [row.moves for row in self.rows]
        return {
            "game": self.game,
            "players": players,
            "games": len(self.rows),
            "truncated": len(self.rows) - len(done),
            "mean_moves": sum(lengths) / len(lengths) if lengths else math.nan,
            "seats": seats,
            "agents": agents,
        }

    def format_summary(self) -> str:
        """The summary as a small text report."""
        s = self.summary()
        length = "-" if math.isnan(s["mean_moves"]) else f"{s['mean_moves']:.1f}"
        lines = [
            f"{s['game']}, {s['players']} players: {s['games']} games "
            f"({s['truncated']} truncated), mean length {length} moves"
        ]
        width = max([12, *(len(table_label(t["label"])) for t in s["agents"])])  # long agent specs
        for title, tallies in (("seat", s["seats"]), ("agent", s["agents"])):
            lines.append(
                f"{title:<{width}} {'games':>6} {'wins':>6} {'win rate':>9}  {'95% CI':<15} "
                f"{'mean score':>10} {'sd':>6}"
            )
            for t in tallies:
                lines.append(_tally_line(t, width))
        return "\n".join(lines)

    def to_jsonl(self, path: str | Path) -> None:
        """Write the rows as JSON lines (the format ``out=`` writes while running)."""
        write_file(path, "".join(row.to_json() + "\n" for row in self.rows))

    def to_csv(self, path: str | Path | None = None) -> str:
        """The rows as CSV (one column per seat for agents and scores; winners
        joined by ';'); written to ``path`` if given, and returned."""
        players = self._players()
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(
            ["index", "seed", "first_player"]
            + [f"agent_{p}" for p in range(players)]
            + [f"score_{p}" for p in range(players)]
            + ["winners", "moves", "truncated", "run"]
        )
        for row in self.rows:
            writer.writerow(
                [
                    row.index,
                    row.seed,
                    row.first_player,
                    *row.agents,
                    *row.scores,
                    ";".join(map(str, row.winners)),
                    row.moves,
                    "true" if row.truncated else "false",  # as in the JSON lines
                    row.run,
                ]
            )
        text = buffer.getvalue()
        if path is not None:
            write_file(path, text)
        return text


# --------------------------------------------------------------------------- results file


def _load_results(path: Path, run: _Run, games: int) -> dict[int, GameRow]:
    """The rows already in ``path`` (a resumed run); a torn last line is cut off, once
    every whole line has been read as a row of this run (so a file that is not this run's
    results is refused untouched). A last row whole but for its newline (a short write)
    is cut off too, once read as a row of this run: its game is played again. A leading
    byte-order mark (a Windows editor's) is skipped."""
    whole = path.read_bytes()
    data = whole.removeprefix(codecs.BOM_UTF8)
    keep = data.rfind(b"\n") + 1
    torn = data[keep:]
    if torn and not _could_be_torn(torn):
        last = torn.decode("utf-8", "replace")
        _result_row(path, data.count(b"\n") + 1, last, run)  # ConfigError if not a row
    try:
        text = data[:keep].decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not a results file (not UTF-8 text)") from None
    rows: dict[int, GameRow] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            row = _result_row(path, number, line, run)
            if rows.setdefault(row.index, row) != row:
                raise ConfigError(
                    f"{path}:{number} gives game {row.index} another outcome than an earlier "
                    "line: the file mixes two tries at it, or was edited"
                )
    rows = {index: row for index, row in rows.items() if index < games}
    if torn:  # interrupted while writing a line: drop the fragment
        with open(path, "r+b") as file:
            file.truncate(keep + len(whole) - len(data))
    return rows


_ROW_START = b'{"index":'
"""How every line of a results file begins (:meth:`GameRow.to_json`)."""
_TORN_LIMIT = 1 << 20
"""A row is far shorter than this, so an unfinished last line is too."""


def _could_be_torn(line: bytes) -> bool:
    """Whether ``line`` (the last, with no newline) can be a row cut off while written: the
    start of a row, short, and not a whole JSON value (a row is written with its newline)."""
    if len(line) > _TORN_LIMIT or not _ROW_START.startswith(line[: len(_ROW_START)]):
        return False
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return True
    return False


def _result_row(path: Path, number: int, line: str, run: _Run) -> GameRow:
    """Line ``number`` of a results file as a row of ``run``; ConfigError if it is not."""
    try:
        row = GameRow.from_dict(json.loads(line))
    except (ValueError, ConfigError, RecursionError) as error:  # ValueError: bad JSON, huge ints
        why = excerpt(str(error), 120)
        raise ConfigError(f"{path}:{number} is not a result row ({why})") from None
    if row.run != run.digest:
        raise ConfigError(
            f"{path} holds rows of another run (run {excerpt(row.run)}, this one {run.digest}): "
            f"resume with the forestgames version that began it (this is {__version__}) and "
            "the same game, options, agents, seed, seat rotation and move cap"
        )
    reason = _not_of_run(row, run)
    if reason:
        raise ConfigError(f"{path}:{number} is not a result row of this run: {reason}")
    return row


_SCORE_LIMIT = 10**9
"""No seat's score comes near this; a row beyond it is not a game's."""


def _not_of_run(row: GameRow, run: _Run) -> str | None:
    """Why ``row`` cannot be game ``row.index`` of ``run`` as played; None if it can be."""
    p = run.game.num_players
    if not len(row.agents) == len(row.scores) == p or max((row.first_player, *row.winners)) >= p:
        return f"not a row of a {p}-player game"
    if row.seed != derive_seed(run.seed, row.index):
        return f"game {row.index} of this run is seeded {derive_seed(run.seed, row.index)}"
    if row.agents != run.lineup_names(row.index):
        return f"game {row.index} of this run seats other agents"
    if len(set(row.winners)) < len(row.winners) or (row.truncated and row.winners):
        return "its winners are not those of a game (repeated, or of a cut game)"
    if row.moves > run.cap or any(abs(score) > _SCORE_LIMIT for score in row.scores):
        return f"more moves than the cap ({run.cap}) or a score beyond any game's"
    return None


# --------------------------------------------------------------------------- running

CHUNK_SECONDS = 0.1
"""Work chunks aim at about this long: long enough that handing a chunk to a
worker costs little, short enough that the workers finish together."""
_MAX_CHUNK = 256


class _Chunker:
    """Game indices ``0..games-1`` (but those ``done``) handed out in chunks sized to the
    work measured so far.

    The first chunks hold one game each; then each holds about
    ``CHUNK_SECONDS`` of games at the measured pace, never more than a quarter
    of what is left per worker (so the last chunks are small and the workers
    end together). Indices are drawn as they are handed out, so a run of any
    length starts at once.
    """

    def __init__(self, games: int, workers: int, done: Collection[int] = ()) -> None:
        self._fresh = (k for k in range(games) if k not in done)
        self._returned: list[int] = []  # indices of dead workers' chunks, played first
        self.left = games - sum(1 for k in done if 0 <= k < games)
        self.workers = workers
        self.games = 0
        self.seconds = 0.0

    def __bool__(self) -> bool:
        return self.left > 0

    def observe(self, games: int, seconds: float) -> None:
        """Record that ``games`` games took ``seconds`` in one worker."""
        self.games += games
        self.seconds += seconds

    def take(self) -> list[int]:
        """The next chunk of indices, lowest first (empty when all are handed out)."""
        size = 1
        if self.games:
            pace = self.seconds / self.games
            size = round(CHUNK_SECONDS / pace) if pace > 0 else _MAX_CHUNK
            size = min(size, _MAX_CHUNK, self.left // (4 * self.workers))
        count = min(max(1, size), self.left)
        chunk = self._returned[:count]
        del self._returned[:count]
        chunk += islice(self._fresh, count - len(chunk))
        self.left -= len(chunk)
        return chunk

    def give_back(self, chunk: Sequence[int]) -> None:
        """Return a chunk whose worker died: its games are played again."""
        self._returned = sorted([*self._returned, *chunk])
        self.left += len(chunk)


def _warm_up(game: Any) -> None:
    """Play one short random game so the game's tables and modules are ready
    (in the parent before workers fork, or in each worker that starts fresh)."""
    rng = random.Random(0)
    state = game.new_game(seed=0)
    for _ in range(int(game.traits.max_moves)):
        if state.is_terminal:
            return
        seats = state.players_to_act
        state = state.apply(rng.choice(state.legal_moves(seats[0])))


_WORKER_RUN: _Run | None = None
_WORKER_ERROR: ConfigError | None = None
"""Why this worker cannot play (its run could not be loaded), raised by its first chunk."""


def _init_worker(run: _Run | bytes, warm: bool, run_pid: int, started: Any = None) -> None:
    """Start a worker: ``run`` as it is (forked) or pickled, loaded here so that an agent
    the worker cannot load is the run's ConfigError; ``started`` (an Event, for workers not
    forked) tells the run that the worker came this far."""
    global _WORKER_RUN, _WORKER_ERROR
    if started is not None:
        started.set()
    _exit_when_orphaned(run_pid)
    try:
        _WORKER_RUN = pickle.loads(run) if isinstance(run, bytes) else run
    except Exception as error:  # AttributeError, ImportError, ... from the agents' classes
        _WORKER_ERROR = _unloadable_run(error)
        return
    single_thread_blas()
    if warm:
        _warm_up(_WORKER_RUN.game)


def _unloadable_run(error: Exception) -> ConfigError:
    """The error of a worker that cannot load its run (an agent's class it cannot find)."""
    why = excerpt(f"{type(error).__name__}: {error}", 160)
    return ConfigError(
        f"a worker process cannot load the run's agents ({why}): workers not forked (macOS, "
        "Windows, a process running threads) import each agent's class by its module and "
        "name, so define it at the top level of a module or script, not under "
        "'if __name__ == \"__main__\":', in a notebook or in python -c; or use workers=1"
    )


def _workers_did_not_start(method: str) -> ConfigError:
    """The error of workers started by ``method`` that all died before their first step
    (each printed its own error on stderr)."""
    return ConfigError(
        f"the worker processes (started by {method}) ended as they started, before playing "
        "a game (their error is printed above): each imports the script that started the "
        "run again, so a script must call simulate or tournament with workers > 1 under "
        "'if __name__ == \"__main__\":' (else every worker starts the run again), and "
        "nothing else at its top level may fail in a worker; or use workers=1"
    )


_ORPHAN_POLL_SECONDS = 0.5


def _exit_when_orphaned(run_pid: int) -> None:
    """End this worker once the run's process ``run_pid`` is gone (killed, say: it cannot
    tell its workers then, and they would wait for work for ever).

    A daemon thread watches. On POSIX it looks twice a second whether its parent changed
    or ``run_pid`` is gone (under ``forkserver`` the parent is the fork server, which stays
    while its workers do). Elsewhere (Windows' spawn) it waits on multiprocessing's
    sentinel of the parent, ready once it exits."""
    import multiprocessing.connection

    parent = os.getppid()
    process = multiprocessing.parent_process()
    sentinel = None if process is None else process.sentinel

    def run_is_there() -> bool:
        if os.getppid() != parent:
            return False
        try:
            os.kill(run_pid, 0)  # signal 0: only asks whether the process exists
        except (ProcessLookupError, PermissionError):  # gone, or its pid reused
            return False
        return True

    def watch() -> None:
        if os.name == "posix":
            while run_is_there():
                time.sleep(_ORPHAN_POLL_SECONDS)
        elif sentinel is not None:
            multiprocessing.connection.wait([sentinel])
        else:
            return  # nothing to watch
        os._exit(1)

    threading.Thread(target=watch, name="forestgames-orphan-watch", daemon=True).start()


# --------------------------------------------------------------------------- BLAS threads


def single_thread_blas() -> bool:
    """Hold this process's BLAS to one thread; True if a thread pool was found and limited.

    Local worker processes call it: the run's parallelism is its workers, and BLAS
    threads in each (numpy's matrix products start one per core) only contend
    for the same cores. Environment variables such as ``OPENBLAS_NUM_THREADS``
    act only before numpy is imported, and a forked worker has numpy already,
    so the limit is set at run time, with ``threadpoolctl`` (every BLAS and
    OpenMP library the process has loaded).
    """
    from threadpoolctl import ThreadpoolController  # here: only workers need it

    controller = ThreadpoolController()
    controller.limit(limits=1)
    return bool(controller.lib_controllers)


def _worker_play(indices: list[int]) -> tuple[list[GameRow], float]:
    if _WORKER_ERROR is not None:
        raise _WORKER_ERROR
    assert _WORKER_RUN is not None
    with _sent_back_whole():
        return _WORKER_RUN.play_many(indices)


@contextlib.contextmanager
def _sent_back_whole() -> Iterator[None]:
    """In a worker: an exception raised inside that cannot travel back (one that pickles
    but cannot be unpickled, for a constructor of other arguments, broke the process pool,
    which then replayed the run's chunks and reported a worker "terminated abruptly")
    becomes a RuntimeError naming it, with its notes and it as the cause."""
    try:
        yield
    except Exception as error:
        try:
            pickle.loads(pickle.dumps(error))
        except Exception:  # any failure to make the round trip
            portable = RuntimeError(
                f"{type(error).__module__}.{type(error).__qualname__}: {error} "
                "(raised in a worker, as an exception that cannot be sent back whole)"
            )
            notes = getattr(error, "__notes__", ())
            portable.__notes__ = [
                n for n in (notes if isinstance(notes, list | tuple) else ()) if isinstance(n, str)
            ]
            raise portable from error
        raise


def process_context() -> Any:
    """The multiprocessing context local workers start with.

    ``fork`` on Linux when this process runs a single thread: workers start at
    once with everything already imported and built (nothing is pickled
    either); else ``forkserver`` with the library preloaded (one import, then
    a fork per worker); ``spawn`` where neither exists (Windows).
    """
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    if sys.platform == "linux" and "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        # the pool's worker module too: this module imports it only when a pool starts
        context.set_forkserver_preload(["forestgames", "concurrent.futures.process"])
        return context
    return multiprocessing.get_context("spawn")


def _run_local(
    run: _Run, chunker: _Chunker, workers: int, emit: Callable[[list[GameRow]], None]
) -> None:
    if workers == 1:
        while chunker:
            rows, seconds = run.play_many(chunker.take())
            chunker.observe(len(rows), seconds)
            emit(rows)
        return
    context = process_context()
    method = context.get_start_method()
    initargs = _worker_arguments(run, context)
    started = initargs[-1]
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    for attempt in range(_LOCAL_RETRIES + 1):
        with ProcessPoolExecutor(
            workers, mp_context=context, initializer=_init_worker, initargs=initargs
        ) as pool:
            try:
                _drain(pool, chunker, workers, emit)
                return
            except BrokenProcessPool as error:
                if started is not None and not started.is_set():  # no worker came up
                    raise _workers_did_not_start(method) from error
                if attempt == _LOCAL_RETRIES:
                    raise
            except BaseException:  # Ctrl-C, or an agent's error in one game
                _stop_workers(pool)  # else leaving the pool waits for the chunks in flight
                raise


def _worker_arguments(run: _Run, context: Any) -> tuple[Any, ...]:
    """``_init_worker``'s arguments after ``run``'s are ready for ``context``: forked
    workers inherit the warm run; others get it pickled once (ConfigError naming an agent
    that cannot be) and an Event each sets as it starts."""
    if context.get_start_method() == "fork":
        _warm_up(run.game)  # the workers inherit what this builds
        return run, False, os.getpid(), None
    try:
        pickled = pickle.dumps(run)
    except Exception:  # name the agent that cannot be sent, else the pickler's own error
        where = "threads run in this process" if sys.platform == "linux" else sys.platform
        _check_agents_pickle(
            run, pickle.dumps, f"worker processes (not forked: {where})", "use workers=1"
        )
        raise
    return pickled, True, os.getpid(), context.Event()


def _check_agents_pickle(
    run: _Run, dumps: Callable[[Any], bytes], where: str, instead: str
) -> None:
    """ConfigError naming ``run``'s game, or the first of its agents, that ``dumps`` cannot
    pickle: it cannot be sent to ``where`` (a bare TypeError of the pickler's said which
    object only); the message ends with what to do ``instead``."""
    try:
        dumps(run.game)
    except Exception as error:  # a game class defined in a function: AttributeError
        why = excerpt(f"{type(error).__name__}: {error}", 120)
        raise ConfigError(
            f"game {run.game.name} cannot be pickled ({why}), so it cannot be sent to "
            f"{where}: define its class at the top level of a module, or {instead}"
        ) from None
    for agent in run.agents:
        try:
            dumps(agent)
        except Exception as error:  # TypeError, PicklingError, AttributeError, ...
            why = excerpt(f"{type(error).__name__}: {error}", 120)
            raise ConfigError(
                f"agent {agent_name(agent)} cannot be pickled ({why}), so it cannot be sent "
                f"to {where}: make it picklable, or {instead}"
            ) from None


_MANAGER_JOIN_SECONDS = 5.0
"""How long stopping a pool waits for its manager thread, whose workers are gone."""


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Drop ``pool``'s queued chunks and end its workers now (Ctrl-C, or an error in a game:
    the games in flight are not waited for; their rows are not written, so a resumed run
    plays them)."""
    # ProcessPoolExecutor has no public way to stop running work before Python 3.14's
    # terminate_workers(): its process table and manager thread (which shutdown clears)
    # are read first.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    if manager is not None:
        # The manager closes its wake-up pipe as it ends; Python 3.11's exit handler, if
        # it runs first, can write to that pipe as it closes ("Exception ignored ...
        # OSError: Bad file descriptor" after an interrupted run).
        manager.join(timeout=_MANAGER_JOIN_SECONDS)


def _drain(
    pool: ProcessPoolExecutor,
    chunker: _Chunker,
    workers: int,
    emit: Callable[[list[GameRow]], None],
) -> None:
    """Keep two chunks per worker in flight until every game is played.

    On a dead worker the chunks in flight go back to ``chunker`` and
    BrokenProcessPool propagates (the caller starts a new pool)."""
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    futures: dict[Future[tuple[list[GameRow], float]], list[int]] = {}
    try:
        while chunker or futures:
            while chunker and len(futures) < 2 * workers:
                chunk = chunker.take()
                try:
                    future = pool.submit(_worker_play, chunk)
                except BrokenProcessPool:  # a worker died since the last wait: not sent
                    chunker.give_back(chunk)
                    raise
                futures[future] = chunk
            done, _ = wait(futures, return_when=FIRST_COMPLETED)
            for future in done:
                rows, seconds = future.result()
                del futures[future]
                chunker.observe(len(rows), seconds)
                emit(rows)
    except BrokenProcessPool:
        for chunk in futures.values():
            chunker.give_back(chunk)
        raise


def _run_ray(
    run: _Run,
    chunker: _Chunker,
    workers: int,
    address: str | None,
    emit: Callable[[list[GameRow]], None],
) -> None:
    try:
        import ray
    except ImportError:
        raise ConfigError('backend="ray" needs Ray: pip install "forestgames[ray]"') from None
    import logging

    _check_agents_pickle(  # before Ray starts (seconds) for a run it cannot take
        run, ray.cloudpickle.dumps, "Ray", 'run it locally (backend="local", workers=1)'
    )
    if not chunker:  # no game left (games=0, or a finished run resumed): no Ray to start
        if address and not ray.is_initialized():
            _check_reachable(address)
        return
    started = False
    if not ray.is_initialized():  # else: use the Ray this process is already connected to
        if address:
            _check_reachable(address)
            try:
                ray.init(address=address, logging_level=logging.WARNING)
            except (ValueError, ConnectionError) as error:  # an address Ray cannot use
                why = excerpt(str(error))
                raise ConfigError(f"Ray cluster {excerpt(address)}: {why}") from None
        else:
            cpus = workers if workers > 1 else None
            ray.init(num_cpus=cpus, include_dashboard=False, logging_level=logging.WARNING)
        started = True  # shut down (or disconnect from) what this run set up
    try:
        play_remote = ray.remote(max_retries=_RAY_RETRIES)(_ray_play)
        run_ref = ray.put(run)
        cpus_seen = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call, unused-ignore]
        slots = 2 * max(workers, int(cpus_seen))
        pending: list[Any] = []
        try:
            while chunker or pending:
                while chunker and len(pending) < slots:
                    pending.append(play_remote.remote(run_ref, chunker.take()))
                done, pending = ray.wait(pending, num_returns=1)
                rows, seconds = _ray_result(ray, done[0])
                chunker.observe(len(rows), seconds)
                emit(rows)
        except BaseException:  # Ctrl-C, or an error in one game: end the others now
            _cancel_all(ray, pending)  # (on a Ray the user started, they would play on)
            raise
    finally:
        if started:
            ray.shutdown()


def _ray_result(ray: Any, task: Any) -> tuple[list[GameRow], float]:
    """A finished Ray ``task``'s rows and seconds. An error raised in it is raised as
    itself, with its message and notes, as in a local run (Ray's wrapper, whose text is
    the worker's traceback, is its cause)."""
    try:
        result: tuple[list[GameRow], float] = ray.get(task)
    except ray.exceptions.RayTaskError as error:
        cause = getattr(error, "cause", None)
        if not isinstance(cause, Exception):
            raise
        raise cause from error
    return result


def _cancel_all(ray: Any, tasks: list[Any]) -> None:
    """Cancel Ray ``tasks`` still queued or running (their workers are ended)."""
    for task in tasks:
        with contextlib.suppress(Exception):  # finished meanwhile, or Ray already gone
            ray.cancel(task, force=True)


_RAY_PORTS = {"ray": 10001, "": 6379}
"""The port Ray listens on when an address names none: Ray Client's, or the cluster's."""
_CONNECT_SECONDS = 5.0
_PROXIES = frozenset({"grpc_proxy", "GRPC_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy"})
"""Environment variables of proxies Ray's connections may go through."""


def _check_reachable(address: str) -> None:
    """ConfigError at once if a Ray ``address`` names no host and port, or nothing listens
    there (Ray itself would try for minutes); ``auto`` and ``local`` are left to Ray, as
    is an address reached through a proxy."""
    if not isinstance(address, str) or address in ("auto", "local") or _PROXIES & set(os.environ):
        return  # Ray finds these itself, or goes through a proxy this check cannot see
    try:
        parts = urllib.parse.urlsplit(address if "://" in address else f"//{address}")
        host, port = parts.hostname, parts.port or _RAY_PORTS.get(parts.scheme)
    except ValueError as error:  # '[::1', a port out of range or not a number
        raise ConfigError(
            f"Ray cluster {excerpt(address)} is no host:port address ({error})"
        ) from None
    if not host:
        raise ConfigError(f"Ray cluster {excerpt(address)} names no host: give host:port")
    if port is None:
        return
    import socket

    try:
        socket.create_connection((host, port), timeout=_CONNECT_SECONDS).close()
    except OSError as error:
        why = error.strerror or str(error) or type(error).__name__
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        raise ConfigError(
            f"Ray cluster {excerpt(address)}: nothing answers at {where} ({why})"
        ) from None


def _ray_play(run: _Run, indices: list[int]) -> tuple[list[GameRow], float]:
    # No BLAS limit here: Ray starts its workers with OMP_NUM_THREADS set to the task's
    # CPUs (1), which numpy's OpenBLAS reads at import; and a Ray worker outlives the task.
    with _sent_back_whole():
        return run.play_many(indices)


def _simulate_vector(
    game: Any,
    agents: Sequence[Any],
    games: int,
    seed: IntLike | None,
    rotate: bool,
    max_moves: IntLike | None,
    out: str | Path | None,
    resume: bool,
    engine: str,
) -> SimulationResult:
    """``simulate(engine="vector")``: the rows from ``forestgames.bosk._vector_sim``."""
    from forestgames.bosk._vector_sim import simulate_vector

    if engine != "vector":
        raise ConfigError(f'engine must be "scalar" or "vector", not {excerpt(engine)}')
    if resume:
        raise ConfigError('engine="vector" runs do not resume; run again without resume')
    run = _make_run(game, agents, resolve_seed(seed), rotate, max_moves)
    if run.cap < game.traits.max_moves:
        raise ConfigError(
            f'engine="vector" plays whole games: max_moves={run.cap} could cut one short '
            f"(a game lasts up to {game.traits.max_moves} moves); use the scalar engine"
        )
    if out is not None:  # before the games, as the scalar engine does
        out = _check_new_results(as_path(out, "out"))
    rows = simulate_vector(game, agents, games, run.seed, rotate, run.digest)
    result = SimulationResult(game.name, game.options(), run.seed, tuple(rows), run.names)
    if out is not None:
        result.to_jsonl(out)
    return result


def simulate(
    game: Any,
    agents: Sequence[Any],
    games: IntLike,
    seed: IntLike | None = None,
    workers: IntLike = 1,
    backend: str = "local",
    progress: bool = True,
    *,
    rotate: bool = False,
    max_moves: IntLike | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    address: str | None = None,
    engine: str = "scalar",
) -> SimulationResult:
    """Play ``games`` games of ``game`` between ``agents`` and collect the outcomes.

    * ``agents``: agents (any object with ``choose(state)``; a row names one by
      its ``name``, else its class name) or specs, cycled over the seats; with ``rotate`` the
      seats turn by one each game, so that over a multiple of the player count
      every agent plays every seat equally often.
    * ``workers``: local processes (``backend="local"``, spawn-safe, each with
      BLAS held to one thread: :func:`single_thread_blas`) or the
      number of CPUs of a Ray cluster started for the run (``backend="ray"``
      without ``address``; 1, the default, lets it take every CPU; with ``address``
      the cluster there is used; a Ray this process already initialised is used as it
      is, whatever ``workers`` and ``address`` say).
    * ``out``: a JSON-lines file written as games finish; with ``resume`` an
      existing file of the same run is completed (only missing games played).
      Without ``resume`` an existing file is an error (nothing is overwritten).
    * ``max_moves``: the move cap (default ``DEFAULT_CAP_FACTOR`` times the
      game's ``traits.max_moves``); a capped game's row says ``truncated``.
    * ``progress``: a progress line on stderr when it is a terminal.
    * ``engine``: ``"vector"`` plays Bosk games between random and greedy agents
      in batches on numpy arrays (``forestgames.bosk.vector``): the same rows as
      the scalar engine, faster (see docs/simulation.md).

    The rows are the same for any ``workers`` and either backend.
    """
    game = as_game(game)
    games, workers = _check_run_arguments(games, workers, backend, out, resume, progress, address)
    as_bool(rotate, "rotate")  # checked before any engine runs
    if engine != "scalar":
        return _simulate_vector(game, agents, games, seed, rotate, max_moves, out, resume, engine)
    run = _make_run(game, agents, resolve_seed(seed), rotate, max_moves)
    rows = execute_run(run, games, workers, backend, progress, out, resume, address)
    return SimulationResult(game.name, game.options(), run.seed, rows, run.names)


def _check_run_arguments(
    games: Any,
    workers: Any,
    backend: Any,
    out: str | Path | None,
    resume: Any,
    progress: Any,
    address: Any = None,
) -> tuple[int, int]:
    """``games`` and ``workers`` as ints (numpy ints accepted); ConfigError naming a bad
    argument (``resume`` and ``progress`` must be bools: ``progress="no"`` was true; an
    ``address`` is Ray's, a str: with the local backend the run went local without a word,
    and Ray raised TypeError for one of another type)."""
    games = as_int(games, "games", 0)
    workers = as_int(workers, "workers", 1, MAX_WORKERS)
    as_bool(resume, "resume")
    as_bool(progress, "progress")
    if backend not in ("local", "ray"):
        raise ConfigError(f'backend must be "local" or "ray", not {excerpt(backend)}')
    if address is not None and not isinstance(address, str):
        raise ConfigError(
            f"address must be a Ray cluster's address as a str ('auto', 'host:port', "
            f"'ray://host:port'), not {excerpt(address)}"
        )
    if address is not None and backend != "ray":
        raise ConfigError(
            f'address={excerpt(address)} names a Ray cluster: give backend="ray" too '
            '(backend="local" would ignore it)'
        )
    if resume and out is None:
        raise ConfigError("resume needs the results file (out=...) of the run to finish")
    if out is not None:
        as_path(out, "out")
    return games, workers


MAX_WORKERS = 4096
"""Most worker processes (or Ray CPUs) a run may ask for."""


def as_path(path: Any, what: str = "path") -> Path:
    """``path`` (a str or an os.PathLike) as a Path; ConfigError naming ``what`` otherwise (an
    int would be taken by ``open`` as a file descriptor), or if it ends as a directory's
    name does (``new/``, ``new/.``: Path drops that ending, and a file ``new`` was written)."""
    if not isinstance(path, str | os.PathLike) or not str(path):
        raise ConfigError(f"{what} must be a file path (a str or a Path), not {excerpt(path)}")
    if "\0" in str(path):
        raise ConfigError(f"{what} must be a file path, not {excerpt(str(path))} (a NUL byte)")
    if os.path.basename(str(path)) in ("", ".", ".."):
        raise ConfigError(f"{what} {path}: names a directory, not a file")
    return Path(path)


def write_file(path: Any, data: str | bytes, what: str = "path") -> None:
    """Write ``data`` (text as UTF-8) to the file at ``path``. A regular file (or a new
    one) is written whole or not at all: a new file beside it, flushed to disk, replaces
    it, with its permissions. Standard output (``/dev/stdout``) is written through
    ``sys.stdout``, in order with what is printed (BrokenPipeError, as ``print`` raises,
    once its reader is gone); anything else (a device, a FIFO) is written in place.
    ConfigError naming the path if it cannot be written (a file then keeps what it held)."""
    target = as_path(path, what)
    if is_stdout(target):
        _write_stdout_file(target, data)
        return
    content = data.encode("utf-8") if isinstance(data, str) else data
    final = Path(os.path.realpath(target))  # a symlink's file is written, as open() would
    try:
        try:
            mode: int | None = os.stat(target).st_mode
        except FileNotFoundError:
            mode = None  # a new file
        if mode is not None and stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory")
        if mode is not None and not stat.S_ISREG(mode):  # a device, a FIFO: not replaced
            with open(target, "wb") as stream:
                stream.write(content)
            return
        if mode is not None and not os.access(final, os.W_OK):  # as open(path, "w") refuses
            raise PermissionError(errno.EACCES, "Permission denied")
        _replace_with(final, content, mode)
    except OSError as error:
        raise ConfigError(f"cannot write {target}: {error.strerror or error}") from None


def _write_stdout_file(target: Path, data: str | bytes) -> None:
    """:func:`write_file` of ``data`` to ``target``, a name of standard output; ConfigError
    naming it if it cannot be written (BrokenPipeError passes: the reader is gone)."""
    try:
        _write_stdout(data)
    except BrokenPipeError:
        raise
    except OSError as error:
        raise ConfigError(f"cannot write {target}: {error.strerror or error}") from None
    except ConfigError as error:
        raise ConfigError(f"cannot write {target}: {error}") from None


def _write_stdout(data: str | bytes) -> None:
    """``data`` through ``sys.stdout``: text as UTF-8 to its binary buffer, or as text where
    the stream has none (a codecs writer, a wrapper); ConfigError for bytes there."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        buffer.write(data.encode("utf-8") if isinstance(data, str) else data)
        buffer.flush()
        return
    if isinstance(data, bytes):
        raise ConfigError("standard output here takes text only, not binary data")
    sys.stdout.write(data)
    sys.stdout.flush()


def _replace_with(final: Path, content: bytes, mode: int | None) -> None:
    """Replace the regular file ``final`` (of ``mode``; None: make it) with ``content``,
    through a new file beside it: ``final`` holds either what it held or ``content``, even
    after a crash."""
    temporary, descriptor = _new_file_beside(final)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        if mode is not None and os.name == "posix":  # keep its permissions
            os.chmod(temporary, stat.S_IMODE(mode))
        os.replace(temporary, final)
    finally:
        temporary.unlink(missing_ok=True)


def _new_file_beside(final: Path) -> tuple[Path, int]:
    """A new file in ``final``'s folder, made by this call (never an existing file or a
    link), with the permissions a new file gets; its path and an open descriptor."""
    import secrets

    for _ in range(100):
        name = f".{final.name[:64]}.{secrets.token_hex(6)}.tmp"
        temporary = final.with_name(name)
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
            return temporary, os.open(temporary, flags, 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, f"no free name for a new file beside {final.name}")


@functools.cache
def _bar_class() -> type[Any]:
    """tqdm without its monitor thread (a process with one thread may fork its workers)."""
    from tqdm import tqdm

    class _Bar(tqdm):  # type: ignore[misc, type-arg, unused-ignore]  # typed or not by version
        monitor_interval = 0

    return _Bar


def _check_regular_file(path: Path) -> None:
    """ConfigError unless a results file at ``path`` can be a regular file of its own: it is
    appended to, flushed to disk after each batch and read back to resume, which a pipe, a
    device or standard output cannot be."""
    if is_stdout(path):
        raise ConfigError(f"{path} is standard output: name a file for the results")
    if path.exists() and not path.is_dir() and not path.is_file():
        raise ConfigError(f"{path} is not a regular file (a device or a pipe): name a file")


def is_stdout(path: Any) -> bool:
    """Whether ``path`` names the file standard output writes to (``/dev/stdout``, say)."""
    try:
        named, stdout = os.stat(path), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, TypeError):  # no such file; no stdout
        return False
    return (named.st_dev, named.st_ino) == (stdout.st_dev, stdout.st_ino)


def _check_out_file(path: Path, advice: str) -> Path:
    """``path`` if a run may write its results there (a new or empty file); ConfigError
    with ``advice`` if it holds something, or names a directory."""
    if path.is_dir():
        raise ConfigError(f"{path} is a directory: name a file for the results")
    if path.exists() and path.stat().st_size:
        raise ConfigError(f"{path} exists: {advice}")
    return path


def _check_new_results(path: Path) -> Path:
    """``path`` if a vector run may write its results there at the end (a new or empty
    file, in a folder); ConfigError naming it otherwise, for an OSError too (a name too
    long came raw from the checks; a symlink loop passed them, to fail after the games)."""
    try:
        with contextlib.suppress(FileNotFoundError):  # a new file
            os.stat(path)  # a symlink loop raises here: pathlib's checks take it for no file
        _check_out_file(path, "choose another file")
        if not path.parent.is_dir():
            raise ConfigError(f"no directory {path.parent} to write {path.name} in")
    except OSError as error:
        raise ConfigError(f"cannot use {path} for results: {error.strerror or error}") from None
    return path


def _open_results(
    path: Path, run: _Run, games: int, resume: bool
) -> tuple[dict[int, GameRow], TextIO]:
    """The rows already in the results file at ``path`` (when resuming) and the file open
    to append to; ConfigError naming it if it cannot be used (a folder on the way that
    cannot be searched included: its PermissionError came raw from the checks)."""
    try:
        _check_regular_file(path)
        if not resume or path.is_dir():  # resuming reads the file's rows instead
            _check_out_file(path, "resume to finish that run, or choose another file")
        rows = _load_results(path, run, games) if path.exists() and resume else {}
        return rows, open(path, "a", encoding="utf-8", newline="\n")  # \n on Windows too
    except OSError as error:
        raise ConfigError(f"cannot use {path} for results: {error.strerror or error}") from None


def execute_run(
    run: _Run,
    games: int,
    workers: int = 1,
    backend: str = "local",
    progress: bool = True,
    out: str | Path | None = None,
    resume: bool = False,
    address: str | None = None,
) -> tuple[GameRow, ...]:
    """Play games ``0..games-1`` of ``run`` (see :func:`simulate` for the arguments);
    return the rows by index."""
    games, workers = _check_run_arguments(games, workers, backend, out, resume, progress, address)
    rows: dict[int, GameRow] = {}
    sink: TextIO | None = None
    if out is not None:
        rows, sink = _open_results(Path(out), run, games, resume)
    workers = min(workers, max(1, games - len(rows)))  # no idle workers to start
    chunker = _Chunker(games, workers, rows)
    # tqdm draws on stderr and turns itself off when stderr is not a terminal; there is
    # none under Windows' pythonw (sys.stderr None), where tqdm would write to None
    bar = _bar_class()(
        total=games,
        initial=len(rows),
        unit="game",
        file=sys.stderr,
        disable=None if progress and sys.stderr is not None else True,
        dynamic_ncols=True,
    )

    def emit(new_rows: Iterable[GameRow]) -> None:
        batch = list(new_rows)
        for row in batch:
            rows[row.index] = row
        if sink is not None:
            sink.write("".join(row.to_json() + "\n" for row in batch))
            sink.flush()
            os.fsync(sink.fileno())
        bar.update(len(batch))

    try:
        if backend == "ray":
            _run_ray(run, chunker, workers, address, emit)
        else:
            _run_local(run, chunker, workers, emit)
    finally:
        bar.close()
        if sink is not None:
            sink.close()
    return tuple(rows[k] for k in sorted(rows))
