"""Engine-base behaviours a mutation audit of ``forestgames/core.py`` found unpinned: fresh
and derived seeds, and the base's checks that the games' own tests never reach."""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import pytest

import forestgames as fg
from forestgames import core
from forestgames.core import GameBase, derive_seed

FRESH = 40
"""Fresh seeds drawn per test: all of them below 2**62 has a chance of 2**-40."""


def test_an_unseeded_agent_or_game_draws_a_fresh_63_bit_seed() -> None:
    """seed=None draws a fresh seed from the OS that the result keeps (docs/simulation.md):
    an int in 0 .. 2**63 - 1 spread over all 63 bits, new each time, and the game replays."""
    seeds = [fg.RandomAgent(None).seed for _ in range(FRESH)]
    assert all(type(seed) is int and 0 <= seed < 2**63 for seed in seeds)
    assert len(set(seeds)) == FRESH and max(seeds) >= 2**62
    game = fg.make("boom_bokken", num_players=4)
    records = [fg.play(game, ["random"] * 4, seed=None) for _ in range(2)]
    assert all(type(r.seed) is int and 0 <= r.seed < 2**63 for r in records)
    assert records[0].seed != records[1].seed
    for record in records:
        again = fg.GameRecord.from_json(record.to_json())
        assert again.replay() == fg.play(game, ["random"] * 4, seed=record.seed).replay()


def test_derived_seeds_are_63_bit_distinct_and_stable_across_versions() -> None:
    """derive_seed(S, *keys), game k's seed in a run seeded S, is an int below 2**63 using
    all 63 bits, different for each key; and its values are those of every release since
    0.1, so a published run replays the same games (a change is a breaking one)."""
    seeds = [derive_seed(seed, key) for seed in range(4) for key in range(50)]
    assert all(type(seed) is int and 0 <= seed < 2**63 for seed in seeds)
    assert len(set(seeds)) == len(seeds) and max(seeds).bit_length() == 63
    assert derive_seed(0, 0) == 6375474604893067239
    assert derive_seed(0, 1) == 8514611595815388268
    assert derive_seed(12345, 7) == 781651744158402329
    assert derive_seed(1, 2, 3) == 8208089874740249663


def test_a_seed_is_any_int_from_0_to_2_to_the_64_minus_1() -> None:
    """The one rule for seeds (core.check_seed, docs/rl.md): every int in 0 .. 2**64 - 1,
    both ends included, starts a game; -1 and 2**64 are ConfigErrors naming the range."""
    game = fg.make("boom_bokken", num_players=4)
    assert game.new_game(seed=0) != game.new_game(seed=2**64 - 1)  # other deals
    for bad in (-1, 2**64):
        with pytest.raises(fg.ConfigError, match=r"seed must be in 0\.\.18446744073709551615"):
            game.new_game(seed=bad)


def test_a_zero_dimensional_array_is_not_a_list() -> None:
    """A 0-d numpy array passes numpy's Iterable check but cannot be iterated: where a list
    is due (a record's moves, a progress table, a safe order) it is the library's error."""
    record = fg.GameRecord.start(fg.make("bosk", num_players=2), seed=1)
    with pytest.raises(fg.ConfigError, match=r"moves must be a list .* shape \(\)"):
        record.with_moves(np.array("0:plant 3@3,2"))
    with pytest.raises(fg.StateError, match=r"progress must list .* shape \(\)"):
        fg.living_forest.decide_winners(np.array(5))
    with pytest.raises(fg.StateError, match=r"safe_order must be a list .* shape \(\)"):
        fg.boom_bokken.round_coins(np.array(1), [0, 1, 2, 3])


def test_mcts_takes_zero_exploration_and_zero_confidence() -> None:
    """MCTS's c (UCB1's exploration constant) and z (``0`` never defers to Greedy) take 0
    (docs/simulation.md), and the agent plays; below 0 is a ConfigError naming the argument."""
    state = fg.make("bosk", num_players=2).new_game(seed=0)
    agent = fg.MCTSAgent(iterations=20, exploration=0, confidence=0, seed=0)
    assert (agent.exploration, agent.confidence) == (0.0, 0.0)
    assert agent.choose(state) in state.legal_moves()
    for name in ("exploration", "confidence"):
        with pytest.raises(fg.ConfigError, match=rf"{name} must be a finite number >= 0"):
            fg.MCTSAgent(iterations=20, seed=0, **{name: -0.5})


def test_an_option_error_names_its_game_once() -> None:
    """make()'s option errors name the game: a message that already names it (the player
    count's) is kept as it is, any other gets the game's title in front, never twice."""
    with pytest.raises(fg.ConfigError) as seats:
        fg.make("bosk", num_players=5)
    assert str(seats.value) == "Bosk is played by 2 to 4 players, not 5"
    with pytest.raises(fg.ConfigError) as flag:
        fg.make("bosk", num_players=2, squirrel_exactly_three="x")
    assert str(flag.value) == "Bosk: option squirrel_exactly_three must be True or False, not 'x'"


def test_a_record_holds_a_list_of_at_most_a_million_moves() -> None:
    """GameRecord's moves are a list of notations (docs/index.md: at most 1,000,000): a
    million are kept, one more or a bare int is a ConfigError, not Python's TypeError."""
    fields = ("bosk", {"num_players": 2}, 1, None)
    assert len(fg.GameRecord(*fields, ["0:pass"] * 1_000_000).moves) == 1_000_000
    with pytest.raises(fg.ConfigError, match="at most 1,000,000 moves, not 1,000,001"):
        fg.GameRecord(*fields, ["0:pass"] * 1_000_001)
    with pytest.raises(fg.ConfigError, match="moves are a list of notations, not 5"):
        fg.GameRecord(*fields, 5)


def test_a_record_built_directly_checks_its_names_and_first_seat() -> None:
    """GameRecord(...) itself keeps docs/index.md's bounds, not only from_json: an option
    named in exactly 64 characters is kept and one of 65 refused; first_player 0 is kept,
    and -1 is a ConfigError when the record is built, before any replay."""
    longest = "o" * 64
    record = fg.GameRecord("bosk", {"num_players": 2, longest: 1}, 1, 0, ())
    assert record.first_player == 0 and longest in record.options
    with pytest.raises(fg.ConfigError, match="at most 64 options, named in at most 64"):
        fg.GameRecord("bosk", {"num_players": 2, longest + "o": 1}, 1, 0, ())
    with pytest.raises(fg.ConfigError, match="first_player must be >= 0, not -1"):
        fg.GameRecord("bosk", {"num_players": 2}, 1, -1, ())


def test_an_unknown_game_lists_the_known_ones() -> None:
    """make() of an unknown name suggests the nearest name and lists every registered game
    (the four shipped ones, in registration order), so the user sees what to type."""
    with pytest.raises(fg.ConfigError) as caught:
        fg.make("bsk")
    assert str(caught.value) == (
        "unknown game 'bsk' (did you mean 'bosk'?); known games: "
        "bosk, bonsai, living_forest, boom_bokken"
    )


class _FactoryA:
    """A callable object as a game factory (it has a module but no qualified name)."""

    def __call__(self, **options: Any) -> Any:
        return fg.make("bosk", **options)


class _FactoryB(_FactoryA):
    """Another callable object of the same module."""


def test_two_callable_objects_are_two_factories(monkeypatch: pytest.MonkeyPatch) -> None:
    """register_game tells factories apart by module and qualified name only where both
    exist: two callable objects of one module are different factories, so the second
    cannot silently take the first one's name (the same object again may)."""
    monkeypatch.setattr(core, "_REGISTRY", dict(core._REGISTRY))
    first = _FactoryA()
    fg.register_game("objects", first)
    fg.register_game("objects", first)
    with pytest.raises(fg.ConfigError, match="registered already"):
        fg.register_game("objects", _FactoryB())


@attrs.frozen(slots=False)
class _Bare(GameBase[Any, Any], name="bare", players=(2, 2)):
    """A game class that implements none of the base's required hooks."""

    num_players: int = 2


def test_a_missing_hook_is_named() -> None:
    """A game class without a required hook fails where the hook is needed, naming the
    class and the hook and pointing at CONTRIBUTING.md (a message of None said nothing)."""
    for call, hook in (
        (lambda: _Bare().traits, "_max_moves()"),
        (lambda: _Bare()._score_range(), "_score_range()"),
        (lambda: _Bare()._parse_move("0:x"), "_parse_move(text)"),
    ):
        with pytest.raises(NotImplementedError) as caught:
            call()
        assert str(caught.value) == f"_Bare must implement {hook} (see CONTRIBUTING.md, the hooks)"


def _nested(depth: int, container: str) -> Any:
    """A value nested ``depth`` levels below the options dict (``container``: list or dict)."""
    value: Any = 0
    for _ in range(depth - 1):
        value = [value] if container == "list" else {"k": value}
    return value


def test_record_options_are_bounded_at_exactly_the_documented_limits() -> None:
    """docs/index.md: options of at most 100,000 JSON values nested at most 32 deep. The
    options dict and a list of 99,998 ints are exactly 100,000 values, kept; one more int is
    refused. Lists and dicts nested 32 levels below the options are kept, 33 refused."""

    def record(options: dict[str, Any]) -> fg.GameRecord:
        return fg.GameRecord("bosk", options, 1, None, ())

    assert len(record({"x": [0] * 99_998}).options["x"]) == 99_998
    with pytest.raises(fg.ConfigError, match="more than 100,000 values"):
        record({"x": [0] * 99_999})
    for container in ("list", "dict"):
        assert record({"x": _nested(32, container)}).options == {"x": _nested(32, container)}
        with pytest.raises(fg.ConfigError, match="nest deeper than 32 levels"):
            record({"x": _nested(33, container)})


class _Uncopyable(np.ndarray):
    """An array that fails the test if anything copies it into lists."""

    def tolist(self) -> Any:
        raise AssertionError("an array over the limit was copied before it was refused")


def test_a_numpy_option_becomes_lists_and_a_large_one_is_refused_uncopied() -> None:
    """A numpy array in a record's options is kept as the lists JSON writes (a Bosk terrain
    given as an array replays that map); an array of more than 100,000 values is refused
    by its size, before it is copied into lists (docs/index.md's limit, "refused at once")."""
    terrain = np.array(fg.make("bosk", num_players=2).terrain)
    record = fg.GameRecord("bosk", {"num_players": 2, "terrain": terrain}, 1, None, ())
    assert record.options["terrain"] == terrain.tolist()
    assert fg.GameRecord.from_json(record.to_json()).make_game() == record.make_game()
    large = np.zeros(100_001, np.int8).view(_Uncopyable)
    with pytest.raises(fg.ConfigError, match="more than 100,000 values"):
        fg.GameRecord("bosk", {"terrain": large}, 1, None, ())
