"""Difficulty as data: every deal a survey solved is graded easy, medium or hard from the
positions its search needed, so that "New deal: hard" is served at once from the survey data
instead of by searching deals while the player waits.

The grades are the **terciles of the node counts of the solved deals of each game and option
set**: a deal is easy when its search needed no more positions than the first tercile (the
count a third of that game's solved deals stay within), hard when it needed more than the
second (two thirds stay within), medium between. Positions searched, not seconds, so that a
grade does not depend on how busy the surveying machine was; relative to the game, because one
fixed count cannot serve every game: 1,000 positions is more than nearly every Spanish Patience
deal needs, and fewer than Portuguese Solitaire's median deal.
A count shared by many deals falls in one grade, so a grade may hold a little more or less than
a third. Unsolved deals have no grade.

The data are the package's ``surveys`` folder (the repository's ``data/surveys``, shipped in
the wheel, read in place by an editable install); a game or option set with no file there has
no grades, and its deals are rated by searching (`thirteen.solver.find_deal`). A file is read
once, when a deal of its game is first asked for, and only its graded deal numbers and counts
are kept (two machine integers a deal).
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from . import data
from .solver.services import Wanted
from .variants import Variant
from .workers import options_key

Grade = Literal["easy", "medium", "hard"]
GRADES: tuple[Grade, ...] = ("easy", "medium", "hard")
#: The survey data the package ships (a link to the repository's data/surveys).
SURVEYS = Path(__file__).parent / "surveys"


def cuts(nodes: list[int]) -> tuple[int, int]:
    """The two tercile counts (nearest rank): easy at most the first, hard more than the
    second."""
    ordered = sorted(nodes)
    first, second = (ordered[max(1, -(-k * len(ordered) // 3)) - 1] for k in (1, 2))
    return first, second


def grade_of(nodes: int, bounds: tuple[int, int]) -> Grade:
    return "easy" if nodes <= bounds[0] else "medium" if nodes <= bounds[1] else "hard"


@dataclass(frozen=True)
class Grading:
    """The graded deals of one game and option set: per grade, deal numbers and their counts."""

    title: str
    solved: int
    bounds: tuple[int, int]
    deals: dict[Grade, tuple[array[int], array[int]]]

    @classmethod
    def of(cls, title: str, rows: Iterable[tuple[object, ...]]) -> Grading | None:
        """From ``(deal, verdict, positions)`` of each row of a survey (None: no deal
        solved)."""
        solved = [(int(str(d)), int(str(n))) for d, v, n in rows if v == "solved"]
        if not solved:
            return None
        bounds = cuts([n for _, n in solved])
        deals: dict[Grade, tuple[array[int], array[int]]] = {
            g: (array("q"), array("q")) for g in GRADES}
        for deal, nodes in solved:
            numbers, counts = deals[grade_of(nodes, bounds)]
            numbers.append(deal)
            counts.append(nodes)
        return cls(title, len(solved), bounds, deals)

    def grade(self, deal: int) -> Grade | None:
        """The grade of ``deal`` (None: not solved in the data)."""
        return next((g for g in GRADES if deal in self.deals[g][0]), None)

    def draw(self, wanted: Wanted, rng: random.Random) -> tuple[int, int, Grade]:
        """A random deal of grade ``wanted`` (winnable: any solved deal), its count and grade."""
        grades = GRADES if wanted == "winnable" else (wanted,)
        pick = rng.randrange(sum(len(self.deals[g][0]) for g in grades))
        for g in grades:
            numbers, counts = self.deals[g]
            if pick < len(numbers):
                return numbers[pick], counts[pick], g
            pick -= len(numbers)
        raise AssertionError("a pick within the deals drawn from")

    def message(self, wanted: Wanted, nodes: int, grade: Grade) -> str:
        """What the player is told about a deal drawn from the data."""
        low, high = self.bounds
        of = f"of {self.title}'s {self.solved:,} solved deals"
        third = {"easy": f"the easiest third {of} needed at most {low:,}",
                 "medium": f"the middle third {of} needed {low + 1:,} to {high:,}",
                 "hard": f"the hardest third {of} needed more than {high:,}"}[grade]
        first = {"easy": "An easy deal", "medium": "A medium deal", "hard": "A hard deal",
                 "winnable": f"A winnable deal ({grade})"}[wanted]
        return (f"{first}, from the survey data: the solver won it in {nodes:,} positions; "
                f"{third}.")


@lru_cache(maxsize=32)
def grading(folder: Path, game: str, options: str, title: str) -> Grading | None:
    """The grades of ``game`` with ``options`` from the data file in ``folder`` (None: no file,
    or no solved deal in it). Cached: a file is read once a process."""
    path = folder / (data.stem(game, options) + data.SUFFIX)
    if not path.is_file():
        return None
    return Grading.of(title, data.iter_columns(path, ("deal", "verdict", "nodes")))


def serve(variant: Variant, wanted: Wanted, folder: Path | None = None,
          rng: random.Random | None = None) -> tuple[int, str] | None:
    """A deal of ``variant`` graded ``wanted`` in the survey data and the player's words for
    it, at once; None when the data do not grade this game and options."""
    found = grading(folder or SURVEYS, variant.name, options_key(variant), variant.title)
    if found is None or not any(found.deals[g][0] for g in GRADES
                                if wanted in ("winnable", g)):
        return None
    number, nodes, grade = found.draw(wanted, rng or random.SystemRandom())
    return number, found.message(wanted, nodes, grade)
