"""GRPO helpers: zero variance, refill of infra failures, dropped-group accounting, eval-only guard."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest

import tb_env
from tb_env.errors import EvalOnlyTaskError
from tb_env.training.grpo import (
    Accounting,
    advantages,
    check_trainable,
    dynamic_sample,
    group_stats,
    refill,
    run_group,
)


@dataclass
class R:
    reward: float | None
    infra_error: str | None = None


def test_zero_variance_groups_are_detected():
    assert group_stats([1.0, 1.0, 1.0]).zero_variance
    assert group_stats([0.0] * 8).zero_variance
    s = group_stats([1.0, 0.0, 1.0, 0.0])
    assert not s.zero_variance and s.mean == 0.5 and s.std == 0.5
    assert advantages([1.0, 0.0]) == pytest.approx([1.0, -1.0], abs=1e-5)


def test_refill_reruns_infra_failures_and_never_returns_them_as_zero():
    outcomes = iter([R(None, "tool_server: boom"), R(None, "database: locked"), R(1.0)])
    acct = Accounting()
    result = asyncio.run(refill(lambda: _ret(next(outcomes)), max_reruns=3, acct=acct))
    assert result.reward == 1.0 and acct.infra_reruns == 2 and acct.causes == {"tool_server": 1, "database": 1}


def test_a_group_that_cannot_be_completed_is_dropped_and_counted():
    acct = Accounting()

    async def run(i: int) -> R:
        return R(None, "user_simulator: 503") if i == 3 else R(float(i % 2))

    assert asyncio.run(run_group(run, 8, max_reruns=2, acct=acct)) is None
    assert acct.groups_dropped_infra == 1 and acct.infra_unrecovered == 1 and acct.infra_reruns == 2


def test_dynamic_sampling_replaces_zero_variance_and_broken_groups():
    # task "easy" always passes, "broken" always fails for infra reasons, "good" is mixed
    async def run(task: str, i: int) -> R:
        if task == "easy":
            return R(1.0)
        if task == "broken":
            return R(None, "tool_server: down")
        return R(float(i % 2))

    acct = Accounting()
    kept = asyncio.run(dynamic_sample(iter(["easy", "broken", "good", "easy", "good", "good"]), run, 2, 4, 1, acct=acct))
    assert [t for t, _ in kept] == ["good", "good"]
    assert acct.groups_zero_variance == 2 and acct.groups_dropped_infra == 1 and acct.groups_kept == 2
    assert all(r.reward is not None for _, g in kept for r in g)


def test_training_refuses_eval_only_tasks_unless_overridden():
    test_ids = [t.id for t in tb_env.list_tasks("retail", split="test")][:3]
    train_ids = [t.id for t in tb_env.list_tasks("retail", split="train")][:3]
    check_trainable(train_ids)
    with pytest.raises(EvalOnlyTaskError, match="evaluation-only") as err:
        check_trainable(train_ids + test_ids)
    assert test_ids[0] in str(err.value)
    check_trainable(test_ids, allow_eval_only=True)


async def _ret(x):
    return x


def test_export_writes_each_trainers_rows_and_refuses_eval_only(tmp_path):
    import json
    import subprocess
    import sys

    train = [t.id for t in tb_env.list_tasks("retail", split="train")][:2]
    pool = tmp_path / "pool.txt"
    pool.write_text("\n".join(train) + "\n")
    out = subprocess.run([sys.executable, "-m", "tb_env.cli.commands", "export", "--pool", str(pool), "--format", "trl",
                          "--out", str(tmp_path / "trl")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(x) for x in (tmp_path / "trl" / "train.jsonl").read_text().splitlines()]
    assert [r["task_id"] for r in rows] == train
    assert rows[0]["prompt"][0]["role"] == "system" and rows[0]["prompt"][1]["content"] == tb_env.get_task(train[0]).user.first_message
    pool.write_text(next(t.id for t in tb_env.list_tasks("retail", split="test")) + "\n")
    bad = subprocess.run([sys.executable, "-m", "tb_env.cli.commands", "export", "--pool", str(pool), "--format", "trl",
                          "--out", str(tmp_path / "x")], capture_output=True, text=True)
    assert bad.returncode == 2 and "evaluation-only" in bad.stderr
