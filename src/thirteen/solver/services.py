"""Player services on top of the search: hints, a difficulty rating, and deals picked by it.

A hint in a game with hidden cards is *fair*: it never reads a face-down card nor the stock
order. Castles in Spain is hinted by sampling: the face-down cards are dealt at random among
the face-down places (the player knows which cards they are, not where), each sample is
solved, and the first moves of the samples' winning lines vote. The Calculation family is
hinted by the fair player.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from ..calculation import CalcState
from ..deal import deal
from ..game import State, start_state
from ..moves import Move
from ..packer import PackerState
from ..variants import Variant
from .common import HINT_BUDGET, Budget, Result
from .fair import HINT_SAMPLES, fair_advice

DEAD_END = "dead end: this position can no longer be won"

Difficulty = Literal["easy", "medium", "hard", "unwinnable", "unknown"]

#: Node counts that split solved deals into easy / medium / hard (see docs/solver.md).
EASY_NODES = 1_000
MEDIUM_NODES = 20_000
#: What a player may ask a new deal to be: winnable (any solved deal) or of a difficulty.
Wanted = Literal["winnable", "easy", "medium", "hard"]
WANTED: tuple[Wanted, ...] = ("winnable", "easy", "medium", "hard")
#: The node budget that can tell each wish: an easy deal is solved within EASY_NODES, a medium
#: one within MEDIUM_NODES; a winnable or hard deal may need more.
_WANT_NODES: dict[str, int] = {"easy": EASY_NODES, "medium": MEDIUM_NODES,
                               "winnable": 100_000, "hard": 300_000}
#: How long a player waits for a deal of each kind before getting an unrated one.
FIND_SECONDS: dict[str, float] = {"winnable": 3.0, "easy": 3.0, "medium": 5.0, "hard": 10.0}


@dataclass(frozen=True)
class Hint:
    """A suggested move (None when there is none) and what the search found from here:
    ``solved`` (the move starts a winning line), ``unsolvable`` (a dead end, proved),
    ``unknown`` (no proof either way; the move is a heuristic's or a fair vote's)."""

    move: Move | None
    verdict: str
    message: str


def _solve(state: State, budget: Budget, shorten: bool = False) -> Result:
    from . import solve

    return solve(state, budget, shorten)


NO_LINE = "No winning line remains from here."


def solve_for_me(state: State, budget: Budget) -> tuple[Result, str]:
    """Solve it for me, the same in every front end: the solver's winning line, shortened to
    be watched (``moves`` of the result when ``solved``), else the player's words for why no
    line is played. Hidden cards are read: the player asked to see the game played out."""
    result = _solve(state, budget, shorten=True)
    if result.verdict == "solved":
        return result, ""
    if result.verdict == "unsolvable":
        return result, NO_LINE
    return result, f"No winning line found ({result.reason})."


def _fallback(state: State) -> Move | None:
    """A plausible move when the search proves nothing: a safe move home, a move home, the
    first legal move otherwise."""
    safe = state.safe_moves()
    if safe:
        return safe[0]
    legal = state.legal_moves()
    home = [m for m in legal if m.target.kind in ("f", "fa", "fk")]
    best = home or legal
    return best[0] if best else None


def hint(state: State, budget: Budget = HINT_BUDGET) -> Hint:
    """The next move of a winning line, or word that none remains (a fair hint where cards
    are hidden: see the module docstring)."""
    if state.won:
        return Hint(None, "solved", "the game is won")
    if not state.legal_moves():
        return Hint(None, "unsolvable", DEAD_END + " (no legal move remains)")
    if isinstance(state, CalcState):
        advice = fair_advice(state, HINT_SAMPLES)
        return Hint(advice.move, "unknown", f"{advice.move}: {advice.reason}")
    if state.hides_cards:
        return _fair_packer_hint(state, budget)
    result = _solve(state, budget, shorten=True)  # the first move of a line with no detour
    if result.verdict == "solved" and result.moves:
        return Hint(result.moves[0], "solved", f"{result.moves[0]}: it starts a winning line")
    if result.verdict == "unsolvable":
        return Hint(None, "unsolvable", DEAD_END)
    move = _fallback(state)
    return Hint(move, "unknown",
                f"{move}: no winning line found within the budget ({result.reason})")


def _fair_packer_hint(state: PackerState, budget: Budget, samples: int = 8) -> Hint:
    places = [(i, k) for i, h in enumerate(state.hidden) for k in range(h)]
    unseen = [state.columns[i][k] for i, k in places]
    rng = random.Random(len(unseen) * 7919 + sum(c.rank * 4 + c.suit for c in unseen))
    per = Budget(
        max_nodes=None if budget.max_nodes is None else max(1, budget.max_nodes // samples),
        max_seconds=None if budget.max_seconds is None else budget.max_seconds / samples,
        max_mb=budget.max_mb,
    )
    votes: Counter[Move] = Counter()
    for _ in range(samples):
        rng.shuffle(unseen)
        cols = [list(c) for c in state.columns]
        for (i, k), card in zip(places, unseen, strict=True):
            cols[i][k] = card
        world = replace(state, columns=tuple(tuple(c) for c in cols))
        result = _solve(world, per, shorten=True)
        if result.verdict == "solved" and result.moves:
            votes[result.moves[0]] += 1
    if votes:
        voted, n = votes.most_common(1)[0]
        return Hint(voted, "unknown",
                    f"{voted}: it starts a winning line in {n} of {samples} random guesses at "
                    "the face-down cards")
    move = _fallback(state)
    return Hint(move, "unknown", f"{move}: no winning line found for random guesses at the "
                                 "face-down cards")


def difficulty(result: Result) -> Difficulty:
    """Rate a deal from the effort of its search (nodes searched)."""
    if result.verdict == "unsolvable":
        return "unwinnable"
    if result.verdict != "solved":
        return "unknown"
    if result.nodes <= EASY_NODES:
        return "easy"
    if result.nodes <= MEDIUM_NODES:
        return "medium"
    return "hard"


def find_deal(variant: Variant, wanted: Wanted, draw: Callable[[], int],
              seconds: float | None = None) -> tuple[int, Difficulty | None]:
    """A deal number whose deal is ``wanted``, drawing numbers with ``draw()`` for at most
    ``seconds`` (default `FIND_SECONDS`): (number, its difficulty), or (the last number drawn,
    None) when none was found in time. The rating counts nodes, so it does not depend on how
    busy the machine is; the time only bounds the wait. Cards hidden from the player are
    searched as known (the rating is of the deal, and says nothing about where a face-down
    card lies)."""
    end = time.monotonic() + (FIND_SECONDS[wanted] if seconds is None else seconds)
    while True:
        number = int(draw())
        state = start_state(variant, deal(variant, number))
        left = max(0.05, end - time.monotonic())
        if wanted == "winnable":
            left = min(left, 0.5)  # many quick tries beat one long one here
        rated = difficulty(_solve(state, Budget(max_nodes=_WANT_NODES[wanted],
                                                max_seconds=left, max_mb=256)))
        if rated == wanted or (wanted == "winnable" and rated in ("easy", "medium", "hard")):
            return number, rated
        if time.monotonic() >= end:
            return number, None


def found_message(wanted: Wanted, rated: Difficulty | None) -> str:
    """What a front end tells the player about the deal `find_deal` picked (with its default
    wait)."""
    if rated is None:
        return f"No {wanted} deal was found in {FIND_SECONDS[wanted]:.0f} s: this one is random."
    if rated == "easy":
        return f"An easy deal: the solver won it within {EASY_NODES:,} positions."
    if rated == "medium":
        return f"A medium deal: the solver won it within {MEDIUM_NODES:,} positions."
    return f"A hard deal: the solver needed more than {MEDIUM_NODES:,} positions to win it."
