"""Security: the service binds loopback and enforces tokens and episode ownership; no tool
reaches the host's files or network; packs load only from registered locations; API keys
never reach results or reports."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import httpx2
import pytest

import tb_env
from tb_env.cli.commands import build_parser

from ..openai_server import FakeOpenAI
from ..test_campaign import _oracle_responder
from .conftest import MINI, ROOT, cli, env, start_service

ALICE, BOB = "alice-token-7f3a", "bob-token-91c2"


def _listening_addresses(pid: int, port: int) -> set[str]:
    """Local addresses the process listens on for `port` (from /proc/net/tcp{,6})."""
    out = set()
    for name in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/{pid}/net/{name}").read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            addr, p = local.split(":")
            if state == "0A" and int(p, 16) == port:  # LISTEN
                out.add(addr)
    return out


def test_the_service_binds_loopback_by_default(mini, faulty):
    assert build_parser().parse_args(["serve"]).host == "127.0.0.1"
    proc, url = start_service()
    try:
        port = int(url.rsplit(":", 1)[1])
        assert _listening_addresses(proc.pid, port) == {"0100007F"}  # 127.0.0.1 only
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture(scope="module")
def two_clients():
    tb_env.register_domain(MINI) if "mini" not in tb_env.list_domains() else None
    proc, url = start_service(tokens=(ALICE, BOB))
    yield url
    proc.terminate()
    proc.wait(timeout=20)


def _req(url: str, method: str, path: str, token: str | None, body=None, headers=None):
    h = {"Authorization": f"Bearer {token}".encode()} if token else {}  # bytes: a non-ASCII token too
    h.update(headers or {})
    return httpx2.request(method, url + path, json=body, headers=h, timeout=30)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/health", None),
        ("GET", "/openapi.json", None),
        ("POST", "/episodes", {"task_id": "mini/deposit-001"}),
        ("GET", "/episodes/abc", None),
        ("POST", "/episodes/abc/step", {"action": "hi"}),
        ("DELETE", "/episodes/abc", None),
        ("POST", "/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    ],
)
@pytest.mark.parametrize("token", [None, "wrong", "Bearer", "ålice-token-7f3a"], ids=["none", "wrong", "empty", "non-ascii"])
def test_requests_without_a_valid_token_are_refused(two_clients, method, path, body, token):
    r = _req(two_clients, method, path, token, body)
    assert r.status_code == 401, (r.status_code, r.text[:200])


def test_an_episode_answers_only_to_the_client_that_created_it(two_clients):
    url = two_clients
    r = _req(url, "POST", "/episodes", ALICE, {"task_id": "mini/deposit-001"})
    assert r.status_code == 201
    eid = r.json()["episode_id"]
    assert len(eid) >= 32  # 128 random bits: not guessable
    step = {"action": '<tool_call>{"name": "deposit", "arguments": {"account_id": "A-001", "amount": 100}}</tool_call>'}
    # Bob knows the id, yet the episode does not exist for him
    assert _req(url, "GET", f"/episodes/{eid}", BOB).status_code == 404
    assert _req(url, "POST", f"/episodes/{eid}/step", BOB, step).status_code == 404
    assert _req(url, "DELETE", f"/episodes/{eid}", BOB).status_code == 404
    mcp = _req(url, "POST", "/mcp", BOB,
               {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "deposit", "arguments": {"account_id": "A-001", "amount": 100}}},
               headers={"X-TB-Episode": eid, "Accept": "application/json, text/event-stream",
                        "MCP-Protocol-Version": "2025-06-18"})
    assert mcp.status_code == 200 and mcp.json()["result"]["isError"] is True
    listed = _req(url, "POST", "/mcp", BOB, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                  headers={"X-TB-Episode": eid, "Accept": "application/json, text/event-stream",
                           "MCP-Protocol-Version": "2025-06-18"})
    assert listed.json()["result"]["tools"] == []
    # nothing Bob did reached Alice's episode
    state = _req(url, "GET", f"/episodes/{eid}", ALICE).json()
    assert state["turn"] == 0 and len(state["messages"]) == 2
    r = _req(url, "POST", f"/episodes/{eid}/step", ALICE, step)
    assert r.status_code == 200 and json.loads(r.json()["info"]["messages"][-1]["content"])["balance"] == 350.0
    assert _req(url, "DELETE", f"/episodes/{eid}", ALICE).status_code == 204


def test_packs_load_only_from_registered_locations(tmp_path, two_clients):
    marker = tmp_path / "pwned"
    evil = tmp_path / "evil"
    evil.mkdir()
    (evil / "__init__.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    for task_id in [f"{evil}/x", "../evil/x", f"{tmp_path}/evil/x", "evil/x", "tb_env_packs.evil/x", "os/system"]:
        r = _req(two_clients, "POST", "/episodes", ALICE, {"task_id": task_id})
        assert r.status_code in (400, 404), (task_id, r.status_code)
        with pytest.raises(tb_env.errors.ConfigError):
            tb_env.get_task(task_id)
        with pytest.raises(tb_env.errors.ConfigError):
            tb_env.TBEnv(domain="mini").reset(options={"task_id": task_id})
    assert not marker.exists(), "code of an unregistered pack ran"


AUDIT = textwrap.dedent("""
    import asyncio, json, sys
    FORBIDDEN = ("open", "socket.", "subprocess.", "os.system", "os.exec", "os.posix_spawn", "os.remove",
                 "os.rename", "os.mkdir", "os.rmdir", "shutil.", "urllib.", "http.", "ctypes.", "sqlite3.connect")
    seen = []

    def in_a_tool() -> bool:
        f = sys._getframe(2)
        while f is not None:
            if f.f_code.co_filename.endswith("/tools.py"):
                return True
            f = f.f_back
        return False

    def hook(event, args):
        if event.startswith(FORBIDDEN) and in_a_tool():
            seen.append((event, repr(args)[:200]))

    import tb_env
    step = int(sys.argv[1])
    tasks = tb_env.list_tasks()[::step]
    sys.addaudithook(hook)

    async def main():
        out = []
        for i in range(0, len(tasks), 50):
            out += await asyncio.gather(*(tb_env.run_episode(t, tb_env.OraclePolicy()) for t in tasks[i:i + 50]))
        return out

    results = asyncio.run(main())
    print(json.dumps({"tasks": len(tasks), "passed": sum(r.reward == 1.0 for r in results), "events": seen[:20]}))
""")


@pytest.mark.parametrize("every", [pytest.param(10, id="every-10th-task"),
                                   pytest.param(1, id="every-task", marks=pytest.mark.long)])
def test_no_built_in_tool_touches_the_host_file_system_or_network(every):
    done = subprocess.run([sys.executable, "-c", AUDIT, str(every)], capture_output=True, text=True, timeout=600,
                          env=env(), cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["tasks"] >= 100 and out["passed"] == out["tasks"]
    assert out["events"] == [], f"tools reached the host: {out['events']}"


def test_eval_never_writes_the_api_key(tmp_path, mini):
    key = "sk-tbenv-SECRET-5b7e1c9d0a"
    other = "sk-tbenv-OTHER-77aa31"
    with FakeOpenAI() as server:
        oracle = _oracle_responder(fail_every=5)
        server.responder = lambda body: ({"role": "assistant", "content": "Thanks! ###STOP###"}
                                         if body["model"] == "sim" else oracle(body))
        ids = tmp_path / "ids.txt"
        ids.write_text("mini/deposit-001\n")
        outputs = tmp_path / "out"
        common = ["--pack", str(MINI), "eval", "--policy", "chat", "--model", "fake-model", "--base-url", server.url,
                  "--tasks", str(ids), "--trials", "4", "--retries", "0", "--quiet", "--user-model", "sim",
                  "--user-cache", str(outputs / "users.sqlite"), "--save-trajectories", str(outputs / "traj")]
        outputs.mkdir()
        runs = [
            ({"OPENAI_API_KEY": key}, [*common, "--out", str(outputs / "a.jsonl")]),
            ({"MY_KEY": other, "OPENAI_API_KEY": key}, [*common, "--api-key-env", "MY_KEY", "--out", str(outputs / "b.jsonl")]),
        ]
        for extra, args in runs:
            done = subprocess.run(cli(*args), capture_output=True, text=True, timeout=300, env={**env(), **extra})
            assert done.returncode == 0, done.stderr[-2000:]
            assert key not in done.stdout + done.stderr and other not in done.stdout + done.stderr
        sent = [r for r in server.requests]
    assert sent  # the endpoint was used (and got the key in its header, where it belongs)
    for name in ("a.jsonl", "b.jsonl"):
        rep = subprocess.run(cli("report", str(outputs / name), "--html", str(outputs / f"{name}.html"), "--json"),
                             capture_output=True, text=True, timeout=300, env=env())
        assert rep.returncode == 0, rep.stderr[-2000:]
        assert key not in rep.stdout and other not in rep.stdout
    files = [p for p in outputs.rglob("*") if p.is_file()]
    assert len(files) >= 6
    for p in files:
        data = p.read_bytes()
        assert key.encode() not in data and other.encode() not in data, f"{p} holds an API key"
