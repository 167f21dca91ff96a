"""The compiled solver: `thirteen compile-solver` builds the modules of `MODULES` with mypyc,
as one group, so that calls between them stay native: ``solver/clock.py`` (the clock every
search counts its positions on), ``solver/packer/`` (the packer search),
``solver/relaxed.py`` (its relaxed game, rule D4), ``solver/calculation.py`` (the Calculation
family's search), ``solver/unwind.py`` (its unwinding game, rule R1) and ``solver/fair.py``
(its fair player).

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
# The compiled modules of `thirteen.solver`; a package stands for every module in it.
MODULES = ("clock", "packer", "calculation", "relaxed", "unwind", "fair")
HERE = Path(__file__).parent


def _sources(module: str) -> list[Path]:
    path = HERE / module
    return sorted(path.glob("*.py")) if path.is_dir() else [path.with_suffix(".py")]


SOURCES = tuple(source for module in MODULES for source in _sources(module))
# Each compiled module's name under `thirteen.solver`, in the order of `SOURCES`
NAMES = tuple(".".join(s.relative_to(HERE).with_suffix("").parts).removesuffix(".__init__")
              for s in SOURCES)
# mypyc's group: its shared library is ``thirteen/solver/compiled__mypyc``, found where the
# modules are (a group of several modules is otherwise named by a hash, at the top level)
GROUP = "thirteen.solver.compiled"
STAMP = "solver.sha256"
#: What the build gains, in positions a second of CPU (docs/benchmarks.md, *Our node rate, and
#: compiling*): 13-17 times for the packer search, 3 for the Calculation family's.
GAIN = "3-17 times as fast"


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
    if up_to_date(build):
        return build
    if wanted:
        warnings.warn(f"{ENV}={wanted} was not built from this {', '.join(MODULES)}; "
                      "using the source (run `thirteen compile-solver` again)", stacklevel=3)
    return None


def up_to_date(build: Path) -> bool:
    """Whether ``build`` holds a build of the sources as they are now."""
    stamp = build / STAMP
    try:
        return stamp.read_text().strip() == source_digest()
    except (OSError, UnicodeDecodeError):
        return False


def build_dir(out: Path) -> Path:
    """``out``, created if missing: checked before a build that takes half a minute."""
    if out.exists() and not out.is_dir():
        raise RuntimeError(f"{out} is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise RuntimeError(f"cannot create the folder {out}: {e.strerror}") from None
    if not os.access(out, os.W_OK):
        raise RuntimeError(f"cannot write in the folder {out}")
    return out


def compile_solver(out: Path | None = None) -> Path:
    """Build the compiled modules with mypyc into ``out`` (default: `default_dir`); returns it.

    mypyc writes its modules next to the source it compiles, so it compiles a copy of the
    package in a temporary directory and only the extension modules are kept, in the same
    layout. PYTHONPATH is dropped because mypy would then find this package's dependencies
    without their stubs and fail.
    """
    try:
        import mypyc  # noqa: F401
    except ImportError:
        raise RuntimeError("mypyc is not installed: pip install 'thirteen[fast]'") from None
    out = build_dir(out or default_dir())
    digest = source_digest()  # of the sources copied now, even if they change meanwhile
    package = HERE.parent
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(package, Path(tmp, "thirteen"),
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        # (mypy's options from the command line: the copy has no pyproject.toml)
        paths = ["--ignore-missing-imports",
                 *(str(Path("thirteen", "solver", s.relative_to(HERE))) for s in SOURCES)]
        setup = ("from setuptools import setup\nfrom mypyc.build import mypycify\n"
                 f"setup(name='thirteen-solver', script_args=['build_ext', '--inplace'], "
                 f"ext_modules=mypycify({paths!r}, group_name={GROUP!r}))\n")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        done = subprocess.run([sys.executable, "-c", setup], cwd=tmp, env=env,
                              capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"mypyc failed:\n{done.stdout}{done.stderr}")
        for old in out.rglob("*.so"):
            old.unlink()
        built = Path(tmp, "thirteen", "solver")
        for so in built.rglob("*.so"):
            target = out / so.relative_to(built)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(so, target)
    (out / STAMP).write_text(digest + "\n")
    return out


def running() -> str:
    """Which solver this process runs, for benchmark headers and survey summaries: "mypyc
    build" (every module compiled), "pure Python", or which modules alone are compiled."""
    compiled = [m for m in NAMES
                if str(importlib.import_module(f"{__package__}.{m}").__file__).endswith(".so")]
    if not compiled:
        return "pure Python"
    if len(compiled) == len(NAMES):
        return "mypyc build"
    return f"mypyc build of {' and '.join(compiled)} only"
