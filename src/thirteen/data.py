"""Survey results as data files: one gzip-compressed CSV per game and option set, and beside it
the list of the deals proved unwinnable, so that every published figure can be checked deal by
deal and a survey on a new machine resumes from them.

A file is named after its game and options (``bakers-dozen.csv.gz``,
``spanish-patience-ii.worry-back.csv.gz``, ``bakers-dozen.foundations-rank.csv.gz``), holds one
row per deal in deal order, and is written byte for byte the same from the same rows (no
timestamp in the gzip header), so that the repository's history shows only real changes.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import sqlite3
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from .survey import connect, merge, rows, store_row
from .variants import GAMES, OPTIONS
from .workers import Row

#: The columns of a data file; a row read back has the survey's other columns as None.
COLUMNS = ("deal", "verdict", "nodes", "seconds", "length", "fair_verdict", "fair_seconds",
           "solver_version", "max_seconds", "max_nodes", "max_mb")
_INTS = {"deal", "nodes", "length", "max_nodes", "max_mb"}
_FLOATS = {"seconds", "fair_seconds", "max_seconds"}
#: Cells every row has: a survey always stores them (its memory budget has no "none").
_REQUIRED = {"deal", "verdict", "solver_version", "max_mb"}
SUFFIX = ".csv.gz"
UNSOLVABLE = ".unsolvable.txt"


def stem(game: str, options: str) -> str:
    """The file name's stem: the game, then each option that differs from the game's own."""
    parts = [game]
    for key, value in sorted(json.loads(options).items()):
        flag = key.replace("_", "-")
        parts.append(flag if value is True else f"{flag}-{value}")
    return ".".join(parts)


def parse_stem(text: str) -> tuple[str, str]:
    """``(game, options JSON)`` from a stem; `ValueError` for one no survey would write."""
    game, *flags = text.split(".")
    if game not in GAMES:
        raise ValueError(f"{text}: no game {game!r}")
    options: dict[str, object] = {}
    for flag in flags:
        key = next((k for k in OPTIONS if flag == k.replace("_", "-")
                    or flag.startswith(k.replace("_", "-") + "-")), None)
        if key is None:
            raise ValueError(f"{text}: unknown option {flag!r}")
        value = flag[len(key) + 1:]
        options[key] = value or True
    return game, json.dumps(options, sort_keys=True, separators=(",", ":"))


def _cell(value: object) -> str:
    """Seconds to four significant digits: finer is noise, and the files stay small."""
    if value is None:
        return ""
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _reader(column: str) -> Callable[[str], object]:
    """How a cell of ``column`` is read (an empty cell is None)."""
    kind: Callable[[str], object] = int if column in _INTS else float if column in _FLOATS else str

    def value(text: str) -> object:
        if not text and column in _REQUIRED:
            raise ValueError(f"no {column}")
        try:
            return kind(text) if text else None
        except ValueError:
            raise ValueError(f"not a {column}: {text[:20]!r}") from None
    return value


def read_file(path: Path) -> list[Row]:
    """The rows of one data file, as `survey.rows` gives them; `ValueError` if malformed."""
    return list(iter_file(path))


def iter_file(path: Path) -> Iterator[Row]:
    """The rows of one data file one at a time; `ValueError` if malformed."""
    game, options = parse_stem(path.name.removesuffix(SUFFIX))
    for values in iter_columns(path, COLUMNS):
        yield {"game": game, "options": options, **dict(zip(COLUMNS, values, strict=True))}


def iter_columns(path: Path, names: tuple[str, ...]) -> Iterator[tuple[object, ...]]:
    """The values of the columns ``names`` of each row of one data file, one row at a time (a
    caller keeping a few columns of a large file never holds all its rows); `ValueError` if
    malformed."""
    parse_stem(path.name.removesuffix(SUFFIX))
    wanted = [(COLUMNS.index(c), _reader(c)) for c in names]
    try:
        with gzip.open(path, "rt", newline="") as f:
            reader = csv.reader(f)
            if tuple(next(reader, ())) != COLUMNS:
                raise ValueError(f"{path}: columns are not {', '.join(COLUMNS)}")
            for line, cells in enumerate(reader, 2):
                if len(cells) != len(COLUMNS):
                    raise ValueError(f"{path}: line {line} has {len(cells)} cells, not "
                                     f"{len(COLUMNS)}")
                try:
                    values = tuple([read(cells[i]) for i, read in wanted])
                except ValueError as e:
                    raise ValueError(f"{path}: line {line}: {e}") from None
                yield values
    except (OSError, EOFError, csv.Error, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: not a survey data file ({e})") from None


def read(directory: str | Path, game: str | None = None,
         options: str | None = None) -> list[Row]:
    """Every row of the data files in ``directory`` (of one game and options, if given)."""
    folder = Path(directory)
    if not folder.is_dir():
        raise ValueError(f"no survey data folder at {folder}")
    out: list[Row] = []
    for path in sorted(folder.glob("*" + SUFFIX)):
        g, o = parse_stem(path.name.removesuffix(SUFFIX))
        if (game is None or g == game) and (options is None or o == options):
            out += read_file(path)
    return out


def write(directory: str | Path, rows: Iterable[Row]) -> list[Path]:
    """Merge ``rows`` into the data files of ``directory`` (created if need be), each deal's rows
    by `survey.merge`; returns the files written. Each file is replaced whole and at once, so a
    killed run leaves the old."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    groups: dict[str, list[Row]] = {}
    for row in rows:
        groups.setdefault(stem(row["game"], row["options"]), []).append(row)
    written = []
    for name, new in sorted(groups.items()):
        path = folder / (name + SUFFIX)
        merged = {r["deal"]: r for r in (read_file(path) if path.exists() else [])}
        for row in new:
            merged[row["deal"]] = merge(row, merged.get(row["deal"]))
        ordered = [merged[d] for d in sorted(merged)]
        _replace(path, _csv_bytes(ordered))
        lost = "".join(f"{r['deal']}\n" for r in ordered if r["verdict"] == "unsolvable")
        _replace(folder / (name + UNSOLVABLE), lost.encode())
        written.append(path)
    return written


def _csv_bytes(rows: list[Row]) -> bytes:
    text = io.StringIO(newline="")
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows([_cell(r.get(c)) for c in COLUMNS] for r in rows)
    return gzip.compress(text.getvalue().encode(), compresslevel=9, mtime=0)


def _replace(path: Path, content: bytes) -> None:
    """Write ``content`` to ``path`` atomically (a temporary file renamed over it)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(content)
        os.chmod(tmp, 0o644)  # a data file like any other (mkstemp makes it private)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# ---- a survey resumed from the files, and its rows merged back --------------------------------
def load_into(db_path: str | Path, directory: str | Path, game: str,
              options: str) -> dict[int, Row]:
    """Store the data files' rows in ``db_path``, so that a survey skips the deals they decide;
    returns those the database now holds as the files do, for `save_from` to leave out.

    A row the database already holds gives way to the files' as `survey.merge` says, the files'
    row taken as the newer: the files hold whatever was merged into them since this database
    last read them (by another survey, or from another machine), and an old copy kept here would
    otherwise be written back over it. A decided row the files lack (a survey killed before it
    merged) is kept and written back; an unknown one of another solver gives way (the files' row
    is still true, and a retry tries the deal again)."""
    found = read(directory, game, options)
    db = connect(db_path)
    try:
        held = {r["deal"]: r for r in _held(db, game, options)}
        loaded = {}
        for row in found:
            kept = held.get(row["deal"])
            if kept is None or not _as_loaded(kept, row):
                kept = store_row(db, row)
            if _as_loaded(kept, row):
                loaded[row["deal"]] = row
        return loaded
    finally:
        db.close()


def _held(db: sqlite3.Connection, game: str, options: str) -> Iterator[Row]:
    """The database's rows of ``game`` and ``options``, the files' columns only."""
    for values in db.execute(f"SELECT {', '.join(COLUMNS)} FROM survey WHERE game = ? AND "
                             "options = ?", (game, options)):
        yield dict(zip(COLUMNS, values, strict=True))


def save_from(db_path: str | Path, directory: str | Path, game: str, options: str,
              loaded: dict[int, Row]) -> list[Path]:
    """Merge the survey database's rows of ``game`` and ``options`` into the data files, but
    those still as `load_into` read them from the files (``loaded``): another survey may have
    merged a row of the same deal since, and an old copy written back could undo it (of two
    unknown rows of different solvers, `survey.merge` keeps the one merged last)."""
    return write(directory, (r for r in rows(db_path, game, options)
                             if not _as_loaded(r, loaded.get(r["deal"]))))


def _as_loaded(row: Row, loaded: Row | None) -> bool:
    """Whether ``row`` is the files' row ``loaded`` as the files would write it: their columns
    only, since the database keeps more of a row (its reason, host and time) than they do, and
    seconds as rounded there."""
    return loaded is not None and all(_cell(row.get(c)) == _cell(loaded.get(c)) for c in COLUMNS)
