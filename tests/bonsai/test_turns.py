"""A turn: setup, the market, Meditate with every card type, the storage limit, Cultivate."""

import pytest

import forestgames as fg
from forestgames.bonsai import Finish, Meditate, Phase, Place
from tests.bonsai.helpers import arrange, play, supply

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
    """With no deck left, the cards slide toward slot 4 and slot 1 stays empty."""
    state = arrange(3, market=MARKET, deck_size=0)
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
    with pytest.raises(fg.IllegalMoveError):
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
    with pytest.raises(fg.IllegalMoveError, match="action step"):
        state.apply(Finish(0))
    one = play(state, "0:place wood@0,-1")
    assert one.phase is Phase.CULTIVATE and Finish(0) in one.legal_moves()
    assert play(one, "0:finish").current_player == 1


def test_placing_a_tile_one_does_not_hold_is_refused():
    """Spending a tile not in the personal supply raises and changes nothing."""
    state = arrange(2, trees={0: TRUNK}, supplies={0: supply(wood=1)})
    before = state.to_dict()
    with pytest.raises(fg.IllegalMoveError, match="holds no leaf"):
        state.apply(Place(0, "leaf", (-1, -1)))
    assert state.to_dict() == before


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
