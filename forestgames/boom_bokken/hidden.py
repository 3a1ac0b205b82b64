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
random, keeping all of the above, and draws a new seed for the later deals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forestgames.boom_bokken._tables import (
    CARD_VALUE,
    FITTING_VALUES,
    NUM_CODES,
    TIME_OUT,
)
from forestgames.boom_bokken.state import card_holders, pack_hand
from forestgames.core import new_rng

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
    "higher"), or only Temps Mort for a leader (``fact`` None)."""
    if fact is None:
        return frozenset((TIME_OUT,))
    fitting = FITTING_VALUES[fact[1]][CARD_VALUE[fact[0]]]
    return frozenset(c for c in range(NUM_CODES) if c == TIME_OUT or CARD_VALUE[c] not in fitting)


def _unknown_part(hand: tuple[int, ...], known: tuple[int, ...]) -> list[int]:
    """The codes of ``hand`` not publicly known, ascending."""
    counts = list(hand)
    for code in known:
        counts[code] -= 1
    return [code for code in range(NUM_CODES) for _ in range(counts[code])]


def determinize(state: BoomBokkenState, player: int, seed: int) -> BoomBokkenState:
    """A state ``player`` cannot tell from ``state``: the cards it does not know (other
    hands' unknown cards, the unknown top of the draw pile) dealt again at random, with
    a new seed for the later deals."""
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
    order = [unseen[i] for i in rng.permutation(len(unseen))]
    constraints = {
        seat: allowed_codes(fact)
        for seat, fact in zip(state.exploded, state.exploded_on, strict=True)
        if seat != player and needs.get(seat)
    }
    dealt = _deal_constrained(order, needs, constraints)
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


def _deal_constrained(
    order: list[int], needs: dict[int, int], constraints: dict[int, frozenset[int]]
) -> dict[int, list[int]]:
    """Seat -> its unknown cards (and -1 -> the unknown top of the draw pile) from the
    shuffled ``order``: the constrained seats first, each taking the first cards it may
    hold that leave the others a way to be dealt; then the rest in seat order."""
    taken = [False] * len(order)
    counts = [0] * NUM_CODES
    for code in order:
        counts[code] += 1
    dealt: dict[int, list[int]] = {}
    pending = [(seat, constraints[seat], needs[seat]) for seat in sorted(constraints)]
    for k, (seat, allowed, need) in enumerate(pending):
        dealt[seat] = _take(order, taken, counts, allowed, need, pending[k + 1 :])
    rest = iter([code for code, used in zip(order, taken, strict=True) if not used])
    for seat in sorted(needs):
        if seat not in dealt:
            dealt[seat] = [next(rest) for _ in range(needs[seat])]
    dealt[-1] = list(rest)
    return dealt


def _take(
    order: list[int],
    taken: list[bool],
    counts: list[int],
    allowed: frozenset[int],
    need: int,
    later: list[tuple[int, frozenset[int], int]],
) -> list[int]:
    """``need`` cards of ``allowed`` from ``order`` for one seat, keeping ``later`` dealable."""
    got: list[int] = []
    for position, code in enumerate(order):
        if len(got) == need:
            break
        if taken[position] or code not in allowed:
            continue
        counts[code] -= 1
        rest = [(allowed, need - len(got) - 1)] + [(a, n) for _, a, n in later]
        if _dealable(counts, rest):
            taken[position] = True
            got.append(code)
        else:
            counts[code] += 1
    return got


def _dealable(counts: list[int], needs: list[tuple[frozenset[int], int]]) -> bool:
    """Hall's condition: every set of seats may be given its cards from ``counts``.

    Checked once per distinct union of allowed cards, with every seat that union
    covers: a set of seats fails only if all the seats whose allowed cards lie in
    its union fail too. The rules' allowed cards (Temps Mort and the values below,
    or above, one announcement) make few distinct unions, however many seats
    exploded, where the seats' subsets are exponentially many."""
    unions: set[frozenset[int]] = set()
    for allowed, _ in needs:
        unions |= {allowed | union for union in unions}
        unions.add(allowed)
    for union in unions:
        need = sum(n for allowed, n in needs if allowed <= union)
        if need > sum(counts[c] for c in union):
            return False
    return True
