"""ThinkingBox-Bench in tb-env, against files and a server written for these tests.

The fixture (`tests/thinkingbox_fixture/`) has the release's layout: a test list, a
scenario YAML and a test file whose tasks are `!` YAML docstrings (the file raises if it
is ever executed), plus a stdio MCP server built with the official `mcp` SDK that keeps
its database in module globals and implements the three reserved tools, so state leaks
between episodes unless each episode gets a fresh process.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import gymnasium as gym
import pytest

from tb_env.core.episode import run_episode
from tb_env.errors import EvalOnlyTaskError, ServerPackageError, ThinkingBoxDataError
from tb_env.parties.policy import OraclePolicy
from tb_env.thinkingbox import load_release, register_thinkingbox
from tb_env.thinkingbox.client import MCPConnection
from tb_env.thinkingbox.importer import deep_merge
from tb_env.thinkingbox.servers import ServerLauncher, close_forkservers
from tb_env.training.grpo import check_trainable
from tb_env.training.pool import select_pool

FIXTURE = Path(__file__).parent / "thinkingbox_fixture"
DATA = FIXTURE / "data"
SERVERS = str(FIXTURE / "servers")
DOMAIN = "thinkingbox_fake_shop"
CANCEL = f"{DOMAIN}/fake_shop_group1:test_cancel_001"
LOOKUP = f"{DOMAIN}/fake_shop_group1:test_lookup_002"
RUBRIC = f"{DOMAIN}/fake_shop_group1:test_cancel_rubric_003"


def launcher(mode: str = "fork") -> ServerLauncher:
    return ServerLauncher(python=sys.executable, package="tbfake_servers", mode=mode, paths=(SERVERS,))


@pytest.fixture(scope="module")
def release():
    rel = register_thinkingbox(DATA, launcher=launcher())
    yield rel
    close_forkservers()


def noop(task_id: str):
    from tb_env.domain.registry import get_task

    return get_task(task_id).model_copy(update={"golden_actions": []})


# --- importer ------------------------------------------------------------------------------------


def test_importer_reads_tasks_from_the_release_format_without_executing_them():
    rel = load_release(DATA)  # the test file raises at import: reading it must not run it
    assert rel.task_ids == [CANCEL, LOOKUP, RUBRIC]
    by_id = {t.task.id: t for t in rel.tasks}
    cancel = by_id[CANCEL]
    assert cancel.task.eval_only and cancel.task.split == "test"
    assert cancel.task.user.first_message == "Hi, please cancel my order A-1."
    assert "You are Ana" in cancel.task.user.persona
    assert [(a.name, a.arguments) for a in cancel.task.golden_actions] == [
        ("get_order", {"order_id": "A-1"}),
        ("cancel_order", {"order_id": "A-1", "reason": "changed mind"}),
    ]
    # the test's init merges into the scenario's world_state: lists concatenate, sources go local
    assert [r["id"] for r in cancel.config["data_patch"]["orders"]] == ["S-1", "A-1"]
    assert cancel.config["data_patch"]["orders"][1]["created"] == "2025-10-01"  # not a date object
    assert "sources" not in cancel.config and cancel.sources[0]["name"] == "orders_policy.md"
    assert by_id[RUBRIC].task.rubrics == ["Does the agent confirm to the customer that order C-1 was cancelled?"]
    assert by_id[LOOKUP].task.rubrics == []


def test_deep_merge_updates_mappings_and_concatenates_lists():
    base = {"a": {"x": [1], "y": 1, "z": None}, "b": 2}
    assert deep_merge(base, {"a": {"x": [2], "z": {"k": 1}}, "c": 3}) == {
        "a": {"x": [1, 2], "y": 1, "z": {"k": 1}}, "b": 2, "c": 3,
    }
    assert base["a"]["x"] == [1]  # the scenario is not modified


def test_a_missing_data_folder_says_how_to_get_the_release(tmp_path):
    with pytest.raises(ThinkingBoxDataError, match=r"git clone --branch thinkingbox-bench-v1\.0"):
        load_release(tmp_path / "nope")
    with pytest.raises(ThinkingBoxDataError, match=r"testlist_thinkingbox_bench_v1\.yaml"):
        load_release(tmp_path)


# --- episodes through the env --------------------------------------------------------------------


def test_env_lists_the_whitelisted_tools_with_overrides_and_serves_search_policy_locally(release):
    env = gym.make("tb_env/ThinkingBox-v0", data_dir=str(DATA), launcher=launcher())
    try:
        obs, info = env.reset(options={"task_id": CANCEL})
        assert "cancel my order A-1" in obs
        names = [t["function"]["name"] for t in info["tools"]]
        assert names == ["get_order", "cancel_order", "list_orders", "knowledge_base_search_policy", "end_conversation"]
        cancel = next(t["function"] for t in info["tools"] if t["function"]["name"] == "cancel_order")
        assert cancel["description"] == "Cancel an open order. Always record the customer's reason."
        assert "order_id" in cancel["parameters"]["properties"]
        # the server's own search_policy needs Typesense and raises; tb-env's local one answers
        action = {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "knowledge_base_search_policy", "arguments": json.dumps({"query": "cancel an order"})}}]}
        _, reward, terminated, _, info = env.step(action)
        hits = json.loads(info["messages"][-1]["content"])["snippets"]
        assert hits[0]["source"] == "orders_policy.md" and "Cancellations" in hits[0]["text"]
        assert reward == 0.0 and not terminated
        # a tool outside the whitelist is an agent error, not a call to the server
        _, _, _, _, info = env.step('<tool_call>{"name": "internal_admin_reset", "arguments": {}}</tool_call>')
        assert info["tool_errors"] == 1 and "unknown tool" in info["messages"][-1]["content"]
    finally:
        env.close()


def test_oracle_passes_and_doing_nothing_fails_on_tasks_that_change_state(release):
    async def go():
        oracle = [await run_episode(t, OraclePolicy()) for t in (CANCEL, LOOKUP)]
        nothing = [await run_episode(noop(t), OraclePolicy()) for t in (CANCEL, LOOKUP)]
        return oracle, nothing

    oracle, nothing = asyncio.run(go())
    assert [r.reward for r in oracle] == [1.0, 1.0], [r.infra_error or r.check for r in oracle]
    assert nothing[0].reward == 0.0 and nothing[0].check["diff"]  # a write the agent did not make
    assert nothing[1].reward == 1.0  # a read-only task: doing nothing leaves the golden state


def test_a_process_per_episode_grades_the_same(release):
    register_thinkingbox(DATA, launcher=launcher("spawn"))
    try:
        assert asyncio.run(run_episode(CANCEL, OraclePolicy())).reward == 1.0
        assert asyncio.run(run_episode(noop(CANCEL), OraclePolicy())).reward == 0.0
    finally:
        register_thinkingbox(DATA, launcher=launcher())


def test_a_rubric_task_is_skipped_without_a_judge_and_judged_with_one(release):
    result = asyncio.run(run_episode(RUBRIC, OraclePolicy()))
    assert result.reward is None and result.skipped == "no_judge" and result.infra_error is None
    assert result.check["state_match"] is True

    class Judge:
        def __init__(self, answer: bool):
            self.answer = answer

        async def grade(self, task, messages):
            return [self.answer for _ in task.rubrics]

    assert asyncio.run(run_episode(RUBRIC, OraclePolicy(), judge=Judge(True))).reward == 1.0
    assert asyncio.run(run_episode(RUBRIC, OraclePolicy(), judge=Judge(False))).reward == 0.0


def test_forked_episodes_do_not_see_each_others_state(release):
    """Episode 1 patches A-1 and cancels it; episode 2 (another task) must see only its own rows."""
    env = gym.make("tb_env/ThinkingBox-v0", data_dir=str(DATA), launcher=launcher())
    list_orders = '<tool_call>{"name": "list_orders", "arguments": {}}</tool_call>'
    try:
        _, info1 = env.reset(options={"task_id": CANCEL})
        env.step('<tool_call>{"name": "cancel_order", "arguments": {"order_id": "A-1", "reason": "x"}}</tool_call>')
        _, _, _, _, after1 = env.step(list_orders)
        assert json.loads(after1["messages"][-1]["content"]) == ["A-1", "O-BASE", "S-1"]
        _, info2 = env.reset(options={"task_id": LOOKUP})
        assert info2["server_pid"] != info1["server_pid"]
        _, _, _, _, after2 = env.step(list_orders)
        assert json.loads(after2["messages"][-1]["content"]) == ["B-1", "O-BASE", "S-1"]
        _, reward, _, _, _ = env.step('<tool_call>{"name": "get_order", "arguments": {"order_id": "B-1"}}</tool_call>'
                                      '<tool_call>{"name": "end_conversation", "arguments": {}}</tool_call>')
        assert reward == 1.0
    finally:
        env.close()


def test_the_test_server_leaks_state_when_a_process_is_reused(release):
    """The control for the test above: the server really keeps state across inits."""
    async def go():
        conn = await launcher().connect("fake_shop", "test")
        try:
            for rows in (["A-1"], ["B-1"]):
                patch = {"data_patch": {"orders": [{"id": r, "status": "open", "total": 1} for r in rows]}}
                await conn.call_tool("__reserved__init", {"config": patch}, 10)
            return json.loads((await conn.call_tool("list_orders", {}, 10))[0])
        finally:
            await conn.close()

    assert asyncio.run(go()) == ["A-1", "B-1", "O-BASE"]


def test_server_death_mid_episode_is_an_infra_error_never_a_zero(release):
    env = gym.make("tb_env/ThinkingBox-v0", data_dir=str(DATA), launcher=launcher())
    try:
        _, info = env.reset(options={"task_id": CANCEL})
        os.kill(info["server_pid"], signal.SIGKILL)
        _, reward, terminated, _, info = env.step(
            '<tool_call>{"name": "get_order", "arguments": {"order_id": "A-1"}}</tool_call>')
        assert reward is None and terminated
        assert info["infra_error"].startswith("tool_server:")
    finally:
        env.close()
    # and the fork server itself still serves the next episode
    assert asyncio.run(run_episode(CANCEL, OraclePolicy())).reward == 1.0


def test_a_missing_servers_package_says_how_to_install_it():
    async def go():
        bad = ServerLauncher(python=sys.executable, package="no_such_servers_pkg", mode="fork")
        await bad.connect("fake_shop", "test")

    with pytest.raises(ServerPackageError, match=r"pip install .*fastmcp>=3.0,<3.1.*--server-python"):
        asyncio.run(go())
    close_forkservers()


def test_a_closed_connection_reports_an_infra_error():
    from tb_env.errors import ToolServerError

    async def go():
        conn = await launcher().connect("fake_shop", "test")
        await conn.close()
        assert isinstance(conn, MCPConnection)
        await conn.call_tool("list_orders", {}, 5)

    with pytest.raises(ToolServerError):
        asyncio.run(go())


# --- evaluation only -----------------------------------------------------------------------------


def test_training_refuses_thinkingbox_tasks_even_unregistered(release):
    with pytest.raises(EvalOnlyTaskError, match="evaluation-only"):
        check_trainable([CANCEL])
    with pytest.raises(EvalOnlyTaskError):
        check_trainable(["thinkingbox_other_scenario/file:test_x"])
    check_trainable([CANCEL], allow_eval_only=True)


def test_filter_excludes_thinkingbox_tasks(release):
    lines = [{"task_id": CANCEL, "trial": i, "reward": float(i % 2)} for i in range(8)]
    result = select_pool(lines, 0.1, 0.9)
    assert result.kept == [] and result.dropped == {CANCEL: "eval_only"}
    assert select_pool(lines, 0.1, 0.9, allow_eval_only=True).kept == [CANCEL]


def test_eval_cli_runs_the_release_and_the_report_has_its_domain(tmp_path, monkeypatch, capsys):
    from tb_env.cli.commands import main
    from tb_env.evaluation.report import build_report
    from tb_env.evaluation.results import read_lines

    monkeypatch.setenv("TB_THINKINGBOX_PACKAGE", "tbfake_servers")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([SERVERS, os.environ.get("PYTHONPATH", "")]))
    out = tmp_path / "tb.jsonl"
    try:
        rc = main(["eval", "--thinkingbox", str(DATA), "--server-python", sys.executable, "--policy", "oracle",
                   "--trials", "2", "--concurrency", "2", "--quiet", "--out", str(out)])
    finally:
        close_forkservers()
        register_thinkingbox(DATA, launcher=launcher())
    assert rc == 0
    lines = read_lines(out)
    assert sorted({ln["task_id"] for ln in lines}) == sorted([CANCEL, LOOKUP, RUBRIC]) and len(lines) == 6
    assert {ln["task_id"]: ln["skipped"] for ln in lines}[RUBRIC] == "no_judge"
    report = build_report(lines)
    text = json.dumps(report)
    assert DOMAIN in text
    assert main(["report", str(out)]) == 0
    assert DOMAIN in capsys.readouterr().out


def test_the_env_passes_gymnasiums_env_checker(release):
    from gymnasium.utils.env_checker import check_env

    from tb_env.thinkingbox.env import ThinkingBoxEnv

    env = ThinkingBoxEnv(data_dir=DATA, launcher=launcher())
    try:
        check_env(env, skip_render_check=True)
    finally:
        env.close()


def test_env_without_a_data_dir_says_where_to_get_it():
    with pytest.raises(ThinkingBoxDataError, match="data_dir="):
        gym.make("tb_env/ThinkingBox-v0")


def _children(pid: int) -> set[int]:
    out = set()
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.add(int(d.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_concurrent_episodes_get_their_own_processes_and_nothing_outlives_the_fork_server():
    from tb_env.thinkingbox.servers import forkserver

    close_forkservers()
    rel = register_thinkingbox(DATA, launcher=launcher())
    try:
        async def go():
            return await asyncio.gather(*(run_episode(t, OraclePolicy()) for t in rel.task_ids[:2] * 3))

        results = asyncio.run(go())
        assert [r.reward for r in results] == [1.0] * 6
        fs = forkserver(sys.executable, "tbfake_servers.mcp_fake_shop", (SERVERS,))
        assert fs.proc is not None and fs.forks == 6
        spares = _children(fs.proc.pid)
        assert spares  # children forked in advance, waiting for the next episode
    finally:
        close_forkservers()
    import time

    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(Path(f"/proc/{p}").exists() for p in spares):
        time.sleep(0.05)
    assert not any(Path(f"/proc/{p}").exists() for p in spares)


def test_policy_search_is_served_locally_under_either_name_the_scenarios_use():
    from tb_env.thinkingbox.domain import PolicySearch, ThinkingBoxDomain
    from tb_env.thinkingbox.importer import Scenario

    for name in ("knowledge_base_search_policy", "search_policy"):
        sc = Scenario("s", {"srv": {}}, [{"name": "get_order"}, {"name": name}], "policy")
        dom = ThinkingBoxDomain.from_scenario(sc, [], launcher())
        assert list(dom.local_tools) == [name]
    index = PolicySearch([{"name": "a.md", "snippets": ["refunds take five days", "cancel while open"]}])
    assert [h["text"] for h in index.search("how do I cancel", 3)] == ["cancel while open"]


def test_a_failed_server_init_is_an_infra_error(release):
    from tb_env.domain.registry import get_domain

    dom = get_domain(DOMAIN)
    saved = dom.configs[CANCEL]
    dom.configs[CANCEL] = {**saved, "fail_init": True}
    try:
        result = asyncio.run(run_episode(CANCEL, OraclePolicy()))
    finally:
        dom.configs[CANCEL] = saved
    assert result.reward is None and "data patch failed" in result.infra_error
