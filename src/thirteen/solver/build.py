"""The compiled packer search: `thirteen compile-solver` builds ``solver/packer.py`` with mypyc.

The build runs the same search 2.2-2.4 times faster (docs/benchmarks.md). It is kept outside
the source tree, in a directory named after the digest of the ``packer.py`` it was built
from, so a build always matches its source: after any change to ``packer.py`` the old
build is simply not found and the source runs until `thirteen compile-solver` runs again.
The ``.so`` names carry the interpreter's ABI tag, so another Python ignores them too.

``THIRTEEN_COMPILED_SOLVER`` chooses: unset, the default directory when it holds a build; a
directory, that build (ignored with a warning when built from another source); ``off``, the
source (the tests run with ``off``: they test the source, and one test compares the two).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

ENV = "THIRTEEN_COMPILED_SOLVER"
SOURCE = Path(__file__).with_name("packer.py")
STAMP = "packer.sha256"


def source_digest() -> str:
    return hashlib.sha256(SOURCE.read_bytes()).hexdigest()


def default_dir() -> Path:
    """Per user, per interpreter and per source: builds of other sources never collide."""
    import platformdirs

    cache = platformdirs.user_cache_path("thirteen", appauthor=False)
    return cache / "solver-mypyc" / f"{sys.implementation.cache_tag}-{source_digest()[:16]}"


def chosen_dir() -> Path | None:
    """The build `thirteen.solver` should import, or None for the source."""
    wanted = os.environ.get(ENV, "")
    if wanted.lower() in ("off", "0", "no"):
        return None
    build = Path(wanted) if wanted else default_dir()
    stamp = build / STAMP
    built = stamp.read_text().strip() if stamp.is_file() else ""
    if built == source_digest():
        return build
    if wanted:
        warnings.warn(f"{ENV}={wanted} was not built from {SOURCE}; using the source "
                      "(run `thirteen compile-solver` again)", stacklevel=3)
    return None


def compile_solver(out: Path | None = None) -> Path:
    """Build the packer search with mypyc into ``out`` (default: `default_dir`); returns it.

    mypyc writes its modules next to the source it compiles, so it compiles a copy of the
    package in a temporary directory and only the extension modules are kept.
    """
    try:
        import mypyc  # noqa: F401
    except ImportError:
        raise RuntimeError("mypyc is not installed: pip install 'thirteen[fast]'") from None
    out = out or default_dir()
    package = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(package, Path(tmp, "thirteen"),
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        done = subprocess.run([sys.executable, "-m", "mypyc", "thirteen/solver/packer.py"],
                              cwd=tmp, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"mypyc failed:\n{done.stdout}{done.stderr}")
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*.so"):
            old.unlink()
        for so in Path(tmp, "thirteen", "solver").glob("*.so"):
            shutil.copy2(so, out)
    (out / STAMP).write_text(source_digest() + "\n")
    return out


def running() -> str:
    """Which packer search this process runs, for benchmark headers and survey summaries."""
    from . import packer

    return "mypyc build" if packer.__file__.endswith(".so") else "pure Python"
