"""The Calculation family's fair player: it never reads the stock order, its moves are legal and
its wins replay, its rollouts play the experts' rule exactly as the engine would, sampling
beats the rule alone, and a hint says why in a player's words."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thirteen.calculation import CalcState
from thirteen.cards import Card
from thirteen.game import new_state
from thirteen.solver import Budget, fair_move, fair_play, hint, solve
from thirteen.solver.fair import _Rollout, _View, fair_advice
from thirteen.variants import GAMES

QUICK = Budget(max_nodes=400_000, max_seconds=30.0, max_mb=512)
GAME_NAMES = ["calculation", "imaginary-thirteen", "imaginary-thirteen-pysol"]


def reshuffled(state: CalcState, rng: random.Random) -> CalcState:
    """The same view with the unseen cards (the stock below the turned card) in another order."""
    rest = list(state.stock[1:])
    rng.shuffle(rest)
    return dataclasses.replace(state, stock=state.stock[:1] + tuple(rest))


def played(game: str, number: int, steps: int) -> CalcState:
    """Deal ``number`` after ``steps`` moves of the experts' rule (or fewer if it ends)."""
    s = new_state(game, number)
    assert isinstance(s, CalcState)
    for _ in range(steps):
        m = fair_move(s, samples=0)
        if m is None:
            break
        s = s.apply(m)
    return s


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(GAME_NAMES), number=st.integers(1, 100_000),
       steps=st.integers(0, 90), seed=st.integers(0, 2**32))
def test_shuffling_the_unseen_stock_never_changes_the_move(game: str, number: int, steps: int,
                                                           seed: int) -> None:
    s = played(game, number, steps)
    other = reshuffled(s, random.Random(seed))
    assert fair_advice(s, 8) == fair_advice(other, 8)


@pytest.mark.parametrize("game,number", [("calculation", 5), ("imaginary-thirteen", 3)])
def test_the_fair_player_never_reads_the_stock_order_along_a_game(game: str, number: int) -> None:
    s = new_state(game, number)
    assert isinstance(s, CalcState)
    rng = random.Random(number)
    while True:
        move = fair_move(s, 16)
        assert fair_move(reshuffled(s, rng), 16) == move
        if move is None:
            break
        s = s.apply(move)


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("number", [1, 2])
def test_the_fair_player_plays_legally_and_its_wins_replay(game: str, number: int) -> None:
    state = new_state(game, number)
    assert isinstance(state, CalcState)
    result = fair_play(state, samples=16)
    s = state
    for m in result.moves:
        s = s.apply(m)
    assert s.won == (result.verdict == "solved")
    if not s.won:
        assert not s.legal_moves()
    else:
        assert solve(state, QUICK).verdict == "solved"  # a fair win is a solution


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_rollout_plays_the_experts_rule_as_the_engine_does(game: str) -> None:
    """A rollout given the true stock ends with as many cards home as the engine's game of the
    experts' rule (samples=0 plays the first move of the rule's order)."""
    for number in range(1, 21):
        state = new_state(game, number)
        assert isinstance(state, CalcState)
        roll = _Rollout(_View(state), bytes(c.rank for c in state.stock))
        home = roll.run()
        s = state
        while (m := fair_move(s, samples=0)) is not None:
            s = s.apply(m)
        assert home == sum(len(p) for p in s.foundations), number


def test_sampling_beats_the_experts_rule_alone() -> None:
    def wins(samples: int) -> int:
        return sum(fair_play(played("calculation", n, 0), samples=samples).verdict == "solved"
                   for n in range(1, 21))

    assert wins(32) > wins(0)


def calc_state(found: list[int], waste: list[str], stock: str) -> CalcState:
    """Foundation ``f`` holds the first ``found[f]`` ranks of its sequence."""
    v = GAMES["calculation"]
    piles = tuple(tuple(Card(r, 0) for r in v.sequence(f)[:h]) for f, h in enumerate(found))

    def ranks(text: str, suit: int) -> tuple[Card, ...]:
        return tuple(Card("A23456789TJQK".index(t) + 1, suit) for t in text.split())

    return CalcState(v, piles, tuple(ranks(w, 0) for w in waste), ranks(stock, 1))


def test_a_hint_says_why_in_a_players_words() -> None:
    # No foundation wants the 5 now; it belongs on the 7 (wanted after it, by the least gap),
    # not on the J (a wider gap) nor on an empty pile; pile 4 is left empty for kings.
    state = calc_state([2, 2, 4, 1], ["7", "J", "", ""], "5 3 9 K K Q")
    h = hint(state)
    advice = fair_advice(state, 64)
    assert h.move == advice.move and h.verdict == "unknown"
    assert "sampled stock orders" in h.message
    assert str(h.move) == "s-w1"
    assert "the 5 goes on the 7 of pile 1, wanted after it; keeps pile 4 for kings" in h.message


def test_a_king_starts_the_pile_kept_for_kings() -> None:
    state = calc_state([2, 2, 2, 2], ["J", "", "", ""], "K 3 4 5")
    advice = fair_advice(state, 0)
    assert str(advice.move) == "s-w2"
    assert advice.reason == "the experts' rule; starts pile 2 for kings"


def test_no_move_no_advice() -> None:
    state = calc_state([2, 2, 2, 2], ["J", "", "", ""], "")
    assert fair_advice(state).move is None
