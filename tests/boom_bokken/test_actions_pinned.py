"""Boom Bokken's tensor, field by field as docs/boom_bokken.md describes it: the codec's
round and known-card writers build both the state's tensor and ``tensor_from_observation``'s,
so only a reference written from the docs pins what they write."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import forestgames as fg
from tests.doc_tables import assert_tensor_fields, one_hot
from tests.strategies import random_game

CODES = ("T", "1", "2", "3", "4", "5", "6", "7", "8", "F1", "F2", "F3", "F4", "F5", "F6", "F7")
CODES += ("F8",)
"""Card codes: ``T`` 0, ``1``..``8`` 1..8, ``F1``..``F8`` 9..16 (the docs)."""
ROLES = ("gardien", "cogneur", "coureur")


def _docs_fields(game: Any, obs: dict[str, Any]) -> dict[str, np.ndarray]:
    """Every tensor field of observation ``obs``, built from the docs' table alone (seats in
    observer order: block ``k`` is seat ``(observer + k) % P``)."""
    p, me = game.num_players, obs["observer"]
    teams, rounds, codes = len(game.team_sizes), 3, len(CODES)
    seats = [(me + k) % p for k in range(p)]

    def rel(seat: int | None) -> int | None:
        return None if seat is None else seats.index(seat)

    def ranks(order: list[int]) -> np.ndarray:
        return np.array([order.index(s) + 1 if s in order else 0 for s in seats])

    def counts(cards: list[str]) -> np.ndarray:
        return np.array([cards.count(code) for code in CODES])

    pile = [CODES.index(card) for card in obs["pile"]]
    fields = {
        "hand": counts(obs["hand"]),
        "hand_sizes": np.array([obs["hand_sizes"][s] for s in seats]),
        "deck_size": np.array([obs["deck_size"]]),
        "aside": np.array([obs["aside"]]),
        "safe": ranks(obs["safe"]),
        "exploded": ranks(obs["exploded"]),
        "leader": one_hot(p, rel(obs["leader"])),
        "target": one_hot(p, rel(obs["target"])),
        "announce": one_hot(
            2, None if obs["target"] is None else ("lower", "higher").index(obs["announce"])
        ),
        "last_player": one_hot(p, rel(obs["last_player"])),
        "tokens": np.array([obs["tokens"][s] for s in seats]),
        "pile_top": one_hot(codes, pile[-1] if pile else None),
        "pile_counts": counts(obs["pile"]),
        "pile": np.array(pile + [0] * (sum(game.deck[1:]) - len(pile))),
        "round": one_hot(rounds, obs["round"] - 1),
        "over": np.array([float(obs["over"])]),
        "teams": np.array([one_hot(teams, obs["teams"][s]) for s in seats]),
        "roles": np.array(
            [one_hot(3, ROLES.index(obs["roles"][s]) if obs["roles"] else None) for s in seats]
        ),
        "history_safe": np.zeros((rounds, p)),
        "history_teams": np.zeros((rounds, p, teams)),
        "deck_bottom_counts": counts(obs["deck_bottom"]),
        "deck_bottom": np.zeros(sum(game.deck)),
        "known_cards": np.array([counts(obs["known_cards"][s]) for s in seats]),
        "exploded_on": np.zeros((p, codes + 3)),
    }
    for r, past in enumerate(obs["history"]):
        fields["history_safe"][r] = ranks(past["safe_order"])
        fields["history_teams"][r] = [one_hot(teams, past["teams"][s]) for s in seats]
    for position, card in enumerate(obs["deck_bottom"]):
        fields["deck_bottom"][position] = CODES.index(card) + 1
    for seat, fact in zip(obs["exploded"], obs["exploded_on"], strict=True):
        row = fields["exploded_on"][rel(seat)]
        if fact is None:
            row[-1] = 1
        else:
            row[CODES.index(fact[0])] = row[codes + ("lower", "higher").index(fact[1])] = 1
    if "flashers" in obs:
        fields["flashers"] = np.array([float(s in obs["flashers"]) for s in seats])
    return fields


def _check(game: Any, state: Any, seat: int, where: str) -> None:
    """Seat ``seat``'s tensor, and the one built from its observation, are the docs' fields."""
    assert_tensor_fields(game, state, seat, lambda obs: _docs_fields(game, obs), where)


@pytest.mark.parametrize(
    "options",
    [
        {"num_players": 4},
        {"num_players": 7},
        {"num_players": 6, "expert": True},
        {"num_players": 5, "distinct_flashers": True},
    ],
)
def test_tensor_fields_are_the_docs_fields(options: dict[str, Any]) -> None:
    """Along random games every field of every seat's tensor holds what the docs' table says
    of the observation (round, over, teams, roles, finished rounds, known cards, what exploded
    seats could not answer, ...), and the layout has exactly those fields."""
    game = fg.make("boom_bokken", **options)
    seen_history = seen_roles = seen_over = False
    for seed in (1, 2):
        for step, (state, _) in enumerate(random_game(game, seed)):
            if step % 8 and not state.is_terminal:
                continue
            for seat in range(game.num_players):
                _check(game, state, seat, f"seed {seed} step {step} seat {seat}")
            obs = state.observation(0)
            seen_history |= len(obs["history"]) > 1
            seen_roles |= obs["roles"] is not None
            seen_over |= obs["over"]
    assert seen_history and seen_over and seen_roles == options.get("expert", False)


def test_known_cards_and_both_kinds_of_explosion_in_every_seats_tensor() -> None:
    """A loaded position random games rarely reach: three seats with cards all know of,
    seat 2 exploded on "higher than F6", seat 0 as a leader holding only Temps Mort, a known
    deck bottom of three cards. Every seat's tensor is the docs' fields; for observer 1
    seat 0 is block 3, its ``exploded_on`` row only its last column, and seat 2 (block 1)
    has 1 at code 14 (F6) and column 18 (higher)."""
    hands = [["T"], ["T", "T", "1", "6", "8", "F6"], ["1", "2"], ["T", "1", "2", "4", "5", "6"]]
    hands[3].append("7")
    deck = "F1 F4 4 1 F5 4 3 2 8 6 3 3 5 7 7 F2 4 8 F7 4 5 5 F2 F3 6 T 3 6 2 4 F6 1 T F5 F3"
    deck += " F7 8 2 F8 3 7 F1 1 2 3 5 5 7 8 F4 6 7 F8 8"
    game = fg.make("boom_bokken", num_players=4)
    state = game.state_from_dict(
        {
            "game": "boom_bokken", "num_players": 4, "seed": 0, "hands": hands,
            "deck": deck.split(), "round": 2, "over": False, "teams": [1, 0, 0, 1],
            "roles": None, "pile": [], "aside": 0, "safe": [], "exploded": [2, 0], "leader": 1,
            "target": None, "announce": None, "last_player": None, "tokens": [1, 1, 1, 1],
            "history": [{"safe_order": [1], "teams": [1, 0, 0, 1]}],
            "known_cards": [["T"], ["T", "6"], ["2"], []],
            "exploded_on": [["F6", "higher"], None], "known_bottom": 3,
        }
    )  # fmt: skip
    for seat in range(4):
        _check(game, state, seat, f"seat {seat}")
    exploded_on = game.codec.layout.field(state.observation_tensor(1), "exploded_on")
    assert np.flatnonzero(exploded_on[3]).tolist() == [19]
    assert np.flatnonzero(exploded_on[1]).tolist() == [14, 18]
