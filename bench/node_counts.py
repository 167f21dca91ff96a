"""Print the verdict and positions searched per deal at a fixed node budget.

    python bench/node_counts.py [--nodes 200000] [--rate] [--max-mb 2048]
                                [--slower-than S] [GAME:FIRST-LAST ...]

A change that should leave the search as it is (a refactor, a compiled build) must print the
same lines before and after: run it on both and ``diff`` the output. The budget is in positions
with no time limit, so the output does not depend on the machine or its load. With ``--rate``
each line also gives the CPU seconds the deal took, and a last line the positions per CPU
second over all deals (CPU time, so that other processes on the machine matter less).
``--slower-than S`` keeps only the deals that the committed survey data (``data/surveys``)
decided in more than S seconds: the hard deals, where a change of the schedule shows.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import deal_range
import survey_data

from thirteen.arguments import positive_count, positive_seconds
from thirteen.deal import deal
from thirteen.game import start_state
from thirteen.solver import Budget, solve
from thirteen.solver.build import running
from thirteen.variants import get_variant

DEALS = ("bakers-dozen:1-30", "good-measure:1-20", "portuguese-solitaire:1-20",
         "castles-in-spain:1-20", "spanish-patience:1-20", "spanish-patience-ii:1-10",
         "spanish-patience-rank:1-10", "bisley:1-20")
SKIP = {("good-measure", 214)}  # far beyond any budget worth waiting for here


def slower_than(game: str, seconds: float) -> set[int]:
    """The deals of ``game`` that the committed survey decided in more than ``seconds``."""
    rows = survey_data.columns(game, ("deal", "verdict", "seconds"))
    return {deal for deal, verdict, took in rows if isinstance(deal, int)
            and isinstance(took, float) and took > seconds and verdict != "unknown"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deals", nargs="*", type=deal_range.spec,
                        default=[deal_range.spec(d) for d in DEALS], help="GAME:FIRST-LAST")
    parser.add_argument("--nodes", type=positive_count, default=200_000)
    parser.add_argument("--rate", action="store_true", help="CPU seconds and positions a second")
    parser.add_argument("--max-mb", type=positive_count, default=2048, help="memory a deal, MB")
    parser.add_argument("--slower-than", type=positive_seconds, metavar="S",
                        help="only the deals that took more than S seconds in the survey data")
    args = parser.parse_args()
    nodes = 0
    seconds = 0.0
    verdicts: Counter[str] = Counter()
    if args.slower_than is not None:
        survey_data.require(parser, (game for game, _, _ in args.deals))
    print(f"# {running()}, {args.nodes} positions", flush=True)
    for game, first, last in args.deals:
        variant = get_variant(game)
        hard = slower_than(game, args.slower_than) if args.slower_than is not None else None
        for number in range(first, last + 1):
            if (game, number) in SKIP or hard is not None and number not in hard:
                continue
            state = start_state(variant, deal(variant, number))
            start = time.process_time()
            budget = Budget(max_nodes=args.nodes, max_seconds=None, max_mb=args.max_mb)
            result = solve(state, budget)
            took = time.process_time() - start
            nodes += result.nodes
            seconds += took
            verdicts[result.verdict] += 1
            print(game, number, result.verdict, result.nodes,
                  *([f"{took:.2f}s"] if args.rate else []), flush=True)
    print(f"# {sum(verdicts.values())} deals: " + ", ".join(
        f"{verdicts[v]} {v}" for v in ("solved", "unsolvable", "unknown")))
    if args.rate:
        print(f"# {nodes} positions in {seconds:.2f} s of CPU: {nodes / seconds:,.0f} a second")


if __name__ == "__main__":
    main()
