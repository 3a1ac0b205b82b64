"""The conformance harness on broken games of one's own, and the simulation driver's and
the tournament's promises, as a bug hunt found them broken (each test names what it pins)."""

from __future__ import annotations

import json
import re
from typing import Any

import attrs
import numpy as np
import pytest

import forestgames as fg
from forestgames.core import GameBase, Option, ParseError, StateBase, new_rng
from forestgames.schema import Field, Int, List, Nullable
from forestgames.sim import GameRow, SimulationResult, clustered_interval
from forestgames.testing import check_game
from forestgames.tournament import rate
from tests.test_fake_game import BuzzGame, NoTurnsGame


class _AssertingStep(BuzzGame):
    """Buzz whose transition checks itself with an ``assert`` (a user's own check), which
    fails once the counter passes 4."""

    def _step(self, state, move):
        if state.counter > 4:
            raise AssertionError("the counter ran past 4")  # an assert, kept under -O
        return super()._step(state, move)


def test_an_assert_failing_in_a_hook_is_named_by_its_game_seed_and_step():
    """An AssertionError raised by a game's own hook (an ``assert`` in ``_step``) comes out
    of check_game naming the game, the seed and the step, as any other hook's error does (it
    was passed on as it was, naming none of them)."""
    with pytest.raises(
        AssertionError, match=r"^buzz .* seed \d+ step \d+: AssertionError: the counter ran pa"
    ):
        check_game(_AssertingStep.create(target=12), games=1)


@attrs.frozen
class Keep:
    """The seat keeps its hidden card."""

    player: int

    def __str__(self) -> str:
        return f"{self.player}:keep"


@attrs.frozen
class Swap:
    """The seat swaps its card for the top card of the hidden deck (its card goes under it)."""

    player: int

    def __str__(self) -> str:
        return f"{self.player}:swap"


@attrs.frozen(slots=False)
class HighCard(
    GameBase["HighCardState", Keep | Swap],
    name="high_card",
    players=(2, 3),
    chance=True,
    hidden_information=True,
):
    """A game with hidden cards of one's own: each seat is dealt one card of 1..9 (a seat
    sees its own); in turn each keeps it or swaps it for the top of the deck; the highest
    card wins, its value the score, and the cards are shown at the end (not the deck)."""

    OPTIONS = (Option.players("High Card", 2, 2, 3, "seats"),)
    MOVE_TYPES = (Keep, Swap)
    num_players: int = 2

    def _max_moves(self) -> int:
        return self.num_players

    def _score_range(self) -> tuple[int, int]:
        return (0, 9)

    def _new_game(self, seed: int, first_player: int | None) -> HighCardState:
        cards = tuple(int(c) + 1 for c in new_rng(seed).permutation(9))
        first = int(new_rng(seed, 1).integers(self.num_players))
        turn = first if first_player is None else first_player
        return HighCardState(self, cards[: self.num_players], cards[self.num_players :], turn, 0)

    def _parse_move(self, text: str) -> Keep | Swap:
        seat, _, rest = text.partition(":")
        kinds = {"keep": Keep, "swap": Swap}
        if not seat.isdigit() or rest not in kinds:
            raise ParseError(f"{text!r} is not a High Card move")
        return kinds[rest](int(seat))

    def _legal_moves(self, state: HighCardState, player: int) -> tuple[Keep | Swap, ...]:
        return (Keep(player), Swap(player)) if player == state.turn else ()

    def _step(self, state: HighCardState, move: Keep | Swap) -> HighCardState:
        hands, deck = state.hands, state.deck
        if isinstance(move, Swap):
            hands = tuple(deck[-1] if s == move.player else c for s, c in enumerate(hands))
            deck = (state.hands[move.player], *deck[:-1])
        turn = (state.turn + 1) % self.num_players
        return state._evolve(hands=hands, deck=deck, turn=turn, acted=state.acted + 1)

    def _scores(self, state: HighCardState) -> tuple[int, ...]:
        return state.hands if state.is_terminal else (0,) * self.num_players

    def _winners(self, state: HighCardState) -> tuple[int, ...]:
        return (state.hands.index(max(state.hands)),)

    def _state_fields(self) -> tuple[Field, ...]:
        p = self.num_players
        return (
            Field("hands", List(Int(1, 9), length=p), lambda s: list(s.hands)),
            Field("deck", List(Int(1, 9)), lambda s: list(s.deck)),
            Field("turn", Int(0, p - 1), lambda s: s.turn),
            Field("acted", Int(0, p), lambda s: s.acted),
        )

    def _state_from_fields(self, fields: dict[str, Any]) -> HighCardState:
        hands, deck = tuple(fields["hands"]), tuple(fields["deck"])
        return HighCardState(self, hands, deck, fields["turn"], fields["acted"])

    def _shown(self, state: HighCardState, player: int) -> list[int | None]:
        """The cards ``player`` sees: its own, or every one at the end."""
        shown = state.is_terminal
        return [c if shown or s == player else None for s, c in enumerate(state.hands)]

    def _observe(self, state: HighCardState, player: int) -> dict[str, Any]:
        hands = self._shown(state, player)
        return {"observer": player, "hands": hands, "deck": len(state.deck), "turn": state.turn,
                "acted": state.acted}  # fmt: skip

    def _observation_fields(self) -> dict[str, Any]:
        p = self.num_players
        hands = List(Nullable(Int(1, 9)), length=p)
        return {"hands": hands, "deck": Int(0, 9), "turn": Int(0, p - 1), "acted": Int(0, p)}

    def _determinize(self, state: HighCardState, player: int, seed: int) -> HighCardState:
        shown = self._shown(state, player)
        unseen = sorted({*range(1, 10)} - {c for c in shown if c is not None})
        drawn = [unseen[k] for k in new_rng(seed).permutation(len(unseen))]
        hands = tuple(drawn.pop() if c is None else c for c in shown)
        return state._evolve(hands=hands, deck=tuple(drawn))

    def _render_text(self, state: HighCardState, player: int | None) -> str:
        hands = state.hands if player is None else self._shown(state, player)
        return f"High Card: hands {list(hands)}, {len(state.deck)} cards in the deck"


@attrs.frozen(slots=False)
class HighCardState(StateBase[Keep | Swap]):
    """A High Card position."""

    game: HighCard
    hands: tuple[int, ...]
    deck: tuple[int, ...]
    turn: int
    acted: int

    @property
    def is_terminal(self) -> bool:
        return self.acted >= self.game.num_players

    @property
    def current_player(self) -> int | None:
        return None if self.is_terminal else self.turn


@attrs.frozen(slots=False)
class _SeesEverything(HighCard):
    """High Card that keeps the base's determinize: the state itself, every hidden card."""

    def _determinize(self, state: HighCardState, player: int, seed: int) -> HighCardState:
        return GameBase._determinize(self, state, player, seed)  # type: ignore[no-any-return]


def test_a_determinize_that_returns_the_state_itself_fails_the_harness():
    """A game with hidden cards whose determinize is the base's (the state itself: a search
    sampling it sees every hidden card) fails check_game: two states where a seat's
    observation is the same get different determinizations (it passed, as two
    determinizations of one state were all the harness compared). The game with its own
    determinize, drawn from the seat's view alone, passes."""
    check_game(HighCard.create(num_players=3), games=20)
    with pytest.raises(AssertionError, match=r"step \d+: determinize\(\d, 0\) differs from an ea"):
        check_game(_SeesEverything.create(), games=20)


@attrs.frozen(slots=False)
class _ShowsEveryHand(HighCard):
    """High Card whose observation shows every seat's card (its determinize is right)."""

    def _observe(self, state: HighCardState, player: int) -> dict[str, Any]:
        return {**super()._observe(state, player), "hands": list(state.hands)}


@attrs.frozen(slots=False)
class _PeeksForMoves(HighCard):
    """High Card where a seat may swap only while the next seat's hidden card is above 3."""

    def _legal_moves(self, state: HighCardState, player: int) -> tuple[Keep | Swap, ...]:
        moves = super()._legal_moves(state, player)
        return moves if state.hands[(player + 1) % self.num_players] > 3 else moves[:1]


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (_ShowsEveryHand, r"step 0: observation\(0\) differs at \['hands'\] in determinize\(0, s"),
        (_PeeksForMoves, r"step 0: determinize\(\d, seed\) changed seat \d's legal moves: they d"),
    ],
    ids=["observation-leaks", "moves-leak"],
)
def test_a_view_or_moves_that_show_a_hidden_card_are_named(broken, message):
    """An observation showing the other seats' hidden cards, and legal moves that depend on
    another seat's hidden card, fail check_game naming the observation's key that differs in
    a determinization, or the legal moves (it said "determinize(0) changed view" and
    "seat 1's moves", naming neither the key nor what to look at)."""
    with pytest.raises(AssertionError, match=message):
        check_game(broken.create(), games=20)


class _NumpyWinners(BuzzGame):
    """Buzz whose winners are numpy integers (np.flatnonzero's), which print as ints."""

    def _winners(self, state):
        scores = np.array(self._scores(state))
        return tuple(np.flatnonzero(scores == scores.max()))


class _NumpyScores(BuzzGame):
    """Buzz whose scores are numpy integers, which print as ints."""

    def _scores(self, state):
        return tuple(np.array(super()._scores(state)))


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (
            _NumpyWinners,
            r"step \d+: winners \([\d, ]+\) are not a tuple of int seats \(they hold numpy\.int64,",
        ),
        (
            _NumpyScores,
            r"step 0: scores \(0, 0\) are not a tuple of one int per seat \(they hold numpy\.int6",
        ),
    ],
    ids=["winners", "scores"],
)
def test_winners_and_scores_of_numpy_integers_are_named_by_their_type(broken, message):
    """Winners or scores of numpy integers fail check_game with a message naming their
    type (it said "winners (0, 1) are not a tuple of int seats", of what prints as ints)."""
    with pytest.raises(AssertionError, match=message):
        check_game(broken.create(target=12), games=2)


@pytest.mark.parametrize("run", [fg.simulate, fg.tournament])
def test_a_run_of_a_game_over_before_its_first_move_is_a_config_error(run):
    """simulate and tournament of a game of one's own that is over at its start (which
    check_game and play take) are a ConfigError naming the game of the run, as its row
    cannot name the seat that moved first (they raised IndexError)."""
    game = NoTurnsGame.create(target=0)
    check_game(game, games=1)
    assert fg.play(game, ["random"], seed=1).moves == ()
    with pytest.raises(fg.ConfigError, match=r"game 0 of the run \(seed \d+\) is over before its"):
        run(game, ["random", "greedy"], 2, seed=1, progress=False)


class _ListedSeats(BuzzGame):
    """Buzz whose players_to_act is a list (an empty one at the end), not a tuple."""

    def _players_to_act(self, state):
        return list(super()._players_to_act(state))


def test_players_to_act_that_is_no_tuple_is_named_so():
    """players_to_act given as a list fails check_game at the first state, saying it is not
    a tuple of seats (it passed every live state, then said "seats act after the end" at the
    end, where the list was empty and nobody acted)."""
    with pytest.raises(
        AssertionError, match=r"step 0: players_to_act \[\d, \d\] is not a tuple of seat"
    ):
        check_game(_ListedSeats.create(target=12), games=1)


def test_a_row_of_numpy_values_writes_json_and_reads_back_as_itself(tmp_path):
    """A GameRow built of numpy integers and bools (read from a data frame, say) keeps them
    as plain ints and bools: its JSON line, a results file of it and a row read back equal
    to it (to_json and to_jsonl raised TypeError: int64 is not JSON serializable)."""
    i = np.int64
    row = GameRow(i(0), i(5), i(1), ["a", "b"], (i(3), i(4)), (i(1),), i(9), np.bool_(False), "x")
    plain = GameRow(0, 5, 1, ("a", "b"), (3, 4), (1,), 9, False, "x")
    assert row == plain and row.to_json() == plain.to_json()
    assert GameRow.from_dict(json.loads(row.to_json())) == row
    SimulationResult("g", {"num_players": 2}, 0, (row,)).to_jsonl(tmp_path / "rows.jsonl")
    line = (tmp_path / "rows.jsonl").read_text(encoding="utf-8")
    assert GameRow.from_dict(json.loads(line)) == row


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("seed", -1, "seed must be >= 0, not -1"),
        ("moves", 2.0, "moves must be an int, not 2.0"),
        ("first_player", 0.0, "first_player must be an int, not 0.0"),
        ("scores", (1.5, 2), "each score must be an int, not 1.5"),
        ("truncated", "no", "truncated must be True or False, not 'no'"),
        ("agents", (1, 2), "game 0: the agents' names and the run must be text"),
        ("run", None, "game 0: the agents' names and the run must be text"),
    ],
)
def test_a_row_built_of_what_a_results_line_cannot_hold_is_refused(field, value, message):
    """A GameRow built with a value its own results line could not be read back with (a
    negative seed, a float count or score, a flag or names of the wrong kind) is a
    ConfigError naming it, as GameRow.from_dict refuses the line (it was taken, and its line
    written, then refused on resume)."""
    fields = {"index": 0, "seed": 5, "first_player": 0, "agents": ("a", "b"), "scores": (3, 4)}
    fields |= {"winners": (1,), "moves": 9, "truncated": False, "run": "x"}
    with pytest.raises(fg.ConfigError, match=re.escape(message)):
        GameRow(**(fields | {field: value}))


def test_a_result_of_numpy_values_rates_and_writes_its_json():
    """A SimulationResult built with a numpy seed and numpy option values (a run's data read
    back, say) keeps them as Python's, so that rate() of it writes its JSON (to_json raised
    TypeError: int64 is not JSON serializable); a seed, game, options or agents a run cannot
    have are a ConfigError when it is built (they were taken)."""
    row = GameRow(0, 5, 1, ("a", "b"), (3, 4), (1,), 9, False, "x")
    options = {"num_players": np.int64(2), "sizes": np.arange(2)}
    result = SimulationResult("g", options, np.uint64(7), [row], ["a", "b"])
    assert result.seed == 7 and type(result.seed) is int
    assert result.options == {"num_players": 2, "sizes": [0, 1]}
    assert json.loads(rate(result, ["a", "b"]).to_json())["seed"] == 7
    for bad in ({"seed": -1}, {"seed": "7"}, {"game": 5}, {"options": None}, {"agents": "ab"}):
        given = {"game": "g", "options": {}, "seed": 0, "rows": (row,), "agents": ("a", "b")}
        with pytest.raises(fg.ConfigError, match="a result's"):
            SimulationResult(**(given | bad))


@pytest.mark.parametrize("per_game", [None, 5, "ab", {"wins": 1}])
def test_clustered_interval_of_no_list_of_games_is_a_config_error(per_game):
    """clustered_interval of None or a number (no list of games) is a ConfigError naming
    per_game (TypeError: object is not iterable escaped), and so is text or a dict (text was
    read as games 'a' and 'b')."""
    with pytest.raises(fg.ConfigError, match=r"^per_game must be a list of \(wins, seats\) pairs"):
        clustered_interval(per_game)


class _NoPicture(BuzzGame):
    """Buzz whose referee's picture (render() with no seat) is None: no text drawn."""

    def _render_text(self, state, player):
        return None if player is None else super()._render_text(state, player)


def test_a_referees_picture_that_is_no_text_is_named():
    """render() that is None (or empty) fails check_game with a message naming the
    referee's picture and what it is (the message was the game, seed and step alone)."""
    with pytest.raises(AssertionError, match=r"^the referee's picture, render\(\), is None, not a"):
        check_game(_NoPicture.create(target=12), games=1)


class _EmptyPicture(BuzzGame):
    """Buzz whose referee's picture (render() with no seat) is empty text."""

    def _render_text(self, state, player):
        return "" if player is None else super()._render_text(state, player)


def test_an_empty_referees_picture_is_named_empty():
    """render() that is empty text fails check_game saying it is empty, not that it is no
    text (it said "is '', not a text")."""
    with pytest.raises(
        AssertionError, match=r"^the referee's picture, render\(\), is '', not a non"
    ):
        check_game(_EmptyPicture.create(target=12), games=1)


class _StepReturnsNothing(BuzzGame):
    """Buzz whose transition forgets to return the next state."""

    def _step(self, state, move):
        super()._step(state, move)


class _StepReturnsSaved(BuzzGame):
    """Buzz whose transition returns the next state's saved form (a dict)."""

    def _step(self, state, move):
        return super()._step(state, move).to_dict()


@pytest.mark.parametrize(
    ("broken", "returned"),
    [(_StepReturnsNothing, "None"), (_StepReturnsSaved, r"\{'game': 'buzz'")],
    ids=["none", "dict"],
)
def test_a_transition_that_returns_no_state_is_named(broken, returned):
    """A _step returning None or a dict fails check_game saying apply returned that, not a
    state (it said "AttributeError: 'NoneType' object has no attribute 'is_terminal'" and
    "TypeError: unhashable type: 'dict'")."""
    with pytest.raises(AssertionError, match=rf"step 0: apply\(\d:\w+( \d)?\) returned {returned}"):
        check_game(broken.create(target=12), games=1)


@attrs.frozen(slots=False)
class _SeesTheDeckAtTheEnd(HighCard):
    """High Card whose determinize of a finished game is the state itself (the deck's order,
    which the end does not show)."""

    def _determinize(self, state: HighCardState, player: int, seed: int) -> HighCardState:
        if state.is_terminal:
            return state
        return super()._determinize(state, player, seed)


def test_a_final_state_off_the_deep_steps_is_compared_with_the_others():
    """A final state that falls between deep-checked steps is still compared with every
    state checked before it: a determinize that shows the deck only at the end fails (it
    was checked against a fresh table, so it passed with deep_every above the game's
    length)."""
    check_game(HighCard.create(), games=60, deep_every=1000)
    with pytest.raises(AssertionError, match=r"step 2: determinize\(\d, 0\) differs from an ea"):
        check_game(_SeesTheDeckAtTheEnd.create(), games=60, deep_every=1000)


@pytest.mark.parametrize("ending", ["/", "/.", "/.."])
def test_a_file_named_as_a_directory_is_refused_by_the_library_too(ending, tmp_path):
    """simulate(out=...), write_file and a result's to_jsonl refuse a path that ends as a
    directory's name does (``new/``, ``new/.``) with a ConfigError, writing nothing, as the
    command line does (Path dropped the ending, and a file ``new`` was written)."""
    from forestgames.sim import write_file

    path = f"{tmp_path / 'new'}{ending}"
    message = f"{re.escape(path)}: names a directory, not a file"
    result = fg.simulate("bosk", ["random"], 1, seed=1, progress=False)
    for write in (
        lambda: fg.simulate("bosk", ["random"], 1, seed=1, progress=False, out=path),
        lambda: write_file(path, "text"),
        lambda: result.to_jsonl(path),
    ):
        with pytest.raises(fg.ConfigError, match=message):
            write()
        assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (object(), "result options must be JSON values, not object"),
        (float("nan"), "result options must be JSON values, which have no nan"),
        (10**4001, "a result's option value <an int of 4002 digits> has more than 4,000 digits"),
    ],
    ids=["object", "nan", "huge-int"],
)
def test_a_results_bad_option_is_named_as_the_results(value, message):
    """A SimulationResult built with an option no run has names the result's options (its
    checks are a record's, whose messages said "record options" of a result)."""
    with pytest.raises(fg.ConfigError, match=f"^{re.escape(message)}"):
        SimulationResult("g", {"x": value}, 0, ())
