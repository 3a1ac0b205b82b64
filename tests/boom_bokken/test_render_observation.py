"""What a seat sees, and the text picture."""

from tests.boom_bokken.positions import play, table


def test_observation_of_a_scripted_position():
    """Seat 1 sees its own hand, the sizes of the others, the pile and the announcement."""
    state = table([["5", "1"], ["2", "T"], ["4", "F5"], ["7"]], [0, 1, 0, 1], deck_top=("8",))
    state = play(state, "0:play 5 @1 higher")
    view = state.observation(1)
    assert view["hand"] == ["T", "2"]
    assert view["hand_sizes"] == [1, 2, 2, 1]
    assert view["deck_size"] == state.deck_size
    assert view["pile"] == ["5"] and view["target"] == 1 and view["announce"] == "higher"
    assert view["last_player"] == 0 and view["teams"] == [0, 1, 0, 1]
    assert "F5" not in str(view) and "deck" not in view and "hands" not in view


def test_render_shows_status_pile_and_seats():
    """render() names the round, the named seat and announcement, the pile and every seat."""
    state = table([["5", "1"], ["2"], ["4"], ["7"]], [0, 1, 0, 1])
    text = play(state, "0:play 5 @1 higher", "1:boom @3").render()
    assert "round 1" in text and "seat 3 leads" in text
    seats = {line.split()[1]: line for line in text.splitlines() if line[1:].startswith("seat")}
    assert "team 1" in seats["1"] and "exploded" in seats["1"] and "tokens 1" in seats["0"]
    text = play(
        table([["5", "1"], ["2"], ["4"], ["7"]], [0, 1, 0, 1]), "0:play 5 @1 higher"
    ).render()
    assert "seat 1 named: higher than 5 (played by seat 0)" in text and "pile 5" in text
