"""Cards and piles drawn in a terminal: the colours, a card's text, and the pile widget.

A `PileView` draws a `PileModel` and nothing else, so that every question about the game is
answered before drawing (by the board, from `State.view`): hidden cards arrive as None and are
drawn as card backs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from .places import PileRef
from .words import card_face

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


@dataclass
class PileModel:
    """Everything a `PileView` draws, computed from `State.view` by the board."""

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

    def background(self, k: int) -> str:
        """The background of card ``k`` (from the bottom): selected, hinted or plain."""
        from_top = len(self.cards) - k
        if from_top <= self.selected:
            return SELECTED_BG
        if from_top <= self.hint:
            return HINT_BG
        return CARD_BG

    def label_line(self, width: int) -> Text:
        """The pile's name, marked when the cursor is on it or it is selected or hinted."""
        style = "bold #ffffff"
        if self.cursor:
            style = "bold #000000 on #e8e8e8"
        if self.selected:
            style = f"bold #000000 on {SELECTED_BG}"
        elif self.hint_target:
            style = f"bold #000000 on {HINT_BG}"
        label = f" {self.label} " if len(self.label) + 2 <= width else self.label[:width]
        line = Text(" " * ((width - len(label)) // 2))
        line.append(label, style=style)
        if self.cursor and len(line) < width:
            line.append("◂", style="bold #ffffff")
        return line


# A line of a pile's body, and how many cards a click on it takes (None: not a card).
BodyLine = tuple[Text, int | None]


def spread_lines(m: PileModel, width: int, room: int) -> tuple[list[BodyLine], int]:
    """A tall waste pile in side-by-side runs, read down then right; the top card last.
    Also the left margin that centres the runs."""
    cell, n = 4, len(m.cards)
    per = min(-(-n // room), max(width // cell, 1))
    rows = -(-n // per)
    body: list[BodyLine] = []
    first = 0
    if rows > room:  # still too tall: keep the top cards
        first = n - (room - 1) * per
        body.append((Text(f"⋮+{first}".center(per * cell), style=EMPTY), None))
        rows = room - 1
    for r in range(rows):
        line = Text()
        for j in range(per):
            k = first + j * rows + r
            if k >= n:
                break
            rank, suit, red = card_face(m.cards[k] or "AS")
            line.append(Text((rank + suit).rjust(3), style=_card_style(red, m.background(k))))
            line.append(" ")
        body.append((line, None))
    return body, (width - per * cell) // 2


def stacked_lines(m: PileModel, cw: int, room: int) -> list[BodyLine]:
    """A pile one card a line, bottom first; the top card taller and rules between cards
    where there is room, and only the top cards where there is too little."""
    n = len(m.cards)
    first = n - (1 if m.only_top else n)
    body: list[BodyLine] = []
    if n - first > room > 1:  # too tall: keep the top cards
        skipped = n - first - room + 1
        body.append((Text(f"⋮+{skipped}".center(cw), style=EMPTY), None))
        first += skipped
    tallest = max(n - first, m.tallest)
    top = m.cards[-1]
    boxed = not m.only_top and tallest + 2 <= room and top is not None
    gap = not m.only_top and 2 * tallest + 3 <= room
    for k in range(first, n):
        text, bg = m.cards[k], m.background(k)
        if k == n - 1 and boxed and text is not None:
            box = card_box(text, cw, bg)
            if gap:
                box.insert(2, Text(" " * cw, style=f"on {bg}"))
            body.extend((strip, 1) for strip in box)
            continue
        body.append((card_strip(text, cw, bg), n - k))
        if gap:
            style = f"#c9c6b8 on {bg}" if text is not None else BACK_RULE
            body.append((Text("─" * cw, style=style), n - k))
    return body


class PileView(Widget):
    """One pile; clicking it (or one of its cards) posts `PileView.Clicked`. Setting its
    ``model`` redraws it when the model changed."""

    DEFAULT_CSS = """
    PileView { width: 1fr; height: 1fr; }
    """

    model: reactive[PileModel] = reactive(lambda: PileModel(""))

    class Clicked(Message):
        def __init__(self, ref: PileRef, count: int | None) -> None:
            super().__init__()
            self.ref = ref
            self.count = count

    def __init__(self, ref: PileRef, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ref = ref
        self._line_counts: list[int | None] = []  # per line: cards from there to the top

    def render(self) -> Text:
        m = self.model
        width, height = max(self.size.width, 3), max(self.size.height, 1)
        cw = 7 if width >= 9 else min(5, width)
        room = height - 1 - len(m.notes)
        margin = (width - cw) // 2
        if not m.cards:
            body: list[BodyLine] = [(empty_slot(cw, m.empty_mark), None)]
        elif m.spread and len(m.cards) > room > 0:
            body, margin = spread_lines(m, width, room)
        else:
            body = stacked_lines(m, cw, room)
        lines = [m.label_line(width)]
        counts: list[int | None] = [None]
        for text_line, count in body[: max(room, 1)]:
            lines.append(Text(" " * margin).append_text(text_line))
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
