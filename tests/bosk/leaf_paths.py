"""Bosk's own golden counts (data/perft.json): leaf paths and legal moves of fixed positions.

``python -m tests.golden --update bosk`` rewrites the file with the other golden
data. It is a golden record: a rules change that alters any count shows up as a
readable diff of this file. Check such a diff by hand before committing it.
"""

from __future__ import annotations

import json
from pathlib import Path

import forestgames as fg
from tests.bosk.helpers import autumn_turn, count_paths, start_path
from tests.strategies import random_game

HERE = Path(__file__).parent / "data"

# Leaf-path cases: (players, wind, tree, tile, leaves, squirrels)
PATH_CASES = [
    (2, "N", (3, 3), 2, {}, {}),
    (2, "N", (3, 3), 4, {}, {}),
    (2, "N", (3, 3), 6, {}, {}),
    (2, "S", (0, 0), 8, {}, {}),
    (2, "W", (6, 6), 7, {}, {}),
    (4, "E", (5, 5), 8, {}, {}),
    (4, "N", (10, 0), 8, {}, {}),
    (2, "N", (3, 3), 5, {(2, 3): (1, 1), (1, 2): (1,), (2, 4): (0,)}, {1: (1, 4)}),
    (3, "E", (4, 4), 8, {(4, 6): (1, 2, 1), (5, 6): (2,), (3, 7): (1, 1)}, {1: (5, 7), 2: (4, 8)}),
]


def path_cases() -> list[dict]:
    rows = []
    for players, wind, tree, tile, leaves, squirrels in PATH_CASES:
        state = autumn_turn(
            players, wind=wind, trees={tree: (0, 1)}, leaves=leaves, squirrels=squirrels
        )
        rows.append(
            {
                "players": players,
                "wind": wind,
                "tree": list(tree),
                "tile": tile,
                "leaves": {f"{r},{c}": list(s) for (r, c), s in leaves.items()},
                "squirrels": {str(k): list(v) for k, v in squirrels.items()},
                "paths": count_paths(start_path(state, tree, tile)),
            }
        )
    return rows


def positions() -> list[dict]:
    """The first state of each phase in a few random games, with its legal moves."""
    rows = []
    for players in (2, 3, 4):
        for seed in (0, 1):
            seen = set()
            for step, (state, _) in enumerate(
                random_game(fg.make("bosk", num_players=players), seed)
            ):
                key = state.phase.value
                if key in seen or (key == "spring" and step not in (0, 5)):
                    continue
                if key != "spring":
                    seen.add(key)
                moves = [str(m) for m in state.legal_moves()]
                rows.append(
                    {"players": players, "state": state.to_dict(), "count": len(moves),
                     "moves": moves if len(moves) <= 40 else None}
                )  # fmt: skip
    return rows


def main() -> None:
    data = {"leaf_paths": path_cases(), "positions": positions()}
    (HERE / "perft.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
