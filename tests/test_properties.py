"""Property tests: random legal play in every game keeps the engine's promises."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from thirteen.cards import full_deck
from thirteen.game import Game, State, card_count, new_state
from thirteen.moves import Move, Place
from thirteen.packer import PackerState
from thirteen.solver import Budget, solve
from thirteen.variants import GAMES, Variant

GAME_NAMES = sorted(GAMES)


@st.composite
def played_games(draw: st.DrawFn, names: list[str] = GAME_NAMES, *,
                 foundations: bool = False) -> Game:
    """A numbered deal after up to 60 random legal moves; worry_back drawn where a game
    takes options (and with ``foundations``, foundations by suit or by rank too)."""
    name = draw(st.sampled_from(names))
    options: dict[str, object] = {}
    if GAMES[name].takes_options:
        options["worry_back"] = draw(st.booleans())
        if foundations:
            options["foundations"] = draw(st.sampled_from(["suit", "rank"]))
    variant = GAMES[name].with_options(**options)
    game = Game.new(variant, draw(st.integers(1, 10**9)))
    for _ in range(draw(st.integers(0, 60))):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[draw(st.integers(0, len(moves) - 1))])
    return game


SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(played_games())
def test_random_play_never_creates_loses_or_duplicates_a_card(game: Game) -> None:
    assert card_count(game.state) == Counter(full_deck(game.variant.decks))


@SETTINGS
@given(played_games())
def test_saved_games_round_trip(game: Game) -> None:
    back = Game.from_json(game.to_json())
    assert back.state == game.state and back.moves == game.moves
    assert hash(back.state) == hash(game.state)


@SETTINGS
@given(played_games())
def test_undo_after_any_sequence_restores_the_start(game: Game) -> None:
    played = list(game.moves)
    while game.moves:
        game.undo()
    assert game.state == game.start
    for _ in played:
        game.redo()
    assert game.moves == played


@SETTINGS
@given(played_games())
def test_notation_round_trips_for_every_legal_move(game: Game) -> None:
    for move in game.legal_moves():
        assert Move.parse(str(move)) == move
        assert game.state.why_illegal(move) is None


@SETTINGS
@given(played_games())
def test_the_view_never_shows_a_hidden_card(game: Game) -> None:
    state = game.state
    view = str(game.state.view())
    if isinstance(state, PackerState):
        for col, hidden in zip(state.columns, state.hidden, strict=True):
            for card in col[:hidden]:
                assert f"'{card}'" not in view
    else:
        assert "stock" not in game.state.view()
        assert game.state.view()["stock_left"] == len(state.stock)


def candidate_moves(state: State) -> set[Move]:
    """Every move that can be written for this position, legal or not: each source and target
    place of either family (one pile too many, foundations by suit and by number included)
    and each count up to one more than the tallest pile."""
    piles = state.to_layout().columns  # a packer's columns, Calculation's waste piles
    n, nf = len(piles) + 1, len(state.foundations) + 1
    places = ([Place("c", j) for j in range(n)] + [Place("w", j) for j in range(n)]
              + [Place("f", p) for p in range(nf)] + [Place("fs", s) for s in range(4)]
              + [Place("f"), Place("fa"), Place("fk"), Place("s")])
    counts = range(1, max(len(p) for p in piles) + 2)
    return {Move(src, dst, k) for src in places for dst in places for k in counts}


@pytest.mark.parametrize("name", GAME_NAMES)
@settings(SETTINGS, max_examples=25)
@given(data=st.data())
def test_legal_moves_are_exactly_the_moves_why_illegal_accepts(name: str, data: st.DataObject
                                                               ) -> None:
    state = data.draw(played_games([name], foundations=True)).state
    legal = state.legal_moves()
    assert len(set(legal)) == len(legal)
    assert set(legal) == {m for m in candidate_moves(state) if state.why_illegal(m) is None}


# ---- automatic moves never lose a won game ---------------------------------------------------
AUTO_VARIANTS = [GAMES[name].with_options(worry_back=w, foundations=f)
                 for name in GAME_NAMES if GAMES[name].takes_options
                 for w in (False, True) for f in ("suit", "rank")] + [GAMES["bisley"]]
AUTO_BUDGET = Budget(max_nodes=50_000, max_seconds=10.0, max_mb=512)


def assert_auto_moves_keep_it_winnable(state: State) -> None:
    """``state`` is winnable: after the automatic moves the solver must not prove it lost."""
    game = Game(state)
    played = game.auto_moves()
    if played:
        after = solve(game.state, AUTO_BUDGET)
        assert after.verdict != "unsolvable", (state.to_layout(), played)


@pytest.mark.long
@pytest.mark.parametrize("variant", AUTO_VARIANTS, ids=lambda v: "-".join(
    [v.name, "worry" if v.worry_back else "no-worry", v.foundations]))
@settings(SETTINGS, max_examples=3)
@example(number=31, at=0, picks=[])  # Baker's Dozen by rank: three positions of its line once lost
@given(number=st.integers(1, 100), at=st.integers(0, 10**6),
       picks=st.lists(st.integers(0, 10**6), max_size=4))
def test_auto_moves_never_turn_a_winnable_position_lost(variant: Variant, number: int, at: int,
                                                        picks: list[int]) -> None:
    """Every position of a winning line is winnable, and so is a detour from it that the
    solver wins: the automatic moves played there must leave it winnable."""
    line = solve(new_state(variant, number), AUTO_BUDGET)
    assume(line.verdict == "solved")
    game = Game(new_state(variant, number))
    states = [game.state] + [game.push(m) for m in line.moves]
    for state in states:
        assert_auto_moves_keep_it_winnable(state)
    detour = Game(states[at % len(states)])
    for pick in picks:
        if moves := detour.legal_moves():
            detour.push(moves[pick % len(moves)])
    if solve(detour.state, AUTO_BUDGET).verdict == "solved":
        assert_auto_moves_keep_it_winnable(detour.state)
