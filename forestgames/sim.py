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
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
import math
import os
import random
import sys
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from pathlib import Path
from typing import Any, TextIO

import attrs
from tqdm import tqdm

from forestgames.agents import agent_for_game, make_agent
from forestgames.core import (
    ConfigError,
    GameRecord,
    IllegalMoveError,
    derive_seed,
    make,
    resolve_seed,
)

__all__ = [
    "DEFAULT_CAP_FACTOR",
    "GameRow",
    "SimulationResult",
    "TruncatedGameWarning",
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


def _resolve_game(game: Any) -> Any:
    return make(game) if isinstance(game, str) else game


def _move_cap(game: Any, max_moves: int | None) -> int:
    if max_moves is None:
        return DEFAULT_CAP_FACTOR * int(game.traits.max_moves)
    if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
        raise ConfigError(f"max_moves must be a positive int or None, not {max_moves!r}")
    return max_moves


def _seat_agents(agents: Sequence[Any], num_players: int) -> list[Any]:
    """The agent of each seat: ``agents`` cycled over the seats, specs built."""
    if isinstance(agents, str) or not isinstance(agents, Sequence) or not agents:
        raise ConfigError(f"agents must be a non-empty list of agents or specs, not {agents!r}")
    built = [make_agent(a, seed=0) for a in agents]
    return [built[seat % len(built)] for seat in range(num_players)]


def play_game(
    game: Any,
    agents: Sequence[Any],
    seed: int,
    max_moves: int | None = None,
    observer: Callable[[Any, Any], None] | None = None,
) -> tuple[GameRecord, Any, bool]:
    """Play one game; return its record, its last state and whether the cap cut it short.

    ``agents`` has one agent (or spec) per seat, cycled if shorter; each is
    rebuilt for this game from ``seed`` and its seat. ``observer(state, move)``,
    if given, hears every move just before it is applied.
    """
    game = _resolve_game(game)
    seed = resolve_seed(seed)
    cap = _move_cap(game, max_moves)
    seats = [
        agent_for_game(agent, derive_seed(seed, 1, seat))
        for seat, agent in enumerate(_seat_agents(agents, game.num_players))
    ]
    react_order = random.Random(derive_seed(seed, 2))
    state = game.new_game(seed=seed)
    moves: list[Any] = []
    while not state.is_terminal and len(moves) < cap:
        acting = state.players_to_act
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


def _apply_for(state: Any, move: Any, seat: int, agent: Any) -> Any:
    """``state.apply(move)`` for the agent of ``seat``; its errors name the agent."""
    name = getattr(agent, "name", type(agent).__name__)
    if getattr(move, "player", None) != seat:
        raise IllegalMoveError(
            f"agent {name} at seat {seat} returned {move!r}, not a move of its seat"
        )
    try:
        return state.apply(move)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"agent {name} at seat {seat}: {error}") from None


def play(
    game: Any, agents: Sequence[Any], seed: int | None = None, max_moves: int | None = None
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

    def to_dict(self) -> dict[str, Any]:
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
    def from_dict(cls, data: dict[str, Any]) -> GameRow:
        """A row from :meth:`to_dict` output (lists become tuples)."""
        values = {field.name: data[field.name] for field in attrs.fields(cls)}
        for name in ("agents", "scores", "winners"):
            values[name] = tuple(values[name])
        return cls(**values)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))


@attrs.frozen
class _Run:
    """Everything a worker needs to play any game of a run (picklable)."""

    game: Any
    agents: tuple[Any, ...]
    seed: int
    rotate: bool
    cap: int
    digest: str

    def lineup(self, index: int) -> list[Any]:
        """The agent of each seat in game ``index`` (turned by ``index`` if rotating)."""
        p = self.game.num_players
        shift = index % p if self.rotate else 0
        return [self.agents[(seat + shift) % p] for seat in range(p)]

    def play(self, index: int) -> GameRow:
        seed = derive_seed(self.seed, index)
        lineup = self.lineup(index)
        record, state, truncated = play_game(self.game, lineup, seed, self.cap)
        first = self.game.new_game(seed=seed).players_to_act[0]
        return GameRow(
            index=index,
            seed=seed,
            first_player=int(first),
            agents=tuple(str(agent.name) for agent in lineup),
            scores=tuple(int(s) for s in state.scores),
            winners=() if truncated else tuple(int(w) for w in state.winners),
            moves=len(record.moves),
            truncated=truncated,
            run=self.digest,
        )

    def play_many(self, indices: Sequence[int]) -> list[GameRow]:
        return [self.play(index) for index in indices]


def _make_run(
    game: Any, agents: Sequence[Any], seed: int, rotate: bool, max_moves: int | None
) -> _Run:
    seats = tuple(_seat_agents(agents, game.num_players))
    cap = _move_cap(game, max_moves)
    described = {
        "game": game.name,
        "options": game.options(),
        "seed": seed,
        "agents": [
            a.name if isinstance(s, str) else repr(a)
            for s, a in zip(_cycle(agents, len(seats)), seats, strict=True)
        ],
        "rotate": bool(rotate),
        "cap": cap,
    }
    text = json.dumps(described, sort_keys=True, default=str)
    return _Run(
        game, seats, seed, bool(rotate), cap, hashlib.sha256(text.encode()).hexdigest()[:12]
    )


def _cycle(items: Sequence[Any], n: int) -> list[Any]:
    return [items[i % len(items)] for i in range(n)]


# --------------------------------------------------------------------------- statistics


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for the default ``z``)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _mean_sd(values: Sequence[float]) -> tuple[float, float]:
    if not values:
        return (math.nan, math.nan)
    mean = sum(values) / len(values)
    if len(values) < 2:
        return (mean, 0.0)
    return (mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)))


def _tally(label: str, wins: int, games: int, scores: list[float]) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
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


@attrs.frozen
class SimulationResult:
    """The rows of a run (sorted by game index) and their summary."""

    game: str
    options: dict[str, Any]
    seed: int
    rows: tuple[GameRow, ...]

    def summary(self) -> dict[str, Any]:
        """Win rates (a shared win counts for each winner) with Wilson 95% intervals,
        score means and standard deviations, per seat and per agent, over the
        games that ended; plus game counts and the mean length of all games."""
        done = [row for row in self.rows if not row.truncated]
        players = len(self.rows[0].scores) if self.rows else int(self.options.get("num_players", 0))
        seats = [
            _tally(
                str(seat),
                sum(seat in row.winners for row in done),
                len(done),
                [row.scores[seat] for row in done],
            )
            for seat in range(players)
        ]
        names = sorted({name for row in done for name in row.agents})
        agents = []
        for name in names:
            places = [(row, seat) for row in done for seat, a in enumerate(row.agents) if a == name]
            agents.append(
                _tally(
                    name,
                    sum(seat in row.winners for row, seat in places),
                    len(places),
                    [row.scores[seat] for row, seat in places],
                )
            )
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
        lines = [
            f"{s['game']}, {s['players']} players: {s['games']} games "
            f"({s['truncated']} truncated), mean length {s['mean_moves']:.1f} moves"
        ]
        for title, tallies in (("seat", s["seats"]), ("agent", s["agents"])):
            lines.append(
                f"{title:<12} {'games':>6} {'wins':>6} {'win rate':>9}  {'95% CI':<15} "
                f"{'mean score':>10} {'sd':>6}"
            )
            for t in tallies:
                low, high = t["ci95"]
                lines.append(
                    f"{t['label']:<12} {t['games']:>6} {t['wins']:>6} {t['win_rate']:>9.1%}  "
                    f"[{low:5.1%}, {high:5.1%}] {t['mean_score']:>10.2f} {t['sd_score']:>6.2f}"
                )
        return "\n".join(lines)

    def to_jsonl(self, path: str | Path) -> None:
        """Write the rows as JSON lines (the format ``out=`` writes while running)."""
        with open(path, "w", encoding="utf-8") as file:
            for row in self.rows:
                file.write(row.to_json() + "\n")

    def to_csv(self, path: str | Path | None = None) -> str:
        """The rows as CSV (one column per seat for agents and scores; winners
        joined by ';'); written to ``path`` if given, and returned."""
        players = len(self.rows[0].scores) if self.rows else 0
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
                    row.truncated,
                    row.run,
                ]
            )
        text = buffer.getvalue()
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text


# --------------------------------------------------------------------------- results file


def _load_results(path: Path, run: _Run, games: int) -> dict[int, GameRow]:
    """The rows already in ``path`` (a resumed run); a torn last line is cut off."""
    data = path.read_bytes()
    keep = data.rfind(b"\n") + 1
    if keep < len(data):  # interrupted while writing a line: drop the fragment
        with open(path, "r+b") as file:
            file.truncate(keep)
    rows: dict[int, GameRow] = {}
    for number, line in enumerate(data[:keep].decode("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = GameRow.from_dict(json.loads(line))
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise ConfigError(f"{path}:{number} is not a result row ({error})") from None
        if row.run != run.digest:
            raise ConfigError(
                f"{path} holds rows of another run (run {row.run}, this one {run.digest}): "
                "resume with the same game, options, agents, seed, --rotate and move cap"
            )
        if row.index < games:
            rows.setdefault(row.index, row)
    return rows


# --------------------------------------------------------------------------- running


def _chunks(indices: list[int], workers: int) -> list[list[int]]:
    """Small batches of game indices: at least ~8 per worker, at most 16 games each."""
    size = max(1, min(16, len(indices) // (8 * max(workers, 1))))
    return [indices[i : i + size] for i in range(0, len(indices), size)]


_WORKER_RUN: _Run | None = None


def _init_worker(run: _Run) -> None:
    global _WORKER_RUN
    _WORKER_RUN = run


def _worker_play(indices: list[int]) -> list[GameRow]:
    assert _WORKER_RUN is not None
    return _WORKER_RUN.play_many(indices)


def _run_local(
    run: _Run, chunks: list[list[int]], workers: int, emit: Callable[[list[GameRow]], None]
) -> None:
    if workers == 1:
        for chunk in chunks:
            emit(run.play_many(chunk))
        return
    pending = list(chunks)
    for attempt in range(_LOCAL_RETRIES + 1):
        context = get_context("spawn")
        with ProcessPoolExecutor(
            workers, mp_context=context, initializer=_init_worker, initargs=(run,)
        ) as pool:
            futures: dict[Future[list[GameRow]], list[int]] = {
                pool.submit(_worker_play, chunk): chunk for chunk in pending
            }
            try:
                while futures:
                    done, _ = wait(futures, return_when=FIRST_COMPLETED)
                    for future in done:
                        rows = future.result()
                        del futures[future]
                        emit(rows)
                return
            except BrokenProcessPool:
                if attempt == _LOCAL_RETRIES:
                    raise
                pending = list(futures.values())  # a worker died: play its games again


def _run_ray(
    run: _Run,
    chunks: list[list[int]],
    workers: int,
    address: str | None,
    emit: Callable[[list[GameRow]], None],
) -> None:
    try:
        import ray
    except ImportError:
        raise ConfigError('backend="ray" needs Ray: pip install "forestgames[ray]"') from None
    started = False
    if not ray.is_initialized():  # else: use the Ray this process is already connected to
        if address:
            ray.init(address=address, logging_level=logging.WARNING)
        else:
            cpus = workers if workers > 1 else None
            ray.init(num_cpus=cpus, include_dashboard=False, logging_level=logging.WARNING)
        started = True  # shut down (or disconnect from) what this run set up
    try:
        play_remote = ray.remote(max_retries=_RAY_RETRIES)(_ray_play)
        run_ref = ray.put(run)
        pending = [play_remote.remote(run_ref, chunk) for chunk in chunks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            emit(ray.get(done[0]))
    finally:
        if started:
            ray.shutdown()


def _ray_play(run: _Run, indices: list[int]) -> list[GameRow]:
    return run.play_many(indices)


def _simulate_vector(
    game: Any,
    agents: Sequence[Any],
    games: int,
    seed: int | None,
    rotate: bool,
    max_moves: int | None,
    out: str | Path | None,
    resume: bool,
    engine: str,
) -> SimulationResult:
    """``simulate(engine="vector")``: the rows from ``forestgames.bosk._vector_sim``."""
    from forestgames.bosk._vector_sim import simulate_vector

    if engine != "vector":
        raise ConfigError(f'engine must be "scalar" or "vector", not {engine!r}')
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ConfigError(f"games must be a non-negative int, not {games!r}")
    if resume:
        raise ConfigError('engine="vector" runs do not resume; run again without resume')
    run = _make_run(game, agents, resolve_seed(seed), rotate, max_moves)
    rows = simulate_vector(game, agents, games, run.seed, rotate, run.digest)
    result = SimulationResult(game.name, game.options(), run.seed, tuple(rows))
    if out is not None:
        if Path(out).exists() and Path(out).stat().st_size:
            raise ConfigError(f"{out} exists: choose another file")
        result.to_jsonl(out)
    return result


def simulate(
    game: Any,
    agents: Sequence[Any],
    games: int,
    seed: int | None = None,
    workers: int = 1,
    backend: str = "local",
    progress: bool = True,
    *,
    rotate: bool = False,
    max_moves: int | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    address: str | None = None,
    engine: str = "scalar",
) -> SimulationResult:
    """Play ``games`` games of ``game`` between ``agents`` and collect the outcomes.

    * ``agents``: agents or specs, cycled over the seats; with ``rotate`` the
      seats turn by one each game, so that over a multiple of the player count
      every agent plays every seat equally often.
    * ``workers``: local processes (``backend="local"``, spawn-safe) or the
      number of CPUs of a Ray cluster started for the run (``backend="ray"``
      without ``address``; with ``address`` the cluster there is used).
    * ``out``: a JSON-lines file written as games finish; with ``resume`` an
      existing file of the same run is completed (only missing games played).
      Without ``resume`` an existing file is an error (nothing is overwritten).
    * ``max_moves``: the move cap (default ``DEFAULT_CAP_FACTOR`` times the
      game's ``traits.max_moves``); a capped game's row says ``truncated``.
    * ``progress``: a progress line on stderr when it is a terminal.
    * ``engine``: ``"vector"`` plays Bosk games between random and greedy agents
      in batches on numpy arrays (``forestgames.bosk.vector``): the same
      statistics, not the same rows (see docs/simulation.md).

    The rows are the same for any ``workers`` and either backend.
    """
    game = _resolve_game(game)
    if engine != "scalar":
        return _simulate_vector(game, agents, games, seed, rotate, max_moves, out, resume, engine)
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ConfigError(f"games must be a non-negative int, not {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"workers must be a positive int, not {workers!r}")
    if backend not in ("local", "ray"):
        raise ConfigError(f'backend must be "local" or "ray", not {backend!r}')
    if resume and out is None:
        raise ConfigError("resume needs the results file (out=...) of the run to finish")
    run = _make_run(game, agents, resolve_seed(seed), rotate, max_moves)
    rows: dict[int, GameRow] = {}
    sink: TextIO | None = None
    if out is not None:
        path = Path(out)
        if path.exists() and path.stat().st_size and not resume:
            raise ConfigError(f"{path} exists: resume to finish that run, or choose another file")
        if path.exists() and resume:
            rows = _load_results(path, run, games)
        sink = open(path, "a", encoding="utf-8")
    todo = [k for k in range(games) if k not in rows]
    # tqdm draws on stderr and turns itself off when stderr is not a terminal
    bar = tqdm(
        total=games,
        initial=len(rows),
        unit="game",
        file=sys.stderr,
        disable=None if progress else True,
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
        chunks = _chunks(todo, workers)
        if backend == "ray":
            _run_ray(run, chunks, workers, address, emit)
        else:
            _run_local(run, chunks, workers, emit)
    finally:
        bar.close()
        if sink is not None:
            sink.close()
    ordered = tuple(rows[k] for k in sorted(rows))
    return SimulationResult(game.name, game.options(), run.seed, ordered)
