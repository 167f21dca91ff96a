"""Cards: ranks, suits, colours and their text forms.

A card is a plain (rank, suit) pair so that it hashes, compares and sorts cheaply; the two
copies of a card in a two-deck game are equal on purpose (no rule can tell them apart).
Suits are numbered as PySolFC and pysol-cards number them: clubs, spades, hearts, diamonds.
"""

from __future__ import annotations

from typing import NamedTuple

RANKS = "A23456789TJQK"
SUITS = "CSHD"
SUIT_SYMBOLS = "♣♠♥♦"
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
CLUBS, SPADES, HEARTS, DIAMONDS = 0, 1, 2, 3


class CardError(ValueError):
    """A card text that names no card."""


class Card(NamedTuple):
    rank: int  # 1 (ace) .. 13 (king)
    suit: int  # 0..3, index into SUITS

    @property
    def red(self) -> bool:
        return self.suit >= HEARTS

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + SUITS[self.suit]

    def symbol(self) -> str:
        """Unicode form for terminals and pages, e.g. ``10♥``."""
        rank = "10" if self.rank == 10 else RANKS[self.rank - 1]
        return rank + SUIT_SYMBOLS[self.suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``AS``, ``TD``, ``10D``, ``kh`` (rank first, suit last)."""
        t = text.strip().upper()
        if len(t) < 2:
            raise CardError(f"not a card: {text!r}")
        rank_text, suit_text = t[:-1], t[-1]
        if suit_text not in SUITS:
            raise CardError(f"not a card: {text!r} (suit must be one of {SUITS})")
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANKS:
            raise CardError(f"not a card: {text!r} (rank must be one of {RANKS} or 10)")
        return cls(RANKS.index(rank_text) + 1, SUITS.index(suit_text))


def rank_name(rank: int) -> str:
    return RANKS[rank - 1]


def full_deck(decks: int = 1) -> list[Card]:
    """The cards in PySolFC's creation order (deck, then suit, then rank)."""
    return [Card(r, s) for _ in range(decks) for s in range(4) for r in range(1, 14)]
