"""Which of rule D4's games of a deal are lost, won, or larger than a cap.

    python bench/relaxed_games.py [GAME:FIRST-LAST ...] [--unknown GAME [--tried S]]
                                  [--cap N]

Why: a deal is proved lost by D4 only if one of its relaxed games is lost (docs/solver.md,
*D4*). Where every one of them is won, no budget lets D4 prove the deal lost: it is won, or its
proof needs another argument; a game still going at the cap is one D4 might yet decide with more
room. For each deal this plays the counted game of the start, the relaxed game, then each suit
kept within each of `WINDOWS` in the portfolio's order (every suit within the narrowest, then
those won there within the next: `schedule.first_kept` and `wider`), then each pair of suits
kept in the same way (up to `KEPT_SUITS` suits), each up to N positions, and
prints a line a game: its verdict (lost, won or capped), positions and CPU seconds. It stops at
the first lost one. With ``--unknown GAME`` the deals are those the committed survey data leaves
unknown (with ``--tried S``, by a budget of at least S seconds). Only Baker's Dozen, Good
Measure and Portuguese Solitaire have these games.
"""

from __future__ import annotations

import argparse
import time

import deal_range
import survey_data

from thirteen.arguments import positive_count, positive_seconds
from thirteen.game import new_state
from thirteen.packer import PackerState
from thirteen.solver import Budget
from thirteen.solver.clock import Clock
from thirteen.solver.packer.schedule import describe, first_kept, wider
from thirteen.solver.packer.tuning import KEPT_SUITS
from thirteen.solver.relaxed import Counted, Relaxed, fits

GAMES = ("bakers-dozen", "good-measure", "portuguese-solitaire")
SLICE = 100_000  # positions between two looks at the cap


def play(game: Relaxed, cap: int) -> tuple[str, int, float]:
    """Search ``game`` until it is decided or holds ``cap`` positions: its verdict, the
    positions it holds, the CPU seconds it took."""
    start = time.process_time()
    verdict = ""
    while not verdict:
        verdict = game.steps(min(SLICE, cap))
        if not verdict and len(game.seen) >= cap:
            verdict = "capped"
    return verdict, len(game.seen), time.process_time() - start


def deal_games(name: str, number: int, cap: int) -> None:
    """Print the verdicts of the D4 games of one deal, in the portfolio's order."""
    state = new_state(name, number)
    assert isinstance(state, PackerState)
    if not fits(state):
        print(name, number, "its counted keys do not fit: no D4", flush=True)
        return
    counted = Counted(state, Clock(Budget(max_nodes=None, max_seconds=None, max_mb=None)))
    start = time.process_time()
    won = counted.ask(counted.start, cap)
    verdict = {1: "won", 0: "lost"}.get(won, "capped")
    print(name, number, "counted", verdict, f"{time.process_time() - start:.1f}s", flush=True)
    if verdict == "lost":
        return
    games = [Relaxed(counted), *first_kept(counted)]
    suits = 1
    while games:
        game = games.pop(0)
        verdict, held, took = play(game, cap)
        print(name, number, f"{describe(game)}:", verdict, held, f"{took:.1f}s", flush=True)
        if verdict == "lost":
            return
        next_game = wider(game) if verdict == "won" else None
        if next_game is not None:
            games.append(next_game)
        if not games and suits < KEPT_SUITS:
            suits += 1
            games = first_kept(counted, suits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deals", nargs="*", type=deal_range.spec, help="GAME:FIRST-LAST")
    parser.add_argument("--unknown", choices=GAMES, metavar="GAME",
                        help="the deals the committed survey data leaves unknown")
    parser.add_argument("--tried", type=positive_seconds, metavar="S",
                        help="with --unknown: only those left unknown by at least S seconds")
    parser.add_argument("--cap", type=positive_count, default=3_000_000,
                        help="positions a game may hold")
    args = parser.parse_args()
    deals = [(g, n) for g, first, last in args.deals for n in range(first, last + 1)]
    if args.unknown:
        survey_data.require(parser, [args.unknown])
        deals += [(args.unknown, n) for n in survey_data.unknown(args.unknown, args.tried or 0.0)]
    if not deals or any(g not in GAMES for g, _ in deals):
        parser.error(f"name deals of {', '.join(GAMES)}")
    for game, number in deals:
        deal_games(game, number, args.cap)


if __name__ == "__main__":
    main()
