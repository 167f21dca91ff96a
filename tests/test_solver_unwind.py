"""Rules R1-R3 of the Calculation search (the unwinding game, solver/unwind.py) against
unpruned searches of the engine's own moves: the unwinding game is modelled in the engine by
dealing each stock card onto a waste pile of its own, which leaves only moves home."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thirteen.calculation import CalcState
from thirteen.cards import Card
from thirteen.game import new_state
from thirteen.moves import Move, Place
from thirteen.solver import Budget, solve
from thirteen.solver.calculation import _Calc, _CalcSearch
from thirteen.solver.clock import Clock
from thirteen.solver.unwind import Unwind
from thirteen.variants import GAMES

UNCAPPED = 10**9
# Deals whose thoughtful solutions are found at once: endgames near their winning lines are
# won or lost depending on the random turns taken off them.
WON_DEALS = [("calculation", 2), ("calculation", 4), ("calculation", 8),
             ("imaginary-thirteen", 1), ("imaginary-thirteen-pysol", 3)]


@cache
def engine_wins(s: CalcState) -> bool:
    """Is ``s`` winnable? Every legal move of the engine, no pruning at all."""
    return s.won or any(engine_wins(s.apply(m)) for m in s.legal_moves())


def unwinding_in_the_engine(s: CalcState) -> CalcState:
    """The unwinding game of ``s`` as an engine position: each stock card on a pile of its
    own, the stock empty (so the only moves are moves home)."""
    return CalcState(s.variant, s.foundations, s.waste + tuple((c,) for c in s.stock), (),
                     s.markers)


@cache
def winning_line(game: str, number: int) -> tuple[Move, ...]:
    state = new_state(game, number)
    result = solve(state, Budget(max_nodes=400_000, max_seconds=30.0, max_mb=512))
    assert result.verdict == "solved"
    return result.moves


def endgame(game: str, number: int, left: int, seed: int) -> CalcState:
    """The deal's winning line played until ``left`` stock cards remain, then random legal
    moves (so some of these positions are lost and some won) until ``left - 2`` remain."""
    s = new_state(game, number)
    assert isinstance(s, CalcState)
    for m in winning_line(game, number):
        if len(s.stock) <= left:
            break
        s = s.apply(m)
    rng = random.Random(seed)
    while len(s.stock) > max(left - 2, 0) and s.legal_moves():
        s = s.apply(rng.choice(s.legal_moves()))
    return s


def unwinding_verdict(s: CalcState) -> tuple[str, Unwind]:
    calc = _Calc(s)
    calc.count_stock()
    unwind = Unwind(calc.seqs, calc.index)
    return unwind.verdict(calc.height, calc.waste, calc.left[0], UNCAPPED), unwind


@pytest.mark.long
@settings(max_examples=80, deadline=None)
@given(st.sampled_from(WON_DEALS), st.integers(3, 9), st.integers(0, 10**6))
def test_unwinding_game_agrees_with_an_unpruned_search(deal: tuple[str, int], left: int,
                                                        seed: int) -> None:
    # R2 (a top rather than a free card), R3 (a rank all in reach) and A1 prune the search of
    # the unwinding game; the engine's every move home does not. And a lost unwinding game is
    # a lost position (R1).
    s = endgame(*deal, left, seed)
    verdict, _ = unwinding_verdict(s)
    assert verdict == ("won" if engine_wins(unwinding_in_the_engine(s)) else "lost")
    if verdict == "lost":
        assert not engine_wins(s)


def test_both_verdicts_occur_and_the_stock_empty_is_exact() -> None:
    seen = set()
    for game, number in WON_DEALS:
        for seed in range(12):
            s = endgame(game, number, 2, seed)
            verdict, unwind = unwinding_verdict(s)
            seen.add(verdict)
            if verdict == "lost":
                assert not engine_wins(s)
            if s.stock:
                continue
            assert (verdict == "won") == engine_wins(s)
            if verdict == "won":  # its line replays to a win
                for w, f in unwind.line:
                    s = s.apply(Move(Place("w", w), Place("f", f)))
                assert s.won
    assert seen == {"won", "lost"}


def single_foundation(ranks: list[int], game: str = "calculation") -> CalcState:
    """Every foundation but the first complete; the first wants ``min(ranks)`` up to the
    king, and the stock holds those ranks in the given order."""
    v = GAMES[game]
    low = min(ranks)
    found = tuple(tuple(Card(r, 0) for r in v.sequence(f)[:low - 1 if f == 0 else 13])
                  for f in range(4))
    return CalcState(v, found, ((),) * 4, tuple(Card(r, 1) for r in ranks))


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False))
def test_deals_built_to_be_lost_are_proved_lost(rng: random.Random) -> None:
    # Five cards that arrive in the order the foundation takes them, all before the card it
    # wants first: no two may share a pile (the upper would go home after the lower), and
    # four piles hold four. Whatever the other cards do, the deal is lost.
    wanted = list(range(7, 14))
    first, rest = wanted[0], wanted[1:]
    five = sorted(rng.sample(rest, 5))
    others = [r for r in rest if r not in five]
    rng.shuffle(others)
    order = others[:rng.randint(0, len(others))]
    stock = [*order, *five, first, *[r for r in others if r not in order]]
    state = single_foundation(stock)
    assert not engine_wins(state)
    assert solve(state, Budget(max_nodes=200_000, max_seconds=30.0)).verdict == "unsolvable"


@settings(max_examples=40, deadline=None)
@given(st.permutations(list(range(7, 14))))
def test_single_foundation_deals_agree_with_an_unpruned_search(stock: list[int]) -> None:
    state = single_foundation(stock)
    search = _CalcSearch(state, Clock(Budget(max_nodes=None, max_seconds=None)))
    assert search.steps(10**9) == ("solved" if engine_wins(state) else "unsolvable")
