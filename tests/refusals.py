"""The shared check of an illegal move: refused with the library's error, nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

import forestgames as fg


def refused(state: Any, move: Any, match: str) -> None:
    """Applying ``move`` raises IllegalMoveError matching ``match``; the state is unchanged."""
    before = state.to_dict()
    with pytest.raises(fg.IllegalMoveError, match=match):
        state.apply(move)
    assert state.to_dict() == before
