"""`tb-env probe TASK_ID --reply TEXT`: grade one alternative agent in one line.

An auditor's question is always "would this other way of solving it score what it
should?". This runs the golden calls (or the first N of them, none, or calls from a JSON
file) and then your reply through the real env, the deterministic user and the state
check, and prints the reward and why: no scripting, no terminal session.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tb_env.core.episode import run_episode
from tb_env.domain.registry import get_task
from tb_env.domain.task import ToolCall
from tb_env.errors import ConfigError
from tb_env.kit.probes import ScriptPolicy


def plan_for(task_id: str, replies: list[str], calls: str = "golden", upto: int | None = None) -> list[ToolCall | str]:
    """The probe's plan: the chosen calls, then each reply in turn.

    `calls` is `golden`, `none` or a JSON file holding a list of `{"name", "arguments"}`
    (a reply may stand in that list as a plain string, said at that point)."""
    task = get_task(task_id)
    if calls == "golden":
        steps: list[ToolCall | str] = list(task.golden_actions)
    elif calls == "none":
        steps = []
    else:
        path = Path(calls)
        if not path.is_file():
            raise ConfigError(f"--calls: {calls!r} is neither 'golden', 'none' nor a JSON file")
        try:
            raw = json.loads(path.read_text())
        except json.JSONDecodeError as exc:
            raise ConfigError(f"--calls {calls}: not JSON ({exc})") from exc
        if not isinstance(raw, list):
            raise ConfigError(f"--calls {calls}: expected a JSON list of calls and replies")
        steps = [s if isinstance(s, str) else ToolCall.model_validate(s) for s in raw]
    if upto is not None:
        steps = steps[:upto]
    return [*steps, *replies]


def probe(task_id: str, replies: list[str], calls: str = "golden", upto: int | None = None, backend: str = "sqlite") -> dict[str, Any]:
    """Run the plan and return the reward, what failed, the diff and the conversation."""
    task = get_task(task_id)
    plan = plan_for(task_id, replies, calls, upto)
    # the golden calls come with the questions the policy requires before them; a plan of your own is said as written
    result = asyncio.run(run_episode(task, ScriptPolicy(plan, asks=calls == "golden"), backend=backend, max_turns=len(plan) + 10))
    check = result.check or {}
    return {
        "task_id": task.id,
        "reward": result.reward,
        "failed": check.get("failed", []),
        "diff": check.get("diff", []),
        "end_reason": result.end_reason,
        "infra_error": result.infra_error,
        "messages": [{"role": m["role"], "content": _said(m)} for m in result.messages if m["role"] != "system"],
    }


def _said(message: dict[str, Any]) -> str:
    """A message's text, or for an assistant's tool calls the calls themselves."""
    calls = [f"{c['function']['name']}({c['function']['arguments']})" for c in message.get("tool_calls") or []]
    return " ".join(filter(None, [message.get("content") or "", *calls]))


def main(task_id: str, replies: list[str], calls: str, upto: int | None, as_json: bool, show: bool) -> int:
    out = probe(task_id, replies, calls, upto)
    if as_json:
        print(json.dumps(out, indent=2))
        return 0
    if show:
        for m in out["messages"]:
            print(f"{m['role']:>9}: {m['content'][:400]}")
        print()
    print(f"{out['task_id']}: reward {out['reward']} (ended by {out['end_reason']})")
    for f in out["failed"]:
        print(f"  failed: {f}")
    for d in out["diff"][:10]:
        print(f"  diff: {d}")
    if out["infra_error"]:
        print(f"  infra error: {out['infra_error']}")
    return 0
