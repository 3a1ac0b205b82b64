"""What a Boom Bokken seat sees, and positions it cannot tell from the real one.

A seat sees its own hand, every hand's size, the draw pile's size and
everything played in the open. Some hidden cards are known to everyone all the
same, and stay known:

* the bottom of the draw pile: a Boom or a Temps Mort puts the pile (and the
  Temps Mort, unless set aside) under it, in an order every seat saw
  (``state.known_bottom`` cards, shown as ``deck_bottom``);
* cards drawn from that known part (a Temps Mort's draw, a Cogneur's knock once
  the unknown cards are used up): everyone knows who holds them
  (``known_cards``, until that seat plays a card of the kind);
* an exploded seat holds no card that answers what it exploded on, and a
  leader who exploded holds only Temps Mort (``exploded_on``).

``determinize(player, seed)`` deals the cards ``player`` does not know again at
random, keeping all of the above, and draws a new seed for the later deals. Every
placement of those physical cards (two copies of a card are two cards) that keeps all
of the above is equally likely; with exploded seats that takes counting (``_Plan``).
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from forestgames.boom_bokken._tables import (
    CARD_VALUE,
    FITTING_VALUES,
    NUM_CODES,
    TIME_OUT,
    VALUES,
)
from forestgames.boom_bokken.state import card_holders, pack_hand
from forestgames.core import IllegalMoveError, StateError, check_seat, excerpt, is_int, new_rng

if TYPE_CHECKING:
    from forestgames.boom_bokken.state import BoomBokkenState

__all__ = ["allowed_codes", "determinize", "observe"]


def observe(state: BoomBokkenState, player: int) -> dict[str, Any]:
    """What ``player`` sees: the game's name and player count (as every game's observation
    has), own hand, every hand's size, the deck's size and known bottom, and every public
    fact."""
    from forestgames.boom_bokken.saved import public_fields

    view = {
        "observer": player,
        "game": state.game.name,
        "num_players": state.game.num_players,
        "hand": list(state.hand(player)),
        "hand_sizes": list(state.hand_sizes),
        "deck_size": len(state.deck),
    }
    view.update((field.key, field.write(state)) for field in public_fields(state.game))
    view["deck_bottom"] = list(state.deck_bottom)
    return view


def allowed_codes(fact: tuple[int, bool] | None) -> frozenset[int]:
    """The cards an exploded seat may hold: none answering ``fact`` (top card code and
    "higher"), or only Temps Mort for a leader (``fact`` None). StateError if ``fact`` is
    neither None nor such a pair."""
    if fact is None:
        return frozenset((TIME_OUT,))
    if not _is_fact(fact):
        raise StateError(
            f"an explosion's fact is None or (top card code 0..{NUM_CODES - 1}, higher as a "
            f"bool), not {excerpt(fact)}"
        )
    fitting = FITTING_VALUES[fact[1]][CARD_VALUE[fact[0]]]
    return frozenset(c for c in range(NUM_CODES) if c == TIME_OUT or CARD_VALUE[c] not in fitting)


def _is_fact(fact: Any) -> bool:
    """Whether ``fact`` is a (card code, bool) pair."""
    return (
        isinstance(fact, tuple)
        and len(fact) == 2
        and is_int(fact[0])
        and 0 <= fact[0] < NUM_CODES
        and isinstance(fact[1], bool)
    )


def _unknown_part(hand: tuple[int, ...], known: tuple[int, ...]) -> list[int]:
    """The codes of ``hand`` not publicly known, ascending."""
    counts = list(hand)
    for code in known:
        counts[code] -= 1
    return [code for code in range(NUM_CODES) for _ in range(counts[code])]


def determinize(state: BoomBokkenState, player: int, seed: int) -> BoomBokkenState:
    """A state ``player`` cannot tell from ``state``: the cards it does not know (other
    hands' unknown cards, the unknown top of the draw pile) dealt again at random, with
    a new seed for the later deals.

    Every placement of those physical cards that keeps what ``player`` knows is equally
    likely (``_deal_constrained`` when seats exploded, else one shuffle). IllegalMoveError
    if ``player`` is not a seat (as ``state.determinize``)."""
    player = check_seat(state.game.num_players, player, "player", IllegalMoveError)
    rng = new_rng(seed)
    deck = state.deck
    top = len(deck) - state.known_bottom
    unseen = list(deck[:top])
    needs: dict[int, int] = {}
    for seat, (hand, known) in enumerate(zip(state.hands, state.known, strict=True)):
        if seat != player:
            part = _unknown_part(hand, known)
            unseen.extend(part)
            needs[seat] = len(part)
    unseen.sort()  # the sample depends on the seed and on what ``player`` sees only
    constraints = {
        seat: allowed_codes(fact)
        for seat, fact in zip(state.exploded, state.exploded_on, strict=True)
        if seat != player and needs.get(seat)
    }
    if constraints:
        dealt = _deal_constrained(rng, unseen, needs, constraints)
    else:
        dealt = _deal_in_order(_shuffled(rng, unseen), needs)
    deck_top = dealt.pop(-1)
    hands = list(state.hands)
    for seat, codes in dealt.items():
        counts = [0] * NUM_CODES
        for code in (*codes, *state.known[seat]):
            counts[code] += 1
        hands[seat] = tuple(counts)
    packed = tuple(map(pack_hand, hands))
    return state._evolve(
        packed=packed,
        holders=card_holders(packed),
        deck=tuple(deck_top) + deck[top:],
        seed=int(rng.integers(2**62)),
    )


def _shuffled(rng: np.random.Generator, cards: list[int]) -> list[int]:
    """``cards`` in a uniformly random order."""
    return [cards[i] for i in rng.permutation(len(cards))]


def _deal_in_order(order: list[int], needs: dict[int, int]) -> dict[int, list[int]]:
    """Seat -> its cards, in seat order from the front of ``order``; -1 -> the rest."""
    rest = iter(order)
    dealt = {seat: [next(rest) for _ in range(needs[seat])] for seat in sorted(needs)}
    dealt[-1] = list(rest)
    return dealt


def _deal_constrained(
    rng: np.random.Generator,
    unseen: list[int],
    needs: dict[int, int],
    constraints: dict[int, frozenset[int]],
) -> dict[int, list[int]]:
    """Seat -> its unknown cards (and -1 -> the unknown top of the draw pile), uniform over
    the placements of the physical cards ``unseen`` that give each exploded seat in
    ``constraints`` only cards it may hold.

    The rules' allowed cards are Temps Mort plus either the values 1..a ("low" seats,
    which exploded on "higher") or b..8 ("high" seats, on "lower"), or Temps Mort alone.
    ``_Plan`` draws how many cards of each value go to the low seats, how many to the high
    seats and how many of its own a low seat takes, each count with probability
    proportional to the placements that complete it; the cards themselves are then
    chosen uniformly: a random subset for a low seat, a random free place for a card of
    the high seats, Temps Mort for every place left, and the rest shuffled and dealt to
    the other seats and the draw pile."""
    plan = _Plan.of(unseen, needs, constraints)
    if not plan.tables[0][0, 0, 0]:  # a hand-built state the rules could not reach
        raise StateError(
            "no deal of the unseen cards gives each exploded seat only cards it could not "
            "have answered with: this position breaks the rules (state_from_dict checks it)"
        )
    by_value: list[list[int]] = [[] for _ in range(VALUES[-1] + 1)]
    for code in unseen:
        by_value[CARD_VALUE[code]].append(code)
    held: dict[int, list[int]] = {seat: [] for seat in sorted(constraints)}
    rest = _hand_out(rng, plan, by_value, held, needs)
    time_outs = by_value[TIME_OUT]
    for seat, cards in held.items():
        short = needs[seat] - len(cards)
        cards += time_outs[:short]
        del time_outs[:short]
    dealt = dict(held)
    free_seats = {seat: count for seat, count in needs.items() if seat not in held}
    dealt.update(_deal_in_order(_shuffled(rng, rest + time_outs), free_seats))
    return dealt


def _hand_out(
    rng: np.random.Generator,
    plan: _Plan,
    by_value: list[list[int]],
    held: dict[int, list[int]],
    needs: dict[int, int],
) -> list[int]:
    """Deal the valued cards by the counts ``plan`` draws (into ``held``); return the rest."""
    rest: list[int] = []
    designated: list[int] = []
    counts = plan.draw(rng)
    for value in VALUES:
        cards = _shuffled(rng, by_value[value])
        to_low, to_high = counts.get(("low", value), 0), counts.get(("high", value), 0)
        designated += cards[:to_low]
        for card in cards[to_low : to_low + to_high]:
            free = [(seat, needs[seat] - len(held[seat])) for seat in plan.high_seats(value)]
            spot = int(rng.integers(sum(n for _, n in free)))
            held[next(seat for seat, n in _running(free) if n > spot)].append(card)
        rest += cards[to_low + to_high :]
        for k, seat in plan.closing(value):
            taken = set(rng.permutation(len(designated))[: counts["close", k]].tolist())
            held[seat] += [card for i, card in enumerate(designated) if i in taken]
            designated = [card for i, card in enumerate(designated) if i not in taken]
    return rest


def _running(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``pairs`` with each count replaced by the running total up to it."""
    total = 0
    out = []
    for key, count in pairs:
        total += count
        out.append((key, total))
    return out


class _Plan:
    """The counts a constrained deal draws, and how many placements complete each.

    The steps go through the values 1..8; at each: how many of its cards go to the low
    seats (set aside: ``designated``) and how many to the high seats, then how many of
    the designated cards each low seat whose last value this is takes (the rest of its
    places wait for Temps Mort). Temps Mort, allowed everywhere, fill the places left at
    the end. Placements are counted with each seat's places told apart (the same factor
    for every placement): a card of value v for the high seats goes to one of the free
    places of the high seats allowing v, all of which a later card of theirs may also
    take, so with ``high`` of them dealt there are ``places(v) - high`` choices whichever
    the seats; a low seat, done when its values end, chooses among the ``designated``
    cards not yet taken. So three counts make a state however many seats exploded:
    designated cards not taken, places left for Temps Mort (``waiting``), cards dealt to
    the high seats. ``tables[i][designated, waiting, high]`` is the number of ways to
    finish from a state before step i, as a float scaled by the table's largest entry
    (the draw at a step compares entries of one table only): exact up to rounding, a
    relative 1e-15."""

    def __init__(
        self,
        sizes: list[int],
        low: list[tuple[int, int, int]],
        high: list[tuple[int, int, int]],
        time_out_only: int,
    ) -> None:
        self.sizes = sizes  # unseen cards per value (index 0: Temps Mort)
        self.low = low  # (seat, last value, need) of the low seats, by last value then seat
        self.high = high  # (seat, first value, need) of the high seats, by seat
        self.time_out_only = time_out_only  # places of the seats allowed Temps Mort only
        self.steps = self._steps()
        self.high_need = sum(n for _, _, n in high)
        spare = sizes[TIME_OUT] - time_out_only  # Temps Mort for the low and high seats
        self.shape = (sum(n for _, _, n in low) + 1, max(spare, 0) + 1, self.high_need + 1)
        self.tables = [self._final()]
        for step in reversed(self.steps):
            after = self.tables[0]
            table = (
                self._value(step[1], after) if step[0] == "value" else self._close(step[1], after)
            )
            top = table.max()
            self.tables.insert(0, table / top if top > 0 else table)
        for table in self.tables:
            table.flags.writeable = False  # a plan is shared: see _plan_of_counts

    def _steps(self) -> list[tuple[str, int]]:
        """The steps of the plan, per value v: ("value", v) where a seat may hold v and some
        card of v is unseen, then ("close", k) for each low seat k whose last value is v."""
        steps: list[tuple[str, int]] = []
        for value in VALUES:
            if self.sizes[value] and (self._low_may_hold(value) or self._places(value)):
                steps.append(("value", value))
            steps += [("close", k) for k, _ in self.closing(value)]
        return steps

    def _low_may_hold(self, value: int) -> bool:
        """Whether some low seat may hold ``value``."""
        return any(value <= last for _, last, _ in self.low)

    def _places(self, value: int) -> int:
        """The high seats' places open to ``value``."""
        return sum(n for _, first, n in self.high if first <= value)

    def _final(self) -> np.ndarray:
        """The ways to finish once every value is dealt: nothing designated left, the places
        left (waiting, the high seats', the Temps-Mort-only seats') filled by Temps Mort."""
        table = np.zeros(self.shape)
        for waiting in range(self.shape[1]):
            for high in range(self.shape[2]):
                places = waiting + self.time_out_only + self.high_need - high
                table[0, waiting, high] = math.perm(self.sizes[TIME_OUT], places)
        return table

    def _value(self, value: int, after: np.ndarray) -> np.ndarray:
        """The table before a value's step: ``x`` of its ``m`` cards to the low seats (if one
        may hold it), ``y`` of the rest to the high seats' free places (if one may)."""
        m, (depth, _, width) = self.sizes[value], self.shape
        lows = m if self._low_may_hold(value) else 0
        highs = m if self._places(value) else 0
        highs = min(highs, width - 1)  # no more than the high seats' places
        free = self._places(value) - np.arange(width)
        shifted = np.zeros((highs + 1, *self.shape))  # [y]: perm(free, y) * after[d, w, h + y]
        for y in range(highs + 1):
            ways = [math.perm(int(f), y) if f >= y else 0 for f in free[: width - y]]
            shifted[y, :, :, : width - y] = after[:, :, y:] * np.array(ways, dtype=float)
        xs = min(lows, depth - 1)
        splits = np.array(  # [x, y]: C(m - x, y), the ways to pick y of the m - x cards left
            [[math.comb(m - x, y) for y in range(highs + 1)] for x in range(xs + 1)], dtype=float
        )
        inner = np.einsum("xy,ydwh->xdwh", splits, shifted)  # no BLAS: the same sums everywhere
        table = np.zeros(self.shape)
        for x in range(xs + 1):
            table[: depth - x] += math.comb(m, x) * inner[x, x:]
        return table

    def _close(self, k: int, after: np.ndarray) -> np.ndarray:
        """The table before low seat ``k`` takes ``n`` of the designated cards (the rest of
        its ``need`` places wait for Temps Mort)."""
        need, (depth, spare, _) = self.low[k][2], self.shape
        table = np.zeros(self.shape)
        designated = np.arange(depth)
        for n in range(need + 1):
            if need - n >= spare:
                continue
            ways = np.array([math.comb(need, n) * math.perm(int(d), n) for d in designated])
            table[n:, : spare - (need - n)] += ways[n:, None, None] * after[: depth - n, need - n :]
        return table

    @classmethod
    def of(
        cls, unseen: list[int], needs: dict[int, int], constraints: dict[int, frozenset[int]]
    ) -> _Plan:
        """The plan of a deal: the exploded seats sorted by the shape of their allowed cards."""
        sizes = [0] * (VALUES[-1] + 1)
        for code in unseen:
            sizes[CARD_VALUE[code]] += 1
        low, high, only = [], [], 0
        for seat in sorted(constraints):
            values = sorted({CARD_VALUE[code] for code in constraints[seat]} - {0})
            if not values:
                only += needs[seat]
            elif values[0] == VALUES[0]:
                low.append((seat, values[-1], needs[seat]))
            else:
                high.append((seat, values[0], needs[seat]))
            assert not values or len(values) == values[-1] - values[0] + 1
            assert not values or values[0] == VALUES[0] or values[-1] == VALUES[-1]
        low.sort(key=lambda item: (item[1], item[0]))
        return _plan_of_counts(tuple(sizes), tuple(low), tuple(high), only)

    def high_seats(self, value: int) -> list[int]:
        """The high seats allowed ``value``."""
        return [seat for seat, first, _ in self.high if first <= value]

    def closing(self, value: int) -> list[tuple[int, int]]:
        """(index, seat) of the low seats whose last allowed value is ``value``, in the order
        they choose."""
        return [(k, seat) for k, (seat, last, _) in enumerate(self.low) if last == value]

    def draw(self, rng: np.random.Generator) -> dict[tuple[str, int], int]:
        """The counts of one deal: ("low", v) and ("high", v) cards of value v, ("close", k)
        designated cards to low seat k; each drawn with probability proportional to the
        ways to finish after it."""
        state = (0, 0, 0)
        counts: dict[tuple[str, int], int] = {}
        for (kind, arg), after in zip(self.steps, self.tables[1:], strict=True):
            if kind == "value":
                (x, y), state = _choose(rng, self._value_options(arg, state, after))
                counts["low", arg], counts["high", arg] = x, y
            else:
                (n,), state = _choose(rng, self._close_options(arg, state, after))
                counts["close", arg] = n
        return counts

    def _value_options(
        self, value: int, state: tuple[int, int, int], after: np.ndarray
    ) -> list[tuple[float, tuple[int, ...], tuple[int, int, int]]]:
        """(weight, (to low, to high), next state) for each split of a value's cards."""
        designated, waiting, high = state
        m, places = self.sizes[value], max(self._places(value) - high, 0)
        lows = m if self._low_may_hold(value) else 0
        options: list[tuple[float, tuple[int, ...], tuple[int, int, int]]] = []
        for x in range(min(lows, self.shape[0] - 1 - designated) + 1):
            for y in range(min(m - x, places) + 1):
                ways = math.comb(m, x) * math.comb(m - x, y) * math.perm(places, y)
                after_state = (designated + x, waiting, high + y)
                options.append((ways * float(after[after_state]), (x, y), after_state))
        return options

    def _close_options(
        self, k: int, state: tuple[int, int, int], after: np.ndarray
    ) -> list[tuple[float, tuple[int, ...], tuple[int, int, int]]]:
        """(weight, (taken,), next state) for each count low seat ``k`` may take."""
        designated, waiting, high = state
        need = self.low[k][2]
        options: list[tuple[float, tuple[int, ...], tuple[int, int, int]]] = []
        for n in range(min(need, designated) + 1):
            if waiting + need - n < self.shape[1]:
                after_state = (designated - n, waiting + need - n, high)
                ways = math.comb(need, n) * math.perm(designated, n)
                options.append((ways * float(after[after_state]), (n,), after_state))
        return options


@functools.lru_cache(maxsize=256)
def _plan_of_counts(
    sizes: tuple[int, ...],
    low: tuple[tuple[int, int, int], ...],
    high: tuple[tuple[int, int, int], ...],
    time_out_only: int,
) -> _Plan:
    """The plan of these counts, built once: a search determinizes one position many
    times, and building its tables is most of a first determinization's time (later seeds
    0.81 ms to 0.28 ms for nine seats, five or more exploded). Plans are not changed once
    built."""
    return _Plan(list(sizes), list(low), list(high), time_out_only)


def _choose(
    rng: np.random.Generator,
    options: list[tuple[float, tuple[int, ...], tuple[int, int, int]]],
) -> tuple[tuple[int, ...], tuple[int, int, int]]:
    """One of ``options`` (weight, counts, next state), drawn by weight."""
    live = [option for option in options if option[0] > 0]
    spot = rng.random() * sum(weight for weight, _, _ in live)
    for weight, drawn, state in live[:-1]:
        if spot < weight:
            return drawn, state
        spot -= weight
    return live[-1][1], live[-1][2]
