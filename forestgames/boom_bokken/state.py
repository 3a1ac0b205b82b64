"""The Boom Bokken state: an immutable position, with its rules delegated to its game.

Who may act, and how a driver should run the out-of-turn play
--------------------------------------------------------------
Several seats may have a legal move at the same moment: the named player
(who must answer, or explode), and anyone still in the round who can put a
Flash on the top card, play a Temps Mort, or (Expert mode) a Gardien whose
teammate is named. The state says so through:

* ``state.current_player``: the seat the game is waiting for (the named
  player, or the leader when the pile is empty); None once the game is over;
* ``state.players_to_act``: every seat with a legal move now, the current
  player first, the others in seat order;
* ``state.legal_moves(seat)``: that seat's moves now (``()`` if none).

A driver that wants a table-like order does, after every move::

    order = list(state.players_to_act[1:])   # the seats who may react
    rng.shuffle(order)                        # a seeded "reaction" order
    for seat in order:                        # each gets one chance
        move = agents[seat].react(state, seat)   # a move of legal_moves(seat), or None
        if move is not None:
            break                             # apply it, then start again from the new state
    else:
        move = agents[state.current_player].choose(state)  # nobody reacted: the named one plays
    state = state.apply(move)

A reaction changes the position (new top card, new named player, or an empty
pile), so the reaction round starts over from the new state. When the pile is
empty (a lead is due) nobody can react: ``players_to_act`` is the leader alone.
Games end, whatever the seats do: every play spends a card, a Temps Mort is
followed by a lead, explosions are at most one per player per round, and in
Expert mode (where a Cogneur's knock hands a card back) each Temps Mort is
spent for the round. ``traits.max_moves`` is a true bound.

Stored position (prefer the properties): ``hands`` are 17 counts per seat
indexed by card code (see ``_tables``), ``deck`` the draw pile top first,
``pile`` the played cards bottom first, ``active`` a bit mask of the seats
still in the round.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from forestgames.boom_bokken._tables import (
    ANNOUNCEMENTS,
    CARD_CODE,
    CARD_NAMES,
    CARD_VALUE,
    FITTING,
    GARDIEN,
    NUM_CODES,
    ROLES,
    ROUNDS,
    TIME_OUT,
    flash,
    team_roles,
)
from forestgames.boom_bokken.scoring import decide_winners, final_scores, round_coins
from forestgames.core import LegacyStateBase as StateBase
from forestgames.core import StateError, expect_int, expect_keys, new_rng, require

if TYPE_CHECKING:
    from forestgames.boom_bokken.rules import BoomBokkenGame

__all__ = ["BoomBokkenState", "hand_names", "load_state"]


def hand_names(counts: tuple[int, ...]) -> tuple[str, ...]:
    """The card names of a hand given as 17 counts, sorted by code."""
    return tuple(name for name, n in zip(CARD_NAMES, counts, strict=True) for _ in range(n))


def _seats(mask: int, num_players: int) -> tuple[int, ...]:
    return tuple(s for s in range(num_players) if mask >> s & 1)


@attrs.frozen(repr=False)
class BoomBokkenState(StateBase):
    """A Boom Bokken position. Build with ``game.new_game()``; change with ``apply()``.

    ``round`` is 1..3; ``over`` is set once the third round ended. ``teams``
    and ``roles`` (Expert mode, else ``()``) are this round's character cards.
    ``safe`` and ``exploded`` list this round's seats out, in order. ``leader``
    is the seat to lead when the pile is empty (else -1); ``target`` the named
    seat (-1 when none), ``higher`` the announcement, ``last_player`` the seat
    that played the top card (-1 when the pile is empty). ``history`` holds
    ``(safe_order, teams)`` of every finished round; ``seed`` drives the deals
    of the rounds to come (hidden, like the deck order).
    """

    game: BoomBokkenGame
    round: int
    over: bool
    seed: int
    teams: tuple[int, ...]
    roles: tuple[str, ...]
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    pile: tuple[int, ...]
    aside: int
    safe: tuple[int, ...]
    exploded: tuple[int, ...]
    active: int
    leader: int
    target: int
    higher: bool
    last_player: int
    tokens: tuple[int, ...]
    history: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]

    # ------------------------------------------------------------------ protocol

    @property
    def current_player(self) -> int | None:
        """The seat the game waits for: the named player, else the leader; None once over."""
        if self.over:
            return None
        return self.target if self.target >= 0 else self.leader

    @property
    def is_terminal(self) -> bool:
        return self.over

    @property
    def players_to_act(self) -> tuple[int, ...]:
        """Seats with a legal move now: the current player first, then the others by seat."""
        if self.over:
            return ()
        target = self.target
        if target < 0:
            return (self.leader,)
        value = CARD_VALUE[self.pile[-1]]
        own_flash = flash(value)
        fitting = FITTING[self.higher][value]
        gardien_team = -1
        if self.roles:
            gardien_team = self.teams[target]
        acting = [target]
        for seat in range(self.game.num_players):
            if seat == target or not self.active >> seat & 1:
                continue
            hand = self.hands[seat]
            if (
                hand[TIME_OUT]
                or (hand[own_flash] and seat != self.last_player)
                or (
                    self.teams[seat] == gardien_team
                    and self.roles[seat] == GARDIEN
                    and any(hand[c] for c in fitting)
                )
            ):
                acting.append(seat)
        return tuple(acting)

    @property
    def scores(self) -> tuple[int, ...]:
        """Points so far per seat: coins of the finished rounds plus 2 per Bokken token."""
        return final_scores(self.coins, self.tokens)

    @property
    def winners(self) -> tuple[int, ...]:
        """Once over: highest total, ties to the most Bokken tokens, still tied shared."""
        if not self.over:
            return ()
        return decide_winners(self.scores, self.tokens)

    def _is_legal(self, move: Any) -> bool:
        return self.game.problem(self, move) is None

    def _why_illegal(self, move: Any) -> str:
        return self.game.problem(self, move) or f"{move} is not legal now"

    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` sees: own hand, every hand's size, the deck's size, all else public."""
        player = self._checked_player(player)
        return {
            "observer": player,
            "hand": list(self.hand(player)),
            "hand_sizes": list(self.hand_sizes),
            "deck_size": len(self.deck),
            **self._public(),
        }

    def determinize(self, player: int, seed: int) -> BoomBokkenState:
        """A state ``player`` cannot tell from this one: the unseen cards (other hands,
        exploded hands, the deck) dealt again at random, with a new seed for later deals."""
        player = self._checked_player(player)
        rng = new_rng(seed)
        unseen = list(self.deck)
        for seat, hand in enumerate(self.hands):
            if seat != player:
                for code in range(NUM_CODES):
                    unseen.extend([code] * hand[code])
        order = [unseen[i] for i in rng.permutation(len(unseen))]
        hands = list(self.hands)
        at = 0
        for seat, hand in enumerate(self.hands):
            if seat == player:
                continue
            size = sum(hand)
            counts = [0] * NUM_CODES
            for code in order[at : at + size]:
                counts[code] += 1
            hands[seat] = tuple(counts)
            at += size
        return attrs.evolve(
            self, hands=tuple(hands), deck=tuple(order[at:]), seed=int(rng.integers(2**62))
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict; ``game.state_from_dict`` rebuilds this exact state."""
        return {
            "game": "boom_bokken",
            "num_players": self.game.num_players,
            "seed": self.seed,
            "hands": [list(self.hand(seat)) for seat in range(self.game.num_players)],
            "deck": [CARD_NAMES[c] for c in self.deck],
            **self._public(),
        }

    def _public(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "over": self.over,
            "teams": list(self.teams),
            "roles": list(self.roles) if self.roles else None,
            "pile": [CARD_NAMES[c] for c in self.pile],
            "aside": self.aside,
            "safe": list(self.safe),
            "exploded": list(self.exploded),
            "leader": None if self.leader < 0 else self.leader,
            "target": None if self.target < 0 else self.target,
            "announce": self.announcement,
            "last_player": None if self.last_player < 0 else self.last_player,
            "tokens": list(self.tokens),
            "history": [
                {"safe_order": list(order), "teams": list(teams)} for order, teams in self.history
            ],
        }

    def legal_action_mask(self, player: int | None = None) -> np.ndarray:  # codec wiring
        """(num_actions,) int8: 1 exactly at the ids of ``legal_moves(player)`` (read-only)."""
        return self.game.codec.mask(self, player)

    def observation_tensor(self, player: int) -> np.ndarray:  # codec wiring
        """float32 of ``game.observation_shape``: ``observation(player)`` as a tensor."""
        return self.game.codec.tensor(self, player)

    def render(self, player: int | None = None) -> str:  # picture wiring
        """A text picture of the position, seen by ``player`` (None: the referee's view)."""
        from forestgames.boom_bokken.render import render_text  # picture wiring

        return render_text(self, player)  # picture wiring

    def to_svg(self, player: int | None = None) -> str:  # picture wiring
        """An SVG picture of the position, seen by ``player`` (None: the referee's view)."""
        from forestgames.boom_bokken.render import render_svg  # picture wiring

        return render_svg(self, player)  # picture wiring

    def _repr_svg_(self) -> str:  # picture wiring
        """The referee's SVG picture, for notebooks."""
        return self.to_svg()  # picture wiring

    def __repr__(self) -> str:
        return (
            f"<BoomBokkenState {self.game.num_players}p round {self.round} "
            f"to act: {self.players_to_act} scores {self.scores}>"
        )

    # ------------------------------------------------------------------ the position

    def hand(self, seat: int) -> tuple[str, ...]:
        """The card names in ``seat``'s hand, sorted (T, oranges, Flash)."""
        return hand_names(self.hands[seat])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds (exploded seats' set-aside cards included)."""
        return tuple(sum(hand) for hand in self.hands)

    @property
    def deck_size(self) -> int:
        return len(self.deck)

    @property
    def pile_cards(self) -> tuple[str, ...]:
        """The names of the cards on the pile, bottom first."""
        return tuple(CARD_NAMES[c] for c in self.pile)

    @property
    def top_card(self) -> str | None:
        """The name of the card on top of the pile, or None if the pile is empty."""
        return CARD_NAMES[self.pile[-1]] if self.pile else None

    @property
    def announcement(self) -> str | None:
        """``"higher"`` or ``"lower"`` while a player is named, else None."""
        return ANNOUNCEMENTS[self.higher] if self.target >= 0 else None

    @property
    def named_player(self) -> int | None:
        """The seat that must answer the announcement, or None."""
        return self.target if self.target >= 0 else None

    @property
    def players_in_round(self) -> tuple[int, ...]:
        """Seats neither safe nor exploded this round."""
        return _seats(self.active, self.game.num_players)

    @property
    def coins(self) -> tuple[int, ...]:
        """Coin points per seat from the finished rounds."""
        totals = [0] * self.game.num_players
        for order, teams in self.history:
            for seat, coins in enumerate(round_coins(order, teams)):
                totals[seat] += coins
        return tuple(totals)


# ---------------------------------------------------------------------- loading saved states

_KEYS = (
    "game", "num_players", "seed", "hands", "deck", "round", "over", "teams", "roles", "pile",
    "aside", "safe", "exploded", "leader", "target", "announce", "last_player", "tokens", "history",
)  # fmt: skip


def load_state(game: BoomBokkenGame, data: Any) -> BoomBokkenState:
    """Rebuild a state from ``to_dict`` output; StateError says what is wrong with it."""
    data = expect_keys(data, _KEYS, "Boom Bokken state")
    p = game.num_players
    require(
        data["game"] == "boom_bokken",
        StateError,
        f"not a Boom Bokken state: game is {data['game']!r}",
    )
    require(
        data["num_players"] == p,
        StateError,
        f"state is for {data['num_players']!r} players, the game for {p}",
    )
    seed = expect_int(data["seed"], "seed", 0, None)
    rnd = expect_int(data["round"], "round", 1, ROUNDS)
    over = data["over"]
    require(isinstance(over, bool), StateError, f"over must be true or false, not {over!r}")
    teams = _load_teams(game, data["teams"], "teams")
    roles = _load_roles(game, data["roles"], teams)
    hands_lists = data["hands"]
    require(
        isinstance(hands_lists, list) and len(hands_lists) == p,
        StateError,
        f"hands: one list per seat ({p})",
    )
    hands = tuple(_counts(_codes(h, f"hands[{seat}]")) for seat, h in enumerate(hands_lists))
    deck = _codes(data["deck"], "deck")
    pile = _codes(data["pile"], "pile")
    require(TIME_OUT not in pile, StateError, "pile: a Temps Mort never stays on the pile")
    aside = expect_int(data["aside"], "aside", 0, game.deck[TIME_OUT])
    require(
        aside == 0 or game.spent_time_outs == "aside",
        StateError,
        "aside: Temps Mort cards are set aside only with spent_time_outs='aside'",
    )
    total = Counter(deck) + Counter(pile)
    for hand in hands:
        total.update({code: n for code, n in enumerate(hand) if n})
    total[TIME_OUT] += aside
    composition = Counter({code: n for code, n in enumerate(game.deck) if n})
    if total != composition:
        extra = [CARD_NAMES[c] for c in sorted((total - composition).elements())]
        missing = [CARD_NAMES[c] for c in sorted((composition - total).elements())]
        raise StateError(f"cards are not the game's deck: extra {extra}, missing {missing}")
    safe = _seat_list(data["safe"], "safe", p)
    exploded = _seat_list(data["exploded"], "exploded", p)
    require(not set(safe) & set(exploded), StateError, "a seat is both safe and exploded")
    active = sum(1 << s for s in range(p) if s not in safe and s not in exploded)
    leader = _optional_seat(data["leader"], "leader", p)
    target = _optional_seat(data["target"], "target", p)
    last_player = _optional_seat(data["last_player"], "last_player", p)
    announce = data["announce"]
    require(
        (announce is None) == (target < 0) and (announce is None or announce in ANNOUNCEMENTS),
        StateError,
        f"announce {announce!r}: 'higher' or 'lower' exactly while a player is named",
    )
    tokens = tuple(_int_list(data["tokens"], "tokens", p, 0))
    history = _load_history(game, data["history"])
    state = BoomBokkenState(
        game, rnd, over, seed, teams, roles, hands, deck, pile, aside, safe, exploded, active,
        leader, target, announce == "higher", last_player, tokens, history,
    )  # fmt: skip
    _check_consistent(state)
    return state


def _check_consistent(state: BoomBokkenState) -> None:
    """The rules' invariants between the fields of a loaded state."""
    game, p = state.game, state.game.num_players
    in_round = state.players_in_round

    def check(condition: bool, message: str) -> None:
        require(condition, StateError, message)

    if state.over:
        check(
            state.round == ROUNDS and len(state.history) == ROUNDS,
            "over: three rounds must be recorded",
        )
        check(not in_round, "over: nobody is still in the round")
        check(
            state.history[-1] == (state.safe, state.teams),
            "over: the last round's record must match",
        )
        check(state.leader < 0 and state.target < 0, "over: no leader and no named player")
    else:
        check(
            len(state.history) == state.round - 1,
            f"round {state.round} needs {state.round - 1} finished rounds",
        )
        check(
            len({state.teams[s] for s in in_round}) >= 2,
            "the round should be over: one team is left",
        )
        for seat in state.safe:
            check(not any(state.hands[seat]), f"safe seat {seat} still holds cards")
        for seat in in_round:
            check(any(state.hands[seat]), f"seat {seat} is in the round with an empty hand")
        if state.pile:
            check(state.leader < 0, "leader: nobody leads while a card is on the pile")
            check(
                state.target in in_round, f"target {state.target} must be a seat still in the round"
            )
            last = state.last_player
            check(
                last >= 0
                and last != state.target
                and (last in in_round or state.safe[-1:] == (last,)),
                f"last_player {last}: the top card's player, not the target, in or just safe",
            )
        else:
            check(
                state.leader in in_round, f"leader {state.leader} must be a seat still in the round"
            )
            check(
                state.target < 0 and state.last_player < 0,
                "no named player without a card on the pile",
            )
    explosions = sum(p - len(order) for order, _ in state.history)
    if not state.over:
        explosions += len(state.exploded)
    check(
        sum(state.tokens) <= explosions,
        f"{sum(state.tokens)} Bokken tokens but only {explosions} explosions",
    )
    if game.expert:
        check(all(role in ROLES for role in state.roles), "roles must be gardien, cogneur, coureur")


def _load_teams(game: BoomBokkenGame, value: Any, what: str) -> tuple[int, ...]:
    sizes = game.team_sizes
    teams = tuple(_int_list(value, what, game.num_players, 0, len(sizes) - 1))
    counts = Counter(teams)
    require(
        all(counts[k] == size for k, size in enumerate(sizes)),
        StateError,
        f"{what} {list(teams)}: team k must have {list(sizes)}[k] members",
    )
    return teams


def _load_roles(game: BoomBokkenGame, value: Any, teams: tuple[int, ...]) -> tuple[str, ...]:
    if not game.expert:
        require(value is None, StateError, "roles: null unless the game is in Expert mode")
        return ()
    require(
        isinstance(value, list)
        and len(value) == game.num_players
        and all(r in ROLES for r in value),
        StateError,
        f"roles must list gardien, cogneur or coureur per seat, not {value!r}",
    )
    for team, size in enumerate(game.team_sizes):
        have = sorted(r for r, t in zip(value, teams, strict=True) if t == team)
        require(
            have == sorted(team_roles(size)),
            StateError,
            f"team {team} of {size} must hold roles {list(team_roles(size))}, not {have}",
        )
    return tuple(value)


def _load_history(
    game: BoomBokkenGame, value: Any
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    require(
        isinstance(value, list) and len(value) <= ROUNDS,
        StateError,
        "history must be a list of rounds",
    )
    rounds = []
    for k, entry in enumerate(value):
        entry = expect_keys(entry, ("safe_order", "teams"), f"history[{k}]")
        order = _seat_list(entry["safe_order"], f"history[{k}].safe_order", game.num_players)
        require(bool(order), StateError, f"history[{k}]: somebody is safe at the end of a round")
        rounds.append((order, _load_teams(game, entry["teams"], f"history[{k}].teams")))
    return tuple(rounds)


def _codes(value: Any, what: str) -> tuple[int, ...]:
    require(
        isinstance(value, list), StateError, f"{what} must be a list of card names, not {value!r}"
    )
    codes = []
    for name in value:
        code = CARD_CODE.get(name) if isinstance(name, str) else None
        require(code is not None, StateError, f"{what}: {name!r} is not a card (T, 1..8, F1..F8)")
        codes.append(code)
    return tuple(codes)  # type: ignore[arg-type]


def _counts(codes: tuple[int, ...]) -> tuple[int, ...]:
    counts = [0] * NUM_CODES
    for code in codes:
        counts[code] += 1
    return tuple(counts)


def _int_list(
    value: Any, what: str, length: int | None, low: int, high: int | None = None
) -> list[int]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = "a list of" if length is None else f"a list of {length}"
        raise StateError(f"{what} must be {size} ints, not {value!r}")
    return [expect_int(x, what, low, high) for x in value]


def _seat_list(value: Any, what: str, p: int) -> tuple[int, ...]:
    seats = _int_list(value, what, None, 0, p - 1)
    require(len(set(seats)) == len(seats), StateError, f"{what} repeats a seat: {seats}")
    return tuple(seats)


def _optional_seat(value: Any, what: str, p: int) -> int:
    return -1 if value is None else expect_int(value, what, 0, p - 1)
