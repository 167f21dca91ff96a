"""What the endpoints share: the store, the games replayed in memory, the players known, the
pages showing each game, the limits on creating games and players, the solver's fair share
and the verdicts it found; with the dependencies that hand them to an endpoint (`ServerDep`,
`Player`)."""

from __future__ import annotations

import contextlib
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Annotated, TypeVar

import anyio
from fastapi import Depends, Header, HTTPException, Request

from .. import session as lifecycle
from ..game import Game, State
from ..moves import Move
from ..store import Store, new_token
from ..verdicts import Verdicts
from .fair import Busy, FairSolver, Late, hurry_workers
from .limits import Bucket, Limits

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

COOKIE = "thirteen_player"
CACHE_SIZE = 2000  # games kept replayed in memory
VERSION_HEADER = "Game-Version"  # `changed`
KNOWN_SIZE = 100_000  # player tokens remembered in memory
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,100}$")
Sitting = Annotated[str | None, Header(
    alias="Sitting", pattern=r"^[0-9a-f]{32}$",
    description="the page's own random name, sent with each of its requests, so that one tab "
                "leaving a game does not stop its clock while another shows it")]
_GAME = re.compile(r"^[0-9]{1,19}$")  # a game id in a path, as `int` reads it at once
SITTINGS_SIZE = 8  # pages remembered per game; the games are the cache's


@dataclass
class Session(lifecycle.Session):
    """A game replayed in memory, in step with its row (``version``) in the store, with what
    the server computed about it."""

    legal: tuple[State, list[Move]] | None = None  # the legal moves of a state, computed once
    # what stops at the game's next change (`Server.commit`): the Solves thinking about it
    stops: list[anyio.CancelScope] = field(default_factory=list)

    @property
    def key(self) -> int:
        assert self.id is not None  # every game here is in the store
        return self.id

    def legal_moves(self) -> list[Move]:
        state = self.game.state
        if self.legal is None or self.legal[0] is not state:
            self.legal = (state, state.legal_moves())
        return self.legal[1]


def changed(s: Session, message: str) -> HTTPException:
    """409: the act was refused because the game changed before it came (another tab, Solve,
    another process), with the game's version now (`VERSION_HEADER`). Only this refusal
    carries it, so a page reads the game again after it and not after a refusal of the rules,
    where nothing changed."""
    return HTTPException(409, message, headers={VERSION_HEADER: str(s.version)})


def too_many(what: str, wait: int) -> HTTPException:
    """429 saying what was refused and when to come back (also as Retry-After)."""
    return HTTPException(429, f"too many {what}: try again in {wait} s",
                         headers={"Retry-After": str(wait)})


class Server:
    """The state the endpoints share, one per app."""

    def __init__(self, store: Store, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits = limits or Limits()
        self.cache: OrderedDict[int, Session] = OrderedDict()
        # the pages showing each game, with when each was last heard from (`seen`)
        self.sittings: OrderedDict[tuple[str, int], OrderedDict[str, float]] = OrderedDict()
        self.solver = FairSolver(slots=2, wait=limits.solver_wait)
        self.verdicts = Verdicts()
        self.known: OrderedDict[str, None] = OrderedDict()  # tokens issued or seen in the store
        self.player_games = Bucket(limits.player_games)
        self.address_games = Bucket(limits.address_games)
        self.address_players = Bucket(limits.address_players)

    # -- players --
    def player(self, request: Request) -> str:
        """The cookie's token if this server issued it (the store knows it, or it was issued
        since the server started); else a fresh token (429 past the address's limit), which
        `Guard` sets as the cookie of the answer (errors included). A player's row is written
        with their first game."""
        token = request.cookies.get(COOKIE)
        if token and _TOKEN.match(token) and (token in self.known or self.store.has_player(token)):
            self._know(token)
            return token
        wait = self.address_players.take(address(request))
        if wait:
            raise too_many("new players from this address", wait)
        token = new_token()
        self._know(token)
        request.state.new_player = token
        return token

    def _know(self, token: str) -> None:
        _keep(self.known, token, None, KNOWN_SIZE)

    def may_create(self, player: str, request: Request) -> None:
        """429 unless the player and their address may start another game now."""
        wait = self.player_games.take(player)
        if wait:
            raise too_many("new games", wait)
        wait = self.address_games.take(address(request))
        if wait:
            raise too_many("new games from this address", wait)

    # -- games --
    def session(self, player: str, game_id: int, at: int | None = None) -> Session:
        """The player's game (404 if it is not theirs). With ``at``, the version the player
        saw when they chose what they ask: 409 if the game has changed since, so that an act
        chosen in one position is never played in another (as when Solve, thinking while the
        player plays on, has played its line first, or another tab has played on)."""
        s = self._session(player, game_id)
        if at is not None and at != s.version:
            raise changed(s, "the game changed before this arrived (Solve played its line, or "
                             "another tab played on): nothing was done")
        return s

    def _session(self, player: str, game_id: int) -> Session:
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
        self.remember(loaded)
        return loaded

    def remember(self, s: Session) -> None:
        _keep(self.cache, s.key, s, CACHE_SIZE)

    def create(self, player: str, game: Game, leave: bool = False) -> Session:
        """A new game; with ``leave`` (the player confirmed) the player's other unfinished
        games of this game that have moves count as lost, else they stay unfinished. A Solve
        still thinking about one of those is stopped, so that no line is played in a game
        already counted."""
        s = Session.start(self.store, player, game)
        if leave:
            for left in self.store.abandon(player, game.variant.name, keep=s.id):
                gone = self.cache.pop(left, None)
                if gone is not None:
                    self.stop_solves(gone)
        self.remember(s)
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
        """Write the session's game to the store (before any answer is sent); count a win.
        409, nothing written, if another process saved the game since it was read."""
        with self.changing(s):
            try:
                s.commit()
            except lifecycle.PlayedElsewhere as e:
                raise changed(s, str(e)) from None
        self.stop_solves(s)

    def close(self, s: Session, name: str | None = None) -> None:
        """The page ``name`` leaves the game of ``s``. Unless another page still shows it (its
        clock runs on for that page), the player's sitting ends (`lifecycle.Session.close`):
        its Solves stop, since nobody is there to see their answer, and it leaves the cache,
        so that read again it is opened and its clock starts then."""
        if self.others_here(s, name):
            return
        s.close()
        self.stop_solves(s)
        self.cache.pop(s.key, None)

    @staticmethod
    def stop_solves(s: Session) -> None:
        """Stop the Solves thinking about the game of ``s`` (`solve_unless_changed`): it
        changed, was left, or the player asked."""
        if s.stops:
            hurry_workers()
        for scope in s.stops:
            scope.cancel()

    # -- sittings --
    def seen(self, player: str, request: Request, name: str | None) -> None:
        """Note that the page ``name`` (its ``Sitting`` header) shows the game of the
        request's path, so that another page leaving that game does not stop its clock
        (`close`). Only a game of the player's in memory is noted, so that no request for
        games that are not there can crowd out the notes: a page is known from its first
        request about a game the server has read (the analysis it asks for as it shows a
        position, if not an act; a page shown reads its game every 15 s)."""
        game = str(request.path_params.get("game_id", ""))
        if name is None or not _GAME.match(game):
            return
        s = self.cache.get(int(game))
        if s is None or s.player != player:
            return
        key = (player, s.key)
        here = self.sittings.get(key, OrderedDict())
        _keep(here, name, time.time(), SITTINGS_SIZE)
        _keep(self.sittings, key, here, CACHE_SIZE)

    def others_here(self, s: Session, name: str | None) -> bool:
        """Whether a page other than ``name`` has shown the game of ``s`` within `IDLE_CAP`
        (one that went without a word counts until then, as a killed process does); ``name``
        is forgotten."""
        here = self.sittings.get((s.player, s.key), OrderedDict())
        here.pop(name or "", None)
        now = time.time()
        return any(now - then < lifecycle.IDLE_CAP for then in here.values())

    # -- the solver --
    async def solve(self, player: str, fn: Callable[..., T], *args: object,
                    heavy: bool = False, quick: bool = False, wait: float | None = None) -> T:
        """``fn(*args)`` in the player's turn at the solver (``heavy``: a long job, ``quick``:
        a short one, see `fair`); 503 (or 429) when it cannot be. With ``wait``, the job waits
        at most that long for its turn instead of the server's wait limit, and `Late` says it
        did."""
        try:
            return await self.solver.run(player, fn, *args, heavy=heavy, quick=quick, wait=wait)
        except Busy as e:
            if wait is not None and isinstance(e, Late):
                raise
            raise HTTPException(e.status, str(e), headers={"Retry-After": "5"}) from None


    async def solve_unless_changed(self, s: Session, fn: Callable[..., T], *args: object,
                                   heavy: bool = False) -> T | None:
        """`solve` for the player of ``s``, stopped (None) when the game changes meanwhile: its
        answer, about the position before, could not be played, and the player's turn at the
        solver (one job at a time) is free again at once for what they ask next."""
        with anyio.CancelScope() as scope:
            s.stops.append(scope)
            try:
                return await self.solve(s.player, fn, *args, heavy=heavy)
            finally:
                s.stops.remove(scope)
        return None


def _keep(kept: OrderedDict[K, V], key: K, value: V, size: int) -> None:
    """``kept[key] = value`` as the newest entry, the oldest dropped past ``size``: what the
    server remembers stays bounded whatever the requests."""
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > size:
        kept.popitem(last=False)


def address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


async def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


async def _player(request: Request, sitting: Sitting = None) -> str:
    """The player's token from the cookie; a new player (and cookie) when it is missing.
    Async so that FastAPI calls it in the event loop, not through a worker thread (the
    hand-over cost more than the lookup)."""
    server: Server = request.app.state.server
    player = server.player(request)
    server.seen(player, request, sitting)
    return player


ServerDep = Annotated[Server, Depends(_server)]
Player = Annotated[str, Depends(_player)]
