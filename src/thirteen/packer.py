"""The Baker's Dozen family engine: one set of rules read from `Variant` fields.

A `PackerState` is immutable and hashable. `why_illegal` is the rule book: it answers any
move, and a refusal always says why. `legal_moves` generates the legal moves directly (it is
called on every position and every web answer, and filtering every conceivable move through
`why_illegal` cost ten times more); both read the same helpers (`builds_on`, `space_takes`,
`foundation_for`, `movable_run`), and a property test checks that they agree on every move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from .cards import KING, Card, full_deck
from .deal import Layout
from .moves import IllegalMove, Move, Moves, Place, PlaceKind, Status
from .piles import foundation_ids, pile_names
from .text import render
from .variants import Variant

Column = tuple[Card, ...]

_HOME: dict[PlaceKind, Place] = {k: Place(k) for k in ("f", "fa", "fk")}


def builds_on(variant: Variant, card: Card, target: Card) -> bool:
    """May ``card`` be packed onto ``target`` in a column?"""
    if variant.build == "suit-up-or-down":
        return card.suit == target.suit and abs(card.rank - target.rank) == 1
    if card.rank != target.rank - 1:
        return False
    return variant.build == "rank" or card.red != target.red


@cache
def hosts(variant: Variant) -> dict[Card, tuple[Card, ...]]:
    """For every card, the cards it may be packed onto by `builds_on`: move generation looks
    target columns up by their top card instead of trying every column."""
    return {c: tuple(h for h in _next_to(c) if builds_on(variant, c, h)) for c in full_deck()}


def _next_to(card: Card) -> list[Card]:
    """The cards one rank above or below ``card``."""
    return [Card(r, s) for r in (card.rank + 1, card.rank - 1) if 1 <= r <= KING
            for s in range(4)]


@cache
def _column_places(count: int) -> tuple[Place, ...]:
    """``c1`` .. ``c<count>``, built once and shared by every generated move."""
    return tuple(Place("c", j) for j in range(count))


def space_takes(variant: Variant, card: Card) -> bool:
    """May ``card`` (the bottom of what moves) fill an empty column?"""
    return variant.space == "any" or (variant.space == "kings" and card.rank == KING)


@dataclass(frozen=True, slots=True)
class PackerState:
    variant: Variant
    columns: tuple[Column, ...]  # bottom card first
    hidden: tuple[int, ...]  # face-down cards at the bottom of each column
    foundations: tuple[Column, ...]  # suit piles by suit index; Bisley adds 4 king piles

    @classmethod
    def start(cls, variant: Variant, layout: Layout) -> PackerState:
        piles = 8 if variant.kings_down else 4
        foundations = tuple(layout.foundations) + ((),) * (piles - len(layout.foundations))
        hidden = layout.face_down or (0,) * len(layout.columns)
        return cls(variant, layout.columns, hidden, foundations)

    # ---- foundations -------------------------------------------------------------------
    def foundation_for(self, card: Card, kind: str = "f") -> int | None:
        """The pile ``card`` may go to by a move to ``kind`` (f, fa or fk), or None."""
        v = self.variant
        if v.kings_down:
            if kind == "fa":
                pile = self.foundations[card.suit]
                return card.suit if pile and pile[-1].rank == card.rank - 1 else None
            if kind == "fk":
                pile = self.foundations[4 + card.suit]
                top = pile[-1].rank if pile else KING + 1
                return 4 + card.suit if top == card.rank + 1 else None
            return None
        if kind != "f":
            return None
        if v.foundations == "suit":
            pile = self.foundations[card.suit]
            return card.suit if len(pile) == card.rank - 1 else None
        for i, pile in enumerate(self.foundations):
            if len(pile) == card.rank - 1:
                return i
        return None

    def _home_kinds(self) -> tuple[PlaceKind, ...]:
        """How a move to the foundations is written: ``f``, or Bisley's ``fa`` and ``fk``."""
        return ("fa", "fk") if self.variant.kings_down else ("f",)

    def _foundation_source(self, place: Place) -> int | None:
        """Pile index named by a worry-back source, if the variant names piles that way."""
        if self.variant.foundations == "suit" and place.kind == "fs":
            return place.index
        if self.variant.foundations == "rank" and place.kind == "f" and place.index < 4:
            return place.index if place.index >= 0 else None
        return None

    def _foundation_place(self, pile: int) -> Place:
        return Place("fs", pile) if self.variant.foundations == "suit" else Place("f", pile)

    # ---- legality ----------------------------------------------------------------------
    def movable_run(self, column: int) -> int:
        """How many top cards of ``column`` may move together (1 unless sequences move)."""
        col = self.columns[column]
        if not col:
            return 0
        if not self.variant.move_sequences:
            return 1
        n, limit = 1, len(col) - self.hidden[column]
        while n < limit and builds_on(self.variant, col[-n], col[-n - 1]):
            n += 1
        return n

    def why_illegal(self, move: Move) -> str | None:
        """None if ``move`` is legal here, else the reason in plain words."""
        v, src, dst, n = self.variant, move.source, move.target, move.count
        ncols = len(self.columns)
        for place in (src, dst):
            if place.kind == "c" and place.index >= ncols:
                return f"there is no column {place.index + 1} (columns are c1..c{ncols})"
            if place.kind in ("s", "w"):
                return f"{v.title} has no stock or waste piles"
        if src.kind == "c":
            col = self.columns[src.index]
            if not col:
                return f"column {src.index + 1} is empty"
            if n > 1 and not v.move_sequences:
                return f"only one card moves at a time in {v.title}"
            if n > self.movable_run(src.index):
                return f"the top {n} cards of column {src.index + 1} are not a movable sequence"
            card = col[-n]
            if dst.kind in ("f", "fa", "fk"):
                if n > 1:
                    return "only one card at a time goes to a foundation"
                if dst.index >= 0:
                    return "name the foundation as f (its own pile)"
                if (dst.kind == "f") == v.kings_down:
                    if v.kings_down:
                        return "Bisley foundations are fa (aces up) and fk (kings down)"
                    return f"{v.title} foundations are named f"
                if self.foundation_for(card, dst.kind) is None:
                    return f"{card} does not go on its foundation now"
                return None
            if dst.kind != "c":
                return f"cannot move a card to {dst}"
            if dst.index == src.index:
                return "a card cannot move onto its own column"
            return self._lands(card, dst.index)
        pile = self._foundation_source(src)
        if pile is None:
            return f"cannot move from {src}"
        if not v.worry_back:
            return f"cards never come back from the foundations in {v.title} (worry_back is off)"
        if not self.foundations[pile]:
            return f"foundation {src} is empty"
        if dst.kind != "c" or n != 1:
            return "a foundation card may only come back onto a column, one at a time"
        return self._lands(self.foundations[pile][-1], dst.index)

    def _lands(self, card: Card, column: int) -> str | None:
        target = self.columns[column]
        if target:
            if builds_on(self.variant, card, target[-1]):
                return None
            how = {"rank": "down regardless of suit", "alternate": "down in alternate colours",
                   "suit-up-or-down": "up or down in suit"}[self.variant.build]
            return f"{card} cannot go on {target[-1]}: columns build {how}"
        if space_takes(self.variant, card):
            return None
        if self.variant.space == "kings":
            return f"only a king may fill an empty column; {card} is not a king"
        return f"an empty column is never filled in {self.variant.title}"

    def legal_moves(self) -> Moves:
        """Every legal move, generated directly (the web server asks once per answer, the
        solver's exact search once per position); `why_illegal` explains any other move, and
        tests/test_properties.py checks that the two agree on every candidate move."""
        v, columns = self.variant, self.columns
        hosts_of = hosts(v)
        on_top: dict[Card, list[int]] = {}  # columns by their top card
        spaces: list[int] = []
        for j, col in enumerate(columns):
            if col:
                on_top.setdefault(col[-1], []).append(j)
            else:
                spaces.append(j)

        def targets(card: Card) -> list[int]:
            """The columns ``card`` may land on, in column order."""
            found = [j for host in hosts_of[card] for j in on_top.get(host, ())]
            if spaces and space_takes(v, card):
                found += spaces
            return sorted(found)

        at, out = _column_places(len(columns)), Moves()
        for i, col in enumerate(columns):
            if not col:
                continue
            src = at[i]
            out += [Move(src, _HOME[k]) for k in self._home_kinds()
                    if self.foundation_for(col[-1], k) is not None]
            for n in range(1, self.movable_run(i) + 1):
                out += [Move(src, at[j], n) for j in targets(col[-n]) if j != i]
        if v.worry_back:
            for p, pile in enumerate(self.foundations):
                if pile:
                    src = self._foundation_place(p)
                    out += [Move(src, at[j]) for j in targets(pile[-1])]
        return out

    # ---- moving --------------------------------------------------------------------------
    def apply(self, move: Move) -> PackerState:
        """The state after ``move``; raises `IllegalMove` (saying why) and changes nothing."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMove(f"{move}: {reason}")
        columns, hidden, piles = list(self.columns), list(self.hidden), list(self.foundations)
        src, dst = move.source, move.target
        if src.kind == "c":
            col = columns[src.index]
            cards, columns[src.index] = col[-move.count:], col[: -move.count]
            # An exposed face-down card turns up.
            hidden[src.index] = min(hidden[src.index], max(len(columns[src.index]) - 1, 0))
        else:
            pile = self._foundation_source(src)
            assert pile is not None
            cards, piles[pile] = piles[pile][-1:], piles[pile][:-1]
        if dst.kind == "c":
            columns[dst.index] = columns[dst.index] + cards
        else:
            pile = self.foundation_for(cards[0], dst.kind)
            assert pile is not None
            piles[pile] = piles[pile] + cards
        return PackerState(self.variant, tuple(columns), tuple(hidden), tuple(piles))

    # ---- verdicts and views ---------------------------------------------------------------
    @property
    def won(self) -> bool:
        return not any(self.columns)

    @property
    def hides_cards(self) -> bool:
        """Whether the player cannot see some card still to be played (a face-down card):
        front ends then ask for no verdict on the position, which would give it away."""
        return any(self.hidden)

    def status(self) -> Status:
        """``won``, ``lost`` (no legal move remains) or ``in play``."""
        return Status.WON if self.won else Status.IN_PLAY if self.legal_moves() else Status.LOST

    def __str__(self) -> str:
        """The board as the player sees it (a hidden card as ``##``)."""
        return render(self.view())

    def cards(self) -> list[Card]:
        """Every card in play, hidden ones included (for checks that none is lost)."""
        return [c for col in self.columns for c in col] + [c for p in self.foundations for c in p]

    def safe_moves(self) -> list[Move]:
        """Moves to the foundations that can never turn a winnable position into a lost one,
        so front ends may play them automatically (docs/rules.md states the rule)."""
        out = []
        for i, col in enumerate(self.columns):
            if not col:
                continue
            for kind in self._home_kinds():
                if self.foundation_for(col[-1], kind) is not None and self._safe_home(i):
                    out.append(Move(Place("c", i), Place(kind)))
                    break
        return out

    def _safe_home(self, column: int) -> bool:
        """Whether the top card of ``column``, which may go home, may go there automatically
        (rules S1-S4 of docs/solver.md, which assume home cards stay home)."""
        v, col = self.variant, self.columns[column]
        card = col[-1]
        if v.kings_down:
            safe = True  # S4: in Bisley every move home is safe
        elif v.foundations == "rank":
            # S3: a rank pile at r - 1 may be wanted by another card of rank r, unless every
            # card of rank r - 1 is home (then each pile is at r - 1 or higher).
            safe = min(len(pile) for pile in self.foundations) >= card.rank - 1
        else:
            safe = self._never_needed(card)
        if safe and v.worry_back:
            # The proofs break when home cards can come back; a move that worrying back undoes
            # at once (the card straight back where it was) is safe all the same. A face-down
            # card beneath counts as no host: the answer may not depend on it.
            if len(col) == 1:
                safe = space_takes(v, card)
            else:
                safe = len(col) - 2 >= self.hidden[column] and builds_on(v, card, col[-2])
        return safe

    def _on_foundations(self, card: Card) -> bool:
        return any(card in pile for pile in self.foundations)

    def _never_needed(self, card: Card) -> bool:
        """No card that could ever pack onto ``card`` needs it: each such card is home, or
        could go home as soon as it is free and nothing could ever pack onto it."""
        for x in _packable_on(self.variant, card):
            if self._on_foundations(x):
                continue
            if self.foundation_for(x) is None:
                return False
            if not all(self._on_foundations(y) for y in _packable_on(self.variant, x)):
                return False
        return True

    def view(self) -> dict[str, Any]:
        """What the player sees: face-down cards are sent as None, never as cards."""
        return {
            "family": "packer",
            "columns": [
                [None if k < h else str(c) for k, c in enumerate(col)]
                for col, h in zip(self.columns, self.hidden, strict=True)
            ],
            "foundations": [
                {"name": name, "cards": [str(c) for c in pile]}
                for name, pile in zip(foundation_ids(self.variant), self.foundations, strict=True)
            ],
            "names": dict(pile_names(self.variant)),
        }

    def to_layout(self) -> Layout:
        return Layout(self.columns, self.foundations, self.hidden)


def _packable_on(variant: Variant, card: Card) -> list[Card]:
    return [x for x in _next_to(card) if builds_on(variant, x, card)]
