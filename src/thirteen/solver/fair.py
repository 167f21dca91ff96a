"""The Calculation family's fair player: it decides from what a player sees and never from the
stock order.

A player sees the turned card, the waste piles, the foundations and which cards are still
unseen (a multiset: every card not in sight). `fair_advice` reads exactly that (`_View`) and
plays determinised Monte Carlo: it deals the unseen cards in `samples` random orders (seeded by
the view alone, so a position always gets the same move), follows each legal move in every
order by the experts' rule (`_Rollout`) to the end, and plays the move that wins the most
orders (ties: the most cards home, then the rule's own order). Suits never matter in these
games, so everything works on ranks. See docs/solver.md, "Fair player".
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..calculation import CalcState
from ..cards import rank_name
from ..moves import Move, Place
from .common import Result, now, signals_held, stop_if_signalled

#: Sampled stock orders per move in surveys and `play_out` (docs/solver.md, "Fair player").
FAIR_SAMPLES = 256
#: Sampled stock orders for a hint: at most 0.7 s a move with the mypyc build, 3 s without.
HINT_SAMPLES = 2048
#: The experts' rule: what putting a card on an empty waste pile costs, against the gap (in
#: cards to take) between it and the top it would cover. `KING_PILE_COST` more when it is the
#: last empty pile and no pile holds a king at its bottom (the pile kept for kings).
EMPTY_PILE_COST = 3.0
KING_PILE_COST = 4.0
OUT_OF_ORDER = 100.0  # covering a card wanted sooner: 100 and the gap
NEVER = 99  # place in its sequence of a rank a foundation never takes
KING = 13
STOCK = -1  # move source: the turned card

FMove = tuple[int, int, int]  # (source: STOCK or pile, kind: 0 foundation / 1 waste, index)


class _View:
    """What the player sees, as ranks: foundation heights, waste piles, the turned card and
    the unseen ranks sorted (their order is not known, so it is not kept)."""

    def __init__(self, state: CalcState) -> None:
        self.seqs = [bytes(state.variant.sequence(f)) for f in range(len(state.foundations))]
        self.index = [[NEVER] * 14 for _ in self.seqs]
        for f, seq in enumerate(self.seqs):
            for k, r in enumerate(seq):
                self.index[f][r] = k
        self.height = [len(p) for p in state.foundations]
        self.waste = [bytes(c.rank for c in pile) for pile in state.waste]
        self.turned = state.stock[0].rank if state.stock else 0
        self.unseen = bytes(sorted(c.rank for c in state.stock[1:]))

    def key(self) -> bytes:
        """The whole view, for seeding the sampled orders."""
        return bytes([self.turned, *self.height, 0]) + b"\0".join(self.waste) \
            + b"\0" + self.unseen

    def safe(self, options: list[FMove]) -> FMove | None:
        """A move home of a card no other foundation will ever want: one every winning line can
        make now (rule A1 of docs/solver.md), so it needs no sampling."""
        for m in options:
            src, kind, f = m
            card = self.turned if src == STOCK else self.waste[src][-1]
            if kind == 0 and not any(g != f and self.height[g] <= ix[card] < NEVER
                                     for g, ix in enumerate(self.index)):
                return m
        return None

    def moves(self) -> list[FMove]:
        """Every legal move, one of each set of equal ones (equal piles give equal positions),
        in the experts' order: waste tops home, the turned card home, the turned card onto the
        piles best first."""
        need = [seq[h] if h < len(seq) else 0 for seq, h in zip(self.seqs, self.height,
                                                                   strict=True)]
        out: list[FMove] = []
        seen: set[bytes] = set()
        for w, pile in enumerate(self.waste):
            if pile and pile not in seen:
                seen.add(pile)
                out += [(w, 0, f) for f in range(len(need)) if need[f] == pile[-1]]
        if self.turned:
            out += [(STOCK, 0, f) for f in range(len(need)) if need[f] == self.turned]
            scores = _Rollout(self, b"").pile_scores(self.turned)
            order = sorted(range(len(self.waste)), key=lambda w: scores[w])
            seen.clear()
            for w in order:
                if self.waste[w] not in seen:
                    seen.add(self.waste[w])
                    out.append((STOCK, 1, w))
        return out


class _Rollout:
    """One sampled world played in place by the experts' rule, on local arrays.

    ``total[r]`` and ``count[r]``: the cards the foundations still wanting rank ``r`` must take
    before it, summed over them, and how many they are; ``total / count`` is how far off
    ``r`` is. ``wanted[r]``: how many foundations want ``r`` now."""

    def __init__(self, view: _View, stock: bytes) -> None:
        self.seqs = view.seqs
        self.height = view.height[:]
        self.piles = [bytearray(p) for p in view.waste]
        self.stock = stock
        self.pos = 0
        self.need = [seq[h] if h < len(seq) else 0 for seq, h in zip(view.seqs, self.height,
                                                                       strict=True)]
        self.total = [0] * 14
        self.count = [0] * 14
        self.wanted = [0] * 15
        for f, seq in enumerate(self.seqs):
            h = self.height[f]
            for k in range(h, len(seq)):
                self.total[seq[k]] += k - h
                self.count[seq[k]] += 1
            self.wanted[self.need[f]] += 1
        self.wanted[0] = 0

    def home(self, card: int, f: int) -> None:
        """``card`` goes onto foundation ``f`` (which wants it)."""
        seq = self.seqs[f]
        h = self.height[f]
        self.count[card] -= 1
        total = self.total
        for k in range(h + 1, len(seq)):
            total[seq[k]] -= 1
        h += 1
        self.height[f] = h
        nxt = seq[h] if h < len(seq) else 0
        self.need[f] = nxt
        self.wanted[card] -= 1
        if nxt:
            self.wanted[nxt] += 1

    def play(self, m: FMove) -> None:
        src, kind, idx = m
        if src == STOCK:
            card = self.stock[self.pos]
            self.pos += 1
        else:
            card = self.piles[src].pop()
        if kind == 0:
            self.home(card, idx)
        else:
            self.piles[idx].append(card)

    def far(self, rank: int) -> float:
        c = self.count[rank]
        return self.total[rank] / c if c else float(NEVER)

    def pile_scores(self, card: int) -> list[float]:
        """The experts' cost of putting ``card`` on each pile, lower better: the gap to a top
        wanted after it (the pile stays in the order the foundations want it), an empty pile's
        cost (more for the last empty one while no pile holds a king at its bottom: it is kept
        for kings), or `OUT_OF_ORDER` and the gap when the top is wanted first."""
        piles = self.piles
        empty = 0
        kept = card == KING
        for pile in piles:
            if not pile:
                empty += 1
            elif pile[0] == KING:
                kept = True
        on_empty = EMPTY_PILE_COST if kept or empty > 1 else EMPTY_PILE_COST + KING_PILE_COST
        d = self.far(card)
        out = []
        for pile in piles:
            if not pile:
                out.append(on_empty)
            else:
                dt = self.far(pile[-1])
                out.append(dt - d if d <= dt else OUT_OF_ORDER + d - dt)
        return out

    def run(self) -> int:
        """Play the experts' rule to the end: any waste top home, else the turned card home,
        else the turned card onto its best pile. The cards home at the end."""
        piles, stock, need, wanted = self.piles, self.stock, self.need, self.wanted
        nw = len(piles)
        while True:
            moved = True
            while moved:
                moved = False
                for w in range(nw):
                    pile = piles[w]
                    if pile and wanted[pile[-1]]:
                        card = pile.pop()
                        self.home(card, need.index(card))
                        moved = True
                        break
            if self.pos >= len(stock):
                return sum(self.height)
            card = stock[self.pos]
            self.pos += 1
            if wanted[card]:
                self.home(card, need.index(card))
                continue
            scores = self.pile_scores(card)
            piles[scores.index(min(scores))].append(card)


@dataclass(frozen=True)
class Advice:
    """The fair player's move with what it rests on: how many of the sampled stock orders it
    won, of how many, and the experts' reading of the move (`reason`)."""

    move: Move | None
    wins: int
    samples: int
    reason: str


def _to_move(m: FMove) -> Move:
    src, kind, idx = m
    source = Place("s") if src == STOCK else Place("w", src)
    return Move(source, Place("f" if kind == 0 else "w", idx))


def _evaluate(view: _View, options: list[FMove], samples: int) -> list[tuple[int, int]]:
    """(wins, cards home) of each move over the same ``samples`` orders of the unseen cards."""
    rng = random.Random(view.key())
    unseen = list(view.unseen)
    first = bytes([view.turned]) if view.turned else b""
    scores = [(0, 0)] * len(options)
    done = sum(len(s) for s in view.seqs)
    for _ in range(samples):
        rng.shuffle(unseen)
        world = first + bytes(unseen)
        for i, m in enumerate(options):
            roll = _Rollout(view, world)
            roll.play(m)
            home = roll.run()
            wins, cards = scores[i]
            scores[i] = (wins + (home == done), cards + home)
    return scores


def fair_advice(state: CalcState, samples: int = FAIR_SAMPLES) -> Advice:
    """The fair player's move from what a player sees (never the stock order), and why."""
    view = _View(state)
    options = view.moves()
    if not options:
        return Advice(None, 0, 0, "no legal move remains")
    if len(options) == 1 or samples == 0:
        reason = "the only move" if len(options) == 1 else "the experts' rule"
        return Advice(_to_move(options[0]), 0, 0, f"{reason}; {_explain(view, options[0])}")
    safe = view.safe(options)
    if safe is not None:
        return Advice(_to_move(safe), 0, 0, f"{_explain(view, safe)}, and no other foundation "
                                            "will want it: always right")
    scores = _evaluate(view, options, samples)
    best = max(range(len(options)), key=lambda i: (scores[i], -i))
    m = options[best]
    wins = scores[best][0]
    return Advice(_to_move(m), wins, samples,
                  f"wins in {wins} of {samples} sampled stock orders; {_explain(view, m)}")


def _explain(view: _View, m: FMove) -> str:
    """The experts' reading of a move, in a player's words."""
    src, kind, idx = m
    card = view.turned if src == STOCK else view.waste[src][-1]
    name = rank_name(card)
    if kind == 0:
        return f"the {name} goes home to foundation {idx + 1}"
    pile = view.waste[idx]
    empty = [w for w, p in enumerate(view.waste) if not p and w != idx]
    kings = any(p and p[0] == KING for p in view.waste)
    if not pile:
        if card == KING:
            return f"starts pile {idx + 1} for kings"
        keep = f"; keeps pile {empty[0] + 1} for kings" if empty and not kings else ""
        return f"the {name} starts pile {idx + 1}{keep}"
    roll = _Rollout(view, b"")
    keep = f"; keeps pile {empty[-1] + 1} for kings" if empty and not kings else ""
    top = rank_name(pile[-1])
    if roll.far(card) <= roll.far(pile[-1]):
        return f"the {name} goes on the {top} of pile {idx + 1}, wanted after it{keep}"
    return f"the {name} covers the {top} of pile {idx + 1}, which is wanted sooner{keep}"


def fair_move(state: CalcState, samples: int = FAIR_SAMPLES) -> Move | None:
    """The fair player's next move (None when no move is legal)."""
    return fair_advice(state, samples).move


def play_out(state: CalcState, samples: int = FAIR_SAMPLES) -> Result:
    """Play the game out with the fair player; ``solved`` if it wins, else ``unknown`` (a
    loss of the fair player proves nothing about the deal). Moves replay through the engine;
    each counts as a node. No budget: a game is one pass through the stock, and its verdict
    must not hang on the machine's speed. A held signal (`signals_held`) stops it between
    two moves, as a search's clock does."""
    start = now()
    s = state
    moves: list[Move] = []
    with signals_held():
        while not s.won:
            stop_if_signalled()
            m = fair_move(s, samples)
            if m is None:
                return Result("unknown", tuple(moves), len(moves),
                              now() - start, 0, "the fair player lost")
            s = s.apply(m)
            moves.append(m)
    return Result("solved", tuple(moves), len(moves), now() - start, 0,
                  "the fair player won")
