"""The reaction driver documented in forestgames/boom_bokken/state.py, run as written."""

import random

import pytest

import forestgames as fg


class RandomReactor:
    """Reacts with a random legal move one time in three; chooses at random when asked."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def react(self, state, seat):
        moves = state.legal_moves(seat)
        return self.rng.choice(moves) if moves and self.rng.random() < 1 / 3 else None

    def choose(self, state):
        return self.rng.choice(state.legal_moves())


def drive(game, seed):
    """Play one game with the documented loop; return the moves made."""
    agents = [RandomReactor(seed * 100 + seat) for seat in range(game.num_players)]
    rng = random.Random(seed)
    state, made = game.new_game(seed=seed), []
    while not state.is_terminal:
        order = list(state.players_to_act[1:])
        rng.shuffle(order)
        for seat in order:
            move = agents[seat].react(state, seat)
            if move is not None:
                assert move.player == seat and seat != state.current_player
                break
        else:
            move = agents[state.current_player].choose(state)
            assert move.player == state.current_player
        state = state.apply(move)
        made.append(move)
        assert len(made) <= game.traits.max_moves
    return made


@pytest.mark.parametrize(("players", "expert"), [(4, False), (7, False), (6, True), (9, True)])
def test_documented_driver_plays_whole_games(players, expert):
    """The driver loop gives reactors their chance, applies only legal moves and ends."""
    game = fg.make("boom_bokken", num_players=players, expert=expert)
    for seed in range(3):
        made = drive(game, seed)
        assert made and made == drive(game, seed)  # seeded: the same game again
