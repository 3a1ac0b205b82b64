"""What games, their shared tables and agents share, pinned: an OpenSpiel game's table (one per
game and options, shared by every state, cached) and its deal rules are read-only, so no state
can change what every other state of the game is or loads as; an agent given to a driver
whose react is not a method is the library's ConfigError naming it."""

from __future__ import annotations

import copy
import json
import pickle
import threading
import time
from typing import Any

import pytest

import forestgames as fg
from forestgames.rl.openspiel import _nodes


def _table(name: str, **options: Any) -> Any:
    """The shared table of game ``name`` with ``options`` (as an OpenSpiel game gets it)."""
    return _nodes.table_for(name, _nodes._dump(fg.make(name, **options).options()), "win")


def _state_after(table_game: str, **options: object) -> Any:
    pytest.importorskip("pyspiel")
    from forestgames.rl import openspiel as fos

    game = fos.load_game(table_game, **options)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state


def test_an_openspiel_tables_options_and_attributes_are_read_only():
    """A state's table (shared by the game's every state) refuses changes to its attributes,
    options and item ids, so a pickled state still loads as the game it was saved from."""
    state = _state_after("bosk")
    table = state.node.table
    saved = pickle.dumps(state)
    with pytest.raises(TypeError):
        table.options["num_players"] = 3
    with pytest.raises(AttributeError, match="read-only"):
        table.options = {"num_players": 3}
    with pytest.raises(AttributeError, match="read-only"):
        table.num_players = 3
    with pytest.raises(AttributeError, match="read-only"):
        del table.utility
    with pytest.raises(TypeError):
        _table("bonsai").item_ids["x"] = 0
    assert copy.copy(table) is table and pickle.loads(pickle.dumps(table)) is table
    loaded = pickle.loads(saved)
    assert loaded.node.table is table and loaded.node.table.options["num_players"] == 2
    assert loaded.node.to_json() == state.node.to_json()


def test_an_option_list_is_read_only_and_still_saved_as_a_json_list():
    """A list option (Living Forest's fire_tiles) is a tuple in the read-only options; a
    saved node still writes it as a JSON list and loads back as the same game."""
    table = _table("living_forest", fire_tiles=[20, 19, 18])
    assert table.options["fire_tiles"] == (20, 19, 18)
    node = table.initial.apply(0)
    assert json.loads(node.to_json())["options"]["fire_tiles"] == [20, 19, 18]
    assert _nodes.node_from_json(node.to_json()).to_json() == node.to_json()


def test_an_openspiel_games_deal_rules_are_read_only_and_copy_as_themselves():
    """A table's deal rules (shared by the game's states) refuse changes, hold no list or set
    a caller could change, and copy or pickle as read-only rules of the same game."""
    table = _table("bonsai", num_players=3, goal_setup="published")
    rules = table.rules
    with pytest.raises(AttributeError, match="read-only"):
        rules.published = False
    assert isinstance(rules.cards, tuple) and isinstance(rules.colours, tuple)
    assert isinstance(_table("boom_bokken").rules._items, frozenset)
    for other in (copy.copy(rules), copy.deepcopy(rules), pickle.loads(pickle.dumps(rules))):
        assert other.alphabet() == rules.alphabet()
        with pytest.raises(AttributeError, match="read-only"):
            other.cards = ()


class _BadReact:
    """An agent whose react is not a method."""

    name = "bee"
    react = 5

    def choose(self, state: Any) -> Any:
        return state.legal_moves()[0]


class _MakesBadReact(fg.RandomAgent):
    """An agent whose for_game gives one whose react is not a method."""

    def for_game(self, seed: int) -> Any:
        return _BadReact()


def test_an_agent_whose_react_is_not_a_method_is_a_config_error_naming_it():
    """fg.play, fg.simulate and rl.gym_env refuse an agent whose react is not callable (or one
    its for_game makes) with a ConfigError naming the agent, not Python's TypeError later."""
    for agent in (_BadReact(), _MakesBadReact(seed=1)):
        with pytest.raises(fg.ConfigError, match="agent 'bee': react is 5, not a method"):
            fg.play("boom_bokken", [agent, "random"], seed=1)
    with pytest.raises(fg.ConfigError, match="agent 'bee': react is 5"):
        fg.simulate("bosk", [_BadReact()], 1, seed=1, progress=False)
    pytest.importorskip("gymnasium")
    from forestgames.rl import gym_env

    with pytest.raises(fg.ConfigError, match="agent 'bee': react is 5"):
        gym_env("boom_bokken", opponents=[_BadReact(), "random", "random"])


def test_a_copy_of_an_mcts_agent_is_searching_in_no_thread():
    """copy.copy, copy.deepcopy and pickle of an MCTSAgent, made before or while it searches
    in another thread, give agents that search at once in this thread (they took over the
    search's claim, and refused every search as "searching in another thread")."""
    state = fg.make("bosk").new_game(seed=2)
    agent = fg.MCTSAgent(time_per_move=0.3, seed=1)
    shallow = copy.copy(agent)
    search = threading.Thread(target=agent.choose, args=(state,))
    search.start()
    while not agent._searching and search.is_alive():
        time.sleep(0.001)
    assert agent._searching, "the search ended before its claim was seen"
    copies = [shallow, copy.deepcopy(agent), pickle.loads(pickle.dumps(agent))]
    for other in copies:
        other.time_per_move, other.iterations = None, 5
        assert other.choose(state) in state.legal_moves()
    search.join()


def test_an_openspiel_tables_root_node_is_read_only():
    """A table's root node (every game of the table starts from it) refuses changes, still
    fills its caches, and copies and saves as before; the nodes after it are plain nodes."""
    table = _table("boom_bokken")
    root = table.initial
    with pytest.raises(AttributeError, match="root node is read-only"):
        root.kind = _nodes.OVER
    with pytest.raises(AttributeError, match="root node is read-only"):
        root._legal = ()
    assert root.legal_actions() == [0, 1, 2, 3] and len(root.chance_outcomes()) == 4
    assert root.kind == _nodes.FIRST and copy.deepcopy(root) is root
    assert _nodes.node_from_json(root.to_json()).to_json() == root.to_json()
    assert type(root.apply(1)) is _nodes.Node


def _next_decision(state: Any) -> Any:
    """``state`` played on through forced moves until a seat has a choice of moves."""
    while len(state.legal_moves()) == 1:
        state = state.apply(state.legal_moves()[0])
    return state


def test_an_mcts_tree_grown_for_one_seat_is_not_reused_for_another_seats_hidden_cards():
    """One MCTSAgent choosing in turn for two seats of a hidden-card game (Boom Bokken)
    searches the second seat's decision from a new tree, not the first seat's (sampled with
    its own hand); with perfect information (Bosk) the kept subtree still carries over."""
    agent = fg.MCTSAgent(30, seed=1)
    state = _next_decision(fg.make("boom_bokken", num_players=4).new_game(seed=4))
    seat = state.players_to_act[0]
    state = _next_decision(state.apply(agent.choose(state)))
    assert state.players_to_act[0] != seat and agent._kept is not None
    assert agent._root_for(state).visits == 0  # a new tree
    bosk = _next_decision(fg.make("bosk").new_game(seed=1))
    bosk = _next_decision(bosk.apply(agent.choose(bosk)))
    assert bosk.players_to_act[0] == 1 and agent._root_for(bosk).visits > 0
