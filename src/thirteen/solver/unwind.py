"""Rule R1: the Calculation family's game with the stock's cards free.

In the *unwinding game* of a position the cards still in the stock lie face up beside the
table, each free to go home at any time, and nothing is ever put on a waste pile again: what
remains is to take the waste piles apart, top first, onto the foundations. Every line of
the real game is a line of the unwinding game (docs/solver.md, *R1*), so a position whose
unwinding game is lost is lost; with the stock empty the two games are the same, and a win of
the unwinding game is a real winning line.

Nothing is ever covered in the unwinding game, so a card once free stays free, and the search
needs no bans: it tries, for each foundation, the waste tops of the rank it wants (one of each
set of equal piles), and a free card of that rank only when no top has it (a top taken
instead of a free card is never worse: rule R2). A rank with one copy left goes home as soon
as the copy is free (rule A1). Positions are remembered by their foundation heights and
waste piles, lost or won, across the questions of one deal.
"""

from __future__ import annotations

from typing import Final

from .common import table_bytes

NEVER: Final = 99  # index of a rank a foundation never takes
#: Memo entries kept before the memo is cleared (forgetting is always sound).
MEMO_LIMIT: Final = 1_000_000

UMove = tuple[int, int]  # (waste pile, foundation): a waste top home


class TooLong(Exception):
    """A question needs more positions than it may take."""


class Unwind:
    """The unwinding games of one deal's positions (`lost`), with their memo."""

    def __init__(self, seqs: list[tuple[int, ...]], index: list[list[int]]) -> None:
        self.seqs = seqs
        self.index = index
        self.nf = len(seqs)
        self.lost_keys: set[bytes] = set()
        self.won_keys: set[bytes] = set()
        self.nodes = 0  # positions searched by every question so far
        self.limit = 0  # `nodes` at which the current question gives up
        # the position of the current question, changed in place
        self.height: list[int] = []
        self.piles: list[bytes] = []
        self.free: list[int] = []
        self.copies: list[int] = []
        self.line: list[UMove] = []

    def memo_size(self) -> int:
        return len(self.lost_keys) + len(self.won_keys)

    def memo_bytes(self, key_size: int, adds: int) -> int:
        """The most memory the memo holds (keys of at most ``key_size`` bytes, `key_bytes`)
        until ``adds`` more keys go in (`table_bytes`)."""
        return (table_bytes(self.lost_keys, key_size, adds)
                + table_bytes(self.won_keys, key_size, adds))

    def verdict(self, height: list[int], waste: list[bytes], free: bytes, cap: int) -> str:
        """``lost``, ``won`` or ``unknown``: the unwinding game of this position (the
        stock's cards ``free``, as counts by rank), searching at most ``cap`` new positions
        (``unknown`` when it would need more). When it is won with no free card, `line` holds
        its moves."""
        self.height = height[:]
        self.piles = waste[:]
        self.free = list(free)
        copies = list(free)
        for pile in waste:
            for r in pile:
                copies[r] += 1
        self.copies = copies
        self.line = []
        self.limit = self.nodes + cap
        if self.memo_size() > MEMO_LIMIT:
            self.lost_keys.clear()
            self.won_keys.clear()
        try:
            return "won" if self._win() else "lost"
        except TooLong:
            return "unknown"

    def _key(self) -> bytes:
        piles = sorted(self.piles)
        return bytes(self.height) + b"".join(bytes([len(p) + 1]) + p for p in piles)

    def _home(self, f: int, w: int) -> None:
        """Card home to foundation ``f`` from waste pile ``w`` (-1: a free card)."""
        if w < 0:
            r = self.seqs[f][self.height[f]]
            self.free[r] -= 1
        else:
            pile = self.piles[w]
            r = pile[-1]
            self.piles[w] = pile[:-1]
        self.copies[r] -= 1
        self.height[f] += 1

    def _undo(self, f: int, w: int, r: int) -> None:
        self.height[f] -= 1
        self.copies[r] += 1
        if w < 0:
            self.free[r] += 1
        else:
            self.piles[w] += bytes([r])

    def _source(self, r: int) -> int:
        """The first waste pile with ``r`` on top, -1 for none."""
        for w, pile in enumerate(self.piles):
            if pile and pile[-1] == r:
                return w
        return -1

    def _all_free(self, r: int) -> bool:
        """Whether every copy of rank ``r`` left is free or on top of a waste pile."""
        tops = self.free[r]
        for pile in self.piles:
            if pile and pile[-1] == r:
                tops += 1
        return tops == self.copies[r]

    def _forced(self) -> list[tuple[int, int, int]]:
        """Play home every last copy of a rank that is free or on top and wanted now (A1)."""
        done: list[tuple[int, int, int]] = []
        seqs, height = self.seqs, self.height
        again = True
        while again:
            again = False
            for f in range(self.nf):
                h = height[f]
                if h >= len(seqs[f]):
                    continue
                r = seqs[f][h]
                if self.copies[r] != 1:
                    continue
                w = self._source(r)
                if w < 0 and not self.free[r]:
                    continue
                self._home(f, w)
                done.append((f, w, r))
                again = True
        return done

    def _win(self) -> bool:
        forced = self._forced()
        won = self._search()
        if won:
            self.line[:0] = [(w, f) for f, w, _ in forced]
        for f, w, r in reversed(forced):
            self._undo(f, w, r)
        return won

    def _search(self) -> bool:
        seqs, height = self.seqs, self.height
        options: list[tuple[int, int]] = []
        finished = True
        for f in range(self.nf):
            h = height[f]
            if h >= len(seqs[f]):
                continue
            finished = False
            r = seqs[f][h]
            mine: list[tuple[int, int]] = []
            seen: list[bytes] = []
            for w, pile in enumerate(self.piles):
                if pile and pile[-1] == r and pile not in seen:
                    seen.append(pile)
                    mine.append((f, w))
            if not mine and self.free[r]:
                mine.append((f, -1))
            if mine and self._all_free(r):
                options = mine  # rule R3: some winning line plays one of these first
                break
            options += mine
        if finished:
            return True
        if not options:
            return False
        key = self._key()
        if key in self.lost_keys:
            return False
        if key in self.won_keys and any(self.free):
            return True  # a won key's line is only needed with no free card
        self.nodes += 1
        if self.nodes > self.limit:
            raise TooLong
        for f, w in options:
            r = seqs[f][height[f]]
            self._home(f, w)
            won = self._win()
            self._undo(f, w, r)
            if won:
                self.line.insert(0, (w, f))
                self.won_keys.add(key)
                return True
        self.lost_keys.add(key)
        return False


def blocked(seqs: list[tuple[int, ...]], index: list[list[int]], height: list[int],
            waste: list[bytes], left: bytes | list[int], ban: list[int]) -> bool:
    """True if no winning line remains (rule T1 of docs/solver.md): ``left[r]`` copies of
    rank ``r`` are still in the stock, ``ban[w]`` the foundations the top of pile ``w`` may
    not go to (rule B1).

    T starts as every waste card. A rank is *blocked* if no copy is in the stock and every
    copy in the waste lies strictly under a card of T. A card stays in T while every
    foundation that may take it must first take a blocked rank. If T is not empty at the
    end, the first card of T to go home would need a blocked rank home before it, whose
    copy needed a card of T gone before it: so none ever goes, and the game is lost.
    Only the highest card of T in each pile matters for blocking (``top[w]``), and
    whether a card stays in T depends only on its rank (and its ban, on a top card)."""
    nw, nf = len(waste), len(seqs)
    top = [len(p) - 1 for p in waste]
    while True:
        free = [c > 0 for c in left]
        for w in range(nw):
            pile = waste[w]
            for i in range(max(top[w], 0), len(pile)):
                free[pile[i]] = True
        # first[g]: where foundation g's first blocked rank lies in its sequence; ranks
        # before it (and it) are ones g may take before any blocked one: not trapped.
        first = [0] * nf
        trapped = [True] * 14
        for g in range(nf):
            seq = seqs[g]
            n = len(seq)
            k = height[g]
            while k < n and free[seq[k]]:
                trapped[seq[k]] = False
                k += 1
            if k < n:
                trapped[seq[k]] = False
            first[g] = k
        changed = False
        for w in range(nw):
            t = top[w]
            if t < 0:
                continue
            pile = waste[w]
            new = t  # the highest card of T left in the pile: a trapped rank
            while new >= 0 and not trapped[pile[new]]:
                new -= 1
            if t == len(pile) - 1 and new < t and ban[w] \
                    and _trapped_top(index, height, pile[-1], ban[w], first):
                new = t
            if new != t:
                top[w] = new
                changed = True
        if not changed:
            return max(top) >= 0


def _trapped_top(index: list[list[int]], height: list[int], card: int, ban: int,
                 first: list[int]) -> bool:
    """Whether a top card with bans ``ban`` stays in T (see `blocked`): no foundation may
    take it before a blocked rank."""
    for g in range(len(height)):
        k = index[g][card]
        if height[g] <= k < NEVER and not ban >> g & 1 and first[g] >= k:
            return False
    return True
