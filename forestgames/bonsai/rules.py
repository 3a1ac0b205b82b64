"""The Bonsai game: options, the rules (legal moves and transitions), saved states.

``BonsaiGame`` is a frozen value: its options are the rules variant. It is the
one place the rules live: a turn is Meditate (take a card and its slot's
tiles, resolve it, discard over the storage limit) or Cultivate (place tiles
by the Seishi and Growth symbols), then goals, then the end check. States hand
every rules question over to it through the engine base's hooks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from forestgames.bonsai import moves as mv
from forestgames.bonsai import render, saved
from forestgames.bonsai._tables import (
    ALL_GOALS_MASK,
    BASE_STORAGE,
    CARD_TYPES,
    COLOURS,
    COORD_LIMIT,
    DECKS,
    GOAL_IDS,
    GOALS,
    GROWTH_CARDS,
    HELPER_SYMBOLS,
    KIND_INDEX,
    KINDS,
    MARKET_SIZE,
    SEISHI_SYMBOLS,
    SLOT_CHOICE,
    SLOT_TILES,
    SOLO_STARTING_TILES,
    SOLO_TARGETS,
    STARTING_TILES,
    TOOL_CARD,
    TOOL_STORAGE,
    WILD,
    CardKind,
    cell_of,
    deck_counts,
    qr_of,
)
from forestgames.bonsai.actions import BonsaiCodec
from forestgames.bonsai.scoring import goal_points, parchments_points
from forestgames.bonsai.state import BonsaiState, Phase
from forestgames.bonsai.tree import Tree
from forestgames.core import (
    ConfigError,
    GameBase,
    Option,
    StateBase,
    describe_move,
    excerpt,
    new_rng,
)
from forestgames.schema import Field, Spec

__all__ = ["END_RULES", "GOAL_SETUPS", "OPTIONS", "BonsaiGame"]

GOAL_SETUPS = ("all", "published")
END_RULES = ("round", "extra_turn")
NO_SYMBOLS = (0, 0, 0, 0, 0)

Symbols = tuple[int, int, int, int, int]
Supply = tuple[int, int, int, int]
Changes = dict[str, Any]


def _is_solo(options: Mapping[str, Any]) -> bool:
    return bool(options["num_players"] == 1)


OPTIONS = (
    Option.players("Bonsai", 2, 1, 4, "seats; 1 is the solo game"),
    Option.choice(
        "goal_setup",
        lambda options: "published" if _is_solo(options) else "all",
        GOAL_SETUPS,
        '`"all"`: all 15 goal tiles (the summary); `"published"`: 3 colours drawn at '
        "random (from the game's seed), their medium tiles removed with 1–2 players (the "
        "published rules; solo always plays it)",
        default_doc='`"all"` (solo: `"published"`)',
    ),
    Option.choice(
        "end_rule",
        "round",
        END_RULES,
        '`"round"`: once the deck is empty the round is finished (the summary); '
        '`"extra_turn"`: every player, the one who emptied the deck included, plays one more '
        "turn (the published rule)",
    ),
    Option.boolean(
        "pot_sides_free",
        True,
        "a flower's sides on pot cells are free; `False` counts the pot as a tile (a "
        "literal reading of the summary)",
    ),
    Option.boolean(
        "wood_beside_pot",
        False,
        'wood may also go on any cell beside the pot (the summary\'s "touch the pot" read '
        "literally)",
    ),
    Option.integer(
        "solo_difficulty",
        1,
        1,
        4,
        "the 80 / 100 / 120 / 140 point target",
        when=_is_solo,
        when_doc="solo games",
        omit_default=True,
    ),
)


@attrs.frozen(slots=False, repr=False)
class BonsaiGame(
    GameBase[BonsaiState, mv.BonsaiMove],
    name="bonsai",
    title="Bonsai",
    players=(1, 4),
    chance=True,
    hidden_information=True,
    out_of_turn=False,
):
    """Bonsai for 1–4 players with its options fixed (``fg.make("bonsai", **options)``).

    Options: see ``OPTIONS`` and docs/bonsai.md (Options, Choices).
    """

    OPTIONS = OPTIONS
    MOVE_TYPES = mv.MOVE_TYPES
    CASES = (
        {
            "num_players": 3,
            "goal_setup": "published",
            "end_rule": "extra_turn",
            "pot_sides_free": False,
            "wood_beside_pot": True,
        },
        {"num_players": 1, "solo_difficulty": 4},
        {"num_players": 1, "end_rule": "extra_turn"},
    )

    num_players: int
    goal_setup: str = attrs.field(  # as make's default: "published" for the solo game
        default=attrs.Factory(
            lambda game: "published" if game.num_players == 1 else "all", takes_self=True
        )
    )
    end_rule: str = "round"
    pot_sides_free: bool = True
    wood_beside_pot: bool = False
    solo_difficulty: int = 1

    @classmethod
    def _check_options(cls, values: dict[str, Any]) -> None:
        if values["num_players"] == 1 and values["goal_setup"] != "published":
            raise ConfigError(
                "solo Bonsai always plays the published goal setup (goal_setup='published')"
            )

    # ------------------------------------------------------------------ description

    def _max_moves(self) -> int:
        cards, tiles = self._most_cards_and_tiles()
        # Meditate <= cards; place + discard <= tiles; prune <= tiles;
        # finish <= turns <= cards + tiles
        return 2 * cards + 3 * tiles + len(GOALS) * self.num_players

    def _score_range(self) -> tuple[int, int]:
        cards, tiles = self._most_cards_and_tiles()
        return (0, 9 * tiles + 70 + 2 * cards)

    def _most_cards_and_tiles(self) -> tuple[int, int]:
        """The cards of the deck, and at most how many tiles a game hands out."""
        cards = sum(deck_counts(self.num_players))
        return cards, 10 + 5 * cards  # starting tiles, then at most 5 per card taken

    def max_turns(self) -> int:
        """At most how many turns a game lasts (each takes a card or places a tile)."""
        cards, tiles = self._most_cards_and_tiles()
        return cards + tiles

    def _parse_move(self, text: str) -> mv.BonsaiMove:
        return mv.parse_move(text)

    def _step_name(self, state: BonsaiState) -> str:
        """The step, and at a turn's start whether pruning is allowed (a kind of move that
        may be missing from the legal ones)."""
        player = state.current_player
        if state.phase is Phase.ACTION and player is not None:
            if not state.trees[player].prune_choices():
                return "action (no pruning while a wood tile fits)"
        return state.phase.value

    # ------------------------------------------------------------------ new game

    def _new_game(self, seed: int, first_player: int | None) -> BonsaiState:
        """Deck shuffled, market dealt, starting tiles by seat; first player from the seed
        if not given (drawn even when given, so the deal does not depend on it)."""
        p = self.num_players
        rng = new_rng(seed)
        drawn = int(rng.integers(p))
        first = drawn if first_player is None else first_player
        cards = DECKS[p]
        deck = tuple(cards[i] for i in rng.permutation(len(cards)).tolist())
        return BonsaiState(
            game=self,
            phase=Phase.ACTION,
            first_player=first,
            turn=0,
            last_turn=-1,
            deck=deck[MARKET_SIZE:],
            market=tuple(reversed(deck[:MARKET_SIZE])),
            discards=(),
            trees=(Tree.seedling(self.wood_beside_pot),) * p,
            supplies=tuple(self._starting_tiles(seat, first) for seat in range(p)),
            cards=((),) * p,
            goals_in_play=self._deal_goals(rng),
            goal_owner=(-1,) * len(GOALS),
            renounced=(0,) * p,
            symbols=NO_SYMBOLS,
        )

    def _starting_tiles(self, seat: int, first_player: int) -> Supply:
        """The tiles ``seat`` starts with: by its place in turn order (solo: wood and leaf)."""
        if self.num_players == 1:
            return SOLO_STARTING_TILES
        return STARTING_TILES[(seat - first_player) % self.num_players]

    def _deal_goals(self, rng: np.random.Generator) -> int:
        if self.goal_setup == "all":
            return ALL_GOALS_MASK
        colours = sorted(rng.permutation(len(COLOURS)).tolist()[:3])
        return self._published_goals(colours)

    def _published_goals(self, colours: Sequence[int]) -> int:
        """The goals in play (a mask) of the published setup with these colours: small and
        large tiles, medium ones too with 3 or 4 players."""
        tiers = (1, 3) if self.num_players <= 2 else (1, 2, 3)
        return sum(1 << GOAL_IDS[(COLOURS[c], t)] for c in colours for t in tiers)

    # ------------------------------------------------------------------ results

    def _score_parts(self, state: BonsaiState, player: int) -> dict[str, int]:
        """``player``'s points by source: tree, goals, parchments, and their total."""
        tree = state.trees[player]
        points = tree.points(self.pot_sides_free)
        goals = goal_points(state.goal_owner, player)
        parchments = parchments_points(tree.counts(), state.cards[player])
        return {
            "tree": points,
            "goals": goals,
            "parchments": parchments,
            "total": points + goals + parchments,
        }

    def _scores(self, state: BonsaiState) -> tuple[int, ...]:
        """Points so far per seat: tree, claimed goals and Parchment cards."""
        return tuple(self._score_parts(state, p)["total"] for p in range(self.num_players))

    def _winners(self, state: BonsaiState) -> tuple[int, ...]:
        """The best score, ties to the seat farthest clockwise from the first player.
        Solo: ``(0,)`` if the player met the target (3 goals and the difficulty's
        points), else ``()``."""
        p = self.num_players
        if p == 1:
            return (0,) if self._solo_won(state) else ()
        scores = self._scores(state)
        best = max(scores)
        tied = [s for s in range(p) if scores[s] == best]
        return (max(tied, key=lambda s: (s - state.first_player) % p),)

    def _solo_won(self, state: BonsaiState) -> bool:
        """Solo: three goals claimed (one per colour) and the difficulty's points reached."""
        claimed = state.goal_owner.count(0)
        return claimed == 3 and self._scores(state)[0] >= SOLO_TARGETS[self.solo_difficulty]

    # ------------------------------------------------------------------ rule helpers
    # The legal moves and the explanations of illegal ones both use these.

    def _storage_limit(self, cards: tuple[int, ...]) -> int:
        """The storage limit of a seat holding card types ``cards``: 5, +2 per Tool."""
        return BASE_STORAGE + TOOL_STORAGE * cards.count(TOOL_CARD)

    def _cultivate_symbols(self, cards: tuple[int, ...]) -> Symbols:
        """Cultivate symbols (wood, leaf, flower, fruit, wild) of a seat holding ``cards``:
        the Seishi tile's (``SEISHI_SYMBOLS``: 1 wood, 1 leaf, 1 wild), plus one per Growth
        card of its kind."""
        count = cards.count
        wood, leaf, flower, fruit = GROWTH_CARDS
        s_wood, s_leaf, s_flower, s_fruit, s_wild = SEISHI_SYMBOLS
        return (
            s_wood + count(wood),
            s_leaf + count(leaf),
            s_flower + count(flower),
            s_fruit + count(fruit),
            s_wild,
        )

    def _usable_kinds(self, supply: Supply, symbols: Symbols) -> list[int]:
        """The kinds a seat may place now: held, with their own or the wild symbol left."""
        wild = symbols[WILD]
        return [k for k in _KIND_IDS if supply[k] and (wild or symbols[k])]

    def _placements(
        self, player: int, tree: Tree, supply: Supply, symbols: Symbols
    ) -> tuple[mv.Place, ...]:
        """Every Place move of ``player`` with ``symbols`` left: by usable kind (see
        :meth:`_usable_kinds`), then by cell where the tree lets it go."""
        by_kind = _place_moves(player, tree)
        wild = symbols[WILD]
        moves: tuple[mv.Place, ...] = ()
        for kind in _KIND_IDS:  # _usable_kinds, inline
            if supply[kind] and (wild or symbols[kind]):
                found = by_kind[kind]
                if found is None:
                    found = by_kind[kind] = _kind_moves(player, tree, kind)
                moves += found
        return moves

    def _offered_goal(self, state: BonsaiState, player: int) -> int:
        """The goal ``player`` must now claim or renounce, or -1: per colour they hold no goal
        of, the hardest met goal in play that nobody holds and they have not renounced."""
        tree, renounced = state.trees[player], state.renounced[player]
        return self._goal_to_offer(tree, state.goal_owner, renounced, state.goals_in_play, player)

    def _goal_to_offer(
        self, tree: Tree, owner: tuple[int, ...], renounced: int, in_play: int, player: int
    ) -> int:
        """:meth:`_offered_goal` from its parts: ``player``'s ``tree``, the seat holding
        each goal (-1: none), the goals ``player`` renounced and those in play (masks)."""
        available = in_play & ~renounced
        measures = tree.goal_measures()
        for colour, ladder in enumerate(_GOAL_LADDERS):
            measure = measures[colour]
            if measure < ladder[-1][1] or player in owner[3 * colour : 3 * colour + 3]:
                continue
            for g, threshold in ladder:
                if measure >= threshold and available >> g & 1 and owner[g] < 0:
                    return g
        return -1

    def _last_turn_after(self, turn: int) -> int:
        """The final turn when the deck runs out at the end of ``turn``: the round's last
        turn, or (``extra_turn``) one more turn for every seat."""
        n = self.num_players
        return turn + n if self.end_rule == "extra_turn" else turn - turn % n + n - 1

    # ------------------------------------------------------------------ legal moves

    def _legal_moves(self, state: BonsaiState, player: int) -> tuple[mv.BonsaiMove, ...]:
        """The moves of ``player`` now (empty when it is not their decision)."""
        if player != state.current_player:
            return ()
        phase = state.phase  # compared by identity: an enum's hash is a Python call
        if phase is Phase.ACTION:
            return self._action_moves(state, player)
        if phase is Phase.CULTIVATE or phase is Phase.HELPER:
            return self._placing_moves(state, player)
        if phase is Phase.DISCARD:
            return self._discard_moves(state, player)
        return self._goal_moves(state, player)

    def _action_moves(self, state: BonsaiState, player: int) -> tuple[mv.BonsaiMove, ...]:
        """Turn start: prunes (when no wood fits), meditations, a Cultivate's first tile."""
        tree = state.trees[player]
        slots, market = _MEDITATE[player], state.market  # the market's Meditate moves, slot by slot
        moves = (
            slots[0][market[0]]
            + slots[1][market[1]]
            + slots[2][market[2]]
            + slots[3][market[3]]
            + self._placements(player, tree, state.supplies[player], _ANY_KIND)
        )
        prunes = tree.prune_choices()
        if prunes:
            return tuple(map(_PRUNE[player].__getitem__, prunes)) + moves
        return moves

    def _placing_moves(self, state: BonsaiState, player: int) -> tuple[mv.BonsaiMove, ...]:
        placements = self._placements(
            player, state.trees[player], state.supplies[player], state.symbols
        )
        return placements + _FINISH[player]

    def _discard_moves(self, state: BonsaiState, player: int) -> tuple[mv.BonsaiMove, ...]:
        return _discards(player, state.supplies[player])

    def _goal_moves(self, state: BonsaiState, player: int) -> tuple[mv.BonsaiMove, ...]:
        return _GOAL_MOVES[player][self._offered_goal(state, player)]

    # ------------------------------------------------------------------ why a move is illegal

    def _explain(self, state: BonsaiState, move: Any) -> str | None:
        """Which rule ``move`` (a well-formed move of the seat to act) breaks."""
        why = _EXPLAIN.get(type(move))
        return None if why is None else f"{describe_move(move)}: {why(self, state, move)}"

    def _why_not_meditate(self, state: BonsaiState, move: mv.Meditate) -> str:
        slot = move.slot
        if not 1 <= slot <= MARKET_SIZE or state.market[slot - 1] < 0:
            return f"market slot {excerpt(slot)} holds no card"
        if (slot == SLOT_CHOICE) != (move.tile in _SLOT_CHOICES):
            return "slot 2 (and only slot 2) comes with 1 wood or 1 leaf, named in the move"
        if _has_wild_tile(state.market[slot - 1]) != (move.wild in KIND_INDEX):
            return "a wild kind is named for (and only for) a Master card with a wild tile"
        return "the move is not legal now"

    def _why_not_place(self, state: BonsaiState, move: mv.Place) -> str:
        kind = KIND_INDEX.get(move.kind)
        cell = _cell(move.at)
        if kind is None or cell is None:
            return "a placement names a tile kind and a cell (q, r)"
        player = move.player
        symbols = (
            self._cultivate_symbols(state.cards[player])
            if state.phase is Phase.ACTION
            else state.symbols
        )
        if kind not in self._usable_kinds(state.supplies[player], symbols):
            if not state.supplies[player][kind]:
                return f"seat {player} holds no {move.kind} tile"
            return f"no {move.kind} or wild symbol is left to place it with"
        rule = _PLACEMENT_RULES[kind]
        if cell in state.trees[player].cells:
            rule = "the cell is taken"
        return f"{rule}; nothing goes on the pot or on a tile"

    def _why_not_discard(self, state: BonsaiState, move: mv.Discard) -> str:
        return f"seat {move.player} has no {move.kind} tile to discard"

    def _why_not_prune(self, state: BonsaiState, move: mv.Prune) -> str:
        if not state.trees[move.player].prune_choices():
            return "pruning is allowed only when no wood tile can be placed"
        return "only a leaf of one's own tree can be pruned"

    def _why_not_goal(self, state: BonsaiState, move: mv.ClaimGoal | mv.RenounceGoal) -> str:
        g = GOAL_IDS.get((move.colour, move.tier))
        offered = GOALS[self._offered_goal(state, move.player)].name
        if g is not None and state.renounced[move.player] >> g & 1:
            return f"seat {move.player} renounced this goal and can never claim it"
        return f"the goal offered now is {offered}"

    # ------------------------------------------------------------------ transitions
    # A step gathers its field changes in one dict; the new state is built once, at the end.

    def _step(self, state: BonsaiState, move: mv.BonsaiMove) -> BonsaiState:
        """The state after legal ``move`` (the base has checked legality)."""
        return _STEP[type(move)](self, state, move)

    def _place(self, state: BonsaiState, move: mv.Place) -> BonsaiState:
        p, kind = move.player, KIND_INDEX[move.kind]
        phase = state.phase
        if phase is Phase.ACTION:  # the first tile starts the Cultivate
            phase, left = Phase.CULTIVATE, self._cultivate_symbols(state.cards[p])
        else:
            left = state.symbols
        # a kind's own symbol first, so that the wild one stays free for any kind
        symbols = _SPEND[kind if left[kind] else WILD](left)
        supply = _TAKE[kind](state.supplies[p])
        q, r = move.at
        tree = state.trees[p].with_tile(cell_of(q, r), kind)
        changes: Changes = {
            "trees": _set(state.trees, p, tree),
            "supplies": _set(state.supplies, p, supply),
        }
        placements = self._placements(p, tree, supply, symbols)
        if placements:
            changes["phase"], changes["symbols"] = phase, symbols
            return _next(state, changes, p, placements + _FINISH[p])
        return self._end_placements(state, changes, phase)

    def _finish(self, state: BonsaiState, move: mv.Finish) -> BonsaiState:
        return self._end_placements(state, {}, state.phase)

    def _meditate(self, state: BonsaiState, move: mv.Meditate) -> BonsaiState:
        p, index = move.player, move.slot - 1
        card = state.market[index]
        supply = _meditate_supply(state.supplies[p], move, card)
        held = tuple(sorted((*state.cards[p], card)))
        changes = _take_card(state, index) if self.num_players > 1 else _solo_take(state, index)
        changes["cards"] = _set(state.cards, p, held)
        changes["supplies"] = _set(state.supplies, p, supply)
        symbols = HELPER_SYMBOLS.get(card)
        if symbols is not None:
            placements = self._placements(p, state.trees[p], supply, symbols)
            if placements:
                changes["phase"], changes["symbols"] = Phase.HELPER, symbols
                return _next(state, changes, p, placements + _FINISH[p])
        if sum(supply) > self._storage_limit(held):
            return self._discard_step(state, changes, p, supply)
        # no goal can be due: goals are settled at the end of every action, and since
        # this seat's last one its tree has not grown (a prune only takes tiles away)
        return self._end_turn(state, changes)

    def _discard(self, state: BonsaiState, move: mv.Discard) -> BonsaiState:
        p = move.player
        supply = _TAKE[KIND_INDEX[move.kind]](state.supplies[p])
        changes = {"supplies": _set(state.supplies, p, supply)}
        if sum(supply) > self._storage_limit(state.cards[p]):
            return _next(state, changes, p, _discards(p, supply))
        return self._end_action(state, changes)

    def _prune(self, state: BonsaiState, move: mv.Prune) -> BonsaiState:
        # one leaf always makes room for wood again (see Tree.prune_choices)
        p = move.player
        tree = state.trees[p].without_leaf(cell_of(*move.at))
        return self._turn_start(_next(state, {"trees": _set(state.trees, p, tree)}), p)

    def _claim(self, state: BonsaiState, move: mv.ClaimGoal) -> BonsaiState:
        g = GOAL_IDS[(move.colour, move.tier)]
        return self._end_action(state, {"goal_owner": _set(state.goal_owner, g, move.player)})

    def _renounce(self, state: BonsaiState, move: mv.RenounceGoal) -> BonsaiState:
        p, g = move.player, GOAL_IDS[(move.colour, move.tier)]
        renounced = _set(state.renounced, p, state.renounced[p] | 1 << g)
        return self._end_action(state, {"renounced": renounced})

    def _discard_step(
        self, state: BonsaiState, changes: Changes, p: int, supply: Supply
    ) -> BonsaiState:
        """Over the storage limit at the end of a Meditate: discard one tile per move."""
        changes["symbols"], changes["phase"] = NO_SYMBOLS, Phase.DISCARD
        return _next(state, changes, p, _discards(p, supply))

    def _end_placements(self, state: BonsaiState, changes: Changes, phase: Phase) -> BonsaiState:
        """The end of a Cultivate (solo: slot 4's card is discarded) or of a Helper's
        placements (then the storage limit, as at the end of any Meditate)."""
        changes["symbols"] = NO_SYMBOLS
        if phase is Phase.HELPER:
            p: int = state.current_player  # type: ignore[assignment]  # the game is not over
            supply = changes.get("supplies", state.supplies)[p]
            if sum(supply) > self._storage_limit(state.cards[p]):
                return self._discard_step(state, changes, p, supply)
        elif self.num_players == 1 and state.market[-1] >= 0:
            market = state.market
            changes.update(_refill(state.deck, market[:-1], (*state.discards, market[-1])))
        return self._end_action(state, changes)

    def _end_action(self, state: BonsaiState, changes: Changes) -> BonsaiState:
        """After the action: offer a met goal, or end the turn."""
        p: int = state.current_player  # type: ignore[assignment]  # the game is not over
        offered = self._goal_to_offer(
            changes.get("trees", state.trees)[p],
            changes.get("goal_owner", state.goal_owner),
            changes.get("renounced", state.renounced)[p],
            state.goals_in_play,
            p,
        )
        if offered >= 0:
            changes["phase"] = Phase.GOALS
            return _next(state, changes, p, _GOAL_MOVES[p][offered])
        return self._end_turn(state, changes)

    def _end_turn(self, state: BonsaiState, changes: Changes) -> BonsaiState:
        """The next seat's turn, or the end of the game (see :meth:`_last_turn_after`)."""
        turn, last = state.turn, state.last_turn
        if last < 0 and not changes.get("deck", state.deck):
            last = self._last_turn_after(turn)
        changes["last_turn"] = last
        if turn == last:
            changes.update(phase=Phase.OVER, current_player=None, is_terminal=True)
            return _next(state, changes)
        seat = (state.first_player + turn + 1) % self.num_players
        changes.update(phase=Phase.ACTION, turn=turn + 1, current_player=seat)
        return self._turn_start(_next(state, changes), seat)

    def _turn_start(self, state: BonsaiState, player: int) -> BonsaiState:
        """``state`` (a turn's start) told ``player``'s legal moves."""
        state._memo[player] = self._action_moves(state, player)
        return state

    # ------------------------------------------------------------------ information

    def _observe(self, state: BonsaiState, player: int) -> dict[str, Any]:
        """Everything but the deck order (its size instead), from ``player``'s seat.

        Parchment cards lie face down but were taken from the open market, so
        they are public like every held card.
        """
        view: dict[str, Any] = {"observer": player}  # then game, num_players: every game's head
        for key, value in self.state_to_dict(state).items():
            if key == "deck":
                view["deck_size"] = len(value)
            else:
                view[key] = value
        return view

    def _determinize(self, state: BonsaiState, player: int, seed: int) -> BonsaiState:
        """This state with the deck reshuffled by ``seed`` (the only hidden information).

        The deck is sorted before the shuffle, so the sample depends on the seed and on
        what ``player`` sees only, never on the real order.
        """
        cards = sorted(state.deck)
        order = new_rng(seed).permutation(len(cards))
        return state._evolve(deck=tuple(cards[i] for i in order))

    # ------------------------------------------------------------------ saved states

    def _observation_fields(self) -> dict[str, Spec]:
        return saved.observation_fields(self)

    def _state_fields(self) -> Sequence[Field]:
        return saved.state_fields(self)

    def _state_from_fields(self, fields: dict[str, Any]) -> BonsaiState:
        return saved.state_from_fields(self, fields)

    def _invariants(self) -> Sequence[Callable[[BonsaiState], None]]:
        return saved.INVARIANTS

    # ------------------------------------------------------------------ pictures

    def _render_text(self, state: BonsaiState, player: int | None) -> str:
        return render.render_text(state, player)

    def _render_svg(self, state: BonsaiState, player: int | None) -> str:
        return render.render_svg(state, player)

    # ------------------------------------------------------------------ integer actions

    def _make_codec(self) -> BonsaiCodec:
        return BonsaiCodec(self)

    if TYPE_CHECKING:  # the base's codec, typed as this game's

        @functools.cached_property
        def codec(self) -> BonsaiCodec: ...


_STEP: dict[type, Callable[[BonsaiGame, BonsaiState, Any], BonsaiState]] = {
    mv.Place: BonsaiGame._place,
    mv.Meditate: BonsaiGame._meditate,
    mv.Finish: BonsaiGame._finish,
    mv.Discard: BonsaiGame._discard,
    mv.Prune: BonsaiGame._prune,
    mv.ClaimGoal: BonsaiGame._claim,
    mv.RenounceGoal: BonsaiGame._renounce,
}
_EXPLAIN: dict[type, Callable[[BonsaiGame, BonsaiState, Any], str]] = {
    mv.Meditate: BonsaiGame._why_not_meditate,
    mv.Place: BonsaiGame._why_not_place,
    mv.Discard: BonsaiGame._why_not_discard,
    mv.Prune: BonsaiGame._why_not_prune,
    mv.ClaimGoal: BonsaiGame._why_not_goal,
    mv.RenounceGoal: BonsaiGame._why_not_goal,
}
_PLACEMENT_RULES = (
    "wood must touch wood (the bud counts)",
    "a leaf must touch wood",
    "a flower must touch a leaf",
    "a fruit must touch two leaves that touch each other, and no other fruit",
)

_KIND_IDS = (0, 1, 2, 3)
"""Kind indices: wood, leaf, flower, fruit."""
_ANY_KIND: Symbols = (0, 0, 0, 0, 1)
"""What a Cultivate's first tile may be: any kind held (the Seishi tile's wild symbol,
which every seat's cultivate symbols include; see ``cultivate_symbols``)."""
assert SEISHI_SYMBOLS[WILD] >= 1

_GOAL_LADDERS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((g, GOALS[g].threshold) for g in (3 * c + 2, 3 * c + 1, 3 * c))
    for c in range(len(COLOURS))
)
"""Per colour, its goals hardest first as (goal id, threshold)."""


_set_memo = StateBase._memo.__set__  # type: ignore[attr-defined,misc]
_set_fields = object.__setattr__


def _next(
    state: BonsaiState, changes: Changes, player: int = -1, moves: tuple[mv.BonsaiMove, ...] = ()
) -> BonsaiState:
    """``state`` with ``changes`` (field names), built once and told ``player``'s legal
    ``moves`` (player -1: none known). As ``StateBase._evolve``, without the keywords."""
    new = object.__new__(BonsaiState)
    fields = state.__dict__.copy()
    fields.update(changes)
    _set_fields(new, "__dict__", fields)
    _set_memo(new, {} if player < 0 else {player: moves})
    return new


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


def _plus(a: Supply, b: Supply) -> Supply:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


_TAKE: tuple[Callable[[Supply], Supply], ...] = (
    lambda s: (s[0] - 1, s[1], s[2], s[3]),
    lambda s: (s[0], s[1] - 1, s[2], s[3]),
    lambda s: (s[0], s[1], s[2] - 1, s[3]),
    lambda s: (s[0], s[1], s[2], s[3] - 1),
)
"""Per kind, a supply with one tile of it less."""
_SPEND: tuple[Callable[[Symbols], Symbols], ...] = (
    lambda s: (s[0] - 1, s[1], s[2], s[3], s[4]),
    lambda s: (s[0], s[1] - 1, s[2], s[3], s[4]),
    lambda s: (s[0], s[1], s[2] - 1, s[3], s[4]),
    lambda s: (s[0], s[1], s[2], s[3] - 1, s[4]),
    lambda s: (s[0], s[1], s[2], s[3], s[4] - 1),
)
"""Per symbol (a kind's, or the wild one), the symbols left once it is spent."""
_ONE: tuple[Supply, ...] = ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))
_NO_TILE: Supply = (0, 0, 0, 0)


def _meditate_supply(supply: Supply, move: mv.Meditate, card: int) -> Supply:
    """``supply`` with what ``move`` gives: its slot's tiles, slot 2's chosen one, a
    Master's tiles (its wild tile of the kind named)."""
    supply = _plus(supply, _SLOT_GAIN[move.slot - 1][card])
    if move.tile is not None:
        supply = _plus(supply, _ONE[KIND_INDEX[move.tile]])
    if move.wild is not None:
        supply = _plus(supply, _ONE[KIND_INDEX[move.wild]])
    return supply


_SLOT_GAIN: tuple[tuple[Supply, ...], ...] = tuple(
    tuple(
        _plus(SLOT_TILES[slot], card.tiles if card.kind is CardKind.MASTER else _NO_TILE)
        for card in CARD_TYPES
    )
    for slot in range(MARKET_SIZE)
)
"""``_SLOT_GAIN[slot - 1][card]``: the tiles of the slot and of the card (a Master's)."""


def _take_card(state: BonsaiState, index: int) -> Changes:
    """The market and deck once slot ``index + 1``'s card is taken: the cards on the deck
    side of the gap slide toward slot 4, the deck's top card (if any) fills slot 1."""
    market, deck = state.market, state.deck
    rest = market[:index] + market[index + 1 :]
    if deck:
        return {"deck": deck[1:], "market": (deck[0], *rest)}
    return {"market": (-1, *rest)}


def _solo_take(state: BonsaiState, index: int) -> Changes:
    """Solo: as :func:`_take_card`, and the card beside the gap on the deck side (slot 1
    taken: the deck's top card) is discarded first."""
    deck, market, discards = state.deck, state.market, state.discards
    if index > 0 and market[index - 1] >= 0:
        discards += (market[index - 1],)
        rest = market[: index - 1] + market[index + 1 :]
    else:
        rest = market[:index] + market[index + 1 :]
        if index == 0 and deck:
            discards += (deck[0],)
            deck = deck[1:]
    return _refill(deck, rest, discards)


def _refill(deck: tuple[int, ...], rest: tuple[int, ...], discards: tuple[int, ...]) -> Changes:
    """The market's cards ``rest`` slid toward slot 4, slot 1's side filled from the deck
    while it lasts (each card drawn pushes the ones before it one slot on)."""
    cards = tuple(c for c in rest if c >= 0)
    gaps = MARKET_SIZE - len(cards)
    drawn = deck[:gaps]
    return {
        "deck": deck[gaps:],
        "market": (-1,) * (gaps - len(drawn)) + drawn[::-1] + cards,
        "discards": discards,
    }


def _cell(at: tuple[int, int]) -> int | None:
    """The engine cell of a well-formed ``at``, or None if it is too far from the pot."""
    q, r = at
    return cell_of(q, r) if max(abs(q), abs(r)) <= COORD_LIMIT else None


# ---------------------------------------------------------------------- move tables
# Every move object is built once; legal moves are made of these very objects.


class _PlaceMoves(dict[int, mv.Place]):
    """The Place moves of one seat and kind by cell, each built once, when first needed
    (a tree has no size limit, so the cells are not known in advance)."""

    def __init__(self, player: int, kind: int) -> None:
        super().__init__()
        self.player, self.kind = player, KINDS[kind].value

    def __missing__(self, cell: int) -> mv.Place:
        move = self[cell] = mv.Place(self.player, self.kind, qr_of(cell))
        return move


def _place_moves(player: int, tree: Tree) -> list[tuple[mv.Place, ...] | None]:
    """Per kind, the Place moves of ``player`` on ``tree`` found so far (kept with the tree;
    None: not yet asked for)."""
    cache = tree._placing
    if cache is None:
        moves: list[tuple[mv.Place, ...] | None] = [None, None, None, None]
        tree._placing = {player: moves}
        return moves
    moves = cache.get(player)  # type: ignore[assignment]
    if moves is None:
        moves = cache[player] = [None, None, None, None]
    return moves


def _kind_moves(player: int, tree: Tree, kind: int) -> tuple[mv.Place, ...]:
    """The Place moves of ``player`` putting ``kind`` on ``tree``, by cell."""
    return tuple(map(_PLACE[player][kind].__getitem__, sorted(tree.open_cells(kind))))


class _PruneMoves(dict[int, mv.Prune]):
    """The Prune moves of one seat by cell, each built once, when first needed."""

    def __init__(self, player: int) -> None:
        super().__init__()
        self.player = player

    def __missing__(self, cell: int) -> mv.Prune:
        move = self[cell] = mv.Prune(self.player, qr_of(cell))
        return move


_SEATS = range(4)
_PLACE: tuple[tuple[_PlaceMoves, ...], ...] = tuple(
    tuple(_PlaceMoves(p, kind) for kind in range(4)) for p in _SEATS
)
"""``_PLACE[seat][kind][cell]``: the move placing ``kind`` on ``cell``."""
_PRUNE: tuple[_PruneMoves, ...] = tuple(_PruneMoves(p) for p in _SEATS)
_FINISH: tuple[tuple[mv.Finish], ...] = tuple((mv.Finish(p),) for p in _SEATS)
_DISCARD: tuple[tuple[mv.Discard, ...], ...] = tuple(
    tuple(mv.Discard(p, kind.value) for kind in KINDS) for p in _SEATS
)


def _discards(player: int, supply: Supply) -> tuple[mv.Discard, ...]:
    """The Discard moves of ``player``: one per kind held."""
    wood, leaf, flower, fruit = supply
    held = (wood > 0) | (leaf > 0) << 1 | (flower > 0) << 2 | (fruit > 0) << 3
    return _DISCARDS_BY_HELD[player][held]


_DISCARDS_BY_HELD: tuple[tuple[tuple[mv.Discard, ...], ...], ...] = tuple(
    tuple(tuple(moves[k] for k in range(4) if held >> k & 1) for held in range(16))
    for moves in _DISCARD
)
"""``_DISCARDS_BY_HELD[seat][held]``: the Discard moves of the kinds in mask ``held``."""


_SLOT_CHOICES = ("wood", "leaf")
"""The tile kinds slot 2's card comes with, one of them by the player's choice."""


def _has_wild_tile(card: int) -> bool:
    """Whether taking ``card`` gives a wild tile (a Master's; a Helper's wild is a symbol)."""
    return CARD_TYPES[card].kind is CardKind.MASTER and CARD_TYPES[card].wild > 0


def _meditations_of(player: int, slot: int, card: int) -> tuple[mv.Meditate, ...]:
    """Every way to take ``card`` from ``slot``: slot 2's wood or leaf, a Master's wild kind."""
    tiles: tuple[str | None, ...] = _SLOT_CHOICES if slot == SLOT_CHOICE else (None,)
    wilds: tuple[str | None, ...] = (
        tuple(k.value for k in KINDS) if _has_wild_tile(card) else (None,)
    )
    return tuple(mv.Meditate(player, slot, t, w) for t in tiles for w in wilds)


_MEDITATE: tuple[tuple[tuple[tuple[mv.Meditate, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(_meditations_of(p, slot, card) for card in range(len(CARD_TYPES))) + ((),)
        for slot in range(1, MARKET_SIZE + 1)
    )
    for p in _SEATS
)
"""``_MEDITATE[seat][slot - 1][card]``: the Meditate moves taking ``card`` from that slot;
the last entry (index -1, an empty slot) is ``()``."""

_GOAL_MOVES: tuple[tuple[tuple[mv.ClaimGoal | mv.RenounceGoal, ...], ...], ...] = tuple(
    tuple(
        (mv.ClaimGoal(p, goal.colour, goal.tier), mv.RenounceGoal(p, goal.colour, goal.tier))
        for goal in GOALS
    )
    for p in _SEATS
)
"""``_GOAL_MOVES[seat][goal]``: claim and renounce that goal."""
