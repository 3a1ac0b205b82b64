"""Building Bonsai positions by hand for the tests (through saved states, so every
position is also checked by ``state_from_dict``: it is one the rules could reach)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import forestgames as fg
from forestgames.bonsai import CARD_TYPES, GOALS, Tree
from forestgames.bonsai._tables import MASTER_TILES, MAX_SLOT_TILES, CardKind

CARD_ORDER = {card.name: i for i, card in enumerate(CARD_TYPES)}
GOAL_IDS = {goal.name: g for g, goal in enumerate(GOALS)}

# The published worked example (docs/bonsai.md): 8 wood with the bud, 13 leaves,
# flowers with 5, 3, 3, 3, 5 free sides, 2 fruits.
EXAMPLE_WOOD = [(0, -1), (0, -2), (0, -3), (0, -4), (-1, -4), (-2, -4), (-3, -4)]
EXAMPLE_LEAVES = [
    (-1, -1), (-1, -2), (-1, -3), (1, -2), (1, -3), (1, -4), (1, -5),
    (0, -5), (1, -1), (-2, -3), (-3, -3), (-1, -5), (-4, -4),
]  # fmt: skip
EXAMPLE_FLOWERS = [(2, -6), (2, -2), (2, -4), (-2, -5), (-4, -2)]
EXAMPLE_FRUITS = [(2, -3), (-2, -2)]

# Cards with no lasting effect on the turn (no storage, no symbol): what a seat is given
# to account for the tiles of a hand-built tree, the richest first.
FILLERS = sorted(
    (card.name for card in CARD_TYPES if card.kind in (CardKind.MASTER, CardKind.HELPER)),
    key=lambda name: -MASTER_TILES[CARD_ORDER[name]],
)


def example_tiles() -> dict[tuple[int, int], str]:
    """The worked example's tree, in a legal placement order (wood, leaves, flowers, fruit)."""
    tiles: dict[tuple[int, int], str] = {}
    for cells, kind in (
        (EXAMPLE_WOOD, "wood"),
        (EXAMPLE_LEAVES, "leaf"),
        (EXAMPLE_FLOWERS, "flower"),
        (EXAMPLE_FRUITS, "fruit"),
    ):
        for at in cells:
            tiles[at] = kind
    return tiles


def tree_data(tiles: dict[tuple[int, int], str]) -> list[list[Any]]:
    return [[q, r, kind] for (q, r), kind in sorted(tiles.items()) if (q, r) != (0, 0)]


def supply(wood: int = 0, leaf: int = 0, flower: int = 0, fruit: int = 0) -> dict[str, int]:
    return {"wood": wood, "leaf": leaf, "flower": flower, "fruit": fruit}


def arrange(
    players: int = 2,
    *,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    first_player: int = 0,
    market: list[str | None] | None = None,
    deck_top: list[str] = (),  # type: ignore[assignment]
    deck_size: int | None = None,
    hands: dict[int, list[str]] | None = None,
    trees: dict[int, dict[tuple[int, int], str]] | None = None,
    supplies: dict[int, dict[str, int]] | None = None,
    fill: bool = True,
    **fields: Any,
) -> Any:
    """A position of a new game with the given cards, trees and supplies (other saved
    fields, e.g. ``turn`` or ``goal_owners``, given as keywords).

    Cards come out of the game's own deck, so card counts stay right. ``deck_size``
    leaves only that many cards in the deck (the rest go to the players' hands
    round-robin unless the game is solo, where they are discarded). So that the
    rules could reach the position:

    * with ``fill``, a seat whose tree and supply hold more tiles than its start and
      its cards could give is also given Master and Helper cards (no lasting effect
      on a turn) until they could;
    * the position comes after enough whole rounds for every seat to have taken its
      cards, one a turn: ``turn`` and ``last_turn`` count from there (the state's
      own ``turn`` is the real one);
    * each goal a seat meets, not in the middle of its own action, and neither holds
      nor has renounced, is taken to have been renounced.
    """
    game = fg.make("bonsai", num_players=players, **(options or {}))
    data = game.new_game(seed=seed, first_player=first_player).to_dict()
    pool = [c for c in data["market"][::-1] + data["deck"] if c is not None]
    left = Counter(pool)

    def take(name: str) -> str:
        assert left[name] > 0, f"no {name} left to place"
        left[name] -= 1
        return name

    for seat, names in (hands or {}).items():
        data["players"][seat]["cards"] = [take(n) for n in names]
    if market is not None:
        data["market"] = [None if n is None else take(n) for n in market]
    top = [take(n) for n in deck_top]
    for seat, tiles in (trees or {}).items():
        data["players"][seat]["tree"] = tree_data(tiles)
    for seat, counts in (supplies or {}).items():
        data["players"][seat]["supply"] = counts
    turn, last_turn = fields.pop("turn", 0), fields.pop("last_turn", None)
    data.update(fields)
    if fill:
        _fill_hands(game, data, take, left)
    rest = []
    for name in pool:
        if left[name] > 0:
            left[name] -= 1
            rest.append(name)
    if market is None:
        data["market"], rest = rest[:4][::-1], rest[4:]
    deck = top + rest
    if deck_size is not None:
        deck, spill = deck[:deck_size], deck[deck_size:]
        if players == 1:
            data["discards"] += spill
        else:
            for k, name in enumerate(spill):
                data["players"][k % players]["cards"].append(name)
    data["deck"] = deck
    for player in data["players"]:
        player["cards"].sort(key=CARD_ORDER.__getitem__)
    base = players * _rounds_needed(game, data)
    data["turn"] = base + turn
    data["last_turn"] = None if last_turn is None else base + last_turn
    _settle_goals(game, data)
    return game.state_from_dict(data)


def _tiles(player: dict[str, Any]) -> int:
    return len(player["tree"]) + sum(player["supply"].values())


def _most_tiles(game: Any, seat: int, first: int, cards: list[str]) -> int:
    start = sum(game._starting_tiles(seat, first))
    return start + sum(MAX_SLOT_TILES + MASTER_TILES[CARD_ORDER[n]] for n in cards)


def _fill_hands(game: Any, data: dict[str, Any], take: Any, left: Counter[str]) -> None:
    """Give each seat the filler cards its tiles need (see :func:`arrange`)."""
    for seat, player in enumerate(data["players"]):
        while _tiles(player) > _most_tiles(game, seat, data["first_player"], player["cards"]):
            name = next((n for n in FILLERS if left[n] > 0), None)
            assert name is not None, f"no filler card left for seat {seat}'s tiles"
            player["cards"].append(take(name))


def _rounds_needed(game: Any, data: dict[str, Any]) -> int:
    """Whole rounds enough for each seat's cards (one a turn; solo: its discards too), and
    one for a seat that has anything but its start."""
    fresh = game.new_game(seed=0, first_player=data["first_player"]).to_dict()
    needed = 0
    for seat, player in enumerate(data["players"]):
        start = fresh["players"][seat]
        touched = (
            player != start or seat in data["goal_owners"].values() or bool(data["renounced"][seat])
        )
        needed = max(needed, len(player["cards"]), 1 if touched else 0)
    if game.num_players == 1:  # solo discards at most one card a turn
        needed = max(needed, len(data["discards"]))
    return needed


def _settle_goals(game: Any, data: dict[str, Any]) -> None:
    """Renounce, for each seat not in the middle of its action, the goals it meets."""
    p = game.num_players
    mover = (data["first_player"] + data["turn"]) % p
    in_play = sum(1 << GOAL_IDS[name] for name in data["goals_in_play"])
    for seat, player in enumerate(data["players"]):
        if seat == mover and data["phase"] in ("cultivate", "helper", "discard", "goals"):
            continue
        tree = Tree.from_tiles({(q, r): kind for q, r, kind in player["tree"]})
        for _ in range(len(GOALS) + 1):  # bounded: an engine that offers a goal again fails
            owner = [-1] * len(GOALS)
            for name, holder in data["goal_owners"].items():
                owner[GOAL_IDS[name]] = holder
            renounced = sum(1 << GOAL_IDS[name] for name in data["renounced"][seat])
            g = game._goal_to_offer(tree, tuple(owner), renounced, in_play, seat)
            if g < 0:
                break
            data["renounced"][seat] = [*data["renounced"][seat], GOALS[g].name]
        else:
            raise AssertionError(f"seat {seat} was offered a goal it has renounced")


def play(state: Any, *texts: str) -> Any:
    """``state`` after the moves written as ``texts``."""
    for text in texts:
        state = state.apply(state.game.parse_move(text))
    return state
