"""Golden positions from the original rulebooks (shared/seeds), worked out by hand.

Each test replays an example or a sentence of a seed rulebook whose exact case no other
test pinned; its docstring gives the seed's words and the working.
"""

from forestgames.bosk import PlaceLeaf
from tests.boom_bokken.helpers import play as boom_play
from tests.boom_bokken.helpers import table as boom_table
from tests.bosk.helpers import autumn_turn, start_path, targets


def test_bosk_the_french_covering_example_red_pays_one_violet_pays_two():
    """Seed 000 ("Laisser tomber, mon pote"): red covering yellow's leaf returns one leaf and
    lays another on top; violet later returns two and lays the third.

    3 players, seats 0 yellow, 1 red, 2 violet; round 1, wind N; yellow's leaf on (3, 3).
    Red's tree (3, 3) with tile 2: its base squares are (3, 3) and (3, 4); (3, 3) costs 1
    (one leaf, yellow's on top), so 2 - 1 returned - 1 laid = 0 leaves left: the path ends.
    Violet's tree (4, 3) with tile 4: first leaf on (4, 3) (3 left), then (3, 3), now two
    leaves topped by red: 2 returned, 1 laid, 0 left. Stacks: (3, 3) = yellow, red, violet.
    Supplies: red 35 - 2 + 1 = 34, violet 35 - 4 + 2 = 33.
    """
    yellow, red, violet = 0, 1, 2
    state = autumn_turn(
        3,
        mover=red,
        trees={(3, 3): (red, 1), (4, 3): (violet, 1), (6, 6): (yellow, 1)},
        leaves={(3, 3): (yellow,)},
    )
    state = start_path(state, (3, 3), 2)
    assert targets(state) == {(3, 3), (3, 4)}
    state = state.apply(PlaceLeaf(red, (3, 3)))
    assert state.stack((3, 3)) == (yellow, red)
    assert state.leaves_in_supply(red) == 34 and state.leaves_on_board(red) == 1
    assert state.current_player == violet
    state = start_path(state, (4, 3), 4).apply(PlaceLeaf(violet, (4, 3)))
    assert state.active_leaves == 3 and (3, 3) in targets(state)
    state = state.apply(PlaceLeaf(violet, (3, 3)))
    assert state.stack((3, 3)) == (yellow, red, violet)
    assert state.leaves_in_supply(violet) == 33 and state.leaves_on_board(violet) == 2
    assert state.current_player == yellow


def test_boom_bokken_a_seat_just_gone_safe_still_takes_the_token_of_its_target():
    """Seed 004 ("Le joueur qui a fait l'annonce faisant exploser la bombe prend un jeton
    Bokken"): the announcer takes the token also when its announcing card, its last, made it
    safe (docs/boom_bokken.md: Boom, Safe).

    4 players, teams 0/1/0/1, seat 0 leads. Seat 0 plays its last card, 5 at seat 1
    "higher": safe 1st, and seats 1, 2, 3 (two teams) play on, so it names a target. Seat 1
    holds only 2 and 3, nothing >= 5, and nobody holds F5 or a Temps Mort: it explodes and
    names seat 2 to lead. Seat 0, out of the round, takes the token: tokens 1, 0, 0, 0 and
    2 points; seat 0 stays safe and seat 1 exploded; the round goes on.
    """
    state = boom_table([["5"], ["2", "3"], ["4", "6"], ["7", "8"]], [0, 1, 0, 1])
    state = boom_play(state, "0:play 5 @1 higher")
    assert state.safe == (0,) and state.players_to_act == (1,)
    state = boom_play(state, "1:boom @2")
    assert state.tokens == (1, 0, 0, 0) and state.scores == (2, 0, 0, 0)
    assert state.safe == (0,) and state.exploded == (1,)
    assert state.players_in_round == (2, 3) and state.current_player == 2
