"""Boom Bokken scoring: coins of one round, final totals, winners. Pure functions."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from forestgames.boom_bokken._tables import COIN_POINTS, TOKEN_POINTS
from forestgames.core import StateError, as_bool, excerpt, is_int, is_list_like, unarray

__all__ = ["decide_winners", "final_scores", "round_coins"]


def round_coins(
    safe_order: Sequence[int], team_of: Sequence[Hashable], *, last_team_clay: bool = False
) -> tuple[int, ...]:
    """Coin points per seat for one round.

    ``safe_order`` lists seats in the order they became safe (exploded seats
    absent); ``team_of[seat]`` is a team id (any hashable: 0, 1, "yellow"...).
    Teams rank by their first safe member: the safe members of the 1st, 2nd,
    3rd and 4th team take gold (4), silver (3), bronze (2) and clay (1);
    exploded seats take nothing. With ``last_team_clay`` the last of two or more
    ranked teams takes clay whatever its rank (2 teams: gold, clay; 3: gold,
    silver, clay). StateError if a seat is unknown or repeated.
    """
    team_of = unarray(team_of)
    if not isinstance(team_of, Sequence):
        raise StateError(f"team_of must be a list of team ids, not {excerpt(team_of)}")
    if not is_list_like(safe_order):
        raise StateError(f"safe_order must be a list of seats, not {excerpt(safe_order)}")
    places = _team_places(safe_order, team_of)
    points = [
        COIN_POINTS[k] if k < len(COIN_POINTS) else 0 for k in range(len(set(places.values())))
    ]
    if as_bool(last_team_clay, "last_team_clay") and len(points) > 1:
        points[-1] = COIN_POINTS[-1]
    coins = [0] * len(team_of)
    for seat, place in places.items():
        coins[seat] = points[place]
    return tuple(coins)


def _team_places(safe_order: Iterable[int], team_of: Sequence[Hashable]) -> dict[int, int]:
    """Each safe seat's team place (0 = the first team with a safe member), checked."""
    seats = len(team_of)
    rank: dict[Hashable, int] = {}
    places: dict[int, int] = {}
    for seat in safe_order:
        if not is_int(seat):
            raise StateError(f"safe_order: {excerpt(seat)} is not a seat number")
        if not 0 <= seat < seats:
            raise StateError(f"safe_order: {excerpt(seat)} is not a seat of a {seats}-player table")
        seat = int(seat)
        if seat in places:
            raise StateError(f"safe_order: seat {seat} is safe twice")
        places[seat] = rank.setdefault(_team_id(team_of, seat), len(rank))
    return places


def _team_id(team_of: Sequence[Hashable], seat: int) -> Hashable:
    """``team_of[seat]``; StateError unless it hashes (a tuple holding a list does not)."""
    team = team_of[seat]
    try:
        hash(team)
    except TypeError:
        raise StateError(f"team_of[{seat}] = {excerpt(team)} is not a team id (hashable)") from None
    return team


def final_scores(coins: Sequence[int], tokens: Sequence[int]) -> tuple[int, ...]:
    """Points per seat: coin points plus 2 per Bokken token; StateError unless both are
    lists of ints, one per seat."""
    return totals(*_per_seat(coins, "coins", tokens))


def decide_winners(scores: Sequence[int], tokens: Sequence[int]) -> tuple[int, ...]:
    """The winning seats: highest total; ties to the most Bokken tokens; still tied, shared.
    StateError unless both are lists of ints, one per seat."""
    return winners_of(*_per_seat(scores, "scores", tokens))


def totals(coins: Sequence[int], tokens: Sequence[int]) -> tuple[int, ...]:
    """:func:`final_scores` without the checks (the engine's own, well-formed, counts)."""
    return tuple(c + TOKEN_POINTS * t for c, t in zip(coins, tokens, strict=True))


def winners_of(scores: Sequence[int], tokens: Sequence[int]) -> tuple[int, ...]:
    """:func:`decide_winners` without the checks."""
    best = max(zip(scores, tokens, strict=True))
    return tuple(seat for seat, key in enumerate(zip(scores, tokens, strict=True)) if key == best)


def _per_seat(values: Any, what: str, tokens: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``values`` and ``tokens`` as ints, one per seat of a table (StateError otherwise)."""
    first, second = _ints(values, what), _ints(tokens, "tokens")
    if len(first) != len(second) or not first:
        raise StateError(
            f"{what} and tokens need one int per seat, not {len(first)} and {len(second)}"
        )
    return first, second


def _ints(values: Any, what: str) -> tuple[int, ...]:
    if not is_list_like(values):
        raise StateError(f"{what} must be a list of ints, not {excerpt(values)}")
    items = tuple(values)
    if any(not is_int(v) for v in items):
        raise StateError(f"{what} must be a list of ints, not {excerpt(list(items))}")
    return tuple(int(v) for v in items)
