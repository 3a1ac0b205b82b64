"""Pictures: a tree as text and as SVG, a position as text."""

import xml.etree.ElementTree as ET

from forestgames.bonsai import render_tree, tree_svg
from tests.bonsai.helpers import arrange, example_tiles

SMALL = {
    (0, -1): "wood", (0, -2): "wood", (-1, -1): "leaf", (-1, -2): "leaf",
    (-2, -1): "fruit", (-2, -2): "flower",
}  # fmt: skip


def test_text_tree_golden():
    """A small tree drawn as offset rows, the top first, the pot's three rows last; the
    flower (-1,-2) is in the pot's leftmost column (x = -2)."""
    assert render_tree({(0, -1): "wood", (-1, -1): "leaf", (-1, -2): "flower"}) == "\n".join([
        "*",
        "  L   #",
        "_   _   B   _   _   _",
        "  _   _   _   _   _",
        "    _   _   _   _",
    ])  # fmt: skip


def test_svg_has_one_hexagon_per_tile_and_pot_cell():
    """The SVG parses, with 15 pot cells (the bud a wood tile) plus one polygon per tile."""
    svg = tree_svg(example_tiles())
    root = ET.fromstring(svg)
    polygons = root.findall("{http://www.w3.org/2000/svg}polygon")
    assert len(polygons) == 14 + len(example_tiles()) + 1
    titles = [p.find("{http://www.w3.org/2000/svg}title").text for p in polygons]
    assert sum(t.startswith("pot") for t in titles) == 14
    assert "fruit (2, -3)" in titles and "wood (0, 0)" in titles


def test_state_render_shows_every_seat():
    """render() gives the status line, the market and one block per seat with its tree."""
    state = arrange(2, trees={1: SMALL}, hands={0: ["parchment:leaf"]})
    text = state.render()
    assert text.startswith("Bonsai 2p · turn 1 · action · seat 0 to move")
    # seat 1: 2 leaves, a fruit, a flower with 4 free sides
    assert "seat 1: 17 points" in text and "parchment:leaf" in text and "o" in text
