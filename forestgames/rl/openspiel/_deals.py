"""The engines' randomness as explicit chance: deals drawn one item at a time.

An engine draws its randomness from a seed when it builds a position: the first
player, shuffled decks, a Boom Bokken round's hands and teams, a Living Forest
discard pile shuffled back into a deck. OpenSpiel's algorithms want that
randomness as chance nodes with outcomes and probabilities instead. A
:class:`Deal` does it on the position's JSON form (``to_dict``, which stays
fixed while the engines change): it takes the position the engine built, reads
the items lying in its random *slots* (the cards of a deck, of a hand, of a
market...), and draws them back into those slots one chance node at a time,
each item of a pool with probability (copies left) / (items left), so every
arrangement comes out exactly as likely as from a uniform shuffle. Once every
slot is filled, ``state_from_dict`` makes the position. Only the JSON form, the
public state properties and ``new_game`` are used, never an engine's internals.

A game's :class:`DealRules` say where its slots are and when a deal happens:
at the start (after the first player is drawn, the setup), after a move
(a new Boom Bokken round), or before a move takes effect (a Living Forest
reshuffle: the move is replayed on the position with its deck dealt).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any, NoReturn

import attrs

from forestgames.core import ForestGamesError, Sealed, StateError, excerpt

__all__ = ["Deal", "DealRules", "deal_rules"]

Path = tuple[str | int, ...]
"""Where a value sits in a position's JSON form: keys and list indices."""
Slot = tuple[Path, ...]
"""The paths one chance draw fills: one path, or several filled together (a character
card's team and role)."""
Pool = tuple[tuple[str, int], ...]
"""The items left to draw, as (item, copies) pairs sorted by item; an item is JSON text."""


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _get(data: Any, path: Path) -> Any:
    for key in path:
        data = data[key]
    return data


def _put(data: Any, path: Path, value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _item_at(data: Any, slot: Slot) -> str:
    """The item lying in ``slot`` of ``data`` (JSON text)."""
    if len(slot) == 1:
        return _dump(_get(data, slot[0]))
    return _dump([_get(data, path) for path in slot])


def _place(data: Any, slot: Slot, item: str) -> None:
    """Write ``item`` into ``slot`` of ``data``."""
    value = json.loads(item)
    if len(slot) == 1:
        _put(data, slot[0], value)
        return
    for path, part in zip(slot, value, strict=True):
        _put(data, path, part)


@attrs.frozen
class Deal:
    """A deal under way: ``slots`` of the position ``template`` (JSON text), each drawn
    from pool ``pool_of[i]``; ``picks`` are the items drawn so far, in slot order.

    ``kind`` names the occasion (``"setup"``, ``"round"``, ``"reshuffle"``); ``move``
    is the (seat, action id) to replay once the position is dealt (a reshuffle).
    """

    kind: str
    template: str
    slots: tuple[Slot, ...]
    pool_of: tuple[int, ...]
    pools: tuple[Pool, ...]
    picks: tuple[str, ...] = ()
    move: tuple[int, int] | None = None

    @classmethod
    def of(
        cls,
        kind: str,
        data: dict[str, Any],
        slots_by_pool: Sequence[Sequence[Slot]],
        move: tuple[int, int] | None = None,
        draw_from: dict[int, Sequence[str]] | None = None,
    ) -> Deal:
        """The deal that redraws, pool by pool, the items now in the slots of ``data``
        (pool ``i`` draws from the items ``draw_from[i]`` instead, if given: a pool with
        more items than slots). Forced draws, from a pool with one kind of item left, are
        made at once."""
        slots: list[Slot] = []
        pool_of: list[int] = []
        pools: list[Pool] = []
        for index, pool_slots in enumerate(slots_by_pool):
            given = (draw_from or {}).get(index)
            items = Counter(given if given is not None else (_item_at(data, s) for s in pool_slots))
            pools.append(tuple(sorted(items.items())))
            slots.extend(pool_slots)
            pool_of.extend([index] * len(pool_slots))
        deal = cls(kind, _dump(data), tuple(slots), tuple(pool_of), tuple(pools), (), move)
        return deal._forced()

    @property
    def done(self) -> bool:
        """Whether every slot is filled."""
        return len(self.picks) == len(self.slots)

    def outcomes(self) -> Pool:
        """The items the next slot may get, with their copies left (sorted by item)."""
        return self.pools[self.pool_of[len(self.picks)]]

    def next_slot(self) -> Slot:
        return self.slots[len(self.picks)]

    def pick(self, item: str) -> Deal:
        """This deal with ``item`` drawn into the next slot (then any forced draws)."""
        return self._drawn(item)._forced()

    def _drawn(self, item: str) -> Deal:
        index = self.pool_of[len(self.picks)]
        pool = self.pools[index]
        left = tuple((kind, n - (kind == item)) for kind, n in pool)
        if left == pool:
            raise StateError(f"deal {self.kind}: {item} is not left to draw (left: {pool})")
        pools = self.pools[:index] + (tuple(p for p in left if p[1]),) + self.pools[index + 1 :]
        return attrs.evolve(self, pools=pools, picks=(*self.picks, item))

    def _forced(self) -> Deal:
        deal = self
        while not deal.done and len(deal.outcomes()) == 1:
            deal = deal._drawn(deal.outcomes()[0][0])
        return deal

    def completed(self) -> Deal:
        """This deal with each slot left given the first item its pool has left (a trial
        deal: a saved deal is checked by making the position of one such)."""
        deal = self
        while not deal.done:
            deal = deal._drawn(deal.outcomes()[0][0])
        return deal

    def filled(self) -> dict[str, Any]:
        """The template with every pick written into its slot (the deal must be done)."""
        data: dict[str, Any] = json.loads(self.template)
        for slot, item in zip(self.slots, self.picks, strict=True):
            _place(data, slot, item)
        return data

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "template": self.template,
            "slots": [[list(path) for path in slot] for slot in self.slots],
            "pool_of": list(self.pool_of),
            "pools": [[list(pair) for pair in pool] for pool in self.pools],
            "picks": list(self.picks),
            "move": None if self.move is None else list(self.move),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Deal:
        """The deal :meth:`to_json` saved, unchecked (see :meth:`check`)."""
        move = data["move"]
        return cls(
            data["kind"],
            data["template"],
            tuple(tuple(tuple(path) for path in slot) for slot in data["slots"]),
            tuple(data["pool_of"]),
            tuple(tuple((item, n) for item, n in pool) for pool in data["pools"]),
            tuple(data["picks"]),
            None if move is None else (move[0], move[1]),
        )

    def check(self, items: Collection[str], seats: int, actions: int) -> Deal:
        """This deal if its parts fit together: a deal under way of one of ``items``, to
        seats ``0..seats-1`` and ids ``0..actions-1``; StateError naming the part that does
        not (a saved deal is read back through this)."""
        if self.kind not in DEAL_KINDS:
            _bad(f"kind is not one of {DEAL_KINDS}: {excerpt(self.kind)}")
        self._check_slots()
        self._check_pools(items)
        if len(self.picks) >= len(self.slots) or not all(p in items for p in self.picks):
            _bad(f"picks are not items drawn into some of its slots: {excerpt(self.picks)}")
        for index, slots_left in Counter(self.pool_of[len(self.picks) :]).items():
            if sum(n for _, n in self.pools[index]) < slots_left:
                _bad(f"pool {index} holds fewer items than its {slots_left} slots left")
        if self.move is not None and not (
            _in_range(self.move[0], seats) and _in_range(self.move[1], actions)
        ):
            _bad(f"move is not a (seat, action id) pair: {excerpt(self.move)}")
        return self

    def _check_slots(self) -> None:
        """Each slot a list of paths to a place in the template, with one pool each."""
        template = json.loads(self.template) if isinstance(self.template, str) else None
        if not isinstance(template, dict):
            _bad("template is not a position's JSON text")
        if not self.slots or len(self.pool_of) != len(self.slots):
            _bad("slots do not match its pool_of (one pool per slot, at least one slot)")
        for slot in self.slots:
            if not slot or not all(path and all(_is_key(k) for k in path) for path in slot):
                _bad(f"slot is not a list of paths: {excerpt(slot)}")
            try:
                _item_at(template, slot)
            except (KeyError, IndexError, TypeError):
                _bad(f"slot names no place in its position: {excerpt(slot)}")
        if not all(_in_range(i, len(self.pools)) for i in self.pool_of):
            _bad(f"pool_of names a pool it does not have: {excerpt(self.pool_of)}")

    def _check_pools(self, items: Collection[str]) -> None:
        """Each pool distinct ``items``, sorted, each with a count of at least 1."""
        for pool in self.pools:
            names = [item for item, _ in pool]
            if names != sorted(set(names)) or not all(item in items for item in names):
                _bad(f"pool is not distinct items of the game, sorted: {excerpt(pool)}")
            if not all(_is_int(n) and n >= 1 for _, n in pool):
                _bad(f"pool's counts are not ints >= 1: {excerpt(pool)}")


DEAL_KINDS = ("setup", "round", "reshuffle")
"""The occasions of a deal."""


def _bad(what: str) -> NoReturn:
    raise StateError(f"a saved deal's {what}")


def _is_int(value: Any) -> bool:
    return type(value) is int


def _in_range(value: Any, stop: int) -> bool:
    return _is_int(value) and 0 <= value < stop


def _is_key(value: Any) -> bool:
    return type(value) in (int, str)


def _each(prefix: Path, count: int) -> list[Slot]:
    """The slots ``prefix + (0,)`` .. ``prefix + (count - 1,)``, one path each."""
    return [((*prefix, i),) for i in range(count)]


class DealRules(Sealed):
    """A game whose only randomness is its first player (Bosk): nothing to deal.
    Read-only once :func:`deal_rules` built it: one serves every state of a game."""

    _read_only = "an OpenSpiel game's deal rules are read-only"

    def __init__(self, game: Any) -> None:
        self.game = game

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles are the rules of the same game, built anew (read-only)."""
        return (deal_rules, (self.game,))

    def alphabet(self) -> tuple[str, ...]:
        """Every item a deal of this game can draw (an item's chance outcome is its index)."""
        return ()

    def setup(self, first_player: int) -> tuple[Any, Deal | None]:
        """The first position with ``first_player`` to start, and the deal that fills its
        random slots (None: the position is complete)."""
        state = self.game.new_game(seed=0, first_player=first_player)
        data = self._setup_template(state)
        slots = self._setup_slots(data)
        if not slots:
            return state, None
        return None, Deal.of("setup", data, slots, draw_from=self._setup_pools())

    def _setup_pools(self) -> dict[int, Sequence[str]] | None:
        """Pools of the setup that draw from more items than they have slots."""
        return None

    def _setup_slots(self, data: dict[str, Any]) -> list[list[Slot]]:
        """The random slots of a first position, pool by pool (none: nothing to deal)."""
        return []

    def _setup_template(self, state: Any) -> dict[str, Any]:
        return state.to_dict()  # type: ignore[no-any-return]

    def after_move(self, before: Any, seat: int, action: int, after: Any) -> Deal | None:
        """The deal a move calls for (None: ``after`` stands as the engine made it)."""
        return None

    def dealt(self, deal: Deal) -> Any:
        """The position a finished deal makes (before its ``move``, if any); StateError if
        its template and picks make none (a saved deal edited by hand)."""
        try:
            return self.finish(deal)
        except ForestGamesError:
            raise
        except (AttributeError, IndexError, KeyError, TypeError, ValueError) as error:
            why = excerpt(f"{type(error).__name__}: {error}")
            raise StateError(f"deal {deal.kind} does not make a position ({why})") from None

    def finish(self, deal: Deal) -> Any:
        """The position a finished deal makes (a game's rules may rearrange it first)."""
        return self.game.state_from_dict(deal.filled())


class BonsaiDeals(DealRules):
    """The market and the deck are one shuffled pile; with the published goal setup (and
    solo) three goal colours are drawn too."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.published = game.options().get("goal_setup") == "published"
        every = game.new_game(seed=0).to_dict()
        self.cards = tuple(sorted({*every["deck"], *every["market"]}))
        self.colours = _goal_colours(game)

    def alphabet(self) -> tuple[str, ...]:
        return tuple(sorted({*map(_dump, self.cards), *map(_dump, self.colours)}))

    def _setup_template(self, state: Any) -> dict[str, Any]:
        data: dict[str, Any] = state.to_dict()
        if self.published:
            data["__colours__"] = list(self.colours[:3])
        return data

    def _setup_pools(self) -> dict[int, Sequence[str]] | None:
        return {1: [_dump(colour) for colour in self.colours]} if self.published else None

    def _setup_slots(self, data: dict[str, Any]) -> list[list[Slot]]:
        cards = _each(("market",), len(data["market"])) + _each(("deck",), len(data["deck"]))
        if not self.published:
            return [cards]
        return [cards, _each(("__colours__",), 3)]

    def finish(self, deal: Deal) -> Any:
        data = deal.filled()
        if "__colours__" in data:
            chosen = set(data.pop("__colours__"))
            tiers = sorted({name.split()[1] for name in data["goals_in_play"]}, key=int)
            data["goals_in_play"] = [f"{c} {t}" for c in self.colours if c in chosen for t in tiers]
        return self.game.state_from_dict(data)


def _goal_colours(game: Any) -> tuple[str, ...]:
    """Bonsai's goal colours in the engine's order (read from a game with every goal)."""
    from forestgames.core import make

    every = make(game.name, num_players=2, goal_setup="all").new_game(seed=0).to_dict()
    return tuple(dict.fromkeys(name.split()[0] for name in every["goals_in_play"]))


class LivingForestDeals(DealRules):
    """Each Spirit's deck and each reserve level (its face-up row and its stack) are
    shuffled at the start; a Spirit that draws from an empty deck shuffles its discard
    pile into a new deck, drawn here before the draw takes effect."""

    def alphabet(self) -> tuple[str, ...]:
        from forestgames.living_forest import CARD_NAMES

        return tuple(sorted(map(_dump, CARD_NAMES)))

    def _setup_slots(self, data: dict[str, Any]) -> list[list[Slot]]:
        pools = [
            _each(("spirits", seat, "deck"), len(spirit["deck"]))
            for seat, spirit in enumerate(data["spirits"])
        ]
        for level, reserve in data["reserve"].items():
            row = _each(("reserve", level, "row"), len(reserve["row"]))
            pools.append(row + _each(("reserve", level, "stack"), len(reserve["stack"])))
        return pools

    def finish(self, deal: Deal) -> Any:
        """The dealt position, each face-up reserve row in card order (as positions keep it)."""
        from forestgames.living_forest import CARD_NAMES

        order = {name: i for i, name in enumerate(CARD_NAMES)}
        data = deal.filled()
        for reserve in data["reserve"].values():
            reserve["row"].sort(key=order.__getitem__)
        start = data.get("guardian_start")  # guardian_phase="simultaneous"
        if start is not None and deal.move is None:  # the setup: every seat as it starts
            for spirit, then in zip(data["spirits"], start["spirits"], strict=True):
                then["deck"] = list(spirit["deck"])
        return self.game.state_from_dict(data)

    def after_move(self, before: Any, seat: int, action: int, after: Any) -> Deal | None:
        for spirit in range(self.game.num_players):
            if before.deck_size(spirit) == 0 and after.discard_size(spirit) < before.discard_size(
                spirit
            ):
                return self._reshuffle(before, spirit, (seat, action))
        return None

    def _reshuffle(self, before: Any, spirit: int, move: tuple[int, int]) -> Deal:
        data = before.to_dict()
        pile = data["spirits"][spirit]
        pile["deck"], pile["discard"] = list(pile["discard"]), []
        slots = _each(("spirits", spirit, "deck"), len(pile["deck"]))
        return Deal.of("reshuffle", data, [slots], move)


class BoomBokkenDeals(DealRules):
    """Every round: the character cards (team, and role in Expert mode) go round the
    seats, and the whole deck is shuffled into the hands and the draw pile."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        data = game.new_game(seed=0).to_dict()
        self._items = frozenset(_item_at(data, s) for pool in self._slots(data) for s in pool)

    def alphabet(self) -> tuple[str, ...]:
        return tuple(sorted(self._items))

    def _setup_slots(self, data: dict[str, Any]) -> list[list[Slot]]:
        return self._slots(data)

    @staticmethod
    def _slots(data: dict[str, Any]) -> list[list[Slot]]:
        seats = range(len(data["hands"]))
        if data["roles"] is None:
            characters: list[Slot] = [(("teams", s),) for s in seats]
        else:
            characters = [(("teams", s), ("roles", s)) for s in seats]
        cards = [slot for s in seats for slot in _each(("hands", s), len(data["hands"][s]))]
        cards += _each(("deck",), len(data["deck"]))
        return [characters, cards]

    def after_move(self, before: Any, seat: int, action: int, after: Any) -> Deal | None:
        if after.is_terminal or len(after.history) == len(before.history):
            return None
        data = after.to_dict()
        return Deal.of("round", data, self._slots(data))


RULES: dict[str, type[DealRules]] = {
    "bonsai": BonsaiDeals,
    "living_forest": LivingForestDeals,
    "boom_bokken": BoomBokkenDeals,
}
"""Each game's deal rules; a game not listed has nothing to deal (Bosk)."""


def deal_rules(game: Any) -> DealRules:
    """The deal rules of ``game`` (a forestgames game with its options), read-only."""
    rules = RULES.get(game.name, DealRules)(game)
    rules._seal()
    return rules
