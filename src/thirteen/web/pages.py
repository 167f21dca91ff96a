"""The page: every address a player may open (a game by name and number, a game by id) is the
one static page, which reads the address itself."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC = Path(__file__).parent / "static"
INDEX = STATIC / "index.html"

router = APIRouter(include_in_schema=False)


@router.get("/")
@router.get("/play/{name}")
@router.get("/play/{name}/{number}")
@router.get("/game/{game_id}")
async def page() -> FileResponse:
    return FileResponse(INDEX)
