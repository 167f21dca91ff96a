"""Survey throughput: deals solved per second per core, for every game and for the Dask path.

    PYTHONPATH=src python bench/survey_throughput.py [--games all|GAME,GAME] [--deals 1-200]
        [--workers 1] [--engine local|dask|both] [--scheduler tcp://HOST:PORT]
        [--max-seconds 60] [--max-nodes 2000000]

Each (game, engine) pair runs `thirteen.survey.survey` (dealing, solving, one SQLite commit a
deal) on a fresh database in a temporary directory and prints one row of a Markdown table.
``local`` with one worker solves in this process (with more, a process pool); ``dask`` sends
the deals to a `LocalCluster` of ``--workers`` single-threaded worker processes started once
before the clock starts (so that its start-up is not counted), or with ``--scheduler`` to a
running cluster (``dask scheduler`` and ``dask worker`` processes), whose worker threads are
then the cores counted: the Dask row is the figure per worker.

Every deal counts, including the ones that end unknown when their budget runs out, so the
budget matters and is printed. On a shared machine a figure is only as good as the cores are
free: the CPU time used (this process's and its children's, or the Dask workers', asked of
them before and after) is printed beside the wall time, with deals per CPU second, which
depends less on the machine's other load; so is the load average. Target: at least 20 deals
per second per core on Baker's Dozen.
"""

from __future__ import annotations

import argparse
import logging
import os
import resource
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from thirteen.report import percentile
from thirteen.solver.build import running
from thirteen.survey import rows, survey
from thirteen.variants import GAMES

TARGET = 20.0


def cpu_seconds() -> float:
    """User + system CPU time of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@dataclass
class Measure:
    game: str
    engine: str
    workers: int
    deals: int
    wall: float
    cpu: float  # this process's and its children's, or the Dask workers'
    counts: dict[str, int]
    median: float

    @property
    def per_core(self) -> float:
        return self.deals / self.wall / self.workers if self.wall > 0 else 0.0

    @property
    def per_cpu_second(self) -> float:
        return self.deals / self.cpu if self.cpu else 0.0

    def row(self) -> str:
        c = self.counts
        cpu = f"{self.cpu:.1f}"
        by_cpu = f"{self.per_cpu_second:.3g}"
        return (f"| {self.game} | {self.engine} | {self.workers} | {self.deals} | "
                f"{c['solved']} / {c['unsolvable']} / {c['unknown']} | {self.median:.4f} | "
                f"{self.wall:.1f} | {cpu} | **{self.per_core:.3g}** | {by_cpu} |")


HEAD = ("| game | engine | workers | deals | solved / unsolvable / unknown | median s | "
        "wall s | CPU s | deals/s/core | deals/CPU-s |\n|---|---|---|---|---|---|---|---|---|---|")


def worker_cpu(scheduler: str) -> float:
    """The CPU seconds used so far by every worker process of the cluster at ``scheduler``."""
    from distributed import Client

    with Client(scheduler, timeout=30) as client:
        return sum(client.run(cpu_seconds).values())


def measure(game: str, engine: str, args: argparse.Namespace) -> Measure:
    """One survey of ``args.deals`` of ``game`` on a fresh database, timed (``args.scheduler``:
    the cluster of the Dask engine)."""
    dask = engine == "dask"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        cpu0 = worker_cpu(args.scheduler) if dask else cpu_seconds()
        t0 = time.perf_counter()
        summary = survey(game, args.deals, db, workers=args.workers, engine=engine,
                         scheduler=args.scheduler if engine == "dask" else None,
                         max_seconds=args.max_seconds, max_nodes=args.max_nodes,
                         progress=sys.stderr.isatty())
        wall = time.perf_counter() - t0
        cpu = (worker_cpu(args.scheduler) if dask else cpu_seconds()) - cpu0
        times = [r["seconds"] for r in rows(db)]
    return Measure(game, engine, args.workers, summary.solved_now, wall, cpu, summary.counts,
                   percentile(times, 50))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="all", help="all, or names separated by commas")
    ap.add_argument("--game", dest="games", help="one game (the same as --games GAME)")
    ap.add_argument("--deals", default="1-200")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--engine", choices=("local", "dask", "both"), default="local")
    ap.add_argument("--max-seconds", type=float, default=60.0)
    ap.add_argument("--max-nodes", type=int, default=2_000_000)
    ap.add_argument("--scheduler", help="a running Dask cluster's scheduler (implies dask)")
    args = ap.parse_args(argv)
    games = list(GAMES) if args.games == "all" else args.games.split(",")
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        ap.error(f"no game {', '.join(unknown)}")
    engines = ["local", "dask"] if args.engine == "both" else [args.engine]
    cluster: Any = None
    if args.scheduler:
        from distributed import Client

        with Client(args.scheduler, timeout=30) as client:
            engines, args.workers = ["dask"], sum(client.nthreads().values())
    elif "dask" in engines:
        from distributed import LocalCluster

        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                               dashboard_address=None, silence_logs=logging.ERROR)
        args.scheduler = cluster.scheduler_address

    print(f"deals {args.deals}, budget {args.max_seconds:g} s / {args.max_nodes} positions a "
          f"deal, solver {running()}, {os.cpu_count()} cores on this machine, load average "
          f"{os.getloadavg()[0]:.1f}"
          + (f", scheduler {args.scheduler}" if args.scheduler and not cluster else ""))
    print()
    print(HEAD)
    results = []
    try:
        for game in games:
            for engine in engines:
                results.append(measure(game, engine, args))
                print(results[-1].row(), flush=True)
    finally:
        if cluster is not None:
            cluster.close()
    bakers = [m for m in results if m.game == "bakers-dozen"]
    if bakers:
        best = max(m.per_core for m in bakers)
        print(f"\nBaker's Dozen: {best:.1f} deals/s/core "
              f"({'meets' if best >= TARGET else 'below'} the target of {TARGET:g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
