"""Rules the mutation audit found unpinned: each test here fails when that one rule is
broken in the engine (see the audit notes), and passes on the rules as written.

Positions are built with ``tests.bonsai.helpers.arrange``, so each is one the rules could
reach.
"""

import pytest

from forestgames.bonsai import Phase, Place
from tests.bonsai.helpers import arrange, example_tiles, play, supply

# The worked example's wood and leaves without its flowers and fruit: room for many
# flowers (beside a leaf) and fruits (beside two touching leaves, apart from each other).
WOOD_AND_LEAVES = {at: kind for at, kind in example_tiles().items() if kind in ("wood", "leaf")}


def _tiles_placed_in_one_cultivate(state, kind):
    """How many ``kind`` tiles seat 0 lays in one Cultivate, placing while it may."""
    placed = 0
    while state.current_player == 0 and state.phase in (Phase.ACTION, Phase.CULTIVATE):
        move = next((m for m in state.legal_moves() if isinstance(m, Place)), None)
        if move is None:
            break
        state = state.apply(move)
        placed += 1
    return placed


@pytest.mark.parametrize("kind, seishi", [("wood", 2), ("flower", 1), ("fruit", 1)])
def test_each_growth_card_adds_one_symbol_of_its_kind(kind, seishi):
    """Growth:<kind> lets one more tile of its kind go down in a Cultivate than the Seishi
    alone allows (wood: its wood and wild symbols; flower, fruit: the wild one only)."""
    for growth in (0, 1):
        state = arrange(
            2,
            hands={0: [f"growth:{kind}"] * growth},
            trees={0: WOOD_AND_LEAVES},
            supplies={0: supply(**{kind: 4})},
        )
        assert _tiles_placed_in_one_cultivate(state, kind) == seishi + growth


# ---------------------------------------------------------------------- solo market

SOLO_MARKET = ["tool", "growth:leaf", "parchment:wood", "master:leaf+leaf"]
SOLO_DECK_TOP = ["growth:flower", "growth:wood", "tool"]


@pytest.mark.parametrize(
    "move, neighbour, market",
    [
        ("0:meditate 2 wood", "tool", ("parchment:wood", "master:leaf+leaf")),
        ("0:meditate 3", "growth:leaf", ("tool", "master:leaf+leaf")),
        ("0:meditate 4", "parchment:wood", ("tool", "growth:leaf")),
    ],
)
def test_solo_meditate_from_slots_two_to_four_discards_the_deck_side_neighbour(
    move, neighbour, market
):
    """Solo: taking the card of slot 2, 3 or 4 discards the card of the slot before it (its
    deck side); the two cards left slide to slots 3-4 and slots 1-2 refill from the deck."""
    state = arrange(1, market=SOLO_MARKET, deck_top=SOLO_DECK_TOP)
    after = play(state, move)
    assert after.to_dict()["discards"] == [*state.to_dict()["discards"], neighbour]
    assert after.market_cards == ("growth:wood", "growth:flower", *market)
    assert after.deck_size == state.deck_size - 2
