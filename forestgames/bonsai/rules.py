"""The Bonsai game: options, the rules (legal moves and transitions), saved states.

``BonsaiGame`` is a frozen value: its options are the rules variant. States hand
every rules question over to their game, so this module is the one place the
turn of ``rules/bonsai.md`` lives: Meditate (take a card and its slot's tiles,
resolve it, discard over the storage limit) or Cultivate (place tiles by the
Seishi and Growth symbols), then goals, then the end check.
"""

from __future__ import annotations

import functools
from typing import Any, cast

import attrs
import numpy as np

from forestgames._codec import cached_codec  # codec wiring
from forestgames.bonsai import moves as mv
from forestgames.bonsai._tables import (
    ALL_GOALS_MASK,
    CARD_TYPES,
    COLOURS,
    COORD_LIMIT,
    DECKS,
    GOAL_IDS,
    GOALS,
    KIND_INDEX,
    KINDS,
    MARKET_SIZE,
    SLOT_CHOICE,
    SLOT_TILES,
    SOLO_STARTING_TILES,
    SOLO_TARGETS,
    STARTING_TILES,
    WILD,
    WOOD,
    CardKind,
    cell_of,
    deck_counts,
    qr_of,
)
from forestgames.bonsai.actions import BonsaiCodec  # codec wiring
from forestgames.bonsai.state import BonsaiState, Phase, load_state, storage_limit_for
from forestgames.bonsai.tree import Tree
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

__all__ = ["BonsaiGame", "OPTION_NAMES", "GOAL_SETUPS", "END_RULES"]

OPTION_NAMES = (
    "num_players", "goal_setup", "end_rule", "pot_sides_free", "wood_beside_pot", "solo_difficulty",
)  # fmt: skip
GOAL_SETUPS = ("all", "published")
END_RULES = ("round", "extra_turn")
NO_SYMBOLS = (0, 0, 0, 0, 0)


def _choice_option(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices or not isinstance(value, str):
        raise ConfigError(f"option {name} must be one of {list(choices)}, not {value!r}")
    return value


def _add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, int, int, int]:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


def _one(kind: int) -> tuple[int, int, int, int]:
    tiles = [0, 0, 0, 0]
    tiles[kind] = 1
    return (tiles[0], tiles[1], tiles[2], tiles[3])


@attrs.frozen(repr=False)
class BonsaiGame:
    """Bonsai for 1–4 players with its options fixed. Build with ``BonsaiGame.create``.

    Options (see docs/bonsai.md, "Choices"):

    * ``goal_setup``: ``"all"`` (default, the seed: all 15 goal tiles) or
      ``"published"`` (3 colours drawn from the seed, medium tiles removed with
      1–2 players). Solo always plays the published setup.
    * ``end_rule``: ``"round"`` (default, the seed: once the deck is empty the
      round is finished) or ``"extra_turn"`` (the published rule: every player,
      the one who emptied the deck included, gets one more turn).
    * ``pot_sides_free``: flower sides on pot cells are free (default True);
      False counts the pot as a tile.
    * ``wood_beside_pot``: wood may also go on any cell beside the pot
      (default False: wood touches wood, the printed bud included).
    * ``solo_difficulty``: 1..4 (80 / 100 / 120 / 140 points); solo only.
    """

    name = "bonsai"

    num_players: int
    goal_setup: str = "all"
    end_rule: str = "round"
    pot_sides_free: bool = True
    wood_beside_pot: bool = False
    solo_difficulty: int = 1

    @classmethod
    def create(cls, **options: Any) -> BonsaiGame:
        """Validate ``options`` (see the class docstring); ConfigError names a bad one."""
        check_option_names("Bonsai", options, OPTION_NAMES)
        players = check_player_count("Bonsai", options.get("num_players", 2), 1, 4)
        solo = players == 1
        setup = _choice_option(
            "goal_setup", options.get("goal_setup", "published" if solo else "all"), GOAL_SETUPS
        )
        if solo and setup != "published":
            raise ConfigError(
                "solo Bonsai always plays the published goal setup (goal_setup='published')"
            )
        difficulty = options.get("solo_difficulty", 1)
        if "solo_difficulty" in options and not solo:
            raise ConfigError("option solo_difficulty is for the solo game (num_players=1) only")
        if isinstance(difficulty, bool) or difficulty not in SOLO_TARGETS:
            raise ConfigError(f"option solo_difficulty must be 1, 2, 3 or 4, not {difficulty!r}")
        return cls(
            players,
            setup,
            _choice_option("end_rule", options.get("end_rule", "round"), END_RULES),
            check_bool_option("pot_sides_free", options.get("pot_sides_free", True)),
            check_bool_option("wood_beside_pot", options.get("wood_beside_pot", False)),
            int(difficulty),
        )

    def __repr__(self) -> str:
        return f"BonsaiGame.create(**{self.options()!r})"

    # ------------------------------------------------------------------ description

    @property
    def traits(self) -> GameTraits:
        cards = sum(deck_counts(self.num_players))
        tiles = 10 + 5 * cards  # starting tiles, then at most 2 (slot) + 3 (Master) per card
        # Meditate <= cards; place + discard <= tiles; prune <= tiles;
        # finish <= turns <= cards + tiles
        most = 2 * cards + 3 * tiles + len(GOALS) * self.num_players
        return GameTraits("bonsai", 1, 4, True, True, False, most, (0, 9 * tiles + 70 + 2 * cards))

    def options(self) -> dict[str, Any]:
        """The options that rebuild this game with ``make("bonsai", **options)``."""
        result: dict[str, Any] = {
            "num_players": self.num_players,
            "goal_setup": self.goal_setup,
            "end_rule": self.end_rule,
            "pot_sides_free": self.pot_sides_free,
            "wood_beside_pot": self.wood_beside_pot,
        }
        if self.num_players == 1:
            result["solo_difficulty"] = self.solo_difficulty
        return result

    # codec wiring: integer actions and tensors (forestgames.bonsai.actions)

    @property
    def codec(self) -> BonsaiCodec:  # codec wiring
        return cached_codec(self, BonsaiCodec)  # type: ignore[no-any-return]

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

    def parse_move(self, text: str) -> mv.BonsaiMove:
        """The move written as ``text``; ParseError if it is not Bonsai notation."""
        return mv.parse_move(text)

    # ------------------------------------------------------------------ new game

    def new_game(self, seed: int | None = None, first_player: int | None = None) -> BonsaiState:
        """Deck shuffled, market dealt, starting tiles by seat;
        first player from the seed if not given."""
        seed = resolve_seed(seed)
        p = self.num_players
        rng = new_rng(seed)
        drawn = int(rng.integers(p))  # drawn even when given, so the deal does not depend on it
        first_player = check_seat(
            p, drawn if first_player is None else first_player, "first_player"
        )
        cards = DECKS[p]
        deck = tuple(cards[i] for i in rng.permutation(len(cards)).tolist())
        if p == 1:
            supplies: tuple[tuple[int, int, int, int], ...] = (SOLO_STARTING_TILES,)
        else:
            supplies = tuple(STARTING_TILES[(seat - first_player) % p] for seat in range(p))
        tree = Tree.seedling(self.wood_beside_pot)
        return BonsaiState(
            game=self,
            phase=Phase.ACTION,
            first_player=first_player,
            turn=0,
            last_turn=-1,
            deck=deck[MARKET_SIZE:],
            market=tuple(reversed(deck[:MARKET_SIZE])),
            discards=(),
            trees=(tree,) * p,
            supplies=supplies,
            cards=((),) * p,
            goals_in_play=self._deal_goals(rng),
            goal_owner=(-1,) * len(GOALS),
            renounced=(0,) * p,
            symbols=NO_SYMBOLS,
        )

    def _deal_goals(self, rng: np.random.Generator) -> int:
        if self.goal_setup == "all":
            return ALL_GOALS_MASK
        colours = sorted(rng.permutation(len(COLOURS)).tolist()[:3])
        tiers = (1, 3) if self.num_players <= 2 else (1, 2, 3)
        return sum(1 << GOAL_IDS[(COLOURS[c], t)] for c in colours for t in tiers)

    # ------------------------------------------------------------------ legal moves

    def legal_moves_of(self, state: BonsaiState, player: int) -> tuple[mv.BonsaiMove, ...]:
        """The moves of ``player`` now (empty when it is not their decision)."""
        if player != state.current_player:
            return ()
        phase = state.phase
        if phase is Phase.ACTION:
            tree = state.trees[player]
            prunes = () if tree.open_cells(WOOD) else self._prune_moves(state, player)
            return (
                prunes
                + _market_meditations(player, state.market)
                + self.placements(state, player, state.cultivate_symbols(player))
            )
        if phase is Phase.CULTIVATE or phase is Phase.HELPER:
            return self.placements(state, player, state.symbols) + (_finish(player),)
        if phase is Phase.DISCARD:
            return tuple(_discard(player, k) for k in range(4) if state.supplies[player][k])
        if phase is Phase.GOALS:
            goal = GOALS[self.offered_goal(state, player)]
            return (
                mv.ClaimGoal(player, goal.colour, goal.tier),
                mv.RenounceGoal(player, goal.colour, goal.tier),
            )
        return ()

    def placements(
        self, state: BonsaiState, player: int, symbols: tuple[int, int, int, int, int]
    ) -> tuple[mv.Place, ...]:
        """Every Place move ``player`` may make with ``symbols`` left and their supply."""
        supply = state.supplies[player]
        tree = state.trees[player]
        moves: list[mv.Place] = []
        for kind in range(4):
            if supply[kind] and (symbols[kind] or symbols[WILD]):
                moves.extend(tree.place_moves(player, kind, _PLACE_MOVES[player][kind]))
        return tuple(moves)

    def _prune_moves(self, state: BonsaiState, player: int) -> tuple[mv.Prune, ...]:
        return tuple(mv.Prune(player, qr_of(c)) for c in state.trees[player].prune_choices())

    def offered_goal(self, state: BonsaiState, player: int) -> int:
        """The goal ``player`` must now claim or renounce, or -1: per colour they hold no goal
        of, the hardest met goal in play that nobody holds and they have not renounced."""
        return _offered_goal(
            state.trees[player],
            state.goal_owner,
            state.renounced[player],
            state.goals_in_play,
            player,
        )

    # ------------------------------------------------------------------ why a move is illegal

    def is_legal(self, state: BonsaiState, move: Any) -> bool:
        """Whether ``move`` is legal in ``state`` (frequent kinds checked directly, for speed)."""
        kind_of_move = type(move)
        if move.player != state.current_player:
            return False
        phase = state.phase
        if kind_of_move is mv.Place:
            if (
                phase is not Phase.ACTION
                and phase is not Phase.CULTIVATE
                and phase is not Phase.HELPER
            ):
                return False
            kind, cell = (
                KIND_INDEX.get(move.kind) if isinstance(move.kind, str) else None,
                _cell(move.at),
            )
            if kind is None or cell is None or not state.supplies[move.player][kind]:
                return False
            symbols = (
                state.cultivate_symbols(move.player) if phase is Phase.ACTION else state.symbols
            )
            return bool(symbols[kind] or symbols[WILD]) and cell in state.trees[
                move.player
            ].open_cells(kind)
        if kind_of_move is mv.Meditate:
            slot = move.slot
            if phase is not Phase.ACTION or type(slot) is not int or not 1 <= slot <= MARKET_SIZE:
                return False
            card = state.market[slot - 1]
            return card >= 0 and move in _meditations(move.player, slot, card)
        if kind_of_move is mv.Finish:
            return phase is Phase.CULTIVATE or phase is Phase.HELPER
        if kind_of_move is mv.Discard:
            kind = KIND_INDEX.get(move.kind) if isinstance(move.kind, str) else None
            return (
                phase is Phase.DISCARD
                and kind is not None
                and state.supplies[move.player][kind] > 0
            )
        return move in self.legal_moves_of(state, move.player)

    def why_illegal(self, state: BonsaiState, move: Any) -> str:
        """A message naming the rule ``move`` breaks in ``state``."""
        if not isinstance(move, mv.MOVE_TYPES):
            return f"{move!r} is not a Bonsai move"
        move = cast(mv.BonsaiMove, move)
        if move.player != state.current_player:
            return f"{move}: it is seat {state.current_player}'s turn, not seat {move.player}'s"
        phase = state.phase
        allowed = {
            Phase.ACTION: (mv.Meditate, mv.Place, mv.Prune),
            Phase.CULTIVATE: (mv.Place, mv.Finish),
            Phase.HELPER: (mv.Place, mv.Finish),
            Phase.DISCARD: (mv.Discard,),
            Phase.GOALS: (mv.ClaimGoal, mv.RenounceGoal),
        }[phase]
        if not isinstance(move, allowed):
            names = " or ".join(t.__name__ for t in allowed)
            return f"{move}: in the {phase.value} step the move is {names}"
        if isinstance(move, mv.Meditate):
            return self._why_meditate_illegal(state, move)
        if isinstance(move, mv.Place):
            return self._why_place_illegal(state, move)
        if isinstance(move, mv.Discard):
            return f"{move}: seat {move.player} has no {move.kind} tile to discard"
        if isinstance(move, mv.Prune):
            if state.trees[move.player].open_cells(WOOD):
                return f"{move}: pruning is allowed only when no wood tile can be placed"
            return f"{move}: only a leaf of one's own tree can be pruned"
        if isinstance(move, mv.ClaimGoal | mv.RenounceGoal):
            g = GOAL_IDS.get((move.colour, move.tier))
            offered = GOALS[self.offered_goal(state, move.player)].name
            if g is not None and state.renounced[move.player] >> g & 1:
                return f"{move}: seat {move.player} renounced this goal and can never claim it"
            return f"{move}: the goal offered now is {offered}"
        return f"{move} is not legal now"

    def _why_meditate_illegal(self, state: BonsaiState, move: mv.Meditate) -> str:
        if move.slot not in (1, 2, 3, 4) or state.market[move.slot - 1] < 0:
            return f"{move}: market slot {move.slot} holds no card"
        if (move.slot == SLOT_CHOICE) != (move.tile in ("wood", "leaf")):
            return (
                f"{move}: slot 2 (and only slot 2) comes with 1 wood or 1 leaf, named in the move"
            )
        if _has_wild_tile(state.market[move.slot - 1]) != (move.wild in KIND_INDEX):
            return f"{move}: a wild kind is named for (and only for) a Master card with a wild tile"
        return f"{move} is not legal now"

    def _why_place_illegal(self, state: BonsaiState, move: mv.Place) -> str:
        kind = KIND_INDEX.get(move.kind) if isinstance(move.kind, str) else None
        cell = _cell(move.at)
        if kind is None or cell is None:
            return f"{move}: a placement names a tile kind and a cell (q, r)"
        if not state.supplies[move.player][kind]:
            return f"{move}: seat {move.player} holds no {move.kind} tile"
        symbols = (
            state.cultivate_symbols(move.player) if state.phase is Phase.ACTION else state.symbols
        )
        if not (symbols[kind] or symbols[WILD]):
            return f"{move}: no {move.kind} or wild symbol is left to place it with"
        rule = (
            "wood must touch wood (the bud counts)",
            "a leaf must touch wood",
            "a flower must touch a leaf",
            "a fruit must touch two leaves that touch each other, and no other fruit",
        )[kind]
        if cell in state.trees[move.player].cells:
            rule = "the cell is taken"
        return f"{move}: {rule}; nothing goes on the pot or on a tile"

    # ------------------------------------------------------------------ transitions

    def apply_move(self, state: BonsaiState, move: mv.BonsaiMove) -> BonsaiState:
        """The state after legal ``move`` (the caller has checked legality).

        Each step below adds its field changes to one dict ``ch``; the new
        state is built once, at the end (``_evolve``).
        """
        p = move.player
        ch: dict[str, Any] = {}
        if isinstance(move, mv.Place):
            return self._place(state, ch, p, KIND_INDEX[move.kind], cell_of(*move.at))
        if isinstance(move, mv.Meditate):
            return self._meditate(state, ch, move)
        if isinstance(move, mv.Finish):
            return self._end_placements(state, ch, state.phase)
        if isinstance(move, mv.Discard):
            supply = list(state.supplies[p])
            supply[KIND_INDEX[move.kind]] -= 1
            ch["supplies"] = _set(state.supplies, p, tuple(supply))
            if sum(supply) > state.storage_limit(p):
                return _evolve(state, **ch)
            return self._end_action(state, ch)
        if isinstance(move, mv.Prune):
            # one leaf always makes room for wood again (see Tree.prune_choices)
            tree = state.trees[p].without_leaf(cell_of(*move.at))
            return _evolve(state, trees=_set(state.trees, p, tree))
        assert isinstance(move, mv.ClaimGoal | mv.RenounceGoal)
        g = GOAL_IDS[(move.colour, move.tier)]
        if isinstance(move, mv.ClaimGoal):
            ch["goal_owner"] = _set(state.goal_owner, g, p)
        else:
            ch["renounced"] = _set(state.renounced, p, state.renounced[p] | 1 << g)
        return self._end_action(state, ch)

    def _place(
        self, state: BonsaiState, ch: dict[str, Any], p: int, kind: int, cell: int
    ) -> BonsaiState:
        phase = state.phase
        if phase is Phase.ACTION:
            phase, symbols = Phase.CULTIVATE, list(state.cultivate_symbols(p))
        else:
            symbols = list(state.symbols)
        # a kind's own symbol first, so that the wild one stays free for any kind
        symbols[kind if symbols[kind] else WILD] -= 1
        supply = list(state.supplies[p])
        supply[kind] -= 1
        tree = state.trees[p].with_tile(cell, kind)
        ch["trees"] = _set(state.trees, p, tree)
        ch["supplies"] = _set(state.supplies, p, tuple(supply))
        if _can_place_any(tree, supply, symbols):
            return _evolve(state, phase=phase, symbols=tuple(symbols), **ch)
        return self._end_placements(state, ch, phase)

    def _meditate(self, state: BonsaiState, ch: dict[str, Any], move: mv.Meditate) -> BonsaiState:
        p, index = move.player, move.slot - 1
        card_id = state.market[index]
        card = CARD_TYPES[card_id]
        gain = SLOT_TILES[index]
        if move.tile is not None:
            gain = _add(gain, _one(KIND_INDEX[move.tile]))
        if card.kind is CardKind.MASTER:
            gain = _add(gain, card.tiles)
            if move.wild is not None:
                gain = _add(gain, _one(KIND_INDEX[move.wild]))
        deck, market, discards = list(state.deck), list(state.market), list(state.discards)
        market[index] = -1
        if self.num_players == 1:  # solo: the deck-side neighbour goes too (or the deck's top)
            if index > 0 and market[index - 1] >= 0:
                discards.append(market[index - 1])
                market[index - 1] = -1
            elif index == 0 and deck:
                discards.append(deck.pop(0))
        supply = _add(state.supplies[p], gain)
        ch.update(_refill(deck, market, discards))
        ch["cards"] = _set(state.cards, p, tuple(sorted((*state.cards[p], card_id))))
        ch["supplies"] = _set(state.supplies, p, supply)
        if card.kind is CardKind.HELPER:
            symbols = (*card.tiles, 1)
            if _can_place_any(state.trees[p], supply, symbols):
                return _evolve(state, phase=Phase.HELPER, symbols=symbols, **ch)
        return self._after_meditate(state, ch)

    def _after_meditate(self, state: BonsaiState, ch: dict[str, Any]) -> BonsaiState:
        """The storage limit: discard the excess (one move per tile), else the action is over."""
        p = state.current_player
        cards = ch.get("cards", state.cards)[p]
        ch["symbols"] = NO_SYMBOLS
        if sum(ch.get("supplies", state.supplies)[p]) > storage_limit_for(cards):
            return _evolve(state, phase=Phase.DISCARD, **ch)
        return self._end_action(state, ch)

    def _end_placements(self, state: BonsaiState, ch: dict[str, Any], phase: Phase) -> BonsaiState:
        """The end of a Cultivate (solo: slot 4's card is discarded) or of a Helper's placements."""
        if phase is Phase.HELPER:
            return self._after_meditate(state, ch)
        if self.num_players == 1 and state.market[-1] >= 0:
            market = list(state.market)
            discards = [*state.discards, market[-1]]
            market[-1] = -1
            ch.update(_refill(list(state.deck), market, discards))
        ch["symbols"] = NO_SYMBOLS
        return self._end_action(state, ch)

    def _end_action(self, state: BonsaiState, ch: dict[str, Any]) -> BonsaiState:
        """After the action: offer a met goal, or end the turn (and maybe the game)."""
        p = state.current_player
        assert p is not None
        offered = _offered_goal(
            ch.get("trees", state.trees)[p],
            ch.get("goal_owner", state.goal_owner),
            ch.get("renounced", state.renounced)[p],
            state.goals_in_play,
            p,
        )
        if offered >= 0:
            return _evolve(state, phase=Phase.GOALS, **ch)
        turn, last = state.turn, state.last_turn
        if last < 0 and not ch.get("deck", state.deck):
            n = self.num_players
            last = turn + n if self.end_rule == "extra_turn" else turn - turn % n + n - 1
        if turn == last:
            return _evolve(state, phase=Phase.OVER, last_turn=last, **ch)
        return _evolve(state, phase=Phase.ACTION, turn=turn + 1, last_turn=last, **ch)

    # ------------------------------------------------------------------ saved states

    def state_from_dict(self, data: Any) -> BonsaiState:
        """The state ``data`` describes (from ``to_dict``); StateError if it is malformed
        or inconsistent with the rules (nothing else is built)."""
        return load_state(self, data)


def _make_evolve() -> Any:
    """``attrs.evolve`` for the hot path, generated once: a copy of a state with some fields
    changed, each slot set directly (BonsaiState has no validators or converters)."""
    names = [a.name for a in attrs.fields(BonsaiState)]
    lines = ["def _evolve(state, **c):", "    new = _new(_cls)"]
    lines += [f"    _set_{n}(new, c['{n}'] if '{n}' in c else state.{n})" for n in names]
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": BonsaiState}
    namespace.update({f"_set_{n}": getattr(BonsaiState, n).__set__ for n in names})
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from the class's own field names
    return namespace["_evolve"]


_evolve = _make_evolve()


def _offered_goal(
    tree: Tree, owner: tuple[int, ...], renounced: int, in_play: int, player: int
) -> int:
    """See ``BonsaiGame.offered_goal``."""
    available = in_play & ~renounced
    if not available:
        return -1
    measures = tree.goal_measures()
    for colour, ladder in enumerate(_GOAL_LADDERS):
        measure = measures[colour]
        if measure < ladder[-1][1] or player in owner[3 * colour : 3 * colour + 3]:
            continue
        for g, threshold in ladder:
            if measure >= threshold and available >> g & 1 and owner[g] < 0:
                return g
    return -1


_GOAL_LADDERS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((g, GOALS[g].threshold) for g in (3 * c + 2, 3 * c + 1, 3 * c))
    for c in range(len(COLOURS))
)
"""Per colour, its goals hardest first as (goal id, threshold)."""


def _can_place_any(tree: Tree, supply: Any, symbols: Any) -> bool:
    """Whether some tile of ``supply`` may go on ``tree`` with one of ``symbols``."""
    wild = symbols[WILD]
    return any(supply[k] and (symbols[k] or wild) and tree.open_cells(k) for k in range(4))


def _refill(deck: list[int], market: list[int], discards: list[int]) -> dict[str, tuple[int, ...]]:
    """Slide the market's cards toward slot 4 and fill slot 1 from the deck while it lasts."""
    cards = [c for c in market if c >= 0]
    while len(cards) < MARKET_SIZE and deck:
        cards.insert(0, deck.pop(0))
    return {
        "deck": tuple(deck),
        "market": (-1,) * (MARKET_SIZE - len(cards)) + tuple(cards),
        "discards": tuple(discards),
    }


def _cell(at: Any) -> int | None:
    if (
        isinstance(at, tuple)
        and len(at) == 2
        and all(type(x) is int for x in at)
        and max(abs(at[0]), abs(at[1])) <= COORD_LIMIT
    ):
        return cell_of(*at)
    return None


def _has_wild_tile(card: int) -> bool:
    """Whether taking ``card`` gives a wild tile (a Master's; a Helper's wild is a symbol)."""
    return CARD_TYPES[card].kind is CardKind.MASTER and CARD_TYPES[card].wild > 0


class _PlaceMoves(dict[int, mv.Place]):
    """The Place moves of one seat and kind by cell, each built once, when first needed."""

    def __init__(self, player: int, kind: int) -> None:
        super().__init__()
        self.player, self.kind = player, KINDS[kind].value

    def __missing__(self, cell: int) -> mv.Place:
        move = self[cell] = mv.Place(self.player, self.kind, qr_of(cell))
        return move


_PLACE_MOVES: tuple[tuple[_PlaceMoves, ...], ...] = tuple(
    tuple(_PlaceMoves(player, kind) for kind in range(4)) for player in range(4)
)
"""``_PLACE_MOVES[seat][kind][cell]``: the move placing ``kind`` on ``cell``."""


@functools.cache
def _finish(player: int) -> mv.Finish:
    return mv.Finish(player)


@functools.cache
def _discard(player: int, kind: int) -> mv.Discard:
    return mv.Discard(player, KINDS[kind].value)


@functools.lru_cache(maxsize=1 << 14)
def _market_meditations(player: int, market: tuple[int, ...]) -> tuple[mv.Meditate, ...]:
    """Every Meditate move ``player`` has with this market, slot by slot."""
    return tuple(
        m
        for slot, card in enumerate(market, 1)
        if card >= 0
        for m in _meditations(player, slot, card)
    )


@functools.cache
def _meditations(player: int, slot: int, card: int) -> tuple[mv.Meditate, ...]:
    """Every way to take ``card`` from ``slot``: slot 2's wood or leaf, a Master's wild kind."""
    tiles: tuple[str | None, ...] = ("wood", "leaf") if slot == SLOT_CHOICE else (None,)
    wilds: tuple[str | None, ...] = (
        tuple(k.value for k in KINDS) if _has_wild_tile(card) else (None,)
    )
    return tuple(mv.Meditate(player, slot, t, w) for t in tiles for w in wilds)
