"""Deals must be PySolFC's, card for card; board text must round-trip and refuse bad input."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pysol_cards.deal_game as pysol_deal_game
import pytest
from pysol_cards.cards import CardRenderer, createCards, ms_rearrange
from pysol_cards.deal_game import Game as PysolGame
from pysol_cards.random import LCRandom31, MTRandom
from pysol_cards.random import shuffle as pysol_shuffle
from pysol_cards.random_base import RandomBase

from thirteen.cards import ACE, KING, Card, full_deck
from thirteen.deal import (
    MAX_DEAL,
    BoardError,
    Layout,
    deal,
    format_board,
    parse_board,
    random_number,
    shuffled,
)
from thirteen.variants import GAMES, get_variant

BD = GAMES["bakers-dozen"]
BIG = [32001, 32002, 100000, 123456789, 2**40 + 17, MAX_DEAL]
SAMPLE = list(range(1, 121)) + [31999, 32000] + BIG


def column_text(layout: Layout, i: int) -> str:
    return " ".join(str(c) for c in layout.columns[i])


def pysol_bakers_dozen(number: int) -> str:
    game = PysolGame("bakers_dozen", number, RandomBase.DEALS_PYSOLFC, 13)
    return str(game.calc_layout_string(CardRenderer(True)))


# ---- RULES.md known answers --------------------------------------------------------------


def test_known_answers() -> None:
    bd1 = deal(BD, 1)
    assert column_text(bd1, 0) == "6H JH 5C AD"
    assert column_text(bd1, 1) == "2H 2C 4C 5S"
    assert column_text(deal(BD, 24), 0) == "KD 8H AC AS"
    for name in ("portuguese-solitaire", "spanish-patience-ii", "castles-in-spain"):
        assert column_text(deal(GAMES[name], 1), 0) == "JD QC TS 7D", name
    for name in ("spanish-patience", "spanish-patience-rank"):  # PySolFC 85: Baker's Dozen's
        for n in (1, 24, 40000):
            assert deal(GAMES[name], n) == deal(BD, n), (name, n)
    gm1 = deal(GAMES["good-measure"], 1)
    assert sorted(str(c) for p in gm1.foundations for c in p) == ["AD", "AS"]
    assert column_text(gm1, 0) == "6H 8S 7S JS 9C"
    calc1 = deal(GAMES["calculation"], 1)
    assert [str(p[0]) for p in calc1.foundations] == ["AC", "2H", "3D", "4S"]
    assert str(calc1.stock[0]) == "JD"


# ---- against pysol-cards -------------------------------------------------------------------


def test_bakers_dozen_matches_pysol_cards() -> None:
    for n in list(range(1, 1001)) + BIG:
        assert format_board(deal(BD, n)) == pysol_bakers_dozen(n), n


def test_deal_32000_uses_mtrandom_like_pysolfc(monkeypatch: pytest.MonkeyPatch) -> None:
    # PySolFC picks the MS generator only for N < 32000; pysol-cards' Game uses N <= 32000,
    # so at exactly 32000 its output is not PySolFC's. Make pysol-cards shuffle with
    # MTRandom, the generator PySolFC uses there, and compare with that instead.
    off_by_one = pysol_bakers_dozen(32000)

    def mt_shuffle(cards: list[object], game_num: int, which_deals: int) -> list[object]:
        rng = MTRandom()
        rng.setSeed(game_num)
        return list(rng.shuffle(cards))

    monkeypatch.setattr(pysol_deal_game, "shuffle", mt_shuffle)
    ours = format_board(deal(BD, 32000))
    assert ours == pysol_bakers_dozen(32000)
    assert ours != off_by_one


@pytest.mark.parametrize("decks", [1, 2])
def test_shuffle_matches_pysol_cards(decks: int) -> None:
    for n in [1, 2, 24, 617, 11982, 31999, 32001, 99999, 123456789012]:
        theirs = pysol_shuffle(createCards(decks), n, RandomBase.DEALS_PYSOLFC)
        assert shuffled(decks, n) == [Card(c.rank, c.suit) for c in theirs], (decks, n)


def test_shuffle_2_decks_32000_is_mtrandom() -> None:
    rng = MTRandom()
    rng.setSeed(32000)
    theirs = rng.shuffle(createCards(2))
    assert shuffled(2, 32000) == [Card(c.rank, c.suit) for c in theirs]


# ---- every game ----------------------------------------------------------------------------


def all_cards(layout: Layout) -> list[Card]:
    piles = list(layout.columns) + list(layout.foundations) + [layout.stock, layout.markers]
    return [c for p in piles for c in p]


@pytest.mark.parametrize("name", list(GAMES))
def test_every_deal_is_a_full_deck_in_the_right_shape(name: str) -> None:
    v = GAMES[name]
    for n in SAMPLE:
        layout = deal(v, n)
        assert Counter(all_cards(layout)) == Counter(full_deck(v.decks)), (name, n)
        assert len(all_cards(layout)) == 52 * v.decks
        if v.family == "packer":
            assert tuple(len(c) for c in layout.columns) == v.layout
            assert layout.face_down == (v.face_down,) * v.columns
            assert len(layout.foundations) == (8 if v.kings_down else 4)
            aces = [c for p in layout.foundations for c in p]
            assert len(aces) == v.aces_out
            for suit, pile in enumerate(layout.foundations):
                assert all(c.rank == ACE and c.suit == suit for c in pile)
            assert not layout.stock and not layout.markers
            if v.kings_to_bottom:
                for col in layout.columns:
                    kings = sum(c.rank == KING for c in col)
                    assert all(c.rank == KING for c in col[:kings]), (name, n, col)
        else:
            assert layout.columns == ((),) * v.waste_piles
            assert [p[0].rank for p in layout.foundations] == list(v.bases)
            assert all(len(p) == 1 for p in layout.foundations)
            if v.markers:
                assert [c.rank for c in layout.markers] == list(range(1, 9))
            else:
                assert layout.markers == ()


def test_castles_has_three_face_down_per_column() -> None:
    layout = deal(GAMES["castles-in-spain"], 5)
    assert layout.face_down == (3,) * 13
    assert format_board(layout).splitlines()[0].count("<") == 3


def test_bisley_13() -> None:
    layout = deal(GAMES["bisley"], 7)
    assert [len(c) for c in layout.columns] == [3] * 4 + [4] * 9
    assert [[str(c) for c in p] for p in layout.foundations] == \
        [["AC"], ["AS"], ["AH"], ["AD"], [], [], [], []]


def test_imaginary_thirteen_bases_and_markers() -> None:
    v = GAMES["imaginary-thirteen"]
    assert v.bases == (2, 4, 6, 8, 10, 12, 1, 3)
    layout = deal(v, 3)
    assert [c.rank for c in layout.markers] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [p[0].rank for p in layout.foundations] == [2, 4, 6, 8, 10, 12, 1, 3]
    # The markers and bases are the first of their ranks in dealing order (top of talon).
    order = shuffled(2, 3)[::-1]
    assert list(layout.markers) == [next(c for c in order if c.rank == r) for r in range(1, 9)]
    rest = list(order)
    for m in layout.markers:
        rest.remove(m)
    bases = [p[0] for p in layout.foundations]
    for b in bases:
        assert b == next(c for c in rest if c.rank == b.rank)
        rest.remove(b)
    assert list(layout.stock) == rest


def test_imaginary_thirteen_pysol_bases_are_a_to_8() -> None:
    layout = deal(GAMES["imaginary-thirteen-pysol"], 863)
    assert [p[0].rank for p in layout.foundations] == list(range(1, 9))
    assert len(layout.stock) == 104 - 8


# ---- PySolFC's code as read ----------------------------------------------------------------
# pysol-cards' ``deal_game`` deals only Baker's Dozen of these games, so the others are checked
# against a second, independent rebuild of PySolFC's steps in the shape of its own code, read
# from shlomif/PySolFC: ``Game.createCards``, ``Game.shuffle`` and ``_shuffleHookMoveSorter``
# (pysollib/game/__init__.py); ``constructRandom`` (pysollib/pysolrandom.py: LCRandom31 for
# ``0 <= seed < 32000``, else MTRandom); the ``_shuffleHook`` and ``startGame`` of
# CastlesInSpain, BakersDozen, PortugueseSolitaire, SpanishPatienceII and GoodMeasure
# (pysollib/games/bakersdozen.py), Bisley (bisley.py) and Bisley13 (bisley13.py), Calculation
# and ImaginaryThirteen (calculation.py). The talon is a list whose last element is its top;
# ``dealRow`` gives the top card to each stack in turn; a WasteTalonStack's ``dealCards``
# turns its top card.

Select = Callable[[Card], bool]


def pysolfc_shuffle(decks: int, number: int) -> list[Card]:
    """``Game.shuffle`` up to the hook, with pysol-cards' generators used directly."""
    cards = createCards(decks)
    if number < 32000:
        rng: LCRandom31 | MTRandom = LCRandom31(number)
        cards = ms_rearrange(cards)  # a no-op for two decks, as in PySolFC
    else:
        rng = MTRandom(number)
    rng.shuffle(cards)
    return [Card(c.rank, c.suit) for c in cards]


def move_to_bottom(cards: list[Card], select: Select, most: int = 52) -> list[Card]:
    """``_shuffleHookMoveToBottom(cards, lambda c: (select(c), c.suit), most)``: picks
    scanned from the bottom, put under the rest, the highest (suit, height) lowest."""
    picks: list[tuple[int, int, Card]] = []
    rest: list[Card] = []
    for pos, card in enumerate(cards):
        if len(picks) < most and select(card):
            picks.append((card.suit, len(cards) - pos, card))
        else:
            rest.append(card)
    return [c for _, _, c in sorted(picks, reverse=True)] + rest


def kings_hook(cards: list[Card], rows: int) -> list[Card]:
    """``BakersDozen._shuffleHook``: each king (in dealt order) swaps with the first
    non-king dealt to its row, then the list is reversed."""
    out = list(cards)
    for i in [k for k, c in enumerate(cards) if c.rank == KING]:
        for j in range(i % rows, i, rows):
            if out[j].rank != KING:
                out[i], out[j] = out[j], out[i]
                break
    return out[::-1]


def calculation_hook(cards: list[Card], bases: int) -> list[Card]:
    """``Calculation._shuffleHook`` (``4 * decks`` bases): the first card of each rank
    A..bases from the bottom goes to the top of the talon, the ace uppermost."""
    top: dict[int, Card] = {}
    rest: list[Card] = []
    for card in cards:
        if card.rank <= bases and card.rank not in top:
            top[card.rank] = card
        else:
            rest.append(card)
    return rest + [top[r] for r in range(bases, 0, -1)]


def is_ace(card: Card) -> bool:
    return card.rank == ACE


# name: (hook, the rows dealt to in each round as read from the class's startGame)
ALL_13 = list(range(13))
PYSOLFC_PACKERS: dict[str, tuple[Callable[[list[Card]], list[Card]], list[list[int]]]] = {
    "bakers-dozen": (lambda c: kings_hook(c, 13), [ALL_13] * 4),
    "spanish-patience": (lambda c: kings_hook(c, 13), [ALL_13] * 4),
    "spanish-patience-ii": (list, [ALL_13] * 4),
    "spanish-patience-rank": (lambda c: kings_hook(c, 13), [ALL_13] * 4),
    "portuguese-solitaire": (list, [ALL_13] * 4),
    "castles-in-spain": (list, [ALL_13] * 4),
    "good-measure": (lambda c: move_to_bottom(kings_hook(c, 10), is_ace, 2),
                     [list(range(10))] * 5),
    "bisley": (lambda c: move_to_bottom(c, is_ace), [ALL_13] * 3 + [list(range(4, 13))]),
}


def pysolfc_packer(name: str, number: int) -> tuple[list[list[Card]], list[list[Card]]]:
    """PySolFC's columns and foundations (one per suit) for a packer, no fix applied."""
    hook, rounds = PYSOLFC_PACKERS[name]
    talon = hook(pysolfc_shuffle(1, number))
    columns: list[list[Card]] = [[] for _ in rounds[0]]
    for rows in rounds:
        for row in rows:
            columns[row].append(talon.pop())
    foundations: list[list[Card]] = [[], [], [], []]
    for suit_pile in range(len(talon)):  # Bisley deals its aces to the piles in suit order
        card = talon.pop()
        assert card.rank == ACE
        if name == "bisley":
            assert card.suit == suit_pile
        foundations[card.suit].append(card)
    return columns, foundations


def pysolfc_calculation(decks: int, number: int) -> tuple[list[Card], list[Card]]:
    """PySolFC's foundation bases and stock (turned card first) for Calculation (1 deck)
    or Imaginary Thirteen (2 decks)."""
    talon = calculation_hook(pysolfc_shuffle(decks, number), 4 * decks)
    bases = [talon.pop() for _ in range(4 * decks)]
    turned = talon.pop()
    return bases, [turned] + talon[::-1]


PYSOLFC_NUMBERS = list(range(1, 301)) + [31999, 32000, 32001] + BIG


def test_the_rebuild_shuffles_as_thirteen_does() -> None:
    for decks in (1, 2):
        for n in PYSOLFC_NUMBERS[::7]:
            assert pysolfc_shuffle(decks, n) == shuffled(decks, n), (decks, n)


def test_the_rebuild_agrees_with_pysol_cards_on_bakers_dozen() -> None:
    for n in range(1, 201):
        columns, _ = pysolfc_packer("bakers-dozen", n)
        assert parse_board(BD, pysol_bakers_dozen(n)).columns == tuple(map(tuple, columns))


@pytest.mark.parametrize("name", list(PYSOLFC_PACKERS))
def test_packer_deals_follow_pysolfc_code(name: str) -> None:
    v = GAMES[name]
    for n in PYSOLFC_NUMBERS:
        columns, foundations = pysolfc_packer(name, n)
        if v.kings_to_bottom:  # the seed's rule on PySolFC's columns (Good Measure's fix)
            columns = [[c for c in col if c.rank == KING] + [c for c in col if c.rank != KING]
                       for col in columns]
        layout = deal(v, n)
        assert layout.columns == tuple(map(tuple, columns)), (name, n)
        assert layout.foundations[:4] == tuple(map(tuple, foundations)), (name, n)


@pytest.mark.parametrize(("name", "decks"), [("calculation", 1),
                                             ("imaginary-thirteen-pysol", 2)])
def test_calculation_deals_follow_pysolfc_code(name: str, decks: int) -> None:
    for n in PYSOLFC_NUMBERS:
        bases, stock = pysolfc_calculation(decks, n)
        layout = deal(GAMES[name], n)
        assert [p[0] for p in layout.foundations] == bases, (name, n)
        assert list(layout.stock) == stock, (name, n)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def test_imaginary_thirteen_pysol_known_answers() -> None:
    # Deal 1 (LCRandom31, two decks, no MS re-ordering): the bottom of the shuffled talon
    # reads AC 6S 5S 4C 2D 3H 5D KH 2C 3D 7H; scanning up from it, PySolFC's hook takes
    # AC, 6S, 5S, 4C, 2D, 3H, 7H (the 5D and 3D come after a 5 and a 3 are taken) and an
    # 8H further up; the top card of what is left, 3D, is the first card turned.
    assert shuffled(2, 1)[:11] == cards("AC 6S 5S 4C 2D 3H 5D KH 2C 3D 7H")
    assert shuffled(2, 1)[-1] == Card.parse("3D")
    one = deal(GAMES["imaginary-thirteen-pysol"], 1)
    assert [p[0] for p in one.foundations] == cards("AC 2D 3H 4C 5S 6S 7H 8H")
    assert one.stock[0] == Card.parse("3D")
    # Deal 32000 (MTRandom): bottom 5D 8H 4H 4D QH 6S 5D JC 8H TD 3S 7H 2D gives 5D, 8H, 4H,
    # 6S, 3S, 7H, 2D, then an AH further up; the top card, KH, is turned first.
    assert shuffled(2, 32000)[:13] == cards("5D 8H 4H 4D QH 6S 5D JC 8H TD 3S 7H 2D")
    mt = deal(GAMES["imaginary-thirteen-pysol"], 32000)
    assert [p[0] for p in mt.foundations] == cards("AH 2D 3S 4H 5D 6S 7H 8H")
    assert mt.stock[0] == Card.parse("KH")


def test_good_measure_fixes_pysolfc_kings_left_above() -> None:
    fixed = [n for n in range(1, 501)
             if [list(c) for c in deal(GAMES["good-measure"], n).columns]
             != pysolfc_packer("good-measure", n)[0]]
    assert 2 in fixed
    assert 1 <= len(fixed) <= 25  # about 1.8% of deals


# ---- numbers -------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [0, -1, MAX_DEAL + 1, 1.5, True, "7"])
def test_bad_numbers_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="deal number"):
        deal(BD, bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="deal number"):
        shuffled(1, bad)  # type: ignore[arg-type]


def test_random_number_is_reproducible() -> None:
    a = random_number(random.Random(5))
    assert a == random_number(random.Random(5))
    assert 1 <= a <= MAX_DEAL
    assert deal(BD, a) == deal(BD, a)
    assert 1 <= random_number() <= MAX_DEAL


# ---- board text ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(GAMES))
def test_board_round_trip(name: str) -> None:
    v = GAMES[name]
    for n in SAMPLE[:60] + BIG:
        layout = deal(v, n)
        text = format_board(layout)
        assert parse_board(v, text) == layout, (name, n)
        assert format_board(layout, variant=v) == text


def test_board_reading_is_lenient_where_fc_solve_is() -> None:
    layout = deal(BD, 1)
    text = format_board(layout)
    loose = "\n".join(": " + line.replace("T", "10").lower() for line in text.splitlines())
    assert parse_board(BD, "\n" + loose + "\n\n") == layout
    ace = text.replace("AD", "1D", 1)
    assert parse_board(BD, ace) == layout


def test_foundations_line_read_and_written() -> None:
    gm = GAMES["good-measure"]
    layout = deal(gm, 1)
    text = format_board(layout)
    assert text.splitlines()[0] == "Foundations: H-0 C-0 D-A S-A"
    assert parse_board(gm, text.replace("H-0 C-0 ", "")) == layout


def test_calculation_empty_stock_needs_the_variant() -> None:
    v = GAMES["calculation"]
    layout = Layout(((), (), (), ()), tuple((Card(r, 0),) for r in (1, 2, 3, 4)))
    text = format_board(layout, variant=v)
    assert "Stock:" in text
    with pytest.raises(BoardError, match="lacks 48"):
        parse_board(v, text)


def bd_text() -> str:
    return format_board(deal(BD, 1))


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty"),
    ("\n\n  \n", "empty"),
    ("\n".join(bd_text().splitlines()[:12]), "12 column line"),
    (bd_text() + "AS\n", "14 column line"),
    (bd_text().replace("5S", "AD"), "AD appears 2 times"),
    (bd_text().replace("5S", "ZZ"), "line 2: 'ZZ' is not a card"),
    (bd_text().replace("5S", "5X"), "line 2: '5X' is not a card"),
    ("hello world\n", "line 1: 'hello' is not a card"),
    (bd_text().replace("6H JH 5C AD", "6H JH 5C"), "lacks 1 card"),
    ("Foundations: H-A H-2\n" + bd_text(), "line 1: suit H is given twice"),
    ("Foundations: X-A\n" + bd_text(), "line 1: 'X-A' is not a foundation"),
    ("Foundations: H-A\n" + bd_text(), "AH appears 2 times"),
    ("Stock: AS\n" + bd_text(), "line 1: Baker's Dozen boards have no 'Stock' line"),
    (bd_text().replace("6H JH", "<6H> JH"), "line 1: 1 face-down cards, but Baker's Dozen"),
])
def test_malformed_packer_boards(text: str, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        parse_board(BD, text)


def test_malformed_face_down() -> None:
    castles = GAMES["castles-in-spain"]
    text = format_board(deal(castles, 1))
    assert parse_board(castles, text).face_down == (3,) * 13
    first = text.splitlines()[0]  # <JD> <QC> <TS> 7D
    with pytest.raises(BoardError, match="line 1: face-down card <TS> above a face-up card"):
        parse_board(castles, text.replace(first, "<JD> QC <TS> 7D"))
    with pytest.raises(BoardError, match="line 1: the top card of a column is always face up"):
        parse_board(castles, text.replace(first, "<JD> <QC> <TS> <7D>"))
    with pytest.raises(BoardError, match="line 1: 4 face-down cards, but Castles in Spain"):
        parse_board(castles, text.replace(first, "<JD> <QC> <TS> <7D> 2D"))
    with pytest.raises(BoardError, match="line 1: 'TS>' is not a card"):
        parse_board(castles, text.replace(first, "<JD> <QC> TS> 7D"))


def calc_text(name: str = "calculation", n: int = 1) -> str:
    return format_board(deal(GAMES[name], n))


@pytest.mark.parametrize(("name", "text", "message"), [
    ("calculation", calc_text().replace("Foundations: AC | 2H", "Foundations: AC 2H"),
     "line 1: 3 foundation"),
    ("calculation", calc_text().replace("| 3D |", "| 4D |"), "foundation 3 must follow"),
    ("calculation", calc_text().replace("Stock: JD", "Stock: AC"), "AC appears 2 times"),
    ("calculation", calc_text().replace("Stock: JD", "Stock:"), "lacks 1 card"),
    ("calculation", calc_text() + "Waste:\n", "more than 4 Waste lines"),
    ("calculation", calc_text().replace("Waste:\n", "", 1), "3 Waste line"),
    ("calculation", calc_text() + "6H 7H\n", "expected a Markers:, Foundations:"),
    ("calculation", calc_text().replace("Stock:", "Talon:"), "no 'Talon' line"),
    ("calculation", "Stock: AS\n", "need a Foundations line"),
    ("calculation", calc_text().replace("Stock: JD", "Stock: <JD>"), "face-down card <JD>"),
    ("imaginary-thirteen", calc_text("imaginary-thirteen").replace("Markers: AS 2H",
                                                                   "Markers: 2H AS"),
     "markers must be one each of A 2 3 4 5 6 7 8"),
    ("imaginary-thirteen", "\n".join(calc_text("imaginary-thirteen").splitlines()[1:]),
     "need a Markers line"),
    ("imaginary-thirteen-pysol", calc_text("imaginary-thirteen-pysol") + "Markers: AS\n",
     "no 'Markers' line"),
])
def test_malformed_calculation_boards(name: str, text: str, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        parse_board(GAMES[name], text)


def test_board_error_is_a_value_error() -> None:
    assert issubclass(BoardError, ValueError)
    with pytest.raises(ValueError):
        parse_board(get_variant("bisley"), "garbage")


def test_bisley_king_piles_round_trip() -> None:
    bisley = GAMES["bisley"]
    layout = deal(bisley, 11)
    ks, qs = Card(KING, 1), Card(12, 1)
    columns = tuple(tuple(c for c in col if c not in (ks, qs)) for col in layout.columns)
    foundations = layout.foundations[:5] + ((ks, qs),) + layout.foundations[6:]
    moved = Layout(columns, foundations, (0,) * len(columns))
    text = format_board(moved)
    assert "Down-Foundations: H-0 C-0 D-0 S-Q" in text.splitlines()
    assert parse_board(bisley, text) == moved
    with pytest.raises(BoardError, match="no 'Down-Foundations' line"):
        parse_board(BD, "Down-Foundations: S-Q\n" + bd_text())
    for title in ("Foundations", "Down-Foundations"):
        twice = f"{title}: H-0\n" + text
        with pytest.raises(BoardError, match=f"line [23]: a second {title} line"):
            parse_board(bisley, twice)


def test_foundation_ranks_10_and_1() -> None:
    gm = GAMES["good-measure"]
    text = format_board(deal(gm, 1)).replace("D-A", "D-1")
    assert parse_board(gm, text) == deal(gm, 1)
    with pytest.raises(BoardError, match="2D appears 2 times \\(lines 1, 10\\)"):
        parse_board(gm, text.replace("D-1", "D-10"))
