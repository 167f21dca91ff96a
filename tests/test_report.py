"""The survey report: figures, reproducing commands, the fair player's figure, the table
of every survey and the plots, from small databases made here."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from thirteen.cli import main
from thirteen.report import format_table, report, sections, winnability_interval
from thirteen.survey import connect, rows, store_row, survey, todo_deals
from thirteen.workers import Row


def fake_row(game: str, deal: int, verdict: str, seconds: float, length: int | None,
             options: str = "{}", fair: str | None = None) -> Row:
    return {"game": game, "options": options, "deal": deal, "verdict": verdict, "nodes": 10,
            "seconds": seconds, "length": length, "peak_states": 5, "reason": None,
            "solver_version": "test", "max_seconds": 30.0, "max_nodes": 1000, "max_mb": 64,
            "fair_verdict": fair, "fair_seconds": 0.001 if fair else None, "host": "h"}


def test_rows_of_an_older_survey_name_spanish_patience_ii(tmp_path: Path) -> None:
    """Surveys before format 1 stored PySolFC's Spanish Patience II as ``spanish-patience``:
    they are read as that game, and a survey of today's Spanish Patience does them again."""
    db = tmp_path / "old.sqlite3"
    with connect(db) as c:
        store_row(c, fake_row("spanish-patience", 1, "solved", 0.01, 90))
        c.execute("PRAGMA user_version = 0")
    assert [r["game"] for r in rows(db)] == ["spanish-patience-ii"]
    with sqlite3.connect(db) as c:  # read as today's names, the file left as it was
        assert c.execute("SELECT game FROM survey").fetchall() == [("spanish-patience",)]
    c.close()
    with connect(db) as c:
        assert list(todo_deals(c, "spanish-patience", "{}", [(1, 2)])) == [1, 2]
        assert list(todo_deals(c, "spanish-patience-ii", "{}", [(1, 2)])) == [2]


@pytest.fixture
def small_db(tmp_path: Path) -> Path:
    """Bakers Dozen 1-10 (7 won, 2 lost, 1 unknown), Spanish Patience II with worrying back 1-4,
    Calculation 1-4 (3 won thoughtfully, 1 by the fair player)."""
    db = tmp_path / "small.sqlite3"
    with connect(db) as c:
        for d in range(1, 11):
            verdict = "solved" if d <= 7 else "unsolvable" if d <= 9 else "unknown"
            store_row(c, fake_row("bakers-dozen", d, verdict, d / 100,
                                  80 + d if verdict == "solved" else None))
        for d in range(1, 5):
            store_row(c, fake_row("spanish-patience-ii", d, "solved", 0.01, 100,
                                  options='{"worry_back":true}'))
        for d in range(1, 5):
            store_row(c, fake_row("calculation", d, "solved" if d < 4 else "unsolvable", 0.1,
                                  52 if d < 4 else None, fair="won" if d == 1 else "lost"))
    return db


def test_report_of_a_small_db(small_db: Path) -> None:
    text = report(small_db, "bakers-dozen")
    lo, hi = winnability_interval(7, 1, 10)
    assert "Baker's Dozen" in text
    assert "deals            10  (1-10)" in text
    assert "solved           7" in text
    assert "unsolvable       2" in text
    assert "unknown          1" in text
    assert f"70.0% to 80.0%, 95% interval [{100 * lo:.1f}%, {100 * hi:.1f}%]" in text
    assert "solution length  median 84, p95 87, max 87 moves (7 solved)" in text
    assert "solve time       median 0.050 s, p95 0.100 s, max 0.100 s" in text
    assert "thirteen survey bakers-dozen --deals 1-10 --max-nodes 1000 --max-seconds 30" in text


def test_report_reproduce_command_parses_with_large_budgets(tmp_path: Path) -> None:
    """The reproduce line is a command to run: a budget of a million positions is written
    out in digits (``1e+06`` is refused by ``--max-nodes``), and the CLI accepts it."""
    from thirteen.cli import build_parser

    db = tmp_path / "big.sqlite3"
    with connect(db) as c:
        for d in range(1, 4):
            row = fake_row("good-measure", d, "solved", 0.5, 90)
            row["max_nodes"], row["max_seconds"] = 1_000_000, 120.0
            store_row(c, row)
    line = next(x for x in report(db, "good-measure").splitlines() if "reproduce" in x)
    command = line.split("reproduce", 1)[1].split()
    assert command[:2] == ["thirteen", "survey"]
    assert "--max-nodes 1000000 --max-seconds 120" in " ".join(command)
    args = build_parser().parse_args(command[1:])
    assert (args.max_nodes, args.max_seconds) == (1_000_000, 120.0)


def test_report_reproduce_command_lifts_the_limits_a_row_did_not_have(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A survey run from Python with no node or time limit is reproduced by a command that
    says ``none``, which the CLI reads back as no limit; memory has no such form."""
    from thirteen.cli import build_parser

    db = tmp_path / "unlimited.sqlite3"
    with connect(db) as c:
        row = fake_row("good-measure", 1, "solved", 0.5, 90)
        row["max_nodes"], row["max_seconds"] = None, None
        store_row(c, row)
    line = next(x for x in report(db, "good-measure").splitlines() if "reproduce" in x)
    command = line.split("reproduce", 1)[1].split()
    assert "--max-nodes none --max-seconds none" in " ".join(command)
    args = build_parser().parse_args(command[1:])
    assert (args.max_nodes, args.max_seconds, args.max_mb) == (None, None, row["max_mb"])
    with pytest.raises(SystemExit):
        build_parser().parse_args([*command[1:], "--max-mb", "none"])
    assert "memory cannot be unlimited" in capsys.readouterr().err
    with pytest.raises(ValueError, match="memory budget"):
        survey("good-measure", "1", tmp_path / "never.sqlite3", max_mb=None)  # type: ignore[arg-type]
    assert not (tmp_path / "never.sqlite3").exists()


def test_report_reproduces_retried_deals_with_their_budget(tmp_path: Path) -> None:
    """Deals tried again with a larger budget get their own command, after the one for every
    deal with the budget most rows had; a smaller budget is covered by that one."""
    db = tmp_path / "retried.sqlite3"
    budgets = {1: (1000, 30.0, 2048), 2: (1000, 30.0, 2048), 3: (500, 30.0, 1024),
               4: (1000, 600.0, 2048), 5: (5000, 30.0, 2048), 6: (1000, 600.0, 8192)}
    with connect(db) as c:
        for d, (nodes, seconds, mb) in budgets.items():
            row = fake_row("bakers-dozen", d, "solved", 0.5, 90)
            row["max_nodes"], row["max_seconds"], row["max_mb"] = nodes, seconds, mb
            store_row(c, row)
    lines = report(db, "bakers-dozen").splitlines()
    start = next(i for i, x in enumerate(lines) if "reproduce" in x)
    assert [x.split("reproduce")[-1].strip() for x in lines[start:start + 4]] == [
        "thirteen survey bakers-dozen --deals 1-6 --max-nodes 1000 --max-seconds 30",
        "thirteen survey bakers-dozen --deals 5 --max-nodes 5000 --max-seconds 30 --retry-unknown",
        "thirteen survey bakers-dozen --deals 4 --max-nodes 1000 --max-seconds 600 "
        "--retry-unknown",
        "thirteen survey bakers-dozen --deals 6 --max-nodes 1000 --max-seconds 600 "
        "--max-mb 8192 --retry-unknown"]


def test_report_calculation_has_thoughtful_and_fair_figures(small_db: Path) -> None:
    text = report(small_db, "calculation")
    assert "thoughtful       75.0%, 95% interval" in text
    assert "fair player      25.0%, 95% interval" in text


def test_a_fair_win_counts_for_the_thoughtful_figure(tmp_path: Path) -> None:
    """A deal the search left unknown but the fair player won is winnable."""
    db = tmp_path / "fair.sqlite3"
    with connect(db) as c:
        store_row(c, fake_row("calculation", 1, "unknown", 0.5, None, fair="won"))
        store_row(c, fake_row("calculation", 2, "unknown", 0.5, None, fair="lost"))
    text = report(db, "calculation")
    assert "solved           1 (1 of them only by the fair player's line)" in text
    assert "thoughtful       50.0% to 100.0%" in text


def test_the_fair_figure_is_over_the_deals_the_fair_player_played(tmp_path: Path) -> None:
    """Calculation 1-10, the fair player on 1-4 only (3 won): its figure is 3 of 4, says so,
    and the section's commands reproduce each part, the rest with --no-fair."""
    from thirteen.cli import build_parser
    from thirteen.odds import details
    from thirteen.report import plot

    db = tmp_path / "mixed.sqlite3"
    with connect(db) as c:
        for d in range(1, 11):
            played = ("won" if d < 4 else "lost") if d <= 4 else None
            store_row(c, fake_row("calculation", d, "solved", 0.1, 52, fair=played))
    c.close()
    (s,) = sections(db)
    fair = s.fair_figure()
    assert fair is not None and (fair.deals, fair.won, fair.lost, fair.unknown) == (4, 3, 1, 0)
    interval = fair.interval_text()
    assert f"fair player      75.0%, 95% interval {interval} (deals 1-4, 4 played)" in report(db)
    page = details(s, "data/surveys")
    assert f"- fair player (deals 1-4, 4 played): 75.0%, 95% interval {interval}" in page
    limits = "--max-nodes 1000 --max-seconds 30 --max-mb 64"
    assert s.commands == [f"thirteen survey calculation --deals 1-4 {limits}",
                            f"thirteen survey calculation --deals 5-10 {limits} --no-fair"]
    assert (f"- made by `thirteen survey calculation --deals 1-4 {limits} --data data/surveys`"
            f" and `thirteen survey calculation --deals 5-10 {limits} --no-fair"
            " --data data/surveys`") in page
    assert [build_parser().parse_args(c.split()[1:]).no_fair for c in s.commands] == [False,
                                                                                        True]
    table = format_table([s])
    assert "| 75.0% [" in table and "(deals 1-4, 4 played) |" in table
    assert "`; `thirteen survey calculation --deals 5-10" in table
    plot(s, tmp_path / "mixed.svg")
    assert "fair player" in (tmp_path / "mixed.svg").read_text()


def test_no_fair_line_where_the_fair_player_played_no_deal(tmp_path: Path) -> None:
    from thirteen.odds import details
    from thirteen.report import plot

    db = tmp_path / "nofair.sqlite3"
    with connect(db) as c:
        for d in range(1, 4):
            store_row(c, fake_row("calculation", d, "solved", 0.1, 52))
    c.close()
    (s,) = sections(db)
    assert s.fair_figure() is None
    assert "fair player" not in report(db) and "fair player" not in details(s, "data/surveys")
    assert s.commands == [
        "thirteen survey calculation --deals 1-3 --max-nodes 1000 --max-seconds 30 --max-mb 64"
        " --no-fair"]
    assert "| - |" in format_table([s])
    plot(s, tmp_path / "nofair.svg")
    assert "fair player" not in (tmp_path / "nofair.svg").read_text()


def test_report_all_is_a_table_of_every_survey(small_db: Path) -> None:
    table = format_table(sections(small_db))
    lines = table.splitlines()
    assert len(lines) == 2 + 3
    assert lines[2].startswith("| bakers-dozen | - | 10 | 7 | 2 | 1 | 70.0% to 80.0% |")
    assert lines[3].startswith("| spanish-patience-ii | worrying back | 4 | 4 | 0 | 0 | 100.0% |")
    assert "| 25.0% [" in lines[4]


def test_report_command_and_plots(small_db: Path, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    png, svg = tmp_path / "bd.png", tmp_path / "calc.svg"
    assert main(["report", "bakers-dozen", "--db", str(small_db), "--plot", str(png)]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    assert main(["report", "calculation", "--db", str(small_db), "--plot", str(svg)]) == 0
    assert "fair player" in svg.read_text()
    assert main(["report", "--all", "--db", str(small_db)]) == 0
    out = capsys.readouterr().out
    assert "| calculation |" in out
    assert main(["report", "spanish-patience-ii", "--worry-back", "--db", str(small_db)]) == 0
    assert "Spanish Patience II (worrying back)" in capsys.readouterr().out
    assert main(["report", "bisley", "--db", str(small_db)]) == 2  # no survey of it
    assert main(["report", "--db", str(small_db)]) == 2  # neither a game nor --all
