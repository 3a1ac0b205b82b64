"""VectorBosk against the scalar engine: every step, every seat count and option.

Set FORESTGAMES_LONG=1 for a longer differential run (more games per seat count).
"""

from __future__ import annotations

import json
import os
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import forestgames as fg
from forestgames.bosk._pystreams import PythonStreams
from forestgames.bosk.vector import ActionLayout, VectorBosk
from forestgames.cli import main
from forestgames.core import ConfigError, IllegalMoveError, derive_seed

LONG = bool(os.environ.get("FORESTGAMES_LONG"))
GAMES = 24 if LONG else 3

OPTIONS = [
    (2, {}),
    (3, {}),
    (4, {}),
    (2, {"squirrel_exactly_three": True, "ties_include_start": False}),
    (3, {"squirrel_exactly_three": True}),
    (4, {"squirrel_passes_squirrels": False}),
    (3, {"squirrel_passes_squirrels": False, "squirrel_exactly_three": True}),
    (
        4,
        {"ties_include_start": False, "terrain": np.random.default_rng(4).integers(0, 8, (12, 12))},
    ),
]


def legal_ids(layout: ActionLayout, state) -> list[int]:
    """The ids of a scalar state's legal moves, sorted."""
    return sorted(layout.action_id(move) for move in state.legal_moves())


def snapshot(vec: VectorBosk) -> list[dict]:
    """Every game's saved form (to compare whole batches)."""
    return [vec.state(i).to_dict() for i in range(vec.batch)]


@pytest.mark.parametrize(("players", "options"), OPTIONS)
def test_vector_games_follow_the_scalar_engine(players, options):
    """Random games in lockstep: after every step each game's state(i) equals the scalar
    state after the same moves, and its mask row holds exactly that state's legal ids."""
    seed = 11 + players
    vec = VectorBosk(players, GAMES, seed, **options)
    states = [vec.game.new_game(seed=derive_seed(seed, i)) for i in range(GAMES)]
    rng = random.Random(seed)
    steps = 0
    while not all(s.is_terminal for s in states):
        mask = vec.legal_action_mask()
        actions = np.zeros(GAMES, dtype=np.int64)
        for i, state in enumerate(states):
            assert vec.state(i) == state
            assert int(vec.current_player[i]) == (
                -1 if state.current_player is None else state.current_player
            )
            assert np.flatnonzero(mask[i]).tolist() == legal_ids(vec.layout, state)
            if not state.is_terminal:
                move = rng.choice(state.legal_moves())
                actions[i] = vec.layout.action_id(move)
                states[i] = state.apply(move)
        vec.step(actions)
        steps += 1
        if steps % 50 == 0:  # a batch rebuilt from states goes on identically
            vec = VectorBosk.from_states([vec.state(i) for i in range(GAMES)])
    for i, state in enumerate(states):
        assert vec.state(i) == state
        assert tuple(vec.scores[i]) == state.scores
        assert (int(vec.winners[i]),) == state.winners
    assert vec.terminated.all() and not vec.legal_action_mask().any()


def test_new_batch_starts_like_new_games():
    """Game i of VectorBosk(p, batch, seed) is game.new_game(seed=derive_seed(seed, i))."""
    vec = VectorBosk(3, 20, seed=123)
    game = fg.make("bosk", num_players=3)
    for i in range(20):
        assert vec.state(i) == game.new_game(seed=derive_seed(123, i))
    vec.reset(7)
    assert vec.state(5) == game.new_game(seed=derive_seed(7, 5))


def test_illegal_id_names_the_game_and_changes_nothing():
    """An illegal id raises IllegalMoveError naming the game; no game of the batch moves."""
    vec = VectorBosk(2, 5, seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        vec.step(vec.random_actions(rng))
    before = snapshot(vec)
    actions = vec.random_actions(rng)
    mask = vec.legal_action_mask()
    bad = int(np.flatnonzero(mask[3] == 0)[0])
    actions[3] = bad
    with pytest.raises(IllegalMoveError, match=rf"game 3: action {bad} "):
        vec.step(actions)
    assert snapshot(vec) == before
    actions[3] = vec.num_actions + 5
    with pytest.raises(IllegalMoveError, match=r"game 3: .*not an id"):
        vec.step(actions)
    for wrong in (actions[:4], actions.astype(float), "north", [[1, 2]]):
        with pytest.raises(IllegalMoveError, match="one per game"):
            vec.step(wrong)
    assert snapshot(vec) == before


def test_bad_construction_is_a_config_error():
    """Bad player counts, batch sizes, options and game indices raise ConfigError."""
    for players, batch, message in (
        (5, 2, "Bosk is played by 2 to 4 players, not 5"),
        (2, 0, r"batch must be in 1\.\.1048576, not 0"),
        (2, 1.5, r"batch must be an int, not 1\.5"),
        (True, 2, "num_players must be an int, not True"),
    ):
        with pytest.raises(ConfigError, match=message):
            VectorBosk(players, batch, seed=0)
    with pytest.raises(ConfigError, match="unknown"):
        VectorBosk(2, 2, seed=0, wind="N")
    vec = VectorBosk(2, 2, seed=0)
    for index in (2, -1, "0", 1.0):
        with pytest.raises(ConfigError, match="game index"):
            vec.state(index)
    with pytest.raises(ConfigError, match="same game"):
        VectorBosk.from_states([vec.state(0), fg.make("bosk", num_players=3).new_game(seed=1)])


def test_batches_beyond_memory_are_config_errors(monkeypatch):
    """A batch above MAX_BATCH is refused at once, and running out of memory while
    building a batch is a ConfigError, not MemoryError."""
    from forestgames.bosk import vector

    for batch in (vector.MAX_BATCH + 1, 2**40):
        with pytest.raises(ConfigError, match=r"batch must be in 1\.\.1048576"):
            VectorBosk(2, batch, seed=0)

    def no_memory(self):
        raise MemoryError

    monkeypatch.setattr(VectorBosk, "_setup", no_memory)
    with pytest.raises(ConfigError, match="not enough memory for so many games"):
        VectorBosk(2, 1000, seed=0)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_random_playouts_end_in_reachable_finished_games(players, batch, seed):
    """Batched random playouts end every game; each final state(i) is a valid saved state
    (state_from_dict checks the rules' invariants) whose scores and winner the arrays show,
    and the move count is the game's length."""
    vec = VectorBosk(players, batch, seed)
    moves = vec.play_random(seed=seed)
    assert vec.terminated.all()
    assert (vec.current_player == -1).all()
    for i in range(batch):
        state = vec.state(i)
        assert state.is_terminal
        assert tuple(vec.scores[i]) == state.scores
        assert (int(vec.winners[i]),) == state.winners
    assert (moves >= 8 * players + 1 + 2 * 8 * players).all()


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(1, 12), st.integers(0, 2**32 - 1), st.data())
def test_lockstep_random_steps_are_legal_and_round_trip(players, batch, seed, data):
    """Random legal ids stepped in lockstep never raise; at any point the batch rebuilt with
    from_states equals it, and its masks mark exactly one seat's moves per live game."""
    vec = VectorBosk(players, batch, seed)
    rng = np.random.default_rng(seed)
    for _ in range(data.draw(st.integers(0, 300))):
        vec.step(vec.random_actions(rng))
    again = VectorBosk.from_states([vec.state(i) for i in range(batch)])
    assert snapshot(again) == snapshot(vec)
    np.testing.assert_array_equal(again.legal_action_mask(), vec.legal_action_mask())
    mask = vec.legal_action_mask()
    assert (mask.any(axis=1) == ~vec.terminated).all()
    picked = vec.random_actions(rng)
    live = ~vec.terminated
    assert mask[np.arange(batch), picked][live].all()


def test_greedy_playouts_match_scalar_greedy_choices():
    """A greedy playout picks, in every game and step, one of the moves the scalar greedy
    agent considers best (same estimates, ties broken at random)."""
    from forestgames.agents.greedy import margins
    from forestgames.agents.heuristics import evaluate_moves

    vec = VectorBosk(3, 4, seed=5)
    rng = np.random.default_rng(1)
    while not vec.terminated.all():
        actions = vec.greedy_actions(rng)
        for i in range(vec.batch):
            if vec.terminated[i]:
                continue
            state = vec.state(i)
            moves = state.legal_moves()
            gain = margins(evaluate_moves(state, moves), state.current_player)
            best = {vec.layout.action_id(m) for m, g in zip(moves, gain, strict=True)
                    if g == gain.max()}  # fmt: skip
            assert int(actions[i]) in best
        vec.step(actions)


# ---------------------------------------------------------------------- from vector_sim


@pytest.mark.parametrize(
    ("players", "agents", "rotate", "options"),
    [
        (2, ["random"], False, {}),
        (3, ["random", "greedy"], True, {"squirrel_exactly_three": True}),
        (4, ["greedy", "random", "random"], True, {"ties_include_start": False}),
    ],
)
def test_vector_rows_equal_the_scalar_rows(players, agents, rotate, options):
    """engine="vector" replays the scalar agents' games move for move: every row (seed,
    first player, lineup, scores, winner, length, run digest) is the scalar row."""
    game = fg.make("bosk", num_players=players, **options)
    kwargs = {"seed": 4, "rotate": rotate, "progress": False}
    scalar = fg.simulate(game, agents, 5, **kwargs)
    vector = fg.simulate(game, agents, 5, engine="vector", **kwargs)
    assert vector.rows == scalar.rows


def test_vector_rows_with_seeded_agent_objects():
    """Agent objects with their own seeds draw the same streams on both engines."""
    game = fg.make("bosk", num_players=2)
    agents = [fg.agents.RandomAgent(seed=9), fg.agents.GreedyAgent(seed=3)]
    scalar = fg.simulate(game, agents, 4, seed=2, progress=False)
    assert fg.simulate(game, agents, 4, seed=2, progress=False, engine="vector").rows == scalar.rows


@pytest.mark.parametrize(
    ("game", "agents", "extra", "message"),
    [
        ("bonsai", ["random"], {}, "plays Bosk between random and greedy agents only"),
        ("bosk", ["mcts:10"], {}, "plays Bosk between random and greedy agents only"),
        ("bosk", ["random"], {"resume": True, "out": "x.jsonl"}, "runs do not resume"),
        ("bosk", ["random"], {"engine": "gpu"}, 'engine must be "scalar" or "vector"'),
        # workers is ignored, but checked as on the scalar engine
        ("bosk", ["random"], {"workers": 0}, r"workers must be in 1\.\.4096, not 0"),
        ("bosk", ["random"], {"backend": "bad"}, 'backend must be "local" or "ray"'),
    ],
)
def test_vector_engine_refuses_what_it_cannot_play(game, agents, extra, message):
    """Other games, other agents, resuming, or an unknown engine: ConfigError."""
    extra = {"engine": "vector", **extra}
    with pytest.raises(ConfigError, match=message):
        fg.simulate(fg.make(game), agents, 2, seed=0, progress=False, **extra)


def test_command_line_vector_engine(tmp_path, capsys):
    """forestgames simulate bosk --engine vector prints the summary and writes the rows."""
    out = tmp_path / "rows.jsonl"
    code = main(["simulate", "bosk", "-p", "4", "-n", "8", "--engine", "vector",
                 "--agents", "greedy,random", "--out", str(out), "--no-progress"])  # fmt: skip
    assert code == 0
    assert "8 games" in capsys.readouterr().out
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["index"] for r in rows] == list(range(8))


# ---------------------------------------------------------------------- from pystreams


@settings(max_examples=10, deadline=None)
@given(
    st.lists(st.integers(0, 2**64), min_size=1, max_size=6),
    st.integers(0, 2**32 - 1),
    st.sampled_from([2, 3, 9, 130, 1000]),
)
def test_randbelow_draws_what_random_randrange_draws(seeds, order_seed, largest):
    """Streams seeded like random.Random(seed) give randrange(n)'s numbers, draw for draw,
    whatever subset of streams draws each time, past several regenerations of the state."""
    ours = PythonStreams(seeds)
    theirs = [random.Random(seed) for seed in seeds]
    rng = np.random.default_rng(order_seed)
    for _ in range(700):
        streams = np.flatnonzero(rng.random(len(seeds)) < 0.8)
        n = rng.integers(1, largest, len(streams))
        expected = [theirs[s].randrange(int(k)) for s, k in zip(streams, n, strict=True)]
        assert ours.randbelow(streams, n).tolist() == expected


def test_words_are_the_mersenne_twister_outputs():
    """words() returns random.Random.getrandbits(32), 32-bit word by word."""
    ours = PythonStreams([7, 2**40 + 3])
    theirs = [random.Random(7), random.Random(2**40 + 3)]
    for _ in range(1300):
        assert ours.words(np.array([0, 1])).tolist() == [r.getrandbits(32) for r in theirs]


def test_bad_batch_inputs_are_the_librarys_errors():
    """from_states of non-states, a non-Generator rng, and uint64 ids past int64 are refused
    with ConfigError / IllegalMoveError (not AttributeError or a silently wrapped id)."""
    for junk in ([1, 2], [None], "abc", None, [fg.make("bonsai").new_game(seed=1)]):
        with pytest.raises(ConfigError, match="from_states"):
            VectorBosk.from_states(junk)
    vec = VectorBosk(2, 3, seed=0)
    for rng in (None, 1, "x"):
        with pytest.raises(ConfigError, match="Generator"):
            vec.random_actions(rng)
        with pytest.raises(ConfigError, match="Generator"):
            vec.greedy_actions(rng)
    before = vec.legal_action_mask()
    with pytest.raises(IllegalMoveError, match="18446744073709551615 is not an id"):
        vec.step(np.full(3, 2**64 - 1, dtype=np.uint64))
    assert (vec.legal_action_mask() == before).all()
    assert VectorBosk(2, 2, seed=0, first_game=np.int64(3)).seed == 0
    with pytest.raises(ConfigError, match="first_game"):
        VectorBosk(2, 2, seed=0, first_game=-1)


def test_minus_one_is_never_an_id():
    """-1 pads the rows of legal ids; step() took it for one of them (it planted a tree of
    value 0, or raised IndexError in a leaf step, after earlier games had moved). Now it
    is refused in every step, and no game of the batch moves."""
    vec = VectorBosk(2, 6, seed=5)
    rng = np.random.default_rng(1)
    phases_seen = set()
    while not vec.terminated.all():
        before = snapshot(vec)
        for game in range(vec.batch):
            if vec.terminated[game]:
                continue
            actions = vec.random_actions(rng)
            actions[game] = -1
            with pytest.raises(IllegalMoveError, match=rf"game {game}: action -1 "):
                vec.step(actions)
            assert snapshot(vec) == before
        phases_seen |= set(vec._phase[~vec.terminated].tolist())
        vec.step(vec.random_actions(rng))
    assert len(phases_seen) == 6  # spring, wind, tree, tile, leaves, squirrel


def test_finished_games_ignore_even_ids_past_int64():
    """A finished game ignores its id, a uint64 past int64's range too."""
    vec = VectorBosk(2, 2, seed=0)
    vec.play_random(1)
    before = snapshot(vec)
    vec.step(np.array([2**64 - 1, 2**63], dtype=np.uint64))
    assert snapshot(vec) == before


def test_layout_ids_are_the_games_and_odd_moves_are_illegal():
    """ActionLayout.action_id agrees with game.action_id over a random game, and refuses
    what game.action_id refuses: a tree of value 5 was the first wind id, one off the
    board wrapped onto another point, and a bad direction raised ValueError."""
    from forestgames.bosk.moves import ChooseTile, ChooseWind, PlaceLeaf, PlantTree

    game = fg.make("bosk", num_players=2)
    layout = VectorBosk(2, 1, seed=0).layout
    state = game.new_game(seed=3)
    rng = random.Random(0)
    while not state.is_terminal:
        for move in state.legal_moves():
            assert layout.action_id(move) == game.action_id(move)
        state = state.apply(rng.choice(state.legal_moves()))
    odd = [
        PlantTree(0, 5, (0, 0)),
        PlantTree(0, 0, (0, 0)),
        PlantTree(0, 1, (0, 9)),
        PlantTree(0, 1, (0, -1)),
        PlantTree(0, 1, ("a", 0)),
        PlantTree(0, 1, (0,)),
        ChooseWind(0, "X"),
        ChooseTile(0, 9),
        PlaceLeaf(0, (8, 0)),
        "PlantTree",
    ]
    for move in odd:
        with pytest.raises(IllegalMoveError, match="not a Bosk move on a 8x8 board"):
            layout.action_id(move)
    assert "not an id" in layout.describe("x")


def test_layout_refuses_moves_of_seats_not_in_the_game():
    """ActionLayout.action_id refuses a move whose seat is not one of the game's, as
    game.action_id does (it gave seat 2 of a 2-player game, None or "x" an id)."""
    from forestgames.bosk.moves import PlaceLeaf, PlantTree

    for players in (2, 3, 4):
        game = fg.make("bosk", num_players=players)
        layout = VectorBosk(players, 1, seed=0).layout
        for seat in (players, -1, None, "x", True, 1.0):
            for move in (PlantTree(seat, 1, (0, 0)), PlaceLeaf(seat, (0, 0))):
                with pytest.raises(IllegalMoveError, match="player"):
                    game.action_id(move)
                with pytest.raises(IllegalMoveError, match="player"):
                    layout.action_id(move)
        assert layout.action_id(PlantTree(np.int64(players - 1), 2, (0, 1))) == game.action_id(
            PlantTree(players - 1, 2, (0, 1))
        )


def test_policies_and_streams_are_what_the_docs_say():
    """Policies are "random"/"greedy", bools or 0/1 (floats were taken for 1 and 0), and
    streams are int seeds (None drew an unrepeatable seed from the OS)."""
    vec = VectorBosk(2, 3, seed=0)
    for policies in (np.ones((3, 2)), [1.0, 0.0], ["random", None], ["greedy", 2]):
        with pytest.raises(ConfigError, match="policies are 'random' or 'greedy'"):
            vec.play(policies)
    with pytest.raises(ConfigError, match="stream's seed must be an int"):
        vec.play("random", streams=[[None, None]] * 3)
    assert snapshot(vec) == snapshot(VectorBosk(2, 3, seed=0))
    moves = vec.play([True, np.int64(0)], streams=[[1, 2]] * 3)
    again = VectorBosk(2, 3, seed=0)
    assert (again.play(["greedy", "random"], streams=[[1, 2]] * 3) == moves).all()


def test_vector_rows_with_unseeded_agent_objects_and_renamed_agents():
    """Unseeded agent objects play from seed 0 on both engines, as their specs do (the
    vector engine drew from their OS seeds: rows changed from run to run); an agent's
    policy comes from its class, not its name, which its user may change."""
    game = fg.make("bosk", num_players=2)
    renamed = fg.agents.GreedyAgent(seed=3)
    renamed.name = "random"
    for agents in ([fg.agents.RandomAgent(), fg.agents.GreedyAgent()], [renamed, "random"]):
        scalar = fg.simulate(game, agents, 3, seed=2, progress=False)
        for _ in range(2):
            vector = fg.simulate(game, agents, 3, seed=2, progress=False, engine="vector")
            assert vector.rows == scalar.rows


def test_vector_engine_refuses_greedy_with_a_registered_heuristic(monkeypatch):
    """A heuristic registered for Bosk steers the scalar greedy agent; the vector engine
    plays the built-in estimate, so it refuses instead of giving other rows (random
    agents are unaffected)."""
    from forestgames.agents import heuristics

    monkeypatch.setitem(heuristics._HEURISTICS, "bosk", lambda state, moves: None)
    game = fg.make("bosk", num_players=2)
    with pytest.raises(ConfigError, match="no heuristic registered"):
        fg.simulate(game, ["greedy"], 2, seed=0, progress=False, engine="vector")
    fg.simulate(game, ["random"], 2, seed=0, progress=False, engine="vector")


def test_running_out_of_memory_in_a_call_is_a_config_error(monkeypatch):
    """A batch can fit in memory while a call on it does not: the call's MemoryError is a
    ConfigError. A reading call leaves the games usable; a call that moves them leaves
    them part-way, and every call but reset() then refuses."""
    vec = VectorBosk(2, 4, seed=0)
    before = snapshot(vec)

    def no_memory(*args):
        raise MemoryError

    with monkeypatch.context() as patch:
        patch.setattr(VectorBosk, "_groups", no_memory)
        with pytest.raises(ConfigError, match=r"not enough memory for legal_action_mask\(\)"):
            vec.legal_action_mask()
    assert snapshot(vec) == before
    vec.step(vec.random_actions(np.random.default_rng(0)))
    with monkeypatch.context() as patch:
        patch.setattr(VectorBosk, "_apply_groups", no_memory)
        with pytest.raises(ConfigError, match="left part-way: reset"):
            vec.step(vec.random_actions(np.random.default_rng(0)))
    for call in (vec.legal_action_mask, lambda: vec.state(0), lambda: vec.play_random(0)):
        with pytest.raises(fg.StateError, match="ran out of memory part-way"):
            call()
    vec.reset(0)
    assert snapshot(vec) == before
    with monkeypatch.context() as patch:  # while building: no advice about a batch not given
        patch.setattr(VectorBosk, "_reset", no_memory)
        with pytest.raises(ConfigError, match="so many games") as refused:
            VectorBosk(2, 4, seed=0)
        assert "reset" not in str(refused.value)


def test_from_states_refuses_too_many_states_at_once():
    """More than MAX_BATCH states are refused before any is looked at (it took seconds)."""
    from forestgames.bosk import vector

    state = fg.make("bosk").new_game(seed=0)
    with pytest.raises(ConfigError, match=r"from_states takes 1\.\.1048576 states"):
        VectorBosk.from_states([state] * (vector.MAX_BATCH + 1))
