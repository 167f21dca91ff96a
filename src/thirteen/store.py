"""SQLite storage shared by the web server and the terminal app: players, games, moves and
per-player statistics.

One row per game and one row per move; every write is committed before the method returns,
so a front end that answers only after `Store.save_game` returns never loses an answered move,
even when its process is killed (the database runs in WAL mode with ``synchronous=NORMAL``:
a commit survives a killed process; only a power cut can lose the last few commits).

One connection is shared by all threads behind a lock: every statement here is short, and
SQLite serialises writers anyway.

A *player* is any string the front end chooses: the web server uses unguessable tokens
(`new_token`), the terminal app a local name. A player can only load their own games.

Help is recorded as help: a game in which the player asked the solver to play for them is
*assisted*; won, it counts in ``assisted``, never in ``won``, the streaks, the best time or
the fewest moves. Hints are counted per game. A database made before these columns existed
gets them on opening (`_migrate`), its rows kept.

A game whose sitting ended (the terminal app quit, the page was left) is saved *closed*, with
its play time up to then: opened again, its clock starts at the opening, so the hours between
two sittings are no play (`thirteen.session`). Every other save opens it.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .dbfile import open_db
from .variants import RENAMED

if TYPE_CHECKING:
    from .game import Game

#: Schema 2: game names mean today's games (schema 1 named Spanish Patience II
#: ``spanish-patience``; `variants.RENAMED`). Schema 3: help is recorded (`_ADDED`).
#: Schema 4: the daily deals and each player's game of one (`_DAILY`). Schema 5: a game's
#: sitting may end (`_CLOSED`).
SCHEMA_VERSION = 5

#: The columns of schema 3, with defaults that keep every older row's meaning: whether the
#: solver played in a game, the hints it took, and the games won with the solver's help.
_ADDED = (
    ("games", "assisted", "INTEGER NOT NULL DEFAULT 0"),  # 1 once the solver played for them
    ("games", "hints", "INTEGER NOT NULL DEFAULT 0"),  # hints asked for in this game
    ("stats", "assisted", "INTEGER NOT NULL DEFAULT 0"),  # games won with the solver's help
)

#: The column of schema 5: when the game's last sitting ended (NULL: it is open, as every
#: older row is taken to be).
_CLOSED = (("games", "closed", "REAL"),)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,            -- a web token or a local name
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    player TEXT NOT NULL REFERENCES players(id),
    game TEXT NOT NULL,             -- the variant's name
    options TEXT NOT NULL,          -- JSON object of player options
    number TEXT,                    -- the deal number (decimal: up to 20 digits), or NULL
    board TEXT,                     -- fc-solve board text when number is NULL
    status TEXT NOT NULL,           -- 'in play', 'won', 'lost'
    started REAL NOT NULL,          -- unix times
    updated REAL NOT NULL,
    finished REAL,                  -- set when the game is won or its result recorded
    elapsed REAL NOT NULL DEFAULT 0,  -- seconds of play, as the front end counts them
    redo TEXT NOT NULL DEFAULT '[]',  -- JSON list: the redo stack, bottom first
    version INTEGER NOT NULL DEFAULT 0,  -- bumped by every save
    result TEXT                     -- 'won' or 'lost' once counted in the statistics
);
CREATE INDEX IF NOT EXISTS games_by_player ON games (player, game, finished, updated);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,           -- 0-based position in the game's current line
    move TEXT NOT NULL,             -- project notation, e.g. c3-c7
    at REAL NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS stats (
    player TEXT NOT NULL REFERENCES players(id),
    game TEXT NOT NULL,
    played INTEGER NOT NULL DEFAULT 0,
    won INTEGER NOT NULL DEFAULT 0,
    lost INTEGER NOT NULL DEFAULT 0,
    current_streak INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    best_time REAL,
    fewest_moves INTEGER,
    PRIMARY KEY (player, game)
) WITHOUT ROWID;
"""


#: The daily deal of each game and day with the solver's winning line (its certificate), and
#: the game each player plays of it.
_DAILY = (
    """CREATE TABLE IF NOT EXISTS daily (
        day TEXT NOT NULL,              -- UTC date, YYYY-MM-DD
        game TEXT NOT NULL,
        number TEXT NOT NULL,           -- the deal number
        line TEXT NOT NULL,             -- the solver's winning line, moves separated by spaces
        PRIMARY KEY (day, game)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS daily_games (
        player TEXT NOT NULL REFERENCES players(id),
        day TEXT NOT NULL,
        game TEXT NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        PRIMARY KEY (player, day, game)
    ) WITHOUT ROWID""",
)


def _to_schema_2(c: sqlite3.Connection) -> None:
    """Rename the games whose names now mean another game, so nothing saved changes rules."""
    for old, new in RENAMED.items():
        c.execute("UPDATE games SET game = ? WHERE game = ?", (new, old))
        c.execute("UPDATE stats SET game = ? WHERE game = ?", (new, old))


def _add_columns(c: sqlite3.Connection, columns: tuple[tuple[str, str, str], ...]) -> None:
    """Add the ``(table, column, kind)`` columns that a table lacks."""
    for table, column, kind in columns:
        have = {row[1] for row in c.execute(f"PRAGMA table_info({table})")}
        if column not in have:
            c.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


def _to_schema_3(c: sqlite3.Connection) -> None:
    """Add the columns that record help (`_ADDED`)."""
    _add_columns(c, _ADDED)


def _to_schema_4(c: sqlite3.Connection) -> None:
    """Add the daily deals' tables (`_DAILY`)."""
    for statement in _DAILY:
        c.execute(statement)


def _to_schema_5(c: sqlite3.Connection) -> None:
    """Add the column that ends a sitting (`_CLOSED`)."""
    _add_columns(c, _CLOSED)


#: The step that brings a database from schema ``k - 1`` to ``k``.
_MIGRATIONS = {2: _to_schema_2, 3: _to_schema_3, 4: _to_schema_4, 5: _to_schema_5}


def _migrate(c: sqlite3.Connection, path: Path) -> None:
    """Bring an older database up to `SCHEMA_VERSION`, in the caller's transaction."""
    (version,), = c.execute("SELECT value FROM meta WHERE key = 'schema'").fetchall()
    version = int(version)
    if version > SCHEMA_VERSION:
        raise ValueError(f"{path} was written by a newer thirteen (schema {version})")
    for step in range(version + 1, SCHEMA_VERSION + 1):
        _MIGRATIONS[step](c)
    c.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))


def default_path() -> Path:
    """``thirteen.sqlite3`` in the user's data directory (created if missing)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("thirteen"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "thirteen.sqlite3"


def _text(number: object) -> str | None:
    return None if number is None else str(number)


def _number(text: str | None) -> int | None:
    """A stored deal number back as an int (stored as text: it may need 20 digits)."""
    return None if text is None else int(text)


def new_token() -> str:
    """An unguessable player token (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


class Stale(Exception):
    """A game was saved by another process since this one read it (`Store.save`)."""


class Store:
    """Players, games, moves and statistics in one SQLite file."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self._lock = threading.RLock()
        # refuses (ValueError) a path that is not a database of games, before writing to it
        self._conn = open_db(self.path, "games", create=True, check_same_thread=False,
                             isolation_level=None, timeout=30.0)
        self._conn.execute("PRAGMA foreign_keys=ON")
        with self._lock:
            self._conn.executescript(_SCHEMA)
        with self._tx() as c:
            # A new database starts at schema 1, which `_SCHEMA` makes, and takes the same steps
            # up as an old one.
            c.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', '1')")
            _migrate(c, self.path)

    # ---- plumbing --------------------------------------------------------------------------
    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One transaction under the lock: committed on success, rolled back on error."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._conn.execute(sql, args).fetchall())

    @staticmethod
    def _owned(c: sqlite3.Connection, columns: str, player: str, game_id: int) -> tuple[Any, ...]:
        """``columns`` of one of ``player``'s games: the one check that keeps players apart.
        `KeyError` if the game is not theirs."""
        row = c.execute(f"SELECT {columns} FROM games WHERE id = ? AND player = ?",
                        (game_id, player)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id} for this player")
        return tuple(row)

    @staticmethod
    def _stored_moves(c: sqlite3.Connection, game_id: int) -> list[str]:
        return [m for (m,) in c.execute(
            "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]

    def _latest_unfinished(self, player: str, **equal: str) -> int | None:
        """The id of ``player``'s most recently saved unfinished game whose columns named by
        ``equal`` hold its values (the names come from this module, never from input)."""
        where = "".join(f" AND {column} = ?" for column in equal)
        rows = self._read(
            f"SELECT id FROM games WHERE player = ? AND finished IS NULL{where}"
            " ORDER BY updated DESC, id DESC LIMIT 1",
            (player, *equal.values()),
        )
        return int(rows[0][0]) if rows else None

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- players ---------------------------------------------------------------------------
    def has_player(self, player: str) -> bool:
        return bool(self._read("SELECT 1 FROM players WHERE id = ?", (player,)))

    @staticmethod
    def _ensure_player(c: sqlite3.Connection, player: str) -> None:
        c.execute(
            "INSERT OR IGNORE INTO players (id, created) VALUES (?, ?)", (player, time.time())
        )

    # ---- games -----------------------------------------------------------------------------
    def save(
        self,
        player: str,
        game: Game,
        game_id: int | None = None,
        *,
        elapsed: float | None = None,
        status: str | None = None,
        moves: list[str] | None = None,
        stored: list[str] | None = None,
        version: int | None = None,
    ) -> tuple[int, int]:
        """Insert (``game_id`` None) or update a whole game, moves and redo stack included;
        returns (id, version). Only the moves that changed are rewritten. Raises `KeyError`
        if ``game_id`` is not one of ``player``'s games, and `Stale`, writing nothing, if
        ``version`` is given and is no longer the stored one: another process (a second
        terminal, another server) saved the game since this one read it, and writing over
        that would lose its moves. Callers that keep games in memory may pass shortcuts:
        ``status`` (the game's status), ``moves`` (its moves as text) and ``stored`` (the moves
        known to be stored under ``game_id`` now). A save opens a closed game
        (`close_game`)."""
        v = game.variant
        status = status if status is not None else game.status()
        texts = moves if moves is not None else [str(m) for m in game.moves]
        redo = json.dumps([str(m) for m in game.redo_stack])
        options = json.dumps(v.options())
        number = _text(game.number)
        now = time.time()
        with self._tx() as c:
            if game_id is None:
                self._ensure_player(c, player)
                board = game.to_dict()["board"]
                cur = c.execute(
                    "INSERT INTO games (player, game, options, number, board, status, started,"
                    " updated, elapsed, redo) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (player, v.name, options, number, board, status, now, now, elapsed or 0.0,
                     redo),
                )
                assert cur.lastrowid is not None
                game_id = int(cur.lastrowid)
                old: list[str] = []
                version = 0
            else:
                version = self._next_version(c, player, game_id, (v.name, number), version)
                old = stored if stored is not None else self._stored_moves(c, game_id)
                c.execute(
                    "UPDATE games SET options = ?, status = ?, updated = ?, redo = ?,"
                    " elapsed = COALESCE(?, elapsed), version = ?, closed = NULL,"
                    " finished = CASE WHEN ? = 'won' THEN COALESCE(finished, ?) ELSE finished END"
                    " WHERE id = ?",
                    (options, status, now, redo, elapsed, version, status, now, game_id),
                )
            self._rewrite_moves(c, game_id, old, texts, now)
            if status == "won":
                c.execute("UPDATE games SET finished = COALESCE(finished, ?) WHERE id = ?",
                          (now, game_id))
        return game_id, version

    @classmethod
    def _next_version(cls, c: sqlite3.Connection, player: str, game_id: int,
                      deal: tuple[str, str | None], read: int | None) -> int:
        """The version a save of ``game_id`` writes, once it is known that it may: the game is
        ``player``'s and of this ``deal`` (`ValueError`), and still at the version ``read``
        where one is given (`Stale`)."""
        name, number, version = cls._owned(c, "game, number, version", player, game_id)
        if (name, number) != deal:
            raise ValueError(f"game {game_id} is another deal; save it under a new id")
        if read is not None and read != version:
            raise Stale(f"game {game_id} was saved elsewhere since it was read")
        return int(version) + 1

    @staticmethod
    def _rewrite_moves(c: sqlite3.Connection, game_id: int, old: list[str], texts: list[str],
                       now: float) -> None:
        """Make the stored moves ``old`` of ``game_id`` read ``texts``: the common beginning
        stays, the rest of ``old`` is deleted and the rest of ``texts`` inserted."""
        same = 0
        while same < min(len(old), len(texts)) and old[same] == texts[same]:
            same += 1
        if len(old) > same:
            c.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, same))
        c.executemany(
            "INSERT INTO moves (game_id, ply, move, at) VALUES (?, ?, ?, ?)",
            [(game_id, ply, texts[ply], now) for ply in range(same, len(texts))],
        )

    def close_game(self, player: str, game_id: int, elapsed: float, version: int) -> bool:
        """End the sitting of an unfinished game, saved at ``version``, with ``elapsed``
        seconds of play; False, writing nothing, if the game was saved since (the process that
        saved it has it now) or is finished. Its moves and version stay: a close is no change
        to the game, so no other tab's next act is refused for it. `KeyError` if the game is
        not ``player``'s."""
        with self._tx() as c:
            self._owned(c, "id", player, game_id)
            done = c.execute("UPDATE games SET elapsed = ?, closed = ? WHERE id = ?"
                             " AND version = ? AND result IS NULL AND finished IS NULL",
                             (elapsed, time.time(), game_id, version)).rowcount
        return done == 1

    def load_game(self, player: str, game_id: int) -> Game:
        """The game as last saved; `KeyError` if it is not one of ``player``'s games."""
        from .game import Game

        with self._lock:
            name, options, number, board, redo = self._owned(
                self._conn, "game, options, number, board, redo", player, game_id)
            moves = self._stored_moves(self._conn, game_id)
        return Game.from_dict({
            "game": name, "options": json.loads(options), "number": _number(number),
            "board": board, "moves": moves, "redo": json.loads(redo),
        })

    def latest_game(self, player: str, game_name: str) -> tuple[int, Game] | None:
        """``player``'s most recently saved unfinished game of ``game_name``, if any."""
        game_id = self._latest_unfinished(player, game=game_name)
        return None if game_id is None else (game_id, self.load_game(player, game_id))

    def latest_any(self, player: str) -> int | None:
        """The id of ``player``'s most recently saved unfinished game of any kind."""
        return self._latest_unfinished(player)

    def find_deal(self, player: str, game_name: str, number: int,
                  options: dict[str, object] | None = None) -> int | None:
        """The id of ``player``'s latest unfinished game of deal ``number``, if any."""
        return self._latest_unfinished(player, game=game_name, number=str(number),
                                       options=json.dumps(options or {}))

    def game_info(self, player: str, game_id: int) -> dict[str, Any]:
        """The game's row without its moves; `KeyError` if not ``player``'s."""
        keys = ("id", "game", "options", "number", "status", "started", "updated", "finished",
                "elapsed", "version", "result", "assisted", "hints", "closed")
        with self._lock:
            row = self._owned(self._conn, ", ".join(keys), player, game_id)
        info = dict(zip(keys, row, strict=True))
        info["options"] = json.loads(info["options"])
        info["number"] = _number(info["number"])
        info["assisted"] = bool(info["assisted"])
        return info

    def games(self, player: str, limit: int = 50) -> list[dict[str, Any]]:
        """``player``'s games, most recently saved first."""
        rows = self._read(
            "SELECT g.id, g.game, g.number, g.status, g.started, g.updated, g.finished,"
            " g.elapsed, g.result, g.assisted, g.hints,"
            " (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)"
            " FROM games g WHERE g.player = ? ORDER BY g.updated DESC, g.id DESC LIMIT ?",
            (player, limit),
        )
        keys = ("id", "game", "number", "status", "started", "updated", "finished", "elapsed",
                "result", "assisted", "hints", "moves")
        out = [dict(zip(keys, r, strict=True)) for r in rows]
        for g in out:
            g["number"] = _number(g["number"])
            g["assisted"] = bool(g["assisted"])
        return out

    def abandon(self, player: str, game_name: str, keep: int | None = None) -> list[int]:
        """Count ``player``'s other unfinished games of ``game_name`` that have moves as lost
        (a new deal abandons them) and mark them finished; returns their ids."""
        now = time.time()
        with self._tx() as c:
            rows = c.execute(
                "SELECT g.id, g.elapsed FROM games g WHERE g.player = ? AND g.game = ?"
                " AND g.finished IS NULL AND g.result IS NULL AND g.id IS NOT ?"
                " AND EXISTS (SELECT 1 FROM moves m WHERE m.game_id = g.id)",
                (player, game_name, keep),
            ).fetchall()
            for game_id, _elapsed in rows:
                c.execute("UPDATE games SET result = 'lost', finished = ? WHERE id = ?",
                          (now, game_id))
                self._record(c, player, game_name, False, 0.0, 0)
        return [int(r[0]) for r in rows]

    def note_help(self, player: str, game_id: int, *, solved: bool = False,
                  hint: bool = False) -> None:
        """Record help given in a game: the solver played for the player (``solved``: the game
        is assisted from now on, even if the moves are taken back), or one more hint.
        `KeyError` if the game is not ``player``'s."""
        with self._tx() as c:
            self._owned(c, "id", player, game_id)
            c.execute("UPDATE games SET assisted = MAX(assisted, ?), hints = hints + ?"
                      " WHERE id = ?", (int(solved), int(hint), game_id))

    # ---- daily deals -----------------------------------------------------------------------
    def daily(self, day: str, game_name: str) -> tuple[int, list[str]] | None:
        """The certified daily deal of ``game_name`` on ``day``: its number and winning line."""
        rows = self._read("SELECT number, line FROM daily WHERE day = ? AND game = ?",
                          (day, game_name))
        return (int(rows[0][0]), rows[0][1].split()) if rows else None

    def save_daily(self, day: str, game_name: str, number: int, line: list[str]) -> None:
        """Keep a daily deal's certificate (the first one kept stands: it is the same deal)."""
        with self._tx() as c:
            c.execute("INSERT OR IGNORE INTO daily (day, game, number, line) VALUES (?, ?, ?, ?)",
                      (day, game_name, str(number), " ".join(line)))

    def daily_games(self, player: str, day: str) -> dict[str, int]:
        """The games ``player`` plays of ``day``'s daily deals, by game name."""
        return {name: int(game_id) for name, game_id in self._read(
            "SELECT game, game_id FROM daily_games WHERE player = ? AND day = ?", (player, day))}

    def set_daily_game(self, player: str, day: str, game_name: str, game_id: int) -> None:
        """Record that ``player`` plays ``day``'s daily deal of ``game_name`` as ``game_id``."""
        with self._tx() as c:
            self._owned(c, "id", player, game_id)
            c.execute("INSERT OR REPLACE INTO daily_games (player, day, game, game_id)"
                      " VALUES (?, ?, ?, ?)", (player, day, game_name, game_id))

    # ---- statistics ------------------------------------------------------------------------
    @staticmethod
    def _record(c: sqlite3.Connection, player: str, game_name: str, won: bool,
                seconds: float, moves: int, assisted: bool = False) -> None:
        """Count one result; a win with the solver's help only as ``assisted`` (and played):
        it is no win, and it neither makes nor breaks a streak."""
        Store._ensure_player(c, player)
        c.execute("INSERT OR IGNORE INTO stats (player, game) VALUES (?, ?)", (player, game_name))
        if won and assisted:
            c.execute("UPDATE stats SET played = played + 1, assisted = assisted + 1"
                      " WHERE player = ? AND game = ?", (player, game_name))
        elif won:
            c.execute(
                "UPDATE stats SET played = played + 1, won = won + 1,"
                " current_streak = current_streak + 1,"
                " best_streak = MAX(best_streak, current_streak + 1),"
                " best_time = MIN(COALESCE(best_time, ?), ?),"
                " fewest_moves = MIN(COALESCE(fewest_moves, ?), ?)"
                " WHERE player = ? AND game = ?",
                (seconds, seconds, moves, moves, player, game_name),
            )
        else:
            c.execute(
                "UPDATE stats SET played = played + 1, lost = lost + 1, current_streak = 0"
                " WHERE player = ? AND game = ?",
                (player, game_name),
            )

    def finish_game(self, player: str, game_id: int, won: bool, seconds: float,
                    moves: int) -> bool:
        """Count a saved game's result once (later calls do nothing and return False) and mark
        it finished; a game the solver played in counts as assisted. `KeyError` if it is not
        ``player``'s."""
        with self._tx() as c:
            name, result, assisted = self._owned(c, "game, result, assisted", player, game_id)
            if result is not None:
                return False
            now = time.time()
            c.execute(
                "UPDATE games SET result = ?, finished = COALESCE(finished, ?) WHERE id = ?",
                ("won" if won else "lost", now, game_id),
            )
            self._record(c, player, name, won, seconds, moves, bool(assisted))
        return True

    def stats(self, player: str, game_name: str) -> dict[str, Any]:
        """played, won (clean wins), assisted (won with the solver's help), lost, win_rate
        (clean wins over played, 0..1), current_streak, best_streak, best_time (seconds or
        None), fewest_moves (or None), hints (asked for in all games of ``game_name``)."""
        rows = self._read(
            "SELECT played, won, assisted, lost, current_streak, best_streak, best_time,"
            " fewest_moves FROM stats WHERE player = ? AND game = ?",
            (player, game_name),
        )
        played, won, assisted, lost, current, best, best_time, fewest = (
            rows[0] if rows else (0, 0, 0, 0, 0, 0, None, None)
        )
        hints = self._read("SELECT COALESCE(SUM(hints), 0) FROM games WHERE player = ?"
                           " AND game = ?", (player, game_name))[0][0]
        return {
            "played": played, "won": won, "assisted": assisted, "lost": lost, "hints": hints,
            "win_rate": won / played if played else 0.0,
            "current_streak": current, "best_streak": best,
            "best_time": best_time, "fewest_moves": fewest,
        }

    def all_stats(self, player: str) -> dict[str, dict[str, Any]]:
        """``stats`` for every game ``player`` has a result in."""
        names = [n for (n,) in self._read(
            "SELECT game FROM stats WHERE player = ? ORDER BY game", (player,))]
        return {n: self.stats(player, n) for n in names}
