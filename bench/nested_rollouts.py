"""Positions the nested rollouts alone take to win each deal: the part of the portfolio that
finds the lines of most hard deals (docs/solver.md, *Nested rollouts*), measured by itself so
that a change to it can be judged, at level 1 or deeper (``--level``). From each seed offset,
runs with the next seeds (each with rule D4's counted game, as in the portfolio) until one
wins or ``--max-nodes`` positions are spent ("!" after the figure). Positions, not seconds,
so the figures do not depend on the machine's load; CPU seconds are printed too.

    python bench/nested_rollouts.py good-measure:3 good-measure:992 --offsets 0,5000,10000
    python bench/nested_rollouts.py good-measure:1-20
    python bench/nested_rollouts.py good-measure:9570 --offsets 0 --level 2
"""

from __future__ import annotations

import argparse
import time

import deal_range

from thirteen.arguments import positive_count
from thirteen.game import new_state
from thirteen.packer import PackerState
from thirteen.solver import Budget
from thirteen.solver.build import running
from thirteen.solver.clock import Clock
from thirteen.solver.packer import nested
from thirteen.solver.relaxed import Counted, fits


def positions_to_win(state: PackerState, offset: int, max_nodes: int,
                     level: int) -> tuple[int, bool]:
    """The positions nested runs of ``level`` with seeds ``offset + 1``, ``offset + 2``, ...
    search until one wins (True) or ``max_nodes`` are spent (False)."""
    clock = Clock(Budget(max_nodes=None, max_seconds=None, max_mb=None))
    counted = Counted(state, clock) if fits(state) else None
    seed = offset
    while clock.nodes < max_nodes:
        seed += 1
        if nested(state, Budget(), clock, seed, max_nodes, counted, level=level) is not None:
            return clock.nodes, True
    return clock.nodes, False


def offsets(text: str) -> list[int]:
    """``--offsets``: seed offsets, comma-separated, refused in one line if not whole numbers."""
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not whole numbers, comma-separated: {text!r}") from None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", nargs="+", type=deal_range.spec, metavar="GAME:FIRST-LAST")
    parser.add_argument("--offsets", type=offsets, default=[0, 5000, 10000],
                        help="seed offsets, comma-separated (default: 0,5000,10000)")
    parser.add_argument("--max-nodes", type=positive_count, default=30_000_000)
    parser.add_argument("--level", type=int, choices=(1, 2, 3), default=1,
                        help="the nested search's level: each nests a search of the level"
                             " below after every move (default: 1)")
    args = parser.parse_args()
    for game, _, _ in args.deals:
        if not isinstance(new_state(game, 1), PackerState):
            parser.error(f"{game} is not a game of the Baker's Dozen family")
    print(f"solver: {running()}; at most {args.max_nodes:,} positions a deal and offset")
    total, cpu = 0, 0.0
    for game, first, last in args.deals:
        for number in range(first, last + 1):
            state = new_state(game, number)
            assert isinstance(state, PackerState)
            start = time.process_time()
            figures = []
            for offset in args.offsets:
                nodes, won = positions_to_win(state, offset, args.max_nodes, args.level)
                total += nodes
                figures.append(f"{nodes / 1e6:.1f}M{'' if won else '!'}")
            cpu += time.process_time() - start
            print(f"{game} {number}: " + " ".join(figures), flush=True)
    print(f"total {total / 1e6:.1f} million positions, {cpu:.0f} s CPU")


if __name__ == "__main__":
    main()
