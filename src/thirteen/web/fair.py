"""The solver's fair share among players: a few solver slots, at most one job in flight per
player, the waiting jobs served in turn across players (round robin, not in order of
arrival), and a wait limit after which a request is refused with 503 rather than left hanging.

So one player asking for many slow things (hard deals, hints, solves) holds at most one slot,
and a player who asks now and then is served before those who just were. The long jobs
("heavy": a solve, a search for a deal of some difficulty, seconds each) may hold only some of
the slots, so a short one (a hint, an analysis) never waits behind a long one; and the
quickest ("quick": an analysis, which a page asks after every move) have a slot of their own
besides, so they never wait behind a hint.
"""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio
import anyio.to_process

from ..priority import children, lower_priority, restore_priority

log = logging.getLogger("thirteen.web")

T = TypeVar("T")

MEMORY = 100_000  # players whose last turn is remembered

Worker = Callable[..., Awaitable[Any]]  # runs fn(*args) off the event loop

#: Wall-clock seconds a job may run. Its budget counts CPU time, and at the lowest priority a
#: machine kept busy by other work may give it none: past this its process is stopped and the
#: answer is 503 (busy), not a verdict, and not a request that never ends.
RUN_LIMIT = 120.0


def in_processes(slots: int) -> Worker:
    """Run jobs in up to ``slots`` worker processes (kept for the next job), at a lower
    priority: a search holds no lock the event loop needs and no core it wants, so moves are
    answered at once while the solver works."""
    limiter = anyio.CapacityLimiter(slots)

    async def run(fn: Callable[..., T], *args: object) -> T:
        return await anyio.to_process.run_sync(_in_worker, fn, *args, limiter=limiter,
                                               cancellable=True)

    return run


def _in_worker(fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)`` in a worker process at the lowest priority, set again for every job (a
    stop may have raised it: `hurry_workers`). Its searches' budgets count their own CPU time
    (`solver.common.now`): at the lowest priority a search may wait for a core, and its answer
    (a solve that "gave up", a verdict kept for the position) does not depend on that wait."""
    lower_priority()
    return fn(*args)


def hurry_workers() -> None:
    """Before a job is stopped (its process killed): this process's workers leave the idle
    class, so that the killed one exits at once on a busy machine and its answer (a stopped
    Solve's refusal) is not kept waiting; the others go back to it with their next job."""
    restore_priority(children())


class Busy(Exception):
    """The solver could not take a job in time (or too many are waiting): say so, try later."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class Late(Busy):
    """The job waited its whole wait limit for a turn."""


@dataclass(eq=False)
class _Ticket:
    """A job waiting for a slot; `granted` is set when the turn hands it one (``spare``: a
    slot of the quick jobs' own)."""

    player: str
    heavy: bool
    quick: bool
    ready: anyio.Event = field(default_factory=anyio.Event)
    granted: bool = False
    spare: bool = False


class FairSolver:
    """``await solver.run(player, fn, *args)`` runs ``fn(*args)`` with ``worker`` (default: in a
    worker process) when it is the player's turn; `Busy` when the player already has
    ``per_player`` jobs waiting or when ``total`` jobs are waiting (memory stays bounded), `Late`
    when it waited ``wait`` seconds (or the job's own wait limit), `Busy` (503) when it ran
    ``run_limit`` seconds (its process is stopped). At most ``heavy`` of the ``slots`` run heavy
    jobs; ``quick`` more slots run only quick jobs."""

    def __init__(self, slots: int = 2, wait: float = 20.0, heavy: int = 1, quick: int = 1,
                 per_player: int = 8, total: int = 2000, worker: Worker | None = None,
                 run_limit: float = RUN_LIMIT) -> None:
        self.slots, self.wait, self.heavy, self.quick = slots, wait, heavy, quick
        self.run_limit = run_limit
        self.worker = worker or in_processes(slots + quick)
        self.per_player, self.total = per_player, total
        self.running: dict[str, _Ticket] = {}  # players with a job in flight
        self.turns: OrderedDict[str, deque[_Ticket]] = OrderedDict()  # waiting, by arrival
        self.waiting = 0
        self.served = 0  # slots handed out so far
        self.last: OrderedDict[str, int] = OrderedDict()  # player -> when last served

    async def run(self, player: str, fn: Callable[..., T], *args: object,
                  heavy: bool = False, quick: bool = False, wait: float | None = None) -> T:
        ticket = await self._enter(_Ticket(player, heavy, quick),
                                   self.wait if wait is None else wait)
        try:
            return await self._within_limit(fn, *args)
        except TimeoutError:
            log.warning("a solver job was stopped after %g s", self.run_limit)
            raise Busy("the solver is too busy to finish this: try again in a moment",
                       503) from None
        except anyio.BrokenWorkerProcess:
            log.exception("a solver process died")
            raise Busy("the solver failed: try again", 503) from None
        finally:
            self._leave(ticket)

    async def _within_limit(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` with the worker; past ``run_limit`` it is stopped (`TimeoutError`),
        the workers hurried first (`hurry_workers`) so that the stopped process exits at once on
        a busy machine and the refusal is not kept waiting."""
        answers: list[T] = []
        failed: list[Exception] = []  # raised outside the task group, which would wrap it
        async with anyio.create_task_group() as group:
            async def stop_when_late() -> None:
                await anyio.sleep(self.run_limit)
                hurry_workers()
                group.cancel_scope.cancel()

            group.start_soon(stop_when_late)
            try:
                answers.append(await self.worker(fn, *args))
            except Exception as e:  # noqa: BLE001 - raised again below, as it came
                failed.append(e)
            group.cancel_scope.cancel()
        if failed:
            raise failed[0]
        if not answers:
            raise TimeoutError
        return answers[0]

    async def _enter(self, ticket: _Ticket, wait: float) -> _Ticket:
        player = ticket.player
        queue = self.turns.get(player)
        if queue is not None and len(queue) >= self.per_player:
            raise Busy(f"{len(queue)} of your requests already wait for the solver: "
                       "wait for their answers", 429)
        if self.waiting >= self.total:
            raise Busy("the solver is too busy: try again in a moment", 503)
        self.turns.setdefault(player, deque()).append(ticket)
        self.waiting += 1
        self._dispatch()
        try:
            with anyio.move_on_after(wait):
                await ticket.ready.wait()
        except BaseException:  # the request was cancelled: give back what it holds
            if ticket.granted:
                self._leave(ticket)
            else:
                self._forget(ticket)
            raise
        if not ticket.granted:
            self._forget(ticket)
            raise Late(f"the solver is busy with other players' requests and did not get to "
                       f"yours within {wait:g} s: try again in a moment", 503)
        return ticket

    def _forget(self, ticket: _Ticket) -> None:
        queue = self.turns.get(ticket.player)
        if queue is not None and ticket in queue:
            queue.remove(ticket)
            self.waiting -= 1
            if not queue:
                del self.turns[ticket.player]

    def _leave(self, ticket: _Ticket) -> None:
        self.running.pop(ticket.player, None)
        self._dispatch()

    def _dispatch(self) -> None:
        """Hand free slots to the waiting players with no job in flight, the one served
        longest ago (or never) first: a player who asks now and then goes before those who
        keep the solver busy, and a player's many jobs take turns with everyone else's. A
        heavy job waits while ``heavy`` others run; a quick job takes a slot of its own kind
        first."""
        while True:
            ready = [p for p, queue in self.turns.items()
                     if p not in self.running and self._fits(queue[0])]
            if not ready:
                return
            player = min(ready, key=lambda p: self.last.get(p, -1))
            queue = self.turns[player]
            ticket = queue.popleft()
            self.waiting -= 1
            if not queue:
                del self.turns[player]
            self.served += 1
            self.last[player] = self.served
            self.last.move_to_end(player)
            while len(self.last) > MEMORY:
                self.last.popitem(last=False)
            ticket.granted = True
            ticket.spare = ticket.quick and self._spare_free()
            self.running[player] = ticket
            ticket.ready.set()

    def _spare_free(self) -> bool:
        return sum(t.spare for t in self.running.values()) < self.quick

    def _fits(self, ticket: _Ticket) -> bool:
        """Whether a slot is free for ``ticket`` now."""
        running = self.running.values()
        if ticket.quick and self._spare_free():
            return True
        return sum(not t.spare for t in running) < self.slots and (
            not ticket.heavy or sum(t.heavy for t in running) < self.heavy)
