"""The docs' tables as tests read them: size-table cells written the way the pages write
them, and tensors checked field by field against a layout table."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from forestgames.core import _by_count


def spaced(number: int) -> str:
    """``number`` with thousands set apart by a space, as the docs write it (23 340)."""
    return f"{number:,}".replace(",", " ")


def cell(values: Iterable[object]) -> str:
    """One value per configuration as ``a / b / c``, or one value if they are all the same
    (the specs tables' rule, numbers spaced)."""
    return _by_count(spaced(v) if isinstance(v, int) else v for v in values)


def players(options: dict[str, Any]) -> str:
    """A configuration's players cell: ``6 Expert (teams 2+2+2)``, or just the count."""
    label = str(options["num_players"])
    if options.get("expert"):
        label += " Expert"
    if "team_sizes" in options:
        label += " (teams {})".format("+".join(map(str, options["team_sizes"])))
    return label


def players_cell(configs: list[dict[str, Any]]) -> str:
    """The players column of a row whose configurations are ``configs``."""
    return " / ".join(players(options) for options in configs)


def one_hot(size: int, index: int | None) -> np.ndarray:
    """A docs table's one-hot field: ``size`` zeros with a 1 at ``index`` (none if None)."""
    row = np.zeros(size)
    if index is not None:
        row[index] = 1
    return row


def assert_tensor_fields(
    game: Any,
    state: Any,
    seat: int,
    docs_fields: Callable[[dict[str, Any]], dict[str, np.ndarray]],
    where: str,
) -> None:
    """Seat ``seat``'s tensor, and the one built from its observation, hold exactly the
    fields ``docs_fields(observation)`` writes from the docs' table, in the layout's order."""
    obs = state.observation(seat)
    fields, layout = docs_fields(obs), game.codec.layout
    assert list(fields) == list(layout.offset)
    for tensor in (state.observation_tensor(seat), game.codec.tensor_from_observation(obs)):
        assert sum(field.size for field in fields.values()) == tensor.size
        for name, expected in fields.items():
            np.testing.assert_array_equal(
                layout.field(tensor, name), expected, err_msg=f"{name} {where}"
            )
