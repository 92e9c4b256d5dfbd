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


def test_a_vehicle_model_counts_in_every_form_it_is_written():
    """The audit: 'F150' did not state 'F-150'. A model is accepted joined, spaced or hyphenated."""
    forms = {"F-150": ["F150", "F 150"], "CR-V": ["CRV", "CR V"], "CX-5": ["CX5", "CX 5"], "Mazda3": ["Mazda 3"],
             "Model 3": ["Model3"], "RX 350": ["RX350"]}
    for task in _tasks("claim_correction_reported"):
        date = task.user.known_facts["real_loss_date"]
        model = next(v["model"] for v in task.initial_patch["vehicles"] if v["id"] == task.golden_actions[-1].arguments["vehicle_id"])
        for m in [model, *forms.get(model, [])]:
            assert _said(task, f"Done: the loss date is now {date} and the claim is on your {m}.") == 1.0
        assert _said(task, f"Done: I've updated the loss date to {date}.") == 0.0
        assert _said(task, "I've updated your claim as requested.") == 0.0


def test_a_denied_vehicle_is_refused_with_its_value_or_age_in_any_words():
    for task in _tasks("vehicle_approval_denied"):
        old = "too old" in (task.golden_reply or "")  # a pre-1995 model; else one worth more than $150,000
        good = (["The underwriter declined it: the car is too old for us to insure.",
                 "I checked with underwriting and can't add it: the model year is before 1995."] if old else
                ["The underwriter declined it because the car is worth more than we can insure.",
                 "Underwriting denied it: its value exceeds what a personal auto policy can insure.",
                 "I'm sorry, the underwriter rejected it since it's over the $150,000 limit.",
                 "The underwriter didn't approve it; the vehicle is outside what a personal auto policy can insure."])
        for text in good:
            assert _said(task, text) == 1.0, text
        for text in ("I'm sorry, I can't add that vehicle.", "The underwriter denied the request, so I can't add it."):
            assert _said(task, text) == 0.0, text


def test_a_denied_driver_is_refused_with_the_record_in_any_words():
    for task in _tasks("driver_approval_denied"):
        for text in ("The underwriter declined to add them because of the violations and accident on their record.",
                     "Unfortunately it was turned down: their driving history has too many incidents.",
                     "After underwriting review I can't add them, because of the speeding ticket and at-fault crash."):
            assert _said(task, text) == 1.0, text
        for text in ("I'm sorry, I can't add that driver.", "The underwriter denied the request."):
            assert _said(task, text) == 0.0, text


def test_refusals_cite_their_rule_in_any_words_and_a_bare_refusal_fails():
    cases = {
        "waiver_already_used": (
            ["I can't waive it: a late fee on this policy was already waived in the last 12 months.",
             "Sorry, we can only waive one late fee per year, and you had one waived in the spring.",
             "Unfortunately you've already used your once-a-year waiver."],
            ["Sorry, I can't waive the late fee.", "Sorry, I can't waive it this year."]),
        "lienholder_deductible": (
            ["I can't: because your car is financed, the lender requires both coverages with at most a $1,000 deductible.",
             "Sorry, with a lienholder on the vehicle the policy must keep both coverages.",
             "That's not possible while there's a loan on the car."],
            ["Sorry, I can't make that change.", "That's not allowed under our rules."]),
        "rideshare_vehicle": (
            ["I'm sorry, personal auto policies don't cover cars used for ridesharing or delivery.",
             "I can't add it: that's commercial use, which your policy excludes.",
             "Sorry, paid transport isn't something our personal auto coverage includes."],
            ["I'm sorry, I can't add that vehicle.", "Sorry, that's not allowed.", "Sorry, that car isn't eligible."]),
        "non_policyholder_caller": (
            ["I'm sorry, only the policyholder can make changes to this policy.",
             "Unfortunately I can only make changes at the request of the named insured.",
             "Since you're not the policyholder, I can't make that change."],
            ["I'm sorry, I can't help with that."]),
    }
    for template, (good, bad) in cases.items():
        for task in _tasks(template):
            for text in good:
                assert _said(task, text) == 1.0, (task.id, text)
            for text in bad:
                assert _said(task, text) == 0.0, (task.id, text)


def test_status_words_count_said_of_their_record_and_not_when_negated():
    for task in _tasks("close_resolved_ticket"):
        done, _ = (t["id"] for t in task.initial_patch["tickets"])
        for text in (f"{done} is now closed.", "Your windshield ticket is closed now.", f"Done, I've closed out {done}."):
            assert _said(task, text) == 1.0, text
        for text in (f"I couldn't close ticket {done}.", f"Ticket {done} is still open."):
            assert _said(task, text) == 0.0, text
    for task in _tasks("withdraw_claim_request"):
        glass = next(c["id"] for c in task.initial_patch["claims"] if c["status"] == "reported")
        for text in (f"I've withdrawn claim {glass}.", f"Done - {glass} is now closed.", "Your windshield claim was canceled."):
            assert _said(task, text) == 1.0, text
        for text in (f"I wasn't able to withdraw claim {glass}.", "I've looked at your claims."):
            assert _said(task, text) == 0.0, text


def test_a_correction_on_an_assigned_claim_is_said_to_go_to_the_adjuster():
    for task in _tasks("claim_change_after_assignment"):
        phone = task.user.known_facts["new_phone"]
        for text in (f"Your phone is now {phone}. I've passed the date correction to your adjuster.",
                     f"Phone updated to {phone}; I've noted the correct date on the ticket for your adjuster to review."):
            assert _said(task, text) == 1.0, text
        for text in (f"Your phone is now {phone}; your adjuster is assigned.",
                     f"I've updated your phone to {phone}. I couldn't change the loss date."):
            assert _said(task, text) == 0.0, text


def test_a_denied_limit_increase_is_told_as_the_decision_and_the_at_fault_claim():
    for task in _tasks("liability_limit_approval"):
        if task.golden_actions[-1].name == "change_coverage":
            continue
        for text in ("The underwriter declined 500/1000 because of an at-fault accident in the last three years.",
                     "I checked with underwriting: because of your recent at-fault claim, your limits stay at 250/500."):
            assert _said(task, text) == 1.0, text
        for text in ("The underwriter denied it.", "Your limits are now 500/1000 despite the at-fault accident."):
            assert _said(task, text) == 0.0, text
