"""Hypothesis properties of whole random Bosk games."""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import forestgames as fg
from forestgames.bosk import Phase
from forestgames.bosk._tables import ALL_TILES_MASK, LEAF_SUPPLY
from forestgames.bosk.scoring import plain_board_scores
from forestgames.bosk.state import mover
from tests.strategies import playthroughs

GAMES = {p: fg.make("bosk", num_players=p) for p in (2, 3, 4)}
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_game(states):
    """Every invariant on one game's states."""
    game = states[0].game
    players = game.num_players
    summer_board = None
    squirrel_stacks = {}
    for before, after in itertools.pairwise(states):
        for seat in range(players):
            on_board = after.leaves_on_board(seat)
            assert on_board <= LEAF_SUPPLY, "no player ever has more than 35 leaves on the board"
            assert after.leaves_in_supply(seat) == LEAF_SUPPLY - on_board
        for seat, square in enumerate(after.squirrels):
            if square >= 0:
                stack = after.stacks[square]
                assert squirrel_stacks.setdefault((seat, square), stack) == stack, (
                    "leaf on a squirrel"
                )
        assert sorted(after.order) == list(range(players))
        if before.phase is Phase.SPRING and after.phase is Phase.WIND:
            summer_board = (after.tree_owner, after.tree_value)
    final = states[-1]
    assert final.is_terminal
    assert (final.tree_owner == -1).all(), "every tree is removed by the end"
    assert all(used == ALL_TILES_MASK for used in final.tiles_used), "each tile used once"
    summer, winter = plain_board_scores(*summer_board, final.top, game.terrain, players)
    assert list(final.summer) == summer and list(final.winter) == winter
    assert final.scores == tuple(s + w for s, w in zip(summer, winter, strict=True))
    best = max(final.scores)
    assert final.winners[0] in [p for p in final.order if final.scores[p] == best][:1]


@SETTINGS
@given(playthroughs(GAMES[2]))
def test_invariants_two_players(states):
    """2 players: trees all gone, ≤ 35 leaves each, squirrels never covered, scores exact."""
    check_game(states)


@SETTINGS
@given(playthroughs(GAMES[3]))
def test_invariants_three_players(states):
    """3 players: the same invariants."""
    check_game(states)


@SETTINGS
@given(playthroughs(GAMES[4]))
def test_invariants_four_players(states):
    """4 players: the same invariants."""
    check_game(states)


@SETTINGS
@given(
    playthroughs(
        fg.make("bosk", num_players=3, squirrel_exactly_three=True, ties_include_start=False)
    )
)
def test_invariants_other_readings(states):
    """With the other readings of the choices: the same invariants."""
    check_game(states)


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_kept_turn_fields_match_the_position(data):
    """current_player and is_terminal, kept by the transitions, always equal what the
    phase, order and turn say (as a state loaded from its fields computes them)."""
    game = fg.make("bosk", num_players=data.draw(st.sampled_from([2, 3, 4])))
    for state in data.draw(playthroughs(game)):
        assert state.current_player == mover(state.phase, state.order, state.turn)
        assert state.is_terminal == (state.phase is Phase.OVER)


@settings(max_examples=10, deadline=None)
@given(st.data())
def test_spring_index_hint_points_at_the_move(data):
    """In spring the game's index hint finds every legal plant move at its place in the
    legal list (so apply checks one entry, not the whole list)."""
    game = fg.make("bosk", num_players=data.draw(st.sampled_from([2, 3, 4])))
    for state in data.draw(playthroughs(game)):
        if state.phase is not Phase.SPRING:
            break
        moves = state.legal_moves()
        for k in data.draw(st.lists(st.integers(0, len(moves) - 1), min_size=1, max_size=8)):
            assert moves[game._index_hint(state, moves[k])] is moves[k]
