"""The player's view of a game as the API answers it (`GameOut`): the engine's view, the
legal moves with the page's pile ids, and where the game stands."""

from __future__ import annotations

import time
from typing import Any

from .. import session as lifecycle
from ..game import State
from ..moves import Move
from ..piles import ANY_FOUNDATION, foundation_ids
from .server import Session

Json = dict[str, Any]


def annotate(state: State, move: Move) -> Json:
    """A legal move with the page's pile ids of its source and target."""
    src, dst = move.source, move.target
    home = dst.kind in ANY_FOUNDATION
    if state.variant.family == "packer":
        source = f"c{src.index + 1}" if src.kind == "c" else str(src)
        if dst.kind == "c":
            target = f"c{dst.index + 1}"
        else:
            card = state.columns[src.index][-move.count]  # type: ignore[union-attr]
            pile = state.foundation_for(card, dst.kind)  # type: ignore[union-attr]
            target = foundation_ids(state.variant)[pile] if pile is not None else str(dst)
    else:
        source, target = str(src), str(dst)
    return {"move": str(move), "from": source, "to": target, "count": move.count,
            "home": home}


def annotate_text(state: State, move: str) -> Json:
    """`annotate` for a move in notation (a hint's), as the page's pile ids."""
    return annotate(state, Move.parse(move))


def game_out(s: Session, played: list[Move] | None = None, message: str = "") -> Json:
    """The answer about a game (`models.GameOut`)."""
    game, state = s.game, s.game.state
    view = state.view()
    legal = [annotate(state, m) for m in s.legal_moves()]
    status = "won" if state.won else "in play" if legal else "lost"
    v = game.variant
    number = None if game.number is None else str(game.number)
    options = v.options()
    url = f"/play/{v.name}/{number}" if number is not None and not options else f"/game/{s.id}"
    return {
        "id": s.id, "game": v.name, "title": v.title, "family": v.family,
        "number": number, "options": options, "url": url,
        "status": status, "message": message, "result": s.result,
        "assisted": s.assisted, "hints": s.hints, "leaving": s.leaving(),
        "view": view, "legal": legal,
        "moves": list(s.texts), "redo": len(game.redo_stack), "version": s.version,
        "played": [str(m) for m in played or []],
        "elapsed": round(s.elapsed, 3), "since": round(time.time() - s.last_active, 3),
        "idle_cap": lifecycle.IDLE_CAP,
        "stats": s.stats(),
    }
