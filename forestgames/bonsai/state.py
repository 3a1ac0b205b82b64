"""The Bonsai state: an immutable position, with its rules delegated to its game.

Read the position through the properties: ``tree(p)`` (a :class:`Tree`),
``supply(p)``, ``cards_of(p)``, ``market_cards``, ``deck_size``, ``goal_owners``,
``phase`` and ``current_player``. Card fields hold card *types* (indices of
``CARD_TYPES``): copies of a card are identical, so states that differ only by
which copy is where are the same state.
"""

from __future__ import annotations

import functools
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import attrs

from forestgames.bonsai._tables import (
    BASE_STORAGE,
    BESIDE_POT,
    BUD,
    CARD_NAMES,
    CARD_TYPES,
    COORD_LIMIT,
    DIRECTIONS,
    GOAL_IDS,
    GOALS,
    KINDS,
    MARKET_SIZE,
    SEISHI_SYMBOLS,
    SOLO_TARGETS,
    TOOL_STORAGE,
    WILD,
    WOOD,
    CardKind,
    deck_counts,
    qr_of,
)
from forestgames.bonsai.scoring import allowed_kinds, cells_from_tiles, parchment_points
from forestgames.bonsai.tree import Tree
from forestgames.core import LegacyStateBase as StateBase
from forestgames.core import StateError, expect_int, expect_keys, new_rng, require

if TYPE_CHECKING:
    from forestgames.bonsai.rules import BonsaiGame

__all__ = ["BonsaiState", "Phase"]

SYMBOL_NAMES = (*KINDS, "wild")


class Phase(StrEnum):
    """What the current player is deciding."""

    ACTION = "action"  # start of a turn: Meditate, first Cultivate placement, or a prune
    CULTIVATE = "cultivate"  # more placements of this Cultivate, or finish
    HELPER = "helper"  # the Helper card's placements, or finish
    DISCARD = "discard"  # over the storage limit after Meditate
    GOALS = "goals"  # claim or renounce the offered goal
    OVER = "over"


@attrs.frozen(repr=False)
class BonsaiState(StateBase):
    """A Bonsai position. Build with ``game.new_game()``; change with ``apply()``.

    ``turn`` counts the turns before this one (the first player's first turn is
    0), ``last_turn`` is the game's final turn once the deck has run out (-1
    before). ``deck`` (card types, top first) is hidden from observations;
    ``market`` holds slots 1..4 (-1 for an empty slot; empty slots are always
    on the deck side). ``symbols`` are the placements still allowed this
    Cultivate or Helper as (wood, leaf, flower, fruit, wild). Goals are ids
    into ``GOALS``: ``goals_in_play`` and each seat's ``renounced`` are bit
    masks, ``goal_owner`` the seat holding each goal (-1 if none).
    """

    game: BonsaiGame
    phase: Phase
    first_player: int
    turn: int
    last_turn: int
    deck: tuple[int, ...]
    market: tuple[int, ...]
    discards: tuple[int, ...]
    trees: tuple[Tree, ...]
    supplies: tuple[tuple[int, int, int, int], ...]
    cards: tuple[tuple[int, ...], ...]
    goals_in_play: int
    goal_owner: tuple[int, ...]
    renounced: tuple[int, ...]
    symbols: tuple[int, int, int, int, int]

    # ------------------------------------------------------------------ protocol

    @property
    def current_player(self) -> int | None:
        """The seat to move, or None once the game is over."""
        if self.phase is Phase.OVER:
            return None
        return (self.first_player + self.turn) % self.game.num_players

    @property
    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def scores(self) -> tuple[int, ...]:
        """Points so far per seat: tree, claimed goals and Parchment cards."""
        return tuple(self.score_parts(p)["total"] for p in range(self.game.num_players))

    def score_parts(self, player: int) -> dict[str, int]:
        """``player``'s points by source: tree, goals, parchments, and their total."""
        tree = self.trees[player]
        tree_points = tree.points(self.game.pot_sides_free)
        goals = sum(GOALS[g].points for g, owner in enumerate(self.goal_owner) if owner == player)
        held = self.cards[player]
        counts = tree.counts()
        parchments = sum(
            parchment_points(c, counts, held)
            for c in held
            if CARD_TYPES[c].kind is CardKind.PARCHMENT
        )
        return {
            "tree": tree_points,
            "goals": goals,
            "parchments": parchments,
            "total": tree_points + goals + parchments,
        }

    @property
    def winners(self) -> tuple[int, ...]:
        """Once over: the best score, ties to the seat farthest clockwise from the first
        player. Solo: ``(0,)`` if the player met the target (3 goals and the
        difficulty's points), else ``()``."""
        if self.phase is not Phase.OVER:
            return ()
        p = self.game.num_players
        if p == 1:
            return (0,) if self.solo_won else ()
        scores = self.scores
        best = max(scores)
        return (
            max(
                (s for s in range(p) if scores[s] == best),
                key=lambda s: (s - self.first_player) % p,
            ),
        )

    @property
    def solo_won(self) -> bool:
        """Solo: three goals claimed (one per colour) and the difficulty's points reached."""
        claimed = sum(1 for owner in self.goal_owner if owner == 0)
        return claimed == 3 and self.scores[0] >= SOLO_TARGETS[self.game.solo_difficulty]

    def _is_legal(self, move: Any) -> bool:
        return self.game.is_legal(self, move)

    def observation(self, player: int) -> dict[str, Any]:
        """Everything but the deck order (its size instead), from ``player``'s seat.

        Parchment cards lie face down but were taken from the open market, so
        they are public like every held card.
        """
        self._checked_player(player)
        data = self.to_dict()
        del data["deck"]
        return {"observer": player, "deck_size": len(self.deck), **data}

    def determinize(self, player: int, seed: int) -> BonsaiState:
        """This state with the deck reshuffled by ``seed`` (the only hidden information)."""
        self._checked_player(player)
        order = new_rng(seed).permutation(len(self.deck))
        return attrs.evolve(self, deck=tuple(self.deck[i] for i in order))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict; ``game.state_from_dict`` rebuilds this exact state."""
        return {
            "game": "bonsai",
            "num_players": self.game.num_players,
            "phase": self.phase.value,
            "first_player": self.first_player,
            "turn": self.turn,
            "last_turn": None if self.last_turn < 0 else self.last_turn,
            "deck": [CARD_TYPES[c].name for c in self.deck],
            "market": [None if c < 0 else CARD_TYPES[c].name for c in self.market],
            "discards": [CARD_TYPES[c].name for c in self.discards],
            "players": [
                {
                    "tree": [
                        [q, r, str(kind)]
                        for (q, r), kind in self.trees[p].tiles.items()
                        if (q, r) != (0, 0)
                    ],
                    "supply": dict(zip(map(str, KINDS), self.supplies[p], strict=True)),
                    "cards": [CARD_TYPES[c].name for c in self.cards[p]],
                }
                for p in range(self.game.num_players)
            ],
            "goals_in_play": [
                GOALS[g].name for g in range(len(GOALS)) if self.goals_in_play >> g & 1
            ],
            "goal_owners": {GOALS[g].name: s for g, s in enumerate(self.goal_owner) if s >= 0},
            "renounced": [
                [GOALS[g].name for g in range(len(GOALS)) if mask >> g & 1]
                for mask in self.renounced
            ],
            "symbols": dict(zip(SYMBOL_NAMES, self.symbols, strict=True)),
        }

    def render(self) -> str:
        """A text picture of the position (see ``forestgames.bonsai.render``)."""
        from forestgames.bonsai.render import render_state

        return render_state(self)

    def __repr__(self) -> str:
        return (
            f"<BonsaiState {self.game.num_players}p {self.phase.value} turn {self.turn} "
            f"to move: {self.current_player} scores {self.scores}>"
        )

    # ------------------------------------------------------------------ the position

    def tree(self, player: int) -> Tree:
        """``player``'s bonsai (``.tiles`` maps (q, r) to a Tile, the bud included)."""
        return self.trees[player]

    def supply(self, player: int) -> dict[str, int]:
        """``player``'s personal supply of tiles by kind."""
        return dict(zip(map(str, KINDS), self.supplies[player], strict=True))

    def cards_of(self, player: int) -> tuple[str, ...]:
        """The names of the Zen cards ``player`` holds (Parchments included)."""
        return tuple(CARD_TYPES[c].name for c in self.cards[player])

    def storage_limit(self, player: int) -> int:
        """5 tiles, +2 per Tool card held."""
        return storage_limit_for(self.cards[player])

    def cultivate_symbols(self, player: int) -> tuple[int, int, int, int, int]:
        """The Seishi tile's symbols plus one per Growth card: (wood, leaf, flower, fruit, wild)."""
        return cultivate_symbols_for(self.cards[player])

    @property
    def market_cards(self) -> tuple[str | None, ...]:
        """Card names in slots 1..4 (None for an empty slot)."""
        return tuple(None if c < 0 else CARD_TYPES[c].name for c in self.market)

    @property
    def deck_size(self) -> int:
        return len(self.deck)

    @property
    def goal_owners(self) -> dict[str, int]:
        """Claimed goals by name (``"brown 2"``) and the seat holding each."""
        return {GOALS[g].name: s for g, s in enumerate(self.goal_owner) if s >= 0}

    @property
    def offered_goal(self) -> str | None:
        """In the goals step, the goal the current player must claim or renounce."""
        player = self.current_player
        if self.phase is not Phase.GOALS or player is None:
            return None
        return GOALS[self.game.offered_goal(self, player)].name


@functools.cache
def storage_limit_for(cards: tuple[int, ...]) -> int:
    """The storage limit of a player holding card types ``cards``: 5, +2 per Tool."""
    tools = sum(1 for c in cards if CARD_TYPES[c].kind is CardKind.TOOL)
    return BASE_STORAGE + TOOL_STORAGE * tools


@functools.cache
def cultivate_symbols_for(cards: tuple[int, ...]) -> tuple[int, int, int, int, int]:
    """Cultivate symbols (wood, leaf, flower, fruit, wild) with card types ``cards``:
    the Seishi tile's plus one per Growth card."""
    symbols = list(SEISHI_SYMBOLS)
    for c in cards:
        card = CARD_TYPES[c]
        if card.kind is CardKind.GROWTH:
            for k in range(4):
                symbols[k] += card.tiles[k]
    return (symbols[0], symbols[1], symbols[2], symbols[3], symbols[4])


# ---------------------------------------------------------------------- loading saved states

_KEYS = (
    "game", "num_players", "phase", "first_player", "turn", "last_turn", "deck", "market",
    "discards", "players", "goals_in_play", "goal_owners", "renounced", "symbols",
)  # fmt: skip
_PLAYER_KEYS = ("tree", "supply", "cards")


def _card(name: Any, what: str) -> int:
    card = CARD_NAMES.get(name) if isinstance(name, str) else None
    require(card is not None, StateError, f"{what}: {name!r} is not a Zen card name")
    return card  # type: ignore[return-value]


def _cards(value: Any, what: str) -> tuple[int, ...]:
    require(isinstance(value, list), StateError, f"{what} must be a list of card names")
    return tuple(_card(name, what) for name in value)


def _goal(name: Any, what: str) -> int:
    goal = None
    if isinstance(name, str) and len(name.split()) == 2:
        colour, tier = name.split()
        goal = GOAL_IDS.get((colour, int(tier))) if tier in ("1", "2", "3") else None
    require(goal is not None, StateError, f"{what}: {name!r} is not a goal (e.g. 'brown 2')")
    return goal  # type: ignore[return-value]


def _counts(value: Any, names: tuple[str, ...], what: str) -> tuple[int, ...]:
    data = expect_keys(value, names, what)
    return tuple(expect_int(data[name], f"{what}[{name}]", 0, 999) for name in names)


def _tree(value: Any, game: BonsaiGame, what: str) -> Tree:
    require(isinstance(value, list), StateError, f"{what} must be a list of [q, r, kind]")
    tiles: dict[tuple[int, int], str] = {}
    for item in value:
        require(
            isinstance(item, list) and len(item) == 3,
            StateError,
            f"{what}: {item!r} is not [q, r, kind]",
        )
        q = expect_int(item[0], f"{what} q", -COORD_LIMIT, COORD_LIMIT)
        r = expect_int(item[1], f"{what} r", -COORD_LIMIT, COORD_LIMIT)
        require(
            (q, r) not in tiles and (q, r) != (0, 0), StateError, f"{what}: two tiles on ({q}, {r})"
        )
        tiles[(q, r)] = item[2]
    cells = cells_from_tiles(tiles)
    _check_tree(cells, game.wood_beside_pot, what)
    return Tree(cells, game.wood_beside_pot)


def _check_tree(cells: dict[int, int], wood_beside_pot: bool, what: str) -> None:
    """Every tile of a saved tree must stand as the placement rules let it stand: wood joined
    to the bud (or the pot, with ``wood_beside_pot``) by wood, every other tile allowed
    where it is by its neighbours (``allowed_kinds``)."""
    woods = {c for c, k in cells.items() if k == WOOD}
    reached = {BUD} | (woods & BESIDE_POT if wood_beside_pot else set())
    stack = list(reached)
    while stack:
        c = stack.pop()
        for d in DIRECTIONS:
            if c + d in woods and c + d not in reached:
                reached.add(c + d)
                stack.append(c + d)
    for cell, kind in cells.items():
        ok = cell in reached if kind == WOOD else allowed_kinds(cells, cell)[kind]
        require(
            ok, StateError, f"{what}: the {KINDS[kind]} at {qr_of(cell)} breaks the placement rules"
        )


def load_state(game: BonsaiGame, data: Any) -> BonsaiState:
    """Rebuild a state from ``to_dict`` output; StateError says what is wrong with it."""
    data = expect_keys(data, _KEYS, "Bonsai state")
    p = game.num_players
    require(data["game"] == "bonsai", StateError, f"not a Bonsai state: game is {data['game']!r}")
    require(
        data["num_players"] == p,
        StateError,
        f"state is for {data['num_players']!r} players, the game for {p}",
    )
    try:
        phase = Phase(data["phase"])
    except (ValueError, TypeError):
        raise StateError(f"unknown phase {data['phase']!r}") from None
    first = expect_int(data["first_player"], "first_player", 0, p - 1)
    turn = expect_int(data["turn"], "turn", 0, 10_000)
    last = (
        -1 if data["last_turn"] is None else expect_int(data["last_turn"], "last_turn", 0, 10_000)
    )
    deck = _cards(data["deck"], "deck")
    market_names = data["market"]
    require(
        isinstance(market_names, list) and len(market_names) == MARKET_SIZE,
        StateError,
        f"market must be a list of {MARKET_SIZE} card names or null",
    )
    market = tuple(-1 if name is None else _card(name, "market") for name in market_names)
    discards = _cards(data["discards"], "discards")
    players = data["players"]
    require(
        isinstance(players, list) and len(players) == p, StateError, f"players must list {p} seats"
    )
    trees, supplies, cards = [], [], []
    for seat, player in enumerate(players):
        player = expect_keys(player, _PLAYER_KEYS, f"players[{seat}]")
        trees.append(_tree(player["tree"], game, f"players[{seat}].tree"))
        supplies.append(
            _counts(player["supply"], tuple(map(str, KINDS)), f"players[{seat}].supply")
        )
        held = _cards(player["cards"], f"players[{seat}].cards")
        require(
            list(held) == sorted(held),
            StateError,
            f"players[{seat}].cards must be in card-table order",
        )
        cards.append(held)
    require(
        isinstance(data["goals_in_play"], list),
        StateError,
        "goals_in_play must be a list of goal names",
    )
    in_play = 0
    for name in data["goals_in_play"]:
        in_play |= 1 << _goal(name, "goals_in_play")
    owners_data = data["goal_owners"]
    require(isinstance(owners_data, dict), StateError, "goal_owners must map goal names to seats")
    owner = [-1] * len(GOALS)
    for name, seat in owners_data.items():
        g = _goal(name, "goal_owners")
        require(bool(in_play >> g & 1), StateError, f"goal {name} is claimed but not in play")
        owner[g] = expect_int(seat, f"goal_owners[{name}]", 0, p - 1)
    renounced_data = data["renounced"]
    require(
        isinstance(renounced_data, list) and len(renounced_data) == p,
        StateError,
        "renounced: one list per seat",
    )
    renounced = []
    for seat, names in enumerate(renounced_data):
        require(
            isinstance(names, list), StateError, f"renounced[{seat}] must be a list of goal names"
        )
        mask = 0
        for name in names:
            g = _goal(name, f"renounced[{seat}]")
            require(
                bool(in_play >> g & 1), StateError, f"seat {seat} renounced {name}, not in play"
            )
            require(owner[g] != seat, StateError, f"seat {seat} both claimed and renounced {name}")
            mask |= 1 << g
        renounced.append(mask)
    symbols = _counts(data["symbols"], SYMBOL_NAMES, "symbols")
    state = BonsaiState(
        game, phase, first, turn, last, deck, market, discards, tuple(trees),
        tuple(supplies), tuple(cards), in_play, tuple(owner), tuple(renounced), symbols,  # type: ignore[arg-type]
    )  # fmt: skip
    _check_consistent(state)
    return state


def _check_consistent(state: BonsaiState) -> None:
    """The rules' invariants between the fields of a loaded state."""
    game, p, phase = state.game, state.game.num_players, state.phase

    def fail(message: str) -> None:
        raise StateError(message)

    total = [0] * len(CARD_TYPES)
    for c in (
        *state.deck,
        *state.market,
        *state.discards,
        *(c for held in state.cards for c in held),
    ):
        if c >= 0:
            total[c] += 1
    expected = deck_counts(p)
    for c, (have, want) in enumerate(zip(total, expected, strict=True)):
        if have != want:
            fail(f"{want} card(s) {CARD_TYPES[c].name} in a {p}-player game, the state has {have}")
    if p > 1 and state.discards:
        fail("only the solo game discards cards")
    empty = [c < 0 for c in state.market]
    if any(empty) and (state.deck or empty != sorted(empty, reverse=True)):
        fail("market slots may be empty only once the deck is empty, and only on the deck side")
    if phase is Phase.ACTION and all(empty):
        fail("a turn starts with an empty market")
    if state.last_turn >= 0:
        if state.deck:
            fail("last_turn is set but the deck is not empty")
        # set at the end of the turn that emptied the deck: at most p turns remain after it,
        # and under the round rule the last turn closes a round
        extra = game.end_rule == "extra_turn"
        low = state.last_turn - p + 1
        if not low <= state.turn <= state.last_turn or (not extra and state.last_turn % p != p - 1):
            fail(
                f"last_turn {state.last_turn} does not fit turn {state.turn} "
                f"and the {game.end_rule} end rule"
            )
    if phase is Phase.OVER and state.turn != state.last_turn:
        fail("a finished game's turn must be its last turn")
    mover = state.current_player
    for seat in range(p):
        held = sum(state.supplies[seat])
        limit = state.storage_limit(seat)
        if held > limit and not (phase in (Phase.HELPER, Phase.DISCARD) and seat == mover):
            fail(f"seat {seat} holds {held} tiles, over its storage limit {limit}")
        claimed = [GOALS[g].colour for g, s in enumerate(state.goal_owner) if s == seat]
        if len(set(claimed)) != len(claimed):
            fail(f"seat {seat} holds two goals of one colour")
    if (
        phase is Phase.DISCARD
        and mover is not None
        and sum(state.supplies[mover]) <= state.storage_limit(mover)
    ):
        fail("discard step while within the storage limit")
    placing = phase in (Phase.CULTIVATE, Phase.HELPER)
    if not placing and any(state.symbols):
        fail(f"{phase.value}: no placement symbols may be left outside a Cultivate or Helper")
    if placing:
        assert mover is not None
        if phase is Phase.CULTIVATE:
            allowed = state.cultivate_symbols(mover)
            if (
                any(s > a for s, a in zip(state.symbols, allowed, strict=True))
                or state.symbols == allowed
            ):
                fail(f"symbols {state.symbols} do not fit a Cultivate under way with {allowed}")
        elif sum(state.symbols) > 2 or state.symbols[WILD] > 1:
            fail(f"symbols {state.symbols} do not fit a Helper card")
        if not game.placements(state, mover, state.symbols):
            fail("no placement is possible: the placing step should have ended")
    if phase is Phase.GOALS and game.offered_goal(state, mover) < 0:  # type: ignore[arg-type]
        fail("goals step without a goal to offer")
