"""Micro-benchmark of `PackerState.legal_moves`: microseconds per call on positions reached by
random play in every Baker's Dozen family game, with and without ``worry_back``.

    python bench/legal_moves.py [--positions 200] [--repeat 20] [--seed 1]

The same positions (seeded) are timed every run, so two runs of two versions of the engine
compare like with like. The web server calls ``legal_moves`` once per answer.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from thirteen.game import Game  # noqa: E402
from thirteen.packer import PackerState  # noqa: E402
from thirteen.variants import GAMES, Variant  # noqa: E402


def positions(variant: Variant, count: int, rng: random.Random) -> list[PackerState]:
    """``count`` positions after 0-80 random legal moves from random deals."""
    out: list[PackerState] = []
    while len(out) < count:
        game = Game.new(variant, rng.randint(1, 10**6))
        for _ in range(rng.randint(0, 80)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
        assert isinstance(game.state, PackerState)
        out.append(game.state)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=200, help="positions per game and option")
    ap.add_argument("--repeat", type=int, default=20, help="calls per position")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    total_calls, total_time = 0, 0.0
    for v in GAMES.values():
        if v.family != "packer":
            continue
        for worry_back in (False, True) if not v.kings_down else (False,):
            states = positions(v.with_options(worry_back=worry_back) if worry_back else v,
                               args.positions, rng)
            t = time.perf_counter()
            for s in states:
                for _ in range(args.repeat):
                    s.legal_moves()
            took = time.perf_counter() - t
            calls = len(states) * args.repeat
            total_calls += calls
            total_time += took
            label = v.name + (" worry_back" if worry_back else "")
            print(f"{label:36s} {1e6 * took / calls:8.1f} µs per call")
    print(f"{'all':36s} {1e6 * total_time / total_calls:8.1f} µs per call")


if __name__ == "__main__":
    main()
