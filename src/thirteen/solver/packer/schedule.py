"""The packer search's portfolio (`portfolio`): the exhaustive search in slices, interleaved
with probes, nested rollouts, beams, the frontier search and rule D4's relaxed games, each
joining after its number of positions with its share (`tuning`), against depth-first
search's heavy tail (docs/solver.md, *Search*).
"""

from __future__ import annotations

import random

from ...cards import KING, SUIT_NAMES
from ...packer import PackerState
from ..common import Budget, Verdict, table_bytes
from ..relaxed import QUESTION_LIMIT, Counted, Relaxed, fits
from .encoding import IMove
from .probes import beam, nested
from .search import _Search
from .split import Split
from .tuning import (
    BEAM_AFTER,
    BEAM_CAP,
    BEAM_COST,
    BEAM_FIRST,
    FIRST_SLICE,
    KEPT_AFTER,
    KEPT_MEMORY,
    LATE_AFTER,
    LATE_PROBES,
    NESTED_AFTER,
    NESTED_CAP,
    PROBE_NOISE,
    PROBE_UNIT,
    RELAXED_AFTER,
    RELAXED_SHARE,
    SPLIT_AFTER,
    SPLIT_SHARE,
    UNGUIDED_AFTER,
    WINDOWS,
)


def portfolio(main: _Search, state: PackerState,
              budget: Budget) -> tuple[Verdict, list[IMove], str]:
    """The exhaustive depth-first search, interleaved with randomised probes.

    Depth-first search has a heavy tail: one early wrong turn can cost millions of
    positions. So slices of the exhaustive search (the only one that may answer
    ``unsolvable``) alternate with as many positions of probes: restarts that order moves with
    random noise and keep their own, discarded, tables, each `PROBE_UNIT` times the next term
    of the Luby sequence long (many short tries, a few long ones). Slices grow by half each
    round. After `UNGUIDED_AFTER` positions every second probe ignores urgency (its order is
    the noise, moves home still first): the deals that outlast the guided probes mostly need
    a line the guided order ranks low, and noise around that order rarely reaches it. After
    `LATE_AFTER` positions every probe is unguided and the probes get `LATE_PROBES` times the
    slice: the Good Measure deals that take millions of positions are solved by short
    unguided probes, while only lost deals still need the exhaustive search. After
    `BEAM_AFTER` positions a quarter of the probes' time goes to beam searches (`beam`) of
    doubling widths instead: they solve some of those deals in far fewer positions than the
    probes take, and others not at all (docs/solver.md, *Beams*). Before both, after
    `NESTED_AFTER` positions, half the probes' share goes to nested rollout searches
    (`nested`), which solve most of the deals that outlast the probes (*Nested rollouts*).
    Where rule D3 applies, after `RELAXED_AFTER` positions every search drops moves into
    positions whose counted game of rule D4 is lost (`Counted`, one memo for all), and the
    relaxed game (`Relaxed`) is searched from the start too, `RELAXED_SHARE` times the slice
    a round: if it cannot be won the deal is lost, which it shows in far fewer positions than
    the exhaustive search (*D4*). Once it is won, after `KEPT_AFTER` positions, the finer
    relaxed games that keep one suit each take turns in the exhaustive search's place, with
    its slice, until none is left: each suit within the narrowest of `WINDOWS`, then the suits
    won there within the next.
    While the counted game of the start is still undecided after `LATE_AFTER` positions,
    the probes' share goes to it instead (*D4*). After `SPLIT_AFTER` positions, where rule
    D4 applies, the frontier search (`Split`) gets `SPLIT_SHARE` halves of each slice on top:
    it searches every beginning in turn and never enters one proved lost again, which
    restarts from the start do (*The frontier search*).
    """
    clock = main.clock
    verdict = main.start()
    if verdict is not None:
        return verdict
    # Rule D4 where D3 applies, after `RELAXED_AFTER` positions (the deals decided sooner
    # do without it): the counted game, asked by every search after each move that changes
    # it, and the relaxed game (`Relaxed`), searched from the start, `RELAXED_SHARE` times
    # the main search's slice a round.
    counted = Counted(state, clock) if main.stuck_on and fits(state) else None
    relaxed = Relaxed(counted) if counted is not None else None
    kept: list[Relaxed] = []  # the relaxed games with a suit kept, in turn
    later: list[Relaxed] = []  # the next window's games of the suits won with this one
    max_bytes = clock.max_bytes
    limit = FIRST_SLICE
    seed = 0
    beams_run = 0
    credit = 0  # beam positions owed (> 0) or spent ahead (< 0)
    runs = 0
    owed = 0  # the same for nested rollouts
    split: Split | None = None
    split_owed = 0  # the same for the frontier search
    while True:
        held = split.held() if split is not None else 0  # the frontier search's tables
        # the main search counts its own tables, not rule D4's
        clock.extra_bytes = _d4_bytes(counted, relaxed, kept) + held
        # While games with a suit kept are left, they take the exhaustive search's turn
        kept_turn = bool(kept) and clock.nodes >= KEPT_AFTER
        if not kept_turn:
            verdict = main.steps(limit)
            if verdict is not None:
                return verdict
        spent = 0
        # the main search's tables, held while the others run
        main_bytes = table_bytes(main.tt, main.key_size, 0) + main.stuck_bytes + held
        clock.extra_bytes = main_bytes
        if counted is not None and main.counted is None and clock.nodes >= RELAXED_AFTER:
            if counted.ask(counted.start, QUESTION_LIMIT) == 0:
                return "unsolvable", [], "dead end (rule D4) at the start"
            main.counted = counted
        # A won counted game is found in a few positions, a lost one only once its every
        # position is searched: one still undecided at the start this late is most likely
        # lost, and the probes' share goes to proving it.
        rooting = relaxed is not None and not relaxed.rooted and clock.nodes >= LATE_AFTER
        if relaxed is not None and main.counted is not None:
            rv = relaxed.steps(limit * (RELAXED_SHARE + (LATE_PROBES if rooting else 0)))
            if rv == "lost":
                return "unsolvable", [], "dead end (rule D4): the relaxed game is lost"
            if rv == "won":
                kept = [Relaxed(relaxed.counted, suit, WINDOWS[0]) for suit in range(4)]
                relaxed = None  # it proves nothing: its memory goes back to the others
        if kept_turn:
            # each in turn (counting its own table and the counted memo, and the others'
            # tables here); one that outgrows its part of the memory is dropped
            allowed = int(max_bytes * KEPT_MEMORY) // len(kept) if max_bytes is not None else None
            for game in list(kept):
                clock.extra_bytes = main_bytes + sum(g.table() for g in kept if g is not game)
                kv = game.steps(limit // len(kept))
                if kv == "lost":
                    within = (f" within {game.window} ranks of their pile"
                              if game.window < KING else "")
                    return "unsolvable", [], (f"dead end (rule D4): the relaxed game with "
                                              f"{SUIT_NAMES[game.kept]} kept{within} is lost")
                if kv == "won" and game.window < WINDOWS[-1]:
                    wider = WINDOWS[WINDOWS.index(game.window) + 1]
                    later.append(Relaxed(game.counted, game.kept, wider))
                if kv == "won" or allowed is not None and game.table() > allowed:
                    kept.remove(game)
            if not kept:  # every game of this window is decided: the won ones go on wider
                kept, later = later, []
        clock.extra_bytes = main_bytes + _d4_bytes(counted, relaxed, kept)
        late = clock.nodes >= LATE_AFTER
        share = 0 if rooting else limit * LATE_PROBES if late else limit
        if split is None and counted is not None and clock.nodes >= SPLIT_AFTER:
            split = Split(state, budget, clock)
        if split is not None and not split.done():
            split_owed += limit * SPLIT_SHARE // 2
            # it counts its own tables (`Split.held`), the others' are `extra_bytes`
            clock.extra_bytes = main_bytes - held + _d4_bytes(counted, relaxed, kept)
            while split_owed > 0 and not split.done():
                before = clock.nodes
                sv = split.step()
                split_owed -= clock.nodes - before
                if sv is not None:
                    return sv
            main_bytes += split.held() - held  # its tables as they are now, while others run
            clock.extra_bytes = main_bytes + _d4_bytes(counted, relaxed, kept)
        if clock.nodes >= NESTED_AFTER:
            part = share // 2
            share -= part
            owed += part
            while owed > 0:
                runs += 1
                before = clock.nodes
                nv = nested(state, budget, clock, runs, before + NESTED_CAP, main.counted)
                owed -= clock.nodes - before
                if nv is not None:
                    return nv
        if clock.nodes >= BEAM_AFTER:
            part = share // 4
            share -= part
            credit += part // BEAM_COST
            if credit > 0:  # the next beam, twice as wide as the last
                width = BEAM_FIRST << beams_run
                beams_run += 1
                before = clock.nodes
                bv = beam(state, budget, clock, width, beams_run, before + width * BEAM_CAP)
                credit -= clock.nodes - before
                if bv is not None:
                    return bv
        while spent < share:
            seed += 1
            size = min(share - spent, PROBE_UNIT * luby(seed))
            spent += size
            probe = _Search(state, budget, probe=True)
            probe.clock = clock
            probe.counted = main.counted
            probe.noise = PROBE_NOISE
            if late or (seed % 2 == 0 and clock.nodes >= UNGUIDED_AFTER):
                probe.weight = 0
            probe.rng = random.Random(seed)
            pv = probe.start()
            if pv is None:
                pv = probe.steps(size)
            if pv is not None and pv[0] == "solved":
                return pv
        limit = int(limit * 1.5)



def _d4_bytes(counted: Counted | None, relaxed: Relaxed | None, kept: list[Relaxed]) -> int:
    """The memory rule D4's games hold: the counted memo, the relaxed search's table while it
    runs, and the tables of the games with a suit kept."""
    own = relaxed.held() if relaxed is not None else counted.held() if counted is not None else 0
    return own + sum(game.table() for game in kept)



def luby(i: int) -> int:
    """Term ``i`` (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...: restart
    lengths within a logarithmic factor of the best restart strategy for any run-time
    distribution, unknown in advance (Luby, Sinclair and Zuckerman 1993)."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1

