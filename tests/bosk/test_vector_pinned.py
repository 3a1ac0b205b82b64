"""VectorBosk behaviours a mutation audit of ``forestgames/bosk/vector.py`` found
unpinned: each test builds a position the random differential games rarely reach and
checks the batch against the scalar engine (docs/bosk.md)."""

from __future__ import annotations

import numpy as np
import pytest

import forestgames as fg
from forestgames.bosk import SQUIRREL, ChooseTile, ChooseTree, PlaceSquirrel
from forestgames.bosk.vector import VectorBosk
from forestgames.core import ConfigError, IllegalMoveError, StateError, derive_seed
from tests.bosk.helpers import autumn_turn, plant_everything, start_path, targets


def vector_ids(state) -> list[int]:
    """The ids VectorBosk.from_states([state]) marks legal, ascending."""
    return np.flatnonzero(VectorBosk.from_states([state]).legal_action_mask()[0]).tolist()


def scalar_ids(state) -> list[int]:
    """The ids of the scalar state's legal moves, ascending."""
    return sorted(state.game.action_id(move) for move in state.legal_moves())


@pytest.mark.parametrize("passes", [True, False])
@pytest.mark.parametrize(("mover", "blocker"), [(0, 1), (1, 0)])
def test_a_squirrel_on_the_way_closes_paths_only_without_passes(passes, mover, blocker):
    """Wind N, the mover's tree on intersection (4, 4), the other seat's squirrel (seat 0's
    too) on base square (4, 4): squares (3, 3) and (2, 2) are reached only through it, so
    the squirrel may stop there unless squirrel_passes_squirrels=False (docs/bosk.md,
    Options); the batch's mask is the scalar engine's in both readings."""
    state = autumn_turn(
        mover=mover,
        wind="N",
        trees={(4, 4): (mover, 1)},
        squirrels={blocker: (4, 4)},
        squirrel_passes_squirrels=passes,
    )
    state = start_path(state, (4, 4), SQUIRREL)
    assert ({(3, 3), (2, 2)} <= targets(state)) is passes
    assert vector_ids(state) == scalar_ids(state)


def test_from_states_takes_up_to_max_batch_states(monkeypatch):
    """from_states takes 1..MAX_BATCH states, both ends included (MAX_BATCH lowered to 3
    here, as 2**20 real states would take gigabytes): 3 load, 4 are refused."""
    from forestgames.bosk import vector

    monkeypatch.setattr(vector, "MAX_BATCH", 3)
    state = autumn_turn()
    assert VectorBosk.from_states([state] * 3).batch == 3
    with pytest.raises(ConfigError, match=r"from_states takes 1\.\.3 states, not 4"):
        VectorBosk.from_states([state] * 4)


def no_memory(*args, **kwargs):
    """Stands for a numpy allocation that fails."""
    raise MemoryError


READING = [  # (call, the internal step made to run out of memory)
    ("legal_action_mask", lambda vec: vec.legal_action_mask(), "_groups"),
    ("state", lambda vec: vec.state(0), "_state_dict"),
    ("random_actions", lambda vec: vec.random_actions(np.random.default_rng(0)), "_groups"),
    ("greedy_actions", lambda vec: vec.greedy_actions(np.random.default_rng(0)), "_groups"),
]
MOVING = [
    ("step", lambda vec: vec.step(np.zeros(vec.batch, np.int64)), "_apply_groups"),
    ("play", lambda vec: vec.play("random", 0), "_play"),
    ("play_random", lambda vec: vec.play_random(0), "_play"),
    ("reset", lambda vec: vec.reset(0), "_reset"),
]


@pytest.mark.parametrize(("name", "call", "internal"), READING)
def test_a_reading_call_out_of_memory_leaves_the_games_usable(monkeypatch, name, call, internal):
    """docs/bosk.md: a call that runs out of memory is a ConfigError; one that does not move
    the games (the mask, state(i), random and greedy actions) gives no reset advice and
    the games go on."""
    vec = VectorBosk(2, 3, seed=0)
    with monkeypatch.context() as patch:
        patch.setattr(VectorBosk, internal, no_memory)
        with pytest.raises(ConfigError, match=rf"not enough memory for {name}\(\)") as refused:
            call(vec)
    assert "reset" not in str(refused.value)
    vec.step(vec.random_actions(np.random.default_rng(1)))
    assert vec.state(0).phase.value == "spring"


@pytest.mark.parametrize(("name", "call", "internal"), MOVING)
def test_a_moving_call_out_of_memory_spoils_the_games_until_reset(
    monkeypatch, name, call, internal
):
    """docs/bosk.md: a call moving the games (step, play, play_random, and reset() itself)
    that runs out of memory leaves them part-way: a ConfigError advising reset(), then
    every method but reset() raises StateError, and reset() makes the batch usable again."""
    vec = VectorBosk(2, 3, seed=0)
    with monkeypatch.context() as patch:
        patch.setattr(VectorBosk, internal, no_memory)
        with pytest.raises(ConfigError, match=rf"{name}\(\) on so many games .* reset\(\)"):
            call(vec)
    with pytest.raises(StateError, match=rf"{name}\(\) ran out of memory part-way"):
        vec.state(0)
    vec.reset(0)
    assert vec.state(0).phase.value == "spring"


def test_the_corner_square_0_is_a_squirrel_stop():
    """Wind N, tree on intersection (0, 0): its base squares are (0, 0) and (0, 1), so the
    squirrel may stop on square 0, the north-west corner (id PlaceSquirrel + 0); the
    batch's mask is the scalar engine's."""
    state = start_path(autumn_turn(wind="N", trees={(0, 0): (0, 1)}), (0, 0), SQUIRREL)
    assert (0, 0) in targets(state)
    assert vector_ids(state) == scalar_ids(state)


def test_a_squirrel_whose_one_stop_is_square_0_is_not_stuck():
    """Wind N, tree on intersection (0, 0), seat 1's squirrel on square (0, 1): the squirrel
    tile's one stop is square 0, so the turn goes on to PlaceSquirrel there (not ended at
    once for want of a stop); stepped in a batch, seat to move and mask follow the scalar
    engine."""
    state = autumn_turn(wind="N", trees={(0, 0): (0, 1)}, squirrels={1: (0, 1)})
    vec = VectorBosk.from_states([state])
    for move in (ChooseTree(0, (0, 0)), ChooseTile(0, SQUIRREL), PlaceSquirrel(0, (0, 0))):
        state = state.apply(move)
        vec.step(np.array([state.game.action_id(move)]))
        assert vec.current_player.tolist() == [state.current_player]
        assert np.flatnonzero(vec.legal_action_mask()[0]).tolist() == scalar_ids(state)


def test_the_mask_of_a_batch_in_several_phases_at_once():
    """A batch of a spring game and an autumn game (from_states): each mask row is its own
    game's scalar legal ids (the spring rows are copied whole; the other rows still follow)."""
    spring = fg.make("bosk", num_players=2).new_game(seed=0)
    autumn = autumn_turn(trees={(4, 4): (0, 1), (2, 2): (0, 2)})
    mask = VectorBosk.from_states([spring, autumn]).legal_action_mask()
    assert np.flatnonzero(mask[0]).tolist() == scalar_ids(spring)
    assert np.flatnonzero(mask[1]).tolist() == scalar_ids(autumn)


def test_actions_numpy_cannot_read_are_an_illegal_move_error():
    """step() of a ragged list (no array) is IllegalMoveError naming the batch size."""
    vec = VectorBosk(2, 2, seed=0)
    with pytest.raises(IllegalMoveError, match="actions must be 2 ints"):
        vec.step([[0, 1], [2]])


def refusal(states) -> str:
    """The ConfigError text of VectorBosk.from_states(states)."""
    with pytest.raises(ConfigError) as refused:
        VectorBosk.from_states(states)
    return str(refused.value)


def test_from_states_names_the_first_odd_state_and_each_option_it_differs_in():
    """States of different games are refused naming the first odd state, then each option
    in which its game differs (sorted by name; state 0's value in brackets), a terrain by
    its first differing square (row-major) or by its shape: 8x8 maps of all type 0 and
    the same with type 7 at (2, 5) differ at (2, 5) only; a 3-player game on a 10x10 map
    differs in num_players and the map's shape; the shipped map (D = 3 at (0, 0),
    docs/bosk.md) differs from the all-0 one although only the latter is in options();
    options that agree are not named."""
    plain = [[0] * 8 for _ in range(8)]
    dotted = [row[:] for row in plain]
    dotted[2][5] = 7
    a = fg.make("bosk", num_players=2, terrain=plain).new_game(seed=0)
    b = fg.make("bosk", num_players=2, terrain=dotted).new_game(seed=0)
    c = fg.make("bosk", num_players=3, terrain=[[0] * 10 for _ in range(10)]).new_game(seed=0)
    d = fg.make("bosk", num_players=2, terrain=plain, ties_include_start=False).new_game(seed=0)
    head = "from_states: every state must be of the same game and options; "
    assert (
        refusal([a, b]) == head + "state 1 has another terrain with 7 at square (2, 5) (state 0: 0)"
    )
    assert (
        refusal([b, a]) == head + "state 1 has another terrain with 0 at square (2, 5) (state 0: 7)"
    )
    assert refusal([a, a, c, b]) == head + (
        "state 2 has num_players=3 (state 0: 2), "
        "another terrain of shape (10, 10) (state 0: (8, 8))"
    )
    assert refusal([a, d]) == head + "state 1 has ties_include_start=False (state 0: True)"
    shipped = fg.make("bosk", num_players=2).new_game(seed=0)  # its map: "DAAABBBC" first
    assert refusal([shipped, a]) == head + (
        "state 1 has another terrain with 0 at square (0, 0) (state 0: 3)"
    )


@pytest.mark.parametrize("policies", ["Greedy", ["random", "human"], [["greedy", ""]] * 3])
def test_policies_naming_neither_random_nor_greedy_are_refused(policies):
    """docs/bosk.md: a policy is "random" or "greedy" (or a bool, 0 or 1); any other text,
    even "Greedy" or "", is a ConfigError, not taken as random, and no game moves."""
    vec = VectorBosk(2, 3, seed=0)
    with pytest.raises(ConfigError, match="policies are 'random' or 'greedy'"):
        vec.play(policies, 0)
    fresh = VectorBosk(2, 3, seed=0)
    assert [vec.state(i) for i in range(3)] == [fresh.state(i) for i in range(3)]


def test_describe_names_the_kind_of_each_first_and_last_id():
    """ActionLayout.describe names an id's move kind by the docs' table (2 players: N = 7,
    S = 8): PlantTree 0..195, ChooseWind 196..199, ChooseTree 200..248, ChooseTile
    249..256, PlaceLeaf 257..320, PlaceSquirrel 321..384; -1 and 385 are not ids."""
    layout = VectorBosk(2, 1, seed=0).layout
    kinds = [
        ("PlantTree", 0, 195),
        ("ChooseWind", 196, 199),
        ("ChooseTree", 200, 248),
        ("ChooseTile", 249, 256),
        ("PlaceLeaf", 257, 320),
        ("PlaceSquirrel", 321, 384),
    ]
    for name, first, last in kinds:
        assert layout.describe(first) == f"{first} ({name})"
        assert layout.describe(np.int64(last)) == f"{last} ({name})"
    for outside in (-1, 385):
        assert layout.describe(outside) == f"{outside} (not an id: ids are 0..384)"


def test_random_and_greedy_actions_draw_among_the_legal_moves():
    """random_actions picks uniformly among the legal ids: 392 new 2-player games (every
    one of the 4 x 49 = 196 plantings legal) draw far more than 100 distinct ids (about
    170 expected; a draw stuck on one candidate gives 1); greedy_actions draws among the
    winds, which tie, so 64 games after spring choose all 4 of them."""
    vec = VectorBosk(2, 392, seed=0)
    mask = vec.legal_action_mask()
    assert (mask.sum(axis=1) == 196).all()
    picked = vec.random_actions(np.random.default_rng(0))
    assert mask[np.arange(392), picked].all()
    assert len(set(picked.tolist())) > 100
    wind = plant_everything(fg.make("bosk", num_players=2))
    assert wind.phase.value == "wind"
    vec = VectorBosk.from_states([wind] * 64)
    chosen = vec.greedy_actions(np.random.default_rng(0)) - vec.layout.wind
    assert sorted(set(chosen.tolist())) == [0, 1, 2, 3]


def test_the_defaults_are_one_game_of_two_players():
    """docs/bosk.md: VectorBosk(num_players=2, batch=1, seed=None, ...): with only a seed,
    one 2-player game, game 0 of the scalar engine's numbering."""
    vec = VectorBosk(seed=5)
    assert (vec.num_players, vec.batch) == (2, 1)
    assert vec.state(0) == fg.make("bosk", num_players=2).new_game(seed=derive_seed(5, 0))


def test_a_squirrel_on_the_corner_square_closes_no_other_path():
    """squirrel_passes_squirrels=False, wind N, the mover's tree on intersection (4, 4), the
    other seat's squirrel on square (0, 0), on none of its paths: every stop stays open,
    1 step (row 4: columns 4, 5), 2 steps (row 3: 3..6) and 3 steps (row 2: 2..7), each step
    one row north and at most one column aside; the batch's mask is the scalar engine's."""
    state = autumn_turn(
        wind="N",
        trees={(4, 4): (0, 1)},
        squirrels={1: (0, 0)},
        squirrel_passes_squirrels=False,
    )
    state = start_path(state, (4, 4), SQUIRREL)
    stops = {(4, 4), (4, 5)} | {(3, c) for c in range(3, 7)} | {(2, c) for c in range(2, 8)}
    assert targets(state) == stops
    assert vector_ids(state) == scalar_ids(state)


def test_from_states_refuses_an_empty_list():
    """docs/bosk.md: a batch holds 1 to MAX_BATCH (2^20) games, so from_states([]) is a
    ConfigError naming that range, not an error from reading a state that is not there."""
    with pytest.raises(ConfigError, match=r"from_states takes 1\.\.1048576 states, not 0"):
        VectorBosk.from_states([])


def test_winners_are_minus_one_until_a_game_is_over():
    """docs/bosk.md: winners is (batch,) int8, the winner once over, else -1: three new
    games have none (not seat 0 nor -2), and a finished game next to one of them names the
    scalar state's winner."""
    vec = VectorBosk(2, 3, seed=0)
    assert vec.winners.dtype == np.int8
    assert vec.winners.tolist() == [-1, -1, -1]
    over = VectorBosk(2, 1, seed=0)
    over.play_random(0)
    done = over.state(0)
    (winner,) = done.winners
    assert VectorBosk.from_states([done, vec.state(1)]).winners.tolist() == [winner, -1]


@pytest.mark.parametrize("tile", [0, 9])
def test_action_id_refuses_a_tile_outside_1_to_8(tile):
    """docs/bosk.md: layout.action_id refuses what game.action_id refuses, and tiles are
    1..8: ChooseTile with tile 0 (which would read as id 248, the last ChooseTree) or 9
    (id 257, the first PlaceLeaf) is an IllegalMoveError from both."""
    vec = VectorBosk(2, 1, seed=0)
    move = ChooseTile(0, tile)
    with pytest.raises(IllegalMoveError):
        vec.game.action_id(move)
    with pytest.raises(IllegalMoveError, match="is not a Bosk move on a 8x8 board"):
        vec.layout.action_id(move)
