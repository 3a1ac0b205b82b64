"""Saved Living Forest states: the schema of ``to_dict`` and the rules' invariants.

Cards are written by name, trees by id, decks top first. The schema checks
every type, size and range; what remains is cross-field, each a small named
check: every card in exactly one place, fires, Fragments and Victory tiles
conserved, forests grown by the adjacency rule, and a phase and step a legal
game reaches. Each raises StateError.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from forestgames.core import StateError, require
from forestgames.living_forest import moves as mv
from forestgames.living_forest._tables import (
    ACTIONS,
    ATTRACT,
    CARD_INDEX,
    CARD_LEVEL,
    CARD_NAMES,
    CENTRE_LIMIT,
    CORNER_EXTRA,
    EXTINGUISH,
    FIRE_VALUES,
    FOREST_COLS,
    FOREST_ROWS,
    FRAGMENT_SUPPLY,
    GOAL,
    LEVEL_CARDS,
    LEVEL_NAMES,
    MOVE,
    NEIGHBOURS,
    PLANT_ACTION,
    ROCK_BONUS,
    ROCKS,
    ROW_SIZE,
    SAME_ACTION_TREE,
    SOLITARY_LIMIT,
    START_CELL,
    START_DECK,
    START_TREE,
    SUN,
    TREE_COPIES,
    TREE_INDEX,
    TREE_NAMES,
    VARAN,
    VARAN_COPIES,
    VICTORY_KINDS,
    WATER,
)
from forestgames.living_forest.scoring import _element_totals, _solitary_count
from forestgames.living_forest.state import GuardianStart, LivingForestState, Phase, Step
from forestgames.schema import Choice, Field, Int, List, Nullable, Record, Spec, Tuple

if TYPE_CHECKING:
    from forestgames.living_forest.rules import LivingForestGame

__all__ = ["INVARIANTS", "state_fields", "state_from_fields", "varans_returned"]

RESERVE_LEVELS: tuple[str, ...] = LEVEL_NAMES[1:4]
"""The reserve's keys in a saved state: "I", "II", "III"."""
_FIRE_KEYS: tuple[str, ...] = tuple(str(v) for v in FIRE_VALUES)
"""A Spirit's fire tiles held, keys by value: "2", "3", "4"."""
MAX_PILE = len(START_DECK) + sum(len(cards) for cards in LEVEL_CARDS.values()) + VARAN_COPIES
"""The most cards one Spirit's deck, Help Line or discard pile can hold (88)."""
MAX_BUDGET = 255
"""A bound on the sun or water of an Attract or Extinguish (the invariants are exact)."""
MAX_PICKS = ROW_SIZE * len(RESERVE_LEVELS)
"""The most cards (12, every face-up card) or fires (7) one Attract or Extinguish takes."""
ENTROPY_LIMIT = 2**62
"""Reshuffle seeds are drawn below this bound."""

CARD = Choice(CARD_NAMES)
TREE = Nullable(Choice(TREE_NAMES))


def _spirit_spec(game: LivingForestGame) -> Record:
    p = game.num_players
    pile = List(CARD, max_len=MAX_PILE)
    return Record(
        {
            "deck": pile,
            "known": Int(0, MAX_PILE),
            "line": pile,
            "discard": pile,
            "fragments": Int(0, FRAGMENT_SUPPLY),
            "forest": List(
                List(TREE, length=FOREST_COLS),
                length=FOREST_ROWS,
                form=f"{FOREST_ROWS} rows of {FOREST_COLS} tree ids or null",
            ),
            "rock": Int(0, ROCKS - 1),
            "victory": Record({kind: Int(0, p) for kind in VICTORY_KINDS}),
            "fires": Record(
                {key: Int(0, n) for key, n in zip(_FIRE_KEYS, game.fire_tiles, strict=True)}
            ),
        }
    )


def observation_fields(game: LivingForestGame) -> dict[str, Spec]:
    """An observation's keys besides ``observer``: a saved state's without the reshuffle
    seed, reserve stacks as their sizes, and each Spirit as ``observation`` shows it."""
    hidden = ("entropy", "guardian_start")  # the others' start shows in their Spirits
    fields = {field.key: field.spec for field in game._schema.fields if field.key not in hidden}
    fields["reserve"] = _reserve_spec(stack_sizes=True)
    saved_spirit = _spirit_spec(game).fields
    pile = saved_spirit["deck"]
    spirit = {key: spec for key, spec in saved_spirit.items() if key != "deck"}
    spirit.update(
        deck_size=Int(0, MAX_PILE),
        deck_top=List(CARD, max_len=sum(map(len, LEVEL_CARDS.values()))),  # attracted cards
        discard_size=Int(0, MAX_PILE),
        cards=List(CARD, max_len=2 * MAX_PILE),
        deck_rest=pile,
    )
    optional = frozenset(("discard", "deck_rest"))  # the observer's Spirit only
    fields["spirits"] = List(Record(spirit, optional), length=game.num_players)
    return fields


def _reserve_spec(stack_sizes: bool = False) -> Spec:
    return Record(
        {
            name: Record(
                {
                    "stack": (
                        Int(0, len(LEVEL_CARDS[level]))
                        if stack_sizes
                        else List(CARD, max_len=len(LEVEL_CARDS[level]))
                    ),
                    "row": List(CARD, max_len=ROW_SIZE),
                }
            )
            for level, name in enumerate(RESERVE_LEVELS, 1)
        }
    )


def state_fields(game: LivingForestGame) -> tuple[Field, ...]:
    """The fields of a saved Living Forest state, in ``to_dict`` order."""
    p = game.num_players
    seat = Int(0, p - 1)
    fires = Tuple(*(Int(0, n) for n in game.fire_tiles))
    fields: tuple[Field, ...] = (
        Field("phase", Choice(tuple(x.value for x in Phase)), lambda s: s.phase.value),
        Field("turn", Int(1, game.turn_limit), lambda s: s.turn),
        Field("sacred", seat, lambda s: s.sacred),
        Field("seat_index", seat, lambda s: s.seat_index),
        Field("step", Choice(tuple(x.value for x in Step)), lambda s: s.step.value),
        Field(
            "actions",
            List(Choice(ACTIONS), max_len=2),
            lambda s: [ACTIONS[a] for a in s.actions],
        ),
        Field("budget", Int(0, MAX_BUDGET), lambda s: s.budget),
        Field("picks", Int(0, MAX_PICKS), lambda s: s.picks),
        Field("passed", List(seat, max_len=p - 1), lambda s: list(s.passed)),
        Field(
            "bonus",
            Nullable(Choice(ACTIONS)),
            lambda s: None if s.bonus < 0 else ACTIONS[s.bonus],
        ),
        Field("spirits", List(_spirit_spec(game), length=p), _write_spirits),
        Field("centre", List(Int(2, 4), max_len=CENTRE_LIMIT), lambda s: list(s.centre)),
        Field("fire_supply", fires, lambda s: list(s.fire_supply)),
        Field("varans", Int(0, VARAN_COPIES), lambda s: s.varans),
        Field("reserve", _reserve_spec(), _write_reserve),
        Field("taken", Tuple(*(Int(0, ROW_SIZE),) * 3), lambda s: list(s.taken)),
        Field("entropy", Int(0, ENTROPY_LIMIT - 1), lambda s: s.entropy),
    )
    if game.guardian_phase == "simultaneous":
        fields += (Field("guardian_start", _start_spec(game), _write_start),)
    return fields


def _start_spec(game: LivingForestGame) -> Spec:
    """``guardian_start``: null, or each seat's deck, known top, discard pile and Fragments
    and the Varan stack as the simultaneous Guardian phase started."""
    pile = List(CARD, max_len=MAX_PILE)
    spirit = Record(
        {
            "deck": pile,
            "known": Int(0, MAX_PILE),
            "discard": pile,
            "fragments": Int(0, FRAGMENT_SUPPLY),
        }
    )
    return Nullable(
        Record({"spirits": List(spirit, length=game.num_players), "varans": Int(0, VARAN_COPIES)})
    )


def _write_start(state: LivingForestState) -> dict[str, Any] | None:
    start = state.guardian_start
    if start is None:
        return None
    spirits = [
        {"deck": _names(deck), "known": known, "discard": _names(discard), "fragments": held}
        for deck, known, discard, held in zip(
            start.decks, start.known, start.discards, start.fragments, strict=True
        )
    ]
    return {"spirits": spirits, "varans": start.varans}


def _read_start(entry: dict[str, Any] | None) -> GuardianStart | None:
    if entry is None:
        return None
    spirits = entry["spirits"]
    return GuardianStart(
        decks=tuple(_ids(s["deck"]) for s in spirits),
        known=tuple(s["known"] for s in spirits),
        discards=tuple(_ids(s["discard"]) for s in spirits),
        fragments=tuple(s["fragments"] for s in spirits),
        varans=entry["varans"],
    )


def _names(cards: tuple[int, ...]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def _write_spirits(state: LivingForestState) -> list[dict[str, Any]]:
    return [_write_spirit(state, seat) for seat in range(len(state.decks))]


def _write_spirit(state: LivingForestState, seat: int) -> dict[str, Any]:
    forest = state.forests[seat]
    return {
        "deck": _names(state.decks[seat]),
        "known": state.known[seat],
        "line": _names(state.lines[seat]),
        "discard": _names(state.discards[seat]),
        "fragments": state.fragments[seat],
        "forest": [
            [
                None if t < 0 else TREE_NAMES[t]
                for t in forest[r * FOREST_COLS : (r + 1) * FOREST_COLS]
            ]
            for r in range(FOREST_ROWS)
        ],
        "rock": state.rocks[seat],
        "victory": dict(zip(VICTORY_KINDS, state.victory[seat], strict=True)),
        "fires": dict(zip(_FIRE_KEYS, state.fires_held[seat], strict=True)),
    }


def _write_reserve(state: LivingForestState) -> dict[str, Any]:
    return {
        name: {"stack": _names(state.stacks[k]), "row": _names(state.rows[k])}
        for k, name in enumerate(RESERVE_LEVELS)
    }


# ---------------------------------------------------------------------- decoding


def _ids(names: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(CARD_INDEX[name] for name in names)


def _cells(rows: tuple[tuple[str | None, ...], ...]) -> tuple[int, ...]:
    return tuple(-1 if tree is None else TREE_INDEX[tree] for row in rows for tree in row)


def state_from_fields(game: LivingForestGame, fields: dict[str, Any]) -> LivingForestState:
    """The state the checked ``fields`` describe (invariants not yet checked)."""
    bonus = fields["bonus"]
    return LivingForestState(
        game=game,
        phase=Phase(fields["phase"]),
        turn=fields["turn"],
        sacred=fields["sacred"],
        seat_index=fields["seat_index"],
        **_spirit_fields(fields["spirits"]),
        centre=fields["centre"],
        fire_supply=fields["fire_supply"],
        varans=fields["varans"],
        **_reserve_fields(fields["reserve"]),
        taken=fields["taken"],
        actions=tuple(ACTIONS.index(a) for a in fields["actions"]),
        step=Step(fields["step"]),
        budget=fields["budget"],
        picks=fields["picks"],
        passed=fields["passed"],
        bonus=-1 if bonus is None else ACTIONS.index(bonus),
        entropy=fields["entropy"],
        guardian_start=_read_start(fields.get("guardian_start")),
    )


def _spirit_fields(spirits: tuple[dict[str, Any], ...]) -> dict[str, tuple[Any, ...]]:
    """The per-seat state fields from the checked ``spirits`` entries."""
    return {
        "decks": tuple(_ids(s["deck"]) for s in spirits),
        "known": tuple(s["known"] for s in spirits),
        "lines": tuple(_ids(s["line"]) for s in spirits),
        "discards": tuple(_ids(s["discard"]) for s in spirits),
        "fragments": tuple(s["fragments"] for s in spirits),
        "forests": tuple(_cells(s["forest"]) for s in spirits),
        "rocks": tuple(s["rock"] for s in spirits),
        "victory": tuple(_by_keys(s["victory"], VICTORY_KINDS) for s in spirits),
        "fires_held": tuple(_by_keys(s["fires"], _FIRE_KEYS) for s in spirits),
    }


def _reserve_fields(reserve: dict[str, dict[str, Any]]) -> dict[str, tuple[Any, ...]]:
    """The reserve's stacks and face-up rows, levels I to III, from the checked entries."""
    return {
        "stacks": tuple(_ids(reserve[name]["stack"]) for name in RESERVE_LEVELS),
        "rows": tuple(_ids(reserve[name]["row"]) for name in RESERVE_LEVELS),
    }


def _by_keys(entry: dict[str, int], keys: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(entry[k] for k in keys)


# ---------------------------------------------------------------------- invariants: components


def piles_in_order(state: LivingForestState) -> None:
    """Discard piles, face-up reserve rows and the centre's fires are kept sorted."""
    for seat, discard in enumerate(state.discards):
        require(
            list(discard) == sorted(discard),
            StateError,
            f"spirits[{seat}].discard must be in card order",
        )
    for name, row in zip(RESERVE_LEVELS, state.rows, strict=True):
        require(list(row) == sorted(row), StateError, f"reserve.{name}.row must be in card order")
    require(list(state.centre) == sorted(state.centre), StateError, "centre fires must be sorted")


def start_cards_once(state: LivingForestState) -> None:
    """Each Spirit holds each of its start cards exactly once (deck, Help Line, discard)."""
    for seat in range(len(state.decks)):
        own = Counter(state.decks[seat] + state.lines[seat] + state.discards[seat])
        for card in START_DECK:
            require(
                own[card] == 1,
                StateError,
                f"seat {seat} has {own[card]} {CARD_NAMES[card]} cards; each Spirit has 1",
            )


def known_cards_attracted(state: LivingForestState) -> None:
    """A deck's known top is no longer than the deck and holds attracted (reserve) cards."""
    for seat, (deck, known) in enumerate(zip(state.decks, state.known, strict=True)):
        require(
            known <= len(deck),
            StateError,
            f"spirits[{seat}].known = {known}, but the deck holds {len(deck)} cards",
        )
        for card in deck[:known]:
            require(
                CARD_LEVEL[card] in (1, 2, 3),
                StateError,
                f"seat {seat}'s known deck top holds {CARD_NAMES[card]}, not an attracted card",
            )


def _everywhere(state: LivingForestState) -> Counter[int]:
    piles = (state.decks, state.lines, state.discards, state.stacks, state.rows)
    return Counter(c for group in piles for pile in group for c in pile)


def reserve_cards_once(state: LivingForestState) -> None:
    """Every reserve card is in exactly one place; each reserve level holds its own cards."""
    everywhere = _everywhere(state)
    for level, cards in LEVEL_CARDS.items():
        for card in cards:
            require(
                everywhere[card] == 1,
                StateError,
                f"card {CARD_NAMES[card]} appears {everywhere[card]} times; there is 1",
            )
        for where, pile in (("stack", state.stacks[level - 1]), ("row", state.rows[level - 1])):
            require(
                all(CARD_LEVEL[c] == level for c in pile),
                StateError,
                f"reserve {LEVEL_NAMES[level]} {where} holds a card of another level",
            )


def varans_conserved(state: LivingForestState) -> None:
    """Fire Varans in play plus those in their stack make the 23 of the game."""
    in_play = _everywhere(state)[VARAN]
    require(
        in_play + state.varans == VARAN_COPIES,
        StateError,
        f"{in_play} Fire Varans in play + {state.varans} stacked != {VARAN_COPIES}",
    )


def reserve_rows_refilled(state: LivingForestState) -> None:
    """A face-up row plus its cards taken this turn is 4, or less once its stack is empty."""
    for k, row in enumerate(state.rows):
        taken = state.taken[k]
        full = len(row) + taken
        require(
            full <= ROW_SIZE and (full == ROW_SIZE or not state.stacks[k]),
            StateError,
            f"reserve row {LEVEL_NAMES[k + 1]} has {len(row)} cards, {taken} taken this turn",
        )


def taken_cards_on_decks(state: LivingForestState) -> None:
    """Cards attracted this turn still lie on the known tops of decks (drawn next turn only)."""
    on_top = Counter(
        CARD_LEVEL[c]
        for deck, known in zip(state.decks, state.known, strict=True)
        for c in deck[:known]
    )
    for k, taken in enumerate(state.taken):
        require(
            on_top[k + 1] >= taken,
            StateError,
            f"{taken} level {LEVEL_NAMES[k + 1]} cards taken this turn, but only "
            f"{on_top[k + 1]} lie on the known tops of decks",
        )


def fragments_conserved(state: LivingForestState) -> None:
    """The Spirits hold at most the 20 Fragments of the game."""
    held = sum(state.fragments)
    require(
        held <= FRAGMENT_SUPPLY, StateError, f"{held} Fragments held; there are {FRAGMENT_SUPPLY}"
    )


def victory_tiles_conserved(state: LivingForestState) -> None:
    """Each kind of Victory tile: one per Spirit, wherever they are now."""
    p = len(state.decks)
    for k, kind in enumerate(VICTORY_KINDS):
        held = sum(v[k] for v in state.victory)
        require(held == p, StateError, f"{held} {kind} Victory tiles held; there are {p}")


def fires_conserved(state: LivingForestState) -> None:
    """Each fire value: supply + centre + tiles held is the game's count (option fire_tiles)."""
    for k, value in enumerate(FIRE_VALUES):
        count = (
            state.fire_supply[k] + state.centre.count(value) + sum(h[k] for h in state.fires_held)
        )
        expected = state.game.fire_tiles[k]
        require(
            count == expected,
            StateError,
            f"{count} fire tiles of value {value} in play; the game has {expected}",
        )


def rocks_distinct(state: LivingForestState) -> None:
    """One Spirit per rock of the Circle."""
    require(
        len(set(state.rocks)) == len(state.rocks),
        StateError,
        f"two Spirits on one rock: {list(state.rocks)}",
    )


def trees_in_supply(state: LivingForestState) -> None:
    """No more trees of a type are planted than the player count's copies."""
    planted = Counter(t for forest in state.forests for t in forest if t > 0)
    copies = TREE_COPIES[len(state.decks)]
    for tree, count in planted.items():
        require(
            count <= copies[tree],
            StateError,
            f"{count} trees {TREE_NAMES[tree]} planted; there are {copies[tree]}",
        )


def forests_grown(state: LivingForestState) -> None:
    """Each forest grew from its starting tree by the adjacency rule (and duplicate_trees)."""
    for seat, forest in enumerate(state.forests):
        require(
            forest[START_CELL] == START_TREE and forest.count(START_TREE) == 1,
            StateError,
            f"seat {seat}'s forest needs its starting tree at row 1, col 2 and only there",
        )
        require(
            len(_connected(forest)) == sum(1 for t in forest if t >= 0),
            StateError,
            f"seat {seat}'s forest has a tree not connected to the starting tree",
        )
        trees = [t for t in forest if t > 0]
        require(
            state.game.duplicate_trees or len(set(trees)) == len(trees),
            StateError,
            f"seat {seat} has two trees of one type (duplicate_trees is off)",
        )


def _connected(forest: tuple[int, ...]) -> set[int]:
    """The cells with a tree reached from the starting cell through trees."""
    reached, frontier = {START_CELL}, [START_CELL]
    while frontier:
        for n in NEIGHBOURS[frontier.pop()]:
            if forest[n] >= 0 and n not in reached:
                reached.add(n)
                frontier.append(n)
    return reached


# ---------------------------------------------------------------------- invariants: the turn


def _idle(state: LivingForestState) -> bool:
    """No action under way (outside the Action phase every action field is at rest)."""
    return (
        state.step is Step.CHOOSE
        and not state.actions
        and not state.budget
        and not state.picks
        and not state.passed
        and state.bonus < 0
    )


def _acting_seat(state: LivingForestState) -> int:
    return (state.sacred + state.seat_index) % len(state.decks)


def solitary_within_limit(state: LivingForestState) -> None:
    """No Help Line holds more than 3 uncancelled solitary symbols (revealing stops there)."""
    require(
        all(_solitary_count(line) <= SOLITARY_LIMIT for line in state.lines),
        StateError,
        f"a Help Line holds more than {SOLITARY_LIMIT} uncancelled solitary symbols",
    )


def guardian_phase(state: LivingForestState) -> None:
    """While revealing: no action under way, no card taken, later seats' Help Lines empty."""
    if state.phase is not Phase.GUARDIANS:
        return
    require(
        _idle(state) and not any(state.taken),
        StateError,
        "guardians: no action may be under way and no card taken yet",
    )
    for seat in state.turn_order[state.seat_index + 1 :]:
        require(
            not state.lines[seat],
            StateError,
            f"guardians: seat {seat} has not revealed yet, its Help Line must be empty",
        )


def varans_returned(state: LivingForestState, start: GuardianStart, seat: int) -> int:
    """Fire Varans ``seat`` sent back to their stack since the phase ``start``: those it had
    then less those it holds now (option ``varan_returns``; nothing else moves them)."""
    then = (start.decks[seat] + start.discards[seat]).count(VARAN)
    return then - (state.decks[seat] + state.lines[seat] + state.discards[seat]).count(VARAN)


def guardian_start_kept(state: LivingForestState) -> None:
    """``guardian_start`` exactly during a simultaneous Guardian phase; each seat's cards
    then are its cards now (and the Varans it sent back), its known top then holds
    attracted cards, it had at least its Fragments now, a seat yet to reveal is as it
    started, and the Varan stack grew by the Varans sent back."""
    start = state.guardian_start
    if state.game.guardian_phase != "simultaneous":
        require(start is None, StateError, "guardian_start is kept in a simultaneous phase only")
        return
    revealing = state.phase is Phase.GUARDIANS
    require(
        (start is not None) == revealing,
        StateError,
        "guardian_start is kept during the Guardian phase only"
        if start is not None
        else "guardian_start is missing: the Guardian phase is under way",
    )
    if start is None:
        return
    returned = 0
    for seat in range(len(state.decks)):
        returned += _start_of_seat(state, start, seat)
    require(
        state.varans == start.varans + returned,
        StateError,
        f"guardian_start: {start.varans} Fire Varans stacked then, {returned} sent back, but "
        f"{state.varans} stacked now",
    )
    require(
        sum(start.fragments) <= FRAGMENT_SUPPLY,
        StateError,
        f"guardian_start: {sum(start.fragments)} Fragments held; there are {FRAGMENT_SUPPLY}",
    )


def _start_of_seat(state: LivingForestState, start: GuardianStart, seat: int) -> int:
    """Check ``seat``'s phase-start pieces against its pieces now; the Varans it sent back."""
    where = f"guardian_start.spirits[{seat}]"
    deck, known = start.decks[seat], start.known[seat]
    require(
        known <= len(deck) and all(CARD_LEVEL[c] in (1, 2, 3) for c in deck[:known]),
        StateError,
        f"{where}: its known top ({known} cards) must be attracted cards of its deck",
    )
    require(
        list(start.discards[seat]) == sorted(start.discards[seat]),
        StateError,
        f"{where}.discard must be in card order",
    )
    returned = varans_returned(state, start, seat)
    then = Counter(deck + start.discards[seat])
    now = Counter(state.decks[seat] + state.lines[seat] + state.discards[seat])
    now[VARAN] += returned
    require(
        then == now and returned >= 0 and (not returned or state.game.varan_returns),
        StateError,
        f"{where}: the cards then are not the seat's cards now (deck, Help Line, discard pile)",
    )
    require(
        state.fragments[seat] <= start.fragments[seat],
        StateError,
        f"{where}: {start.fragments[seat]} Fragments then, {state.fragments[seat]} now",
    )
    if seat in state.turn_order[state.seat_index + 1 :]:
        require(
            (deck, known, start.discards[seat], start.fragments[seat])
            == (state.decks[seat], state.known[seat], state.discards[seat], state.fragments[seat]),
            StateError,
            f"{where}: seat {seat} has not revealed yet, it must be as it started the phase",
        )
    return returned


def no_goal_while_revealing(state: LivingForestState) -> None:
    """Trees and fires only grow in the Action phase, which ends the game at 12."""
    if state.phase is not Phase.GUARDIANS:
        return
    for seat, (trees, fires, _) in enumerate(state.progress):
        require(
            max(trees, fires) < GOAL,
            StateError,
            f"guardians: seat {seat} has {trees} trees and {fires} fires; the game ended at {GOAL}",
        )


def centre_lit_while_revealing(state: LivingForestState) -> None:
    """Every turn starts with a fire in the centre, unless fires of value 2 ran out."""
    require(
        state.phase is not Phase.GUARDIANS or bool(state.centre) or not state.fire_supply[0],
        StateError,
        "guardians: the centre is empty, but the end of turn adds a fire of value 2",
    )


def game_over(state: LivingForestState) -> None:
    """The game ends after an Action phase with a Spirit at 12, or at the turn limit."""
    if state.phase is not Phase.OVER:
        return
    require(_idle(state) and not state.seat_index, StateError, "over: no action may be under way")
    limit = state.game.turn_limit
    require(
        state.turn >= limit or any(max(x) >= GOAL for x in state.progress),
        StateError,
        f"over before turn {limit} with no Spirit at {GOAL}",
    )


def actions_taken(state: LivingForestState) -> None:
    """The acting seat's normal actions: within its limit, different without Tree 11."""
    if state.phase is not Phase.ACTIONS:
        return
    seat = _acting_seat(state)
    limit = state.game._action_limit(state, seat)
    require(
        len(state.actions) <= limit,
        StateError,
        f"seat {seat} has {len(state.actions)} actions; its limit is {limit}",
    )
    require(
        len(set(state.actions)) == len(state.actions) or SAME_ACTION_TREE in state.forests[seat],
        StateError,
        f"seat {seat} repeated an action without Tree 11",
    )


def step_fields(state: LivingForestState) -> None:
    """Each step's own fields, and only there; a step beyond choosing follows an action."""
    step = state.step
    require(
        step is Step.VICTORY or (not state.passed and state.bonus < 0),
        StateError,
        f"{step.value}: passed Spirits and a pending rock bonus belong to the victory step",
    )
    require(
        step in (Step.ATTRACT, Step.EXTINGUISH) or not (state.budget or state.picks),
        StateError,
        f"{step.value}: a budget and picks belong to an Attract or Extinguish",
    )
    require(
        step is Step.CHOOSE or bool(state.actions),
        StateError,
        f"{step.value}: the step follows an action, but none is recorded",
    )
    require(
        step not in (Step.VICTORY, Step.PLANT) or MOVE in state.actions,
        StateError,
        f"{step.value}: the step follows a Move, but no Move is recorded",
    )


def victory_step(state: LivingForestState) -> None:
    """Victory tiles are due from other Spirits passed (at least one), in circle order, each
    holding one."""
    if state.step is not Step.VICTORY:
        return
    seat = _acting_seat(state)
    passed, rocks = state.passed, state.rocks
    require(
        bool(passed),
        StateError,
        "victory: passed is empty, but the step is there to take a Victory tile from a "
        "passed Spirit",
    )
    require(
        seat not in passed and len(set(passed)) == len(passed),
        StateError,
        "victory: the passed Spirits must be other seats, each once",
    )
    for other in passed:
        require(
            any(state.victory[other]),
            StateError,
            f"victory: seat {other} has no Victory tile to take",
        )
    behind = [(rocks[seat] - rocks[other]) % ROCKS for other in passed]
    require(
        behind == sorted(behind, reverse=True),
        StateError,
        "victory: the passed Spirits are not in the order the Move passed them",
    )
    require(
        state.bonus == ROCK_BONUS[rocks[seat]],
        StateError,
        "victory: the pending bonus must be the arrival rock's action",
    )


def plant_step(state: LivingForestState) -> None:
    """A bonus Plant comes from the arrival rock of a Move."""
    if state.step is not Step.PLANT:
        return
    rock = state.rocks[_acting_seat(state)]
    require(
        ROCK_BONUS[rock] == PLANT_ACTION,
        StateError,
        f"plant: the bonus Plant comes from a Plant rock, not rock {rock}",
    )


_CORNER_PLUS = {action: plus for action, plus in CORNER_EXTRA.values()}


def gathering_step(state: LivingForestState) -> None:
    """An Attract's (Extinguish's) budget is within the sun (water), a corner's plus included;
    its picks are among the cards taken (fires held)."""
    step = state.step
    if step not in (Step.ATTRACT, Step.EXTINGUISH):
        return
    seat = _acting_seat(state)
    totals = _element_totals(state.lines[seat], state.forests[seat])
    if step is Step.ATTRACT:
        most, picked = totals[SUN] + _CORNER_PLUS[ATTRACT], sum(state.taken)
    else:
        most, picked = totals[WATER] + _CORNER_PLUS[EXTINGUISH], sum(state.fires_held[seat])
    require(
        state.budget <= most,
        StateError,
        f"{step.value}: budget {state.budget} is more than seat {seat} can have ({most})",
    )
    require(
        state.picks <= picked,
        StateError,
        f"{step.value}: {state.picks} picks, but seat {seat} holds only {picked} taken",
    )


def acting_seat_has_choice(state: LivingForestState) -> None:
    """The seat to move has more than stopping or ending: else the turn would have passed on."""
    seat = state.current_player
    if seat is None:
        return
    moves = state.legal_moves(seat)
    require(
        any(type(m) is not mv.Stop and type(m) is not mv.Done for m in moves),
        StateError,
        f"{state.game._step_name(state)}: seat {seat} has nothing to do; "
        "the turn should have passed on",
    )


INVARIANTS: Sequence[Callable[[LivingForestState], None]] = (
    piles_in_order,
    start_cards_once,
    known_cards_attracted,
    reserve_cards_once,
    varans_conserved,
    reserve_rows_refilled,
    fragments_conserved,
    victory_tiles_conserved,
    fires_conserved,
    rocks_distinct,
    trees_in_supply,
    forests_grown,
    solitary_within_limit,
    guardian_phase,
    guardian_start_kept,
    no_goal_while_revealing,
    centre_lit_while_revealing,
    taken_cards_on_decks,
    game_over,
    actions_taken,
    step_fields,
    victory_step,
    plant_step,
    gathering_step,
    acting_seat_has_choice,
)
