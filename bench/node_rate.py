"""Positions searched per second of CPU time, load-independent: each deal is searched up to a
budget of positions, so the same positions are searched whatever else the machine runs, and
the best of ``--repeat`` runs is kept (other processes only ever slow a run down).

    python bench/node_rate.py bakers-dozen:417 good-measure:214 --max-nodes 1000000
    THIRTEEN_COMPILED_SOLVER=off python bench/node_rate.py ...   # the source, not the build
"""

from __future__ import annotations

import argparse
import time

from thirteen.game import new_state
from thirteen.solver import Budget, solve
from thirteen.solver.build import running


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", nargs="+", metavar="GAME:N")
    parser.add_argument("--max-nodes", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"solver: {running()}; budget {args.max_nodes} positions; best of {args.repeat}")
    for deal in args.deals:
        game, number = deal.split(":")
        best = float("inf")
        for _ in range(args.repeat):
            start = time.process_time()
            result = solve(new_state(game, int(number)),
                           Budget(max_nodes=args.max_nodes, max_seconds=None, max_mb=2048))
            best = min(best, time.process_time() - start)
        print(f"{game} {number}: {result.verdict}, {result.nodes} positions, {best:.2f} s CPU, "
              f"{result.nodes / best:,.0f} positions/s")


if __name__ == "__main__":
    main()
