"""What is known of positions (`verdicts`): verdicts that follow from an earlier
position of a game with no search, within bounds, never about a position that hides cards;
and in the server, analyses and hints along a known line that start no solver job, an analysis
that does not wait long for a busy solver, and a move answered while the solver is busy."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thirteen.game import Game
from thirteen.moves import Move
from thirteen.solver import Budget, solve
from thirteen.verdicts import LINE, Known, Verdicts, mended
from thirteen.web import solving
from thirteen.web.app import create_app
from thirteen.web.fair import FairSolver

T = TypeVar("T")
SEEN_GAMES = ["bakers-dozen", "spanish-patience", "good-measure", "portuguese-solitaire",
              "bisley"]  # games that hide no card


def replays_to_a_win(game: Game, line: tuple[Move, ...]) -> bool:
    state = game.state
    for m in line:
        state = state.apply(m)
    return state.won


def solved(game: Game, nodes: int = 50_000) -> Known:
    """The solver's verdict on the game's position, within a node budget (the same on any
    machine)."""
    result = solve(game.state, Budget(max_nodes=nodes, max_seconds=None), shorten=True)
    return Known(result.verdict, result.moves)


# ---- inference -----------------------------------------------------------------------------

def test_a_winning_line_is_followed() -> None:
    """Along the known line every position is solved by the rest of the line, and its hint
    is the line's next move, with no search."""
    game = Game.new("bakers-dozen", 9)
    known = solved(game)
    assert known.verdict == "solved"
    line = known.line
    verdicts = Verdicts()
    verdicts.put(game.state, known)
    for i, move in enumerate(line[:-1]):
        h = verdicts.hint(game.state, game.positions)
        assert h is not None and h.move == move and h.verdict == "solved"
        game.push(move)
        after = verdicts.infer(game.positions, game.moves)
        assert after is not None and after.verdict == "solved"
        assert after.line is line and after.rest == line[i + 1:]
    assert replays_to_a_win(game, line[-1:])


def test_a_line_is_mended_after_a_move_off_it() -> None:
    """After a move off the line, the line (its cards found where they are now) is the
    verdict where it replays to a win, and only then."""
    start = Game.new("bakers-dozen", 9)
    known = solved(start)
    mends = 0
    for move in start.state.legal_moves():
        if move == known.line[0]:
            continue
        game = Game.new("bakers-dozen", 9)
        verdicts = Verdicts()
        verdicts.put(game.state, known)
        game.push(move)
        after = verdicts.infer(game.positions, game.moves)
        if after is not None:
            assert after.verdict == "solved" and replays_to_a_win(game, after.rest)
            mends += 1
    assert mends > 0


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(SEEN_GAMES), st.integers(1, 10**6), st.lists(st.integers(0, 99),
                                                                     min_size=1, max_size=4))
def test_every_inferred_line_replays_to_a_win(name: str, number: int, picks: list[int]) -> None:
    """Whatever moves are played from a solved position, a line inferred for the position
    they lead to replays to a win."""
    game = Game.new(name, number)
    known = solved(game, 20_000)
    verdicts = Verdicts()
    verdicts.put(game.state, known)
    for pick in picks:
        legal = game.state.legal_moves()
        if not legal:
            break
        game.push(legal[pick % len(legal)])
    after = verdicts.infer(game.positions, game.moves)
    if after is not None and known.verdict == "solved":
        assert after.verdict == "solved" and replays_to_a_win(game, after.rest)
    if known.verdict == "unsolvable":
        assert after is not None and after.verdict == "unsolvable"


def test_mended_needs_a_win() -> None:
    """A line that no longer wins is no verdict."""
    game = Game.new("bakers-dozen", 9)
    line = solved(game).line
    assert mended(game.state, line[:-1], game.state) is None
    assert mended(game.state, line, game.state) == line


def test_unsolvable_goes_forward_and_unknown_does_not() -> None:
    """After an unsolvable position every position is unsolvable, several moves on too (the
    page may play a move and its automatic moves in one answer); after an unknown one a
    search must tell."""
    game = Game.new("bakers-dozen", 64)  # proved unsolvable (data/surveys)
    verdicts = Verdicts()
    verdicts.put(game.state, Known("unsolvable"))
    for _ in range(3):
        game.push(game.state.legal_moves()[-1])
    after = verdicts.infer(game.positions, game.moves)
    assert after is not None and after.verdict == "unsolvable"
    other = Game.new("bakers-dozen", 65)
    verdicts.put(other.state, Known("unknown"))
    other.push(other.state.legal_moves()[0])
    assert verdicts.infer(other.positions, other.moves) is None
    assert verdicts.earlier(other.positions) == (1, Known("unknown"))


def test_memory_is_bounded() -> None:
    """At most ``size`` positions, the least recently used out first; a line longer than
    `LINE` moves is not kept."""
    verdicts = Verdicts(size=3)
    games = [Game.new("bakers-dozen", n) for n in range(1, 6)]
    for g in games:
        verdicts.put(g.state, Known("unknown"))
        verdicts.get(games[0].state)  # used again: stays
    assert len(verdicts) == 3
    assert verdicts.get(games[0].state) is not None and verdicts.get(games[1].state) is None
    long = (games[0].state.legal_moves()[0],) * (LINE + 1)
    assert verdicts.put(games[0].state, Known("solved", long)) == Known("solved")


def test_no_verdict_where_cards_are_hidden() -> None:
    game = Game.new("castles-in-spain", 1)
    assert game.state.hides_cards
    verdicts = Verdicts()
    with pytest.raises(ValueError, match="hides cards"):
        verdicts.put(game.state, Known("unknown"))
    assert verdicts.infer(game.positions, game.moves) is None
    assert verdicts.hint(game.state, game.positions) is None
    assert solving.verdict(game.state) is None


# ---- in the server -------------------------------------------------------------------------

class Jobs:
    """A solver worker in threads that counts its jobs and, while ``hold`` is set, holds each
    until it is released."""

    def __init__(self, hold: bool = False) -> None:
        self.count = 0
        self.started = threading.Event()
        self.release = threading.Event()
        if not hold:
            self.release.set()

    async def __call__(self, fn: Callable[..., T], *args: object) -> T:
        self.count += 1

        def job() -> T:
            self.started.set()
            self.release.wait(30)
            return fn(*args)

        return await anyio.to_thread.run_sync(job)

    async def running(self) -> None:
        assert await anyio.to_thread.run_sync(self.started.wait, 10)


Client = httpx.AsyncClient


def in_server(tmp_path: Path, jobs: Jobs, main: Callable[[Client], Awaitable[None]],
              slots: int = 2) -> None:
    """``main(client)`` against the app on a fresh database, its solver jobs run by ``jobs``,
    in an event loop of its own (the browser tests may leave one running in this thread)."""
    app = create_app(tmp_path / "games.sqlite3")
    app.state.server.solver = FairSolver(slots=slots, worker=jobs)

    async def run() -> None:
        async with Client(transport=httpx.ASGITransport(app=app), base_url="http://test") as c:
            await main(c)

    with anyio.from_thread.start_blocking_portal() as portal:
        portal.call(run)


async def deal_nine(c: Client) -> tuple[str, dict[str, Any]]:
    r = await c.post("/api/games", json={"game": "bakers-dozen", "number": 9})
    assert r.status_code == 201, r.text
    return f"/api/games/{r.json()['id']}", r.json()


def test_analyses_and_hints_along_the_line_start_no_solver_job(tmp_path: Path) -> None:
    jobs = Jobs()

    async def main(c: Client) -> None:
        where, _ = await deal_nine(c)
        assert (await c.get(where + "/analysis")).json()["verdict"] == "solved"
        assert jobs.count == 1
        for _ in range(10):
            h = (await c.get(where + "/hint")).json()
            assert h["verdict"] == "solved" and h["message"] == "It starts a winning line."
            r = await c.post(where + "/moves", json={"move": h["move"]})
            assert r.status_code == 200
            a = (await c.get(where + "/analysis")).json()
            assert a["verdict"] == "solved" and a["ply"] == len(r.json()["moves"])
        assert jobs.count == 1

    in_server(tmp_path, jobs, main)


def test_a_hint_line_serves_the_analyses(tmp_path: Path) -> None:
    """The winning line of a hint's search is kept: the analysis after its move needs none."""
    jobs = Jobs()

    async def main(c: Client) -> None:
        where, _ = await deal_nine(c)
        h = (await c.get(where + "/hint")).json()
        assert jobs.count == 1 and h["verdict"] == "solved"
        await c.post(where + "/moves", json={"move": h["move"]})
        assert (await c.get(where + "/analysis")).json()["verdict"] == "solved"
        assert jobs.count == 1

    in_server(tmp_path, jobs, main)


def test_a_move_is_answered_while_the_solver_works(tmp_path: Path) -> None:
    """An analysis holds the only solver slot; the player's move is answered meanwhile."""
    jobs = Jobs(hold=True)

    async def main(c: Client) -> None:
        where, g = await deal_nine(c)
        answers: list[httpx.Response] = []

        async def analyse() -> None:
            answers.append(await c.get(where + "/analysis"))

        async with anyio.create_task_group() as tg:
            tg.start_soon(analyse)
            await jobs.running()
            r = await c.post(where + "/moves", json={"move": g["legal"][0]["move"]})
            assert r.status_code == 200 and not jobs.release.is_set() and not answers
            jobs.release.set()
        assert answers[0].json()["verdict"] == "solved" and answers[0].json()["ply"] == 0

    in_server(tmp_path, jobs, main, slots=1)


def test_an_analysis_does_not_wait_for_a_busy_solver(tmp_path: Path) -> None:
    """With the solver held past `assist.ANALYSIS_WAIT` (by the player's own hint in another
    game: one job in flight a player), the analysis says so at once (unknown, busy) and keeps
    nothing: once the solver is free, the position is searched."""
    jobs = Jobs(hold=True)

    async def main(c: Client) -> None:
        where, _ = await deal_nine(c)
        r = await c.post("/api/games", json={"game": "bakers-dozen", "number": 1})
        async with anyio.create_task_group() as tg:
            tg.start_soon(c.get, f"/api/games/{r.json()['id']}/hint")
            await jobs.running()
            a = (await c.get(where + "/analysis")).json()
            assert a["verdict"] == "unknown" and a["busy"] and "busy" in a["message"]
            jobs.release.set()
        assert jobs.count == 1
        a = (await c.get(where + "/analysis")).json()
        assert a["verdict"] == "solved" and not a["busy"] and jobs.count == 2

    in_server(tmp_path, jobs, main, slots=1)
