"""The packer search's dead-end proofs (docs/solver.md, this module's section): rule D1, no
host left for a trapped card (`DeadEnds.no_host`); rule D5, too few kings for the queens that
must leave their columns (`DeadEnds.short_of_kings`); rule D3, no card that may go home can ever be
uncovered (`DeadEnds.stuck`); rule D4 inside a search, the position's counted game is lost
(`DeadEnds.hopeless`, on `relaxed.Counted`).
"""

from __future__ import annotations

from librt.vecs import vec
from mypy_extensions import i64

from ...packer import PackerState
from ..common import Budget, key_bytes, table_bytes
from ..relaxed import QUESTION_LIMIT, Counted
from .encoding import HOST_STRIDE, KING, QUEEN
from .hashes import Hashes
from .ordering import Ordering
from .tuning import STUCK_LIMIT, STUCK_SLOT_BYTES


class DeadEnds(Ordering):
    """A position that can tell some lost positions (`dead`, `stuck`, `hopeless`)."""

    def __init__(self, state: PackerState, budget: Budget, probe: bool = False) -> None:
        super().__init__(state, budget, probe)
        self._tz = vec[i64]([0] * 60)  # `dead`'s scratch: the cards of T
        self._ceil = vec[i64]([-1] * self.ncols)  # `dead`'s scratch: the top of T by column
        self._wants = vec[i64]([0] * 4)  # `short_of_kings`'s scratch
        self._counts = vec[i64]([0] * (4 + self.ncols))  # `hopeless`'s scratch: its counts
        # Rule D3 (`stuck`): per set of home cards (four heights), the suitless positions
        # known to uncover no card that could go home and those known to uncover one, and
        # the memory they hold (estimated, `STUCK_SLOT_BYTES`).
        self.stuck_seen: dict[bytes, tuple[set[bytes], set[bytes]]] = {}
        self.stuck_bytes: i64 = 0
        self.stuck_nodes: i64 = 0  # the positions its searches took
        # D3 reads ranks only: building by rank, no space or one only a king fills
        self.stuck_on = self.dead_check and self.by_rank and not probe
        # Rule D4 (`hopeless`): the deal's counted game, shared by its searches (`schedule`)
        self.counted: Counted | None = None
        # the hashes of the keys the frontier search proved lost (`Split.lost`), which the
        # rollouts do not enter either (`closed`); a collision only hides a line
        self.lost = Hashes()

    def dead(self) -> bool:
        """True if no winning line can remain by rule D1 (`no_host`) or D5 (`short_of_kings`)."""
        return self.no_host() or self.short_of_kings()

    def no_host(self) -> bool:
        """True if no winning line can remain (rule D1 of docs/solver.md).

        T starts as every card that lies above a lower card of its own suit: such a card
        must leave its column by packing onto a host before it can go home. Let c* be the
        card of T that leaves first. A card of T with a host that is neither home nor
        strictly under a card of T is dropped from T (it might be c*), until nothing
        changes. If T is not empty then, c* has no host at its turn: the position is lost.
        """
        col_of = self.col_of  # stale for cards at home: dead_check means suit foundations
        at = self.at
        fh = self.fh
        bits = self.trapped
        if not bits:
            return False
        tz = self._tz  # the cards of T, its first n entries
        n: i64 = 0
        while bits:
            b = bits & -bits
            tz[n] = int(b).bit_length() - 1
            n += 1
            bits ^= b
        hosts = self.hosts
        ceil = self._ceil
        while True:
            # ceil[ci]: the highest place in column ci held by a card of T: a host strictly
            # under it stays covered until c* leaves.
            for ci in range(len(ceil)):
                ceil[ci] = -1
            for t in range(n):
                c = tz[t]
                if at[c] > ceil[col_of[c]]:
                    ceil[col_of[c]] = at[c]
            kept: i64 = 0  # the cards kept in T move to the front of tz
            for t in range(n):
                c = tz[t]
                base = c * HOST_STRIDE
                for k in range(base + 1, base + 1 + hosts[base]):
                    e = hosts[k]
                    if e >> 2 > fh[e & 3] and at[e] >= ceil[col_of[e]]:
                        break  # a host that is neither home nor covered: c might be c*
                else:
                    tz[kept] = c
                    kept += 1
            if not kept:
                return False
            if kept == n:
                return True
            n = kept

    def short_of_kings(self) -> bool:
        """True if no queen can be the next to go home (rule D5 of docs/solver.md).

        A queen leaves its column only onto a king (no space takes a queen), and stays on
        kings until it goes home, one queen to a king. Before the next queen q goes home,
        every queen above a card of q's suit below the king has left its column, so all of
        them and the queens on kings now are on kings at once; a king directly under a king
        whose queen is not home stays covered until then. If for every queen they outnumber
        the kings that may host them, the position is lost."""
        fh = self.fh
        cols = self.cols
        col_of = self.col_of
        at = self.at
        wants = self._wants  # wants[t]: the queens that must be on kings before t's goes home
        queens: i64 = 0  # the suits whose queen is not home
        on_king: i64 = 0
        for s in range(4):
            wants[s] = 0
        for s in range(4):
            if fh[s] >= 12:
                continue
            queens |= 1 << s
            if at[QUEEN + s] == 0:
                continue
            below = cols[col_of[QUEEN + s]][at[QUEEN + s] - 1]
            if below >= KING:
                on_king |= 1 << s
                continue
            low = self.lowest[below]  # the lowest rank of each suit under the queen
            for t in range(4):
                if (low >> t * 4 & 15) <= 12:
                    wants[t] |= 1 << s
        need: i64 = 5  # the fewest kings the next queen home needs
        for t in range(4):
            w = on_king | wants[t]
            if queens >> t & 1:
                need = min(need, (w & 1) + (w >> 1 & 1) + (w >> 2 & 1) + (w >> 3))
        if need == 0 or need == 5:
            return False  # a queen needs no king, or none is left to go home
        hosts: i64 = 0
        for s in range(4):
            if fh[s] < 13:
                col = cols[col_of[KING + s]]
                i = at[KING + s] + 1
                if (self.kings_space or i >= len(col) or col[i] < KING
                        or fh[col[i] & 3] >= 12):
                    hosts += 1
        return need > hosts

    def stuck(self) -> bool:
        """Rule D3 (docs/solver.md): can a card that may go home next ever be uncovered by
        moves between columns? If not, nothing goes home again and the position is lost.
        Those moves read only ranks, so this searches the columns with the suits dropped,
        each card that may go home next marked as its rank + 100 (which of them does not
        matter): positions that differ only in suits are one, far fewer than the positions
        of the full search. True if none does; at most `STUCK_LIMIT` positions (then it says
        False), counted in `stuck_nodes`. Per set of home cards, the positions of a search
        that ends stuck are kept (everything reachable from them was searched), and so are
        those on the line to an uncovered card (they are not stuck)."""
        fh = self.fh
        cols: list[bytes] = []
        for ci in range(self.ncols):
            col = self.cols[ci]
            marked = bytearray(len(col))
            for k in range(len(col)):
                c: i64 = col[k]
                r = c >> 2
                marked[k] = r + 100 if r == fh[c & 3] + 1 else r
            if len(col) and marked[-1] >= 100:
                return False
            cols.append(bytes(marked))
        home = bytes([fh[0], fh[1], fh[2], fh[3]])
        if home not in self.stuck_seen:
            self.stuck_seen[home] = (set(), set())
        known, free = self.stuck_seen[home]
        start = b"\0".join(sorted(cols))
        if start in known:
            return True
        if start in free:
            return False
        return self._never_uncovers(start, known, free)

    def _never_uncovers(self, start: bytes, known: set[bytes], free: set[bytes]) -> bool:
        """`stuck`'s search from ``start`` (sorted marked columns, joined): True if no card
        that may go home is ever uncovered. Adds what it proves to ``known`` and ``free``."""
        kings = self.kings_space  # a space takes a king: a lone card may leave one
        parent: dict[bytes, bytes] = {start: start}
        stack = [start]
        n: i64 = 0
        while stack:
            here = stack.pop()
            pos = here.split(b"\0")
            n += 1
            if n > STUCK_LIMIT:
                self.stuck_nodes += n
                return False
            for i in range(len(pos)):
                col = pos[i]
                if len(col) < (1 if kings else 2):
                    continue  # R1: with no space ever filled a lone card never moves
                c = col[-1]
                want = c % 100 + 1  # the rank of its hosts
                for j in range(len(pos)):
                    dest = pos[j]
                    if j == i:
                        continue
                    if len(dest):
                        if dest[-1] % 100 != want:
                            continue
                    elif not (kings and want == 14 and len(col) > 1):
                        continue  # a space takes only a king, and a lone one gains nothing
                    after = list(pos)
                    after[i] = col[:-1]
                    after[j] = dest + col[-1:]
                    key = b"\0".join(sorted(after))
                    if (len(col) > 1 and col[-2] >= 100) or key in free:  # a card uncovered
                        while True:
                            free.add(here)
                            self.stuck_bytes += key_bytes(here) + STUCK_SLOT_BYTES
                            if here == start:
                                self.stuck_nodes += n
                                return False
                            here = parent[here]
                    if key not in parent and key not in known:
                        parent[key] = here
                        stack.append(key)
        for key in parent:
            known.add(key)
            self.stuck_bytes += key_bytes(key) + STUCK_SLOT_BYTES
        self.stuck_nodes += n
        return True

    def changed(self, m: i64, mark: i64) -> bool:
        """Whether move ``m``, played with its safe moves home (the trail's records from
        ``mark``), may have changed what rules D3 and D4 read: it sent a card home, or a card
        left a card it does not pack onto (an unmoved card's place). Any other move can be
        undone at once."""
        dst = (m >> 4 & 15) - 2
        if dst < 0 or len(self.trail) > mark + 1:
            return True
        src = (m >> 8 & 31) - 4
        cols = self.cols
        return not len(cols[src]) or not self.pack_ok[cols[dst][-1] * 64 + cols[src][-1]]

    def closed(self, m: i64, mark: i64, k: bytes) -> bool:
        """Whether the position after move ``m`` (`changed`), its key ``k``, is a proved
        dead end, by rule D1, by the frontier search (`lost`) or, if the move changed what
        it reads, rule D4: what the rollouts never enter."""
        return ((self.lost.count > 0 and self.lost.has(hash(k)))  # the key's hash is cached: first
                or (self.dead_check and self.dead())
                or (self.counted is not None and self.changed(m, mark) and self.hopeless()))

    def hopeless(self) -> bool:
        """Rule D4 inside a search (docs/solver.md): whether the counted game of the
        position (the heights, and each column's cards up to its top unmoved one; none in a
        column whose bottom card is not the one dealt there, a king moved into a space) is
        lost."""
        counted = self.counted
        if counted is None:
            return False
        cols = self.cols
        counts = self._counts
        for s in range(4):
            counts[s] = self.fh[s]
        for ci in range(self.ncols):
            col = cols[ci]
            k = len(col)
            while k:  # down to the top unmoved card: on no host (0), or at the bottom (6)
                c = col[k - 1]
                code = i64(self.where[c >> 1]) >> (c & 1) * 4 & 7
                if code == 0 or code == 6:
                    break
                k -= 1
            if k and counted.place[col[0]] != ci * 256:
                k = 0  # a king that moved into a space lies at the bottom: the whole run moved
            counts[4 + ci] = k
        key = counted.encode(counts)
        known = counted.known(key)
        if known >= 0:
            return known == 0
        # the counted game's own memory checks must see this search's tables too
        clock = self.clock
        others = clock.extra_bytes
        clock.extra_bytes = others + table_bytes(self.tt, self.key_size, 0) + self.stuck_bytes
        try:
            return counted.ask(key, QUESTION_LIMIT) == 0
        finally:
            clock.extra_bytes = others

