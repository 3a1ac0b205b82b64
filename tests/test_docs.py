"""Every Python block of README.md and docs/*.md runs as written, pasted into a fresh script."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Pages being rewritten on their branches join as they land (they are edited there).
PENDING = {"boom_bokken.md", "simulation.md"}
PAGES = [
    ROOT / "README.md",
    *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name not in PENDING),
]
BLOCKS = [
    (page, k, block)
    for page in PAGES
    for k, block in enumerate(re.findall(r"```python\n(.*?)```", page.read_text(), re.S))
]


@pytest.mark.parametrize(
    ("page", "index", "block"), BLOCKS, ids=[f"{p.name}-{k}" for p, k, _ in BLOCKS]
)
def test_docs_block_runs_as_a_script(page, index, block, tmp_path):
    """The block runs as its own script (a fresh interpreter, the working directory empty)."""
    script = tmp_path / f"{page.stem}_{index}.py"
    script.write_text(block)
    result = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, f"{page.name} block {index}:\n{block}\n{result.stderr[-3000:]}"
