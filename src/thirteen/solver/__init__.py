"""The solver: ``solved`` (with moves the engine replays to a win), ``unsolvable`` (a proof)
or ``unknown`` (a budget ran out), for every game; hints, difficulty and deals picked by
it on top.

See docs/solver.md for the search and the argument of safety of every pruning rule.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from pathlib import Path

from ..calculation import CalcState
from ..game import State
from .calculation import fair_move, fair_play, search_calculation
from .common import DEFAULT_BUDGET, Budget, Result, Verdict
from .services import (
    DEAD_END,
    WANTED,
    Difficulty,
    Hint,
    Wanted,
    difficulty,
    find_deal,
    found_message,
    hint,
)


def _use_compiled(build: str) -> None:
    """Import the packer search from a mypyc build (`scripts/compile-solver`) when it was built
    from this very source; otherwise warn and keep the source, so a stale build never runs."""
    source = Path(__file__).with_name("packer.py")
    stamp = Path(build, "packer.sha256")
    built = stamp.read_text().strip() if stamp.is_file() else ""
    if built != hashlib.sha256(source.read_bytes()).hexdigest():
        warnings.warn(f"THIRTEEN_COMPILED_SOLVER={build} was not built from {source}; "
                      "using the source (run scripts/compile-solver again)", stacklevel=2)
        return
    __path__.insert(0, str(Path(build).resolve()))


# The packer search is imported in `solve`, after this: so it can come from a mypyc build.
if os.environ.get("THIRTEEN_COMPILED_SOLVER"):
    _use_compiled(os.environ["THIRTEEN_COMPILED_SOLVER"])


def solve(state: State, budget: Budget = DEFAULT_BUDGET) -> Result:
    """Search ``state`` within ``budget``. Hidden cards are searched as known ("thoughtful"):
    Castles in Spain's face-down cards and the Calculation family's stock order."""
    if isinstance(state, CalcState):
        return search_calculation(state, budget)
    from .packer import search_packer

    return search_packer(state, budget)


__all__ = [
    "DEAD_END", "WANTED", "Budget", "Difficulty", "Hint", "Result", "Verdict", "Wanted",
    "difficulty", "fair_move", "fair_play", "find_deal", "found_message", "hint", "solve",
]
