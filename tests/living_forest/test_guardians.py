"""The Guardian Animals phase: revealing, the solitary limit, Fragments, reshuffles."""

import pytest

import forestgames as fg
from forestgames.living_forest._tables import CARD_INDEX, VARAN
from forestgames.living_forest.state import Phase
from tests.living_forest.helpers import (
    checked,
    empty_deck,
    names,
    play,
    put,
    stack_deck,
    start,
    with_seat,
)


def test_reveal_moves_top_card_to_help_line():
    """A reveal puts the deck's top card at the end of the Help Line."""
    state = checked(stack_deck(start(), 0, "Hare", "Bee"))
    state = play(state, "0:reveal", "0:reveal")
    assert state.help_line(0) == ("Hare", "Bee")
    assert state.deck_size(0) == 12


def test_seats_reveal_in_turn_order_then_actions_begin():
    """Seat 0 reveals and stops, then seat 1; after the last seat the Action phase starts."""
    state = start(3)
    assert state.current_player == 0
    state = play(state, "0:reveal", "0:stop")
    assert (state.phase, state.current_player) == (Phase.GUARDIANS, 1)
    assert state.legal_moves(0) == ()
    state = play(state, "1:stop", "2:reveal", "2:stop")
    assert (state.phase, state.current_player) == (Phase.ACTIONS, 0)


def test_stop_before_the_first_card():
    """A Spirit may stop before revealing anything: its Help Line stays empty."""
    state = play(start(), "0:stop")
    assert state.lines[0] == () and state.current_player == 1


def test_third_solitary_symbol_forces_stop():
    """Without a Fragment, the third uncancelled solitary card ends the reveal at once."""
    state = checked(stack_deck(start(), 0, "Bear", "Hare", "Beetle", "Lynx", "Fox"))
    state = play(state, "0:reveal", "0:reveal", "0:reveal")
    assert names(state.legal_moves()) == ["0:reveal", "0:stop"]
    state = play(state, "0:reveal")
    assert state.help_line(0) == ("Bear", "Hare", "Beetle", "Lynx")
    assert state.current_player == 1 and state.solitary(0) == 3


def test_gregarious_symbol_cancels_one_solitary():
    """A gregarious card lets a fourth solitary card in; the count stays below 3 until then."""
    state = start()
    state = put(state, 0, "deck", ["Chimpanzee"])
    state = checked(stack_deck(state, 0, "Bear", "Chimpanzee", "Beetle", "Lynx", "Fox"))
    state = play(state, "0:reveal", "0:reveal", "0:reveal", "0:reveal")
    assert state.solitary(0) == 2 and state.current_player == 0
    state = play(state, "0:reveal")
    assert state.solitary(0) == 3 and state.current_player == 1
    assert len(state.lines[0]) == 5


def test_cancelled_cards_keep_their_elements():
    """A solitary card cancelled by a gregarious one still adds its elements."""
    state = start()
    state = put(state, 0, "line", ["Chimpanzee", "Beetle"])
    state = with_seat(state, "lines", 1, ())
    assert state.solitary(0) == 0
    # Chimpanzee: plant -2; Beetle: sun 3, plant 1 -> plant max(0, -1) = 0
    assert state.totals(0) == (3, 0, 0, 0, 0)


def test_fragment_spent_on_solitary_card():
    """A Fragment moves one solitary card from the Help Line to the discard; its elements go."""
    state = with_seat(start(), "fragments", 0, 1)
    state = checked(stack_deck(state, 0, "Beetle", "Hare"))
    state = play(state, "0:reveal", "0:reveal")
    assert "0:spend Beetle" in names(state.legal_moves())
    after = play(state, "0:spend Beetle")
    assert after.help_line(0) == ("Hare",)
    assert CARD_INDEX["Beetle"] in after.discards[0]
    assert after.fragments[0] == 0 and after.fragment_supply == 20
    assert after.totals(0) == (0, 0, 0, 1, 0)
    assert after.solitary(0) == 0


def test_no_spend_without_fragment_or_solitary_card():
    """Spending needs a Fragment and a solitary card in the Help Line."""
    state = checked(stack_deck(start(), 0, "Hare"))
    state = play(state, "0:reveal")
    assert names(state.legal_moves()) == ["0:reveal", "0:stop"]
    state = with_seat(state, "fragments", 0, 2)
    assert names(state.legal_moves()) == ["0:reveal", "0:stop"]


def test_after_third_fragment_reopens_reveal():
    """reveal_after_third=True: at 3 solitary a Fragment brings the count to 2 and reveals go on."""
    state = with_seat(start(), "fragments", 0, 1)
    state = checked(stack_deck(state, 0, "Bear", "Beetle", "Lynx", "Hare"))
    state = play(state, "0:reveal", "0:reveal", "0:reveal")
    assert state.current_player == 0
    assert names(state.legal_moves()) == [
        "0:spend Bear",
        "0:spend Beetle",
        "0:spend Lynx",
        "0:stop",
    ]
    state = play(state, "0:spend Lynx", "0:reveal")
    assert state.help_line(0) == ("Bear", "Beetle", "Hare")


def test_third_solitary_closes_line_in_seed_reading():
    """reveal_after_third=False: the third solitary card closes the Help Line, Fragments or not."""
    state = with_seat(start(reveal_after_third=False), "fragments", 0, 1)
    state = checked(stack_deck(state, 0, "Bear", "Beetle", "Lynx"))
    state = play(state, "0:reveal", "0:reveal", "0:reveal")
    assert state.current_player == 1 and state.fragments[0] == 1
    with pytest.raises(fg.IllegalMoveError, match=r"not seat 0|seat 1"):
        play(state, "0:spend Bear")


def test_spent_varan_goes_to_discard_by_default():
    """A Fire Varan sent away with a Fragment lands in the discard pile (the seed)."""
    state = with_seat(start(), "fragments", 0, 1)
    state = checked(stack_deck(put(state, 0, "deck", ["FireVaran"]), 0, "FireVaran"))
    state = play(state, "0:reveal", "0:spend FireVaran")
    assert state.discards[0] == (VARAN,) and state.varans == 22


def test_spent_varan_returns_with_option():
    """varan_returns=True: the Varan goes back to the Varan stack instead."""
    state = with_seat(start(varan_returns=True), "fragments", 0, 1)
    state = checked(stack_deck(put(state, 0, "deck", ["FireVaran"]), 0, "FireVaran"))
    state = play(state, "0:reveal", "0:spend FireVaran")
    assert state.discards[0] == () and state.varans == 23


def test_empty_deck_reshuffles_discard_when_drawing():
    """Wanting to draw from an empty deck shuffles the discard pile into a new deck."""
    state = checked(empty_deck(start(), 0))
    assert state.deck_size(0) == 0 and state.discard_size(0) == 14
    state = play(state, "0:reveal")
    assert state.deck_size(0) == 13 and state.discard_size(0) == 0
    assert len(state.lines[0]) == 1


def test_reshuffle_order_comes_from_the_state():
    """Two copies of a state reshuffle the same way; the reshuffle seed then changes."""
    state = empty_deck(start(), 0)
    a, b = play(state, "0:reveal"), play(state, "0:reveal")
    assert a == b and a.entropy != state.entropy


def _all_but_hare_in_line(state):
    """Seat 0 with three gregarious cards, every card in its Help Line but Hare on the deck."""
    state = put(state, 0, "line", ["Chimpanzee", "Toucan", "Butterfly"])
    hare = CARD_INDEX["Hare"]
    rest = tuple(c for c in state.decks[0] if c != hare)
    state = with_seat(state, "lines", 0, state.lines[0] + rest)
    return checked(with_seat(state, "decks", 0, (hare,)))


def test_empty_deck_and_discard_can_only_stop():
    """With nothing left to draw and no Fragment, the reveal passes on by itself."""
    state = _all_but_hare_in_line(start())
    assert state.solitary(0) == 2
    state = play(state, "0:reveal")
    assert state.current_player == 1 and len(state.lines[0]) == 17


def test_empty_deck_and_discard_with_fragment_offers_spend_and_stop():
    """With nothing to draw but a Fragment, spending and stopping are the choices."""
    state = play(with_seat(_all_but_hare_in_line(start()), "fragments", 0, 1), "0:reveal")
    assert state.current_player == 0
    assert "0:reveal" not in names(state.legal_moves())
    assert names(state.legal_moves())[-1] == "0:stop"
