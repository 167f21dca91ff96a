"""The solver: ``solved`` (with moves the engine replays to a win), ``unsolvable`` (a proof)
or ``unknown`` (a budget ran out), for every game; hints, difficulty and deals picked by
it on top.

See docs/solver.md for the search and the argument of safety of every pruning rule.
"""

from __future__ import annotations

from ..calculation import CalcState
from ..game import State
from .build import chosen_dir
from .common import DEFAULT_BUDGET, Budget, Result, Verdict, collector_paused

# The compiled modules (packer with relaxed, calculation, fair, and services which imports
# them) are imported after this: so they can come from the mypyc build (`thirteen
# compile-solver`, see .build) when one was built from this very source.
_build = chosen_dir()
if _build is not None:
    __path__.insert(0, str(_build.resolve()))

from .calculation import search_calculation  # noqa: E402
from .fair import fair_move, fair_play  # noqa: E402
from .services import (  # noqa: E402
    DEAD_END,
    NO_LINE,
    WANTED,
    Difficulty,
    Hint,
    Wanted,
    difficulty,
    find_deal,
    found_message,
    hint,
    solve_for_me,
)


def solve(state: State, budget: Budget = DEFAULT_BUDGET, shorten: bool = False) -> Result:
    """Search ``state`` within ``budget``. Hidden cards are searched as known ("thoughtful"):
    Castles in Spain's face-down cards and the Calculation family's stock order. With
    ``shorten`` a solved line of the Baker's Dozen family has its detours cut out (a line to
    read or watch, or a hint; about 1 ms per 100 moves): surveys and benchmarks leave it off."""
    from .packer import search_packer

    with collector_paused():
        if isinstance(state, CalcState):
            return search_calculation(state, budget)
        return search_packer(state, budget, shorten)


__all__ = [
    "DEAD_END", "NO_LINE", "WANTED", "Budget", "Difficulty", "Hint", "Result", "Verdict", "Wanted",
    "difficulty", "fair_move", "fair_play", "find_deal", "found_message", "hint", "solve",
    "solve_for_me",
]
