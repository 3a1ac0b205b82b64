"""The docs page's code runs, and its picture is the worked example's SVG."""

from pathlib import Path

from forestgames.bonsai import tree_svg
from tests.bonsai.helpers import example_tiles

DOCS = Path(__file__).parents[2] / "docs"


def test_usage_example_runs():
    """The Usage block of docs/bonsai.md executes without error."""
    text = (DOCS / "bonsai.md").read_text()
    code = text.split("```python", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/bonsai.md", "exec"), {})


def test_committed_svg_is_the_worked_example():
    """docs/img/bonsai_example.svg is what tree_svg draws for the worked example."""
    assert (DOCS / "img" / "bonsai_example.svg").read_text() == tree_svg(example_tiles()) + "\n"
