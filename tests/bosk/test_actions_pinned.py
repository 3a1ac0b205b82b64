"""Bosk's integer actions and tensor, field by field as docs/bosk.md ("Actions and tensors")
describes them: the codec's writers build both the state's tensor and
``tensor_from_observation``'s, so only a reference written from the docs pins what they write."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import forestgames as fg
from tests.doc_tables import assert_tensor_fields, one_hot
from tests.strategies import random_game

PHASES = ("spring", "wind", "tree", "tile", "leaves", "squirrel", "over")
"""The ``phase`` field's one-hot order (the docs' table)."""
WINDS = "NESW"


def _docs_fields(game: Any, obs: dict[str, Any], mover: int | None) -> dict[str, np.ndarray]:
    """Every tensor field of observation ``obs`` (``mover``: the seat to move, None once
    over), built from the docs' table alone: seats in observer order (block ``k`` is seat
    ``(observer + k) % P``), intersection ``(i, j)`` at ``[i, j]`` of an S x S plane, counts
    raw, categories one-hot."""
    p, size, me = game.num_players, game.size, obs["observer"]

    def rel(seat: int) -> int:
        return (seat - me) % p

    def planes(count: int) -> np.ndarray:
        return np.zeros((count, size, size))

    trees, terrain = np.zeros((p, 4, size, size)), planes(8)
    top, height, squirrel, stack = planes(p), planes(1), planes(p), planes(8 * p)
    chosen, last = planes(1), planes(1)
    for i, j, owner, value in obs["trees"]:
        trees[rel(owner), value - 1, i, j] = 1
    for r, row in enumerate(np.asarray(game.terrain)):
        for c, kind in enumerate(row):
            terrain[kind, r, c] = 1
    for r, row in enumerate(obs["stacks"]):
        for c, text in enumerate(row):
            leaves, _, sq = text.partition("S")
            height[0, r, c] = len(leaves)
            for level, seat in enumerate(leaves):
                stack[level, r, c] = 1 + rel(int(seat))
            if sq:
                top[rel(int(sq)), r, c] = squirrel[rel(int(sq)), r, c] = 1
            elif leaves:
                top[rel(int(leaves[-1])), r, c] = 1
    if obs["tree"] is not None:
        chosen[0, obs["tree"][0], obs["tree"][1]] = 1
    if obs["last"] is not None:
        last[0, obs["last"][0], obs["last"][1]] = 1
    first = None if obs["first_wind"] is None else WINDS.index(obs["first_wind"])
    wind = None if first is None or obs["round"] < 1 else (first + obs["round"] - 1) % 4
    seats = [(me + k) % p for k in range(p)]
    return {
        "trees": trees,
        "terrain": terrain,
        "top": top,
        "height": height,
        "squirrel": squirrel,
        "stack": stack,
        "chosen_tree": chosen,
        "last_leaf": last,
        "phase": one_hot(7, PHASES.index(obs["phase"])),
        "round": np.array([obs["round"]]),
        "wind": one_hot(4, wind),
        "first_wind": one_hot(4, first),
        "turn": np.array([obs["turn"]]),
        "to_move": one_hot(p, None if mover is None else rel(mover)),
        "active": np.array([obs["active"]]),
        "order_start": one_hot(p, rel(obs["order"][0])),
        "tiles_used": np.array(
            [[float(tile in obs["tiles_used"][s]) for tile in range(1, 9)] for s in seats]
        ),
        "round_tiles": np.array([one_hot(9, obs["round_tiles"][s]) for s in seats]),
        "summer": np.array([obs["summer"][s] for s in seats]),
        "winter": np.array([obs["winter"][s] for s in seats]),
    }


def _check(game: Any, state: Any, seat: int, where: str) -> None:
    """Seat ``seat``'s tensor, and the one built from its observation, are the docs' fields."""
    mover = state.current_player
    assert_tensor_fields(game, state, seat, lambda obs: _docs_fields(game, obs, mover), where)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_tensor_fields_are_the_docs_fields(players: int, seed: int) -> None:
    """Along a random game (the mover's tensor every 5th position, every seat's every 25th
    and at the end) each field of the tensor, and of the one built from the observation,
    holds what the docs' table says of the observation; the layout has exactly those fields."""
    game = fg.make("bosk", num_players=players)
    seen = set()
    for step, (state, _) in enumerate(random_game(game, seed)):
        obs = state.observation(0)
        seen.add(obs["phase"])
        seats: Any = range(players) if step % 25 == 0 or state.is_terminal else ()
        if not seats and step % 5 == 0:
            seats = (state.current_player,)
        for seat in seats:
            _check(game, state, seat, f"step {step} seat {seat}")
    assert seen == set(PHASES)


def test_spring_mask_is_one_exactly_at_the_plant_ids_left() -> None:
    """A spring mask is int8, 1 (not another number) exactly at the legal ids: in a new
    2-player game (N = 7, so PlantTree(v, t) is (v-1)*49 + t) every id below 4N² = 196 and
    none of the 189 others; once (0, 0) holds a tree, seat 1 loses ids 0, 49, 98 and 147
    (t = 0 in each value's block); once seat 0 has planted both 1s, its block 0..48 is 0."""
    game = fg.make("bosk", num_players=2)
    state = game.new_game(seed=1, first_player=0)
    mask = state.legal_action_mask()
    assert mask.dtype == np.int8
    assert mask.tolist() == [1] * 196 + [0] * 189
    state = state.apply(fg.bosk.PlantTree(0, 1, (0, 0)))
    expected = [0 if i in (0, 49, 98, 147) else 1 for i in range(196)] + [0] * 189
    assert state.legal_action_mask().tolist() == expected
    state = state.apply(fg.bosk.PlantTree(1, 4, (0, 1)))
    state = state.apply(fg.bosk.PlantTree(0, 1, (0, 2)))
    state = state.apply(fg.bosk.PlantTree(1, 4, (0, 3)))
    taken = {0, 1, 2, 3}
    expected = [0] * 49 + [int(i % 49 not in taken) for i in range(49, 196)] + [0] * 189
    assert state.legal_action_mask(0).tolist() == expected


def test_a_last_leaf_on_the_corner_square_shows_at_index_0() -> None:
    """A loaded position (it breaks no invariant) whose last leaf lies on square (0, 0) with
    the wind S, so the path goes on to (1, 0) or (1, 1): ``last_leaf`` holds 1 at square
    index 0 * 8 + 0 = 0 alone in every seat's tensor and in the one built from its
    observation, and every other field is the docs' too (then also after the next leaf)."""
    game = fg.make("bosk", num_players=2)
    state = next(
        state
        for state, _ in random_game(game, 2)
        if state.phase is fg.bosk.Phase.LEAVES and state.wind == "S" and state.last >= 0
    )
    data, mover = state.to_dict(), state.current_player
    r, c = data["last"]
    assert data["stacks"][r][c][-1] == str(mover) and data["stacks"][0][0] == ""
    data["stacks"][r][c] = data["stacks"][r][c][:-1]
    data["stacks"][0][0] = str(mover)
    data["last"] = [0, 0]
    state = game.state_from_dict(data)
    assert {move.at for move in state.legal_moves()} == {(1, 0), (1, 1)}
    for seat in (0, 1):
        _check(game, state, seat, f"seat {seat}")
        for tensor in (
            state.observation_tensor(seat),
            game.codec.tensor_from_observation(state.observation(seat)),
        ):
            assert np.flatnonzero(game.codec.layout.field(tensor, "last_leaf")).tolist() == [0]
    state = state.apply(fg.bosk.PlaceLeaf(mover, (1, 1)))
    for seat in (0, 1):
        _check(game, state, seat, f"after (1, 1), seat {seat}")


def test_a_first_wind_given_before_autumn_shows_no_round_wind() -> None:
    """``tensor_from_observation`` checks each field, not that a position could show them
    all (docs/index.md): the wind choice's observation (round 0) given first wind E holds
    1 at ``first_wind`` index 1 (N, E, S, W) and no ``wind`` at all (the docs' table: none
    before autumn); every other field is the docs' too."""
    game = fg.make("bosk", num_players=2)
    state = next(s for s, _ in random_game(game, 1) if s.phase is fg.bosk.Phase.WIND)
    obs = state.observation(1)
    assert obs["round"] == 0 and obs["first_wind"] is None
    obs["first_wind"] = "E"
    tensor = game.codec.tensor_from_observation(obs)
    layout = game.codec.layout
    assert layout.field(tensor, "first_wind").tolist() == [0, 1, 0, 0]
    assert layout.field(tensor, "wind").tolist() == [0, 0, 0, 0]
    for name, expected in _docs_fields(game, obs, state.current_player).items():
        np.testing.assert_array_equal(layout.field(tensor, name), expected, err_msg=name)
