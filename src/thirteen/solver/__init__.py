"""The solver: ``solved`` (with moves the engine replays to a win), ``unsolvable`` (a proof)
or ``unknown`` (a budget ran out), for every game; hints and difficulty on top.

See docs/solver.md for the search and the argument of safety of every pruning rule.
"""

from __future__ import annotations

from ..calculation import CalcState
from ..game import State
from .calculation import fair_move, fair_play, search_calculation
from .common import DEFAULT_BUDGET, Budget, Result, Verdict
from .packer import search_packer
from .services import DEAD_END, Difficulty, Hint, difficulty, hint


def solve(state: State, budget: Budget = DEFAULT_BUDGET) -> Result:
    """Search ``state`` within ``budget``. Hidden cards are searched as known ("thoughtful"):
    Castles in Spain's face-down cards and the Calculation family's stock order."""
    if isinstance(state, CalcState):
        return search_calculation(state, budget)
    return search_packer(state, budget)


__all__ = [
    "DEAD_END", "Budget", "Difficulty", "Hint", "Result", "Verdict", "difficulty", "fair_move",
    "fair_play", "hint", "solve",
]
