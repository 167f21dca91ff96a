"""Opening the SQLite files that thirteen keeps (games and statistics; surveys).

A path is checked before SQLite touches it: SQLite would turn an empty or missing file into a
database, write its tables into another program's database, and fail on a file that is not a
database only at the first statement. Every refusal is a `ValueError` naming the file, which
the command line reports in one line.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite 3 database


def open_db(path: str | Path, table: str, *, create: bool, **connect: Any) -> sqlite3.Connection:
    """A connection to the database at ``path`` whose tables include ``table`` (or that has no
    table yet). ``create``: a missing file (and its folders) is created and the connection
    writes in WAL mode; otherwise the file must exist and is opened read-only."""
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"{p} is a directory, not an SQLite database")
    if p.exists():
        try:
            with p.open("rb") as f:
                head = f.read(len(HEADER))
        except OSError as e:
            raise ValueError(f"cannot read {p}: {e.strerror}") from None
        if head != HEADER:
            raise ValueError(f"{p} is {'empty' if not head else 'not an SQLite database'}"
                             " (give a new file name or a database thirteen made)")
    elif not create:
        raise ValueError(f"no database at {p}")
    else:
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ValueError(f"cannot create {p}: {e.strerror}") from None
    uri = p.resolve().as_uri()
    if not create:
        # read-only; with no log beside it (no writer has it open) also immutable, since a
        # read-only reader would leave SQLite's log and shared-memory files behind
        writer = p.with_name(p.name + "-wal").exists()
        uri += "?mode=ro" + ("" if writer else "&immutable=1")
    try:
        conn: sqlite3.Connection = sqlite3.connect(uri, uri=True, **connect)
    except sqlite3.Error as e:
        raise ValueError(f"cannot open {p}: {e}") from None
    try:
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and table not in tables:
            raise ValueError(f"{p} is an SQLite database of another kind (it has no "
                             f"{table!r} table)")
        if create:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: commits survive a kill
    except sqlite3.Error as e:
        conn.close()
        raise ValueError(f"cannot use {p}: {e}") from None
    except ValueError:
        conn.close()
        raise
    return conn
