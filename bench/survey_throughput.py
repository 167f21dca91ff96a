"""Survey throughput on Baker's Dozen: deals solved per second per core (target: >= 20).

    PYTHONPATH=src python bench/survey_throughput.py [--deals 1-200] [--workers 1]
        [--max-seconds 60] [--engine local|dask] [--scheduler tcp://HOST:PORT]

With ``--scheduler`` the deals go to a running Dask cluster (``dask scheduler`` and ``dask
worker`` processes) and the figure is per worker thread of that cluster.

Runs `thirteen.survey.survey` (solver, SQLite writes and all) on a fresh database in a temporary
directory and prints the figure. Every deal counts, including the ones that end unknown when
their budget runs out, so the time budget matters: the default is the survey's own (60 s).
On a shared machine the figure is only as good as the cores are free: the script reports the
CPU time it used beside the wall time.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from thirteen.report import percentile
from thirteen.solver.build import running
from thirteen.survey import rows, survey

TARGET = 20.0


def cpu_seconds() -> float:
    """User + system CPU time of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="bakers-dozen")
    ap.add_argument("--deals", default="1-200")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--engine", choices=("local", "dask"), default="local")
    ap.add_argument("--max-seconds", type=float, default=60.0)
    ap.add_argument("--max-nodes", type=int, default=2_000_000)
    ap.add_argument("--scheduler", help="a running Dask cluster's scheduler (implies dask)")
    args = ap.parse_args(argv)
    if args.scheduler:
        from distributed import Client

        with Client(args.scheduler, timeout=30) as client:
            args.engine, args.workers = "dask", sum(client.nthreads().values())

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        cpu0, t0 = cpu_seconds(), time.perf_counter()
        summary = survey(args.game, args.deals, db, workers=args.workers, engine=args.engine,
                         scheduler=args.scheduler, max_seconds=args.max_seconds,
                         max_nodes=args.max_nodes,
                         progress=sys.stderr.isatty())
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
        times = [r["seconds"] for r in rows(db)]

    n = summary.solved_now
    per_core = n / wall / args.workers
    c = summary.counts
    print(f"{args.game} deals {args.deals}: {n} deals in {wall:.1f} s wall, {cpu:.1f} s CPU "
          f"({args.workers} worker(s), engine {args.engine}, solver {running()}, "
          f"budget {args.max_seconds:g} s / {args.max_nodes} nodes)")
    print(f"verdicts: solved {c['solved']}, unsolvable {c['unsolvable']}, "
          f"unknown {c['unknown']}; solve time median {percentile(times, 50):.3f} s, "
          f"p95 {percentile(times, 95):.3f} s, max {max(times):.3f} s")
    if cpu > 0:
        print(f"by CPU time: {n / cpu:.1f} deals per CPU-second")
    if n and args.workers == 1:
        overhead = (wall - sum(times)) / n
        print(f"solver {sum(times):.1f} s of the {wall:.1f} s; survey overhead (deal, SQLite "
              f"commit, progress) {1000 * overhead:.2f} ms per deal")
    verdict = "meets" if per_core >= TARGET else "below"
    print(f"throughput: {per_core:.1f} deals/s/core ({verdict} the target of {TARGET:g}; "
          f"{os.cpu_count()} cores on this machine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
