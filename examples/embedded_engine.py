"""The engine inside a program of its own: a turn-based game server in miniature.

A server keeps no game objects between requests: it stores each table's state
as JSON, and for every request loads it, checks and applies the move, and
stores it again. A bot seat answers with a Greedy move. Bad requests get the
library's own error message and leave the stored game untouched.

    python examples/embedded_engine.py
"""

from __future__ import annotations

import argparse
import json

import forestgames as fg


class TableServer:
    """Tables of Bosk kept as JSON text (as a database would keep them)."""

    def __init__(self) -> None:
        self.tables: dict[str, str] = {}
        self.bot = fg.GreedyAgent(seed=1)

    def open_table(self, table: str, players: int, seed: int) -> dict:
        state = fg.make("bosk", num_players=players).new_game(seed=seed)
        self._store(table, state)
        return self.view(table, seat=0)

    def view(self, table: str, seat: int) -> dict:
        """What ``seat`` may see, plus whose turn it is and that seat's legal moves."""
        state = self._load(table)
        return {
            "to_move": state.current_player,
            "scores": list(state.scores),
            "your_moves": [str(m) for m in state.legal_moves(seat)],
            "observation": state.observation(seat),
        }

    def play(self, table: str, text: str) -> dict:
        """Apply the move written ``text``; an error message instead if it is bad."""
        state = self._load(table)
        try:
            state = state.apply(state.game.parse_move(text))
        except (fg.ParseError, fg.IllegalMoveError) as error:
            return {"ok": False, "error": str(error)}
        self._store(table, state)
        return {"ok": True, "over": state.is_terminal, "winners": list(state.winners)}

    def bot_move(self, table: str) -> str:
        """The bot's move for the seat to act (not applied)."""
        return str(self.bot.choose(self._load(table)))

    def _store(self, table: str, state) -> None:
        self.tables[table] = json.dumps({"options": state.game.options(), "state": state.to_dict()})

    def _load(self, table: str):
        saved = json.loads(self.tables[table])
        return fg.make("bosk", **saved["options"]).state_from_dict(saved["state"])


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()  # --help
    server = TableServer()
    seat = server.open_table("oak", players=2, seed=5)["to_move"]
    view = server.view("oak", seat)
    print(f"table oak: seat {seat} to move, with {len(view['your_moves'])} legal moves")
    print("a bad request:", server.play("oak", "0:plant 9@0,0"))
    print("a move out of turn:", server.play("oak", f"{1 - seat}:plant 1@0,0"))
    moves = 0
    while True:  # two bots play the whole game through the server
        reply = server.play("oak", server.bot_move("oak"))
        moves += 1
        if reply["over"]:
            break
    final = server.view("oak", seat=0)
    print(f"after {moves} moves: scores {final['scores']}, winners {reply['winners']}")
    print(f"the stored table is {len(server.tables['oak'])} characters of JSON")


if __name__ == "__main__":
    main()
