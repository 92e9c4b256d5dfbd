"""The rubric judge: yes/no questions about a conversation, asked to an LLM.

Only a minority of tasks carry rubrics; the deterministic state check decides everything
it can, and the judge only the rest (tone, an explanation given, a promise not made).
The judge runs at temperature 0, and its verdicts are cached by (model, question,
transcript), in memory and optionally in a SQLite file, so re-grading costs nothing and
gives the same answer. A judge that fails or answers neither yes nor no after retries
raises `JudgeError`: an infrastructure error, never a 0 for the agent.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from typing import Any

from tb_env.domain.task import Task
from tb_env.errors import JudgeError
from tb_env.parties.endpoint import call_with_retries, make_client

_ANSWER = re.compile(r"\b(yes|no)\b", re.IGNORECASE)

SYSTEM = (
    "You grade customer-support conversations. You are given the conversation between an "
    "agent and a customer (with the agent's tool calls and their results) and one yes/no "
    "question about it. Answer with exactly one word: yes or no."
)


def transcript(messages: list[dict[str, Any]]) -> str:
    """The conversation as the judge reads it: every turn after the system prompt."""
    lines = []
    for m in messages:
        role = m.get("role")
        if role == "system":
            continue
        if role == "assistant":
            if m.get("content"):
                lines.append(f"AGENT: {m['content']}")
            for c in m.get("tool_calls") or []:
                f = c.get("function", {})
                lines.append(f"AGENT CALLS {f.get('name')}({f.get('arguments')})")
        elif role == "tool":
            lines.append(f"TOOL RESULT ({m.get('name')}): {m.get('content')}")
        elif role == "user":
            who = "ENVIRONMENT" if m.get("name") == "environment" else "CUSTOMER"
            lines.append(f"{who}: {m.get('content')}")
    return "\n".join(lines)


class Judge:
    """Grades a task's `rubrics` with any OpenAI-compatible chat model."""

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        cache_path: str | None = None,
        max_retries: int = 3,
        timeout_s: float = 120.0,
        client: Any = None,
    ):
        self.model = model
        self.max_retries = max_retries
        self.client = client or make_client(base_url, api_key, timeout_s)
        self._memory: dict[str, bool] = {}
        self._db: sqlite3.Connection | None = None
        if cache_path:
            self._db = sqlite3.connect(cache_path, isolation_level=None, check_same_thread=False)
            self._db.execute("CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, yes INTEGER NOT NULL)")
        self.calls = 0

    def _key(self, question: str, text: str) -> str:
        body = json.dumps([self.model, question, text], ensure_ascii=False)
        return hashlib.sha256(body.encode()).hexdigest()

    def _cached(self, key: str) -> bool | None:
        if key in self._memory:
            return self._memory[key]
        if self._db is not None:
            try:
                row = self._db.execute("SELECT yes FROM verdicts WHERE key = ?", (key,)).fetchone()
            except sqlite3.Error as exc:  # locked, disk full: the environment failed
                raise JudgeError(f"judge cache: {exc}") from exc
            if row is not None:
                self._memory[key] = bool(row[0])
                return self._memory[key]
        return None

    def _store(self, key: str, verdict: bool) -> None:
        self._memory[key] = verdict
        if self._db is not None:
            try:
                self._db.execute("INSERT OR REPLACE INTO verdicts (key, yes) VALUES (?, ?)", (key, int(verdict)))
            except sqlite3.Error as exc:
                raise JudgeError(f"judge cache: {exc}") from exc

    async def ask(self, question: str, text: str) -> bool:
        key = self._key(question, text)
        cached = self._cached(key)
        if cached is not None:
            return cached
        request = {
            "model": self.model,
            "temperature": 0.0,
            "max_tokens": 8,
            "messages": [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": f"CONVERSATION:\n{text}\n\nQUESTION: {question}\nAnswer yes or no."},
            ],
        }

        async def attempt() -> bool:
            self.calls += 1
            resp = await self.client.chat.completions.create(**request)
            content = (resp.choices[0].message.content or "") if resp.choices else ""
            m = _ANSWER.search(content)
            if m is None:
                raise JudgeError(f"the judge answered {content[:80]!r}, not yes or no")
            return m.group(1).lower() == "yes"

        verdict = await call_with_retries(attempt, JudgeError, "judge endpoint", self.max_retries)
        self._store(key, verdict)
        return verdict

    async def grade(self, task: Task, messages: list[dict[str, Any]]) -> list[bool]:
        text = transcript(messages)
        return [await self.ask(q, text) for q in task.rubrics]
