"""Positions the nested rollouts alone take to win each deal: the part of the portfolio that
finds the lines of most hard deals (docs/solver.md, *Nested rollouts*), measured by itself so
that a change to it can be judged. From each seed offset, runs with the next seeds (each with
rule D4's counted game, as in the portfolio) until one wins or ``--max-nodes`` positions are
spent ("!" after the figure). Positions, not seconds, so the figures do not depend on the
machine's load; CPU seconds are printed too.

    python bench/nested_rollouts.py good-measure:3 good-measure:992 --offsets 0,5000,10000
"""

from __future__ import annotations

import argparse
import time

from thirteen.game import new_state
from thirteen.packer import PackerState
from thirteen.solver import Budget
from thirteen.solver.build import running
from thirteen.solver.clock import Clock
from thirteen.solver.packer import nested
from thirteen.solver.relaxed import Counted, fits


def positions_to_win(state: PackerState, offset: int, max_nodes: int) -> tuple[int, bool]:
    """The positions nested runs with seeds ``offset + 1``, ``offset + 2``, ... search until one
    wins (True) or ``max_nodes`` are spent (False)."""
    clock = Clock(Budget(max_nodes=None, max_seconds=None, max_mb=None))
    counted = Counted(state, clock) if fits(state) else None
    seed = offset
    while clock.nodes < max_nodes:
        seed += 1
        if nested(state, Budget(), clock, seed, max_nodes, counted) is not None:
            return clock.nodes, True
    return clock.nodes, False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", nargs="+", metavar="GAME:N")
    parser.add_argument("--offsets", default="0,5000,10000",
                        help="seed offsets, comma-separated (default: 0,5000,10000)")
    parser.add_argument("--max-nodes", type=int, default=30_000_000)
    args = parser.parse_args()
    offsets = [int(x) for x in args.offsets.split(",")]
    print(f"solver: {running()}; at most {args.max_nodes:,} positions a deal and offset")
    total, cpu = 0, 0.0
    for deal in args.deals:
        game, number = deal.split(":")
        state = new_state(game, int(number))
        if not isinstance(state, PackerState):
            parser.error(f"{game} is not a game of the Baker's Dozen family")
        start = time.process_time()
        figures = []
        for offset in offsets:
            nodes, won = positions_to_win(state, offset, args.max_nodes)
            total += nodes
            figures.append(f"{nodes / 1e6:.1f}M{'' if won else '!'}")
        cpu += time.process_time() - start
        print(f"{game} {number}: " + " ".join(figures), flush=True)
    print(f"total {total / 1e6:.1f} million positions, {cpu:.0f} s CPU")


if __name__ == "__main__":
    main()
