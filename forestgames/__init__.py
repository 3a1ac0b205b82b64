"""forestgames: exact, fast rules engines for four tabletop games about trees.

    import forestgames as fg
    game = fg.make("bosk", num_players=3)
    state = game.new_game(seed=7)

See ``docs/index.md`` for the protocol every game follows.
"""

from typing import Any, Literal, overload

from forestgames import bonsai, boom_bokken, bosk, core, living_forest
from forestgames._version import __version__
from forestgames.core import (
    ConfigError,
    ForestGamesError,
    GameRecord,
    GameTraits,
    IllegalMoveError,
    ParseError,
    StateError,
    register_game,
    registered_games,
)

register_game("bosk", bosk.BoskGame.create)
register_game("bonsai", bonsai.BonsaiGame.create)
register_game("living_forest", living_forest.LivingForestGame.create)
register_game("boom_bokken", boom_bokken.BoomBokkenGame.create)

GAME_NAMES: tuple[str, ...] = registered_games()


@overload
def make(name: Literal["bosk"], /, **options: Any) -> bosk.BoskGame: ...
@overload
def make(name: Literal["bonsai"], /, **options: Any) -> bonsai.BonsaiGame: ...
@overload
def make(name: Literal["living_forest"], /, **options: Any) -> living_forest.LivingForestGame: ...
@overload
def make(name: Literal["boom_bokken"], /, **options: Any) -> boom_bokken.BoomBokkenGame: ...
@overload
def make(name: str, /, **options: Any) -> core.Game: ...
def make(name: str, /, **options: Any) -> core.Game:
    """The game called ``name`` (see ``GAME_NAMES``) with ``options``; ConfigError if
    either is bad. Typed: ``make("bosk")`` is a ``BoskGame``."""
    return core.make(name, **options)


from forestgames import viewer  # noqa: E402 - pictures of the registered games
from forestgames.agents import GreedyAgent, MCTSAgent, RandomAgent  # noqa: E402 - after the games
from forestgames.sim import play, simulate  # noqa: E402
from forestgames.tournament import tournament  # noqa: E402

del Any, Literal, overload  # typing names for make's signatures, not the package's

__all__ = [
    "GAME_NAMES",
    "ConfigError",
    "ForestGamesError",
    "GameRecord",
    "GameTraits",
    "GreedyAgent",
    "IllegalMoveError",
    "MCTSAgent",
    "ParseError",
    "RandomAgent",
    "StateError",
    "__version__",
    "bonsai",
    "boom_bokken",
    "bosk",
    "living_forest",
    "make",
    "play",
    "register_game",
    "registered_games",
    "simulate",
    "tournament",
    "viewer",
]
