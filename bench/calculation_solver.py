"""The thoughtful Calculation-family solver over a range of deals: decided share, seconds and
peak memory.

    python bench/calculation_solver.py [--games calculation,...] [--deals 1-1000]
                                       [--max-seconds 60] [--max-mb 2048]
                                       [--needing-model | --beyond NODES]

Each deal is solved in a forked child process, so its peak memory (the child's maximum
resident set, which starts from the parent's) and its CPU seconds are its own. Prints one line
per game: solved / unsolvable / unknown, the decided share and how many of those the move search
decided within its share, median, 90th percentile and largest seconds (wall clock, what the
budget bounds), largest and total CPU seconds, the largest peak memory,
and the deals proved unsolvable and left unknown. ``--needing-model`` keeps only the deals the
committed survey data (``data/surveys``) shows searched beyond the move search's share
(`MOVE_SEARCH_NODES`) or left unknown: the deals the scheduling model decides, where the
solver's time goes; the others are decided by the move search within that share.
``--beyond NODES`` keeps those searched beyond ``NODES`` positions instead: the deals that
reached the model in a survey made with another share.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
from collections.abc import Iterator
from datetime import date

import survey_data

from thirteen.arguments import positive_count, positive_seconds
from thirteen.game import new_state
from thirteen.solver import Budget, solve
from thirteen.solver.build import running
from thirteen.solver.calculation import MOVE_SEARCH_NODES
from thirteen.survey import parse_deals
from thirteen.variants import GAMES as ALL_GAMES

GAMES = ("calculation", "imaginary-thirteen", "imaginary-thirteen-pysol")


def solve_in_child(game: str, number: int, budget: Budget) -> dict[str, object]:
    """Verdict, seconds and peak resident megabytes of one deal, solved in a fork."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: solve, report, exit without the parent's clean-up
        os.close(read)
        result = solve(new_state(game, number), budget)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        with os.fdopen(write, "w") as out:
            json.dump({"verdict": result.verdict, "seconds": result.seconds, "nodes": result.nodes,
                       "cpu": usage.ru_utime + usage.ru_stime, "mb": usage.ru_maxrss / 1024},
                      out)
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as got:
        text = got.read()
    os.waitpid(pid, 0)
    return dict(json.loads(text))


def deals(text: str) -> list[tuple[int, int]]:
    """``1-1000``, ``7`` or ``1-10,20-30`` as an argparse type (a bad one refused in one line),
    as ranges, so that a huge one costs no memory before its deals are solved."""
    try:
        return parse_deals(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def games(text: str) -> list[str]:
    """Comma-separated Calculation-family games as an argparse type."""
    named = text.split(",")
    for game in named:
        if game not in GAMES:
            raise argparse.ArgumentTypeError(f"not a Calculation-family game: {game!r}")
    return named


def searched_beyond(game: str, share: int | None) -> set[int]:
    """The deals of ``game`` that the committed survey searched beyond ``share`` positions (by
    default the move search's share) or left unknown."""
    if share is None:
        share = MOVE_SEARCH_NODES[ALL_GAMES[game].decks]
    rows = survey_data.columns(game, ("deal", "verdict", "nodes"))
    return {deal for deal, verdict, nodes in rows if isinstance(deal, int)
            and (verdict == "unknown" or isinstance(nodes, int) and nodes > share)}


def chosen(game: str, spans: list[tuple[int, int]], needing: bool,
           beyond: int | None) -> Iterator[int]:
    """The deals to solve, in order: every deal of ``spans``, or those of them searched beyond
    the move search's share (``needing``) or beyond ``beyond`` positions."""
    if needing or beyond is not None:
        return (n for n in sorted(searched_beyond(game, beyond))
                if any(lo <= n <= hi for lo, hi in spans))
    return (n for lo, hi in spans for n in range(lo, hi + 1))


def report(game: str, rows: dict[int, dict[str, object]]) -> None:
    """The benchmark's lines for one game."""
    if not rows:
        print(f"{game}: no deal to solve", flush=True)
        return
    verdicts = [str(r["verdict"]) for r in rows.values()]
    seconds = sorted(float(str(r["seconds"])) for r in rows.values())
    decided = len(verdicts) - verdicts.count("unknown")
    p90 = seconds[min(len(seconds) - 1, int(0.9 * len(seconds)))]
    lost = [n for n, r in rows.items() if r["verdict"] == "unsolvable"]
    unknown = [n for n, r in rows.items() if r["verdict"] == "unknown"]
    cpu = [float(str(r["cpu"])) for r in rows.values()]
    share = MOVE_SEARCH_NODES[ALL_GAMES[game].decks]
    moved = sum(1 for r in rows.values() if r["verdict"] != "unknown"
                and int(str(r["nodes"])) <= share)
    print(f"{game}: {verdicts.count('solved')} / {len(lost)} / {len(unknown)} "
          f"(solved / unsolvable / unknown), {100 * decided / len(verdicts):.1f}% decided, "
          f"{moved} by the move search; seconds median {statistics.median(seconds):.3f}, "
          f"p90 {p90:.3f}, max {seconds[-1]:.2f}; CPU seconds max {max(cpu):.2f}, "
          f"total {sum(cpu):.0f}; peak memory "
          f"{max(float(str(r['mb'])) for r in rows.values()):.0f} MB", flush=True)
    print(f"  unsolvable: {lost}\n  unknown: {unknown}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=games, default=",".join(GAMES))
    parser.add_argument("--deals", type=deals, default="1-1000")
    parser.add_argument("--max-seconds", type=positive_seconds, default=60.0)
    parser.add_argument("--max-mb", type=positive_count, default=2048)
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--needing-model", action="store_true",
                      help="only the deals the survey data shows the model deciding")
    only.add_argument("--beyond", type=positive_count, metavar="NODES",
                      help="only the deals the survey data shows searched beyond NODES")
    args = parser.parse_args()
    if args.needing_model or args.beyond is not None:
        survey_data.require(parser, args.games)
    budget = Budget(max_nodes=None, max_seconds=args.max_seconds, max_mb=int(args.max_mb))
    which = (f" searched beyond {args.beyond} positions" if args.beyond is not None
             else " needing the model" if args.needing_model else "")
    print(f"# deals of {args.deals[0][0]}-{args.deals[-1][1]}{which}, budget "
          f"{args.max_seconds:g} s and {args.max_mb} MB per deal; "
          f"{date.today()}, {platform.machine()} {os.cpu_count()} cores, Python "
          f"{platform.python_version()} ({running()})", flush=True)
    for game in args.games:
        numbers = chosen(game, args.deals, args.needing_model, args.beyond)
        rows = {n: solve_in_child(game, n, budget) for n in numbers}
        report(game, rows)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
