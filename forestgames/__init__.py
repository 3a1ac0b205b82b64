"""forestgames: exact, fast rules engines for four tabletop games about trees.

    import forestgames as fg
    game = fg.make("bosk", num_players=3)
    state = game.new_game(seed=7)

See ``docs/index.md`` and DESIGN.md for the protocol every game follows.
"""

from forestgames.core import (
    ConfigError,
    ForestGamesError,
    GameRecord,
    GameTraits,
    IllegalMoveError,
    ParseError,
    StateError,
    make,
    register_game,
    registered_games,
)
from forestgames import bosk

register_game("bosk", bosk.BoskGame.create)

GAME_NAMES: tuple[str, ...] = registered_games()

from forestgames.agents import GreedyAgent, MCTSAgent, RandomAgent  # noqa: E402 - after the games
from forestgames.sim import play, simulate  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "GAME_NAMES",
    "ConfigError",
    "ForestGamesError",
    "GameRecord",
    "GameTraits",
    "GreedyAgent",
    "MCTSAgent",
    "RandomAgent",
    "IllegalMoveError",
    "ParseError",
    "StateError",
    "bosk",
    "make",
    "play",
    "simulate",
]
