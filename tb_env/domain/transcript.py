"""Reading an episode's messages (OpenAI chat format): the tool trace and the agent's answer.

The check (reply facts, must-not-disclose, call-order assertions) and the deterministic
user (has my request been handled?) read a conversation the same way, from the messages
alone: an assistant message's `tool_calls` paired with the `tool` messages that answer
them, a result starting with `Error:` being a failed call.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tb_env.domain.tool import END_CONVERSATION

ENV_NAME = "environment"  # user-role messages the environment itself adds (parse-error feedback)
STOP = "###STOP###"  # a user simulator ends the conversation by saying this


@dataclass(frozen=True)
class TracedCall:
    name: str
    arguments: dict[str, Any]
    ok: bool  # the tool answered without an error
    result: str
    index: int  # position of the calling assistant message in `messages`


def tool_trace(messages: list[dict[str, Any]]) -> list[TracedCall]:
    """Every tool call the agent made, in order, with whether it succeeded."""
    results = {m.get("tool_call_id"): m.get("content") or "" for m in messages if m.get("role") == "tool"}
    out = []
    for i, m in enumerate(messages):
        if m.get("role") != "assistant":
            continue
        for tc in m.get("tool_calls") or []:
            fn = tc.get("function") or {}
            args = fn.get("arguments")
            if isinstance(args, str):
                try:
                    args = json.loads(args)
                except ValueError:
                    args = {}
            result = results.get(tc.get("id"), "")
            out.append(TracedCall(str(fn.get("name")), args if isinstance(args, dict) else {}, not result.startswith("Error"), result, i))
    return out


def _acts(message: dict[str, Any]) -> bool:
    """An assistant message that calls a tool other than the end tool."""
    return any((tc.get("function") or {}).get("name") != END_CONVERSATION for tc in message.get("tool_calls") or [])


def agent_texts(messages: list[dict[str, Any]], scope: str = "any") -> list[str]:
    """What the agent said in words, within `scope`: `any` (every assistant message),
    `final` (the last one) or `answer` (everything after its last tool call, the end tool
    aside: the text that goes with the end tool counts)."""
    said = [(i, m) for i, m in enumerate(messages) if m.get("role") == "assistant"]
    if scope == "final":
        said = said[-1:]
    elif scope == "answer":
        last_act = max((i for i, m in said if _acts(m)), default=-1)
        said = [(i, m) for i, m in said if i > last_act]
    return [m.get("content") or "" for _, m in said if m.get("content")]


def customer_lines(messages: list[dict[str, Any]]) -> list[str]:
    """What the customer said (the environment's own notes left out)."""
    return [m.get("content") or "" for m in messages if m.get("role") == "user" and m.get("name") != ENV_NAME]


def matches(call: TracedCall, name: str, arguments: dict[str, Any]) -> bool:
    """`call` is a call of `name` whose arguments include `arguments` (trimmed, case-folded)."""
    if call.name != name:
        return False
    return all(_same(call.arguments.get(k), v) for k, v in arguments.items())


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool):
        return abs(float(a) - float(b)) < 1e-9
    return str(a).strip().casefold() == str(b).strip().casefold()
