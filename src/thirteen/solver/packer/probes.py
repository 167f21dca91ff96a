"""The packer search's lines found by other orders than depth-first: a beam search of the best
positions by `Position.value` (`beam`, docs/solver.md, *Beams*) and nested rollouts
(`nested`, *Nested rollouts*); and `replay`, a line found as a chain of moves made whole. They
only ever find lines; the portfolio (`schedule`) gives them their share.
"""

from __future__ import annotations

import random
from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i64

from ...packer import PackerState
from ..clock import Clock
from ..common import Budget, Verdict, table_bytes
from ..relaxed import Counted
from .encoding import MOVE_BITS, MOVE_MASK, IMove, Snapshot, unpack
from .hashes import Hashes
from .search import _Search
from .tuning import BEAM_NOISE, BEAM_POSITION_BYTES, PLAYOUT_MOVES, PROBE_NOISE, WIN

NESTED_FOUND: Final = "found by a nested rollout"  # `Result.reason` of its lines


def beam(state: PackerState, budget: Budget, clock: Clock, width: int, seed: int,
         stop: int) -> tuple[Verdict, list[IMove], str] | None:
    """A beam search from ``state``: each layer keeps the ``width`` new positions of best
    `Position.value` (ties broken at random by ``seed``) among all moves from the layer
    before; a dead end (rule D1) is not kept. A solution, or None when the beam dies out
    or has searched ``stop`` positions (counted on ``clock``, checked every ``clock.every``).
    """
    s = _Search(state, budget, probe=True)
    s.clock = clock
    s.weight = 0  # `value` orders the positions, not `moves`
    pv = s.start()
    if pv is not None:
        return pv if pv[0] == "solved" else None  # a dead root is the main search's to say
    rng = random.Random(seed)
    seen: set[bytes] = {s.key()}
    snaps = [s.snapshot()]
    # per layer, per position: the index of its parent in the layer before << MOVE_BITS | the
    # move from it (the safe moves home after it follow, as `auto` plays them again)
    layers: list[vec[i64]] = []
    every: i64 = clock.every
    due: i64 = clock.due
    while snaps:
        found: list[int] = []  # -value (noised) << 40 | parent << MOVE_BITS | move
        for idx in range(len(snaps)):
            s.load(snaps[idx])
            for m in s.moves():
                s.trail = append(s.trail, s.do(m))
                s.auto()
                if s.won():
                    return ("solved", replay(state, budget, _chain(layers, idx, m)),
                            f"found by a beam {width} wide")
                k = s.key()
                if k not in seen:
                    seen.add(k)
                    clock.nodes += 1
                    if clock.nodes >= due:
                        clock.check(table_bytes(seen, s.key_size, every)
                                    + width * (2 * BEAM_POSITION_BYTES + 8 * len(layers)))
                        due = clock.due
                        if clock.nodes >= stop:
                            return None
                    if not (s.dead_check and s.dead()):
                        score = -16 * s.value() - rng.randrange(BEAM_NOISE)
                        found.append(score << 40 | idx << MOVE_BITS | m & MOVE_MASK)
                s.take_back(0)
        found.sort()
        row = vec[i64](sorted([f & (1 << 40) - 1 for f in found[:width]]))  # parents in order
        layers.append(row)
        snaps = _layer(s, snaps, row)
    return None


def _chain(layers: list[vec[i64]], idx: int, m: i64) -> list[int]:
    """The moves from the root of a beam to move ``m`` of position ``idx`` of its last layer,
    read back through each layer's parents (`beam`)."""
    chain = [m & MOVE_MASK]
    j = idx
    for row in reversed(layers):
        chain.append(row[j] & MOVE_MASK)
        j = row[j] >> MOVE_BITS
    return chain[::-1]


def _layer(s: _Search, snaps: list[Snapshot], row: vec[i64]) -> list[Snapshot]:
    """The positions of a beam's next layer: each of ``row``'s moves (parent << MOVE_BITS |
    move, parents in order) played from its parent in ``snaps``, with the safe moves home
    after it. Kept as snapshots: the next layer goes from one to the next without a path of
    moves between them."""
    kept: list[Snapshot] = []
    last = -1
    for f in row:
        if f >> MOVE_BITS != last:
            last = f >> MOVE_BITS
            s.load(snaps[last])
        s.trail = append(s.trail, s.do(f & MOVE_MASK))
        s.auto()
        kept.append(s.snapshot())
        s.take_back(0)
    return kept


def nested(state: PackerState, budget: Budget, clock: Clock, seed: int, stop: int,
           counted: Counted | None = None, lost: Hashes | None = None,
           level: int = 1) -> tuple[Verdict, list[IMove], str] | None:
    """A whole nested rollout search of ``level`` from ``state`` (`Rollouts`): a solution, or
    None when no move is left or ``stop`` positions are counted on ``clock`` (checked before
    each playout)."""
    search = Rollouts(state, budget, clock, seed, level, counted, lost)
    try:
        while not search.ended:
            found = search.step(stop)
            if found is not None:
                return found
    except Stopped:
        return None
    return search.found


class Stopped(Exception):
    """A nested search has counted the positions it was given; it is left mid-line."""


class Rollouts:
    """A nested rollout search (Cazenave's nested Monte Carlo search) from ``state``: in each
    position every move is tried with a search of the level below after it (level 0: a
    `_playout`), the move that starts the best line found so far is played, and so on.
    Depth-first probes back up from a wrong turn only near its end; here each move is chosen
    by where random lines after it lead (docs/solver.md, *Nested rollouts*). It runs a move's
    trial at a time (`step`), so that the portfolio can give a long search of level 2 turns.
    The Calculation solver's `_Rollouts` is the same method on its own positions, with a
    fixed level-0 policy and no ``path`` of keys: Calculation's moves never lead back to a
    position already seen. With ``counted`` (rule D4) no move is tried into a lost position
    of the counted game, and with ``lost`` (`Split.lost`) none into a position the frontier
    search proved lost."""

    def __init__(self, state: PackerState, budget: Budget, clock: Clock, seed: int,
                 level: int, counted: Counted | None = None,
                 lost: Hashes | None = None) -> None:
        s = _Search(state, budget, probe=True)
        s.clock = clock
        s.counted = counted
        if lost is not None:
            s.lost = lost
        s.weight = 0  # the playouts' order is the noise, moves home first
        s.noise = PROBE_NOISE
        s.rng = random.Random(seed)
        self.state, self.budget, self.search = state, budget, s
        # which level found a line, for the survey's rows: what each level is worth there
        self.reason = NESTED_FOUND if level == 1 else f"found by a nested search of level {level}"
        pv = s.start()
        # a won start is its line; a dead root is the main search's to say
        self.found = pv if pv is not None and pv[0] == "solved" else None
        self.ended = pv is not None
        self.top = _Level(s, level, {s.key()})

    def step(self, stop: int) -> tuple[Verdict, list[IMove], str] | None:
        """The next move's trial (`_Level.step`): a solution once one is found; `ended` once
        the search is over."""
        top = self.top
        self.ended = top.step(stop)
        if top.score != WIN:
            return None
        self.found = "solved", replay(self.state, self.budget, top.line), self.reason
        return self.found


class _Level:
    """A nested search of ``level`` under way from the position ``s`` held when it began,
    never into a position of ``path`` (the lines played above it and by it)."""

    def __init__(self, s: _Search, level: int, path: set[bytes]) -> None:
        self.s, self.level, self.path = s, level, path
        self.mark = len(s.trail)
        self.line: list[int] = []  # the moves it played; once it ends, its best line
        self.keys: list[bytes] = []  # their positions, in ``path``
        self.best: list[int] = []  # the best line found from the current position
        self.score: i64 = -WIN  # its score: the `value` of its last position, `WIN` if won
        self.todo = s.moves()
        self.tried = 0

    def step(self, stop: int) -> bool:
        """Try the next move with a search of the level below after it or, once every move
        is tried, play the first move of the best line. True once the search has ended
        (won, or no move left), the position as it was when it began; `Stopped` once
        ``stop`` positions are counted."""
        s = self.s
        if self.tried == len(self.todo):
            if not self.best:
                if self.score == -WIN:  # no move from here at all
                    self.score = s.value()
                return self._end(self.line)
            m = self.best.pop(0)
            self.line.append(m)
            _play(s, m)
            self.keys.append(s.key())
            self.path.add(self.keys[-1])
            self.todo = s.moves()
            self.tried = 0
            return False
        if s.clock.nodes >= stop:
            raise Stopped
        m = self.todo[self.tried]
        self.tried += 1
        mark = _play(s, m)
        k = s.key()
        if k in self.path or s.closed(m, mark, k):
            s.take_back(mark)
            return False
        if s.won():
            self.score = WIN
            return self._end(self.line + [m & MOVE_MASK])
        self.path.add(k)
        score, tail = _below(s, self.level - 1, self.path, stop)
        self.path.discard(k)
        s.take_back(mark)
        if score == WIN:
            self.score = WIN
            return self._end(self.line + [m & MOVE_MASK] + tail)
        if score > self.score:
            self.score = score
            self.best = [m & MOVE_MASK] + tail
        return False

    def _end(self, line: list[int]) -> bool:
        """Take the moves played back and their positions out of ``path``; keep ``line``."""
        self.s.take_back(self.mark)
        for k in self.keys:
            self.path.discard(k)
        self.line = line
        return True


def _below(s: _Search, level: int, path: set[bytes], stop: int) -> tuple[i64, list[int]]:
    """A whole nested search of ``level`` from the current position (level 0: a
    `_playout`): the score of its best line and the line."""
    if level == 0:
        return _playout(s, path)
    search = _Level(s, level, path)
    while not search.step(stop):
        pass
    return search.score, search.line


def _playout(s: _Search, path: set[bytes]) -> tuple[i64, list[int]]:
    """A random line from the current position, at most `PLAYOUT_MOVES` moves, never into a
    position of ``path`` or of the line itself, nor into a dead end: the `value` of its last
    position (`WIN` if won) and its moves. The position is left as it was."""
    mark0 = len(s.trail)
    seen: set[bytes] = set()
    line: list[int] = []
    while len(line) < PLAYOUT_MOVES:
        for m in s.moves():
            mark = _play(s, m)
            if s.won():
                s.take_back(mark0)
                return WIN, line + [m & MOVE_MASK]
            k = s.key()
            if k in seen or k in path or s.closed(m, mark, k):
                s.take_back(mark)
                continue
            seen.add(k)
            line.append(m & MOVE_MASK)
            break
        else:
            break  # no move left
    score = s.value()
    s.take_back(mark0)
    return score, line


def _play(s: _Search, m: i64) -> i64:
    """Play move ``m`` and the safe moves home after it, counting one position on the
    search's clock; returns the trail's old length, for `take_back`."""
    mark = len(s.trail)
    s.trail = append(s.trail, s.do(m))
    s.auto()
    clock = s.clock
    clock.nodes += 1
    if clock.nodes >= clock.due:
        clock.check(0)  # the tables here are small: the main search's is `extra_bytes`
    return mark


def replay(state: PackerState, budget: Budget, chain: list[int]) -> list[IMove]:
    """The whole line of ``chain`` (moves, each followed by the safe moves home it allows,
    as the search plays them) from ``state``."""
    s = _Search(state, budget, probe=True)
    s.start()
    line = list(s.prefix)
    for m in chain:
        s.trail = vec[i64]()
        s.trail = append(s.trail, s.do(m))
        s.auto()
        line += [unpack(r) for r in s.trail]
    return line

