"""Living Forest's tensor, field by field as docs/living_forest.md describes it: the codec's
writers build ``tensor_from_observation``'s tensor and also the first tensor of each seat
(later ones are patches of it), so only a reference written from the docs pins them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import forestgames as fg
from tests.doc_tables import assert_tensor_fields, one_hot
from tests.strategies import random_game

CARD_ROWS = list(fg.living_forest.CARDS)
"""Card names by their row of the card table (a card in a sequence is 1 + its row)."""
TREES = ("start", "3A", "3B", "4A", "4B", "5A", "5B", "6", "7", "8", "9", "10", "11")
ACTIONS = ("fragment", "attract", "extinguish", "move", "plant")


def _counts(cards: list[str]) -> np.ndarray:
    return np.array([cards.count(name) for name in CARD_ROWS])


def _sequence(cards: list[str], length: int) -> np.ndarray:
    return np.array([1 + CARD_ROWS.index(name) for name in cards] + [0] * (length - len(cards)))


def _spirit(spirit: dict[str, Any]) -> np.ndarray:
    """One Spirit's block: the docs' second table, its fields in order."""
    cells = [tree for row in spirit["forest"] for tree in row]  # row-major
    forest = [one_hot(13, None if tree is None else TREES.index(tree)) for tree in cells]
    parts = [
        _counts(spirit["line"]),
        _sequence(spirit["line"], 88),
        [spirit["discard_size"], spirit["fragments"]],
        np.ravel(forest),
        one_hot(12, spirit["rock"]),
        [spirit["victory"][kind] for kind in ("tree", "fire", "flower")],
        [spirit["fires"][value] for value in ("2", "3", "4")],
        [spirit["deck_size"], spirit["known"]],
        _sequence(spirit["deck_top"], 51),
        _counts(spirit["cards"]),
    ]
    return np.concatenate([np.ravel(part) for part in parts])


def _docs_fields(obs: dict[str, Any]) -> dict[str, np.ndarray]:
    """Every tensor field of observation ``obs`` from the docs' first table (seats in
    observer order: block ``k`` is seat ``(observer + k) % P``)."""
    p, me = obs["num_players"], obs["observer"]
    seats = [(me + k) % p for k in range(p)]
    passed = np.zeros(p)
    for position, seat in enumerate(obs["passed"], 1):
        passed[seats.index(seat)] = position
    actions = np.zeros((2, 5))
    for position, action in enumerate(obs["actions"]):
        actions[position, ACTIONS.index(action)] = 1
    reserve = obs["reserve"]
    levels = ("I", "II", "III")
    mine = obs["spirits"][me]
    return {
        "phase": one_hot(3, ("guardians", "actions", "over").index(obs["phase"])),
        "turn": np.array([obs["turn"]]),
        "sacred": one_hot(p, seats.index(obs["sacred"])),
        "seat_index": np.array([obs["seat_index"]]),
        "step": one_hot(
            5, ("choose", "attract", "extinguish", "victory", "plant").index(obs["step"])
        ),
        "actions": actions,
        "budget": np.array([obs["budget"]]),
        "picks": np.array([obs["picks"]]),
        "passed": passed,
        "bonus": one_hot(5, None if obs["bonus"] is None else ACTIONS.index(obs["bonus"])),
        "centre": np.array([obs["centre"].count(value) for value in (2, 3, 4)]),
        "fire_supply": np.array(obs["fire_supply"]),
        "varans": np.array([obs["varans"]]),
        "reserve": _counts([name for level in levels for name in reserve[level]["row"]]),
        "stack_sizes": np.array([reserve[level]["stack"] for level in levels]),
        "taken": np.array(obs["taken"]),
        "spirits": np.array([_spirit(obs["spirits"][seat]) for seat in seats]),
        "my_discard": _counts(mine["discard"]),
        "my_deck_rest": _counts(mine["deck_rest"]),
    }


def _check(game: Any, state: Any, seat: int, where: str) -> None:
    """Seat ``seat``'s tensor, and the one built from its observation, are the docs' fields."""
    assert_tensor_fields(game, state, seat, _docs_fields, where)


@pytest.mark.parametrize(
    ("options", "seed"),
    [
        ({"num_players": 2}, 1),
        ({"num_players": 3}, 1),
        ({"num_players": 4, "varan_returns": True}, 3),
    ],
)
def test_tensor_fields_are_the_docs_fields(options: dict[str, Any], seed: int) -> None:
    """Along a random game every field of every seat's tensor (each seat's first tensor
    too, built whole) holds what the docs' tables say of the observation, and the layout
    has exactly those fields; with 3 or more Spirits the game passes a bonus action and a
    queue of Spirits to take Victory tiles from."""
    game = fg.make("living_forest", **options)  # a fresh codec: first tensors built whole
    seen = {"known": False, "centre": False, "actions": False}
    if game.num_players > 2:
        seen |= {"bonus": False, "passed": False}
    for step, (state, _) in enumerate(random_game(game, seed)):
        obs = state.observation(0)
        rare = obs["bonus"] is not None or bool(obs["passed"])
        if step % 16 and not rare and not state.is_terminal:
            continue
        found = {
            "known": any(spirit["known"] for spirit in obs["spirits"]),
            "centre": bool(obs["centre"]),
            "actions": bool(obs["actions"]),
            "bonus": obs["bonus"] is not None,
            "passed": bool(obs["passed"]),
        }
        seen = {key: seen[key] or found[key] for key in seen}
        for seat in range(game.num_players):
            _check(game, state, seat, f"step {step} seat {seat}")
    assert all(seen.values()), seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_victory_tile_from_seat_minus_one_has_no_id(players: int) -> None:
    """``TakeVictory(player, -1, kind)`` names no seat (seats are 0..P-1), so it has no
    action id whichever seat asks: for player 0, -1 read as an offset would be k = P - 1
    (seat P - 1, id 70 + M + (P - 2) * 3 + kind); only for player P - 1 is it k = 0."""
    game = fg.make("living_forest", num_players=players)
    for player in range(players):
        for kind in ("tree", "fire", "flower"):
            with pytest.raises(fg.IllegalMoveError, match="so it has no action id"):
                game.action_id(fg.living_forest.TakeVictory(player, -1, kind))
