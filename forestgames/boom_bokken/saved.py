"""Saved Boom Bokken states: the schema of ``to_dict`` and the invariants a loaded state keeps.

The schema (one :class:`~forestgames.schema.Field` per key) writes every
field and does every type and range check; what is left here as code are the
cross-field rules, each a small named check that raises StateError. The keys
every seat may see are :func:`public_fields`; ``observation`` shows them too.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from forestgames.boom_bokken._tables import (
    ANNOUNCEMENTS,
    CARD_CODE,
    CARD_NAMES,
    CARD_VALUE,
    FITTING_VALUES,
    HAND_SIZE,
    IS_FLASH,
    NUM_CODES,
    ROLES,
    ROUNDS,
    SEATS_OF,
    TIME_OUT,
    flash,
    team_roles,
)
from forestgames.boom_bokken.state import BoomBokkenState, card_holders, hand_names, pack_hand
from forestgames.core import SEED_LIMIT, StateError, excerpt, require, unarray
from forestgames.schema import (
    Bool,
    Choice,
    Const,
    Field,
    Int,
    List,
    Nullable,
    Record,
    Spec,
    Tuple,
)

if TYPE_CHECKING:
    from forestgames.boom_bokken.rules import BoomBokkenGame

__all__ = ["INVARIANTS", "dealt", "public_fields", "state_fields", "state_from_fields"]

CARD = Choice(CARD_NAMES)
VALUED_CARD = Choice(CARD_NAMES[1:])


def _seat_or_none(seat: int) -> int | None:
    return None if seat < 0 else seat


def _names(codes: Sequence[int]) -> list[str]:
    return [CARD_NAMES[c] for c in codes]


def _exploded_on(state: BoomBokkenState) -> list[list[str] | None]:
    return [
        None if fact is None else [CARD_NAMES[fact[0]], ANNOUNCEMENTS[fact[1]]]
        for fact in state.exploded_on
    ]


def public_fields(game: BoomBokkenGame) -> tuple[Field, ...]:
    """The fields every seat sees (in ``to_dict`` and ``observation`` alike), in order."""
    p, cards = game.num_players, sum(game.deck)
    seat, team = Int(0, p - 1), Int(0, len(game.team_sizes) - 1)
    seats = List(seat, max_len=p)
    roles = List(Choice(ROLES), length=p) if game.expert else Const(None)
    history = Record(
        {"safe_order": List(seat, min_len=1, max_len=p), "teams": List(team, length=p)}
    )
    fields: tuple[Field, ...] = (
        Field("round", Int(1, ROUNDS), lambda s: s.round),
        Field("over", Bool(), lambda s: s.over),
        Field("teams", List(team, length=p), lambda s: list(s.teams)),
        Field("roles", roles, lambda s: list(s.roles) if s.roles else None),
        Field("pile", List(VALUED_CARD, max_len=sum(game.deck[1:])), lambda s: _names(s.pile)),
        Field("aside", Int(0, game.deck[TIME_OUT]), lambda s: s.aside),
        Field("safe", seats, lambda s: list(s.safe)),
        Field("exploded", seats, lambda s: list(s.exploded)),
        Field("leader", Nullable(seat), lambda s: _seat_or_none(s.leader)),
        Field("target", Nullable(seat), lambda s: _seat_or_none(s.target)),
        Field("announce", Nullable(Choice(ANNOUNCEMENTS)), lambda s: s.announcement),
        Field("last_player", Nullable(seat), lambda s: _seat_or_none(s.last_player)),
        Field("tokens", List(Int(0, ROUNDS * p), length=p), lambda s: list(s.tokens)),
        Field(
            "history",
            List(history, max_len=ROUNDS),
            lambda s: [{"safe_order": list(o), "teams": list(t)} for o, t in s.history],
        ),
        Field(
            "known_cards",
            List(List(CARD, max_len=cards), length=p),
            lambda s: [_names(known) for known in s.known],
        ),
        Field(
            "exploded_on",
            List(Nullable(Tuple(VALUED_CARD, Choice(ANNOUNCEMENTS))), max_len=p),
            _exploded_on,
        ),
    )
    if game.distinct_flashers:
        fields += (Field("flashers", seats, lambda s: list(SEATS_OF[s.flashers])),)
    return fields


def observation_fields(game: BoomBokkenGame) -> dict[str, Spec]:
    """An observation's keys besides ``observer``: the game's name and player count (a saved
    state's first two fields), my hand, every hand's size, the deck's size, the public
    fields and the known bottom of the deck."""
    p, cards = game.num_players, sum(game.deck)
    head = {field.key: field.spec for field in game._schema.fields[:2]}  # game, num_players
    return {
        **head,
        "hand": List(CARD, max_len=cards),
        "hand_sizes": List(Int(0, cards), length=p),
        "deck_size": Int(0, cards),
        **{field.key: field.spec for field in public_fields(game)},
        "deck_bottom": List(CARD, max_len=cards),
    }


def state_fields(game: BoomBokkenGame) -> tuple[Field, ...]:
    """The fields of a saved Boom Bokken state, in ``to_dict`` order."""
    p, cards = game.num_players, sum(game.deck)
    return (
        Field("seed", Int(0, SEED_LIMIT - 1), lambda s: s.seed),
        Field(
            "hands",
            List(List(CARD, max_len=cards), length=p),
            lambda s: [list(hand_names(hand)) for hand in s.hands],
        ),
        Field("deck", List(CARD, max_len=cards), lambda s: _names(s.deck)),
        *public_fields(game),
        Field("known_bottom", Int(0, cards), lambda s: s.known_bottom),
    )


def _counts(names: Sequence[str]) -> tuple[int, ...]:
    counts = [0] * NUM_CODES
    for name in names:
        counts[CARD_CODE[name]] += 1
    return tuple(counts)


def _seat(value: int | None) -> int:
    return -1 if value is None else value


def _active(players: int, out: tuple[int, ...]) -> int:
    """The bit mask of the seats still in the round."""
    return sum(1 << seat for seat in range(players) if seat not in out)


def _known(names: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(sorted(CARD_CODE[name] for name in names))


def _fact(value: tuple[str, str] | None) -> tuple[int, bool] | None:
    """What an exploded seat could not answer, from its saved form (card, announcement)."""
    return None if value is None else (CARD_CODE[value[0]], value[1] == "higher")


def state_from_fields(game: BoomBokkenGame, fields: dict[str, Any]) -> BoomBokkenState:
    """The state the checked ``fields`` describe (invariants not yet checked)."""
    p = game.num_players
    safe, exploded = fields["safe"], fields["exploded"]
    announce_while_named(fields)
    flashers = seats_in_order(fields.get("flashers", []), "flashers")
    packed = tuple(pack_hand(_counts(hand)) for hand in fields["hands"])
    return BoomBokkenState(
        game=game,
        round=fields["round"],
        over=fields["over"],
        seed=fields["seed"],
        teams=fields["teams"],
        roles=() if fields["roles"] is None else fields["roles"],
        packed=packed,
        deck=tuple(CARD_CODE[name] for name in fields["deck"]),
        pile=tuple(CARD_CODE[name] for name in fields["pile"]),
        aside=fields["aside"],
        safe=safe,
        exploded=exploded,
        active=_active(p, safe + exploded),
        leader=_seat(fields["leader"]),
        target=_seat(fields["target"]),
        higher=fields["announce"] == "higher",
        last_player=_seat(fields["last_player"]),
        tokens=fields["tokens"],
        history=tuple((entry["safe_order"], entry["teams"]) for entry in fields["history"]),
        known_bottom=fields["known_bottom"],
        known=tuple(map(_known, fields["known_cards"])),
        exploded_on=tuple(map(_fact, fields["exploded_on"])),
        holders=card_holders(packed),
        flashers=sum(1 << seat for seat in flashers),
    )


def announce_while_named(fields: dict[str, Any]) -> None:
    """An announcement exactly while a seat is named (checked on the saved fields: the state
    keeps the announcement as a bool)."""
    _check(
        (fields["announce"] is None) == (fields["target"] is None),
        f"announce {excerpt(fields['announce'])}: 'higher' or 'lower' exactly while a player "
        "is named",
    )


def seats_in_order(seats: Sequence[int], key: str) -> Sequence[int]:
    """``seats`` (a saved field), checked to list each seat once, in seat order."""
    _check(
        all(a < b for a, b in itertools.pairwise(seats)),
        f"{key} {list(seats)}: each seat once, in seat order",
    )
    return seats


def dealt(
    game: BoomBokkenGame,
    hands: Sequence[Sequence[str]],
    teams: Sequence[int],
    leader: int,
    deck_top: Sequence[str],
    roles: Sequence[str] | None,
    seed: int,
) -> BoomBokkenState:
    """A round-1 position with these hands, teams and roles (``game.deal``)."""
    hands = [_sequence(hand, f"hands[{k}]") for k, hand in enumerate(_sequence(hands, "hands"))]
    teams, deck_top = _sequence(teams, "teams"), _sequence(deck_top, "deck_top")
    roles = None if roles is None else _sequence(roles, "roles")
    rest = list(game.deck)
    for card in [c for hand in hands for c in hand] + deck_top:
        code = CARD_CODE.get(card) if isinstance(card, str) else None
        if code is None or rest[code] == 0:
            raise StateError(f"deal: {excerpt(card)} is not a card left in the game's deck")
        rest[code] -= 1
    p = game.num_players
    data = {
        "game": game.name, "num_players": p, "seed": seed,
        "hands": [list(h) for h in hands],
        "deck": list(deck_top) + list(hand_names(tuple(rest))),
        "round": 1, "over": False, "teams": list(teams),
        "roles": None if roles is None else list(roles), "pile": [], "aside": 0,
        "safe": [], "exploded": [], "leader": leader, "target": None, "announce": None,
        "last_player": None, "tokens": [0] * p, "history": [],
        "known_cards": [[] for _ in range(p)], "exploded_on": [], "known_bottom": 0,
    }  # fmt: skip
    if game.distinct_flashers:
        data["flashers"] = []
    return game.state_from_dict(data)


def _sequence(value: Any, what: str) -> list[Any]:
    """``value`` (a list, tuple or 1-d array: not a string or a mapping) as a list."""
    value = unarray(value)
    _check(
        isinstance(value, Sequence) and not isinstance(value, str | bytes),
        f"deal: {what} must be a list, not {excerpt(value)}",
    )
    return list(value)


# ---------------------------------------------------------------------- invariants


def _check(condition: bool, message: str) -> None:
    require(condition, StateError, message)


def cards_are_the_deck(state: BoomBokkenState) -> None:
    """Hands, draw pile, pile and the Temps Mort set aside hold exactly the game's deck."""
    game = state.game
    total = Counter(state.deck) + Counter(state.pile)
    for hand in state.hands:
        total.update({code: n for code, n in enumerate(hand) if n})
    total[TIME_OUT] += state.aside
    composition = Counter({code: n for code, n in enumerate(game.deck) if n})
    if total != composition:
        extra = _names(sorted((total - composition).elements()))
        missing = _names(sorted((composition - total).elements()))
        raise StateError(f"cards are not the game's deck: extra {extra}, missing {missing}")


def time_outs_aside_only_if_set_aside(state: BoomBokkenState) -> None:
    """Temps Mort cards are set aside only with ``spent_time_outs="aside"``."""
    _check(
        state.aside == 0 or state.game.spent_time_outs == "aside",
        "aside: Temps Mort cards are set aside only with spent_time_outs='aside'",
    )


def _teams_fit(state: BoomBokkenState, teams: tuple[int, ...], what: str) -> None:
    sizes = state.game.team_sizes
    counts = Counter(teams)
    _check(
        all(counts[k] == size for k, size in enumerate(sizes)),
        f"{what} {list(teams)}: team k must have {list(sizes)}[k] members",
    )


def teams_fit_the_split(state: BoomBokkenState) -> None:
    """This round's teams and every finished round's have the sizes of the game's split."""
    _teams_fit(state, state.teams, "teams")
    for k, (_, teams) in enumerate(state.history):
        _teams_fit(state, teams, f"history[{k}].teams")


def roles_fit_the_teams(state: BoomBokkenState) -> None:
    """Expert mode: each team holds the roles of its size (Gardien, Cogneur, Coureur, ...)."""
    if not state.game.expert:
        return
    for team, size in enumerate(state.game.team_sizes):
        have = sorted(r for r, t in zip(state.roles, state.teams, strict=True) if t == team)
        _check(
            have == sorted(team_roles(size)),
            f"team {team} of {size} must hold roles {list(team_roles(size))}, not {have}",
        )


def seats_out_once(state: BoomBokkenState) -> None:
    """No seat is safe twice, exploded twice, or both; finished rounds list each safe seat once."""
    safe, exploded = state.safe, state.exploded
    _check(len(set(safe)) == len(safe), f"safe repeats a seat: {list(safe)}")
    _check(len(set(exploded)) == len(exploded), f"exploded repeats a seat: {list(exploded)}")
    _check(not set(safe) & set(exploded), "a seat is both safe and exploded")
    for k, (order, _) in enumerate(state.history):
        _check(len(set(order)) == len(order), f"history[{k}].safe_order repeats a seat")


def rounds_recorded(state: BoomBokkenState) -> None:
    """One record per finished round; once over, the third round's record is this round's."""
    if not state.over:
        _check(
            len(state.history) == state.round - 1,
            f"round {state.round} needs {state.round - 1} finished rounds",
        )
        return
    _check(
        state.round == ROUNDS and len(state.history) == ROUNDS,
        "over: three rounds must be recorded",
    )
    _check(not state.players_in_round, "over: nobody is still in the round")
    _check(
        state.history[-1] == (state.safe, state.teams), "over: the last round's record must match"
    )
    _check(state.leader < 0 and state.target < 0, "over: no leader and no named player")


def _fits(hand: tuple[int, ...], fact: tuple[int, bool] | None) -> bool:
    """Whether ``hand`` holds a card that answers ``fact`` (a leader's: any card with a value)."""
    if fact is None:
        return any(hand[1:])
    values = FITTING_VALUES[fact[1]][CARD_VALUE[fact[0]]]
    return any(hand[v] or hand[flash(v)] for v in values)


def _could_answer(fact: tuple[int, bool] | None) -> str:
    """What an exploded seat may not hold, in words."""
    if fact is None:
        return "a card to lead with, though it exploded as a leader holding only Temps Mort"
    return f"a card that answers '{ANNOUNCEMENTS[fact[1]]}' on {CARD_NAMES[fact[0]]}"


def hands_fit_the_seats(state: BoomBokkenState) -> None:
    """Safe seats hold nothing; seats in the round and exploded seats hold cards, and an
    exploded seat none that answers what it exploded on."""
    if not state.over:  # at the end of a round the seats left are safe with their cards
        for seat in state.safe:
            _check(not any(state.hands[seat]), f"safe seat {seat} still holds cards")
    for seat in state.players_in_round:
        _check(any(state.hands[seat]), f"seat {seat} is in the round with an empty hand")
    _check(
        len(state.exploded_on) == len(state.exploded),
        "exploded_on must say, for each exploded seat, what it could not answer",
    )
    for seat, fact in zip(state.exploded, state.exploded_on, strict=True):
        hand = state.hands[seat]
        _check(any(hand), f"exploded seat {seat} holds no cards: it keeps its hand")
        _check(not _fits(hand, fact), f"exploded seat {seat} holds {_could_answer(fact)}")


def two_teams_while_playing(state: BoomBokkenState) -> None:
    """While the round goes on, seats of at least two teams are still in it."""
    if not state.over:
        teams = {state.teams[s] for s in state.players_in_round}
        _check(len(teams) >= 2, "the round should be over: one team is left")


def pile_and_turn(state: BoomBokkenState) -> None:
    """A card on the pile: a named seat in the round and the top card's player; else a leader."""
    if state.over:
        return
    in_round = state.players_in_round
    if not state.pile:
        _check(
            state.leader in in_round,
            f"leader {_seat_or_none(state.leader)} must be a seat still in the round",
        )
        _check(
            state.target < 0 and state.last_player < 0, "no named player without a card on the pile"
        )
        return
    _check(state.leader < 0, "leader: nobody leads while a card is on the pile")
    _check(
        state.target in in_round,
        f"target {_seat_or_none(state.target)} must be a seat still in the round",
    )
    last = state.last_player
    _check(
        last >= 0 and last != state.target and (last in in_round or state.safe[-1:] == (last,)),
        f"last_player {_seat_or_none(last)}: the top card's player, not the target, in or just "
        "safe",
    )


def flashers_played_the_top(state: BoomBokkenState) -> None:
    """``distinct_flashers``: the flashers are the seats of the run of Flash cards on top of
    the pile (the top card's player among them, no more seats than the run has cards)."""
    flashers, pile = state.flashers, state.pile
    if not (pile and IS_FLASH[pile[-1]]):
        _check(not flashers, f"flashers {list(SEATS_OF[flashers])}: no Flash is on top")
        return
    if not state.game.distinct_flashers:
        return
    run = sum(1 for _ in itertools.takewhile(pile[-1].__eq__, reversed(pile)))
    _check(
        state.last_player >= 0 and bool(flashers >> state.last_player & 1),
        f"flashers {list(SEATS_OF[flashers])}: the top card's player "
        f"{_seat_or_none(state.last_player)} played the run's last Flash",
    )
    _check(
        flashers.bit_count() <= run,
        f"flashers {list(SEATS_OF[flashers])}: more seats than the run's {run} Flash cards",
    )


def tokens_fit_explosions(state: BoomBokkenState) -> None:
    """Each explosion of a named seat gave one token: this round's are all counted, and no
    more tokens than explosions of named seats (finished rounds: explosions) in all."""
    p = state.game.num_players
    this_round = sum(1 for fact in state.exploded_on if fact is not None)
    earlier = sum(p - len(order) for order, _ in state.history[: state.round - 1])
    tokens = sum(state.tokens)
    _check(
        this_round <= tokens <= this_round + earlier,
        f"{tokens} Bokken tokens, but {this_round} this round and at most {earlier} before",
    )


def draws_fit_the_mode(state: BoomBokkenState) -> None:
    """Without Expert mode nothing is drawn beyond the deal but after a Temps Mort, which
    it replaces: no hand exceeds the cards dealt, the draw pile never shrinks below its size."""
    game = state.game
    if game.expert:
        return
    size, p = HAND_SIZE[game.num_players], game.num_players
    for seat, hand in enumerate(state.hands):
        _check(sum(hand) <= size, f"seat {seat} holds {sum(hand)} cards; {size} are dealt")
    least = sum(game.deck) - size * p
    _check(
        len(state.deck) >= least, f"the draw pile holds {len(state.deck)} cards, fewer than {least}"
    )


def knowledge_fits(state: BoomBokkenState) -> None:
    """What every seat knows is there: the known bottom of the draw pile, the known cards in
    each hand (and with Temps Mort set aside, no Temps Mort went under the draw pile)."""
    deck = state.deck
    _check(state.known_bottom <= len(deck), "known_bottom: more than the draw pile holds")
    for seat, (known, hand) in enumerate(zip(state.known, state.hands, strict=True)):
        have = Counter(known)
        _check(
            all(hand[code] >= n for code, n in have.items()),
            f"known_cards[{seat}]: {_names(known)} are not all in seat {seat}'s hand",
        )
    if state.game.spent_time_outs == "aside":
        bottom = deck[len(deck) - state.known_bottom :]
        _check(TIME_OUT not in bottom, "known_bottom: a Temps Mort set aside went under the deck")


INVARIANTS: Sequence[Callable[[BoomBokkenState], None]] = (
    cards_are_the_deck,
    time_outs_aside_only_if_set_aside,
    teams_fit_the_split,
    roles_fit_the_teams,
    seats_out_once,
    rounds_recorded,
    hands_fit_the_seats,
    two_teams_while_playing,
    pile_and_turn,
    flashers_played_the_top,
    tokens_fit_explosions,
    draws_fit_the_mode,
    knowledge_fits,
)
