"""Hypothesis properties over random legal games (tests/strategies.py)."""

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import forestgames as fg
from forestgames.boom_bokken import Boom, Play, TimeOut
from forestgames.boom_bokken._tables import ANNOUNCEMENTS, CARD_NAMES
from tests.strategies import playthroughs, random_game

GAMES = [
    fg.make("boom_bokken", num_players=4),
    fg.make("boom_bokken", num_players=6, team_sizes=[3, 3]),
    fg.make("boom_bokken", num_players=9),
    fg.make("boom_bokken", num_players=5, expert=True),
    fg.make("boom_bokken", num_players=8, expert=True, team_sizes=[4, 4]),
    fg.make("boom_bokken", num_players=7, expert=True, spent_time_outs="deck"),
]
SETTINGS = settings(max_examples=12, deadline=None)


def _cards(state):
    total = Counter(state.pile) + Counter(state.deck)
    for hand in state.hands:
        total.update({code: n for code, n in enumerate(hand) if n})
    total[0] += state.aside
    return total


@SETTINGS
@given(st.sampled_from(GAMES).flatmap(playthroughs))
def test_cards_are_conserved(states):
    """Hands, deck, pile and set-aside Temps Mort always hold exactly the game's deck."""
    composition = Counter({code: n for code, n in enumerate(states[0].game.deck) if n})
    for state in states:
        assert _cards(state) == composition


@SETTINGS
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1))
def test_players_out_of_the_round_never_act(game, seed):
    """A safe or exploded seat has no move, is never among players_to_act, never moves."""
    for state, move in random_game(game, seed):
        out = set(state.safe) | set(state.exploded)
        assert not out & set(state.players_to_act)
        for seat in out:
            assert state.legal_moves(seat) == ()
        if move is not None:
            assert move.player not in out


@SETTINGS
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1))
def test_kept_attributes_match_the_position(game, seed):
    """is_terminal and the primed legal moves, kept by the transitions, always equal what
    the position says (checked against a state rebuilt from its saved form)."""
    for state, _ in random_game(game, seed):
        assert state.is_terminal == state.over
        rebuilt = game.state_from_dict(state.to_dict())
        for seat in state.players_to_act:
            assert state.legal_moves(seat) == rebuilt.legal_moves(seat)


@SETTINGS
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1))
def test_every_round_ends(game, seed):
    """Every random game ends within max_moves after three rounds; the last safe player leads
    the next round; scores are coins plus 2 per token; tokens never exceed explosions."""
    pairs = list(random_game(game, seed))
    final = pairs[-1][0]
    assert final.is_terminal and len(pairs) - 1 <= game.traits.max_moves
    assert len(final.history) == 3
    explosions = 0
    for order, _ in final.history:
        assert order and len(set(order)) == len(order)
        explosions += game.num_players - len(order)
    assert sum(final.tokens) <= explosions
    assert final.scores == tuple(c + 2 * t for c, t in zip(final.coins, final.tokens, strict=True))
    low, high = game.traits.score_range
    assert all(low <= s <= high for s in final.scores)
    rounds = [s.round for s, _ in pairs]
    assert rounds == sorted(rounds) and set(rounds) == {1, 2, 3}
    for (before, _), (after, _) in itertools.pairwise(pairs):
        if after.round != before.round:  # the last safe player leads the next round
            assert after.leader == after.history[-1][0][-1] and after.players_to_act == (
                after.leader,
            )


def _candidates(state, rng, count):
    """Random moves of every shape, most of them illegal."""
    p = state.game.num_players
    seats = list(range(p))
    targets = [*seats, None]
    names = list(CARD_NAMES[1:])
    for _ in range(count):
        seat = rng.choice(seats)
        kind = rng.random()
        if kind < 0.1:
            yield TimeOut(seat)
        elif kind < 0.2:
            yield Boom(seat, rng.choice(targets))
        else:
            name = rng.choice(names)
            cards = (name,) * (1 if rng.random() < 0.8 else rng.randint(2, 3))
            announce = rng.choice([*ANNOUNCEMENTS, None])
            yield Play(seat, cards, rng.choice(targets), announce, rng.random() < 0.2)


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1))
def test_legality_check_agrees_with_legal_moves(game, seed):
    """apply accepts exactly the moves legal_moves lists (random moves of every shape), and
    every seat's legal moves survive the notation round trip."""
    rng = random.Random(seed)
    for step, (state, _) in enumerate(random_game(game, seed)):
        if state.is_terminal or step % 3:
            continue
        legal = {seat: set(state.legal_moves(seat)) for seat in range(game.num_players)}
        for moves in legal.values():
            for move in moves:
                assert game.parse_move(str(move)) == move  # out-of-turn moves too
        for move in _candidates(state, rng, 60):
            try:
                state.apply(move)
            except fg.IllegalMoveError as error:
                assert move not in legal[move.player], move
                assert "is not legal now" not in str(error), (move, str(error))
            else:
                assert move in legal[move.player], move


@SETTINGS
@given(st.sampled_from(GAMES).flatmap(playthroughs))
def test_derived_holders_follow_the_hands(states):
    """The per-card holder masks behind players_to_act always match the hands (for the
    Temps Mort and Flash codes; 0 for the orange ones)."""
    for state in states:
        holders = tuple(
            0 if 1 <= code <= 8 else sum(1 << s for s, h in enumerate(state.hands) if h[code])
            for code in range(17)
        )
        assert state.holders == holders


@SETTINGS
@given(st.sampled_from(GAMES).flatmap(playthroughs), st.integers(0, 2**31))
def test_saved_states_load_back(states, seed):
    """Every reachable state passes the saved-state invariants and round-trips exactly."""
    state = states[random.Random(seed).randrange(len(states))]
    restored = state.game.state_from_dict(state.to_dict())
    assert restored == state and restored.holders == state.holders
    assert restored.legal_moves() == state.legal_moves()
