"""Building Bonsai positions by hand for the tests (through saved states, so every
position is also checked by ``state_from_dict``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import forestgames as fg
from forestgames.bonsai import CARD_TYPES

CARD_ORDER = {card.name: i for i, card in enumerate(CARD_TYPES)}

# The published worked example (docs/bonsai.md): 8 wood with the bud, 13 leaves,
# flowers with 5, 3, 3, 3, 5 free sides, 2 fruits.
EXAMPLE_WOOD = [(0, -1), (0, -2), (0, -3), (0, -4), (-1, -4), (-2, -4), (-3, -4)]
EXAMPLE_LEAVES = [
    (-1, -1), (-1, -2), (-1, -3), (1, -2), (1, -3), (1, -4), (1, -5),
    (0, -5), (1, -1), (-2, -3), (-3, -3), (-1, -5), (-4, -4),
]  # fmt: skip
EXAMPLE_FLOWERS = [(2, -6), (2, -2), (2, -4), (-2, -5), (-4, -2)]
EXAMPLE_FRUITS = [(2, -3), (-2, -2)]


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
    **fields: Any,
) -> Any:
    """A position of a new game with the given cards, trees and supplies (other saved
    fields, e.g. ``turn`` or ``goal_owners``, given as keywords). Cards come out of
    the game's own deck, so card counts stay right; ``deck_size`` leaves only that
    many cards in the deck (the rest go to the players' hands round-robin unless
    the game is solo, where they are discarded)."""
    game = fg.make("bonsai", num_players=players, **(options or {}))
    data = game.new_game(seed=seed, first_player=first_player).to_dict()
    pool = data["market"][::-1] + data["deck"]
    pool = [c for c in pool if c is not None]
    left = Counter(pool)

    def take(name: str) -> str:
        assert left[name] > 0, f"no {name} left to place"
        left[name] -= 1
        return name

    for seat, names in (hands or {}).items():
        data["players"][seat]["cards"] = sorted(
            (take(n) for n in names), key=CARD_ORDER.__getitem__
        )
    if market is not None:
        data["market"] = [None if n is None else take(n) for n in market]
    top = [take(n) for n in deck_top]
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
                hand = data["players"][k % players]["cards"]
                hand.append(name)
                hand.sort(key=CARD_ORDER.__getitem__)
    data["deck"] = deck
    for seat, tiles in (trees or {}).items():
        data["players"][seat]["tree"] = tree_data(tiles)
    for seat, counts in (supplies or {}).items():
        data["players"][seat]["supply"] = counts
    data.update(fields)
    return game.state_from_dict(data)


def play(state: Any, *texts: str) -> Any:
    """``state`` after the moves written as ``texts``."""
    for text in texts:
        state = state.apply(state.game.parse_move(text))
    return state
