"""Shared pieces of the fuzz targets: the instrumented import, real positions, the
structure-aware JSON mutator and the checks a loaded state must pass.

Not part of the package nor of the test suite: see fuzz/README.md.
"""

from __future__ import annotations

import copy
import json
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import atheris

with atheris.instrument_imports(include=["forestgames"]):
    import forestgames as fg

__all__ = [
    "CASES",
    "LIBRARY_ERROR",
    "case_game",
    "check_timed",
    "exercise",
    "fg",
    "json_mutator",
    "run",
    "sample_states",
    "states_of",
]

LIBRARY_ERROR = fg.ForestGamesError
# A call slower than this is reported (libFuzzer's instrumentation slows the library by
# about 2-4x; a report is re-timed without it before it counts as a defect).
SLOW_SECONDS = 3.0
# (game name, players) for every game: its fewest players and its most (Boom Bokken's 6).
CASES = [
    ("bosk", 2),
    ("bosk", 4),
    ("bonsai", 1),
    ("bonsai", 3),
    ("living_forest", 2),
    ("living_forest", 4),
    ("boom_bokken", 4),
    ("boom_bokken", 6),
]
# Rules variants the larger cases play (Boom Bokken's Expert roles have moves of their own).
CASE_OPTIONS: dict[tuple[str, int], dict[str, Any]] = {
    ("bosk", 4): {"squirrel_exactly_three": True},
    ("bonsai", 3): {"goal_setup": "published", "end_rule": "extra_turn"},
    ("living_forest", 4): {"duplicate_trees": False, "varan_returns": True},
    ("boom_bokken", 6): {"expert": True},
}


def case_game(name: str, players: int) -> Any:
    """The game of one case (its variant's options, if it has one)."""
    return fg.make(name, num_players=players, **CASE_OPTIONS.get((name, players), {}))


# Values a mutated field takes: edges of ints, other JSON kinds, near-misses.
ODD_VALUES: list[Any] = [
    -1,
    0,
    1,
    2,
    7,
    255,
    256,
    -(2**31),
    2**31,
    2**63,
    10**30,
    -(10**30),
    0.5,
    1.0,
    float("nan"),
    float("inf"),
    -float("inf"),
    True,
    False,
    None,
    "",
    "0",
    "x",
    "N",
    "wood",
    "\x00",
    "é" * 3,
    [],
    [0],
    [-1],
    [[]],
    [None],
    [0, 0],
    [[0, 0]],
    {},
    {"": 0},
    {"0": 0},
    {"a": []},
]


def states_of(game: Any, seed: int, every: int = 1) -> list[Any]:
    """The states of one random legal game of ``game`` (every ``every``-th, the last one
    kept)."""
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    states = [state]
    while not state.is_terminal and len(states) < 400:
        state = state.apply(rng.choice(state.legal_moves()))
        states.append(state)
    return states[::every] + ([states[-1]] if (len(states) - 1) % every else [])


def sample_states(per_case: int = 4) -> dict[tuple[str, int], list[Any]]:
    """A few states along a random game of every case (fixed seeds: runs are repeatable)."""
    found = {}
    for name, players in CASES:
        states = states_of(case_game(name, players), seed=players)
        step = max(1, len(states) // per_case)
        found[(name, players)] = states[::step][:per_case] + [states[-1]]
    return found


def check_timed(what: str, started: float) -> None:
    """Fail if the call that began at ``started`` took longer than :data:`SLOW_SECONDS`."""
    took = time.perf_counter() - started
    if took > SLOW_SECONDS:
        raise AssertionError(f"{what} took {took:.1f} s")


def exercise(state: Any, seed: int = 0, quick: bool = False) -> None:
    """Everything a loaded state must do without an error other than the library's
    (``quick``: apply only its first legal move, and no determinized state's check)."""
    game = state.game
    moves = state.legal_moves()
    for move in moves[:1] if quick else moves[:: max(1, len(moves) // 8)]:
        after = state.apply(move)
        assert game.state_from_dict(after.to_dict()) == after, f"after {move}: no round trip"
    saved = state.to_dict()
    text = json.dumps(saved)
    again = game.state_from_dict(json.loads(text))
    assert again == state, "to_dict does not load back equal"
    assert game.state_from_dict(saved) == state, "to_dict does not load back equal (no JSON)"
    state.render()
    state.to_svg()
    assert len(state.scores) == state.num_players
    assert isinstance(state.winners, tuple)
    assert isinstance(state.players_to_act, tuple)
    state.legal_action_mask()
    for seat in range(state.num_players):
        state.observation(seat)
        state.observation_tensor(seat)
        state.legal_moves(seat)
        state.legal_action_mask(seat)
        state.render(seat)
        if not state.is_terminal:
            sample = state.determinize(seat, seed)
            if not quick:
                assert game.state_from_dict(sample.to_dict()) == sample, "determinized"
                assert sample.observation(seat) == state.observation(seat), "seat's view"
    if game.name == "bosk":  # the lockstep engine takes any state the scalar one loads
        assert fg.bosk.VectorBosk.from_states([state]).state(0) == state, "VectorBosk"
    for move in moves[:20]:
        game.action_id(move)
        assert game.parse_move(str(move)) == move, f"{move!r} does not parse back"


def walk(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into a JSON value (dict keys and list indices), the root included."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, (*path, index))


def get(value: Any, path: tuple[Any, ...]) -> Any:
    """The value at ``path``."""
    for step in path:
        value = value[step]
    return value


def near(rng: random.Random, old: Any) -> Any:
    """A value near ``old`` or one of :data:`ODD_VALUES`."""
    if isinstance(old, bool) or rng.random() < 0.5:
        return copy.deepcopy(rng.choice(ODD_VALUES))
    if isinstance(old, int):
        return old + rng.choice([-2, -1, 1, 2, 100, -old - 1])
    if isinstance(old, str):
        if old and rng.random() < 0.5:
            cut = rng.randrange(len(old))
            return old[:cut] + old[cut + 1 :]
        return old + rng.choice(["", "0", " ", "x", old])
    if isinstance(old, list):
        if old and rng.random() < 0.5:
            return old[:-1] if rng.random() < 0.5 else old + [old[-1]]
        return [*old, copy.deepcopy(rng.choice(ODD_VALUES))]
    if isinstance(old, dict) and old:
        key = rng.choice(sorted(old))
        return {k: v for k, v in old.items() if k != key}
    return copy.deepcopy(rng.choice(ODD_VALUES))


def edit(data: Any, rng: random.Random, donors: Sequence[Any] = ()) -> Any:
    """``data`` with one to three fields changed, dropped, added, swapped, or taken from
    the same place in a donor document (another real one of the same kind)."""
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        paths = list(walk(data))
        path = rng.choice(paths)
        old = get(data, path)
        roll = rng.random()
        if roll < 0.25 and donors:
            try:
                new = get(rng.choice(donors), path)
            except (KeyError, IndexError, TypeError):
                new = near(rng, old)
        elif roll < 0.35 and isinstance(old, list) and len(old) > 1:
            new = list(old)
            i, j = rng.sample(range(len(new)), 2)
            new[i], new[j] = new[j], new[i]
        elif roll < 0.45:  # another field's value of the same document
            new = get(data, rng.choice(paths))
        else:
            new = near(rng, old)
        new = json.loads(json.dumps(new))
        if not path:
            data = new
            continue
        parent = get(data, path[:-1])
        if isinstance(parent, dict) and rng.random() < 0.05:
            del parent[path[-1]]
        else:
            parent[path[-1]] = new
        data = json.loads(json.dumps(data))  # no value shared between two places
    return data


def json_mutator(seeds: list[bytes]) -> Callable[[bytes, int, int], bytes]:
    """A libFuzzer custom mutator: JSON input gets structured edits (most of the time),
    anything else (and sometimes JSON too) libFuzzer's byte mutations; empty input
    restarts from a seed."""
    parsed = [doc for doc in map(json.loads, seeds) if isinstance(doc, dict)]

    def mutate(data: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        if not data.strip() or rng.random() < 0.01:
            data = rng.choice(seeds)
        if rng.random() < 0.8:
            try:
                value = json.loads(data)
            except (ValueError, RecursionError):
                pass
            else:
                kind = value.get("game") if isinstance(value, dict) else None
                donors = [doc for doc in parsed if doc.get("game") == kind]
                out = json.dumps(edit(value, rng, donors), ensure_ascii=rng.random() < 0.5)
                encoded = out.encode("utf-8", "surrogatepass")
                if len(encoded) <= max_size:
                    return encoded
        return bytes(atheris.Mutate(data, max_size))

    return mutate


def run(
    test: Callable[[bytes], None],
    seeds: list[bytes] | None = None,
    mutator: Callable[[bytes, int, int], bytes] | None = None,
) -> None:
    """Start libFuzzer on ``test``; ``seeds`` are written to the corpus folder given as the
    first folder argument if it is empty (so a run starts from real data)."""
    folders = [arg for arg in sys.argv[1:] if not arg.startswith("-")]
    corpus = Path(folders[0]) if folders else None
    if corpus is not None and not corpus.is_file():  # a file: rerun that input
        corpus.mkdir(parents=True, exist_ok=True)
        if seeds and not any(corpus.iterdir()):
            for index, seed in enumerate(seeds):
                (corpus / f"seed-{index:04d}").write_bytes(seed)
    atheris.Setup(sys.argv, test, custom_mutator=mutator)
    atheris.Fuzz()
