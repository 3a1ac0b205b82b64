"""Text pictures of Living Forest positions.

``render_state`` draws the turn, the shared pieces, then one block per Spirit::

    Living Forest 2p · turn 3 · actions · seat 1 to move (attract, budget 4)
    centre fires [2, 3]  supply 2:18 3:19 4:18  varans 21  fragments 17
    reserve I   Bat Coati Horse Wolf          (stack 15)
    seat 0 *  rock 0  sun 3 water 1 plant 2 wind 0 flower 1  progress (1, 0, 2) ...
      line  Bear Lynx
      forest  . . . . .
              . . S . .
              . . . . .
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forestgames.living_forest._tables import (
    CARD_NAMES,
    ELEMENTS,
    LEVEL_NAMES,
    TREE_NAMES,
    VICTORY_KINDS,
)

if TYPE_CHECKING:
    from forestgames.living_forest.state import LivingForestState

__all__ = ["render_state"]


def _status(state: LivingForestState) -> str:
    head = f"Living Forest {state.num_players}p · turn {state.turn} · {state.phase.value}"
    if state.current_player is None:
        return f"{head}, winners {list(state.winners)}"
    head += f" · seat {state.current_player} to move"
    if state.phase.value == "actions" and state.step.value != "choose":
        head += f" ({state.step.value}"
        head += (
            f", budget {state.budget})" if state.step.value in ("attract", "extinguish") else ")"
        )
    return head


def render_state(state: LivingForestState) -> str:
    """The whole position as text: status, centre, reserve, then each Spirit."""
    supply = " ".join(f"{v}:{n}" for v, n in zip((2, 3, 4), state.fire_supply, strict=True))
    lines = [
        _status(state),
        f"centre fires {list(state.centre)}  supply {supply}  varans {state.varans}  "
        f"fragments {state.fragment_supply}",
    ]
    for level in (1, 2, 3):
        row = " ".join(state.reserve_row(level)) or "-"
        lines.append(
            f"reserve {LEVEL_NAMES[level]:<3} {row}  (stack {len(state.stacks[level - 1])})"
        )
    progress = state.progress
    for seat in range(state.num_players):
        mark = "*" if seat == state.sacred else " "
        totals = " ".join(
            f"{name} {x}" for name, x in zip(ELEMENTS, state.totals(seat), strict=True)
        )
        tiles = " ".join(
            f"{k}:{n}" for k, n in zip(VICTORY_KINDS, state.victory[seat], strict=True)
        )
        lines.append(
            f"seat {seat} {mark} rock {state.rocks[seat]}  {totals}  progress {progress[seat]}  "
            f"fragments {state.fragments[seat]}  fires held {sum(state.fires_held[seat])}  "
            f"victory {tiles}  deck {state.deck_size(seat)} discard {state.discard_size(seat)}"
        )
        lines.append(f"    line   {' '.join(state.help_line(seat)) or '-'}")
        if state.known[seat]:
            top = " ".join(CARD_NAMES[c] for c in state.decks[seat][: state.known[seat]])
            lines.append(f"    deck top (attracted, public) {top}")
        forest = state.forests[seat]
        for r in range(3):
            cells = [
                ("." if t < 0 else ("S" if t == 0 else TREE_NAMES[t]))
                for t in forest[r * 5 : r * 5 + 5]
            ]
            label = "forest" if r == 0 else ""
            lines.append(f"    {label:<6} " + " ".join(f"{c:>2}" for c in cells))
    return "\n".join(lines)
