"""``GET /api/variants`` and ``/api/variants/{name}``: the games, with their rules (for one
game, as changed by the options a player may set)."""

from __future__ import annotations

import logging
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query
from fastapi import Path as PathParam

from ..variants import GAMES, OPTIONS, UnknownGame, Variant, get_variant
from .models import VariantOut, errors

log = logging.getLogger("thirteen.web")

router = APIRouter(prefix="/api/variants", tags=["games"])

Name = Annotated[str, PathParam(max_length=64)]


def variant_or_404(name: str, **options: object) -> Variant:
    """The game ``name`` with ``options``: 404 for an unknown game, 400 for options it does
    not take."""
    try:
        return get_variant(name, **options)
    except UnknownGame as e:
        raise HTTPException(404, str(e)) from None
    except ValueError as e:
        raise HTTPException(400, str(e)) from None


def variant_json(v: Variant) -> dict[str, Any]:
    return {
        "name": v.name, "title": v.title, "description": v.description, "family": v.family,
        "pysol_id": v.pysol_id, "hidden_information": v.hidden_information,
        # the options a player may set, with the game's own values
        "options": {k: getattr(GAMES[v.name], k) for k in OPTIONS} if v.takes_options else {},
        "rules": rules_text(v),
    }


def rules_text(v: Variant) -> str:
    try:
        from ..rules import describe
    except ImportError:
        return f"{v.title}\n\n{v.description}\n"
    try:
        return describe(v)
    except Exception:  # noqa: BLE001 - fall back to the one-line description
        log.exception("rules.describe failed")
        return f"{v.title}\n\n{v.description}\n"


@router.get("", response_model=list[VariantOut], responses=errors())
async def list_variants() -> list[dict[str, Any]]:
    """Every game, with its rules."""
    return [variant_json(v) for v in GAMES.values()]


@router.get("/{name}", response_model=VariantOut, responses=errors(400, 404))
async def one_variant(
    name: Name,
    worry_back: Annotated[bool | None, Query(description="rules with worrying back on or "
                                                         "off (omitted: the game's own)")] = None,
    foundations: Annotated[Literal["suit", "rank"] | None,
                           Query(description="rules with foundations by suit or by rank")] = None,
) -> dict[str, Any]:
    """One game; its ``rules`` as they read with the options given (400 if the game takes
    none). ``options`` stays the game's own values."""
    given = {k: v for k, v in (("worry_back", worry_back), ("foundations", foundations))
             if v is not None}
    return variant_json(variant_or_404(name, **given))
