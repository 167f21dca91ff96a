"""The SQLite store shared by the web server and the terminal app."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from thirteen.game import Game
from thirteen.session import IDLE_CAP, PlayedElsewhere, Session
from thirteen.store import SCHEMA_VERSION, Stale, Store
from thirteen.variants import GAMES, get_variant

LINE = ["c2-f", "c4-f", "c6-f", "c6-f", "c4-f", "c6-f", "c1-c3"]  # Baker's Dozen deal 9


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "t.sqlite3")


def played(moves: list[str], number: int = 9, game: str = "bakers-dozen") -> Game:
    g = Game.new(game, number)
    for m in moves:
        g.push(m)
    return g


def test_save_and_load_round_trip(store: Store) -> None:
    g = played(LINE)
    g.undo()
    game_id, _ = store.save("alice", g)
    back = store.load_game("alice", game_id)
    assert back.to_dict() == g.to_dict()
    assert back.state == g.state
    assert [str(m) for m in back.redo_stack] == ["c1-c3"]


def test_one_row_per_move_and_updates_rewrite_only_the_tail(store: Store) -> None:
    g = played(LINE[:3])
    game_id, _ = store.save("alice", g)
    g.push(LINE[3])
    store.save("alice", g, game_id)
    g.undo()
    g.undo()
    store.save("alice", g, game_id)
    with sqlite3.connect(store.path) as c:
        rows = c.execute("SELECT ply, move FROM moves WHERE game_id = ? ORDER BY ply",
                         (game_id,)).fetchall()
    assert rows == [(0, "c2-f"), (1, "c4-f")]
    assert [str(m) for m in store.load_game("alice", game_id).redo_stack] == ["c6-f", "c6-f"]


def test_a_player_cannot_load_or_overwrite_anothers_game(store: Store) -> None:
    game_id, _ = store.save("alice", played(LINE[:2]))
    with pytest.raises(KeyError):
        store.load_game("bob", game_id)
    with pytest.raises(KeyError):
        store.save("bob", played([]), game_id)
    with pytest.raises(KeyError):
        store.load_game("alice", game_id + 1000)
    with pytest.raises(KeyError):
        store.game_info("bob", game_id)
    with pytest.raises(KeyError):
        store.finish_game("bob", game_id, True, 1.0, 2)
    assert len(store.load_game("alice", game_id).moves) == 2
    assert store.game_info("alice", game_id)["result"] is None


def test_saves_bump_the_version_and_keep_to_their_deal(store: Store) -> None:
    game_id, version = store.save("alice", played(LINE[:1]))
    assert version == 0
    assert store.save("alice", played(LINE[:2]), game_id) == (game_id, 1)
    with pytest.raises(ValueError, match="another deal"):
        store.save("alice", played([], number=10), game_id)
    assert store.game_info("alice", game_id)["version"] == 1


def test_latest_unfinished_game(store: Store) -> None:
    assert store.latest_game("alice", "bakers-dozen") is None
    first, _ = store.save("alice", played(LINE[:1]))
    second, _ = store.save("alice", played(LINE[:2], number=9))
    calc, _ = store.save("alice", played([], game="calculation", number=1))
    found = store.latest_game("alice", "bakers-dozen")
    assert found is not None and found[0] == second and len(found[1].moves) == 2
    store.save("alice", played(LINE[:3]), first)  # touched last
    found = store.latest_game("alice", "bakers-dozen")
    assert found is not None and found[0] == first
    assert store.latest_game("bob", "bakers-dozen") is None
    assert store.latest_any("alice") == first
    store.finish_game("alice", first, True, 1.0, 3)
    assert store.latest_any("alice") == calc
    assert store.latest_any("bob") is None


def test_find_deal_matches_game_number_and_options(store: Store) -> None:
    plain, _ = store.save("alice", played(LINE[:1]))
    worry = Game.new(GAMES["bakers-dozen"].with_options(worry_back=True), 9)
    worried, _ = store.save("alice", worry)
    assert store.find_deal("alice", "bakers-dozen", 9) == plain
    assert store.find_deal("alice", "bakers-dozen", 9, {"worry_back": True}) == worried
    assert store.find_deal("alice", "bakers-dozen", 10) is None
    assert store.find_deal("alice", "spanish-patience", 9) is None


def test_huge_deal_numbers_survive(store: Store) -> None:
    n = 10**20 - 1
    game_id, _ = store.save("alice", Game.new("bakers-dozen", n))
    assert store.load_game("alice", game_id).number == n
    assert store.find_deal("alice", "bakers-dozen", n) == game_id


def test_statistics_streaks_best_time_fewest_moves(store: Store) -> None:
    empty = store.stats("alice", "bakers-dozen")
    assert empty == {"played": 0, "won": 0, "assisted": 0, "lost": 0, "hints": 0,
                     "win_rate": 0.0, "current_streak": 0, "best_streak": 0, "best_time": None,
                     "fewest_moves": None}
    for won, seconds, moves in [(True, 300, 120), (True, 200, 150), (False, 50, 10),
                                (True, 400, 100)]:
        game_id, _ = store.save("alice", played([]))
        assert store.finish_game("alice", game_id, won, seconds, moves)
    s = store.stats("alice", "bakers-dozen")
    assert s == {"played": 4, "won": 3, "assisted": 0, "lost": 1, "hints": 0, "win_rate": 0.75,
                 "current_streak": 1, "best_streak": 2, "best_time": 200, "fewest_moves": 100}
    assert store.stats("alice", "calculation")["played"] == 0
    assert store.stats("bob", "bakers-dozen")["played"] == 0
    assert set(store.all_stats("alice")) == {"bakers-dozen"}


def test_finish_counts_once_and_abandon_counts_a_loss(store: Store) -> None:
    a, _ = store.save("alice", played(LINE[:2]))
    assert store.finish_game("alice", a, True, 10.0, 2)
    assert not store.finish_game("alice", a, True, 10.0, 2)
    b, _ = store.save("alice", played(LINE[:1]))
    c, _ = store.save("alice", played([]))  # no moves: not counted when abandoned
    new, _ = store.save("alice", played([]))
    assert store.abandon("alice", "bakers-dozen", keep=new) == [b]
    s = store.stats("alice", "bakers-dozen")
    assert (s["played"], s["won"], s["lost"], s["current_streak"]) == (2, 1, 1, 0)
    assert store.game_info("alice", b)["result"] == "lost"
    assert store.game_info("alice", c)["finished"] is None


def test_threads_share_one_store(store: Store) -> None:
    errors: list[BaseException] = []

    def work(player: str) -> None:
        try:
            g = Game.new("bakers-dozen", 9)
            game_id, _ = store.save(player, g)
            for m in LINE:
                g.push(m)
                store.save(player, g, game_id)
            assert store.load_game(player, game_id).to_dict() == g.to_dict()
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(f"p{i}",)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_default_path_is_in_the_user_data_dir(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path))
    with Store() as s:
        assert s.path.is_relative_to(tmp_path)
        assert s.path.exists()


def test_a_second_store_on_the_same_file_sees_committed_games(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    web, terminal = Store(path), Store(path)
    game_id, _ = web.save("alice", played(LINE[:3]))
    assert len(terminal.load_game("alice", game_id).moves) == 3
    assert web.has_player("alice") and not web.has_player("nobody")


def test_a_game_the_solver_played_in_counts_as_assisted_not_won(store: Store) -> None:
    clean, _ = store.save("alice", played(LINE))
    assert store.finish_game("alice", clean, True, 100.0, 7)
    helped, _ = store.save("alice", played(LINE[:2]))
    store.note_help("alice", helped, hint=True)
    store.note_help("alice", helped, hint=True)
    store.note_help("alice", helped, solved=True)
    store.note_help("alice", helped, hint=True)  # a hint later does not clear the flag
    with pytest.raises(KeyError):
        store.note_help("bob", helped, solved=True)
    assert store.finish_game("alice", helped, True, 5.0, 3)  # faster and shorter, but helped
    s = store.stats("alice", "bakers-dozen")
    assert (s["played"], s["won"], s["assisted"], s["lost"], s["hints"]) == (2, 1, 1, 0, 3)
    assert (s["current_streak"], s["best_streak"], s["best_time"], s["fewest_moves"]) == (
        1, 1, 100.0, 7)
    info = store.game_info("alice", helped)
    assert info["assisted"] is True and info["hints"] == 3 and info["result"] == "won"
    listed = {g["id"]: g for g in store.games("alice")}
    assert listed[helped]["assisted"] and not listed[clean]["assisted"]


# The schema as the first version of the store made it, to check that opening migrates it.
FIRST_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE players (id TEXT PRIMARY KEY, created REAL NOT NULL);
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT, player TEXT NOT NULL REFERENCES players(id),
    game TEXT NOT NULL, options TEXT NOT NULL, number TEXT, board TEXT, status TEXT NOT NULL,
    started REAL NOT NULL, updated REAL NOT NULL, finished REAL,
    elapsed REAL NOT NULL DEFAULT 0, redo TEXT NOT NULL DEFAULT '[]',
    version INTEGER NOT NULL DEFAULT 0, result TEXT);
CREATE INDEX games_by_player ON games (player, game, finished, updated);
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE, ply INTEGER NOT NULL,
    move TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
CREATE TABLE stats (
    player TEXT NOT NULL REFERENCES players(id), game TEXT NOT NULL,
    played INTEGER NOT NULL DEFAULT 0, won INTEGER NOT NULL DEFAULT 0,
    lost INTEGER NOT NULL DEFAULT 0, current_streak INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0, best_time REAL, fewest_moves INTEGER,
    PRIMARY KEY (player, game)) WITHOUT ROWID;
INSERT INTO meta VALUES ('schema', '1');
INSERT INTO players VALUES ('alice', 1.0), ('bob', 2.0);
INSERT INTO games (player, game, options, number, status, started, updated, finished, elapsed,
                   version, result)
VALUES ('alice', 'bakers-dozen', '{}', '9', 'in play', 1.0, 2.0, NULL, 12.5, 3, NULL),
       ('bob', 'calculation', '{}', '1', 'won', 1.0, 3.0, 3.0, 99.0, 7, 'won');
INSERT INTO moves VALUES (1, 0, 'c2-f', 1.5), (1, 1, 'c4-f', 1.6), (2, 0, 's-w1', 2.0);
INSERT INTO stats VALUES ('alice', 'bakers-dozen', 5, 3, 2, 1, 2, 250.0, 90),
                         ('bob', 'calculation', 1, 1, 0, 1, 1, 99.0, 104);
"""


def test_a_database_of_the_first_schema_migrates_without_losing_a_row(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as c:
        c.executescript(FIRST_SCHEMA)

    def rows() -> dict[str, list[tuple[object, ...]]]:
        with sqlite3.connect(path) as c:
            return {t: c.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                    for t in ("players", "games", "moves", "stats")}

    before = rows()
    for _ in range(2):  # opening twice migrates once
        with Store(path) as store:
            pass
    after = rows()
    assert {t: len(r) for t, r in after.items()} == {t: len(r) for t, r in before.items()}
    # Every old row is still there, with the new columns at their defaults after it.
    for table, old in before.items():
        assert [row[:len(old[0])] for row in after[table]] == old, table
    with Store(path) as store:
        assert [str(m) for m in store.load_game("alice", 1).moves] == ["c2-f", "c4-f"]
        assert store.game_info("alice", 1)["elapsed"] == 12.5
        s = store.stats("alice", "bakers-dozen")
        assert (s["played"], s["won"], s["assisted"], s["lost"], s["best_time"]) == (
            5, 3, 0, 2, 250.0)
        store.note_help("alice", 1, solved=True)  # the new columns work
        assert store.game_info("alice", 1)["assisted"] is True
        assert store.game_info("alice", 1)["closed"] is None  # an old game is taken as open
    with sqlite3.connect(path) as c:
        schema = c.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        assert schema == (str(SCHEMA_VERSION),)


def test_a_schema_1_database_keeps_what_its_spanish_patience_meant(tmp_path: Path) -> None:
    """Before schema 2, ``spanish-patience`` named PySolFC's Spanish Patience II: opening such
    a database renames its games and statistics, so a saved game keeps its deal and rules."""
    path = tmp_path / "old.sqlite3"
    with Store(path) as store:
        game = Game.new("spanish-patience-ii", 5)
        game.push(game.legal_moves()[0])
        game_id, _ = store.save("alice", game)
        assert store.finish_game("alice", game_id, True, 100.0, 80)
    with sqlite3.connect(path) as c:  # as schema 1 stored it
        c.execute("UPDATE games SET game = 'spanish-patience'")
        c.execute("UPDATE stats SET game = 'spanish-patience'")
        c.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    with Store(path) as store:
        back = store.load_game("alice", game_id)
        assert back.variant.name == "spanish-patience-ii" and back.state == game.state
        assert store.stats("alice", "spanish-patience-ii")["won"] == 1
        assert store.stats("alice", "spanish-patience")["played"] == 0
    with sqlite3.connect(path) as c:
        schema = c.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        assert schema == (str(SCHEMA_VERSION),)


def test_a_database_of_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    Store(path).close()
    with sqlite3.connect(path) as c:
        c.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(ValueError, match="newer"):
        Store(path)


def test_a_game_played_on_elsewhere_is_never_written_over(tmp_path: Path) -> None:
    """Two processes on one game (two terminals, say): the second to save is refused, writes
    nothing and takes the game as stored, so neither loses the other's moves."""
    path = tmp_path / "shared.sqlite3"
    first = Session.start(Store(path), "local", Game.new("bakers-dozen", 9))
    assert first.id is not None
    second = Session.load(Store(path), "local", first.id)
    first.game.push(LINE[0])
    first.commit()
    second.game.push(LINE[0])  # the same move, from the position it read
    with pytest.raises(PlayedElsewhere, match="played on elsewhere"):
        second.commit()
    stored = Store(path).load_game("local", first.id)
    assert [str(m) for m in stored.moves] == LINE[:1]
    assert second.game.state == stored.state and second.version == first.version
    second.game.push(LINE[1])  # in step again: its next move is kept
    second.commit()
    assert [str(m) for m in Store(path).load_game("local", first.id).moves] == LINE[:2]
    with pytest.raises(Stale):
        Store(path).save("local", played(LINE[:3]), first.id, version=first.version)
    assert len(Store(path).load_game("local", first.id).moves) == 2


def test_a_game_changed_elsewhere_that_cannot_be_read_is_not_taken(tmp_path: Path) -> None:
    """A game stored by another process that does not replay (a damaged database) is refused
    in one sentence: nothing is written over, and the session goes back to its last save."""
    path = tmp_path / "shared.sqlite3"
    first = Session.start(Store(path), "local", Game.new("bakers-dozen", 9))
    assert first.id is not None
    first.game.push(LINE[0])
    first.commit()
    second = Session.load(Store(path), "local", first.id)
    second.game.push(LINE[1])
    second.commit()
    with sqlite3.connect(path) as c:
        c.execute("UPDATE moves SET move = 'c1-c1' WHERE ply = 1")
    first.game.push(LINE[1])
    with pytest.raises(PlayedElsewhere, match="cannot be read"):
        first.commit()
    assert [str(m) for m in first.game.moves] == LINE[:1]
    with sqlite3.connect(path) as c:
        assert [m for (m,) in c.execute("SELECT move FROM moves ORDER BY ply")] == [
            LINE[0], "c1-c1"]


def age(path: Path, game_id: int, seconds: float) -> None:
    """Move a game's stored times ``seconds`` into the past, as if its last save (and the end
    of its sitting, if it ended) were that long ago."""
    with sqlite3.connect(path) as c:
        c.execute("UPDATE games SET updated = updated - ?, closed = closed - ? WHERE id = ?",
                  (seconds, seconds, game_id))


def test_a_closed_game_opened_again_counts_no_time_between_the_sittings(tmp_path: Path) -> None:
    """The end of a sitting keeps the play time up to it; opened an hour later, the game's
    clock starts at the opening. A sitting that ended without a word (a killed process) counts
    the pause after it, up to the cap, since nothing said it ended."""
    path = tmp_path / "clock.sqlite3"
    s = Session.start(Store(path), "local", Game.new("bakers-dozen", 9))
    assert s.id is not None
    s.game.push(LINE[0])
    s.commit()
    s.last_active -= 100  # 100 s of thought since the move, then the player quits
    s.close()
    info = Store(path).game_info("local", s.id)
    assert info["closed"] is not None and info["elapsed"] == pytest.approx(s.elapsed)
    assert s.elapsed == pytest.approx(100, abs=5)
    assert info["version"] == s.version  # a close is no change to the game
    age(path, s.id, 3600)
    again = Session.resume(Store(path), "local", get_variant("bakers-dozen"), 9)
    assert again is not None and again.clock() == pytest.approx(100, abs=5)
    again.game.push(LINE[1])
    again.commit()  # played again: open, its clock running from this save
    assert Store(path).game_info("local", s.id)["closed"] is None
    age(path, s.id, 3600)  # then killed: the pause after the last save counts, up to the cap
    killed = Session.load(Store(path), "local", s.id)
    assert killed.clock() == pytest.approx(again.elapsed + IDLE_CAP, abs=5)


def test_a_close_writes_nothing_over_a_game_saved_elsewhere_or_over(tmp_path: Path) -> None:
    path = tmp_path / "clock.sqlite3"
    first = Session.start(Store(path), "local", Game.new("bakers-dozen", 9))
    assert first.id is not None
    second = Session.load(Store(path), "local", first.id)
    second.game.push(LINE[0])
    second.elapsed = 50.0
    second.commit()
    first.elapsed = 1000.0
    first.close()  # read before the other's save: that process has the game
    info = Store(path).game_info("local", first.id)
    assert info["closed"] is None and info["elapsed"] < 1000
    untouched = Session.start(Store(path), "local", Game.new("bakers-dozen", 10))
    assert untouched.id is not None
    untouched.leave()  # an untouched game left for another stays unfinished, its sitting ended
    info = Store(path).game_info("local", untouched.id)
    assert info["closed"] is not None and info["result"] is None
    with pytest.raises(KeyError):
        Store(path).close_game("mallory", first.id, 1.0, second.version)
    Store(path).finish_game("local", first.id, False, 60.0, 1)
    assert not Store(path).close_game("local", first.id, 1.0, second.version)
    assert Store(path).game_info("local", first.id)["elapsed"] < 1000
