"""`tb-env filter`: the paper's offline policy-relative difficulty filter.

A GRPO group whose rewards are all 0 or all 1 has zero advantage and teaches nothing, so
the training pool keeps the tasks the base policy sometimes solves and sometimes fails:
success rate within [min_rate, max_rate] over at least `min_trials` graded trials.
Evaluation-only tasks (the benchmark split) are never put in a pool unless asked.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from tb_env.domain.registry import get_task
from tb_env.errors import ConfigError
from tb_env.thinkingbox.importer import is_thinkingbox_id


@dataclass
class PoolResult:
    kept: list[str]
    dropped: dict[str, str] = field(default_factory=dict)  # task -> reason
    rates: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def greedy_warning(lines: list[dict[str, Any]]) -> str | None:
    """Trials of a model sampled greedily (temperature 0, the eval default) succeed on a
    task always or never, so the band keeps few tasks, and not the ones training (which
    samples at 1.0) finds in between: the filter must see the base model as training does."""
    temps = [
        (ln.get("sampling") or {}).get("temperature") for ln in lines
        if ln.get("reward") is not None and not str(ln.get("model", "")).startswith(("oracle", "noisy-oracle"))
    ]
    if temps and all(not t for t in temps):
        return ("every trial was sampled at temperature 0 (greedy), while training samples at 1.0: success rates are "
                "near 0 or 1 and the band keeps few tasks; rerun tb-env eval with --temperature 1.0")
    return None


def band(rate: float, min_rate: float, max_rate: float) -> str:
    if rate == 0.0:
        return "never solved"
    if rate == 1.0:
        return "always solved"
    if rate < min_rate:
        return "too hard"
    if rate > max_rate:
        return "too easy"
    return "kept"


def select_pool(
    lines: list[dict[str, Any]], min_rate: float, max_rate: float, min_trials: int = 4, allow_eval_only: bool = False
) -> PoolResult:
    if not 0.0 <= min_rate <= max_rate <= 1.0:
        raise ConfigError(f"need 0 <= --min-rate <= --max-rate <= 1, got {min_rate} and {max_rate}")
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for ln in lines:
        if ln.get("reward") is None or ln.get("infra_error") or ln.get("skipped"):
            continue
        c = counts[str(ln["task_id"])]
        c[0] += 1
        c[1] += float(ln["reward"]) >= 1.0
    result = PoolResult(kept=[])
    if (warning := greedy_warning(lines)) is not None:
        result.warnings.append(warning)
    for task_id in sorted(counts):
        n, c = counts[task_id]
        rate = c / n
        result.rates[task_id] = rate
        if is_thinkingbox_id(task_id) and not allow_eval_only:
            result.dropped[task_id] = "eval_only"  # ThinkingBox-Bench: licensed for evaluation only
            continue
        try:
            task = get_task(task_id)
        except ConfigError:
            result.dropped[task_id] = "unknown task"
            continue
        if task.eval_only and not allow_eval_only:
            result.dropped[task_id] = "eval_only"
        elif n < min_trials:
            result.dropped[task_id] = f"fewer than {min_trials} trials"
        elif (b := band(rate, min_rate, max_rate)) != "kept":
            result.dropped[task_id] = b
        else:
            result.kept.append(task_id)
    return result


def render_pool(result: PoolResult) -> str:
    by_domain: dict[str, Counter[str]] = defaultdict(Counter)
    for t in result.kept:
        by_domain[t.split("/", 1)[0]]["kept"] += 1
    for t, why in result.dropped.items():
        by_domain[t.split("/", 1)[0]][why] += 1
    reasons = sorted({r for c in by_domain.values() for r in c} - {"kept"})
    head = f"{'domain':<18}{'kept':>6}" + "".join(f"{r:>22}" for r in reasons)
    out = [head, "-" * len(head)]
    for d, c in sorted(by_domain.items()):
        out.append(f"{d:<18}{c['kept']:>6}" + "".join(f"{c[r]:>22}" for r in reasons))
    difficulty: Counter[str] = Counter()
    for t in result.kept:
        difficulty[str(get_task(t).tags.get("difficulty", "untagged"))] += 1
    out.append(f"kept {len(result.kept)} of {len(result.rates)} tasks; by difficulty tag: {dict(difficulty)}")
    out += [f"warning: {w}" for w in result.warnings]
    return "\n".join(out) + "\n"
