"""The Living Forest game: options, the rules (legal moves and transitions), saved states.

``LivingForestGame`` is a frozen value: its options are the rules variant.
States hand every rules question over to their game, so this module is the one
place the turn of ``rules/living_forest.md`` lives: Guardian Animals, Actions,
end of turn. A seat is never asked for a move when stopping/ending is its only
choice: the turn then passes on by itself.
"""

from __future__ import annotations

import operator
import random
from typing import Any

import attrs

from forestgames._codec import cached_codec  # codec wiring
from forestgames.core import (
    ConfigError,
    GameTraits,
    check_bool_option,
    check_option_names,
    check_player_count,
    check_seat,
    new_rng,
    resolve_seed,
)
from forestgames.living_forest import moves as mv
from forestgames.living_forest._saved import load_state, state_to_dict
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
    FOREST_CELLS,
    FOREST_COLS,
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
from forestgames.living_forest.actions import LivingForestCodec  # codec wiring
from forestgames.living_forest.scoring import solitary_count
from forestgames.living_forest.state import LivingForestState, Phase, Step

__all__ = ["OPTION_NAMES", "LivingForestGame"]

OPTION_NAMES = (
    "num_players",
    "fire_tiles",
    "duplicate_trees",
    "reveal_after_third",
    "varan_returns",
    "turn_limit",
)
_MOVES_PER_SEAT_TURN = 200  # reveals + spends (≤ 110) and actions with their picks (≤ 90)


def _int_option(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"option {name} must be an int in {low}..{high}, not {value!r}")
    return value


def _fire_tiles_option(value: Any) -> tuple[int, int, int]:
    if not isinstance(value, tuple | list) or len(value) != 3:
        raise ConfigError(f"option fire_tiles must be 3 counts (values 2, 3, 4), not {value!r}")
    counts = tuple(_int_option("fire_tiles", v, 0, 100) for v in value)
    if counts[0] < 1:
        raise ConfigError("option fire_tiles needs at least one fire of value 2 (the first fire)")
    return counts  # type: ignore[return-value]


@attrs.frozen(repr=False)
class LivingForestGame:
    """Living Forest for 2–4 Spirits with its options fixed. Build with ``create``.

    Options (see docs/living_forest.md, "Choices"):

    * ``fire_tiles``: fire tiles of value 2, 3, 4 (default ``(20, 20, 18)``).
    * ``duplicate_trees``: a Spirit may plant a second tree of a type it has
      (default True); only different types count toward the goal anyway.
    * ``reveal_after_third``: after the third solitary symbol a Spirit may still
      spend Fragments and, below 3 again, reveal on (default True, as the digital
      version); False: that card closes the Help Line (the seed's wording).
    * ``varan_returns``: a Fire Varan sent away with a Fragment goes back to the
      Varan stack (default False: to the discard pile, as the seed says).
    * ``turn_limit``: the game also ends after this turn's Action phase (default
      100; the printed game has no limit, random play needs one).
    """

    name = "living_forest"

    num_players: int
    fire_tiles: tuple[int, int, int] = DEFAULT_FIRE_TILES
    duplicate_trees: bool = True
    reveal_after_third: bool = True
    varan_returns: bool = False
    turn_limit: int = 100

    @classmethod
    def create(cls, **options: Any) -> LivingForestGame:
        """Validate ``options`` (see the class docstring); ConfigError names a bad one."""
        check_option_names("Living Forest", options, OPTION_NAMES)
        return cls(
            check_player_count("Living Forest", options.get("num_players", 2), 2, 4),
            _fire_tiles_option(options.get("fire_tiles", DEFAULT_FIRE_TILES)),
            check_bool_option("duplicate_trees", options.get("duplicate_trees", True)),
            check_bool_option("reveal_after_third", options.get("reveal_after_third", True)),
            check_bool_option("varan_returns", options.get("varan_returns", False)),
            _int_option("turn_limit", options.get("turn_limit", 100), 1, 10_000),
        )

    def __repr__(self) -> str:
        return f"LivingForestGame.create(**{self.options()!r})"

    @property
    def traits(self) -> GameTraits:
        p = self.num_players
        return GameTraits(
            "living_forest", 2, 4, True, True, False,
            self.turn_limit * p * _MOVES_PER_SEAT_TURN, (0, 400),
        )  # fmt: skip

    def options(self) -> dict[str, Any]:
        """The options that rebuild this game with ``make("living_forest", **options)``."""
        return {
            "num_players": self.num_players,
            "fire_tiles": list(self.fire_tiles),
            "duplicate_trees": self.duplicate_trees,
            "reveal_after_third": self.reveal_after_third,
            "varan_returns": self.varan_returns,
            "turn_limit": self.turn_limit,
        }

    # codec wiring: integer actions and tensors (forestgames.living_forest.actions)

    @property
    def codec(self) -> LivingForestCodec:  # codec wiring
        return cached_codec(self, LivingForestCodec)  # type: ignore[no-any-return]

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

    def parse_move(self, text: str) -> mv.LivingForestMove:
        """The move written as ``text``; ParseError if it is not Living Forest notation."""
        return mv.parse_move(text)

    @property
    def max_steps(self) -> int:
        """The longest Move: short of a full lap, so no Spirit is passed twice."""
        return ROCKS - self.num_players

    # ------------------------------------------------------------------ new game

    def new_game(
        self, seed: int | None = None, first_player: int | None = None
    ) -> LivingForestState:
        """Turn 1, Guardian phase; decks and reserve shuffled from ``seed``."""
        seed = resolve_seed(seed)
        p = self.num_players
        if first_player is None:
            first_player = int(new_rng(seed, 0).integers(p))
        first_player = check_seat(p, first_player, "first_player")
        rng = random.Random(int(new_rng(seed, 1).integers(2**62)))
        decks = []
        for _ in range(p):
            deck = list(START_DECK)
            rng.shuffle(deck)
            decks.append(tuple(deck))
        stacks, rows = [], []
        for level in (1, 2, 3):
            cards = list(LEVEL_CARDS[level])
            rng.shuffle(cards)
            rows.append(tuple(sorted(cards[:ROW_SIZE])))
            stacks.append(tuple(cards[ROW_SIZE:]))
        forest = tuple(START_TREE if c == START_CELL else -1 for c in range(FOREST_CELLS))
        rocks = [0] * p
        for k, rock in enumerate(START_ROCKS[p]):
            rocks[(first_player + k) % p] = rock
        f2, f3, f4 = self.fire_tiles
        state = LivingForestState(
            game=self,
            phase=Phase.GUARDIANS,
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
            step=Step.CHOOSE,
            budget=0,
            picks=0,
            passed=(),
            bonus=-1,
            entropy=rng.getrandbits(62),
        )
        return self._next_revealer(state, 0)

    # ------------------------------------------------------------------ legal moves

    def legal_moves_of(self, state: LivingForestState, player: int) -> tuple[Any, ...]:
        """The moves of ``player`` now (empty when it is not their decision)."""
        if player != state.current_player:
            return ()
        moves = state.memo.get(player)
        if moves is None:
            moves = state.memo[player] = self._moves_now(state, player)
        return moves

    def _moves_now(self, state: LivingForestState, player: int) -> tuple[Any, ...]:
        if state.phase is Phase.GUARDIANS:
            return self._guardian_moves(state, player)
        step = state.step
        if step is Step.CHOOSE:
            return self._choose_moves(state, player)
        table = MOVE_TABLE
        found: list[Any]
        if step is Step.ATTRACT:
            found = [table.attract[player][c] for c in self._affordable_cards(state, state.budget)]
        elif step is Step.EXTINGUISH:
            found = [table.extinguish[player][v] for v in _fires_within(state.centre, state.budget)]
        elif step is Step.VICTORY:
            source = state.passed[0]
            tiles = state.victory[source]
            return tuple(table.victory[player][source][k] for k in range(3) if tiles[k])
        else:
            plant = state.totals(player)[PLANT]
            return tuple(
                table.plant[player][t][c] for t, c in self.plant_options(state, player, plant)
            )
        if state.picks:
            found.append(table.done[player])
        return tuple(found)

    def _guardian_moves(self, state: LivingForestState, seat: int) -> tuple[Any, ...]:
        table = MOVE_TABLE
        line = state.lines[seat]
        count = solitary_count(line)
        if count >= SOLITARY_LIMIT and not self.reveal_after_third:
            return (table.stop[seat],)
        moves: list[Any] = []
        if count < SOLITARY_LIMIT and (state.decks[seat] or state.discards[seat]):
            moves.append(table.reveal[seat])
        if state.fragments[seat]:
            spend = table.spend[seat]
            moves.extend(spend[c] for c in sorted(set(line) & SOLITARY_CARDS))
        moves.append(table.stop[seat])
        return tuple(moves)

    def action_limit(self, state: LivingForestState, seat: int) -> int:
        """Normal actions ``seat`` may take this turn: 2, or 1 with 3 solitary symbols."""
        return 1 if solitary_count(state.lines[seat]) >= SOLITARY_LIMIT else 2

    def _choose_moves(self, state: LivingForestState, seat: int) -> tuple[Any, ...]:
        """Every way to start a normal action, then ``done``."""
        table = MOVE_TABLE
        done = state.actions
        moves: list[Any] = []
        if len(done) < self.action_limit(state, seat):
            repeat = SAME_ACTION_TREE in state.forests[seat]
            sun, water, plant, wind, _ = state.totals(seat)
            if (repeat or FRAGMENT not in done) and sum(state.fragments) < FRAGMENT_SUPPLY:
                moves.append(table.fragment[seat])
            if repeat or ATTRACT not in done:
                attract = table.attract[seat]
                moves.extend(attract[c] for c in self._affordable_cards(state, sun))
            if repeat or EXTINGUISH not in done:
                extinguish = table.extinguish[seat]
                moves.extend(extinguish[v] for v in _fires_within(state.centre, water))
            if (repeat or MOVE not in done) and wind:
                steps = table.move[seat]
                moves.extend(steps[k] for k in range(1, min(wind, self.max_steps) + 1))
            if repeat or PLANT_ACTION not in done:
                trees = table.plant[seat]
                moves.extend(trees[t][c] for t, c in self.plant_options(state, seat, plant))
        if moves:
            moves.append(table.done[seat])
        return tuple(moves)

    @staticmethod
    def _affordable_cards(state: LivingForestState, sun: int) -> list[int]:
        return [c for row in state.rows for c in row if CARD_COST[c] <= sun]

    def plant_options(
        self, state: LivingForestState, seat: int, plant: int
    ) -> list[tuple[int, int]]:
        """(tree id, cell) pairs ``seat`` may plant with ``plant`` points."""
        if plant < TREE_COST[1]:
            return []
        forest = state.forests[seat]
        spots = [
            c
            for c in range(FOREST_CELLS)
            if forest[c] < 0 and any(forest[n] >= 0 for n in NEIGHBOURS[c])
        ]
        if not spots:
            return []
        left = list(TREE_COPIES[self.num_players])
        for other in state.forests:
            for tree in other:
                if tree > 0:
                    left[tree] -= 1
        types = [
            t
            for t in range(1, len(TREE_NAMES))
            if TREE_COST[t] <= plant and left[t] > 0 and (self.duplicate_trees or t not in forest)
        ]
        return [(t, c) for t in types for c in spots]

    # ------------------------------------------------------------------ why a move is illegal

    def why_illegal(self, state: LivingForestState, move: Any) -> str:
        """A message naming the rule ``move`` breaks in ``state``."""
        if not isinstance(move, _MOVE_CLASSES):
            return f"{move!r} is not a Living Forest move"
        seat = move.player
        if seat != state.current_player:
            return f"{move}: it is seat {state.current_player}'s turn, not seat {seat}'s"
        if state.phase is Phase.GUARDIANS:
            return self._why_illegal_reveal(state, move)
        if isinstance(move, mv.Reveal | mv.Stop | mv.SpendFragment):
            return f"{move}: Guardian Animals are revealed before the Action phase, not now"
        step = state.step
        if step is Step.VICTORY:
            source = state.passed[0]
            kinds = [VICTORY_KINDS[k] for k in range(3) if state.victory[source][k]]
            return f"{move}: take one of seat {source}'s Victory tiles first ({', '.join(kinds)})"
        if step is Step.PLANT and not isinstance(move, mv.Plant):
            return f"{move}: the rock's bonus Plant action comes first"
        if step in (Step.ATTRACT, Step.EXTINGUISH):
            expected = mv.Attract if step is Step.ATTRACT else mv.Extinguish
            if isinstance(move, mv.Done):
                return f"{move}: this bonus {step.value} must take something first"
            if not isinstance(move, expected):
                return f"{move}: finish the {step.value} under way first (or 'done')"
        elif step is Step.CHOOSE and type(move) in _ACTION_OF:
            if (
                _ACTION_OF[type(move)] in state.actions
                and SAME_ACTION_TREE not in state.forests[seat]
            ):
                return f"{move}: the two actions must differ (without Tree 11)"
        totals = state.totals(seat)
        if isinstance(move, mv.TakeFragment):
            return f"{move}: the Fragment supply is empty"
        if isinstance(move, mv.Attract):
            card = CARD_INDEX.get(move.card) if isinstance(move.card, str) else None
            if card is None or not any(card in row for row in state.rows):
                return f"{move}: {move.card!r} is not face up in the reserve"
            budget = state.budget if step is Step.ATTRACT else totals[SUN]
            return f"{move}: {move.card} costs {CARD_COST[card]} sun, only {budget} available"
        if isinstance(move, mv.Extinguish):
            if move.value not in state.centre:
                return f"{move}: no fire of value {move.value!r} in the centre"
            budget = state.budget if step is Step.EXTINGUISH else totals[WATER]
            return f"{move}: a fire of value {move.value} needs {move.value} water, only {budget}"
        if isinstance(move, mv.MoveSpirit):
            return f"{move}: a Move goes 1 to min(wind {totals[WIND]}, {self.max_steps}) rocks"
        if isinstance(move, mv.TakeVictory):
            return f"{move}: no Victory tile is due to seat {seat} now"
        if isinstance(move, mv.Plant):
            return self._why_illegal_plant(state, move, totals[PLANT])
        return f"{move} is not legal now"

    def _why_illegal_reveal(self, state: LivingForestState, move: Any) -> str:
        seat = move.player
        if not isinstance(move, mv.Reveal | mv.Stop | mv.SpendFragment):
            return f"{move}: the Guardian Animals phase allows only reveal, spend and stop"
        count = solitary_count(state.lines[seat])
        if isinstance(move, mv.Reveal):
            if count >= SOLITARY_LIMIT:
                return f"{move}: {count} uncancelled solitary symbols: revealing must stop"
            return f"{move}: seat {seat}'s deck and discard pile are both empty"
        if isinstance(move, mv.SpendFragment):
            if not state.fragments[seat]:
                return f"{move}: seat {seat} has no Fragment"
            if count >= SOLITARY_LIMIT and not self.reveal_after_third:
                return f"{move}: the third solitary symbol closed the Help Line"
            return f"{move}: no solitary card {move.card!r} in seat {seat}'s Help Line"
        return f"{move} is not legal now"

    def _why_illegal_plant(self, state: LivingForestState, move: mv.Plant, plant: int) -> str:
        tree = TREE_INDEX.get(move.tree, 0) if isinstance(move.tree, str) else 0
        at = move.at
        if not tree:
            return f"{move}: no tree type {move.tree!r} (3A..11)"
        if not (isinstance(at, tuple) and len(at) == 2 and all(type(x) is int for x in at)
                and 0 <= at[0] < 3 and 0 <= at[1] < FOREST_COLS):  # fmt: skip
            return f"{move}: forest cells are (row 0..2, col 0..4)"
        forest = state.forests[move.player]
        cell = at[0] * FOREST_COLS + at[1]
        if TREE_COST[tree] > plant:
            return f"{move}: tree {move.tree} costs {TREE_COST[tree]} plant, only {plant}"
        if forest[cell] >= 0:
            return f"{move}: cell {at} already has a tree"
        if not any(forest[n] >= 0 for n in NEIGHBOURS[cell]):
            return f"{move}: cell {at} is not orthogonally next to a tree"
        if not self.duplicate_trees and tree in forest:
            return f"{move}: seat {move.player} already has a tree {move.tree}"
        return f"{move}: no tree {move.tree} left in the supply"

    # ------------------------------------------------------------------ transitions

    def apply_move(self, state: LivingForestState, move: Any) -> LivingForestState:
        """The state after legal ``move`` (the caller has checked legality)."""
        kind = type(move)
        seat = move.player
        if kind is mv.Reveal:
            return self._settle_reveal(self._reveal(state, seat))
        if kind is mv.SpendFragment:
            return self._settle_reveal(self._spend(state, seat, CARD_INDEX[move.card]))
        if kind is mv.Stop:
            return self._next_revealer(state, state.seat_index + 1)
        if kind is mv.Done:
            if state.step is Step.CHOOSE:
                return self._next_actor(state, state.seat_index + 1)
            return self._settle_actions(_evolve(state, step=Step.CHOOSE, budget=0, picks=0))
        if state.step is Step.CHOOSE:
            action = _ACTION_OF[kind]
            state = _evolve(state, actions=state.actions + (action,))
            if kind is mv.Attract:
                state = _evolve(state, step=Step.ATTRACT, budget=state.totals(seat)[SUN])
            elif kind is mv.Extinguish:
                state = _evolve(state, step=Step.EXTINGUISH, budget=state.totals(seat)[WATER])
        if kind is mv.Attract:
            return self._attract(state, seat, CARD_INDEX[move.card])
        if kind is mv.Extinguish:
            return self._extinguish(state, seat, move.value)
        if kind is mv.TakeFragment:
            return self._settle_actions(self._gain_fragments(state, seat, 1))
        if kind is mv.MoveSpirit:
            return self._move(state, seat, move.steps)
        if kind is mv.TakeVictory:
            return self._take_victory(state, seat, move.source, VICTORY_KINDS.index(move.kind))
        assert kind is mv.Plant
        return self._plant(
            state, seat, TREE_INDEX[move.tree], move.at[0] * FOREST_COLS + move.at[1]
        )

    # Guardian Animals --------------------------------------------------------

    def _reveal(self, state: LivingForestState, seat: int) -> LivingForestState:
        deck, discard, entropy = state.decks[seat], state.discards[seat], state.entropy
        if not deck:
            rng = random.Random(entropy)
            cards = list(discard)
            rng.shuffle(cards)
            deck, discard, entropy = tuple(cards), (), rng.getrandbits(62)
        known = state.known[seat]
        return _evolve(
            state,
            decks=_set(state.decks, seat, deck[1:]),
            known=_set(state.known, seat, known - 1) if known else state.known,
            lines=_set(state.lines, seat, state.lines[seat] + deck[:1]),
            discards=_set(state.discards, seat, discard),
            entropy=entropy,
        )

    def _spend(self, state: LivingForestState, seat: int, card: int) -> LivingForestState:
        line = list(state.lines[seat])
        line.remove(card)
        away: dict[str, Any]
        if card == VARAN and self.varan_returns:
            away = {"varans": state.varans + 1}
        else:
            away = {"discards": _set(state.discards, seat, _added(state.discards[seat], (card,)))}
        return _evolve(
            state,
            lines=_set(state.lines, seat, tuple(line)),
            fragments=_set(state.fragments, seat, state.fragments[seat] - 1),
            **away,
        )

    def _settle_reveal(self, state: LivingForestState) -> LivingForestState:
        """Pass the reveal on when stopping is the seat's only choice."""
        if self._has_choice(state, self._guardian_moves):
            return state
        return self._next_revealer(state, state.seat_index + 1)

    def _next_revealer(self, state: LivingForestState, index: int) -> LivingForestState:
        """Hand the reveal to the ``index``-th seat of the turn, or start the Action phase."""
        while index < self.num_players:
            state = _evolve(state, phase=Phase.GUARDIANS, seat_index=index)
            if self._has_choice(state, self._guardian_moves):
                return state
            index += 1
        return self._next_actor(state, 0)

    @staticmethod
    def _has_choice(state: LivingForestState, moves_of: Any) -> bool:
        """Whether the acting seat has more than stop/done; its moves are kept if so."""
        seat = state.current_player
        assert seat is not None
        moves = moves_of(state, seat)
        if len(moves) > 1:
            state.memo[seat] = moves
            return True
        return False

    # Actions -----------------------------------------------------------------

    def _next_actor(self, state: LivingForestState, index: int) -> LivingForestState:
        """Hand the actions to the ``index``-th seat of the turn, or end the Action phase."""
        while index < self.num_players:
            state = _evolve(
                state, phase=Phase.ACTIONS, seat_index=index, actions=(), step=Step.CHOOSE,
                budget=0, picks=0, passed=(), bonus=-1,
            )  # fmt: skip
            if self._has_choice(state, self._choose_moves):
                return state
            index += 1
        return self._end_action_phase(state)

    def _settle_actions(self, state: LivingForestState) -> LivingForestState:
        """Back to choosing: pass on when the seat can start no further action."""
        if self._has_choice(state, self._choose_moves):
            return state
        return self._next_actor(state, state.seat_index + 1)

    def _gain_fragments(self, state: LivingForestState, seat: int, count: int) -> LivingForestState:
        gained = min(count, FRAGMENT_SUPPLY - sum(state.fragments))
        if not gained:
            return state
        return _evolve(state, fragments=_set(state.fragments, seat, state.fragments[seat] + gained))

    def _attract(self, state: LivingForestState, seat: int, card: int) -> LivingForestState:
        level = CARD_LEVEL[card]
        row = list(state.rows[level - 1])
        row.remove(card)
        taken = list(state.taken)
        taken[level - 1] += 1
        budget = state.budget - CARD_COST[card]
        state = _evolve(
            state,
            rows=_set(state.rows, level - 1, tuple(row)),
            decks=_set(state.decks, seat, (card,) + state.decks[seat]),
            known=_set(state.known, seat, state.known[seat] + 1),
            taken=tuple(taken),
            budget=budget,
            picks=state.picks + 1,
        )
        if self._affordable_cards(state, budget):
            return state
        return self._settle_actions(_evolve(state, step=Step.CHOOSE, budget=0, picks=0))

    def _extinguish(self, state: LivingForestState, seat: int, value: int) -> LivingForestState:
        centre = list(state.centre)
        centre.remove(value)
        held = list(state.fires_held[seat])
        held[FIRE_VALUES.index(value)] += 1
        budget = state.budget - value
        state = _evolve(
            state,
            centre=tuple(centre),
            fires_held=_set(state.fires_held, seat, tuple(held)),
            budget=budget,
            picks=state.picks + 1,
        )
        if _fires_within(state.centre, budget):
            return state
        return self._settle_actions(_evolve(state, step=Step.CHOOSE, budget=0, picks=0))

    def move_path(
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

    def _move(self, state: LivingForestState, seat: int, steps: int) -> LivingForestState:
        rock, passed = self.move_path(state, seat, steps)
        state = _evolve(state, rocks=_set(state.rocks, seat, rock))
        passed = tuple(other for other in passed if any(state.victory[other]))
        if passed:
            return _evolve(state, step=Step.VICTORY, passed=passed, bonus=ROCK_BONUS[rock])
        return self._extra_action(state, seat, ROCK_BONUS[rock], 0)

    def _take_victory(
        self, state: LivingForestState, seat: int, source: int, kind: int
    ) -> LivingForestState:
        mine, theirs = list(state.victory[seat]), list(state.victory[source])
        mine[kind] += 1
        theirs[kind] -= 1
        victory = _set(_set(state.victory, seat, tuple(mine)), source, tuple(theirs))
        passed = tuple(other for other in state.passed[1:] if any(victory[other]))
        state = _evolve(state, victory=victory, passed=passed)
        if passed:
            return state
        bonus = state.bonus
        return self._extra_action(_evolve(state, bonus=-1), seat, bonus, 0)

    def _plant(
        self, state: LivingForestState, seat: int, tree: int, cell: int
    ) -> LivingForestState:
        state = _evolve(
            state,
            forests=_set(state.forests, seat, _set(state.forests[seat], cell, tree)),
            step=Step.CHOOSE,
        )
        if cell in CORNER_FRAGMENTS:
            state = self._gain_fragments(state, seat, CORNER_FRAGMENTS[cell])
        if cell in CORNER_EXTRA:
            action, plus = CORNER_EXTRA[cell]
            return self._extra_action(state, seat, action, plus)
        return self._settle_actions(state)

    def _extra_action(
        self, state: LivingForestState, seat: int, action: int, plus: int
    ) -> LivingForestState:
        """Start a bonus action (rock or corner) at once, with ``plus`` sun/water;
        lost when it can do nothing."""
        state = _evolve(state, step=Step.CHOOSE, budget=0, picks=0)
        totals = state.totals(seat)
        if action == FRAGMENT:
            return self._settle_actions(self._gain_fragments(state, seat, 1))
        if action == ATTRACT:
            budget = totals[SUN] + plus
            if self._affordable_cards(state, budget):
                return _evolve(state, step=Step.ATTRACT, budget=budget)
        elif action == EXTINGUISH:
            budget = totals[WATER] + plus
            if _fires_within(state.centre, budget):
                return _evolve(state, step=Step.EXTINGUISH, budget=budget)
        elif action == PLANT_ACTION and self.plant_options(state, seat, totals[PLANT]):
            return _evolve(state, step=Step.PLANT)
        return self._settle_actions(state)

    # End of the Action phase and of the turn ----------------------------------

    def _end_action_phase(self, state: LivingForestState) -> LivingForestState:
        state = _evolve(state, seat_index=0, actions=(), step=Step.CHOOSE, budget=0, picks=0)
        if state.turn >= self.turn_limit or any(max(p) >= GOAL for p in state.progress):
            return _evolve(state, phase=Phase.OVER)
        return self._end_turn(state)

    def onibi_varans(self, state: LivingForestState) -> tuple[int, ...]:
        """Fire Varans each seat receives from Onibi's attack in ``state``."""
        p = self.num_players
        gets = [0] * p
        if not state.centre:
            return tuple(gets)
        strength, due = sum(state.centre), len(state.centre)
        hit = [s for s in state.turn_order if state.totals(s)[WATER] < strength]
        left = state.varans
        for _ in range(due):
            for s in hit:
                if left:
                    gets[s] += 1
                    left -= 1
        return tuple(gets)

    def added_fires(self, state: LivingForestState) -> tuple[tuple[int, ...], tuple[int, int, int]]:
        """The centre and the fire supply after Onibi attacks the Sacred Tree."""
        centre, supply = list(state.centre), list(state.fire_supply)
        for level in (1, 2, 3):
            value = FIRE_OF_LEVEL[level]
            index = FIRE_VALUES.index(value)
            for _ in range(state.taken[level - 1]):
                if len(centre) < CENTRE_LIMIT and supply[index]:
                    centre.append(value)
                    supply[index] -= 1
        if not centre and supply[0]:
            centre.append(FIRE_VALUES[0])
            supply[0] -= 1
        return tuple(sorted(centre)), tuple(supply)  # type: ignore[return-value]

    def _end_turn(self, state: LivingForestState) -> LivingForestState:
        gets = self.onibi_varans(state)
        centre, supply = self.added_fires(state)
        rows, stacks = [], []
        for row, stack in zip(state.rows, state.stacks, strict=True):
            need = ROW_SIZE - len(row)
            rows.append(tuple(sorted(row + stack[:need])))
            stacks.append(stack[need:])
        discards = tuple(
            _added(discard, line + (VARAN,) * got)
            for discard, line, got in zip(state.discards, state.lines, gets, strict=True)
        )
        state = _evolve(
            state,
            varans=state.varans - sum(gets),
            centre=centre,
            fire_supply=supply,
            rows=tuple(rows),
            stacks=tuple(stacks),
            discards=discards,
            lines=((),) * self.num_players,
            taken=(0, 0, 0),
            sacred=(state.sacred + 1) % self.num_players,
            turn=state.turn + 1,
        )
        return self._next_revealer(state, 0)

    # ------------------------------------------------------------------ saved states

    def state_to_dict(self, state: LivingForestState) -> dict[str, Any]:
        """The JSON-able form of ``state`` (see ``state_from_dict``)."""
        return state_to_dict(state)

    def state_from_dict(self, data: Any) -> LivingForestState:
        """The state ``data`` describes (from ``to_dict``); StateError if it is malformed
        or breaks the rules' invariants."""
        return load_state(self, data)


# ---------------------------------------------------------------------- helpers and tables

_ACTION_OF = {
    mv.TakeFragment: FRAGMENT,
    mv.Attract: ATTRACT,
    mv.Extinguish: EXTINGUISH,
    mv.MoveSpirit: MOVE,
    mv.Plant: PLANT_ACTION,
}
_MOVE_CLASSES = (
    mv.Reveal, mv.SpendFragment, mv.Stop, mv.TakeFragment, mv.Attract, mv.Extinguish,
    mv.MoveSpirit, mv.TakeVictory, mv.Plant, mv.Done,
)  # fmt: skip

_FIELDS = tuple(a.name for a in attrs.fields(LivingForestState) if a.init)
_FIELD_INDEX = {name: k for k, name in enumerate(_FIELDS)}
_ALL_FIELDS = operator.attrgetter(*_FIELDS)


def _evolve(state: LivingForestState, **changes: Any) -> LivingForestState:
    """``attrs.evolve`` without its per-call introspection (a hot path)."""
    values = list(_ALL_FIELDS(state))
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return LivingForestState(*values)


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


def _added(pile: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(pile + cards)) if cards else pile


def _fires_within(centre: tuple[int, ...], water: int) -> list[int]:
    """Distinct fire values in the centre of at most ``water``."""
    return sorted({v for v in centre if v <= water})


class _MoveTable:
    """Every move object of seats 0..3, built once (moves are values: any copy is equal)."""

    def __init__(self) -> None:
        seats = range(4)
        self.reveal = [mv.Reveal(p) for p in seats]
        self.stop = [mv.Stop(p) for p in seats]
        self.done = [mv.Done(p) for p in seats]
        self.fragment = [mv.TakeFragment(p) for p in seats]
        self.spend = [
            {c: mv.SpendFragment(p, CARD_NAMES[c]) for c in SOLITARY_CARDS} for p in seats
        ]
        reserve = [c for level in (1, 2, 3) for c in LEVEL_CARDS[level]]
        self.attract = [{c: mv.Attract(p, CARD_NAMES[c]) for c in reserve} for p in seats]
        self.extinguish = [{v: mv.Extinguish(p, v) for v in FIRE_VALUES} for p in seats]
        self.move = [[mv.MoveSpirit(p, k) for k in range(ROCKS)] for p in seats]
        self.victory = [
            [[mv.TakeVictory(p, q, kind) for kind in VICTORY_KINDS] for q in seats] for p in seats
        ]
        cells = [divmod(c, FOREST_COLS) for c in range(FOREST_CELLS)]
        self.plant = [
            [[mv.Plant(p, name, at) for at in cells] for name in TREE_NAMES] for p in seats
        ]


MOVE_TABLE = _MoveTable()
