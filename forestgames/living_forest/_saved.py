"""Saved Living Forest states: ``to_dict`` output and its thorough validation on load.

Cards are written by name, trees by id; every check names the field it rejects.
Loading rebuilds the state, then checks the rules' invariants: every card in
exactly one place, fires, Fragments and Victory tiles conserved, forests grown
by the adjacency rule, and a phase/step that a legal game can reach.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from forestgames.core import StateError, expect_int, expect_keys, require
from forestgames.living_forest._tables import (
    ACTIONS,
    CARD_INDEX,
    CARD_LEVEL,
    CARD_NAMES,
    CENTRE_LIMIT,
    FIRE_VALUES,
    FOREST_COLS,
    FOREST_ROWS,
    FRAGMENT_SUPPLY,
    GOAL,
    LEVEL_CARDS,
    LEVEL_NAMES,
    NEIGHBOURS,
    ROCK_BONUS,
    ROCKS,
    ROW_SIZE,
    SAME_ACTION_TREE,
    SOLITARY_LIMIT,
    START_CELL,
    START_DECK,
    START_TREE,
    TREE_COPIES,
    TREE_INDEX,
    TREE_NAMES,
    VARAN,
    VARAN_COPIES,
    VICTORY_KINDS,
)
from forestgames.living_forest.scoring import solitary_count
from forestgames.living_forest.state import LivingForestState, Phase, Step

if TYPE_CHECKING:
    from forestgames.living_forest.rules import LivingForestGame

__all__ = ["load_state", "state_to_dict"]

_KEYS = (
    "game", "num_players", "phase", "turn", "sacred", "seat_index", "step", "actions",
    "budget", "picks", "passed", "bonus", "spirits", "centre", "fire_supply", "varans",
    "reserve", "taken", "entropy",
)  # fmt: skip
_SPIRIT_KEYS = (
    "deck",
    "known",
    "line",
    "discard",
    "fragments",
    "forest",
    "rock",
    "victory",
    "fires",
)
_RESERVE_LEVELS = LEVEL_NAMES[1:4]


def _names(cards: tuple[int, ...]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def state_to_dict(state: LivingForestState) -> dict[str, Any]:
    """The JSON-able form of ``state``: cards by name, decks top first."""
    spirits = []
    for s in range(state.num_players):
        forest = state.forests[s]
        spirits.append(
            {
                "deck": _names(state.decks[s]),
                "known": state.known[s],
                "line": _names(state.lines[s]),
                "discard": _names(state.discards[s]),
                "fragments": state.fragments[s],
                "forest": [
                    [
                        None if t < 0 else TREE_NAMES[t]
                        for t in forest[r * FOREST_COLS : (r + 1) * FOREST_COLS]
                    ]
                    for r in range(FOREST_ROWS)
                ],
                "rock": state.rocks[s],
                "victory": dict(zip(VICTORY_KINDS, state.victory[s], strict=True)),
                "fires": {str(v): n for v, n in zip(FIRE_VALUES, state.fires_held[s], strict=True)},
            }
        )
    return {
        "game": "living_forest",
        "num_players": state.num_players,
        "phase": state.phase.value,
        "turn": state.turn,
        "sacred": state.sacred,
        "seat_index": state.seat_index,
        "step": state.step.value,
        "actions": [ACTIONS[a] for a in state.actions],
        "budget": state.budget,
        "picks": state.picks,
        "passed": list(state.passed),
        "bonus": None if state.bonus < 0 else ACTIONS[state.bonus],
        "spirits": spirits,
        "centre": list(state.centre),
        "fire_supply": list(state.fire_supply),
        "varans": state.varans,
        "reserve": {
            name: {"stack": _names(state.stacks[k]), "row": _names(state.rows[k])}
            for k, name in enumerate(_RESERVE_LEVELS)
        },
        "taken": list(state.taken),
        "entropy": state.entropy,
    }


# ---------------------------------------------------------------------- loading


def _list(value: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = "a list" if length is None else f"a list of {length}"
        raise StateError(f"{what} must be {size}, not {value!r}")
    return value


def _ints(value: Any, what: str, length: int | None, low: int, high: int | None) -> tuple[int, ...]:
    return tuple(expect_int(x, what, low, high) for x in _list(value, what, length))


def _cards(value: Any, what: str) -> tuple[int, ...]:
    cards = []
    for name in _list(value, what):
        if not isinstance(name, str) or name not in CARD_INDEX:
            raise StateError(f"{what}: {name!r} is not a Guardian Animal card")
        cards.append(CARD_INDEX[name])
    return tuple(cards)


def _enum(kind: Any, value: Any, what: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        raise StateError(f"unknown {what} {value!r}") from None


def _forest(value: Any, what: str) -> tuple[int, ...]:
    rows = _list(value, what, FOREST_ROWS)
    cells = []
    for r in rows:
        for tree in _list(r, f"{what} row", FOREST_COLS):
            if tree is None:
                cells.append(-1)
            elif isinstance(tree, str) and tree in TREE_INDEX:
                cells.append(TREE_INDEX[tree])
            else:
                raise StateError(
                    f"{what}: {tree!r} is not a tree id ({', '.join(TREE_NAMES)}) or null"
                )
    return tuple(cells)


def load_state(game: LivingForestGame, data: Any) -> LivingForestState:
    """Rebuild a state from ``to_dict`` output; StateError says what is wrong with it."""
    data = expect_keys(data, _KEYS, "Living Forest state")
    p = game.num_players
    require(
        data["game"] == "living_forest",
        StateError,
        f"not a Living Forest state: game is {data['game']!r}",
    )
    require(
        data["num_players"] == p,
        StateError,
        f"state is for {data['num_players']!r} players, the game for {p}",
    )
    phase = _enum(Phase, data["phase"], "phase")
    step = _enum(Step, data["step"], "step")
    actions = []
    for name in _list(data["actions"], "actions"):
        require(name in ACTIONS, StateError, f"actions: unknown action {name!r}")
        actions.append(ACTIONS.index(name))
    bonus = data["bonus"]
    require(
        bonus is None or bonus in ACTIONS, StateError, f"bonus {bonus!r} is not an action or null"
    )
    spirits = _list(data["spirits"], "spirits", p)
    fields: dict[str, list[Any]] = {k: [] for k in _SPIRIT_KEYS}
    for seat, spirit in enumerate(spirits):
        what = f"spirits[{seat}]"
        spirit = expect_keys(spirit, _SPIRIT_KEYS, what)
        fields["deck"].append(_cards(spirit["deck"], f"{what}.deck"))
        fields["known"].append(expect_int(spirit["known"], f"{what}.known", 0, len(spirit["deck"])))
        fields["line"].append(_cards(spirit["line"], f"{what}.line"))
        discard = _cards(spirit["discard"], f"{what}.discard")
        require(
            list(discard) == sorted(discard), StateError, f"{what}.discard must be in card order"
        )
        fields["discard"].append(discard)
        fields["fragments"].append(
            expect_int(spirit["fragments"], f"{what}.fragments", 0, FRAGMENT_SUPPLY)
        )
        fields["forest"].append(_forest(spirit["forest"], f"{what}.forest"))
        fields["rock"].append(expect_int(spirit["rock"], f"{what}.rock", 0, ROCKS - 1))
        victory = expect_keys(spirit["victory"], VICTORY_KINDS, f"{what}.victory")
        fields["victory"].append(
            tuple(expect_int(victory[k], f"{what}.victory.{k}", 0, p) for k in VICTORY_KINDS)
        )
        fires = expect_keys(spirit["fires"], [str(v) for v in FIRE_VALUES], f"{what}.fires")
        fields["fires"].append(
            tuple(expect_int(fires[str(v)], f"{what}.fires", 0, 100) for v in FIRE_VALUES)
        )
    reserve = expect_keys(data["reserve"], _RESERVE_LEVELS, "reserve")
    stacks, rows = [], []
    for name in _RESERVE_LEVELS:
        level = expect_keys(reserve[name], ("stack", "row"), f"reserve.{name}")
        stacks.append(_cards(level["stack"], f"reserve.{name}.stack"))
        row = _cards(level["row"], f"reserve.{name}.row")
        require(list(row) == sorted(row), StateError, f"reserve.{name}.row must be in card order")
        rows.append(row)
    centre = _ints(data["centre"], "centre", None, 2, 4)
    require(list(centre) == sorted(centre), StateError, "centre fires must be sorted")
    state = LivingForestState(
        game=game,
        phase=phase,
        turn=expect_int(data["turn"], "turn", 1, game.turn_limit),
        sacred=expect_int(data["sacred"], "sacred", 0, p - 1),
        seat_index=expect_int(data["seat_index"], "seat_index", 0, p - 1),
        decks=tuple(fields["deck"]),
        known=tuple(fields["known"]),
        lines=tuple(fields["line"]),
        discards=tuple(fields["discard"]),
        fragments=tuple(fields["fragments"]),
        forests=tuple(fields["forest"]),
        rocks=tuple(fields["rock"]),
        victory=tuple(fields["victory"]),
        fires_held=tuple(fields["fires"]),
        centre=centre,
        fire_supply=_ints(data["fire_supply"], "fire_supply", 3, 0, 100),  # type: ignore[arg-type]
        varans=expect_int(data["varans"], "varans", 0, VARAN_COPIES),
        stacks=tuple(stacks),
        rows=tuple(rows),
        taken=_ints(data["taken"], "taken", 3, 0, 2 * ROW_SIZE),  # type: ignore[arg-type]
        actions=tuple(actions),
        step=step,
        budget=expect_int(data["budget"], "budget", 0, None),
        picks=expect_int(data["picks"], "picks", 0, None),
        passed=_ints(data["passed"], "passed", None, 0, p - 1),
        bonus=-1 if bonus is None else ACTIONS.index(bonus),
        entropy=expect_int(data["entropy"], "entropy", 0, 2**63 - 1),
    )
    _check_components(state)
    _check_turn(state)
    return state


def _fail(message: str) -> None:
    raise StateError(message)


def _check_components(state: LivingForestState) -> None:
    """Cards, fires, Fragments, Victory tiles, forests and rocks are all accounted for."""
    game, p = state.game, state.num_players
    for seat in range(p):
        own = Counter(state.decks[seat] + state.lines[seat] + state.discards[seat])
        for card in START_DECK:
            if own[card] != 1:
                _fail(f"seat {seat} has {own[card]} {CARD_NAMES[card]} cards; each Spirit has 1")
        for card in state.decks[seat][: state.known[seat]]:
            if CARD_LEVEL[card] not in (1, 2, 3):
                _fail(
                    f"seat {seat}'s known deck top holds {CARD_NAMES[card]}, not an attracted card"
                )
    everywhere = Counter(
        c
        for piles in (state.decks, state.lines, state.discards, state.stacks, state.rows)
        for pile in piles
        for c in pile
    )
    for level, cards in LEVEL_CARDS.items():
        for card in cards:
            if everywhere[card] != 1:
                _fail(f"card {CARD_NAMES[card]} appears {everywhere[card]} times; there is 1")
        for where, pile in (("stack", state.stacks[level - 1]), ("row", state.rows[level - 1])):
            if any(CARD_LEVEL[c] != level for c in pile):
                _fail(f"reserve {LEVEL_NAMES[level]} {where} holds a card of another level")
    if everywhere[VARAN] + state.varans != VARAN_COPIES:
        _fail(f"{everywhere[VARAN]} Fire Varans in play + {state.varans} stacked != {VARAN_COPIES}")
    for k, row in enumerate(state.rows):
        taken, full = state.taken[k], len(row) + state.taken[k]
        if full > ROW_SIZE or (state.stacks[k] and full != ROW_SIZE):
            _fail(f"reserve row {LEVEL_NAMES[k + 1]} has {len(row)} cards, {taken} taken this turn")
    if sum(state.fragments) > FRAGMENT_SUPPLY:
        _fail(f"{sum(state.fragments)} Fragments held; there are {FRAGMENT_SUPPLY}")
    for k, kind in enumerate(VICTORY_KINDS):
        if sum(v[k] for v in state.victory) != p:
            _fail(f"{sum(v[k] for v in state.victory)} {kind} Victory tiles held; there are {p}")
    if len(state.centre) > CENTRE_LIMIT:
        _fail(f"{len(state.centre)} fires in the centre; at most {CENTRE_LIMIT}")
    for k, value in enumerate(FIRE_VALUES):
        count = (
            state.fire_supply[k] + state.centre.count(value) + sum(h[k] for h in state.fires_held)
        )
        if count != game.fire_tiles[k]:
            _fail(f"{count} fire tiles of value {value} in play; the game has {game.fire_tiles[k]}")
    if len(set(state.rocks)) != p:
        _fail(f"two Spirits on one rock: {list(state.rocks)}")
    planted = Counter(t for forest in state.forests for t in forest if t > 0)
    copies = TREE_COPIES[p]
    for tree, count in planted.items():
        if count > copies[tree]:
            _fail(f"{count} trees {TREE_NAMES[tree]} planted; there are {copies[tree]}")
    for seat, forest in enumerate(state.forests):
        _check_forest(game, seat, forest)


def _check_forest(game: LivingForestGame, seat: int, forest: tuple[int, ...]) -> None:
    if forest[START_CELL] != START_TREE or forest.count(START_TREE) != 1:
        _fail(f"seat {seat}'s forest needs its starting tree at row 1, col 2 and only there")
    reached, frontier = {START_CELL}, [START_CELL]
    while frontier:
        for n in NEIGHBOURS[frontier.pop()]:
            if forest[n] >= 0 and n not in reached:
                reached.add(n)
                frontier.append(n)
    if len(reached) != sum(1 for t in forest if t >= 0):
        _fail(f"seat {seat}'s forest has a tree not connected to the starting tree")
    trees = [t for t in forest if t > 0]
    if not game.duplicate_trees and len(set(trees)) != len(trees):
        _fail(f"seat {seat} has two trees of one type (duplicate_trees is off)")


def _check_turn(state: LivingForestState) -> None:
    """The phase, step and turn fields describe a point a legal game reaches."""
    game, phase = state.game, state.phase
    order = state.turn_order
    counts = [solitary_count(line) for line in state.lines]
    if any(c > SOLITARY_LIMIT for c in counts):
        _fail(f"a Help Line holds more than {SOLITARY_LIMIT} uncancelled solitary symbols")
    idle = (state.step is Step.CHOOSE and not state.actions and not state.budget and not state.picks
            and not state.passed and state.bonus < 0)  # fmt: skip
    if phase is Phase.GUARDIANS:
        if not idle or any(state.taken):
            _fail("guardians: no action may be under way and no card taken yet")
        for seat in order[state.seat_index + 1 :]:
            if state.lines[seat]:
                _fail(f"guardians: seat {seat} has not revealed yet, its Help Line must be empty")
        if len(game.legal_moves_of(state, order[state.seat_index])) < 2:
            _fail("guardians: the revealing seat can only stop; the reveal should have passed on")
        return
    if phase is Phase.OVER:
        if not idle or state.seat_index:
            _fail("over: no action may be under way")
        if state.turn < game.turn_limit and not any(max(x) >= GOAL for x in state.progress):
            _fail(f"over before turn {game.turn_limit} with no Spirit at {GOAL}")
        return
    seat = order[state.seat_index]
    limit = game.action_limit(state, seat)
    if len(state.actions) > limit:
        _fail(f"seat {seat} has {len(state.actions)} actions; its limit is {limit}")
    if (
        len(set(state.actions)) != len(state.actions)
        and SAME_ACTION_TREE not in state.forests[seat]
    ):
        _fail(f"seat {seat} repeated an action without Tree 11")
    step = state.step
    if step is not Step.VICTORY and (state.passed or state.bonus >= 0):
        _fail(f"{step.value}: passed Spirits and a pending rock bonus belong to the victory step")
    if step not in (Step.ATTRACT, Step.EXTINGUISH) and (state.budget or state.picks):
        _fail(f"{step.value}: a budget and picks belong to an Attract or Extinguish")
    if step is Step.VICTORY:
        if not state.passed or seat in state.passed or len(set(state.passed)) != len(state.passed):
            _fail("victory: the passed Spirits must be other seats, each once")
        if not any(state.victory[state.passed[0]]):
            _fail(f"victory: seat {state.passed[0]} has no Victory tile to take")
        if state.bonus != ROCK_BONUS[state.rocks[seat]]:
            _fail("victory: the pending bonus must be the arrival rock's action")
    if not game.legal_moves_of(state, seat):
        _fail(f"{step.value}: seat {seat} has nothing to do; the turn should have passed on")
