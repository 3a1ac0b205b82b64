"""The rules move by move: Guardian phase, actions, end of turn, notation and tables."""

from importlib import resources

import attrs
import pytest

import forestgames as fg
from forestgames.living_forest import _tables as t
from forestgames.living_forest import moves as mv
from forestgames.living_forest._tables import CARD_INDEX, VARAN
from forestgames.living_forest.state import Phase, Step
from tests.living_forest.helpers import (
    acting,
    checked,
    empty_deck,
    forest,
    ids,
    names,
    play,
    put,
    stack_deck,
    start,
    to_row,
    with_seat,
)

# ================================================================================= Guardian Animals


def test_reveal_moves_top_card_to_help_line():
    """A reveal puts the deck's top card at the end of the Help Line."""
    state = checked(stack_deck(start(), 0, "Hare", "Bee"))
    state = play(state, "0:reveal", "0:reveal")
    assert state.help_line(0) == ("Hare", "Bee")
    assert state.deck_size(0) == 12


def test_seats_reveal_in_turn_order_then_actions_begin():
    """Seat 0 reveals and stops, then seat 1; after the last seat the Action phase starts."""
    state = start(3)
    assert state.current_player == 0
    state = play(state, "0:reveal", "0:stop")
    assert (state.phase, state.current_player) == (Phase.GUARDIANS, 1)
    assert state.legal_moves(0) == ()
    state = play(state, "1:stop", "2:reveal", "2:stop")
    assert (state.phase, state.current_player) == (Phase.ACTIONS, 0)


def test_stop_before_the_first_card():
    """A Spirit may stop before revealing anything: its Help Line stays empty."""
    state = play(start(), "0:stop")
    assert state.lines[0] == () and state.current_player == 1


def test_third_solitary_symbol_forces_stop():
    """Without a Fragment, the third uncancelled solitary card ends the reveal at once."""
    state = checked(stack_deck(start(), 0, "Bear", "Hare", "Beetle", "Lynx", "Fox"))
    state = play(state, "0:reveal", "0:reveal", "0:reveal")
    assert names(state.legal_moves()) == ["0:reveal", "0:stop"]
    state = play(state, "0:reveal")
    assert state.help_line(0) == ("Bear", "Hare", "Beetle", "Lynx")
    assert state.current_player == 1 and state.solitary(0) == 3


def test_gregarious_symbol_cancels_one_solitary():
    """A gregarious card lets a fourth solitary card in; the count stays below 3 until then."""
    state = start()
    state = put(state, 0, "deck", ["Chimpanzee"])
    state = checked(stack_deck(state, 0, "Bear", "Chimpanzee", "Beetle", "Lynx", "Fox"))
    state = play(state, "0:reveal", "0:reveal", "0:reveal", "0:reveal")
    assert state.solitary(0) == 2 and state.current_player == 0
    state = play(state, "0:reveal")
    assert state.solitary(0) == 3 and state.current_player == 1
    assert len(state.lines[0]) == 5


def test_cancelled_cards_keep_their_elements():
    """A solitary card cancelled by a gregarious one still adds its elements."""
    state = start()
    state = put(state, 0, "line", ["Chimpanzee", "Beetle"])
    state = with_seat(state, "lines", 1, ())
    assert state.solitary(0) == 0
    # Chimpanzee: plant -2; Beetle: sun 3, plant 1 -> plant max(0, -1) = 0
    assert state.totals(0) == (3, 0, 0, 0, 0)


def test_fragment_spent_on_solitary_card():
    """A Fragment moves one solitary card from the Help Line to the discard; its elements go."""
    state = with_seat(start(), "fragments", 0, 1)
    state = checked(stack_deck(state, 0, "Beetle", "Hare"))
    state = play(state, "0:reveal", "0:reveal")
    assert "0:spend Beetle" in names(state.legal_moves())
    after = play(state, "0:spend Beetle")
    assert after.help_line(0) == ("Hare",)
    assert CARD_INDEX["Beetle"] in after.discards[0]
    assert after.fragments[0] == 0 and after.fragment_supply == 20
    assert after.totals(0) == (0, 0, 0, 1, 0)
    assert after.solitary(0) == 0


def test_no_spend_without_fragment_or_solitary_card():
    """Spending needs a Fragment and a solitary card in the Help Line."""
    state = checked(stack_deck(start(), 0, "Hare"))
    state = play(state, "0:reveal")
    assert names(state.legal_moves()) == ["0:reveal", "0:stop"]
    state = with_seat(state, "fragments", 0, 2)
    assert names(state.legal_moves()) == ["0:reveal", "0:stop"]


def test_after_third_fragment_reopens_reveal():
    """reveal_after_third=True: at 3 solitary a Fragment brings the count to 2 and reveals go on."""
    state = with_seat(start(), "fragments", 0, 1)
    state = checked(stack_deck(state, 0, "Bear", "Beetle", "Lynx", "Hare"))
    state = play(state, "0:reveal", "0:reveal", "0:reveal")
    assert state.current_player == 0
    assert names(state.legal_moves()) == [
        "0:spend Bear",
        "0:spend Beetle",
        "0:spend Lynx",
        "0:stop",
    ]
    state = play(state, "0:spend Lynx", "0:reveal")
    assert state.help_line(0) == ("Bear", "Beetle", "Hare")


def test_third_solitary_closes_line_in_seed_reading():
    """reveal_after_third=False: the third solitary card closes the Help Line, Fragments or not."""
    state = with_seat(start(reveal_after_third=False), "fragments", 0, 1)
    state = checked(stack_deck(state, 0, "Bear", "Beetle", "Lynx"))
    state = play(state, "0:reveal", "0:reveal", "0:reveal")
    assert state.current_player == 1 and state.fragments[0] == 1
    with pytest.raises(fg.IllegalMoveError, match=r"not seat 0|seat 1"):
        play(state, "0:spend Bear")


def test_spent_varan_goes_to_discard_by_default():
    """A Fire Varan sent away with a Fragment lands in the discard pile (the seed)."""
    state = with_seat(start(), "fragments", 0, 1)
    state = checked(stack_deck(put(state, 0, "deck", ["FireVaran"]), 0, "FireVaran"))
    state = play(state, "0:reveal", "0:spend FireVaran")
    assert state.discards[0] == (VARAN,) and state.varans == 22


def test_spent_varan_returns_with_option():
    """varan_returns=True: the Varan goes back to the Varan stack instead."""
    state = with_seat(start(varan_returns=True), "fragments", 0, 1)
    state = checked(stack_deck(put(state, 0, "deck", ["FireVaran"]), 0, "FireVaran"))
    state = play(state, "0:reveal", "0:spend FireVaran")
    assert state.discards[0] == () and state.varans == 23


def test_only_a_varan_returns_with_the_option():
    """varan_returns=True sends back Fire Varans only: another solitary card spent with a
    Fragment still goes to the discard pile, and the Varan stack keeps its size."""
    state = with_seat(start(varan_returns=True), "fragments", 0, 1)
    state = checked(stack_deck(state, 0, "Bear"))
    before = state.varans
    state = play(state, "0:reveal", "0:spend Bear")
    assert state.discards[0] == (CARD_INDEX["Bear"],) and state.varans == before


def test_empty_deck_reshuffles_discard_when_drawing():
    """Wanting to draw from an empty deck shuffles the discard pile into a new deck."""
    state = checked(empty_deck(start(), 0))
    assert state.deck_size(0) == 0 and state.discard_size(0) == 14
    state = play(state, "0:reveal")
    assert state.deck_size(0) == 13 and state.discard_size(0) == 0
    assert len(state.lines[0]) == 1


def test_reshuffle_order_comes_from_the_state():
    """Two copies of a state reshuffle the same way; the reshuffle seed then changes."""
    state = empty_deck(start(), 0)
    a, b = play(state, "0:reveal"), play(state, "0:reveal")
    assert a == b and a.entropy != state.entropy


def _all_but_hare_in_line(state):
    """Seat 0 with three gregarious cards, every card in its Help Line but Hare on the deck."""
    state = put(state, 0, "line", ["Chimpanzee", "Toucan", "Butterfly"])
    hare = CARD_INDEX["Hare"]
    rest = tuple(c for c in state.decks[0] if c != hare)
    state = with_seat(state, "lines", 0, state.lines[0] + rest)
    return checked(with_seat(state, "decks", 0, (hare,)))


def test_empty_deck_and_discard_can_only_stop():
    """With nothing left to draw and no Fragment, the reveal passes on by itself."""
    state = _all_but_hare_in_line(start())
    assert state.solitary(0) == 2
    state = play(state, "0:reveal")
    assert state.current_player == 1 and len(state.lines[0]) == 17


def test_empty_deck_and_discard_with_fragment_offers_spend_and_stop():
    """With nothing to draw but a Fragment, spending and stopping are the choices."""
    state = play(with_seat(_all_but_hare_in_line(start()), "fragments", 0, 1), "0:reveal")
    assert state.current_player == 0
    assert "0:reveal" not in names(state.legal_moves())
    assert names(state.legal_moves())[-1] == "0:stop"


# ===================================================================================== Action phase


def actions_state(line0=(), line1=(), players=2, **options):
    """Seat 0 to choose its first action with Help Line ``line0`` (seat 1: ``line1``)."""
    state = start(players, **options)
    state = put(put(state, 0, "line", line0), 1, "line", line1)
    return acting(state)


# ---------------------------------------------------------------------- how many actions


def test_two_different_actions_below_three_solitary():
    """With fewer than 3 solitary symbols a Spirit takes 2 actions, and they must differ."""
    state = checked(actions_state(["Hare", "Weasel"], ["Hare"]))
    state = play(state, "0:fragment")
    assert "0:fragment" not in names(state.legal_moves())
    with pytest.raises(fg.IllegalMoveError, match="must differ"):
        play(state, "0:fragment")
    state = play(state, "0:move 1")
    assert state.current_player == 1 and state.fragments[0] == 2  # rock 1 bonus: a Fragment


def test_one_action_with_three_solitary():
    """Exactly 3 uncancelled solitary symbols allow a single action."""
    state = checked(actions_state(["Bear", "Beetle", "Lynx"], ["Hare"]))
    assert state.game._action_limit(state, 0) == 1
    state = play(state, "0:fragment")
    assert state.current_player == 1


def test_tree_11_allows_the_same_action_twice():
    """With Tree 11 in the forest the two actions may be the same."""
    state = actions_state(["Hare"], ["Hare"])
    state = checked(with_seat(state, "forests", 0, forest(". . . . .", ". 11 S . .", ". . . . .")))
    state = play(state, "0:fragment", "0:fragment")
    assert state.fragments[0] == 2 and state.current_player == 1


def test_tree_11_planted_first_allows_a_second_plant():
    """Tree 11's effect applies at once: the second action may repeat Plant."""
    line = ["Bear", "Owl", "Boar", "Bee", "Goldfish", "Hummingbird", "Weasel", "Baboon"]
    state = put(start(), 0, "line", ["Cricket", "Rhinoceros"])  # plant 4 + 3
    state = checked(acting(put(state, 0, "line", line)))
    assert state.totals(0)[2] >= 11
    state = play(state, "0:plant 11@1,1")
    assert "0:plant 3A@1,0" in names(state.legal_moves())
    state = play(state, "0:plant 3A@1,0")
    assert state.current_player == 1


def test_done_ends_the_actions_early():
    """'done' while choosing ends the Spirit's Action phase with actions unused."""
    state = play(checked(actions_state(["Hare"], ["Hare"])), "0:done")
    assert state.current_player == 1 and state.fragments[0] == 0


def test_seat_with_nothing_to_do_is_skipped():
    """A seat that can start no action (no wind, sun, water, plant; no Fragment left) is passed."""
    state = actions_state(["Hare"], [])
    state = with_seat(state, "fragments", 1, 20)
    state = play(checked(state), "0:move 1")  # rock 1: the Fragment supply is empty
    assert state.phase.value == "guardians" and state.turn == 2
    assert state.fragments == (0, 20)


# ---------------------------------------------------------------------- Fragment


def test_fragment_action_takes_one_tile():
    """The Fragment action moves one tile from the supply to the Spirit."""
    state = play(checked(actions_state(["Hare"], ["Hare"])), "0:fragment")
    assert state.fragments[0] == 1 and state.fragment_supply == 19


def test_fragment_action_not_offered_when_supply_empty():
    """An empty Fragment supply makes the Fragment action unavailable."""
    state = with_seat(actions_state(["Hare"], ["Hare"]), "fragments", 1, 20)
    assert "0:fragment" not in names(checked(state).legal_moves())


# ---------------------------------------------------------------------- Attract


def attract_state():
    """Seat 0 with 6 sun; Hedgehog (3), Raven (2), Beaver (2), Lemur (5) face up."""
    state = to_row(start(), ["Hedgehog", "Raven", "Beaver", "Lemur"])
    state = put(put(state, 0, "line", ["Tanuki", "Weasel", "Baboon"]), 1, "line", ["Hare"])
    return checked(acting(state))


def test_attract_several_cards_within_sun():
    """Attract takes cards one at a time while their total cost stays within the sun."""
    state = attract_state()
    assert state.totals(0)[0] == 6
    state = play(state, "0:attract Hedgehog")
    assert (state.step, state.budget) == (Step.ATTRACT, 3)
    assert names(state.legal_moves()) == ["0:attract Beaver", "0:attract Raven", "0:done"]
    state = play(state, "0:attract Raven")
    assert state.step is Step.CHOOSE  # 1 sun left buys nothing: the Attract is over
    assert state.decks[0][:2] == ids("Raven", "Hedgehog") and state.known[0] == 2
    assert state.taken == (2, 0, 0)


def test_attract_leaves_reserve_short_until_end_of_turn():
    """Cards taken are not replaced during the turn."""
    state = play(attract_state(), "0:attract Hedgehog")
    assert len(state.rows[0]) == 3
    assert "Hedgehog" not in state.reserve_row(1)


def test_attract_over_budget_is_illegal():
    """A card costing more than the sun left cannot be attracted."""
    state = play(attract_state(), "0:attract Hedgehog")
    before = state.to_dict()
    with pytest.raises(fg.IllegalMoveError, match="Lemur costs 5 sun, only 3"):
        play(state, "0:attract Lemur")
    assert state.to_dict() == before


def test_attract_done_ends_it_early():
    """'done' ends the Attract under way; the Spirit then goes on to its next action."""
    state = play(attract_state(), "0:attract Beaver", "0:done")
    assert state.step is Step.CHOOSE and state.actions == (1,)
    assert "0:attract Raven" not in names(state.legal_moves())


def test_card_not_in_reserve_row_is_illegal():
    """Only face-up reserve cards can be attracted."""
    state = attract_state()
    with pytest.raises(fg.IllegalMoveError, match="not face up"):
        play(state, "0:attract Eagle")


# ---------------------------------------------------------------------- Extinguish


def extinguish_state(water_cards=("Goldfish", "Hummingbird", "Lynx", "Bear")):
    """Seat 0 with 5 water (default); the centre holds fires 2, 3, 4."""
    state = start()
    state = put(put(state, 0, "line", list(water_cards)), 1, "line", ["Hare"])
    supply = state.fire_supply
    state = acting(
        state, centre=(2, 2, 3, 4), fire_supply=(supply[0] - 1, supply[1] - 1, supply[2] - 1)
    )
    return checked(state)


def test_extinguish_several_fires_within_water():
    """Extinguish takes fires while their total value stays within the water."""
    state = extinguish_state()
    assert state.totals(0)[1] == 5
    state = play(state, "0:extinguish 3")
    assert names(state.legal_moves()) == ["0:extinguish 2", "0:done"]
    state = play(state, "0:extinguish 2")
    assert state.centre == (2, 4) and state.step is Step.CHOOSE
    assert state.fires_held[0] == (1, 1, 0)


def test_each_fire_tile_counts_one_toward_the_goal():
    """A fire of value 4 and one of value 2 count 2 fires, not 6."""
    state = play(
        extinguish_state(("Goldfish", "Hummingbird", "Lynx", "Bear", "Fox")),
        "0:extinguish 4",
        "0:extinguish 2",
    )
    assert state.progress[0][1] == 1 + 2  # the Fire Victory tile and two tiles


def test_extinguish_over_budget_is_illegal():
    """A fire worth more than the water left cannot be taken."""
    state = play(extinguish_state(), "0:extinguish 3")
    with pytest.raises(fg.IllegalMoveError, match="value 4 needs 4 water, only 2"):
        play(state, "0:extinguish 4")


def test_extinguish_absent_value_is_illegal():
    """Only fire values present in the centre can be taken."""
    state = extinguish_state()
    state = checked(
        acting(
            state, centre=(2, 2, 4), fire_supply=state.fire_supply[:1] + (20, state.fire_supply[2])
        )
    )
    with pytest.raises(fg.IllegalMoveError, match="no fire of value 3"):
        play(state, "0:extinguish 3")


# ---------------------------------------------------------------------- Move


def move_state(rocks, line=("Hare", "Hare"), players=3):
    """Seat 0 on ``rocks[0]`` with the wind of ``line``; seat k on ``rocks[k]``."""
    state = start(players)
    state = put(state, 0, "line", [c for c in line if c != "Hare"])
    wind = sum(1 for c in line if c == "Hare")
    for seat in range(1, players):
        state = put(state, seat, "line", ["Hare"])
    state = acting(state, rocks=tuple(rocks))
    if wind:  # extra wind from trees 4A (+1): cheaper than hunting more wind cards
        cells = [". . . . .", ". . S . .", ". . . . ."]
        state = put(state, 0, "line", ["Hare"])
        trees = ["4A"] * (wind - 1)
        if trees:
            cells[1] = ". . S " + " ".join(trees + ["."] * (2 - len(trees)))
        state = with_seat(state, "forests", 0, forest(*cells))
    return checked(state)


def test_move_counts_free_rocks_and_skips_occupied_ones():
    """Rocks with Spirits are skipped and not counted; the mover takes a tile from each."""
    state = move_state((5, 6, 8), line=("Hare", "Hare", "Hare"))
    assert state.totals(0)[3] == 3
    assert state.game._move_path(state, 0, 2) == (9, (1, 2))
    state = play(state, "0:move 2")
    assert state.step is Step.VICTORY and state.rocks[0] == 9
    assert names(state.legal_moves()) == [
        "0:victory 1 tree",
        "0:victory 1 fire",
        "0:victory 1 flower",
    ]
    state = play(state, "0:victory 1 fire", "0:victory 2 tree")
    assert state.victory == ((2, 2, 1), (1, 0, 1), (0, 1, 1))


def test_move_arrival_bonus_fragment():
    """Arriving on a Fragment rock takes a Fragment at once (an extra action)."""
    state = play(move_state((0, 6, 10), line=("Hare",)), "0:move 1")
    assert state.rocks[0] == 1 and state.fragments[0] == 1 and state.actions == (3,)
    assert "0:fragment" in names(state.legal_moves())  # the bonus did not use the Fragment action


def test_move_arrival_bonus_attract():
    """Arriving on an Attract rock starts an extra Attract with the full sun."""
    state = move_state((1, 6, 10), line=("Hare", "Weasel"))
    state = checked(to_row(state, ["Raven"]))
    state = play(state, "0:move 1")
    assert state.rocks[0] == 2 and (state.step, state.budget, state.picks) == (Step.ATTRACT, 2, 0)
    assert "0:done" not in names(state.legal_moves())  # a bonus action takes something
    state = play(state, "0:attract Raven")
    assert state.decks[0][0] == CARD_INDEX["Raven"]


def test_move_arrival_bonus_extinguish():
    """Arriving on an Extinguish rock starts an extra Extinguish with the full water."""
    state = play(move_state((3, 6, 10), line=("Hare", "Goldfish")), "0:move 1")
    assert state.rocks[0] == 4 and state.step is Step.EXTINGUISH and state.budget == 2
    state = play(state, "0:extinguish 2")
    assert state.centre == () and state.fires_held[0] == (1, 0, 0)


def test_move_arrival_bonus_plant():
    """Arriving on a Plant rock starts an extra Plant with the full plant total."""
    state = play(move_state((11, 6, 10), line=("Hare", "Bear", "Boar")), "0:move 1")
    assert state.rocks[0] == 0 and state.step is Step.PLANT
    assert "0:done" not in names(state.legal_moves())
    state = play(state, "0:plant 3A@0,2")
    assert state.forests[0][2] == 1 and state.step is Step.CHOOSE


def test_move_bonus_that_can_do_nothing_is_lost():
    """A Move onto a rock whose bonus can do nothing stays legal; the bonus is lost."""
    state = move_state((3, 6, 10), line=("Hare",))  # no water: the Extinguish rock gives nothing
    state = play(state, "0:move 1")
    assert state.rocks[0] == 4 and state.step is Step.CHOOSE and state.fires_held[0] == (0, 0, 0)


def test_move_bonus_may_repeat_an_action_done():
    """The arrival bonus is extra: it may repeat the action already taken (Fragment)."""
    state = play(move_state((0, 6, 10), line=("Hare",)), "0:fragment", "0:move 1")
    assert state.fragments[0] == 2


def test_spirit_without_victory_tiles_gives_nothing():
    """Passing a Spirit that holds no Victory tile gives nothing and needs no choice."""
    state = move_state((5, 6, 10), line=("Hare",))
    state = checked(with_seat(with_seat(state, "victory", 1, (0, 0, 0)), "victory", 0, (2, 2, 2)))
    state = play(state, "0:move 1")
    assert state.rocks[0] == 7 and state.step is Step.CHOOSE and state.victory[0] == (2, 2, 2)


def test_victory_tile_of_mover_choice_among_held_kinds():
    """Only the kinds the passed Spirit holds are offered."""
    state = move_state((5, 6, 10), line=("Hare",))
    state = checked(with_seat(with_seat(state, "victory", 1, (0, 1, 0)), "victory", 0, (2, 1, 2)))
    state = play(state, "0:move 1")
    assert names(state.legal_moves()) == ["0:victory 1 fire"]


def test_move_steps_limited_by_wind_and_lap():
    """Moves go 1..wind rocks, never a full lap (at most 12 - players)."""
    state = move_state((0, 6, 10), line=("Hare", "Hare", "Hare"))
    assert [m for m in names(state.legal_moves()) if "move" in m] == [
        "0:move 1",
        "0:move 2",
        "0:move 3",
    ]
    with pytest.raises(fg.IllegalMoveError, match="1 to min"):
        play(state, "0:move 4")


# ---------------------------------------------------------------------- Plant


def plant_state(
    line=("Bear", "Boar", "Bee"), cells=(". . . . .", ". . S . .", ". . . . ."), **options
):
    """Seat 0 with the plant of ``line`` (default 5) and forest ``cells``."""
    state = start(**options)
    state = put(put(state, 0, "line", list(line)), 1, "line", ["Hare"])
    return checked(acting(with_seat(state, "forests", 0, forest(*cells))))


def test_plant_cost_and_adjacency():
    """Trees cost at most the plant total and go orthogonally next to a tree."""
    state = plant_state()
    plants = [m for m in names(state.legal_moves()) if "plant" in m]
    assert {m.split()[1].split("@")[0] for m in plants} == {"3A", "3B", "4A", "4B", "5A", "5B"}
    assert {m.split("@")[1] for m in plants} == {"0,2", "1,1", "1,3", "2,2"}


def test_plant_non_adjacent_is_illegal():
    """A tree diagonal to (or away from) every tree cannot be planted."""
    state = plant_state()
    before = state.to_dict()
    with pytest.raises(fg.IllegalMoveError, match="not orthogonally next to a tree"):
        play(state, "0:plant 3A@0,1")
    assert state.to_dict() == before


def test_plant_over_cost_is_illegal():
    """A tree costing more than the plant total cannot be planted."""
    with pytest.raises(fg.IllegalMoveError, match="costs 6 plant, only 5"):
        play(plant_state(), "0:plant 6@1,1")


def test_planted_tree_bonus_applies_to_second_action():
    """A tree's bonus counts at once: 5A (+2 sun) pays for a Lemur (5) the same turn."""
    state = plant_state(line=("Bear", "Boar", "Bee", "Weasel", "Tanuki"))  # sun 3, plant 5
    state = checked(to_row(state, ["Lemur"]))
    assert state.totals(0)[0] == 3 and "0:attract Lemur" not in names(state.legal_moves())
    state = play(state, "0:plant 5A@1,1")
    assert state.totals(0)[0] == 5 and "0:attract Lemur" in names(state.legal_moves())


def test_corner_top_left_extra_attract_with_three_sun():
    """Top-left corner: an immediate extra Attract with +3 sun, added after the floor at 0
    (Boar -2 sun, 3A +1: total -1 counts 0, budget 0 + 3)."""
    state = plant_state(cells=(". 3B . . .", ". 3B S . .", ". . . . ."))
    state = checked(to_row(state, ["Hedgehog"]))
    state = play(state, "0:plant 3A@0,0")
    assert (state.step, state.budget, state.picks) == (Step.ATTRACT, 3, 0)
    assert state.actions == (4,)
    state = play(state, "0:attract Hedgehog")
    assert state.decks[0][0] == CARD_INDEX["Hedgehog"]


@pytest.mark.parametrize("cell,cells", [
    ("0,4", (". . . 3B .", ". . S 3B .", ". . . . .")),
    ("2,0", (". . . . .", ". 3B S . .", ". 3B . . .")),
])  # fmt: skip
def test_corner_fragment_corners_give_two_fragments(cell, cells):
    """Top-right and bottom-left corners give 2 Fragments."""
    state = play(plant_state(cells=cells), f"0:plant 3A@{cell}")
    assert state.fragments[0] == 2 and state.fragment_supply == 18


def test_corner_fragments_limited_by_supply():
    """With one Fragment left in the supply, a Fragment corner gives one."""
    state = with_seat(
        plant_state(cells=(". . . 3B .", ". . S 3B .", ". . . . .")), "fragments", 1, 19
    )
    state = play(checked(state), "0:plant 3A@0,4")
    assert state.fragments[0] == 1 and state.fragment_supply == 0


def test_corner_bottom_right_extra_extinguish_with_two_water():
    """Bottom-right corner: an immediate extra Extinguish with +2 water."""
    state = plant_state(cells=(". . . . .", ". . S 3A .", ". . . 3A ."))
    state = play(state, "0:plant 4A@2,4")  # Bear 1 water + 2
    assert (state.step, state.budget) == (Step.EXTINGUISH, 3)
    state = play(state, "0:extinguish 2")
    assert state.fires_held[0] == (1, 0, 0)


@pytest.mark.parametrize("cells,plant,element,gain", [
    ((". 3B . . .", ". 3B S . .", ". . . . ."), "2,1", 1, 1),      # column 1: +1 water
    ((". . 3B . .", ". . S . .", ". . . . ."), "2,2", 0, 1 + 1),   # column 2: +1 sun (+1 3A)
    ((". . . 3B .", ". . S 3B .", ". . . . ."), "2,3", 3, 1),      # column 3: +1 wind
    ((". . . . .", "3B 3B S 4A .", ". . . . ."), "1,4", 4, 2),     # row 1: +2 flowers
])  # fmt: skip
def test_line_bonuses(cells, plant, element, gain):
    """Completing a column or the middle row adds its permanent bonus at once."""
    state = plant_state(line=("Bear", "Owl", "Bee"), cells=cells)
    before = state.totals(0)[element]
    state = play(state, f"0:plant 3A@{plant}")
    assert state.totals(0)[element] - before == gain


def test_line_bonus_pays_for_second_action():
    """Completing column 1 (+1 water) lets the second action extinguish a 2 with 1 water card."""
    state = plant_state(
        line=("Bear", "Boar", "Bee"), cells=(". 3A . . .", ". 3A S . .", ". . . . .")
    )
    state = checked(
        acting(
            state,
            centre=(3,),
            fire_supply=(state.fire_supply[0] + 1, state.fire_supply[1] - 1, state.fire_supply[2]),
        )
    )
    assert "0:extinguish 3" not in names(state.legal_moves())  # water 1
    state = play(state, "0:plant 3B@2,1")  # 3B +1 water, column 1 +1 water
    assert state.totals(0)[1] == 3 and "0:extinguish 3" in names(state.legal_moves())


def test_second_copy_of_a_tree_allowed_by_default():
    """duplicate_trees=True: a type already in the forest may be planted again."""
    state = plant_state(cells=(". . . . .", ". 3A S . .", ". . . . ."))
    assert "0:plant 3A@1,3" in names(state.legal_moves())


def test_second_copy_of_a_tree_refused_with_option():
    """duplicate_trees=False: a type already in the forest is not offered."""
    state = plant_state(cells=(". . . . .", ". 3A S . .", ". . . . ."), duplicate_trees=False)
    assert "0:plant 3A@1,3" not in names(state.legal_moves())
    with pytest.raises(fg.IllegalMoveError, match="already has a tree 3A"):
        play(state, "0:plant 3A@1,3")


def test_tree_supply_runs_out():
    """When every copy of a type is planted, it is no longer offered."""
    state = plant_state(cells=(". . . . .", ". 3A S . .", ". . . . ."))
    state = checked(with_seat(state, "forests", 1, forest(". . . . .", ". 3A S . .", ". . . . .")))
    assert "0:plant 3A@1,3" not in names(state.legal_moves())
    with pytest.raises(fg.IllegalMoveError, match="no tree 3A left"):
        play(state, "0:plant 3A@1,3")


# ---------------------------------------------------------------------- edge cases


def test_starting_tree_gives_no_element_but_counts_and_neighbours():
    """The starting tree adds no element or line bonus, counts as a tree, and is a neighbour."""
    state = start()
    assert fg.living_forest.forest_bonus(state.forests[0]) == (0, 0, 0, 0, 0)
    assert state.progress[0][0] == 1 + 1  # the starting tree and the Tree Victory tile
    spots = {m.split("@")[1] for m in names(plant_state().legal_moves()) if "plant" in m}
    assert spots == {"0,2", "1,1", "1,3", "2,2"}  # the start tree's four neighbours


def test_negative_flowers_count_zero():
    """A Help Line with flower -1 (Tanuki) gives 0 flowers, not -1, toward the goal."""
    state = checked(actions_state(["Tanuki"], ["Hare"]))
    assert state.totals(0)[4] == 0 and state.progress[0][2] == 1


def test_actions_that_can_do_nothing_are_not_offered():
    """Flowers only: no sun, water, wind or plant, so only Fragment (and done) are offered."""
    state = checked(actions_state(["Fawn"], ["Hare"]))
    assert names(state.legal_moves()) == ["0:fragment", "0:done"]


def test_plant_not_offered_in_a_full_forest():
    """With no empty cell next to a tree, Plant is not offered even with plant to spare."""
    full = ("3A 3B 4A 4B 5A", "5B 6 S 7 8", "9 10 11 3A 3B")
    state = plant_state(line=("Bear", "Boar", "Bee", "Hare"), cells=full)
    assert not [m for m in names(state.legal_moves()) if "plant" in m]


# ====================================================================================== end of turn


def last_actor(line0, line1, centre=(2, 2), sacred=0, **changes):
    """2 Spirits at the end of the Action phase: the last seat in turn order is to act."""
    state = start()
    state = put(put(state, 0, "line", line0), 1, "line", line1)
    supply = list(state.fire_supply)
    supply[0] += 1  # the starting fire goes back, then the wanted centre comes out
    for value in centre:
        supply[value - 2] -= 1
    state = acting(state, seat_index=1, sacred=sacred, centre=tuple(sorted(centre)),
                   fire_supply=tuple(supply), **changes)  # fmt: skip
    return checked(state)


def end_turn(state):
    """The last seat ends its actions."""
    return play(state, f"{state.current_player}:done")


def test_onibi_example_two_tiles_strength_four():
    """Rulebook example: fires 2 + 2 (strength 4); water 2 and water 1 each get 2 Varans."""
    state = last_actor(["Goldfish"], ["Hummingbird", "Hare"])
    assert state.totals(0)[1] == 2 and state.totals(1)[1] == 1
    after = end_turn(state)
    assert after.discards[0].count(VARAN) == 2 and after.discards[1].count(VARAN) == 2
    assert after.varans == 23 - 4


def test_onibi_spares_water_equal_to_strength():
    """Only water strictly below the fire strength is attacked."""
    state = last_actor(["Goldfish", "Hummingbird", "Lynx"], ["Hare"])
    assert state.totals(0)[1] == 4
    after = end_turn(state)
    assert VARAN not in after.discards[0] and after.discards[1].count(VARAN) == 2


def test_onibi_one_varan_per_fire_tile_not_per_value():
    """Three fires (2, 3, 4) give 3 Varans to each Spirit hit."""
    after = end_turn(last_actor(["Hare"], ["Hare"], centre=(2, 3, 4)))
    assert after.discards[0].count(VARAN) == 3 and after.discards[1].count(VARAN) == 3


def _short_of_varans(sacred):
    state = last_actor(["Hare"], ["Hare"], sacred=sacred)
    return checked(put(state, 1 - state.current_player, "discard", ["FireVaran"] * 20))


def test_varan_shortage_dealt_in_turn_order():
    """3 Varans for 2 Spirits due 2 each: one at a time from the Sacred Tree holder (2, 1)."""
    state = _short_of_varans(sacred=0)
    before = [state.discards[s].count(VARAN) for s in (0, 1)]
    after = end_turn(state)
    gained = [after.discards[s].count(VARAN) - before[s] for s in (0, 1)]
    assert gained == [2, 1] and after.varans == 0


def test_varan_shortage_starts_with_sacred_tree_holder():
    """With seat 1 holding the Sacred Tree, seat 1 gets the extra Varan."""
    state = _short_of_varans(sacred=1)
    before = [state.discards[s].count(VARAN) for s in (0, 1)]
    after = end_turn(state)
    assert [after.discards[s].count(VARAN) - before[s] for s in (0, 1)] == [1, 2]


def test_no_varans_left_nothing_happens():
    """With the Varan stack empty Onibi's attack gives nothing."""
    state = last_actor(["Hare"], ["Hare"])
    state = checked(put(state, 0, "discard", ["FireVaran"] * 23))
    after = end_turn(state)
    assert after.discards[0].count(VARAN) == 23 and VARAN not in after.discards[1]


def _taken(state, level_names):
    """``state`` as if seat 0 had attracted the face-up cards ``level_names`` this turn."""
    from forestgames.living_forest._tables import CARD_INDEX, CARD_LEVEL

    state = to_row(state, level_names)
    taken = list(state.taken)
    for name in level_names:
        taken[CARD_LEVEL[CARD_INDEX[name]] - 1] += 1
    state = put(state, 0, "deck", level_names)
    return attrs.evolve(
        state,
        taken=tuple(taken),
        known=(state.known[0] + len(level_names), *state.known[1:]),
        rows=tuple(tuple(c for c in row if c not in state.decks[0]) for row in state.rows),
    )


def test_fires_added_by_levels_of_cards_taken():
    """Cards of level I, II, III taken add fires 2, 3, 4 (the centre had one 2 left)."""
    state = checked(
        _taken(last_actor(["Hare"], ["Hare"], centre=(2,)), ["Hedgehog", "Woodpecker", "Cricket"])
    )
    after = end_turn(state)
    assert after.centre == (2, 2, 3, 4)
    assert after.fire_supply == tuple(x - 1 for x in state.fire_supply)


def test_fires_never_above_seven_level_order_first():
    """With 5 fires, I/II/III taken add 2 then 3; the 4 would be an eighth and is not added."""
    state = checked(
        _taken(
            last_actor(["Hare"], ["Hare"], centre=(2, 2, 3, 3, 4)),
            ["Hedgehog", "Woodpecker", "Cricket"],
        )
    )
    after = end_turn(state)
    assert after.centre == (2, 2, 2, 3, 3, 3, 4)
    assert after.fire_supply == (
        state.fire_supply[0] - 1,
        state.fire_supply[1] - 1,
        state.fire_supply[2],
    )


def test_seven_fire_cap_holds_with_many_cards_taken():
    """Seven fires in the centre stay seven whatever was taken."""
    state = checked(
        _taken(last_actor(["Hare"], ["Hare"], centre=(2, 2, 2, 3, 3, 3, 4)), ["Hedgehog", "Raven"])
    )
    after = end_turn(state)
    assert len(after.centre) == 7 and after.fire_supply == state.fire_supply


def test_empty_centre_gets_a_fire_of_two():
    """If the centre is empty after Onibi's attack on the Sacred Tree, one fire 2 is added."""
    state = last_actor(["Hare"], ["Hare"], centre=())
    after = end_turn(state)
    assert after.centre == (2,) and after.fire_supply[0] == state.fire_supply[0] - 1
    assert VARAN not in after.discards[0] + after.discards[1]  # no fire, no attack


def test_fire_supply_exhausted_fire_not_added():
    """With no fire of value 3 left (10 held by each seat: 11 fires, short of the goal, so the
    turn really ends), a level II card adds nothing."""
    state = _taken(last_actor(["Hare"], ["Hare"], centre=(2,)), ["Woodpecker"])
    assert state.fire_supply[1] == 20
    state = checked(attrs.evolve(state, fire_supply=(state.fire_supply[0], 0, state.fire_supply[2]),
                                 fires_held=((0, 10, 0), (0, 10, 0))))  # fmt: skip
    after = end_turn(state)
    assert not after.is_terminal and after.turn == 2
    assert after.centre == (2,) and after.fire_supply[1] == 0


def test_reserve_refilled_lines_discarded_sacred_tree_passes():
    """End of turn refills each reserve row to 4, moves Help Lines to discards, passes the Tree."""
    state = checked(_taken(last_actor(["Hare", "Bee"], ["Fawn"]), ["Hedgehog"]))
    assert len(state.rows[0]) == 3
    after = end_turn(state)
    assert len(after.rows[0]) == 4 and len(after.stacks[0]) == len(state.stacks[0]) - 1
    assert after.lines == ((), ())
    assert set(state.lines[0]) <= set(after.discards[0]) and set(state.lines[1]) <= set(
        after.discards[1]
    )
    assert (after.phase, after.turn, after.sacred, after.current_player) == (
        Phase.GUARDIANS,
        2,
        1,
        1,
    )
    assert after.taken == (0, 0, 0)


def test_reserve_row_stays_short_when_stack_is_empty():
    """A reserve row that cannot be refilled stays short."""
    state = last_actor(["Hare"], ["Hare"])
    state = put(state, 1, "discard", [_name(c) for c in state.stacks[2]])
    state = checked(_taken(state, [_name(state.rows[2][0])]))
    after = end_turn(state)
    assert len(after.rows[2]) == 3 and after.stacks[2] == ()


def _name(card):
    from forestgames.living_forest._tables import CARD_NAMES

    return CARD_NAMES[card]


def test_full_turn_by_real_moves():
    """A whole 2-player turn by moves: both reveal, act, and the next turn starts with seat 1."""
    state = play(start(), "0:reveal", "0:stop", "1:reveal", "1:stop")
    assert state.phase is Phase.ACTIONS
    while state.phase is Phase.ACTIONS:
        state = state.apply(state.legal_moves()[-1])  # always 'done'
    assert state.turn == 2 and state.current_player == 1


# ================================================================================= notation, tables


MOVES = [
    (mv.Reveal(0), "0:reveal"),
    (mv.SpendFragment(1, "FireVaran"), "1:spend FireVaran"),
    (mv.Stop(2), "2:stop"),
    (mv.TakeFragment(3), "3:fragment"),
    (mv.Attract(0, "HornedOwl"), "0:attract HornedOwl"),
    (mv.Extinguish(1, 4), "1:extinguish 4"),
    (mv.MoveSpirit(2, 10), "2:move 10"),
    (mv.TakeVictory(0, 3, "flower"), "0:victory 3 flower"),
    (mv.Plant(1, "11", (2, 4)), "1:plant 11@2,4"),
    (mv.Done(0), "0:done"),
]


@pytest.mark.parametrize("move,text", MOVES, ids=[m[1] for m in MOVES])
def test_notation_round_trip(move, text):
    """str(move) is the documented notation, parse_move reads it back, repr evaluates back."""
    assert str(move) == text
    assert fg.make("living_forest").parse_move(text) == move
    assert fg.make("living_forest").parse_move(f"  {text}\n") == move
    assert eval(repr(move), vars(mv)) == move


def test_plant_accepts_list_coordinates():
    """Plant(at=[r, c]) is the same move as at=(r, c)."""
    assert mv.Plant(0, "3A", [1, 3]) == mv.Plant(0, "3A", (1, 3))


def test_card_data_is_package_data():
    """The card CSV ships inside the package and is what the tables were built from."""
    text = (
        resources.files("forestgames.living_forest")
        .joinpath("data/living_forest_cards.csv")
        .read_text(encoding="utf-8")
    )
    assert text.count("\n") == 1 + len(t.CARD_NAMES)


def test_card_counts_by_level():
    """14 start cards (5 solitary, no gregarious), reserve levels of 23/16/12, one Varan type."""
    assert len(t.START_DECK) == 14
    assert sum(t.CARD_SYMBOL[c] == 1 for c in t.START_DECK) == 5
    assert all(t.CARD_SYMBOL[c] != -1 for c in t.START_DECK)
    assert [len(t.LEVEL_CARDS[level]) for level in (1, 2, 3)] == [23, 16, 12]
    assert t.CARD_LEVEL[t.VARAN] == 4 and t.CARD_ELEMENTS[t.VARAN] == (0, 0, 0, 0, 0)
    assert t.CARD_SYMBOL[t.VARAN] == 1


def test_card_rows_transcribed():
    """Spot checks of the CSV: costs, elements and symbols land in the right fields."""
    c = t.CARD_INDEX
    assert t.CARD_COST[c["Bison"]] == 11 and t.CARD_ELEMENTS[c["Bison"]] == (6, 0, 1, 0, 0)
    assert t.CARD_ELEMENTS[c["Axolotl"]] == (0, 1, -1, 1, 1)
    assert t.CARD_SYMBOL[c["Stag"]] == -1 and t.CARD_SYMBOL[c["Tapir"]] == 1
    assert t.CARD_ELEMENTS[c["Tanuki"]] == (3, 0, 0, 0, -1)


def test_tree_table():
    """Tree costs, bonuses and copies per player count follow the rules page."""
    assert t.TREE_COST[t.TREE_INDEX["9"]] == 9
    assert t.TREE_BONUS[t.TREE_INDEX["10"]] == (4, 0, 0, 0, 0)
    assert t.TREE_BONUS[t.TREE_INDEX["8"]] == (0, 3, 0, 0, 0)
    assert t.TREE_BONUS[t.TREE_INDEX["5B"]] == (0, 0, 1, 0, 0)
    copies = {"3A": (2, 3, 4), "5B": (2, 3, 4), "6": (2, 3, 3), "8": (2, 3, 3), "9": (2, 2, 2)}
    for tree, counts in copies.items():
        assert tuple(t.TREE_COPIES[p][t.TREE_INDEX[tree]] for p in (2, 3, 4)) == counts
    assert [sum(t.TREE_COPIES[p]) for p in (2, 3, 4)] == [24, 33, 39]


def test_circle_and_start_rocks():
    """Rock bonuses repeat Plant, Fragment, Attract, Fragment, Extinguish, Fragment twice."""
    names = [t.ACTIONS[a] for a in t.ROCK_BONUS]
    assert names[:6] == ["plant", "fragment", "attract", "fragment", "extinguish", "fragment"]
    assert names[6:] == names[:6]


@pytest.mark.parametrize("players,rocks", [(2, (0, 6)), (3, (2, 6, 10)), (4, (0, 6, 9, 3))])
def test_start_rocks_in_turn_order(players, rocks):
    """Spirits start on the rules page's rocks, in turn order from the first player."""
    state = fg.make("living_forest", num_players=players).new_game(seed=1, first_player=1)
    assert tuple(state.rocks[(1 + k) % players] for k in range(players)) == rocks


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_components(players):
    """A new game: 14-card decks, 4 face-up cards per level, one fire 2, 23 Varans, full supply."""
    state = fg.make("living_forest", num_players=players).new_game(seed=9)
    assert all(len(d) == 14 for d in state.decks)
    assert [len(r) for r in state.rows] == [4, 4, 4] and [len(s) for s in state.stacks] == [
        19,
        12,
        8,
    ]
    assert state.centre == (2,) and state.fire_supply == (19, 20, 18)
    assert state.varans == 23 and state.fragment_supply == 20
    assert state.victory == ((1, 1, 1),) * players
    assert all(f[7] == 0 and sum(x >= 0 for x in f) == 1 for f in state.forests)


def test_fire_tiles_option_sets_the_supply():
    """fire_tiles=(a, b, c) is the supply (less the first fire of value 2)."""
    state = fg.make("living_forest", fire_tiles=(5, 6, 7)).new_game(seed=1)
    assert state.fire_supply == (4, 6, 7)


def test_same_seed_same_game_other_seed_other_deal():
    """A seed fixes the deal and the start seat; another seed deals otherwise."""
    game = fg.make("living_forest", num_players=3)
    assert game.new_game(seed=5) == game.new_game(seed=5)
    assert game.new_game(seed=5).decks != game.new_game(seed=6).decks


def test_the_game_shuffle_is_the_standard_one():
    """The game's shuffle deals exactly as random.Random.shuffle, for any length and seed."""
    import random

    from forestgames.living_forest.rules import shuffle

    for seed in range(200):
        for length in (0, 1, 2, 5, 14, 23):
            ours, theirs = list(range(length)), list(range(length))
            a, b = random.Random(seed), random.Random(seed)
            shuffle(ours, a)
            b.shuffle(theirs)
            assert ours == theirs and a.getrandbits(32) == b.getrandbits(32)
