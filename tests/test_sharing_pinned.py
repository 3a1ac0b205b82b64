"""What games, their shared tables and agents share, pinned: an OpenSpiel game's table (one per
game and options, shared by every state, cached) and its deal rules are read-only, so no state
can change what every other state of the game is or loads as."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from tests.test_openspiel import _table

pyspiel = pytest.importorskip("pyspiel")


def _state_after(table_game: str, **options: object) -> object:
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
    table = state.node.table  # type: ignore[attr-defined]
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
        _table("bonsai").item_ids["x"] = 0  # type: ignore[index]
    assert copy.copy(table) is table and pickle.loads(pickle.dumps(table)) is table
    loaded = pickle.loads(saved)
    assert loaded.node.table is table and loaded.node.table.options["num_players"] == 2
    assert loaded.node.to_json() == state.node.to_json()  # type: ignore[attr-defined]


def test_an_option_list_is_read_only_and_still_saved_as_a_json_list():
    """A list option (Living Forest's fire_tiles) is a tuple in the read-only options; a
    saved node still writes it as a JSON list and loads back as the same game."""
    table = _table("living_forest", fire_tiles=[20, 19, 18])
    assert table.options["fire_tiles"] == (20, 19, 18)
    node = table.initial.apply(0)
    assert json.loads(node.to_json())["options"]["fire_tiles"] == [20, 19, 18]
    from forestgames.rl.openspiel import _nodes

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
