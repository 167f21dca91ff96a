"""Moves and their one text notation, shared by the CLI, the solver, saved games and the web API.

A move names a source place, a target place and, for sequence moves, a card count:

- ``c3-c7`` the top card of column 3 onto column 7; ``c3-c7:4`` the top four cards as a sequence;
- ``c3-f`` the top card of column 3 to its foundation (Bisley: ``c3-fa`` the ace pile of its
  suit, ``c3-fk`` the king pile);
- ``fH-c4`` (``worry_back``) the top card of the hearts foundation back onto column 4
  (``f2-c4`` names pile 2 where foundations are built by rank);
- Calculation family: ``s-w2`` the turned stock card onto waste pile 2, ``s-f5`` onto
  foundation 5, ``w2-f5`` the top of waste pile 2 onto foundation 5.

Columns, waste piles and numbered foundations count from 1 in text and from 0 in `Place`.
Parsing checks only the form; whether a move is legal is the engine's question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, cast

from .cards import SUITS

PlaceKind = Literal["c", "f", "fs", "fa", "fk", "s", "w"]


class MoveError(ValueError):
    """A move that is malformed or illegal; the message says why."""


class IllegalMove(MoveError):
    """A well-formed move that the rules refuse in this position."""


@dataclass(frozen=True, slots=True)
class Place:
    kind: PlaceKind
    index: int = -1  # 0-based (a suit for "fs"); -1 where no number is needed ("f": its own pile)

    def __str__(self) -> str:
        if self.kind == "fs":
            return "f" + SUITS[self.index]
        if self.kind == "s" or (self.kind in ("f", "fa", "fk") and self.index < 0):
            return self.kind
        return f"{self.kind}{self.index + 1}"


_MOVE = re.compile(r"^\s*([a-z]+)(\d*)\s*-\s*([a-z]+)(\d*)\s*(?::\s*(\d+))?\s*$", re.IGNORECASE)
_SUIT_PILE = re.compile(r"^f([CSHD])$", re.IGNORECASE)


def _place(kind: str, number: str, text: str) -> Place:
    kind = kind.lower()
    if kind in ("c", "w") or (kind == "f" and number):
        if not number or int(number) < 1:
            raise MoveError(f"malformed move {text!r}: {kind} needs a number from 1")
        return Place(cast(PlaceKind, kind), int(number) - 1)
    if kind in ("f", "fa", "fk", "s") and not number:
        return Place(cast(PlaceKind, kind))
    raise MoveError(f"malformed move {text!r}: unknown place {kind}{number!s}")


@dataclass(frozen=True, slots=True)
class Move:
    source: Place
    target: Place
    count: int = 1

    def __str__(self) -> str:
        text = f"{self.source}-{self.target}"
        return text if self.count == 1 else f"{text}:{self.count}"

    def __repr__(self) -> str:
        """The notation, as an expression that gives the move back."""
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move; raises `MoveError` naming what is wrong with the text."""
        match = _MOVE.match(text)
        if match is None:
            raise MoveError(f"malformed move {text!r}: expected e.g. c3-c7, c3-f, s-w2, w2-f5")
        skind, snum, tkind, tnum, count = match.groups()
        if _SUIT_PILE.match(skind) and not snum:
            source = Place("fs", SUITS.index(skind[1].upper()))
        else:
            source = _place(skind, snum, text)
        target = _place(tkind, tnum, text)
        n = int(count) if count else 1
        if n < 1:
            raise MoveError(f"malformed move {text!r}: a count must be at least 1")
        if source.kind in ("fa", "fk") or target.kind == "s":
            raise MoveError(f"malformed move {text!r}: {source} cannot be a source, nor s a target")
        return cls(source, target, n)


class Moves(list[Move]):
    """The legal moves of a position: a list that also answers ``"c3-c7" in moves`` by the
    notation, where a plain list would silently say False."""

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            try:
                item = Move.parse(item)
            except MoveError:
                return False
        return super().__contains__(item)


class Status(StrEnum):
    """A position's verdict by the rules. A ``str``, so it compares equal to, prints as and
    serialises as its text."""

    WON = "won"
    LOST = "lost"  # no legal move remains
    IN_PLAY = "in play"
