"""The Bosk game: options, the rules (legal moves and transitions), saved states.

``BoskGame`` is a frozen value: its options are the rules variant. States hand
every rules question over to their game, so this module is the one place the
rules of ``rules/bosk.md`` live, season by season.
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter
from typing import Any

import attrs
import numpy as np

from forestgames._codec import cached_codec  # codec wiring
from forestgames.bosk import moves as mv
from forestgames.bosk._tables import (
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
from forestgames.bosk.actions import BoskCodec  # codec wiring
from forestgames.bosk.scoring import summer_scores, winter_scores
from forestgames.bosk.state import BoskState, Phase, load_state
from forestgames.core import (
    ConfigError,
    GameTraits,
    check_bool_option,
    check_option_names,
    check_player_count,
    check_seat,
    new_rng,
    replace,
    resolve_seed,
)

__all__ = ["BoskGame", "OPTION_NAMES"]

OPTION_NAMES = ("num_players", "terrain", "squirrel_exactly_three", "ties_include_start")


def _check_terrain(terrain: Any, size: int) -> np.ndarray:
    try:
        grid = np.array(terrain)
    except (TypeError, ValueError) as error:
        raise ConfigError(f"terrain must be an {size}x{size} array of ints: {error}") from None
    if grid.shape != (size, size):
        raise ConfigError(f"terrain must be {size}x{size} for this player count, not {grid.shape}")
    if grid.dtype.kind not in "iu" and not (
        grid.dtype.kind == "f" and np.all(grid == grid.round())
    ):
        raise ConfigError(f"terrain must hold integer type ids, not {grid.dtype}")
    if grid.min() < 0 or grid.max() >= NUM_TERRAINS:
        raise ConfigError(
            f"terrain ids must be 0..{NUM_TERRAINS - 1}, found {grid.min()}..{grid.max()}"
        )
    grid = grid.astype(np.int8)
    grid.flags.writeable = False
    return grid


@attrs.frozen(repr=False)
class BoskGame:
    """Bosk for 2–4 players with its options fixed. Build with ``BoskGame.create``.

    Options (see docs/bosk.md, "Choices"):

    * ``terrain``: S×S terrain ids 0..7 (S = 8, 10, 12 for 2, 3, 4 players);
      default: the shipped map of that size.
    * ``squirrel_exactly_three``: the squirrel moves exactly three steps
      (default False: one to three, the French how-to's "jusqu'à trois").
    * ``ties_include_start``: when ties for start player are broken clockwise
      from the (previous) start player, that player itself is reached first
      (default True); False starts the search at the next seat.
    """

    name = "bosk"

    num_players: int
    terrain: np.ndarray = attrs.field(eq=attrs.cmp_using(eq=np.array_equal), hash=False)
    squirrel_exactly_three: bool = False
    ties_include_start: bool = True
    # Derived from num_players once (read on every move): not options.
    size: int = attrs.field(init=False, eq=False, hash=False, repr=False)
    geometry: Geometry = attrs.field(init=False, eq=False, hash=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "size", BOARD_SIZE[self.num_players])
        object.__setattr__(self, "geometry", geometry(self.size))

    @classmethod
    def create(cls, **options: Any) -> BoskGame:
        """Validate ``options`` (see the class docstring); ConfigError names a bad one."""
        check_option_names("Bosk", options, OPTION_NAMES)
        players = check_player_count("Bosk", options.get("num_players", 2), 2, 4)
        size = BOARD_SIZE[players]
        terrain = options.get("terrain")
        grid = DEFAULT_TERRAIN[size] if terrain is None else _check_terrain(terrain, size)
        return cls(
            players,
            grid,
            check_bool_option(
                "squirrel_exactly_three", options.get("squirrel_exactly_three", False)
            ),
            check_bool_option("ties_include_start", options.get("ties_include_start", True)),
        )

    def __repr__(self) -> str:
        return f"BoskGame.create(**{self.options()!r})"

    # ------------------------------------------------------------------ description

    @property
    def traits(self) -> GameTraits:
        p = self.num_players
        # spring 8P, wind 1, each autumn turn: tree, tile and at most 8 leaves
        return GameTraits("bosk", 2, 4, True, False, False, 8 * p + 1 + 8 * p * 10, (0, 200))

    def options(self) -> dict[str, Any]:
        """The options that rebuild this game with ``make("bosk", **options)``."""
        result: dict[str, Any] = {"num_players": self.num_players}
        if not np.array_equal(self.terrain, DEFAULT_TERRAIN[self.size]):
            result["terrain"] = self.terrain.tolist()
        result["squirrel_exactly_three"] = self.squirrel_exactly_three
        result["ties_include_start"] = self.ties_include_start
        return result

    # codec wiring: integer actions and tensors (forestgames.bosk.actions)

    @property
    def codec(self) -> BoskCodec:  # codec wiring
        return cached_codec(self, BoskCodec)  # type: ignore[no-any-return]

    @property
    def num_actions(self) -> int:  # codec wiring
        return self.codec.num_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:  # codec wiring
        return self.codec.observation_shape

    def action_id(self, move: Any) -> int:  # codec wiring
        return self.codec.action_id(move)

    def move_from_id(self, action_id: Any, player: Any) -> Any:  # codec wiring
        return self.codec.move_from_id(action_id, player)

    def parse_move(self, text: str) -> mv.BoskMove:
        """The move written as ``text``; ParseError if it is not Bosk notation."""
        return mv.parse_move(text)

    # ------------------------------------------------------------------ new game

    def new_game(self, seed: int | None = None, first_player: int | None = None) -> BoskState:
        """Spring, nothing placed; the start player drawn from ``seed`` unless given."""
        seed = resolve_seed(seed)
        p = self.num_players
        if first_player is None:
            first_player = int(new_rng(seed).integers(p))
        first_player = check_seat(p, first_player, "first_player")
        g = self.geometry
        return BoskState(
            game=self,
            phase=Phase.SPRING,
            round=0,
            order=self.clockwise_from(first_player),
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

    def clockwise_from(self, seat: int) -> tuple[int, ...]:
        """All seats in clockwise order starting with ``seat``."""
        p = self.num_players
        return tuple((seat + k) % p for k in range(p))

    def first_reached(self, candidates: set[int], start: int) -> int:
        """The candidate reached first going clockwise from ``start`` (see ties_include_start)."""
        order = self.clockwise_from(start)
        if not self.ties_include_start:
            order = order[1:] + order[:1]
        return next(seat for seat in order if seat in candidates)

    # ------------------------------------------------------------------ legal moves

    def legal_moves_of(self, state: BoskState, player: int) -> tuple[mv.BoskMove, ...]:
        """The moves of ``player`` now (empty when it is not their decision)."""
        if player != state.current_player:
            return ()
        table = _move_table(self.size, self.num_players)
        phase = state.phase
        if phase is Phase.LEAVES:
            leaf = table.leaf[player]
            return tuple(leaf[s] for s in self.leaf_targets(state))
        if phase is Phase.SPRING:
            pick = itemgetter(
                *compress(self.geometry.intersection_ids, map(_EMPTY, state.owners)), 0
            )
            plant = table.plant[player]
            return sum((pick(plant[v])[:-1] for v in self.values_to_plant(state, player)), ())
        if phase is Phase.TREE:
            choose = table.tree[player]
            return tuple(choose[t] for t in self.choosable_trees(state, player))
        if phase is Phase.TILE:
            tile = table.tile[player]
            return tuple(tile[t] for t in state.tiles_left(player))
        if phase is Phase.SQUIRREL:
            squirrel = table.squirrel[player]
            return tuple(squirrel[s] for s in self.squirrel_targets(state))
        if phase is Phase.WIND:
            return table.wind[player]
        return ()

    def values_to_plant(self, state: BoskState, player: int) -> tuple[int, ...]:
        """Distinct values of ``player``'s trees not yet planted."""
        values = state.values
        planted = [values[t] for t in _positions(state.owners, player)]
        return tuple(v for v in (1, 2, 3, 4) if planted.count(v) < TREES_PER_VALUE)

    def choosable_trees(self, state: BoskState, player: int) -> list[int]:
        """Intersections of ``player``'s trees allowed this round (value = round in 1–4)."""
        mine = _positions(state.owners, player)
        if state.round > 4:
            return mine
        values = state.values
        return [t for t in mine if values[t] == state.round]

    def leaf_cost(self, state: BoskState, square: int, player: int) -> int | None:
        """Extra leaves returned to lay one on ``square``; None if it can never take one."""
        if square in state.squirrels:
            return None
        stack = state.stacks[square]
        if not stack or stack[-1] == player:
            return 0
        return len(stack)

    def leaf_targets(self, state: BoskState) -> list[int]:
        """Squares the next leaf may go on (base squares first, then one step downwind)."""
        g = self.geometry
        wind = state.wind
        assert wind is not None
        candidates = g.base[wind][state.tree] if state.last < 0 else g.next[wind][state.last]
        player = state.order[state.turn]
        squirrels = state.squirrels
        stacks = state.stacks
        active = state.active
        targets = []
        for s in candidates:
            if s in squirrels:
                continue
            stack = stacks[s]
            if stack and stack[-1] != player and len(stack) >= active:
                continue  # covering k leaves needs k + 1 active leaves
            targets.append(s)
        return targets

    def squirrel_targets(self, state: BoskState) -> list[int]:
        """Squares the squirrel may stop on: 1–3 steps (or exactly 3), free of squirrels."""
        wind = state.wind
        assert wind is not None
        steps = self.geometry.squirrel_reach[wind][state.tree]
        reach = steps[-1] if self.squirrel_exactly_three else steps[0] | steps[1] | steps[2]
        return sorted(s for s in reach if s not in state.squirrels)

    # ------------------------------------------------------------------ why a move is illegal

    def is_legal(self, state: BoskState, move: Any) -> bool:
        """Whether ``move`` is legal in ``state`` (spring checked directly, for speed)."""
        if state.phase is not Phase.SPRING:
            return move in state.legal_moves(move.player)
        if type(move) is not mv.PlantTree or move.player != state.current_player:
            return False
        n = self.size - 1
        if not _on_grid(move.at, n) or state.owners[move.at[0] * n + move.at[1]] >= 0:
            return False
        value = move.value
        return type(value) is int and value in self.values_to_plant(state, move.player)

    def why_illegal(self, state: BoskState, move: Any) -> str:
        """A message naming the rule ``move`` breaks in ``state``."""
        expected = {
            Phase.SPRING: mv.PlantTree,
            Phase.WIND: mv.ChooseWind,
            Phase.TREE: mv.ChooseTree,
            Phase.TILE: mv.ChooseTile,
            Phase.LEAVES: mv.PlaceLeaf,
            Phase.SQUIRREL: mv.PlaceSquirrel,
        }[state.phase]
        if not isinstance(move, mv.BoskMove):  # type: ignore[arg-type,misc]
            return f"{move!r} is not a Bosk move"
        if move.player != state.current_player:
            return f"{move}: it is seat {state.current_player}'s turn, not seat {move.player}'s"
        if not isinstance(move, expected):
            return f"{move}: in the {state.phase.value} step the move is a {expected.__name__}"
        if isinstance(move, mv.ChooseWind):
            return f"{move}: the wind is one of {', '.join(DIRECTIONS)}"
        if isinstance(move, mv.ChooseTile):
            if move.tile not in LEAF_TILES:
                return f"{move}: a leaf tile is 2..8 or the squirrel (1)"
            return f"{move}: tile {move.tile} is already spent"
        at = move.at  # type: ignore[union-attr]
        if isinstance(move, mv.PlantTree | mv.ChooseTree):
            n = self.size - 1
            if not _on_grid(at, n):
                return f"{move}: trees stand on intersections (0..{n - 1}, 0..{n - 1}) only"
            t = at[0] * n + at[1]
            if isinstance(move, mv.ChooseTree):
                if state.owners[t] != move.player:
                    return f"{move}: seat {move.player} has no tree at {at}"
                return f"{move}: round {state.round} needs a tree of value {state.round}"
            if move.value not in (1, 2, 3, 4):
                return f"{move}: tree values are 1..4"
            if state.owners[t] >= 0:
                return f"{move}: intersection {at} already has a tree"
            return f"{move}: seat {move.player} has no tree of value {move.value} left to plant"
        if not _on_grid(at, self.size):
            return f"{move}: squares are (0..{self.size - 1}, 0..{self.size - 1})"
        s = at[0] * self.size + at[1]
        if s in state.squirrels:
            return f"{move}: square {at} holds a squirrel; nothing goes on it"
        if isinstance(move, mv.PlaceSquirrel):
            steps = "exactly 3" if self.squirrel_exactly_three else "1 to 3"
            return f"{move}: the squirrel moves {steps} steps downwind ({state.wind}) of its tree"
        cost = self.leaf_cost(state, s, move.player)
        if cost and cost >= state.active:
            return (
                f"{move}: covering {cost} leaves there needs {cost + 1} active leaves, "
                f"only {state.active} left"
            )
        return f"{move}: the next leaf goes one step downwind ({state.wind}) of the last one"

    # ------------------------------------------------------------------ transitions

    def apply_move(self, state: BoskState, move: mv.BoskMove) -> BoskState:
        """The state after legal ``move`` (the caller has checked legality)."""
        if isinstance(move, mv.PlaceLeaf):
            return self._place_leaf(state, move.at[0] * self.size + move.at[1])
        if isinstance(move, mv.PlantTree):
            return self._plant(state, move)
        if isinstance(move, mv.ChooseTree):
            t = move.at[0] * (self.size - 1) + move.at[1]
            return replace(state, phase=Phase.TILE, tree=t)
        if isinstance(move, mv.ChooseTile):
            return self._choose_tile(state, move.player, move.tile)
        if isinstance(move, mv.PlaceSquirrel):
            square = move.at[0] * self.size + move.at[1]
            squirrels = _set(state.squirrels, move.player, square)
            return self._end_turn(replace(state, squirrels=squirrels))
        assert isinstance(move, mv.ChooseWind)
        return replace(
            state, phase=Phase.TREE, round=1, first_wind=DIRECTIONS.index(move.direction)
        )

    def _plant(self, state: BoskState, move: mv.PlantTree) -> BoskState:
        t = move.at[0] * (self.size - 1) + move.at[1]
        state = replace(
            state,
            owners=_set(state.owners, t, move.player),
            values=_set(state.values, t, int(move.value)),
            turn=state.turn + 1,
        )
        if state.turn < len(TREE_VALUES) * self.num_players:
            return state
        return self._summer(state)

    def _summer(self, state: BoskState) -> BoskState:
        """Score summer and hand the wind choice to the autumn start player."""
        summer = tuple(
            int(x) for x in summer_scores(state.tree_owner, state.tree_value, self.num_players)
        )
        fewest = min(summer)
        start = self.first_reached({p for p, s in enumerate(summer) if s == fewest}, state.order[0])
        return replace(
            state, phase=Phase.WIND, summer=summer, order=self.clockwise_from(start), turn=0
        )

    def _choose_tile(self, state: BoskState, player: int, tile: int) -> BoskState:
        state = replace(
            state,
            tiles_used=_set(state.tiles_used, player, state.tiles_used[player] | 1 << tile),
            round_tiles=_set(state.round_tiles, player, tile),
        )
        if tile == SQUIRREL:
            state = replace(state, phase=Phase.SQUIRREL)
            return state if self.squirrel_targets(state) else self._end_turn(state)
        state = replace(state, phase=Phase.LEAVES, active=tile)
        return state if self.leaf_targets(state) else self._end_turn(state)

    def _place_leaf(self, state: BoskState, square: int) -> BoskState:
        player = state.order[state.turn]
        stack = state.stacks[square]
        cost = len(stack) if stack and stack[-1] != player else 0
        state = replace(
            state,
            stacks=_set(state.stacks, square, stack + (player,)),
            active=state.active - cost - 1,
            last=square,
        )
        if state.active and self.leaf_targets(state):
            return state
        return self._end_turn(state)

    def _end_turn(self, state: BoskState) -> BoskState:
        """Remove the tree, return unused leaves, pass to the next seat or end the round."""
        t = state.tree
        turn = state.turn + 1
        common = {
            "owners": _set(state.owners, t, -1),
            "values": _set(state.values, t, 0),
            "tree": -1,
            "active": 0,
            "last": -1,
        }
        if turn < self.num_players:
            return replace(state, phase=Phase.TREE, turn=turn, **common)
        if state.round == ROUNDS:
            state = replace(state, phase=Phase.OVER, turn=0, **common)
            winter = winter_scores(state.top, self.terrain, self.num_players)
            return replace(state, winter=tuple(int(x) for x in winter))
        lowest = min(state.round_tiles)
        start = self.first_reached(
            {p for p, tile in enumerate(state.round_tiles) if tile == lowest}, state.order[0]
        )
        return replace(
            state,
            phase=Phase.TREE,
            round=state.round + 1,
            order=self.clockwise_from(start),
            turn=0,
            round_tiles=(0,) * self.num_players,
            **common,
        )

    # ------------------------------------------------------------------ saved states

    def state_to_dict(self, state: BoskState) -> dict[str, Any]:
        """The JSON-able form of ``state`` (see ``state_from_dict`` for its fields)."""
        s, n = self.size, self.size - 1
        return {
            "game": "bosk",
            "num_players": self.num_players,
            "phase": state.phase.value,
            "round": state.round,
            "order": list(state.order),
            "turn": state.turn,
            "trees": [
                [t // n, t % n, o, v]
                for t, (o, v) in enumerate(zip(state.owners, state.values, strict=True))
                if o >= 0
            ],
            "stacks": [[_stack_text(state, r * s + c) for c in range(s)] for r in range(s)],
            "tiles_used": [[t for t in LEAF_TILES if used >> t & 1] for used in state.tiles_used],
            "round_tiles": list(state.round_tiles),
            "first_wind": None if state.first_wind < 0 else DIRECTIONS[state.first_wind],
            "tree": None if state.tree < 0 else [state.tree // n, state.tree % n],
            "active": state.active,
            "last": None if state.last < 0 else [state.last // s, state.last % s],
            "summer": list(state.summer),
            "winter": list(state.winter),
        }

    def state_from_dict(self, data: Any) -> BoskState:
        """The state ``data`` describes (from ``to_dict``); StateError if it is malformed
        or inconsistent with the rules (nothing else is built)."""
        return load_state(self, data)


_EMPTY = (-1).__eq__


def _positions(values: tuple[int, ...], x: int) -> list[int]:
    """The indices where ``values`` holds ``x`` (a C-speed scan)."""
    found = []
    index = values.index
    i = -1
    try:
        while True:
            i = index(x, i + 1)
            found.append(i)
    except ValueError:
        return found


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


def _on_grid(at: Any, n: int) -> bool:
    return (
        isinstance(at, tuple)
        and len(at) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in at)
        and 0 <= at[0] < n
        and 0 <= at[1] < n
    )


def _stack_text(state: BoskState, square: int) -> str:
    text = "".join(str(seat) for seat in state.stacks[square])
    for seat, where in enumerate(state.squirrels):
        if where == square:
            text += f"S{seat}"
    return text


class _MoveTable:
    """Every possible move object of one board size and player count, built once."""

    def __init__(self, size: int, players: int) -> None:
        n = size - 1
        ints = [divmod(t, n) for t in range(n * n)]
        squares = [divmod(s, size) for s in range(size * size)]
        seats = range(players)
        self.plant = [
            {v: [mv.PlantTree(p, v, at) for at in ints] for v in (1, 2, 3, 4)} for p in seats
        ]
        self.tree = [[mv.ChooseTree(p, at) for at in ints] for p in seats]
        self.tile = [{t: mv.ChooseTile(p, t) for t in LEAF_TILES} for p in seats]
        self.leaf = [[mv.PlaceLeaf(p, at) for at in squares] for p in seats]
        self.squirrel = [[mv.PlaceSquirrel(p, at) for at in squares] for p in seats]
        self.wind = [tuple(mv.ChooseWind(p, d) for d in DIRECTIONS) for p in seats]


_TABLES: dict[tuple[int, int], _MoveTable] = {}


def _move_table(size: int, players: int) -> _MoveTable:
    key = (size, players)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = _MoveTable(size, players)
    return table
