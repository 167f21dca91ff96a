"""The Calculation family engine: a stock turned one card at a time, interval foundations
built regardless of suit modulo thirteen, and waste piles.

The turned card is ``stock[0]``; the rest of the stock is hidden from the player and never
appears in `CalcState.view`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card, rank_name
from .deal import Layout
from .moves import IllegalMove, Move, Moves, Place, Status
from .piles import foundation_ids, pile_names
from .text import render
from .variants import Variant

Pile = tuple[Card, ...]

_STOCK = Place("s")


@dataclass(frozen=True, slots=True)
class CalcState:
    variant: Variant
    foundations: tuple[Pile, ...]
    waste: tuple[Pile, ...]
    stock: Pile  # stock[0] is the turned card
    markers: Pile = ()  # Imaginary Thirteen's reminders, out of play

    @classmethod
    def start(cls, variant: Variant, layout: Layout) -> CalcState:
        waste = layout.columns or ((),) * variant.waste_piles
        return cls(variant, layout.foundations, waste, layout.stock, layout.markers)

    def needs(self, pile: int) -> int | None:
        """The rank foundation ``pile`` takes next, or None when it is complete."""
        seq = self.variant.sequence(pile)
        done = len(self.foundations[pile])
        return seq[done] if done < len(seq) else None

    def why_illegal(self, move: Move) -> str | None:
        """None if ``move`` is legal here, else the reason in plain words."""
        src, dst, v = move.source, move.target, self.variant
        if move.count != 1:
            return "one card moves at a time"
        if src.kind == "s":
            if not self.stock:
                return "the stock is empty"
            card = self.stock[0]
        elif src.kind == "w":
            if src.index >= len(self.waste):
                return f"there is no waste pile {src.index + 1} (w1..w{len(self.waste)})"
            if not self.waste[src.index]:
                return f"waste pile {src.index + 1} is empty"
            card = self.waste[src.index][-1]
        else:
            return f"cards move from the stock (s) or a waste pile (w1..w{v.waste_piles})"
        if dst.kind == "w":
            if src.kind == "w":
                return "a waste card may only go to a foundation"
            if dst.index >= len(self.waste):
                return f"there is no waste pile {dst.index + 1} (w1..w{len(self.waste)})"
            return None
        if dst.kind != "f" or dst.index < 0:
            return f"name a foundation f1..f{len(self.foundations)} or a waste pile"
        if dst.index >= len(self.foundations):
            return f"there is no foundation {dst.index + 1} (f1..f{len(self.foundations)})"
        need = self.needs(dst.index)
        if need is None:
            return f"foundation {dst.index + 1} is complete"
        if card.rank != need:
            return f"foundation {dst.index + 1} needs a {rank_name(need)}, not {card}"
        return None

    def legal_moves(self) -> Moves:
        """Every legal move, generated directly (the web server asks once per answer);
        `why_illegal` explains any other move, and tests/test_properties.py checks that the two
        agree on every candidate move."""
        needs = [self.needs(p) for p in range(len(self.foundations))]
        tops = [(_STOCK, self.stock[0])] if self.stock else []
        tops += [(Place("w", i), pile[-1]) for i, pile in enumerate(self.waste) if pile]
        out = Moves(Move(src, Place("f", f)) for src, card in tops
                    for f, need in enumerate(needs) if need == card.rank)
        if self.stock:
            out += [Move(_STOCK, Place("w", w)) for w in range(len(self.waste))]
        return out

    def apply(self, move: Move) -> CalcState:
        """The state after ``move``; raises `IllegalMove` (saying why) and changes nothing."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMove(f"{move}: {reason}")
        stock, waste, found = self.stock, list(self.waste), list(self.foundations)
        if move.source.kind == "s":
            card, stock = stock[0], stock[1:]
        else:
            pile = waste[move.source.index]
            card, waste[move.source.index] = pile[-1], pile[:-1]
        if move.target.kind == "w":
            waste[move.target.index] += (card,)
        else:
            found[move.target.index] += (card,)
        return CalcState(self.variant, tuple(found), tuple(waste), stock, self.markers)

    @property
    def won(self) -> bool:
        return all(self.needs(p) is None for p in range(len(self.foundations)))

    @property
    def hides_cards(self) -> bool:
        """Whether the player cannot see some card still to be played (the stock below the
        turned card): front ends then ask for no verdict on the position."""
        return len(self.stock) > 1

    def status(self) -> Status:
        """``won``, ``lost`` (the stock is out and nothing plays) or ``in play``."""
        return Status.WON if self.won else Status.IN_PLAY if self.legal_moves() else Status.LOST

    def __str__(self) -> str:
        """The board as the player sees it (a hidden card as ``##``)."""
        return render(self.view())

    def cards(self) -> list[Card]:
        """Every card, hidden ones included (for checks that none is lost)."""
        piles = self.foundations + self.waste + (self.stock, self.markers)
        return [c for p in piles for c in p]

    def safe_moves(self) -> list[Move]:
        """None: cards of a rank are wanted by several foundations, so no play is safe in
        general (docs/solver.md); the player decides every card."""
        return []

    def view(self) -> dict[str, Any]:
        """What the player sees: the turned card and how many remain, never the stock order."""
        return {
            "family": "calculation",
            "markers": [str(c) for c in self.markers],
            "foundations": [
                {"name": foundation_ids(self.variant)[p], "interval": self.variant.intervals[p],
                 "cards": [str(c) for c in pile],
                 "needs": None if self.needs(p) is None else rank_name(self.needs(p) or 0)}
                for p, pile in enumerate(self.foundations)
            ],
            "waste": [[str(c) for c in pile] for pile in self.waste],
            "stock_top": str(self.stock[0]) if self.stock else None,
            "stock_left": len(self.stock),
            "names": dict(pile_names(self.variant)),
        }

    def to_layout(self) -> Layout:
        return Layout(self.waste, self.foundations, (), self.stock, self.markers)
