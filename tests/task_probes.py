"""What the per-domain task tests share: a template's instances, and the reward of the
golden calls followed by a reply of the test's own (as `tb-env probe` runs them)."""

from __future__ import annotations

import asyncio

import tb_env
from tb_env.core.episode import run_episode
from tb_env.domain.task import Task, ToolCall
from tb_env.kit.probes import ScriptPolicy


def instances(domain: str, template: str) -> list[Task]:
    return [t for t in tb_env.list_tasks(domain) if t.tags.get("template") == template]


def reward(task: Task, plan: list[ToolCall | str]) -> float | None:
    return asyncio.run(run_episode(task, ScriptPolicy(plan), max_turns=len(plan) + 12)).reward


def said(task: Task, reply: str) -> float | None:
    """The golden calls, then `reply` as the answer."""
    return reward(task, [*task.golden_actions, reply])


def golden_arg(task: Task, tool: str, key: str) -> str:
    return next(c.arguments[key] for c in task.golden_actions if c.name == tool)


def scores(task: Task, legit: tuple[str, ...] | list[str] = (), sloppy: tuple[str, ...] | list[str] = ()) -> None:
    """Each legitimate reply (after the golden calls) scores 1 and each sloppy one 0."""
    for reply in legit:
        assert said(task, reply) == 1, ("legit reply scored 0", task.id, reply)
    for reply in sloppy:
        assert said(task, reply) == 0, ("sloppy reply scored 1", task.id, reply)
