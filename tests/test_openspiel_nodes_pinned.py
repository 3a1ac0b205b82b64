"""Behaviours of forestgames.rl.openspiel._nodes (the OpenSpiel game tree, without OpenSpiel)
that a mutation audit found unpinned: the turn lines of the views and str(state), the chance
outcomes' words, the tensor's flags, copying and pickling, resampling the root, saved nodes
whose seat or queue does not fit."""

from __future__ import annotations

import copy
import json
import pickle
import re

import pytest

import forestgames as fg
from forestgames.rl.openspiel import _nodes
from forestgames.rl.openspiel._nodes import DEAL, DECIDE, FIRST, ORDER, OVER, Node
from tests.test_openspiel import _table, _tensor, walk


def _first_line(node: Node, player: int = 0) -> str:
    return node.view(player, False).split("\n")[0]


def test_the_turn_line_of_each_kind_of_node_is_the_documented_one():
    """docs/openspiel.md: a view's first line says whose turn it is: "chance: ..." at a
    chance node ("chance: deal (setup)" during the setup deal, naming its occasion),
    "seat S to play", "seat S to react or pass" on a reaction turn, "game over" at the end;
    in Boom Bokken (no private moves) the same line for every seat, in both kinds of view."""
    table = _table("boom_bokken", num_players=4)
    lines: dict[str, set[str]] = {}
    for i, node in enumerate(walk(table.initial, 3)):
        line = _first_line(node)
        for player in range(4) if node.kind != DEAL or i % 20 == 0 else ():
            assert _first_line(node, player) == line
            assert node.view(player, True).split("\n")[0] == line
        if node.kind == FIRST:
            assert line == "chance: the first player"
        elif node.kind == DEAL:
            assert line == f"chance: deal ({node.deal.kind})"
        elif node.kind == ORDER:
            assert line.startswith("chance: ") and line != "chance: the first player"
        elif node.kind == DECIDE:
            verb = "react or pass" if node.reacting else "play"
            assert line == f"seat {node.seat} to {verb}"
        else:
            assert line == "game over"
        lines.setdefault(str(node.kind) + str(node.reacting), set()).add(line)
    assert _first_line(table.initial.apply(1)) == "chance: deal (setup)"
    assert len(lines) == 6  # every kind met, decisions on a reaction turn and not


def test_chance_outcomes_read_as_the_documented_words():
    """docs/openspiel.md: a chance outcome's string says which it is: "first player 1",
    "reaction turn 4", and at a deal "deal <the slot being dealt>: <the item>" (its
    example "deal hands/2/3: F5"), the slot's path joined by "/" and the item the card
    named by the outcome id (its index in the game's item list)."""
    table = _table("boom_bokken", num_players=4)
    kinds = set()
    for node in walk(table.initial, 3):
        if not node.is_chance:
            continue
        kinds.add(node.kind)
        for action in node.legal_actions():
            text = node.action_string(-1, action)
            if node.kind == FIRST:
                assert text == f"first player {action}"
            elif node.kind == ORDER:
                assert text == f"reaction turn {action}"
            else:
                (path,) = node.deal.next_slot()
                slot = "/".join(str(part) for part in path)
                item = json.loads(table.alphabet[action])
                assert text == f"deal {slot}: {item}"
                assert re.fullmatch(r"deal [a-z_]+(/\d+)+: \S+", text)
    assert kinds == {FIRST, DEAL, ORDER}


def test_nodes_and_tables_copy_as_themselves_and_a_table_pickles_as_its_game():
    """Nodes are immutable and a table is what every node of a game shares: copy.copy and
    copy.deepcopy of a node, and copy.deepcopy of a table, give the very object back; a
    pickled table loads as the table of the same game, options and utility, whose root
    saves the same JSON."""
    table = _table("bonsai", "score", num_players=3, goal_setup="published")
    node = table.initial.apply(2)
    assert copy.copy(node) is node and copy.deepcopy(node) is node
    assert copy.deepcopy(table) is table
    assert copy.deepcopy([node, table])[1] is table
    loaded = pickle.loads(pickle.dumps(table))
    assert isinstance(loaded, _nodes.Table)
    assert (loaded.name, loaded.options, loaded.utility) == ("bonsai", table.options, "score")
    assert loaded.options["goal_setup"] == "published" and loaded.num_players == 3
    assert loaded.initial.to_json() == table.initial.to_json()


def test_a_saved_node_whose_queue_repeats_a_seat_or_holds_the_deciding_one_is_refused():
    """Reaction seats are queued once each and never the seat deciding now: a saved
    reaction-turn node or next-reaction-turn node whose queue repeats a seat, or holds the
    reacting seat, raises StateError on loading; the node as saved loads."""
    table = _table("boom_bokken", num_players=5)
    order = next(n for n in walk(table.initial, 2) if n.kind == ORDER and len(n.queue) >= 3)
    react = order.apply(order.queue[0])
    assert react.kind == DECIDE and react.reacting and react.queue
    saved_order, saved_react = json.loads(order.to_json()), json.loads(react.to_json())
    a, b = order.queue[:2]
    tampered = [
        {**saved_order, "queue": [a, a, b]},  # a repeat, no deciding seat
        {**saved_react, "queue": [*saved_react["queue"], react.seat]},  # the deciding seat
        {**saved_react, "queue": [saved_react["queue"][0]] * 2},
    ]
    for data in tampered:
        with pytest.raises(fg.StateError, match="queue repeats a seat"):
            _nodes.node_from_json(json.dumps(data))
    for node in (order, react):
        assert _nodes.node_from_json(node.to_json()).to_json() == node.to_json()


@pytest.mark.parametrize("players", [1, 2])
def test_the_tensors_flags_and_turn_block_at_every_kind_of_node(players):
    """docs/openspiel.md: a tensor is the deciding seat one-hot (none at a chance node or
    the end), the flags (reaction turn, chance node, game over), then the observation
    (zeros before the first deal): the root is a chance node and no reaction turn, and a
    game without reactions never sets the reaction flag."""
    table = _table("bonsai", num_players=players)
    size = table.num_players
    nodes = [_nodes.Node(table, FIRST), table.initial, *walk(table.initial, 1)]
    for node in nodes:
        for player in range(size):
            tensor = _tensor(node, player)
            chance, over = node.kind in (FIRST, DEAL, ORDER), node.kind == OVER
            assert tensor[size : size + 3].tolist() == [0.0, float(chance), float(over)]
            if node.kind == DECIDE:
                assert tensor[(node.seat - player) % size] == 1.0
                assert tensor[:size].sum() == 1.0
            else:
                assert not tensor[:size].any()
            if node.state is None:
                assert not tensor[size + 3 :].any()
    assert nodes[-1].kind == OVER and nodes[0].kind == FIRST


def test_resampling_before_anything_is_dealt_gives_the_node_itself():
    """At the root (the first player not drawn, nothing dealt: no hidden part to draw
    afresh) resample gives the same node, for every seat and seed: same JSON, same views,
    same chance outcomes."""
    table = _table("boom_bokken", num_players=4)
    root = table.initial
    assert root.kind == FIRST and root.state is None
    for player in range(4):
        sample = root.resample(player, 7 * player)
        assert sample.to_json() == root.to_json() and sample.kind == FIRST
        assert sample.view(player, True) == root.view(player, True)
        assert sample.chance_outcomes() == root.chance_outcomes()


def test_a_saved_decision_of_no_seat_is_refused_even_on_a_reaction_turn():
    """A decision belongs to a seat (0..players-1): a saved decision node whose seat is -1
    (the value of nodes no seat decides) raises StateError on loading, on a reaction turn
    too, where a seat may decide with no move of its own (PASS)."""
    table = _table("boom_bokken", num_players=4)
    react = next(n for n in walk(table.initial, 2) if n.kind == DECIDE and n.reacting)
    saved = json.loads(react.to_json())
    for reacting in (True, False):
        with pytest.raises(fg.StateError, match="seat -1 has no decision"):
            _nodes.node_from_json(json.dumps({**saved, "seat": -1, "reacting": reacting}))
    assert _nodes.node_from_json(react.to_json()).to_json() == react.to_json()


def test_a_saved_chance_node_with_one_seat_queued_or_a_seat_below_minus_one_is_refused():
    """A next-reaction-turn chance node draws among two seats or more (one seat left is
    offered its turn at once), and a saved seat is -1 (none) or a seat: one seat queued, or
    seat -2 at any chance node, raises StateError on loading."""
    table = _table("boom_bokken", num_players=5)
    nodes = list(walk(table.initial, 2))
    order = next(n for n in nodes if n.kind == ORDER)
    saved = json.loads(order.to_json())
    with pytest.raises(fg.StateError, match="at least two seats queued"):
        _nodes.node_from_json(json.dumps({**saved, "queue": saved["queue"][:1]}))
    for node in (order, table.initial, next(n for n in nodes if n.kind == DEAL)):
        with pytest.raises(fg.StateError, match="seat is not one of"):
            _nodes.node_from_json(json.dumps({**json.loads(node.to_json()), "seat": -2}))
        assert _nodes.node_from_json(node.to_json()).to_json() == node.to_json()


def test_a_nodes_text_names_whose_turn_the_last_public_event_and_the_picture():
    """str(state) (Node.describe): its first line is the turn line and the last entry of
    the public history ("start" before any); during a deal it also says how many of the
    deal's slots are placed; then the referee's picture, render()."""
    table = _table("bonsai", num_players=2)
    root = table.initial
    assert root.describe().split("\n")[0] == "chance: the first player (after: start)"
    deal = root.apply(1)
    assert deal.describe().split("\n")[0] == (
        f"chance: deal (setup), 0 of {len(deal.deal.slots)} placed (after: deal: setup)"
    )
    node = next(n for n in walk(root, 4) if n.kind == DECIDE and len(n.public) > 3)
    first, picture = node.describe().split("\n", 1)
    assert first == f"seat {node.seat} to play (after: {node.public[-1]})"
    assert picture == node.state.render()
