"""Bonsai's action ids and tensor as docs/bonsai.md ("Actions and tensors") states them: the
state's tensor and ``tensor_from_observation``'s are built by two writers the other tests
only compare with each other, so only a reference written from the docs pins what both
write (and the sizes T and the deck that set the layout)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import forestgames as fg
from tests.doc_tables import assert_tensor_fields, one_hot
from tests.strategies import random_game

CARDS = [card.name for card in fg.bonsai.CARD_TYPES]
"""Card type indices: the rows of the card table (``bonsai_cards.csv``), 25 of them."""
PHASES = ("action", "cultivate", "helper", "discard", "goals", "over")
KINDS = ("wood", "leaf", "flower", "fruit")
COLOURS = ("brown", "green", "orange", "pink", "blue")
DECK = {1: 32, 2: 32, 3: 43, 4: 47}
"""Cards in the deck (docs/bonsai.md, Setup): the room of the ``discards`` field."""
TILES = {1: 78, 2: 78, 3: 112, 4: 124}
"""T, the room for tiles of each tree (docs/bonsai.md, Actions and tensors)."""


def _goal(name: str) -> int:
    """A goal's id: colour index * 3 + tier - 1 (``"pink 2"`` is 3 * 3 + 1 = 10)."""
    colour, tier = name.split()
    return COLOURS.index(colour) * 3 + int(tier) - 1


def _goal_row(names: list[str]) -> np.ndarray:
    row = np.zeros(15)
    for name in names:
        row[_goal(name)] = 1
    return row


def _tree(tiles: list[tuple[int, int, str]], room: int) -> np.ndarray:
    """Rows (q, r, wood, leaf, flower, fruit) sorted by (q, r), zero rows up to ``room``."""
    rows = np.zeros((room, 6))
    for i, (q, r, kind) in enumerate(sorted(tiles)):
        rows[i, :2] = q, r
        rows[i, 2 + KINDS.index(kind)] = 1
    return rows


def _docs_fields(p: int, to_move: int | None, obs: dict[str, Any]) -> dict[str, np.ndarray]:
    """Every tensor field of observation ``obs`` from the docs' table alone (seats in
    observer order: block ``k`` is seat ``(observer + k) % p``); ``to_move`` is the seat
    to move (None once the game is over)."""
    seats = [(obs["observer"] + k) % p for k in range(p)]
    players = [obs["players"][s] for s in seats]
    owners = obs["goal_owners"]
    last = obs["last_turn"]
    discards = [1 + CARDS.index(name) for name in obs["discards"]]
    return {
        "phase": one_hot(6, PHASES.index(obs["phase"])),
        "first_player": one_hot(p, seats.index(obs["first_player"])),
        "to_move": one_hot(p, None if to_move is None else seats.index(to_move)),
        "turn": np.array([obs["turn"]]),
        "last_turn": np.array([0, 0] if last is None else [1, last]),
        "deck_size": np.array([obs["deck_size"]]),
        "symbols": np.array([obs["symbols"][name] for name in (*KINDS, "wild")]),
        "market": np.array(
            [one_hot(25, None if name is None else CARDS.index(name)) for name in obs["market"]]
        ),
        "discards": np.array(discards + [0] * (DECK[p] - len(discards))),
        "goals_in_play": _goal_row(obs["goals_in_play"]),
        "supply": np.array([[data["supply"][kind] for kind in KINDS] for data in players]),
        "cards": np.array([[data["cards"].count(name) for name in CARDS] for data in players]),
        "goals": np.array([_goal_row([g for g, s in owners.items() if s == k]) for k in seats]),
        "renounced": np.array([_goal_row(obs["renounced"][s]) for s in seats]),
        "tree_size": np.array([len(data["tree"]) for data in players]),
        "tree": np.array([_tree(data["tree"], TILES[p]) for data in players]),
    }


@pytest.mark.parametrize("at", [(0, -2.0), (3, True), (0, np.float64(-2))])
def test_a_cell_whose_r_is_not_an_int_has_no_id(at: tuple[Any, Any]) -> None:
    """A Place or Prune whose row ``r`` is a float or a bool names no cell of the id table,
    even when it equals the ``r`` of one ((0, -2) and (3, 1) are cells off the pot, within
    W + 2 steps of the bud): it has no action id (IllegalMoveError), like a float ``q``."""
    game = fg.make("bonsai", num_players=2)
    assert (at[0], int(at[1])) in game.codec.cells
    for move in (fg.bonsai.Place(1, "leaf", at), fg.bonsai.Prune(1, at)):
        with pytest.raises(fg.IllegalMoveError, match="so it has no action id"):
            game.action_id(move)


@pytest.mark.parametrize(("players", "seed"), [(1, 1), (1, 2), (2, 1), (3, 1), (4, 1)])
def test_tensor_fields_are_the_docs_fields(players: int, seed: int) -> None:
    """Along a random game every field of every seat's tensor holds what the docs' table
    says of the observation (T = 78 / 78 / 112 / 124 tile rows and 32 / 32 / 43 / 47 discard
    places for 1..4 players), and the layout has exactly those fields."""
    game = fg.make("bonsai", num_players=players)
    for step, (state, _) in enumerate(random_game(game, seed)):
        if step % 8 and not state.is_terminal:
            continue
        to_move = state.current_player

        def fields(obs: dict[str, Any], to_move: int | None = to_move) -> Any:
            return _docs_fields(players, to_move, obs)

        for seat in range(players):
            assert_tensor_fields(game, state, seat, fields, f"seed {seed} step {step}")
