"""Lockstep-Bosk behaviours of stepping, turns, rounds, scoring and playouts that a
mutation audit of the integer constants of ``forestgames/bosk/vector.py`` (from its legal
ids on) found unpinned: each test builds a position by hand or plays the scalar engine
alongside and checks the batch against it or against docs/bosk.md."""

from __future__ import annotations

import numpy as np
import pytest

import forestgames as fg
from forestgames.bosk import SQUIRREL
from forestgames.bosk.vector import VectorBosk
from forestgames.core import IllegalMoveError
from tests.bosk.helpers import autumn_turn, plant_everything, start_path


def test_the_mask_holds_1_exactly_at_the_legal_ids_in_every_phase():
    """docs/bosk.md: legal_action_mask() is int8, "1 exactly at the ids of each game's
    legal moves": a batch of a spring, a wind, a tree, a tile, a leaf and a squirrel
    position gives each row equal to its scalar state's legal_action_mask() (0 or 1,
    never another number)."""
    game = fg.make("bosk", num_players=2)
    tree = autumn_turn(trees={(4, 4): (0, 1), (2, 2): (1, 1)})
    tile = tree.apply(fg.bosk.ChooseTree(0, (4, 4)))
    states = [
        game.new_game(seed=0),
        plant_everything(game),
        tree,
        tile,
        start_path(tree, (4, 4), 2),
        start_path(tree, (4, 4), SQUIRREL),
    ]
    assert [s.phase.value for s in states] == [
        "spring", "wind", "tree", "tile", "leaves", "squirrel"
    ]  # fmt: skip
    mask = VectorBosk.from_states(states).legal_action_mask()
    assert mask.dtype == np.int8
    for row, state in zip(mask, states, strict=True):
        np.testing.assert_array_equal(row, state.legal_action_mask())


def test_random_plantings_reach_every_intersection_and_value():
    """docs/bosk.md: random_actions picks "uniformly random" legal ids; on a new 2-player
    board every PlantTree (v, t) is legal, id (v-1)*49 + t, so 2,000 games' draws hold each
    of the 49 intersections (about 41 times each; intersection 0, the corner, and 48 too)
    and each value 1..4 (about 500 times each)."""
    vec = VectorBosk(2, 2000, seed=0)
    ids = vec.random_actions(np.random.default_rng(0))
    assert vec.legal_action_mask()[np.arange(2000), ids].all()
    assert sorted(set((ids % 49).tolist())) == list(range(49))
    assert sorted(set((ids // 49).tolist())) == [0, 1, 2, 3]


def test_an_id_past_int64_names_the_first_live_game_that_gave_one():
    """docs/bosk.md: an illegal id raises IllegalMoveError "naming the game index and the
    id", and no game changes; uint64 ids past int64's range are refused before any
    conversion: in a batch of a finished game and two new ones (385 ids with 2 players),
    2**63 for games 0 and 2 names game 2 (game 0 ignores its id), for games 1 and 2
    names game 1, the first."""
    finished = VectorBosk(2, 1, seed=0)
    finished.play_random(0)
    new = fg.make("bosk", num_players=2).new_game(seed=0)
    vec = VectorBosk.from_states([finished.state(0), new, new])
    assert vec.terminated.tolist() == [True, False, False]
    before = [vec.state(i) for i in range(3)]
    huge = 2**63
    for bad, named in (((0, 2), 2), ((1, 2), 1)):
        actions = np.zeros(3, dtype=np.uint64)  # 0: PlantTree(1, (0, 0)), legal in spring
        actions[list(bad)] = huge
        message = f"game {named}: action {huge} is not an id (ids are 0..384)"
        with pytest.raises(IllegalMoveError) as refused:
            vec.step(actions)
        assert str(refused.value) == message
        assert [vec.state(i) for i in range(3)] == before


def test_an_illegal_step_names_the_first_bad_game_and_its_own_id():
    """docs/bosk.md: an illegal id raises IllegalMoveError "naming the game index and the
    id" (the first game whose id is illegal, step's docstring): in 3 new 2-player games,
    ids 196 (ChooseWind N) for game 1 and 197 (ChooseWind E) for game 2, both illegal in
    spring, name game 1 with id 196 and the seat to move there; no game moves."""
    vec = VectorBosk(2, 3, seed=0)
    before = [vec.state(i) for i in range(3)]
    seat = before[1].current_player
    with pytest.raises(IllegalMoveError) as refused:
        vec.step(np.array([0, 196, 197]))
    assert str(refused.value) == (
        f"game 1: action 196 (ChooseWind) is not legal for seat {seat} in the spring step"
    )
    assert [vec.state(i) for i in range(3)] == before
