"""Invariants of random legal games (hypothesis, via the shared strategies)."""

import csv
import io
from collections import Counter
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import forestgames as fg
from tests.strategies import playthroughs

# Independent transcriptions of the rules page, to check the engine's tables against.
_CSV = (
    resources.files("forestgames.living_forest")
    .joinpath("data/living_forest_cards.csv")
    .read_text()
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
            assert len(state.actions) <= game.action_limit(state, seat)
            if fg.living_forest.TREE_NAMES.index("11") not in state.forests[seat]:
                assert len(set(state.actions)) == len(state.actions)
