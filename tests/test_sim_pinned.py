"""Behaviours of forestgames.sim and forestgames.tournament that a mutation audit found
unpinned: interval bounds and argument checks, the first out-of-turn move, row fields."""

from __future__ import annotations

import json
import math
from typing import ClassVar

import numpy as np
import pytest

import forestgames as fg
from forestgames.sim import GameRow, clustered_interval, play_game, wilson_interval
from forestgames.tournament import fit_bradley_terry, rate, tournament_lineups
from tests.test_fake_game import Add, Buzz, BuzzGame
from tests.test_tournament import _posterior_gradient

Z = 1.959964


def _wilson_by_hand(wins: int, n: float, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval from its textbook formula (no clamping)."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize("trials", [4, 10, 19, 24, 69, 75, 125, 138, 150, 1000])
def test_wilson_bounds_are_exactly_0_and_1_at_no_wins_and_all_wins(trials):
    """No successes give a lower bound of exactly 0, all successes an upper bound of exactly 1
    (the formula's value there, which rounding would otherwise leave a hair off)."""
    assert wilson_interval(0, trials)[0] == 0.0
    assert wilson_interval(trials, trials)[1] == 1.0
    assert wilson_interval(0, trials)[1] == pytest.approx(_wilson_by_hand(0, trials)[1])
    assert wilson_interval(trials, trials)[0] == pytest.approx(_wilson_by_hand(trials, trials)[0])


def test_wilson_and_clustered_intervals_take_any_positive_z():
    """z may be any finite number > 0 (z = 1 gives a 68% interval by the same formula);
    z = 0 or below is a ConfigError, in both interval functions."""
    assert wilson_interval(5, 10, z=1.0) == pytest.approx(_wilson_by_hand(5, 10, 1.0))
    assert wilson_interval(5, 10, z=0.5) == pytest.approx(_wilson_by_hand(5, 10, 0.5))
    assert clustered_interval([(1, 2), (1, 2)], z=0.5) == pytest.approx(_wilson_by_hand(2, 4, 0.5))
    for z in (0, 0.0, -0.5, -1):
        with pytest.raises(fg.ConfigError, match="z must be a finite number > 0"):
            wilson_interval(5, 10, z=z)
        with pytest.raises(fg.ConfigError, match="z must be a finite number > 0"):
            clustered_interval([(1, 2)], z=z)


def test_wilson_interval_refuses_counts_out_of_range():
    """Negative successes or trials, and trials beyond 2**53 (counts a float holds exactly),
    are ConfigErrors naming the count; 2**53 trials are taken."""
    with pytest.raises(fg.ConfigError, match=r"successes must be in 0\.\.10"):
        wilson_interval(-1, 10)
    with pytest.raises(fg.ConfigError, match="trials must be in 0"):
        wilson_interval(0, -1)
    with pytest.raises(fg.ConfigError, match="trials must be in 0"):
        wilson_interval(1, 2**53 + 1)
    low, high = wilson_interval(2**52, 2**53)
    assert low < 0.5 < high


def test_clustered_interval_refuses_more_seats_than_a_float_counts():
    """A game's seats are at most 2**53 in clustered_interval, as trials are in Wilson's."""
    with pytest.raises(fg.ConfigError, match="seats must be in 1"):
        clustered_interval([(0, 2**53 + 1)])
    assert clustered_interval([(0, 2**53)]) == wilson_interval(0, 2**53)


class _AlwaysBuzz:
    """An agent that adds 1 on its turn and always buzzes out of turn, logging who is asked."""

    asked: ClassVar[list[tuple[int, int, int]]] = []
    """(counter, turn, seat) of every ask, shared by the per-game copies."""
    name = "buzzer"

    def choose(self, state):
        return Add(state.players_to_act[0], 1)

    def react(self, state, seat):
        _AlwaysBuzz.asked.append((state.counter, state.turn, seat))
        return Buzz(seat)


def test_the_first_out_of_turn_move_returned_is_applied_and_no_other_seat_is_asked():
    """Once an out-of-turn seat returns a move it is applied at once: the seats after it in
    the shuffled order are not asked in that position (the driver loop, docs/simulation.md)."""
    _AlwaysBuzz.asked.clear()
    applied = []
    play_game(BuzzGame(3), [_AlwaysBuzz()], seed=5, observer=lambda s, m: applied.append(m))
    buzzes = [m for m in applied if isinstance(m, Buzz)]
    # Every seat buzzes once, when first out of turn: one ask per buzz, and it is the buzz.
    assert len(buzzes) == 3 and len(_AlwaysBuzz.asked) == 3
    assert [m.player for m in buzzes] == [seat for _, _, seat in _AlwaysBuzz.asked]


def test_a_result_row_refuses_items_of_the_wrong_type():
    """GameRow.from_dict refuses agents that are not strings and scores or winners that are
    bools or not ints, naming the field (a bool is an int to Python, not a seat or score)."""
    line = {"index": 0, "seed": 1, "first_player": 0, "agents": ["a", "b"], "scores": [3, 4]}
    line |= {"winners": [1], "moves": 9, "truncated": False, "run": "x"}
    assert GameRow.from_dict(line) == GameRow(0, 1, 0, ("a", "b"), (3, 4), (1,), 9, False, "x")
    for field, value in (("agents", [1, 2]), ("agents", ["a", None]), ("scores", [True, 4]),
                         ("scores", [3, 4.0]), ("winners", [True])):  # fmt: skip
        with pytest.raises(fg.ConfigError, match=f"field {field} must list"):
            GameRow.from_dict(line | {field: value})


def test_an_agent_on_two_seats_of_a_game_gets_the_clustered_interval_in_the_summary():
    """Where an agent held two seats of some game, its summary interval is the Wilson one over
    the effective trials of Kish's design effect (docs/simulation.md), worked out here from
    the rows: 10 games of 2 seats, both won in 3: p = 0.3, cluster-robust variance
    10/9 * sum((w - 2p)^2) / 20^2, effective trials p(1-p) / variance. An agent on one seat a
    game keeps the plain Wilson interval of its wins and games."""
    together = [True, False, False, True, False, False, False, True, False, False]
    rows = tuple(
        GameRow(k, k, 0, ("a", "a", "b"), (5, 5, 3) if won else (1, 1, 4),
                (0, 1) if won else (2,), 30, False, "x")
        for k, won in enumerate(together)
    )  # fmt: skip
    agents = {t["label"]: t for t in fg.sim.SimulationResult("g", {}, 0, rows).summary()["agents"]}
    p = 6 / 20
    variance = 10 / 9 * sum((2 * won - 2 * p) ** 2 for won in together) / 20**2
    effective = min(20, p * (1 - p) / variance)
    assert agents["a"]["games"] == 20 and agents["a"]["wins"] == 6
    assert agents["a"]["ci95"] == pytest.approx(_wilson_by_hand(p * effective, effective))
    assert agents["a"]["ci95"] != pytest.approx(wilson_interval(6, 20))  # seats win together
    assert agents["b"]["ci95"] == pytest.approx(_wilson_by_hand(7, 10))


def test_a_result_with_no_rows_and_no_player_count_has_no_seats():
    """With no rows and no num_players among the options, the summary has 0 players and no
    seat figures (not a seat count made up)."""
    summary = fg.sim.SimulationResult("g", {}, 0, (), ("a",)).summary()
    assert summary["players"] == 0 and summary["seats"] == []
    assert [(t["label"], t["games"]) for t in summary["agents"]] == [("a", 0)]


def test_rotate_seats_agent_s_plus_k_at_seat_s_in_game_k():
    """With rotate=True game k seats the agent (s + k) % P of the cycled list at seat s, the
    schedule a tournament documents for K = P agents (so a seeded rotated run's rows are
    fixed by its arguments)."""
    result = fg.simulate(BuzzGame(3), ["random", "greedy", "mcts:5"], 6, seed=3, rotate=True,
                         progress=False)  # fmt: skip
    names = ("random", "greedy", "mcts:5")
    for row in result.rows:
        assert row.agents == tuple(names[(s + row.index) % 3] for s in range(3))


# --------------------------------------------------------------------------- tournaments


def test_a_tournament_by_name_builds_its_game_from_the_options():
    """fg.tournament(name, ..., num_players=3) plays 3-player games of that game (the
    options build it), not the game's default player count."""
    result = fg.tournament("bosk", ["random", "greedy"], 2, seed=1, progress=False, num_players=3)
    assert result.simulation.game == "bosk" and result.simulation.options["num_players"] == 3
    assert all(len(row.agents) == len(row.scores) == 3 for row in result.rows)


@pytest.mark.parametrize(("agents", "players"), [(3, 3), (2, 4), (3, 5), (4, 4)])
def test_lineups_with_no_more_agents_than_seats_put_agent_k_plus_s_at_seat_s(agents, players):
    """With K <= P agents game k seats agent (k + s) % K at seat s (docs/simulation.md)."""
    expected = tuple(tuple((k + s) % agents for s in range(players)) for k in range(agents))
    assert tournament_lineups(agents, players) == expected


def test_lineups_default_to_seed_0_and_refuse_no_seats():
    """tournament_lineups' seed defaults to 0, and a table of no seats is a ConfigError."""
    assert tournament_lineups(5, 2) == tournament_lineups(5, 2, seed=0)
    assert tournament_lineups(5, 2) != tournament_lineups(5, 2, seed=1)
    with pytest.raises(fg.ConfigError, match=r"num_players must be in 1\.\.64"):
        tournament_lineups(2, 0)


def test_a_schedule_of_more_than_a_million_seatings_is_refused():
    """The schedule of K > P agents holds C(K, P) tables times P rotations, refused above
    1,000,000 seatings: 32 agents at 5 seats make 201,376 * 5 = 1,006,880."""
    assert math.comb(32, 5) * 5 == 1_006_880
    with pytest.raises(fg.ConfigError, match="more than 1,000,000 seatings"):
        tournament_lineups(32, 5)
    assert len(tournament_lineups(20, 5)) == math.comb(20, 5) * 5


def test_a_schedule_of_exactly_a_million_seatings_is_played():
    """Exactly 1,000,000 seatings (a million agents at a 1-seat table) are not more than
    the limit: the schedule is made (about a second), and one agent more is refused."""
    assert len(tournament_lineups(10**6, 1)) == 10**6
    with pytest.raises(fg.ConfigError, match=r"1,?000,?000"):
        tournament_lineups(10**6 + 1, 1)


@pytest.mark.parametrize(
    "wins",
    [
        [[0, 3, 1], [1, 0, 1], [1, 3, 0]],  # b beaten by both others, a and c even
        [[0, 5, 0, 2], [1, 0, 4, 0], [0, 1, 0, 3], [2, 0, 1, 0]],
    ],
)
def test_the_fit_is_the_posterior_mode_where_wins_are_one_sided(wins):
    """fit_bradley_terry returns log-strengths of mean 0 where the log-posterior's gradient
    (test_tournament's, by hand) vanishes, for agents who all met with lopsided pair results."""
    theta = fit_bradley_terry(wins)
    assert sum(theta) == pytest.approx(0, abs=1e-9)
    gradient = _posterior_gradient(np.array(wins, dtype=float), theta)
    assert list(gradient) == pytest.approx([0] * len(wins), abs=1e-7)


def test_rate_lists_an_agent_of_no_game_with_no_wins():
    """rate() given a name the simulation never saw lists it with 0 games and 0 wins, a NaN
    win rate with the interval [0, 1] and a NaN mean score."""
    rows = (GameRow(0, 1, 0, ("a", "b"), (3, 1), (0,), 9, False, "x"),)
    result = rate(fg.sim.SimulationResult("g", {}, 0, rows, ("a", "b")), ["a", "b", "c"])
    c = next(r for r in result.ratings if r.agent == "c")
    assert (c.games, c.wins, c.win_low, c.win_high) == (0, 0, 0.0, 1.0)
    assert math.isnan(c.win_rate) and math.isnan(c.mean_score)


def test_rate_bootstraps_from_seed_0_by_default():
    """rate()'s bootstrap seed defaults to 0: the same ratings as seed=0, other intervals
    than another seed's."""
    rows = tuple(
        GameRow(k, k, 0, ("a", "b"), (1, 0), (0,) if k % 3 else (1,), 9, False, "x")
        for k in range(12)
    )
    simulation = fg.sim.SimulationResult("g", {}, 0, rows, ("a", "b"))
    assert rate(simulation, ["a", "b"]).ratings == rate(simulation, ["a", "b"], seed=0).ratings
    assert rate(simulation, ["a", "b"]).ratings != rate(simulation, ["a", "b"], seed=1).ratings


# --------------------------------------------------------------------------- results files


def test_a_run_whose_games_the_cap_cut_resumes(tmp_path):
    """A game cut by the move cap has exactly max_moves moves: its row is one of the run's,
    so resuming a results file of such games plays only the missing ones."""
    out = tmp_path / "cut.jsonl"
    args = {"game": BuzzGame(2, target=50), "agents": ["random"], "seed": 4, "max_moves": 6}
    first = fg.simulate(**args, games=2, out=out, progress=False)
    assert all(row.truncated and row.moves == 6 for row in first.rows)
    resumed = fg.simulate(**args, games=3, out=out, resume=True, progress=False)
    assert resumed.rows == fg.simulate(**args, games=3, progress=False).rows
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3


def test_resume_refuses_a_cut_game_with_winners(tmp_path):
    """A truncated game has no winners (docs/simulation.md): a results row saying both is
    refused on resume with a ConfigError naming the line, and the file is left as it was."""
    out = tmp_path / "r.jsonl"
    args = {"game": BuzzGame(2, target=50), "agents": ["random"], "seed": 4, "max_moves": 6}
    fg.simulate(**args, games=1, out=out, progress=False)
    row = json.loads(out.read_text(encoding="utf-8"))
    assert row["truncated"] and row["winners"] == []
    out.write_text(json.dumps(row | {"winners": [0]}) + "\n", encoding="utf-8")
    before = out.read_bytes()
    with pytest.raises(fg.ConfigError, match=r"r\.jsonl:1 .*winners"):
        fg.simulate(**args, games=2, out=out, resume=True, progress=False)
    assert out.read_bytes() == before


def test_a_smaller_run_resumed_from_a_longer_ones_file_reports_its_first_games(tmp_path):
    """Resuming with fewer games than the file holds reports games 0..games-1 only (game k
    the same in both), and the file keeps every row."""
    out = tmp_path / "r.jsonl"
    args = {"game": BuzzGame(2), "agents": ["random"], "seed": 9}
    longer = fg.simulate(**args, games=3, out=out, progress=False)
    shorter = fg.simulate(**args, games=2, out=out, resume=True, progress=False)
    assert shorter.rows == longer.rows[:2]
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3


def test_a_last_line_that_is_no_row_is_named_by_its_number(tmp_path):
    """A whole last line without its newline that is not a result row is refused with
    the file's name and that line's number."""
    out = tmp_path / "r.jsonl"
    args = {"game": BuzzGame(2), "agents": ["random"], "seed": 9}
    fg.simulate(**args, games=2, out=out, progress=False)
    with out.open("a", encoding="utf-8") as file:
        file.write('{"index": "three"}')
    with pytest.raises(fg.ConfigError, match=r"r\.jsonl:3 is not a result row"):
        fg.simulate(**args, games=4, out=out, resume=True, progress=False)


def test_a_resumed_run_starts_no_more_workers_than_games_left(tmp_path, monkeypatch):
    """workers is at most one a game left to play (docs/simulation.md): resuming 5 games of
    which the file holds 2 with 64 workers starts 3."""
    out = tmp_path / "r.jsonl"
    args = {"game": BuzzGame(2), "agents": ["random"], "seed": 9}
    fg.simulate(**args, games=2, out=out, progress=False)
    started = []
    monkeypatch.setattr(
        fg.sim, "_run_local", lambda run, chunker, workers, emit: started.append(workers)
    )
    fg.simulate(**args, games=5, workers=64, out=out, resume=True, progress=False)
    assert started == [3]


def test_vector_runs_longer_than_one_batch_replay_the_scalar_rows(monkeypatch):
    """engine="vector" plays a run in batches of VECTOR_BATCH games: with batches of 3, a
    7-game run is games 0-2, 3-5 and 6, and its rows are still the scalar rows 0-6."""
    import forestgames.bosk._vector_sim as vector_sim

    monkeypatch.setattr(vector_sim, "VECTOR_BATCH", 3)
    game = fg.make("bosk", num_players=2)
    kwargs = {"seed": 5, "rotate": True, "progress": False}
    scalar = fg.simulate(game, ["random", "greedy"], 7, **kwargs)
    vector = fg.simulate(game, ["random", "greedy"], 7, engine="vector", **kwargs)
    assert [row.index for row in vector.rows] == list(range(7))
    assert vector.rows == scalar.rows


def test_a_simulation_result_and_a_record_are_unhashable_by_their_own_names():
    """A SimulationResult, like a GameRecord, holds its options as a dict: both are
    unhashable as themselves (Python's TypeError names the class), where hashing a result
    raised attrs' "unhashable type: 'dict'" from inside its generated hash; both still
    compare by value."""
    game = fg.make("bosk", num_players=2)
    result = fg.simulate(game, ["random", "random"], 2, seed=0, progress=False)
    record = fg.play(game, ["random", "random"], seed=0)
    for value, name in ((result, "SimulationResult"), (record, "GameRecord")):
        with pytest.raises(TypeError, match=f"unhashable type: '{name}'"):
            hash(value)
    assert result == fg.simulate(game, ["random", "random"], 2, seed=0, progress=False)
