"""Coins of a round, final totals and the tie-break, from the rulebook and by hand."""

import numpy as np
import pytest

import forestgames as fg
from forestgames.boom_bokken import decide_winners, final_scores, round_coins
from tests.boom_bokken.helpers import play, table

# The rulebook's 8-player example: seats 0..7 in the order they finished.
YELLOW, GREEN, VIOLET, RED = "yellow", "green", "violet", "red"
EXAMPLE_TEAMS = [YELLOW, GREEN, GREEN, YELLOW, VIOLET, RED, VIOLET, RED]


def test_rulebook_example_round_coins():
    """Yellow 1st+4th, green 2nd+3rd, violet 5th+7th, red 6th+exploded: 4+4, 3+3, 2+2, 1+0."""
    coins = round_coins([0, 1, 2, 3, 4, 5, 6], EXAMPLE_TEAMS)
    assert coins == (4, 3, 3, 4, 2, 1, 2, 0)


def test_round_coins_take_numpy_integers():
    """Seats and team ids as numpy integers, in lists or arrays, give the rulebook's
    coins (numpy seats were refused as "2 is not a seat", arrays as no list)."""
    order, teams = [0, 1, 2, 3, 4, 5, 6], [EXAMPLE_TEAMS.index(t) for t in EXAMPLE_TEAMS]
    expected = round_coins(order, teams)
    assert expected == (4, 3, 3, 4, 2, 1, 2, 0)
    assert round_coins([np.uint8(s) for s in order], [np.int64(t) for t in teams]) == expected
    assert round_coins(np.array(order, np.uint8), np.array(teams, np.uint8)) == expected
    with pytest.raises(fg.StateError, match="is not a seat number"):
        round_coins([0, 1.0], teams)
    with pytest.raises(fg.StateError, match="9 is not a seat of a 8-player table"):
        round_coins([np.uint8(9)], teams)


def test_rulebook_example_scripted_round():
    """The example played out: each seat plays one card 'higher' in turn, the last red explodes.

    Seats 0..5 each hold one card 1..6 and become safe as they play it; seat 6
    (violet) plays 7 of its 7 and 8 and names seat 7 (red), whose 1 cannot go
    higher: Boom. Only seat 6 is left, so it is safe 7th: coins as in the
    rulebook, a Bokken token for seat 6, and seat 6 (last safe) leads round 2.
    """
    teams = [0, 1, 1, 0, 2, 3, 2, 3]  # yellow, green, green, yellow, violet, red, violet, red
    hands = [["1"], ["2"], ["3"], ["4"], ["5"], ["6"], ["7", "8"], ["1"]]
    state = table(hands, teams, leader=0)
    for seat in range(6):
        state = play(state, f"{seat}:play {seat + 1} @{seat + 1} higher")
    assert state.safe == (0, 1, 2, 3, 4, 5)
    state = play(state, "6:play 7 @7 higher")
    assert [type(m).__name__ for m in state.legal_moves(7)] == ["Boom"]
    state = play(state, "7:boom")
    assert state.coins == (4, 3, 3, 4, 2, 1, 2, 0)
    assert state.history[0][0] == (0, 1, 2, 3, 4, 5, 6)
    assert state.tokens == (0, 0, 0, 0, 0, 0, 1, 0)
    assert state.scores == (4, 3, 3, 4, 2, 1, 4, 0)
    assert state.round == 2 and state.leader == 6 and state.current_player == 6


def test_every_safe_member_takes_the_team_coin():
    """A team's coin goes to each safe member, whatever their own place: 2,0 | 1,3 -> 3,3,4,4."""
    assert round_coins([2, 0, 1, 3], [0, 0, 1, 1]) == (3, 3, 4, 4)


def test_all_exploded_team_scores_nothing_and_ranks_nobody():
    """A team with no safe member takes no coin and does not push the others down."""
    assert round_coins([0, 1], [0, 1, 2, 2, 0, 1]) == (4, 3, 0, 0, 0, 0)


def test_two_teams_take_gold_and_silver():
    """With two teams the second one out takes silver (3), not clay."""
    assert round_coins([1, 0, 2], [0, 1, 0, 1, 1]) == (3, 4, 3, 0, 0)


def test_last_team_clay_gives_the_last_team_clay_whatever_its_place():
    """[choice] With last_team_clay the last team with a player safe takes clay: 2 such
    teams gold and clay, 3 gold, silver and clay, 4 as by default; a lone team keeps gold,
    and a team with no safe member is not the last (8 players in 4 teams, team 3 all
    exploded: teams 0, 1, 2 take gold, silver and clay)."""
    assert round_coins([1, 0, 2], [0, 1, 0, 1, 1], last_team_clay=True) == (1, 4, 1, 0, 0)
    three = round_coins(range(6), [0, 1, 2, 0, 1, 2], last_team_clay=True)
    assert three == (4, 3, 1, 4, 3, 1)
    four = round_coins([0, 1, 2, 3, 4, 5, 6], EXAMPLE_TEAMS, last_team_clay=True)
    assert four == (4, 3, 3, 4, 2, 1, 2, 0)
    assert round_coins([0, 2], [0, 1, 0, 1], last_team_clay=True) == (4, 0, 4, 0)
    assert round_coins([0, 1], [0, 1, 2, 2, 0, 1], last_team_clay=True) == (4, 1, 0, 0, 0, 0)
    eight = round_coins([0, 1, 2, 4, 5, 6], [0, 1, 2, 3] * 2, last_team_clay=True)
    assert eight == (4, 3, 1, 0, 4, 3, 1, 0)
    assert round_coins([0, 1, 2, 4, 5, 6], [0, 1, 2, 3] * 2) == (4, 3, 2, 0, 4, 3, 2, 0)


def test_last_team_clay_option_scores_a_played_round():
    """A 4-player round of two teams: seat 0 (team 0) is safe first, seat 1 (team 1) next,
    seat 2 explodes. By default team 1 takes silver; with last_team_clay, clay, in the
    state's scores and in the pictures of every seat alike."""
    hands = [["1"], ["2"], ["1"], ["3", "4"]]
    for clay, second in ((False, 3), (True, 1)):
        state = table(hands, [0, 1, 0, 1], leader=0, last_team_clay=clay)
        state = play(state, "0:play 1 @1 higher", "1:play 2 @2 higher", "2:boom")
        assert state.history[0] == ((0, 1, 3), (0, 1, 0, 1))
        assert state.coins == (4, second, 0, second)
        for seat in (None, 0, 1):
            assert f"scores {list(state.scores)}" in state.render(seat)


def test_round_coins_rejects_bad_seats():
    """A repeated or unknown seat in safe_order is a StateError."""
    with pytest.raises(fg.StateError, match="seat 0 is safe twice"):
        round_coins([0, 0], [0, 1, 0, 1])
    with pytest.raises(fg.StateError, match="4 is not a seat of a 4-player table"):
        round_coins([4], [0, 1, 0, 1])


def test_final_scores_count_two_per_token():
    """Points are coins plus 2 per Bokken token."""
    assert final_scores((10, 7, 3), (0, 1, 4)) == (10, 9, 11)


def test_tie_break_most_tokens_then_shared():
    """Ties on points go to the most Bokken tokens; still tied, the victory is shared."""
    assert decide_winners((12, 12, 9), (1, 2, 5)) == (1,)
    assert decide_winners((12, 12, 9), (2, 2, 5)) == (0, 1)
    assert decide_winners((13, 12, 9), (0, 2, 5)) == (0,)


def _last_round(game_state, tokens, history):
    """``game_state`` moved to round 3 with ``tokens`` and two finished rounds."""
    data = game_state.to_dict()
    data.update(round=3, tokens=tokens, history=history)
    return game_state.game.state_from_dict(data)


def test_final_tie_break_through_a_game_end():
    """Seats 0 and 2 end on 12 points; seat 2 holds a Bokken token, seat 0 none: seat 2 wins.

    Rounds 1–2: safe 0, 1, 2 (seat 3 exploded), teams 0/1/1/0: coins 4, 3, 3, 0
    each time, so 8, 6, 6, 0. Round 3 (teams 0/1/0/1): seat 0 plays its 5 and is
    safe 1st, naming seat 1 higher; seat 1 plays its 6, safe 2nd, naming seat 2;
    seat 2 plays 8 and names seat 3 higher; seat 3's 1 explodes, seat 2 takes a
    token and, alone left, is safe 3rd. Round 3 coins: team 0 gold for seats 0
    and 2 (4 each), team 1 silver for seat 1 (3). Totals 12, 9, 10 + 2, 0.
    """
    state = table([["5"], ["6"], ["8", "2"], ["1"]], [0, 1, 0, 1], leader=0)
    history = [{"safe_order": [0, 1, 2], "teams": [0, 1, 1, 0]}] * 2
    state = _last_round(state, [0, 0, 0, 0], history)
    assert state.scores == (8, 6, 6, 0)
    state = play(state, "0:play 5 @1 higher", "1:play 6 @2 higher", "2:play 8 @3 higher", "3:boom")
    assert state.is_terminal and state.current_player is None
    assert state.history[-1][0] == (0, 1, 2)
    assert state.coins == (12, 9, 10, 0)
    assert state.tokens == (0, 0, 1, 0)
    assert state.scores == (12, 9, 12, 0)
    assert state.winners == (2,)


def test_final_tie_shared():
    """Equal points and equal tokens at the end: the victory is shared.

    Round 1: safe 0, 1, 2 with teams 0/1/1/0 (4, 3, 3, 0); round 2: safe 2, 0, 1
    with teams 1/0/0/1 (3, 4, 4, 0): 7, 7, 7, 0. Round 3 (teams 0/1/0/1): seats
    0, 1, 2 play their last card in turn; seat 3 is left alone, safe 4th:
    coins 4, 3, 4, 3. With one token each for seats 0 and 2: 13, 10, 13, 3.
    """
    history = [
        {"safe_order": [0, 1, 2], "teams": [0, 1, 1, 0]},
        {"safe_order": [2, 0, 1], "teams": [1, 0, 0, 1]},
    ]
    state = table([["5"], ["6"], ["8"], ["1", "2"]], [0, 1, 0, 1], leader=0)
    state = _last_round(state, [1, 0, 1, 0], history)
    state = play(state, "0:play 5 @1 higher", "1:play 6 @2 higher", "2:play 8")
    assert state.is_terminal
    assert state.history[-1][0] == (0, 1, 2, 3)
    assert state.scores == (13, 10, 13, 3)
    assert state.winners == (0, 2)


@pytest.mark.parametrize(
    ("first", "tokens"),
    [(None, [1]), ([1], None), ([1, 2], [1]), (["a"], [1]), ([[1]], [1]), ([1.5], [1]), ([], [])],
)
def test_scoring_functions_refuse_malformed_counts(first, tokens):
    """final_scores and decide_winners take one int per seat in each list: anything else is a
    StateError (not TypeError or zip's ValueError)."""
    for function in (final_scores, decide_winners):
        with pytest.raises(fg.StateError, match=r"must be a list of ints|need one int per seat"):
            function(first, tokens)


@pytest.mark.parametrize(("order", "teams"), [(None, [0, 1]), ([0, 1], None), ([0], [[0], [1]])])
def test_round_coins_refuses_malformed_tables(order, teams):
    """round_coins of a non-list, or of unhashable team ids, is a StateError."""
    with pytest.raises(fg.StateError, match=r"must be a list of|is not a team id \(hashable\)"):
        round_coins(order, teams)


@pytest.mark.parametrize("flag", ["no", None, 0])
def test_last_team_clay_must_be_a_bool(flag):
    """round_coins refuses a last_team_clay that is not a bool ("no" was taken as True)."""
    with pytest.raises(fg.ConfigError, match="last_team_clay must be True or False"):
        round_coins([0, 1], [0, 1, 0, 1], last_team_clay=flag)
    assert round_coins([0, 1], [0, 1, 0, 1], last_team_clay=np.bool_(True)) == (4, 1, 0, 0)
