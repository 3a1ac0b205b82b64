"""Living Forest as integer actions and float32 tensors (for RL code and search).

Action ids, with P players, M = 12 - P the longest Move, ``k = 1..P-1`` naming
the seat ``(player + k) % P``, cards by their row in the card table::

    Reveal 0   Stop 1   TakeFragment 2   Done 3
    SpendFragment(card)   SPEND + i        i: the card among the 19 solitary cards, by row
    Attract(card)         ATTRACT + i      i: the card among the 51 reserve cards, by row
    Extinguish(value)     EXTINGUISH + value - 2                 value 2, 3, 4
    MoveSpirit(steps)     MOVE + steps - 1                       steps 1..M
    TakeVictory(k, kind)  VICTORY + (k-1)*3 + kind               kind 0 tree, 1 fire, 2 flower
    Plant(tree, cell)     PLANT + (tree-1)*15 + row*5 + col      tree 1..12 = 3A .. 11

The observation tensor (``observation_shape = (D,)``) holds the fields of
``docs/living_forest.md``, "Actions and tensors"; seats in observer order.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from forestgames._codec import CodecBase, Layout, seat_order
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

__all__ = ["LivingForestCodec", "SPEND_CARDS", "ATTRACT_CARDS"]

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
_SIMPLE = (Reveal, Stop, TakeFragment, Done)


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
    return layout


SPIRIT_LAYOUT = _spirit_layout()


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
    layout.add("spirits", (p, SPIRIT_LAYOUT.size), "per seat, the block below")
    layout.add("my_discard", (NUM_CARDS,), "my discard pile: count per card")
    layout.add("my_deck_rest", (NUM_CARDS,), "my deck below the known cards: count per card")
    layout.add("centre", (3,), "fires in the centre, of value 2, 3, 4")
    layout.add("fire_supply", (3,), "fire tiles left, of value 2, 3, 4")
    layout.add("varans", (1,), "Fire Varans in their stack")
    layout.add("reserve", (NUM_CARDS,), "face-up reserve cards (levels I-III)")
    layout.add("stack_sizes", (3,), "face-down reserve cards per level")
    layout.add("taken", (3,), "reserve cards taken this turn, per level")
    return layout


def _counts(cards: tuple[int, ...]) -> np.ndarray:
    return np.bincount(np.array(cards, dtype=np.int64), minlength=NUM_CARDS).astype(np.float32)


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
        self._blocks: dict[tuple[Any, ...], np.ndarray] = {}
        self._decoded: dict[tuple[int, int], Any] = {}

    # ------------------------------------------------------------------ ids

    def _encode(self, move: Any) -> int | None:
        kind = type(move)
        if kind in _SIMPLE:
            return _SIMPLE.index(kind)
        if kind is Attract:
            i = _ATTRACT_INDEX.get(move.card)
            return None if i is None else self.attract_base + i
        if kind is SpendFragment:
            i = _SPEND_INDEX.get(move.card)
            return None if i is None else self.spend_base + i
        if kind is Extinguish:
            ok = type(move.value) is int and move.value in FIRE_VALUES
            return self.extinguish_base + move.value - 2 if ok else None
        if kind is MoveSpirit:
            ok = type(move.steps) is int and 1 <= move.steps <= self.max_steps
            return self.move_base + move.steps - 1 if ok else None
        if kind is TakeVictory:
            source = move.source
            if type(source) is not int or not 0 <= source < self.num_players:
                return None
            k = (source - move.player) % self.num_players
            ok = k > 0 and move.kind in VICTORY_KINDS
            return self.victory_base + (k - 1) * 3 + VICTORY_KINDS.index(move.kind) if ok else None
        if kind is Plant:
            tree = TREE_INDEX.get(move.tree) if isinstance(move.tree, str) else None
            at = move.at
            if not tree or type(at) is not tuple or len(at) != 2:
                return None
            r, c = at
            if type(r) is not int or type(c) is not int or not (0 <= r < 3 and 0 <= c < 5):
                return None
            return int(self.plant_base + (tree - 1) * FOREST_CELLS + r * FOREST_COLS + c)
        return None

    def _decode(self, action_id: int, player: int) -> Any:
        key = (action_id, player)
        move = self._decoded.get(key)
        if move is None:
            move = self._decoded[key] = self._build(action_id, player)
        return move

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

    # ------------------------------------------------------------------ tensors

    def tensor(self, state: Any, player: int) -> np.ndarray:
        """The observation tensor of seat ``player``, straight from ``state``."""
        cached = self._cached_tensor(state, player)
        if cached is not None:
            return cached
        player = self.check_seat(player)
        spirits = []
        for s in range(self.num_players):
            deck, known = state.decks[s], state.known[s]
            mine = s == player
            spirits.append(
                _Spirit(
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
                )
            )
        view = _View(
            player, state.phase, state.turn, state.sacred, state.seat_index, state.step,
            state.actions, state.budget, state.picks, state.passed, state.bonus,
            tuple(spirits), state.centre, state.fire_supply, state.varans, state.rows,
            tuple(len(stack) for stack in state.stacks), state.taken,
        )  # fmt: skip
        return self._store_tensor(state, player, self._encode_view(view))

    def tensor_from_observation(self, observation: dict[str, Any]) -> np.ndarray:
        """The observation tensor built from ``state.observation(player)`` alone."""
        obs = observation
        observer = obs["observer"]
        spirits = []
        for s, spirit in enumerate(obs["spirits"]):
            mine = s == observer
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

    def _spirit_block(self, spirit: _Spirit) -> np.ndarray:
        """One Spirit's block (cached by value: most of it rarely changes)."""
        key = spirit[:2] + spirit[3:11]
        block = self._blocks.get(key)
        if block is not None:
            return block
        if len(self._blocks) > 4096:
            self._blocks.clear()
        at = SPIRIT_LAYOUT.offset
        block = np.zeros(SPIRIT_LAYOUT.size, np.float32)
        line = at["line"]
        block[line : line + NUM_CARDS] = _counts(spirit.line)
        order = at["line_order"]
        block[order : order + len(spirit.line)] = np.array(spirit.line) + 1.0
        top = at["deck_top"]
        block[top : top + len(spirit.deck_top)] = np.array(spirit.deck_top) + 1.0
        forest = at["forest"]
        for cell, tree in enumerate(spirit.forest):
            if tree >= 0:
                block[forest + cell * NUM_TREES + tree] = 1.0
        block[at["rock"] + spirit.rock] = 1.0
        block[at["victory"] : at["victory"] + 3] = spirit.victory
        block[at["fires"] : at["fires"] + 3] = spirit.fires
        block[[at["discard_size"], at["fragments"], at["deck_size"], at["known"]]] = (
            spirit.discard_size,
            spirit.fragments,
            spirit.deck_size,
            spirit.known,
        )
        self._blocks[key] = block
        return block

    def _encode_view(self, v: _View) -> np.ndarray:
        at = self.layout.offset
        p = self.num_players
        rel = seat_order(v.observer, p)
        out = np.zeros(self.layout.size, np.float32)
        spirits = out[at["spirits"] : at["spirits"] + p * SPIRIT_LAYOUT.size].reshape(p, -1)
        for seat, spirit in enumerate(v.spirits):
            spirits[rel[seat]] = self._spirit_block(spirit)
        mine = v.spirits[v.observer]
        assert mine.discard is not None and mine.deck_rest is not None
        out[at["my_discard"] : at["my_discard"] + NUM_CARDS] = _counts(mine.discard)
        out[at["my_deck_rest"] : at["my_deck_rest"] + NUM_CARDS] = _counts(mine.deck_rest)
        index = [
            at["phase"] + PHASES.index(v.phase),
            at["turn"],
            at["sacred"] + rel[v.sacred],
            at["seat_index"],
            at["step"] + STEPS.index(v.step),
            at["budget"],
            at["picks"],
            at["varans"],
        ]
        value = [1.0, float(v.turn), 1.0, float(v.seat_index), 1.0, float(v.budget)]
        value += (float(v.picks), float(v.varans))
        for position, action in enumerate(v.actions):
            index.append(at["actions"] + position * len(ACTIONS) + action)
            value.append(1.0)
        for position, seat in enumerate(v.passed, 1):
            index.append(at["passed"] + rel[seat])
            value.append(float(position))
        if v.bonus >= 0:
            index.append(at["bonus"] + v.bonus)
            value.append(1.0)
        for row in v.rows:
            for card in row:
                index.append(at["reserve"] + card)
                value.append(1.0)
        for k in range(3):
            index += (at["fire_supply"] + k, at["stack_sizes"] + k, at["taken"] + k)
            value += (float(v.fire_supply[k]), float(v.stack_sizes[k]), float(v.taken[k]))
        out[index] = value
        centre = at["centre"]
        for fire in v.centre:
            out[centre + fire - 2] += 1.0
        return out


def _cards(names: list[str]) -> tuple[int, ...]:
    return tuple(CARD_INDEX[name] for name in names)
