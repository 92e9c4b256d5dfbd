"""GRPO group helpers shared by every trainer adapter (no trainer is imported here).

- Group statistics and zero-variance detection: a group whose rewards are all equal has
  zero advantage and teaches nothing (DAPO's dynamic sampling drops or replaces it).
- `refill`: an episode that failed for infrastructure reasons is re-run, up to N times;
  it never enters a group with reward 0. A group that still cannot be completed is
  dropped and counted.
- `check_trainable`: training refuses evaluation-only tasks unless explicitly allowed.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from tb_env.domain.registry import get_task
from tb_env.errors import EvalOnlyTaskError
from tb_env.thinkingbox.importer import is_thinkingbox_id

ZERO_VARIANCE_EPS = 1e-6


class HasReward(Protocol):
    reward: float | None
    infra_error: str | None


R = TypeVar("R", bound=HasReward)


def check_trainable(task_ids: list[str], allow_eval_only: bool = False) -> None:
    """Raise `EvalOnlyTaskError` naming the evaluation-only tasks, unless allowed.

    Benchmark tasks (`eval_only: true`, e.g. the test split or ThinkingBox-Bench, whose
    licence is evaluation only) must not leak into training by accident."""
    if allow_eval_only:
        return
    # ThinkingBox-Bench ids are refused by name too, so an unregistered data folder is no loophole
    bad = [t for t in dict.fromkeys(task_ids) if is_thinkingbox_id(t) or get_task(t).eval_only]
    if bad:
        shown = ", ".join(bad[:10]) + (f" and {len(bad) - 10} more" if len(bad) > 10 else "")
        raise EvalOnlyTaskError(
            f"{len(bad)} task(s) are evaluation-only and cannot be used for training: {shown}. "
            "Use the train split (or a `tb-env filter` pool of it); pass allow_eval_only=True only if "
            "you own these tasks and mean it."
        )


@dataclass
class GroupStats:
    mean: float
    std: float
    min: float
    max: float
    zero_variance: bool


def group_stats(rewards: list[float]) -> GroupStats:
    if not rewards:
        raise ValueError("empty group")
    mean = sum(rewards) / len(rewards)
    std = math.sqrt(sum((r - mean) ** 2 for r in rewards) / len(rewards))
    return GroupStats(mean, std, min(rewards), max(rewards), is_zero_variance(rewards))


def is_zero_variance(rewards: list[float], eps: float = ZERO_VARIANCE_EPS) -> bool:
    return max(rewards) - min(rewards) <= eps


def advantages(rewards: list[float], scale: bool = True, eps: float = 1e-6) -> list[float]:
    """GRPO advantages: reward minus the group mean (divided by the group std if `scale`)."""
    s = group_stats(rewards)
    return [(r - s.mean) / (s.std + eps) if scale else r - s.mean for r in rewards]


@dataclass
class Accounting:
    """What refill and dynamic sampling did, for the trainer's logs."""

    episodes: int = 0
    infra_reruns: int = 0
    infra_unrecovered: int = 0
    groups_dropped_infra: int = 0
    groups_zero_variance: int = 0
    groups_kept: int = 0
    groups_untrained: int = 0  # still zero-variance after every replacement: kept, no token trained
    causes: dict[str, int] = field(default_factory=dict)

    def as_metrics(self, prefix: str = "tb_env/") -> dict[str, float]:
        return {f"{prefix}{k}": float(v) for k, v in vars(self).items() if isinstance(v, int)}


async def refill(run: Callable[[], Awaitable[R]], max_reruns: int = 3, acct: Accounting | None = None) -> R:
    """Run an episode; re-run it while it ends with `infra_error` (at most `max_reruns` times).

    Returns the last result: the caller must treat a result that still has `infra_error`
    as unusable (drop it or its group), never as reward 0."""
    acct = acct or Accounting()
    result = await run()
    acct.episodes += 1
    reruns = 0
    while result.infra_error and reruns < max_reruns:
        cause = result.infra_error.split(":", 1)[0]
        acct.causes[cause] = acct.causes.get(cause, 0) + 1
        reruns += 1
        acct.infra_reruns += 1
        result = await run()
        acct.episodes += 1
    if result.infra_error:
        acct.infra_unrecovered += 1
    return result


async def run_group(
    run: Callable[[int], Awaitable[R]], size: int, max_reruns: int = 3, acct: Accounting | None = None
) -> list[R] | None:
    """The `size` episodes of one GRPO group, concurrently, each refilled on infra errors.

    Returns None (and counts it) if some episode could not be recovered: a group with a
    hole would bias the advantages of the others."""
    import asyncio

    acct = acct or Accounting()
    results = await asyncio.gather(*(refill(lambda i=i: run(i), max_reruns, acct) for i in range(size)))
    if any(r.infra_error for r in results):
        acct.groups_dropped_infra += 1
        return None
    return list(results)


async def dynamic_sample(
    tasks: Iterator[Any],
    run: Callable[[Any, int], Awaitable[R]],
    groups_wanted: int,
    group_size: int,
    max_reruns: int = 3,
    max_groups_tried: int | None = None,
    acct: Accounting | None = None,
) -> list[tuple[Any, list[R]]]:
    """DAPO-style dynamic sampling: draw tasks until `groups_wanted` groups with non-zero
    reward variance are collected (zero-variance and infra-dropped groups are replaced).

    Stops after `max_groups_tried` draws (default 4x the wanted number) and returns what
    it has, so a pool that has become too easy cannot stall training."""
    acct = acct or Accounting()
    limit = max_groups_tried or 4 * groups_wanted
    kept: list[tuple[Any, list[R]]] = []
    tried = 0
    for task in tasks:
        if len(kept) >= groups_wanted or tried >= limit:
            break
        tried += 1
        group = await run_group(lambda i, task=task: run(task, i), group_size, max_reruns, acct)
        if group is None:
            continue
        if is_zero_variance([float(r.reward or 0.0) for r in group]):
            acct.groups_zero_variance += 1
            continue
        acct.groups_kept += 1
        kept.append((task, group))
    return kept
