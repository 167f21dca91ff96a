"""A survey on a real Dask cluster: a scheduler and two workers started as separate processes
with the ``dask`` command, as an operator starts them on several machines."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from thirteen.survey import rows, survey

DASK = str(Path(sys.executable).with_name("dask"))
# Bisley under a node budget: reproducible verdicts of all three kinds, about 0.1 s a deal.
GAME, DEALS, NODES = "bisley", "1-60", 20_000
KEY = ("game", "options", "deal", "verdict", "nodes", "length", "solver_version")


def stored(db: Path) -> list[tuple[Any, ...]]:
    return [tuple(r[k] for k in KEY) for r in rows(db)]


def done(db: Path) -> int:
    """Rows stored so far: none while the survey is still creating its file."""
    try:
        return len(rows(db))
    except (ValueError, sqlite3.Error):  # the file exists before its table does
        return 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen([DASK, *args, "--no-dashboard"], stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """``dask scheduler`` and two single-threaded ``dask worker`` processes on loopback."""
    from distributed import Client

    address = f"tcp://127.0.0.1:{free_port()}"
    procs = [start("scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                   log=tmp_path / "scheduler.log")]
    procs += [start("worker", address, "--nthreads", "1", "--nworkers", "1",
                    "--local-directory", str(tmp_path / f"worker{i}"),
                    log=tmp_path / f"worker{i}.log") for i in range(2)]
    try:
        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, procs[1:]
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            p.wait(timeout=30)


@pytest.fixture(scope="module")
def local_rows(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Any, ...]]:
    db = tmp_path_factory.mktemp("local") / "survey.sqlite3"
    summary = survey(GAME, DEALS, db, workers=1, max_nodes=NODES, max_seconds=600.0)
    assert not summary.errors
    return stored(db)


def test_a_survey_through_a_cluster_stores_the_rows_of_a_local_survey(
        cluster: tuple[str, list[subprocess.Popen[bytes]]], tmp_path: Path,
        local_rows: list[tuple[Any, ...]]) -> None:
    db = tmp_path / "cluster.sqlite3"
    summary = survey(GAME, DEALS, db, engine="dask", scheduler=cluster[0], max_nodes=NODES,
                     max_seconds=600.0)
    assert summary.solved_now == 60 and not summary.errors
    assert stored(db) == local_rows
    assert {"solved", "unsolvable", "unknown"} == {r[3] for r in local_rows}


def test_killing_a_worker_mid_survey_loses_nothing(
        cluster: tuple[str, list[subprocess.Popen[bytes]]], tmp_path: Path,
        local_rows: list[tuple[Any, ...]]) -> None:
    address, workers = cluster
    db = tmp_path / "killed.sqlite3"
    run = subprocess.Popen(
        [sys.executable, "-m", "thirteen.cli", "survey", GAME, "--deals", DEALS, "--engine",
         "dask", "--scheduler", address, "--max-nodes", str(NODES), "--max-seconds", "600",
         "--db", str(db), "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while done(db) < 5 and time.monotonic() < deadline:
        time.sleep(0.05)
    done_at_kill = done(db)
    os.killpg(workers[0].pid, signal.SIGKILL)  # the worker and its nanny, mid-deal
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    assert 5 <= done_at_kill < 60  # killed mid-survey
    assert stored(db) == local_rows  # its deals were done again by the other worker
