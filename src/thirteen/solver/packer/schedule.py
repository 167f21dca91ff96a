"""The packer search's portfolio (`portfolio`): the exhaustive search in slices, interleaved
with probes, nested rollouts, beams, the frontier search and rule D4's relaxed games, each
joining after its number of positions with its share (`tuning`), against depth-first
search's heavy tail (docs/solver.md, *Portfolio*).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Final

from ...cards import KING, SUIT_NAMES
from ...packer import PackerState
from ..common import Budget, OutOfBudget, OutOfMemory, Verdict, table_bytes
from ..relaxed import QUESTION_LIMIT, Counted, Relaxed, fits
from .encoding import IMove
from .hashes import Hashes
from .probes import Rollouts, beam, nested
from .search import _Search
from .split import Split
from .tuning import (
    BEAM_AFTER,
    BEAM_CAP,
    BEAM_COST,
    BEAM_FIRST,
    DEEP_AFTER,
    DEEP_SHARE,
    FIRST_SLICE,
    KEPT_AFTER,
    KEPT_MEMORY,
    KEPT_SUITS,
    LATE_AFTER,
    LATE_PROBES,
    NESTED_AFTER,
    NESTED_CAP,
    NESTED_SHARE,
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
    `NESTED_AFTER` positions `NESTED_SHARE` sixteenths of that share go to nested rollout
    searches (`nested`) instead, which solve the deals that outlast the first probes in less
    time than the probes do (docs/solver.md, *Nested rollouts*). After `LATE_AFTER`
    positions every probe is unguided and the share is `LATE_PROBES` times the slice: the
    deals that take millions of positions are solved by rollouts and probes, while only lost
    deals still need the exhaustive search. After `BEAM_AFTER` positions a quarter of what
    the rollouts leave goes to beam searches (`beam`) of doubling widths: they solve some of
    those deals in far fewer positions than the others take, and others not at all
    (*Beams*).
    Where rule D3 applies, after `RELAXED_AFTER` positions every search drops moves into
    positions whose counted game of rule D4 is lost (`Counted`, one memo for all), and the
    relaxed game (`Relaxed`) is searched from the start too, `RELAXED_SHARE` times the slice
    a round: if it cannot be won the deal is lost, which it shows in far fewer positions than
    the exhaustive search (*D4*). Once it is won, after `KEPT_AFTER` positions, the finer
    relaxed games that keep one suit each take turns in the exhaustive search's place, with
    its slice, until none is left: each suit within the narrowest of `WINDOWS`, then the suits
    won there within the next; then each pair of suits in the same way (`KEPT_SUITS`).
    While the counted game of the start is still undecided after `LATE_AFTER` positions,
    the probes' share goes to it instead (*D4*). After `SPLIT_AFTER` positions, where rule
    D4 applies, the frontier search (`Split`) gets `SPLIT_SHARE` halves of each slice on top:
    it searches every beginning in turn and never enters one proved lost again, which
    restarts from the start do (*The frontier search*).
    Once the memory budget is spent, the proof is given up (`_Schedule.give_up_proof`) and
    what is left of the budget goes to finding a line (*Out of memory*).
    """
    verdict = main.start()
    if verdict is not None:
        return verdict
    schedule = _Schedule(main, state, budget)
    while True:
        try:
            verdict = schedule.round()
        except OutOfBudget as e:
            if schedule.given_up:
                if isinstance(e, OutOfMemory) and schedule.forget_memo():
                    continue
                raise OutOfBudget(f"{schedule.given_up}; then, looking only for a line, "
                                  f"{e}") from e
            if not isinstance(e, OutOfMemory):
                raise
            schedule.give_up_proof(str(e))
            continue
        if verdict is not None:
            return verdict
        schedule.limit = int(schedule.limit * 1.5)


class _Schedule:
    """The portfolio's parts and what they are owed, from round to round (`portfolio`)."""

    def __init__(self, main: _Search, state: PackerState, budget: Budget) -> None:
        self.main = main
        self.state = state
        self.budget = budget
        self.clock = main.clock
        # Rule D4 where D3 applies, after `RELAXED_AFTER` positions (the deals decided sooner
        # do without it): the counted game, asked by every search after each move that
        # changes it, and the relaxed game (`Relaxed`), searched from the start,
        # `RELAXED_SHARE` times the main search's slice a round.
        self.counted = Counted(state, self.clock) if main.stuck_on and fits(state) else None
        self.clock.shared = self.counted  # every search grows its memo: the clock counts it
        self.relaxed = Relaxed(self.counted) if self.counted is not None else None
        self.kept: list[Relaxed] = []  # the relaxed games with a suit kept, in turn
        self.suits_kept = 1  # how many suits those games keep
        self.later: list[Relaxed] = []  # the next window's games of the suits won with this one
        self.limit = FIRST_SLICE  # the exhaustive search's slice this round
        self.share = 0  # the positions left this round for nested rollouts, beams and probes
        self.rooting = False  # this round, the probes' share goes to the relaxed game instead
        self.seed = 0
        self.beams_run = 0
        self.widest = 1 << 62  # the width of a beam that fits in memory beside the others
        self.credit = 0  # beam positions owed (> 0) or spent ahead (< 0)
        self.runs = 0
        self.owed = 0  # the same for nested rollouts
        self.deep: Rollouts | None = None  # the nested search of level 2 under way
        self.deep_runs = 0
        self.deep_owed = 0  # the same for it
        self.split: Split | None = None
        self.split_owed = 0  # the same for the frontier search
        self.main_bytes = 0  # the main search's tables (and the frontier search's), held
        self.given_up = ""  # why the proof was given up, once it is (`give_up_proof`)

    def round(self) -> tuple[Verdict, list[IMove], str] | None:
        """One round: each part its turn; an answer, or None."""
        if self.given_up:
            return self._find_only()
        main, clock = self.main, self.clock
        held = self.split.held() if self.split is not None else 0  # the frontier search's
        # the main search counts its own tables, not rule D4's
        clock.extra_bytes = self._d4_bytes() + held
        # While games with a suit kept are left, they take the exhaustive search's turn
        kept_turn = bool(self.kept) and clock.nodes >= KEPT_AFTER
        if not kept_turn:
            verdict = main.steps(self.limit)
            if verdict is not None:
                return verdict
        # the main search's tables, held while the others run
        self.main_bytes = table_bytes(main.tt, main.key_size, 0) + main.stuck_bytes + held
        clock.extra_bytes = self.main_bytes
        verdict = self._relaxed_turn() or (self._kept_turn() if kept_turn else None)
        if verdict is not None:
            return verdict
        clock.extra_bytes = self.main_bytes + self._d4_bytes()
        late = clock.nodes >= LATE_AFTER
        self.share = 0 if self.rooting else self.limit * LATE_PROBES if late else self.limit
        if self.split is None and self.counted is not None and clock.nodes >= SPLIT_AFTER:
            self.split = Split(self.state, self.budget, clock)
        return self._split_turn(held) or self._finders(late)

    def give_up_proof(self, why: str) -> None:
        """The memory budget is spent: drop every table that only serves a proof that the deal
        is lost (the exhaustive search's, rule D3's, the relaxed games') and the frontier
        search (its set of what it proved lost grows without end), and empty rule D4's memo,
        so that a deal which cannot be proved lost within the memory may still be won by the
        parts that find lines, each keeping only its own small table."""
        main = self.main
        main.dropped = len(main.tt)
        main.tt = set()
        main.stuck_seen = {}
        main.stuck_bytes = 0
        self.relaxed, self.kept, self.later, self.split = None, [], [], None
        self.deep = None  # it reads the frontier search's lost positions
        if self.counted is not None:
            self.counted.forget()
        self.main_bytes = 0
        self.given_up = f"{why} with {main.dropped:,} positions in the exhaustive search's table"

    def forget_memo(self) -> bool:
        """Once the proof is given up, rule D4's memo is only a cache of the line finders'
        questions: emptied when it holds a quarter of the memory or more (True), so that its
        growth never ends the search; a smaller one cannot be what spent the memory."""
        counted, max_bytes = self.counted, self.clock.max_bytes
        if counted is None or max_bytes is None or counted.held() * 4 < max_bytes:
            return False
        counted.forget()
        return True

    def _find_only(self) -> tuple[Verdict, list[IMove], str] | None:
        """A round once the proof is given up: the parts that find lines, with the exhaustive
        search's slice on top of their share."""
        self.clock.extra_bytes = self._d4_bytes()
        late = self.clock.nodes >= LATE_AFTER
        self.share = self.limit * ((LATE_PROBES if late else 1) + 1)
        return self._finders(late)

    def _finders(self, late: bool) -> tuple[Verdict, list[IMove], str] | None:
        """The parts that only find lines, in turn, on this round's share."""
        return (self._deep_turn() or self._nested_turn() or self._beam_turn()
                or self._probes(late))

    def _deep_turn(self) -> tuple[Verdict, list[IMove], str] | None:
        """The nested search of level 2, `DEEP_SHARE` sixteenths of the share, in turns: one
        search takes tens of millions of positions on the hardest deals. It searches on from
        where its last turn stopped; one that ends unwon is followed by the next seed's. One
        that a spent budget interrupts is dropped, since it is left mid-move."""
        clock = self.clock
        self.deep_owed += self._part(DEEP_AFTER, DEEP_SHARE, 16)
        while self.deep_owed > 0:
            deep = self.deep
            if deep is None or deep.ended:
                self.deep_runs += 1
                deep = self.deep = Rollouts(
                    self.state, self.budget, clock, DEEP_SEEDS + self.deep_runs, 2,
                    self.main.counted, self._lost())
            before = clock.nodes
            try:
                found = deep.step(1 << 62)
            except OutOfBudget:
                self.deep = None
                raise
            self.deep_owed -= clock.nodes - before
            if found is not None:
                return found
        return None

    def _relaxed_turn(self) -> tuple[Verdict, list[IMove], str] | None:
        """Rule D4: the counted game's start asked once, then the relaxed game's turn."""
        main, counted = self.main, self.counted
        if counted is not None and main.counted is None and self.clock.nodes >= RELAXED_AFTER:
            if counted.ask(counted.start, QUESTION_LIMIT) == 0:
                return "unsolvable", [], "dead end (rule D4) at the start"
            main.counted = counted
        relaxed = self.relaxed
        # A won counted game is found in a few positions, a lost one only once its every
        # position is searched: one still undecided at the start this late is most likely
        # lost, and the probes' share goes to proving it.
        self.rooting = (relaxed is not None and not relaxed.rooted
                        and self.clock.nodes >= LATE_AFTER)
        if relaxed is not None and main.counted is not None:
            rv = relaxed.steps(self.limit * (RELAXED_SHARE + (LATE_PROBES if self.rooting else 0)))
            if rv == "lost":
                return "unsolvable", [], f"dead end (rule D4): {describe(relaxed)} is lost"
            if rv == "won":
                self.kept = first_kept(relaxed.counted)
                self.relaxed = None  # it proves nothing: its memory goes back to the others
        return None

    def _kept_turn(self) -> tuple[Verdict, list[IMove], str] | None:
        """The relaxed games with a suit kept, each in turn (counting its own table and the
        counted memo, and the others' tables here); one that outgrows its part of the memory
        is dropped."""
        kept = self.kept
        max_bytes = self.clock.max_bytes
        allowed = int(max_bytes * KEPT_MEMORY) // len(kept) if max_bytes is not None else None
        for game in list(kept):
            self.clock.extra_bytes = self.main_bytes + sum(g.table() for g in kept
                                                           if g is not game)
            kv = game.steps(self.limit // len(kept))
            if kv == "lost":
                return "unsolvable", [], f"dead end (rule D4): {describe(game)} is lost"
            next_game = wider(game) if kv == "won" else None
            if next_game is not None:
                self.later.append(next_game)
            if kv == "won" or allowed is not None and game.table() > allowed:
                kept.remove(game)
        if not kept:  # every game of this window is decided: the won ones go on wider,
            self.kept, self.later = self.later, []  # and after the widest, one suit more
            if not self.kept and self.counted is not None and self.suits_kept < KEPT_SUITS:
                self.suits_kept += 1
                self.kept = first_kept(self.counted, self.suits_kept)
        return None

    def _split_turn(self, held: int) -> tuple[Verdict, list[IMove], str] | None:
        """The frontier search's turn, `SPLIT_SHARE` halves of the slice on top."""
        split, clock = self.split, self.clock
        if split is None or split.done():
            return None
        self.split_owed += self.limit * SPLIT_SHARE // 2
        # it counts its own tables (`Split.held`), the others' are `extra_bytes`
        clock.extra_bytes = self.main_bytes - held + self._d4_bytes()
        while self.split_owed > 0 and not split.done():
            before = clock.nodes
            sv = split.step()
            self.split_owed -= clock.nodes - before
            if sv is not None:
                return sv
        self.main_bytes += split.held() - held  # its tables as they are now, while others run
        clock.extra_bytes = self.main_bytes + self._d4_bytes()
        return None

    def _nested_turn(self) -> tuple[Verdict, list[IMove], str] | None:
        """Nested rollouts, `NESTED_SHARE` sixteenths of the probes' share."""
        clock = self.clock
        self.owed += self._part(NESTED_AFTER, NESTED_SHARE, 16)
        while self.owed > 0:
            self.runs += 1
            before = clock.nodes
            nv = nested(self.state, self.budget, clock, self.runs, before + NESTED_CAP,
                        self.main.counted, self._lost())
            self.owed -= clock.nodes - before
            if nv is not None:
                return nv
        return None

    def _beam_turn(self) -> tuple[Verdict, list[IMove], str] | None:
        """The next beam, twice as wide as the last, a quarter of what the probes have left.
        A beam that outgrows the memory ends alone (its table goes with it) and the next are
        half as wide: a finder's memory never makes the portfolio give up the proof."""
        clock = self.clock
        self.credit += self._part(BEAM_AFTER, 1, 4) // BEAM_COST
        if self.credit > 0:
            width = min(BEAM_FIRST << self.beams_run, self.widest)
            self.beams_run += 1
            before = clock.nodes
            try:
                bv = beam(self.state, self.budget, clock, width, self.beams_run,
                          before + width * BEAM_CAP)
            except OutOfMemory:  # its own table, which goes with it: the next are narrower
                self.widest = max(BEAM_FIRST, width // 2)
                bv = None
            self.credit -= clock.nodes - before
            if bv is not None:
                return bv
        return None

    def _lost(self) -> Hashes | None:
        """The positions the frontier search proved lost, for a line finder to stop at. The
        level-2 search joins no sooner than the frontier search (`DEEP_AFTER` is not below
        `SPLIT_AFTER`), so each one it begins reads them."""
        return self.split.lost if self.split is not None else None

    def _part(self, after: int, numerator: int, denominator: int) -> int:
        """What a part that joins after ``after`` positions takes of the share left this
        round: ``numerator / denominator`` of it, or nothing before it joins (its debt stays
        nothing until then, so it runs only once it has joined)."""
        if self.clock.nodes < after:
            return 0
        part = self.share * numerator // denominator
        self.share -= part
        return part

    def _probes(self, late: bool) -> tuple[Verdict, list[IMove], str] | None:
        """The probes, the rest of the share: each `PROBE_UNIT` times the next term of Luby's
        sequence long, unguided when ``late`` and every second one after `UNGUIDED_AFTER`."""
        spent = 0
        while spent < self.share:
            self.seed += 1
            size = min(self.share - spent, PROBE_UNIT * luby(self.seed))
            spent += size
            probe = _Search(self.state, self.budget, probe=True)
            probe.clock = self.clock
            probe.counted = self.main.counted
            probe.noise = PROBE_NOISE
            if late or (self.seed % 2 == 0 and self.clock.nodes >= UNGUIDED_AFTER):
                probe.weight = 0
            probe.rng = random.Random(self.seed)
            pv = probe.start()
            if pv is None:
                pv = probe.steps(size)
            if pv is not None and pv[0] == "solved":
                return pv
        return None

    def _d4_bytes(self) -> int:
        """The memory rule D4's games hold besides the counted memo (which the clock counts):
        the relaxed search's table while it runs, and the tables of the games with a suit
        kept."""
        own = self.relaxed.table() if self.relaxed is not None else 0
        return own + sum(game.table() for game in self.kept)


DEEP_SEEDS: Final = 1 << 32  # the level-2 searches' seeds, apart from the level-1 searches'


def first_kept(counted: Counted, suits: int = 1) -> list[Relaxed]:
    """The relaxed games with ``suits`` suits kept that rule D4 plays first, once the relaxed
    game (or every game with one suit fewer kept) is decided: each set of that many suits
    within the narrowest of `WINDOWS`."""
    return [Relaxed(counted, kept, WINDOWS[0]) for kept in combinations(range(4), suits)]


def wider(game: Relaxed) -> Relaxed | None:
    """What follows ``game`` once it is won: the same suits kept within the next of `WINDOWS`;
    None after the widest (and after the relaxed game, which keeps no suit)."""
    if not game.kept or game.window >= WINDOWS[-1]:
        return None
    return Relaxed(game.counted, game.kept, WINDOWS[WINDOWS.index(game.window) + 1])


def describe(game: Relaxed) -> str:
    """``game`` in words, as a verdict's reason names it."""
    if not game.kept:
        return "the relaxed game"
    within = f" within {game.window} ranks of their pile" if game.window < KING else ""
    suits = " and ".join(SUIT_NAMES[suit] for suit in game.kept)
    return f"the relaxed game with {suits} kept{within}"


def luby(i: int) -> int:
    """Term ``i`` (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...: restart
    lengths within a logarithmic factor of the best restart strategy for any run-time
    distribution, unknown in advance (Luby, Sinclair and Zuckerman 1993)."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1

