"""The fault suite's fixtures: the `faulty` pack, and `tb-env` subprocesses on loopback.

Every test under tests/faults carries the `faults` marker (`make test-faults` runs them
alone); the slowest variants also carry `long` and run only under `make test-long`."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import tb_env

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
FAULTY = HERE / "packs" / "faulty"
MINI = ROOT / "tests" / "packs" / "mini"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.faults)


@pytest.fixture(scope="session")
def faulty() -> tb_env.Domain:
    if "faulty" in tb_env.list_domains():
        return tb_env.get_domain("faulty")
    return tb_env.register_domain(FAULTY)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cli(*args: str) -> list[str]:
    """A `tb-env` command line run with this interpreter and this checkout first on the path."""
    return [sys.executable, "-m", "tb_env.cli.commands", *args]


def env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = str(ROOT) + os.pathsep + out.get("PYTHONPATH", "")
    return out


def start_service(*extra: str, tokens: tuple[str, ...] = ()) -> tuple[subprocess.Popen, str]:
    """`tb-env serve` with the mini and faulty packs on a free loopback port; waits for /health."""
    import httpx2

    port = free_port()
    args = ["--pack", str(MINI), "--pack", str(FAULTY), "serve", "--port", str(port), *extra]
    for t in tokens:
        args += ["--token", t]
    proc = subprocess.Popen(cli(*args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env(), cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    headers = {"Authorization": f"Bearer {tokens[0]}"} if tokens else {}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("tb-env serve exited: " + proc.stderr.read().decode()[-2000:])
        try:
            if httpx2.get(url + "/health", headers=headers, timeout=1).status_code == 200:
                return proc, url
        except httpx2.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("tb-env serve did not start: " + proc.stderr.read().decode()[-2000:])


@pytest.fixture
def service(faulty, mini) -> Iterator[tuple[subprocess.Popen, str]]:
    proc, url = start_service()
    try:
        yield proc, url
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)  # a hung tool holds a graceful shutdown; the test is over
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
