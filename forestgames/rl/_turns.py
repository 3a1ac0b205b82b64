"""Whose decision it is, for environments that hand one seat at a time an action id.

A :class:`TurnDriver` wraps a game state for the environments (PettingZoo,
Gymnasium and the OpenSpiel games): it says which seat decides now, gives its
action mask, and applies an action id. It needs neither pettingzoo nor
gymnasium.

Out-of-turn play (Boom Bokken: Flash, Temps Mort, a Gardien's answer) becomes
*reaction turns*. After every move that leaves a seat named, each other seat
still in the round, in an order shuffled by the driver's seeded generator, is
offered one reaction turn, whether or not it holds a card it could play: its
mask is its out-of-turn moves plus PASS (id ``num_actions``). Offering every
seat keeps the turn order public knowledge, so acting, or not, tells nobody who
holds a reaction card. The first seat to react (any id but PASS) plays its move
and the round of reactions starts over from the new position; when all pass,
the named seat plays its own turn (PASS is not offered then).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from forestgames._codec import as_action_id
from forestgames.agents.base import agent_name, is_move_of
from forestgames.core import IllegalMoveError, excerpt

__all__ = ["TurnDriver", "pass_notation"]


def pass_notation(seat: int) -> str:
    """A PASS by ``seat`` in words (``"2:pass"``), as the environments and OpenSpiel's
    ``action_to_string`` write it: a PASS is no move, so it has no notation of its own."""
    return f"{seat}:pass"


class TurnDriver:
    """One game in progress, one decision at a time (see the module docstring)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.codec = game.codec
        self.reactions = bool(game.traits.out_of_turn)
        self.pass_id = self.codec.num_actions if self.reactions else -1
        self.num_ids = self.codec.num_actions + (1 if self.reactions else 0)
        self.state: Any = None
        self.seat: int | None = None
        self.reacting = False
        self._queue: list[int] = []
        self._rng = random.Random(0)
        self._no_ids = np.frombuffer(bytes(self.num_ids), np.int8)
        self._pass_only = np.frombuffer(bytes(self.num_ids - 1) + b"\1", np.int8)
        seats = range(game.num_players)  # [reacting][seat]: the memo's keys of the masks
        self._mask_keys = tuple([("env mask", s, reacting) for s in seats] for reacting in (0, 1))

    def reset(self, seed: int) -> None:
        """A new game from ``seed`` (the game's seed; reaction orders derive from it)."""
        self.state = self.game.new_game(seed=seed)
        self._rng = random.Random(f"forestgames reactions {seed}")
        self._decide()

    def _decide(self) -> None:
        """Pick the next decision after a move: reactions first, then the current player."""
        state = self.state
        if state.is_terminal:
            self.stop()
            return
        queue = list(self.codec.reaction_seats(state)) if self.reactions else []
        if queue:
            self._rng.shuffle(queue)
            self.seat, self.reacting, self._queue = queue[0], True, queue[1:]
        else:
            self.seat, self.reacting = state.current_player, False

    def stop(self) -> None:
        """No decision is left: the game is over, or the episode was ended early (an
        illegal id, an opponent's error)."""
        self.seat, self.reacting, self._queue = None, False, []

    @property
    def is_over(self) -> bool:
        return self.seat is None

    def mask(self, seat: int) -> np.ndarray:
        """(num_ids,) int8: the ids ``seat`` may choose now (all 0 if it is not its turn).

        Read-only and cached per position, seat and kind of turn: copy it to change it."""
        if seat != self.seat:
            return self._no_ids
        state = self.state
        if not self.reactions:
            return self.codec.mask(state, seat)  # type: ignore[no-any-return]
        key = self._mask_keys[self.reacting][seat]
        full: np.ndarray | None = state._memo.get(key)
        if full is not None:
            return full
        if self.reacting and not state.legal_moves(seat):
            full = self._pass_only
        else:
            codec_mask = self.codec.mask_bytes(state, seat)
            full = np.frombuffer(codec_mask + (b"\1" if self.reacting else b"\0"), np.int8)
        state._memo[key] = full
        return full

    def is_legal(self, action: Any) -> bool:
        """Whether ``action`` is an id the seat deciding now may choose (an int, a numpy
        integer or a 0-d integer array)."""
        return self._why_not(action) is None

    def _why_not(self, action: Any) -> str | None:
        """Why ``action`` is not an id the seat deciding now may choose; None if it is."""
        number = as_action_id(action)
        if number is None:
            return f"an action id is an int, not {excerpt(action)}"
        if not 0 <= number < self.num_ids:
            return f"action id {excerpt(number)} is outside 0..{self.num_ids - 1}"
        if self.seat is None:
            return "the game is over"
        if number == self.pass_id:
            return None if self.reacting else f"PASS ({number}) is offered on reaction turns only"
        if not self.codec.mask_bytes(self.state, self.seat)[number]:
            turn = "a reaction turn" if self.reacting else "its turn"
            return f"action {number} is not legal for seat {self.seat} now ({turn}); see the mask"
        return None

    def move_of(self, action: int) -> Any:
        """The move id ``action`` (checked legal) stands for; None for PASS.

        When the mask came from ``legal_moves``, the very move object found there (the
        engine checks it fastest); else the codec's."""
        if action == self.pass_id:
            return None
        seat = self.seat
        assert seat is not None
        state = self.state
        ids = state._memo.get(self.codec._ids_keys[seat])
        if ids is not None:
            return state.legal_moves(seat)[ids.index(action)]
        return self.codec._decode(action, seat)

    def step(self, action: Any) -> Any:
        """Apply id ``action`` for the deciding seat; return its move (None for PASS).

        IllegalMoveError if the id is not legal now (nothing changes).
        """
        seat, state = self.seat, self.state
        if type(action) is int and seat is not None:  # the common cases, checked fast
            if action == self.pass_id and self.reacting:
                self._pass()
                return None
            if 0 <= action < self.codec.num_actions:  # an id of the codec: legal if in the mask
                flags: bytes | None = state._memo.get(self.codec._bytes_keys[seat])
                if flags is None:
                    flags = self.codec.mask_bytes(state, seat)
                if flags[action]:
                    move = self.move_of(action)
                    self.state = state._apply_legal(move)  # the exact mask said it is legal
                    self._decide()
                    return move
        why = self._why_not(action)
        if why is not None:
            raise IllegalMoveError(why)
        move = self.move_of(int(action))  # int(): numpy ids are accepted
        if move is None:
            self._pass()
            return None
        self.state = self.state._apply_legal(move)  # _why_not found it in the mask
        self._decide()
        return move

    def _pass(self) -> None:
        """The seat on a reaction turn passes: the next seat reacts, or the named seat plays."""
        if self._queue:
            self.seat, self._queue = self._queue[0], self._queue[1:]
        else:
            self.seat, self.reacting = self.state.current_player, False

    def play_agent(self, agent: Any) -> Any:
        """Let a built-in agent take the decision now: ``react`` on a reaction turn (a seat
        with nothing to play passes), ``choose`` on its own turn. Returns the move or None.

        IllegalMoveError naming the agent if it returns anything but a legal move of its
        seat now (nothing changes)."""
        seat, state = self.seat, self.state
        assert seat is not None
        if self.reacting:
            react = getattr(agent, "react", None)
            move = react(state, seat) if react is not None and state.legal_moves(seat) else None
            if move is None:
                return self.step(self.pass_id)
        else:
            move = agent.choose(state)
        name = agent_name(agent)
        if not is_move_of(move, seat):  # an id does not say whose move it is
            raise IllegalMoveError(
                f"agent {name} at seat {seat} returned {excerpt(move)}, not a move of its seat"
            )
        try:
            return self.step(self.codec.action_id(move))
        except IllegalMoveError as error:
            raise IllegalMoveError(f"agent {name} at seat {seat}: {error}") from None
