"""The auto-insurance pack: what its tasks' grading relies on in its tools."""

from __future__ import annotations

import asyncio
import itertools

import tb_env
from tb_env.backends.sqlite import SQLiteBackend
from tb_env.core.check import replay, snapshot
from tb_env.domain.task import Task, ToolCall
from tb_env.kit.probes import ScriptPolicy

PREMIUM_CHANGES = ("add_driver", "remove_driver", "replace_vehicle", "change_coverage")


def test_premium_changes_in_any_order_leave_the_same_invoices():
    """household_update makes four premium changes; a credit larger than the next instalment
    used to go on a new invoice or not depending on the order, so a correct agent could fail."""
    domain = tb_env.get_domain("auto_insurance")
    task = domain.tasks["auto_insurance/household-update-test-003"]
    writes = [c for c in task.golden_actions if domain.tools_by_name[c.name].writes]
    at = [i for i, c in enumerate(writes) if c.name in PREMIUM_CHANGES]
    backend = SQLiteBackend(cache_size=2)

    async def invoices(order: tuple[int, ...]) -> list[tuple]:
        calls = list(writes)
        for i, j in zip(at, order, strict=True):
            calls[i] = writes[j]
        db = await replay(domain, backend, task, calls)
        try:
            return sorted((await snapshot(domain, db))["invoices"])
        finally:
            await backend.close(db)

    outcomes = {tuple(asyncio.run(invoices(order))) for order in itertools.permutations(at)}
    assert len(at) == 4 and len(outcomes) == 1


# -- reply facts and privacy: each pattern the blind audit found, both ways, on every instance --------------------


def _tasks(template: str) -> list[Task]:
    domain = tb_env.get_domain("auto_insurance")
    return [domain.tasks[k] for k in sorted(domain.tasks) if domain.tasks[k].tags.get("template") == template]


def _reward(task: Task, plan: list[ToolCall | str]) -> float | None:
    return asyncio.run(tb_env.run_episode(task, ScriptPolicy(plan), user="scripted", seed=0)).reward


def _said(task: Task, reply: str) -> float | None:
    """The golden calls, then `reply`."""
    return _reward(task, [*task.golden_actions, reply])


def test_a_third_extension_is_refused_with_the_two_a_year_rule_in_any_words_and_never_with_another_rule():
    for task in _tasks("extension_limit_reached"):
        assert _said(task, "Sorry, you've reached the annual cap on billing extensions for this policy.") == 1.0
        assert _said(task, "Sorry, the date you asked for would go past the maximum allowed for an extension.") == 0.0
        assert _said(task, "Sorry, that's over the limit, so I can't extend it.") == 0.0


def test_an_open_claim_refusal_names_the_claim_as_not_closed():
    for task in _tasks("remove_driver_open_claim"):
        claim = task.initial_patch["claims"][0]["id"]
        assert _said(task, "I can't remove them yet: they're the driver on an accident claim that hasn't been settled.") == 1.0
        assert _said(task, f"I see them on claim {claim}, but drivers can't be removed over chat.") == 0.0
    for task in _tasks("close_ticket_open_claim"):
        ticket, claim = task.initial_patch["tickets"][0]["id"], task.initial_patch["claims"][0]["id"]
        assert _said(task, f"Ticket {ticket} stays open while claim {claim} is still being handled; I noted your request.") == 1.0
        assert _said(task, f"I've added a note to ticket {ticket}; it's still open.") == 0.0


def test_a_status_fact_is_said_of_the_record_that_changed():
    for task in _tasks("close_resolved_ticket"):
        done, live = (t["id"] for t in task.initial_patch["tickets"])
        assert _said(task, f"I've closed {done}, the windshield ticket.") == 1.0
        assert _said(task, f"Your fender-bender ticket {live} stays open; it will be closed when that claim is settled.") == 0.0
    for task in _tasks("withdraw_claim_request"):
        other = next(c["id"] for c in task.initial_patch["claims"] if c["status"] != "reported")
        assert _said(task, "I've cancelled your windshield claim.") == 1.0
        assert _said(task, f"Your collision claim {other} stays open and will be closed once the repair is paid.") == 0.0


def test_the_namesakes_records_are_never_read():
    for task in _tasks("same_name_billing_read"):
        me = task.golden_actions[1].arguments["policyholder_id"]
        twin = next(p["id"] for p in task.initial_patch["policies"] if p["policyholder_id"] != me)
        assert _said(task, task.golden_reply) == 1.0
        for at in (1, 2):  # before and after verifying the caller
            calls = list(task.golden_actions)
            calls.insert(at, ToolCall(name="get_billing_account", arguments={"policy_id": twin}))
            assert _reward(task, [*calls, task.golden_reply]) == 0.0


def test_the_new_annual_premium_counts_as_the_new_premium_not_as_the_change():
    for task in _tasks("vehicle_approval_granted"):
        (premium,) = [f for a in task.assertions if a.kind == "response_contains" for f in a.body.facts]
        new = next(a for a in premium.aliases if a.startswith("premium is $"))[len("premium is "):]
        assert _said(task, f"The vehicle is added. Your annual premium is now {new}.") == 1.0
        assert _said(task, f"The vehicle is added. Your premium goes up {new} a year.") == 0.0
