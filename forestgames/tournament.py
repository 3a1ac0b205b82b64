"""Ratings between agents: seat-rotated games, a Bradley–Terry fit, bootstrap intervals.

    import forestgames as fg
    result = fg.tournament("bosk", ["random", "greedy", "mcts:200"], games=120,
                           seed=1, num_players=4)
    print(result.format_table())
    result.to_csv("ratings.csv"); result.to_json("ratings.json"); result.plot("ratings.png")

**Seating.** With K agents and P seats, game k seats the agents by a fixed
schedule: K <= P: agent ``(k + s) % K`` at seat s (over K games every agent
sits at every seat once, and plays equally often); K > P: every set of P
agents, in a seeded order, each played in its P rotations. Game k is seeded
``derive_seed(seed, k)`` as in :func:`forestgames.simulate`, so a tournament is
reproducible from its arguments (agents with a time budget excepted: how far
they search depends on the machine).

**Ratings.** Each game is read as pairwise results between the seats of
different agents: a winner beats a non-winner; between two winners, or two
non-winners, the higher score wins and equal scores tie (half a win each).
A Bradley–Terry model, ``P(a beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400))``,
is fitted to these results by Newton's method with a weak prior that keeps
ratings finite when an agent wins every comparison; ratings are on the Elo
scale, their mean 1500. Each 95% interval is the wider of two: a seeded
bootstrap over games (pairs from one game are not independent, so games are
resampled) and the fit's own curvature (Laplace) interval, which stays honest
when an agent won every comparison (every resample then agrees).
Win rates (an agent's seats among the winners) come with Wilson intervals.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import numbers
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from forestgames.agents import agent_name
from forestgames.core import (
    ConfigError,
    IntLike,
    as_game,
    as_int,
    as_number,
    check_seed,
    derive_seed,
    excerpt,
    make,
    resolve_seed,
)
from forestgames.sim import (
    GameRow,
    SimulationResult,
    _check_run_arguments,
    as_path,
    execute_run,
    make_lineup_run,
    table_label,
    write_file,
)

__all__ = [
    "ELO_MEAN",
    "AgentRating",
    "TournamentResult",
    "fit_bradley_terry",
    "pairwise_results",
    "rate",
    "tournament",
    "tournament_lineups",
]

ELO_MEAN = 1500.0
"""The mean rating of a tournament's agents."""
ELO_PER_NATURAL = 400.0 / math.log(10.0)
"""Elo points per unit of the Bradley–Terry log-strength."""
PRIOR_PRECISION = 0.05
"""Weight of the prior that pulls log-strengths toward their mean (a fraction of one
comparison): it keeps ratings finite for an agent that wins or loses every comparison."""
MIN_HOLDING_PRIOR = 1e-6
"""The least prior :func:`fit_bradley_terry` takes for wins with no finite fit of their own:
below it the fit would rest on a prior too flat for Newton's steps to tell (the rating runs
off by thousands of Elo points and the steps stall anywhere)."""
MAX_COUNT = 2.0**53
"""The largest count of wins :func:`fit_bradley_terry` takes (float64 counts are exact to
there; the sums of larger ones overflowed). Far below it, with a prior near
:data:`MIN_HOLDING_PRIOR`, millions of comparisons among agents of whom the prior alone
holds one (it lost every game, say) can still have no fit found: round-off in the counts
then outweighs the prior's curvature, and Newton's steps cannot place the ratings to 1e-6."""
MAX_STEP = 4.0
"""The largest change of a log-strength in one of Newton's steps (695 Elo points): a first
step can overshoot far where a prior alone holds two groups of agents apart."""
BOOTSTRAP_SAMPLES = 400
MAX_LINEUPS = 1_000_000
"""The most seatings a tournament's schedule may hold (every table of agents, each rotation)."""


# --------------------------------------------------------------------------- seating


def tournament_lineups(
    num_agents: int, num_players: int, seed: int = 0
) -> tuple[tuple[int, ...], ...]:
    """The schedule of seatings (agent index per seat), played cyclically (module doc).

    ConfigError for counts that are not ints >= 1, or a schedule of more than
    ``MAX_LINEUPS`` seatings (too many agents for the table)."""
    k = as_int(num_agents, "num_agents", 1, MAX_LINEUPS)
    p = as_int(num_players, "num_players", 1, 64)
    seed = check_seed(seed)
    if k > p and math.comb(k, p) * p > MAX_LINEUPS:
        raise ConfigError(
            f"{k} agents at {p}-seat tables make more than {MAX_LINEUPS:,} seatings: "
            "rate fewer agents at a time"
        )
    if k <= p:
        return tuple(tuple((g + s) % k for s in range(p)) for g in range(k))
    tables = list(itertools.combinations(range(k), p))
    random.Random(seed).shuffle(tables)
    return tuple(table[r:] + table[:r] for table in tables for r in range(p))


# --------------------------------------------------------------------------- the model


def pairwise_results(rows: Sequence[GameRow], names: Sequence[str]) -> np.ndarray:
    """(G, K, K): per game, how often agent a beat agent b (a tie counts half to each).

    Truncated games give nothing. Seats of the same agent are not compared.
    ConfigError if ``rows`` are not game rows (with one score per seat, winners among
    the seats) or name an agent not in ``names``.
    """
    names = _checked_names(names)
    if isinstance(rows, str | bytes) or not isinstance(rows, Sequence):
        raise ConfigError(f"rows must be a sequence of GameRow, not {excerpt(rows)}")
    index = {name: k for k, name in enumerate(names)}
    for row in rows:
        _check_row(row, names)
    k = len(names)
    results = np.zeros((len(rows), k, k))
    for g, row in enumerate(rows):
        if row.truncated:
            continue
        keys = [(seat in row.winners, row.scores[seat]) for seat in range(len(row.agents))]
        for i, j in itertools.combinations(range(len(row.agents)), 2):
            a, b = index[row.agents[i]], index[row.agents[j]]
            if a == b:
                continue
            if keys[i] == keys[j]:
                results[g, a, b] += 0.5
                results[g, b, a] += 0.5
            elif keys[i] > keys[j]:
                results[g, a, b] += 1.0
            else:
                results[g, b, a] += 1.0
    return results


def _check_row(row: Any, names: tuple[str, ...]) -> None:
    """ConfigError unless ``row`` is a GameRow (which checks its seats agree) with agents
    among ``names``."""
    if not isinstance(row, GameRow):
        raise ConfigError(f"rows must hold GameRow objects, not {excerpt(row)}")
    unknown = sorted(set(row.agents) - set(names))
    if unknown:
        raise ConfigError(f"game {row.index} has agents {unknown} not in names {list(names)}")


def fit_bradley_terry(wins: np.ndarray, prior: float = PRIOR_PRECISION) -> np.ndarray:
    """Log-strengths (K,), mean 0, maximising the Bradley–Terry likelihood of ``wins``
    (``wins[a, b]``: times a beat b; the diagonal counts for nothing) plus a Gaussian
    prior of precision ``prior``.
    ConfigError unless ``wins`` is a (K, K) array of real counts from 0 to 2**53, K >= 1, and
    ``prior`` a finite number >= 0; also where no fit is found: unless every agent reaches
    every other through a chain of wins (else a rating runs off to infinity), a prior
    below :data:`MIN_HOLDING_PRIOR` is refused, and any prior where Newton's method does
    not converge."""
    array, prior = _checked_wins(wins), as_number(prior, "prior", 0)
    if prior < MIN_HOLDING_PRIOR and not _strongly_connected(array > 0):
        raise ConfigError(
            f"with prior={prior!r} these wins have no finite fit: some agent never beats (or "
            "never loses to) the others, directly or through a chain of wins; give a prior "
            f">= {MIN_HOLDING_PRIOR:g}"
        )
    try:
        return _newton(array, prior, strict=True)[0]
    except np.linalg.LinAlgError:  # a prior too small to make up for the missing games
        raise ConfigError(
            f"prior={prior!r} is too small for these wins to have a finite fit: give a larger one"
        ) from None


def _strongly_connected(beats: np.ndarray) -> bool:
    """Whether every node of the directed graph ``beats`` (K, K) bool reaches every other:
    node 0 reaches them all, and they all reach it."""
    return bool(_reached(beats, 0).all() and _reached(beats.T, 0).all())


def _reached(graph: np.ndarray, start: int) -> np.ndarray:
    """(K,) bool: the nodes ``start`` reaches (itself included) along the edges of
    ``graph`` (K, K) bool; a breadth-first search, O(K^2) (matrix powers took 13 s at
    K = 1,000)."""
    seen = np.zeros(graph.shape[0], dtype=bool)
    seen[start] = True
    frontier = seen.copy()
    while frontier.any():
        frontier = graph[frontier].any(axis=0) & ~seen
        seen |= frontier
    return seen


def _checked_wins(wins: Any) -> np.ndarray:
    """``wins`` as a (K, K) float64 array of finite non-negative counts; ConfigError if not
    (complex numbers, text, dates and masked arrays included: converted, they lost a part
    or a mask silently)."""
    if np.ma.isMaskedArray(wins):
        raise ConfigError(
            "wins must be a plain array of counts, not a masked array (its mask would be lost)"
        )
    refused = ConfigError(f"wins must be a (K, K) array of counts, not {excerpt(wins)}")
    try:
        raw = np.asarray(wins)
    except (TypeError, ValueError, OverflowError):  # ragged, or not array-like
        raise refused from None
    if not _all_real(raw):
        raise refused
    try:
        array = np.asarray(raw, dtype=np.float64)
    except OverflowError:  # an int beyond any float, in an object array
        raise refused from None
    if array.ndim != 2 or array.shape[0] != array.shape[1] or array.shape[0] == 0:
        raise ConfigError(f"wins must have shape (K, K) with K >= 1, not {array.shape}")
    if not np.isfinite(array).all() or (array < 0).any() or (array > MAX_COUNT).any():
        raise ConfigError(f"wins must hold finite counts >= 0 and <= 2**53, not {excerpt(wins)}")
    return array


def _all_real(array: np.ndarray) -> bool:
    """Whether ``array`` holds real numbers only (bools, ints, floats; numbers in an object
    array)."""
    if array.dtype.kind == "O":
        return all(isinstance(x, numbers.Real) for x in array.flat)
    return array.dtype.kind in "biuf"


def _checked_names(names: Any) -> tuple[str, ...]:
    """``names`` as a tuple of distinct agent names (str); ConfigError if not."""
    if isinstance(names, str | bytes) or not isinstance(names, Sequence):
        raise ConfigError(f"names must be a sequence of agent names, not {excerpt(names)}")
    if not all(isinstance(name, str) for name in names) or len(set(names)) < len(names):
        raise ConfigError(f"names must be distinct strings, not {excerpt(names)}")
    return tuple(names)


def _newton(wins: np.ndarray, prior: float, strict: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The fit and the Hessian of the negative log-posterior there; ``strict``: LinAlgError
    if Newton's method does not converge (a prior too small to hold a rating that runs off).

    Agents that never met, even through others, fall into groups whose fits do not
    depend on one another: each group is fitted on its own and centred on 0 (over a
    group the likelihood's gradient sums to zero, so at the fit the prior's does too),
    an agent with no games at 0. Fitted together, the groups' offsets rested on the
    prior's curvature alone, against round-off in the gradient (1e-6 against 1e-13 for
    a few hundred games): Newton's steps stalled short of the fit, or above 1e-6 and
    raised."""
    k = wins.shape[0]
    theta = np.zeros(k)
    hessian = np.diag(np.full(k, prior))  # an agent with no games: the prior alone
    for group in _groups(wins + wins.T > 0):
        if len(group) > 1:
            block = np.ix_(group, group)
            fit, hessian[block] = _newton_group(wins[block], prior, strict)
            theta[group] = fit - fit.mean()
    return theta - theta.mean(), hessian


def _groups(met: np.ndarray) -> list[np.ndarray]:
    """The connected groups of the undirected graph ``met`` (K, K) bool, each as sorted
    indices, in the order of their first index."""
    groups, seen = [], np.zeros(met.shape[0], dtype=bool)
    for a in range(met.shape[0]):
        if not seen[a]:
            group = _reached(met, a)
            seen |= group
            groups.append(np.flatnonzero(group))
    return groups


def _newton_group(wins: np.ndarray, prior: float, strict: bool) -> tuple[np.ndarray, np.ndarray]:
    """Newton's method on one group of agents who all met (through others): the fit
    (not centred) and the Hessian of the last step."""
    k = wins.shape[0]
    games = wins + wins.T
    theta = np.zeros(k)
    hessian = np.eye(k)
    previous = math.inf
    for _ in range(100):
        with np.errstate(over="ignore"):  # exp's inf past 709 gives p = 0, its limit
            p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[a, b] = P(a beats b)
        # wins - games * p, written so that no large terms cancel: where a beats b almost
        # surely, p rounds to 1 and wins - games * p lost the games * (1 - p) that the
        # prior's gradient balances (1e15 games times 1e-17, against 1e-6 times 30).
        gradient = (wins * p.T - wins.T * p).sum(axis=1) - prior * theta
        weight = games * p * p.T
        hessian = np.diag(weight.sum(axis=1) + prior) - weight
        # + 1 1^T / k: ratings are defined up to a common shift; this fixes it (no effect
        # on the differences) and keeps the system solvable with no prior.
        step = np.linalg.solve(hessian + 1.0 / k, gradient)
        step *= min(1.0, MAX_STEP / np.abs(step).max(initial=MAX_STEP))
        theta += step
        # Only differences count (a step moving every rating alike is undone by the
        # centring), and once converged the steps are round-off in the gradient (its counts
        # times 1e-16) over the curvature: they stop shrinking, at 1e-10 or above.
        change = np.abs(step - step.mean()).max()
        if change < 1e-10 or previous / 2 < change < 1e-6:
            break
        previous = change
    else:
        if strict:
            raise np.linalg.LinAlgError("Newton's method did not converge")
    return theta, hessian


def _laplace_halfwidth(wins: np.ndarray, prior: float = PRIOR_PRECISION) -> np.ndarray:
    """1.96 standard errors of each centred log-strength, from the curvature at the fit."""
    k = wins.shape[0]
    _, hessian = _newton(wins, prior)
    centre = np.eye(k) - 1.0 / k
    covariance = centre @ np.linalg.pinv(hessian + 1.0 / k) @ centre.T
    halfwidth: np.ndarray = 1.959964 * np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    return halfwidth


def _elo(theta: np.ndarray) -> np.ndarray:
    return ELO_MEAN + ELO_PER_NATURAL * theta


# --------------------------------------------------------------------------- results


@attrs.frozen
class AgentRating:
    """One agent's rating (Elo scale) with its 95% interval (the wider of a bootstrap over
    games and the fit's Laplace interval), and its win rate
    (its seats among the winners) with a 95% Wilson interval."""

    agent: str
    rating: float
    rating_low: float
    rating_high: float
    games: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    mean_score: float

    def to_dict(self) -> dict[str, Any]:
        """The rating as a dict of plain values (NaN or an infinite bound where there is no
        data, as the summary has them: :meth:`TournamentResult.to_json` writes ``null``)."""
        return attrs.asdict(self)


def _finite(value: Any) -> Any:
    """``value`` with every NaN or infinite float inside it replaced by None."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def _csv_cell(value: Any) -> Any:
    """A CSV cell: empty for a float with no data (NaN or an infinite bound)."""
    finite = _finite(value)
    return "" if finite is None else finite


def _table_cells(r: AgentRating) -> str:
    """A rating line's cells after the rating: "-" where there is no data (no bootstrap
    interval without games, no win rate or mean score without a finished game)."""
    interval = (
        f"[{r.rating_low:>5.0f}, {r.rating_high:>5.0f}]"
        if math.isfinite(r.rating_low) and math.isfinite(r.rating_high)
        else "-"
    )
    if r.games:
        bounds = f"[{r.win_low:5.1%}, {r.win_high:5.1%}]"
        rate = f"{r.win_rate:>9.1%}  {bounds:<15} {r.mean_score:>10.2f}"
    else:
        rate = f"{'-':>9}  {'-':<15} {'-':>10}"
    return f"{interval:<14} {r.games:>6} {r.wins:>6} {rate}"


@attrs.frozen
class TournamentResult:
    """The games of a tournament (``simulation``) and the ratings fitted to them."""

    simulation: SimulationResult
    agents: tuple[str, ...]
    ratings: tuple[AgentRating, ...]  # best first
    wins: tuple[tuple[float, ...], ...]  # wins[a][b]: pairwise results, agents' order

    @property
    def rows(self) -> tuple[GameRow, ...]:
        """Every game's row, as a simulation gives them."""
        return self.simulation.rows

    def __repr__(self) -> str:
        """One line, whatever the number of games: ``format_table()`` gives the ratings."""
        best = ", ".join(f"{r.agent} {r.rating:.0f}" for r in self.ratings)
        return (
            f"<TournamentResult {self.simulation.game} {self.simulation.options!r}: "
            f"{len(self.rows)} games, ratings {best}>"
        )

    def format_table(self) -> str:
        """The ratings as a text table, best first."""
        summary = self.simulation.summary()
        width = max([18, *(len(table_label(r.agent)) for r in self.ratings)])  # long agent specs
        lines = [
            f"{summary['game']}, {summary['players']} players: {summary['games']} games "
            f"({summary['truncated']} truncated), seats rotated; Bradley-Terry ratings "
            "(Elo scale, mean 1500) with 95% intervals",
            f"{'agent':<{width}} {'rating':>7}  {'95% interval':<14} {'games':>6} {'wins':>6} "
            f"{'win rate':>9}  {'95% CI':<15} {'mean score':>10}",
        ]
        for r in self.ratings:
            lines.append(f"{table_label(r.agent):<{width}} {r.rating:>7.0f}  {_table_cells(r)}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The ratings, the simulation's summary and the run's settings as a dict of plain
        values (NaN or an infinite bound where there is no data: :meth:`to_json` writes
        ``null``, as strict JSON has neither)."""
        summary = self.simulation.summary()
        return {
            "game": self.simulation.game,
            "options": self.simulation.options,
            "seed": self.simulation.seed,
            "games": summary["games"],
            "truncated": summary["truncated"],
            "model": "bradley-terry",
            "scale": {"mean": ELO_MEAN, "points_per_tenfold_odds": 400},
            "ratings": [r.to_dict() for r in self.ratings],
            "pairwise_wins": {
                a: dict(zip(self.agents, row, strict=True))
                for a, row in zip(self.agents, self.wins, strict=True)
            },
        }

    def to_json(self, path: str | Path | None = None) -> str:
        """The ratings as JSON (see :meth:`to_dict`; a value with no data, NaN or an
        infinite bound, is ``null``: strict JSON has neither); written to ``path`` if given."""
        text = json.dumps(_finite(self.to_dict()), indent=1, allow_nan=False) + "\n"
        if path is not None:
            write_file(path, text)
        return text

    def to_csv(self, path: str | Path | None = None) -> str:
        """The ratings as CSV, one line per agent, best first (a value with no data, NaN or
        an infinite bound, is an empty cell); written to ``path`` if given."""
        buffer = io.StringIO()
        fields = [field.name for field in attrs.fields(AgentRating)]
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(fields)
        for r in self.ratings:
            writer.writerow([_csv_cell(getattr(r, name)) for name in fields])
        text = buffer.getvalue()
        if path is not None:
            write_file(path, text)
        return text

    def plot(self, path: str | Path) -> None:
        """Save the ratings with their intervals as a picture: PNG, or the format the path's
        suffix names (``.svg``, ``.pdf``; needs matplotlib: the ``plot`` extra)."""
        path = as_path(path)
        kind = _plot_format(path)
        from matplotlib.figure import Figure  # no pyplot: the caller's backend stays theirs

        ratings = self.ratings[::-1]  # best on top
        figure = Figure(figsize=(6, 0.6 * len(ratings) + 1.4))
        axes = figure.subplots()
        centres = [r.rating for r in ratings]
        below = [r.rating - r.rating_low for r in ratings]
        above = [r.rating_high - r.rating for r in ratings]
        axes.errorbar(centres, range(len(ratings)), xerr=[below, above], fmt="o", capsize=5,
                      color="#2f5d3a")  # fmt: skip
        # Names as written: matplotlib reads text between two $ as TeX (ValueError if bad).
        axes.set_yticks(range(len(ratings)), [r.agent for r in ratings], parse_math=False)
        axes.axvline(ELO_MEAN, color="grey", linewidth=0.8, linestyle="dashed")
        summary = self.simulation.summary()
        axes.set_xlabel("rating (Elo scale), 95% interval")
        title = f"{summary['game']}, {summary['players']} players, {summary['games']} games"
        axes.set_title(title, parse_math=False)
        figure.tight_layout()
        picture = io.BytesIO()
        try:
            figure.savefig(picture, format=kind, dpi=120)
        except (ValueError, RuntimeError, KeyError, OSError) as error:  # pgf needs LaTeX, say
            raise ConfigError(
                f"cannot plot to {path}: matplotlib cannot write {kind}: {error}"
            ) from None
        write_file(path, picture.getvalue())


def _matplotlib() -> None:
    """ConfigError if matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ConfigError('plots need matplotlib: pip install "forestgames[plot]"') from None


def require_plotting(path: str | Path | None = None) -> None:
    """Raise ConfigError now (before any game is played) if plots cannot be drawn, or
    drawn to ``path``."""
    if path is None:
        _matplotlib()
    else:
        _plot_format(as_path(path))  # needs matplotlib too


def _plot_format(path: Path) -> str:
    """The picture format ``path``'s suffix names (png without one); ConfigError for a
    format matplotlib cannot write (needs matplotlib)."""
    kind = path.suffix.lstrip(".").lower() or "png"
    _matplotlib()
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    if kind not in formats:
        raise ConfigError(
            f"cannot plot to {path}: no picture format {kind!r} "
            f"(one of {', '.join(sorted(formats))})"
        )
    return kind


# --------------------------------------------------------------------------- running


def tournament(
    game: Any,
    agents: Sequence[Any],
    games: IntLike,
    seed: IntLike | None = None,
    workers: IntLike = 1,
    backend: str = "local",
    progress: bool = True,
    *,
    max_moves: IntLike | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    address: str | None = None,
    **options: Any,
) -> TournamentResult:
    """Play ``games`` seat-rotated games between ``agents`` and rate them (module doc).

    ``game`` is a game or a registered name (``options`` such as
    ``num_players=4`` then build it); ``agents`` are two or more agents or specs
    with distinct names. ``workers``, ``backend``, ``progress``, ``max_moves``,
    ``out``, ``resume`` and ``address`` are those of :func:`forestgames.simulate`.
    """
    if isinstance(game, str):
        game = make(game, **options)
    elif options:
        raise ConfigError(f"options {sorted(options)} are for a game name, not a game object")
    game = as_game(game)
    games, workers = _check_run_arguments(games, workers, backend, out, resume, progress, address)
    seed = resolve_seed(seed)
    if (
        isinstance(agents, str | bytes | bytearray)
        or not isinstance(agents, Sequence)
        or len(agents) < 2
    ):
        raise ConfigError(f"a tournament needs a list of two or more agents, not {excerpt(agents)}")
    lineups = tournament_lineups(len(agents), game.num_players, derive_seed(seed, 3))
    run = make_lineup_run(game, agents, lineups, seed, max_moves)
    names = tuple(agent_name(agent) for agent in run.agents)
    if len(set(names)) < len(names):
        raise ConfigError(f"tournament agents need distinct names, not {list(names)}")
    rows = execute_run(run, games, workers, backend, progress, out, resume, address)
    simulation = SimulationResult(game.name, game.options(), seed, rows, names)
    return rate(simulation, names, derive_seed(seed, 4))


def rate(simulation: SimulationResult, names: Sequence[str], seed: int = 0) -> TournamentResult:
    """Fit ratings to the rows of ``simulation`` between the agents ``names`` (ConfigError
    if ``simulation`` is not a SimulationResult, ``names`` are not one or more distinct
    names, or a row holds an agent they leave out)."""
    if not isinstance(simulation, SimulationResult):
        raise ConfigError(f"rate takes a SimulationResult, not {excerpt(simulation)}")
    if not _checked_names(names):
        raise ConfigError("rate needs the name of one agent or more, not none")
    seed = check_seed(seed)
    per_game = pairwise_results(simulation.rows, names)
    wins = per_game.sum(axis=0)
    rating = _elo(fit_bradley_terry(wins))
    low, high = _bootstrap(per_game, seed)
    half = ELO_PER_NATURAL * _laplace_halfwidth(wins)
    low, high = np.minimum(low, rating - half), np.maximum(high, rating + half)
    tallies = {t["label"]: t for t in simulation.summary()["agents"]}
    ratings = []
    for k, name in enumerate(names):
        t = tallies.get(name, {"games": 0, "wins": 0, "win_rate": math.nan,
                               "ci95": (0.0, 1.0), "mean_score": math.nan})  # fmt: skip
        ratings.append(
            AgentRating(
                agent=name,
                rating=float(rating[k]),
                rating_low=float(low[k]),
                rating_high=float(high[k]),
                games=int(t["games"]),
                wins=int(t["wins"]),
                win_rate=float(t["win_rate"]),
                win_low=float(t["ci95"][0]),
                win_high=float(t["ci95"][1]),
                mean_score=float(t["mean_score"]),
            )
        )
    ratings.sort(key=lambda r: -r.rating)
    table = tuple(tuple(float(x) for x in row) for row in wins)
    return TournamentResult(simulation, tuple(names), tuple(ratings), table)


def _bootstrap(per_game: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """2.5% and 97.5% points of each rating over games resampled with replacement."""
    g, k = per_game.shape[0], per_game.shape[1]
    if g == 0:
        return np.full(k, -math.inf), np.full(k, math.inf)
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(g, np.full(g, 1.0 / g), size=BOOTSTRAP_SAMPLES)
    flat = per_game.reshape(g, k * k)
    samples = np.array(
        [_elo(fit_bradley_terry((c @ flat).reshape(k, k))) for c in counts.astype(np.float64)]
    )
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    return low, high
