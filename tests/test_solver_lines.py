"""How the solver finds lines: probes, beams and nested rollouts; positions kept between
searches; lines shortened."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver import QUICK, Line, replay

from thirteen.deal import deal
from thirteen.game import new_state, start_state
from thirteen.packer import PackerState
from thirteen.solver import Budget, solve
from thirteen.solver.clock import Clock
from thirteen.solver.common import checked_result
from thirteen.solver.packer import _Search, schedule
from thirteen.variants import GAMES, get_variant


@pytest.mark.parametrize("game", ["bakers-dozen", "good-measure", "portuguese-solitaire"])
def test_probe_solutions_replay_to_a_win(game: str) -> None:
    """A probe's noisy move order finds real wins: its lines replay through the engine."""
    from thirteen.solver.common import OutOfBudget
    from thirteen.solver.packer import to_engine_moves
    from thirteen.solver.packer.tuning import PROBE_NOISE

    variant = get_variant(game)
    wins = 0
    for number in range(1, 6):
        state = start_state(variant, deal(variant, number))
        assert isinstance(state, PackerState)
        probe = _Search(state, Budget(max_nodes=20_000, max_seconds=600.0), probe=True)
        probe.noise = PROBE_NOISE
        probe.rng = random.Random(number)
        try:
            pv = probe.start() or probe.steps(20_000)
        except OutOfBudget:
            continue
        if pv is not None and pv[0] == "solved":
            assert pv[2] == "found by a probe"
            moves = to_engine_moves(state, pv[1])
            assert checked_result(state, "solved", moves, 0, 0.0, 0).verdict == "solved"
            wins += 1
    assert wins > 0


PACKERS = [name for name in GAMES if isinstance(new_state(get_variant(name), 1), PackerState)]



def assert_finds_a_win(game: str, search: Callable[[PackerState, Clock, int, int], Line],
                       finder: str) -> None:
    """``search(state, clock, seed, stop)`` solves one of deals 4, 5 and 7 of ``game``
    within 60,000 positions, with a line (moves home included) that replays through the
    engine to a win, its reason naming the part that found it (``finder``); until it does,
    it stops near the positions it is given."""
    from thirteen.solver.packer import to_engine_moves
    from thirteen.solver.packer.tuning import PLAYOUT_MOVES

    for number in (4, 5, 7):
        state = new_state(get_variant(game), number)
        assert isinstance(state, PackerState)
        clock = Clock(Budget())
        found = search(state, clock, number, 60_000)
        if found is not None:
            assert found[0] == "solved" and found[2].startswith(finder)
            moves = to_engine_moves(state, found[1])
            assert checked_result(state, "solved", moves, 0, 0.0, 0).verdict == "solved"
            return
        assert clock.nodes < 60_000 + clock.every + PLAYOUT_MOVES * 64
    raise AssertionError(f"no win found on deals 4, 5 and 7 of {game}")


@pytest.mark.parametrize("game", PACKERS)
def test_beam_lines_replay_to_a_win_and_beams_stop_on_time(game: str) -> None:
    """A beam (`beam`) finds real wins, and stops at the number of positions it is given."""
    from thirteen.solver.packer import beam

    assert_finds_a_win(game, lambda state, clock, seed, stop: beam(
        state, Budget(), clock, 100, seed, stop), "found by a beam 100 wide")
    clock = Clock(Budget())
    assert beam(new_state(get_variant(game), 2), Budget(), clock, 1000, 1, 600) is None
    assert 600 <= clock.nodes < 600 + clock.every


def portfolio_at(number: int, budget: Budget, nodes: int) -> schedule._Schedule:
    """The portfolio's parts for Good Measure deal ``number``, as they are once ``nodes``
    positions are searched (so the parts that join late take their turns)."""
    state = new_state(get_variant("good-measure"), number)
    assert isinstance(state, PackerState)
    main = _Search(state, budget)
    assert main.start() is None
    parts = schedule._Schedule(main, state, main.clock.budget)  # its clock is the parts'
    parts.clock.nodes = nodes
    return parts


def test_a_beam_out_of_memory_ends_alone_and_the_next_are_narrower(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A beam's table is its own and goes with it: a beam that outgrows the memory ends
    without ending the search (so its memory never makes the portfolio give up the proof),
    and the beams after it are half as wide."""
    from thirteen.solver.common import OutOfMemory
    from thirteen.solver.packer.tuning import BEAM_AFTER, BEAM_FIRST

    widths: list[int] = []

    def beam(state: PackerState, budget: Budget, clock: Clock, width: int, seed: int,
             stop: int) -> None:
        widths.append(width)
        clock.nodes += 1
        if width > 2 * BEAM_FIRST:
            raise OutOfMemory("memory budget of 1 MB spent")

    monkeypatch.setattr(schedule, "beam", beam)
    parts = portfolio_at(3, Budget(), BEAM_AFTER)
    for _ in range(5):
        parts.share = 10**9
        assert parts._beam_turn() is None
    assert widths == [BEAM_FIRST, 2 * BEAM_FIRST, 4 * BEAM_FIRST, 2 * BEAM_FIRST, 2 * BEAM_FIRST]
    assert not parts.given_up


@pytest.mark.parametrize("game", PACKERS)
def test_nested_rollouts_find_wins_and_stop_when_told(game: str) -> None:
    """A nested rollout search (`nested`) finds real wins; on a hard deal it stops within a
    playout of the positions it is given (Good Measure 3: no win in the first thousand)."""
    from thirteen.solver.packer import nested
    from thirteen.solver.packer.tuning import PLAYOUT_MOVES

    assert_finds_a_win(game, lambda state, clock, seed, stop: nested(
        state, Budget(), clock, seed, stop), "found by a nested rollout")
    state = new_state(get_variant("good-measure"), 3)
    assert isinstance(state, PackerState)
    clock = Clock(Budget())
    assert nested(state, Budget(), clock, 1, 1000) is None
    assert 1000 <= clock.nodes < 1000 + PLAYOUT_MOVES * 64


def test_nested_search_of_level_2_runs_in_turns_and_its_line_wins() -> None:
    """The portfolio's nested search of level 2 (`_Schedule._deep_turn`) is one search that
    goes on from turn to turn, each paying what it owes (a turn that spent more than its
    share is paid back by the next), until its line wins (the line replays through the
    engine); one that a spent budget interrupts is dropped."""
    from thirteen.solver.common import OutOfBudget
    from thirteen.solver.packer import to_engine_moves
    from thirteen.solver.packer.tuning import DEEP_AFTER, DEEP_SHARE

    parts = portfolio_at(5, Budget(), DEEP_AFTER)
    state = parts.state
    searches, found = [], None
    share = 6000 * 16 // DEEP_SHARE  # a turn of about 6,000 positions, whatever the share
    while found is None and parts.clock.nodes < DEEP_AFTER + 2_000_000:
        parts.share = share
        found = parts._deep_turn()
        searches.append(parts.deep)
        assert found is not None or parts.deep_owed <= 0
        assert parts.share == share - share * DEEP_SHARE // 16  # the rest is the others'
    assert found is not None and found[0] == "solved"
    assert found[2] == "found by a nested search of level 2"
    assert checked_result(state, "solved", to_engine_moves(state, found[1]), 0, 0.0,
                          0).verdict == "solved"
    assert len(searches) > 3 and searches.count(searches[0]) > 2  # one search, many turns
    parts = portfolio_at(5, Budget(max_nodes=DEEP_AFTER + 300), DEEP_AFTER)
    parts.share = 10**9
    with pytest.raises(OutOfBudget):
        parts._deep_turn()
    assert parts.deep is None


def test_the_first_nested_search_of_level_2_reads_what_the_frontier_search_proved_lost(
        ) -> None:
    """The level-2 search joins no sooner than the frontier search, so even the first one
    stops at the positions that search proved lost: the first round at `DEEP_AFTER`
    positions starts the frontier search, and the level-2 search (begun in that round or the
    next turn) reads its set."""
    from thirteen.solver.packer.tuning import DEEP_AFTER

    parts = portfolio_at(3, Budget(), DEEP_AFTER)
    assert parts.round() is None
    parts.share = 16 * 1000
    assert parts._deep_turn() is None and parts.deep is not None
    assert parts.split is not None and parts.deep.search.lost is parts.split.lost


def test_nested_rollouts_never_enter_what_the_frontier_search_proved_lost() -> None:
    """The rollouts read the frontier search's lost positions (`Split.lost`): with every
    position one move from the start marked lost, a deal they win otherwise is not won, and
    they stop at once; with an unrelated hash marked, the same seed wins as before."""
    from thirteen.solver.packer import nested
    from thirteen.solver.packer.hashes import Hashes
    from thirteen.solver.packer.probes import _play

    state = new_state(get_variant("good-measure"), 4)
    assert isinstance(state, PackerState)
    s = _Search(state, Budget(), probe=True)
    assert s.start() is None
    moves = s.moves()
    first, unrelated = Hashes(), Hashes()
    for m in moves:
        mark = _play(s, m)
        first.add(hash(s.key()))
        s.take_back(mark)
    unrelated.add(12345)
    seed = next(n for n in range(1, 50)
                if nested(state, Budget(), Clock(Budget()), n, 60_000) is not None)
    again = nested(state, Budget(), Clock(Budget()), seed, 60_000, None, unrelated)
    assert again is not None and again[0] == "solved"
    clock = Clock(Budget())
    assert nested(state, Budget(), clock, seed, 60_000, None, first) is None
    assert clock.nodes == len(moves)  # each first move played, none followed by a playout


def assert_same_position(search: object, fresh: object) -> None:
    """Two `_Search`es hold the same position, with the same kept values."""

    assert isinstance(search, _Search) and isinstance(fresh, _Search)
    assert search.cols == fresh.cols
    assert search.hid == fresh.hid
    if search.bisley:  # the foundations each kind of game keeps
        assert (search.fa, search.fk) == (fresh.fa, fresh.fk)
    elif search.rank_found:
        assert search.home == fresh.home
    else:
        assert search.fh == fresh.fh
    assert search.key() == fresh.key()
    assert search._urgencies() == fresh._urgencies()  # kept stale bits, not recomputed
    if search.dead_check:  # the only reader of the places (suit foundations, unique codes)
        assert search.trapped == fresh.trapped
        for col in search.cols:
            for c in col:
                assert ((search.col_of[c], search.at[c], search.lowest[c])
                        == (fresh.col_of[c], fresh.at[c], fresh.lowest[c]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PACKERS), st.booleans(), st.integers(1, 32000), st.integers(0, 2**32),
       st.integers(1, 80))
def test_kept_keys_and_places_match_a_fresh_search(game: str, worry: bool, number: int,
                                                   seed: int, steps: int) -> None:
    """The search keeps its key (`where`) and the card places of its dead-end check up to date
    through `do` and `undo` instead of recomputing them: after random moves, and after taking
    them all back, they equal those of a search started afresh on the engine's position, and
    so do those of a search set to the position by `load`; the key does not depend on the
    order of the columns, and no two positions met share a key."""
    from thirteen.solver.packer import to_engine_moves, unpack

    variant = get_variant(game)
    if worry and variant.kings_down:
        return  # Bisley has no worrying back
    if worry:
        variant = variant.with_options(worry_back=True)
    state = new_state(variant, number)
    assert isinstance(state, PackerState)
    budget = Budget()
    search = _Search(state, budget)
    loaded = _Search(state, budget)
    root = search.key()
    rng = random.Random(seed)
    played = []
    seen: dict[bytes, object] = {}
    for _ in range(steps):
        moves = search.moves()
        if not moves:
            break
        m = rng.choice(moves)
        src, dst, n = unpack(m)
        if search.unique and not search.sequences and src >= 0 and dst >= 0:
            ahead = search.key_after(src, dst)
            played.append(search.do(m))
            assert ahead == search.key()
        else:
            played.append(search.do(m))
        (move,) = to_engine_moves(state, [unpack(m)])
        state = state.apply(move)
        fresh = _Search(state, budget)
        columns = sorted(zip(search.hid, search.cols, strict=True))
        assert seen.setdefault(search.key(), columns) == columns
        assert_same_position(search, fresh)
        loaded.load(search.snapshot())  # as `beam` moves between the positions of a layer
        assert_same_position(loaded, fresh)
    shuffled = dataclasses.replace(state, columns=tuple(reversed(state.columns)),
                                   hidden=tuple(reversed(state.hidden)))
    assert _Search(shuffled, budget).key() == search.key()
    for record in reversed(played):
        search.undo(record)
    assert search.key() == root


@pytest.mark.long
@pytest.mark.parametrize("game", ["bakers-dozen", "good-measure", "portuguese-solitaire",
                                  "castles-in-spain"])
def test_shortened_lines_still_win_and_are_shorter(game: str) -> None:
    """`solve(..., shorten=True)` keeps the verdict and returns a line that replays to a win
    (every solved line is replayed by `checked_result`; here once more) and is never longer
    than the search's own line, and shorter over a few deals."""
    variant = get_variant(game)
    plain_total = short_total = 0
    for number in range(1, 7):
        state = start_state(variant, deal(variant, number))
        plain, short = solve(state, QUICK), solve(state, QUICK, shorten=True)
        assert plain.verdict == short.verdict
        if short.verdict == "solved":
            assert replay(state, short).won
            assert len(short.moves) <= len(plain.moves)
            plain_total += len(plain.moves)
            short_total += len(short.moves)
    assert short_total < plain_total


def test_shortcut_cuts_a_detour() -> None:
    """A card moved away and straight back in front of a winning line costs nothing after
    `shortcut`: the line it returns is no longer than the winning line alone."""
    from thirteen.solver.packer import portfolio, shortcut, unpack

    def there_and_back(state: PackerState) -> list[tuple[int, int, int]]:
        """A move and the move that undoes it, if the position has one."""
        search = _Search(state, QUICK)
        start = search.exact()
        for m in search.moves():
            there = search.do(m)
            for back in search.moves():
                record = search.do(back)
                home = search.exact() == start
                search.undo(record)
                if home:
                    return [unpack(m), unpack(back)]
            search.undo(there)
        return []

    variant = get_variant("bakers-dozen")
    for number in range(1, 30):
        state = start_state(variant, deal(variant, number))
        assert isinstance(state, PackerState)
        detour = there_and_back(state)
        verdict, line, _ = portfolio(_Search(state, QUICK), state, QUICK)
        if detour and verdict == "solved":
            assert len(shortcut(state, detour + line)) <= len(line)
            return
    pytest.fail("no winnable deal of 1-29 has a move and its way back")
