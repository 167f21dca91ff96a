"""Play in the browser: the ASGI app (`create_app`) and `serve` for ``thirteen serve``."""

from __future__ import annotations

from .app import create_app, serve

__all__ = ["create_app", "serve"]
