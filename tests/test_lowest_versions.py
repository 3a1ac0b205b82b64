"""``.ci/lowest.txt``, the pins of CI's lowest-versions run, are pyproject's lower bounds.

``.ci/run`` installs forestgames' dependencies at the lowest versions pyproject.toml
allows (the pins of ``.ci/lowest.txt``, as pip constraints) and runs a part of the suite
there; these tests keep the pins from drifting away from the bounds they stand for.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BOUND = re.compile(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9][0-9.]*)\s*(?:;.*)?")
PIN = re.compile(r"([A-Za-z0-9_.-]+)==([0-9][0-9.]*)")


def _name(name: str) -> str:
    """A distribution's name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _release(version: str) -> tuple[int, ...]:
    """``1.26`` and ``1.26.0`` alike: the release numbers without trailing zeros."""
    parts = [int(part) for part in version.split(".")]
    while parts and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def _bounds(requirements: list[str]) -> dict[str, str]:
    """Name -> lower bound of each ``name>=version`` requirement (all of pyproject's are)."""
    bounds = {}
    for requirement in requirements:
        match = BOUND.fullmatch(requirement.strip())
        assert match, f"{requirement!r} is not of the form name>=version"
        bounds[_name(match[1])] = match[2]
    return bounds


def _pins() -> dict[str, str]:
    """Name -> pinned version of each line of .ci/lowest.txt (comments aside)."""
    pins = {}
    for line in (ROOT / ".ci" / "lowest.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            match = PIN.fullmatch(line)
            assert match, f"{line!r} in .ci/lowest.txt is not of the form name==version"
            pins[_name(match[1])] = match[2]
    return pins


def _project() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_every_dependency_is_pinned_at_its_lower_bound() -> None:
    """Each of pyproject's dependencies is in .ci/lowest.txt, at its lower bound."""
    bounds = _bounds(_project()["dependencies"])
    pins = _pins()
    assert {name: _release(pins.get(name, "0")) for name in bounds} == {
        name: _release(bound) for name, bound in bounds.items()
    }


def test_every_other_pin_is_a_test_extras_lower_bound() -> None:
    """The other pins of .ci/lowest.txt (the test tools) are lower bounds of the test extra."""
    project = _project()
    others = {
        name: version
        for name, version in _pins().items()
        if name not in _bounds(project["dependencies"])
    }
    bounds = _bounds(project["optional-dependencies"]["test"])
    assert {name: _release(version) for name, version in others.items()} == {
        name: _release(bounds.get(name, "0")) for name in others
    }
