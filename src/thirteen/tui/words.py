"""Cards, piles and moves in the words and symbols the terminal shows (``10♥``, ``column c``).

A pile's name in messages is the engine's (`piles`); its label on the board (``c·3``, with the
key that picks it) is `pile_label`.
"""

from __future__ import annotations

import re

from ..cards import RANKS, SUIT_SYMBOLS, Card
from ..game import State
from ..moves import Move
from ..piles import foundation_ids, pile_names
from ..variants import Variant
from .places import LETTERS, PileRef, movable, pile_of, view_cards

_CARD_TEXT = re.compile(r"\b(?:10|[A2-9TJQK])[CSHD]\b")


def card_face(text: str) -> tuple[str, str, bool]:
    """``("10", "♥", True)`` for ``"TH"``: rank text, suit symbol and whether it is red."""
    card = Card.parse(text)
    rank = "10" if card.rank == 10 else RANKS[card.rank - 1]
    return rank, SUIT_SYMBOLS[card.suit], card.red


def glyph(text: str) -> str:
    """``"10♥"`` for ``"TH"``."""
    rank, suit, _ = card_face(text)
    return rank + suit


def glyphs(text: str) -> str:
    """``text`` with every card in the notation (``7C``) written as the board shows it."""
    return _CARD_TEXT.sub(lambda m: glyph(m.group(0)), text)


def clock(seconds: float) -> str:
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


def pile_name(state: State, ref: PileRef) -> str:
    """The pile in words (``column 3``), as the engine's view names it."""
    if ref.kind == "found":
        pile_id = foundation_ids(state.variant)[ref.index]
    else:
        pile_id = {"col": "c", "waste": "w", "stock": "s"}[ref.kind]
        pile_id += "" if ref.kind == "stock" else str(ref.index + 1)
    return pile_names(state.variant)[pile_id]


def pile_label(variant: Variant, ref: PileRef) -> tuple[str, str]:
    """The pile's label on the board and the mark of its empty slot."""
    if ref.kind == "col":
        c = ref.index
        return (f"{LETTERS[c]} {c + 1}" if c >= 9 else f"{LETTERS[c]}·{c + 1}"), ""
    if ref.kind == "waste":
        return LETTERS[ref.index], ""
    if ref.kind == "stock":
        return "s stock", ""
    p = ref.index
    if variant.family == "calculation":
        return f"{p + 1} +{variant.intervals[p]}", ""
    suit = SUIT_SYMBOLS[p % 4]
    if variant.kings_down:
        return f"{suit}{'↑' if p < 4 else '↓'}", ("A" if p < 4 else "K") + suit
    return (suit if variant.foundations == "suit" else f"f{p + 1}"), ""


def top_words(state: State, ref: PileRef, count: int | None = None) -> str:
    """The card (``7♣``) or run (``9♠..7♣``) a move from ``ref`` takes."""
    cards = view_cards(state, ref)
    if not cards or cards[-1] is None:
        return pile_name(state, ref)
    n = count or movable(state, ref)
    first = cards[-n] if 1 < n <= len(cards) else None  # a moved run is face up
    if first is not None:
        return f"{glyph(first)}..{glyph(cards[-1])}"
    return glyph(cards[-1])


def move_words(state: State, move: Move) -> str:
    """``5♠ to column g (c3-c7)``: a move in words, said in the position before it."""
    src = pile_of(state, move.source)
    dst = pile_of(state, move.target, move.source)
    what = top_words(state, src, move.count) if src is not None else str(move.source)
    where = pile_name(state, dst) if dst is not None else "its foundation"
    if dst is not None and dst.kind == "found" and state.variant.family == "packer":
        where = "its foundation"
    return f"{what} to {where} ({move})"

