"""What Freecell Solver says of the deals the committed survey data leaves unknown.

    python bench/fcsolve_unknown.py GAME [--tried S] [--iterations N] [--max-seconds S]
        [--fc-solve PATH]

Why: a deal our solver leaves unknown at the survey's largest budget is either one its line
finders miss (if fc-solve solves it) or one whose proof it cannot hold; fc-solve's answer on
the same board tells the two apart where it has one, and says whether the deals left are
hard for the reference solver too. Each deal unknown in ``data/surveys`` (with ``--tried``,
only those left unknown by a budget of at least that many seconds) is given to fc-solve
with PySolFC's settings and with its multi-strategy line (as `solver_vs_fcsolve.py` does),
each with ``-sel -mi N``; fc-solve holds about a kilobyte a position (Baker's Dozen 56244: 22.7
GB after 20 million), so N bounds its memory. Prints a line per deal and a summary per setting.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform

import survey_data
from solver_vs_fcsolve import FC_SOLVE, GAME_ARGS, MULTI, Run, board_text, run_fc_solve, summary

from thirteen.arguments import positive_count, positive_seconds


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=sorted(GAME_ARGS))
    p.add_argument("--tried", type=positive_seconds, metavar="S",
                   help="only deals left unknown by a budget of at least S seconds")
    p.add_argument("--iterations", type=positive_count, default=4_000_000,
                   help="fc-solve's -mi: positions it may check per deal and setting")
    p.add_argument("--max-seconds", type=positive_seconds, default=600.0,
                   help="wall seconds per deal and setting")
    p.add_argument("--fc-solve", default=FC_SOLVE, help=f"fc-solve binary (default {FC_SOLVE})")
    a = p.parse_args(argv)
    survey_data.require(p, [a.game])
    if not os.access(a.fc_solve, os.X_OK):
        p.error(f"no fc-solve at {a.fc_solve} (see solver_vs_fcsolve.py)")
    deals = survey_data.unknown(a.game, a.tried or 0.0)
    runs: dict[str, list[Run]] = {"fc-solve": [], "fc-solve multi": []}
    for n in deals:
        line = f"{n:6d}"
        for name, extra in (("fc-solve", []), ("fc-solve multi", MULTI)):
            r = run_fc_solve(a.fc_solve, GAME_ARGS[a.game] + extra, board_text(a.game, n),
                             a.max_seconds, a.iterations)
            runs[name].append(r)
            line += f" | {name} {r.verdict:<10} {r.seconds:8.2f} s {r.mb:8.0f} MB"
        print(line, flush=True)
    tried = f" after {a.tried:g} s or more" if a.tried else ""
    print(f"\n# {a.game}, deals left unknown{tried}: {len(deals)}; -mi {a.iterations}; "
          f"{datetime.date.today()}, {platform.machine()} {os.cpu_count()} cores")
    if deals:
        for name, rs in runs.items():
            print(summary(name, rs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
