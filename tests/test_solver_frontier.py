"""The frontier search (`Split`): against plain search through the engine on small positions
it proves only lost positions lost and keeps only lost positions; it finds a line from every
deal played backwards from a win, and lays out its frontier and widens its cap as documented.
Its set of hashes (`Hashes`) answers as a `set` does, within the memory it says."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from librt.vecs import append
from test_solver import QUICK, Line, unplay
from test_solver_rules import patch_packer, small_position

from thirteen.deal import format_board
from thirteen.game import new_state
from thirteen.packer import PackerState
from thirteen.solver import Budget
from thirteen.solver.clock import Clock
from thirteen.solver.common import checked_result
from thirteen.solver.packer import Split
from thirteen.variants import GAMES, get_variant


def run_split(state: PackerState, budget: Budget) -> tuple[Split, Line]:
    """The frontier search (`Split`) on ``state`` until it finds a line or proves every
    frontier position lost (then it has nothing left to search)."""
    split = Split(state, budget, Clock(budget))
    found: Line = None
    while found is None and not split.done():
        found = split.step()
    return split, found


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-(2**63), 2**63 - 1) | st.integers(-3, 3) | st.integers(0, 64),
                max_size=300))
def test_hashes_hold_what_a_set_holds(values: list[int]) -> None:
    """The frontier search's set of hashes answers as a `set` of them (0 and 1 made one,
    as documented), through its doublings."""
    from thirteen.solver.packer.hashes import Hashes

    h, plain = Hashes(), set()
    for v in values:
        h.add(v)
        plain.add(v or 1)
        assert len(h) == len(plain)
    for v in [*values, *range(-5, 70), 2**63 - 1, -(2**63)]:
        assert (v in h) == ((v or 1) in plain)


def test_hashes_hold_no_more_memory_than_they_say() -> None:
    """What `Hashes.held` says its slots may take before some more hashes go in bounds what
    they take, through doublings to 2**17 slots (tracemalloc sees the slots' memory)."""
    import tracemalloc

    from thirteen.solver.packer.hashes import Hashes

    rng = random.Random(5)
    batches = [[rng.getrandbits(64) - 2**63 for _ in range(1000)] for _ in range(90)]
    h = Hashes()
    tracemalloc.start()
    try:
        for batch in batches:
            slots = (h.mask + 1) * 8
            others = tracemalloc.get_traced_memory()[0] - slots
            most = h.held(len(batch))
            tracemalloc.reset_peak()
            for v in batch:
                h.add(v)
            assert tracemalloc.get_traced_memory()[1] - others <= most + 4096
    finally:
        tracemalloc.stop()
    assert h.mask + 1 == 2**17 and len(h) == 90_000


def test_the_frontier_search_proves_only_lost_positions_lost() -> None:
    """The frontier search (`Split`) against plain search through the engine, on small random
    positions of the games it runs in: its lines replay to a win, and when it has proved
    every frontier position lost (closed components of its depth-first searches, dead ends),
    the position is lost indeed. Both happen."""
    from thirteen.solver.packer import engine_search, to_engine_moves

    lines = proofs = 0
    for seed in range(150):
        rng = random.Random(seed)
        game = ("bakers-dozen", "good-measure")[seed % 2]
        state = small_position(get_variant(game), rng, rng.randint(4, 9), rng.randint(2, 5))
        split, found = run_split(state, QUICK)
        exact = engine_search(state, Budget(max_nodes=3_000, max_seconds=30.0))
        if found is not None:
            moves = to_engine_moves(state, found[1])
            assert checked_result(state, "solved", moves, 0, 0.0, 0).verdict == "solved"
            lines += 1
        else:
            assert exact.verdict == "unsolvable", format_board(state.to_layout())
            proofs += 1
    assert lines >= 20 and proofs >= 20


def test_the_frontier_search_keeps_only_lost_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every position whose hash the frontier search keeps as lost is lost: checked against
    the whole graph of positions reachable from small random positions (the moves the search
    plays, safe moves home after each), in which a position is winnable when it reaches a won
    one. With a frontier one move deep and caps of 5 positions the depth-first searches, not
    the breadth-first layout, do the work, and close components while others are open."""
    from thirteen.solver.packer import _Search

    patch_packer(monkeypatch, "SPLIT_FRONTIER", 1)
    patch_packer(monkeypatch, "SPLIT_FIRST_CAP", 5)
    checked = 0
    for seed in range(120):
        rng = random.Random(seed)
        game = ("bakers-dozen", "good-measure")[seed % 2]
        state = small_position(get_variant(game), rng, rng.randint(9, 14), rng.randint(3, 5))
        split, _ = run_split(state, QUICK)
        search = _Search(state, QUICK)
        if search.start() is not None:
            continue
        snaps = {search.key(): search.snapshot()}
        edges: dict[bytes, list[bytes]] = {}
        todo = [search.key()]
        won: set[bytes] = set()
        while todo:
            key = todo.pop()
            search.load(snaps[key])
            edges[key] = []
            for m in search.moves():
                search.trail = append(search.trail, search.do(m))
                search.auto()
                k = search.key()
                if search.won():
                    won.add(key)
                elif k not in snaps:
                    snaps[k] = search.snapshot()
                    todo.append(k)
                edges[key].append(k)
                search.take_back(0)
        winnable = set(won)
        grew = True
        while grew:
            grew = False
            for key, outs in edges.items():
                if key not in winnable and any(k in winnable for k in outs):
                    winnable.add(key)
                    grew = True
        for key in winnable:
            assert hash(key) not in split.lost, format_board(state.to_layout())
        checked += sum(hash(key) in split.lost for key in edges)
    assert checked >= 20


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["bakers-dozen", "good-measure"]), st.integers(0, 2**32),
       st.integers(5, 60))
def test_the_frontier_search_finds_a_line_from_every_backward_deal(game: str, seed: int,
                                                                   steps: int) -> None:
    """A deal played backwards from a win is winnable: the frontier search never proves all
    of it lost, and its line replays."""
    from thirteen.solver.packer import to_engine_moves

    state = unplay(GAMES[game], random.Random(seed), steps)
    assert isinstance(state, PackerState)
    _, found = run_split(state, Budget(max_nodes=200_000, max_seconds=60.0))
    assert found is not None, format_board(state.to_layout())
    assert found[2] == "found by the frontier search"
    moves = to_engine_moves(state, found[1])
    assert checked_result(state, "solved", moves, 0, 0.0, 0).verdict == "solved"


def test_the_frontier_search_lays_out_a_frontier_and_widens_its_cap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Good Measure 214 (winnable, but not within a few hundred positions of any position
    near its start), with a frontier of at least 50 positions and a first cap of 200: each
    round searches the positions the one before left open, those whose search proved the
    least of what it met lost first, with `SPLIT_GROWTH` times the cap."""
    from thirteen.solver import packer
    from thirteen.solver.packer.tuning import SPLIT_GROWTH

    patch_packer(monkeypatch, "SPLIT_FRONTIER", 50)
    patch_packer(monkeypatch, "SPLIT_FIRST_CAP", 200)
    state = new_state("good-measure", 214)
    assert isinstance(state, PackerState)
    clock = Clock(Budget())
    split = packer.Split(state, Budget(), clock)
    assert split.step() is None and len(split.frontier) >= 50
    assert len(split.alive) == len(split.frontier) == len(split.chains)
    for _ in range(len(split.alive)):
        assert split.step() is None
    left = sorted(split.open)
    assert 0 < len(left) < len(split.frontier)
    assert left[0][0] < left[-1][0]  # the shares proved lost differ
    split.step()
    assert split.cap == 200 * SPLIT_GROWTH
    assert split.alive == [i for _, i in left]
