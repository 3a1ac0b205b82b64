"""Rules the mutation audit found unpinned: each test here fails when that one rule is
broken in the engine (CONTRIBUTING.md, "Checking that a rule is pinned"), and passes on
the rules as written.

Positions are built with ``tests.bonsai.helpers.arrange``, so each is one the rules could
reach.
"""

import pytest

import forestgames as fg
from forestgames.bonsai import (
    CARD_TYPES,
    Finish,
    Meditate,
    Phase,
    Place,
    Tree,
    can_place,
    goal_measures,
)
from forestgames.bonsai._tables import KIND_INDEX, cell_of
from tests.bonsai.helpers import arrange, example_tiles, play, supply
from tests.bonsai.test_rules import TRUNK, _solo_seed_with, trunk

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


# ---------------------------------------------------------------------- Cultivate


def test_a_cultivate_may_start_with_a_flower():
    """The first tile of a Cultivate may be any kind held (the wild symbol): a seat holding
    only a flower lays it beside its leaf, and that ends its turn."""
    state = arrange(
        2, trees={0: {(0, -1): "wood", (-1, -1): "leaf"}}, supplies={0: supply(flower=1)}
    )
    assert Place(0, "flower", (-2, -1)) in state.legal_moves()
    after = play(state, "0:place flower@-2,-1")
    assert after.current_player == 1 and after.tree(0).tiles[(-2, -1)] == "flower"


def test_finish_stays_legal_in_a_saved_and_loaded_cultivate():
    """Every placement after the first is optional, in a Cultivate loaded from its saved
    state too: Finish is legal while another wood could still go down."""
    one = play(arrange(2, supplies={0: supply(wood=2)}), "0:place wood@0,-1")
    loaded = one.game.state_from_dict(one.to_dict())
    assert loaded.phase is Phase.CULTIVATE
    assert Finish(0) in loaded.legal_moves() and Place(0, "wood", (0, -2)) in loaded.legal_moves()
    assert loaded.legal_moves() == one.legal_moves()


# ---------------------------------------------------------------------- Parchments


@pytest.mark.parametrize(
    "parchment, copies, expected",
    [
        ("parchment:growth", ["growth:leaf", "growth:leaf"], 4),
        ("parchment:helper", ["helper:wild+wood", "helper:wild+wood"], 4),
    ],
)
def test_parchment_counts_every_copy_of_its_card_type(parchment, copies, expected):
    """2 points per Growth (Helper) card held: two copies of one card are two cards."""
    state = arrange(2, hands={0: [parchment, *copies]}, fill=False)
    assert state.score_parts(0)["parchments"] == expected


# ---------------------------------------------------------------------- the tree's facts

# Two leaf groups (3 beside the trunk on the left, 2 on the right) and three flowers, two
# protruding left (x = q + r/2 <= -2) and one right (x >= 3).
GROUPS_AND_FLOWERS = {
    (0, -1): "wood", (0, -2): "wood", (0, -3): "wood",
    (-1, -1): "leaf", (-1, -2): "leaf", (-1, -3): "leaf", (1, -2): "leaf", (1, -3): "leaf",
    (-3, -1): "flower", (-4, 0): "flower", (5, -3): "flower",
}  # fmt: skip


def _grown(tiles):
    """The tree of ``tiles`` grown one tile at a time, in the order given."""
    tree = Tree.seedling()
    for (q, r), kind in tiles.items():
        tree = tree.with_tile(cell_of(q, r), KIND_INDEX[kind])
    return tree


def test_the_trees_green_and_pink_measures_are_the_largest_group_and_one_side():
    """The engine's trees (built at once or tile by tile) measure green 3 (the largest leaf
    group, not the 5 leaves) and pink 2 (flowers on one side, not the 3 of both)."""
    expected = (4, 3, 0, 2, 2)  # brown 4 with the bud; blue 2: tiles left and right
    assert goal_measures(GROUPS_AND_FLOWERS) == expected
    assert Tree.from_tiles(GROUPS_AND_FLOWERS).goal_measures() == expected
    assert _grown(GROUPS_AND_FLOWERS).goal_measures() == expected


def test_a_new_touching_leaf_pair_opens_both_cells_beside_it_to_fruit():
    """A ring of wood round (-1, -2) and a leaf on (0, -3): a leaf laid on (0, -2) makes a
    touching pair whose two common neighbours, (-1, -2) and (1, -3), may now take a fruit."""
    wood = {(0, -1): "wood", (-1, -1): "wood", (-2, -1): "wood", (-2, -2): "wood"}
    tiles = {**wood, (-1, -3): "wood", (0, -3): "leaf"}
    state = arrange(2, trees={0: tiles}, supplies={0: supply(leaf=1, fruit=1)})
    assert not [m for m in state.legal_moves() if isinstance(m, Place) and m.kind == "fruit"]
    after = play(state, "0:place leaf@0,-2")
    fruit = {m.at for m in after.legal_moves() if isinstance(m, Place) and m.kind == "fruit"}
    assert fruit == {(-1, -2), (1, -3)}


# ---------------------------------------------------------------------- storage, the end


def test_helper_placements_end_with_the_storage_limit():
    """5 wood + slot 3's wood and flower = 7 tiles; the Helper lays one wood: 6 tiles are
    over the limit 5, so the turn goes on with a discard once the Helper step is finished."""
    state = arrange(
        2, market=["tool", "tool", "helper:wild+wood", "tool"], supplies={0: supply(wood=5)}
    )
    helper = play(state, "0:meditate 3", "0:place wood@0,-1")
    assert helper.phase is Phase.HELPER
    after = play(helper, "0:finish")
    assert after.phase is Phase.DISCARD and after.current_player == 0
    assert sum(after.supplies[0]) == 6


def test_the_end_is_set_when_the_deck_runs_out_not_one_card_before():
    """Deck of 2: the first card drawn leaves 1, and the end is not set; the second empties
    the deck at the round's last turn, and the game ends with it."""
    market = ["parchment:wood", "parchment:leaf", "parchment:flower", "parchment:fruit"]
    state = arrange(2, market=market, deck_size=2)
    after = play(state, "0:meditate 1")
    assert after.deck_size == 1 and after.to_dict()["last_turn"] is None
    assert not after.is_terminal and after.current_player == 1
    assert play(after, "1:meditate 4").is_terminal


# ---------------------------------------------------------------------- setup


def test_first_player_drawn_from_the_seed_and_reproducible():
    """Without first_player the first seat comes from the seed: every seat of 4 for some
    seed, and the same seed always gives the same seat (and the same game)."""
    game = fg.make("bonsai", num_players=4)
    seats = {game.new_game(seed=s).current_player for s in range(40)}
    assert seats == {0, 1, 2, 3}
    assert all(game.new_game(seed=s) == game.new_game(seed=s) for s in range(10))


# ---------------------------------------------------------------------- solo target


def test_solo_is_won_with_exactly_the_target():
    """The worked example's tree without its 2 fruits scores 60; with brown 1, green 1 and
    orange 1 (5 + 6 + 9) that is exactly 80, difficulty 1's target: a win."""
    tiles = {at: kind for at, kind in example_tiles().items() if kind != "fruit"}
    state = arrange(
        1,
        seed=_solo_seed_with(("brown", "green", "orange")),
        deck_size=0,
        trees={0: tiles},
        goal_owners={"brown 1": 0, "green 1": 0, "orange 1": 0},
        phase="over",
        turn=20,
        last_turn=20,
    )
    assert state.is_terminal and state.scores == (80,)
    assert state.solo_won and state.winners == (0,)


# ---------------------------------------------------------------------- measures, fruit

# Six leaves ringing the empty cell (0, -3), each touching wood: a trunk of 9 wood from
# the bud (0, -1), (-1, -1), (1, -2), (2, -3), (2, -4), (-2, -1), (-2, -2), (-2, -3),
# (-1, -4), each beside the bud or an earlier wood.
RING = [(0, -2), (1, -3), (1, -4), (0, -4), (-1, -3), (-1, -2)]
RING_WOOD = [(0, -1), (-1, -1), (1, -2), (2, -3), (2, -4), (-2, -1), (-2, -2), (-2, -3), (-1, -4)]
RINGED = {**dict.fromkeys(RING_WOOD, "wood"), **dict.fromkeys(RING, "leaf")}


def test_a_cell_ringed_by_six_leaves_takes_a_fruit():
    """An empty cell with a leaf on all six sides (every pair of neighbours touching) may
    take a fruit, whether asked of can_place or of the engine's tree."""
    assert can_place(RINGED, (0, -3), "fruit")
    assert cell_of(0, -3) in Tree.from_tiles(RINGED).open_cells(KIND_INDEX["fruit"])


def test_a_tree_without_leaves_measures_green_zero():
    """Green, the largest group of touching leaves, is 0 for a tree with no leaf (bud and
    one wood: brown 2, nothing else), whichever way the tree is built."""
    tiles = {(0, -1): "wood"}
    assert goal_measures(tiles) == (2, 0, 0, 0, 0)
    assert Tree.from_tiles(tiles).goal_measures() == (2, 0, 0, 0, 0)
    # the ring's six leaves are one group: green 6; 10 wood with the bud; the wood on the
    # left protrudes (x = q + r/2 <= -2) but nothing on the right: blue 0
    assert goal_measures(RINGED) == (10, 6, 0, 0, 0)


def test_pruning_keeps_a_fruit_held_by_its_lower_two_leaves():
    """A fruit on (0, -3) between three leaves, W (-1, -3), SW (-1, -2) and SE (0, -2):
    pruning W leaves the SW-SE pair, which touch each other, so the fruit stays (2 leaves
    6 + fruit 7 = 13 points)."""
    wood = {(0, -1): "wood", (-1, -1): "wood", (-2, -1): "wood", (-2, -2): "wood"}
    leaves = {(0, -2): "leaf", (-1, -2): "leaf", (-1, -3): "leaf"}
    tree = Tree.from_tiles({**wood, **leaves, (0, -3): "fruit"})
    pruned = tree.without_leaf(cell_of(-1, -3))
    assert pruned.tiles[(0, -3)] == "fruit"
    assert (-1, -3) not in pruned.tiles and pruned.points() == 13


# the bud and 6 wood round the pot's left side down to (-3, 2), below the pot and left of
# it (2q + r <= -4, r >= 2), and 3 wood to the right up to (3, -1) (2q + r = 5: not yet
# protruding): blue measure 0, as nothing protrudes right; 10 wood (brown 1 and 2 met,
# renounced when the position is built)
BLUE_JUMP = dict.fromkeys(
    [(0, -1), (-1, -1), (-2, -1), (-3, 0), (-3, 1), (-3, 2), (1, -1), (2, -1), (3, -1)], "wood"
)


def test_a_seat_holding_a_colours_large_goal_is_offered_no_other_of_it():
    """A leaf on (4, -1) (2q + r = 7: right) takes blue from 0 to 3 at once: blue 3 is
    offered first, and once it is claimed neither blue 2 nor blue 1 is offered (one goal a
    colour): the turn passes."""
    state = arrange(2, trees={0: BLUE_JUMP}, supplies={0: supply(leaf=1)})
    assert goal_measures(BLUE_JUMP)[4] == 0
    offered = play(state, "0:place leaf@4,-1")
    assert offered.offered_goal == "blue 3"
    after = play(offered, "0:claim blue 3")
    assert after.current_player == 1 and after.phase is Phase.ACTION
    assert after.score_parts(0)["goals"] == 14


# ------------------------------------------- found by the audit of rules.py's integer constants

# Slot 1 empty and the deck out, as in a game's last round (last_turn=1: seat 1 plays
# once more after seat 0) or in a solo game's extra turn.
GAPPED_MARKET = [None, "tool", "growth:leaf", "parchment:wood"]


def test_placing_a_fruit_spends_only_the_fruit_symbol():
    """Symbols of Seishi (wood, leaf, wild) and Growth wood, leaf, leaf, fruit, fruit: 2 wood,
    3 leaf, 0 flower, 2 fruit, 1 wild. A fruit on (-2, -1), between the leaves (-1, -1) and
    (-1, -2), spends one fruit symbol and nothing else: (2, 3, 0, 1, 1), both wood still to
    place (the wood, leaf and wild counts all differ, so taking one for another shows)."""
    cards = ["growth:wood", "growth:leaf", "growth:leaf", "growth:fruit", "growth:fruit"]
    leaves = {**TRUNK, (-1, -1): "leaf", (-1, -2): "leaf"}
    state = arrange(2, hands={0: cards}, trees={0: leaves}, supplies={0: supply(wood=2, fruit=1)})
    after = play(state, "0:place fruit@-2,-1")
    assert after.symbols == (2, 3, 0, 1, 1)
    assert play(after, "0:place wood@0,-3", "0:place wood@1,-3").supply(0) == supply()


def test_meditating_on_an_empty_slot_says_it_holds_no_card():
    """An empty market slot offers no Meditate, and one asked for is refused for that, as
    are slots 0 and 5, which no market has."""
    state = arrange(2, market=GAPPED_MARKET, deck_size=0, last_turn=1)
    assert not any(m.slot == 1 for m in state.legal_moves() if isinstance(m, Meditate))
    for slot in (1, 0, 5):
        with pytest.raises(fg.IllegalMoveError, match=f"market slot {slot} holds no card"):
            state.apply(Meditate(0, slot))


def test_a_solo_meditate_beside_an_empty_slot_discards_nothing():
    """Solo, its extra turn, the deck out and slot 1 empty: taking slot 2's Tool (with a
    wood) would discard the card beside it on the deck side, slot 1's, but there is none:
    nothing is discarded, and the Growth and Parchment stay in slots 3 and 4."""
    state = arrange(
        1, options={"end_rule": "extra_turn"}, market=GAPPED_MARKET, deck_size=0, last_turn=0
    )
    after = play(state, "0:meditate 2 wood")
    assert after.discards == state.discards
    assert after.market_cards == (None, None, "growth:leaf", "parchment:wood")


def test_a_wild_kind_is_asked_for_by_the_card_in_the_slot_taken():
    """Only slot 3 holds a Master with a wild tile (Tools beside it): taking it without
    naming a kind, or naming one for slot 4's Tool, is refused for that rule, each judged
    on its own slot's card, not a neighbour's."""
    state = arrange(2, market=["tool", "tool", "master:wild", "tool"])
    rule = "a wild kind is named for \\(and only for\\) a Master card with a wild tile"
    for move in (Meditate(0, 3), Meditate(0, 4, wild="leaf")):
        with pytest.raises(fg.IllegalMoveError, match=rule):
            state.apply(move)


# four leaves in a column beside a trunk; a fifth leaf on (-1, -5) makes a group of 5:
# green 1. Brown 3 held needs 12 wood (the bud and 11), orange 1 three flowers.
HOLDING = {
    "brown 3": trunk(11),
    "orange 1": {**trunk(5), **{(-2, -r): "flower" for r in range(1, 4)}},
}


@pytest.mark.parametrize("held", ["brown 3", "orange 1"])
def test_a_goal_of_another_colour_held_leaves_green_offered(held):
    """One goal per colour, not one in all: seat 0 holds brown 3 (the colour before green)
    or orange 1 (the one after), and its fifth leaf in a group still offers green 1."""
    leaves = {(-1, -r): "leaf" for r in range(1, 5)}
    state = arrange(
        2,
        trees={0: {**HOLDING[held], **leaves}},
        supplies={0: supply(leaf=1)},
        goal_owners={held: 0},
    )
    after = play(state, "0:place leaf@-1,-5")
    assert after.phase is Phase.GOALS and after.offered_goal == "green 1"


def test_a_green_goal_held_leaves_brown_offered():
    """Seat 0 holds green 1 (the colour after brown); its 8th wood still offers brown 1."""
    state = arrange(
        2, trees={0: trunk(6)}, supplies={0: supply(wood=1)}, goal_owners={"green 1": 0}
    )
    assert play(state, "0:place wood@0,-7").offered_goal == "brown 1"


def test_a_solo_cultivate_discards_slot_four_with_slot_one_empty():
    """Solo, its extra turn, the deck out and slot 1 empty: after a Cultivate the card in
    slot 4, the Parchment, is discarded all the same, and the Tool and Growth slide on."""
    state = arrange(
        1,
        options={"end_rule": "extra_turn"},
        market=GAPPED_MARKET,
        deck_size=0,
        last_turn=0,
        supplies={0: supply(wood=1)},
    )
    after = play(state, "0:place wood@0,-1")
    assert after.to_dict()["discards"] == [*state.to_dict()["discards"], "parchment:wood"]
    assert after.market_cards == (None, None, "tool", "growth:leaf")


# ------------------------------------------- found by the audit of _tables.py's integer constants


@pytest.mark.parametrize(
    "name, kind, tiles, wild, parchment, per, copies",
    [
        # data/bonsai_cards.csv: "tool,storage +2,3,2,1": no tile, no wild, no points
        ("tool", "TOOL", (0, 0, 0, 0), 0, "", 0, (3, 2, 1)),
        # "master,wild,2,1,0": one wild tile
        ("master:wild", "MASTER", (0, 0, 0, 0), 1, "", 0, (2, 1, 0)),
        # "master,leaf+flower+flower,0,0,1": 1 leaf, 2 flowers, in the 4-player deck only
        ("master:leaf+flower+flower", "MASTER", (0, 1, 2, 0), 0, "", 0, (0, 0, 1)),
        # "helper,wild+fruit,1,0,0": shows a fruit, with one wild
        ("helper:wild+fruit", "HELPER", (0, 0, 0, 1), 1, "", 0, (1, 0, 0)),
        # "parchment,2 per flower tile,1,0,0"
        ("parchment:flower", "PARCHMENT", (0, 0, 0, 0), 0, "flower", 2, (1, 0, 0)),
    ],
)
def test_card_types_hold_the_component_data(name, kind, tiles, wild, parchment, per, copies):
    """CARD_TYPES reads each row of the card data as written: the tiles by kind (wood,
    leaf, flower, fruit) and wild ones of a Master or Helper, a Parchment's points per item,
    the copies; a Tool, a Master or a Helper has no Parchment points, a Tool no tile."""
    (card,) = [c for c in CARD_TYPES if c.name == name]
    assert card.kind.name == kind
    assert card[2:] == (tiles, wild, parchment, per, copies)


@pytest.mark.parametrize(
    "card, most", [("tool", 3), ("growth:leaf", 3), ("master:wild", 4), ("master:wood+leaf", 5)]
)
def test_a_saved_seat_holds_no_more_tiles_than_its_start_and_card_gave(card, most):
    """First seat of 2 (start: 1 wood) with one card taken: that card's slot gave at most 2
    tiles (slot 3 or 4), a Master its own too (the wild Master 1, wood+leaf 2), a Tool or a
    Growth nothing more: ``most`` wood in its supply load, one more is refused."""
    state = arrange(2, hands={0: [card]}, supplies={0: supply(wood=most)}, fill=False)
    assert state.supply(0)["wood"] == most
    data = state.to_dict()
    data["players"][0]["supply"]["wood"] = most + 1
    message = rf"seat 0 has {most + 1} tiles \(tree and supply\); .* gave at most {most}$"
    with pytest.raises(fg.StateError, match=message):
        state.game.state_from_dict(data)


@pytest.mark.parametrize("at", [(510, 0), (-510, 0), (0, 510), (0, -510)])
def test_a_cell_at_the_coordinate_limit_is_judged_by_the_placement_rules(at):
    """Cells are within 510 of the pot on each axis (511 is refused as too far): 510 on q
    or r, either sign, is still a cell, where wood may not go on an empty tree (it touches
    no wood), and no error is raised."""
    assert can_place({}, at, "wood") is False
