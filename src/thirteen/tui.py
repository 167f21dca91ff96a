"""The terminal front end: a full-screen Textual app for every game of the registry.

The app draws only what `State.view` shows (hidden cards arrive as None and are drawn as card
backs), asks the engine for every legality question, and saves the game to the shared SQLite
`Store` after every move, so a killed app resumes where it stopped and the statistics are the
same ones the web server shows. Starting, resuming, timing, leaving and help (a game Solve
played in is assisted) are `thirteen.session`'s, as in every front end.

Keys (also in the footer and on the help screen, F1):

- Baker's Dozen family: a column by its letter ``a``..``m`` (or number ``1``..``9``, ``0`` for
  the tenth), then the target column's key; the same key twice (or ``.``) sends the card to its
  foundation.
- Calculation family: ``s`` the turned stock card, ``a``..``d`` a waste pile, ``1``..``8`` a
  foundation; a foundation key with nothing selected plays the turned card there.
- Arrows move the cursor, Enter (or a mouse click) selects a source and then a target.
- ``u`` undo, ``r`` redo, ``x`` restart, ``?`` hint, ``p`` solve it for me (the solver's
  winning line played to the end), ``o`` safe moves to the foundations, ``n`` new deal,
  ``#`` deal by number, ``t`` statistics, F1 help, ``q`` quit, Esc cancels a selection.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, TypeVar

from rich import box
from rich.table import Table
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Footer, Input, Static

from . import solver
from .cards import RANKS, SUIT_SYMBOLS, Card
from .deal import MAX_DEAL, MIN_DEAL
from .game import Game, State
from .moves import Move, MoveError, Place, PlaceKind
from .packer import PackerState
from .rules import describe
from .session import (
    CONFIRM_LEAVE,
    Changed,
    auto_finish,
    choose_deal,
    new_session,
    open_session,
)
from .store import Store
from .variants import GAMES, get_variant

PLAYER = "local"
LETTERS = "abcdefghijklm"

HINT_SECONDS = 5.0  # the solver's budget for a hint
SOLVE_SECONDS = 10.0  # and for "solve it for me"
CHECK_SECONDS, CHECK_NODES = 1.0, 200_000  # and for the check after each move

PileKind = Literal["col", "found", "stock", "waste"]
# Columns and waste piles: the same numbered place in the notation as source and as target.
_PILE_PLACE: dict[PileKind, PlaceKind] = {"col": "c", "waste": "w"}
_PLACE_PILE: dict[PlaceKind, PileKind] = {v: k for k, v in _PILE_PLACE.items()}


@dataclass(frozen=True)
class PileRef:
    """A pile on the screen: a column, a foundation, the stock or a waste pile (0-based)."""

    kind: PileKind
    index: int = 0


# ---- small helpers ----------------------------------------------------------------------------


def card_face(text: str) -> tuple[str, str, bool]:
    """``("10", "♥", True)`` for ``"TH"``: rank text, suit symbol and whether it is red."""
    card = Card.parse(text)
    rank = "10" if card.rank == 10 else RANKS[card.rank - 1]
    return rank, SUIT_SYMBOLS[card.suit], card.red


def glyph(text: str) -> str:
    """``"10♥"`` for ``"TH"``."""
    rank, suit, _ = card_face(text)
    return rank + suit


_CARD_TEXT = re.compile(r"\b(?:10|[A2-9TJQK])[CSHD]\b")


def clock(seconds: float) -> str:
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


# ---- styles -----------------------------------------------------------------------------------

FELT = "#17603a"
CARD_BG = "#fbfaf3"
RED = "#c8102e"
BLACK = "#111111"
BACK = "#ffffff on #2f4f9f"
BACK_RULE = "#8da2dd on #2f4f9f"
SELECTED_BG = "#ffd84d"
HINT_BG = "#8fe3a6"
EMPTY = "#9bc4a8"


def _card_style(red: bool, bg: str = CARD_BG) -> str:
    return f"bold {RED if red else BLACK} on {bg}"


def card_strip(text: str | None, width: int, bg: str = CARD_BG) -> Text:
    """One line of a card: rank at the left, suit at the right, ``width`` cells."""
    if text is None:
        return Text("░" * width, style=BACK)
    rank, suit, red = card_face(text)
    if width < 5:  # very narrow terminals: no margins
        return Text((rank + suit)[:width].ljust(width), style=_card_style(red, bg))
    inner = max(width - 2, 3)
    body = rank + " " * max(inner - len(rank) - 1, 0) + suit
    return Text(f" {body} "[:width].ljust(width), style=_card_style(red, bg))


def card_box(text: str, width: int, bg: str = CARD_BG) -> list[Text]:
    """A top card drawn three lines high when there is room."""
    rank, suit, red = card_face(text)
    style = _card_style(red, bg)
    first = card_strip(text, width, bg)
    middle = Text(suit.center(width), style=style)
    last = Text((rank + suit).rjust(width - 1) + " ", style=style)
    return [first, middle, last]


def empty_slot(width: int, mark: str = "") -> Text:
    inner = max(width - 2, 1)
    return Text("[" + mark.center(inner) + "]", style=EMPTY)


# ---- what a pile widget shows ----------------------------------------------------------------


@dataclass
class PileModel:
    """Everything a `PileView` draws, computed from `State.view` by the app."""

    label: str
    cards: list[str | None] = field(default_factory=list)  # bottom first; None = face down
    empty_mark: str = ""
    notes: list[str] = field(default_factory=list)  # lines under the cards (calculation)
    only_top: bool = False  # foundations and the stock show their top card only
    selected: int = 0  # top cards selected as the source
    hint: int = 0  # top cards the hint moves
    hint_target: bool = False
    cursor: bool = False
    spread: bool = False  # waste piles: several cards a line when the pile is tall
    tallest: int = 0  # cards in the tallest pile of the row, so that all are spaced alike


class PileView(Widget):
    """One pile; clicking it (or one of its cards) posts `PileView.Clicked`."""

    DEFAULT_CSS = """
    PileView { width: 1fr; height: 1fr; }
    """

    class Clicked(Message):
        def __init__(self, ref: PileRef, count: int | None) -> None:
            super().__init__()
            self.ref = ref
            self.count = count

    def __init__(self, ref: PileRef, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ref = ref
        self.model = PileModel("")
        self._line_counts: list[int | None] = []  # per line: cards from there to the top

    def show(self, model: PileModel) -> None:
        if model != self.model:
            self.model = model
            self.refresh()

    def render(self) -> Text:
        m = self.model
        width, height = max(self.size.width, 3), max(self.size.height, 1)
        cw = 7 if width >= 9 else min(5, width)
        pad = " " * ((width - cw) // 2)
        lines: list[Text] = []
        counts: list[int | None] = []

        label_style = "bold #ffffff"
        if m.cursor:
            label_style = "bold #000000 on #e8e8e8"
        if m.selected:
            label_style = f"bold #000000 on {SELECTED_BG}"
        elif m.hint_target:
            label_style = f"bold #000000 on {HINT_BG}"
        label = f" {m.label} " if len(m.label) + 2 <= width else m.label[:width]
        left = (width - len(label)) // 2
        label_line = Text(" " * left)
        label_line.append(label, style=label_style)
        if m.cursor and len(label_line) < width:
            label_line.append("◂", style="bold #ffffff")
        lines.append(label_line)
        counts.append(None)

        room = height - 1 - len(m.notes)
        cards = m.cards[-1:] if m.only_top else m.cards
        n = len(m.cards)

        def bg(k: int) -> str:  # k: index into m.cards
            from_top = n - k
            if from_top <= m.selected:
                return SELECTED_BG
            if from_top <= m.hint:
                return HINT_BG
            return CARD_BG

        body: list[tuple[Text, int | None]] = []
        if not cards:
            body.append((empty_slot(cw, m.empty_mark), None))
        elif m.spread and len(cards) > room > 0:
            # A tall waste pile in side-by-side runs, read down then right; the top card last.
            cell = 4
            per = min(-(-len(cards) // room), max(width // cell, 1))
            rows = -(-len(cards) // per)
            pad = " " * ((width - per * cell) // 2)
            first = 0
            if rows > room:  # still too tall: keep the top cards
                first = len(cards) - (room - 1) * per
                body.append((Text(f"⋮+{first}".center(per * cell), style=EMPTY), None))
                rows = room - 1
            for r in range(rows):
                line = Text()
                for j in range(per):
                    k = first + j * rows + r
                    if k >= n:
                        break
                    rank, suit, red = card_face(m.cards[k] or "AS")
                    line.append(Text((rank + suit).rjust(3), style=_card_style(red, bg(k))))
                    line.append(" ")
                body.append((line, None))
        else:
            first = n - len(cards)
            if len(cards) > room and room > 1:  # too tall: keep the top cards
                skipped = len(cards) - room + 1
                body.append((Text(f"⋮+{skipped}".center(cw), style=EMPTY), None))
                first += skipped
            tallest = max(n - first, m.tallest)
            boxed = not m.only_top and tallest + 2 <= room and m.cards[-1] is not None
            # Roomy terminals: a rule between cards, and a taller top card.
            gap = not m.only_top and 2 * tallest + 3 <= room
            for k in range(first, n):
                text = m.cards[k]
                if k == n - 1 and boxed and text is not None:
                    box = card_box(text, cw, bg(k))
                    if gap:
                        box.insert(2, Text(" " * cw, style=f"on {bg(k)}"))
                    for strip in box:
                        body.append((strip, 1))
                else:
                    body.append((card_strip(text, cw, bg(k)), n - k))
                    if gap:
                        rule = "─" * cw
                        style = f"#c9c6b8 on {bg(k)}" if text is not None else BACK_RULE
                        body.append((Text(rule, style=style), n - k))
        for text_line, count in body[: max(room, 1)]:
            line = Text(pad)
            line.append_text(text_line)
            lines.append(line)
            counts.append(count)
        for note in m.notes:
            lines.append(Text(note[:width].center(width), style="#e8f5e9"))
            counts.append(None)
        self._line_counts = counts
        out = Text("\n").join(lines)
        out.no_wrap, out.overflow = True, "crop"
        return out

    def on_click(self, event: events.Click) -> None:
        count = None
        if 0 <= event.y < len(self._line_counts):
            count = self._line_counts[event.y]
        self.post_message(self.Clicked(self.ref, count))


# ---- modal screens ----------------------------------------------------------------------------

ResultT = TypeVar("ResultT")
Answer = TypeVar("Answer")  # what a question to the solver returns (`_ask_solver`)


class Dialog(ModalScreen[ResultT]):
    """A box (the child with class ``box``) in the middle of the table, closed by a key whose
    binding names the value to return, e.g. ``close('new')``: the shape every modal here shares.
    """

    DEFAULT_CSS = """
    Dialog { align: center middle; }
    Dialog > .box { height: auto; border: round #ffd84d; background: #0f3d25; padding: 1 2; }
    """

    def action_close(self, value: ResultT) -> None:
        self.dismiss(value)


class HelpScreen(Dialog[None]):
    """The rules of the current game and the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q,question_mark", "close(None)", "Close"),
    ]
    DEFAULT_CSS = """
    HelpScreen > .box { width: 90%; max-width: 100; height: 90%; padding: 0 1; }
    """

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="box") as scroll:
            scroll.border_title = "Rules and keys"
            scroll.border_subtitle = "Esc closes"
            yield Static(self.text, id="help-text")


EndKind = Literal["won", "lost", "hopeless"]

# The game's keys, as data: (key, the app's action, footer label, key shown). The board binds
# them all; the end screen offers END_ACTIONS of them under the same keys.
GAME_KEYS: tuple[tuple[str, str, str, str | None], ...] = (
    ("u", "undo", "Undo", None),
    ("r", "redo", "Redo", None),
    ("x", "restart", "Reset", None),
    ("question_mark", "hint", "Hint", "?"),
    ("p", "solve", "Solve", None),
    ("o", "auto", "Auto", None),
    ("n", "new_deal", "New", None),
    ("number_sign", "deal_number", "Deal", "#"),
    ("t", "stats", "Stats", None),
    ("f1", "help", "Help", None),
    ("q", "quit", "Quit", None),
)
END_ACTIONS = ("new_deal", "undo", "restart", "quit")


def game_keys(actions: Sequence[str] | None = None) -> list[tuple[str, str, str, str | None]]:
    """The rows of GAME_KEYS for ``actions``, in that order (all of them by default)."""
    if actions is None:
        return list(GAME_KEYS)
    return [row for action in actions for row in GAME_KEYS if row[1] == action]


def key_bindings(bind: Callable[[str], str],
                 actions: Sequence[str] | None = None) -> list[BindingType]:
    """Bindings for `game_keys`, each key bound to ``bind(its action)``."""
    return [Binding(key, bind(action), label, key_display=shown)
            for key, action, label, shown in game_keys(actions)]


class EndScreen(Dialog[str | None]):
    """Won, no moves left, or no winning line: says so and offers what to do next."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *key_bindings(lambda action: f"close({action!r})", END_ACTIONS),
        Binding("escape", "close(None)", "Close"),
    ]
    DEFAULT_CSS = """
    EndScreen > .box {
        width: auto; max-width: 70; border: double #ffd84d; padding: 1 3; text-align: center;
    }
    """

    def __init__(self, kind: EndKind, text: str) -> None:
        super().__init__(classes=kind)
        self.kind = kind
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text, id="end-text", classes="box")
        yield Footer(compact=True, show_command_palette=False)


STATS_HEADINGS = ("game", "played", "won", "won\nwith\nSolve", "lost", "win\nrate", "streak",
                  "best\nstreak", "best\ntime", "fewest\nmoves", "hints")


def stats_cells(title: str, st: dict[str, Any]) -> list[str]:
    """One game's row of the statistics table (a dash where no game is won yet): clean wins
    and wins with Solve's help apart."""
    best_time, fewest = st["best_time"], st["fewest_moves"]
    return [title, str(st["played"]), str(st["won"]), str(st["assisted"]), str(st["lost"]),
            f"{st['win_rate']:.0%}",
            str(st["current_streak"]), str(st["best_streak"]),
            "–" if best_time is None else clock(best_time),
            "–" if fewest is None else str(fewest), str(st["hints"])]


class StatsScreen(Dialog[None]):
    """The player's statistics per game, as the store keeps them (the web page shows the
    same numbers); the first row, the current game's, is in bold."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,t,q", "close(None)", "Close")]
    DEFAULT_CSS = """
    StatsScreen > .box { width: auto; max-width: 100%; }
    """

    def __init__(self, rows: list[list[str]]) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                      collapse_padding=True, header_style="bold #ffd84d")
        table.add_column(STATS_HEADINGS[0], max_width=24)
        for heading in STATS_HEADINGS[1:]:
            table.add_column(heading, justify="right")
        for i, row in enumerate(self.rows):
            table.add_row(*row, style="bold" if i == 0 else "")
        frame = Static(table, id="stats-table", classes="box")
        frame.border_title = "Statistics"
        frame.border_subtitle = "Esc closes"
        yield frame


class DealScreen(Dialog[int | str | None]):
    """Asks for a deal number, or for a kind of deal the solver is to find (`solver.WANTED`)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close(None)", "Cancel")]
    DEFAULT_CSS = """
    DealScreen > .box { width: 52; padding: 0 1; }
    DealScreen #deal-error { color: #ff8a80; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static("Deal number, or winnable / easy / medium / hard for a deal the "
                         "solver finds (Enter to deal, Esc to cancel):")
            yield Input(placeholder="e.g. 9 or hard", id="deal-input", restrict=r"[0-9a-z]*")
            yield Static("", id="deal-error")

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if text in solver.WANTED:
            self.dismiss(text)
            return
        if not text.isdigit() or not MIN_DEAL <= int(text) <= MAX_DEAL:
            self.query_one("#deal-error", Static).update(
                f"a whole number from {MIN_DEAL} to {MAX_DEAL}, or winnable, easy, medium or "
                "hard")
            return
        self.dismiss(int(text))


class ConfirmScreen(Dialog[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "close(True)", "Yes"),
        Binding("n,escape", "close(False)", "No"),
    ]
    DEFAULT_CSS = """
    ConfirmScreen > .box { width: auto; max-width: 60; }
    """

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yield Static(self.question + "\n\n[b]y[/b] yes   [b]n[/b] no", classes="box")


# ---- the board --------------------------------------------------------------------------------


class BoardScreen(Screen[None]):
    """The table: status line, foundations (and stock), columns (or waste piles), messages."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *key_bindings(lambda action: f"app.{action}"),
        Binding("escape", "app.cancel", "Cancel", show=False),
        Binding("left", "app.cursor(-1, 0)", show=False),
        Binding("right", "app.cursor(1, 0)", show=False),
        Binding("up", "app.cursor(0, -1)", show=False),
        Binding("down", "app.cursor(0, 1)", show=False),
        Binding("enter,space", "app.pick", show=False),
        Binding("full_stop", "app.home", show=False),
        Binding("ctrl+z", "app.undo", show=False),
        Binding("ctrl+y", "app.redo", show=False),
    ]

    DEFAULT_CSS = f"""
    BoardScreen {{ background: {FELT}; layers: base; }}
    #status {{ height: 1; background: #0c3b22; color: #ffffff; padding: 0 1; }}
    #top {{ height: 3; margin: 1 0 0 0; }}
    #top.calculation {{ height: 4; }}
    #markers {{ height: 1; color: #e8f5e9; padding: 0 1; }}
    #top-spacer {{ width: 1fr; }}
    #top.packer, #piles.packer {{ layout: grid; grid-gutter: 0; }}
    #top.calculation PileView {{ width: 1fr; max-width: 12; }}
    #piles {{ height: 1fr; margin: 1 0 0 0; }}
    #piles.calculation {{ align-horizontal: center; }}
    #piles.calculation PileView {{ max-width: 18; }}
    #message {{ height: 1; background: #0c3b22; color: #ffffff; padding: 0 1; }}
    #message.error {{ color: #ffab91; text-style: bold; }}
    #message.good {{ color: #b9f6ca; text-style: bold; }}
    """

    def compose(self) -> ComposeResult:
        app = self.app
        assert isinstance(app, ThirteenApp)
        v = app.variant
        yield Static("", id="status")
        calc = v.family == "calculation"
        with Horizontal(id="top", classes="calculation" if calc else "packer"):
            if calc:
                yield PileView(PileRef("stock"), id="stock")
            nfound = len(v.bases) if calc else (8 if v.kings_down else 4)
            for p in range(nfound):
                yield PileView(PileRef("found", p), id=f"found-{p}")
            yield Static("", id="top-spacer")
        if v.markers:
            yield Static("", id="markers")
        with Horizontal(id="piles", classes="calculation" if calc else "packer"):
            if calc:
                for w in range(v.waste_piles):
                    yield PileView(PileRef("waste", w), id=f"waste-{w}")
            else:
                for c in range(v.columns):
                    yield PileView(PileRef("col", c), id=f"col-{c}")
        yield Static("", id="message")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        app = self.app
        assert isinstance(app, ThirteenApp)
        app.redraw()
        if app.game.status() == "lost":  # resumed a game that was already stuck
            app.show_end("lost")

        if app.variant.family == "packer":  # foundations as wide as the columns below them
            columns, piles = app.variant.columns, 8 if app.variant.kings_down else 4
            for grid in self.query("#top, #piles"):
                grid.styles.grid_size_columns = columns
            self.query_one("#top-spacer").styles.column_span = columns - piles

    def on_key(self, event: events.Key) -> None:
        app = self.app
        assert isinstance(app, ThirteenApp)
        if event.character and app.pile_key(event.character):
            event.stop()
            event.prevent_default()

    @on(PileView.Clicked)
    def clicked(self, event: PileView.Clicked) -> None:
        app = self.app
        assert isinstance(app, ThirteenApp)
        app.click(event.ref, event.count)


@dataclass
class Selection:
    ref: PileRef
    count: int | None = None  # None: as many cards as the target takes


class ThirteenApp(App[None]):
    """Play one game of the registry; deals, statistics and the game in progress live in the
    shared `Store` under the player ``"local"``."""

    TITLE = "thirteen"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+c", "quit", "Quit", show=False)]

    def __init__(
        self,
        game_name: str,
        number: int | None = None,
        store: Store | str | Path | None = None,
        *,
        show_clock: bool = True,
        use_solver: bool = True,
        game: Game | None = None,
    ) -> None:
        """``game``: play this game (a typed-in board, say) rather than deal ``number``."""
        super().__init__()
        self.variant = game.variant if game is not None else get_variant(game_name)
        self.store = store if isinstance(store, Store) else Store(store)
        self.show_clock = show_clock
        self.use_solver = use_solver
        self.selection: Selection | None = None
        self.cursor = PileRef("col", 0) if self.variant.family == "packer" else PileRef("stock")
        self.hint_move: Move | None = None
        self.message = ""
        self.message_kind = ""
        self._ended: EndKind | None = None
        self._stats: dict[str, Any] | None = None
        self._checking = self._check_again = False
        self.session, opened = open_session(self.store, PLAYER, self.variant, number, game)
        if opened:
            self.say(opened)

    # ---- games -------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.session.game

    def stats(self) -> dict[str, Any]:
        """This game's statistics in the store (read again after each result)."""
        if self._stats is None:
            self._stats = self.session.stats()
        return self._stats

    def elapsed(self) -> float:
        return self.session.clock()

    def start(self, number: int | None) -> None:
        """Leave the current game (a loss if it was played and not won: the player confirmed,
        or it was over) and deal ``number``."""
        self.session.leave()
        self._stats = None
        self.session = new_session(self.store, PLAYER, self.variant, number)
        self._ended = None
        self.selection, self.hint_move = None, None
        self.say(f"Deal {self.game.number}. " + self.prompt())
        self.redraw()

    # ---- the view ----------------------------------------------------------------------------
    def say(self, text: str, kind: str = "") -> None:
        self.message, self.message_kind = text[:1].upper() + text[1:], kind

    def prompt(self) -> str:
        if self.variant.family == "calculation":
            last = LETTERS[self.variant.waste_piles - 1]
            return (f"s stock, a-{last} waste, 1-{len(self.variant.bases)} foundation: "
                    "source then target. F1 help.")
        last = LETTERS[self.variant.columns - 1]
        digits = "1-9, 0" if self.variant.columns >= 10 else f"1-{self.variant.columns}"
        return (f"Column a-{last} (or {digits}) then a target; same key twice sends it home. "
                "F1 help.")

    def models(self) -> dict[PileRef, PileModel]:
        view = self.game.state.view()
        sel, hint = self.selection, self.hint_move
        out: dict[PileRef, PileModel] = {}
        if view["family"] == "packer":
            for c, col in enumerate(view["columns"]):
                label = f"{LETTERS[c]} {c + 1}" if c >= 9 else f"{LETTERS[c]}·{c + 1}"
                out[PileRef("col", c)] = PileModel(label, list(col))
            for p, pile in enumerate(view["foundations"]):
                suit = p % 4
                mark = ""
                if self.variant.kings_down:
                    mark = ("A" if p < 4 else "K") + SUIT_SYMBOLS[suit]
                label = SUIT_SYMBOLS[suit] if self.variant.foundations == "suit" else f"f{p + 1}"
                if self.variant.kings_down:
                    label = f"{SUIT_SYMBOLS[suit]}{'↑' if p < 4 else '↓'}"
                out[PileRef("found", p)] = PileModel(
                    label, list(pile["cards"]), empty_mark=mark, only_top=True)
        else:
            left = view["stock_left"]
            top = view["stock_top"]
            out[PileRef("stock")] = PileModel(
                "s stock", [top] if top else [], only_top=True,
                notes=[f"{left - 1 if top else 0} more"])
            for p, pile in enumerate(view["foundations"]):
                needs = pile["needs"]
                out[PileRef("found", p)] = PileModel(
                    f"{p + 1} +{pile['interval']}", list(pile["cards"]), only_top=True,
                    notes=[f"→ {needs}" if needs else "done"])
            for w, pile in enumerate(view["waste"]):
                out[PileRef("waste", w)] = PileModel(LETTERS[w], list(pile), spread=True)
        tallest = max((len(m.cards) for m in out.values() if not m.only_top), default=0)
        for ref, model in out.items():
            model.tallest = tallest
            model.cursor = ref == self.cursor
            if sel is not None and sel.ref == ref:
                model.selected = max(sel.count or self._default_count(ref), 1)
        if hint is not None:
            src = self._ref_of(hint.source)
            dst = self._ref_of(hint.target, hint.source)
            if src in out:
                out[src].hint = hint.count
            if dst in out:
                out[dst].hint_target = True
        return out

    def redraw(self) -> None:
        board = self._board()
        if board is None:
            return
        models = self.models()
        for view in board.query(PileView):
            if view.ref in models:
                view.show(models[view.ref])
        board.query_one("#status", Static).update(self.status_line())
        msg = board.query_one("#message", Static)
        msg.update(self.message or self.prompt())
        msg.set_classes(self.message_kind)
        if self.variant.markers:
            marks = self.game.state.view()["markers"]
            board.query_one("#markers", Static).update(
                "markers " + " ".join(glyph(m) for m in marks)
                + "  (foundation n is built by n, from twice n)")

    def _board(self) -> BoardScreen | None:
        for screen in self.screen_stack:
            if isinstance(screen, BoardScreen):
                return screen
        return None

    def status_line(self) -> Text:
        g, v = self.game, self.variant
        st = self.stats()
        text = Text()
        text.append(v.title, style="bold")
        text.append(f"  deal {g.number}" if g.number is not None else "  typed deal")
        text.append(f"  moves {len(g.moves)}")
        if self.show_clock:
            text.append(f"  {clock(self.elapsed())}")
        text.append(f"   played {st['played']} won {st['won']}", style="#c8e6c9")
        if st["played"]:
            text.append(f" ({st['win_rate']:.0%})", style="#c8e6c9")
        text.append(f" streak {st['current_streak']}", style="#c8e6c9")
        return text

    async def action_quit(self) -> None:
        """Quit; the game in progress is saved (it was after every move; this keeps the time)."""
        if self.game.status() == "in play":
            self.session.commit()
        self.exit()

    def on_mount(self) -> None:
        self.push_screen(BoardScreen())
        if self.show_clock:
            self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        board = self._board()
        if board is not None and self.game.status() == "in play":
            board.query_one("#status", Static).update(self.status_line())

    # ---- places ------------------------------------------------------------------------------
    def _source(self, ref: PileRef) -> Place | None:
        v = self.variant
        if ref.kind in _PILE_PLACE:
            return Place(_PILE_PLACE[ref.kind], ref.index)
        if ref.kind == "stock":
            return Place("s")
        if v.family == "packer" and v.worry_back and not v.kings_down:
            return Place("fs", ref.index) if v.foundations == "suit" else Place("f", ref.index)
        return None

    def _target(self, ref: PileRef) -> Place | None:
        v = self.variant
        if ref.kind in _PILE_PLACE:
            return Place(_PILE_PLACE[ref.kind], ref.index)
        if ref.kind == "found":
            if v.family == "calculation":
                return Place("f", ref.index)
            if v.kings_down:
                return Place("fa" if ref.index < 4 else "fk")
            return Place("f")
        return None

    def _ref_of(self, place: Place, source: Place | None = None) -> PileRef | None:
        """The pile a move's place names (a foundation target: the pile the card goes to)."""
        if place.kind in _PLACE_PILE:
            return PileRef(_PLACE_PILE[place.kind], place.index)
        if place.kind == "s":
            return PileRef("stock")
        if place.kind == "fs" or (place.kind == "f" and place.index >= 0):
            return PileRef("found", place.index)
        state = self.game.state
        if source is not None and source.kind == "c" and isinstance(state, PackerState):
            col = state.columns[source.index]
            if col:
                pile = state.foundation_for(col[-1], place.kind)
                if pile is not None:
                    return PileRef("found", pile)
        return None

    def _view_cards(self, ref: PileRef) -> list[str | None]:
        """The cards of a pile as the player sees them (the stock: its turned card only)."""
        view = self.game.state.view()
        if ref.kind == "col":
            return list(view["columns"][ref.index])
        if ref.kind == "waste":
            return list(view["waste"][ref.index])
        if ref.kind == "stock":
            return [view["stock_top"]] if view["stock_top"] else []
        return list(view["foundations"][ref.index]["cards"])

    def _default_count(self, ref: PileRef) -> int:
        """Cards highlighted when a pile is selected: its movable run."""
        state = self.game.state
        if ref.kind == "col" and isinstance(state, PackerState):
            return state.movable_run(ref.index)
        return 1

    def groups(self) -> list[list[PileRef]]:
        v = self.variant
        if v.family == "calculation":
            return [[PileRef("stock")] + [PileRef("found", p) for p in range(len(v.bases))],
                    [PileRef("waste", w) for w in range(v.waste_piles)]]
        return [[PileRef("found", p) for p in range(8 if v.kings_down else 4)],
                [PileRef("col", c) for c in range(v.columns)]]

    # ---- input -------------------------------------------------------------------------------
    def pile_key(self, char: str) -> bool:
        """Handle a pile's key; False if ``char`` names no pile."""
        v = self.variant
        ref: PileRef | None = None
        if v.family == "packer":
            if char in LETTERS[: v.columns]:
                ref = PileRef("col", LETTERS.index(char))
            elif char.isdigit():
                c = int(char) - 1 if char != "0" else 9
                if c < v.columns:
                    ref = PileRef("col", c)
        else:
            if char == "s":
                ref = PileRef("stock")
            elif char in LETTERS[: v.waste_piles]:
                ref = PileRef("waste", LETTERS.index(char))
            elif char.isdigit() and 1 <= int(char) <= len(v.bases):
                ref = PileRef("found", int(char) - 1)
                if self.selection is None:  # the turned card is the usual source
                    self.selection = Selection(PileRef("stock"))
        if ref is None:
            return False
        self.cursor = ref
        self.choose(ref, None)
        return True

    def click(self, ref: PileRef, count: int | None) -> None:
        self.cursor = ref
        if self.selection is None and ref.kind == "col" and count is not None:
            if count > self._default_count(ref):
                self.say("only the top card or sequence of a column moves", "error")
                self.redraw()
                return
            self.choose(ref, count)
            return
        self.choose(ref, None)

    def choose(self, ref: PileRef, count: int | None) -> None:
        """Select ``ref`` as the source, or play the selected source onto it."""
        if self._ended == "won":
            self.redraw()
            return
        self.hint_move = None
        sel = self.selection
        if sel is None:
            self._select(ref, count)
        elif sel.ref == ref:
            self.selection = None
            self.send_home(ref)
        else:
            self.selection = None
            self.play_between(sel.ref, ref, sel.count)
        self.redraw()

    def _select(self, ref: PileRef, count: int | None) -> None:
        src = self._source(ref)
        if src is None:
            if ref.kind == "found":
                self.say("cards never come back from the foundations in this game", "error")
            else:
                self.say("choose a card to move first", "error")
            return
        if not self._view_cards(ref):
            self.say(f"{self.pile_name(ref)} is empty", "error")
            return
        self.selection = Selection(ref, count)
        self.say(f"Move {self.top_words(ref, count)} to where? (its key again: foundation, "
                 "Esc: cancel)")

    def pile_name(self, ref: PileRef) -> str:
        if ref.kind == "col":
            return f"column {LETTERS[ref.index]}"
        if ref.kind == "waste":
            return f"waste pile {LETTERS[ref.index]}"
        if ref.kind == "stock":
            return "the stock"
        return f"foundation {ref.index + 1}"

    def top_words(self, ref: PileRef, count: int | None = None) -> str:
        cards = self._view_cards(ref)
        if not cards or cards[-1] is None:
            return self.pile_name(ref)
        n = count or self._default_count(ref)
        first = cards[-n] if 1 < n <= len(cards) else None  # a moved run is face up
        if first is not None:
            return f"{glyph(first)}..{glyph(cards[-1])}"
        return glyph(cards[-1])

    def send_home(self, ref: PileRef) -> None:
        src = self._source(ref)
        if src is None:
            self.say("nothing to send to a foundation", "error")
            return
        for move in self.game.legal_moves():
            if move.source == src and move.target.kind in ("f", "fa", "fk"):
                self.play(move)
                return
        self.say(f"{self.top_words(ref, 1)} cannot go to a foundation now", "error")

    def play_between(self, a: PileRef, b: PileRef, count: int | None) -> None:
        src, dst = self._source(a), self._target(b)
        if src is None:
            self.say("choose a card to move first", "error")
            return
        if dst is None:
            self.say(f"{self.pile_name(b)} takes no cards", "error")
            return
        fitting = [m for m in self.game.legal_moves()
                   if m.source == src and m.target == dst and (count is None or m.count == count)]
        if fitting:
            self.play(max(fitting, key=lambda m: m.count))
            return
        self.play(Move(src, dst, count or 1))  # illegal: the engine says why

    def play(self, move: Move) -> bool:
        words = self.move_words(move)
        try:
            self.game.push(move)
        except MoveError as e:
            reason = _CARD_TEXT.sub(lambda m: glyph(m.group(0)), str(e).split(": ", 1)[-1])
            self.say(f"Not allowed: {reason}", "error")
            return False
        self.say(words)
        self.after_change()
        return True

    def move_words(self, move: Move) -> str:
        """``5♠ c → g`` style description, computed before the move is played."""
        src = self._ref_of(move.source)
        dst = self._ref_of(move.target, move.source)
        what = self.top_words(src, move.count) if src is not None else str(move.source)
        where = self.pile_name(dst) if dst is not None else "its foundation"
        if dst is not None and dst.kind == "found" and self.variant.family == "packer":
            where = "its foundation"
        return f"{what} to {where} ({move})"

    def after_change(self) -> None:
        self.hint_move = None
        status = self.game.status()
        self.session.commit()  # a win is counted there, once
        if status == "won" and self._ended != "won":
            self._ended = "won"
            self._stats = None
            self.redraw()
            self.show_end("won")
            return
        if status == "lost":
            self._ended = "lost"
            self.redraw()
            self.show_end("lost")
            return
        self._ended = None
        self.redraw()
        self._check_line()

    def show_end(self, kind: EndKind, detail: str = "") -> None:
        g, v = self.game, self.variant
        st = self.stats()
        if kind == "won" and self.session.assisted:
            head = f"{v.title} deal {g.number} won with Solve's help."
            body = (f"{len(g.moves)} moves in {clock(self.elapsed())}: counted apart from your "
                    "own wins.")
        elif kind == "won":
            head = f"You won {v.title} deal {g.number}!"
            body = f"{len(g.moves)} moves in {clock(self.elapsed())}."
        elif kind == "lost":
            head = "No moves left."
            body = f"{v.title} deal {g.number} is stuck after {len(g.moves)} moves."
        else:
            head = "No winning line remains."
            body = detail or "The solver proved that no sequence of moves wins from here."
        stats = (f"{v.title}: played {st['played']}, won {st['won']} ({st['win_rate']:.0%}), "
                 f"won with Solve {st['assisted']}, "
                 f"streak {st['current_streak']}, best streak {st['best_streak']}")
        if st["best_time"] is not None:
            stats += f", best time {clock(st['best_time'])}"
        if st["fewest_moves"] is not None:
            stats += f", fewest moves {st['fewest_moves']}"
        options = "   ".join(f"{shown or key} {label.lower()}"
                               for key, _, label, shown in game_keys(END_ACTIONS)) + "   Esc close"
        text = f"[b]{head}[/b]\n\n{body}\n\n{stats}\n\n{options}"
        self.push_screen(EndScreen(kind, text), self._end_choice)

    async def _end_choice(self, action: str | None) -> None:
        """Run the end screen's choice; a new deal needs no confirmation, the game is over."""
        if action == "new_deal":
            self.start(None)
        elif action is not None:
            await self.run_action(action)

    # ---- actions -----------------------------------------------------------------------------
    def action_cancel(self) -> None:
        self.selection, self.hint_move = None, None
        self.say("")
        self.redraw()

    def action_cursor(self, dx: int, dy: int) -> None:
        groups = self.groups()
        row = next(i for i, g in enumerate(groups) if self.cursor in g) if any(
            self.cursor in g for g in groups) else 0
        col = groups[row].index(self.cursor) if self.cursor in groups[row] else 0
        if dy:
            row = max(0, min(len(groups) - 1, row + dy))
            col = min(col, len(groups[row]) - 1)
        else:
            col = (col + dx) % len(groups[row])
        self.cursor = groups[row][col]
        self.redraw()

    def action_pick(self) -> None:
        ref = self.cursor
        if self.selection is None and self.variant.family == "calculation" and ref.kind == "found":
            self.selection = Selection(PileRef("stock"))
        self.choose(ref, None)

    def action_home(self) -> None:
        ref = self.selection.ref if self.selection else self.cursor
        self.selection = None
        self.send_home(ref)
        self.redraw()

    def action_undo(self) -> None:
        self._step(self.game.undo, "Undid")

    def action_redo(self) -> None:
        self._step(self.game.redo, "Redid")

    def _step(self, step: Callable[[], Move], done: str) -> None:
        """Undo or redo one move, or say why not (nothing left to take back or replay)."""
        self.selection = None
        try:
            move = step()
        except MoveError as e:
            self.say(str(e).capitalize(), "error")
            self.redraw()
            return
        self.say(f"{done} {move}.")
        self.after_change()

    def action_restart(self) -> None:
        self.selection = None
        if not self.game.moves:
            self.say("Already at the deal.")
            self.redraw()
            return
        self.game.restart()
        self.say("Back to the deal (r redoes the moves one by one).")
        self.after_change()

    def action_auto(self) -> None:
        self.selection = None
        if self._ended == "won":
            return
        played = auto_finish(self.game)
        if not played:
            self.say("No safe move to the foundations now.")
            self.redraw()
            return
        self.say(f"Played {len(played)} safe move{'s' if len(played) > 1 else ''}: "
                 + " ".join(str(m) for m in played))
        self.after_change()

    def action_new_deal(self) -> None:
        self._confirm_then(lambda: self.start(None))

    def action_deal_number(self) -> None:
        def chosen(answer: int | str | None) -> None:
            if isinstance(answer, int):
                self._confirm_then(lambda: self.start(answer))
            elif answer in solver.WANTED:
                self._confirm_then(lambda: self._find_deal(answer))

        self.push_screen(DealScreen(), chosen)

    def _find_deal(self, wanted: solver.Wanted) -> None:
        """Let the solver draw deals until it rates one ``wanted`` (in the background: a hard
        deal can take seconds), then deal it."""
        self.say(f"Looking for {'an' if wanted == 'easy' else 'a'} {wanted} deal...")
        self.redraw()

        def work() -> None:
            try:
                number, message = choose_deal(self.variant, None, wanted)
            except ValueError as e:  # this game's deals are not rated
                self.call_from_thread(self.say, f"{e}.", "error")
                self.call_from_thread(self.redraw)
                return
            except Exception as e:  # a failing solver must not end the session: a message
                self.call_from_thread(self.say, f"The solver failed ({e}).", "error")
                self.call_from_thread(self.redraw)
                return
            self.call_from_thread(self._found_deal, number, message)

        self.run_worker(work, thread=True, exclusive=True, group="find")

    def _found_deal(self, number: int, message: str) -> None:
        self.start(number)
        self.say(f"Deal {number}. {message}")
        self.redraw()

    def _confirm_then(self, then: Callable[[], None]) -> None:
        """Run ``then`` (which leaves this game) once the player confirmed, where the session
        says leaving needs it."""
        if not self.session.must_confirm():
            then()
            return

        def answer(yes: bool | None) -> None:
            if yes:
                then()

        self.push_screen(ConfirmScreen(CONFIRM_LEAVE), answer)

    def action_stats(self) -> None:
        """Every game with a result, and this one, from the store's own figures."""
        figures = self.store.all_stats(PLAYER)
        figures.setdefault(self.variant.name, self.stats())
        names = sorted(figures, key=lambda n: (n != self.variant.name, n))
        rows = [stats_cells(GAMES[n].title if n in GAMES else n, figures[n]) for n in names]
        self.push_screen(StatsScreen(rows))

    def action_help(self) -> None:
        keys = (
            "\n[b]Keys[/b]\n\n" + self.prompt() + "\n"
            "Arrows move the cursor; Enter or a mouse click picks a source, then a target.\n"
            "Click a card inside a sequence to move from that card up.\n"
            "u undo   r redo   x restart   ? hint   p solve it for me\n"
            "o safe moves to the foundations\n"
            "n new deal   # deal by number   t statistics   F1 help   Esc cancel\n"
            "q quit (the game is saved)\n"
        )
        text = Text(describe(self.variant))
        text.append_text(Text.from_markup(keys))
        self.push_screen(HelpScreen(text))

    def action_hint(self) -> None:
        self.selection = None
        if self.game.status() != "in play":
            self.say("The game is over: nothing to hint.")
            self.redraw()
            return
        if not self.use_solver:
            self._show_hint(self._fallback_hint(), "")
            return
        budget = solver.Budget(max_seconds=HINT_SECONDS)
        self._ask_solver("Thinking...", lambda state, seen: solver.hint(state, budget, seen),
                         self._solver_hint, self._solver_failed)

    def _ask_solver(self, busy: str, ask: Callable[[State, tuple[State, ...]], Answer],
                    answer: Callable[[Answer, int], None], failed: Callable[[str], None]) -> None:
        """Say ``busy`` and run ``ask`` on the session's position (and the positions the game
        has been in) in a worker thread (one at a time); then ``answer`` gets its result and
        the move count it was asked at (the position may have changed meanwhile). A failing
        solver goes to ``failed``: it must not end the game."""
        self.say(busy)
        self.redraw()
        state, seen = self.session.position()
        moves_then = len(self.game.moves)

        def work() -> None:
            try:
                result = ask(state, seen)
            except Exception as e:
                self.call_from_thread(failed, str(e))
                return
            self.call_from_thread(answer, result, moves_then)

        self.run_worker(work, thread=True, exclusive=True, group="hint")

    def action_solve(self) -> None:
        """Solve it for me: the solver's winning line, played to the end (undo takes it back
        move by move); where cards are hidden, the fair player's moves. The game counts as
        assisted."""
        self.selection = None
        if self.game.status() != "in play" or not self.use_solver:
            self.say("The game is over: nothing to solve." if self.game.status() != "in play"
                     else "The solver is off.")
            self.redraw()
            return
        budget = solver.Budget(max_seconds=SOLVE_SECONDS)
        asked = self.game.state

        def solved(answer: solver.Played, moves_then: int) -> None:
            self._solved(asked, answer)

        self._ask_solver("Solving...",
                         lambda state, seen: solver.solve_for_me(state, budget, seen),
                         solved, lambda why: self.say(f"The solver failed: {why}", "error"))

    def _solved(self, asked: State, answer: solver.Played) -> None:
        if answer.verdict == "unsolvable":
            self._hopeless(solver.DEAD_END)
            return
        try:
            played = self.session.take_solve(asked, answer)
        except Changed:
            return  # the position changed meanwhile
        if not played:
            self.say(answer.message, "error")
            self.redraw()
            return
        self.say(f"Solve {answer.message}.")
        self._stats = None
        self.after_change()

    def _hopeless(self, detail: str) -> None:
        """The solver proved that no winning line remains: say so and offer the end screen."""
        self.say(solver.NO_LINE, "error")
        self.redraw()
        self.show_end("hopeless", detail)

    def _solver_failed(self, why: str) -> None:
        self._show_hint(self._fallback_hint(), f"(solver failed: {why}) ")

    def _solver_hint(self, result: solver.Hint, moves_then: int) -> None:
        if len(self.game.moves) != moves_then:
            return  # the position changed meanwhile
        move, message = result.move, result.message
        if result.verdict == "unsolvable":
            self._hopeless(message)
            return
        if move is not None:
            self.session.take_hint()
            self._stats = None
            self._show_hint(move, "", message.removeprefix(f"{move}: "))
        else:  # every move leads back to a position already played
            self.say(message + ".", "error")
            self.redraw()

    def _check_line(self) -> None:
        """In the background, ask the solver whether a winning line remains (only where every
        card is in sight, so that the answer gives nothing hidden away)."""
        state = self.game.state
        if state.hides_cards or not self.use_solver:
            return
        if self._checking:  # one search at a time; the latest position is checked next
            self._check_again = True
            return
        self._checking, self._check_again = True, False
        moves_then = len(self.game.moves)

        def work() -> None:
            verdict = ""
            try:
                budget = solver.Budget(max_seconds=CHECK_SECONDS, max_nodes=CHECK_NODES)
                verdict = str(solver.solve(state, budget).verdict)
            except Exception:  # a failing check is no answer, and no message
                pass
            self.call_from_thread(self._line_checked, verdict, moves_then)

        self.run_worker(work, thread=True, group="check")

    def _line_checked(self, verdict: str, moves_then: int) -> None:
        self._checking = False
        if self._check_again:
            self._check_line()
            return
        if verdict == "unsolvable" and len(self.game.moves) == moves_then and not self._ended:
            self.say("No winning line remains from here: undo (u) or deal again (n).", "error")
            self.redraw()

    def _fallback_hint(self) -> Move | None:
        state = self.game.state
        safe = state.safe_moves()
        if safe:
            return safe[0]
        legal = self.game.legal_moves()
        home = [m for m in legal if m.target.kind in ("f", "fa", "fk")]
        choices = home or legal
        return choices[0] if choices else None

    def _show_hint(self, move: Move | None, prefix: str, message: str = "") -> None:
        if move is None:
            self.say(prefix + "No hint: no legal move.", "error")
        else:
            self.hint_move = move
            extra = f" — {message}" if message else ""
            self.say(f"{prefix}Hint: {self.move_words(move)}{extra}", "good")
        self.redraw()


def run_app(game_name: str, number: int | None, db: str | None = None,
            game: Game | None = None) -> int:
    """Play ``game_name`` (deal ``number``, or resume / a random deal) full screen; ``game``
    plays a given game instead (a typed-in board, or a game with options). The exit code: 1
    if the app failed, so that the shell sees it."""
    app = ThirteenApp(game_name, number, db, game=game)
    app.run()
    return app.return_code or 0
