"""Deals: PySolFC's numbered deals reproduced card for card, and board text in and out.

Deal N here is the deal N that PySolFC shows, so a player can check a deal in PySolFC or
pass it to fc-solve. PySolFC's steps, in order (``Game.createCards`` and ``Game.shuffle`` in
pysollib/game/__init__.py, ``constructRandom`` in pysollib/pysolrandom.py):

1. The cards are made deck by deck, suit by suit (C, S, H, D), rank by rank.
2. For 1 <= N < 32000 the MS FreeCell generator (``LCRandom31``) shuffles them, after the
   MS re-ordering when there are exactly 52 cards; otherwise ``MTRandom(N)``. (pysol-cards'
   own ``shuffle()`` uses ``<= 32000``, one deal off at N = 32000; PySolFC decides here.)
3. The game's ``_shuffleHook`` may re-order the list; the last element is the top of the
   talon, and ``dealRow`` deals from the top to columns 0..n-1, one round at a time.

Per game (PySolFC ids), as read in shlomif/PySolFC (``_shuffleHook`` and ``startGame`` of
each class; tests/test_deal.py rebuilds these steps in the shape of that code and compares):
Baker's Dozen (31, ``BakersDozen`` in pysollib/games/bakersdozen.py) and Good Measure (86,
``GoodMeasure``) swap each king with the deepest non-king dealt before it to the same column,
then reverse the list; Good Measure then moves the two aces nearest the bottom of the talon
to the very bottom, takes them to the foundations after the deal, and because it does so
after placing the kings, a king can be left above other cards (about 1.8% of deals, deal 2
is one): the seed's rule (kings to the bottom, kings and other cards each keeping their
order) is applied to PySolFC's columns. Spanish Patience II (664, ``SpanishPatienceII``),
Portuguese Solitaire (308) and Castles in Spain (83: three rows face down, then one up)
have no hook. Bisley is PySolFC's "Bisley 13" (343001, ``Bisley13`` in bisley13.py, with
``Bisley._shuffleHook`` from bisley.py): the four aces go to the bottom of the talon, three
rounds to all 13 columns and a fourth to columns 5..13, then the aces to their foundations.
Calculation (256) and Imaginary Thirteen (863, ``ImaginaryThirteen`` in calculation.py, a
``Calculation`` with two decks) share ``Calculation._shuffleHook``: scanning the shuffled
list from the bottom of the talon, the first card of each rank A..4 (A..8 with two decks)
goes to the top, the ace uppermost; ``dealRow`` puts them on the foundations in rank order
and the stock is turned from the top. ``imaginary-thirteen`` follows RULES.md: from the same
two-deck shuffle in dealing order, the first card of each rank A..8 is a marker, then the
first remaining card of each base rank is that base.

Board text, packers (fc-solve's format): one column per line, bottom card first, ``T`` for
ten (``10`` and ``1`` for an ace are read too), face-down cards as ``<KS>``, a leading
``:`` allowed, ``:`` alone for an empty column, and an optional
``Foundations: H-A C-0 D-2 S-K`` line (top card of each suit's pile, 0 for empty). Bisley's
king piles, built down, use a ``Down-Foundations:`` line of the same form.

Board text, calculation family (this project's extension)::

    Markers: AS 2D 3C 4H 5S 6D 7C 8H        (Imaginary Thirteen only)
    Foundations: 2C | 4D 6S | ...            (one pile per foundation, bottom card first)
    Waste: 9H 3C                             (one line per waste pile, bottom card first)
    Stock: JD 5C ...                         (stock[0], the card turned next, first)

Blank lines are ignored everywhere.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pysol_cards.cards import ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

from .cards import ACE, KING, RANKS, SUITS, Card, CardError, full_deck
from .variants import Variant

Pile = tuple[Card, ...]

MIN_DEAL = 1
MAX_DEAL = 10**20 - 1  # PySolFC's MTRandom takes up to 20 digits
MS_DEALS = 32000  # PySolFC uses the MS FreeCell generator below this number

_FOUNDATION_ORDER = (2, 0, 3, 1)  # fc-solve and pysol-cards write H, C, D, S
# Packer foundation lines: piles 0..3 (built up from the aces), then Bisley's 4..7 (down).
_PILE_LINES = ("Foundations", "Down-Foundations")


class BoardError(ValueError):
    """Board text that does not describe a position of the game it is read for."""


@dataclass(frozen=True, slots=True)
class Layout:
    """A deal (or a position) as piles of cards; bottom card first in every pile.

    Packers: ``columns`` after the setup rules, ``foundations`` one pile per suit index
    (Bisley: four ace piles, then four king piles), ``face_down`` per column. Calculation
    family: ``columns`` are the waste piles, ``foundations`` one pile per foundation,
    ``stock[0]`` is the next card turned, ``markers`` Imaginary Thirteen's reminders.
    """

    columns: tuple[Pile, ...]
    foundations: tuple[Pile, ...]
    face_down: tuple[int, ...] = ()
    stock: Pile = ()
    markers: Pile = ()


# ---- numbers and the shuffle ---------------------------------------------------------------


def _check_number(number: int) -> int:
    """Refuse what PySolFC would not deal, so a bad number fails here and not deep inside."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise ValueError(f"a deal number is a whole number, not {number!r}")
    if not MIN_DEAL <= number <= MAX_DEAL:
        raise ValueError(f"deal numbers run from {MIN_DEAL} to {MAX_DEAL}, not {number}")
    return number


def shuffled(decks: int, number: int) -> list[Card]:
    """PySolFC's shuffled cards for deal ``number``, before any game's hook; last = top."""
    _check_number(number)
    if decks < 1:
        raise ValueError(f"a game needs at least one deck, not {decks}")
    cards: list[Card] = full_deck(decks)
    if number < MS_DEALS:
        rng = LCRandom31(number)
        cards = ms_rearrange(cards)  # leaves anything but 52 cards alone, as PySolFC does
    else:
        rng = MTRandom(number)
    rng.shuffle(cards)
    return [Card(c.rank, c.suit) for c in cards]


def random_number(rng: random.Random | None = None) -> int:
    """A deal number PySolFC also accepts, so a random deal can be replayed by its number."""
    return (rng or random.SystemRandom()).randint(MIN_DEAL, MAX_DEAL)


# ---- dealing -------------------------------------------------------------------------------


def deal(variant: Variant, number: int) -> Layout:
    """Deal ``number`` of ``variant``, the same cards in the same places as PySolFC."""
    _check_number(number)
    if variant.family == "packer":
        return _deal_packer(variant, number)
    if variant.family == "calculation":
        return _deal_calculation(variant, number)
    raise ValueError(f"{variant.name}: no deal for the {variant.family!r} family")


def _kings_hook(cards: Sequence[Card], columns: int) -> list[Card]:
    """PySolFC's Baker's Dozen hook: each king swaps with the first non-king of its column.

    ``cards`` is in dealing order (card i goes to column i % columns); kings are taken in
    the order they are dealt, which leaves every column's kings at its bottom.
    """
    out = list(cards)
    for i in [k for k, c in enumerate(out) if c.rank == KING]:
        for j in range(i % columns, i, columns):
            if out[j].rank != KING:
                out[i], out[j] = out[j], out[i]
                break
    return out


def _aces_out(talon: Sequence[Card], count: int) -> tuple[list[Card], list[Card]]:
    """PySolFC's ``_shuffleHookMoveToBottom`` for aces: the first ``count`` aces from the
    bottom of the talon are dealt last, to the foundations, so the columns get the rest in
    order. (PySolFC also sorts those aces by suit, which only picks each one's pile.)"""
    aces = [c for c in talon if c.rank == ACE][:count]
    rest = list(talon)
    for ace in aces:
        rest.remove(ace)
    return rest, aces


def _kings_first(column: Iterable[Card]) -> Pile:
    """The seed's rule: kings beneath the other cards, each group keeping its order."""
    cards = list(column)
    return tuple([c for c in cards if c.rank == KING] + [c for c in cards if c.rank != KING])


def _deal_packer(variant: Variant, number: int) -> Layout:
    n = variant.columns
    cards = shuffled(variant.decks, number)
    # The kings hook works on the shuffled list and then reverses it, so the list it
    # returns is dealt from its first element.
    talon = _kings_hook(cards, n)[::-1] if variant.kings_to_bottom else cards
    talon, aces = _aces_out(talon, variant.aces_out)
    if sum(variant.layout) != len(talon):
        raise ValueError(f"{variant.name}: layout {variant.layout} and {variant.aces_out} "
                         f"aces out do not use {len(talon) + len(aces)} cards")
    columns: list[list[Card]] = [[] for _ in range(n)]
    for round_ in range(max(variant.layout)):
        for col, size in enumerate(variant.layout):
            if size > round_:
                columns[col].append(talon.pop())
    foundations: list[list[Card]] = [[] for _ in range(8 if variant.kings_down else 4)]
    for ace in aces:
        foundations[ace.suit].append(ace)
    piles = [_kings_first(c) if variant.kings_to_bottom else tuple(c) for c in columns]
    return Layout(
        columns=tuple(piles),
        foundations=tuple(tuple(f) for f in foundations),
        face_down=tuple(min(variant.face_down, len(c)) for c in piles),
    )


def _take_first(cards: Iterable[Card], ranks: Sequence[int]) -> tuple[list[Card], list[Card]]:
    """The first card of each of ``ranks`` (in that order) and the rest, order kept."""
    slots: dict[int, list[int]] = {}
    for slot, rank in enumerate(ranks):
        slots.setdefault(rank, []).append(slot)
    taken: list[Card | None] = [None] * len(ranks)
    rest: list[Card] = []
    for card in cards:
        free = slots.get(card.rank)
        if free:
            taken[free.pop(0)] = card
        else:
            rest.append(card)
    found = [c for c in taken if c is not None]
    if len(found) != len(ranks):  # pragma: no cover - a full deck has every rank
        raise AssertionError("the deck lacks a base rank")
    return found, rest


def _deal_calculation(variant: Variant, number: int) -> Layout:
    cards = shuffled(variant.decks, number)
    markers: list[Card] = []
    if variant.markers:
        dealing_order = cards[::-1]
        markers, rest = _take_first(dealing_order, variant.intervals)
        bases, stock = _take_first(rest, variant.bases)
    else:
        # PySolFC's hook scans from the bottom of the talon; the stock is turned from the top.
        bases, rest = _take_first(cards, variant.bases)
        stock = rest[::-1]
    return Layout(
        columns=((),) * variant.waste_piles,
        foundations=tuple((b,) for b in bases),
        stock=tuple(stock),
        markers=tuple(markers),
    )


# ---- board text ----------------------------------------------------------------------------

_HEADER = re.compile(r"^([A-Za-z][A-Za-z -]*?)\s*:(.*)$")
_FOUNDATION_TOKEN = re.compile(r"^([CSHD])-(0|10|[1-9AJQKT])$", re.IGNORECASE)


def _rank_text(pile: Pile) -> str:
    return RANKS[pile[-1].rank - 1] if pile else "0"


def _foundation_line(title: str, piles: Sequence[Pile]) -> str:
    return f"{title}: " + " ".join(f"{SUITS[s]}-{_rank_text(piles[s])}"
                                   for s in _FOUNDATION_ORDER)


def _cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def format_board(layout: Layout, *, variant: Variant | None = None) -> str:
    """Board text for ``layout``: fc-solve's format for packers, the extension above for the
    calculation family (chosen by ``variant``, else by a stock or markers being present)."""
    calculation = (variant.family == "calculation" if variant is not None
                   else bool(layout.stock or layout.markers))
    lines: list[str] = []
    if calculation:
        if layout.markers:
            lines.append(f"Markers: {_cards_text(layout.markers)}")
        lines.append("Foundations: " + " | ".join(_cards_text(p) for p in layout.foundations))
        lines += [f"Waste: {_cards_text(w)}".rstrip() for w in layout.columns]
        lines.append(f"Stock: {_cards_text(layout.stock)}".rstrip())
    else:
        for k, title in enumerate(_PILE_LINES):
            piles = layout.foundations[4 * k:4 * k + 4]
            if any(piles):
                lines.append(_foundation_line(title, piles))
        hidden = layout.face_down or (0,) * len(layout.columns)
        for column, down in zip(layout.columns, hidden, strict=True):
            tokens = [f"<{c}>" if k < down else str(c) for k, c in enumerate(column)]
            lines.append(" ".join(tokens) or ":")
    return "".join(line + "\n" for line in lines)


def _card(token: str, line: int) -> Card:
    text = token.strip()
    if len(text) == 2 and text[0] == "1":
        text = "A" + text[1]  # fc-solve reads 1 as an ace
    try:
        return Card.parse(text)
    except CardError:
        raise BoardError(f"line {line}: {token!r} is not a card (write e.g. AS, TD, 10D, KH)"
                         ) from None


def _cards(text: str, line: int) -> list[Card]:
    out = []
    for token in text.split():
        if token.startswith("<") or token.endswith(">"):
            raise BoardError(f"line {line}: face-down card {token} where cards are face up")
        out.append(_card(token, line))
    return out


def _suit_piles(rest: str, line: int, down: bool) -> list[Pile]:
    """Read ``H-A C-0 ...``: the top card of each suit's pile, built up (or down) by suit."""
    piles: list[Pile | None] = [None] * 4
    for token in rest.split():
        m = _FOUNDATION_TOKEN.match(token)
        if not m:
            raise BoardError(f"line {line}: {token!r} is not a foundation (write e.g. H-A, "
                             "S-0, D-T: suit, dash, rank of the top card, 0 for empty)")
        suit = SUITS.index(m.group(1).upper())
        rank_text = m.group(2).upper()
        rank = 0 if rank_text == "0" else 1 if rank_text == "1" else 10 if rank_text == "10" \
            else RANKS.index(rank_text) + 1
        if piles[suit] is not None:
            raise BoardError(f"line {line}: suit {SUITS[suit]} is given twice")
        if down:
            piles[suit] = tuple(Card(r, suit) for r in range(KING, rank - 1, -1)) if rank else ()
        else:
            piles[suit] = tuple(Card(r, suit) for r in range(1, rank + 1))
    return [p or () for p in piles]


def _check_cards(variant: Variant, where: Sequence[tuple[Card, int]]) -> None:
    """Every card exactly as often as the decks hold it; name the lines of any duplicate."""
    counts = Counter(c for c, _ in where)
    for card, seen in counts.items():
        if seen > variant.decks:
            lines = sorted({ln for c, ln in where if c == card})
            at = ", ".join(str(ln) for ln in lines)
            decks = "one deck has" if variant.decks == 1 else f"{variant.decks} decks have"
            raise BoardError(f"line {lines[-1]}: {card} appears {seen} times (lines {at}); "
                             f"{decks} {variant.decks}")
    missing = Counter(full_deck(variant.decks)) - counts
    if missing:
        names = ", ".join(str(c) for c in sorted(missing.elements(),
                                                 key=lambda c: (c.suit, c.rank)))
        raise BoardError(f"board lacks {sum(missing.values())} card(s): {names}")


def _lines(text: str) -> list[tuple[int, str]]:
    return [(n, raw.strip()) for n, raw in enumerate(text.splitlines(), 1) if raw.strip()]


def parse_board(variant: Variant, text: str) -> Layout:
    """Read board text for ``variant`` and check it strictly, naming the line at fault."""
    if not _lines(text):
        raise BoardError("the board is empty")
    if variant.family == "calculation":
        return _parse_calculation(variant, text)
    return _parse_packer(variant, text)


def _parse_packer(variant: Variant, text: str) -> Layout:
    columns: list[Pile] = []
    hidden: list[int] = []
    titles = _PILE_LINES[:2 if variant.kings_down else 1]
    piles: dict[int, list[Pile]] = {}  # by index into titles
    where: list[tuple[Card, int]] = []
    for n, line in _lines(text):
        header = _HEADER.match(line)
        if header:
            title, rest = header.group(1).strip(), header.group(2)
            k = next((k for k, t in enumerate(titles) if t.lower() == title.lower()), None)
            if k is None:
                raise BoardError(f"line {n}: {variant.title} boards have no {title!r} line "
                                 f"(only columns and {', '.join(titles)})")
            if k in piles:
                raise BoardError(f"line {n}: a second {titles[k]} line")
            piles[k] = _suit_piles(rest, n, down=k == 1)
            where += [(c, n) for p in piles[k] for c in p]
            continue
        body = line[1:] if line.startswith(":") else line
        cards: list[Card] = []
        down = 0
        for token in body.split():
            if token.startswith("<") and token.endswith(">") and len(token) > 2:
                if len(cards) > down:
                    raise BoardError(f"line {n}: face-down card {token} above a face-up card "
                                     "(face-down cards lie at the bottom of a column)")
                cards.append(_card(token[1:-1], n))
                down += 1
            else:
                cards.append(_card(token, n))
        if down:
            if down == len(cards):
                raise BoardError(f"line {n}: the top card of a column is always face up")
            if down > variant.face_down:
                raise BoardError(f"line {n}: {down} face-down cards, but {variant.title} deals "
                                 f"{variant.face_down or 'no'} face down per column")
        columns.append(tuple(cards))
        hidden.append(down)
        where += [(c, n) for c in cards]
    if len(columns) != variant.columns:
        raise BoardError(f"the board has {len(columns)} column line(s); {variant.title} has "
                         f"{variant.columns} columns")
    _check_cards(variant, where)
    foundations = [p for k in range(len(titles)) for p in piles.get(k, [(), (), (), ()])]
    return Layout(tuple(columns), tuple(foundations), tuple(hidden))


def _parse_calculation(variant: Variant, text: str) -> Layout:
    markers: list[Card] | None = None
    foundations: list[Pile] | None = None
    stock: list[Card] | None = None
    waste: list[Pile] = []
    where: list[tuple[Card, int]] = []
    for n, line in _lines(text):
        header = _HEADER.match(line)
        if not header:
            raise BoardError(f"line {n}: expected a Markers:, Foundations:, Waste: or Stock: "
                             f"line for {variant.title}, got {line[:40]!r}")
        name, rest = header.group(1).strip().lower(), header.group(2)
        if name == "markers" and variant.markers:
            if markers is not None:
                raise BoardError(f"line {n}: a second Markers line")
            markers = _cards(rest, n)
            ranks = [c.rank for c in markers]
            if ranks != list(variant.intervals):
                want = " ".join(RANKS[r - 1] for r in variant.intervals)
                raise BoardError(f"line {n}: the markers must be one each of {want}, in order")
            where += [(c, n) for c in markers]
        elif name == "foundations":
            if foundations is not None:
                raise BoardError(f"line {n}: a second Foundations line")
            foundations = [tuple(_cards(p, n)) for p in rest.split("|")]
            _check_foundations(variant, foundations, n)
            where += [(c, n) for p in foundations for c in p]
        elif name == "waste":
            if len(waste) == variant.waste_piles:
                raise BoardError(f"line {n}: more than {variant.waste_piles} Waste lines")
            waste.append(tuple(_cards(rest, n)))
            where += [(c, n) for c in waste[-1]]
        elif name == "stock":
            if stock is not None:
                raise BoardError(f"line {n}: a second Stock line")
            stock = _cards(rest, n)
            where += [(c, n) for c in stock]
        else:
            allowed = "Markers, " if variant.markers else ""
            raise BoardError(f"line {n}: {variant.title} boards have no "
                             f"{header.group(1).strip()!r} line (only {allowed}Foundations, "
                             "Waste and Stock)")
    if variant.markers and markers is None:
        raise BoardError(f"{variant.title} boards need a Markers line")
    if foundations is None:
        raise BoardError(f"{variant.title} boards need a Foundations line")
    if waste and len(waste) != variant.waste_piles:
        raise BoardError(f"the board has {len(waste)} Waste line(s); {variant.title} has "
                         f"{variant.waste_piles} waste piles (give all or none)")
    _check_cards(variant, where)
    return Layout(
        columns=tuple(waste) if waste else ((),) * variant.waste_piles,
        foundations=tuple(foundations),
        stock=tuple(stock or ()),
        markers=tuple(markers or ()),
    )


def _check_foundations(variant: Variant, piles: Sequence[Pile], line: int) -> None:
    """Each pile starts with its base and follows its interval, so play can go on from it."""
    if len(piles) != len(variant.bases):
        raise BoardError(f"line {line}: {len(piles)} foundation(s) separated by '|'; "
                         f"{variant.title} has {len(variant.bases)}")
    for i, pile in enumerate(piles):
        if not pile:
            raise BoardError(f"line {line}: foundation {i + 1} is empty; it starts with its "
                             f"base, a {RANKS[variant.bases[i] - 1]}")
        seq = variant.sequence(i)
        ranks = tuple(c.rank for c in pile)
        if ranks != seq[:len(ranks)]:
            want = " ".join(RANKS[r - 1] for r in seq)
            raise BoardError(f"line {line}: foundation {i + 1} must follow {want}, "
                             f"not {_cards_text(pile)}")
