"""Seeded results do not depend on the process: a fresh interpreter with another
PYTHONHASHSEED (string hashing, so set and dict order of names) plays the same games,
with the same legal move order, views, tensors, agents' choices and simulation rows."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

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
