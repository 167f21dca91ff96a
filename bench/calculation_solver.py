"""The thoughtful Calculation-family solver over a range of deals: decided share, seconds and
peak memory.

    python bench/calculation_solver.py [--games calculation,...] [--deals 1-1000]
                                       [--max-seconds 60] [--max-mb 2048]

Each deal is solved in a forked child process, so its peak memory (the child's maximum
resident set, which starts from the parent's) is its own. Prints one line per game: solved /
unsolvable / unknown, the decided share, median, 90th percentile and largest seconds, the
largest peak memory, and the deals proved unsolvable and left unknown.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
from datetime import date

from thirteen.game import new_state
from thirteen.solver import Budget, solve
from thirteen.solver.build import running

GAMES = ("calculation", "imaginary-thirteen", "imaginary-thirteen-pysol")


def solve_in_child(game: str, number: int, budget: Budget) -> dict[str, object]:
    """Verdict, seconds and peak resident megabytes of one deal, solved in a fork."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: solve, report, exit without the parent's clean-up
        os.close(read)
        result = solve(new_state(game, number), budget)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        with os.fdopen(write, "w") as out:
            json.dump({"verdict": result.verdict, "seconds": result.seconds, "mb": peak}, out)
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as got:
        text = got.read()
    os.waitpid(pid, 0)
    return dict(json.loads(text))


def deal_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--deals", default="1-1000")
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("--max-mb", type=int, default=2048)
    args = parser.parse_args()
    budget = Budget(max_nodes=None, max_seconds=args.max_seconds, max_mb=args.max_mb)
    print(f"# deals {args.deals}, budget {args.max_seconds:g} s and {args.max_mb} MB per deal; "
          f"{date.today()}, {platform.machine()} {os.cpu_count()} cores, Python "
          f"{platform.python_version()} ({running()})", flush=True)
    for game in args.games.split(","):
        rows = {n: solve_in_child(game, n, budget) for n in deal_range(args.deals)}
        verdicts = [str(r["verdict"]) for r in rows.values()]
        seconds = sorted(float(str(r["seconds"])) for r in rows.values())
        decided = len(verdicts) - verdicts.count("unknown")
        p90 = seconds[min(len(seconds) - 1, int(0.9 * len(seconds)))]
        lost = [n for n, r in rows.items() if r["verdict"] == "unsolvable"]
        unknown = [n for n, r in rows.items() if r["verdict"] == "unknown"]
        print(f"{game}: {verdicts.count('solved')} / {len(lost)} / {len(unknown)} "
              f"(solved / unsolvable / unknown), {100 * decided / len(verdicts):.1f}% decided; "
              f"seconds median {statistics.median(seconds):.3f}, p90 {p90:.3f}, "
              f"max {seconds[-1]:.2f}; peak memory "
              f"{max(float(str(r['mb'])) for r in rows.values()):.0f} MB", flush=True)
        print(f"  unsolvable: {lost}\n  unknown: {unknown}", flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
