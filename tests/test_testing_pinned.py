"""Broken games the shipped harness must reject, which a mutation audit of
``forestgames/testing.py`` found it could accept (each test names what the harness had
stopped checking under the mutant)."""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import pytest

from forestgames.boom_bokken.actions import BoomBokkenCodec
from forestgames.boom_bokken.rules import BoomBokkenGame
from forestgames.core import StateError, register_game
from forestgames.testing import check_game, random_game
from tests.test_conformance import _BuzzOf, _ForgotBuzz
from tests.test_fake_game import Add, Buzz, BuzzGame, BuzzState


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The game registry, restored after the test."""
    from forestgames import core

    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    return core._REGISTRY


def _clamped_buzz(num_players: int = 2, **options: Any) -> BuzzGame:
    """Buzz's factory that seats at most 3 instead of refusing a bigger count."""
    return BuzzGame.create(num_players=min(num_players, 3), **options)


def test_a_registered_factory_must_refuse_a_bad_player_count(registry):
    """A registered game whose factory makes a game for num_players=99 (a 3-player one)
    instead of a ConfigError fails the harness naming make 99 (its class refuses 99, and
    make rebuilds it from its options, so nothing else tells)."""
    register_game("buzz", _clamped_buzz)
    with pytest.raises(AssertionError, match=r"^buzz: make 99: did not raise ConfigError$"):
        check_game(BuzzGame.create(target=12), games=1)


def test_an_equal_move_is_applied_on_deep_checked_states_too():
    """A move refused as an equal copy parsed from its notation (MOVE_TYPES forgets Buzz)
    fails the harness when every state is deep-checked (deep_every=1), not only on the
    states between deep checks."""
    with pytest.raises(AssertionError, match=r"step \d+: apply refused '\d:buzz' parsed"):
        check_game(_ForgotBuzz.create(target=12), games=2, seed=3, deep_every=1)


@attrs.frozen(repr=False)
class _Plus(Add):
    """Buzz's add whose repr reads back as a plain Add: another class, so not equal."""

    def __repr__(self) -> str:
        return f"Add({self.player}, {self.amount})"


class _PlusBuzz(BuzzGame):
    """Buzz whose adds are _Plus moves (a repr that does not evaluate back to the move)."""

    MOVE_TYPES = (_Plus, Buzz)

    def _legal_moves(self, state, player):
        moves = super()._legal_moves(state, player)
        return tuple(_Plus(m.player, m.amount) if isinstance(m, Add) else m for m in moves)

    def _parse_move(self, text):
        move = super()._parse_move(text)
        return _Plus(move.player, move.amount) if isinstance(move, Add) else move


def test_a_moves_repr_must_evaluate_back_to_it():
    """A legal move whose repr evaluates (in its class's module) to an unequal move fails
    the harness with 'repr of' naming it (the repr is checked on deep-checked live states,
    where a move was drawn; at the end there is none)."""
    with pytest.raises(AssertionError, match=r"step \d+: repr of Add\(\d, [12]\)"):
        check_game(_PlusBuzz.create(target=12), games=1)


class _OnesBuzz(BuzzGame):
    """Buzz of adds of 1 only and no buzz: every game lasts exactly ``target`` moves, its
    declared maximum, and 2 seats score (target + 1) // 2 and target // 2, the ends of its
    declared score range."""

    def _max_moves(self):
        return self.target

    def _score_range(self):
        return (self.target // 2, (self.target + 1) // 2)

    def _players_to_act(self, state):
        return () if state.is_terminal else (state.turn,)

    def _legal_moves(self, state, player):
        return (Add(player, 1),) if player == state.turn else ()


def test_a_game_that_reaches_its_maximum_moves_and_score_range_passes():
    """A game whose every game lasts exactly its declared max_moves and ends on both ends of
    its declared score_range obeys the protocol (both are inclusive bounds): check_game
    passes it. Target 5: seats alternate adds of 1, so the first adds 3, the other 2."""
    game = _OnesBuzz.create(target=5)
    assert game.traits.max_moves == 5 and game.traits.score_range == (2, 3)
    assert sorted(random_game(game, 0)[-1][0].scores) == [2, 3]
    check_game(game, games=2, deep_every=1)


class _ReprLoad(BuzzGame):
    """Buzz whose state_from_dict names what it was given by its repr: Python's ValueError
    for an int too long to write (over 4300 digits), not the library's StateError."""

    def state_from_dict(self, data):
        if not isinstance(data, dict):
            raise StateError(f"not a saved Buzz state: {data!r}")
        return super().state_from_dict(data)


def test_loading_a_huge_int_must_be_a_state_error():
    """A saved state of 10**5000 (an int too long for repr) must be refused with
    StateError: a game whose refusal raises ValueError fails the harness naming it."""
    with pytest.raises(
        AssertionError, match=r"buzz: load <an int of 5001 digits>: raised ValueError"
    ):
        check_game(_ReprLoad.create(target=12), games=1)


class _SeatPastTheLastWins(BuzzGame):
    """Buzz whose winners also list seat ``num_players``, one past the last."""

    def _winners(self, state):
        return (*super()._winners(state), self.num_players)


class _SeatMinusOneWins(BuzzGame):
    """Buzz whose winners also list seat -1, one before the first."""

    def _winners(self, state):
        return (*super()._winners(state), -1)


@pytest.mark.parametrize(
    ("broken", "seat"), [(_SeatPastTheLastWins, "2"), (_SeatMinusOneWins, "-1")], ids=["2", "-1"]
)
def test_a_winner_must_be_a_seat_of_the_game(broken, seat):
    """Winners listing seat num_players or -1 (no seats of a 2-player game: seats are 0 and
    1) fail the harness, naming the winners."""
    with pytest.raises(AssertionError, match=rf"step \d+: winners \([\d, ]*{seat}\) are not a"):
        check_game(broken.create(target=12), games=1)


@attrs.frozen(slots=False)
class _DeepCopiedState(BuzzState):
    """Buzz's state whose deepcopy is a new, equal state (its copy is itself)."""

    def __deepcopy__(self, memo):
        return self._evolve()


class _DeepCopied(_BuzzOf):
    """Buzz whose states are copied by copy.deepcopy."""

    STATE = _DeepCopiedState


def test_a_deepcopy_of_a_state_must_be_the_state_itself():
    """A state (immutable) whose copy.deepcopy is a new object, though copy.copy is the state
    itself, fails the harness: copies must be free."""
    with pytest.raises(AssertionError, match=r"step 0: copy\.copy or copy\.deepcopy of a stat"):
        check_game(_DeepCopied.create(target=12), games=1)


class _Blank(BuzzGame):
    """Buzz whose referee's picture (render() with no seat) is empty."""

    def _render_text(self, state, player):
        return super()._render_text(state, player) if player is not None else ""


def test_the_referees_picture_must_not_be_empty():
    """render() (the referee's view, everything) that is an empty text fails the harness
    at the first deep-checked state (a seat's view may draw nothing; the referee's may not)."""
    with pytest.raises(AssertionError, match=r"seed \d+ step 0$"):
        check_game(_Blank.create(target=12), games=1)


class _NextSeatDecodeCodec(BoomBokkenCodec):
    """Boom Bokken's codec decoding an id as the next seat's move (ids and masks right)."""

    def move_from_id(self, action_id, player):
        decoded = super().move_from_id(action_id, player)
        return super().move_from_id(action_id, (decoded.player + 1) % self.num_players)


class _LongMaskCodec(BoomBokkenCodec):
    """Boom Bokken's codec whose masks (int8, read-only) hold one id too many, always 0."""

    def _mask_of(self, ids):
        frozen, _ = super()._mask_of(ids)
        longer = frozen + bytes(1)
        return longer, np.frombuffer(longer, np.int8)


class _DoubleTensorCodec(BoomBokkenCodec):
    """Boom Bokken's codec whose tensors (read-only, the right values) are float64."""

    def _new_tensor(self, state, player):
        tensor = super()._new_tensor(state, player).astype(np.float64)
        tensor.flags.writeable = False
        return tensor


@attrs.frozen(slots=False, repr=False)
class _NextSeatDecode(BoomBokkenGame, name="next_seat_decode"):  # Boom Bokken's traits
    def _make_codec(self):
        return _NextSeatDecodeCodec(self)


@attrs.frozen(slots=False, repr=False)
class _LongMask(BoomBokkenGame, name="long_mask"):  # Boom Bokken's traits, inherited
    def _make_codec(self):
        return _LongMaskCodec(self)


@attrs.frozen(slots=False, repr=False)
class _DoubleTensor(BoomBokkenGame, name="double_tensor"):  # Boom Bokken's traits, inherited
    def _make_codec(self):
        return _DoubleTensorCodec(self)


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (_NextSeatDecode, r"step 0: id \d+ decodes to .*player=1.*, not .*player=0"),
        (_LongMask, r"step 0: mask form$"),
        (_DoubleTensor, r"step 0: tensor form$"),
    ],
    ids=["decode-other-seat", "long-mask", "float64-tensor"],
)
def test_ids_must_decode_back_and_masks_and_tensors_have_their_form(broken, message):
    """An id that decodes to another move (here the next seat's), a mask of int8 with
    num_actions + 1 entries, and a tensor of float64 with the right values fail the harness
    (the masks' ids and the tensors' values alone all agree)."""
    with pytest.raises(AssertionError, match=message):
        check_game(broken.create(num_players=4), games=1)


class _OthersFirst(BuzzGame):
    """Buzz whose players_to_act lists the out-of-turn seats before the current one."""

    def _players_to_act(self, state):
        acting = super()._players_to_act(state)
        return (*acting[1:], *acting[:1])


def test_players_to_act_must_start_with_the_current_player():
    """players_to_act that does not start with current_player (the out-of-turn seats
    first) fails the harness at the first state, naming both."""
    with pytest.raises(AssertionError, match=r"step 0: players_to_act \(\d, \d\) does not start"):
        check_game(_OthersFirst.create(target=12), games=1)


class _AddTwoReadAsOne(BuzzGame):
    """Buzz whose parser reads 'add 2' as an add of 1: a legal move's notation reads back
    as another move."""

    def _parse_move(self, text):
        move = super()._parse_move(text)
        return Add(move.player, 1) if isinstance(move, Add) else move


def test_each_legal_moves_notation_must_read_back_to_it():
    """A legal move whose notation parses to another move fails the harness naming the
    move, at the first state where it is legal."""
    with pytest.raises(AssertionError, match=r"step 0: notation round trip of Add\(player="):
        check_game(_AddTwoReadAsOne.create(target=12), games=1)


class _FloatScores(BuzzGame):
    """Buzz whose scores are floats (1.0 for 1): equal to the ints, but not ints."""

    def _scores(self, state):
        return tuple(float(s) for s in super()._scores(state))


def test_scores_must_be_ints():
    """Scores that are floats, though whole, fail the harness at the first state, naming
    them (a score is an int per seat)."""
    with pytest.raises(AssertionError, match=r"step 0: scores \(0\.0, 0\.0\) are not a tuple"):
        check_game(_FloatScores.create(target=12), games=1)


@attrs.frozen(slots=False)
class _AnySeatState(BuzzState):
    """Buzz's state that applies an add of a seat not to act (its own apply, as a game not
    built on the engine base may write it, checks a move's kind only)."""

    def apply(self, move):
        if isinstance(move, Add) and move.player not in self.players_to_act:
            return self.game._step(self, move)
        return super().apply(move)


class _AnySeat(_BuzzOf):
    """Buzz whose states take an add from a seat that may not act."""

    STATE = _AnySeatState


def test_a_move_of_a_seat_not_to_act_must_be_refused():
    """A state that applies a legal move handed to a seat not in players_to_act (once the
    other seat has buzzed, only the current seat acts) fails the harness naming the move."""
    with pytest.raises(AssertionError, match=r"step \d+: \d:add 1: did not raise IllegalMoveE"):
        check_game(_AnySeat.create(target=12), games=5, seed=1)
