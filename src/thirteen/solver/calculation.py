"""The Calculation family: a thoughtful solver (the stock order known) and a fair player.

Suits never matter in these games (foundations are built by rank), so the search works on
ranks only: a position is the number of stock cards turned, the height of each foundation
and the waste piles as ``bytes`` of ranks. The thoughtful search is a depth-first search with
a transposition table (waste piles sorted in the key: they are interchangeable), exact
symmetries and one dead-end proof (rule C1, `_Calc.dead`), argued in docs/solver.md.

The fair player sees what a player sees: the turned card, the waste piles and the
foundations. It never reads ``stock[1:]``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator

from ..calculation import CalcState
from ..moves import Move, Place
from .common import (
    DEFAULT_BUDGET,
    ENTRY_OVERHEAD,
    Budget,
    Clock,
    OutOfBudget,
    Result,
    checked_result,
)

STOCK = -1  # internal move source: the turned stock card
#: The fair player: what putting a card on an empty waste pile costs, against the gap (in
#: cards) between it and the top card it would cover; covering a card wanted sooner costs 100
#: and more.
EMPTY_PILE_COST = 3.0
MEAN_FOR_SEARCH = True  # the thoughtful search orders waste piles as the fair player does

IMove = tuple[int, int, int]  # (source: STOCK or waste pile, kind: 0 foundation / 1 waste, index)


class _Calc:
    def __init__(self, state: CalcState, fair: bool = False) -> None:
        """``fair``: keep only the turned card of the stock (what a player sees) and use the
        fair player's measures."""
        self.fair = fair
        self.noise = 0.0  # probes of the thoughtful search: random noise on pile scores
        self.rng = random.Random(0)
        self.mean = fair or MEAN_FOR_SEARCH
        v = state.variant
        self.seqs = [v.sequence(p) for p in range(len(state.foundations))]
        self.height = [len(p) for p in state.foundations]
        self.waste = [bytes(c.rank for c in pile) for pile in state.waste]
        self.stock = bytes(c.rank for c in (state.stock[:1] if fair else state.stock))
        self.pos = 0
        # stock_sets[i]: the ranks still in the stock once i cards are turned (thoughtful
        # search only: `prepare_search` fills it; the fair player never reads the stock).
        self.stock_sets: list[frozenset[int]] = []

    def prepare_search(self) -> None:
        self.stock_sets = [frozenset(self.stock[i:]) for i in range(len(self.stock) + 1)]

    def dead(self) -> bool:
        """True if no winning line remains (rule C1 of docs/solver.md).

        S starts as the unfinished foundations whose next rank is no longer in the stock. A
        foundation stays in S while every copy of its next rank in the waste lies under a
        card that only foundations of S could ever take. If S is not empty at the end, the
        first foundation of S to receive a card would need a copy freed by a foundation of S
        that received one before: so none ever does, and the game is lost.
        """
        left = self.stock_sets[self.pos]
        stuck = {f for f in range(len(self.seqs))
                 if self.height[f] < len(self.seqs[f]) and self.need(f) not in left}
        if not stuck:
            return False
        while True:
            # Ranks that only foundations of S could ever take.
            free = {z for g in range(len(self.seqs)) if g not in stuck
                    for z in self.seqs[g][self.height[g]:]}

            def only_stuck(rank: int, free: set[int] = free) -> bool:
                return rank not in free

            removed = False
            for f in list(stuck):
                x = self.need(f)
                for pile in self.waste:
                    for k, card in enumerate(pile):
                        if card == x and not any(only_stuck(z) for z in pile[k + 1:]):
                            stuck.discard(f)
                            removed = True
                            break
                    if f not in stuck:
                        break
                if removed:
                    break
            if not stuck:
                return False
            if not removed:
                return True

    def need(self, f: int) -> int:
        """The rank foundation ``f`` takes next, or 0 when it is complete."""
        seq, h = self.seqs[f], self.height[f]
        return seq[h] if h < len(seq) else 0

    def won(self) -> bool:
        return all(h == len(s) for h, s in zip(self.height, self.seqs, strict=True))

    def key(self) -> bytes:
        return bytes([self.pos]) + bytes(self.height) + b"\0".join(sorted(self.waste))

    def do(self, m: IMove) -> None:
        src, kind, idx = m
        if src == STOCK:
            card = self.stock[self.pos]
            self.pos += 1
        else:
            pile = self.waste[src]
            card = pile[-1]
            self.waste[src] = pile[:-1]
        if kind == 0:
            self.height[idx] += 1
        else:
            self.waste[idx] = self.waste[idx] + bytes([card])

    def undo(self, m: IMove) -> None:
        src, kind, idx = m
        if kind == 0:
            self.height[idx] -= 1
            card = self.seqs[idx][self.height[idx]]
        else:
            pile = self.waste[idx]
            card = pile[-1]
            self.waste[idx] = pile[:-1]
        if src == STOCK:
            self.pos -= 1
        else:
            self.waste[src] = self.waste[src] + bytes([card])

    def distance(self, rank: int) -> float:
        """How far off ``rank`` is, in cards the foundations must take first (99: no
        foundation wants it): the mean over the foundations still wanting it for the fair
        player (it won 3.5 times more deals than the minimum), the minimum for the
        thoughtful search (which solved more deals with it)."""
        total = 0
        count = 0
        best = 99
        for f, seq in enumerate(self.seqs):
            h = self.height[f]
            for k in range(h, len(seq)):
                if seq[k] == rank:
                    total += k - h
                    count += 1
                    best = min(best, k - h)
                    break
        if not self.mean:
            return float(best)
        return total / count if count else 99.0

    def home_moves(self, src: int, card: int) -> list[IMove]:
        return [(src, 0, f) for f in range(len(self.seqs)) if self.need(f) == card]

    def moves(self) -> list[IMove]:
        """Every move, best first: the fair player's choice, then waste to foundations, stock
        to foundations, stock to waste. (So the search's first line is the fair player's
        game: whatever the fair player wins, the thoughtful search solves at once.)"""
        out: list[IMove] = []
        for w, pile in enumerate(self.waste):
            if pile:
                out += self.home_moves(w, pile[-1])
        if self.pos < len(self.stock):
            card = self.stock[self.pos]
            out += self.home_moves(STOCK, card)
            out += [(STOCK, 1, w) for w in self.waste_order(card)]
        first = self.fair_choice()
        if first is not None and out and out[0] != first:
            out.remove(first)
            out.insert(0, first)
        return out

    def fair_choice(self) -> IMove | None:
        """The fair player's move; reads the stock only at ``pos`` (the turned card)."""
        for w, pile in enumerate(self.waste):
            if pile:
                homes = self.home_moves(w, pile[-1])
                if homes:
                    return _best_home(self, homes)  # a waste top home frees a pile
        if self.pos >= len(self.stock):
            return None
        card = self.stock[self.pos]
        homes = self.home_moves(STOCK, card)
        if homes:
            return _best_home(self, homes)
        return (STOCK, 1, self.waste_order(card)[0])

    def waste_order(self, card: int) -> list[int]:
        """Waste piles for ``card``, best first, one of each set of equal piles."""
        d = self.distance(card)
        scored: list[tuple[float, int]] = []
        seen: set[bytes] = set()
        for w, pile in enumerate(self.waste):
            if pile in seen:
                continue  # equal piles (e.g. two empty ones) give equal positions
            seen.add(pile)
            if not pile:
                score = EMPTY_PILE_COST if self.mean else 50.0
            else:
                dt = self.distance(pile[-1])
                score = dt - d if d <= dt else 100 + d - dt
            scored.append((score, w))
        if self.noise:
            scored = [(score + self.noise * self.rng.random(), w) for score, w in scored]
        scored.sort()
        return [w for _, w in scored]


def _to_move(m: IMove) -> Move:
    src, kind, idx = m
    source = Place("s") if src == STOCK else Place("w", src)
    return Move(source, Place("f" if kind == 0 else "w", idx))


class _CalcSearch:
    """A resumable depth-first search (see `search_calculation`)."""

    def __init__(self, state: CalcState, clock: Clock, noise: float = 0.0,
                 seed: int = 0) -> None:
        self.calc = _Calc(state)
        self.calc.prepare_search()
        self.calc.noise = noise
        self.calc.rng = random.Random(seed)
        self.clock = clock
        self.tt: set[bytes] = {self.calc.key()}
        self.stack: list[Iterator[IMove]] = [iter(self.calc.moves())]
        self.path: list[IMove] = []
        self.bytes_per_state = sys.getsizeof(self.calc.key()) + ENTRY_OVERHEAD

    def steps(self, limit: float) -> str | None:
        """Search ``limit`` more positions: ``solved`` (the line is in ``path``),
        ``unsolvable``, or None when paused. Raises `OutOfBudget`."""
        calc, clock, tt, stack, path = self.calc, self.clock, self.tt, self.stack, self.path
        stop = clock.nodes + limit
        while stack:
            m = next(stack[-1], None)
            if m is None:
                stack.pop()
                if path:
                    calc.undo(path.pop())
                continue
            calc.do(m)
            if calc.won():
                path.append(m)
                return "solved"
            k = calc.key()
            if k in tt:
                calc.undo(m)
                continue
            tt.add(k)
            clock.nodes += 1
            if clock.nodes % clock.every == 0:
                clock.check(len(tt) + clock.extra_states, self.bytes_per_state)
            if calc.dead():
                calc.undo(m)
                continue
            path.append(m)
            stack.append(iter(calc.moves()))
            if clock.nodes >= stop:
                return None
        return "unsolvable"


def search_calculation(state: CalcState, budget: Budget) -> Result:
    """Thoughtful solver: the whole stock order is known.

    Like the packer search, the exhaustive depth-first search runs in slices interleaved
    with probes that order the waste piles with random noise (only the exhaustive search may
    answer ``unsolvable``)."""
    clock = Clock(budget)
    main = _CalcSearch(state, clock)
    if main.calc.won():
        return Result("solved", (), 0, clock.elapsed(), 1)
    if main.calc.dead():
        return Result("unsolvable", (), 0, clock.elapsed(), 1, "dead end (rule C1) at the start")
    limit = 2000
    seed = 0
    try:
        while True:
            verdict = main.steps(limit)
            winner = main
            if verdict is None:
                seed += 1
                probe = _CalcSearch(state, clock, PROBE_NOISE, seed)
                clock.extra_states = len(main.tt)
                try:
                    verdict = "solved" if probe.steps(limit) == "solved" else None
                finally:
                    clock.extra_states = 0
                winner = probe
                limit = int(limit * 1.5)
            if verdict == "unsolvable":
                return Result("unsolvable", (), clock.nodes, clock.elapsed(), len(main.tt),
                              "search space exhausted")
            if verdict == "solved":
                moves = tuple(_to_move(x) for x in winner.path)
                return checked_result(state, "solved", moves, clock.nodes, clock.elapsed(),
                                      len(main.tt))
    except OutOfBudget as e:
        return Result("unknown", (), clock.nodes, clock.elapsed(), len(main.tt), str(e))


PROBE_NOISE = 20.0


# ---- the fair player ----------------------------------------------------------------------


def fair_move(state: CalcState) -> Move | None:
    """The fair player's next move: decided from the turned card, the waste piles and the
    foundations only (never from the cards still in the stock)."""
    choice = _Calc(state, fair=True).fair_choice()
    return None if choice is None else _to_move(choice)


def _best_home(calc: _Calc, homes: list[IMove]) -> IMove:
    """Of the foundations a card may go to, the one whose following card is most at hand."""
    def score(m: IMove) -> tuple[int, int]:
        f = m[2]
        seq, h = calc.seqs[f], calc.height[f]
        nxt = seq[h + 1] if h + 1 < len(seq) else 0
        on_top = any(p and p[-1] == nxt for p in calc.waste)
        return (0 if on_top else 1, h)
    return min(homes, key=score)


def fair_play(state: CalcState, budget: Budget = DEFAULT_BUDGET) -> Result:
    """Play the game out with the fair player; ``solved`` if it wins, else ``unknown`` (a
    loss of the fair player proves nothing about the deal). Moves replay through the engine."""
    clock = Clock(budget)
    s = state
    moves: list[Move] = []
    while not s.won:
        m = fair_move(s)
        if m is None:
            return Result("unknown", tuple(moves), clock.nodes, clock.elapsed(), 0,
                          "the fair player lost")
        s = s.apply(m)
        moves.append(m)
        clock.nodes += 1
    return Result("solved", tuple(moves), clock.nodes, clock.elapsed(), 0, "the fair player won")
