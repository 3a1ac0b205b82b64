"""Saved Bosk states: the schema of ``to_dict`` and the invariants a loaded state must keep.

The schema (one :class:`~forestgames.schema.Field` per key) writes every
field and does every type and range check; what is left here as code are the
cross-field rules, each a small named check that raises StateError.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from forestgames.bosk._tables import (
    DIRECTIONS,
    LEAF_TILES,
    ROUNDS,
    SQUIRREL,
    TREE_VALUES,
    TREES_PER_VALUE,
)
from forestgames.bosk.scoring import summer_scores, winter_scores
from forestgames.bosk.state import BoskState, Phase
from forestgames.core import StateError, require
from forestgames.schema import Choice, Field, Int, List, Nullable, Str, Tuple

if TYPE_CHECKING:
    from forestgames.bosk.rules import BoskGame

__all__ = ["INVARIANTS", "state_fields", "state_from_fields"]

MAX_SUMMER = 3
"""Summer points a seat can take from one row or column (sole majority)."""
MAX_WINTER = 8
"""Winter points a seat can take from one terrain type (sole majority)."""


def state_fields(game: BoskGame) -> tuple[Field, ...]:
    """The fields of a saved Bosk state, in ``to_dict`` order."""
    p, size = game.num_players, game.size
    n = size - 1
    seat = Int(0, p - 1)
    height = ROUNDS * p  # a path never visits a square twice, and there are 8P turns
    stack = Str(
        height + 2,
        pattern=f"[0-{p - 1}]{{0,{height}}}(S[0-{p - 1}])?",
        form=f"a stack: at most {height} leaves' seats 0..{p - 1} bottom to top, then 'S' and "
        "a seat if a squirrel tops it (nothing may lie on a squirrel)",
    )
    return (
        Field("phase", Choice(tuple(p.value for p in Phase)), lambda s: s.phase.value),
        Field("round", Int(0, 8), lambda s: s.round),
        Field("order", List(seat, length=p), lambda s: list(s.order)),
        Field("turn", Int(0, 8 * p - 1), lambda s: s.turn),
        Field(
            "trees",
            List(Tuple(Int(0, n - 1), Int(0, n - 1), seat, Int(1, 4)), max_len=n * n),
            lambda s: _trees(s, n),
        ),
        Field(
            "stacks",
            List(List(stack, length=size), length=size, form=f"{size} rows of {size} stacks"),
            lambda s: [[_stack_text(s, r * size + c) for c in range(size)] for r in range(size)],
        ),
        Field(
            "tiles_used",
            List(List(Int(1, 8), max_len=8), length=p),
            lambda s: [[t for t in LEAF_TILES if used >> t & 1] for used in s.tiles_used],
        ),
        Field("round_tiles", List(Int(0, 8), length=p), lambda s: list(s.round_tiles)),
        Field(
            "first_wind",
            Nullable(Choice(DIRECTIONS)),
            lambda s: None if s.first_wind < 0 else DIRECTIONS[s.first_wind],
        ),
        Field(
            "tree",
            Nullable(Tuple(Int(0, n - 1), Int(0, n - 1))),
            lambda s: None if s.tree < 0 else list(divmod(s.tree, n)),
        ),
        Field("active", Int(0, 8), lambda s: s.active),
        Field(
            "last",
            Nullable(Tuple(Int(0, size - 1), Int(0, size - 1))),
            lambda s: None if s.last < 0 else list(divmod(s.last, size)),
        ),
        Field("summer", List(Int(0, 2 * n * MAX_SUMMER), length=p), lambda s: list(s.summer)),
        Field("winter", List(Int(0, 8 * MAX_WINTER), length=p), lambda s: list(s.winter)),
    )


def _trees(state: BoskState, n: int) -> list[list[int]]:
    return [
        [t // n, t % n, o, v]
        for t, (o, v) in enumerate(zip(state.owners, state.values, strict=True))
        if o >= 0
    ]


def _stack_text(state: BoskState, square: int) -> str:
    text = "".join(str(seat) for seat in state.stacks[square])
    for seat, where in enumerate(state.squirrels):
        if where == square:
            text += f"S{seat}"
    return text


def state_from_fields(game: BoskGame, fields: dict[str, Any]) -> BoskState:
    """The state the checked ``fields`` describe (invariants not yet checked)."""
    p, size = game.num_players, game.size
    n = size - 1
    owners, values = [-1] * (n * n), [0] * (n * n)
    for r, c, owner, value in fields["trees"]:
        require(owners[r * n + c] < 0, StateError, f"two trees at ({r}, {c})")
        owners[r * n + c], values[r * n + c] = owner, value
    stacks, squirrels = _read_stacks(fields["stacks"], size, p)
    tiles_used = []
    for seat, used in enumerate(fields["tiles_used"]):
        require(len(set(used)) == len(used), StateError, f"tiles_used[{seat}] repeats a tile")
        tiles_used.append(sum(1 << t for t in used))
    wind = fields["first_wind"]
    tree, last = fields["tree"], fields["last"]
    return BoskState(
        game=game,
        phase=Phase(fields["phase"]),
        round=fields["round"],
        order=fields["order"],
        turn=fields["turn"],
        owners=tuple(owners),
        values=tuple(values),
        stacks=stacks,
        squirrels=squirrels,
        tiles_used=tuple(tiles_used),
        round_tiles=fields["round_tiles"],
        first_wind=-1 if wind is None else DIRECTIONS.index(wind),
        tree=-1 if tree is None else tree[0] * n + tree[1],
        active=fields["active"],
        last=-1 if last is None else last[0] * size + last[1],
        summer=fields["summer"],
        winter=fields["winter"],
    )


def _read_stacks(
    rows: tuple[tuple[str, ...], ...], size: int, p: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Leaf stacks and squirrel squares from the checked stack strings."""
    stacks: list[tuple[int, ...]] = []
    squirrels = [-1] * p
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            leaves, _, squirrel = text.partition("S")
            if squirrel:
                seat = int(squirrel)
                require(squirrels[seat] < 0, StateError, f"seat {seat} has two squirrels")
                squirrels[seat] = r * size + c
            stacks.append(tuple(int(ch) for ch in leaves))
    return tuple(stacks), tuple(squirrels)


# ---------------------------------------------------------------------- invariants


def _trees_of(state: BoskState, seat: int, value: int | None = None) -> int:
    return sum(
        1
        for o, v in zip(state.owners, state.values, strict=True)
        if o == seat and (value is None or v == value)
    )


def order_is_clockwise(state: BoskState) -> None:
    """The turn order is every seat clockwise from one of them."""
    order = state.order
    require(
        order == state.game._clockwise_from(order[0]),
        StateError,
        f"order {list(order)} is not the seats clockwise from one of them",
    )


def trees_per_value(state: BoskState) -> None:
    """No seat has more than two trees of a value."""
    for seat in range(state.game.num_players):
        for value in (1, 2, 3, 4):
            count = _trees_of(state, seat, value)
            require(
                count <= TREES_PER_VALUE,
                StateError,
                f"seat {seat} has {count} trees of value {value}; "
                f"each player has {TREES_PER_VALUE}",
            )


def _leaf_tiles_spent(used: int) -> int:
    """How many leaf tiles (the squirrel tile left out) the bit set ``used`` holds."""
    return (used & ~(1 << SQUIRREL)).bit_count()


def turn_fits_phase(state: BoskState) -> None:
    """Spring counts trees planted (up to 8 per seat); autumn counts seats of the round; the
    wind is chosen by the seat that starts autumn, before any turn (turn 0)."""
    if state.phase is Phase.SPRING:
        limit = 8 * len(state.order) - 1
    elif state.phase is Phase.WIND:
        limit = 0
    else:
        limit = len(state.order) - 1
    require(
        state.turn <= limit,
        StateError,
        f"turn {state.turn} is outside 0..{limit} in the {state.phase.value} phase",
    )


def before_autumn(state: BoskState) -> None:
    """Spring and the wind choice: no leaves, tiles or wind yet; the trees planted so far."""
    if state.phase not in (Phase.SPRING, Phase.WIND):
        return
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
    else:
        expected = [len(TREE_VALUES)] * p
    require(
        planted == expected,
        StateError,
        f"{phase}: trees planted per seat {planted}, expected {expected}",
    )


def summer_points(state: BoskState) -> None:
    """No summer points in spring; in the wind phase, exactly the board's summer score."""
    if state.phase is Phase.SPRING:
        require(not any(state.summer), StateError, "spring: summer points before summer")
    if state.phase is Phase.WIND:
        scored = summer_scores(state.tree_owner, state.tree_value, state.game.num_players)
        summer = tuple(int(x) for x in scored)
        require(
            state.summer == summer,
            StateError,
            f"summer points {list(state.summer)} do not match the trees ({list(summer)})",
        )


def autumn_start(state: BoskState) -> None:
    """The wind choice and round 1 belong to a seat with the fewest summer points."""
    if state.phase is Phase.WIND or state.round == 1:
        start = state.order[0]
        require(
            state.summer[start] == min(state.summer),
            StateError,
            f"{state.phase.value}: seat {start} starts autumn with {state.summer[start]} summer "
            f"points, but the fewest is {min(state.summer)}",
        )


def autumn_seats(state: BoskState) -> None:
    """Each seat's tiles, trees, leaves and squirrel fit the round so far."""
    phase = state.phase
    if phase in (Phase.SPRING, Phase.WIND):
        return
    require(state.first_wind >= 0, StateError, f"{phase.value}: the first wind must be set")
    if phase is Phase.OVER:
        require(state.round == 8 and state.turn == 0, StateError, "over: round 8 and turn 0")
        done = set(state.order)
    else:
        require(state.round >= 1, StateError, f"{phase.value}: round must be 1..8")
        done = set(state.order[: state.turn])
    for seat in range(len(state.order)):
        _seat_tiles(state, seat, seat in done)
        _seat_pieces(state, seat, seat in done)


def _playing(state: BoskState, seat: int) -> bool:
    return seat == state.current_player and state.phase in (Phase.LEAVES, Phase.SQUIRREL)


def _seat_tiles(state: BoskState, seat: int, finished: bool) -> None:
    """One seat's round tile and spent tiles against its turn."""
    playing = _playing(state, seat)
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


def _seat_pieces(state: BoskState, seat: int, finished: bool) -> None:
    """One seat's trees, leaves and squirrel against the rounds played."""
    used = state.tiles_used[seat]
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
    laying = state.active if state.phase is Phase.LEAVES and seat == state.current_player else 0
    on_board = state.leaves_on_board(seat)
    require(
        on_board + laying <= given,
        StateError,
        f"seat {seat} has {on_board} leaves on the board"
        + (f" and {laying} still to lay" if laying else "")
        + f", more than its spent tiles gave ({given})",
    )
    leaf_tiles = _leaf_tiles_spent(used)
    most = max(stack.count(seat) for stack in state.stacks)
    require(
        most <= leaf_tiles,
        StateError,
        f"seat {seat} has {most} leaves on one square, more than its {leaf_tiles} spent "
        "leaf tiles can lay there (a path visits a square once)",
    )


def chosen_tree(state: BoskState) -> None:
    """A chosen tree exactly during a turn's tile, leaves and squirrel steps, of the right value."""
    phase, mover = state.phase, state.current_player
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


def leaf_path(state: BoskState) -> None:
    """Active leaves and the last leaf only while laying leaves, and a path that can go on."""
    phase, mover = state.phase, state.current_player
    require(
        (phase is Phase.LEAVES) == (state.active > 0) and (phase is Phase.LEAVES or state.last < 0),
        StateError,
        f"{phase.value}: active leaves / last leaf only while laying leaves",
    )
    if phase is not Phase.LEAVES:
        return
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
    targets = state.game._leaf_targets(state)
    require(bool(targets), StateError, "the leaf path cannot go on: the turn should have ended")
    # a square holding one of the mover's leaves per spent leaf tile has this path's leaf
    # already (the wind or last leaf of a path laid otherwise): the path cannot come back
    leaf_tiles, size = _leaf_tiles_spent(state.tiles_used[mover]), state.game.size
    for square in targets:
        require(
            state.stacks[square].count(mover) < leaf_tiles,
            StateError,
            f"the leaf path could lay again on square ({square // size}, {square % size}), "
            f"where seat {mover} has a leaf per spent leaf tile (a path visits a square once)",
        )


def squirrel_step(state: BoskState) -> None:
    """The squirrel step needs the squirrel tile, the squirrel in hand and a square to stop on."""
    if state.phase is not Phase.SQUIRREL:
        return
    mover = state.current_player
    assert mover is not None
    require(
        state.round_tiles[mover] == SQUIRREL and state.squirrels[mover] < 0,
        StateError,
        "squirrel step without the squirrel tile, or the squirrel is already out",
    )
    require(
        bool(state.game._squirrel_targets(state)),
        StateError,
        "the squirrel has nowhere to stop: the turn should have ended",
    )


def winter_points(state: BoskState) -> None:
    """No winter points before the end; at the end, exactly the board's winter score."""
    if state.phase is not Phase.OVER:
        require(not any(state.winter), StateError, "winter points before winter")
        return
    scored = winter_scores(state.top, state.game.terrain, len(state.order))
    winter = tuple(int(x) for x in scored)
    require(
        state.winter == winter,
        StateError,
        f"winter points {list(state.winter)} do not match the board ({list(winter)})",
    )


INVARIANTS: Sequence[Callable[[BoskState], None]] = (
    order_is_clockwise,
    turn_fits_phase,
    trees_per_value,
    before_autumn,
    summer_points,
    autumn_start,
    autumn_seats,
    chosen_tree,
    leaf_path,
    squirrel_step,
    winter_points,
)
