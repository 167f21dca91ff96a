"""What the solver found about positions (`Verdicts`), kept so that most checks and hints
along a game need no search: the page and the terminal ask after every move whether a winning
line remains, and a search per move asks more of the cores than they have (the web server
keeps one for every player, the terminal one for its session).

A verdict on a position follows from what is known of an earlier position of the same game:

- after an ``unsolvable`` position every position is unsolvable (a winning line from there
  would be one from the position before, after the moves played);
- a ``solved`` position comes with its winning line: a position the player reached along that
  line is solved by the rest of it, with no search; after a move off the line, the rest of
  the line is tried with each move's cards found where they are now and the moves that no
  longer apply skipped, and it counts only if it replays through the engine to a win (a
  proof, like the solver's own lines).

Only positions that hide no card get a verdict, and only the solver's searches of such
positions (and the lines they found) put one here, so nothing kept or inferred depends on a
hidden card. Memory stays
bounded: at most `SIZE` positions (the least recently used go first) and lines of at most
`LINE` moves.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .game import State
from .moves import IllegalMove, Move, Place
from .packer import PackerState
from .solver import Hint, line_hint

SIZE = 5000  # positions kept
LINE = 500  # moves: a longer winning line is not kept (its position's verdict is)
BACK = 32  # positions of a game's line looked back over for a known one


@dataclass(frozen=True, slots=True)
class Known:
    """A verdict (``solved``, ``unsolvable`` or ``unknown``) and, when ``solved``, a winning
    line: ``line[start:]`` (positions along one line share its tuple)."""

    verdict: str
    line: tuple[Move, ...] = ()
    start: int = 0

    @property
    def rest(self) -> tuple[Move, ...]:
        return self.line[self.start:]

    def after(self, before: State, played: Sequence[Move], state: State) -> Known | None:
        """What follows for ``state``, reached by ``played`` from ``before``, the position
        this is known of; None when nothing does (a search must tell)."""
        if self.verdict == "unsolvable":
            return self
        if self.verdict != "solved":
            return None
        n = len(played)
        if tuple(played) == self.line[self.start:self.start + n]:
            return Known("solved", self.line, self.start + n)
        line = mended(before, self.rest, state)
        return None if line is None else Known("solved", line)


def mended(before: State, line: Sequence[Move], state: State) -> tuple[Move, ...] | None:
    """A winning line from ``state``, made of ``line`` (a winning line from ``before``, an
    earlier position of the game) with each move's cards found where they are now (`moved`)
    and the moves that no longer apply skipped, if it replays to a win; else None. A few
    microseconds a move."""
    kept: list[Move] = []
    for m in line:
        if state.won:
            break
        now = moved(before, m, state)
        before = before.apply(m)
        if now is None:
            continue
        try:
            state = state.apply(now)
        except IllegalMove:
            continue
        kept.append(now)
    return tuple(kept) if state.won else None


def moved(before: State, move: Move, state: State) -> Move | None:
    """``move`` of position ``before`` as the same cards moving in ``state``: in the Baker's
    Dozen family, a column is found by its cards, not its number (the player's moves may have
    moved them), None when they are not to be found; elsewhere the move itself."""
    if not isinstance(before, PackerState) or not isinstance(state, PackerState):
        return move
    src, dst, n = move.source, move.target, move.count
    if src.kind == "c":
        card = before.columns[src.index][-n]
        i = next((i for i, col in enumerate(state.columns)
                  if len(col) >= n and col[-n] == card), None)
        if i is None:
            return None
        src = Place("c", i)
    if dst.kind == "c":
        target = before.columns[dst.index]
        tops = [col[-1] if col else None for col in state.columns]
        host = target[-1] if target else None
        if host is None and tops[dst.index] is None:
            j: int | None = dst.index
        else:
            j = next((j for j, top in enumerate(tops) if top == host and j != src.index), None)
        if j is None:
            return None
        dst = Place("c", j)
    return Move(src, dst, n)


class Verdicts:
    """Known verdicts by position, shared by every game of the server; least recently used
    out first past ``size``."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self.known: OrderedDict[State, Known] = OrderedDict()

    def __len__(self) -> int:
        return len(self.known)

    def put(self, state: State, known: Known) -> Known:
        """Keep ``known`` for ``state`` (a position that hides no card); a line longer than
        `LINE` is dropped, its verdict kept."""
        if state.hides_cards:  # a caller's bug: never keep what rests on hidden cards
            raise ValueError("no verdict is kept for a position that hides cards")
        if len(known.line) > LINE:
            known = Known(known.verdict)
        self.known[state] = known
        self.known.move_to_end(state)
        while len(self.known) > self.size:
            self.known.popitem(last=False)
        return known

    def get(self, state: State) -> Known | None:
        known = None if state.hides_cards else self.known.get(state)
        if known is not None:
            self.known.move_to_end(state)
        return known

    def earlier(self, positions: Sequence[State]) -> tuple[int, Known] | None:
        """The nearest earlier position of a game's line known here (within `BACK`): how many
        moves back it is, and what is known of it."""
        for back in range(1, min(BACK, len(positions) - 1) + 1):
            known = self.known.get(positions[-1 - back])
            if known is not None:
                return back, known
        return None

    def infer(self, positions: Sequence[State], moves: Sequence[Move]) -> Known | None:
        """What is known of a game's position (``positions[-1]``, reached by ``moves``), by
        itself or from the nearest earlier position known; None when a search must tell."""
        state = positions[-1]
        if state.hides_cards:
            return None
        known = self.get(state)
        if known is not None:
            return known
        found = self.earlier(positions)
        if found is None:
            return None
        back, before = found
        known = before.after(positions[-1 - back], moves[len(moves) - back:], state)
        return None if known is None else self.put(state, known)

    def hint(self, state: State, seen: Collection[State]) -> Hint | None:
        """The hint what is known of ``state`` gives (`solver.line_hint`); None when a search
        must tell."""
        known = self.get(state)
        return None if known is None else line_hint(state, known.verdict, known.rest, seen)
