"""Option guardian_phase="simultaneous": no seat sees what another did in the Guardian phase
until the Action phase starts (docs/living_forest.md, Choice 2 and "What a seat sees")."""

import json

import attrs
import numpy as np
import pytest

import forestgames as fg
from forestgames.core import GameRecord, StateError
from forestgames.living_forest.actions import SPIRIT_LAYOUT
from forestgames.living_forest.state import Phase
from forestgames.testing import check_game
from forestgames.viewer import positions, replay_html
from tests.living_forest.helpers import checked, play, start

SIM = {"guardian_phase": "simultaneous"}


def restarted(state):
    """``state`` with its phase-start values reset to its pieces now (after a hand edit)."""
    from forestgames.living_forest.state import GuardianStart  # (new in 0.2: imported here)

    start_values = GuardianStart(
        state.decks, state.known, state.discards, state.fragments, state.varans
    )
    return attrs.evolve(state, guardian_start=start_values)


def spirit_block(state, observer, seat):
    """``seat``'s Spirit block in ``observer``'s tensor, as a dict of fields."""
    tensor = state.observation_tensor(observer)
    block = state.game.codec.layout.field(tensor, "spirits")[(seat - observer) % state.num_players]
    return {
        name: block[SPIRIT_LAYOUT.offset[name] : SPIRIT_LAYOUT.offset[name] + size]
        for name, size in (("line", 66), ("fragments", 1), ("deck_size", 1), ("discard_size", 1))
    }


def hand_worked():
    """2 players, seed 1, seat 0 holds the Sacred Tree and one Fragment; its deck starts
    Lynx (solitary), Hummingbird. Seat 0 reveals Lynx, spends its Fragment on it (Lynx to its
    discard pile), reveals Hummingbird and stops: seat 1 to reveal."""
    state = restarted(attrs.evolve(start(2, **SIM), fragments=(1, 0)))
    state = checked(state)
    assert state.help_line(0) == () and state.decks[0][:2] == (
        fg.living_forest.CARD_NAMES.index("Lynx"),
        fg.living_forest.CARD_NAMES.index("Hummingbird"),
    )
    return play(state, "0:reveal", "0:spend Lynx", "0:reveal", "0:stop")


def test_hand_worked_other_seat_sees_the_phase_start():
    """Hand-worked (see ``hand_worked``): the referee sees seat 0 with Help Line
    [Hummingbird], 12 cards in its deck, Lynx discarded and no Fragment (20 in the supply);
    seat 1's observation, tensor and text picture show seat 0 as it started (empty Help
    Line, 14 cards, empty discard, 1 Fragment, 19 in the supply). Once seat 1 stops (the
    Action phase starts) seat 1 sees seat 0's Help Line [Hummingbird] and its discard."""
    state = hand_worked()
    assert state.current_player == 1 and state.phase is Phase.GUARDIANS
    assert state.help_line(0) == ("Hummingbird",) and state.fragments == (0, 0)
    assert state.deck_size(0) == 12 and state.discard_size(0) == 1
    seen = state.observation(1)["spirits"][0]
    assert (seen["line"], seen["fragments"], seen["deck_size"], seen["discard_size"]) == (
        [],
        1,
        14,
        0,
    )
    assert len(seen["cards"]) == 14 and len(state.observation(0)["spirits"][0]["cards"]) == 13
    block = spirit_block(state, 1, 0)
    assert not block["line"].any() and block["fragments"][0] == 1
    assert block["deck_size"][0] == 14 and block["discard_size"][0] == 0
    picture = state.render(1)
    assert "Hummingbird Wa1" not in picture and "fragments 19" in picture
    assert "help line: Hummingbird Wa1" in state.render() and "fragments 20" in state.render()
    assert state.observation(0)["spirits"][0]["line"] == ["Hummingbird"]  # its own: now
    after = play(state, "1:stop")
    assert after.phase is Phase.ACTIONS and after.guardian_start is None
    seen = after.observation(1)["spirits"][0]
    assert seen["line"] == ["Hummingbird"] and seen["fragments"] == 0
    assert seen["discard_size"] == 1 and seen["deck_size"] == 12
    assert spirit_block(after, 1, 0)["line"].sum() == 1
    assert "help line: Hummingbird Wa1" in after.render(1)


def _openspiel_decision(options, actions):
    """The OpenSpiel node at seat 0's first decision (seat 0 first, each chance outcome the
    first), then seat 0's ``actions``."""
    from forestgames.rl.openspiel import _nodes

    table = _nodes.table_for("living_forest", json.dumps(options, sort_keys=True), "win")
    node = _nodes._initial(table).apply(0)
    while node.is_chance:
        node = node.apply(node.legal_actions()[0])
    for action in actions:
        assert node.seat == 0
        node = node.apply(action)
    return node


@pytest.mark.parametrize("players", [2, 3])
def test_two_hidden_reveals_look_the_same_to_the_others(players):
    """Seat 0 reveals twice then stops, or stops at once: to every other seat the two
    positions look the same in observation, tensor, text, SVG, determinize and OpenSpiel's
    information state and observation strings (its moves are not listed, nor counted);
    the referee and seat 0 tell them apart."""
    options = {"num_players": players, **SIM}
    reveal, stop = 0, 1  # action ids
    one = _openspiel_decision(options, [reveal, reveal, stop])
    other = _openspiel_decision(options, [stop])
    a, b = one.state, other.state
    assert a != b and a.current_player == b.current_player == 1
    assert a.render() != b.render() and a.observation(0) != b.observation(0)
    assert one.view(0, True) != other.view(0, True)
    for seat in range(1, players):
        assert a.observation(seat) == b.observation(seat)
        assert np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat))
        assert a.render(seat) == b.render(seat) and a.to_svg(seat) == b.to_svg(seat)
        assert a.determinize(seat, 7) == b.determinize(seat, 7)
        assert one.view(seat, True) == other.view(seat, True)
        assert one.view(seat, False) == other.view(seat, False)
        assert "0:reveal" not in one.view(seat, True) and "0:stop" not in one.view(seat, True)


def test_openspiel_hides_another_seats_reshuffle():
    """2 players, seat 0's 14 cards all in its discard pile as the phase starts: its reveal
    is an OpenSpiel deal (the reshuffle). Seat 1's information state shows neither the
    reveal, nor the deal (its header at the deal node is plain "chance"), nor the stop;
    seat 0's lists them, marked as its own."""
    from forestgames.rl.openspiel import _nodes

    state = start(2, **SIM)
    state = attrs.evolve(
        state, decks=((), state.decks[1]), discards=(tuple(sorted(state.decks[0])), ())
    )
    state = checked(restarted(state))
    options = json.dumps({"num_players": 2, **SIM}, sort_keys=True)
    table = _nodes.table_for("living_forest", options, "win")
    public = ("first player 0", "deal: setup")
    node = _nodes.Node(table, _nodes.DECIDE, state, 0, public=public).apply(0)  # reveal
    assert node.kind == _nodes.DEAL
    assert node.view(1, True).split("\n")[:2] == ["chance", "first player 0; deal: setup"]
    assert "(seat 0 only) deal: reshuffle" in node.view(0, True)
    while node.is_chance:
        node = node.apply(node.legal_actions()[0])
    node = node.apply(1)  # stop
    assert node.seat == 1 and node.state.lines[0] and not node.state.discards[0]
    assert node.view(1, True).split("\n")[:2] == ["seat 1 to play", "first player 0; deal: setup"]
    seen = node.state.observation(1)["spirits"][0]
    assert seen == state.observation(1)["spirits"][0]  # seat 0 as it started
    mine = node.view(0, True).split("\n")[1]
    assert mine == (
        "first player 0; deal: setup; (seat 0 only) 0:reveal; "
        "(seat 0 only) deal: reshuffle; (seat 0 only) 0:stop"
    )


def test_turn_order_shows_the_reveals_before():
    """The default (guardian_phase="turn_order"): seat 1 sees seat 0's reveals at once; the
    default is left out of ``options()`` (records of default games stay as in 0.1), the other
    value is kept."""
    state = start(2)
    assert "guardian_phase" not in state.game.options()
    assert fg.make("living_forest", **SIM).options()["guardian_phase"] == "simultaneous"
    state = play(state, "0:reveal", "0:stop")
    assert state.observation(1)["spirits"][0]["line"] == list(state.help_line(0))
    assert state.guardian_start is None and "guardian_start" not in state.to_dict()


def test_determinize_keeps_the_view_and_replays_the_others():
    """Seat 1's determinizations of the hand-worked position keep its view, legal moves and
    every invariant, depend on the seed, and give seat 0 a finished Guardian turn (its
    phase-start pieces as in seat 1's view)."""
    state = hand_worked()
    samples = [state.determinize(1, seed) for seed in range(12)]
    for sample in samples:
        assert sample.observation(1) == state.observation(1)
        assert sample.legal_moves(1) == state.legal_moves(1)
        assert state.game.state_from_dict(sample.to_dict()) == sample
        assert sample.guardian_start.fragments[0] == 1 and sample.current_player == 1
    assert len({sample.lines[0] for sample in samples}) > 1  # seat 0's turn is redrawn
    assert samples[3] == state.determinize(1, 3)


def test_determinize_of_the_acting_seat_by_a_later_one():
    """3 players, seat 0 finished, seat 1 revealed twice and acting: seat 2's samples leave
    seat 1 the seat to move with a choice, and keep seat 2's view."""
    state = play(start(3, **SIM), "0:reveal", "0:stop", "1:reveal", "1:reveal")
    assert state.current_player == 1
    for seed in range(10):
        sample = state.determinize(2, seed)
        assert sample.current_player == 1 and len(sample.legal_moves(1)) > 1
        assert sample.observation(2) == state.observation(2)
        state.game.state_from_dict(sample.to_dict())


def test_saved_state_round_trip_and_refusals():
    """A simultaneous game's saved state round-trips with its ``guardian_start`` (null in the
    Action phase); a start that does not fit the seats now, a missing or malformed one, or
    one in a default game is a StateError naming it."""
    state = hand_worked()
    game = state.game
    data = json.loads(json.dumps(state.to_dict()))
    assert list(data)[-1] == "guardian_start" and data["guardian_start"]["varans"] == 23
    assert game.state_from_dict(data) == state
    after = play(state, "1:stop")
    assert after.to_dict()["guardian_start"] is None
    assert game.state_from_dict(after.to_dict()) == after

    def refused(change, words):
        bad = json.loads(json.dumps(data))
        change(bad)
        with pytest.raises(StateError, match=words):
            game.state_from_dict(bad)

    refused(lambda d: d.pop("guardian_start"), "guardian_start")
    refused(lambda d: d.update(guardian_start=None), "guardian_start is missing")
    refused(
        lambda d: (
            d["spirits"][0].update(fragments=1),
            d["guardian_start"]["spirits"][0].update(fragments=0),
        ),
        "0 Fragments then, 1 now",
    )
    refused(lambda d: d["guardian_start"].update(varans=22), "Fire Varans stacked")
    refused(lambda d: d["guardian_start"]["spirits"][0]["deck"].pop(), "the cards then")
    refused(lambda d: d["guardian_start"]["spirits"][1].update(known=1), "known top")
    refused(lambda d: d["guardian_start"]["spirits"][0].update(deck=7), "guardian_start")
    moved = json.loads(json.dumps(after.to_dict()))
    moved["guardian_start"] = data["guardian_start"]
    with pytest.raises(StateError, match="Guardian phase only"):
        game.state_from_dict(moved)
    default = fg.make("living_forest", num_players=2)
    with pytest.raises(StateError, match="guardian_start"):
        default.state_from_dict(data)


def test_later_seat_must_be_as_it_started():
    """A seat yet to reveal whose phase-start pieces differ from its pieces now is refused."""
    state = play(start(3, **SIM), "0:reveal", "0:stop")
    data = state.to_dict()
    deck = data["guardian_start"]["spirits"][2]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    with pytest.raises(StateError, match="has not revealed yet"):
        state.game.state_from_dict(data)


def test_replay_pages_skip_the_moves_a_seat_did_not_see():
    """Seat 1's replay positions have no frame after seat 0's hidden Guardian moves and no
    caption naming one; their moves are numbered among those seat 1 saw; its page lists
    only those; the referee's positions are one per move."""
    record = _short_record()
    referee = positions(record)
    assert len(referee) == len(record.moves) + 1
    mine = positions(record, 1)
    assert len(mine) == len(referee) - 3
    assert not any("0:reveal" in p["caption"] or "0:stop" in p["caption"] for p in mine)
    assert mine[1]["caption"].startswith("after move 1: 1:reveal")
    page = replay_html(record, 1)
    assert "0:reveal" not in page and f"{len(record.moves) - 3} moves" in page
    theirs = positions(record, 0)
    assert len(theirs) == len(referee) - 2  # seat 1's reveal and stop; its stop ends the phase


def test_simultaneous_cases_pass_the_harness():
    """The conformance harness on both simultaneous cases of ``LivingForestGame.CASES``."""
    cases = [
        options
        for options in fg.living_forest.LivingForestGame.CASES
        if options.get("guardian_phase") == "simultaneous"
    ]
    assert [case.get("varan_returns", False) for case in cases] == [False, True]
    for options in cases:
        check_game(fg.make("living_forest", **options), games=2, seed=3)


def test_greedy_values_a_reveal_on_the_seats_view():
    """The greedy agent decides a Guardian move on its seat's view: over 700 random moves of
    a 3-player game (seed 0; at move 256 seat 0 would stop on the referee's state, where it
    would see seat 2's Help Line, and reveals on its view), its choice on the state is its
    choice on the view."""
    import random

    from forestgames.agents import GreedyAgent

    game = fg.make("living_forest", num_players=3, **SIM)
    state, rng, compared = game.new_game(seed=0), random.Random(0), 0
    for _ in range(700):
        if state.guardian_start is not None and state.seat_index > 0:
            view = game._seat_view(state, state.current_player)
            assert GreedyAgent(seed=1).choose(state) == GreedyAgent(seed=1).choose(view)
            compared += 1
        moves = state.legal_moves()
        state = state.apply(moves[rng.randrange(len(moves))])
    assert compared > 100


def _short_record():
    """A 2-player simultaneous game of one turn, seed 1, seat 0 first: seat 0 reveals twice
    and stops, seat 1 reveals and stops, then every seat takes its last legal move."""
    game = fg.make("living_forest", num_players=2, turn_limit=1, **SIM)
    moves = ["0:reveal", "0:reveal", "0:stop", "1:reveal", "1:stop"]
    state = play(game.new_game(seed=1, first_player=0), *moves)
    while not state.is_terminal:
        moves.append(str(state.legal_moves()[-1]))
        state = state.apply(state.legal_moves()[-1])
    return GameRecord.start(game, seed=1, first_player=0).with_moves(moves)


def test_command_line_hides_the_moves_a_seat_did_not_see(tmp_path):
    """`forestgames play living_forest --seat 1` (seed 1: seat 0 starts, a random agent)
    prints seat 0's Guardian moves in the default game, none with guardian_phase=
    simultaneous; `forestgames replay --seat 1 --all` of a simultaneous game shows no move of
    seat 0's Guardian turn and counts only the moves seat 1 saw (the referee's, all)."""
    from tests.test_cli import run_cli

    common = ("play", "living_forest", "--seed", "1", "--seat", "1", "--agents", "random")
    default = run_cli(*common, stdin="quit\n")
    hidden = run_cli(*common, "-o", "guardian_phase=simultaneous", stdin="quit\n")
    assert "seat 0 plays 0:" in default.stdout
    assert "seat 0 plays" not in hidden.stdout and "seat 1 to move" in hidden.stdout
    record = _short_record()
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    mine = run_cli("replay", str(path), "--seat", "1", "--all").stdout
    everything = run_cli("replay", str(path), "--all").stdout
    assert "0:reveal" in everything and f"{len(record.moves)} moves" in everything
    assert "0:reveal" not in mine and "0:stop" not in mine
    assert f"{len(record.moves) - 3} moves" in mine and "\n1. 1:reveal\n" in mine
    stepped = run_cli("replay", str(path), "--seat", "1", stdin="\n\nq\n").stdout
    assert "[1/" + str(len(record.moves) - 3) + "] after move 1: 1:reveal" in stepped
