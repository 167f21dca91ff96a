"""What every search shares: the budget, the result and the replay of every line (the clock
that enforces a budget is `clock.Clock`, compiled with the searches)."""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

from ..moves import Move

if TYPE_CHECKING:
    from ..game import State

Verdict = Literal["solved", "unsolvable", "unknown"]


def key_bytes(key: object) -> int:
    """The memory one key object holds: its size in pymalloc's 16-byte blocks."""
    return -(-sys.getsizeof(key) // 16) * 16


_EMPTY_SET: Final = sys.getsizeof(set())


def table_bytes(table: set[Any], key_size: int, adds: int) -> int:
    """The most memory a transposition table (a `set` of keys of at most ``key_size`` bytes,
    `key_bytes`) holds until ``adds`` more keys go in: its keys, and its array of slots (16
    bytes each, read exactly from `sys.getsizeof`) as CPython grows it: when 60% of the
    slots are taken, to the first power of two above four times the keys (twice, past
    50,000 keys), the old array living beside the new one while the keys move over."""
    size = sys.getsizeof(table)
    slots = (size - _EMPTY_SET) // 16 or 8  # a small set's 8 slots are inside the object
    arrays = size - _EMPTY_SET
    keys = len(table) + adds
    while keys * 5 >= (slots - 1) * 3:  # as CPython: it grows once fill * 5 >= mask * 3
        fill = -(-(slots - 1) * 3 // 5)
        grown = 1 << (fill * (2 if fill > 50_000 else 4)).bit_length()
        arrays = (slots + grown) * 16
        slots = grown
    return _EMPTY_SET + arrays + keys * key_size


@dataclass(frozen=True)
class Budget:
    """Limits of one search; None means no limit of that kind. Seconds are the searching
    thread's CPU seconds (`now`)."""

    max_nodes: int | None = 2_000_000
    max_seconds: float | None = 60.0
    max_mb: int | None = 2048


@dataclass(frozen=True)
class Result:
    """The outcome of a search.

    ``solved``: ``moves`` replay through the engine to a won state. ``unsolvable``: the
    search space (pruned only by the provably safe rules of docs/solver.md) was exhausted.
    ``unknown``: a budget ran out (``reason`` says which) or the game is not searchable.
    """

    verdict: Verdict
    moves: tuple[Move, ...]
    nodes: int
    seconds: float
    peak_states: int
    reason: str = ""

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "moves": [str(m) for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "peak_states": self.peak_states,
            "reason": self.reason,
        }


def checked_result(state: State, verdict: Verdict, moves: tuple[Move, ...], nodes: int,
                   seconds: float, peak_states: int, reason: str = "") -> Result:
    """The `Result` of a search, with a ``solved`` line replayed through the engine first: the
    searches work on their own representations, and only the engine's word makes a solution.
    A line that does not replay (never expected) is reported as ``unknown``."""
    if verdict == "solved":
        s = state
        try:
            for m in moves:
                s = s.apply(m)
        except ValueError:
            s = state
        if not s.won:
            return Result("unknown", (), nodes, seconds, peak_states,
                          "internal error: the solution did not replay")
    return Result(verdict, moves, nodes, seconds, peak_states, reason)


#: The default budget of `solve`, and the smaller one of `hint`.
DEFAULT_BUDGET = Budget()
HINT_BUDGET = Budget(max_seconds=5.0)


class OutOfBudget(Exception):
    """Raised inside a search when a limit is reached; the message names the limit."""


class OutOfMemory(OutOfBudget):
    """The memory budget reached: a search holding tables it can do without may drop them
    and go on (`packer.schedule`)."""


class Interrupted(BaseException):
    """A signal came while `signals_held`: raised at the clock's next check, a safe point.
    Not an `Exception`, so that nothing on the way out takes it for a search's failure."""


class Held(Protocol):
    """A structure that several searches sharing a clock grow (rule D4's memo)."""

    def held(self) -> int: ...


def now() -> float:
    """The clock that budgets' seconds and results' seconds are counted on: the CPU time of the
    thread that calls it, the searching thread. A search that waits for a core (a busy machine,
    a server's solver process at the lowest priority, a survey beside other work) then gives
    the same answer as on an idle machine, only later."""
    return time.thread_time()


_pause_lock = threading.Lock()
_pauses = 0  # searches running with the collector paused
_was_enabled = False  # whether it ran before the first of them


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a search runs. A search makes no
    reference cycles, but each full pass of the collector walks every key of the
    transposition table: paused, a 60 s Baker's Dozen search goes 8% further. Counted, so
    that searches in several threads (the web server) turn it back on only when the last
    ends, and only if it was on."""
    global _pauses, _was_enabled
    with _pause_lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if _pauses == 0 and _was_enabled:
                gc.enable()


HELD_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM)
_holding: list[bool] = []  # a search in the main thread holds the signals
_pending: list[int] = []  # the signals that came meanwhile


def _note(signum: int, frame: object) -> None:
    _pending.append(signum)


def stop_if_signalled() -> None:
    """Raise `Interrupted` if a held signal came: a safe point of a search in the main thread."""
    if _pending and threading.current_thread() is threading.main_thread():
        raise Interrupted


_wakeup: list[int] = []  # while signals are held: the pipe's end the signals' numbers come out of
_woken: list[int] = []  # the held signals read from it


def signal_came() -> bool:
    """Whether a held signal came, for a thread that watches a search the main thread runs
    in code that does not come back to Python until it ends (CP-SAT): only then would Python
    run the signal's handler, but the signal's number is written at once to a pipe
    (`signal.set_wakeup_fd`, `_wakeup_pipe`)."""
    if _wakeup and not _woken:
        with suppress(BlockingIOError):
            _woken.extend(b for b in os.read(_wakeup[0], 512) if b in HELD_SIGNALS)
    return bool(_pending or _woken)


@contextmanager
def _wakeup_pipe() -> Iterator[None]:
    """Have the signals' numbers written to a pipe (`signal_came`) unless something else of
    the main thread reads them already (an event loop's wakeup file)."""
    read, write = os.pipe()
    os.set_blocking(read, False)
    os.set_blocking(write, False)
    previous = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    if previous != -1:
        signal.set_wakeup_fd(previous)
    else:
        _wakeup.append(read)
    try:
        yield
    finally:
        if _wakeup:
            signal.set_wakeup_fd(-1)
        _wakeup.clear()
        _woken.clear()
        os.close(read)
        os.close(write)


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM while a search runs in the main thread, and stop the search at
    its clock's next check. CPython checks for signals inside long arithmetic on large
    integers (the packed positions), and mypyc's runtime takes an exception raised there for
    an allocation failure and aborts the process ("fatal: out of memory"): so a signal only
    notes itself, and once the search has unwound it goes to the handler it was meant for
    (a KeyboardInterrupt, a survey's clean stop, or the end of the process)."""
    if _holding or threading.current_thread() is not threading.main_thread():
        yield  # a search within a search, or in another thread (no handler runs there)
        return
    previous = {s: signal.getsignal(s) for s in HELD_SIGNALS}
    # not one ignored, nor one whose handler Python did not set (which it could not put back)
    held = [s for s, handler in previous.items() if handler not in (signal.SIG_IGN, None)]
    for s in held:
        signal.signal(s, _note)
    _holding.append(True)
    try:
        with _wakeup_pipe():
            yield
    except Interrupted:
        pass
    finally:
        _holding.clear()
        for s in held:
            signal.signal(s, previous[s])
        came = list(dict.fromkeys(_pending))
        _pending.clear()
        for signum in came:
            signal.raise_signal(signum)
    if came:  # the handler let the process go on: the search it stopped cannot
        raise KeyboardInterrupt
