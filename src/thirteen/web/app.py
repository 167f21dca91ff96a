"""The web server: a JSON API over `Game` and `Store`, and the static page that plays it.

The server holds the truth. The page sends moves in the project notation; the server checks
them with the engine, writes them to SQLite and only then answers with the new view (the
player's `view()`, never the state) and the legal moves, which the page uses to highlight
targets. The page itself never decides a rule.

A player is an unguessable token in an HttpOnly cookie; a game belongs to one player and any
other player asking for it gets 404, as if it did not exist. What happens to a game over its
life (starting, leaving, timing, help, statistics) is `thirteen.session`'s, as in every front
end.

One router per idea, each answer a pydantic model (`models`; OpenAPI at ``/api/openapi.json``):

- `variants`: ``GET /api/variants``, ``GET /api/variants/{name}?worry_back=&foundations=``;
- `play`: ``POST /api/games`` (new or resumed), ``GET /api/games``, ``/current``, ``/{id}``,
  ``POST /api/games/{id}/moves``, ``/undo``, ``/redo``, ``/restart``, ``/auto``;
- `assist`: ``GET /api/games/{id}/hint``, ``/analysis``, ``POST /api/games/{id}/solve``;
- `stats`: ``GET /api/stats``, ``/api/stats/{name}``;
- `pages`: the page's addresses. What they share is `server.Server`; `guard` wraps them all.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles

from ..store import Store
from . import assist, daily, pages, play, stats, variants
from .guard import Guard, validation_error
from .limits import Limits
from .server import Server


def create_app(db_path: str | Path | None = None, *, store: Store | None = None,
               limits: Limits | None = None) -> FastAPI:
    """The ASGI app on the SQLite file ``db_path`` (None: the user's data directory)."""
    server = Server(store if store is not None else Store(db_path), limits)
    app = FastAPI(
        title="thirteen",
        description="Play the Baker's Dozen family and the Calculation family of patience "
                    "games. The server holds the truth; the page sends moves in the project "
                    "notation (c3-c7, c3-f, s-w2, w2-f5).",
        version="1",
        docs_url=None, redoc_url=None,  # the interactive docs would load scripts from a CDN
        openapi_url="/api/openapi.json",
    )
    app.state.server = server
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_middleware(Guard)
    for module in (variants, play, assist, stats, daily, pages):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
          limits: Limits | None = None) -> None:
    """Run the server with uvicorn until interrupted (``thirteen serve``)."""
    import uvicorn

    store = Store(db)
    print(f"thirteen: playing at http://{host}:{port}/ (games saved in {store.path})",
          flush=True)
    uvicorn.run(create_app(store=store, limits=limits), host=host, port=port,
                log_level="warning", access_log=False)
