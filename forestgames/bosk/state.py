"""The Bosk state: an immutable position (data and read-only views; the rules are the game's).

The position is kept in flat tuples (fast to copy and hash); the documented
read-only properties show it as numpy grids the scoring kernels take directly:

* ``tree_owner`` / ``tree_value``: (N, N) intersections, -1 / 0 where no tree;
* ``top``: (S, S) seat whose leaf or squirrel tops each square, -1 if empty;
* ``leaf_height``: (S, S) number of leaves in each square's stack.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from forestgames.bosk._tables import DIRECTIONS, LEAF_SUPPLY, LEAF_TILES
from forestgames.bosk.moves import BoskMove
from forestgames.core import IllegalMoveError, StateBase, as_pair, excerpt

if TYPE_CHECKING:
    from forestgames.bosk.rules import BoskGame

__all__ = ["BoskState", "Phase"]


class Phase(StrEnum):
    """What the current player is deciding."""

    SPRING = "spring"  # plant a tree
    WIND = "wind"  # the autumn start player picks round 1's wind
    TREE = "tree"  # choose the tree whose leaves fall
    TILE = "tile"  # choose a leaf tile
    LEAVES = "leaves"  # lay the next leaf of the path
    SQUIRREL = "squirrel"  # place the squirrel
    OVER = "over"


_OVER = Phase.OVER


def mover(phase: Phase, order: tuple[int, ...], turn: int) -> int | None:
    """The seat to move in ``phase`` at ``turn`` of round ``order`` (None once over)."""
    return None if phase is _OVER else order[turn % len(order)]


def _readonly(values: Any, shape: tuple[int, int]) -> np.ndarray:
    grid = np.array(values, dtype=np.int8).reshape(shape)
    grid.flags.writeable = False
    return grid


@attrs.frozen(slots=False, repr=False)
class BoskState(StateBase[BoskMove]):
    """A Bosk position. Build with ``game.new_game()``; change with ``apply()``.

    Fields are the stored position (flat, row-major); prefer the properties.
    ``order`` is this round's turn order (spring: from the start player) and
    ``turn`` counts the turns taken in it (spring: the trees planted so far).
    ``stacks`` holds each square's leaves, bottom to top, as seats;
    ``squirrels`` each seat's squirrel square or -1. ``round_tiles`` is the
    tile each seat played this round (0 if not yet), ``tiles_used`` a bit mask
    of spent tiles per seat. ``tree``, ``active`` and ``last`` describe the
    turn under way: the chosen intersection, the active leaves left and the
    last square a leaf went on (-1, 0, -1 when none).
    """

    game: BoskGame
    phase: Phase
    round: int
    order: tuple[int, ...]
    turn: int
    owners: tuple[int, ...]
    values: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...]
    squirrels: tuple[int, ...]
    tiles_used: tuple[int, ...]
    round_tiles: tuple[int, ...]
    first_wind: int
    tree: int
    active: int
    last: int
    summer: tuple[int, ...]
    winter: tuple[int, ...]

    # Derived from the fields above (kept by the transitions; not compared or saved).
    current_player: int | None = attrs.field(init=False, eq=False, repr=False)
    """The seat to move, or None once the game is over."""
    is_terminal: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        object.__setattr__(self, "current_player", mover(self.phase, self.order, self.turn))
        object.__setattr__(self, "is_terminal", self.phase is _OVER)

    def __repr__(self) -> str:
        return (
            f"<BoskState {self.game.num_players}p {self.phase.value} round {self.round} "
            f"to move: {self.current_player} scores {self.scores}>"
        )

    # ------------------------------------------------------------------ the position

    @property
    def size(self) -> int:
        """S, the side of the play area in squares."""
        return self.game.size

    @property
    def tree_owner(self) -> np.ndarray:
        """(N, N) int8: the seat of each intersection's tree, -1 where none."""
        n = self.game.size - 1
        return _readonly(self.owners, (n, n))

    @property
    def tree_value(self) -> np.ndarray:
        """(N, N) int8: each intersection's tree value, 0 where none."""
        n = self.game.size - 1
        return _readonly(self.values, (n, n))

    @property
    def top(self) -> np.ndarray:
        """(S, S) int8: the seat whose leaf or squirrel tops each square, -1 where empty."""
        top = [stack[-1] if stack else -1 for stack in self.stacks]
        for seat, square in enumerate(self.squirrels):
            if square >= 0:
                top[square] = seat
        return _readonly(top, (self.size, self.size))

    @property
    def leaf_height(self) -> np.ndarray:
        """(S, S) int8: how many leaves lie on each square."""
        return _readonly([len(stack) for stack in self.stacks], (self.size, self.size))

    def stack(self, at: tuple[int, int]) -> tuple[int, ...]:
        """The seats of the leaves on square ``at``, bottom to top (squirrel not included)."""
        size = self.size
        pair = as_pair(at)
        if not (isinstance(pair, tuple) and len(pair) == 2 and all(type(x) is int for x in pair)):
            raise IllegalMoveError(f"a square is a (row, col) pair, not {excerpt(at)}")
        row, col = pair
        if not (0 <= row < size and 0 <= col < size):
            raise IllegalMoveError(f"square {excerpt(pair)} is off the {size}x{size} board")
        return self.stacks[row * size + col]

    @property
    def squirrel_squares(self) -> tuple[tuple[int, int] | None, ...]:
        """Per seat, the square its squirrel sits on, or None."""
        return tuple(None if s < 0 else divmod(s, self.size) for s in self.squirrels)

    @property
    def wind(self) -> str | None:
        """The direction the leaves travel this round (None before it is chosen)."""
        if self.first_wind < 0 or self.round < 1:
            return None
        return DIRECTIONS[(self.first_wind + self.round - 1) % 4]

    @property
    def chosen_tree(self) -> tuple[int, int] | None:
        """The intersection of the tree whose leaves are falling this turn."""
        return None if self.tree < 0 else divmod(self.tree, self.size - 1)

    @property
    def last_leaf(self) -> tuple[int, int] | None:
        """The square of the last leaf laid this turn, if any."""
        return None if self.last < 0 else divmod(self.last, self.size)

    @property
    def active_leaves(self) -> int:
        """Leaves still in hand for the path under way."""
        return self.active

    def tiles_left(self, player: int) -> tuple[int, ...]:
        """The leaf tiles ``player`` has not spent (1 is the squirrel)."""
        used = self.tiles_used[self._seat(player)]
        return tuple(t for t in LEAF_TILES if not used >> t & 1)

    def trees_left(self, player: int) -> tuple[int, ...]:
        """Values of ``player``'s trees on the board, sorted."""
        player = self._seat(player)
        return tuple(
            sorted(v for o, v in zip(self.owners, self.values, strict=True) if o == player)
        )

    def leaves_on_board(self, player: int) -> int:
        """How many of ``player``'s leaf tokens lie on the board (covered ones included)."""
        player = self._seat(player)
        return sum(stack.count(player) for stack in self.stacks)

    def leaves_in_supply(self, player: int) -> int:
        """``player``'s leaf tokens not on the board (active leaves included)."""
        return LEAF_SUPPLY - self.leaves_on_board(player)
