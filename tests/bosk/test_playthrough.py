"""Golden Bosk transcripts and perft counts (made by ``tests/golden.py``).

Any change to the rules shows as a readable diff of the files in ``data/``. After a
deliberate rules change, rewrite them with ``python -m tests.golden --update bosk``
and review the diff.
"""

import json
from pathlib import Path

import pytest

import forestgames as fg
from tests import golden
from tests.bosk.helpers import autumn_turn, count_paths, start_path

CASES = golden.TRANSCRIPTS["bosk"]


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_golden_transcript(case):
    """The seeded random game replays exactly as recorded (moves, positions, scores)."""
    golden.assert_transcript("bosk", case)


def test_perft_counts():
    """Legal-move counts and two-ply move trees at fixed steps are as recorded."""
    golden.assert_perft("bosk")


# ---------------------------------------------------------------------- from perft


DATA = json.loads((Path(__file__).parent / "data" / "perft.json").read_text(encoding="utf-8"))
STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}


def _case_position(case):
    tree = tuple(case["tree"])
    leaves = {tuple(map(int, k.split(","))): tuple(v) for k, v in case["leaves"].items()}
    squirrels = {int(k): tuple(v) for k, v in case["squirrels"].items()}
    return tree, leaves, squirrels


def oracle_paths(size, wind, tree, tile, leaves, squirrels, me=0):
    """Count complete leaf paths straight from the rules text, independently of the engine.

    Base squares: the two corners of the tree's intersection on the downwind side;
    next squares: one step downwind, straight or diagonal; a squirrel blocks; a
    stack topped by another seat costs its height and needs height + 1 leaves.
    A path is complete when leaves run out or no next square can be taken.
    """
    dr, dc = STEP[wind]
    i, j = tree
    corners = [(i, j), (i, j + 1), (i + 1, j), (i + 1, j + 1)]
    # downwind side: the two corners furthest in the wind direction
    reach = max(r * dr + c * dc for r, c in corners)
    base = [(r, c) for r, c in corners if r * dr + c * dc == reach]
    blocked = set(squirrels.values())

    def options(squares, active):
        found = []
        for r, c in squares:
            if not (0 <= r < size and 0 <= c < size) or (r, c) in blocked:
                continue
            stack = leaves.get((r, c), ())
            cost = 0 if not stack or stack[-1] == me else len(stack)
            if active >= cost + 1:
                found.append(((r, c), cost))
        return found

    def walk(square, active):
        r, c = square
        ahead = [(r + dr + k * dc, c + dc + k * dr) for k in (-1, 0, 1)]
        nexts = options(ahead, active) if active else []
        return 1 if not nexts else sum(walk(sq, active - cost - 1) for sq, cost in nexts)

    starts = options(base, tile)
    return 1 if not starts else sum(walk(sq, tile - cost - 1) for sq, cost in starts)


@pytest.mark.parametrize(
    "case", DATA["leaf_paths"], ids=lambda c: f"{c['players']}p-{c['wind']}-{c['tile']}"
)
def test_leaf_path_counts(case):
    """The engine allows exactly the golden number of distinct complete leaf paths."""
    tree, leaves, squirrels = _case_position(case)
    state = autumn_turn(
        case["players"], wind=case["wind"], trees={tree: (0, 1)}, leaves=leaves, squirrels=squirrels
    )
    assert count_paths(start_path(state, tree, case["tile"])) == case["paths"]


@pytest.mark.parametrize(
    "case", DATA["leaf_paths"], ids=lambda c: f"{c['players']}p-{c['wind']}-{c['tile']}"
)
def test_leaf_path_counts_match_an_independent_oracle(case):
    """The golden counts agree with a path counter written from the rules text alone."""
    tree, leaves, squirrels = _case_position(case)
    size = {2: 8, 3: 10, 4: 12}[case["players"]]
    assert oracle_paths(size, case["wind"], tree, case["tile"], leaves, squirrels) == case["paths"]


def test_leaf_paths_by_hand():
    """Empty 8×8, tree (3, 3), wind N: 2 base squares, then 3 choices a step, rows 3..0.

    Tile 2: 2·3 = 6 paths; tile 4: 2·3³ = 54; tile 6 also 54, as row 0 is the
    fourth and last row north of the tree (2 leaves go back).
    """
    counts = {c["tile"]: c["paths"] for c in DATA["leaf_paths"][:3]}
    assert counts == {2: 6, 4: 54, 6: 54}


@pytest.mark.parametrize("index", range(len(DATA["positions"])))
def test_legal_move_counts(index):
    """Each fixed position has exactly its golden legal moves, in the golden order."""
    row = DATA["positions"][index]
    game = fg.make("bosk", num_players=row["players"])
    state = game.state_from_dict(row["state"])
    moves = state.legal_moves()
    assert len(moves) == row["count"]
    if row["moves"] is not None:
        assert [str(m) for m in moves] == row["moves"]
