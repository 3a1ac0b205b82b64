"""The shared protocol, checked by the shipped harness on every registered game and case.

Each game declares its cases (every player count, plus option sets worth
checking: ``conformance_cases()``); the fake game of the tests is checked too,
so the harness is known to work on a game that is not registered.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pytest

import forestgames as fg
from forestgames.boom_bokken.actions import BoomBokkenCodec
from forestgames.boom_bokken.rules import BoomBokkenGame
from forestgames.core import GameBase, StateBase
from forestgames.schema import Field, Int, Spec
from forestgames.testing import check_game
from tests.test_fake_game import Add, Buzz, BuzzGame, BuzzState


def _cases(name: str) -> tuple[dict, ...]:
    cls = type(fg.make(name))
    cases = getattr(cls, "conformance_cases", None)
    if cases is not None:
        return cases()  # type: ignore[no-any-return]
    traits = fg.make(name).traits
    return tuple({"num_players": p} for p in range(traits.min_players, traits.max_players + 1))


CASES = [(name, options) for name in fg.GAME_NAMES for options in _cases(name)]


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}-{o}" for n, o in CASES])
def test_conformance(name, options):
    """Random games of each registered game and case obey the whole shared protocol."""
    game = fg.make(name, **options)
    assert isinstance(game, GameBase)
    check_game(game, games=2, seed=7)


@pytest.mark.parametrize("players", [2, 3])
def test_conformance_of_an_unregistered_game(players):
    """The harness runs on a game of the user's own that ``make`` does not know."""
    check_game(BuzzGame.create(num_players=players, target=12), games=5, seed=1)


def test_harness_names_a_broken_promise():
    """A game whose options() cannot rebuild it fails the harness with a message naming it."""

    class Broken(BuzzGame):
        def options(self):
            return {"num_players": self.num_players}

    with pytest.raises(AssertionError, match="options"):
        check_game(Broken.create(target=20), games=1)


class _Crashes(BuzzGame):
    """Buzz whose transition raises once the counter reaches 4."""

    def _step(self, state, move):
        if state.counter >= 4:
            raise KeyError("boom")
        return super()._step(state, move)


class _OtherSeat(BuzzGame):
    """Buzz that lists a move of the next seat among a seat's legal moves."""

    def _legal_moves(self, state, player):
        moves = super()._legal_moves(state, player)
        return (*moves, Add((player + 1) % self.num_players, 1)) if moves else moves


class _Mutates(BuzzGame):
    """Buzz whose transition also writes the new counter into the old state."""

    def _step(self, state, move):
        successor = super()._step(state, move)
        object.__setattr__(state, "counter", successor.counter)
        return successor


def test_harness_checks_each_state_before_its_move_is_applied():
    """Each state is checked before the harness applies its move, so it names the seed and
    step of a hook that raises, sees a move listed for the wrong seat, and sees an ``apply``
    that changes the state it was given even when the change is the same every time."""
    with pytest.raises(AssertionError, match=r"seed \d+ step \d+: KeyError: 'boom'"):
        check_game(_Crashes.create(target=12), games=1)
    with pytest.raises(AssertionError, match="belongs to another seat"):
        check_game(_OtherSeat.create(target=12), games=1)
    with pytest.raises(AssertionError, match="apply changed the state it was given"):
        check_game(_Mutates.create(target=12), games=1)


class _ParsesBadly(BuzzGame):
    """Buzz whose parser raises Python's own TypeError on notation it cannot read."""

    def _parse_move(self, text):
        if text.endswith(("add 1", "add 2", "buzz")):
            return super()._parse_move(text)
        raise TypeError("cannot read it")


def test_harness_names_the_wrong_error_and_a_game_that_never_ends():
    """The harness fails a game whose bad input raises a Python exception instead of the
    library's error (naming the call and the exception), and a game not over after its
    declared maximum of moves (an endless Buzz: adds never move the counter)."""
    with pytest.raises(AssertionError, match=r"buzz: parse .*: raised TypeError: cannot read it"):
        check_game(_ParsesBadly.create(target=12), games=1)
    with pytest.raises(AssertionError, match=r"buzz: random game \d+ not over after its maximum"):
        check_game(BuzzGame.create(target=12, endless=True), games=1)


class _ForgotBuzz(BuzzGame):
    """Buzz whose MOVE_TYPES forgets Buzz: its own Buzz moves apply, an equal copy is refused."""

    MOVE_TYPES = (Add,)


_STRAY = random.Random()
"""A global RNG, as a game that draws from one uses it (re-seeded by each test)."""


class _StrayStart(BuzzGame):
    """Buzz whose start seat comes from a global RNG, not from the seed."""

    def _new_game(self, seed, first_player):
        if first_player is None:
            first_player = _STRAY.randrange(self.num_players)
        return super()._new_game(seed, first_player)


class _StrayBonus(BuzzGame):
    """Buzz whose buzz bonus (2 or 3) comes from a global RNG, not from the state."""

    def _step(self, state, move):
        successor = super()._step(state, move)
        if isinstance(move, Buzz) and _STRAY.random() < 0.5:
            bonus = tuple(b - (s == move.player) for s, b in enumerate(successor.bonus))
            successor = successor._evolve(bonus=bonus)
        return successor


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (_ForgotBuzz, r"step \d+: apply refused '\d:buzz' parsed from its notation"),
        (_StrayStart, r"seed \d+: new_game\(\d+\) gives another state the second time"),
        (_StrayBonus, r"step \d+: applying '\d:buzz' twice gives two states"),
    ],
    ids=["move-types", "stray-start", "stray-step"],
)
def test_harness_applies_an_equal_move_and_starts_each_seed_twice(broken, message):
    """A legal move refused as an equal copy (parsed from its notation), a start seat and a
    transition drawn from a global RNG fail the harness (it applied only the legal move
    objects and replayed one seed, so all three passed it with these seeds)."""
    _STRAY.seed(24)
    with pytest.raises(AssertionError, match=message):
        check_game(broken.create(target=12), games=2, seed=3)


class _ShortSave(BuzzGame):
    """Buzz whose saved counter stops at the target: the end (target + 1, after an add of
    2) cannot be loaded, and only the end reaches it."""

    def _state_fields(self):
        counter = Field("counter", Int(0, self.target), lambda s: s.counter)
        return (counter, *super()._state_fields()[1:])


class _EarlyScores(BuzzGame):
    """Buzz whose scores before the end leave out the last seat."""

    def _scores(self, state):
        scores = super()._scores(state)
        return scores if state.is_terminal else scores[:-1]


class _TwiceWinner(BuzzGame):
    """Buzz that lists its first winner twice."""

    def _winners(self, state):
        winners = super()._winners(state)
        return (*winners, winners[0])


@attrs.frozen(slots=False)
class _PlaysOnState(BuzzState):
    """Buzz's state that applies a move after the end too (its own apply, as a game not
    built on the engine base may write it, checks a move's kind only)."""

    def apply(self, move):
        if self.is_terminal and isinstance(move, Add | Buzz):
            return self.game._step(self, move)
        return super().apply(move)


class _BuzzOf(BuzzGame):
    """Buzz whose states are of class ``STATE`` (a subclass of BuzzState)."""

    STATE: type = BuzzState

    def _new_game(self, seed, first_player):
        state = super()._new_game(seed, first_player)
        return self.STATE(*attrs.astuple(state, recurse=False))

    def _state_from_fields(self, fields):
        return self.STATE(*attrs.astuple(super()._state_from_fields(fields), recurse=False))


class _PlaysOn(_BuzzOf):
    """Buzz whose final state takes more moves."""

    STATE = _PlaysOnState


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (_ShortSave, r"step \d+: StateError: counter must be an int in 0\.\.12, not 13"),
        (_EarlyScores, r"step 0: scores \(0,\) are not a tuple of one int per seat"),
        (_TwiceWinner, r"step \d+: a winner listed twice"),
        (_PlaysOn, r"step \d+: after the end, apply\(\d:(add \d|buzz)\): did not raise"),
    ],
    ids=["end-not-loadable", "early-scores", "winner-twice", "plays-on"],
)
def test_harness_checks_the_end_state_and_the_scores_on_the_way(broken, message):
    """A final state that does not load back, scores of the wrong length before the end, a
    winner listed twice and a final state that applies a move legal just before the end
    fail the harness (it saved and viewed live states only, read the scores only at the
    end, and only their length, and tried only junk moves at the end)."""
    with pytest.raises(AssertionError, match=message):
        check_game(broken.create(target=12), games=5, seed=1)


@attrs.frozen
class _Number(Spec):
    """Any float, infinity too (the schema has no float node)."""

    def read(self, value, path):
        if not isinstance(value, float):
            raise fg.StateError(f"{path} must be a float")
        return value


class _Unlimited(BuzzGame):
    """Buzz whose saved state (and view: Buzz shows it all) holds its time limit, none:
    infinity, which ``json.dumps`` writes as ``Infinity`` and reads back by default."""

    def _state_fields(self):
        return (*super()._state_fields(), Field("time_limit", _Number(), lambda s: math.inf))


class _UnlimitedView(BuzzGame):
    """Buzz whose view alone shows the time limit, none: infinity."""

    def _observe(self, state, player):
        return {**super()._observe(state, player), "time_limit": math.inf}

    def _observation_fields(self):
        return {**super()._observation_fields(), "time_limit": _Number()}


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (_Unlimited, r"step 0: to_dict\(\) is not strict JSON: Out of range float"),
        (_UnlimitedView, r"step 0: observation\(0\) is not strict JSON: Out of range float"),
    ],
    ids=["saved-state", "view"],
)
def test_harness_wants_strict_json(broken, message):
    """A saved state or a view holding infinity (``json.dumps`` writes it as ``Infinity``,
    not JSON: other languages' parsers refuse it) fails the harness (it wrote them with
    ``json.dumps``'s defaults, read them back with ``json.loads``, and passed both)."""
    with pytest.raises(AssertionError, match=message):
        check_game(broken.create(target=12), games=1)


class _NextSeatsView(BuzzGame):
    """Buzz whose observation(seat) is the next seat's."""

    def _observe(self, state, player):
        return super()._observe(state, (player + 1) % self.num_players)


class _UndeclaredView(BuzzGame):
    """Buzz whose observation holds a key its _observation_fields() does not declare."""

    def _observe(self, state, player):
        return {**super()._observe(state, player), "mood": "calm"}


@attrs.define(slots=False, unsafe_hash=True)
class _LooseState(StateBase):
    """Buzz's state as a mutable attrs class (``attrs.define``, not ``attrs.frozen``)."""

    game: Any
    counter: int
    turn: int
    added: tuple[int, ...]
    buzzed: tuple[bool, ...]
    bonus: tuple[int, ...]
    is_terminal = BuzzState.is_terminal
    current_player = BuzzState.current_player


class _Loose(BuzzGame):
    """Buzz whose states can be changed in place."""

    def _new_game(self, seed, first_player):
        return _LooseState(*attrs.astuple(super()._new_game(seed, first_player), recurse=False))

    def _state_from_fields(self, fields):
        return _LooseState(*attrs.astuple(super()._state_from_fields(fields), recurse=False))


@attrs.frozen(slots=False)
class _BlindState(BuzzState):
    """Buzz's state whose == (and hash) leaves out what each seat added."""

    added: tuple[int, ...] = attrs.field(eq=False)
    buzzed: tuple[bool, ...] = attrs.field()
    bonus: tuple[int, ...] = attrs.field()


class _Blind(BuzzGame):
    """Buzz whose states compare equal whatever each seat added."""

    def _new_game(self, seed, first_player):
        return _BlindState(*attrs.astuple(super()._new_game(seed, first_player), recurse=False))

    def _state_from_fields(self, fields):
        return _BlindState(*attrs.astuple(super()._state_from_fields(fields), recurse=False))


@attrs.frozen(slots=False)
class _EveryonesMovesState(BuzzState):
    """Buzz's state whose legal_moves() with no seat given lists every seat's moves now."""

    def legal_moves(self, player=None):
        if player is not None:
            return super().legal_moves(player)
        seats = self.players_to_act
        return tuple(m for seat in seats for m in BuzzState.legal_moves(self, seat))


class _EveryonesMoves(_BuzzOf):
    """Buzz whose legal_moves() with no seat given lists every seat's moves now."""

    STATE = _EveryonesMovesState


def test_harness_checks_legal_moves_of_no_seat_given():
    """legal_moves() with no seat given that is not the current seat's moves (every seat's,
    out-of-turn ones too) fails the harness (it passed)."""
    with pytest.raises(AssertionError, match=r"step 0: legal_moves\(\) is not legal_moves\(cu"):
        check_game(_EveryonesMoves.create(target=12), games=2)


class _WideIdCodec(BoomBokkenCodec):
    """Boom Bokken's codec, decoding the id one past the last as id 0."""

    def move_from_id(self, action_id, player):
        return super().move_from_id(0 if action_id == self.num_actions else action_id, player)


@attrs.frozen(slots=False, repr=False)
class _WideIds(BoomBokkenGame, name="wide_ids"):  # Boom Bokken's traits, inherited
    def _make_codec(self):
        return _WideIdCodec(self)


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (_NextSeatsView.create(target=12), r"step 0: observation\(0\) is not a dict whose 'o"),
        (_UndeclaredView.create(target=12), r"step 0: observation\(0\) is not what _obs.*mood"),
        (_Loose.create(target=12), r"step 0: state\.game can be set: a state must be frozen"),
        (_Blind.create(target=12), r"step \d+: the state equals an earlier one .* saves other"),
        (_WideIds.create(num_players=4), r"wide_ids: move_from_id\(117, 0\): did not raise"),
    ],
    ids=["next-seats-view", "undeclared-view", "mutable-state", "blind-equality", "wide-ids"],
)
def test_harness_checks_views_frozen_states_equality_and_the_id_range(broken, message):
    """An observation of another seat or with an undeclared key, a state that can be changed
    in place, an equality that leaves out part of the state and an id past the last that
    decodes fail the harness (all five passed it)."""
    with pytest.raises(AssertionError, match=message):
        check_game(broken, games=20, seed=0)


HIDDEN = [name for name in fg.GAME_NAMES if fg.make(name).traits.hidden_information]


@pytest.mark.parametrize("name", HIDDEN)
def test_determinize_depends_only_on_the_seats_view(name):
    """determinize(seat, seed) is the same from the real state and from any state the seat
    cannot tell from it, so a seeded search (MCTS) cannot learn the hidden order from it."""
    from tests.strategies import random_game

    game = fg.make(name, num_players=4)
    states = [state for state, _ in random_game(game, 3)]
    for k, state in enumerate(states[:: max(1, len(states) // 6)]):
        for seat in range(game.num_players):
            sample = state.determinize(seat, 7)
            for other in (state.determinize(seat, 1), state.determinize(seat, 2)):
                assert other.determinize(seat, 7) == sample, (name, k, seat)


@pytest.mark.parametrize("name", HIDDEN)
def test_mcts_choice_ignores_the_hidden_part(name):
    """A seeded MCTS agent chooses the same move in a state and in its determinizations."""
    from forestgames.agents import make_agent
    from tests.strategies import random_game

    game = fg.make(name, num_players=4)
    states = [s for s, _ in random_game(game, 1) if not s.is_terminal]
    for state in states[1 :: max(1, len(states) // 5)]:
        seat = state.players_to_act[0]
        choice = make_agent("mcts:20:4", seed=1).choose(state)
        for seed in range(2):
            sample = state.determinize(seat, seed)
            assert make_agent("mcts:20:4", seed=1).choose(sample) == choice


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"game": None}, "must be a game"),
        ({"game": 3}, "must be a game"),
        ({"games": 0}, "games"),
        ({"games": None}, "games"),
        ({"seed": -1}, "seed"),
        ({"seed": None}, "seed"),
        ({"deep_every": 0}, "deep_every"),
        ({"deep_every": 1.5}, "deep_every"),
    ],
)
def test_harness_refuses_bad_arguments(arguments, message):
    """check_game's own bad arguments are a ConfigError naming them (not ZeroDivisionError,
    IndexError or TypeError from deep inside)."""
    given = {"game": fg.make("bosk"), "games": 1} | arguments
    with pytest.raises(fg.ConfigError, match=message):
        check_game(**given)


def test_random_game_helpers_refuse_bad_arguments():
    """random_game of a non-game or a non-int move cap, and random_step with an rng that is
    not a random.Random, raise ConfigError."""
    import random

    from forestgames.testing import random_game, random_step

    with pytest.raises(fg.ConfigError, match="must be a game"):
        random_game(None, 1)
    with pytest.raises(fg.ConfigError, match="max_moves"):
        random_game(fg.make("bosk"), 1, max_moves="x")
    state = fg.make("bosk").new_game(seed=1)
    with pytest.raises(fg.ConfigError, match=r"random\.Random"):
        random_step(state, 1)
    assert random_step(state, random.Random(1)) in state.legal_moves()


@attrs.frozen(slots=False, repr=False)
class _LeakyPicture(
    BoomBokkenGame,
    name="leaky_picture",
    players=(4, 9),
    chance=True,
    hidden_information=True,
    out_of_turn=True,
):
    """Boom Bokken whose seat's picture is the referee's (every hand shown)."""

    def _render_text(self, state, player):
        return super()._render_text(state, None)


@attrs.frozen(slots=False, repr=False)
class _PeekingSample(
    BoomBokkenGame,
    name="peeking_sample",
    players=(4, 9),
    chance=True,
    hidden_information=True,
    out_of_turn=True,
):
    """Boom Bokken whose determinize reads the hidden deck (its seed moved by the top card)."""

    def _determinize(self, state, player, seed):
        return super()._determinize(state, player, seed + (state.deck[-1] if state.deck else 0))


@pytest.mark.parametrize(
    ("leaky", "message"),
    [
        (_LeakyPicture, r"render\(\d\) differs .* shows something hidden"),
        (_PeekingSample, r"determinize\(\d, seed\) differs .* depends on something hidden"),
    ],
)
def test_harness_catches_a_view_that_shows_hidden_information(leaky, message):
    """A seat's picture, or a determinization, that changes between two states the seat
    cannot tell apart (two determinizations of one state) fails the harness."""
    with pytest.raises(AssertionError, match=message):
        check_game(leaky.create(num_players=4), games=1, deep_every=1)


class _OneIdCodec(BoomBokkenCodec):
    """Boom Bokken's codec, but every move gets id 0."""

    def action_id(self, move):
        return 0


class _PeekingCodec(BoomBokkenCodec):
    """Boom Bokken's codec whose tensor also shows the hidden top card of the deck."""

    def tensor(self, state, player):
        tensor = super().tensor(state, player).copy()
        tensor[0] += state.deck[-1] if state.deck else 0
        return tensor


@attrs.frozen(slots=False, repr=False)
class _OneId(BoomBokkenGame, name="one_id"):  # Boom Bokken's traits, inherited
    def _make_codec(self):
        return _OneIdCodec(self)


@attrs.frozen(slots=False, repr=False)
class _PeekingTensor(BoomBokkenGame, name="peeking_tensor"):  # Boom Bokken's traits, inherited
    def _make_codec(self):
        return _PeekingCodec(self)


class _LowScoreRange(BuzzGame):
    """Buzz declaring a score range its games exceed."""

    def _score_range(self):
        return (0, 1)


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (_OneId.create(num_players=4), "share an id"),
        (_PeekingTensor.create(num_players=4), "tensor is not the one its observation gives"),
        (_LowScoreRange.create(target=20), "outside the declared score_range"),
    ],
    ids=["one-id", "peeking-tensor", "score-range"],
)
def test_harness_checks_ids_tensors_and_the_score_range(broken, message):
    """Legal moves sharing an id, a tensor showing what the observation hides, and final
    scores outside the declared score_range fail the harness (they passed it before)."""
    with pytest.raises(AssertionError, match=message):
        check_game(broken, games=2, deep_every=1)


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_a_move_given_as_notation_points_to_parse_move(name):
    """``state.apply(text)`` with a move's notation says to parse it first."""
    state = fg.make(name).new_game(seed=1)
    text = str(state.legal_moves()[0])
    with pytest.raises(fg.IllegalMoveError, match=r"is a string.*game\.parse_move\(text\)"):
        state.apply(text)
    assert state.apply(state.game.parse_move(text)) == state.apply(state.legal_moves()[0])


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_an_action_id_given_as_a_move_points_to_move_from_id(name):
    """``state.apply(action_id)`` says how to turn an id into a move; a bool is no id."""
    state = fg.make(name).new_game(seed=1)
    action = state.game.action_id(state.legal_moves()[0])
    with pytest.raises(fg.IllegalMoveError, match=r"game\.move_from_id\(action_id, player\)"):
        state.apply(action)
    with pytest.raises(
        fg.IllegalMoveError, match=f"True is not a {state.game.title} move"
    ) as refused:
        state.apply(True)
    assert "move_from_id" not in str(refused.value)


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_notation_without_its_seat_says_so(name):
    """A move's notation with its ``N:`` seat left off is refused with a word about the seat;
    other notation errors are not, with a seat or without (the hint is given only when the
    seat is all that is missing)."""
    game = fg.make(name)
    text = str(game.new_game(seed=1).legal_moves()[0])
    without_seat = text.split(":", 1)[1]
    with pytest.raises(fg.ParseError, match=r"starts with its seat, e.g. '0:"):
        game.parse_move(f"  {without_seat}")
    for bad in (text + " junk!", without_seat + " junk!", "junk", "", "-1:" + without_seat):
        with pytest.raises(fg.ParseError, match=f"is not a {game.title} move") as refused:
            game.parse_move(bad)
        assert "starts with its seat" not in str(refused.value)


class _SeatZeroMaskCodec(BoomBokkenCodec):
    """Boom Bokken's codec whose mask with no seat given is seat 0's, not the current seat's."""

    def mask(self, state, player=None):
        return super().mask(state, 0 if player is None else player)


class _NoEndMaskCodec(BoomBokkenCodec):
    """Boom Bokken's codec whose mask with no seat given is the current seat's even at the
    end, where there is none (IllegalMoveError: "player must be a seat number")."""

    def mask(self, state, player=None):
        seat = state.current_player if player is None else player
        return super().mask(state, self.check_seat(seat))


@attrs.frozen(slots=False, repr=False)
class _SeatZeroMask(BoomBokkenGame, name="seat_zero_mask"):  # Boom Bokken's traits, inherited
    def _make_codec(self):
        return _SeatZeroMaskCodec(self)


@attrs.frozen(slots=False, repr=False)
class _NoEndMask(BoomBokkenGame, name="no_end_mask"):  # Boom Bokken's traits, inherited
    def _make_codec(self):
        return _NoEndMaskCodec(self)


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (_SeatZeroMask, r"step \d+: legal_action_mask\(\) is not seat [1-3]'s mask, the curr"),
        (_NoEndMask, r"step \d+: legal_action_mask\(\): IllegalMoveError: player must be"),
    ],
    ids=["seat-zero-mask", "no-end-mask"],
)
def test_harness_checks_the_mask_of_no_seat_given(broken, message):
    """A mask with no seat given (``legal_action_mask()``, ``legal_action_mask(None)``) that
    is not the current seat's, or that raises at the end instead of being all zeros, fails
    the harness (it read the masks of seats given only, so both passed it)."""
    with pytest.raises(AssertionError, match=message):
        check_game(broken.create(num_players=4), games=2, deep_every=1)


class _WritableMaskCodec(BoomBokkenCodec):
    """Boom Bokken's codec whose masks, kept in each state's memo and shared by states with
    the same legal ids, are writable."""

    def _mask_of(self, ids):
        frozen, _ = super()._mask_of(ids)
        return frozen, np.frombuffer(bytearray(frozen), np.int8)


class _WritableTensorCodec(BoomBokkenCodec):
    """Boom Bokken's codec whose tensors, kept in each state's memo, are writable."""

    def _new_tensor(self, state, player):
        return super()._new_tensor(state, player).copy()


@attrs.frozen(slots=False, repr=False)
class _WritableMasks(BoomBokkenGame, name="writable_masks"):  # Boom Bokken's traits, inherited
    def _make_codec(self):
        return _WritableMaskCodec(self)


@attrs.frozen(slots=False, repr=False)
class _WritableTensors(BoomBokkenGame, name="writable_tensors"):  # Boom Bokken's traits
    def _make_codec(self):
        return _WritableTensorCodec(self)


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (_WritableMasks, r"step 0: legal_action_mask\(0\) is writable, and writing to it cha"),
        (_WritableTensors, r"step 0: observation_tensor\(0\) is writable, and writing to it"),
    ],
    ids=["writable-masks", "writable-tensors"],
)
def test_harness_writes_to_a_writable_mask_or_tensor(broken, message):
    """A mask or tensor the game keeps (in the state's memo) handed out writable, so that a
    user writing to it changes what the game returns next, fails the harness (both passed)."""
    with pytest.raises(AssertionError, match=message):
        check_game(broken.create(num_players=4), games=1)


class _SharedBufferCodec(BoomBokkenCodec):
    """Boom Bokken's codec that writes every mask into one writable buffer it hands out."""

    def mask(self, state, seat):
        buffer = self.__dict__.setdefault("_buffer", np.zeros(self.num_actions, np.int8))
        buffer[...] = super().mask(state, seat)
        return buffer


@attrs.frozen(slots=False, repr=False)
class _SharedBufferMasks(BoomBokkenGame, name="shared_buffer_masks"):  # Boom Bokken's traits
    def _make_codec(self):
        return _SharedBufferCodec(self)


def test_harness_refuses_a_mask_written_into_one_buffer_for_every_caller():
    """A codec that hands every caller the same writable array (each call rewrites it, so
    one state's mask changes when another's is asked for) fails the harness: writing to
    it changed nothing the next call returned, so it passed."""
    with pytest.raises(AssertionError, match=r"is writable, and the next call hands out the sa"):
        check_game(_SharedBufferMasks.create(num_players=4), games=1)


class _NoMaxMoves(BuzzGame):
    """Buzz whose _max_moves hook returns None."""

    def _max_moves(self):
        return None


class _ListWinners(BuzzGame):
    """Buzz whose winners are a list."""

    def _winners(self, state):
        return list(super()._winners(state))


class _BoolWinners(BuzzGame):
    """Buzz whose winner is written True (for seat 1)."""

    def _winners(self, state):
        return tuple(bool(w) if w == 1 else w for w in super()._winners(state))


class _NotRebuilt(BuzzGame):
    """Buzz whose options() gives its target as text, which create refuses."""

    def options(self):
        return {**super().options(), "target": str(self.target)}


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (_NoMaxMoves, r"buzz: its traits: ConfigError: buzz's max_moves \(its _max_moves\(\)\) m"),
        (_ListWinners, r"step \d+: winners \[[\d, ]+\] are not a tuple of int seats"),
        (_BoolWinners, r"step \d+: winners \([\d, ]*True\) are not a tuple of int seats"),
        (_NotRebuilt, r"buzz: rebuilt from options\(\): ConfigError: .*target must be an int"),
    ],
    ids=["max-moves-none", "list-winners", "bool-winners", "options-not-rebuilding"],
)
def test_harness_names_bad_traits_winners_and_options(broken, message):
    """A max_moves hook returning None, winners as a list or a bool, and options() that
    create refuses fail the harness with an AssertionError naming them (the first raised
    TypeError from inside it, the last its own error, and the winners passed)."""
    with pytest.raises(AssertionError, match=message):
        check_game(broken.create(target=12), games=6)


def test_harness_refuses_a_game_not_built_on_the_engine_base():
    """A game having every member of the Game protocol but not built on GameBase (which
    the harness needs: create, the hooks) is a ConfigError saying so (an AttributeError
    from inside the harness)."""

    class Forwarding:
        name = "buzz"

        def __init__(self):
            self.inner = BuzzGame.create()

        def __getattr__(self, member):
            return getattr(self.inner, member)

    assert fg.core.as_game(Forwarding())
    with pytest.raises(fg.ConfigError, match=r"check_game checks games built on .*GameBase"):
        check_game(Forwarding(), games=1)


@attrs.frozen(slots=False, repr=False)
class _BrokenCodec(BoomBokkenGame, name="broken_codec"):  # Boom Bokken's traits, inherited
    def _make_codec(self):
        return BoomBokkenCodec(self.no_such_option)


def test_harness_reports_a_codec_that_cannot_be_built():
    """A game whose codec fails to build fails the harness, naming the error (it was
    taken for a game without a codec, and every id and tensor check was skipped)."""
    with pytest.raises(AssertionError, match="no_such_option"):
        check_game(_BrokenCodec.create(num_players=4), games=1, deep_every=1)


_UNDER_O = """
import sys
from forestgames.testing import check_game, random_game
from tests.test_conformance import _LowScoreRange, _Mutates, _OneId, _OtherSeat
from tests.test_fake_game import BuzzGame

assert False, "unreachable under -O"  # proves the asserts are stripped here
calls = [
    lambda: check_game(_OtherSeat.create(target=12), games=1),
    lambda: check_game(_Mutates.create(target=12), games=1),
    lambda: check_game(_OneId.create(num_players=4), games=2, deep_every=1),
    lambda: check_game(_LowScoreRange.create(target=20), games=2, deep_every=1),
    lambda: random_game(BuzzGame.create(target=12, endless=True), 1),
]
for call in calls:
    try:
        call()
    except AssertionError as error:
        print(str(error).split(": ")[-1])
    else:
        print("PASSED")
"""


def test_harness_fails_broken_games_under_python_O():
    """``python -O`` strips assert statements, yet check_game and random_game still fail a
    broken game (they passed every one of them, checking nothing)."""
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run(
        [sys.executable, "-O", "-c", _UNDER_O],
        cwd=root,
        capture_output=True,
        encoding="utf-8",
        check=True,
        timeout=120,
    )
    assert result.stdout.splitlines() == [
        "Add(player=1, amount=1) belongs to another seat",
        "apply changed the state it was given",
        "two of seat 0's legal moves share an id",
        "final scores (14, 12) outside the declared score_range (0, 1)",
        "random game 1 not over after 24 moves",
    ], result.stdout
