"""The solver's background work yields the machine: the web server's solver processes and a
survey's worker processes run in Linux's idle scheduling class, where any other process that
wakes takes the core at once (a nice-19 process may finish its time slice first: the moves'
p99 under load, docs/benchmarks.md). Both share the idle time between them, so a survey on
the machine slows a server's hints rather than starving them. Budgets count CPU time
(`solver.common.now`), so no answer depends on the wait."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path

NICE = 19  # the lowest priority where the idle scheduling class is not to be had


def lower_priority() -> None:
    """Put this process in the idle scheduling class; elsewhere than Linux, nice 19."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.nice(NICE)


def restore_priority(pids: Iterable[int]) -> None:
    """Put these processes back in the ordinary class, where allowed (as root, or with a
    large enough RLIMIT_NICE): a process killed in the idle class must still be given a core
    to exit (freeing a solver's memory takes tens of milliseconds), which other work may deny
    it for seconds while whoever stopped it waits."""
    for pid in pids:
        with contextlib.suppress(AttributeError, OSError):
            os.sched_setscheduler(pid, os.SCHED_OTHER, os.sched_param(0))


def children() -> list[int]:
    """This process's child processes (from Linux's /proc; none elsewhere)."""
    pids: list[int] = []
    for task in Path("/proc/self/task").glob("*/children"):
        with contextlib.suppress(OSError, ValueError):
            pids += [int(pid) for pid in task.read_text().split()]
    return pids
