"""Text pictures of Bosk positions and terrain maps.

``render_state`` draws the trees on the intersections, then the squares::

    trees (seat:value)             squares (terrain, top seat, marks)
         0   1   2                      0   1   2   3
      0  .  0:3  .                   0 A.  A0  B1s B.
                                      (s = a squirrel on top; 2-9 = leaves in the stack)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from forestgames.bosk.state import BoskState

__all__ = ["render_state", "render_terrain"]

_LETTERS = "ABCDEFGH"


def render_terrain(terrain: np.ndarray) -> str:
    """A terrain map as letters A..H (ids 0..7), row 0 (north) first."""
    return "\n".join("".join(_LETTERS[int(t)] for t in row) for row in np.asarray(terrain))


def _header(width: int, count: int) -> str:
    return "    " + "".join(f"{c:>{width}}" for c in range(count))


def render_state(state: BoskState) -> str:
    """The whole position as text: status line, scores, trees, squares."""
    game = state.game
    size, n = game.size, game.size - 1
    status = f"Bosk {game.num_players}p · {state.phase.value}"
    if state.round:
        status += f" · round {state.round} · wind {state.wind}"
    if state.current_player is not None:
        status += f" · seat {state.current_player} to move"
    else:
        status += f" · over, winner seat {state.winners[0]}"
    lines = [status, f"scores {list(state.scores)} (summer {list(state.summer)})"]
    if state.active:
        lines.append(f"active leaves {state.active}, tree at {state.chosen_tree}")
    lines.append("trees (seat:value)")
    lines.append(_header(4, n))
    owner, value = state.tree_owner, state.tree_value
    for i in range(n):
        cells = [f"{owner[i, j]}:{value[i, j]}" if owner[i, j] >= 0 else "." for j in range(n)]
        lines.append(f"{i:>3} " + "".join(f"{c:>4}" for c in cells))
    lines.append("squares (terrain, top seat; s = squirrel on top, 2-9 = stack height)")
    lines.append(_header(4, size))
    top, height = state.top, state.leaf_height
    squirrels = {sq for sq in state.squirrels if sq >= 0}
    for r in range(size):
        cells = []
        for c in range(size):
            mark = (
                "s"
                if r * size + c in squirrels
                else (str(height[r, c]) if height[r, c] > 1 else "")
            )
            seat = "." if top[r, c] < 0 else str(top[r, c])
            cells.append(f"{_LETTERS[int(game.terrain[r, c])]}{seat}{mark}")
        lines.append(f"{r:>3} " + "".join(f"{c:>4}" for c in cells))
    return "\n".join(lines)
