"""Rules the mutation audit found unpinned: each test fails if its rule is broken in the engine."""

import attrs

from forestgames.living_forest import solitary_count
from forestgames.living_forest.state import Phase, Step
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
from tests.living_forest.test_rules import move_state
from tests.living_forest.test_scoring import hold_fires, tree_race


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
