"""The Boom Bokken game: options, the rules (legal moves and transitions), saved states.

``BoomBokkenGame`` is a frozen value: its options are the rules variant. States
hand every rules question over to their game, so this module is the one place
the rules of ``rules/boom_bokken.md`` live: the chain of leads and answers,
Boom, safety, the out-of-turn Flash and Temps Mort, the Expert roles, the end
of a round and the next deal.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from forestgames._codec import cached_codec  # codec wiring
from forestgames.boom_bokken import heuristic
from forestgames.boom_bokken import moves as mv
from forestgames.boom_bokken._tables import (
    ANNOUNCEMENTS,
    CARD_CODE,
    CARD_NAMES,
    CARD_VALUE,
    COGNEUR,
    COIN_POINTS,
    COUREUR,
    DEFAULT_DECK,
    FITTING,
    FITTING_VALUES,
    GARDIEN,
    HAND_SIZE,
    IS_FLASH,
    IS_ORANGE,
    NUM_CODES,
    ROLE_PRIORITY,
    ROUNDS,
    SPENT_TIME_OUTS,
    TEAM_SIZES,
    TIME_OUT,
    TOKEN_POINTS,
    VALUES,
    flash,
)
from forestgames.boom_bokken.actions import BoomBokkenCodec  # codec wiring
from forestgames.boom_bokken.state import BoomBokkenState, hand_names, load_state
from forestgames.core import (
    ConfigError,
    GameTraits,
    StateError,
    check_bool_option,
    check_option_names,
    check_player_count,
    check_seat,
    resolve_seed,
)

__all__ = ["OPTION_NAMES", "BoomBokkenGame"]

OPTION_NAMES = ("num_players", "team_sizes", "deck", "expert", "spent_time_outs")


def _check_team_sizes(value: Any, players: int) -> tuple[int, ...]:
    allowed = TEAM_SIZES[players]
    if value is None:
        return allowed[0]
    try:
        sizes = tuple(value)
    except TypeError:
        sizes = None
    if sizes not in allowed:
        options = " or ".join(str(list(a)) for a in allowed)
        raise ConfigError(f"team_sizes for {players} players must be {options}, not {value!r}")
    return sizes  # type: ignore[return-value]


def _check_deck(value: Any, players: int) -> tuple[int, ...]:
    if value is None:
        return DEFAULT_DECK
    if not isinstance(value, Mapping):
        raise ConfigError(f"deck must map card names (T, 1..8, F1..F8) to counts, not {value!r}")
    counts = [0] * NUM_CODES
    for name, count in value.items():
        if name not in CARD_CODE:
            raise ConfigError(f"deck: {name!r} is not a card name (T, 1..8, F1..F8)")
        if (
            isinstance(count, bool)
            or not isinstance(count, int | np.integer)
            or not 0 <= count <= 99
        ):
            raise ConfigError(f"deck: the count of {name!r} must be an int 0..99, not {count!r}")
        counts[CARD_CODE[name]] = int(count)
    need = HAND_SIZE[players] * players
    if sum(counts) < need:
        raise ConfigError(f"deck: {sum(counts)} cards cannot deal {need} to {players} players")
    return tuple(counts)


@attrs.frozen(repr=False)
class BoomBokkenGame:
    """Boom Bokken for 4–9 players with its options fixed. Build with ``BoomBokkenGame.create``.

    Options (see docs/boom_bokken.md, "Choices"):

    * ``team_sizes``: the team split, one of the seed's table for the player
      count (default the first: 4 → [2, 2], 6 → [2, 2, 2] or [3, 3], ...).
    * ``deck``: a mapping of card names (``"T"``, ``"1"``..``"8"``,
      ``"F1"``..``"F8"``) to counts; default six orange and two Flash of each
      value, six Temps Mort (70 cards). It must deal every hand.
    * ``expert``: the Expert mode's roles (Gardien, Cogneur, Coureur); default False.
    * ``spent_time_outs``: ``"deck"`` (a played Temps Mort goes under the draw
      pile with the pile) or ``"aside"`` (set aside until the round ends).
      Default ``"deck"``, but ``"aside"`` in Expert mode, where ``"deck"`` is
      refused: with the Cogneur's forced draws, Temps Mort and knocks could
      then cycle forever.
    """

    name = "boom_bokken"

    num_players: int
    team_sizes: tuple[int, ...]
    deck: tuple[int, ...]
    expert: bool = False
    spent_time_outs: str = "deck"

    @classmethod
    def create(cls, **options: Any) -> BoomBokkenGame:
        """Validate ``options`` (see the class docstring); ConfigError names a bad one."""
        check_option_names("Boom Bokken", options, OPTION_NAMES)
        players = check_player_count("Boom Bokken", options.get("num_players", 4), 4, 9)
        expert = check_bool_option("expert", options.get("expert", False))
        spent = options.get("spent_time_outs", "aside" if expert else "deck")
        if spent not in SPENT_TIME_OUTS:
            raise ConfigError(f"spent_time_outs must be 'deck' or 'aside', not {spent!r}")
        if expert and spent == "deck":
            raise ConfigError(
                "spent_time_outs='deck' is refused in Expert mode: with the Cogneur's forced "
                "draws, Temps Mort cards going back under the deck could make a round endless"
            )
        return cls(
            players,
            _check_team_sizes(options.get("team_sizes"), players),
            _check_deck(options.get("deck"), players),
            expert,
            spent,
        )

    def __repr__(self) -> str:
        return f"BoomBokkenGame.create(**{self.options()!r})"

    # ------------------------------------------------------------------ description

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player: 7, or 6 with 7–9 players."""
        return HAND_SIZE[self.num_players]

    @property
    def traits(self) -> GameTraits:
        p = self.num_players
        cards = sum(self.deck)
        if self.expert:
            # Between two recyclings of the pile (a Temps Mort, set aside, or a
            # Boom) every play spends a card of hands and deck: at most `cards`.
            per_round = (self.deck[TIME_OUT] + p) * (cards + 2)
        else:
            # Every play spends a hand card; a Temps Mort is followed by a lead.
            per_round = 2 * (self.hand_size * p + p)
        best = COIN_POINTS[0] * ROUNDS + TOKEN_POINTS * ROUNDS * (p - 1)  # gold and every token
        return GameTraits("boom_bokken", 4, 9, True, True, True, ROUNDS * per_round, (0, best))

    def options(self) -> dict[str, Any]:
        """The options that rebuild this game with ``make("boom_bokken", **options)``."""
        result: dict[str, Any] = {
            "num_players": self.num_players,
            "team_sizes": list(self.team_sizes),
        }
        if self.deck != DEFAULT_DECK:
            result["deck"] = {CARD_NAMES[c]: n for c, n in enumerate(self.deck) if n}
        result["expert"] = self.expert
        result["spent_time_outs"] = self.spent_time_outs
        return result

    # codec wiring: integer actions and tensors (forestgames.boom_bokken.actions)

    @property
    def codec(self) -> BoomBokkenCodec:  # codec wiring
        return cached_codec(self, BoomBokkenCodec)  # type: ignore[no-any-return]

    @property
    def num_actions(self) -> int:  # codec wiring
        return self.codec.num_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:  # codec wiring
        return self.codec.observation_shape

    def action_id(self, move: Any) -> int:  # codec wiring
        return self.codec.action_id(move)

    def move_from_id(self, action_id: Any, player: Any) -> Any:  # codec wiring
        return self.codec.move_from_id(action_id, player)

    def parse_move(self, text: str) -> mv.BoomBokkenMove:
        """The move written as ``text``; ParseError if it is not Boom Bokken notation."""
        return mv.parse_move(text)

    # ------------------------------------------------------------------ new game, deals

    def new_game(self, seed: int | None = None, first_player: int | None = None) -> BoomBokkenState:
        """Round 1 dealt from ``seed``; its first leader drawn from ``seed`` unless given."""
        seed = resolve_seed(seed)
        if first_player is None:
            first_player = _deal_rng(seed, 0).randrange(self.num_players)
        first_player = check_seat(self.num_players, first_player, "first_player")
        return self._deal(1, seed, first_player, (0,) * self.num_players, ())

    def _deal(
        self, rnd: int, seed: int, leader: int, tokens: tuple[int, ...], history: tuple[Any, ...]
    ) -> BoomBokkenState:
        """A new round: character cards and all the cards shuffled, hands dealt."""
        rng = _deal_rng(seed, rnd)
        seats = [
            (team, ROLE_PRIORITY[k])
            for team, size in enumerate(self.team_sizes)
            for k in range(size)
        ]
        rng.shuffle(seats)
        order = [code for code, n in enumerate(self.deck) for _ in range(n)]
        rng.shuffle(order)
        hands = []
        size = self.hand_size
        for seat in range(self.num_players):
            counts = [0] * NUM_CODES
            for code in order[seat * size : (seat + 1) * size]:
                counts[code] += 1
            hands.append(tuple(counts))
        return BoomBokkenState(
            game=self,
            round=rnd,
            over=False,
            seed=seed,
            teams=tuple(team for team, _ in seats),
            roles=tuple(role for _, role in seats) if self.expert else (),
            hands=tuple(hands),
            deck=tuple(order[self.num_players * size :]),
            pile=(),
            aside=0,
            safe=(),
            exploded=(),
            active=(1 << self.num_players) - 1,
            leader=leader,
            target=-1,
            higher=False,
            last_player=-1,
            tokens=tokens,
            history=history,
        )

    def deal(
        self,
        hands: Sequence[Sequence[str]],
        teams: Sequence[int],
        leader: int,
        deck_top: Sequence[str] = (),
        roles: Sequence[str] | None = None,
        seed: int = 0,
    ) -> BoomBokkenState:
        """A round-1 position with the hands, teams (and roles) given: for puzzles and tests.

        The draw pile is ``deck_top`` (top first) followed by the rest of the
        game's deck in card order. StateError if the cards or teams do not fit
        the game.
        """
        rest = list(self.deck)
        for card in [c for hand in hands for c in hand] + list(deck_top):
            code = CARD_CODE.get(card) if isinstance(card, str) else None
            if code is None or rest[code] == 0:
                raise StateError(f"deal: {card!r} is not a card left in the game's deck")
            rest[code] -= 1
        data = {
            "game": "boom_bokken", "num_players": self.num_players, "seed": seed,
            "hands": [list(h) for h in hands],
            "deck": list(deck_top) + list(hand_names(tuple(rest))),
            "round": 1, "over": False, "teams": list(teams),
            "roles": None if roles is None else list(roles), "pile": [], "aside": 0,
            "safe": [], "exploded": [], "leader": leader, "target": None, "announce": None,
            "last_player": None, "tokens": [0] * self.num_players, "history": [],
        }  # fmt: skip
        return load_state(self, data)

    # ------------------------------------------------------------------ legal moves

    def legal_moves_of(self, state: BoomBokkenState, seat: int) -> tuple[mv.BoomBokkenMove, ...]:
        """The moves of ``seat`` now: plays (in card order), then Boom, then Temps Mort."""
        if not state.active >> seat & 1:
            return ()
        hand = state.hands[seat]
        coureur = self.expert and state.roles[seat] == COUREUR
        if state.target < 0:
            if seat != state.leader:
                return ()
            groups = _groups(hand, VALUES, coureur)
            return self._plays(state, seat, groups) if groups else self._booms(state, seat)
        value = CARD_VALUE[state.pile[-1]]
        fitting = FITTING_VALUES[state.higher][value]
        if seat == state.target:
            groups = _groups(hand, fitting, coureur)
            moves = self._plays(state, seat, groups) if groups else self._booms(state, seat)
        else:
            groups = []
            if seat != state.last_player and hand[flash(value)]:
                groups = _flash_groups(value, hand[flash(value)] if coureur else 1)
            if self._guards(state, seat):
                groups = groups + [g for g in _groups(hand, fitting, False) if g not in groups]
            moves = self._plays(state, seat, groups)
        if hand[TIME_OUT]:
            moves += (_TIME_OUTS[seat],)
        return moves

    def _guards(self, state: BoomBokkenState, seat: int) -> bool:
        """Whether ``seat`` is a Gardien whose teammate is named (Expert mode)."""
        return (
            self.expert
            and state.roles[seat] == GARDIEN
            and state.teams[seat] == state.teams[state.target]
        )

    def _plays(
        self, state: BoomBokkenState, seat: int, groups: list[tuple[str, ...]]
    ) -> tuple[mv.BoomBokkenMove, ...]:
        targets = _targets(state.active, seat, self.num_players)
        cogneur = self.expert and state.roles[seat] == COGNEUR
        size = sum(state.hands[seat])
        moves: tuple[mv.BoomBokkenMove, ...] = ()
        for group in groups:
            if len(group) == size and _one_team(targets, state.teams):
                moves += (_final_play(seat, group),)
            else:
                knock = cogneur and len(group) == 1 and IS_ORANGE[CARD_CODE[group[0]]]
                moves += _announced_plays(seat, group, targets, knock)
        return moves

    def _booms(self, state: BoomBokkenState, seat: int) -> tuple[mv.BoomBokkenMove, ...]:
        targets = _targets(state.active, seat, self.num_players)
        if _one_team(targets, state.teams):
            return (mv.Boom(seat),)
        return _booms(seat, targets)

    # ------------------------------------------------------------------ why a move is illegal

    def problem(self, state: BoomBokkenState, move: Any) -> str | None:
        """None if ``move`` is legal in ``state``, else a message naming the rule it breaks."""
        kind = type(move)
        if kind is not mv.Play and kind is not mv.TimeOut and kind is not mv.Boom:
            return f"{move!r} is not a Boom Bokken move"
        seat = move.player
        if state.over:
            return f"{move}: the game is over"
        if not state.active >> seat & 1:
            status = "safe" if seat in state.safe else "exploded"
            return f"{move}: seat {seat} is out of this round ({status})"
        hand = state.hands[seat]
        if kind is mv.TimeOut:
            if not state.pile:
                return f"{move}: a Temps Mort goes on the pile, and the pile is empty"
            if not hand[TIME_OUT]:
                return f"{move}: seat {seat} holds no Temps Mort"
            return None
        if kind is mv.Boom:
            return self._boom_problem(state, move)
        return self._play_problem(state, move)

    def _boom_problem(self, state: BoomBokkenState, move: mv.Boom) -> str | None:
        seat, hand = move.player, state.hands[move.player]
        if state.target < 0:
            if seat != state.leader:
                return f"{move}: nobody is named; seat {state.leader} leads"
            if any(hand[c] for c in range(1, NUM_CODES)):
                return f"{move}: seat {seat} leads and holds a card to lead with"
        else:
            if seat != state.target:
                return f"{move}: only the named player (seat {state.target}) can explode"
            value = CARD_VALUE[state.pile[-1]]
            if any(hand[c] for c in FITTING[state.higher][value]):
                return (
                    f"{move}: seat {seat} holds a card {state.announcement} than {value} (or equal)"
                )
        targets = _targets(state.active, seat, self.num_players)
        if _one_team(targets, state.teams):
            if move.next_leader is not None:
                return f"{move}: this explosion ends the round; it names no next leader"
        elif move.next_leader not in targets or isinstance(move.next_leader, bool):
            return f"{move}: the next leader must be a seat still in the round: {list(targets)}"
        return None

    def _play_problem(self, state: BoomBokkenState, move: mv.Play) -> str | None:
        seat, hand, cards = move.player, state.hands[move.player], move.cards
        codes = _valued_codes(cards)
        if codes is None:
            return f"{move}: cards are named 1..8 or F1..F8 (a Temps Mort is played as a timeout)"
        value = CARD_VALUE[codes[0]]
        if len(codes) > 1 and any(CARD_VALUE[c] != value for c in codes):
            return f"{move}: cards played together must share one value"
        coureur = self.expert and state.roles[seat] == COUREUR
        if len(codes) > 1 and not coureur:
            return f"{move}: only a Coureur (Expert mode) plays several cards at once"
        if any(codes.count(c) > hand[c] for c in codes):
            return (
                f"{move}: seat {seat} does not hold {list(cards)} (hand {list(state.hand(seat))})"
            )
        if state.target < 0:
            if seat != state.leader:
                return f"{move}: the pile is empty and seat {state.leader} leads"
        else:
            top = CARD_VALUE[state.pile[-1]]
            fits = value in FITTING_VALUES[state.higher][top]
            is_flash = all(IS_FLASH[c] for c in codes) and value == top
            if seat == state.target:
                if not fits:
                    return f"{move}: {value} does not answer '{state.announcement}' on {top}"
            elif not (is_flash and seat != state.last_player) and not (
                fits and len(codes) == 1 and self._guards(state, seat)
            ):
                if is_flash:
                    return (
                        f"{move}: seat {seat} played the {top} on top; no Flash on one's own card"
                    )
                return (
                    f"{move}: seat {state.target} is named; out of turn only a Flash of {top}, "
                    "a Temps Mort or a Gardien's answer for a named teammate may be played"
                )
        targets = _targets(state.active, seat, self.num_players)
        if len(codes) == sum(hand) and _one_team(targets, state.teams):
            if move.target is not None or move.announce is not None or move.knock:
                return f"{move}: this last card ends the round: no target, no announcement"
            return None
        if isinstance(move.target, bool) or move.target not in targets:
            return f"{move}: the target must be another seat still in the round: {list(targets)}"
        if move.announce not in ANNOUNCEMENTS:
            return f"{move}: the announcement is 'higher' or 'lower', not {move.announce!r}"
        if move.knock is not False:
            if move.knock is not True:
                return f"{move}: knock is True or False, not {move.knock!r}"
            if not (self.expert and state.roles[seat] == COGNEUR):
                return f"{move}: only a Cogneur (Expert mode) knocks"
            if not (len(codes) == 1 and IS_ORANGE[codes[0]]):
                return f"{move}: a Cogneur knocks when playing one orange card"
        return None

    # ------------------------------------------------------------------ transitions

    def apply_move(self, state: BoomBokkenState, move: mv.BoomBokkenMove) -> BoomBokkenState:
        """The state after legal ``move`` (the caller has checked legality)."""
        kind = type(move)
        if kind is mv.Play:
            return self._play(state, move)  # type: ignore[arg-type]
        if kind is mv.TimeOut:
            return self._time_out(state, move.player)
        return self._boom(state, move)  # type: ignore[arg-type]

    def _play(self, state: BoomBokkenState, move: mv.Play) -> BoomBokkenState:
        seat = move.player
        codes = _CODES[move.cards]
        hand = list(state.hands[seat])
        for code in codes:
            hand[code] -= 1
        hands = list(state.hands)
        hands[seat] = tuple(hand)
        safe, active = state.safe, state.active
        if not any(hand):
            safe += (seat,)
            active &= ~(1 << seat)
        pile = state.pile + codes
        if move.target is None:
            state = attrs.evolve(
                state, hands=tuple(hands), pile=pile, safe=safe, active=active,
                leader=-1, target=-1, higher=False, last_player=seat,
            )  # fmt: skip
            return self._end_round(state, seat)
        deck, target = state.deck, int(move.target)  # int(): numpy seats are accepted
        if move.knock and deck:
            drawn = list(hands[target])
            drawn[deck[0]] += 1
            hands[target] = tuple(drawn)
            deck = deck[1:]
        return BoomBokkenState(  # the hot path: built directly, faster than attrs.evolve
            self, state.round, False, state.seed, state.teams, state.roles, tuple(hands), deck,
            pile, state.aside, safe, state.exploded, active, -1, target, move.announce == "higher",
            seat, state.tokens, state.history,
        )  # fmt: skip

    def _time_out(self, state: BoomBokkenState, seat: int) -> BoomBokkenState:
        hand = list(state.hands[seat])
        hand[TIME_OUT] -= 1
        aside = state.aside
        if self.spent_time_outs == "aside":
            deck = state.deck + state.pile
            aside += 1
        else:
            deck = state.deck + state.pile + (TIME_OUT,)
        hand[deck[0]] += 1
        hands = list(state.hands)
        hands[seat] = tuple(hand)
        return attrs.evolve(
            state, hands=tuple(hands), deck=deck[1:], pile=(), aside=aside,
            leader=seat, target=-1, higher=False, last_player=-1,
        )  # fmt: skip

    def _boom(self, state: BoomBokkenState, move: mv.Boom) -> BoomBokkenState:
        seat = move.player
        tokens = state.tokens
        announcer = state.last_player
        if state.target >= 0:
            tokens = tokens[:announcer] + (tokens[announcer] + 1,) + tokens[announcer + 1 :]
        state = attrs.evolve(
            state, deck=state.deck + state.pile, pile=(), exploded=state.exploded + (seat,),
            active=state.active & ~(1 << seat), tokens=tokens,
            leader=-1 if move.next_leader is None else int(move.next_leader),
            target=-1, higher=False, last_player=-1,
        )  # fmt: skip
        if move.next_leader is None:
            return self._end_round(state, announcer if announcer >= 0 else seat)
        return state

    def _end_round(self, state: BoomBokkenState, start: int) -> BoomBokkenState:
        """The seats left are safe, clockwise from ``start``; score; deal or finish."""
        p = self.num_players
        left = tuple(s for s in ((start + k) % p for k in range(p)) if state.active >> s & 1)
        safe = state.safe + left
        history = state.history + ((safe, state.teams),)
        if state.round == ROUNDS:
            return attrs.evolve(state, over=True, safe=safe, active=0, history=history)
        return self._deal(state.round + 1, state.seed, safe[-1], state.tokens, history)

    # ------------------------------------------------------------------ saved states

    def state_from_dict(self, data: Any) -> BoomBokkenState:
        """The state ``data`` describes (from ``to_dict``); StateError if it is malformed
        or inconsistent with the rules (nothing else is built)."""
        return load_state(self, data)

    # ------------------------------------------------------------------ agents' hooks

    def evaluate_moves(self, state: BoomBokkenState, moves: Sequence[Any]) -> np.ndarray:
        """(M, P): :meth:`position_value` after each of ``moves``."""
        return np.array([self.position_value(state.apply(m)) for m in moves], np.float64)

    def position_value(self, state: BoomBokkenState) -> np.ndarray:
        return heuristic.position_value(state)


def _deal_rng(seed: int, rnd: int) -> random.Random:
    """The random stream of round ``rnd``'s deal (0: the first leader); a local generator
    seeded from text, stable across runs and platforms, and fast to build."""
    return random.Random(f"boom_bokken:{seed}:{rnd}")


# ---------------------------------------------------------------------- move tables

_VALUED_NAMES = frozenset(CARD_NAMES[1:])
_TIME_OUTS: tuple[mv.TimeOut, ...] = tuple(mv.TimeOut(seat) for seat in range(9))


class _CodesOf(dict[tuple[str, ...], tuple[int, ...]]):
    """Card names -> codes, memoised (move objects keep names, the state codes)."""

    def __missing__(self, names: tuple[str, ...]) -> tuple[int, ...]:
        codes = self[names] = tuple(CARD_CODE[name] for name in names)
        return codes


_CODES = _CodesOf()


def _valued_codes(cards: Any) -> tuple[int, ...] | None:
    """The codes of a tuple of valued card names, or None if it is anything else."""
    try:
        return (
            _CODES[cards]
            if type(cards) is tuple and cards and _VALUED_NAMES.issuperset(cards)
            else None
        )
    except TypeError:  # unhashable names
        return None


@functools.cache
def _group(value: int, oranges: int, flashes: int) -> tuple[str, ...]:
    return (str(value),) * oranges + (f"F{value}",) * flashes


def _groups(hand: tuple[int, ...], values: tuple[int, ...], several: bool) -> list[tuple[str, ...]]:
    """The card groups ``hand`` can play on ``values``: single cards, or (Coureur) any
    non-empty set of one value."""
    groups = []
    for value in values:
        oranges, flashes = hand[value], hand[flash(value)]
        if not several:
            if oranges:
                groups.append(_group(value, 1, 0))
            if flashes:
                groups.append(_group(value, 0, 1))
            continue
        for i in range(oranges + 1):
            for j in range(flashes + 1):
                if i + j:
                    groups.append(_group(value, i, j))
    return groups


def _flash_groups(value: int, most: int) -> list[tuple[str, ...]]:
    return [_group(value, 0, j) for j in range(1, most + 1)]


@functools.cache
def _targets(active: int, seat: int, players: int) -> tuple[int, ...]:
    """Seats still in the round other than ``seat``."""
    return tuple(s for s in range(players) if s != seat and active >> s & 1)


@functools.cache
def _one_team(seats: tuple[int, ...], teams: tuple[int, ...]) -> bool:
    return len({teams[s] for s in seats}) <= 1


@functools.cache
def _final_play(seat: int, group: tuple[str, ...]) -> mv.Play:
    return mv.Play(seat, group)


@functools.cache
def _announced_plays(
    seat: int, group: tuple[str, ...], targets: tuple[int, ...], knock: bool
) -> tuple[mv.Play, ...]:
    """Every way to play ``group``: each target, "higher" then "lower", with and without a knock."""
    moves = []
    for target in targets:
        for announce in ("higher", "lower"):
            moves.append(mv.Play(seat, group, target, announce))
            if knock:
                moves.append(mv.Play(seat, group, target, announce, True))
    return tuple(moves)


@functools.cache
def _booms(seat: int, targets: tuple[int, ...]) -> tuple[mv.Boom, ...]:
    return tuple(mv.Boom(seat, leader) for leader in targets)
