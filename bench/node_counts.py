"""Print the verdict and positions searched per deal at a fixed node budget.

    python bench/node_counts.py [--nodes 200000] [GAME:FIRST-LAST ...]

A change that should leave the search as it is (a refactor, a compiled build) must print the
same lines before and after: run it on both and ``diff`` the output. The budget is in positions
with no time limit, so the output does not depend on the machine or its load.
"""

from __future__ import annotations

import argparse

from thirteen.deal import deal
from thirteen.game import start_state
from thirteen.solver import Budget, solve
from thirteen.solver.build import running
from thirteen.variants import get_variant

DEALS = ("bakers-dozen:1-30", "good-measure:1-20", "portuguese-solitaire:1-20",
         "castles-in-spain:1-20", "spanish-patience:1-20", "spanish-patience-ii:1-10",
         "spanish-patience-rank:1-10", "bisley:1-20")
SKIP = {("good-measure", 214)}  # far beyond any budget worth waiting for here


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deals", nargs="*", default=DEALS, help="GAME:FIRST-LAST")
    parser.add_argument("--nodes", type=int, default=200_000)
    args = parser.parse_args()
    print(f"# {running()}, {args.nodes} positions", flush=True)
    for spec in args.deals:
        game, numbers = spec.split(":")
        first, last = (int(n) for n in numbers.split("-"))
        variant = get_variant(game)
        for number in range(first, last + 1):
            if (game, number) in SKIP:
                continue
            state = start_state(variant, deal(variant, number))
            result = solve(state, Budget(max_nodes=args.nodes, max_seconds=None))
            print(game, number, result.verdict, result.nodes, flush=True)


if __name__ == "__main__":
    main()
