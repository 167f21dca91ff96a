"""The examples of README.md and docs/ run as written (doctest)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PAGES = [p for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
         if ">>> " in p.read_text()]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_examples_run(page: Path) -> None:
    failed, tried = doctest.testfile(str(page), module_relative=False, verbose=False,
                                     optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert tried > 0 and failed == 0


def test_the_readme_has_examples() -> None:
    assert ROOT / "README.md" in PAGES
