"""The piles on the screen and the places of the notation they stand for.

A `PileRef` is what the player points at (a key, a click, the cursor); a `Place` is what a
`Move` names. The two differ where one target stands for several piles (Baker's Dozen's
``f``: the foundation the card belongs on).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..game import State
from ..moves import Place, PlaceKind
from ..packer import PackerState
from ..variants import Variant

LETTERS = "abcdefghijklm"
FOUNDATION_KINDS: tuple[PlaceKind, ...] = ("f", "fa", "fk")

PileKind = Literal["col", "found", "stock", "waste"]
# Columns and waste piles: the same numbered place in the notation as source and as target.
_PILE_PLACE: dict[PileKind, PlaceKind] = {"col": "c", "waste": "w"}
_PLACE_PILE: dict[PlaceKind, PileKind] = {v: k for k, v in _PILE_PLACE.items()}


@dataclass(frozen=True)
class PileRef:
    """A pile on the screen: a column, a foundation, the stock or a waste pile (0-based)."""

    kind: PileKind
    index: int = 0


@dataclass(frozen=True)
class Selection:
    """The source the player chose, waiting for a target."""

    ref: PileRef
    count: int | None = None  # None: as many cards as the target takes


def foundation_count(variant: Variant) -> int:
    if variant.family == "calculation":
        return len(variant.bases)
    return 8 if variant.kings_down else 4


def groups(variant: Variant) -> list[list[PileRef]]:
    """The piles in the rows the cursor moves through."""
    found = [PileRef("found", p) for p in range(foundation_count(variant))]
    if variant.family == "calculation":
        return [[PileRef("stock"), *found],
                [PileRef("waste", w) for w in range(variant.waste_piles)]]
    return [found, [PileRef("col", c) for c in range(variant.columns)]]




def pile_for_key(variant: Variant, char: str) -> PileRef | None:
    """The pile a key names, or None."""
    if variant.family == "packer":
        if char in LETTERS[: variant.columns]:
            return PileRef("col", LETTERS.index(char))
        if char.isdigit():
            c = int(char) - 1 if char != "0" else 9
            return PileRef("col", c) if c < variant.columns else None
        return None
    if char == "s":
        return PileRef("stock")
    if char in LETTERS[: variant.waste_piles]:
        return PileRef("waste", LETTERS.index(char))
    if char.isdigit() and 1 <= int(char) <= len(variant.bases):
        return PileRef("found", int(char) - 1)
    return None


def source_place(variant: Variant, ref: PileRef) -> Place | None:
    """The place a move from ``ref`` starts at; None where no card may leave it."""
    v = variant
    if ref.kind in _PILE_PLACE:
        return Place(_PILE_PLACE[ref.kind], ref.index)
    if ref.kind == "stock":
        return Place("s")
    if v.family == "packer" and v.worry_back and not v.kings_down:
        return Place("fs", ref.index) if v.foundations == "suit" else Place("f", ref.index)
    return None


def target_place(variant: Variant, ref: PileRef) -> Place | None:
    """The place a move onto ``ref`` names; None where no card may go."""
    if ref.kind in _PILE_PLACE:
        return Place(_PILE_PLACE[ref.kind], ref.index)
    if ref.kind != "found":
        return None
    if variant.family == "calculation":
        return Place("f", ref.index)
    if variant.kings_down:
        return Place("fa" if ref.index < 4 else "fk")
    return Place("f")


def pile_of(state: State, place: Place, source: Place | None = None) -> PileRef | None:
    """The pile a move's place names (a foundation target: the pile the card goes to)."""
    if place.kind in _PLACE_PILE:
        return PileRef(_PLACE_PILE[place.kind], place.index)
    if place.kind == "s":
        return PileRef("stock")
    if place.kind == "fs" or (place.kind == "f" and place.index >= 0):
        return PileRef("found", place.index)
    if source is not None and source.kind == "c" and isinstance(state, PackerState):
        col = state.columns[source.index]
        if col:
            pile = state.foundation_for(col[-1], place.kind)
            if pile is not None:
                return PileRef("found", pile)
    return None


def view_cards(state: State, ref: PileRef) -> list[str | None]:
    """The cards of a pile as the player sees them (the stock: its turned card only)."""
    view = state.view()
    if ref.kind == "col":
        return list(view["columns"][ref.index])
    if ref.kind == "waste":
        return list(view["waste"][ref.index])
    if ref.kind == "stock":
        return [view["stock_top"]] if view["stock_top"] else []
    return list(view["foundations"][ref.index]["cards"])


def movable(state: State, ref: PileRef) -> int:
    """Cards highlighted when a pile is selected: its movable run."""
    if ref.kind == "col" and isinstance(state, PackerState):
        return state.movable_run(ref.index)
    return 1

