"""Boom Bokken as integer actions and float32 tensors (for RL code and search).

Action ids, with P players, G card groups (below) and offsets ``k = 1..P-1``
naming the seat ``(player + k) % P`` (a target, a next leader)::

    PLAY   g, k, a    (g*(P-1) + k-1)*2 + a      lead or answer: group g, a 0 lower, 1 higher
    KNOCK  v, k, a    KNOCK + ((v-1)*(P-1) + k-1)*2 + a   Expert only: one orange v, "je cogne"
    FINAL  g          FINAL + g                  a play that ends the round (no target)
    BOOM   k          BOOM + k-1                 explode, seat (player + k) % P leads next
    BOOM_END          BOOM + P-1                 an explosion that ends the round
    TIME_OUT          BOOM + P                   Temps Mort;  num_actions = BOOM + P + 1

Card groups: without Expert mode, the 16 single cards ``1``..``8`` then
``F1``..``F8``; in Expert mode (a Coureur plays several cards of one value),
for each value v every ``i`` orange and ``j`` Flash cards with
``0 <= i <= deck[v]``, ``0 <= j <= deck[Fv]``, ``i + j >= 1``, value by value,
``i`` then ``j`` ascending. A seat can never hold more copies of a card than
the deck has, so every legal play has an id. The environments add one id,
``num_actions``, for PASS on a reaction turn.

The observation tensor (``observation_shape = (D,)``) holds the fields of
``docs/boom_bokken.md``, "Actions and tensors"; seats in observer order.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from forestgames._codec import (
    CodecBase,
    Layout,
    Pieces,
    SeatRows,
    float32_bytes,
    one_hots,
)
from forestgames.boom_bokken._tables import (
    ANNOUNCEMENTS,
    CARD_CODE,
    CARD_NAMES,
    NUM_CODES,
    ROLES,
    ROUNDS,
    VALUES,
    flash,
)
from forestgames.boom_bokken.moves import Boom, Play, TimeOut
from forestgames.boom_bokken.state import hand_counts

__all__ = ["BoomBokkenCodec"]


def card_groups(deck: tuple[int, ...], several: bool) -> tuple[tuple[str, ...], ...]:
    """Every card group a play may put down (see the module docstring), in id order."""
    if not several:
        return tuple((name,) for name in CARD_NAMES[1:] if deck[CARD_CODE[name]])
    groups = []
    for v in VALUES:
        for i in range(deck[v] + 1):
            for j in range(deck[flash(v)] + 1):
                if i + j:
                    groups.append((str(v),) * i + (f"F{v}",) * j)
    return tuple(groups)


def _layout(p: int, teams: int, pile: int, cards: int, flashers: bool) -> Layout:
    layout = Layout()
    layout.add("hand", (NUM_CODES,), "my hand: count per card code (T, 1..8, F1..F8)")
    layout.add("hand_sizes", (p,), "cards held per seat (exploded seats' too)")
    layout.add("deck_size", (1,), "cards in the draw pile")
    layout.add("aside", (1,), "Temps Mort cards set aside this round")
    layout.add("safe", (p,), "rank in this round's safe order (1 = first), 0 if not safe")
    layout.add("exploded", (p,), "rank in this round's explosions, 0 if not exploded")
    layout.add("leader", (p,), "the seat to lead (pile empty), one-hot")
    layout.add("target", (p,), "the named seat, one-hot")
    layout.add("announce", (2,), "the announcement, one-hot: lower, higher")
    layout.add("last_player", (p,), "the seat that played the top card, one-hot")
    layout.add("tokens", (p,), "Bokken tokens per seat")
    layout.add("pile_top", (NUM_CODES,), "the top card of the pile, one-hot")
    layout.add("pile_counts", (NUM_CODES,), "pile cards per card code")
    layout.add("pile", (pile,), "pile cards bottom first, as card codes (0 = no card)")
    layout.add("round", (ROUNDS,), "the round under way, one-hot")
    layout.add("over", (1,), "1 once the game is over")
    layout.add("teams", (p, teams), "each seat's team this round, one-hot")
    layout.add("roles", (p, len(ROLES)), "Expert roles gardien, cogneur, coureur, one-hot")
    layout.add("history_safe", (ROUNDS, p), "per finished round, rank in its safe order")
    layout.add("history_teams", (ROUNDS, p, teams), "per finished round, each seat's team")
    known = "the known bottom of the draw pile"
    layout.add("deck_bottom_counts", (NUM_CODES,), f"{known}: count per card code")
    in_order = "in the order `deck_bottom` lists it, as card code + 1 (0 = no card)"
    layout.add("deck_bottom", (cards,), f"{known} {in_order}")
    layout.add("known_cards", (p, NUM_CODES), "per seat, the cards all know it holds, per code")
    layout.add(
        "exploded_on",
        (p, NUM_CODES + 3),
        "per exploded seat, what it could not answer: top card, announcement (lower, higher), "
        "one-hot; last column 1 for a leader holding only Temps Mort",
    )
    if flashers:
        layout.add("flashers", (p,), "the seats of the run of Flash cards on top (option)")
    return layout.seal()


class BoomBokkenCodec(CodecBase):
    """Integer actions and observation tensors of one Boom Bokken game (its options fixed)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        p = self.num_players
        self.groups = card_groups(game.deck, game.expert)
        self._group_index = {group: g for g, group in enumerate(self.groups)}
        g = len(self.groups)
        self.knock_base = g * (p - 1) * 2
        self.final_base = self.knock_base + (8 * (p - 1) * 2 if game.expert else 0)
        self.boom_base = self.final_base + g
        self.time_out_id = self.boom_base + p
        self.num_actions = self.time_out_id + 1
        self.pass_id = self.num_actions
        self.pile_length = sum(game.deck[1:])
        self._flashers = game.distinct_flashers
        self.layout = _layout(
            p, len(game.team_sizes), self.pile_length, sum(game.deck), self._flashers
        )
        self.observation_shape = (self.layout.size,)
        self._hand_piece = Pieces(_hand_piece)
        self._pile_piece = Pieces(self._build_pile_piece)
        self._round_pieces = Pieces(self._build_round_piece)
        self._bottom_pieces = Pieces(self._build_bottom_piece)
        self._known_rows = SeatRows(self._build_known_rows, p, NUM_CODES).table()
        self._exploded_on_rows = SeatRows(self._build_exploded_on_rows, p, NUM_CODES + 3).table()
        self._size_pieces = Pieces(lambda packed: float32_bytes((_hand_size(packed),)))
        self._size_rows = SeatRows(self._build_size_rows, p).table()
        self._counts_pieces = Pieces(float32_bytes)
        self._safe_rows = SeatRows(self._rank_rows, p).table()
        self._exploded_rows = SeatRows(self._rank_rows, p).table()
        self._token_rows = SeatRows(lambda tokens, _: float32_bytes(tokens), p).table()
        self._flasher_rows = SeatRows(
            lambda flashers, _: float32_bytes([flashers >> seat & 1 for seat in range(p)]), p
        ).table()
        self._seat_pieces = tuple(  # [observer][seat + 1]: the seat one-hot, [0] none
            (bytes(4 * p), *(one_hots(p)[(seat - observer) % p] for seat in range(p)))
            for observer in range(p)
        )
        self._announce_pieces = (bytes(8), *one_hots(2))  # [0] no target, [1 + higher]
        self._encoders: dict[type, Callable[[Any], int | None]] = {
            TimeOut: self._time_out_id,
            Boom: self._boom_id,
            Play: self._play_id,
        }

    # ------------------------------------------------------------------ ids

    def _offset(self, seat: Any, player: int) -> int | None:
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
            return None
        if not 0 <= seat < self.num_players or seat == player:
            return None
        return (int(seat) - int(player)) % self.num_players  # ints: an unsigned seat wraps

    def _time_out_id(self, move: Any) -> int:
        """TimeOut: its one id."""
        return self.time_out_id

    def _boom_id(self, move: Any) -> int | None:
        """Boom: the next leader, or none when the round ends."""
        if move.next_leader is None:
            return self.boom_base + self.num_players - 1
        k = self._offset(move.next_leader, move.player)
        return None if k is None else self.boom_base + k - 1

    def _play_id(self, move: Any) -> int | None:
        """Play: a final play (no target), a lead or answer, or a knock."""
        group = self._group_index.get(move.cards)
        if group is None:
            return None
        if move.target is None:
            ok = move.announce is None and move.knock is False
            return self.final_base + group if ok else None
        k = self._offset(move.target, move.player)
        if k is None or move.announce not in ANNOUNCEMENTS:
            return None
        a = ANNOUNCEMENTS.index(move.announce)
        if move.knock is False:
            return (group * (self.num_players - 1) + k - 1) * 2 + a
        return self._knock_id(move, k, a)

    def _knock_id(self, move: Any, k: int, a: int) -> int | None:
        """A knock (Expert mode): one orange card, target offset ``k``, announcement ``a``."""
        cards = move.cards
        if move.knock is not True or not self.game.expert or len(cards) != 1 or cards[0][0] == "F":
            return None
        return self.knock_base + ((int(cards[0]) - 1) * (self.num_players - 1) + k - 1) * 2 + a

    def _build(self, action_id: int, player: int) -> Any:
        p = self.num_players
        if action_id == self.time_out_id:
            return TimeOut(player)
        if action_id >= self.boom_base:
            k = action_id - self.boom_base + 1
            return Boom(player, None if k == p else (player + k) % p)
        if action_id >= self.final_base:
            return Play(player, self.groups[action_id - self.final_base])
        if action_id >= self.knock_base:
            rest, a = divmod(action_id - self.knock_base, 2)
            v, k = divmod(rest, p - 1)
            return Play(player, (str(v + 1),), (player + k + 1) % p, ANNOUNCEMENTS[a], True)
        rest, a = divmod(action_id, 2)
        g, k = divmod(rest, p - 1)
        return Play(player, self.groups[g], (player + k + 1) % p, ANNOUNCEMENTS[a])

    def reaction_seats(self, state: Any) -> tuple[int, ...]:
        """While a seat is named: every other seat still in the round (they may interject)."""
        if state.over or state.target < 0:
            return ()
        return tuple(s for s in state.players_in_round if s != state.target)

    # ------------------------------------------------------------------ tensors

    # The state's tensor is pieces of float32 bytes joined, each from a bounded table keyed
    # by what it is made of (a packed hand, a pile, the round's fields, the seat to lead):
    # a tensor is a dozen dict lookups and one join. Per-seat fields come from ``SeatRows``
    # tables, which build a field's rows once per source object and turn them to each
    # observer by slicing. ``tensor_from_observation`` builds the same tensor the other
    # way, with the writers further down.

    def _new_tensor(self, state: Any, player: int) -> np.ndarray:
        """The observation tensor of seat ``player``, straight from ``state`` (under the
        codec's lock: it uses the codec's shared tables and buffers)."""
        packed, seats, target = state.packed, self._seat_pieces[player], state.target
        deck, known_bottom = state.deck, state.known_bottom
        pieces: tuple[bytes, ...] = (
            self._hand_piece[packed[player]],
            # the turn: hand sizes, deck, aside, safe and exploded ranks, the chain, tokens
            self._size_rows[(player, packed)],
            self._counts_pieces[(len(deck), state.aside)],
            self._safe_rows[(player, state.safe)],
            self._exploded_rows[(player, state.exploded)],
            seats[state.leader + 1],
            seats[target + 1],
            self._announce_pieces[0 if target < 0 else 1 + state.higher],
            seats[state.last_player + 1],
            self._token_rows[(player, state.tokens)],
            self._pile_piece[state.pile],
            self._round_pieces[
                (player, state.round, state.over, state.teams, state.roles, state.history)
            ],
            # what all know: the deck's bottom, cards in hands, what exploded seats could not
            # answer
            self._bottom_pieces[deck[len(deck) - known_bottom :] if known_bottom else ()],
            self._known_rows[(player, state.known)],
            self._exploded_on_rows[(player, state.exploded, state.exploded_on)],
        )
        if self._flashers:
            pieces += (self._flasher_rows[(player, state.flashers)],)
        return np.frombuffer(b"".join(pieces), np.float32)  # read-only

    def _build_size_rows(self, packed: tuple[int, ...], _: None) -> bytes:
        """Per seat, the cards it holds."""
        return b"".join(map(self._size_pieces.__getitem__, packed))

    def _rank_rows(self, order: tuple[int, ...], _: None) -> bytes:
        """Per seat, its rank in ``order`` (1 = first), 0 if absent."""
        ranks = [0.0] * self.num_players
        for rank, seat in enumerate(order, 1):
            ranks[seat] = rank
        return float32_bytes(ranks)

    def _build_pile_piece(self, pile: tuple[int, ...]) -> bytes:
        """Top card, counts per code, the cards in order (0 = no card)."""
        top = [0.0] * NUM_CODES
        if pile:
            top[pile[-1]] = 1.0
        counts = list(map(pile.count, range(NUM_CODES)))
        rest = (0,) * (self.pile_length - len(pile))
        return array("f", [*top, *counts, *pile, *rest]).tobytes()

    def _build_round_piece(self, key: tuple[Any, ...]) -> bytes:
        """Round, over, teams and roles, the finished rounds, by (observer, round, over,
        teams, roles, history)."""
        observer, round_, over, teams, roles, history = key
        v = _View(
            observer, (), (), 0, round_, over, teams, roles, (), -1, 0, (), (), -1, -1, False, -1,
            (), history,
        )  # fmt: skip
        buffer = array("f", bytes(4 * self.layout.size))
        self._write_round(buffer, v)
        start, end = self.layout.offset["round"], self.layout.offset["deck_bottom_counts"]
        return buffer[start:end].tobytes()

    def _known_part(
        self, start: str, end: str | None, bottom: tuple[int, ...] = (),
        known: tuple[tuple[int, ...], ...] = (), exploded: tuple[int, ...] = (),
        exploded_on: tuple[tuple[int, bool] | None, ...] = (),
    ) -> bytes:  # fmt: skip
        """The tensor's fields ``start`` up to ``end`` (None: to the end) for seat 0, written
        from the facts given (the others left empty)."""
        at = self.layout.offset
        base = at[start]
        buffer = array("f", bytes(4 * ((at[end] if end else self.layout.size) - base)))
        self._write_known(buffer, 0, bottom, known, exploded, exploded_on, base=base)
        return buffer.tobytes()

    def _build_bottom_piece(self, bottom: tuple[int, ...]) -> bytes:
        """The known deck bottom (counts, then in order) by its cards."""
        return self._known_part("deck_bottom_counts", "known_cards", bottom)

    def _build_known_rows(self, known: tuple[tuple[int, ...], ...], _: None) -> bytes:
        """Per seat, the cards all know it holds."""
        return self._known_part("known_cards", "exploded_on", known=known)

    def _build_exploded_on_rows(self, exploded: tuple[int, ...], exploded_on: Any) -> bytes:
        """Per seat, what it could not answer when it exploded."""
        end = "flashers" if self._flashers else None
        return self._known_part("exploded_on", end, exploded=exploded, exploded_on=exploded_on)

    def _tensor_from_observation(self, observation: dict[str, Any]) -> np.ndarray:
        """The observation tensor built from ``state.observation(player)`` alone."""
        obs = observation
        hand = [0] * NUM_CODES
        for name in obs["hand"]:
            hand[CARD_CODE[name]] += 1
        pile = tuple(CARD_CODE[name] for name in obs["pile"])
        roles = tuple(obs["roles"]) if obs["roles"] is not None else ()
        view = _View(
            observer=obs["observer"],
            hand=tuple(hand),
            hand_sizes=tuple(obs["hand_sizes"]),
            deck_size=obs["deck_size"],
            round=obs["round"],
            over=obs["over"],
            teams=tuple(obs["teams"]),
            roles=roles,
            pile=pile,
            top=pile[-1] if pile else -1,
            aside=obs["aside"],
            safe=tuple(obs["safe"]),
            exploded=tuple(obs["exploded"]),
            leader=-1 if obs["leader"] is None else obs["leader"],
            target=-1 if obs["target"] is None else obs["target"],
            higher=obs["announce"] == "higher",
            last_player=-1 if obs["last_player"] is None else obs["last_player"],
            tokens=tuple(obs["tokens"]),
            history=tuple((tuple(h["safe_order"]), tuple(h["teams"])) for h in obs["history"]),
            deck_bottom=tuple(CARD_CODE[name] for name in obs["deck_bottom"]),
            known=tuple(tuple(CARD_CODE[name] for name in cards) for cards in obs["known_cards"]),
            exploded_on=tuple(map(_fact, obs["exploded_on"])),
            flashers=sum(1 << seat for seat in obs.get("flashers", ())),
        )
        return self._encode_view(view)

    def _encode_view(self, v: _View) -> np.ndarray:
        """The whole tensor of view ``v``."""
        return np.frombuffer(self._encode_buffer(v), np.float32).copy()

    def _encode_buffer(self, v: _View) -> array[float]:
        """The whole tensor of view ``v`` as a float32 ``array``."""
        buffer = array("f", bytes(4 * self.layout.size))
        self._write_hand(buffer, v)
        self._write_turn(buffer, v)
        self._write_pile(buffer, v)
        self._write_round(buffer, v)
        self._write_known(buffer, v.observer, v.deck_bottom, v.known, v.exploded, v.exploded_on)
        if self._flashers:
            p = self.num_players
            for seat in range(p):
                buffer[self.layout.offset["flashers"] + (seat - v.observer) % p] = (
                    v.flashers >> seat & 1
                )
        return buffer

    def _write_hand(self, buffer: array[float], v: _View) -> None:
        start = self.layout.offset["hand"]
        buffer[start : start + NUM_CODES] = array("f", v.hand)

    def _write_turn(self, buffer: array[float], v: _View) -> None:
        """Hand sizes, deck, the round's safe and exploded seats, the chain (zero before)."""
        at = self.layout.offset
        p, observer = self.num_players, v.observer
        sizes, tokens = at["hand_sizes"], at["tokens"]
        for seat in range(p):
            k = (seat - observer) % p
            buffer[sizes + k] = v.hand_sizes[seat]
            buffer[tokens + k] = v.tokens[seat]
        buffer[at["deck_size"]] = v.deck_size
        buffer[at["aside"]] = v.aside
        for rank, seat in enumerate(v.safe, 1):
            buffer[at["safe"] + (seat - observer) % p] = rank
        for rank, seat in enumerate(v.exploded, 1):
            buffer[at["exploded"] + (seat - observer) % p] = rank
        if v.leader >= 0:
            buffer[at["leader"] + (v.leader - observer) % p] = 1.0
        if v.target >= 0:
            buffer[at["target"] + (v.target - observer) % p] = 1.0
            buffer[at["announce"] + int(v.higher)] = 1.0
        if v.last_player >= 0:
            buffer[at["last_player"] + (v.last_player - observer) % p] = 1.0

    def _write_pile(self, buffer: array[float], v: _View) -> None:
        """The pile: top card, counts, the cards in order (zero before)."""
        if not v.pile:
            return
        at = self.layout.offset
        buffer[at["pile_top"] + v.top] = 1.0
        counts, sequence = at["pile_counts"], at["pile"]
        for position, code in enumerate(v.pile):
            buffer[counts + code] += 1.0
            buffer[sequence + position] = code

    def _write_round(self, buffer: array[float], v: _View) -> None:
        """Round, over, teams and roles, the finished rounds (zero before)."""
        at = self.layout.offset
        p, observer = self.num_players, v.observer
        teams = len(self.game.team_sizes)
        buffer[at["round"] + v.round - 1] = 1.0
        if v.over:
            buffer[at["over"]] = 1.0
        for seat in range(p):
            k = (seat - observer) % p
            buffer[at["teams"] + k * teams + v.teams[seat]] = 1.0
            if v.roles:
                buffer[at["roles"] + k * 3 + ROLES.index(v.roles[seat])] = 1.0
        for r, (order, round_teams) in enumerate(v.history):
            for rank, seat in enumerate(order, 1):
                buffer[at["history_safe"] + r * p + (seat - observer) % p] = rank
            for seat in range(p):
                k = (seat - observer) % p
                buffer[at["history_teams"] + (r * p + k) * teams + round_teams[seat]] = 1.0

    def _write_known(
        self,
        buffer: array[float],
        observer: int,
        bottom: tuple[int, ...],
        known: tuple[tuple[int, ...], ...],
        exploded: tuple[int, ...],
        exploded_on: tuple[tuple[int, bool] | None, ...],
        base: int = 0,
    ) -> None:
        """The known deck bottom, the known cards, what each exploded seat could not answer,
        into ``buffer`` (the whole tensor, or the part from offset ``base`` on)."""
        at = {name: offset - base for name, offset in self.layout.offset.items()}
        p = self.num_players
        counts, sequence = at["deck_bottom_counts"], at["deck_bottom"]
        for position, code in enumerate(bottom):
            buffer[counts + code] += 1.0
            buffer[sequence + position] = code + 1
        for seat, codes in enumerate(known):
            row = at["known_cards"] + (seat - observer) % p * NUM_CODES
            for code in codes:
                buffer[row + code] += 1.0
        width = NUM_CODES + 3
        for seat, fact in zip(exploded, exploded_on, strict=True):
            row = at["exploded_on"] + (seat - observer) % p * width
            if fact is None:
                buffer[row + width - 1] = 1.0
            else:
                buffer[row + fact[0]] = 1.0
                buffer[row + NUM_CODES + int(fact[1])] = 1.0


def _fact(fact: list[str] | None) -> tuple[int, bool] | None:
    """An ``exploded_on`` entry of an observation as the state keeps it."""
    return None if fact is None else (CARD_CODE[fact[0]], fact[1] == "higher")


def _hand_piece(packed: int) -> bytes:
    """A packed hand's 17 counts as float32 bytes."""
    return array("f", hand_counts(packed)).tobytes()


def _hand_size(packed: int) -> int:
    """The number of cards of a packed hand."""
    return sum(hand_counts(packed))


class _View(NamedTuple):
    """The fields a tensor is made of, taken from a state or from an observation dict."""

    observer: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    round: int
    over: bool
    teams: tuple[int, ...]
    roles: tuple[str, ...]
    pile: tuple[int, ...]
    top: int
    aside: int
    safe: tuple[int, ...]
    exploded: tuple[int, ...]
    leader: int
    target: int
    higher: bool
    last_player: int
    tokens: tuple[int, ...]
    history: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    deck_bottom: tuple[int, ...] = ()
    known: tuple[tuple[int, ...], ...] = ()
    exploded_on: tuple[tuple[int, bool] | None, ...] = ()
    flashers: int = 0
