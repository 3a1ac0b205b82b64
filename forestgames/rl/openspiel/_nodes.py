"""The OpenSpiel game tree of a forestgames game, without OpenSpiel.

A :class:`Node` is one node of the tree: a chance node (the first player, a
deal drawn one item at a time, who is offered the next reaction turn), a
decision of one seat, or the end. Nodes are immutable and share their engine
state and their game's read-only :class:`Table`, so cloning one is free;
``apply(action)`` returns the next node. (The table's root node, which every game
starts from, is read-only too; the other nodes' attributes are not guarded against
setting: one is made at every step, and guarding cost ~9% of a step.) The
OpenSpiel classes (``_spiel``) are a thin layer over this module, which the
tests also drive directly.

Reaction turns (Boom Bokken) follow the rules of ``forestgames.rl._turns``
(the PettingZoo and Gymnasium environments): after every move that leaves a
seat named, each other seat still in the round is offered one reaction turn,
whether or not it holds a card it could play: its actions are its out-of-turn
moves plus PASS (id ``num_actions``). The first reaction played is applied and
a new round of reactions starts from the new position; when all pass, the named
seat plays its own turn (no PASS then). The order of the reaction turns is
drawn by chance nodes, one seat at a time, uniformly among the seats not yet
offered (the environments shuffle the same seats with a seeded generator).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, cast

import numpy as np

from forestgames.core import (
    ForestGamesError,
    GameBase,
    IllegalMoveError,
    Sealed,
    StateError,
    check_seat,
    excerpt,
    make,
)
from forestgames.rl._turns import pass_notation
from forestgames.rl.openspiel._deals import Deal, deal_rules
from forestgames.rl.openspiel._params import check_utility

__all__ = ["DEAL", "DECIDE", "FIRST", "ORDER", "OVER", "Node", "Table", "table_for"]

FIRST, DEAL, ORDER, DECIDE, OVER = range(5)
"""Node kinds: chance (first player, a deal, the next reaction turn), a decision, the end."""

CHANCE, TERMINAL = -1, -4
"""OpenSpiel's player ids of chance nodes and of the end (pyspiel.PlayerId)."""
HEADER = 3
"""Flags before the game's tensor, after the deciding-seat one-hot: reaction, chance, over."""
PRIVATE = "(seat {} only) "
"""The mark of a public-history entry only its seat sees (a move the game calls private,
``game._private_move``, and the deal it brings): left out of the other seats' information
state strings, so they learn neither the move nor that it was made."""


class Table(Sealed):
    """What every node of one game (a game name and its options) shares. Read-only: one
    table serves every state of the game (:func:`table_for`), and a saved node names its
    game by the table's ``options_json``."""

    _read_only = "an OpenSpiel game's table is read-only"

    def __init__(self, name: str, options: dict[str, Any], utility: str) -> None:
        check_utility(utility)
        # A built-in game (OpenSpiel refuses others): a GameBase, with a codec.
        self.game = cast("GameBase[Any, Any]", make(name, **options))
        self.name = name
        self.options_json = _dump(self.game.options())
        """The game's options as JSON text (what a saved node holds)."""
        self.options: Mapping[str, Any] = _frozen(json.loads(self.options_json))
        """The same, read-only (lists as tuples)."""
        self.utility = utility
        self.codec = self.game.codec
        self.num_players: int = self.game.num_players
        self.rules = deal_rules(self.game)
        self.alphabet = self.rules.alphabet()
        self.item_ids = MappingProxyType({item: i for i, item in enumerate(self.alphabet)})
        self.reactions = bool(self.game.traits.out_of_turn)
        self.pass_id = self.codec.num_actions if self.reactions else -1
        self.num_distinct_actions: int = self.codec.num_actions + (1 if self.reactions else 0)
        self.max_chance_outcomes = max(self.num_players, len(self.alphabet))
        self.observation_size = int(np.prod(self.game.observation_shape))
        self.tensor_size = self.num_players + HEADER + self.observation_size
        self.initial = _shared_root(self)  # every game of the table starts from it
        self._seal()

    def __deepcopy__(self, memo: Any) -> Table:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles are the shared table of the game (built once)."""
        return (table_for, (self.name, self.options_json, self.utility))

    def max_game_length(self) -> int:
        """The most decisions a game can hold: every move, each after at most one reaction
        turn (a PASS) per other seat where reactions exist."""
        moves: int = self.game.traits.max_moves
        return moves * self.num_players if self.reactions else moves

    def utility_range(self) -> tuple[float, float]:
        if self.utility == "win":
            return -1.0, 1.0
        low, high = self.game.traits.score_range
        return float(low), float(high)


@functools.lru_cache(maxsize=64)
def table_for(name: str, options_json: str, utility: str) -> Table:
    """The table of game ``name`` with options (JSON text) and utility (cached)."""
    return Table(name, json.loads(options_json), utility)


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _frozen(value: Any) -> Any:
    """JSON data read-only: objects as read-only mappings, lists as tuples."""
    if isinstance(value, dict):
        return MappingProxyType({key: _frozen(item) for key, item in value.items()})
    if isinstance(value, list):
        return tuple(map(_frozen, value))
    return value


def _initial(table: Table) -> Node:
    node = Node(table, FIRST)
    return node.apply(0) if table.num_players == 1 else node


class Node:
    """One node of the game tree (immutable; see the module docstring).

    ``state`` is the engine position (None before the first deal is done; during a
    deal after a move, the position before that move). ``seat`` decides at a
    DECIDE node, on a reaction turn if ``reacting``; ``queue`` holds the seats not
    yet offered a reaction turn; ``public`` is the public history (every move, every
    PASS, the first player and the reaction turns drawn; a deal's items are not in it).
    """

    __slots__ = (
        "_legal",
        "_outcomes",
        "_strings",
        "deal",
        "kind",
        "player",
        "public",
        "queue",
        "reacting",
        "seat",
        "state",
        "table",
    )

    def __init__(
        self,
        table: Table,
        kind: int,
        state: Any = None,
        seat: int = -1,
        reacting: bool = False,
        queue: tuple[int, ...] = (),
        deal: Deal | None = None,
        public: tuple[str, ...] = (),
    ) -> None:
        self.table = table
        self.kind = kind
        self.state = state
        self.seat = seat
        self.reacting = reacting
        self.queue = queue
        self.deal = deal
        self.public = public
        # OpenSpiel's current player: the deciding seat, CHANCE or TERMINAL
        self.player = seat if kind == DECIDE else TERMINAL if kind == OVER else CHANCE
        self._legal: tuple[int, ...] | None = None
        self._outcomes: tuple[tuple[int, float], ...] | None = None
        self._strings: dict[tuple[bool, int], str] = {}

    def __deepcopy__(self, memo: Any) -> Node:
        return self

    def __copy__(self) -> Node:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (node_from_json, (self.to_json(),))

    # ------------------------------------------------------------------ whose turn

    @property
    def is_chance(self) -> bool:
        return self.kind in (FIRST, DEAL, ORDER)

    @property
    def is_over(self) -> bool:
        return self.kind == OVER

    def legal_actions(self) -> list[int]:
        """The deciding seat's action ids, sorted (PASS last on a reaction turn);
        the chance outcomes' ids at a chance node; none at the end. A new list: the
        node (shared by clones) keeps its own."""
        legal = self._legal
        if legal is None:
            if self.kind == DECIDE:
                ids = sorted(self.table.codec._legal_ids(self.state, self.seat))
                legal = tuple(ids + [self.table.pass_id] if self.reacting else ids)
            else:
                legal = tuple(action for action, _ in self.chance_outcomes())
            _put(self, "_legal", legal)
        return list(legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome id, probability) pairs, sorted by id (empty if not a chance node); a
        new list, as :meth:`legal_actions`."""
        outcomes = self._outcomes
        if outcomes is None:
            outcomes = tuple(self._chance_outcomes())
            _put(self, "_outcomes", outcomes)
        return list(outcomes)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self.kind == FIRST:
            return [(seat, 1.0 / self.table.num_players) for seat in range(self.table.num_players)]
        if self.kind == ORDER:
            return [(seat, 1.0 / len(self.queue)) for seat in self.queue]
        if self.kind == DEAL:
            assert self.deal is not None
            pool = self.deal.outcomes()
            total = sum(n for _, n in pool)
            ids = self.table.item_ids
            return sorted((ids[item], n / total) for item, n in pool)
        return []

    # ------------------------------------------------------------------ moving on

    def apply(self, action: int) -> Node:
        """The node after ``action`` (a decision's id or a chance outcome's id);
        IllegalMoveError if it is not one of ``legal_actions()``."""
        if self.kind == DECIDE:
            return self._decided(action)
        if self.kind == OVER:
            raise IllegalMoveError(f"the game is over: action {excerpt(action)} cannot be applied")
        if action not in self.legal_actions():
            raise IllegalMoveError(
                f"chance outcome {excerpt(action)} is not possible here; "
                f"possible: {self.legal_actions()}"
            )
        if self.kind == FIRST:
            return self._first(action)
        if self.kind == ORDER:
            queue = tuple(s for s in self.queue if s != action)
            public = (*self.public, f"reaction turn {action}")
            return self._with(DECIDE, self.state, action, True, queue, None, public)
        assert self.deal is not None
        return self._dealing(self.state, self.deal.pick(self.table.alphabet[action]), self.public)

    def _with(
        self,
        kind: int,
        state: Any,
        seat: int = -1,
        reacting: bool = False,
        queue: tuple[int, ...] = (),
        deal: Deal | None = None,
        public: tuple[str, ...] = (),
    ) -> Node:
        return Node(self.table, kind, state, seat, reacting, queue, deal, public)

    def _first(self, first_player: int) -> Node:
        public = (*self.public, f"first player {first_player}")
        state, deal = self.table.rules.setup(first_player)
        if deal is None:
            return self._settled(state, public)
        return self._dealing(None, deal, (*public, "deal: setup"))

    def _dealing(self, state: Any, deal: Deal, public: tuple[str, ...]) -> Node:
        """A deal under way at ``state`` (the position shown meanwhile), or its result."""
        if not deal.done:
            return self._with(DEAL, state, deal=deal, public=public)
        dealt = self.table.rules.dealt(deal)
        if deal.move is None:
            return self._settled(dealt, public)
        seat, action = deal.move
        return self._moved(dealt, seat, action, self.table.game.move_from_id(action, seat), public)

    def _decided(self, action: int) -> Node:
        table = self.table
        if self.reacting and action == table.pass_id:
            public = (*self.public, pass_notation(self.seat))
            if self.queue:
                return self._offer(self.state, self.queue, public)
            return self._with(DECIDE, self.state, self._current(self.state), public=public)
        move = self._move_of(action)
        if move is None:
            raise IllegalMoveError(
                f"action {excerpt(action)} is not legal for seat {self.seat} now "
                f"({'a reaction turn' if self.reacting else 'its turn'}); "
                f"legal: {self.legal_actions()}"
            )
        entry = _entry(self.table.game, self.state, move, str(move))
        return self._moved(self.state, self.seat, action, move, (*self.public, entry))

    def _moved(
        self, state: Any, seat: int, action: int, move: Any, public: tuple[str, ...]
    ) -> Node:
        after = state.apply(move)
        deal = self.table.rules.after_move(state, seat, action, after)
        if deal is None:
            return self._settled(after, public)
        entry = _entry(self.table.game, state, move, f"deal: {deal.kind}")
        return self._dealing(state, deal, (*public, entry))

    def _settled(self, state: Any, public: tuple[str, ...]) -> Node:
        """The node at a position with nothing left to deal: the end, reactions, or a turn."""
        if state.is_terminal:
            return self._with(OVER, state, public=public)
        if self.table.reactions:
            queue = tuple(sorted(self.table.codec.reaction_seats(state)))
            if queue:
                return self._offer(state, queue, public)
        return self._with(DECIDE, state, self._current(state), public=public)

    def _offer(self, state: Any, queue: tuple[int, ...], public: tuple[str, ...]) -> Node:
        if len(queue) == 1:
            return self._with(DECIDE, state, queue[0], True, (), public=public)
        return self._with(ORDER, state, queue=queue, public=public)

    @staticmethod
    def _current(state: Any) -> int:
        seat = state.current_player
        if seat is None:
            raise StateError("a position that is not over has no current player")
        return int(seat)

    def _move_of(self, action: int) -> Any:
        """The move of legal id ``action``: the very object of ``legal_moves`` (the engine
        checks it fastest); None if the id is not legal."""
        ids = self.table.codec._legal_ids(self.state, self.seat)
        try:
            return self.state.legal_moves(self.seat)[ids.index(action)]
        except ValueError:
            return None

    # ------------------------------------------------------------------ results

    def returns(self) -> list[float]:
        """Each seat's utility at the end (0 before): ``win``: +1 for a winner, -1 for
        every other seat; ``score``: the final scores."""
        table = self.table
        if self.kind != OVER:
            return [0.0] * table.num_players
        if table.utility == "score":
            return [float(s) for s in self.state.scores]
        winners = set(self.state.winners)
        return [1.0 if seat in winners else -1.0 for seat in range(table.num_players)]

    # ------------------------------------------------------------------ what a seat sees

    def header(self) -> str:
        """Whose turn it is, in words (public)."""
        if self.kind == FIRST:
            return "chance: the first player"
        if self.kind == DEAL:  # (not how many items are placed: that counts forced draws)
            assert self.deal is not None
            return f"chance: deal ({self.deal.kind})"
        if self.kind == ORDER:
            return f"chance: the next reaction turn, among seats {list(self.queue)}"
        if self.kind == OVER:
            return "game over"
        return f"seat {self.seat} to {'react or pass' if self.reacting else 'play'}"

    def view(self, player: int, info_state: bool) -> str:
        """``player``'s observation string (``info_state``: its information state string,
        the public history added, less the entries private to other seats). Built from
        ``state.observation(player)`` only."""
        key = (info_state, player)
        text = self._strings.get(key)
        if text is None:
            seen = (
                "nothing dealt yet" if self.state is None else _dump(self.state.observation(player))
            )
            header = self.header()
            if self.kind == DEAL and not _seen_by(self.public[-1], player):
                header = "chance"  # a deal of another seat's private move
            history = "; ".join(entry for entry in self.public if _seen_by(entry, player))
            parts = [header, history] if info_state else [header]
            text = self._strings[key] = "\n".join([*parts, seen])
        return text

    def write_tensor(
        self, player: int, turn: np.ndarray, flags: np.ndarray, seen: np.ndarray
    ) -> None:
        """Fill ``player``'s tensor: the deciding seat one-hot in observer order, the flags
        (reaction turn, chance node, game over), then the game's observation tensor."""
        table = self.table
        turn.fill(0.0)
        if self.kind == DECIDE:
            turn[(self.seat - player) % table.num_players] = 1.0
        flags[0] = float(self.reacting)
        flags[1] = float(self.is_chance)
        flags[2] = float(self.is_over)
        if self.state is None:
            seen.fill(0.0)
        else:
            seen[:] = self.state.observation_tensor(player)

    def action_string(self, player: int, action: int) -> str:
        """An action in words: the move's notation, ``S:pass``, or the chance outcome (player
        -1 at a chance node); IllegalMoveError for an id that is neither, or a player that
        is neither a seat nor chance (OpenSpiel passes both unchecked)."""
        if player >= 0:
            if action >= 0 and action == self.table.pass_id:
                seat = check_seat(self.table.num_players, player, "player", IllegalMoveError)
                return pass_notation(seat)
            return str(self.table.game.move_from_id(action, player))
        if player != CHANCE:
            raise IllegalMoveError(
                f"player {excerpt(player)} is neither a seat nor chance ({CHANCE}): "
                f"action {excerpt(action)} has no string"
            )
        if not self.is_chance:
            raise IllegalMoveError(
                f"{excerpt(action)} is not a chance outcome: this node is no chance node "
                f"({self.header()})"
            )
        if action not in self.legal_actions():
            raise IllegalMoveError(
                f"{excerpt(action)} is not a chance outcome of this node; "
                f"its outcomes: {excerpt(self.legal_actions())}"
            )
        if self.kind == FIRST:
            return f"first player {action}"
        if self.kind == ORDER:
            return f"reaction turn {action}"
        if self.kind == DEAL and 0 <= action < len(self.table.alphabet):
            assert self.deal is not None
            where = "+".join("/".join(map(str, path)) for path in self.deal.next_slot())
            return f"deal {where}: {json.loads(self.table.alphabet[action])}"
        return f"chance outcome {action}"

    def describe(self) -> str:
        """The node in text: whose turn, the last public event, and the full position."""
        last = self.public[-1] if self.public else "start"
        picture = "(nothing dealt yet)" if self.state is None else self.state.render()
        header = self.header()
        if self.deal is not None:  # the referee's view: how far the deal has come
            header += f", {len(self.deal.picks)} of {len(self.deal.slots)} placed"
        return f"{header} (after: {last})\n{picture}"

    # ------------------------------------------------------------------ sampling

    def resample(self, player: int, seed: int) -> Node:
        """A node ``player`` cannot tell from this one, the hidden part drawn afresh through
        ``state.determinize``; StateError during a deal (nothing to sample from yet)."""
        if self.kind == DEAL:
            raise StateError("resampling during a deal: apply the chance outcomes first")
        if self.state is None:
            return self
        state = self.state.determinize(player, seed)
        return self._with(self.kind, state, self.seat, self.reacting, self.queue, None, self.public)

    # ------------------------------------------------------------------ saving

    def to_json(self) -> str:
        """This node as JSON text: the game, the engine state's exact ``to_dict``, the rest."""
        table = self.table
        return _dump(
            {
                "game": table.name,
                "options": json.loads(table.options_json),
                "utility": table.utility,
                "kind": self.kind,
                "state": None if self.state is None else self.state.to_dict(),
                "seat": self.seat,
                "reacting": self.reacting,
                "queue": list(self.queue),
                "deal": None if self.deal is None else self.deal.to_json(),
                "public": list(self.public),
            }
        )


_put = object.__setattr__
"""Fills a node's cache (a :class:`_SharedNode` refuses ``setattr``)."""


class _SharedNode(Node, Sealed):
    """A table's root node (``table.initial``), which every game of the table starts from:
    read-only. Other nodes are shared by clones only, and left unguarded (one is made at
    every step: guarding cost ~9% of a step)."""

    __slots__ = ()
    _read_only = "an OpenSpiel game's root node is read-only"
    _sealed = True


def _shared_root(table: Table) -> Node:
    """The root node of ``table``'s games, read-only (a :class:`_SharedNode`)."""
    root = _initial(table)
    root.__class__ = _SharedNode  # the same slots: only the class, and so its guard, changes
    return root


def node_from_json(text: str) -> Node:
    """The node :meth:`Node.to_json` saved (its state through ``state_from_dict``);
    StateError if ``text`` is not one, or its parts do not fit together."""
    try:
        data = json.loads(text)
        table = table_for(data["game"], _dump(data["options"]), data["utility"])
        state = None if data["state"] is None else table.game.state_from_dict(data["state"])
        deal = None if data["deal"] is None else Deal.from_json(data["deal"])
        if deal is not None:
            deal.check(table.item_ids, table.num_players, table.codec.num_actions)
            table.rules.dealt(deal.completed())  # its position can be made
        node = Node(
            table,
            _one_of(data["kind"], range(OVER + 1), "kind"),
            state,
            _one_of(data["seat"], range(-1, table.num_players), "seat"),
            _one_of(data["reacting"], (False, True), "reacting"),
            tuple(_one_of(seat, range(table.num_players), "queue") for seat in data["queue"]),
            deal,
            tuple(_public_entry(entry) for entry in data["public"]),
        )
    except ForestGamesError:
        raise
    except (AttributeError, IndexError, KeyError, RecursionError, TypeError, ValueError):
        raise StateError(f"not a saved forestgames OpenSpiel node: {excerpt(text)}") from None
    _check_fit(node)
    return node


def _one_of(value: Any, allowed: Sequence[Any], what: str) -> Any:
    """``value`` if it is one of ``allowed``, of their type (ints and bools kept apart);
    StateError if not."""
    if type(value) is not type(allowed[0]) or value not in allowed:
        raise StateError(
            f"a saved node's {what} is not one of {excerpt(list(allowed))}: {excerpt(value)}"
        )
    return value


def _entry(game: Any, state: Any, move: Any, text: str) -> str:
    """``text``, the public-history entry of ``move`` made in ``state``, marked ``PRIVATE``
    to its seat if the game keeps the move from the other seats."""
    if game._private_move(state, move):
        return PRIVATE.format(move.player) + text
    return text


def _seen_by(entry: str, player: int) -> bool:
    """Whether ``player`` sees public-history ``entry`` (every entry but another seat's
    private ones)."""
    return not entry.startswith("(seat ") or entry.startswith(PRIVATE.format(player))


def _public_entry(entry: Any) -> str:
    if type(entry) is not str:
        raise StateError(f"a saved node's public history holds text only, not {excerpt(entry)}")
    return entry


_PARTS: dict[int, tuple[str, Callable[[Node], bool]]] = {
    FIRST: (
        "no position, deal or queue",
        lambda n: n.state is None and n.deal is None and not n.queue,
    ),
    DEAL: ("a deal", lambda n: n.deal is not None),
    ORDER: (
        "a position and at least two seats queued, no deal",
        lambda n: n.state is not None and len(n.queue) >= 2 and n.deal is None,
    ),
    DECIDE: ("no deal", lambda n: n.deal is None),
    OVER: ("no deal", lambda n: n.deal is None),
}
"""What a saved node of each kind holds: in words, and as a test of a node."""


def _check_fit(node: Node) -> None:
    """A saved node's kind and seat against its position: the parts its kind needs, the
    end exactly at a finished game, a decision for a seat with a move (or a reaction turn,
    where it may pass), reaction seats queued once and not the deciding one."""
    needs, holds = _PARTS[node.kind]
    if not holds(node):
        raise StateError(f"a saved node of its kind needs {needs}")
    if len(set(node.queue)) != len(node.queue) or node.seat in node.queue:
        raise StateError(f"a saved node's queue repeats a seat: {list(node.queue)}")
    state = node.state
    over = state is not None and state.is_terminal
    if (node.kind == OVER) != over:
        raise StateError(
            "a saved node's kind does not fit its position (the end exactly when over)"
        )
    if node.kind == DECIDE and (
        state is None or node.seat < 0 or not (node.reacting or state.legal_moves(node.seat))
    ):
        raise StateError(f"a saved node's seat {node.seat} has no decision in its position")
    _check_turn(node)


def _check_turn(node: Node) -> None:
    """A saved decision's seat and reaction queue against its position: a turn (no reaction)
    is the current player's; a reaction turn is a decision's, a queue a reaction turn's or
    the next reaction turn's, and the seats they name are among those the position offers
    reaction turns to (none in a game without reactions)."""
    state = node.state
    if node.kind == DECIDE and not node.reacting and node.seat != state.current_player:
        raise StateError(
            f"a saved node's seat {node.seat} is not the seat to play in its position "
            f"({state.current_player})"
        )
    if not (node.reacting or node.queue):
        return
    if node.kind not in (ORDER, DECIDE) or (node.kind == DECIDE) != node.reacting:
        raise StateError("a saved node's reaction turn or queue does not fit its kind")
    table = node.table
    offered = set(table.codec.reaction_seats(state)) if table.reactions else set()
    waiting = {*node.queue, *([node.seat] if node.reacting else [])}
    if not waiting <= offered:
        raise StateError(
            f"a saved node's reaction turn or queue names seats {sorted(waiting)}; its "
            f"position offers reaction turns to {sorted(offered)}"
        )
