"""Fail if any function of the package is above the complexity limit (radon's cyclomatic)."""

from __future__ import annotations

import sys
from pathlib import Path

from radon.complexity import cc_visit

LIMIT = 15


def main() -> int:
    """Print every function of forestgames/ above LIMIT; exit 1 if there is one."""
    root = Path(__file__).resolve().parent.parent / "forestgames"
    over = []
    for path in sorted(root.rglob("*.py")):
        for block in cc_visit(path.read_text(encoding="utf-8")):
            if block.letter in ("F", "M") and block.complexity > LIMIT:
                name = (
                    f"{block.classname}.{block.name}"
                    if getattr(block, "classname", None)
                    else block.name
                )
                over.append(
                    f"{path.relative_to(root.parent)}:{block.lineno} {name} {block.complexity}"
                )
    for line in over:
        print(line)
    print(f"{len(over)} function(s) above cyclomatic complexity {LIMIT}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
