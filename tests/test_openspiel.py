"""The OpenSpiel games: the tree (deals, reaction turns, views) and OpenSpiel's own tests and bots.

The tree tests need no OpenSpiel; the rest skip without it (``pip install -e ".[openspiel]"``).
Tests marked ``slow`` (whole games with searching bots at every seat) run with ``-m slow``.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pytest

import forestgames as fg
from forestgames.rl._turns import TurnDriver
from forestgames.rl.openspiel import _deals, _nodes, _params
from forestgames.rl.openspiel._deals import Deal, deal_rules
from forestgames.rl.openspiel._nodes import DEAL, DECIDE, FIRST, ORDER, OVER, Node, table_for
from tests import doc_tables

EXTREMES: list[tuple[str, dict[str, Any]]] = [
    ("bosk", {"num_players": 2}),
    ("bosk", {"num_players": 4}),
    ("bonsai", {"num_players": 1}),
    ("bonsai", {"num_players": 4}),
    ("living_forest", {"num_players": 2}),
    ("living_forest", {"num_players": 4}),
    ("living_forest", {"num_players": 3, "guardian_phase": "simultaneous"}),
    ("boom_bokken", {"num_players": 4}),
    ("boom_bokken", {"num_players": 9}),
    ("boom_bokken", {"num_players": 6, "team_sizes": [3, 3], "expert": True}),
]
IDS = [
    f"{n}-{o['num_players']}p{'-expert' if o.get('expert') else ''}"
    f"{'-simultaneous' if o.get('guardian_phase') else ''}"
    for n, o in EXTREMES
]
HIDDEN = [case for case in EXTREMES if case[0] != "bosk"]
HIDDEN_IDS = [i for i, case in zip(IDS, EXTREMES, strict=True) if case[0] != "bosk"]
SETUPS: list[tuple[str, dict[str, Any]]] = [
    ("bonsai", {"num_players": 2}),
    ("bonsai", {"num_players": 3, "goal_setup": "published"}),
    ("bonsai", {"num_players": 1}),
    ("living_forest", {"num_players": 3}),
    ("boom_bokken", {"num_players": 5}),
    ("boom_bokken", {"num_players": 6, "expert": True}),
]
SETUP_IDS = [f"{n}-{o['num_players']}p-{len(o)}" for n, o in SETUPS]


def _table(name: str, utility: str = "win", **options: Any) -> Any:
    return table_for(name, json.dumps(fg.make(name, **options).options(), sort_keys=True), utility)


def walk(root: Node, seed: int) -> Iterator[Node]:
    """Every node of one random game from ``root``: chance by its probabilities, decisions
    uniformly among the legal actions."""
    rng = random.Random(seed)
    node = root
    while True:
        yield node
        if node.is_over:
            return
        if node.is_chance:
            actions, probabilities = zip(*node.chance_outcomes(), strict=True)
            node = node.apply(rng.choices(actions, probabilities)[0])
        else:
            node = node.apply(rng.choice(node.legal_actions()))


def _strip(data: dict[str, Any]) -> dict[str, Any]:
    """A position's JSON form without the engine's hidden seeds (unused once chance is explicit)."""
    return {k: v for k, v in data.items() if k not in ("seed", "entropy")}


def _engine_picks(deal: Deal, target: dict[str, Any]) -> Deal:
    """``deal`` finished with the items ``target`` has in its slots (Bonsai's colours from
    its goals)."""
    colours = list(dict.fromkeys(name.split()[0] for name in target.get("goals_in_play", [])))
    while not deal.done:
        slot = deal.next_slot()
        if slot[0][0] == "__colours__":
            deal = deal.pick(json.dumps(colours[int(slot[0][1])]))
        else:
            deal = deal.pick(_deals._item_at(target, slot))
    return deal


# --------------------------------------------------------------------------- deals


@pytest.mark.parametrize(("name", "options"), SETUPS, ids=SETUP_IDS)
def test_setup_deal_with_the_engines_draws_is_the_engines_first_position(name, options):
    """Drawing into every slot what the engine's shuffle put there gives new_game exactly."""
    game = fg.make(name, **options)
    rules = deal_rules(game)
    for seed in range(4):
        first = seed % game.num_players
        engine = game.new_game(seed=seed, first_player=first).to_dict()
        state, deal = rules.setup(first)
        assert state is None and deal is not None
        dealt = rules.finish(_engine_picks(deal, engine))
        assert _strip(dealt.to_dict()) == _strip(engine)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every leaf path of a JSON value (list items of scalars count as leaves)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(data, list) and data and isinstance(data[0], dict | list):
        for i, value in enumerate(data):
            yield from _paths(value, (*prefix, i))
    else:
        yield prefix


@pytest.mark.parametrize(("name", "options"), [*SETUPS, ("bosk", {"num_players": 3})])
def test_every_random_field_of_a_first_position_is_dealt_by_chance(name, options):
    """Whatever differs between two seeds' first positions (same first player) lies in the
    setup deal's slots (or is an engine seed no longer used): no randomness escapes."""
    game = fg.make(name, **options)
    _, deal = deal_rules(game).setup(0)
    paths = [path for slot in (deal.slots if deal else ()) for path in slot]
    dealt = {path[:-1] for path in paths} | set(paths) | {("seed",), ("entropy",)}
    if ("__colours__", 0) in dealt:
        dealt.add(("goals_in_play",))  # the colours drawn decide the goals in play
    base = game.new_game(seed=0, first_player=0).to_dict()
    for seed in range(1, 6):
        other = game.new_game(seed=seed, first_player=0).to_dict()
        differ = {p for p in _paths(base) if _deals._get(base, p) != _deals._get(other, p)}
        assert differ <= dealt


def test_living_forest_reshuffle_with_the_engines_order_is_the_engines_move():
    """A discard pile shuffled by chance, in the order the engine's shuffle gave, then the
    draw replayed: exactly the engine's position after the move."""
    game = fg.make("living_forest", num_players=2)
    rules = deal_rules(game)
    rng = random.Random(5)
    seen = 0
    for seed in range(6):
        state = game.new_game(seed=seed)
        while not state.is_terminal and seen < 12:
            move = rng.choice(state.legal_moves())
            after = state.apply(move)
            deal = rules.after_move(state, move.player, game.action_id(move), after)
            if deal is not None:
                spirit = after.to_dict()["spirits"][deal.slots[0][0][1]]
                for card in [spirit["line"][-1], *spirit["deck"]]:
                    deal = deal if deal.done else deal.pick(json.dumps(card))
                assert deal.done and deal.move is not None
                seat, action = deal.move
                replayed = rules.finish(deal).apply(game.move_from_id(action, seat))
                assert _strip(replayed.to_dict()) == _strip(after.to_dict())
                seen += 1
            state = after
    assert seen >= 5


def test_a_deal_draws_every_arrangement_equally_often():
    """Enumerating every chance path of a small deal: each distinct arrangement of the items
    has the probability of a uniform shuffle (1 / number of arrangements)."""
    data = {"deck": ["a", "a", "b", "c"], "hand": ["x", "y"]}
    deal = Deal.of("test", data, [[(("deck", i),) for i in range(4)]])
    totals: Counter[tuple[str, ...]] = Counter()

    def explore(d: Deal, p: float) -> None:
        if d.done:
            totals[tuple(d.filled()["deck"])] += p  # type: ignore[assignment]
            return
        pool = d.outcomes()
        left = sum(n for _, n in pool)
        for item, n in pool:
            explore(d.pick(item), p * n / left)

    explore(deal, 1.0)
    assert len(totals) == 12  # 4! / 2!
    assert all(abs(p - 1 / 12) < 1e-12 for p in totals.values())


@pytest.mark.parametrize(("name", "options"), HIDDEN, ids=HIDDEN_IDS)
def test_chance_outcomes_are_the_copies_left_and_add_up_to_one(name, options):
    """At every chance node of a random game the probabilities add up to 1; at a deal each is
    (copies left) / (items left) of the next slot's pool."""
    table = _table(name, **options)
    for node in walk(table.initial, 3):
        if not node.is_chance:
            continue
        outcomes = node.chance_outcomes()
        assert [a for a, _ in outcomes] == sorted({a for a, _ in outcomes})
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert all(0 <= a < table.max_chance_outcomes for a, _ in outcomes)
        if node.kind == DEAL:
            pool = dict(node.deal.outcomes())
            total = sum(pool.values())
            for action, p in outcomes:
                assert p == pool[table.alphabet[action]] / total


def _round_deals(table: Any, seed: int) -> Iterator[tuple[Node, Node]]:
    """(first node of a round's deal, the node once it is dealt) in a random game."""
    previous, start = None, None
    for node in walk(table.initial, seed):
        if node.kind == DEAL and node.deal.kind == "round" and previous.kind != DEAL:
            start = node
        if start is not None and node.kind != DEAL:
            yield start, node
            start = None
        previous = node


def test_boom_bokken_deals_every_round_by_chance_with_the_rounds_cards():
    """A new Boom Bokken round is a chance deal of the same cards and character cards; the
    dealt round keeps the hand sizes, the leader and the tokens the engine gave it."""
    table = _table("boom_bokken", num_players=5)
    rounds = 0
    for start, dealt in _round_deals(table, 11):
        template = json.loads(start.deal.template)
        cards = Counter(c for hand in template["hands"] for c in hand) + Counter(template["deck"])
        assert dict(start.deal.pools[1]) == {json.dumps(c): n for c, n in cards.items()}
        teams = Counter(template["teams"])
        assert dict(start.deal.pools[0]) == {json.dumps(t): n for t, n in teams.items()}
        position = dealt.state.to_dict()
        assert [len(h) for h in position["hands"]] == [len(h) for h in template["hands"]]
        assert Counter(position["teams"]) == teams
        assert (position["leader"], position["tokens"]) == (template["leader"], template["tokens"])
        rounds += 1
    assert rounds == 2


# --------------------------------------------------------------------------- the tree


@pytest.mark.parametrize(("name", "options"), EXTREMES, ids=IDS)
def test_a_random_walk_is_a_legal_game_within_the_declared_bounds(name, options):
    """Decisions are sorted ids of legal moves (plus PASS on reaction turns), their strings
    the moves' notation; a game ends within max_game_length decisions with +-1 returns."""
    table = _table(name, **options)
    decisions = 0
    for node in walk(table.initial, 1):
        if node.kind != DECIDE:
            continue
        decisions += 1
        actions = node.legal_actions()
        assert actions == sorted(set(actions)) and actions
        moves = node.state.legal_moves(node.seat)
        ids = [table.game.action_id(m) for m in moves]
        assert [a for a in actions if a != table.pass_id] == sorted(ids)
        assert (table.pass_id in actions) == node.reacting
        notation = {str(m) for m in moves}
        for action in actions:
            text = node.action_string(node.seat, action)
            assert text in notation or (action == table.pass_id and text.endswith(":pass"))
    assert decisions <= table.max_game_length()
    assert node.is_over
    winners = set(node.state.winners)
    assert node.returns() == [1.0 if s in winners else -1.0 for s in range(table.num_players)]


def test_score_utility_returns_the_final_scores():
    """With utility="score" the returns at the end are the final scores (0 before)."""
    table = _table("bonsai", "score", num_players=2)
    nodes = list(walk(table.initial, 4))
    assert nodes[-2].returns() == [0.0, 0.0]
    assert nodes[-1].returns() == [float(s) for s in nodes[-1].state.scores]


@pytest.mark.parametrize("name", ["bosk", "bonsai"])
def test_two_player_games_declared_zero_sum_have_exactly_one_winner(name):
    """Bosk and Bonsai break every tie, so with 2 players the win utility sums to 0."""
    game = fg.make(name, num_players=2)
    rng = random.Random(2)
    for seed in range(8):
        state = game.new_game(seed=seed)
        while not state.is_terminal:
            state = state.apply(rng.choice(state.legal_moves()))
        assert len(state.winners) == 1


@pytest.mark.parametrize(
    "options", [{"num_players": 4}, {"num_players": 7, "expert": True}], ids=["4p", "7p-expert"]
)
def test_reaction_turns_match_the_environments_turn_driver(options):
    """Every Boom Bokken decision offers exactly the ids the PettingZoo/Gymnasium TurnDriver
    masks for that seat and kind of turn; reaction seats are those the codec names."""
    table = _table("boom_bokken", **options)
    driver = TurnDriver(table.game)
    reactions = 0
    for node in walk(table.initial, 7):
        if node.kind == ORDER:
            named = node.state.current_player
            assert set(node.queue) <= set(table.codec.reaction_seats(node.state))
            assert named not in node.queue and len(node.queue) >= 2
        if node.kind != DECIDE:
            continue
        driver.state, driver.seat, driver.reacting = node.state, node.seat, node.reacting
        assert np.flatnonzero(driver.mask(node.seat)).tolist() == node.legal_actions()
        reactions += node.reacting
    assert reactions > 20


def test_when_every_reaction_is_passed_the_named_seat_plays_without_pass():
    """Passing every reaction turn offers each other seat in the round once, then the named
    seat decides, with no PASS."""
    table = _table("boom_bokken", num_players=6)
    node = next(n for n in walk(table.initial, 2) if n.kind in (ORDER, DECIDE) and n.reacting)
    named, waiting = node.state.current_player, set(table.codec.reaction_seats(node.state))
    offered = []
    while node.kind == ORDER or node.reacting:
        if node.kind == ORDER:
            node = node.apply(node.queue[-1])
            continue
        offered.append(node.seat)
        node = node.apply(table.pass_id)
    assert sorted(offered) == sorted(waiting) and named not in waiting
    assert node.kind == DECIDE and node.seat == named
    assert table.pass_id not in node.legal_actions()


@pytest.mark.parametrize(("name", "options"), HIDDEN, ids=HIDDEN_IDS)
def test_a_resampled_node_looks_the_same_to_its_seat_and_differs_in_what_is_hidden(name, options):
    """resample(p) keeps p's observation and information state, strings and tensors, and the
    deciding seat's actions, while the hidden part is drawn afresh."""
    table = _table(name, **options)
    size = table.num_players
    changed = 0
    for i, node in enumerate(walk(table.initial, 9)):
        if node.kind != DECIDE or i % 7:
            continue
        for player in {node.seat, (node.seat + 1) % size}:
            sample = node.resample(player, i)
            for info in (False, True):
                assert sample.view(player, info) == node.view(player, info)
            assert np.array_equal(_tensor(sample, player), _tensor(node, player))
            changed += sample.state.to_dict() != node.state.to_dict()
        assert node.resample(node.seat, i).legal_actions() == node.legal_actions()
    assert changed > 0


def _tensor(node: Node, player: int) -> np.ndarray:
    tensor = np.zeros(node.table.tensor_size, np.float32)
    p = node.table.num_players
    node.write_tensor(player, tensor[:p], tensor[p : p + 3], tensor[p + 3 :])
    return tensor


def test_views_are_the_seats_observation_with_whose_turn_it_is():
    """A seat's tensor is the deciding seat one-hot (observer order), the flags, then exactly
    observation_tensor(seat); its strings hold observation(seat) as JSON."""
    table = _table("boom_bokken", num_players=4)
    for node in walk(table.initial, 3):
        if node.kind != DECIDE:
            continue
        for player in range(4):
            tensor = _tensor(node, player)
            assert tensor[(node.seat - player) % 4] == 1.0 and tensor[:4].sum() == 1.0
            assert tensor[4:7].tolist() == [float(node.reacting), 0.0, 0.0]
            assert np.array_equal(tensor[7:], node.state.observation_tensor(player))
            seen = json.dumps(node.state.observation(player), separators=(",", ":"), sort_keys=True)
            assert node.view(player, False).endswith(seen)
            assert node.public[-1] in node.view(player, True)


def test_a_seats_views_during_a_deal_do_not_tell_how_the_items_fell():
    """At the same chance node of a deal (the 31st of solo Bonsai's setup), with nothing
    dealt yet that the seat sees, its views are the same whatever was drawn: they said how
    many items were placed, which counts the forced draws (the last cards of one kind), so
    "32 of 35 drawn" against "30 of 35" told the deck's bottom cards."""
    table = _table("bonsai", num_players=1)
    views, placed = set(), set()
    for seed in range(300):
        rng = random.Random(seed)
        node = table.initial
        for _ in range(30):
            actions, probabilities = zip(*node.chance_outcomes(), strict=True)
            node = node.apply(rng.choices(actions, probabilities)[0])
        assert node.kind == DEAL and node.state is None
        views.add((node.view(0, False), node.view(0, True)))
        placed.add(len(node.deal.picks))
    assert len(placed) > 1  # some deals forced their last draws by then
    assert len(views) == 1


def test_the_start_is_a_first_player_chance_node_then_a_hidden_deal():
    """The root draws the first player (public); the deal's items stay out of the public
    history; solo Bonsai starts at its deal."""
    table = _table("bonsai", num_players=3)
    root = table.initial
    assert root.kind == FIRST and root.chance_outcomes() == [(s, 1 / 3) for s in range(3)]
    after = root.apply(2)
    assert after.kind == DEAL and after.public == ("first player 2", "deal: setup")
    dealt = next(n for n in walk(after, 0) if n.kind == DECIDE)
    assert dealt.public == after.public and dealt.seat == 2
    assert _table("bonsai", num_players=1).initial.kind == DEAL


@pytest.mark.parametrize(("name", "options"), HIDDEN, ids=HIDDEN_IDS)
def test_every_node_saved_as_json_loads_back_the_same(name, options):
    """node_from_json(to_json()) gives the same node: same JSON, views and actions."""
    table = _table(name, **options)
    for i, node in enumerate(walk(table.initial, 5)):
        if i % 5:
            continue
        loaded = _nodes.node_from_json(node.to_json())
        assert loaded.to_json() == node.to_json()
        assert loaded.legal_actions() == node.legal_actions()
        assert loaded.view(0, True) == node.view(0, True)


def test_a_tampered_saved_node_is_a_state_error():
    """A saved node (what a pickled OpenSpiel state holds) with a part missing, of the wrong
    type, or that does not fit its position raises StateError: a KeyError, ValueError or
    TypeError escaped, and a seat of 99 or the end on a live position loaded."""
    table = _table("bosk", num_players=2)
    node = next(n for n in walk(table.initial, 5) if n.kind == DECIDE)
    good = json.loads(node.to_json())
    not_a_node = "not a saved forestgames OpenSpiel node"
    tampered = [
        ({k: v for k, v in good.items() if k != "seat"}, not_a_node),
        ({**good, "kind": "x"}, r"kind is not one of \[0, 1, 2, 3, 4\]: 'x'"),
        ({**good, "kind": True}, r"kind is not one of \[0, 1, 2, 3, 4\]: True"),
        ({**good, "options": []}, not_a_node),
        ({**good, "deal": {}}, not_a_node),
        ({**good, "seat": 99}, r"seat is not one of .*: 99"),
        ({**good, "reacting": 1}, r"reacting is not one of \[False, True\]: 1"),
        ({**good, "queue": [5]}, r"queue is not one of \[0, 1\]: 5"),
        ({**good, "kind": OVER}, "kind does not fit its position"),
        # the other seat has nothing to do
        ({**good, "seat": 1 - good["seat"]}, "has no decision in its position"),
    ]
    for data, message in tampered:
        with pytest.raises(fg.StateError, match=message):
            _nodes.node_from_json(json.dumps(data))
    for text in ("", "[]", "{", "null"):
        with pytest.raises(fg.StateError, match=not_a_node):
            _nodes.node_from_json(text)
    assert _nodes.node_from_json(json.dumps(good)).to_json() == node.to_json()


def test_illegal_actions_and_resampling_during_a_deal_are_refused():
    """An id that is not legal raises IllegalMoveError; resampling mid-deal raises StateError."""
    table = _table("boom_bokken", num_players=4)
    with pytest.raises(fg.IllegalMoveError, match="not possible"):
        table.initial.apply(7)
    deal = table.initial.apply(0)
    with pytest.raises(fg.StateError, match="during a deal"):
        deal.resample(0, 1)
    decide = next(n for n in walk(table.initial, 0) if n.kind == DECIDE and not n.reacting)
    with pytest.raises(fg.IllegalMoveError, match="not legal for seat"):
        decide.apply(table.pass_id)
    over = next(n for n in walk(table.initial, 0) if n.kind == OVER)
    with pytest.raises(fg.IllegalMoveError, match="over"):
        over.apply(0)


# --------------------------------------------------------------------------- parameters


def test_parameters_cover_the_options_with_game_defaults_where_they_depend_on_players():
    """Every plain option is a parameter; lists are space-separated; a default that depends on
    the player count is "" (the game's); Bosk's terrain board is not offered."""
    defaults, kinds = _params.parameter_spec("boom_bokken")
    assert defaults == {
        "players": 4, "team_sizes": "", "expert": False, "spent_time_outs": "",
        "last_team_clay": False, "distinct_flashers": False, "utility": "win",
    }  # fmt: skip
    assert kinds["team_sizes"] == "list"
    assert _params.parameter_spec("living_forest")[0]["fire_tiles"] == "20 20 18"
    assert _params.parameter_spec("bonsai")[0]["goal_setup"] == ""
    assert "terrain" not in _params.parameter_spec("bosk")[0]
    options, utility = _params.options_from_parameters(
        "boom_bokken", {"players": 6, "team_sizes": "3 3", "expert": True, "utility": "score"}
    )
    assert options == {"num_players": 6, "team_sizes": [3, 3], "expert": True}
    assert utility == "score"
    assert _params.game_parameters("boom_bokken", "score", **options) == {
        "players": 6, "team_sizes": "3 3", "expert": True, "utility": "score",
    }  # fmt: skip
    with pytest.raises(fg.ConfigError, match="unknown parameter"):
        _params.options_from_parameters("bosk", {"player": 3})
    with pytest.raises(fg.ConfigError, match="not a list"):
        _params.options_from_parameters("boom_bokken", {"team_sizes": "two two"})
    with pytest.raises(fg.ConfigError, match="not offered"):
        _params.game_parameters("bosk", terrain=[[0]])
    with pytest.raises(fg.ConfigError, match="not offered"):
        _params.game_parameters("boom_bokken", deck={"1": 70})


@pytest.mark.parametrize(
    ("name", "options", "words"),
    [
        ("bosk", {"num_players": "x"}, "must be an int"),
        ("bosk", {"num_players": 2.0}, "must be an int"),
        ("bosk", {"num_players": 2**70}, "2 to 4 players"),
        ("bosk", {"squirrel_exactly_three": "False"}, "True or False"),
        ("bonsai", {"goal_setup": None}, "goal_setup"),
        ("living_forest", {"fire_tiles": 5}, "fire_tiles"),
    ],
)
def test_options_are_checked_by_the_game_before_openspiel_sees_them(name, options, words):
    """A bad option value is the game's ConfigError: it reached OpenSpiel as SpielError,
    pybind's RuntimeError or a TypeError, or came back unchecked from game_parameters."""
    with pytest.raises(fg.ConfigError, match=words):
        _params.game_parameters(name, **options)


@pytest.mark.parametrize("expert", [False, True])
@pytest.mark.parametrize("spent", ["deck", "aside"])
def test_an_option_whose_default_follows_another_is_kept_as_given(expert, spent):
    """Boom Bokken's spent_time_outs defaults to "aside" in Expert mode, "deck" otherwise:
    either value given explicitly reaches the game, with or without Expert mode."""
    options = {"num_players": 5, "expert": expert, "spent_time_outs": spent}
    parameters = _params.game_parameters("boom_bokken", **options)
    made, _ = _params.options_from_parameters("boom_bokken", parameters)
    assert fg.make("boom_bokken", **made).options() == fg.make("boom_bokken", **options).options()


# --------------------------------------------------------------------------- OpenSpiel


def _deal_tampered(deal: dict[str, Any]) -> list[dict[str, Any]]:
    """Saved deals each broken in one part (``deal`` is a good one under way)."""
    pools, slots = deal["pools"], deal["slots"]
    return [
        {**deal, "kind": "x"},
        {**deal, "template": "[]"},
        {**deal, "slots": [], "pool_of": []},
        {**deal, "slots": [[["no such key", 5]]] * len(slots)},
        {**deal, "pool_of": [99] * len(slots)},
        {**deal, "pools": [[["zzz", 3]], *pools[1:]]},
        {**deal, "pools": [[[item, 0] for item, _ in pool] for pool in pools]},
        {**deal, "pools": [[[item, 1.5] for item, _ in pool] for pool in pools]},
        {**deal, "pools": [list(reversed(pool)) for pool in pools]},
        {**deal, "pools": [pool[:1] and [[pool[0][0], 1]] for pool in pools]},  # too few
        {**deal, "picks": [pools[0][0][0]] * len(slots)},
        {**deal, "move": [9, 10**9]},
    ]


def test_a_tampered_saved_deal_or_chance_node_is_a_state_error():
    """A saved deal whose parts do not fit (an unknown item, empty or short pools, slots
    that name no place, too many picks, a bad move) and a chance node without its parts
    raise StateError on loading. They used to load, and later calls raised KeyError,
    IndexError, ZeroDivisionError or AssertionError, or gave a node with no outcomes."""
    table = _table("bonsai", num_players=2)
    node = table.initial.apply(0)
    assert node.kind == DEAL
    good = json.loads(node.to_json())
    assert good["deal"]["pools"][0][0][1] > 1  # the "too few" case takes copies away
    tampered = [{**good, "deal": deal} for deal in _deal_tampered(good["deal"])]
    tampered += [
        {**good, "deal": None},  # a deal node without its deal
        {**good, "public": [1]},
        {**good, "kind": ORDER, "deal": None, "queue": []},
        {**good, "kind": FIRST},
    ]
    for data in tampered:
        with pytest.raises(fg.StateError, match="saved"):
            _nodes.node_from_json(json.dumps(data))
    assert _nodes.node_from_json(json.dumps(good)).to_json() == node.to_json()


def _template_edited(node: Any, edit: Callable[[dict[str, Any]], None]) -> str:
    """``node`` saved with its deal's template changed by ``edit``."""
    data = json.loads(node.to_json())
    template = json.loads(data["deal"]["template"])
    edit(template)
    data["deal"]["template"] = json.dumps(template)
    return json.dumps(data)


def test_a_saved_deal_whose_template_is_no_position_is_a_state_error():
    """A saved deal whose template is a JSON dict but makes no position once dealt (an
    unknown goal, an unknown card beside the dealt ones, a slot inside a string) raises
    StateError on loading. They loaded, and the apply_action that ended the deal raised
    IndexError, KeyError or TypeError."""
    bonsai = _table("bonsai", num_players=2, goal_setup="published").initial.apply(0)
    forest = _table("living_forest", num_players=2).initial.apply(0)
    assert bonsai.kind == forest.kind == DEAL

    def unknown_goal(t: dict[str, Any]) -> None:
        t["goals_in_play"] = ["x"]

    def unknown_card(t: dict[str, Any]) -> None:
        t["reserve"]["I"]["row"].append("nonsense")

    def market_a_string(t: dict[str, Any]) -> None:
        t["market"] = "m" * len(t["market"])

    for node, edit in ((bonsai, unknown_goal), (forest, unknown_card), (bonsai, market_a_string)):
        with pytest.raises(fg.StateError, match="does not make a position"):
            _nodes.node_from_json(_template_edited(node, edit))
        assert _nodes.node_from_json(node.to_json()).to_json() == node.to_json()


def test_a_finished_deal_that_makes_no_position_is_a_state_error():
    """Ending a deal whose template makes no position (which loading refuses) raises
    StateError, not the error of the step that failed."""
    table = _table("bonsai", num_players=2, goal_setup="published")
    deal = table.initial.apply(0).deal.completed()
    broken = attrs.evolve(deal, template=json.dumps({**json.loads(deal.template),
                                                     "goals_in_play": [5]}))  # fmt: skip
    with pytest.raises(fg.StateError, match="deal setup does not make a position"):
        table.rules.dealt(broken)
    assert table.rules.dealt(deal).to_dict() == table.rules.finish(deal).to_dict()


@pytest.fixture(scope="module")
def spiel() -> Any:
    """pyspiel with the games registered (the module's OpenSpiel tests skip without it)."""
    pyspiel = pytest.importorskip("pyspiel")
    from forestgames.rl import openspiel as fos

    fos.register()
    return pyspiel


@pytest.fixture
def slow(request: Any) -> None:
    """Skip unless the run selects slow tests (``-m slow``)."""
    if "slow" not in (request.config.option.markexpr or "") or "not slow" in (
        request.config.option.markexpr or ""
    ):
        pytest.skip("slow: run with -m slow")


def _load(spiel: Any, name: str, utility: str = "win", **options: Any) -> Any:
    from forestgames.rl import openspiel as fos

    return fos.load_game(name, utility, **options)


def test_load_game_without_openspiel_names_the_extra(monkeypatch):
    """Without OpenSpiel, ``load_game`` says which extra to install, as ``register`` does
    (it imported pyspiel first: a bare ModuleNotFoundError)."""
    from forestgames.rl import openspiel as fos

    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.setitem(sys.modules, "forestgames.rl.openspiel._spiel", None)
    monkeypatch.delattr(fos, "_spiel", raising=False)
    with pytest.raises(ImportError, match=r"forestgames\[openspiel\]"):
        fos.load_game("bosk", num_players=2)


def test_node_player_ids_are_openspiels(spiel):
    """The nodes' CHANCE and TERMINAL player ids are pyspiel's."""
    assert (_nodes.CHANCE, _nodes.TERMINAL) == (spiel.PlayerId.CHANCE, spiel.PlayerId.TERMINAL)


def test_register_names_every_game_and_is_idempotent(spiel):
    """register() adds forestgames_<name> for the four games, once, and returns the names."""
    from forestgames.rl import openspiel as fos

    names = fos.register()
    assert names == fos.GAME_NAMES == tuple(f"forestgames_{n}" for n in fg.GAME_NAMES)
    assert set(names) <= set(spiel.registered_names())
    assert fos.register() == names


def test_games_load_by_name_with_options_as_parameters(spiel):
    """A game string's parameters become make options (players, lists, bools, utility)."""
    game = spiel.load_game("forestgames_boom_bokken(players=6,team_sizes=3 3,expert=True)")
    assert game.table.game.options()["team_sizes"] == [3, 3]
    assert game.num_players() == 6 and game.table.game.expert
    assert spiel.load_game("forestgames_bosk(players=4)").num_players() == 4
    assert str(_load(spiel, "bonsai", num_players=3)) == str(
        spiel.load_game("forestgames_bonsai(players=3)")
    )
    with pytest.raises(fg.ConfigError, match="played by 2 to 4"):
        spiel.load_game("forestgames_bosk(players=5)")
    with pytest.raises(fg.ConfigError, match="utility must be 'win' or 'score', not 'points'"):
        spiel.load_game("forestgames_bosk(utility=points)")
    for bad in ("points", None, ["win"]):
        with pytest.raises(fg.ConfigError, match="utility must be"):
            _load(spiel, "bosk", utility=bad)
    for name in (["bosk"], {}, np.array("bosk"), None):
        with pytest.raises(fg.ConfigError, match="unknown game"):
            _load(spiel, name)
        with pytest.raises(fg.ConfigError, match="unknown game"):
            _params.game_parameters(name)


def test_utility_given_as_numpy_text_is_that_utility(spiel):
    """``utility=np.str_("score")`` (as iterating a numpy array of names gives) is the
    score utility, a plain str in the parameters, as numpy text is a choice option's value
    everywhere; it was refused as "must be 'win' or 'score', not 'score'"."""
    parameters = _params.game_parameters("bosk", np.str_("score"), num_players=2)
    assert parameters == {"players": 2, "utility": "score"}
    assert type(parameters["utility"]) is str
    game = _load(spiel, "bosk", np.str_("score"))
    assert game.get_parameters()["utility"] == "score" and game.table.utility == "score"
    assert _params.game_parameters("bosk", np.str_("win")) == {}


@pytest.mark.parametrize(("name", "options"), EXTREMES, ids=IDS)
def test_game_type_and_info_come_from_the_traits_and_the_codec(spiel, name, options):
    """Players, chance, information, utilities, action count (plus PASS) and game length."""
    game = _load(spiel, name, **options)
    fg_game = fg.make(name, **options)
    traits, kind, info = fg_game.traits, game.get_type(), game
    assert (kind.min_num_players, kind.max_num_players) == (traits.min_players, traits.max_players)
    assert kind.chance_mode == spiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    perfect = spiel.GameType.Information.PERFECT_INFORMATION
    assert (kind.information == perfect) == (not traits.hidden_information)
    reactions = traits.out_of_turn
    assert info.num_distinct_actions() == fg_game.num_actions + reactions
    length = traits.max_moves * (fg_game.num_players if reactions else 1)
    assert info.max_game_length() == length
    assert (info.min_utility(), info.max_utility()) == (-1.0, 1.0)
    single_winner = name in ("bosk", "bonsai") and fg_game.num_players >= 2
    utility = spiel.GameType.Utility
    expected = utility.GENERAL_SUM
    if single_winner:
        expected = utility.ZERO_SUM if fg_game.num_players == 2 else utility.CONSTANT_SUM
    assert kind.utility == expected
    players = fg_game.num_players
    assert info.observation_tensor_shape() == [
        players + 3 + int(np.prod(fg_game.observation_shape))
    ]
    score = _load(spiel, name, "score", **options)
    assert (score.min_utility(), score.max_utility()) == tuple(map(float, traits.score_range))


SUM_CASES: list[tuple[str, dict[str, Any]]] = [
    *(("bosk", {"num_players": n}) for n in (2, 3, 4)),
    ("bosk", {"num_players": 3, "ties_include_start": False, "squirrel_exactly_three": True}),
    *(("bonsai", {"num_players": n}) for n in (1, 2, 3, 4)),
    ("bonsai", {"num_players": 3, "end_rule": "extra_turn", "goal_setup": "published"}),
    *(("living_forest", {"num_players": n}) for n in (2, 3, 4)),
    *(("boom_bokken", {"num_players": n}) for n in (4, 5)),
]


def _random_returns(game: Any, seed: int) -> list[float]:
    """The returns of one game played to the end through pyspiel's API: chance by its
    probabilities, decisions uniformly among the legal actions."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return list(state.returns())


@pytest.mark.parametrize("utility", ["win", "score"])
@pytest.mark.parametrize(
    ("name", "options"),
    SUM_CASES,
    ids=[f"{n}-{o['num_players']}p-{len(o)}" for n, o in SUM_CASES],
)
def test_declared_utility_sum_is_what_finished_games_return(spiel, name, options, utility):
    """Single-winner Bosk and Bonsai (n >= 2 players, utility "win", any options) declare
    the constant their returns sum to, 1 - (n - 1) = 2 - n: ZERO_SUM with 2 players,
    CONSTANT_SUM with 3 or 4 (they were GENERAL_SUM, utility_sum() None), and random
    finished games return exactly that; every other game, count and utility is
    GENERAL_SUM with no sum."""
    game = _load(spiel, name, utility, **options)
    kind, total = game.get_type().utility, game.utility_sum()
    n = options["num_players"]
    if utility == "win" and name in ("bosk", "bonsai") and n >= 2:
        assert total == 2 - n
        expected = (
            spiel.GameType.Utility.ZERO_SUM if n == 2 else spiel.GameType.Utility.CONSTANT_SUM
        )
        assert kind == expected
        for seed in range(3):
            assert sum(_random_returns(game, seed)) == total
    else:
        assert (kind, total) == (spiel.GameType.Utility.GENERAL_SUM, None)


@pytest.mark.parametrize(("name", "options"), EXTREMES, ids=IDS)
def test_openspiel_random_sim_test(spiel, name, options):
    """OpenSpiel's random_sim_test passes (clones, serialization, observations, returns)."""
    spiel.random_sim_test(_load(spiel, name, **options), num_sims=1, serialize=True, verbose=False)


def test_serialize_and_resample_through_openspiel(spiel):
    """serialize_game_and_state round-trips (history, node JSON); resample_from_infostate
    keeps the seat's information state and the history."""
    game = _load(spiel, "boom_bokken", num_players=5)
    state = game.new_initial_state()
    rng = random.Random(1)
    for step in range(400):
        if state.is_terminal():
            break
        if step % 37 == 0:
            text = spiel.serialize_game_and_state(game, state)
            _, loaded = spiel.deserialize_game_and_state(text)
            assert loaded.history() == state.history()
            assert loaded.node.to_json() == state.node.to_json()
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probabilities)[0])
            continue
        player = state.current_player()
        sample = state.resample_from_infostate(player, spiel.UniformProbabilitySampler(0.0, 1.0))
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.history() == state.history()
        state.apply_action(rng.choice(state.legal_actions()))


def test_observers_show_one_seats_view_only(spiel):
    """OpenSpiel's observation helpers get a seat's tensor and strings; a public-only,
    private-only or all-seats observer is None, as ``make_observation`` promises for a kind
    a game does not support (the views are built from one seat's observation)."""
    from open_spiel.python.observation import make_observation

    game = _load(spiel, "bonsai", num_players=2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    seen = make_observation(game, spiel.IIGObservationType(perfect_recall=True))
    seen.set_from(state, 1)
    assert seen.tensor.tolist() == state.information_state_tensor(1)
    assert seen.string_from(state, 1) == state.information_state_string(1)
    public = spiel.IIGObservationType(perfect_recall=False, private_info=spiel.PrivateInfoType.NONE)
    private = spiel.IIGObservationType(
        public_info=False, perfect_recall=False, private_info=spiel.PrivateInfoType.SINGLE_PLAYER
    )
    every = spiel.IIGObservationType(
        perfect_recall=False, private_info=spiel.PrivateInfoType.ALL_PLAYERS
    )
    for kind in (public, private, every):
        assert make_observation(game, kind) is None


def test_openspiels_make_observer_without_a_kind_is_the_default_observer(spiel):
    """``game.make_observer(params)`` (pyspiel's overload with no observation kind, which
    hands the Python game its parameters as the first argument) gives the default observer;
    it was a ConfigError calling the parameters ``{}`` an observer's type."""
    game = _load(spiel, "bonsai", num_players=2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    seen = spiel._Observation(game, game.make_observer({}))
    seen.set_from(state, 1)
    assert seen.string_from(state, 1) == state.observation_string(1)
    assert game.make_py_observer({}).info_state is False
    with pytest.raises(fg.ConfigError, match="observer parameters are not supported"):
        game.make_observer({"perfect_recall": True})


@pytest.mark.parametrize(
    "game_string",
    [
        "forestgames_bosk(players=2)",
        "forestgames_bonsai(players=2)",
        "forestgames_living_forest(players=2,turn_limit=1)",
        "forestgames_boom_bokken(players=4)",
    ],
)
def test_openspiels_generate_playthrough_runs(spiel, game_string):
    """OpenSpiel's playthrough generator (how its own games' golden files are made) runs to
    the end: it asks a hidden-information game for public and private observers, and the
    ConfigError refusing them stopped it."""
    from open_spiel.python.algorithms import generate_playthrough

    text = generate_playthrough.playthrough(game_string, None, alsologtostdout=False, seed=1)
    assert "IsTerminal() = True" in text and "PublicObservationString" not in text


def test_clones_are_independent(spiel):
    """Applying an action to a clone leaves the original as it was."""
    game = _load(spiel, "bosk", num_players=2)
    state = game.new_initial_state()
    state.apply_action(0)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(state.history()) == 1 and len(clone.history()) == 2
    assert state.forestgames_state.to_dict() != clone.forestgames_state.to_dict()


def _play_with_bots(
    spiel: Any, game: Any, simulations: int, rollout: int | None, seed: int, resampler: bool = False
) -> Any:
    """A whole game, every seat an OpenSpiel Python bot: MCTSBot for perfect information,
    ISMCTSBot otherwise (random rollouts cut after ``rollout`` steps; its resampling drawn
    from the seeded generator too with ``resampler``, as docs/openspiel.md shows)."""
    from open_spiel.python.algorithms import ismcts, mcts

    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng, max_length=rollout)
    perfect = game.get_type().information == spiel.GameType.Information.PERFECT_INFORMATION
    if perfect:
        bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng)
    else:
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rng)
        if resampler:
            bot.set_resampler(lambda s, p: s.resample_from_infostate(p, rng.uniform))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(int(bot.step(state)))
    return state


BOT_GAMES = [
    ("bosk", {"num_players": 2}, 3, None),
    ("bonsai", {"num_players": 2}, 3, None),
    ("living_forest", {"num_players": 2, "turn_limit": 3}, 2, 15),
    ("boom_bokken", {"num_players": 4}, 3, None),
]
SLOW_BOT_GAMES = [
    ("bosk", {"num_players": 4}, 8, None),
    ("bonsai", {"num_players": 4}, 8, None),
    ("living_forest", {"num_players": 2}, 4, 40),
    ("boom_bokken", {"num_players": 9}, 8, None),
    ("boom_bokken", {"num_players": 6, "team_sizes": [3, 3], "expert": True}, 8, None),
]


@pytest.mark.parametrize(("name", "options", "simulations", "rollout"), BOT_GAMES, ids=lambda x: x)
def test_openspiel_python_bots_play_a_whole_game(spiel, name, options, simulations, rollout):
    """OpenSpiel's MCTSBot (Bosk) and ISMCTSBot (the rest) play a game to its end, cheaply."""
    state = _play_with_bots(spiel, _load(spiel, name, **options), simulations, rollout, 0)
    assert state.is_terminal() and max(state.returns()) == 1.0


def test_ismcts_with_a_seeded_resampler_repeats_its_games(spiel):
    """docs/openspiel.md's recipe: ISMCTSBot given a seeded resampler as well as a seeded
    random_state plays the same game twice (its own resampler is unseeded)."""
    game = _load(spiel, "bonsai", num_players=2)
    first, second = (_play_with_bots(spiel, game, 4, 20, 5, resampler=True) for _ in range(2))
    assert first.history() == second.history() and first.is_terminal()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "options", "simulations", "rollout"), SLOW_BOT_GAMES, ids=lambda x: x
)
def test_openspiel_python_bots_play_whole_games_at_every_size(
    spiel, slow, name, options, simulations, rollout
):
    """The same with more simulations, the largest player counts and full-length games."""
    state = _play_with_bots(spiel, _load(spiel, name, **options), simulations, rollout, 1)
    assert state.is_terminal() and len(state.returns()) == options["num_players"]


CPP_BOT = """
import pyspiel
from forestgames.rl import openspiel as fos

game = fos.load_game("bosk", num_players=2)
bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 10, 1000, False, 0, False)
state = game.new_initial_state()
state.apply_action(0)
print(bot.step(state))
"""


def test_openspiels_cpp_mcts_bot_still_crashes_on_python_games(spiel, tmp_path):
    """docs/openspiel.md tells users to take OpenSpiel's Python bots because its C++ MCTSBot
    crashes on Python games: checked in a subprocess (it takes the interpreter down)."""
    root = Path(__file__).resolve().parents[1]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
    }
    script = tmp_path / "cpp_bot.py"
    script.write_text(CPP_BOT, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, timeout=120
    )
    assert result.returncode != 0, "pyspiel.MCTSBot now plays Python games: update the docs"


def test_action_to_string_refuses_ids_that_are_no_action_here(spiel):
    """OpenSpiel hands ``action_to_string`` any int: an id that is not one of the node's
    chance outcomes, or -1 at a seat of a game without PASS, is an IllegalMoveError (they
    read "first player 5", "chance outcome 3" and "0:pass")."""
    state = _load(spiel, "bosk").new_initial_state()
    assert state.action_to_string(-1, 0) == "first player 0"
    for bad in (5, -7, 10**6):
        with pytest.raises(fg.IllegalMoveError, match="not a chance outcome"):
            state.action_to_string(-1, bad)
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(fg.IllegalMoveError, match="outside"):
        state.action_to_string(0, -1)
    bonsai = _load(spiel, "bonsai").new_initial_state()
    while not bonsai.is_chance_node():
        bonsai.apply_action(bonsai.legal_actions()[0])
    with pytest.raises(fg.IllegalMoveError, match="not a chance outcome"):
        bonsai.action_to_string(-1, 10**6)


def test_observers_and_resampling_check_their_arguments(spiel):
    """An observer takes a state of its own game and an int seat; resampling takes a
    callable that returns a number in [0, 1). Before, 1.5, True and "0" were taken as
    seats, other games' states half-worked, and junk raised TypeError, AttributeError,
    numpy's ValueError, OverflowError or a MemoryError."""
    game = _load(spiel, "bonsai")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    observer = game.make_py_observer()
    again = _load(spiel, "bonsai").new_initial_state()  # the same game, loaded again: fine
    observer.set_from(again, 1)
    for seat in (1.5, True, "0", None, -1, 2):
        with pytest.raises(fg.IllegalMoveError, match=r"player must be (an int|in 0\.\.1)"):
            observer.set_from(state, seat)
        with pytest.raises(fg.IllegalMoveError, match=r"player must be (an int|in 0\.\.1)"):
            observer.string_from(state, seat)
    for other in (None, "state", _load(spiel, "bosk").new_initial_state()):
        with pytest.raises(fg.ConfigError, match="not a state of this observer's game"):
            observer.set_from(other, 0)
    with pytest.raises(fg.ConfigError, match="IIGObservationType"):
        game.make_py_observer("x")
    with pytest.raises(fg.ConfigError, match="observer parameters are not supported"):
        game.make_py_observer(None, {"perfect_recall": True})
    for sampler in (3, lambda: float("nan"), lambda: float("inf"), lambda: "x", lambda: 1.0):
        with pytest.raises(fg.ConfigError, match="probability_sampler"):
            state.resample_from_infostate(0, sampler)
    assert state.resample_from_infostate(0, lambda: 0.25).information_state_string(0) == (
        state.information_state_string(0)
    )
    root = game.new_initial_state()  # nothing dealt yet: the player is still checked
    for seat in (1.5, True, -1, 2, 99):
        with pytest.raises(fg.ConfigError, match="player_id"):
            root.resample_from_infostate(seat, lambda: 0.25)


def test_resampling_takes_a_numpy_number_from_its_sampler(spiel):
    """A sampler returning a numpy float or integer in [0, 1) is taken, as the library takes
    numpy numbers everywhere; float32 0.25 was refused as "not a number in [0, 1): 0.25"."""
    game = _load(spiel, "bonsai")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    for draw in (np.float32(0.25), np.float16(0.5), np.int8(0)):
        sample = state.resample_from_infostate(0, lambda draw=draw: draw)
        assert sample.information_state_string(0) == state.information_state_string(0)
    same = state.resample_from_infostate(1, lambda: np.float32(0.25)).forestgames_state
    assert same == state.resample_from_infostate(1, lambda: 0.25).forestgames_state
    for junk in (np.bool_(False), np.float32("nan"), np.float64(1.0)):
        with pytest.raises(fg.ConfigError, match="probability_sampler"):
            state.resample_from_infostate(0, lambda junk=junk: junk)


def test_a_state_loads_only_in_the_game_that_saved_it(spiel):
    """deserialize_state refuses a state saved by another game, other options or another
    utility (StateError): a 2-player Bosk loaded a 4-player state, whose current player
    was then seat 3."""
    bosk4 = _load(spiel, "bosk", num_players=4)
    state = bosk4.new_initial_state()
    state.apply_action(3)
    text = state.serialize()
    for other in (
        _load(spiel, "bosk", num_players=2),
        _load(spiel, "bonsai", num_players=2),
        _load(spiel, "bosk", "score", num_players=4),
    ):
        with pytest.raises(fg.StateError, match="cannot load in"):
            other.deserialize_state(text)
    loaded = _load(spiel, "bosk", num_players=4).deserialize_state(text)
    assert loaded.current_player() == 3 and loaded.history() == state.history()


def test_corrupted_saved_text_is_a_state_error(spiel):
    """deserialize_state of text OpenSpiel cannot load (cut short, garbage, a bad piece,
    bad base64, no text at all) raises the library's StateError, not pickle's or
    OpenSpiel's own; the saved text itself still loads, as text or bytes."""
    game = _load(spiel, "boom_bokken", num_players=4)
    state = game.new_initial_state()
    state.apply_action(1)
    text = state.serialize()
    head, _, payload = text.rpartition("=")
    for bad in (text[:-12], "garbage", f"{head}=!!{payload}", "x\n1\n" + payload, None, b"1"):
        with pytest.raises(fg.StateError, match=r"not a state saved by|state is text, not"):
            game.deserialize_state(bad)
    assert game.deserialize_state(text).history() == state.history()
    assert game.deserialize_state(text.encode()).history() == state.history()


def test_games_pickle(spiel):
    """A game pickles (for multiprocessing and Ray) as its class and parameters, as
    OpenSpiel's own Python games do: the classes were not found by name."""
    import pickle

    for name, options in EXTREMES[::4]:
        game = _load(spiel, name, **options)
        copy = pickle.loads(pickle.dumps(game))
        assert type(copy) is type(game) and copy.get_parameters() == game.get_parameters()
        state = copy.new_initial_state()
        state.apply_action(0)
        assert pickle.loads(pickle.dumps(state)).history() == [0]


UNPICKLE = """
import pickle, sys

state = pickle.loads(open(sys.argv[1], "rb").read())
print(state.history(), state.get_game().num_players())
"""


def unpickled_elsewhere(thing: Any, script: str, tmp_path: Path) -> str:
    """The last line ``script`` prints when it unpickles ``thing`` (its first argument, a
    file) in a fresh Python process, where no game was registered."""
    import pickle

    root = Path(__file__).resolve().parents[1]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
    }
    (tmp_path / "thing.pkl").write_bytes(pickle.dumps(thing))
    (tmp_path / "load.py").write_text(script, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "load.py", "thing.pkl"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        encoding="utf-8",
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.split("\n")[-2]


def test_a_state_unpickles_in_a_fresh_process(spiel, tmp_path):
    """A pickled state loads where the games were never registered (a spawned
    multiprocessing worker, Ray): OpenSpiel's unpickling loads the game by name, and it
    raised SpielError "Unknown game" there."""
    state = _load(spiel, "boom_bokken", num_players=5).new_initial_state()
    state.apply_action(2)
    assert unpickled_elsewhere(state, UNPICKLE, tmp_path) == "[2] 5"


OPENSPIEL_TABLE = {  # the rows of docs/openspiel.md's table of sizes: game, configurations
    "Bosk": ("bosk", [{"num_players": p} for p in (2, 4)]),
    "Bonsai": ("bonsai", [{"num_players": p} for p in (1, 2, 4)]),
    "Living Forest": ("living_forest", [{"num_players": p} for p in (2, 4)]),
    "Boom Bokken": (
        "boom_bokken",
        [
            {"num_players": 4},
            {"num_players": 9},
            {"num_players": 6, "expert": True, "team_sizes": [2, 2, 2]},
        ],
    ),
}


@pytest.mark.parametrize("title", OPENSPIEL_TABLE)
def test_openspiel_page_sizes_are_the_games_own(spiel, title):
    """docs/openspiel.md's table of actions, chance outcomes, game length and tensor size
    gives what each loaded game reports, for the player counts its players column names."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "openspiel.md").read_text(
        encoding="utf-8"
    )
    row = re.search(rf"^\| {title} ((?:\|[^|\n]+)+)\|$", page, re.M)
    assert row, f"docs/openspiel.md has no size row for {title}"
    name, configs = OPENSPIEL_TABLE[title]
    games = [_load(spiel, name, **options) for options in configs]
    expected = [
        doc_tables.players_cell(configs),
        doc_tables.cell(g.num_distinct_actions() for g in games),
        doc_tables.cell(g.max_chance_outcomes() for g in games),
        doc_tables.cell(g.max_game_length() for g in games),
        doc_tables.cell(g.observation_tensor_size() for g in games),
    ]
    assert [cell.strip() for cell in row.group(1).split("|")[1:]] == expected
