"""The fair players of the games with hidden cards: win rate with a 95% interval, CPU seconds per
game (and per move), and the ratio to the thoughtful rate on the same deals.

    python bench/fair_player.py GAME FIRST LAST [--samples 0,16,64] [--thoughtful-nodes N]

The Calculation family: one line per number of sampled stock orders (0: the experts' rule
alone), with the mean and the longest CPU time of one move (a hint's cost: `HINT_SAMPLES`
orders). Castles in Spain: "solve it for me" pressed until the game ends, as a player would
(`fair_play`: plans of `FAIR_NODES` positions while cards are hidden, then the solver with
`FAIR_END`; a line a game on stderr, won or not and its CPU seconds, shows the progress). With
``--thoughtful-nodes`` each deal is also solved with the stock order known, at that node budget:
a deal is thoughtfully winnable when the search solves it or the fair player wins it (a fair
win is a winning line), so the thoughtful figure is a lower bound and the ratio printed an
upper bound. Seconds are CPU seconds of this process (the machine may be shared).
"""

from __future__ import annotations

import argparse
import sys
import time

import deal_range

from thirteen.calculation import CalcState
from thirteen.game import State
from thirteen.report import wilson
from thirteen.solver import Budget, fair_move, fair_play, solve
from thirteen.solver.build import running


def rate(won: int, n: int) -> str:
    lo, hi = wilson(won, n)
    return f"{won}/{n} = {100 * won / n:.1f}% [{100 * lo:.1f}%, {100 * hi:.1f}%]"


def play(state: CalcState, samples: int, times: list[float]) -> bool:
    """Play the game out with the fair player, adding each move's CPU seconds to ``times``."""
    s = state
    while True:
        start = time.process_time()
        m = fair_move(s, samples)
        times.append(time.process_time() - start)
        if m is None:
            return s.won
        s = s.apply(m)


def press_solve(state: State, times: list[float]) -> bool:
    """Castles in Spain's fair player's game (`fair_play`: Solve pressed until the game ends),
    adding its CPU seconds to ``times``; whether it was won."""
    start = time.process_time()
    result = fair_play(state)
    times.append(time.process_time() - start)
    print(f"{result.verdict == 'solved'} {times[-1]:.2f} {len(result.moves)} moves",
          file=sys.stderr, flush=True)
    return result.verdict == "solved"


def sample_counts(text: str) -> list[int]:
    """``--samples``: sampled stock orders a move, one or more, each 0 or more."""
    try:
        counts = [int(s) for s in text.split(",")]
    except ValueError:
        counts = []
    if not counts or min(counts) < 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not a list of sample counts like 0,16,64")
    return counts


def fair_games(states: list[State], samples: list[int]) -> tuple[set[int], set[int]]:
    """Play every deal fairly, printing a line per player; the deals any player won, and those
    the last one won."""
    n = len(states)
    calc = [s for s in states if isinstance(s, CalcState)]
    if len(calc) < n:  # Castles in Spain: one player, Solve
        times: list[float] = []
        won = {i for i, s in enumerate(states) if press_solve(s, times)}
        print(f"fair player, Solve until the game ends: {rate(len(won), n)}, "
              f"{sum(times) / n:.3f} s a game, {max(times):.3f} s at most", flush=True)
        return won, won
    fair_won: set[int] = set()
    last: set[int] = set()
    for count in samples:
        times = []
        last = {i for i, s in enumerate(calc) if play(s, count, times)}
        fair_won |= last
        print(f"fair player, {count} samples: {rate(len(last), n)}, {sum(times) / n:.3f} s a "
              f"game, a move {sum(times) / len(times):.4f} s on average and "
              f"{max(times):.3f} s at most", flush=True)
    return fair_won, last


def main() -> None:
    parser = deal_range.parser(__doc__)
    parser.add_argument("--samples", type=sample_counts,
                        help="the Calculation family only (default 64)")
    parser.add_argument("--thoughtful-nodes", type=int, default=0)
    args = parser.parse_args()
    states = deal_range.start_states(args)
    if not states:
        parser.error(f"no deal from {args.first} to {args.last}")
    if not states[0].hides_cards:
        parser.error(f"{args.game} hides no card: it has no fair player")
    if args.samples is not None and not isinstance(states[0], CalcState):
        parser.error("--samples is for the Calculation family, whose fair player samples")
    args.samples = args.samples or [64]
    n = len(states)
    print(f"{args.game} deals {args.first}-{args.last}, {running()}", flush=True)
    fair_won, last = fair_games(states, args.samples)
    if args.thoughtful_nodes:
        start = time.process_time()
        budget = Budget(max_nodes=args.thoughtful_nodes, max_seconds=3600.0)
        solved = {i for i, s in enumerate(states) if solve(s, budget).verdict == "solved"}
        seconds = (time.process_time() - start) / n
        winnable = solved | fair_won
        print(f"thoughtful at {args.thoughtful_nodes} nodes: {len(solved)} solved, "
              f"{rate(len(winnable), n)} winnable with the fair wins, {seconds:.3f} s a deal; "
              f"last fair player / thoughtful: {len(last) / len(winnable):.3f}", flush=True)


if __name__ == "__main__":
    main()
