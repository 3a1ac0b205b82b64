"""Docstring promises of the games' public functions and of ``forestgames.rl`` found
unkept (or unpinned) by a bug hunt, each pinned by one test."""

from __future__ import annotations

import pytest

import forestgames as fg
from forestgames.bonsai import Tree
from forestgames.bonsai._tables import cell_of
from forestgames.bonsai.actions import reachable_cells
from forestgames.boom_bokken import round_coins
from forestgames.boom_bokken.hidden import allowed_codes, determinize


def test_round_coins_refuses_a_team_id_that_does_not_hash() -> None:
    """round_coins: a team id that cannot be hashed (a tuple holding a list) is a StateError."""
    with pytest.raises(fg.StateError, match=r"team_of\[0\].*not a team id"):
        round_coins([0], [([1],)])


def test_hidden_determinize_refuses_a_player_who_is_no_seat() -> None:
    """boom_bokken.hidden.determinize: a player who is no seat is an IllegalMoveError, as
    state.determinize, not a state with every hand dealt again."""
    state = fg.make("boom_bokken", num_players=4).new_game(seed=1)
    with pytest.raises(fg.IllegalMoveError, match="player 9 is not a seat"):
        determinize(state, 9, 1)


def test_bonsai_seedling_refuses_an_option_that_is_no_bool() -> None:
    """Tree.seedling: a wood_beside_pot that is no bool is a StateError, as Tree.from_tiles."""
    with pytest.raises(fg.StateError, match="wood_beside_pot must be a bool"):
        Tree.seedling("x")  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", [9, -1, "leaf"])
def test_bonsai_open_cells_refuses_a_kind_out_of_range(kind: object) -> None:
    """Tree.open_cells: a kind outside 0..3 (or no int) is a StateError, not fruit's cells
    for -1 nor Python's IndexError or TypeError."""
    with pytest.raises(fg.StateError, match="open_cells: kind"):
        Tree.seedling().open_cells(kind)  # type: ignore[arg-type]


@pytest.mark.parametrize("at", [(0, -1), (0, 0), (3, -3)])
def test_bonsai_without_leaf_refuses_a_cell_holding_no_leaf(at: tuple[int, int]) -> None:
    """Tree.without_leaf: a cell holding wood (the bud too) or nothing is a StateError, not
    a tree with that wood gone nor Python's KeyError."""
    tree = Tree.from_tiles({(0, -1): "wood", (0, -2): "leaf"})
    with pytest.raises(fg.StateError, match="holds no leaf"):
        tree.without_leaf(cell_of(*at))
    with pytest.raises(fg.StateError, match="holds no leaf"):
        tree.without_leaf([1])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("radius", "beside"), [(-1, False), (2.5, False), (10**6, False), (3, "x")]
)
def test_bonsai_reachable_cells_refuses_a_radius_out_of_range(
    radius: object, beside: object
) -> None:
    """reachable_cells: a radius that is no int 0..COORD_LIMIT (a negative one searched
    forever) or an option that is no bool is a ConfigError."""
    with pytest.raises(fg.ConfigError, match="reachable_cells"):
        reachable_cells(radius, beside)  # type: ignore[arg-type]


@pytest.mark.parametrize("fact", [(5, "x"), (99, True), ("x",), (-1, True)])
def test_boom_bokken_allowed_codes_refuses_a_malformed_fact(fact: object) -> None:
    """allowed_codes: a fact that is neither None nor a (card code, bool) pair is a
    StateError, not Python's IndexError or TypeError (nor a card read from the end)."""
    with pytest.raises(fg.StateError, match="an explosion's fact"):
        allowed_codes(fact)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "words"),
    [("0:extinguish x", "an 'extinguish' move"), ("0:attract", "an 'attract' move"),
     ("0:reveal q", "a 'reveal' move")],
)  # fmt: skip
def test_a_notation_message_names_its_kind_of_move_with_the_right_article(text, words):
    """A refused notation names its kind of move with "an" before a vowel ("a 'extinguish'
    move" was written)."""
    with pytest.raises(fg.ParseError, match=words):
        fg.make("living_forest", num_players=2).parse_move(text)
