"""The rules in play: a turn (setup, the market, Meditate with every card type, the storage
limit, Cultivate), the placement rules, pruning, goals, the end, the solo game, pictures.

Positions are built with ``tests.bonsai.helpers.arrange`` (so each is one the rules could
reach); the hex geometry: neighbours of (q, r) are (q±1, r), (q, r−1), (q+1, r−1),
(q−1, r+1), (q, r+1). The bud (0, 0) sits in the pot's top row, so only (0, −1) and
(1, −1) touch it from outside the pot.
"""

import xml.etree.ElementTree as ET

import attrs
import pytest

import forestgames as fg
from forestgames.bonsai import (
    GOALS,
    POT_QR,
    SOLO_TARGETS,
    ClaimGoal,
    Finish,
    Meditate,
    Phase,
    Place,
    Prune,
    RenounceGoal,
    Tile,
    can_place,
    render_tree,
    tree_svg,
)
from forestgames.bonsai._tables import BESIDE_POT, DIRECTIONS, POT_CELLS, cell_of, protrudes, qr_of
from forestgames.bonsai.tree import Tree
from tests.bonsai.helpers import arrange, example_tiles, play, supply
from tests.refusals import refused

# ==================== a turn: setup, market, Meditate, storage limit, Cultivate

MARKET = ["tool", "growth:leaf", "parchment:wood", "master:leaf+leaf"]
TRUNK = {(0, -1): "wood", (0, -2): "wood"}


# ---------------------------------------------------------------------- setup


@pytest.mark.parametrize("players, cards", [(1, 32), (2, 32), (3, 43), (4, 47)])
def test_deck_size_by_player_count(players, cards):
    """32 cards with 1-2 players, 43 with 3, 47 with 4: 4 in the market, the rest in the deck."""
    state = fg.make("bonsai", num_players=players).new_game(seed=1)
    assert state.deck_size + 4 == cards
    assert None not in state.market_cards


def test_cards_are_package_data_with_the_csv_counts():
    """The card list ships inside the package and keeps the data file's copies."""
    from importlib import resources

    from forestgames.bonsai import CARD_TYPES, deck_counts

    assert resources.files("forestgames.bonsai").joinpath("data/bonsai_cards.csv").is_file()
    assert len(CARD_TYPES) == 25
    counts = dict(zip((c.name for c in CARD_TYPES), deck_counts(4), strict=True))
    assert (
        counts["tool"] == 6
        and counts["helper:wild+wood"] == 3
        and counts["master:leaf+flower+flower"] == 1
    )
    two = dict(zip((c.name for c in CARD_TYPES), deck_counts(2), strict=True))
    assert two["master:leaf+flower+flower"] == 0 and two["tool"] == 3


def test_starting_tiles_by_seat_from_the_first_player():
    """1st wood; 2nd wood+leaf; 3rd +flower; 4th +fruit, counted from the first player."""
    state = fg.make("bonsai", num_players=4).new_game(seed=2, first_player=2)
    assert state.supply(2) == supply(wood=1)
    assert state.supply(3) == supply(wood=1, leaf=1)
    assert state.supply(0) == supply(wood=1, leaf=1, flower=1)
    assert state.supply(1) == supply(wood=1, leaf=1, flower=1, fruit=1)
    solo = fg.make("bonsai", num_players=1).new_game(seed=2)
    assert solo.supply(0) == supply(wood=1, leaf=1)


def test_same_seed_same_game_and_different_seeds_differ():
    """The deal comes from the seed only."""
    game = fg.make("bonsai", num_players=3)
    assert game.new_game(seed=5) == game.new_game(seed=5)
    assert game.new_game(seed=5).deck != game.new_game(seed=6).deck


# ---------------------------------------------------------------------- market


def test_slot_tiles():
    """Slot 1 gives no tile, slot 2 a wood or leaf (choice), slot 3 wood+flower, 4 leaf+fruit."""
    state = arrange(2, market=MARKET, supplies={0: supply()})
    assert play(state, "0:meditate 1").supply(0) == supply()
    assert play(state, "0:meditate 2 wood").supply(0) == supply(wood=1)
    assert play(state, "0:meditate 2 leaf").supply(0) == supply(leaf=1)
    assert play(state, "0:meditate 3").supply(0) == supply(wood=1, flower=1)
    # slot 4's leaf and fruit, and the Master's 2 leaves
    assert play(state, "0:meditate 4").supply(0) == supply(leaf=3, fruit=1)


def test_slot_two_needs_its_choice_and_others_refuse_one():
    """The wood-or-leaf choice is named for slot 2 and only slot 2."""
    state = arrange(2, market=MARKET)
    moves = state.legal_moves()
    assert Meditate(0, 2, "wood") in moves and Meditate(0, 2, "leaf") in moves
    for bad in (
        Meditate(0, 2),
        Meditate(0, 2, "flower"),
        Meditate(0, 3, "wood"),
        Meditate(0, 1, "leaf"),
    ):
        assert bad not in moves
        with pytest.raises(fg.IllegalMoveError, match="slot 2"):
            state.apply(bad)


def test_market_slides_toward_slot_four_and_refills_slot_one():
    """Taking slot 3: slots 1-2 slide one step toward slot 4, the deck's top fills slot 1."""
    state = arrange(2, market=MARKET, deck_top=["growth:flower"])
    after = play(state, "0:meditate 3")
    assert after.market_cards == ("growth:flower", "tool", "growth:leaf", "master:leaf+leaf")
    assert after.deck_size == state.deck_size - 1
    assert after.cards_of(0) == ("parchment:wood",)


def test_market_shrinks_once_the_deck_is_empty():
    """With no deck left, the cards slide toward slot 4 and slot 1 stays empty (the turn
    that emptied the deck set the round's last turn)."""
    state = arrange(3, market=MARKET, deck_size=0, last_turn=2)
    after = play(state, "0:meditate 2 leaf")
    assert after.market_cards == (None, "tool", "parchment:wood", "master:leaf+leaf")
    again = play(after, "1:meditate 4")
    assert again.market_cards == (None, None, "tool", "parchment:wood")
    assert {m.slot for m in again.legal_moves(2) if isinstance(m, Meditate)} == {3, 4}


# ---------------------------------------------------------------------- card effects


def test_tool_raises_the_storage_limit_by_two_each():
    """5 tiles without Tools, 7 with one, 9 with two."""
    assert arrange(2).storage_limit(0) == 5
    assert arrange(2, hands={0: ["tool"]}).storage_limit(0) == 7
    assert arrange(2, hands={0: ["tool", "tool"]}).storage_limit(0) == 9


def test_growth_card_adds_a_symbol_to_cultivate():
    """With Growth:leaf, three leaves go down in one Cultivate (leaf, Growth leaf, wild); a
    fourth does not. Without it, only two (leaf and wild)."""
    with_growth = arrange(
        2, hands={0: ["growth:leaf"]}, trees={0: TRUNK}, supplies={0: supply(leaf=4)}
    )
    after = play(with_growth, "0:place leaf@-1,-1", "0:place leaf@-1,-2", "0:place leaf@1,-2")
    # nothing left to place: the turn is over
    assert after.phase is Phase.ACTION and after.current_player == 1
    assert after.supply(0) == supply(leaf=1)
    plain = arrange(2, trees={0: TRUNK}, supplies={0: supply(leaf=4)})
    after = play(plain, "0:place leaf@-1,-1", "0:place leaf@-1,-2")
    assert after.current_player == 1 and after.supply(0) == supply(leaf=2)


def test_master_gives_its_tiles_and_a_wild_tile_of_the_players_choice():
    """Master wood+leaf gives a wood and a leaf; Master wild gives one tile of the named kind."""
    state = arrange(
        2, market=["master:wood+leaf", "master:wild", "tool", "tool"], supplies={0: supply()}
    )
    assert play(state, "0:meditate 1").supply(0) == supply(wood=1, leaf=1)
    assert play(state, "0:meditate 2 wood wild=fruit").supply(0) == supply(wood=1, fruit=1)
    assert {m.wild for m in state.legal_moves() if m.slot == 2} == {
        "wood",
        "leaf",
        "flower",
        "fruit",
    }
    with pytest.raises(fg.IllegalMoveError, match="wild"):
        state.apply(Meditate(0, 1, wild="leaf"))


def test_helper_places_one_of_its_type_and_one_wild_during_meditate():
    """Helper wild+wood: two wood go down at once (one wood symbol, one wild), by the
    placement rules; a third does not; the turn goes on after them."""
    state = arrange(
        2, market=["helper:wild+wood", "tool", "tool", "tool"], supplies={0: supply(wood=3)}
    )
    helper = play(state, "0:meditate 1")
    assert helper.phase is Phase.HELPER and helper.current_player == 0
    with pytest.raises(fg.IllegalMoveError, match="wood must touch wood"):
        helper.apply(Place(0, "wood", (3, -3)))
    after = play(helper, "0:place wood@0,-1", "0:place wood@0,-2")
    assert after.current_player == 1  # no symbol left: the Helper step ended by itself
    assert after.tree(0).tiles[(0, -2)] == "wood" and after.supply(0) == supply(wood=1)


def test_helper_placements_are_optional():
    """Finish ends a Helper's placements early; none at all is allowed."""
    state = arrange(
        2, market=["helper:wild+leaf", "tool", "tool", "tool"], supplies={0: supply(wood=1)}
    )
    helper = play(state, "0:meditate 1")
    assert Finish(0) in helper.legal_moves()
    after = play(helper, "0:finish")
    assert after.current_player == 1 and after.supply(0) == supply(wood=1)


def test_helper_without_any_possible_placement_skips_its_step():
    """A Helper taken with no tile that could go down ends the turn at once."""
    state = arrange(
        2, market=["helper:wild+flower", "tool", "tool", "tool"], supplies={0: supply()}
    )
    assert play(state, "0:meditate 1").current_player == 1


def test_parchment_is_kept_and_public():
    """A Parchment goes to the taker's cards and shows in the other seat's observation."""
    state = arrange(2, market=["parchment:fruit", "tool", "tool", "tool"])
    after = play(state, "0:meditate 1")
    assert after.cards_of(0) == ("parchment:fruit",)
    assert after.observation(1)["players"][0]["cards"] == ["parchment:fruit"]


# ---------------------------------------------------------------------- storage limit


def test_storage_limit_forces_discards_of_the_players_choice():
    """Seed mistake 3: over the limit after Meditate, the excess is discarded, one chosen tile
    per move, before the turn ends; a kind not held cannot be discarded."""
    state = arrange(2, market=MARKET, supplies={0: supply(wood=2, leaf=2, flower=1)})
    over = play(state, "0:meditate 4")  # + leaf, fruit and the Master's 2 leaves: 9 tiles
    assert over.phase is Phase.DISCARD and over.current_player == 0
    assert {str(m) for m in over.legal_moves()} == {
        "0:discard wood", "0:discard leaf", "0:discard flower", "0:discard fruit"
    }  # fmt: skip
    after = play(over, "0:discard leaf", "0:discard leaf", "0:discard leaf")
    assert after.phase is Phase.DISCARD
    after = play(after, "0:discard fruit")
    assert after.supply(0) == supply(wood=2, leaf=2, flower=1) and after.current_player == 1
    with pytest.raises(fg.IllegalMoveError, match="seat 0 has no fruit tile to discard"):
        play(over, "0:discard fruit").apply(over.game.parse_move("0:discard fruit"))


def test_tool_taken_this_turn_counts_for_the_limit():
    """5 wood + slot 4's leaf and fruit = 7 tiles: over the limit 5 with a Growth card, within
    the new limit 7 when the card taken is a Tool."""
    growth = arrange(
        2, market=["tool", "tool", "tool", "growth:wood"], supplies={0: supply(wood=5)}
    )
    assert play(growth, "0:meditate 4").phase is Phase.DISCARD
    tool = arrange(
        2, market=["growth:wood", "growth:wood", "tool", "tool"], supplies={0: supply(wood=5)}
    )
    after = play(tool, "0:meditate 4")
    assert after.current_player == 1 and after.storage_limit(0) == 7 and sum(after.supplies[0]) == 7


# ---------------------------------------------------------------------- cultivate


def test_seishi_allows_one_wood_one_leaf_one_wild():
    """Seed mistake 5: with the Seishi alone two wood go down (wood and wild), a third is
    refused while a leaf still fits; any order works."""
    state = arrange(2, supplies={0: supply(wood=3, leaf=1)})
    two = play(state, "0:place wood@0,-1", "0:place wood@0,-2")
    with pytest.raises(fg.IllegalMoveError, match="no wood or wild symbol"):
        two.apply(Place(0, "wood", (0, -3)))
    done = play(two, "0:place leaf@-1,-1")
    assert done.current_player == 1
    other_order = play(state, "0:place wood@0,-1", "0:place leaf@-1,-1", "0:place wood@0,-2")
    assert other_order.tree(0) == done.tree(0)


def test_wild_is_spent_last():
    """A wood placed first uses the wood symbol, so the wild stays free for a flower later."""
    state = arrange(
        2, trees={0: {(0, -1): "wood", (-1, -1): "leaf"}}, supplies={0: supply(wood=1, flower=1)}
    )
    after = play(state, "0:place wood@0,-2")
    assert after.symbols == (0, 1, 0, 0, 1)
    assert Place(0, "flower", (-2, -1)) in after.legal_moves()


def test_cultivate_ends_with_finish_and_cannot_be_empty():
    """Finish stops a Cultivate after a placement; it is not a move before the first one."""
    state = arrange(2, supplies={0: supply(wood=2)})
    with pytest.raises(fg.IllegalMoveError, match="in the action"):
        state.apply(Finish(0))
    one = play(state, "0:place wood@0,-1")
    assert one.phase is Phase.CULTIVATE and Finish(0) in one.legal_moves()
    assert play(one, "0:finish").current_player == 1


def test_placing_a_tile_one_does_not_hold_is_refused():
    """Spending a tile not in the personal supply raises and changes nothing."""
    state = arrange(2, trees={0: TRUNK}, supplies={0: supply(wood=1)})
    refused(state, Place(0, "leaf", (-1, -1)), "holds no leaf")


def test_illegal_placement_is_refused_with_the_rule():
    """A leaf away from wood, a flower away from leaves: refused, naming the rule."""
    state = arrange(2, trees={0: TRUNK}, supplies={0: supply(leaf=1, flower=1)})
    with pytest.raises(fg.IllegalMoveError, match="leaf must touch wood"):
        state.apply(Place(0, "leaf", (3, -5)))
    with pytest.raises(fg.IllegalMoveError, match="flower must touch a leaf"):
        state.apply(Place(0, "flower", (-1, -1)))
    with pytest.raises(fg.IllegalMoveError, match="taken"):
        state.apply(Place(0, "leaf", (0, -2)))


def test_golden_first_moves_of_a_fresh_game():
    """First player with 1 wood: 4 meditations + 1 for slot 2's choice (+3 per wild Master)
    and the two wood placements above the bud."""
    state = arrange(2, market=MARKET)
    texts = sorted(str(m) for m in state.legal_moves())
    assert texts == sorted([
        "0:meditate 1", "0:meditate 2 wood", "0:meditate 2 leaf", "0:meditate 3", "0:meditate 4",
        "0:place wood@0,-1", "0:place wood@1,-1",
    ])  # fmt: skip


def test_wood_beside_pot_option_in_a_game():
    """With wood_beside_pot, the first wood may go on any cell beside the pot; by default it
    may only go above the bud."""
    plain = arrange(2, supplies={0: supply(wood=1)})
    beside = arrange(2, options={"wood_beside_pot": True}, supplies={0: supply(wood=1)})
    woods = {m.at for m in beside.legal_moves() if isinstance(m, Place)}
    assert {(-3, 1), (4, -1), (-3, 3), (2, 2)} <= woods and len(woods) == 18
    assert {m.at for m in plain.legal_moves() if isinstance(m, Place)} == {(0, -1), (1, -1)}
    after = play(beside, "0:place wood@-3,1")
    assert after.tree(0).tiles[(-3, 1)] == "wood"


def test_moves_accept_the_tile_enum():
    """Tile.WOOD and "wood" make the same move."""
    from forestgames.bonsai import Tile

    assert Place(0, Tile.WOOD, (0, -1)) == Place(0, "wood", [0, -1])
    assert str(Meditate(1, 2, Tile.LEAF)) == "1:meditate 2 leaf"


# ==================== the hex geometry and the placement rules


def test_pot_has_the_fifteen_cells_of_the_rules_page():
    """The pot: r=0 q=-2..3, r=1 q=-2..2, r=2 q=-2..1, the bud at (0, 0) among them."""
    assert len(POT_QR) == len(POT_CELLS) == 15
    assert set(POT_QR) == {(q, 0) for q in range(-2, 4)} | {(q, 1) for q in range(-2, 3)} | {
        (q, 2) for q in range(-2, 2)
    }
    assert cell_of(0, 0) in POT_CELLS


def test_neighbours_follow_the_axial_rule_and_go_round_the_hex():
    """The six directions are the page's neighbours, each touching the next one."""
    centre = cell_of(5, -7)
    around = [qr_of(centre + d) for d in DIRECTIONS]
    assert set(around) == {(6, -7), (4, -7), (5, -8), (6, -8), (4, -6), (5, -6)}
    for i in range(6):
        a, b = around[i], around[(i + 1) % 6]
        assert qr_of(cell_of(*a) - cell_of(*b) + cell_of(0, 0)) in {
            qr_of(cell_of(0, 0) + d) for d in DIRECTIONS
        }


def test_first_wood_goes_only_on_the_two_cells_above_the_bud():
    """From the bare pot, wood fits on (0,-1) and (1,-1) only: they touch the printed bud."""
    fits = {(q, r) for q in range(-5, 6) for r in range(-5, 4) if can_place({}, (q, r), "wood")}
    assert fits == {(0, -1), (1, -1)}


def test_wood_must_touch_wood():
    """Wood next to a leaf only, or far away, is refused; next to wood it fits."""
    tiles = {(0, -1): "wood", (-1, -1): "leaf"}
    assert can_place(tiles, (0, -2), "wood")
    assert not can_place(tiles, (-2, -1), "wood")  # touches only the leaf
    assert not can_place(tiles, (3, -6), "wood")


def test_wood_beside_pot_option_lets_wood_start_anywhere_beside_the_pot():
    """With wood_beside_pot any cell touching the pot takes wood; the default does not."""
    assert can_place({}, (-3, 1), "wood", wood_beside_pot=True)
    assert not can_place({}, (-3, 1), "wood")
    assert not can_place({}, (-3, -3), "wood", wood_beside_pot=True)
    assert qr_of(min(BESIDE_POT)) not in POT_QR


def test_leaf_must_touch_wood():
    """A leaf beside wood fits; beside only a leaf or flower it does not."""
    tiles = {**TRUNK, (-1, -1): "leaf"}
    assert can_place(tiles, (1, -2), "leaf")
    assert not can_place(tiles, (-2, -1), "leaf")


def test_flower_must_touch_a_leaf():
    """A flower needs a leaf neighbour; wood alone is not enough."""
    tiles = {**TRUNK, (-1, -1): "leaf"}
    assert can_place(tiles, (-2, -1), "flower")
    assert not can_place(tiles, (1, -2), "flower")


def test_fruit_needs_two_touching_leaves():
    """Seed mistake 1: a fruit goes only beside two different leaves that touch each other.

    (-2,-1) has the leaves (-1,-1) (its E side) and (-1,-2) (its NE side), which
    touch: it fits. With one of them only, it does not. (1,-2) has leaves on its
    NW (1,-3) and SE (1,-1) sides, opposite each other: two leaves, not touching.
    """
    pair = {**TRUNK, (-1, -1): "leaf", (-1, -2): "leaf"}
    assert can_place(pair, (-2, -1), "fruit")
    assert not can_place({**TRUNK, (-1, -1): "leaf"}, (-2, -1), "fruit")
    apart = {**TRUNK, (1, -1): "leaf", (1, -3): "leaf"}
    assert not can_place(apart, (1, -2), "fruit")


def test_fruit_may_not_touch_another_fruit():
    """The published rule: a fruit never goes beside another fruit, even between two leaves.

    Leaves (-1,-1), (-1,-2), (-1,-3) on a trunk: (-2,-2) sits between (-1,-2)
    and (-1,-3) and fits, until a fruit lies on (-2,-1), its SE neighbour.
    """
    tiles = {(0, -1): "wood", (0, -2): "wood", (0, -3): "wood"}
    tiles.update({(-1, -1): "leaf", (-1, -2): "leaf", (-1, -3): "leaf"})
    assert can_place(tiles, (-2, -2), "fruit")
    assert can_place(tiles, (-2, -1), "fruit")
    tiles[(-2, -1)] = "fruit"
    assert not can_place(tiles, (-2, -2), "fruit")


def test_nothing_goes_on_the_pot_or_on_a_tile():
    """Pot cells and taken cells refuse every kind, the bud included."""
    for kind in Tile:
        assert not can_place(TRUNK, (1, 0), kind)
        assert not can_place(TRUNK, (0, 0), kind)
        assert not can_place(TRUNK, (0, -1), kind)


def test_protrusion_thresholds():
    """Left when x = q + r/2 <= -2, right when x >= 3, below when r >= 2."""
    assert protrudes(-2, 0) == (True, False, False)
    assert protrudes(-1, -1) == (False, False, False)  # x = -1.5
    assert protrudes(-3, 1) == (True, False, False)  # x = -2.5
    assert protrudes(4, -2) == (False, True, False)  # x = 3
    assert protrudes(3, -1) == (False, False, False)  # x = 2.5
    assert protrudes(2, 2) == (False, True, True)
    assert protrudes(-3, 2) == (True, False, True)


@pytest.mark.parametrize(
    "tiles, at, kind, message",
    [
        ({(1, 0): "wood"}, (0, -1), "wood", "no tile may go on the pot"),
        ({(0, 0): "leaf"}, (0, -1), "wood", r"the bud at \(0, 0\) is wood"),
        ({(0, -1): "bark"}, (0, -2), "wood", "a tile kind is one of .*, not 'bark'"),
        ({(0, -1): "wood"}, (0, -2), "branch", "a tile kind is one of .*, not 'branch'"),
        ({(0, -1): "wood"}, [0, -2], "wood", r"at: a cell is a \(q, r\) tuple of ints"),
        ({(0, -1.5): "wood"}, (0, -2), "wood", r"tiles: a cell is a \(q, r\) tuple of ints"),
        ("not a tree", (0, -2), "wood", r"tiles must map \(q, r\) to a kind"),
    ],
)
def test_bad_trees_and_cells_raise_state_error(tiles, at, kind, message):
    """Malformed input to can_place raises the library's StateError."""
    with pytest.raises(fg.StateError, match=message):
        can_place(tiles, at, kind)


# ==================== pruning

BLOCKED = {(0, -1): "leaf", (1, -1): "leaf", (0, -2): "flower", (1, -2): "fruit"}


def test_blocked_tree_offers_pruning_besides_the_usual_actions():
    """No wood fits: Prune moves on both leaves are offered, and Meditate stays allowed."""
    state = arrange(2, trees={0: BLOCKED})
    moves = state.legal_moves()
    assert [m for m in moves if isinstance(m, Prune)] == [Prune(0, (0, -1)), Prune(0, (1, -1))]
    assert any(isinstance(m, Meditate) for m in moves)


def test_pruning_a_leaf_takes_what_rests_on_it():
    """Removing (0,-1) takes the flower (no leaf left beside it) and the fruit (no leaf pair)."""
    after = play(arrange(2, trees={0: BLOCKED}, supplies={0: supply()}), "0:prune@0,-1")
    assert after.tree(0).tiles == {(0, 0): "wood", (1, -1): "leaf"}
    assert after.phase is Phase.ACTION and after.current_player == 0
    assert after.supply(0) == supply()  # removed tiles go back to the general supply
    assert not any(isinstance(m, Prune) for m in after.legal_moves())


def test_pruning_the_other_leaf_keeps_the_flower():
    """Removing (1,-1) breaks the fruit's leaf pair; the flower still touches (0,-1)."""
    after = play(arrange(2, trees={0: BLOCKED}), "0:prune@1,-1")
    assert after.tree(0).tiles == {(0, 0): "wood", (0, -1): "leaf", (0, -2): "flower"}


def test_no_pruning_while_wood_fits():
    """With a free cell beside wood, Prune is refused."""
    state = arrange(2, trees={0: {(0, -1): "leaf"}})
    assert not any(isinstance(m, Prune) for m in state.legal_moves())
    with pytest.raises(fg.IllegalMoveError, match="no pruning while a wood tile fits"):
        state.apply(Prune(0, (0, -1)))


def test_one_leaf_is_always_enough():
    """Every leaf touches wood, so removing any one frees a cell beside wood: all leaves of a
    blocked tree are choices, and after one prune wood fits again. Wood (1,-1) with leaves
    on its four free sides, one of them (0,-1) also filling the bud's last free side."""
    tiles = {(1, -1): "wood", (0, -1): "leaf", (1, -2): "leaf", (2, -2): "leaf", (2, -1): "leaf"}
    tree = Tree.from_tiles(tiles)
    assert not tree.open_cells(0)
    assert len(tree.prune_choices()) == 4
    for leaf in tree.prune_choices():
        assert tree.without_leaf(leaf).open_cells(0)


# ==================== goals


def trunk(length):
    """Wood from (0,-1) up to (0,-length): with the bud, length + 1 wood tiles."""
    return {(0, -r): "wood" for r in range(1, length + 1)}


def about_to_grow(wood_after, trees=None, **fields):
    """Seat 0 holds 1 wood and a trunk one short of ``wood_after`` wood tiles (bud included)."""
    trees = {0: trunk(wood_after - 2), **(trees or {})}
    return arrange(2, trees=trees, supplies={0: supply(wood=1)}, **fields)


def grow(state, wood_after):
    return play(state, f"0:place wood@0,-{wood_after - 1}")


def test_meeting_a_goal_offers_it_right_after_the_action():
    """The 8th wood ends the Cultivate (no tile left) and offers brown 1; claiming scores 5."""
    state = grow(about_to_grow(8), 8)
    assert state.phase is Phase.GOALS and state.current_player == 0
    assert state.offered_goal == "brown 1"
    assert state.legal_moves() == (ClaimGoal(0, "brown", 1), RenounceGoal(0, "brown", 1))
    claimed = play(state, "0:claim brown 1")
    assert claimed.goal_owners == {"brown 1": 0} and claimed.scores[0] == 5
    assert claimed.current_player == 1


def test_below_the_threshold_nothing_is_offered():
    """7 wood meets no brown goal: the turn simply ends."""
    assert grow(about_to_grow(7), 7).current_player == 1


def test_hardest_met_goal_is_offered_first():
    """From 7 to 10 wood in one Cultivate (a Growth:wood card): brown 2 comes first;
    renouncing it offers brown 1."""
    position = arrange(
        2, trees={0: trunk(6)}, hands={0: ["growth:wood"]}, supplies={0: supply(wood=3)}
    )
    state = play(position, "0:place wood@0,-7", "0:place wood@0,-8", "0:place wood@0,-9")
    assert state.offered_goal == "brown 2"
    after = play(state, "0:renounce brown 2")
    assert after.offered_goal == "brown 1"
    done = play(after, "0:claim brown 1")
    assert done.goal_owners == {"brown 1": 0} and done.renounced[0] == 1 << 1


def test_renounced_goal_can_never_be_claimed_later():
    """Seed mistake 2: renouncing the small goal to aim higher loses it for good; when the
    higher one is gone, the small one is not offered again and claiming it is refused."""
    state = play(grow(about_to_grow(8), 8), "0:renounce brown 1")
    assert state.renounced[0] == 1 << 0 and state.current_player == 1
    # seat 1 holds brown 2; seat 0 grows to 11 wood and meets a green goal at the same time
    tiles = {**trunk(9), (-1, -1): "leaf", (-1, -2): "leaf", (-1, -3): "leaf", (-1, -4): "leaf"}
    position = arrange(
        2,
        trees={0: tiles, 1: trunk(9)},
        supplies={0: supply(wood=1, leaf=1)},
        renounced=[["brown 1"], []],
        goal_owners={"brown 2": 1},
    )
    after = play(position, "0:place wood@0,-10", "0:place leaf@-1,-5")
    assert after.phase is Phase.GOALS and after.offered_goal == "green 1"
    with pytest.raises(fg.IllegalMoveError, match="claim brown 1: seat 0 renounced this goal"):
        after.apply(ClaimGoal(0, "brown", 1))
    assert play(after, "0:claim green 1").current_player == 1


def test_a_harder_goal_of_a_renounced_colour_can_still_be_claimed():
    """Renouncing brown 1 keeps brown 2 open to the same player."""
    position = arrange(
        2, trees={0: trunk(8)}, supplies={0: supply(wood=1)}, renounced=[["brown 1"], []]
    )
    after = play(position, "0:place wood@0,-9")
    assert after.offered_goal == "brown 2"


def test_one_goal_per_colour():
    """A player holding brown 1 is offered no other brown goal."""
    position = arrange(
        2, trees={0: trunk(8)}, supplies={0: supply(wood=1)}, goal_owners={"brown 1": 0}
    )
    assert play(position, "0:place wood@0,-9").current_player == 1


def test_a_goal_held_by_another_player_is_not_offered():
    """Seat 1 holds brown 1: seat 0 reaching 8 wood gets no offer."""
    position = about_to_grow(8, trees={1: trunk(7)}, goal_owners={"brown 1": 1})
    assert grow(position, 8).current_player == 1


def test_goals_are_checked_after_a_meditate_too():
    """A Helper's wood placed during Meditate can meet a goal, offered after the Meditate."""
    position = arrange(
        2,
        trees={0: trunk(6)},
        market=["helper:wild+wood", "tool", "tool", "tool"],
        supplies={0: supply(wood=1)},
    )
    after = play(position, "0:meditate 1", "0:place wood@0,-7")
    assert after.phase is Phase.GOALS and after.offered_goal == "brown 1"


def test_claimed_goal_keeps_its_points_when_the_tree_no_longer_meets_it():
    """A claimed goal is kept: green 1 (6 points) held with two leaves left after pruning."""
    tiles = {(0, -1): "wood", (-1, -1): "leaf", (1, -1): "leaf"}
    position = arrange(2, trees={0: tiles}, goal_owners={"green 1": 0})
    assert position.score_parts(0) == {"tree": 6, "goals": 6, "parchments": 0, "total": 12}


@pytest.mark.parametrize("players, expected", [(1, 6), (2, 6), (3, 9), (4, 9)])
def test_published_setup_three_colours_medium_removed_with_one_or_two(players, expected):
    """The published setup: 3 colours drawn from the seed; medium tiles out with 1-2 players."""
    options = {"goal_setup": "published"} if players > 1 else {}
    state = fg.make("bonsai", num_players=players, **options).new_game(seed=4)
    names = [GOALS[g].name for g in range(15) if state.goals_in_play >> g & 1]
    assert len(names) == expected and len({n.split()[0] for n in names}) == 3
    assert any(n.endswith(" 2") for n in names) == (players > 2)


def test_default_setup_has_all_fifteen_goals():
    """The seed's setup lays out every goal tile."""
    assert fg.make("bonsai", num_players=2).new_game(seed=0).goals_in_play == (1 << 15) - 1


def test_goal_not_in_play_is_never_offered():
    """With the published setup, a colour left out is not offered even when met."""
    game = fg.make("bonsai", num_players=2, goal_setup="published")
    seed = next(s for s in range(50) if not game.new_game(seed=s).goals_in_play & 0b111)
    position = arrange(
        2,
        options={"goal_setup": "published"},
        seed=seed,
        trees={0: trunk(6)},
        supplies={0: supply(wood=1)},
    )
    assert position.goals_in_play & 0b111 == 0
    assert play(position, "0:place wood@0,-7").current_player == 1


# ==================== the end, the tie-break, the solo game


def take_first(state):
    """The seat to move takes a card (its first Meditate move) and ends its turn (finishing a
    Helper's placements at once, then the first discard or goal move while any is due)."""
    turn = state.turn
    state = state.apply(next(m for m in state.legal_moves() if isinstance(m, Meditate)))
    while not state.is_terminal and state.turn == turn:
        moves = state.legal_moves()
        state = state.apply(
            Finish(state.current_player) if Finish(state.current_player) in moves else moves[0]
        )
    return state


# ---------------------------------------------------------------------- end rules


def test_round_rule_finishes_the_round_when_the_first_player_empties_the_deck():
    """Seed rule, 2 players: seat 0 (first) draws the last card; seat 1 plays, then it ends."""
    start = arrange(2, deck_size=1)
    assert start.current_player == 0
    state = take_first(start)
    assert state.deck_size == 0 and state.last_turn == start.turn + 1 and not state.is_terminal
    over = take_first(state)
    assert over.is_terminal and over.phase is Phase.OVER and over.turn == start.turn + 1


def test_round_rule_ends_at_once_when_the_last_seat_empties_the_deck():
    """The deck emptied on the round's last turn: every player has had as many turns."""
    state = arrange(3, deck_size=1, turn=2)
    assert take_first(state).is_terminal


def test_round_rule_in_the_middle_of_a_round():
    """3 players, seat 1 empties the deck: seat 2 plays, then the game is over."""
    start = arrange(3, deck_size=1, turn=1)
    state = take_first(start)
    assert state.last_turn == start.turn + 1 and state.current_player == 2
    assert take_first(state).is_terminal


def test_extra_turn_rule_gives_everyone_one_more_turn():
    """Published rule: after seat 0 empties the deck, seats 1 and 0 each play once more."""
    start = arrange(2, options={"end_rule": "extra_turn"}, deck_size=1)
    state = take_first(start)
    assert state.last_turn == start.turn + 2
    state = take_first(state)
    assert not state.is_terminal and state.current_player == 0
    assert take_first(state).is_terminal


def test_the_end_waits_for_the_last_turns_goals_and_discards():
    """The last turn's discard step still happens before the game ends."""
    state = arrange(
        2, deck_size=0, turn=1, market=MARKET, supplies={1: supply(wood=5)}, last_turn=1
    )
    over = play(state, "1:meditate 4")
    assert over.phase is Phase.DISCARD and not over.is_terminal
    while over.phase is Phase.DISCARD:
        over = over.apply(over.legal_moves()[0])
    assert over.is_terminal


# ---------------------------------------------------------------------- winners


def _finished(state, trees):
    """``state`` marked over with ``trees`` and no cards (only winners are read)."""
    from forestgames.bonsai.tree import Tree

    return attrs.evolve(
        state,
        phase=Phase.OVER,
        trees=tuple(Tree.from_tiles(t) for t in trees),
        cards=((),) * len(trees),
    )


LEAVES_2 = {(0, -1): "wood", (-1, -1): "leaf", (1, -1): "leaf"}
LEAVES_1 = {(0, -1): "wood", (-1, -1): "leaf"}


def test_highest_score_wins():
    """6 points beat 3."""
    state = _finished(arrange(3), [LEAVES_1, LEAVES_2, LEAVES_1])
    assert state.scores == (3, 6, 3) and state.winners == (1,)


def test_tie_goes_to_the_seat_farthest_clockwise_from_the_first_player():
    """First player 1, order 1, 2, 0: seats 1 and 0 tie, seat 0 (last in order) wins;
    seats 1 and 2 tie, seat 2 wins."""
    state = arrange(3, first_player=1)
    assert _finished(state, [LEAVES_2, LEAVES_2, LEAVES_1]).winners == (0,)
    assert _finished(state, [LEAVES_1, LEAVES_2, LEAVES_2]).winners == (2,)
    assert _finished(state, [LEAVES_2, LEAVES_1, LEAVES_1]).winners == (0,)


def test_no_winner_before_the_end():
    """winners is empty while the game goes on."""
    assert arrange(2).winners == ()


# ---------------------------------------------------------------------- solo


def solo(**fields):
    return arrange(1, market=MARKET, deck_top=["growth:flower", "growth:wood", "tool"], **fields)


def test_solo_meditate_discards_the_deck_side_neighbour():
    """Solo: taking slot 3 discards slot 2's card; the market refills two cards."""
    after = play(solo(), "0:meditate 3")
    assert after.to_dict()["discards"][-1] == "growth:leaf"
    assert after.market_cards == ("growth:wood", "growth:flower", "tool", "master:leaf+leaf")


def test_solo_meditate_from_slot_one_discards_the_deck_top():
    """Solo: taking slot 1 discards the deck's top card instead."""
    state = solo()
    after = play(state, "0:meditate 1")
    assert after.deck_size == state.deck_size - 2
    assert after.market_cards == (
        "growth:wood",
        "growth:leaf",
        "parchment:wood",
        "master:leaf+leaf",
    )


def test_solo_cultivate_discards_slot_four():
    """Solo: after a Cultivate the card in slot 4 goes, the others slide, slot 1 refills."""
    after = play(solo(supplies={0: supply(wood=1)}), "0:place wood@0,-1")
    assert after.market_cards == ("growth:flower", "tool", "growth:leaf", "parchment:wood")
    assert len(after.discards) == len(solo().discards) + 1


def test_solo_game_ends_after_the_turn_that_empties_the_deck():
    """A round is one turn in solo: the deck's last card ends the game with that turn."""
    state = arrange(1, deck_size=2)
    assert take_first(state).is_terminal


def test_a_solo_game_built_by_its_class_takes_make_s_goal_setup():
    """BonsaiGame(1) plays the published goal setup, as make does (the class's own default,
    "all", made it a ConfigError); other counts keep "all"."""
    from forestgames.bonsai.rules import BonsaiGame

    for players, setup in ((1, "published"), (2, "all"), (4, "all")):
        built = BonsaiGame(players)
        assert built == fg.make("bonsai", num_players=players) and built.goal_setup == setup


def test_solo_extra_turn_option_gives_one_more_turn():
    """With end_rule='extra_turn' the solo player plays once more after the deck runs out."""
    state = take_first(arrange(1, options={"end_rule": "extra_turn"}, deck_size=2))
    assert not state.is_terminal
    assert take_first(state).is_terminal


def _solo_seed_with(colours):
    """The first seed whose solo game puts exactly ``colours`` in play."""
    game = fg.make("bonsai", num_players=1)
    for seed in range(200):
        mask = game.new_game(seed=seed).goals_in_play
        if {GOALS[g].colour for g in range(15) if mask >> g & 1} == set(colours):
            return seed
    raise AssertionError("no such seed")


SOLO_SEED = _solo_seed_with(("brown", "green", "orange"))


def solo_over(goals, difficulty=1):
    """A finished solo game (brown, green, orange in play) with the example tree (72)."""
    return arrange(
        1,
        seed=SOLO_SEED,
        options={"solo_difficulty": difficulty},
        deck_size=0,
        trees={0: example_tiles()},
        goal_owners={g: 0 for g in goals},
        phase="over",
        turn=20,
        last_turn=20,
    )


THREE_SMALL = ["brown 1", "green 1", "orange 1"]  # 5 + 6 + 9 = 20
# the example's 8 wood allow brown 1 only (wood is never removed); a claimed green or
# orange goal is kept even if the tree no longer meets it
BIGGER = ["brown 1", "green 3", "orange 3"]  # 5 + 12 + 13 = 30


def test_solo_targets():
    """Difficulties 1-4 need 80, 100, 120, 140 points."""
    assert SOLO_TARGETS == {1: 80, 2: 100, 3: 120, 4: 140}


@pytest.mark.parametrize(
    "goals, difficulty, won",
    [
        (THREE_SMALL, 1, True),  # 92 >= 80
        (THREE_SMALL, 2, False),  # 92 < 100
        (BIGGER, 2, True),  # 102 >= 100
        (BIGGER, 3, False),  # 102 < 120
        (BIGGER, 4, False),
        (["brown 1", "green 3"], 1, False),  # 89 points but two goals only
    ],
)
def test_solo_win_and_loss(goals, difficulty, won):
    """Solo is won with three goals (one per colour) and the difficulty's points."""
    state = solo_over(goals, difficulty)
    assert state.is_terminal
    assert state.solo_won is won
    assert state.winners == ((0,) if won else ())


def test_solo_scores_of_the_win_cases():
    """The totals the win and loss cases rely on."""
    assert solo_over(THREE_SMALL).scores == (92,)
    assert solo_over(BIGGER).scores == (102,)


def test_solo_options():
    """Solo plays the published goal setup; difficulty is a solo option only (other games
    take only its default, so one dict of options may serve every player count)."""
    with pytest.raises(fg.ConfigError, match="published"):
        fg.make("bonsai", num_players=1, goal_setup="all")
    with pytest.raises(fg.ConfigError, match=r"solo games only \(here only its default 1"):
        fg.make("bonsai", num_players=2, solo_difficulty=2)
    # its default is accepted anywhere (grids of option dicts): the same game as without it
    assert fg.make("bonsai", num_players=2, solo_difficulty=1) == fg.make("bonsai", num_players=2)
    for bad in (0, 5, "2", True):
        with pytest.raises(fg.ConfigError, match="option solo_difficulty must be"):
            fg.make("bonsai", num_players=1, solo_difficulty=bad)


# ==================== pictures

SMALL = {
    (0, -1): "wood", (0, -2): "wood", (-1, -1): "leaf", (-1, -2): "leaf",
    (-2, -1): "fruit", (-2, -2): "flower",
}  # fmt: skip


def test_text_tree_golden():
    """A small tree drawn as offset rows, the top first, the pot's three rows last; the
    flower (-1,-2) is in the pot's leftmost column (x = -2)."""
    assert render_tree({(0, -1): "wood", (-1, -1): "leaf", (-1, -2): "flower"}) == "\n".join([
        "*",
        "  L   #",
        "_   _   B   _   _   _",
        "  _   _   _   _   _",
        "    _   _   _   _",
    ])  # fmt: skip


def test_svg_has_one_hexagon_per_tile_and_pot_cell():
    """The SVG parses, with 15 pot cells (the bud a wood tile) plus one polygon per tile."""
    svg = tree_svg(example_tiles())
    root = ET.fromstring(svg)
    polygons = root.findall("{http://www.w3.org/2000/svg}polygon")
    assert len(polygons) == 14 + len(example_tiles()) + 1
    titles = [p.find("{http://www.w3.org/2000/svg}title").text for p in polygons]
    assert sum(t.startswith("pot") for t in titles) == 14
    assert "fruit (2, -3)" in titles and "wood (0, 0)" in titles


@pytest.mark.parametrize(
    "size", [0, -5, float("nan"), float("inf"), 1e300, 10**400, True, "20", None]
)
def test_svg_refuses_a_hex_size_that_is_no_finite_positive_number(size):
    """tree_svg's size is a number of pixels above 0 and at most MAX_HEX_SIZE: anything else
    is a ConfigError naming it (it drew 'nan' or negative boxes, or raised TypeError)."""
    with pytest.raises(fg.ConfigError, match="tree_svg's size"):
        tree_svg(example_tiles(), size)
    box = ET.fromstring(tree_svg(example_tiles(), 7.5)).get("viewBox").split()
    assert len(box) == 4 and float(box[2]) > 0 and float(box[3]) > 0


def test_state_render_shows_every_seat():
    """render() gives the status line, the market and one block per seat with its tree."""
    state = arrange(2, trees={1: SMALL}, hands={0: ["parchment:leaf"]})
    text = state.render()
    assert text.startswith(f"Bonsai 2p · turn {state.turn + 1} · action · seat 0 to move")
    # seat 1: 2 leaves, a fruit, a flower with 4 free sides
    assert "seat 1: 17 points" in text and "parchment:leaf" in text and "o" in text
