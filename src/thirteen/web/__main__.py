"""``python -m thirteen.web [--host H] [--port P] [--db PATH]``: the server without the CLI."""

from __future__ import annotations

import argparse

from . import serve


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m thirteen.web", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=None, help="SQLite file (default: the user's data directory)")
    args = p.parse_args()
    serve(args.host, args.port, args.db)


if __name__ == "__main__":
    main()
