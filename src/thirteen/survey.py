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

The deals are solved by `thirteen.workers`, which imports the solver lazily, in the workers,
so that this module imports without it.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from .dbfile import open_db
from .variants import RENAMED, Variant, get_variant
from .workers import (
    OnError,
    OnResult,
    Row,
    Task,
    dask_client,
    options_key,
    run_dask,
    run_inline,
    run_pool,
    solver_version,
)

Engine = Literal["local", "dask"]

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
    reason TEXT,                     -- which budget ran out, or what proved or found it
    solver_version TEXT NOT NULL,
    max_seconds REAL,                -- the budget this deal was solved with
    max_nodes INTEGER,
    max_mb INTEGER,
    fair_verdict TEXT,               -- hidden cards: the fair player 'won' or 'lost'
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
    """``survey.sqlite3`` in the user's data directory (outside any source tree; created, with
    its folders, only by a survey)."""
    import platformdirs

    return platformdirs.user_data_path("thirteen", appauthor=False) / "survey.sqlite3"


MAX_SURVEY_DEAL = 2**63 - 1


def parse_deals(text: str) -> list[tuple[int, int]]:
    """``"1-1000"``, ``"7"`` or ``"1-10,20-30"`` as sorted, merged inclusive ranges."""
    spans: list[tuple[int, int]] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        shown = part if len(part) <= 50 else part[:47] + "..."
        lo_text, dash, hi_text = part.partition("-")
        try:
            lo = int(lo_text)
            hi = int(hi_text) if dash else lo
        except ValueError:
            raise ValueError(f"bad deal range {shown!r} (write 1-1000, 7 or 1-10,20-30)"
                             ) from None
        if lo < 1 or hi < lo:
            raise ValueError(f"bad deal range {shown!r}: deals start at 1 and ranges go up")
        if hi > MAX_SURVEY_DEAL:
            raise ValueError(f"bad deal range {shown!r}: a survey stores deal numbers up to "
                             f"{MAX_SURVEY_DEAL} (SQLite's largest integer)")
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


# ---- the store -------------------------------------------------------------------------------
#: Format 1 (SQLite's ``user_version``): game names mean today's games; format 0 named
#: Spanish Patience II ``spanish-patience`` (`variants.RENAMED`).
FORMAT = 1


def connect(path: str | Path, create: bool = True) -> sqlite3.Connection:
    """Open a survey database: created if missing, older formats brought up to date; or
    (``create`` False) an existing one, read-only, older formats read as today's. `ValueError`
    if ``path`` is not a survey database."""
    db = open_db(path, "survey", create=create, timeout=30.0)
    if create:
        db.executescript(SCHEMA)
    (version,), = db.execute("PRAGMA user_version").fetchall()
    if version < FORMAT and create:
        with db:
            for old, new in RENAMED.items():
                db.execute("UPDATE survey SET game = ? WHERE game = ?", (new, old))
            db.execute(f"PRAGMA user_version = {FORMAT}")
    elif version < FORMAT:
        # the same renaming, unwritten: a view in SQLite's temporary schema, which is searched
        # before the file's, so that every query of `survey` reads today's names
        names = "".join(f" WHEN '{old}' THEN '{new}'" for old, new in RENAMED.items())
        others = ", ".join(c for c in COLUMNS if c != "game")
        db.execute(f"CREATE TEMP VIEW survey AS SELECT CASE game{names} ELSE game END AS game, "
                   f"{others} FROM main.survey")
    db.commit()
    return db


def merge(new: Row, old: Row | None) -> Row:
    """The row to keep of a deal stored as ``old`` and solved again as ``new``: a decided verdict
    over an unknown one; of two unknown ones of one solver, one tried with a larger budget in
    some limit and as large in every other (it says more of the deal, and a retry of that
    budget skips it: `stored_deals`); otherwise the newer row. A fair player's verdict is never
    lost to a row without one (a survey with ``--no-fair``): the fair player's game depends on
    the deal alone, not on the budget, so it stays true of the row it is carried into."""
    if old is None:
        return new
    old_kept = old["verdict"] != "unknown" and new["verdict"] == "unknown"
    if (old["verdict"] == new["verdict"] == "unknown"
            and old.get("solver_version") == new.get("solver_version")):
        old_kept = row_budget(old) != row_budget(new) and within(row_budget(new), row_budget(old))
    kept, other = (old, new) if old_kept else (new, old)
    if kept.get("fair_verdict") is None and other.get("fair_verdict") is not None:
        return {**kept, "fair_verdict": other["fair_verdict"],
                "fair_seconds": other.get("fair_seconds")}
    return kept


#: a row's (max_nodes, max_seconds, max_mb); None: no limit
RowBudget = tuple[int | None, float | None, int | None]


def row_budget(row: Row) -> RowBudget:
    """The budget a row's deal was tried with, whatever its verdict (what `merge` and the
    report compare)."""
    return row.get("max_nodes"), row.get("max_seconds"), row.get("max_mb")


def within(budget: RowBudget, base: RowBudget) -> bool:
    """``budget`` is no larger than ``base`` in positions, seconds and memory: a survey with
    ``base`` decides what it decided."""
    return all(b is None or (a is not None and a <= b) for a, b in zip(budget, base, strict=True))


def store_row(db: sqlite3.Connection, row: Row) -> Row:
    """Store one row, merged with the deal's stored row (`merge`), and commit it at once;
    returns the row kept."""
    stored = db.execute(f"SELECT {', '.join(COLUMNS)} FROM survey WHERE game = ? AND options = ?"
                        " AND deal = ?", (row["game"], row["options"], row["deal"])).fetchone()
    kept = merge(row, None if stored is None else dict(zip(COLUMNS, stored, strict=True)))
    values = {**kept, "finished": kept.get("finished") or time.time()}
    db.execute(
        f"INSERT OR REPLACE INTO survey ({', '.join(COLUMNS)}) "
        f"VALUES ({', '.join('?' * len(COLUMNS))})",
        tuple(values.get(c) for c in COLUMNS),
    )
    db.commit()
    return kept


STORED_CHUNK = 4096  # stored deal numbers read at a time when skipping them


#: A retry's budget (seconds, positions and MB; None: no limit on seconds or positions) and
#: the solver's version.
Retry = tuple[float | None, int | None, int | None, str]


def stored_deals(db: sqlite3.Connection, game: str, options: str,
                 spans: list[tuple[int, int]], retry: Retry | None = None,
                 fair: bool = False) -> Iterator[int]:
    """Deals of ``spans`` already stored (ascending). With ``retry`` an unknown deal counts as
    stored only if this solver tried it with at least the retry's budget in every limit: the
    same search again gives the same answer under a node budget, and seldom another under a
    time budget, so an interrupted retry resumes where it stopped. With ``fair`` a deal counts
    only if the fair player played it (a survey that wants its figure over deals stored
    without it).

    Read a chunk at a time, each query starting after the last deal read: no cursor stays
    open while rows are written, and no read transaction keeps the log from being folded in."""
    clause, limits = _stored(retry, fair)
    for lo, hi in spans:
        while lo <= hi:
            chunk = [int(d) for (d,) in db.execute(
                f"SELECT deal {clause} ORDER BY deal LIMIT ?",
                (game, options, lo, hi, *limits, STORED_CHUNK))]
            yield from chunk
            if len(chunk) < STORED_CHUNK:
                break
            lo = chunk[-1] + 1


def count_stored(db: sqlite3.Connection, game: str, options: str,
                 spans: list[tuple[int, int]], retry: Retry | None = None,
                 fair: bool = False) -> int:
    """How many deals of ``spans`` `stored_deals` would skip."""
    clause, limits = _stored(retry, fair)
    return sum(db.execute(f"SELECT COUNT(*) {clause}", (game, options, lo, hi, *limits))
               .fetchone()[0] for lo, hi in spans)


def _stored(retry: Retry | None, fair: bool) -> tuple[str, Retry | tuple[()]]:
    """The rows of one game and options with deals in one span (with ``retry``, unknowns
    left out unless this solver tried them with as large a budget in every limit; with
    ``fair``, those the fair player did not play), and the values of the clause's
    parameters: what `stored_deals` and `count_stored` share. No limit is the largest."""
    clause = "FROM survey WHERE game = ? AND options = ? AND deal BETWEEN ? AND ?"
    if fair:
        clause += " AND fair_verdict IS NOT NULL"
    if retry is None:
        return clause, ()
    covered = " AND ".join([f"COALESCE({c}, 1e308) >= COALESCE(?, 1e308)"
                            for c in ("max_seconds", "max_nodes", "max_mb")]
                           + ["solver_version = ?"])
    return f"{clause} AND (verdict != 'unknown' OR ({covered}))", retry


def todo_deals(db: sqlite3.Connection, game: str, options: str, spans: list[tuple[int, int]],
               retry: Retry | None = None, fair: bool = False) -> Iterator[int]:
    """Deals of ``spans`` not yet stored (`stored_deals`), ascending, as they are asked for: a
    merge with the stored deals, so memory stays bounded however long the range."""
    done = stored_deals(db, game, options, spans, retry, fair)
    nxt = next(done, None)
    for lo, hi in spans:
        deal = lo
        while deal <= hi:
            while nxt is not None and nxt < deal:
                nxt = next(done, None)
            if nxt == deal:
                deal += 1
                continue
            # every deal up to the next stored one (or the span's end) is to do
            end = hi if nxt is None or nxt > hi else nxt - 1
            yield from range(deal, end + 1)
            deal = end + 1


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
    max_mb: int = 2048,
    retry_unknown: bool = False,
    fair: bool = True,
    progress: bool = False,
    processes: bool = True,
    on_row: Callable[[Row], None] | None = None,
) -> Summary:
    """Solve every deal of ``deals`` not yet stored in ``db_path``, storing each as it comes;
    where cards are hidden the fair player plays each deal too unless ``fair`` is False, and a
    deal stored without its game is done again (``retry_unknown`` solves again the stored
    unknowns not tried by this solver with as large a budget in every limit, without it).
    ``on_row`` is called after each row is committed (tests use it to interrupt a survey)."""
    if max_mb is None:  # a deal's search would grow until the machine's memory ran out
        raise ValueError("a survey needs a memory budget per deal (max_mb)")
    variant = get_variant(variant) if isinstance(variant, str) else variant
    spans = parse_deals(deals) if isinstance(deals, str) else deals
    workers = workers or os.cpu_count() or 1
    key = options_key(variant)
    # a scheduler that cannot be reached is said before the database is touched
    client = dask_client(scheduler) if engine == "dask" and scheduler else None
    db = _connect_or_close(db_path, client)
    try:
        total = sum(hi - lo + 1 for lo, hi in spans)
        retry = (max_seconds, max_nodes, max_mb, solver_version()) if retry_unknown else None
        wants_fair = fair and not retry_unknown and variant.hidden_information
        summary = Summary(variant.name, key, total,
                          count_stored(db, variant.name, key, spans, retry, wants_fair))
        todo = todo_deals(db, variant.name, key, spans, retry, wants_fair)
        left = total - summary.stored_before
        options = tuple(sorted(variant.options().items()))
        # a retry is of the thoughtful verdict: a deal solved again keeps the fair verdict it
        # has, or none (a fair game played only on the deals the solver found hard would
        # bias the fair figure)
        tasks = (Task(variant.name, options, d, max_seconds, max_nodes, max_mb,
                      fair and not (retry_unknown
                                    and count_stored(db, variant.name, key, [(d, d)])))
                 for d in todo)
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
                _run(engine, tasks, on_result, on_error, workers, left, client, processes)
        except KeyboardInterrupt:
            summary.interrupted = True
        summary.seconds = time.perf_counter() - start
        return summary
    finally:
        db.close()


def _connect_or_close(db_path: str | Path, client: Any) -> sqlite3.Connection:
    """The survey database; if it cannot be opened, the Dask ``client`` (if any) is closed
    before the error goes on, as no survey will use it."""
    try:
        return connect(db_path)
    except BaseException:
        if client is not None:
            client.close()
        raise


def _run(engine: Engine, tasks: Iterable[Task], on_result: OnResult, on_error: OnError,
         workers: int, left: int, client: Any, processes: bool) -> None:
    """Solve ``tasks`` (``left`` of them) on ``engine``: inline when one worker or one deal."""
    if engine == "dask":
        run_dask(tasks, on_result, on_error, workers, client, processes)
    elif engine != "local":
        raise ValueError(f"unknown engine {engine!r} (local or dask)")
    elif workers == 1 or left <= 1:
        run_inline(tasks, on_result, on_error)
    else:
        run_pool(tasks, on_result, on_error, min(workers, left))


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
    db = connect(db_path, create=False)
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
MAX_WORKERS = 256  # processes started on this machine: each may use its --max-mb


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
    if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
        raise ValueError(f"--workers goes from 1 to {MAX_WORKERS}, not {args.workers}")
    if args.scheduler and args.engine != "dask":
        raise ValueError("--scheduler needs --engine dask")
    db = args.db or default_db()
    loaded: dict[int, Row] = {}
    if args.data:
        from . import data

        if not Path(args.data).is_dir():  # a mistyped folder would start the survey again
            raise ValueError(f"no survey data folder at {args.data} (make it first to start "
                             "new data files)")
        loaded = data.load_into(db, args.data, variant.name, options_key(variant))
    # SIGTERM (and SIGINT, which a shell ignores in background jobs) stops the run cleanly
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        summary = survey(
            variant, args.deals, db, workers=args.workers, engine=args.engine,
            scheduler=args.scheduler, max_seconds=args.max_seconds,
            max_nodes=args.max_nodes, max_mb=args.max_mb,
            retry_unknown=args.retry_unknown, fair=not args.no_fair, progress=not args.quiet,
        )
    finally:
        signal.signal(signal.SIGTERM, previous)
        if args.data:
            data.save_from(db, args.data, variant.name, options_key(variant), loaded)
    print(summary.text())
    from .solver.build import GAIN, running

    solver = running()
    print(f"solver: {solver} in this process"
          + (f" (`thirteen compile-solver` makes the search {GAIN})"
             if solver == "pure Python" else ""))
    flags = "".join(f" --{k.replace('_', '-')}" if v is True else f" --{k} {v}"
                    for k, v in sorted(variant.options().items()))
    print(f"stored in {db}; see `thirteen report {variant.name}{flags} --db {db}`")
    if args.data:
        print(f"merged into the data files of {args.data} (`thirteen report --data {args.data}`)")
    if summary.interrupted:
        return 130
    return 1 if summary.errors else 0
