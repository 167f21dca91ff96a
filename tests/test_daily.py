"""The daily deal: the same certified deal for every player, its line kept once per day and
game and shown only once a player's game of it is over, the player's result kept."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx
import pytest
import test_web_api

from thirteen.game import Game
from thirteen.moves import Move
from thirteen.store import Store
from thirteen.variants import GAMES, get_variant
from thirteen.web import daily
from thirteen.web.daily import certify, first_number, today
from thirteen.web.process import ServerProcess

# a server in a child process and two players, as the API's tests have them
server, alice, bob = test_web_api.server, test_web_api.alice, test_web_api.bob


@pytest.mark.parametrize("name", list(GAMES))
def test_the_certificate_is_a_win_and_the_same_every_time(name: str) -> None:
    variant = get_variant(name)
    number, line = certify(variant, "2026-01-02")
    assert number >= first_number("2026-01-02", name)
    game = Game.new(variant, number)
    for text in line:
        game.push(Move.parse(text))
    assert game.state.won
    assert certify(variant, "2026-01-02") == (number, line)


def test_days_and_games_hash_to_different_deals() -> None:
    numbers = {first_number(day, name) for day in ("2026-01-01", "2026-01-02")
               for name in ("bakers-dozen", "bisley")}
    assert len(numbers) == 4


def test_the_store_keeps_the_first_certificate_and_the_players_game(tmp_path: Path) -> None:
    with Store(tmp_path / "s.sqlite3") as store:
        assert store.daily("2026-01-02", "bisley") is None
        store.save_daily("2026-01-02", "bisley", 7, ["c1-f", "c2-f"])
        store.save_daily("2026-01-02", "bisley", 8, ["c3-f"])
        assert store.daily("2026-01-02", "bisley") == (7, ["c1-f", "c2-f"])
        game_id, _ = store.save("alice", Game.new("bisley", 7))
        store.set_daily_game("alice", "2026-01-02", "bisley", game_id)
        assert store.daily_games("alice", "2026-01-02") == {"bisley": game_id}
        assert store.daily_games("bob", "2026-01-02") == {}
        with pytest.raises(KeyError):  # a player records only their own games
            store.set_daily_game("bob", "2026-01-02", "bisley", game_id)


def entry(c: httpx.Client, name: str) -> dict[str, object]:
    r = c.get("/api/daily")
    assert r.status_code == 200, r.text
    found: dict[str, object] = {d["game"]: d for d in r.json()}[name]
    return found


def test_everyone_plays_the_same_deal_and_the_line_waits_for_the_end(
        server: ServerProcess, alice: httpx.Client, bob: httpx.Client) -> None:
    listing = alice.get("/api/daily").json()
    assert [d["game"] for d in listing] == list(GAMES)
    assert {d["day"] for d in listing} == {today()}
    assert entry(alice, "bakers-dozen")["result"] == "not played"

    mine = alice.post("/api/daily/bakers-dozen", json={})
    assert mine.status_code == 201, mine.text
    game = mine.json()
    assert game["daily"] == today() and game["status"] == "in play"
    theirs = bob.post("/api/daily/bakers-dozen", json={}).json()
    assert theirs["number"] == game["number"] and theirs["id"] != game["id"]
    assert theirs["view"] == game["view"]
    # asked again, the player's own game comes back
    assert alice.post("/api/daily/bakers-dozen", json={}).json()["id"] == game["id"]
    assert entry(alice, "bakers-dozen")["result"] == "in play"
    refused = alice.get("/api/daily/bakers-dozen/line")
    assert refused.status_code == 409 and "over" in refused.json()["detail"]
    with sqlite3.connect(server.db) as c:
        rows = c.execute("SELECT number, line FROM daily WHERE game = 'bakers-dozen'").fetchall()
    assert len(rows) == 1  # computed once for both players
    number, line = rows[0]
    assert number == game["number"]

    # The certificate's line, played, wins; then the line is shown and the win kept.
    for move in line.split():
        r = alice.post(f"/api/games/{game['id']}/moves", json={"move": move})
        assert r.status_code == 200, r.text
    assert r.json()["status"] == "won"
    assert entry(alice, "bakers-dozen")["result"] == "won"
    assert entry(alice, "bakers-dozen")["line_shown"] is True
    shown = alice.get("/api/daily/bakers-dozen/line").json()
    assert shown == {"game": "bakers-dozen", "day": today(), "number": number,
                     "moves": line.split()}
    assert entry(bob, "bakers-dozen")["result"] == "in play"


def test_a_hidden_card_game_keeps_its_line_until_the_game_is_over(alice: httpx.Client) -> None:
    game = alice.post("/api/daily/castles-in-spain", json={}).json()
    assert sum(c is None for col in game["view"]["columns"] for c in col) == 39
    assert "line" not in game and alice.get("/api/daily/castles-in-spain/line").status_code == 409
    assert alice.get("/api/daily/calculation/line").status_code == 409  # not even started


def test_bad_daily_requests_are_refused(alice: httpx.Client) -> None:
    assert alice.post("/api/daily/no-such-game", json={}).status_code == 404
    assert alice.get("/api/daily/no-such-game/line").status_code == 404
    assert alice.post("/api/daily/bisley", json={"leave": "yes"}).status_code == 422
    assert alice.post("/api/daily/bisley", json={"other": 1}).status_code == 422
    assert entry(alice, "bisley")["result"] == "not played"
    assert "/api/daily/{name}" in alice.get("/api/openapi.json").json()["paths"]


def test_a_day_without_a_won_deal_is_a_clear_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(daily, "TRIES", 0)  # no deal tried: none can be won
    with pytest.raises(daily.NoDeal, match="No daily deal of Calculation today"):
        certify(get_variant("calculation"), "2026-01-02")
