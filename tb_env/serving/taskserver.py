"""`tb-env mcp --task ID`: one episode's tools as a stdio MCP server, for any MCP client.

An IDE assistant, the TypeScript SDK or the MCP Inspector can then play the agent on a
task. The task's policy and the customer's first message are offered as the MCP prompt
`task`. When the client disconnects (stdin closes) or the process gets SIGTERM, the
state check runs and its result is written to `--result FILE` as JSON, within a second
(clients such as the TypeScript SDK kill the server about 2 s after closing).

There is no conversation here, only tool calls, so a task whose response assertions
need a reply to the customer is graded on its state (and its other assertions) alone,
and the result says so (`graded_on: "state"`).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from tb_env.backends import get_backend
from tb_env.core.episode import checker_for
from tb_env.core.toolserver import ToolServer
from tb_env.domain.registry import get_domain, get_task

EPISODE = "stdio"


async def serve_task(task_id: str, backend: str = "sqlite", result_path: str | None = None) -> dict[str, Any]:
    from mcp.server.stdio import stdio_server

    task = get_task(task_id)
    domain = get_domain(task.domain)
    be = get_backend(backend)
    db = await be.open(domain, task)
    server = ToolServer(domain, default_episode=EPISODE, task=task)
    binding = server.bind(EPISODE, db)
    finished: dict[str, Any] = {}

    async def finish() -> dict[str, Any]:
        if not finished:
            infra = binding.infra_error
            if infra is None and binding.in_flight:
                infra = f"tool_server: {binding.in_flight} tool call(s) still running when the session ended"
            if infra:  # a tool failed (or hung) for the environment's reasons: not the agent's score
                finished.update({"task_id": task_id, "reward": None, "graded_on": "none", "note": None,
                                 "infra_error": infra, "tool_calls": binding.calls, "check": None})
            else:
                finished.update(await grade(task_id, domain, task, be, db, binding.calls))
            if result_path:
                tmp = Path(result_path + ".tmp")
                tmp.write_text(json.dumps(finished, indent=1, default=str))
                os.replace(tmp, result_path)
            await be.close(db)
        return finished

    async def on_sigterm() -> None:
        # grade first: the stdio reader may be blocked on a stdin the client never closes
        out = await finish()
        print(json.dumps({"reward": out["reward"], "graded_on": out["graded_on"]}), file=sys.stderr, flush=True)
        os._exit(0)

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(on_sigterm()))
    try:
        async with stdio_server() as (read, write):
            await server.server.run(read, write, server.server.create_initialization_options())
    finally:
        await finish()
    return finished


async def grade(task_id: str, domain: Any, task: Any, backend: Any, db: Any, calls: int) -> dict[str, Any]:
    check = await checker_for(backend).check(domain, task, db, [])
    needs_reply = any(a.kind == "response_contains" for a in task.assertions)
    others = [a for a in check.assertions if a.kind != "response_contains"]
    if check.skipped:
        reward = None
    elif needs_reply:
        reward = 1.0 if check.state_match and all(a.passed for a in others) else 0.0
    else:
        reward = check.reward
    return {
        "task_id": task_id,
        "reward": reward,
        "graded_on": "state" if needs_reply else "state_and_assertions",
        "note": "response assertions need a reply to the customer, which MCP tools cannot carry; not graded"
        if needs_reply
        else None,
        "tool_calls": calls,
        "check": check.to_dict(),
    }


def main(task_id: str, backend: str, result: str | None) -> int:
    out = asyncio.run(serve_task(task_id, backend, result))
    print(json.dumps({"reward": out["reward"], "graded_on": out["graded_on"]}), file=sys.stderr)
    return 0
