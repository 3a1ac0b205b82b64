"""Boom Bokken scoring: coins of one round, final totals, winners. Pure functions."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from forestgames.boom_bokken._tables import COIN_POINTS, TOKEN_POINTS
from forestgames.core import StateError

__all__ = ["decide_winners", "final_scores", "round_coins"]


def round_coins(safe_order: Sequence[int], team_of: Sequence[Hashable]) -> tuple[int, ...]:
    """Coin points per seat for one round.

    ``safe_order`` lists seats in the order they became safe (exploded seats
    absent); ``team_of[seat]`` is a team id (any hashable: 0, 1, "yellow"...).
    Teams rank by their first safe member: the safe members of the 1st, 2nd,
    3rd and 4th team take gold (4), silver (3), bronze (2) and clay (1);
    exploded seats take nothing. StateError if a seat is unknown or repeated.
    """
    seats = len(team_of)
    coins = [0] * seats
    rank: dict[Hashable, int] = {}
    seen: set[int] = set()
    for seat in safe_order:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise StateError(f"safe_order: {seat!r} is not a seat of a {seats}-player table")
        if seat in seen:
            raise StateError(f"safe_order: seat {seat} is safe twice")
        seen.add(seat)
        team = team_of[seat]
        place = rank.setdefault(team, len(rank))
        coins[seat] = COIN_POINTS[place] if place < len(COIN_POINTS) else 0
    return tuple(coins)


def final_scores(coins: Sequence[int], tokens: Sequence[int]) -> tuple[int, ...]:
    """Points per seat: coin points plus 2 per Bokken token."""
    return tuple(c + TOKEN_POINTS * t for c, t in zip(coins, tokens, strict=True))


def decide_winners(scores: Sequence[int], tokens: Sequence[int]) -> tuple[int, ...]:
    """The winning seats: highest total; ties to the most Bokken tokens; still tied, shared."""
    best = max(zip(scores, tokens, strict=True))
    return tuple(seat for seat, key in enumerate(zip(scores, tokens, strict=True)) if key == best)
