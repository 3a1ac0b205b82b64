"""Goal tiles: offered right after the action, claim or renounce, one per colour, setups."""

import pytest

import forestgames as fg
from forestgames.bonsai import GOALS, ClaimGoal, Phase, RenounceGoal
from tests.bonsai.helpers import arrange, play, supply


def trunk(length):
    """Wood from (0,-1) up to (0,-length): with the bud, length + 1 wood tiles."""
    return {(0, -r): "wood" for r in range(1, length + 1)}


def about_to_grow(wood_after, **fields):
    """Seat 0 holds 1 wood and a trunk one short of ``wood_after`` wood tiles (bud included)."""
    return arrange(2, trees={0: trunk(wood_after - 2)}, supplies={0: supply(wood=1)}, **fields)


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
    """At 10 wood brown 2 comes first; renouncing it offers brown 1."""
    state = grow(about_to_grow(10), 10)
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
        trees={0: tiles},
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
    position = about_to_grow(8, goal_owners={"brown 1": 1})
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
