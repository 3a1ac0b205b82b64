"""A game's options as OpenSpiel game parameters, and back.

OpenSpiel parameters are bools, ints, floats and strings with one default each.
``players`` is ``num_players``; every other option of ``game.options()`` keeps
its name. A list option (``team_sizes``, ``fire_tiles``) is a string of
space-separated ints (``"2 2 3"``; OpenSpiel's game strings split on commas).
An option whose default depends on other options (Bonsai's ``goal_setup``,
Boom Bokken's ``team_sizes`` on the player count, its ``spent_time_outs`` on
``expert``) is a string whose default ``""`` means "the game's default".
``utility`` (``"win"`` or ``"score"``) is ours. Options that are not plain
values (Bosk's ``terrain`` board, Boom Bokken's ``deck`` mapping) are not offered.
"""

from __future__ import annotations

import functools
from typing import Any

from forestgames.core import ConfigError, excerpt, make, registered_games

__all__ = ["game_parameters", "options_from_parameters", "parameter_spec", "short_name"]


def short_name(name: str) -> str:
    """The OpenSpiel name of forestgames game ``name``: ``forestgames_<name>``."""
    return f"forestgames_{name}"


GAME_DEFAULT = ""
"""The value of a string parameter that leaves the option to the game's default."""


def parameter_spec(name: str) -> tuple[dict[str, Any], dict[str, str]]:
    """(OpenSpiel parameter defaults, each option's kind: bool, int, str or list) of game
    ``name``; ConfigError if there is no such game."""
    if not isinstance(name, str):  # (an unhashable name would break the cache)
        raise ConfigError(f"unknown game {excerpt(name)}: a game's name is a string")
    from forestgames import GAME_NAMES

    if name not in GAME_NAMES:
        if name not in registered_games():
            make(name)  # make's unknown-game error (no factory runs)
        raise ConfigError(
            f"{name} has no OpenSpiel game: OpenSpiel games exist for the built-in games "
            f"{', '.join(GAME_NAMES)} only"
        )
    return _parameter_spec(name)


@functools.lru_cache(maxsize=8)
def _parameter_spec(name: str) -> tuple[dict[str, Any], dict[str, str]]:
    game = make(name)
    low, high = game.traits.min_players, game.traits.max_players
    per_count = [make(name, num_players=p).options() for p in range(low, high + 1)]
    derived = set()  # options whose default is computed from the others
    for option in getattr(type(game), "OPTIONS", ()):
        if callable(option.default):
            derived.add(option.name)
        elif option.name not in per_count[0]:  # a default left out of options(): its JSON
            value = option.to_json(option.default)
            per_count = [{**options, option.name: value} for options in per_count]
    defaults: dict[str, Any] = {"players": game.num_players}
    kinds: dict[str, str] = {}
    for key in dict.fromkeys(k for options in per_count for k in options):
        if key == "num_players":
            continue
        values = [options.get(key) for options in per_count]
        kind = _kind(values)
        if kind is None:
            continue
        kinds[key] = kind
        same = all(v == values[0] for v in values)
        defaults[key] = _encode(values[0], kind) if same and key not in derived else GAME_DEFAULT
    defaults["utility"] = "win"
    return defaults, kinds


def _kind(values: list[Any]) -> str | None:
    """The kind of an option from its values at every player count (None: not offered)."""
    if any(v is None for v in values):
        return None
    if all(isinstance(v, list | tuple) and all(type(x) is int for x in v) for v in values):
        return "list"
    for kind, cls in (("bool", bool), ("int", int), ("str", str)):
        if all(type(v) is cls for v in values):
            return kind
    return None


def _encode(value: Any, kind: str) -> Any:
    return " ".join(map(str, value)) if kind == "list" else value


def _decode(key: str, value: Any, kind: str) -> Any:
    """An OpenSpiel parameter value as the option's value; ConfigError if it is not one."""
    try:
        if kind == "list":
            return [int(x) for x in str(value).split()]
        if kind == "bool" and isinstance(value, str):
            return {"true": True, "false": False}[value.strip().lower()]
        if kind == "int" and isinstance(value, str):
            return int(value)
    except (KeyError, ValueError):
        raise ConfigError(f"parameter {key}={excerpt(value)} is not a {kind}") from None
    return value


def options_from_parameters(name: str, parameters: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """(``make`` options, utility) from OpenSpiel parameters (missing ones take their
    defaults; a value equal to its default is left to the game)."""
    defaults, kinds = parameter_spec(name)
    unknown = sorted(set(parameters) - set(defaults))
    if unknown:
        raise ConfigError(
            f"unknown parameter(s) {unknown} of forestgames_{name}; known: {list(defaults)}"
        )
    options: dict[str, Any] = {"num_players": parameters.get("players", defaults["players"])}
    for key, kind in kinds.items():
        value = parameters.get(key, defaults[key])
        if value != defaults[key]:
            options[key] = _decode(key, value, kind)
    return options, str(parameters.get("utility", "win"))


UTILITIES = ("win", "score")
"""The ``utility`` parameter's values: ``"win"`` (+1 winners, -1 the others), ``"score"``."""


def check_utility(utility: Any) -> str:
    """``utility`` checked: one of :data:`UTILITIES`, as a plain ``str`` (numpy text too;
    ConfigError otherwise)."""
    if not isinstance(utility, str) or utility not in UTILITIES:
        raise ConfigError(f"utility must be 'win' or 'score', not {excerpt(utility)}")
    return str(utility)


def game_parameters(name: str, utility: str = "win", **options: Any) -> dict[str, Any]:
    """The OpenSpiel parameters of game ``name`` with ``make`` options ``options``
    (checked by ``make`` first: a bad value is the game's ConfigError, not OpenSpiel's)."""
    utility = check_utility(utility)
    defaults, kinds = parameter_spec(name)
    for key in options:
        if key != "num_players" and key not in kinds:
            raise ConfigError(
                f"option {excerpt(key)} of {name} is not offered as an OpenSpiel parameter; "
                f"offered: {['num_players', *kinds]}"
            )
    game = make(name, **options)
    checked = game.options()  # each value in its plain (JSON) form
    parameters: dict[str, Any] = {}
    for key in options:
        if key == "num_players":
            parameters["players"] = game.num_players
        elif key in checked:  # (an option given as its default may be left out)
            parameters[key] = _encode(checked[key], kinds[key])
    if utility != defaults["utility"]:
        parameters["utility"] = utility
    return parameters
