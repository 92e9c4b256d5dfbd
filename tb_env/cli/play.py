"""`tb-env play TASK_ID`: be the agent yourself, in the terminal.

Type a reply to talk to the (scripted or LLM) customer, or a tool call as
`tool_name {"arg": "value"}` (or raw `<tool_call>{...}</tool_call>` text); `/tools` lists
the tools, `/policy` prints the policy, `/end` ends the conversation. At the end the
state check runs and prints its verdict and row diff: the fastest way to debug a task.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import gymnasium as gym

from tb_env.domain.registry import get_task


def to_action(line: str, tool_names: set[str]) -> str | None:
    """What a typed line means: a tool call (as hermes text), a reply, or None (a command)."""
    text = line.strip()
    if text == "/end":
        return '<tool_call>{"name": "end_conversation", "arguments": {}}</tool_call>'
    name, _, rest = text.partition(" ")
    if name in tool_names:
        args = rest.strip() or "{}"
        return f'<tool_call>{{"name": {json.dumps(name)}, "arguments": {args}}}</tool_call>'
    return text


def play(task_id: str, read: Callable[[str], str] = input, write: Callable[[str], Any] = print, user: str = "scripted") -> float | None:
    task = get_task(task_id)
    env = gym.make("tb_env/Bench-v0", split=None, user=user)
    try:
        obs, info = env.reset(options={"task_id": task.id})
        names = {t["function"]["name"] for t in info["tools"]}
        write(f"task {task.id} ({len(names)} tools; /tools, /policy, /end)\n")
        write(f"customer: {task.user.first_message}")
        reward: float | None = None
        while True:
            try:
                line = read("you> ")
            except EOFError:
                line = "/end"
            if line.strip() == "/tools":
                for t in info["tools"]:
                    f = t["function"]
                    write(f"  {f['name']}({', '.join(f['parameters'].get('properties', {}))}): {f['description'].splitlines()[0]}")
                continue
            if line.strip() == "/policy":
                write(info["messages"][0]["content"])
                continue
            if not line.strip():
                continue
            obs, reward, terminated, truncated, info = env.step(to_action(line, names))
            for block in obs.split("\n\n") if obs else []:
                write(block)
            if terminated or truncated:
                break
        write(f"\nepisode ended ({info['end_reason']}); reward: {reward}")
        check = info.get("check") or {}
        for f in check.get("failed", []):
            write(f"  failed: {f}")
        for d in check.get("diff", []):
            write(f"  diff: {d}")
        if info.get("infra_error"):
            write(f"  infra error: {info['infra_error']}")
        return reward
    finally:
        env.close()


def main(task_id: str) -> int:
    play(task_id, read=lambda prompt: input(prompt) if sys.stdin.isatty() else _read_piped(prompt))
    return 0


def _read_piped(prompt: str) -> str:
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    print(f"{prompt}{line.rstrip()}")
    return line
