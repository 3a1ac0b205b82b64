"""Mutated input never gets past the library's errors, on every game.

Hypothesis mutates notation, saved states, move fields, records and options,
starting from real ones taken along random legal games. The property is
always: the library's own error (a ``ValueError`` subclass), raised within a
second, or a value the rules could reach that then works — legal moves,
apply, render, observation, the JSON round trip. The budget is small by
default; ``FORESTGAMES_FUZZ=20`` multiplies it (a longer run).
"""

from __future__ import annotations

import json
import os
import random
import re
import time
import warnings
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import forestgames as fg
from forestgames.agents import make_agent
from forestgames.bosk.moves import PlantTree
from forestgames.bosk.scoring import plain_board_scores
from forestgames.core import ForestGamesError, GameBase
from forestgames.tournament import fit_bradley_terry, pairwise_results, rate, tournament_lineups
from tests.strategies import random_game

SCALE = int(os.environ.get("FORESTGAMES_FUZZ", "1"))
FUZZ = settings(
    max_examples=25 * SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# Games join as they move onto the engine base (Boom Bokken's port is on its branch).
NAMES = [name for name in fg.GAME_NAMES if isinstance(fg.make(name), GameBase)]
CASES = [(name, p) for name in NAMES for p in (fg.make(name).traits.min_players, 4)]
IDS = [f"{name}-{p}p" for name, p in CASES]
TIME_LIMIT = 1.0

_POSITIONS: dict[tuple[str, int], list[Any]] = {}


def positions(name: str, players: int) -> list[Any]:
    """A few states along two random games of the game (cached per case)."""
    key = (name, players)
    if key not in _POSITIONS:
        game = fg.make(name, num_players=players)
        states = [s for seed in (1, 2) for s, _ in random_game(game, seed)]
        step = max(1, len(states) // 12)
        _POSITIONS[key] = states[::step]
    return _POSITIONS[key]


NUMPY_JUNK = (
    np.array(3),  # 0-d: passes isinstance(Iterable) but cannot be iterated
    np.array([[1, 2]]),
    np.zeros((2, 0)),
    np.int64(2),
    np.float32(1.5),
    np.array(["a"]),
)
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.just(10**5000),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.just("１２"),  # noqa: RUF001 - fullwidth digits on purpose
    st.lists(st.integers(-3, 99), max_size=4),
    st.just([[[[[[[[[[0]]]]]]]]]]),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
    st.sampled_from(NUMPY_JUNK),
)


def bounded(call: Any, *args: Any) -> Any:
    """``call(*args)``: its value, or None after one of the library's errors; within a second."""
    start = time.perf_counter()
    try:
        return call(*args)
    except ForestGamesError as error:
        assert isinstance(error, ValueError)
        return None
    finally:
        assert time.perf_counter() - start < TIME_LIMIT, f"{call} took too long"


def works(state: Any) -> None:
    """A state the library produced plays on: moves, apply, pictures, views, round trip."""
    game = state.game
    assert game.state_from_dict(json.loads(json.dumps(state.to_dict()))) == state
    state.render()
    for seat in range(game.num_players):
        json.dumps(state.observation(seat))
    for seat in state.players_to_act[:2]:
        moves = state.legal_moves(seat)
        assert moves
        state.apply(moves[0])


def mutate(data: Any, draw: Any, depth: int = 0) -> Any:
    """``data`` (parsed JSON) with one value somewhere replaced, removed or added."""
    if isinstance(data, dict) and data and depth < 6:
        key = draw(st.sampled_from(sorted(data, key=str)))
        action = draw(st.sampled_from(["deeper", "replace", "drop", "add"]))
        changed = dict(data)
        if action == "deeper":
            changed[key] = mutate(data[key], draw, depth + 1)
        elif action == "replace":
            changed[key] = draw(JUNK)
        elif action == "drop":
            del changed[key]
        else:
            changed[draw(st.text(min_size=1, max_size=6))] = draw(JUNK)
        return changed
    if isinstance(data, list) and data and depth < 6:
        k = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(["deeper", "replace", "drop", "dup"]))
        changed = list(data)
        if action == "deeper":
            changed[k] = mutate(data[k], draw, depth + 1)
        elif action == "replace":
            changed[k] = draw(JUNK)
        elif action == "drop":
            del changed[k]
        else:
            changed.insert(k, data[k])
        return changed
    return draw(JUNK)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
@FUZZ
@given(data=st.data())
def test_mutated_saved_states(name, players, data):
    """A mutated saved state loads as a state that works, or raises StateError."""
    state = data.draw(st.sampled_from(positions(name, players)))
    broken = mutate(state.to_dict(), data.draw)
    loaded = bounded(state.game.state_from_dict, broken)
    if loaded is not None:
        works(loaded)


DEAL = {  # a Boom Bokken deal of 4 seats in teams 0/1/0/1 (roles only in Expert mode)
    "hands": [["5", "1", "T"], ["2", "3"], ["F5", "4"], ["6", "7", "8"]],
    "teams": [0, 1, 0, 1],
    "leader": 0,
    "deck_top": ["8", "F1"],
    "seed": 3,
}
EXPERT_ROLES = ["gardien", "cogneur", "cogneur", "gardien"]


@pytest.mark.parametrize("options", [{}, {"expert": True}, {"distinct_flashers": True}])
@FUZZ
@given(data=st.data())
def test_mutated_deals(options, data):
    """``game.deal`` (Boom Bokken's hand-made positions) with one to three of its arguments
    mutated gives a state that works, or raises StateError."""
    game = fg.make("boom_bokken", num_players=4, **options)
    args = {**DEAL, "roles": EXPERT_ROLES if game.expert else None}
    for _ in range(data.draw(st.integers(1, 3))):
        key = data.draw(st.sampled_from(sorted(args)))
        args[key] = mutate(args[key], data.draw)
    dealt = bounded(lambda: game.deal(**args))
    if dealt is not None:
        works(dealt)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
@FUZZ
@given(data=st.data())
def test_mutated_observations_make_a_tensor_or_a_state_error(name, players, data):
    """``codec.tensor_from_observation`` of a mutated observation dict gives a float32
    tensor of the game's shape, or StateError (it raised TypeError, KeyError and more)."""
    state = data.draw(st.sampled_from(positions(name, players)))
    seat = data.draw(st.integers(0, players - 1))
    codec = state.game.codec
    broken = mutate(json.loads(json.dumps(state.observation(seat))), data.draw)
    tensor = bounded(codec.tensor_from_observation, broken)
    if tensor is not None:
        assert tensor.dtype == np.float32 and tensor.shape == codec.observation_shape


BAD_OBSERVATIONS = [
    # (game, options, key, value): each value the helper's fuzzing found written into the
    # tensor (round 0 landed in the last pile slot), or a value no position shows
    ("boom_bokken", {"num_players": 4}, "round", 0, "round must be an int in 1..3"),
    ("boom_bokken", {"num_players": 4}, "observer", 99, "observer must be an int in 0..3"),
    ("boom_bokken", {"num_players": 4}, "teams", [0, 0, 0, 5], r"teams\[3\]"),
    ("boom_bokken", {"num_players": 4}, "tokens", [0] * 5, "tokens must be a list of 4"),
    ("boom_bokken", {"num_players": 4}, "safe", [9], r"safe\[0\]"),
    ("boom_bokken", {"num_players": 4}, "leader", -3, "leader must be an int in 0..3"),
    ("boom_bokken", {"num_players": 4}, "announce", "sideways", "announce must be one of"),
    ("boom_bokken", {"num_players": 4}, "over", "yes", "over must be true or false"),
    ("boom_bokken", {"num_players": 4}, "deck_size", 10**40, "deck_size must be an int"),
    ("boom_bokken", {"num_players": 4}, "roles", ["gardien"] * 4, "roles must be None"),
    ("bosk", {}, "observer", -1, "observer must be an int in 0..1"),
    ("bosk", {}, "round", 99, "round must be an int"),
    ("bonsai", {}, "observer", 99, "observer must be an int in 0..1"),
    ("bonsai", {}, "deck_size", -1, "deck_size must be an int"),
    ("living_forest", {}, "turn", 0, "turn must be an int"),
    ("living_forest", {}, "extra", 1, "has unknown keys extra"),
]


@pytest.mark.parametrize(("name", "options", "key", "value", "message"), BAD_OBSERVATIONS)
def test_observation_values_out_of_their_range_are_state_errors(name, options, key, value, message):
    """A value of the wrong type or range in an observation dict raises StateError naming the
    field, before anything is written into a tensor."""
    game = fg.make(name, **options)
    observation = game.new_game(seed=1).observation(0)
    with pytest.raises(fg.StateError, match=f"{name} observation.{message}"):
        game.codec.tensor_from_observation({**observation, key: value})


def test_an_observation_of_mixed_seats_is_a_state_error():
    """A Living Forest observation saying observer 0 that shows seat 1's own piles is a
    StateError naming the Spirit and the pile (it reached the tensor builder, whose
    KeyError said only "a malformed observation"); so is one whose other seat shows them."""
    game = fg.make("living_forest")
    observation = game.new_game(seed=1).observation(1)
    mixed = r"^living_forest observation.spirits\[0\] lacks discard: only the observer's own"
    with pytest.raises(fg.StateError, match=mixed):
        game.codec.tensor_from_observation({**observation, "observer": 0})
    spirits = [dict(spirit) for spirit in observation["spirits"]]
    spirits[0]["deck_rest"] = spirits[1]["deck_rest"]
    with pytest.raises(fg.StateError, match=r"spirits\[0\] shows deck_rest: only the observer"):
        game.codec.tensor_from_observation({**observation, "spirits": spirits})


def test_lists_longer_than_their_tensor_field_are_state_errors():
    """A list the tensor has no room for is refused, never written on into the next field:
    a Boom Bokken pile of more than the 64 valued cards, a Bosk stack of more than 8P
    leaves (in a saved state too), a Living Forest known deck top of more than the 51
    reserve cards."""
    boom = fg.make("boom_bokken", num_players=4)
    observation = boom.new_game(seed=1).observation(0)
    with pytest.raises(fg.StateError, match=r"observation.pile must be a list of 0..64"):
        boom.codec.tensor_from_observation({**observation, "pile": ["3"] * 65})
    bosk = fg.make("bosk")
    state = bosk.new_game(seed=1)
    observation, saved = state.observation(0), state.to_dict()
    stacks = [list(row) for row in observation["stacks"]]
    stacks[0][0] = "01" * 8 + "0"  # 17 leaves, 2 players
    for refused in (
        lambda: bosk.codec.tensor_from_observation({**observation, "stacks": stacks}),
        lambda: bosk.state_from_dict({**saved, "stacks": stacks}),
    ):
        with pytest.raises(fg.StateError, match=r"stacks\[0\]\[0\] must be a stack: at most 16"):
            refused()
    stacks[0][0] = "01" * 8 + "S1"  # 16 leaves and a squirrel: the tallest stack there is
    bosk.codec.tensor_from_observation({**observation, "stacks": stacks})
    forest = fg.make("living_forest")
    observation = forest.new_game(seed=1).observation(0)
    spirits = [observation["spirits"][0], {**observation["spirits"][1], "deck_top": ["Bear"] * 52}]
    with pytest.raises(fg.StateError, match=r"spirits\[1\].deck_top must be a list of 0..51"):
        forest.codec.tensor_from_observation({**observation, "spirits": spirits})


def test_numpy_integers_in_an_observation_read_as_their_ints():
    """Numpy integers (unsigned ones too) in an observation dict give the tensor the ints
    give: the reader gets the values as the schema read them, so no uint64 wraps around."""
    for name, players in (("bonsai", 3), ("bosk", 3), ("living_forest", 3), ("boom_bokken", 5)):
        game = fg.make(name, num_players=players)
        states = positions(name, players)
        state = states[len(states) // 2]  # mid-game: seats and lists all in use
        observation = state.observation(1)
        expected = state.observation_tensor(1)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # numpy's overflow warning would be an error here
            tensor = game.codec.tensor_from_observation({**observation, "observer": np.uint64(1)})
        assert np.array_equal(tensor, expected), name


def _as_numpy(value: Any, kind: type[np.integer[Any]]) -> Any:
    """``value`` (a ``to_dict``) with every int that fits ``kind`` made one."""
    if type(value) is int and np.iinfo(kind).min <= value <= np.iinfo(kind).max:
        return kind(value)
    if isinstance(value, list):
        return [_as_numpy(item, kind) for item in value]
    if isinstance(value, dict):
        return {key: _as_numpy(item, kind) for key, item in value.items()}
    return value


def test_numpy_integers_in_a_saved_state_read_as_their_ints():
    """A saved state whose ints are numpy integers (its num_players too) loads as the state
    (num_players was refused as 'must be 3, not 3'), and writes plain ints back."""
    for name, players in (("bonsai", 3), ("bosk", 3), ("living_forest", 3), ("boom_bokken", 5)):
        game = fg.make(name, num_players=players)
        states = positions(name, players)
        state = states[len(states) // 2]
        saved = state.to_dict()
        for kind in (np.int64, np.uint8):
            loaded = game.state_from_dict(_as_numpy(saved, kind))
            assert loaded == state and loaded.to_dict() == saved, (name, kind)
            assert json.dumps(loaded.to_dict()) == json.dumps(saved)


def test_observations_of_other_options_are_state_errors():
    """Another player count's observation, or an Expert one in a plain game (and the other
    way round), is refused: its lists have other lengths, its roles are not allowed."""
    four, five = fg.make("boom_bokken", num_players=4), fg.make("boom_bokken", num_players=5)
    expert = fg.make("boom_bokken", num_players=4, expert=True)
    for codec, other in ((four, five), (five, four), (four, expert), (expert, four)):
        with pytest.raises(fg.StateError, match="boom_bokken observation"):
            codec.codec.tensor_from_observation(other.new_game(seed=2).observation(1))


def test_a_spirit_shows_its_own_piles_only_to_itself():
    """A Living Forest observation's Spirits may lack ``discard`` and ``deck_rest`` (only the
    observer's has them), but nothing else; an unknown key is refused."""
    game = fg.make("living_forest")
    observation = game.new_game(seed=1).observation(0)
    spirits = observation["spirits"]
    assert "deck_rest" in spirits[0] and "deck_rest" not in spirits[1]
    game.codec.tensor_from_observation(observation)
    without_cards = [{k: v for k, v in spirits[0].items() if k != "cards"}, spirits[1]]
    with pytest.raises(fg.StateError, match=r"spirits\[0\] lacks cards"):
        game.codec.tensor_from_observation({**observation, "spirits": without_cards})
    with pytest.raises(fg.StateError, match=r"spirits\[1\] has unknown keys hand"):
        spirits_plus = [spirits[0], {**spirits[1], "hand": []}]
        game.codec.tensor_from_observation({**observation, "spirits": spirits_plus})


def test_observations_that_are_not_dicts_are_state_errors():
    """Not a dict, or another game's observation: StateError saying so."""
    bosk, bonsai = fg.make("bosk"), fg.make("bonsai")
    for junk in (None, [], "obs", 10**5000, bonsai.new_game(seed=1).observation(0)):
        with pytest.raises(fg.StateError, match="not a bosk observation dict"):
            bosk.codec.tensor_from_observation(junk)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
@FUZZ
@given(data=st.data())
def test_mutated_notation(name, players, data):
    """Mutated move text parses to a move (then legal or refused) or raises ParseError."""
    state = data.draw(st.sampled_from([s for s in positions(name, players) if not s.is_terminal]))
    seat = state.players_to_act[0]
    text = str(data.draw(st.sampled_from(state.legal_moves(seat))))
    k = data.draw(st.integers(0, len(text)))
    piece = data.draw(st.text(max_size=3))
    text = data.draw(st.sampled_from([text[:k] + piece + text[k:], text[:k] + text[k + 1 :]]))
    move = bounded(state.game.parse_move, text)
    if move is not None:
        after = bounded(state.apply, move)
        if after is not None:
            works(after) if not after.is_terminal else after.to_dict()


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
@FUZZ
@given(data=st.data())
def test_mutated_move_fields(name, players, data):
    """A legal move with a field replaced by junk is applied as a legal move or refused
    with IllegalMoveError, and the state is unchanged either way; it still has a text."""
    state = data.draw(st.sampled_from([s for s in positions(name, players) if not s.is_terminal]))
    seat = state.players_to_act[0]
    move = data.draw(st.sampled_from(state.legal_moves(seat)))
    field = data.draw(st.sampled_from([f.name for f in attrs.fields(type(move))]))
    try:
        odd = attrs.evolve(move, **{field: data.draw(JUNK)})
    except (TypeError, ValueError):  # the move class's own converter refused it
        return
    assert isinstance(str(odd), str)  # was TypeError/IndexError for at=None, cards=None...
    before = state.to_dict()
    bounded(state.apply, odd)
    assert state.to_dict() == before
    bounded(state.game.action_id, odd)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_array_fields_are_refused_without_comparing_them(name, players):
    """A legal move with a field set to an array (empty, one or two elements) is refused
    with IllegalMoveError, and no warning: the legal moves are not compared with it (numpy
    before 2.2 warned of an empty array's truth value, then said False)."""
    state = next(s for s in positions(name, players) if not s.is_terminal)
    seat = state.players_to_act[0]
    for move in state.legal_moves(seat)[:5]:
        for field in attrs.fields(type(move)):
            for array in (np.array([]), np.array([1]), np.array([1, 2])):
                odd = attrs.evolve(move, **{field.name: array})
                if field.name == "at" and array.size == 2:
                    continue  # a square given as an array: the move's converter reads it
                wrong = {
                    "player": "seat <array of shape .* is not in this game",
                    "cards": "a play puts down one card or more",  # Boom Bokken's own words
                }.get(
                    field.name, f"field {field.name} = <array of shape .* is not of the right form"
                )
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    with pytest.raises(fg.IllegalMoveError, match=wrong):
                        state.apply(odd)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
@FUZZ
@given(data=st.data())
def test_mutated_records(name, players, data):
    """A mutated game record loads and replays, or raises the library's error."""
    game = fg.make(name, num_players=players)
    steps = random_game(game, 5, max_moves=None)
    moves = [m for _, m in steps][:40]
    record = fg.GameRecord.start(game, 5).with_moves(m for m in moves if m is not None)
    loaded = bounded(fg.GameRecord.from_dict, mutate(record.to_dict(), data.draw))
    if loaded is not None:
        bounded(loaded.replay)


@pytest.mark.parametrize(
    "text",
    [
        "null",
        "[]",
        "9" * 5000,
        "[" * 3000 + "]" * 3000,
        '{"game": "bosk", "options": {}, "seed": ' + "9" * 5000 + ', "first_player": null, '
        '"moves": []}',
        '{"game": "bosk", "options": {"num_players": 3}, "seed": 1, "first_player": 7, '
        '"moves": []}',
        '{"game": "chess", "options": {}, "seed": 1, "first_player": null, "moves": []}',
        '{"game": "bosk", "options": {"terrain": ' + "[" * 500 + "]" * 500 + '}, "seed": 1, '
        '"first_player": null, "moves": []}',  # was RecursionError (options nested too deep)
        b"\x89PNG\r\n",
        '{"game": "bosk", "options": {"terrain": ' + json.dumps([[0] * 1000] * 1000) + "}, "
        '"seed": 1, "first_player": null, "moves": []}',  # 3000x3000 took 9 s (options copied)
    ],
    ids=lambda text: f"{len(text)} chars",
)
def test_bad_record_texts(text):
    """Record texts that are not records (or name impossible games) raise StateError."""
    record = bounded(fg.GameRecord.from_json, text)
    if record is not None:
        with pytest.raises(fg.StateError, match="game record: "):
            record.replay()


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(data=st.data())
def test_random_options(name, data):
    """Random options make a game that plays, or raise ConfigError."""
    known = [option.name for option in type(fg.make(name)).OPTIONS]
    keys = data.draw(st.lists(st.sampled_from([*known, "bogus"]), max_size=3, unique=True))
    options = {key: data.draw(st.one_of(JUNK, st.integers(0, 10))) for key in keys}
    game = bounded(lambda: fg.make(name, **options))
    if game is not None:
        state = game.new_game(seed=1)
        for _ in range(5):
            if state.is_terminal:
                break
            state = state.apply(state.legal_moves(state.players_to_act[0])[0])
        works(state) if not state.is_terminal else state.to_dict()


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(data=st.data())
def test_games_built_by_their_class_are_checked_as_make_checks(name, data):
    """A game built by its class, or by attrs.evolve, from random options is the game make
    builds from them, or a ConfigError as make raises (such games went unchecked, to a KeyError)."""
    game = fg.make(name)
    known = [option.name for option in type(game).OPTIONS]
    keys = data.draw(st.lists(st.sampled_from(known), min_size=1, max_size=3, unique=True))
    changes = {key: data.draw(st.one_of(JUNK, st.integers(0, 10))) for key in keys}
    options = {name: getattr(game, name) for name in known} | changes
    made = bounded(lambda: fg.make(name, **options))
    assert bounded(lambda: type(game)(**options)) == made
    assert bounded(lambda: attrs.evolve(game, **changes)) == made
    if made is not None:
        works(made.new_game(seed=1))


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(seed=JUNK, player=JUNK)
def test_junk_seeds_and_seats(name, seed, player):
    """Junk seeds and seats give ConfigError or IllegalMoveError, never a Python error."""
    state = fg.make(name).new_game(seed=3)
    bounded(state.determinize, player, seed)
    bounded(state.determinize, 0, seed)
    bounded(state.observation, player)
    bounded(state.legal_moves, player)
    bounded(lambda: fg.make(name).new_game(seed=seed, first_player=player))


# --------------------------------------------------------------------------- exported helpers

OTHER_STATE = st.sampled_from(["bosk", "bonsai", "living_forest", "boom_bokken"]).map(
    lambda name: fg.make(name).new_game(seed=1)
)
HELPER_JUNK = st.one_of(JUNK, OTHER_STATE, st.lists(JUNK, max_size=3), st.lists(st.lists(JUNK)))


def _helpers() -> dict[str, Any]:
    from forestgames.bosk._tables import SUMMER_POINTS

    return {
        "bosk.plain_scores": lambda junk: fg.bosk.plain_scores(junk, 2, SUMMER_POINTS),
        "bosk.plain_scores points": lambda junk: fg.bosk.plain_scores([[(0, 1)]], 2, junk),
        "bosk.plain_scores players": lambda junk: fg.bosk.plain_scores(
            [[(0, 1)]], junk, SUMMER_POINTS
        ),
        "bosk.render_terrain": fg.bosk.render_terrain,
        "bonsai.Tree": fg.bonsai.Tree,
        "bonsai.Tree beside": lambda junk: fg.bonsai.Tree({524800: 0}, junk),
        "bonsai.deck_counts": fg.bonsai.deck_counts,
        "living_forest.tree_count": fg.living_forest.tree_count,
        "living_forest.forest_bonus": fg.living_forest.forest_bonus,
        "living_forest.line_elements": fg.living_forest.scoring.line_elements,
        "living_forest.solitary_count": fg.living_forest.solitary_count,
        "living_forest.element_totals line": lambda junk: fg.living_forest.element_totals(
            junk, (0,) + (-1,) * 14
        ),
        "living_forest.element_totals forest": lambda junk: fg.living_forest.element_totals(
            (), junk
        ),
        "living_forest.progress_of": lambda junk: fg.living_forest.progress_of(
            (), (0,) + (-1,) * 14, junk, junk
        ),
        "boom_bokken.render_text": fg.boom_bokken.render_text,
        "boom_bokken.render_svg": fg.boom_bokken.render_svg,
        "bosk.plain_board_scores": lambda junk: plain_board_scores(junk, junk, [[0]], [[0]], 2),
        "bosk.plain_board_scores top": lambda junk: plain_board_scores(
            [[0]], [[1]], junk, [[0]], 2
        ),
        "sim.wilson_interval": lambda junk: fg.sim.wilson_interval(junk, 10),
        "sim.wilson_interval trials": lambda junk: fg.sim.wilson_interval(1, junk),
        "agents.heuristic_for": fg.agents.heuristic_for,
        "tournament.fit_bradley_terry": fit_bradley_terry,
        "tournament.fit_bradley_terry prior": lambda junk: fit_bradley_terry(
            [[0, 1], [1, 0]], junk
        ),
        "tournament.pairwise_results": lambda junk: pairwise_results(junk, ["a"]),
        "tournament.pairwise_results names": lambda junk: pairwise_results([], junk),
        "tournament.rate": lambda junk: rate(junk, ["a", "b"]),
        "tournament.tournament_lineups": lambda junk: tournament_lineups(junk, 2),
        "GameRecord": lambda junk: fg.GameRecord("bosk", {}, 1, None, junk),
        "GameRecord.with_moves": lambda junk: fg.GameRecord.start("bosk", 1).with_moves(junk),
        "boom_bokken.round_coins": lambda junk: fg.boom_bokken.round_coins(junk, [0, 1, 0, 1]),
        "boom_bokken.round_coins teams": lambda junk: fg.boom_bokken.round_coins([0], junk),
        "boom_bokken.final_scores": lambda junk: fg.boom_bokken.final_scores(junk, [0, 0]),
        "boom_bokken.decide_winners": lambda junk: fg.boom_bokken.decide_winners([1, 2], junk),
        "living_forest.decide_winners": fg.living_forest.decide_winners,
        "living_forest.limit_winners": fg.living_forest.limit_winners,
        "GameRecord options": lambda junk: fg.GameRecord("bosk", junk, 1, None, ()),
        "GameRecord seed": lambda junk: fg.GameRecord("bosk", {}, junk, None, ()),
        "game.state_to_dict": fg.make("bosk").state_to_dict,
        "core.derive_seed": fg.core.derive_seed,
        "core.derive_seed key": lambda junk: fg.core.derive_seed(1, junk),
        "core.new_rng": fg.core.new_rng,
    }


@pytest.mark.parametrize("helper", sorted(_helpers()))
@FUZZ
@given(junk=HELPER_JUNK)
def test_junk_into_exported_helpers(helper, junk):
    """Exported helpers given junk (None, text, floats, shapes, another game's state) raise
    the library's errors, never TypeError, AttributeError, IndexError or KeyError."""
    bounded(_helpers()[helper], junk)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (
            lambda: fg.bosk.plain_scores(None, 2, fg.bosk.scoring.SUMMER_POINTS),
            fg.ConfigError,
            "lines must be a sequence",
        ),
        (
            lambda: fg.bosk.plain_scores([[(3, 1)]], 2, fg.bosk.scoring.SUMMER_POINTS),
            fg.ConfigError,
            "not a seat of a 2-player game",
        ),
        (lambda: fg.bosk.plain_scores([[(0, 1)]], 2, {"sole": 1}), fg.ConfigError, "no 'first'"),
        (lambda: fg.bosk.render_terrain([[0, 9]]), fg.StateError, "shape (S, S)"),
        (lambda: fg.bosk.render_terrain([[0, 9], [1, 1]]), fg.StateError, "terrain ids"),
        (lambda: fg.bonsai.Tree(None), fg.StateError, "cells must map"),
        (lambda: fg.bonsai.Tree({}), fg.StateError, "bud (0, 0) as wood"),
        (lambda: fg.bonsai.Tree({524800: 0, 524799: 7}), fg.StateError, "not 0..3"),
        (lambda: fg.bonsai.deck_counts(None), fg.ConfigError, "num_players must be an int"),
        (lambda: fg.bonsai.deck_counts(5), fg.ConfigError, "1..4"),
        (lambda: fg.living_forest.tree_count(None), fg.StateError, "sequence of tree ids"),
        (lambda: fg.living_forest.tree_count((0, 99) + (-1,) * 13), fg.StateError, "forest[1]"),
        (lambda: fg.living_forest.forest_bonus(None), fg.StateError, "sequence of tree ids"),
        (lambda: fg.living_forest.forest_bonus((0,)), fg.StateError, "15 cells, not 1"),
        (lambda: fg.living_forest.solitary_count(None), fg.StateError, "sequence of card ids"),
        (lambda: fg.living_forest.scoring.line_elements([0, -1]), fg.StateError, "line[1]"),
        (
            lambda: fg.living_forest.element_totals([10**6], (0,) + (-1,) * 14),
            fg.StateError,
            "element_totals: line[0] must be a card id",
        ),
        (
            lambda: fg.living_forest.progress_of((), (0,) + (-1,) * 14, -1, (0, 0, 0)),
            fg.StateError,
            "non-negative int, not -1",
        ),
        (
            lambda: fg.living_forest.progress_of((), (0,) + (-1,) * 14, 0, None),
            fg.StateError,
            "(tree, fire, flower)",
        ),
        (lambda: fg.boom_bokken.render_text(None), fg.ConfigError, "Boom Bokken state"),
        (
            lambda: plain_board_scores([[0]], [[5]], [[0]], [[0]], 2),
            fg.StateError,
            "value[0, 0] = 5: tree values must be 0..4",
        ),
        (
            lambda: plain_board_scores([[[0]]], [[[1]]], [[0]], [[0]], 2),
            fg.StateError,
            "scores one board",
        ),
        (lambda: fg.sim.wilson_interval(11, 10), fg.ConfigError, "successes must be in 0..10"),
        (lambda: fg.sim.wilson_interval(1, 10, 0.0), fg.ConfigError, "z must be a finite"),
        (lambda: fg.agents.heuristic_for(["bosk"]), fg.ConfigError, "game's name (str)"),
        (lambda: fit_bradley_terry([[0, 1]]), fg.ConfigError, "shape (K, K)"),
        (lambda: fit_bradley_terry([[0, -1], [1, 0]]), fg.ConfigError, ">= 0"),
        (lambda: pairwise_results([], ["a", "a"]), fg.ConfigError, "distinct"),
        (lambda: rate(None, ["a", "b"]), fg.ConfigError, "SimulationResult"),
        (
            lambda: tournament_lineups(60, 4),
            fg.ConfigError,
            "more than 1,000,000 seatings",
        ),
        (lambda: fg.GameRecord(None, {}, 1, None, ()), fg.ConfigError, "game's name"),
        (lambda: fg.GameRecord("bosk", {}, 1, None, [1]), fg.ConfigError, "notation strings"),
        (lambda: fg.GameRecord("bosk", {"x": {1}}, 1, None, ()), fg.ConfigError, "not set {1}"),
        (
            lambda: fg.GameRecord("bosk", {"terrain": np.zeros((400, 400))}, 1, None, ()),
            fg.ConfigError,
            "more than 100,000 values",
        ),
        (
            lambda: fg.make("bosk").state_to_dict(fg.make("bonsai").new_game(seed=1)),
            fg.ConfigError,
            "is not a state of",
        ),
        (
            lambda: fg.boom_bokken.render_svg(fg.make("bosk").new_game(seed=1)),
            fg.ConfigError,
            "Boom Bokken state",
        ),
    ],
)
def test_exported_helpers_name_what_is_wrong(call, error, words):
    """Each exported helper's refusal is the library's error and names the bad argument."""
    with pytest.raises(error, match=re.escape(words)):
        call()


def test_exported_helpers_keep_their_answers():
    """The checked helpers answer valid input as before (the engine's own data included)."""
    from forestgames.bosk._tables import DEFAULT_TERRAIN, SUMMER_POINTS

    assert fg.bosk.plain_scores([[(0, 2), (1, 1)], [(1, 3)], []], 2, SUMMER_POINTS) == [2, 4]
    assert fg.bosk.render_terrain(DEFAULT_TERRAIN[10]).splitlines()[0].startswith("A")
    assert fg.bonsai.Tree({524800: 0}) == fg.bonsai.Tree.seedling()
    assert fg.bonsai.deck_counts(1) == fg.bonsai.deck_counts(2)
    state = fg.make("living_forest").new_game(seed=1)
    assert fg.living_forest.tree_count(state.forests[0]) == 1
    assert fg.living_forest.tree_count(list(state.forests[0])) == 1
    lf, seen = fg.living_forest, set()
    for state, _ in list(random_game(fg.make("living_forest", num_players=3), 5))[::5]:
        for seat in range(3):
            line, forest = list(state.lines[seat]), list(state.forests[seat])
            held, tiles = sum(state.fires_held[seat]), list(state.victory[seat])
            assert lf.element_totals(line, forest) == state.totals(seat)
            assert lf.solitary_count(line) == state.solitary(seat)
            assert lf.progress_of(line, forest, held, tiles) == state.progress[seat]
            seen.add(state.totals(seat))
    assert len(seen) > 10  # many different positions were compared
    assert fg.boom_bokken.render_text(fg.make("boom_bokken").new_game(seed=1)).startswith("Boom")
    assert plain_board_scores([[0]], [[1]], [[0]], [[0]], 2) == ([6, 0], [8, 0])
    assert fg.sim.wilson_interval(0, 0) == (0.0, 1.0)
    assert fg.sim.wilson_interval(5, 10)[0] < 0.5 < fg.sim.wilson_interval(5, 10)[1]
    theta = fit_bradley_terry([[0, 3], [1, 0]])
    assert theta[0] > 0 > theta[1]
    assert len(tournament_lineups(5, 4)) == 20
    record = fg.GameRecord("bosk", {"num_players": 2}, 3, None, ["x"])
    assert record.moves == ("x",) and record.seed == 3


# --------------------------------------------------------------------------- agents' hooks


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(junk=HELPER_JUNK, data=st.data())
def test_agents_hooks_refuse_junk(name, junk, data):
    """game.evaluate_moves / position_value / chance_outcome given junk, another game's state
    or moves that are not the state's raise the library's errors, never AttributeError."""
    game = fg.make(name)
    state = data.draw(st.sampled_from(positions(name, game.num_players)))
    moves = state.legal_moves(state.players_to_act[0])
    bounded(game.evaluate_moves, junk, moves)
    bounded(game.evaluate_moves, state, junk)
    bounded(game.evaluate_moves, state, [moves[0], junk])
    bounded(game.position_value, junk)
    bounded(game.chance_outcome, junk, moves[0], state)
    bounded(game.chance_outcome, state, junk, state)
    bounded(game.chance_outcome, state, moves[0], junk)


@pytest.mark.parametrize("name", NAMES)
def test_agents_hooks_name_what_is_wrong(name):
    """A state of another game (or of this one with other options) is a ConfigError, a
    move not legal in the state an IllegalMoveError."""
    game = fg.make(name)
    state = game.new_game(seed=1)
    other = fg.make("bosk" if name != "bosk" else "bonsai").new_game(seed=1)
    with pytest.raises(fg.ConfigError, match="is not a state of"):
        game.evaluate_moves(other, other.legal_moves())
    with pytest.raises(fg.ConfigError, match="is not a state of"):
        game.position_value(fg.make(name, num_players=game.num_players + 1).new_game(seed=1))
    with pytest.raises(fg.ConfigError, match="is not a state of"):
        game.chance_outcome(state, state.legal_moves()[0], None)
    with pytest.raises(fg.IllegalMoveError, match=r"not a .* move"):
        game.evaluate_moves(state, other.legal_moves()[:1])
    with pytest.raises(fg.IllegalMoveError, match="sequence of moves"):
        game.evaluate_moves(state, None)
    with pytest.raises(fg.IllegalMoveError, match=r"not a .* move"):
        game.chance_outcome(state, other.legal_moves()[0], state)


@pytest.mark.parametrize("name", NAMES)
def test_agents_hooks_checked_answers_are_the_hooks(name):
    """The checked public hooks answer exactly what the unchecked ones the agents call do,
    for equal (not identical) moves too, and no moves give an (0, players) array."""
    game = fg.make(name)
    for state in positions(name, game.num_players)[:4]:
        seat = state.players_to_act[0]
        moves = state.legal_moves(seat)
        copies = [game.parse_move(str(m)) for m in moves]
        np.testing.assert_array_equal(
            game.evaluate_moves(state, copies), game._evaluate_moves(state, moves)
        )
        np.testing.assert_array_equal(game.position_value(state), game._position_value(state))
        after = state.apply(moves[0])
        assert game.chance_outcome(state, copies[0], after) == game._chance_outcome(
            state, moves[0], after
        )
        assert game.evaluate_moves(state, ()).shape == (0, game.num_players)


def test_a_games_own_hook_is_checked_and_reaches_the_agents():
    """A game class that overrides position_value by its public name gets the checked public
    method, and the agents (heuristics.position_value) call its override."""
    from forestgames.agents import heuristics
    from tests.test_fake_game import BuzzGame

    @attrs.frozen(slots=False)
    class Valued(BuzzGame):
        def position_value(self, state):
            return np.full(self.num_players, 7.0)

    state = Valued(2).new_game(seed=0, first_player=0)
    np.testing.assert_array_equal(state.game.position_value(state), [7.0, 7.0])
    np.testing.assert_array_equal(heuristics.position_value(state), [7.0, 7.0])
    with pytest.raises(fg.ConfigError, match="is not a state of"):
        state.game.position_value(None)


def test_a_refined_hook_may_call_its_parents():
    """An override that calls ``super().position_value`` / ``super().evaluate_moves`` reaches
    its parent game's own hook (checked once more), never itself, and the agents call it."""
    from forestgames.agents import heuristics
    from tests.test_fake_game import BuzzGame

    @attrs.frozen(slots=False)
    class Valued(BuzzGame):
        def position_value(self, state):
            return np.full(self.num_players, 7.0)

    @attrs.frozen(slots=False)
    class Refined(Valued):
        def position_value(self, state):
            return super().position_value(state) + 1.0

        def evaluate_moves(self, state, moves):
            return super().evaluate_moves(state, moves) * 2.0

    state = Refined(2).new_game(seed=0, first_player=0)
    moves = state.legal_moves()
    np.testing.assert_array_equal(state.game.position_value(state), [8.0, 8.0])
    np.testing.assert_array_equal(heuristics.position_value(state), [8.0, 8.0])
    np.testing.assert_array_equal(state.game.evaluate_moves(state, moves), 16.0)
    with pytest.raises(fg.ConfigError, match="is not a state of"):
        state.game.evaluate_moves(None, moves)


def test_evaluate_moves_takes_moves_of_one_seat():
    """Where two seats may act (Boom Bokken's out-of-turn play), a mix of their moves is an
    IllegalMoveError: an evaluation is of one seat's choices."""
    state = next(s for s in positions("boom_bokken", 4) if len(s.players_to_act) > 1)
    first, second = state.players_to_act[:2]
    mixed = [state.legal_moves(first)[0], state.legal_moves(second)[0]]
    with pytest.raises(fg.IllegalMoveError, match="of one seat"):
        state.game.evaluate_moves(state, mixed)


def test_arrays_of_the_wrong_shape_where_a_row_is_expected():
    """A 0-d or 2-d array given for a pair or a list of counts is refused with the library's
    error (len() of a 0-d array raised TypeError): a square, a move's field, an option."""
    bosk = fg.make("bosk")
    state = bosk.new_game(seed=0)
    for bad in (np.array(3), np.array([[3, 3]]), np.zeros((2, 1), int)):
        with pytest.raises(fg.IllegalMoveError, match="a square is a"):
            state.stack(bad)
        move = PlantTree(state.current_player, 3, bad)  # kept as given, for the state to refuse
        with pytest.raises(fg.IllegalMoveError, match="not of the right form"):
            state.apply(move)
    with pytest.raises(fg.ConfigError, match="3 counts"):
        fg.make("living_forest", fire_tiles=np.array(20))
    assert state.stack(np.array([3, 3])) == ()


HUGE = 10**5000  # Python refuses to turn an int over 4,300 digits into text


def _huge_int_calls() -> list[tuple[str, Any]]:
    bosk = fg.make("bosk")
    calls = [
        ("move_from_id", lambda: bosk.move_from_id(HUGE, 0)),
        ("move_from_id seat", lambda: bosk.move_from_id(0, HUGE)),
        ("codec.check_seat", lambda: bosk.codec.check_seat(HUGE)),
        ("stack", lambda: bosk.new_game(seed=0).stack((HUGE, 0))),
        ("VectorBosk.state", lambda: fg.bosk.VectorBosk(2, 1, 0).state(HUGE)),
        ("make_agent", lambda: make_agent(HUGE)),
        ("boom_bokken deck", lambda: fg.make("boom_bokken", deck={HUGE: 1})),
    ]
    if _has_rl():
        from forestgames import rl

        def aec(call: Any) -> Any:
            env = rl.aec_env("bosk")
            env.reset(seed=0)
            return call(env)

        calls += [
            ("aec step", lambda: aec(lambda env: env.step(HUGE))),
            ("aec observe", lambda: aec(lambda env: env.observe(HUGE))),
            ("aec action_space", lambda: aec(lambda env: env.action_space(HUGE))),
            ("aec reward", lambda: rl.aec_env("bosk", reward=HUGE)),
            ("gym opponents", lambda: rl.gym_env("bosk", opponents=HUGE)),
        ]
    return calls


def _has_rl() -> bool:
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.parametrize(
    ("what", "call"), _huge_int_calls(), ids=lambda x: x if isinstance(x, str) else ""
)
def test_huge_ints_are_named_by_their_size(what, call):
    """An int too long for Python to print gets the library's error, naming its size
    (error messages quote values through ``excerpt``; Python's own ValueError escaped)."""
    with pytest.raises(ForestGamesError, match="an int of 5001 digits"):
        call()


@pytest.mark.parametrize(
    "value", [{1}, set(), frozenset({2, 3}), (1,), (), (1, 2), [1], [], {"a": (1,)}]
)
def test_excerpts_of_small_containers_read_as_their_repr(value):
    """A message quotes a small container as Python writes it: a set was shown as ``(1)``,
    which reads as the int 1, and a one-tuple lost its comma."""
    from forestgames.core import excerpt

    assert excerpt(value) == repr(value)


def test_excerpts_of_long_bytes_deques_and_lists_are_built_from_their_heads():
    """A message quotes long bytes by their first 60, a long container of another kind (a
    deque) by its size, a list of over 10**6 items by its first items; the whole repr was
    built (refusing a 100 MB bytearray as a saved state took 1.4 s) or no item shown."""
    from collections import deque

    from forestgames.core import excerpt

    assert excerpt(b"x" * 100) == repr(b"x" * 60 + b"...")
    assert excerpt(bytearray(b"ab")) == "bytearray(b'ab')"
    assert excerpt(deque(range(2000))) == "<deque of 2000 items>"
    assert excerpt(deque([1, 2])) == "deque([1, 2])"
    assert excerpt(["x"] * (10**6 + 1)) == "['x', 'x', 'x', 'x', 'x', 'x', ... (1000001 items)]"
    with pytest.raises(fg.StateError, match="not the text bytearray"):
        fg.make("bosk").state_from_dict(bytearray(10**6))


def test_a_huge_id_ends_a_gym_episode_as_an_illegal_action():
    """The gym env ends the episode on any illegal id, a huge int too, instead of raising."""
    if not _has_rl():
        pytest.skip("the rl extra is not installed")
    from forestgames import rl

    env = rl.gym_env("bosk")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(HUGE)
    assert terminated and reward == env.illegal_reward and info["illegal_action"]


@pytest.mark.parametrize("name", NAMES)
def test_a_seat_that_equals_an_int_is_refused_after_the_moves_are_known(name):
    """0.0 == 0 and True == 1: a seat that only equals one was accepted once the seat's
    legal moves were in the state's memo (and on Living Forest's first state, whose
    moves come with it)."""
    state = fg.make(name).new_game(seed=1)
    seat = state.players_to_act[0]
    state.legal_moves(seat)
    for junk in (float(seat), bool(seat), np.bool_(seat), "free", ("mask", seat)):
        with pytest.raises(fg.IllegalMoveError, match="player must be an int seat number"):
            state.legal_moves(junk)


def test_the_harness_random_helpers_check_their_arguments():
    """random_step of a finished game is an IllegalMoveError, of a non-state a ConfigError
    (IndexError and AttributeError before); random_game checks its seed first (a list
    reached random.Random as TypeError)."""
    from forestgames.testing import random_game as harness_game
    from forestgames.testing import random_step

    game = fg.make("bosk")
    over = harness_game(game, 1)[-1][0]
    with pytest.raises(fg.IllegalMoveError, match="nobody may act"):
        random_step(over, random.Random(0))
    for junk in (None, game, "state"):
        with pytest.raises(fg.ConfigError, match="game state"):
            random_step(junk, random.Random(0))
    for seed in ([1], -1, 1.5):
        with pytest.raises(fg.ConfigError, match="seed"):
            harness_game("bosk", seed)
