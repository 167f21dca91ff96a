"""Load benchmark for `thirteen serve`: simulated players on loopback, playing as the page
plays, for a bounded time; moves and the solver's answers are reported apart.

    python bench/web_load.py page   [--players 50] [--seconds 20] [--think 0.2] [--url URL]
    python bench/web_load.py solver [--players 10] [--seconds 30] [--url URL]

``page``: each player deals a random game, plays random legal moves (one undo in ten, a new
deal when a game ends or after --max-moves), asks ``/analysis`` after every move as the page
does, and a hint now and then (--hint-rate). Targets: move p99 under 50 ms, analysis p99
under 1 s. The analyses are also counted by verdict, ``busy`` for those the server answered
unsearched because the solver could not start in time. After the run the server is killed
with SIGKILL and every game's stored moves are compared with the last answer its player got
(lost moves).

``solver``: --players players hammer the solver, each with --parallel requests always in
flight (hints and analyses of random positions, "solve it for me", hard Baker's Dozen
deals), while one more player plays Baker's Dozen by hints (a hint, its move, the analysis,
a pause of --think). Target: that player's hint p99 under 1 s. Refusals of the hammering
players (429, 503 past the solver's wait limit, 409 for a game changed under a solve) are
counted, not errors.

Without --url it starts its own server (uvicorn, one process) on a free port and a fresh
database in a temporary folder. The players are spread over --clients processes. A player
pauses between requests uniformly 0 to twice --think; ``--think 0`` is flat out, where
latency is queueing (Little's law). Each kind of answer is also timed by the server itself
(its Server-Timing header): the rest is the network, the clients and waiting for a core.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from thirteen.arguments import positive_count, positive_seconds  # noqa: E402

GAMES = ["bakers-dozen", "spanish-patience", "castles-in-spain", "good-measure",
         "portuguese-solitaire", "bisley", "calculation", "imaginary-thirteen"]
KINDS = {"moves": "move", "undo": "move", "games": "new game", "analysis": "analysis",
         "hint": "hint", "solve": "solve"}


@dataclass
class Tally:
    """What a player's requests got: timed answers by kind, refusals, errors, analyses by
    verdict, and each game's moves as last answered."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    app: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # Server-Timing
    refused: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    errors: list[str] = field(default_factory=list)
    answered: dict[int, list[str]] = field(default_factory=dict)  # game id -> moves
    verdicts: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # analyses'
    tolerate: bool = False  # refusals are expected (a hammering player)

    def tally(self) -> Tally:
        """The record alone, to send back from a client process."""
        return Tally(**{f.name: getattr(self, f.name) for f in fields(Tally)})


@dataclass(kw_only=True)
class Player(Tally):
    c: httpx.AsyncClient
    rng: random.Random

    async def call(self, method: str, path: str,
                   body: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """The answer, timed under its kind (the path's last word); None on a refusal."""
        kind = KINDS.get(path.rsplit("/", 1)[-1], "move")
        t = time.perf_counter()
        try:
            r = await self.c.request(method, path, json=body)
        except httpx.HTTPError as e:
            self.errors.append(f"{method} {path}: {e!r}")
            return None
        took = time.perf_counter() - t
        if r.status_code in (409, 429, 503) and self.tolerate:
            self.refused[kind] += 1
            return None
        if r.status_code >= 400:
            if r.status_code != 409 or kind != "solve":
                self.errors.append(f"{method} {path}: {r.status_code} {r.text[:200]}")
            return None
        self.times[kind].append(took)
        timing = r.headers.get("server-timing", "")
        if timing.startswith("app;dur="):
            self.app[kind].append(float(timing[8:]) / 1000)
        data: dict[str, Any] = r.json()
        if kind == "analysis":
            self.verdicts["busy" if data.get("busy") else str(data["verdict"])] += 1
        if "id" in data and "moves" in data:
            self.answered[int(data["id"])] = list(data["moves"])
        return data

    async def pause(self, think: float) -> None:
        if think:
            await asyncio.sleep(self.rng.uniform(0, 2 * think))


async def page_player(p: Player, end: float, think: float, max_moves: int,
                      hint_rate: float) -> None:
    """Random play as the page makes it: a move (or undo), then its analysis, now and then a
    hint."""
    game: dict[str, Any] | None = None
    await p.pause(think)  # players arrive over a moment, not all in the same millisecond
    while time.perf_counter() < end:
        if game is None or game["status"] != "in play" or len(game["moves"]) >= max_moves:
            game = await p.call("POST", "/api/games", {"game": p.rng.choice(GAMES)})
        else:
            where = f"/api/games/{game['id']}"
            if game["moves"] and p.rng.random() < 0.1:
                game = await p.call("POST", where + "/undo")
            else:
                move = p.rng.choice(game["legal"])["move"]
                game = await p.call("POST", where + "/moves", {"move": move})
            await p.call("GET", where + "/analysis")
            if p.rng.random() < hint_rate:
                await p.call("GET", where + "/hint")
        await p.pause(think)


async def hint_player(p: Player, end: float, think: float) -> None:
    """A player who plays Baker's Dozen by the hints: a hint, its move, the analysis."""
    game = await p.call("POST", "/api/games", {"game": "bakers-dozen"})
    while game is not None and time.perf_counter() < end:
        where = f"/api/games/{game['id']}"
        h = await p.call("GET", where + "/hint")
        if game["status"] != "in play" or h is None or h["move"] is None:
            game = await p.call("POST", "/api/games", {"game": "bakers-dozen"})
            continue
        game = await p.call("POST", where + "/moves", {"move": h["move"]})
        await p.call("GET", where + "/analysis")
        await p.pause(think)


async def hammer(p: Player, end: float) -> None:
    """One of a hammering player's requests in flight, back to back: a hint or analysis of a
    random position, a solve, or a hard deal."""
    game: dict[str, Any] | None = None
    while time.perf_counter() < end:
        pick = p.rng.random()
        if game is None or game["status"] != "in play" or pick < 0.1:
            game = await p.call("POST", "/api/games",
                                {"game": "bakers-dozen", "difficulty": "hard"}
                                if pick < 0.05 else {"game": p.rng.choice(GAMES)})
            await asyncio.sleep(0.01)  # a refusal answers at once: no busy loop
            continue
        where = f"/api/games/{game['id']}"
        if pick < 0.5:
            game = await p.call("POST", where + "/moves",
                                {"move": p.rng.choice(game["legal"])["move"]}) or game
        if pick < 0.2:
            game = await p.call("POST", where + "/solve") or game
        else:
            await p.call("GET", where + ("/hint" if pick < 0.75 else "/analysis"))
        await asyncio.sleep(0.01)


def client(url: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=url, timeout=60)


async def run(args: argparse.Namespace, url: str, group: int) -> list[Tally]:
    """The players of client process ``group`` (every --clients-th player) after the run; in
    the solver scenario the first process also runs the hint player, last in its list."""
    end = time.perf_counter() + args.seconds
    ps = [Player(c=client(url), rng=random.Random(args.seed * 1000 + i))
          for i in range(group, args.players, args.clients)]
    for p in ps:  # a cookie first, which the player's parallel requests then share
        (await p.c.get("/api/stats")).raise_for_status()
    if args.scenario == "page":
        jobs = [page_player(p, end, args.think, args.max_moves, args.hint_rate) for p in ps]
    else:
        for p in ps:
            p.tolerate = True
        jobs = [hammer(p, end) for p in ps for _ in range(args.parallel)]
        if group == 0:
            ps.append(Player(c=client(url), rng=random.Random(args.seed)))
            (await ps[-1].c.get("/api/stats")).raise_for_status()
            jobs.append(hint_player(ps[-1], end, args.think))
    await asyncio.gather(*jobs)
    for p in ps:
        await p.c.aclose()
    return [p.tally() for p in ps]


def client_process(args: argparse.Namespace, url: str, group: int) -> list[Tally]:
    return asyncio.run(run(args, url, group))


def run_clients(args: argparse.Namespace, url: str) -> list[Tally]:
    """Every player's tally, from --clients processes (players' requests come from many
    machines, not one Python process whose own turns would be timed with the server's); in
    the solver scenario the hint player's last."""
    with ProcessPoolExecutor(args.clients) as pool:
        groups = list(pool.map(client_process, [args] * args.clients, [url] * args.clients,
                               range(args.clients)))
    hint = [groups[0].pop()] if args.scenario == "solver" else []
    return [t for g in groups for t in g] + hint


def lost_moves(db: str, players: list[Tally]) -> tuple[int, int]:
    """(games whose stored moves differ from the last answer, games checked)."""
    bad = checked = 0
    with sqlite3.connect(db) as c:
        for p in players:
            for game_id, moves in p.answered.items():
                stored = [m for (m,) in c.execute(
                    "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]
                checked += 1
                bad += stored != moves
    return bad, checked


def pct(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=1000, method="inclusive")[int(q * 1000) - 1]


def table(players: list[Tally], title: str) -> dict[str, float]:
    """Print count, p50, p99 and max by kind of request as the players saw them, and the p99
    of the server's own time (its Server-Timing: from the request's arrival at the app to the
    answer; the rest is the network, the players' own process and waiting for a core); the
    p99s in seconds."""
    times: dict[str, list[float]] = defaultdict(list)
    app: dict[str, list[float]] = defaultdict(list)
    refused: dict[str, int] = defaultdict(int)
    for p in players:
        for kind, ts in p.times.items():
            times[kind] += ts
        for kind, ts in p.app.items():
            app[kind] += ts
        for kind, n in p.refused.items():
            refused[kind] += n
    print(f"{title}:\n  {'kind':<9} {'answers':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"
          f" {'refused':>7} {'app p99':>8}")
    for kind in sorted(set(times) | set(refused)):
        ts = sorted(times[kind])
        p50, p99 = (1000 * pct(ts, q) for q in (0.5, 0.99))
        top = 1000 * ts[-1] if ts else 0.0
        own = 1000 * pct(sorted(app[kind]), 0.99)
        print(f"  {kind:<9} {len(ts):>7} {p50:>8.1f} {p99:>8.1f} {top:>8.1f} {refused[kind]:>7}"
              f" {own:>8.1f}")
    verdicts: dict[str, int] = defaultdict(int)
    for p in players:
        for verdict, n in p.verdicts.items():
            verdicts[verdict] += n
    said = ", ".join(f"{verdict} {n}" for verdict, n in sorted(verdicts.items()))
    print(f"  analyses: {said} (None: cards hidden; busy: not searched, the solver was busy)")
    return {kind: pct(sorted(ts), 0.99) for kind, ts in times.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenario", choices=("page", "solver"))
    ap.add_argument("--players", type=positive_count, default=None,
                    help="page: players (default 50); solver: hammering players (default 10)")
    ap.add_argument("--seconds", type=positive_seconds, default=20.0)
    ap.add_argument("--think", type=float, default=None,
                    help="mean pause between a player's turns, seconds (default: 0.2 for page, "
                         "1 for the solver scenario's hint player; 0: flat out)")
    ap.add_argument("--hint-rate", type=float, default=0.05, help="page: hints per move")
    ap.add_argument("--parallel", type=positive_count, default=4,
                    help="solver: requests each hammering player keeps in flight")
    ap.add_argument("--clients", type=positive_count, default=2,
                    help="processes the players are spread over (default 2)")
    ap.add_argument("--url", help="an already running server (no kill check then)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-moves", type=positive_count, default=300,
                    help="a player deals again after this many moves (random play rarely ends)")
    args = ap.parse_args()
    page = args.scenario == "page"
    args.players = args.players or (50 if page else 10)
    args.think = (0.2 if page else 1.0) if args.think is None else args.think

    from thirteen.web.process import ServerProcess

    server = None
    tmp = tempfile.TemporaryDirectory()
    url = args.url
    if url is None:
        server = ServerProcess(Path(tmp.name) / "load.sqlite3").start()
        url = server.url
    try:
        ps = run_clients(args, url)
    finally:
        if server is not None:
            server.kill()  # SIGKILL: whatever was answered must already be on disk
    print(f"{args.scenario}: players {args.players}, {args.seconds:.0f} s, think {args.think} s")
    errors = [e for p in ps for e in p.errors]
    if page:
        p99 = table(ps, "every player")
        targets = {"move": 0.05, "analysis": 1.0}
    else:
        table(ps[:-1], "hammering players")
        p99 = table(ps[-1:], "the player playing by hints")
        targets = {"hint": 1.0}
    print(f"errors {len(errors)}")
    for e in errors[:5]:
        print("  ", e)
    bad = 0
    if server is not None:
        bad, checked = lost_moves(server.db, ps)
        print(f"lost moves: {bad} of {checked} games differ from their last answer after kill -9")
    tmp.cleanup()
    met = all(kind in p99 and p99[kind] < limit for kind, limit in targets.items())
    said = ", ".join(f"{kind} p99 under {1000 * limit:.0f} ms" for kind, limit in targets.items())
    print(f"target ({said}, no error, no lost move): "
          f"{'met' if met and not errors and not bad else 'not met'}")
    return 1 if errors or bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
