"""`solve`, the solver's one entry point: each family of games to its search."""

from __future__ import annotations

from ..calculation import CalcState
from ..game import State
from .calculation import search_calculation
from .common import DEFAULT_BUDGET, Budget, Result, collector_paused, signals_held
from .packer import search_packer


def solve(state: State, budget: Budget = DEFAULT_BUDGET, shorten: bool = False) -> Result:
    """Search ``state`` within ``budget``. Hidden cards are searched as known ("thoughtful"):
    Castles in Spain's face-down cards and the Calculation family's stock order. With
    ``shorten`` a solved line of the Baker's Dozen family has its detours cut out (a line to
    read or watch, or a hint; about 1 ms per 100 moves): surveys and benchmarks leave it off."""
    with collector_paused(), signals_held():
        if isinstance(state, CalcState):
            return search_calculation(state, budget)
        return search_packer(state, budget, shorten)
