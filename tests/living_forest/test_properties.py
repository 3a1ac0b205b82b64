"""Invariants of random legal games (hypothesis, via the shared strategies)."""

import csv
import io
import os
from collections import Counter
from importlib import resources

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import forestgames as fg
from tests.strategies import playthroughs, reachable_states

# Independent transcriptions of the rules page, to check the engine's tables against.
_CSV = (
    resources.files("forestgames.living_forest")
    .joinpath("data/living_forest_cards.csv")
    .read_text(encoding="utf-8")
)
CARDS = {row["name"]: row for row in csv.DictReader(io.StringIO(_CSV))}
ELEMENTS = ("sun", "water", "plant", "wind", "flower")
TREE_BONUS = {
    "start": {}, "3A": {"sun": 1}, "3B": {"water": 1}, "4A": {"wind": 1}, "4B": {"flower": 1},
    "5A": {"sun": 2}, "5B": {"plant": 1}, "6": {"water": 2}, "7": {"wind": 2}, "8": {"water": 3},
    "9": {"flower": 2}, "10": {"sun": 4}, "11": {},
}  # fmt: skip
LINES = [
    ([(r, 1) for r in range(3)], "water", 1),
    ([(r, 2) for r in range(3)], "sun", 1),
    ([(r, 3) for r in range(3)], "wind", 1),
    ([(1, c) for c in range(5)], "flower", 2),
]


def expected_totals(state, seat):
    """Element totals recomputed from the visible Help Line, forest and line bonuses."""
    total = dict.fromkeys(ELEMENTS, 0)
    for name in state.help_line(seat):
        for e in ELEMENTS:
            total[e] += int(CARDS[name][e])
    grid = state.forest(seat)
    for row in grid:
        for tree in row:
            for e, x in TREE_BONUS.get(tree, {}).items():
                total[e] += x
    for cells, e, x in LINES:
        if all(grid[r][c] is not None for r, c in cells):
            total[e] += x
    return tuple(max(0, total[e]) for e in ELEMENTS)


def check_invariants(state):
    """Every card in one place, fires, Fragments, Victory tiles, totals, scores."""
    p = state.num_players
    names = Counter()
    for piles in (state.decks, state.lines, state.discards, state.stacks, state.rows):
        for pile in piles:
            names.update(fg.living_forest.CARD_NAMES[c] for c in pile)
    for name, row in CARDS.items():
        expected = {"start": p, "varan": 23 - state.varans}.get(row["level"], 1)
        assert names[name] == expected, f"{name}: {names[name]} copies, expected {expected}"
    for seat in range(p):
        own = Counter(state.help_line(seat)) + Counter(
            fg.living_forest.CARD_NAMES[c] for c in state.decks[seat] + state.discards[seat]
        )
        assert all(own[n] == 1 for n, row in CARDS.items() if row["level"] == "start")
        assert state.totals(seat) == expected_totals(state, seat)
    assert len(state.centre) <= 7
    for k, value in enumerate((2, 3, 4)):
        in_play = state.centre.count(value) + sum(h[k] for h in state.fires_held)
        assert in_play + state.fire_supply[k] == state.game.fire_tiles[k]
    assert 0 <= state.fragment_supply <= 20
    assert [sum(v[k] for v in state.victory) for k in range(3)] == [p, p, p]
    assert state.scores == tuple(sum(x) for x in state.progress)
    assert all(len(row) <= 4 for row in state.rows)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_invariants_hold_in_random_games(players, data):
    """Card conservation, at most 7 fires, conserved supplies and exact totals at every state."""
    game = fg.make("living_forest", num_players=players, turn_limit=12)
    for state in data.draw(playthroughs(game)):
        check_invariants(state)


@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_invariants_hold_with_other_options(data):
    """The same invariants hold with the other readings of the choices."""
    game = fg.make("living_forest", num_players=3, turn_limit=12, reveal_after_third=False,
                   varan_returns=True, duplicate_trees=False, fire_tiles=(8, 6, 4))  # fmt: skip
    for state in data.draw(playthroughs(game)):
        check_invariants(state)


@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_turn_structure(data):
    """Every move is the acting seat's; actions per seat per turn never exceed the limit;
    the solitary count never passes 3."""
    game = fg.make("living_forest", num_players=3, turn_limit=12)
    for state in data.draw(playthroughs(game)):
        assert all(state.solitary(s) <= 3 for s in range(3))
        if state.phase.value == "actions":
            seat = state.current_player
            assert len(state.actions) <= game._action_limit(state, seat)
            if fg.living_forest.TREE_NAMES.index("11") not in state.forests[seat]:
                assert len(set(state.actions)) == len(state.actions)


# ---------------------------------------------------------------------- fuzzing bad input

FUZZ = int(os.environ.get("FORESTGAMES_FUZZ", "1"))
"""Multiplies the fuzz budgets (CI runs 1; set e.g. FORESTGAMES_FUZZ=50 for a long hunt)."""

_NAMES = list(CARDS) + list(TREE_BONUS) + ["fragment", "move", "guardians", "victory", "I", "II"]
_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-3, 30)
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.sampled_from(_NAMES)
    | st.text(max_size=6)
)
_JSON = st.recursive(
    _LEAVES,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def _paths(value, prefix=()):
    """Every path to a part of a saved state (dict keys and list indices)."""
    yield prefix
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, part in items:
        yield from _paths(part, (*prefix, key))


def _near(draw, old):
    """A value close to ``old`` (more likely to pass the schema than a random one)."""
    if isinstance(old, bool) or old is None:
        return draw(_LEAVES)
    if isinstance(old, int):
        return old + draw(st.integers(-3, 3))
    if isinstance(old, list) and old:
        k = draw(st.integers(0, len(old) - 1))
        return draw(st.sampled_from([old[:k] + old[k + 1 :], old + [old[k]], old[::-1]]))
    if isinstance(old, str):
        return draw(st.sampled_from(_NAMES))
    return draw(_JSON)


def _works(state):
    """A loaded state behaves: round trip, views, pictures, and a legal move applies."""
    game = state.game
    assert game.state_from_dict(state.to_dict()) == state
    for seat in range(game.num_players):
        state.observation(seat)
        state.legal_moves(seat)
    state.render()
    if not state.is_terminal:
        moves = state.legal_moves()
        assert moves, "a loaded state that is not over has a seat to move"
        state.apply(moves[0])


@settings(max_examples=60 * FUZZ, deadline=None)
@given(data=st.data())
def test_mutated_saved_states_are_refused_or_work(data):
    """A saved state with one part changed is refused with StateError, or it is a state the
    rules could reach: it round-trips, shows its views and plays on."""
    game = fg.make("living_forest", num_players=data.draw(st.sampled_from([2, 3, 4])), turn_limit=8)
    saved = data.draw(reachable_states(game)).to_dict()
    path = data.draw(st.sampled_from(list(_paths(saved))[1:]))
    target = saved
    for key in path[:-1]:
        target = target[key]
    old = target[path[-1]]
    target[path[-1]] = (
        data.draw(st.one_of(st.just(None), _JSON))
        if data.draw(st.booleans())
        else _near(data.draw, old)
    )
    try:
        state = game.state_from_dict(saved)
    except fg.StateError:
        return
    _works(state)


@settings(max_examples=60 * FUZZ, deadline=None)
@given(data=st.data())
def test_mutated_move_fields_are_illegal_moves_or_legal(data):
    """A legal move with one field replaced by anything is applied (if it is still legal)
    or refused with IllegalMoveError; nothing else escapes."""
    game = fg.make("living_forest", num_players=data.draw(st.sampled_from([2, 3, 4])), turn_limit=8)
    state = data.draw(reachable_states(game))
    if state.is_terminal:
        return
    move = data.draw(st.sampled_from(state.legal_moves()))
    field = data.draw(st.sampled_from([f.name for f in attrs.fields(type(move))]))
    value = data.draw(_JSON | st.just(np.int64(1)) | st.just(np.array([1, 2])))
    mutated = attrs.evolve(move, **{field: value})
    try:
        state.apply(mutated)
    except fg.IllegalMoveError:
        pass


@settings(max_examples=80 * FUZZ, deadline=None)
@given(data=st.data())
def test_mutated_notation_is_parsed_or_refused(data):
    """Notation with characters changed, dropped or added is a ParseError, or a move that
    writes back to the same text."""
    game = fg.make("living_forest", num_players=4)
    text = str(data.draw(st.sampled_from(_SAMPLE_MOVES)))
    k = data.draw(st.integers(0, len(text)))
    extra = data.draw(st.text(max_size=3))
    text = data.draw(
        st.sampled_from([text[:k] + extra + text[k + 1 :], text[:k] + extra + text[k:]])
    )
    try:
        move = game.parse_move(text)
    except fg.ParseError:
        return
    assert game.parse_move(str(move)) == move


_SAMPLE_MOVES = [
    "0:reveal", "1:spend Bear", "2:stop", "3:fragment", "0:attract Wolf", "1:extinguish 3",
    "2:move 10", "3:victory 1 fire", "0:plant 5A@1,3", "1:done",
]  # fmt: skip
