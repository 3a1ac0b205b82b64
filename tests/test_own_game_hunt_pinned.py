"""A game of one's own, written on the engine base and registered, through the library's
public entry points, as a bug hunt found them broken (each test names what it pins)."""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np
import pytest

from forestgames._codec import CodecBase
from forestgames.core import GameBase, register_game
from tests.test_fake_game import Add, Buzz, BuzzGame
from tests.test_harness_sim_hunt_pinned import HighCard


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The game registry, restored after the test."""
    from forestgames import core

    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    return core._REGISTRY


@attrs.frozen(slots=False)
class _Hookless(GameBase[Any, Any], name="hookless", players=(2, 2)):
    """A game class that implements none of the base's rules hooks."""

    num_players: int = 2


@pytest.mark.parametrize(
    ("call", "hook"),
    [
        (lambda g: g.new_game(seed=0), "_new_game(seed, first_player)"),
        (lambda g: g._legal_moves(None, 0), "_legal_moves(state, player)"),
        (lambda g: g._step(None, None), "_step(state, move)"),
        (lambda g: g.state_from_dict({"game": "hookless"}), "_state_fields()"),
        (lambda g: g._state_from_fields({}), "_state_from_fields(fields)"),
    ],
    ids=["new_game", "legal_moves", "step", "state_fields", "state_from_fields"],
)
def test_each_missing_rules_hook_is_named(call, hook):
    """A game class without one of the rules hooks CONTRIBUTING lists fails where it is
    needed naming the class and the hook, as a missing ``_max_moves`` does (these five
    raised a NotImplementedError with no message)."""
    with pytest.raises(NotImplementedError) as caught:
        call(_Hookless())
    assert str(caught.value) == f"_Hookless must implement {hook} (see CONTRIBUTING.md, the hooks)"


class _BuzzCodec(CodecBase):
    """Buzz's integer actions: 0 and 1 add 1 and 2, 2 buzzes; the tensor is the counter,
    the turn (from the observer) and each seat's adds, buzz and bonus in observer order."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.num_actions = 3
        self.observation_shape = (2 + 3 * game.num_players,)
        self._encoders = {Add: lambda move: move.amount - 1, Buzz: lambda move: 2}

    def _build(self, action_id: int, player: int) -> Add | Buzz:
        return Buzz(player) if action_id == 2 else Add(player, action_id + 1)

    def _tensor_from_observation(self, observation: dict[str, Any]) -> np.ndarray:
        p, me = self.num_players, observation["observer"]
        order = [(me + k) % p for k in range(p)]
        values = [observation["counter"], (observation["turn"] - me) % p]
        for key in ("added", "buzzed", "bonus"):
            values += [float(observation[key][seat]) for seat in order]
        return np.array(values, np.float32)

    def _new_tensor(self, state: Any, player: int) -> np.ndarray:
        tensor = self._tensor_from_observation(state.observation(player))
        tensor.flags.writeable = False
        return tensor


@attrs.frozen(slots=False)
class _CodedBuzz(BuzzGame, name="coded_buzz"):
    """Buzz with integer actions."""

    def _make_codec(self) -> _BuzzCodec:
        return _BuzzCodec(self)


def test_the_aec_env_offers_a_registered_games_out_of_turn_moves(registry):
    """rl.aec_env of a registered out-of-turn game with a codec offers the seats not to move
    a reaction turn (their out-of-turn moves plus PASS), and a Buzz played there is applied
    (the env offered none: the out-of-turn moves could never be played)."""
    pytest.importorskip("pettingzoo")
    from forestgames import rl

    register_game("coded_buzz", _CodedBuzz.create)
    env = rl.aec_env("coded_buzz", num_players=2, target=6)
    env.reset(seed=0)
    state = env.game_state
    reacting = f"player_{1 - state.current_player}"
    assert env.agent_selection == reacting
    assert env.observe(reacting)["action_mask"].tolist() == [0, 0, 1, 1]
    env.step(2)
    assert env.game_state == state.apply(Buzz(1 - state.current_player))


@attrs.frozen(slots=False)
class _NobodyActs(BuzzGame, name="nobody_acts"):
    """Buzz whose players_to_act is empty once the counter reaches 3, the game not over."""

    def _players_to_act(self, state: Any) -> tuple[int, ...]:
        return () if state.counter >= 3 else super()._players_to_act(state)


@attrs.frozen(slots=False)
class _SeatStuck(BuzzGame, name="seat_stuck"):
    """Buzz where the seat to add has no legal move once the counter reaches 3."""

    def _legal_moves(self, state: Any, player: int) -> tuple[Add | Buzz, ...]:
        if state.counter >= 3 and player == state.turn:
            return ()
        return super()._legal_moves(state, player)


@pytest.mark.parametrize(
    ("broken", "why"),
    [(_NobodyActs, "its players_to_act is empty"), (_SeatStuck, r"seat \d, in players_to_act, ha")],
    ids=["nobody-acts", "seat-stuck"],
)
@pytest.mark.parametrize("agent", ["random", "greedy", "mcts:10"])
def test_a_live_state_where_no_seat_can_move_is_a_state_error(broken, why, agent):
    """fg.play of a game of one's own that reaches a live state where players_to_act is
    empty, or its seat has no legal move, raises StateError saying so, whatever the agent
    (IndexError, or ValueError from random's, greedy's or MCTS's draw on no moves)."""
    import forestgames as fg

    with pytest.raises(fg.StateError, match=f"the game is not over, but {why}"):
        fg.play(broken.create(target=8), [agent], seed=1)


@attrs.frozen(slots=False)
class _OneValue(BuzzGame, name="one_value"):
    """Buzz whose position value gives one number, not one per seat."""

    def position_value(self, state: Any) -> Any:
        return [1.0]


@attrs.frozen(slots=False)
class _NanValue(BuzzGame, name="nan_value"):
    """Buzz whose position value is not a number for seat 0."""

    def position_value(self, state: Any) -> Any:
        return [math.nan, 0.0]


@attrs.frozen(slots=False)
class _WordEstimates(BuzzGame, name="word_estimates"):
    """Buzz whose move evaluator returns words."""

    def evaluate_moves(self, state: Any, moves: Any) -> Any:
        return [["high", "low"] for _ in moves]


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (_OneValue, r"one_value position value returned shape \(1,\), not \(2,\)"),
        (_NanValue, r"nan_value position value returned \[nan, 0\.0\]: not all finite"),
        (_WordEstimates, r"word_estimates heuristic returned \[\['high', 'low'\]"),
    ],
    ids=["one-value", "nan-value", "word-estimates"],
)
@pytest.mark.parametrize("agent", ["greedy", "mcts:10"])
def test_a_games_own_estimates_that_are_not_one_number_per_seat_are_named(broken, message, agent):
    """A game's own position_value or evaluate_moves returning other than finite numbers,
    one per seat, makes greedy and MCTS raise ConfigError naming the game and the hook
    (numpy's ValueError: "cannot reshape", "could not convert string to float", or
    "empty range for randrange()" from a NaN)."""
    import forestgames as fg

    with pytest.raises(fg.ConfigError, match=message):
        fg.play(broken.create(target=6), [agent], seed=0)


@attrs.frozen(slots=False)
class _ListedOutcome(BuzzGame, name="listed_outcome"):
    """Buzz whose chance_outcome reports the counter in a list (not hashable)."""

    def chance_outcome(self, before: Any, move: Any, after: Any) -> Any:
        return [after.counter]


def test_a_chance_outcome_that_cannot_be_hashed_is_named():
    """MCTS on a game whose own chance_outcome returns a list raises ConfigError naming the
    game and saying an outcome must be hashable (TypeError "unhashable type: 'list'")."""
    import forestgames as fg

    with pytest.raises(
        fg.ConfigError, match=r"^listed_outcome chance_outcome returned \[\d+\]: an"
    ):
        fg.play(_ListedOutcome.create(target=6), ["mcts:10"], seed=0)


class _SignedCodec(_BuzzCodec):
    """Buzz's codec writing the counter negated, below its Box's low bound of 0."""

    def _tensor_from_observation(self, observation: dict[str, Any]) -> np.ndarray:
        tensor = super()._tensor_from_observation(observation)
        tensor[0] = -tensor[0]
        return tensor


@attrs.frozen(slots=False)
class _SignedBuzz(BuzzGame, name="signed_buzz"):
    """Buzz with integer actions whose tensors hold negative numbers."""

    def _make_codec(self) -> _SignedCodec:
        return _SignedCodec(self)


def test_harness_checks_tensors_lie_within_the_codecs_observation_bounds():
    """A codec whose tensors hold values outside its observation_bounds (the environments'
    Box: 0..1e6 by default) fails check_game naming the values (it passed, and the envs
    then gave observations outside their own observation space); Buzz's codec passes."""
    from forestgames.testing import check_game

    check_game(_CodedBuzz.create(target=6), games=3)
    with pytest.raises(AssertionError, match=r"holds values in -\d+\.0\.\.\d+\.0, outside the co"):
        check_game(_SignedBuzz.create(target=6), games=3)


def test_a_game_that_cannot_be_pickled_is_named_for_workers_not_forked():
    """fg.simulate with workers=2 in a process with threads (workers start from a fork
    server, so the run is pickled) of a game whose class is defined in a function is a
    ConfigError naming the game and what to do (it was the pickler's AttributeError "Can't
    pickle local object")."""
    import threading

    import forestgames as fg

    @attrs.frozen(slots=False)
    class Local(BuzzGame, name="local_buzz"):
        """Buzz defined in a function: its class cannot be pickled."""

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        with pytest.raises(
            fg.ConfigError, match=r"^game local_buzz cannot be pickled .*workers=1$"
        ):
            fg.simulate(Local.create(target=4), ["random"], 4, seed=0, workers=2, progress=False)
    finally:
        stop.set()
        thread.join()


@attrs.frozen(slots=False)
class _NoSvg(BuzzGame, name="no_svg"):
    """Buzz whose SVG picture is None (drawn by mistake)."""

    def _render_svg(self, state: Any, player: int | None) -> Any:
        return None


@pytest.mark.parametrize("player", [None, 1])
def test_a_replay_page_of_pictures_that_are_not_text_is_a_config_error(registry, player):
    """replay_html of a registered game whose to_svg draws None is a ConfigError naming the
    game and the call (AttributeError: 'NoneType' object has no attribute 'split')."""
    import forestgames as fg

    register_game("no_svg", _NoSvg.create)
    record = fg.play(_NoSvg.create(target=4), ["random"], seed=0)
    seat = "" if player is None else player
    with pytest.raises(fg.ConfigError, match=rf"^no_svg: to_svg\({seat}\) drew None, not text"):
        fg.viewer.replay_html(record, player=player)


@attrs.frozen(slots=False)
class _DrawnHighCard(HighCard):
    """High Card drawing as SVG the cards the viewer sees (every card for the referee)."""

    def _render_svg(self, state: Any, player: int | None) -> str:
        shown = list(state.hands) if player is None else self._shown(state, player)
        return f'<svg xmlns="http://www.w3.org/2000/svg"><text>{shown}</text></svg>'


@attrs.frozen(slots=False)
class _LeakyHighCard(_DrawnHighCard):
    """High Card whose seat's SVG picture draws every hidden card."""

    def _render_svg(self, state: Any, player: int | None) -> str:
        return super()._render_svg(state, None)


def test_harness_checks_a_seats_svg_picture_hides_what_it_should():
    """check_game fails a game whose seat's SVG picture shows the other seats' hidden cards,
    naming to_svg (it checked the text picture only, so it passed); the same game drawing
    only what the seat sees passes."""
    from forestgames.testing import check_game

    check_game(_DrawnHighCard.create(num_players=3), games=5)
    with pytest.raises(AssertionError, match=r"step 0: to_svg\(0\) differs in determinize\(0, 1"):
        check_game(_LeakyHighCard.create(num_players=3), games=5)


@pytest.mark.parametrize("make_env", ["aec_env", "gym_env"])
def test_an_svg_render_mode_of_a_game_without_svg_pictures_is_refused_at_once(registry, make_env):
    """rl's environments with render_mode="svg" of a registered game that draws no SVG are
    an ArgumentError naming the game before any game (render() failed at the first
    picture); its text render modes work."""
    pytest.importorskip("pettingzoo")
    from forestgames import rl

    register_game("coded_buzz", _CodedBuzz.create)
    build = getattr(rl, make_env)
    with pytest.raises(rl.ArgumentError, match=r'^render_mode "svg" needs SVG pictures, and'):
        build("coded_buzz", num_players=2, render_mode="svg")
    env = build("coded_buzz", num_players=2, render_mode="ansi")
    env.reset(seed=0)
    assert env.render().startswith("counter 0/10")
