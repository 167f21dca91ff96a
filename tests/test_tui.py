"""The Textual app, driven by key presses and clicks through Textual's `Pilot`."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest
from rich.console import Console
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Footer, Static

from thirteen import solver
from thirteen.cards import Card, full_deck
from thirteen.deal import Layout
from thirteen.game import Game, start_state
from thirteen.packer import PackerState
from thirteen.session import Session
from thirteen.solver import Hint
from thirteen.solver.services import EASY_NODES
from thirteen.store import Store
from thirteen.tui import (
    LETTERS,
    BoardScreen,
    ConfirmScreen,
    DealScreen,
    EndScreen,
    HelpScreen,
    PileView,
    StatsScreen,
    ThirteenApp,
    glyph,
)
from thirteen.tui.keys import GAME_KEYS, prompt
from thirteen.tui.places import PileRef, Selection
from thirteen.variants import get_variant
from thirteen.verdicts import Known

# A winning line of Baker's Dozen deal 9 (found once by the solver, kept as data).
WIN_TEXT = (
    "c2-f c4-f c6-f c6-f c4-f c6-f c8-c2 c8-f c1-c12 c1-f c3-c2 c11-c2 c11-c8 c11-f c11-f c3-f "
    "c13-f c5-c8 c5-f c10-f c10-f c3-f c1-c8 c12-c13 c7-c2 c7-c10 c7-f c7-f c13-f c2-c1 c2-c13 "
    "c2-f c2-c8 c2-c10 c2-c3 c2-f c4-f c1-f c13-f c12-c8 c12-f c5-c6 c5-f c12-f c9-c1 c9-f c9-f "
    "c1-f c8-f c1-f c12-f c13-f c8-f c10-f c6-f c8-f c8-f c10-f c8-f c8-f c10-f c10-f c13-c9 "
    "c13-f c3-f c6-f c9-f c3-f c4-f c8-f c9-f"
)
BAKERS_DOZEN_9_WIN = WIN_TEXT.split()


def keys_for(move: str) -> list[str]:
    """The key presses of a column move: ``c3-c7`` is c then g, ``c3-f`` is c twice."""
    source, target = move.split("-")
    first = LETTERS[int(source[1:]) - 1]
    return [first, first if target == "f" else LETTERS[int(target[1:]) - 1]]


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "thirteen.sqlite3")


def app_for(store: Store, game: str = "bakers-dozen", number: int | None = 9) -> ThirteenApp:
    return ThirteenApp(game, number, store, show_clock=False, use_solver=False)


def pile_text(view: PileView) -> str:
    """What a pile widget draws, without spaces (``A ♥`` reads ``A♥``)."""
    return view.render().plain.replace(" ", "")


def screen_text(app: ThirteenApp) -> str:
    """The text every pile widget draws, without spaces."""
    return "\n".join(pile_text(view) for view in app.screen.query(PileView))


def test_winning_line_replays() -> None:
    game = Game.new("bakers-dozen", 9)
    for move in BAKERS_DOZEN_9_WIN:
        game.push(move)
    assert game.status() == "won"


@pytest.mark.asyncio
async def test_win_by_key_presses(store: Store) -> None:
    app = app_for(store)
    async with app.run_test() as pilot:
        for move in BAKERS_DOZEN_9_WIN:
            await pilot.press(*keys_for(move))
        await pilot.pause()
        assert app.game.status() == "won"
        assert isinstance(app.screen, EndScreen)
        assert app.screen.kind == "won"
        assert "You won Baker's Dozen deal 9" in app.screen.text
    stats = store.stats("local", "bakers-dozen")
    assert (stats["played"], stats["won"], stats["fewest_moves"]) == (1, 1, 71)


@pytest.mark.asyncio
async def test_undo_redo(store: Store) -> None:
    app = app_for(store)
    async with app.run_test() as pilot:
        start = app.game.state
        await pilot.press("b", "b")  # AH home
        after = app.game.state
        assert after != start and len(app.game.moves) == 1
        assert "A♥" in pile_text(app.screen.query_one("#found-2", PileView))
        await pilot.press("u")
        assert app.game.state == start and not app.game.moves
        assert "A♥" not in pile_text(app.screen.query_one("#found-2", PileView))
        await pilot.press("r")
        assert app.game.state == after
        await pilot.press("x")  # restart
        assert app.game.state == start
        await pilot.press("r")
        assert app.game.state == after


@pytest.mark.asyncio
async def test_illegal_move_changes_nothing(store: Store) -> None:
    app = app_for(store)
    async with app.run_test() as pilot:
        before = app.game.state
        await pilot.press("a", "b")  # 7♣ onto A♥
        assert app.game.state == before and not app.game.moves
        message = str(app.screen.query_one("#message").render())
        assert "Not allowed" in message and "7♣ cannot go on A♥" in message
        assert app.selection is None
        await pilot.press("a", "a")  # 7♣ is not wanted on a foundation
        assert app.game.state == before
        assert "cannot go to a foundation" in app.message


@pytest.mark.asyncio
async def test_mouse_and_arrows(store: Store) -> None:
    app = app_for(store)
    async with app.run_test() as pilot:
        await pilot.click("#col-1")
        await pilot.click("#col-1")  # the same pile twice: home
        assert [str(m) for m in app.game.moves] == ["c2-f"]
        await pilot.press("right", "right", "right", "right", "enter", "enter")
        assert [str(m) for m in app.game.moves] == ["c2-f", "c6-f"]
        await pilot.press("enter", "right", "right", "right", "right", "enter")
        assert [str(m) for m in app.game.moves][-1] == "c6-c10"
        await pilot.press("up", "enter")  # a foundation is no source here
        assert "never come back" in app.message


@pytest.mark.asyncio
async def test_resume_after_a_kill(store: Store) -> None:
    app = app_for(store)
    async with app.run_test() as pilot:
        await pilot.press("b", "b", "d", "d")
    # No clean shutdown is needed: every move is saved when it is played.
    again = app_for(store, number=None)
    assert [str(m) for m in again.game.moves] == ["c2-f", "c4-f"]
    assert again.game.number == 9


@pytest.mark.asyncio
async def test_quitting_stops_the_clock_until_the_game_is_opened_again(store: Store) -> None:
    app = app_for(store)
    async with app.run_test() as pilot:
        await pilot.press("b", "b")
        await pilot.press("q")
    assert app.session.id is not None
    info = store.game_info("local", app.session.id)
    assert info["closed"] is not None and info["elapsed"] < 60
    with sqlite3.connect(store.path) as c:  # an hour later
        c.execute("UPDATE games SET updated = updated - 3600, closed = closed - 3600")
    again = app_for(store, number=None)
    assert again.session.id == app.session.id
    assert again.elapsed() == pytest.approx(info["elapsed"], abs=5)


@pytest.mark.asyncio
async def test_a_game_played_on_in_another_terminal_is_not_written_over(store: Store) -> None:
    app = app_for(store)
    async with app.run_test() as pilot:
        await pilot.press("b", "b")  # c2-f
        assert app.session.id is not None
        other = Session.load(Store(store.path), "local", app.session.id)
        other.game.undo()  # the other terminal takes the move back
        other.commit()
        await pilot.press("d", "d")  # c4-f, chosen where c2-f was played
        assert "played on elsewhere" in app.message
        assert not app.game.moves and app.game.state == other.game.state
        assert not store.load_game("local", app.session.id).moves
        assert "A♥" not in pile_text(app.screen.query_one("#found-2", PileView))
        await pilot.press("b", "b")  # in step again: kept
        assert [str(m) for m in store.load_game("local", app.session.id).moves] == ["c2-f"]


@pytest.mark.asyncio
async def test_new_deal_by_number_and_help(store: Store) -> None:
    app = app_for(store)
    async with app.run_test() as pilot:
        await pilot.press("number_sign")
        assert isinstance(app.screen, DealScreen)
        await pilot.press("2", "4", "enter")
        await pilot.pause()
        assert app.game.number == 24 and isinstance(app.screen, BoardScreen)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        assert "kings" in app.screen.text.plain.lower()
        await pilot.press("escape")
        assert isinstance(app.screen, BoardScreen)
        await pilot.press("a", "a", "n")  # AS home; leaving a game in play asks first
        await pilot.press("y")
        await pilot.pause()
        assert app.game.number != 24
    assert store.stats("local", "bakers-dozen")["lost"] == 1


@pytest.mark.asyncio
@pytest.mark.parametrize("typed", ["100000000000000000000", "abc", "0"])
async def test_the_deal_dialog_refuses_what_cannot_be_dealt(store: Store, typed: str) -> None:
    app = app_for(store)
    async with app.run_test() as pilot:
        number = app.game.number
        await pilot.press("number_sign", *typed, "enter")
        await pilot.pause()
        assert isinstance(app.screen, DealScreen)
        error = str(app.screen.query_one("#deal-error", Static).render())
        assert "from 1 to 99999999999999999999" in error
        await pilot.press("escape")
        assert isinstance(app.screen, BoardScreen) and app.game.number == number


@pytest.mark.asyncio
async def test_a_deal_the_solver_rates_easy(store: Store) -> None:
    app = ThirteenApp("bakers-dozen", 9, store, show_clock=False, use_solver=True)
    async with app.run_test() as pilot:
        await pilot.press("number_sign", *"easy", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        number = app.game.number
        assert number is not None and number != 9
        assert app.message.startswith(f"Deal {number}. An easy deal")
    state = app.game.start
    assert solver.difficulty(solver.solve(state, solver.Budget(max_nodes=EASY_NODES))) == "easy"


@pytest.mark.asyncio
async def test_hint_and_auto(store: Store) -> None:
    app = app_for(store)
    async with app.run_test() as pilot:
        await pilot.press("question_mark")
        assert app.hint_move is not None and "Hint" in app.message
        await pilot.press("o")
        assert app.game.moves and all(m.target.kind == "f" for m in app.game.moves)


@pytest.mark.asyncio
async def test_hidden_cards_stay_hidden(store: Store) -> None:
    app = app_for(store, "castles-in-spain", 1)
    async with app.run_test():
        state = app.game.state
        assert isinstance(state, PackerState)
        hidden = [c for col, h in zip(state.columns, state.hidden, strict=True) for c in col[:h]]
        text = screen_text(app)
        assert len(hidden) == 39
        shown = [str(c) for col, h in zip(state.columns, state.hidden, strict=True)
                 for c in col[h:]]
        assert all(glyph(c) in text for c in shown)
        assert not any(glyph(str(c)) in text for c in hidden)


@pytest.mark.asyncio
async def test_calculation_keys(store: Store) -> None:
    app = app_for(store, "calculation", 1)
    async with app.run_test() as pilot:
        assert "J♦" in screen_text(app)  # the turned card
        await pilot.press("s", "a")  # J♦ onto waste pile a
        assert [str(m) for m in app.game.moves] == ["s-w1"]
        await pilot.press("a", "b")  # a waste card never goes to another waste pile
        assert len(app.game.moves) == 1 and "Not allowed" in app.message
        text = screen_text(app)
        # Only the turned card of the stock shows.
        stock = app.game.state.view()
        assert stock["stock_top"] is not None
        assert glyph(stock["stock_top"]) in text


@pytest.mark.parametrize(
    ("game", "number"),
    [("bakers-dozen", 9), ("castles-in-spain", 1), ("calculation", 1)],
)
def test_layout_snapshot(snap_compare: object, tmp_path: Path, game: str, number: int) -> None:
    app = ThirteenApp(game, number, tmp_path / "db.sqlite3", show_clock=False, use_solver=False)
    assert snap_compare(app, terminal_size=(80, 24))  # type: ignore[operator]


TOPS = "KC KS KH KD JC JS JH JD 9C 9S 9H 6C 7D"


def stuck_after_one_move() -> Game:
    """A Baker's Dozen position whose only move (6♣ onto 7♦) leaves no move at all."""
    tops = [Card.parse(t) for t in TOPS.split()]
    under = Card.parse("3H")
    rest = [c for c in full_deck() if c not in tops and c != under]
    columns = [[*rest[3 * i: 3 * i + 3], top] for i, top in enumerate(tops[:11])]
    columns.append([rest[33], rest[34], under, tops[11]])
    columns.append([*rest[35:38], tops[12]])
    assert sorted(c for col in columns for c in col) == sorted(full_deck())
    layout = Layout(tuple(tuple(col) for col in columns), ((),) * 4)
    return Game(start_state(get_variant("bakers-dozen"), layout))


@pytest.mark.asyncio
async def test_no_moves_left(store: Store) -> None:
    game = stuck_after_one_move()
    assert [str(m) for m in game.legal_moves()] == ["c12-c13"]
    app = ThirteenApp("bakers-dozen", None, store, show_clock=False, use_solver=False, game=game)
    async with app.run_test() as pilot:
        await pilot.press("l", "m")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen) and app.screen.kind == "lost"
        assert "No moves left" in app.screen.text
        await pilot.press("u")  # undo from the end screen
        await pilot.pause()
        assert isinstance(app.screen, BoardScreen) and not app.game.moves
        await pilot.press("l", "m")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        assert "n new   u undo   x reset   q quit   Esc close" in app.screen.text
        await pilot.press("n")  # a new deal at once: the game is over, nothing to confirm
        await pilot.pause()
        assert isinstance(app.screen, BoardScreen) and app.game.number is not None
    assert store.stats("local", "bakers-dozen")["lost"] == 1


@pytest.mark.asyncio
async def test_no_winning_line(store: Store) -> None:
    app = app_for(store)
    async with app.run_test() as pilot:
        await pilot.press("b", "b")
        # what the background check reports
        app.assistant.line_checked(app.game.state, Known("unsolvable"), 1)
        assert "No winning line remains" in app.message
        app.assistant.hint_answer(Hint(None, "unsolvable", "dead end"), 1)  # a hint says so too
        await pilot.pause()
        assert isinstance(app.screen, EndScreen) and app.screen.kind == "hopeless"
        assert "No winning line remains" in app.screen.text


async def press_solve(app: ThirteenApp, pilot: Pilot[None]) -> None:
    """Press ``p`` and wait until the solver's answer is played."""
    await pilot.press("p")
    await app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.asyncio
async def test_solve_it_for_me(store: Store) -> None:
    app = ThirteenApp("bakers-dozen", 9, store, show_clock=False, use_solver=True)
    async with app.run_test() as pilot:
        await press_solve(app, pilot)
        assert app.game.status() == "won"
        assert isinstance(app.screen, EndScreen) and app.screen.kind == "won"
        played = len(app.game.moves)
        assert played > 0 and f"played {played} moves" in app.message
        assert "won with Solve's help" in app.screen.text
    # Help is recorded as help: no win, no streak, no best time; one assisted game.
    stats = store.stats("local", "bakers-dozen")
    assert (stats["played"], stats["won"], stats["assisted"]) == (1, 0, 1)
    assert (stats["current_streak"], stats["best_time"], stats["fewest_moves"]) == (0, None, None)
    lost = ThirteenApp("good-measure", 1, store, show_clock=False, use_solver=True)
    async with lost.run_test() as pilot:
        await press_solve(lost, pilot)
        assert not lost.game.moves
        assert isinstance(lost.screen, EndScreen) and lost.screen.kind == "hopeless"


def finished(store: Store, results: list[tuple[str, bool, float, int]]) -> None:
    """Count results as the front ends do: a saved game of each, finished."""
    for name, won, seconds, moves in results:
        game_id, _ = store.save("local", Game.new(name, 1))
        store.finish_game("local", game_id, won, seconds, moves)


def shown_text(screen: StatsScreen) -> str:
    """The statistics table as the screen draws it, in plain text."""
    out = io.StringIO()
    Console(file=out, width=120).print(screen.query_one("#stats-table", Static).content)
    return out.getvalue()


@pytest.mark.asyncio
async def test_statistics_screen(store: Store) -> None:
    finished(store, [("bakers-dozen", True, 300, 120), ("bakers-dozen", True, 200, 150),
                     ("bakers-dozen", False, 50, 10), ("calculation", True, 95, 60)])
    app = app_for(store, "castles-in-spain", 1)
    async with app.run_test() as pilot:
        await pilot.press("t")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        # The current game first (no result yet), then every game with a result.
        assert screen.rows == [
            ["Castles in Spain", "0", "0", "0", "0", "0%", "0", "0", "–", "–", "0"],
            ["Baker's Dozen", "3", "2", "0", "1", "67%", "0", "2", "3:20", "120", "0"],
            ["Calculation", "1", "1", "0", "0", "100%", "1", "1", "1:35", "60", "0"],
        ]
        text = shown_text(screen)
        assert "fewest" in text and "Baker's Dozen" in text and "3:20" in text
        await pilot.press("escape")
        assert isinstance(app.screen, BoardScreen)
        await pilot.press("f1")
        assert "t statistics" in app.screen.text.plain


@pytest.mark.asyncio
async def test_solve_where_cards_are_hidden_is_the_fair_player(store: Store) -> None:
    app = ThirteenApp("castles-in-spain", 6, store, show_clock=False, use_solver=True)
    async with app.run_test() as pilot:
        await press_solve(app, pilot)
        assert app.game.moves and "fair player" in app.message
        assert store.game_info("local", app.session.id or 0)["assisted"] is True


def shown_lines(widget: Widget) -> list[str]:
    """The lines a widget puts on the screen, as the terminal shows them (without padding)."""
    size = widget.outer_size
    return [strip.text.strip() for strip in widget.render_lines(Region(0, 0, *size))]


@pytest.mark.asyncio
@pytest.mark.parametrize("key", ["enter", "escape", "n"])
async def test_leaving_asks_and_every_key_but_y_stays(store: Store, key: str) -> None:
    app = app_for(store)
    async with app.run_test() as pilot:
        await pilot.press("b", "b", "n")  # A♥ home, then a new deal: the game would be lost
        screen = app.screen
        assert isinstance(screen, ConfirmScreen)
        text = " ".join(shown_lines(screen.query_one("#confirm-text")))
        assert "Leave this game? It counts as lost" in text
        assert "y leave · n/Enter/Esc stay" in text
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, BoardScreen)
        assert app.game.number == 9 and [str(m) for m in app.game.moves] == ["c2-f"]
        await pilot.press("n", "y")  # y leaves
        await pilot.pause()
        assert app.game.number != 9 and not app.game.moves
    assert store.stats("local", "bakers-dozen")["lost"] == 1


def status_and_message(app: ThirteenApp) -> tuple[str, str]:
    board = app.screen
    assert isinstance(board, BoardScreen)
    header = shown_lines(board.query_one("#status"))
    assert len(header) == 1
    return header[0], " ".join(shown_lines(board.query_one("#message")))


HUGE_DEAL = 99999999999999999999


@pytest.mark.asyncio
@pytest.mark.parametrize(("size", "full"), [((80, 24), False), ((120, 40), True)])
@pytest.mark.parametrize(("game", "number"), [
    ("bakers-dozen", 24), ("castles-in-spain", HUGE_DEAL), ("calculation", 24),
    ("imaginary-thirteen-pysol", HUGE_DEAL), ("spanish-patience-rank", 123456),
])
async def test_header_and_message_fit(store: Store, game: str, number: int,
                                      size: tuple[int, int], full: bool) -> None:
    """At 80 columns the header leaves its least needed parts out rather than cut a word; the
    message line wraps. At 120 everything but the longest names fits in full."""
    finished(store, [(game, won, 300, 100) for won in (True, False, False)])
    app = ThirteenApp(game, 9, store, use_solver=False)
    async with app.run_test(size=size) as pilot:
        await pilot.press("number_sign", *str(number), "enter")  # says the deal and the keys
        await pilot.pause()
        header, message = status_and_message(app)
        title = get_variant(game).title
        assert header.startswith(f"{title}  deal {number}  moves 0  0:0")
        assert "…" not in header
        record = "played 3 won 1 (33%) streak 0"
        if full and number != HUGE_DEAL:
            assert header.endswith(record)
        elif not full:
            assert header.endswith(("streak 0", "won 1/3", ":00", ":01"))
        assert message == f"Deal {number}. {prompt(get_variant(game))}"
        keys = app.screen.query_one(Footer).children  # the footer's key hints, all in sight
        assert len(keys) == len(GAME_KEYS)
        assert all(key.region.right <= size[0] for key in keys)


@pytest.mark.asyncio
async def test_the_board_follows_the_app(store: Store) -> None:
    """The board draws the app's state: changing the position, the selection or the cursor
    redraws the piles that show it, with no redraw asked for."""
    app = app_for(store)
    async with app.run_test() as pilot:
        column = app.screen.query_one("#col-3", PileView)
        assert not column.model.cursor and not column.model.selected
        app.cursor = PileRef("col", 3)
        app.selection = Selection(PileRef("col", 3))
        await pilot.pause()
        assert column.model.cursor and column.model.selected == 1
        assert "◂" in column.render().plain
        hearts = app.screen.query_one("#found-2", PileView)
        assert pile_text(column).endswith("2♥") and "2♥" not in pile_text(hearts)
        for move in ("c2-f", "c4-f"):  # A♥ and 2♥ home, played behind the board's back
            app.game.push(move)
        app.position = app.game.state
        await pilot.pause()
        assert "2♥" not in pile_text(column) and "2♥" in pile_text(hearts)


@pytest.mark.asyncio
@pytest.mark.parametrize("game", ["calculation", "imaginary-thirteen"])
async def test_a_long_hint_wraps(store: Store, game: str) -> None:
    """The solver's hints in the Calculation family say why (a hundred characters): at 80
    columns the message line wraps and shows all of it."""
    app = ThirteenApp(game, 1, store, show_clock=False, use_solver=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.message.startswith("Hint: ") and len(app.message) > 80
        assert status_and_message(app)[1] == app.message


@pytest.mark.asyncio
@pytest.mark.parametrize("game", ["bakers-dozen", "calculation"])
async def test_help_says_there_is_more_and_scrolls_by_keys(store: Store, game: str) -> None:
    app = app_for(store, game, 1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        box = screen.query_one("#help-box", VerticalScroll)
        bottom = shown_lines(box)[-1]
        assert "more below" in bottom and box.max_scroll_y > 0 and box.scroll_y == 0
        await pilot.press("down")
        await pilot.pause()
        assert box.scroll_y == 1
        await pilot.press("pagedown")
        await pilot.pause()
        assert box.scroll_y > 1
        await pilot.press("end")
        await pilot.pause()
        assert box.scroll_y == box.max_scroll_y
        assert "more below" not in shown_lines(box)[-1] and "Esc closes" in shown_lines(box)[-1]
        await pilot.press("home")
        await pilot.pause()
        assert box.scroll_y == 0 and "more below" in shown_lines(box)[-1]
        await pilot.press("space")  # a page down, as in a pager
        await pilot.pause()
        assert box.scroll_y > 1


@pytest.mark.asyncio
async def test_help_that_fits_says_nothing_more(store: Store) -> None:
    app = app_for(store, "calculation", 1)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        box = app.screen.query_one("#help-box", VerticalScroll)
        assert box.max_scroll_y == 0
        assert "Esc closes" in shown_lines(box)[-1] and "more" not in shown_lines(box)[-1]


@pytest.mark.asyncio
async def test_checks_and_hints_along_a_known_line_need_no_search(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a search found a winning line, the check after each move along it and the hint
    come from the line (`verdicts`): no search is started."""
    app = ThirteenApp("bakers-dozen", 9, store, show_clock=False, use_solver=True)
    async with app.run_test() as pilot:
        state = app.game.state
        result = solver.solve(state, solver.Budget(max_seconds=30))
        assert result.verdict == "solved"
        app.assistant.line_checked(state, Known("solved", result.moves), 0)
        searches: list[object] = []
        monkeypatch.setattr(solver, "solve", lambda *a, **k: searches.append(a))
        monkeypatch.setattr(solver, "hint", lambda *a, **k: searches.append(a))
        for m in result.moves[:3]:
            app.game.push(m)
            app.after_change()
        app.assistant.hint()
        await pilot.pause()
        assert searches == [] and app.hint_move == result.moves[3]
        assert app.assistant.verdicts.get(app.game.state) == Known("solved", result.moves, 3)
