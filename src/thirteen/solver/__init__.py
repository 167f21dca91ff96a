"""The solver: ``solved`` (with moves the engine replays to a win), ``unsolvable`` (a proof)
or ``unknown`` (a budget ran out), for every game; hints, difficulty and deals picked by
it on top.

See docs/solver.md for the search and the argument of safety of every pruning rule.

The search modules (`build.MODULES`) may come from a mypyc build (`thirteen compile-solver`).
A build lies outside the source tree, in a directory named after the digest of the sources it
was built from; `build.chosen_dir` finds the one built from this very source (or the one
``THIRTEEN_COMPILED_SOLVER`` names, or none when it says ``off``). That directory goes first
on this package's ``__path__`` before any search module is imported, so Python's import
system loads each of them from the build and every other module from the source.
"""

from __future__ import annotations

from .build import chosen_dir

_build = chosen_dir()
if _build is not None:
    __path__.insert(0, str(_build.resolve()))

from .common import Budget, Result, Verdict  # noqa: E402
from .dispatch import solve  # noqa: E402
from .fair import fair_move  # noqa: E402
from .services import (  # noqa: E402
    DEAD_END,
    NO_LINE,
    WANTED,
    Difficulty,
    Hint,
    Played,
    Wanted,
    difficulty,
    fair_play,
    find_deal,
    found_message,
    hint,
    line_hint,
    solve_for_me,
)

__all__ = [
    "DEAD_END", "NO_LINE", "WANTED", "Budget", "Difficulty", "Hint", "Played", "Result", "Verdict",
    "Wanted",
    "difficulty", "fair_move", "fair_play", "find_deal", "found_message", "hint", "line_hint",
    "solve", "solve_for_me",
]
