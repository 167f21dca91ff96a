"""The frontier search (`Split`, docs/solver.md, *The frontier search*): every position a few
moves from the start searched in turn, with what is proved lost kept for all of them.
"""

from __future__ import annotations

from typing import Final

from librt.vecs import append, pop, vec
from mypy_extensions import i64

from ...packer import PackerState
from ..clock import Clock
from ..common import Budget, Verdict
from ..relaxed import Counted, fits
from .encoding import MOVE_MASK, IMove, Snapshot, unpack
from .hashes import Hashes
from .probes import replay
from .search import _Search
from .tuning import (
    SPLIT_FIRST_CAP,
    SPLIT_FRONTIER,
    SPLIT_GROWTH,
    SPLIT_INDEX_BYTES,
)

SPLIT_FOUND: Final = "found by the frontier search"  # `Result.reason` of its lines


class Split:
    """The frontier search: the positions a few moves from the start, each searched
    depth-first up to a cap in turn, the cap growing each round, with what is proved lost
    kept for all of them (docs/solver.md, *The frontier search*).

    Probes restart from the start and re-enter the same lost beginnings; here every
    beginning gets its turn, and a region proved lost is never searched again. A position is
    proved lost when its strongly connected component of the depth-first search closes
    without a win (Tarjan's algorithm: moves between columns can be undone, so positions lie
    on cycles), or when a dead-end rule cuts it. It only finds lines: what it proves lost
    stands as a set of hashes, which a collision could make wrong."""

    def __init__(self, state: PackerState, budget: Budget, clock: Clock) -> None:
        s = _Search(state, budget)
        s.clock = clock
        # rule D4's counted game with a memo of its own: what it asks would otherwise change
        # what the probes' capped questions answer, and so which probe finds a line
        s.counted = Counted(state, clock) if fits(state) else None
        s.start()
        self.search = s
        self.state = state
        self.budget = budget
        self.lost = Hashes()  # hashes of the keys of positions proved lost
        self.frontier: list[Snapshot] = []
        self.chains: list[list[int]] = []  # the moves from the start to each frontier position
        self.alive: list[int] = []  # the frontier positions to search this round, in order
        self.turn = 0  # the next of them
        # those not decided this round, each after the share of the positions its search
        # met that it proved lost (in thousandths): the next round takes the least first
        self.open: list[tuple[int, int]] = []
        self.cap: i64 = SPLIT_FIRST_CAP
        self.grown = False

    def done(self) -> bool:
        """Whether every frontier position is proved lost (or there is none)."""
        return self.grown and self.turn == len(self.alive) and not self.open

    def grow(self) -> tuple[Verdict, list[IMove], str] | None:
        """Lay out the frontier: breadth first, every position first met at a depth, until a
        depth holds at least `SPLIT_FRONTIER` positions (each counted on the clock)."""
        s = self.search
        if s.won():  # by the safe moves home alone
            return "solved", replay(self.state, self.budget, []), SPLIT_FOUND
        clock = s.clock
        seen = {s.key()}
        layer = [(s.snapshot(), list[int]())]
        while layer and len(layer) < SPLIT_FRONTIER:
            deeper: list[tuple[Snapshot, list[int]]] = []
            for snap, chain in layer:
                s.load(snap)
                for m in s.moves():
                    s.trail = append(s.trail, s.do(m))
                    s.auto()
                    if s.won():
                        return "solved", replay(self.state, self.budget,
                                                 chain + [m & MOVE_MASK]), SPLIT_FOUND
                    k = s.key()
                    if k not in seen:
                        seen.add(k)
                        clock.nodes += 1
                        deeper.append((s.snapshot(), chain + [m & MOVE_MASK]))
                    s.take_back(0)
            if len(deeper) == 0:
                break  # every line ends within this depth: the frontier is the last layer
            layer = deeper
        self.frontier = [snap for snap, _ in layer]
        self.chains = [chain for _, chain in layer]
        self.alive = list(range(len(layer)))
        return None

    def held(self) -> int:
        """The memory its tables hold (the lost hashes, rule D3's positions, its counted
        memo)."""
        s = self.search
        memo = s.counted.held() if s.counted is not None else 0
        return self.lost.held(s.clock.every) + s.stuck_bytes + memo

    def step(self) -> tuple[Verdict, list[IMove], str] | None:
        """Search the next frontier position of this round up to the round's cap; a line if
        one is found. Once every position of a round is decided or searched, the next round
        searches those left with `SPLIT_GROWTH` times the cap."""
        if not self.grown:
            self.grown = True
            return self.grow()
        if self.turn == len(self.alive):
            if not self.open:
                return None  # all proved lost: for the exhaustive search to say
            self.alive = [i for _, i in sorted(self.open)]
            self.open, self.turn = [], 0
            self.cap *= SPLIT_GROWTH
        i = self.alive[self.turn]
        self.turn += 1
        before, known = self.search.clock.nodes, len(self.lost)
        found = self._search(i)
        if found is not None:
            return found
        if not self.lost.has(hash(self.search.key())):
            met = self.search.clock.nodes - before
            self.open.append(((len(self.lost) - known) * 1000 // max(met, 1), i))
        return None

    def _enter(self, i: int) -> bytes:
        """Load frontier position ``i``: its key, or empty if it is known or proved lost."""
        s = self.search
        s.load(self.frontier[i])
        root = s.key()
        if self.lost.has(hash(root)):
            return b""
        before = s.stuck_nodes  # rule D3 here only: inside, it costs more than it cuts
        cut = s.dead() or (s.stuck_on and s.stuck()) or s.hopeless()
        s.clock.nodes += s.stuck_nodes - before
        if cut:
            self.lost.add(hash(root))
            return b""
        return root

    def _search(self, i: int) -> tuple[Verdict, list[IMove], str] | None:
        """Depth-first from frontier position ``i`` for at most `cap` new positions, adding
        each component that closes to `lost` (`_Tarjan`). Leaves the search at the frontier
        position unless it finds a line."""
        s = self.search
        clock = s.clock
        lost = self.lost
        root = self._enter(i)
        if not root:
            return None
        dfs = _Tarjan(root, s.moves())
        nodes: i64 = 0
        due: i64 = clock.due
        while dfs.stack:
            top = len(dfs.pos) - 1
            level = dfs.stack[top]
            j = dfs.pos[top]
            if j == len(level):
                s.take_back(dfs.leave(lost))
                continue
            dfs.pos[top] = j + 1
            m = level[j]
            mark = len(s.trail)
            k = s.peek((m >> 8 & 31) - 4, (m >> 4 & 15) - 2)  # read before playing
            played = not k
            if played:
                s.trail = append(s.trail, s.do(m))
                s.auto()
                if s.won():
                    line = replay(self.state, self.budget, self.chains[i])
                    return "solved", line + [unpack(r) for r in s.trail], SPLIT_FOUND
                k = s.key()
            seen = dfs.index.get(k, -2)
            if seen != -2 or lost.has(hash(k)):
                if seen >= 0 and seen < dfs.low[top]:
                    dfs.low[top] = seen
                s.take_back(mark)
                continue
            if not played:
                s.trail = append(s.trail, s.do(m))
            nodes += 1
            clock.nodes += 1
            if clock.nodes >= due:
                clock.check(self.held() + len(dfs.index) * SPLIT_INDEX_BYTES)
                due = clock.due
            if s.dead() or (s.changed(m, mark) and s.hopeless()):
                lost.add(hash(k))
                s.take_back(mark)
                continue
            dfs.enter(k, s.moves(), mark)
            if nodes >= self.cap:
                s.take_back(0)
                return None
        return None


class _Tarjan:
    """The levels of a frontier position's depth-first search, with Tarjan's bookkeeping:
    each position's index in the order entered, and for each level the least index reached
    from it (``low``); a position's index is -1 once its component closed."""

    def __init__(self, root: bytes, moves: vec[i64]) -> None:
        self.index: dict[bytes, i64] = {root: 0}
        self.tarjan = [root]  # the positions whose component is still open, in index order
        self.path = [root]  # the position of each level
        self.stack = [moves]  # each level's moves (`entry` ints, best first)
        self.pos = vec[i64]([0])  # and the next of them to try
        self.low = vec[i64]([0])
        self.marks = vec[i64]([0])  # where each level's records start on the trail

    def enter(self, k: bytes, moves: vec[i64], mark: i64) -> None:
        """Go one level down, into the new position ``k`` (played from trail length
        ``mark``), with its ``moves`` to try."""
        self.index[k] = len(self.index)
        self.tarjan.append(k)
        self.path.append(k)
        self.stack.append(moves)
        self.pos = append(self.pos, 0)
        self.low = append(self.low, len(self.index) - 1)
        self.marks = append(self.marks, mark)

    def leave(self, lost: Hashes) -> i64:
        """Leave the deepest level, its every move tried: if it is the first position of its
        component, the component closes, lost (`_close`); else what it reached counts for
        the level above. Returns the trail length to take back to."""
        top = len(self.pos) - 1
        self.stack.pop()
        self.pos, _ = pop(self.pos)
        self.low, least = pop(self.low)
        self.marks, mark = pop(self.marks)
        here = self.path.pop()
        if least == self.index[here]:
            _close(here, self.tarjan, self.index, lost)
        elif least < self.low[top - 1]:
            self.low[top - 1] = least
        return mark


def _close(here: bytes, tarjan: list[bytes], index: dict[bytes, i64], lost: Hashes) -> None:
    """The component of ``here`` closes without a win: all of it is lost (its positions are
    the top of ``tarjan`` down to ``here``)."""
    while True:
        k = tarjan.pop()
        lost.add(hash(k))
        index[k] = -1
        if k is here:
            break
