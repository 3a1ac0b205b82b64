"""The conformance harness on broken games of one's own, and the simulation driver's and
the tournament's promises, as a bug hunt found them broken (each test names what it pins)."""

from __future__ import annotations

import pytest

from forestgames.testing import check_game
from tests.test_fake_game import BuzzGame


class _AssertingStep(BuzzGame):
    """Buzz whose transition checks itself with an ``assert`` (a user's own check), which
    fails once the counter passes 4."""

    def _step(self, state, move):
        if state.counter > 4:
            raise AssertionError("the counter ran past 4")  # an assert, kept under -O
        return super()._step(state, move)


def test_an_assert_failing_in_a_hook_is_named_by_its_game_seed_and_step():
    """An AssertionError raised by a game's own hook (an ``assert`` in ``_step``) comes out
    of check_game naming the game, the seed and the step, as any other hook's error does (it
    was passed on as it was, naming none of them)."""
    with pytest.raises(
        AssertionError, match=r"^buzz .* seed \d+ step \d+: AssertionError: the counter ran pa"
    ):
        check_game(_AssertingStep.create(target=12), games=1)
