"""The ``forestgames`` command: simulate, tournament, play, replay, bench.

    forestgames simulate bosk --players 4 --games 1000 --agents random,greedy --workers 2
    forestgames tournament bosk --players 4 --agents random,greedy,mcts:t=0.2 --games 200
    forestgames play bosk --agents greedy --save game.json
    forestgames replay game.json
    forestgames bench

Run ``forestgames COMMAND --help`` for each command's options.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import random
import re
import select
import stat
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

import attrs

from forestgames._text import encodable, outcome, wrap_line
from forestgames._version import __version__
from forestgames.agents import acting_seat, make_agent
from forestgames.agents.base import no_move_error
from forestgames.boom_bokken import TimeOut
from forestgames.core import (
    MAX_NOTATION,
    MAX_RECORD_MOVES,
    ConfigError,
    ForestGamesError,
    GameRecord,
    IllegalMoveError,
    ParseError,
    StateError,
    check_seed,
    derive_seed,
    excerpt,
    make,
    registered_games,
)
from forestgames.sim import GameRow, as_path, play_game, simulate, write_file
from forestgames.sim import _move_cap as move_cap  # simulate's default cap of a game
from forestgames.tournament import require_plotting, tournament

__all__ = ["HumanAgent", "main", "move_pages"]


class _Quit(Exception):
    """The person at the terminal asked to stop (or the input ended)."""


class _StdoutClosed(Exception):
    """Standard output was closed by its reader (``forestgames ... | head``)."""


class _Output(Protocol):
    """Where a command prints (standard output, through :class:`_Stdout`)."""

    def write(self, text: str, /) -> Any: ...

    def flush(self) -> Any: ...


class _Stdout:
    """A text stream whose closing by its reader (BrokenPipeError) is :class:`_StdoutClosed`,
    told apart from a broken pipe elsewhere (a worker's, a cluster's), which is an error."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        if self.stream is None:  # started with stdout closed (>&-)
            raise _StdoutClosed
        try:
            return self.stream.write(text)
        except UnicodeEncodeError:  # an ASCII terminal: '?' for what it cannot show
            return self.stream.write(encodable(text, self.stream.encoding))
        except BrokenPipeError:
            raise _StdoutClosed from None

    def flush(self) -> None:
        if self.stream is None:
            raise _StdoutClosed
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise _StdoutClosed from None


PIPE_CLOSED_STATUS = 141
"""Exit status when stdout closes early (``forestgames ... | head``): 128 + SIGPIPE, as a shell
reports a command that a closed pipe stopped (and as 130 = 128 + SIGINT for Ctrl-C)."""
AGENT_SPECS = (
    "specs: random, greedy, mcts, mcts:N (N iterations a move), mcts:N:L (playouts cut after "
    "L moves), mcts:KEY=VALUE[:KEY=VALUE...] with keys t (seconds a move), n (iterations), "
    "l (playout moves, or none), c (exploration), z (confidence), reuse (0/1), "
    "e.g. mcts:t=0.2 or mcts:t=0.2:l=20"
)
"""The agent-spec forms, in the help of every command that takes ``--agents``."""
PAGE_LINES = 20
"""Lines of one page of the ``?`` move list (the board stays on the screen above it)."""
QUIET_REACTIONS: tuple[type, ...] = (TimeOut,)
"""Out-of-turn moves that alone do not stop the game to ask the person: Boom Bokken's Temps
Mort may be played at any moment, so asking about it would stop almost every move."""


def _group_of(text: str) -> tuple[str, str]:
    """A move's notation (seat prefix removed) split into its group and the rest:
    ``plant 3@4,5`` -> (``plant 3@``, ``4,5``); ``attract Wolf`` -> (``attract``, ``Wolf``)."""
    if "@" in text:
        at = text.index("@") + 1
        return text[:at], text[at:]
    head, space, rest = text.rpartition(" ")
    return (head, rest) if space else (text, "")


def move_pages(moves: Sequence[Any], width: int = 100, lines: int = PAGE_LINES) -> list[str]:
    """The numbered legal moves grouped by kind, in columns, cut into pages of ``lines``."""
    groups: dict[str, list[str]] = {}
    for number, move in enumerate(moves, 1):
        head, rest = _group_of(str(move).split(":", 1)[-1])
        groups.setdefault(head, []).append(f"{number} {rest}".rstrip())
    label = min(max(len(head) for head in groups) + 2, 24)
    cell = max(len(entry) for entries in groups.values() for entry in entries) + 2
    per_line = max(1, (width - label) // cell)
    rows: list[str] = []
    for head, entries in groups.items():
        for k in range(0, len(entries), per_line):
            name = head if k == 0 else ""
            chunk = "".join(f"{entry:<{cell}}" for entry in entries[k : k + per_line])
            rows.append(f"{name:<{label}}{chunk}".rstrip())
    return ["\n".join(rows[k : k + lines]) for k in range(0, len(rows), lines)]


class HumanAgent:
    """A person choosing moves in notation at a text prompt.

    Typed lines: a move in the game's notation (the ``SEAT:`` prefix may be
    left out), a number from the list of legal moves, ``?`` to list the legal
    moves (grouped, a page at a time: ``?`` again for the next page, ``?N`` for
    page N), ``board`` to draw the position again, ``quit`` to stop. The
    position is drawn as the seat sees it (``reveal`` shows everything). Out of
    turn the person is asked only when they have a reaction (Boom Bokken: a
    Flash or a Gardien answer; a lone Temps Mort asks only with
    ``every_reaction``).
    """

    name = "human"

    def __init__(
        self,
        read: Callable[[str], str],
        write: Callable[[str], None],
        reveal: bool = False,
        every_reaction: bool = False,
    ) -> None:
        self.read, self.write = read, write
        self.reveal, self.every_reaction = reveal, every_reaction
        self._page = 0

    def for_game(self, seed: int) -> HumanAgent:
        """The same person for every game (the seed chooses nothing here)."""
        return self

    def choose(self, state: Any) -> Any:
        """The move the person types for the seat to act."""
        move = self._ask(state, acting_seat(state), may_pass=False)
        assert move is not None
        return move

    def react(self, state: Any, player: int) -> Any | None:
        """The reaction the person types for ``player``, or None (passing, or no
        reaction worth asking about)."""
        moves = state.legal_moves(player)
        if not self.every_reaction and all(isinstance(m, QUIET_REACTIONS) for m in moves):
            return None
        return self._ask(state, player, may_pass=True)

    def picture(self, state: Any, seat: int) -> str:
        """The position as this person may see it."""
        return str(state.render(None if self.reveal else seat))

    def _ask(self, state: Any, seat: int, may_pass: bool) -> Any | None:
        moves = state.legal_moves(seat)
        self.write(self.picture(state, seat))
        hint = "an empty line passes, " if may_pass else ""
        self.write(
            f"seat {seat} to {'react' if may_pass else 'move'} "
            f"({hint}? lists the {len(moves)} legal moves)"
        )
        self._page = 0
        while True:
            try:
                text = self.read(f"seat {seat}> ").strip()
            except EOFError:
                raise _Quit("input ended") from None
            if not text:
                if may_pass:
                    return None
                continue  # an empty line: just ask again
            move = self._command(state, seat, text, moves)
            if move is not None:
                return move

    def _command(self, state: Any, seat: int, text: str, moves: Sequence[Any]) -> Any | None:
        """Do one typed line: a command (None returned) or a move (returned if legal)."""
        if text in ("?", "moves", "list") or (text[:1] == "?" and _is_number(text[1:])):
            self._show_page(moves, int(text[1:]) if _is_number(text[1:]) else None)
            return None
        if text in ("board", "b"):
            self.write(self.picture(state, seat))
            return None
        if text in ("quit", "q", "exit"):
            raise _Quit("quit")
        if text in ("help", "h"):
            self.write(
                "type a move in notation (e.g. one from ?), its number in the ? list, "
                "? to list moves (again for the next page, ?N for page N), board to redraw, "
                "quit (or Ctrl-C) to stop"
            )
            return None
        return self._parse(state, seat, text, moves)

    def _show_page(self, moves: Sequence[Any], number: int | None) -> None:
        pages = move_pages(moves)
        if number is not None and not 1 <= number <= len(pages):
            self.write(f"no page {number}: the move list has pages 1 to {len(pages)}")
            return
        self._page = (number - 1 if number is not None else self._page) % len(pages)
        self.write(pages[self._page])
        if len(pages) > 1:
            self.write(
                f"page {self._page + 1}/{len(pages)} of {len(moves)} moves: ? for the next page, "
                "?N for page N, or type a move or its number"
            )
        self._page += 1

    def _parse(self, state: Any, seat: int, text: str, moves: Sequence[Any]) -> Any | None:
        if _is_number(text):
            number = int(text)
            if 1 <= number <= len(moves):
                return moves[number - 1]
            self.write(f"no move numbered {number}: the list (?) has 1 to {len(moves)}")
            return None
        game = state.game
        try:
            move = game.parse_move(text)
        except ParseError as error:
            try:
                move = game.parse_move(f"{seat}:{text}")
            except ParseError:
                self.write(f"not a move: {error}")
                return None
        if move.player != seat:
            self.write(f"{move} is a move of seat {move.player}; you play seat {seat}")
            return None
        try:
            state.apply(move)
        except IllegalMoveError as error:
            self.write(f"illegal: {error}")
            return None
        return move


# --------------------------------------------------------------------------- helpers


_NUMBER_DIGITS = 9
"""Typed numbers (a move's number, a page, a position) are at most this many ASCII digits."""


_ARGUMENT_DIGITS = 4000
"""The longest integer argument read (the library's checks then say which range an
argument must be in)."""


def _is_number(text: str, digits: int = _NUMBER_DIGITS) -> bool:
    """Whether ``text`` is a number a person typed: ASCII digits only (``int`` reads other
    scripts' digits and refuses '²'), at most ``digits`` of them (``int`` refuses over
    4300)."""
    return 0 < len(text) <= digits and text.isascii() and text.isdigit()


def _file(text: str) -> str:
    """A file argument, with a leading ``~`` made the home folder (as a shell does, which
    it does not in ``--out=~/x`` or quotes; a folder named '~' appeared instead). A NUL
    byte, which no file name holds (``main`` called in-process may pass one), is a usage
    error: ``os.stat`` raised ValueError on it."""
    if "\0" in text:
        raise argparse.ArgumentTypeError(f"a file name has no NUL byte: {excerpt(text)}")
    return os.path.expanduser(text)


def _integer(text: str) -> int:
    """An integer argument: ASCII digits with an optional sign (``int`` also reads other
    scripts' digits, spaces and underscores)."""
    digits = text[1:] if text[:1] in "+-" else text
    if not _is_number(digits, len(digits)):
        raise argparse.ArgumentTypeError(f"not an integer: {excerpt(text)}")
    if len(digits) > _ARGUMENT_DIGITS:
        raise argparse.ArgumentTypeError(f"an integer of {len(digits):,} digits is too long")
    return int(text)


_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
"""A decimal number as a person types it, in ASCII (``float`` also reads ``1_0``, other
scripts' digits, spaces, ``inf`` and ``nan``)."""


def _decimal(text: str) -> float:
    """A decimal argument (see :data:`_DECIMAL`)."""
    if len(text) > _ARGUMENT_DIGITS or not _DECIMAL.fullmatch(text):
        raise argparse.ArgumentTypeError(f"not a decimal number: {excerpt(text)}")
    return float(text)


def _option_value(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(
            f"{excerpt(text)}: options are KEY=VALUE (VALUE in JSON, e.g. true)"
        )
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value
    except (ValueError, RecursionError) as error:  # a number of over 4300 digits, deep nesting
        raise argparse.ArgumentTypeError(
            f"option {key}: its value cannot be read ({excerpt(str(error), 80)})"
        ) from None


def _game_options(pairs: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    """The ``-o KEY=VALUE`` options as a dict; ConfigError if a key is given twice."""
    options: dict[str, Any] = {}
    for key, value in pairs:
        if key in options:
            raise ConfigError(
                f"-o {key} given twice ({excerpt(options[key])} and {excerpt(value)}): "
                "give each option once"
            )
        options[key] = value
    return options


def _make_game(args: argparse.Namespace) -> Any:
    options = _game_options(args.option or [])
    if args.players is not None:
        given = options.get("num_players", args.players)
        if given != args.players:
            raise ConfigError(
                f"--players {args.players} and -o num_players={excerpt(given)} disagree: "
                "give it once"
            )
        options["num_players"] = args.players
    return make(args.game, **options)


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=registered_games(), help="the game to play")
    parser.add_argument(
        "--players",
        "-p",
        type=_integer,
        default=None,
        help="number of players (default: the game's default)",
    )
    parser.add_argument(
        "--option",
        "-o",
        type=_option_value,
        action="append",
        metavar="KEY=VALUE",
        help="a game option, VALUE in JSON (repeatable), e.g. -o squirrel_exactly_three=true",
    )


# --------------------------------------------------------------------------- commands


NO_OVERWRITE = "refused if the file exists and is not empty"
"""The rule of every output file (as for ``--out``, which only ``--resume`` may reopen)."""
WORKERS_HELP = (
    "worker processes, or with --ray and no ADDRESS the CPUs of the local Ray (default 1; "
    "on Ray: every CPU)"
)
OUT_HELP = (
    "results file (JSON lines), written as games finish; refused if it exists and is not "
    "empty, unless --resume"
)


def _check_writable(option: str, path: str | None) -> None:
    """ConfigError now, before any game is played, if ``path`` cannot be written, or is a
    file that exists and is not empty (no output file is overwritten)."""
    if not path:
        return
    try:
        _check_new_file(option, path)
    except OSError as error:  # a folder on the way that cannot be searched, say
        raise ConfigError(f"{option} {path}: {error.strerror or error}") from None


def _check_new_file(option: str, path: str) -> None:
    """:func:`_check_writable`'s checks (OSError where the path cannot even be looked at)."""
    target = Path(path)
    with contextlib.suppress(FileNotFoundError):  # a new file
        os.stat(target)  # a symlink loop raises here: pathlib's checks take it for no file
    if target.is_dir():
        raise ConfigError(f"{option} {path}: is a directory, not a file")
    as_path(path, option)  # not a directory's name (new/)
    # A symlink's file is the one written (write_file makes it where the link points, even
    # a link to no file yet), so its folder is the one that must be there and writable.
    final = Path(os.path.realpath(target)) if target.is_symlink() else target
    folder = final.parent if str(final.parent) else Path(".")
    if not folder.is_dir():
        raise ConfigError(f"{option} {path}: no directory {folder} to write it in")
    if target.exists() and target.stat().st_size:
        raise ConfigError(f"{option} {path} exists: choose another file (none is overwritten)")
    in_place = target.exists() and not target.is_file()  # /dev/stdout: written, not replaced
    if (target.exists() and not os.access(target, os.W_OK)) or (
        not in_place and not os.access(folder, os.W_OK)  # a new file is made beside it
    ):
        raise ConfigError(f"{option} {path}: not writable")


def _same_file(path: str) -> Path:
    """``path`` with its links followed, to tell two names of one file apart (a symlink loop
    is left to the checks that report it: ``Path.resolve`` raised RuntimeError on one)."""
    return Path(os.path.realpath(path))


def _check_outputs(args: argparse.Namespace, options: Sequence[str]) -> None:
    """Each output file named (``options`` are attribute names) is writable and new, and
    no two of them (nor ``--out``) are the same file."""
    named: dict[Path, str] = {}
    if getattr(args, "out", None) == "":
        raise ConfigError("--out needs a file name, not an empty one")
    if getattr(args, "out", None):
        as_path(args.out, "--out")  # not a directory's name (new/)
        named[_same_file(args.out)] = "--out"
    for option in options:
        path = getattr(args, option)
        flag = f"--{option}"
        if path is None:
            continue
        if not path:
            raise ConfigError(f"{flag} needs a file name, not an empty one")
        _check_writable(flag, path)
        other = named.setdefault(_same_file(path), flag)
        if other != flag:
            raise ConfigError(f"{flag} {path} is also the {other} file: give each its own")


def _agent_list(text: str, option: str = "--agents") -> list[str]:
    """The comma-separated agent specs of ``option``; ConfigError names an empty one."""
    specs = [spec.strip() for spec in text.split(",")]
    for position, spec in enumerate(specs, 1):
        if not spec:
            raise ConfigError(
                f"{option} {excerpt(text)}: agent {position} of {len(specs)} is empty "
                "(agents are comma-separated, e.g. random,greedy)"
            )
    return specs


def _cmd_simulate(args: argparse.Namespace, out: _Output) -> int:
    game = _make_game(args)
    _check_outputs(args, ("csv",))
    agents = _agent_list(args.agents)
    backend = "local" if args.ray is None else "ray"
    result = simulate(
        game,
        agents,
        args.games,
        seed=args.seed,
        workers=args.workers,
        backend=backend,
        progress=not args.no_progress,
        rotate=args.rotate,
        max_moves=args.max_moves,
        out=args.out,
        resume=args.resume,
        address=args.ray or None,
        engine=args.engine,
    )
    if args.csv:  # the files first: a closed stdout must not lose them
        result.to_csv(args.csv)
    print(result.format_summary(), file=out)
    if args.csv:
        print(f"rows written to {args.csv}", file=out)
    return 0


TOURNAMENT_FILES = ("csv", "json", "png")
"""The output files of ``tournament`` besides ``--out``, in the order they are written."""


def _cmd_tournament(args: argparse.Namespace, out: _Output) -> int:
    game = _make_game(args)
    _check_outputs(args, TOURNAMENT_FILES)
    if args.png:
        require_plotting(args.png)  # matplotlib and the picture format, before any game
    agents = _agent_list(args.agents)
    result = tournament(
        game,
        agents,
        args.games,
        seed=args.seed,
        workers=args.workers,
        backend="local" if args.ray is None else "ray",
        progress=not args.no_progress,
        max_moves=args.max_moves,
        out=args.out,
        resume=args.resume,
        address=args.ray or None,
    )
    writers: dict[str, Callable[[str], object]] = {
        "csv": result.to_csv,
        "json": result.to_json,
        "png": result.plot,
    }
    written = [option for option in TOURNAMENT_FILES if getattr(args, option)]
    for option in written:  # the files first: a closed stdout must not lose them
        writers[option](getattr(args, option))
    print(result.format_table(), file=out)
    if any(":t=" in name or name.startswith("mcts:t") for name in result.agents):
        print(
            "note: agents with a time budget (mcts:t=...) search as far as the machine allows, "
            "so their games are not exactly reproducible; mcts:N budgets are",
            file=out,
        )
    for option in written:
        print(f"{option} written to {getattr(args, option)}", file=out)
    return 0


def _cmd_play(args: argparse.Namespace, out: _Output) -> int:
    game = _make_game(args)
    seat = args.seat
    if not 0 <= seat < game.num_players:
        raise ConfigError(f"--seat {seat} is not a seat of a {game.num_players}-player game")
    _check_outputs(args, ("save",))  # before the game, not after it
    if args.seed is not None:
        check_seed(args.seed, "--seed")
    opponents = _opponents(args.agents, game.num_players - 1)

    def write(text: str) -> None:
        lines = [piece for line in text.splitlines() for piece in wrap_line(line)]
        print("\n".join(lines), file=out, flush=True)

    def read(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line

    human = HumanAgent(read, write, reveal=args.reveal, every_reaction=args.every_reaction)
    agents: list[Any] = [opponents[i % len(opponents)] for i in range(game.num_players - 1)]
    agents.insert(seat, human)
    played: list[Any] = []

    from forestgames.core import _hidden_from

    def observe(state: Any, move: Any) -> None:
        played.append(move)
        if move.player != seat and (args.reveal or not _hidden_from(game, state, move, seat)):
            write(f"seat {move.player} plays {move}")

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    # A drawn seed deals every hidden card: with hidden information it is told at the end.
    secret = args.seed is None and not args.reveal and game.traits.hidden_information
    status = 0
    try:
        _greet(write, game, None if secret else seed, seat, args.reveal)
        record, final, _ = play_game(game, agents, seed, observer=observe)
        write(human.picture(final, seat))
        won = outcome(final.winners, game.num_players)
        write(f"game over: {won}, scores {list(final.scores)}")
    except (_Quit, KeyboardInterrupt, _StdoutClosed) as reason:
        record = GameRecord.start(game, seed).with_moves(played)
        status = _STOP_STATUS.get(type(reason), 1)
        if isinstance(reason, _StdoutClosed):  # stdout closed: stop, still save the record
            _silence_stdout()
            write = _write_nowhere
        why = str(reason) if isinstance(reason, _Quit) else "interrupted"
        write(f"\nstopped ({why}) after {len(played)} moves")
    if secret:
        write(f"the game's seed was {seed}")
    if args.save:
        write_file(args.save, record.to_json(indent=1) + "\n", "--save")
        write(f"record saved to {args.save}")
    elif status:
        write("(play with --save FILE to keep the record of a game)")
    return status


def _opponents(text: str, seats: int) -> list[str]:
    """The agent specs of ``--agents`` for ``play``'s other ``seats``, each checked (before
    the game starts); ConfigError for a bad spec or more specs than seats."""
    specs = _agent_list(text)
    if len(specs) > max(seats, 1):
        raise ConfigError(
            f"--agents: {len(specs)} agents for {seats} other seat(s): give at most one per seat"
        )
    for spec in specs:
        make_agent(spec, seed=0)
    return specs


def _greet(
    write: Callable[[str], None], game: Any, seed: int | None, seat: int, reveal: bool
) -> None:
    """The lines ``play`` starts with: the game, the seed (None: kept until the end), the
    person's seat and view."""
    told = "" if seed is None else f", seed {seed}"
    write(
        f"{game.name}, {game.num_players} players{told}; you are seat {seat}. "
        "Type ? for the legal moves, help for more."
    )
    if game.traits.hidden_information:
        write(
            "you see what seat "
            f"{seat} sees{' and, with --reveal, every hidden card' if reveal else ''}"
        )


def _write_nowhere(text: str) -> None:
    """The ``play`` output once stdout is closed."""


_STOP_STATUS: dict[type, int] = {KeyboardInterrupt: 130, _StdoutClosed: PIPE_CLOSED_STATUS}
"""A stopped ``play``'s exit status by the reason (else 1: quit, or the input ended)."""


_RECORD_BYTES = MAX_RECORD_MOVES * (MAX_NOTATION + 4) + (1 << 20)
"""No game record is larger: the most moves, each of the longest notation, quoted."""


def _load_record(path: str) -> GameRecord:
    """The game record in the file at ``path``; StateError (one line) if it is not one."""
    facts = os.stat(path)  # first: opening a FIFO would wait for a writer
    if not stat.S_ISREG(facts.st_mode):
        raise StateError(f"{path} is not a game record: not a regular file")
    if facts.st_size > _RECORD_BYTES:
        raise StateError(f"{path} is not a game record: {facts.st_size:,} bytes is too large")
    with open(path, "rb") as file:
        data = file.read(_RECORD_BYTES + 1)
    try:  # UTF-8 (with the byte-order mark some editors write), or UTF-16 or -32 as JSON
        text = data.decode(json.detect_encoding(data))  # may be (PowerShell 5's '>' writes it)
    except UnicodeDecodeError:
        raise StateError(f"{path} is not a game record: it is not JSON text (binary?)") from None
    try:
        return GameRecord.from_json(text)
    except StateError as error:
        looks = _results_file_look(text)
        if looks:
            raise StateError(
                f"{path} is not a game record: {looks}. replay takes one game's record "
                "(JSON), as play --save or fg.GameRecord.to_json writes it "
                "(fg.play returns one)"
            ) from None
        raise StateError(f"{path}: {error}") from None


ROW_FIELDS = frozenset(field.name for field in attrs.fields(GameRow))
"""The fields of a results-file row (what simulate/tournament --out write, one a line)."""


def _results_file_look(text: str) -> str | None:
    """How ``text`` looks like a results file rather than a game record, or None."""
    lines = [line for line in text.splitlines() if line.strip()][:2]
    values = []
    for line in lines:
        try:
            values.append(json.loads(line))
        except (ValueError, RecursionError):
            return None
    if values and isinstance(values[0], dict) and ROW_FIELDS <= values[0].keys():
        return (
            "it looks like a results file (one JSON row a game, as simulate or tournament "
            "--out writes)"
        )
    if len(values) > 1:
        return "it holds several JSON values, one a line (JSON lines), not one record"
    return None


def _replay_header(record: GameRecord, seat: int | None, moves: int) -> str:
    """The game, its options, its seed (the referee's view only: the seed deals every
    hidden card) and its length (``moves``: those the view shows)."""
    seed = f", seed {record.seed}" if seat is None else ""
    return f"{record.game} {record.options}{seed}, {moves} moves"


def _write_replay_page(record: GameRecord, seat: int | None, path: str, out: _Output) -> None:
    """``replay --html``: write the record's replay page (``seat``'s view, or the referee's)
    to ``path`` and say so, counting the moves the page shows."""
    from forestgames.viewer import _page

    page, moves = _page(record, seat)  # moves: those the page shows
    write_file(path, page, "--html")
    view = "the referee's view" if seat is None else f"seat {seat}'s view"
    noun = "move" if moves == 1 else "moves"
    print(f"replay page of {moves} {noun} ({view}) written to {path}", file=out)


def _cmd_replay(args: argparse.Namespace, out: _Output) -> int:
    _check_outputs(args, ("html",))
    record = _load_record(args.file)
    seat = args.seat
    if seat is not None and not 0 <= seat < record.make_game().num_players:
        raise ConfigError(f"--seat {seat} is not a seat of this game")
    if args.html:
        _write_replay_page(record, seat, args.html, out)
        return 0
    states = record.replay()
    from forestgames.viewer import _seen_steps

    steps = _seen_steps(states, record.moves, seat)  # a seat's view: the moves it saw
    last = len(steps) - 1
    print(_replay_header(record, seat, last), file=out)
    if args.all:
        print(states[0].render(seat), file=out)
        for number, (move, state) in enumerate(steps[1:], 1):
            print(f"\n{number}. {move}\n{state.render(seat)}", file=out)
        return 0
    index = 0
    while True:
        move, state = steps[index]
        where = "start" if move is None else f"after move {index}: {move}"
        print(f"\n[{index}/{last}] {where}\n{state.render(seat)}", file=out)
        out.write("enter = next, b = back, NUMBER = go to move, q = quit> ")
        out.flush()
        line = sys.stdin.readline()
        if not line:
            return 0
        command = line.strip()
        if command in ("q", "quit"):
            return 0
        if command == "b":
            index = max(0, index - 1)
        elif _is_number(command):
            index = min(int(command), last)
        elif command:
            print(f"unknown command {excerpt(command)}", file=out)
        elif index == last:
            print("end of the game", file=out)
            return 0
        else:
            index += 1


MAX_BENCH_SECONDS = 3600.0
"""The longest ``bench --seconds`` a game may be measured for."""


def _random_moves(game: Any, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random games for about ``seconds`` (at least one): (moves, games, elapsed). A game
    is stopped at simulate's default move cap, as a run stops it (one that never ended
    kept bench running for ever)."""
    rng = random.Random(seed)
    moves = games = 0
    cap = move_cap(game, None)
    start = time.perf_counter()
    while not games or time.perf_counter() - start < seconds:
        state = game.new_game(seed=derive_seed(seed, games))
        try:
            for _ in range(cap):
                if state.is_terminal:
                    break
                seats = state.players_to_act
                seat = seats[0] if len(seats) == 1 else rng.choice(seats)
                state = state.apply(rng.choice(state.legal_moves(seat)))
                moves += 1
        except IndexError:  # a choice among no seats or no moves: the game's hooks disagree
            stuck = _no_move(state)
            if stuck is None:
                raise  # a hook's own IndexError
            raise stuck from None
        games += 1
    return moves, games, time.perf_counter() - start


def _no_move(state: Any) -> StateError | None:
    """The StateError of a live ``state`` where no seat acts, or a seat that acts has no
    move (as ``simulate`` names it); None if every seat that acts has a move."""
    seats = state.players_to_act
    stuck = [seat for seat in seats if not state.legal_moves(seat)]
    if seats and not stuck:
        return None
    return no_move_error(state, stuck[0] if stuck else None)


def _baseline(calls: int) -> float:
    """Seconds for ``calls`` ``random.choice`` calls on a tuple (same-run baseline)."""
    rng, options = random.Random(0), tuple(range(20))
    start = time.perf_counter()
    for _ in range(calls):
        rng.choice(options)
    return time.perf_counter() - start


BENCH_ROUNDS = 3
"""Interleaved rounds of game and baseline; each figure is the best round's."""


def _bench_game(game: Any, seconds: float, seed: int) -> tuple[int, float, float, float]:
    """(games, moves/s, baseline calls/s, warm-up s) over interleaved rounds, warm-up apart."""
    start = time.perf_counter()
    _random_moves(game, 0.0, derive_seed(seed, BENCH_ROUNDS))  # builds the tables (untimed)
    warm_up = time.perf_counter() - start
    games, rate, base_rate = 0, 0.0, 0.0
    for round_ in range(BENCH_ROUNDS):
        round_seed = derive_seed(seed, round_)
        moves, played, elapsed = _random_moves(game, seconds / BENCH_ROUNDS, round_seed)
        games += played
        rate = max(rate, moves / elapsed)
        base_rate = max(base_rate, moves / max(_baseline(moves), 1e-9))
    if not base_rate:  # no round made a move: nothing was timed
        raise ConfigError(
            f"game {game.name}: its {games} random games were each over before their first "
            "move, so there is no move to time"
        )
    return games, rate, base_rate, warm_up


def _bench_games(names: Sequence[str], players: int | None) -> list[tuple[str, Any]]:
    """(name, game) of each game to measure; ConfigError (before any output) names an
    unknown game, a game named twice (its tables built, its second warm-up is none) or a
    player count the game does not take."""
    twice = sorted({name for name in names if list(names).count(name) > 1})
    if twice:
        raise ConfigError(f"bench: {excerpt(twice[0])} is named twice: name each game once")
    return [
        (
            name,
            make(name, num_players=make(name).traits.min_players if players is None else players),
        )
        for name in names
    ]


def _cmd_bench(args: argparse.Namespace, out: _Output) -> int:
    if not 0 <= args.seconds <= MAX_BENCH_SECONDS:  # nan and inf too: inf would never end
        raise ConfigError(f"--seconds must be in 0..{MAX_BENCH_SECONDS}, not {args.seconds}")
    check_seed(args.seed, "--seed")
    games = _bench_games(args.games or list(registered_games()), args.players)
    print(
        f"{'game':<14} {'players':>7} {'games':>6} {'moves/s':>10} {'baseline/s':>11} "
        f"{'ratio':>7} {'warm-up s':>10}",
        file=out,
    )
    for name, game in games:
        players = game.num_players
        played, rate, base_rate, warm_up = _bench_game(game, args.seconds, args.seed)
        print(
            f"{name:<14} {players:>7} {played:>6} {rate:>10.0f} {base_rate:>11.0f} "
            f"{rate / base_rate:>7.4f} {warm_up:>10.3f}",
            file=out,
        )
    print(
        "moves/s: random moves per second once the game's tables are built (the first game, "
        "warm-up, is timed apart); baseline/s: random.choice calls per second; ratio = "
        f"moves/s / baseline/s; best of {BENCH_ROUNDS} interleaved rounds each",
        file=out,
    )
    return 0


# --------------------------------------------------------------------------- parser


def _add_tournament_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "tournament",
        help="rate agents against each other in seat-rotated games",
        description="Play seat-rotated games between agents and print a Bradley-Terry rating "
        "(Elo scale, mean 1500) per agent with a 95% interval, and win rates.",
    )
    _add_game_arguments(parser)
    parser.add_argument("--games", "-n", type=_integer, default=100, help="number of games (100)")
    parser.add_argument(
        "--agents",
        "-a",
        default="random,greedy,mcts",
        help="two or more agents, comma-separated (default random,greedy,mcts); " + AGENT_SPECS,
    )
    parser.add_argument("--workers", "-w", type=_integer, default=1, help=WORKERS_HELP)
    parser.add_argument(
        "--ray", nargs="?", const="", default=None, metavar="ADDRESS",
        help="run on Ray: the cluster at ADDRESS, or a local Ray started for the run",
    )  # fmt: skip
    parser.add_argument("--out", type=_file, help=OUT_HELP)
    parser.add_argument("--resume", action="store_true", help="finish the run already in --out")
    parser.add_argument("--seed", "-s", type=_integer, default=0, help="the run's seed (default 0)")
    parser.add_argument("--max-moves", type=_integer, default=None, help="move cap (see simulate)")
    parser.add_argument(
        "--csv", type=_file, help=f"also write the ratings to this CSV file ({NO_OVERWRITE})"
    )
    parser.add_argument(
        "--json",
        type=_file,
        help=f"also write the ratings (and pairwise results) as JSON ({NO_OVERWRITE})",
    )
    parser.add_argument(
        "--png",
        type=_file,
        help=f"also plot the ratings to this PNG, needs matplotlib ({NO_OVERWRITE})",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.set_defaults(run=_cmd_tournament)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="forestgames",
        allow_abbrev=False,  # --import is read before this parser: no other spelling of it
        description=(
            "Exact rules engines for Bosk, Bonsai, Living Forest and Boom Bokken: "
            "simulate, play, replay, benchmark."
        ),
    )
    parser.add_argument("--version", action="version", version=f"forestgames {__version__}")
    parser.add_argument(
        "--import",
        dest="imports",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE first (before the command): a module that registers games of "
        "your own with forestgames.core.register_game; the current directory is searched "
        "too; repeatable",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sim = commands.add_parser(
        "simulate",
        help="play many games between agents and print win rates",
        description="Play many seeded games between agents; print win rates (95% Wilson "
        "intervals) and mean scores per seat and per agent.",
    )
    _add_game_arguments(sim)
    sim.add_argument(
        "--games", "-n", type=_integer, default=100, help="number of games (default 100)"
    )
    sim.add_argument(
        "--agents",
        "-a",
        default="random",
        help="agents cycled over the seats, comma-separated (default random); " + AGENT_SPECS,
    )
    sim.add_argument("--workers", "-w", type=_integer, default=1, help=WORKERS_HELP)
    sim.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run on Ray: the cluster at ADDRESS, or a local Ray started for the run",
    )
    sim.add_argument("--out", type=_file, help=OUT_HELP)
    sim.add_argument(
        "--resume",
        action="store_true",
        help="finish the run already in --out (same arguments): only missing games are played",
    )
    sim.add_argument("--seed", "-s", type=_integer, default=0, help="the run's seed (default 0)")
    sim.add_argument(
        "--rotate",
        action="store_true",
        help="turn the seats each game, so every agent plays every seat equally",
    )
    sim.add_argument(
        "--max-moves",
        type=_integer,
        default=None,
        help="move cap; longer games are reported truncated (default: 4x the game's maximum)",
    )
    sim.add_argument(
        "--csv", type=_file, help=f"also write the rows to this CSV file ({NO_OVERWRITE})"
    )
    sim.add_argument(
        "--engine",
        choices=("scalar", "vector"),
        default="scalar",
        help="vector: Bosk between random/greedy agents in numpy batches (the same rows)",
    )
    sim.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    sim.set_defaults(run=_cmd_simulate)
    _add_tournament_parser(commands)

    play = commands.add_parser(
        "play",
        help="play a game against agents in the terminal",
        description="Play against agents: the position is drawn, you type moves in notation "
        "(or their number in the list that ? prints). help lists the commands.",
    )
    _add_game_arguments(play)
    play.add_argument("--seat", type=_integer, default=0, help="your seat (default 0)")
    play.add_argument(
        "--agents",
        "-a",
        default="greedy",
        help="the other seats' agents, comma-separated, cycled (default greedy); " + AGENT_SPECS,
    )
    play.add_argument(
        "--seed", "-s", type=_integer, default=None, help="the game's seed (default: random)"
    )
    play.add_argument(
        "--save",
        type=_file,
        help=f"write the game record (JSON) to this file at the end, or when stopped "
        f"({NO_OVERWRITE})",
    )
    play.add_argument(
        "--reveal",
        action="store_true",
        help="show the referee's view (every hidden card) instead of your seat's",
    )
    play.add_argument(
        "--every-reaction",
        action="store_true",
        help="Boom Bokken: also stop to ask when a Temps Mort is your only out-of-turn move",
    )
    play.set_defaults(run=_cmd_play)

    replay = commands.add_parser(
        "replay",
        help="step through a saved game record, or write its replay page",
        description="Step through a game record (JSON, as saved by play --save "
        "or GameRecord.to_json), or write it as a self-contained HTML replay page.",
    )
    replay.add_argument("file", type=_file, help="the game record")
    replay.add_argument(
        "--all", action="store_true", help="print every move and position, no prompts"
    )
    replay.add_argument(
        "--html",
        type=_file,
        metavar="OUT",
        help=f"write the replay page (one HTML file) to OUT instead ({NO_OVERWRITE})",
    )
    replay.add_argument(
        "--seat",
        type=_integer,
        default=None,
        help="show only what this seat sees (default: the referee's view, everything)",
    )
    replay.set_defaults(run=_cmd_replay)

    bench = commands.add_parser(
        "bench",
        help="random moves per second for each game",
        description="Play random games for a while and print moves per second, with a same-run "
        "baseline (random.choice calls per second) because machines differ.",
    )
    bench.add_argument("games", nargs="*", help="games to measure (default: all registered)")
    bench.add_argument(
        "--players", "-p", type=_integer, default=None, help="players (default: the fewest)"
    )
    bench.add_argument("--seconds", type=_decimal, default=2.0, help="time per game (default 2)")
    bench.add_argument(
        "--seed", type=_integer, default=0, help="the seed its games' seeds derive from (default 0)"
    )
    bench.set_defaults(run=_cmd_bench)
    return parser


def _silence_stdout() -> None:
    """Point stdout at the null device, so that what is still written (and the flush at
    exit) goes nowhere instead of raising BrokenPipeError again."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)
    os.close(devnull)


def _stdout_reader_gone() -> bool:
    """Whether stdout is a pipe whose reader has closed it (poll reports an error on its
    end; False where that cannot be told: not a file, no poll)."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):
        return False


def _forgive_undecodable_input() -> None:
    """Read what stdin's encoding cannot decode (a typed 'é' on an ASCII or cp1252 console,
    Latin-1 bytes in a UTF-8 one) as U+FFFD, which play and replay refuse as text they do
    not know, instead of a UnicodeDecodeError ending the command."""
    if getattr(sys.stdin, "errors", None) == "strict" and hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")


def _modules_to_import(argv: Sequence[str]) -> list[str]:
    """The modules ``--import`` names before the command (the first word not an option);
    one with no value is left to the parser to report."""
    names, tokens = [], iter(argv)
    for token in tokens:
        if token == "--import":
            value = next(tokens, None)
            if value is not None:
                names.append(value)
        elif token.startswith("--import="):
            names.append(token.partition("=")[2])
        elif not token.startswith("-"):
            break
    return names


def _current_directory() -> str | None:
    """The current directory, or None when it is gone (deleted while the shell was in it:
    ``os.getcwd`` raised FileNotFoundError, a traceback, before any module was looked for)."""
    try:
        return os.getcwd()
    except OSError:
        return None


_MODULE_NAME = re.compile(r"[^\W\d]\w*(\.[^\W\d]\w*)*")
"""A module's dotted name (``--import``)."""


def _import_modules(argv: Sequence[str]) -> None:
    """Import the modules ``--import`` names, before the parser is built (the games they
    register are then among its choices); ConfigError if one cannot be found or raises
    as it is imported."""
    names = _modules_to_import(argv)
    here = _current_directory() if names else None
    if here is not None and here not in sys.path:
        sys.path.append(here)  # a module beside you is found (and shadows nothing)
    for name in names:
        if name.endswith(".py"):
            raise ConfigError(f"--import takes a module's name ({name[:-3]}), not a file's")
        if not _MODULE_NAME.fullmatch(name):
            raise ConfigError(
                f"--import takes a module's name (like my_games), not {excerpt(name)}"
            )
        try:
            importlib.import_module(name)
        except ImportError as error:
            raise ConfigError(f"--import {name}: {error}") from None
        except Exception as error:  # the module's own error (a SyntaxError names its line)
            why = f"{type(error).__name__}: {error}"
            raise ConfigError(f"--import {name}: importing it raised {why}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if sys.stdin is None:  # started with stdin closed (<&-): no input, as at its end
        sys.stdin = open(os.devnull, encoding="utf-8")
    _forgive_undecodable_input()
    try:
        _import_modules(argv)
    except ConfigError as error:
        print(f"forestgames: error: {error}", file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    out = _Stdout(sys.stdout)
    try:
        status = int(args.run(args, out))
        out.flush()  # here, so that a closed stdout is caught below
        return status
    except _StdoutClosed:  # stdout closed early (| head): stop quietly
        _silence_stdout()
        return PIPE_CLOSED_STATUS
    except BrokenPipeError as error:  # a file written to /dev/stdout, or a pipe elsewhere
        if not _stdout_reader_gone():
            print(f"forestgames: error: {_reason(error)}", file=sys.stderr)
            return 2
        _silence_stdout()
        return PIPE_CLOSED_STATUS
    except (ForestGamesError, OSError) as error:
        print(f"forestgames: error: {_reason(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nforestgames: interrupted", file=sys.stderr)
        return 130


def _reason(error: Exception) -> str:
    """An error's line: a system error as its file and the system's reason (Python's
    "[Errno 2] No such file or directory: 'x'" becomes "x: No such file or directory")."""
    if isinstance(error, OSError) and error.strerror:
        return f"{error.filename}: {error.strerror}" if error.filename else error.strerror
    return str(error)


if __name__ == "__main__":
    sys.exit(main())
