"""A tiny out-of-turn game for testing the generic agents and driver, and its own tests.

Buzz: seats take turns adding 1 or 2 to a counter; the game ends when it
reaches ``target``. Any seat other than the current one may, once per game,
buzz out of turn (+3 points). A seat's score is what it added plus its buzz
bonus; the highest score wins (ties share). ``endless=True`` makes adds count
nothing towards the target, so the game never ends (for move-cap tests).
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from forestgames.core import GameTraits, ParseError, check_seat, new_rng, resolve_seed
from forestgames.core import LegacyStateBase as StateBase


@attrs.frozen
class Add:
    """The current seat adds ``amount`` (1 or 2)."""

    player: int
    amount: int

    def __str__(self) -> str:
        return f"{self.player}:add {self.amount}"


@attrs.frozen
class Buzz:
    """A seat out of turn takes its one-off bonus."""

    player: int

    def __str__(self) -> str:
        return f"{self.player}:buzz"


@attrs.frozen
class BuzzGame:
    """The Buzz game with its options fixed."""

    name = "buzz"
    num_players: int = 2
    target: int = 10
    endless: bool = False

    @property
    def traits(self) -> GameTraits:
        return GameTraits("buzz", 2, 3, False, False, True, 2 * self.target, (0, 3 + self.target))

    def options(self) -> dict[str, Any]:
        return {"num_players": self.num_players, "target": self.target, "endless": self.endless}

    def new_game(self, seed: int | None = None, first_player: int | None = None) -> BuzzState:
        seed = resolve_seed(seed)
        if first_player is None:
            first_player = int(new_rng(seed).integers(self.num_players))
        first_player = check_seat(self.num_players, first_player)
        zeros = (0,) * self.num_players
        return BuzzState(self, 0, first_player, zeros, (False,) * self.num_players, zeros)

    def parse_move(self, text: str) -> Add | Buzz:
        seat, _, rest = text.strip().partition(":")
        if seat.isdigit() and rest in ("add 1", "add 2"):
            return Add(int(seat), int(rest[-1]))
        if seat.isdigit() and rest == "buzz":
            return Buzz(int(seat))
        raise ParseError(f"{text!r} is not a Buzz move")


@attrs.frozen
class BuzzState(StateBase):
    """A Buzz position."""

    game: BuzzGame
    counter: int
    turn: int
    added: tuple[int, ...]
    buzzed: tuple[bool, ...]
    bonus: tuple[int, ...]

    @property
    def is_terminal(self) -> bool:
        return self.counter >= self.game.target

    @property
    def current_player(self) -> int | None:
        return None if self.is_terminal else self.turn

    @property
    def players_to_act(self) -> tuple[int, ...]:
        if self.is_terminal:
            return ()
        others = tuple(
            s for s in range(self.game.num_players) if s != self.turn and not self.buzzed[s]
        )
        return (self.turn, *others)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(a + b for a, b in zip(self.added, self.bonus, strict=True))

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.is_terminal:
            return ()
        best = max(self.scores)
        return tuple(s for s, v in enumerate(self.scores) if v == best)

    def _moves_of(self, player: int) -> tuple[Add | Buzz, ...]:
        if player == self.turn:
            return (Add(player, 1), Add(player, 2))
        return () if self.buzzed[player] else (Buzz(player),)

    def _apply(self, move: Add | Buzz) -> BuzzState:
        p = move.player
        if isinstance(move, Buzz):
            buzzed = tuple(b or s == p for s, b in enumerate(self.buzzed))
            bonus = tuple(v + 3 * (s == p) for s, v in enumerate(self.bonus))
            return attrs.evolve(self, buzzed=buzzed, bonus=bonus)
        added = tuple(v + move.amount * (s == p) for s, v in enumerate(self.added))
        step = 0 if self.game.endless else move.amount
        return attrs.evolve(
            self,
            counter=self.counter + step,
            turn=(self.turn + 1) % self.game.num_players,
            added=added,
        )

    def determinize(self, player: int, seed: int) -> BuzzState:
        return self

    def render(self) -> str:
        return f"counter {self.counter}/{self.game.target}, seat {self.turn} to add"


def test_buzz_offers_out_of_turn_moves():
    """Seats that have not buzzed may act out of turn, after the current seat."""
    state = BuzzGame(3).new_game(seed=1, first_player=1)
    assert state.players_to_act == (1, 0, 2)
    state = state.apply(Buzz(2))
    assert state.players_to_act == (1, 0)
    assert state.scores == (0, 0, 3)


def test_buzz_ends_at_target_and_parses():
    """The game ends when the counter reaches the target; notation round-trips."""
    game = BuzzGame(2, target=3)
    state = game.new_game(seed=0, first_player=0).apply(Add(0, 2)).apply(Add(1, 1))
    assert state.is_terminal and state.winners == (0,)
    for move in (Add(1, 2), Buzz(0)):
        assert game.parse_move(str(move)) == move
    with pytest.raises(ParseError):
        game.parse_move("0:add 3")
