"""Golden positions from the original rulebooks (shared/seeds), worked out by hand.

Each test replays an example or a sentence of a seed rulebook whose exact case no other
test pinned; its docstring gives the seed's words and the working.
"""

from forestgames.bosk import PlaceLeaf
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
