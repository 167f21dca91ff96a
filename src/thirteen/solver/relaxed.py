"""Rule D4: the relaxed game in which a card forgets its suit once it has moved.

In Baker's Dozen, Good Measure and Portuguese Solitaire cards are packed regardless of suit,
one at a time, and a space is never filled or takes only a king, so a suit is read only when
a card goes home. In the relaxed game a card that has left its place becomes a *token* of its
rank, and a token of rank ``r`` may go home as any suit whose card of rank ``r`` is a token
(its pile taking it). Every line of the
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

from librt.vecs import vec
from mypy_extensions import i64

from ..packer import PackerState
from .clock import Clock
from .common import key_bytes, table_bytes

# At most this many new counted positions to answer one question of a search (`Counted.ask`):
# the counted game can take a million positions to find a win (Baker's Dozen 766), and only
# a loss is of use; the start of the relaxed search is asked without this cap, in slices.
# (2,000 cost Baker's Dozen 766 9.9 s, 300 0.47 s: most questions that need more are won.)
QUESTION_LIMIT: Final = 300


class _Capped(Exception):
    """A question to the counted game needs more positions than it may take."""


def fits(state: PackerState) -> bool:
    """Whether the counted keys of this deal fit in 62 bits, as the compiled counted game
    needs (mypyc computes an integer with an ``i64`` in 64 bits). Every dealt layout does
    (Baker's Dozen: 55 bits); a layout typed in with long columns may not, and does without
    rule D4."""
    return 16 + max(len(col) for col in state.columns).bit_length() * len(state.columns) <= 62


class Counted:
    """The counted game of a deal (see the module docstring), with its memo of won and lost
    positions, shared by every search of the deal that asks it. A key is one integer
    (`encode`): four bits for each pile height, then ``width`` bits for each column
    (numbered as in ``state``) telling how many of its cards are unmoved (its first ``k``);
    at most 62 bits (`fits`). Integers, not bytes: a move is one addition, and the memo's
    millions of keys hash fast."""

    def __init__(self, state: PackerState, clock: Clock) -> None:
        self.cols = [bytes(c.rank * 4 + c.suit for c in col) for col in state.columns]
        self.ncols: i64 = len(self.cols)
        self.width: i64 = max(len(col) for col in self.cols).bit_length() or 1
        # column * 256 + height of each card code in a column (-1 elsewhere), to ask
        # whether it is still unmoved: its height is under its column's ``k``
        self.place = [-1] * 64
        for ci in range(self.ncols):
            for h in range(len(self.cols[ci])):
                self.place[self.cols[ci][h]] = ci * 256 + h
        # the ranks of each column's first k cards, counted in four bits a rank, for each k:
        # adding one entry per column counts the unmoved cards of every rank at once
        self.stride: i64 = max(len(col) for col in self.cols) + 1
        self.ranks = vec[i64]([0] * (self.ncols * self.stride))  # column * stride + k
        for ci in range(self.ncols):
            for k in range(1, len(self.cols[ci]) + 1):
                self.ranks[ci * self.stride + k] = (self.ranks[ci * self.stride + k - 1]
                                                    + (1 << int(4 * (self.cols[ci][k - 1] >> 2))))
        # what a key gains with one more unmoved card in each column (mypyc 2.4 shifts the
        # literal 1 by an i64 in 32 bits: hence int())
        self.units = [1 << int(16 + self.width * i) for i in range(self.ncols)]
        self.heights = [len(p) for p in state.foundations[:4]]
        # a space takes a king (Portuguese): a column with no unmoved card may bear a run of
        # tokens from a king down, as if on a card of rank 14, and a lone card may move
        self.kings = state.variant.space == "kings"
        self.start = self.encode(vec[i64](self.heights + [len(col) for col in self.cols]))
        self.clock = clock
        self.key_size: i64 = key_bytes(self.units[-1] << self.width)  # above every key
        self.won: set[int] = set()
        self.lost: set[int] = set()
        self.left: i64 = 0  # new positions the question being answered may still take
        self.mask: i64 = (1 << int(self.width)) - 1
        # `_moves` works in these, refilled for each position by `_read` (it returns before
        # the next)
        self.scratch_heights = vec[i64]([0] * 4)
        self.scratch_ks = vec[i64]([0] * self.ncols)
        self.scratch_tokens = vec[i64]([0] * 15)
        self.scratch_bases = vec[i64]([0] * 15)
        self.room = Room()

    def encode(self, counts: vec[i64]) -> int:
        """The key of a counted position: ``counts`` holds the four pile heights, then each
        column's unmoved cards. (A native vector: items of `bytes` or `bytearray` would each
        be a Python object here, asked for at every move of a search.)"""
        key: int = counts[0] | counts[1] << 4 | counts[2] << 8 | counts[3] << 12
        for i in range(self.ncols):
            key += counts[4 + i] * self.units[i]
        return key

    def held(self) -> int:
        """The memory the memo holds until the clock's next check."""
        every = self.clock.every
        return (table_bytes(self.won, self.key_size, every)
                + table_bytes(self.lost, self.key_size, every))

    def unshared(self) -> int:
        """What the memo adds to a check of its clock: nothing if the clock counts it already
        (`Clock.shared`), else all of it."""
        return 0 if self.clock.shared is self else self.held()

    def forget(self) -> None:
        """Empty the memo (what it held is searched again when asked), for its memory."""
        self.won = set()
        self.lost = set()

    def known(self, key: int) -> i64:
        """1 if the memo holds ``key`` as won, 0 as lost, -1 if it does not hold it."""
        return 0 if key in self.lost else 1 if key in self.won else -1

    def ask(self, key: int, limit: i64) -> i64:
        """1 if the counted game can be won from ``key``, 0 if not, -1 if knowing needs more
        than ``limit`` new positions. The memo keeps everything decided, so asking again
        goes on where this stopped. Raises `OutOfBudget`."""
        self.left = limit
        try:
            return 1 if self._can_win(key) else 0
        except _Capped:
            return -1

    def _can_win(self, key: int) -> bool:
        """Whether the counted game can be won from ``key``. Every move of it sends a card
        home or takes one off a column's unmoved cards, so it has no cycles and the memo is
        exact. Raises `OutOfBudget`."""
        if key in self.lost:
            return False
        if key in self.won or key & 0xFFFF == 0xDDDD:  # every pile at its king (13)
            return True
        if self.left <= 0:
            raise _Capped
        self.left -= 1
        clock = self.clock
        clock.nodes += 1
        if clock.nodes >= clock.due:
            clock.check(self.unshared())
        for after in self._moves(key):
            if self._can_win(after):
                self.won.add(key)
                return True
        self.lost.add(key)
        return False

    def _moves(self, key: int) -> list[int]:
        """The counted positions one move from ``key``: a relaxed move that changes the
        heights or the unmoved cards, from any arrangement of the tokens their numbers
        allow (`Room.arrangeable`)."""
        self._read(key)
        cols = self.cols
        heights = self.scratch_heights
        ks = self.scratch_ks
        bases = self.scratch_bases
        room = self.room
        out: list[int] = []  # moves home first: the search stops at the first win
        packs: list[int] = []
        for i in range(self.ncols):
            k: i64 = ks[i]
            if not k:
                continue
            taken = key - self.units[i]  # one unmoved card fewer in column i
            card: i64 = cols[i][k - 1]
            r: i64 = card >> 2
            s = card & 3
            if heights[s] == r - 1 and room.arrangeable(r, 0, 0):
                out.append(taken + (1 << 4 * s))
            # R1: a lone card stays (where a king fills a space, only a lone king); a card of
            # rank r lands on a bare column of top r + 1 (for a king, a space: a column of no
            # unmoved card and no run) or on a run ending at r + 1
            stays = k == 1 and (r == 13 or not self.kings)
            if not stays and (r < 13 or self.kings) and (
                    bases[r + 1] and room.arrangeable(r, r + 1, 0)
                    or room.arrangeable(r, 0, r + 1)):
                packs.append(taken)
        for rank in range(1, 14):
            if not room.arrangeable(0, 0, rank):
                continue  # no column may bear a run ending at a token of this rank
            for s in range(4):
                if heights[s] != rank - 1:
                    continue
                p: i64 = self.place[rank * 4 + s]
                if p >= 0 and (p & 255) < ks[p >> 8]:
                    continue  # that card is unmoved: a token cannot go home as it
                out.append(key + (1 << 4 * s))
        return out + packs

    def _read(self, key: int) -> None:
        """Fill the scratch with the counted position ``key``, for `_moves`: its pile heights,
        each column's unmoved cards, the tokens of each rank, the columns counted by the rank
        of their top unmoved card, and `room` from those."""
        width = self.width
        mask = self.mask
        stride = self.stride
        heights = self.scratch_heights
        for s in range(4):
            heights[s] = key >> 4 * s & 15
        ks = self.scratch_ks
        counts: i64 = 0  # the unmoved cards of each rank, four bits a rank
        for i in range(self.ncols):
            ks[i] = key >> 16 + width * i & mask
            counts += self.ranks[i * stride + ks[i]]
        tokens = self.scratch_tokens  # tokens of each rank: cards neither home nor unmoved
        for rank in range(1, 14):
            home: i64 = 0
            for s in range(4):
                if heights[s] >= rank:
                    home += 1
            tokens[rank] = 4 - home - (counts >> 4 * rank & 15)
        bases = self.scratch_bases  # columns whose top unmoved card has each rank
        for rank in range(15):
            bases[rank] = 0
        for i in range(self.ncols):
            k: i64 = ks[i]
            if k:
                bases[self.cols[i][k - 1] >> 2] += 1
            elif self.kings:
                bases[14] += 1
        self.room.load(tokens, bases)


class Relaxed:
    """A depth-first search of a deal's relaxed game from its start, run in slices (`steps`).

    Cards are only ever taken off the top of their column's unmoved cards, and tokens are
    packed on each other only in descending runs, so a column of the relaxed game is its
    first ``k`` cards, unmoved, under a run of ``n`` tokens from one rank below the ``k``-th
    card down. With ``kept`` suits, the cards of those suits keep them when they move (D4's
    argument holds whatever cards keep their suits): the game is finer, and lost more often,
    and a column also tells which of its tokens are of each kept suit (their ranks follow from
    their places in the run). A key is the four pile heights, then ``k``, ``n`` and a mask
    (two bytes) for each kept suit for each column, read as one integer (a move is an addition
    or two, and integers hash faster than bytes). A lone card never moves (rule R1: its
    argument reads only the columns, and holds here if a lone card that moves keeps its suit,
    which the relaxed game may allow); where a king fills a space, only a lone king. A column
    with no unmoved card there bears a run from a king down (a space if none). Moves into a
    lost position of the counted game are not tried.

    With a ``window``, only the kept cards at most ``window`` ranks above their pile keep
    their suit when they move; one further up becomes a token like the others. When the
    pile comes within ``window`` of it, it is named: each token of its rank in turn becomes
    the kept card (`_named`; the real card is one of them). The arrangements of the unnamed
    cards, which the full game tells apart, are one position here (docs/solver.md, *D4*)."""

    def __init__(self, counted: Counted, kept: tuple[int, ...] = (), window: i64 = 13) -> None:
        self.counted = counted
        self.kept = kept  # the suits whose cards keep them when they move
        # each suit's place in ``kept`` (-1: not kept), which mask of a column is its own
        self.mask_of = vec[i64]([kept.index(s) if s in kept else -1 for s in range(4)])
        self.window = window  # ranks above a kept suit's pile whose cards keep it
        self.stride: i64 = 2 + 2 * len(kept)  # a column's bytes: k, n and the masks
        self.size: i64 = 4 + self.stride * counted.ncols  # a key's bytes
        start = int.from_bytes(
            bytes(counted.heights + [x for col in counted.cols
                                     for x in [len(col)] + [0] * (self.stride - 1)]),
            "little")
        self.seen: set[int] = {start}
        self.stack: list[int] = [start]
        # the largest a key can be (`int`: mypyc would shift an ``i64`` in 64 bits)
        self.key_size: i64 = key_bytes((1 << int(8 * self.size)) - 1)
        # what a key gains with one more of each byte (`unit`), and with one more bit of a
        # column's mask of a kept suit, two bytes from its third (`bit`, at (mask * columns +
        # column) * 16 + bit)
        self.unit: list[int] = [1 << int(8 * b) for b in range(self.size)]
        self.bit: list[int] = [1 << int(8 * (6 + self.stride * i + 2 * j) + b)
                               for j in range(len(kept)) for i in range(counted.ncols)
                               for b in range(16)]
        self.rooted = False  # whether the counted game of the start is decided (lost: no stack)
        # `_expand`'s scratch, refilled for each position: each column's top rank (0: empty),
        # and how many columns have each top rank
        self.tops = vec[i64]([0] * counted.ncols)
        self.on_rank = vec[i64]([0] * 15)
        self.counts = vec[i64]([0] * (4 + counted.ncols))  # `_expand`'s counted position

    def table(self) -> int:
        """The memory this search's own table holds until the clock's next check."""
        return table_bytes(self.seen, self.key_size, self.counted.clock.every)

    def steps(self, limit: i64) -> str:
        """Go on for ``limit`` more positions: "won", "lost", or "" when paused. The
        positions count as the clock's nodes. Raises `OutOfBudget`."""
        clock = self.counted.clock
        stack = self.stack
        seen = self.seen
        due: i64 = clock.due
        if not self.rooted and not self._root(limit):
            return ""
        n: i64 = 0
        while stack:
            if n >= limit:
                return ""
            whole: int = stack.pop()
            n += 1
            clock.nodes += 1
            if clock.nodes >= due:
                clock.check(self.table() + self.counted.unshared())
                due = clock.due
            homes = self._expand(whole)
            if homes is None:
                return "won"
            for h in homes:  # tried first: pushed last
                if h not in seen:
                    seen.add(h)
                    stack.append(h)
        return "lost"

    def _root(self, limit: i64) -> bool:
        """Whether the counted game of the start is decided, asking it for ``limit`` more
        positions first (it may take millions, so it too goes in slices). If it is lost, so
        is the relaxed game: nothing is left to search."""
        counted = self.counted
        answer = counted.ask(counted.start, limit)
        if answer < 0:
            return False
        self.rooted = True
        if answer == 0:
            self.stack.clear()
        return True

    def _expand(self, whole: int) -> list[int] | None:
        """The moves from position ``whole``: those onto a host go on the stack at once
        (`_packs`), those home are returned, to be pushed last and so tried first (`_homes`);
        None if one wins. A move into a lost counted position is not made."""
        counted = self.counted
        key = whole.to_bytes(self.size, "little")  # read a byte a field
        tops = self.tops
        on_rank = self.on_rank
        counts = self.counts
        cols = counted.cols
        for r in range(15):
            on_rank[r] = 0
        for s in range(4):
            counts[s] = key[s]
        stride = self.stride
        for i in range(counted.ncols):
            base = self._base(key, i)
            tops[i] = base - key[5 + stride * i] if base else 0  # 14: a space (a king fills it)
            on_rank[tops[i]] += 1
            counts[4 + i] = key[4 + stride * i]
        ckey = counted.encode(counts)  # its counted position
        homes: list[int] = []
        for i in range(counted.ncols):
            r = tops[i]
            if not r or r == 14:
                continue
            k: i64 = key[4 + stride * i]
            tokens: i64 = key[5 + stride * i]
            # R1: a lone card stays (where a king fills a space, a lone king)
            packs = (k + tokens > 1 or (counted.kings and r < 13)) and on_rank[r + 1] > 0
            goes = False  # whether it may go home
            for s in range(4):
                if key[s] == r - 1:
                    goes = True
            if not packs and not goes:
                continue
            # what leaves column i: its top token (of a kept suit if its bit is set in that
            # suit's mask), or its top unmoved card
            top = tokens - 1
            left: int = whole
            card: i64 = -1  # the unmoved card that leaves (-1: a token)
            mask: i64 = -1  # the mask of the kept suit it is of (-1: none)
            if tokens:
                mask = self._marked(key, i, top)
                if mask >= 0:
                    left -= self.bit[(mask * counted.ncols + i) * 16 + top]
                left -= self.unit[5 + stride * i]
                cleft = ckey
            else:
                card = cols[i][k - 1]
                if card >> 2 <= key[card & 3] + self.window:
                    mask = self.mask_of[card & 3]
                left -= self.unit[4 + stride * i]
                cleft = ckey - counted.units[i]
            if packs and (tokens or counted.ask(cleft, QUESTION_LIMIT)):
                self._packs(key, i, r, left, mask)
            if goes and self._homes(key, r, card, left, cleft, mask, homes):
                return None
        return homes

    def _packs(self, key: bytes, i: i64, r: i64, left: int, mask: i64) -> None:
        """Push the moves of the card or token of rank ``r`` leaving column ``i`` (``left``:
        the position without it; ``mask``: the kept suit's mask it goes in, -1 if none) onto
        every other column whose top is one rank above."""
        tops = self.tops
        seen = self.seen
        ncols = self.counted.ncols
        for j in range(ncols):
            if tops[j] == r + 1 and j != i:
                on: i64 = key[5 + self.stride * j]
                packed = left + self.unit[5 + self.stride * j]
                if mask >= 0:
                    packed += self.bit[(mask * ncols + j) * 16 + on]
                if packed not in seen:
                    seen.add(packed)
                    self.stack.append(packed)

    def _homes(self, key: bytes, r: i64, card: i64, left: int, cleft: int, mask: i64,
               homes: list[int]) -> bool:
        """Add to ``homes`` the moves home of the unmoved ``card`` (-1: a token, of the kept
        suit of ``mask`` if that is not -1) of rank ``r`` leaving its column (``left``,
        ``cleft``: the position and counted position without it): to each pile it may go to,
        not yet seen, whose counted position is not lost. Whether one wins."""
        for s in range(4):
            if key[s] != r - 1:
                continue
            if card >= 0:  # an unmoved card goes home as itself
                if card & 3 != s:
                    continue
            elif mask >= 0:  # a kept token goes home as itself
                if s != self.kept[mask]:
                    continue
            elif self.mask_of[s] >= 0 or self._unmoved(key, r * 4 + s):
                continue  # another token goes home as a suit whose card is a token
            h = left + self.unit[s]
            if r == 13 and all(key[t] == 13 for t in range(4) if t != s):
                return True
            if h not in self.seen and self.counted.ask(cleft + (1 << 4 * s), QUESTION_LIMIT):
                if self.mask_of[s] >= 0 and r + self.window <= 13:
                    homes.extend(self._named(h, r + self.window, s))
                else:
                    homes.append(h)
        return False

    def _named(self, whole: int, rank: i64, suit: i64) -> list[int]:
        """The positions ``whole`` stands for once the card of ``rank`` of the kept ``suit``
        comes into the window: itself if that card is unmoved, otherwise one for each token
        of that rank, not of another kept suit, being the card (a column's run holds at most
        one token of a rank)."""
        counted = self.counted
        stride = self.stride
        key = whole.to_bytes(self.size, "little")
        if self._unmoved(key, rank * 4 + suit):
            return [whole]
        out: list[int] = []
        for j in range(counted.ncols):
            base = self._base(key, j)
            slot: i64 = base - 1 - rank  # its place in the run
            if base and 0 <= slot < key[5 + stride * j] and self._marked(key, j, slot) < 0:
                out.append(whole + self.bit[(self.mask_of[suit] * counted.ncols + j) * 16 + slot])
        return out

    def _marked(self, key: bytes, i: i64, slot: i64) -> i64:
        """Which kept suit's mask marks the token at ``slot`` of column ``i``'s run as that
        suit's card (its place in ``kept``), or -1 if none does."""
        for j in range(len(self.kept)):
            at = 6 + self.stride * i + 2 * j
            if (key[at] | key[at + 1] << 8) >> slot & 1:
                return j
        return -1

    def _base(self, key: bytes, i: i64) -> i64:
        """The rank column ``i``'s run of tokens goes on from, one above its first token: its
        top unmoved card's; with no unmoved card 14 where a space takes a king (the run starts
        with a king), else 0 (no run)."""
        k: i64 = key[4 + self.stride * i]
        if k:
            return self.counted.cols[i][k - 1] >> 2
        return 14 if self.counted.kings else 0

    def _unmoved(self, key: bytes, code: i64) -> bool:
        """Whether the card ``code`` (rank * 4 + suit) still lies in its place in ``key``:
        under its column's ``k``."""
        p: i64 = self.counted.place[code]
        return p >= 0 and (p & 255) < key[4 + self.stride * (p >> 8)]


class Room:
    """Where the tokens of a counted position may lie (docs/solver.md, *D4*): computed once
    per position from the tokens of each rank and the columns counted by the rank of their
    top unmoved card, so that `arrangeable` answers each question in a few steps.

    A column bears a run of tokens from one below its top unmoved card down, so, from the
    kings down, the tokens of a rank lie on runs going on from the rank above or starting on
    a card of the rank above: there is an arrangement if and only if no rank has more tokens
    than the rank above has tokens and free cards."""

    def __init__(self) -> None:
        # space[r] (1-13): how many more tokens of rank r could lie on the rank above (kings:
        # on the columns with no unmoved card, where a space takes a king)
        self.space = vec[i64]([0] * 14)
        self.none = False  # some rank has too many tokens already: no arrangement at all
        # runs[q]: 1 if some column's top card is above q and there are tokens of every rank
        # from q up to one below it, so that column may bear a run ending at q
        self.runs = vec[i64]([0] * 15)

    def load(self, tokens: vec[i64], bases: vec[i64]) -> None:
        """Read the tokens of each rank and the columns counted by their top card's rank."""
        self.none = False
        for r in range(13, 0, -1):
            self.space[r] = tokens[r + 1] + bases[r + 1] - tokens[r]
            self.none = self.none or self.space[r] < 0
            self.runs[r] = tokens[r] > 0 and (bases[r + 1] > 0 or self.runs[r + 1] > 0)

    def arrangeable(self, bare: i64, bare2: i64, low: i64) -> bool:
        """Whether the tokens can lie with a column whose top unmoved card has rank ``bare``
        and another whose top has rank ``bare2`` (0: no such column) bearing none, and some
        other column bearing a run whose last token has rank ``low`` (0: none), the bare
        columns' tops below ``low``. A bare column of top rank ``x`` takes one from the space
        of rank ``x - 1``; the run's column takes one from rank ``low - 1`` (its card and its
        tokens from ``low`` up, taken out, cancel above that)."""
        if self.none or (low and not self.runs[low]):
            return False
        space = self.space
        a = bare - 1
        b = bare2 - 1
        c = low - 1
        return ((a < 1 or space[a] >= 1 + (b == a) + (c == a))
                and (b < 1 or space[b] >= 1 + (a == b) + (c == b))
                and (c < 1 or space[c] >= 1 + (a == c) + (b == c)))
