"""Golden Boom Bokken transcripts and perft counts (made by ``tests/golden.py``).

Any change to the rules shows as a readable diff of the files in ``data/``. After a
deliberate rules change, rewrite them with ``python -m tests.golden --update boom_bokken``
and review the diff.
"""

import pytest

from tests import golden

CASES = golden.TRANSCRIPTS["boom_bokken"]


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_golden_transcript(case):
    """The seeded random game replays exactly as recorded (moves, positions, scores)."""
    golden.assert_transcript("boom_bokken", case)


def test_perft_counts():
    """Legal-move counts and two-ply move trees at fixed steps are as recorded."""
    golden.assert_perft("boom_bokken")
