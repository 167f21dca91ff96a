"""Follow the hints from the start of Castles in Spain deals and check that no position comes
back: how many hints each deal took, and why it stopped (a limit, a won game, no move left, or
every move leading back to a position already played).

    python bench/fair_hints.py FIRST LAST HINTS

The hints are the players' own (`solver.hint` with the game's positions, 300,000 nodes each);
a repeated position is printed as REPEAT and would be a bug.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from thirteen.game import Game  # noqa: E402
from thirteen.solver import Budget, hint  # noqa: E402


def follow(number: int, limit: int) -> tuple[int, str]:
    """Hints given and why they stopped, for deal ``number``."""
    game = Game.new("castles-in-spain", number)
    for given in range(1, limit + 1):
        h = hint(game.state, Budget(max_nodes=300_000, max_mb=256), game.positions)
        if h.move is None:
            return given, f"{h.verdict}: {h.message}"
        game.push(h.move)
        if game.state in game.positions[:-1]:
            return given, "REPEAT"
        if game.state.won:
            return given, "won"
    return limit, "limit"


def main() -> None:
    first, last, limit = (int(a) for a in sys.argv[1:4])
    began, total = time.perf_counter(), 0
    for number in range(first, last + 1):
        given, why = follow(number, limit)
        total += given
        print(number, given, why[:70], flush=True)
    print(f"{total} hints in {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
