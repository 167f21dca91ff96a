"""The ``thirteen`` command's arguments: value types that refuse bad input in one line, and the
argument groups of its subcommands, from which `thirteen.cli` builds its parser."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from .solver import WANTED, Budget


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (and exit code 2), as for all input."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {one_line(message)} (see --help)\n")


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters escaped (input is echoed in
    error messages), so that an error is always one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def deal_number(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a deal number: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"deal numbers start at 1, not {n}")
    return n


def _positive(kind: type[int] | type[float]) -> Callable[[str], float]:
    """An argparse type for budgets and counts: a number above zero, or a clear error."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be above zero, not {text}")
        return value

    return parse


positive_count = _positive(int)  # also the benchmarks' counts and seconds
positive_seconds = _positive(float)


def _or_none(parse: Callable[[str], float]) -> Callable[[str], float | None]:
    """A limit that may be lifted: ``none``, or what ``parse`` takes (the memory budget has
    no such form: see `_megabytes`)."""
    return lambda text: None if text.strip().lower() == "none" else parse(text)


def _megabytes(text: str) -> float:
    """A memory budget: never ``none``, so that memory stays bounded whatever the input."""
    if text.strip().lower() == "none":
        raise argparse.ArgumentTypeError("memory cannot be unlimited: give a budget in MB")
    return positive_count(text)


def _port(text: str) -> int:
    port = int(positive_count(text))
    if port > 65535:
        raise argparse.ArgumentTypeError(f"ports go up to 65535, not {port}")
    return port


MAX_BOARD_BYTES = 64 * 1024  # a board is under 1 KB: anything larger is refused unread
BOARD_HELP = (f"the deal as fc-solve board text, at most {MAX_BOARD_BYTES // 1024} KB (- for "
              "stdin; default: deal N)")


def game_parents() -> tuple[Parser, Parser]:
    """The arguments that name a game (its options included), and those that name a deal of it:
    parents of the commands that take them."""
    game_args = Parser(add_help=False)
    game_args.add_argument("game", help="game name (see `thirteen games`)")
    game_args.add_argument("--worry-back", action="store_true",
                           help="allow foundation cards back onto the columns")
    game_args.add_argument("--foundations", choices=("suit", "rank"),
                           help="build foundations by suit or regardless of suit (default: as "
                           "the game is played)")
    deal_args = Parser(add_help=False, parents=[game_args])
    deal_args.add_argument("number", nargs="?", type=deal_number,
                           help="PySolFC deal number (random if left out)")
    deal_args.add_argument("--board", metavar="FILE",
                           help=BOARD_HELP)
    return game_args, deal_args


def moves_args(p: argparse.ArgumentParser, moves: str) -> None:
    """A deal and the moves played on it, as `check` and `hint` take them (``moves`` says
    which moves)."""
    p.add_argument("rest", nargs="*", metavar="[N] MOVE",
                   help=f"deal number (unless --board), {moves}")
    p.add_argument("--board", metavar="FILE", help=BOARD_HELP)


def budget_args(p: argparse.ArgumentParser, default: Budget, *, per_deal: bool = False,
                time_only: bool = False) -> None:
    """The solver's `Budget`, ``default`` unless given: time, then (unless ``time_only``)
    nodes and memory; for one search, or (``per_deal``) for each deal of a survey."""
    each = " per deal" if per_deal else ""
    p.add_argument("--max-seconds", type=_or_none(positive_seconds),
                   default=default.max_seconds,
                   help=f"time budget{each} in CPU seconds of the search, or none "
                        "(default: %(default)g)")
    if time_only:
        return
    nodes = "%(default)s" if default.max_nodes else "no limit"
    p.add_argument("--max-nodes", type=_or_none(positive_count), default=default.max_nodes,
                   help=f"node budget{each}: positions searched, or none (default: {nodes})")
    where = each or " of the search's tables"
    p.add_argument("--max-mb", type=_megabytes, default=default.max_mb,
                   help=f"memory budget{where} (default: %(default)s)")


def play_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--plain", action="store_true", help="plain text even in a terminal")
    p.add_argument("--db", help="SQLite file for saved games and statistics, full screen only "
                   "(default: in the user data directory)")
    p.add_argument("--difficulty", choices=WANTED,
                   help="instead of N: a deal the survey data grade easy / medium / hard, or "
                   "any they say won (winnable); for a game without data, the solver rates "
                   "random deals (default: any deal)")


def serve_args(p: argparse.ArgumentParser) -> None:
    """``serve``'s address, database and limits (`web.limits.Limits`), with defaults no
    person playing meets."""
    from .web.limits import Limits

    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: "
                   "%(default)s, this machine only)")
    p.add_argument("--port", type=_port, default=8000, help="default: %(default)s")
    p.add_argument("--db", help="SQLite file (default: in the user data directory)")
    d = Limits()
    p.add_argument("--player-games", type=positive_count, default=d.player_games, metavar="N",
                   help="new games a minute per player; more get 429 (default: %(default)s)")
    p.add_argument("--address-games", type=positive_count, default=d.address_games, metavar="N",
                   help="new games a minute per client address (default: %(default)s)")
    p.add_argument("--address-players", type=positive_count, default=d.address_players, metavar="N",
                   help="new players (cookies) a minute per client address (default: "
                        "%(default)s)")
    p.add_argument("--solver-wait", type=positive_seconds, default=d.solver_wait, metavar="S",
                   help="seconds a hint, analysis, solve or deal search may wait for its turn "
                        "at the solver before the answer is 503 (default: %(default)g); each "
                        "player has one solver job at a time and players take turns")
    p.add_argument("--solve-seconds", type=positive_seconds, default=d.solve_seconds,
                   metavar="S", help="CPU seconds \"solve it for me\" may search, or play "
                   "where cards are hidden (default: %(default)g)")


def survey_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--deals", required=True, help="deal numbers: 1-100000, 7 or 1-10,20-30")
    p.add_argument("--workers", type=positive_count,
                   help="processes or Dask workers, at most 256 (default: all cores)")
    budget_args(p, Budget(), per_deal=True)
    p.add_argument("--db", help="survey SQLite file (default: in the user data directory)")
    p.add_argument("--data", metavar="FOLDER",
                   help="survey data files (e.g. data/surveys): resume from their rows and merge "
                   "this run's into them (default: none)")
    p.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="local processes or a Dask cluster (default: %(default)s)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler, e.g. tcp://host:8786 (default: a LocalCluster)")
    p.add_argument("--retry-unknown", action="store_true",
                   help="solve again the deals stored as unknown, but those this solver version "
                   "tried with as large a budget in every limit; their fair verdicts, if any, "
                   "are kept and the fair player not played")
    p.add_argument("--no-fair", action="store_true",
                   help="games that hide cards: only the thoughtful verdict, without the fair "
                   "player's game (seconds a deal); a stored fair verdict is kept (without it, "
                   "a deal stored with no fair verdict is played again)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def report_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", help="game name (or --all)")
    p.add_argument("--all", action="store_true", help="a table of every surveyed game")
    p.add_argument("--db", help="survey SQLite file (default: in the user data directory)")
    p.add_argument("--data", metavar="FOLDER", help="read survey data files (e.g. data/surveys) "
                   "instead of a database (default: none)")
    p.add_argument("--markdown", action="store_true", help="the odds page of every survey in "
                   "--data (docs/odds.md is this, from data/surveys)")
    p.add_argument("--plot", metavar="FILE", help="running estimate and solve times (.png, .svg "
                   "or .pdf; default: no plot)")
    p.add_argument("--worry-back", action="store_true", help="only the survey with worrying back")
    p.add_argument("--foundations", choices=("suit", "rank"),
                   help="only the survey with these foundations (default: every survey of "
                   "GAME)")
