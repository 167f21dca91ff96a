"""The committed survey data (``data/surveys``) as the benchmarks read it, to pick deals.

Why a module: `node_counts.py`, `calculation_solver.py`, `fcsolve_unknown.py` and
`relaxed_games.py` choose deals by what the survey recorded, and all must refuse a game
without data before any search.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator
from pathlib import Path

from thirteen import data

SURVEYS = Path(__file__).resolve().parent.parent / "data" / "surveys"


def path(game: str) -> Path:
    """The data file of ``game`` played by its own rules."""
    return SURVEYS / (data.stem(game, "{}") + data.SUFFIX)


def require(parser: argparse.ArgumentParser, games: Iterable[str]) -> None:
    """Refuse, in one line, a game the committed data does not have."""
    for game in games:
        if not path(game).is_file():
            parser.error(f"no survey data of {game} in {SURVEYS.name}")


def columns(game: str, names: tuple[str, ...]) -> Iterator[tuple[object, ...]]:
    """The columns ``names`` of each of the game's rows."""
    return data.iter_columns(path(game), names)


def unknown(game: str, tried: float = 0.0) -> list[int]:
    """The deals of ``game`` left unknown by a budget of at least ``tried`` seconds (a row
    with no time limit counts as tried for ever), in order."""
    rows = columns(game, ("deal", "verdict", "max_seconds"))
    return sorted(deal for deal, verdict, limit in rows
                  if isinstance(deal, int) and verdict == "unknown"
                  and (not isinstance(limit, float) or limit >= tried))
