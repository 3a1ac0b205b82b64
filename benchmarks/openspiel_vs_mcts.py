"""OpenSpiel's Python ISMCTS against forestgames' MCTSAgent, equal time per move, every game.

    python -m benchmarks.openspiel_vs_mcts --games 30 --seconds 0.2 --workers 2
    python -m benchmarks.openspiel_vs_mcts --speed     # the OpenSpiel layer's cost per step

Each game (smallest player count with an opponent: 2, Boom Bokken 4) is played
through ``forestgames.rl.openspiel``: OpenSpiel's ``ISMCTSBot`` (its ``MCTSBot``
in Bosk, a perfect-information game that ISMCTS refuses) holds half the seats,
``MCTSAgent`` the other half, the seats swapped from one game to the next.

Equal time: neither searcher has a clock, so both get the same pacing rule. Each
searched decision runs ``n`` iterations, ``n`` chosen so that ``n`` times the
seconds per iteration measured on that side's previous searches (a moving
average) is ``--seconds``, and at least 2 (OpenSpiel's ISMCTSBot fails with one:
its first simulation only expands the root); the table reports what each side
really spent.
Decisions with one legal action are played at once by both. Rollouts are random
to the end, or cut after ``--rollout`` decisions in Bonsai and Living Forest (the
leaders on points then count as the winners, for both sides, as MCTSAgent's
``rollout_limit`` does). ISMCTS's UCT constant is 2 x 1.4 (its returns are +-1,
MCTSAgent's rewards 0..1 with 1.4). On a Boom Bokken reaction turn the MCTSAgent
side passes (its ``react``, which plays as Greedy does, unsearched, is not asked).

A game's result: the side with a seat among the winners won (a shared win
between the sides counts for both). Rates come with 95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing
import time
from typing import Any

import numpy as np

import forestgames as fg
from forestgames.agents import MCTSAgent
from forestgames.sim import wilson_interval

SETUPS: dict[str, tuple[int, bool]] = {
    "bosk": (2, False),
    "bonsai": (2, True),
    "living_forest": (2, True),
    "boom_bokken": (4, False),
}
"""game: (players, whether rollouts are cut after --rollout decisions)."""

EXPLORATION = 1.4


class Pace:
    """Iterations per search aiming at ``seconds`` a search, from a moving average of the
    seconds per iteration measured so far (the same rule for both sides)."""

    def __init__(self, seconds: float, first: int = 8, least: int = 2) -> None:
        self.seconds = seconds
        self.first = first
        self.least = least  # ISMCTSBot's first simulation only expands its root
        self.per_iteration: float | None = None
        self.spent: list[float] = []
        self.iterations: list[int] = []

    def next(self) -> int:
        if self.per_iteration is None:
            return self.first
        return max(self.least, round(self.seconds / self.per_iteration))

    def record(self, iterations: int, seconds: float) -> None:
        self.spent.append(seconds)
        self.iterations.append(iterations)
        rate = seconds / iterations
        self.per_iteration = (
            rate if self.per_iteration is None else 0.7 * self.per_iteration + 0.3 * rate
        )


def _evaluator(limit: int | None, rng: np.random.RandomState) -> Any:
    """Random rollouts for OpenSpiel's bots; cut after ``limit`` decisions, the leaders on
    points count as winners (+1, the others -1)."""
    from open_spiel.python.algorithms import mcts

    class LeaderRollout(mcts.Evaluator):  # type: ignore[misc]
        def evaluate(self, state: Any) -> np.ndarray:
            state = state.clone()
            decisions = 0
            while not state.is_terminal() and decisions != limit:
                if state.is_chance_node():
                    actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(rng.choice(actions, p=probabilities)))
                    continue
                state.apply_action(int(rng.choice(state.legal_actions())))
                decisions += 1
            if state.is_terminal():
                return np.array(state.returns())
            scores = state.forestgames_state.scores
            return np.array([1.0 if s == max(scores) else -1.0 for s in scores])

        def prior(self, state: Any) -> list[tuple[int, float]]:
            actions = state.legal_actions()
            return [(a, 1.0 / len(actions)) for a in actions]

    return LeaderRollout()


class SpielSide:
    """OpenSpiel's ISMCTSBot (MCTSBot in perfect-information games), paced."""

    def __init__(self, game: Any, seconds: float, limit: int | None, seed: int) -> None:
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        rng = np.random.RandomState(seed)
        evaluator = _evaluator(limit, rng)
        perfect = game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
        c = 2 * EXPLORATION
        if perfect:
            self.bot = mcts.MCTSBot(game, c, 1, evaluator, random_state=rng, solve=False)
        else:
            self.bot = ismcts.ISMCTSBot(game, evaluator, c, 1, random_state=rng)
        self.attribute = "max_simulations" if perfect else "_max_simulations"
        self.pace = Pace(seconds)

    def act(self, state: Any) -> int:
        if len(state.legal_actions()) == 1:
            return int(state.legal_actions()[0])
        iterations = self.pace.next()
        setattr(self.bot, self.attribute, iterations)
        start = time.perf_counter()
        action = int(self.bot.step(state))
        self.pace.record(iterations, time.perf_counter() - start)
        return action


class EngineSide:
    """forestgames' MCTSAgent on the engine position, paced; it passes every reaction turn."""

    def __init__(self, game: Any, seconds: float, limit: int | None, seed: int) -> None:
        self.agent = MCTSAgent(8, seed=seed, exploration=EXPLORATION, rollout_limit=limit)
        self.pace = Pace(seconds)
        self.codec = game.table.codec
        self.pass_id = game.table.pass_id

    def act(self, state: Any) -> int:
        node = state.node
        if node.reacting:
            return int(self.pass_id)
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        self.agent.iterations = iterations = self.pace.next()
        start = time.perf_counter()
        move = self.agent.choose(node.state)
        self.pace.record(iterations, time.perf_counter() - start)
        return int(self.codec.action_id(move))


def play_one(job: tuple[str, int, float, int]) -> dict[str, Any]:
    """Game ``index`` of ``name``: who won, and each side's time and iterations per search."""
    name, index, seconds, rollout = job
    from forestgames.rl import openspiel as fos

    players, cut = SETUPS[name]
    game = fos.load_game(name, num_players=players)
    limit = rollout if cut else None
    spiel_seats = {s for s in range(players) if s % 2 == index % 2}
    spiel = SpielSide(game, seconds, limit, 1000 + index)
    engine = EngineSide(game, seconds, limit, 2000 + index)
    rng = np.random.RandomState(index)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
            continue
        side = spiel if state.current_player() in spiel_seats else engine
        state.apply_action(side.act(state))
    winners = set(state.forestgames_state.winners)
    return {
        "game": name,
        "index": index,
        "spiel_won": bool(winners & spiel_seats),
        "engine_won": bool(winners - spiel_seats),
        "spiel": {"seconds": spiel.pace.spent, "iterations": spiel.pace.iterations},
        "engine": {"seconds": engine.pace.spent, "iterations": engine.pace.iterations},
    }


def summary(name: str, rows: list[dict[str, Any]], elapsed: float) -> dict[str, Any]:
    """Win rates with 95% Wilson intervals and each side's mean time and iterations per search."""
    games = len(rows)
    result: dict[str, Any] = {"game": name, "players": SETUPS[name][0], "games": games}
    for side in ("spiel", "engine"):
        wins = sum(row[f"{side}_won"] for row in rows)
        low, high = wilson_interval(wins, games)
        spent = [s for row in rows for s in row[side]["seconds"]]
        iterations = [n for row in rows for n in row[side]["iterations"]]
        result[side] = {
            "wins": wins,
            "rate": round(wins / games, 3),
            "ci95": [round(low, 3), round(high, 3)],
            "seconds_per_search": round(float(np.mean(spent)), 3) if spent else None,
            "iterations_per_search": round(float(np.mean(iterations)), 1) if iterations else None,
            "searches": len(spent),
        }
    result["minutes"] = round(elapsed / 60, 1)
    return result


def _row(r: dict[str, Any]) -> str:
    s, e = r["spiel"], r["engine"]
    return (
        f"| {r['game']} | {r['players']} | {r['games']} | {s['rate']:.2f} "
        f"[{s['ci95'][0]:.2f}, {s['ci95'][1]:.2f}] | {e['rate']:.2f} "
        f"[{e['ci95'][0]:.2f}, {e['ci95'][1]:.2f}] | {s['seconds_per_search']} / "
        f"{e['seconds_per_search']} | {s['iterations_per_search']} / "
        f"{e['iterations_per_search']} | {r['minutes']} |"
    )


def spiel_random_games(game: Any, seeds: range) -> tuple[int, int]:
    """Random games through OpenSpiel (chance by its probabilities, decisions uniform):
    (decisions, chance nodes) played."""
    import random

    decisions = chances = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probabilities)[0])
                chances += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions, chances


SPEED_CASES = [
    ("bosk", {"num_players": 2}),
    ("bosk", {"num_players": 4}),
    ("bonsai", {"num_players": 2}),
    ("living_forest", {"num_players": 2}),
    ("boom_bokken", {"num_players": 4}),
    ("boom_bokken", {"num_players": 9}),
]


def speed(rounds: int = 5) -> None:
    """Steps per second of random games through OpenSpiel against the engine's own random
    games (``benchmarks.common.random_games``), same seeds, interleaved, best of ``rounds``."""
    from benchmarks.common import best_seconds, random_games
    from forestgames.rl import openspiel as fos

    print("| game | players | OpenSpiel steps/s | decisions / chance per game ", end="")
    print("| engine moves/s | ratio |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, options in SPEED_CASES:
        game, spiel = fg.make(name, **options), fos.load_game(name, **options)
        seeds = range(3)
        decisions, chances = spiel_random_games(spiel, seeds)
        moves = random_games(game, seeds)
        runs = [
            functools.partial(spiel_random_games, spiel, seeds),
            functools.partial(random_games, game, seeds),
        ]
        theirs, ours = best_seconds(runs, rounds)
        steps = decisions + chances
        print(
            f"| {name} | {options['num_players']} | {steps / theirs:,.0f} | "
            f"{decisions / len(seeds):.0f} / {chances / len(seeds):.0f} | "
            f"{moves / ours:,.0f} | {steps / theirs / (moves / ours):.2f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24, help="games per game (even: seats swap)")
    parser.add_argument("--seconds", type=float, default=0.2, help="target seconds per search")
    parser.add_argument(
        "--rollout", type=int, default=60, help="rollout cut (Bonsai, Living Forest)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=sorted(SETUPS), action="append")
    parser.add_argument("--json", help="also write the summaries here (JSON lines)")
    parser.add_argument("--speed", action="store_true", help="measure steps per second instead")
    args = parser.parse_args()
    for flag, value in (("--games", args.games), ("--workers", args.workers)):
        if value < 1:  # --games 0 divided by zero in the summary, --workers 0 made no pool
            parser.error(f"{flag} must be at least 1, not {value}")
    if not 0 < args.seconds < math.inf:  # -1 or 0 ran every search at 2 iterations, silently
        parser.error(f"--seconds must be a positive number of seconds, not {args.seconds}")
    if args.speed:
        speed()
        return
    print(
        "| game | players | games | ISMCTS won [95% CI] | MCTSAgent won [95% CI] "
        "| s per search (ISMCTS / ours) | iterations per search (ISMCTS / ours) | minutes |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |", flush=True)
    context = multiprocessing.get_context("spawn")
    with context.Pool(args.workers) as pool:
        for name in args.only or list(SETUPS):
            start = time.perf_counter()
            jobs = [(name, i, args.seconds, args.rollout) for i in range(args.games)]
            rows = pool.map(play_one, jobs, chunksize=1)
            result = summary(name, rows, time.perf_counter() - start)
            print(_row(result), flush=True)
            if args.json:
                with open(args.json, "a", encoding="utf-8") as out:
                    out.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    fg.make("bosk")  # the games import before the workers start
    main()
