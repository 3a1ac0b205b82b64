"""Living Forest as integer actions and float32 tensors (for RL code and search).

Action ids, with P players, M = 12 - P the longest Move, ``k = 1..P-1`` naming
the seat ``(player + k) % P``, cards by their row in the card table::

    Reveal 0   Stop 1   TakeFragment 2   Done 3
    SpendFragment(card)   SPEND + i        i: the card among the 12 solitary cards, by row
    Attract(card)         ATTRACT + i      i: the card among the 51 reserve cards, by row
    Extinguish(value)     EXTINGUISH + value - 2                 value 2, 3, 4
    MoveSpirit(steps)     MOVE + steps - 1                       steps 1..M
    TakeVictory(k, kind)  VICTORY + (k-1)*3 + kind               kind 0 tree, 1 fire, 2 flower
    Plant(tree, cell)     PLANT + (tree-1)*15 + row*5 + col      tree 1..12 = 3A .. 11

The observation tensor (``observation_shape = (D,)``) holds the fields of
``docs/living_forest.md``, "Actions and tensors"; seats in observer order.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from forestgames._codec import (
    CodecBase,
    Layout,
    Pieces,
    float32_numbers,
    one_hots,
    seat_order,
)
from forestgames.core import StateError
from forestgames.living_forest._tables import (
    ACTIONS,
    CARD_INDEX,
    CARD_NAMES,
    FIRE_VALUES,
    FOREST_CELLS,
    FOREST_COLS,
    LEVEL_CARDS,
    ROCKS,
    SOLITARY_CARDS,
    START_DECK,
    TREE_INDEX,
    TREE_NAMES,
    VARAN_COPIES,
    VICTORY_KINDS,
)
from forestgames.living_forest.moves import (
    Attract,
    Done,
    Extinguish,
    MoveSpirit,
    Plant,
    Reveal,
    SpendFragment,
    Stop,
    TakeFragment,
    TakeVictory,
)
from forestgames.living_forest.state import Phase, Step

__all__ = ["ATTRACT_CARDS", "SPEND_CARDS", "LivingForestCodec"]

SPEND_CARDS: tuple[int, ...] = tuple(sorted(SOLITARY_CARDS))
"""Cards a Fragment can send away (solitary ones), in id order."""
ATTRACT_CARDS: tuple[int, ...] = tuple(c for level in (1, 2, 3) for c in LEVEL_CARDS[level])
"""Reserve cards (levels I-III), in id order."""
_SPEND_INDEX = {CARD_NAMES[c]: i for i, c in enumerate(SPEND_CARDS)}
_ATTRACT_INDEX = {CARD_NAMES[c]: i for i, c in enumerate(ATTRACT_CARDS)}
NUM_CARDS = len(CARD_NAMES)
NUM_TREES = len(TREE_NAMES)
MAX_OWNED = len(START_DECK) + len(ATTRACT_CARDS) + VARAN_COPIES
"""The most cards one Spirit can own (its Help Line's longest possible length)."""
PHASES: tuple[Phase, ...] = tuple(Phase)
STEPS: tuple[Step, ...] = tuple(Step)
_ZEROS = array("f", bytes(4 * max(NUM_CARDS, MAX_OWNED)))


_F32 = float32_numbers()
"""Counts as float32 bytes."""


_SIMPLE = (Reveal, Stop, TakeFragment, Done)
_SIMPLE_IDS = {kind: i for i, kind in enumerate(_SIMPLE)}


class _Spirit(NamedTuple):
    """One Spirit's public fields (and, for the observer, its own discard and deck)."""

    known: int
    line: tuple[int, ...]
    discard: tuple[int, ...] | None
    discard_size: int
    fragments: int
    forest: tuple[int, ...]
    rock: int
    victory: tuple[int, ...]
    fires: tuple[int, ...]
    deck_size: int
    deck_top: tuple[int, ...]
    deck_rest: tuple[int, ...] | None
    cards: tuple[int, ...]  # the deck below its known top and the discard pile, together


class _View(NamedTuple):
    observer: int
    phase: Phase
    turn: int
    sacred: int
    seat_index: int
    step: Step
    actions: tuple[int, ...]
    budget: int
    picks: int
    passed: tuple[int, ...]
    bonus: int
    spirits: tuple[_Spirit, ...]
    centre: tuple[int, ...]
    fire_supply: tuple[int, ...]
    varans: int
    rows: tuple[tuple[int, ...], ...]
    stack_sizes: tuple[int, ...]
    taken: tuple[int, ...]


def _spirit_layout() -> Layout:
    layout = Layout()
    layout.add("line", (NUM_CARDS,), "Help Line: count per card")
    layout.add("line_order", (MAX_OWNED,), "Help Line in reveal order: 1 + card row, 0 none")
    layout.add("discard_size", (1,), "cards in the discard pile")
    layout.add("fragments", (1,), "Fragment tiles held")
    layout.add("forest", (FOREST_CELLS, NUM_TREES), "forest cell (row-major): tree id, one-hot")
    layout.add("rock", (ROCKS,), "the Spirit's rock on the circle, one-hot")
    layout.add("victory", (3,), "Victory tiles held: tree, fire, flower")
    layout.add("fires", (3,), "fire tiles held, of value 2, 3, 4")
    layout.add("deck_size", (1,), "cards in the deck")
    layout.add("known", (1,), "cards on top of the deck put there by Attract (public)")
    layout.add("deck_top", (len(ATTRACT_CARDS),), "those cards, top first: 1 + card row")
    layout.add("cards", (NUM_CARDS,), "the deck below them and the discard pile: count per card")
    return layout.seal()


SPIRIT_LAYOUT = _spirit_layout()
_LINE, _LINE_ORDER = SPIRIT_LAYOUT.offset["line"], SPIRIT_LAYOUT.offset["line_order"]
_DISCARD_SIZE, _FRAGMENTS = SPIRIT_LAYOUT.offset["discard_size"], SPIRIT_LAYOUT.offset["fragments"]
_FOREST, _ROCK = SPIRIT_LAYOUT.offset["forest"], SPIRIT_LAYOUT.offset["rock"]
_VICTORY, _FIRES = SPIRIT_LAYOUT.offset["victory"], SPIRIT_LAYOUT.offset["fires"]
_DECK_SIZE, _KNOWN = SPIRIT_LAYOUT.offset["deck_size"], SPIRIT_LAYOUT.offset["known"]
_DECK_TOP, _CARDS = SPIRIT_LAYOUT.offset["deck_top"], SPIRIT_LAYOUT.offset["cards"]


def _layout(p: int) -> Layout:
    layout = Layout()
    layout.add("phase", (len(PHASES),), "guardians, actions, over")
    layout.add("turn", (1,), "the turn number (from 1)")
    layout.add("sacred", (p,), "the Sacred Tree holder, one-hot")
    layout.add("seat_index", (1,), "seats done in this phase")
    layout.add("step", (len(STEPS),), "choose, attract, extinguish, victory, plant")
    layout.add("actions", (2, len(ACTIONS)), "the acting seat's normal actions so far, in order")
    layout.add("budget", (1,), "sun or water left in the Attract / Extinguish under way")
    layout.add("picks", (1,), "cards or fires taken in it")
    layout.add("passed", (p,), "Spirits still to take a Victory tile from: 1 + queue position")
    layout.add("bonus", (len(ACTIONS),), "the rock's bonus action due, one-hot")
    layout.add("centre", (3,), "fires in the centre, of value 2, 3, 4")
    layout.add("fire_supply", (3,), "fire tiles left, of value 2, 3, 4")
    layout.add("varans", (1,), "Fire Varans in their stack")
    layout.add("reserve", (NUM_CARDS,), "face-up reserve cards (levels I-III)")
    layout.add("stack_sizes", (3,), "face-down reserve cards per level")
    layout.add("taken", (3,), "reserve cards taken this turn, per level")
    layout.add("spirits", (p, SPIRIT_LAYOUT.size), "per seat, the block below")
    layout.add("my_discard", (NUM_CARDS,), "my discard pile: count per card")
    layout.add("my_deck_rest", (NUM_CARDS,), "my deck below the known cards: count per card")
    return layout.seal()


class LivingForestCodec(CodecBase):
    """Integer actions and observation tensors of one Living Forest game (its options fixed)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        p = self.num_players
        self.max_steps = game.max_steps
        self.spend_base = 4
        self.attract_base = self.spend_base + len(SPEND_CARDS)
        self.extinguish_base = self.attract_base + len(ATTRACT_CARDS)
        self.move_base = self.extinguish_base + len(FIRE_VALUES)
        self.victory_base = self.move_base + self.max_steps
        self.plant_base = self.victory_base + 3 * (p - 1)
        self.num_actions = self.plant_base + (NUM_TREES - 1) * FOREST_CELLS
        self.layout = _layout(p)
        self.observation_shape = (self.layout.size,)
        self._previous: list[tuple[Any, array[float], memoryview] | None] = [None] * p
        self._zeros = array("f", bytes(4 * self.layout.size))
        offset = self.layout.offset
        self._turn_span = (offset["phase"], offset["centre"])
        self._board_span = (offset["centre"], offset["spirits"])
        self._deck_rest_at, self._discard_at = offset["my_deck_rest"], offset["my_discard"]
        self._blocks = tuple(
            tuple(offset["spirits"] + order * SPIRIT_LAYOUT.size for order in seat_order(o, p))
            for o in range(p)
        )
        """``_blocks[observer][seat]``: where ``seat``'s Spirit block starts."""
        self._phase_bytes = one_hots(len(PHASES))
        self._seat_bytes = one_hots(p)
        self._step_bytes = one_hots(len(STEPS))
        self._bonus_bytes = (bytes(4 * len(ACTIONS)), *one_hots(len(ACTIONS)))
        self._actions_bytes = Pieces(self._actions_piece)
        self._passed_bytes = Pieces(self._passed_piece)
        self._no_passed = bytes(4 * p)
        self._encoders: dict[type, Callable[[Any], int | None]] = {
            **dict.fromkeys(_SIMPLE, self._simple_id),
            SpendFragment: self._spend_id,
            Attract: self._attract_id,
            Extinguish: self._extinguish_id,
            MoveSpirit: self._move_spirit_id,
            TakeVictory: self._victory_id,
            Plant: self._plant_id,
        }

    # ------------------------------------------------------------------ ids

    def _simple_id(self, move: Any) -> int:
        """Reveal, Stop, TakeFragment, Done: ids 0..3."""
        return _SIMPLE_IDS[type(move)]

    def _spend_id(self, move: Any) -> int | None:
        """SpendFragment: one of the solitary cards."""
        i = _SPEND_INDEX.get(move.card)
        return None if i is None else self.spend_base + i

    def _attract_id(self, move: Any) -> int | None:
        """Attract: one of the reserve cards."""
        i = _ATTRACT_INDEX.get(move.card)
        return None if i is None else self.attract_base + i

    def _extinguish_id(self, move: Any) -> int | None:
        """Extinguish: a fire of value 2, 3 or 4."""
        ok = type(move.value) is int and move.value in FIRE_VALUES
        return self.extinguish_base + move.value - 2 if ok else None

    def _move_spirit_id(self, move: Any) -> int | None:
        """MoveSpirit: 1 to ``max_steps`` steps."""
        ok = type(move.steps) is int and 1 <= move.steps <= self.max_steps
        return self.move_base + move.steps - 1 if ok else None

    def _victory_id(self, move: Any) -> int | None:
        """TakeVictory: a kind of tile from another seat."""
        source = move.source
        if type(source) is not int or not 0 <= source < self.num_players:
            return None
        k = (source - int(move.player)) % self.num_players  # an unsigned numpy seat wraps
        ok = k > 0 and move.kind in VICTORY_KINDS
        return self.victory_base + (k - 1) * 3 + VICTORY_KINDS.index(move.kind) if ok else None

    def _plant_id(self, move: Any) -> int | None:
        """Plant: a tree other than the starting one, on a forest cell."""
        tree = TREE_INDEX.get(move.tree) if isinstance(move.tree, str) else None
        if not tree:  # None, or the starting tree (never planted)
            return None
        cell = _cell(move.at)
        return None if cell is None else int(self.plant_base + (tree - 1) * FOREST_CELLS + cell)

    def _build(self, action_id: int, player: int) -> Any:
        if action_id < self.spend_base:
            return _SIMPLE[action_id](player)
        if action_id >= self.plant_base:
            tree, cell = divmod(action_id - self.plant_base, FOREST_CELLS)
            return Plant(player, TREE_NAMES[tree + 1], divmod(cell, FOREST_COLS))
        if action_id >= self.victory_base:
            k, kind = divmod(action_id - self.victory_base, 3)
            source = (player + k + 1) % self.num_players
            return TakeVictory(player, source, VICTORY_KINDS[kind])
        if action_id >= self.move_base:
            return MoveSpirit(player, action_id - self.move_base + 1)
        if action_id >= self.extinguish_base:
            return Extinguish(player, action_id - self.extinguish_base + 2)
        if action_id >= self.attract_base:
            return Attract(player, CARD_NAMES[ATTRACT_CARDS[action_id - self.attract_base]])
        return SpendFragment(player, CARD_NAMES[SPEND_CARDS[action_id - self.spend_base]])

    # ------------------------------------------------------------------ masks

    # ------------------------------------------------------------------ tensors

    # The tensor is patched from the previous tensor of the same seat: a per-seat field is
    # looked at only when the state's tuple of it is a different object, a Spirit's part
    # only when its entry is; piles that grew at one end are patched by the cards that moved.

    def _spirit_of(self, state: Any, s: int, player: int) -> _Spirit:
        """Seat ``s``'s fields in ``state``, as ``observation(player)`` shows them."""
        deck, known = state.decks[s], state.known[s]
        mine = s == player
        return _Spirit(
            known,
            state.lines[s],
            state.discards[s] if mine else None,
            len(state.discards[s]),
            state.fragments[s],
            state.forests[s],
            state.rocks[s],
            state.victory[s],
            state.fires_held[s],
            len(deck),
            deck[:known],
            tuple(sorted(deck[known:])) if mine else None,
            deck[known:] + state.discards[s],
        )

    def _view_of(self, state: Any, player: int, spirits: tuple[_Spirit, ...]) -> _View:
        return _View(
            player, state.phase, state.turn, state.sacred, state.seat_index, state.step,
            state.actions, state.budget, state.picks, state.passed, state.bonus,
            spirits, state.centre, state.fire_supply, state.varans, state.rows,
            tuple(len(stack) for stack in state.stacks), state.taken,
        )  # fmt: skip

    def _new_tensor(self, state: Any, player: int) -> np.ndarray:
        """The observation tensor of seat ``player``, straight from ``state`` (under the
        codec's lock: it uses the codec's shared tables and buffers). During a simultaneous
        Guardian phase, from the seat's view (``game._seat_view``), as its observation."""
        if state.guardian_start is not None:
            state = self.game._seat_view(state, player)
        previous = self._previous[player]
        if previous is None:
            seats = range(self.num_players)
            spirits = tuple(self._spirit_of(state, s, player) for s in seats)
            buffer = self._encode_buffer(self._view_of(state, player, spirits))
            rest = memoryview(buffer)[self._turn_span[1] :]
        else:
            buffer, rest = previous[1], previous[2]
            self._patch(buffer, previous[0], state, player)
        self._previous[player] = (state, buffer, rest)
        joined = b"".join((*self._turn_pieces(state, player), rest))
        return np.frombuffer(joined, np.float32)

    def _turn_pieces(self, state: Any, player: int) -> tuple[bytes, ...]:
        """The turn fields (phase to bonus) of ``state`` as float32 bytes, field by field."""
        f32, p = _F32, self.num_players
        passed = state.passed
        return (
            self._phase_bytes[PHASES.index(state.phase)],
            f32[state.turn],
            self._seat_bytes[(state.sacred - player) % p],
            f32[state.seat_index],
            self._step_bytes[STEPS.index(state.step)],
            self._actions_bytes[state.actions],
            f32[state.budget],
            f32[state.picks],
            self._passed_bytes[(passed, player)] if passed else self._no_passed,
            self._bonus_bytes[state.bonus + 1],
        )

    def _patch(self, buffer: array[float], old: Any, state: Any, player: int) -> None:
        """Rewrite, in place, what differs between ``buffer`` (the tensor of ``old``) and
        ``state``'s tensor: the changed parts of the Spirits, then the shared fields."""
        blocks = self._blocks[player]
        if old.lines is not state.lines:
            for at, was, line in zip(blocks, old.lines, state.lines, strict=True):
                if was is not line:
                    _patch_line(buffer, at, was, line)
        decks_changed = old.decks is not state.decks or old.known is not state.known
        if decks_changed:
            self._patch_decks(buffer, old, state, player)
        if old.discards is not state.discards:
            self._patch_discards(buffer, old.discards, state.discards, player)
        if decks_changed or old.discards is not state.discards:
            self._patch_cards(buffer, old, state, player)
        if old.fragments is not state.fragments:
            for at, fragments in zip(blocks, state.fragments, strict=True):
                buffer[at + _FRAGMENTS] = fragments
        self._patch_rare(buffer, old, state, player)
        if _board_changed(old, state):
            start, stop = self._board_span
            buffer[start:stop] = self._zeros[: stop - start]
            self._write_board(buffer, self._view_of(state, player, ()))

    def _patch_rare(self, buffer: array[float], old: Any, state: Any, player: int) -> None:
        """The rocks, forests and tiles where they changed (seldom: a Move, a Plant, ...)."""
        blocks = self._blocks[player]
        if old.rocks is not state.rocks:
            for at, was, rock in zip(blocks, old.rocks, state.rocks, strict=True):
                buffer[at + _ROCK + was] = 0.0
                buffer[at + _ROCK + rock] = 1.0
        if old.forests is not state.forests:
            for at, was, forest in zip(blocks, old.forests, state.forests, strict=True):
                if was is not forest:
                    self._write_forest(buffer, at, forest)
        if old.victory is not state.victory or old.fires_held is not state.fires_held:
            for s, at in enumerate(blocks):
                self._write_tiles(buffer, at, state.victory[s], state.fires_held[s])

    def _patch_decks(self, buffer: array[float], old: Any, state: Any, player: int) -> None:
        """Deck sizes and known cards of the Spirits whose deck changed; my deck's rest."""
        blocks = self._blocks[player]
        for s, at in enumerate(blocks):
            deck, known = state.decks[s], state.known[s]
            was, was_known = old.decks[s], old.known[s]
            if deck is was and known == was_known:
                continue
            buffer[at + _DECK_SIZE] = len(deck)
            if known or was_known:
                self._write_deck(buffer, at, len(deck), deck[:known])
            if s == player:
                _patch_counts(buffer, self._deck_rest_at, was[was_known:], deck[known:])

    def _patch_cards(self, buffer: array[float], old: Any, state: Any, player: int) -> None:
        """The ``cards`` counts of the Spirits whose deck or discard pile changed."""
        piles = zip(old.decks, state.decks, old.discards, state.discards, strict=True)
        for s, (was_deck, deck, was_discard, discard) in enumerate(piles):
            known = state.known[s]
            if deck is not was_deck or discard is not was_discard or known != old.known[s]:
                _write_counts(buffer, self._blocks[player][s] + _CARDS, deck[known:] + discard)

    def _patch_discards(
        self, buffer: array[float], old: tuple[Any, ...], new: tuple[Any, ...], player: int
    ) -> None:
        """Discard sizes of the Spirits whose pile changed; my discard's counts."""
        for s, (at, was, pile) in enumerate(zip(self._blocks[player], old, new, strict=True)):
            if was is not pile:
                buffer[at + _DISCARD_SIZE] = len(pile)
                if s == player:
                    _write_counts(buffer, self._discard_at, pile)

    def _actions_piece(self, actions: tuple[int, ...]) -> bytes:
        """The ``actions`` field of normal actions ``actions`` (in order), as float32 bytes."""
        field = array("f", bytes(4 * 2 * len(ACTIONS)))
        for position, action in enumerate(actions):
            field[position * len(ACTIONS) + action] = 1.0
        return field.tobytes()

    def _passed_piece(self, key: tuple[tuple[int, ...], int]) -> bytes:
        """The ``passed`` field of queue ``passed`` seen by ``observer``, as float32 bytes."""
        passed, observer = key
        field = array("f", bytes(4 * self.num_players))
        for position, seat in enumerate(passed, 1):
            field[(seat - observer) % self.num_players] = position
        return field.tobytes()

    def _tensor_from_observation(self, observation: dict[str, Any]) -> np.ndarray:
        """The observation tensor built from ``state.observation(player)`` alone."""
        obs = observation
        observer = obs["observer"]
        spirits = []
        for s, spirit in enumerate(obs["spirits"]):
            mine = s == observer
            _check_own_piles(spirit, s, mine)
            forest = tuple(
                -1 if tree is None else TREE_INDEX[tree] for row in spirit["forest"] for tree in row
            )
            spirits.append(
                _Spirit(
                    spirit["known"],
                    _cards(spirit["line"]),
                    _cards(spirit["discard"]) if mine else None,
                    spirit["discard_size"],
                    spirit["fragments"],
                    forest,
                    spirit["rock"],
                    tuple(spirit["victory"][k] for k in VICTORY_KINDS),
                    tuple(spirit["fires"][str(v)] for v in FIRE_VALUES),
                    spirit["deck_size"],
                    _cards(spirit["deck_top"]),
                    _cards(spirit["deck_rest"]) if mine else None,
                    _cards(spirit["cards"]),
                )
            )
        reserve = obs["reserve"]
        view = _View(
            observer=observer,
            phase=Phase(obs["phase"]),
            turn=obs["turn"],
            sacred=obs["sacred"],
            seat_index=obs["seat_index"],
            step=Step(obs["step"]),
            actions=tuple(ACTIONS.index(name) for name in obs["actions"]),
            budget=obs["budget"],
            picks=obs["picks"],
            passed=tuple(obs["passed"]),
            bonus=-1 if obs["bonus"] is None else ACTIONS.index(obs["bonus"]),
            spirits=tuple(spirits),
            centre=tuple(obs["centre"]),
            fire_supply=tuple(obs["fire_supply"]),
            varans=obs["varans"],
            rows=tuple(_cards(reserve[level]["row"]) for level in ("I", "II", "III")),
            stack_sizes=tuple(reserve[level]["stack"] for level in ("I", "II", "III")),
            taken=tuple(obs["taken"]),
        )
        return self._encode_view(view)

    # Each writer below writes one part of the tensor and zeroes it first.

    def _write_spirit(self, buffer: array[float], at: int, spirit: _Spirit) -> None:
        """One Spirit's whole block, at ``at``."""
        self._write_line(buffer, at, spirit.line)
        self._write_forest(buffer, at, spirit.forest)
        self._write_deck(buffer, at, spirit.deck_size, spirit.deck_top)
        self._write_tiles(buffer, at, spirit.victory, spirit.fires)
        buffer[at + _DISCARD_SIZE] = spirit.discard_size
        buffer[at + _FRAGMENTS] = spirit.fragments
        buffer[at + _ROCK + spirit.rock] = 1.0
        _write_counts(buffer, at + _CARDS, spirit.cards)

    def _clear(self, buffer: array[float], start: int, length: int) -> None:
        buffer[start : start + length] = self._zeros[:length]

    def _write_line(self, buffer: array[float], at: int, line: tuple[int, ...]) -> None:
        counts, order = at + _LINE, at + _LINE_ORDER
        self._clear(buffer, counts, NUM_CARDS)
        self._clear(buffer, order, MAX_OWNED)
        for position, card in enumerate(line):
            buffer[counts + card] += 1.0
            buffer[order + position] = 1 + card

    def _write_forest(self, buffer: array[float], at: int, forest: tuple[int, ...]) -> None:
        start = at + _FOREST
        self._clear(buffer, start, FOREST_CELLS * NUM_TREES)
        for cell, tree in enumerate(forest):
            if tree >= 0:
                buffer[start + cell * NUM_TREES + tree] = 1.0

    def _write_deck(self, buffer: array[float], at: int, size: int, top: tuple[int, ...]) -> None:
        buffer[at + _DECK_SIZE] = size
        buffer[at + _KNOWN] = len(top)
        start = at + _DECK_TOP
        self._clear(buffer, start, len(ATTRACT_CARDS))
        for position, card in enumerate(top):
            buffer[start + position] = 1 + card

    def _write_tiles(self, buffer: array[float], at: int, victory: Any, fires: Any) -> None:
        for k in range(3):
            buffer[at + _VICTORY + k] = victory[k]
            buffer[at + _FIRES + k] = fires[k]

    def _write_counts(self, buffer: array[float], field: str, cards: tuple[int, ...]) -> None:
        start = self.layout.offset[field]
        self._clear(buffer, start, NUM_CARDS)
        for card in cards:
            buffer[start + card] += 1.0

    def _encode_view(self, v: _View) -> np.ndarray:
        """The whole tensor of view ``v``."""
        return np.frombuffer(self._encode_buffer(v), np.float32).copy()

    def _encode_buffer(self, v: _View) -> array[float]:
        """The whole tensor of view ``v`` as a float32 ``array``."""
        buffer = array("f", bytes(4 * self.layout.size))
        size = SPIRIT_LAYOUT.size
        base = self.layout.offset["spirits"]
        p = self.num_players
        for seat, spirit in enumerate(v.spirits):
            self._write_spirit(buffer, base + ((seat - v.observer) % p) * size, spirit)
        mine = v.spirits[v.observer]
        assert mine.discard is not None and mine.deck_rest is not None
        self._write_counts(buffer, "my_discard", mine.discard)
        self._write_counts(buffer, "my_deck_rest", mine.deck_rest)
        self._write_turn(buffer, v)
        self._write_board(buffer, v)
        return buffer

    def _write_turn(self, buffer: array[float], v: _View) -> None:
        """Phase, turn, Sacred Tree, step and the action under way (zero before)."""
        at = self.layout.offset
        p = self.num_players
        buffer[at["phase"] + PHASES.index(v.phase)] = 1.0
        buffer[at["turn"]] = v.turn
        buffer[at["sacred"] + (v.sacred - v.observer) % p] = 1.0
        buffer[at["seat_index"]] = v.seat_index
        buffer[at["step"] + STEPS.index(v.step)] = 1.0
        buffer[at["budget"]] = v.budget
        buffer[at["picks"]] = v.picks
        for position, action in enumerate(v.actions):
            buffer[at["actions"] + position * len(ACTIONS) + action] = 1.0
        for position, seat in enumerate(v.passed, 1):
            buffer[at["passed"] + (seat - v.observer) % p] = position
        if v.bonus >= 0:
            buffer[at["bonus"] + v.bonus] = 1.0

    def _write_board(self, buffer: array[float], v: _View) -> None:
        """Fires, Varans and the reserve (zero before)."""
        at = self.layout.offset
        buffer[at["varans"]] = v.varans
        reserve = at["reserve"]
        for row in v.rows:
            for card in row:
                buffer[reserve + card] = 1.0
        for k in range(3):
            buffer[at["fire_supply"] + k] = v.fire_supply[k]
            buffer[at["stack_sizes"] + k] = v.stack_sizes[k]
            buffer[at["taken"] + k] = v.taken[k]
        centre = at["centre"]
        for fire in v.centre:
            buffer[centre + fire - 2] += 1.0


def _patch_line(buffer: array[float], at: int, was: tuple[int, ...], line: tuple[int, ...]) -> None:
    """Seat block ``at``'s Help Line, from ``was`` to ``line`` (cards revealed: appended)."""
    counts, order = at + _LINE, at + _LINE_ORDER
    done = len(was)
    if len(line) <= done or line[:done] != was:
        buffer[counts : counts + NUM_CARDS] = _ZEROS[:NUM_CARDS]
        buffer[order : order + done] = _ZEROS[:done]
        done = 0
    for position in range(done, len(line)):
        card = line[position]
        buffer[counts + card] += 1.0
        buffer[order + position] = 1 + card


def _patch_counts(
    buffer: array[float], start: int, was: tuple[int, ...], cards: tuple[int, ...]
) -> None:
    """Card counts at ``start``, from those of ``was`` to those of ``cards`` (cards taken
    off the front: counted down)."""
    cut = len(was) - len(cards)
    if cut == 0 and was == cards:
        return
    if cut > 0 and was[cut:] == cards:
        for card in was[:cut]:
            buffer[start + card] -= 1.0
    else:
        _write_counts(buffer, start, cards)


def _write_counts(buffer: array[float], start: int, cards: tuple[int, ...]) -> None:
    """Card counts of ``cards`` at ``start`` (zeroed first)."""
    buffer[start : start + NUM_CARDS] = _ZEROS[:NUM_CARDS]
    for card in cards:
        buffer[start + card] += 1.0


def _cards(names: list[str]) -> tuple[int, ...]:
    return tuple(CARD_INDEX[name] for name in names)


def _cell(at: Any) -> int | None:
    """The forest cell (row-major) of ``at`` = (row, col), or None if it is not one."""
    if type(at) is not tuple or len(at) != 2:
        return None
    r, c = at
    if type(r) is not int or type(c) is not int or not (0 <= r < 3 and 0 <= c < 5):
        return None
    return r * FOREST_COLS + c


def _board_changed(old: Any, state: Any) -> bool:
    """Whether the reserve, the fires or the Varans differ between ``old`` and ``state``."""
    return (
        old.rows is not state.rows
        or old.centre is not state.centre
        or old.fire_supply is not state.fire_supply
        or old.stacks is not state.stacks
        or old.taken is not state.taken
        or old.varans != state.varans
    )


def _check_own_piles(spirit: dict[str, Any], seat: int, mine: bool) -> None:
    """StateError unless the observer's own Spirit, and only it, shows its discard pile and
    the rest of its deck (an observation of mixed seats could not make a tensor)."""
    for key in ("discard", "deck_rest"):
        if (key in spirit) != mine:
            what = "lacks" if mine else "shows"
            raise StateError(
                f"living_forest observation.spirits[{seat}] {what} {key}: only the observer's "
                "own Spirit shows it (the observation mixes seats)"
            )
