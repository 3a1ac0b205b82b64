"""Behaviours of forestgames.agents (the spec parser, MCTS, Greedy) and the games' heuristics
that a mutation audit found unpinned."""

from __future__ import annotations

import itertools
import math
from typing import Any

import attrs
import numpy as np
import pytest

import forestgames as fg
from forestgames.agents import evaluate_moves, make_agent
from forestgames.agents.greedy import margins
from forestgames.agents.heuristics import position_value
from forestgames.agents.mcts import (
    REUSE_SEARCH,
    MCTSAgent,
    _find,
    _Node,
    cutoff_rewards,
    default_iterations,
)
from tests.strategies import final_state, random_game
from tests.test_agents import _decision_and_reply, _guardian_position, _positions
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
    _, agent, reached, kept = _decision_and_reply()
    root = agent._root_for(reached)
    assert root is kept
    assert any(child.children for child in root.children.values())  # two levels kept
    assert root.depth == 0 and _depths_are_distances(root)


def test_boom_bokken_position_value_is_points_less_half_a_point_a_card() -> None:
    """Boom Bokken's position value is each seat's coins and Bokken tokens less 0.5 point per
    card in hand (docs/simulation.md, "Game heuristics"), in every position of a game; e.g.
    scores (8, 6, 0, 0) with hands of 1, 7, 3 and 2 cards are worth 7.5, 2.5, -1.5, -1."""
    game = fg.make("boom_bokken", num_players=4)
    seen = False
    for state, _ in random_game(game, 1):
        expected = [s - 0.5 * n for s, n in zip(state.scores, state.hand_sizes, strict=True)]
        assert position_value(state).tolist() == expected
        if state.scores == (8, 6, 0, 0) and state.hand_sizes == (1, 7, 3, 2):
            assert position_value(state).tolist() == [7.5, 2.5, -1.5, -1.0]
            seen = True
    assert seen


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
    state = _spring_position()
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


def test_living_forest_progress_is_convex_as_documented() -> None:
    """Living Forest values a goal's count x as x + x**2/12 (docs/simulation.md, "Game
    heuristics"): 0, 1 + 1/12, 6 + 3 = 9 and 12 + 12 = 24."""
    from forestgames.living_forest import heuristic

    assert [heuristic._progress(x) for x in (0, 1, 6, 12)] == [0.0, 1 + 1 / 12, 9.0, 24.0]


def test_living_forest_values_a_reveal_as_the_average_over_the_cards_it_may_draw() -> None:
    """A reveal is valued as the average, card by card, over what the seat may turn up
    (docs/simulation.md): its deck's cards when the top is unknown, the known top card when
    Attract put it there, the discard pile when the deck is empty; other seats unchanged."""
    from forestgames.living_forest import heuristic

    state = _guardian_position()
    reveal = next(m for m in state.legal_moves() if type(m).__name__ == "Reveal")
    line = state.lines[0]
    deck = state.decks[0]
    assert state.known[0] == 0 and not state.discards[0] and len(set(deck)) > 1
    pile = tuple(sorted(deck[:3]))
    cases = (
        (state, deck),
        (attrs.evolve(state, known=(1, *state.known[1:])), deck[:1]),
        (
            attrs.evolve(state, decks=((), *state.decks[1:]), discards=(pile, *state.discards[1:])),
            pile,
        ),
    )
    for position, cards in cases:
        values = evaluate_moves(position, [reveal])[0]
        mean = sum(heuristic.seat_value(position, 0, line + (c,)) for c in cards) / len(cards)
        assert values[0] == pytest.approx(mean)
        assert values[1] == heuristic.seat_value(position, 1)


def test_mcts_defers_to_greedy_when_the_search_is_exactly_z_errors_better() -> None:
    """The most visited move overrules Greedy's only when its mean reward is *more* than z
    standard errors better (docs/simulation.md): means 1 (12 visits) and 0 (6 visits) have
    variances bounded at 0.01/12 and 0.01/6, a standard error of sqrt(0.0025) = 0.05, so a gap
    of 1 is exactly 20 errors: z = 20 keeps Greedy's move, z = 19.9 plays the other."""
    state = _guardian_position()
    moves = state.legal_moves()
    greedy = moves[int(np.argmax(margins(evaluate_moves(state, moves), 0)))]
    other = next(m for m in moves if m != greedy)
    root = _Node(0, 0)
    root.children = {other: _Node(0, 1), greedy: _Node(0, 1)}
    root.children[other].visits, root.children[other].reward = 12, 12.0
    root.children[greedy].visits, root.children[greedy].reward = 6, 0.0
    assert MCTSAgent(confidence=20)._decision(root, state, 0, moves) == greedy
    assert MCTSAgent(confidence=19.9)._decision(root, state, 0, moves) == other


def test_specs_with_nothing_after_the_colon_or_a_word_for_l_are_refused() -> None:
    """``random:``, ``greedy:`` and ``mcts:`` are ConfigErrors saying nothing follows the
    colon; a positional L is digits only (``none`` is written ``l=none``, docs/simulation.md)."""
    for spec in ("random:", "greedy:", "mcts:"):
        with pytest.raises(fg.ConfigError, match=r"nothing after the colon"):
            make_agent(spec)
    for spec in ("mcts:5:none", "mcts:none", "mcts:5:x"):
        with pytest.raises(fg.ConfigError, match=r"expected mcts, mcts:N, mcts:N:L"):
            make_agent(spec)
    assert make_agent("mcts:5:l=none").rollout_limit is None


def test_mcts_walks_down_by_ucb1_with_exploration_added() -> None:
    """The tree is walked by UCB1, mean + c * sqrt(ln(available) / visits) (docs/simulation.md):
    with c = 0.7 a child of mean 0.5 tried twice (0.5 + 0.7 * 1.63 = 1.64) beats one of mean
    0.6 tried 100 times (0.6 + 0.7 * 0.23 = 0.76), both available 200 times; with c = 0 the
    better mean wins."""
    a, b = _Node(0, 1), _Node(0, 1)
    a.visits, a.reward, a.available = 100, 60.0, 200
    b.visits, b.reward, b.available = 2, 1.0, 200
    assert MCTSAgent(exploration=0.7)._select([a, None, b]) == 2
    assert MCTSAgent(exploration=0)._select([a, None, b]) == 0


def test_a_kept_tree_skips_its_moves_not_legal_in_the_real_position() -> None:
    """Finding the position reached in the kept tree skips tree moves that are not legal in
    the real position (a sample's move) and goes on with the others: the most visited tree
    move here is another seat's, and the position after add 1 is still found."""
    start = BuzzGame(2, target=5).new_game(seed=0, first_player=0)
    root = _Node(1, 0)
    root.children = {Add(1, 2): _Node(0, 1), Add(0, 1): _Node(0, 1)}
    root.children[Add(1, 2)].visits, root.children[Add(0, 1)].visits = 10, 5
    assert Add(1, 2) not in start.legal_moves(0)
    assert _find(start, root, start.apply(Add(0, 1))) is root.children[Add(0, 1)]


def test_mcts_backs_up_each_winners_share_of_a_shared_win() -> None:
    """docs/simulation.md: a playout that ends the game backs up each seat's share of the
    win. A random 4-player Boom Bokken game (seed 1723) ends won by seats 0, 2 and 3
    together: a third each, 0 for seat 1."""
    from forestgames.agents.mcts import _win_shares

    state = final_state(fg.make("boom_bokken"), 1723)
    assert state.winners == (0, 2, 3)
    assert _win_shares(state) == [1 / 3, 0.0, 1 / 3, 1 / 3]


def test_living_forest_values_onibis_threat_per_fire_when_water_is_short() -> None:
    """docs/simulation.md: a Spirit whose water is short of the fires in the centre is
    charged Onibi's threat, a Fire Varan (half a point, VARAN_THREAT) per fire. A new game's
    Spirit has no water and no card that could put a fire out: one fire costs 0.5 and three
    fires 1.5 against an empty centre, all else equal. Water of at least the fires' sum
    (2 + 3 = 5) is not short: no threat; 4 is: two Varans, 1.0."""
    from forestgames.living_forest import heuristic

    state = fg.make("living_forest").new_game(seed=1, first_player=0)
    calm = heuristic.seat_value(attrs.evolve(state, centre=()), 0)
    assert heuristic.seat_value(attrs.evolve(state, centre=(2,)), 0) == calm - 0.5
    assert heuristic.seat_value(attrs.evolve(state, centre=(2, 3, 4)), 0) == calm - 1.5
    two_fires = attrs.evolve(state, centre=(2, 3))
    water = heuristic.WATER
    for amount, threat in ((6, 0.0), (5, 0.0), (4, 1.0)):
        totals = tuple(amount if k == water else 0 for k in range(5))
        assert heuristic._onibi_threat(two_fires, totals) == threat


@pytest.mark.parametrize(("kind", "gain"), [(0, 3.0), (1, 2 + 8 / 12), (2, 2 + 8 / 12)])
def test_living_forest_victory_tiles_count_toward_their_goal(kind: int, gain: float) -> None:
    """A Victory tile counts toward its goal as what it stands for (docs/simulation.md:
    progress toward each goal, x + x**2/12). A new game's Spirit has one tree, one tile of
    each kind, no fire held, no flower bonus and nothing to spend: two more tree tiles take
    trees from 2 to 4, (4 + 16/12) - (2 + 4/12) = 3; two more fire or flower tiles take
    that count from 1 to 3, (3 + 9/12) - (1 + 1/12) = 2 + 8/12."""
    from forestgames.living_forest import heuristic

    state = fg.make("living_forest").new_game(seed=1, first_player=0)
    assert state.victory[0] == (1, 1, 1)
    tiles = [1, 1, 1]
    tiles[kind] = 3
    more = attrs.evolve(state, victory=(tuple(tiles), state.victory[1]))
    gained = heuristic.seat_value(more, 0) - heuristic.seat_value(state, 0)
    assert gained == pytest.approx(gain, abs=1e-9)


def test_living_forest_card_values_favour_gregarious_symbols() -> None:
    """docs/simulation.md: every card owned counts by its elements, gregarious symbols up,
    solitary ones and Fire Varans down. A Fire Varan (one solitary symbol, no element) is
    worth less than nothing; each card is its weighted elements plus (gregarious) or less
    (solitary) one symbol's weight."""
    from forestgames.living_forest import heuristic
    from forestgames.living_forest._tables import CARD_ELEMENTS, CARD_SYMBOL, VARAN

    assert heuristic.CARD_VALUE[VARAN] == -heuristic.SYMBOL_WEIGHT < 0
    for card, value in enumerate(heuristic.CARD_VALUE):
        weighed = sum(
            w * x for w, x in zip(heuristic.ELEMENT_WEIGHTS, CARD_ELEMENTS[card], strict=True)
        )
        symbol = {-1: 1, 0: 0, 1: -1}[CARD_SYMBOL[card]]  # gregarious -1, solitary 1
        assert value == pytest.approx(weighed + symbol * heuristic.SYMBOL_WEIGHT)


def test_living_forest_counts_the_actions_each_spirit_has_still_to_come() -> None:
    """docs/simulation.md: this turn's potential counts one best gain per action still to
    come. A seeded 3-Spirit game in its Action phase, turn order 2, 0, 1, seat 2 acting with
    one of its 2 actions taken: seat 2 has 1 left, seats 0 and 1 still 2. With seat 0
    acting instead (same one action taken), seat 2 has 0, seat 0 1, seat 1 2. Three
    solitary symbols in the Help Line (cards 0, 1, 2) leave one action a turn (seat 1: 1;
    seat 0, acting with one taken: 0); in the Guardian phase every Spirit has its whole
    turn to come."""
    from forestgames.living_forest import heuristic
    from forestgames.living_forest.state import Phase

    game = fg.make("living_forest", num_players=3)
    state = next(s for s, _ in random_game(game, 2) if s.phase is Phase.ACTIONS and s.actions)
    assert (state.turn_order, state.current_player, len(state.actions)) == ((2, 0, 1), 2, 1)
    left = heuristic._actions_left
    assert [left(state, seat, ()) for seat in range(3)] == [2, 2, 1]
    later = attrs.evolve(state, seat_index=1)
    assert [left(later, seat, ()) for seat in range(3)] == [1, 2, 0]
    solitary = (0, 1, 2)
    assert left(later, 1, solitary) == 1 and left(later, 0, solitary) == 0
    guardians = attrs.evolve(later, phase=Phase.GUARDIANS)
    assert [left(guardians, seat, ()) for seat in range(3)] == [2, 2, 2]
    assert left(guardians, 2, solitary) == 1


def _spring_position() -> Any:
    """A 2-player Bosk spring position with 184 legal plantings: random game 0's fourth."""
    return next(itertools.islice(random_game(fg.make("bosk"), 0), 3, None))[0]


def test_mcts_scores_a_new_node_near_the_root_by_its_playout() -> None:
    """With playouts (here played to the end) a node expanded near the root is valued by its
    playout, not by Greedy's estimate, which only gives its 4 virtual visits
    (docs/simulation.md): after one iteration the root's one visit is the playout's win share
    for the mover (0, 1/2 or 1 of two seats) and the child holds 4 * estimate + that share."""
    state = _spring_position()
    seat = state.current_player
    agent = MCTSAgent(1, seed=1, rollout_limit=None)
    root = agent._root_for(state)
    agent.search(state, seat, root)
    ((move, child),) = root.children.items()
    assert root.visits == 1 and root.reward in (0.0, 0.5, 1.0)
    assert root.prior[move][seat] not in (0.0, 0.5, 1.0)  # the estimate is no win share
    assert child.visits == 5
    assert child.reward == pytest.approx(4 * root.prior[move][seat] + root.reward)


def test_mcts_playouts_pick_any_seat_that_may_act() -> None:
    """In a playout every seat that may act is picked at random (docs/simulation.md: out-of-turn
    moves are explored in playouts): in three-seat Buzz to 1 with seat 0 to add, a playout
    ends with seat 0's lone win when seat 0 acts first, a buzzer's (+3) when seat 1 or 2
    buzzes before seat 0 adds, and a tie of the two buzzers (half each) when both do (the
    second buzz picked among two seats left to act). Over 12 seeded playouts all three happen."""
    start = BuzzGame(3, target=1).new_game(seed=0, first_player=0)
    assert start.players_to_act == (0, 1, 2)
    rewards = [MCTSAgent(seed=s, rollout_limit=None)._rollout(start) for s in range(12)]
    assert [1.0, 0.0, 0.0] in rewards
    assert [0.0, 1.0, 0.0] in rewards or [0.0, 0.0, 1.0] in rewards
    assert [0.0, 0.5, 0.5] in rewards


def test_mcts_widens_a_node_by_one_child_per_step_of_its_width() -> None:
    """Progressive widening (docs/simulation.md): a node visited n times has at most
    1 + 2*sqrt(n) children. Each of 100 iterations decides at the root at visits 0..99, so
    the root of a wide Bosk position (184 moves) ends with 1 + floor(2*sqrt(99)) = 20
    children, and no node has more than 1 + 2*sqrt(visits - 1)."""
    state = _spring_position()
    assert len(state.legal_moves()) == 184
    agent = MCTSAgent(100, seed=3)
    root = agent._root_for(state)
    agent.search(state, state.current_player, root)
    assert root.visits == 100 and len(root.children) == 20
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children.values())
        assert not node.children or len(node.children) <= 1 + 2 * math.sqrt(node.visits - 1)


def test_mcts_without_playouts_scores_a_deep_leaf_by_its_position_value() -> None:
    """With rollout_limit=0 the new leaf is scored at once (docs/simulation.md), also below
    the two levels that have Greedy's estimates: every leaf at depth 3 or more of a
    200-iteration Bosk search was visited once, and its reward is cutoff_rewards of its own
    position's value (centred and scaled as at the root), for the seat that moved there."""
    state = _spring_position()
    agent = MCTSAgent(200, seed=3, rollout_limit=0)
    root = agent._root_for(state)
    agent.search(state, state.current_player, root)
    stack, leaves = [(root, state)], []
    while stack:
        node, position = stack.pop()
        stack.extend((child, position.apply(move)) for move, child in node.children.items())
        if node.depth >= 3 and not node.children:
            leaves.append((node, position))
    assert leaves
    for leaf, position in leaves:
        reward = cutoff_rewards(position_value(position), agent._centre, agent._scale)
        assert leaf.visits == 1 and leaf.reward == pytest.approx(reward[leaf.seat])


def test_mcts_draws_a_fresh_determinization_each_iteration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each iteration samples the hidden information afresh (docs/simulation.md:
    ``state.determinize(seat, seed)`` from a seed of the agent's generator): 150 iterations
    from a new Bonsai game see 150 different samples of the tiles still to come."""
    state = fg.make("bonsai").new_game(seed=1)
    samples = []
    determinize = type(state).determinize

    def recording(self: Any, seat: int, seed: int) -> Any:
        sample = determinize(self, seat, seed)
        samples.append(sample)
        return sample

    monkeypatch.setattr(type(state), "determinize", recording)
    agent = MCTSAgent(150, seed=1, rollout_limit=0)
    agent.search(state, state.current_player, agent._root_for(state))
    assert len(samples) == 150 and len(set(samples)) == 150


def test_mcts_tree_holds_only_the_main_lines_moves() -> None:
    """Seats act in the tree as in the driver's main line, the first of players_to_act;
    out-of-turn moves are explored in playouts only (docs/simulation.md): a 30-iteration
    search in three-seat Buzz to 4, where seats 1 and 2 may buzz out of turn, grows a tree
    of Add moves only, the root's both of seat 0."""
    start = BuzzGame(3, target=4).new_game(seed=0, first_player=0)
    assert start.players_to_act == (0, 1, 2)
    agent = MCTSAgent(30, seed=1, rollout_limit=None)
    root = agent._root_for(start)
    agent.search(start, 0, root)
    assert set(root.children) == {Add(0, 1), Add(0, 2)}
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children.values())
        assert all(isinstance(move, Add) for move in node.children)


def test_mcts_counts_a_childs_availability_from_its_creation() -> None:
    """UCB1 weighs a move by how often it was available (docs/simulation.md): without hidden
    information a child is available at every visit of its node from the one that made it
    on. With widening the root's child k is made at iteration max(ceil(k*k/4), one after the
    last child's), 0, 1, 2, 3, 4, 7, 9, 13, ...: after 100 iterations it was available
    100 minus that often."""
    state = _spring_position()
    agent = MCTSAgent(100, seed=3)
    root = agent._root_for(state)
    agent.search(state, state.current_player, root)
    made = [0]
    while len(made) < 20:
        k = len(made)
        made.append(max(-(-k * k // 4), made[-1] + 1))
    assert made[:8] == [0, 1, 2, 3, 4, 7, 9, 13]
    assert [child.available for child in root.children.values()] == [100 - v for v in made]


def test_mcts_playout_of_one_move_scores_the_position_a_random_move_on() -> None:
    """With rollout_limit=1 a node expanded near the root is scored one random move past it
    (docs/simulation.md: playouts cut after L moves), not by Greedy's estimate: after one
    iteration the root's reward is the cutoff reward of a position one legal move past the
    new node's, and over three seeds it is not always the estimate."""
    state = _spring_position()
    seat = state.current_player
    rewards, estimates = [], []
    for seed in range(3):
        agent = MCTSAgent(1, seed=seed, rollout_limit=1)
        root = agent._root_for(state)
        agent.search(state, seat, root)
        ((move, _),) = root.children.items()
        after = state.apply(move)
        one_on = [
            cutoff_rewards(position_value(after.apply(m)), agent._centre, agent._scale)[seat]
            for m in after.legal_moves()
        ]
        assert any(root.reward == pytest.approx(r) for r in one_on)
        rewards.append(root.reward)
        estimates.append(root.prior[move][seat])
    assert rewards != pytest.approx(estimates)


def test_a_kept_tree_is_searched_through_at_most_64_tree_moves() -> None:
    """Finding the position reached in a kept tree tries at most REUSE_SEARCH = 64 tree moves,
    most visited first, and still compares every position they reached: at a Bosk root with
    70 children (visits 100, 99, ...), the positions after the 1st and the 64th are found and
    the one after the 65th is not. (The search once tried a 65th move and then stopped before
    comparing any position, so a kept node with over 64 children was never reused.)"""
    start = fg.make("bosk", num_players=2).new_game(seed=0, first_player=0)
    moves = start.legal_moves()[:70]
    root = _Node(1, 0)
    root.children = {move: _Node(0, 1) for move in moves}
    for rank, move in enumerate(moves):
        root.children[move].visits = 100 - rank
    assert REUSE_SEARCH == 64
    for rank in (0, 63):
        assert _find(start, root, start.apply(moves[rank])) is root.children[moves[rank]]
    assert _find(start, root, start.apply(moves[64])) is None
