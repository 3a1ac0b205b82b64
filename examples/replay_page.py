"""Save the replay page of a game an MCTS agent plays, to open in any browser.

    python examples/replay_page.py --game living_forest --iterations 60 --out game.html
    python examples/replay_page.py --seat 1 --out seat1.html    # only what seat 1 saw

The page is one self-contained HTML file (no network needed): every position's
picture, a slider, First/Previous/Next/Last buttons and the arrow keys, the move
list with the current move highlighted, and the scores. The game's record is
saved beside it (``.json``), so ``forestgames replay`` can show it again.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import forestgames as fg


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="bosk", choices=fg.GAME_NAMES)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=100, help="MCTS iterations per move")
    parser.add_argument("--opponent", default="greedy", help="the other seats' agent")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seat", type=int, default=None, help="one seat's view (default: all)")
    parser.add_argument("--out", default="replay.html", help="the page to write")
    args = parser.parse_args()
    out = Path(args.out)
    if not out.absolute().parent.is_dir():
        parser.error(f"--out: no folder to write {out} in")
    # the record is saved beside the page as .json: a .json page (.JSON too, the same file
    # where names ignore case) was replaced by it
    if out.suffix.lower() == ".json":
        parser.error(f"--out: {out} is where the record goes; name the page .html")
    try:  # a bad player count, seat, agent or seed: the library's error, as a usage error
        game = fg.make(args.game, num_players=args.players)
        agents = [f"mcts:{args.iterations}"] + [args.opponent] * (args.players - 1)  # not cycled
        record = fg.play(game, agents, seed=args.seed)
        page = fg.viewer.replay_html(record, player=args.seat)
    except fg.ConfigError as error:
        parser.error(str(error))
    out.write_text(page, encoding="utf-8")
    out.with_suffix(".json").write_text(record.to_json(indent=1) + "\n", encoding="utf-8")
    final = record.final_state()
    print(
        f"{args.game}: {len(record.moves)} moves, scores {list(final.scores)}, "
        f"winner(s) {list(final.winners)}; seats' agents {', '.join(agents)}"
    )
    print(
        f"replay page written to {out} ({len(page) // 1024} KiB), record to "
        f"{out.with_suffix('.json')}"
    )


if __name__ == "__main__":
    main()
