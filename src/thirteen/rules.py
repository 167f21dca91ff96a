"""The rules of a game in plain words, generated from its `Variant` fields.

Generated rather than written per game, so the text can never disagree with what the engine
enforces: a new registry entry gets correct rules for free.
"""

from __future__ import annotations

from .cards import rank_name
from .variants import Variant


def describe(variant: Variant) -> str:
    """A few paragraphs for ``thirteen rules``, the help screen and the page."""
    body = _packer(variant) if variant.family == "packer" else _calculation(variant)
    return (f"{variant.title}\n\n" + "\n".join(f"- {line}" for line in body)
            + f"\n\nSource: {variant.source}\n")


def _packer(v: Variant) -> list[str]:
    sizes = sorted(set(v.layout))
    if len(sizes) == 1:
        shape = f"{v.columns} columns of {sizes[0]} cards"
    else:
        shape = ", ".join(f"{v.layout.count(s)} columns of {s}" for s in sizes)
    out = [f"One deck of 52 cards, dealt into {shape}."]
    out.append(f"The bottom {v.face_down} cards of each column lie face down; a face-down card "
               "turns up when the cards above it are gone." if v.face_down
               else "Every card is dealt face up.")
    if v.aces_out:
        out.append(f"{'The four' if v.aces_out == 4 else 'Two'} aces start on the foundations.")
    out.append("At the deal every king goes to the bottom of its column; two kings in one "
               "column keep their order." if v.kings_to_bottom
               else "Kings stay where they are dealt.")
    if v.kings_down:
        out.append("Each suit has two foundations: one built up from its ace, one built down from "
                   "its king; the two may meet.")
    elif v.foundations == "suit":
        out.append("Foundations are built up by suit from the ace to the king.")
    else:
        out.append("Foundations are built up from the ace to the king regardless of suit.")
    build = {"rank": "down regardless of suit", "alternate": "down in alternate colours",
             "suit-up-or-down": "up or down in the same suit"}[v.build]
    out.append(f"Only the top card of a column is available; columns are built {build}.")
    out.append("A whole or partial sequence built down in alternate colours may move as a unit."
               if v.move_sequences else "Cards move one at a time.")
    out.append({"none": "An emptied column is never filled again.",
                "any": "Any card" + (" or sequence" if v.move_sequences else "")
                + " may fill an empty column.",
                "kings": "Only a king may fill an empty column."}[v.space])
    out.append("The top card of a foundation may come back onto a column by the building rule, "
               "or into a space that may take it (worrying back)." if v.worry_back
               else "A card on a foundation stays there.")
    out.append("You win when every card is on the foundations; you lose when no move remains.")
    return out


def _calculation(v: Variant) -> list[str]:
    out = [f"{'Two decks' if v.decks == 2 else 'One deck'} of 52 cards."]
    if v.markers:
        out.append("An ace and a two to an eight are set aside as markers; they only remind you "
                   "of each foundation's interval.")
    seqs = "; ".join(
        f"f{p + 1} by {step}: " + " ".join(rank_name(r) for r in v.sequence(p))
        for p, step in enumerate(v.intervals)
    )
    out.append(f"{len(v.bases)} foundations start with a card of the ranks "
               + ", ".join(rank_name(b) for b in v.bases)
               + " and are built regardless of suit, each by its interval, counting past the "
               "king back to the ace (J = 11, Q = 12, K = 13), ending with a king: " + seqs + ".")
    out.append("Turn the stock one card at a time; the turned card goes to a foundation or onto "
               f"one of {v.waste_piles} waste piles before the next is turned.")
    out.append("The top card of a waste pile may go to a foundation, never to another waste pile.")
    every = "every card but the markers" if v.markers else "every card"
    out.append(f"You win when {every} is on the foundations; you lose when the stock is out and "
               "no play remains.")
    return out
