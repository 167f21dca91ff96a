"""The compiled solver: built only from this source, searching exactly as the source;
signals during a search; the garbage collector paused while searches run."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_solver import QUICK

from thirteen.calculation import CalcState
from thirteen.game import new_state
from thirteen.moves import Move
from thirteen.solver import Budget, fair_play, solve
from thirteen.solver.clock import Clock


def _in_fresh_interpreter(build: Path, code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter asked to use the solver build in ``build``."""
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "THIRTEEN_COMPILED_SOLVER": str(build), "PYTHONPATH": str(src)}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True)


WHERE_ARE_THEY = ("import importlib; from thirteen.solver.build import NAMES\n"
                  "for m in NAMES:\n"
                  "    print(importlib.import_module('thirteen.solver.' + m).__file__)")


def test_a_compiled_build_is_used_only_when_built_from_this_source(tmp_path: Path) -> None:
    # Stand-ins for the mypyc build: modules of the same names in the build directory.
    from thirteen.solver.build import HERE, SOURCES, STAMP, source_digest

    for source in SOURCES:
        stand_in = tmp_path / source.relative_to(HERE)
        stand_in.parent.mkdir(exist_ok=True)
        shutil.copy(source, stand_in)
    (tmp_path / STAMP).write_text(source_digest())
    used = _in_fresh_interpreter(tmp_path, WHERE_ARE_THEY)
    assert used.stdout.split() == [str(tmp_path.resolve() / s.relative_to(HERE))
                                   for s in SOURCES]
    (tmp_path / STAMP).write_text("0" * 64)  # built from other sources: stale
    stale = _in_fresh_interpreter(tmp_path, WHERE_ARE_THEY)
    assert stale.stdout.split() == [str(s) for s in SOURCES]
    assert "was not built from" in stale.stderr
    off = _in_fresh_interpreter(Path("off"), WHERE_ARE_THEY)
    assert off.stdout.split() == [str(s) for s in SOURCES]


COMPARED = [(game, number) for game in ("bakers-dozen", "good-measure", "portuguese-solitaire",
                                        "spanish-patience", "castles-in-spain", "bisley")
            for number in (1, 2, 3)] + [("spanish-patience-rank", 1)]
CALC_COMPARED = [(game, number) for game in ("calculation", "imaginary-thirteen",
                                             "imaginary-thirteen-pysol")
                 for number in (1, 2, 3)]
SOLVE_ALL = f"""
import json
from thirteen.deal import Layout, deal
from thirteen.game import start_state
from thirteen.solver import Budget, fair_play, solve
from thirteen.solver.clock import Clock
from thirteen.solver.relaxed import Counted, Relaxed, fits
from thirteen.variants import get_variant
out = []
for game, number in {COMPARED + CALC_COMPARED!r}:
    v = get_variant(game)
    state = start_state(v, deal(v, number))
    r = solve(state, Budget(max_nodes=3000, max_seconds=600.0))
    out.append([r.verdict, r.nodes, [str(m) for m in r.moves]])
for game, number in {CALC_COMPARED!r}:
    v = get_variant(game)
    r = fair_play(start_state(v, deal(v, number)), samples=16)
    out.append([r.verdict, [str(m) for m in r.moves]])
for game, number in [("good-measure", 204), ("bakers-dozen", 1)]:  # rule D4's relaxed game
    v = get_variant(game)
    clock = Clock(Budget(None, None, None))
    counted = Counted(start_state(v, deal(v, number)), clock)
    verdict = Relaxed(counted).steps(30_000)
    out.append([verdict, clock.nodes, [hex(k) for k in sorted(counted.lost)[:50]]])
    out.append([Relaxed(counted, (2,)).steps(30_000), clock.nodes])  # hearts kept
    out.append([Relaxed(counted, (2,), 3).steps(30_000), clock.nodes])  # within 3 ranks
# counted keys too wide for the compiled counted game (13 columns, one of 16 cards: the last
# and the top card of every other): the search goes past 20,000 positions without rule D4
v = get_variant("bakers-dozen")
cols = [list(col) for col in deal(v, 3).columns]
wide = cols[:12] + [cols[12] + [col.pop() for col in cols[:12]]]
state = start_state(v, Layout(tuple(map(tuple, wide)), ((),) * 4, (0,) * 13))
r = solve(state, Budget(max_nodes=40_000, max_seconds=600.0))
out.append([fits(state), r.verdict, r.nodes, [str(m) for m in r.moves]])
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def compiled_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The build the set-up made (`thirteen compile-solver`) when it is up to date (compiling
    takes a minute); else one made here."""
    pytest.importorskip("mypyc")
    from thirteen.solver.build import compile_solver, default_dir, up_to_date

    made = default_dir()
    return made if up_to_date(made) else compile_solver(tmp_path_factory.mktemp("build"))


@pytest.mark.long
def test_the_compiled_build_searches_exactly_as_the_source(compiled_build: Path) -> None:
    """mypyc compiles the real packer search and the Calculation family's search and fair
    player; they must visit the same positions and give the same verdicts and moves as the
    source, on every game."""
    from thirteen.solver.build import running

    build = compiled_build
    files = _in_fresh_interpreter(build, WHERE_ARE_THEY).stdout.split()
    assert all(f.endswith(".so") and f.startswith(str(build.resolve())) for f in files)
    compiled = json.loads(_in_fresh_interpreter(build, SOLVE_ALL).stdout)
    source = json.loads(_in_fresh_interpreter(Path("off"), SOLVE_ALL).stdout)
    assert compiled == source
    assert source[-1][0] is False  # the layout with a long column does without rule D4
    assert {r[0] for r in source} >= {"solved", "unknown"}
    assert running() == "pure Python"  # this process runs the source (conftest)
    said = _in_fresh_interpreter(
        build, "from thirteen.solver.build import running; print(running())")
    assert said.stdout.strip() == "mypyc build"


#: The CLI in a fresh interpreter that says when it has imported the solver (loaded the build),
#: with Ctrl-C's handler even where this run began with Ctrl-C ignored (a background job)
CLI_WHEN_READY = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
                  "from thirteen.cli import main; import thirteen.solver\n"
                  "print('ready', flush=True); sys.exit(main(sys.argv[1:]))")


@pytest.mark.parametrize(("command", "sig"), [
    (["solve", "bakers-dozen", "47187", "--max-seconds", "60"], signal.SIGINT),
    (["survey", "good-measure", "--deals", "1-40", "--workers", "1", "--quiet"], signal.SIGTERM),
])
def test_a_signal_stops_a_compiled_search_cleanly(compiled_build: Path, tmp_path: Path,
                                                  command: list[str],
                                                  sig: signal.Signals) -> None:
    """Ctrl-C, or SIGTERM to a survey, while the compiled search runs in the process: exit 130,
    the survey stopped cleanly. CPython checks for signals inside arithmetic on big integers,
    and mypyc's runtime aborts the process ("fatal: out of memory") when a handler raises
    there: without `signals_held` most of these runs abort."""
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "THIRTEEN_COMPILED_SOLVER": str(compiled_build), "PYTHONPATH": str(src)}
    for delay in (1.0, 1.5, 2.0, 2.5):
        db = ["--db", str(tmp_path / f"{delay}.sqlite3")] if command[0] == "survey" else []
        proc = subprocess.Popen([sys.executable, "-c", CLI_WHEN_READY, *command, *db], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        time.sleep(delay)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
        assert (proc.returncode, err) == (130, ""), (delay, out, err)
        assert "mypyc build" in out or command[0] == "solve"
        assert "interrupted" in out or command[0] == "solve"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_a_search_waits_for_the_clocks_check(
        monkeypatch: pytest.MonkeyPatch, sig: signal.Signals) -> None:
    """A signal during a search is held until the clock's next check stops the search; then it
    goes to the handler it was meant for, and the handlers are as they were."""
    from thirteen.solver import clock as clock_module
    from thirteen.solver import common

    seen: list[int] = []
    original = clock_module.Clock.check

    def check(clock: Clock, held: int) -> None:
        if clock.nodes <= clock.every:
            os.kill(os.getpid(), sig)
            assert not seen  # held: the search's handler only noted it
        original(clock, held)

    monkeypatch.setattr(clock_module.Clock, "check", check)
    previous = signal.signal(sig, lambda signum, frame: seen.append(signum))
    try:
        state = new_state("bakers-dozen", 47187)
        with pytest.raises(KeyboardInterrupt):  # the handler let the process go on
            solve(state, Budget(max_nodes=100_000, max_seconds=600.0))
        assert seen == [sig]
        assert signal.getsignal(sig) is not common._note
        seen.clear()
        monkeypatch.setattr(clock_module.Clock, "check", original)
        assert solve(state, Budget(max_nodes=2_000, max_seconds=600.0)).verdict == "unknown"
        assert not seen
    finally:
        signal.signal(sig, previous)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_the_fair_player_between_two_moves(
        monkeypatch: pytest.MonkeyPatch, sig: signal.Signals) -> None:
    """A signal while the fair player chooses a move is held until that move is chosen; the
    game stops before the next one, and the signal goes to its own handler."""
    from thirteen.solver import common, fair

    seen: list[int] = []
    chosen: list[Move | None] = []
    original = fair.fair_move

    def fair_move(state: CalcState, samples: int) -> Move | None:
        os.kill(os.getpid(), sig)
        assert not seen  # held: the game's handler only noted it
        chosen.append(original(state, samples))
        return chosen[-1]

    monkeypatch.setattr(fair, "fair_move", fair_move)
    state = new_state("calculation", 1)
    assert isinstance(state, CalcState)
    previous = signal.signal(sig, lambda signum, frame: seen.append(signum))
    try:
        with pytest.raises(KeyboardInterrupt):  # the handler let the process go on
            fair_play(state, samples=4)
        assert (seen, len(chosen)) == ([sig], 1)
        assert signal.getsignal(sig) is not common._note
    finally:
        signal.signal(sig, previous)


def test_the_collector_is_paused_while_searches_run_and_restored_after() -> None:
    """`solve` pauses the cyclic collector; overlapping searches (threads of the web server)
    turn it back on only when the last ends, and never turn on one that was off."""
    import gc
    import threading

    from thirteen.solver.common import collector_paused

    assert gc.isenabled()
    seen: list[bool] = []
    first_in, second_done = threading.Event(), threading.Event()

    def first() -> None:
        with collector_paused():
            first_in.set()
            second_done.wait(10)
            seen.append(gc.isenabled())

    worker = threading.Thread(target=first)
    worker.start()
    first_in.wait(10)
    with collector_paused():
        seen.append(gc.isenabled())
    seen.append(gc.isenabled())  # the first search still runs
    second_done.set()
    worker.join()
    assert seen == [False, False, False] and gc.isenabled()
    gc.disable()
    try:
        solve(new_state("bakers-dozen", 1), QUICK)
        assert not gc.isenabled()
    finally:
        gc.enable()
