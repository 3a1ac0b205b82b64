"""Public paths of the shared core and of move values that no other test reached."""

import numpy as np
import pytest

import forestgames as fg
from forestgames.boom_bokken import Play


def test_record_start_checks_options_and_first_player():
    """GameRecord.start refuses options given with a game object, and a first_player that is
    no seat of the game (ConfigError); a valid seat is kept."""
    game = fg.make("bosk", num_players=2)
    with pytest.raises(fg.ConfigError, match="give options with a game name, not with a game"):
        fg.GameRecord.start(game, 1, num_players=3)
    with pytest.raises(fg.ConfigError, match="first_player 2 is not a seat of a 2-player game"):
        fg.GameRecord.start("bosk", 1, first_player=2)
    assert fg.GameRecord.start(game, 1, first_player=1).first_player == 1


def test_record_keeps_numpy_seed_and_first_player_as_ints():
    """GameRecord(...) given a numpy seed and first_player keeps them as ints: the record is
    start's and its JSON writes (to_json raised TypeError: 'int64 is not JSON serializable')."""
    game = fg.make("bosk", num_players=2)
    expected = fg.GameRecord.start(game, 7, first_player=1)
    for kind in (np.int64, np.uint8, np.uint64):
        record = fg.GameRecord("bosk", game.options(), kind(7), kind(1), ())
        assert type(record.seed) is int and type(record.first_player) is int
        assert record == expected and record.to_json() == expected.to_json()


def test_boom_bokken_play_takes_a_numpy_array_of_cards():
    """A Play built from a 1-D numpy array of card names equals the one built from a tuple."""
    assert Play(0, np.array(["3", "F3"]), 1, "higher") == Play(0, ("F3", "3"), 1, "higher")


def test_a_record_that_can_be_built_reads_back_from_its_json():
    """What from_json would refuse is a ConfigError when a record is built (to_json wrote it);
    a first_player above 64, a seat of a larger game, reads back."""
    start = fg.GameRecord.start("bosk", 1)
    too_big = [
        lambda: start.with_moves(["0:x"] * (fg.core.MAX_RECORD_MOVES + 1)),
        lambda: start.with_moves(["0:" + "x" * fg.core.MAX_NOTATION]),
        lambda: fg.GameRecord("bosk", {f"o{k}": k for k in range(65)}, 1, None, ()),
        lambda: fg.GameRecord("bosk", {"o" * 65: 1}, 1, None, ()),
        lambda: fg.GameRecord("g" * 65, {}, 1, None, ()),
    ]
    for build in too_big:
        with pytest.raises(fg.ConfigError, match="at most"):
            build()
    for record in (
        start.with_moves(["0:" + "x" * (fg.core.MAX_NOTATION - 2)]),
        fg.GameRecord("g" * 64, {f"o{k}" * 16: k for k in range(64)}, 1, 65, ()),
    ):
        assert fg.GameRecord.from_json(record.to_json()) == record


def test_a_record_refuses_options_json_cannot_hold():
    """NaN and infinities in a record's options are ConfigError, built or read (to_json wrote
    NaN, which is not JSON, and the record read back was not == to itself)."""
    for value in (
        float("nan"),
        float("inf"),
        -float("inf"),
        np.float32("nan"),
        [1.0, float("nan")],
    ):
        with pytest.raises(fg.ConfigError, match=r"no (nan|inf|-inf)$"):
            fg.GameRecord("bosk", {"x": value}, 1, None, ())
    text = '{"game": "bosk", "options": {"x": NaN}, "seed": 1, "first_player": null, "moves": []}'
    with pytest.raises(fg.ForestGamesError, match="no nan"):
        fg.GameRecord.from_json(text)


@pytest.mark.parametrize(
    ("name", "option", "value"),
    [("bonsai", "end_rule", "extra_turn"), ("boom_bokken", "spent_time_outs", "aside")],
)
def test_a_choice_option_takes_numpy_text(name, option, value):
    """A choice option given numpy text (np.str_, from a numpy grid of options) is that choice,
    stored as a plain str (it was refused: "must be one of ..., 'aside', not 'aside'")."""
    game = fg.make(name, **{option: np.array([value])[0]})
    assert game == fg.make(name, **{option: value}) and type(getattr(game, option)) is str
    with pytest.raises(fg.ConfigError, match=f"option {option} must be one of"):
        fg.make(name, **{option: np.str_("x")})
