"""The Calculation family's scheduling model alone, on chosen deals and CP-SAT seeds.

    python bench/schedule_model.py [--game imaginary-thirteen-pysol] [--deals 2,79,88]
                                   [--seeds 1,2,3] [--nodes 1600000] [--first-run 4]

Each deal's model (docs/solver.md, *solver/schedule_model.py*) is decided from the deal's
start with the node budget (`NODES_PER_DETERMINISTIC_SECOND` a deterministic second of CP-SAT)
and no clock, once per seed: its verdict, work in deterministic seconds and CPU seconds. The
work is CP-SAT's own measure, the same on any machine and under any load, so it is the figure
to compare; the hardest deals' work depends much on the seed, which is the first run's
(each restart takes the next; ``--first-run``: the first run's deterministic seconds, `FIRST_RUN`
by default; one longer than the budget means no restart). Prints a line a run and, per
seed, the total work with an unknown counting as the whole budget.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from thirteen.arguments import deal_number, positive_count, positive_seconds
from thirteen.calculation import CalcState
from thirteen.game import new_state
from thirteen.solver.schedule_model import FIRST_RUN, NODES_PER_DETERMINISTIC_SECOND, decide
from thirteen.variants import GAMES


def numbers(parse: Callable[[str], float]) -> Callable[[str], list[int]]:
    """An argparse type for a comma-separated list, each item checked by ``parse``."""
    return lambda text: [int(parse(item)) for item in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="imaginary-thirteen-pysol",
                        choices=[g for g, v in GAMES.items() if v.family == "calculation"])
    parser.add_argument("--deals", type=numbers(deal_number), default="2,79,88,158,343,448,708")
    parser.add_argument("--seeds", type=numbers(positive_count), default="1,2,3")
    parser.add_argument("--nodes", type=positive_count, default=8 * NODES_PER_DETERMINISTIC_SECOND)
    parser.add_argument("--first-run", type=positive_seconds, default=FIRST_RUN)
    args = parser.parse_args()
    for seed in args.seeds:
        total = 0.0
        for number in args.deals:
            state = new_state(args.game, number)
            assert isinstance(state, CalcState)
            start = time.process_time()
            answer = decide(state, None, args.nodes, seed, args.first_run)
            work = answer.nodes / NODES_PER_DETERMINISTIC_SECOND
            total += work
            print(f"{args.game} {number} seed {seed}: {answer.verdict}, {work:.2f} "
                  f"deterministic s, {time.process_time() - start:.1f} CPU s", flush=True)
        print(f"seed {seed}: {total:.2f} deterministic s in all", flush=True)


if __name__ == "__main__":
    main()
