"""Cells of the docs' size tables, written the way the pages write them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

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
