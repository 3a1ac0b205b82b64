"""Every forestgames game as an OpenSpiel game (the ``openspiel`` extra).

    from forestgames.rl import openspiel as fos
    fos.register()            # forestgames_bosk, forestgames_bonsai, ...
    game = pyspiel.load_game("forestgames_bosk(players=4)")
    game = fos.load_game("boom_bokken", num_players=6, expert=True)   # the same, from options

Install with ``pip install "forestgames[openspiel]"``. Action ids are the
codecs' ids (PASS, on Boom Bokken's reaction turns, is ``num_actions``); the
engines' randomness is explicit chance (the first player, every deal and
shuffle, who reacts next); see ``docs/openspiel.md``. The tree itself
(``forestgames.rl.openspiel._nodes``) needs no OpenSpiel.
"""

from __future__ import annotations

from typing import Any

from forestgames.rl.openspiel._params import game_parameters, short_name

__all__ = ["GAME_NAMES", "game_parameters", "load_game", "register", "short_name"]


def _spiel_module() -> Any:
    try:
        from forestgames.rl.openspiel import _spiel
    except ImportError as error:  # pragma: no cover - depends on the install
        raise ImportError(
            "forestgames.rl.openspiel needs the 'openspiel' extra: "
            f"pip install 'forestgames[openspiel]' ({error})"
        ) from None
    return _spiel


def _names() -> tuple[str, ...]:
    from forestgames import GAME_NAMES as names

    return tuple(short_name(name) for name in names)


GAME_NAMES: tuple[str, ...] = _names()
"""The OpenSpiel names: ``forestgames_bosk``, ``forestgames_bonsai``, ..."""


def register() -> tuple[str, ...]:
    """Register the four built-in games with OpenSpiel (idempotent); return their names."""
    return _spiel_module().register()  # type: ignore[no-any-return]


def load_game(name: str, utility: str = "win", **options: Any) -> Any:
    """``pyspiel.load_game`` of forestgames game ``name`` with ``make`` options
    (``num_players=...``) and ``utility`` (``"win"``: +1 winners, -1 the others;
    ``"score"``: the final scores). Registers the games first."""
    register()  # first: without OpenSpiel it says which extra to install
    import pyspiel

    return pyspiel.load_game(short_name(name), game_parameters(name, utility, **options))
