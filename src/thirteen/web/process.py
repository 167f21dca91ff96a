"""Run the server in a child process on a free loopback port: for the restart test, the
browser tests and the load benchmark."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import thirteen


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: How the server is started: ``python -m thirteen.web``, the options of ``thirteen serve``.
WEB_MODULE = ("-m", "thirteen.web")


class ServerProcess:
    """``with ServerProcess(db) as server: ... server.url ...``; `kill` sends SIGKILL;
    ``options`` are more options of ``thirteen serve`` (e.g. its limits); ``launcher``, what
    follows the Python interpreter to start it (another way, such as ``("-m", "thirteen.cli",
    "serve")``)."""

    def __init__(self, db: str | Path, port: int | None = None, timeout: float = 20.0,
                 options: Sequence[str] = (), launcher: Sequence[str] = WEB_MODULE) -> None:
        self.db = str(db)
        self.options = list(options)  # more command-line options, e.g. limits
        self.launcher = list(launcher)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.timeout = timeout
        self.proc: subprocess.Popen[bytes] | None = None
        # the server's stderr, read back on failure; closed with the object
        self.log = tempfile.TemporaryFile()  # noqa: SIM115

    def start(self) -> ServerProcess:
        src = str(Path(thirteen.__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen(
            [sys.executable, *self.launcher, "--host", "127.0.0.1",
             "--port", str(self.port), "--db", self.db, *self.options],
            env=env, stdout=subprocess.DEVNULL, stderr=self.log,
        )
        end = time.monotonic() + self.timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"the server exited with {self.proc.returncode}: {self.errors()}")
            try:
                with urllib.request.urlopen(self.url + "/api/variants", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                pass
            if time.monotonic() > end:
                self.stop()
                raise RuntimeError(f"the server did not answer on {self.url}")
            time.sleep(0.05)

    def errors(self) -> str:
        """What the server wrote to stderr so far."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when a machine's process is killed."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
