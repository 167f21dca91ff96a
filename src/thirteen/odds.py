"""The odds page (docs/odds.md), generated from the survey data files so that no figure in it
can disagree with them: ``thirteen report --data data/surveys --markdown``.

The prose is the template ``odds.md.in`` beside this module; it names figures by placeholders
that are filled from the data:

- ``{{table}}``: the table of every surveyed game and option set; ``{{games}}``: a section for
  each (budget, solver, command, the deals proved unwinnable, difficulty grades);
  ``{{not-surveyed}}``: a sentence naming the games the data do not have yet, if any;
  ``{{aim}}``: which surveys meet the data's aim (`AIM_DEALS` deals, an interval of
  ± `AIM_HALF_WIDTH` or narrower) and what each of the others lacks.
- ``{{STEM:FIELD}}``, STEM a data file's name without ``.csv.gz``: ``deals``, ``range``,
  ``solved``, ``unsolvable``, ``unknown``, ``winnable``, ``interval``, ``low`` (the interval's
  lower bound), ``lost`` (the deals proved unwinnable, or a link to their list when long),
  ``fair`` (the fair player's rate and interval, and the deals it played),
  ``contains:P`` (``contains`` or ``does not contain``: whether the interval holds P percent).

A placeholder the data cannot fill is an error, not a blank: the page is never half made.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from . import data, grades
from .report import (
    Z95,
    Section,
    budget_order,
    format_table,
    pct,
    seconds_text,
    sections,
    thoughtful,
)
from .survey import RowBudget, row_budget
from .variants import GAMES

TEMPLATE = Path(__file__).with_name("odds.md.in")
#: Lists of deals longer than this are linked, not written out.
LONGEST_LIST = 40
#: The data's aim for every game and option set: deals 1 to this, every one decided, so that
#: each interval is within ± `AIM_HALF_WIDTH` (unknown deals widen it: *How to read the tables*).
AIM_DEALS = 100_000
AIM_HALF_WIDTH = 0.002
_PLACEHOLDER = re.compile(r"\{\{([a-z0-9.:-]+)\}\}")


def not_surveyed(surveyed: set[str], folder: str) -> str:
    """Says which games the data lack and how to measure them, or that none is missing."""
    missing = ", ".join(f"{GAMES[g].title} (`{g}`)" for g in GAMES if g not in surveyed)
    if not missing:
        return "Every game of `thirteen games` is in the data."
    return (f"Not yet in the data: {missing}. Their figures will appear here once surveyed "
            f"into `{folder}/`; until then `thirteen survey GAME --deals 1-10000 --data "
            f"{folder}` measures them.")


def aim_text(secs: list[Section]) -> str:
    """Which surveys meet the aim (`AIM_DEALS` deals, every one decided, an interval within
    ± `AIM_HALF_WIDTH`), and what each of the others still lacks, so that the page says how
    far the data are from it."""
    short = []
    for s in secs:
        f = s.figure
        lo, hi = f.interval
        covered = sum(r["deal"] <= AIM_DEALS for r in s.rows)  # of deals 1 to AIM_DEALS
        lacks = [f"{covered:,} of deals 1-{AIM_DEALS:,}"] if covered < AIM_DEALS else []
        if f.unknown:
            lacks.append(f"{f.unknown:,} unknown")
        if hi - lo > 2 * AIM_HALF_WIDTH:
            lacks.append(f"± {pct((hi - lo) / 2, 2)}" + (
                "" if f.unknown else f": about {deals_for(f.low):,} deals would give it"))
        if lacks:
            short.append(f"`{data.stem(s.game, s.options)}` ({', '.join(lacks)})")
    head = (f"The aim: at least deals 1-{AIM_DEALS:,} of every game, every deal decided, each "
            f"interval within ± {pct(AIM_HALF_WIDTH, 1)} (a game far from 0% and 100% needs "
            "more deals for that). ")
    if not short:
        return head + "Every survey above meets it."
    return (head + f"{len(secs) - len(short)} of the {len(secs)} surveys above meet it; not "
            "yet: " + "; ".join(short) + ".")


def deals_for(p: float) -> int:
    """About how many deals an interval within ± `AIM_HALF_WIDTH` takes at winnability ``p``
    (the normal approximation, which Wilson's interval meets at these sizes), rounded up to a
    thousand: a game far from 0% and 100% needs more than `AIM_DEALS` (Bisley, 84%: 131,000;
    a game at 50%: 241,000)."""
    need = Z95 * Z95 * p * (1 - p) / (AIM_HALF_WIDTH * AIM_HALF_WIDTH)
    return -(-math.ceil(need) // 1000) * 1000


def page(folder: str, template: str | None = None) -> str:
    """The odds page of the data files in ``folder`` (as the reader types it, e.g.
    ``data/surveys``: links and commands name it so)."""
    secs = sections(folder)
    if not secs:
        raise ValueError(f"no survey data files in {folder}")
    by_stem = {data.stem(s.game, s.options): s for s in secs}
    surveyed = {s.game for s in secs}
    whole: dict[str, Callable[[], str]] = {
        "table": lambda: format_table(secs),
        "games": lambda: "\n\n".join(details(s, folder) for s in secs),
        "not-surveyed": lambda: not_surveyed(surveyed, folder),
        "aim": lambda: aim_text(secs),
    }

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in whole:
            return whole[name]()
        stem, _, field = name.partition(":")
        if stem not in by_stem:
            raise ValueError(f"the odds template asks for {stem}, which {folder} has no data of")
        return value(by_stem[stem], field, folder)

    text = TEMPLATE.read_text() if template is None else template
    return _PLACEHOLDER.sub(fill, text).rstrip("\n") + "\n"


def value(s: Section, field: str, folder: str) -> str:
    """One figure of a section, by its placeholder's field name."""
    f = s.figure
    if field.startswith("contains:"):
        share = float(field.removeprefix("contains:")) / 100
        lo, hi = f.interval
        return "contains" if lo <= share <= hi else "does not contain"
    figures: dict[str, Callable[[], str]] = {
        "deals": lambda: f"{f.deals:,}", "range": s.deal_ranges,
        "solved": lambda: f"{f.won:,}", "unsolvable": lambda: f"{f.lost:,}",
        "unknown": lambda: f"{f.unknown:,}", "winnable": f.estimate,
        "interval": f.interval_text, "low": lambda: pct(f.interval[0], f.digits),
        "lost": lambda: lost_text(s, folder), "fair": lambda: fair_text(s),
    }
    if field not in figures:
        raise ValueError(f"the odds template asks for {field!r} of {s.game}: no such figure")
    return figures[field]()


def lost_text(s: Section, folder: str) -> str:
    """The deals proved unwinnable: listed, or counted and linked to their file when many."""
    lost = [r["deal"] for r in s.rows if r["verdict"] == "unsolvable"]
    name = data.stem(s.game, s.options) + data.UNSOLVABLE
    link = f"[`{name}`](../{folder}/{name})"
    if not lost:
        return "none"
    if len(lost) > LONGEST_LIST:
        return f"{len(lost):,}, listed in {link}"
    return ", ".join(map(str, lost)) + f" ({link})"


#: How a budget's line of the page names the deals of each verdict.
VERDICT_WORDS = {"solved": "solved", "unsolvable": "proved unwinnable", "unknown": "unknown"}


def budget_text(s: Section) -> str:
    """Each budget the rows were tried with last, smallest first, and what it decided: a
    survey retried at larger budgets has several, and a budget's unknown deals are those not
    yet tried with a larger one."""
    by_budget: dict[RowBudget, Counter[str]] = {}
    for r in s.rows:
        by_budget.setdefault(row_budget(r), Counter())[thoughtful(r)] += 1
    return "; ".join(
        f"{budget_words(budget)}: "
        + ", ".join(f"{n:,} {VERDICT_WORDS[v]}" for v in VERDICT_WORDS if (n := counts[v]))
        for budget, counts in sorted(by_budget.items(), key=lambda bc: budget_order(bc[0])))


def budget_words(budget: RowBudget) -> str:
    """A row's budget as the page writes it, each limit it has: "600 s, 8,192 MB a deal"."""
    nodes, sec, mb = budget
    limits = ", ".join(part for part in (
        f"{sec:g} s" if sec is not None else "",
        f"{nodes:,} positions" if nodes is not None else "",
        f"{mb:,} MB" if mb is not None else "") if part)
    return f"{limits} a deal" if limits else "no limit"


def grades_text(s: Section) -> str:
    g = grades.Grading.of(s.title, ((r["deal"], r["verdict"], r["nodes"]) for r in s.rows))
    if g is None:
        return "none (no deal solved)"
    low, high = g.bounds
    count = {k: f"{len(g.deals[k][0]):,}" for k in grades.GRADES}
    return (f"easy at most {low:,} positions ({count['easy']} deals), medium {low + 1:,} to "
            f"{high:,} ({count['medium']}), hard more than {high:,} ({count['hard']})")


def fair_text(s: Section) -> str:
    """The fair player's rate and interval, and the deals it played."""
    fair = s.fair_figure()
    if fair is None:
        raise ValueError(f"the odds template asks for the fair player of {s.game}, "
                         "which played no deal of the data")
    return f"{fair.estimate()} {fair.interval_text()} ({s.fair_deals()})"


def details(s: Section, folder: str) -> str:
    """A section of the page on one game and option set."""
    f = s.figure
    fair = s.fair_figure()
    times, lengths = s.times(), s.lengths()
    unknown = [r["deal"] for r in s.rows if r["verdict"] == "unknown"]
    versions = ", ".join(f"`{v}`" for v in sorted({str(r["solver_version"]) for r in s.rows}))
    lines = [
        f"### {s.title}",
        "",
        f"`{data.stem(s.game, s.options)}{data.SUFFIX}`: deals {s.deal_ranges()} "
        f"({f.deals:,}): {f.won:,} solved, {f.lost:,} proved unwinnable, {f.unknown:,} "
        f"unknown; winnable {f.estimate()}, 95% interval {f.interval_text()}.",
        "",
        *([f"- fair player ({s.fair_deals()}): {fair.estimate()}, 95% interval "
           f"{fair.interval_text()}"] if fair else []),
        "- made by " + " and ".join(f"`{c} --data {folder}`" for c in s.commands),
        f"- by the budget each deal was last tried with: {budget_text(s)}",
        f"- solver: {versions}",
        f"- solve time: median {seconds_text(times.median)}, 95th percentile "
        f"{seconds_text(times.p95)}, longest {seconds_text(times.max)}",
        f"- solution length: median {lengths.median:g}, longest {lengths.max:g} moves"
        if lengths.count else "- solution length: - (no deal solved)",
        f"- proved unwinnable: {lost_text(s, folder)}",
        f"- unknown: {', '.join(map(str, unknown[:LONGEST_LIST])) or 'none'}"
        + (f" and {len(unknown) - LONGEST_LIST:,} more" if len(unknown) > LONGEST_LIST else ""),
        f"- difficulty grades: {grades_text(s)}",
    ]
    return "\n".join(lines)
