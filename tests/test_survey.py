"""Winnability surveys: the interval, resuming after a kill, retries, the Dask path, the
Calculation family's fair verdicts, and the command (the report: test_report.py)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_report import fake_row

from thirteen import priority
from thirteen.cli import main
from thirteen.game import new_state
from thirteen.priority import AUTOGROUP
from thirteen.report import percentile, wilson, winnability_interval
from thirteen.survey import (
    Engine,
    connect,
    merge,
    parse_deals,
    rows,
    store_row,
    survey,
    todo_deals,
)
from thirteen.variants import GAMES
from thirteen.workers import Row, local_cluster, solver_version, worker_pool

# A node budget (never the clock) makes every verdict reproducible: Bisley's deals 1-40 under
# 5000 nodes give solved, unsolvable and unknown deals, in about two seconds.
GAME, DEALS, NODES = "bisley", "1-40", 5000
LONG = 120
LONG_DEALS = f"1-{LONG}"
BUDGET: dict[str, Any] = {"max_nodes": NODES, "max_seconds": 600.0, "max_mb": 512}
KEY = ("game", "options", "deal", "verdict", "nodes", "length", "solver_version")
VERSION = solver_version()


def stored(db: Path) -> list[tuple[Any, ...]]:
    return [tuple(r[k] for k in KEY) for r in rows(db)]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Any, ...]]:
    """The rows of an uninterrupted survey, solved in this process."""
    db = tmp_path_factory.mktemp("ref") / "survey.sqlite3"
    summary = survey(GAME, DEALS, db, workers=1, **BUDGET)
    assert summary.solved_now == 40 and not summary.errors
    out = stored(db)
    verdicts = {r[3] for r in out}
    assert verdicts == {"solved", "unsolvable", "unknown"}, verdicts  # the test covers all three
    return out


@pytest.fixture(scope="module")
def long_reference(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Any, ...]]:
    """The rows of an uninterrupted survey of `LONG_DEALS`: long enough that a kill sent once
    eight rows are stored finds the survey still running, however loaded the machine."""
    db = tmp_path_factory.mktemp("long") / "survey.sqlite3"
    assert survey(GAME, LONG_DEALS, db, workers=1, **BUDGET).solved_now == LONG
    return stored(db)


# ---- the interval --------------------------------------------------------------------------
@pytest.mark.parametrize(("k", "n", "low", "high"), [
    # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (score, no correction)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    # and the mirror images
    (20, 20, 1 - 0.1611, 1.0),
])
def test_wilson_interval_matches_published_values(k: int, n: int, low: float,
                                                  high: float) -> None:
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


def test_wilson_edges() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(50, 100)
    assert lo + hi == pytest.approx(1.0)
    assert wilson(1, 10)[0] > 0
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_unknowns_count_lost_below_and_won_above() -> None:
    """Blake & Gent: the lower bound treats unknown deals as lost, the upper as won."""
    lo, hi = winnability_interval(700, 50, 1000)
    assert lo == wilson(700, 1000)[0]
    assert hi == wilson(750, 1000)[1]
    assert winnability_interval(700, 0, 1000) == wilson(700, 1000)
    # their Spanish Patience figure, 99.863% of 10^7 deals: a half width of about 0.003%
    lo, hi = winnability_interval(9_986_300, 0, 10_000_000)
    assert 0.00002 < (hi - lo) / 2 < 0.00003


def test_percentile_is_nearest_rank() -> None:
    values = list(range(1, 101))
    assert percentile(values, 50) == 50
    assert percentile(values, 95) == 95
    assert percentile(values, 100) == 100
    assert percentile([3.0], 95) == 3.0


def test_deal_ranges() -> None:
    assert parse_deals("1-10") == [(1, 10)]
    assert parse_deals("7") == [(7, 7)]
    assert parse_deals("20-30,1-10,11-12,25-40") == [(1, 12), (20, 40)]
    for bad in ("", "0-5", "9-3", "a-b"):
        with pytest.raises(ValueError):
            parse_deals(bad)


# ---- resuming ------------------------------------------------------------------------------
@pytest.mark.parametrize(("sig", "workers"), [(signal.SIGKILL, 1), (signal.SIGTERM, 2)])
def test_survey_killed_and_resumed_stores_the_same_rows(
        tmp_path: Path, long_reference: list[tuple[Any, ...]], sig: signal.Signals,
        workers: int) -> None:
    """Kill the `thirteen survey` process part way; the same command then completes it.

    SIGKILL gives the survey no chance to tidy up; SIGTERM stops it and its pool cleanly."""
    db = tmp_path / "killed.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    command = [sys.executable, "-m", "thirteen.cli", "survey", GAME, "--deals", LONG_DEALS,
               "--workers", str(workers), "--max-nodes", str(NODES), "--max-seconds", "600",
               "--max-mb", "512", "--db", str(db), "--quiet"]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 600
        done = 0
        while done < 8 and time.monotonic() < deadline:
            time.sleep(0.02)
            if db.exists():
                with sqlite3.connect(db) as c:
                    try:
                        done = c.execute("SELECT COUNT(*) FROM survey").fetchone()[0]
                    except sqlite3.OperationalError:  # table not created yet
                        done = 0
        proc.send_signal(sig)
    finally:
        proc.wait(120)
    assert proc.returncode == (-signal.SIGKILL if sig == signal.SIGKILL else 130)
    partial = stored(db)
    assert 8 <= len(partial) < LONG, "kill the survey part way"
    assert set(partial) <= set(long_reference)  # what was stored before the kill is kept as it was

    out = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert f"this run {LONG - len(partial)} in" in out.stdout  # only the deals not yet stored
    assert stored(db) == long_reference


def test_pool_survey_interrupted_after_k_results_then_resumed(
        tmp_path: Path, reference: list[tuple[Any, ...]]) -> None:
    """Ctrl-C during a two-process survey stops it cleanly; the rerun solves only the rest."""
    db = tmp_path / "interrupted.sqlite3"
    seen: list[Row] = []

    def interrupt_after_five(row: Row) -> None:
        seen.append(row)
        if len(seen) == 5:
            raise KeyboardInterrupt

    first = survey(GAME, DEALS, db, workers=2, on_row=interrupt_after_five, **BUDGET)
    assert first.interrupted and first.solved_now == 5
    assert len(stored(db)) == 5
    second = survey(GAME, DEALS, db, workers=2, **BUDGET)
    assert not second.interrupted and second.stored_before == 5 and second.solved_now == 35
    assert stored(db) == reference
    assert survey(GAME, DEALS, db, workers=2, **BUDGET).solved_now == 0  # nothing left


@given(stored=st.sets(st.integers(1, 60)),
       spans=st.lists(st.tuples(st.integers(1, 60), st.integers(0, 12)), min_size=1, max_size=4))
@settings(max_examples=60, deadline=None)
def test_the_deals_to_do_are_the_range_less_the_stored_deals(
        stored: set[int], spans: list[tuple[int, int]]) -> None:
    """Streamed, and the stored deals read a few at a time (chunks of 3 here)."""
    import thirteen.survey as survey_module

    merged = parse_deals(",".join(f"{lo}-{lo + n}" for lo, n in spans))
    wanted = sorted({d for lo, hi in merged for d in range(lo, hi + 1)} - stored)
    chunk = survey_module.STORED_CHUNK
    with tempfile.TemporaryDirectory() as folder:
        db = connect(Path(folder, "s.sqlite3"))
        for deal in stored:
            store_row(db, {"game": GAME, "options": "{}", "deal": deal, "verdict": "solved",
                           "nodes": 1, "seconds": 0.0, "solver_version": "test"})
        survey_module.STORED_CHUNK = 3
        try:
            assert list(todo_deals(db, GAME, "{}", merged)) == wanted
        finally:
            survey_module.STORED_CHUNK = chunk
            db.close()


def test_retry_unknown_solves_only_the_unknowns_again(
        tmp_path: Path, reference: list[tuple[Any, ...]]) -> None:
    db = tmp_path / "retry.sqlite3"
    survey(GAME, "1-40", db, workers=1, **BUDGET)
    larger = {**BUDGET, "max_nodes": 2 * NODES}
    with connect(db) as c:
        unknown = [d for (d,) in c.execute("SELECT deal FROM survey WHERE verdict = 'unknown'")]
        assert list(todo_deals(c, GAME, "{}", [(1, 40)], (600.0, 2 * NODES, 512, VERSION))) \
            == unknown
    again = survey(GAME, "1-40", db, workers=1, retry_unknown=True, **larger)
    assert again.solved_now == len(unknown)
    assert len(stored(db)) == 40
    with connect(db) as c:
        still = [d for (d,) in c.execute("SELECT deal FROM survey WHERE verdict = 'unknown'")]
    assert still  # some deals stay unknown at twice the positions


@pytest.mark.parametrize(("limit", "more"), [("max_nodes", 1), ("max_seconds", 1.0),
                                             ("max_mb", 1)])
def test_a_retry_skips_the_unknowns_tried_with_as_large_a_budget(
        tmp_path: Path, limit: str, more: float) -> None:
    """An interrupted retry resumes where it stopped: an unknown that this solver already
    tried with at least the budget in every limit is not solved again; one more of any limit,
    or another solver, tries it again; no limit is larger than every number."""
    db = tmp_path / "retry.sqlite3"
    survey(GAME, "1-40", db, workers=1, **BUDGET)
    with connect(db) as c:
        unknown = [d for (d,) in c.execute("SELECT deal FROM survey WHERE verdict = 'unknown'")]
        assert list(todo_deals(c, GAME, "{}", [(1, 40)], (600.0, NODES, 512, VERSION))) == []
        assert list(todo_deals(c, GAME, "{}", [(1, 40)], (600.0, NODES, 256, VERSION))) == []
        assert list(todo_deals(c, GAME, "{}", [(1, 40)], (None, NODES, 512, VERSION))) \
            == unknown
        assert list(todo_deals(c, GAME, "{}", [(1, 40)], (600.0, NODES, 512, "other"))) \
            == unknown
    assert survey(GAME, "1-40", db, workers=1, retry_unknown=True, **BUDGET).solved_now == 0
    again = survey(GAME, "1-40", db, workers=1, retry_unknown=True,
                   **{**BUDGET, limit: BUDGET[limit] + more})
    assert again.solved_now == len(unknown)
    with connect(db) as c:
        c.execute("UPDATE survey SET max_seconds = NULL")
        assert list(todo_deals(c, GAME, "{}", [(1, 40)], (None, NODES, 512, VERSION))) == []


def test_a_stored_length_is_the_shortened_lines(reference: list[tuple[Any, ...]]) -> None:
    # the line a player is shown (`solve(..., shorten=True)`), never longer than the line found
    from thirteen.game import new_state
    from thirteen.solver import Budget, solve

    budget = Budget(**BUDGET)
    lengths = {deal: length for _, _, deal, verdict, _, length, _ in reference
               if verdict == "solved"}
    cut = 0
    for deal in sorted(lengths, key=lambda d: -lengths[d])[:3]:  # the longest lines
        found = solve(new_state(GAME, deal), budget)
        shortened = solve(new_state(GAME, deal), budget, shorten=True)
        assert lengths[deal] == len(shortened.moves) <= len(found.moves)
        cut += len(found.moves) - lengths[deal]
    assert cut > 0  # and shortening did cut something


# ---- Dask ----------------------------------------------------------------------------------
def test_dask_local_cluster_stores_the_same_rows(
        tmp_path: Path, reference: list[tuple[Any, ...]]) -> None:
    db = tmp_path / "dask.sqlite3"
    with socket.socket() as other, warnings.catch_warnings():
        # another cluster's HTTP server on Dask's port is no clash and no warning
        with contextlib.suppress(OSError):
            other.bind(("127.0.0.1", 8787))
            other.listen()
        warnings.simplefilter("error", UserWarning)
        summary = survey(GAME, "1-12", db, engine="dask", workers=2, processes=False, **BUDGET)
    assert summary.solved_now == 12 and not summary.errors
    assert stored(db) == reference[:12]
    resumed = survey(GAME, DEALS, db, engine="dask", workers=2, processes=False, **BUDGET)
    assert resumed.stored_before == 12 and resumed.solved_now == 28
    assert stored(db) == reference


AUTOGROUPS = AUTOGROUP.exists()  # whether this kernel schedules sessions as groups


class _Refusing:
    """An autogroup file that refuses its first ``refusals`` writes as Linux does a write that
    comes within a tenth of a second of another (EAGAIN), and keeps what it takes."""

    def __init__(self, refusals: int) -> None:
        self.refusals = refusals
        self.written: list[str] = []

    def write_text(self, text: str) -> None:
        if self.refusals:
            self.refusals -= 1
            raise BlockingIOError(11, "Resource temporarily unavailable")
        self.written.append(text)


def test_workers_starting_together_take_turns_to_lower_their_group(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without CAP_SYS_ADMIN, Linux takes one write of an autogroup's nice a tenth of a second,
    machine-wide: a pool's workers starting together are refused but one, so each tries again,
    for a while."""
    soon = _Refusing(2)
    priority._set_group_nice(soon, 19)  # type: ignore[arg-type]
    assert soon.written == ["19\n"]
    monkeypatch.setattr(priority, "GROUP_WAIT", 0.3)
    never = _Refusing(1000)
    began = time.monotonic()
    priority._set_group_nice(never, 19)  # type: ignore[arg-type]
    tries = 1000 - never.refusals
    assert never.written == [] and tries == 1 + round(priority.GROUP_WAIT / 0.1)
    assert time.monotonic() - began < 2 * priority.GROUP_WAIT  # it gives up


def test_a_surveys_worker_processes_yield_the_machine() -> None:
    """A survey is background work: the processes of its pool and of its local Dask cluster
    run in the idle scheduling class, so that a server or a player on the same machine goes
    first, each in a session of its own whose autogroup is at nice 19, so that work of other
    sessions goes first too; the survey's own process and session are not lowered."""
    session = os.getsid(0)
    group = AUTOGROUP.read_text() if AUTOGROUPS else ""
    with worker_pool(1) as pool:
        assert pool.apply(os.sched_getscheduler, (0,)) == os.SCHED_IDLE
        assert pool.apply(os.getsid, (0,)) == pool.apply(os.getpid)
        if AUTOGROUPS:
            assert pool.apply(AUTOGROUP.read_text).split()[-1] == "19"
    cluster, client = local_cluster(1)
    try:
        assert set(client.run(os.sched_getscheduler, 0).values()) == {os.SCHED_IDLE}
        assert client.run(os.getsid, 0) == client.run(os.getpid)
    finally:
        client.close()
        cluster.close()
    assert os.sched_getscheduler(0) != os.SCHED_IDLE and os.getsid(0) == session
    assert (AUTOGROUP.read_text() if AUTOGROUPS else "") == group


# ---- the Calculation family -----------------------------------------------------------------
def test_calculation_rows_carry_the_fair_players_verdict(tmp_path: Path) -> None:
    db = tmp_path / "calc.sqlite3"
    summary = survey("calculation", "1-3", db, workers=1, max_nodes=20_000, max_seconds=10.0)
    assert summary.solved_now == 3, summary.errors
    for row in rows(db):
        assert row["fair_verdict"] in ("won", "lost")
        if row["fair_verdict"] == "won":  # what the fair player wins is winnable
            assert row["verdict"] == "solved"


def no_fair_play(*args: object, **kwargs: object) -> None:
    raise AssertionError("the fair player played")


# Calculation deals 2-4 are solved within 20,000 positions, deal 1 is not: fast and the same on
# every machine (no clock)
CALC_BUDGET: dict[str, Any] = {"max_nodes": 20_000, "max_seconds": None, "max_mb": 512}


@pytest.mark.parametrize(("engine", "workers"), [("local", 1), ("local", 2), ("dask", 2)])
def test_a_survey_with_no_fair_plays_no_fair_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, engine: Engine, workers: int) -> None:
    """In this process (and Dask's threads) the fair player would raise if it were called; in
    the pool's processes a fair verdict would be stored if it played."""
    monkeypatch.setattr("thirteen.solver.fair_play", no_fair_play)
    db = tmp_path / "nofair.sqlite3"
    summary = survey("calculation", "1-4", db, workers=workers, engine=engine, processes=False,
                     fair=False, **CALC_BUDGET)
    assert summary.solved_now == 4 and not summary.errors, summary.errors
    stored_rows = rows(db)
    assert [r["verdict"] for r in stored_rows] == ["unknown", "solved", "solved", "solved"]
    assert all(r["fair_verdict"] is None and r["fair_seconds"] is None for r in stored_rows)


def test_without_no_fair_the_fair_player_plays(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: the same survey with the fair player calls it."""
    monkeypatch.setattr("thirteen.solver.fair_play", no_fair_play)
    summary = survey("calculation", "2-3", tmp_path / "fair.sqlite3", workers=1, **CALC_BUDGET)
    assert len(summary.errors) == 2 and "the fair player played" in summary.errors[0]


def test_a_no_fair_retry_keeps_the_stored_fair_verdict(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Only --retry-unknown solves a stored deal again; without the fair player it keeps the
    fair verdict stored and takes the new thoughtful verdict."""
    monkeypatch.setattr("thirteen.solver.fair_play", no_fair_play)
    db = tmp_path / "retry.sqlite3"
    with connect(db) as c:
        store_row(c, fake_row("calculation", 3, "unknown", 0.5, None, fair="won"))
        store_row(c, fake_row("calculation", 4, "unknown", 0.5, None, fair="lost"))
    c.close()
    assert survey("calculation", "3-4", db, workers=1, fair=False,
                  **CALC_BUDGET).solved_now == 0  # stored: not solved again
    again = survey("calculation", "3-4", db, workers=1, fair=False, retry_unknown=True,
                   **CALC_BUDGET)
    assert again.solved_now == 2 and not again.errors
    assert [(r["verdict"], r["max_nodes"], r["fair_verdict"], r["fair_seconds"])
            for r in rows(db)] == [("solved", 20_000, "won", 0.001),
                                   ("solved", 20_000, "lost", 0.001)]


def test_a_retry_does_not_play_the_fair_player(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal solved again by --retry-unknown keeps the fair verdict it has, or none, even
    where the survey plays the fair player: the fair figure stays over the deals it was
    asked for, not also over those the solver found hard."""
    monkeypatch.setattr("thirteen.solver.fair_play", no_fair_play)
    db = tmp_path / "retry.sqlite3"
    with connect(db) as c:
        store_row(c, fake_row("calculation", 3, "unknown", 0.5, None))
        store_row(c, fake_row("calculation", 4, "unknown", 0.5, None, fair="lost"))
    c.close()
    again = survey("calculation", "3-4", db, workers=1, retry_unknown=True, **CALC_BUDGET)
    assert again.solved_now == 2 and not again.errors
    assert [(r["verdict"], r["fair_verdict"]) for r in rows(db)] == [("solved", None),
                                                                      ("solved", "lost")]


# ---- Castles in Spain: the fair player of face-down cards -------------------------------------
def fake_fair_play(played: list[int]) -> Any:
    """A fair player of Castles in Spain that wins in a quarter of a second and notes the number
    of each deal it played."""
    from thirteen.solver import Result

    def play(state: Any, samples: int | None = None) -> Result:
        played.append(next(n for n in range(1, 10) if new_state("castles-in-spain", n) == state))
        return Result("solved", (), 0, 0.25, 0, "the fair player won")
    return play


def test_castles_rows_carry_the_fair_players_verdict(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Where cards are face down the fair player plays each deal; where none is hidden (Bisley)
    it has nothing to play."""
    played: list[int] = []
    monkeypatch.setattr("thirteen.solver.fair_play", fake_fair_play(played))
    db = tmp_path / "castles.sqlite3"
    assert survey("castles-in-spain", "2-3", db, workers=1, **BUDGET).solved_now == 2
    assert played == [2, 3]
    assert [(r["fair_verdict"], r["fair_seconds"]) for r in rows(db)] == [("won", 0.25)] * 2
    assert survey(GAME, "1-2", db, workers=1, **BUDGET).solved_now == 2 and played == [2, 3]
    assert [r["fair_verdict"] for r in rows(db) if r["game"] == GAME] == [None, None]


def test_a_fair_survey_plays_the_deals_stored_without_it(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals stored by a survey with --no-fair are done again by one that wants the fair
    player's figure over them, and only those; with --no-fair they count as stored."""
    played: list[int] = []
    monkeypatch.setattr("thirteen.solver.fair_play", fake_fair_play(played))
    db = tmp_path / "castles.sqlite3"
    with connect(db) as c:
        for deal in (1, 2, 3):
            store_row(c, fake_row("castles-in-spain", deal, "solved", 0.5, 90,
                                  fair="lost" if deal == 2 else None))
    c.close()
    assert survey("castles-in-spain", "1-4", db, workers=1, fair=False,
                  **BUDGET).solved_now == 1 and played == []
    again = survey("castles-in-spain", "1-4", db, workers=1, **BUDGET)
    assert (again.stored_before, again.solved_now, played) == (1, 3, [1, 3, 4])
    assert [r["fair_verdict"] for r in rows(db)] == ["won", "lost", "won", "won"]


def test_merge_keeps_decided_verdicts_and_fair_verdicts() -> None:
    def row(verdict: str, fair: str | None, nodes: int) -> Row:
        return {"verdict": verdict, "nodes": nodes, "fair_verdict": fair,
                "fair_seconds": 1.5 if fair else None}

    assert merge(row("solved", None, 2), None) == row("solved", None, 2)
    assert merge(row("solved", None, 2), row("unknown", "lost", 1)) == {
        **row("solved", None, 2), "fair_verdict": "lost", "fair_seconds": 1.5}
    assert merge(row("unknown", None, 2), row("unsolvable", "lost", 1)) == row(
        "unsolvable", "lost", 1)  # a decided verdict is not lost to an unknown one
    assert merge(row("unknown", "won", 2), row("solved", None, 1)) == row("solved", "won", 1)
    assert merge(row("solved", "won", 2), row("solved", "lost", 1)) == row("solved", "won", 2)


def test_merge_keeps_the_unknown_row_of_the_larger_budget() -> None:
    def row(seconds: float | None, nodes: int | None, mb: int, version: str = "1") -> Row:
        return {"verdict": "unknown", "max_seconds": seconds, "max_nodes": nodes,
                "max_mb": mb, "solver_version": version, "fair_verdict": None}

    retried = row(600.0, None, 8192)
    assert merge(row(60.0, None, 2048), retried) == retried  # a run of another folder
    assert merge(row(60.0, 10**11, 8192), retried) == retried
    assert merge(retried, row(60.0, None, 2048)) == retried
    assert merge(row(600.0, None, 8192, "2"), retried) == row(600.0, None, 8192, "2")  # newer
    # another solver's row: the newer, which its retries of that budget then skip
    assert merge(row(60.0, None, 2048, "2"), retried) == row(60.0, None, 2048, "2")
    # neither larger in every limit: the newer row
    assert merge(row(3600.0, None, 2048), retried) == row(3600.0, None, 2048)
    assert merge(row(60.0, None, 16384), retried) == row(60.0, None, 16384)


def test_survey_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "cli.sqlite3"
    args = ["survey", "spanish", "--worry-back", "--deals", "1-3", "--workers", "1",
            "--max-nodes", "300", "--db", str(db), "--quiet"]
    assert main(args) == 0
    assert "3 of 3 deals stored" in capsys.readouterr().out
    assert {r["options"] for r in rows(db)} == {json.dumps({"worry_back": True},
                                                           separators=(",", ":"))}
    assert main(args) == 0
    assert "this run 0 in" in capsys.readouterr().out
    assert main(["survey", "bisley", "--deals", "5-1", "--db", str(db)]) == 2
    assert main(["survey", "bisley", "--deals", "1", "--scheduler", "tcp://x:1",
                 "--db", str(db)]) == 2


def test_the_odds_script_carries_on_every_published_survey(tmp_path: Path) -> None:
    """scripts/odds asks, at each step, for every preset and options the repository publishes,
    each command one the CLI takes; a step it does not know and a worker count that is not one
    are refused with one line before any survey, and a folder that does not exist by the
    survey itself."""
    from thirteen.cli import _variant, build_parser
    from thirteen.data import SUFFIX, stem
    from thirteen.odds import AIM_DEALS, deals_for
    from thirteen.report import sections
    from thirteen.workers import options_key

    root = Path(__file__).resolve().parents[1]
    shim = tmp_path / "thirteen"
    shim.write_text(f'#!/bin/sh\n{sys.executable} -c "import json, sys; '
                    f'print(json.dumps(sys.argv[1:]))" "$@" >> {tmp_path / "asked"}\n')
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}", "WORKERS": "2"}
    script = str(root / "scripts" / "odds")
    (tmp_path / "FOLDER").mkdir()
    subprocess.run(["bash", script, "FOLDER"], env=env, check=True, cwd=tmp_path)
    files = (root / "data" / "surveys").glob("*" + SUFFIX)
    published = {p.name.removesuffix(SUFFIX) for p in files}
    asked = [json.loads(line) for line in (tmp_path / "asked").read_text().splitlines()]
    # the deals each published survey needs for the aim, rounded up to the next 10,000
    published_sections = sections(root / "data" / "surveys")
    enough = {stem(s.game, s.options): -(-deals_for(s.figure.low) // 10_000) * 10_000
              for s in published_sections}
    # a survey with deals still unknown may take more deals, to make up for them
    undecided = {stem(s.game, s.options) for s in published_sections if s.figure.unknown}
    steps: dict[tuple[str, str, bool], set[str]] = {}
    fair: set[str] = set()  # the fair player's games: deals 1-1000 where cards are hidden
    for argv in asked:
        args = build_parser().parse_args(argv)
        variant = _variant(args)
        name = stem(variant.name, options_key(variant))
        assert (args.command, args.data) == ("survey", "FOLDER")
        if args.deals == "1-1000":
            assert variant.hidden_information and not (args.no_fair or args.retry_unknown)
            fair.add(name)
            continue
        # deals 1-100000, or as many more as an interval of the aim takes at the game's odds
        needed = max(AIM_DEALS, enough.get(name, 0))
        first, _, last = args.deals.partition("-")
        assert first == "1" and (int(last) == needed or name in undecided and int(last) > needed)
        assert args.no_fair or args.retry_unknown or not variant.hidden_information
        key = (str(args.max_seconds), str(args.max_mb), args.retry_unknown)
        steps.setdefault(key, set()).add(name)
    assert all(games == published for games in steps.values())
    # 60 s and 2 GB, then the unknowns at 600 s and an hour, both with 8 GB
    assert {(s, mb) for s, mb, _ in steps} == {("60.0", "2048"), ("600.0", "8192"),
                                              ("3600.0", "8192")}
    assert fair == {n for n in published if GAMES[n.split(".")[0]].hidden_information}
    (tmp_path / "asked").unlink()
    for extra, said in [({"STEPS": "1 5"}, "no step 5"), ({"WORKERS": "two"}, "WORKERS")]:
        bad = subprocess.run(["bash", script, "FOLDER"], env={**env, **extra}, cwd=tmp_path,
                             capture_output=True, text=True)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and said in bad.stderr
        assert not (tmp_path / "asked").exists()  # refused before any survey
    # a mistyped folder: the real CLI refuses it at the first survey, and the script stops there
    real = {**os.environ, "STEPS": "1 2",
            "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    bad = subprocess.run(["bash", script, str(tmp_path / "typo")], env=real, cwd=tmp_path,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "no survey data folder" in bad.stderr and not (tmp_path / "typo").exists()
