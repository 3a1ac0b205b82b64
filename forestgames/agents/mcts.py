"""Monte Carlo tree search (information-set UCT) with an iteration or a time budget.

Each iteration samples a full state consistent with what the searching seat
may see (``state.determinize(seat, seed)``: the state itself in games without
hidden information), walks down the tree by UCB1 among the moves legal in that
sample (a move not legal in every sample is weighed by how often it was
available), expands one untried move (near the root the best by the game's
heuristic margin first, as Greedy ranks them), plays on with random moves for
at most ``rollout_limit`` moves and backs up each seat's reward: its share of
the win if the game ended, else a reward from the game's position value (see
:func:`cutoff_rewards`: a logistic function of the seat's lead, centred on its
lead where the search started). Seats act in the tree as in the driver's main line
(``players_to_act[0]``); in playouts every seat that may act is picked at random.

Between two decisions of one game the agent keeps the part of its tree that
the moves played since lead to (when it finds them among its tree's moves, and
its seat saw them made), so the search goes on where it left off.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from forestgames.agents.base import SeededAgent, _finite_array, acting_seat, no_move_error
from forestgames.agents.greedy import _greedy_reaction as greedy_reaction  # unchecked
from forestgames.agents.greedy import _margins as margins  # unchecked
from forestgames.agents.heuristics import _evaluate_moves as evaluate_moves  # unchecked
from forestgames.agents.heuristics import _position_value as position_value  # unchecked
from forestgames.agents.heuristics import chance_outcomes
from forestgames.core import ConfigError, as_bool, as_int, as_number
from forestgames.core import _hidden_from as hidden_from  # unchecked

__all__ = [
    "DEFAULT_EXPLORATION",
    "DEFAULT_ITERATIONS",
    "DEFAULT_ROLLOUT_LIMIT",
    "MCTSAgent",
    "cutoff_rewards",
    "default_iterations",
    "leads",
]

DEFAULT_ITERATIONS = 400
"""Iterations a decision when neither ``iterations`` nor ``time_per_move`` is given, in a
game without a ``search_iterations`` of its own (see :func:`default_iterations`)."""
DEFAULT_ROLLOUT_LIMIT = 12
"""Random moves a playout makes before the position value scores it."""
DEFAULT_EXPLORATION = 0.7
"""UCB1's exploration constant."""
PRIOR_DEPTH = 2
"""Nodes this close to the root try their moves in the heuristic's order; deeper, at random."""
PRIOR_VISITS = 4
"""A move ordered by the heuristic starts with this many virtual visits at the reward the
heuristic's estimate gives (so a small search starts from Greedy's opinion)."""
CUTOFF_SHARPNESS = 8.0
"""How sharply a lead in position value turns into a reward at a cut playout."""
MAX_EXPONENT = 700.0
"""The largest exponent a cut playout's logistic takes: a lead far behind the root's would
overflow ``exp`` (OverflowError); its reward is about 1e-304 instead."""
WIDENING = 2.0
"""Progressive widening: a node visited n times has at most ``1 + WIDENING * sqrt(n)``
children, tried best first (near the root) or at random (deeper), so a wide node does not
spread a small budget over moves that all look alike."""
REUSE_SEARCH = 64
"""At most this many tree moves are tried to find the new position in the old tree."""
DEFAULT_CONFIDENCE = 1.0
"""How sure the search must be (in standard errors) that its most visited move beats the
heuristic's best before it plays it instead (0: always play the most visited move)."""

_Rewards = list[float]
_SMALLEST_SCALE = CUTOFF_SHARPNESS / sys.float_info.max
"""A scale below this (a subnormal one) would make the logistic's sharpness infinite, and a
tie's reward NaN (infinity times 0); such scales are raised to it."""


class _Node:
    """Statistics of one move sequence from the root.

    ``children`` maps moves to nodes; ``seen`` and ``kids`` cache the last
    legal-move tuple met here and the child of each of its moves (None if not
    tried), so a node whose moves are the same each visit (every node of a game
    without hidden information) is walked without hashing a move.
    """

    __slots__ = (
        "available",
        "children",
        "depth",
        "kids",
        "order",
        "outcomes",
        "prior",
        "priority",
        "reward",
        "seat",
        "seen",
        "visits",
    )  # fmt: skip

    def __init__(self, seat: int, depth: int) -> None:
        self.seat = seat  # the seat that made the move leading here
        self.depth = depth
        self.children: dict[Any, _Node] = {}
        self.priority: dict[Any, float] = {}  # expansion priority of the moves met here
        self.prior: dict[Any, list[float]] = {}  # the heuristic's rewards per seat, by move
        self.order: list[int] | None = None  # untried indices into ``seen``, best last
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.seen: tuple[Any, ...] = ()
        self.kids: list[_Node | None] = []
        self.outcomes: dict[Any, _Node] | None = None  # after a chance move: by its outcome

    def after(self, outcome: Any) -> _Node:
        """The node of ``outcome`` of this node's chance move (new the first time)."""
        outcomes = self.outcomes
        if outcomes is None:
            outcomes = self.outcomes = {}
        node = outcomes.get(outcome)
        if node is None:
            node = outcomes[outcome] = _Node(self.seat, self.depth)
        return node

    def kids_of(self, moves: tuple[Any, ...]) -> list[_Node | None]:
        """The child of each of ``moves`` (None where untried), aligned with them."""
        if moves != self.seen:
            children = self.children
            self.seen, self.order = moves, None
            self.kids = [children.get(m) for m in moves] if children else [None] * len(moves)
        return self.kids


def leads(values: Sequence[float] | np.ndarray) -> list[float]:
    """Each seat's value minus the best other seat's (0 for a single seat). ConfigError if
    ``values`` is not a sequence of finite numbers, one per seat."""
    return _leads(_finite_array(values, "values", 1).tolist())


def _leads(values: Sequence[float] | np.ndarray) -> list[float]:
    """:func:`leads` unchecked (the search calls it on its own position values)."""
    v = [float(x) for x in values]
    if len(v) == 1:
        return [0.0]
    top = max(range(len(v)), key=v.__getitem__)
    best = v[top]
    second = max(x for k, x in enumerate(v) if k != top)
    return [x - (second if k == top else best) for k, x in enumerate(v)]


def cutoff_rewards(
    values: Sequence[float] | np.ndarray,
    centre: Sequence[float] | None = None,
    scale: float | None = None,
) -> _Rewards:
    """Rewards in [0, 1] for a playout cut short, from each seat's position value.

    A seat's reward is a logistic function of its lead over the best other seat
    (:func:`leads`), less ``centre`` (its lead at the root of the search: the
    reward is 0.5 where the search started, so its resolution is where the
    choices are), divided by ``scale`` (default: the largest value's size, so
    that the reward is the same for points in the tens or in the hundreds).
    ConfigError if ``values`` is not finite numbers, one per seat, ``centre`` not
    one finite number per seat or ``scale`` not a number above 0.
    """
    array = _finite_array(values, "values", 1)
    if centre is not None:
        centre = _finite_array(centre, "centre", 1).tolist()
        if len(centre) != len(array):
            raise ConfigError(
                f"centre must have one lead per seat ({len(array)}), not {len(centre)}"
            )
    if scale is not None:
        scale = as_number(scale, "scale", 0.0, strict=True)
    else:
        scale = float(np.abs(array).max()) or 1.0
    return _cutoff_rewards(array.tolist(), centre, max(scale, _SMALLEST_SCALE))


def _cutoff_rewards(
    values: Sequence[float] | np.ndarray,
    centre: Sequence[float] | None = None,
    scale: float | None = None,
) -> _Rewards:
    """:func:`cutoff_rewards` unchecked (the search calls it in every cut playout)."""
    lead = _leads(values)
    if len(lead) == 1:
        return [1.0]
    if scale is None:
        scale = max(abs(float(x)) for x in values) or 1.0
    sharpness = CUTOFF_SHARPNESS / scale
    centre = centre or [0.0] * len(lead)
    exp = math.exp
    return [
        1.0 / (1.0 + exp(min(-sharpness * (x - c), MAX_EXPONENT)))
        for x, c in zip(lead, centre, strict=True)
    ]


def _all_rewards(
    values: np.ndarray, centre: Sequence[float] | None, scale: float | None
) -> list[list[float]]:
    """:func:`cutoff_rewards` of every row of ``values`` (M, P), at once."""
    m, p = values.shape
    if p == 1:
        return [[1.0]] * m
    order = np.sort(values, axis=1)
    best, second = order[:, -1:], order[:, -2:-1]
    lead = values - np.where(values == best, second, best)
    lead -= np.zeros(p) if centre is None else np.asarray(centre)
    if scale is None:
        size = np.abs(values).max(axis=1, keepdims=True)
        size[size == 0] = 1.0
    else:
        size = np.full((m, 1), scale)
    exponent = np.minimum(-CUTOFF_SHARPNESS * lead / size, MAX_EXPONENT)
    return (1.0 / (1.0 + np.exp(exponent))).tolist()  # type: ignore[no-any-return]


def _width(visits: int) -> int:
    """How many children a node visited ``visits`` times may have (progressive widening)."""
    return 1 + int(WIDENING * math.sqrt(visits))


def default_iterations(game: Any) -> int:
    """The iterations a decision of the default budget: the game's ``search_iterations``
    (chosen so that a decision takes well under a second), else ``DEFAULT_ITERATIONS``."""
    return int(getattr(game, "search_iterations", DEFAULT_ITERATIONS))


def _variance(node: _Node) -> float:
    """The variance of a node's mean reward, bounded as for rewards in [0, 1]."""
    mean = node.reward / node.visits
    return max(mean * (1.0 - mean), 0.01) / node.visits


def _win_shares(state: Any) -> _Rewards:
    rewards = [0.0] * state.game.num_players
    winners = state.winners
    for winner in winners:
        rewards[winner] = 1.0 / len(winners)
    return rewards


class MCTSAgent(SeededAgent):
    """Information-set UCT (see the module doc); forced moves are played at once.

    Budget: ``iterations`` a decision, or as many as ``time_per_move`` seconds
    allow, or the first of the two reached when both are given; neither gives
    the game's default (:func:`default_iterations`). An iteration budget is
    reproducible from the seed alone; a time budget depends on the machine's speed.

    ``rollout_limit``: random moves a playout makes before it is scored by the
    game's position value (``None``: play to the end; ``0``: score the new leaf
    at once). ``exploration``: UCB1's constant. ``reuse_tree``: keep the
    subtree of the position reached between two decisions.
    """

    _centre: list[float] | None = None  # each seat's lead at the root of the search
    _scale: float | None = None  # the size of the values at the root
    _outcome_of: Any = None  # the game's chance_outcome hook, None if it has none

    def __init__(
        self,
        iterations: int | None = None,
        seed: int | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        rollout_limit: int | None = DEFAULT_ROLLOUT_LIMIT,
        time_per_move: float | None = None,
        reuse_tree: bool = True,
        confidence: float = DEFAULT_CONFIDENCE,
    ) -> None:
        super().__init__(seed)
        self.iterations = _checked_count("iterations", iterations, low=1)
        self.rollout_limit = _checked_count("rollout_limit", rollout_limit, low=0)
        self.time_per_move = _checked_seconds(time_per_move)
        self.exploration = as_number(exploration, "exploration", 0)
        self.confidence = as_number(confidence, "confidence", 0)
        self.reuse_tree = as_bool(reuse_tree, "reuse_tree")
        self.name = self._spec_name()
        self._kept: tuple[Any, _Node] | None = None  # (position after our move, its node)
        self._searching: dict[str, tuple[int, object]] = {}  # the search's thread, a token

    def __getstate__(self) -> dict[str, Any]:
        """Copies and pickles are searching in no thread (a copy made while the agent
        searched, or a shallow one sharing its claim, refused every search), and hold no
        chance-outcome hook (a closure, which pickle cannot write; each search looks it up)."""
        state = dict(self.__dict__)
        state["_searching"] = {}
        state.pop("_outcome_of", None)
        return state

    def _spec_name(self) -> str:
        """The spec that rebuilds this agent: ``mcts``, ``mcts:N``, ``mcts:N:L`` or keys."""
        n, limit = self.iterations, self.rollout_limit
        plain = self.time_per_move is None and limit is not None and not self._tuned()
        if plain and limit == DEFAULT_ROLLOUT_LIMIT:
            return "mcts" if n is None else f"mcts:{n}"
        if plain and n is not None:
            return f"mcts:{n}:{limit}"
        parts = ["mcts"]
        if self.time_per_move is not None:
            parts.append(f"t={_spec_number(self.time_per_move)}")
        if n is not None:
            parts.append(f"n={n}")
        if limit != DEFAULT_ROLLOUT_LIMIT:
            parts.append(f"l={'none' if limit is None else limit}")
        return ":".join(parts + self._tuned())

    def _tuned(self) -> list[str]:
        """The spec items of the settings other than the budget that are not the defaults."""
        items = []
        if self.exploration != DEFAULT_EXPLORATION:
            items.append(f"c={_spec_number(self.exploration)}")
        if self.confidence != DEFAULT_CONFIDENCE:
            items.append(f"z={_spec_number(self.confidence)}")
        if not self.reuse_tree:
            items.append("reuse=0")
        return items

    def settings(self) -> dict[str, Any]:
        """Constructor keywords (other than ``seed``) that rebuild this agent."""
        return {
            "iterations": self.iterations,
            "exploration": self.exploration,
            "rollout_limit": self.rollout_limit,
            "time_per_move": self.time_per_move,
            "reuse_tree": self.reuse_tree,
            "confidence": self.confidence,
        }

    # ------------------------------------------------------------------ deciding

    def choose(self, state: Any) -> Any:
        """The move whose subtree the search visited most (determinized for hidden cards)."""
        seat = acting_seat(state)
        moves = state.legal_moves(seat)
        if len(moves) == 1:
            return moves[0]
        claims = self.__dict__.setdefault("_searching", {})  # (an agent pickled without it)
        mine = (threading.get_ident(), object())
        owner = claims.setdefault("search", mine)  # one step: atomic
        if owner[0] != mine[0]:
            raise ConfigError(
                f"this {self.name} agent is searching in another thread: an agent keeps its "
                "search and tree between moves, so give each thread its own"
            )
        try:
            root = self._root_for(state)
            self.search(state, seat, root)
            best = self._decision(root, state, seat, moves)
            self._keep(state, root, best)
            return best
        finally:
            if owner is mine:  # the outermost choose of this thread releases it
                claims.clear()

    def react(self, state: Any, player: int) -> Any | None:
        """Out of turn (Boom Bokken's Flash, Temps Mort, a Gardien's answer) MCTS plays as
        Greedy does: its best reaction by the heuristic's margin if that beats passing.
        Reactions are not searched: every seat may react after every move, and a search
        for each would multiply the cost of a game by the number of seats."""
        return greedy_reaction(state, player, self.rng)

    def _decision(self, root: _Node, state: Any, seat: int, moves: tuple[Any, ...]) -> Any:
        """The most visited root move legal in the real state, unless the heuristic's best
        move (Greedy's) is within ``confidence`` standard errors of it: that move then."""
        children = root.children
        best = max(moves, key=lambda m: children[m].visits if m in children else -1)
        if not self.confidence:
            return best
        favourite = moves[int(np.argmax(margins(evaluate_moves(state, moves), seat)))]
        if favourite == best or favourite not in children:
            return best
        a, b = children[best], children[favourite]
        gap = a.reward / a.visits - b.reward / b.visits
        return best if gap > self.confidence * math.sqrt(_variance(a) + _variance(b)) else favourite

    def search(self, state: Any, seat: int, root: _Node) -> int:
        """Run the budget's iterations from ``state`` into ``root``; return how many ran."""
        deadline = None if self.time_per_move is None else time.perf_counter() + self.time_per_move
        self._outcome_of = chance_outcomes(state.game)
        seat_view = getattr(state.game, "_seat_view", None)  # not the real state: it may hold
        # what the seat has not seen (Living Forest's simultaneous Guardian phase)
        now = position_value(state if seat_view is None else seat_view(state, seat))
        self._centre = _leads(now)
        self._scale = max(float(np.abs(now).max()) or 1.0, _SMALLEST_SCALE)
        limit = self.iterations
        if limit is None and deadline is None:
            limit = default_iterations(state.game)
        done = 0
        while limit is None or done < limit:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            sample = state.determinize(seat, self.rng.randrange(2**63))
            self._iterate(root, sample)
            done += 1
        return done

    def _iterate(self, root: _Node, state: Any) -> None:
        path = [root]
        node = root
        outcome_of = self._outcome_of
        while not state.is_terminal:
            seats = state.players_to_act
            if not seats:
                raise no_move_error(state, None)
            seat = seats[0]
            moves = state.legal_moves(seat)
            if not moves:
                raise no_move_error(state, seat)
            kids = node.kids_of(moves)
            for kid in kids:
                if kid is not None:
                    kid.available += 1
            untried = kids.count(None)
            expand = untried and (untried == len(kids) or len(kids) - untried < _width(node.visits))
            if expand:
                index = self._untried(node, seat, state, moves, kids)
                child = _Node(seat, node.depth + 1)
                child.available = 1
                prior = node.prior.get(moves[index])
                if prior is not None:
                    child.visits = PRIOR_VISITS
                    child.reward = PRIOR_VISITS * prior[seat]
                node.children[moves[index]] = kids[index] = child
            else:
                index = self._select(kids)
                child = kids[index]  # type: ignore[assignment]
            move = moves[index]
            after = state.apply(move)
            path.append(child)
            if outcome_of is not None:
                outcome = outcome_of(state, move, after)
                if outcome is not None:
                    child = child.after(outcome)
                    path.append(child)
            state, node = after, child
            if expand:
                if prior is not None and self.rollout_limit == 0:
                    self._backup(path, prior)  # the evaluator's estimate is the leaf's value
                    return
                break
        self._backup(path, self._rollout(state))

    @staticmethod
    def _backup(path: list[_Node], rewards: Sequence[float]) -> None:
        for visited in path:
            visited.visits += 1
            visited.reward += rewards[visited.seat]

    def _untried(
        self, node: _Node, seat: int, state: Any, moves: tuple[Any, ...], kids: list[Any]
    ) -> int:
        """The index of the untried move to expand next.

        Near the root the heuristic's best margin goes first; deeper nodes take
        their untried moves in a random order (drawn once per node and move).
        """
        order = node.order
        if order is None:
            order = node.order = self._expansion_order(node, seat, state, moves, kids)
        return order.pop()

    def _expansion_order(
        self, node: _Node, seat: int, state: Any, moves: tuple[Any, ...], kids: list[Any]
    ) -> list[int]:
        """The untried indices of ``moves``, the one to expand first last."""
        priority = node.priority
        fresh = [k for k, kid in enumerate(kids) if kid is None]
        unknown = [moves[k] for k in fresh if moves[k] not in priority]
        if unknown:
            rng = self.rng
            if node.depth < PRIOR_DEPTH:
                values = evaluate_moves(state, unknown)
                gains = margins(values, seat).tolist()
                priority.update(
                    (m, g + rng.random() * 1e-6) for m, g in zip(unknown, gains, strict=True)
                )
                if PRIOR_VISITS:
                    rewards = _all_rewards(values, self._centre, self._scale)
                    node.prior.update(zip(unknown, rewards, strict=True))
            else:
                priority.update((m, rng.random()) for m in unknown)
        return sorted(fresh, key=lambda k: priority[moves[k]])

    def _select(self, kids: list[Any]) -> int:
        """The index of the child with the best UCB1 value."""
        c, log, sqrt = self.exploration, math.log, math.sqrt
        best, best_value = 0, -math.inf
        for index, kid in enumerate(kids):
            if kid is None:
                continue
            visits = kid.visits
            value = kid.reward / visits + c * sqrt(log(kid.available) / visits)
            if value > best_value:
                best, best_value = index, value
        return best

    def _rollout(self, state: Any) -> _Rewards:
        rng, steps, limit = self.rng, 0, self.rollout_limit
        while not state.is_terminal and steps != limit:
            seats = state.players_to_act
            if not seats:
                raise no_move_error(state, None)
            seat = seats[0] if len(seats) == 1 else seats[rng.randrange(len(seats))]
            moves = state.legal_moves(seat)
            if not moves:
                raise no_move_error(state, seat)
            state = state.apply(moves[rng.randrange(len(moves))])
            steps += 1
        if state.is_terminal:
            return _win_shares(state)
        return _cutoff_rewards(position_value(state), self._centre, self._scale)

    # ------------------------------------------------------------------ keeping the tree

    def _root_for(self, state: Any) -> _Node:
        """The kept node of ``state`` (its subtree searched before), or a new root. With
        hidden information only the seat that grew the tree reuses it: its samples held
        that seat's own hidden cards, which one agent playing two seats must not search
        the other seat's decision from."""
        seat = acting_seat(state)
        kept, self._kept = self._kept, None
        if kept is not None and kept[1].seat != seat and state.game.traits.hidden_information:
            kept = None
        if self.reuse_tree and kept is not None:
            node = _find(kept[0], kept[1], state, seat)
            if node is not None:
                node.depth = 0
                _renumber(node)
                return node
        return _Node(seat, 0)

    def _keep(self, state: Any, root: _Node, move: Any) -> None:
        if not self.reuse_tree or move not in root.children:
            return
        self._kept = (state.apply(move), root.children[move])


def _find(start: Any, node: _Node, target: Any, seat: int | None = None) -> _Node | None:
    """The node of ``target`` below ``node`` (whose position is ``start``), following the
    tree's most visited moves that are legal in the real positions (and the outcomes they
    had there); None if not found. Another seat's move that ``seat`` does not see (the
    game's ``_private_move``) is not followed: which one was made is hidden from it."""
    outcome_of = chance_outcomes(start.game)
    frontier = [(start, node)]
    tried = 0
    while frontier:  # once the budget is spent, the positions reached are still compared
        position, here = frontier.pop(0)
        if position == target:
            return here
        if position.is_terminal or tried == REUSE_SEARCH:
            continue
        legal = _seen_moves(position, seat)
        for move, child in sorted(here.children.items(), key=lambda kv: -kv[1].visits):
            if tried == REUSE_SEARCH:
                break
            if move not in legal:
                continue
            tried += 1
            after = position.apply(move)
            outcome = None if outcome_of is None else outcome_of(position, move, after)
            found: _Node | None = child
            if outcome is not None:
                found = (child.outcomes or {}).get(outcome)
            if found is not None:
                frontier.append((after, found))
    return None


def _seen_moves(position: Any, seat: int | None) -> set[Any]:
    """The legal moves of the seat to act in ``position`` that ``seat`` would see made: all
    of them, but another seat's moves the game keeps from it (``hidden_from``)."""
    mover = position.players_to_act[0]
    legal = position.legal_moves(mover)
    if seat is None or mover == seat:
        return set(legal)
    return {move for move in legal if not hidden_from(position.game, position, move, seat)}


def _renumber(root: _Node) -> None:
    """Set every node's depth below a new root (a kept subtree starts at depth 0)."""
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.children.values():
            child.depth = node.depth + 1
            stack.append(child)
            for outcome in (child.outcomes or {}).values():
                outcome.depth = child.depth
                stack.append(outcome)


# --------------------------------------------------------------------------- argument checks


def _spec_number(value: float) -> str:
    """``value`` as a spec writes it: short (``0.5``, ``1e-05``) where that reads back as
    ``value``, else every digit (a name must rebuild its agent, and name its run)."""
    short = f"{value:g}"
    return short if float(short) == value else repr(value)


def _checked_count(what: str, value: Any, low: int) -> int | None:
    """A count setting: None, or an int >= ``low`` (ConfigError otherwise)."""
    return None if value is None else as_int(value, what, low)


def _checked_seconds(value: Any) -> float | None:
    """A time setting: None, or a finite number of seconds > 0 (ConfigError otherwise)."""
    return None if value is None else as_number(value, "time_per_move", 0, strict=True)
