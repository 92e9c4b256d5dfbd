"""`tb-env show TASK_ID`: a task laid out for a human, with what its golden path does.

Scenario, initial patch, each golden call with the result it returns, the golden reply,
the final-state changes the golden path makes (the rows the check will compare), the
assertions and the wrong paths: everything needed to judge whether a task is fair.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import yaml

from tb_env.backends import get_backend
from tb_env.core.check import _plans, _rows_by_key
from tb_env.core.toolserver import invoke_tool
from tb_env.domain.registry import get_domain, get_task
from tb_env.parties.interpret import coerce_arguments


def _call(name: str, args: dict[str, Any]) -> str:
    return f"{name}({', '.join(f'{k}={v!r}' for k, v in args.items())})"


def _clip(text: str, n: int = 400) -> str:
    return text if len(text) <= n else text[:n] + f"... ({len(text)} chars)"


async def _changes(domain: Any, golden: Any, initial: Any) -> list[str]:
    """The rows the golden path adds (+), removes (-) or changes (~), checked tables only."""
    out: list[str] = []
    changed = await golden.changed_keys() or {}
    for plan in _plans(domain, golden.dialect):
        if plan.key_index is None:  # generated keys: compare the rows as a multiset
            before, after = Counter(await initial.rows(plan.select)), Counter(await golden.rows(plan.select))
            out += [f"+ {plan.name} {dict(zip(plan.columns, r, strict=False))}" for r in (after - before).elements()]
            out += [f"- {plan.name} {dict(zip(plan.columns, r, strict=False))}" for r in (before - after).elements()]
            continue
        keys = changed.get(plan.name, set())
        if not keys:
            continue
        old_rows, new_rows = await _rows_by_key(initial, plan, keys), await _rows_by_key(golden, plan, keys)
        for key in sorted(keys, key=repr):
            old, new = old_rows.get(key), new_rows.get(key)
            if old is None and new is not None:
                out.append(f"+ {plan.name}[{key}] {dict(zip(plan.columns, new, strict=False))}")
            elif new is None and old is not None:
                out.append(f"- {plan.name}[{key}]")
            elif old != new and old is not None and new is not None:
                diffs = [f"{c}: {a!r} -> {b!r}" for c, a, b in zip(plan.columns, old, new, strict=True) if a != b]
                out.append(f"~ {plan.name}[{key}] " + ", ".join(diffs))
    return out


async def describe(task_id: str) -> str:
    task = get_task(task_id)
    domain = get_domain(task.domain)
    backend = get_backend("sqlite")
    out = [
        f"# {task.id}  [{task.split}{', eval only' if task.eval_only else ''}]",
        f"tags: {task.tags}",
        "",
        "## user",
        yaml.safe_dump(task.user.model_dump(exclude_none=True), sort_keys=False, allow_unicode=True).rstrip(),
        "",
        "## initial patch",
        yaml.safe_dump(task.initial_patch, sort_keys=False, allow_unicode=True).rstrip() if task.initial_patch else "(none)",
        "",
        "## golden calls",
    ]
    db = await backend.open(domain, task)
    initial = await backend.open(domain, task)
    try:
        for i, call in enumerate(task.golden_actions):
            tool = domain.tools_by_name.get(call.name)
            args = coerce_arguments(call.arguments, tool.input_schema) if tool else call.arguments
            outcome = await invoke_tool(domain, db, call.name, args)
            out.append(f"{i}. {_call(call.name, call.arguments)}")
            out.append(f"   -> {'ERROR ' if outcome.is_error else ''}{_clip(outcome.text)}")
        out += ["", "## golden reply", task.golden_reply or "(none)", "", "## final-state changes made by the golden path"]
        out += await _changes(domain, db, initial)
    finally:
        await backend.close(db)
        await backend.close(initial)
    if out[-1].startswith("## final-state"):
        out.append("(no change: the correct final state is the initial one)")
    out += ["", "## assertions"]
    out += [f"- {a.kind}: {a.body.model_dump(exclude_defaults=True)}" for a in task.assertions] or ["(none)"]
    out += ["", "## wrong paths (each must score 0)"]
    for i, wp in enumerate(task.wrong_paths):
        parts = []
        if wp.append:
            parts.append("append " + "; ".join(_call(c.name, c.arguments) for c in wp.append))
        if wp.drop:
            parts.append(f"drop calls {wp.drop}")
        if wp.replace:
            parts.append("replace " + "; ".join(f"#{k} with {_call(c.name, c.arguments)}" for k, c in wp.replace.items()))
        if wp.reply is not None:
            parts.append(f"reply {wp.reply!r}")
        out.append(f"{i}. [{wp.tag}] " + ", ".join(parts) + (f"  ({wp.note})" if wp.note else ""))
    if task.rubrics:
        out += ["", "## rubrics (LLM judge)"] + [f"- {q}" for q in task.rubrics]
    return "\n".join(out) + "\n"
