"""The agents: legal, seeded and reproducible on every game; Greedy's heuristic; MCTS's search."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import forestgames as fg
from forestgames.agents import (
    AGENT_KINDS,
    GreedyAgent,
    MCTSAgent,
    RandomAgent,
    agent_for_game,
    evaluate_moves,
    heuristic_for,
    heuristics,
    make_agent,
    register_heuristic,
)
from forestgames.agents.greedy import margins
from forestgames.agents.heuristics import _HEURISTICS, scores_after
from tests.strategies import random_game, reachable_states
from tests.test_fake_game import Add, Buzz, BuzzGame

GAMES = [
    fg.make(name, num_players=p)
    for name in fg.GAME_NAMES
    for p in sorted({fg.make(name).traits.min_players, fg.make(name).traits.max_players})
]
CHEAP_AGENTS = [RandomAgent(1), GreedyAgent(2), MCTSAgent(8, seed=3)]


def _state_before_last_decision(game, seed):
    """The state of random game ``seed`` before its last move."""
    pairs = list(random_game(game, seed))
    return pairs[-2][0]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g.name}{g.num_players}")
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_every_agent_chooses_a_legal_move(game, data):
    """On any reachable live state of any game, each agent returns a legal move of the actor."""
    state = data.draw(reachable_states(game))
    if state.is_terminal:
        return
    for agent in CHEAP_AGENTS:
        move = agent.choose(state)
        assert move in state.legal_moves(state.players_to_act[0])


def test_agents_reproducible_from_their_seed():
    """Two agents built with the same seed play the same moves; another seed plays others."""
    game = fg.make("bosk")
    states = [s for s, _ in random_game(game, 4)][:60]

    def picks(agent):
        return [agent.choose(s) for s in states if not s.is_terminal]

    assert picks(RandomAgent(5)) == picks(RandomAgent(5))
    assert picks(RandomAgent(5)) != picks(RandomAgent(6))
    assert picks(GreedyAgent(5)) == picks(GreedyAgent(5))


def test_agents_never_touch_the_global_rngs():
    """Agents neither read nor advance Python's or numpy's global random state."""
    game = fg.make("bosk")
    state = game.new_game(seed=2)
    random.seed(1)
    np.random.seed(1)
    before = (random.getstate(), np.random.get_state()[1].tolist())
    first = [
        agent.choose(state) for agent in (RandomAgent(9), GreedyAgent(9), MCTSAgent(5, seed=9))
    ]
    random.seed(12345)
    np.random.seed(12345)
    second = [
        agent.choose(state) for agent in (RandomAgent(9), GreedyAgent(9), MCTSAgent(5, seed=9))
    ]
    assert first == second
    random.seed(1)
    np.random.seed(1)
    [agent.choose(state) for agent in (RandomAgent(9), GreedyAgent(9), MCTSAgent(5, seed=9))]
    assert (random.getstate(), np.random.get_state()[1].tolist()) == before


def test_for_game_gives_fresh_agents_per_game_seed():
    """agent_for_game rebuilds the agent with a stream fixed by its seed and the game's seed."""
    state = fg.make("bosk").new_game(seed=0)
    base = RandomAgent(3)
    base.choose(state)  # advancing the base agent must not matter
    a, b = agent_for_game(base, 77), agent_for_game(RandomAgent(3), 77)
    assert [a.choose(state) for _ in range(5)] == [b.choose(state) for _ in range(5)]
    assert agent_for_game(MCTSAgent(7, seed=1), 5).settings() == MCTSAgent(7, seed=1).settings()


def test_agent_for_game_deep_copies_foreign_agents():
    """An agent without for_game is deep-copied, so state it keeps cannot leak between games."""

    class Counting:
        name = "counting"

        def __init__(self):
            self.calls = 0

        def choose(self, state):
            self.calls += 1
            return state.legal_moves()[0]

    original = Counting()
    copy = agent_for_game(original, 1)
    copy.choose(fg.make("bosk").new_game(seed=0))
    assert copy is not original and original.calls == 0 and copy.calls == 1


def test_make_agent_specs():
    """Specs name the shipped agents; bad specs raise ConfigError naming the spec."""
    assert AGENT_KINDS == ("random", "greedy", "mcts")
    assert isinstance(make_agent("random", 1), RandomAgent)
    assert isinstance(make_agent("Greedy", 1), GreedyAgent)
    assert make_agent("mcts:25", 1).iterations == 25
    assert make_agent("mcts", 1).name == "mcts:200"
    limited = make_agent("mcts:30:40", 1)
    assert (limited.iterations, limited.rollout_limit, limited.name) == (30, 40, "mcts:30:40")
    agent = RandomAgent(1)
    assert make_agent(agent) is agent
    for bad in ("mcts:0", "mcts:x", "mcts:5:0", "mcts:1:2:3", "greedy:3", "alphazero", ""):
        with pytest.raises(fg.ConfigError, match=r"agent|mcts"):
            make_agent(bad)
    with pytest.raises(fg.ConfigError, match="not an agent"):
        make_agent(42)
    with pytest.raises(fg.ConfigError, match="iterations"):
        MCTSAgent(0)
    with pytest.raises(fg.ConfigError, match="rollout_limit"):
        MCTSAgent(5, rollout_limit=0)


def test_random_agent_reacts_or_passes():
    """Out of turn, Random sometimes moves and sometimes passes (both legal)."""
    state = BuzzGame(2).new_game(seed=0, first_player=0)
    agent = RandomAgent(0)
    answers = {agent.react(state, 1) for _ in range(40)}
    assert answers == {None, Buzz(1)}


# --------------------------------------------------------------------------- Greedy's heuristic


@pytest.mark.parametrize("players", [2, 4])
def test_bosk_heuristic_batched_equals_one_by_one(players):
    """Bosk's batched estimates equal the kernels run on each successor board alone
    (summer in spring; summer points plus winter-as-if-now in autumn)."""
    game = fg.make("bosk", num_players=players)
    checked = set()
    for state, _ in random_game(game, players):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        values = evaluate_moves(state, moves)
        for move, row in zip(moves, values, strict=True):
            after = state.apply(move)
            if isinstance(move, fg.bosk.PlantTree):
                expected = fg.bosk.summer_scores(after.tree_owner, after.tree_value, players)
            elif isinstance(move, fg.bosk.PlaceLeaf | fg.bosk.PlaceSquirrel):
                winter = fg.bosk.winter_scores(after.top, game.terrain, players)
                expected = np.asarray(after.summer) + winter
            else:
                assert len(set(map(tuple, values))) == 1, "board-neutral moves must tie"
                continue
            np.testing.assert_array_equal(row, expected)
            checked.add(type(move).__name__)
    assert {"PlantTree", "PlaceLeaf"} <= checked


def test_greedy_plays_a_best_margin_move():
    """Greedy's move has the largest own-minus-best-other estimate among the legal moves."""
    game = fg.make("bosk", num_players=3)
    agent = GreedyAgent(0)
    for state, _ in list(random_game(game, 8))[:150]:
        if state.is_terminal:
            break
        seat = state.players_to_act[0]
        moves = state.legal_moves(seat)
        gains = margins(evaluate_moves(state, moves), seat)
        assert gains[moves.index(agent.choose(state))] == gains.max()


def test_margins_golden():
    """margins: own estimate minus the best other seat's, per candidate."""
    values = np.array([[5.0, 3.0, 4.0], [1.0, 0.0, 9.0]])
    np.testing.assert_array_equal(margins(values, 0), [1.0, -8.0])
    np.testing.assert_array_equal(margins(values, 2), [-1.0, 8.0])


def test_greedy_first_tree_scores_six():
    """On the empty 2-player board any first tree is alone in its row and column: 3 + 3 summer
    points, a margin of 6 for every move, so Greedy's pick is a random (seeded) one."""
    state = fg.make("bosk").new_game(seed=0, first_player=0)
    values = evaluate_moves(state, state.legal_moves())
    assert (values[:, 0] == 6).all() and (values[:, 1] == 0).all()
    assert len({GreedyAgent(s).choose(state) for s in range(10)}) > 1


def test_heuristic_registry_and_fallback():
    """Unregistered games fall back to applying each move and reading scores; registering works."""
    state = BuzzGame(2).new_game(seed=0, first_player=0)
    assert heuristic_for("buzz") is scores_after
    np.testing.assert_array_equal(evaluate_moves(state, (Add(0, 1), Add(0, 2))), [[1, 0], [2, 0]])
    assert GreedyAgent(0).choose(state) == Add(0, 2)
    register_heuristic("buzz", lambda s, moves: np.zeros((len(moves), 3)))
    try:
        with pytest.raises(ValueError, match="shape"):
            evaluate_moves(state, (Add(0, 1),))
    finally:
        _HEURISTICS.pop("buzz")


def test_greedy_and_mcts_find_the_only_winning_last_move():
    """Bosk 2p game seed 15: before the last move the mover has 9 leaf squares and exactly one
    wins (found by applying each); Greedy (exact winter-as-if-now) and MCTS both take it."""
    game = fg.make("bosk")
    state = _state_before_last_decision(game, 15)
    seat = state.current_player
    moves = state.legal_moves()
    winning = [m for m in moves if seat in state.apply(m).winners]
    assert len(moves) == 9 and len(winning) == 1
    assert GreedyAgent(1).choose(state) == winning[0]
    assert MCTSAgent(30, seed=1).choose(state) == winning[0]


def test_mcts_cut_rollouts_reward_the_leaders_on_points():
    """A rollout cut by rollout_limit rewards the seats leading on state.scores, shared on a tie;
    a rollout that reaches the end rewards the winners."""
    game = BuzzGame(2)
    # Seat 1 has buzzed (3 points) and seat 0 cannot react: one step adds 1 or 2 for seat 0.
    state = game.new_game(seed=0, first_player=0).apply(Buzz(1))
    assert state.players_to_act == (0,)
    assert MCTSAgent(1, seed=0, rollout_limit=1)._rollout(state) == [0.0, 1.0]

    class Tied:
        """A live state whose only move leads to a 2-2-0 tie."""

        game = BuzzGame(3)
        is_terminal = False
        players_to_act = (0,)
        scores = (2, 2, 0)

        def legal_moves(self, seat):
            return (Add(0, 1),)

        def apply(self, move):
            return self

    assert MCTSAgent(1, seed=0, rollout_limit=1)._rollout(Tied()) == [0.5, 0.5, 0.0]
    ended = BuzzGame(2, target=2).new_game(seed=0, first_player=0).apply(Add(0, 2))
    assert MCTSAgent(1, seed=0, rollout_limit=1)._rollout(ended) == [1.0, 0.0]


def test_mcts_plays_forced_moves_without_search():
    """With a single legal move MCTS returns it without determinizing anything."""

    class Watched:
        def __init__(self, state):
            self.state = state

        def __getattr__(self, name):
            if name == "determinize":
                raise AssertionError("searched a forced move")
            return getattr(self.state, name)

    game = fg.make("bosk")
    for state, _ in random_game(game, 2):
        if not state.is_terminal and len(state.legal_moves()) == 1:
            assert MCTSAgent(5, seed=0).choose(Watched(state)) == state.legal_moves()[0]
            break
    else:  # pragma: no cover - seed 2 has forced moves
        pytest.fail("no forced move found")


def test_mcts_samples_determinizations_of_the_acting_seat():
    """Each MCTS iteration searches a determinization for the acting seat with a fresh seed."""
    calls = []

    class Spy:
        def __init__(self, state):
            self.state = state

        def __getattr__(self, name):
            return getattr(self.state, name)

        def determinize(self, player, seed):
            calls.append((player, seed))
            return self.state

    state = BuzzGame(2).new_game(seed=0, first_player=1)
    MCTSAgent(12, seed=4).choose(Spy(state))
    assert len(calls) == 12 and {p for p, _ in calls} == {1} and len({s for _, s in calls}) == 12


def test_greedy_reacts_only_when_it_gains():
    """Out of turn, Greedy plays a reaction only when it beats passing on its estimate."""
    game = fg.make("boom_bokken", num_players=4)
    rng = random.Random(3)
    reacted = passed = 0
    for seed in range(30):
        state = game.new_game(seed=seed)
        agent = fg.GreedyAgent(seed)
        while not state.is_terminal and reacted + passed < 400:
            for seat in state.players_to_act[1:]:
                move = agent.react(state, seat)
                if move is None:
                    passed += 1
                    continue
                reacted += 1
                assert move in state.legal_moves(seat)
                values = heuristics.position_value(state.apply(move))
                before = heuristics.position_value(state)
                gain = values[seat] - np.delete(values, seat).max()
                assert gain > before[seat] - np.delete(before, seat).max()
            state = state.apply(rng.choice(state.legal_moves(state.players_to_act[0])))
    assert reacted and passed
