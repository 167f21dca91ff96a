"""Run thirteen's solver and Freecell Solver 5.0.0 on the same boards, in one run.

    python bench/solver_vs_fcsolve.py GAME FIRST LAST [--fc-solve PATH] [--max-seconds S]
        [--worry-back]

GAME is one of bakers-dozen, good-measure, portuguese-solitaire, spanish-patience(-ii),
castles-in-spain. Each deal is converted with `thirteen.deal.format_board` to fc-solve's board
text (Castles in Spain is played open: no face-down marks) and given to fc-solve with the
settings PySolFC uses, alone and with fc-solve's multi-strategy line, with ``-sel -mi 1000000``.
Prints per solver: decided / solved / unsolvable / unknown counts, median, p95 and max seconds,
peak memory, and the ratio of our time to fc-solve's on the deals both decide and on the deals
fc-solve solves. Any deal that fc-solve solves and we call unsolvable is
printed as a CONFLICT (there must be none).

Castles in Spain is not quite the same game on both sides: fc-solve has no face-down cards, so
cards dealt face down may move there as part of a run (deal 34: with ``--sequence-move
unlimited`` fc-solve solves it by moving TC 9H, both face down in the real game, which we
prove lost), and with no free cells its default lets a run move only as far as spaces allow.
Its verdicts bound ours only loosely there; a CONFLICT would still need a look.

fc-solve with 13 columns: Debian's fc-solve 5.0.0 is built for at most 10 columns, so build the
same release from its source with ``cmake -DMAX_NUM_STACKS=13`` (the default path below is
/tmp/fcs-build/fc-solve; never commit the binary). Our side runs the mypyc build when
`thirteen compile-solver` has made one (``THIRTEEN_COMPILED_SOLVER=off``: the source); the
header line says which ran.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from thirteen.deal import deal, format_board
from thirteen.game import start_state
from thirteen.solver import Budget, solve
from thirteen.solver.build import running
from thirteen.variants import get_variant

FC_SOLVE = "/tmp/fcs-build/fc-solve"

SPANISH = ["--stacks-num", "13", "--freecells-num", "0", "--decks-num", "1",
           "--sequences-are-built-by", "rank", "--empty-stacks-filled-by", "any"]
GAME_ARGS: dict[str, list[str]] = {
    "bakers-dozen": ["-g", "bakers_dozen"],
    "good-measure": ["-g", "good_measure"],
    "portuguese-solitaire": ["--stacks-num", "13", "--freecells-num", "0", "--decks-num", "1",
                             "--sequences-are-built-by", "rank",
                             "--empty-stacks-filled-by", "kings"],
    "spanish-patience": SPANISH,
    "spanish-patience-ii": SPANISH,
    "castles-in-spain": ["--stacks-num", "13", "--freecells-num", "0", "--decks-num", "1"],
}
MULTI = ["-me", "a-star", "-step", "1000", "-nst", "-me", "a-star", "-sp", "r:tf", "-step",
         "1000", "-nst", "-me", "soft-dfs", "-sp", "r:tf", "-step", "1000"]
ITERATIONS = 1_000_000  # fc-solve's -mi: the positions it may check


@dataclass
class Run:
    verdict: str  # solved / unsolvable / unknown
    seconds: float
    mb: float


def board_text(game: str, number: int) -> str:
    layout = deal(get_variant(game), number)
    if layout.face_down:
        layout = dataclasses.replace(layout, face_down=())  # played open
    return format_board(layout)


def run_fc_solve(path: str, args: list[str], board: str, max_seconds: float,
                 iterations: int = ITERATIONS) -> Run:
    """One fc-solve run of at most ``iterations`` positions, timed and its peak memory read
    from the same process (wait4)."""
    with tempfile.TemporaryDirectory() as tmp:
        board_file = os.path.join(tmp, "deal.board")
        out_file = os.path.join(tmp, "out.txt")
        with open(board_file, "w") as f:
            f.write(board)
        with open(out_file, "w") as out:
            start = time.perf_counter()
            proc = subprocess.Popen([path, *args, "-sel", "-mi", str(iterations), board_file],
                                    stdout=out, stderr=subprocess.DEVNULL)
            timer = threading.Timer(max_seconds, proc.kill)
            timer.start()
            _, status, usage = os.wait4(proc.pid, 0)
            seconds = time.perf_counter() - start
            timer.cancel()
            proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        with open(out_file) as f:
            text = f.read()
    mb = usage.ru_maxrss / 1024
    if "This game is solveable" in text:
        return Run("solved", seconds, mb)
    if "I could not solve" in text:
        return Run("unsolvable", seconds, mb)
    return Run("unknown", seconds, mb)  # killed at max_seconds, or over -mi


def run_ours(game: str, number: int, budget: Budget, worry_back: bool = False) -> Run:
    variant = get_variant(game, worry_back=True) if worry_back else get_variant(game)
    state = start_state(variant, deal(variant, number))
    result = solve(state, budget)
    # The transposition table dominates memory: states times the estimated bytes per state.
    key_bytes = 14 + sum(len(c) + 1 for c in deal(get_variant(game), number).columns)
    mb = result.peak_states * (key_bytes + 33 + 80) / 2**20
    return Run(result.verdict, result.seconds, mb)


def record(path: str, game: str, deals: range, fc: dict[str, list[Run]]) -> None:
    """Merge fc-solve's decided verdicts into ``path``: {game: {deal: {setting: verdict}}}."""
    data = json.loads(Path(path).read_text()) if Path(path).exists() else {}
    for i, n in enumerate(deals):
        decided = {name: runs[i].verdict for name, runs in fc.items()
                   if runs[i].verdict != "unknown"}
        if decided:
            data.setdefault(game, {})[str(n)] = decided
    Path(path).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def summary(name: str, runs: list[Run]) -> str:
    counts = {v: sum(r.verdict == v for r in runs) for v in ("solved", "unsolvable", "unknown")}
    decided = counts["solved"] + counts["unsolvable"]
    times = sorted(r.seconds for r in runs)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    mbs = [r.mb for r in runs if r.mb == r.mb]
    return (f"{name:<18} decided {decided:4d}  solved {counts['solved']:4d}  unsolvable "
            f"{counts['unsolvable']:4d}  unknown {counts['unknown']:4d}  median "
            f"{statistics.median(times):8.4f} s  p95 {p95:8.3f} s  max {times[-1]:8.3f} s  "
            f"peak {max(mbs, default=float('nan')):8.1f} MB")


def ratio(ours: list[Run], theirs: list[Run], which: str) -> str:
    """Our time over fc-solve's on the deals both decide (``which="decide"``) or on the deals
    fc-solve solves (``"solves"``: our time counts whatever our verdict,
    the whole budget where we end unknown)."""
    pairs = [(a.seconds, b.seconds) for a, b in zip(ours, theirs, strict=True)
             if (b.verdict == "solved" if which == "solves"
                 else a.verdict != "unknown" and b.verdict != "unknown")]
    where = "it solves" if which == "solves" else "both decide"
    if not pairs:
        return f"no deal that {where}"
    total = sum(a for a, _ in pairs) / max(sum(b for _, b in pairs), 1e-9)
    per = statistics.median(a / max(b, 1e-9) for a, b in pairs)
    return (f"on the {len(pairs)} deals {where}: total time ratio (ours / fc-solve) "
            f"{total:.3f}, median per-deal ratio {per:.3f}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("game", choices=sorted(GAME_ARGS))
    p.add_argument("first", type=int)
    p.add_argument("last", type=int)
    p.add_argument("--fc-solve", default=FC_SOLVE, help=f"fc-solve binary (default {FC_SOLVE})")
    p.add_argument("--max-seconds", type=float, default=60.0, help="per deal and solver")
    p.add_argument("--max-mb", type=int, default=2048, help="our memory budget per deal")
    p.add_argument("--quiet", action="store_true", help="no line per deal")
    p.add_argument("--record", metavar="FILE",
                   help="add fc-solve's verdicts to this JSON file (tests/data/"
                        "fc-solve-verdicts.json: the tests check ours against them)")
    p.add_argument("--worry-back", action="store_true",
                   help="ours with worry_back on (fc-solve has none: a deal it solves is still "
                        "never unsolvable for us)")
    a = p.parse_args(argv)
    have_fc = os.access(a.fc_solve, os.X_OK)
    budget = Budget(max_nodes=None, max_seconds=a.max_seconds, max_mb=a.max_mb)
    deals = range(a.first, a.last + 1)
    ours: list[Run] = []
    fc: dict[str, list[Run]] = {"fc-solve": [], "fc-solve multi": []}
    conflicts = []
    for n in deals:
        r = run_ours(a.game, n, budget, a.worry_back)
        ours.append(r)
        line = f"{n:6d} ours {r.verdict:<10} {r.seconds:8.4f} s"
        if have_fc:
            board = board_text(a.game, n)
            for name, extra in (("fc-solve", []), ("fc-solve multi", MULTI)):
                f = run_fc_solve(a.fc_solve, GAME_ARGS[a.game] + extra, board, a.max_seconds)
                fc[name].append(f)
                line += f" | {name} {f.verdict:<10} {f.seconds:8.4f} s"
                if f.verdict == "solved" and r.verdict == "unsolvable":
                    conflicts.append((n, name))
        if not a.quiet:
            print(line, flush=True)
    print()
    game = a.game + (" with worry_back" if a.worry_back else "")
    print(f"# {game} deals {a.first}-{a.last}, budget {a.max_seconds:g} s and {a.max_mb} MB "
          f"per deal; {datetime.date.today()}, {platform.machine()} {os.cpu_count()} cores, "
          f"Python {platform.python_version()} ({running()})")
    print(summary("thirteen", ours))
    if have_fc:
        for name, runs in fc.items():
            print(summary(name, runs))
        for name, runs in fc.items():
            for which in ("decide", "solves"):
                print(f"thirteen vs {name}: {ratio(ours, runs, which)}")
        print(f"conflicts (fc-solve solved, thirteen unsolvable): {len(conflicts)}"
              + (f" {conflicts}" if conflicts else ""))
        if a.record:
            record(a.record, a.game, deals, fc)
    else:
        print(f"(fc-solve not found at {a.fc_solve}: only thirteen was run)")
    return 1 if conflicts else 0


if __name__ == "__main__":
    sys.exit(main())
