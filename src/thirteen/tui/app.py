"""The terminal app: one game of the registry, played full screen.

The app holds the game (through its `Session`), the selection, the cursor, the hint and the
message as reactive attributes; the board (`board.BoardScreen`) watches them, so changing one
redraws what shows it. The app asks the engine every legality question and saves the game to
the shared SQLite `Store` after every move, so a killed app resumes where it stopped and the
statistics are the ones the web server shows. Starting, resuming, timing, leaving and help (a
game Solve played in is assisted) are `thirteen.session`'s, as in every front end; the
solver's help (hints, "solve it for me", the check that a winning line remains, deals of a
wanted difficulty) is the `assist.Assistant`'s.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App
from textual.binding import Binding, BindingType
from textual.reactive import var

from .. import solver
from ..game import Game, State
from ..moves import Move, MoveError
from ..rules import describe
from ..session import CONFIRM_LEAVE, PlayedElsewhere, auto_finish, new_session, open_session
from ..store import Store
from ..variants import GAMES, get_variant
from .assist import Assistant
from .board import BoardScreen, Header
from .dialogs import (
    ConfirmScreen,
    DealScreen,
    EndKind,
    EndScreen,
    HelpScreen,
    StatsScreen,
    end_text,
    stats_cells,
)
from .keys import help_keys, prompt
from .places import (
    FOUNDATION_KINDS,
    PileRef,
    Selection,
    groups,
    movable,
    pile_for_key,
    source_place,
    target_place,
    view_cards,
)
from .words import glyphs, move_words, pile_name, top_words

PLAYER = "local"


class ThirteenApp(App[None]):
    """Play one game of the registry; deals, statistics and the game in progress live in the
    shared `Store` under the player ``"local"``."""

    TITLE = "thirteen"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+c", "quit", "Quit", show=False)]

    # What the board draws (`board.DRAWN`); ``position`` is set after every change of the
    # game, even to an equal position (a new deal of the same number changes the record).
    position: var[State | None] = var(None, always_update=True)
    selection: var[Selection | None] = var(None)
    cursor: var[PileRef] = var(PileRef("stock"))
    hint_move: var[Move | None] = var(None)
    message: var[str] = var("")
    message_kind: var[str] = var("")

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
        if self.variant.family == "packer":
            self.cursor = PileRef("col", 0)
        self.ended: EndKind | None = None  # the end screen was shown for this position
        self._stats: dict[str, Any] | None = None
        self.assistant = Assistant(self)
        self.session, opened = open_session(self.store, PLAYER, self.variant, number, game)
        self.position = self.game.state
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

    def forget_stats(self) -> None:
        """A result or a hint was recorded: read the statistics again."""
        self._stats = None

    def elapsed(self) -> float:
        return self.session.clock()

    def header(self) -> Header:
        g, st = self.game, self.stats()
        return Header(self.variant.title, g.number, len(g.moves),
                      self.elapsed() if self.show_clock else None,
                      st["played"], st["won"], st["win_rate"], st["current_streak"])

    def start(self, number: int | None) -> None:
        """Leave the current game (a loss if it was played and not won: the player confirmed,
        or it was over) and deal ``number``."""
        self.session.leave()
        self.forget_stats()
        self.session = new_session(self.store, PLAYER, self.variant, number)
        self.ended = None
        self.selection, self.hint_move = None, None
        self.say(f"Deal {self.game.number}. " + prompt(self.variant))
        self.position = self.game.state

    def say(self, text: str, kind: str = "") -> None:
        self.message_kind, self.message = kind, text[:1].upper() + text[1:]

    def after_change(self) -> None:
        """The game changed: save it, show it, and end it or check it."""
        self.hint_move = None
        status = self.game.status()
        try:
            self.session.commit()  # a win is counted there, once
        except PlayedElsewhere as e:
            self.caught_up(e)
            return
        end: EndKind | None = None
        if status == "won" and self.ended != "won":
            end = "won"
            self.forget_stats()
        elif status == "lost":
            end = "lost"
        self.ended = end
        self.position = self.game.state
        if end is None:
            self.assistant.check()
        else:
            self.show_end(end)

    def caught_up(self, why: PlayedElsewhere) -> None:
        """Another process (a second terminal) played this game on: the session holds the
        game as stored now; show it."""
        self.selection, self.hint_move, self.ended = None, None, None
        self.position = self.game.state
        self.say(f"{why}. Showing where it is now.", "error")

    def show_end(self, kind: EndKind, detail: str = "") -> None:
        text = end_text(kind, self.game, self.stats(), self.elapsed(), self.session.assisted,
                        detail)
        self.push_screen(EndScreen(kind, text), self._end_choice)

    async def _end_choice(self, action: str | None) -> None:
        """Run the end screen's choice; a new deal needs no confirmation, the game is over."""
        if action == "new_deal":
            self.start(None)
        elif action is not None:
            await self.run_action(action)

    async def action_quit(self) -> None:
        """Quit; the game in progress is saved closed (it was after every move; this keeps the
        time and stops the clock until the game is opened again)."""
        self.hang_up()

    def hang_up(self) -> None:
        """Save the game closed and end: quitting, or the terminal closed (SIGHUP) or the
        process asked to stop (SIGTERM)."""
        self.session.close()
        self.exit()

    def on_mount(self) -> None:
        self.push_screen(BoardScreen())
        if not self.is_headless:  # a real terminal (a test's app leaves the signals alone)
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGHUP, signal.SIGTERM):
                loop.add_signal_handler(sig, self.hang_up)

    # ---- input -------------------------------------------------------------------------------
    def pile_key(self, char: str) -> bool:
        """Handle a pile's key; False if ``char`` names no pile."""
        ref = pile_for_key(self.variant, char)
        if ref is None:
            return False
        if ref.kind == "found" and self.selection is None:  # the turned card is the usual source
            self.selection = Selection(PileRef("stock"))
        self.cursor = ref
        self.choose(ref, None)
        return True

    def click(self, ref: PileRef, count: int | None) -> None:
        self.cursor = ref
        if self.selection is None and ref.kind == "col" and count is not None:
            if count > movable(self.game.state, ref):
                self.say("only the top card or sequence of a column moves", "error")
                return
            self.choose(ref, count)
            return
        self.choose(ref, None)

    def choose(self, ref: PileRef, count: int | None) -> None:
        """Select ``ref`` as the source, or play the selected source onto it."""
        if self.ended == "won":
            return
        self.hint_move = None
        sel = self.selection
        if sel is None:
            self._select(ref, count)
            return
        self.selection = None
        if sel.ref == ref:
            self.send_home(ref)
        else:
            self.play_between(sel.ref, ref, sel.count)

    def _select(self, ref: PileRef, count: int | None) -> None:
        if source_place(self.variant, ref) is None:
            if ref.kind == "found":
                self.say("cards never come back from the foundations in this game", "error")
            else:
                self.say("choose a card to move first", "error")
            return
        if not view_cards(self.game.state, ref):
            self.say(f"{pile_name(self.game.state, ref)} is empty", "error")
            return
        self.selection = Selection(ref, count)
        self.say(f"Move {top_words(self.game.state, ref, count)} to where? (its key again: "
                 "foundation, Esc: cancel)")

    def send_home(self, ref: PileRef) -> None:
        src = source_place(self.variant, ref)
        if src is None:
            self.say("nothing to send to a foundation", "error")
            return
        for move in self.game.legal_moves():
            if move.source == src and move.target.kind in FOUNDATION_KINDS:
                self.play(move)
                return
        self.say(f"{top_words(self.game.state, ref, 1)} cannot go to a foundation now", "error")

    def play_between(self, a: PileRef, b: PileRef, count: int | None) -> None:
        src, dst = source_place(self.variant, a), target_place(self.variant, b)
        if src is None:
            self.say("choose a card to move first", "error")
            return
        if dst is None:
            self.say(f"{pile_name(self.game.state, b)} takes no cards", "error")
            return
        fitting = [m for m in self.game.legal_moves()
                   if m.source == src and m.target == dst and (count is None or m.count == count)]
        if fitting:
            self.play(max(fitting, key=lambda m: m.count))
            return
        self.play(Move(src, dst, count or 1))  # illegal: the engine says why

    def play(self, move: Move) -> bool:
        words = move_words(self.game.state, move)
        try:
            self.game.push(move)
        except MoveError as e:
            self.say(f"Not allowed: {glyphs(str(e).split(': ', 1)[-1])}", "error")
            return False
        self.say(words)
        self.after_change()
        return True

    # ---- actions -----------------------------------------------------------------------------
    def action_cancel(self) -> None:
        self.selection, self.hint_move = None, None
        self.say("")

    def action_cursor(self, dx: int, dy: int) -> None:
        rows = groups(self.variant)
        row = next((i for i, g in enumerate(rows) if self.cursor in g), 0)
        col = rows[row].index(self.cursor) if self.cursor in rows[row] else 0
        if dy:
            row = max(0, min(len(rows) - 1, row + dy))
            col = min(col, len(rows[row]) - 1)
        else:
            col = (col + dx) % len(rows[row])
        self.cursor = rows[row][col]

    def action_pick(self) -> None:
        ref = self.cursor
        if self.selection is None and self.variant.family == "calculation" and ref.kind == "found":
            self.selection = Selection(PileRef("stock"))
        self.choose(ref, None)

    def action_home(self) -> None:
        ref = self.selection.ref if self.selection else self.cursor
        self.selection = None
        self.send_home(ref)

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
            return
        self.say(f"{done} {move}.")
        self.after_change()

    def action_restart(self) -> None:
        self.selection = None
        if not self.game.moves:
            self.say("Already at the deal.")
            return
        self.game.restart()
        self.say("Back to the deal (r redoes the moves one by one).")
        self.after_change()

    def action_auto(self) -> None:
        self.selection = None
        if self.ended == "won":
            return
        played = auto_finish(self.game)
        if not played:
            self.say("No safe move to the foundations now.")
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
                self._confirm_then(lambda: self.assistant.find_deal(answer))

        self.push_screen(DealScreen(), chosen)

    def _confirm_then(self, then: Callable[[], None]) -> None:
        """Run ``then`` (which leaves this game) once the player confirmed, where the session
        says leaving needs it. Staying is the answer of every key but ``y``."""
        if not self.session.must_confirm():
            then()
            return

        def answer(leave: bool | None) -> None:
            if leave:
                then()

        self.push_screen(ConfirmScreen(CONFIRM_LEAVE, yes="leave", no="stay"), answer)

    def action_stats(self) -> None:
        """Every game with a result, and this one, from the store's own figures."""
        figures = self.store.all_stats(PLAYER)
        figures.setdefault(self.variant.name, self.stats())
        names = sorted(figures, key=lambda n: (n != self.variant.name, n))
        rows = [stats_cells(GAMES[n].title if n in GAMES else n, figures[n]) for n in names]
        self.push_screen(StatsScreen(rows))

    def action_hint(self) -> None:
        self.selection = None
        self.assistant.hint()

    def action_solve(self) -> None:
        self.selection = None
        self.assistant.solve()

    def action_help(self) -> None:
        text = Text(describe(self.variant))
        text.append_text(Text.from_markup(help_keys(self.variant)))
        self.push_screen(HelpScreen(text))


def run_app(game_name: str, number: int | None, db: str | None = None,
            game: Game | None = None) -> int:
    """Play ``game_name`` (deal ``number``, or resume / a random deal) full screen; ``game``
    plays a given game instead (a typed-in board, or a game with options). The exit code: 1
    if the app failed, so that the shell sees it."""
    app = ThirteenApp(game_name, number, db, game=game)
    app.run()
    return app.return_code or 0
