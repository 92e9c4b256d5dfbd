"""Where an episode's external MCP server comes from: a fork server, or a fresh process.

`ServerLauncher` names the interpreter that has the servers installed (`--server-python`,
`TB_THINKINGBOX_PYTHON`, else this interpreter) and how to start a server per episode:
`fork` (default) asks a per-module `ForkServer` for a forked child; `spawn` starts a new
process each time, as the reference harness does (kept for the benchmark and as a
fallback). Fork servers are shared by every episode in the process, started on first
use, and stopped at exit.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tb_env.errors import ServerPackageError
from tb_env.thinkingbox.client import MCPConnection

FORKSERVER_SCRIPT = str(Path(__file__).with_name("forkserver.py"))
PYTHON_ENV_VAR = "TB_THINKINGBOX_PYTHON"
PACKAGE_ENV_VAR = "TB_THINKINGBOX_PACKAGE"
DEFAULT_PACKAGE = "tb_business_ops_servers_202606"
START_TIMEOUT_S = 180.0
INSTALL_HINT = (
    "install the ThinkingBox servers into that interpreter's environment, e.g. "
    "`python -m venv /work/tbvenv && /work/tbvenv/bin/pip install 'fastmcp>=3.0,<3.1' "
    "-e thinkingbox-data/servers/tb_business_ops_servers_202606`, then pass "
    "`--server-python /work/tbvenv/bin/python` (or set TB_THINKINGBOX_PYTHON)"
)


def default_python() -> str:
    return os.environ.get(PYTHON_ENV_VAR) or sys.executable


class ForkServer:
    """One process that imported a server module, forking a pristine child per episode."""

    def __init__(self, python: str, module: str, paths: tuple[str, ...] = ()):
        self.python, self.module, self.paths = python, module, paths
        self._dir = tempfile.mkdtemp(prefix="tb-fork-")
        self.socket = os.path.join(self._dir, "s")
        self.proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self.forks = 0

    def _start(self) -> None:
        """Blocking: start the server and wait for `READY` (the module import, ~3 s)."""
        with self._lock:
            if self.proc is not None and self.proc.poll() is None:
                return
            if os.path.exists(self.socket):
                os.unlink(self.socket)
            cmd = [self.python, FORKSERVER_SCRIPT, "--module", self.module, "--socket", self.socket]
            for p in self.paths:
                cmd += ["--path", p]
            log = os.environ.get("TB_THINKINGBOX_LOG")
            stderr = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - lives with the process
            try:
                proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
            except OSError as exc:
                raise ServerPackageError(f"cannot run the server interpreter {self.python!r}: {exc}") from None
            assert proc.stdout is not None
            timer = threading.Timer(START_TIMEOUT_S, proc.kill)
            timer.start()
            try:
                line = proc.stdout.readline().decode().strip()
            finally:
                timer.cancel()
            if line != "READY":
                proc.kill()
                why = line[6:] if line.startswith("ERROR ") else f"it exited ({line or 'no output'})"
                raise ServerPackageError(
                    f"{self.python} cannot import the MCP server module {self.module!r}: {why}. "
                    f"To fix it, {INSTALL_HINT}."
                )
            self.proc = proc

    async def connect(self, label: str) -> MCPConnection:
        if self.proc is None or self.proc.poll() is not None:
            await asyncio.to_thread(self._start)
        self.forks += 1
        return await MCPConnection.over_socket(self.socket, label)

    def close(self) -> None:
        with self._lock:
            proc, self.proc = self.proc, None
        if proc is not None:
            if proc.stdin is not None:
                proc.stdin.close()  # the server exits when its stdin closes
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
        if os.path.exists(self.socket):
            os.unlink(self.socket)
        if os.path.isdir(self._dir):
            os.rmdir(self._dir)


_forkservers: dict[tuple[str, str, tuple[str, ...]], ForkServer] = {}
_forkservers_lock = threading.Lock()


def forkserver(python: str, module: str, paths: tuple[str, ...] = ()) -> ForkServer:
    """The process-wide fork server for (interpreter, module)."""
    key = (python, module, paths)
    with _forkservers_lock:
        fs = _forkservers.get(key)
        if fs is None:
            fs = _forkservers[key] = ForkServer(python, module, paths)
        return fs


@atexit.register
def close_forkservers() -> None:
    with _forkservers_lock:
        servers = list(_forkservers.values())
        _forkservers.clear()
    for fs in servers:
        fs.close()


@dataclass(frozen=True)
class ServerLauncher:
    """How episodes of a ThinkingBox domain get their server process."""

    python: str = field(default_factory=default_python)
    # the servers' package; TB_THINKINGBOX_PACKAGE names a compatible one (a test double)
    package: str = field(default_factory=lambda: os.environ.get(PACKAGE_ENV_VAR, DEFAULT_PACKAGE))
    mode: Literal["fork", "spawn"] = "fork"
    paths: tuple[str, ...] = ()  # extra sys.path entries (the test servers live in tests/)

    def module(self, server: str) -> str:
        return f"{self.package}.mcp_{server}"

    async def prepare(self, server: str) -> None:
        """Start the fork server for `server` now (it starts on first use otherwise)."""
        if self.mode == "fork":
            fs = forkserver(self.python, self.module(server), self.paths)
            await asyncio.to_thread(fs._start)

    async def connect(self, server: str, label: str) -> MCPConnection:
        module = self.module(server)
        if self.mode == "fork":
            return await forkserver(self.python, module, self.paths).connect(label)
        env = dict(os.environ)
        if self.paths:
            env["PYTHONPATH"] = os.pathsep.join([*self.paths, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        return await MCPConnection.spawn(self.python, module, env, label)
