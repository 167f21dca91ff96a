"""A set of 64-bit hashes in one flat array (`Hashes`): the frontier search's record of the
positions it proved lost (docs/solver.md, *The frontier search*), which grows with every
position it searches and is most of its memory. A hash takes 11 to 23 bytes here as the array
fills (the clock counts 12 to 24), where a `set` of ints took 71 (the int object and the set's
slots; docs/solver.md, *Its memory*).
"""

from __future__ import annotations

from typing import Final

from librt.vecs import extend, vec
from mypy_extensions import i64

FIRST: Final = 16  # slots at first (a power of two): most searches never fill them
# a slot's memory: 8 bytes, and a share of the spare room a vec keeps (a sixteenth, measured
# with tracemalloc), rounded up
SLOT_BYTES: Final = 9
EMPTY: Final = 0  # an empty slot; the hash 0 is kept as 1, a collision like any other


class Hashes:
    """A set of 64-bit hashes: open addressing with linear probing in a power of two of
    slots, never more than three quarters full (past that it doubles). Two hashes made one
    (0 and 1) are a collision like those of the hash itself, which its users allow: what it
    holds only steers searches that find lines, and never proves a deal lost."""

    def __init__(self) -> None:
        self.slots = _zeros(FIRST)
        self.mask: i64 = FIRST - 1
        self.count: i64 = 0

    def __len__(self) -> int:
        return self.count

    def __contains__(self, h: i64) -> bool:
        return self.has(h)

    def has(self, h: i64) -> bool:
        if h == EMPTY:
            h = 1
        return self.slots[self._slot(h)] == h

    def add(self, h: i64) -> None:
        if h == EMPTY:
            h = 1
        if (self.count + 1) * 4 > (self.mask + 1) * 3:
            self._grow()
        if self._put(h):
            self.count += 1

    def held(self, adds: i64) -> i64:
        """The most memory its slots hold until ``adds`` more hashes go in: while it doubles,
        the old slots live beside the new ones and the half these are doubled from (four times
        the old, in all)."""
        size = self.mask + 1
        most = size * SLOT_BYTES
        while (self.count + adds) * 4 > size * 3:
            most = size * 4 * SLOT_BYTES
            size *= 2
        return most

    def _slot(self, h: i64) -> i64:
        """The slot of ``h`` (not `EMPTY`), or the empty one where it would go."""
        slots = self.slots
        mask = self.mask
        i = h & mask
        while True:
            x = slots[i]
            if x in (h, EMPTY):
                return i
            i = (i + 1) & mask

    def _put(self, h: i64) -> bool:
        """Put ``h`` (not `EMPTY`) in its slot; whether it was new."""
        i = self._slot(h)
        if self.slots[i] == h:
            return False
        self.slots[i] = h
        return True

    def _grow(self) -> None:
        old = self.slots
        self.slots = _zeros(len(old) * 2)
        self.mask = len(old) * 2 - 1
        for k in range(len(old)):
            x = old[k]
            if x != EMPTY:
                self._put(x)


def _zeros(n: i64) -> vec[i64]:
    """``n`` empty slots (``n``: `FIRST` times a power of two), made by doubling, so that no
    list of ``n`` items is made on the way."""
    v = vec[i64]([EMPTY] * FIRST)
    while len(v) < n:
        v = extend(v, v)
    return v
