"""The Boom Bokken game: options, the rules (legal moves and transitions), saved states.

``BoomBokkenGame`` is a frozen value: its options are the rules variant. States
hand every rules question over to their game, so this module is the one place
the rules live (docs/boom_bokken.md): the chain of leads and answers, Boom,
safety, the out-of-turn Flash and Temps Mort, the Expert roles, the end of a
round and the next deal. What a seat sees and may be dealt in its place is in
``hidden``; the saved-state schema and its invariants in ``saved``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from forestgames.boom_bokken import heuristic, hidden, render, saved
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
    FIT_FIELDS,
    FITTING_VALUES,
    GARDIEN,
    HAND_SIZE,
    IS_FLASH,
    IS_ORANGE,
    LOW_SEVENS,
    NUM_CODES,
    ORANGE_FIELDS,
    PRESENT_BITS,
    ROLE_PRIORITY,
    ROUNDS,
    SEATS_OF,
    SPENT_TIME_OUTS,
    TEAM_SIZES,
    TIME_OUT,
    TOKEN_POINTS,
    UNIT,
    VALUED_FIELDS,
    VALUES,
    flash,
)
from forestgames.boom_bokken.actions import BoomBokkenCodec
from forestgames.boom_bokken.scoring import totals, winners_of
from forestgames.boom_bokken.state import (
    _CODES_PRESENT,
    BoomBokkenState,
    card_holders,
    hand_counts,
)
from forestgames.core import (
    ConfigError,
    GameBase,
    Option,
    as_int,
    describe_move,
    excerpt,
    is_int,
)
from forestgames.schema import Field, Spec

__all__ = ["OPTIONS", "BoomBokkenGame"]

Moves = tuple[mv.BoomBokkenMove, ...]


# --------------------------------------------------------------------------- options


def _check_team_sizes(value: Any, options: Mapping[str, Any]) -> tuple[int, ...]:
    """One of the table's team splits for the player count (None: the first)."""
    players = options["num_players"]
    allowed = TEAM_SIZES[players]
    if value is None:
        return allowed[0]
    sizes: tuple[int, ...] | None = None
    listed = isinstance(value, list | tuple) or (isinstance(value, np.ndarray) and value.ndim == 1)
    if listed and len(value) <= players:
        sizes = tuple(as_int(size, "team_sizes entry", 1, players) for size in value)
    if sizes not in allowed:
        choices = " or ".join(str(list(a)) for a in allowed)
        raise ConfigError(
            f"team_sizes for {players} players must be {choices}, not {excerpt(value)}"
        )
    return allowed[allowed.index(sizes)]


def _check_deck(value: Any, options: Mapping[str, Any]) -> tuple[int, ...]:
    """A mapping of card names to counts 0..99 (None: the default deck; a tuple of
    NUM_CODES counts: the form ``game.deck`` holds) that deals every hand."""
    if value is None:
        return DEFAULT_DECK
    if isinstance(value, tuple) and len(value) == NUM_CODES:
        value = dict(zip(CARD_NAMES, value, strict=True))
    if not isinstance(value, Mapping):
        raise ConfigError(
            f"deck must map card names (T, 1..8, F1..F8) to counts (or be the tuple of {NUM_CODES} "
            f"counts game.deck holds), not {excerpt(value)}"
        )
    counts = [0] * NUM_CODES
    for name, count in value.items():
        if not isinstance(name, str) or name not in CARD_CODE:
            raise ConfigError(f"deck: {excerpt(name)} is not a card name (T, 1..8, F1..F8)")
        counts[CARD_CODE[name]] = as_int(count, f"deck: the count of {excerpt(name)}", 0, 99)
    players = options["num_players"]
    need = HAND_SIZE[players] * players
    if sum(counts) < need:
        raise ConfigError(f"deck: {sum(counts)} cards cannot deal {need} to {players} players")
    return tuple(counts)


def _deck_json(deck: tuple[int, ...]) -> dict[str, int]:
    return {CARD_NAMES[c]: n for c, n in enumerate(deck) if n}


OPTIONS = (
    Option.players("Boom Bokken", 4, 4, 9, "seats, split into teams as Setup (Rules) says"),
    Option(
        "team_sizes",
        lambda options: TEAM_SIZES[options["num_players"]][0],
        _check_team_sizes,
        "list of ints",
        "the team split: the other split of the table where it has two, e.g. `[3, 3]` for 6",
        default_doc="the first split of the table",
        to_json=list,
    ),
    Option(
        "deck",
        DEFAULT_DECK,
        _check_deck,
        "mapping of card names to counts",
        'the whole deck: card names (`"T"`, `"1"`..`"8"`, `"F1"`..`"F8"`) to counts 0–99, '
        "a card not named counts 0; it must deal every hand (or the tuple of 17 counts, in the "
        "order T, 1..8, F1..F8, that `game.deck` holds)",
        default_doc="6 orange + 2 Flash per value 1–8, 6 Temps Mort (70)",
        to_json=_deck_json,
        omit_default=True,
    ),
    Option.boolean("expert", False, "the roles of the Expert mode (Gardien, Cogneur, Coureur)"),
    Option.choice(
        "spent_time_outs",
        lambda options: "aside" if options["expert"] else "deck",
        SPENT_TIME_OUTS,
        "where a played Temps Mort goes: under the draw pile with the pile, or set aside "
        "until the round ends (see Choices)",
        default_doc='`"deck"`, `"aside"` in Expert mode',
    ),
    Option.boolean(
        "last_team_clay",
        False,
        "the last team to have a player safe takes clay whatever its rank (2 teams with a "
        "player safe: gold, clay; 3: gold, silver, clay); by default the 2nd team takes "
        "silver, the 3rd bronze (see Choices)",
    ),
    Option.boolean(
        "distinct_flashers",
        False,
        "Flash cards played one on another are all by different seats: a seat that played "
        "a Flash of the run on top of the pile may not flash on it again (the rulebook's "
        '"only by different players" read strictly); by default only one\'s own card may '
        "not be flashed (see Choices)",
    ),
)


# --------------------------------------------------------------------------- the game


@attrs.frozen(slots=False, repr=False)
class BoomBokkenGame(
    GameBase[BoomBokkenState, mv.BoomBokkenMove],
    name="boom_bokken",
    title="Boom Bokken",
    players=(4, 9),
    chance=True,
    hidden_information=True,
    out_of_turn=True,
):
    """Boom Bokken for 4–9 players with its options fixed (``fg.make("boom_bokken", ...)``).

    Options: see ``OPTIONS`` and docs/boom_bokken.md (Options, Choices).
    """

    OPTIONS = OPTIONS
    MOVE_TYPES = (mv.Play, mv.TimeOut, mv.Boom)
    CASES = (
        {"num_players": 5, "distinct_flashers": True},
        {"num_players": 6, "expert": True, "distinct_flashers": True},
    )

    num_players: int
    # None: make's default, filled in by the option checks; not an attrs.Factory, which
    # would run before them (a bad player count: KeyError)
    team_sizes: tuple[int, ...] = attrs.field(default=None)
    deck: tuple[int, ...] = attrs.field(default=None)
    expert: bool = False
    spent_time_outs: str = attrs.field(  # as make's default: "aside" in Expert mode
        default=attrs.Factory(lambda game: "aside" if game.expert else "deck", takes_self=True)
    )
    last_team_clay: bool = False
    distinct_flashers: bool = False

    # ------------------------------------------------------------------ description

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player: 7, or 6 with 7–9 players."""
        return HAND_SIZE[self.num_players]

    def _max_moves(self) -> int:
        """Without Expert mode every play spends a hand card and a Temps Mort is followed
        by a lead. In Expert mode a round has at most (Temps Mort + players) recyclings of
        the pile, each after at most ``cards`` plays: a true bound with Temps Mort set
        aside; with ``spent_time_outs="deck"`` it bounds the games in which no round sees
        more Temps Mort plays than the deck has Temps Mort (no bound holds for all)."""
        p = self.num_players
        if self.expert:
            per_round = (self.deck[TIME_OUT] + p) * (sum(self.deck) + 2)
        else:
            per_round = 2 * (self.hand_size * p + p)
        return ROUNDS * per_round

    def _score_range(self) -> tuple[int, int]:
        p = self.num_players
        return (0, COIN_POINTS[0] * ROUNDS + TOKEN_POINTS * ROUNDS * (p - 1))

    def _parse_move(self, text: str) -> mv.BoomBokkenMove:
        return mv.parse_move(text)

    @functools.cached_property
    def _tables(self) -> _MoveTables:
        """The move objects and move tuples of this game, built as they are first needed
        and shared by every game of its player count."""
        return _move_tables(self.num_players)

    @functools.cached_property
    def _singles(self) -> dict[int, _SingleCardPlays]:
        """One-card plays by seat, seats in the round and knock (see ``_plays``)."""
        return {}

    @functools.cached_property
    def _characters(self) -> tuple[tuple[int, str], ...]:
        """The character cards (team, role) of a round, before they are shuffled."""
        return tuple(
            (team, ROLE_PRIORITY[k])
            for team, size in enumerate(self.team_sizes)
            for k in range(size)
        )

    @functools.cached_property
    def _cards(self) -> tuple[int, ...]:
        """The deck's card codes in card order, before they are shuffled."""
        return tuple(code for code, n in enumerate(self.deck) for _ in range(n))

    # ------------------------------------------------------------------ new game, deals

    def _new_game(self, seed: int, first_player: int | None) -> BoomBokkenState:
        """Round 1 dealt from ``seed``; its first leader drawn from ``seed`` unless given."""
        if first_player is None:
            first_player = _below(_deal_rng(seed, 0).getrandbits, self.num_players)
        return self._deal(1, seed, first_player, (0,) * self.num_players, ())

    def _deal(
        self, rnd: int, seed: int, leader: int, tokens: tuple[int, ...], history: tuple[Any, ...]
    ) -> BoomBokkenState:
        """A new round: character cards and all the cards shuffled, hands dealt."""
        getrandbits = _deal_rng(seed, rnd).getrandbits
        characters = list(self._characters)
        _shuffle(getrandbits, characters)
        order = list(self._cards)
        _shuffle(getrandbits, order)
        p, size = self.num_players, self.hand_size
        packed = tuple(
            sum(map(UNIT.__getitem__, order[start : start + size]))
            for start in range(0, p * size, size)
        )
        teams, roles = zip(*characters, strict=True)
        return BoomBokkenState(
            game=self,
            round=rnd,
            over=False,
            seed=seed,
            teams=teams,
            roles=roles if self.expert else (),
            packed=packed,
            deck=tuple(order[p * size :]),
            pile=(),
            aside=0,
            safe=(),
            exploded=(),
            active=(1 << p) - 1,
            leader=leader,
            target=-1,
            higher=False,
            last_player=-1,
            tokens=tokens,
            history=history,
            known_bottom=0,
            known=((),) * p,
            exploded_on=(),
            holders=card_holders(packed),
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
        game's deck in card order. An Expert game needs ``roles``, one per seat
        (gardien, cogneur, coureur); another takes None. StateError if the cards,
        teams or roles do not fit the game.
        """
        return saved.dealt(self, hands, teams, leader, deck_top, roles, seed)

    # ------------------------------------------------------------------ results

    def _scores(self, state: BoomBokkenState) -> tuple[int, ...]:
        """Points so far per seat: coins of the finished rounds plus 2 per Bokken token."""
        return totals(state.coins, state.tokens)

    def _winners(self, state: BoomBokkenState) -> tuple[int, ...]:
        """Highest total; ties to the most Bokken tokens; still tied, shared."""
        return winners_of(self._scores(state), state.tokens)

    def _step_name(self, state: BoomBokkenState) -> str:
        return "answer" if state.target >= 0 else "lead"

    # ------------------------------------------------------------------ the rule helpers
    # The legal moves, players_to_act and the explanations of illegal moves all use them.

    def _role(self, state: BoomBokkenState, seat: int) -> str | None:
        """``seat``'s role this round (Expert mode), else None."""
        return state.roles[seat] if self.expert else None

    def _targets(self, state: BoomBokkenState, seat: int) -> tuple[int, ...]:
        """The seats ``seat`` may name: every other seat still in the round."""
        return SEATS_OF[state.active & ~(1 << seat)]

    def _one_team_left(self, state: BoomBokkenState, seat: int) -> bool:
        """Whether only one team would be left in the round without ``seat``."""
        teams = state.teams
        return len({teams[s] for s in SEATS_OF[state.active & ~(1 << seat)]}) <= 1

    def _ends_round(self, state: BoomBokkenState, seat: int, count: int) -> bool:
        """Whether ``seat`` playing ``count`` cards ends the round (no target, no announcement):
        its hand is then empty and one team is left."""
        return count == sum(hand_counts(state.packed[seat])) and self._one_team_left(state, seat)

    def _fitting_values(self, state: BoomBokkenState) -> tuple[int, ...]:
        """The values that answer the announcement (an equal value always fits)."""
        return FITTING_VALUES[state.higher][CARD_VALUE[state.pile[-1]]]

    def _may_flash(self, state: BoomBokkenState, seat: int) -> bool:
        """Out of turn, ``seat`` may cover the top card with a Flash: not its own card, nor
        (``distinct_flashers``) a run of Flash cards it played one of."""
        return seat != state.last_player and not state.flashers >> seat & 1

    def _guards(self, state: BoomBokkenState, seat: int) -> bool:
        """Whether ``seat`` is a Gardien whose teammate is named (Expert mode)."""
        return (
            self.expert
            and state.roles[seat] == GARDIEN
            and state.teams[seat] == state.teams[state.target]
        )

    def _guard_fields(self, state: BoomBokkenState, seat: int) -> int:
        """The fields of the cards a Gardien (``seat``) may answer with: those that fit,
        and no Flash card on its own card (the rulebook's Flash rule holds for it too)."""
        fits = FIT_FIELDS[state.higher][state.pile[-1]]
        return fits if self._may_flash(state, seat) else fits & ORANGE_FIELDS

    # ------------------------------------------------------------------ who may act

    def _players_to_act(self, state: BoomBokkenState) -> tuple[int, ...]:
        """The current player, then in seat order the seats that may react (a few table
        lookups: cheaper than keeping it in the memo)."""
        target = state.target
        if target < 0:
            return () if state.over else (state.leader,)
        holders = state.holders
        reacting = holders[TIME_OUT] | holders[CARD_VALUE[state.pile[-1]] + 8] & ~(
            1 << state.last_player | state.flashers
        )
        acting = _ACTING[target << 9 | reacting & state.active]
        if self.expert:
            guards = self._guards_with_answer(state)
            if guards:
                return (target, *sorted(set(acting[1:]) | set(guards)))
        return acting

    def _guards_with_answer(self, state: BoomBokkenState) -> list[int]:
        """The Gardiens of the named seat's team holding a card that answers (Expert mode)."""
        return [
            seat
            for seat in SEATS_OF[state.active & ~(1 << state.target)]
            if self._guards(state, seat) and state.packed[seat] & self._guard_fields(state, seat)
        ]

    # ------------------------------------------------------------------ legal moves

    def _legal_moves(self, state: BoomBokkenState, seat: int) -> Moves:
        """The moves of ``seat`` now: plays (in card order), then Boom, then Temps Mort."""
        target = state.target
        if seat == target:  # the named seat answers (the most common case, written here)
            hand = state.packed[seat]
            if self.expert and state.roles[seat] == COUREUR:
                groups = _groups(hand_counts(hand), self._fitting_values(state))
                moves = self._group_plays(state, seat, groups)
            else:
                fits = FIT_FIELDS[state.higher][state.pile[-1]]
                moves = self._plays(
                    state, seat, hand, _CODES_PRESENT[((hand & fits) + LOW_SEVENS) & PRESENT_BITS]
                )
            moves = moves or self._booms(state, seat)
            return moves + (_TIME_OUTS[seat],) if hand & 0xFF else moves
        if target >= 0:
            return self._reactions(state, seat) if state.active >> seat & 1 else ()
        return self._lead_moves(state, seat) if seat == state.leader else ()

    def _lead_moves(self, state: BoomBokkenState, seat: int) -> Moves:
        hand = state.packed[seat]
        if self.expert and state.roles[seat] == COUREUR:
            groups = _groups(hand_counts(hand), VALUES)
            return self._group_plays(state, seat, groups) or self._booms(state, seat)
        codes = _CODES_PRESENT[((hand & VALUED_FIELDS) + LOW_SEVENS) & PRESENT_BITS]
        return self._plays(state, seat, hand, codes) or self._booms(state, seat)

    def _reactions(self, state: BoomBokkenState, seat: int) -> Moves:
        """Out of turn: a Flash on the top card, a Gardien's answer, a Temps Mort."""
        hand = state.packed[seat]
        own_flash = CARD_VALUE[state.pile[-1]] + 8
        flashes = hand >> (8 * own_flash) & 0xFF if self._may_flash(state, seat) else 0
        if self.expert and state.roles[seat] == COUREUR:
            groups = [_group(own_flash - 8, 0, j) for j in range(1, flashes + 1)]
            moves = self._group_plays(state, seat, groups)
        else:
            codes = self._reaction_codes(state, seat, hand, flashes)
            moves = self._plays(state, seat, hand, codes)
        if hand & 0xFF:  # a Temps Mort (code 0)
            return moves + (_TIME_OUTS[seat],)
        return moves

    def _reaction_codes(
        self, state: BoomBokkenState, seat: int, hand: int, flashes: int
    ) -> tuple[int, ...]:
        """The cards a seat other than a Coureur may play out of turn: a Flash of the top
        card's value (if it may), then a Gardien's answers."""
        top = state.pile[-1]
        codes: tuple[int, ...] = (CARD_VALUE[top] + 8,) if flashes else ()
        if self._guards(state, seat):
            fits = self._guard_fields(state, seat)
            answers = _CODES_PRESENT[((hand & fits) + LOW_SEVENS) & PRESENT_BITS]
            codes += tuple(c for c in answers if c not in codes)
        return codes

    def _plays(self, state: BoomBokkenState, seat: int, hand: int, codes: tuple[int, ...]) -> Moves:
        """Every play of one card of ``codes`` (in that order) from the packed ``hand``:
        each target, "higher" then "lower", each followed by its knock where a Cogneur
        plays orange (nothing if ``codes`` is empty)."""
        if not codes:
            return ()
        if len(codes) == 1 and hand in _ONE_CARD and self._one_team_left(state, seat):
            return (self._tables.final(seat, (CARD_NAMES[codes[0]],)),)
        knock = self.expert and state.roles[seat] == COGNEUR
        key = state.active << 5 | seat << 1 | knock
        table = self._singles.get(key)
        if table is None:
            table = self._singles[key] = self._tables.singles(seat, state.active, knock)
        if len(codes) == 1:
            return table[codes[0]]
        return tuple(chain.from_iterable(map(table.__getitem__, codes)))

    def _group_plays(
        self, state: BoomBokkenState, seat: int, groups: Sequence[tuple[str, ...]]
    ) -> Moves:
        """Every play of a Coureur's card groups (several cards of one value)."""
        tables = self._tables
        plays: list[Moves] = []  # joined once: a tuple grown group by group was quadratic
        for group in groups:
            if self._ends_round(state, seat, len(group)):
                plays.append((tables.final(seat, group),))
            else:
                plays.append(tables.announced(seat, group, self._targets(state, seat)))
        return tuple(chain.from_iterable(plays))

    def _booms(self, state: BoomBokkenState, seat: int) -> Moves:
        """``seat`` explodes, naming any seat still in the round to lead next (or nobody,
        if only one team is left)."""
        if self._one_team_left(state, seat):
            return (self._tables.boom(seat, None),)
        return self._tables.booms(seat, state.active)

    # ------------------------------------------------------------------ why a move is illegal

    def _describe_illegal(self, state: BoomBokkenState, move: Any) -> str:
        """A well-formed Boom Bokken move is explained by the rules themselves, also for a
        seat that may not act now (anyone may act out of turn, so the reason is the rule it
        breaks, not whose turn it is); anything else gets the base's message."""
        if not state.is_terminal and _well_formed(move, self.num_players):
            why = self._explain(state, move)
            if why is not None:
                return why
        return super()._describe_illegal(state, move)

    def _explain(self, state: BoomBokkenState, move: Any) -> str | None:
        """Which rule ``move`` (well-formed, of a seat in the game) breaks now."""
        text = describe_move(move)
        seat = int(move.player)
        if not state.active >> seat & 1:
            status = "safe" if seat in state.safe else "exploded"
            return f"{text}: seat {seat} is out of this round ({status})"
        return _EXPLAIN[type(move)](self, state, move, text, seat)

    def _why_not_time_out(
        self, state: BoomBokkenState, move: mv.TimeOut, text: str, seat: int
    ) -> str | None:
        if not state.pile:
            return f"{text}: a Temps Mort goes on the pile, and the pile is empty"
        if not state.packed[seat] & 0xFF:
            return f"{text}: seat {seat} holds no Temps Mort"
        return None

    def _why_not_boom(
        self, state: BoomBokkenState, move: mv.Boom, text: str, seat: int
    ) -> str | None:
        hand = state.packed[seat]
        if state.target < 0:
            if seat != state.leader:
                return f"{text}: nobody is named; seat {state.leader} leads"
            if hand & VALUED_FIELDS:
                return f"{text}: seat {seat} leads and holds a card to lead with"
        elif seat != state.target:
            return f"{text}: only the named player (seat {state.target}) can explode"
        elif hand & FIT_FIELDS[state.higher][state.pile[-1]]:
            top = CARD_VALUE[state.pile[-1]]
            return f"{text}: seat {seat} holds a card {state.announcement} than {top} (or equal)"
        return self._why_not_leader(state, move, text, seat)

    def _why_not_leader(
        self, state: BoomBokkenState, move: mv.Boom, text: str, seat: int
    ) -> str | None:
        if self._one_team_left(state, seat):
            if move.next_leader is not None:
                return f"{text}: this explosion ends the round; it names no next leader"
            return None
        targets = self._targets(state, seat)
        if move.next_leader not in targets:
            return f"{text}: the next leader must be a seat still in the round: {list(targets)}"
        return None

    def _why_not_play(
        self, state: BoomBokkenState, move: mv.Play, text: str, seat: int
    ) -> str | None:
        codes = _valued_codes(move.cards)
        if codes is None:
            return (
                f"{text}: a play puts down one card or more, named 1..8 or F1..F8 "
                "(a Temps Mort is played as a timeout)"
            )
        why = self._why_not_cards(state, codes, text, seat)
        if why is None:
            why = self._why_not_now(state, codes, text, seat)
        return why if why is not None else self._why_not_named(state, move, codes, text)

    def _why_not_cards(
        self, state: BoomBokkenState, codes: tuple[int, ...], text: str, seat: int
    ) -> str | None:
        """Cards of one value, several only for a Coureur, held by the seat."""
        if len({CARD_VALUE[c] for c in codes}) > 1:
            return f"{text}: cards played together must share one value"
        if len(codes) > 1 and self._role(state, seat) != COUREUR:
            return f"{text}: only a Coureur (Expert mode) plays several cards at once"
        hand = hand_counts(state.packed[seat])
        if any(codes.count(c) > hand[c] for c in codes):
            cards = [CARD_NAMES[c] for c in codes]
            return f"{text}: seat {seat} does not hold {cards} (hand {list(state.hand(seat))})"
        return None

    def _why_not_now(
        self, state: BoomBokkenState, codes: tuple[int, ...], text: str, seat: int
    ) -> str | None:
        """The lead, the answer of the named seat, or a play out of turn."""
        if state.target < 0:
            if seat != state.leader:
                return f"{text}: the pile is empty and seat {state.leader} leads"
            return None
        value, top = CARD_VALUE[codes[0]], CARD_VALUE[state.pile[-1]]
        fits = value in self._fitting_values(state)
        if seat == state.target:
            if fits:
                return None
            return f"{text}: {value} does not answer '{state.announcement}' on {top}"
        return self._why_not_out_of_turn(state, codes, text, seat, fits)

    def _why_not_out_of_turn(
        self, state: BoomBokkenState, codes: tuple[int, ...], text: str, seat: int, fits: bool
    ) -> str | None:
        """A Gardien's answer for a named teammate, or a Flash on another seat's card."""
        top = CARD_VALUE[state.pile[-1]]
        if fits and len(codes) == 1 and self._guards(state, seat):
            if UNIT[codes[0]] & self._guard_fields(state, seat):
                return None
            return f"{text}: {self._why_no_flash(state, seat)}, not even as a Gardien's answer"
        if all(IS_FLASH[c] for c in codes) and CARD_VALUE[codes[0]] == top:
            if not self._may_flash(state, seat):
                return f"{text}: {self._why_no_flash(state, seat)}"
            if len(codes) == 1 or self._role(state, seat) == COUREUR:
                return None
        if len(codes) == 1 and self._guards(state, seat):
            return (
                f"{text}: {CARD_VALUE[codes[0]]} does not answer '{state.announcement}' on "
                f"{top}, as a Gardien's answer for named seat {state.target} must"
            )
        return (
            f"{text}: seat {state.target} is named; out of turn only a Flash of {top}, "
            "a Temps Mort or a Gardien's answer for a named teammate may be played"
        )

    def _why_no_flash(self, state: BoomBokkenState, seat: int) -> str:
        """Why ``seat`` may not flash on the top card (``_may_flash`` is False)."""
        top = CARD_VALUE[state.pile[-1]]
        if seat == state.last_player:
            return f"seat {seat} played the {top} on top; no Flash on one's own card"
        return (
            f"seat {seat} played a Flash of the run on top; with distinct_flashers the "
            "Flash cards of a run are all by different seats"
        )

    def _why_not_named(
        self, state: BoomBokkenState, move: mv.Play, codes: tuple[int, ...], text: str
    ) -> str | None:
        """The target, the announcement and the knock of a play."""
        seat = int(move.player)
        if self._ends_round(state, seat, len(codes)):
            if move.target is not None or move.announce is not None or move.knock:
                return f"{text}: this last card ends the round: no target, no announcement"
            return None
        targets = self._targets(state, seat)
        if move.target not in targets:
            return f"{text}: the target must be another seat still in the round: {list(targets)}"
        if move.announce not in ANNOUNCEMENTS:
            return f"{text}: the announcement is 'higher' or 'lower', not {excerpt(move.announce)}"
        return self._why_not_knock(state, move, codes, text) if move.knock else None

    def _why_not_knock(
        self, state: BoomBokkenState, move: mv.Play, codes: tuple[int, ...], text: str
    ) -> str | None:
        if self._role(state, int(move.player)) != COGNEUR:
            return f"{text}: only a Cogneur (Expert mode) knocks"
        if not (len(codes) == 1 and IS_ORANGE[codes[0]]):
            return f"{text}: a Cogneur knocks when playing one orange card"
        return None

    # ------------------------------------------------------------------ transitions

    def _step(self, state: BoomBokkenState, move: mv.BoomBokkenMove) -> BoomBokkenState:
        """The state after legal ``move`` (the base has checked legality), told the legal
        moves of the seat it waits for: applying that seat's next move needs them anyway."""
        kind = type(move)
        if kind is mv.Play:
            state = self._play(state, move)  # type: ignore[arg-type]
        elif kind is mv.TimeOut:
            state = self._time_out(state, move.player)
        else:
            state = self._boom(state, move)  # type: ignore[arg-type]
        if state.over:
            return state
        seat = state.target if state.target >= 0 else state.leader
        return state._primed(seat, self._legal_moves(state, seat))

    def _play(self, state: BoomBokkenState, move: mv.Play) -> BoomBokkenState:
        """One card named and announced, the player still in the round: the common play
        (the hot path, written out); any other goes to ``_play_in_full``."""
        seat = move.player
        codes = _CODES[move.cards]
        if (
            len(codes) > 1
            or move.target is None
            or move.knock
            or state.known[seat]
            or self.distinct_flashers
        ):
            return self._play_in_full(state, move, codes)
        code = codes[0]
        packed = state.packed
        hand = packed[seat] - UNIT[code]
        if not hand:
            return self._play_in_full(state, move, codes)
        packed = packed[:seat] + (hand,) + packed[seat + 1 :]
        pile, higher = state.pile + codes, move.announce == "higher"
        if code > 8 and not hand >> (8 * code) & 0xFF:  # the seat's last Flash of that value
            holders = state.holders
            holders = holders[:code] + (holders[code] & ~(1 << seat),) + holders[code + 1 :]
            return state._evolve(
                packed=packed, pile=pile, target=move.target, higher=higher, last_player=seat,
                leader=-1, holders=holders,
            )  # fmt: skip
        if state.leader >= 0:
            return state._evolve(
                packed=packed, pile=pile, target=move.target, higher=higher, last_player=seat,
                leader=-1,
            )  # fmt: skip
        return state._evolve(
            packed=packed, pile=pile, target=move.target, higher=higher, last_player=seat
        )

    def _play_in_full(
        self, state: BoomBokkenState, move: mv.Play, codes: tuple[int, ...]
    ) -> BoomBokkenState:
        """Any play: several cards, a last card, a known card, a knock, a round's end, a
        play that keeps the run's flashers (``distinct_flashers``)."""
        seat = move.player
        if self.distinct_flashers:
            state = state._evolve(flashers=_flashers_after(state, seat, codes))
        hand = state.packed[seat] - sum(map(UNIT.__getitem__, codes))
        holders = state.holders
        for code in set(codes):
            if code > 8:
                holders = _held(holders, code, seat, hand >> (8 * code) & 0xFF)
        known, safe, active = state.known, state.safe, state.active
        if known[seat]:
            known = _put(known, seat, _minus(known[seat], codes))
        if not hand:
            safe += (seat,)
            active &= ~(1 << seat)
        target = -1 if move.target is None else int(move.target)
        state = state._evolve(
            packed=_put(state.packed, seat, hand), known=known, pile=state.pile + codes,
            safe=safe, active=active, holders=holders, leader=-1, target=target,
            higher=move.announce == "higher", last_player=seat,
        )  # fmt: skip
        if target < 0:
            return self._end_round(state, seat)
        if move.knock and state.deck:
            return self._knock(state, target)
        return state

    def _knock(self, state: BoomBokkenState, target: int) -> BoomBokkenState:
        """A Cogneur's play: the target draws the top card of the draw pile at once."""
        deck, known_bottom, known = state.deck, state.known_bottom, state.known
        code = deck[0]
        if known_bottom == len(deck):  # everyone saw this card go under the draw pile
            known = _put(known, target, tuple(sorted(known[target] + (code,))))
            known_bottom -= 1
        holders = state.holders
        if code == TIME_OUT or code > 8:
            holders = _held(holders, code, target, 1)
        return state._evolve(
            packed=_put(state.packed, target, state.packed[target] + UNIT[code]), known=known,
            deck=deck[1:], known_bottom=known_bottom, holders=holders,
        )  # fmt: skip

    def _time_out(self, state: BoomBokkenState, seat: int) -> BoomBokkenState:
        """The pile (and the Temps Mort, unless set aside) under the draw pile; draw; lead."""
        pile, aside = state.pile, state.aside
        known_bottom = state.known_bottom + len(pile)
        if self.spent_time_outs == "aside":
            deck = state.deck + pile
            aside += 1
        else:
            deck = state.deck + pile + (TIME_OUT,)
            known_bottom += 1
        code = deck[0]
        known = state.known
        mine = _minus(known[seat], (TIME_OUT,)) if known[seat] else ()
        if known_bottom == len(deck):  # the card drawn is one everyone saw go under
            mine = tuple(sorted(mine + (code,)))
            known_bottom -= 1
        if mine != known[seat]:
            known = _put(known, seat, mine)
        hand = state.packed[seat] - UNIT[TIME_OUT] + UNIT[code]
        holders = _held(state.holders, TIME_OUT, seat, hand & 0xFF)
        if code > 8:
            holders = _held(holders, code, seat, 1)
        return state._evolve(
            packed=_put(state.packed, seat, hand), known=known, deck=deck[1:],
            known_bottom=known_bottom, pile=(), aside=aside, holders=holders, leader=seat,
            target=-1, higher=False, last_player=-1, flashers=0,
        )  # fmt: skip

    def _boom(self, state: BoomBokkenState, move: mv.Boom) -> BoomBokkenState:
        """``move.player`` is out; the announcer takes a token; the pile under the draw pile."""
        seat = move.player
        tokens, announcer, pile = state.tokens, state.last_player, state.pile
        if state.target >= 0:
            tokens = _put(tokens, announcer, tokens[announcer] + 1)
            could_not_answer: tuple[int, bool] | None = (pile[-1], state.higher)
        else:
            could_not_answer = None  # a leader holding only Temps Mort
        leader = move.next_leader
        state = state._evolve(
            deck=state.deck + pile, known_bottom=state.known_bottom + len(pile), pile=(),
            exploded=state.exploded + (seat,), exploded_on=state.exploded_on + (could_not_answer,),
            active=state.active & ~(1 << seat), tokens=tokens,
            leader=-1 if leader is None else int(leader), target=-1, higher=False, last_player=-1,
            flashers=0,
        )  # fmt: skip
        if leader is None:
            return self._end_round(state, announcer if announcer >= 0 else seat)
        return state

    def _end_round(self, state: BoomBokkenState, start: int) -> BoomBokkenState:
        """The seats left are safe, clockwise from ``start``; score; deal or finish."""
        p = self.num_players
        left = tuple(s for s in ((start + k) % p for k in range(p)) if state.active >> s & 1)
        safe = state.safe + left
        history = state.history + ((safe, state.teams),)
        if state.round == ROUNDS:
            return state._evolve(over=True, is_terminal=True, safe=safe, active=0, history=history)
        return self._deal(state.round + 1, state.seed, safe[-1], state.tokens, history)

    # ------------------------------------------------------------------ information

    def _observe(self, state: BoomBokkenState, player: int) -> dict[str, Any]:
        return hidden.observe(state, player)

    def _determinize(self, state: BoomBokkenState, player: int, seed: int) -> BoomBokkenState:
        return hidden.determinize(state, player, seed)

    # ------------------------------------------------------------------ saved states

    def _observation_fields(self) -> dict[str, Spec]:
        return saved.observation_fields(self)

    def _state_fields(self) -> Sequence[Field]:
        return saved.state_fields(self)

    def _state_from_fields(self, fields: dict[str, Any]) -> BoomBokkenState:
        return saved.state_from_fields(self, fields)

    def _invariants(self) -> Sequence[Callable[[BoomBokkenState], None]]:
        return saved.INVARIANTS

    # ------------------------------------------------------------------ pictures

    def _render_text(self, state: BoomBokkenState, player: int | None) -> str:
        return render.render_text(state, player)

    def _render_svg(self, state: BoomBokkenState, player: int | None) -> str:
        return render.render_svg(state, player)

    # ------------------------------------------------------------------ integer actions

    def _make_codec(self) -> BoomBokkenCodec:
        return BoomBokkenCodec(self)

    if TYPE_CHECKING:  # the base's codec, typed as this game's

        @functools.cached_property
        def codec(self) -> BoomBokkenCodec: ...

    # ------------------------------------------------------------------ agents' hooks

    def position_value(self, state: BoomBokkenState) -> np.ndarray:
        return heuristic.position_value(state)


_EXPLAIN: dict[type, Callable[[BoomBokkenGame, BoomBokkenState, Any, str, int], str | None]] = {
    mv.Play: BoomBokkenGame._why_not_play,
    mv.TimeOut: BoomBokkenGame._why_not_time_out,
    mv.Boom: BoomBokkenGame._why_not_boom,
}


# --------------------------------------------------------------------------- deals


def _deal_rng(seed: int, rnd: int) -> random.Random:
    """The random stream of round ``rnd``'s deal (0: the first leader); a local generator
    seeded from text, stable across runs and platforms."""
    return random.Random(f"boom_bokken:{seed}:{rnd}")


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """``random.Random.randrange(n)`` of the generator of ``getrandbits``: the same draw."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _shuffle(getrandbits: Callable[[int], int], items: list[Any]) -> None:
    """``random.Random.shuffle`` of the generator of ``getrandbits``, in place: the same
    permutation from the same stream (inlined: the deals are a good part of a game's time)."""
    steps = _SHUFFLE_STEPS.get(len(items))
    if steps is None:
        n = len(items)
        steps = _SHUFFLE_STEPS[n] = tuple(
            (i, i + 1, (i + 1).bit_length()) for i in range(n - 1, 0, -1)
        )
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


# --------------------------------------------------------------------------- moves


def _well_formed(move: Any, players: int) -> bool:
    """A Boom Bokken move whose fields have the types of the notation (values unchecked)."""
    kind = type(move)
    if kind not in _FIELD_CHECKS or not _is_seat(move.player, players):
        return False
    return _FIELD_CHECKS[kind](move)


def _is_seat(value: Any, players: int) -> bool:
    return is_int(value) and 0 <= value < players


def _small_int_or_none(value: Any) -> bool:
    return value is None or (is_int(value) and -(2**31) < value < 2**31)


def _play_fields(move: mv.Play) -> bool:
    cards = move.cards
    return (
        type(cards) is tuple
        and len(cards) <= 99
        and _small_int_or_none(move.target)
        and (move.announce is None or (type(move.announce) is str and len(move.announce) <= 16))
        and isinstance(move.knock, bool | np.bool_)
    )


_FIELD_CHECKS: dict[type, Callable[[Any], bool]] = {
    mv.Play: _play_fields,
    mv.TimeOut: lambda move: True,
    mv.Boom: lambda move: _small_int_or_none(move.next_leader),
}

_TIME_OUTS: tuple[mv.TimeOut, ...] = tuple(mv.TimeOut(seat) for seat in range(9))
_ONE_CARD = frozenset(UNIT)
"""The packed hands of one card."""
_ACTING: tuple[tuple[int, ...], ...] = tuple(
    (target, *(s for s in SEATS_OF[mask & 511] if s != target)) for target in range(9)
    for mask in range(512)
)  # fmt: skip
"""``_ACTING[target << 9 | reacting]``: the named seat, then the other reacting seats."""


class _CodesOf(dict[tuple[str, ...], tuple[int, ...]]):
    """Card names -> codes, memoised (move objects keep names, the state codes)."""

    def __missing__(self, names: tuple[str, ...]) -> tuple[int, ...]:
        codes = self[names] = tuple(CARD_CODE[name] for name in names)
        return codes


_CODES = _CodesOf()
_VALUED_NAMES = frozenset(CARD_NAMES[1:])


def _valued_codes(cards: tuple[str, ...]) -> tuple[int, ...] | None:
    """The codes of one or more valued card names, or None if ``cards`` is anything else."""
    if not cards or not all(type(c) is str and c in _VALUED_NAMES for c in cards):
        return None
    return tuple(CARD_CODE[c] for c in cards)


def _flashers_after(state: BoomBokkenState, seat: int, codes: tuple[int, ...]) -> int:
    """The seats of the run of Flash cards on top of the pile once ``seat`` played ``codes``
    (bit mask): the run goes on when only Flash cards of the top card's value are played on
    a Flash, starts when the cards put on top end in a Flash, and is over otherwise."""
    if not IS_FLASH[codes[-1]]:
        return 0
    pile = state.pile
    if pile and IS_FLASH[pile[-1]] and all(code == pile[-1] for code in codes):
        return state.flashers | 1 << seat
    return 1 << seat


@functools.cache
def _group(value: int, oranges: int, flashes: int) -> tuple[str, ...]:
    return (str(value),) * oranges + (f"F{value}",) * flashes


def _groups(hand: tuple[int, ...], values: tuple[int, ...]) -> list[tuple[str, ...]]:
    """A Coureur's card groups on ``values``: any non-empty set of cards of one value."""
    groups = []
    for value in values:
        oranges, flashes = hand[value], hand[flash(value)]
        for i in range(oranges + 1):
            for j in range(flashes + 1):
                if i + j:
                    groups.append(_group(value, i, j))
    return groups


class _SingleCardPlays(dict[int, Moves]):
    """One seat's plays of one card, by card code, for one set of seats in the round."""

    def __init__(self, by_target: list[list[Moves]], targets: tuple[int, ...]) -> None:
        super().__init__()
        self.by_target, self.targets = by_target, targets

    def __missing__(self, code: int) -> Moves:
        moves = self[code] = tuple(chain.from_iterable(map(self.by_target[code].__getitem__,
                                                            self.targets)))  # fmt: skip
        return moves


GROUP_PLAYS_LIMIT = 200_000
"""Most plays a player count's move tables keep before they start afresh: a Coureur holding
many cards of one value (a deck option of up to 99 of a card) has tens of thousands of group
plays per position, which would otherwise stay in memory for good (50 MB for 80,000)."""


@functools.cache
def _move_tables(players: int) -> _MoveTables:
    """The one :class:`_MoveTables` of ``players`` seats (a game's own would cost every
    new game some 200 KB)."""
    return _MoveTables(players)


class _MoveTables:
    """The move objects of one player count, each built once, and the move tuples the
    legal moves are made of (filled in as positions need them)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self._plays: dict[tuple[Any, ...], mv.Play] = {}
        self._announced: dict[tuple[Any, ...], Moves] = {}
        self._boom_tuples: dict[int, Moves] = {}
        self._booms = {
            (seat, leader): mv.Boom(seat, leader)
            for seat in range(players)
            for leader in (None, *range(players))
        }
        # _by_target[knock][seat][code][target]: that card's plays naming that target
        self._by_target = [
            [
                [
                    [self._named(seat, code, target, knock and IS_ORANGE[code])
                     for target in range(players)]
                    if code != TIME_OUT else []
                    for code in range(NUM_CODES)
                ]
                for seat in range(players)
            ]
            for knock in (False, True)
        ]  # fmt: skip

    def _named(self, seat: int, code: int, target: int, knock: bool) -> Moves:
        if target == seat:
            return ()
        group = (CARD_NAMES[code],)
        if not knock:
            return (self.play(seat, group, target, True), self.play(seat, group, target, False))
        return (
            self.play(seat, group, target, True),
            self.play(seat, group, target, True, True),
            self.play(seat, group, target, False),
            self.play(seat, group, target, False, True),
        )

    def play(self, seat: int, group: tuple[str, ...], target: int | None, higher: bool | None,
             knock: bool = False) -> mv.Play:  # fmt: skip
        key = (seat, group, target, higher, knock)
        move = self._plays.get(key)
        if move is None:
            announce = None if higher is None else ANNOUNCEMENTS[higher]
            move = self._plays[key] = mv.Play(seat, group, target, announce, knock)
        return move

    def final(self, seat: int, group: tuple[str, ...]) -> mv.Play:
        """The play of a last card that ends the round: no target, no announcement."""
        return self.play(seat, group, None, None)

    def boom(self, seat: int, leader: int | None) -> mv.Boom:
        return self._booms[seat, leader]

    def booms(self, seat: int, active: int) -> Moves:
        """``seat``'s explosions naming each other seat of ``active`` to lead next."""
        key = active << 4 | seat
        moves = self._boom_tuples.get(key)
        if moves is None:
            leaders = SEATS_OF[active & ~(1 << seat)]
            moves = self._boom_tuples[key] = tuple(self._booms[seat, s] for s in leaders)
        return moves

    def singles(self, seat: int, active: int, knock: bool) -> _SingleCardPlays:
        """``seat``'s one-card plays by card code while ``active`` seats are in the round."""
        return _SingleCardPlays(self._by_target[knock][seat], SEATS_OF[active & ~(1 << seat)])

    def announced(self, seat: int, group: tuple[str, ...], targets: tuple[int, ...]) -> Moves:
        """Every way to play a group of several cards: each target, "higher" then "lower"
        (never a knock: a Cogneur knocks playing one orange card)."""
        key = (seat, group, targets)
        moves = self._announced.get(key)
        if moves is None:
            if len(self._plays) > GROUP_PLAYS_LIMIT:  # move objects are equal by value: rebuilt
                self._plays.clear()
                self._announced.clear()
            built = [
                self.play(seat, group, target, higher)
                for target in targets
                for higher in (True, False)
            ]
            moves = self._announced[key] = tuple(built)
        return moves


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


def _held(holders: tuple[int, ...], code: int, seat: int, count: int) -> tuple[int, ...]:
    """``holders`` with ``seat``'s bit for ``code`` set if it holds ``count`` > 0 of it."""
    mask = holders[code] | 1 << seat if count else holders[code] & ~(1 << seat)
    return holders if mask == holders[code] else _put(holders, code, mask)


def _minus(known: tuple[int, ...], codes: tuple[int, ...]) -> tuple[int, ...]:
    """The known cards of a hand after it plays ``codes``: a played card may be a known one."""
    rest = list(known)
    for code in codes:
        if code in rest:
            rest.remove(code)
    return tuple(rest)
