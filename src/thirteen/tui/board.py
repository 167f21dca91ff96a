"""The table: the header, the foundations (and stock), the columns (or waste piles), the
message line and the footer of keys.

The board draws the app's state and nothing else: it watches the app's reactive attributes
(the position, the selection, the cursor, the hint, the message), and any change of them
redraws it. Pile widgets repaint only when what they show changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Static

from ..game import State
from ..moves import Move
from ..variants import Variant
from .drawing import FELT, PileModel, PileView
from .keys import BOARD_BINDINGS, prompt
from .places import PileRef, Selection, foundation_count, movable, pile_of
from .words import clock, glyph, pile_label

if TYPE_CHECKING:
    from .app import ThirteenApp

# The app's attributes the board draws: a change of any of them redraws it.
DRAWN = ("position", "selection", "cursor", "hint_move", "message", "message_kind")


def pile_models(variant: Variant, state: State, selection: Selection | None,
                hint: Move | None, cursor: PileRef) -> dict[PileRef, PileModel]:
    """What every pile shows: its cards as the player sees them, the selection, the hint."""
    view = state.view()
    out: dict[PileRef, PileModel] = {}

    def add(ref: PileRef, cards: list[str | None], only_top: bool = False,
            notes: list[str] | None = None, spread: bool = False) -> None:
        label, mark = pile_label(variant, ref)
        out[ref] = PileModel(label, cards, empty_mark=mark, notes=notes or [],
                             only_top=only_top, spread=spread)

    if view["family"] == "packer":
        for c, col in enumerate(view["columns"]):
            add(PileRef("col", c), list(col))
        for p, pile in enumerate(view["foundations"]):
            add(PileRef("found", p), list(pile["cards"]), only_top=True)
    else:
        left, top = view["stock_left"], view["stock_top"]
        add(PileRef("stock"), [top] if top else [], only_top=True,
            notes=[f"{left - 1 if top else 0} more"])
        for p, pile in enumerate(view["foundations"]):
            needs = pile["needs"]
            add(PileRef("found", p), list(pile["cards"]), only_top=True,
                notes=[f"→ {needs}" if needs else "done"])
        for w, pile in enumerate(view["waste"]):
            add(PileRef("waste", w), list(pile), spread=True)
    tallest = max((len(m.cards) for m in out.values() if not m.only_top), default=0)
    for ref, model in out.items():
        model.tallest = tallest
        model.cursor = ref == cursor
        if selection is not None and selection.ref == ref:
            model.selected = max(selection.count or movable(state, ref), 1)
    if hint is not None:
        src, dst = pile_of(state, hint.source), pile_of(state, hint.target, hint.source)
        if src in out:
            out[src].hint = hint.count
        if dst in out:
            out[dst].hint_target = True
    return out


@dataclass(frozen=True)
class Header:
    """What the header line tells: the game, the deal, the moves, the time, the record."""

    title: str
    number: int | None
    moves: int
    seconds: float | None  # None: no clock
    played: int
    won: int
    win_rate: float
    streak: int

    def texts(self) -> Iterator[Text]:
        """The header from the fullest to the shortest, for the widest one that fits."""
        deal = f"deal {self.number}" if self.number is not None else "typed deal"
        game = [deal, f"moves {self.moves}"]
        if self.seconds is not None:
            game.append(clock(self.seconds))
        played, streak = f"played {self.played} won {self.won}", f" streak {self.streak}"
        rate = [f" ({self.win_rate:.0%})"] if self.played else []
        tally = f"won {self.won}/{self.played}"
        records = [[played, *rate, streak], [tally, streak], [tally], []]
        short = f"#{self.number}" if self.number is not None else "typed"
        for sep, parts in (("  ", game), (" ", [short, *game[1:]])):
            for record in records:
                text = Text().append(self.title, style="bold")
                for part in parts:
                    text.append(sep + part)
                for i, part in enumerate(record):
                    text.append(sep + " " + part if i == 0 else part, style="#c8e6c9")
                yield text


class StatusLine(Widget):
    """The header: as much of `Header` as the width shows, the least needed parts left out
    first (the streak, the win rate, then the record)."""

    DEFAULT_CSS = """
    StatusLine { height: 1; background: #0c3b22; color: #ffffff; padding: 0 1; }
    """

    header: reactive[Header | None] = reactive(None)

    def render(self) -> Text:
        if self.header is None:
            return Text()
        width = self.size.width
        shortest = Text()
        for text in self.header.texts():
            shortest = text
            if text.cell_len <= width:
                return text
        shortest.truncate(width, overflow="ellipsis")
        return shortest


class BoardScreen(Screen[None]):
    """The table: status line, foundations (and stock), columns (or waste piles), messages."""

    BINDINGS: ClassVar[list[BindingType]] = BOARD_BINDINGS

    DEFAULT_CSS = f"""
    BoardScreen {{ background: {FELT}; layers: base; }}
    #top {{ height: 3; margin: 1 0 0 0; }}
    #top.calculation {{ height: 4; }}
    #markers {{ height: auto; color: #e8f5e9; padding: 0 1; }}
    #top-spacer {{ width: 1fr; }}
    #top.packer, #piles.packer {{ layout: grid; grid-gutter: 0; }}
    #top.calculation PileView {{ width: 1fr; max-width: 12; }}
    #piles {{ height: 1fr; margin: 1 0 0 0; }}
    #piles.calculation {{ align-horizontal: center; }}
    #piles.calculation PileView {{ max-width: 18; }}
    #message {{ height: auto; max-height: 3; background: #0c3b22; color: #ffffff;
               padding: 0 1; }}
    #message.error {{ color: #ffab91; text-style: bold; }}
    #message.good {{ color: #b9f6ca; text-style: bold; }}
    """

    @property
    def thirteen(self) -> ThirteenApp:
        from .app import ThirteenApp

        assert isinstance(self.app, ThirteenApp)
        return self.app

    def compose(self) -> ComposeResult:
        v = self.thirteen.variant
        calc = v.family == "calculation"
        yield StatusLine(id="status")
        with Horizontal(id="top", classes="calculation" if calc else "packer"):
            if calc:
                yield PileView(PileRef("stock"), id="stock")
            for p in range(foundation_count(v)):
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
        app = self.thirteen
        for name in DRAWN:
            self.watch(app, name, self.draw, init=False)
        self.draw()
        if app.game.status() == "lost":  # resumed a game that was already stuck
            app.show_end("lost")
        if app.show_clock:
            self.set_interval(1.0, self._tick)
        if app.variant.family == "packer":  # foundations as wide as the columns below them
            columns = app.variant.columns
            for grid in self.query("#top, #piles"):
                grid.styles.grid_size_columns = columns
            spacer = self.query_one("#top-spacer")
            spacer.styles.column_span = columns - foundation_count(app.variant)

    def draw(self) -> None:
        """Show the app's state: the piles, the header, the message, the markers."""
        app = self.thirteen
        state = app.game.state
        models = pile_models(app.variant, state, app.selection, app.hint_move, app.cursor)
        for view in self.query(PileView):
            if view.ref in models:
                view.model = models[view.ref]
        self.query_one(StatusLine).header = app.header()
        msg = self.query_one("#message", Static)
        msg.update(app.message or prompt(app.variant))
        msg.set_classes(app.message_kind)
        if app.variant.markers:
            self.query_one("#markers", Static).update(
                "markers " + " ".join(glyph(m) for m in state.view()["markers"])
                + "  (foundation n is built by n, from twice n)")

    def _tick(self) -> None:
        """The clock runs while the game is in play."""
        app, status = self.thirteen, self.query_one(StatusLine)
        if status.header is not None and app.game.status() == "in play":
            status.header = replace(status.header, seconds=app.elapsed())

    def on_key(self, event: events.Key) -> None:
        if event.character and self.thirteen.pile_key(event.character):
            event.stop()
            event.prevent_default()

    @on(PileView.Clicked)
    def clicked(self, event: PileView.Clicked) -> None:
        self.thirteen.click(event.ref, event.count)
