"""`tb-env demo` (`make demo`): a small evaluation campaign on the embedded SQLite backend.

Runs every built-in task k times with the oracle and a noisy oracle (or, when
`TB_MODEL` and `OPENAI_BASE_URL` are set, with that model) and prints pass@1, pass^k
and pass@k per policy: the paper's point that one average hides inconsistency, shown
in a minute without a GPU or an API key.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections import defaultdict
from typing import Any

from tqdm import tqdm

from tb_env.episode import run_episode
from tb_env.metrics import mean_over_tasks, pass_at_1
from tb_env.policy import NoisyOraclePolicy, OpenAIPolicy, OraclePolicy, Policy
from tb_env.registry import list_tasks
from tb_env.task import Task


async def run_trials(
    name: str, policy: Policy, tasks: list[Task], trials: int, concurrency: int = 32, user: Any = "scripted"
) -> dict[str, list[float | None]]:
    """Rewards per task over `trials` runs (None: not graded)."""
    sem = asyncio.Semaphore(concurrency)
    out: dict[str, list[float | None]] = defaultdict(list)
    bar = tqdm(total=len(tasks) * trials, desc=name, unit="ep", file=sys.stderr, leave=False)

    async def one(task: Task, trial: int) -> None:
        async with sem:
            result = await run_episode(task, policy, user=user, seed=trial)
        out[task.id].append(result.reward)
        bar.update()

    await asyncio.gather(*(one(t, i) for t in tasks for i in range(trials)))
    bar.close()
    return out


def summarize(rewards: dict[str, list[float | None]], trials: int) -> dict[str, Any]:
    counts = [(len(g), int(sum(g))) for g in ([r for r in rs if r is not None] for rs in rewards.values()) if g]
    ks = sorted({1, 2, trials} & set(range(1, trials + 1)))
    return {
        "tasks": len(counts),
        "pass@1": pass_at_1(counts),
        **{f"pass^{k}": mean_over_tasks(counts, k, "pass_hat") for k in ks if k > 1},
        **{f"pass@{k}": mean_over_tasks(counts, k, "pass_at") for k in ks if k > 1},
        "all_trials": sum(1 for n, c in counts if c == n),
        "not_graded": sum(1 for rs in rewards.values() for r in rs if r is None),
    }


def main(trials: int = 5, domain: str | None = None) -> int:
    tasks = list_tasks(domain)
    policies: dict[str, Policy]
    if os.environ.get("TB_MODEL") and os.environ.get("OPENAI_BASE_URL"):
        policies = {os.environ["TB_MODEL"]: OpenAIPolicy(os.environ["TB_MODEL"])}
    else:
        policies = {"oracle": OraclePolicy(), "noisy-oracle(p=0.15)": NoisyOraclePolicy(p=0.15, seed=0)}
    print(f"tb-env demo: {len(tasks)} tasks x {trials} trials, backend sqlite, scripted user\n")
    rows = []
    for name, policy in policies.items():
        rewards = asyncio.run(run_trials(name, policy, tasks, trials))
        rows.append((name, summarize(rewards, trials)))
    keys = [k for k in rows[0][1] if k.startswith("pass")]
    header = f"{'policy':<24}" + "".join(f"{k:>10}" for k in keys) + f"{'k/k tasks':>11}"
    print(header)
    print("-" * len(header))
    for name, s in rows:
        print(f"{name:<24}" + "".join(f"{s[k]:>10.3f}" for k in keys) + f"{s['all_trials']:>6}/{s['tasks']:<4}")
    print(
        "\npass^k: chance that k trials of a task all succeed (unbiased estimator); pass@k: at least one."
        "\nA policy can look good on pass@1 and still fail pass^k: that gap is what tb-env reports."
    )
    return 0
