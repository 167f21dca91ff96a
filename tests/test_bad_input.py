"""Bad input to every command, run as a user runs it: one line on stderr, exit code 2, no
traceback, and every file left as it was, byte for byte (nothing created either)."""

from __future__ import annotations

import os
import pty
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thirteen.survey import connect, store_row

BIG_DEAL = "99999999999999999990-100000000000000000005"


def run(*args: str, cwd: Path, stdin: bytes = b"",
        tty: bool = False) -> subprocess.CompletedProcess[bytes]:
    """``thirteen ARGS`` in ``cwd``; with ``tty``, stdin and stdout a terminal (full screen)."""
    # HOME and XDG paths inside the folder: a default database or cache would show up there
    env = {**os.environ, "HOME": str(cwd), "XDG_DATA_HOME": str(cwd / "data"),
           "XDG_CACHE_HOME": str(cwd / "cache")}
    argv = [sys.executable, "-m", "thirteen.cli", *args]
    if not tty:
        return subprocess.run(argv, input=stdin, cwd=cwd, env=env, capture_output=True,
                              timeout=60)
    main, terminal = pty.openpty()
    try:
        proc = subprocess.Popen(argv, stdin=terminal, stdout=terminal, stderr=subprocess.PIPE,
                                cwd=cwd, env=env)
        os.write(main, b"q")  # should the game start after all, this ends it
        _, err = proc.communicate(timeout=60)
    finally:
        os.close(main)
        os.close(terminal)
    return subprocess.CompletedProcess(argv, proc.returncode, b"", err)


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file and folder under ``folder``: a file's bytes, None for a folder."""
    return {str(p.relative_to(folder)): None if p.is_dir() else p.read_bytes()
            for p in sorted(folder.rglob("*"))}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of files a user might pass by mistake, and one real survey database."""
    d = tmp_path_factory.mktemp("bad")
    (d / "text.txt").write_text("my notes\n")
    (d / "binary.bin").write_bytes(bytes(range(256)) * 4)
    (d / "empty.txt").write_bytes(b"")
    (d / "folder").mkdir()
    (d / "plain").write_text("a file, not a folder\n")
    (d / "big.txt").write_bytes(b"KH QH\n" * (10 * 1024 * 1024 // 6))
    with sqlite3.connect(d / "foreign.sqlite3") as c:
        c.execute("CREATE TABLE contacts (name TEXT)")
    c.close()
    db = connect(d / "survey.sqlite3")
    store_row(db, {"game": "bakers-dozen", "options": "{}", "deal": 1, "verdict": "solved",
                   "nodes": 10, "seconds": 0.1, "length": 50, "solver_version": "test"})
    db.close()
    return d


S = ("survey", "bakers-dozen", "--deals", "1", "--quiet", "--workers", "1")
CASES: dict[str, tuple[str, ...]] = {
    "survey into a text file": (*S, "--db", "text.txt"),
    "survey into a binary file": (*S, "--db", "binary.bin"),
    "survey into an empty file": (*S, "--db", "empty.txt"),
    "survey into a folder": (*S, "--db", "folder"),
    "survey under a file": (*S, "--db", "plain/survey.sqlite3"),
    "survey into another program's database": (*S, "--db", "foreign.sqlite3"),
    "survey deals SQLite cannot store": ("survey", "bakers-dozen", "--deals", BIG_DEAL,
                                         "--db", "survey.sqlite3"),
    "survey on a million processes": (*S[:-1], "1000000", "--db", "new.sqlite3"),
    "survey on an unreachable Dask scheduler": (*S, "--db", "new.sqlite3", "--engine", "dask",
                                                "--scheduler", "tcp://127.0.0.1:1"),
    "report of an empty file": ("report", "--all", "--db", "empty.txt"),
    "report of a text file": ("report", "--all", "--db", "text.txt"),
    "report of a binary file": ("report", "bakers-dozen", "--db", "binary.bin"),
    "report of a folder": ("report", "--all", "--db", "folder"),
    "report of a missing file": ("report", "--all", "--db", "missing.sqlite3"),
    "report of another program's database": ("report", "--all", "--db", "foreign.sqlite3"),
    "report of the missing default database": ("report", "--all"),
    "report plot into a missing folder": ("report", "--all", "--db", "survey.sqlite3",
                                          "--plot", "missing/x.png"),
    "report --all with options": ("report", "--all", "--worry-back", "--db", "survey.sqlite3"),
    "serve a text file": ("serve", "--db", "text.txt", "--port", "PORT_FREE"),
    "serve a folder": ("serve", "--db", "folder", "--port", "PORT_FREE"),
    "serve a survey database": ("serve", "--db", "survey.sqlite3", "--port", "PORT_FREE"),
    "serve under a file": ("serve", "--db", "plain/x.sqlite3", "--port", "PORT_FREE"),
    "serve on a port in use": ("serve", "--db", "new.sqlite3", "--port", "PORT_BUSY"),
    "serve on an unknown host": ("serve", "--db", "new.sqlite3", "--host", "no-such-host.invalid"),
    "compile into a file": ("compile-solver", "--dir", "plain"),
    "compile under a file": ("compile-solver", "--dir", "plain/build"),
    "check an illegal move": ("check", "bakers-dozen", "9", "c2-f", "c1-c1"),
    "check a malformed move": ("check", "bakers-dozen", "9", "c2-f", "zz"),
    "a binary board": ("deal", "bakers-dozen", "--board", "binary.bin"),
    "a 10 MB board": ("solve", "bakers-dozen", "--board", "big.txt"),
    "a 10 MB board on stdin": ("check", "bakers-dozen", "--board", "-"),
    "a deal number and a board": ("deal", "bakers-dozen", "5", "--board", "text.txt"),
    "a difficulty and a deal number": ("play", "bakers-dozen", "5", "--difficulty", "easy"),
    "a difficulty and a board": ("play", "bakers-dozen", "--board", "text.txt",
                                 "--difficulty", "hard"),
    "full screen: a text file": ("play", "bakers-dozen", "5", "--db", "text.txt"),
    "full screen: a folder": ("play", "bakers-dozen", "5", "--db", "folder"),
    "full screen: a survey database": ("play", "bakers-dozen", "--db", "survey.sqlite3"),
    "full screen: under a file": ("play", "bakers-dozen", "--db", "plain/x.sqlite3"),
}


@pytest.mark.parametrize("case", CASES)
def test_bad_input_is_one_line_exit_2_and_changes_nothing(case: str, files: Path) -> None:
    args = list(CASES[case])
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            ports = {"PORT_BUSY": busy.getsockname()[1], "PORT_FREE": free.getsockname()[1]}
        args = [str(ports.get(a, a)) for a in args]
        stdin = (files / "big.txt").read_bytes() if case.endswith("on stdin") else b"q\n"
        before = snapshot(files)
        r = run(*args, cwd=files, stdin=stdin, tty=case.startswith("full screen"))
    err = r.stderr.decode()
    assert r.returncode == 2, (r.returncode, err, r.stdout[-500:])
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and err.startswith("thirteen: ")
    assert b"playing at" not in r.stdout
    assert snapshot(files) == before


def test_a_report_only_reads(files: Path) -> None:
    before = snapshot(files)
    r = run("report", "--all", "--db", "survey.sqlite3", cwd=files)
    assert r.returncode == 0 and b"bakers-dozen" in r.stdout
    assert snapshot(files) == before  # not even SQLite's log files


MEMORY_LIMIT = 1024 * 1024 * 1024  # address space of the survey process (the range as a list:
#                                    800 GB)


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def test_a_huge_range_is_streamed_in_bounded_memory_and_resumed(tmp_path: Path) -> None:
    """A hundred billion deals: rows stored within seconds under a 1 GB limit of address
    space, a stop by SIGTERM clean, and a second run going on after the last stored deal."""
    import signal
    import time

    db = tmp_path / "survey.sqlite3"
    args = [sys.executable, "-m", "thirteen.cli", "survey", "bakers-dozen", "--deals",
            "1-100000000000", "--db", str(db), "--workers", "1", "--max-nodes", "500", "--quiet"]
    stored, peaks = [], []
    for _ in range(2):
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                preexec_fn=_limit_memory)
        time.sleep(4)
        status = Path(f"/proc/{proc.pid}/status").read_text()
        peaks.append(int(status.split("VmHWM:")[1].split()[0]) / 1024)  # peak RSS, MB
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err.decode()
        assert b"Traceback" not in err and b"of 100000000000 deals stored" in out
        with sqlite3.connect(db) as c:
            stored.append([d for (d,) in c.execute("SELECT deal FROM survey ORDER BY deal")])
        c.close()
    first, both = stored
    assert first and first == list(range(1, len(first) + 1))
    assert len(both) > len(first) and both == list(range(1, len(both) + 1))
    assert max(peaks) < 100, peaks  # MB: about 30 when measured


# ---- fuzzing: random argument lists and random bytes, never a traceback ----------------------
COMMANDS = ("games", "rules", "deal", "play", "check", "solve", "hint", "serve", "survey",
            "report", "compile-solver")
WORDS = ("bakers-dozen", "good-measure", "calculation", "castles-in-spain", "no-such-game",
         "--board", "--worry-back", "--foundations", "suit", "rank", "--format", "json",
         "board", "--plain", "--db", "--difficulty", "easy", "--max-nodes", "--max-mb",
         "--json", "--all", "--plot", "--markdown", "--data", "--deals", "--engine", "--host",
         "--port", "--dir", "--force", "-", "0", "1", "9", "-3", "c1-f", "c2-c3", "s-w2", "fH-c4",
         "100000000000000000000", "99999999999999999990-100000000000000000005", "1-3,2", "x",
         "BOARD", "TEXT", "DB", "FOLDER", "MISSING/x.png", "--version")


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An in-process `main` kept small: short budgets, databases and caches under
    ``tmp_path``, and the commands that would run for long (serving, compiling) stopped right
    after their checks."""
    import thirteen.solver.build as build
    import thirteen.web as web
    from thirteen.store import Store

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(web, "serve", lambda host, port, db, limits: Store(db).close())
    monkeypatch.setattr(build, "compile_solver", lambda out: build.build_dir(out or tmp_path))
    (tmp_path / "TEXT").write_text("notes\n")
    (tmp_path / "FOLDER").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def call_main(argv: list[str], stdin: bytes) -> tuple[int, str]:
    """``thirteen ARGV`` in this process: its exit code and its stderr."""
    import contextlib
    import io

    from thirteen.cli import main

    err = io.StringIO()
    real_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                code = main(argv)
            except SystemExit as e:  # argparse: --help, --version, usage errors
                code = e.code if isinstance(e.code, int) else 0
    finally:
        sys.stdin = real_stdin
    return code, err.getvalue()


LIMITS = {"solve": ["--max-seconds", "0.1"], "hint": ["--max-seconds", "0.1"],
          "survey": ["--max-seconds", "0.1", "--workers", "1", "--quiet"]}


@given(command=st.sampled_from(COMMANDS),
       words=st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=12)), max_size=6),
       board=st.binary(max_size=300), stdin=st.binary(max_size=200))
@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_random_arguments_and_bytes_never_raise(sandbox: Path, command: str, words: list[str],
                                                board: bytes, stdin: bytes) -> None:
    (sandbox / "BOARD").write_bytes(board)
    argv = [command, *words]
    if command == "survey":  # a short range at the end: the last --deals wins
        argv += ["--deals", "1-2"]
    if command == "play" and "--difficulty" in words:
        return  # drawing a deal of a difficulty is a solver run of its own (tested apart)
    code, err = call_main([*argv, *LIMITS.get(command, [])], stdin)
    assert code in (0, 1, 2, 3), (argv, code, err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1, (argv, err)


@given(board=st.binary(min_size=1, max_size=400))
@settings(max_examples=4, deadline=None)
def test_random_bytes_as_a_board_in_a_real_process(board: bytes) -> None:
    r = subprocess.run([sys.executable, "-m", "thirteen.cli", "solve", "bakers-dozen",
                        "--board", "-", "--max-seconds", "1"], input=board,
                       capture_output=True, timeout=60)
    assert r.returncode in (0, 2) and b"Traceback" not in r.stderr
    if r.returncode == 2:
        assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("game, number", [("good-measure", 5), ("calculation", 5),
                                          ("bakers-dozen", 417)])
@pytest.mark.parametrize("max_nodes", [10, 777, 1999])
def test_a_node_budget_is_spent_exactly(game: str, number: int, max_nodes: int) -> None:
    from thirteen.game import new_state
    from thirteen.solver import Budget, solve

    result = solve(new_state(game, number), Budget(max_nodes=max_nodes, max_seconds=None))
    assert result.verdict == "unknown" and result.reason == f"node budget of {max_nodes} spent"
    assert result.nodes == max_nodes
