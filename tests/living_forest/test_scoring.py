"""Scoring and the end: the three goals, checked after a complete Action phase, and the winners."""

import attrs
import numpy as np
import pytest

import forestgames as fg
from forestgames.living_forest import (
    CARD_NAMES,
    decide_winners,
    element_totals,
    limit_winners,
    progress_of,
    solitary_count,
    tree_count,
)
from forestgames.living_forest.scoring import forest_bonus, line_elements
from forestgames.living_forest.state import Phase
from tests.living_forest.helpers import acting, checked, forest, play, put, start, with_seat

# ---------------------------------------------------------------------- decide_winners


def test_single_spirit_at_a_goal_wins_whatever_the_sums():
    """One Spirit at 12 wins even against a higher sum below 12 everywhere."""
    assert decide_winners([(12, 0, 0), (11, 11, 11)]) == (0,)


def test_several_at_a_goal_highest_sum_wins():
    """Several Spirits at a goal: the highest sum of the three counts wins."""
    assert decide_winners([(12, 1, 1), (3, 12, 3), (0, 0, 13)]) == (1,)


def test_several_at_a_goal_tied_sums_share():
    """Several at a goal with equal sums share the victory."""
    assert decide_winners([(12, 2, 0), (2, 0, 12), (1, 1, 1)]) == (0, 1)


def test_nobody_at_a_goal_no_winner():
    """No Spirit at 12: no winner yet."""
    assert decide_winners([(11, 11, 11), (0, 0, 0)]) == ()


def test_goal_takes_numpy_integers_and_refuses_other_values():
    """The goal may be a numpy integer (unsigned too); a bool, float, string or None is a
    ConfigError naming it (a string raised TypeError, True counted as a goal of 1)."""
    progress = [(5, 1, 0), (2, 2, 2)]
    for goal in (np.uint8(5), np.int64(5), 5):
        assert decide_winners(progress, goal) == limit_winners(progress, goal) == (0,)
    for junk in (True, 5.0, "5", None, np.array([5])):
        for winners in (decide_winners, limit_winners):
            with pytest.raises(fg.ConfigError, match="goal must be an int"):
                winners(progress, junk)


def test_turn_limit_winners_fall_back_to_sums():
    """At the turn limit with nobody at 12, the highest sums win (ties shared)."""
    assert limit_winners([(5, 5, 5), (9, 3, 3), (1, 1, 1)]) == (0, 1)
    assert limit_winners([(12, 0, 0), (11, 11, 11)]) == (0,)


# ---------------------------------------------------------------------- in play


def hold_fires(state, *held):
    """``state`` with seat k holding fire tiles ``held[k]`` (by value 2, 3, 4) from the supply."""
    supply = tuple(s - sum(h[k] for h in held) for k, s in enumerate(state.fire_supply))
    return attrs.evolve(state, fires_held=tuple(held), fire_supply=supply)


TREES = (
    "6 7 8 9 .",
    "10 11 S 4A 4B",
    ". . 5A . .",
)  # start + 9 types


def tree_race():
    """Seat 0 at 11 trees (10 types + its Tree tile) with plant 3; seat 1 still to act."""
    state = start()
    state = put(put(state, 0, "line", ["Bear", "Bee"]), 1, "line", ["Hare"])
    state = with_seat(state, "forests", 0, forest(*TREES))
    return checked(acting(state))


def test_tree_goal_ends_game_after_the_action_phase():
    """Planting the 12th tree does not end the game at once: seat 1 still acts, then it ends."""
    state = tree_race()
    assert state.progress[0][0] == 11
    state = play(state, "0:plant 3A@2,1")
    assert state.progress[0][0] == 12
    state = play(state, "0:done")
    assert state.phase is Phase.ACTIONS and state.current_player == 1 and state.winners == ()
    state = play(state, "1:fragment", "1:done")
    assert state.is_terminal and state.winners == (0,)
    assert state.lines[0] != () and state.varans == 23  # no end of turn: no Onibi, lines stay


def test_second_copy_does_not_count_toward_tree_goal():
    """Only different tree types count: a second 4A leaves the count at 11."""
    state = play(checked(put(tree_race(), 0, "line", ["Boar"])), "0:plant 4A@2,3")
    assert state.progress[0][0] == 11


def test_tree_victory_tiles_count_toward_trees():
    """Tree Victory tiles add to the different trees."""
    state = with_seat(with_seat(tree_race(), "victory", 0, (2, 1, 1)), "victory", 1, (0, 1, 1))
    assert checked(state).progress[0][0] == 12


def test_fire_goal():
    """Fire tiles held plus Fire Victory tiles: the 12th ends the game after the phase."""
    state = start()
    state = put(put(state, 0, "line", ["Goldfish"]), 1, "line", ["Hare"])
    state = hold_fires(state, (4, 3, 3), (0, 0, 0))
    state = checked(acting(state))
    assert state.progress[0][1] == 11
    state = play(state, "0:extinguish 2", "0:done", "1:done")
    assert state.is_terminal and state.winners == (0,) and state.progress[0][1] == 12


def test_flower_goal_counts_line_forest_and_tiles():
    """Flowers: Help Line + forest (trees, full middle row) + Flower Victory tiles."""
    state = start()
    state = put(put(state, 0, "line", ["Ram", "Fawn", "Fox"]), 1, "line", ["Hare"])  # 2 + 1 + 1
    state = with_seat(state, "forests", 0, forest(". . . . .", "9 4B S 4B 3A", ". . . . ."))
    state = checked(acting(state))  # 4 + (2 + 1 + 1 trees) + 2 row + 1 tile = 11
    assert state.progress[0][2] == 11
    state = play(state, "0:done", "1:done")
    assert not state.is_terminal


def test_flower_goal_reached_ends_game():
    """12 flowers at the end of the Action phase end the game."""
    state = start()
    state = put(put(state, 0, "line", ["Ram", "Fawn", "Fox", "Axolotl"]), 1, "line", ["Hare"])
    state = with_seat(state, "forests", 0, forest(". . . . .", "9 4B S 4B 3A", ". . . . ."))
    state = checked(acting(state))
    assert state.progress[0][2] == 12
    state = play(state, "0:done", "1:done")
    assert state.is_terminal and state.winners == (0,)


def test_two_at_goals_highest_sum_wins_in_play():
    """Both Spirits at a goal: the higher sum of the three counts wins."""
    state = start()
    state = put(put(state, 0, "line", ["Goldfish"]), 1, "line", ["Hare"])
    state = hold_fires(state, (4, 4, 3), (4, 4, 4))
    state = checked(acting(state))
    state = play(state, "0:done", "1:done")
    assert state.is_terminal
    assert state.progress == ((2, 12, 1), (2, 13, 1))
    assert state.winners == (1,) and state.scores == (15, 16)


def test_two_at_goals_equal_sums_share():
    """Both at a goal with equal sums: shared victory."""
    state = start()
    state = put(put(state, 0, "line", ["Hare"]), 1, "line", ["Hare"])
    state = hold_fires(state, (4, 4, 3), (4, 4, 3))
    state = checked(acting(state))
    state = play(state, "0:done", "1:done")
    assert state.is_terminal and state.winners == (0, 1)


def test_turn_limit_ends_game():
    """turn_limit: the game ends after that turn's Action phase, winners by sums."""
    state = start(turn_limit=3)
    state = put(put(state, 0, "line", ["Goldfish"]), 1, "line", ["Hare"])
    state = checked(acting(attrs.evolve(state, turn=3)))
    state = play(state, "0:extinguish 2", "0:done", "1:done")
    assert state.is_terminal and state.winners == (0,)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_scores_are_the_sum_of_the_three_counts(players):
    """state.scores is trees + fires + flowers per seat (4 at the start: tree and 3 tiles)."""
    state = start(players)
    assert state.scores == (4,) * players
    assert state.progress == ((1 + 1, 1, 1),) * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_names_winners_with_decide_winners(players):
    """At the end of random games the winners are decide_winners(progress) whenever a
    Spirit reached 12, and the highest sums at the turn limit otherwise."""
    from tests.strategies import final_state

    game = fg.make("living_forest", num_players=players, turn_limit=60)
    for seed in range(3):
        state = final_state(game, seed)
        progress = state.progress
        if any(max(x) >= 12 for x in progress):
            assert state.winners == decide_winners(progress) != ()
        else:
            assert state.turn == 60 and state.winners == limit_winners(progress)


@pytest.mark.parametrize(
    "progress",
    [None, 5, "abc", [1], [(1, 2)], [(1, 2, 3, 4)], [(-1, 0, 0)], [(1.5, 0, 0)], [("a", 0, 0)],
     {"a": 1}, [{"a": 1, "b": 2, "c": 3}]],
)  # fmt: skip
def test_winners_refuse_malformed_progress(progress):
    """decide_winners and limit_winners take one (trees, fires, flowers) triple of
    non-negative ints per seat: anything else is a StateError."""
    for function in (decide_winners, limit_winners):
        with pytest.raises(fg.StateError, match="progress"):
            function(progress)


# --------------------------------------------------- found by the audit of scoring.py's constants


def test_an_empty_help_line_adds_nothing_to_the_forest_s_bonuses():
    """An empty Help Line's elements are all 0; with a forest of 3A (+1 sun), 3B (+1 water),
    5B (+1 plant), 4A (+1 wind) and 4B (+1 flower), no line full, the totals are
    (1, 1, 1, 1, 1)."""
    cells = forest(". 4B 4A . .", "5B 3A S 3B .", ". . . . .")
    assert line_elements(()) == (0, 0, 0, 0, 0)
    assert element_totals((), cells) == (1, 1, 1, 1, 1)


def test_card_ids_start_at_zero():
    """A Help Line holds card ids 0..65: id 0 (the Bear, solitary; water 1, plant 2) is one,
    -1 is refused as a StateError naming the line's item."""
    assert CARD_NAMES[0] == "Bear"
    assert solitary_count((0,)) == 1 and line_elements((0,)) == (0, 1, 2, 0, 0)
    for function in (solitary_count, line_elements):
        with pytest.raises(fg.StateError, match=r"line\[0\] must be a card id 0\.\.65"):
            function((-1,))


def test_a_full_forest_counts_its_types_and_the_starting_tree():
    """A forest with all 15 cells planted (the starting tree, thirteen 3A, one 3B) has 3
    different trees: only empty cells (-1) are left out of the count, none here."""
    cells = forest("3A 3A 3A 3A 3A", "3A 3A S 3A 3A", "3A 3A 3A 3B 3A")
    assert tree_count(cells) == 3


@pytest.mark.parametrize("kind", [int, np.int64])
def test_a_goal_may_be_zero_not_negative(kind):
    """A goal of 0 is accepted: every seat is then at the goal, the highest sum wins
    ((1, 0, 0) over (0, 0, 0)); a goal of -1 is a ConfigError naming the goal, a plain int
    as a numpy one (a plain -1 was taken as 0, the winners (1,))."""
    assert decide_winners([(0, 0, 0), (1, 0, 0)], kind(0)) == (1,)
    for function in (decide_winners, limit_winners):
        with pytest.raises(fg.ConfigError, match="goal must be >= 0"):
            function([(0, 0, 0), (1, 0, 0)], kind(-1))


def test_progress_of_takes_zero_counts_and_refuses_negative_ones():
    """progress_of with an empty Help Line, the starting forest, no fire held and no Victory
    tile is (1, 0, 0): the starting tree only. A count of -1 (fires held or any tile) is a
    StateError."""
    cells = forest(". . . . .", ". . S . .", ". . . . .")
    assert progress_of((), cells, 0, (0, 0, 0)) == (1, 0, 0)
    for fires, tiles in ((-1, (0, 0, 0)), (0, (-1, 0, 0)), (0, (0, -1, 0)), (0, (0, 0, -1))):
        with pytest.raises(fg.StateError, match="a count must be a non-negative int"):
            progress_of((), cells, fires, tiles)


def test_a_forest_cell_is_a_tree_id_or_minus_one():
    """A forest's cells are tree ids 0..12 or -1 (empty): a cell of -2 is a StateError
    naming the cell, in tree_count and element_totals alike."""
    cells = list(forest(". . . . .", ". . S . .", ". . . . ."))
    cells[0] = -2
    with pytest.raises(fg.StateError, match=r"forest\[0\] must be a tree id 0\.\.12 or -1"):
        tree_count(cells)
    with pytest.raises(fg.StateError, match=r"forest\[0\] must be a tree id"):
        element_totals((), cells)


def test_the_pure_functions_take_one_dimensional_integer_arrays():
    """A Help Line, a forest and the Victory tiles given as 1-d integer numpy arrays (any
    width) count as the same tuples: the starting forest with a 3A beside it, cards 0, 1
    and 2. A 2-d, 0-d or float array is a StateError naming the argument or its item."""
    cells = forest(". . . . .", ". 3A S . .", ". . . . .")
    line = (0, 1, 2)
    for dtype in (np.int8, np.int64, np.uint8):
        as_line = np.array(line, dtype=dtype)
        as_forest = np.array(cells, dtype=np.int16 if dtype is np.uint8 else dtype)
        assert line_elements(as_line) == line_elements(line)
        assert solitary_count(as_line) == solitary_count(line)
        assert (tree_count(as_forest), forest_bonus(as_forest)) == (
            tree_count(cells),
            forest_bonus(cells),
        )
        assert element_totals(as_line, as_forest) == element_totals(line, cells)
        tiles = np.array([1, 0, 2], dtype=dtype)
        assert progress_of(as_line, as_forest, 1, tiles) == progress_of(line, cells, 1, (1, 0, 2))
    for bad in (np.array([line]), np.array(3)):
        with pytest.raises(fg.StateError, match="line must be a sequence of card ids"):
            line_elements(bad)
    with pytest.raises(fg.StateError, match=r"line\[0\] must be a card id 0\.\.65, not 0\.0"):
        solitary_count(np.array([0.0, 1.0]))
    with pytest.raises(fg.StateError, match="forest must be a sequence of tree ids"):
        tree_count(np.array([cells]))
