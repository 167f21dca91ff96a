"""The Calculation family's solver: solutions replay, the pruning rules (A1 forced moves home,
B1 bans, T1 dead ends, R1 the unwinding game) agree with an unpruned search of the engine,
hand-made positions with known answers (the fair player: tests/test_fair.py)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from thirteen.calculation import CalcState
from thirteen.cards import Card
from thirteen.game import new_state
from thirteen.moves import Move
from thirteen.solver import Budget, fair_move, schedule_model, solve
from thirteen.solver.calculation import (
    MOVE_SEARCH_NODES,
    _Calc,
    _CalcSearch,
    _to_move,
    search_moves,
)
from thirteen.solver.clock import Clock
from thirteen.solver.common import now, signals_held
from thirteen.solver.schedule_model import FIRST_RUN, NODES_PER_DETERMINISTIC_SECOND, decide
from thirteen.variants import GAMES

QUICK = Budget(max_nodes=400_000, max_seconds=30.0, max_mb=512)


def ranks(text: str, suit: int = 0) -> tuple[Card, ...]:
    return tuple(Card("A23456789TJQK".index(t) + 1, suit) for t in text.split())


def calc_state(found: list[int], waste: list[str], stock: str = "",
               game: str = "calculation") -> CalcState:
    """Foundation ``f`` holds the first ``found[f]`` ranks of its sequence."""
    v = GAMES[game]
    piles = tuple(tuple(Card(r, 0) for r in v.sequence(f)[:h]) for f, h in enumerate(found))
    return CalcState(v, piles, tuple(ranks(w) for w in waste), ranks(stock, 1))


def replays_to_a_win(state: CalcState, moves: tuple[Move, ...]) -> bool:
    s = state
    for m in moves:
        s = s.apply(m)
    return s.won


@pytest.mark.parametrize("game,number", [
    ("calculation", 3), ("calculation", 4), ("calculation", 11),
    ("imaginary-thirteen", 1), ("imaginary-thirteen-pysol", 3),
])
def test_solved_deals_replay_to_a_win(game: str, number: int) -> None:
    state = new_state(game, number)
    assert isinstance(state, CalcState)
    result = solve(state, QUICK)
    assert result.verdict == "solved"
    assert replays_to_a_win(state, result.moves)


def test_a_king_home_is_not_always_right() -> None:
    # f1 wants a king; f2 wants a jack, then a king. The king on w1 must wait: the king on
    # top of the jack in w2 goes to f1 first. (So no move home is forced while two
    # foundations want its rank; the search finds the line after banning w1-f1, rule B1.)
    state = calc_state([12, 11, 13, 13], ["K", "J K"])
    result = solve(state, QUICK)
    assert result.verdict == "solved"
    assert [str(m) for m in result.moves] == ["w2-f1", "w2-f2", "w1-f2"]
    # The wrong king home first is a dead end (rule T1): the jack lies under a king that only
    # f2 can take, after that very jack.
    calc = _Calc(state.apply(Move.parse("w1-f1")))
    calc.count_stock()
    assert calc.dead()


def test_a_card_over_one_its_only_foundation_needs_first_is_lost() -> None:
    # Only f1 is unfinished: it wants a 10, a jack, a queen, a king. The queen sits on the
    # jack: lost, proved at once. The same cards the other way up win.
    lost = calc_state([9, 13, 13, 13], ["J Q", "K"], "T")
    result = solve(lost, QUICK)
    assert result.verdict == "unsolvable" and result.nodes <= 1
    won = calc_state([9, 13, 13, 13], ["Q J", "K"], "T")
    assert solve(won, QUICK).verdict == "solved"


def test_blocked_ranks_chain_through_piles() -> None:
    # f1 wants 9, then 10, J, Q, K; f2 is finished. The only 9 lies under the 10 in w1, and
    # the only other card above it is on w2 ... every card waits for a card under another:
    # w1 = 9 10 (the 10 needs the 9 first), so lost though the queen and king are free.
    state = calc_state([8, 13, 13, 13], ["9 T", "J", "Q K"])
    assert solve(state, QUICK).verdict == "unsolvable"


def test_forced_moves_are_the_cards_only_one_foundation_wants() -> None:
    # The 5 is wanted by f1 only (the others are finished); it goes home by itself (A1),
    # and so does the 6 under it once the 5 is gone.
    calc = _Calc(calc_state([4, 13, 13, 13], ["6 5", "7"], "8 9 T J Q K"))
    played = calc.forced()
    assert played is not None
    assert played[:2] == [(1, 0, 0), (0, 0, 0)] or played[:2] == [(0, 0, 0), (0, 0, 0)]
    assert calc.won()


# ---- the pruned search against an unpruned search of the engine -------------------------


@cache  # several tests ask about the same endgames
def brute_force(state: CalcState) -> bool:
    """Is ``state`` winnable? Every legal move of the engine, no pruning at all."""

    @cache
    def win(s: CalcState) -> bool:
        if s.won:
            return True
        return any(win(s.apply(m)) for m in s.legal_moves())

    return win(state)


@cache
def experts_game(game: str, number: int, cards_left: int) -> CalcState:
    """The experts' rule's game of a deal until ``cards_left`` stock cards remain."""
    s = new_state(game, number)
    assert isinstance(s, CalcState)
    while len(s.stock) > cards_left and (m := fair_move(s, samples=0)) is not None:
        s = s.apply(m)
    return s


def endgames(game: str, number: int, cards_left: int, count: int,
             seed: int | None = None) -> list[CalcState]:
    """Positions with ``cards_left`` stock cards: the experts' rule's game up to a few cards
    more, then random moves (random piles, so some of these are lost and some are not)."""
    rng = random.Random(number if seed is None else seed)
    s = experts_game(game, number, cards_left + 4)
    out = []
    for _ in range(count):
        e = s
        while len(e.stock) > cards_left and e.legal_moves():
            e = e.apply(rng.choice(e.legal_moves()))
        out.append(e)
    return out


@pytest.mark.long
@pytest.mark.parametrize("game,number,both", [
    ("calculation", 4, False), ("calculation", 8, False), ("calculation", 2, True),
    ("imaginary-thirteen", 1, False),  # (two decks: each deal's brute force takes 20-250 s)
])
def test_pruned_search_agrees_with_brute_force(game: str, number: int, both: bool) -> None:
    verdicts = set()
    for s in endgames(game, number, 6, 12):
        truth = "solved" if brute_force(s) else "unsolvable"
        search = _CalcSearch(s, Clock(Budget(max_nodes=None, max_seconds=None)))
        assert search.steps(10**9) == truth, str(s.view())
        verdicts.add(truth)
        if truth == "solved":
            line = tuple(_to_move(m) for m in search.line())
            assert replays_to_a_win(s, line)
    if both:  # these deals put both answers to the test
        assert verdicts == {"solved", "unsolvable"}


@pytest.mark.long
@settings(max_examples=40, deadline=None)
@given(st.sampled_from([2, 4, 8, 11]), st.integers(2, 6), st.integers(0, 10**6))
def test_every_rule_agrees_with_an_unpruned_search_on_random_endgames(
        number: int, left: int, seed: int) -> None:
    # The whole search (A1, B1, T1, R1 and the table) against every legal move of the engine,
    # on Calculation endgames reached by random moves; T1 alone never calls a won one lost.
    s = endgames("calculation", number, left, 1, seed)[0]
    truth = brute_force(s)
    calc = _Calc(s)
    calc.count_stock()
    assert truth is False or not calc.dead()
    search = _CalcSearch(s, Clock(Budget(max_nodes=None, max_seconds=None)))
    assert search.steps(10**9) == ("solved" if truth else "unsolvable"), str(s.view())
    if truth:
        assert replays_to_a_win(s, tuple(_to_move(m) for m in search.line()))


def test_dead_end_rule_never_fires_along_a_winning_line() -> None:
    for number in (3, 4, 11):
        state = new_state("calculation", number)
        assert isinstance(state, CalcState)
        result = solve(state, QUICK)
        assert result.verdict == "solved"
        s = state
        for m in result.moves:
            s = s.apply(m)
            calc = _Calc(s)
            calc.count_stock()
            assert not calc.dead()


def test_exhaustive_search_alone_proves_a_lost_endgame() -> None:
    lost = [s for s in endgames("calculation", 2, 6, 12) if not brute_force(s)]
    assert lost
    for s in lost[:5]:
        search = _CalcSearch(s, Clock(Budget(max_nodes=100_000, max_seconds=30.0)))
        assert search.steps(100_000) == "unsolvable"


# ---- the scheduling model (CP-SAT) -------------------------------------------------------


def model_verdict(state: CalcState, first_run: float = FIRST_RUN) -> str:
    """The model's verdict with no budget; a solution must replay to a win."""
    answer = decide(state, None, None, first_run=first_run)
    if answer.verdict == "solved":
        assert replays_to_a_win(state, answer.moves), str(state.view())
    return answer.verdict


@pytest.mark.long
@pytest.mark.parametrize("game,number,left", [
    ("calculation", 2, 6), ("calculation", 4, 6), ("calculation", 8, 5),
    ("imaginary-thirteen", 1, 3), ("imaginary-thirteen-pysol", 3, 3),
])
def test_scheduling_model_agrees_with_brute_force(game: str, number: int, left: int) -> None:
    verdicts = set()
    for s in endgames(game, number, left, 10):
        truth = "solved" if brute_force(s) else "unsolvable"
        assert model_verdict(s) == truth, str(s.view())
        verdicts.add(truth)
    if (game, number) == ("calculation", 2):  # this deal's endgames put both answers to the test
        assert verdicts == {"solved", "unsolvable"}


@pytest.mark.long
@settings(max_examples=30, deadline=None)
@given(st.sampled_from([1, 2, 4, 8, 11]), st.integers(1, 6), st.integers(0, 10**6))
def test_scheduling_model_agrees_with_an_unpruned_search_on_random_endgames(
        number: int, left: int, seed: int) -> None:
    s = endgames("calculation", number, left, 1, seed)[0]
    assert model_verdict(s) == ("solved" if brute_force(s) else "unsolvable"), str(s.view())


def random_position(seed: int, left: int, game: str = "calculation") -> CalcState:
    """A position with ``left`` cards still out, dealt at random: a few on one or two waste
    piles, so that the other piles are empty (interchangeable) and, now and then, two equal
    piles; the rest in the stock."""
    rng = random.Random(seed)
    v = GAMES[game]
    found = [len(v.sequence(f)) for f in range(len(v.bases))]
    for _ in range(left):
        found[rng.choice([f for f, h in enumerate(found) if h > 1])] -= 1
    out = [r for f, h in enumerate(found) for r in v.sequence(f)[h:]]
    rng.shuffle(out)
    waste: list[list[int]] = [[] for _ in range(v.waste_piles)]
    for _ in range(rng.randint(len(out) // 3, len(out) - 3)):
        waste[rng.randrange(2)].append(out.pop())
    if rng.random() < 0.3:  # a copy of the first pile, as far as the stock has its ranks
        for r in waste[0]:
            if r in out:
                out.remove(r)
                waste[2].append(r)
    names = "A23456789TJQK"
    return calc_state(found, [" ".join(names[r - 1] for r in w) for w in waste],
                      " ".join(names[r - 1] for r in out), game)


@settings(max_examples=40, deadline=None)
@given(st.integers(8, 10), st.integers(0, 10**6))
def test_scheduling_model_agrees_with_an_unpruned_search_on_random_positions(
        left: int, seed: int) -> None:
    # Cards dealt at random onto piles and into the stock, so that many piles are badly
    # ordered: the implied clauses of the model (*solver/schedule_model.py*) meet waste piles
    # as well as the stock, and one of five such positions is lost.
    s = random_position(seed, left)
    assert model_verdict(s) == ("solved" if brute_force(s) else "unsolvable"), str(s.view())


def test_random_positions_put_both_answers_to_the_test() -> None:
    positions = [random_position(seed, 10) for seed in range(20)]
    verdicts = [model_verdict(s) for s in positions]
    assert verdicts == ["solved" if brute_force(s) else "unsolvable" for s in positions]
    assert set(verdicts) == {"solved", "unsolvable"}


@dataclass
class Runs:
    """The seed and the status of each run of the model, in turn."""

    seeds: list[int] = field(default_factory=list)
    statuses: list[cp_model.CpSolverStatus] = field(default_factory=list)


def counted_runs(monkeypatch: pytest.MonkeyPatch,
                 before: Callable[[], object] = lambda: None) -> Runs:
    """The runs of the model from now on, each after ``before``."""
    runs = Runs()
    make = schedule_model._solver

    def counting() -> cp_model.CpSolver:
        solver = make()
        solve = solver.solve

        def counted(model: cp_model.CpModel) -> cp_model.CpSolverStatus:
            runs.seeds.append(solver.parameters.random_seed)
            before()
            runs.statuses.append(solve(model))
            return runs.statuses[-1]

        solver.solve = counted  # type: ignore[method-assign, assignment]
        return solver

    monkeypatch.setattr(schedule_model, "_solver", counting)
    return runs


def test_restarts_keep_every_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    # Runs so short that the positions need several, each with the next seed: a run that ends
    # unknown must lead to the next, and the verdict of the run that decides is the truth.
    seeds = counted_runs(monkeypatch).seeds
    positions = [random_position(seed, 10) for seed in range(20)]
    verdicts = [model_verdict(s, first_run=0.0005) for s in positions]
    assert verdicts == ["solved" if brute_force(s) else "unsolvable" for s in positions]
    assert len(seeds) > len(positions) and max(seeds) > 2


def test_restarts_stay_within_the_node_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = counted_runs(monkeypatch).seeds
    state = new_state("imaginary-thirteen-pysol", 2419)
    assert isinstance(state, CalcState)
    budget = NODES_PER_DETERMINISTIC_SECOND // 2  # half a deterministic second
    answer = decide(state, None, budget, first_run=0.05)
    assert answer.verdict == "unknown" and seeds[:3] == [1, 2, 3]
    assert budget * 0.9 <= answer.nodes <= budget * 1.1


def test_a_past_deadline_stops_the_model_without_any_limit_of_cp_sats() -> None:
    # no time or work limit of CP-SAT's own: only the watcher, reading the clock, stops it
    state = new_state("imaginary-thirteen-pysol", 12423)  # its model takes seconds
    assert isinstance(state, CalcState)
    solver = schedule_model._solver()
    model = schedule_model._Model(state).m
    assert schedule_model._solve_within(solver, model, 1.0, clock=lambda: 2.0) == cp_model.UNKNOWN
    small = schedule_model._Model(calc_state([12, 11, 13, 13], ["K", "J K"])).m
    assert schedule_model._solve_within(schedule_model._solver(), small, 1.0,
                                        clock=lambda: 0.0) == cp_model.OPTIMAL


def test_a_busy_core_makes_the_model_slower_not_its_answer_different(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Three processes that never wait share this thread's core: it gets about a quarter of it.
    # The budget is twice the CPU time of the model of Calculation 35 alone (about a second, and
    # it varies with the machine): with CP-SAT's wall clock as the limit, a run on the busy core
    # ended at about half its work, unknown, and the next seeds' too.
    state = new_state("calculation", 35)
    assert isinstance(state, CalcState)
    alone = now()
    decide(state, None, None)
    budget = 2 * (now() - alone)
    seeds = counted_runs(monkeypatch).seeds
    core = {min(os.sched_getaffinity(0))}
    before = os.sched_getaffinity(0)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)]
    try:
        for hog in hogs:
            os.sched_setaffinity(hog.pid, core)
        os.sched_setaffinity(0, core)  # this thread, and CP-SAT's work in it
        answer = decide(state, budget, None)
    finally:
        os.sched_setaffinity(0, before)
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert answer.verdict == "solved" and seeds == [1]
    assert replays_to_a_win(state, answer.moves)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_the_model_within_its_run(monkeypatch: pytest.MonkeyPatch,
                                                 sig: signal.Signals) -> None:
    # CP-SAT does not come back to Python until its run ends, so Python's handler could not
    # run: SIGTERM waited for the run's end (up to its budget) and Ctrl-C was CP-SAT's, which
    # ended the run only (the next began) or hung the process.
    def signal_soon() -> None:
        threading.Timer(0.3, os.kill, (os.getpid(), sig)).start()

    runs = counted_runs(monkeypatch, signal_soon)
    state = new_state("imaginary-thirteen-pysol", 12423)  # its model takes seconds
    assert isinstance(state, CalcState)
    seen: list[int] = []
    previous = signal.signal(sig, lambda signum, frame: seen.append(signum))
    try:
        with pytest.raises(KeyboardInterrupt), signals_held():  # the handler let it go on
            decide(state, 600.0, None)
    finally:
        signal.signal(sig, previous)
    assert (seen, runs.statuses) == ([sig], [cp_model.UNKNOWN])


def test_scheduling_model_decides_the_small_positions_the_rules_decide() -> None:
    assert model_verdict(calc_state([9, 13, 13, 13], ["J Q", "K"], "T")) == "unsolvable"
    assert model_verdict(calc_state([9, 13, 13, 13], ["Q J", "K"], "T")) == "solved"
    assert model_verdict(calc_state([8, 13, 13, 13], ["9 T", "J", "Q K"])) == "unsolvable"
    assert model_verdict(calc_state([12, 11, 13, 13], ["K", "J K"])) == "solved"


@pytest.mark.parametrize("game,number", [("calculation", 21), ("calculation", 35)])
def test_the_model_wins_deals_the_move_search_leaves_unknown(game: str, number: int) -> None:
    state = new_state(game, number)
    assert isinstance(state, CalcState)
    share = MOVE_SEARCH_NODES[state.variant.decks]
    assert search_moves(state, Budget(max_nodes=share, max_seconds=None)).verdict == "unknown"
    result = solve(state, Budget(max_nodes=40_000_000, max_seconds=None))
    assert result.verdict == "solved" and result.nodes > share
    assert replays_to_a_win(state, result.moves)
