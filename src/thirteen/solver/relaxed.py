"""Rule D4: the relaxed game in which a card forgets its suit once it has moved.

In Baker's Dozen and Good Measure cards are packed regardless of suit, one at a time, and a
space is never filled, so a suit is read only when a card goes home. In the relaxed game a
card that has left its place becomes a *token* of its rank, and a token of rank ``r`` may go
home as any suit whose card of rank ``r`` is a token (its pile taking it). Every line of the
real game is a line of the relaxed game (the token standing for a moved card goes home as
that card's suit), so a position whose relaxed game cannot be won is lost (docs/solver.md,
*D4*). Tokens of a rank are interchangeable, so the many arrangements of the same moved
cards on the same hosts, which the real search visits one by one, are one position here.

A coarser game still, the *counted* game, keeps only the pile heights and how many cards of
each column are unmoved, and lets the tokens lie in any arrangement their numbers allow; it
has no cycles, so a memo decides each of its positions once, and a relaxed position whose
counted position is lost is lost (`Counted`).
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from ..packer import PackerState
from .common import Clock, key_bytes, table_bytes

# At most this many new counted positions to answer one question of a search (`Counted.ask`):
# the counted game can take a million positions to find a win (Baker's Dozen 766), and only
# a loss is of use; the start of the relaxed search is asked without this cap, in slices.
# (2,000 cost Baker's Dozen 766 9.9 s, 300 0.47 s: most questions that need more are won.)
QUESTION_LIMIT: Final = 300


class _Capped(Exception):
    """A question to the counted game needs more positions than it may take."""


class Counted:
    """The counted game of a deal (see the module docstring), with its memo of won and lost
    positions, shared by every search of the deal that asks it. A key is the four pile
    heights, then how many cards of each column (numbered as in ``state``) are unmoved: its
    first ``k`` cards."""

    def __init__(self, state: PackerState, clock: Clock) -> None:
        self.cols = [bytes(c.rank * 4 + c.suit for c in col) for col in state.columns]
        self.ncols: i64 = len(self.cols)
        # column * 256 + height of each card code in a column (-1 elsewhere), to ask
        # whether it is still unmoved: its height is under its column's ``k``
        self.place = [-1] * 64
        for ci in range(self.ncols):
            for h in range(len(self.cols[ci])):
                self.place[self.cols[ci][h]] = ci * 256 + h
        self.heights = [len(p) for p in state.foundations[:4]]
        self.start = bytes(self.heights + [len(col) for col in self.cols])
        self.clock = clock
        self.key_size: i64 = key_bytes(self.start)
        self.won: set[bytes] = set()
        self.lost: set[bytes] = set()
        self.left: i64 = 0  # new positions the question being answered may still take

    def held(self) -> int:
        """The memory the memo holds until the clock's next check."""
        every = self.clock.every
        return (table_bytes(self.won, self.key_size, every)
                + table_bytes(self.lost, self.key_size, every))

    def ask(self, key: bytes, limit: i64) -> i64:
        """1 if the counted game can be won from ``key`` (heights, then each column's unmoved
        cards), 0 if not, -1 if knowing needs more than ``limit`` new positions. The memo
        keeps everything decided, so asking again goes on where this stopped. Raises
        `OutOfBudget`."""
        self.left = limit
        try:
            return 1 if self._can_win(key) else 0
        except _Capped:
            return -1

    def _can_win(self, key: bytes) -> bool:
        """Whether the counted game can be won from ``key`` (heights, then each column's
        unmoved cards). Every move of it sends a card home or takes one off a column's
        unmoved cards, so it has no cycles and the memo is exact. Raises `OutOfBudget`."""
        if key in self.lost:
            return False
        if key in self.won or (key[0] == 13 and key[1] == 13 and key[2] == 13 and key[3] == 13):
            return True
        if self.left <= 0:
            raise _Capped
        self.left -= 1
        clock = self.clock
        clock.nodes += 1
        if clock.nodes % clock.every == 0:
            clock.check(self.held())
        for after in self._moves(key):
            if self._can_win(after):
                self.won.add(key)
                return True
        self.lost.add(key)
        return False

    def _moves(self, key: bytes) -> list[bytes]:
        """The counted positions one move from ``key``: a relaxed move that changes the
        heights or the unmoved cards, from any arrangement of the tokens their numbers
        allow (`arrangeable`)."""
        cols = self.cols
        ncols = self.ncols
        unmoved = [0] * 15
        for i in range(ncols):
            for h in range(key[4 + i]):
                unmoved[cols[i][h] >> 2] += 1
        tokens = [0] * 15  # tokens of each rank: cards neither home nor unmoved
        for rank in range(1, 14):
            home: i64 = 0
            for s in range(4):
                if key[s] >= rank:
                    home += 1
            tokens[rank] = 4 - home - unmoved[rank]
        tops = [0] * ncols  # each column's top unmoved rank (0: empty)
        bases = [0] * 15  # columns whose top unmoved card has each rank
        for i in range(ncols):
            k: i64 = key[4 + i]
            if k:
                tops[i] = cols[i][k - 1] >> 2
                bases[tops[i]] += 1
        out: list[bytes] = []  # moves home first: the search stops at the first win
        packs: list[bytes] = []
        for i in range(ncols):
            k = key[4 + i]
            if not k:
                continue
            card: i64 = cols[i][k - 1]
            r: i64 = card >> 2
            s = card & 3
            if key[s] == r - 1 and arrangeable(tokens, bases, tops, i, -1, -1, 0):
                after = bytearray(key)
                after[s] += 1
                after[4 + i] -= 1
                out.append(bytes(after))
            if k > 1:  # R1: a lone card stays
                for j in range(ncols):
                    if j == i or tops[j] <= r:
                        continue
                    if (tops[j] == r + 1 and arrangeable(tokens, bases, tops, i, j, -1, 0)) or (
                            tops[j] > r + 1 and arrangeable(tokens, bases, tops, i, -1, j, r + 1)):
                        after = bytearray(key)
                        after[4 + i] -= 1
                        packs.append(bytes(after))
                        break
        for rank in range(1, 13):
            if not tokens[rank]:
                continue
            for s in range(4):
                if key[s] != rank - 1:
                    continue
                p: i64 = self.place[rank * 4 + s]
                if p >= 0 and (p & 255) < key[4 + (p >> 8)]:
                    continue  # that card is unmoved: a token cannot go home as it
                for j in range(ncols):
                    if tops[j] > rank and arrangeable(tokens, bases, tops, -1, -1, j, rank):
                        after = bytearray(key)
                        after[s] += 1
                        out.append(bytes(after))
                        break
        return out + packs


class Relaxed:
    """A depth-first search of the relaxed game from a deal's start, run in slices (`steps`).

    Cards are only ever taken off the top of their column's unmoved cards, and tokens are
    packed on each other only in descending runs, so a column of the relaxed game is its
    first ``k`` cards, unmoved, under a run of ``n`` tokens from one rank below the ``k``-th
    card down: two numbers. A key is the four pile heights, then ``k`` and ``n`` for each
    column. A lone card never moves (rule R1: its argument reads only the columns, and holds
    here if a lone card that moves keeps its suit, which the relaxed game may allow: any card
    may keep its suit without breaking D4's argument). Moves into a lost position of the
    counted game are not tried."""

    def __init__(self, counted: Counted) -> None:
        self.counted = counted
        start = bytes(counted.heights + [x for col in counted.cols for x in (len(col), 0)])
        self.seen: set[bytes] = {start}
        self.stack: list[bytes] = [start]
        self.key_size: i64 = key_bytes(start)
        self.rooted = False  # whether the counted game of the start is known to be won

    def held(self) -> int:
        """The memory this search and the counted game's memo hold until the clock's next
        check."""
        return table_bytes(self.seen, self.key_size, self.counted.clock.every) + self.counted.held()

    def steps(self, limit: i64) -> str:
        """Go on for ``limit`` more positions: "won", "lost", or "" when paused. The
        positions count as the clock's nodes. Raises `OutOfBudget`."""
        counted = self.counted
        clock = counted.clock
        stack = self.stack
        cols = counted.cols
        place = counted.place
        ncols = counted.ncols
        every: i64 = clock.every
        if not self.rooted:  # first the counted game of the start, in slices too
            answer = counted.ask(counted.start, limit)
            if answer < 0:
                return ""
            self.rooted = True
            if answer == 0:
                self.stack = []
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
                            if tokens or counted.ask(_counted(bytes(after)), QUESTION_LIMIT):
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
                    return "won"
                if counted.ask(_counted(h), QUESTION_LIMIT):
                    self._push(h)
        return "lost"

    def _push(self, key: bytes) -> None:
        if key not in self.seen:
            self.seen.add(key)
            self.stack.append(key)


def _counted(key: bytes) -> bytes:
    """The counted position of a relaxed one: the heights and each column's unmoved cards."""
    return key[:4] + key[4::2]


def arrangeable(tokens: list[i64], bases: list[i64], tops: list[i64], bare: i64, bare2: i64,
                run: i64, low: i64) -> bool:
    """Whether the tokens can lie with columns ``bare`` and ``bare2`` (or -1) bearing none
    and column ``run`` (or -1) bearing exactly the run from one below its top card down to
    rank ``low``; ``bases`` counts the columns by the rank of their top unmoved card. A
    column bears a run from one below its top unmoved card down, so, from the kings down,
    the tokens of a rank lie on runs going on from the rank above or starting on a card of
    the rank above: there is an arrangement if and only if no rank has more tokens than
    the rank above has tokens and free cards (docs/solver.md, *D4*)."""
    t = list(tokens)
    b = list(bases)
    if bare >= 0:
        b[tops[bare]] -= 1
    if bare2 >= 0:
        b[tops[bare2]] -= 1
    if run >= 0:
        b[tops[run]] -= 1
        for r in range(low, tops[run]):
            t[r] -= 1
            if t[r] < 0:
                return False
    return all(t[r] <= t[r + 1] + b[r + 1] for r in range(12, 0, -1))
