"""Where a survey's deals are solved: the worker side (`Task`, `solve_deal`) and the engines
that run it, one after another in this process, in a `multiprocessing` pool, or on a Dask
cluster. Each engine hands every row back to the caller (`thirteen.survey`), the only writer.

The solver is imported lazily, in the workers, so that this module imports without it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import multiprocessing
import multiprocessing.pool
import queue
import signal
import socket
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from .game import new_state
from .priority import to_background
from .variants import Variant, get_variant

Row = dict[str, Any]
#: Modules that do not decide a verdict, left out of `solver_version`'s digest.
FRONT_ENDS = ("cli", "arguments", "survey", "workers", "report", "data", "store", "session",
              "dbfile", "odds", "grades", "priority")


def options_key(variant: Variant) -> str:
    """The canonical JSON of a variant's player options: part of each row's key."""
    return json.dumps(variant.options(), sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Task:
    """One deal to solve: everything a worker needs, small and picklable."""

    game: str
    options: tuple[tuple[str, Any], ...]
    deal: int
    max_seconds: float | None
    max_nodes: int | None
    max_mb: int | None
    #: whether the fair player plays the deal too where cards are hidden: its game takes far longer
    #: than the thoughtful solve (docs/benchmarks.md), so a survey may leave it out
    fair: bool = True


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
    for path in sorted([*here.glob("*.py"), *here.glob("solver/**/*.py")]):
        if path.stem not in FRONT_ENDS:
            digest.update(str(path.relative_to(here)).encode() + b"\0" + path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:10]}"


def solve_deal(task: Task) -> Row:
    """Solve one deal (and, where cards are hidden, play it fairly unless the task says
    not to); the row to store."""
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
    if task.fair and state.hides_cards:
        from .solver import fair_play

        fair = fair_play(state)  # plays seeing only the cards in sight, to the end
        row["fair_verdict"] = "won" if fair.verdict == "solved" else "lost"
        row["fair_seconds"] = fair.seconds
    return row


def worker_pool(workers: int) -> multiprocessing.pool.Pool:
    """A pool of ``workers`` processes that yield the machine (`_pool_worker`); forkserver, so
    that they are not forks of this process and its threads (the progress bar)."""
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    return ctx.Pool(workers, initializer=_pool_worker)


def _pool_worker() -> None:
    """A pool worker leaves Ctrl-C to the coordinator, which stops it, and yields the machine
    to any other work (`priority`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    to_background()



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
    pool = worker_pool(workers)
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


DASK_CONNECT_SECONDS = 5.0  # how long to wait for a remote scheduler's answer


def dask_client(scheduler: str) -> Any:
    """A client of the scheduler at ``scheduler``, or one line saying it cannot be reached
    (`ValueError`) after `DASK_CONNECT_SECONDS`, with distributed's own retry logs kept quiet."""
    dist: Any = import_module("distributed")  # untyped; imported only for this engine
    log = logging.getLogger("distributed")
    level = log.level
    log.setLevel(logging.CRITICAL)
    try:
        return dist.Client(scheduler, timeout=DASK_CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as e:
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ValueError(f"cannot reach the Dask scheduler at {scheduler}: {why[:160]}"
                         ) from None
    finally:
        log.setLevel(level)


def local_cluster(workers: int, processes: bool = True) -> tuple[Any, Any]:
    """A Dask `LocalCluster` of ``workers`` and its client; its worker processes yield the
    machine, as a pool's do (threads of this process are left as they are)."""
    dist: Any = import_module("distributed")
    # its HTTP server on any free port: one on Dask's 8787 (another cluster's) is no clash
    cluster = dist.LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                                dashboard_address=":0", silence_logs=logging.ERROR)
    client = dist.Client(cluster)
    if processes:
        client.run(to_background)
    return cluster, client


def run_dask(tasks: Iterable[Task], on_result: OnResult, on_error: OnError, workers: int,
             client: Any = None, processes: bool = True) -> None:
    """Solve the deals on a Dask cluster (``client``'s, `dask_client`, or a `LocalCluster` of
    ``workers``); results come back here in completion order."""
    dist: Any = import_module("distributed")  # untyped; imported only for this engine

    cluster: Any = None
    if client is None:
        cluster, client = local_cluster(workers, processes)
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

