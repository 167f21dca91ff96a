"""Between the packer search and the engine: the search's moves in the engine's notation
(`to_engine_moves`), a winning line with its detours cut out (`shortcut`), and the plain
depth-first search through the engine that worry-back games by rank fall back on
(`engine_search`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from ...moves import Move, Place
from ...packer import PackerState
from ..clock import Clock
from ..common import Budget, OutOfBudget, Result, table_bytes
from .encoding import FOUNDATION, IMove, entry, unpack
from .search import _Search
from .tuning import ENGINE_KEY_BYTES


def to_engine_moves(state: PackerState, moves: list[IMove]) -> tuple[Move, ...]:
    """Internal moves in the engine's notation."""
    out = []
    for src, dst, n in moves:
        if src < 0:
            out.append(Move(Place("fs", -1 - src), Place("c", dst)))
            continue
        source = Place("c", src)
        if dst >= 0:
            out.append(Move(source, Place("c", dst), n))
        elif state.variant.kings_down:
            out.append(Move(source, Place("fa" if dst == FOUNDATION else "fk")))
        else:
            out.append(Move(source, Place("f")))
    return tuple(out)



def shortcut(state: PackerState, moves: list[IMove]) -> list[IMove]:
    """``moves``, a winning line, with its detours cut out: from each position of the line,
    play the move that reaches the latest later position of the line (columns in the same
    order, compared whole), until the line is done. A depth-first line wanders (each move is
    the first that was not yet refuted); this costs one `moves` per move of the line."""
    search = _Search(state, Budget(None, None, None))
    where = {search.exact(): 0}
    for k, move in enumerate(moves):
        search.do(entry(0, *move))
        where[search.exact()] = k + 1
    search = _Search(state, Budget(None, None, None))
    out: list[IMove] = []
    i = 0
    while i < len(moves):
        best, step = i + 1, entry(0, *moves[i])
        for m in search.moves():
            record = search.do(m)
            j = where.get(search.exact(), -1)
            search.undo(record)
            if j > best:
                best, step = j, m
        search.do(step)
        out.append(unpack(step))
        i = best
    return out



def _engine_key(state: PackerState) -> Hashable:
    return (tuple(sorted(zip(state.hidden, state.columns, strict=True))), state.foundations)


def engine_search(state: PackerState, budget: Budget) -> Result:
    """Plain depth-first search through the engine (used with ``worry_back``): exact, slow.

    No move is pruned and nothing is played automatically, so its verdicts need no argument.
    """
    clock = Clock(budget, 64)  # a position through the engine is slow: check more often
    seen: set[Hashable] = {_engine_key(state)}
    if state.won:
        return Result("solved", (), 0, clock.elapsed(), 1)
    stack: list[tuple[PackerState, Iterator[Move]]] = [(state, iter(state.legal_moves()))]
    path: list[Move] = []
    try:
        while stack:
            s, it = stack[-1]
            m = next(it, None)
            if m is None:
                stack.pop()
                if path:
                    path.pop()
                continue
            nxt = s.apply(m)
            if nxt.won:
                return Result("solved", (*path, m), clock.nodes, clock.elapsed(), len(seen))
            k = _engine_key(nxt)
            if k in seen:
                continue
            seen.add(k)
            clock.nodes += 1
            if clock.nodes >= clock.due:
                clock.check(table_bytes(seen, ENGINE_KEY_BYTES, clock.every))
            path.append(m)
            stack.append((nxt, iter(nxt.legal_moves())))
    except OutOfBudget as e:
        return Result("unknown", (), clock.nodes, clock.elapsed(), len(seen), str(e))
    return Result("unsolvable", (), clock.nodes, clock.elapsed(), len(seen),
                  "search space exhausted")
