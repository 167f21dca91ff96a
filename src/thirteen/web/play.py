"""Games being played: ``POST /api/games`` starts (or resumes) one; a game's moves, undo,
redo, restart and auto-finish, and the end of a sitting (``close``, sent as the page goes).
Every change is written to the store before it is answered."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi import Path as PathParam

from .. import session as lifecycle
from ..game import Game
from ..moves import IllegalMove, Move, MoveError
from . import solving
from .models import GameOut, GameRow, MoveIn, NewGame, errors
from .server import Player, ServerDep, Session, Sitting
from .variants import variant_or_404
from .view import game_out

GameId = Annotated[int, PathParam(ge=1, le=2**62, description="a game id")]
At = Annotated[int | None, Query(
    ge=0, le=2**62, description="the game's version (its `version`) when the player chose this: "
                                "refused (409, nothing done) if the game has changed since")]
Json = dict[str, Any]

router = APIRouter(prefix="/api/games", tags=["play"])


@router.post("", status_code=201, response_model=GameOut,
             responses=errors(400, 404, 413, 429, 503))
async def new_game(body: NewGame, request: Request, server: ServerDep, me: Player) -> Json:
    """Start (or with ``resume``, find) a game: a numbered deal, a typed-in ``board`` (400
    saying which line is wrong), a random deal, or a random deal the solver wins or rates
    easy, medium or hard (``difficulty``). 429 past the limits on new games."""
    server.may_create(me, request)
    variant = variant_or_404(body.game, **body.options.given())
    if body.resume:
        found = Session.resume(server.store, me, variant, body.number)
        if found is not None:
            server.remember(found)
            return game_out(found)
    if body.board is not None:
        try:
            game = Game.from_board(variant, body.board)
        except ValueError as e:
            raise HTTPException(400, f"board: {e}") from None
        return game_out(server.create(me, game, body.leave))
    given, difficulty = body.number, body.difficulty
    try:
        if difficulty is not None and given is None:
            number, message = await server.solve(me, solving.pick_deal, variant, difficulty,
                                                 heavy=True)
        else:
            number, message = lifecycle.choose_deal(variant, given, difficulty)
        game = Game.new(variant, number)
    except ValueError as e:
        raise HTTPException(400, str(e)) from None
    return game_out(server.create(me, game, body.leave), message=message)


@router.get("", response_model=list[GameRow], responses=errors(429))
async def my_games(server: ServerDep, me: Player) -> list[Json]:
    """The player's recent games."""
    out = server.store.games(me, 50)
    for g in out:
        g["number"] = None if g["number"] is None else str(g["number"])
    return out


@router.get("/current", response_model=GameOut, responses=errors(404, 409, 429))
async def current_game(server: ServerDep, me: Player) -> Json:
    """The player's most recently played unfinished game."""
    found = server.store.latest_any(me)
    if found is None:
        raise HTTPException(404, "no unfinished game")
    return game_out(server.session(me, found))


@router.get("/{game_id}", response_model=GameOut, responses=errors(404, 409, 429))
async def get_game(game_id: GameId, server: ServerDep, me: Player) -> Json:
    return game_out(server.session(me, game_id))


@router.post("/{game_id}/moves", response_model=GameOut,
             responses=errors(400, 404, 409, 413, 429))
async def move(game_id: GameId, body: MoveIn, server: ServerDep, me: Player,
               at: At = None) -> Json:
    """Play one move; 400 if malformed, 409 if the rules refuse it (nothing changes)."""
    s = server.session(me, game_id, at)
    try:
        m = Move.parse(body.move)
        s.game.push(m)
    except IllegalMove as e:
        raise HTTPException(409, str(e)) from None
    except MoveError as e:
        raise HTTPException(400, str(e)) from None
    played = [m] + (s.game.auto_moves() if body.auto else [])
    server.commit(s)
    return game_out(s, played)


def _step(server: ServerDep, game_id: int, me: str, at: int | None, back: bool) -> Json:
    """Undo (``back``) or redo one move: 409 when there is none; written, then answered."""
    s = server.session(me, game_id, at)
    try:
        m = s.game.undo() if back else s.game.redo()
    except MoveError as e:
        raise HTTPException(409, str(e)) from None
    server.commit(s)
    return game_out(s, [] if back else [m], f"took back {m}" if back else "")


@router.post("/{game_id}/undo", response_model=GameOut, responses=errors(404, 409, 429))
async def undo(game_id: GameId, server: ServerDep, me: Player, at: At = None) -> Json:
    return _step(server, game_id, me, at, back=True)


@router.post("/{game_id}/redo", response_model=GameOut, responses=errors(404, 409, 429))
async def redo(game_id: GameId, server: ServerDep, me: Player, at: At = None) -> Json:
    return _step(server, game_id, me, at, back=False)


@router.post("/{game_id}/restart", response_model=GameOut, responses=errors(404, 409, 429))
async def restart(game_id: GameId, server: ServerDep, me: Player, at: At = None) -> Json:
    s = server.session(me, game_id, at)
    if not s.game.moves:
        raise HTTPException(409, "the game is already at its deal")
    s.game.restart()
    server.commit(s)
    return game_out(s, message="back to the deal")


@router.post("/{game_id}/auto", response_model=GameOut, responses=errors(404, 409, 429))
async def auto_finish(game_id: GameId, server: ServerDep, me: Player, at: At = None) -> Json:
    """Finish the game if moves to the foundations alone win it; else play the provably
    safe moves to the foundations."""
    s = server.session(me, game_id, at)
    with server.changing(s):
        played = lifecycle.auto_finish(s.game)
    if played:
        server.commit(s)
    return game_out(s, played, "" if played else "nothing to play automatically")


@router.post("/{game_id}/close", response_model=GameOut, responses=errors(404, 409, 429))
async def close(game_id: GameId, server: ServerDep, me: Player, at: At = None,
                sitting: Sitting = None) -> Json:
    """The page (``Sitting`` header) leaves the game, as it goes or shows another game. If no
    other page shows it, the player's sitting ends: the game is saved with its play time, and
    its clock stands still until it is read again. A game over is answered as it is."""
    s = server.session(me, game_id, at)
    server.close(s, sitting)
    return game_out(s)
