"""Count the deals the solver decides at each node budget (load-independent).

    python bench/decided_by_nodes.py GAME FIRST LAST [--nodes 10000,40000,160000]

Budgets are in positions searched with a large time limit, so the counts do not depend on the
machine's load and two runs of one version give the same figures. Prints one line per budget:
solved / unsolvable / unknown and the number decided.
"""

from __future__ import annotations

from collections import Counter

import deal_range

from thirteen.solver import Budget, solve


def main() -> None:
    parser = deal_range.parser(__doc__)
    parser.add_argument("--nodes", default="10000,40000,160000")
    args = parser.parse_args()
    states = deal_range.start_states(args)
    for nodes in (int(n) for n in args.nodes.split(",")):
        counts: Counter[str] = Counter()
        for state in states:
            counts[solve(state, Budget(max_nodes=nodes, max_seconds=3600.0)).verdict] += 1
        decided = counts["solved"] + counts["unsolvable"]
        print(f"{args.game} {args.first}-{args.last} at {nodes} positions: "
              f"{counts['solved']} / {counts['unsolvable']} / {counts['unknown']} "
              f"(solved / unsolvable / unknown), {decided} decided", flush=True)


if __name__ == "__main__":
    main()
