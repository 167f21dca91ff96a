"""The Calculation family's thoughtful game as a scheduling problem, decided by CP-SAT.

Why: the move search of `calculation.py` finds most wins in milliseconds but has never proved
a whole deal lost, and a few deals cost it more than a minute. Seen as a schedule, the game is
small: every card gets a foundation, a waste pile and a time to go home, and a winning line is
exactly an assignment in which each foundation takes its ranks in order and each waste pile
is a stack. The model below states just that (docs/solver.md, *solver/schedule_model.py*,
proves both directions), so the constraint solver's "infeasible" is a proof of loss and its
solutions are lines, which `checked_result` replays through the engine.

Suits are never read. Time is counted in placements: stock card ``i`` (the turned card is
``0``) is placed, on a waste pile or at once on its foundation, at time ``(i + 1) * SLOTS``;
a card goes home at ``turn * SLOTS + slot`` with ``1 <= slot < SLOTS``, after ``turn``
placements and before the next one. The cards already in the waste were placed before time 0.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from ortools.sat.python import cp_model

from ..calculation import CalcState
from ..moves import Move, Place
from .common import Verdict, now, signal_came, stop_if_signalled

#: One deterministic second of CP-SAT (its own measure of work, the same on any machine)
#: counts as this many positions of the node budget: about what the move search of
#: `calculation.py` visits in a second of CPU (docs/benchmarks.md).
NODES_PER_DETERMINISTIC_SECOND = 200_000

#: The restarts of `decide`, in deterministic seconds: the first run's budget, the factor by
#: which each next run's grows, and the least budget worth a run (docs/solver.md, *Restarts*).
FIRST_RUN = 6.0
GROWTH = 1.5
MIN_RUN = 0.01

#: How often (wall seconds) `_solve_within` reads the CPU clock of CP-SAT's thread.
WATCH_PERIOD = 0.05


@dataclass(frozen=True, slots=True)
class Decision:
    """The model's answer: ``solved`` with its line, ``unsolvable`` (the model is
    infeasible) or ``unknown`` (the budget ran out), and the work it took in positions."""

    verdict: Verdict
    moves: tuple[Move, ...]
    nodes: int


@dataclass(frozen=True, slots=True)
class _Card:
    rank: int
    turn: int  # placements before this card is placed: -1 for a card already in the waste
    pile: int | None  # its waste pile, for a card already in the waste
    depth: int  # its place in that pile from the bottom (0 for a stock card)


def _cards(state: CalcState) -> list[_Card]:
    """The cards still to go home: the waste's, then the stock's in turning order."""
    cards = [_Card(c.rank, -1, p, d) for p, pile in enumerate(state.waste)
             for d, c in enumerate(pile)]
    return cards + [_Card(c.rank, i, None, 0) for i, c in enumerate(state.stock)]


class _Model:
    """The variables and constraints of one position (see the module's docstring)."""

    def __init__(self, state: CalcState) -> None:
        self.state = state
        self.cards = _cards(state)
        self.slots = len(self.cards) + 2
        self.m = cp_model.CpModel()
        self.home = [self._home_time(c) for c in self.cards]
        self.goes_to: list[dict[int, cp_model.IntVar]] = []  # card -> foundation -> literal
        self.on: list[list[cp_model.IntVar]] = []  # card -> a literal per waste pile
        self.places: list[dict[int, int]] = []  # foundation -> rank -> its place in the order
        # (a, b, literals): card b lies above card a when all the literals hold
        self.above: list[tuple[int, int, list[cp_model.IntVar]]] = []
        self.feasible = self._foundations()
        self._piles()
        self._stacks()
        self._implied()

    def _home_time(self, card: _Card) -> tuple[cp_model.IntVar, cp_model.IntVar]:
        """The card's home time and its turn (placements before it goes home): a stock card
        goes home after its own placement."""
        n = len(self.state.stock)
        turn = self.m.new_int_var(card.turn + 1, n, "")
        slot = self.m.new_int_var(1, self.slots - 1, "")
        time = self.m.new_int_var(1, (n + 1) * self.slots, "")
        self.m.add(time == self.slots * turn + slot)
        return time, turn

    def _foundations(self) -> bool:
        """Each foundation takes each rank it still wants from exactly one card, in its
        order: its k-th card goes home strictly before its (k+1)-th. False when no card or
        no foundation is left for some rank or card (the model is then plainly infeasible)."""
        wanted: dict[tuple[int, int], cp_model.IntVar] = {}  # (foundation, place) -> time
        places = self.places
        for f, pile in enumerate(self.state.foundations):
            seq = self.state.variant.sequence(f)[len(pile):]
            places.append({r: k for k, r in enumerate(seq)})
            for k in range(len(seq)):
                wanted[f, k] = self.m.new_int_var(0, (len(self.state.stock) + 1) * self.slots, "")
                if k:
                    self.m.add(wanted[f, k] > wanted[f, k - 1])
        takers: dict[tuple[int, int], list[cp_model.IntVar]] = {key: [] for key in wanted}
        for i, card in enumerate(self.cards):
            options = {f: self.m.new_bool_var("") for f, place in enumerate(places)
                       if card.rank in place}
            for f, lit in options.items():
                k = places[f][card.rank]
                self.m.add(self.home[i][0] == wanted[f, k]).only_enforce_if(lit)
                takers[f, k].append(lit)
            self.m.add_exactly_one(options.values())
            self.goes_to.append(options)
        for lits in takers.values():
            self.m.add_exactly_one(lits)
        return all(takers.values()) and all(self.goes_to)

    def _piles(self) -> None:
        """A waste pile for every card: its own for a card in the waste; any for a stock card
        (one that goes home at once stays on it for no placement, so which does not matter)."""
        piles = len(self.state.waste)
        for card in self.cards:
            if card.pile is not None:
                self.on.append([self.m.new_constant(int(q == card.pile)) for q in range(piles)])
            else:
                lits = [self.m.new_bool_var("") for _ in range(piles)]
                self.m.add_exactly_one(lits)
                self.on.append(lits)

    def _stacks(self) -> None:
        """A waste pile is a stack: a card placed on a pile while an earlier card is still
        there goes home before that card. Records each pair in `above`."""
        for b, later in enumerate(self.cards):
            for a in range(b):
                earlier = self.cards[a]
                if later.pile is not None:  # both in the waste at the start
                    if later.pile == earlier.pile:
                        self.m.add(self.home[b][0] < self.home[a][0])
                        self.above.append((a, b, []))
                    continue
                under = self.m.new_bool_var("")  # a is still there when b is placed
                self.m.add(self.home[a][1] > later.turn).only_enforce_if(under)
                self.m.add(self.home[a][1] <= later.turn).only_enforce_if(~under)
                same = self.m.new_bool_var("")
                for qa, qb in zip(self.on[a], self.on[b], strict=True):
                    self.m.add_bool_or([~qa, ~qb, same])
                self.m.add(self.home[b][0] < self.home[a][0]).only_enforce_if([under, same])
                self.above.append((a, b, [under, same]))

    def _implied(self) -> None:
        """(I), implied by (F) and (S): when ``b`` lies above ``a`` (all the literals of its
        pair in `above`), no foundation takes both with ``a``'s rank first. As clauses the
        solver's conflict analysis uses them at once, where through the home times it finds
        them late (docs/solver.md)."""
        for a, b, lits in self.above:
            ra, rb = self.cards[a].rank, self.cards[b].rank
            for f, la in self.goes_to[a].items():
                lb = self.goes_to[b].get(f)
                if lb is not None and self.places[f][ra] < self.places[f][rb]:
                    self.m.add_bool_or([~x for x in lits] + [~la, ~lb])

    def line(self, solver: cp_model.CpSolver) -> tuple[Move, ...]:
        """The moves of a solution: placements and moves home in time order (never at the
        same time: placements are at multiples of ``slots``, moves home between them); a
        stock card that goes home before anything else happens goes straight from the
        stock."""
        events = []
        for i, card in enumerate(self.cards):
            f = next(f for f, lit in self.goes_to[i].items() if solver.value(lit))
            pile = next(q for q, lit in enumerate(self.on[i]) if solver.value(lit))
            events.append((solver.value(self.home[i][0]), 0, pile, f))
            if card.pile is None:
                events.append(((card.turn + 1) * self.slots, 1, pile, f))
        events.sort()
        moves: list[Move] = []
        for k, (_, placed, pile, f) in enumerate(events):
            if placed:
                moves.append(Move(Place("s"), Place("w", pile)))
            elif moves and moves[-1] == Move(Place("s"), Place("w", pile)) and events[k - 1][1]:
                moves[-1] = Move(Place("s"), Place("f", f))
            else:
                moves.append(Move(Place("w", pile), Place("f", f)))
        return tuple(moves)


def _solver() -> cp_model.CpSolver:
    """One search thread, so that a node budget gives the same answer on every machine."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    # CP-SAT's presolve spent 8 s of wall time (none of it counted as deterministic time)
    # on a two-deck deal and left the search slower: without it PySolFC's Imaginary
    # Thirteen 2, 79 and 88 took 16, 20 and 11 s instead of 35, 66 and 53 s
    solver.parameters.cp_model_presolve = False
    # Ctrl-C is Python's to hold (`signals_held`) and `_solve_within`'s to act on: CP-SAT's
    # own handler ended only the run, and `decide` went on with the next
    solver.parameters.catch_sigint_signal = False
    return solver


def _solve_within(solver: cp_model.CpSolver, model: cp_model.CpModel,
                  deadline: float | None, clock: Callable[[], float] | None = None
                  ) -> cp_model.CpSolverStatus:
    """``solver.solve(model)``, stopped once ``clock`` (this thread's CPU clock, on which `now`
    counts) passes ``deadline``, or a held signal comes (`signal_came`). CP-SAT's own time
    limit is its wall clock, which a search that waits for a core (a survey beside other work,
    a server's solver at the lowest priority) spends before its CPU seconds: with it, a deal
    decided in 40 CPU seconds was unknown at 60. A watching thread reads the clock and asks
    CP-SAT to stop until it does."""
    if clock is None:
        clock = partial(time.clock_gettime, time.pthread_getcpuclockid(threading.get_ident()))
    held = threading.current_thread() is threading.main_thread()  # whose signals are held
    done = threading.Event()

    def watch() -> None:
        while not done.wait(WATCH_PERIOD):
            if (held and signal_came()) or (deadline is not None and clock() >= deadline):
                solver.stop_search()  # ignored before the search starts: asked again

    watcher = threading.Thread(target=watch, name="cp-sat deadline", daemon=True)
    watcher.start()
    try:
        return solver.solve(model)
    finally:
        done.set()
        watcher.join()


def decide(state: CalcState, seconds: float | None, nodes: int | None,
           seed: int = 1, first_run: float = FIRST_RUN) -> Decision:
    """Solve the model of ``state`` within ``seconds`` (CPU seconds, `now`: CP-SAT runs in
    this thread, and `_solve_within` stops it by this thread's CPU clock, so a busy machine
    makes it slower, not its answer different) and ``nodes`` positions
    (`NODES_PER_DETERMINISTIC_SECOND`, the same on every machine).

    Why restarts: on the hardest deals CP-SAT's work is heavy-tailed in its random seed (a
    deal one seed decides in 1.7 deterministic seconds another leaves unknown after 200), so
    the model is solved in runs, the first of ``first_run`` deterministic seconds, each next one
    `GROWTH` times longer with the next seed, ``seed`` first (docs/solver.md, *Restarts*). Each
    run is a complete search, so an infeasible run is still a proof. `bench/schedule_model.py`
    varies ``seed`` and ``first_run``."""
    model = _Model(state)
    if not model.feasible:  # a card no foundation takes, or a rank short of copies
        return Decision("unsolvable", (), 0)
    solver = _solver()
    deadline = None if seconds is None else now() + seconds
    budget = None if nodes is None else nodes / NODES_PER_DETERMINISTIC_SECOND
    work, run = 0.0, first_run
    while True:
        solver.parameters.random_seed = seed
        solver.parameters.max_deterministic_time = run if budget is None else min(
            run, max(budget - work, 0.0))
        status = _solve_within(solver, model.m, deadline)
        stop_if_signalled()  # a signal stopped the run: the search unwinds (`signals_held`)
        work += solver.response_proto.deterministic_time
        spent = round(work * NODES_PER_DETERMINISTIC_SECOND)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Decision("solved", model.line(solver), spent)
        if status == cp_model.INFEASIBLE:
            return Decision("unsolvable", (), spent)
        if (status != cp_model.UNKNOWN or (budget is not None and budget - work < MIN_RUN)
                or (deadline is not None and now() >= deadline)):
            return Decision("unknown", (), spent)
        seed, run = seed + 1, run * GROWTH
