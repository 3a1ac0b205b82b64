"""Hidden information: what a seat is shown, and what its agents choose, depends on what
that seat sees alone (``state.observation(seat)``), for the cases the other hidden-card tests
leave out."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import numpy as np

import forestgames as fg
from forestgames.agents.heuristics import position_value
from tests.strategies import random_game


def _state_at(game: Any, seed: int, step: int) -> Any:
    """The position after ``step`` moves of random game ``seed``."""
    return next(itertools.islice(random_game(game, seed), step, None))[0]


def test_mcts_in_a_simultaneous_guardian_phase_chooses_on_the_seats_view():
    """MCTS's choice in a simultaneous Guardian phase is the same in a determinization for
    its seat: the position value its rewards are centred on is the seat's view's, not the
    real state's (which counts the other Spirits' hidden reveals)."""
    game = fg.make("living_forest", guardian_phase="simultaneous")
    state = _state_at(game, 5, 48)
    seat = state.players_to_act[0]
    assert state.guardian_start is not None and seat == 0
    other = state.determinize(seat, 1)
    assert not np.array_equal(position_value(other), position_value(state))  # what differs
    chosen = fg.MCTSAgent(20, seed=0).choose(state)
    assert fg.MCTSAgent(20, seed=0).choose(other) == chosen


def test_mcts_keeps_no_subtree_across_moves_its_seat_did_not_see():
    """MCTS reuses its tree between decisions only along moves its seat saw: in a
    simultaneous Guardian phase its choice is the same whether the other Spirit revealed
    cards before stopping or stopped at once (before, the kept subtree was found after the
    one and not the other, and the choices differed)."""
    game = fg.make("living_forest", guardian_phase="simultaneous")
    agent, other = fg.MCTSAgent(40, seed=9, confidence=0), fg.GreedyAgent(9)
    state, phase_start, checked = game.new_game(seed=9), None, 0
    while state.turn <= 3:
        if state.guardian_start is None:
            phase_start = None
        if state.players_to_act[0] == 0:
            if phase_start is None and state.guardian_start is not None:
                phase_start = state
            state = state.apply(other.choose(state))
            continue
        if phase_start is not None:  # seat 0's moves of this phase were hidden from seat 1
            stopped = phase_start.apply(game.parse_move("0:stop"))
            if stopped != state and stopped.observation(1) == state.observation(1):
                checked += 1
                chosen = copy.deepcopy(agent).choose(state)
                assert copy.deepcopy(agent).choose(stopped) == chosen, state.turn
        phase_start = None
        state = state.apply(agent.choose(state))
    assert checked >= 2


def test_boom_bokken_reactions_are_the_same_in_every_determinization_for_the_seat():
    """Out of turn (a Flash, a Temps Mort, a Gardien's answer) the shipped agents react the
    same way in a state and in determinizations for the reacting seat: a reaction is chosen
    on what that seat sees, never on the other hands or the deck."""
    game = fg.make("boom_bokken", num_players=6, team_sizes=[3, 3], expert=True)
    agents = {"random": fg.RandomAgent, "greedy": fg.GreedyAgent}
    asked = 0
    for state, _ in random_game(game, 4):
        for seat in state.players_to_act[1:]:
            asked += 1
            others = [state.determinize(seat, k) for k in range(2)]
            for name, agent in [*agents.items(), ("mcts", lambda s: fg.MCTSAgent(5, seed=s))]:
                move = agent(3).react(state, seat)
                assert all(agent(3).react(other, seat) == move for other in others), name
    assert asked >= 20


def test_replay_html_for_a_seat_counts_the_moves_its_page_shows(tmp_path, capsys):
    """``forestgames replay --html --seat N`` says how many moves the seat's page holds (the
    moves that seat saw), as the page itself and the text replay's header do, not the
    record's length with the other Spirit's hidden Guardian moves."""
    import re

    from forestgames.cli import main

    game = fg.make("living_forest", guardian_phase="simultaneous")
    moves = [move for _, move in itertools.islice(random_game(game, 5), 30)]
    record = fg.GameRecord.start(game, 5).with_moves(moves)
    path, page = tmp_path / "game.json", tmp_path / "page.html"
    path.write_text(record.to_json(), encoding="utf-8")
    assert main(["replay", str(path), "--html", str(page), "--seat", "1"]) == 0
    said = re.search(r"replay page of (\d+) moves", capsys.readouterr().out)
    shown = re.search(r"<p>(\d+) moves · seat 1", page.read_text(encoding="utf-8"))
    assert said is not None and shown is not None
    assert int(shown[1]) < len(record.moves)  # seat 1 did not see some of seat 0's moves
    assert int(said[1]) == int(shown[1])
