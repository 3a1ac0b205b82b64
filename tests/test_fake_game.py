"""A tiny out-of-turn game for testing the generic agents and driver, and its own tests.

Buzz: seats take turns adding 1 or 2 to a counter; the game ends when it
reaches ``target``. Any seat other than the current one may, once per game,
buzz out of turn (+3 points). A seat's score is what it added plus its buzz
bonus; the highest score wins (ties share). ``endless=True`` makes adds count
nothing towards the target, so the game never ends (for move-cap tests).
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import pytest

from forestgames.core import GameBase, Option, ParseError, StateBase, new_rng
from forestgames.schema import Bool, Field, Int, List


@attrs.frozen
class Add:
    """The current seat adds ``amount`` (1 or 2)."""

    player: int
    amount: int

    def __str__(self) -> str:
        return f"{self.player}:add {self.amount}"


@attrs.frozen
class Buzz:
    """A seat out of turn takes its one-off bonus."""

    player: int

    def __str__(self) -> str:
        return f"{self.player}:buzz"


@attrs.frozen(slots=False)
class BuzzGame(GameBase["BuzzState", Add | Buzz], name="buzz", players=(2, 3), out_of_turn=True):
    """The Buzz game with its options fixed."""

    OPTIONS = (
        Option.players("Buzz", 2, 2, 3, "seats"),
        Option.integer("target", 10, 1, 1000, "the counter value that ends the game"),
        Option.boolean("endless", False, "adds do not move the counter: the game never ends"),
    )
    MOVE_TYPES = (Add, Buzz)

    num_players: int = 2
    target: int = 10
    endless: bool = False

    def _max_moves(self) -> int:
        return 2 * self.target

    def _score_range(self) -> tuple[int, int]:
        return (0, 3 + self.target)

    def _new_game(self, seed: int, first_player: int | None) -> BuzzState:
        if first_player is None:
            first_player = int(new_rng(seed).integers(self.num_players))
        zeros = (0,) * self.num_players
        return BuzzState(self, 0, first_player, zeros, (False,) * self.num_players, zeros)

    def _parse_move(self, text: str) -> Add | Buzz:
        seat, _, rest = text.partition(":")
        if seat.isdigit() and rest in ("add 1", "add 2"):
            return Add(int(seat), int(rest[-1]))
        if seat.isdigit() and rest == "buzz":
            return Buzz(int(seat))
        raise ParseError(f"{text!r} is not a Buzz move")

    def _players_to_act(self, state: BuzzState) -> tuple[int, ...]:
        if state.is_terminal:
            return ()
        others = tuple(
            s for s in range(self.num_players) if s != state.turn and not state.buzzed[s]
        )
        return (state.turn, *others)

    def _legal_moves(self, state: BuzzState, player: int) -> tuple[Add | Buzz, ...]:
        if player == state.turn:
            return (Add(player, 1), Add(player, 2))
        return () if state.buzzed[player] else (Buzz(player),)

    def _step(self, state: BuzzState, move: Add | Buzz) -> BuzzState:
        p = move.player
        if isinstance(move, Buzz):
            buzzed = tuple(b or s == p for s, b in enumerate(state.buzzed))
            bonus = tuple(v + 3 * (s == p) for s, v in enumerate(state.bonus))
            return state._evolve(buzzed=buzzed, bonus=bonus)
        added = tuple(v + move.amount * (s == p) for s, v in enumerate(state.added))
        step = 0 if self.endless else move.amount
        return state._evolve(
            counter=state.counter + step, turn=(state.turn + 1) % self.num_players, added=added
        )

    def _scores(self, state: BuzzState) -> tuple[int, ...]:
        return tuple(a + b for a, b in zip(state.added, state.bonus, strict=True))

    def _winners(self, state: BuzzState) -> tuple[int, ...]:
        scores = self._scores(state)
        best = max(scores)
        return tuple(s for s, v in enumerate(scores) if v == best)

    def _state_fields(self) -> tuple[Field, ...]:
        p, t = self.num_players, self.target
        return (
            Field("counter", Int(0, t + 1), lambda s: s.counter),
            Field("turn", Int(0, p - 1), lambda s: s.turn),
            Field("added", List(Int(0, 2 * t + 2), length=p), lambda s: list(s.added)),
            Field("buzzed", List(Bool(), length=p), lambda s: list(s.buzzed)),
            Field("bonus", List(Int(0, 3), length=p), lambda s: list(s.bonus)),
        )

    def _state_from_fields(self, fields: dict[str, Any]) -> BuzzState:
        return BuzzState(
            self, fields["counter"], fields["turn"], fields["added"], fields["buzzed"],
            fields["bonus"],
        )  # fmt: skip

    def _render_text(self, state: BuzzState, player: int | None) -> str:
        return f"counter {state.counter}/{self.target}, seat {state.turn} to add"


@attrs.frozen(slots=False)
class BuzzState(StateBase[Add | Buzz]):
    """A Buzz position."""

    game: BuzzGame
    counter: int
    turn: int
    added: tuple[int, ...]
    buzzed: tuple[bool, ...]
    bonus: tuple[int, ...]

    @property
    def is_terminal(self) -> bool:
        return self.counter >= self.game.target

    @property
    def current_player(self) -> int | None:
        return None if self.is_terminal else self.turn


@attrs.frozen(slots=False)
class NoTurnsGame(BuzzGame, name="no_turns"):
    """Buzz that may be played to a target of 0: over before its first move, a tie."""

    OPTIONS = (
        BuzzGame.OPTIONS[0],
        Option.integer("target", 10, 0, 1000, "the counter value that ends the game"),
        BuzzGame.OPTIONS[2],
    )

    def _max_moves(self) -> int:
        return max(1, 2 * self.target)


def test_buzz_offers_out_of_turn_moves():
    """Seats that have not buzzed may act out of turn, after the current seat."""
    state = BuzzGame(3).new_game(seed=1, first_player=1)
    assert state.players_to_act == (1, 0, 2)
    state = state.apply(Buzz(2))
    assert state.players_to_act == (1, 0)
    assert state.scores == (0, 0, 3)


def test_buzz_ends_at_target_and_parses():
    """The game ends when the counter reaches the target; notation round-trips."""
    game = BuzzGame(2, target=3)
    state = game.new_game(seed=0, first_player=0).apply(Add(0, 2)).apply(Add(1, 1))
    assert state.is_terminal and state.winners == (0,)
    for move in (Add(1, 2), Buzz(0)):
        assert game.parse_move(str(move)) == move
    with pytest.raises(ParseError, match="'0:add 3' is not a Buzz move"):
        game.parse_move("0:add 3")


def test_the_bases_messages_read_for_a_game_of_ones_own():
    """The base's words fit any game: a wrong kind of move takes "an" before a vowel ("the
    move is an Add", it said "a Add"), and notation_error lists one example or none plainly
    (one gave "expected e.g.  or '0:add 1'", none raised IndexError)."""
    from forestgames import IllegalMoveError
    from forestgames.core import notation_error

    state = BuzzGame(2).new_game(seed=0, first_player=0)
    with pytest.raises(IllegalMoveError, match=r"step the move is an Add$"):
        state.apply(Buzz(0))
    one = notation_error("Buzz", "0:hum", ["0:add 1"], {})
    assert str(one) == "'0:hum' is not a Buzz move; expected e.g. '0:add 1'"
    assert str(notation_error("Buzz", "0:hum", [], {})) == "'0:hum' is not a Buzz move"
    three = notation_error("Buzz", "x", ["0:add 1", "0:add 2", "1:buzz"], {})
    assert str(three).endswith("expected e.g. '0:add 1', '0:add 2' or '1:buzz'")


def test_the_bases_default_text_ends_a_game_in_the_pictures_words():
    """A game drawing no text of its own gets the base's line: scores, whose turn, and at
    the end who won in the built-in pictures' words (one winner, a tie)."""
    game = BuzzGame(2, target=2)
    start = game.new_game(seed=0, first_player=0)
    assert GameBase._render_text(game, start, None) == "Buzz: scores [0, 0], seat 0 to move"
    won, tied = start.apply(Add(0, 2)), start.apply(Add(0, 1)).apply(Add(1, 1))
    assert GameBase._render_text(game, won, None) == "Buzz: scores [2, 0], over · seat 0 wins"
    assert GameBase._render_text(game, tied, 1) == "Buzz: scores [1, 1], over · seats 0 and 1 tie"


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The game registry, restored after the test."""
    from forestgames import core

    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    return core._REGISTRY


def test_register_game_refuses_bad_names_taken_names_and_non_games(registry):
    """register_game refuses a name that is not lower-case words, a built-in's name (a
    factory silently replaced Bosk), a factory that is not callable; make refuses what a
    factory returns that is no game. Registering the same factory twice is fine."""
    import forestgames as fg
    from forestgames.core import register_game

    register_game("buzz", BuzzGame.create)
    register_game("buzz", BuzzGame.create)  # the same factory again
    assert fg.make("buzz", num_players=3) == BuzzGame(3)
    for bad in ("Buzz Game!", "", "9lives", 5, None):
        with pytest.raises(fg.ConfigError, match="lower-case"):
            register_game(bad, BuzzGame.create)
    with pytest.raises(fg.ConfigError, match="registered already"):
        register_game("bosk", BuzzGame.create)
    assert isinstance(fg.make("bosk"), fg.bosk.BoskGame)
    with pytest.raises(fg.ConfigError, match="callable"):
        register_game("broken", 42)
    register_game("broken", lambda **options: 42)
    with pytest.raises(fg.ConfigError, match="returned 42, not a game"):
        fg.make("broken")
    register_game("renamed", BuzzGame.create)
    with pytest.raises(fg.ConfigError, match="made a game named 'buzz'"):
        fg.make("renamed")  # records and workers find a game by its own name


def test_a_game_class_registered_as_its_factory_checks_options_as_create_does(registry):
    """register_game given the game class itself makes games by its ``create``: an unknown
    option is a ConfigError naming it (the class's constructor raised TypeError), and the
    class and its ``create`` are one factory (registering both is no clash)."""
    import forestgames as fg
    from forestgames.core import register_game

    register_game("buzz", BuzzGame.create)
    register_game("buzz", BuzzGame)  # the same factory: replaces it, no clash
    assert fg.make("buzz", num_players=3) == BuzzGame.create(num_players=3)
    with pytest.raises(fg.ConfigError, match=r"unknown Buzz option.*'bogus'"):
        fg.make("buzz", bogus=1)


def test_a_games_traits_must_be_bounds_a_run_can_use():
    """A game's max_moves must be an int of at least 1 and its score range a (low, high)
    tuple of finite numbers, low <= high: else reading its traits is a ConfigError naming
    the hook (a max_moves of None raised TypeError inside play and simulate)."""
    import forestgames as fg
    from forestgames.core import GameTraits

    good = BuzzGame.create().traits
    for max_moves, score_range, message in (
        (None, (0, 5), r"buzz's max_moves \(its _max_moves\(\)\) must be an int, not None"),
        (2.0, (0, 5), "max_moves .* must be an int, not 2.0"),
        (True, (0, 5), "max_moves .* must be an int, not True"),
        (0, (0, 5), "max_moves .* must be >= 1, not 0"),
        (9, [0, 5], r"score_range \(its _score_range\(\)\) must be a \(low, high\) tuple"),
        (9, (0,), r"must be a \(low, high\) tuple"),
        (9, (0, math.nan), "score_range .* must be a finite number, not nan"),
        (9, (5, 0), r"must have low <= high, not \(5, 0\)"),
    ):
        with pytest.raises(fg.ConfigError, match=message):
            attrs.evolve(good, max_moves=max_moves, score_range=score_range)
    assert GameTraits(**attrs.asdict(good, recurse=False)) == good


def test_register_game_tells_two_lambdas_of_a_module_apart(registry):
    """A second lambda of a module under a taken name is refused like any other factory (the
    two shared a module and a name, '<lambda>', and the second replaced the first silently);
    the same lambda again, as from a module run twice, replaces itself."""
    import forestgames as fg
    from forestgames.core import register_game

    def first(**options):
        return BuzzGame.create(**options)

    make_buzz = lambda **options: first(**options)  # noqa: E731 - a lambda on purpose
    make_other = lambda **options: first(target=1, **options)  # noqa: E731
    register_game("lambda_buzz", make_buzz)
    register_game("lambda_buzz", make_buzz)
    with pytest.raises(fg.ConfigError, match="registered already"):
        register_game("lambda_buzz", make_other)


class _Forwarding:
    """A game by the protocol alone: Buzz's members, forwarded by ``__getattr__``."""

    name = "forwarding"

    def __init__(self, **options: Any) -> None:
        self.inner = BuzzGame.create(**options)

    def __getattr__(self, name: str) -> Any:
        if name == "parse_move" and self.inner.target == 1:
            raise AttributeError(name)  # one protocol member missing: no game
        return getattr(self.inner, name)


def test_a_game_that_forwards_the_protocol_is_a_game_on_every_python(registry):
    """make takes a game whose protocol members come from ``__getattr__`` (Python 3.12's
    isinstance no longer sees them) and refuses one that lacks a member."""
    import forestgames as fg
    from forestgames.core import register_game

    register_game("forwarding", _Forwarding)
    assert fg.make("forwarding", num_players=3).new_game(seed=1).game == BuzzGame(3)
    with pytest.raises(fg.ConfigError, match="not a game"):
        fg.make("forwarding", target=1)


def test_a_module_run_again_registers_its_game_again(registry, tmp_path, monkeypatch):
    """A module that registers its game may run again (a reloaded module, a notebook cell
    run twice): the same class, by module and name, replaces its earlier self."""
    import importlib
    import sys

    import forestgames as fg

    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "again_buzz", raising=False)
    (tmp_path / "again_buzz.py").write_text(
        "import attrs\n"
        "from forestgames.core import register_game\n"
        "from tests.test_fake_game import BuzzGame\n"
        "@attrs.frozen(slots=False)\n"
        "class Again(BuzzGame, name='again'):\n"
        "    pass\n"
        "register_game('again', Again.create)\n",
        encoding="utf-8",
    )
    module = importlib.import_module("again_buzz")
    reloaded = importlib.reload(module)
    assert type(fg.make("again")) is reloaded.Again


def test_a_game_without_pictures_shows_as_text_in_notebooks():
    """A state of a game that draws no SVG gives notebooks None from _repr_svg_ (they fall
    back to text) instead of raising; to_svg still says there is none."""
    from forestgames import ConfigError

    state = BuzzGame(2).new_game(seed=0)
    assert state._repr_svg_() is None
    with pytest.raises(ConfigError, match="no SVG"):
        state.to_svg()


def test_openspiel_refuses_a_registered_game_of_ones_own(registry):
    """OpenSpiel games exist for the four built-in games; a registered game of one's own
    is the library's ConfigError saying so (it was OpenSpiel's unknown-game error)."""
    pytest.importorskip("pyspiel")
    import forestgames as fg
    from forestgames.core import register_game
    from forestgames.rl import openspiel as fos

    register_game("buzz", BuzzGame.create)
    with pytest.raises(fg.ConfigError, match="built-in games"):
        fos.load_game("buzz", num_players=2)
    with pytest.raises(fg.ConfigError, match="unknown game"):
        fos.load_game("nope")


def test_a_named_variant_keeps_its_parent_games_traits():
    """A game class derived from a game, given only a new name, keeps the parent's
    players, chance, hidden information and out-of-turn play (they were reset to False);
    a trait it gives is its own."""
    from forestgames.boom_bokken.rules import BoomBokkenGame

    @attrs.frozen(slots=False, repr=False)
    class Variant(BoomBokkenGame, name="variant"):
        pass

    @attrs.frozen(slots=False, repr=False)
    class Seated(BoomBokkenGame, name="seated", players=(4, 6)):
        pass

    @attrs.frozen(slots=False)
    class Quiet(BuzzGame, name="quiet", out_of_turn=False):
        pass

    traits = Variant.create().traits
    assert (traits.min_players, traits.max_players) == (4, 9)
    assert traits.chance and traits.hidden_information and traits.out_of_turn
    traits = Seated.create().traits
    assert traits.max_players == 6
    assert traits.chance and traits.hidden_information and traits.out_of_turn
    assert Quiet.create().traits.out_of_turn is False
    assert Quiet.create().traits.max_players == 3


def test_a_new_game_class_must_say_how_many_play():
    """A game class of one's own that names itself but declares no player counts (and
    inherits none) is refused when the class is defined, naming it."""
    with pytest.raises(TypeError, match=r"game 'nobody' must declare players=\(low, high\)"):

        class Nobody(GameBase, name="nobody"):
            pass


def test_a_game_class_whose_moves_are_not_attrs_classes_is_refused():
    """A game class whose MOVE_TYPES holds a dataclass is refused when the class is
    defined, naming it (its moves made apply raise attrs' NotAnAttrsClassError, an equal
    copy of a legal move included)."""
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class Plain:
        player: int

    with pytest.raises(TypeError, match=r"Odd.MOVE_TYPES must be attrs classes .*\['Plain'\]"):

        @attrs.frozen(slots=False)
        class Odd(BuzzGame, name="odd"):
            MOVE_TYPES = (Add, Plain)


def test_option_declarations_that_cannot_work_are_refused():
    """An int option whose low is above its high, a choice of no choices, and a game class
    declaring one option name twice are TypeErrors where they are declared (the first
    refused every value, the second said "must be one of , not 1", the third passed
    check_game)."""
    with pytest.raises(TypeError, match="option size: low 5 is above high 2"):
        Option.integer("size", 3, 5, 2, "a size")
    with pytest.raises(TypeError, match="option shape declares no choices"):
        Option.choice("shape", "a", [], "a shape")
    with pytest.raises(TypeError, match=r"Twice.OPTIONS declares \['target'\] twice"):

        @attrs.frozen(slots=False)
        class Twice(BuzzGame, name="twice"):
            OPTIONS = (*BuzzGame.OPTIONS, Option.integer("target", 5, 1, 9, "again"))


def test_a_game_whose_options_are_not_json_still_unpickles():
    """A state of a user's game whose option is a tuple unpickles with a game of its own
    options (the shared unpickled games are keyed by JSON, which reads a tuple as a list)."""
    import pickle

    game = _TupleBuzz.create(shape=(3, 4))
    assert pickle.loads(pickle.dumps(game.new_game(seed=1))).game == game


def test_a_record_of_a_game_with_a_tuple_option_replays(registry):
    """A registered game whose choice option is a tuple writes records that replay: JSON
    reads the tuple back as a list, which the option takes as that choice (the replay was
    a StateError, and check_game let it out); another list is still refused."""
    import forestgames as fg
    from forestgames.core import GameRecord, register_game
    from forestgames.testing import check_game, random_game

    register_game("tuplebuzz", _TupleBuzz.create)
    game = _TupleBuzz.create(shape=(3, 4))
    moves = [move for _, move in random_game(game, 2) if move is not None]
    record = GameRecord.start(game, 2).with_moves(moves)
    replayed = GameRecord.from_json(record.to_json()).replay()
    assert replayed[-1].game == game and replayed[-1].is_terminal
    assert fg.make("tuplebuzz", shape=[3, 4]) == game
    with pytest.raises(fg.ConfigError, match=r"shape must be one of \(1, 2\), \(3, 4\), not"):
        fg.make("tuplebuzz", shape=[3, 5])
    check_game(game, games=2)


@attrs.frozen(slots=False)
class _TupleBuzz(BuzzGame, name="tuplebuzz"):
    """Buzz with a tuple option (not JSON: it reads back as a list)."""

    OPTIONS = (*BuzzGame.OPTIONS, Option.choice("shape", (1, 2), [(1, 2), (3, 4)], "a shape"))

    shape: tuple[int, int] = (1, 2)
