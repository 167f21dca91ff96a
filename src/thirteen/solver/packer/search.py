"""The exhaustive depth-first search of a packer position, the only search that may answer
``unsolvable``: a transposition table of keys, the safe moves home played automatically, the
dead-end proofs after each move (docs/solver.md, this module's section). It runs in slices
(`_Search.steps`) so that the portfolio (`schedule`) can interleave it with probes.
"""

from __future__ import annotations

from librt.vecs import append, pop, vec
from mypy_extensions import i64

from ...packer import PackerState
from ..common import Budget, Verdict, key_bytes, table_bytes
from .deadends import DeadEnds
from .encoding import NOWHERE, IMove, unpack
from .tuning import STUCK_AFTER


class _Search(DeadEnds):
    """One search over one position: the exhaustive search, or a probe (``probe``: it only
    looks for a line, so it keeps the safe moves home and rule D1 with worry-back moves, and
    skips rule D3)."""

    def __init__(self, state: PackerState, budget: Budget, probe: bool = False) -> None:
        super().__init__(state, budget, probe)
        self.probe = probe
        self.prefix: list[IMove] = []
        # The depth-first search: each level's moves (`entry` ints, best first) and the index
        # of the next to try, and where each level's records start on the trail.
        self.stack: list[vec[i64]] = []
        self.pos = vec[i64]()
        self.marks = vec[i64]()
        self.dropped: i64 = 0  # the positions its table held when it was dropped (`schedule`)

    def finder(self) -> str:
        """Which search found a line, for `Result.reason`: what decides hard deals."""
        if not self.probe:
            return "found by the exhaustive search"
        return "found by an unguided probe" if self.weight == 0 else "found by a probe"

    def start(self) -> tuple[Verdict, list[IMove], str] | None:
        """Set up the depth-first search; a verdict if the root already decides it."""
        self.trail = vec[i64]()
        if self.auto_on:
            self.auto()
        self.prefix = [unpack(r) for r in self.trail]
        if self.won():
            return "solved", self.prefix, "the safe moves home win from the start"
        self.tt.add(self.key())
        if self.dead_check and self.dead():
            return "unsolvable", [], "dead end (rule D1) at the start"
        if self.stuck_on:
            cut = self.stuck()
            self.clock.nodes += self.stuck_nodes
            if cut:
                return "unsolvable", [], "dead end (rule D3) at the start"
        self.key_size = key_bytes(self.key())  # keys of sorted columns only shrink
        self.stack = [self.moves()]
        self.pos = vec[i64]([0])
        self.trail = vec[i64]()
        self.marks = vec[i64]()
        return None

    def steps(self, limit: i64) -> tuple[Verdict, list[IMove], str] | None:
        """Go on with the depth-first search for ``limit`` more positions; a verdict, or None
        when paused. Raises `OutOfBudget`."""
        tt = self.tt
        clock = self.clock
        stack = self.stack
        every: i64 = clock.every
        due: i64 = clock.due
        dead_check = self.dead_check
        late_cuts = self.stuck_on or self.counted is not None  # rules D3 and D4
        nodes: i64 = clock.nodes  # a local, written back before `check` and on leaving
        stop = nodes + limit
        while stack:
            level = stack[-1]
            top = len(self.pos) - 1
            i = self.pos[top]
            if i == len(level):
                self._back_up()
                continue
            self.pos[top] = i + 1
            m = level[i]
            src = (m >> 8 & 31) - 4
            dst = (m >> 4 & 15) - 2
            k = self.peek(src, dst)
            if k and k in tt:
                continue
            mark = len(self.trail)
            self.trail = append(self.trail, self.do(m))
            if not k:
                k = self._after(src, dst, mark)
                if not k:
                    clock.nodes = nodes
                    return "solved", self.prefix + [unpack(r) for r in self.trail], self.finder()
                if k in tt:
                    self.take_back(mark)
                    continue
            tt.add(k)
            nodes += 1
            if nodes >= due:
                clock.nodes = nodes
                clock.check(table_bytes(tt, self.key_size, every) + self.stuck_bytes)
                due = clock.due
            if dead_check and self.dead():
                self.take_back(mark)
                continue
            if late_cuts:
                clock.nodes = nodes
                cut = self._late_cut(m, mark)
                nodes, due = clock.nodes, clock.due
                if cut:
                    self.take_back(mark)
                    continue
            self._descend(mark)
            if nodes >= stop:
                clock.nodes = nodes
                return None
        clock.nodes = nodes
        return "unsolvable", [], "search space exhausted"

    def _after(self, src: i64, dst: i64, mark: i64) -> bytes:
        """The safe moves home after the move from column ``src`` to ``dst`` (played from
        trail length ``mark``), then the `key` of the position; empty if it is won. Before the
        move no safe move was left: only a move home, or the source's new top card, can
        allow one, and only a move home can win."""
        cols = self.cols
        if self.auto_on and (src < 0 or dst < 0 or (
                len(cols[src]) and self.safe_home(cols[src][-1]) != NOWHERE)):
            self.auto()
        if (dst < 0 or len(self.trail) > mark + 1) and self.won():
            return b""
        return self.key()

    def _descend(self, mark: i64) -> None:
        """Go one level down, into the position just entered (its records on the trail from
        ``mark`` on), its moves to try."""
        self.marks = append(self.marks, mark)
        self.stack.append(self.moves())
        self.pos = append(self.pos, 0)

    def _back_up(self) -> None:
        """Leave a level whose every move was tried: take its move back."""
        self.stack.pop()
        self.pos, _ = pop(self.pos)
        if len(self.marks):
            self.marks, mark = pop(self.marks)
            self.take_back(mark)

    def _late_cut(self, m: i64, mark: i64) -> bool:
        """Whether rule D3 (late in the search) or D4 cuts the position after move ``m``
        (played from trail length ``mark``), asked only where the answer may differ from the
        parent's (`changed`): any other move can be undone, so the position reaches what its
        parent reaches, and asking would repeat the parent's answer (not cut, so not lost).
        Rule D3's positions are counted on the clock."""
        clock = self.clock
        late_d3 = self.stuck_on and clock.nodes >= STUCK_AFTER
        if not ((late_d3 or self.counted is not None) and self.changed(m, mark)):
            return False
        if late_d3:
            before = self.stuck_nodes
            cut = self.stuck()
            if self.stuck_nodes != before:
                clock.nodes += self.stuck_nodes - before
                clock.check(table_bytes(self.tt, self.key_size, clock.every) + self.stuck_bytes)
            if cut:
                return True
        return self.counted is not None and self.hopeless()
