"""The Bosk game: options, the rules (legal moves and transitions), saved states.

``BoskGame`` is a frozen value: its options are the rules variant. It is the
one place the rules live, season by season; states hand every rules question
over to it through the engine base's hooks.
"""

from __future__ import annotations

import functools
from bisect import bisect_left, insort
from collections.abc import Callable, Mapping, Sequence
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from forestgames.bosk import heuristic, render, saved
from forestgames.bosk import moves as mv
from forestgames.bosk._tables import (
    ALL_TILES_MASK,
    BOARD_SIZE,
    DEFAULT_TERRAIN,
    DIRECTIONS,
    LEAF_TILES,
    NUM_TERRAINS,
    ROUNDS,
    SQUIRREL,
    TREE_VALUES,
    TREES_PER_VALUE,
    Geometry,
    geometry,
)
from forestgames.bosk.actions import BoskCodec
from forestgames.bosk.scoring import board_summer, board_winter
from forestgames.bosk.state import BoskState, Phase
from forestgames.core import ConfigError, GameBase, Option, excerpt, frozen_array, new_rng
from forestgames.schema import Field

__all__ = ["BoskGame"]


def _check_terrain(terrain: Any, options: Mapping[str, Any]) -> np.ndarray:
    """A terrain option: an S×S array of ids 0..7 for this player count, stored read-only."""
    size = BOARD_SIZE[options["num_players"]]
    if terrain is None:
        return DEFAULT_TERRAIN[size]
    players = options["num_players"]
    wanted = f"terrain must be a grid of {size}x{size} terrain ids with {players} players"
    if isinstance(terrain, np.ma.MaskedArray):
        raise ConfigError(f"{wanted}, not a masked array (its mask would be lost)")
    if isinstance(terrain, np.ndarray) and terrain.shape != (size, size):  # before any copy
        raise ConfigError(f"{wanted}, not an array of shape {terrain.shape}")
    try:
        grid = np.array(terrain)
    except (TypeError, ValueError):
        raise ConfigError(f"{wanted}, not {excerpt(terrain)} (rows of unequal length)") from None
    if grid.shape != (size, size):
        if isinstance(terrain, np.ndarray):
            raise ConfigError(f"{wanted}, not an array of shape {grid.shape}")
        shape = f" (shape {grid.shape})" if grid.ndim else ""
        raise ConfigError(f"{wanted}, not {excerpt(terrain)}{shape}")
    if grid.dtype.kind not in "iu" and not (
        grid.dtype.kind == "f" and np.all(grid == grid.round())
    ):
        raise ConfigError(f"terrain must hold integer type ids, not {grid.dtype}")
    if grid.min() < 0 or grid.max() >= NUM_TERRAINS:
        bad = np.argwhere((grid < 0) | (grid >= NUM_TERRAINS))
        row, col = (int(k) for k in bad[0])
        raise ConfigError(
            f"terrain ids must be 0..{NUM_TERRAINS - 1}, not {excerpt(grid[row, col].item())} "
            f"at square ({row}, {col}) ({len(bad)} out of range)"
        )
    return frozen_array(grid, np.int8)


OPTIONS = (
    Option.players("Bosk", 2, 2, 4, "seats; the board is 8, 10 or 12 squares"),
    Option(
        "terrain",
        lambda options: DEFAULT_TERRAIN[BOARD_SIZE[options["num_players"]]],
        _check_terrain,
        "S×S array of ids 0–7",
        "the terrain map (lists or numpy), validated",
        default_doc="the shipped map of the size",
        to_json=lambda grid: grid.tolist(),
        omit_default=True,
    ),
    Option.boolean(
        "squirrel_exactly_three",
        False,
        "the squirrel moves exactly three steps instead of one to three",
    ),
    Option.boolean(
        "squirrel_passes_squirrels",
        True,
        "the squirrel's path may cross a square holding a squirrel; `False` reads the "
        'seeds\' "same rules as the leaves": like a leaf path, it cannot enter one',
    ),
    Option.boolean(
        "ties_include_start",
        True,
        "in start-player ties broken clockwise from the (previous) start player, that "
        "player itself counts first; `False` starts at the next seat",
    ),
)


@attrs.frozen(slots=False, repr=False)
class BoskGame(
    GameBase[BoskState, mv.BoskMove],
    name="bosk",
    title="Bosk",
    players=(2, 4),
    chance=True,
    hidden_information=False,
    out_of_turn=False,
):
    """Bosk for 2–4 players with its options fixed (``fg.make("bosk", **options)``).

    Options: see ``OPTIONS`` and docs/bosk.md (Options, Choices).
    """

    OPTIONS = OPTIONS
    MOVE_TYPES = (
        mv.PlantTree,
        mv.ChooseWind,
        mv.ChooseTree,
        mv.ChooseTile,
        mv.PlaceLeaf,
        mv.PlaceSquirrel,
    )

    CASES = (
        {"num_players": 3, "squirrel_exactly_three": True, "ties_include_start": False},
        {"num_players": 4, "squirrel_passes_squirrels": False},
    )

    num_players: int
    # None: the default map for the board, filled in by the option checks (as make); not an
    # attrs.Factory, which would run before them (a bad player count: KeyError)
    terrain: np.ndarray = attrs.field(
        default=None, eq=attrs.cmp_using(eq=np.array_equal), hash=False
    )
    squirrel_exactly_three: bool = False
    squirrel_passes_squirrels: bool = True
    ties_include_start: bool = True

    # ------------------------------------------------------------------ derived tables

    @functools.cached_property
    def size(self) -> int:
        """S, the side of the play area in squares."""
        return BOARD_SIZE[self.num_players]

    @functools.cached_property
    def geometry(self) -> Geometry:
        """The index tables of this board size (shared, read-only)."""
        return geometry(self.size)

    @functools.cached_property
    def _moves(self) -> _MoveTable:
        """Every move object of this board and player count (shared, built once)."""
        return _move_table(self.size, self.num_players)

    def _max_moves(self) -> int:
        # each seat: 8 trees planted, 8 autumn trees and 8 tiles, at most one leaf per
        # active leaf of its tiles (2 + 3 + ... + 8 = 35) and its squirrel: 60; the wind: 1
        return 60 * self.num_players + 1

    def _score_range(self) -> tuple[int, int]:
        return (0, 200)

    def _parse_move(self, text: str) -> mv.BoskMove:
        return mv.parse_move(text)

    # ------------------------------------------------------------------ new game

    def _new_game(self, seed: int, first_player: int | None) -> BoskState:
        """Spring, nothing placed; the start player drawn from ``seed`` unless given."""
        p = self.num_players
        if first_player is None:
            first_player = int(new_rng(seed).integers(p))
        g = self.geometry
        return BoskState(
            game=self,
            phase=Phase.SPRING,
            round=0,
            order=self._clockwise_from(first_player),
            turn=0,
            owners=(-1,) * g.intersections,
            values=(0,) * g.intersections,
            stacks=((),) * g.squares,
            squirrels=(-1,) * p,
            tiles_used=(0,) * p,
            round_tiles=(0,) * p,
            first_wind=-1,
            tree=-1,
            active=0,
            last=-1,
            summer=(0,) * p,
            winter=(0,) * p,
        )

    def _clockwise_from(self, seat: int) -> tuple[int, ...]:
        """All seats in clockwise order starting with ``seat``."""
        p = self.num_players
        return tuple((seat + k) % p for k in range(p))

    def _first_reached(self, candidates: set[int], start: int) -> int:
        """The candidate reached first going clockwise from ``start`` (see ties_include_start)."""
        order = self._clockwise_from(start)
        if not self.ties_include_start:
            order = order[1:] + order[:1]
        return next(seat for seat in order if seat in candidates)

    # ------------------------------------------------------------------ results

    def _scores(self, state: BoskState) -> tuple[int, ...]:
        """Summer points (after spring) plus winter points (at the end)."""
        return tuple(s + w for s, w in zip(state.summer, state.winter, strict=True))

    def _winners(self, state: BoskState) -> tuple[int, ...]:
        """The highest total; ties go to the seat earlier in round 8's turn order."""
        scores = self._scores(state)
        best = max(scores)
        return (next(p for p in state.order if scores[p] == best),)

    def _step_name(self, state: BoskState) -> str:
        return state.phase.value

    # ------------------------------------------------------------------ legal moves

    def _legal_moves(self, state: BoskState, player: int) -> tuple[mv.BoskMove, ...]:
        """The moves of ``player`` now (empty when it is not their decision)."""
        if player != state.current_player:
            return ()
        phase = state.phase
        if phase is _LEAVES:
            return self._leaf_moves(state, player)
        if phase is _SPRING:
            return self._plant_moves(state, player)
        return _MOVES_OF_PHASE[phase](self, state, player)

    def _plant_moves(self, state: BoskState, player: int) -> tuple[mv.BoskMove, ...]:
        # at least 2 intersections are free until the last tree, so pick gives tuples
        pick = itemgetter(*self._free_intersections(state))
        moves: tuple[mv.BoskMove, ...] = ()
        for row in self._moves.plant_rows[player][self._planted_code(state, player)]:
            moves += pick(row)
        return moves

    def _index_hint(self, state: BoskState, move: Any) -> int | None:
        """A spring move's place in the legal list: its value's block, then its intersection
        among the free ones (the list is built that way in ``_plant_moves``)."""
        if type(move) is not mv.PlantTree:
            return None
        free = state._memo.get("free")
        codes = state._memo.get("planted")
        if free is None or codes is None:
            return None
        values = VALUES_LEFT[codes[move.player]]
        row, col = move.at
        if move.value not in values:
            return None
        at = bisect_left(free, row * (self.size - 1) + col)
        return values.index(move.value) * len(free) + at

    def _free_intersections(self, state: BoskState) -> tuple[int, ...]:
        """The intersections without a tree, in order (kept in the state's memo in spring)."""
        memo = state._memo
        free: tuple[int, ...] | None = memo.get("free")
        if free is None:
            free = memo["free"] = tuple(
                compress(self.geometry.intersection_ids, map(_EMPTY, state.owners))
            )
        return free

    def _wind_moves(self, state: BoskState, player: int) -> tuple[mv.BoskMove, ...]:
        return self._moves.wind[player]

    def _tree_moves(self, state: BoskState, player: int) -> tuple[mv.BoskMove, ...]:
        choose = self._moves.tree[player]
        return tuple(choose[t] for t in self._choosable_trees(state, player))

    def _tile_moves(self, state: BoskState, player: int) -> tuple[mv.BoskMove, ...]:
        return self._moves.tiles_left[player][state.tiles_used[player]]

    def _leaf_moves(self, state: BoskState, player: int) -> tuple[mv.BoskMove, ...]:
        return tuple(map(self._moves.leaf[player].__getitem__, self._leaf_targets(state)))

    def _squirrel_moves(self, state: BoskState, player: int) -> tuple[mv.BoskMove, ...]:
        squirrel = self._moves.squirrel[player]
        return tuple(squirrel[s] for s in self._squirrel_targets(state))

    # The rule helpers: the legal moves and the explanations of illegal ones both use them.

    def _values_to_plant(self, state: BoskState, player: int) -> tuple[int, ...]:
        """Distinct values of ``player``'s trees not yet planted."""
        return VALUES_LEFT[self._planted_code(state, player)]

    def _planted_code(self, state: BoskState, player: int) -> int:
        """How many trees of each value ``player`` has planted, as one base-3 code
        (sum of count(v) * 3**(v-1)); kept in the state's memo in spring."""
        memo = state._memo
        codes: tuple[int, ...] | None = memo.get("planted")
        if codes is None:
            values = state.values
            codes = memo["planted"] = tuple(
                sum(_PLANTED_WEIGHT[values[t]] for t in _positions(state.owners, seat))
                for seat in range(self.num_players)
            )
        return codes[player]

    def _choosable_trees(self, state: BoskState, player: int) -> list[int] | tuple[int, ...]:
        """Intersections of ``player``'s trees allowed this round (value = round in 1–4)."""
        mine = self._tree_positions(state)[player]
        if state.round > 4:
            return mine
        values = state.values
        return [t for t in mine if values[t] == state.round]

    def _tree_positions(self, state: BoskState) -> tuple[tuple[int, ...], ...]:
        """Per seat, the intersections of its trees in order (kept in the state's memo and
        carried from state to state by the transitions that keep or change them)."""
        memo = state._memo
        trees: tuple[tuple[int, ...], ...] | None = memo.get("trees")
        if trees is None:
            owners = state.owners
            trees = memo["trees"] = tuple(
                tuple(_positions(owners, seat)) for seat in range(self.num_players)
            )
        return trees

    def _leaf_cost(self, state: BoskState, square: int, player: int) -> int | None:
        """Extra leaves returned to lay one on ``square``; None if it can never take one."""
        if square in state.squirrels:
            return None
        stack = state.stacks[square]
        if not stack or stack[-1] == player:
            return 0
        return len(stack)

    def _leaf_candidates(self, state: BoskState) -> tuple[int, ...]:
        """Squares one step downwind: under the tree first, then of the last leaf."""
        wind = (state.first_wind + state.round - 1) & 3
        if state.last < 0:
            return self.geometry.base_of[wind][state.tree]
        return self.geometry.next_of[wind][state.last]

    def _leaf_targets(self, state: BoskState) -> list[int]:
        """Squares the next leaf may go on: a candidate with no squirrel on it, where
        covering k leaves of others needs k + 1 active leaves."""
        player = state.order[state.turn]
        squirrels = state.squirrels
        stacks = state.stacks
        active = state.active
        wind = (state.first_wind + state.round - 1) & 3
        last = state.last
        if last < 0:
            candidates = self.geometry.base_of[wind][state.tree]
        else:
            candidates = self.geometry.next_of[wind][last]
        targets = []
        for s in candidates:
            if s in squirrels:
                continue
            stack = stacks[s]
            if stack and stack[-1] != player and len(stack) >= active:
                continue
            targets.append(s)
        return targets

    def _squirrel_targets(self, state: BoskState) -> list[int]:
        """Squares the squirrel may stop on: 1–3 steps (or exactly 3), free of squirrels
        (and, unless it passes squirrels, reached through squares free of them)."""
        wind = state.wind
        assert wind is not None
        if self.squirrel_passes_squirrels:
            steps = self.geometry.squirrel_reach[wind][state.tree]
        else:
            steps = self.geometry.squirrel_steps(wind, state.tree, frozenset(state.squirrels))
        reach = steps[-1] if self.squirrel_exactly_three else steps[0] | steps[1] | steps[2]
        return sorted(s for s in reach if s not in state.squirrels)

    # ------------------------------------------------------------------ why a move is illegal

    def _explain(self, state: BoskState, move: Any) -> str | None:
        """Which rule ``move`` (a well-formed move of the seat to act) breaks."""
        return _EXPLAIN[type(move)](self, state, move)

    def _why_not_plant(self, state: BoskState, move: mv.PlantTree) -> str:
        t = self._intersection(move.at)
        if t is None:
            n = self.size - 1
            return f"{move}: trees stand on intersections (0..{n - 1}, 0..{n - 1}) only"
        if move.value not in (1, 2, 3, 4):
            return f"{move}: tree values are 1..4"
        if state.owners[t] >= 0:
            return f"{move}: intersection {move.at} already has a tree"
        return f"{move}: seat {move.player} has no tree of value {move.value} left to plant"

    def _why_not_wind(self, state: BoskState, move: mv.ChooseWind) -> str:
        return f"{move}: the wind is one of {', '.join(DIRECTIONS)}"

    def _why_not_tree(self, state: BoskState, move: mv.ChooseTree) -> str:
        t = self._intersection(move.at)
        if t is None:
            n = self.size - 1
            return f"{move}: trees stand on intersections (0..{n - 1}, 0..{n - 1}) only"
        if state.owners[t] != move.player:
            return f"{move}: seat {move.player} has no tree at {move.at}"
        return f"{move}: round {state.round} needs a tree of value {state.round}"

    def _why_not_tile(self, state: BoskState, move: mv.ChooseTile) -> str:
        if move.tile not in LEAF_TILES:
            return f"{move}: a leaf tile is 2..8 or the squirrel (1)"
        return f"{move}: tile {move.tile} is already spent"

    def _why_not_leaf(self, state: BoskState, move: mv.PlaceLeaf) -> str:
        s = self._square(move.at)
        if s is None:
            return f"{move}: squares are (0..{self.size - 1}, 0..{self.size - 1})"
        cost = self._leaf_cost(state, s, move.player)
        if cost is None:
            return f"{move}: square {move.at} holds a squirrel; nothing goes on it"
        if s not in self._leaf_candidates(state):
            return f"{move}: the next leaf goes one step downwind ({state.wind}) of the last one"
        return (
            f"{move}: covering {cost} leaves there needs {cost + 1} active leaves, "
            f"only {state.active} left"
        )

    def _why_not_squirrel(self, state: BoskState, move: mv.PlaceSquirrel) -> str:
        s = self._square(move.at)
        if s is None:
            return f"{move}: squares are (0..{self.size - 1}, 0..{self.size - 1})"
        if s in state.squirrels:
            return f"{move}: square {move.at} holds a squirrel; nothing goes on it"
        steps = "exactly 3" if self.squirrel_exactly_three else "1 to 3"
        path = "" if self.squirrel_passes_squirrels else ", never through a squirrel's square"
        return f"{move}: the squirrel moves {steps} steps downwind ({state.wind}) of its tree{path}"

    def _intersection(self, at: tuple[int, int]) -> int | None:
        n = self.size - 1
        return at[0] * n + at[1] if 0 <= at[0] < n and 0 <= at[1] < n else None

    def _square(self, at: tuple[int, int]) -> int | None:
        size = self.size
        return at[0] * size + at[1] if 0 <= at[0] < size and 0 <= at[1] < size else None

    # ------------------------------------------------------------------ transitions

    def _step(self, state: BoskState, move: mv.BoskMove) -> BoskState:
        """The state after legal ``move`` (the base has checked legality)."""
        return _STEP[type(move)](self, state, move)

    def _plant(self, state: BoskState, move: mv.PlantTree) -> BoskState:
        t = move.at[0] * (self.size - 1) + move.at[1]
        player, value = move.player, move.value
        free = self._free_intersections(state)
        self._planted_code(state, player)
        codes = state._memo["planted"]
        trees = self._tree_positions(state)
        turn = state.turn + 1
        state = state._evolve(
            owners=_set(state.owners, t, player),
            values=_set(state.values, t, value),
            turn=turn,
            current_player=state.order[turn % self.num_players],
        )
        mine = list(trees[player])
        insort(mine, t)
        state._memo["trees"] = _set(trees, player, tuple(mine))
        if state.turn < len(TREE_VALUES) * self.num_players:
            k = bisect_left(free, t)
            memo = state._memo
            memo["free"] = free[:k] + free[k + 1 :]
            memo["planted"] = _set(codes, player, codes[player] + _PLANTED_WEIGHT[value])
            return state
        return self._summer(state)

    def _summer(self, state: BoskState) -> BoskState:
        """Score summer and hand the wind choice to the autumn start player."""
        summer = board_summer(state.owners, state.values, self.num_players)
        fewest = min(summer)
        start = self._first_reached(
            {p for p, s in enumerate(summer) if s == fewest}, state.order[0]
        )
        return _keep_trees(
            state,
            state._evolve(
                phase=Phase.WIND,
                summer=summer,
                order=self._clockwise_from(start),
                turn=0,
                current_player=start,
            ),
        )

    def _choose_wind(self, state: BoskState, move: mv.ChooseWind) -> BoskState:
        direction = DIRECTIONS.index(move.direction)
        return _keep_trees(state, state._evolve(phase=Phase.TREE, round=1, first_wind=direction))

    def _choose_tree(self, state: BoskState, move: mv.ChooseTree) -> BoskState:
        t = move.at[0] * (self.size - 1) + move.at[1]
        return _keep_trees(state, state._evolve(phase=Phase.TILE, tree=t))

    def _choose_tile(self, state: BoskState, move: mv.ChooseTile) -> BoskState:
        player, tile = move.player, move.tile
        changes = {
            "tiles_used": _set(state.tiles_used, player, state.tiles_used[player] | 1 << tile),
            "round_tiles": _set(state.round_tiles, player, tile),
        }
        table: tuple[mv.BoskMove, ...]
        before = state
        if tile == SQUIRREL:
            state = _keep_trees(before, state._evolve(phase=Phase.SQUIRREL, **changes))
            targets = self._squirrel_targets(state)
            table = self._moves.squirrel[player]
        else:
            state = _keep_trees(before, state._evolve(phase=Phase.LEAVES, active=tile, **changes))
            targets = self._leaf_targets(state)
            table = self._moves.leaf[player]
        if not targets:
            return self._end_turn(state)
        return state._primed(player, tuple(map(table.__getitem__, targets)))

    def _place_leaf(self, state: BoskState, move: mv.PlaceLeaf) -> BoskState:
        square = move.at[0] * self.size + move.at[1]
        player = move.player
        stack = state.stacks[square]
        cost = len(stack) if stack and stack[-1] != player else 0
        before = state
        state = state._evolve(
            stacks=_set(state.stacks, square, stack + (player,)),
            active=state.active - cost - 1,
            last=square,
        )
        _keep_trees(before, state)
        if state.active:
            targets = self._leaf_targets(state)
            if targets:
                leaf = self._moves.leaf[player]
                return state._primed(player, tuple(map(leaf.__getitem__, targets)))
        return self._end_turn(state)

    def _place_squirrel(self, state: BoskState, move: mv.PlaceSquirrel) -> BoskState:
        square = move.at[0] * self.size + move.at[1]
        squirrels = _set(state.squirrels, move.player, square)
        return self._end_turn(_keep_trees(state, state._evolve(squirrels=squirrels)))

    def _end_turn(self, state: BoskState) -> BoskState:
        """Remove the tree, return unused leaves, pass to the next seat or end the round."""
        t = state.tree
        turn = state.turn + 1
        trees = self._tree_positions(state)
        owner = state.owners[t]
        theirs = list(trees[owner])
        theirs.remove(t)
        trees = _set(trees, owner, tuple(theirs))
        common = {
            "owners": _set(state.owners, t, -1),
            "values": _set(state.values, t, 0),
            "tree": -1,
            "active": 0,
            "last": -1,
        }
        if turn < self.num_players:
            current = state.order[turn]
            state = state._evolve(phase=Phase.TREE, turn=turn, current_player=current, **common)
            state._memo["trees"] = trees
            return state
        if state.round == ROUNDS:
            state = state._evolve(
                phase=Phase.OVER, turn=0, current_player=None, is_terminal=True, **common
            )
            tops = [stack[-1] if stack else -1 for stack in state.stacks]
            for seat, square in enumerate(state.squirrels):
                if square >= 0:
                    tops[square] = seat
            return state._evolve(winter=board_winter(tops, self.terrain, self.num_players))
        lowest = min(state.round_tiles)
        start = self._first_reached(
            {p for p, tile in enumerate(state.round_tiles) if tile == lowest}, state.order[0]
        )
        state = state._evolve(
            phase=Phase.TREE,
            round=state.round + 1,
            order=self._clockwise_from(start),
            turn=0,
            current_player=start,
            round_tiles=(0,) * self.num_players,
            **common,
        )
        state._memo["trees"] = trees
        return state

    # ------------------------------------------------------------------ saved states

    def _state_fields(self) -> Sequence[Field]:
        return saved.state_fields(self)

    def _state_from_fields(self, fields: dict[str, Any]) -> BoskState:
        return saved.state_from_fields(self, fields)

    def _invariants(self) -> Sequence[Callable[[BoskState], None]]:
        return saved.INVARIANTS

    # ------------------------------------------------------------------ pictures

    def _render_text(self, state: BoskState, player: int | None) -> str:
        return render.render_text(state, player)

    def _render_svg(self, state: BoskState, player: int | None) -> str:
        return render.render_svg(state, player)

    # ------------------------------------------------------------------ integer actions

    def _make_codec(self) -> BoskCodec:
        return BoskCodec(self)

    if TYPE_CHECKING:  # the base's codec, typed as this game's

        @functools.cached_property
        def codec(self) -> BoskCodec: ...

    # ------------------------------------------------------------------ agents' hooks

    def evaluate_moves(self, state: BoskState, moves: Sequence[mv.BoskMove]) -> np.ndarray:
        return heuristic.move_values(state, moves)

    def position_value(self, state: BoskState) -> np.ndarray:
        return heuristic.position_value(state)


_MOVES_OF_PHASE: dict[Phase, Callable[[BoskGame, BoskState, int], tuple[mv.BoskMove, ...]]] = {
    Phase.SPRING: BoskGame._plant_moves,
    Phase.WIND: BoskGame._wind_moves,
    Phase.TREE: BoskGame._tree_moves,
    Phase.TILE: BoskGame._tile_moves,
    Phase.LEAVES: BoskGame._leaf_moves,
    Phase.SQUIRREL: BoskGame._squirrel_moves,
}
_STEP: dict[type, Callable[[BoskGame, BoskState, Any], BoskState]] = {
    mv.PlantTree: BoskGame._plant,
    mv.ChooseWind: BoskGame._choose_wind,
    mv.ChooseTree: BoskGame._choose_tree,
    mv.ChooseTile: BoskGame._choose_tile,
    mv.PlaceLeaf: BoskGame._place_leaf,
    mv.PlaceSquirrel: BoskGame._place_squirrel,
}
_EXPLAIN: dict[type, Callable[[BoskGame, BoskState, Any], str]] = {
    mv.PlantTree: BoskGame._why_not_plant,
    mv.ChooseWind: BoskGame._why_not_wind,
    mv.ChooseTree: BoskGame._why_not_tree,
    mv.ChooseTile: BoskGame._why_not_tile,
    mv.PlaceLeaf: BoskGame._why_not_leaf,
    mv.PlaceSquirrel: BoskGame._why_not_squirrel,
}

_EMPTY = (-1).__eq__
_LEAVES, _SPRING = Phase.LEAVES, Phase.SPRING
_PLANTED_WEIGHT = (0, 1, 3, 9, 27)
"""Weight of a planted tree of value v (index v) in a seat's base-3 planted code."""
VALUES_LEFT: tuple[tuple[int, ...], ...] = tuple(
    tuple(v for v in (1, 2, 3, 4) if code // 3 ** (v - 1) % 3 < TREES_PER_VALUE)
    for code in range(3**4)
)
"""The values a seat may still plant, by its planted code (codes with a count of 3 never occur)."""


def _positions(values: tuple[int, ...], x: int) -> list[int]:
    """The indices where ``values`` holds ``x`` (C-speed scans, no exception)."""
    found = []
    index = values.index
    i = -1
    for _ in range(values.count(x)):
        i = index(x, i + 1)
        found.append(i)
    return found


def _keep_trees(before: BoskState, after: BoskState) -> BoskState:
    """``after`` with the tree positions of ``before`` carried over (its trees are the same)."""
    trees = before._memo.get("trees")
    if trees is not None:
        after._memo["trees"] = trees
    return after


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with entry ``index`` replaced (through a list: fewer copies than slicing)."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


class _MoveTable:
    """Every possible move object of one board size and player count, built once."""

    def __init__(self, size: int, players: int) -> None:
        n = size - 1
        ints = [divmod(t, n) for t in range(n * n)]
        squares = [divmod(s, size) for s in range(size * size)]
        seats = range(players)
        self.plant = [_plant_moves_of(p, ints) for p in seats]
        self.tree = [_moves_at(mv.ChooseTree, p, ints) for p in seats]
        self.tile = [{t: mv.ChooseTile(p, t) for t in LEAF_TILES} for p in seats]
        self.tiles_left = [_tiles_left_of(tiles) for tiles in self.tile]
        self.leaf = [_moves_at(mv.PlaceLeaf, p, squares) for p in seats]
        self.squirrel = [_moves_at(mv.PlaceSquirrel, p, squares) for p in seats]
        self.wind = [_moves_at(mv.ChooseWind, p, DIRECTIONS) for p in seats]
        self.plant_rows = [_plant_rows_of(plant) for plant in self.plant]


def _moves_at(
    kind: Callable[[int, Any], Any], player: int, spots: Sequence[Any]
) -> tuple[Any, ...]:
    """``kind(player, spot)`` for every spot (square, intersection or direction), in order."""
    return tuple(kind(player, spot) for spot in spots)


def _plant_moves_of(
    player: int, ints: list[tuple[int, int]]
) -> dict[int, tuple[mv.PlantTree, ...]]:
    """A seat's PlantTree moves, by value, in intersection order."""
    return {v: tuple(mv.PlantTree(player, v, at) for at in ints) for v in (1, 2, 3, 4)}


def _tiles_left_of(tiles: dict[int, mv.ChooseTile]) -> tuple[tuple[mv.ChooseTile, ...], ...]:
    """A seat's ChooseTile moves of its unspent tiles, by spent-tile bit mask."""
    return tuple(
        tuple(tiles[t] for t in LEAF_TILES if not used >> t & 1)
        for used in range(ALL_TILES_MASK + 1)
    )


def _plant_rows_of(
    plant: dict[int, tuple[mv.PlantTree, ...]],
) -> tuple[tuple[tuple[mv.PlantTree, ...], ...], ...]:
    """A seat's rows of plant moves of the values it may still plant, by planted code."""
    return tuple(tuple(plant[v] for v in values) for values in VALUES_LEFT)


_TABLES: dict[tuple[int, int], _MoveTable] = {}


def _move_table(size: int, players: int) -> _MoveTable:
    key = (size, players)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = _MoveTable(size, players)
    return table
