"""Every pile's id and its name in words, made here once for every front end.

The id is what the view calls a pile and the page uses for it (``c3``, ``w2``, ``s``, ``fS``
for a suit's foundation, ``kS`` for Bisley's king pile, ``f5`` for a numbered foundation); the
name is how a message or a screen reader says it ("column 3", "the spades foundation"). The
view carries the names (`names`), so the page, the terminal and the server never derive them.
"""

from __future__ import annotations

from functools import cache

from .cards import SUITS
from .variants import Variant

_SUIT_WORDS = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
#: A move's target that stands for whichever foundation takes the card (Baker's Dozen's ``f``,
#: Bisley's ``fa`` and ``fk``).
ANY_FOUNDATION = ("f", "fa", "fk")


def foundation_ids(variant: Variant) -> tuple[str, ...]:
    """The foundations' ids, in the order of the state's piles."""
    if variant.family == "calculation":
        return tuple(f"f{p + 1}" for p in range(len(variant.intervals)))
    if variant.foundations == "rank":
        return tuple(f"f{p + 1}" for p in range(4))
    return tuple(f"f{s}" for s in SUITS) + (tuple(f"k{s}" for s in SUITS)
                                            if variant.kings_down else ())


def _foundation_name(pile_id: str) -> str:
    suit = _SUIT_WORDS.get(pile_id[1:])
    if suit is None:
        return f"foundation {pile_id[1:]}"
    return f"the {suit} king foundation" if pile_id[0] == "k" else f"the {suit} foundation"


@cache
def pile_names(variant: Variant) -> dict[str, str]:
    """Every pile id of ``variant`` (and the any-foundation targets) and its name."""
    names = {f"c{c + 1}": f"column {c + 1}" for c in range(variant.columns)}
    names.update({f"w{w + 1}": f"waste pile {w + 1}" for w in range(variant.waste_piles)})
    if variant.family == "calculation":
        names["s"] = "the stock"
    names.update({f: _foundation_name(f) for f in foundation_ids(variant)})
    names.update(dict.fromkeys(ANY_FOUNDATION, "its foundation"))
    return names
