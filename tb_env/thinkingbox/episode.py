"""An episode on a ThinkingBox server: the same `Episode`, with tools and reward external.

What changes from tb-env's SQL episode, and nothing else: `start` takes a fresh server
process (forked per episode) and sends it the task's `__reserved__init` config; tool
calls go to that server (or to a domain's local replacement tool); the reward is the
release's check, from `__reserved__geteffects`: the final database hash must equal the
hash the server gets by replaying the golden calls, and, for rubric tasks, every yes/no
question must be answered yes by the judge (without one the task is skipped, never
scored). A server that dies or stops answering is an infrastructure error.
"""

from __future__ import annotations

import itertools
import json
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from tb_env.core.check import AssertionResult, CheckResult
from tb_env.core.episode import Episode, render
from tb_env.core.toolserver import ToolOutcome
from tb_env.domain.tool import END_CONVERSATION, END_CONVERSATION_SCHEMA
from tb_env.errors import InfraError, ToolServerError
from tb_env.thinkingbox.client import MCPConnection

if TYPE_CHECKING:  # the domain names this class as its episode type, so it imports us
    from tb_env.thinkingbox.domain import ThinkingBoxDomain

INIT_TIMEOUT_S = 120.0
EFFECTS_TIMEOUT_S = 300.0  # the server replays the golden calls on a second database
MAX_DIFF_LINES = 20


def _openai(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": description, "parameters": schema}}


def diff_lines(diff: list[Any]) -> list[str]:
    """The server's row diff, one readable line per difference (the first few)."""
    lines = []
    for d in diff[:MAX_DIFF_LINES]:
        if isinstance(d, dict):
            res = json.dumps(d.get("result"), ensure_ascii=False, default=str)[:300]
            gold = json.dumps(d.get("golden"), ensure_ascii=False, default=str)[:300]
            lines.append(f"{d.get('path', '?')} ({d.get('type', '?')}): result={res} golden={gold}")
        else:
            lines.append(str(d)[:600])
    if len(diff) > MAX_DIFF_LINES:
        lines.append(f"... and {len(diff) - MAX_DIFF_LINES} more difference(s)")
    return lines


@dataclass
class ThinkingBoxEpisode(Episode):
    def __post_init__(self) -> None:
        self.id = uuid.uuid4().hex
        self.db = None
        self.binding = None
        self.conn: MCPConnection | None = None
        self._schemas: dict[str, dict[str, Any]] = {}
        self._call_ids = itertools.count()

    @property
    def started(self) -> bool:
        return self.conn is not None

    async def start(self) -> tuple[str, dict[str, Any]]:
        dom = cast("ThinkingBoxDomain", self.domain)
        assert dom.launcher is not None
        self.conn = await dom.launcher.connect(dom.server, f"{dom.server} server")
        text, is_error = await self.conn.call_tool(
            "__reserved__init", {"config": dom.configs.get(self.task.id, {})}, INIT_TIMEOUT_S
        )
        reply = _json_or_none(text)
        if is_error or (isinstance(reply, dict) and reply.get("status") == "error"):
            why = reply.get("message") if isinstance(reply, dict) else None
            raise ToolServerError(f"__reserved__init failed: {str(why or text)[:500]}")
        if dom.listed_tools is None:
            dom.listed_tools = {t["name"]: t for t in await self.conn.list_tools()}
        listed = dom.listed_tools
        self.tools, self._schemas = [], {}
        for name in dom.whitelist:
            local = dom.local_tools.get(name)
            if local is not None:
                desc, schema = local.description, local.input_schema
            elif name in listed:
                desc, schema = listed[name].get("description") or "", listed[name].get("inputSchema") or {}
            else:
                continue  # whitelisted, but the server has no such tool: nothing to offer
            self.tools.append(_openai(name, dom.descriptions.get(name, desc), schema))
            self._schemas[name] = schema
        end = END_CONVERSATION_SCHEMA
        self.tools.append(_openai(END_CONVERSATION, end["description"], end["input_schema"]))
        self.messages = [
            {"role": "system", "content": dom.policy},
            {"role": "user", "content": self.task.user.first_message},
        ]
        info = self.info()
        info["server"] = dom.server
        info["server_pid"] = self.conn.pid
        return render(self.messages), info

    async def _call_tool(self, name: str, args: dict[str, Any]) -> ToolOutcome:
        dom = cast("ThinkingBoxDomain", self.domain)
        assert self.conn is not None
        if name == END_CONVERSATION:
            return ToolOutcome("The conversation has ended.")
        if name not in self._schemas:
            return ToolOutcome(
                f"Error: unknown tool {name!r}. Available tools: {', '.join([*self._schemas, END_CONVERSATION])}.",
                is_error=True,
            )
        local = dom.local_tools.get(name)
        if local is not None:
            return ToolOutcome(await local.run({"sources": dom.sources.get(self.task.id, [])}, args))
        text, is_error = await self.conn.call_tool(name, args, self.tool_timeout_s)
        return ToolOutcome(text, is_error=is_error)

    async def _grade(self) -> float | None:
        if self.infra_error:
            return None
        assert self.conn is not None
        try:
            text, is_error = await self.conn.call_tool("__reserved__geteffects", {}, EFFECTS_TIMEOUT_S)
            effects = _json_or_none(text)
            if is_error or not isinstance(effects, dict) or effects.get("status") == "error":
                why = effects.get("message") if isinstance(effects, dict) else text[:500]
                raise ToolServerError(f"__reserved__geteffects failed: {why}")
            result_hash, golden_hash = effects.get("result_db_hash"), effects.get("golden_db_hash")
            state_match = result_hash is not None and result_hash == golden_hash
            diff = [] if state_match else diff_lines(effects.get("diff") or [])
            if not state_match and not diff:
                diff = ["final database hash differs from the golden hash"]
            judge = self.checker.judge
            if self.task.rubrics and judge is None:
                self.check = CheckResult(None, state_match, diff, [], skipped="no_judge")
                return None
            results = []
            passed = state_match
            if self.task.rubrics:
                assert judge is not None
                verdicts = await judge.grade(self.task, self.messages)
                results = [AssertionResult("rubric", ok, q) for q, ok in zip(self.task.rubrics, verdicts, strict=True)]
                passed = passed and all(verdicts)
            self.check = CheckResult(1.0 if passed else 0.0, state_match, diff, results)
        except InfraError as exc:
            self.infra_error = f"{exc.cause}: {exc}"
            return None
        return self.check.reward

    async def close(self) -> None:
        if self.conn is not None:
            conn, self.conn = self.conn, None
            await conn.close()


def _json_or_none(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None
