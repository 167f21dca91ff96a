"""The Calculation family: a thoughtful solver (the stock order known).

Suits never matter in these games (foundations are built by rank), so the search works on
ranks only: a position is the number of stock cards turned, the height of each foundation and the
waste piles as ``bytes`` of ranks. The thoughtful search is a depth-first search with a
transposition table (waste piles sorted in the key: they are interchangeable), forced moves
home (rule A1), bans that keep it from searching a move home put off to later (rule B1), a
dead-end proof (rule T1) and the unwinding game (rule R1, `unwind.py`: the stock's cards
free, which proves positions lost and decides them once the stock is empty), all argued in
docs/solver.md.

The fair player, who does not know the stock order, is `solver/fair.py`.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import replace

from ..calculation import CalcState
from ..moves import Move, Place
from ..variants import Variant
from .clock import Clock
from .common import (
    Budget,
    OutOfBudget,
    Result,
    checked_result,
    key_bytes,
    now,
    table_bytes,
)
from .unwind import NEVER, Unwind, blocked

STOCK = -1  # internal move source: the turned stock card
#: The rule of thumb: what putting a card on an empty waste pile costs, against the gap (in
#: cards) between it and the top card it would cover; covering a card wanted sooner costs 100
#: and more.
EMPTY_PILE_COST = 3.0
ROLLOUT_LEVELS = 3  # nested rollouts of levels 1, 2, 3 in turn, while the budget lasts
ROLLOUT_SHARE = 20  # rollout positions per search position in each slice (docs/solver.md)
#: Positions the move search may spend before the scheduling model takes over, by the number
#: of decks. With one deck the model needs a second or two at most. With two it needs seconds to
#: tens of seconds, while the move search wins most of the deals still open at 3 million within
#: 7 million, sooner (docs/benchmarks.md, *The move search's share*).
MOVE_SEARCH_NODES = {1: 200_000, 2: 7_000_000}
#: New positions of the unwinding game (rule R1) one position of the search may ask for.
UNWIND_CAP = 200

IMove = tuple[int, int, int]  # (source: STOCK or waste pile, kind: 0 foundation / 1 waste, index)


class _Rules:
    """What a variant's foundations take: ``seqs[f]`` the ranks in order, ``index[f][r]`` the
    place of rank ``r`` in it (NEVER if foundation ``f`` never takes ``r``)."""

    def __init__(self, variant: Variant, nf: int) -> None:
        self.seqs = [variant.sequence(f) for f in range(nf)]
        self.index = [[NEVER] * 14 for _ in range(nf)]
        for f, seq in enumerate(self.seqs):
            for k, r in enumerate(seq):
                self.index[f][r] = k


class _Calc:
    """A position of the thoughtful search, played and taken back in place."""

    def __init__(self, state: CalcState) -> None:
        nf = len(state.foundations)
        rules = _Rules(state.variant, nf)
        self.seqs, self.index = rules.seqs, rules.index
        self.nf = nf
        self.height = [len(p) for p in state.foundations]
        self.need = [self._need(f) for f in range(nf)]
        self.waste = [bytes(c.rank for c in pile) for pile in state.waste]
        self.stock = bytes(c.rank for c in state.stock)
        self.pos = 0
        # ban[w]: foundations the top card of waste pile w may never go to (rule B1); sban:
        # the same for the turned card. A ban dies with the card's place (covered or gone).
        self.ban = [0] * len(self.waste)
        self.sban = 0
        self.left: list[bytes] = []  # see `count_stock`
        self.done = sum(len(s) for s in self.seqs)
        self.dist_cache: dict[bytes, list[float]] = {}

    def count_stock(self) -> None:
        """``left[i][r]``: copies of rank ``r`` in the stock once ``i`` cards are turned (for
        `dead`; only the thoughtful search, which knows the stock, calls it)."""
        counts = [0] * 14
        self.left = [bytes(counts)]
        for card in reversed(self.stock):
            counts[card] += 1
            self.left.append(bytes(counts))
        self.left.reverse()

    def _need(self, f: int) -> int:
        seq, h = self.seqs[f], self.height[f]
        return seq[h] if h < len(seq) else 0

    def won(self) -> bool:
        return sum(self.height) == self.done

    def wanted_elsewhere(self, rank: int, f: int) -> bool:
        """True if a foundation other than ``f`` still takes ``rank``."""
        height = self.height
        return any(ix[rank] >= height[g] and ix[rank] < NEVER
                   for g, ix in enumerate(self.index) if g != f)

    def snapshot(self) -> tuple[list[bytes], list[int], list[int], int, list[int], int]:
        return (self.waste[:], self.height[:], self.need[:], self.pos, self.ban[:], self.sban)

    def restore(self, snap: tuple[list[bytes], list[int], list[int], int, list[int], int]
                ) -> None:
        waste, height, need, self.pos, ban, self.sban = snap
        self.waste, self.height, self.need, self.ban = waste[:], height[:], need[:], ban[:]

    def play(self, m: IMove) -> None:
        """One move; bans follow the rules of B1 (a ban on ``f`` dies when ``f`` moves on)."""
        src, kind, idx = m
        if src == STOCK:
            card = self.stock[self.pos]
            self.pos += 1
            carried = self.sban
            self.sban = 0
        else:
            pile = self.waste[src]
            card = pile[-1]
            self.waste[src] = pile[:-1]
            self.ban[src] = 0
            carried = 0
        if kind == 0:
            self.height[idx] += 1
            self.need[idx] = self._need(idx)
            if self.sban or any(self.ban):
                bit = ~(1 << idx)
                self.ban = [b & bit for b in self.ban]
                self.sban &= bit
        else:
            self.waste[idx] += bytes([card])
            self.ban[idx] = carried

    def forced(self) -> list[IMove] | None:
        """Play every move home that rule A1 forces; the moves, or None if a forced card is
        banned from its only foundation (then the position is lost)."""
        out: list[IMove] = []
        again = True
        while again:
            again = False
            for src in [STOCK, *range(len(self.waste))]:
                if src == STOCK:
                    if self.pos >= len(self.stock):
                        continue
                    card, ban = self.stock[self.pos], self.sban
                else:
                    if not self.waste[src]:
                        continue
                    card, ban = self.waste[src][-1], self.ban[src]
                for f in range(self.nf):
                    if self.need[f] == card and not self.wanted_elsewhere(card, f):
                        if ban >> f & 1:
                            return None
                        m = (src, 0, f)
                        self.play(m)
                        out.append(m)
                        again = True
                        break
        return out

    def key(self) -> bytes:
        piles = sorted(bytes([len(p), b]) + p for p, b in zip(self.waste, self.ban, strict=True))
        return bytes([self.pos, self.sban, *self.height]) + b"".join(piles)

    def dead(self) -> bool:
        """True if no winning line remains (rule T1, `unwind.blocked`)."""
        return blocked(self.seqs, self.index, self.height, self.waste, self.left[self.pos],
                       self.ban)

    def wanting(self) -> tuple[list[int], list[int]]:
        """``total[r]``: the cards the foundations still wanting rank ``r`` must take before
        it, summed over them; ``count[r]``: how many foundations want it (see `distances`)."""
        total = [0] * 14
        count = [0] * 14
        height = self.height
        for f in range(self.nf):
            seq, h = self.seqs[f], height[f]
            for k in range(h, len(seq)):
                total[seq[k]] += k - h
                count[seq[k]] += 1
        return total, count

    def distances(self) -> list[float]:
        """How far off each rank is (`_distance`). Cached by foundation heights."""
        key = bytes(self.height)
        got = self.dist_cache.get(key)
        if got is None:
            total, count = self.wanting()
            got = [_distance(total[r], count[r]) for r in range(14)]
            self.dist_cache[key] = got
        return got

    def moves(self) -> list[IMove]:
        """Every move worth trying, best first: waste tops home, the turned card home, the
        turned card onto a waste pile (the piles ordered as the fair player orders them, one
        of each set of equal piles)."""
        out: list[IMove] = []
        seen: set[tuple[bytes, int]] = set()
        for w, pile in enumerate(self.waste):
            if pile and (pile, self.ban[w]) not in seen:
                seen.add((pile, self.ban[w]))
                out += [(w, 0, f) for f in range(self.nf)
                        if self.need[f] == pile[-1] and not self.ban[w] >> f & 1]
        if self.pos < len(self.stock):
            card = self.stock[self.pos]
            out += [(STOCK, 0, f) for f in range(self.nf)
                    if self.need[f] == card and not self.sban >> f & 1]
            out += [(STOCK, 1, w) for w in self.waste_order(card)]
        return out

    def greedy_run(self, path: list[IMove] | None) -> None:
        """Play the rule of thumb to the end, in place (recording the moves in ``path`` if
        given): a waste top home, else the turned card home, else the turned card onto the
        first pile of `waste_order`. The fair player's rollouts spend nearly all their time
        here, so it works on local arrays: the piles as bytearrays, ``wanted[r]`` (how many
        foundations want rank ``r`` now) and the sums of `wanting`, updated as cards go home.
        Only the exhaustive search sets bans, and it never rolls out: bans are not read."""
        stock, pos, nf, seqs = self.stock, self.pos, self.nf, self.seqs
        height, need = self.height, self.need
        piles = [bytearray(pile) for pile in self.waste]
        nw = len(piles)
        total, count = self.wanting()
        wanted = [0] * 14
        for f in range(nf):
            wanted[need[f]] += 1
        scan = True  # False after a card went onto a pile: no top can be wanted then
        while True:
            src = STOCK
            card = 0
            if scan:
                for w in range(nw):
                    pile = piles[w]
                    if pile and wanted[pile[-1]]:
                        src = w
                        card = pile.pop()
                        break
            if src == STOCK:
                if pos >= len(stock):
                    break
                card = stock[pos]
                pos += 1
                if not wanted[card]:
                    best = self._pile_for(card, piles, total, count)
                    piles[best].append(card)
                    if path is not None:
                        path.append((STOCK, 1, best))
                    scan = False
                    continue
            scan = True
            # ``card`` goes home, to the first foundation wanting it
            f = 0
            while need[f] != card:
                f += 1
            seq = seqs[f]
            h = height[f]
            count[card] -= 1
            for k in range(h + 1, len(seq)):
                total[seq[k]] -= 1
            h += 1
            height[f] = h
            nxt = seq[h] if h < len(seq) else 0
            need[f] = nxt
            wanted[card] -= 1
            wanted[nxt] += 1
            if path is not None:
                path.append((src, 0, f))
        self.pos = pos
        self.waste = [bytes(pile) for pile in piles]

    def _pile_for(self, card: int, piles: list[bytearray], total: list[int],
                  count: list[int]) -> int:
        """The first pile of `waste_order` for ``card`` (the lowest score, the first of equal
        ones), from the sums of `wanting`."""
        d = _distance(total[card], count[card])
        best = 0
        best_score = 0.0
        for w in range(len(piles)):
            pile = piles[w]
            if pile:
                top = pile[-1]
                score = _pile_score(d, _distance(total[top], count[top]))
            else:
                score = EMPTY_PILE_COST
            if w == 0 or score < best_score:
                best, best_score = w, score
        return best

    def waste_order(self, card: int) -> list[int]:
        """Waste piles for ``card``, best first, one of each set of equal piles: the pile whose
        top is wanted soonest after ``card``, an empty pile as if its gap were
        `EMPTY_PILE_COST`, a pile whose top is wanted before ``card`` last."""
        dist = self.distances()
        d = dist[card]
        scored: list[tuple[float, int]] = []
        seen: set[tuple[bytes, int]] = set()
        for w, pile in enumerate(self.waste):
            if (pile, self.ban[w]) not in seen:  # equal piles give equal positions
                seen.add((pile, self.ban[w]))
                scored.append((_pile_score(d, dist[pile[-1]]) if pile else EMPTY_PILE_COST, w))
        scored.sort()
        return [w for _, w in scored]


def _distance(total: int, count: int) -> float:
    """How far off a rank is: the mean, over the foundations still wanting it, of the cards
    each must take first (99 if none wants it)."""
    return total / count if count else 99.0


def _pile_score(d: float, dt: float) -> float:
    """The score of putting a card ``d`` off onto a top card ``dt`` off, lower better: the gap,
    or 100 and more when the top is wanted first. Floats, as first measured: exact rationals
    would break some ties between a gap of 3 and an empty pile the other way."""
    return dt - d if d <= dt else 100 + d - dt


def _to_move(m: IMove) -> Move:
    src, kind, idx = m
    source = Place("s") if src == STOCK else Place("w", src)
    return Move(source, Place("f" if kind == 0 else "w", idx))


Snapshot = tuple[list[bytes], list[int], list[int], int, list[int], int]


class _Frame:
    """One position on the search path: its moves, the next to try and how to get back."""

    __slots__ = ("moves", "next", "snap", "played")

    def __init__(self, moves: list[IMove], snap: Snapshot, played: list[IMove]) -> None:
        self.moves = moves
        self.next = 0
        self.snap = snap
        self.played = played  # the moves (chosen and forced) that led here


class _CalcSearch:
    """The exhaustive depth-first search, resumable (see `search_calculation`)."""

    def __init__(self, state: CalcState, clock: Clock) -> None:
        self.calc = calc = _Calc(state)
        calc.count_stock()
        self.clock = clock
        self.unwind = Unwind(calc.seqs, calc.index)
        forced = calc.forced()
        self.stack = [_Frame(calc.moves(), calc.snapshot(), forced or [])]
        start = "lost" if forced is None or calc.dead() else self.unwound()
        self.start_lost = start == "lost"
        self.start_won = start == "solved" or calc.won()
        self.tt: set[bytes] = {calc.key()}
        # The longest key: every card of the stock in the waste piles.
        self.key_size = key_bytes(bytes(len(calc.key()) + len(calc.stock) - calc.pos))

    def line(self) -> list[IMove]:
        return [m for frame in self.stack for m in frame.played]

    def unwound(self) -> str:
        """The unwinding game of the position (rule R1): ``lost``, ``won`` or ``unknown``.
        With the stock empty it is the real game: a win then ends the line of the top frame
        with its moves."""
        calc = self.calc
        before = self.unwind.nodes
        # Within a node budget it may use all but one of the nodes left (its last question
        # overruns its cap by one), so that the search's next node is the budget's last.
        limit = self.clock.budget.max_nodes
        cap = UNWIND_CAP if limit is None else min(UNWIND_CAP, limit - self.clock.nodes - 2)
        if cap < 0:
            return "unknown"
        verdict = self.unwind.verdict(calc.height, calc.waste, calc.left[calc.pos], cap)
        self.clock.nodes += self.unwind.nodes - before
        if verdict == "won" and calc.pos == len(calc.stock):
            self.stack[-1].played += [(w, 0, f) for w, f in self.unwind.line]
            return "solved"
        return verdict

    def steps(self, limit: float) -> str | None:
        """Search ``limit`` more positions: ``solved`` (the line is `line`), ``unsolvable``,
        or None when paused. Raises `OutOfBudget`."""
        calc, clock, tt, stack = self.calc, self.clock, self.tt, self.stack
        if self.start_lost:
            return "unsolvable"
        if self.start_won:
            return "solved"
        stop = clock.nodes + limit
        while stack:
            frame = stack[-1]
            if frame.next > 0:
                # The previous child failed: back to this position, and if that child was a
                # move home, ban its card from that foundation for the siblings (rule B1).
                calc.restore(frame.snap)
                src, kind, idx = frame.moves[frame.next - 1]
                if kind == 0:
                    if src == STOCK:
                        calc.sban |= 1 << idx
                    else:
                        mine = (calc.waste[src], calc.ban[src])
                        for w in range(len(calc.waste)):
                            if (calc.waste[w], calc.ban[w]) == mine:
                                calc.ban[w] |= 1 << idx
                    frame.snap = calc.snapshot()
            if frame.next >= len(frame.moves):
                stack.pop()
                continue
            m = frame.moves[frame.next]
            frame.next += 1
            calc.play(m)
            forced = calc.forced()
            if forced is None:
                continue
            if calc.won():
                stack.append(_Frame([], calc.snapshot(), [m, *forced]))
                return "solved"
            k = calc.key()
            if k in tt:
                continue
            tt.add(k)
            clock.nodes += 1
            if clock.nodes >= clock.due:
                clock.check(table_bytes(tt, self.key_size, clock.every)
                            + self.unwind.memo_bytes(self.key_size,
                                                     clock.every * UNWIND_CAP))
            if calc.dead():
                continue
            stack.append(_Frame(calc.moves(), calc.snapshot(), [m, *forced]))
            unwound = self.unwound()
            if unwound == "solved":
                return "solved"
            if unwound == "lost":
                stack.pop()
                continue
            if clock.nodes >= stop:
                return None
        return "unsolvable"


class _Found(Exception):
    """A rollout won: ``line`` is the whole winning line from the start."""

    def __init__(self, line: list[IMove]) -> None:
        super().__init__()
        self.line = line


class _Rollouts:
    """Nested rollouts (Yan et al.'s method for thoughtful Klondike, with Cazenave's memory of
    the best line): the level-0 policy is the fair player's rule of thumb (`greedy_run`); the
    level-n policy tries every move, follows each with the level-(n-1) policy to the end, and
    keeps the line that took most cards home so far, playing its next move. Any follow-up that
    wins is a solution. Each position played counts as a node. The packer solver's
    `nested` is the same method for the games whose moves can return to a position."""

    def __init__(self, state: CalcState, clock: Clock) -> None:
        self.calc = _Calc(state)
        self.clock = clock
        self.path: list[IMove] = []

    def play(self, m: IMove) -> None:
        self.calc.play(m)
        self.path.append(m)
        self.count(1)

    def count(self, n: int) -> None:
        """Count ``n`` positions played, checking the budget where ``clock.due`` falls just as
        playing them one by one would."""
        clock = self.clock
        end = clock.nodes + n
        while clock.due <= end:
            clock.nodes = clock.due
            clock.check(0)  # they hold no table; the exhaustive search's is `extra_bytes`
        clock.nodes = end

    def policy(self, level: int) -> Generator[None, None, tuple[int, list[IMove]]]:
        """Play the level-``level`` policy to the end (yielding now and then so that the
        exhaustive search can run in between); the cards home at the end and the moves
        played. Raises `_Found` on a win."""
        calc, depth = self.calc, len(self.path)
        best: list[IMove] = []
        best_score = -1
        while not calc.won():
            if level == 0:
                here = len(self.path)
                calc.greedy_run(self.path)
                self.count(len(self.path) - here)
                break
            options = calc.moves()
            if not options:
                break
            if len(options) > 1 or not best:
                for m in options:
                    snap, here = calc.snapshot(), len(self.path)
                    self.play(m)
                    score, line = yield from self.policy(level - 1)
                    calc.restore(snap)
                    del self.path[here:]
                    if score > best_score:
                        best, best_score = [m, *line], score
                    yield None
            self.play(best[0])
            best = best[1:]
        if calc.won():
            raise _Found(self.path[:])
        return sum(calc.height), self.path[depth:]

    def run(self, levels: int) -> Generator[None, None, None]:
        """The policies of levels 1 to ``levels`` in turn, each from the start."""
        start = self.calc.snapshot()
        for level in range(1, levels + 1):
            yield from self.policy(level)
            self.calc.restore(start)
            self.path.clear()


def _roll_until(rollouts: Generator[None, None, None], clock: Clock,
                stop: int) -> list[IMove] | None:
    """Run the rollouts until the clock reaches ``stop``; the winning line if one is found."""
    try:
        while clock.nodes < stop and next(rollouts, "done") is None:
            pass
    except _Found as found:
        return found.line
    return None


def search_calculation(state: CalcState, budget: Budget) -> Result:
    """Thoughtful solver: the whole stock order is known.

    The move search (`search_moves`) first, for at most `MOVE_SEARCH_NODES` positions: it
    decides most deals in milliseconds. What it leaves goes to the exact scheduling model
    (`schedule_model.py`) with the rest of the budget: its answer is solved or unsolvable
    unless the budget runs out."""
    share = MOVE_SEARCH_NODES[state.variant.decks]
    first = search_moves(state, replace(budget, max_nodes=min(share, budget.max_nodes or share)))
    if first.verdict != "unknown":
        return first
    seconds = None if budget.max_seconds is None else budget.max_seconds - first.seconds
    nodes = None if budget.max_nodes is None else budget.max_nodes - first.nodes
    if (seconds is not None and seconds <= 0) or (nodes is not None and nodes <= 0):
        return first
    from .schedule_model import decide  # CP-SAT takes 0.6 s to import: only when needed

    start = now()
    answer = decide(state, seconds, nodes)
    spent = first.seconds + now() - start
    if answer.verdict == "unknown":
        return Result("unknown", (), first.nodes + answer.nodes, spent, first.peak_states,
                      "budget spent by the scheduling model")
    reason = "" if answer.verdict == "solved" else "the scheduling model is infeasible"
    return checked_result(state, answer.verdict, answer.moves, first.nodes + answer.nodes,
                          spent, first.peak_states, reason)


def search_moves(state: CalcState, budget: Budget) -> Result:
    """The move search alone.

    The exhaustive depth-first search (which may answer ``unsolvable``) runs in
    slices interleaved with nested rollouts (`_Rollouts`), which find most solutions: a
    rollout position costs
    about a twentieth of a search position, so the rollouts get `ROLLOUT_SHARE` times the
    nodes of each slice."""
    clock = Clock(budget)
    main = _CalcSearch(state, clock)
    rollouts = _Rollouts(state, clock).run(ROLLOUT_LEVELS)
    limit = 1000
    line: list[IMove] | None = None
    try:
        while True:
            verdict = main.steps(limit)
            if verdict == "unsolvable":
                reason = ("dead end at the start" if main.start_lost
                          else "search space exhausted")
                return Result("unsolvable", (), clock.nodes, clock.elapsed(), len(main.tt),
                              reason)
            if verdict == "solved":
                line = main.line()
                break
            stop = clock.nodes + ROLLOUT_SHARE * limit
            clock.extra_bytes = table_bytes(main.tt, main.key_size, 0)
            try:
                line = _roll_until(rollouts, clock, stop)
            finally:
                clock.extra_bytes = 0
            if line is not None:
                break
            limit = int(limit * 1.5)
    except OutOfBudget as e:
        return Result("unknown", (), clock.nodes, clock.elapsed(), len(main.tt), str(e))
    return checked_result(state, "solved", tuple(_to_move(x) for x in line), clock.nodes,
                          clock.elapsed(), len(main.tt))
