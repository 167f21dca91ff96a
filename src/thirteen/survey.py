"""Winnability surveys: solve every deal of a range and keep one SQLite row per deal.

``thirteen survey GAME --deals 1-100000`` runs the solver on each deal and stores the verdict.
The coordinating process is the only writer of the SQLite file; it commits every row as the
result arrives, so a survey killed at any point loses nothing already stored, and the same
command started again solves only the deals not yet stored.

Engines (all feed the same writer):

* ``local`` with one worker: the deals are solved in this process.
* ``local`` with N > 1 workers: a `multiprocessing` pool of N processes.
* ``dask``: a Dask distributed cluster (``scheduler="tcp://host:8786"``), or a `LocalCluster`
  of N workers when no scheduler is given. Workers need ``thirteen`` importable (the same
  version); they only compute, results stream back here.

The solver is imported lazily, in the workers, so that this module imports without it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import multiprocessing
import os
import queue
import signal
import socket
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any, Literal

from .calculation import CalcState
from .game import new_state
from .variants import RENAMED, Variant, get_variant

Engine = Literal["local", "dask"]
Row = dict[str, Any]

SCHEMA = """
CREATE TABLE IF NOT EXISTS survey (
    game TEXT NOT NULL,              -- registry name, e.g. bakers-dozen
    options TEXT NOT NULL,           -- JSON of the player options that differ ({} if none)
    deal INTEGER NOT NULL,           -- PySolFC deal number
    verdict TEXT NOT NULL CHECK (verdict IN ('solved', 'unsolvable', 'unknown')),
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    length INTEGER,                  -- moves in the solution, shortened (NULL unless solved)
    peak_states INTEGER,
    reason TEXT,                     -- why unknown (which budget ran out)
    solver_version TEXT NOT NULL,
    max_seconds REAL,                -- the budget this deal was solved with
    max_nodes INTEGER,
    max_mb INTEGER,
    fair_verdict TEXT,               -- Calculation family: the fair player 'won' or 'lost'
    fair_seconds REAL,
    host TEXT,
    finished REAL NOT NULL,          -- Unix time the row was stored
    PRIMARY KEY (game, options, deal)
) WITHOUT ROWID;
"""

COLUMNS = (
    "game", "options", "deal", "verdict", "nodes", "seconds", "length", "peak_states", "reason",
    "solver_version", "max_seconds", "max_nodes", "max_mb", "fair_verdict", "fair_seconds",
    "host", "finished",
)


def default_db() -> Path:
    """``survey.sqlite3`` in the user's data directory (outside any source tree)."""
    import platformdirs

    path = platformdirs.user_data_path("thirteen", appauthor=False)
    path.mkdir(parents=True, exist_ok=True)
    return path / "survey.sqlite3"


def options_key(variant: Variant) -> str:
    """The canonical JSON of a variant's player options: part of each row's key."""
    return json.dumps(variant.options(), sort_keys=True, separators=(",", ":"))


def parse_deals(text: str) -> list[tuple[int, int]]:
    """``"1-1000"``, ``"7"`` or ``"1-10,20-30"`` as sorted, merged inclusive ranges."""
    spans: list[tuple[int, int]] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        lo_text, dash, hi_text = part.partition("-")
        try:
            lo = int(lo_text)
            hi = int(hi_text) if dash else lo
        except ValueError:
            raise ValueError(f"bad deal range {part!r} (write 1-1000, 7 or 1-10,20-30)") from None
        if lo < 1 or hi < lo:
            raise ValueError(f"bad deal range {part!r}: deals start at 1 and ranges go up")
        spans.append((lo, hi))
    if not spans:
        raise ValueError("no deals given (write e.g. --deals 1-1000)")
    spans.sort()
    merged = [spans[0]]
    for lo, hi in spans[1:]:
        if lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


# ---- the worker side -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Task:
    """One deal to solve: everything a worker needs, small and picklable."""

    game: str
    options: tuple[tuple[str, Any], ...]
    deal: int
    max_seconds: float | None
    max_nodes: int | None
    max_mb: int | None


@functools.cache
def solver_version() -> str:
    """The solver's version, stored with every row (results may change with it).

    The solver's own version string when it has one, else the package version plus a digest
    of the engine and solver sources, so that rows always name the code that produced them.
    """
    from . import __version__, solver

    for name in ("SOLVER_VERSION", "__version__", "VERSION"):
        value = getattr(solver, name, None)
        if value is not None:
            return str(value)
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted([*here.glob("*.py"), *here.glob("solver/*.py")]):
        if path.stem not in ("cli", "survey", "report", "tui", "store"):  # front ends
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:10]}"


def solve_deal(task: Task) -> Row:
    """Solve one deal (and, for the Calculation family, play it fairly); the row to store."""
    from .solver import Budget, solve

    variant = get_variant(task.game, **dict(task.options))
    state = new_state(variant, task.deal)
    budget = Budget(max_nodes=task.max_nodes, max_seconds=task.max_seconds, max_mb=task.max_mb)
    # the line a player would be shown (`shortcut`): the line found can be 75 times as long
    # (Good Measure 589: 18,214 moves, 243 shortened)
    result = solve(state, budget, shorten=True)
    row: Row = {
        "game": variant.name,
        "options": options_key(variant),
        "deal": task.deal,
        "verdict": result.verdict,
        "nodes": result.nodes,
        "seconds": result.seconds,
        "length": len(result.moves) if result.verdict == "solved" else None,
        "peak_states": result.peak_states,
        "reason": result.reason or None,
        "solver_version": solver_version(),
        "max_seconds": task.max_seconds,
        "max_nodes": task.max_nodes,
        "max_mb": task.max_mb,
        "fair_verdict": None,
        "fair_seconds": None,
        "host": socket.gethostname(),
    }
    if isinstance(state, CalcState):
        from .solver import fair_play

        start = time.perf_counter()
        fair = fair_play(state, budget)  # plays without knowing the stock order
        row["fair_verdict"] = "won" if fair.verdict == "solved" else "lost"
        row["fair_seconds"] = time.perf_counter() - start
    return row


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the coordinator, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# ---- the store -------------------------------------------------------------------------------
#: Format 1 (SQLite's ``user_version``): game names mean today's games; format 0 named
#: Spanish Patience II ``spanish-patience`` (`variants.RENAMED`).
FORMAT = 1


def connect(path: str | Path) -> sqlite3.Connection:
    """Open (creating if needed) a survey database, older formats brought up to date."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(path), timeout=30.0)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: committed rows survive a crash
    db.executescript(SCHEMA)
    (version,), = db.execute("PRAGMA user_version").fetchall()
    if version < FORMAT:
        with db:
            for old, new in RENAMED.items():
                db.execute("UPDATE survey SET game = ? WHERE game = ?", (new, old))
            db.execute(f"PRAGMA user_version = {FORMAT}")
    db.commit()
    return db


def store_row(db: sqlite3.Connection, row: Row) -> None:
    """Store one row and commit it at once."""
    values = {**row, "finished": row.get("finished") or time.time()}
    db.execute(
        f"INSERT OR REPLACE INTO survey ({', '.join(COLUMNS)}) "
        f"VALUES ({', '.join('?' * len(COLUMNS))})",
        tuple(values.get(c) for c in COLUMNS),
    )
    db.commit()


def stored_deals(db: sqlite3.Connection, game: str, options: str,
                 spans: list[tuple[int, int]], retry_unknown: bool = False) -> Iterator[int]:
    """Deals of ``spans`` already stored (ascending); unknowns left out with ``retry_unknown``."""
    skip = " AND verdict != 'unknown'" if retry_unknown else ""
    for lo, hi in spans:
        cur = db.execute(
            "SELECT deal FROM survey WHERE game = ? AND options = ? AND deal BETWEEN ? AND ?"
            f"{skip} ORDER BY deal", (game, options, lo, hi))
        for (deal,) in cur:
            yield int(deal)


def todo_deals(db: sqlite3.Connection, game: str, options: str, spans: list[tuple[int, int]],
               retry_unknown: bool = False) -> list[int]:
    """Deals of ``spans`` not yet stored, ascending (a merge: no set of every stored deal)."""
    done = stored_deals(db, game, options, spans, retry_unknown)
    nxt = next(done, None)
    out: list[int] = []
    for lo, hi in spans:
        for deal in range(lo, hi + 1):
            while nxt is not None and nxt < deal:
                nxt = next(done, None)
            if nxt == deal:
                continue
            out.append(deal)
    return out


# ---- engines ---------------------------------------------------------------------------------
OnResult = Callable[[Row], None]
OnError = Callable[[Task, BaseException], None]


def run_inline(tasks: Iterable[Task], on_result: OnResult, on_error: OnError) -> None:
    """Solve the deals one after another in this process."""
    for task in tasks:
        try:
            row = solve_deal(task)
        except (KeyboardInterrupt, MemoryError):
            raise
        except Exception as e:  # a solver bug on one deal must not end the survey
            on_error(task, e)
            continue
        on_result(row)


def run_pool(tasks: Iterable[Task], on_result: OnResult, on_error: OnError,
             workers: int) -> None:
    """Solve the deals on ``workers`` processes; at most 2 per worker are queued at a time."""
    pending: queue.Queue[tuple[Task, Row | BaseException]] = queue.Queue()
    # forkserver: the workers are not forks of this process and its threads (the progress bar)
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    pool = ctx.Pool(workers, initializer=_ignore_sigint)
    in_flight = 0
    todo = iter(tasks)
    try:
        while True:
            while in_flight < 2 * workers:
                task = next(todo, None)
                if task is None:
                    break
                pool.apply_async(solve_deal, (task,), callback=_put(pending, task),
                                 error_callback=_put(pending, task))
                in_flight += 1
            if not in_flight:
                break
            try:
                task, outcome = pending.get(timeout=0.5)
            except queue.Empty:
                continue
            in_flight -= 1
            if isinstance(outcome, BaseException):
                on_error(task, outcome)
            else:
                on_result(outcome)
        pool.close()
    finally:
        pool.terminate()  # on Ctrl-C or a kill of the writer: stop the deals being solved
        pool.join()


def _put(pending: queue.Queue[tuple[Task, Any]], task: Task) -> Callable[[Any], None]:
    """A pool callback that hands ``task``'s outcome (row or exception) to the writer."""
    return lambda outcome: pending.put((task, outcome))


def run_dask(tasks: Iterable[Task], on_result: OnResult, on_error: OnError, workers: int,
             scheduler: str | None = None, processes: bool = True) -> None:
    """Solve the deals on a Dask cluster; results come back here in completion order."""
    dist: Any = import_module("distributed")  # untyped; imported only for this engine

    cluster: Any = None
    if scheduler:
        client = dist.Client(scheduler)
    else:
        cluster = dist.LocalCluster(n_workers=workers, threads_per_worker=1,
                                    processes=processes, dashboard_address=None,
                                    silence_logs=logging.ERROR)
        client = dist.Client(cluster)
    futures: dict[Any, Task] = {}
    try:
        todo = iter(tasks)
        window, checked = 4, 0.0

        def submit() -> bool:
            task = next(todo, None)
            if task is None:
                return False
            fut = client.submit(solve_deal, task, pure=False)
            futures[fut] = task
            done.add(fut)
            return True

        done = dist.as_completed()
        while True:
            now = time.monotonic()
            if now - checked > 5.0:  # workers may join or leave a remote cluster
                threads = sum(client.nthreads().values())
                window, checked = max(4, 2 * threads), now
            while len(futures) < window and submit():
                pass
            if not futures:
                break
            fut = next(done)
            task = futures.pop(fut)
            try:
                row = fut.result()
            except (KeyboardInterrupt, MemoryError):
                raise
            except Exception as e:
                on_error(task, e)
            else:
                on_result(row)
            fut.release()
    finally:
        if futures:
            client.cancel(list(futures))
        client.close()
        if cluster is not None:
            cluster.close()


# ---- the survey ------------------------------------------------------------------------------
@dataclass
class Summary:
    game: str
    options: str
    deals: int  # in the range
    stored_before: int
    solved_now: int = 0  # rows stored by this run
    counts: dict[str, int] = dataclasses.field(
        default_factory=lambda: {"solved": 0, "unsolvable": 0, "unknown": 0})
    errors: list[str] = dataclasses.field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def rate(self) -> float:
        return self.solved_now / self.seconds if self.seconds > 0 else 0.0

    def text(self) -> str:
        c = self.counts
        opts = "" if self.options == "{}" else f" {self.options}"
        lines = [
            f"{self.game}{opts}: {self.stored_before + self.solved_now} of {self.deals} deals "
            f"stored; this run {self.solved_now} in {self.seconds:.1f} s ({self.rate:.1f}/s): "
            f"solved {c['solved']}, unsolvable {c['unsolvable']}, unknown {c['unknown']}",
        ]
        if self.errors:
            lines.append(f"{len(self.errors)} deal(s) failed (not stored; run again to retry):")
            lines += [f"  {e}" for e in self.errors[:10]]
        if self.interrupted:
            lines.append("interrupted: the same command resumes where this run stopped")
        return "\n".join(lines)


def survey(
    variant: Variant | str,
    deals: str | list[tuple[int, int]],
    db_path: str | Path,
    *,
    workers: int | None = None,
    engine: Engine = "local",
    scheduler: str | None = None,
    max_seconds: float | None = 60.0,
    max_nodes: int | None = 2_000_000,
    max_mb: int | None = 2048,
    retry_unknown: bool = False,
    progress: bool = False,
    processes: bool = True,
    on_row: Callable[[Row], None] | None = None,
) -> Summary:
    """Solve every deal of ``deals`` not yet stored in ``db_path``, storing each as it comes.

    ``on_row`` is called after each row is committed (tests use it to interrupt a survey).
    """
    variant = get_variant(variant) if isinstance(variant, str) else variant
    spans = parse_deals(deals) if isinstance(deals, str) else deals
    workers = workers or os.cpu_count() or 1
    key = options_key(variant)
    db = connect(db_path)
    try:
        todo = todo_deals(db, variant.name, key, spans, retry_unknown)
        total = sum(hi - lo + 1 for lo, hi in spans)
        summary = Summary(variant.name, key, total, total - len(todo))
        options = tuple(sorted(variant.options().items()))
        tasks = (Task(variant.name, options, d, max_seconds, max_nodes, max_mb) for d in todo)
        bar = _Progress(variant.title, total, summary.stored_before, enabled=progress)

        def on_result(row: Row) -> None:
            store_row(db, row)
            summary.solved_now += 1
            summary.counts[row["verdict"]] += 1
            bar.advance(summary)
            if on_row is not None:
                on_row(row)

        def on_error(task: Task, e: BaseException) -> None:
            summary.errors.append(f"deal {task.deal}: {type(e).__name__}: {e}")

        start = time.perf_counter()
        try:
            with bar:
                if engine == "dask":
                    run_dask(tasks, on_result, on_error, workers, scheduler, processes)
                elif engine != "local":
                    raise ValueError(f"unknown engine {engine!r} (local or dask)")
                elif workers == 1 or len(todo) <= 1:
                    run_inline(tasks, on_result, on_error)
                else:
                    run_pool(tasks, on_result, on_error, min(workers, len(todo)))
        except KeyboardInterrupt:
            summary.interrupted = True
        summary.seconds = time.perf_counter() - start
        return summary
    finally:
        db.close()


class _Progress:
    """A rich progress bar on stderr: deals done, rate, time left (or nothing when disabled)."""

    def __init__(self, title: str, total: int, done: int, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.perf_counter()
        if not enabled:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(bar_width=20),
            MofNCompleteColumn(), TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
            TextColumn("left"), TimeRemainingColumn(compact=True),
            TextColumn("{task.fields[counts]}"),
            console=Console(stderr=True), refresh_per_second=4,
        )
        self.task = self.progress.add_task(title, total=total, completed=done, rate="-/s",
                                           counts="")

    def advance(self, summary: Summary) -> None:
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        c = summary.counts
        rate = summary.solved_now / elapsed if elapsed > 0 else 0.0
        self.progress.update(
            self.task, advance=1, rate=f"{rate:.1f} deals/s",
            counts=f"won {c['solved']} lost {c['unsolvable']} ? {c['unknown']}")

    def __enter__(self) -> _Progress:
        if self.enabled:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self.progress.stop()


# ---- reading rows back -----------------------------------------------------------------------
def rows(db_path: str | Path, game: str | None = None,
         options: str | None = None) -> list[Row]:
    """Stored rows (all, or of one game and options), by game, options and deal."""
    db = connect(db_path)
    try:
        db.row_factory = sqlite3.Row
        where, args = [], []
        if game is not None:
            where.append("game = ?")
            args.append(game)
        if options is not None:
            where.append("options = ?")
            args.append(options)
        sql = "SELECT * FROM survey" + (" WHERE " + " AND ".join(where) if where else "")
        return [dict(r) for r in db.execute(sql + " ORDER BY game, options, deal", args)]
    finally:
        db.close()


# ---- the command -----------------------------------------------------------------------------
def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(args: Any) -> int:
    """``thirteen survey`` (args from the cli's parser): 0 done, 1 some deal failed, 130 stopped."""
    options: dict[str, object] = {}
    if getattr(args, "worry_back", False):
        options["worry_back"] = True
    if getattr(args, "foundations", None):
        options["foundations"] = args.foundations
    variant = get_variant(args.game, **options)
    if args.workers is not None and args.workers < 1:
        raise ValueError("--workers must be at least 1")
    if args.scheduler and args.engine != "dask":
        raise ValueError("--scheduler needs --engine dask")
    db = args.db or default_db()
    # SIGTERM (and SIGINT, which a shell ignores in background jobs) stops the run cleanly
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        summary = survey(
            variant, args.deals, db, workers=args.workers, engine=args.engine,
            scheduler=args.scheduler, max_seconds=args.max_seconds or None,  # 0: no limit
            max_nodes=args.max_nodes or None, max_mb=args.max_mb or None,
            retry_unknown=args.retry_unknown, progress=not args.quiet,
        )
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(summary.text())
    from .solver.build import running

    solver = running()
    print(f"solver: {solver} in this process"
          + (" (`thirteen compile-solver` makes the search 3-7 times faster)"
             if solver == "pure Python" else ""))
    flags = "".join(f" --{k.replace('_', '-')}" if v is True else f" --{k} {v}"
                    for k, v in sorted(variant.options().items()))
    print(f"stored in {db}; see `thirteen report {variant.name}{flags} --db {db}`")
    if summary.interrupted:
        return 130
    return 1 if summary.errors else 0
