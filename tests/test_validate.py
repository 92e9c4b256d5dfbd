"""`tb-env validate`: every built-in task passes; a broken task is caught and explained."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import tb_env
from tb_env.cli.validate import validate, validate_task
from tb_env.domain.task import WrongPath


def test_every_built_in_task_validates():
    out = subprocess.run(
        [sys.executable, "-m", "tb_env.cli.commands", "validate", "--json"], capture_output=True, text=True, timeout=900
    )
    report = json.loads(out.stdout)
    assert out.returncode == 0, json.dumps(report["failures"], indent=1)
    assert report["ok"] and report["failures"] == []
    retail = report["domains"]["retail"]
    assert retail["tasks"] >= 25 and retail["failures"] == 0
    assert set(retail["splits"]) == {"train", "test"}


def test_built_in_tasks_cover_every_scenario_kind():
    kinds = {t.tags.get("kind") for t in tb_env.list_tasks("retail")}
    assert {"read_only", "single_write", "multi_step", "refusal"} <= kinds
    assert "retail/ticket-close-open-exception-001" in {t.id for t in tb_env.list_tasks("retail")}


def test_read_only_and_refusal_tasks_require_something_positive():
    for task in tb_env.list_tasks("retail"):
        if task.tags.get("kind") in ("read_only", "refusal"):
            positive = [a for a in task.assertions if a.kind in ("response_contains", "row_exists", "row_count")]
            assert positive or task.golden_actions, task.id


def test_a_wrong_path_that_passes_fails_validation(mini):
    task = tb_env.get_task("mini/deposit-001")
    # "replace" the deposit with itself: not a mutation at all, so it scores 1
    harmless = WrongPath(tag="wrong_amount", replace={0: task.golden_actions[0]})
    broken = task.model_copy(update={"id": "mini/broken-wrong-path", "wrong_paths": [harmless]})
    report = asyncio.run(validate_task(broken))
    assert not report.ok
    assert any("wrong path #0 (wrong_amount) scored 1, expected 0" in p for p in report.problems)


def test_a_task_that_nothing_passes_fails_validation(mini):
    task = tb_env.get_task("mini/refuse-close-001")
    lenient = task.model_copy(update={"id": "mini/lenient", "assertions": [], "golden_actions": task.golden_actions[:1]})
    report = asyncio.run(validate_task(lenient))
    assert any(p.startswith("doing nothing scored 1") for p in report.problems)


def test_a_golden_path_that_errors_fails_validation(mini):
    task = tb_env.get_task("mini/deposit-001")
    bad = task.model_copy(
        update={"id": "mini/bad-golden", "golden_actions": [tb_env.ToolCall(name="deposit", arguments={"account_id": "A-001", "amount": 5000})]}
    )
    report = asyncio.run(validate_task(bad))
    assert any("golden call 0 (deposit) failed" in p for p in report.problems)


def test_validate_reports_tag_coverage_per_domain(mini):
    report = asyncio.run(validate(["mini"], progress=False))
    assert report["ok"]
    tags = report["domains"]["mini"]["wrong_path_tags"]
    assert tags["wrong_amount"] == 1 and tags["extra_write"] == 2 and tags["skipped_approval"] == 0


def test_cli_exit_code_and_message_for_an_unknown_domain():
    out = subprocess.run(
        [sys.executable, "-m", "tb_env.cli.commands", "validate", "--domain", "nope"], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 2 and "Unknown domain 'nope'" in out.stderr
