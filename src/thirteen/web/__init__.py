"""Play in the browser: the ASGI app (`create_app`) and `serve` for ``thirteen serve``.

They are imported when first used, so that the CLI can read the server's options
(`limits`) without the web extra's libraries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app, serve

__all__ = ["create_app", "serve"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
