"""The solver's help with a game: ``GET .../hint``, ``GET .../analysis`` and ``POST
.../solve``. Each is a solver job run in the player's turn (`fair`), 503 when the solver is
too busy to get to it within the wait limit, unless what the server knows of the position
already answers it (`verdicts`): most analyses and hints along a game need no search."""

from __future__ import annotations

import contextlib
from typing import Any

from fastapi import APIRouter, HTTPException

from .. import session as lifecycle
from ..game import Game
from ..moves import MoveError
from ..solver import Played
from ..verdicts import Known
from . import solving
from .fair import Late
from .models import AnalysisOut, GameOut, HintAnswer, StoppedOut, errors
from .play import At, GameId
from .server import Player, Server, ServerDep, changed
from .view import annotate_text, game_out

router = APIRouter(prefix="/api/games", tags=["play"])

#: The search after a position the solver gave up on: a tenth of a verdict's (a position the
#: search gave up on is rarely decided a move later, and a page asks after every move).
AFTER_GAVE_UP = solving.VERDICT_SECONDS / 10
#: How long an analysis waits for its turn at the solver: a page wants it while the position
#: is on screen, so past this it is answered ``unknown`` (busy) and no search is made.
ANALYSIS_WAIT = 0.3


@router.post("/{game_id}/solve", response_model=GameOut, responses=errors(404, 409, 429, 503))
async def solve_for_me(game_id: GameId, server: ServerDep, me: Player,
                       at: At = None) -> dict[str, Any]:
    """Solve it for me: the solver's winning line played to the end, or where cards are
    hidden the fair player's moves, chosen from what the player sees (undo takes them
    back move by move); the game counts as assisted. 409, the game unchanged, when the
    game is over, nothing is found to play, or the game changed while the solver worked (the
    player may play on meanwhile: their acts go first)."""
    s = server.session(me, game_id, at)
    if s.game.status() != "in play":
        raise HTTPException(409, "the game is over")
    state, seen = s.position()
    answer = await server.solve_unless_changed(s, solving.solution, state, seen,
                                               server.limits.solve_seconds, heavy=True)
    if answer is None:  # stopped (the game changed, was left, or the player asked)
        answer = Played((), "unknown", "Solve stopped.")
    try:
        with server.changing(s):
            line = s.take_solve(state, answer)
    except lifecycle.Changed as e:
        raise changed(s, str(e)) from None
    if not line:
        raise HTTPException(409, answer.message)
    return game_out(s, line, answer.message)


@router.delete("/{game_id}/solve", response_model=StoppedOut, responses=errors(404, 409, 429))
async def stop_solve(game_id: GameId, server: ServerDep, me: Player) -> dict[str, Any]:
    """Stop the Solve thinking about this game, if one is: it then answers 409 and the game
    stays as it is."""
    s = server.session(me, game_id)
    stopped = len(s.stops)
    server.stop_solves(s)
    return {"stopped": stopped}


@router.get("/{game_id}/hint", response_model=HintAnswer, response_model_exclude_unset=True,
            responses=errors(404, 409, 429, 503))
async def hint(game_id: GameId, server: ServerDep, me: Player) -> dict[str, Any]:
    """A move to try, from the solver (seeing only what the player sees), or from the winning
    line known for the position (`verdicts`); the game does not change."""
    s = server.session(me, game_id)
    state, seen = s.position()
    known = server.verdicts.hint(state, seen) if s.legal_moves() else None
    if known is not None:
        h = solving.said(known)
    else:
        h = await server.solve(me, solving.hint, state, seen)
        if h.line and not state.hides_cards:
            server.verdicts.put(state, Known("solved", h.line))
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
    the position hides cards from the player (no search then) or the solver failed. What
    follows from an earlier position of the game (`verdicts`) needs no search; a search that
    cannot start within `ANALYSIS_WAIT` is not made (``unknown``, ``busy``)."""
    s = server.session(me, game_id)
    ply, state = len(s.game.moves), s.game.state
    known, busy = None, False
    if not state.hides_cards:
        try:
            known = await _verdict(server, me, s.game)
        except Late:
            known, busy = Known("unknown"), True
    v = None if known is None else known.verdict
    message = {"unsolvable": "No winning line remains.",
               "solved": "A winning line remains."}.get(v or "", "")
    if busy:
        message = "The solver is busy: this position was not searched."
    return {"verdict": v, "message": message, "ply": ply, "busy": busy}


async def _verdict(server: Server, me: str, game: Game) -> Known | None:
    """What is known of the game's position, or else what a search finds: with a tenth of the
    budget after a position the solver gave up on; None when the solver failed."""
    positions = game.positions
    known = server.verdicts.infer(positions, game.moves)
    if known is not None:
        return known
    earlier = server.verdicts.earlier(positions)
    gave_up = earlier is not None and earlier[1].verdict == "unknown"
    seconds = AFTER_GAVE_UP if gave_up else solving.VERDICT_SECONDS
    found = await server.solve(me, solving.verdict, game.state, seconds, quick=True,
                               wait=ANALYSIS_WAIT)
    return None if found is None else server.verdicts.put(game.state, found)
