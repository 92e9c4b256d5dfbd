"""Tool-server faults end as `infra_error` with no reward, never as a 0 or a 1.

In-process (the MCP server in the env's own loop), through `tb-env serve` + `RemoteEnv`,
and through `tb-env mcp --task`: a tool that raises, hangs, returns text no transport
can carry, or takes its server process down with it."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess

import pytest

import tb_env
from tb_env.core.episode import drive
from tb_env.parties.interpret import render_tool_call
from tb_env.serving.remote import RemoteEnv

from .conftest import FAULTY, MINI, cli, env


def call(name: str, **arguments) -> str:
    return render_tool_call(tb_env.ToolCall(name=name, arguments=arguments))


def assert_infra(reward, terminated, info, cause: str) -> None:
    assert reward is None, f"an infrastructure failure was scored {reward}"
    assert terminated and info["end_reason"] == "infra_error"
    assert info["infra_error"] and cause in info["infra_error"], info["infra_error"]
    assert "check" not in info or info["check"] is None


# --- in-process -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "cause"),
    [
        (call("deposit_then_explode", account_id="F-002"), "tool_crash: deposit_then_explode: RuntimeError"),
        (call("hang"), "tool_server: tool 'hang' timed out"),
        (call("garbage"), "tool_crash: garbage: malformed result text"),
    ],
    ids=["raises", "hangs", "malformed"],
)
def test_in_process_tool_fault_ends_the_episode_as_infra_error(faulty, action, cause):
    e = tb_env.TBEnv(domain="faulty", tool_timeout_s=2.0)  # ample for the deposit on a loaded machine
    try:
        e.reset(options={"task_id": "faulty/deposit-001"})
        e.step(call("deposit", account_id="F-001", amount=50))  # the golden write: a score of 1 is possible
        obs, reward, terminated, _truncated, info = e.step(action)
        assert_infra(reward, terminated, info, cause)
        assert "\ud800" not in obs
        db = e.episode.db
        row = asyncio.run(db.one("SELECT balance FROM accounts WHERE id = 'F-002'"))
        assert row["balance"] == 200.0  # the exploding tool's write was rolled back
    finally:
        e.close()


def test_in_process_episode_after_a_hung_tool_still_works(faulty):
    e = tb_env.TBEnv(domain="faulty", tool_timeout_s=2.0)
    try:
        e.reset(options={"task_id": "faulty/deposit-001"})
        *_, info = e.step(call("hang"))
        assert info["infra_error"]
        e.reset(options={"task_id": "faulty/deposit-001"})
        e.step(call("deposit", account_id="F-001", amount=50))
        _, reward, *_ = e.step("Done, your balance is now 150.")
        assert reward == 1.0
    finally:
        e.close()


# --- tb-env serve + RemoteEnv ----------------------------------------------------------------------


class Script:
    """A policy that says a fixed list of actions, one per turn."""

    def __init__(self, *actions: str):
        self.actions = actions

    async def act(self, messages, ctx):
        return self.actions[ctx.turn] if ctx.turn < len(self.actions) else call("end_conversation")


@pytest.mark.parametrize(
    ("action", "cause"),
    [
        (call("deposit_then_explode", account_id="F-002"), "tool_crash: deposit_then_explode"),
        (call("garbage"), "tool_crash: garbage"),
        (call("hang"), "remote:"),  # the client's time-out fires before the server's 30 s
    ],
    ids=["raises", "malformed", "hangs"],
)
def test_remote_tool_fault_ends_as_infra_error(service, action, cause):
    _, url = service
    task = tb_env.get_task("faulty/deposit-001")
    remote = RemoteEnv(url, domain="faulty", timeout_s=2.0)
    result = asyncio.run(drive(remote, task, Script(call("deposit", account_id="F-001", amount=50), action)))
    assert result.reward is None and result.infra_error and cause in result.infra_error, result.infra_error


def test_remote_server_killed_mid_episode_is_infra_error_and_nothing_is_scored(service):
    proc, url = service
    remote = RemoteEnv(url, domain="faulty", timeout_s=10.0)
    remote.reset(options={"task_id": "faulty/deposit-001"})
    remote.step(call("deposit", account_id="F-001", amount=50))
    proc.send_signal(signal.SIGKILL)  # the server dies between two steps
    proc.wait()
    _obs, reward, terminated, _, info = remote.step(call("end_conversation"))
    assert reward is None and terminated and info["infra_error"].startswith("remote:")
    with pytest.raises(tb_env.errors.InfraError):
        remote.reset(options={"task_id": "faulty/deposit-001"})


def test_remote_tool_that_kills_its_server_is_infra_error(service):
    proc, url = service
    task = tb_env.get_task("faulty/deposit-001")
    result = asyncio.run(drive(RemoteEnv(url, domain="faulty"), task, Script(call("kill_server"))))
    assert result.reward is None and result.infra_error.startswith("remote:")
    assert proc.wait(timeout=30) == -signal.SIGKILL


# --- tb-env mcp --task -------------------------------------------------------------------------------


def _mcp_server(result) -> list[str]:
    return cli("--pack", str(MINI), "--pack", str(FAULTY), "mcp", "--task", "faulty/deposit-001",
               "--result", str(result))


async def _calls(result, *names: str):
    from mcp import Client, StdioServerParameters

    cmd = _mcp_server(result)
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=env())
    out = []
    async with Client(params) as client:
        for name in names:
            args = {"deposit": {"account_id": "F-001", "amount": 50},
                    "deposit_then_explode": {"account_id": "F-002"}}.get(name, {})
            out.append(await asyncio.wait_for(client.call_tool(name, args), 60))
    return out


def _wait_for(path, seconds=60.0) -> None:
    import time

    t0 = time.monotonic()
    while not path.exists() and time.monotonic() - t0 < seconds:
        time.sleep(0.02)
    assert path.exists(), f"{path} did not appear"


def _wait(path, seconds=30.0):
    import time

    t0 = time.monotonic()
    while not path.exists() and time.monotonic() - t0 < seconds:
        time.sleep(0.05)
    assert path.exists(), f"{path} was not written"
    return json.loads(path.read_text())


@pytest.mark.parametrize("tool", ["garbage", "deposit_then_explode"])
def test_mcp_task_server_tool_fault_is_not_graded(faulty, tmp_path, tool):
    result = tmp_path / "result.json"
    outcomes = asyncio.run(_calls(result, "deposit", tool))  # the golden write first: a 1 was possible
    assert outcomes[-1].is_error
    out = _wait(result)
    assert out["reward"] is None, "a tool failure of the environment was graded"
    assert out["infra_error"].startswith("tool_crash") or out["infra_error"].startswith("tool_server")


def test_mcp_task_server_killed_mid_episode_writes_no_score(faulty, tmp_path):
    result = tmp_path / "result.json"
    with pytest.raises(BaseException):  # noqa: B017 - the transport's own error: the server is gone
        asyncio.run(_calls(result, "deposit", "kill_server", "deposit"))
    assert not result.exists() and not (tmp_path / "result.json.tmp").exists()


def test_mcp_task_server_oracle_still_scores_one(faulty, tmp_path):
    result = tmp_path / "result.json"
    asyncio.run(_calls(result, "deposit"))
    out = _wait(result)
    assert out["reward"] == 1.0 and out.get("infra_error") is None


def test_remote_tool_hung_past_the_servers_time_out_is_infra_error(faulty, mini):
    from .conftest import start_service

    proc, url = start_service("--tool-timeout", "3")  # ample for the deposit before the hang
    try:
        task = tb_env.get_task("faulty/deposit-001")
        remote = RemoteEnv(url, domain="faulty", timeout_s=60.0)  # the server's time-out fires first
        result = asyncio.run(drive(remote, task, Script(call("deposit", account_id="F-001", amount=50), call("hang"))))
        assert result.reward is None and "tool 'hang' timed out" in result.infra_error, result.infra_error
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_mcp_task_server_ended_while_a_tool_hangs_is_not_graded(faulty, tmp_path):
    result = tmp_path / "result.json"
    mark = tmp_path / "in-the-tool"
    proc = subprocess.Popen(_mcp_server(result), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**env(), "TB_FAULTY_HANG_MARK": str(mark)})

    def send(obj) -> None:
        proc.stdin.write((json.dumps(obj) + "\n").encode())
        proc.stdin.flush()

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
    assert b'"result"' in proc.stdout.readline()
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    send({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
          "params": {"name": "deposit", "arguments": {"account_id": "F-001", "amount": 50}}})
    assert b'"result"' in proc.stdout.readline()  # the golden write is done: a 1 was possible
    send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "hang", "arguments": {}}})
    _wait_for(mark)  # the call is in the tool (no answer will come)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    out = _wait(result)
    assert out["reward"] is None and "still running" in out["infra_error"]


class _BrokenService:
    """An HTTP server that creates episodes properly and then answers steps badly."""

    def __init__(self, step_answer: str):
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        answer = step_answer

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.path == "/episodes":
                    body = json.dumps({"episode_id": "e1", "observation": "user: hi",
                                       "info": {"tools": [], "turn": 0, "messages": []}}).encode()
                    self.send_response(201)
                elif answer == "500":
                    body = b"Internal Server Error"
                    self.send_response(500)
                elif answer == "wrong-shape":
                    body = b'{"observation": "x"}'
                    self.send_response(200)
                else:
                    body = b'{"observation": "x", "reward": 1.0, "termin'
                    self.send_response(200)
                self.send_header("Content-Type", "application/json")
                cut = answer == "truncated" and self.path != "/episodes"
                self.send_header("Content-Length", str(len(body) * (2 if cut else 1)))
                self.end_headers()
                self.wfile.write(body)
                self.close_connection = True

            def do_DELETE(self) -> None:
                self.send_response(204)
                self.end_headers()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.mark.parametrize("answer", ["garbage", "truncated", "wrong-shape", "500"])
def test_remote_env_turns_a_garbled_service_answer_into_infra_error(answer):
    server = _BrokenService(answer)
    try:
        remote = RemoteEnv(server.url, task_ids=["x/y"], timeout_s=10.0)
        remote.reset(options={"task_id": "x/y"})
        _, reward, terminated, _, info = remote.step("hello")
        assert reward is None and terminated and info["infra_error"].startswith("remote:"), info
        remote.close()
    finally:
        server.close()
