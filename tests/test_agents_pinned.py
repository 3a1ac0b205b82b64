"""Behaviours of forestgames.agents (the spec parser, MCTS, Greedy) and the games' heuristics
that a mutation audit found unpinned."""

from __future__ import annotations

import itertools

import pytest

import forestgames as fg
from forestgames.agents import evaluate_moves, make_agent
from forestgames.agents.greedy import margins
from forestgames.agents.mcts import MCTSAgent, _find, _Node, default_iterations
from tests.strategies import random_game
from tests.test_agents import _positions
from tests.test_fake_game import Add, BuzzGame


def _depths_are_distances(root: _Node) -> bool:
    """Whether every node below ``root`` has its distance from it as ``depth`` (an outcome
    node below a chance move: the move's depth)."""
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.children.values():
            if child.depth != node.depth + 1:
                return False
            stack.append(child)
            for outcome in (child.outcomes or {}).values():
                if outcome.depth != child.depth:
                    return False
                stack.append(outcome)
    return True


def test_spec_reuse_takes_1_and_0() -> None:
    """A spec's ``reuse`` is 1 (keep the tree, the default, so the name is plain ``mcts``)
    or 0 (docs/simulation.md)."""
    kept = make_agent("mcts:reuse=1", seed=1)
    assert kept.reuse_tree is True and kept.name == "mcts"
    fresh = make_agent("mcts:reuse=0", seed=1)
    assert fresh.reuse_tree is False and fresh.name == "mcts:reuse=0"


def test_a_kept_subtree_is_renumbered_from_its_new_root() -> None:
    """A subtree kept for the next decision counts its depths from its new root (the first
    two levels below it are expanded in Greedy's order, docs/simulation.md): the kept node
    two moves down becomes depth 0, its children 1 and so on."""
    state = _positions(fg.make("bosk"))[1]
    agent = MCTSAgent(300, seed=5)
    move = agent.choose(state)
    after = state.apply(move)
    node = agent._kept[1]
    reply = max(node.children, key=lambda m: node.children[m].visits)
    root = agent._root_for(after.apply(reply))
    assert root is node.children[reply]
    assert any(child.children for child in root.children.values())  # two levels kept
    assert root.depth == 0 and _depths_are_distances(root)


def test_mcts_defaults_are_the_documented_ones() -> None:
    """MCTS's defaults (docs/simulation.md): 400 iterations a decision in a game without a
    ``search_iterations``, playouts of 12 random moves, c = 0.7, z = 1, the tree kept; a
    spec giving the default limit is named without it."""
    agent = MCTSAgent(seed=1)
    assert (agent.iterations, agent.rollout_limit, agent.exploration) == (None, 12, 0.7)
    assert (agent.confidence, agent.reuse_tree, agent.name) == (1.0, True, "mcts")
    assert default_iterations(object()) == 400
    assert make_agent("mcts:7:12", seed=1).name == "mcts:7"
    assert make_agent("mcts:7:11", seed=1).name == "mcts:7:11"


def test_mcts_first_iteration_expands_greedys_move_with_four_virtual_visits() -> None:
    """At the root untried moves are expanded in Greedy's order, each starting with 4 virtual
    visits at the reward Greedy's estimate gives (docs/simulation.md): after one iteration
    scored at once (rollout_limit=0) the root's only child is Greedy's move, with 4 + 1
    visits, each worth that reward."""
    state = next(itertools.islice(random_game(fg.make("bosk"), 0), 3, None))[0]  # spring
    seat = state.current_player
    moves = state.legal_moves()
    gains = margins(evaluate_moves(state, moves), seat)
    assert (gains == gains.max()).sum() == 1  # Greedy's move is unique here
    agent = MCTSAgent(1, seed=2, rollout_limit=0)
    root = agent._root_for(state)
    agent.search(state, seat, root)
    ((move, child),) = root.children.items()
    assert move == moves[int(gains.argmax())]
    assert child.visits == 5 and child.reward == pytest.approx(5 * root.prior[move][seat])


def test_mcts_orders_by_greedy_on_the_first_two_levels_only() -> None:
    """Only the first two levels of the tree (the root and its children) expand their moves
    in Greedy's order with virtual visits (docs/simulation.md); deeper nodes at random."""
    state = _positions(fg.make("bosk"))[1]
    agent = MCTSAgent(300, seed=5)
    root = agent._root_for(state)
    agent.search(state, state.current_player, root)
    depths_with_priors, depths_without = set(), set()
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children.values())
        if node.children:
            (depths_with_priors if node.prior else depths_without).add(node.depth)
    assert depths_with_priors == {0, 1} and 2 in depths_without


def test_a_kept_tree_is_searched_past_a_move_that_ended_the_game() -> None:
    """Finding the position reached in the kept tree goes on past a tree move that ended the
    game: in Buzz to 2, the most visited first move (add 2) ends it, and the position after
    add 1 is still found at its node."""
    start = BuzzGame(2, target=2).new_game(seed=0, first_player=0)
    root = _Node(1, 0)
    root.children = {Add(0, 2): _Node(0, 1), Add(0, 1): _Node(0, 1)}
    root.children[Add(0, 2)].visits, root.children[Add(0, 1)].visits = 10, 5
    assert start.apply(Add(0, 2)).is_terminal
    assert _find(start, root, start.apply(Add(0, 1))) is root.children[Add(0, 1)]
