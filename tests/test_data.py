"""Survey results as data files: names, round trips, merging, and refusals."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thirteen import data
from thirteen.cli import main
from thirteen.game import new_state
from thirteen.solver import Budget, solve
from thirteen.variants import get_variant
from thirteen.workers import Row


def row(deal: int, verdict: str, game: str = "bakers-dozen", options: str = "{}",
        **more: object) -> Row:
    return {"game": game, "options": options, "deal": deal, "verdict": verdict, "nodes": 7,
            "seconds": 0.0123456, "length": 80 if verdict == "solved" else None,
            "fair_verdict": None, "fair_seconds": None, "solver_version": "0.1.0+x",
            "max_seconds": 60.0, "max_nodes": None, "max_mb": 2048, **more}


@pytest.mark.parametrize(("game", "options", "name"), [
    ("bakers-dozen", "{}", "bakers-dozen"),
    ("spanish-patience-ii", '{"worry_back":true}', "spanish-patience-ii.worry-back"),
    ("bakers-dozen", '{"foundations":"rank","worry_back":true}',
     "bakers-dozen.foundations-rank.worry-back"),
])
def test_file_names_name_the_game_and_options(game: str, options: str, name: str) -> None:
    assert data.stem(game, options) == name
    assert data.parse_stem(name) == (game, options)


@pytest.mark.parametrize("name", ["chess", "bakers-dozen.turbo", "bakers-dozen.worry"])
def test_names_no_survey_writes_are_refused(name: str) -> None:
    with pytest.raises(ValueError):
        data.parse_stem(name)


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.integers(1, 10**6), st.sampled_from(["solved", "unsolvable",
                                                               "unknown"]), max_size=40))
def test_rows_round_trip_and_files_are_the_same_bytes(tmp_path_factory: pytest.TempPathFactory,
                                                      verdicts: dict[int, str]) -> None:
    folder = tmp_path_factory.mktemp("data")
    rows = [row(d, v) for d, v in verdicts.items()]
    if not rows:
        assert data.write(folder, rows) == []
        return
    (path,) = data.write(folder, rows)
    first = path.read_bytes()
    back = data.read(folder)
    assert [r["deal"] for r in back] == sorted(verdicts)
    assert all(r["verdict"] == verdicts[r["deal"]] and r["seconds"] == 0.01235 for r in back)
    data.write(folder, back)  # what was read writes back to the same bytes
    assert path.read_bytes() == first
    lost = (folder / "bakers-dozen.unsolvable.txt").read_text().split()
    assert lost == [str(d) for d in sorted(verdicts) if verdicts[d] == "unsolvable"]


def test_merging_keeps_decided_verdicts_and_takes_newer_ones(tmp_path: Path) -> None:
    data.write(tmp_path, [row(1, "solved"), row(2, "unknown"), row(3, "unsolvable")])
    data.write(tmp_path, [row(1, "unknown"), row(2, "solved"), row(3, "solved"), row(4, "unknown")])
    assert [r["verdict"] for r in data.read(tmp_path)] == ["solved", "solved", "solved", "unknown"]
    data.write(tmp_path, [row(9, "solved", game="bisley")])
    assert [r["deal"] for r in data.read(tmp_path, game="bisley")] == [9]
    assert len(data.read(tmp_path, game="bakers-dozen", options="{}")) == 4


def test_malformed_files_and_folders_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no survey data folder"):
        data.read(tmp_path / "missing")
    bad = tmp_path / "bakers-dozen.csv.gz"
    bad.write_bytes(b"not gzip")
    with pytest.raises(ValueError, match="not a survey data file"):
        data.read(tmp_path)
    bad.write_bytes(gzip.compress(b"deal,verdict\n1,solved\n"))
    with pytest.raises(ValueError, match="columns"):
        data.read(tmp_path)
    head = ",".join(data.COLUMNS).encode() + b"\n"
    bad.write_bytes(gzip.compress(head + b"1,solved,7\n"))
    with pytest.raises(ValueError, match="line 2 has 3 cells"):
        data.read(tmp_path)
    bad.write_bytes(gzip.compress(head + b"x,solved" + b"," * (len(data.COLUMNS) - 2) + b"\n"))
    with pytest.raises(ValueError, match="line 2: not a deal"):
        data.read(tmp_path)
    # a row without a memory budget: the report could not write a command that reproduces it
    cells = b"1,solved,10,0.5,90,,,v1,60,1000000,"
    bad.write_bytes(gzip.compress(head + cells + b"\n"))
    with pytest.raises(ValueError, match="line 2: no max_mb"):
        data.read(tmp_path)
    bad.write_bytes(gzip.compress(head + cells + b"2048\n"))
    assert data.read(tmp_path)[0]["max_mb"] == 2048


def test_a_survey_resumes_from_data_files_and_a_report_reads_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "surveys"
    args = ["--max-nodes", "5000", "--workers", "1", "--quiet", "--data", str(folder)]
    # a folder that is not there is a typo, not new data: refused, and nothing made
    assert main(["survey", "bisley", "--deals", "1-6", "--db", str(tmp_path / "a.db"), *args]) == 2
    assert capsys.readouterr().err == (f"thirteen: no survey data folder at {folder} "
                                       "(make it first to start new data files)\n")
    assert list(tmp_path.iterdir()) == []
    folder.mkdir()
    assert main(["survey", "bisley", "--deals", "1-6", "--db", str(tmp_path / "a.db"), *args]) == 0
    first = data.read(folder)
    assert [r["deal"] for r in first] == [1, 2, 3, 4, 5, 6]
    # a new machine: a fresh database, the data files only
    assert main(["survey", "bisley", "--deals", "1-8", "--db", str(tmp_path / "b.db"), *args]) == 0
    assert "this run 2 in" in capsys.readouterr().out
    assert data.read(folder)[:6] == first and len(data.read(folder)) == 8
    assert main(["report", "bisley", "--data", str(folder)]) == 0
    assert "deals            8  (1-8)" in capsys.readouterr().out
    assert main(["report", "--all", "--data", str(tmp_path / "none")]) == 2


def test_a_no_fair_survey_keeps_the_fair_verdicts_of_the_data_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The files hold the fair player's games of Calculation deals 2 and 3; the survey's
    database already holds deal 2 without one. `--no-fair --data` solves only deal 4, without
    the fair player, and the files keep both fair verdicts."""
    from thirteen.survey import connect, rows, store_row

    def no_fair_play(*args: object) -> None:
        raise AssertionError("the fair player played")

    monkeypatch.setattr("thirteen.solver.fair_play", no_fair_play)
    folder, db = tmp_path / "surveys", tmp_path / "survey.db"
    played = {2: "lost", 3: "won"}
    data.write(folder, [row(d, "solved", game="calculation", fair_verdict=fair, fair_seconds=1.5)
                        for d, fair in played.items()])
    with connect(db) as c:
        store_row(c, row(2, "solved", game="calculation"))
    c.close()
    assert main(["survey", "calculation", "--deals", "2-4", "--no-fair", "--max-nodes", "20000",
                 "--max-seconds", "600", "--workers", "1", "--quiet", "--db", str(db),
                 "--data", str(folder)]) == 0
    solved = {r["deal"]: r for r in rows(db)}
    assert solved[4]["verdict"] == "solved" and solved[4]["fair_verdict"] is None
    files = {r["deal"]: (r["verdict"], r["fair_verdict"]) for r in data.read(folder)}
    assert files == {2: ("solved", "lost"), 3: ("solved", "won"), 4: ("solved", None)}


# ---- the data committed in the repository ------------------------------------------------------
REPOSITORY_DATA = Path(__file__).resolve().parent.parent / "data" / "surveys"
COMMITTED = sorted(REPOSITORY_DATA.glob("*" + data.SUFFIX))


def test_the_repository_has_survey_data() -> None:
    assert COMMITTED


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: p.name)
def test_committed_verdicts_stand_on_a_sample(path: Path) -> None:
    """A few deals of each file solved again: none of its solved deals is proved lost, none
    of its unwinnable deals is solved (a solution replays to a win before it is returned), and
    its list of unwinnable deals is its rows'."""
    rows = data.read_file(path)
    lost = [r["deal"] for r in rows if r["verdict"] == "unsolvable"]
    listed = path.with_name(path.name.removesuffix(data.SUFFIX) + data.UNSOLVABLE)
    assert [int(d) for d in listed.read_text().split()] == lost
    rng = random.Random(path.name)
    won = [r["deal"] for r in rows if r["verdict"] == "solved"]
    game, options = data.parse_stem(path.name.removesuffix(data.SUFFIX))
    variant = get_variant(game, **json.loads(options))
    budget = Budget(max_nodes=20_000, max_seconds=None, max_mb=512)
    for deal in rng.sample(won, min(3, len(won))):
        assert solve(new_state(variant, deal), budget).verdict != "unsolvable", deal
    for deal in rng.sample(lost, min(2, len(lost))):
        assert solve(new_state(variant, deal), budget).verdict != "solved", deal


def test_a_survey_writes_back_no_row_as_it_read_it(tmp_path: Path) -> None:
    """Two surveys that started from the same files: the one that merges last writes back only
    the rows it made, so it cannot undo the other's (an unknown row tried with a larger budget
    by a newer solver would otherwise give way to the old copy, and be tried again)."""
    from thirteen.survey import connect, store_row

    data.write(tmp_path, [row(5, "unknown", solver_version="old"), row(6, "solved")])
    db = tmp_path / "b.db"
    loaded = data.load_into(db, tmp_path, "bakers-dozen", "{}")
    assert sorted(loaded) == [5, 6]
    retried = row(5, "unknown", solver_version="new", max_seconds=600.0, max_mb=8192)
    data.write(tmp_path, [retried])  # the other survey merges first
    conn = connect(db)
    store_row(conn, row(7, "solved"))  # what this survey made
    conn.close()
    data.save_from(db, tmp_path, "bakers-dozen", "{}", loaded)
    back = {r["deal"]: r for r in data.read(tmp_path)}
    assert back[5]["max_seconds"] == 600.0 and back[5]["solver_version"] == "new"
    assert sorted(back) == [5, 6, 7]


def test_a_survey_resumed_on_an_old_database_takes_the_files_newer_rows(tmp_path: Path) -> None:
    """A database that read the files before, resumed after they got newer rows (another
    survey's merge, or another machine's through git): its old unknown row of a deal gives way
    to the files' and is not written back over it, while a decided row of its own that the files
    lack (a survey killed before it merged) is kept and merged back."""
    from thirteen.survey import connect, rows, store_row

    data.write(tmp_path, [row(5, "unknown", solver_version="old"), row(6, "unknown")])
    db = tmp_path / "b.db"
    data.load_into(db, tmp_path, "bakers-dozen", "{}")
    conn = connect(db)
    store_row(conn, {**row(7, "solved", seconds=1.23456789), "reason": "found by a probe"})
    conn.close()
    data.save_from(db, tmp_path, "bakers-dozen", "{}", {})  # a survey that stopped and merged
    conn = connect(db)
    store_row(conn, row(6, "solved"))  # this survey's, then killed before it merged
    conn.close()
    retried = row(5, "unknown", solver_version="new", max_seconds=600.0, max_mb=8192)
    data.write(tmp_path, [retried])  # merged meanwhile from elsewhere
    loaded = data.load_into(db, tmp_path, "bakers-dozen", "{}")
    assert sorted(loaded) == [5, 7]
    data.save_from(db, tmp_path, "bakers-dozen", "{}", loaded)
    back = {r["deal"]: r for r in data.read(tmp_path)}
    assert (back[5]["solver_version"], back[5]["max_seconds"]) == ("new", 600.0)
    assert back[6]["verdict"] == "solved"
    mine = {r["deal"]: r for r in rows(db)}[7]  # its own rows keep what the files leave out
    assert (mine["seconds"], mine["reason"]) == (1.23456789, "found by a probe")
