"""Reports of winnability surveys: counts, intervals, distributions, and plots.

Winnability is reported as Blake & Gent report it: with a 95% Wilson score interval whose lower
bound counts the deals the solver could not decide (unknown) as lost and whose upper bound
counts them as won. The games that hide cards (Castles in Spain's face-down cards, the
Calculation family's stock) have two figures: thoughtful (the solver, which knows the hidden
cards) and the fair player's (who does not).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .solver import Budget as Limits
from .survey import RowBudget, row_budget, rows, within
from .variants import GAMES
from .workers import Row

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials (no continuity correction)."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # at k = 0 or n the exact bound is 0 or 1; keep rounding from crossing it
    return (0.0 if k == 0 else max(0.0, centre - half), 1.0 if k == n else min(1.0, centre + half))


def winnability_interval(won: int, unknown: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Blake & Gent's interval: unknowns counted lost for the lower bound, won for the upper."""
    return (wilson(won, n, z)[0], wilson(won + unknown, n, z)[1])


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile (0 < q <= 100) of ``values`` (nan when empty)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Distribution:
    count: int
    median: float
    p95: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Distribution:
        return cls(len(values), percentile(values, 50), percentile(values, 95),
                   max(values) if values else math.nan)


@dataclass
class Figure:
    """One winnability figure: counts and the interval."""

    label: str
    deals: int
    won: int
    lost: int
    unknown: int

    @property
    def interval(self) -> tuple[float, float]:
        return winnability_interval(self.won, self.unknown, self.deals)

    @property
    def low(self) -> float:
        return self.won / self.deals if self.deals else math.nan

    @property
    def high(self) -> float:
        return (self.won + self.unknown) / self.deals if self.deals else math.nan

    @property
    def digits(self) -> int:
        """Decimals of the percentages: enough to show the interval's width."""
        lo, hi = self.interval
        width = 100 * (hi - lo)
        return 1 if width >= 5 else 2 if width >= 0.1 else 3

    def estimate(self) -> str:
        if self.unknown == 0:
            return pct(self.low, self.digits)
        digits = self.digits  # as many more as it takes for the two ends to differ
        while pct(self.low, digits) == pct(self.high, digits):
            digits += 1
        return f"{pct(self.low, digits)} to {pct(self.high, digits)}"

    def interval_text(self) -> str:
        lo, hi = self.interval
        return f"[{pct(lo, self.digits)}, {pct(hi, self.digits)}]"


@dataclass
class Section:
    """Everything reported about one game with one set of options."""

    game: str
    options: str
    rows: list[Row] = field(repr=False)

    @property
    def title(self) -> str:
        variant = GAMES.get(self.game)
        name = variant.title if variant else self.game
        opts = json.loads(self.options)
        return name + (f" ({options_text(opts)})" if opts else "")

    @property
    def hidden(self) -> bool:
        """Whether the game hides cards, so that it has a thoughtful and a fair figure."""
        variant = GAMES.get(self.game)
        return variant is not None and variant.hidden_information

    @cached_property
    def figure(self) -> Figure:
        """The thoughtful (or solver's) figure: read once, since a page asks it often and a
        section holds up to 100,000 rows."""
        verdicts = [thoughtful(r) for r in self.rows]
        label = "thoughtful" if self.hidden else "solver"
        return Figure(label, len(verdicts), verdicts.count("solved"),
                      verdicts.count("unsolvable"), verdicts.count("unknown"))

    def won_only_by_fair(self) -> int:
        return sum(r["verdict"] != "solved" and r["fair_verdict"] == "won" for r in self.rows)

    def fair_rows(self) -> list[Row]:
        """The rows of the deals the fair player played (a survey with --no-fair plays none)."""
        return [r for r in self.rows if r["fair_verdict"] is not None]

    def fair_figure(self) -> Figure | None:
        """The fair player's figure over the deals it played; None if it played none."""
        fair = [r["fair_verdict"] for r in self.fair_rows()]
        won = fair.count("won")
        return Figure("fair player", len(fair), won, len(fair) - won, 0) if fair else None

    def fair_deals(self) -> str:
        """The deals the fair figure is over: ``deals 1-1000, 1,000 played``."""
        played = [r["deal"] for r in self.fair_rows()]
        return f"deals {ranges_text(played)}, {len(played):,} played"

    def lengths(self) -> Distribution:
        return Distribution.of([r["length"] for r in self.rows if r["length"] is not None])

    def times(self) -> Distribution:
        return Distribution.of([r["seconds"] for r in self.rows])

    def deal_ranges(self) -> str:
        return ranges_text([r["deal"] for r in self.rows])

    @cached_property
    def commands(self) -> list[str]:
        """The survey commands that reproduce this section's rows: one over every deal with the
        budget most rows had (where cards are hidden, one for the deals the fair player
        played and one with --no-fair for the rest); then, for each larger budget some rows
        had (the unknown deals tried again), one that solves its deals again with it if they
        are still unknown (--retry-unknown), smallest first."""
        budgets = Counter(row_budget(r) for r in self.rows)
        base = budgets.most_common(1)[0][0]
        parts = [(self.rows, "")]
        if self.hidden:
            played = self.fair_rows()
            rest = [r for r in self.rows if r["fair_verdict"] is None]
            parts = [(r, flag) for r, flag in ((played, ""), (rest, " --no-fair")) if r]
        larger = sorted((b for b in budgets if not within(b, base)), key=budget_order)
        return ([self._command(r, base, flag) for r, flag in parts]
                + [self._command([r for r in self.rows if row_budget(r) == b], b,
                                 " --retry-unknown") for b in larger])

    def _command(self, rows: list[Row], budget: RowBudget, flag: str = "") -> str:
        """The survey command that solves ``rows``'s deals with ``budget`` (``flag`` added)."""
        opts = json.loads(self.options)
        flags = "".join(" --worry-back" if k == "worry_back" and v else
                        f" --foundations {v}" if k == "foundations" else ""
                        for k, v in sorted(opts.items()))
        limits = ""
        # the survey's defaults are the solver's (`thirteen.solver.Budget`): left unsaid
        default = Limits()
        for option, value, default_value in (("--max-nodes", budget[0], default.max_nodes),
                                             ("--max-seconds", budget[1], default.max_seconds),
                                             ("--max-mb", budget[2], default.max_mb)):
            if value != default_value:
                # digits, as the flags parse them (format 'g' writes a million as 1e+06)
                text = ("none" if value is None
                        else f"{value:.0f}" if float(value).is_integer() else str(value))
                limits += f" {option} {text}"
        deals = ranges_text([r["deal"] for r in rows], most=len(rows))
        return f"thirteen survey {self.game}{flags} --deals {deals}{limits}{flag}"


def budget_order(budget: RowBudget) -> tuple[float, float, float]:
    """Budgets in order of seconds, then positions, then memory, no limit last."""
    return (math.inf if budget[1] is None else budget[1],
            math.inf if budget[0] is None else budget[0],
            math.inf if budget[2] is None else budget[2])


def thoughtful(row: Row) -> str:
    """A deal's verdict for the thoughtful figure: solved also when the fair player won it
    (its line is a win the search did not find within its budget)."""
    return "solved" if row.get("fair_verdict") == "won" else str(row["verdict"])


def options_text(options: dict[str, Any]) -> str:
    parts = []
    for key, value in sorted(options.items()):
        if key == "worry_back":
            parts.append("worrying back" if value else "no worrying back")
        elif key == "foundations":
            parts.append(f"foundations by {value}")
        else:
            parts.append(f"{key}={value}")
    return ", ".join(parts)


def pct(x: float, digits: int = 1) -> str:
    """A probability as a percentage with ``digits`` decimals."""
    return "-" if math.isnan(x) else f"{100 * x:.{digits}f}%"


def seconds_text(x: float) -> str:
    if math.isnan(x):
        return "-"
    return f"{x:.3f} s" if x < 10 else f"{x:.1f} s"


def ranges_text(deals: Sequence[int], most: int = 6) -> str:
    """``1-1000,2000-2100``: the deals as inclusive ranges (the first ``most`` of them)."""
    spans: list[list[int]] = []
    for d in sorted(deals):
        if spans and d == spans[-1][1] + 1:
            spans[-1][1] = d
        else:
            spans.append([d, d])
    parts = [f"{a}-{b}" if a != b else str(a) for a, b in spans]
    return ",".join(parts[:most]) + (f",... ({len(parts)} ranges)" if len(parts) > most else "")


def sections(db_path: str | Path, game: str | None = None,
             options: str | None = None) -> list[Section]:
    """The stored surveys (of one game, and one set of options, if given), from a survey
    database or a folder of data files (`thirteen.data`)."""
    from . import data

    found = (data.read(db_path, game, options) if Path(db_path).is_dir()
             else rows(db_path, game, options))
    out: dict[tuple[str, str], list[Row]] = {}
    for row in found:
        out.setdefault((row["game"], row["options"]), []).append(row)
    order = list(GAMES)
    return [Section(g, o, r) for (g, o), r in sorted(
        out.items(), key=lambda kv: (order.index(kv[0][0]) if kv[0][0] in order else 99,
                                     kv[0][1] != "{}", kv[0]))]


def format_section(s: Section) -> str:
    fig = s.figure
    lengths, times = s.lengths(), s.times()
    versions = sorted({str(r["solver_version"]) for r in s.rows})
    lines = [
        f"{s.title}  [{s.game}{'' if s.options == '{}' else ' ' + s.options}]",
        f"  deals            {fig.deals}  ({s.deal_ranges()})",
        f"  solved           {fig.won}" + (f" ({by_fair} of them only by the fair player's line)"
                                              if (by_fair := s.won_only_by_fair()) else ""),
        f"  unsolvable       {fig.lost}",
        f"  unknown          {fig.unknown}",
    ]
    name = "winnability" if not s.hidden else fig.label
    lines.append(f"  {name:<16} {fig.estimate()}, 95% interval {fig.interval_text()}")
    if fair := s.fair_figure():
        lines.append(f"  {fair.label:<16} {fair.estimate()}, 95% interval "
                     f"{fair.interval_text()} ({s.fair_deals()})")
    lines += [
        "                   (Wilson; unknowns lost for the lower bound, won for the upper)",
        f"  solution length  median {lengths.median:g}, p95 {lengths.p95:g}, "
        f"max {lengths.max:g} moves ({lengths.count} solved)" if lengths.count else
        "  solution length  - (no deal solved)",
        f"  solve time       median {seconds_text(times.median)}, p95 {seconds_text(times.p95)}, "
        f"max {seconds_text(times.max)}",
        f"  solver           {', '.join(versions)}",
        *(f"  {'reproduce' if i == 0 else '':<16} {c}" for i, c in enumerate(s.commands)),
    ]
    return "\n".join(lines)


def format_table(secs: Sequence[Section]) -> str:
    """The Markdown table of every survey (``thirteen report --all``)."""
    head = ("| game | options | deals | solved | unsolvable | unknown | winnable | "
            "95% interval | fair player (95%) | median time | command |")
    lines = [head, "|" + "---|" * 11]
    for s in secs:
        f = s.figure
        fair = s.fair_figure()
        opts = options_text(json.loads(s.options)) or "-"
        fair_text = (f"{fair.estimate()} {fair.interval_text()} ({s.fair_deals()})" if fair
                     else "-")
        commands = "; ".join(f"`{c}`" for c in s.commands)
        lines.append(
            f"| {s.game} | {opts} | {f.deals} | {f.won} | {f.lost} | {f.unknown} | "
            f"{f.estimate()} | {f.interval_text()} | {fair_text} | "
            f"{seconds_text(s.times().median)} | {commands} |")
    return "\n".join(lines)


# ---- plots -----------------------------------------------------------------------------------
def running(verdicts: Sequence[str], points: int = 600) -> tuple[
        list[int], list[float], list[float], list[float], list[float]]:
    """After each deal (thinned to ``points``): number of deals, won / deals, (won + unknown) /
    deals, and the bounds of the interval, in percent."""
    n_total = len(verdicts)
    if n_total <= points:
        keep = set(range(1, n_total + 1))
    else:  # geometric spacing: the early, fast-moving part gets its share of points
        keep = {round(math.exp(math.log(n_total) * i / points)) for i in range(points + 1)}
    xs, est, most, lo, hi = [], [], [], [], []
    won = unknown = 0
    for n, v in enumerate(verdicts, 1):
        won += v in ("solved", "won")  # "won": the fair player's column
        unknown += v == "unknown"
        if n in keep or n == n_total:
            a, b = winnability_interval(won, unknown, n)
            xs.append(n)
            est.append(100 * won / n)
            most.append(100 * (won + unknown) / n)
            lo.append(100 * a)
            hi.append(100 * b)
    return xs, est, most, lo, hi


def plot(s: Section, path: str | Path) -> None:
    """Running estimate with its interval against deals, and the histogram of solve times."""
    from matplotlib.figure import Figure as MplFigure

    ordered = sorted(s.rows, key=lambda r: r["deal"])
    fig = MplFigure(figsize=(11, 4.2), layout="constrained")
    left, right = fig.subplots(1, 2)
    series = [("thoughtful" if s.hidden else "solver", [thoughtful(r) for r in ordered],
               "tab:blue")]
    if fair := [str(r["fair_verdict"]) for r in ordered if r["fair_verdict"] is not None]:
        series.append(("fair player", fair, "tab:orange"))  # over the deals it played
    for label, verdicts, colour in series:
        xs, est, most, lo, hi = running(verdicts)
        left.fill_between(xs, lo, hi, color=colour, alpha=0.25, linewidth=0,
                          label=f"{label}: 95% interval")
        left.plot(xs, est, color=colour, linewidth=1.2, label=f"{label}: won / deals")
        if most != est:
            left.plot(xs, most, color=colour, linewidth=1, linestyle="--",
                      label=f"{label}: (won + unknown) / deals")
    if len(ordered) > 100:
        left.set_xscale("log")
    left.set_xlabel("deals surveyed (in deal-number order)")
    left.set_ylabel("winnable (%)")
    left.set_title(f"{s.title}: running estimate")
    left.grid(True, alpha=0.3)
    left.legend(fontsize="small")

    groups = [("solved", "tab:green"), ("unsolvable", "tab:red"), ("unknown", "tab:gray")]
    data = [[max(r["seconds"], 1e-6) for r in ordered if r["verdict"] == v] for v, _ in groups]
    everything = [t for d in data for t in d]
    if everything:
        lo_t, hi_t = min(everything), max(everything)
        if hi_t / lo_t > 100:
            bins: Any = [lo_t * (hi_t / lo_t) ** (i / 40) for i in range(41)]
            right.set_xscale("log")
        else:
            bins = 40
        kept = [(d, v, c) for d, (v, c) in zip(data, groups, strict=True) if d]
        right.hist([d for d, _, _ in kept], bins=bins, stacked=True,
                   color=[c for _, _, c in kept], label=[v for _, v, _ in kept])
        right.legend(fontsize="small")
    right.set_xlabel("solve time (s)")
    right.set_ylabel("deals")
    right.set_title("solve times")
    right.grid(True, alpha=0.3)
    fig.savefig(str(path))


def plot_paths(path: str | Path, secs: Sequence[Section]) -> list[Path]:
    """One file per section: ``path`` itself for one, ``stem-game[-options].ext`` for several."""
    p = Path(path)
    if len(secs) == 1:
        return [p]
    out = []
    for s in secs:
        opts = json.loads(s.options)
        tag = "".join(f"-{k.replace('_', '-')}" if v is True else f"-{k}-{v}"
                      for k, v in sorted(opts.items()))
        out.append(p.with_name(f"{p.stem}-{s.game}{tag}{p.suffix}"))
    return out


def check_plot_path(path: str | Path) -> None:
    """Refuse a plot file that cannot be written before any work is done."""
    p = Path(path)
    if p.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise ValueError(f"--plot needs a .png, .svg or .pdf file, not {path}")
    if not p.parent.is_dir():
        raise ValueError(f"cannot write {path}: no folder {p.parent}")
    if p.is_dir():
        raise ValueError(f"cannot write {path}: it is a folder")


def report(db_path: str | Path, game: str | None = None, options: str | None = None,
           plot_path: str | Path | None = None, table: bool = False) -> str:
    """The text of ``thirteen report``; writes the plot(s) when ``plot_path`` is given."""
    if plot_path is not None:
        check_plot_path(plot_path)
    secs = sections(db_path, game, options)
    if not secs:
        what = f"{game}{'' if options in (None, '{}') else ' ' + str(options)}" if game else ""
        raise ValueError(f"no survey of {what or 'any game'} in {db_path}")
    if plot_path is not None:
        for s, p in zip(secs, plot_paths(plot_path, secs), strict=True):
            try:
                plot(s, p)
            except OSError as e:
                raise ValueError(f"cannot write {p}: {e.strerror}") from None
    if table:
        return format_table(secs)
    return "\n\n".join(format_section(s) for s in secs)


def main(args: Any) -> int:
    """``thirteen report GAME``, ``thirteen report --all`` or the odds page, ``thirteen report
    --data FOLDER --markdown`` (args from the cli's parser)."""
    from .survey import default_db
    from .variants import get_variant
    from .workers import options_key

    if args.data and Path(args.data).is_file():  # --data names a folder, never a database
        raise ValueError(f"--data {args.data}: a file, not a folder of survey data files")
    if args.markdown:
        if not args.data or args.db or args.game or args.all or args.plot or args.worry_back \
                or args.foundations:
            raise ValueError("--markdown makes the odds page of every survey in --data FOLDER: "
                             "no GAME, option, --all, --db or --plot")
    elif args.all == bool(args.game):
        raise ValueError("give a GAME, --all or --markdown")
    elif args.all and (args.worry_back or args.foundations):
        raise ValueError("--all reports every survey: --worry-back and --foundations go with "
                         "a GAME")
    elif args.db and args.data:
        raise ValueError("give --db or --data, not both")
    db = args.data or args.db or default_db()
    if not Path(db).exists():  # a report only reads: it never creates a database
        raise ValueError(f"no survey {'data folder' if args.data else 'database'} at {db} "
                         "(run `thirteen survey` first)")
    if args.markdown:
        from .odds import page

        print(page(args.data), end="")
        return 0
    game = options = None
    if args.game:
        chosen: dict[str, object] = {}
        if args.worry_back:
            chosen["worry_back"] = True
        if args.foundations:
            chosen["foundations"] = args.foundations
        variant = get_variant(args.game, **chosen)
        game = variant.name
        options = options_key(variant) if chosen else None
    print(report(db, game, options, args.plot, table=args.all))
    if args.plot:
        secs = sections(db, game, options)
        print("plot: " + ", ".join(str(p) for p in plot_paths(args.plot, secs)))
    return 0
