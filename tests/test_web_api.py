"""The JSON API with httpx against the real server (uvicorn in a child process) on a real
SQLite file: every endpoint, options and typed-in boards (bad input: test_web_bad_input.py)."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from thirteen import grades
from thirteen.calculation import CalcState
from thirteen.deal import deal, format_board
from thirteen.game import Game, new_state, start_state
from thirteen.packer import PackerState
from thirteen.rules import describe
from thirteen.solver import Budget, solve
from thirteen.solver.services import EASY_NODES
from thirteen.variants import GAMES, get_variant
from thirteen.web.process import WEB_MODULE, ServerProcess
from thirteen.web.view import annotate

WIN_LINE = (Path(__file__).parent / "browser" / "data" / "bakers-dozen-9.moves").read_text().split()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("api") / "api.sqlite3"
    with ServerProcess(db) as s:
        yield s


def client(server: ServerProcess) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=30)


@pytest.fixture
def alice(server: ServerProcess) -> Iterator[httpx.Client]:
    with client(server) as c:
        yield c


@pytest.fixture
def bob(server: ServerProcess) -> Iterator[httpx.Client]:
    with client(server) as c:
        yield c


def new(c: httpx.Client, **body: Any) -> dict[str, Any]:
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def snapshot(c: httpx.Client, game_id: int) -> dict[str, Any]:
    r = c.get(f"/api/games/{game_id}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return {k: data[k] for k in ("view", "moves", "redo", "status", "legal")}


def stored_moves(server: ServerProcess, game_id: int) -> list[str]:
    with sqlite3.connect(server.db) as c:
        return [m for (m,) in c.execute(
            "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]


def detail(r: httpx.Response) -> str:
    body = r.json()
    assert isinstance(body["detail"], str) and body["detail"]
    return str(body["detail"])


# ---- games of the registry -----------------------------------------------------------------


def test_variants(alice: httpx.Client) -> None:
    r = alice.get("/api/variants")
    assert r.status_code == 200
    names = [v["name"] for v in r.json()]
    assert "bakers-dozen" in names and "imaginary-thirteen" in names
    one = alice.get("/api/variants/calculation").json()
    assert one["family"] == "calculation" and "Calculation" in one["rules"]
    options = {v["name"]: v["options"] for v in r.json()}
    assert options["bakers-dozen"] == {"worry_back": False, "foundations": "suit"}
    assert options["spanish-patience-rank"] == {"worry_back": False, "foundations": "rank"}
    assert options["bisley"] == {} and options["calculation"] == {}
    r = alice.get("/api/variants/no-such-game")
    assert r.status_code == 404 and "unknown game" in detail(r)


def test_variant_rules_with_options(alice: httpx.Client) -> None:
    """The Rules dialog's question: one game's rules as the player's options change them; the
    answer keeps its shape and ``options`` stays the game's own values."""
    plain = alice.get("/api/variants/bakers-dozen").json()
    r = alice.get("/api/variants/bakers-dozen", params={"worry_back": "true",
                                                       "foundations": "rank"})
    assert r.status_code == 200, r.text
    got = r.json()
    assert set(got) == set(plain) and got["options"] == plain["options"]
    changed = get_variant("bakers-dozen", worry_back=True, foundations="rank")
    assert got["rules"] == describe(changed) != plain["rules"]
    assert "worrying back" in got["rules"] and "worrying back" not in plain["rules"]
    one = alice.get("/api/variants/bakers-dozen", params={"worry_back": "false"}).json()
    assert one == plain
    for query, code in (({"foundations": "colour"}, 422), ({"worry_back": "maybe"}, 422)):
        r = alice.get("/api/variants/bakers-dozen", params=query)
        assert r.status_code == code and "\n" not in detail(r)
    r = alice.get("/api/variants/calculation", params={"worry_back": "true"})
    assert r.status_code == 400 and "calculation" in detail(r)


def test_openapi_describes_every_answer(alice: httpx.Client) -> None:
    """Every API operation names the model of its answer and of each refusal."""
    spec = alice.get("/api/openapi.json").json()
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            codes = op["responses"]
            ok = next(c for c in codes if c.startswith("2"))
            schema = codes[ok]["content"]["application/json"]["schema"]
            assert "$ref" in json.dumps(schema), (method, path)
            refusals = [c for c in codes if c.startswith(("4", "5"))]
            assert "422" in refusals, (method, path)
            for c in refusals:
                ref = codes[c]["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith(("/ErrorOut", "/InvalidOut")), (method, path, c)
    game = spec["components"]["schemas"]["GameOut"]
    assert {"view", "legal", "moves", "status", "stats"} <= set(game["required"])


def test_openapi_and_pages(alice: httpx.Client) -> None:
    spec = alice.get("/api/openapi.json").json()
    assert "/api/games/{game_id}/moves" in spec["paths"]
    for path in ("/", "/play/bakers-dozen/9", "/play/calculation", "/game/1"):
        r = alice.get(path)
        assert r.status_code == 200 and "<!doctype html>" in r.text
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert re.fullmatch(r"app;dur=\d+\.\d", r.headers["server-timing"])  # the server's time
    for path in ("/static/js/main.js", "/static/style.css", "/static/favicon.svg"):
        assert alice.get(path).status_code == 200
    assert "http" not in alice.get("/").text.replace("http://www.w3.org/2000/svg", "")


# ---- playing -------------------------------------------------------------------------------


def test_new_game_cookie_and_view(alice: httpx.Client) -> None:
    g = new(alice, game="bakers-dozen", number=9)
    cookie = alice.cookies.jar
    morsels = [c for c in cookie if c.name == "thirteen_player"]
    assert morsels and len(morsels[0].value or "") >= 40
    assert morsels[0].has_nonstandard_attr("HttpOnly")
    assert g["view"] == Game.new("bakers-dozen", 9).state.view()
    assert g["number"] == "9" and g["url"] == "/play/bakers-dozen/9"
    assert g["status"] == "in play" and g["moves"] == [] and g["redo"] == 0
    assert {"move": "c2-f", "from": "c2", "to": "fH", "count": 1, "home": True} in g["legal"]
    assert set(g["stats"]) >= {"played", "won", "lost", "win_rate", "current_streak",
                               "best_streak", "best_time", "fewest_moves"}
    # The number may come as a string (JavaScript cannot hold 20-digit numbers).
    big = new(alice, game="spanish-patience", number="99999999999999999999")
    assert big["number"] == "99999999999999999999"
    assert new(alice, game="portuguese-solitaire")["number"].isdigit()


def test_resume(alice: httpx.Client) -> None:
    g = new(alice, game="good-measure", number=5)
    alice.post(f"/api/games/{g['id']}/moves", json={"move": g["legal"][0]["move"]})
    again = new(alice, game="good-measure", number=5, resume=True)
    assert again["id"] == g["id"] and len(again["moves"]) == 1
    latest = new(alice, game="good-measure", resume=True)
    assert latest["id"] == g["id"]
    fresh = new(alice, game="good-measure", number=5)
    assert fresh["id"] != g["id"] and fresh["moves"] == []
    assert alice.get("/api/games/current").json()["id"] == fresh["id"]
    ids = [x["id"] for x in alice.get("/api/games").json()]
    assert ids[:2] == [fresh["id"], g["id"]]


def test_moves_undo_redo_restart(server: ServerProcess, alice: httpx.Client) -> None:
    g = new(alice, game="bakers-dozen", number=9)
    gid = g["id"]
    for i, m in enumerate(WIN_LINE[:5]):
        r = alice.post(f"/api/games/{gid}/moves", json={"move": m})
        assert r.status_code == 200, r.text
        assert r.json()["moves"] == WIN_LINE[: i + 1]
        assert stored_moves(server, gid) == WIN_LINE[: i + 1]  # written before the answer
    r = alice.post(f"/api/games/{gid}/undo")
    assert r.status_code == 200 and r.json()["moves"] == WIN_LINE[:4] and r.json()["redo"] == 1
    assert stored_moves(server, gid) == WIN_LINE[:4]
    r = alice.post(f"/api/games/{gid}/redo")
    assert r.json()["moves"] == WIN_LINE[:5] and r.json()["played"] == [WIN_LINE[4]]
    r = alice.post(f"/api/games/{gid}/restart")
    assert r.json()["moves"] == [] and r.json()["redo"] == 5
    assert stored_moves(server, gid) == []
    assert alice.post(f"/api/games/{gid}/restart").status_code == 409
    assert alice.post(f"/api/games/{gid}/undo").status_code == 409
    for _ in range(5):
        assert alice.post(f"/api/games/{gid}/redo").status_code == 200
    assert alice.post(f"/api/games/{gid}/redo").status_code == 409
    assert snapshot(alice, gid)["moves"] == WIN_LINE[:5]


def test_leaving_the_page_stops_the_clock_until_the_game_is_read_again(
        server: ServerProcess, alice: httpx.Client, bob: httpx.Client) -> None:
    g = new(alice, game="bakers-dozen", number=9)
    gid, version = g["id"], alice.post(f"/api/games/{g['id']}/moves",
                                       json={"move": WIN_LINE[0]}).json()["version"]
    assert bob.post(f"/api/games/{gid}/close").status_code == 404  # not bob's game
    r = alice.post(f"/api/games/{gid}/close")
    assert r.status_code == 200 and r.json()["version"] == version
    with sqlite3.connect(server.db) as c:  # an hour later
        c.execute("UPDATE games SET updated = updated - 3600, closed = closed - 3600"
                  " WHERE id = ?", (gid,))
    back = alice.get(f"/api/games/{gid}").json()
    assert back["since"] < 5 and back["elapsed"] == r.json()["elapsed"]
    # a close is no change to the game: an act chosen before it (another tab's) is played
    r = alice.post(f"/api/games/{gid}/moves", params={"at": version},
                   json={"move": WIN_LINE[1]})
    assert r.status_code == 200, r.text
    assert not closed(server, gid)


def test_a_page_leaving_a_game_another_page_shows_leaves_its_clock_running(
        server: ServerProcess, alice: httpx.Client) -> None:
    """Two tabs on one game: the one left behind plays on, and its thinking time counts."""
    gid = new(alice, game="bakers-dozen", number=9)["id"]
    one, two = {"Sitting": "1" * 32}, {"Sitting": "2" * 32}
    alice.get(f"/api/games/{gid}", headers=one)
    alice.get(f"/api/games/{gid}/analysis", headers=two)
    left = alice.post(f"/api/games/{gid}/close", headers=one).json()["elapsed"]
    assert not closed(server, gid)
    time.sleep(1.0)
    r = alice.post(f"/api/games/{gid}/moves", headers=two, json={"move": WIN_LINE[0]})
    assert r.json()["elapsed"] >= left + 1.0
    # an unnamed client leaving (no Sitting header) does not stop the page's clock either;
    # the last page leaving does
    alice.post(f"/api/games/{gid}/close")
    assert not closed(server, gid)
    alice.post(f"/api/games/{gid}/close", headers=two)
    assert closed(server, gid)


def closed(server: ServerProcess, gid: int) -> bool:
    """Whether the store holds the game's sitting as ended."""
    with sqlite3.connect(server.db) as c:
        return c.execute("SELECT closed FROM games WHERE id = ?", (gid,)).fetchone()[0] is not None


def test_analysis_after_an_unsolvable_position(alice: httpx.Client) -> None:
    """Baker's Dozen deal 64 is unsolvable (data/surveys): so is every position after it, and
    the analysis says so (the first by search, the next ones from the position before)."""
    g = new(alice, game="bakers-dozen", number=64)
    for ply in range(3):
        a = alice.get(f"/api/games/{g['id']}/analysis").json()
        assert a == {"verdict": "unsolvable", "message": "No winning line remains.", "ply": ply,
                     "busy": False}
        r = alice.post(f"/api/games/{g['id']}/moves", json={"move": g["legal"][-1]["move"]})
        assert r.status_code == 200, r.text
        g = r.json()
    assert solve(Game.new("bakers-dozen", 64).state, Budget(max_nodes=200_000)).verdict \
        == "unsolvable"


def _script() -> str:
    """The installed ``thirteen`` command: beside the interpreter in a virtual environment."""
    beside = Path(sys.executable).with_name("thirteen")
    found = str(beside) if beside.exists() else shutil.which("thirteen")
    assert found is not None, "the thirteen command is not installed"
    return found


@pytest.mark.parametrize("launcher", [WEB_MODULE, ("-m", "thirteen.cli", "serve"), "script"])
def test_the_solver_answers_however_the_server_was_started(
        tmp_path: Path, launcher: tuple[str, ...] | str) -> None:
    """The solver's worker processes load the server's main module by its path, so a hint
    is answered (not a 500) whichever way the server was started: ``python -m thirteen.web``,
    ``python -m thirteen.cli serve`` or the ``thirteen serve`` command."""
    args = (_script(), "serve") if launcher == "script" else tuple(launcher)
    with ServerProcess(tmp_path / "db.sqlite3", launcher=args) as s, client(s) as c:
        gid = new(c, game="bakers-dozen", number=9)["id"]
        r = c.get(f"/api/games/{gid}/hint")
        assert r.status_code == 200, s.errors()
        assert any(m["move"] == r.json()["move"] for m in snapshot(c, gid)["legal"])


def test_auto_moves_hint_analysis(alice: httpx.Client) -> None:
    g = new(alice, game="bakers-dozen", number=9)
    gid = g["id"]
    r = alice.post(f"/api/games/{gid}/moves", json={"move": "c2-f", "auto": True})
    assert r.status_code == 200
    played = r.json()["played"]
    assert played[0] == "c2-f" and len(played) >= 2  # 2H then follows, and more
    h = alice.get(f"/api/games/{gid}/hint").json()
    assert isinstance(h["message"], str)
    if h["move"] is not None:
        assert any(m["move"] == h["move"] for m in snapshot(alice, gid)["legal"])
    a = alice.get(f"/api/games/{gid}/analysis").json()
    assert a["verdict"] in (None, "solved", "unsolvable", "unknown")
    assert a["ply"] == len(played)


def test_solve_it_for_me(alice: httpx.Client) -> None:
    g = new(alice, game="bakers-dozen", number=9)
    gid = g["id"]
    r = alice.post(f"/api/games/{gid}/solve")
    assert r.status_code == 200
    out = r.json()
    assert out["status"] == "won" and out["result"] == "won"
    assert out["played"] == out["moves"] and len(out["moves"]) > 0
    assert alice.post(f"/api/games/{gid}/solve").json()["detail"] == "the game is over"
    undone = alice.post(f"/api/games/{gid}/undo").json()  # undo takes back one move
    assert undone["status"] == "in play" and len(undone["moves"]) == len(out["moves"]) - 1
    lost = new(alice, game="good-measure", number=1)
    r = alice.post(f"/api/games/{lost['id']}/solve")
    assert (r.status_code, r.json()["detail"]) == (409, "No winning line remains from here.")
    assert snapshot(alice, lost["id"])["moves"] == []


@contextlib.contextmanager
def solving(c: httpx.Client, server: ServerProcess, gid: int, version: int
            ) -> Iterator[dict[str, httpx.Response]]:
    """Ask Solve for game ``gid`` (at ``version``) in a thread, as the player's page does,
    while the block plays on (from half a second on, Solve thinking); the answer is under
    "solve" once the block is over."""
    answered: dict[str, httpx.Response] = {}

    def ask() -> None:
        with client(server) as other:
            other.cookies = c.cookies
            r = other.post(f"/api/games/{gid}/solve?at={version}")
            answered["solve"] = r

    thread = threading.Thread(target=ask)
    thread.start()
    time.sleep(0.5)
    try:
        yield answered
    finally:
        thread.join()


def test_an_act_sent_with_a_version_is_refused_once_the_game_has_changed(
        alice: httpx.Client, server: ServerProcess) -> None:
    """``?at=VERSION``: the act is played only in the game's version it was chosen in; in any
    other, 409 and nothing changes (nor is anything stored)."""
    g = new(alice, game="bakers-dozen", number=9)
    gid, v0 = g["id"], g["version"]
    first = alice.post(f"/api/games/{gid}/moves?at={v0}", json={"move": WIN_LINE[0]})
    assert first.status_code == 200 and first.json()["version"] > v0
    before = snapshot(alice, gid)
    for path, body in ((f"moves?at={v0}", {"move": WIN_LINE[1]}), (f"undo?at={v0}", None),
                       (f"restart?at={v0}", None), (f"auto?at={v0}", None),
                       (f"solve?at={v0}", None)):
        r = alice.post(f"/api/games/{gid}/{path}", json=body)
        assert r.status_code == 409 and "nothing was done" in detail(r), path
        assert r.headers["Game-Version"] == str(first.json()["version"]), path
    assert snapshot(alice, gid) == before
    assert stored_moves(server, gid) == [WIN_LINE[0]]
    for bad in ("-1", "x", str(2**63)):
        r = alice.post(f"/api/games/{gid}/undo?at={bad}")
        assert r.status_code == 422, bad
    now = first.json()["version"]
    assert alice.post(f"/api/games/{gid}/undo?at={now}").status_code == 200


def test_solve_refuses_its_line_once_the_player_has_played_on(
        alice: httpx.Client, server: ServerProcess) -> None:
    """The player may play on while Solve thinks: their move is answered at once, and Solve's
    line is then refused (409), not played in a position it was not found for. And the other
    way round: an act chosen before Solve's line was played is refused after it."""
    g = new(alice, game="good-measure", number=6333)  # Solve thinks its whole budget here
    gid, v0 = g["id"], g["version"]
    with solving(alice, server, gid, v0) as answered:
        assert "solve" not in answered  # still thinking
        move = next(m["move"] for m in g["legal"] if not m["home"])
        r = alice.post(f"/api/games/{gid}/moves?at={v0}", json={"move": move})
    assert r.status_code == 200
    # The move did not wait for Solve: Solve says the game changed under it (had the move
    # waited, Solve would have spent its budget first and said it gave up).
    solved = answered["solve"]
    assert solved.status_code == 409 and "changed" in detail(solved)
    assert solved.headers["Game-Version"] == str(r.json()["version"])
    assert snapshot(alice, gid)["moves"] == [move]
    # Solve's line first: the act chosen before it is refused.
    g = new(alice, game="bakers-dozen", number=9)
    line = alice.post(f"/api/games/{g['id']}/solve?at={g['version']}").json()["moves"]
    r = alice.post(f"/api/games/{g['id']}/moves?at={g['version']}", json={"move": WIN_LINE[0]})
    assert r.status_code == 409
    assert snapshot(alice, g["id"])["moves"] == line


def test_leaving_a_game_stops_its_solve(alice: httpx.Client, server: ServerProcess) -> None:
    """A game left while Solve thinks about it counts as lost, and Solve's line is not played
    in it."""
    g = new(alice, game="good-measure", number=6333)
    gid = g["id"]
    move = next(m["move"] for m in g["legal"] if not m["home"])
    played = alice.post(f"/api/games/{gid}/moves", json={"move": move}).json()
    with solving(alice, server, gid, played["version"]) as answered:
        new(alice, game="good-measure", number=1, leave=True)
    solved = answered["solve"]
    assert solved.status_code == 409 and detail(solved).startswith("Solve stopped")
    assert stored_moves(server, gid) == [move]
    assert alice.get(f"/api/games/{gid}").json()["result"] == "lost"


def test_the_player_stops_a_solve(alice: httpx.Client, server: ServerProcess) -> None:
    """``DELETE .../solve`` stops the Solve thinking about the game: it answers 409 and the
    game stays as it was; with none thinking, nothing is stopped."""
    g = new(alice, game="good-measure", number=6333)
    gid = g["id"]
    assert alice.delete(f"/api/games/{gid}/solve").json() == {"stopped": 0}
    with solving(alice, server, gid, g["version"]) as answered:
        assert alice.delete(f"/api/games/{gid}/solve").json() == {"stopped": 1}
    solved = answered["solve"]
    assert (solved.status_code, detail(solved)) == (409, "Solve stopped.")
    assert snapshot(alice, gid)["moves"] == []
    assert alice.delete("/api/games/999999/solve").status_code == 404


def test_deals_by_difficulty(alice: httpx.Client) -> None:
    """Served from the survey data: an easy deal is quickly won; a winnable one is a deal the
    data say solved (which may have taken the survey's solver millions of positions)."""
    variant = get_variant("bakers-dozen")
    g = new(alice, game="bakers-dozen", difficulty="easy")
    assert g["message"].startswith("An easy deal, from the survey data")
    state = start_state(variant, deal(variant, int(g["number"])))
    result = solve(state, Budget(max_nodes=EASY_NODES, max_seconds=None, max_mb=256))
    assert result.verdict == "solved"
    g = new(alice, game="bakers-dozen", difficulty="winnable")
    assert g["message"].startswith("A winnable deal")
    grading = grades.grading(grades.SURVEYS, "bakers-dozen", "{}", variant.title)
    assert grading is not None and grading.grade(int(g["number"])) is not None


def test_auto_finish_win_and_statistics(bob: httpx.Client) -> None:
    g = new(bob, game="bakers-dozen", number=9)
    gid = g["id"]
    for m in WIN_LINE[:-7]:  # the rest are moves to the foundations
        assert bob.post(f"/api/games/{gid}/moves", json={"move": m}).status_code == 200
    r = bob.post(f"/api/games/{gid}/auto")
    assert r.status_code == 200
    out = r.json()
    assert out["status"] == "won" and out["result"] == "won"
    assert out["stats"]["won"] == 1 and out["stats"]["fewest_moves"] == len(out["moves"])
    assert bob.get("/api/stats/bakers-dozen").json()["won"] == 1
    assert bob.get("/api/stats").json()["bakers-dozen"]["played"] == 1
    assert bob.get("/api/stats/nope").status_code == 404
    # Winning again (undo, redo) does not count twice.
    bob.post(f"/api/games/{gid}/undo")
    bob.post(f"/api/games/{gid}/redo")
    assert bob.get("/api/stats/bakers-dozen").json()["played"] == 1
    # A new deal leaves an unfinished game with moves: unconfirmed, it stays unfinished and
    # resumable; once the player confirms (leave), it is a loss.
    h = new(bob, game="bakers-dozen", number=10)
    assert h["leaving"] == "free"
    played = bob.post(f"/api/games/{h['id']}/moves", json={"move": h["legal"][0]["move"]})
    assert played.json()["leaving"] == "ask"
    new(bob, game="bakers-dozen", number=11)
    s = bob.get("/api/stats/bakers-dozen").json()
    assert (s["played"], s["won"], s["lost"], s["current_streak"]) == (1, 1, 0, 1)
    assert new(bob, game="bakers-dozen", number=10, resume=True)["id"] == h["id"]
    new(bob, game="bakers-dozen", number=12, leave=True)
    s = bob.get("/api/stats/bakers-dozen").json()
    assert (s["played"], s["won"], s["lost"], s["current_streak"]) == (2, 1, 1, 0)


def test_calculation_hides_the_stock(alice: httpx.Client) -> None:
    g = new(alice, game="calculation", number=1)
    state = Game.new("calculation", 1).state
    assert isinstance(state, CalcState)
    hidden = {str(c) for c in state.stock[1:]}
    text = json.dumps(g)
    assert not any(f'"{c}"' in text for c in hidden)
    r = alice.post(f"/api/games/{g['id']}/moves", json={"move": "s-w1"})
    assert r.json()["view"]["waste"][0] == ["JD"]
    for path in ("", "/hint", "/analysis"):
        text = alice.get(f"/api/games/{g['id']}{path}").text
        assert not any(f'"{c}"' in text for c in {str(c) for c in state.stock[2:]})


def test_castles_face_down_cards_never_leave_the_server(alice: httpx.Client) -> None:
    g = new(alice, game="castles-in-spain", number=5)
    state = Game.new("castles-in-spain", 5).state
    assert isinstance(state, PackerState)
    down = {str(c) for col, h in zip(state.columns, state.hidden, strict=True)
            for c in col[:h]}
    assert len(down) == 39
    for text in (json.dumps(g), alice.get(f"/api/games/{g['id']}").text,
                 alice.get(f"/api/games/{g['id']}/hint").text,
                 alice.get(f"/api/games/{g['id']}/analysis").text,
                 alice.get("/api/games").text):
        assert not any(f'"{c}"' in text for c in down)
    assert all(col[:3] == [None, None, None] for col in g["view"]["columns"])


def board(game: str, number: int) -> str:
    """Deal ``number`` as the fc-solve board text a player would paste."""
    return format_board(Game.new(game, number).state.to_layout(), variant=get_variant(game))


def test_options(alice: httpx.Client) -> None:
    g = new(alice, game="bakers-dozen", number=9, options={"worry_back": True})
    assert g["options"] == {"worry_back": True} and g["url"] == f"/game/{g['id']}"
    r = alice.post(f"/api/games/{g['id']}/moves", json={"move": "c2-f"})
    assert {"fH-c4", "fH-c10"} <= {m["move"] for m in r.json()["legal"]}  # AH may come back
    r = alice.post(f"/api/games/{g['id']}/moves", json={"move": "fH-c4"})
    assert r.status_code == 200 and r.json()["view"]["columns"][3][-1] == "AH"
    assert alice.get(f"/api/games/{g['id']}").json()["options"] == {"worry_back": True}
    plain = new(alice, game="bakers-dozen", number=9)
    plain = alice.post(f"/api/games/{plain['id']}/moves", json={"move": "c2-f"}).json()
    assert not [m for m in plain["legal"] if m["move"].startswith("fH")]
    rank = new(alice, game="spanish-patience", number=3, options={"foundations": "rank"})
    assert rank["options"] == {"foundations": "rank"}
    assert [f["name"] for f in rank["view"]["foundations"]] == ["f1", "f2", "f3", "f4"]
    # The game's own default is no option: spanish-patience-rank by suit is Spanish Patience.
    assert new(alice, game="spanish-patience-rank", number=3,
               options={"foundations": "rank"})["options"] == {}
    r = alice.post("/api/games", json={"game": "bisley", "options": {"worry_back": True}})
    assert r.status_code == 400 and "no options" in detail(r)


def test_typed_in_board(server: ServerProcess, alice: httpx.Client) -> None:
    g = new(alice, game="bakers-dozen", board=board("bakers-dozen", 9))
    assert g["number"] is None and g["url"] == f"/game/{g['id']}"
    assert g["view"] == Game.new("bakers-dozen", 9).state.view()
    gid = g["id"]
    for m in WIN_LINE[:3]:
        assert alice.post(f"/api/games/{gid}/moves", json={"move": m}).status_code == 200
    assert snapshot(alice, gid)["moves"] == WIN_LINE[:3] == stored_moves(server, gid)
    # A board with options and a Calculation board.
    castles = new(alice, game="castles-in-spain", board=board("castles-in-spain", 5),
                  options={"worry_back": True})
    assert castles["options"] == {"worry_back": True}
    assert all(col[:3] == [None, None, None] for col in castles["view"]["columns"])
    calc = new(alice, game="calculation", board=board("calculation", 1))
    assert calc["view"] == Game.new("calculation", 1).state.view()


@pytest.mark.parametrize("text, status, words", [
    ("", 422, "board"),
    ("x" * 3001, 422, "board"),
    ("   \n", 400, "board: the board is empty"),
    (board("bakers-dozen", 9).replace("7H TD", "7H ZZ"), 400, "board: line 1: 'ZZ' is not a card"),
    (board("bakers-dozen", 9).replace("9C QC 8H 5C\n", ""), 400, "12 column line(s)"),
    (board("bakers-dozen", 9).replace("7H TD", "7H 4D"), 400, "4D appears 2 times"),
    (board("bakers-dozen", 9).replace("7H TD", "<7H> TD"), 400, "face down"),
    (board("calculation", 1).replace("Stock:", "Talon:"), 400, "no 'Talon' line"),
])
def test_bad_boards(alice: httpx.Client, text: str, status: int, words: str) -> None:
    before = alice.get("/api/games").json()
    game = "calculation" if "Stock" in text or "Talon" in text else "bakers-dozen"
    r = alice.post("/api/games", json={"game": game, "board": text})
    assert r.status_code == status, r.text
    assert words in detail(r), r.text
    assert alice.get("/api/games").json() == before


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_view_names_every_pile_a_move_or_the_board_can_mention(game: str) -> None:
    # The names are made once, in the engine; every front end reads them from the view.
    variant = get_variant(game)
    state = new_state(variant, 3)
    for _ in range(40):
        view = state.view()
        names = view["names"]
        piles = [f["name"] for f in view["foundations"]]
        piles += [f"c{c + 1}" for c in range(len(view.get("columns", [])))]
        piles += [f"w{w + 1}" for w in range(len(view.get("waste", [])))]
        piles += ["s"] if variant.family == "calculation" else []
        assert set(piles) <= set(names) and len(set(names.values())) >= len(piles)
        moves = state.legal_moves()
        for m in moves:
            ids = annotate(state, m)
            assert ids["from"] in names and ids["to"] in names, (str(m), ids)
        if not moves:
            break
        state = state.apply(moves[len(moves) // 2])
    first = ("c1", "column 1") if variant.family == "packer" else ("w1", "waste pile 1")
    assert names[first[0]] == first[1]
