"""Bad input to every command, run as a user runs it: one line on stderr, exit code 2, no
traceback, and every file left as it was, byte for byte (nothing created either)."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from thirteen.survey import connect, store_row

BIG_DEAL = "99999999999999999990-100000000000000000005"


def run(*args: str, cwd: Path, stdin: bytes = b"",
        timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    # HOME and XDG paths inside the folder: a default database or cache would show up there
    env = {**os.environ, "HOME": str(cwd), "XDG_DATA_HOME": str(cwd / "data"),
           "XDG_CACHE_HOME": str(cwd / "cache")}
    return subprocess.run([sys.executable, "-m", "thirteen.cli", *args], input=stdin, cwd=cwd,
                          env=env, capture_output=True, timeout=timeout)


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
    "a database for plain play": ("play", "bakers-dozen", "5", "--plain", "--db", "x.sqlite3"),
    "a database for piped play": ("play", "bakers-dozen", "5", "--db", "x.sqlite3"),
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
        r = run(*args, cwd=files, stdin=stdin)
    err = r.stderr.decode()
    assert r.returncode == 2, (r.returncode, err, r.stdout[-500:])
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and err.startswith("thirteen: ")
    assert b"playing at" not in r.stdout
    assert snapshot(files) == before
