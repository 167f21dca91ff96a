"""The boxes over the board: help, statistics, end of game, deal number and confirmation.

They share one shape (`Dialog`): a box in the middle of the table, closed by a key whose
binding names the value to return.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, TypeVar

from rich import box
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from .. import solver
from ..deal import MAX_DEAL, MIN_DEAL
from ..game import Game
from .keys import END_ACTIONS, key_bindings, key_words
from .words import clock

ResultT = TypeVar("ResultT")


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


MORE_BELOW = "▼ more below: ↓ PgDn Space · Esc closes"
ALL_SHOWN = "Esc closes"


class HelpScreen(Dialog[None]):
    """The rules of the current game and the keys; when they do not fit, the frame says that
    there is more below, and the arrows, PgUp/PgDn, Space, Home and End scroll."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q,question_mark", "close(None)", "Close"),
        Binding("space", "page_down", "More", show=False),
    ]
    DEFAULT_CSS = """
    HelpScreen > .box { width: 90%; max-width: 100; height: 90%; padding: 0 1; }
    """
    AUTO_FOCUS = "#help-box"  # so that its own keys (arrows, PgUp/PgDn, Home, End) scroll it

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="box", id="help-box") as scroll:
            scroll.border_title = "Rules and keys"
            scroll.border_subtitle = ALL_SHOWN
            yield Static(self.text, id="help-text")

    def on_mount(self) -> None:
        scroll = self.query_one("#help-box", VerticalScroll)
        for attribute in ("scroll_y", "virtual_size", "max_scroll_y"):
            self.watch(scroll, attribute, self._mark_more)

    def on_resize(self) -> None:
        self.call_after_refresh(self._mark_more)

    def _mark_more(self) -> None:
        scroll = self.query_one("#help-box", VerticalScroll)
        more = scroll.max_scroll_y - scroll.scroll_y >= 1
        scroll.border_subtitle = MORE_BELOW if more else ALL_SHOWN

    def action_page_down(self) -> None:
        self.query_one("#help-box", VerticalScroll).scroll_page_down()


EndKind = Literal["won", "lost", "hopeless"]


def end_text(kind: EndKind, game: Game, st: dict[str, Any], seconds: float,
             assisted: bool, detail: str = "") -> str:
    """What the end screen says: the result, the game's statistics and the keys."""
    title, number, moves = game.variant.title, game.number, len(game.moves)
    if kind == "won" and assisted:
        head = f"{title} deal {number} won with Solve's help."
        body = f"{moves} moves in {clock(seconds)}: counted apart from your own wins."
    elif kind == "won":
        head = f"You won {title} deal {number}!"
        body = f"{moves} moves in {clock(seconds)}."
    elif kind == "lost":
        head = "No moves left."
        body = f"{title} deal {number} is stuck after {moves} moves."
    else:
        head = "No winning line remains."
        body = detail or "The solver proved that no sequence of moves wins from here."
    stats = (f"{title}: played {st['played']}, won {st['won']} ({st['win_rate']:.0%}), "
             f"won with Solve {st['assisted']}, "
             f"streak {st['current_streak']}, best streak {st['best_streak']}")
    if st["best_time"] is not None:
        stats += f", best time {clock(st['best_time'])}"
    if st["fewest_moves"] is not None:
        stats += f", fewest moves {st['fewest_moves']}"
    options = key_words(END_ACTIONS) + "   Esc close"
    return f"[b]{head}[/b]\n\n{body}\n\n{stats}\n\n{options}"


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
    """A question whose safe answer (``no``) is also Enter's and Esc's, so that a key pressed
    out of habit never gives a game away; the box says which key does what."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "close(True)", "Yes"),
        Binding("n,enter,escape", "close(False)", "No"),
    ]
    DEFAULT_CSS = """
    ConfirmScreen > .box { width: auto; max-width: 60; }
    """

    def __init__(self, question: str, yes: str = "yes", no: str = "no") -> None:
        super().__init__()
        self.question = question
        self.keys = f"y {yes} · n/Enter/Esc {no}"

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble(self.question, "\n\n", (self.keys, "bold")),
                     id="confirm-text", classes="box")
