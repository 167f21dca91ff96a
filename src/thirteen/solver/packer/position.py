"""A packer position as the search keeps it, played and taken back in place.

A column is a ``bytes`` of card codes (`encoding`); the canonical key of a position says,
four bits a card, where each card lies (or, where codes are shared, it is the columns sorted
and joined); the foundations follow from which cards are left: a suit's home cards are A..n,
even when cards come back (`Position.key`). Moves home that can never spoil a win are played
automatically (`Position.safe_home`, rules S1-S4 of docs/solver.md).
"""

from __future__ import annotations

from librt.vecs import append, pop, vec
from mypy_extensions import i64, u8

from ...packer import PackerState
from ..clock import Clock
from ..common import Budget
from .encoding import (
    BOTTOM,
    FOUNDATION,
    HOME,
    KING_PILE,
    MOVE_BITS,
    MOVE_MASK,
    NOWHERE,
    ONE_CARD,
    Snapshot,
    code_suit,
    coder,
    entry,
    packing,
)
from .tuning import BEAM_OUT, BEAM_PACKED, BEAM_TRAPPED


def _foundations(state: PackerState,
                 by_rank: bool) -> tuple[vec[i64], vec[i64], vec[i64], vec[i64]]:
    piles = state.foundations
    heights = vec[i64]([len(piles[s]) for s in range(4)])
    aces = vec[i64]([piles[s][-1].rank if piles[s] else 0 for s in range(4)])
    kings = vec[i64]([piles[4 + s][-1].rank if len(piles) > 4 and piles[4 + s] else 14
                      for s in range(4)])
    home = vec[i64]([4] + [0] * 14)
    if by_rank:
        for pile in piles:
            for c in pile:
                home[c.rank] += 1
    return heights, aces, kings, home


class Position:
    """One position of one search, with the tables that make its moves, keys and rules
    cheap; `ordering.Ordering`, `deadends.DeadEnds` and `search._Search` build on it."""

    def __init__(self, state: PackerState, budget: Budget, probe: bool = False) -> None:
        v = state.variant
        self.variant = v
        self.clock = Clock(budget)
        self.ncols: i64 = len(state.columns)
        self.bisley = v.kings_down
        self.rank_found = v.foundations == "rank" and not v.kings_down
        self.sequences = v.move_sequences
        self.space = v.space
        self.kings_space = v.space == "kings"  # a bool: rules D3 and D5 ask it at every test
        self.by_rank = v.build == "rank"  # a bool: `safe_home` asks at every move
        enc = coder(self.rank_found, v.build)
        self.cols = vec[bytes]([bytes(enc(c.rank, c.suit) for c in col) for col in state.columns])
        self.hid = vec[i64](list(state.hidden) if v.move_sequences else [0] * self.ncols)
        # Foundations: suit heights (fh), Bisley's ace tops (fa) and king bottoms (fk), and
        # for foundations by rank how many cards of each rank are home (home)
        self.fh, self.fa, self.fk, self.home = _foundations(state, self.rank_found)
        self.tt: set[bytes] = set()  # the positions searched (`search._Search`)
        self.key_size = 0  # `key_bytes` of the largest key (`start`)
        self.unique = enc is code_suit  # every card its own code: `key` may use `where`
        # hosts[code * HOST_STRIDE]: how many codes a card may be packed onto, then the codes;
        # pack_ok[card * 64 + target]: 1 if card packs onto target (the same as a table);
        # place[card * 64 + under]: `where`'s value for card lying on under. Made once per
        # rule set: probes are many.
        self.hosts, self.pack_ok, self.place = packing(v.build, enc)
        # where: four bits a card code (two codes a byte) saying where it lies: 1-4 on the
        # first to fourth of its hosts, 5 home (or not in the deck), 6 at the bottom of a
        # column, 0 on any other card, which can only be the card it lay on at the start
        # (cards move only onto hosts, into spaces or home); plus 8 while face down. So
        # the position can be read back from it (docs/solver.md, *Key*), in 30 bytes.
        self.where: vec[u8] = vec[u8]([0x55] * 30)  # set by `_lay`
        # col_of[code], at[code]: the column and height of each card (stale for a card at
        # home, which `fh` tells); lowest[code]: the lowest rank of each suit at or under the
        # card in its column, four bits a suit (15: none); trapped: a bit for each card that
        # lies above a lower card of its suit. `_place` keeps them where `dead` runs.
        self.col_of: vec[i64] = vec[i64]([0] * 60)
        self.at: vec[i64] = vec[i64]([0] * 60)
        self.lowest: vec[i64] = vec[i64]([0xFFFF] * 60)
        self.trapped: i64 = 0
        # Each column's urgency is stale (`Ordering`) where its bit is set: a move between
        # columns makes its two columns stale, a move to or from a foundation all.
        self._all: i64 = (1 << self.ncols) - 1
        self._stale: i64 = self._all
        self.trail = vec[i64]()  # the records of the moves played (`do`)
        # worry_back (suit foundations only, see `search_packer`): cards come back, so the
        # proofs of S1-S4 and D1-D3 fail; the exhaustive search plays no move home by itself
        # and proves no dead end. A probe may only find a solution, so it keeps both rules
        # as heuristics.
        self.worry = v.worry_back
        self.auto_on = probe or not self.worry
        self.dead_check = (
            not self.rank_found and not self.bisley and not self.sequences
            and v.space in ("none", "kings") and v.build in ("rank", "alternate")
            and not self.worry
        )
        self._lay()

    # ---- rules -----------------------------------------------------------------------------
    def home_target(self, card: i64) -> i64:
        """Where ``card`` may go home now (FOUNDATION or KING_PILE), or NOWHERE."""
        r, s = card >> 2, card & 3
        if self.bisley:
            if self.fa[s] == r - 1:
                return FOUNDATION
            if self.fk[s] == r + 1:
                return KING_PILE
            return NOWHERE
        if self.rank_found:
            return FOUNDATION if self.home[r] < self.home[r - 1] else NOWHERE
        return FOUNDATION if self.fh[s] == r - 1 else NOWHERE

    def safe_home(self, card: i64) -> i64:
        """A move home that can never spoil a win (docs/solver.md, rules S1-S4), or NOWHERE."""
        target = self.home_target(card)
        if target == NOWHERE:
            return NOWHERE
        if self.bisley:
            return target  # S4: every Bisley move home is safe
        r = card >> 2
        if self.rank_found:
            return target if self.home[r - 1] == 4 else NOWHERE  # S3
        fh = self.fh
        if self.by_rank:
            # S1 (min of two and two: mypyc compiles a min of two native ints inline, and
            # calls Python's builtin for more)
            return target if min(min(fh[0], fh[1]), min(fh[2], fh[3])) >= r - 2 else NOWHERE
        red = (card & 3) >= 2  # S2: alternate colours
        same = (2, 3) if red else (0, 1)
        opp = (0, 1) if red else (2, 3)
        for s2 in opp:
            if fh[s2] >= r - 1:
                continue
            if fh[s2] == r - 2 and all(fh[x] >= r - 2 for x in same):
                continue
            return NOWHERE
        return target

    # ---- making and taking back moves -----------------------------------------------------
    def do(self, m: i64) -> i64:
        """Play move ``m`` (an `entry`); returns its record for `undo`: the move, the
        source's old face-down count and the card a move home takes."""
        src = (m >> 8 & 31) - 4
        dst = (m >> 4 & 15) - 2
        n = m & 15
        rec = m & MOVE_MASK
        self._stale |= self._all if src < 0 or dst < 0 else 1 << src | 1 << dst
        cols = self.cols
        if src < 0:  # worry-back: the foundation's top card onto column dst
            s = -1 - src
            card = self.fh[s] * 4 + s
            self._put(card, cols[dst][-1] if len(cols[dst]) else BOTTOM)
            self._place(ONE_CARD[card], dst)
            cols[dst] = cols[dst] + ONE_CARD[card]
            self.fh[s] -= 1
            return rec
        col = cols[src]
        moved = col[-n:]
        cols[src] = col[:-n]
        old_hid = self.hid[src]
        if old_hid and old_hid > len(col) - n - 1:
            self.hid[src] = max(len(col) - n - 1, 0)
            for k in range(self.hid[src], old_hid):  # turned face up
                self._flip(col[k])
        if dst >= 0:
            self._put(moved[0], cols[dst][-1] if len(cols[dst]) else BOTTOM)
            self._place(moved, dst)
            cols[dst] = cols[dst] + moved
        else:
            self._put(moved[0], HOME)
            c = moved[0]
            self.trapped &= ~(1 << c)
            if self.bisley:
                if dst == FOUNDATION:
                    self.fa[c & 3] += 1
                else:
                    self.fk[c & 3] -= 1
            elif self.rank_found:
                self.home[c >> 2] += 1
            else:
                self.fh[c & 3] += 1
            rec |= c << (MOVE_BITS + 6)
        return rec | old_hid << MOVE_BITS

    def undo(self, rec: i64) -> None:
        """Take back the move of record ``rec`` (`do`)."""
        src = (rec >> 8 & 31) - 4
        dst = (rec >> 4 & 15) - 2
        n = rec & 15
        old_hid = rec >> MOVE_BITS & 63
        self._stale |= self._all if src < 0 or dst < 0 else 1 << src | 1 << dst
        cols = self.cols
        if src < 0:
            self._put(cols[dst][-1], HOME)
            cols[dst] = cols[dst][:-1]
            self.fh[-1 - src] += 1
            return
        if dst >= 0:
            col = cols[dst]
            moved = col[-n:]
            cols[dst] = col[:-n]
        else:
            c = rec >> (MOVE_BITS + 6)
            moved = ONE_CARD[c]
            if self.bisley:
                if dst == FOUNDATION:
                    self.fa[c & 3] -= 1
                else:
                    self.fk[c & 3] += 1
            elif self.rank_found:
                self.home[c >> 2] -= 1
            else:
                self.fh[c & 3] -= 1
        old = cols[src]
        self._put(moved[0], old[-1] if len(old) else BOTTOM)
        self._place(moved, src)
        cols[src] = old + moved
        for k in range(self.hid[src], old_hid):  # face down again
            self._flip(old[k])
        self.hid[src] = old_hid

    def _put(self, card: i64, under: i64) -> None:
        """Note in `where` that ``card`` (face up) lies on ``under`` (a code, BOTTOM or HOME)."""
        i = card >> 1
        shift = (card & 1) * 4
        w = i64(self.where[i])
        self.where[i] = u8(w & 0xF0 >> shift | self.place[card * 64 + under] << shift)

    def _flip(self, card: i64) -> None:
        """Turn ``card`` over in `where` (face up <-> face down)."""
        i = card >> 1
        w = i64(self.where[i])
        self.where[i] = u8(w ^ 8 << (card & 1) * 4)

    def _place(self, cards: bytes, ci: i64) -> None:
        """Note in `col_of`, `at`, `lowest` and `trapped` that ``cards`` go on top of column
        ``ci`` (only `dead` reads them)."""
        if not self.dead_check:
            return
        col = self.cols[ci]
        base = len(col)
        # i64 said: inferred, the literal made it an `int`, whose `&` went through Python
        low: i64 = self.lowest[col[-1]] if base else 0xFFFF
        trapped = self.trapped
        kings_space = self.kings_space
        for k in range(len(cards)):
            c = cards[k]
            self.col_of[c] = ci
            self.at[c] = base + k
            shift = (c & 3) * 4
            r = c >> 2
            least = low >> shift & 15
            if least < r and not (kings_space and r == 13):
                trapped |= 1 << c
            else:
                trapped &= ~(1 << c)
                if r < least:
                    low = low & ~(15 << shift) | r << shift
            self.lowest[c] = low
        self.trapped = trapped

    def auto(self) -> None:
        """Play safe moves home until none is left, appending their records to the trail."""
        cols = self.cols
        again = True
        while again:
            again = False
            for i in range(self.ncols):
                col = cols[i]
                if len(col):
                    card = col[-1]
                    t = self.safe_home(card)
                    if t != NOWHERE:
                        self.trail = append(self.trail, self.do(entry(0, i, t, 1)))
                        again = True

    def take_back(self, mark: i64) -> None:
        """Take back the moves of the trail after its first ``mark``."""
        while len(self.trail) > mark:
            self.trail, rec = pop(self.trail)
            self.undo(rec)

    def snapshot(self) -> Snapshot:
        """The position in plain values, for `load`: `beam` keeps one per position of a
        layer and goes from one to the next without a path of moves between them."""
        return (tuple(list(self.cols)), bytes(list(self.hid)),
                bytes(list(self.fh) + list(self.fa) + list(self.fk) + list(self.home)))

    def load(self, snap: Snapshot) -> None:
        """Set the position to ``snap`` (`snapshot`), with an empty trail."""
        cols, hid, piles = snap
        for s in range(4):
            self.fh[s] = piles[s]
            self.fa[s] = piles[4 + s]
            self.fk[s] = piles[8 + s]
        for r in range(15):
            self.home[r] = piles[12 + r]
        for ci in range(self.ncols):
            self.cols[ci] = cols[ci]
            self.hid[ci] = hid[ci]
        self._lay()
        self._stale = self._all
        self.trail = vec[i64]()

    def _lay(self) -> None:
        """Note where every card of `cols` lies, from scratch: `where`, and the places that
        `_place` keeps (a new search, `load`)."""
        for i in range(30):
            self.where[i] = 0x55
        self.trapped = 0
        for ci in range(self.ncols):
            col = self.cols[ci]
            self.cols[ci] = b""
            self._place(col, ci)
            self.cols[ci] = col
            for idx in range(len(col)):
                self._put(col[idx], col[idx - 1] if idx else BOTTOM)
                if idx < self.hid[ci]:
                    self._flip(col[idx])

    def value(self) -> i64:
        """How promising the position looks to `beam`, large is good: each card still out
        costs `BEAM_OUT`, each card that lies above a lower card of its suit (it must find a
        host before that card can go home) `BEAM_TRAPPED`, and each card packed on a host
        earns `BEAM_PACKED` (docs/solver.md, *Beams*). Counted here for every game: only
        the games with the dead-end check keep `trapped`."""
        pack_ok = self.pack_ok
        score: i64 = 0
        for ci in range(self.ncols):
            col = self.cols[ci]
            low: i64 = 0xFFFF  # the lowest rank of each suit so far, four bits a suit
            for idx in range(len(col)):
                c: i64 = col[idx]
                score -= BEAM_OUT
                if idx and pack_ok[c * 64 + col[idx - 1]]:
                    score += BEAM_PACKED
                shift = (c & 3) * 4
                least = low >> shift & 15
                if least < c >> 2:
                    score -= BEAM_TRAPPED
                else:
                    low = low & ~(15 << shift) | (c >> 2) << shift
        return score

    # ---- keys, dead ends, move lists -------------------------------------------------------
    def key(self) -> bytes:
        """The position up to the order of the columns. Where every card has its own code
        (suits kept), that is where each card lies and whether it is face down (`where`),
        kept up to date by `do` and `undo`: no sorting. Otherwise the columns sorted (with
        their face-down counts)."""
        if self.unique:
            return bytes(self.where)
        if self.sequences:
            return b"\0".join(sorted(bytes([h]) + c for h, c in zip(self.hid, self.cols,
                                                                  strict=True)))
        return b"\0".join(sorted(self.cols))

    def key_after(self, src: i64, dst: i64) -> bytes:
        """The `key` after the top card of column ``src`` moves onto column ``dst``, where the
        key is `where` and nothing else changes (no card turns face up, nothing goes home)."""
        c: i64 = self.cols[src][-1]
        where = self.where
        i = c >> 1
        was = where[i]
        self._put(c, self.cols[dst][-1] if len(self.cols[dst]) else BOTTOM)
        k = bytes(where)
        where[i] = was
        return k

    def peek(self, src: i64, dst: i64) -> bytes:
        """The `key` after the move of the top card of column ``src`` onto ``dst``, read
        without playing it where that is cheap (`key_after`), else empty. Most moves tried
        lead to a position seen before, and a single card moved between columns with no safe
        move after it changes one entry of `where` (where that is the key and no card turns
        face up). Before the move no safe move was left; a move between columns changes no
        foundation, so only the source's new top card can have become safe."""
        if not self.unique or self.sequences or src < 0 or dst < 0:
            return b""
        col = self.cols[src]
        if self.auto_on and len(col) > 1 and self.safe_home(col[len(col) - 2]) != NOWHERE:
            return b""
        return self.key_after(src, dst)

    def exact(self) -> tuple[bytes, ...]:
        """The position with its columns in their order (`shortcut` replays moves by column)."""
        return (*list(self.cols), bytes(list(self.hid)))

    def won(self) -> bool:
        return all(len(self.cols[k]) == 0 for k in range(self.ncols))

