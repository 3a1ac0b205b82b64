"""End of turn: Onibi's attacks (Varans, new fires), reserve refill, discards, Sacred Tree."""

import attrs

from forestgames.living_forest._tables import VARAN
from forestgames.living_forest.state import Phase
from tests.living_forest.helpers import acting, checked, play, put, start, to_row


def last_actor(line0, line1, centre=(2, 2), sacred=0, **changes):
    """2 Spirits at the end of the Action phase: the last seat in turn order is to act."""
    state = start()
    state = put(put(state, 0, "line", line0), 1, "line", line1)
    supply = list(state.fire_supply)
    supply[0] += 1  # the starting fire goes back, then the wanted centre comes out
    for value in centre:
        supply[value - 2] -= 1
    state = acting(state, seat_index=1, sacred=sacred, centre=tuple(sorted(centre)),
                   fire_supply=tuple(supply), **changes)  # fmt: skip
    return checked(state)


def end_turn(state):
    """The last seat ends its actions."""
    return play(state, f"{state.current_player}:done")


def test_onibi_example_two_tiles_strength_four():
    """Rulebook example: fires 2 + 2 (strength 4); water 2 and water 1 each get 2 Varans."""
    state = last_actor(["Goldfish"], ["Hummingbird", "Hare"])
    assert state.totals(0)[1] == 2 and state.totals(1)[1] == 1
    after = end_turn(state)
    assert after.discards[0].count(VARAN) == 2 and after.discards[1].count(VARAN) == 2
    assert after.varans == 23 - 4


def test_onibi_spares_water_equal_to_strength():
    """Only water strictly below the fire strength is attacked."""
    state = last_actor(["Goldfish", "Hummingbird", "Lynx"], ["Hare"])
    assert state.totals(0)[1] == 4
    after = end_turn(state)
    assert VARAN not in after.discards[0] and after.discards[1].count(VARAN) == 2


def test_onibi_one_varan_per_fire_tile_not_per_value():
    """Three fires (2, 3, 4) give 3 Varans to each Spirit hit."""
    after = end_turn(last_actor(["Hare"], ["Hare"], centre=(2, 3, 4)))
    assert after.discards[0].count(VARAN) == 3 and after.discards[1].count(VARAN) == 3


def _short_of_varans(sacred):
    state = last_actor(["Hare"], ["Hare"], sacred=sacred)
    return checked(put(state, 1 - state.current_player, "discard", ["FireVaran"] * 20))


def test_varan_shortage_dealt_in_turn_order():
    """3 Varans for 2 Spirits due 2 each: one at a time from the Sacred Tree holder (2, 1)."""
    state = _short_of_varans(sacred=0)
    before = [state.discards[s].count(VARAN) for s in (0, 1)]
    after = end_turn(state)
    gained = [after.discards[s].count(VARAN) - before[s] for s in (0, 1)]
    assert gained == [2, 1] and after.varans == 0


def test_varan_shortage_starts_with_sacred_tree_holder():
    """With seat 1 holding the Sacred Tree, seat 1 gets the extra Varan."""
    state = _short_of_varans(sacred=1)
    before = [state.discards[s].count(VARAN) for s in (0, 1)]
    after = end_turn(state)
    assert [after.discards[s].count(VARAN) - before[s] for s in (0, 1)] == [1, 2]


def test_no_varans_left_nothing_happens():
    """With the Varan stack empty Onibi's attack gives nothing."""
    state = last_actor(["Hare"], ["Hare"])
    state = checked(put(state, 0, "discard", ["FireVaran"] * 23))
    after = end_turn(state)
    assert after.discards[0].count(VARAN) == 23 and VARAN not in after.discards[1]


def _taken(state, level_names):
    """``state`` as if seat 0 had attracted the face-up cards ``level_names`` this turn."""
    from forestgames.living_forest._tables import CARD_INDEX, CARD_LEVEL

    state = to_row(state, level_names)
    taken = list(state.taken)
    for name in level_names:
        taken[CARD_LEVEL[CARD_INDEX[name]] - 1] += 1
    state = put(state, 0, "deck", level_names)
    return attrs.evolve(
        state,
        taken=tuple(taken),
        known=(state.known[0] + len(level_names), *state.known[1:]),
        rows=tuple(tuple(c for c in row if c not in state.decks[0]) for row in state.rows),
    )


def test_fires_added_by_levels_of_cards_taken():
    """Cards of level I, II, III taken add fires 2, 3, 4 (the centre had one 2 left)."""
    state = checked(
        _taken(last_actor(["Hare"], ["Hare"], centre=(2,)), ["Hedgehog", "Woodpecker", "Cricket"])
    )
    after = end_turn(state)
    assert after.centre == (2, 2, 3, 4)
    assert after.fire_supply == tuple(x - 1 for x in state.fire_supply)


def test_fires_never_above_seven_level_order_first():
    """With 5 fires, I/II/III taken add 2 then 3; the 4 would be an eighth and is not added."""
    state = checked(
        _taken(
            last_actor(["Hare"], ["Hare"], centre=(2, 2, 3, 3, 4)),
            ["Hedgehog", "Woodpecker", "Cricket"],
        )
    )
    after = end_turn(state)
    assert after.centre == (2, 2, 2, 3, 3, 3, 4)
    assert after.fire_supply == (
        state.fire_supply[0] - 1,
        state.fire_supply[1] - 1,
        state.fire_supply[2],
    )


def test_seven_fire_cap_holds_with_many_cards_taken():
    """Seven fires in the centre stay seven whatever was taken."""
    state = checked(
        _taken(last_actor(["Hare"], ["Hare"], centre=(2, 2, 2, 3, 3, 3, 4)), ["Hedgehog", "Raven"])
    )
    after = end_turn(state)
    assert len(after.centre) == 7 and after.fire_supply == state.fire_supply


def test_empty_centre_gets_a_fire_of_two():
    """If the centre is empty after Onibi's attack on the Sacred Tree, one fire 2 is added."""
    state = last_actor(["Hare"], ["Hare"], centre=())
    after = end_turn(state)
    assert after.centre == (2,) and after.fire_supply[0] == state.fire_supply[0] - 1
    assert VARAN not in after.discards[0] + after.discards[1]  # no fire, no attack


def test_fire_supply_exhausted_fire_not_added():
    """With no fire of value 3 left, a level II card adds nothing."""
    state = _taken(last_actor(["Hare"], ["Hare"], centre=(2,)), ["Woodpecker"])
    held = (0, state.fire_supply[1], 0)
    state = checked(attrs.evolve(state, fire_supply=(state.fire_supply[0], 0, state.fire_supply[2]),
                                 fires_held=(held, (0, 0, 0))))  # fmt: skip
    after = end_turn(state)
    assert after.centre == (2,)


def test_reserve_refilled_lines_discarded_sacred_tree_passes():
    """End of turn refills each reserve row to 4, moves Help Lines to discards, passes the Tree."""
    state = checked(_taken(last_actor(["Hare", "Bee"], ["Fawn"]), ["Hedgehog"]))
    assert len(state.rows[0]) == 3
    after = end_turn(state)
    assert len(after.rows[0]) == 4 and len(after.stacks[0]) == len(state.stacks[0]) - 1
    assert after.lines == ((), ())
    assert set(state.lines[0]) <= set(after.discards[0]) and set(state.lines[1]) <= set(
        after.discards[1]
    )
    assert (after.phase, after.turn, after.sacred, after.current_player) == (
        Phase.GUARDIANS,
        2,
        1,
        1,
    )
    assert after.taken == (0, 0, 0)


def test_reserve_row_stays_short_when_stack_is_empty():
    """A reserve row that cannot be refilled stays short."""
    state = last_actor(["Hare"], ["Hare"])
    state = put(state, 1, "discard", [_name(c) for c in state.stacks[2]])
    state = checked(_taken(state, [_name(state.rows[2][0])]))
    after = end_turn(state)
    assert len(after.rows[2]) == 3 and after.stacks[2] == ()


def _name(card):
    from forestgames.living_forest._tables import CARD_NAMES

    return CARD_NAMES[card]


def test_full_turn_by_real_moves():
    """A whole 2-player turn by moves: both reveal, act, and the next turn starts with seat 1."""
    state = play(start(), "0:reveal", "0:stop", "1:reveal", "1:stop")
    assert state.phase is Phase.ACTIONS
    while state.phase is Phase.ACTIONS:
        state = state.apply(state.legal_moves()[-1])  # always 'done'
    assert state.turn == 2 and state.current_player == 1
