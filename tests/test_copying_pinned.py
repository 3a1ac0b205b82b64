"""Copies, pickles and sharing of the objects a user can reach: a copy plays on as the
original does, and nothing a copy or a call hands out changes the original."""

import copy
import itertools
import pickle
import random
import sys
import threading

import numpy as np
import pytest

import forestgames as fg
from tests.strategies import random_game
from tests.test_shared_tables import _problems

DUPLICATES = {
    "deepcopy": copy.deepcopy,
    "pickle 2": lambda value: pickle.loads(pickle.dumps(value, protocol=2)),
    "pickle 5": lambda value: pickle.loads(pickle.dumps(value, protocol=5)),
}


@pytest.mark.parametrize("duplicate", DUPLICATES.values(), ids=DUPLICATES.keys())
@pytest.mark.parametrize("players", [2, 4])
def test_a_copied_vector_bosk_plays_out_as_the_original(duplicate, players):
    """A VectorBosk deep-copied or pickled mid-run plays the same random playout from the
    same seed as the original (a copy's leaf costs were cut off from the copy of the
    array its leaf walks read, so its leaves went by the costs of the moment of copying)."""
    vec = fg.bosk.VectorBosk(num_players=players, batch=6, seed=5)
    rng = np.random.default_rng(1)
    for _ in range(30):
        vec.step(vec.random_actions(rng))
    twin = duplicate(vec)
    np.testing.assert_array_equal(twin.play_random(seed=9), vec.play_random(seed=9))
    np.testing.assert_array_equal(twin.scores, vec.scores)
    assert [twin.state(i) for i in range(6)] == [vec.state(i) for i in range(6)]


def test_the_vector_action_layout_and_its_copies_are_read_only():
    """vec.layout, shared by every VectorBosk of its board size, refuses attribute
    assignment and deletion (one `vec.layout.leaf = 0` changed every 2-player batch's
    action_id), and its copies and pickles are read-only layouts with the same ids."""
    layout = fg.bosk.VectorBosk(num_players=2, batch=1, seed=0).layout
    leaf = fg.bosk.PlaceLeaf(0, (1, 1))
    for twin in [
        layout,
        copy.copy(layout),
        *(duplicate(layout) for duplicate in DUPLICATES.values()),
    ]:
        with pytest.raises(AttributeError, match="read-only"):
            twin.leaf = twin.leaf
        with pytest.raises(AttributeError, match="read-only"):
            del twin.num_actions
        assert twin.action_id(leaf) == fg.make("bosk").action_id(leaf)
        assert twin.num_actions == fg.make("bosk").num_actions
    other = fg.bosk.VectorBosk(num_players=2, batch=1, seed=0)
    assert other.layout.action_id(leaf) == fg.make("bosk").action_id(leaf)


def test_a_records_dict_is_a_copy():
    """Changing what record.to_dict() returns (its options, nested lists included) leaves
    the record as it was: it handed out the record's own options dict, so a variant made
    from it changed the record's game and its replay failed."""
    terrain = np.arange(64).reshape(8, 8) % 8
    game = fg.make("bosk", num_players=2, terrain=terrain)
    record = fg.play(game, [fg.RandomAgent(1), fg.RandomAgent(2)], seed=4)
    saved = record.to_json()
    data = record.to_dict()
    data["options"]["num_players"] = 3
    data["options"]["terrain"][0][0] = 7
    data["moves"].clear()
    assert record.to_json() == saved
    assert record.replay()[-1] == fg.GameRecord.from_json(saved).replay()[-1]


def test_a_bonsai_trees_placement_option_is_read_only():
    """tree.wood_beside_pot of a tree a state holds cannot be set or deleted (a tree is
    shared by the states holding it, the seedling by every game of its option: setting it
    on one state's seedling let wood go beside the pot in every later game)."""
    game = fg.make("bonsai", num_players=2)
    states = [state for state, _ in itertools.islice(random_game(game, 3), 30)]
    trees = [states[-1].tree(0), states[-1].tree(1)]
    assert len(trees[0]) > 1  # grown in this game, so the shared seedling stays untouched
    for tree in trees:
        with pytest.raises(AttributeError):
            tree.wood_beside_pot = True
        with pytest.raises(AttributeError):
            del tree.wood_beside_pot
        assert tree.wood_beside_pot is False
    assert states[-1].legal_moves() == game.state_from_dict(states[-1].to_dict()).legal_moves()


def test_an_openspiel_nodes_lists_are_the_callers_own():
    """Changing the lists a node's legal_actions() and chance_outcomes() return (shuffling
    them, emptying them) changes neither the node nor the OpenSpiel states sharing it:
    they were the node's own cached lists, so a cleared list left a state with no chance
    outcomes and its clones too."""
    pyspiel = pytest.importorskip("pyspiel")
    from forestgames.rl import openspiel as fos

    fos.register()
    state = pyspiel.load_game("forestgames_boom_bokken(players=4)").new_initial_state()
    twin = state.clone()
    outcomes, actions = state.chance_outcomes(), state.legal_actions()
    state.node.chance_outcomes().clear()
    state.node.legal_actions().reverse()
    assert (twin.chance_outcomes(), twin.legal_actions()) == (outcomes, actions)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    actions, twin = state.legal_actions(), state.clone()
    state.node.legal_actions().append(10**6)
    assert twin.legal_actions() == state.legal_actions() == actions


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_the_codecs_legal_ids_are_the_callers_own(name):
    """game.codec.legal_ids(state, seat) is a new list each call: reordering or extending
    it leaves the state's ids, mask and moves as they were (it was the list in the
    state's memo, which masks, environments and OpenSpiel read a move's index from)."""
    game = fg.make(name)
    state = game.new_game(seed=2)
    seat = state.players_to_act[0]
    expected = [game.action_id(move) for move in state.legal_moves(seat)]
    ids = game.codec.legal_ids(state, seat)
    assert ids == expected
    ids.reverse()
    ids.append(game.num_actions)
    assert game.codec.legal_ids(state, seat) == expected
    assert np.flatnonzero(state.legal_action_mask(seat)).tolist() == sorted(expected)


def _openspiel_positions(game, seeds):
    """One OpenSpiel state of ``game`` per seed, a few random actions in, not at chance."""
    states = []
    for seed in seeds:
        rng, state = random.Random(seed), game.new_initial_state()
        for _ in range(12 + seed):
            actions = state.legal_actions()  # the chance outcomes' ids at a chance node
            state.apply_action(rng.choice(actions))
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        states.append(state)
    return states


def test_openspiel_tensors_of_one_game_in_two_threads_are_each_their_own():
    """Two threads reading observation and information state tensors of different states
    of one OpenSpiel game each get their own state's tensors (OpenSpiel fills every tensor
    of a game through one default observer, whose one buffer the threads wrote over each
    other's), and a copied or pickled observer still fills its tensor."""
    pyspiel = pytest.importorskip("pyspiel")
    from forestgames.rl import openspiel as fos

    fos.register()
    game = pyspiel.load_game("forestgames_bosk")
    states = _openspiel_positions(game, [1, 2])
    expected = [(s.observation_tensor(0), s.information_state_tensor(0)) for s in states]
    assert expected[0] != expected[1]
    wrong = [0, 0]

    def read(i):
        for _ in range(400):
            seen = (states[i].observation_tensor(0), states[i].information_state_tensor(0))
            wrong[i] += seen != expected[i]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=read, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert wrong == [0, 0]
    for duplicate in DUPLICATES.values():
        observer = duplicate(game.make_py_observer())
        observer.set_from(states[0], 0)
        assert observer.tensor.tolist() == expected[0][0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_pickled_vector_bosk_carries_its_games_not_the_board_tables(players):
    """A pickle of a one-game VectorBosk holds that game's arrays, not the board's lookup
    tables every batch of its size shares (257 KB with 2 players, 629 KB with 4; about
    4-9 KB now), and loads into a batch that plays on as the original."""
    vec = fg.bosk.VectorBosk(num_players=players, batch=1, seed=3)
    vec.step(vec.random_actions(np.random.default_rng(0)))
    data = pickle.dumps(vec)
    assert len(data) < 16_000
    twin = pickle.loads(data)
    np.testing.assert_array_equal(twin.play_random(seed=1), vec.play_random(seed=1))
    assert twin.state(0) == vec.state(0)


def test_the_living_forest_move_table_is_read_only():
    """fg.living_forest.rules.MOVE_TABLE (exported; the move objects every Living Forest
    game hands out) holds tuples and read-only mappings and refuses attribute assignment
    and deletion: it held lists and dicts, so one `MOVE_TABLE.stop[0] = ...` changed the
    legal moves of every game in the process."""
    table = fg.living_forest.rules.MOVE_TABLE
    names = [name for name in vars(table) if not name.startswith("_")]
    assert "stop" in names and "plant" in names
    assert _problems(table, "MOVE_TABLE", set()) == []
    with pytest.raises(AttributeError, match="read-only"):
        table.stop = table.stop
    with pytest.raises(AttributeError, match="read-only"):
        del table.plant


def test_a_bonsai_tree_hands_out_nothing_it_could_be_changed_through():
    """A seedling whose Place moves were asked for (the rules' cache of them filled: it
    was the public dict of lists tree.placing, and the seedling is shared by every game,
    so emptying seat 0's wood entry took wood placements out of every new game's first
    turn) hands out no list, dict or set of its own in a public attribute (tiles is a new
    dict on each read), and none can be set."""
    game = fg.make("bonsai", num_players=2)
    state = game.new_game(seed=1)
    moves = state.legal_moves()
    tree = state.tree(state.current_player)
    assert tree._placing  # the cache is filled, and private
    public = [name for name in dir(tree) if not name.startswith("_")]
    values = {name: getattr(tree, name) for name in public}
    shown = {name: value for name, value in values.items() if not callable(value)}
    assert "wood_beside_pot" in shown and "cells" in shown
    mutable = [name for name, value in shown.items() if _problems(value, name, set())]
    assert mutable == ["tiles"]
    assert tree.tiles is not shown["tiles"]
    for name in shown:
        with pytest.raises(AttributeError):
            setattr(tree, name, shown[name])
    assert fg.make("bonsai", num_players=2).new_game(seed=1).legal_moves() == moves
