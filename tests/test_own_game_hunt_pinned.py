"""A game of one's own, written on the engine base and registered, through the library's
public entry points, as a bug hunt found them broken (each test names what it pins)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from forestgames.core import GameBase


@attrs.frozen(slots=False)
class _Hookless(GameBase[Any, Any], name="hookless", players=(2, 2)):
    """A game class that implements none of the base's rules hooks."""

    num_players: int = 2


@pytest.mark.parametrize(
    ("call", "hook"),
    [
        (lambda g: g.new_game(seed=0), "_new_game(seed, first_player)"),
        (lambda g: g._legal_moves(None, 0), "_legal_moves(state, player)"),
        (lambda g: g._step(None, None), "_step(state, move)"),
        (lambda g: g.state_from_dict({"game": "hookless"}), "_state_fields()"),
        (lambda g: g._state_from_fields({}), "_state_from_fields(fields)"),
    ],
    ids=["new_game", "legal_moves", "step", "state_fields", "state_from_fields"],
)
def test_each_missing_rules_hook_is_named(call, hook):
    """A game class without one of the rules hooks CONTRIBUTING lists fails where it is
    needed naming the class and the hook, as a missing ``_max_moves`` does (these five
    raised a NotImplementedError with no message)."""
    with pytest.raises(NotImplementedError) as caught:
        call(_Hookless())
    assert str(caught.value) == f"_Hookless must implement {hook} (see CONTRIBUTING.md, the hooks)"
