"""The order in which the packer search tries moves: moves home first, then moves from the
column that hides the card the foundations want soonest (its urgency), onto the column least
urgent to bury; moves into a space and worry-back moves last (docs/solver.md, *Move order*).
Probes add random noise to the scores (`Ordering.noise`).
"""

from __future__ import annotations

import random

from librt.vecs import append, vec
from mypy_extensions import i64

from ...packer import PackerState
from ..common import Budget
from .encoding import FOUNDATION, HOST_STRIDE, KING_PILE, MOVE_BITS, NOWHERE, entry, sort_moves
from .position import Position
from .tuning import HOME_SCORE, RUN_CARD, SPACE_PENALTY, SPLIT_PENALTY, URGENCY, WORRY_SCORE


class Ordering(Position):
    """A position that lists its moves best first (`moves`)."""

    def __init__(self, state: PackerState, budget: Budget, probe: bool = False) -> None:
        super().__init__(state, budget, probe)
        # `moves`' scratch, all zero between calls: on_top[code] is 1 + the first column whose
        # top card has that code, next_top[j] 1 + the next such column after column j.
        self._on_top: vec[i64] = vec[i64]([0] * 60)
        self._next_top: vec[i64] = vec[i64]([0] * self.ncols)
        self.noise: i64 = 0  # probes: random noise added to move scores, up to this much
        # per unit of urgency in move scores; 0 in an unguided probe, whose order is its noise
        self.weight: i64 = URGENCY
        self.rng = random.Random(0)
        # Each column's `_urgency`, where it is not stale (`Position._stale`)
        self._urg: vec[i64] = vec[i64]([0] * self.ncols)

    def moves(self) -> vec[i64]:
        """Candidate moves as `entry` ints, best first (safe moves home are already played)."""
        cols = self.cols
        ncols = self.ncols
        out = vec[i64](capacity=48)  # `entry` ints: score and move in one, so sorting is cheap
        urgency = self._urgencies() if self.weight else self._urg  # unguided: not read
        first_space = self._first_space()
        space = self.space
        # which lone cards may move: none where spaces are never filled (R1), kings only
        # where only kings fill them (R2: a lone card into a space changes nothing)
        lone_still = space == "none"
        kings_only = self.kings_space
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
                out = append(out, entry(HOME_SCORE, i, t, 1))
                if self.bisley and t == FOUNDATION and self.fk[c & 3] == (c >> 2) + 1:
                    out = append(out, entry(HOME_SCORE, i, KING_PILE, 1))
            lone = len(col) == 1
            if not self.sequences:
                if lone and (lone_still or (kings_only and c >> 2 == 13)):
                    continue  # R1/R2: a lone card that moves only empties a useless column
                ui = self.weight * urgency[i]
                out = self._packs(c, i, 1, ui, urgency, out)
                if first_space >= 0 and not lone and (
                        space == "any" or (kings_only and c >> 2 == 13)):
                    out = append(out, entry(ui + SPACE_PENALTY, i, first_space, 1))
            else:
                run = self.run_length(i)
                ui = self.weight * urgency[i]
                for n in range(1, run + 1):
                    split = SPLIT_PENALTY if n < run else 0
                    out = self._packs(col[-n], i, n, ui + RUN_CARD * n + split, urgency, out)
                    if first_space >= 0 and n < len(col) and space == "any":
                        out = append(out, entry(ui + SPACE_PENALTY + RUN_CARD * n, i,
                                                 first_space, n))
        for j in range(ncols):
            if len(cols[j]):
                on_top[cols[j][-1]] = 0
        if self.worry:
            out = self._worry_moves(out, first_space)
        if self.noise:
            self._add_noise(out)
        sort_moves(out)
        return out

    def _first_space(self) -> i64:
        """The first empty column, or -1: a card that goes into a space goes into this one
        (the others are alike)."""
        for j in range(self.ncols):
            if not len(self.cols[j]):
                return j
        return -1

    def _add_noise(self, out: vec[i64]) -> None:
        """A probe's random noise, up to `noise`, added to the scores of the moves ``out``."""
        rnd = self.rng.random
        noise = float(self.noise)
        for k in range(len(out)):
            out[k] += int(noise * rnd()) << MOVE_BITS

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
                    out = append(out, entry(score - weight * urgency[j], i, j, n))
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

    def _worry_moves(self, out: vec[i64], first_space: i64) -> vec[i64]:
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
                        out = append(out, entry(WORRY_SCORE, -1 - s, j, 1))
                elif j == first_space and (space == "any" or (space == "kings" and r == 13)):
                    out = append(out, entry(WORRY_SCORE + SPACE_PENALTY, -1 - s, j, 1))
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
        top of it (weights measured on deals: docs/solver.md, *Move order*)."""
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

