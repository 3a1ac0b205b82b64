"""Living Forest's agent heuristic (``forestgames/living_forest/heuristic.py``; docs/simulation.md,
"Game heuristics"): this turn's potential (the action under way, the gains of the actions
still to come) and the value of a finished game, which a mutation audit found unpinned.

Card values are worked from the card table: elements weigh (sun, water, plant, wind, flower)
= (0.12, 0.2, 0.2, 0.08, 0.25), a gregarious symbol +0.35, a solitary one -0.35; a tree's
bonus counts four times a card's elements. Progress toward a goal is x + x**2/12.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import forestgames as fg
from forestgames.agents import evaluate_moves
from forestgames.living_forest import heuristic
from forestgames.living_forest.state import Phase, Step
from tests.living_forest.helpers import (
    acting,
    checked,
    forest,
    ids,
    play,
    put,
    start,
    to_row,
    with_seat,
)
from tests.living_forest.test_rules import move_state
from tests.strategies import final_state

ROW_II = ("Woodpecker", "Rhinoceros", "Salamander", "Frog")
EXPENSIVE = (ids(*ROW_II), ids("Cricket", "Panther"))
"""Face-up rows II and III no budget below 6 sun can pay for (6 each; 11 and 10)."""


def _rows(*level_one: str) -> tuple[tuple[int, ...], ...]:
    """Face-up rows: ``level_one`` in row I, rows II and III out of reach (EXPENSIVE)."""
    return (ids(*level_one), *EXPENSIVE)


def test_a_new_games_spirit_is_worth_its_progress_cards_and_forest_less_onibis_threat() -> None:
    """A new game's Spirit (Guardian phase, empty Help Line, the starting tree alone): trees
    1 + 1 tile, 2 + 4/12; fires and flowers 1 tile each, 1 + 1/12 twice; its 14 start cards
    Bear 0.25, Beetle 0.21, Lynx 0.29, Fox 0.30, Goldfish 0.2, Tanuki 0.11, Boar 0.16, Weasel
    0.24, Hare 0.08, Fawn 0.25, Hummingbird 0.2, Bee 0.2, Baboon 0.12, Owl 0.13: 2.74; no
    forest bonus, no Fragment; potential 0.6 * 0.4 (a Fragment, nothing else with no
    element); the centre's fire of 2 against no water: -0.5. In all 6.98. A 3B planted next
    to the starting tree adds its water to the forest's permanent elements, four times a
    card's (4 * 0.2 = 0.8), and a tree type, (3 + 9/12) - (2 + 4/12) = 17/12; 1 water still
    puts out no fire."""
    state = start()
    assert heuristic.seat_value(state, 0) == pytest.approx(6.98)
    planted = with_seat(state, "forests", 0, forest(". . . . .", ". 3B S . .", ". . . . ."))
    gained = heuristic.seat_value(checked(planted), 0) - heuristic.seat_value(state, 0)
    assert gained == pytest.approx(0.8 + 17 / 12)


def test_attract_gain_takes_the_best_value_per_sun_first_within_the_sun() -> None:
    """Cards to attract count by value, the best value per sun first, while the sun lasts:
    Spider (cost 1; sun 2, plant 4, solitary: 0.24 + 0.8 - 0.35 = 0.69 a sun), Hippopotamus
    (2; sun 1, water 4, plant 1, solitary: 0.77, 0.385 a sun), Beaver (2; water 1, plant 1:
    0.4, 0.2 a sun), Ram (5; flower 2: 0.5, 0.1 a sun). 5 sun: Spider, Hippopotamus, Beaver
    (1 + 2 + 2), 1.86, not the dearer Ram. 3 sun: Spider, then Hippopotamus with the 2 left,
    1.46. 2 sun with Spider and Hippopotamus: Spider first (per sun), 0.69; Hippopotamus alone
    costs all 2, 0.77. A card of negative value (Toucan, 4: sun -2, water -1, gregarious:
    -0.24 - 0.2 + 0.35 = -0.09) is never taken: 0 with 4 sun."""
    gain = heuristic._attract_gain
    row = ("Spider", "Hippopotamus", "Beaver", "Ram")
    assert gain(_rows(*row), 5) == pytest.approx(0.69 + 0.77 + 0.4)
    assert gain(_rows(*row), 3) == pytest.approx(0.69 + 0.77)
    assert gain(_rows("Spider", "Hippopotamus", "Ram", "Wolf"), 2) == pytest.approx(0.69)
    assert gain(_rows("Hippopotamus", "Ram", "Wolf", "Lemur"), 2) == pytest.approx(0.77)
    assert gain(_rows("Toucan", "Chimpanzee", "Butterfly", "Ram"), 4) == 0.0
    assert gain(_rows(*row), 0) == 0.0


def _fire_holder() -> Any:
    """A new 2-player game, seat 0 holding a fire of value 2 and the Victory tiles 2 trees,
    1 fire, no flower (seat 1 the rest: none, 1, 2): 2 fires toward its goal."""
    state = start()
    state = attrs.evolve(
        state,
        centre=(2, 3, 4),
        fire_supply=(18, 19, 17),
        fires_held=((1, 0, 0), (0, 0, 0)),
        victory=((2, 1, 0), (0, 1, 2)),
    )
    return checked(state)


def test_extinguish_gain_puts_out_the_smallest_fires_first_each_a_step_toward_the_goal() -> None:
    """Fires water can put out count as steps of the fire goal, smallest first: seat 0 has
    2 fires (1 held + 1 Fire tile); with 5 water it puts out the 2 and the 3 (the 3 takes
    exactly the water left) and goes from 2 to 4 fires, (4 + 16/12) - (2 + 4/12) = 3; with 9
    all three, to 5, (5 + 25/12) - (2 + 4/12) = 4.75; with 6 the 4 is past the 1 left: 3;
    with 1 not even the 2: 0."""
    state = _fire_holder()
    gain = heuristic._extinguish_gain
    assert gain(state, 0, 5) == pytest.approx(3.0)
    assert gain(state, 0, 9) == pytest.approx(4.75)
    assert gain(state, 0, 6) == pytest.approx(3.0)
    assert gain(state, 0, 1) == 0.0


def test_plant_gain_is_the_best_tree_the_plant_pays_for() -> None:
    """The best tree plant can pay for: a new type's step toward the tree goal plus its bonus.
    Seat 0 has 3 trees (the starting tree + 2 Tree tiles): a new type is (4 + 16/12) -
    (3 + 9/12) = 19/12. Plant 2 pays for nothing (the cheapest tree costs 3); 3 for 3B
    (water: 4 * 0.2 = 0.8) over 3A (sun: 0.48); 8 for 8 (water 3: 2.4), the costliest it
    reaches, over 6 (water 2, 1.6)."""
    state = _fire_holder()
    gain = heuristic._plant_gain
    step = 19 / 12
    assert gain(state, 0, 2) == 0.0
    assert gain(state, 0, 3) == pytest.approx(step + 0.8)
    assert gain(state, 0, 8) == pytest.approx(step + 2.4)


def test_plant_gain_counts_only_the_trees_left_in_the_supply() -> None:
    """2 players have 2 copies of each tree type. Seat 1 planted one 3B: one is left, and
    plant 3 still takes it (19/12 + 0.8); both 3B: seat 0 falls back on 3A (19/12 + 0.48);
    both 3A: 3B as ever (19/12 + 0.8); both 3B and both 3A: nothing costs 3, 0."""
    state = _fire_holder()
    gain = heuristic._plant_gain
    one = with_seat(state, "forests", 1, forest(". . . . .", ". 3B S . .", ". . . . ."))
    both = with_seat(state, "forests", 1, forest(". . . . .", ". 3B S 3B .", ". . . . ."))
    no_3a = with_seat(state, "forests", 1, forest(". . 3A . .", ". . S . .", ". . 3A . ."))
    four = with_seat(state, "forests", 1, forest(". . 3A . .", ". 3B S 3B .", ". . 3A . ."))
    assert gain(checked(one), 0, 3) == pytest.approx(19 / 12 + 0.8)
    assert gain(checked(both), 0, 3) == pytest.approx(19 / 12 + 0.48)
    assert gain(checked(no_3a), 0, 3) == pytest.approx(19 / 12 + 0.8)
    assert gain(checked(four), 0, 3) == 0.0


def test_plant_gain_of_a_type_owned_is_its_bonus_alone_and_none_without_duplicates() -> None:
    """Seat 0 owns a 3A and a 3B (5 trees: 3 types + 2 tiles). With duplicates allowed (the
    default) plant 3 buys another 3B: its bonus 0.8 and no step. With ``duplicate_trees=False``
    it buys nothing with 3, and with 4 the new 4B: (6 + 36/12) - (5 + 25/12) = 23/12 plus its
    flower (0.25 * 4 = 1)."""
    cells = forest(". . . . .", ". 3A S 3B .", ". . . . .")
    for duplicates, gains in ((True, {3: 0.8}), (False, {3: 0.0, 4: 23 / 12 + 1.0})):
        state = start(duplicate_trees=duplicates)
        state = attrs.evolve(state, victory=((2, 1, 0), (0, 1, 2)))
        state = checked(with_seat(state, "forests", 0, cells))
        for plant, value in gains.items():
            assert heuristic._plant_gain(state, 0, plant) == pytest.approx(value)


def test_plant_gain_is_nothing_without_a_free_cell() -> None:
    """A forest with every cell planted leaves no place for a tree: 0 however much plant."""
    cells = forest("3A 3A 3B 3B 4A", "4A 4B S 4B 5A", "5A 5B 5B 6 6")
    state = checked(with_seat(start(), "forests", 0, cells))
    assert heuristic._plant_gain(state, 0, 11) == 0.0


def _sunny() -> Any:
    """2 players, seat 0 acting with Beetle and Weasel (sun 3 + 2 = 5, plant 1), row I
    Spider, Hippopotamus, Beaver, Toucan (rows II and III cost 6 and more)."""
    state = put(start(), 0, "line", ["Beetle", "Weasel"])
    state = to_row(state, ["Spider", "Hippopotamus", "Beaver", "Toucan"])
    state = to_row(state, ROW_II)
    return checked(acting(state))


def _attracting(*before: str) -> Any:
    """:func:`_sunny` after the moves ``before`` and the Beaver (2) attracted: 3 sun left,
    the Attract under way."""
    state = play(_sunny(), *before, "0:attract Beaver")
    assert (state.step, state.budget, state.current_player) == (Step.ATTRACT, 3, 0)
    return state


def test_the_action_under_way_counts_with_its_budget() -> None:
    """docs/simulation.md: an Attract, Extinguish or Plant under way counts in full. Attract
    with 3 sun left over Spider, Hippopotamus, Toucan: 0.69 + 0.77 = 1.46. Extinguish (Goldfish,
    Hummingbird, Lynx: water 4; centre 2, 2) after putting out a 2, 2 water left: the other 2,
    seat 0 from 2 to 3 fires (the one held and its Fire tile), 17/12. A rock's bonus Plant
    (3 players, Bear and Boar: plant 4) with only the starting tree and a Tree tile: 4B, new
    (3 + 9/12 - 2 - 4/12 = 17/12) plus its flower 1. A Move that passed two Spirits: 2 for
    each Victory tile still to take, 4, then 2. Choosing the next action: nothing under way."""
    under_way = heuristic._under_way

    def value(state: Any) -> float:
        return under_way(state, 0, state.totals(0), state.rows)

    assert value(_attracting()) == pytest.approx(1.46)
    state = put(start(), 0, "line", ["Goldfish", "Hummingbird", "Lynx"])
    state = checked(acting(attrs.evolve(state, centre=(2, 2), fire_supply=(18, 20, 18))))
    state = play(state, "0:extinguish 2")
    assert (state.step, state.budget, state.centre) == (Step.EXTINGUISH, 2, (2,))
    assert value(state) == pytest.approx(17 / 12)
    state = play(move_state((11, 6, 10), line=("Hare", "Bear", "Boar")), "0:move 1")
    assert state.step is Step.PLANT and state.totals(0)[2] == 4
    assert value(state) == pytest.approx(17 / 12 + 1.0)
    state = play(move_state((5, 6, 8), line=("Hare", "Hare", "Hare")), "0:move 2")
    assert state.step is Step.VICTORY and state.passed == (1, 2)
    assert value(state) == 4.0
    assert value(play(state, "0:victory 1 tree")) == 2.0
    assert value(acting(start())) == 0.0


def test_the_potential_adds_the_action_under_way_for_the_acting_seat_only() -> None:
    """Seat 0, attracting (3 sun left, one action to come), has its Attract under way (1.46)
    plus 0.6 times its best next action: attracting with all its 5 sun over Spider,
    Hippopotamus, Toucan (1.46) beats a Fragment (0.4): 1.46 * 1.6 = 2.336. Seat 1, waiting
    with nothing in its Help Line and its 2 actions to come, has no action under way: 0.6
    times its two best, a Fragment and nothing, 0.24. Had seat 0 taken a Fragment first, its
    Attract would be its second and last action: the Attract alone, 1.46."""
    potential = heuristic._potential

    def value(state: Any, seat: int) -> float:
        return potential(state, seat, state.lines[seat], state.totals(seat), state.rows)

    state = _attracting()
    assert value(state, 0) == pytest.approx(1.46 * 1.6)
    assert value(state, 1) == pytest.approx(0.24)
    assert value(_attracting("0:fragment"), 0) == pytest.approx(1.46)


def test_the_potential_counts_the_best_gains_one_per_action_to_come() -> None:
    """In the Guardian phase, a Spirit with a Hare (1 wind) could Move (0.5) or take a
    Fragment (0.4), nothing else (no sun, water, plant): 0.6 * (0.5 + 0.4) = 0.54 for its 2
    actions; with the 20 Fragments all taken (12 and 8), only the Move: 0.3; with three
    solitary symbols more (Bear, Beetle, Lynx; sun, water and plant none of which pays for
    anything here) one action: the best, 0.6 * 0.5 = 0.3."""
    state = put(start(), 0, "line", ["Hare"])
    assert state.phase is Phase.GUARDIANS

    def value(state: Any) -> float:
        return heuristic._potential(state, 0, state.lines[0], state.totals(0), ((), (), ()))

    assert value(checked(state)) == pytest.approx(0.54)
    assert value(checked(attrs.evolve(state, fragments=(12, 8)))) == pytest.approx(0.3)
    assert value(checked(acting(put(state, 0, "line", ["FireVaran"] * 3)))) == pytest.approx(0.3)


def test_a_finished_game_adds_forty_for_each_winner() -> None:
    """Once the game is over, each winner's value has WIN_BONUS (40) more. A random 2-player
    game (seed 2) ends won by seat 0 alone (12 fires); with 12 more Tree tiles seat 1 (3 trees,
    sum 7 against seat 0's 16) becomes a candidate of sum 19 and wins alone: seat 0 loses its
    40, nothing else of its own changed; seat 1 gains 40 and 12 steps of the tree goal,
    (15 + 225/12) - (3 + 9/12) = 30."""
    state = final_state(fg.make("living_forest"), 2)
    assert state.phase is Phase.OVER and state.winners == (0,)
    assert state.progress[1][0] == 3
    tiles = state.victory[1]
    turned = attrs.evolve(state, victory=(state.victory[0], (tiles[0] + 12, *tiles[1:])))
    assert turned.winners == (1,)
    value = heuristic.seat_value
    assert value(state, 0) - value(turned, 0) == pytest.approx(40.0)
    assert value(turned, 1) - value(state, 1) == pytest.approx(40.0 + 30.0)


def test_greedy_values_an_attract_once_finished_the_best_margin_each_step() -> None:
    """docs/simulation.md: Greedy finishes the compound action a move starts before valuing
    it. Seat 0 of :func:`_sunny` attracting the Beaver has 3 sun left: the Spider next (0.69,
    the Hippopotamus still under way 0.77, 0.6 * 0.77 for its last action: 1.922) beats the
    Hippopotamus first (0.77 + 0.69 + 0.6 * 0.69 = 1.874) and stopping (0.6 * 1.46 = 0.876);
    then the Hippopotamus (0.77, and 0.6 * 0.4 for a Fragment: 1.01) beats stopping
    (0.6 * 0.77 = 0.462), and the Attract closes with no sun left. Seat 0 is then worth a
    new game's 6.98 (see above; Beetle and Weasel were its own) and its three new cards,
    0.4 + 0.69 + 0.77 = 8.84; seat 1 still 6.98."""
    state = _sunny()
    values = evaluate_moves(state, [state.game.parse_move("0:attract Beaver")])
    assert values[0].tolist() == pytest.approx([8.84, 6.98])


def test_greedy_finishes_a_twelve_move_compound_action_before_valuing_it() -> None:
    """docs/simulation.md: Greedy finishes the compound action a move starts (a Move's Victory
    tiles and bonus) before valuing it, for at most 12 moves, as here. 4 players on rocks 4, 5,
    6, 7: seat 0's Move of 1 skips the three occupied rocks onto rock 8 (an Attract), passing
    three Spirits. Its Help Line (Hare and Bison, Marmot, Lemur, Tanuki, Hedgehog, Cockatoo,
    Weasel, Elephant, Goat, Racoon, Coati, Chameleon, Badger) has 6 + 5 + 4 + 3 * 3 + 2 * 7 = 38
    sun: exactly rows I and II (Spider 1, Hippopotamus, Beaver, Raven 2 each; Cobra, Rooster,
    Bull 5, Frog 6: 28) and one card of row III (Dolphin, Crocodile, Panther, Gorilla, 10 each).
    Finishing takes 12 moves: a Tree tile from each Spirit passed (1 tree tile each; the
    starting tree and its own tile make trees its largest count, where the convex progress gains
    most), then 9 cards, the best, Dolphin or Crocodile (0.92 each), from row III; the Attract
    closes with no sun left. The Move is valued as that finished position, played here by hand."""
    line = ["Hare", "Bison", "Marmot", "Lemur", "Tanuki", "Hedgehog", "Cockatoo", "Weasel"]
    line += ["Elephant", "Goat", "Racoon", "Coati", "Chameleon", "Badger"]
    state = to_row(start(4), ["Spider", "Hippopotamus", "Beaver", "Raven"])
    state = to_row(state, ["Cobra", "Rooster", "Bull", "Frog"])
    state = to_row(state, ["Dolphin", "Crocodile", "Panther", "Gorilla"])
    state = put(state, 0, "line", line)
    for seat in (1, 2, 3):
        state = put(state, seat, "line", ["Hare"])
    state = checked(acting(state, rocks=(4, 5, 6, 7)))
    assert state.totals(0)[0] == 38
    finished = play(
        state,
        "0:move 1",
        *(f"0:victory {seat} tree" for seat in (1, 2, 3)),
        *(f"0:attract {name}" for name in ("Spider", "Hippopotamus", "Beaver", "Raven")),
        *(f"0:attract {name}" for name in ("Cobra", "Rooster", "Bull", "Frog", "Dolphin")),
    )
    assert (finished.step, finished.current_player, finished.budget) == (Step.CHOOSE, 0, 0)
    values = evaluate_moves(state, [state.game.parse_move("0:move 1")])
    assert values[0].tolist() == pytest.approx(heuristic.position_value(finished).tolist())
