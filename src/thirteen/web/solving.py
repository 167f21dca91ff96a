"""The web server's use of the solver: hints, verdicts and deals picked by difficulty, with
budgets small enough for a page that waits, and with a solver failure logged and answered by
a plain legal move or a random deal instead of taking the page down. Each runs in a worker
process (`fair`), so its arguments and answers are plain picklable values, and its seconds are
the search's own CPU seconds there (as everywhere, `solver.common.now`): a verdict or a solve
is the same on a busy server as on an idle one.

Hidden information: a verdict on the whole position is only computed when nothing in it is
hidden from the player (a verdict on a position with face-down cards or an unknown stock
would tell the player something about those cards). Hints and "solve it for me" come from
`solver.hint` and `solver.solve_for_me`, which where cards are hidden use only what the player
can see, within node budgets (the same answer however busy the server is).
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass

from ..deal import random_number
from ..game import State
from ..moves import Move
from ..session import choose_deal
from ..solver import Budget, Hint, Played, Wanted, solve, solve_for_me
from ..solver import hint as solver_hint
from ..variants import Variant
from ..verdicts import Known

log = logging.getLogger("thirteen.web")


@dataclass(frozen=True)
class HintOut:
    move: str | None
    message: str
    verdict: str | None = None
    line: tuple[Move, ...] = ()  # the winning line the move starts, when ``solved``


#: A verdict's search: a page waits for it after every move.
VERDICT_SECONDS = 0.5
NODES_A_SECOND = 400_000


def _budget(seconds: float, nodes: int) -> Budget:
    return Budget(max_nodes=nodes, max_seconds=seconds, max_mb=256)  # the server stays small


def verdict(state: State, seconds: float = VERDICT_SECONDS) -> Known | None:
    """``solved`` (with its winning line, shortened as a hint's), ``unsolvable`` or
    ``unknown`` for a position the player fully sees; None when the position hides cards (or
    the solver failed)."""
    if state.hides_cards:
        return None
    try:
        result = solve(state, _budget(seconds, int(seconds * NODES_A_SECOND)), shorten=True)
    except Exception:  # noqa: BLE001 - a solver bug must not take the page down
        log.exception("solver failed")
        return None
    return Known(result.verdict, result.moves)


def hint(state: State, seen: Collection[State] = (), seconds: float = 1.0) -> HintOut:
    """A move to try and why, from the solver (which sees only what the player sees), leading
    to no position in ``seen``."""
    legal = state.legal_moves()
    if not legal:
        return HintOut(None, "No move is left: undo, restart or deal again.", "lost")
    try:
        h = solver_hint(state, _budget(seconds, 300_000), seen)
    except Exception:  # noqa: BLE001
        log.exception("solver hint failed")
        pick = (state.safe_moves() or legal)[0]
        return HintOut(str(pick), "A legal move (the solver failed).")
    return said(h)


def said(h: Hint) -> HintOut:
    """A hint in the page's words: its move, and why as a sentence."""
    move = None if h.move is None else str(h.move)
    text = h.message
    if move is not None and text.startswith(f"{move}: "):
        text = text[len(f"{move}: "):]
    text = text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
    return HintOut(move, text, h.verdict, h.line)


def solution(state: State, seen: Collection[State], seconds: float) -> Played:
    """Solve it for me (`solve_for_me`) in ``seconds`` (``thirteen serve --solve-seconds``):
    what to play from here (nothing, and why, when there is nothing); a failing solver is
    logged and said, never a server error."""
    try:
        return solve_for_me(state, _budget(seconds, 1_000_000), seen)
    except Exception:  # noqa: BLE001
        log.exception("solver failed")
        return Played((), "unknown", "The solver failed.")


def pick_deal(variant: Variant, wanted: Wanted) -> tuple[int, str]:
    """A random deal of the ``wanted`` kind and the message that says what it is (`ValueError`
    for a game that hides cards); a failing solver is logged and answered with a random deal."""
    try:
        return choose_deal(variant, None, wanted)
    except ValueError:
        raise
    except Exception:  # noqa: BLE001
        log.exception("solver failed")
        return random_number(), "The solver failed: this deal is random."
