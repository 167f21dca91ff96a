"""Load benchmark for `thirteen serve`: N simulated players on loopback play random legal
moves (with an occasional undo, and a new deal when a game ends) for a bounded time.

Prints requests/s, p50/p90/p99/max latency, errors, and lost moves: after the run the server
is killed with SIGKILL and every player's answered moves are compared with the SQLite file.

    python bench/web_load.py [--players 50] [--seconds 20] [--think 0.2] [--url URL]

Without --url it starts its own server (uvicorn, one process) on a free port and a fresh
database in a temporary folder. Target: p99 under 50 ms at 50 concurrent players
on a 2-core machine, no error, no lost move; the last line says whether this run met it.

A player pauses between requests (uniformly 0 to twice --think): the default 0.2 s means five
moves a second per player, faster than anyone plays, so the target is read at a pace no person
exceeds. ``--think 0`` is flat out: then the run measures throughput, and latency is queueing
(Little's law: 50 requests always in flight, so p50 is 50 / throughput), on two cores the load
generator shares with the server.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

GAMES = ["bakers-dozen", "spanish-patience", "castles-in-spain", "good-measure",
         "portuguese-solitaire", "bisley", "calculation", "imaginary-thirteen"]


@dataclass
class Player:
    n: int
    rng: random.Random
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    answered: dict[int, list[str]] = field(default_factory=dict)  # game id -> moves


async def call(p: Player, c: httpx.AsyncClient, method: str, path: str,
               body: dict[str, Any] | None = None) -> dict[str, Any] | None:
    t = time.perf_counter()
    try:
        r = await c.request(method, path, json=body)
    except httpx.HTTPError as e:
        p.errors.append(f"{method} {path}: {e!r}")
        return None
    p.latencies.append(time.perf_counter() - t)
    if r.status_code >= 400:
        p.errors.append(f"{method} {path}: {r.status_code} {r.text[:200]}")
        return None
    data: dict[str, Any] = r.json()
    if "id" in data and "moves" in data:
        p.answered[int(data["id"])] = list(data["moves"])
    return data


async def play(p: Player, c: httpx.AsyncClient, end: float, think: float,
               max_moves: int) -> None:
    async with c:
        game: dict[str, Any] | None = None
        if think:  # players arrive over a moment, not all in the same millisecond
            await asyncio.sleep(p.rng.uniform(0, 2 * think))
        while time.perf_counter() < end:
            if game is None or game["status"] != "in play" or len(game["moves"]) >= max_moves:
                game = await call(p, c, "POST", "/api/games", {"game": p.rng.choice(GAMES)})
            elif game["moves"] and p.rng.random() < 0.1:
                game = await call(p, c, "POST", f"/api/games/{game['id']}/undo")
            else:
                move = p.rng.choice(game["legal"])["move"]
                game = await call(p, c, "POST", f"/api/games/{game['id']}/moves", {"move": move})
            if think:
                await asyncio.sleep(p.rng.uniform(0, 2 * think))


def lost_moves(db: str, players: list[Player]) -> tuple[int, int]:
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


def cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of process ``pid`` so far (Linux), else None. On a shared
    machine CPU per request is steadier than latency, which counts waits for a core."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000)[int(q * 1000) - 1] if len(values) > 1 else 0.0


async def run(url: str, players: int, seconds: float, think: float, seed: int,
              max_moves: int) -> tuple[list[Player], float]:
    """The players after the run, and the CPU seconds the load generator spent playing."""
    ps = [Player(i, random.Random(seed * 1000 + i)) for i in range(players)]
    # Clients are built before the clock starts: building one takes tens of milliseconds
    # (TLS setup), which would block the event loop and show up as server latency.
    clients = [httpx.AsyncClient(base_url=url, timeout=30) for _ in ps]
    cpu = time.process_time()
    end = time.perf_counter() + seconds
    await asyncio.gather(*(play(p, c, end, think, max_moves)
                           for p, c in zip(ps, clients, strict=True)))
    return ps, time.process_time() - cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--think", type=float, default=0.2,
                    help="mean pause between a player's requests, seconds (0: flat out)")
    ap.add_argument("--url", help="an already running server (no kill check then)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-moves", type=int, default=300,
                    help="a player deals again after this many moves (random play rarely ends)")
    args = ap.parse_args()

    from thirteen.web.process import ServerProcess

    server = None
    tmp = tempfile.TemporaryDirectory()
    if args.url:
        url = args.url
    else:
        server = ServerProcess(Path(tmp.name) / "load.sqlite3").start()
        url = server.url
    pid = server.proc.pid if server is not None and server.proc is not None else None
    server_cpu = cpu_seconds(pid) if pid is not None else None
    try:
        ps, client_cpu = asyncio.run(run(url, args.players, args.seconds, args.think, args.seed,
                                         args.max_moves))
    finally:
        if pid is not None and server_cpu is not None:
            now = cpu_seconds(pid)
            server_cpu = None if now is None else now - server_cpu
        if server is not None:
            server.kill()  # SIGKILL: whatever was answered must already be on disk
    lat = sorted(x for p in ps for x in p.latencies)
    errors = [e for p in ps for e in p.errors]
    print(f"players {args.players}, {args.seconds:.0f} s, think {args.think} s, server {url}")
    print(f"requests {len(lat)}  ({len(lat) / args.seconds:.0f} requests/s)")
    if lat:
        p50, p90, p99 = (1000 * pct(lat, q) for q in (0.5, 0.9, 0.99))
        print(f"latency ms: p50 {p50:.1f}  p90 {p90:.1f}  p99 {p99:.1f}  max {1000 * lat[-1]:.1f}")
    if lat:
        cpu = f"client {1000 * client_cpu / len(lat):.2f}"
        if server_cpu is not None:
            cpu = f"server {1000 * server_cpu / len(lat):.2f}, " + cpu
        print(f"CPU ms per request: {cpu}")
    print(f"errors {len(errors)}")
    for e in errors[:5]:
        print("  ", e)
    if server is not None:
        bad, checked = lost_moves(server.db, ps)
        print(f"lost moves: {bad} of {checked} games differ from their last answer "
              "after kill -9")
        slow = [line for line in server.errors().splitlines() if "slow request" in line]
        if slow:
            print(f"server: {len(slow)} slow requests, e.g. {slow[0]}")
    else:
        bad = 0
    tmp.cleanup()
    met = bool(lat) and 1000 * pct(lat, 0.99) < 50 and not errors and not bad
    print(f"target (p99 under 50 ms, no error, no lost move): {'met' if met else 'not met'}")
    return 1 if errors or bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
