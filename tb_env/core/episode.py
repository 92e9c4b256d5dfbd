"""One conversation: a private database, the domain's MCP tools, a user, a transcript.

`Episode` is the async core that `TBEnv` wraps: `start()` opens the database copy and
says the user's first message; `step(action)` interprets the agent's output, routes tool
calls over MCP (in order, each with its own result) or hands a plain message to the
user simulator; at the end the state check gives the reward. `run_episode` drives an
episode with a policy, for evaluation.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from tb_env.backends import Backend, get_backend
from tb_env.core.check import Checker, CheckResult, Judge
from tb_env.core.toolserver import Binding, ToolOutcome, ToolServer, call_tool, session, tool_server
from tb_env.domain.database import Database
from tb_env.domain.pack import Domain
from tb_env.domain.registry import get_domain, get_task
from tb_env.domain.task import Task
from tb_env.domain.tool import END_CONVERSATION
from tb_env.errors import ConfigError, InfraError, ToolServerError
from tb_env.parties import interpret
from tb_env.parties.policy import EpisodeContext, Policy, PolicyReply, Usage
from tb_env.parties.user import ENV_NAME, STOP, UserSimulator, make_user

DEFAULT_MAX_TURNS = 50
DEFAULT_TOOL_TIMEOUT_S = 30.0

_checkers: dict[tuple[int, int], Checker] = {}


def checker_for(backend: Backend, judge: Judge | None = None) -> Checker:
    """One checker per (backend, judge), so golden digests are computed once per task."""
    key = (id(backend), id(judge))
    if key not in _checkers:
        _checkers[key] = Checker(backend, judge)
    return _checkers[key]


class EpisodeEndedError(ConfigError):
    """`step` after the episode ended: call reset() first."""


def render(messages: list[dict[str, Any]]) -> str:
    """The observation text of new messages: one block per message, role first."""
    blocks = []
    for m in messages:
        role = m["role"]
        if role == "tool":
            blocks.append(f"tool ({m.get('name', '?')}): {m.get('content', '')}")
        elif role == "user" and m.get("name") == ENV_NAME:
            blocks.append(f"environment: {m.get('content', '')}")
        else:
            blocks.append(f"{role}: {m.get('content') or ''}")
    return "\n\n".join(blocks)


@dataclass
class Episode:
    domain: Domain
    task: Task
    backend: Backend
    user: UserSimulator | None  # None: the user is driven from outside (see `user_says`)
    checker: Checker
    max_turns: int = DEFAULT_MAX_TURNS
    seed: int | None = None
    format: str = "hermes"
    tool_timeout_s: float = DEFAULT_TOOL_TIMEOUT_S

    messages: list[dict[str, Any]] = field(default_factory=list)
    tools: list[dict[str, Any]] = field(default_factory=list)
    turn: int = 0
    tool_calls: int = 0
    parse_errors: int = 0
    tool_errors: int = 0
    done: bool = False
    end_reason: str | None = None
    infra_error: str | None = None
    check: CheckResult | None = None
    usage: Usage = field(default_factory=Usage)
    awaiting_user: bool = False

    def __post_init__(self) -> None:
        self.id = uuid.uuid4().hex
        self.db: Database | None = None
        self.binding: Binding | None = None
        self.server: ToolServer = tool_server(self.domain)
        self._schemas: dict[str, dict[str, Any]] = {}
        self._call_ids = itertools.count()

    # -- life-cycle -----------------------------------------------------------------------
    async def start(self) -> tuple[str, dict[str, Any]]:
        s = await session(self.server)
        self.tools, self._schemas = s.tools, s.schemas
        self.db = await self.backend.open(self.domain, self.task)
        self.binding = self.server.bind(self.id, self.db)
        self.messages = [
            {"role": "system", "content": self.domain.policy},
            {"role": "user", "content": self.task.user.first_message},
        ]
        info = self.info()
        info["backend"] = self.backend.name
        info["db"] = self.db.name
        return render(self.messages), info

    async def close(self) -> None:
        self.server.unbind(self.id)
        if self.db is not None:
            db, self.db = self.db, None
            await self.backend.close(db)

    @property
    def started(self) -> bool:
        return self.db is not None

    def info(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "task_id": self.task.id,
            "domain": self.domain.name,
            "messages": list(self.messages),
            "tools": self.tools,
            "turn": self.turn,
            "tool_calls": self.tool_calls,
            "parse_errors": self.parse_errors,
            "tool_errors": self.tool_errors,
            "mcp_tool_calls": self.binding.calls if self.binding else 0,
            "end_reason": self.end_reason,
            "infra_error": self.infra_error,
        }
        if self.check is not None:
            info["check"] = self.check.to_dict()
            info["skipped"] = self.check.skipped
        return info

    # -- one turn -------------------------------------------------------------------------
    async def step(self, action: str | dict[str, Any]) -> tuple[str, float | None, bool, bool, dict[str, Any]]:
        if self.done:
            raise EpisodeEndedError("This episode has ended; call reset() to start a new one.")
        if not self.started:
            raise EpisodeEndedError("The episode was not started (or was closed); call reset() first.")
        self.turn += 1
        start = len(self.messages)
        try:
            await self._turn(action)
        except InfraError as exc:
            self._end("infra_error", infra=f"{exc.cause}: {exc}")
        if not self.done and self.turn >= self.max_turns:
            self.done, self.end_reason = True, "max_turns"
            truncated = True
        else:
            truncated = False
        reward: float | None = 0.0
        if self.done:
            reward = await self._grade()
        obs = render(self.messages[start + 1 :])  # the new messages, minus the agent's own
        terminated = self.done and not truncated
        return obs, reward, terminated, truncated, self.info()

    async def _turn(self, action: str | dict[str, Any]) -> None:
        parsed = interpret.parse(action, self.format)
        self.parse_errors += len(parsed.errors)
        calls = []
        if isinstance(action, dict):
            ids = [tc.get("id") for tc in action.get("tool_calls") or [] if isinstance(tc, dict)]
        else:
            ids = []
        for i, call in enumerate(parsed.tool_calls):
            cid = ids[i] if i < len(ids) and isinstance(ids[i], str) else f"call_{self.turn}_{next(self._call_ids)}"
            calls.append((cid, call))
        msg: dict[str, Any] = {"role": "assistant", "content": parsed.content or None}
        if isinstance(action, str):  # the model's text as it wrote it, thinking included (`tb_env.parties.chat`)
            msg["raw"] = action
        if calls:
            msg["tool_calls"] = [
                {"id": cid, "type": "function", "function": {"name": c.name, "arguments": _json(c.arguments)}}
                for cid, c in calls
            ]
        self.messages.append(msg)
        ended = False
        for cid, call in calls:
            self.tool_calls += 1
            schema = self._schemas.get(call.name)
            args = interpret.coerce_arguments(call.arguments, schema) if schema else call.arguments
            outcome = await self._call_tool(call.name, args)
            if outcome.infra_error:
                raise ToolServerError(outcome.infra_error)
            self.tool_errors += outcome.is_error
            self.messages.append({"role": "tool", "tool_call_id": cid, "name": call.name, "content": outcome.text})
            ended = ended or (call.name == END_CONVERSATION and not outcome.is_error)
        if parsed.errors:
            self.messages.append(
                {
                    "role": "user",
                    "name": ENV_NAME,
                    "content": "Your last message had malformed tool call(s), which were not run: "
                    + "; ".join(parsed.errors),
                }
            )
        if ended:
            self._end("agent_ended")
        elif not calls and not parsed.errors:
            if self.user is None:
                self.awaiting_user = True  # the user is driven from outside (`user_says`)
            else:
                await self._user_turn()

    async def _call_tool(self, name: str, args: dict[str, Any]) -> ToolOutcome:
        try:
            async with asyncio.timeout(self.tool_timeout_s):
                return await call_tool(self.server, self.id, name, args)
        except TimeoutError:
            raise ToolServerError(f"tool {name!r} timed out after {self.tool_timeout_s}s") from None

    async def _user_turn(self) -> None:
        assert self.user is not None
        self._hear(await self.user.reply(self.task, self.messages, self.seed))

    async def user_says(self, text: str) -> tuple[float | None, bool, dict[str, Any]]:
        """The user's reply when the user is driven from outside (a multi-agent env).

        Returns (reward, done, info); the episode is graded when the user stops."""
        if not self.awaiting_user:
            raise EpisodeEndedError("It is not the user's turn.")
        self.awaiting_user = False
        self._hear(text)
        reward = await self._grade() if self.done else 0.0
        return reward, self.done, self.info()

    def _hear(self, text: str) -> None:
        stop = STOP in text
        text = text.replace(STOP, "").strip()
        if text:
            self.messages.append({"role": "user", "content": text})
        if stop:
            self._end("user_stop")

    def _end(self, reason: str, infra: str | None = None) -> None:
        self.done = True
        self.end_reason = reason
        self.infra_error = infra

    async def truncate(self, reason: str) -> tuple[float | None, dict[str, Any]]:
        """End the episode from outside (a context budget ran out) and grade its final
        state, as a truncation at `max_turns` is graded."""
        if self.done:
            raise EpisodeEndedError("This episode has already ended.")
        self.done, self.end_reason = True, reason
        reward = await self._grade()
        return reward, self.info()

    async def _grade(self) -> float | None:
        if self.infra_error:
            return None
        assert self.db is not None
        try:
            self.check = await self.checker.check(self.domain, self.task, self.db, self.messages)
        except InfraError as exc:  # the check could not run: the episode ends as every infra failure does
            self.infra_error, self.end_reason = f"{exc.cause}: {exc}", "infra_error"
            return None
        return self.check.reward


def _json(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments, ensure_ascii=False, default=str)


# --- running an episode with a policy -----------------------------------------------------------


@dataclass
class EpisodeResult:
    task_id: str
    reward: float | None
    infra_error: str | None
    skipped: str | None
    check: dict[str, Any] | None
    messages: list[dict[str, Any]]
    usage: Usage
    turns: int
    tool_calls: int
    parse_errors: int
    tool_errors: int
    end_reason: str | None
    latency_s: float


def episode_class(domain: Domain) -> type[Episode]:
    """The class that runs `domain`'s episodes: its own where it brings one (ThinkingBox),
    else `Episode`."""
    return domain.episode_type() or Episode


def make_episode(
    task: str | Task,
    *,
    user: str | UserSimulator = "scripted",
    backend: str | Backend = "sqlite",
    max_turns: int = DEFAULT_MAX_TURNS,
    seed: int | None = None,
    judge: Judge | None = None,
    format: str = "hermes",
) -> Episode:
    task = get_task(task) if isinstance(task, str) else task
    be = get_backend(backend)
    domain = get_domain(task.domain)
    return episode_class(domain)(
        domain=domain,
        task=task,
        backend=be,
        user=make_user(user),
        checker=checker_for(be, judge),
        max_turns=max_turns,
        seed=seed,
        format=format,
    )


async def run_episode(
    task_id: str | Task,
    policy: Policy,
    *,
    user: str | UserSimulator = "scripted",
    backend: str | Backend = "sqlite",
    max_turns: int = DEFAULT_MAX_TURNS,
    seed: int | None = None,
    judge: Judge | None = None,
    format: str = "hermes",
) -> EpisodeResult:
    """Run one whole episode of `policy` on a task and grade it."""
    t0 = time.perf_counter()
    ep = make_episode(task_id, user=user, backend=backend, max_turns=max_turns, seed=seed, judge=judge, format=format)
    try:
        try:
            await ep.start()
            while not ep.done:
                ctx = EpisodeContext(ep.task, ep.tools, seed, ep.turn)
                reply = await policy.act(list(ep.messages), ctx)
                if isinstance(reply, PolicyReply):
                    ep.usage.add(reply.usage)
                    reply = reply.action
                await ep.step(reply)
        except InfraError as exc:
            ep.done, ep.end_reason, ep.infra_error = True, "infra_error", f"{exc.cause}: {exc}"
    finally:
        await ep.close()
    check = ep.check
    return EpisodeResult(
        task_id=ep.task.id,
        reward=None if ep.infra_error or check is None else check.reward,
        infra_error=ep.infra_error,
        skipped=check.skipped if check else None,
        check=check.to_dict() if check else None,
        messages=ep.messages,
        usage=ep.usage,
        turns=ep.turn,
        tool_calls=ep.tool_calls,
        parse_errors=ep.parse_errors,
        tool_errors=ep.tool_errors,
        end_reason=ep.end_reason,
        latency_s=time.perf_counter() - t0,
    )


async def drive(env: Any, task: Task, policy: Policy, seed: int | None = None) -> EpisodeResult:
    """Run `policy` through any env with the async TBEnv interface (areset/astep/aclose):
    a `TBEnv`, a `RemoteEnv` or a Ray-placed env. The result is built from the env's
    infos, so it is the same whatever runs the episode."""
    t0 = time.perf_counter()
    usage = Usage()
    info: dict[str, Any] = {"messages": [], "turn": 0}
    try:
        try:
            _, info = await env.areset(seed=seed, options={"task_id": task.id})
            done = False
            while not done:
                ctx = EpisodeContext(task, info["tools"], seed, info["turn"])
                reply = await policy.act(list(info["messages"]), ctx)
                if isinstance(reply, PolicyReply):
                    usage.add(reply.usage)
                    reply = reply.action
                _, _, terminated, truncated, step_info = await env.astep(reply)
                info = {**info, **step_info}
                done = terminated or truncated
        except InfraError as exc:
            info = {**info, "infra_error": f"{exc.cause}: {exc}", "end_reason": "infra_error"}
    finally:
        await env.aclose()
    check = info.get("check")
    infra = info.get("infra_error")
    return EpisodeResult(
        task_id=task.id,
        reward=None if infra or not check else check["reward"],
        infra_error=infra,
        skipped=info.get("skipped"),
        check=check,
        messages=info.get("messages", []),
        usage=usage,
        turns=info.get("turn", 0),
        tool_calls=info.get("tool_calls", 0),
        parse_errors=info.get("parse_errors", 0),
        tool_errors=info.get("tool_errors", 0),
        end_reason=info.get("end_reason"),
        latency_s=time.perf_counter() - t0,
    )
