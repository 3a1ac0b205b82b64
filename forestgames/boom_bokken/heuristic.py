"""Boom Bokken's agent heuristic: points so far, less a price per card still held.

Coins go to the seats that empty their hands first, so each card shed is a step
toward them. :func:`position_value` reads only public facts through the state's
documented properties (``scores``, ``hand_sizes``), so an agent may evaluate any
position with it without learning a hand, and it does not depend on how the state
stores its hands.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["CARD_WEIGHT", "position_value"]

CARD_WEIGHT = 0.5
"""Points a card in hand is estimated to cost."""


def position_value(state: Any) -> np.ndarray:
    """(P,): coins and Bokken tokens so far, less ``CARD_WEIGHT`` per card held."""
    sizes = state.hand_sizes
    return np.array(
        [s - CARD_WEIGHT * n for s, n in zip(state.scores, sizes, strict=True)], np.float64
    )
