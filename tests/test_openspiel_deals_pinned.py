"""OpenSpiel deal behaviours a mutation audit of ``forestgames/rl/openspiel/_deals.py`` found
unpinned: the bounds of a saved deal's checks, and a deal never drawing an item it has not
left. None of these needs pyspiel: a saved deal is read back by ``node_from_json``, which
``deserialize_state`` calls."""

from __future__ import annotations

import json
from typing import Any

import pytest

import forestgames as fg
from forestgames.rl.openspiel import _nodes
from forestgames.rl.openspiel._deals import Deal
from forestgames.rl.openspiel._nodes import DEAL
from tests.test_openspiel import _table


def _saved_deal(name: str, **options: Any) -> tuple[Any, dict[str, Any]]:
    """(table, the saved node) of ``name``'s setup deal, seat 0 drawn to start."""
    table = _table(name, **options)
    node = table.initial.apply(0)
    assert node.kind == DEAL and not node.deal.picks
    return table, json.loads(node.to_json())


def _loads_with(saved: dict[str, Any], **deal: Any) -> None:
    """Load ``saved`` with the parts ``deal`` of its deal replaced."""
    _nodes.node_from_json(json.dumps({**saved, "deal": {**saved["deal"], **deal}}))


def test_a_saved_deals_move_must_be_a_seat_and_an_action_id_each_in_range() -> None:
    """A saved deal's move (the seat and action id a reshuffle replays) is refused by name
    when either part is one past its last value (seats 0..1, ids 0..23339 in 2-player
    Bonsai) or when only one of the two parts is out of range; the last seat and the last
    id load."""
    table, saved = _saved_deal("bonsai", num_players=2)
    assert (table.num_players, table.codec.num_actions) == (2, 23340)
    for move in ([2, 0], [0, 23340], [0, 10**9], [9, 0], [-1, 0], [0, -1]):
        with pytest.raises(fg.StateError, match=r"a saved deal's move is not a \(seat, action"):
            _loads_with(saved, move=move)
    _loads_with(saved, move=[1, 23339])


def test_a_saved_deals_pool_of_must_name_a_pool_it_has_one_per_slot() -> None:
    """pool_of, the pool each slot draws from, is refused by name when it names pool 1 of a
    deal with one pool (2-player Bonsai: one pile of cards) or when it has one entry fewer
    or more than there are slots."""
    _, saved = _saved_deal("bonsai", num_players=2)
    deal = saved["deal"]
    assert len(deal["pools"]) == 1 and set(deal["pool_of"]) == {0}
    with pytest.raises(fg.StateError, match="a saved deal's pool_of names a pool it does not"):
        _loads_with(saved, pool_of=[1] * len(deal["slots"]))
    for pool_of in (deal["pool_of"][1:], [*deal["pool_of"], 0]):
        with pytest.raises(fg.StateError, match="a saved deal's slots do not match its pool_of"):
            _loads_with(saved, pool_of=pool_of)


@pytest.mark.parametrize(
    "slot",
    [[], [[]], [["market", True]], [["market", 0.0]], [["market", None]], [["market", 0], []]],
    ids=["no-path", "empty-path", "bool-key", "float-key", "null-key", "one-path-empty"],
)
def test_a_saved_deals_slot_must_be_paths_of_keys_and_list_indices(slot: Any) -> None:
    """A slot is one or more non-empty paths of str keys and int indices: an empty slot, an
    empty path, or a key that is a bool, a float or null is refused by name (True would
    index a list as 1, an empty path the whole position)."""
    _, saved = _saved_deal("bonsai", num_players=2)
    slots = saved["deal"]["slots"]
    with pytest.raises(fg.StateError, match="a saved deal's slot is not a list of paths"):
        _loads_with(saved, slots=[slot, *slots[1:]])


def test_a_saved_deal_whose_slot_has_more_paths_than_its_items_have_parts_is_refused() -> None:
    """In Expert Boom Bokken a character card is a (team, role) pair filling two paths; a
    saved deal whose first slot has a third path (another seat's team) makes no position:
    StateError, not a position with the third path left as the template had it."""
    _, saved = _saved_deal("boom_bokken", num_players=6, team_sizes=[3, 3], expert=True)
    slots = saved["deal"]["slots"]
    assert slots[0] == [["teams", 0], ["roles", 0]]
    with pytest.raises(fg.StateError, match="deal setup does not make a position"):
        _loads_with(saved, slots=[[*slots[0], ["teams", 1]], *slots[1:]])


def test_a_deal_never_draws_an_item_it_has_no_copy_of_left() -> None:
    """Each item is drawn with probability (copies left) / (items left) (docs/openspiel.md),
    so one with no copy left cannot be drawn: picking it, or an item the pool never had,
    raises StateError and the deal is unchanged (a deck a, b, b, c with a drawn: b twice,
    c once left)."""
    data = {"deck": ["a", "b", "b", "c"]}
    deal = Deal.of("setup", data, [[(("deck", i),) for i in range(4)]]).pick('"a"')
    assert deal.outcomes() == (('"b"', 2), ('"c"', 1))
    for item in ('"a"', '"z"'):
        with pytest.raises(fg.StateError, match="is not left to draw"):
            deal.pick(item)
    assert deal.outcomes() == (('"b"', 2), ('"c"', 1)) and deal.picks == ('"a"',)


def test_a_saved_deals_pool_may_not_list_an_item_with_no_copies() -> None:
    """A pool lists only items with at least one copy left: a saved deal whose card pile
    also lists a goal colour with 0 copies (an item of the game, in its sorted place, the
    total unchanged) is refused by name; loaded, its chance node would offer that colour
    as an outcome of probability 0."""
    _, saved = _saved_deal("bonsai", num_players=2)
    pools = saved["deal"]["pools"]
    assert len(pools) == 1 and '"orange"' not in dict(pools[0])
    pool = sorted([*pools[0], ['"orange"', 0]])
    assert pool[0] == pools[0][0] and pool[-1] == pools[0][-1]  # inside the pile's order
    with pytest.raises(fg.StateError, match=r"a saved deal's pool's counts are not ints >= 1"):
        _loads_with(saved, pools=[pool])
