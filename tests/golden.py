"""Golden transcripts and perft-style counts of every game, made by one generator.

A transcript is a seeded random game written out move by move (OpenSpiel's
playthroughs): the first position, each move with the step it was made in and
the scores when they change, the last position. Perft counts are, at fixed
steps of seeded random games, the number of legal moves of each seat that may
act and the number of move sequences two plies deep (one ply where that would
be too many). Any change to the rules shows as a readable diff of these files.

After a deliberate rules change, rewrite them and review the diff::

    python -m tests.golden --update            # every game
    python -m tests.golden --update bosk       # one game
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import forestgames as fg
from forestgames.testing import random_step

ROOT = Path(__file__).parent

TRANSCRIPTS: dict[str, list[tuple[str, dict[str, Any], int]]] = {
    "bosk": [
        ("playthrough_2p.txt", {"num_players": 2}, 21),
        (
            "playthrough_3p_options.txt",
            {"num_players": 3, "squirrel_exactly_three": True, "ties_include_start": False},
            22,
        ),
    ],
    "bonsai": [
        ("playthrough_2p.txt", {"num_players": 2}, 11),
        (
            "playthrough_4p_options.txt",
            {"num_players": 4, "goal_setup": "published", "end_rule": "extra_turn"},
            12,
        ),
        ("playthrough_solo.txt", {"num_players": 1, "solo_difficulty": 2}, 13),
    ],
    "living_forest": [
        ("playthrough_3p.txt", {"num_players": 3, "turn_limit": 4}, 7),
        (
            "playthrough_2p_options.txt",
            {"num_players": 2, "turn_limit": 3, "duplicate_trees": False},
            8,
        ),
    ],
    "boom_bokken": [
        ("playthrough_4p.txt", {"num_players": 4}, 31),
        ("playthrough_6p_expert.txt", {"num_players": 6, "expert": True}, 32),
    ],
}

PERFT_CASES: dict[str, list[dict[str, Any]]] = {
    "bosk": [{"num_players": 2}, {"num_players": 4}],
    "bonsai": [{"num_players": 1}, {"num_players": 3}],
    "living_forest": [{"num_players": 2}, {"num_players": 4}],
    "boom_bokken": [{"num_players": 4}, {"num_players": 7, "expert": True}],
}
PERFT_SEEDS = (0, 1)
PERFT_STEPS = (0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233)
DEEP_LIMIT = 80
"""Positions with more legal moves than this (all acting seats) are counted one ply deep."""


def data_dir(name: str) -> Path:
    return ROOT / name / "data"


# --------------------------------------------------------------------------- transcripts


def transcript(name: str, options: dict[str, Any], seed: int) -> str:
    """The seeded random game of ``name`` with ``options`` as text (see the module doc)."""
    game = fg.make(name, **options)
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    lines = [f"{name} {options} seed {seed}", state.render(), ""]
    step = 0
    while not state.is_terminal:
        move = random_step(state, rng)
        lines.append(f"{step:>4} {game._step_name(state):<10} {move}")
        scores = state.scores
        state = state.apply(move)
        if state.scores != scores:
            lines.append(f"     scores {list(state.scores)}")
        step += 1
    lines += ["", state.render(), f"scores {list(state.scores)} winners {list(state.winners)}"]
    return "\n".join(lines) + "\n"


def assert_transcript(name: str, case: tuple[str, dict[str, Any], int]) -> None:
    """The recorded transcript of ``case`` is what the engine plays today."""
    file, options, seed = case
    expected = (data_dir(name) / file).read_text(encoding="utf-8")
    assert transcript(name, options, seed) == expected, (
        f"{name}/{file} differs: if the rules changed on purpose, run "
        f"`python -m tests.golden --update {name}` and review the diff"
    )


# --------------------------------------------------------------------------- perft


def perft(state: Any, depth: int) -> int:
    """Move sequences ``depth`` plies deep, a ply being any move of a seat that may act."""
    if depth == 0 or state.is_terminal:
        return 1
    total = 0
    for seat in state.players_to_act:
        for move in state.legal_moves(seat):
            total += perft(state.apply(move), depth - 1) if depth > 1 else 1
    return total


def perft_rows(name: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """The counts of every fixed step of the seeded random games of ``name``/``options``."""
    game = fg.make(name, **options)
    rows = []
    for seed in PERFT_SEEDS:
        rng = random.Random(seed)
        state = game.new_game(seed=seed)
        for step in range(max(PERFT_STEPS) + 1):
            if state.is_terminal:
                break
            if step in PERFT_STEPS:
                rows.append(_perft_row(state, seed, step))
            state = state.apply(random_step(state, rng))
    return rows


def _perft_row(state: Any, seed: int, step: int) -> dict[str, Any]:
    moves = {str(seat): len(state.legal_moves(seat)) for seat in state.players_to_act}
    depth = 2 if sum(moves.values()) <= DEEP_LIMIT else 1
    return {
        "seed": seed,
        "step": step,
        "moves": moves,
        "depth": depth,
        "nodes": perft(state, depth),
    }


def perft_data(name: str) -> list[dict[str, Any]]:
    return [
        {"options": options, "rows": perft_rows(name, options)} for options in PERFT_CASES[name]
    ]


def assert_perft(name: str) -> None:
    """The recorded perft counts of ``name`` are the engine's today."""
    expected = json.loads((data_dir(name) / "perft_counts.json").read_text(encoding="utf-8"))
    assert perft_data(name) == expected, (
        f"{name} perft counts differ: if the rules changed on purpose, run "
        f"`python -m tests.golden --update {name}` and review the diff"
    )


# --------------------------------------------------------------------------- rewriting


def update(names: list[str]) -> None:
    """Rewrite the transcripts and perft counts of ``names`` (all games if empty)."""
    for name in names or list(TRANSCRIPTS):
        folder = data_dir(name)
        folder.mkdir(exist_ok=True)
        for file, options, seed in TRANSCRIPTS[name]:
            (folder / file).write_text(transcript(name, options, seed), encoding="utf-8")
        text = json.dumps(perft_data(name), indent=1) + "\n"
        (folder / "perft_counts.json").write_text(text, encoding="utf-8")
        if name == "bosk":  # Bosk's leaf-path counts, checked against an independent oracle
            from tests.bosk import leaf_paths

            leaf_paths.main()
        print(f"{name}: rewrote {len(TRANSCRIPTS[name])} transcripts and perft_counts.json")


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args or args[0] != "--update":
        sys.exit("usage: python -m tests.golden --update [GAME ...]")
    unknown = [name for name in args[1:] if name not in TRANSCRIPTS]
    if unknown:
        sys.exit(f"unknown game(s) {', '.join(unknown)}; games: {', '.join(TRANSCRIPTS)}")
    update(args[1:])
