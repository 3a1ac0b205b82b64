"""The Action phase: how many actions, and each of the five actions."""

import pytest

import forestgames as fg
from forestgames.living_forest._tables import CARD_INDEX
from forestgames.living_forest.state import Step
from tests.living_forest.helpers import (
    acting,
    checked,
    forest,
    ids,
    names,
    play,
    put,
    start,
    to_row,
    with_seat,
)


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
    assert state.game.action_limit(state, 0) == 1
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
    assert state.game.move_path(state, 0, 2) == (9, (1, 2))
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
