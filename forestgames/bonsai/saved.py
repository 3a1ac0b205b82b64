"""Saved Bonsai states: the schema of ``to_dict`` and the invariants a loaded state must keep.

The schema (one :class:`~forestgames.schema.Field` per key) writes every
field and does every type and range check; what is left here as code are the
cross-field rules, each a small named check that raises StateError. Together
they accept a saved state only where the rules could reach it, as far as the
state shows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from forestgames.bonsai._tables import (
    ALL_GOALS_MASK,
    BESIDE_POT,
    BUD,
    CARD_NAMES,
    CARD_TYPES,
    COLOURS,
    COORD_LIMIT,
    DIRECTIONS,
    GOALS,
    GROWTH_CARDS,
    HELPER_SYMBOLS,
    KINDS,
    MARKET_SIZE,
    MASTER_TILES,
    MAX_GAIN,
    MAX_SLOT_TILES,
    TOOL_CARD,
    WOOD,
    deck_counts,
    qr_of,
)
from forestgames.bonsai.scoring import allowed_kinds, cells_from_tiles
from forestgames.bonsai.state import SYMBOL_NAMES, BonsaiState, Phase
from forestgames.bonsai.tree import Tree
from forestgames.core import StateError, require
from forestgames.schema import Choice, Field, Int, List, Map, Nullable, Record, Spec, Tuple

if TYPE_CHECKING:
    from forestgames.bonsai.rules import BonsaiGame

__all__ = ["INVARIANTS", "state_fields", "state_from_fields"]

KIND_NAMES: tuple[str, ...] = tuple(map(str, KINDS))
PHASE_NAMES: tuple[str, ...] = tuple(phase.value for phase in Phase)
KIND = Choice(KIND_NAMES)
CARD = Choice(tuple(card.name for card in CARD_TYPES))
GOAL = Choice(tuple(goal.name for goal in GOALS))
GOAL_BY_NAME: Mapping[str, int] = MappingProxyType({goal.name: g for g, goal in enumerate(GOALS)})
COORD = Int(-COORD_LIMIT, COORD_LIMIT)
PAST_THE_ACTION = (Phase.CULTIVATE, Phase.HELPER, Phase.DISCARD, Phase.GOALS)
"""Steps of a turn whose action (a Meditate or a Cultivate) has been taken."""
AFTER_A_MEDITATE = (Phase.HELPER, Phase.DISCARD, Phase.GOALS)
"""Steps of a turn that may follow a Meditate (so a card was taken this turn)."""


def state_fields(game: BonsaiGame) -> tuple[Field, ...]:
    """The fields of a saved Bonsai state, in ``to_dict`` order."""
    p = game.num_players
    seat = Int(0, p - 1)
    turns = Int(0, game.max_turns())
    cards = sum(deck_counts(p))
    return (
        Field("phase", Choice(PHASE_NAMES), lambda s: s.phase.value),
        Field("first_player", seat, lambda s: s.first_player),
        Field("turn", turns, lambda s: s.turn),
        Field("last_turn", Nullable(turns), _write_last_turn),
        Field("deck", List(CARD, max_len=cards), lambda s: _names(s.deck)),
        Field("market", List(Nullable(CARD), length=MARKET_SIZE), _write_market),
        Field("discards", List(CARD, max_len=cards), lambda s: _names(s.discards)),
        Field("players", List(_player_spec(game), length=p), _write_players),
        Field("goals_in_play", List(GOAL, max_len=len(GOALS)), lambda s: _goals(s.goals_in_play)),
        Field("goal_owners", Map(GOAL, seat, max_len=len(GOALS)), _write_goal_owners),
        Field(
            "renounced",
            List(List(GOAL, max_len=len(GOALS)), length=p),
            lambda s: [_goals(mask) for mask in s.renounced],
        ),
        Field(
            "symbols",
            _symbols_spec(game),
            lambda s: dict(zip(SYMBOL_NAMES, s.symbols, strict=True)),
        ),
    )


def observation_fields(game: BonsaiGame) -> dict[str, Spec]:
    """An observation's keys besides ``observer``: a saved state's, the deck's size for
    the deck."""
    fields = {field.key: field.spec for field in game._schema.fields if field.key != "deck"}
    return {"deck_size": Int(0, sum(deck_counts(game.num_players))), **fields}


def _player_spec(game: BonsaiGame) -> Record:
    """One seat's tree (its tiles but the bud), supply and cards."""
    counts = deck_counts(game.num_players)
    cards = sum(counts)
    most_held = game._storage_limit((TOOL_CARD,) * counts[TOOL_CARD]) + MAX_GAIN
    return Record(
        {
            "tree": List(Tuple(COORD, COORD, KIND), max_len=10 + 5 * cards),
            "supply": Record({name: Int(0, most_held) for name in KIND_NAMES}),
            "cards": List(CARD, max_len=cards),
        }
    )


def _symbols_spec(game: BonsaiGame) -> Record:
    """The placement symbols left: at most a Cultivate's with every Growth card of a kind."""
    counts = deck_counts(game.num_players)
    most = max(
        game._cultivate_symbols((card,) * counts[card])[kind]
        for kind, card in enumerate(GROWTH_CARDS)
    )
    return Record({name: Int(0, most) for name in SYMBOL_NAMES})


def _write_last_turn(state: BonsaiState) -> int | None:
    return None if state.last_turn < 0 else state.last_turn


def _write_market(state: BonsaiState) -> list[str | None]:
    return [None if c < 0 else CARD_TYPES[c].name for c in state.market]


def _write_goal_owners(state: BonsaiState) -> dict[str, int]:
    return {GOALS[g].name: seat for g, seat in enumerate(state.goal_owner) if seat >= 0}


def _names(cards: tuple[int, ...]) -> list[str]:
    return [CARD_TYPES[c].name for c in cards]


def _goals(mask: int) -> list[str]:
    return [GOALS[g].name for g in range(len(GOALS)) if mask >> g & 1]


def _write_players(state: BonsaiState) -> list[dict[str, Any]]:
    return [
        {
            "tree": _write_tree(state.trees[p]),
            "supply": dict(zip(KIND_NAMES, state.supplies[p], strict=True)),
            "cards": _names(state.cards[p]),
        }
        for p in range(state.game.num_players)
    ]


def _write_tree(tree: Tree) -> list[list[Any]]:
    """The tiles but the bud, as ``[q, r, kind]`` sorted by ``(q, r)``."""
    return [[q, r, str(kind)] for (q, r), kind in tree.tiles.items() if (q, r) != (0, 0)]


def state_from_fields(game: BonsaiGame, fields: dict[str, Any]) -> BonsaiState:
    """The state the checked ``fields`` describe (invariants not yet checked)."""
    players = fields["players"]
    last = fields["last_turn"]
    return BonsaiState(
        game=game,
        phase=Phase(fields["phase"]),
        first_player=fields["first_player"],
        turn=fields["turn"],
        last_turn=-1 if last is None else last,
        deck=_card_ids(fields["deck"]),
        market=_read_market(fields["market"]),
        discards=_card_ids(fields["discards"]),
        trees=tuple(_tree(game, seat, data["tree"]) for seat, data in enumerate(players)),
        supplies=tuple(_read_supply(data["supply"]) for data in players),
        cards=tuple(_card_ids(data["cards"]) for data in players),
        goals_in_play=_goal_mask(fields["goals_in_play"], "goals_in_play"),
        goal_owner=_read_goal_owners(fields["goal_owners"]),
        renounced=tuple(
            _goal_mask(names, f"renounced[{seat}]")
            for seat, names in enumerate(fields["renounced"])
        ),
        symbols=_read_symbols(fields["symbols"]),
    )


def _read_market(names: tuple[str | None, ...]) -> tuple[int, ...]:
    return tuple(-1 if name is None else CARD_NAMES[name] for name in names)


def _read_symbols(counts: dict[str, int]) -> tuple[int, int, int, int, int]:
    return (counts["wood"], counts["leaf"], counts["flower"], counts["fruit"], counts["wild"])


def _read_supply(counts: dict[str, int]) -> tuple[int, int, int, int]:
    return (counts["wood"], counts["leaf"], counts["flower"], counts["fruit"])


def _read_goal_owners(owners: dict[str, int]) -> tuple[int, ...]:
    owner = [-1] * len(GOALS)
    for name, seat in owners.items():
        owner[GOAL_BY_NAME[name]] = seat
    return tuple(owner)


def _card_ids(names: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(CARD_NAMES[name] for name in names)


def _goal_mask(names: tuple[str, ...], what: str) -> int:
    mask = 0
    for name in names:
        bit = 1 << GOAL_BY_NAME[name]
        require(not mask & bit, StateError, f"{what} lists {name} twice")
        mask |= bit
    return mask


def _tree(game: BonsaiGame, seat: int, items: tuple[tuple[int, int, str], ...]) -> Tree:
    what = f"players[{seat}].tree"
    tiles: dict[tuple[int, int], str] = {}
    for q, r, kind in items:
        require((q, r) != (0, 0), StateError, f"{what}: the bud (0, 0) is not listed")
        require((q, r) not in tiles, StateError, f"{what}: two tiles on ({q}, {r})")
        tiles[(q, r)] = kind
    try:
        cells = cells_from_tiles(tiles)
    except StateError as error:
        raise StateError(f"{what}: {error}") from None
    return Tree(cells, game.wood_beside_pot)


# ---------------------------------------------------------------------- helpers


def _turn_seat(state: BonsaiState) -> int:
    """The seat of turn ``state.turn`` (the last turn, once the game is over)."""
    return (state.first_player + state.turn) % state.game.num_players


def _turns_before(state: BonsaiState, seat: int) -> int:
    """The turns ``seat`` played before turn ``state.turn``."""
    p = state.game.num_players
    offset = (seat - state.first_player) % p
    return max(0, (state.turn - offset + p - 1) // p)


def _this_turn_counts(state: BonsaiState, seat: int, phases: Sequence[Phase]) -> int:
    """1 if this turn is ``seat``'s and is in one of ``phases`` (or the game is over)."""
    if seat != _turn_seat(state):
        return 0
    return 1 if state.phase is Phase.OVER or state.phase in phases else 0


def _cards_taken(state: BonsaiState, seat: int) -> int:
    """At most how many cards ``seat`` can have taken: one per turn, this one included
    once it may have been a Meditate."""
    return _turns_before(state, seat) + _this_turn_counts(state, seat, AFTER_A_MEDITATE)


# ---------------------------------------------------------------------- invariants


def cards_conserved(state: BonsaiState) -> None:
    """Deck, market, discards and hands hold exactly the game's cards."""
    p = state.game.num_players
    held = [c for hand in state.cards for c in hand]
    found = Counter([*state.deck, *(c for c in state.market if c >= 0), *state.discards, *held])
    for c, want in enumerate(deck_counts(p)):
        require(
            found[c] == want,
            StateError,
            f"{want} card(s) {CARD_TYPES[c].name} in a {p}-player game, the state has {found[c]}",
        )


def hands_in_table_order(state: BonsaiState) -> None:
    """Each seat's cards are listed in card-table order (a hand is a set of card types)."""
    for seat, hand in enumerate(state.cards):
        require(
            list(hand) == sorted(hand),
            StateError,
            f"players[{seat}].cards must be in card-table order",
        )


def hands_fit_turns(state: BonsaiState) -> None:
    """A seat holds at most one card per turn it played (a Meditate takes one); only solo
    discards, at most one card per turn."""
    for seat, hand in enumerate(state.cards):
        most = _cards_taken(state, seat)
        require(
            len(hand) <= most,
            StateError,
            f"seat {seat} holds {len(hand)} cards after {most} turn(s) that could take one",
        )
    if state.game.num_players > 1:
        require(not state.discards, StateError, "only the solo game discards cards")
        return
    turns = state.turn + _this_turn_counts(state, 0, AFTER_A_MEDITATE)
    require(
        len(state.discards) <= turns,
        StateError,
        f"{len(state.discards)} cards discarded in {turns} solo turn(s) (at most one a turn)",
    )


def market_slots(state: BonsaiState) -> None:
    """Empty market slots only once the deck is empty, on the deck side; a turn never
    starts with an empty market."""
    empty = [c < 0 for c in state.market]
    require(
        not any(empty) or (not state.deck and empty == sorted(empty, reverse=True)),
        StateError,
        "market slots may be empty only once the deck is empty, and only on the deck side",
    )
    require(
        state.phase is not Phase.ACTION or not all(empty),
        StateError,
        "a turn starts with an empty market",
    )


def end_of_the_deck(state: BonsaiState) -> None:
    """``last_turn`` is set at the end of the turn that empties the deck, and fits the end
    rule; a finished game stops on its last turn."""
    game, p, last = state.game, state.game.num_players, state.last_turn
    if last < 0:
        require(
            bool(state.deck) or state.phase in AFTER_A_MEDITATE,
            StateError,
            f"{state.phase.value}: the deck is empty, so last_turn must be set",
        )
    else:
        require(not state.deck, StateError, "last_turn is set but the deck is not empty")
        # set at the end of the turn that emptied the deck: at most p turns remain after it,
        # and under the round rule the last turn closes a round
        in_round = game.end_rule == "extra_turn" or last % p == p - 1
        require(
            last - p + 1 <= state.turn <= last and in_round,
            StateError,
            f"last_turn {last} does not fit turn {state.turn} and the {game.end_rule} end rule",
        )
    require(
        state.phase is not Phase.OVER or state.turn == last,
        StateError,
        "a finished game's turn must be its last turn",
    )


def goals_fit_setup(state: BonsaiState) -> None:
    """The goals in play are the setup's: all 15, or the published setup's three colours."""
    game, in_play = state.game, state.goals_in_play
    if game.goal_setup == "all":
        expected = ALL_GOALS_MASK
    else:
        colours = [c for c in range(len(COLOURS)) if in_play >> 3 * c & 0b111]
        expected = game._published_goals(colours) if len(colours) == 3 else -1
    require(
        in_play == expected,
        StateError,
        f"goals in play {_goals(in_play)} do not fit the {game.goal_setup!r} goal setup "
        f"with {game.num_players} player(s)",
    )


def goal_claims(state: BonsaiState) -> None:
    """Claimed goals are in play, at most one per colour and seat; a brown goal's wood
    (which is never removed) is still on the claimer's tree."""
    for g, seat in enumerate(state.goal_owner):
        if seat < 0:
            continue
        name = GOALS[g].name
        require(bool(state.goals_in_play >> g & 1), StateError, f"{name} is claimed, not in play")
        same_colour = state.goal_owner[g - g % 3 : g - g % 3 + 3]
        require(
            same_colour.count(seat) == 1, StateError, f"seat {seat} holds two goals of one colour"
        )
        _wood_for(state, seat, g, "holds")


def renounced_goals(state: BonsaiState) -> None:
    """A renounced goal was in play, offered (so met: brown wood stays) and not claimed."""
    for seat, mask in enumerate(state.renounced):
        for g in range(len(GOALS)):
            if not mask >> g & 1:
                continue
            name = GOALS[g].name
            require(
                bool(state.goals_in_play >> g & 1),
                StateError,
                f"seat {seat} renounced {name}, not in play",
            )
            require(
                state.goal_owner[g] != seat,
                StateError,
                f"seat {seat} both claimed and renounced {name}",
            )
            _wood_for(state, seat, g, "renounced")


def _wood_for(state: BonsaiState, seat: int, g: int, how: str) -> None:
    goal = GOALS[g]
    if goal.colour != COLOURS[0]:
        return
    wood = state.trees[seat].counts()[WOOD]
    require(
        wood >= goal.threshold,
        StateError,
        f"seat {seat} {how} {goal.name} (at least {goal.threshold} wood) with {wood} wood",
    )


def no_goal_left_unoffered(state: BonsaiState) -> None:
    """Goals are settled at the end of each action: only the seat whose action is under
    way may meet a goal it has not claimed or renounced, and in the goals step it does."""
    game, mover, phase = state.game, state.current_player, state.phase
    for seat in range(game.num_players):
        offered = game._offered_goal(state, seat)
        if seat == mover and phase in PAST_THE_ACTION:
            require(
                phase is not Phase.GOALS or offered >= 0,
                StateError,
                "goals step without a goal to offer",
            )
            continue
        require(
            offered < 0,
            StateError,
            f"seat {seat} meets {GOALS[max(offered, 0)].name}, which would have been offered",
        )


def seats_yet_to_play(state: BonsaiState) -> None:
    """A seat that has not played yet holds its starting tiles, no card, no goal and the bud."""
    game = state.game
    for seat in range(game.num_players):
        if _turns_before(state, seat) + _this_turn_counts(state, seat, PAST_THE_ACTION):
            continue
        start = game._starting_tiles(seat, state.first_player)
        untouched = (
            state.supplies[seat] == start
            and not state.cards[seat]
            and len(state.trees[seat]) == 1
            and seat not in state.goal_owner
            and not state.renounced[seat]
        )
        require(
            untouched,
            StateError,
            f"seat {seat} has not played yet, so it holds its starting tiles {start}, "
            "no card, no goal and the bud alone",
        )


def tiles_accounted(state: BonsaiState) -> None:
    """A seat's tree and supply hold no more tiles than it started with and took: at most
    2 with each card's slot, and a Master's own."""
    game = state.game
    for seat, hand in enumerate(state.cards):
        have = len(state.trees[seat]) - 1 + sum(state.supplies[seat])
        start = sum(game._starting_tiles(seat, state.first_player))
        most = start + sum(MAX_SLOT_TILES + MASTER_TILES[c] for c in hand)
        require(
            have <= most,
            StateError,
            f"seat {seat} has {have} tiles (tree and supply); its start and its "
            f"{len(hand)} card(s) gave at most {most}",
        )


def storage_limits(state: BonsaiState) -> None:
    """Supplies stay within the storage limit, but the mover's during a Helper's
    placements or the discard step (over it by at most one Meditate's tiles; the
    discard step only while over it)."""
    game, mover, phase = state.game, state.current_player, state.phase
    for seat, supply in enumerate(state.supplies):
        held, limit = sum(supply), game._storage_limit(state.cards[seat])
        if seat == mover and phase in (Phase.HELPER, Phase.DISCARD):
            low = limit + 1 if phase is Phase.DISCARD else 0
            require(
                low <= held <= limit + MAX_GAIN,
                StateError,
                f"{phase.value} step: seat {seat} holds {held} tiles with the limit {limit}",
            )
            continue
        require(
            held <= limit,
            StateError,
            f"seat {seat} holds {held} tiles, over its storage limit {limit}",
        )


def symbols_fit_step(state: BonsaiState) -> None:
    """Placement symbols only during a Cultivate (some spent) or a Helper (of a held Helper
    card), and only while some tile can still be placed."""
    game, phase, symbols, mover = state.game, state.phase, state.symbols, state.current_player
    if phase not in (Phase.CULTIVATE, Phase.HELPER):
        require(
            not any(symbols),
            StateError,
            f"{phase.value}: no placement symbols may be left outside a Cultivate or Helper",
        )
        return
    assert mover is not None
    hand = state.cards[mover]
    if phase is Phase.CULTIVATE:
        allowed = [game._cultivate_symbols(hand)]
        fits = symbols != allowed[0] and _within(symbols, allowed[0])
    else:
        allowed = [HELPER_SYMBOLS[c] for c in hand if c in HELPER_SYMBOLS]
        fits = any(_within(symbols, shape) for shape in allowed)
    require(
        fits,
        StateError,
        f"symbols {symbols} do not fit a {phase.value} step under way with {allowed}",
    )
    placements = game._placements(mover, state.trees[mover], state.supplies[mover], symbols)
    require(
        bool(placements), StateError, "no placement is possible: the placing step should have ended"
    )


def _within(symbols: tuple[int, ...], allowed: tuple[int, ...]) -> bool:
    return all(s <= a for s, a in zip(symbols, allowed, strict=True))


def trees_follow_placement_rules(state: BonsaiState) -> None:
    """Every tile stands as the placement rules let it stand: wood joined to the bud (or
    the pot, with ``wood_beside_pot``) by wood, every other tile allowed where it is by
    its neighbours."""
    beside_pot = state.game.wood_beside_pot
    for seat, tree in enumerate(state.trees):
        cells = tree.cells
        reached = _wood_reached(cells, beside_pot)
        for cell, kind in cells.items():
            ok = cell in reached if kind == WOOD else allowed_kinds(cells, cell)[kind]
            require(
                ok,
                StateError,
                f"players[{seat}].tree: the {KINDS[kind]} at {qr_of(cell)} breaks the "
                "placement rules",
            )


def _wood_reached(cells: Any, beside_pot: bool) -> set[int]:
    """The wood cells joined by wood to the bud (or to the pot, if ``beside_pot``)."""
    woods = {c for c, k in cells.items() if k == WOOD}
    reached = {BUD} | (woods & BESIDE_POT if beside_pot else set())
    stack = list(reached)
    while stack:
        c = stack.pop()
        for d in DIRECTIONS:
            if c + d in woods and c + d not in reached:
                reached.add(c + d)
                stack.append(c + d)
    return reached


INVARIANTS: Sequence[Callable[[BonsaiState], None]] = (
    cards_conserved,
    hands_in_table_order,
    hands_fit_turns,
    market_slots,
    end_of_the_deck,
    goals_fit_setup,
    trees_follow_placement_rules,
    seats_yet_to_play,
    tiles_accounted,
    storage_limits,
    symbols_fit_step,
    goal_claims,
    renounced_goals,
    no_goal_left_unoffered,
)
