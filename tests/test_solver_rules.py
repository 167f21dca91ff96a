"""The solver's dead-end rules against the unpruned search on small positions, the counted
and relaxed games, and the schedule's turns for kept suits."""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_solver import QUICK, assert_sound, unplay

from thirteen.cards import KING, Card
from thirteen.deal import Layout, format_board
from thirteen.game import State, new_state, start_state
from thirteen.moves import Move
from thirteen.packer import PackerState
from thirteen.solver import Budget, solve
from thirteen.solver.clock import Clock
from thirteen.solver.common import Verdict
from thirteen.solver.packer import IMove
from thirteen.variants import GAMES, Variant, get_variant


def small_position(variant: Variant, rng: random.Random, out: int, ncols: int) -> PackerState:
    """``out`` cards (the highest of random suits) dealt at random into ``ncols`` columns, the
    rest home: small enough for the exact, unpruned `engine_search`."""
    heights = [13] * 4
    for _ in range(out):
        s = rng.choice([s for s in range(4) if heights[s] > 0])
        heights[s] -= 1
    loose = [Card(r, s) for s in range(4) for r in range(heights[s] + 1, 14)]
    rng.shuffle(loose)
    cols: list[list[Card]] = [[] for _ in range(ncols)]
    for c in loose:
        cols[rng.randrange(ncols)].append(c)
    piles = tuple(tuple(Card(r, s) for r in range(1, heights[s] + 1)) for s in range(4))
    state = start_state(variant, Layout(tuple(tuple(c) for c in cols), piles, (0,) * ncols))
    assert isinstance(state, PackerState)
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["bakers-dozen", "spanish-patience", "portuguese-solitaire",
                        "good-measure", "castles-in-spain", "spanish-patience-rank"]),
       st.booleans(), st.integers(0, 2**32), st.integers(4, 9), st.integers(2, 5))
def test_verdicts_match_the_unpruned_engine_search(game: str, worry: bool, seed: int, out: int,
                                                    ncols: int) -> None:
    """Every pruning rule against plain search through the engine, on small random positions
    (winnable and not)."""
    from thirteen.solver.packer import engine_search

    state = small_position(get_variant(game, worry_back=worry), random.Random(seed), out, ncols)
    exact = engine_search(state, Budget(max_nodes=3_000, max_seconds=30.0))
    assume(exact.verdict != "unknown")  # worrying back can make even six cards a long search
    result = solve(state, Budget(max_nodes=None, max_seconds=30.0))
    assert result.verdict == exact.verdict, format_board(state.to_layout())
    assert_sound(state, result)


def test_d3_fires_only_on_lost_positions() -> None:
    """Rule D3 against plain search through the engine, on small random positions of the
    three games it runs in (in Portuguese Solitaire with spaces that kings fill): it must
    never call a winnable one lost, and it must fire in each."""
    from thirteen.solver.packer import _Search, engine_search

    games = ("bakers-dozen", "good-measure", "portuguese-solitaire")
    fired = dict.fromkeys(games, 0)
    for seed in range(600):
        rng = random.Random(seed)
        game = games[seed % 3]
        state = small_position(get_variant(game), rng, rng.randint(4, 9), rng.randint(2, 5))
        search = _Search(state, QUICK)
        assert search.stuck_on
        if search.stuck():
            fired[game] += 1
            exact = engine_search(state, Budget(max_nodes=3_000, max_seconds=30.0))
            assert exact.verdict == "unsolvable", format_board(state.to_layout())
    assert min(fired.values()) >= 5, fired


def test_d4_fires_only_on_lost_positions() -> None:
    """Rule D4's relaxed game against plain search through the engine, on small random
    positions of the three games it runs in (in Portuguese Solitaire with spaces that kings
    fill): it must never call a winnable one lost (its argument: every real line is a
    relaxed line), and it must fire in each."""
    from thirteen.solver.packer import engine_search
    from thirteen.solver.relaxed import Counted, Relaxed

    games = ("bakers-dozen", "good-measure", "portuguese-solitaire")
    counted_fired = dict.fromkeys(games, 0)
    won = 0
    for seed in range(300):
        rng = random.Random(seed)
        game = games[seed % 3]
        state = small_position(get_variant(game), rng, rng.randint(4, 9), rng.randint(2, 5))
        counted = Counted(state, Clock(QUICK))
        verdict = Relaxed(counted).steps(100_000)
        exact = engine_search(state, Budget(max_nodes=3_000, max_seconds=30.0))
        if verdict == "lost":
            counted_fired[game] += counted.ask(counted.start, 10**6) == 0
            assert exact.verdict == "unsolvable", format_board(state.to_layout())
        else:
            assert verdict == "won" and counted.ask(counted.start, 10**6) == 1
            won += exact.verdict == "solved"
        # with a suit kept the game is finer: lost whenever the plain one is, never when the
        # real game is won (on positions this small it is never lost when the plain one is
        # won); with a window it lies between the two
        single = {}
        for suit in range(4):
            kept = single[suit] = Relaxed(counted, (suit,)).steps(100_000)
            assert kept == verdict or kept == "lost" and exact.verdict == "unsolvable"
            for window in (1, 3):
                assert Relaxed(counted, (suit,), window).steps(100_000) in {verdict, kept}
        # two suits kept: finer still, so lost where either is, and never where the real game
        # is won; with a window between the plain game and the two suits kept whole
        for pair in itertools.combinations(range(4), 2):
            both = Relaxed(counted, pair).steps(100_000)
            if "lost" in (single[pair[0]], single[pair[1]]):
                assert both == "lost"
            assert both == "won" or exact.verdict == "unsolvable"
            assert Relaxed(counted, pair, 2).steps(100_000) in {verdict, both}
    assert min(counted_fired.values()) >= 5 and won >= 5, counted_fired


def kings_down(state: PackerState) -> PackerState:
    """``state`` with each column's kings moved to its bottom, as Baker's Dozen deals: kings
    then pair up under each other, and rule D5 has few hosts to count."""
    layout = state.to_layout()
    cols = tuple(tuple(sorted(col, key=lambda c: c.rank != KING)) for col in layout.columns)
    down = start_state(state.variant, Layout(cols, layout.foundations, layout.face_down))
    assert isinstance(down, PackerState)
    return down


def test_d5_fires_only_on_lost_positions() -> None:
    """Rule D5 (too few kings for the queens that must leave their columns) against plain
    search through the engine, on small random positions with the kings at the bottom of
    their columns and along random lines from them (queens moved onto kings): it must never
    call a winnable position lost, and it must fire in Baker's Dozen and Good Measure,
    also where rule D1 does not. The whole search with it must still give the exact verdict."""
    from thirteen.solver.packer import _Search, engine_search

    games = ("bakers-dozen", "good-measure", "portuguese-solitaire")
    fired = dict.fromkeys(games, 0)
    alone = dict.fromkeys(games, 0)
    for seed in range(2400):
        rng = random.Random(seed)
        game = games[seed % 3]
        state = kings_down(small_position(get_variant(game), rng, rng.randint(8, 12),
                                          rng.randint(2, 4)))
        exact = engine_search(state, Budget(max_nodes=20_000, max_seconds=30.0))
        assert solve(state, Budget(max_nodes=None, max_seconds=30.0)).verdict == exact.verdict
        for _ in range(8):
            search = _Search(state, QUICK)
            if search.short_of_kings():
                fired[game] += 1
                alone[game] += not search.no_host()
                lost = engine_search(state, Budget(max_nodes=20_000, max_seconds=30.0))
                assert lost.verdict == "unsolvable", format_board(state.to_layout())
            moves = list(state.legal_moves())
            if state.won or not moves:
                break
            state = state.apply(rng.choice(moves))
    assert min(alone["bakers-dozen"], alone["good-measure"]) >= 5, (fired, alone)


def test_d4_in_a_search_reads_a_king_moved_into_a_space_as_moved() -> None:
    """In Portuguese Solitaire a king moved into a space lies at the bottom of a column, as a
    card never moved does: rule D4 inside a search (`hopeless`, its counted game built from
    the start) must read that column as all moved. Along random lines from small positions,
    checked against plain search through the engine: it never calls a winnable position lost,
    and it fires where kings have moved into spaces."""
    from thirteen.solver.packer import _Search, engine_search
    from thirteen.solver.packer.probes import _play
    from thirteen.solver.relaxed import Counted

    fired = moved = 0
    for seed in range(120):
        rng = random.Random(seed)
        start = small_position(get_variant("portuguese-solitaire"), rng, rng.randint(6, 12),
                               rng.randint(3, 5))
        s = _Search(start, QUICK)
        if s.start() is not None:
            continue
        s.counted = Counted(start, s.clock)
        for _ in range(25):
            moves = list(s.moves())
            if not moves or s.won():
                break
            _play(s, rng.choice(moves))
            kings = sum(len(col) > 0 and col[0] >> 2 == 13
                        and s.counted.place[col[0]] != ci * 256
                        for ci, col in enumerate(s.cols))
            moved += kings > 0
            if kings and s.hopeless():
                fired += 1
                here = start_state(start.variant, Layout(
                    tuple(tuple(Card(c >> 2, c & 3) for c in col) for col in s.cols),
                    tuple(tuple(Card(r, suit) for r in range(1, s.fh[suit] + 1))
                          for suit in range(4)), (0,) * len(s.cols)))
                exact = engine_search(here, Budget(max_nodes=3_000, max_seconds=30.0))
                assert exact.verdict == "unsolvable", format_board(here.to_layout())
    assert moved >= 50 and fired >= 5, (moved, fired)


def patch_packer(monkeypatch: pytest.MonkeyPatch, name: str, value: object) -> None:
    """Set ``name`` in every module of the packer search that reads it (each module binds the
    names it imports)."""
    for module_name, module in list(sys.modules.items()):
        if module_name.startswith("thirteen.solver.packer") and hasattr(module, name):
            monkeypatch.setattr(module, name, value)


def test_d4_with_a_suit_kept_is_finer_and_a_window_coarser() -> None:
    # Good Measure 505 is lost (the exhaustive search proves it in 13.8 million positions,
    # docs/benchmarks.md), but its relaxed and counted games are won; with hearts kept the
    # relaxed game is lost, in 1,158,427 positions, and in 129,292 with a window of 5 ranks
    # (the rest of the suit one token among the others until its pile comes near).
    from thirteen.solver.relaxed import Counted, Relaxed

    clock = Clock(Budget(None, None, 1024))
    counted = Counted(new_state("good-measure", 505), clock)
    assert Relaxed(counted).steps(100_000) == "won"
    assert Relaxed(counted, (0,)).steps(100_000) == "won"  # clubs kept
    assert Relaxed(counted, (2,), 4).steps(100_000) == "won"  # hearts within 4 ranks
    before = clock.nodes
    assert Relaxed(counted, (2,), 5).steps(200_000) == "lost"  # hearts within 5 ranks
    assert clock.nodes - before < 200_000


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 13), min_size=1, max_size=5), st.data())
def test_counted_game_arranges_tokens_exactly_when_some_arrangement_exists(
        tops: list[int], data: st.DataObject) -> None:
    """Rule D4's counted game asks whether tokens of given numbers can lie on the columns
    (each a run from one below its top unmoved card down); `Room.arrangeable` answers from
    the numbers alone. Against every arrangement, on small cases: one or two columns left
    bare, some other column bearing a run ending at a given rank, or both."""

    from librt.vecs import vec
    from mypy_extensions import i64

    from thirteen.solver.relaxed import Room

    runs = [data.draw(st.integers(0, max(top - 1, 0))) for top in tops]
    tokens = [0] * 15
    for top, n in zip(tops, runs, strict=True):
        for r in range(top - n, top):
            tokens[r] += 1
    tokens = [max(0, t + data.draw(st.integers(-1, 1))) if r else 0 for r, t in enumerate(tokens)]
    tokens[13] = tokens[14] = 0
    bases = [0] * 15
    for top in tops:
        if top:
            bases[top] += 1
    bare = data.draw(st.integers(-1, len(tops) - 1))
    bare2 = data.draw(st.integers(-1, len(tops) - 1))
    if bare2 == bare:
        bare2 = -1
    low = data.draw(st.integers(0, 13))
    if low and any(i >= 0 and tops[i] >= low for i in (bare, bare2)):
        low = 0  # the bare columns' tops are below the run's end

    def arranged(lengths: tuple[int, ...]) -> bool:
        laid = [0] * 15
        for i, (top, n) in enumerate(zip(tops, lengths, strict=True)):
            if i in (bare, bare2) and n:
                return False
            for r in range(top - n, top):
                laid[r] += 1
        return laid == tokens and (not low or any(
            n and top - n == low for top, n in zip(tops, lengths, strict=True)))

    choices = [range(top) if top else range(1) for top in tops]
    exists = any(arranged(lengths) for lengths in itertools.product(*choices))
    top_of = [tops[i] if i >= 0 else 0 for i in (bare, bare2)]
    room = Room()
    room.load(vec[i64](tokens), vec[i64](bases))
    assert room.arrangeable(top_of[0], top_of[1], low) == exists


def test_d4_proves_deals_the_full_search_takes_millions_for() -> None:
    # Good Measure 285 and 204 are lost: the search without D4 took 1.0 and 5.8 million
    # positions to prove them (docs/benchmarks.md). 285's counted game is lost at the start;
    # 204's is won, and its relaxed game lost.
    from thirteen.solver.relaxed import Counted, Relaxed

    result = solve(new_state("good-measure", 285), QUICK)
    assert result.verdict == "unsolvable" and "D4" in result.reason
    counted = Counted(new_state("good-measure", 204), Clock(QUICK))
    assert counted.ask(counted.start, 10**6) == 1
    assert Relaxed(counted).steps(50_000) == "lost"
    result = solve(new_state("good-measure", 204), QUICK)
    assert result.verdict == "unsolvable" and "D4" in result.reason


def test_an_undecided_counted_start_takes_the_probes_share(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Baker's Dozen 477's counted game is lost at the start (12,788 counted positions). With
    # the usual threshold probes run before the relaxed search proves that; counted as late
    # from the first round, the probes wait for that question, so none runs before the proof.
    from thirteen.solver import packer
    from thirteen.solver.packer.tuning import LATE_AFTER

    made: list[bool] = []

    class Counting(packer._Search):
        def __init__(self, state: PackerState, budget: Budget, probe: bool = False) -> None:
            super().__init__(state, budget, probe)
            made.append(probe)

    patch_packer(monkeypatch, "_Search", Counting)
    for late_after, probes in ((LATE_AFTER, True), (0, False)):
        made.clear()
        patch_packer(monkeypatch, "LATE_AFTER", late_after)
        result = solve(new_state("bakers-dozen", 477), QUICK)
        assert result.verdict == "unsolvable" and "relaxed game is lost" in result.reason
        assert any(made) == probes


@pytest.mark.long
def test_games_with_a_suit_kept_take_the_exhaustive_searchs_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Good Measure 560 (lost; its relaxed game is won after 32,528 positions, and its games
    # with a suit kept are not all decided in 150,000: spades within 8 ranks takes 2.28
    # million). With those games due from the start, once they exist the exhaustive search no
    # longer runs while any of them is left, and the probes go on; with the usual threshold
    # they do not start yet.
    from thirteen.solver import packer
    from thirteen.solver.packer.tuning import KEPT_AFTER
    from thirteen.solver.relaxed import Relaxed

    turns: list[str] = []

    class Counting(packer._Search):
        def steps(self, limit: int) -> tuple[Verdict, list[IMove], str] | None:
            turns.append("probe" if self.noise else "exhaustive")
            return super().steps(limit)

    class Kept(Relaxed):
        def steps(self, limit: int) -> str:
            turns.append("kept" if self.kept else "relaxed")
            return super().steps(limit)

    patch_packer(monkeypatch, "_Search", Counting)
    patch_packer(monkeypatch, "Relaxed", Kept)
    for kept_after in (KEPT_AFTER, 0):
        turns.clear()
        patch_packer(monkeypatch, "KEPT_AFTER", kept_after)
        result = solve(new_state("good-measure", 560),
                       Budget(max_nodes=150_000, max_seconds=None, max_mb=512))
        assert result.verdict == "unknown"
        last = len(turns) - turns[::-1].index("relaxed")
        assert "exhaustive" in turns[:last] and "probe" in turns[last:]
        assert ("kept" in turns[last:]) == (kept_after == 0)
        assert ("exhaustive" in turns[last:]) == (kept_after != 0)


def record_kept_games(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[int, ...], int]]:
    """Make the portfolio's relaxed games with suits kept record, in the list returned,
    ("ran", suits, window) when each first runs and (its verdict, suits, window) when it is
    decided."""
    from thirteen.solver.relaxed import Relaxed

    events: list[tuple[str, tuple[int, ...], int]] = []

    class Kept(Relaxed):
        def steps(self, limit: int) -> str:
            if self.kept and ("ran", self.kept, self.window) not in events:
                events.append(("ran", self.kept, self.window))
            verdict = super().steps(limit)
            if verdict and self.kept:
                events.append((verdict, self.kept, self.window))
            return verdict

    patch_packer(monkeypatch, "Relaxed", Kept)
    return events


@pytest.mark.long
def test_games_with_a_suit_kept_widen_their_window(monkeypatch: pytest.MonkeyPatch) -> None:
    # Good Measure 505 with those games due from the start: the four suits are tried within
    # 3 ranks of their piles, and, once every one of them is decided, the suits won there
    # within 5, where hearts is lost (the test takes about 17 s in pure Python).
    events = record_kept_games(monkeypatch)
    patch_packer(monkeypatch, "KEPT_AFTER", 0)
    result = solve(new_state("good-measure", 505),  # in nodes only: a busy machine is slower
                   Budget(max_nodes=2_000_000, max_seconds=None, max_mb=1024))
    assert result.verdict == "unsolvable"
    assert "hearts kept within 5 ranks of their pile is lost" in result.reason
    assert events[:4] == [("ran", (suit,), 3) for suit in range(4)]
    first_wider = next(i for i, e in enumerate(events) if e[2] == 5)
    decided = [e[1] for e in events[:first_wider] if e[0] != "ran"]
    assert sorted(decided) == [(0,), (1,), (2,), (3,)]  # every narrow game first, each once
    wider = [e[1] for e in events if e[0] == "ran" and e[2] == 5]
    assert wider == [e[1] for e in events[:first_wider] if e[0] == "won"]
    assert events[-1] == ("lost", (2,), 5)


@pytest.mark.long
def test_games_with_two_suits_kept_follow_those_with_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # Good Measure 6978 with those games due from the start and one window, 3 ranks: the four
    # suits are tried one at a time, and, once every one of them is won, the six pairs (the
    # last is won after about 441,000 positions of the whole search; in nodes only: a busy
    # machine is slower).
    events = record_kept_games(monkeypatch)
    patch_packer(monkeypatch, "KEPT_AFTER", 0)
    patch_packer(monkeypatch, "WINDOWS", (3,))
    solve(new_state("good-measure", 6978), Budget(max_nodes=500_000, max_seconds=None, max_mb=1024))
    first_pair = next(i for i, e in enumerate(events) if len(e[1]) == 2)
    assert sorted(e for e in events[:first_pair] if e[0] == "won") == [
        ("won", (suit,), 3) for suit in range(4)]
    pairs = list(itertools.combinations(range(4), 2))
    assert [e for e in events[first_pair:] if e[0] == "ran"] == [("ran", p, 3) for p in pairs]
    assert sorted(e for e in events[first_pair:] if e[0] != "ran") == [
        ("won", p, 3) for p in pairs]


def assert_no_dead_end(state: State, kept: list[tuple[int, int]] | None) -> None:
    """No dead-end rule fires on ``state``, a winnable position: D1, and where they apply
    (Baker's Dozen, Good Measure, Portuguese) D3, D4's counted game and, unless ``kept`` is
    None, the relaxed game and those with each (suit, window) of ``kept`` kept, each for at
    most 20,000 positions."""
    from thirteen.solver.packer import _Search
    from thirteen.solver.relaxed import Counted, Relaxed

    assert isinstance(state, PackerState)
    search = _Search(state, QUICK)
    assert not search.dead()
    if not search.stuck_on:
        return
    assert not search.stuck()
    # one clock for the games and their shared counted memo: memory bounded only, since each
    # game's slice is bounded and a budget spent is no verdict
    counted = Counted(state, Clock(Budget(None, None, 512)))
    assert counted.ask(counted.start, 100_000) != 0
    if kept is not None:
        games = [Relaxed(counted)] + [Relaxed(counted, (suit,), window) for suit, window in kept]
        assert all(game.steps(20_000) != "lost" for game in games)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["bakers-dozen", "good-measure", "portuguese-solitaire"]),
       st.integers(0, 2**32), st.integers(5, 80))
def test_dead_end_rules_never_fire_on_winnable_positions(game: str, seed: int,
                                                         steps: int) -> None:
    state = unplay(GAMES[game], random.Random(seed), steps)
    assert_no_dead_end(state, [(seed % 4, KING), (seed % 4, 1 + seed % 5)])


@pytest.mark.long
def test_dead_end_rules_never_fire_along_good_measure_214s_winning_line() -> None:
    # Good Measure 214, the last deal of 1-1000 decided at 60 s: its line (212 moves, found
    # by the portfolio after 308 million positions, docs/benchmarks.md) sends only 2H
    # and AS home in its first 138 moves, and most first moves lose the deal. Every position
    # on it is winnable. The relaxed games (slow from the early positions in pure Python) on
    # every 20th position, each suit kept in one of the windows.
    from thirteen.solver.packer.tuning import WINDOWS

    moves = (Path(__file__).parent / "data" / "good-measure-214.moves").read_text().split()
    state = new_state("good-measure", 214)
    for k, text in enumerate(moves):
        kept = [(suit, WINDOWS[(k // 20 + suit) % 4]) for suit in range(4)]
        assert_no_dead_end(state, kept if k % 20 == 10 else None)
        state = state.apply(Move.parse(text))
    assert state.won
