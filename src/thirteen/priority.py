"""The solver's background work yields the machine: the web server's solver processes and a
survey's worker processes run in Linux's idle scheduling class, where any other process that
wakes takes the core at once (a nice-19 process may finish its time slice first: the moves'
p99 under load, docs/benchmarks.md). Budgets count CPU time (`solver.common.now`), so no
answer depends on the wait.

Where Linux schedules each session as one group (autogroup, on in Debian's and most
distributions' kernels), the idle class ranks a process below the rest of its own session
only: against another session's work its session takes an equal share, idle class and all
(docs/architecture.md, *Solver, surveys and reports*). So a survey's workers, background work
for the whole machine, also leave their parent's session for sessions of their own, whose
groups they put at nice 19 (`to_background`): they yield to any other work, a server's solver
included. The web server's, whose answers a player waits for, yield to the server's own
process and share its session's part of the machine."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterable
from pathlib import Path

NICE = 19  # the lowest priority where the idle scheduling class is not to be had
AUTOGROUP = Path("/proc/self/autogroup")  # this process's session's group and its nice
GROUP_WAIT = 3.0  # seconds a worker waits its turn to set its group's nice (`_set_group_nice`)


def lower_priority() -> None:
    """Put this process in the idle scheduling class; elsewhere than Linux, nice 19."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.nice(NICE)


def to_background() -> None:
    """`lower_priority`, in a session of its own whose autogroup is at nice 19: a survey's
    worker yields to every other session's work too. The terminal's signals then go to its
    parent alone, which stops it (Ctrl-C) or whose end ends it. (Called in a worker process,
    which leads no process group, so that it may leave its parent's session; never the
    group of a session that holds other processes.)"""
    with contextlib.suppress(AttributeError, OSError):
        os.setsid()
        _set_group_nice(AUTOGROUP, NICE)
    lower_priority()


def restore_priority(pids: Iterable[int]) -> None:
    """Put these processes back in the ordinary class, where allowed (as root, or with a
    large enough RLIMIT_NICE): a process killed in the idle class must still be given a core
    to exit (freeing a solver's memory takes tens of milliseconds), which other work may deny
    it for seconds while whoever stopped it waits."""
    for pid in pids:
        with contextlib.suppress(AttributeError, OSError):
            os.sched_setscheduler(pid, os.SCHED_OTHER, os.sched_param(0))


def _set_group_nice(path: Path, nice: int) -> None:
    """Write an autogroup's nice. Linux takes one such write a tenth of a second from a
    process without CAP_SYS_ADMIN, machine-wide, and refuses the others (EAGAIN): so a pool's
    workers, starting together, take turns, each waiting at most `GROUP_WAIT` seconds."""
    for turn in range(1 + round(GROUP_WAIT / 0.1)):
        if turn:
            time.sleep(0.1)
        try:
            path.write_text(f"{nice}\n")
            return
        except BlockingIOError:
            continue
        except OSError:  # no autogroups here, or not allowed
            return


def children() -> list[int]:
    """This process's child processes (from Linux's /proc; none elsewhere)."""
    pids: list[int] = []
    for task in Path("/proc/self/task").glob("*/children"):
        with contextlib.suppress(OSError, ValueError):
            pids += [int(pid) for pid in task.read_text().split()]
    return pids
