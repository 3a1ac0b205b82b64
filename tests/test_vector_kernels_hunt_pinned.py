"""Lockstep Bosk (VectorBosk) and Bosk's scoring kernels against odd input: each test pins
a behaviour a bug hunt found broken, by the words of docs/bosk.md."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import forestgames as fg
from forestgames.bosk.scoring import compiled_kernels
from forestgames.bosk.vector import ActionLayout, VectorBosk
from forestgames.core import ConfigError, IllegalMoveError, StateError
from tests.bosk.helpers import HAVE_NUMBA, plant_everything

TERRAIN_8 = np.asarray(fg.bosk.DEFAULT_TERRAIN[8])


def one_tree_board() -> tuple[np.ndarray, np.ndarray]:
    """A 2-player board (7x7 intersections) with seat 0's 2 at (0, 0), nothing else."""
    owner = np.full((7, 7), -1, np.int8)
    value = np.zeros((7, 7), np.int8)
    owner[0, 0], value[0, 0] = 0, 2
    return owner, value


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_kernels_score_numpy_matrices_as_plain_arrays():
    """docs/bosk.md: the kernels take numpy arrays; an np.matrix (an ndarray subclass) scores
    as the plain array (it raised numpy's ValueError "shapes ... not aligned")."""
    owner, value = one_tree_board()
    top = np.full((8, 8), -1)
    top[0, :3] = (0, 1, 1)
    totals = np.array([[3, 1], [0, 2]])
    assert fg.bosk.summer_scores(np.matrix(owner), np.matrix(value), 2).tolist() == [6, 0]
    expected = fg.bosk.winter_scores(top, TERRAIN_8, 2).tolist()
    assert fg.bosk.winter_scores(np.matrix(top), np.matrix(TERRAIN_8), 2).tolist() == expected
    matrix_points = fg.bosk.placement_points(np.matrix(totals), 2, 1, 3, 1, 0)
    assert matrix_points.tolist() == fg.bosk.placement_points(totals, 2, 1, 3, 1, 0).tolist()


def test_kernels_and_the_terrain_option_refuse_a_masked_array():
    """docs/bosk.md: "bad input never gives a wrong number": a masked array is a StateError
    (ConfigError for the terrain option) saying its mask would be lost, as
    fit_bradley_terry's wins are (masked cells went unchecked and unscored: a masked seat 9
    passed, the value 3 beside it dropped in silence)."""
    owner, value = one_tree_board()
    masked = np.ma.masked_array(owner, mask=np.zeros_like(owner, bool))
    masked.data[0, 1], masked.mask[0, 1] = 9, True
    value[0, 1] = 3
    refused = "must be a plain array, not a masked array"
    with pytest.raises(StateError, match=f"^owner {refused}"):
        fg.bosk.summer_scores(masked, value, 2)
    top = np.ma.masked_array(np.full((8, 8), -1), mask=np.zeros((8, 8), bool))
    with pytest.raises(StateError, match=f"^top {refused}"):
        fg.bosk.winter_scores(top, TERRAIN_8, 2)
    with pytest.raises(StateError, match=f"^terrain {refused}"):
        fg.bosk.winter_scores(np.full((8, 8), -1), np.ma.masked_array(TERRAIN_8), 2)
    totals = np.ma.masked_array([[3, -1], [0, 2]], mask=[[0, 1], [0, 0]])
    with pytest.raises(StateError, match=f"^totals {refused}"):
        fg.bosk.placement_points(totals, 2, 1, 3, 1, 0)
    terrain = np.ma.masked_array(fg.make("bosk", num_players=2).terrain)
    with pytest.raises(fg.ConfigError, match="not a masked array"):
        fg.make("bosk", num_players=2, terrain=terrain)


def test_an_illegal_step_names_the_lowest_bad_game_whatever_its_phase():
    """step's docstring: IllegalMoveError "names the first game whose id is not legal": with
    game 0 choosing the wind and game 1 in spring, both ids illegal, it names game 0 (it
    named the first bad game of the earliest phase, game 1 in spring); no game moves."""
    game = fg.make("bosk", num_players=2)
    wind, spring = plant_everything(game), game.new_game(seed=0, first_player=1)
    vec = VectorBosk.from_states([wind, spring])
    seat = wind.current_player
    with pytest.raises(IllegalMoveError) as refused:
        vec.step(np.array([0, 196]))  # PlantTree in the wind step; ChooseWind N in spring
    assert str(refused.value) == (
        f"game 0: action 0 (PlantTree) is not legal for seat {seat} in the wind step"
    )
    assert [vec.state(0), vec.state(1)] == [wind, spring]


@pytest.mark.parametrize("rng", [None, 0, np.random.RandomState(0)])
def test_random_and_greedy_actions_refuse_a_bad_rng_once_every_game_is_over(rng):
    """random_actions and greedy_actions take a numpy Generator: anything else is a
    ConfigError even when every game is over (they then returned zeros, the rng unread)."""
    vec = VectorBosk(2, 2, seed=0)
    vec.play_random(0)
    for call in (vec.random_actions, vec.greedy_actions):
        with pytest.raises(ConfigError, match="rng must be a numpy Generator"):
            call(rng)
    assert vec.random_actions(np.random.default_rng(0)).tolist() == [0, 0]


@pytest.mark.parametrize("switch", ["off", "False", 0, 1, []])
def test_compiled_kernels_takes_only_a_bool_or_none(switch):
    """docs/bosk.md: compiled_kernels(False) switches the compiled path off; a switch that
    is not a bool (or None, to ask) is a ConfigError and leaves the path as it was
    (compiled_kernels("off") switched it on, bool("off") being True), as options refuse 1
    for True; numpy's bools are bools."""
    before = compiled_kernels()
    try:
        compiled_kernels(False)
        with pytest.raises(
            ConfigError, match="compiled_kernels: enabled must be True or False, not "
        ):
            compiled_kernels(switch)
        assert compiled_kernels() is False
        assert compiled_kernels(np.True_) is HAVE_NUMBA
    finally:
        compiled_kernels(before)


def test_a_big_endian_uint64_id_past_int64_is_named_as_given():
    """docs/bosk.md: an illegal id is named; a big-endian uint64 id of 2**63 + 5 is named as
    2**63 + 5, as a native one is (it was wrapped and named as -9223372036854775803)."""
    for dtype in ("<u8", ">u8"):
        vec = VectorBosk(2, 2, seed=0)
        with pytest.raises(IllegalMoveError) as refused:
            vec.step(np.array([0, 2**63 + 5], dtype=dtype))
        assert str(refused.value) == (
            "game 1: action 9223372036854775813 is not an id (ids are 0..384)"
        )


@pytest.mark.parametrize("dtype", ["<u8", ">u8"])
def test_placement_points_refuse_uint64_totals_past_int64_in_either_byte_order(dtype):
    """docs/bosk.md: bad input never gives a wrong number: a total of 2**63 is refused in a
    big-endian uint64 array as in a native one (it wrapped negative: seat 1 scored 3)."""
    with pytest.raises(StateError, match="totals must be below 2\\*\\*63"):
        fg.bosk.placement_points(np.array([[2**63, 1]], dtype=dtype), 2, 1, 3, 1, 0)


@pytest.mark.parametrize("size", [2.5, True, "8", None, 1, -3])
def test_an_action_layout_of_a_size_that_is_no_board_is_a_config_error(size):
    """ActionLayout(size) (forestgames.bosk.vector's public layout class) takes an int of 2
    squares or more; a float gave 35.75 actions, True 14, "8" a TypeError."""
    with pytest.raises(ConfigError, match="ActionLayout: size"):
        ActionLayout(size)
    assert ActionLayout(np.int64(8)).num_actions == 385


@pytest.mark.parametrize(
    ("seed", "first_game", "message"),
    [("bad", 0, "seed must be an int"), (0, -1, "first_game must be >= 0")],
)
def test_a_bad_seed_or_first_game_is_named_before_the_games_take_memory(
    monkeypatch, seed, first_game, message
):
    """docs/bosk.md: a bad seed raises the library's error naming it, within a second: the
    seed and first_game are checked before the batch's arrays are allocated (a batch of
    2**20 games filled gigabytes first, and one the machine could not hold was refused as
    "not enough memory" instead)."""

    def out_of_memory(self: VectorBosk) -> None:
        raise MemoryError

    monkeypatch.setattr(VectorBosk, "_setup", out_of_memory)
    with pytest.raises(ConfigError, match=message):
        VectorBosk(2, 4, seed, first_game=first_game)


@pytest.mark.parametrize("name", ["scores", "winners"])
def test_reading_scores_out_of_memory_is_a_config_error(monkeypatch, name):
    """docs/bosk.md: "a call that runs out of memory" is a ConfigError: reading scores or
    winners scores the winter of the games just ended, and a MemoryError there is one
    naming the attribute (numpy's MemoryError escaped); the games stay as they were."""
    vec = VectorBosk(2, 3, seed=0)
    vec.play_random(0)

    def out_of_memory(self: VectorBosk, tops: np.ndarray) -> np.ndarray:
        raise MemoryError

    with monkeypatch.context() as patch:
        patch.setattr(VectorBosk, "_winter_points", out_of_memory)
        with pytest.raises(ConfigError, match=f"not enough memory for {name} on so many games"):
            getattr(vec, name)
    state = vec.state(1)
    assert tuple(vec.scores[1]) == state.scores
    assert (int(vec.winners[1]),) == state.winners


def test_reading_winners_out_of_memory_past_the_scores_is_a_config_error(monkeypatch):
    """Reading winners out of memory after the scores are summed (ranking them in round 8's
    order) is the same ConfigError naming winners (only the scoring was guarded)."""
    vec = VectorBosk(2, 3, seed=0)
    vec.play_random(0)
    winners = vec.winners.tolist()

    def out_of_memory(*args: object, **kwargs: object) -> np.ndarray:
        raise MemoryError

    with monkeypatch.context() as patch:
        patch.setattr(np, "take_along_axis", out_of_memory)
        with pytest.raises(ConfigError, match="not enough memory for winners on so many games"):
            _ = vec.winners
    assert vec.winners.tolist() == winners


def test_the_shared_layout_stays_shared_through_copies_and_pickles():
    """The one layout of a board size is itself after copy, deepcopy and a pickle round trip
    (each built a layout of its own, no longer the batches' shared one)."""
    layout = VectorBosk(2, 1, seed=0).layout
    assert copy.copy(layout) is layout
    assert copy.deepcopy(layout) is layout
    assert pickle.loads(pickle.dumps(layout)) is layout


def test_batches_of_one_board_size_share_one_layout():
    """docs/bosk.md: "the layout is read-only, shared by every batch of that board size":
    a batch whose squirrel moves exactly three steps has the same layout object as one
    whose squirrel moves one to three (each rule built its own)."""
    layout = VectorBosk(2, 1, seed=0).layout
    assert VectorBosk(2, 1, seed=0, squirrel_exactly_three=True).layout is layout
    assert VectorBosk(2, 1, seed=0, squirrel_passes_squirrels=False).layout is layout
    assert VectorBosk(3, 1, seed=0).layout is not layout


def as_given(entries: list[object]) -> object:
    """``entries`` as a step's actions: a list, or a uint64 array if one entry is uint64."""
    wide = any(isinstance(entry, np.uint64) for entry in entries)
    return np.array(entries, np.uint64) if wide else entries


@pytest.mark.parametrize(
    "odd", [True, 2**70, np.uint64(2**63)], ids=["bool", "past int64", "uint64 past int64"]
)
def test_a_step_names_the_lowest_bad_game_before_a_later_entry_that_is_no_id(odd):
    """step's docstring: IllegalMoveError "names the first game whose id is not legal": game
    0's illegal id 196 (ChooseWind in spring) is named before game 1's bool or id past
    int64 (the entry that was no id was named first, whatever its game); no game moves."""
    vec = VectorBosk(2, 2, seed=0)
    before = [vec.state(0), vec.state(1)]
    seat = before[0].current_player
    with pytest.raises(IllegalMoveError) as refused:
        vec.step(as_given([196, odd]))
    assert str(refused.value) == (
        f"game 0: action 196 (ChooseWind) is not legal for seat {seat} in the spring step"
    )
    with pytest.raises(IllegalMoveError, match=r"game 0: action .* is not an id \(ids are"):
        vec.step(as_given([odd, 196]))
    assert [vec.state(0), vec.state(1)] == before
