"""Fair play where cards are hidden: every answer is a function of the player's view alone.

Twin games look the same to the player and differ in where the hidden cards lie (Castles in
Spain's face-down cards, the Calculation family's stock below the turned card). Hints, "solve it
for me", analysis and auto-finish must answer the twins alike, through the Python functions
the terminal app and plain play call and through the web API; where a played line turns a card
the twins may part, and only from there.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

import httpx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from thirteen import solver
from thirteen.deal import Layout, format_board
from thirteen.game import Game, State, start_state
from thirteen.moves import Move
from thirteen.packer import PackerState
from thirteen.session import auto_finish
from thirteen.solver import services
from thirteen.solver.build import ENV, default_dir, up_to_date
from thirteen.variants import GAMES
from thirteen.web import solving
from thirteen.web.process import ServerProcess

HIDDEN = sorted(n for n, v in GAMES.items() if v.hidden_information)
CALCULATION = [n for n in HIDDEN if GAMES[n].family == "calculation"]
SMALL = solver.Budget(max_nodes=8_000, max_mb=256)


@pytest.fixture(autouse=True)
def small_fair_hints() -> Iterator[None]:
    """Castles in Spain's fair hints at SMALL's positions, not `FAIR_NODES`: the source runs
    here, not the compiled build, and an answer is still a function of the view, which is what
    is checked."""
    with mock.patch("thirteen.solver.services.FAIR_NODES", SMALL.max_nodes):
        yield


def hidden_layout(start: Layout, state: State, rng: random.Random) -> Layout | None:
    """``start`` with the cards still hidden in ``state`` in another order (None if the
    shuffle changed nothing). Hidden cards never moved since the deal: they lie where they
    were dealt, at the same places."""
    if isinstance(state, PackerState):
        places = [(i, k) for i, h in enumerate(state.hidden) for k in range(h)]
        cards = [start.columns[i][k] for i, k in places]
        moved = rng.sample(cards, len(cards))
        if moved == cards:
            return None
        columns = [list(c) for c in start.columns]
        for (i, k), card in zip(places, moved, strict=True):
            columns[i][k] = card
        return replace(start, columns=tuple(tuple(c) for c in columns))
    turned = len(start.stock) - len(state.stock)  # stock[turned] is the card in sight
    unseen = list(start.stock[turned + 1:])
    moved = rng.sample(unseen, len(unseen))
    if moved == unseen:
        return None
    return replace(start, stock=start.stock[:turned + 1] + tuple(moved))


def twins(game: str, number: int, plies: int, seed: int) -> tuple[Game, Game]:
    """Deal ``number`` after up to ``plies`` random moves, and the same deal and moves with
    the still hidden cards elsewhere: equal views, different games."""
    rng = random.Random(seed)
    a = Game.new(game, number)
    for _ in range(plies):
        legal = a.legal_moves()
        if not legal or not a.state.hides_cards:
            break
        a.push(rng.choice(legal))
    assume(a.state.hides_cards)
    layout = hidden_layout(a.start.to_layout(), a.state, rng)
    assume(layout is not None)
    assert layout is not None
    b = Game(start_state(a.variant, layout), None, list(a.moves))
    assert a.state.view() == b.state.view() and a.state != b.state
    return a, b


def alike_until_apart(a: State, b: State, line_a: Sequence[Move], line_b: Sequence[Move],
                      same_length: bool = True) -> int:
    """Lines played from twin positions are the same move for move while the positions look
    the same; returns how many moves were played in sight of the same view."""
    for n, (ma, mb) in enumerate(zip(line_a, line_b, strict=False)):
        assert ma == mb, f"move {n + 1}: {ma} and {mb} from the same view"
        a, b = a.apply(ma), b.apply(mb)
        if a.view() != b.view():
            return n + 1
    if same_length:
        assert len(line_a) == len(line_b)
    return min(len(line_a), len(line_b))


pairs = st.tuples(st.integers(1, 10**6), st.integers(0, 40), st.integers(0, 2**32))
FEW = settings(max_examples=6, deadline=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                      HealthCheck.function_scoped_fixture])
MORE = settings(FEW, max_examples=20)


# ---- the Python functions of the terminal app and plain play ---------------------------------


def check_twins_answer_alike(a: Game, b: Game) -> None:
    assert solver.hint(a.state, SMALL, a.positions) == solver.hint(b.state, SMALL, b.positions)
    assert solving.verdict(a.state) is None and solving.verdict(b.state) is None
    sa = solver.solve_for_me(a.state, SMALL, a.positions, moves=2)
    sb = solver.solve_for_me(b.state, SMALL, b.positions, moves=2)
    assert sa.verdict == sb.verdict
    assert "fair player" in sa.message if sa.moves else sa.verdict == "unknown"
    if alike_until_apart(a.state, b.state, sa.moves, sb.moves) == len(sa.moves):
        assert sa == sb  # nothing told them apart: the same answer, word for word
    start_a, start_b = a.state, b.state
    alike_until_apart(start_a, start_b, auto_finish(a), auto_finish(b))


@FEW
@given(pairs)
def test_castles_twins_get_the_same_answers(pair: tuple[int, int, int]) -> None:
    check_twins_answer_alike(*twins("castles-in-spain", *pair))


@MORE
@given(st.sampled_from(CALCULATION), pairs)
def test_calculation_twins_get_the_same_answers(game: str, pair: tuple[int, int, int]) -> None:
    # fewer sampled orders than a real hint's (the source runs here, not the compiled build):
    # the answer is still a function of the view, which is what is checked
    with mock.patch("thirteen.solver.services.HINT_SAMPLES", 64):
        check_twins_answer_alike(*twins(game, *pair))


def test_the_castles_sampler_reads_no_hidden_order() -> None:
    """The case that gave the face-down cards away: the same view, the hidden cards in every
    order the test tries, one hint."""
    a = Game.new("castles-in-spain", 9)
    answers = set()
    for seed in range(4):
        layout = hidden_layout(a.start.to_layout(), a.state, random.Random(seed))
        assert layout is not None
        state = start_state(a.variant, layout)
        answers.add(solver.hint(state, SMALL, (state,)))
    answers.add(solver.hint(a.state, SMALL, a.positions))
    assert len(answers) == 1


# ---- hints never go round in circles --------------------------------------------------------


@pytest.mark.parametrize("number", [9, 12, 14])
def test_following_hints_never_repeats_a_position(number: int) -> None:
    """Deal 9 went round in circles from its 14th hint; 12 and 14 reach positions from which
    every move leads back, where the hint says so instead of proposing one."""
    game = Game.new("castles-in-spain", number)
    for _ in range(30):
        h = solver.hint(game.state, SMALL, game.positions)
        if h.move is None:
            assert h.verdict != "solved"
            break
        game.push(h.move)
        assert game.state not in game.positions[:-1]


def test_every_front_end_gets_the_same_fair_hint() -> None:
    """The page's hint budget, the terminal's (a clock, and the default positions) and a tiny
    one: where cards are hidden, the hint is the fair player's whatever the front end asks."""
    game = Game.new("castles-in-spain", 9)
    budgets = [solver.Budget(max_nodes=300_000, max_seconds=1.0, max_mb=256),
               solver.Budget(max_seconds=5.0), solver.Budget(max_nodes=100, max_seconds=None)]
    answers = {solver.hint(game.state, budget, game.positions) for budget in budgets}
    assert len(answers) == 1
    assert "random guesses at the face-down cards" in answers.pop().message


def test_the_fair_plan_is_the_one_that_wins_the_most_fresh_guesses() -> None:
    """Where the guesses' winning lines give several plans (Castles in Spain 1 at its start),
    each is played in fresh guesses, and the hint starts the one that leaves the most won."""
    state = Game.new("castles-in-spain", 1).state
    scores: dict[tuple[Move, ...], int] = {}
    score = services._won_after

    def noted(plan: tuple[Move, ...], guesses: list[PackerState], budget: solver.Budget) -> int:
        scores[plan] = score(plan, guesses, budget)
        return scores[plan]

    with mock.patch.object(services, "_won_after", noted):
        hinted = solver.hint(state)
    assert len(scores) > 1 and hinted.move is not None
    best = max(scores.values())
    assert any(plan[0] == hinted.move for plan, won in scores.items() if won == best)
    assert hinted.message.endswith(f"{best} of 8 other guesses are still won after it")


def test_solve_plays_on_to_the_next_card_turned() -> None:
    """Following one fair hint at a time, Solve wandered on Castles in Spain 44: 400 new
    positions a press with the same three cards face down, for as long as one pressed. The fair
    player follows a sample's line until a card turns, so each plan ends in a card turned."""
    game = Game.new("castles-in-spain", 44)
    played = solver.solve_for_me(game.state, SMALL, game.positions)
    game.push_line(played.moves)
    assert not game.state.hides_cards and len(played.moves) < 400


def test_solve_says_what_solve_again_would_do() -> None:
    """Where the fair player stops because every move leads back (Castles in Spain 1, after 12
    moves, with cards still hidden), Solve says so, and Solve again indeed plays nothing; where
    it stops on its move limit it says Solve again goes on, and it does."""
    game = Game.new("castles-in-spain", 1)
    circled = solver.solve_for_me(game.state, SMALL, game.positions)
    game.push_line(circled.moves)
    assert game.state.hides_cards and game.state.legal_moves()
    assert circled.message.endswith("every move led back to a position already played: "
                                     "undo or restart")
    again = solver.solve_for_me(game.state, SMALL, game.positions)
    assert again.moves == ()
    game = Game.new("castles-in-spain", 1)
    stopped = solver.solve_for_me(game.state, SMALL, game.positions, moves=3)
    assert stopped.message.endswith("it stopped with cards still hidden (Solve again goes on)")
    game.push_line(stopped.moves)
    assert solver.solve_for_me(game.state, SMALL, game.positions).moves


@mock.patch("thirteen.solver.services.FAIR_END", SMALL)
def test_the_fair_players_game_wins_and_reads_no_hidden_card() -> None:
    """A whole game of Castles in Spain's fair player, as a survey plays it for its fair figure:
    deal 8 is won and the game replays to the win. From its position after 65 moves, and from a
    twin with the cards still face down elsewhere, the player makes the same moves (14 of them)
    until a card turns that tells the twins apart; and it plays the same game every time (no
    clock)."""
    game = Game.new("castles-in-spain", 8)
    won = solver.fair_play(game.state)
    game.push_line(won.moves)
    assert won.verdict == "solved" and game.state.won
    a = Game.new("castles-in-spain", 8)
    a.push_line(won.moves[:65])
    layout = hidden_layout(a.start.to_layout(), a.state, random.Random(1))
    assert a.state.hides_cards and layout is not None
    b = Game(start_state(a.variant, layout), None, list(a.moves))
    game_a, game_b = solver.fair_play(a.state), solver.fair_play(b.state)
    assert game_a.moves != game_b.moves  # the twins part...
    # ...only once a card tells them apart, and not at the first move
    assert alike_until_apart(a.state, b.state, game_a.moves, game_b.moves, same_length=False) > 1
    again = solver.fair_play(a.state)
    assert (again.verdict, again.moves) == (game_a.verdict, game_a.moves)


def test_only_games_that_hide_cards_have_a_fair_player() -> None:
    with pytest.raises(ValueError, match="hides no card"):
        solver.fair_play(Game.new("bakers-dozen", 1).state)
    with pytest.raises(ValueError, match="samples"):
        solver.fair_play(Game.new("castles-in-spain", 1).state, samples=16)


@pytest.mark.long
def test_following_hints_on_deals_1_to_25_never_repeats_a_position() -> None:
    """Every deal of 1-25, up to 40 hints each, as `bench/fair_hints.py` follows them: in a
    child process with the compiled build (the source, which the rest of the suite tests, takes
    about ten times as long). These deals include six where the hints end with every move
    leading back to a position already played, and one lost."""
    if not up_to_date(default_dir()):
        pytest.skip("no compiled build of this source (thirteen compile-solver)")
    env = {k: v for k, v in os.environ.items() if k != ENV}
    bench = Path(__file__).resolve().parent.parent / "bench" / "fair_hints.py"
    done = subprocess.run([sys.executable, str(bench), "1", "25", "40"], env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [int(line.split()[0]) for line in lines[:-1]] == list(range(1, 26))
    assert "REPEAT" not in done.stdout



# ---- the web API ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # fair play stops on the server's clock: a second is enough to compare twins' lines
    with ServerProcess(tmp_path_factory.mktemp("fair") / "fair.sqlite3",
                       options=["--solve-seconds", "1"]) as s:
        yield s


@pytest.fixture
def api(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=120) as c:
        yield c


def ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code in (200, 201), r.text
    out: dict[str, Any] = r.json()
    return out


def on_server(api: httpx.Client, game: Game) -> int:
    """The game as a player would set it up: its deal typed in, its moves played."""
    board = format_board(game.start.to_layout(), variant=game.variant)
    gid = int(ok(api.post("/api/games", json={"game": game.variant.name, "board": board}))["id"])
    for m in game.moves:
        ok(api.post(f"/api/games/{gid}/moves", json={"move": str(m)}))
    return gid


def played(out: dict[str, Any]) -> list[Move]:
    return [Move.parse(m) for m in out["played"]]


@pytest.mark.long
@FEW
@given(st.sampled_from(HIDDEN), pairs)
def test_twins_get_the_same_answers_from_the_api(api: httpx.Client, game: str,
                                                 pair: tuple[int, int, int]) -> None:
    a, b = twins(game, *pair)
    ga, gb = on_server(api, a), on_server(api, b)
    for path in ("hint", "analysis"):
        ra, rb = api.get(f"/api/games/{ga}/{path}"), api.get(f"/api/games/{gb}/{path}")
        assert (ra.status_code, ra.content) == (rb.status_code, rb.content), path
    auto_a = ok(api.post(f"/api/games/{ga}/auto"))
    auto_b = ok(api.post(f"/api/games/{gb}/auto"))
    alike_until_apart(a.state, b.state, played(auto_a), played(auto_b))
    for gid, out in ((ga, auto_a), (gb, auto_b)):
        for _ in out["played"]:
            ok(api.post(f"/api/games/{gid}/undo"))
    solve_a, solve_b = api.post(f"/api/games/{ga}/solve"), api.post(f"/api/games/{gb}/solve")
    assert solve_a.status_code == solve_b.status_code
    if solve_a.status_code == 409:  # a refusal, then, is word for word the same
        assert solve_a.content == solve_b.content
        return
    line_a, line_b = played(solve_a.json()), played(solve_b.json())
    assert line_a and line_b and "fair player" in solve_a.json()["message"]
    # Fair play stops on the server's clock, so one twin may play further than the other.
    alike_until_apart(a.state, b.state, line_a, line_b, same_length=False)


def test_solve_then_undo_shows_only_what_play_turned(api: httpx.Client) -> None:
    game = Game.new("castles-in-spain", 6)
    gid = on_server(api, game)
    out = ok(api.post(f"/api/games/{gid}/solve"))
    line = played(out)
    assert line and "fair player" in out["message"] and out["assisted"] is True
    forward = [game.state.view()]
    for m in line:
        game.push(m)
        forward.append(game.state.view())
    assert out["view"] == forward[-1]
    back = [out["view"]]
    for _ in line:
        back.append(ok(api.post(f"/api/games/{gid}/undo"))["view"])
    assert back == forward[::-1]  # no view but those play showed
    end = game.state
    assert isinstance(end, PackerState)
    still_hidden = {str(c) for col, h in zip(end.columns, end.hidden, strict=True)
                    for c in col[:h]}
    shown = {c for view in back for col in view["columns"] for c in col if c is not None}
    assert still_hidden and not still_hidden & shown


def test_a_game_won_by_solve_is_assisted_not_won(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=120) as me:
        g = ok(me.post("/api/games", json={"game": "bakers-dozen", "number": 9}))
        ok(me.get(f"/api/games/{g['id']}/hint"))
        out = ok(me.post(f"/api/games/{g['id']}/solve"))
        assert out["status"] == "won" and out["assisted"] is True and out["hints"] == 1
        stats = ok(me.get("/api/stats/bakers-dozen"))
        assert (stats["won"], stats["assisted"], stats["played"], stats["hints"]) == (0, 1, 1, 1)
        assert (stats["current_streak"], stats["best_streak"]) == (0, 0)
        assert stats["best_time"] is None and stats["fewest_moves"] is None
        assert me.get("/api/games").json()[0]["assisted"] is True
        # Undoing the help and winning by hand does not make it a clean win.
        ok(me.post(f"/api/games/{g['id']}/undo"))
        assert ok(me.post(f"/api/games/{g['id']}/redo"))["stats"]["won"] == 0


def test_hidden_games_deal_no_rated_deals(api: httpx.Client) -> None:
    for game in HIDDEN:
        r = api.post("/api/games", json={"game": game, "difficulty": "winnable"})
        assert r.status_code == 400 and "not rated" in r.json()["detail"]
