"""The web server: a JSON API over `Game` and `Store`, and the static page that plays it.

The server holds the truth. The page sends moves in the project notation; the server checks
them with the engine, writes them to SQLite and only then answers with the new view (the
player's `view()`, never the state) and the legal moves, which the page uses to highlight
targets. The page itself never decides a rule.

A player is an unguessable token in an HttpOnly cookie; a game belongs to one player and any
other player asking for it gets 404, as if it did not exist. What happens to a game over its
life (starting, leaving, timing, help, statistics) is `thirteen.session`'s, as in every front
end.

Endpoints (all JSON; OpenAPI at ``/api/openapi.json``):

- ``GET /api/variants`` the games, with their rules; ``GET /api/variants/{name}`` one game;
- ``POST /api/games`` a new game ``{"game", "number"?, "board"?, "difficulty"?, "resume"?,
  "options"?, "leave"?}`` (``board``: a typed-in deal in fc-solve's board format, as
  ``thirteen deal GAME N --format board`` prints it; ``leave``: the player confirmed leaving
  their unfinished games of this game, which count as lost if a move was made);
- ``GET /api/games`` the player's recent games; ``GET /api/games/current`` the latest unfinished;
- ``GET /api/games/{id}`` a game; ``POST /api/games/{id}/moves`` ``{"move": "c3-c7", "auto"?}``;
- ``POST /api/games/{id}/undo``, ``/redo``, ``/restart``, ``/auto`` (auto-finish), ``/solve``
  (solve it for me);
- ``GET /api/games/{id}/hint``, ``GET /api/games/{id}/analysis`` (is a win still possible?);
- ``GET /api/stats``, ``GET /api/stats/{name}`` the player's statistics.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, model_validator

from .. import session as lifecycle
from ..deal import MAX_DEAL, MIN_DEAL, random_number
from ..game import Game, State
from ..moves import IllegalMove, Move, MoveError
from ..solver import Wanted
from ..store import Store, new_token
from ..variants import GAMES, OPTIONS, UnknownGame, Variant, get_variant
from . import daily, solving

log = logging.getLogger("thirteen.web")

STATIC = Path(__file__).parent / "static"
COOKIE = "thirteen_player"
COOKIE_AGE = 10 * 365 * 24 * 3600
MAX_BODY = 4096  # bytes: the largest valid request is far smaller
CACHE_SIZE = 2000  # games kept replayed in memory
SLOW = 0.25  # seconds: slower answers are logged
KNOWN_SIZE = 100_000  # player tokens remembered in memory
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,100}$")

GameId = Annotated[int, PathParam(ge=1, le=2**62, description="a game id")]

Json = dict[str, Any]
ASGIApp = Callable[
    [MutableMapping[str, Any], Callable[[], Awaitable[MutableMapping[str, Any]]],
     Callable[[MutableMapping[str, Any]], Awaitable[None]]],
    Awaitable[None],
]

# ---- request bodies -----------------------------------------------------------------------


def _deal_number(value: object) -> object:
    """Deal numbers may be JSON numbers or decimal strings (numbers above 2**53 do not survive
    JavaScript), from MIN_DEAL to MAX_DEAL."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError("a deal number is a whole number, not true/false")
    if isinstance(value, str):
        text = value.strip()
        if not text.isdigit() or len(text) > 20:
            raise ValueError("a deal number is a whole number of at most 20 digits")
        value = int(text)
    if not isinstance(value, int):
        raise ValueError("a deal number is a whole number")
    if not MIN_DEAL <= value <= MAX_DEAL:
        raise ValueError(f"deal numbers run from {MIN_DEAL} to {MAX_DEAL}")
    return value


DealNumber = Annotated[int | None, BeforeValidator(_deal_number)]


class Options(BaseModel):
    """Player options of a Baker's Dozen family game (omitted: the game's default)."""

    model_config = ConfigDict(extra="forbid")
    worry_back: StrictBool | None = None
    foundations: Literal["suit", "rank"] | None = None

    def given(self) -> dict[str, object]:
        return {k: v for k, v in self.model_dump().items() if v is not None}


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=64, description="a game name, e.g. bakers-dozen")
    number: DealNumber = Field(default=None, description="deal number; omitted: a random deal")
    board: str | None = Field(
        default=None, min_length=1, max_length=3000,
        description="a typed-in deal in fc-solve's board format (`thirteen deal GAME N "
                    "--format board` prints one), instead of a number")
    difficulty: Wanted | None = Field(
        default=None,
        description="random deals only: draw until the solver wins the deal (winnable) or rates "
                    "it easy, medium or hard (by the positions its search needed)")
    resume: StrictBool = Field(
        default=False,
        description="return the player's unfinished game of this deal (or of this game when "
                    "no number is given) instead of starting a new one, if there is one")
    leave: StrictBool = Field(
        default=False,
        description="the player confirmed leaving their unfinished games of this game: those "
                    "with a move count as lost (without it they stay unfinished)")
    options: Options = Field(default_factory=Options)

    @model_validator(mode="after")
    def _one_deal(self) -> NewGame:
        """A board is a deal of its own: it comes with no number, search or resuming."""
        if self.board is not None and (self.number is not None or self.difficulty or self.resume):
            raise ValueError("a board is the deal: give no number, difficulty or resume with it")
        return self


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(min_length=1, max_length=40, description="project notation, e.g. c3-c7")
    auto: StrictBool = Field(
        default=False, description="then play every provably safe move to the foundations")


# ---- sessions -----------------------------------------------------------------------------


@dataclass
class Session(lifecycle.Session):
    """A game replayed in memory, in step with its row (``version``) in the store, with what
    the server computed about it."""

    analysis: dict[State, str | None] = field(default_factory=dict)  # verdicts by position
    legal: tuple[State, list[Move]] | None = None  # the legal moves of a state, computed once

    @property
    def key(self) -> int:
        assert self.id is not None  # every game here is in the store
        return self.id

    def legal_moves(self) -> list[Move]:
        state = self.game.state
        if self.legal is None or self.legal[0] is not state:
            self.legal = (state, state.legal_moves())
        return self.legal[1]


def _foundation_names(view: Json) -> list[str]:
    return [str(f["name"]) for f in view["foundations"]]


def annotate(state: State, move: Move, names: list[str]) -> Json:
    """A legal move with the page's pile ids of its source and target."""
    src, dst = move.source, move.target
    home = dst.kind in ("f", "fa", "fk")
    if state.variant.family == "packer":
        source = f"c{src.index + 1}" if src.kind == "c" else str(src)
        if dst.kind == "c":
            target = f"c{dst.index + 1}"
        else:
            card = state.columns[src.index][-move.count]  # type: ignore[union-attr]
            pile = state.foundation_for(card, dst.kind)  # type: ignore[union-attr]
            target = names[pile] if pile is not None else str(dst)
    else:
        source, target = str(src), str(dst)
    return {"move": str(move), "from": source, "to": target, "count": move.count,
            "home": home}


def variant_json(v: Variant, rules: bool = True) -> Json:
    out: Json = {
        "name": v.name, "title": v.title, "description": v.description, "family": v.family,
        "pysol_id": v.pysol_id, "hidden_information": v.hidden_information,
        # the options a player may set, with the game's own values
        "options": {k: getattr(GAMES[v.name], k) for k in OPTIONS} if v.takes_options else {},
    }
    if rules:
        out["rules"] = rules_text(v)
    return out


def rules_text(v: Variant) -> str:
    try:
        from ..rules import describe
    except ImportError:
        return f"{v.title}\n\n{v.description}\n"
    try:
        return describe(v)
    except Exception:  # noqa: BLE001 - fall back to the one-line description
        log.exception("rules.describe failed")
        return f"{v.title}\n\n{v.description}\n"


# ---- the server ---------------------------------------------------------------------------


class Server:
    """What the endpoints share: the store and the games replayed in memory."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.cache: OrderedDict[int, Session] = OrderedDict()
        self.solver_slots = anyio.CapacityLimiter(2)
        self.known: OrderedDict[str, None] = OrderedDict()  # tokens issued or seen in the store

    # -- players --
    def player(self, request: Request) -> str:
        """The cookie's token if this server issued it (the store knows it, or it was issued
        since the server started); else a fresh token, which `Guard` sets as the cookie of the
        answer (errors included). A player's row is written with their first game."""
        token = request.cookies.get(COOKIE)
        if token and _TOKEN.match(token) and (token in self.known or self.store.has_player(token)):
            self._know(token)
            return token
        token = new_token()
        self._know(token)
        request.state.new_player = token
        return token

    def _know(self, token: str) -> None:
        self.known[token] = None
        self.known.move_to_end(token)
        while len(self.known) > KNOWN_SIZE:
            self.known.popitem(last=False)

    # -- games --
    def session(self, player: str, game_id: int) -> Session:
        try:
            info = self.store.game_info(player, game_id)
        except KeyError:
            raise HTTPException(404, f"no game {game_id} for this player") from None
        s = self.cache.get(game_id)
        if s is not None and s.player == player and s.version == info["version"]:
            self.cache.move_to_end(game_id)
            return s
        try:
            loaded = Session.load(self.store, player, game_id)
        except (KeyError, ValueError) as e:
            raise HTTPException(409, f"game {game_id} cannot be loaded: {e}") from None
        self._remember(loaded)
        return loaded

    def _remember(self, s: Session) -> None:
        self.cache[s.key] = s
        self.cache.move_to_end(s.key)
        while len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)

    def create(self, player: str, game: Game, leave: bool = False) -> Session:
        s = Session.start(self.store, player, game, leave)
        self._remember(s)
        return s

    @contextlib.contextmanager
    def changing(self, s: Session) -> Iterator[None]:
        """Around a change of a session's game: if it fails, memory may be ahead of the store,
        so the game is replayed from the store next time."""
        try:
            yield
        except BaseException:
            self.cache.pop(s.key, None)
            raise

    def commit(self, s: Session) -> None:
        """Write the session's game to the store (before any answer is sent); count a win."""
        with self.changing(s):
            s.commit()

    def out(self, s: Session, played: list[Move] | None = None, message: str = "") -> Json:
        game, state = s.game, s.game.state
        view = state.view()
        names = _foundation_names(view)
        legal = [annotate(state, m, names) for m in s.legal_moves()]
        status = "won" if state.won else "in play" if legal else "lost"
        v = game.variant
        number = None if game.number is None else str(game.number)
        options = v.options()
        url = f"/play/{v.name}/{number}" if number is not None and not options else f"/game/{s.id}"
        return {
            "id": s.id, "game": v.name, "title": v.title, "family": v.family,
            "number": number, "options": options, "url": url,
            "status": status, "message": message, "result": s.result,
            "assisted": s.assisted, "hints": s.hints, "leaving": s.leaving(),
            "view": view, "legal": legal,
            "moves": list(s.texts), "redo": len(game.redo_stack),
            "played": [str(m) for m in played or []],
            "elapsed": round(s.elapsed, 3), "since": round(time.time() - s.last_active, 3),
            "idle_cap": lifecycle.IDLE_CAP,
            "stats": s.stats(),
        }


# ---- errors and limits --------------------------------------------------------------------


def _where(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "path", "query")]
    return ".".join(parts) or "request"


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    for e in errors:
        if e.get("type") == "json_invalid":
            return JSONResponse({"detail": f"malformed JSON: {e.get('ctx', {}).get('error', '')}"
                                 .rstrip(": ")}, status_code=400)
    text = "; ".join(f"{_where(tuple(e.get('loc', ())))}: {e.get('msg', 'invalid')}"
                     for e in errors)
    clean = [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")),
              "type": str(e.get("type", ""))} for e in errors]
    return JSONResponse({"detail": text or "invalid request", "errors": clean},
                        status_code=422)


class Guard:
    """Pure ASGI middleware: bodies above ``MAX_BODY`` get 413 before the app sees them (with
    or without a Content-Length); every response gets protective headers, and the cookie of a
    newly issued player token (even an error response, so that a client keeps one token)."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: MutableMapping[str, Any],
                       receive: Callable[[], Awaitable[MutableMapping[str, Any]]],
                       send: Callable[[MutableMapping[str, Any]], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await self._too_large(send)
            return
        chunks: list[bytes] = []
        size = 0
        more = scope["method"] not in ("GET", "HEAD") or length is not None
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_body:
                await self._too_large(send)
                return
            chunks.append(body)
            more = bool(message.get("more_body", False))
        buffered = b"".join(chunks)
        sent = False

        async def replay() -> MutableMapping[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": buffered, "more_body": False}
            return await receive()

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                extra = [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"same-origin"),
                    (b"x-frame-options", b"DENY"),
                    (b"content-security-policy",
                     b"default-src 'self'; img-src 'self' data:; style-src 'self'; "
                     b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'"),
                ]
                token = (scope.get("state") or {}).get("new_player")
                if token:
                    extra.append((b"set-cookie", (
                        f"{COOKIE}={token}; Max-Age={COOKIE_AGE}; Path=/; HttpOnly; "
                        "SameSite=Strict").encode()))
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        began = time.perf_counter()
        await self.app(scope, replay, send_with_headers)
        took = time.perf_counter() - began
        if took > SLOW:
            log.warning("slow request: %s %s took %.0f ms", scope["method"], scope["path"],
                        1000 * took)

    async def _too_large(self, send: Callable[[MutableMapping[str, Any]], Awaitable[None]]) -> None:
        body = json.dumps(
            {"detail": f"request body too large (limit {self.max_body} bytes)"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


# ---- the app ------------------------------------------------------------------------------


async def _player(request: Request) -> str:
    """The player's token from the cookie; a new player (and cookie) when it is missing.
    Async so that FastAPI calls it in the event loop, not through a worker thread (the
    hand-over cost more than the lookup)."""
    server: Server = request.app.state.server
    return server.player(request)


Player = Annotated[str, Depends(_player)]


def create_app(db_path: str | Path | None = None, *, store: Store | None = None) -> FastAPI:
    """The ASGI app on the SQLite file ``db_path`` (None: the user's data directory)."""
    server = Server(store if store is not None else Store(db_path))
    app = FastAPI(
        title="thirteen",
        description="Play the Baker's Dozen family and the Calculation family of patience "
                    "games. The server holds the truth; the page sends moves in the project "
                    "notation (c3-c7, c3-f, s-w2, w2-f5).",
        version="1",
        docs_url=None, redoc_url=None,  # the interactive docs would load scripts from a CDN
        openapi_url="/api/openapi.json",
    )
    app.state.server = server
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_middleware(Guard)

    def variant_or_404(name: str) -> Variant:
        try:
            return get_variant(name)
        except UnknownGame as e:
            raise HTTPException(404, str(e)) from None

    # -- games of the registry --
    @app.get("/api/variants", tags=["games"])
    async def list_variants() -> list[Json]:
        """Every game, with its rules."""
        return [variant_json(v) for v in GAMES.values()]

    @app.get("/api/variants/{name}", tags=["games"])
    async def one_variant(name: Annotated[str, PathParam(max_length=64)]) -> Json:
        return variant_json(variant_or_404(name))

    # -- games being played --
    @app.post("/api/games", status_code=201, tags=["play"])
    async def new_game(body: NewGame, me: Player) -> Json:
        """Start (or with ``resume``, find) a game: a numbered deal, a typed-in ``board`` (400
        saying which line is wrong), a random deal, or a random deal the solver wins or rates
        easy, medium or hard (``difficulty``)."""
        try:
            variant = get_variant(body.game, **body.options.given())
        except UnknownGame as e:
            raise HTTPException(404, str(e)) from None
        except ValueError as e:
            raise HTTPException(400, str(e)) from None
        if body.resume:
            found = Session.resume(server.store, me, variant, body.number)
            if found is not None:
                server._remember(found)
                return server.out(found)
        if body.board is not None:
            try:
                game = Game.from_board(variant, body.board)
            except ValueError as e:
                raise HTTPException(400, f"board: {e}") from None
            return server.out(server.create(me, game, body.leave))
        given, difficulty = body.number, body.difficulty

        def pick() -> tuple[int, str]:
            return lifecycle.choose_deal(variant, given, difficulty)

        try:
            if difficulty is not None and given is None:
                async with server.solver_slots:
                    number, message = await anyio.to_thread.run_sync(
                        solving.pick_deal, pick, random_number)
            else:
                number, message = pick()
            game = Game.new(variant, number)
        except ValueError as e:
            raise HTTPException(400, str(e)) from None
        return server.out(server.create(me, game, body.leave), message=message)

    @app.get("/api/games", tags=["play"])
    async def my_games(me: Player) -> list[Json]:
        """The player's recent games."""
        out = server.store.games(me, 50)
        for g in out:
            g["number"] = None if g["number"] is None else str(g["number"])
        return out

    @app.get("/api/games/current", tags=["play"])
    async def current_game(me: Player) -> Json:
        """The player's most recently played unfinished game."""
        found = server.store.latest_any(me)
        if found is None:
            raise HTTPException(404, "no unfinished game")
        return server.out(server.session(me, found))

    @app.get("/api/games/{game_id}", tags=["play"])
    async def get_game(game_id: GameId, me: Player) -> Json:
        return server.out(server.session(me, game_id))

    @app.post("/api/games/{game_id}/moves", tags=["play"])
    async def move(game_id: GameId, body: MoveIn, me: Player) -> Json:
        """Play one move; 400 if malformed, 409 if the rules refuse it (nothing changes)."""
        s = server.session(me, game_id)
        try:
            m = Move.parse(body.move)
            s.game.push(m)
        except IllegalMove as e:
            raise HTTPException(409, str(e)) from None
        except MoveError as e:
            raise HTTPException(400, str(e)) from None
        played = [m] + (s.game.auto_moves() if body.auto else [])
        server.commit(s)
        return server.out(s, played)

    def step(game_id: int, me: str, back: bool) -> Json:
        """Undo (``back``) or redo one move: 409 when there is none; written, then answered."""
        s = server.session(me, game_id)
        try:
            m = s.game.undo() if back else s.game.redo()
        except MoveError as e:
            raise HTTPException(409, str(e)) from None
        server.commit(s)
        return server.out(s, [] if back else [m], f"took back {m}" if back else "")

    @app.post("/api/games/{game_id}/undo", tags=["play"])
    async def undo(game_id: GameId, me: Player) -> Json:
        return step(game_id, me, back=True)

    @app.post("/api/games/{game_id}/redo", tags=["play"])
    async def redo(game_id: GameId, me: Player) -> Json:
        return step(game_id, me, back=False)

    @app.post("/api/games/{game_id}/restart", tags=["play"])
    async def restart(game_id: GameId, me: Player) -> Json:
        s = server.session(me, game_id)
        if not s.game.moves:
            raise HTTPException(409, "the game is already at its deal")
        s.game.restart()
        server.commit(s)
        return server.out(s, message="back to the deal")

    @app.post("/api/games/{game_id}/auto", tags=["play"])
    async def auto_finish(game_id: GameId, me: Player) -> Json:
        """Finish the game if moves to the foundations alone win it; else play the provably
        safe moves to the foundations."""
        s = server.session(me, game_id)
        with server.changing(s):
            played = lifecycle.auto_finish(s.game)
        if played:
            server.commit(s)
        return server.out(s, played, "" if played else "nothing to play automatically")

    @app.post("/api/games/{game_id}/solve", tags=["play"])
    async def solve_for_me(game_id: GameId, me: Player) -> Json:
        """Solve it for me: the solver's winning line played to the end, or where cards are
        hidden the fair player's moves, chosen from what the player sees (undo takes them
        back move by move); the game counts as assisted. 409, the game unchanged, when the
        game is over, nothing is found to play, or the game changed while the solver worked."""
        s = server.session(me, game_id)
        if s.game.status() != "in play":
            raise HTTPException(409, "the game is over")
        state, seen = s.position()
        async with server.solver_slots:
            answer = await anyio.to_thread.run_sync(solving.solution, state, seen)
        if not answer.moves:
            raise HTTPException(409, answer.message)
        try:
            with server.changing(s):
                line = s.take_solve(state, answer)
        except lifecycle.Changed as e:
            raise HTTPException(409, str(e)) from None
        return server.out(s, line, answer.message)

    @app.get("/api/games/{game_id}/hint", tags=["play"])
    async def hint(game_id: GameId, me: Player) -> Json:
        """A move to try, from the solver (seeing only what the player sees); the game does
        not change."""
        s = server.session(me, game_id)
        state, seen = s.position()
        async with server.solver_slots:
            h = await anyio.to_thread.run_sync(solving.hint, state, seen)
        if h.move is not None:
            s.take_hint()
        out: Json = {"move": h.move, "message": h.message, "verdict": h.verdict}
        if h.move is not None:
            names = _foundation_names(state.view())
            with contextlib.suppress(MoveError, IndexError):
                out.update(annotate(state, Move.parse(h.move), names))
        return out

    @app.get("/api/games/{game_id}/analysis", tags=["play"])
    async def analysis(game_id: GameId, me: Player) -> Json:
        """Whether a winning line remains: ``solved``, ``unsolvable``, ``unknown``, or None when
        the position hides cards from the player (or the solver failed)."""
        s = server.session(me, game_id)
        ply, state = len(s.game.moves), s.game.state
        if state not in s.analysis:
            async with server.solver_slots:
                verdict = await anyio.to_thread.run_sync(solving.verdict, state)
            while len(s.analysis) >= 64:
                s.analysis.pop(next(iter(s.analysis)))
            s.analysis[state] = verdict
        v = s.analysis[state]
        message = {"unsolvable": "No winning line remains.",
                   "solved": "A winning line remains."}.get(v or "", "")
        return {"verdict": v, "message": message, "ply": ply}

    @app.get("/api/stats", tags=["statistics"])
    async def all_stats(me: Player) -> dict[str, Json]:
        return server.store.all_stats(me)

    @app.get("/api/stats/{name}", tags=["statistics"])
    async def stats(name: Annotated[str, PathParam(max_length=64)], me: Player) -> Json:
        return server.store.stats(me, variant_or_404(name).name)

    # -- the page --
    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return FileResponse(index)

    @app.get("/play/{name}", include_in_schema=False)
    @app.get("/play/{name}/{number}", include_in_schema=False)
    @app.get("/game/{game_id}", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(index)

    app.include_router(daily.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None) -> None:
    """Run the server with uvicorn until interrupted (``thirteen serve``)."""
    import uvicorn

    store = Store(db)
    print(f"thirteen: playing at http://{host}:{port}/ (games saved in {store.path})",
          flush=True)
    uvicorn.run(create_app(store=store), host=host, port=port, log_level="warning",
                access_log=False)
