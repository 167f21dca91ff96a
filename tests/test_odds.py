"""docs/odds.md is generated from the committed survey data, and the data agree with each other
where the rules say they must."""

from __future__ import annotations

from pathlib import Path

import pytest

from thirteen import data
from thirteen.cli import main
from thirteen.odds import AIM_DEALS, aim_text, budget_text, deals_for, page
from thirteen.report import Figure, Section
from thirteen.variants import GAMES

ROOT = Path(__file__).resolve().parent.parent
FOLDER = "data/surveys"  # as docs/odds.md's command names it, from the repository's root


@pytest.mark.long
def test_docs_odds_is_what_its_command_prints(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["report", "--data", FOLDER, "--markdown"]) == 0
    printed = capsys.readouterr().out
    assert printed == (ROOT / "docs" / "odds.md").read_text(), (
        "docs/odds.md is out of date: thirteen report --data data/surveys --markdown > "
        "docs/odds.md")
    assert "{{" not in printed and "/work" not in printed


def test_the_page_has_every_data_file_and_its_figures() -> None:
    # docs/odds.md, which the test above finds to be the page the data make
    text = (ROOT / "docs" / "odds.md").read_text()
    for path in sorted((ROOT / FOLDER).glob("*" + data.SUFFIX)):
        rows = data.read_file(path)
        lost = sum(r["verdict"] == "unsolvable" for r in rows)
        # a deal the fair player won is solved, whatever the search's verdict
        solved = sum(r["verdict"] == "solved" or r["fair_verdict"] == "won" for r in rows)
        assert f"`{path.name}`: deals " in text
        assert f"{solved:,} solved, {lost:,} proved unwinnable" in text
    surveyed = {data.parse_stem(p.name.removesuffix(data.SUFFIX))[0]
                for p in (ROOT / FOLDER).glob("*" + data.SUFFIX)}
    missing = [g for g in GAMES if g not in surveyed]
    for g in GAMES:
        assert (f"(`{g}`)" in text.split("## Baker's Dozen", 1)[0]) == (g in missing)
    assert ("Every game of `thirteen games` is in the data." in text) == (not missing)


@pytest.mark.long
def test_placeholders_the_data_cannot_fill_are_refused(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    # a folder of just the files asked about: the page reads every file of its folder
    for name in ("bisley", "spanish-patience-ii.worry-back", "calculation"):
        for suffix in (data.SUFFIX, data.UNSOLVABLE):
            (tmp_path / (name + suffix)).write_bytes((ROOT / FOLDER / (name + suffix)).read_bytes())
    monkeypatch.chdir(tmp_path)
    rows = data.read_file(ROOT / FOLDER / ("bisley" + data.SUFFIX))
    lost = sum(r["verdict"] == "unsolvable" for r in rows)
    counted = f"{lost:,} of {len(rows):,}\n"
    assert page(".", "{{bisley:unsolvable}} of {{bisley:deals}}\n") == counted
    assert page(".", "{{spanish-patience-ii.worry-back:contains:99.863}}\n") == "contains\n"
    assert page(".", "{{bisley:contains:99.9}}\n") == "does not contain\n"
    with pytest.raises(ValueError, match="good-measure"):
        page(".", "{{good-measure:deals}}")
    with pytest.raises(ValueError, match="colour"):
        page(".", "{{bisley:colour}}")
    calc = data.read_file(ROOT / FOLDER / ("calculation" + data.SUFFIX))
    played = [r for r in calc if r["fair_verdict"] is not None]
    won = sum(r["fair_verdict"] == "won" for r in played)
    fair = page(".", "{{calculation:fair}}\n")
    assert fair.startswith(f"{100 * won / len(played):.1f}% [")
    assert fair.endswith("played)\n") and f"{len(played):,} played" in fair
    with pytest.raises(ValueError, match="fair player of bisley"):  # it plays no open game
        page(".", "{{bisley:fair}}")


@pytest.mark.parametrize("args", [
    ["report", "--markdown"],
    ["report", "--markdown", "--data", FOLDER, "--all"],
    ["report", "bisley", "--markdown", "--data", FOLDER],
    ["report", "--markdown", "--data", "no/such/folder"],
    ["report", "--markdown", "--data", "README.md"],
    ["report", "bisley", "--data", "README.md"],
])
def test_bad_page_requests_are_one_line_errors(args: list[str], monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    # --data is a folder of data files, never a database
    assert "SQLite" not in captured.err and "database" not in captured.err


# ---- the committed data against the rules ---------------------------------------------------
#: (looser, stricter): every move of the stricter game is a move of the looser one on the same
#: deal, so a deal the looser game loses the stricter one cannot win.
LOOSER = [
    ("spanish-patience", "bakers-dozen"),  # a space may be filled
    ("spanish-patience-ii.worry-back", "spanish-patience-ii"),  # cards may come back
    ("spanish-patience-rank", "spanish-patience"),  # foundations regardless of suit
]


@pytest.mark.parametrize(("looser", "stricter"), LOOSER)
def test_a_deal_lost_in_a_looser_game_is_not_won_in_a_stricter_one(looser: str,
                                                                   stricter: str) -> None:
    def verdicts(stem: str) -> dict[int, str]:
        return {r["deal"]: r["verdict"]
                for r in data.read_file(ROOT / FOLDER / (stem + data.SUFFIX))}

    loose, strict = verdicts(looser), verdicts(stricter)
    lost = [d for d, v in loose.items() if v == "unsolvable"]
    assert lost and not [d for d in lost if strict.get(d) == "solved"]


def test_an_estimate_shows_its_two_ends_apart() -> None:
    assert Figure("solver", 12991, 12954, 36, 1).estimate() == "99.715% to 99.723%"
    assert Figure("solver", 10000, 9982, 16, 2).estimate() == "99.82% to 99.84%"


def _survey(game: str, solved: int, lost: int, unknown: int, first: int = 1) -> Section:
    verdicts = ["solved"] * solved + ["unsolvable"] * lost + ["unknown"] * unknown
    return Section(game, "{}", [{"deal": d, "verdict": v, "fair_verdict": None}
                                for d, v in enumerate(verdicts, first)])


def test_the_aim_names_each_survey_that_falls_short_and_what_it_lacks() -> None:
    n = AIM_DEALS
    met = _survey("bakers-dozen", n - 300, 300, 0)  # 99.7%: ± 0.03%
    unknown = _survey("good-measure", 91_000, 8_000, n - 99_000)  # 91% to 92%: ± 0.67%
    near_half = _survey("bisley", 84_000, n - 84_000, 0)  # ± 0.23%, every deal decided
    few = _survey("calculation", 10_000, 0, 0)
    text = aim_text([met, unknown, near_half, few])
    assert "1 of the 4 surveys above meet it" in text
    assert "`bakers-dozen`" not in text
    assert "`good-measure` (1,000 unknown, ± 0.67%)" in text
    assert f"`bisley` (± 0.23%: about {deals_for(0.84):,} deals would give it)" in text
    assert "`calculation` (10,000 of deals 1-100,000)" in text
    later = _survey("calculation", n, 0, 0, first=5_001)  # as many deals, from 5,001 on
    assert "`calculation` (95,000 of deals 1-100,000)" in aim_text([later])
    assert aim_text([met]).endswith("Every survey above meets it.")
    # more deals narrow the interval to the aim: the count given is enough, and not far over
    bigger = _survey("bisley", 84 * deals_for(0.84) // 100, 16 * deals_for(0.84) // 100, 0)
    smaller = _survey("bisley", 84 * (deals_for(0.84) - 4000) // 100,
                      16 * (deals_for(0.84) - 4000) // 100, 0)
    assert "bisley" not in aim_text([bigger]) and "bisley" in aim_text([smaller])


def test_each_budget_says_what_it_decided() -> None:
    """A section's budget line counts each deal under the budget it was last tried with, a
    deal the fair player won as solved, smallest budget first and no limit last."""
    small = {"max_nodes": 1000, "max_seconds": 60.0, "max_mb": 2048}
    large = {"max_nodes": None, "max_seconds": 600.0, "max_mb": 8192}
    nodes_only = {"max_nodes": 10**9, "max_seconds": None, "max_mb": 2048}
    unlimited = {"max_nodes": None, "max_seconds": None, "max_mb": None}
    rows = [{"deal": d, "verdict": v, "fair_verdict": f, **b} for d, (v, f, b) in enumerate([
        ("solved", None, small), ("unsolvable", None, small), ("unknown", None, small),
        ("unknown", "won", small), ("solved", None, large), ("unknown", None, large),
        ("unsolvable", None, nodes_only), ("solved", None, unlimited)], 1)]
    assert budget_text(Section("castles-in-spain", "{}", rows)) == (
        "60 s, 1,000 positions, 2,048 MB a deal: 2 solved, 1 proved unwinnable, 1 unknown; "
        "600 s, 8,192 MB a deal: 1 solved, 1 unknown; "
        "1,000,000,000 positions, 2,048 MB a deal: 1 proved unwinnable; no limit: 1 solved")
