"""The daily deal: one deal of each game per UTC day, the same for every player, which the solver
has won.

The day and the game pick a deal number (a hash, so nobody chooses it); from there the numbers
are tried in turn until the solver wins one within a fixed node budget and no time limit, so
that every server certifies the same deal whatever its load. The deal and the solver's winning
line (its certificate) are kept in the store: each is computed once per day and game. A
player's game of a daily deal is recorded, so its result for the day is kept.

The solver's line is shown only once the player's game of that deal is over: in a game that
hides cards (Castles in Spain, the Calculation family) it would tell the hidden cards, and in
any game it would give the deal away.

Endpoints:

- ``GET /api/daily``: today's daily deal of every game, with this player's result;
- ``POST /api/daily/{name}`` ``{"leave"?}``: start, or resume, the player's game of today's
  daily deal of a game (``leave`` as for a new game: the player confirmed leaving their
  unfinished games of this game);
- ``GET /api/daily/{name}/line``: the certificate, once the player's game of it is over.
"""

from __future__ import annotations

import datetime
import hashlib
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from ..game import Game
from ..solver import Budget, solve
from ..variants import GAMES, Variant
from .models import GameOut, errors
from .server import Player, Server, ServerDep
from .variants import variant_or_404
from .view import game_out

#: The solver's budget for certifying a deal: nodes only, so the answer is the same on every
#: machine; the deals of every game are won well within it (about 0.1 s a deal).
BUDGET = Budget(max_nodes=200_000, max_seconds=None, max_mb=256)
TRIES = 200  # deal numbers tried from the hashed one before giving up (none has needed 10)
NUMBERS = 1_000_000_000  # the hashed number falls in 1..NUMBERS

Result = Literal["not played", "in play", "won", "lost"]
GameName = Annotated[str, PathParam(max_length=64, description="a game name, e.g. bisley")]

router = APIRouter(prefix="/api/daily", tags=["daily"])


class Daily(BaseModel):
    """One game's daily deal for one player."""

    game: str = Field(description="the game's name")
    title: str
    day: str = Field(description="the UTC date, YYYY-MM-DD")
    result: Result = Field(description="this player's game of it")
    game_id: int | None = Field(description="this player's game of it, if they started one")
    line_shown: bool = Field(description="whether GET .../line answers (the game is over)")


class Line(BaseModel):
    """The certificate: the deal and the solver's winning line, in the project notation."""

    game: str
    day: str
    number: str = Field(description="the deal number (a string: deal numbers may pass 2**53)")
    moves: list[str]


class DailyIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    leave: StrictBool = Field(
        default=False,
        description="the player confirmed leaving their unfinished games of this game: those "
                    "with a move count as lost")


class NoDeal(Exception):
    """No deal of the day's range was won within the budget (never seen: a 503, not a 500)."""


def today() -> str:
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def first_number(day: str, name: str) -> int:
    """The deal number a day and a game hash to, before the solver is asked."""
    digest = hashlib.sha256(f"thirteen daily {day} {name}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % NUMBERS + 1


def certify(variant: Variant, day: str) -> tuple[int, list[str]]:
    """The day's deal of ``variant`` and the solver's winning line for it (searched with every
    card known: the certificate is about the deal, not about what a player sees)."""
    start = first_number(day, variant.name)
    for number in range(start, start + TRIES):
        result = solve(Game.new(variant, number).state, BUDGET, shorten=True)
        if result.verdict == "solved":
            return number, [str(m) for m in result.moves]
    raise NoDeal(f"No daily deal of {variant.title} today: the solver won none of {TRIES} "
                 "deals within its budget.")


async def _certificate(server: Server, player: str, variant: Variant,
                       day: str) -> tuple[int, list[str]]:
    """The stored certificate, computed first (in ``player``'s turn at the solver) if it is
    the first ask of the day."""
    found = server.store.daily(day, variant.name)
    if found is None:
        try:
            number, line = await server.solve(player, certify, variant, day, heavy=True)
        except NoDeal as e:
            raise HTTPException(503, str(e)) from None
        server.store.save_daily(day, variant.name, number, line)
        found = server.store.daily(day, variant.name)
        assert found is not None
    return found


def _result(server: Server, player: str, game_id: int | None) -> Result:
    if game_id is None:
        return "not played"
    info = server.store.game_info(player, game_id)
    result: Result = info["result"] or info["status"]
    return result


@router.get("", response_model=list[Daily], responses=errors(429))
async def daily_deals(server: ServerDep, me: Player) -> list[Daily]:
    """Today's daily deal of every game, with this player's result for each."""
    day = today()
    mine = server.store.daily_games(me, day)
    out = []
    for v in GAMES.values():
        result = _result(server, me, mine.get(v.name))
        out.append(Daily(game=v.name, title=v.title, day=day, result=result,
                         game_id=mine.get(v.name), line_shown=result in ("won", "lost")))
    return out


class DailyGame(GameOut):
    """A game of a daily deal: a game's answer and the day."""

    daily: str = Field(description="the UTC date of the daily deal, YYYY-MM-DD")


@router.post("/{name}", status_code=201, response_model=DailyGame,
             responses=errors(404, 429, 503))
async def play_daily(name: GameName, body: DailyIn, request: Request, server: ServerDep,
                     me: Player) -> dict[str, Any]:
    """Start the player's game of today's daily deal of ``name``, or resume it (then
    ``leave`` is not used): the game's JSON, as ``POST /api/games`` answers, with ``daily``,
    the day. 429 past the limits on new games."""
    variant = variant_or_404(name)
    day = today()
    game_id = server.store.daily_games(me, day).get(variant.name)
    if game_id is not None:
        return {**game_out(server.session(me, game_id)), "daily": day}
    server.may_create(me, request)
    number, _line = await _certificate(server, me, variant, day)
    s = server.create(me, Game.new(variant, number), body.leave)
    server.store.set_daily_game(me, day, variant.name, s.key)
    return {**game_out(s), "daily": day}


@router.get("/{name}/line", response_model=Line, responses=errors(404, 409, 429, 503))
async def daily_line(name: GameName, server: ServerDep, me: Player) -> Line:
    """The solver's winning line for today's daily deal of ``name``, once the player's game
    of it is over (409 before: it would give the deal, and any hidden card, away)."""
    variant = variant_or_404(name)
    day = today()
    game_id = server.store.daily_games(me, day).get(variant.name)
    if _result(server, me, game_id) not in ("won", "lost"):
        raise HTTPException(409, "The solver's line is shown once your game of today's "
                                 "daily deal is over.")
    number, line = await _certificate(server, me, variant, day)
    return Line(game=variant.name, day=day, number=str(number), moves=line)
