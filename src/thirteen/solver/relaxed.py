"""Rule D4: the relaxed game in which a card forgets its suit once it has moved.

In Baker's Dozen and Good Measure cards are packed regardless of suit, one at a time, and a
space is never filled, so a suit is read only when a card goes home. In the relaxed game a
card that has left its place becomes a *token* of its rank, and a token of rank ``r`` may go
home as any suit whose card of rank ``r`` is a token (its pile taking it). Every line of the
real game is a line of the relaxed game (the token standing for a moved card goes home as
that card's suit), so a position whose relaxed game cannot be won is lost (docs/solver.md,
*D4*). Tokens of a rank are interchangeable, so the many arrangements of the same moved
cards on the same hosts, which the real search visits one by one, are one position here.
"""

from __future__ import annotations

from mypy_extensions import i64

from ..packer import PackerState
from .common import Clock, key_bytes, table_bytes


class Relaxed:
    """A depth-first search of the relaxed game from a position, run in slices (`steps`).

    Cards are only ever taken off the top of their column's unmoved cards, and tokens are
    packed on each other only in descending runs, so a column of the relaxed game is its
    first ``k`` cards, unmoved, under a run of ``n`` tokens from one rank below the ``k``-th
    card down: two numbers. A key is the four pile heights, then ``k`` and ``n`` for each
    column. A lone card never moves (rule R1: its argument reads only the columns, and holds
    here if a lone card that moves keeps its suit, which the relaxed game may allow: any card
    may keep its suit without breaking D4's argument)."""

    def __init__(self, state: PackerState, clock: Clock) -> None:
        self.cols = [bytes(c.rank * 4 + c.suit for c in col) for col in state.columns]
        self.ncols: i64 = len(self.cols)
        # column * 256 + height of each card code in a column (-1 elsewhere), to ask
        # whether it is still unmoved: its height is under its column's ``k``
        self.place = [-1] * 64
        for ci in range(self.ncols):
            for h in range(len(self.cols[ci])):
                self.place[self.cols[ci][h]] = ci * 256 + h
        start = bytes([len(p) for p in state.foundations[:4]]
                      + [x for col in self.cols for x in (len(col), 0)])
        self.seen: set[bytes] = {start}
        self.stack: list[bytes] = [start]
        self.clock = clock
        self.key_size: i64 = key_bytes(start)
        self.verdict = ""  # "won" or "lost" once known

    def held(self) -> int:
        """The memory the search's table holds until the clock's next check."""
        return table_bytes(self.seen, self.key_size, self.clock.every)

    def steps(self, limit: i64) -> str:
        """Go on for ``limit`` more positions: "won", "lost", or "" when paused. The
        positions count as the clock's nodes. Raises `OutOfBudget`."""
        clock = self.clock
        stack = self.stack
        cols = self.cols
        place = self.place
        ncols = self.ncols
        every: i64 = clock.every
        tops: list[i64] = [0] * ncols  # each column's top rank (0: empty)
        n: i64 = 0
        while stack:
            if n >= limit:
                return ""
            key = stack.pop()
            n += 1
            clock.nodes += 1
            if clock.nodes % every == 0:
                clock.check(self.held())
            for i in range(ncols):
                k: i64 = key[4 + 2 * i]
                tops[i] = (cols[i][k - 1] >> 2) - key[5 + 2 * i] if k else 0
            homes: list[bytes] = []
            for i in range(ncols):
                r = tops[i]
                if not r:
                    continue
                k = key[4 + 2 * i]
                tokens: i64 = key[5 + 2 * i]
                # the card or token leaving column i: one token less, or one card less
                at = 5 + 2 * i if tokens else 4 + 2 * i
                if k > 1 or tokens:  # R1: a lone card stays
                    for j in range(ncols):
                        if tops[j] == r + 1 and j != i:
                            after = bytearray(key)
                            after[at] -= 1
                            after[5 + 2 * j] += 1
                            self._push(bytes(after))
                for s in range(4):
                    if key[s] != r - 1:
                        continue
                    if tokens:  # a token goes home as a suit whose card is not unmoved
                        p: i64 = place[r * 4 + s]
                        if p >= 0 and (p & 255) < key[4 + 2 * (p >> 8)]:
                            continue
                    elif cols[i][k - 1] & 3 != s:
                        continue
                    after = bytearray(key)
                    after[at] -= 1
                    after[s] += 1
                    homes.append(bytes(after))
            for h in homes:  # tried first: pushed last
                if h[0] == 13 and h[1] == 13 and h[2] == 13 and h[3] == 13:
                    self.verdict = "won"
                    return "won"
                self._push(h)
        self.verdict = "lost"
        return "lost"

    def _push(self, key: bytes) -> None:
        if key not in self.seen:
            self.seen.add(key)
            self.stack.append(key)
