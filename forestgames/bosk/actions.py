"""Bosk as integer actions and float32 tensors (for RL code, search and ``VectorBosk``).

Action ids, with S the side in squares, N = S - 1 intersections per side,
``t = row*N + col`` an intersection and ``s = row*S + col`` a square::

    PlantTree(v, t)     (v-1)*N² + t          [0, 4N²)
    ChooseWind(d)       4N² + "NESW".index(d)
    ChooseTree(t)       4N² + 4 + t
    ChooseTile(tile)    5N² + 4 + tile - 1    tile 1..8, 1 = SQUIRREL
    PlaceLeaf(s)        5N² + 12 + s
    PlaceSquirrel(s)    5N² + 12 + S² + s     num_actions = 5N² + 12 + 2S²

385, 617 and 905 ids for 2, 3 and 4 players. The observation tensor is flat:
first the board planes, shape ``board_shape = (C, S, S)`` (intersection
``(i, j)`` at ``[i, j]``, its last row and column unused), then the fields
(see ``docs/bosk.md``, "Actions and tensors"); seats in observer order.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from forestgames._codec import CodecBase, IdentityCache, Layout, seat_order
from forestgames.bosk._tables import DIRECTIONS, LEAF_TILES, NUM_TERRAINS, ROUNDS
from forestgames.bosk.moves import (
    ChooseTile,
    ChooseTree,
    ChooseWind,
    PlaceLeaf,
    PlaceSquirrel,
    PlantTree,
)
from forestgames.bosk.state import Phase

__all__ = ["BoskCodec", "PHASES"]

PHASES: tuple[Phase, ...] = tuple(Phase)
"""Phases in the order of the tensor's one-hot ``phase`` field."""
_PHASE_INDEX = {phase: k for k, phase in enumerate(PHASES)}


class _View(NamedTuple):
    """The fields a tensor is made of, taken from a state or from an observation dict."""

    observer: int
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


def _layout(p: int, size: int) -> Layout:
    sq = (size, size)
    layout = Layout()
    layout.add("trees", (p, 4, *sq), "seat's tree of value 1..4 on intersection [i, j], one-hot")
    layout.add("terrain", (NUM_TERRAINS, *sq), "terrain type of each square, one-hot")
    layout.add("top", (p, *sq), "the seat whose leaf or squirrel tops the square")
    layout.add("height", (1, *sq), "leaves on the square")
    layout.add("squirrel", (p, *sq), "the seat's squirrel on the square")
    layout.add("stack", (ROUNDS * p, *sq), "level l of the stack: 1 + the leaf's seat, 0 none")
    layout.add("chosen_tree", (1, *sq), "the tree whose leaves fall this turn")
    layout.add("last_leaf", (1, *sq), "the square of the last leaf laid this turn")
    layout.add("phase", (len(PHASES),), "spring, wind, tree, tile, leaves, squirrel, over")
    layout.add("round", (1,), "autumn round 1..8 (0 before autumn)")
    layout.add("wind", (4,), "this round's wind N, E, S, W, one-hot (none before autumn)")
    layout.add("first_wind", (4,), "round 1's wind, one-hot")
    layout.add("order_start", (p,), "the seat that starts this round's turn order")
    layout.add("turn", (1,), "turns taken in the round (spring: trees planted)")
    layout.add("to_move", (p,), "the seat to move")
    layout.add("active", (1,), "active leaves left in the path under way")
    layout.add("tiles_used", (p, len(LEAF_TILES)), "spent leaf tiles 1..8 (1 = squirrel)")
    layout.add("round_tiles", (p, len(LEAF_TILES) + 1), "tile played this round, 0 = none")
    layout.add("summer", (p,), "summer points")
    layout.add("winter", (p,), "winter points")
    return layout


class BoskCodec(CodecBase):
    """Integer actions and observation tensors of one Bosk game (its options fixed)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        size = self.size = game.size
        n = self.n = size - 1
        self.wind_base = 4 * n * n
        self.tree_base = self.wind_base + 4
        self.tile_base = 5 * n * n + 4
        self.leaf_base = 5 * n * n + 12
        self.squirrel_base = self.leaf_base + size * size
        self.num_actions = self.squirrel_base + size * size
        p = self.num_players
        self.layout = _layout(p, size)
        self.board_shape = (self.layout.offset["phase"] // (size * size), size, size)
        self.observation_shape = (self.layout.size,)
        self._square_of_point = np.array([i * size + j for i in range(n) for j in range(n)])
        terrain = np.zeros((NUM_TERRAINS, size * size), np.float32)
        terrain[np.asarray(game.terrain).ravel(), np.arange(size * size)] = 1.0
        self._terrain = terrain.ravel()
        self._rel = [np.array(seat_order(obs, p)) for obs in range(p)]
        self._trees = IdentityCache(16)
        self._boards = IdentityCache(16)
        self._decoded: dict[tuple[int, int], Any] = {}

    # ------------------------------------------------------------------ ids

    def _point(self, at: Any, side: int) -> int | None:
        if type(at) is not tuple or len(at) != 2:
            return None
        r, c = at
        if type(r) is not int or type(c) is not int or not (0 <= r < side and 0 <= c < side):
            return None
        return r * side + c

    def _encode(self, move: Any) -> int | None:
        kind = type(move)
        if kind is PlaceLeaf or kind is PlaceSquirrel:
            s = self._point(move.at, self.size)
            base = self.leaf_base if kind is PlaceLeaf else self.squirrel_base
            return None if s is None else base + s
        if kind is PlantTree:
            t = self._point(move.at, self.n)
            value = move.value
            if t is None or type(value) is not int or not 1 <= value <= 4:
                return None
            return int((value - 1) * self.n * self.n + t)
        if kind is ChooseTree:
            t = self._point(move.at, self.n)
            return None if t is None else self.tree_base + t
        if kind is ChooseTile:
            tile = move.tile
            ok = type(tile) is int and tile in LEAF_TILES
            return int(self.tile_base + tile - 1) if ok else None
        if kind is ChooseWind and move.direction in DIRECTIONS:
            return int(self.wind_base + DIRECTIONS.index(move.direction))
        return None

    def _decode(self, action_id: int, player: int) -> Any:
        key = (action_id, player)
        move = self._decoded.get(key)
        if move is None:
            move = self._decoded[key] = self._build(action_id, player)
        return move

    def _build(self, action_id: int, player: int) -> Any:
        n, size = self.n, self.size
        if action_id >= self.squirrel_base:
            return PlaceSquirrel(player, divmod(action_id - self.squirrel_base, size))
        if action_id >= self.leaf_base:
            return PlaceLeaf(player, divmod(action_id - self.leaf_base, size))
        if action_id >= self.tile_base:
            return ChooseTile(player, action_id - self.tile_base + 1)
        if action_id >= self.tree_base:
            return ChooseTree(player, divmod(action_id - self.tree_base, n))
        if action_id >= self.wind_base:
            return ChooseWind(player, DIRECTIONS[action_id - self.wind_base])
        value, t = divmod(action_id, n * n)
        return PlantTree(player, value + 1, divmod(t, n))

    # ------------------------------------------------------------------ masks

    def legal_ids(self, state: Any, player: int) -> list[int]:
        """The ids of ``state.legal_moves(player)``; spring straight from the board."""
        if state.phase is not Phase.SPRING or player != state.current_player:
            return super().legal_ids(state, player)
        n2 = self.n * self.n
        empty = [t for t, owner in enumerate(state.owners) if owner < 0]
        values = self.game.values_to_plant(state, player)
        return [(v - 1) * n2 + t for v in values for t in empty]

    # ------------------------------------------------------------------ tensors

    def tensor(self, state: Any, player: int) -> np.ndarray:
        """The observation tensor of seat ``player``, straight from ``state``."""
        cached = self._cached_tensor(state, player)
        if cached is not None:
            return cached
        player = self.check_seat(player)
        view = _View(
            player, state.phase, state.round, state.order, state.turn, state.owners,
            state.values, state.stacks, state.squirrels, state.tiles_used, state.round_tiles,
            state.first_wind, state.tree, state.active, state.last, state.summer, state.winter,
        )  # fmt: skip
        return self._store_tensor(state, player, self._encode_view(view))

    def tensor_from_observation(self, observation: dict[str, Any]) -> np.ndarray:
        """The observation tensor built from ``state.observation(player)`` alone."""
        obs = observation
        n, size, p = self.n, self.size, self.num_players
        owners, values = [-1] * (n * n), [0] * (n * n)
        for r, c, owner, value in obs["trees"]:
            owners[r * n + c], values[r * n + c] = owner, value
        stacks: list[tuple[int, ...]] = []
        squirrels = [-1] * p
        for r, row in enumerate(obs["stacks"]):
            for c, text in enumerate(row):
                leaves, _, squirrel = text.partition("S")
                stacks.append(tuple(int(ch) for ch in leaves))
                if squirrel:
                    squirrels[int(squirrel)] = r * size + c
        wind = obs["first_wind"]
        view = _View(
            observer=obs["observer"],
            phase=Phase(obs["phase"]),
            round=obs["round"],
            order=tuple(obs["order"]),
            turn=obs["turn"],
            owners=tuple(owners),
            values=tuple(values),
            stacks=tuple(stacks),
            squirrels=tuple(squirrels),
            tiles_used=tuple(sum(1 << t for t in used) for used in obs["tiles_used"]),
            round_tiles=tuple(obs["round_tiles"]),
            first_wind=-1 if wind is None else DIRECTIONS.index(wind),
            tree=-1 if obs["tree"] is None else obs["tree"][0] * n + obs["tree"][1],
            active=obs["active"],
            last=-1 if obs["last"] is None else obs["last"][0] * size + obs["last"][1],
            summer=tuple(obs["summer"]),
            winter=tuple(obs["winter"]),
        )
        return self._encode_view(view)

    def _tree_index(self, v: _View) -> np.ndarray:
        """Tensor positions of the trees (cached by the identity of the owners tuple)."""
        hit = self._trees.get(v.owners, v.observer)
        if hit is not None and hit[0] is v.values:
            return hit[1]  # type: ignore[no-any-return]
        owners = np.array(v.owners)
        planted = np.flatnonzero(owners >= 0)
        plane = self._rel[v.observer][owners[planted]] * 4 + np.array(v.values)[planted] - 1
        index: np.ndarray = plane * (self.size * self.size) + self._square_of_point[planted]
        self._trees.put(v.owners, v.observer, (v.values, index))
        return index

    def _board(self, v: _View) -> tuple[list[int], list[float]]:
        """Positions and values of the leaf planes (top, height, squirrel, stack)."""
        hit = self._boards.get(v.stacks, v.observer)
        if hit is not None and hit[0] is v.squirrels:
            return hit[1]  # type: ignore[no-any-return]
        at = self.layout.offset
        ss = self.size * self.size
        rel = seat_order(v.observer, self.num_players)
        squirrel_on = {s: seat for seat, s in enumerate(v.squirrels) if s >= 0}
        index: list[int] = []
        value: list[float] = []
        top, height, stack = at["top"], at["height"], at["stack"]
        for s, leaves in enumerate(v.stacks):
            if leaves:
                if s not in squirrel_on:  # a squirrel tops its square, not the leaf below
                    index.append(top + rel[leaves[-1]] * ss + s)
                    value.append(1.0)
                index.append(height + s)
                value.append(float(len(leaves)))
                for level, seat in enumerate(leaves):
                    index.append(stack + level * ss + s)
                    value.append(1.0 + rel[seat])
        for s, seat in squirrel_on.items():
            index += (top + rel[seat] * ss + s, at["squirrel"] + rel[seat] * ss + s)
            value += (1.0, 1.0)
        self._boards.put(v.stacks, v.observer, (v.squirrels, (index, value)))
        return index, value

    def _encode_view(self, v: _View) -> np.ndarray:
        at = self.layout.offset
        p = self.num_players
        rel = seat_order(v.observer, p)
        out = np.zeros(self.layout.size, np.float32)
        terrain = at["terrain"]
        out[terrain : terrain + self._terrain.size] = self._terrain
        out[at["trees"] + self._tree_index(v)] = 1.0
        index, value = self._board(v)
        out[index] = value
        index = [at["phase"] + _PHASE_INDEX[v.phase], at["round"], at["turn"], at["active"]]
        value = [1.0, float(v.round), float(v.turn), float(v.active)]
        if v.tree >= 0:
            index.append(at["chosen_tree"] + self._square_of_point[v.tree])
            value.append(1.0)
        if v.last >= 0:
            index.append(at["last_leaf"] + v.last)
            value.append(1.0)
        if v.first_wind >= 0:
            index.append(at["first_wind"] + v.first_wind)
            value.append(1.0)
            if v.round >= 1:
                index.append(at["wind"] + (v.first_wind + v.round - 1) % 4)
                value.append(1.0)
        index.append(at["order_start"] + rel[v.order[0]])
        value.append(1.0)
        if v.phase is not Phase.OVER:
            index.append(at["to_move"] + rel[v.order[v.turn % p]])
            value.append(1.0)
        for seat in range(p):
            k = rel[seat]
            used = v.tiles_used[seat]
            for tile in LEAF_TILES:
                if used >> tile & 1:
                    index.append(at["tiles_used"] + k * 8 + tile - 1)
                    value.append(1.0)
            index += (at["round_tiles"] + k * 9 + v.round_tiles[seat], at["summer"] + k)
            value += (1.0, float(v.summer[seat]))
            index.append(at["winter"] + k)
            value.append(float(v.winter[seat]))
        out[index] = value
        return out
