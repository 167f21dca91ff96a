"""The solver's help with a game: ``GET .../hint``, ``GET .../analysis`` and ``POST
.../solve``. Each is a solver job run in the player's turn (`fair`): 503 when the solver is
too busy to get to it within the wait limit."""

from __future__ import annotations

import contextlib
from typing import Any

from fastapi import APIRouter, HTTPException

from .. import session as lifecycle
from ..moves import MoveError
from . import solving
from .models import AnalysisOut, GameOut, HintAnswer, errors
from .play import GameId
from .server import Player, ServerDep, Session
from .view import annotate_text, game_out

router = APIRouter(prefix="/api/games", tags=["play"])

ANALYSES = 64  # verdicts kept per game


def _after_unsolvable(s: Session) -> bool:
    """Whether the position before was found unsolvable: then so is this one (a winning line
    from here would be one from there, after the move played), with no turn at the solver."""
    positions = s.game.positions
    return len(positions) > 1 and s.analysis.get(positions[-2]) == "unsolvable"


@router.post("/{game_id}/solve", response_model=GameOut, responses=errors(404, 409, 429, 503))
async def solve_for_me(game_id: GameId, server: ServerDep, me: Player) -> dict[str, Any]:
    """Solve it for me: the solver's winning line played to the end, or where cards are
    hidden the fair player's moves, chosen from what the player sees (undo takes them
    back move by move); the game counts as assisted. 409, the game unchanged, when the
    game is over, nothing is found to play, or the game changed while the solver worked."""
    s = server.session(me, game_id)
    if s.game.status() != "in play":
        raise HTTPException(409, "the game is over")
    state, seen = s.position()
    answer = await server.solve(me, solving.solution, state, seen, heavy=True)
    if not answer.moves:
        raise HTTPException(409, answer.message)
    try:
        with server.changing(s):
            line = s.take_solve(state, answer)
    except lifecycle.Changed as e:
        raise HTTPException(409, str(e)) from None
    return game_out(s, line, answer.message)


@router.get("/{game_id}/hint", response_model=HintAnswer, response_model_exclude_unset=True,
            responses=errors(404, 409, 429, 503))
async def hint(game_id: GameId, server: ServerDep, me: Player) -> dict[str, Any]:
    """A move to try, from the solver (seeing only what the player sees); the game does
    not change."""
    s = server.session(me, game_id)
    state, seen = s.position()
    h = await server.solve(me, solving.hint, state, seen)
    if h.move is not None:
        s.take_hint()
    out: dict[str, Any] = {"move": h.move, "message": h.message, "verdict": h.verdict}
    if h.move is not None:
        with contextlib.suppress(MoveError, IndexError):
            out.update(annotate_text(state, h.move))
    return out


@router.get("/{game_id}/analysis", response_model=AnalysisOut,
            responses=errors(404, 409, 429, 503))
async def analysis(game_id: GameId, server: ServerDep, me: Player) -> dict[str, Any]:
    """Whether a winning line remains: ``solved``, ``unsolvable``, ``unknown``, or None when
    the position hides cards from the player (or the solver failed)."""
    s = server.session(me, game_id)
    ply, state = len(s.game.moves), s.game.state
    if state not in s.analysis:
        verdict: str | None = None  # none where cards are hidden (no turn at the solver)
        if _after_unsolvable(s):
            verdict = "unsolvable"
        elif not state.hides_cards:
            verdict = await server.solve(me, solving.verdict, state)
        while len(s.analysis) >= ANALYSES:
            s.analysis.pop(next(iter(s.analysis)))
        s.analysis[state] = verdict
    v = s.analysis[state]
    message = {"unsolvable": "No winning line remains.",
               "solved": "A winning line remains."}.get(v or "", "")
    return {"verdict": v, "message": message, "ply": ply}
