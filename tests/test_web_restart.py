"""A killed server loses no answered move: play, kill -9, start again on the same file. Two
servers on one file never write over each other's moves."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from fastapi import HTTPException

from thirteen.game import Game
from thirteen.store import Store
from thirteen.web.process import ServerProcess
from thirteen.web.server import Server

LINE = (Path(__file__).parent / "browser" / "data" / "bakers-dozen-9.moves").read_text().split()


def test_kill_9_and_restart(tmp_path: Path) -> None:
    db = tmp_path / "restart.sqlite3"
    first = ServerProcess(db).start()
    try:
        with httpx.Client(base_url=first.url, timeout=30) as c:
            g = c.post("/api/games", json={"game": "bakers-dozen", "number": 9}).json()
            gid = g["id"]
            for m in LINE[:8]:
                assert c.post(f"/api/games/{gid}/moves", json={"move": m}).status_code == 200
            last = c.post(f"/api/games/{gid}/undo").json()
            calc = c.post("/api/games", json={"game": "calculation", "number": 1}).json()
            c.post(f"/api/games/{calc['id']}/moves", json={"move": "s-w1"})
            token = c.cookies["thirteen_player"]
    finally:
        first.kill()  # SIGKILL straight after the last answer: no shutdown code runs
    assert first.proc is not None and first.proc.returncode == -9

    with ServerProcess(db, port=first.port) as second, httpx.Client(
        base_url=second.url, timeout=30, cookies={"thirteen_player": token}
    ) as c:
        again = c.get(f"/api/games/{gid}").json()
        assert again["moves"] == LINE[:7] and again["redo"] == 1
        assert again["view"] == last["view"]
        assert c.get(f"/api/games/{calc['id']}").json()["view"]["waste"][0] == ["JD"]
        assert c.get("/api/games/current").json()["id"] == calc["id"]
        r = c.post(f"/api/games/{gid}/redo")
        assert r.status_code == 200 and r.json()["moves"] == LINE[:8]


def test_two_servers_on_one_file_never_write_over_each_others_moves(tmp_path: Path) -> None:
    """A move played through one server between another's reading the game and its writing:
    the second write is refused (409, nothing written) and that server then has the game as
    stored."""
    db = tmp_path / "shared.sqlite3"
    one, two = Server(Store(db)), Server(Store(db))
    player = "p" * 22
    game_id = one.create(player, Game.new("bakers-dozen", 9)).key
    late = one.session(player, game_id)  # read, then the other server plays
    first = two.session(player, game_id)
    first.game.push(LINE[0])
    two.commit(first)
    late.game.push(LINE[0])
    with pytest.raises(HTTPException) as refused:
        one.commit(late)
    assert refused.value.status_code == 409 and "nothing was done" in refused.value.detail
    assert [str(m) for m in Store(db).load_game(player, game_id).moves] == LINE[:1]
    now = one.session(player, game_id)
    assert [str(m) for m in now.game.moves] == LINE[:1]
    now.game.push(LINE[1])
    one.commit(now)
    assert [str(m) for m in Store(db).load_game(player, game_id).moves] == LINE[:2]
