"""Bad input to the JSON API, against the real server (uvicorn in a child process): a new
game, a move or a body of any wrong kind, and a game of another player, each get a 4xx with a
clear message and change nothing, in the view or in the SQLite file."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import test_web_api
from test_web_api import client, detail, new, snapshot, stored_moves

from thirteen.web.process import ServerProcess

# a server in a child process and two players, as the API's tests have them
server, alice, bob = test_web_api.server, test_web_api.alice, test_web_api.bob


@pytest.mark.parametrize("body, status", [
    ({"game": "no-such-game"}, 404),
    ({"game": "bakers-dozen", "number": 0}, 422),
    ({"game": "bakers-dozen", "number": -3}, 422),
    ({"game": "bakers-dozen", "number": 10**20}, 422),
    ({"game": "bakers-dozen", "number": "12abc"}, 422),
    ({"game": "bakers-dozen", "number": 1.5}, 422),
    ({"game": "bakers-dozen", "number": True}, 422),
    ({"game": "bakers-dozen", "number": [9]}, 422),
    ({"game": "bakers-dozen", "surprise": 1}, 422),
    ({"game": "bakers-dozen", "difficulty": "trivial"}, 422),
    ({"game": "bakers-dozen", "difficulty": True}, 422),
    ({"game": "bakers-dozen", "options": {"worry_back": "no"}}, 422),
    ({"game": "bakers-dozen", "options": {"colour": "blue"}}, 422),
    ({"game": "calculation", "options": {"worry_back": True}}, 400),
    ({"game": "bakers-dozen", "board": "KS", "number": 9}, 422),
    ({"game": "bakers-dozen", "board": "KS", "difficulty": "easy"}, 422),
    ({"game": "bakers-dozen", "board": "KS", "resume": True}, 422),
    ({"game": "bakers-dozen", "board": 9}, 422),
    ({"game": "x" * 65}, 422),
    ({"game": ""}, 422),
    ({}, 422),
])
def test_bad_new_game(alice: httpx.Client, body: dict[str, Any], status: int) -> None:
    before = alice.get("/api/games").json()
    r = alice.post("/api/games", json=body)
    assert r.status_code == status, r.text
    detail(r)
    assert alice.get("/api/games").json() == before


def test_bad_moves_change_nothing(server: ServerProcess, alice: httpx.Client) -> None:
    g = new(alice, game="bakers-dozen", number=9)
    gid = g["id"]
    alice.post(f"/api/games/{gid}/moves", json={"move": "c2-f"})
    before, stored = snapshot(alice, gid), stored_moves(server, gid)
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"json": {"move": "c1-c2"}}, 409, "cannot go on"),  # illegal here
        ({"json": {"move": "c99-c2"}}, 409, "no column 99"),
        ({"json": {"move": "s-w1"}}, 409, "no stock"),
        ({"json": {"move": "hello"}}, 400, "malformed move"),
        ({"json": {"move": "c0-c1"}}, 400, "malformed move"),
        ({"json": {"move": ""}}, 422, "move"),
        ({"json": {"move": "c1-c2" + " " * 60}}, 422, "at most 40"),
        ({"json": {"move": 5}}, 422, "move"),
        ({"json": {"move": None}}, 422, "move"),
        ({"json": {}}, 422, "move: Field required"),
        ({"json": {"move": "c1-c3", "auto": "yes"}}, 422, "auto"),
        ({"json": {"move": "c1-c3", "extra": 1}}, 422, "extra"),
        ({"json": ["c1-c3"]}, 422, "request"),
        ({"content": b'{"move": "c1-c3"', "headers": {"content-type": "application/json"}},
         400, "malformed JSON"),
        ({"content": b"\xff\xfe", "headers": {"content-type": "application/json"}}, 400,
         "malformed JSON"),
        ({"content": b'{"move": "c1-c3"}', "headers": {"content-type": "text/plain"}}, 422,
         ""),
        # a legal move, but the page's name (`Sitting`) is forged
        ({"json": {"move": "c1-c3"}, "headers": {"Sitting": "tab-1"}}, 422, "header.Sitting"),
        ({"json": {"move": "c1-c3"}, "headers": {"Sitting": "A" * 32}}, 422, "header.Sitting"),
    ]
    for kwargs, status, words in cases:
        r = alice.post(f"/api/games/{gid}/moves", **kwargs)
        assert r.status_code == status, (kwargs, r.text)
        assert words in detail(r), (kwargs, r.text)
        # a refusal of the rules: the game has not changed, so the page need not read it again
        assert "Game-Version" not in r.headers
        assert snapshot(alice, gid) == before
        assert stored_moves(server, gid) == stored
    named = {"Sitting": "1" * 32}  # with a page's name the id is read for the note (`seen`) too
    for path in ("/api/games/0", "/api/games/-1", "/api/games/abc", "/api/games/99999999",
                 f"/api/games/{2**70}", "/api/games/" + "9" * 5000, "/api/games/\u00b2"):
        assert alice.get(path).status_code in (404, 422)
        assert alice.get(path, headers=named).status_code in (404, 422)
        assert alice.post(path + "/moves", json={"move": "c1-c3"}).status_code in (404, 422)
    r = alice.get("/api/games", headers={"Sitting": "x"})  # refused on every endpoint
    assert r.status_code == 422 and "header.Sitting" in detail(r)


def test_oversized_bodies(server: ServerProcess, alice: httpx.Client) -> None:
    g = new(alice, game="bakers-dozen", number=9)
    gid = g["id"]
    before = snapshot(alice, gid)
    big = json.dumps({"move": "c1-c3", "pad": "x" * 10_000}).encode()
    r = alice.post(f"/api/games/{gid}/moves", content=big,
                   headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in detail(r)

    def chunks() -> Iterator[bytes]:  # no Content-Length: chunked transfer
        yield b'{"move": "c1-c3", "pad": "'
        for _ in range(100):
            yield b"x" * 1000
        yield b'"}'

    r = alice.post(f"/api/games/{gid}/moves", content=chunks(),
                   headers={"content-type": "application/json"})
    assert r.status_code == 413
    r = alice.post("/api/games", content=b"{" + b" " * 5000 + b"}",
                   headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert snapshot(alice, gid) == before
    assert stored_moves(server, gid) == []


def test_another_players_game_is_out_of_reach(server: ServerProcess, alice: httpx.Client,
                                              bob: httpx.Client) -> None:
    g = new(alice, game="bakers-dozen", number=9)
    gid = g["id"]
    alice.post(f"/api/games/{gid}/moves", json={"move": "c2-f"})
    before = snapshot(alice, gid)
    new(bob, game="calculation", number=1)  # bob is a player too
    for method, path, body in [
        ("GET", "", None), ("POST", "/moves", {"move": "c4-f"}), ("POST", "/undo", None),
        ("POST", "/redo", None), ("POST", "/restart", None), ("POST", "/auto", None),
        ("GET", "/hint", None), ("GET", "/analysis", None), ("POST", "/close", None),
    ]:
        r = bob.request(method, f"/api/games/{gid}{path}", json=body)
        assert r.status_code == 404, (path, r.text)
        assert "no game" in detail(r)
    assert gid not in [x["id"] for x in bob.get("/api/games").json()]
    # Without a cookie, or with a forged one, a client is a new player with nothing.
    with client(server) as anonymous:
        assert anonymous.get(f"/api/games/{gid}").status_code == 404
    with client(server) as forger:
        r = forger.get(f"/api/games/{gid}", headers={"cookie": "thirteen_player=" + "A" * 43})
        assert r.status_code == 404
        fresh = r.headers["set-cookie"]
        assert fresh.startswith("thirteen_player=") and "A" * 43 not in fresh
        assert "HttpOnly" in fresh and "SameSite=Strict" in fresh
    assert snapshot(alice, gid) == before
    assert stored_moves(server, gid) == ["c2-f"]
    with sqlite3.connect(server.db) as c:  # bob's close did not end alice's sitting
        assert c.execute("SELECT closed FROM games WHERE id = ?", (gid,)).fetchone() == (None,)


def test_current_without_games(server: ServerProcess) -> None:
    with client(server) as c:
        r = c.get("/api/games/current")
        assert r.status_code == 404 and "no unfinished game" in detail(r)
        assert c.get("/api/games").json() == []
        assert c.get("/api/stats").json() == {}
