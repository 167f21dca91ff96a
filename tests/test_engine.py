"""The seeds' rule sentences, one test each, on hand-made positions and numbered deals."""

from __future__ import annotations

import pytest

from thirteen.calculation import CalcState
from thirteen.cards import Card
from thirteen.deal import Layout
from thirteen.game import Game, new_state, start_state
from thirteen.moves import IllegalMove, Move
from thirteen.packer import PackerState
from thirteen.rules import describe
from thirteen.variants import GAMES, get_variant


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def packer(game: str, *columns: str, foundations: tuple[str, ...] = (), face_down: int = 0,
           **options: object) -> PackerState:
    variant = get_variant(game, **options)
    cols = tuple(cards(c) for c in columns)
    piles = tuple(cards(f) for f in foundations) or ((),) * 4
    hidden = tuple(min(face_down, max(len(c) - 1, 0)) for c in cols)
    state = start_state(variant, Layout(cols, piles, hidden))
    assert isinstance(state, PackerState)
    return state


def refused(state: PackerState | CalcState, move: str, *words: str) -> None:
    with pytest.raises(IllegalMove) as e:
        state.apply(Move.parse(move))
    for w in words:
        assert w in str(e.value)


# ---- Baker's Dozen --------------------------------------------------------------------------
def test_builds_down_regardless_of_suit() -> None:
    s = packer("bakers-dozen", "9C 7H", "8S", "8D")
    after = s.apply(Move.parse("c1-c2"))
    assert after.columns[1] == cards("8S 7H")
    refused(after, "c3-c2", "cannot go on 7H")  # 8D is not one lower than 7H


def test_only_top_card_moves_one_at_a_time() -> None:
    s = packer("bakers-dozen", "9C 8H", "TS")
    refused(s, "c1-c2:2", "one card")
    assert Move.parse("c1-c2") not in s.legal_moves()  # 8H cannot go on TS


def test_emptied_column_is_never_filled() -> None:
    s = packer("bakers-dozen", "AH", "5C", "KD")
    s = s.apply(Move.parse("c1-f"))
    assert s.columns[0] == ()
    refused(s, "c2-c1", "never filled")
    refused(s, "c3-c1", "never filled")  # not even a king
    assert all(m.target != Move.parse("c2-c1").target for m in s.legal_moves())


def test_foundations_up_by_suit_from_the_ace() -> None:
    s = packer("bakers-dozen", "2H", "AS", "AH")
    refused(s, "c1-f", "2H does not go")
    s = s.apply(Move.parse("c2-f")).apply(Move.parse("c3-f"))
    s = s.apply(Move.parse("c1-f"))
    assert s.foundations[2] == cards("AH 2H") and s.won


def test_cards_never_come_back_from_foundations() -> None:
    s = packer("bakers-dozen", "3C", "", "", "", foundations=("", "", "AH 2H", ""))
    refused(s, "fH-c1", "never come back")


def test_worry_back_option() -> None:
    s = packer("bakers-dozen", "3C", foundations=("", "", "AH 2H", ""), worry_back=True)
    after = s.apply(Move.parse("fH-c1"))
    assert after.columns[0] == cards("3C 2H") and after.foundations[2] == cards("AH")
    assert Move.parse("fH-c1") in s.legal_moves()


def test_lost_when_no_legal_move_remains() -> None:
    s = packer("bakers-dozen", "2C 5D", "3H 9S")
    assert s.legal_moves() == [] and s.status() == "lost"


@pytest.mark.parametrize("number", range(1, 201))
def test_kings_go_to_the_bottom_at_the_deal(number: int) -> None:
    for game in ("bakers-dozen", "good-measure"):
        s = new_state(game, number)
        assert isinstance(s, PackerState)
        for col in s.columns:
            ranks = [c.rank for c in col]
            kings = ranks.count(13)
            assert ranks[:kings] == [13] * kings, (game, number, col)


def test_kings_stay_where_dealt_without_the_rule() -> None:
    # Some Portuguese deal among the first 50 has a king above another card.
    assert any(
        any(c.rank == 13 for col in new_state("portuguese-solitaire", n).columns  # type: ignore[union-attr]
            for c in col[1:])
        for n in range(1, 50)
    )


def test_two_kings_keep_their_dealt_order() -> None:
    # Baker's Dozen #24 (RULES.md): column 1 is KD 8H AC AS.
    s = new_state("bakers-dozen", 24)
    assert isinstance(s, PackerState)
    assert s.columns[0] == cards("KD 8H AC AS")


# ---- the variants -----------------------------------------------------------------------------
def test_spanish_patience_any_card_fills_a_space() -> None:
    s = packer("spanish-patience", "AH", "5C 9D", "KD")
    s = s.apply(Move.parse("c1-f"))
    assert s.apply(Move.parse("c2-c1")).columns[0] == cards("9D")
    assert s.apply(Move.parse("c3-c1")).columns[0] == cards("KD")


@pytest.mark.parametrize("number", [1, 24, 9000, 40000])
def test_spanish_patience_is_bakers_dozen_with_spaces_and_ii_keeps_kings_where_dealt(
        number: int) -> None:
    spanish, ii = new_state("spanish-patience", number), new_state("spanish-patience-ii", number)
    assert isinstance(spanish, PackerState) and isinstance(ii, PackerState)
    assert spanish.columns == new_state("bakers-dozen", number).columns  # type: ignore[union-attr]
    assert ii.columns == new_state("portuguese-solitaire", number).columns  # type: ignore[union-attr]
    assert spanish.variant.space == ii.variant.space == "any"


def test_a_saved_game_of_format_1_keeps_its_spanish_patience() -> None:
    old = Game.new("spanish-patience-ii", 7)
    old.push(old.legal_moves()[0])
    data = {**old.to_dict(), "version": 1, "game": "spanish-patience"}
    assert Game.from_dict(data).state == old.state
    today = Game.from_dict({**data, "version": 2, "moves": []})
    assert today.variant.name == "spanish-patience" and today.state != old.start


def test_rules_say_where_they_come_from_and_what_the_seeds_say() -> None:
    assert "Kings stay where they are dealt." in describe(GAMES["castles-in-spain"])
    assert "every king goes to the bottom" in describe(GAMES["spanish-patience"])
    assert "Source: PySolFC's Spanish Patience II (game 664)" in describe(
        GAMES["spanish-patience-ii"])
    assert "every card but the markers" in describe(GAMES["imaginary-thirteen"])
    assert "into a space" in describe(get_variant("spanish-patience", worry_back=True))
    assert all("\nSource: " in describe(v) for v in GAMES.values())


def test_spanish_patience_rank_foundations_ignore_suit() -> None:
    s = packer("spanish-patience-rank", "2S", "AH")
    s = s.apply(Move.parse("c2-f")).apply(Move.parse("c1-f"))
    assert cards("AH 2S") in s.foundations and s.won
    refused(packer("spanish-patience", "2S", "AH").apply(Move.parse("c2-f")), "c1-f", "2S")


def test_auto_moves_with_rank_foundations_leave_a_pile_another_card_needs() -> None:
    # Baker's Dozen by rank: 2H may go home onto AH's pile, but 2C needs that pile while AC
    # lies under it and spaces stay empty, so sending 2H home at once would lose a won game.
    variant = get_variant("bakers-dozen", foundations="rank")
    spades, diamonds = (tuple(Card(r, suit) for r in range(1, 14)) for suit in (1, 3))
    start = start_state(variant, Layout((cards("AH"), cards("AC 2C"), cards("2H")),
                                        (spades, diamonds, (), ()), (0, 0, 0)))
    s = start.apply(Move.parse("c1-f"))
    assert Move.parse("c3-f") in s.legal_moves() and s.safe_moves() == []
    assert s.apply(Move.parse("c3-f")).status() == "lost"
    aces = s.apply(Move.parse("c2-f")).apply(Move.parse("c2-f"))
    assert aces.safe_moves() == [Move.parse("c3-f")]  # every ace home: no pile is needed
    assert aces.apply(Move.parse("c3-f")).won


def test_auto_moves_with_worry_back_are_those_worrying_back_undoes() -> None:
    home = ("AC 2C 3C 4C 5C 6C 7C 8C", "AS 2S", "AH", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD")
    on_host, on_other = ("3S 2H", "9C"), ("9C 2H", "3S")
    assert packer("bakers-dozen", *on_host, foundations=home, worry_back=True).safe_moves()
    assert not packer("bakers-dozen", *on_other, foundations=home, worry_back=True).safe_moves()
    assert packer("bakers-dozen", *on_other, foundations=home).safe_moves()
    alone = ("2H", "9C", "3S")  # 2H could come back only into a space
    assert not packer("bakers-dozen", *alone, foundations=home, worry_back=True).safe_moves()
    assert packer("spanish-patience", *alone, foundations=home, worry_back=True).safe_moves()


def test_portuguese_only_kings_fill_a_space() -> None:
    s = packer("portuguese-solitaire", "AH", "5C 9D", "3S KD")
    s = s.apply(Move.parse("c1-f"))
    refused(s, "c2-c1", "only a king")
    assert s.apply(Move.parse("c3-c1")).columns[0] == cards("KD")


def test_castles_alternate_colours_and_sequences() -> None:
    s = packer("castles-in-spain", "5C 9S 8H 7C", "TD", "9H")
    refused(s, "c3-c2", "alternate colours")
    after = s.apply(Move.parse("c1-c2:3"))
    assert after.columns[1] == cards("TD 9S 8H 7C") and after.columns[0] == cards("5C")
    refused(s, "c1-c2:4", "not a movable sequence")


def test_castles_any_card_or_sequence_fills_a_space() -> None:
    s = packer("castles-in-spain", "AD", "6C 9S 8H", "QS")
    s = s.apply(Move.parse("c1-f"))
    assert s.apply(Move.parse("c2-c1:2")).columns[0] == cards("9S 8H")
    assert s.apply(Move.parse("c3-c1")).columns[0] == cards("QS")


def test_castles_face_down_cards_turn_up_and_stay_hidden() -> None:
    s = packer("castles-in-spain", "2C 3D 4S 5H", "6S", face_down=3)
    assert s.hidden == (3, 0)
    assert s.view()["columns"][0] == [None, None, None, "5H"]
    after = s.apply(Move.parse("c1-c2"))
    assert after.hidden[0] == 2 and after.view()["columns"][0] == [None, None, "4S"]
    # a face-down card never moves as part of a sequence
    refused(s, "c1-c2:2", "not a movable sequence")


def test_castles_deal_has_three_down_one_up() -> None:
    s = new_state("castles-in-spain", 1)
    assert isinstance(s, PackerState)
    assert s.hidden == (3,) * 13
    assert all(sum(c is None for c in col) == 3 for col in s.view()["columns"])
    assert s.view()["columns"][0][-1] == "7D"  # RULES.md: column 1 is JD QC TS 7D
    assert "JD" not in str(s.view()["columns"][0])


def test_which_positions_hide_cards_from_the_player() -> None:
    assert new_state("castles-in-spain", 1).hides_cards
    assert not new_state("bakers-dozen", 1).hides_cards
    s = packer("castles-in-spain", "2C 3D 4S 5H", "6S", face_down=3)
    assert s.hides_cards
    calc = new_state("calculation", 1)
    assert isinstance(calc, CalcState) and calc.hides_cards
    last = CalcState(calc.variant, calc.foundations, calc.waste, calc.stock[:1], calc.markers)
    assert not last.hides_cards  # only the turned card is left: the player sees it


def test_good_measure_two_aces_and_ten_columns_of_five() -> None:
    s = new_state("good-measure", 1)
    assert isinstance(s, PackerState)
    assert [len(c) for c in s.columns] == [5] * 10
    assert sorted(c for p in s.foundations for c in p) == sorted(cards("AS AD"))


def test_bisley_builds_both_ways_by_suit() -> None:
    s = packer("bisley", "5H", "6H", "4H", "4C", "KS",
               foundations=("AC", "AS", "AH", "AD"))
    assert s.apply(Move.parse("c1-c2")).columns[1] == cards("6H 5H")
    assert s.apply(Move.parse("c1-c3")).columns[2] == cards("4H 5H")
    refused(s, "c4-c1", "up or down in suit")
    after = s.apply(Move.parse("c5-fk"))
    assert after.foundations[5] == cards("KS")
    refused(s, "c1-fa", "does not go")
    refused(s, "c1-f", "fa")


def test_bisley_deal() -> None:
    s = new_state("bisley", 1)
    assert isinstance(s, PackerState)
    assert [len(c) for c in s.columns] == [3] * 4 + [4] * 9
    assert [p for p in s.foundations[:4]] == [(Card(1, suit),) for suit in range(4)]


# ---- the Calculation family ------------------------------------------------------------------
SEED_004 = """A: 2 3 4 5 6 7 8 9 T J Q K; 2: 4 6 8 T Q A 3 5 7 9 J K; 3: 6 9 Q 2 5 8 J A 4 7 T K;
4: 8 Q 3 7 J 2 6 T A 5 9 K; 5: T 2 7 Q 4 9 A 6 J 3 8 K; 6: Q 5 J 4 T 3 9 2 8 A 7 K;
7: A 8 2 9 3 T 4 J 5 Q 6 K; 8: 3 J 6 A 9 4 Q 7 2 T 5 K"""


def test_imaginary_thirteen_table_of_sequences() -> None:
    v = get_variant("imaginary-thirteen")
    for marker, row in enumerate(SEED_004.replace("\n", " ").split(";")):
        ranks = row.split(":")[1].split()
        assert "".join(ranks) == "".join("A23456789TJQK"[r - 1] for r in v.sequence(marker))


def test_calculation_sequences() -> None:
    v = get_variant("calculation")
    assert v.sequence(1) == (2, 4, 6, 8, 10, 12, 1, 3, 5, 7, 9, 11, 13)
    assert all(sorted(v.sequence(p)) == list(range(1, 14)) for p in range(4))


def calc(stock: str, waste: tuple[str, ...] = ("", "", "", ""),
         foundations: tuple[str, ...] = ("AC", "2C", "3C", "4C")) -> CalcState:
    v = GAMES["calculation"]
    layout = Layout(tuple(cards(w) for w in waste), tuple(cards(f) for f in foundations),
                    (), cards(stock))
    state = start_state(v, layout)
    assert isinstance(state, CalcState)
    return state


def test_calculation_stock_to_foundation_or_waste() -> None:
    s = calc("2D 9S")
    assert {str(m) for m in s.legal_moves()} == {"s-f1", "s-w1", "s-w2", "s-w3", "s-w4"}
    refused(s, "s-f2", "needs a 4")
    after = s.apply(Move.parse("s-w3"))
    assert after.waste[2] == cards("2D") and after.stock == cards("9S")


def test_waste_goes_only_to_foundations() -> None:
    s = calc("9S", waste=("2D", "", "", ""))
    refused(s, "w1-w2", "only go to a foundation")
    assert s.apply(Move.parse("w1-f1")).foundations[0] == cards("AC 2D")


def test_calculation_lost_when_stock_out_and_nothing_plays() -> None:
    s = calc("", waste=("9D", "", "", ""))
    assert s.status() == "lost"


def test_calculation_view_hides_the_stock() -> None:
    s = new_state("calculation", 1)
    assert isinstance(s, CalcState)
    view = s.view()
    assert view["stock_top"] == "JD" and view["stock_left"] == 48
    assert "stock" not in view  # only the turned card and the count are sent
    shown = [c for f in view["foundations"] for c in f["cards"]] + [view["stock_top"]]
    assert len(shown) == 5  # four bases and the turned card: nothing of the hidden stock


def test_imaginary_thirteen_deal() -> None:
    s = new_state("imaginary-thirteen", 1)
    assert isinstance(s, CalcState)
    assert [c.rank for c in s.markers] == list(range(1, 9))
    assert [p[0].rank for p in s.foundations] == [2, 4, 6, 8, 10, 12, 1, 3]
    assert len(s.stock) == 104 - 16


def test_game_undo_redo_restart() -> None:
    g = Game.new("bakers-dozen", 9)
    first = g.legal_moves()[0]
    g.push(first)
    assert g.undo() == first and g.state == g.start
    g.redo()
    assert g.moves == [first]
    g.restart()
    assert g.state == g.start and g.redo_stack == [first]


def test_illegal_move_changes_nothing() -> None:
    g = Game.new("bakers-dozen", 9)
    with pytest.raises(ValueError):
        g.push("c1-c1")
    with pytest.raises(ValueError):
        g.push("nonsense")
    assert g.moves == [] and g.state == g.start


def test_a_line_is_played_whole_or_not_at_all() -> None:
    """`push_line` (solve it for me) plays every move of a line, or, when one is illegal,
    none: the game is left as it was, redo stack included."""
    g = Game.new("bakers-dozen", 9)
    first = g.legal_moves()[0]
    g.push(first)
    g.undo()
    second = g.start.apply(first).legal_moves()[0]
    with pytest.raises(ValueError):
        g.push_line([first, second, "c1-c1"])
    assert g.moves == [] and g.state == g.start and g.redo_stack == [first]
    g.push_line([first, second])
    assert g.moves == [first, second] and g.redo_stack == []
    assert g.state == g.start.apply(first).apply(second)
    g.undo()
    assert g.moves == [first] and g.redo_stack == [second]


def test_saved_game_round_trips_and_bad_saves_are_refused() -> None:
    g = Game.new("castles-in-spain", 5)
    for _ in range(3):
        g.push(g.legal_moves()[0])
    g.undo()
    back = Game.from_json(g.to_json())
    assert back.state == g.state and back.redo_stack == g.redo_stack
    for bad in ("{", "[]", '{"game": "nope", "number": 1}', '{"game": "bakers-dozen"}',
                '{"game": "bakers-dozen", "number": 1, "moves": ["c1-c1"]}'):
        with pytest.raises(ValueError):
            Game.from_json(bad)


def test_auto_moves_play_only_safe_cards() -> None:
    s = packer("bakers-dozen", "AH", "AS", "2H", "3H", "2S 5C", "4H")
    g = Game(s)
    played = g.auto_moves()
    # AH, AS, 2H go up; 3H is at most two above the lowest foundation (AC/AD still out: 0) -> no
    assert [str(m) for m in played] == ["c1-f", "c2-f", "c3-f"]


def test_bisley_auto_moves_play_every_card_home() -> None:
    # Rule S4 (docs/solver.md): in Bisley every move home is safe, to either pile.
    s = packer("bisley", "2H", "KS", "5C 3H", "QS", "6D 4D",
               foundations=("AC", "AS", "AH", "AD"))
    played = Game(s).auto_moves()
    assert [str(m) for m in played] == ["c1-fa", "c2-fk", "c3-fa", "c4-fk"]


@pytest.mark.parametrize("number", range(1, 21))
def test_bisley_auto_moves_leave_no_move_home(number: int) -> None:
    g = Game.new("bisley", number)
    played = g.auto_moves()
    assert all(m.target.kind in ("fa", "fk") for m in played)
    assert not [m for m in g.legal_moves() if m.target.kind in ("fa", "fk")]

