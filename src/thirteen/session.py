"""One game's lifecycle, the same in every front end: the page (`web.app`), the terminal app
(`tui`) and plain ``thirteen play`` (`cli`) all start, resume, time, help and leave a game
here, so none of them decides any of it on its own.

- **Starting**: a numbered deal, a typed-in game, a random deal (`random_number`: one range
  for every front end) or a deal of a difficulty (`choose_deal`: graded in the survey data, or
  rated by the solver where there are none); a game whose cards are partly hidden is never
  rated, since the rating would be a verdict on the hidden cards.
- **Resuming**: `Session.resume` finds the player's unfinished game of a deal (or of a game).
- **Timing**: play time grows at each action by the time since the last one, at most
  `IDLE_CAP`, so a game left open overnight is not a slow game; it stops once the game is over.
  A sitting's end (`Session.close`: the terminal app quits or its terminal closes, the page
  is left) stops it: opened again, the game's clock starts at the opening. Only a sitting
  that ended without a word (a killed process) counts the pause after it, up to `IDLE_CAP`,
  since nothing said it ended.
- **Help**: "solve it for me" makes the game *assisted* for good (`Session.take_solve`), hints
  are counted (`Session.take_hint`); the store counts an assisted win apart from a clean one.
- **Leaving**: a new deal leaves the current game; it counts as lost only if a move was made,
  and only once the player confirmed (`Session.must_confirm`); else it stays unfinished.

Questions to the solver (hints, solve it for me) are asked of `Session.position` in a front
end's worker thread; their answers are taken back here on the front end's own thread.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, fields
from typing import Any, Self

from . import grades
from .deal import random_number
from .game import Game, State
from .moves import Move, MoveError
from .solver import Played, Wanted, find_deal, found_message
from .store import Stale, Store
from .variants import Variant

#: Seconds: a longer pause between two actions counts as this much play.
IDLE_CAP = 300.0

CONFIRM_LEAVE = "Leave this game? It counts as lost in your statistics."
NO_RATING = ("{title} hides cards from the player, so its deals are not rated: a rating "
             "would tell about the hidden cards")
EMPTY_STATS: dict[str, Any] = {
    "played": 0, "won": 0, "assisted": 0, "lost": 0, "hints": 0, "win_rate": 0.0,
    "current_streak": 0, "best_streak": 0, "best_time": None, "fewest_moves": None,
}


class Changed(MoveError):
    """The game moved on while the solver thought: its answer is for another position."""


class PlayedElsewhere(Changed):
    """Another process (a second terminal, another server) played this game on since this
    one read it: the change was not saved, and the session now holds the game as stored."""


PLAYED_ELSEWHERE = "this game was played on elsewhere since it was read: nothing was done"


def choose_deal(variant: Variant, number: int | None = None,
                wanted: Wanted | None = None) -> tuple[int, str]:
    """The deal to play and what to tell the player about it: ``number`` if given, else a
    random deal, of the ``wanted`` kind if asked (`ValueError` for a game that hides cards):
    drawn from the survey data's graded deals where the data have this game and options
    (`grades`), else found by searching random deals."""
    if number is not None:
        return number, ""
    if wanted is None:
        return random_number(), ""
    if variant.hidden_information:
        raise ValueError(NO_RATING.format(title=variant.title))
    served = grades.serve(variant, wanted)  # at once, where the survey data grade the game
    if served is not None:
        return served
    found, rated = find_deal(variant, wanted, random_number)
    return found, found_message(wanted, rated)


def new_session(store: Store | None, player: str, variant: Variant,
                number: int | None = None) -> Session:
    """A new game of deal ``number`` (None: a random deal), saved at once."""
    chosen, _ = choose_deal(variant, number)
    return Session.start(store, player, Game.new(variant, chosen))


def open_session(store: Store | None, player: str, variant: Variant, number: int | None = None,
                 game: Game | None = None) -> tuple[Session, str]:
    """The game a front end opens, and what to tell the player: ``game`` if given (a typed-in
    deal), else the player's unfinished game of deal ``number`` (None: their latest of this
    game), else a new deal."""
    if game is not None:
        return Session.start(store, player, game), ""
    found = None if store is None else Session.resume(store, player, variant, number)
    if found is None or found.status() == "won":
        return new_session(store, player, variant, number), ""
    moves = len(found.game.moves)
    return found, f"Resumed deal {found.game.number} after {moves} moves." if moves else ""


def auto_finish(game: Game) -> list[Move]:
    """Finish the game if moves to the foundations alone win it, else play the provably safe
    moves home; returns what was played. Whether moves home alone win is asked only where
    nothing is hidden: finding out plays ahead, turning hidden cards."""
    played: list[Move] = []
    while True:
        state, line = game.state, []
        while not state.hides_cards and not state.won:
            home = [m for m in state.legal_moves() if m.target.kind in ("f", "fa", "fk")]
            if not home:
                break
            line.append(home[0])
            state = state.apply(home[0])
        if state.won and line:
            game.push_line(line)
            return played + line
        safe = game.state.safe_moves()
        if not safe:
            return played
        game.push(safe[0])  # a face-down card it uncovers turns, as in play
        played.append(safe[0])


@dataclass
class Session:
    """A game being played by ``player``, in step with its row ``id`` (``version``) in the
    store (None: a game kept in memory only, as plain play without a database keeps it)."""

    store: Store | None
    player: str
    game: Game
    id: int | None = None
    version: int = 0
    elapsed: float = 0.0
    last_active: float = field(default_factory=time.time)
    result: str | None = None  # 'won' or 'lost' once counted in the statistics
    assisted: bool = False
    hints: int = 0
    stored: list[Move] = field(default_factory=list)  # the moves in the store, as saved
    texts: list[str] = field(default_factory=list)  # the same as text

    # ---- starting and resuming --------------------------------------------------------------
    @classmethod
    def start(cls, store: Store | None, player: str, game: Game) -> Self:
        """A new game, saved at once (the player's other games are left as they are)."""
        s = cls(store, player, game)
        if store is not None:
            s.id, s.version = store.save(player, game)
        s.stored, s.texts = list(game.moves), [str(m) for m in game.moves]
        return s

    @classmethod
    def load(cls, store: Store, player: str, game_id: int) -> Self:
        """The game as saved (`KeyError` if not the player's, `ValueError` if it does not
        replay). Its clock runs from its last save, as when a server reads a game again
        between two requests of one sitting; a game whose sitting ended (`close`) is being
        opened, and its clock starts now."""
        info = store.game_info(player, game_id)
        game = store.load_game(player, game_id)
        since = time.time() if info["closed"] is not None else float(info["updated"])
        return cls(store, player, game, game_id, info["version"], float(info["elapsed"] or 0.0),
                   since, info["result"], info["assisted"], info["hints"],
                   list(game.moves), [str(m) for m in game.moves])

    @classmethod
    def resume(cls, store: Store, player: str, variant: Variant,
               number: int | None = None) -> Self | None:
        """The player's unfinished game of deal ``number`` (None: their latest of this game,
        with these options), if there is one that loads."""
        if number is not None:
            found = store.find_deal(player, variant.name, number, variant.options())
        else:
            latest = store.latest_game(player, variant.name)
            found = latest[0] if latest and latest[1].variant == variant else None
        if found is None:
            return None
        try:
            return cls.load(store, player, found)
        except (KeyError, ValueError):
            return None

    # ---- leaving ----------------------------------------------------------------------------
    def leaving(self) -> str:
        """What leaving this game means: ``ask`` (a move was made and it is in play: it would
        count as lost, so the player is asked first), ``lost`` (no move is left: it counts as
        lost, nothing to ask) or ``free`` (untouched, or already counted)."""
        if not self.game.moves or self.result is not None or self.game.state.won:
            return "free"
        return "ask" if self.game.status() == "in play" else "lost"

    def must_confirm(self) -> bool:
        return self.leaving() == "ask"

    def leave(self) -> None:
        """The player left (confirmed where `leaving` says ``ask``): count the game as lost
        unless it is ``free``, in which case it stays unfinished, its sitting ended."""
        if self.leaving() != "free":
            self._finish(False)
        else:
            self.close()

    def close(self) -> None:
        """The sitting ends (the terminal app quits, the page is left): the play time up to
        now is saved and the game marked closed, so that its clock stands still until it is
        opened again (`load`). Nothing is written if another process saved the game since
        (it has the game), or the game is over (its clock stopped)."""
        if self.result is not None or self.game.status() != "in play":
            return
        self._stamp()
        if self.store is not None and self.id is not None:
            self.store.close_game(self.player, self.id, self.elapsed, self.version)

    # ---- timing -----------------------------------------------------------------------------
    def clock(self, now: float | None = None) -> float:
        """Seconds of play to show now: the pause since the last action counts, up to
        `IDLE_CAP`, while the game is in play."""
        if self.result is not None or self.game.status() != "in play":
            return self.elapsed
        now = time.time() if now is None else now
        return self.elapsed + max(0.0, min(now - self.last_active, IDLE_CAP))

    def status(self) -> str:
        return self.game.status()

    # ---- saving -----------------------------------------------------------------------------
    def _stamp(self) -> None:
        """Take the play time up to now into ``elapsed``."""
        self.elapsed, self.last_active = self.clock(), time.time()

    def commit(self) -> None:
        """Save the game (before any answer is sent) with its play time; count a win once."""
        self._stamp()
        if self.store is None:
            self.stored = list(self.game.moves)
            return
        game = self.game
        same, limit = 0, min(len(self.stored), len(game.moves))
        while same < limit and self.stored[same] == game.moves[same]:
            same += 1
        texts = self.texts[:same] + [str(m) for m in game.moves[same:]]
        try:
            self.id, self.version = self.store.save(
                self.player, game, self.id, elapsed=self.elapsed, moves=texts,
                stored=self.texts if self.id else None,
                version=self.version if self.id is not None else None)
        except Stale:
            self._catch_up()
            raise PlayedElsewhere(PLAYED_ELSEWHERE) from None
        self.stored, self.texts = list(game.moves), texts
        if self.result is None and game.state.won:
            self._finish(True)

    def _catch_up(self) -> None:
        """Take the game as stored, in place (front ends hold on to their session). A stored
        game that cannot be read (a damaged database) is not taken: the session goes back to
        the moves it last saved, and says why."""
        assert self.store is not None and self.id is not None
        try:
            stored = Session.load(self.store, self.player, self.id)
        except (KeyError, ValueError) as e:
            self.game = Game.from_dict({**self.game.to_dict(), "moves": self.texts, "redo": []})
            raise PlayedElsewhere(f"{PLAYED_ELSEWHERE}, and the game as stored cannot be read "
                                  f"({e})") from None
        for f in fields(Session):
            setattr(self, f.name, getattr(stored, f.name))

    def _finish(self, won: bool) -> None:
        if self.store is not None and self.id is not None:
            self.store.finish_game(self.player, self.id, won, self.elapsed, len(self.game.moves))
        self.result = "won" if won else "lost"

    def stats(self) -> dict[str, Any]:
        """The player's statistics of this game (clean and assisted wins apart)."""
        if self.store is None:
            return dict(EMPTY_STATS)
        return self.store.stats(self.player, self.game.variant.name)

    # ---- help -------------------------------------------------------------------------------
    def position(self) -> tuple[State, tuple[State, ...]]:
        """What a question to the solver is about: the position and the positions the game has
        been in (which hints steer away from)."""
        return self.game.state, self.game.positions

    def take_hint(self) -> None:
        """Count a hint given in this game."""
        self.hints += 1
        if self.store is not None and self.id is not None:
            self.store.note_help(self.player, self.id, hint=True)

    def take_solve(self, asked: State, played: Played) -> list[Move]:
        """Play what "solve it for me" answered for position ``asked`` (`Changed` if the game
        is elsewhere now): the game is assisted from here on, even if the moves are taken
        back. Returns the moves played (none when the solver refused)."""
        if self.game.state != asked:
            raise Changed("the game changed while the solver worked")
        if not played.moves:
            return []
        self.assisted = True
        if self.store is not None and self.id is not None:
            self.store.note_help(self.player, self.id, solved=True)
        self.game.push_line(played.moves)
        self.commit()
        return list(played.moves)
