"""``python -m thirteen.web [--host H] [--port P] [--db PATH] [limits]``: the server without
the ``thirteen`` script, with the options of ``thirteen serve``."""

from __future__ import annotations

import sys

from thirteen.cli import main  # absolute: solver worker processes run this file by path

if __name__ == "__main__":
    sys.exit(main(["serve", *sys.argv[1:]]))
