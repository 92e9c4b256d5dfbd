"""`tb-env validate`: the executable contract every task must meet.

For each task, through the real env (MCP tools, scripted user, state check):
- the oracle (golden calls, then the golden reply) scores 1;
- doing nothing (ending at once) scores 0;
- every wrong path (the golden path with one tagged mutation) scores 0.
A task whose golden path cannot be replayed fails with the reason. Rubric tasks are
validated on their deterministic part (state and assertions), since no judge runs here.
"""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from tb_env.core.episode import EpisodeResult, run_episode
from tb_env.domain.registry import list_domains, list_tasks
from tb_env.domain.task import WRONG_PATH_TAGS, Task, ToolCall, WrongPath
from tb_env.errors import ConfigError
from tb_env.parties.policy import EpisodeContext, OraclePolicy


class DoNothingPolicy:
    """Ends the conversation at once: no tool call, no reply."""

    async def act(self, messages: list[dict[str, Any]], ctx: EpisodeContext) -> str:
        from tb_env.domain.tool import END_CONVERSATION
        from tb_env.parties.interpret import render_tool_call

        return render_tool_call(ToolCall(name=END_CONVERSATION), "hermes")


class WrongPathPolicy(OraclePolicy):
    """The oracle, following a wrong path's calls and reply instead of the golden ones."""

    def __init__(self, wrong: WrongPath):
        super().__init__()
        self.wrong = wrong

    def script(self, ctx: EpisodeContext) -> list[ToolCall | str]:
        plan: list[ToolCall | str] = list(self.wrong.actions(ctx.task.golden_actions))
        reply = self.wrong.reply if self.wrong.reply is not None else ctx.task.golden_reply
        if reply:
            plan.append(reply)
        return plan


def _score(result: EpisodeResult) -> float | None:
    """The reward, or for a rubric task without a judge its deterministic part."""
    if result.infra_error:
        return None
    if result.reward is not None:
        return result.reward
    check = result.check or {}
    ok = check.get("state_match") and all(a["passed"] for a in check.get("assertions", []))
    return 1.0 if ok else 0.0


@dataclass
class TaskReport:
    task_id: str
    problems: list[str] = field(default_factory=list)
    wrong_path_tags: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


async def validate_task(task: Task, backend: str = "sqlite") -> TaskReport:
    report = TaskReport(task.id, wrong_path_tags=[w.tag for w in task.wrong_paths])
    # The end tool is always available, so the oracle's script ends with it.
    runs: list[tuple[str, Any, float]] = [("oracle", OraclePolicy(), 1.0), ("doing nothing", DoNothingPolicy(), 0.0)]
    runs += [(f"wrong path #{i} ({w.tag})", WrongPathPolicy(w), 0.0) for i, w in enumerate(task.wrong_paths)]
    for label, policy, expected in runs:
        try:
            result = await run_episode(task, policy, backend=backend, max_turns=len(task.golden_actions) + 10)
        except ConfigError as exc:
            report.problems.append(f"{label}: {exc}")
            continue
        score = _score(result)
        if result.infra_error:
            report.problems.append(f"{label}: infrastructure error: {result.infra_error}")
        elif score != expected:
            why = "; ".join((result.check or {}).get("failed", [])) or "all checks passed"
            diff = (result.check or {}).get("diff") or []
            report.problems.append(
                f"{label} scored {score:g}, expected {expected:g} ({why})" + (f"; diff: {diff[:5]}" if diff else "")
            )
        if label.startswith("wrong path") and result.tool_errors:
            # a wrong path whose mutated call the tool refuses scores 0 "for free": it may
            # not be the plausible mistake it claims to be (sometimes it is, by design)
            refused = [m["content"][:120] for m in result.messages if m["role"] == "tool" and m["content"].startswith("Error")]
            report.warnings.append(f"{label}: a tool refused a call ({refused[0] if refused else '?'})")
        if label == "oracle" and result.tool_errors:
            errors = [m["content"] for m in result.messages if m["role"] == "tool" and m["content"].startswith("Error")]
            report.problems.append(f"oracle: golden calls returned errors: {errors[:3]}")
    return report


def variety(tasks: list[Task]) -> dict[str, Any]:
    """How varied a domain's tasks are: kinds, difficulty, templates, golden-path lengths."""
    n = max(len(tasks), 1)
    templates = Counter(str(t.tags.get("template", t.id)) for t in tasks)
    calls = [len(t.golden_actions) for t in tasks]
    return {
        "kinds": dict(Counter(str(t.tags.get("kind", "untagged")) for t in tasks)),
        "difficulty": dict(Counter(str(t.tags.get("difficulty", "untagged")) for t in tasks)),
        "templates": len(templates),
        "max_template_share": round(max(templates.values(), default=0) / n, 4),
        "golden_calls": {"min": min(calls, default=0), "max": max(calls, default=0)},
        "share_8plus_calls": round(sum(c >= 8 for c in calls) / n, 4),
        "rubric_tasks": sum(bool(t.rubrics) for t in tasks),
        "min_wrong_paths": min((len(t.wrong_paths) for t in tasks), default=0),
    }


async def validate(
    domains: list[str] | None = None, backend: str = "sqlite", concurrency: int = 16, progress: bool = True
) -> dict[str, Any]:
    """Validate every task of the given domains (all by default); a JSON-ready report."""
    names = domains or list_domains()
    tasks = [t for name in names for t in list_tasks(name)]
    sem = asyncio.Semaphore(concurrency)
    bar = tqdm(total=len(tasks), desc="validate", unit="task", disable=None if progress else True, file=sys.stderr)

    async def one(task: Task) -> TaskReport:
        async with sem:
            rep = await validate_task(task, backend)
        bar.update()
        return rep

    reports = await asyncio.gather(*(one(t) for t in tasks))
    bar.close()
    by_domain: dict[str, Any] = {}
    for name in names:
        mine = [(t, r) for t, r in zip(tasks, reports, strict=True) if t.domain == name]
        tags = Counter(tag for _, r in mine for tag in set(r.wrong_path_tags))
        by_domain[name] = {
            "tasks": len(mine),
            "splits": dict(Counter(t.split for t, _ in mine)),
            "failures": sum(not r.ok for _, r in mine),
            "wrong_path_tags": {tag: tags.get(tag, 0) for tag in WRONG_PATH_TAGS},
            **variety([t for t, _ in mine]),
        }
    failures = [{"task_id": r.task_id, "problems": r.problems} for r in reports if not r.ok]
    warnings = [{"task_id": r.task_id, "warnings": r.warnings} for r in reports if r.warnings]
    return {
        "ok": not failures and bool(tasks),
        "backend": backend,
        "tasks": len(tasks),
        "failures": failures,
        "warnings": warnings,
        "domains": by_domain,
    }
