"""Error messages from a user's side: a misspelt name gets the close one suggested, a
wrong kind of input is named with the way to the right one."""

from __future__ import annotations

import re

import pytest

import forestgames as fg
from forestgames.agents import make_agent


@pytest.mark.parametrize(
    ("name", "close"),
    [
        ("Bosk", "bosk"),
        ("living-forest", "living_forest"),
        ("bosc", "bosk"),
        ("Boom Bokken", "boom_bokken"),
    ],
)
def test_unknown_game_suggests_the_close_name(name: str, close: str) -> None:
    """make() of a misspelt game name suggests the registered name closest to it."""
    with pytest.raises(
        fg.ConfigError, match=rf"unknown game '{name}' \(did you mean '{close}'\?\)"
    ):
        fg.make(name)


def test_unknown_game_far_from_any_suggests_nothing() -> None:
    """A name close to no game gets the list of games, no guess."""
    with pytest.raises(fg.ConfigError, match="unknown game 'chess'") as error:
        fg.make("chess")
    assert "did you mean" not in str(error.value) and "known games: bosk" in str(error.value)


@pytest.mark.parametrize("game", fg.GAME_NAMES)
@pytest.mark.parametrize("typo", ["num_player", "players", "Num_Players"])
def test_misspelt_option_suggests_the_option(game: str, typo: str) -> None:
    """An option name close to a real one (every game) is answered with that option's name."""
    with pytest.raises(fg.ConfigError, match=rf"'{typo}' \(did you mean 'num_players'\?\); known"):
        fg.make(game, **{typo: 3})


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("bosk", {"ties_include_start": "yes"}, "Bosk: option ties_include_start must be"),
        ("bonsai", {"end_rule": "x"}, "Bonsai: option end_rule must be one of"),
        ("living_forest", {"turn_limit": -1}, "Living Forest: option turn_limit must be in"),
        ("boom_bokken", {"team_sizes": [3, 3]}, "Boom Bokken: team_sizes for 4 players must"),
    ],
)
def test_bad_option_value_names_the_game(name: str, options: dict, message: str) -> None:
    """A bad option value, or a bad combination, says which game's options were wrong
    (a script making several games, or an OpenSpiel string, needs to know which)."""
    with pytest.raises(fg.ConfigError, match=f"^{re.escape(message)}"):
        fg.make(name, **options)


def test_env_keyword_typo_suggests_the_argument() -> None:
    """An RL env's misspelt keyword is matched against the game's options and the env's own
    arguments alike."""
    rl = pytest.importorskip("forestgames.rl")
    pytest.importorskip("gymnasium")
    with pytest.raises(fg.ConfigError, match=r"'oponents' \(did you mean 'opponents'\?\)"):
        rl.gym_env("bosk", oponents="random")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcst", r"unknown agent 'mcst' \(did you mean 'mcts'\?\)"),
        ("mcts:iterations=50", r"'iterations' is not a setting \(did you mean 'n'\?\)"),
        ("mcts:time_per_move=1", r"'time_per_move' is not a setting \(did you mean 't'\?\)"),
        ("mcts:n=5:n=6", r"agent 'mcts:n=5:n=6': n is given twice"),
    ],
)
def test_agent_spec_mistakes_are_named(spec: str, message: str) -> None:
    """A misspelt agent kind or MCTS setting suggests the right one; a repeated key says so."""
    with pytest.raises(fg.ConfigError, match=message):
        make_agent(spec)


_OTHER = {
    "bosk": "bonsai",
    "bonsai": "living_forest",
    "living_forest": "boom_bokken",
    "boom_bokken": "bosk",
}


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_action_id_of_a_string_points_to_parse_move(name: str) -> None:
    """action_id of a move's notation says it is a string and names parse_move, as apply
    does (not 'a move these options can never allow')."""
    game = fg.make(name)
    text = str(game.new_game(seed=1).legal_moves()[0])
    with pytest.raises(fg.IllegalMoveError, match=r"is a string, not a .* move: game\.parse_move"):
        game.action_id(text)


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_another_games_move_is_named_by_its_class(name: str) -> None:
    """A move of another game, given to apply or action_id, is named by its class with this
    game's move classes."""
    game, other = fg.make(name), fg.make(_OTHER[name])
    move = other.new_game(seed=1).legal_moves()[0]
    kinds = ", ".join(kind.__name__ for kind in type(game).MOVE_TYPES)
    expected = rf"is a {type(move).__name__}, not a {type(game).title} move \(one of {kinds}\)"
    with pytest.raises(fg.IllegalMoveError, match=expected):
        game.new_game(seed=1).apply(move)
    with pytest.raises(fg.IllegalMoveError, match=expected + "; it has no action id"):
        game.action_id(move)


def test_out_of_range_move_and_id_name_the_game_by_title() -> None:
    """A move no option allows, and an id out of range, name the game as the other messages
    do (its title) and the player count."""
    game = fg.make("living_forest")
    with pytest.raises(
        fg.IllegalMoveError, match=r"action id 999 is outside 0\.\.262 \(Living Forest, 2"
    ):
        game.move_from_id(999, 0)
    with pytest.raises(
        fg.IllegalMoveError,
        match=r"not a Living Forest move these options can ever allow \(2 players\)",
    ):
        game.action_id(fg.living_forest.Plant(0, "5A", (9, 9)))


def test_record_from_json_of_a_file_name_shows_it_and_says_read_the_file() -> None:
    """from_json of a file name (not its text) quotes the input and says to read the file."""
    with pytest.raises(fg.StateError, match=r"is not JSON \('game\.json'\).*path\.read_bytes\(\)"):
        fg.GameRecord.from_json("game.json")


def test_record_from_dict_of_json_text_points_to_from_json() -> None:
    """from_dict of a record's JSON text points to from_json."""
    record = fg.GameRecord("bosk", {}, 1, None, ["0:plant 1@0,0"])
    with pytest.raises(fg.StateError, match=r"a game record is a dict, not the text .*from_json"):
        fg.GameRecord.from_dict(record.to_json())


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_state_from_json_text_says_json_loads(name: str) -> None:
    """state_from_dict of a state's JSON text (every game) says to json.loads it first."""
    import json

    game = fg.make(name)
    text = json.dumps(game.new_game(seed=1).to_dict())
    with pytest.raises(fg.StateError, match=r"not the text '\{\"game\".*json\.loads\(text\) first"):
        game.state_from_dict(text)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "bosk",
            "0:plant 5@1,1",
            r"a 'plant' move \(S the seat\) is written 'S:plant V@R,C' \(V a tree value 1\.\.4",
        ),
        ("bosk", "0:wind n", r"a 'wind' move .* \(D one of N, E, S, W\)"),
        ("bosk", "0:PLANT 1@0,0", r"written 'S:plant V@R,C'"),
        (
            "bonsai",
            "0:claim purple 1",
            r"a 'claim' move .* \(C one of brown, green, orange, pink, blue, T 1\.\.3\)",
        ),
        ("bonsai", "0:place lef@0,-1", r"'S:place K@Q,R' \(K one of wood, leaf, flower, fruit\)"),
        (
            "living_forest",
            "9:reveal",
            r"a 'reveal' move \(S the seat, 0\.\.3\) is written 'S:reveal'",
        ),
        ("living_forest", "0:plant 5a@1,3", r"TREE one of 3A, 3B, .*R 0\.\.2, C 0\.\.4"),
        (
            "boom_bokken",
            "0:play 5 @2 high",
            r"a 'play' move .* A higher or lower\), e\.g\. '0:play 5 @2 higher'",
        ),
        ("boom_bokken", "0:boom 3", r"'S:boom' or 'S:boom @L' \(L the next leader's seat\)"),
    ],
)
def test_bad_notation_of_a_known_verb_shows_that_verbs_form(
    name: str, text: str, message: str
) -> None:
    """Notation that starts like one kind of move (seat, verb) but is wrong after it gets that
    kind's written form and value ranges, not only the list of examples."""
    with pytest.raises(fg.ParseError, match=rf"^'{re.escape(text)}' is not a .* move: .*{message}"):
        fg.make(name).parse_move(text)


@pytest.mark.parametrize("name", fg.GAME_NAMES)
def test_notation_of_no_known_verb_lists_examples(name: str) -> None:
    """Text that names no kind of move (every game) keeps the list of examples."""
    with pytest.raises(fg.ParseError, match=r"is not a .* move; expected e\.g\. '0:"):
        fg.make(name).parse_move("0:fly away")


def test_saved_list_of_the_wrong_length_says_both_lengths_in_items() -> None:
    """A saved list of the wrong length names the length wanted and the length given, in
    items (``a list of 0..49`` read as a list of values 0..49)."""
    game = fg.make("bosk")
    data = game.new_game(seed=1).to_dict()
    with pytest.raises(
        fg.StateError, match=r"^order must be a list of 2 items, not 1 item: \[0\]$"
    ):
        game.state_from_dict({**data, "order": [0]})
    with pytest.raises(
        fg.StateError, match=r"^trees must be a list of 0\.\.49 items, not 60 items: "
    ):
        game.state_from_dict({**data, "trees": [[0, 0, 0]] * 60})
    with pytest.raises(fg.StateError, match=r"^trees must be a list of 0\.\.49 items, not 'x'$"):
        game.state_from_dict({**data, "trees": "x"})


def test_mcts_spec_value_out_of_range_names_the_spec() -> None:
    """An MCTS spec whose value is out of range names the spec as well as the setting."""
    with pytest.raises(
        fg.ConfigError, match=r"^agent 'mcts:t=-1': time_per_move must be a finite number > 0"
    ):
        make_agent("mcts:t=-1")


def test_vector_from_states_names_the_state_and_option_that_differ() -> None:
    """VectorBosk.from_states of states with other options names the first odd state and the
    options it differs in."""
    state = fg.make("bosk").new_game(seed=1)
    other = fg.make("bosk", num_players=3).new_game(seed=1)
    with pytest.raises(fg.ConfigError, match=r"state 2 has num_players=3 \(state 0: 2\)$"):
        fg.bosk.VectorBosk.from_states([state, state, other])


def test_bosk_terrain_out_of_range_names_the_square() -> None:
    """A terrain id out of range is named with its square and how many are wrong (not only
    the min..max of the grid); an array of the wrong shape is named by its shape once."""
    import numpy as np

    terrain = np.zeros((8, 8), int)
    terrain[2, 3], terrain[5, 5] = 9, -1
    with pytest.raises(
        fg.ConfigError,
        match=r"^Bosk: terrain ids must be 0\.\.7, not 9 at square \(2, 3\) \(2 out of range\)$",
    ):
        fg.make("bosk", terrain=terrain)
    with pytest.raises(
        fg.ConfigError, match=r"8x8 terrain ids with 2 players, not an array of shape \(3, 3\)$"
    ):
        fg.make("bosk", terrain=np.zeros((3, 3), int))


@pytest.mark.parametrize(("text", "close"), [("0:spend bear", "Bear"), ("1:attract wolff", "Wolf")])
def test_a_misspelt_living_forest_card_suggests_the_card(text: str, close: str) -> None:
    """A Guardian Animal's name in the wrong case or misspelt suggests the card."""
    with pytest.raises(fg.ParseError, match=rf"no Guardian Animal card .*did you mean '{close}'"):
        fg.make("living_forest").parse_move(text)


@pytest.mark.parametrize("name", ["bosk", "bonsai", "living_forest", "boom_bokken"])
def test_every_notation_form_has_examples_that_parse(name: str) -> None:
    """Each verb of a game's examples has its written form, and every example in the
    forms and in the list of examples parses, written back as given: a form never
    shows notation the parser refuses."""
    import importlib

    moves = importlib.import_module(f"forestgames.{name}.moves")
    game = fg.make(name)
    verbs = {re.match(r"\d+:([a-z]+)", example).group(1) for example in moves._EXAMPLES}
    assert verbs <= set(moves._FORMS), verbs - set(moves._FORMS)
    shown = [e for form in moves._FORMS.values() for e in re.findall(r"'(\d:[^']+)'", form)]
    assert len(shown) >= len(moves._FORMS)
    for example in (*moves._EXAMPLES, *shown):
        assert str(game.parse_move(example)) == example


def test_a_move_of_another_game_is_named_with_its_article() -> None:
    """'an Attract', not 'a Attract'."""
    from forestgames.living_forest.moves import Attract

    with pytest.raises(fg.IllegalMoveError, match="is an Attract, not a Bosk move"):
        fg.make("bosk").new_game(seed=0).apply(Attract(0, "Wolf"))


def test_an_object_whose_player_raises_is_named_without_reading_it() -> None:
    """action_id of an object whose ``player`` property raises names the object, without
    running the property (its error escaped from the message's own check)."""

    class Odd:
        @property
        def player(self) -> int:
            raise ZeroDivisionError

    with pytest.raises(fg.IllegalMoveError, match=r"is an Odd, not a Bosk move"):
        fg.make("bosk").action_id(Odd())
    with pytest.raises(fg.IllegalMoveError, match=r"is an Odd, not a Bosk move"):
        fg.make("bosk").new_game(seed=0).apply(Odd())  # raised ZeroDivisionError


def test_agent_spec_hints_and_the_callers_seed() -> None:
    """A misspelt kind is suggested with settings after it; a bad seed is the caller's,
    not blamed on the spec; a long MCTS keyword suggests its key, quoted."""
    with pytest.raises(fg.ConfigError, match=r"unknown agent 'mtcs:200' \(did you mean 'mcts'"):
        make_agent("mtcs:200")
    with pytest.raises(fg.ConfigError, match=r"^seed must be an int"):
        make_agent("mcts:200", seed="x")
    with pytest.raises(
        fg.ConfigError, match=r"'reuse_tree' is not a setting \(did you mean 'reuse'"
    ):
        make_agent("mcts:reuse_tree=1")


def test_vector_from_states_names_the_first_square_where_terrains_differ() -> None:
    """Two terrains are told apart by their first differing square (cut to 30 characters
    they read the same)."""
    import numpy as np

    game = fg.make("bosk")
    terrain = np.array(game.terrain)
    terrain[2, 3] = (terrain[2, 3] + 1) % 8
    other = fg.make("bosk", terrain=terrain)
    with pytest.raises(fg.ConfigError, match=r"another terrain with \d at square \(2, 3\)"):
        fg.bosk.VectorBosk.from_states([game.new_game(seed=1), other.new_game(seed=1)])


def test_record_from_json_of_a_path_says_read_the_file() -> None:
    """A Path given for the JSON text says to read the file first."""
    from pathlib import Path

    with pytest.raises(fg.StateError, match=r"read the file first"):
        fg.GameRecord.from_json(Path("game.json"))  # type: ignore[arg-type]
