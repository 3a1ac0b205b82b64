"""Small builders of Bosk positions, and the exact law of a uniformly random turn, for the tests."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from typing import Any

import attrs
import pytest

import forestgames as fg
from forestgames.bosk import BoskState, Phase
from forestgames.bosk._tables import DIRECTIONS
from forestgames.bosk.scoring import compiled_kernels

HAVE_NUMBA = compiled_kernels()  # the compiled path is on from the start when numba imports
needs_numba = pytest.mark.skipif(not HAVE_NUMBA, reason="numba (the fast extra) is not installed")


@contextlib.contextmanager
def kernel_path(compiled: bool) -> Iterator[None]:
    """Score through the compiled kernels or the numpy ones for the duration."""
    before = compiled_kernels()
    compiled_kernels(compiled)
    try:
        yield
    finally:
        compiled_kernels(before)


def autumn_turn(
    players: int = 2,
    *,
    mover: int = 0,
    wind: str = "N",
    round: int = 1,
    trees: dict[tuple[int, int], tuple[int, int]] | None = None,
    leaves: dict[tuple[int, int], tuple[int, ...]] | None = None,
    squirrels: dict[int, tuple[int, int]] | None = None,
    **options: Any,
) -> BoskState:
    """A TREE-phase position: ``mover`` to choose a tree in ``round`` with ``wind`` blowing.

    ``trees`` maps intersections to (seat, value); ``leaves`` squares to stacks
    (bottom to top); ``squirrels`` seats to squares.
    """
    game = fg.make("bosk", num_players=players, **options)
    state = game.new_game(seed=0, first_player=mover)
    size, n = game.size, game.size - 1
    owners, values = [-1] * (n * n), [0] * (n * n)
    for (i, j), (seat, value) in (trees or {}).items():
        owners[i * n + j], values[i * n + j] = seat, value
    stacks = [()] * (size * size)
    for (r, c), stack in (leaves or {}).items():
        stacks[r * size + c] = tuple(stack)
    squirrel_at = [-1] * players
    for seat, (r, c) in (squirrels or {}).items():
        squirrel_at[seat] = r * size + c
    first_wind = (DIRECTIONS.index(wind) - (round - 1)) % 4
    return attrs.evolve(
        state,
        phase=Phase.TREE,
        round=round,
        first_wind=first_wind,
        owners=tuple(owners),
        values=tuple(values),
        stacks=tuple(stacks),
        squirrels=tuple(squirrel_at),
    )


def start_path(state: BoskState, tree: tuple[int, int], tile: int) -> BoskState:
    """Choose ``tree`` and ``tile`` for the player to move."""
    p = state.current_player
    state = state.apply(fg.bosk.ChooseTree(p, tree))
    return state.apply(fg.bosk.ChooseTile(p, tile))


def targets(state: BoskState) -> set[tuple[int, int]]:
    """The squares the current move may go on (leaf or squirrel)."""
    return {m.at for m in state.legal_moves()}


def count_paths(state: BoskState) -> int:
    """How many distinct complete leaf paths (sequences of squares) the turn allows."""
    if state.phase is not Phase.LEAVES or state.current_player != state.order[state.turn]:
        return 1
    mover, turn, rnd = state.current_player, state.turn, state.round
    total = 0
    for move in state.legal_moves():
        after = state.apply(move)
        same_turn = after.phase is Phase.LEAVES and after.turn == turn and after.round == rnd
        total += count_paths(after) if same_turn and after.current_player == mover else 1
    return total


def plant_everything(game: Any, seed: int = 0, first_player: int = 0) -> BoskState:
    """Spring played out by planting each next tree on the first free intersection."""
    state = game.new_game(seed=seed, first_player=first_player)
    while state.phase is Phase.SPRING:
        state = state.apply(state.legal_moves()[0])
    return state


Key = Callable[[BoskState], Hashable]


def uniform_outcomes(start: BoskState, key: Key) -> Counter:
    """The probability of each key of the states that end the planting or the autumn turn
    from ``start`` when every decision is a uniformly random legal move of the scalar engine."""
    outcomes: Counter = Counter()

    def walk(state: BoskState, p: float) -> None:
        ended = state.is_terminal or state.current_player != start.current_player
        if state is not start and (ended or state.phase is start.phase):
            outcomes[key(state)] += p
            return
        legal = state.legal_moves()
        for move in legal:
            walk(state.apply(move), p / len(legal))

    walk(start, 1.0)
    return outcomes
