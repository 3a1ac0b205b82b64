"""Seeded results do not depend on the process: a fresh interpreter with another
PYTHONHASHSEED (string hashing, so set and dict order of names) plays the same games,
with the same legal move order, views, tensors, agents' choices and simulation rows."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest

import forestgames as fg
from forestgames.agents.greedy import GreedyAgent

GAMES = """
import hashlib, json
import forestgames as fg
from forestgames.agents.greedy import GreedyAgent
from forestgames.agents.mcts import MCTSAgent

CONFIGS = [
    ("bosk", {"num_players": 3}),
    ("bonsai", {"num_players": 1}),
    ("living_forest", {"num_players": 3, "guardian_phase": "simultaneous"}),
    ("boom_bokken", {"num_players": 6, "team_sizes": [3, 3], "expert": True}),
]


def digest():
    h = hashlib.sha256()
    for name, options in CONFIGS:
        game = fg.make(name, **options)
        state = game.new_game(seed=5)
        agents = [GreedyAgent(seed=1), MCTSAgent(iterations=4, seed=2, rollout_limit=4)]
        for step in range(16):
            if state.is_terminal:
                break
            h.update(str([str(m) for m in state.legal_moves()]).encode())
            for seat in range(game.num_players):
                h.update(json.dumps(state.observation(seat), sort_keys=True).encode())
                h.update(state.observation_tensor(seat).tobytes())
                h.update(state.legal_action_mask(seat).tobytes())
            seat = state.players_to_act[0]
            h.update(json.dumps(state.determinize(seat, 3).to_dict(), sort_keys=True).encode())
            move = agents[step % 2].choose(state)
            h.update(str(move).encode())
            state = state.apply(move)
        h.update(json.dumps(state.to_dict(), sort_keys=True).encode())
    return h.hexdigest()
"""

SIMULATE = """
import json
import forestgames as fg


def digest():
    out = []
    for name, options in (
        ("living_forest", {"num_players": 3, "guardian_phase": "simultaneous", "turn_limit": 4}),
        ("boom_bokken", {"num_players": 4}),
        ("bonsai", {"num_players": 1}),
    ):
        game = fg.make(name, **options)
        result = fg.simulate(game, ["greedy", "random"][: game.num_players], 2, seed=9,
                             progress=False, rotate=True)
        out.append([repr(result.rows), json.dumps(result.summary(), sort_keys=True)])
    return json.dumps(out)
"""


def _here(script: str) -> str:
    namespace: dict[str, object] = {}
    exec(script, namespace)
    return str(namespace["digest"]())  # type: ignore[operator]


def _elsewhere(script: str, hash_seed: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    out = subprocess.run(
        [sys.executable, "-c", script + "\nprint(digest())"],
        env=env,
        capture_output=True,
        encoding="utf-8",
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def _other_hash_seed() -> str:
    """A PYTHONHASHSEED unlike this process's (so that string hashes differ)."""
    return "1" if os.environ.get("PYTHONHASHSEED") == "0" else "0"


@pytest.mark.parametrize("script", [GAMES, SIMULATE], ids=["games", "simulate"])
def test_a_fresh_process_with_another_hash_seed_gives_the_same_results(script):
    """Seeded states, legal move order, views, tensors, masks, determinizations, greedy and
    MCTS choices, and simulate rows and summary are the same under another PYTHONHASHSEED."""
    assert _elsewhere(script, _other_hash_seed()) == _here(script)


def _signature(state: Any) -> list[Any]:
    """What a caller reads of a position: its dict, legal move orders, views, tensors, masks
    and the greedy agent's choice."""
    out: list[Any] = [json.dumps(state.to_dict(), sort_keys=True), state.render()]
    for seat in range(state.game.num_players):
        out.append([str(move) for move in state.legal_moves(seat)])
        out.append(json.dumps(state.observation(seat), sort_keys=True))
        out.append(state.observation_tensor(seat).tobytes())
        out.append(state.legal_action_mask(seat).tobytes())
    out.append(str(GreedyAgent(seed=1).choose(state)))
    return out


def _transpositions(game: Any, seed: int, wanted: int) -> list[tuple[Any, Any]]:
    """Pairs of equal positions reached from one position of a seeded random game by the
    same moves in two orders (two moves ``num_players`` plies apart swapped)."""
    rng = random.Random(seed)
    state, found, span = game.new_game(seed=seed), [], 2 * game.num_players
    while not state.is_terminal and len(found) < wanted:
        line, after = [], state
        while len(line) < span and not after.is_terminal:
            line.append(str(rng.choice(after.legal_moves())))
            after = after.apply(game.parse_move(line[-1]))
        first = rng.randrange(game.num_players)
        other = list(line)
        if len(line) == span and line[first] != line[first + game.num_players]:
            other[first], other[first + game.num_players] = (
                line[first + game.num_players],
                line[first],
            )
            try:
                again = _apply(state, other)
            except fg.ForestGamesError:
                again = None
            if again is not None and again == after:
                found.append((after, again))
        state = state.apply(rng.choice(state.legal_moves()))
    return found


def _apply(state: Any, moves: list[str]) -> Any:
    for move in moves:
        state = state.apply(state.game.parse_move(move))
    return state


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("bosk", {"num_players": 3}),
        ("bonsai", {"num_players": 2}),
        ("living_forest", {"num_players": 3, "guardian_phase": "simultaneous"}),
    ],
)
def test_equal_positions_reached_in_another_order_read_the_same(name, options):
    """A position reached by the same moves in another order equals it and has the same
    legal move order, views, tensors, masks and greedy choice (no history leaks)."""
    game = fg.make(name, **options)
    pairs = _transpositions(game, seed=3, wanted=4)
    assert pairs, "no transposition found: the test would check nothing"
    for reached, again in pairs:
        assert _signature(reached) == _signature(again)
