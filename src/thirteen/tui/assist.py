"""The solver's help in the terminal: hints, "solve it for me", the check that a winning line
remains, and deals of a wanted difficulty.

Each question runs in a worker thread (one at a time of each kind) so that the board answers
keys meanwhile; an answer about a position the game has left is dropped. A failing solver is
a message, never the end of the session.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from .. import solver
from ..game import Game, State
from ..moves import Move
from ..session import Changed, PlayedElsewhere, choose_deal
from ..verdicts import Known, Verdicts
from .places import FOUNDATION_KINDS
from .words import move_words

if TYPE_CHECKING:
    from .app import ThirteenApp

HINT_SECONDS = 5.0  # the solver's budget for a hint
SOLVE_SECONDS = 10.0  # and for "solve it for me"
CHECK_SECONDS, CHECK_NODES = 1.0, 200_000  # and for the check after each move

Answer = TypeVar("Answer")  # what a question to the solver returns (`Assistant._ask`)


def fallback_hint(game: Game) -> Move | None:
    """A hint without the solver: a safe move, else a move home, else any legal move."""
    safe = game.state.safe_moves()
    if safe:
        return safe[0]
    legal = game.legal_moves()
    home = [m for m in legal if m.target.kind in FOUNDATION_KINDS]
    choices = home or legal
    return choices[0] if choices else None


class Assistant:
    """Asks the solver on behalf of ``app`` and shows its answers there."""

    def __init__(self, app: ThirteenApp) -> None:
        self.app = app
        self._checking = self._check_again = False
        self.verdicts = Verdicts()  # what the searches found: most checks and hints need none

    def hint(self) -> None:
        app = self.app
        if app.game.status() != "in play":
            app.say("The game is over: nothing to hint.")
            return
        if not app.use_solver:
            self._show_hint(fallback_hint(app.game), "")
            return
        state, seen = app.session.position()
        known = self.verdicts.hint(state, seen)
        if known is not None:
            self.hint_answer(known, len(app.game.moves))
            return
        budget = solver.Budget(max_seconds=HINT_SECONDS)

        def answer(result: solver.Hint, moves_then: int) -> None:
            if result.line and not state.hides_cards:
                self.verdicts.put(state, Known("solved", result.line))
            self.hint_answer(result, moves_then)

        self._ask("Thinking...", lambda state, seen: solver.hint(state, budget, seen),
                  answer, self._hint_failed)

    def _ask(self, busy: str, ask: Callable[[State, tuple[State, ...]], Answer],
             answer: Callable[[Answer, int], None], failed: Callable[[str], None]) -> None:
        """Say ``busy`` and run ``ask`` on the session's position (and the positions the game
        has been in) in a worker thread (one at a time); then ``answer`` gets its result and
        the move count it was asked at (the position may have changed meanwhile). A failing
        solver goes to ``failed``: it must not end the game."""
        app = self.app
        app.say(busy)
        state, seen = app.session.position()
        moves_then = len(app.game.moves)

        def work() -> None:
            try:
                result = ask(state, seen)
            except Exception as e:
                app.call_from_thread(failed, str(e))
                return
            app.call_from_thread(answer, result, moves_then)

        app.run_worker(work, thread=True, exclusive=True, group="hint")

    def solve(self) -> None:
        """Solve it for me: the solver's winning line, played to the end (undo takes it back
        move by move); where cards are hidden, the fair player's moves. The game counts as
        assisted."""
        app = self.app
        if app.game.status() != "in play" or not app.use_solver:
            app.say("The game is over: nothing to solve." if app.game.status() != "in play"
                    else "The solver is off.")
            return
        budget = solver.Budget(max_seconds=SOLVE_SECONDS)
        asked = app.game.state

        def solved(answer: solver.Played, moves_then: int) -> None:
            self._solved(asked, answer)

        self._ask("Solving...", lambda state, seen: solver.solve_for_me(state, budget, seen),
                  solved, lambda why: app.say(f"The solver failed: {why}", "error"))

    def _solved(self, asked: State, answer: solver.Played) -> None:
        app = self.app
        if answer.verdict == "unsolvable":
            self._hopeless(solver.DEAD_END)
            return
        try:
            played = app.session.take_solve(asked, answer)
        except PlayedElsewhere as e:
            app.caught_up(e)
            return
        except Changed:
            return  # the position changed meanwhile
        if not played:
            app.say(answer.message, "error")
            return
        app.say(f"Solve {answer.message}.")
        app.forget_stats()
        app.after_change()

    def _hopeless(self, detail: str) -> None:
        """The solver proved that no winning line remains: say so and offer the end screen."""
        self.app.say(solver.NO_LINE, "error")
        self.app.show_end("hopeless", detail)

    def _hint_failed(self, why: str) -> None:
        self._show_hint(fallback_hint(self.app.game), f"(solver failed: {why}) ")

    def hint_answer(self, result: solver.Hint, moves_then: int) -> None:
        """Show the solver's hint, asked ``moves_then`` moves into the game."""
        app = self.app
        if len(app.game.moves) != moves_then:
            return  # the position changed meanwhile
        move, message = result.move, result.message
        if result.verdict == "unsolvable":
            self._hopeless(message)
            return
        if move is not None:
            app.session.take_hint()
            app.forget_stats()
            self._show_hint(move, "", message.removeprefix(f"{move}: "))
        else:  # every move leads back to a position already played
            app.say(message + ".", "error")

    def _show_hint(self, move: Move | None, prefix: str, message: str = "") -> None:
        app = self.app
        if move is None:
            app.say(prefix + "No hint: no legal move.", "error")
            return
        app.hint_move = move
        extra = f" — {message}" if message else ""
        app.say(f"{prefix}Hint: {move_words(app.game.state, move)}{extra}", "good")

    def check(self) -> None:
        """Say whether a winning line remains: from what is known of the game's earlier
        positions (`verdicts`) at once, else by a search in the background; only where every
        card is in sight, so that the answer gives nothing hidden away."""
        app = self.app
        state = app.game.state
        if state.hides_cards or not app.use_solver:
            return
        known = self.verdicts.infer(app.game.positions, app.game.moves)
        if known is not None:
            self._check_again = False  # a search in flight is for a position left behind
            self._tell(known.verdict)
            return
        if self._checking:  # one search at a time; the latest position is checked next
            self._check_again = True
            return
        self._checking, self._check_again = True, False
        moves_then = len(app.game.moves)

        def work() -> None:
            known = None
            try:
                budget = solver.Budget(max_seconds=CHECK_SECONDS, max_nodes=CHECK_NODES)
                result = solver.solve(state, budget)
                known = Known(result.verdict, result.moves)
            except Exception:  # a failing check is no answer, and no message
                pass
            app.call_from_thread(self.line_checked, state, known, moves_then)

        app.run_worker(work, thread=True, group="check")

    def line_checked(self, state: State, known: Known | None, moves_then: int) -> None:
        """The check's answer (None if it failed) on ``state``, ``moves_then`` moves into the
        game: kept for the positions that follow, and said if the game is still there."""
        self._checking = False
        if known is not None:
            self.verdicts.put(state, known)
        if self._check_again:
            self.check()
            return
        if known is not None and len(self.app.game.moves) == moves_then:
            self._tell(known.verdict)

    def _tell(self, verdict: str) -> None:
        app = self.app
        if verdict == "unsolvable" and not app.ended:
            app.say("No winning line remains from here: undo (u) or deal again (n).", "error")

    def find_deal(self, wanted: solver.Wanted) -> None:
        """Let the solver draw deals until it rates one ``wanted`` (in the background: a hard
        deal can take seconds), then deal it."""
        app = self.app
        app.say(f"Looking for {'an' if wanted == 'easy' else 'a'} {wanted} deal...")

        def work() -> None:
            try:
                number, message = choose_deal(app.variant, None, wanted)
            except ValueError as e:  # this game's deals are not rated
                app.call_from_thread(app.say, f"{e}.", "error")
                return
            except Exception as e:  # a failing solver must not end the session: a message
                app.call_from_thread(app.say, f"The solver failed ({e}).", "error")
                return
            app.call_from_thread(self._found_deal, number, message)

        app.run_worker(work, thread=True, exclusive=True, group="find")

    def _found_deal(self, number: int, message: str) -> None:
        self.app.start(number)
        self.app.say(f"Deal {number}. {message}")
