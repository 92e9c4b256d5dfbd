"""`tb-env validate`: the executable contract every task must meet.

For each task, through the real env (MCP tools, the deterministic user, the state check):
- the oracle (golden calls, then the golden reply) scores 1;
- doing nothing (ending at once) scores 0;
- every wrong path (the golden path with one tagged mutation) scores 0;
- every metamorphic probe (`tb_env.kit.probes`) scores what it must: 1 for a cautious
  dialogue, reordered independent writes, extra reads and a paraphrased reply; 0 for a
  generic refusal after the identity check, a leak, a wrong fact, a forbidden early call.
Each required reply fact must say why it is required (a warning for a pack's task).
A task whose golden path cannot be replayed fails with the reason. Rubric tasks are
validated on their deterministic part (state and assertions), since no judge runs here.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from tb_env.core.episode import EpisodeResult, run_episode
from tb_env.domain.normalize import normalize
from tb_env.domain.registry import get_domain, list_domains, list_tasks
from tb_env.domain.task import WRONG_PATH_TAGS, Task, ToolCall, WrongPath
from tb_env.errors import ConfigError
from tb_env.kit.probes import ScriptPolicy
from tb_env.kit.probes import probes as make_probes
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
class VariantResult:
    variant: str
    expected: float
    score: float | None
    ok: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "expected": self.expected, "score": self.score, "ok": self.ok, "reason": self.reason}


@dataclass
class TaskReport:
    task_id: str
    problems: list[str] = field(default_factory=list)
    wrong_path_tags: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    variants: list[VariantResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _why(result: EpisodeResult) -> str:
    if result.infra_error:
        return f"infrastructure error: {result.infra_error}"
    check = result.check or {}
    failed = "; ".join(check.get("failed", [])) or "all checks passed"
    diff = check.get("diff") or []
    return failed + (f"; diff: {diff[:5]}" if diff else "") + f"; ended by {result.end_reason}"


def _fact_warnings(task: Task) -> list[str]:
    out = []
    for f in (f for a in task.assertions if a.kind == "response_contains" for f in a.body.facts):
        if not f.why:
            out.append(f"reply fact {f.fact!r} does not say why it is required (name the policy rule or the customer's question)")
        digits = re.findall(r"\d+", f.fact)
        loose = [a for a in f.aliases if digits and not re.search(r"\d|\b(" + "|".join(_NUMBER_WORDS) + r")\b", a.lower())]
        if loose:
            out.append(f"reply fact {f.fact!r} has aliases without its value {loose}: an agent stating another value would pass")
    return out


_NUMBER_WORDS = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "twenty",
    "thirty", "hundred", "thousand", "once", "twice", "both", "double", "half", "dozen", "fortnight", "couple",
    "week", "month", "year", "today", "tomorrow", "yesterday", "daily", "weekly", "monthly", "annual", "annually",
)


def _fact_clashes(task: Task) -> list[str]:
    """Two required facts with the same value: one can stand in for the other, so a reply
    with the other one wrong still passes (a fee and a refund that are both 266.00)."""
    seen: dict[str, str] = {}
    out = []
    for f in (f for a in task.assertions if a.kind == "response_contains" for f in a.body.facts):
        key = normalize(f.fact)
        if key in seen:
            out.append(f"reply facts {seen[key]!r} and {f.fact!r} have the same value: a reply with one of them wrong "
                       "still passes; give them different values in the scene")
        seen.setdefault(key, f.fact)
    return out


async def validate_task(task: Task, backend: str = "sqlite", probes: bool = True) -> TaskReport:
    report = TaskReport(task.id, wrong_path_tags=[w.tag for w in task.wrong_paths], warnings=_fact_warnings(task))
    report.problems += _fact_clashes(task)
    # The end tool is always available, so the oracle's script ends with it.
    runs: list[tuple[str, Any, float, bool]] = [
        ("oracle", OraclePolicy(), 1.0, False), ("doing nothing", DoNothingPolicy(), 0.0, False)
    ]
    runs += [(f"wrong path #{i} ({w.tag})", WrongPathPolicy(w), 0.0, False) for i, w in enumerate(task.wrong_paths)]
    if probes:
        try:
            found, notes = make_probes(task, get_domain(task.domain))
        except ConfigError as exc:
            report.problems.append(f"probes: {exc}")
            found, notes = [], []
        report.warnings += notes
        runs += [(p.name, ScriptPolicy(p.plan, asks=p.asks), p.expected, p.void_on_tool_error) for p in found]
    oracle_tool_errors = 0
    for label, policy, expected, void_on_tool_error in runs:
        plan_len = len(policy.script(_Ctx(task))) if isinstance(policy, OraclePolicy) else 0
        try:
            result = await run_episode(task, policy, backend=backend, max_turns=max(plan_len, len(task.golden_actions)) + 10)
        except ConfigError as exc:
            report.problems.append(f"{label}: {exc}")
            continue
        if label == "oracle":
            oracle_tool_errors = result.tool_errors
        if void_on_tool_error and result.tool_errors > oracle_tool_errors:
            continue  # a tool refused the new order: the order is enforced where it should be
        score = _score(result)
        ok = score == expected and not result.infra_error
        # (a variant that must score 0 says which check caught it, so an author can tell a wrong path caught for
        # its own mistake from one caught by accident)
        report.variants.append(VariantResult(label, expected, score, ok, "" if ok and expected else _why(result)))
        if result.infra_error:
            report.problems.append(f"{label}: infrastructure error: {result.infra_error}")
        elif not ok:
            report.problems.append(f"{label} scored {score:g}, expected {expected:g} ({_why(result)})")
        if label.startswith("wrong path") and result.tool_errors:
            # a wrong path whose mutated call the tool refuses scores 0 "for free": it may
            # not be the plausible mistake it claims to be (sometimes it is, by design)
            refused = [m["content"][:120] for m in result.messages if m["role"] == "tool" and m["content"].startswith("Error")]
            report.warnings.append(f"{label}: a tool refused a call ({refused[0] if refused else '?'})")
        if label == "oracle" and result.tool_errors:
            errors = [m["content"] for m in result.messages if m["role"] == "tool" and m["content"].startswith("Error")]
            report.problems.append(f"oracle: golden calls returned errors: {errors[:3]}")
    return report


@dataclass
class _Ctx:
    """Just enough of an episode context to ask a scripted policy how long its plan is."""

    task: Task
    tools: list[dict[str, Any]] = field(default_factory=list)
    seed: int | None = None
    turn: int = 0


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


def variant_kind(label: str) -> str:
    """`wrong fact #2` -> `wrong fact`; `wrong path #0 (extra_write)` -> `wrong path`."""
    return re.sub(r"\s*(#\d+.*|\(.*\))$", "", label)


def variant_stats(reports: list[TaskReport]) -> dict[str, dict[str, Any]]:
    """Per kind of variant: what it must score, how many ran, how many scored that."""
    out: dict[str, dict[str, Any]] = {}
    for r in reports:
        for v in r.variants:
            s = out.setdefault(variant_kind(v.variant), {"expected": v.expected, "runs": 0, "met": 0, "tasks_failing": 0})
            s["runs"] += 1
            s["met"] += v.ok
        for kind in {variant_kind(v.variant) for v in r.variants if not v.ok}:
            out[kind]["tasks_failing"] += 1
    return out


async def validate(
    domains: list[str] | None = None,
    backend: str = "sqlite",
    concurrency: int = 16,
    progress: bool = True,
    probes: bool = True,
) -> dict[str, Any]:
    """Validate every task of the given domains (all by default); a JSON-ready report."""
    names = domains or list_domains()
    tasks = [t for name in names for t in list_tasks(name)]
    bar = tqdm(total=len(tasks), desc="validate", unit="task", disable=None if progress else True, file=sys.stderr)
    reports = await _validate_all(tasks, backend, concurrency, probes, bar.update)
    bar.close()
    return summary(names, tasks, reports, backend)


async def _validate_all(
    tasks: list[Task], backend: str, concurrency: int, probes: bool, done: Callable[[], Any] = lambda: None
) -> list[TaskReport]:
    sem = asyncio.Semaphore(concurrency)

    async def one(task: Task) -> TaskReport:
        async with sem:
            rep = await validate_task(task, backend, probes=probes)
        done()
        return rep

    return list(await asyncio.gather(*(one(t) for t in tasks)))


def _shard(args: tuple[list[str], str, int, bool, int, int, Any]) -> list[TaskReport]:
    """One worker process's share: every `workers`-th task from `index` on."""
    names, backend, concurrency, probes, index, workers, ticks = args
    tasks = [t for name in names for t in list_tasks(name)][index::workers]
    return asyncio.run(_validate_all(tasks, backend, concurrency, probes, lambda: ticks.put(1)))


def validate_in_processes(
    domains: list[str] | None = None,
    backend: str = "sqlite",
    workers: int = 2,
    progress: bool = True,
    probes: bool = True,
    concurrency: int = 16,
) -> dict[str, Any]:
    """`validate`, its tasks shared among `workers` processes: the probes are CPU-bound
    Python (the deterministic user, the normaliser), so one process uses one core. The
    workers are forked, so packs registered in this process are theirs too."""
    import multiprocessing as mp

    names = domains or list_domains()
    tasks = [t for name in names for t in list_tasks(name)]
    ctx = mp.get_context("fork")
    ticks = ctx.Manager().Queue()
    bar = tqdm(total=len(tasks), desc="validate", unit="task", disable=None if progress else True, file=sys.stderr)
    with ctx.Pool(workers) as pool:
        pending = pool.map_async(_shard, [(names, backend, concurrency, probes, i, workers, ticks) for i in range(workers)])
        while not pending.ready():
            pending.wait(0.5)
            while not ticks.empty():
                bar.update(ticks.get())
        shards = pending.get()
    bar.close()
    by_id = {r.task_id: r for shard in shards for r in shard}
    return summary(names, tasks, [by_id[t.id] for t in tasks], backend)


def summary(names: list[str], tasks: list[Task], reports: list[TaskReport], backend: str) -> dict[str, Any]:
    """The JSON-ready report of a validation run: per domain, per variant, per task."""
    by_domain: dict[str, Any] = {}
    for name in names:
        mine = [(t, r) for t, r in zip(tasks, reports, strict=True) if t.domain == name]
        tags = Counter(tag for _, r in mine for tag in set(r.wrong_path_tags))
        by_domain[name] = {
            "tasks": len(mine),
            "splits": dict(Counter(t.split for t, _ in mine)),
            "failures": sum(not r.ok for _, r in mine),
            "wrong_path_tags": {tag: tags.get(tag, 0) for tag in WRONG_PATH_TAGS},
            "variants": variant_stats([r for _, r in mine]),
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
        "variants": variant_stats(reports),
        "domains": by_domain,
        "results": [{"task_id": r.task_id, "ok": r.ok, "variants": [v.to_dict() for v in r.variants]} for r in reports],
    }
