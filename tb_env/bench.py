"""`tb-env bench`: what an episode costs, each figure beside a baseline from the same run.

For the retail domain: p50/p99 of `reset`, one tool call through the env (interpreter,
MCP, tool, transaction), the state check, and a whole oracle episode (reset + golden
calls + check). Baselines: a raw copy of the same template (`sqlite3` backup into a
fresh `:memory:` connection) and a direct Python call of the same tool function on
that copy. The aiosqlite driver is measured on the same tool call for comparison.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from mcp import Client

from tb_env.backends import get_backend
from tb_env.database import SQLiteDatabase
from tb_env.episode import checker_for, make_episode, run_episode
from tb_env.interpret import render_tool_call
from tb_env.policy import OraclePolicy
from tb_env.registry import get_domain, list_tasks
from tb_env.task import Task, ToolCall
from tb_env.toolserver import tool_server

BENCH_DOMAIN = "retail"


def _pct(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000.0


async def _time(fn: Callable[[], Awaitable[Any]], n: int, warmup: int = 20) -> list[float]:
    for _ in range(warmup):
        await fn()
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        await fn()
        out.append(time.perf_counter() - t0)
    return out


def _read_call(task: Task) -> ToolCall:
    """A read tool call from the task's golden path (the first one), to time one call."""
    domain = get_domain(task.domain)
    for call in task.golden_actions:
        if not domain.tools_by_name[call.name].writes:
            return call
    return task.golden_actions[0]


async def measure(samples: int = 300, domain_name: str = BENCH_DOMAIN) -> dict[str, Any]:
    domain = get_domain(domain_name)
    tasks = [t for t in list_tasks(domain_name) if t.golden_actions]
    task = max(tasks, key=lambda t: len(t.golden_actions))
    call = _read_call(task)
    backend = get_backend("sqlite")
    image = backend.image(domain, task)
    template = sqlite3.connect(":memory:", check_same_thread=False)
    template.deserialize(image)

    async def raw_copy() -> None:
        conn = sqlite3.connect(":memory:", isolation_level=None)
        template.backup(conn)
        conn.close()

    # reset: a new episode on the same env set-up (private copy + MCP binding + messages)
    async def reset() -> None:
        ep = make_episode(task)
        await ep.start()
        await ep.close()

    ep = make_episode(task, max_turns=10**9)
    await ep.start()
    text = render_tool_call(call, "hermes")

    async def tool_call() -> None:
        await ep.step(text)

    db = SQLiteDatabase(backend.connect(domain, task), domain.metadata, domain.now)
    tool = domain.tools_by_name[call.name]

    async def direct_call() -> None:
        await tool.fn(db, **tool.validate(call.arguments))

    aio = make_episode(task, backend="aiosqlite", max_turns=10**9)
    await aio.start()

    async def aio_tool_call() -> None:
        await aio.step(text)

    server = tool_server(domain)

    async def mcp_session() -> None:
        # what binding episodes to one long-lived session saves: a session (and its
        # discovery round trip) per episode, as a server-per-episode design would pay
        async with Client(server.server, cache=None) as client:
            await client.list_tools()

    checker = checker_for(backend)
    final = await _final_db(task)

    async def check() -> None:
        await checker.check(domain, task, final, [])

    oracle = OraclePolicy()

    async def episode() -> None:
        result = await run_episode(task, oracle)
        assert result.reward == 1.0, result.check

    figures: dict[str, list[float]] = {}
    for name, fn in [
        ("raw_copy", raw_copy),
        ("reset", reset),
        ("direct_call", direct_call),
        ("tool_call", tool_call),
        ("aiosqlite_tool_call", aio_tool_call),
        ("mcp_session", mcp_session),
        ("check", check),
        ("episode", episode),
    ]:
        figures[name] = await _time(fn, samples)
    for e in (ep, aio):
        await e.close()
    await db.close()
    out: dict[str, Any] = {
        "domain": domain_name,
        "task_id": task.id,
        "golden_calls": len(task.golden_actions),
        "samples": samples,
    }
    for name, values in figures.items():
        out[f"{name}_ms_p50"] = round(_pct(values, 0.5), 4)
        out[f"{name}_ms_p99"] = round(_pct(values, 0.99), 4)
    out["reset_vs_raw_copy"] = round(out["reset_ms_p50"] / out["raw_copy_ms_p50"], 2)
    out["tool_call_vs_direct_call"] = round(out["tool_call_ms_p50"] / out["direct_call_ms_p50"], 2)
    out["aiosqlite_vs_inline_tool_call"] = round(out["aiosqlite_tool_call_ms_p50"] / out["tool_call_ms_p50"], 2)
    out["episodes_per_s_serial"] = round(1000.0 / statistics.median(v * 1000 for v in figures["episode"]), 1)
    return out


async def _final_db(task: Task) -> SQLiteDatabase:
    """A database in the oracle's final state, to time the check on a passing episode."""
    from tb_env.check import replay

    domain = get_domain(task.domain)
    return await replay(domain, get_backend("sqlite"), task, task.golden_actions)  # type: ignore[return-value]


def main(as_json: bool = False, samples: int = 300) -> int:
    out = asyncio.run(measure(samples))
    if as_json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"tb-env bench: domain {out['domain']}, task {out['task_id']} ({out['golden_calls']} golden calls), "
          f"{samples} samples each\n")
    rows = [
        ("reset", "reset"),
        ("one tool call (env step, MCP)", "tool_call"),
        ("state check", "check"),
        ("oracle episode", "episode"),
        ("baseline: raw template copy", "raw_copy"),
        ("baseline: direct tool call", "direct_call"),
        ("tool call on aiosqlite", "aiosqlite_tool_call"),
        ("new MCP session (not paid per episode)", "mcp_session"),
    ]
    print(f"{'':40}{'p50 ms':>10}{'p99 ms':>10}")
    for label, key in rows:
        print(f"{label:40}{out[key + '_ms_p50']:>10.3f}{out[key + '_ms_p99']:>10.3f}")
    print(f"\nreset / raw copy: {out['reset_vs_raw_copy']}x   tool call / direct call: "
          f"{out['tool_call_vs_direct_call']}x   aiosqlite / inline: {out['aiosqlite_vs_inline_tool_call']}x")
    print(f"oracle episodes per second (one at a time): {out['episodes_per_s_serial']}")
    return 0
