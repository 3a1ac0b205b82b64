"""Tournaments: the seating schedule, the Bradley–Terry fit, reproducible ratings, the command."""

from __future__ import annotations

import json
import math
import shutil
import sys
import time
import warnings

import numpy as np
import pytest

import forestgames as fg
from forestgames import cli
from forestgames.sim import GameRow, SimulationResult
from forestgames.tournament import (
    ELO_MEAN,
    fit_bradley_terry,
    pairwise_results,
    rate,
    tournament_lineups,
)
from tests.test_fake_game import BuzzGame


@pytest.mark.parametrize(("agents", "players"), [(2, 2), (3, 4), (2, 4), (3, 3), (4, 2), (5, 3)])
def test_lineups_give_every_agent_every_seat_equally(agents, players):
    """Over one cycle of the schedule every agent sits at every seat equally often."""
    lineups = tournament_lineups(agents, players, seed=3)
    assert all(len(lineup) == players for lineup in lineups)
    for seat in range(players):
        counts = np.bincount([lineup[seat] for lineup in lineups], minlength=agents)
        assert len(set(counts.tolist())) == 1, (seat, counts)
    if agents > players:  # every set of `players` agents meets
        tables = {frozenset(lineup) for lineup in lineups}
        assert len(tables) == math.comb(agents, players)


def test_bradley_terry_recovers_known_strengths():
    """Fitted to the expected results of known strengths, the fit returns those strengths."""
    truth = np.array([-1.0, 0.0, 1.5])
    p = 1.0 / (1.0 + np.exp(truth[None, :] - truth[:, None]))
    wins = 1000.0 * p * (1 - np.eye(3))
    np.testing.assert_allclose(fit_bradley_terry(wins, prior=0.0), truth - truth.mean(), atol=1e-8)


def test_bradley_terry_stays_finite_when_one_agent_wins_everything():
    """The prior keeps ratings finite (and ordered) when comparisons are all one-sided."""
    wins = np.array([[0.0, 10.0], [0.0, 0.0]])
    theta = fit_bradley_terry(wins)
    assert np.isfinite(theta).all() and theta[0] > theta[1]


def test_bradley_terry_refuses_counts_that_are_no_real_numbers():
    """Complex counts, counts as text, dates and masked arrays are ConfigErrors (converted
    to floats they lost their imaginary part, became numbers or lost their mask
    silently); real numbers in any form, an object array of them included, are fitted."""
    good = [[0, 3], [1, 0]]
    expected = fit_bradley_terry(np.array(good, dtype=float))
    refused = [
        [[0, 3 + 5j], [1, 0]],
        np.array(good, dtype=complex),
        np.array([[0, "3"], [1, 0]], dtype=object),
        [["0", "3"], ["1", "0"]],
        np.array(good, dtype="datetime64[s]"),
    ]
    for wins in refused:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no ComplexWarning on the way
            with pytest.raises(fg.ConfigError, match=r"wins must be a \(K, K\) array of counts"):
                fit_bradley_terry(wins)
    with pytest.raises(fg.ConfigError, match=r"not a masked array \(its mask would be lost\)"):
        fit_bradley_terry(np.ma.masked_array(good, mask=[[0, 1], [0, 0]]))
    for wins in (good, np.array(good, dtype=object), np.array(good, dtype=np.uint8)):
        np.testing.assert_allclose(fit_bradley_terry(wins), expected)


def test_bradley_terry_ignores_the_diagonal():
    """An agent's wins against itself (the diagonal) change no rating: each is as much a
    loss as a win."""
    wins = np.array([[0.0, 4.0, 1.0], [2.0, 0.0, 3.0], [1.0, 1.0, 0.0]])
    np.testing.assert_allclose(fit_bradley_terry(wins + np.diag([5.0, 0.0, 9.0])),
                               fit_bradley_terry(wins), atol=1e-12)  # fmt: skip


def test_bradley_terry_is_quick_for_many_agents():
    """A thousand agents with one game among them fit within a second (the check that
    every agent reaches every other took 13 s, by matrix powers, before the fit began)."""
    wins = np.zeros((1000, 1000))
    wins[0, 1] = 1.0
    start = time.perf_counter()
    theta = fit_bradley_terry(wins)
    assert time.perf_counter() - start < 1.0
    assert theta[0] > 0 > theta[1] and np.count_nonzero(theta) == 2


def test_pairwise_results_by_hand():
    """Winners beat non-winners; among non-winners the higher score wins; equal keys tie;
    seats of one agent are not compared; truncated games give nothing."""
    rows = (
        GameRow(0, 1, 0, ("a", "b", "c", "a"), (5, 9, 7, 7), (1,), 10, False, "x"),
        GameRow(1, 2, 0, ("a", "b", "c", "a"), (3, 3, 0, 0), (), 10, True, "x"),
    )
    results = pairwise_results(rows, ("a", "b", "c"))
    a, b, c = 0, 1, 2
    first = results[0]
    assert first[b, a] == 2 and first[b, c] == 1  # b won
    assert first[c, a] == 1.5 and first[a, c] == 0.5  # c 7 beats a 5, ties the a with 7
    assert results[1].sum() == 0


def test_tournament_is_reproducible_and_ranks_greedy_over_random():
    """Same arguments, same rows and ratings; Greedy is rated above Random at 2-player Bosk,
    with the mean rating at 1500 and each rating inside its interval."""
    args = dict(game="bosk", agents=["random", "greedy"], games=24, seed=5, progress=False)
    first, second = fg.tournament(**args), fg.tournament(**args)
    assert first.rows == second.rows and first.ratings == second.ratings
    best, worst = first.ratings
    assert (best.agent, worst.agent) == ("greedy", "random")
    assert best.rating - worst.rating > 200
    assert np.mean([r.rating for r in first.ratings]) == pytest.approx(ELO_MEAN)
    for r in first.ratings:
        assert r.rating_low <= r.rating <= r.rating_high
        assert r.games == 24 and r.win_low <= r.win_rate <= r.win_high
    assert [row.agents for row in first.rows[:2]] == [("random", "greedy"), ("greedy", "random")]


def test_the_ratings_table_widens_for_a_long_agent_spec():
    """An agent spec longer than the 18-character agent column widens it: every line of the
    table after the title is as long as its header (the long one pushed its line right)."""
    long_spec = "mcts:n=3:l=1:c=1.25:z=2"
    result = fg.tournament(BuzzGame(2), ["random", long_spec], 4, seed=1, progress=False)
    header, *rows = result.format_table().splitlines()[1:]
    assert any(row.startswith(long_spec + " ") for row in rows)
    assert {len(row.rstrip()) for row in rows} <= {len(header)}


def test_the_ratings_table_shows_an_agent_name_with_control_characters_on_one_line():
    """An agent named with a newline keeps the ratings table's lines whole: the name is
    shown escaped, as in its repr (the newline split its line in two)."""

    class Odd(fg.RandomAgent):
        name = "two\nlines"

    result = fg.tournament(BuzzGame(2), [Odd(1), "random"], 4, seed=1, progress=False)
    header, *rows = result.format_table().splitlines()[1:]
    assert len(rows) == 2 and any(row.startswith(r"two\nlines ") for row in rows)
    assert {len(row.rstrip()) for row in rows} <= {len(header)}


def test_tournament_exports(tmp_path):
    """Ratings go out as a table, CSV (one line per agent) and JSON with the pairwise results."""
    result = fg.tournament(BuzzGame(3), ["random", "greedy", "mcts:5"], 6, seed=1, progress=False)
    assert len(result.format_table().splitlines()) == 2 + 3
    header, *lines = result.to_csv(tmp_path / "r.csv").splitlines()
    assert header.startswith("agent,rating,rating_low,rating_high") and len(lines) == 3
    data = json.loads(result.to_json(tmp_path / "r.json"))
    assert data["model"] == "bradley-terry" and len(data["ratings"]) == 3
    assert set(data["pairwise_wins"]) == {"random", "greedy", "mcts:5"}
    assert (tmp_path / "r.json").read_text(encoding="utf-8") == result.to_json()


def test_tournament_plot(tmp_path):
    """plot() writes a PNG of the ratings."""
    pytest.importorskip("matplotlib")
    result = fg.tournament(BuzzGame(2), ["random", "greedy"], 4, seed=1, progress=False)
    result.plot(tmp_path / "r.png")
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    result.plot(tmp_path / "r.svg")  # the suffix names the format
    assert b"<svg" in (tmp_path / "r.svg").read_bytes()[:1000]
    with pytest.raises(fg.ConfigError, match="no picture format 'xyz'"):
        result.plot(tmp_path / "r.xyz")
    with pytest.raises(fg.ConfigError, match="cannot write"):
        result.plot(tmp_path / "none" / "r.png")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.png", "r.svg"]


def test_tournament_plot_leaves_the_callers_backend_alone(tmp_path):
    """plot() draws without pyplot: the caller's matplotlib backend (a notebook's, say) is
    the same afterwards (plot switched it to Agg, and a notebook then showed no figure)."""
    matplotlib = pytest.importorskip("matplotlib")
    result = fg.tournament(BuzzGame(2), ["random", "greedy"], 2, seed=1, progress=False)
    before = matplotlib.get_backend()
    matplotlib.use("svg")  # a backend every matplotlib has, other than Agg
    try:
        result.plot(tmp_path / "r.png")
        assert matplotlib.get_backend() == "svg"
    finally:
        matplotlib.use(before)
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_tournament_plot_writes_agent_names_as_given(tmp_path):
    """Agent names holding $ are drawn as written, not read as TeX ('$\\frac$' raised
    ValueError, '$x^2$' was drawn x squared)."""
    matplotlib = pytest.importorskip("matplotlib")
    names = ("$x^2$", "$\\frac$")
    rows = tuple(GameRow(i, i, 0, names, (1, 0), (0,), 10, False, "x") for i in range(3))
    result = rate(SimulationResult("bosk", {"num_players": 2}, 0, rows, names), names)
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # texts kept as texts
        result.plot(tmp_path / "r.svg")
    picture = (tmp_path / "r.svg").read_text(encoding="utf-8")
    assert all(f">{name}<" in picture for name in names)


def test_tournament_plot_to_a_format_matplotlib_cannot_write_here(tmp_path):
    """plot() to .pgf without LaTeX (matplotlib's RuntimeError) is a ConfigError naming
    the format, and writes nothing."""
    pytest.importorskip("matplotlib")
    if shutil.which("xelatex"):
        pytest.skip("xelatex is installed: matplotlib can write pgf here")
    result = fg.tournament(BuzzGame(2), ["random", "greedy"], 2, seed=1, progress=False)
    with pytest.raises(
        fg.ConfigError, match=r"cannot plot to .*r\.pgf: matplotlib cannot write pgf"
    ):
        result.plot(tmp_path / "r.pgf")
    assert list(tmp_path.iterdir()) == []


def test_rate_with_an_agent_that_never_ended_a_game():
    """An agent with no finished game still gets a line (no win rate), nothing crashes."""
    rows = (GameRow(0, 1, 0, ("a", "b"), (1, 2), (), 10, True, "x"),)
    result = rate(SimulationResult("bosk", {"num_players": 2}, 0, rows), ("a", "b"))
    assert [r.games for r in result.ratings] == [0, 0]
    table = result.format_table()
    assert "nan" not in table and "inf" not in table
    line = next(line for line in table.splitlines() if line.startswith("a "))
    assert line.split()[-4:] == ["0", "-", "-", "-"]  # wins, then no rate, interval or score


def test_no_data_is_a_dash_in_the_table_and_an_empty_csv_cell():
    """A tournament of 0 games has no rating interval, win rate or mean score: the table
    prints "-", the CSV leaves the cell empty and the JSON writes null (never nan or inf)."""
    result = fg.tournament(BuzzGame(2), ["random", "greedy"], 0, seed=1, progress=False)
    table = result.format_table()
    assert "nan" not in table and "inf" not in table
    assert all(line.split()[2] == "-" for line in table.splitlines()[2:])
    rows = result.to_csv().splitlines()
    header = rows[0].split(",")
    for row in rows[1:]:
        cells = dict(zip(header, row.split(","), strict=True))
        assert cells["games"] == "0" and cells["rating"] == "1500.0"
        assert all(cells[k] == "" for k in ("rating_low", "rating_high", "win_rate", "mean_score"))
    assert "NaN" not in result.to_json() and "Infinity" not in result.to_json()


def test_table_columns_line_up():
    """Every line of the ratings table is as long as its header, whatever the win rates'
    widths (a CI ending below 100% was one character short)."""
    result = fg.tournament("bosk", ["random", "greedy"], games=6, seed=1, progress=False)
    lines = result.format_table().splitlines()[1:]
    assert {len(line) for line in lines} == {len(lines[0])}


def test_tournament_takes_numpy_integers():
    """numpy ints are accepted for a tournament's games, workers, seed and move cap."""
    plain = fg.tournament("bosk", ["random", "greedy"], 2, seed=3, max_moves=1000, progress=False)
    same = fg.tournament("bosk", ["random", "greedy"], np.int64(2), seed=np.int64(3),
                         workers=np.int64(1), max_moves=np.int64(1000), progress=False)  # fmt: skip
    assert same.rows == plain.rows
    with pytest.raises(fg.ConfigError, match="games must be an int, not True"):
        fg.tournament("bosk", ["random", "greedy"], True, progress=False)


def test_bad_tournaments_raise_config_errors():
    """One agent, duplicate names, options with a game object: ConfigError naming the problem."""
    with pytest.raises(fg.ConfigError, match="two or more"):
        fg.tournament("bosk", ["greedy"], 2, progress=False)
    with pytest.raises(fg.ConfigError, match="distinct"):
        fg.tournament("bosk", ["greedy", "greedy"], 2, progress=False)
    with pytest.raises(fg.ConfigError, match="game name"):
        fg.tournament(fg.make("bosk"), ["greedy", "random"], 2, progress=False, num_players=3)
    with pytest.raises(fg.ConfigError, match="games"):
        fg.tournament("bosk", ["greedy", "random"], -1, progress=False)
    with pytest.raises(fg.ConfigError, match="must be a game"):
        fg.tournament(None, ["greedy", "random"], 2, progress=False)


def test_outputs_refuse_what_is_not_a_path():
    """to_json/to_csv/plot of a tournament take a file path: an int (a file descriptor to
    open) or a list is a ConfigError, and nothing is written."""
    result = fg.tournament("bosk", ["greedy", "random"], 2, progress=False)
    for junk in (1, True, [1]):
        for write in (result.to_json, result.to_csv, result.plot):
            with pytest.raises(fg.ConfigError, match="file path"):
                write(junk)


def test_tournament_command(tmp_path, capsys):
    """forestgames tournament prints the ratings and writes CSV, JSON and PNG files."""
    pytest.importorskip("matplotlib")
    files = {kind: tmp_path / f"r.{kind}" for kind in ("csv", "json", "png")}
    argv = ["tournament", "bosk", "-p", "4", "-a", "random,greedy", "-n", "4", "--no-progress"]
    for kind, path in files.items():
        argv += [f"--{kind}", str(path)]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "Bradley-Terry" in out and "greedy" in out
    assert all(path.stat().st_size for path in files.values())


def test_tournament_command_checks_files_before_playing(tmp_path, capsys, monkeypatch):
    """A file that cannot be written is reported before any game is played."""

    def no_games(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(sys.modules["forestgames.tournament"], "execute_run", no_games)
    status = cli.main(
        ["tournament", "bosk", "-a", "random,greedy", "-n", "2", "--json", "/nonexistent/r.json"]
    )
    assert status == 2 and "no directory" in capsys.readouterr().err


def test_json_is_strict_when_values_are_missing():
    """An agent with no games has NaN statistics; to_json writes them as null (strict JSON
    has no NaN or Infinity), and the text loads with a strict parser."""
    import json

    result = fg.tournament("bosk", ["greedy", "random", "mcts:5", "mcts:6", "mcts:7"], 4, seed=0)
    text = result.to_json()
    assert "NaN" not in text and "Infinity" not in text

    def refuse(name):
        raise ValueError(name)

    json.loads(text, parse_constant=refuse)


def _two_agent_result(winners_of_a: int, winners_of_b: int) -> fg.tournament.TournamentResult:
    """The ratings of agents a and b from games that a won ``winners_of_a`` times."""
    rows = [
        GameRow(i, i, 0, ("a", "b"), (1, 0) if i < winners_of_a else (0, 1),
                (0,) if i < winners_of_a else (1,), 10, False, "x")
        for i in range(winners_of_a + winners_of_b)
    ]  # fmt: skip
    return rate(
        SimulationResult("bosk", {"num_players": 2}, 0, tuple(rows), ("a", "b")), ["a", "b"]
    )


def test_a_winner_beats_a_non_winner_and_an_agent_meets_not_itself():
    """A game's winner beats the others whatever the scores (a tie-break win with a lower
    score included), and two seats of one agent are not compared."""
    won_on_ties = [GameRow(0, 1, 0, ("a", "b"), (5, 9), (0,), 10, False, "x")]
    wins = pairwise_results(won_on_ties, ["a", "b"])[0]
    assert wins[0, 1] == 1 and wins[1, 0] == 0
    twice = [GameRow(0, 1, 0, ("a", "a", "b"), (5, 3, 1), (0,), 10, False, "x")]
    wins = pairwise_results(twice, ["a", "b"])[0]
    assert wins[0, 0] == 0 and wins[0, 1] == 2 and wins[1, 0] == 0


def test_ratings_are_on_the_elo_scale():
    """400 points of rating are 10:1 odds: an agent that wins 1000 games of 1100 against
    one other is rated 400 above it (the weak prior moves it by well under a point)."""
    result = _two_agent_result(1000, 100)
    a, b = result.ratings
    assert abs(a.rating - b.rating - 400) < 2


def test_the_rating_interval_is_the_laplace_one_when_every_game_is_won():
    """When a won all 20 games the bootstrap has nothing to vary, and the interval is the
    fit's curvature (Laplace) one: 1.96 standard errors of the posterior with prior
    precision 0.05. Worked out for two agents with ratings d/2 and -d/2 (natural units):
    each game adds p(1-p) to the curvature of d, so the rating's half-width is
    1.96 / sqrt(2 (2 w + prior)) with w = 20 p (1-p)."""
    a, b = _two_agent_result(20, 0).ratings
    d = (a.rating - b.rating) / (400 / math.log(10))
    p = 1 / (1 + math.exp(-d))
    w = 20 * p * (1 - p)
    half = 1.959964 * math.sqrt(1 / (2 * (2 * w + 0.05))) * 400 / math.log(10)
    assert a.rating_high - a.rating == pytest.approx(half, rel=0.01)
    assert a.rating - a.rating_low == pytest.approx(half, rel=0.01)


def test_bootstrap_bounds_are_the_2_5_and_97_5_percentiles():
    """The bootstrap interval is the 2.5th to 97.5th percentile of the ratings refitted on
    games resampled with replacement (a 95% interval, not 90%)."""
    from forestgames.tournament import BOOTSTRAP_SAMPLES, _bootstrap

    draw = np.random.default_rng(5)
    rows = [
        GameRow(i, i, 0, ("a", "b"), (1, 0), (0,) if draw.random() < 0.6 else (1,), 10, False, "x")
        for i in range(40)
    ]
    per_game = pairwise_results(rows, ["a", "b"])
    low, high = _bootstrap(per_game, 7)
    counts = np.random.default_rng(7).multinomial(40, np.full(40, 1 / 40), size=BOOTSTRAP_SAMPLES)
    refits = np.array(
        [
            ELO_MEAN
            + 400 / math.log(10) * fit_bradley_terry((c @ per_game.reshape(40, 4)).reshape(2, 2))
            for c in counts.astype(float)
        ]
    )
    assert np.allclose([low, high], np.percentile(refits, [2.5, 97.5], axis=0))


def _posterior_gradient(wins: np.ndarray, theta: np.ndarray, prior: float = 0.05) -> np.ndarray:
    """The gradient of the Bradley-Terry log-posterior at ``theta`` (zero at the fit)."""
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    return (wins - (wins + wins.T) * p).sum(axis=1) - prior * theta


@pytest.mark.parametrize(
    "wins",
    [
        [[0.0, 9_990_000.0], [10_000.0, 0.0]],  # ten million games, 99.9% won
        [[0.0, 1e6, 100.0], [1.0, 0.0, 1.0], [0.0, 0.0, 0.0]],  # 2 held apart by the prior
        [  # Newton's steps from 0 ran off to 10**8 and cycled (a cap of 4 per step holds them)
            [0, 7, 5602110, 26, 142],
            [0, 0, 1915392, 2, 7],
            [0, 54, 0, 0, 2633],
            [115, 633777, 34518, 0, 9],
            [0, 0, 6876, 0, 0],
        ],
    ],
)
def test_bradley_terry_fits_large_counts(wins):
    """Millions of comparisons have a fit (round-off kept Newton's steps above its 1e-10, or
    its steps overshot: ConfigError 'prior=0.05 is too small')."""
    wins = np.array(wins, dtype=float)
    theta = fit_bradley_terry(wins)
    assert np.isfinite(theta).all() and abs(theta.sum()) < 1e-9
    assert np.abs(_posterior_gradient(wins, theta)).max() < 1e-6 * wins.sum()
    if len(wins) == 2:
        assert theta[0] - theta[1] == pytest.approx(math.log(999), abs=0.01)


def test_bradley_terry_places_agents_without_games_at_the_smallest_prior():
    """An agent with no games sits at 0 and leaves the others' fit as it is without it, at
    prior=MIN_HOLDING_PRIOR too: fitted with the others, its offset rested on the prior's
    curvature (1e-6) alone against round-off (1e-11), and Newton's method raised
    ConfigError 'prior=1e-06 is too small' or stopped 4e-5 short of the fit."""
    from forestgames.tournament import MIN_HOLDING_PRIOR

    cycle = np.array([[0.0, 1e5, 0.0], [0.0, 0.0, 50.0], [1.0, 0.0, 0.0]])  # a > b > c > a
    pair = np.array([[0.0, 1e6], [1e5, 0.0]])
    for played in (cycle, pair):
        k = len(played)
        wins = np.zeros((k + 1, k + 1))
        wins[:k, :k] = played  # the last agent played no game
        theta = fit_bradley_terry(wins, MIN_HOLDING_PRIOR)
        alone = fit_bradley_terry(played, MIN_HOLDING_PRIOR)
        assert abs(theta[k]) < 1e-12
        np.testing.assert_allclose(theta[:k], alone, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    ("count", "prior"),
    [(1e8, 1e-6), (1e11, 0.05), (1e15, 1e-6), (1e15, 0.05), (2.0**53, 0.05)],
)
def test_bradley_terry_fits_one_sided_counts_up_to_the_limit(count, prior):
    """One agent beat the other ``count`` times, never the reverse: the fit is where the
    prior balances the wins, count * P(b beats a) = prior * d / 2 for the gap d, to 1e-12.
    Newton's gradient lost count * P(b beats a) to round-off (P(a beats b) rounds to 1):
    ConfigError 'prior=0.05 is too small' from 1e11 wins, or a gap up to 0.7 off."""
    theta = fit_bradley_terry(np.array([[0.0, count], [0.0, 0.0]]), prior)
    d = theta[0] - theta[1]
    assert theta[0] == -theta[1]
    assert count / (1.0 + math.exp(d)) == pytest.approx(prior * d / 2, rel=1e-12)


def test_bradley_terry_refuses_counts_beyond_float_precision():
    """Counts above 2**53 are a ConfigError naming the bound, not an overflow warning in the
    sums (1e308 and 1e308 made inf) followed by a 'prior too small' error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(fg.ConfigError, match=r"<= 2\*\*53"):
            fit_bradley_terry([[0.0, 1e308], [1e308, 0.0]])
        theta = fit_bradley_terry([[0.0, 2.0**53], [2.0**52, 0.0]])  # the bound is taken
        assert theta[0] - theta[1] == pytest.approx(math.log(2))


def test_rate_without_names_says_so():
    """rate(simulation, []) is a ConfigError about the names (it was one about the shape of
    a wins matrix, which the caller never gave)."""
    with pytest.raises(fg.ConfigError, match="rate needs the name of one agent or more"):
        rate(SimulationResult("bosk", {"num_players": 2}, 0, ()), [])
