"""Difficulty as data: grades from the committed survey rows, deals served from them without a
search, and games without data still rated by searching."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import thirteen.session as session
import thirteen.solver.services as services
from thirteen import data, grades
from thirteen.session import choose_deal
from thirteen.variants import get_variant

COMMITTED = Path(__file__).resolve().parent.parent / "data" / "surveys"


def rows_of(counts: dict[int, int]) -> list[tuple[object, ...]]:
    return [(d, "solved", n) for d, n in counts.items()]


@given(st.dictionaries(st.integers(1, 10**6), st.integers(0, 10**7), min_size=1, max_size=60))
def test_grades_split_the_solved_deals_by_terciles(counts: dict[int, int]) -> None:
    g = grades.Grading.of("Bisley", [*rows_of(counts), (0, "unsolvable", 5)])
    assert g is not None and g.solved == len(counts) and g.grade(0) is None
    n = len(counts)
    for deal, nodes in counts.items():
        below = sum(c < nodes for c in counts.values())  # deals that needed fewer positions
        grade = g.grade(deal)
        # easy: within the count a third of the deals stay within; hard: above two thirds'
        assert (grade == "easy") == (below < -(-n // 3))
        assert (grade == "hard") == (below >= -(-2 * n // 3))
    easy, medium, hard = (list(g.deals[k][1]) for k in grades.GRADES)
    assert max(easy, default=-1) < min(medium + hard, default=10**9)
    assert max(easy + medium, default=-1) < min(hard, default=10**9)


def test_a_grading_needs_a_solved_deal() -> None:
    assert grades.Grading.of("Bisley", [(1, "unknown", 9)]) is None


def test_draws_stay_in_their_grade() -> None:
    g = grades.Grading.of("Bisley", rows_of({d: d * 10 for d in range(1, 31)}))
    assert g is not None and g.bounds == (100, 200)
    rng = random.Random(3)
    for wanted in ("easy", "medium", "hard"):
        for _ in range(20):
            deal, nodes, grade = g.draw(wanted, rng)
            assert grade == wanted == g.grade(deal) and nodes == deal * 10
    assert {g.draw("winnable", rng)[2] for _ in range(200)} == set(grades.GRADES)


@pytest.fixture
def no_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any search at all fails the test."""
    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("the solver ran")
    monkeypatch.setattr(services, "solve", refuse)
    monkeypatch.setattr(session, "find_deal", refuse)


def committed_nodes(game: str, stem: str | None = None) -> dict[int, int]:
    path = COMMITTED / ((stem or game) + data.SUFFIX)
    return {r["deal"]: r["nodes"] for r in data.read_file(path) if r["verdict"] == "solved"}


@pytest.mark.usefixtures("no_solver")
@pytest.mark.parametrize(("game", "options", "stem"), [
    ("bakers-dozen", {}, "bakers-dozen"),
    ("spanish-patience-ii", {"worry_back": True}, "spanish-patience-ii.worry-back"),
])
def test_a_hard_deal_is_served_from_the_data_without_a_search(game: str, options: dict[str, bool],
                                                              stem: str) -> None:
    solved = committed_nodes(game, stem)
    for _ in range(5):
        number, message = choose_deal(get_variant(game, **options), None, "hard")
        nodes = solved[number]
        # harder than two thirds of the solved deals of its file
        assert sum(c < nodes for c in solved.values()) >= 2 * len(solved) / 3
        assert message.startswith("A hard deal, from the survey data") and f"{nodes:,}" in message
    number, message = choose_deal(get_variant(game, **options), None, "winnable")
    assert number in solved and message.startswith("A winnable deal")


@pytest.mark.usefixtures("no_solver")
def test_an_easy_deal_is_among_the_easiest_third() -> None:
    solved = committed_nodes("bisley")
    number, _ = choose_deal(get_variant("bisley"), None, "easy")
    assert sum(c <= solved[number] for c in solved.values()) >= 1
    assert sum(c < solved[number] for c in solved.values()) < len(solved) / 3


@pytest.mark.parametrize(("game", "options"), [
    ("good-measure", {"worry_back": True}), ("bakers-dozen", {"worry_back": True}),
    ("bakers-dozen", {"foundations": "rank"})])
def test_games_without_data_are_rated_by_searching(game: str, options: dict[str, object],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def search(variant: object, wanted: str, draw: object) -> tuple[int, str]:
        asked.append(wanted)
        return 77, "medium"

    monkeypatch.setattr(session, "find_deal", search)
    assert choose_deal(get_variant(game, **options), None, "medium") == (
        77, services.found_message("medium", "medium"))
    assert asked == ["medium"]


def test_the_data_are_read_once(tmp_path: Path) -> None:
    data.write(tmp_path, [{"game": "bisley", "options": "{}", "deal": d, "verdict": "solved",
                           "nodes": d, "seconds": 0.1, "max_seconds": 60.0} for d in (4, 5, 6)])
    variant = get_variant("bisley")
    first = grades.serve(variant, "hard", tmp_path, random.Random(1))
    assert first is not None and first[0] == 6
    (tmp_path / "bisley.csv.gz").unlink()  # cached: the file is not read again
    assert grades.serve(variant, "easy", tmp_path, random.Random(1)) is not None
    assert grades.serve(get_variant("good-measure"), "easy", tmp_path) is None


def test_hidden_cards_are_still_never_rated() -> None:
    with pytest.raises(ValueError, match="not rated"):
        choose_deal(get_variant("castles-in-spain"), None, "hard")


def test_the_installed_package_finds_the_data() -> None:
    assert (grades.SURVEYS / "bakers-dozen.csv.gz").is_file()
