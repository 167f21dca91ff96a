"""The web server's bridge to the solver, which may not be installed yet.

Every function here degrades gracefully when `thirteen.solver` is missing or fails: the page
then gets a plain legal (or provably safe) move as a hint, no "no winning line remains"
verdict, and plain random deals instead of "winnable only" ones.

Hidden information: a verdict on the whole position is only computed when nothing in it is
hidden from the player (a verdict on a position with face-down cards or an unknown stock
would tell the player something about those cards). Hints come from ``solver.hint``, which
uses only what the player can see.
"""

from __future__ import annotations

import inspect
import logging
import time
from dataclasses import dataclass
from typing import Any

from ..game import Game, State
from ..moves import Move

log = logging.getLogger("thirteen.web")


@dataclass(frozen=True)
class HintOut:
    move: str | None
    message: str
    verdict: str | None = None


def _solver() -> Any | None:
    try:
        from .. import solver  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return None
    return solver


def available() -> bool:
    return _solver() is not None


def _budget(solver: Any, seconds: float, nodes: int) -> Any:
    """A `Budget` of about ``seconds`` and ``nodes``, whatever its fields are called."""
    budget_type = getattr(solver, "Budget", None)
    if budget_type is None:
        return None
    kwargs: dict[str, object] = {}
    try:
        for name in inspect.signature(budget_type).parameters:
            low = name.lower()
            if "sec" in low or "time" in low:
                kwargs[name] = seconds
            elif "node" in low:
                kwargs[name] = nodes
            elif low.endswith("mb"):
                kwargs[name] = 256  # the server must stay small whatever the position
    except (TypeError, ValueError):
        pass
    try:
        return budget_type(**kwargs)
    except TypeError:
        return budget_type()


def _verdict_text(result: Any) -> str:
    verdict = getattr(result, "verdict", result)
    return str(getattr(verdict, "value", verdict)).lower()


def nothing_hidden(state: State) -> bool:
    """True when the player sees every card that is still to be played."""
    hidden = getattr(state, "hidden", None)
    if hidden is not None:
        return not any(hidden)
    stock = getattr(state, "stock", ())
    return len(stock) <= 1


def verdict(state: State, seconds: float = 0.5) -> str | None:
    """``solved``, ``unsolvable`` or ``unknown`` for a position the player fully sees;
    None when no solver is installed or the position hides cards."""
    solver = _solver()
    if solver is None or not nothing_hidden(state) or not hasattr(solver, "solve"):
        return None
    try:
        return _verdict_text(solver.solve(state, _budget(solver, seconds, 200_000)))
    except Exception:  # noqa: BLE001 - a solver bug must not take the page down
        log.exception("solver failed")
        return None


def hint(state: State, seconds: float = 1.0) -> HintOut:
    """A move to try and why: the solver's hint, else a safe move, else any legal move."""
    legal = state.legal_moves()
    if not legal:
        return HintOut(None, "No move is left: undo, restart or deal again.", "lost")
    solver = _solver()
    if solver is not None and hasattr(solver, "hint"):
        try:
            h = solver.hint(state, _budget(solver, seconds, 300_000))
        except Exception:  # noqa: BLE001
            log.exception("solver hint failed")
        else:
            move = getattr(h, "move", None)
            text = str(getattr(h, "message", "") or "")
            if move is not None and text.startswith(f"{move}: "):
                text = text[len(f"{move}: "):]
                text = text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
            v = getattr(h, "verdict", None)
            return HintOut(None if move is None else str(move), str(text),
                           None if v is None else _verdict_text(v))
    safe = state.safe_moves()
    if safe:
        return HintOut(str(safe[0]), "A safe move to the foundations.")
    if solver is not None and hasattr(solver, "solve") and nothing_hidden(state):
        try:
            result = solver.solve(state, _budget(solver, seconds, 300_000))
        except Exception:  # noqa: BLE001
            log.exception("solver failed")
        else:
            v = _verdict_text(result)
            moves = list(getattr(result, "moves", ()) or ())
            if v == "solved" and moves:
                return HintOut(str(moves[0]), f"This starts a winning line of {len(moves)} moves.",
                               v)
            if v == "unsolvable":
                return HintOut(None, "No winning line remains: undo or deal again.", v)
    home = [m for m in legal if m.target.kind in ("f", "fa", "fk")]
    pick: Move = home[0] if home else legal[0]
    why = "no solver is installed" if solver is None else "the solver found nothing in time"
    return HintOut(str(pick), f"A legal move ({why}).")


def winnable_number(game: str | Any, draw: Any, seconds: float = 3.0) -> tuple[int, bool]:
    """A deal number whose deal the solver solves within a small budget, drawing numbers
    with ``draw()`` for at most ``seconds``; (number, True) on success, else (a random
    number, False)."""
    solver = _solver()
    number = int(draw())
    if solver is None or not hasattr(solver, "solve"):
        return number, False
    end = time.monotonic() + seconds
    while True:
        try:
            state = Game.new(game, number).state
            left = max(0.05, min(0.5, end - time.monotonic()))
            if _verdict_text(solver.solve(state, _budget(solver, left, 100_000))) == "solved":
                return number, True
        except Exception:  # noqa: BLE001
            log.exception("solver failed")
            return number, False
        if time.monotonic() >= end:
            return number, False
        number = int(draw())
