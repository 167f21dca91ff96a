"""Search for the Baker's Dozen family (packers), on a compact internal representation.

The modules, each one idea (docs/solver.md, *Modules*): `encoding` (cards, columns and moves
as small ints), `position` (a position played and taken back in place, its key, the safe
moves home), `ordering` (which move first), `deadends` (rules D1, D3 and D4 inside a search),
`search` (the exhaustive depth-first search), `probes` (beams and nested rollouts), `split`
(the frontier search), `schedule` (the portfolio that runs them in turn), `tuning` (its
figures) and `engine` (to and from the engine's moves, and its plain search). mypyc compiles
them as one group (`thirteen.solver.build`).

With ``worry_back`` the search without worry-back moves runs first; the search with them
plays nothing home by itself and proves no dead end (`search_packer`; foundations by rank:
`engine_search`).
"""

from __future__ import annotations

import dataclasses

from ...packer import PackerState
from ..common import Budget, OutOfBudget, Result, checked_result
from .encoding import IMove, unpack
from .engine import engine_search, shortcut, to_engine_moves
from .probes import beam, nested
from .schedule import luby, portfolio
from .search import _Search
from .split import Split


def search_packer(state: PackerState, budget: Budget, shorten: bool = False) -> Result:
    """Solve a packer position (see `thirteen.solver.solve`).

    With ``worry_back`` a line that never worries back wins too, so the faster search
    without it runs first on half the budget; only when that proves nothing does the
    search with worry-back moves run, on what is left.
    """
    v = state.variant
    if not v.worry_back:
        return _search_fast(state, budget, shorten)
    plain = dataclasses.replace(state, variant=v.with_options(worry_back=False))
    first = _search_fast(plain, _share(budget, 0.5, None), shorten)
    if first.verdict == "solved":
        return first
    rest = _share(budget, 1.0, first)
    second = (_search_fast(state, rest, shorten) if v.foundations == "suit"
              else engine_search(state, rest))
    return dataclasses.replace(second, nodes=first.nodes + second.nodes,
                               seconds=first.seconds + second.seconds,
                               peak_states=max(first.peak_states, second.peak_states))



def _share(budget: Budget, part: float, spent: Result | None) -> Budget:
    """``part`` of ``budget``, less what ``spent`` used of it."""
    nodes = budget.max_nodes
    seconds = budget.max_seconds
    if nodes is not None:
        nodes = max(1, int(nodes * part) - (spent.nodes if spent else 0))
    if seconds is not None:
        seconds = max(0.001, seconds * part - (spent.seconds if spent else 0.0))
    return Budget(nodes, seconds, budget.max_mb)


def _search_fast(state: PackerState, budget: Budget, shorten: bool) -> Result:
    """The `_Search` portfolio (its line `shortcut` if asked), its moves checked by replaying
    them through the engine."""
    search = _Search(state, budget)
    try:
        verdict, imoves, reason = portfolio(search, state, budget)
    except OutOfBudget as e:
        return Result("unknown", (), search.clock.nodes, search.clock.elapsed(),
                      len(search.tt) or search.dropped, str(e))
    if shorten and verdict == "solved":
        imoves = shortcut(state, imoves)
    moves = to_engine_moves(state, imoves) if verdict == "solved" else ()
    return checked_result(state, verdict, moves, search.clock.nodes,
                          search.clock.elapsed(), len(search.tt) or search.dropped, reason)



__all__ = [
    "IMove", "Split", "beam", "engine_search", "luby", "nested", "search_packer", "shortcut",
    "to_engine_moves", "unpack",
]
