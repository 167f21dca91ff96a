"""Search for the Baker's Dozen family (packers), on a compact internal representation.

A column is a ``bytes`` object of card codes (``rank * 4 + suit``, bottom card first); the
canonical key of a position says, four bits a card, where each card lies (or, where codes
are shared, it is the columns sorted and joined); the foundations follow from which cards
are left: a suit's home cards are A..n, even when cards come back (`_Search.key`). The
search is a depth-first search with a transposition table of keys, provably safe moves to
the foundations played automatically, dominance cuts between moves and dead-end proofs
(`_Search.dead`, `_Search.stuck`, and the relaxed game of `relaxed`); every rule is argued in
docs/solver.md. It runs in slices interleaved with randomised probes (`portfolio`) against
depth-first search's heavy tail.
With ``worry_back`` the search without worry-back moves runs first; the search with them
plays nothing home by itself and proves no dead end (`search_packer`; foundations by rank:
`engine_search`).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Hashable, Iterator
from typing import Final

from librt.vecs import append, pop, vec
from mypy_extensions import i64, u8

from ..cards import KING, SUIT_NAMES
from ..moves import Move, Place
from ..packer import PackerState
from .common import (
    Budget,
    Clock,
    OutOfBudget,
    Result,
    Verdict,
    checked_result,
    key_bytes,
    table_bytes,
)
from .relaxed import QUESTION_LIMIT, Counted, Relaxed, fits

# Module constants are Final: mypyc compiles them in instead of a dictionary look-up per use.
FOUNDATION: Final = -1  # internal move target: the suit (or rank, or Bisley ace) foundation
KING_PILE: Final = -2  # internal move target: Bisley's king pile of the card's suit
NOWHERE: Final = 0  # `_Search.home_target`: the card may not go home now
BOTTOM: Final = 60  # `_Search._put`: the card lies at the bottom of its column
HOME: Final = 61  # `_Search._put`: the card is home (codes go up to 55)
ONE_CARD: Final = [bytes([c]) for c in range(64)]  # each code as a one-card bytes, made once


Snapshot = tuple[tuple[bytes, ...], bytes, bytes]  # `_Search.snapshot`
IMove = tuple[int, int, int]  # (source, target column or FOUNDATION/KING_PILE, count)
# A source below zero is a worry-back: the top of suit ``-1 - source``'s foundation.
# Inside the search a move is one int, `_entry`'s low `MOVE_BITS` (`unpack` reads it), so that
# move lists and the trail of played moves hold no tuples: a trail record is the move, the
# source's old face-down count and, for a move home, the card (`_Search.do`).


_PACKING: dict[tuple[str, Callable[[int, int], int]], tuple[vec[i64], bytes, bytes]] = {}
HOST_STRIDE: Final = 5  # `_packing`'s hosts: per code, how many hosts, then up to four


def _packing(build: str, enc: Callable[[int, int], int]) -> tuple[vec[i64], bytes, bytes]:
    """`_Search.hosts`, `_Search.pack_ok` and `_Search.place` for a way of building and of
    coding cards."""
    known = _PACKING.get((build, enc))
    if known is not None:
        return known
    hosts: list[tuple[int, ...]] = [() for _ in range(60)]
    for r in range(1, 14):
        for s in range(4):
            if build == "suit-up-or-down":
                hs = [enc(r2, s) for r2 in (r - 1, r + 1) if 1 <= r2 <= 13]
            elif r < 13:
                hs = [enc(r + 1, s2) for s2 in range(4)
                      if build == "rank" or (s2 >= 2) != (s >= 2)]
            else:
                hs = []
            hosts[enc(r, s)] = tuple(sorted(set(hs)))
    table = bytearray(64 * 64)
    for card in range(60):
        for target in hosts[card]:
            table[card * 64 + target] = 1
    flat = vec[i64]([0] * (60 * HOST_STRIDE))
    for card in range(60):
        flat[card * HOST_STRIDE] = len(hosts[card])
        for k, h in enumerate(hosts[card]):
            flat[card * HOST_STRIDE + 1 + k] = h
    place = bytearray(64 * 64)
    for card in range(64):
        place[card * 64 + HOME] = 5
        place[card * 64 + BOTTOM] = 6
    for card in range(60):
        for k, h in enumerate(hosts[card]):
            place[card * 64 + h] = 1 + k
    known = _PACKING[build, enc] = (flat, bytes(table), bytes(place))
    return known


def _least(a: int, b: int) -> int:
    """The four-bit fields of ``a`` and ``b`` (ranks of the four suits), each the lesser."""
    out = 0
    for shift in (0, 4, 8, 12):
        out |= min(a >> shift & 15, b >> shift & 15) << shift
    return out


def _code(rank: int, suit: int) -> int:
    return rank * 4 + suit


def _code_rank(rank: int, suit: int) -> int:
    """Foundations by rank and building by rank: no rule reads the suit."""
    return rank * 4


def _code_colour(rank: int, suit: int) -> int:
    """Foundations by rank and building by colour: only the colour is read."""
    return rank * 4 + (2 if suit >= 2 else 0)


class _Search:
    """One search over one position; see the module docstring."""

    def __init__(self, state: PackerState, budget: Budget, probe: bool = False) -> None:
        v = state.variant
        self.variant = v
        self.clock = Clock(budget)
        self.ncols: i64 = len(state.columns)
        self.bisley = v.kings_down
        self.rank_found = v.foundations == "rank" and not v.kings_down
        self.sequences = v.move_sequences
        self.space = v.space
        self.build = v.build
        # Suits nobody reads are dropped from the codes, so equal positions share a key.
        enc: Callable[[int, int], int] = _code
        if self.rank_found and v.build == "rank":
            enc = _code_rank
        elif self.rank_found and v.build == "alternate":
            enc = _code_colour
        self.cols = vec[bytes]([bytes(enc(c.rank, c.suit) for c in col) for col in state.columns])
        self.hid = vec[i64](list(state.hidden) if v.move_sequences else [0] * self.ncols)
        # Foundations: suit heights, rank counts, or Bisley's ace tops and king bottoms.
        piles = state.foundations
        self.fh: vec[i64] = vec[i64]([len(piles[s]) for s in range(4)])
        self.fa = vec[i64]([piles[s][-1].rank if piles[s] else 0 for s in range(4)])
        self.fk = vec[i64]([piles[4 + s][-1].rank if len(piles) > 4 and piles[4 + s] else 14
                            for s in range(4)])
        self.home = vec[i64]([4] + [0] * 14)  # rank foundations: cards of each rank home
        if self.rank_found:
            for pile in piles:
                for c in pile:
                    self.home[c.rank] += 1
        self.tt: set[bytes] = set()
        self.unique = enc is _code  # every card its own code: `key` may use `where`
        # hosts[code * HOST_STRIDE]: how many codes a card may be packed onto, then the codes;
        # pack_ok[card * 64 + target]: 1 if card packs onto target (the same as a table);
        # place[card * 64 + under]: `where`'s value for card lying on under. Made once per
        # rule set: probes are many.
        self.hosts, self.pack_ok, self.place = _packing(v.build, enc)
        # where: four bits a card code (two codes a byte) saying where it lies: 1-4 on the
        # first to fourth of its hosts, 5 home (or not in the deck), 6 at the bottom of a
        # column, 0 on any other card, which can only be the card it lay on at the start
        # (cards move only onto hosts, into spaces or home); plus 8 while face down. So
        # the position can be read back from it (docs/solver.md, *Key*), in 30 bytes.
        self.where: vec[u8] = vec[u8]([0x55] * 30)  # set by `_lay`
        # `moves`' scratch, all zero between calls: on_top[code] is 1 + the first column whose
        # top card has that code, next_top[j] 1 + the next such column after column j.
        self._on_top: vec[i64] = vec[i64]([0] * 60)
        self._next_top: vec[i64] = vec[i64]([0] * self.ncols)
        # col_of[code], at[code]: the column and height of each card (stale for a card at
        # home, which `fh` tells); lowest[code]: the lowest rank of each suit at or under the
        # card in its column, four bits a suit (15: none); trapped: a bit for each card that
        # lies above a lower card of its suit. `_place` keeps them where `dead` runs.
        self.col_of: vec[i64] = vec[i64]([0] * 60)
        self.at: vec[i64] = vec[i64]([0] * 60)
        self.lowest: vec[i64] = vec[i64]([0xFFFF] * 60)
        self.trapped: i64 = 0
        self._tz = vec[i64]([0] * 60)  # `dead`'s scratch: the cards of T
        self._ceil = vec[i64]([-1] * self.ncols)  # `dead`'s scratch: the top of Z by column
        self.strong_dead = False  # rule D2: sound, but measured not to pay for itself (docs)
        # Rule D3 (`stuck`): per set of home cards (four heights), the suitless positions
        # known to uncover no card that could go home and those known to uncover one, and
        # the memory they hold (estimated, `STUCK_SLOT_BYTES`).
        self.stuck_seen: dict[bytes, tuple[set[bytes], set[bytes]]] = {}
        self.stuck_bytes: i64 = 0
        self.stuck_nodes: i64 = 0  # the positions its searches took
        self.noise: i64 = 0  # probes: random noise added to move scores, up to this much
        # per unit of urgency in move scores; 0 in an unguided probe, whose order is its noise
        self.weight: i64 = URGENCY
        self.rng = random.Random(0)
        # Each column's `_urgency`, and a bit for each column whose value is stale: a move
        # between columns makes its two columns stale, a move to or from a foundation all.
        self._urg: vec[i64] = vec[i64]([0] * self.ncols)
        self._all: i64 = (1 << self.ncols) - 1
        self._stale: i64 = self._all
        self.prefix: list[IMove] = []
        self.key_size = 0  # `key_bytes` of the largest key (`start`)
        # The depth-first search: each level's moves (`_entry` ints, best first) and the index
        # of the next to try; the trail of records (`do`) and where each level's starts.
        self.stack: list[vec[i64]] = []
        self.pos = vec[i64]()
        self.trail = vec[i64]()
        self.marks = vec[i64]()
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
        self.stuck_on = self.dead_check and self.space == "none" and not probe  # D3: exhaustive
        # Rule D4 (`hopeless`): the deal's counted game, shared by its searches (`portfolio`)
        self.counted: Counted | None = None
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
        if self.build == "rank":
            return target if min(fh[0], fh[1], fh[2], fh[3]) >= r - 2 else NOWHERE  # S1
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
        """Play move ``m`` (an `_entry`); returns its record for `undo`: the move, the
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
        low = self.lowest[col[-1]] if base else 0xFFFF
        trapped = self.trapped
        kings_space = self.space == "kings"
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
                        self.trail = append(self.trail, self.do(_entry(0, i, t, 1)))
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

    def dead(self) -> bool:
        """True if no winning line can remain (rules D1 and D2 of docs/solver.md).

        T starts as every card that lies above a lower card of its own suit: such a card
        must leave its column by packing onto a host before it can go home. Let c* be the
        card of T that leaves first. Z is the set of cards that cannot leave their place
        before c* does: T, every card under a card of Z, and every card that cannot go home
        before c* (a lower card of its suit is in Z) and whose hosts are all home or under
        a card of Z. A card of T with a host that is neither is dropped from T (it might be
        c*), and Z is recomputed, until nothing changes. If T is not empty then, c* has no
        host at its turn: the position is lost.
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
            # ceil[ci]: the highest place in column ci held by a card of Z; every card at or
            # under it is in Z, so a host strictly under it stays covered until c* leaves.
            for ci in range(len(ceil)):
                ceil[ci] = -1
            for t in range(n):
                c = tz[t]
                if at[c] > ceil[col_of[c]]:
                    ceil[col_of[c]] = at[c]
            if self.strong_dead:
                self._grow_frozen(ceil)
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

    def _grow_frozen(self, ceil: vec[i64]) -> None:
        """Raise ``ceil`` while some card cannot leave its place before c* does (rule D2):
        it cannot go home first (a lower card of its suit is in Z) and each of its hosts
        is home or strictly under a card of Z."""
        cols = self.cols
        hosts = self.hosts
        col_of = self.col_of
        at = self.at
        fh = self.fh
        kings_space = self.space == "kings"
        lowest = self.lowest
        low = 0xFFFF  # the lowest rank of each suit in Z, four bits a suit (15: none)
        for ci, col in enumerate(cols):
            if ceil[ci] >= 0:
                low = _least(low, lowest[col[ceil[ci]]])
        changed = True
        while changed:
            changed = False
            for ci, col in enumerate(cols):
                top = ceil[ci]
                for idx in range(len(col) - 1, top, -1):
                    c = col[idx]
                    if (low >> (c & 3) * 4 & 15) > c >> 2:
                        continue  # it may go home before c*
                    if kings_space and c >> 2 == 13:
                        continue  # a space may take it
                    base = c * HOST_STRIDE
                    for k in range(base + 1, base + 1 + hosts[base]):
                        e = hosts[k]
                        if e >> 2 <= fh[e & 3]:
                            continue  # home
                        ce = col_of[e]
                        if at[e] >= ceil[ce] and not (ce == ci and at[e] < idx):
                            break  # a host it may reach
                    else:
                        low = _least(low, lowest[col[idx]])
                        ceil[ci] = idx
                        changed = True
                        break

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
                if len(col) < 2:
                    continue  # R1: a lone card never moves
                c = col[-1]
                want = c % 100 + 1  # the rank of its hosts
                for j in range(len(pos)):
                    dest = pos[j]
                    if j == i or not len(dest):
                        continue
                    if dest[-1] % 100 != want:
                        continue
                    after = list(pos)
                    after[i] = col[:-1]
                    after[j] = dest + col[-1:]
                    key = b"\0".join(sorted(after))
                    if col[-2] >= 100 or key in free:  # a card that may go home uncovered
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

    def closed(self, m: i64, mark: i64) -> bool:
        """Whether the position after move ``m`` (`changed`) is a proved dead end, by rule D1
        or, if the move changed what it reads, rule D4: what the rollouts never enter."""
        return (self.dead_check and self.dead()) or (
            self.counted is not None and self.changed(m, mark) and self.hopeless())

    def hopeless(self) -> bool:
        """Rule D4 inside a search (docs/solver.md): whether the counted game of the
        position (the heights, and each column's cards up to its top unmoved one) is lost."""
        counted = self.counted
        if counted is None:
            return False
        cols = self.cols
        counts = bytearray(4 + self.ncols)
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
            counts[4 + ci] = k
        key = counted.encode(counts, 4, 1)
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

    def moves(self) -> vec[i64]:
        """Candidate moves as `_entry` ints, best first (safe moves home are already played)."""
        cols = self.cols
        ncols = self.ncols
        out = vec[i64](capacity=48)  # `_entry` ints: score and move in one, so sorting is cheap
        urgency = self._urgencies() if self.weight else self._urg  # unguided: not read
        first_space = -1
        for j in range(ncols):
            if not len(cols[j]):
                first_space = j
                break
        space = self.space
        # which lone cards may move: none where spaces are never filled (R1), kings only
        # where only kings fill them (R2: a lone card into a space changes nothing)
        lone_still = space == "none"
        kings_only = space == "kings"
        on_top = self._on_top
        next_top = self._next_top
        for j in range(ncols):
            if len(cols[j]):
                next_top[j] = on_top[cols[j][-1]]
                on_top[cols[j][-1]] = j + 1
        for i in range(ncols):
            col = cols[i]
            if not len(col):
                continue
            c: i64 = col[-1]
            t = self.home_target(c)
            if t != NOWHERE:
                out = append(out, _entry(HOME_SCORE, i, t, 1))
                if self.bisley and t == FOUNDATION and self.fk[c & 3] == (c >> 2) + 1:
                    out = append(out, _entry(HOME_SCORE, i, KING_PILE, 1))
            lone = len(col) == 1
            if not self.sequences:
                if lone and (lone_still or (kings_only and c >> 2 == 13)):
                    continue  # R1/R2: a lone card that moves only empties a useless column
                ui = self.weight * urgency[i]
                out = self._packs(c, i, 1, ui, urgency, out)
                if first_space >= 0 and not lone and (
                        space == "any" or (kings_only and c >> 2 == 13)):
                    out = append(out, _entry(ui + SPACE_PENALTY, i, first_space, 1))
            else:
                run = self.run_length(i)
                ui = self.weight * urgency[i]
                for n in range(1, run + 1):
                    split = SPLIT_PENALTY if n < run else 0
                    out = self._packs(col[-n], i, n, ui + RUN_CARD * n + split, urgency, out)
                    if first_space >= 0 and n < len(col) and space == "any":
                        out = append(out, _entry(ui + SPACE_PENALTY + RUN_CARD * n, i,
                                                 first_space, n))
        for j in range(ncols):
            if len(cols[j]):
                on_top[cols[j][-1]] = 0
        if self.worry:
            out = self._worry_moves(out, first_space)
        if self.noise:
            rnd = self.rng.random
            noise = float(self.noise)
            for k in range(len(out)):
                out[k] += int(noise * rnd()) << MOVE_BITS
        _sort(out)
        return out

    def _packs(self, card: i64, i: i64, n: i64, score: i64, urgency: vec[i64],
               out: vec[i64]) -> vec[i64]:
        """Append the moves of the ``n`` cards of column ``i`` whose bottom is ``card`` onto
        each column whose top takes it (`_on_top`), scored ``score`` less the target's
        urgency: burying an urgent column comes last."""
        on_top = self._on_top
        next_top = self._next_top
        weight = self.weight
        hosts = self.hosts
        base = card * HOST_STRIDE
        for k in range(base + 1, base + 1 + hosts[base]):
            j = on_top[hosts[k]] - 1
            while j >= 0:
                if j != i:
                    out = append(out, _entry(score - weight * urgency[j], i, j, n))
                j = next_top[j] - 1
        return out

    def _urgencies(self) -> vec[i64]:
        """Each column's `_urgency`, recomputed only where stale."""
        urg = self._urg
        stale = self._stale
        while stale:
            b = stale & -stale
            stale ^= b
            i = int(b).bit_length() - 1
            urg[i] = self._urgency(self.cols[i])
        self._stale = 0
        return urg

    def _worry_moves(self, out: vec[i64], first_space: int) -> vec[i64]:
        """Foundation tops back onto a column top they pack onto, or into the first space
        (R2), after every other move: they only give a card a host."""
        cols = self.cols
        space = self.space
        for s in range(4):
            r = self.fh[s]
            if not r:
                continue
            card = r * 4 + s
            for j in range(self.ncols):
                cj = cols[j]
                if len(cj):
                    if self.pack_ok[card * 64 + cj[-1]]:
                        out = append(out, _entry(WORRY_SCORE, -1 - s, j, 1))
                elif j == first_space and (space == "any" or (space == "kings" and r == 13)):
                    out = append(out, _entry(WORRY_SCORE + SPACE_PENALTY, -1 - s, j, 1))
        return out

    def run_length(self, i: i64) -> i64:
        col = self.cols[i]
        limit = len(col) - self.hid[i]
        n = 1
        while n < limit and self.pack_ok[col[-n] * 64 + col[-n - 1]]:
            n += 1
        return n

    def _urgency(self, col: bytes) -> i64:
        """How soon this column hides a card the foundations want: small is urgent. The
        least, over its cards, of 4 per card its foundation takes first plus 1 per card on
        top of it (weights measured on deals: docs/solver.md, *Search*)."""
        best: i64 = 99
        depth: i64 = len(col)
        fh = self.fh
        plain = not self.bisley and not self.rank_found
        for idx in range(depth):
            c: i64 = col[idx]
            r = c >> 2
            d: i64
            if plain:
                d = r - fh[c & 3] - 1
            elif self.bisley:
                s = c & 3
                d = min(r - self.fa[s], self.fk[s] - r) - 1
            else:
                d = 0 if self.home[r] < self.home[r - 1] else r - 1 - max(
                    k for k in range(14) if self.home[k] > self.home[k + 1] or k == 13)
            score = d * 4 + (depth - 1 - idx)
            if score < best:
                best = score
        return best

    # ---- the search ------------------------------------------------------------------------
    def start(self) -> tuple[Verdict, list[IMove], str] | None:
        """Set up the depth-first search; a verdict if the root already decides it."""
        self.trail = vec[i64]()
        if self.auto_on:
            self.auto()
        self.prefix = [unpack(r) for r in self.trail]
        if self.won():
            return "solved", self.prefix, ""
        self.tt.add(self.key())
        if self.dead_check and self.dead():
            return "unsolvable", [], "dead end (rules D1-D2) at the start"
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
        stuck_on = self.stuck_on
        counted_on = self.counted is not None
        auto_on = self.auto_on
        cols = self.cols
        nodes: i64 = clock.nodes  # a local, written back before `check` and on leaving
        stop = nodes + limit
        while stack:
            level = stack[-1]
            top = len(self.pos) - 1
            i = self.pos[top]
            if i == len(level):
                stack.pop()
                self.pos, _ = pop(self.pos)
                if len(self.marks):
                    self.marks, mark = pop(self.marks)
                    self.take_back(mark)
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
                if auto_on and (src < 0 or dst < 0 or (
                        len(cols[src]) and self.safe_home(cols[src][-1]) != NOWHERE)):
                    self.auto()
                # only a move home can win
                if (dst < 0 or len(self.trail) > mark + 1) and self.won():
                    clock.nodes = nodes
                    return "solved", self.prefix + [unpack(r) for r in self.trail], ""
                k = self.key()
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
            # Rules D3 and D4, where the answer may differ from the parent's (`changed`):
            # any other move can be undone, so the position reaches what its parent
            # reaches, and asking would repeat the parent's answer (not cut, so not lost).
            late_d3 = stuck_on and nodes >= STUCK_AFTER
            changed = (late_d3 or counted_on) and self.changed(m, mark)
            if late_d3 and changed:
                before = self.stuck_nodes
                cut = self.stuck()
                if self.stuck_nodes != before:
                    nodes += self.stuck_nodes - before
                    clock.nodes = nodes
                    clock.check(table_bytes(tt, self.key_size, every) + self.stuck_bytes)
                    due = clock.due
                if cut:
                    self.take_back(mark)
                    continue
            if counted_on and changed:
                clock.nodes = nodes
                cut = self.hopeless()
                nodes = clock.nodes
                if cut:
                    self.take_back(mark)
                    continue
            self.marks = append(self.marks, mark)
            stack.append(self.moves())
            self.pos = append(self.pos, 0)
            if nodes >= stop:
                clock.nodes = nodes
                return None
        clock.nodes = nodes
        return "unsolvable", [], "search space exhausted"


def portfolio(main: _Search, state: PackerState,
              budget: Budget) -> tuple[Verdict, list[IMove], str]:
    """The exhaustive depth-first search, interleaved with randomised probes.

    Depth-first search has a heavy tail: one early wrong turn can cost millions of
    positions. So slices of the exhaustive search (the only one that may answer
    ``unsolvable``) alternate with as many positions of probes: restarts that order moves with
    random noise and keep their own, discarded, tables, each `PROBE_UNIT` times the next term
    of the Luby sequence long (many short tries, a few long ones). Slices grow by half each
    round. After `UNGUIDED_AFTER` positions every second probe ignores urgency (its order is
    the noise, moves home still first): the deals that outlast the guided probes mostly need
    a line the guided order ranks low, and noise around that order rarely reaches it. After
    `LATE_AFTER` positions every probe is unguided and the probes get `LATE_PROBES` times the
    slice: the Good Measure deals that take millions of positions are solved by short
    unguided probes, while only lost deals still need the exhaustive search. After
    `BEAM_AFTER` positions a quarter of the probes' time goes to beam searches (`beam`) of
    doubling widths instead: they solve some of those deals in far fewer positions than the
    probes take, and others not at all (docs/solver.md, *Beams*). Before both, after
    `NESTED_AFTER` positions, half the probes' share goes to nested rollout searches
    (`nested`), which solve most of the deals that outlast the probes (*Nested rollouts*).
    Where rule D3 applies, after `RELAXED_AFTER` positions every search drops moves into
    positions whose counted game of rule D4 is lost (`Counted`, one memo for all), and the
    relaxed game (`Relaxed`) is searched from the start too, `RELAXED_SHARE` times the slice
    a round: if it cannot be won the deal is lost, which it shows in far fewer positions than
    the exhaustive search (*D4*). Once it is won, after `KEPT_AFTER` positions, the finer
    relaxed games that keep one suit each take turns in the exhaustive search's place, with
    its slice, until none is left: each suit within the narrowest of `WINDOWS`, then the suits
    won there within the next.
    While the counted game of the start is still undecided after `LATE_AFTER` positions,
    the probes' share goes to it instead (*D4*). After `SPLIT_AFTER` positions, where rule
    D4 applies, the frontier search (`Split`) gets `SPLIT_SHARE` halves of each slice on top:
    it searches every beginning in turn and never enters one proved lost again, which
    restarts from the start do (*The frontier search*).
    """
    clock = main.clock
    verdict = main.start()
    if verdict is not None:
        return verdict
    # Rule D4 where D3 applies, after `RELAXED_AFTER` positions (the deals decided sooner
    # do without it): the counted game, asked by every search after each move that changes
    # it, and the relaxed game (`Relaxed`), searched from the start, `RELAXED_SHARE` times
    # the main search's slice a round.
    counted = Counted(state, clock) if main.stuck_on and fits(state) else None
    relaxed = Relaxed(counted) if counted is not None else None
    kept: list[Relaxed] = []  # the relaxed games with a suit kept, in turn
    later: list[Relaxed] = []  # the next window's games of the suits won with this one
    max_bytes = clock.max_bytes
    limit = FIRST_SLICE
    seed = 0
    beams_run = 0
    credit = 0  # beam positions owed (> 0) or spent ahead (< 0)
    runs = 0
    owed = 0  # the same for nested rollouts
    split: Split | None = None
    split_owed = 0  # the same for the frontier search
    while True:
        held = split.held() if split is not None else 0  # the frontier search's tables
        # the main search counts its own tables, not rule D4's
        clock.extra_bytes = _d4_bytes(counted, relaxed, kept) + held
        # While games with a suit kept are left, they take the exhaustive search's turn
        kept_turn = bool(kept) and clock.nodes >= KEPT_AFTER
        if not kept_turn:
            verdict = main.steps(limit)
            if verdict is not None:
                return verdict
        spent = 0
        # the main search's tables, held while the others run
        main_bytes = table_bytes(main.tt, main.key_size, 0) + main.stuck_bytes + held
        clock.extra_bytes = main_bytes
        if counted is not None and main.counted is None and clock.nodes >= RELAXED_AFTER:
            if counted.ask(counted.start, QUESTION_LIMIT) == 0:
                return "unsolvable", [], "dead end (rule D4) at the start"
            main.counted = counted
        # A won counted game is found in a few positions, a lost one only once its every
        # position is searched: one still undecided at the start this late is most likely
        # lost, and the probes' share goes to proving it.
        rooting = relaxed is not None and not relaxed.rooted and clock.nodes >= LATE_AFTER
        if relaxed is not None and main.counted is not None:
            rv = relaxed.steps(limit * (RELAXED_SHARE + (LATE_PROBES if rooting else 0)))
            if rv == "lost":
                return "unsolvable", [], "dead end (rule D4): the relaxed game is lost"
            if rv == "won":
                kept = [Relaxed(relaxed.counted, suit, WINDOWS[0]) for suit in range(4)]
                relaxed = None  # it proves nothing: its memory goes back to the others
        if kept_turn:
            # each in turn (counting its own table and the counted memo, and the others'
            # tables here); one that outgrows its part of the memory is dropped
            allowed = int(max_bytes * KEPT_MEMORY) // len(kept) if max_bytes is not None else None
            for game in list(kept):
                clock.extra_bytes = main_bytes + sum(g.table() for g in kept if g is not game)
                kv = game.steps(limit // len(kept))
                if kv == "lost":
                    within = (f" within {game.window} ranks of their pile"
                              if game.window < KING else "")
                    return "unsolvable", [], (f"dead end (rule D4): the relaxed game with "
                                              f"{SUIT_NAMES[game.kept]} kept{within} is lost")
                if kv == "won" and game.window < WINDOWS[-1]:
                    wider = WINDOWS[WINDOWS.index(game.window) + 1]
                    later.append(Relaxed(game.counted, game.kept, wider))
                if kv == "won" or allowed is not None and game.table() > allowed:
                    kept.remove(game)
            if not kept:  # every game of this window is decided: the won ones go on wider
                kept, later = later, []
        clock.extra_bytes = main_bytes + _d4_bytes(counted, relaxed, kept)
        late = clock.nodes >= LATE_AFTER
        share = 0 if rooting else limit * LATE_PROBES if late else limit
        if split is None and counted is not None and clock.nodes >= SPLIT_AFTER:
            split = Split(state, budget, clock)
        if split is not None and not split.done():
            split_owed += limit * SPLIT_SHARE // 2
            # it counts its own tables (`Split.held`), the others' are `extra_bytes`
            clock.extra_bytes = main_bytes - held + _d4_bytes(counted, relaxed, kept)
            while split_owed > 0 and not split.done():
                before = clock.nodes
                sv = split.step()
                split_owed -= clock.nodes - before
                if sv is not None:
                    return sv
            main_bytes += split.held() - held  # its tables as they are now, while others run
            clock.extra_bytes = main_bytes + _d4_bytes(counted, relaxed, kept)
        if clock.nodes >= NESTED_AFTER:
            part = share // 2
            share -= part
            owed += part
            while owed > 0:
                runs += 1
                before = clock.nodes
                nv = nested(state, budget, clock, runs, before + NESTED_CAP, main.counted)
                owed -= clock.nodes - before
                if nv is not None:
                    return nv
        if clock.nodes >= BEAM_AFTER:
            part = share // 4
            share -= part
            credit += part // BEAM_COST
            if credit > 0:  # the next beam, twice as wide as the last
                width = BEAM_FIRST << beams_run
                beams_run += 1
                before = clock.nodes
                bv = beam(state, budget, clock, width, beams_run, before + width * BEAM_CAP)
                credit -= clock.nodes - before
                if bv is not None:
                    return bv
        while spent < share:
            seed += 1
            size = min(share - spent, PROBE_UNIT * luby(seed))
            spent += size
            probe = _Search(state, budget, probe=True)
            probe.clock = clock
            probe.counted = main.counted
            probe.noise = PROBE_NOISE
            if late or (seed % 2 == 0 and clock.nodes >= UNGUIDED_AFTER):
                probe.weight = 0
            probe.rng = random.Random(seed)
            pv = probe.start()
            if pv is None:
                pv = probe.steps(size)
            if pv is not None and pv[0] == "solved":
                return pv
        limit = int(limit * 1.5)


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
        self.lost: set[int] = set()  # hashes of the keys of positions proved lost
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
            return "solved", _replay(self.state, self.budget, []), ""
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
                        return "solved", _replay(self.state, self.budget,
                                                 chain + [m & MOVE_MASK]), ""
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
        return table_bytes(self.lost, SPLIT_HASH_BYTES, s.clock.every) + s.stuck_bytes + memo

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
        if hash(self.search.key()) not in self.lost:
            met = self.search.clock.nodes - before
            self.open.append(((len(self.lost) - known) * 1000 // max(met, 1), i))
        return None

    def _search(self, i: int) -> tuple[Verdict, list[IMove], str] | None:
        """Depth-first from frontier position ``i`` for at most `cap` new positions, adding
        each component that closes to `lost` (Tarjan: ``low`` holds, for each level, the
        least index reached from it; a position's index is -1 once its component closed).
        Leaves the search at the frontier position unless it finds a line."""
        s = self.search
        clock = s.clock
        lost = self.lost
        s.load(self.frontier[i])
        root = s.key()
        if hash(root) in lost:
            return None
        before = s.stuck_nodes  # rule D3 here only: inside, it costs more than it cuts
        cut = s.dead() or (s.stuck_on and s.stuck()) or s.hopeless()
        clock.nodes += s.stuck_nodes - before
        if cut:
            lost.add(hash(root))
            return None
        index: dict[bytes, i64] = {root: 0}
        tarjan = [root]  # the positions whose component is still open, in index order
        path = [root]  # the position of each level
        stack = [s.moves()]
        pos = vec[i64]([0])
        low = vec[i64]([0])
        marks = vec[i64]([0])
        nodes: i64 = 0
        due: i64 = clock.due
        while stack:
            top = len(pos) - 1
            level = stack[top]
            j = pos[top]
            if j == len(level):
                stack.pop()
                pos, _ = pop(pos)
                low, least = pop(low)
                marks, mark = pop(marks)
                here = path.pop()
                if least == index[here]:
                    while True:  # its component closes without a win: all of it is lost
                        k = tarjan.pop()
                        lost.add(hash(k))
                        index[k] = -1
                        if k is here:
                            break
                elif least < low[top - 1]:
                    low[top - 1] = least
                s.take_back(mark)
                continue
            pos[top] = j + 1
            m = level[j]
            mark = len(s.trail)
            k = s.peek((m >> 8 & 31) - 4, (m >> 4 & 15) - 2)  # read before playing
            played = not k
            if played:
                s.trail = append(s.trail, s.do(m))
                s.auto()
                if s.won():
                    line = _replay(self.state, self.budget, self.chains[i])
                    return "solved", line + [unpack(r) for r in s.trail], ""
                k = s.key()
            seen = index.get(k, -2)
            if seen != -2 or hash(k) in lost:
                if seen >= 0 and seen < low[top]:
                    low[top] = seen
                s.take_back(mark)
                continue
            if not played:
                s.trail = append(s.trail, s.do(m))
            nodes += 1
            clock.nodes += 1
            if clock.nodes >= due:
                clock.check(self.held() + len(index) * SPLIT_INDEX_BYTES)
                due = clock.due
            if s.dead() or (s.changed(m, mark) and s.hopeless()):
                lost.add(hash(k))
                s.take_back(mark)
                continue
            index[k] = len(index)
            tarjan.append(k)
            path.append(k)
            stack.append(s.moves())
            pos = append(pos, 0)
            low = append(low, len(index) - 1)
            marks = append(marks, mark)
            if nodes >= self.cap:
                s.take_back(0)
                return None
        return None


def _d4_bytes(counted: Counted | None, relaxed: Relaxed | None, kept: list[Relaxed]) -> int:
    """The memory rule D4's games hold: the counted memo, the relaxed search's table while it
    runs, and the tables of the games with a suit kept."""
    own = relaxed.held() if relaxed is not None else counted.held() if counted is not None else 0
    return own + sum(game.table() for game in kept)


def beam(state: PackerState, budget: Budget, clock: Clock, width: int, seed: int,
         stop: int) -> tuple[Verdict, list[IMove], str] | None:
    """A beam search from ``state``: each layer keeps the ``width`` new positions of best
    `_Search.value` (ties broken at random by ``seed``) among all moves from the layer
    before; a dead end (rules D1-D2) is not kept. A solution, or None when the beam dies out
    or has searched ``stop`` positions (counted on ``clock``, checked every ``clock.every``).
    """
    s = _Search(state, budget, probe=True)
    s.clock = clock
    s.weight = 0  # `value` orders the positions, not `moves`
    pv = s.start()
    if pv is not None:
        return pv if pv[0] == "solved" else None  # a dead root is the main search's to say
    rng = random.Random(seed)
    seen: set[bytes] = {s.key()}
    snaps = [s.snapshot()]
    # per layer, per position: the index of its parent in the layer before << MOVE_BITS | the
    # move from it (the safe moves home after it follow, as `auto` plays them again)
    layers: list[vec[i64]] = []
    every: i64 = clock.every
    due: i64 = clock.due
    while snaps:
        found: list[int] = []  # -value (noised) << 40 | parent << MOVE_BITS | move
        for idx in range(len(snaps)):
            s.load(snaps[idx])
            for m in s.moves():
                s.trail = append(s.trail, s.do(m))
                s.auto()
                if s.won():
                    chain = [m & MOVE_MASK]
                    j = idx
                    for row in reversed(layers):
                        chain.append(row[j] & MOVE_MASK)
                        j = row[j] >> MOVE_BITS
                    return "solved", _replay(state, budget, chain[::-1]), ""
                k = s.key()
                if k not in seen:
                    seen.add(k)
                    clock.nodes += 1
                    if clock.nodes >= due:
                        clock.check(table_bytes(seen, s.key_size, every)
                                    + width * (2 * BEAM_POSITION_BYTES + 8 * len(layers)))
                        due = clock.due
                        if clock.nodes >= stop:
                            return None
                    if not (s.dead_check and s.dead()):
                        score = -16 * s.value() - rng.randrange(BEAM_NOISE)
                        found.append(score << 40 | idx << MOVE_BITS | m & MOVE_MASK)
                s.take_back(0)
        found.sort()
        row = vec[i64](sorted([f & (1 << 40) - 1 for f in found[:width]]))  # parents in order
        kept: list[Snapshot] = []
        last = -1
        for f in row:
            if f >> MOVE_BITS != last:
                last = f >> MOVE_BITS
                s.load(snaps[last])
            s.trail = append(s.trail, s.do(f & MOVE_MASK))
            s.auto()
            kept.append(s.snapshot())
            s.take_back(0)
        layers.append(row)
        snaps = kept
    return None


def nested(state: PackerState, budget: Budget, clock: Clock, seed: int,
           stop: int, counted: Counted | None = None) -> tuple[Verdict, list[IMove], str] | None:
    """A nested rollout search of level 1 from ``state`` (Cazenave's nested Monte Carlo
    search): in each position every move is tried with a `_playout` after it, the move
    that starts the best line found so far is played, and so on. A solution, or None when
    no move is left or ``stop`` positions are counted on ``clock`` (checked before each
    playout). Depth-first probes back up from a wrong turn only near its end; here each
    move is chosen by where random lines after it lead (docs/solver.md, *Nested
    rollouts*). The Calculation solver's `_Rollouts` is the same method on its own
    positions, with a fixed level-0 policy and no ``path`` of keys: Calculation's moves
    never lead back to a position already seen. With ``counted`` (rule D4) no move is
    tried into a lost position of the counted game."""
    s = _Search(state, budget, probe=True)
    s.clock = clock
    s.counted = counted
    s.weight = 0  # the playouts' order is the noise, moves home first
    s.noise = PROBE_NOISE
    s.rng = random.Random(seed)
    pv = s.start()
    if pv is not None:
        return pv if pv[0] == "solved" else None  # a dead root is the main search's to say
    path: set[bytes] = {s.key()}  # the positions of the line played, never entered again
    line: list[int] = []
    best: list[int] = []  # the best line found from the current position, its score
    best_score: i64 = -WIN
    while True:
        for m in s.moves():
            if clock.nodes >= stop:
                return None
            mark = _play(s, m)
            k = s.key()
            if k in path or s.closed(m, mark):
                s.take_back(mark)
                continue
            if s.won():
                return "solved", _replay(state, budget, line + [m & MOVE_MASK]), ""
            path.add(k)
            score, tail = _playout(s, path)
            path.discard(k)
            s.take_back(mark)
            if score == WIN:
                return "solved", _replay(state, budget, line + [m & MOVE_MASK] + tail), ""
            if score > best_score:
                best_score = score
                best = [m & MOVE_MASK] + tail
        if not best:
            return None
        m = best.pop(0)
        line.append(m)
        _play(s, m)
        path.add(s.key())


def _playout(s: _Search, path: set[bytes]) -> tuple[i64, list[int]]:
    """A random line from the current position, at most `PLAYOUT_MOVES` moves, never into a
    position of ``path`` or of the line itself, nor into a dead end: the `value` of its last
    position (`WIN` if won) and its moves. The position is left as it was."""
    mark0 = len(s.trail)
    seen: set[bytes] = set()
    line: list[int] = []
    while len(line) < PLAYOUT_MOVES:
        for m in s.moves():
            mark = _play(s, m)
            if s.won():
                s.take_back(mark0)
                return WIN, line + [m & MOVE_MASK]
            k = s.key()
            if k in seen or k in path or s.closed(m, mark):
                s.take_back(mark)
                continue
            seen.add(k)
            line.append(m & MOVE_MASK)
            break
        else:
            break  # no move left
    score = s.value()
    s.take_back(mark0)
    return score, line


def _play(s: _Search, m: i64) -> i64:
    """Play move ``m`` and the safe moves home after it, counting one position on the
    search's clock; returns the trail's old length, for `take_back`."""
    mark = len(s.trail)
    s.trail = append(s.trail, s.do(m))
    s.auto()
    clock = s.clock
    clock.nodes += 1
    if clock.nodes >= clock.due:
        clock.check(0)  # the tables here are small: the main search's is `extra_bytes`
    return mark


def _replay(state: PackerState, budget: Budget, chain: list[int]) -> list[IMove]:
    """The whole line of ``chain`` (moves, each followed by the safe moves home it allows,
    as the search plays them) from ``state``."""
    s = _Search(state, budget, probe=True)
    s.start()
    line = list(s.prefix)
    for m in chain:
        s.trail = vec[i64]()
        s.trail = append(s.trail, s.do(m))
        s.auto()
        line += [unpack(r) for r in s.trail]
    return line


def _sort(v: vec[i64]) -> None:
    """Sort a short list of moves in place (compiled, an insertion sort of native ints
    beats sorting boxed ones)."""
    for k in range(1, len(v)):
        x = v[k]
        j = k - 1
        while j >= 0 and v[j] > x:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = x


def luby(i: int) -> int:
    """Term ``i`` (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...: restart
    lengths within a logarithmic factor of the best restart strategy for any run-time
    distribution, unknown in advance (Luby, Sinclair and Zuckerman 1993)."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


FIRST_SLICE: Final = 2000
STUCK_AFTER: Final = 1_000_000  # positions; rule D3 runs at the start, then from here on
STUCK_LIMIT: Final = 50_000  # positions at most in one search of rule D3 (`stuck`)
RELAXED_AFTER: Final = 20_000  # positions; from then on rule D4 is asked, its relaxed game searched
RELAXED_SHARE: Final = 2  # with this many times each slice
# After this many positions, the relaxed games with one suit kept take the exhaustive
# search's turns, each dropped once it holds more than its share of this part of the memory
# budget. The probes keep their share: of Good Measure 1-1000, the deals undecided at 2
# million positions are solved by probes or proved lost by rule D4, none by the exhaustive
# search (docs/solver.md, *D4*).
KEPT_AFTER: Final = 2_000_000
KEPT_MEMORY: Final = 0.6
# The windows of those games, narrowest first: all four suits with one, then the suits whose
# game was won with the next; 13 is the whole suit (docs/solver.md, *D4*).
WINDOWS: Final = (3, 5, 8, 13)
STUCK_SLOT_BYTES: Final = 64  # a kept D3 position's share of its set's slots (estimated)
# `beam`: a position's `value` (weights tried on deals: docs/solver.md, *Beams*)
BEAM_OUT: Final = 10  # per card not home
BEAM_PACKED: Final = 3  # per card on a host
BEAM_TRAPPED: Final = 5  # per card above a lower card of its suit
BEAM_NOISE: Final = 48  # ties: random noise up to this many sixteenths of a unit of value
BEAM_AFTER: Final = 1_000_000  # positions; from then on a quarter of the probes' share goes
BEAM_COST: Final = 3  # to beams, each beam position counted as this many (measured time)
BEAM_FIRST: Final = 1000  # the first beam's width; each next beam is twice as wide
BEAM_CAP: Final = 1000  # and a beam stops after this many positions per unit of width
BEAM_POSITION_BYTES: Final = 800  # a layer's position: snapshot and moves found (estimated)
# `nested`
WIN: Final = 1 << 40  # a won playout's score, above every `value`
NESTED_AFTER: Final = 20_000  # positions; from then on half the probes' share goes to `nested`
NESTED_CAP: Final = 1_000_000  # positions at most in one nested search
PLAYOUT_MOVES: Final = 400  # a playout's longest line (winning lines are 80-260 moves)
# Move scores (small first) are ints, in twentieths of a unit of urgency.
URGENCY: Final = 20  # per unit of the source column's urgency; the target's counts negated
HOME_SCORE: Final = -2000  # moves home first
RUN_CARD: Final = 2  # Castles: per card of a run moved
SPLIT_PENALTY: Final = 400  # Castles: splitting a run that sits on its natural host comes late
SPACE_PENALTY: Final = 100  # moves into a space come after moves onto a card
PROBE_NOISE: Final = 600
# `Split`, the frontier search: a frontier of at least this many positions, each searched
# first up to this many new positions, then this many times more each round; it runs after
# this many positions of the whole search, with this many halves of each slice on top of the
# others' shares (docs/solver.md, *The frontier search*)
SPLIT_FRONTIER: Final = 1000
SPLIT_FIRST_CAP: Final = 3000
SPLIT_GROWTH: Final = 3
SPLIT_AFTER: Final = 1_000_000
SPLIT_SHARE: Final = 3
SPLIT_HASH_BYTES: Final = 32  # a lost position's hash, an int object
SPLIT_INDEX_BYTES: Final = 200  # a position of a frontier position's own search (estimated)
UNGUIDED_AFTER: Final = 20_000  # positions; from then on every second probe is unguided
LATE_AFTER: Final = 1_000_000  # positions; from then on every probe is unguided, and
LATE_PROBES: Final = 3  # the probes get this many times each slice
PROBE_UNIT: Final = 100  # positions: the probes' restart lengths are this times Luby's sequence
WORRY_SCORE: Final = 4000  # worry-back moves come last
# `engine_search`: bytes a position, its key and the states it keeps alive (measured with
# tracemalloc: about 1,500 on Spanish Patience deal 3 with worry_back, 20,000 positions)
ENGINE_KEY_BYTES: Final = 2000


MOVE_BITS: Final = 13
MOVE_MASK: Final = (1 << MOVE_BITS) - 1


def _entry(score: i64, src: i64, dst: i64, n: i64) -> i64:
    """A move and its score packed in one int that sorts as (score, move) does."""
    return score << MOVE_BITS | (src + 4) << 8 | (dst + 2) << 4 | n


def unpack(m: int) -> IMove:
    """The (source, target, count) of an `_entry` or a trail record."""
    return (m >> 8 & 31) - 4, (m >> 4 & 15) - 2, m & 15


def to_engine_moves(state: PackerState, moves: list[IMove]) -> tuple[Move, ...]:
    """Internal moves in the engine's notation."""
    out = []
    for src, dst, n in moves:
        if src < 0:
            out.append(Move(Place("fs", -1 - src), Place("c", dst)))
            continue
        source = Place("c", src)
        if dst >= 0:
            out.append(Move(source, Place("c", dst), n))
        elif state.variant.kings_down:
            out.append(Move(source, Place("fa" if dst == FOUNDATION else "fk")))
        else:
            out.append(Move(source, Place("f")))
    return tuple(out)


def search_packer(state: PackerState, budget: Budget, shorten: bool = False) -> Result:
    """Solve a packer position (see `thirteen.solver.solve`).

    With ``worry_back`` a line that never worries back wins too, so the faster search
    without it runs first on half the budget; only when that proves nothing does the
    search with worry-back moves run, on what is left.
    """
    v = state.variant
    if not v.worry_back:
        return _search_fast(state, budget, shorten)
    plain = dataclasses.replace(state, variant=v.with_options(worry_back=False))
    first = _search_fast(plain, _share(budget, 0.5, None), shorten)
    if first.verdict == "solved":
        return first
    rest = _share(budget, 1.0, first)
    second = (_search_fast(state, rest, shorten) if v.foundations == "suit"
              else engine_search(state, rest))
    return dataclasses.replace(second, nodes=first.nodes + second.nodes,
                               seconds=first.seconds + second.seconds,
                               peak_states=max(first.peak_states, second.peak_states))


def shortcut(state: PackerState, moves: list[IMove]) -> list[IMove]:
    """``moves``, a winning line, with its detours cut out: from each position of the line,
    play the move that reaches the latest later position of the line (columns in the same
    order, compared whole), until the line is done. A depth-first line wanders (each move is
    the first that was not yet refuted); this costs one `moves` per move of the line."""
    search = _Search(state, Budget(None, None, None))
    where = {search.exact(): 0}
    for k, move in enumerate(moves):
        search.do(_entry(0, *move))
        where[search.exact()] = k + 1
    search = _Search(state, Budget(None, None, None))
    out: list[IMove] = []
    i = 0
    while i < len(moves):
        best, step = i + 1, _entry(0, *moves[i])
        for m in search.moves():
            record = search.do(m)
            j = where.get(search.exact(), -1)
            search.undo(record)
            if j > best:
                best, step = j, m
        search.do(step)
        out.append(unpack(step))
        i = best
    return out


def _share(budget: Budget, part: float, spent: Result | None) -> Budget:
    """``part`` of ``budget``, less what ``spent`` used of it."""
    nodes = budget.max_nodes
    seconds = budget.max_seconds
    if nodes is not None:
        nodes = max(1, int(nodes * part) - (spent.nodes if spent else 0))
    if seconds is not None:
        seconds = max(0.001, seconds * part - (spent.seconds if spent else 0.0))
    return Budget(nodes, seconds, budget.max_mb)


def _search_fast(state: PackerState, budget: Budget, shorten: bool) -> Result:
    """The `_Search` portfolio (its line `shortcut` if asked), its moves checked by replaying
    them through the engine."""
    search = _Search(state, budget)
    try:
        verdict, imoves, reason = portfolio(search, state, budget)
    except OutOfBudget as e:
        return Result("unknown", (), search.clock.nodes, search.clock.elapsed(),
                      len(search.tt), str(e))
    if shorten and verdict == "solved":
        imoves = shortcut(state, imoves)
    moves = to_engine_moves(state, imoves) if verdict == "solved" else ()
    return checked_result(state, verdict, moves, search.clock.nodes,
                          search.clock.elapsed(), len(search.tt), reason)


def _engine_key(state: PackerState) -> Hashable:
    return (tuple(sorted(zip(state.hidden, state.columns, strict=True))), state.foundations)


def engine_search(state: PackerState, budget: Budget) -> Result:
    """Plain depth-first search through the engine (used with ``worry_back``): exact, slow.

    No move is pruned and nothing is played automatically, so its verdicts need no argument.
    """
    clock = Clock(budget, 64)  # a position through the engine is slow: check more often
    seen: set[Hashable] = {_engine_key(state)}
    if state.won:
        return Result("solved", (), 0, clock.elapsed(), 1)
    stack: list[tuple[PackerState, Iterator[Move]]] = [(state, iter(state.legal_moves()))]
    path: list[Move] = []
    try:
        while stack:
            s, it = stack[-1]
            m = next(it, None)
            if m is None:
                stack.pop()
                if path:
                    path.pop()
                continue
            nxt = s.apply(m)
            if nxt.won:
                return Result("solved", (*path, m), clock.nodes, clock.elapsed(), len(seen))
            k = _engine_key(nxt)
            if k in seen:
                continue
            seen.add(k)
            clock.nodes += 1
            if clock.nodes >= clock.due:
                clock.check(table_bytes(seen, ENGINE_KEY_BYTES, clock.every))
            path.append(m)
            stack.append((nxt, iter(nxt.legal_moves())))
    except OutOfBudget as e:
        return Result("unknown", (), clock.nodes, clock.elapsed(), len(seen), str(e))
    return Result("unsolvable", (), clock.nodes, clock.elapsed(), len(seen),
                  "search space exhausted")
