"""The Living Forest game: options, the rules (legal moves and transitions), saved states.

``LivingForestGame`` is a frozen value: its options are the rules variant. It is
the one place the turn of docs/living_forest.md lives: Guardian Animals,
Actions, end of turn. A seat is never asked for a move when stopping/ending is
its only choice: the turn then passes on by itself, so every transition works
out the next seat's legal moves anyway and hands them to the new state
(``_primed``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import numpy as np

from forestgames.core import (
    ConfigError,
    GameBase,
    Option,
    Sealed,
    as_int,
    describe_move,
    excerpt,
    is_int,
    is_row,
    new_rng,
)
from forestgames.living_forest import heuristic, render, saved
from forestgames.living_forest import moves as mv
from forestgames.living_forest._tables import (
    ATTRACT,
    CARD_COST,
    CARD_INDEX,
    CARD_LEVEL,
    CARD_NAMES,
    CENTRE_LIMIT,
    CORNER_EXTRA,
    CORNER_FRAGMENTS,
    DEFAULT_FIRE_TILES,
    EXTINGUISH,
    FIRE_OF_LEVEL,
    FIRE_VALUES,
    FLOWER,
    FOREST_CELLS,
    FOREST_COLS,
    FOREST_ROWS,
    FRAGMENT,
    FRAGMENT_SUPPLY,
    GOAL,
    LEVEL_CARDS,
    MOVE,
    NEIGHBOURS,
    PLANT,
    PLANT_ACTION,
    ROCK_BONUS,
    ROCKS,
    ROW_SIZE,
    SAME_ACTION_TREE,
    SOLITARY_CARDS,
    SOLITARY_LIMIT,
    START_CELL,
    START_DECK,
    START_ROCKS,
    START_TREE,
    SUN,
    TREE_COPIES,
    TREE_COST,
    TREE_INDEX,
    TREE_NAMES,
    VARAN,
    VARAN_COPIES,
    VICTORY_KINDS,
    WATER,
    WIND,
)
from forestgames.living_forest.actions import LivingForestCodec
from forestgames.living_forest.scoring import (
    _element_totals,
    _solitary_count,
    _tree_count,
    limit_winners,
)
from forestgames.living_forest.state import GuardianStart, LivingForestState, Phase, Step
from forestgames.schema import Field, Spec

__all__ = ["MOVE_TABLE", "OPTIONS", "LivingForestGame"]

# Enum members as module constants: reading one from its class costs ten times a global.
_GUARDIANS, _ACTIONS, _OVER = Phase.GUARDIANS, Phase.ACTIONS, Phase.OVER
_CHOOSE, _ATTRACTING, _EXTINGUISHING = Step.CHOOSE, Step.ATTRACT, Step.EXTINGUISH
_VICTORY, _PLANTING = Step.VICTORY, Step.PLANT

_MIN_COST = TREE_COST[1]  # plant below it buys nothing
_MAX_COST = max(TREE_COST)  # plant beyond it buys nothing more (and caches better)
_MOVES_PER_SEAT_TURN = 200  # reveals + spends (≤ 110) and actions with their picks (≤ 90)

Moves = tuple[mv.LivingForestMove, ...]


def _check_fire_tiles(value: Any, _: Mapping[str, Any]) -> tuple[int, int, int]:
    """The fire_tiles option: 3 counts (values 2, 3, 4), at least one fire of value 2."""
    if not is_row(value, 3):
        raise ConfigError(
            f"option fire_tiles must be 3 counts (values 2, 3, 4), not {excerpt(value)}"
        )
    counts = tuple(as_int(v, "option fire_tiles", 0, 100) for v in value)
    if counts[0] < 1:
        raise ConfigError("option fire_tiles needs at least one fire of value 2 (the first fire)")
    return counts  # type: ignore[return-value]


OPTIONS = (
    Option.players("Living Forest", 2, 2, 4, "Spirits at the table"),
    Option(
        "fire_tiles",
        DEFAULT_FIRE_TILES,
        _check_fire_tiles,
        "3 ints 0–100",
        "fire tiles of value 2, 3, 4 (at least one 2); the split is our choice",
        to_json=list,
    ),
    Option.boolean(
        "duplicate_trees",
        True,
        "a Spirit may plant a second tree of a type it has; `False` forbids it",
    ),
    Option.boolean(
        "reveal_after_third",
        True,
        "at 3 solitary symbols a Fragment may still be spent and, below 3 again, the reveal "
        "goes on; `False`: the third solitary card closes the Help Line",
    ),
    Option.boolean(
        "varan_returns",
        False,
        "a Fire Varan sent away with a Fragment goes back to the Varan stack instead of the "
        "discard pile",
    ),
    Option.integer(
        "turn_limit", 100, 1, 10_000, "the game also ends after this turn's Action phase"
    ),
    Option.choice(
        "guardian_phase",
        "turn_order",
        ("turn_order", "simultaneous"),
        "`'turn_order'`: each Spirit sees the Help Lines revealed before its own; "
        "`'simultaneous'`: the same reveals in turn order, but no Spirit sees what another "
        "did in the phase until the Action phase starts",
        omit_default=True,  # default games' options(), records and reprs stay as in 0.1
    ),
)

SIMULTANEOUS = "simultaneous"
"""The ``guardian_phase`` option's value for the seed's simultaneous Guardian phase."""


@attrs.frozen(slots=False, repr=False)
class LivingForestGame(
    GameBase[LivingForestState, mv.LivingForestMove],
    name="living_forest",
    title="Living Forest",
    players=(2, 4),
    chance=True,
    hidden_information=True,
    out_of_turn=False,
):
    """Living Forest for 2–4 Spirits with its options fixed (``fg.make("living_forest", ...)``).

    Options: see ``OPTIONS`` and docs/living_forest.md (Options, Choices).
    """

    OPTIONS = OPTIONS
    MOVE_TYPES = (
        mv.Reveal,
        mv.SpendFragment,
        mv.Stop,
        mv.TakeFragment,
        mv.Attract,
        mv.Extinguish,
        mv.MoveSpirit,
        mv.TakeVictory,
        mv.Plant,
        mv.Done,
    )
    CASES = (
        {
            "num_players": 3,
            "fire_tiles": (10, 10, 10),
            "duplicate_trees": False,
            "reveal_after_third": False,
            "varan_returns": True,
            "turn_limit": 25,
        },
        {"num_players": 3, "guardian_phase": "simultaneous"},
        {"num_players": 4, "guardian_phase": "simultaneous", "varan_returns": True},
    )

    num_players: int
    fire_tiles: tuple[int, int, int] = DEFAULT_FIRE_TILES
    duplicate_trees: bool = True
    reveal_after_third: bool = True
    varan_returns: bool = False
    turn_limit: int = 100
    guardian_phase: str = "turn_order"

    @functools.cached_property
    def max_steps(self) -> int:
        """The longest Move: short of a full lap, so no Spirit is passed twice."""
        return ROCKS - self.num_players

    def _max_moves(self) -> int:
        return self.turn_limit * self.num_players * _MOVES_PER_SEAT_TURN

    def _score_range(self) -> tuple[int, int]:
        return (0, 400)

    def _parse_move(self, text: str) -> mv.LivingForestMove:
        return mv.parse_move(text)

    # ------------------------------------------------------------------ new game

    def _new_game(self, seed: int, first_player: int | None) -> LivingForestState:
        """Turn 1, Guardian phase; decks and reserve shuffled from ``seed``."""
        p = self.num_players
        if first_player is None:
            first_player = int(new_rng(seed, 0).integers(p))
        rng = random.Random(int(new_rng(seed, 1).integers(2**62)))
        decks = []
        for _ in range(p):
            deck = list(START_DECK)
            shuffle(deck, rng)
            decks.append(tuple(deck))
        stacks, rows = [], []
        for level in (1, 2, 3):
            cards = list(LEVEL_CARDS[level])
            shuffle(cards, rng)
            rows.append(tuple(sorted(cards[:ROW_SIZE])))
            stacks.append(tuple(cards[ROW_SIZE:]))
        forest = tuple(START_TREE if c == START_CELL else -1 for c in range(FOREST_CELLS))
        rocks = [0] * p
        for k, rock in enumerate(START_ROCKS[p]):
            rocks[(first_player + k) % p] = rock
        f2, f3, f4 = self.fire_tiles
        state = LivingForestState(
            game=self,
            phase=_GUARDIANS,
            turn=1,
            sacred=first_player,
            seat_index=0,
            decks=tuple(decks),
            known=(0,) * p,
            lines=((),) * p,
            discards=((),) * p,
            fragments=(0,) * p,
            forests=(forest,) * p,
            rocks=tuple(rocks),
            victory=((1, 1, 1),) * p,
            fires_held=((0, 0, 0),) * p,
            centre=(2,),
            fire_supply=(f2 - 1, f3, f4),
            varans=VARAN_COPIES,
            stacks=tuple(stacks),
            rows=tuple(rows),
            taken=(0, 0, 0),
            actions=(),
            step=_CHOOSE,
            budget=0,
            picks=0,
            passed=(),
            bonus=-1,
            entropy=rng.getrandbits(62),
        )
        return self._next_revealer(self._phase_started(state), 0)

    # ------------------------------------------------------------------ results

    def _scores(self, state: LivingForestState) -> tuple[int, ...]:
        """Per seat, trees + fires + flowers so far (the measure of the tie-break)."""
        return tuple(sum(p) for p in state.progress)

    def _winners(self, state: LivingForestState) -> tuple[int, ...]:
        """The seats at a goal (highest sum, ties shared); at the turn limit with no
        seat at a goal, the highest sums."""
        return limit_winners(state.progress)

    def _step_name(self, state: LivingForestState) -> str:
        return state.phase.value if state.phase is _GUARDIANS else state.step.value

    # ------------------------------------------------------------------ legal moves

    def _legal_moves(self, state: LivingForestState, player: int) -> Moves:
        """The moves of ``player`` now (empty when it is not their decision)."""
        if player != state.current_player:
            return ()
        if state.phase is _GUARDIANS:
            return self._guardian_moves(state, player)
        return _MOVES_OF_STEP[state.step](self, state, player)

    def _guardian_moves(self, state: LivingForestState, seat: int) -> Moves:
        can_draw = (state.decks[seat] or state.discards[seat]) != ()
        return _guardian_choices(
            seat, state.lines[seat], can_draw, state.fragments[seat] > 0, self.reveal_after_third
        )

    def _choose_moves(self, state: LivingForestState, seat: int, done: tuple[int, ...]) -> Moves:
        """Every way to start a normal action (``done`` taken so far), then ``done``."""
        open_ = self._open_actions(state, seat, done)
        if not open_:
            return ()
        sun, water, plant, wind, _ = _element_totals(state.lines[seat], state.forests[seat])
        moves: list[mv.LivingForestMove] = []
        if FRAGMENT in open_ and sum(state.fragments) < FRAGMENT_SUPPLY:
            moves.append(_FRAGMENT_MOVES[seat])
        if ATTRACT in open_:
            moves += _attract_choices(seat, state.rows, sun)
        if EXTINGUISH in open_:
            moves += _extinguish_choices(seat, state.centre, water)
        if MOVE in open_:
            moves += _MOVES_UPTO[seat][min(wind, self.max_steps)]
        if PLANT_ACTION in open_ and plant >= _MIN_COST:
            moves += self._plant_moves(state, seat, plant)
        if not moves:
            return ()
        moves.append(_DONE_MOVES[seat])
        return tuple(moves)

    def _attract_step_moves(self, state: LivingForestState, seat: int) -> Moves:
        moves = _attract_choices(seat, state.rows, state.budget)
        return moves + (_DONE_MOVES[seat],) if state.picks else moves

    def _extinguish_step_moves(self, state: LivingForestState, seat: int) -> Moves:
        moves = _extinguish_choices(seat, state.centre, state.budget)
        return moves + (_DONE_MOVES[seat],) if state.picks else moves

    def _victory_moves(self, state: LivingForestState, seat: int) -> Moves:
        source = state.passed[0]
        take = MOVE_TABLE.victory[seat][source]
        return tuple(take[k] for k, held in enumerate(state.victory[source]) if held)

    def _plant_step_moves(self, state: LivingForestState, seat: int) -> Moves:
        plant = _element_totals(state.lines[seat], state.forests[seat])[PLANT]
        return self._plant_moves(state, seat, plant)

    def _plant_moves(self, state: LivingForestState, seat: int, plant: int) -> Moves:
        if plant < _MIN_COST:
            return ()
        return _plant_choices(seat, state.forests, min(plant, _MAX_COST), self.duplicate_trees)

    # The rule helpers: the legal moves and the explanations of illegal ones both use them.

    def _action_limit(self, state: LivingForestState, seat: int) -> int:
        """Normal actions ``seat`` may take this turn: 2, or 1 with 3 solitary symbols."""
        return 1 if _solitary_count(state.lines[seat]) >= SOLITARY_LIMIT else 2

    def _open_actions(
        self, state: LivingForestState, seat: int, done: tuple[int, ...]
    ) -> tuple[int, ...]:
        """The normal actions ``seat`` may still start, ``done`` taken: within its limit,
        each once unless Tree 11 grows in its forest."""
        if not done:
            return ALL_ACTIONS  # the limit is at least one action
        if len(done) >= self._action_limit(state, seat):
            return ()
        if SAME_ACTION_TREE in state.forests[seat]:
            return ALL_ACTIONS
        return OTHER_ACTIONS[done[0]]

    def _move_path(
        self, state: LivingForestState, seat: int, steps: int
    ) -> tuple[int, tuple[int, ...]]:
        """Where ``seat`` lands moving ``steps`` free rocks, and the seats it passes."""
        occupied = {rock: other for other, rock in enumerate(state.rocks) if other != seat}
        rock, passed, moved = state.rocks[seat], [], 0
        while moved < steps:
            rock = (rock + 1) % ROCKS
            if rock in occupied:
                passed.append(occupied[rock])
            else:
                moved += 1
        return rock, tuple(passed)

    # ------------------------------------------------------------------ why a move is illegal

    def _explain(self, state: LivingForestState, move: Any) -> str | None:
        """Which rule ``move`` (of the seat to act) breaks: the step under way first,
        then the rule of its kind. Its fields may be malformed; nothing here raises."""
        why = self._out_of_step(state, move) or _WHY_NOT[type(move)](self, state, move)
        return f"{describe_move(move)}: {why}"

    _explain_kind = _explain

    def _out_of_step(self, state: LivingForestState, move: Any) -> str | None:
        """What the phase or step under way says against ``move``, if anything."""
        revealing = type(move) in _GUARDIAN_MOVES
        if state.phase is _GUARDIANS:
            return (
                None
                if revealing
                else "the Guardian Animals phase allows only reveal, spend and stop"
            )
        if revealing:
            return "Guardian Animals are revealed before the Action phase, not now"
        return _STEP_RULE[state.step](self, state, move)

    def _choosing_rule(self, state: LivingForestState, move: Any) -> str | None:
        action = _ACTION_OF.get(type(move))
        if action is None or action in self._open_actions(state, move.player, state.actions):
            return None
        return "the two actions must differ (without Tree 11)"

    def _gathering_rule(self, state: LivingForestState, move: Any) -> str | None:
        step = state.step.value
        expected = mv.Attract if state.step is _ATTRACTING else mv.Extinguish
        if isinstance(move, mv.Done):
            return f"this bonus {step} must take something first"
        if not isinstance(move, expected):
            return f"finish the {step} under way first" + (" (or 'done')" if state.picks else "")
        return None

    def _victory_rule(self, state: LivingForestState, move: Any) -> str | None:
        source = state.passed[0]
        kinds = [VICTORY_KINDS[k] for k in range(3) if state.victory[source][k]]
        return f"take one of seat {source}'s Victory tiles first ({', '.join(kinds)})"

    def _plant_rule(self, state: LivingForestState, move: Any) -> str | None:
        return None if isinstance(move, mv.Plant) else "the rock's bonus Plant action comes first"

    def _why_not_reveal(self, state: LivingForestState, move: mv.Reveal) -> str:
        count = _solitary_count(state.lines[move.player])
        if count >= SOLITARY_LIMIT:
            return f"{count} uncancelled solitary symbols: revealing must stop"
        return f"seat {move.player}'s deck and discard pile are both empty"

    def _why_not_spend(self, state: LivingForestState, move: mv.SpendFragment) -> str:
        seat = move.player
        if not state.fragments[seat]:
            return f"seat {seat} has no Fragment"
        if line_closed(_solitary_count(state.lines[seat]), self.reveal_after_third):
            return "the third solitary symbol closed the Help Line"
        return f"no solitary card {excerpt(move.card)} in seat {seat}'s Help Line"

    def _why_not_fragment(self, state: LivingForestState, move: mv.TakeFragment) -> str:
        return "the Fragment supply is empty"

    def _why_not_attract(self, state: LivingForestState, move: mv.Attract) -> str:
        card = CARD_INDEX.get(move.card) if isinstance(move.card, str) else None
        if card is None or not any(card in row for row in state.rows):
            return f"{excerpt(move.card)} is not face up in the reserve"
        budget = state.budget if state.step is _ATTRACTING else self._totals(state)[SUN]
        return f"{move.card} costs {CARD_COST[card]} sun, only {budget} available"

    def _why_not_extinguish(self, state: LivingForestState, move: mv.Extinguish) -> str:
        value = move.value
        if not is_int(value) or value not in state.centre:
            return f"no fire of value {excerpt(value)} in the centre"
        budget = state.budget if state.step is _EXTINGUISHING else self._totals(state)[WATER]
        return f"a fire of value {value} needs {value} water, only {budget}"

    def _why_not_move(self, state: LivingForestState, move: mv.MoveSpirit) -> str:
        wind = self._totals(state)[WIND]
        return f"a Move goes 1 to min(wind {wind}, {self.max_steps}) rocks"

    def _why_not_victory(self, state: LivingForestState, move: mv.TakeVictory) -> str:
        return f"no Victory tile is due to seat {move.player} now"

    def _why_not_plant(self, state: LivingForestState, move: mv.Plant) -> str:
        tree = TREE_INDEX.get(move.tree, 0) if isinstance(move.tree, str) else 0
        if not tree:
            return f"no tree type {excerpt(move.tree)} (3A..11)"
        cell = _forest_cell(move.at)
        if cell is None:
            return "forest cells are (row 0..2, col 0..4)"
        at = move.at
        plant = self._totals(state)[PLANT]
        forest = state.forests[move.player]
        if TREE_COST[tree] > plant:
            return f"tree {move.tree} costs {TREE_COST[tree]} plant, only {plant}"
        if cell not in free_spots(forest):
            if forest[cell] >= 0:
                return f"cell {at} already has a tree"
            return f"cell {at} is not orthogonally next to a tree"
        if not self.duplicate_trees and tree in forest:
            return f"seat {move.player} already has a tree {move.tree}"
        return f"no tree {move.tree} left in the supply"

    def _why_not_other(self, state: LivingForestState, move: Any) -> str:
        return "not legal now"

    def _totals(self, state: LivingForestState) -> tuple[int, int, int, int, int]:
        seat = state.current_player
        assert seat is not None
        return _element_totals(state.lines[seat], state.forests[seat])

    # ------------------------------------------------------------------ transitions

    def _step(self, state: LivingForestState, move: mv.LivingForestMove) -> LivingForestState:
        """The state after legal ``move`` (the base has checked legality)."""
        return _STEP[type(move)](self, state, move)

    # Guardian Animals --------------------------------------------------------

    def _reveal(self, state: LivingForestState, move: mv.Reveal) -> LivingForestState:
        seat = move.player
        decks, lines = state.decks, state.lines
        deck = decks[seat]
        if not deck:
            return self._settle_reveal(self._reshuffle(state, seat), seat)
        # the hot path: _set written out
        new_decks, new_lines = list(decks), list(lines)
        new_decks[seat] = rest = deck[1:]
        new_lines[seat] = line = lines[seat] + deck[:1]
        changes = {"decks": tuple(new_decks), "lines": tuple(new_lines)}
        known = state.known[seat]
        if known:
            changes["known"] = _set(state.known, seat, known - 1)
        state = state._evolve(**changes)
        can_draw = (rest or state.discards[seat]) != ()
        has_fragment = state.fragments[seat] > 0
        moves = _guardian_choices(seat, line, can_draw, has_fragment, self.reveal_after_third)
        if len(moves) > 1:
            return state._primed(seat, moves)
        return self._next_revealer(state, state.seat_index + 1)

    def _reshuffle(self, state: LivingForestState, seat: int) -> LivingForestState:
        """Reveal from an empty deck: the discard pile shuffled (by the state's seed) first."""
        rng = random.Random(state.entropy)
        cards = list(state.discards[seat])
        shuffle(cards, rng)
        return state._evolve(
            decks=_set(state.decks, seat, tuple(cards[1:])),
            lines=_set(state.lines, seat, state.lines[seat] + tuple(cards[:1])),
            discards=_set(state.discards, seat, ()),
            entropy=rng.getrandbits(62),
        )

    def _spend(self, state: LivingForestState, move: mv.SpendFragment) -> LivingForestState:
        return self._settle_reveal(self._spent(state, move), move.player)

    def _spent(self, state: LivingForestState, move: mv.SpendFragment) -> LivingForestState:
        """``state`` with ``move``'s card sent away and its Fragment spent (nothing more)."""
        seat, card = move.player, CARD_INDEX[move.card]
        line = list(state.lines[seat])
        line.remove(card)
        away: dict[str, Any]
        if card == VARAN and self.varan_returns:
            away = {"varans": state.varans + 1}
        else:
            away = {"discards": _set(state.discards, seat, _added(state.discards[seat], (card,)))}
        return state._evolve(
            lines=_set(state.lines, seat, tuple(line)),
            fragments=_set(state.fragments, seat, state.fragments[seat] - 1),
            **away,
        )

    def _stop(self, state: LivingForestState, move: mv.Stop) -> LivingForestState:
        return self._next_revealer(state, state.seat_index + 1)

    def _settle_reveal(self, state: LivingForestState, seat: int) -> LivingForestState:
        """The new ``state``: ``seat`` reveals on if it can do more than stop, else passes on."""
        moves = self._guardian_moves(state, seat)
        if len(moves) > 1:
            return state._primed(seat, moves)
        return self._next_revealer(state, state.seat_index + 1)

    def _phase_started(self, state: LivingForestState) -> LivingForestState:
        """``state`` at the start of a Guardian phase: with ``guardian_phase="simultaneous"``,
        the seats' pieces as they start it kept (what the others see of them until the
        Action phase)."""
        if self.guardian_phase != SIMULTANEOUS:
            return state
        start = GuardianStart(
            state.decks, state.known, state.discards, state.fragments, state.varans
        )
        return state._evolve(guardian_start=start)

    def _drawn(self, state: LivingForestState, seat: int) -> LivingForestState:
        """``state`` with ``seat``'s top card revealed (its discard pile reshuffled first if
        its deck is empty), nothing more: the reveal of ``_reveal`` without its hand-over."""
        deck = state.decks[seat]
        if not deck:
            return self._reshuffle(state, seat)
        known = state.known[seat]
        return state._evolve(
            decks=_set(state.decks, seat, deck[1:]),
            lines=_set(state.lines, seat, state.lines[seat] + deck[:1]),
            known=_set(state.known, seat, known - 1) if known else state.known,
        )

    def _next_revealer(self, state: LivingForestState, index: int) -> LivingForestState:
        """Hand the reveal to the ``index``-th seat of the turn with a choice, or start the
        Action phase. ``state`` is new if it already stands at that seat of this phase."""
        p = self.num_players
        while index < p:
            seat = (state.sacred + index) % p
            moves = self._guardian_moves(state, seat)
            if len(moves) > 1:
                if state.seat_index != index or state.phase is not _GUARDIANS:
                    state = state._evolve(phase=_GUARDIANS, seat_index=index)
                return state._primed(seat, moves)
            index += 1
        if state.guardian_start is not None:  # the simultaneous phase is over: all is public
            state = state._evolve(guardian_start=None)
        return self._next_actor(state, 0)

    # Actions -----------------------------------------------------------------

    def _next_actor(self, state: LivingForestState, index: int) -> LivingForestState:
        """Hand the actions to the ``index``-th seat of the turn with a choice, or end the
        Action phase."""
        p = self.num_players
        while index < p:
            seat = (state.sacred + index) % p
            moves = self._choose_moves(state, seat, ())
            if moves:
                return state._evolve(**_ACTING_AT[index])._primed(seat, moves)
            index += 1
        return self._end_action_phase(state)

    def _settle_actions(self, state: LivingForestState, seat: int) -> LivingForestState:
        """The new ``state``, back to choosing: passed on when ``seat`` can start nothing more."""
        moves = self._choose_moves(state, seat, state.actions)
        if moves:
            return state._primed(seat, moves)
        return self._next_actor(state, state.seat_index + 1)

    def _done(self, state: LivingForestState, move: mv.Done) -> LivingForestState:
        if state.step is _CHOOSE:
            return self._next_actor(state, state.seat_index + 1)
        return self._settle_actions(state._evolve(step=_CHOOSE, budget=0, picks=0), move.player)

    def _take_fragment(self, state: LivingForestState, move: mv.TakeFragment) -> LivingForestState:
        seat, fragments = move.player, state.fragments
        state = state._evolve(
            actions=state.actions + (FRAGMENT,),
            fragments=_set(fragments, seat, fragments[seat] + 1),
        )
        return self._settle_actions(state, seat)

    def _attract(self, state: LivingForestState, move: mv.Attract) -> LivingForestState:
        seat, card = move.player, CARD_INDEX[move.card]
        actions, budget, picks = state.actions, state.budget, state.picks
        if state.step is _CHOOSE:
            actions += (ATTRACT,)
            budget = _element_totals(state.lines[seat], state.forests[seat])[SUN]
        level = CARD_LEVEL[card] - 1
        row = list(state.rows[level])
        row.remove(card)
        taken = list(state.taken)
        taken[level] += 1
        budget -= CARD_COST[card]
        state = state._evolve(
            rows=_set(state.rows, level, tuple(row)),
            decks=_set(state.decks, seat, (card,) + state.decks[seat]),
            known=_set(state.known, seat, state.known[seat] + 1),
            taken=tuple(taken),
            actions=actions,
            step=_ATTRACTING,
            budget=budget,
            picks=picks + 1,
        )
        more = _attract_choices(seat, state.rows, budget)
        if more:
            return state._primed(seat, more + (_DONE_MOVES[seat],))
        return self._settle_actions(state._evolve(step=_CHOOSE, budget=0, picks=0), seat)

    def _extinguish(self, state: LivingForestState, move: mv.Extinguish) -> LivingForestState:
        seat, value = move.player, move.value
        actions, budget, picks = state.actions, state.budget, state.picks
        if state.step is _CHOOSE:
            actions += (EXTINGUISH,)
            budget = _element_totals(state.lines[seat], state.forests[seat])[WATER]
        centre = list(state.centre)
        centre.remove(value)
        held = list(state.fires_held[seat])
        held[FIRE_VALUES.index(value)] += 1
        budget -= value
        state = state._evolve(
            centre=tuple(centre),
            fires_held=_set(state.fires_held, seat, tuple(held)),
            actions=actions,
            step=_EXTINGUISHING,
            budget=budget,
            picks=picks + 1,
        )
        more = _extinguish_choices(seat, state.centre, budget)
        if more:
            return state._primed(seat, more + (_DONE_MOVES[seat],))
        return self._settle_actions(state._evolve(step=_CHOOSE, budget=0, picks=0), seat)

    def _move(self, state: LivingForestState, move: mv.MoveSpirit) -> LivingForestState:
        seat = move.player
        rock, passed = self._move_path(state, seat, move.steps)
        passed = tuple(other for other in passed if any(state.victory[other]))
        changes = {"actions": state.actions + (MOVE,), "rocks": _set(state.rocks, seat, rock)}
        if passed:
            state = state._evolve(**changes, step=_VICTORY, passed=passed, bonus=ROCK_BONUS[rock])
            return state._primed(seat, self._victory_moves(state, seat))
        return self._extra_action(state._evolve(**changes), seat, ROCK_BONUS[rock], 0)

    def _take_victory(self, state: LivingForestState, move: mv.TakeVictory) -> LivingForestState:
        seat, source, kind = move.player, move.source, VICTORY_KINDS.index(move.kind)
        mine, theirs = list(state.victory[seat]), list(state.victory[source])
        mine[kind] += 1
        theirs[kind] -= 1
        victory = _set(_set(state.victory, seat, tuple(mine)), source, tuple(theirs))
        passed = tuple(other for other in state.passed[1:] if any(victory[other]))
        if passed:
            state = state._evolve(victory=victory, passed=passed)
            return state._primed(seat, self._victory_moves(state, seat))
        bonus = state.bonus
        return self._extra_action(
            state._evolve(victory=victory, passed=(), bonus=-1), seat, bonus, 0
        )

    def _plant(self, state: LivingForestState, move: mv.Plant) -> LivingForestState:
        seat, tree = move.player, TREE_INDEX[move.tree]
        cell = move.at[0] * FOREST_COLS + move.at[1]
        forests, fragments = state.forests, state.fragments
        changes: dict[str, Any] = {
            "forests": _set(forests, seat, _set(forests[seat], cell, tree)),
            "step": _CHOOSE,
        }
        if state.step is _CHOOSE:
            changes["actions"] = state.actions + (PLANT_ACTION,)
        gained = min(CORNER_FRAGMENTS.get(cell, 0), FRAGMENT_SUPPLY - sum(fragments))
        if gained:
            changes["fragments"] = _set(fragments, seat, fragments[seat] + gained)
        state = state._evolve(**changes)
        if cell in CORNER_EXTRA:
            action, plus = CORNER_EXTRA[cell]
            return self._extra_action(state, seat, action, plus)
        return self._settle_actions(state, seat)

    def _extra_action(
        self, state: LivingForestState, seat: int, action: int, plus: int
    ) -> LivingForestState:
        """Start a bonus action (rock or corner) at once in the new ``state``, with ``plus``
        sun/water; lost when it can do nothing."""
        totals = _element_totals(state.lines[seat], state.forests[seat])
        if action == FRAGMENT:
            fragments = state.fragments
            if sum(fragments) < FRAGMENT_SUPPLY:
                fragments = _set(fragments, seat, fragments[seat] + 1)
            return self._settle_actions(state._evolve(fragments=fragments, **_CHOOSING), seat)
        moves: Moves = ()
        step, budget = _CHOOSE, 0
        if action == ATTRACT:
            step, budget = _ATTRACTING, totals[SUN] + plus
            moves = _attract_choices(seat, state.rows, budget)
        elif action == EXTINGUISH:
            step, budget = _EXTINGUISHING, totals[WATER] + plus
            moves = _extinguish_choices(seat, state.centre, budget)
        elif action == PLANT_ACTION:
            step = _PLANTING
            moves = self._plant_moves(state, seat, totals[PLANT])
        if moves:
            return state._evolve(step=step, budget=budget, picks=0)._primed(seat, moves)
        return self._settle_actions(state._evolve(**_CHOOSING), seat)

    # End of the Action phase and of the turn ----------------------------------

    def _end_action_phase(self, state: LivingForestState) -> LivingForestState:
        totals = tuple(map(_element_totals, state.lines, state.forests))
        if state.turn >= self.turn_limit or _goal_reached(state, totals):
            return state._evolve(phase=_OVER, seat_index=0, **_CHOOSING, actions=())
        return self._end_turn(state, totals)

    def _onibi_varans(
        self, state: LivingForestState, totals: tuple[tuple[int, ...], ...]
    ) -> tuple[int, ...]:
        """Fire Varans each seat receives from Onibi's attack in ``state`` (``totals``: each
        seat's elements)."""
        p = self.num_players
        gets = [0] * p
        if not state.centre:
            return tuple(gets)
        strength = sum(state.centre)
        hit = [s for s in TURN_ORDER[p][state.sacred] if totals[s][WATER] < strength]
        if not hit:
            return tuple(gets)
        # one Varan per fire tile to each seat hit, dealt one at a time in turn order
        due, left = len(state.centre), state.varans
        if left >= due * len(hit):
            for s in hit:
                gets[s] = due
        else:
            each, extra = divmod(left, len(hit))
            for k, s in enumerate(hit):
                gets[s] = each + (k < extra)
        return tuple(gets)

    def _added_fires(
        self, state: LivingForestState
    ) -> tuple[tuple[int, ...], tuple[int, int, int]]:
        """The centre and the fire supply after Onibi attacks the Sacred Tree."""
        if not any(state.taken) and state.centre:
            return state.centre, state.fire_supply
        centre, supply = list(state.centre), list(state.fire_supply)
        for level, taken in enumerate(state.taken, 1):
            value = FIRE_OF_LEVEL[level]
            index = FIRE_VALUES.index(value)
            added = min(taken, CENTRE_LIMIT - len(centre), supply[index])
            if added > 0:
                centre += (value,) * added
                supply[index] -= added
        if not centre and supply[0]:
            centre.append(FIRE_VALUES[0])
            supply[0] -= 1
        return tuple(sorted(centre)), tuple(supply)  # type: ignore[return-value]

    def _end_turn(
        self, state: LivingForestState, totals: tuple[tuple[int, ...], ...]
    ) -> LivingForestState:
        """Onibi attacks, the reserve is refilled, Help Lines are discarded, the Tree passes
        (``totals``: each seat's elements at the end of the Action phase)."""
        p = self.num_players
        gets = self._onibi_varans(state, totals)
        centre, supply = self._added_fires(state)
        changes = {
            **_NEW_TURN,
            "varans": state.varans - sum(gets),
            "centre": centre,
            "fire_supply": supply,
            "discards": tuple(
                tuple(sorted(discard + line + (VARAN,) * got)) if line or got else discard
                for discard, line, got in zip(state.discards, state.lines, gets, strict=True)
            ),
            "lines": ((),) * p,
            "sacred": (state.sacred + 1) % p,
            "turn": state.turn + 1,
        }
        if any(state.taken):  # rows are full or their stack is empty, unless cards were taken
            changes.update(_refilled(state.rows, state.stacks))
        return self._next_revealer(self._phase_started(state._evolve(**changes)), 0)

    # ------------------------------------------------------------------ information

    def _seat_view(self, state: LivingForestState, player: int) -> LivingForestState:
        """``state`` as seat ``player`` knows it: during a simultaneous Guardian phase, every
        other seat as it started the phase (deck, known top, empty Help Line, discard pile,
        Fragments) and the Varan stack as it started plus the Varans ``player`` itself sent
        back; ``state`` itself otherwise. Every channel a seat sees is built from it
        (observation, tensor, pictures, determinize, replays)."""
        start = state.guardian_start
        if start is None:
            return state
        decks, known, discards = list(start.decks), list(start.known), list(start.discards)
        fragments = list(start.fragments)
        lines: list[tuple[int, ...]] = [()] * len(decks)
        decks[player], known[player] = state.decks[player], state.known[player]
        discards[player], fragments[player] = state.discards[player], state.fragments[player]
        lines[player] = state.lines[player]
        return state._evolve(
            decks=tuple(decks),
            known=tuple(known),
            lines=tuple(lines),
            discards=tuple(discards),
            fragments=tuple(fragments),
            varans=start.varans + saved.varans_returned(state, start, player),
        )

    def _private_move(self, state: LivingForestState, move: mv.LivingForestMove) -> bool:
        """A reveal, spend or stop of a simultaneous Guardian phase is seen by its own seat
        only (until the Action phase shows its outcome)."""
        return state.guardian_start is not None

    def _observe(self, state: LivingForestState, player: int) -> dict[str, Any]:
        """What ``player`` may see: all but deck orders, reserve stacks' orders, and how
        another Spirit's cards are split between its deck and its discard pile (``cards``
        shows them together: every card a Spirit has came from a public place); during a
        simultaneous Guardian phase, the other seats as they started it (``_seat_view``)."""
        state = self._seat_view(state, player)
        data = self.state_to_dict(state)
        del data["entropy"]
        data.pop("guardian_start", None)
        for level in data["reserve"].values():
            level["stack"] = len(level.pop("stack"))
        for seat, spirit in enumerate(data["spirits"]):
            deck = spirit.pop("deck")
            known = state.known[seat]
            spirit["deck_size"] = len(deck)
            spirit["deck_top"] = deck[:known]
            spirit["discard_size"] = len(spirit["discard"])
            spirit["cards"] = sorted(deck[known:] + spirit["discard"], key=CARD_INDEX.__getitem__)
            if seat == player:
                spirit["deck_rest"] = sorted(deck[known:])
            else:
                del spirit["discard"]
        return {"observer": player, **data}  # first, as in every game's observation

    def _determinize(self, state: LivingForestState, player: int, seed: int) -> LivingForestState:
        """A state ``player`` cannot tell from ``state``: its own deck below the known top
        reshuffled; each other Spirit's ``cards`` (its deck below the known top and its
        discard pile) dealt again between the two, at random, sizes kept; each reserve
        stack reshuffled; a fresh reshuffle seed. The cards are sorted before each shuffle:
        the sample depends on the seed and on what ``player`` sees only. During a
        simultaneous Guardian phase this is done on ``player``'s view (the others as they
        started the phase), then the others that acted play a random Guardian turn again
        (``_replayed``)."""
        rng = random.Random(int(new_rng(seed, player).integers(2**62)))
        sample = self._resampled(self._seat_view(state, player), player, rng)
        if state.guardian_start is None:
            return sample
        return self._replayed(sample, player, rng)

    def _resampled(
        self, state: LivingForestState, player: int, rng: random.Random
    ) -> LivingForestState:
        """``state`` with every order ``player`` cannot see drawn again by ``rng``."""
        decks, discards = [], []
        for seat, (deck, known) in enumerate(zip(state.decks, state.known, strict=True)):
            discard = state.discards[seat]
            pooled = deck[known:] if seat == player else deck[known:] + discard
            rest = sorted(pooled)
            shuffle(rest, rng)
            below = len(deck) - known
            decks.append(deck[:known] + tuple(rest[:below]))
            discards.append(discard if seat == player else tuple(sorted(rest[below:])))
        stacks = []
        for stack in state.stacks:
            cards = sorted(stack)
            shuffle(cards, rng)
            stacks.append(tuple(cards))
        return state._evolve(
            decks=tuple(decks),
            discards=tuple(discards),
            stacks=tuple(stacks),
            entropy=rng.getrandbits(62),
        )

    def _replayed(
        self, sample: LivingForestState, player: int, rng: random.Random
    ) -> LivingForestState:
        """``sample`` (``player``'s view, resampled) during a simultaneous Guardian phase,
        made a whole state: every seat starts the phase as it stands in ``sample``
        (``player`` as if its Help Line had come off the top of its deck, no Fragment spent,
        so that its view stays the same); then each other seat that acted plays random
        Guardian moves by ``rng``, a finished seat up to its stop, the seat now acting only
        as far as it keeps a choice."""
        decks = list(sample.decks)
        line, known = sample.lines[player], sample.known[player]
        decks[player] = line + decks[player]
        known_at_start = list(sample.known)
        known_at_start[player] = known + len(line) if known else 0
        start = GuardianStart(
            tuple(decks), tuple(known_at_start), sample.discards, sample.fragments, sample.varans
        )
        state = sample._evolve(guardian_start=start)
        order = sample.turn_order
        for index, seat in enumerate(order[: sample.seat_index + 1]):
            if seat != player:
                state = self._random_guardian_turn(state, seat, rng, index == sample.seat_index)
        return state

    def _random_guardian_turn(
        self, state: LivingForestState, seat: int, rng: random.Random, acting: bool
    ) -> LivingForestState:
        """``seat``'s Guardian turn played by random moves (``acting``: the seat to move,
        which stops short of the move that would end its turn)."""
        while True:
            moves = self._guardian_moves(state, seat)
            if len(moves) < 2:
                return state
            move = moves[rng.randrange(len(moves))]
            if isinstance(move, mv.SpendFragment):
                after = self._spent(state, move)
            elif isinstance(move, mv.Reveal):
                after = self._drawn(state, seat)
            else:  # stop
                return state
            if acting and len(self._guardian_moves(after, seat)) < 2:
                return state
            state = after

    # ------------------------------------------------------------------ saved states

    def _observation_fields(self) -> dict[str, Spec]:
        return saved.observation_fields(self)

    def _state_fields(self) -> Sequence[Field]:
        return saved.state_fields(self)

    def _state_from_fields(self, fields: dict[str, Any]) -> LivingForestState:
        return saved.state_from_fields(self, fields)

    def _invariants(self) -> Sequence[Callable[[LivingForestState], None]]:
        return saved.INVARIANTS

    # ------------------------------------------------------------------ pictures

    def _render_text(self, state: LivingForestState, player: int | None) -> str:
        return render.render_text(state, player)

    def _render_svg(self, state: LivingForestState, player: int | None) -> str:
        return render.render_svg(state, player)

    # ------------------------------------------------------------------ integer actions

    def _make_codec(self) -> LivingForestCodec:
        return LivingForestCodec(self)

    if TYPE_CHECKING:  # the base's codec, typed as this game's

        @functools.cached_property
        def codec(self) -> LivingForestCodec: ...

    # ------------------------------------------------------------------ agents' hooks

    search_iterations = 1600  # the reveals' outcomes split the tree; ~0.3 s a decision

    def evaluate_moves(
        self, state: LivingForestState, moves: Sequence[mv.LivingForestMove]
    ) -> np.ndarray:
        """The heuristic's values after each of ``moves``, valued on their seat's view (during
        a simultaneous Guardian phase the others' reveals are not the mover's to see)."""
        if moves and state.guardian_start is not None:
            state = self._seat_view(state, moves[0].player)
        return heuristic.move_values(state, moves)

    def position_value(self, state: LivingForestState) -> np.ndarray:
        return heuristic.position_value(state)

    def chance_outcome(
        self, before: LivingForestState, move: mv.LivingForestMove, after: LivingForestState
    ) -> Hashable | None:
        """A reveal's outcome is the revealer's Help Line with the card turned up; a move
        that ends the turn has the reserve as refilled from the stacks."""
        if type(move) is mv.Reveal:
            return after.lines[move.player]
        if after.turn != before.turn:
            return after.rows
        return None


# ---------------------------------------------------------------------- pure rule helpers


def _goal_reached(state: LivingForestState, totals: tuple[tuple[int, ...], ...]) -> bool:
    for forest, fires, elements, (trees_won, fires_won, flowers_won) in zip(
        state.forests, state.fires_held, totals, state.victory, strict=True
    ):
        if elements[FLOWER] + flowers_won >= GOAL or sum(fires) + fires_won >= GOAL:
            return True
        # a cheap bound first: the distinct trees are at most the planted cells
        if FOREST_CELLS - forest.count(-1) + trees_won >= GOAL:
            if _tree_count(forest) + trees_won >= GOAL:
                return True
    return False


def line_closed(solitary: int, reveal_after_third: bool) -> bool:
    """Whether a Help Line with ``solitary`` uncancelled symbols is closed to spends and reveals."""
    return solitary >= SOLITARY_LIMIT and not reveal_after_third


def may_reveal(solitary: int, can_draw: bool) -> bool:
    """Whether a seat may reveal: below 3 solitary symbols, with a deck or discard to draw from."""
    return solitary < SOLITARY_LIMIT and can_draw


def spendable_cards(line: tuple[int, ...]) -> list[int]:
    """The solitary cards of a Help Line a Fragment may send away, in card order."""
    return sorted(set(line) & SOLITARY_CARDS)


def affordable_cards(rows: tuple[tuple[int, ...], ...], sun: int) -> list[int]:
    """The face-up reserve cards costing at most ``sun``, level by level."""
    return [c for row in rows for c in row if CARD_COST[c] <= sun]


def fires_within(centre: tuple[int, ...], water: int) -> list[int]:
    """Distinct fire values in the centre of at most ``water``."""
    return sorted({v for v in centre if v <= water})


@functools.lru_cache(maxsize=1 << 12)
def free_spots(forest: tuple[int, ...]) -> tuple[int, ...]:
    """Empty cells of a forest orthogonally next to a tree."""
    return tuple(
        c
        for c in range(FOREST_CELLS)
        if forest[c] < 0 and any(forest[n] >= 0 for n in NEIGHBOURS[c])
    )


def trees_left(forests: tuple[tuple[int, ...], ...]) -> list[int]:
    """Copies of each tree type (by id) left in the supply, all forests counted."""
    left = list(TREE_COPIES[len(forests)])
    for forest in forests:
        for tree in forest:
            if tree > 0:
                left[tree] -= 1
    return left


def plant_options(
    forests: tuple[tuple[int, ...], ...], seat: int, plant: int, duplicates: bool
) -> list[tuple[int, int]]:
    """(tree id, cell) pairs ``seat`` may plant with ``plant`` points (see duplicate_trees)."""
    if plant < TREE_COST[1]:
        return []
    forest = forests[seat]
    spots = free_spots(forest)
    if not spots:
        return []
    left = trees_left(forests)
    types = [
        t
        for t in range(1, len(TREE_NAMES))
        if TREE_COST[t] <= plant and left[t] > 0 and (duplicates or t not in forest)
    ]
    return [(t, c) for t in types for c in spots]


def _forest_cell(at: Any) -> int | None:
    """The cell number of ``at`` = (row, col) on the Forest board, None if it is not one."""
    if not (isinstance(at, tuple) and len(at) == 2 and type(at[0]) is type(at[1]) is int):
        return None
    row, col = at
    return row * FOREST_COLS + col if 0 <= row < FOREST_ROWS and 0 <= col < FOREST_COLS else None


# ---------------------------------------------------------------------- move lists, built once


SEATS = range(4)
"""Every seat a game can have (move tables cover them all)."""
TURN_ORDER: Mapping[int, tuple[tuple[int, ...], ...]] = MappingProxyType(
    {p: tuple(tuple((first + k) % p for k in range(p)) for first in range(p)) for p in (2, 3, 4)}
)
"""The seats in turn order by player count and Sacred Tree holder."""
_RESERVE = [c for level in (1, 2, 3) for c in LEVEL_CARDS[level]]
_T = TypeVar("_T")


def _each_seat(build: Callable[[int], _T]) -> tuple[_T, ...]:
    return tuple(build(seat) for seat in SEATS)


def _spend_table(seat: int) -> Mapping[int, mv.SpendFragment]:
    """SpendFragment moves of ``seat``, by solitary card."""
    return MappingProxyType({c: mv.SpendFragment(seat, CARD_NAMES[c]) for c in SOLITARY_CARDS})


def _attract_table(seat: int) -> Mapping[int, mv.Attract]:
    """Attract moves of ``seat``, by reserve card."""
    return MappingProxyType({c: mv.Attract(seat, CARD_NAMES[c]) for c in _RESERVE})


def _extinguish_table(seat: int) -> Mapping[int, mv.Extinguish]:
    """Extinguish moves of ``seat``, by fire value."""
    return MappingProxyType({v: mv.Extinguish(seat, v) for v in FIRE_VALUES})


def _move_table(seat: int) -> tuple[mv.MoveSpirit, ...]:
    """MoveSpirit moves of ``seat``, by steps (0 included, never legal)."""
    return tuple(mv.MoveSpirit(seat, k) for k in range(ROCKS))


def _upto(moves: tuple[mv.MoveSpirit, ...]) -> tuple[tuple[mv.MoveSpirit, ...], ...]:
    """For each wind k, the Moves of 1..k rocks."""
    return tuple(tuple(moves[1 : k + 1]) for k in range(ROCKS))


def _victory_table(seat: int) -> tuple[tuple[mv.TakeVictory, ...], ...]:
    """TakeVictory moves of ``seat``, by source seat and tile kind."""
    return tuple(
        tuple(mv.TakeVictory(seat, source, kind) for kind in VICTORY_KINDS) for source in SEATS
    )


def _plant_table(seat: int) -> tuple[tuple[mv.Plant, ...], ...]:
    """Plant moves of ``seat``, by tree id and forest cell."""
    cells = [divmod(c, FOREST_COLS) for c in range(FOREST_CELLS)]
    return tuple(tuple(mv.Plant(seat, name, at) for at in cells) for name in TREE_NAMES)


class _MoveTable(Sealed):
    """Every move object of seats 0..3, built once (moves are values: any copy is equal).
    Read-only, as every game shares it: tuples and read-only mappings, attributes that
    cannot be set or deleted once built."""

    _read_only = "the Living Forest move table is read-only"

    def __init__(self) -> None:
        self.reveal = _each_seat(mv.Reveal)
        self.stop = _each_seat(mv.Stop)
        self.done = _each_seat(mv.Done)
        self.fragment = _each_seat(mv.TakeFragment)
        self.spend = _each_seat(_spend_table)
        self.attract = _each_seat(_attract_table)
        self.extinguish = _each_seat(_extinguish_table)
        self.move = _each_seat(_move_table)
        self.moves_upto = tuple(_upto(moves) for moves in self.move)
        self.victory = _each_seat(_victory_table)
        self.plant = _each_seat(_plant_table)
        self._seal()


MOVE_TABLE = _MoveTable()
_FRAGMENT_MOVES, _DONE_MOVES, _MOVES_UPTO = (
    MOVE_TABLE.fragment,
    MOVE_TABLE.done,
    MOVE_TABLE.moves_upto,
)


@functools.lru_cache(maxsize=1 << 14)
def _guardian_choices(
    seat: int, line: tuple[int, ...], can_draw: bool, has_fragment: bool, reveal_after_third: bool
) -> Moves:
    """A revealing seat's moves: reveal, spends of its solitary cards, stop."""
    table = MOVE_TABLE
    solitary = _solitary_count(line)
    if line_closed(solitary, reveal_after_third):
        return (table.stop[seat],)
    moves: list[mv.LivingForestMove] = []
    if may_reveal(solitary, can_draw):
        moves.append(table.reveal[seat])
    if has_fragment:
        spend = table.spend[seat]
        moves.extend(spend[c] for c in spendable_cards(line))
    moves.append(table.stop[seat])
    return tuple(moves)


@functools.lru_cache(maxsize=1 << 14)
def _attract_choices(seat: int, rows: tuple[tuple[int, ...], ...], sun: int) -> Moves:
    attract = MOVE_TABLE.attract[seat]
    return tuple(attract[c] for c in affordable_cards(rows, sun))


@functools.lru_cache(maxsize=1 << 12)
def _extinguish_choices(seat: int, centre: tuple[int, ...], water: int) -> Moves:
    extinguish = MOVE_TABLE.extinguish[seat]
    return tuple(extinguish[v] for v in fires_within(centre, water))


@functools.lru_cache(maxsize=1 << 14)
def _plant_choices(
    seat: int, forests: tuple[tuple[int, ...], ...], plant: int, duplicates: bool
) -> Moves:
    trees = MOVE_TABLE.plant[seat]
    return tuple(trees[t][c] for t, c in plant_options(forests, seat, plant, duplicates))


def _refilled(
    rows: tuple[tuple[int, ...], ...], stacks: tuple[tuple[int, ...], ...]
) -> dict[str, tuple[tuple[int, ...], ...]]:
    """Each reserve row refilled to 4 from its stack (as far as the stack goes)."""
    new_rows, new_stacks = [], []
    for row, stack in zip(rows, stacks, strict=True):
        need = ROW_SIZE - len(row)
        new_rows.append(tuple(sorted(row + stack[:need])) if need else row)
        new_stacks.append(stack[need:] if need else stack)
    return {"rows": tuple(new_rows), "stacks": tuple(new_stacks)}


def shuffle(cards: list[int], rng: random.Random) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does (Fisher-Yates over
    ``getrandbits``), written out: faster, and the game's deals stay the same should the
    standard library's shuffle ever change."""
    bits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with entry ``index`` replaced (through a list: faster than slicing)."""
    items = list(values)
    items[index] = value
    return tuple(items)


def _added(pile: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(pile + cards)) if cards else pile


ALL_ACTIONS: tuple[int, ...] = (FRAGMENT, ATTRACT, EXTINGUISH, MOVE, PLANT_ACTION)
OTHER_ACTIONS: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {a: tuple(b for b in ALL_ACTIONS if b != a) for a in ALL_ACTIONS}
)
"""The actions still open after one normal action (without Tree 11)."""

_CHOOSING = {"step": _CHOOSE, "budget": 0, "picks": 0}
_NEW_TURN = {**_CHOOSING, "phase": _GUARDIANS, "seat_index": 0, "actions": (), "taken": (0, 0, 0)}
"""The changes that start a turn's Guardian phase (beside the pieces that move)."""
_ACTING_AT = [
    {**_CHOOSING, "actions": (), "passed": (), "bonus": -1, "phase": _ACTIONS, "seat_index": k}
    for k in SEATS
]
"""The changes that hand the actions to the k-th seat of the turn."""

_ACTION_OF: dict[type, int] = {
    mv.TakeFragment: FRAGMENT,
    mv.Attract: ATTRACT,
    mv.Extinguish: EXTINGUISH,
    mv.MoveSpirit: MOVE,
    mv.Plant: PLANT_ACTION,
}
_GUARDIAN_MOVES = (mv.Reveal, mv.SpendFragment, mv.Stop)

_MOVES_OF_STEP: dict[Step, Callable[[LivingForestGame, LivingForestState, int], Moves]] = {
    Step.CHOOSE: lambda game, state, seat: game._choose_moves(state, seat, state.actions),
    Step.ATTRACT: LivingForestGame._attract_step_moves,
    Step.EXTINGUISH: LivingForestGame._extinguish_step_moves,
    Step.VICTORY: LivingForestGame._victory_moves,
    Step.PLANT: LivingForestGame._plant_step_moves,
}
_STEP_RULE: dict[Step, Callable[[LivingForestGame, LivingForestState, Any], str | None]] = {
    Step.CHOOSE: LivingForestGame._choosing_rule,
    Step.ATTRACT: LivingForestGame._gathering_rule,
    Step.EXTINGUISH: LivingForestGame._gathering_rule,
    Step.VICTORY: LivingForestGame._victory_rule,
    Step.PLANT: LivingForestGame._plant_rule,
}
_WHY_NOT: dict[type, Callable[[LivingForestGame, LivingForestState, Any], str]] = {
    mv.Reveal: LivingForestGame._why_not_reveal,
    mv.SpendFragment: LivingForestGame._why_not_spend,
    mv.Stop: LivingForestGame._why_not_other,
    mv.TakeFragment: LivingForestGame._why_not_fragment,
    mv.Attract: LivingForestGame._why_not_attract,
    mv.Extinguish: LivingForestGame._why_not_extinguish,
    mv.MoveSpirit: LivingForestGame._why_not_move,
    mv.TakeVictory: LivingForestGame._why_not_victory,
    mv.Plant: LivingForestGame._why_not_plant,
    mv.Done: LivingForestGame._why_not_other,
}
_STEP: dict[type, Callable[[LivingForestGame, LivingForestState, Any], LivingForestState]] = {
    mv.Reveal: LivingForestGame._reveal,
    mv.SpendFragment: LivingForestGame._spend,
    mv.Stop: LivingForestGame._stop,
    mv.TakeFragment: LivingForestGame._take_fragment,
    mv.Attract: LivingForestGame._attract,
    mv.Extinguish: LivingForestGame._extinguish,
    mv.MoveSpirit: LivingForestGame._move,
    mv.TakeVictory: LivingForestGame._take_victory,
    mv.Plant: LivingForestGame._plant,
    mv.Done: LivingForestGame._done,
}
