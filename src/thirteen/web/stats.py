"""``GET /api/stats`` and ``/api/stats/{name}``: the player's statistics."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from .models import StatsOut, errors
from .server import Player, ServerDep
from .variants import Name, variant_or_404

router = APIRouter(prefix="/api/stats", tags=["statistics"])


@router.get("", response_model=dict[str, StatsOut], responses=errors(429))
async def all_stats(server: ServerDep, me: Player) -> dict[str, Any]:
    """The player's statistics of every game they have a result in."""
    return server.store.all_stats(me)


@router.get("/{name}", response_model=StatsOut, responses=errors(404, 429))
async def stats(name: Name, server: ServerDep, me: Player) -> dict[str, Any]:
    return server.store.stats(me, variant_or_404(name).name)
