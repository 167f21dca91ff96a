"""The server's limits: the solver's fair share among players (`web.fair`), and the limits on
creating games and players (429 with Retry-After), in process and against the real server."""

from __future__ import annotations

import os
import resource
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import anyio
import httpx
import pytest

from thirteen.game import Game
from thirteen.solver.common import now
from thirteen.store import Store
from thirteen.variants import get_variant
from thirteen.web import fair
from thirteen.web.fair import Busy, FairSolver, Late, hurry_workers, in_processes
from thirteen.web.limits import Bucket
from thirteen.web.process import ServerProcess
from thirteen.web.server import SITTINGS_SIZE, Server

# ---- the solver's fair share ---------------------------------------------------------------

THREAD = anyio.to_thread.run_sync  # jobs here are closures, which worker processes cannot take


def _run(main: Callable[[], Awaitable[None]]) -> None:
    """``anyio.run(main)`` in a thread of its own: the browser tests, in the same process, may
    leave an event loop running in this one."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(anyio.run, main).result()


def _jobs(solver: FairSolver, asks: list[str], seconds: float = 0.05
          ) -> tuple[list[str], list[str], int]:
    """Submit a job per name in ``asks`` (in that order, each a moment after the last): the
    order in which the jobs started, the refusals, and the most jobs of one player at once."""
    started: list[str] = []
    refused: list[str] = []
    running: dict[str, int] = {}
    most = 0
    lock = threading.Lock()

    def job(player: str) -> None:
        nonlocal most
        with lock:
            started.append(player)
            running[player] = running.get(player, 0) + 1
            most = max(most, running[player])
        time.sleep(seconds)
        with lock:
            running[player] -= 1

    async def ask(player: str) -> None:
        try:
            await solver.run(player, job, player)
        except Busy as e:
            refused.append(f"{player} {e.status}")

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for player in asks:
                tg.start_soon(ask, player)
                await anyio.sleep(0.001)

    _run(main)
    return started, refused, most


def test_players_take_turns() -> None:
    """One slot: a player's queued jobs do not go before another player's, whatever the order
    of the requests."""
    asks = ["a", "a", "a", "a", "b", "c", "b"]
    started, refused, most = _jobs(FairSolver(slots=1, worker=THREAD), asks)
    assert started == ["a", "b", "c", "a", "b", "a", "a"] and not refused and most == 1


def test_one_job_in_flight_per_player() -> None:
    """Two slots: one player's many jobs hold one slot; the other is free for anyone else."""
    started, refused, most = _jobs(FairSolver(slots=2, worker=THREAD), ["a"] * 5 + ["b"])
    assert most == 1 and not refused
    assert started.index("b") == 1


def test_long_jobs_leave_a_slot_for_short_ones() -> None:
    """Two slots, one for long jobs at most: a short job goes before long ones asked first."""
    solver = FairSolver(slots=2, heavy=1, worker=THREAD)
    started: list[str] = []

    def job(player: str, seconds: float) -> None:
        started.append(player)
        time.sleep(seconds)

    async def ask(player: str, heavy: bool) -> None:
        await solver.run(player, job, player, 0.2 if heavy else 0.0, heavy=heavy)

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for player, heavy in (("a", True), ("b", True), ("c", True), ("d", False)):
                tg.start_soon(ask, player, heavy)
            await anyio.sleep(0)

    _run(main)
    assert started.index("d") < started.index("b")


def test_quick_jobs_have_a_slot_of_their_own() -> None:
    """Both slots held by long jobs: a quick job (an analysis) starts at once on a slot of its
    own, while another job waits for one of the two."""
    solver = FairSolver(slots=2, quick=1, worker=THREAD)
    events: list[str] = []

    def job(player: str, seconds: float) -> None:
        events.append(f"start {player}")
        time.sleep(seconds)
        events.append(f"end {player}")

    async def ask(player: str, seconds: float, quick: bool) -> None:
        await solver.run(player, job, player, seconds, quick=quick)

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for player, seconds, quick in (("a", 0.3, False), ("b", 0.3, False),
                                           ("c", 0.0, True), ("d", 0.0, False)):
                tg.start_soon(ask, player, seconds, quick)
                await anyio.sleep(0.01)

    _run(main)
    first_end = min(events.index("end a"), events.index("end b"))
    assert events.index("end c") < first_end < events.index("start d")


def test_wait_limit_and_queue_limits() -> None:
    """A job that waits longer than the limit is refused with 503; a player with too many
    jobs waiting is refused with 429 at once."""
    _, refused, _ = _jobs(FairSolver(slots=1, wait=0.1, worker=THREAD), ["a", "b"], seconds=0.5)
    assert refused == ["b 503"]
    _, refused, _ = _jobs(FairSolver(slots=1, per_player=2, worker=THREAD), ["a"] * 5)
    assert refused == ["a 429", "a 429"]
    _, refused, _ = _jobs(FairSolver(slots=1, total=2, worker=THREAD), ["a", "b", "c", "d"])
    assert refused == ["d 503"]


def test_a_job_of_its_own_wait_limit() -> None:
    """A job given its own wait limit is refused past it (`Late`) while the others wait."""
    solver = FairSolver(slots=1, wait=10, worker=THREAD)
    refused: list[str] = []

    async def ask(player: str, wait: float | None) -> None:
        try:
            await solver.run(player, time.sleep, 0.3, wait=wait)
        except Late:
            refused.append(player)

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for player, wait in (("a", None), ("b", 0.05), ("c", None)):
                tg.start_soon(ask, player, wait)
                await anyio.sleep(0.01)

    _run(main)
    assert refused == ["b"]


def test_solver_processes_run_at_the_lowest_priority() -> None:
    """The solver's worker processes give way to the server's: a move is answered at once
    however busy the solver is. They stay in the server's session, whose share of the
    machine they use (a player waits for their answers), unlike a survey's workers."""
    policies: list[int] = []
    sessions: list[int] = []

    async def main() -> None:
        run = in_processes(1)
        policies.append(await run(os.sched_getscheduler, 0))
        sessions.append(await run(os.getsid, 0))

    _run(main)
    assert policies == [os.SCHED_IDLE] and sessions == [os.getsid(0)]
    assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the server's own process is not lowered


_NICE_LIMIT = resource.getrlimit(resource.RLIMIT_NICE)[0]  # RLIM_INFINITY (-1): no limit


@pytest.mark.skipif(os.geteuid() != 0 and _NICE_LIMIT != resource.RLIM_INFINITY
                    and _NICE_LIMIT < 20,
                    reason="only root (or an RLIMIT_NICE of 20 or more) may leave the idle class")
def test_before_a_stop_the_workers_leave_the_idle_class_until_their_next_job() -> None:
    """Killed in the idle class, a worker may wait seconds on a busy machine for the core it
    needs to exit, and the stopped Solve's answer with it: before a stop the workers leave
    the idle class, and each goes back with its next job."""
    seen: list[int] = []

    async def main() -> None:
        run = in_processes(1)
        pid = await run(os.getpid)
        seen.append(os.sched_getscheduler(pid))
        hurry_workers()
        seen.append(os.sched_getscheduler(pid))
        seen.append(await run(os.sched_getscheduler, 0))

    _run(main)
    assert seen == [os.SCHED_IDLE, os.SCHED_OTHER, os.SCHED_IDLE]


def test_solver_processes_count_a_budgets_seconds_in_cpu_time() -> None:
    """At the lowest priority a search may wait for a core; the budget counts only the time it
    ran, so a loaded server answers as an idle one (not "gave up" on a deal won in 0.1 s)."""
    seen: list[tuple[int, float]] = []

    async def main() -> None:
        run = in_processes(1)
        for _ in range(2):
            seen.append((await run(os.getpid), await run(now)))
            time.sleep(0.5)  # the worker waits: the wall clock runs, its CPU clock does not

    _run(main)
    (pid, first), (again, second) = seen
    assert pid == again and 0 <= second - first < 0.25


def test_a_job_past_the_run_limit_is_stopped_and_answered_busy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A job starved of CPU (or any job too long) ends in a 503, its process stopped (the
    workers hurried out of the idle class first, while it still runs, so that it exits at
    once), and the next job gets a new process."""
    solver = FairSolver(slots=1, worker=in_processes(1), run_limit=1.0)
    pids: list[int] = []
    refused: list[int] = []
    hurried: list[bool] = []  # whether the job's process was still there when hurried

    def hurry() -> None:
        hurried.append(Path(f"/proc/{pids[0]}").exists())
        hurry_workers()

    monkeypatch.setattr(fair, "hurry_workers", hurry)

    async def main() -> None:
        pids.append(await solver.run("a", os.getpid))
        began = time.monotonic()
        with pytest.raises(Busy) as e:
            await solver.run("a", time.sleep, 60)
        refused.extend([e.value.status, round(time.monotonic() - began)])
        pids.append(await solver.run("a", os.getpid))

    _run(main)
    assert refused == [503, 1] and hurried == [True]
    assert pids[0] != pids[1] and not Path(f"/proc/{pids[0]}").exists()
    assert solver.running == {} and solver.waiting == 0


def test_a_jobs_failure_comes_out_as_it_came() -> None:
    """A solver process that died is a 503 ("the solver failed"), and any other error of a
    job comes out as itself, the time limit's watch around it notwithstanding."""
    async def died(fn: Callable[..., object], *args: object) -> object:
        raise anyio.BrokenWorkerProcess("died")

    async def wrong(fn: Callable[..., object], *args: object) -> object:
        raise ValueError("a bug")

    caught: list[object] = []

    async def main() -> None:
        with pytest.raises(Busy) as busy:
            await FairSolver(worker=died).run("a", os.getpid)
        caught.append((busy.value.status, str(busy.value)))
        with pytest.raises(ValueError, match="a bug"):
            await FairSolver(worker=wrong).run("a", os.getpid)
        caught.append("ValueError")

    _run(main)
    assert caught == [(503, "the solver failed: try again"), "ValueError"]


def test_a_solve_is_stopped_when_the_game_changes(tmp_path: Path) -> None:
    """A job about a game's position is stopped (its process with it) when the game changes
    meanwhile: its answer could not be played, and the player's one turn at the solver is free
    again for what they ask next."""
    server = Server(Store(tmp_path / "db.sqlite3"))
    server.solver = FairSolver(slots=1, worker=in_processes(1))
    s = server.create("a" * 22, Game.new(get_variant("bakers-dozen"), 9))
    pids: list[int] = []
    answers: list[object] = []

    async def change() -> None:
        await anyio.sleep(0.5)  # the job is running
        s.game.push(s.legal_moves()[0])
        server.commit(s)

    async def main() -> None:
        pids.append(await server.solve_unless_changed(s, os.getpid))
        async with anyio.create_task_group() as group:
            group.start_soon(change)
            with anyio.fail_after(30):  # the job alone would sleep 60 s
                answers.append(await server.solve_unless_changed(s, time.sleep, 60))
        pids.append(await server.solve_unless_changed(s, os.getpid))

    _run(main)
    assert answers == [None]
    assert pids[0] != pids[1] and not Path(f"/proc/{pids[0]}").exists()
    assert server.solver.running == {} and server.solver.waiting == 0


def test_the_notes_of_which_page_shows_which_game_stay_bounded(tmp_path: Path) -> None:
    """A flood of requests naming pages and games cannot grow the server's notes (`seen`):
    only the player's own games in memory are noted, each with its last few pages."""
    from starlette.requests import Request

    server = Server(Store(tmp_path / "db.sqlite3"))
    mine = server.create("a" * 22, Game.new(get_variant("bakers-dozen"), 9)).key
    theirs = server.create("b" * 22, Game.new(get_variant("bakers-dozen"), 9)).key

    def ask(game: int, page: int) -> None:
        server.seen("a" * 22, Request({"type": "http", "path_params": {"game_id": str(game)}}),
                    f"{page:032x}")

    for page in range(1000):
        ask(page + 100, page)  # games that are not there
        ask(theirs, page)  # another player's game
    assert not server.sittings
    for page in range(1000):
        ask(mine, page)
    assert list(server.sittings) == [("a" * 22, mine)]
    assert len(server.sittings["a" * 22, mine]) == SITTINGS_SIZE


def test_bucket() -> None:
    b = Bucket(6)  # one every 10 s, bursts of 6
    assert [b.take("x", 0.0) for _ in range(6)] == [0] * 6
    assert b.take("x", 0.0) == 10 and b.take("y", 0.0) == 0
    assert b.take("x", 5.0) == 5 and b.take("x", 10.0) == 0 and b.take("x", 10.0) == 10


# ---- against the real server --------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("limits") / "limits.sqlite3"
    options = ["--player-games", "3", "--address-games", "5", "--address-players", "4"]
    with ServerProcess(db, options=options) as s:
        yield s


def _client(server: ServerProcess) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=30)


def _refused(r: httpx.Response, says: str) -> None:
    assert r.status_code == 429, r.text
    assert says in r.json()["detail"] and "\n" not in r.json()["detail"]
    assert int(r.headers["retry-after"]) >= 1


def test_creation_limits(server: ServerProcess) -> None:
    """Per player, then per address, then new players: 429, and nothing is created."""
    with _client(server) as one, _client(server) as two:
        for n in range(3):
            assert one.post("/api/games", json={"game": "bakers-dozen", "number": n + 1}
                            ).status_code == 201
        _refused(one.post("/api/games", json={"game": "bakers-dozen"}), "too many new games")
        assert len(one.get("/api/games").json()) == 3
        for _ in range(2):
            assert two.post("/api/games", json={"game": "bisley"}).status_code == 201
        _refused(two.post("/api/games", json={"game": "bisley"}),
                 "too many new games from this address")
        assert len(two.get("/api/games").json()) == 2
    for _ in range(2):  # two more players from this address, then no more
        with _client(server) as c:
            assert c.get("/api/stats").status_code == 200
    with _client(server) as c:
        r = c.get("/api/stats")
        _refused(r, "too many new players from this address")
        assert "thirteen_player" not in r.cookies


def test_slow_player_does_not_hold_up_another(tmp_path: Path) -> None:
    """A player asking "solve it for me" three times at once on a slow game holds one solver
    slot: the others wait their turn (and past the wait limit get 503), while another
    player's hint is answered before the first solve ends."""
    ended: list[tuple[str, int, float]] = []

    def ask(c: httpx.Client, name: str, path: str) -> None:
        r = c.request("GET" if path.endswith("hint") else "POST", path)
        ended.append((name, r.status_code, time.monotonic()))
        if r.status_code == 503:
            assert "did not get to yours within 1 s" in r.json()["detail"]

    server = ServerProcess(tmp_path / "fair.sqlite3", options=["--solver-wait", "1"]).start()
    slow = _client(server)
    fast = _client(server)
    # Calculation's "solve it for me" plays the fair player for up to 5 s
    game = slow.post("/api/games", json={"game": "calculation", "number": 5}).json()["id"]
    mine = fast.post("/api/games", json={"game": "bakers-dozen", "number": 9}).json()["id"]
    threads = [threading.Thread(target=ask, args=(slow, "solve", f"/api/games/{game}/solve"))
               for _ in range(3)]
    for t in threads:
        t.start()
    time.sleep(0.2)
    ask(fast, "hint", f"/api/games/{mine}/hint")
    for t in threads:
        t.join()
    slow.close()
    fast.close()
    server.stop()
    codes = sorted(code for name, code, _ in ended if name == "solve")
    assert codes == [200, 503, 503]
    hint = next(e for e in ended if e[0] == "hint")
    solved = next(e for e in ended if e[0] == "solve" and e[1] == 200)
    assert hint[1] == 200 and hint[2] < solved[2]
