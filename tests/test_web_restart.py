"""A killed server loses no answered move: play, kill -9, start again on the same file."""

from __future__ import annotations

from pathlib import Path

import httpx

from thirteen.web.process import ServerProcess

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
