"""Episodes hold nothing after `close`: open file descriptors, threads, event-loop tasks,
temporary files, tool-server bindings and memory return to their baseline.

The default run closes 1,000 episodes per face; the `long` variant 10,000."""

from __future__ import annotations

import asyncio
import gc
import os
import tempfile
import threading
import tracemalloc

import pytest

import tb_env
from tb_env.core import loop as tb_loop
from tb_env.core.toolserver import tool_server
from tb_env.parties.interpret import render_tool_call

DEPOSIT = render_tool_call(tb_env.ToolCall(name="deposit", arguments={"account_id": "A-001", "amount": 100}))
END = render_tool_call(tb_env.ToolCall(name="end_conversation"))
HANG = render_tool_call(tb_env.ToolCall(name="hang"))


def fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def temp_files() -> set[str]:
    return set(os.listdir(tempfile.gettempdir()))


@pytest.fixture(autouse=True)
def private_tmp(tmp_path, monkeypatch):
    """A temp folder of this test's own: others' files in /tmp must not count."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def loop_tasks() -> int:
    if not tb_loop.started():
        return 0

    async def count() -> int:
        return len(asyncio.all_tasks())

    return tb_loop.run_sync(count())


def measure() -> dict:
    gc.collect()
    return {"fds": fds(), "threads": threading.active_count(), "tasks": loop_tasks(), "temp": temp_files(),
            "memory": tracemalloc.get_traced_memory()[0]}


def env_episodes(n: int) -> None:
    env = tb_env.TBEnv(domain="mini")
    for i in range(n):
        env.reset(options={"task_id": "mini/deposit-001"}, seed=i)
        env.step(DEPOSIT)
        *_, info = env.step("Done, your balance is now $350.00.")  # handled: the customer leaves
        assert info["check"]["reward"] == 1.0
    env.close()


def async_episodes(n: int) -> None:
    async def main() -> None:
        for start in range(0, n, 50):
            rs = await asyncio.gather(*(tb_env.run_episode("mini/deposit-001", tb_env.OraclePolicy())
                                        for _ in range(min(50, n - start))))
            assert all(r.reward == 1.0 for r in rs)

    asyncio.run(main())


def hung_tool_episodes(n: int) -> None:
    env = tb_env.TBEnv(domain="faulty", tool_timeout_s=0.05)
    for _ in range(n):
        env.reset(options={"task_id": "faulty/deposit-001"})
        *_, info = env.step(HANG)
        assert info["infra_error"]
    env.close()


def check_no_leak(run, n: int, warmup: int) -> None:
    run(warmup)  # caches, templates, the MCP sessions and the loop thread come up once
    tracemalloc.start()
    try:
        before = measure()
        run(n)
        after = measure()
    finally:
        tracemalloc.stop()
    assert after["fds"] <= before["fds"], f"file descriptors leaked: {before['fds']} -> {after['fds']}"
    assert after["threads"] <= before["threads"], "threads leaked"
    assert after["tasks"] <= before["tasks"], f"event-loop tasks leaked: {before['tasks']} -> {after['tasks']}"
    assert not (after["temp"] - before["temp"]), f"temporary files left: {sorted(after['temp'] - before['temp'])[:5]}"
    grown = after["memory"] - before["memory"]
    assert grown < 512 * 1024 + 64 * n, f"memory grew by {grown} bytes over {n} episodes"


@pytest.mark.parametrize("face", [env_episodes, async_episodes], ids=["TBEnv", "run_episode"])
def test_closed_episodes_leave_nothing_behind(mini, face):
    check_no_leak(face, 1000, 100)
    assert not tool_server(mini).bindings


def test_episodes_whose_tool_hung_leave_nothing_behind(faulty):
    check_no_leak(hung_tool_episodes, 100, 10)
    assert not tool_server(faulty).bindings


@pytest.mark.long
@pytest.mark.parametrize("face", [env_episodes, async_episodes], ids=["TBEnv", "run_episode"])
def test_ten_thousand_closed_episodes_leave_nothing_behind(mini, face):
    check_no_leak(face, 10_000, 200)
    assert not tool_server(mini).bindings
