"""The page as a demanding player uses it: nothing thrown away without asking, Back and Forward
between games, no answer or message about another position, the clock and the end of a
sitting, long piles on screen, a finger's drag, the move counter, the statistics, past games
and daily deal dialogs, a bad link, and axe-core's accessibility checks on desktop and phone
sizes."""

from __future__ import annotations

import contextlib
import datetime
import sqlite3
import time
from typing import Any

import pytest
from test_play import SOLVER_WAIT, cards, open_game, pile, shot, top, wait_ply

from thirteen.deal import format_board
from thirteen.game import Game
from thirteen.variants import get_variant

DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}


def game_id(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.game"))


def answer(page: Any, accept: bool) -> list[str]:
    """Answer the next confirm() box; the list receives its question."""
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept() if accept else d.dismiss()))
    return asked


def api(page: Any, path: str) -> Any:
    return page.evaluate("path => fetch(path).then(r => r.json())", path)


def test_a_game_in_progress_is_left_only_when_the_player_says_so(page: Any, server: Any) -> None:
    open_game(page, server, "/play/bakers-dozen/9")
    first = game_id(page)
    top(page, "c2").dblclick()
    wait_ply(page, 1)
    # N, Deal # and New deal ask; saying no keeps the game as it is.
    asked = answer(page, accept=False)
    page.keyboard.press("n")
    assert asked == ["Leave this game? It counts as lost in your statistics."]
    page.fill("#deal-number", "24")
    asked = answer(page, accept=False)
    page.click("#deal-go")
    assert len(asked) == 1
    # Ticking Worry back mid-game: "no" keeps this game and saves the option for the next deal.
    asked = answer(page, accept=False)
    page.check("#opt-worry-back")
    assert asked[0].startswith("Deal these cards again with the new options?")
    page.locator("#message", has_text="apply from your next deal").wait_for()
    assert game_id(page) == first and page.evaluate("document.body.dataset.ply") == "1"
    assert page.is_checked("#opt-worry-back")
    assert "worry back" not in page.inner_text("#deal-title")
    assert api(page, "/api/stats") == {}
    # Yes: a new deal, under the option chosen; the game left counts as lost.
    asked = answer(page, accept=True)
    page.click("#new-deal")
    page.wait_for_function(f"() => document.body.dataset.game !== '{first}'")
    assert len(asked) == 1
    page.locator("#deal-title", has_text="worry back").wait_for()
    assert api(page, "/api/stats")["bakers-dozen"]["lost"] == 1


def two_games(page: Any, server: Any) -> tuple[int, int]:
    """Good Measure deal 24, then deal 25 by its number: their game ids."""
    open_game(page, server, "/play/good-measure/24")
    first = game_id(page)
    page.fill("#deal-number", "25")
    page.click("#deal-go")
    page.wait_for_url("**/play/good-measure/25")
    return first, game_id(page)


def test_back_and_forward_move_between_the_players_games(page: Any, server: Any) -> None:
    first, second = two_games(page, server)
    page.go_back()
    page.wait_for_function(f"() => document.body.dataset.game === '{first}'")
    page.locator("#deal-title", has_text="deal 24").wait_for()
    page.go_forward()
    page.wait_for_function(f"() => document.body.dataset.game === '{second}'")
    # Back after leaving a game in play shows that game, not a fresh deal of it.
    open_game(page, server, "/play/bakers-dozen/9")
    nine = game_id(page)
    top(page, "c2").dblclick()
    wait_ply(page, 1)
    answer(page, accept=True)
    page.click("#new-deal")
    page.wait_for_function(f"() => document.body.dataset.game !== '{nine}'")
    page.go_back()
    page.wait_for_function(f"() => document.body.dataset.game === '{nine}'")
    wait_ply(page, 1)
    assert cards(page, "fH") == ["AH"]


def closed(server: Any, game: int, wait: float = 10) -> bool:
    """Whether the server's store holds ``game``'s sitting as ended, waiting up to ``wait``
    seconds for the page's request (which the page does not wait for)."""
    deadline = time.monotonic() + wait
    while True:
        with sqlite3.connect(server.db) as c:
            if c.execute("SELECT closed FROM games WHERE id = ?", (game,)).fetchone()[0]:
                return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def test_the_page_ends_a_sitting_when_it_shows_another_game_or_goes(page: Any,
                                                                    server: Any) -> None:
    """So that a game's clock stands still between two visits."""
    first, second = two_games(page, server)
    assert closed(server, first) and not closed(server, second, wait=0)
    page.goto("about:blank")
    assert closed(server, second)


def test_a_page_leaving_a_game_another_page_shows_does_not_stop_its_clock(
        page: Any, server: Any) -> None:
    """Two tabs on one game: the one left behind plays on, its time counted."""
    with page.expect_response("**/analysis"):  # the page's first request about the game
        open_game(page, server, "/play/bakers-dozen/9")
    other = page.context.new_page()
    with other.expect_response("**/analysis"):
        open_game(other, server, "/play/bakers-dozen/9")
    game = game_id(page)
    assert game_id(other) == game
    other.fill("#deal-number", "24")  # the other page shows another game
    with other.expect_response("**/close"):
        other.click("#deal-go")
    assert not closed(server, game, wait=0)
    page.goto("about:blank")
    assert closed(server, game)


def test_back_to_a_page_from_the_browsers_cache_reads_its_game_again(caching: Any,
                                                                      server: Any) -> None:
    """The page left ended the sitting; shown again as it was, it opens the game again, so
    that the time from then to the next move is counted."""
    with caching.expect_response("**/analysis"):  # none is under way as the page goes
        open_game(caching, server, "/play/bakers-dozen/9")
    game = game_id(caching)
    caching.evaluate("window.kept = true")
    caching.goto(server.url + "/api/stats")
    assert closed(server, game)
    with sqlite3.connect(server.db) as c:  # not asked of the server: that would open it
        left = c.execute("SELECT elapsed FROM games WHERE id = ?", (game,)).fetchone()[0]
    caching.go_back(wait_until="commit")  # no load event: the page is the one left
    caching.wait_for_selector("body[data-ready='1']:not([data-busy])")
    assert caching.evaluate("window.kept")
    time.sleep(2)
    top(caching, "c2").dblclick()
    wait_ply(caching, 1)
    assert api(caching, f"/api/games/{game}")["elapsed"] >= left + 2


def test_the_clock_runs_from_the_deal_as_the_server_counts_it(page: Any, server: Any) -> None:
    """Not only from the first move: the time before it is play, and the server counts it."""
    open_game(page, server, "/play/bakers-dozen/9")
    page.wait_for_function("() => document.getElementById('timer').textContent >= '0:02'")
    top(page, "c2").dblclick()
    wait_ply(page, 1)
    assert api(page, f"/api/games/{game_id(page)}")["elapsed"] >= 2
    assert page.inner_text("#timer") >= "0:02"


def test_a_slow_deal_search_never_lands_on_a_game_moved_on(page: Any, server: Any) -> None:
    open_game(page, server, "/play/bakers-dozen/9")
    first = game_id(page)
    held: list[Any] = []
    page.route("**/api/games", lambda route: held.append(route)
               if route.request.method == "POST" else route.continue_())
    page.select_option("#difficulty", "hard")
    page.keyboard.press("n")
    page.locator("#message", has_text="Looking for a hard deal").wait_for()
    page.wait_for_function("() => document.body.dataset.searching === '1'")
    for _ in range(200):  # the route's handler runs when Playwright next reads the page's events
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    page.unroute("**/api/games")
    # The player plays on: the search stops, its message goes.
    top(page, "c2").dblclick()
    wait_ply(page, 1)
    assert page.inner_text("#message") == ""
    assert page.evaluate("document.body.dataset.searching") is None
    # The answer, when it comes, is not shown: the page stays on the game being played.
    with contextlib.suppress(Exception):  # the page aborted it: nothing to continue
        held[0].continue_()
    page.wait_for_timeout(400)
    assert game_id(page) == first and page.evaluate("document.body.dataset.ply") == "1"
    assert page.url.endswith("/play/bakers-dozen/9")
    assert page.inner_text("#message") == ""


def test_messages_belong_to_a_position_and_a_second_tab_catches_up(page: Any, server: Any) -> None:
    open_game(page, server, "/play/bakers-dozen/9")
    page.click("#hint")
    page.locator("#message", has_text="Hint:").wait_for()
    assert page.locator("#board .hinted").count() >= 1
    top(page, "c2").dblclick()
    wait_ply(page, 1)
    assert page.inner_text("#message") == ""
    assert page.locator("#board .hinted").count() == 0
    # A second tab of the same player on the same game.
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_selector("body[data-ready='1']")
    assert other.evaluate("document.body.dataset.game") == str(game_id(page))
    wait_ply(other, 1)
    top(page, "c4").dblclick()
    wait_ply(page, 2)
    other.evaluate("() => window.dispatchEvent(new Event('focus'))")
    wait_ply(other, 2)
    assert cards(other, "fH") == ["AH", "2H"]
    # Quick presses all count: each act goes with the version the one before it left.
    page.keyboard.press("u")
    page.keyboard.press("u")
    wait_ply(page, 0)
    page.keyboard.press("r")
    wait_ply(page, 1)
    # The second tab has not looked since: its undo, chosen at move 2, is refused and it
    # catches up, where played it would have taken the game back to the deal.
    other.keyboard.press("u")
    other.locator("#message", has_text="played on elsewhere").wait_for()
    assert "Nothing was done" in other.inner_text("#message")
    wait_ply(other, 1)
    assert len(api(page, f"/api/games/{game_id(page)}")["moves"]) == 1
    other.close()


def long_column_board() -> str:
    """Deal 9 of Baker's Dozen with its first three columns and a half piled on the first: a
    14-card column, two columns left empty."""
    rows = format_board(Game.new("bakers-dozen", 9).state.to_layout(),
                        variant=get_variant("bakers-dozen")).split("\n")
    cols = [r.split() for r in rows if r.strip()][:13]
    long = cols[0] + cols[1] + cols[2] + cols[3][:2]
    return "\n".join([" ".join(long), " ".join(cols[3][2:]), *[" ".join(c) for c in cols[4:]],
                      ":", ":"]) + "\n"


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_long_piles_are_squeezed_to_fit_the_window(browser: Any, server: Any,
                                                   size: dict[str, int]) -> None:
    context = browser.new_context(viewport=size)
    page = context.new_page()
    try:
        open_game(page, server, "/play/bakers-dozen/9")
        page.click("#board-button")
        page.fill("#board-text", long_column_board())
        page.click("#board-deal")
        page.wait_for_selector("#board-dialog", state="hidden")
        assert len(cards(page, "c1")) == 14
        box = top(page, "c1").bounding_box()
        assert box["y"] + box["height"] <= size["height"]
        shot(page, f"14-long-column-{size['width']}")
        # A Calculation waste pile of ten cards.
        open_game(page, server, "/play/calculation/1")
        page.evaluate("""async id => { for (let i = 0; i < 10; i++) {
            const r = await fetch(`/api/games/${id}/moves`, {method: "POST",
              headers: {"Content-Type": "application/json"}, body: JSON.stringify({move: "s-w1"})});
            if (!r.ok) throw new Error(await r.text()); } }""", game_id(page))
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert len(cards(page, "w1")) == 10
        box = top(page, "w1").bounding_box()
        assert box["y"] + box["height"] <= size["height"]
        shot(page, f"15-long-waste-{size['width']}")
    finally:
        context.close()


def touch_drag(page: Any, source: Any, target: Any) -> None:
    """A finger's drag, as the phone's touch screen sends it (Playwright's own touchscreen
    only taps)."""
    a, b = source.bounding_box(), target.bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, points: list[dict[str, float]]) -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", [{"x": x0, "y": y0}])
    for k in range(1, 11):
        touch("touchMove", [{"x": x0 + (x1 - x0) * k / 10, "y": y0 + (y1 - y0) * k / 10}])
    touch("touchEnd", [])
    cdp.detach()


def test_a_finger_drags_cards_on_a_phone(phone: Any, server: Any) -> None:
    open_game(phone, server, "/play/bakers-dozen/9")
    assert phone.is_visible(".touch-help") and not phone.is_visible(".keys")
    touch_drag(phone, top(phone, "c2"), pile(phone, "fH"))
    wait_ply(phone, 1)
    assert cards(phone, "fH") == ["AH"]
    touch_drag(phone, top(phone, "c1"), pile(phone, "c3"))
    wait_ply(phone, 2)
    assert cards(phone, "c3")[-1] == "7C"
    # Bisley's eight foundations stand in one row.
    open_game(phone, server, "/play/bisley/3")
    tops = phone.eval_on_selector_all("#board .row.foundations .pile",
                                      "ps => ps.map(p => Math.round(p.getBoundingClientRect().y))")
    assert len(tops) == 8 and len(set(tops)) == 1
    shot(phone, "16-bisley-phone")


def test_the_move_counter_and_the_players_records(page: Any, server: Any) -> None:
    open_game(page, server, "/play/bakers-dozen/9")
    page.locator("#move-count", has_text="0 moves").wait_for()
    top(page, "c2").dblclick()
    wait_ply(page, 1)
    page.locator("#move-count", has_text="1 move").wait_for()
    top(page, "c4").dblclick()
    wait_ply(page, 2)
    page.locator("#move-count", has_text="2 moves").wait_for()
    answer(page, accept=True)
    page.keyboard.press("n")
    page.wait_for_selector("body[data-ply='0']:not([data-busy])")
    page.click("#stats-button")
    table = page.locator("#panel-dialog table")
    table.wait_for()
    assert "Baker's Dozen" in table.inner_text()
    row = table.locator("tbody tr").first.locator("td")
    assert [row.nth(i).inner_text() for i in (1, 4)] == ["1", "1"]  # played 1, lost 1
    page.click("#panel-close")
    # Your games: the deal left, to play again.
    page.click("#games-button")
    page.locator("#panel-dialog tbody tr").nth(1).wait_for()
    page.get_by_role("button", name="Play Baker's Dozen deal 9 again").click()
    page.wait_for_url("**/play/bakers-dozen/9")
    wait_ply(page, 0)


def test_a_bad_game_link_says_so_and_new_deal_still_works(page: Any, server: Any) -> None:
    open_game(page, server, "/game/987654321")
    page.locator("#message", has_text="no game 987654321").wait_for()
    assert page.locator("#board .pile").count() == 0
    page.click("#new-deal")
    page.wait_for_url("**/play/bakers-dozen/*")
    assert page.locator("#board .pile.column").count() == 13
    assert page.inner_text("#message") == ""


def test_the_daily_deal(page: Any, server: Any) -> None:
    day = datetime.datetime.now(datetime.UTC).date().isoformat()
    open_game(page, server, "/play/bisley/3")
    page.click("#daily-button")
    page.locator("#panel-dialog tbody tr").nth(9).wait_for()
    text = page.inner_text("#panel-dialog")
    assert day in text and "not played" in text
    page.get_by_role("button", name=f"Play the daily Bisley of {day}").click()
    # the day's first ask: the server's solver certifies the deal
    page.locator("#deal-title", has_text=f"daily deal of {day}").wait_for(timeout=SOLVER_WAIT)
    daily = game_id(page)
    top(page, "c1").click()
    page.click("#daily-button")
    page.get_by_role("button", name=f"Resume the daily Bisley of {day}").wait_for()
    assert "Solver's line" not in page.inner_text("#panel-dialog")
    page.click("#panel-close")
    # Solved, the game is over and the solver's line can be read.
    page.keyboard.press("s")
    page.click("#banner button[data-action='skip']", timeout=SOLVER_WAIT)
    page.wait_for_selector("#banner.won")
    assert game_id(page) == daily
    page.click("#daily-button")
    page.get_by_role("button", name="The solver's line for the daily Bisley").click()
    page.locator("#panel-dialog .line").wait_for()
    line = page.inner_text("#panel-dialog .line").split()
    certificate = api(page, "/api/daily/bisley/line")
    assert line == certificate["moves"] and len(line) > 10


def test_the_rules_ask_for_the_options_of_the_game(page: Any, server: Any) -> None:
    open_game(page, server, "/play/bakers-dozen/9")
    page.check("#opt-worry-back")
    page.locator("#deal-title", has_text="worry back").wait_for()
    with page.expect_request("**/api/variants/bakers-dozen?*") as asked:
        page.click("#rules-button")
    assert asked.value.url.endswith("/api/variants/bakers-dozen?worry_back=true")
    page.locator("#rules-dialog", has_text="Baker's Dozen").wait_for()
    page.locator("#rules-dialog", has_text="(worrying back)").wait_for()


AXE_RUN = """async () => (await axe.run(document, {
    resultTypes: ["violations"],
    rules: {"label-content-name-mismatch": {enabled: true}},
})).violations.filter(v => v.impact === "serious" || v.impact === "critical")
  .map(v => `${v.id}: ${v.nodes.length} x ${v.nodes[0].html.slice(0, 120)}`)"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_no_serious_violation(browser: Any, server: Any, size: dict[str, int]) -> None:
    from axe_playwright_python.base import AXE_SCRIPT

    context = browser.new_context(viewport=size)
    page = context.new_page()
    try:
        for path in ("/play/bakers-dozen/9", "/play/bisley/3", "/play/castles-in-spain/5",
                     "/play/calculation/1"):
            open_game(page, server, path)
            top(page, "c1" if "calculation" not in path else "s").click()  # a card picked
            page.evaluate(AXE_SCRIPT)
            assert page.evaluate(AXE_RUN) == [], path
        assert page.locator("h1").is_visible()
        page.click("#daily-button")
        page.locator("#panel-dialog tbody tr").first.wait_for()
        assert page.evaluate(AXE_RUN) == []
    finally:
        context.close()
