"""The Bosk state: an immutable position, with its rules delegated to its game.

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

from forestgames.bosk._tables import (
    DIRECTIONS,
    LEAF_SUPPLY,
    LEAF_TILES,
    SQUIRREL,
    TREE_VALUES,
    TREES_PER_VALUE,
)
from forestgames.bosk.scoring import winter_scores
from forestgames.core import StateBase, StateError, expect_int, expect_keys, require

if TYPE_CHECKING:
    from forestgames.bosk.moves import BoskMove
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


def _readonly(values: Any, shape: tuple[int, int]) -> np.ndarray:
    grid = np.array(values, dtype=np.int8).reshape(shape)
    grid.flags.writeable = False
    return grid


@attrs.frozen(repr=False)
class BoskState(StateBase):
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
    # The current player's legal moves, computed once on first use (not state).
    _moves: tuple[BoskMove, ...] | None = attrs.field(
        default=None, init=False, eq=False, hash=False, repr=False
    )

    # ------------------------------------------------------------------ protocol

    @property
    def current_player(self) -> int | None:
        """The seat to move, or None once the game is over."""
        if self.phase is Phase.OVER:
            return None
        return self.order[self.turn % len(self.order)]

    @property
    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def scores(self) -> tuple[int, ...]:
        """Points so far per seat: summer (after spring) plus winter (at the end)."""
        return tuple(s + w for s, w in zip(self.summer, self.winter, strict=True))

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seat, once over: highest total, ties to the earlier in round 8's order."""
        if self.phase is not Phase.OVER:
            return ()
        scores = self.scores
        best = max(scores)
        return (next(p for p in self.order if scores[p] == best),)

    def _moves_of(self, player: int) -> tuple[BoskMove, ...]:
        if player != self.current_player:
            return ()
        moves = self._moves
        if moves is None:
            moves = self.game.legal_moves_of(self, player)
            object.__setattr__(self, "_moves", moves)
        return moves

    def _is_legal(self, move: Any) -> bool:
        return self.game.is_legal(self, move)

    def observation(self, player: int) -> dict[str, Any]:
        """Everything (Bosk has no hidden information), from ``player``'s seat."""
        self._checked_player(player)
        return {"observer": player, **self.to_dict()}

    def determinize(self, player: int, seed: int) -> BoskState:
        """The state itself: nothing is hidden in Bosk."""
        self._checked_player(player)
        return self

    def legal_action_mask(self, player: int | None = None) -> np.ndarray:  # codec wiring
        """(num_actions,) int8: 1 exactly at the ids of ``legal_moves(player)`` (read-only)."""
        return self.game.codec.mask(self, player)

    def observation_tensor(self, player: int) -> np.ndarray:  # codec wiring
        """float32 of ``game.observation_shape``: ``observation(player)`` as a tensor."""
        return self.game.codec.tensor(self, player)

    def render(self) -> str:
        """A text picture of the position (see ``forestgames.bosk.render``)."""
        from forestgames.bosk.render import render_state

        return render_state(self)

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
        return self.stacks[at[0] * self.size + at[1]]

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
        used = self.tiles_used[player]
        return tuple(t for t in LEAF_TILES if not used >> t & 1)

    def trees_left(self, player: int) -> tuple[int, ...]:
        """Values of ``player``'s trees on the board, sorted."""
        return tuple(
            sorted(v for o, v in zip(self.owners, self.values, strict=True) if o == player)
        )

    def leaves_on_board(self, player: int) -> int:
        """How many of ``player``'s leaf tokens lie on the board (covered ones included)."""
        return sum(stack.count(player) for stack in self.stacks)

    def leaves_in_supply(self, player: int) -> int:
        """``player``'s leaf tokens not on the board (active leaves included)."""
        return LEAF_SUPPLY - self.leaves_on_board(player)


# ---------------------------------------------------------------------- loading saved states

_KEYS = (
    "game", "num_players", "phase", "round", "order", "turn", "trees", "stacks", "tiles_used",
    "round_tiles", "first_wind", "tree", "active", "last", "summer", "winter",
)  # fmt: skip
_AUTUMN_TURN = (Phase.TREE, Phase.TILE, Phase.LEAVES, Phase.SQUIRREL)


def load_state(game: BoskGame, data: Any) -> BoskState:
    """Rebuild a state from ``to_dict`` output; StateError says what is wrong with it."""
    data = expect_keys(data, _KEYS, "Bosk state")
    p, size = game.num_players, game.size
    n = size - 1
    require(data["game"] == "bosk", StateError, f"not a Bosk state: game is {data['game']!r}")
    require(
        data["num_players"] == p,
        StateError,
        f"state is for {data['num_players']!r} players, the game for {p}",
    )
    try:
        phase = Phase(data["phase"])
    except ValueError:
        raise StateError(f"unknown phase {data['phase']!r}") from None
    rnd = expect_int(data["round"], "round", 0, 8)
    order = _int_list(data["order"], "order", p, 0, p - 1)
    require(
        order == list(game.clockwise_from(order[0])),
        StateError,
        f"order {order} is not the seats clockwise from one of them",
    )
    turn = expect_int(data["turn"], "turn", 0, 8 * p - 1 if phase is Phase.SPRING else p - 1)
    owners, values = [-1] * (n * n), [0] * (n * n)
    if not isinstance(data["trees"], list):
        raise StateError("trees must be a list of [row, col, seat, value]")
    for tree in data["trees"]:
        r, c, o, v = _int_list(tree, "a tree [row, col, seat, value]", 4, 0, max(n - 1, 4))
        require(r < n and c < n, StateError, f"tree at ({r}, {c}) is off the {n}x{n} intersections")
        require(o < p and 1 <= v <= 4, StateError, f"tree {tree}: bad seat or value")
        require(owners[r * n + c] < 0, StateError, f"two trees at ({r}, {c})")
        owners[r * n + c], values[r * n + c] = o, v
    for seat in range(p):
        for v in (1, 2, 3, 4):
            count = sum(1 for o, x in zip(owners, values, strict=True) if o == seat and x == v)
            require(
                count <= TREES_PER_VALUE,
                StateError,
                f"seat {seat} has {count} trees of value {v}; each player has {TREES_PER_VALUE}",
            )
    stacks, squirrels = _load_stacks(data["stacks"], size, p)
    used_lists = data["tiles_used"]
    require(
        isinstance(used_lists, list) and len(used_lists) == p,
        StateError,
        "tiles_used: one list per seat",
    )
    tiles_used = []
    for seat, used in enumerate(used_lists):
        tiles = _int_list(used, f"tiles_used[{seat}]", None, 1, 8)
        require(len(set(tiles)) == len(tiles), StateError, f"tiles_used[{seat}] repeats a tile")
        tiles_used.append(sum(1 << t for t in tiles))
    round_tiles = _int_list(data["round_tiles"], "round_tiles", p, 0, 8)
    wind = data["first_wind"]
    require(
        wind is None or wind in DIRECTIONS,
        StateError,
        f"first_wind {wind!r} is not N, E, S, W or null",
    )
    first_wind = -1 if wind is None else DIRECTIONS.index(wind)
    tree = -1 if data["tree"] is None else _point(data["tree"], n, "tree")
    active = expect_int(data["active"], "active", 0, 8)
    last = -1 if data["last"] is None else _point(data["last"], size, "last")
    summer = tuple(_int_list(data["summer"], "summer", p, 0, None))
    winter = tuple(_int_list(data["winter"], "winter", p, 0, None))
    state = BoskState(
        game, phase, rnd, tuple(order), turn, tuple(owners), tuple(values), stacks, squirrels,
        tuple(tiles_used), tuple(round_tiles), first_wind, tree, active, last, summer, winter,
    )  # fmt: skip
    _check_consistent(state)
    return state


def _int_list(value: Any, what: str, length: int | None, low: int, high: int | None) -> list[int]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = "a list" if length is None else f"a list of {length}"
        raise StateError(f"{what} must be {size} ints, not {value!r}")
    return [expect_int(x, what, low, high) for x in value]


def _point(value: Any, n: int, what: str) -> int:
    r, c = _int_list(value, what, 2, 0, n - 1)
    return r * n + c


def _load_stacks(
    rows: Any, size: int, p: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    require(
        isinstance(rows, list)
        and len(rows) == size
        and all(isinstance(r, list) and len(r) == size for r in rows),
        StateError,
        f"stacks must be {size} rows of {size} strings",
    )
    stacks: list[tuple[int, ...]] = []
    squirrels = [-1] * p
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            require(isinstance(text, str), StateError, f"stack at ({r}, {c}) must be a string")
            leaves: list[int] = []
            i = 0
            while i < len(text):
                ch = text[i]
                if ch == "S":
                    seat = text[i + 1 : i + 2]
                    require(
                        seat.isdigit() and int(seat) < p,
                        StateError,
                        f"bad squirrel in {text!r} at ({r}, {c})",
                    )
                    require(squirrels[int(seat)] < 0, StateError, f"seat {seat} has two squirrels")
                    require(
                        i + 2 == len(text),
                        StateError,
                        f"stack {text!r} at ({r}, {c}): nothing may lie on a squirrel",
                    )
                    squirrels[int(seat)] = r * size + c
                    i += 2
                else:
                    require(
                        ch.isdigit() and int(ch) < p,
                        StateError,
                        f"bad piece {ch!r} in stack at ({r}, {c})",
                    )
                    leaves.append(int(ch))
                    i += 1
            stacks.append(tuple(leaves))
    return tuple(stacks), tuple(squirrels)


def _check_consistent(state: BoskState) -> None:
    """The rules' invariants between the fields of a loaded state."""
    if state.phase in (Phase.SPRING, Phase.WIND):
        _check_before_autumn(state)
    else:
        _check_autumn(state)
    _check_turn_under_way(state)
    if state.phase is Phase.OVER:
        winter = tuple(
            int(x) for x in winter_scores(state.top, state.game.terrain, len(state.order))
        )
        require(
            state.winter == winter,
            StateError,
            f"winter points {list(state.winter)} do not match the board ({list(winter)})",
        )
    else:
        require(not any(state.winter), StateError, "winter points before winter")


def _trees_of(state: BoskState, seat: int, value: int | None = None) -> int:
    return sum(
        1
        for o, v in zip(state.owners, state.values, strict=True)
        if o == seat and (value is None or v == value)
    )


def _check_before_autumn(state: BoskState) -> None:
    phase, p = state.phase.value, len(state.order)
    require(
        state.round == 0 and state.first_wind < 0 and not any(state.tiles_used + state.round_tiles),
        StateError,
        f"{phase}: no round, wind or tile may be set yet",
    )
    require(
        not any(state.stacks) and all(s < 0 for s in state.squirrels),
        StateError,
        f"{phase}: no leaf or squirrel may be on the board yet",
    )
    planted = [_trees_of(state, seat) for seat in range(p)]
    if state.phase is Phase.SPRING:
        expected = [sum(1 for k in range(state.turn) if state.order[k % p] == s) for s in range(p)]
        require(not any(state.summer), StateError, "spring: summer points before summer")
    else:
        expected = [len(TREE_VALUES)] * p
    require(
        planted == expected,
        StateError,
        f"{phase}: trees planted per seat {planted}, expected {expected}",
    )


def _check_autumn(state: BoskState) -> None:
    phase = state.phase
    require(state.first_wind >= 0, StateError, f"{phase.value}: the first wind must be set")
    if phase is Phase.OVER:
        require(state.round == 8 and state.turn == 0, StateError, "over: round 8 and turn 0")
        done = set(state.order)
    else:
        require(state.round >= 1, StateError, f"{phase.value}: round must be 1..8")
        done = set(state.order[: state.turn])
    for seat in range(len(state.order)):
        _check_seat_in_autumn(state, seat, seat in done)


def _check_seat_in_autumn(state: BoskState, seat: int, finished: bool) -> None:
    """One seat's tiles, trees, leaves and squirrel against the round so far."""
    playing = seat == state.current_player and state.phase in (Phase.LEAVES, Phase.SQUIRREL)
    tile, used = state.round_tiles[seat], state.tiles_used[seat]
    require(
        (tile != 0) == (finished or playing),
        StateError,
        f"round_tiles[{seat}] = {tile} does not fit seat {seat}'s turn",
    )
    require(
        not tile or bool(used >> tile & 1),
        StateError,
        f"seat {seat}'s round tile {tile} is not among its spent tiles",
    )
    spent = bin(used).count("1")
    expected_spent = state.round - 1 + (1 if finished or playing else 0)
    require(
        spent == expected_spent,
        StateError,
        f"seat {seat} spent {spent} tiles, expected {expected_spent} by now",
    )
    expected_trees = len(TREE_VALUES) - (state.round - 1) - (1 if finished else 0)
    trees = _trees_of(state, seat)
    require(
        trees == expected_trees,
        StateError,
        f"seat {seat} has {trees} trees, expected {expected_trees}",
    )
    for value in range(1, min(state.round, 4) + 1):
        if value < state.round or finished:
            count = _trees_of(state, seat, value)
            require(
                count < TREES_PER_VALUE,
                StateError,
                f"seat {seat} still has {count} trees of value {value} after round {value}",
            )
    require(
        state.squirrels[seat] < 0 or bool(used >> SQUIRREL & 1),
        StateError,
        f"seat {seat}'s squirrel is out but its squirrel tile is unspent",
    )
    given = sum(t for t in LEAF_TILES if t != SQUIRREL and used >> t & 1)
    require(
        state.leaves_on_board(seat) <= given,
        StateError,
        f"seat {seat} has more leaves on the board than its spent tiles gave",
    )


def _check_turn_under_way(state: BoskState) -> None:
    """The chosen tree, active leaves and last leaf of the turn in progress."""
    phase, game, mover = state.phase, state.game, state.current_player
    in_turn = phase in (Phase.TILE, Phase.LEAVES, Phase.SQUIRREL)
    require(
        in_turn == (state.tree >= 0),
        StateError,
        f"{phase.value}: a chosen tree is {'required' if in_turn else 'not allowed'}",
    )
    if in_turn:
        require(
            state.owners[state.tree] == mover, StateError, f"the chosen tree is not seat {mover}'s"
        )
        require(
            state.round > 4 or state.values[state.tree] == state.round,
            StateError,
            f"round {state.round}: the chosen tree must have value {state.round}",
        )
    require(
        (phase is Phase.LEAVES) == (state.active > 0) and (phase is Phase.LEAVES or state.last < 0),
        StateError,
        f"{phase.value}: active leaves / last leaf only while laying leaves",
    )
    if phase is Phase.LEAVES:
        assert mover is not None
        tile = state.round_tiles[mover]
        require(
            tile >= 2 and state.active <= tile and (state.last >= 0 or state.active == tile),
            StateError,
            f"active leaves {state.active} do not fit tile {tile}",
        )
        last_stack = state.stacks[state.last] if state.last >= 0 else (mover,)
        require(
            bool(last_stack) and last_stack[-1] == mover,
            StateError,
            "the last leaf's square is not topped by the current player's leaf",
        )
        require(
            bool(game.leaf_targets(state)),
            StateError,
            "the leaf path cannot go on: the turn should have ended",
        )
    if phase is Phase.SQUIRREL:
        assert mover is not None
        require(
            state.round_tiles[mover] == SQUIRREL and state.squirrels[mover] < 0,
            StateError,
            "squirrel step without the squirrel tile, or the squirrel is already out",
        )
        require(
            bool(game.squirrel_targets(state)),
            StateError,
            "the squirrel has nowhere to stop: the turn should have ended",
        )
