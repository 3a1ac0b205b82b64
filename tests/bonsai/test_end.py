"""The end of the game (both end rules), the tie-break, and the solo game."""

import attrs
import pytest

import forestgames as fg
from forestgames.bonsai import GOALS, SOLO_TARGETS, Finish, Meditate, Phase
from tests.bonsai.helpers import arrange, example_tiles, play, supply

MARKET = ["tool", "growth:leaf", "parchment:wood", "master:leaf+leaf"]


def take_first(state):
    """The seat to move takes a card (its first Meditate move) and ends its turn (finishing a
    Helper's placements at once, then the first discard or goal move while any is due)."""
    turn = state.turn
    state = state.apply(next(m for m in state.legal_moves() if isinstance(m, Meditate)))
    while not state.is_terminal and state.turn == turn:
        moves = state.legal_moves()
        state = state.apply(
            Finish(state.current_player) if Finish(state.current_player) in moves else moves[0]
        )
    return state


# ---------------------------------------------------------------------- end rules


def test_round_rule_finishes_the_round_when_the_first_player_empties_the_deck():
    """Seed rule, 2 players: seat 0 (first) draws the last card; seat 1 plays, then it ends."""
    state = take_first(arrange(2, deck_size=1))
    assert state.deck_size == 0 and state.last_turn == 1 and not state.is_terminal
    over = take_first(state)
    assert over.is_terminal and over.phase is Phase.OVER and over.turn == 1


def test_round_rule_ends_at_once_when_the_last_seat_empties_the_deck():
    """The deck emptied on the round's last turn: every player has had as many turns."""
    state = arrange(3, deck_size=1, turn=2)
    assert take_first(state).is_terminal


def test_round_rule_in_the_middle_of_a_round():
    """3 players, seat 1 empties the deck: seat 2 plays, then the game is over."""
    state = take_first(arrange(3, deck_size=1, turn=1))
    assert state.last_turn == 2 and state.current_player == 2
    assert take_first(state).is_terminal


def test_extra_turn_rule_gives_everyone_one_more_turn():
    """Published rule: after seat 0 empties the deck, seats 1 and 0 each play once more."""
    state = take_first(arrange(2, options={"end_rule": "extra_turn"}, deck_size=1))
    assert state.last_turn == 2
    state = take_first(state)
    assert not state.is_terminal and state.current_player == 0
    assert take_first(state).is_terminal


def test_the_end_waits_for_the_last_turns_goals_and_discards():
    """The last turn's discard step still happens before the game ends."""
    state = arrange(
        2, deck_size=0, turn=1, market=MARKET, supplies={1: supply(wood=5)}, last_turn=1
    )
    over = play(state, "1:meditate 4")
    assert over.phase is Phase.DISCARD and not over.is_terminal
    while over.phase is Phase.DISCARD:
        over = over.apply(over.legal_moves()[0])
    assert over.is_terminal


# ---------------------------------------------------------------------- winners


def _finished(state, trees):
    """``state`` marked over with ``trees`` and no cards (only winners are read)."""
    from forestgames.bonsai.tree import Tree

    return attrs.evolve(
        state,
        phase=Phase.OVER,
        trees=tuple(Tree.from_tiles(t) for t in trees),
        cards=((),) * len(trees),
    )


LEAVES_2 = {(0, -1): "wood", (-1, -1): "leaf", (1, -1): "leaf"}
LEAVES_1 = {(0, -1): "wood", (-1, -1): "leaf"}


def test_highest_score_wins():
    """6 points beat 3."""
    state = _finished(arrange(3), [LEAVES_1, LEAVES_2, LEAVES_1])
    assert state.scores == (3, 6, 3) and state.winners == (1,)


def test_tie_goes_to_the_seat_farthest_clockwise_from_the_first_player():
    """First player 1, order 1, 2, 0: seats 1 and 0 tie, seat 0 (last in order) wins;
    seats 1 and 2 tie, seat 2 wins."""
    state = arrange(3, first_player=1)
    assert _finished(state, [LEAVES_2, LEAVES_2, LEAVES_1]).winners == (0,)
    assert _finished(state, [LEAVES_1, LEAVES_2, LEAVES_2]).winners == (2,)
    assert _finished(state, [LEAVES_2, LEAVES_1, LEAVES_1]).winners == (0,)


def test_no_winner_before_the_end():
    """winners is empty while the game goes on."""
    assert arrange(2).winners == ()


# ---------------------------------------------------------------------- solo


def solo(**fields):
    return arrange(1, market=MARKET, deck_top=["growth:flower", "growth:wood", "tool"], **fields)


def test_solo_meditate_discards_the_deck_side_neighbour():
    """Solo: taking slot 3 discards slot 2's card; the market refills two cards."""
    after = play(solo(), "0:meditate 3")
    assert after.to_dict()["discards"][-1] == "growth:leaf"
    assert after.market_cards == ("growth:wood", "growth:flower", "tool", "master:leaf+leaf")


def test_solo_meditate_from_slot_one_discards_the_deck_top():
    """Solo: taking slot 1 discards the deck's top card instead."""
    state = solo()
    after = play(state, "0:meditate 1")
    assert after.deck_size == state.deck_size - 2
    assert after.market_cards == (
        "growth:wood",
        "growth:leaf",
        "parchment:wood",
        "master:leaf+leaf",
    )


def test_solo_cultivate_discards_slot_four():
    """Solo: after a Cultivate the card in slot 4 goes, the others slide, slot 1 refills."""
    after = play(solo(supplies={0: supply(wood=1)}), "0:place wood@0,-1")
    assert after.market_cards == ("growth:flower", "tool", "growth:leaf", "parchment:wood")
    assert len(after.discards) == len(solo().discards) + 1


def test_solo_game_ends_after_the_turn_that_empties_the_deck():
    """A round is one turn in solo: the deck's last card ends the game with that turn."""
    state = arrange(1, deck_size=2)
    assert take_first(state).is_terminal


def test_solo_extra_turn_option_gives_one_more_turn():
    """With end_rule='extra_turn' the solo player plays once more after the deck runs out."""
    state = take_first(arrange(1, options={"end_rule": "extra_turn"}, deck_size=2))
    assert not state.is_terminal
    assert take_first(state).is_terminal


def _solo_seed_with(colours):
    """The first seed whose solo game puts exactly ``colours`` in play."""
    game = fg.make("bonsai", num_players=1)
    for seed in range(200):
        mask = game.new_game(seed=seed).goals_in_play
        if {GOALS[g].colour for g in range(15) if mask >> g & 1} == set(colours):
            return seed
    raise AssertionError("no such seed")


SOLO_SEED = _solo_seed_with(("brown", "green", "orange"))


def solo_over(goals, difficulty=1):
    """A finished solo game (brown, green, orange in play) with the example tree (72)."""
    return arrange(
        1,
        seed=SOLO_SEED,
        options={"solo_difficulty": difficulty},
        deck_size=0,
        trees={0: example_tiles()},
        goal_owners={g: 0 for g in goals},
        phase="over",
        turn=20,
        last_turn=20,
    )


THREE_SMALL = ["brown 1", "green 1", "orange 1"]  # 5 + 6 + 9 = 20
THREE_LARGE = ["brown 3", "green 3", "orange 3"]  # 15 + 12 + 13 = 40


def test_solo_targets():
    """Difficulties 1-4 need 80, 100, 120, 140 points."""
    assert SOLO_TARGETS == {1: 80, 2: 100, 3: 120, 4: 140}


@pytest.mark.parametrize(
    "goals, difficulty, won",
    [
        (THREE_SMALL, 1, True),  # 92 >= 80
        (THREE_SMALL, 2, False),  # 92 < 100
        (THREE_LARGE, 2, True),  # 112 >= 100
        (THREE_LARGE, 3, False),  # 112 < 120
        (THREE_LARGE, 4, False),
        (["brown 3", "green 3"], 1, False),  # 99 points but two goals only
    ],
)
def test_solo_win_and_loss(goals, difficulty, won):
    """Solo is won with three goals (one per colour) and the difficulty's points."""
    state = solo_over(goals, difficulty)
    assert state.is_terminal
    assert state.solo_won is won
    assert state.winners == ((0,) if won else ())


def test_solo_scores_of_the_win_cases():
    """The totals the win and loss cases rely on."""
    assert solo_over(THREE_SMALL).scores == (92,)
    assert solo_over(THREE_LARGE).scores == (112,)


def test_solo_options():
    """Solo plays the published goal setup; difficulty is a solo option only."""
    with pytest.raises(fg.ConfigError, match="published"):
        fg.make("bonsai", num_players=1, goal_setup="all")
    with pytest.raises(fg.ConfigError, match="solo"):
        fg.make("bonsai", num_players=2, solo_difficulty=2)
    for bad in (0, 5, "2", True):
        with pytest.raises(fg.ConfigError):
            fg.make("bonsai", num_players=1, solo_difficulty=bad)
