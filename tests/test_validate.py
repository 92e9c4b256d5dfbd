"""`tb-env validate`: every built-in task passes; a broken task is caught and explained."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

import tb_env
from tb_env.domain.task import Assertion, WrongPath
from tb_env.kit.validate import validate, validate_task
from tests.conftest import PACKS


def test_every_built_in_task_validates():
    out = subprocess.run(
        [sys.executable, "-m", "tb_env.cli.commands", "validate", "--json", "--workers", "2"],
        # (a hang guard: make test runs it beside the other tests on two cores, where it takes twice as long)
        capture_output=True, text=True, timeout=2400,
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


def _variants(report) -> dict[str, tuple[float, float | None, bool]]:
    return {v.variant: (v.expected, v.score, v.ok) for v in report.variants}


def test_every_probe_runs_and_scores_what_it_must_on_a_sound_task(mini):
    task = tb_env.get_task("mini/deposit-001")
    sound = task.model_copy(update={"id": "mini/sound", "assertions": [
        Assertion.model_validate({"response_contains": {"facts": [{"fact": "350", "why": "the caller asked"}]}}),
        Assertion.model_validate({"must_not_disclose": {"values": ["A-002"], "why": "another customer's account"}}),
    ]})
    report = asyncio.run(validate_task(sound))
    got = _variants(report)
    assert report.ok, report.problems
    for name in ("cautious", "paraphrase", "verify then refuse", "leak #0", "wrong fact #0"):
        assert got[name][2], name
    assert got["cautious"][:2] == (1.0, 1.0) and got["leak #0"][:2] == (0.0, 0.0)


def test_a_refusal_that_does_not_require_its_reason_is_caught(mini):
    task = tb_env.get_task("mini/refuse-close-001")
    reasonless = task.model_copy(update={
        "id": "mini/reasonless", "golden_actions": task.golden_actions[:1],
        "assertions": [a for a in task.assertions if a.kind == "row_unchanged"],
        "wrong_paths": task.wrong_paths[:1],
    })
    report = asyncio.run(validate_task(reasonless))
    assert any(p.startswith("verify then refuse scored 1") for p in report.problems)


def test_a_fact_whose_alias_drops_its_value_is_warned_about(mini):
    task = tb_env.get_task("mini/deposit-001")
    loose = task.model_copy(update={"id": "mini/loose", "assertions": [
        Assertion.model_validate({"response_contains": {"facts": [{"fact": "350", "aliases": ["balance"], "why": "asked"}]}})
    ]})
    report = asyncio.run(validate_task(loose, probes=False))
    assert any("aliases without its value ['balance']" in w for w in report.warnings)


def test_the_wrong_fact_probe_changes_every_wording_of_the_fact():
    from tb_env.kit.probes import wrong_fact

    reply = "That is a segregation of duties conflict, so I cannot grant it."
    assert wrong_fact(reply, ["conflict", "segregation of duties"]) == "That is a  , so I cannot grant it."
    assert wrong_fact("Refunded $74.99 today.", ["74.99"]) == "Refunded $74.90 today."
    assert wrong_fact("Nothing here.", ["74.99"]) is None
    # overlapping wordings are one statement: moving its number on would leave the other wording true
    overlapping = wrong_fact("You were refunded with a provisional credit of 105.43.",
                             ["with a provisional credit", "provisional credit of 105.43"])
    assert overlapping == "You were refunded ."


def test_independent_writes_in_either_order_must_score_the_same(mini):
    task = tb_env.get_task("mini/deposit-001")
    two = [*task.golden_actions, tb_env.ToolCall(name="set_status", arguments={"account_id": "A-002", "status": "frozen"})]
    both = task.model_copy(update={"id": "mini/two-writes", "golden_actions": two, "wrong_paths": task.wrong_paths[:2]})
    got = _variants(asyncio.run(validate_task(both)))
    assert got["reordered #0"] == (1.0, 1.0, True)


def test_two_facts_with_one_value_fail_validation(mini):
    task = tb_env.get_task("mini/deposit-001")
    twins = task.model_copy(update={"id": "mini/twins", "assertions": [Assertion.model_validate({"response_contains": {
        "facts": [{"fact": "350.00", "why": "the balance"}, {"fact": "350", "why": "the new total"}]}})]})
    report = asyncio.run(validate_task(twins, probes=False))
    assert any("have the same value" in p for p in report.problems)


def test_a_rule_against_any_call_naming_a_record_gets_its_early_call_probe(mini):
    task = tb_env.get_task("mini/deposit-001")
    private = task.model_copy(update={"id": "mini/private", "assertions": [
        *task.assertions, Assertion.model_validate({"no_call": {"call": {"mentions": ["A-002"]}, "why": "another's account"}})]})
    got = _variants(asyncio.run(validate_task(private)))
    assert got["early call #0"] == (0.0, 0.0, True)


def test_facts_without_a_why_are_warned_about(mini):
    report = asyncio.run(validate_task(tb_env.get_task("mini/deposit-001"), probes=False))
    assert any("does not say why" in w for w in report.warnings)


def test_the_json_report_has_every_variant_of_every_task(mini):
    report = asyncio.run(validate(["mini"], progress=False))
    first = report["results"][0]
    assert {"oracle", "doing nothing", "cautious", "verify then refuse"} <= {v["variant"] for v in first["variants"]}
    assert report["variants"]["cautious"]["runs"] == len(report["results"])
    # a variant that must score 0 says which check caught it (the newcomer walk found an empty reason)
    by_name = {v["variant"]: v for v in first["variants"]}
    assert by_name["oracle"]["reason"] == ""
    caught = [v for v in first["variants"] if v["expected"] == 0 and v["ok"]]
    assert caught and all(v["reason"] and v["reason"] != "all checks passed" for v in caught), caught
    assert "ended by" in by_name["doing nothing"]["reason"]


def test_paraphrase_rewords_numbers_money_and_dates():
    from tb_env.kit.probes import paraphrase

    text = paraphrase("Refunded 1250.00 on 2026-12-04; it takes 5 to 10 days. Order O-1234, 15% off.")
    assert "$1,250" in text and "December 4, 2026" in text and "five to ten days" in text
    assert "O-1234" in text and "fifteen percent" in text


def test_probe_grades_an_alternative_reply_and_a_partial_path(mini, tmp_path):
    from tb_env.cli.probe import probe
    from tb_env.errors import ConfigError

    worded = probe("mini/deposit-001", ["All set: three hundred and fifty dollars is your new balance."])
    assert worded["reward"] == 1.0, worded["failed"]
    assert not probe("mini/deposit-001", ["Done."])["reward"]  # the balance the caller asked for is missing
    skipped = probe("mini/deposit-001", ["Your balance is $350."], upto=0)
    assert skipped["reward"] == 0.0 and skipped["diff"]
    plan = tmp_path / "calls.json"
    plan.write_text(json.dumps([{"name": "deposit", "arguments": {"account_id": "A-001", "amount": 100}}, "It's $350 now."]))
    assert probe("mini/deposit-001", [], calls=str(plan))["reward"] == 1.0
    plan.write_text("{not json")
    with pytest.raises(ConfigError, match="not JSON"):
        probe("mini/deposit-001", [], calls=str(plan))


def test_a_choice_the_policy_says_to_ask_about_is_asked_by_the_oracle_and_a_guess_scores_zero(mini):
    task = tb_env.get_task("mini/deposit-001")
    ask = task.model_copy(update={"id": "mini/ask-first", "assertions": [*task.assertions, Assertion.model_validate(
        {"no_call": {"call": {"name": "deposit"}, "until_asked": ["account"], "why": "policy: ask which account"}})]})
    report = asyncio.run(validate_task(ask))
    got = _variants(report)
    assert report.ok, report.problems
    assert got["oracle"][:2] == (1.0, 1.0) and got["cautious"][:2] == (1.0, 1.0)
    assert got["unasked #0"] == (0.0, 0.0, True)  # the golden calls without the question: a lucky guess


def test_validating_in_worker_processes_reports_exactly_what_one_process_does(mini):
    def run(*extra: str) -> dict:
        out = subprocess.run(
            [sys.executable, "-m", "tb_env.cli.commands", "--pack", str(PACKS / "mini"), "validate", "--domain", "mini",
             "--json", *extra], capture_output=True, text=True, timeout=300,
        )
        assert out.returncode == 0, out.stderr[-2000:]
        return json.loads(out.stdout)

    one, two = run(), run("--workers", "2")
    assert two["tasks"] == one["tasks"] == len(tb_env.list_tasks("mini")) > 1
    assert two["results"] == one["results"] and two["variants"] == one["variants"]
    bad = subprocess.run([sys.executable, "-m", "tb_env.cli.commands", "validate", "--workers", "0"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "--workers must be at least 1" in bad.stderr


def test_a_forbidden_claim_gets_its_claim_probe_which_must_score_zero(mini):
    task = tb_env.get_task("mini/deposit-001")
    claim = task.model_copy(update={"id": "mini/claim", "assertions": [*task.assertions, Assertion.model_validate(
        {"must_not_state": {"facts": [{"fact": "frozen", "near": ["account"]}], "why": "nothing was frozen"}})]})
    report = asyncio.run(validate_task(claim))
    assert report.ok, report.problems
    assert _variants(report)["claim #0"] == (0.0, 0.0, True)
