"""The clock every search counts its positions on and checks its budget with (`Clock`).

A module of its own so that mypyc compiles it with the searches (solver/build.py): they read
and write its counts at every position, which a class of the uncompiled `common` would make
a Python attribute look-up and a boxed int each time.
"""

from __future__ import annotations

from .common import Budget, Held, OutOfBudget, OutOfMemory, now, stop_if_signalled


class Clock:
    """Counts nodes and checks nodes, time and memory when the count reaches ``due``: at each
    multiple of ``every`` and at the node budget, so that a search spends a node budget
    exactly. A search keeps ``due`` in a local and reads it again after each `check`: one
    comparison a node, as cheap as the test of a multiple it replaces."""

    def __init__(self, budget: Budget, every: int = 512) -> None:
        self.budget = budget
        self.start = now()
        self.nodes = 0
        self.deadline = (self.start + budget.max_seconds
                         if budget.max_seconds is not None else float("inf"))
        self.max_bytes = budget.max_mb * 1024 * 1024 if budget.max_mb is not None else None
        self.every = every
        self.extra_bytes = 0  # memory held by another search sharing this clock
        # a memo every search sharing this clock may grow: counted here at every check, live,
        # so that neither a search's own figure nor ``extra_bytes`` need hold it
        self.shared: Held | None = None
        self.due = self.next_due()

    def elapsed(self) -> float:
        return now() - self.start

    def next_due(self) -> int:
        """The next multiple of ``every`` above ``nodes``, or the node budget if nearer."""
        due = (self.nodes // self.every + 1) * self.every
        limit = self.budget.max_nodes
        return due if limit is None else min(due, max(limit, self.nodes + 1))

    def check(self, held: int) -> None:
        """Raise `OutOfBudget` if any limit is spent (called when ``nodes`` reaches ``due``,
        with the most memory the search's tables hold until the next call, `table_bytes`),
        `Interrupted` if a held signal came, else set the next ``due``."""
        stop_if_signalled()
        b = self.budget
        if b.max_nodes is not None and self.nodes >= b.max_nodes:
            raise OutOfBudget(f"node budget of {b.max_nodes} spent")
        if now() >= self.deadline:
            raise OutOfBudget(f"time budget of {b.max_seconds} s spent")
        shared = self.shared.held() if self.shared is not None else 0
        if self.max_bytes is not None and held + self.extra_bytes + shared >= self.max_bytes:
            raise OutOfMemory(f"memory budget of {b.max_mb} MB spent")
        self.due = self.next_due()
