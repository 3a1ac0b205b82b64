"""Reinforcement-learning environments for every forestgames game (the ``rl`` extra).

    from forestgames import rl
    env = rl.aec_env("boom_bokken", num_players=6, reward="win")     # PettingZoo AECEnv
    env = rl.gym_env("bosk", num_players=2, seat=0, opponents="random")  # gymnasium.Env

Install with ``pip install "forestgames[rl]"`` (pettingzoo and gymnasium).
Importing this module also registers one Gymnasium id per game (:data:`GYM_IDS`), so
``gymnasium.make("forestgames/Bosk-v0", num_players=2)`` builds ``gym_env("bosk",
num_players=2)``, wrapped as ``gymnasium.make`` wraps every env.
Agent ``player_k`` is seat k; an action id is the game codec's id
(``game.action_id``); PASS, on Boom Bokken's reaction turns, is the one extra
id ``game.num_actions``. See ``docs/rl.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forestgames import GAME_NAMES
from forestgames.core import ConfigError, GameBase, check_seat, did_you_mean, excerpt, make

if TYPE_CHECKING:
    from forestgames.rl.aec import ForestGamesAECEnv
    from forestgames.rl.gym import ForestGamesGymEnv

__all__ = ["GYM_IDS", "RENDER_MODES", "ArgumentError", "aec_env", "gym_env"]

GYM_IDS = {name: f"forestgames/{name.title().replace('_', '')}-v0" for name in GAME_NAMES}
"""The Gymnasium id of each game's :func:`gym_env`, registered on import:
``forestgames/Bosk-v0``, ``forestgames/Bonsai-v0``, ``forestgames/LivingForest-v0``,
``forestgames/BoomBokken-v0``."""

RENDER_MODES = ("human", "ansi", "svg")
"""``render_mode`` values: ``"human"`` (``render()`` prints the text picture and returns
None), ``"ansi"`` (returns the text picture) and ``"svg"`` (returns an SVG document)."""


class ArgumentError(ConfigError, TypeError):
    """An argument an environment does not take: a keyword that is neither a game option nor
    the env's own, or a render mode it lacks. A ConfigError, and a TypeError as Python's own
    for an unexpected keyword (one such keyword is named in Python's words), which trainers
    catch to build an env again without theirs (TorchRL's ``GymEnv`` its ``frameskip``,
    SB3's ``make_vec_env`` ``render_mode="rgb_array"``)."""


def _require_extra() -> None:
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError as error:  # pragma: no cover - depends on the install
        raise ImportError(
            f"forestgames.rl needs the 'rl' extra: pip install 'forestgames[rl]' ({error})"
        ) from None


def aec_env(
    name: str,
    reward: str = "win",
    render_mode: str | None = None,
    render_seat: int | None = None,
    **options: Any,
) -> ForestGamesAECEnv:
    """A PettingZoo ``AECEnv`` of game ``name`` with ``options`` (``num_players=...``, ...).

    ``reward``: ``"win"`` (+1 winners, -1 the others, at the end) or ``"score"``
    (each move's change in the scores); ``render_mode``: None or one of
    :data:`RENDER_MODES`; ``render_seat``: None for the referee's picture (everything, hidden
    cards too: for spectators), or the seat whose view ``render()`` shows.
    ConfigError names a bad game, option, reward, render mode or seat.
    """
    _require_extra()
    from forestgames.rl._spaces import check_reward
    from forestgames.rl.aec import ForestGamesAECEnv

    reward = check_reward(reward)
    render_mode = _check_render_mode(render_mode)
    game = _game(name, options, ("reward", "render_mode", "render_seat"))
    _check_svg(game, render_mode)
    if render_seat is not None:
        render_seat = check_seat(game.num_players, render_seat, "render_seat")
    return ForestGamesAECEnv(game, reward, render_mode, render_seat)


def gym_env(
    name: str,
    seat: int = 0,
    opponents: Any = "random",
    reward: str = "win",
    illegal_reward: float = -1.0,
    render_mode: str | None = None,
    **options: Any,
) -> ForestGamesGymEnv:
    """A ``gymnasium.Env`` for seat ``seat`` of game ``name`` against ``opponents``.

    ``opponents``: one agent spec for every other seat (``"random"``, ``"greedy"``,
    ``"mcts:200"``, ...), a list of one spec or agent per other seat (in seat
    order), or agent objects. An illegal action ends the episode with
    ``illegal_reward`` and ``info["illegal_action"] = True``. ``render_mode``: None or
    one of :data:`RENDER_MODES`, always the learning seat's view.
    """
    _require_extra()
    from forestgames.rl._spaces import check_reward
    from forestgames.rl.gym import ForestGamesGymEnv

    reward = check_reward(reward)
    render_mode = _check_render_mode(render_mode)
    arguments = ("seat", "opponents", "reward", "illegal_reward", "render_mode")
    game = _game(name, options, arguments)
    _check_svg(game, render_mode)
    return ForestGamesGymEnv(game, seat, opponents, reward, illegal_reward, render_mode)


def _game(name: str, options: dict[str, Any], arguments: tuple[str, ...]) -> GameBase[Any, Any]:
    """``make(name, **options)``; a keyword that is no option of the game is an ArgumentError
    naming the game's options and the env's own ``arguments``."""
    plain = _on_base(make(name))
    known = [option.name for option in type(plain).OPTIONS]
    bad = [key for key in options if key not in known]
    unknown = [excerpt(key, 40) for key in bad]
    if unknown:
        hint = did_you_mean(bad[0], [*known, *arguments]) if len(bad) == 1 else ""
        plural = "s" if len(bad) > 1 else ""  # Python's own wording, which TorchRL matches
        raise ArgumentError(
            f"unexpected keyword argument{plural} {', '.join(unknown)}{hint}: "
            f"{plain.title}'s options are "
            f"{known}, and this env's own arguments {list(arguments)}"
        )
    return _on_base(make(name, **options))


def _on_base(game: Any) -> GameBase[Any, Any]:
    """``game``, or ConfigError if it is not built on GameBase (whose options and codec the
    environments use)."""
    if not isinstance(game, GameBase):
        raise ConfigError(
            f"game {game.name} is not built on forestgames.core.GameBase, whose options and "
            "integer actions the environments use"
        )
    return game


def _check_render_mode(render_mode: Any) -> str | None:
    """``render_mode`` checked: None or one of :data:`RENDER_MODES` (numpy text too, as a
    plain ``str``); ArgumentError otherwise."""
    if render_mode is None or (isinstance(render_mode, str) and render_mode in RENDER_MODES):
        return None if render_mode is None else str(render_mode)
    modes = ", ".join(map(repr, RENDER_MODES))
    raise ArgumentError(f"render_mode must be None or one of {modes}, not {excerpt(render_mode)}")


def _check_svg(game: GameBase[Any, Any], render_mode: str | None) -> None:
    """ArgumentError for ``render_mode="svg"`` of a game that draws no SVG pictures (a game
    of one's own need not), before any game: ``render()`` would fail at the first picture."""
    if render_mode == "svg" and not game._draws_svg:
        raise ArgumentError(f'render_mode "svg" needs SVG pictures, and {game.title} draws none')


def _gym_id_entry_point(name: str) -> Any:
    """The entry point of ``GYM_IDS[name]``: :func:`gym_env` of that game, refusing a
    ``name=`` keyword that names another (``gymnasium.make`` would let it replace the id's)."""

    def make_env(**arguments: Any) -> Any:
        asked = arguments.setdefault("name", name)
        if asked != name:
            raise ConfigError(
                f"{GYM_IDS[name]} makes {name}, not {excerpt(asked)}: leave name= out, "
                f"or make that game's id (the ids: {sorted(GYM_IDS.values())})"
            )
        return gym_env(**arguments)

    make_env.__name__ = make_env.__qualname__ = f"_gym_env_{name}"
    return make_env


def _register_gym_ids() -> None:
    """Register :data:`GYM_IDS` with Gymnasium (nothing to do without the extra)."""
    try:
        import gymnasium
    except ImportError:  # pragma: no cover - depends on the install
        return
    for name, env_id in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            entry_point = f"forestgames.rl:_gym_env_{name}"
            gymnasium.register(env_id, entry_point=entry_point, kwargs={"name": name})


for _name in GYM_IDS:
    globals()[f"_gym_env_{_name}"] = _gym_id_entry_point(_name)
del _name


_register_gym_ids()
