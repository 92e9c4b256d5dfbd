"""`tb-env mcp --task ID`: a stdio MCP server for any client; graded when the client leaves."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "packs" / "mini"
SERVER = [sys.executable, "-m", "tb_env.cli.commands", "--pack", str(MINI), "mcp", "--task", "mini/deposit-001"]


def _wait_for(path: Path, seconds: float) -> float:
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        if path.exists():
            return time.monotonic() - t0
        time.sleep(0.02)
    raise AssertionError(f"{path} was not written within {seconds}s")


def test_python_sdk_client_plays_the_task_and_the_state_is_graded(tmp_path):
    import asyncio

    from mcp import Client, StdioServerParameters

    result = tmp_path / "result.json"

    async def main() -> tuple[list[str], str, str]:
        params = StdioServerParameters(command=SERVER[0], args=[*SERVER[1:], "--result", str(result)])
        async with Client(params) as client:
            tools = [t.name for t in (await client.list_tools()).tools]
            prompt = await client.get_prompt("task")
            call = await client.call_tool("deposit", {"account_id": "A-001", "amount": 100})
            return tools, prompt.messages[1].content.text, call.content[0].text

    tools, prompt, text = asyncio.run(main())
    assert "deposit" in tools and "end_conversation" in tools
    assert prompt == "Customer: Please deposit 100 into account A-001."
    assert json.loads(text)["balance"] == 350.0
    _wait_for(result, 5)
    out = json.loads(result.read_text())
    assert out["reward"] == 1.0 and out["graded_on"] == "state" and out["tool_calls"] == 1
    assert out["check"]["state_match"] is True


def test_sigterm_writes_the_result_within_a_second(tmp_path):
    result = tmp_path / "result.json"
    proc = subprocess.Popen([*SERVER, "--result", str(result)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    proc.stdin.write((json.dumps(init) + "\n").encode())
    proc.stdin.flush()
    assert b'"result"' in proc.stdout.readline()  # the server is up and serving
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=10)
    written = _wait_for(result, 1.0)
    assert time.monotonic() - t0 < 1.5 and written < 1.0
    out = json.loads(result.read_text())
    assert out["reward"] == 0.0 and out["tool_calls"] == 0  # nothing was done: the state is wrong


def _ts_sdk() -> Path | None:
    """The official TypeScript MCP SDK from npm, installed once into a cache folder."""
    if not shutil.which("node") or not shutil.which("npm"):
        return None
    cache = Path(os.environ.get("TB_TEST_CACHE", Path.home() / ".cache" / "tb-env-tests")) / "ts-mcp"
    if not (cache / "node_modules" / "@modelcontextprotocol" / "sdk").exists():
        cache.mkdir(parents=True, exist_ok=True)
        (cache / "package.json").write_text('{"name": "tb-env-ts-mcp-test", "private": true, "type": "module"}')
        done = subprocess.run(["npm", "install", "--silent", "@modelcontextprotocol/sdk@1"], cwd=cache,
                              capture_output=True, timeout=300)
        if done.returncode != 0:
            return None
    return cache


@pytest.mark.slow
def test_typescript_sdk_client_plays_the_task(tmp_path):
    cache = _ts_sdk()
    if cache is None:
        pytest.skip("node/npm or the npm registry is not available for the TypeScript MCP SDK")
    script = cache / "mcp_client.mjs"
    shutil.copy(ROOT / "tests" / "ts" / "mcp_client.mjs", script)
    result = tmp_path / "result.json"
    run = subprocess.run(["node", str(script), sys.executable, str(MINI), "mini/deposit-001", str(result)],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert "deposit" in seen["tools"] and json.loads(seen["result"])["balance"] == 350.0
    _wait_for(result, 3)
    assert json.loads(result.read_text())["reward"] == 1.0
