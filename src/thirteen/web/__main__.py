"""``python -m thirteen.web [--host H] [--port P] [--db PATH] [limits]``: the server without
the CLI (the limits are those of ``thirteen serve``)."""

from __future__ import annotations

import argparse

from . import serve
from .limits import Limits


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m thirteen.web", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=None, help="SQLite file (default: the user's data directory)")
    Limits.add_arguments(p)
    args = p.parse_args()
    serve(args.host, args.port, args.db, Limits.from_args(args))


if __name__ == "__main__":
    main()
