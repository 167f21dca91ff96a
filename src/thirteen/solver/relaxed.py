"""Rule D4: the relaxed game in which a card forgets its suit once it has moved.

In Baker's Dozen and Good Measure cards are packed regardless of suit, one at a time, and a
space is never filled, so a suit is read only when a card goes home. In the relaxed game a
card that has left its place in the deal becomes a *token* of its rank, and a token of rank
``r`` may go home as any suit whose card of rank ``r`` is a token (its pile taking it). Every
line of the real game is a line of the relaxed game (the token standing for a moved card
goes home as that card's suit), so a deal whose relaxed game cannot be won is lost
(docs/solver.md, *D4*). Tokens of a rank are interchangeable, so the many arrangements of
the same moved cards on the same hosts, which the real search visits one by one, are one
position here: Good Measure 204, lost, takes the real search 4.4 million positions and the
relaxed game 84,000.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from ..packer import PackerState
from .common import Clock, key_bytes, table_bytes

TOKEN: Final = 64  # a card that has moved: TOKEN + its rank (card codes are rank * 4 + suit)
SEP: Final = b"\xff"  # between the columns of a key


def relaxed_key(heights: bytes, cols: list[bytes]) -> bytes:
    """The key of a relaxed position: the four pile heights, then the non-empty columns in
    sorted order (columns are interchangeable and a space is never filled)."""
    return heights + SEP.join(sorted([c for c in cols if len(c)]))


class Relaxed:
    """A depth-first search of the relaxed game from a position, run in slices (`steps`).

    A column is ``bytes``, bottom first: card codes (``rank * 4 + suit``), or `TOKEN` + rank
    for a card that has moved. A lone card never moves (rule R1: its argument reads only the
    columns, and holds here if a lone card that moves keeps its suit, which the relaxed game
    may allow: any card may keep its suit without breaking D4's argument)."""

    def __init__(self, state: PackerState, clock: Clock) -> None:
        heights = bytes(len(state.foundations[s]) for s in range(4))
        cols = [bytes(c.rank * 4 + c.suit for c in col) for col in state.columns]
        start = relaxed_key(heights, cols)
        self.seen: set[bytes] = {start}
        self.stack: list[bytes] = [start]
        self.clock = clock
        self.key_size: i64 = key_bytes(start)  # keys only shrink (cards go home)
        self.verdict = ""  # "won" or "lost" once known

    def held(self) -> int:
        """The memory the search's table holds until the clock's next check."""
        return table_bytes(self.seen, self.key_size, self.clock.every)

    def steps(self, limit: i64) -> str:
        """Go on for ``limit`` more positions: "won", "lost", or "" when paused. The
        positions count as the clock's nodes. Raises `OutOfBudget`."""
        clock = self.clock
        stack = self.stack
        every: i64 = clock.every
        n: i64 = 0
        while stack:
            if n >= limit:
                return ""
            key = stack.pop()
            n += 1
            clock.nodes += 1
            if clock.nodes % every == 0:
                clock.check(self.held())
            heights = key[:4]
            cols = key[4:].split(SEP)
            anchored: i64 = 0  # a bit for each card still in its place in the deal
            for col in cols:
                for c in col:
                    if c < TOKEN:
                        anchored |= 1 << c
            homes: list[bytes] = []
            for i in range(len(cols)):
                col = cols[i]
                top: i64 = col[-1]
                r: i64 = top - TOKEN if top >= TOKEN else top >> 2
                for j in range(len(cols) if len(col) > 1 else 0):  # R1: a lone card stays
                    host: i64 = cols[j][-1]
                    if j != i and (host - TOKEN if host >= TOKEN else host >> 2) == r + 1:
                        after = list(cols)
                        after[i] = col[:-1]
                        after[j] = cols[j] + bytes([TOKEN + r])
                        self._push(relaxed_key(heights, after))
                for s in range(4):
                    if heights[s] != r - 1:
                        continue
                    if (top < TOKEN and top & 3 != s) or (
                            top >= TOKEN and anchored >> (r * 4 + s) & 1):
                        continue
                    after = list(cols)
                    after[i] = col[:-1]
                    up = bytearray(heights)
                    up[s] += 1
                    homes.append(relaxed_key(bytes(up), after))
            for k in homes:  # tried first: pushed last
                if len(k) == 4:
                    self.verdict = "won"
                    return "won"
                self._push(k)
        self.verdict = "lost"
        return "lost"

    def _push(self, key: bytes) -> None:
        if key not in self.seen:
            self.seen.add(key)
            self.stack.append(key)

