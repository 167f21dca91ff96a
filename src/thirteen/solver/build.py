"""The compiled solver: `thirteen compile-solver` builds ``solver/packer.py`` (the packer
search), ``solver/relaxed.py`` (its relaxed game, rule D4), ``solver/calculation.py`` (the
Calculation family's search) and ``solver/fair.py`` (its fair player) with mypyc.

The build runs the same searches faster (docs/benchmarks.md). It is kept outside the source
tree, in a directory named after the digest of the sources it was built from, so a build
always matches its source: after any change to any of them the old build is simply not found and
the source runs until `thirteen compile-solver` runs again.
The ``.so`` names carry the interpreter's ABI tag, so another Python ignores them too.

``THIRTEEN_COMPILED_SOLVER`` chooses: unset, the default directory when it holds a build; a
directory, that build (ignored with a warning when built from another source); ``off``, the
source (the tests run with ``off``: they test the source, and one test compares the two).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

ENV = "THIRTEEN_COMPILED_SOLVER"
MODULES = ("packer", "calculation", "relaxed", "fair")
SOURCES = tuple(Path(__file__).with_name(f"{m}.py") for m in MODULES)
STAMP = "solver.sha256"


def source_digest() -> str:
    """One digest of every compiled source, so a change to any of them makes a build stale."""
    digest = hashlib.sha256()
    for source in SOURCES:
        digest.update(hashlib.sha256(source.read_bytes()).digest())
    return digest.hexdigest()


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
        warnings.warn(f"{ENV}={wanted} was not built from this {' and '.join(MODULES)}; "
                      "using the source "
                      "(run `thirteen compile-solver` again)", stacklevel=3)
    return None


def compile_solver(out: Path | None = None) -> Path:
    """Build the compiled modules with mypyc into ``out`` (default: `default_dir`); returns it.

    mypyc writes its modules next to the source it compiles, so it compiles a copy of the
    package in a temporary directory and only the extension modules are kept. Each module is
    compiled on its own: together, mypyc would put their shared code in a top-level module,
    which a directory on ``thirteen.solver.__path__`` cannot provide. PYTHONPATH is dropped
    because mypy would then find this package's dependencies without their stubs and fail.
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
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        for module in MODULES:
            done = subprocess.run([sys.executable, "-m", "mypyc", f"thirteen/solver/{module}.py"],
                                  cwd=tmp, env=env, capture_output=True, text=True)
            if done.returncode:
                raise RuntimeError(f"mypyc failed on {module}.py:\n{done.stdout}{done.stderr}")
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*.so"):
            old.unlink()
        for so in Path(tmp, "thirteen", "solver").glob("*.so"):
            shutil.copy2(so, out)
    (out / STAMP).write_text(source_digest() + "\n")
    return out


def running() -> str:
    """Which solver this process runs, for benchmark headers and survey summaries: "mypyc
    build" (every module compiled), "pure Python", or which modules alone are compiled."""
    compiled = [m for m in MODULES
                if str(importlib.import_module(f"{__package__}.{m}").__file__).endswith(".so")]
    if not compiled:
        return "pure Python"
    if len(compiled) == len(MODULES):
        return "mypyc build"
    return f"mypyc build of {' and '.join(compiled)} only"
