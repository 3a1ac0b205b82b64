"""Hypothesis properties over random legal games (shared strategies): placement, scores, cards."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import forestgames as fg
from forestgames.bonsai import GOALS, can_place, deck_counts, goal_measures, tree_points
from tests.strategies import playthroughs

PARCHMENT_RATE = {"wood": 1, "leaf": 1, "flower": 2, "fruit": 2}  # from the rules page
GAMES = {p: fg.make("bonsai", num_players=p) for p in (1, 2, 3, 4)}
OPTIONED = fg.make(
    "bonsai", num_players=2, wood_beside_pot=True, pot_sides_free=False, end_rule="extra_turn"
)


def games():
    return st.sampled_from([*GAMES.values(), OPTIONED])


def _tree_is_legal(tiles, wood_beside_pot):
    """Each tile would fit where it is with the rest of the tree around it; wood is joined to
    the bud (or, with wood_beside_pot, to the pot) by wood."""
    for at, kind in tiles.items():
        if at == (0, 0):
            continue
        rest = {k: v for k, v in tiles.items() if k != at}
        if not can_place(rest, at, kind, wood_beside_pot=wood_beside_pot):
            return False
    woods = {at for at, kind in tiles.items() if kind == "wood"}
    reached, frontier = set(), [(0, 0)]
    if wood_beside_pot:
        frontier += [at for at in woods if can_place({}, at, "wood", wood_beside_pot=True)]
    while frontier:
        q, r = frontier.pop()
        if (q, r) in reached:
            continue
        reached.add((q, r))
        for dq, dr in ((1, 0), (-1, 0), (0, -1), (1, -1), (-1, 1), (0, 1)):
            if (q + dq, r + dr) in woods:
                frontier.append((q + dq, r + dr))
    return woods <= reached


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_every_tree_reached_by_legal_play_obeys_the_placement_rules(data):
    """Along random games every tile of every tree still stands by the placement rules."""
    game = data.draw(games())
    for state in data.draw(playthroughs(game))[::3]:
        for seat in range(game.num_players):
            assert _tree_is_legal(state.tree(seat).tiles, game.wood_beside_pot)


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_a_score_is_the_sum_of_its_parts(data):
    """scores = tree_points + claimed goals + Parchments, recomputed from the public functions."""
    game = data.draw(games())
    for state in data.draw(playthroughs(game))[::5]:
        for seat in range(game.num_players):
            tiles = state.tree(seat).tiles
            counts = tuple(
                sum(1 for k in tiles.values() if k == kind)
                for kind in ("wood", "leaf", "flower", "fruit")
            )
            names = state.cards_of(seat)
            per_kind = dict(zip(("wood", "leaf", "flower", "fruit"), counts, strict=True))
            parch = 0
            for name in names:
                if name.startswith("parchment:"):
                    what = name.split(":")[1]
                    if what in per_kind:
                        parch += PARCHMENT_RATE[what] * per_kind[what]
                    else:
                        parch += 2 * sum(1 for n in names if n.startswith(what + ":"))
            goals = sum(
                GOALS[g].points for g, owner in enumerate(state.goal_owner) if owner == seat
            )
            expected = tree_points(tiles, pot_sides_free=game.pot_sides_free) + goals + parch
            assert state.scores[seat] == expected


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_the_number_of_cards_is_conserved(data):
    """Deck + market + discards + hands always hold the game's cards, no more, no less."""
    game = data.draw(games())
    expected = Counter({c: n for c, n in enumerate(deck_counts(game.num_players)) if n})
    for state in data.draw(playthroughs(game)):
        held = Counter(c for hand in state.cards for c in hand)
        cards = (
            Counter(state.deck)
            + Counter(c for c in state.market if c >= 0)
            + Counter(state.discards)
            + held
        )
        assert cards == expected


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_supplies_stay_within_the_storage_limit_between_turns(data):
    """At the start of every turn each seat holds at most its storage limit."""
    game = data.draw(games())
    for state in data.draw(playthroughs(game)):
        if state.phase.value == "action":
            for seat in range(game.num_players):
                assert sum(state.supplies[seat]) <= state.storage_limit(seat)


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_every_seat_plays_the_same_number_of_turns_under_the_round_rule(data):
    """The seed's end rule: the last turn closes a round (solo: any turn)."""
    game = data.draw(st.sampled_from(list(GAMES.values())))
    last = data.draw(playthroughs(game))[-1]
    assert last.is_terminal and (last.turn + 1) % game.num_players == 0


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_legal_placements_are_exactly_where_can_place_allows(data):
    """The engine's Place moves for a kind are the cells near the tree where the public
    can_place says yes (with a tile in hand and a symbol to spend)."""
    game = data.draw(games())
    for state in data.draw(playthroughs(game))[::4]:
        if state.phase.value not in ("action", "cultivate", "helper") or state.is_terminal:
            continue
        seat = state.current_player
        tiles = state.tree(seat).tiles
        symbols = state.cultivate_symbols(seat) if state.phase.value == "action" else state.symbols
        qs = [q for q, _ in tiles] + [-6, 6]
        rs = [r for _, r in tiles] + [3]
        for k, kind in enumerate(("wood", "leaf", "flower", "fruit")):
            usable = state.supplies[seat][k] and (symbols[k] or symbols[4])
            expected = {
                (q, r)
                for q in range(min(qs) - 1, max(qs) + 2)
                for r in range(min(rs) - 1, max(rs) + 2)
                if usable and can_place(tiles, (q, r), kind, wood_beside_pot=game.wood_beside_pot)
            }
            legal = {m.at for m in state.legal_moves() if getattr(m, "kind", None) == kind}
            assert legal == expected


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_incremental_tree_facts_equal_a_fresh_computation(data):
    """A tree grown tile by tile knows the same open cells, counts and goal measures as the
    same tree built at once (and as the public goal_measures of its tiles)."""
    from forestgames.bonsai.tree import Tree

    game = data.draw(games())
    for state in data.draw(playthroughs(game)):
        for tree in state.trees:
            fresh = Tree(dict(tree.cells), tree.wood_beside_pot)
            assert [tree.open_cells(k) for k in range(4)] == [fresh.open_cells(k) for k in range(4)]
            assert tree.counts() == fresh.counts()
            assert tree.goal_measures() == fresh.goal_measures() == goal_measures(tree.tiles)


OPTION_SETS = [
    *({"num_players": p} for p in (1, 2, 3, 4)),
    {"num_players": 3, "goal_setup": "published", "end_rule": "extra_turn"},
    {"num_players": 2, "wood_beside_pot": True, "pot_sides_free": False},
    {"num_players": 1, "end_rule": "extra_turn", "solo_difficulty": 4},
]


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_every_reachable_state_is_accepted_on_load(data):
    """The saved-state invariants accept every state of a random legal game: each one loads
    back equal, with the same legal moves."""
    game = fg.make("bonsai", **data.draw(st.sampled_from(OPTION_SETS)))
    for state in data.draw(playthroughs(game)):
        loaded = game.state_from_dict(state.to_dict())
        assert loaded == state
        assert loaded.legal_moves() == state.legal_moves()
