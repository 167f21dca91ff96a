"""The packer search's tuning, in one place: when each part of the portfolio joins
(`schedule.portfolio`) and with what share of the positions, the scores that order moves, a
position's value for beams, and the memory estimates behind the budget's checks. The figures
were measured on deals (docs/solver.md says how). They are ``Final``: mypyc compiles them in
instead of a dictionary look-up per use.
"""

from __future__ import annotations

from typing import Final

# ---- the schedule (`schedule.portfolio`), in positions of the whole search -----------------
FIRST_SLICE: Final = 2000  # the exhaustive search's first slice; each next is half as long again
PROBE_UNIT: Final = 100  # positions: the probes' restart lengths are this times Luby's sequence
UNGUIDED_AFTER: Final = 20_000  # positions; from then on every second probe is unguided
LATE_AFTER: Final = 1_000_000  # positions; from then on every probe is unguided, and
LATE_PROBES: Final = 3  # the probes get this many times each slice
NESTED_AFTER: Final = 20_000  # positions; from then on this many sixteenths of the probes'
NESTED_SHARE: Final = 15  # share go to `nested`
NESTED_CAP: Final = 1_000_000  # positions at most in one nested search
DEEP_AFTER: Final = 1_000_000  # positions; from then on this many sixteenths of the share go
DEEP_SHARE: Final = 12  # to nested searches of level 2, one at a time, in turns
BEAM_AFTER: Final = 1_000_000  # positions; from then on a quarter of the probes' share goes
BEAM_COST: Final = 3  # to beams, each beam position counted as this many (measured time)
BEAM_FIRST: Final = 1000  # the first beam's width; each next beam is twice as wide
BEAM_CAP: Final = 1000  # and a beam stops after this many positions per unit of width
RELAXED_AFTER: Final = 20_000  # positions; from then on rule D4 is asked, its relaxed game searched
RELAXED_SHARE: Final = 2  # with this many times each slice
# After this many positions, the relaxed games with one suit kept take the exhaustive
# search's turns, each dropped once it holds more than its share of this part of the memory
# budget. The probes keep their share: of Good Measure 1-1000, the deals undecided at 2
# million positions are solved by probes or proved lost by rule D4, none by the exhaustive
# search (docs/solver.md, *D4*).
KEPT_AFTER: Final = 2_000_000
KEPT_MEMORY: Final = 0.6
# The windows of those games, narrowest first: all four suits with one, then the suits whose
# game was won with the next; 13 is the whole suit (docs/solver.md, *D4*).
WINDOWS: Final = (3, 5, 8, 13)
# Once every game with one suit kept is decided, those with two, and so on up to this many:
# Good Measure 17330 is lost with spades and hearts kept within 8 ranks, though every game
# with one suit kept is won (docs/solver.md, *Two suits kept*).
KEPT_SUITS: Final = 2
# `Split`, the frontier search: a frontier of at least this many positions, each searched
# first up to this many new positions, then this many times more each round; it runs after
# this many positions of the whole search, with this many halves of each slice on top of the
# others' shares (docs/solver.md, *The frontier search*)
SPLIT_FRONTIER: Final = 1000
SPLIT_FIRST_CAP: Final = 3000
SPLIT_GROWTH: Final = 3
SPLIT_AFTER: Final = 1_000_000
SPLIT_SHARE: Final = 3

# ---- rule D3 (`deadends.DeadEnds.stuck`) --------------------------------------------------
STUCK_AFTER: Final = 1_000_000  # positions; rule D3 runs at the start, then from here on
STUCK_LIMIT: Final = 50_000  # positions at most in one search of rule D3

# ---- move order (`ordering.Ordering.moves`) -----------------------------------------------
# Move scores (small first) are ints, in twentieths of a unit of urgency.
URGENCY: Final = 20  # per unit of the source column's urgency; the target's counts negated
HOME_SCORE: Final = -2000  # moves home first
RUN_CARD: Final = 2  # Castles: per card of a run moved
SPLIT_PENALTY: Final = 400  # Castles: splitting a run that sits on its natural host comes late
SPACE_PENALTY: Final = 100  # moves into a space come after moves onto a card
WORRY_SCORE: Final = 4000  # worry-back moves come last
PROBE_NOISE: Final = 600  # a probe's noise per unit of urgency (`Ordering.noise`)

# ---- a position's value (`position.Position.value`, for `probes.beam` and playouts) --------
# weights tried on deals: docs/solver.md, *Beams*
BEAM_OUT: Final = 10  # per card not home
BEAM_PACKED: Final = 3  # per card on a host
BEAM_TRAPPED: Final = 5  # per card above a lower card of its suit
BEAM_NOISE: Final = 48  # ties: random noise up to this many sixteenths of a unit of value
WIN: Final = 1 << 40  # a won playout's score, above every `value`
PLAYOUT_MOVES: Final = 400  # a playout's longest line (winning lines are 80-260 moves)

# ---- memory estimates, bytes ---------------------------------------------------------------
STUCK_SLOT_BYTES: Final = 64  # a kept D3 position's share of its set's slots (estimated)
BEAM_POSITION_BYTES: Final = 800  # a layer's position: snapshot and moves found (estimated)
SPLIT_INDEX_BYTES: Final = 200  # a position of a frontier position's own search (estimated)
# `engine_search`: a position, its key and the states it keeps alive (measured with
# tracemalloc: about 1,500 on Spanish Patience deal 3 with worry_back, 20,000 positions)
ENGINE_KEY_BYTES: Final = 2000
