"""OpenSpiel behaviours found by a bug hunt through the games as an OpenSpiel researcher uses
them (pyspiel's own API: serialization, pickles, parameters)."""

from __future__ import annotations

import base64
import json
import pickle
from typing import Any

import pytest

import forestgames as fg
from forestgames.rl import openspiel as fos
from forestgames.rl.openspiel import _nodes
from forestgames.rl.openspiel._nodes import DECIDE
from tests.test_openspiel import _table, unpickled_elsewhere, walk

pyspiel = pytest.importorskip("pyspiel")


def _played(game: Any, steps: int) -> Any:
    """A state of ``game`` after ``steps`` actions, each the first legal one."""
    state = game.new_initial_state()
    for _ in range(steps):
        state.apply_action(state.legal_actions()[0])
    return state


class _Pickled:
    """Pickles as the given reduce tuple (a state's, its saved text edited)."""

    def __init__(self, reduced: tuple[Any, ...]) -> None:
        self.reduced = reduced

    def __reduce__(self) -> tuple[Any, ...]:
        return self.reduced


def _new(cls: type) -> Any:
    """An instance of ``cls`` not yet initialised (what unpickling makes first)."""
    return cls.__new__(cls)


def _unpickled_with(state: Any, old: str, new: str) -> Any:
    """``pickle.loads`` of a pickle of ``state`` whose text (OpenSpiel's
    serialize_game_and_state) has ``old`` replaced by ``new``."""
    _, args, text = state.__reduce_ex__(2)[:3]
    return pickle.loads(pickle.dumps(_Pickled((_new, args, text.replace(old, new)))))


def test_a_saved_state_whose_history_was_changed_is_a_state_error():
    """docs/openspiel.md: text deserialize_state cannot load (corrupted...) raises
    StateError. A saved Bosk state whose history line was changed (seat 0 started instead of
    seat 1, an action more, the move counter) loaded with that history beside a position
    the history does not lead to; it is refused, by deserialize_state and by pickle, and
    the unchanged text loads with its history."""
    game = fos.load_game("bosk", num_players=2)
    state = game.new_initial_state()
    state.apply_action(1)
    state.apply_action(3)
    text = state.serialize()
    assert text.startswith("history=-1:1,1:3\nmove_number=2\n")
    for old, new in [
        ("history=-1:1,1:3", "history=-1:0,0:3"),
        ("history=-1:1,1:3", "history=-1:1,1:4"),
        ("history=-1:1,1:3", "history=-1:1,1:3,0:7"),
        ("move_number=2", "move_number=9"),
    ]:
        with pytest.raises(fg.StateError, match="history"):
            game.deserialize_state(text.replace(old, new))
        with pytest.raises(fg.StateError, match="history"):
            _unpickled_with(state, old, new)
    assert game.deserialize_state(text).history() == [1, 3]
    assert pickle.loads(pickle.dumps(state)).history() == [1, 3]
    assert _unpickled_with(state, "", "").history() == [1, 3]


def test_deserialize_game_and_state_refuses_a_changed_history():
    """pyspiel.deserialize_game_and_state (OpenSpiel's C++, which sets the saved attributes
    after the history) raises StateError for a saved history changed in its text, as
    deserialize_state does; it loaded it beside a position it does not lead to. The text
    as saved loads, and clones and resamples keep working."""
    game = fos.load_game("bosk", num_players=2)
    state = _played(game, 3)
    text = pyspiel.serialize_game_and_state(game, state)
    line = "history=" + ",".join(f"{h.player}:{h.action}" for h in state.full_history())
    assert line in text
    with pytest.raises(fg.StateError, match="history"):
        pyspiel.deserialize_game_and_state(text.replace(line, line + ",1:7"))
    _, loaded = pyspiel.deserialize_game_and_state(text)
    assert loaded.history() == state.history()
    assert loaded.clone().history() == state.resample_from_infostate(0, lambda: 0.5).history()


def test_history_checks_hold_through_clones_resamples_and_deals():
    """A clone, a resampled state (whose history stays this state's) and a state in the
    middle of a deal save and load with their histories, and keep doing so as play goes on
    from them."""
    game = fos.load_game("boom_bokken", num_players=4)
    state = _played(game, 40)
    assert state.is_chance_node()
    dealt = _played(game, 200)
    while dealt.is_chance_node():
        dealt.apply_action(dealt.legal_actions()[0])
    for saved in (state, state.clone(), dealt.resample_from_infostate(1, lambda: 0.25)):
        loaded = game.deserialize_state(saved.serialize())
        assert loaded.history() == saved.history()
        for _ in range(30):
            loaded.apply_action(loaded.legal_actions()[-1])
        again = pickle.loads(pickle.dumps(loaded))
        assert game.deserialize_state(again.serialize()).history() == loaded.history()


def _decision(name: str, **options: Any) -> Any:
    """A state of game ``name`` at its first decision (every chance node's first outcome)."""
    state = fos.load_game(name, **options).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state


def test_action_to_string_of_pass_refuses_a_player_that_is_no_seat():
    """PASS (Boom Bokken's id num_actions) is a seat's action: for a player that is no seat
    of the game (9 of 4) action_to_string is the IllegalMoveError every other id gives such
    a player; it read "9:pass". A seat's PASS still reads "S:pass"."""
    state = _decision("boom_bokken", num_players=4)
    pass_id = state.get_game().num_distinct_actions() - 1
    for player in (4, 9):
        with pytest.raises(fg.IllegalMoveError, match=f"player {player} is not a seat"):
            state.action_to_string(player, 0)
        with pytest.raises(fg.IllegalMoveError, match=f"player {player} is not a seat"):
            state.action_to_string(player, pass_id)
    assert state.action_to_string(3, pass_id) == "3:pass"


@pytest.mark.parametrize("player", [-1, -2, -4, -5])
def test_action_to_string_at_a_decision_reads_no_id_as_a_chance_outcome(player):
    """At a seat's decision (no chance node) an action asked of chance (-1) or of another
    pseudo-player (-2 simultaneous, -4 terminal, -5 invalid) has no string: IllegalMoveError.
    A legal decision id read "chance outcome 0" there; at a chance node -1 still reads the
    outcome and the other pseudo-players are refused too."""
    state = _decision("bosk", num_players=2)
    assert 0 in state.legal_actions()
    with pytest.raises(fg.IllegalMoveError, match="chance"):
        state.action_to_string(player, 0)
    root = fos.load_game("bosk", num_players=2).new_initial_state()
    if player == -1:
        assert root.action_to_string(player, 0) == "first player 0"
    else:
        with pytest.raises(fg.IllegalMoveError, match="chance"):
            root.action_to_string(player, 0)


def _saved_with(node: Any, **changes: Any) -> None:
    """Load ``node``'s saved JSON with ``changes`` made to it."""
    _nodes.node_from_json(json.dumps({**json.loads(node.to_json()), **changes}))


def test_a_saved_turn_or_reaction_turn_the_position_does_not_offer_is_refused():
    """A saved decision node is the current player's turn, or a reaction turn of a seat the
    position offers one (Boom Bokken's seats still in the round, the named one aside). A
    Bosk turn saved as a reaction turn loaded with -1 (PASS of a game with none) among its
    legal actions; a Boom Bokken turn saved as the named seat's reaction turn, with a queue,
    or as another seat's turn loaded too. Each is a StateError; the nodes as saved load."""
    bosk = next(n for n in walk(_table("bosk", num_players=2).initial, 5) if n.kind == DECIDE)
    for changes in ({"reacting": True}, {"reacting": True, "seat": 1 - bosk.seat}):
        with pytest.raises(fg.StateError, match="offers reaction turns to \\[\\]"):
            _saved_with(bosk, **changes)
    table = _table("boom_bokken", num_players=4)
    nodes = list(walk(table.initial, 2))
    turn = next(n for n in nodes if n.kind == DECIDE and not n.reacting and n.state.target >= 0)
    named = turn.state.target
    assert turn.seat == named and set(table.codec.reaction_seats(turn.state)) == (
        set(turn.state.players_in_round) - {named}
    )
    with pytest.raises(fg.StateError, match=f"names seats \\[{named}\\]"):
        _saved_with(turn, reacting=True)
    other = next(s for s in turn.state.players_in_round if s != named)
    with pytest.raises(fg.StateError, match="does not fit its kind"):
        _saved_with(turn, queue=[other])
    able = next(  # a turn where another seat holds a move out of turn
        (n, s)
        for n in nodes
        if n.kind == DECIDE and not n.reacting
        for s in range(4)
        if s != n.seat and n.state.legal_moves(s)
    )
    with pytest.raises(fg.StateError, match=f"seat {able[1]} is not the seat to play"):
        _saved_with(able[0], seat=able[1])
    react = next(n for n in nodes if n.kind == DECIDE and n.reacting)
    for node in (bosk, turn, react):
        assert _nodes.node_from_json(node.to_json()).to_json() == node.to_json()


def test_a_corrupted_pickled_state_is_a_state_error():
    """Unpickling a state whose saved text was corrupted (its attributes' pickle garbled,
    cut short, or holding no node) raises StateError, as deserialize_state does with the
    same text; pickle's UnpicklingError, OpenSpiel's SpielError and an AttributeError
    escaped."""
    game = fos.load_game("bosk", num_players=2)
    state = _played(game, 2)
    text = state.serialize()
    attributes = text[text.index("__dict__=") :]
    nothing = "__dict__=" + base64.b64encode(pickle.dumps({"_node": 5})).decode()
    for new in ("__dict__=AAAA", attributes[:-20], nothing):
        with pytest.raises(fg.StateError):
            game.deserialize_state(text.replace(attributes, new))
        with pytest.raises(
            fg.StateError, match="not a state saved by 'forestgames_bosk\\(players=2"
        ):
            _unpickled_with(state, attributes, new)


GAME_UNPICKLE = """
import pickle, sys

import pyspiel

game = pickle.loads(open(sys.argv[1], "rb").read())
again = pyspiel.load_game(str(game))
state = game.new_initial_state()
state.apply_action(2)
_, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
print(again.num_players(), loaded.history())
"""


def test_a_game_unpickled_in_a_fresh_process_is_registered(tmp_path):
    """A pickled game loads where the games were never registered (a spawned worker, Ray)
    and registers them, as a pickled state does: pyspiel.load_game(str(game)) and
    deserialize_game_and_state of its states raised SpielError "Unknown game" there."""
    game = fos.load_game("boom_bokken", num_players=5)
    assert unpickled_elsewhere(game, GAME_UNPICKLE, tmp_path) == "5 [2]"


def test_pyspiel_load_game_refuses_a_wrong_type_and_a_bad_value_as_the_docs_say():
    """Through pyspiel.load_game a parameter of the wrong type is OpenSpiel's SpielError
    (raised before the game is built) and a bad value of the right type is fg.ConfigError
    (docs/openspiel.md)."""
    fos.register()
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter players"):
        pyspiel.load_game("forestgames_bosk(players=x)")
    with pytest.raises(fg.ConfigError, match="Bosk is played by 2 to 4 players, not 9"):
        pyspiel.load_game("forestgames_bosk(players=9)")
