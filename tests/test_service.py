"""`tb-env serve` (a subprocess on loopback) and `RemoteEnv`: the same episodes over HTTP and MCP."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import tb_env
from tb_env.serving.remote import RemoteEnv

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "test-token-123"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tb_env.cli.commands", "--pack", str(ROOT / "tests" / "packs" / "mini"), "serve",
         "--port", str(port), "--token", TOKEN],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    import httpx2

    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            if httpx2.get(url + "/health", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=1).status_code == 200:
                break
        except httpx2.HTTPError:
            time.sleep(0.2)
    else:
        proc.kill()
        raise RuntimeError("tb-env serve did not start: " + proc.stderr.read().decode()[-2000:])
    yield url
    proc.terminate()
    proc.wait(timeout=20)


def _get(url: str, token: str | None = TOKEN) -> tuple[int, dict]:
    import httpx2

    r = httpx2.get(url, headers={"Authorization": f"Bearer {token}"} if token else {}, timeout=30)
    return r.status_code, r.json()


CALL = '<tool_call>{"name": "deposit", "arguments": {"account_id": "A-001", "amount": 100}}</tool_call>'
END = '<tool_call>{"name": "end_conversation", "arguments": {}}</tool_call>'


def test_requests_without_the_token_are_refused(server):
    assert _get(server + "/health", token=None)[0] == 401
    assert _get(server + "/health", token="wrong")[0] == 401
    status, body = _get(server + "/health")
    assert status == 200 and body["status"] == "ok"


def test_remote_env_runs_the_oracle_and_a_wrong_path(server, mini):
    env = RemoteEnv(server, token=TOKEN, domain="mini")
    obs, info = env.reset(options={"task_id": "mini/deposit-001"})
    assert "Please deposit 100" in obs and {t["function"]["name"] for t in info["tools"]} >= {"deposit"}
    env.step(CALL)
    _, reward, term, _, info = env.step("Your balance is now 350.")  # handled: the customer leaves
    assert (reward, term) == (1.0, True) and info["check"]["state_match"]
    env.reset(options={"task_id": "mini/deposit-001"})
    _, reward, term, _, _ = env.step("I cannot help.")  # a refusal: the customer accepts and leaves
    assert term and reward == 0.0
    env.close()
    env.close()


def test_remote_env_passes_check_env(server, mini):
    from gymnasium.utils.env_checker import check_env

    env = RemoteEnv(server, token=TOKEN, domain="mini")
    check_env(env, skip_render_check=True)
    env.close()


def test_mcp_clients_reach_the_same_episode_over_streamable_http(server, mini):
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    env = RemoteEnv(server, token=TOKEN, domain="mini")
    env.reset(options={"task_id": "mini/deposit-001"})
    env.step(CALL)  # a write through the HTTP API ...

    async def main() -> tuple[list[str], str]:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}", "X-TB-Episode": env.episode_id})
        async with Client(streamable_http_client(server + "/mcp", http_client=http)) as client:
            tools = [t.name for t in (await client.list_tools()).tools]
            result = await client.call_tool("get_account", {"account_id": "A-001"})
            return tools, result.content[0].text

    tools, text = asyncio.run(main())
    assert "deposit" in tools and json.loads(text)["balance"] == 350.0  # ... seen through MCP
    env.close()


def test_another_clients_episode_id_is_refused_and_closed_episodes_vanish(server, mini):
    import httpx2

    h = {"Authorization": f"Bearer {TOKEN}"}
    assert httpx2.get(server + "/episodes/" + "0" * 32, headers=h).status_code == 404
    env = RemoteEnv(server, token=TOKEN, domain="mini")
    env.reset(options={"task_id": "mini/deposit-001"})
    eid = env.episode_id
    assert len(eid) == 32 and httpx2.get(f"{server}/episodes/{eid}", headers=h).status_code == 200
    env.close()
    assert httpx2.get(f"{server}/episodes/{eid}", headers=h).status_code == 404
    bad = httpx2.post(server + "/episodes", headers=h, json={"task_id": "mini/nope"})
    assert bad.status_code == 404 and bad.json()["error"] == "unknown_task"
    bad = httpx2.post(server + "/episodes", headers=h, content=b"{not json")
    assert bad.status_code == 400


def test_an_unreachable_server_is_an_infra_error_on_step(mini):
    env = RemoteEnv("http://127.0.0.1:9", domain="mini", timeout_s=2)
    with pytest.raises(tb_env.errors.InfraError):
        env.reset(options={"task_id": "mini/deposit-001"})
    env.episode_id = "0" * 32  # as if the server died mid-episode
    _, reward, term, _, info = env.step("hello")
    assert term and reward is None and info["infra_error"].startswith("remote:")


def test_openapi_contract_holds_under_schemathesis(server):
    import schemathesis
    from hypothesis import HealthCheck, given, settings

    schema = schemathesis.openapi.from_url(server + "/openapi.json", headers={"Authorization": f"Bearer {TOKEN}"})
    failures = []

    def run(op):
        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(case=op.as_strategy())
        def check(case):
            response = case.call(headers={"Authorization": f"Bearer {TOKEN}"})
            try:
                case.validate_response(response)
            except AssertionError as exc:
                failures.append(f"{op.label}: {str(exc)[:300]}")
            assert response.status_code < 500 or response.status_code == 503, response.text

        check()

    for result in schema.get_all_operations():
        run(result.ok())
    assert failures == []


@pytest.mark.slow
def test_the_service_holds_a_thousand_concurrent_episodes(server, mini):
    import httpx2

    async def main() -> list[float | None]:
        limits = httpx2.Limits(max_connections=200)
        async with httpx2.AsyncClient(base_url=server, headers={"Authorization": f"Bearer {TOKEN}"}, limits=limits, timeout=300) as c:
            made = await asyncio.gather(*(c.post("/episodes", json={"task_id": "mini/deposit-001"}) for _ in range(1000)))
            ids = [r.json()["episode_id"] for r in made]
            health = (await c.get("/health")).json()
            assert health["episodes"] >= 1000
            await asyncio.gather(*(c.post(f"/episodes/{e}/step", json={"action": CALL}) for e in ids))
            # the balance told: the customer's request is handled and it leaves, which ends the episode
            ends = await asyncio.gather(*(c.post(f"/episodes/{e}/step", json={"action": "Balance 350."}) for e in ids))
            await asyncio.gather(*(c.delete(f"/episodes/{e}") for e in ids))
            return [r.json()["reward"] for r in ends]

    rewards = asyncio.run(main())
    assert rewards == [1.0] * 1000
