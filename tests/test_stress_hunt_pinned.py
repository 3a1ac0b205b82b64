"""Refusals within a second, and threads: behaviours a bug hunt of slow or memory-filling
calls on extreme input, and of games and states shared by threads, found wrong or unpinned."""

from __future__ import annotations

import threading
import time
import tracemalloc
from typing import Any

import attrs
import numpy as np
import pytest

import forestgames as fg
from forestgames.boom_bokken import Play
from forestgames.boom_bokken import rules as boom_bokken_rules
from forestgames.bosk import PlantTree


def _nested(depth: int) -> tuple[Any, ...]:
    """A tuple holding a tuple holding ... ``depth`` levels deep."""
    value: tuple[Any, ...] = ()
    for _ in range(depth):
        value = (value,)
    return value


def _refusals(game: Any, state: Any, move: Any) -> None:
    """``move`` is refused by apply, action_id and evaluate_moves with the library's errors,
    its notation is bounded, and a record of it is refused or holds that bounded text."""
    before = state.to_dict()
    with pytest.raises(fg.IllegalMoveError):
        state.apply(move)
    with pytest.raises(fg.IllegalMoveError):
        game.action_id(move)
    with pytest.raises(fg.IllegalMoveError):
        game.evaluate_moves(state, [move])
    assert len(str(move)) <= 200
    assert fg.GameRecord.start(game, 0).with_moves([move]).moves == (str(move),)
    assert state.to_dict() == before


BIG_FIELDS = {
    "a tuple of ten million ints": (0,) * 10_000_000,
    "a tuple nested 100,000 deep": _nested(100_000),
    "a numpy view of 10^5 rows": np.broadcast_to(np.array("1"), (100_000, 3)),
}


@pytest.mark.parametrize("field", ["player", "value", "at"])
@pytest.mark.parametrize("kind", BIG_FIELDS)
def test_a_move_with_a_huge_or_deep_field_is_refused_at_once(field, kind):
    """A Bosk move whose field is ten million items, or nested 100,000 deep, is refused
    within a second with IllegalMoveError, and written in bounded text (writing it took
    2-8 s, or raised RecursionError from apply, str and GameRecord.with_moves)."""
    game = fg.make("bosk")
    state = game.new_game(seed=0)
    move = attrs.evolve(state.legal_moves()[0], **{field: BIG_FIELDS[kind]})
    start = time.perf_counter()
    _refusals(game, state, move)
    assert time.perf_counter() - start < 1.0


@pytest.mark.parametrize("kind", BIG_FIELDS)
def test_a_play_of_a_huge_or_deep_card_list_is_refused_at_once(kind):
    """A Boom Bokken play whose cards are ten million items, nested 100,000 deep, or an
    array of 10^5 rows is refused within a second (its notation wrote every row: seconds)."""
    game = fg.make("boom_bokken")
    state = game.new_game(seed=0)
    move = attrs.evolve(state.legal_moves()[0], cards=BIG_FIELDS[kind])
    start = time.perf_counter()
    _refusals(game, state, move)
    assert time.perf_counter() - start < 1.0


def test_a_play_of_a_billion_card_array_is_kept_as_given():
    """Play's cards given as a 1-d array of a billion items (a view: no memory) are kept as
    the array, not made a list of a billion Python objects first (memory ran out)."""
    cards = np.broadcast_to(np.int8(0), (10**9,))
    move = Play(0, cards, 1, "lower")
    assert move.cards is cards
    state = fg.make("boom_bokken").new_game(seed=0)
    with pytest.raises(fg.IllegalMoveError, match="field cards"):
        state.apply(attrs.evolve(move, player=state.current_player))


def test_moves_of_ordinary_fields_keep_their_notation():
    """Moves of ordinary fields are written in notation as before: the bound above leaves
    legal moves, and malformed ones of small fields, as they were."""
    assert str(PlantTree(0, 1, (2, 3))) == "0:plant 1@2,3"
    assert str(Play(0, ("1", "F1"), 2, "lower")) == "0:play 1+F1 @2 lower"
    assert str(PlantTree(0, 1, ((2, 3), (4, 5)))) == "0:plant 1@(2, 3),(4, 5)"
    assert str(PlantTree(0, "x" * 150, (2, 3))) == "0:plant " + "x" * 150 + "@2,3"


@pytest.mark.parametrize("size", [10**5, 10**6])
def test_a_bosk_terrain_view_of_a_huge_shape_is_refused_before_it_is_copied(size):
    """A terrain given as a numpy view of shape (10^5, 10^5) or (10^6, 10^6) (no memory of
    its own) is a ConfigError naming its shape at once: it was copied first, which took
    4 s, or raised numpy's MemoryError."""
    terrain = np.broadcast_to(np.int8(0), (size, size))
    start = time.perf_counter()
    with pytest.raises(fg.ConfigError, match=rf"8x8 terrain ids .* shape \({size}, {size}\)"):
        fg.make("bosk", terrain=terrain)
    assert time.perf_counter() - start < 1.0


def test_many_unknown_options_are_named_in_a_bounded_message():
    """200,000 unknown options are a ConfigError naming the first few and how many more
    (it named every one: a message of megabytes, seconds for a million)."""
    options = {f"colour{i}": 1 for i in range(200_000)}
    with pytest.raises(fg.ConfigError) as raised:
        fg.make("bonsai", **options)
    message = str(raised.value)
    assert message.startswith("unknown Bonsai option(s) 'colour0', 'colour1', ")
    assert "and 199,994 more; known: ['num_players'" in message
    assert len(message) < 500


def _coureur_holding_every(value: str, flashes: int = 99) -> tuple[Any, dict[str, Any]]:
    """A 5-player Expert game of 99 orange and ``flashes`` Flash cards of ``value`` (and the
    default deck's other cards), saved with the Coureur to lead holding all of them (with
    99 Flash cards: 9,999 groups to play)."""
    deck = {name: 6 for name in "12345678"} | {f"F{v}": 2 for v in range(1, 9)}
    flash = f"F{value}"
    game = fg.make(
        "boom_bokken", num_players=5, expert=True, deck=deck | {"T": 6, value: 99, flash: flashes}
    )
    saved = game.new_game(seed=0).to_dict()
    cards = saved["deck"] + [card for hand in saved["hands"] for card in hand]
    held = sorted(card for card in cards if card in (value, flash))
    others = [card for card in cards if card not in (value, flash)]
    coureur = saved["roles"].index("coureur")
    hands = [others[7 * k : 7 * k + 7] for k in range(4)]
    hands.insert(coureur, held)
    return game, saved | {"hands": hands, "deck": others[28:], "leader": coureur}


def test_a_coureurs_many_groups_are_listed_in_linear_time():
    """A Coureur holding 198 cards of one value (a saved state the loader takes) has its
    79,992 plays listed in well under a second once their move objects exist (the list was
    grown a group at a time, copying it 9,999 times: 3-7 s for every position)."""
    game, saved = _coureur_holding_every("5")
    assert len(game.state_from_dict(saved).legal_moves()) == 79_992  # builds the moves
    state = game.state_from_dict(saved)
    start = time.perf_counter()
    state.legal_moves()
    assert time.perf_counter() - start < 0.5


def test_a_coureurs_play_of_more_than_sixteen_cards_reads_back_from_its_notation():
    """Every play of a Coureur holding 20 orange 5s reads back from its notation, as long as
    the text is within a move's 200 characters (the notation read at most 16 cards: a
    play of 17 was a ParseError, so a record of it could not be replayed)."""
    deck = {name: 6 for name in "12345678"} | {f"F{v}": 2 for v in range(1, 9)}
    game = fg.make("boom_bokken", num_players=5, expert=True, deck=deck | {"T": 6, "5": 20})
    saved = game.new_game(seed=0).to_dict()
    cards = saved["deck"] + [card for hand in saved["hands"] for card in hand]
    fives = [card for card in cards if card == "5"]
    others = [card for card in cards if card != "5"]
    coureur = saved["roles"].index("coureur")
    hands = [others[7 * k : 7 * k + 7] for k in range(4)]
    hands.insert(coureur, fives)
    state = game.state_from_dict(saved | {"hands": hands, "deck": others[28:], "leader": coureur})
    plays = [move for move in state.legal_moves() if len(move.cards) > 16]
    assert len(plays) == 4 * 2 * 4  # 17 to 20 cards, each target, higher and lower
    for move in plays:
        assert game.parse_move(str(move)) == move


@pytest.mark.parametrize("wrong", ["owner", "value", "top"])
def test_a_kernel_batch_wrong_throughout_is_refused_without_listing_every_bad_entry(wrong):
    """A batch of 100,000 Bosk boards wrong in every entry (a view of one bad value) is a
    StateError naming the first, found without listing every bad entry's index (240-320 MB
    here; a batch of ten million such boards ran out of memory)."""
    boards = 100_000
    empty, zero = np.int8(-1), np.int8(0)
    calls = {
        "owner": lambda: fg.bosk.summer_scores(
            np.broadcast_to(np.int8(5), (boards, 7, 7)), np.broadcast_to(zero, (boards, 7, 7)), 2
        ),
        "value": lambda: fg.bosk.summer_scores(
            np.broadcast_to(empty, (boards, 7, 7)), np.broadcast_to(np.int8(9), (boards, 7, 7)), 2
        ),
        "top": lambda: fg.bosk.winter_scores(
            np.broadcast_to(np.int8(7), (boards, 8, 8)), np.zeros((8, 8), np.int8), 2
        ),
    }
    no_trees = np.broadcast_to(empty, (boards, 7, 7)), np.broadcast_to(zero, (boards, 7, 7))
    fg.bosk.summer_scores(*no_trees, 2)  # the kernels loaded first (their compiled path too)
    fg.bosk.winter_scores(np.broadcast_to(empty, (boards, 8, 8)), np.zeros((8, 8), np.int8), 2)
    tracemalloc.start()
    try:
        with pytest.raises(fg.StateError, match=rf"^{wrong}\[0, 0, 0\] = "):
            calls[wrong]()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 120_000_000  # the boards as bools a few times; listing them took 240-320 MB


def test_the_group_plays_kept_for_a_player_count_are_bounded(monkeypatch):
    """The Boom Bokken move objects kept for a player count (shared by all its games) start
    afresh past a bound, here lowered to 1,000: the 16,792 plays of a Coureur holding 119
    cards of one value stayed in memory for good (80,000 and 50 MB for 198 cards), and so
    did every such position's."""
    monkeypatch.setattr(boom_bokken_rules, "GROUP_PLAYS_LIMIT", 1000, raising=False)
    game, saved = _coureur_holding_every("6", flashes=20)  # groups no other test builds
    tables = boom_bokken_rules._move_tables(5)
    plays = game.state_from_dict(saved).legal_moves()
    assert len(plays) == 16_792 and len(set(plays)) == 16_792
    assert len(tables._plays) <= 1000 + 8


def test_applying_moves_of_a_huge_legal_list_takes_no_search_of_it():
    """Each of a Coureur's 16,792 legal plays is applied in well under a second in all
    (each was found by a search of the whole list: 2-3 s here; the greedy agent took 100 s
    to weigh the 79,992 plays of a Coureur holding 198 cards)."""
    game, saved = _coureur_holding_every("8", flashes=20)
    state = game.state_from_dict(saved)
    plays = state.legal_moves()
    start = time.perf_counter()
    after = [state.apply(play) for play in plays]
    assert time.perf_counter() - start < 1.0
    assert len(after[-1].to_dict()["pile"]) == len(plays[-1].cards)


def test_a_legal_play_of_many_cards_is_applied_from_an_equal_move():
    """A Coureur's legal plays of 65 and of all 101 of its 7s, given as equal moves (parsed
    from notation, or listed unsorted), are applied as the legal ones are (a field of over
    64 items, or a play of over 99 cards, was refused as not of the right form)."""
    game, saved = _coureur_holding_every("7", flashes=2)
    state = game.state_from_dict(saved)
    legal = {(len(play.cards), play.cards.count("7")): play for play in state.legal_moves()}
    some, every = legal[65, 65], legal[101, 99]
    assert state.apply(game.parse_move(str(some))) == state.apply(some)
    unsorted = Play(every.player, ["F7", "F7"] + ["7"] * 99, every.target, every.announce)
    assert state.apply(unsorted) == state.apply(every)


def test_threads_asking_a_fresh_game_for_its_codec_get_one_built_once(monkeypatch):
    """Threads asking a fresh game for its codec at once get one codec, built once (Python
    3.12's cached_property has no lock: each thread built its own, a second of work for an
    Expert Boom Bokken of huge decks)."""
    game = attrs.evolve(fg.make("bosk", num_players=2))  # a fresh object: no codec yet
    make_codec = type(game)._make_codec
    built = []

    def slow_make_codec(self: Any) -> Any:
        built.append(self)
        time.sleep(0.05)  # every thread is waiting by then
        return make_codec(self)

    monkeypatch.setattr(type(game), "_make_codec", slow_make_codec)
    start = threading.Barrier(4)
    codecs = []

    def ask() -> None:
        start.wait()
        codecs.append(game.codec)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(built) == 1
    assert len(codecs) == 4 and all(codec is codecs[0] for codec in codecs)
