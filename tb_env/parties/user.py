"""The simulated customer: the deterministic one (`tb_env.parties.scripted`), or an LLM.

A user simulator answers the agent's plain messages. It sees the conversation in
OpenAI chat format and returns its next message; a reply containing `###STOP###` ends
the episode (the token itself is removed from the transcript). Failures of the
simulator's model endpoint are infrastructure errors (`SimulatorError`), never the
agent's fault.
"""

from __future__ import annotations

import os
import re
from typing import Any, Protocol

from tb_env.domain.task import Task
from tb_env.domain.transcript import ENV_NAME, STOP
from tb_env.errors import ConfigError, SimulatorError
from tb_env.parties.endpoint import call_with_retries, make_client
from tb_env.parties.scripted import ScriptedUser


class UserSimulator(Protocol):
    async def reply(self, task: Task, messages: list[dict[str, Any]], seed: int | None = None) -> str: ...


class LinesUser:
    """Says the task's `scripted_turns` in order, one per agent reply, then stops
    (`user="lines"`): the old fixed-order user, for packs written for it. It cannot answer
    a question, so a cautious agent runs it out of lines; prefer `ScriptedUser`.

    Stateless: the next line is chosen by counting the user messages already said,
    so one instance serves any number of concurrent episodes."""

    async def reply(self, task: Task, messages: list[dict[str, Any]], seed: int | None = None) -> str:
        said = sum(1 for m in messages if m.get("role") == "user" and m.get("name") != ENV_NAME) - 1
        turns = task.user.scripted_turns
        return turns[said] if 0 <= said < len(turns) else STOP


def user_system_prompt(task: Task) -> str:
    facts = "\n".join(f"- {k}: {v}" for k, v in task.user.known_facts.items()) or "- (none)"
    extra = f"\nAdditional instructions: {task.user.instructions}\n" if task.user.instructions else ""
    return (
        "You are playing a customer who contacts customer support. Stay in character.\n\n"
        f"Who you are: {task.user.persona}\n"
        f"What you want: {task.user.goal}\n"
        f"Facts you know (reveal one only when the agent asks for it; never invent others):\n{facts}\n"
        f"{extra}\n"
        "Rules: write short, natural messages, one at a time. Do not make up information that is not "
        "listed above; if asked for something you do not know, say so. Do not try to solve the problem "
        "yourself. When your request is resolved, or the agent has clearly said it cannot be done, or "
        f"the conversation is going nowhere, end your final message with {STOP}."
    )


class LLMUser:
    """A customer played by a chat model on any OpenAI-compatible endpoint (vLLM, OpenAI, ...).

    Defaults come from `TB_USER_MODEL`, `OPENAI_BASE_URL` and `OPENAI_API_KEY`."""

    def __init__(
        self,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float = 0.0,
        max_tokens: int = 512,
        max_retries: int = 3,
        timeout_s: float = 60.0,
        client: Any = None,
    ):
        self.model = model or os.environ.get("TB_USER_MODEL")
        if not self.model:
            raise ConfigError("LLMUser needs a model: pass model=... or set TB_USER_MODEL.")
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.max_retries = max_retries
        self.timeout_s = timeout_s
        self.client = client or make_client(base_url, api_key, timeout_s)
        self.tokens_in = 0
        self.tokens_out = 0

    def conversation(self, task: Task, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The dialogue from the customer's side: roles swapped, tools and feedback hidden."""
        out: list[dict[str, Any]] = [{"role": "system", "content": user_system_prompt(task)}]
        for m in messages:
            role, content = m.get("role"), m.get("content")
            if role == "assistant" and content:
                out.append({"role": "user", "content": content})
            elif role == "user" and m.get("name") != ENV_NAME and content:
                out.append({"role": "assistant", "content": content})
        return out

    async def reply(self, task: Task, messages: list[dict[str, Any]], seed: int | None = None) -> str:
        request: dict[str, Any] = {
            "model": self.model,
            "messages": self.conversation(task, messages),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        if seed is not None:
            request["seed"] = seed

        async def attempt() -> str:
            resp = await self.client.chat.completions.create(**request)
            if resp.usage is not None:
                self.tokens_in += resp.usage.prompt_tokens or 0
                self.tokens_out += resp.usage.completion_tokens or 0
            text = resp.choices[0].message.content if resp.choices else None
            if text is None:
                raise SimulatorError("the user simulator returned no message")
            return text

        return await call_with_retries(attempt, SimulatorError, "user simulator endpoint", self.max_retries)


_SCRIPTED = ScriptedUser()  # stateless: one serves every episode


def make_user(user: str | UserSimulator) -> UserSimulator:
    if user == "scripted":
        return _SCRIPTED
    if user == "lines":
        return LinesUser()
    if user == "llm":
        return LLMUser()
    if isinstance(user, str):
        raise ConfigError(
            f"Unknown user simulator {user!r}: use 'scripted' (deterministic, answers from the task's facts), "
            "'llm' (TB_USER_MODEL over an OpenAI-compatible endpoint), 'lines' (the task's fixed lines) "
            "or a UserSimulator instance."
        )
    return user


class CachedUser:
    """Replays an LLM user's earlier replies from a SQLite file, so reruns see the same user.

    The key is the simulator's model, its sampling settings, the trial's seed and the
    conversation so far; a hit costs nothing and a miss asks the wrapped simulator and
    stores its answer."""

    def __init__(self, inner: LLMUser, path: str):
        import sqlite3

        self.inner = inner
        self.path = path
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, reply TEXT NOT NULL)")
        self.hits = 0

    @property
    def tokens_in(self) -> int:
        return self.inner.tokens_in

    @property
    def tokens_out(self) -> int:
        return self.inner.tokens_out

    def key(self, task: Task, messages: list[dict[str, Any]], seed: int | None) -> str:
        import hashlib
        import json

        body = {
            "model": self.inner.model,
            "temperature": self.inner.temperature,
            "max_tokens": self.inner.max_tokens,
            "seed": seed,
            "conversation": self.inner.conversation(task, messages),
        }
        return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    async def reply(self, task: Task, messages: list[dict[str, Any]], seed: int | None = None) -> str:
        import sqlite3

        k = self.key(task, messages, seed)
        try:
            row = self.conn.execute("SELECT reply FROM replies WHERE key = ?", (k,)).fetchone()
        except sqlite3.Error as exc:  # locked, disk full, corrupt: the environment failed
            raise SimulatorError(f"user cache {self.path}: {exc}") from exc
        if row is not None:
            self.hits += 1
            return row[0]
        text = await self.inner.reply(task, messages, seed)
        try:
            self.conn.execute("INSERT OR REPLACE INTO replies (key, reply) VALUES (?, ?)", (k, text))
        except sqlite3.Error as exc:
            raise SimulatorError(f"user cache {self.path}: {exc}") from exc
        return text


_FACTLIKE = re.compile(r"[A-Z]{1,4}-\d{2,}|[\w.+-]+@[\w-]+\.[\w.]+|\b\d{4,}\b")


def user_anomalies(task: Task, messages: list[dict[str, Any]], end_reason: str | None) -> list[str]:
    """Simulator misbehaviour that should not count against the agent, where detectable.

    - `stopped_before_agent_answered`: the user ended the conversation before the agent
      said anything to it (the simulator's fault alone: evaluation treats it as an
      infrastructure error and re-runs the trial);
    - `stopped_before_agent_acted`: the user ended the conversation after the agent
      spoke but before it made any tool call, on a task whose solution needs tool calls
      (often the simulator giving up early; the agent may share the blame, so the trial
      stays graded and reports count it apart);
    - `unscripted_fact`: the user stated an id, e-mail or long number that is neither in
      its scenario nor said earlier by the agent or a tool (an invented fact)."""
    out: list[str] = []
    said_by_agent = any(m.get("role") == "assistant" and m.get("content") for m in messages)
    acted = any(m.get("role") == "assistant" and m.get("tool_calls") for m in messages)
    if end_reason == "user_stop" and not said_by_agent:
        out.append("stopped_before_agent_answered")
    elif end_reason == "user_stop" and not acted and task.golden_actions:
        out.append("stopped_before_agent_acted")
    scenario = " ".join(
        [task.user.persona, task.user.goal, task.user.first_message, *task.user.scripted_turns]
        + [f"{k} {v}" for k, v in task.user.known_facts.items()]
    ).lower()
    seen = scenario
    for m in messages[2:]:
        content = m.get("content") or ""
        if m.get("role") == "user" and m.get("name") != ENV_NAME:
            facts = [f for f in _FACTLIKE.findall(content) if f.lower() not in seen]
            if facts:
                out.append("unscripted_fact")
                break
        seen += " " + content.lower()
    return out
