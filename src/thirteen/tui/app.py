"""The terminal app: one game of the registry, played full screen.

The app holds the game (through its `Session`), the selection, the cursor, the hint and the
message as reactive attributes; the board (`board.BoardScreen`) watches them, so changing one
redraws what shows it. The app asks the engine every legality question and saves the game to
the shared SQLite `Store` after every move, so a killed app resumes where it stopped and the
statistics are the ones the web server shows. Starting, resuming, timing, leaving and help (a
game Solve played in is assisted) are `thirteen.session`'s, as in every front end. The solver
runs in worker threads: hints, "solve it for me" and the check that a winning line remains.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from rich.text import Text
from textual.app import App
from textual.binding import Binding, BindingType
from textual.reactive import var

from .. import solver
from ..game import Game, State
from ..moves import Move, MoveError
from ..rules import describe
from ..session import CONFIRM_LEAVE, Changed, auto_finish, choose_deal, new_session, open_session
from ..store import Store
from ..variants import GAMES, get_variant
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

HINT_SECONDS = 5.0  # the solver's budget for a hint
SOLVE_SECONDS = 10.0  # and for "solve it for me"
CHECK_SECONDS, CHECK_NODES = 1.0, 200_000  # and for the check after each move

Answer = TypeVar("Answer")  # what a question to the solver returns (`_ask_solver`)


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
        self._ended: EndKind | None = None
        self._stats: dict[str, Any] | None = None
        self._checking = self._check_again = False
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
        self._stats = None
        self.session = new_session(self.store, PLAYER, self.variant, number)
        self._ended = None
        self.selection, self.hint_move = None, None
        self.say(f"Deal {self.game.number}. " + prompt(self.variant))
        self.position = self.game.state

    def say(self, text: str, kind: str = "") -> None:
        self.message_kind, self.message = kind, text[:1].upper() + text[1:]

    def after_change(self) -> None:
        """The game changed: save it, show it, and end it or check it."""
        self.hint_move = None
        status = self.game.status()
        self.session.commit()  # a win is counted there, once
        if status == "won" and self._ended != "won":
            self._ended = "won"
            self._stats = None
            self.position = self.game.state
            self.show_end("won")
            return
        if status == "lost":
            self._ended = "lost"
            self.position = self.game.state
            self.show_end("lost")
            return
        self._ended = None
        self.position = self.game.state
        self._check_line()

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
        """Quit; the game in progress is saved (it was after every move; this keeps the time)."""
        if self.game.status() == "in play":
            self.session.commit()
        self.exit()

    def on_mount(self) -> None:
        self.push_screen(BoardScreen())

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
        if self._ended == "won":
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
            self.say(f"{pile_name(ref)} is empty", "error")
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
            self.say(f"{pile_name(b)} takes no cards", "error")
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
        if self._ended == "won":
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
                self._confirm_then(lambda: self._find_deal(answer))

        self.push_screen(DealScreen(), chosen)

    def _find_deal(self, wanted: solver.Wanted) -> None:
        """Let the solver draw deals until it rates one ``wanted`` (in the background: a hard
        deal can take seconds), then deal it."""
        self.say(f"Looking for {'an' if wanted == 'easy' else 'a'} {wanted} deal...")

        def work() -> None:
            try:
                number, message = choose_deal(self.variant, None, wanted)
            except ValueError as e:  # this game's deals are not rated
                self.call_from_thread(self.say, f"{e}.", "error")
                return
            except Exception as e:  # a failing solver must not end the session: a message
                self.call_from_thread(self.say, f"The solver failed ({e}).", "error")
                return
            self.call_from_thread(self._found_deal, number, message)

        self.run_worker(work, thread=True, exclusive=True, group="find")

    def _found_deal(self, number: int, message: str) -> None:
        self.start(number)
        self.say(f"Deal {number}. {message}")

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

    def action_help(self) -> None:
        text = Text(describe(self.variant))
        text.append_text(Text.from_markup(help_keys(self.variant)))
        self.push_screen(HelpScreen(text))

    # ---- the solver --------------------------------------------------------------------------
    def action_hint(self) -> None:
        self.selection = None
        if self.game.status() != "in play":
            self.say("The game is over: nothing to hint.")
            return
        if not self.use_solver:
            self._show_hint(fallback_hint(self.game), "")
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
            return
        self.say(f"Solve {answer.message}.")
        self._stats = None
        self.after_change()

    def _hopeless(self, detail: str) -> None:
        """The solver proved that no winning line remains: say so and offer the end screen."""
        self.say(solver.NO_LINE, "error")
        self.show_end("hopeless", detail)

    def _solver_failed(self, why: str) -> None:
        self._show_hint(fallback_hint(self.game), f"(solver failed: {why}) ")

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

    def _show_hint(self, move: Move | None, prefix: str, message: str = "") -> None:
        if move is None:
            self.say(prefix + "No hint: no legal move.", "error")
            return
        self.hint_move = move
        extra = f" — {message}" if message else ""
        self.say(f"{prefix}Hint: {move_words(self.game.state, move)}{extra}", "good")


def fallback_hint(game: Game) -> Move | None:
    """A hint without the solver: a safe move, else a move home, else any legal move."""
    safe = game.state.safe_moves()
    if safe:
        return safe[0]
    legal = game.legal_moves()
    home = [m for m in legal if m.target.kind in FOUNDATION_KINDS]
    choices = home or legal
    return choices[0] if choices else None


def run_app(game_name: str, number: int | None, db: str | None = None,
            game: Game | None = None) -> int:
    """Play ``game_name`` (deal ``number``, or resume / a random deal) full screen; ``game``
    plays a given game instead (a typed-in board, or a game with options). The exit code: 1
    if the app failed, so that the shell sees it."""
    app = ThirteenApp(game_name, number, db, game=game)
    app.run()
    return app.return_code or 0
