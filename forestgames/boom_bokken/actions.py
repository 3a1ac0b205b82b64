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

from typing import Any, NamedTuple

import numpy as np

from forestgames._codec import CodecBase, Layout, seat_order
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


def _layout(p: int, teams: int, pile: int) -> Layout:
    layout = Layout()
    layout.add("hand", (NUM_CODES,), "my hand: count per card code (T, 1..8, F1..F8)")
    layout.add("hand_sizes", (p,), "cards held per seat (exploded seats' too)")
    layout.add("deck_size", (1,), "cards in the draw pile")
    layout.add("round", (ROUNDS,), "the round under way, one-hot")
    layout.add("over", (1,), "1 once the game is over")
    layout.add("teams", (p, teams), "each seat's team this round, one-hot")
    layout.add("roles", (p, len(ROLES)), "Expert roles gardien, cogneur, coureur, one-hot")
    layout.add("pile_top", (NUM_CODES,), "the top card of the pile, one-hot")
    layout.add("pile_counts", (NUM_CODES,), "pile cards per card code")
    layout.add("pile", (pile,), "pile cards bottom first, as card codes (0 = no card)")
    layout.add("aside", (1,), "Temps Mort cards set aside this round")
    layout.add("safe", (p,), "rank in this round's safe order (1 = first), 0 if not safe")
    layout.add("exploded", (p,), "rank in this round's explosions, 0 if not exploded")
    layout.add("leader", (p,), "the seat to lead (pile empty), one-hot")
    layout.add("target", (p,), "the named seat, one-hot")
    layout.add("announce", (2,), "the announcement, one-hot: lower, higher")
    layout.add("last_player", (p,), "the seat that played the top card, one-hot")
    layout.add("tokens", (p,), "Bokken tokens per seat")
    layout.add("history_safe", (ROUNDS, p), "per finished round, rank in its safe order")
    layout.add("history_teams", (ROUNDS, p, teams), "per finished round, each seat's team")
    return layout


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
        self.layout = _layout(p, len(game.team_sizes), self.pile_length)
        self.observation_shape = (self.layout.size,)
        self._decoded: dict[tuple[int, int], Any] = {}

    # ------------------------------------------------------------------ ids

    def _offset(self, seat: Any, player: int) -> int | None:
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
            return None
        if not 0 <= seat < self.num_players or seat == player:
            return None
        return int(seat - player) % self.num_players

    def _encode(self, move: Any) -> int | None:
        kind = type(move)
        p, player = self.num_players, move.player
        if kind is TimeOut:
            return self.time_out_id
        if kind is Boom:
            if move.next_leader is None:
                return self.boom_base + p - 1
            k = self._offset(move.next_leader, player)
            return None if k is None else self.boom_base + k - 1
        if kind is not Play:
            return None
        group = self._group_index.get(move.cards)
        if group is None:
            return None
        if move.target is None:
            ok = move.announce is None and move.knock is False
            return self.final_base + group if ok else None
        k = self._offset(move.target, player)
        if k is None or move.announce not in ANNOUNCEMENTS:
            return None
        a = ANNOUNCEMENTS.index(move.announce)
        if move.knock is False:
            return (group * (p - 1) + k - 1) * 2 + a
        cards = move.cards
        if move.knock is not True or not self.game.expert or len(cards) != 1 or cards[0][0] == "F":
            return None
        return self.knock_base + ((int(cards[0]) - 1) * (p - 1) + k - 1) * 2 + a

    def _decode(self, action_id: int, player: int) -> Any:
        key = (action_id, player)
        move = self._decoded.get(key)
        if move is None:
            move = self._decoded[key] = self._build(action_id, player)
        return move

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

    def tensor(self, state: Any, player: int) -> np.ndarray:
        """The observation tensor of seat ``player``, straight from ``state``."""
        cached = self._cached_tensor(state, player)
        if cached is not None:
            return cached
        player = self.check_seat(player)
        top = state.pile[-1] if state.pile else -1
        view = _View(
            observer=player,
            hand=state.hands[player],
            hand_sizes=state.hand_sizes,
            deck_size=len(state.deck),
            round=state.round,
            over=state.over,
            teams=state.teams,
            roles=state.roles,
            pile=state.pile,
            top=top,
            aside=state.aside,
            safe=state.safe,
            exploded=state.exploded,
            leader=state.leader,
            target=state.target,
            higher=state.higher,
            last_player=state.last_player,
            tokens=state.tokens,
            history=state.history,
        )
        return self._store_tensor(state, player, self._encode_view(view))

    def tensor_from_observation(self, observation: dict[str, Any]) -> np.ndarray:
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
        )
        return self._encode_view(view)

    def _encode_view(self, v: _View) -> np.ndarray:
        layout = self.layout
        at = layout.offset
        p, teams = self.num_players, len(self.game.team_sizes)
        out = np.zeros(layout.size, np.float32)
        rel = seat_order(v.observer, p)
        out[at["hand"] : at["hand"] + NUM_CODES] = v.hand
        out[at["hand_sizes"] + np.array(rel)] = v.hand_sizes
        out[at["tokens"] + np.array(rel)] = v.tokens
        index = [at["deck_size"], at["aside"], at["round"] + v.round - 1]
        value = [float(v.deck_size), float(v.aside), 1.0]
        if v.over:
            index.append(at["over"])
            value.append(1.0)
        for seat in range(p):
            index.append(at["teams"] + rel[seat] * teams + v.teams[seat])
            value.append(1.0)
            if v.roles:
                index.append(at["roles"] + rel[seat] * 3 + ROLES.index(v.roles[seat]))
                value.append(1.0)
        if v.pile:
            index.append(at["pile_top"] + v.top)
            value.append(1.0)
            pile_at = at["pile"]
            counts_at = at["pile_counts"]
            for position, code in enumerate(v.pile):
                index.append(pile_at + position)
                value.append(float(code))
            counts = out[counts_at : counts_at + NUM_CODES]
            np.add.at(counts, list(v.pile), 1.0)
        for rank, seat in enumerate(v.safe, 1):
            index.append(at["safe"] + rel[seat])
            value.append(float(rank))
        for rank, seat in enumerate(v.exploded, 1):
            index.append(at["exploded"] + rel[seat])
            value.append(float(rank))
        for name, seat in (("leader", v.leader), ("target", v.target), ("last", v.last_player)):
            if seat >= 0:
                index.append(at["last_player" if name == "last" else name] + rel[seat])
                value.append(1.0)
        if v.target >= 0:
            index.append(at["announce"] + int(v.higher))
            value.append(1.0)
        for r, (order, round_teams) in enumerate(v.history):
            for rank, seat in enumerate(order, 1):
                index.append(at["history_safe"] + r * p + rel[seat])
                value.append(float(rank))
            for seat in range(p):
                index.append(at["history_teams"] + (r * p + rel[seat]) * teams + round_teams[seat])
                value.append(1.0)
        out[index] = value
        return out


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
