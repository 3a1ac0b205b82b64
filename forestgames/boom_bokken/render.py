"""Text pictures of Boom Bokken positions.

``render_state`` shows the round, the pile and the announcement, then one line
per seat::

    Boom Bokken 4p · round 1 · seat 2 named: higher than 5 (played by seat 0)
    pile 3 5 · deck 40 · tokens [1, 0, 0, 0] · scores [2, 0, 0, 0]
    seat 0  team 0          in     5 cards  1 3 4 6 7 F2 T
    seat 1  team 1  gardien safe 1st
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forestgames.boom_bokken.state import BoomBokkenState

__all__ = ["render_state"]

_PLACES = ("1st", "2nd", "3rd") + tuple(f"{k}th" for k in range(4, 10))


def _status(state: BoomBokkenState) -> str:
    game = state.game
    head = (
        f"Boom Bokken {game.num_players}p{' expert' if game.expert else ''} · round {state.round}"
    )
    if state.over:
        return f"{head} · over, winners {list(state.winners)}"
    if state.target >= 0:
        return (
            f"{head} · seat {state.target} named: {state.announcement} than "
            f"{state.top_card} (played by seat {state.last_player})"
        )
    return f"{head} · seat {state.leader} leads"


def render_state(state: BoomBokkenState) -> str:
    """The whole position as text, every hand shown (use ``observation`` for one seat's view)."""
    lines = [
        _status(state),
        f"pile {' '.join(state.pile_cards) or '-'} · deck {state.deck_size}"
        f"{f' · aside {state.aside}' if state.aside else ''} · tokens {list(state.tokens)}"
        f" · scores {list(state.scores)}",
    ]
    for seat in range(state.game.num_players):
        role = state.roles[seat] if state.roles else ""
        if seat in state.safe:
            where = f"safe {_PLACES[state.safe.index(seat)]}"
        elif seat in state.exploded:
            where = "exploded"
        else:
            where = "in"
        cards = " ".join(state.hand(seat))
        lines.append(
            f"seat {seat}  team {state.teams[seat]}  {role:<7} {where:<9} "
            f"{len(state.hand(seat))} cards  {cards}"
        )
    return "\n".join(lines)
