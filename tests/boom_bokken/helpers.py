"""Helpers that build hand-made Boom Bokken positions for the scripted tests."""

from __future__ import annotations

from typing import Any

import forestgames as fg
from forestgames.boom_bokken import Boom, Play, TimeOut


def game(players: int = 4, **options: Any) -> Any:
    """A Boom Bokken game with ``options``."""
    return fg.make("boom_bokken", num_players=players, **options)


def table(
    hands: list[list[str]],
    teams: list[int],
    leader: int = 0,
    deck_top: tuple[str, ...] = (),
    roles: list[str] | None = None,
    **options: Any,
) -> Any:
    """Round 1 with these hands, teams, roles and first cards of the draw pile."""
    g = game(len(hands), expert=roles is not None, **options)
    return g.deal(hands, teams, leader, list(deck_top), roles)


def play(state: Any, *moves: Any) -> Any:
    """Apply ``moves`` (objects or notation) in order."""
    for move in moves:
        state = state.apply(state.game.parse_move(move) if isinstance(move, str) else move)
    return state


def groups(state: Any, seat: int) -> set[tuple[str, ...]]:
    """The card groups ``seat`` may play now."""
    return {m.cards for m in state.legal_moves(seat) if isinstance(m, Play)}


def kinds(state: Any, seat: int) -> set[type]:
    """The kinds of move ``seat`` has now."""
    return {type(m) for m in state.legal_moves(seat)}


__all__ = ["Boom", "Play", "TimeOut", "game", "groups", "kinds", "play", "table"]
