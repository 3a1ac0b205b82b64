"""The shared conformance harness: the protocol of DESIGN.md, checked on any game.

Each game's test suite calls :func:`check_conformance` for each player count
(and option set) it supports. Every check raises AssertionError with a message
that names the game, the seed and the step.
"""

from __future__ import annotations

import copy
import importlib
import json
import random
from typing import Any

import pytest

import forestgames as fg
from tests.strategies import random_game


class _NotAMove:
    player = 0

    def __repr__(self) -> str:
        return "<not a move>"


def check_conformance(game: Any, seeds: tuple[int, ...] = (0, 1, 2), deep_every: int = 7) -> None:
    """Play random games of ``game`` and check the whole shared protocol on them.

    Every ``deep_every``-th state gets the expensive checks (round trips,
    determinization, error handling); every state gets the cheap ones.
    """
    assert game.name in fg.GAME_NAMES
    assert fg.make(game.name, **game.options()) == game, "options() must rebuild the game"
    for seed in seeds:
        _check_one_game(game, seed, deep_every)
    _check_reproducible(game, seeds[0])
    _check_first_player(game)
    _check_bad_input(game)


def _check_one_game(game: Any, seed: int, deep_every: int) -> None:
    rng = random.Random(seed)
    last = None
    for step, (state, move) in enumerate(random_game(game, seed)):
        where = f"{game.name} seed {seed} step {step}"
        moves = state.legal_moves()
        assert moves == state.legal_moves(), f"{where}: legal_moves not deterministic"
        if state.is_terminal:
            assert state.current_player is None and moves == (), where
            assert state.players_to_act == (), where
            assert all(0 <= w < game.num_players for w in state.winners), where
            assert state.winners or game.num_players == 1, (
                f"{where}: nobody won (a lost solo game may)"
            )
            assert len(state.scores) == game.num_players, where
            last = state
            break
        acting = state.players_to_act
        assert acting, f"{where}: nobody may act in a live state"
        assert state.current_player is None or acting[0] == state.current_player, where
        for seat in range(game.num_players):
            assert bool(state.legal_moves(seat)) == (seat in acting), f"{where}: seat {seat}"
        assert state.winners == (), f"{where}: winners before the end"
        for seat in acting:
            for m in state.legal_moves(seat):
                assert m.player == seat, f"{where}: {m!r} belongs to another seat"
                assert game.parse_move(str(m)) == m, f"{where}: notation round trip of {m!r}"
        if step % deep_every == 0:
            _check_deep(game, state, move, where, rng)
        before = state.to_dict()
        successor = state.apply(move)
        assert state.to_dict() == before, f"{where}: apply mutated the state"
        assert successor != state, f"{where}: apply returned an equal state"
        hash(successor)
    assert last is not None


def _check_deep(game: Any, state: Any, move: Any, where: str, rng: random.Random) -> None:
    data = state.to_dict()
    text = json.dumps(data)
    restored = game.state_from_dict(json.loads(text))
    assert restored == state, f"{where}: to_dict/state_from_dict round trip"
    assert hash(restored) == hash(state), f"{where}: equal states hash differently"
    assert restored.legal_moves() == state.legal_moves(), where
    assert isinstance(state.render(), str) and state.render(), where
    namespace = vars(importlib.import_module(type(move).__module__))
    assert eval(repr(move), namespace) == move, f"{where}: repr of {move!r} does not evaluate back"
    for seat in range(game.num_players):
        observation = state.observation(seat)
        json.dumps(observation)
        sample = state.determinize(seat, rng.randrange(2**31))
        assert sample.observation(seat) == observation, f"{where}: determinize({seat}) changed view"
        assert sample.legal_moves(seat) == state.legal_moves(seat), where
    # A move by a seat that may not act now, and a foreign object, are refused.
    with pytest.raises(fg.IllegalMoveError):
        state.apply(_NotAMove())
    with pytest.raises(fg.IllegalMoveError):
        state.apply("not a move")
    assert state.to_dict() == data, f"{where}: a refused move changed the state"
    broken = copy.deepcopy(data)
    broken.pop(next(iter(broken)))
    with pytest.raises(fg.StateError):
        game.state_from_dict(broken)


def _check_reproducible(game: Any, seed: int) -> None:
    run1 = [(s.to_dict(), m) for s, m in random_game(game, seed)]
    run2 = [(s.to_dict(), m) for s, m in random_game(game, seed)]
    assert run1 == run2, f"{game.name}: seed {seed} does not reproduce the game"
    record = fg.GameRecord.start(game, seed).with_moves(m for _, m in run1 if m is not None)
    replayed = fg.GameRecord.from_json(record.to_json()).replay()
    assert replayed[-1].to_dict() == run1[-1][0], f"{game.name}: record replay differs"


def _check_first_player(game: Any) -> None:
    for seat in range(game.num_players):
        state = game.new_game(seed=3, first_player=seat)
        assert state.players_to_act[0] == seat or state.current_player == seat, (
            f"{game.name}: first_player={seat} not honoured"
        )
    with pytest.raises(fg.ConfigError):
        game.new_game(seed=3, first_player=game.num_players)
    with pytest.raises(fg.ConfigError):
        game.new_game(seed=-1)


def _check_bad_input(game: Any) -> None:
    for text in ("", "   ", "nonsense", "\x00", "9" * 50):
        with pytest.raises(fg.ParseError):
            game.parse_move(text)
    for bad in (None, [], {}, "state", {"game": "nope"}):
        with pytest.raises(fg.StateError):
            game.state_from_dict(bad)
    with pytest.raises(fg.ConfigError):
        fg.make(game.name, num_players=99)
    with pytest.raises(fg.ConfigError):
        fg.make(game.name, no_such_option=1)
