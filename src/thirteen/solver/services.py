"""Player services on top of the search: hints, a difficulty rating, and deals picked by it.

A hint in a game with hidden cards is *fair*: every answer is a function of the player's view
alone, so two deals that look the same get the same answer. Castles in Spain is hinted by
sampling: the face-down cards (the player knows which cards they are, not where) are put in
canonical order and dealt at random among the face-down places by a generator seeded from the
view, each sample is searched within a node budget (never a clock, whose answer would vary),
and of the plans the samples' winning lines give, the one after which the most fresh samples
are won is hinted. The Calculation family is hinted by the fair player. A hint never leads
back to a position the game has already been in (``seen``), so following hints cannot loop.

"Solve it for me" where cards are hidden is the fair player playing for the player on the real
game (in Castles in Spain, a plan at a time: up to the next card turned): cards turn only as
that play turns them, and once nothing is hidden the search finishes the line (a verdict is
then about cards in sight).
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from typing import Literal

from ..calculation import CalcState
from ..deal import deal
from ..game import State, start_state
from ..moves import Move
from ..packer import PackerState
from ..variants import Variant
from .common import HINT_BUDGET, Budget, Result, now, signals_held, stop_if_signalled
from .dispatch import solve
from .fair import FAIR_SAMPLES, HINT_SAMPLES, fair_advice, play_out

DEAD_END = "dead end: this position can no longer be won"

Difficulty = Literal["easy", "medium", "hard", "unwinnable", "unknown"]

#: Node counts that split solved deals into easy / medium / hard where no survey data grade
#: the game (see docs/solver.md; `thirteen.grades` grades the surveyed games by terciles).
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
    ``unknown`` (no proof either way; the move is a heuristic's or a fair player's)."""

    move: Move | None
    verdict: str
    message: str
    line: tuple[Move, ...] = ()  # the winning line the move starts, when ``solved``


NO_LINE = "No winning line remains from here."
#: What a player is told when a search ran out of its budget (`Result.reason` says which, in
#: the solver's words, for the command line's ``solve`` and the logs).
GAVE_UP = "the solver gave up after a long search: this position may still be winnable"
#: The search budget of one fair hint where cards are hidden, whatever a front end's budget: nodes
#: only, so that the answer is the same on a busy machine and an idle one, and in every front end.
FAIR_NODES = 300_000
#: At most this many moves of fair play are made by one "solve it for me" (and no more once
#: the budget's seconds are spent: that clock reads only the time taken by searches of worlds
#: made from the view, so where it stops tells nothing about a hidden card).
FAIR_SOLVE_MOVES = 400
#: "Solve it for me" presses of Castles in Spain's fair player's game (`fair_play`), each of at
#: most `FAIR_SOLVE_MOVES` moves: a game not ended by then is not won.
FAIR_PRESSES = 10
#: The search that ends that game once every card is in sight: positions only, so that the
#: fair player's verdict is the same on a busy machine and an idle one.
FAIR_END = Budget(max_nodes=2_000_000, max_seconds=None, max_mb=2048)
#: A front end's words when the fair player played, where cards were hidden.
FAIR_PLAYED = ("the fair player chose each move from what you could see, and cards turned "
               "only as play turned them")


@dataclass(frozen=True)
class Played:
    """What "solve it for me" did: the moves to play (none: nothing is played), ``solved``
    (they win), ``unsolvable`` (no winning line remains: a proof, made only where nothing is
    hidden), ``unknown`` (no line found within the budget) or ``fair`` (the fair player's moves
    where cards were hidden, which need not win), and the player's words for it."""

    moves: tuple[Move, ...]
    verdict: str
    message: str


def solve_for_me(state: State, budget: Budget, seen: Collection[State] = (),
                 moves: int = FAIR_SOLVE_MOVES) -> Played:
    """Solve it for me, the same in every front end. Where nothing is hidden: the solver's
    winning line, shortened to be watched. Where cards are hidden: the fair player plays
    (`_plan_or_hint`: in Castles in Spain a plan up to the next card turned, else one fair
    hint at a time; cards turn as play turns them) until nothing is hidden, and then the
    search finishes the line; ``seen``, the positions of the game so far, keeps it from going
    round in circles. Fair play stops after ``moves`` moves or the budget's seconds (Solve
    again goes on), or where every move leads back (it would not, and says so); the budget
    bounds the searches made with every card in sight."""
    if not state.hides_cards:
        result = solve(state, budget, shorten=True)
        if result.verdict == "solved":
            return Played(result.moves, "solved", f"played {len(result.moves)} moves")
        if result.verdict == "unsolvable":
            return Played((), "unsolvable", NO_LINE)
        return Played((), "unknown", GAVE_UP[:1].upper() + GAVE_UP[1:] + ".")
    line: list[Move] = []
    been = {*seen, state}
    end = None if budget.max_seconds is None else now() + budget.max_seconds
    circling = False  # every move leads back to a position already played
    while state.hides_cards and len(line) < moves and (
            end is None or not line or now() < end):
        plan = _plan_or_hint(state, been)  # fair: no front end's budget plays a part
        if not plan:
            circling = bool(state.legal_moves())
            break
        for move in plan[:moves - len(line)]:
            state = state.apply(move)
            been.add(state)
            line.append(move)
    if not line:
        return Played((), "unknown", "No move leads to a position not seen before.")
    words = f"played {len(line)} moves: {FAIR_PLAYED}"
    if state.won:
        return Played(tuple(line), "fair", words + "; the game is won")
    if not state.legal_moves():
        return Played(tuple(line), "fair", words + "; no move is left")
    if circling:  # Solve again would find no move either
        return Played(tuple(line), "fair", words + "; then every move led back to a position "
                                                   "already played: undo or restart")
    if state.hides_cards:
        return Played(tuple(line), "fair",
                      words + "; it stopped with cards still hidden (Solve again goes on)")
    rest = solve_for_me(state, budget, been)
    tail = {"solved": f"; then, every card in sight, the solver won in {len(rest.moves)} more",
            "unsolvable": "; every card now in sight, no winning line remains"}
    return Played(tuple(line) + rest.moves, "fair",
                  words + tail.get(rest.verdict, "; every card now in sight, no winning line "
                                                 "was found"))


def fair_play(state: State, samples: int | None = None) -> Result:
    """A whole game of the fair player, who sees only the cards in sight: ``solved`` if it
    wins, else ``unknown`` (its loss proves nothing about the deal); its moves replay, each
    counts as a node. The Calculation family's player samples ``samples`` stock orders a move
    (`fair.play_out`). In Castles in Spain a player presses "solve it for me" until the game
    ends (won, nothing more played, or every card in sight and the solver has had its say), at
    most `FAIR_PRESSES` times, with `FAIR_END`. No clock bounds either, so that the verdict
    does not hang on the machine's speed; a held signal stops it between two presses, as a
    search's clock does."""
    if isinstance(state, CalcState):
        return play_out(state, FAIR_SAMPLES if samples is None else samples)
    if samples is not None:
        raise ValueError("only the Calculation family's fair player samples stock orders")
    if not state.hides_cards:
        raise ValueError("this game hides no card: it has no fair player")
    start = now()
    seen = [state]
    moves: list[Move] = []
    with signals_held():
        for _ in range(FAIR_PRESSES):
            stop_if_signalled()
            played = solve_for_me(state, FAIR_END, seen)
            for move in played.moves:
                state = state.apply(move)
                seen.append(state)
            moves += played.moves
            if state.won or not played.moves or not state.hides_cards:
                break
    return Result("solved" if state.won else "unknown", tuple(moves), len(moves),
                  now() - start, 0,
                  "the fair player won" if state.won else "the fair player lost")


def _plan_or_hint(state: State, seen: Collection[State]) -> list[Move]:
    """The fair player's next moves where cards are hidden: Castles in Spain's plan, which
    goes on to the next card turned (following one hint at a time, the player could wander
    for thousands of moves among positions never seen, as on deal 44), else the hint's move."""
    if isinstance(state, PackerState):
        plan, _ = _fair_plan(state, seen)
        move = None if plan else _fallback(state, seen)  # the hint's last resort
    else:
        plan, move = [], hint(state, seen=seen).move
    return plan or ([] if move is None else [move])


def _unseen(state: State, move: Move, seen: Collection[State]) -> bool:
    """Whether ``move`` leads to a position the game has not been in. Where a face-down card
    turns, the answer is yes whatever the card (a game never gets a hidden card back), so
    this reads nothing hidden."""
    return not seen or state.apply(move) not in seen


def _fallback(state: State, seen: Collection[State] = ()) -> Move | None:
    """A plausible move when the search proves nothing: a safe move home, a move home, any
    legal move otherwise; the first of them that leads somewhere new."""
    legal = state.legal_moves()
    home = [m for m in legal if m.target.kind in ("f", "fa", "fk")]
    return next((m for m in state.safe_moves() + home + legal if _unseen(state, m, seen)), None)


def hint(state: State, budget: Budget = HINT_BUDGET, seen: Collection[State] = ()) -> Hint:
    """The next move of a winning line, or word that none remains (a fair hint where cards
    are hidden: see the module docstring). ``seen``: the positions the game has been in, which
    no hinted move leads back to."""
    if state.won:
        return Hint(None, "solved", "the game is won")
    if not state.legal_moves():
        return Hint(None, "unsolvable", DEAD_END + " (no legal move remains)")
    if isinstance(state, CalcState):
        advice = fair_advice(state, HINT_SAMPLES)
        return Hint(advice.move, "unknown", f"{advice.move}: {advice.reason}")
    if state.hides_cards:
        return _fair_packer_hint(state, seen)
    result = solve(state, budget, shorten=True)  # the first move of a line with no detour
    found = line_hint(state, result.verdict, result.moves, seen)
    return found or _last_resort(state, seen, f"a move to try; {GAVE_UP}")


def line_hint(state: State, verdict: str, line: tuple[Move, ...],
              seen: Collection[State] = ()) -> Hint | None:
    """The hint a verdict on ``state`` gives, the solver's own or one a front end kept: the
    first move of the winning ``line`` when it leads to a position not in ``seen``, or word
    that no line remains; None when it gives neither."""
    if verdict == "solved" and line and _unseen(state, line[0], seen):
        return Hint(line[0], "solved", f"{line[0]}: it starts a winning line", line)
    if verdict == "unsolvable":
        return Hint(None, "unsolvable", DEAD_END)
    return None


def _last_resort(state: State, seen: Collection[State], why: str) -> Hint:
    move = _fallback(state, seen)
    if move is None:
        return Hint(None, "unknown", "every move leads back to a position already played: "
                                     "undo or restart")
    return Hint(move, "unknown", f"{move}: {why}")


def _fair_packer_hint(state: PackerState, seen: Collection[State]) -> Hint:
    """Castles in Spain's fair hint: the first move of the fair player's plan (`_fair_plan`)."""
    plan, why = _fair_plan(state, seen)
    if plan:
        return Hint(plan[0], "unknown", f"{plan[0]}: {why}")
    return _last_resort(state, seen, "no winning line found for random guesses at the "
                                     "face-down cards")


def _fair_plan(state: PackerState, seen: Collection[State],
               samples: int = 8) -> tuple[list[Move], str]:
    """Sample the face-down cards (`_guesses`, seeded from the view, so nothing here depends on
    where a hidden card lies). Each guess is searched with its share of `FAIR_NODES` (a few
    megabytes of tables at most, under 256); its winning line, up to the first move that turns
    a card (after which the guess is wrong or beside the point), is a plan. Where the guesses
    give different plans, each is played in `samples` fresh guesses and the one after which
    the most of them are won is chosen: a line may hang on where its own guess put a card, and
    this is what chose well (docs/solver.md, *The fair plan*). The plan and why, or no plan
    where no guess was won."""
    rng = random.Random(zlib.crc32(json.dumps(state.view(), sort_keys=True).encode()))
    per = Budget(max_nodes=max(1, FAIR_NODES // samples), max_seconds=None, max_mb=256)
    plans: dict[tuple[Move, ...], int] = {}  # each plan and how many guesses gave it
    for world in _guesses(state, rng, samples):
        result = solve(world, per, shorten=True)
        if result.verdict == "solved" and (
                plan := tuple(_until_a_card_turns(state, result.moves, seen))):
            plans[plan] = plans.get(plan, 0) + 1
    if not plans:
        return [], ""
    if len(plans) == 1:
        [(plan, n)] = plans.items()
        return list(plan), (f"it starts a winning line in {n} of {samples} random guesses at "
                            "the face-down cards")
    fresh = _guesses(state, rng, samples)
    # scoring gets FAIR_NODES too, shared out: a hint costs at most twice FAIR_NODES
    per = replace(per, max_nodes=max(1, FAIR_NODES // (len(plans) * samples)))
    won = {plan: _won_after(plan, fresh, per) for plan in plans}
    # A tie goes to the plan more guesses gave, then to the move generated first, then to
    # the plan of the guess drawn first (the guesses, too, are drawn from the view alone).
    order = {m: i for i, m in enumerate(state.legal_moves())}
    best = max(plans, key=lambda plan: (won[plan], plans[plan], -order.get(plan[0], 0)))
    return list(best), (f"it starts the best of {len(plans)} plans from random guesses at the "
                        f"face-down cards: {won[best]} of {samples} other guesses are still won "
                        "after it")


def _guesses(state: PackerState, rng: random.Random, n: int) -> list[PackerState]:
    """``n`` random guesses at the face-down cards: the cards not in sight (which a player
    knows), sorted, then dealt among the face-down places by ``rng``."""
    places = [(i, k) for i, h in enumerate(state.hidden) for k in range(h)]
    unseen = sorted(state.columns[i][k] for i, k in places)
    worlds = []
    for _ in range(n):
        rng.shuffle(unseen)
        cols = [list(c) for c in state.columns]
        for (i, k), card in zip(places, unseen, strict=True):
            cols[i][k] = card
        worlds.append(replace(state, columns=tuple(tuple(c) for c in cols)))
    return worlds


def _won_after(plan: tuple[Move, ...], guesses: list[PackerState], budget: Budget) -> int:
    """In how many ``guesses`` the position after ``plan`` is won within ``budget``. The plan's
    moves touch only cards in sight but the last, which turns one, so they are legal in every
    guess."""
    won = 0
    for world in guesses:
        for move in plan:
            world = world.apply(move)
        won += solve(world, budget).verdict == "solved"
    return won


def _until_a_card_turns(state: PackerState, line: tuple[Move, ...],
                        seen: Collection[State]) -> list[Move]:
    """The moves of ``line`` up to and with the first that turns a card, as long as each is
    legal here and leads to a position not in ``seen``. Until a card turns, a sample's moves
    touch only cards in sight, so they play the same in the real game."""
    plan: list[Move] = []
    for move in line:
        if state.why_illegal(move) is not None:
            break
        after = state.apply(move)
        if after in seen:
            break
        plan.append(move)
        if sum(after.hidden) < sum(state.hidden):  # a card turned
            break
        state = after
    return plan


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
    None) when none was found in time. Front ends ask this only for games and options the
    survey data do not grade (`thirteen.grades` serves the others at once), with the fixed
    counts `EASY_NODES` and `MEDIUM_NODES`, since without data there is no distribution to be
    relative to. The rating counts nodes, so it does not depend on how busy the machine is;
    the time (CPU seconds, `now`) only bounds the work. Cards hidden from the player are
    searched as known (the rating is of the deal, and says nothing about where a face-down
    card lies)."""
    end = now() + (FIND_SECONDS[wanted] if seconds is None else seconds)
    while True:
        number = int(draw())
        state = start_state(variant, deal(variant, number))
        left = max(0.05, end - now())
        if wanted == "winnable":
            left = min(left, 0.5)  # many quick tries beat one long one here
        rated = difficulty(solve(state, Budget(max_nodes=_WANT_NODES[wanted],
                                                max_seconds=left, max_mb=256)))
        if rated == wanted or (wanted == "winnable" and rated in ("easy", "medium", "hard")):
            return number, rated
        if now() >= end:
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
