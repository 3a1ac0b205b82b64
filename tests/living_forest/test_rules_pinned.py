"""Rules the mutation audit found unpinned: each test fails if its rule is broken in the engine."""

import attrs
import numpy as np
import pytest

import forestgames as fg
from forestgames.living_forest import (
    CARDS,
    LivingForestGame,
    Plant,
    forest_bonus,
    progress_of,
    solitary_count,
)
from forestgames.living_forest._tables import TREE_INDEX
from forestgames.living_forest.state import Phase, Step
from tests.living_forest.helpers import (
    acting,
    checked,
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
from tests.living_forest.test_rules import move_state
from tests.living_forest.test_scoring import hold_fires, tree_race
from tests.living_forest.test_simultaneous import SIM, restarted


def test_gregarious_cards_alone_leave_the_count_at_zero():
    """The uncancelled solitary count never goes below 0: two gregarious cards count 0."""
    assert solitary_count(ids("Chimpanzee", "Toucan")) == 0
    state = checked(put(start(), 0, "line", ["Chimpanzee", "Toucan"]))
    assert state.solitary(0) == 0


def test_bonus_plant_of_the_arrival_rock_is_not_one_of_the_actions():
    """Move onto the Plant rock, plant the bonus tree: only the Move counts, a second
    action (here a Fragment) is still open."""
    state = play(move_state((11, 6, 10), line=("Hare", "Bear", "Boar")), "0:move 1")
    assert state.step is Step.PLANT
    state = play(state, "0:plant 3A@0,2")
    assert state.actions == (3,) and state.current_player == 0
    assert "0:fragment" in names(state.legal_moves())


def test_move_never_comes_back_to_its_own_rock():
    """4 Spirits on rocks 0, 6, 9, 3; seat 0 with wind 10 (four 4A, three 7) may go at most
    12 - 4 = 8 free rocks (to rock 11), not a 9th back onto its own rock 0."""
    cells = forest(". 4A 4A 4A .", ". 7 S 7 .", ". 7 4A . .")
    state = checked(acting(with_seat(start(4), "forests", 0, cells)))
    assert state.totals(0)[3] == 10
    steps = [m for m in names(state.legal_moves()) if "move" in m]
    assert steps == [f"0:move {k}" for k in range(1, 9)]
    assert state.game._move_path(state, 0, 8) == (11, (3, 1, 2))


def test_sacred_tree_passes_clockwise_with_three_spirits():
    """3 Spirits, seat 0 holding the Sacred Tree: after turn 1 seat 1 (not seat 2) holds it
    and reveals first."""
    state = play(start(3), "0:stop", "1:stop", "2:stop")
    assert state.phase is Phase.ACTIONS
    state = play(state, "0:done", "1:done", "2:done")
    assert (state.turn, state.sacred, state.current_player) == (2, 1, 1)


def test_only_the_next_seat_in_turn_order_reveals():
    """3 Spirits, seat 0 holding the Sacred Tree: when seat 0 stops, seat 1 reveals next and
    seat 2 has no move until seat 1 is done."""
    state = play(start(3), "0:stop")
    assert (state.phase, state.current_player) == (Phase.GUARDIANS, 1)
    assert names(state.legal_moves(1)) == ["1:reveal", "1:stop"]
    assert state.legal_moves(2) == () and state.legal_moves(0) == ()


def test_a_second_copy_does_not_end_the_game_by_the_tree_goal():
    """Seat 0 at 11 (10 types + its Tree tile) plants a second 4A: 12 trees on the board but
    11 toward the goal, so the turn ends normally instead of the game."""
    state = play(checked(put(tree_race(), 0, "line", ["Boar"])), "0:plant 4A@2,3", "0:done")
    state = play(state, "1:fragment", "1:done")
    assert not state.is_terminal
    assert (state.phase, state.turn, state.progress[0][0]) == (Phase.GUARDIANS, 2, 11)


def test_fire_goal_counts_tiles_not_their_values():
    """Three fires of value 4 held (12 in value) and the Fire tile are 4 toward the goal:
    the game goes on after the Action phase."""
    state = put(put(start(), 0, "line", ["Goldfish"]), 1, "line", ["Hare"])
    state = checked(acting(hold_fires(state, (0, 0, 3), (0, 0, 0))))
    state = play(state, "0:done", "1:done")
    assert not state.is_terminal and state.turn == 2 and state.progress[0][1] == 4


def test_no_first_fire_when_the_twos_are_used_up():
    """The centre is empty at the end of the turn and every fire of value 2 is held (10 by
    each seat: 11 fires, short of the goal): no fire is added, the centre stays empty."""
    state = acting(put(put(start(), 0, "line", ["Hare"]), 1, "line", ["Hare"]), seat_index=1)
    state = checked(attrs.evolve(state, centre=(), fire_supply=(0, 20, 18),
                                 fires_held=((10, 0, 0), (10, 0, 0))))  # fmt: skip
    after = play(state, "1:done")
    assert not after.is_terminal and after.turn == 2
    assert after.centre == () and after.fire_supply == (0, 20, 18)


def test_attracted_cards_add_fires_of_their_own_level():
    """Seat 0 with 7 sun (Beetle 3, Lynx 2, Weasel 2) attracts the level II Woodpecker (6 sun)
    by a real move: the end of the turn adds a fire of 3, not of 2."""
    state = to_row(start(), ["Woodpecker"])
    state = put(put(state, 0, "line", ["Beetle", "Lynx", "Weasel"]), 1, "line", ["Hare"])
    state = checked(acting(state))
    assert state.totals(0)[0] == 7 and state.centre == (2,)
    state = play(state, "0:attract Woodpecker")
    assert state.taken == (0, 1, 0)
    state = play(state, "0:done", "1:done")
    assert state.turn == 2 and state.centre == (2, 3)


# --------------------------------------------------------------- found by the December 2026 audit


def test_progress_of_adds_each_victory_tile_to_its_own_count():
    """progress_of with a Help Line Fox (1 flower) and Fawn (1 flower), a forest of the
    starting tree and a 4B (+1 flower), 3 fire tiles held and Victory tiles (tree 1, fire 2,
    flower 4): trees 2 types + 1 = 3, fires 3 + 2 = 5, flowers 1 + 1 + 1 + 4 = 7."""
    cells = forest(". . . . .", ". 4B S . .", ". . . . .")
    assert progress_of(ids("Fox", "Fawn"), cells, 3, (1, 2, 4)) == (3, 5, 7)


def test_a_seat_with_nothing_to_do_passes_the_actions_to_the_very_next_seat():
    """Seat 0 holds the Sacred Tree with an empty Help Line (no element) and the Fragment
    supply is empty (seat 1 holds all 20): seat 0 can start no action, so the Action phase
    opens with seat 1, whose Hare gives 1 wind (a Move)."""
    state = checked(stack_deck(with_seat(start(), "fragments", 1, 20), 1, "Hare"))
    state = play(state, "0:stop", "1:reveal", "1:stop")
    assert state.phase is Phase.ACTIONS and state.turn == 1
    assert state.current_player == 1 and "1:move 1" in names(state.legal_moves())


def test_the_card_table_marks_gregarious_and_solitary_cards():
    """The card table's flags follow the symbols of the CSV: the Chimpanzee (G) is
    gregarious, not solitary, "~" in short notation and "gregarious" in words; the Bear (S)
    solitary; the Fawn (-) neither."""
    chimpanzee = CARDS["Chimpanzee"]
    assert chimpanzee.gregarious and not chimpanzee.solitary
    assert chimpanzee.short() == "Chimpanzee[5] Pl-2 ~"
    assert chimpanzee.describe() == "5 sun: plant -2, gregarious"
    assert CARDS["Bear"].solitary and not CARDS["Bear"].gregarious
    assert not CARDS["Fawn"].solitary and not CARDS["Fawn"].gregarious


def test_a_replayed_reveal_uses_up_one_known_card_per_card_drawn():
    """Simultaneous Guardian phase, 2 players: seat 0 attracted a Raven then a Hedgehog (put
    on top of its deck, known to all: Hedgehog, Raven) and has no Fragment. Seat 0 reveals
    once and stops. Seat 1's determinizations replay seat 0's turn at random: in
    each, seat 0's Help Line starts with the known cards in order, and its known top is 2
    less the cards it drew (never below 0), 1 after a single reveal."""
    state = put(start(2, **SIM), 0, "deck", ["Raven", "Hedgehog"])
    state = restarted(attrs.evolve(state, known=(2, 0)))
    state = play(checked(state), "0:reveal", "0:stop")
    attracted = ids("Hedgehog", "Raven")
    assert state.lines[0] == attracted[:1] and state.known[0] == 1
    drawn = set()
    for seed in range(16):
        sample = state.determinize(1, seed)
        line = sample.lines[0]
        drawn.add(len(line))
        assert line[:2] == attracted[: len(line)]
        assert sample.known[0] == max(0, 2 - len(line))
        assert sample.decks[0][: sample.known[0]] == attracted[len(line) : 2]
    assert 1 in drawn


NON_SOLITARY_START = (
    "Baboon", "Bee", "Boar", "Fawn", "Goldfish", "Hare", "Hummingbird", "Tanuki", "Weasel",
)  # fmt: skip
"""The 9 start cards without a symbol (the other 5, Bear, Beetle, Fox, Lynx, Owl, are solitary)."""


def test_a_reshuffled_third_solitary_passes_the_reveal_to_the_next_seat():
    """2 players, seat 0 (Sacred Tree) stops at once. Seat 1's deck is empty, its Help Line
    holds the 9 start cards without a symbol and Bear, Beetle (2 solitary), its discard pile
    Fox, Lynx, Owl (all solitary), no Fragment. Its reveal reshuffles the discard pile and
    turns up a solitary card: 3 solitary, stopping is all it can do, so the turn goes on to
    the next seat, none is left, and the Action phase starts with seat 0 (never back to seat
    0's reveal)."""
    state = play(start(), "0:stop")
    state = put(state, 1, "line", [*NON_SOLITARY_START, "Bear", "Beetle"])
    state = checked(put(state, 1, "discard", ["Fox", "Lynx", "Owl"]))
    assert state.decks[1] == () and state.solitary(1) == 2
    state = play(state, "1:reveal")
    assert state.solitary(1) == 3 and len(state.lines[1]) == 12
    assert state.phase is Phase.ACTIONS and state.current_player == 0


def test_a_game_built_by_its_class_has_make_s_defaults():
    """LivingForestGame(num_players=n) is the game fg.make gives with no option: the same
    fire tiles, tree copies, reveal reading, Varan rule, turn limit (100) and Guardian phase."""
    for players in (2, 3, 4):
        built = LivingForestGame(num_players=players)
        made = fg.make("living_forest", num_players=players)
        assert built == made and built.turn_limit == 100


def test_the_rock_bonus_after_victory_tiles_has_no_extra_sun():
    """3 Spirits on rocks 0, 1, 10; seat 0 (Hare: 1 wind; Weasel: 2 sun) moves 1: rock 1 is
    taken by seat 1 (skipped, passed), it lands on rock 2, the Attract rock. It takes seat
    1's Tree tile first, then the bonus Attract has its 2 sun, no more (only a corner adds
    sun): the Raven (2) may be attracted, nothing dearer."""
    state = checked(to_row(move_state((0, 1, 10), line=("Hare", "Weasel")), ["Raven"]))
    state = play(state, "0:move 1")
    assert state.rocks[0] == 2 and state.step is Step.VICTORY
    state = play(state, "0:victory 1 tree")
    assert state.victory[0] == (2, 1, 1) and state.step is Step.ATTRACT
    assert state.budget == 2
    assert "0:attract Raven" in names(state.legal_moves())


def test_a_seat_done_with_its_two_actions_hands_over_to_the_next_seat():
    """2 players, each with a Hare (1 wind): seat 0 takes a Fragment, then moves 1 onto rock 1
    (its bonus Fragment is extra): its two actions are used, so seat 1 acts next, in the
    same turn."""
    state = checked(acting(put(put(start(), 0, "line", ["Hare"]), 1, "line", ["Hare"])))
    state = play(state, "0:fragment", "0:move 1")
    assert state.fragments == (2, 0)
    assert state.phase is Phase.ACTIONS and state.turn == 1 and state.current_player == 1


def test_planting_off_the_corners_gives_no_fragment():
    """Seat 0 (Bear, Boar: plant 4) plants a 3A at (1, 3), next to the starting tree and no
    corner: it takes no Fragment (only the top-right and bottom-left corners give 2)."""
    state = put(put(start(), 0, "line", ["Bear", "Boar"]), 1, "line", ["Hare"])
    state = checked(acting(state))
    assert state.totals(0)[2] == 4
    state = play(state, "0:plant 3A@1,3")
    assert state.forests[0][1 * 5 + 3] > 0
    assert state.fragments == (0, 0) and state.fragment_supply == 20


# -------------------------------------------------- found by the audit of rules.py's constants


def test_one_fire_of_value_two_is_enough():
    """fire_tiles needs "at least one 2" (docs' Options): (1, 0, 0) is accepted, its one fire
    of value 2 starts in the centre and the supply is left empty."""
    state = fg.make("living_forest", fire_tiles=(1, 0, 0)).new_game(seed=1)
    assert state.centre == (2,) and state.fire_supply == (0, 0, 0)


def test_fire_tiles_counts_go_up_to_one_hundred():
    """fire_tiles is "3 ints 0–100" (docs' Options): 100 of each is accepted (99 twos left
    after the first fire), 101 of any value is refused naming the option."""
    state = fg.make("living_forest", fire_tiles=(100, 100, 100)).new_game(seed=1)
    assert state.fire_supply == (99, 100, 100)
    for counts in ((101, 0, 0), (1, 101, 0), (1, 0, 101)):
        with pytest.raises(fg.ConfigError, match="fire_tiles"):
            fg.make("living_forest", fire_tiles=counts)


def test_a_reshuffled_third_solitary_passes_the_reveal_to_the_next_seat_of_three():
    """3 Spirits, seat 0 (Sacred Tree) with an empty deck, the 9 start cards without a symbol
    and Bear, Beetle in its Help Line, Fox, Lynx, Owl in its discard pile, no Fragment: its
    reveal reshuffles and turns up a third solitary symbol, so it can only stop and the
    reveal passes to seat 1, the next in turn order (not seat 2)."""
    state = put(start(3), 0, "line", [*NON_SOLITARY_START, "Bear", "Beetle"])
    state = checked(put(state, 0, "discard", ["Fox", "Lynx", "Owl"]))
    assert state.decks[0] == () and state.solitary(0) == 2
    state = play(state, "0:reveal")
    assert state.solitary(0) == 3 and state.phase is Phase.GUARDIANS
    assert state.current_player == 1 and state.seat_index == 1
    assert names(state.legal_moves(1)) == ["1:reveal", "1:stop"]


def test_each_fire_put_out_is_one_pick_of_the_extinguish():
    """Seat 0 with 4 water (Goldfish 2, Hummingbird 1, Bear 1) and fires 2, 2 in the centre
    puts out a 2: the Extinguish goes on with 4 - 2 = 2 water and 1 pick (1 fire held), then
    the second 2 leaves nothing: back to choosing, 2 fires held."""
    state = put(put(start(), 0, "line", ["Goldfish", "Hummingbird", "Bear"]), 1, "line", ["Hare"])
    state = checked(acting(attrs.evolve(state, centre=(2, 2), fire_supply=(18, 20, 18))))
    assert state.totals(0)[1] == 4
    state = checked(play(state, "0:extinguish 2"))
    assert (state.step, state.budget, state.picks) == (Step.EXTINGUISH, 2, 1)
    assert state.fires_held[0] == (1, 0, 0)
    state = play(state, "0:extinguish 2")
    assert (state.step, state.budget, state.picks) == (Step.CHOOSE, 0, 0)
    assert state.fires_held[0] == (2, 0, 0) and state.centre == ()


def test_a_sample_replays_the_acting_seat_short_of_its_last_choice():
    """Simultaneous phase, 3 Spirits: seat 0 stops at once; seat 1 (acting, no Fragment) had
    attracted Spider, Hippopotamus, Horned Owl (solitary, known on top of its deck) and has
    revealed one. Seat 0's samples replay seat 1 by random moves from its phase start, never
    to its third solitary card (only a stop left): at most 2 cards, seat 1 still to act with
    a choice, some samples with a card revealed; seat 2 has not acted and is left alone."""
    state = put(start(3, **SIM), 1, "deck", ["HornedOwl", "Hippopotamus", "Spider"])
    state = checked(restarted(attrs.evolve(state, known=(0, 3, 0))))
    state = play(state, "0:stop", "1:reveal")
    assert state.help_line(1) == ("Spider",) and state.current_player == 1
    lengths = set()
    for seed in range(24):
        sample = state.determinize(0, seed)
        line = sample.lines[1]
        lengths.add(len(line))
        assert line == ids("Spider", "Hippopotamus", "HornedOwl")[: len(line)]
        assert sample.current_player == 1 and len(sample.legal_moves(1)) == 2
        assert sample.lines[2] == () and sample.decks[2] == sample.guardian_start.decks[2]
    assert lengths == {0, 1, 2}


def test_a_plant_off_the_board_is_refused_as_off_the_board():
    """A Plant at a cell off the Forest board, (-1, 2), (1, -1), (3, 0), (0, 5), is an
    IllegalMoveError saying "forest cells are (row 0..2, col 0..4)", whether seat 0 may plant
    (Bear, Boar: plant 4) or not (Hare only: plant 0); with no Plant legal the explanation
    sees the raw fields, and a malformed cell (1, 'a') gets the same answer, no TypeError."""
    for line in (["Bear", "Boar"], ["Hare"]):
        state = checked(acting(put(put(start(), 0, "line", line), 1, "line", ["Hare"])))
        assert (state.totals(0)[2] >= 3) == (line != ["Hare"])
        cells = [(-1, 2), (1, -1), (3, 0), (0, 5)] + [(1, "a")] * (line == ["Hare"])
        for at in cells:
            with pytest.raises(fg.IllegalMoveError, match=r"forest cells are \(row 0\.\.2"):
                state.apply(Plant(0, "3A", at))


def test_evaluate_moves_values_a_single_move_of_a_simultaneous_phase():
    """Simultaneous Guardian phase, seat 0 to reveal: evaluate_moves of its first legal move
    alone gives that move's value in the list of all of them (one move is a list too)."""
    state = start(2, **SIM)
    moves = state.legal_moves()
    assert len(moves) == 2 and state.guardian_start is not None
    values = state.game.evaluate_moves(state, moves)
    assert np.array_equal(state.game.evaluate_moves(state, moves[:1]), values[:1])


# -------------------------------------------------- found by the audit of _tables.py's constants

TREE_COSTS = {
    "3A": 3, "3B": 3, "4A": 4, "4B": 4, "5A": 5, "5B": 5,
    "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "11": 11,
}  # fmt: skip
"""Each protective tree's cost in plant, from the rules page's tree table."""


def test_each_tree_is_offered_from_its_cost_in_plant():
    """Seat 0 with plant k = 2..11 (k // 2 cards of plant 2: Boar, Caterpillar, Squirrel,
    Meerkat, Crane; one of plant 1, the Bee, when k is odd) is offered exactly the trees whose
    cost in the rules page's table is at most k: none at 2, 3A and 3B at 3, ..., all 12 at 11;
    a Plant of a dearer tree at (1, 3) is refused naming that cost."""
    twos = ["Boar", "Caterpillar", "Squirrel", "Meerkat", "Crane"]
    for plant in range(2, 12):
        line = twos[: plant // 2] + ["Bee"] * (plant % 2)
        state = checked(acting(put(put(start(), 0, "line", line), 1, "line", ["Hare"])))
        assert state.totals(0)[2] == plant
        offered = {m.split()[1].split("@")[0] for m in names(state.legal_moves()) if "plant" in m}
        assert offered == {tree for tree, cost in TREE_COSTS.items() if cost <= plant}, plant
        for tree, cost in TREE_COSTS.items():
            if cost > plant:
                with pytest.raises(fg.IllegalMoveError, match=f"costs {cost} plant, only {plant}"):
                    state.apply(Plant(0, tree, (1, 3)))


def test_each_tree_gives_the_bonus_of_the_rules_table():
    """forest_bonus of the starting tree and one tree at (1, 3) (no full line) is that tree's
    bonus in the rules page's table (sun, water, plant, wind, flower): 3A +1 sun, 3B +1 water,
    4A +1 wind, 4B +1 flower, 5A +2 sun, 5B +1 plant, 6 +2 water, 7 +2 wind, 8 +3 water,
    9 +2 flowers, 10 +4 sun, 11 nothing (its power is the same action twice)."""
    table = {
        "3A": (1, 0, 0, 0, 0), "3B": (0, 1, 0, 0, 0), "4A": (0, 0, 0, 1, 0),
        "4B": (0, 0, 0, 0, 1), "5A": (2, 0, 0, 0, 0), "5B": (0, 0, 1, 0, 0),
        "6": (0, 2, 0, 0, 0), "7": (0, 0, 0, 2, 0), "8": (0, 3, 0, 0, 0),
        "9": (0, 0, 0, 0, 2), "10": (4, 0, 0, 0, 0), "11": (0, 0, 0, 0, 0),
    }  # fmt: skip
    assert set(table) == set(TREE_COSTS)
    for tree, bonus in table.items():
        assert forest_bonus(forest(". . . . .", f". . S {tree} .", ". . . . .")) == bonus, tree


def test_a_line_bonus_needs_a_tree_on_every_cell_of_its_line():
    """forest_bonus takes any 15 cells (docs): column 1 (cells 1, 6, 11) full of trees 11 (no
    bonus of their own) gives +1 water, column 2 (2, 7, 12) +1 sun, column 3 (3, 8, 13) +1
    wind, row 1 (5..9) +2 flowers; with any one of the line's cells empty, nothing."""
    lines = {
        (1, 6, 11): (0, 1, 0, 0, 0),
        (2, 7, 12): (1, 0, 0, 0, 0),
        (3, 8, 13): (0, 0, 0, 1, 0),
        (5, 6, 7, 8, 9): (0, 0, 0, 0, 2),
    }
    eleven = TREE_INDEX["11"]
    for cells, bonus in lines.items():
        full = [eleven if c in cells else -1 for c in range(15)]
        assert forest_bonus(full) == bonus, cells
        for gap in cells:
            assert forest_bonus([-1 if c == gap else x for c, x in enumerate(full)]) == (0,) * 5
