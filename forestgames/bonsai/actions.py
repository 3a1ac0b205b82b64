"""Bonsai as integer actions and float32 tensors (for RL code and search).

A tree grows on the table, without a board: the action space covers every
cell a tile can ever reach, a bound derived from the rules.

* One player gains at most ``W`` wood tiles in a game: one starting wood, and
  per Zen card taken one from its slot (slot 2 or 3) plus a Master card's wood
  and wild tiles. Pruning removes leaves only, and the supply is unlimited,
  so no tree ever holds more than ``W`` wood tiles besides the bud.
* Wood touches wood, joined to the bud (or, with ``wood_beside_pot``, to a
  cell beside the pot) and never on the pot; a leaf touches wood; a flower
  touches a leaf; a fruit touches two leaves. So a wood tile lies within ``W``
  steps of the bud (a cell beside the pot counting as step 1) by a path of
  cells off the pot, a leaf within ``W + 1``, a flower or fruit within ``W + 2``.

``codec.cells`` are the cells off the pot within ``R = W + 2`` such steps, ordered by
``(r, q)``: 4 656 cells for 1-2 players (W = 38), 9 216 for 3 (W = 54) and
10 596 for 4 (W = 58); 5 400, 10 248 and 11 700 with ``wood_beside_pot``.
Action ids, C = len(CELLS), ``c`` a cell's index::

    Meditate(slot, tile, wild)   0..24      slot 1..4 in turn; slot 2 names wood or leaf;
                                            wild None, wood, leaf, flower, fruit
    Finish                       25
    Discard(kind)                26 + kind  kind 0 wood, 1 leaf, 2 flower, 3 fruit
    ClaimGoal(goal)              30 + goal  goal = colour index * 3 + tier - 1
    RenounceGoal(goal)           45 + goal
    Place(kind, cell)            60 + kind*C + c
    Prune(cell)                  60 + 4C + c           num_actions = 60 + 5C

The observation tensor (``observation_shape = (D,)``) holds the fields of
``docs/bonsai.md``, "Actions and tensors"; seats in observer order; each
tree as its list of tiles (at most ``T`` of them, the most tiles one player
can gain), so it is exact whatever the tree's shape.
"""

from __future__ import annotations

import functools
from array import array
from bisect import bisect_left
from collections import deque
from collections.abc import Callable
from itertools import repeat
from operator import itemgetter
from typing import Any, NamedTuple

import numpy as np

from forestgames._codec import CodecBase, Layout, Pieces, float32_bytes
from forestgames.bonsai._tables import (
    BESIDE_POT,
    BUD,
    CARD_NAMES,
    CARD_TYPES,
    COORD_LIMIT,
    DIRECTIONS,
    GOAL_IDS,
    GOALS,
    KIND_INDEX,
    KINDS,
    MARKET_SIZE,
    POT_CELLS,
    SLOT_CHOICE,
    SLOT_TILES,
    SOLO_STARTING_TILES,
    STARTING_TILES,
    WOOD,
    CardKind,
    cell_of,
    deck_counts,
    qr_of,
)
from forestgames.bonsai.moves import (
    ClaimGoal,
    Discard,
    Finish,
    Meditate,
    Place,
    Prune,
    RenounceGoal,
)
from forestgames.bonsai.state import SYMBOL_NAMES, Phase
from forestgames.core import StateError, as_bool, as_int

__all__ = ["MEDITATIONS", "BonsaiCodec", "reachable_cells", "tile_bound", "wood_bound"]

_WILDS: tuple[str | None, ...] = (None, *(kind.value for kind in KINDS))
MEDITATIONS: tuple[tuple[int, str | None, str | None], ...] = tuple(
    (slot, tile, wild)
    for slot in range(1, MARKET_SIZE + 1)
    for tile in (("wood", "leaf") if slot == 2 else (None,))
    for wild in _WILDS
)
"""(slot, tile, wild) of Meditate ids 0..24."""
_MEDITATION_INDEX = {m: i for i, m in enumerate(MEDITATIONS)}
FINISH = len(MEDITATIONS)
DISCARD = FINISH + 1
CLAIM = DISCARD + len(KINDS)
RENOUNCE = CLAIM + len(GOALS)
PLACE = RENOUNCE + len(GOALS)
PHASES: tuple[Phase, ...] = tuple(Phase)
NUM_CARDS = len(CARD_TYPES)


def _master_tiles(card: int) -> tuple[int, int]:
    """(wood tiles, all tiles) a Master card can give (its wild tile counted as either)."""
    spec = CARD_TYPES[card]
    if spec.kind is not CardKind.MASTER:
        return (0, 0)
    return (spec.tiles[WOOD] + spec.wild, sum(spec.tiles) + spec.wild)


def _starting(num_players: int) -> tuple[tuple[int, int, int, int], ...]:
    return (SOLO_STARTING_TILES,) if num_players == 1 else STARTING_TILES[:num_players]


def _slot_gain(index: int, kind: int | None) -> int:
    """Tiles (of ``kind``, or of any kind) taken with the card of slot ``index + 1``."""
    tiles = SLOT_TILES[index]
    chosen = 1 if index + 1 == SLOT_CHOICE else 0  # slot 2: one wood or one leaf
    return (sum(tiles) if kind is None else tiles[kind]) + chosen


def wood_bound(num_players: int) -> int:
    """W: the most wood tiles one player can gain in a game of ``num_players``."""
    counts = deck_counts(num_players)
    start = max(tiles[WOOD] for tiles in _starting(num_players))
    slot = max(_slot_gain(k, WOOD) for k in range(MARKET_SIZE))
    return start + sum(n * (slot + _master_tiles(c)[0]) for c, n in enumerate(counts))


def tile_bound(num_players: int) -> int:
    """T: the most tiles one player can gain in a game (the longest tile list of a tree)."""
    counts = deck_counts(num_players)
    start = max(sum(tiles) for tiles in _starting(num_players))
    slot = max(_slot_gain(k, None) for k in range(MARKET_SIZE))
    return start + sum(n * (slot + _master_tiles(c)[1]) for c, n in enumerate(counts))


@functools.cache
def _cell_tables(
    radius: int, wood_beside_pot: bool
) -> tuple[tuple[tuple[int, int], ...], dict[int, int]]:
    """The cells of the Place and Prune ids, as (q, r) in id order, and each engine
    cell's index there: built once per radius and shared by every codec (read only)."""
    packed = reachable_cells(radius, wood_beside_pot)
    return tuple(map(qr_of, packed)), {cell: i for i, cell in enumerate(packed)}


def reachable_cells(radius: int, wood_beside_pot: bool) -> tuple[int, ...]:
    """Engine cells off the pot within ``radius`` steps of the bud (see the module
    docstring), sorted by ``(r, q)``; ConfigError unless ``radius`` is an int
    0..``COORD_LIMIT`` and ``wood_beside_pot`` a bool."""
    return _reachable_cells(
        as_int(radius, "reachable_cells: radius", 0, COORD_LIMIT),
        as_bool(wood_beside_pot, "reachable_cells: wood_beside_pot"),
    )


@functools.cache
def _reachable_cells(radius: int, wood_beside_pot: bool) -> tuple[int, ...]:
    """:func:`reachable_cells` of checked arguments, cached."""
    distance = {BUD: 0}
    queue = deque([BUD])
    if wood_beside_pot:
        for cell in BESIDE_POT:
            distance[cell] = 1
        queue.extend(sorted(BESIDE_POT))
    while queue:
        cell = queue.popleft()
        if distance[cell] == radius:
            continue
        for d in DIRECTIONS:
            near = cell + d
            if near not in distance and near not in POT_CELLS:
                distance[near] = distance[cell] + 1
                queue.append(near)
    del distance[BUD]
    return tuple(sorted(distance, key=lambda c: qr_of(c)[::-1]))


class _Seat(NamedTuple):
    tree: tuple[tuple[int, int, int], ...]  # the tiles (q, r, kind index)
    supply: tuple[int, ...]
    cards: tuple[int, ...]
    renounced: int


class _View(NamedTuple):
    observer: int
    phase: Phase
    first_player: int
    turn: int
    last_turn: int
    deck_size: int
    market: tuple[int, ...]
    discards: tuple[int, ...]
    seats: tuple[_Seat, ...]
    goals_in_play: int
    goal_owner: tuple[int, ...]
    symbols: tuple[int, ...]


def _layout(p: int, tiles: int, deck: int) -> Layout:
    layout = Layout()
    layout.add("phase", (len(PHASES),), "action, cultivate, helper, discard, goals, over")
    layout.add("first_player", (p,), "the first player, one-hot")
    layout.add("to_move", (p,), "the seat to move, one-hot")
    layout.add("turn", (1,), "turns before this one")
    layout.add("last_turn", (2,), "1 once the last turn is known, and its number")
    layout.add("deck_size", (1,), "cards left in the deck")
    layout.add("symbols", (len(SYMBOL_NAMES),), "placements left: wood, leaf, flower, fruit, wild")
    layout.add("market", (MARKET_SIZE, NUM_CARDS), "card type in slots 1..4, one-hot")
    layout.add("discards", (deck,), "solo discards in order: 1 + card type, 0 none")
    layout.add("goals_in_play", (len(GOALS),), "goal tiles in play (goal id order)")
    layout.add("supply", (p, len(KINDS)), "tiles in each seat's supply")
    layout.add("cards", (p, NUM_CARDS), "Zen cards held per type")
    layout.add("goals", (p, len(GOALS)), "goal tiles claimed")
    layout.add("renounced", (p, len(GOALS)), "goal tiles renounced")
    layout.add("tree_size", (p,), "tiles on the tree, the bud not counted")
    layout.add("tree", (p, tiles, 6), "tiles sorted by (q, r): q, r, wood, leaf, flower, fruit")
    return layout.seal()


class BonsaiCodec(CodecBase):
    """Integer actions and observation tensors of one Bonsai game (its options fixed)."""

    observation_bounds = (-1e6, 1e6)  # tile coordinates q and r may be negative

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        p = self.num_players
        self.wood_bound = wood_bound(p)
        self.tile_bound = tile_bound(p)
        self.radius = self.wood_bound + 2
        cells, self._cell_index = _cell_tables(self.radius, game.wood_beside_pot)
        self.cells: tuple[tuple[int, int], ...] = cells
        """The cells of the Place and Prune ids, as (q, r), in id order (sorted by (r, q))."""
        c = len(self.cells)
        self.prune_base = PLACE + 4 * c
        self.num_actions = self.prune_base + c
        self.layout = _layout(p, self.tile_bound, sum(deck_counts(p)))
        self.observation_shape = (self.layout.size,)
        self._zeros = array("f", bytes(4 * self.layout.size))
        self._pieces = _StatePieces(p, self.tile_bound, sum(deck_counts(p)))
        self._seats_from = [tuple((k + i) % p for i in range(p)) for k in range(p)]
        self._blocks: dict[int, _Block] = {}  # id(tree) -> its block (the tree kept alive)
        self._last_block: list[_Block] = [_EMPTY_BLOCK] * p  # per seat: a parent candidate
        self._recent: list[tuple[tuple[Any, ...], list[bytes]] | None] = [None] * p
        self._flags = bytearray(self.num_actions)  # all 0 between two masks
        self._encoders: dict[type, Callable[[Any], int | None]] = {
            Place: self._place_id,
            Meditate: self._meditate_id,
            Finish: self._finish_id,
            Discard: self._discard_id,
            Prune: self._prune_id,
            ClaimGoal: self._claim_id,
            RenounceGoal: self._renounce_id,
        }

    # ------------------------------------------------------------------ ids

    def _cell(self, at: Any) -> int | None:
        if type(at) is not tuple or len(at) != 2 or type(at[0]) is not int:
            return None
        if type(at[1]) is not int or max(abs(at[0]), abs(at[1])) > self.radius + 8:
            return None
        return self._cell_index.get(cell_of(*at))

    def _place_id(self, move: Any) -> int | None:
        """Place: a tile kind on a cell."""
        c, k = self._cell(move.at), KIND_INDEX.get(move.kind)
        return None if c is None or k is None else PLACE + k * len(self.cells) + c

    def _meditate_id(self, move: Any) -> int | None:
        """Meditate: a slot, its tile and wild choice."""
        return _MEDITATION_INDEX.get((move.slot, move.tile, move.wild))

    def _finish_id(self, move: Any) -> int:
        """Finish: its one id."""
        return FINISH

    def _discard_id(self, move: Any) -> int | None:
        """Discard: a tile kind."""
        k = KIND_INDEX.get(move.kind)
        return None if k is None else DISCARD + k

    def _prune_id(self, move: Any) -> int | None:
        """Prune: a cell."""
        c = self._cell(move.at)
        return None if c is None else self.prune_base + c

    def _claim_id(self, move: Any) -> int | None:
        """ClaimGoal: a goal (colour and tier)."""
        g = GOAL_IDS.get((move.colour, move.tier))
        return None if g is None else CLAIM + g

    def _renounce_id(self, move: Any) -> int | None:
        """RenounceGoal: a goal (colour and tier)."""
        g = GOAL_IDS.get((move.colour, move.tier))
        return None if g is None else RENOUNCE + g

    def _build(self, action_id: int, player: int) -> Any:
        if action_id >= PLACE:
            kind, c = divmod(action_id - PLACE, len(self.cells))
            at = self.cells[c]
            return Prune(player, at) if kind == 4 else Place(player, KINDS[kind].value, at)
        if action_id >= CLAIM:
            claim = action_id < RENOUNCE
            goal = GOALS[action_id - (CLAIM if claim else RENOUNCE)]
            return (ClaimGoal if claim else RenounceGoal)(player, goal.colour, goal.tier)
        if action_id >= DISCARD:
            return Discard(player, KINDS[action_id - DISCARD].value)
        if action_id == FINISH:
            return Finish(player)
        return Meditate(player, *MEDITATIONS[action_id])

    # ------------------------------------------------------------------ masks

    def _new_mask(self, state: Any, seat: int) -> tuple[bytes, np.ndarray]:
        """A fresh mask (Bonsai's are large and rarely repeat, so none is kept across
        states): the ids are set in one zeroed scratch buffer, copied once, and the
        buffer is zeroed again at the same ids."""
        ids = self._legal_ids(state, seat)
        flags = self._flags
        deque(map(flags.__setitem__, ids, repeat(1)), maxlen=0)
        try:
            frozen = bytes(flags)
        finally:
            deque(map(flags.__setitem__, ids, repeat(0)), maxlen=0)
        return frozen, np.frombuffer(frozen, np.int8)

    # ------------------------------------------------------------------ tensors

    # From a state, the tensor is joined from float32 pieces kept by what they are made
    # of (``_StatePieces``) and, per tree, a block kept by the tree's identity. A tree one
    # tile larger than the last tree seen for its seat (one placement) gets that tree's
    # block with one row inserted. ``tensor_from_observation`` writes every field itself.

    def _new_tensor(self, state: Any, player: int) -> np.ndarray:
        """The observation tensor of seat ``player``, straight from ``state`` (under the
        codec's lock: it uses the codec's shared tables and buffers)."""
        data = b"".join(self._state_pieces(state, player))
        return np.frombuffer(data, np.float32)

    def _state_pieces(self, state: Any, player: int) -> list[bytes]:
        """The tensor of ``state`` for ``player`` as float32 pieces, in layout order: the
        pieces of the last state this seat's tensor was made for, a group rebuilt only
        where its fields are other objects (read in one go from the state's fields)."""
        new = _TENSOR_FIELDS(state.__dict__)
        recent = self._recent[player]
        if recent is None:
            pieces = self._fresh_pieces(state, player)
        else:
            old, pieces = recent
            pieces = pieces.copy()
            if new[:5] != old[:5]:  # equal values give equal pieces
                pieces[0:2] = self._turn_pieces(state, player)
            if new[5] is not old[5]:
                pieces[2] = self._pieces.symbols[state.symbols]
            if new[6:9] != old[6:9]:
                pieces[3] = self._board_piece(state)
            if new[9] is not old[9]:
                pieces[4] = _rotated(self._pieces.supply, state.supplies, player)
            if new[10] is not old[10]:
                pieces[5] = _rotated(self._pieces.cards, state.cards, player)
            if new[11] is not old[11]:
                pieces[6] = self._pieces.goals[(state.goal_owner, player)]
            if new[12] is not old[12]:
                pieces[7] = _rotated(self._pieces.renounced, state.renounced, player)
            if new[13] is not old[13]:
                pieces[8:] = self._tree_pieces(state, player)
        self._recent[player] = (new, pieces)
        return pieces

    def _fresh_pieces(self, state: Any, k: int) -> list[bytes]:
        """Every piece of the tensor of ``state`` for seat ``k``."""
        t = self._pieces
        return [
            *self._turn_pieces(state, k),
            t.symbols[state.symbols],
            self._board_piece(state),
            _rotated(t.supply, state.supplies, k),
            _rotated(t.cards, state.cards, k),
            t.goals[(state.goal_owner, k)],
            _rotated(t.renounced, state.renounced, k),
            *self._tree_pieces(state, k),
        ]

    def _turn_pieces(self, state: Any, k: int) -> tuple[bytes, bytes]:
        """Phase, first player and seat to move; turn, last turn and deck size."""
        p, t, first = self.num_players, self._pieces, state.first_player
        to_move = -1 if state.phase is Phase.OVER else (first + state.turn - k) % p
        return (
            t.head[(PHASES.index(state.phase), (first - k) % p, to_move)],
            t.numbers[(state.turn, state.last_turn, len(state.deck))],
        )

    def _board_piece(self, state: Any) -> bytes:
        """Market, solo discards, goals in play."""
        return self._pieces.board[(state.market, state.discards, state.goals_in_play)]  # type: ignore[no-any-return]

    def _tree_pieces(self, state: Any, k: int) -> list[bytes]:
        """Tree sizes, then each tree's block, seats from ``k`` on."""
        trees = state.trees[k:] + state.trees[:k]
        blocks = list(map(self._block_of, trees, self._seats_from[k]))
        sizes = self._pieces.sizes[tuple(map(len, map(_ORDER, blocks)))]
        return [sizes, *map(_DATA, blocks)]

    def _block_of(self, tree: Any, seat: int) -> _Block:
        """The (T, 6) float32 tile rows of ``seat``'s ``tree`` (kept by the tree's identity)."""
        block = self._blocks.get(id(tree))
        if block is None or block.tree is not tree:
            blocks = self._blocks
            if len(blocks) >= _BLOCKS_LIMIT:
                blocks.clear()
            block = _grown_block(tree, self._last_block[seat], self._pieces.rows)
            if block is None:
                block = self._fresh_block(tree)
            blocks[id(tree)] = block
        self._last_block[seat] = block
        return block

    def _fresh_block(self, tree: Any) -> _Block:
        """The block of ``tree`` built row by row."""
        cells = tree._cells
        order = sorted(cells.keys() - {BUD})
        if len(order) > self.tile_bound:
            raise StateError(
                f"a tree of {len(order)} tiles: no Bonsai tree holds more than "
                f"{self.tile_bound} ({self.num_players} players)"
            )
        rows = map(self._pieces.rows.__getitem__, order)
        data = b"".join(map(tuple.__getitem__, rows, map(cells.__getitem__, order)))
        return _Block(tree, data + self._pieces.no_rows[len(data) :], order)

    def _tensor_from_observation(self, observation: dict[str, Any]) -> np.ndarray:
        """The observation tensor built from ``state.observation(player)`` alone."""
        obs = observation
        seats = []
        for s, data in enumerate(obs["players"]):
            tiles = tuple((q, r, KIND_INDEX[kind]) for q, r, kind in data["tree"])
            renounced = sum(1 << _goal(name) for name in obs["renounced"][s])
            seats.append(
                _Seat(
                    tiles,
                    tuple(data["supply"][kind.value] for kind in KINDS),
                    tuple(CARD_NAMES[name] for name in data["cards"]),
                    renounced,
                )
            )
        owner = [-1] * len(GOALS)
        for name, seat in obs["goal_owners"].items():
            owner[_goal(name)] = seat
        view = _View(
            observer=obs["observer"],
            phase=Phase(obs["phase"]),
            first_player=obs["first_player"],
            turn=obs["turn"],
            last_turn=-1 if obs["last_turn"] is None else obs["last_turn"],
            deck_size=obs["deck_size"],
            market=tuple(-1 if name is None else CARD_NAMES[name] for name in obs["market"]),
            discards=tuple(CARD_NAMES[name] for name in obs["discards"]),
            seats=tuple(seats),
            goals_in_play=sum(1 << _goal(name) for name in obs["goals_in_play"]),
            goal_owner=tuple(owner),
            symbols=tuple(obs["symbols"][name] for name in SYMBOL_NAMES),
        )
        return self._encode_view(view)

    def _tree_block(self, tiles: tuple[tuple[int, int, int], ...]) -> array[float]:
        """The (T, 6) tile list of a tree's ``(q, r, kind)`` tiles, flat."""
        block = array("f", bytes(4 * 6 * self.tile_bound))
        row = 0
        for q, r, kind in tiles:
            block[row] = q
            block[row + 1] = r
            block[row + 2 + kind] = 1.0
            row += 6
        return block

    def _encode_view(self, v: _View) -> np.ndarray:
        """The whole tensor of view ``v``."""
        return np.frombuffer(self._encode_buffer(v), np.float32).copy()

    def _encode_buffer(self, v: _View) -> array[float]:
        """The whole tensor of view ``v`` as a float32 ``array``."""
        buffer = array("f", bytes(4 * self.layout.size))
        p = self.num_players
        for seat, data in enumerate(v.seats):
            self._write_seat(buffer, (seat - v.observer) % p, data)
        self._write_turn(buffer, v)
        self._write_board(buffer, v)
        self._write_goals(buffer, v)
        return buffer

    def _write_seat(self, buffer: array[float], k: int, data: _Seat) -> None:
        """Seat ``k`` (observer order): supply, cards, renounced goals, tree."""
        self._write_supply(buffer, k, data.supply)
        self._write_cards(buffer, k, data.cards)
        self._write_renounced(buffer, k, data.renounced)
        self._write_tree(buffer, k, data.tree)

    def _write_supply(self, buffer: array[float], k: int, supply: tuple[int, ...]) -> None:
        start = self.layout.offset["supply"] + k * 4
        buffer[start : start + 4] = array("f", supply)

    def _write_cards(self, buffer: array[float], k: int, cards: tuple[int, ...]) -> None:
        start = self.layout.offset["cards"] + k * NUM_CARDS
        buffer[start : start + NUM_CARDS] = self._zeros[:NUM_CARDS]
        for card in cards:
            buffer[start + card] += 1.0

    def _write_renounced(self, buffer: array[float], k: int, renounced: int) -> None:
        start = self.layout.offset["renounced"] + k * len(GOALS)
        for g in range(len(GOALS)):
            buffer[start + g] = renounced >> g & 1

    def _write_tree(self, buffer: array[float], k: int, tree: Any) -> None:
        block = self._tree_block(tree)
        start = self.layout.offset["tree"] + k * len(block)
        buffer[start : start + len(block)] = block
        buffer[self.layout.offset["tree_size"] + k] = len(tree)

    def _write_turn(self, buffer: array[float], v: _View) -> None:
        """Phase, first player, seat to move, turn, last turn, deck size, symbols."""
        at = self.layout.offset
        p = self.num_players
        buffer[at["phase"] + PHASES.index(v.phase)] = 1.0
        buffer[at["first_player"] + (v.first_player - v.observer) % p] = 1.0
        buffer[at["turn"]] = v.turn
        buffer[at["deck_size"]] = v.deck_size
        if v.phase is not Phase.OVER:
            buffer[at["to_move"] + (v.first_player + v.turn - v.observer) % p] = 1.0
        if v.last_turn >= 0:
            buffer[at["last_turn"]] = 1.0
            buffer[at["last_turn"] + 1] = v.last_turn
        symbols = at["symbols"]
        for k, count in enumerate(v.symbols):
            buffer[symbols + k] = count

    def _write_board(self, buffer: array[float], v: _View) -> None:
        """Market, solo discards, goals in play (zero before)."""
        at = self.layout.offset
        for slot, card in enumerate(v.market):
            if card >= 0:
                buffer[at["market"] + slot * NUM_CARDS + card] = 1.0
        for position, card in enumerate(v.discards):
            buffer[at["discards"] + position] = 1 + card
        for g in range(len(GOALS)):
            if v.goals_in_play >> g & 1:
                buffer[at["goals_in_play"] + g] = 1.0

    def _write_goals(self, buffer: array[float], v: _View) -> None:
        """Claimed goals per seat (zero before)."""
        start, p = self.layout.offset["goals"], self.num_players
        for g, owner in enumerate(v.goal_owner):
            if owner >= 0:
                buffer[start + ((owner - v.observer) % p) * len(GOALS) + g] = 1.0


_BLOCKS_LIMIT = 1024
"""The most tree blocks a codec keeps before it starts afresh."""
_ROW_BYTES = 6 * 4
"""One tile row of a tree block: q, r and the kind one-hot, float32."""


class _Block(NamedTuple):
    """A tree's tile rows as the tensor holds them, with the cells they come from."""

    tree: Any
    data: bytes  # (T, 6) float32, zero rows after the tiles
    order: list[int]  # the tiles' cells (the bud left out), sorted by (q, r)


_EMPTY_BLOCK = _Block(None, b"", [])
_DATA, _ORDER = itemgetter(1), itemgetter(2)
_TENSOR_FIELDS = itemgetter(
    "turn", "phase", "deck", "first_player", "last_turn",
    "symbols",
    "market", "goals_in_play", "discards",
    "supplies", "cards", "goal_owner", "renounced", "trees",
)  # fmt: skip
"""The state fields the tensor is made of, in groups (see ``BonsaiCodec._state_pieces``)."""


def _grown_block(tree: Any, parent: _Block, rows: Pieces) -> _Block | None:
    """The block of ``tree`` from ``parent``'s when ``tree`` is the parent's tree with
    one more tile (the last cell a grown tree's dict holds), else None."""
    if parent.tree is None:
        return None
    cells, before = tree._cells, parent.tree._cells
    if len(cells) != len(before) + 1:
        return None
    cell = next(reversed(cells))
    if cell in before or not before.items() <= cells.items():
        return None
    order = parent.order
    if len(order) >= len(parent.data) // _ROW_BYTES:
        return None  # no zero row left (the fresh build tells why)
    at = bisect_left(order, cell)
    order = order.copy()
    order.insert(at, cell)
    data = parent.data
    row = rows[cell][cells[cell]]
    return _Block(
        tree, b"".join((data[: at * _ROW_BYTES], row, data[at * _ROW_BYTES : -_ROW_BYTES])), order
    )


def _rotated(table: Pieces, values: tuple[Any, ...], k: int) -> bytes:
    """The piece of per-seat ``values`` in observer order (seat ``k`` first)."""
    return table[values[k:] + values[:k]]  # type: ignore[no-any-return]


def _one_hot(size: int, index: int) -> bytes:
    """``size`` float32 zeros, a one at ``index`` (none if it is negative)."""
    return float32_bytes(1.0 if i == index else 0.0 for i in range(size))


class _StatePieces:
    """The state tensor's field groups as float32 bytes, each table keyed by what the
    group is made of (seats already in observer order); a group's table joins rows of
    smaller tables (one per seat's part) on a miss."""

    def __init__(self, num_players: int, tile_bound: int, deck: int) -> None:
        self.num_players, self.deck = num_players, deck
        self.head = Pieces(self._head)
        self.numbers = Pieces(self._numbers)
        self.symbols = Pieces(float32_bytes)
        self.board = Pieces(self._board)
        self.supply = Pieces(lambda supplies: b"".join(map(self.supply_row.__getitem__, supplies)))
        self.supply_row = Pieces(float32_bytes)
        self.cards = Pieces(lambda hands: b"".join(map(self.cards_row.__getitem__, hands)))
        self.cards_row = Pieces(_hand_counts)
        self.goals = Pieces(self._goals)
        self.renounced = Pieces(lambda masks: b"".join(map(self.goal_bits.__getitem__, masks)))
        self.goal_bits = Pieces(
            lambda mask: float32_bytes(mask >> g & 1 for g in range(len(GOALS)))
        )
        self.sizes = Pieces(float32_bytes)
        self.market_row = Pieces(lambda card: _one_hot(NUM_CARDS, card))
        self.discards = Pieces(
            lambda cards: float32_bytes([1 + card for card in cards] + [0] * (deck - len(cards)))
        )
        self.rows = Pieces(_tile_rows)
        self.no_rows = bytes(_ROW_BYTES * tile_bound)

    def _head(self, key: tuple[int, int, int]) -> bytes:
        """Phase, first player and seat to move (-1: none), one-hot."""
        phase, first, to_move = key
        p = self.num_players
        return _one_hot(len(PHASES), phase) + _one_hot(p, first) + _one_hot(p, to_move)

    def _numbers(self, key: tuple[int, int, int]) -> bytes:
        """Turn, last turn (known flag and number), deck size."""
        turn, last, deck = key
        return float32_bytes((turn, 1 if last >= 0 else 0, max(last, 0), deck))

    def _board(self, key: tuple[tuple[int, ...], tuple[int, ...], int]) -> bytes:
        """Market one-hot per slot, solo discards (1 + card type), goals in play."""
        market, discards, in_play = key
        rows = map(self.market_row.__getitem__, market)
        return b"".join((*rows, self.discards[discards], self.goal_bits[in_play]))

    def _goals(self, key: tuple[tuple[int, ...], int]) -> bytes:
        """Claimed goals per seat in observer order."""
        owner, observer = key
        p, n = self.num_players, len(GOALS)
        values = [0] * (p * n)
        for g, seat in enumerate(owner):
            if seat >= 0:
                values[((seat - observer) % p) * n + g] = 1
        return float32_bytes(values)


def _hand_counts(hand: tuple[int, ...]) -> bytes:
    """Zen cards held per type."""
    counts = [0] * NUM_CARDS
    for card in hand:
        counts[card] += 1
    return float32_bytes(counts)


def _tile_rows(cell: int) -> tuple[bytes, ...]:
    """Per kind, the tile row of a ``kind`` tile on ``cell``: q, r, the kind one-hot."""
    q, r = qr_of(cell)
    return tuple(float32_bytes((q, r)) + _one_hot(len(KINDS), kind) for kind in range(len(KINDS)))


def _goal(name: str) -> int:
    colour, tier = name.split()
    return GOAL_IDS[(colour, int(tier))]
