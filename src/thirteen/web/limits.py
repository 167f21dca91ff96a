"""Limits on what a client may create: games per player and per address, and new players
(cookies) per address, each a token bucket refilled at so many a minute. The defaults are far
above what a person does (a new deal every second for a minute) and stop a script that
creates hundreds a second; the options of ``thirteen serve`` change them."""

from __future__ import annotations

import argparse
import math
import time
from collections import OrderedDict
from dataclasses import dataclass

KEYS = 100_000  # players or addresses remembered per bucket kind (memory stays bounded)


@dataclass(frozen=True)
class Limits:
    """The server's limits (``thirteen serve`` options)."""

    player_games: int = 60  # new games a minute per player
    address_games: int = 600  # new games a minute per client address
    address_players: int = 120  # new players (cookies) a minute per client address
    solver_wait: float = 20.0  # seconds a request may wait for the solver before 503
    solve_seconds: float = 5.0  # CPU seconds "solve it for me" searches or plays

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Limits:
        """The limits given as options of ``thirteen serve``."""
        return cls(args.player_games, args.address_games, args.address_players,
                   args.solver_wait, args.solve_seconds)


class Bucket:
    """``per_minute`` takes a minute per key, refilled evenly, in bursts up to ``per_minute``."""

    def __init__(self, per_minute: int) -> None:
        self.size = float(per_minute)
        self.rate = per_minute / 60.0
        self.keys: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> tokens, when

    def take(self, key: str, now: float | None = None) -> int:
        """0 if ``key`` may go on (a token is taken); else the whole seconds until it may."""
        now = time.monotonic() if now is None else now
        tokens, then = self.keys.get(key, (self.size, now))
        tokens = min(self.size, tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self.keys[key] = (tokens, now)
            return max(1, math.ceil((1.0 - tokens) / self.rate))
        self.keys[key] = (tokens - 1.0, now)
        self.keys.move_to_end(key)
        while len(self.keys) > KEYS:
            self.keys.popitem(last=False)
        return 0
