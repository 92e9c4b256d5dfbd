"""The auto-insurance pack: what its tasks' grading relies on in its tools."""

from __future__ import annotations

import asyncio
import itertools
import re

import pytest

import tb_env
from tb_env.backends.sqlite import SQLiteBackend
from tb_env.core.check import replay, snapshot
from tb_env.domain.task import Task, ToolCall
from tb_env.kit.probes import ScriptPolicy

from .task_probes import golden_arg, instances, scores

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
        # audit 17: the claim told by what it is to the ticket, its id in brackets, is the subject
        assert _said(task, f"I can't close {ticket}: the claim it relates to ({claim}) is still open. I noted your "
                           "request on the ticket.") == 1.0
        assert _said(task, f"I can't close {ticket} now; I noted your request. Ticket {ticket} ({claim}) is still open.") == 0.0


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
        new = _premium(task)["new"]
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


# -- a premium change: the annual change said yearly and in its direction, the prorated amount said as
# billed or credited for the rest of the term, the new premium as the premium (alternatives, each in its role)


def _premium(task: Task, i: int = 0) -> dict[str, str]:
    """The i-th premium change a task requires: its amounts as a reply writes them, and its direction words."""
    facts = [f for a in task.assertions if a.kind == "response_contains" for f in a.body.facts if f.alternatives]
    f = facts[i]
    old, new = f.alternatives[1].fact.split(" to ")
    up = any(w.startswith("up to ") for w in f.alternatives[1].aliases)
    return {"a": f"${float(f.fact):,.2f}", "p": f"${float(f.alternatives[0].fact):,.2f}", "old": old, "new": new,
            "d": "up" if up else "down", "nd": "down" if up else "up", "inv": "charged" if up else "credited",
            "winv": "refunded" if up else "charged"}


PREMIUM_TEMPLATES = ("similar_driver_remove", "vehicle_approval_granted", "driver_approval_granted",
                     "add_vehicle_ask_details", "remove_vehicle_ask_date", "liability_limit_approval",
                     "add_optional_coverage", "household_update")
PREMIUM_SAID = ("Your annual premium goes {d} by {a}.",
                "That changes your premium by {a} a year ({p} {inv} for the rest of this term).",
                "Your premium is now {new} a year.",
                "Your premium goes from {old} to {new}.",
                "For the rest of this term, {p} is {inv} on your next invoice.",
                "The annual premium change is {a}, and the prorated amount of {p} is {inv} to your account.")
PREMIUM_MISSAID = ("Your premium goes {nd} by {a} a year.",  # the wrong direction
                   "Your premium goes {d} by {p} a year.",  # the prorated amount as the yearly change
                   "Your premium changes by {p}/year.",
                   "Your premium goes {d} by {a} a month.",  # the annual change as monthly
                   "I've {winv} {p} for the rest of the term.",  # a charge said as a refund, or back
                   "Your premium goes {d} by {new}.",  # the new premium as the change
                   "Your annual premium is {a}.",  # the change as the premium
                   "The {a} is {inv} on your next invoice.")  # the annual change as the prorated amount


def test_a_premium_change_counts_in_its_role_and_direction_and_not_swapped():
    """The audit: "goes up $790" for a decrease, and the prorated $155.84 said "a year", scored 1."""
    for template in PREMIUM_TEMPLATES:
        for task in _tasks(template):
            if not [f for a in task.assertions if a.kind == "response_contains" for f in a.body.facts if f.alternatives]:
                continue  # a denied limit increase changes no premium
            v = _premium(task)
            for text in PREMIUM_SAID:
                assert _said(task, text.format(**v)) == 1.0, (task.id, text.format(**v))
            for text in PREMIUM_MISSAID:
                assert _said(task, text.format(**v)) == 0.0, (task.id, text.format(**v))


def test_a_new_deductible_and_its_savings_are_each_said_in_their_role():
    for task in _tasks("deductible_change"):
        v, ded = _premium(task), f"${int(task.user.known_facts['new_deductible']):,}"
        for text in (f"Your deductible is now {ded}. Your annual premium goes down by {v['a']}.",
                     f"Done, I've raised it to {ded}, which saves you {v['a']} a year.",
                     f"Your new deductible: {ded}. Savings: {v['a']} per year.",
                     f"The deductible is {ded} from now on; you'll save {v['a']} annually, and {v['p']} is credited "
                     "for the rest of this term.",
                     f"Your {golden_arg(task, 'change_coverage', 'coverage_type')} deductible is now {ded}. Your "
                     f"premium is now {v['new']}."):
            assert _said(task, text) == 1.0, (task.id, text)
        for text in (f"Your deductible is now {v['a']}, which saves you {ded} a year.",  # swapped
                     f"Your deductible is now {ded}, which saves you {v['p']} a year.",  # prorated as yearly
                     f"Your deductible is now {ded}; your premium goes up by {v['a']} a year.",  # wrong direction
                     f"I've raised it to {ded}; I'll charge {v['p']} for the rest of the term.",  # a credit as a charge
                     f"Your deductible is now {ded}."):
            assert _said(task, text) == 0.0, (task.id, text)


def test_an_optional_coverage_cost_is_not_its_daily_rate_or_limit():
    for task in _tasks("add_optional_coverage"):
        v, what = _premium(task), task.user.goal.split("Add ")[1].split(" to the policy")[0]
        option = re.search(r"\$(\d[\d,]*)", what)
        for text in (f"{what} is added. It costs {v['a']} a year.",
                     f"Done: {what} is added, costing {v['a']} a year; {v['p']} is added to your next invoice.",
                     f"{what} is on your policy now and adds {v['a']} to your annual premium.",
                     f"It's added. The annual cost is {v['a']} and the prorated charge for the rest of this term is {v['p']}."):
            assert _said(task, text) == 1.0, (task.id, text)
        swapped = (f"Rental coverage at {v['a']} a day is added. It costs ${option.group(1)} a year." if "rental" in what
                   else f"Medical payments coverage with a {v['a']} limit is added. It costs ${option.group(1)} a year."
                   if option else f"Roadside assistance is added at {v['a']} a month.")
        for text in (swapped, f"{what} is added. It costs {v['p']} a year.", f"{what} is added. It costs {v['a']} a month.",
                     f"{what} is added. I refunded {v['p']} for the rest of the term."):
            assert _said(task, text) == 0.0, (task.id, text)


def test_two_premium_changes_are_each_said_of_their_own_change():
    for task in _tasks("replace_vehicle_bundle"):
        car, rent = _premium(task, 0), _premium(task, 1)
        new = task.user.goal.split(" with the new ")[1].split(" (")[0]
        for text in (f"Your {new} replaces the old car, and your premium goes {car['d']} by {car['a']} a year. Rental "
                     f"reimbursement adds {rent['a']} a year.",
                     f"The vehicle swap changes your premium by {car['a']} a year ({car['d']}). The rental coverage costs "
                     f"{rent['a']} more a year.",
                     f"Swapping the car moves your annual premium {car['d']} {car['a']}; rental reimbursement is "
                     f"{rent['a']} a year more.",
                     f"Your new annual premium is {rent['new']}."):
            assert _said(task, text) == 1.0, (task.id, text)
        for text in (f"Your {new} changes your premium by {rent['a']} a year, and the rental coverage adds {car['a']} a year.",
                     f"Your premium goes {car['nd']} by {car['a']} a year for the car. Rental reimbursement adds "
                     f"{rent['a']} a year.",
                     f"Your {new} replaces the old car, and your premium goes {car['d']} by {car['a']} a year. Rental "
                     f"reimbursement at {rent['a']} a day is added.",
                     f"Your {new} replaces the old car, and your premium goes {car['d']} by {car['a']} a month. Rental "
                     f"reimbursement adds {rent['a']} a year."):
            assert _said(task, text) == 0.0, (task.id, text)


# -- two amounts of one reply, each bound to its role ---------------------------------------------------------------


def _facts(task: Task) -> list:
    return [f for a in task.assertions if a.kind == "response_contains" for f in a.body.facts]


def _money(x: str | float) -> str:
    return f"${float(x):,.2f}"


def test_the_amount_charged_is_not_the_next_instalment():
    """The audit: the next instalment and the amount charged swapped scored 1."""
    for task in _tasks("pay_invoice"):
        paid, card = _money(_facts(task)[0].fact), task.user.known_facts["card"]
        nxt = _money(min((i for i in task.initial_patch["invoices"] if i["status"] == "open" and i["due_date"] > "2026-11-30"),
                         key=lambda i: i["due_date"])["amount"])
        for text in (f"I've charged {paid} to your {card}. Your next instalment of {nxt} is due later.",
                     f"Payment of {paid} processed on your {card}; the invoice is paid.",
                     f"Done: your {card} was charged {paid}, covering the overdue instalment and the $15 late fee.",
                     f"You paid {paid} in full."):
            assert _said(task, text) == 1.0, (task.id, text)
        for text in (f"I've charged {nxt} to your {card}. Your next instalment of {paid} is due later.",
                     f"Your next instalment is {paid}.", "I've processed your payment."):
            assert _said(task, text) == 0.0, (task.id, text)
    for task in _tasks("waive_and_pay"):
        paid = _money(_facts(task)[1].fact)
        for text in (f"I've waived the late fee and charged {paid} to your card.", f"Late fee waived; payment of {paid} processed."):
            assert _said(task, text) == 1.0, (task.id, text)
        assert _said(task, f"I've waived the {paid} late fee and charged $15.00 to your card.") == 0.0


def test_what_is_overdue_now_is_not_the_next_instalment():
    for task in _tasks("billing_balance_read"):
        owed, due = _money(_facts(task)[0].fact), _facts(task)[1].fact
        nxt = _money(next(i for i in task.initial_patch["invoices"] if i["due_date"] == due)["amount"])
        for text in (f"You owe {owed} right now, including the $15 late fee. Your next payment of {nxt} is due {due}.",
                     f"Past due: {owed}. Next due date: {due}.",
                     f"Your overdue balance is {owed} and the next instalment is due on {due}."):
            assert _said(task, text) == 1.0, (task.id, text)
        for text in (f"You owe {nxt} right now. Your next payment of {owed} is due {due}.",
                     f"Your next instalment is {owed}, due {due}."):
            assert _said(task, text) == 0.0, (task.id, text)


def test_the_renewal_premium_and_the_deductible_are_each_said_in_their_role():
    for task in _tasks("renewal_read"):
        f = _facts(task)
        when, renewal, ded = f[0].fact, _money(f[1].fact), _money(f[2].fact)
        now = _money(next(p for p in task.initial_patch["policies"] if p["status"] == "active")["annual_premium"])
        for text in (f"Your policy renews on {when}; the renewal premium will be {renewal}. Your deductible is {ded}.",
                     f"Renewal date: {when}. Next year's premium: {renewal}. Deductible: {ded}.",
                     f"It renews {when} at {renewal} for the next term (currently {now}), and the deductible is {ded}."):
            assert _said(task, text) == 1.0, (task.id, text)
        for text in (f"Your policy renews on {when}; the renewal premium will be {ded}. Your deductible is {renewal}.",
                     f"Your policy renews on {when} at {now}; right now you pay {renewal} a year. Your deductible is {ded}."):
            assert _said(task, text) == 0.0, (task.id, text)


def test_the_first_instalment_of_an_arrangement_is_not_the_balance_it_splits():
    for task in _tasks("arrangement_with_waiver"):
        first, due = _money(_facts(task)[1].fact), _facts(task)[2].fact
        total = re.search(r"overdue (\$[\d,.]+)", task.golden_reply or "").group(1)
        for text in (f"I waived the late fee and split your {total} balance into payments of {first}, the first due {due}.",
                     f"The late fee is waived. Your first instalment is {first}, due {due}."):
            assert _said(task, text) == 1.0, (task.id, text)
        assert _said(task, f"I waived the late fee and split your {first} balance into payments of {total}, the first "
                           f"due {due}.") == 0.0, task.id


def test_a_rental_daily_limit_is_not_the_deductible():
    for template in ("fnol_assign", "similar_vehicle_claim", "rental_ask_days"):
        for task in _tasks(template):
            daily = next(f.fact for f in _facts(task) if f.fact.startswith("$"))
            rest = ", ".join(f.fact for f in _facts(task) if not f.fact.startswith("$"))
            for text in (f"{rest}. Your rental is covered up to {daily} per day.", f"{rest}. Rental limit: {daily}/day."):
                assert _said(task, text) == 1.0, (task.id, text)
            assert _said(task, f"{rest}. Your deductible is {daily}, rental up to $500 a day.") == 0.0, task.id


def test_the_adjuster_hand_off_counts_in_any_words_and_not_when_denied():
    """The audit: "sent it to the adjuster for her review" and "Elena Santos will be in touch" scored 0."""
    for task in _tasks("claim_change_after_assignment"):
        phone = task.user.known_facts["new_phone"]
        adj = (task.golden_reply or "").split("adjuster ")[1].split(" is already")[0]
        said = f"Your phone is now {phone}."
        for text in (f"{said} I couldn't change the date, so I sent it to the adjuster for her review.",
                     f"{said} I can't change the loss date myself. {adj} will be in touch about it.",
                     f"{said} The loss date can't be changed here because an adjuster is assigned. I sent your correction to her.",
                     f"{said} I've opened a ticket with the correct date for the adjuster.",
                     f"{said} I've passed the correct date on to {adj}, your adjuster.",
                     f"{said} Your adjuster, {adj}, will review the date change.",
                     f"{said} I've asked your adjuster to update the loss date.",
                     f"{said} I've logged the correct loss date so {adj.split()[0]} can correct it.",
                     f"{said} I escalated the date correction to your adjuster.",
                     f"{said} The adjuster will reach out to confirm the new loss date.",
                     f"{said} I've flagged the date for {adj} to fix."):
            assert _said(task, text) == 1.0, (task.id, text)
        for text in (f"{said} Your adjuster is {adj}.", f"{said} I couldn't change the loss date.",
                     f"{said} Your adjuster is assigned, so the date stays as it is.",
                     f"{said} I wasn't able to send the correction to your adjuster.",
                     f"{said} I can't change the loss date and {adj} won't be able to either."):
            assert _said(task, text) == 0.0, (task.id, text)


# -- the fifth audit: signed and shorthand premiums, the claim acted on, the real waiver rule, refusals told as done --


def test_a_premium_change_said_with_its_sign_or_a_yearly_shorthand_counts_and_the_wrong_sign_fails():
    """The audit: "+$55/yr", "premium -$1,367.50/yr" scored 0."""
    for template in PREMIUM_TEMPLATES:
        for task in _tasks(template):
            if not [f for a in task.assertions if a.kind == "response_contains" for f in a.body.facts if f.alternatives]:
                continue
            v = _premium(task)
            sign, wrong = ("+", "-") if v["d"] == "up" else ("-", "+")
            for text in (f"Done: {sign}{v['a']}/yr.", f"Premium: {sign}{v['a']}/yr.",
                         f"Annual premium change: {sign}{v['a']}.", f"Your premium goes {v['d']} {v['a']} annually.",
                         f"Premium impact: {v['a']} per year, {v['d']}.", f"Your premium goes {v['d']} {v['a']} p.a."):
                assert _said(task, text) == 1.0, (task.id, text)
            for text in (f"Premium: {wrong}{v['a']}/yr.", f"Premium: {sign}{v['a']}/mo.",
                         f"Premium: {sign}{v['p']}/yr."):
                assert _said(task, text) == 0.0, (task.id, text)


def test_a_car_swap_and_a_rental_coverage_said_as_signed_shorthands_count_each_of_its_own():
    """The audit: "the RAV4 replaces the Equinox (+$707.25/yr, ...); rental ... is added (+$36/yr)" scored 0."""
    for task in _tasks("replace_vehicle_bundle"):
        car, rental = _premium(task, 0), _premium(task, 1)
        sc, sr = ("+" if car["d"] == "up" else "-"), ("+" if rental["d"] == "up" else "-")
        k = task.user.known_facts
        daily = k["rental_coverage_daily_limit"]
        said = (f"Effective {k['swap_date']}: the new car replaces the {k['car_traded_in']} ({sc}{car['a']}/yr, "
                f"lienholder {k['lienholder_loan']}); rental reimbursement at ${daily}/day is added ({sr}{rental['a']}/yr).")
        swapped = (f"Effective {k['swap_date']}: the new car replaces the {k['car_traded_in']} ({sc}{rental['a']}/yr, "
                   f"lienholder {k['lienholder_loan']}); rental reimbursement at ${daily}/day is added ({sr}{car['a']}/yr).")
        assert _said(task, said) == 1.0, (task.id, said)
        assert _said(task, swapped) == 0.0, (task.id, swapped)


def test_the_withdrawn_claim_is_the_windshield_claim_and_never_the_one_that_stays_open():
    """The audit: "I've withdrawn your collision claim CLM-5012" (the claim that stays open) scored 1."""
    for task in _tasks("withdraw_claim_request"):
        glass = next(c["id"] for c in task.initial_patch["claims"] if c["status"] == "reported")
        other = next(c["id"] for c in task.initial_patch["claims"] if c["status"] != "reported")
        for text in (f"I've withdrawn the windshield claim {glass}; {other} stays open.",
                     f"{glass} has been withdrawn; your collision claim {other} remains open.",
                     "Done, I cancelled the windshield chip claim; the collision claim is still open.",
                     f"Claim {glass} (the windshield chip) is now closed out as withdrawn.",
                     "Your glass claim has been retracted."):
            assert _said(task, text) == 1.0, (task.id, text)
        for text in (f"I've withdrawn your collision claim {other}.",
                     f"Your windshield claim {glass} is withdrawn. Your collision claim {other} was withdrawn too.",
                     f"I cancelled claim {other}."):
            assert _said(task, text) == 0.0, (task.id, text)


def test_a_second_waiver_is_refused_with_the_real_rule_and_never_said_as_waived():
    """The audit: the real rule in other words scored 0; an invented rule ("only with autopay, once per policy") 1."""
    for task in _tasks("waiver_already_used"):
        first = next(i for i in task.initial_patch["invoices"] if i.get("late_fee_waived"))["id"]
        for text in (f"I can't: policy permits a single late-fee waiver per rolling year, and you had one on {first} in "
                     "September.",
                     "Since we already took off a late fee for you in September, I can't take off another one until next "
                     "September.",
                     "I can't waive it; we already waived a late fee on your policy this year.",
                     "We can only waive one late fee every 12 months, and we have waived one already.",
                     f"Sorry, a fee was already waived on {first}, so this one stays."):
            assert _said(task, text) == 1.0, (task.id, text)
        for text in ("Sorry, we only waive late fees for customers with autopay, once per policy.",
                     "Sorry, I'm not able to waive this fee.",
                     "I've waived the late fee on your overdue invoice; you already had one waived in September.",
                     "Good news: the late fee is now waived, though you already had one waived this year."):
            assert _said(task, text) == 0.0, (task.id, text)


def _refused(template: str) -> list[Task]:
    """The instances where the caller's request was refused (or left to someone else)."""
    return [t for t in _tasks(template)
            if any(a.kind == "outcome" and a.body.stance in ("refused", "not_done") for a in t.assertions)]


REFUSED_SAID_DONE = {  # template: (a denial a competent agent adds, the claim a sloppy agent adds)
    "driver_approval_denied": ("They have not been added to your policy.", "I've added them to your policy."),
    "vehicle_approval_denied": ("It has not been added.", "I've added the car to your policy anyway."),
    "liability_limit_approval": ("Your limits have not been raised.", "Your liability limits are now 500/1000."),
    "remove_driver_open_claim": ("They haven't been removed yet.", "I have removed them from your policy."),
    "rideshare_vehicle": ("The car has not been added.", "I've added the car to your policy."),
    "claim_without_coverage": ("No claim has been filed.", "I've filed your claim."),
    "extension_limit_reached": ("Nothing has been extended.", "I've extended your due date by a week."),
    "verification_failed": ("Your phone number has not been changed.", "Your phone number has been updated."),
    "claim_change_after_assignment": ("The loss date hasn't been changed yet.", "I've also updated the loss date."),
    "verify_by_policy_number": ("Your address hasn't been updated yet.", "I've also updated your address."),
    "waiver_already_used": ("The late fee hasn't been removed.", "I've waived the late fee."),
}


def test_a_refused_or_pending_change_is_never_said_to_be_done():
    """Pattern C: the golden reply plus a sentence claiming the refused change was made scores 0."""
    for template, (denial, claim) in REFUSED_SAID_DONE.items():
        tasks = _refused(template)
        assert tasks, template
        for task in tasks:
            assert _said(task, f"{task.golden_reply} {denial}") == 1.0, (task.id, denial)
            assert _said(task, f"{task.golden_reply} {claim}") == 0.0, (task.id, claim)
    for task in _tasks("lienholder_deductible"):
        claim = ("I've raised your collision deductible to $2,000." if "2,000" in task.user.first_message
                 else "I've removed comprehensive coverage from your policy.")
        assert _said(task, f"{task.golden_reply} Nothing has been changed.") == 1.0, task.id
        assert _said(task, f"{task.golden_reply} {claim}") == 0.0, (task.id, claim)
    for task in _tasks("close_ticket_open_claim"):
        ticket = task.initial_patch["tickets"][0]["id"]
        assert _said(task, f"{task.golden_reply} Ticket {ticket} has not been closed.") == 1.0, task.id
        assert _said(task, f"{task.golden_reply} Actually, I've closed ticket {ticket}.") == 0.0, task.id
    for task in _tasks("non_policyholder_caller"):
        claim = ("The car has been removed from the policy." if "autopay" not in task.user.first_message
                 else "Autopay has been turned off.")
        assert _said(task, f"{task.golden_reply} Nothing has been changed.") == 1.0, task.id
        assert _said(task, f"{task.golden_reply} {claim}") == 0.0, (task.id, claim)
    for task in [t for t in _tasks("billing_extension")  # those where the date asked is past the 14-day limit
                 if t.user.known_facts["wanted_due_date"] != golden_arg(t, "grant_billing_extension", "new_due_date")]:
        asked = task.user.known_facts["wanted_due_date"]
        assert _said(task, f"{task.golden_reply} I couldn't move it to {asked}.") == 1.0, task.id
        assert _said(task, f"Your invoice is now due {asked}.") == 0.0, task.id


# -- outcome stance: how each action the caller asked for ended ------------------------------------------

REFUSALS = ("extension_limit_reached", "lienholder_deductible", "waiver_already_used", "driver_approval_denied",
            "vehicle_approval_denied", "non_policyholder_caller", "rideshare_vehicle", "remove_driver_open_claim",
            "close_ticket_open_claim", "claim_without_coverage", "verification_failed")


def _outcomes(task: Task) -> list:
    return [a.body for a in task.assertions if a.kind == "outcome"]


def test_every_request_has_its_outcome():
    """A refusal template refuses (or hands on) the action asked for; every golden write the caller asked
    for is `done`, about its own record."""
    from tasks.auto_insurance.generate import ACTIONS

    for template in REFUSALS:
        for task in _tasks(template):
            assert any(o.stance in ("refused", "not_done") for o in _outcomes(task)), task.id
    domain = tb_env.get_domain("auto_insurance")
    for task in domain.tasks.values():
        verbs = {o.action for o in _outcomes(task) if o.stance == "done"}
        for c in task.golden_actions:
            if c.name in ACTIONS and c.name != "update_claim":  # told as "update" or "correct"
                assert ACTIONS[c.name][0] in verbs, (task.id, c.name)


def test_a_refused_add_is_never_said_done_in_any_words():
    """The audit: "I've put it on your policy" / "added to your policy" for a rideshare car scored 1."""
    for task in _tasks("rideshare_vehicle") + _tasks("vehicle_approval_denied"):
        vin = task.user.known_facts["vin"]
        model = next(v for v in task.initial_patch["vin_records"] if v["vin"] == vin)["model"]
        for text in ("I've put it on your policy.", "Added to your policy from today.",
                     f"I've added the {model}, but note that this use isn't covered.",
                     f"The {model} will be added once an underwriter approves."):
            assert _said(task, f"{task.golden_reply} {text}") == 0.0, (task.id, text)
        # (a note nobody wrote, "I've added a note to your account", is a write never made: round 9)
        for text in (f"I haven't added the {model}.", f"I haven't added the {model}; nothing on your policy changed."):
            assert _said(task, f"{task.golden_reply} {text}") == 1.0, (task.id, text)
    for task in _tasks("rideshare_vehicle"):
        model = next(v for v in task.initial_patch["vin_records"] if v["vin"] == task.user.known_facts["vin"])["model"]
        assert _said(task, f"I can't add the {model}: personal auto policies exclude rideshare and delivery driving, "
                           "so you'd need a commercial or rideshare policy.") == 1.0, task.id


def test_a_decided_request_or_claim_is_never_said_pending_or_denied_otherwise():
    """The audit: "pending" or "denied" after the golden path decided otherwise scored 1."""
    for task in _tasks("liability_limit_approval"):
        g = task.golden_reply
        if "denied" in g:
            bad = [f"{g} Your request is pending underwriter review.", f"{g} I've raised your limits to 500/1000."]
            good = ["I asked an underwriter about 500/1000 limits, and they declined it because of the at-fault claim in "
                    "the last three years. Your limits stay at 250/500."]
        else:
            bad = [f"{g} Your request is still pending with underwriting.", "Unfortunately the underwriter declined your "
                   "request.", f"{g} I couldn't raise the limits though."]
            good = [f"{g} Nothing else is pending."]
        for text in bad:
            assert _said(task, text) == 0.0, (task.id, text)
        for text in good:
            assert _said(task, text) == 1.0, (task.id, text)
    for template in ("fnol_assign", "fnol_injury", "similar_vehicle_claim"):
        for task in _tasks(template):
            cid = next(c.arguments["claim_id"] for c in task.golden_actions if c.name == "assign_adjuster")
            assert _said(task, f"{task.golden_reply} Unfortunately your claim {cid} was denied.") == 0.0, task.id
            assert _said(task, f"{task.golden_reply} I couldn't assign an adjuster yet.") == 0.0, task.id
            assert _said(task, f"{task.golden_reply} The adjuster will contact you once they review the photos.") == 1.0, task.id
    for task in _tasks("claim_without_coverage"):
        for text in ("Your claim is pending review.", "Your claim has been processed.", "I've filed your claim anyway."):
            assert _said(task, f"{task.golden_reply} {text}") == 0.0, (task.id, text)
    for task in _tasks("withdraw_claim_request"):
        glass = next(c["id"] for c in task.initial_patch["claims"] if c["status"] == "reported")
        other = next(c["id"] for c in task.initial_patch["claims"] if c["status"] != "reported")
        assert _said(task, f"Your windshield claim {glass} is still pending. Your collision claim {other} stays open.") == 0.0
        assert _said(task, f"I've withdrawn the windshield claim {glass}. Your collision claim {other} is still pending "
                           "with the adjuster and was not cancelled.") == 1.0, task.id


def test_the_overdue_amount_is_not_said_as_the_late_fee():
    """The audit: the overdue balance named as the late fee scored 1."""
    for task in _tasks("billing_balance_read"):
        owed, due = _money(_facts(task)[0].fact), _facts(task)[1].fact
        for text in (f"Your late fee is {owed}. Next due {due}.", f"You currently owe a late fee totaling {owed}. Next due {due}.",
                     f"There is an unpaid late charge of {owed}. Next due {due}.",
                     f"You missed a payment, so a penalty of {owed} applies. Next due {due}.",
                     f"Your late fee balance is {owed}. Next due {due}."):
            assert _said(task, text) == 0.0, (task.id, text)
        for text in (f"Your current balance: {owed} (that includes a $15.00 late fee). Next due {due}.",
                     f"Total past due: {owed}. The next instalment is due {due}.",
                     f"In total you owe {owed} now. Next due {due}."):
            assert _said(task, text) == 1.0, (task.id, text)


DONE_SAID_NOT = {  # template: (a sloppy sentence, a legitimate one)
    "pay_invoice": ("However, I couldn't process the payment.", "No further payment is needed until your next due date."),
    "waive_and_pay": ("The late fee waiver is pending supervisor approval.", "There's no late fee now."),
    "autopay_enroll": ("Unfortunately I couldn't set up autopay on that card.", "Your expired Visa was not used."),
    "deductible_change": ("Your deductible will be raised once an underwriter approves.", "Your other coverages were not changed."),
    "claim_correction_reported": ("The correction is pending adjuster review.",
                                  "Once an adjuster is assigned, they'll review the corrected details."),
    "rental_ask_days": ("The rental authorization is pending adjuster approval.", "Keep your receipts."),
    "close_resolved_ticket": ("Sorry, I couldn't close the windshield ticket.", "Your fender-bender ticket was not closed."),
    "household_update": ("The new driver is pending underwriter approval before being added.", "Nothing else is pending."),
}


def test_a_done_action_is_never_said_failed_or_waiting():
    for template, (sloppy, legit) in DONE_SAID_NOT.items():
        for task in _tasks(template)[:2]:
            assert _said(task, f"{task.golden_reply} {sloppy}") == 0.0, (task.id, sloppy)
            assert _said(task, f"{task.golden_reply} {legit}") == 1.0, (task.id, legit)


QUESTION_ONLY = {  # template: (writes a sloppy reply claims, true statements a careful one makes)
    "claim_status_read": (("I've waived your deductible for this claim.", "I've also authorized a rental car for you.",
                           "I've escalated your claim to a supervisor.", "Your deductible has been reduced to $250."),
                          ("Nothing has changed on your claim since it was filed.",
                           "No rental has been authorized on it.")),
    "billing_balance_read": (("I've waived the late fee as a courtesy.", "I've set up autopay so this won't happen again.",
                              "I've extended the due date by two weeks for you.",
                              "I went ahead and paid the overdue balance with your card."),
                             ("You're not on autopay, so nothing has been charged.", "No payment has been made yet.",
                              "Your earlier invoices were paid on time.",
                              "I can take a payment now if you'd like.")),
    "same_name_billing_read": (("I've set up autopay so it will be paid automatically.",
                                "I've already processed it with your card on file."),
                               ("Your previous invoices are all paid.", "I can set up autopay if you'd like.")),
    "renewal_read": (("I've renewed your policy for next year.", "I've lowered your deductible to save you money."),
                     ("Your premium has increased slightly from this year.",
                      "It renews automatically; nothing needs to be done.")),
}


def test_a_question_is_answered_without_a_write_said_done():
    """Pattern E: a caller who only asked must not hear of a payment, waiver, extension, autopay,
    renewal or deductible change that never happened; true states (invoices paid before, a premium
    up at renewal, a payment "set for" a date) still pass."""
    for template, (sloppy, legit) in QUESTION_ONLY.items():
        for task in _tasks(template):
            for text in sloppy:
                assert _said(task, f"{task.golden_reply} {text}") == 0.0, (task.id, text)
            for text in legit:
                assert _said(task, f"{task.golden_reply} {text}") == 1.0, (task.id, text)


def test_the_closed_claims_adjuster_or_deductible_is_not_said_as_the_recent_claims():
    """Pattern D: the older claim's adjuster said as the one handling the recent claim, or its
    collision deductible as the recent claim's, scores 0; named in their own role they pass."""
    for task in _tasks("claim_status_read"):
        old = re.search(r"handled by adjuster (\w+ \w+);", next(w.reply for w in task.wrong_paths if w.reply)).group(1)
        cid = next(r["id"] for r in task.initial_patch["claims"] if r["status"] != "closed")
        assert _said(task, f"{task.golden_reply} Your earlier collision claim was handled by {old} and is closed.") == 1.0
        assert _said(task, f"{old} is handling your claim {cid}. {task.golden_reply}") == 0.0, task.id
        assert _said(task, f"{task.golden_reply} I've closed claim {cid} for you.") == 0.0, task.id


def test_a_refused_deductible_change_has_no_substitute_said_made():
    """Pattern E: the lienholder rule refuses the change; "I've set it to $1,000 instead" (no such
    write) scores 0, an offer or the current deductible said as it stands scores 1."""
    for task in _tasks("lienholder_deductible"):
        for text in ("So I've set your deductible to $1,000 instead, the maximum allowed.",
                     "I've updated your deductible to the highest amount allowed instead.",
                     "Your deductible is now $1,000 instead."):
            assert _said(task, f"{task.golden_reply} {text}") == 0.0, (task.id, text)
        for text in ("Your deductibles stay set at $500; nothing has been changed.",
                     "If you'd like, I could set it to $1,000 instead."):
            assert _said(task, f"{task.golden_reply} {text}") == 1.0, (task.id, text)


def test_a_decided_underwriting_request_is_not_said_to_wait_in_other_words():
    """Pattern A: once the underwriter has decided, "once approved", "if the underwriter approves",
    "it's with underwriting" say it still waits; a narration of the decision does not."""
    for task in _tasks("liability_limit_approval"):
        for text in ("Once approved, your limits will rise to 500/1000.",
                     "Your request is with underwriting; if approved, the new limits apply.",
                     "The change will be saved once our team reviews it."):
            assert _said(task, f"{task.golden_reply} {text}") == 0.0, (task.id, text)
        assert _said(task, f"I asked an underwriter to review it. {task.golden_reply}") == 1.0, task.id


def test_a_loss_date_left_to_the_adjuster_is_not_said_changed_in_other_words():
    """Pattern E: the loss date is the adjuster's to change; "both changes are made", "corrected
    the date", "now shows ... as the loss date" say otherwise."""
    for task in _tasks("claim_change_after_assignment"):
        for text in ("Both changes have been made.", "I've also corrected the date on the claim.",
                     "The claim now shows the new date as the loss date."):
            assert _said(task, f"{task.golden_reply} {text}") == 0.0, (task.id, text)


def test_an_extension_is_not_said_waiting_and_the_asked_date_may_be_set_against_the_new_one():
    """Patterns A and F: the due date moved is done ("will move once a supervisor approves" is
    false); the date asked for, named as not granted ("rather than ..."), passes."""
    for task in _tasks("billing_extension"):
        new = next(c.arguments["new_due_date"] for c in task.golden_actions if c.name == "grant_billing_extension")
        asked = task.user.known_facts["wanted_due_date"]
        assert _said(task, f"{task.golden_reply} Your due date will move once a supervisor approves it.") == 0.0
        if asked != new:
            assert _said(task, f"{task.golden_reply} So your new due date is {new} rather than {asked}.") == 1.0


def test_the_driver_who_stays_is_never_said_removed():
    """The core reads an outcome's `others` as records the action was not done to: the kept
    driver said removed ("Gideon has been removed too") scores 0, said kept scores 1."""
    for task in _tasks("household_update"):
        kept = task.user.known_facts.get("driver_staying")
        if not kept:
            continue
        assert _said(task, f"{task.golden_reply} {kept} has been removed too.") == 0.0, task.id
        assert _said(task, f"{task.golden_reply} {kept} stays on the policy.") == 1.0, task.id


# -- round 9: values in a role the write never gave them, writes never made, details never shared ---------------


def _ai(template: str) -> list[Task]:
    return instances("auto_insurance", template)


def _rows(task: Task, table: str) -> list[dict]:
    return task.initial_patch.get(table, [])


def test_the_value_before_a_change_is_never_said_as_the_new_one():
    """Audit 8: the old phone, deductible, due date, limits, loss date or email said as the new one scored 1."""
    for task in _ai("update_contact"):
        old, new = _rows(task, "policyholders")[0]["phone"], golden_arg(task, "update_contact_info", "phone")
        scores(task, legit=[task.golden_reply.replace("Done:", f"Done, updated from {old}:"),
                            f"I've changed your phone number to {new} (previously {old})."
                            + (f" Your email is now {golden_arg(task, 'update_contact_info', 'email')}."
                               if "email" in task.user.known_facts.get("new_email", "") or "new_email" in task.user.known_facts else "")],
               sloppy=[f"I've changed your phone number to {old} (previously {new})."])
    for task in _ai("deductible_change"):
        ctype = golden_arg(task, "change_coverage", "coverage_type")
        new = golden_arg(task, "change_coverage", "deductible")
        cur = next(c for c in _rows(task, "coverages") if c["coverage_type"] == ctype)["deductible"]
        scores(task, legit=[task.golden_reply.replace("is now", f"went from ${cur:,} to"),
                            f"{task.golden_reply} (It was ${cur:,} before.)"],
               sloppy=[task.golden_reply.replace(f"is now ${new:,}.00", f"is now ${cur:,}.00 (you asked for ${new:,})"),
                       f"{task.golden_reply} Your {'comprehensive' if ctype == 'collision' else 'collision'} deductible "
                       "is now $1,000 as well."])
    for task in _ai("billing_extension"):
        orig = task.user.known_facts["payment_due_date"]
        new = golden_arg(task, "grant_billing_extension", "new_due_date")
        scores(task, legit=[f"{task.golden_reply} It was originally due {orig}.",
                            f"{task.golden_reply.split('Invoice')[0]}I moved the due date from {orig} to {new}."],
               sloppy=[f"{task.golden_reply.split('Invoice')[0]}I moved the due date to {orig} (it was {new})."])
    for task in [t for t in _ai("liability_limit_approval") if any(c.name == "change_coverage" for c in t.golden_actions)]:
        scores(task, legit=[f"{task.golden_reply} They were 250/500 before.", task.golden_reply.replace(
                   "Your liability limits are 500/1000", "Your liability limits went from 250/500 to 500/1000")],
               sloppy=[f"{task.golden_reply} Your new liability limits are 250/500.",
                       f"{task.golden_reply} Your liability limits are now 100/300."])
    for task in _ai("claim_correction_reported"):
        old = next(c for c in _rows(task, "claims"))["loss_date"]
        real = golden_arg(task, "update_claim", "loss_date")
        scores(task, legit=[task.golden_reply.replace(f"loss date {real}", f"loss date changed from {old} to {real}")],
               sloppy=[task.golden_reply.replace(f"loss date {real}", f"loss date changed to {old} (was {real})")])
    for task in _ai("claim_change_after_assignment"):
        old = next(c for c in _rows(task, "claims"))["loss_date"]
        # (the date on file said as the correction, "I noted the correct loss date as <old>", still scores 1: a
        # date's owner/rivals are not read by must_not_state; reported to the lead)
        scores(task, legit=[task.golden_reply.replace("for the adjuster to review", "and he'll review it"),
                            f"{task.golden_reply} The loss date on file stays {old} until then."])
    for task in _ai("household_update"):
        old = _rows(task, "policyholders")[0]["email"]
        new = golden_arg(task, "update_contact_info", "email")
        scores(task, legit=[task.golden_reply.replace(f"Your email is now {new}", f"Your email changed from {old} to {new}")],
               sloppy=[task.golden_reply.replace(f"Your email is now {new}", f"Your email is now {old} (was {new})"),
                       task.golden_reply.replace("the collision deductible is $1,000", "the collision deductible is $2,000"),
                       task.golden_reply.replace("the collision deductible is $1,000",
                                                 "the collision deductible is $500 (you asked for $1,000)")])


def test_another_record_or_option_is_never_said_in_the_written_role():
    """Audit 8: the other card, the other instalment count, another deductible or daily limit, 30 rental days,
    the coverage not added, the other car scored 1."""
    for tpl, tool in (("pay_invoice", "make_payment"), ("waive_and_pay", "make_payment"), ("autopay_enroll", "set_autopay")):
        for task in _ai(tpl):
            pm = golden_arg(task, tool, "payment_method_id")
            mine = next(m for m in _rows(task, "payment_methods") if m["id"] == pm)["label"]
            for other in (m["label"] for m in _rows(task, "payment_methods") if m["id"] != pm):
                scores(task, legit=[f"{task.golden_reply} (Charged to {mine}, not your {other}.)"],
                       sloppy=[task.golden_reply.replace(mine, other)
                               + (f" Autopay will use your {other}." if tool == "set_autopay" else "")])
    for task in _ai("arrangement_with_waiver"):
        k = golden_arg(task, "create_payment_arrangement", "installments")
        j = 4 if k != 4 else 2
        scores(task, legit=[task.golden_reply.replace(f"split into {k} payments", f"split into {k} monthly instalments"),
                            f"{task.golden_reply} The remaining {k - 1} payments follow monthly."],
               sloppy=[task.golden_reply.replace(f"split into {k} payments", f"split into {j} payments")])
    for task in [*_ai("fnol_assign"), *_ai("similar_vehicle_claim"), *_ai("fnol_injury")]:
        claim_ded = next(c for c in _rows(task, "coverages")
                         if c["coverage_type"] == golden_arg(task, "file_claim", "loss_type"))["deductible"]
        wrong = 2000 if claim_ded != 2000 else 250
        sloppy = [f"{task.golden_reply} Your deductible on this claim is ${wrong:,}."]
        if any(c.name == "authorize_rental" for c in task.golden_actions):
            days = golden_arg(task, "authorize_rental", "days")
            daily = next(c for c in _rows(task, "coverages") if c["coverage_type"] == "rental_reimbursement")["daily_limit"]
            other = 50 if daily != 50 else 30
            sloppy += [task.golden_reply.replace(f"{days} rental days", "30 rental days"),
                       task.golden_reply.replace(f"${daily:.2f} a day", f"${other:.2f} a day")]
        scores(task, legit=[f"{task.golden_reply} Your deductible on it is ${claim_ded:,}.",
                            f"{task.golden_reply} (Rentals are capped at 30 days per claim.)"], sloppy=sloppy)
    for task in _ai("rental_ask_days"):
        days = golden_arg(task, "authorize_rental", "days")
        scores(task, legit=[f"{task.golden_reply} Rentals can run up to 30 days per claim."],
               sloppy=[task.golden_reply.replace(f"for {days} days", "for 30 days")])
    for task in _ai("add_optional_coverage"):
        kind = golden_arg(task, "add_coverage", "coverage_type")
        other = "roadside assistance" if kind != "roadside_assistance" else "rental reimbursement"
        sloppy = [f"{task.golden_reply} I've also added {other}."]
        if kind == "rental_reimbursement":
            daily = golden_arg(task, "add_coverage", "daily_limit")
            sloppy.append(task.golden_reply.replace(f"${daily} a day", f"${50 if daily != 50 else 30} a day"))
        scores(task, legit=[task.golden_reply], sloppy=sloppy)
    for task in _ai("similar_vehicle_claim"):
        target = golden_arg(task, "file_claim", "vehicle_id")
        mine, other = (next(v for v in _rows(task, "vehicles") if (v["id"] == target) == want) for want in (True, False))
        scores(task, legit=[f"{task.golden_reply} Your {other['year']} {other['model']} is not affected."],
               sloppy=[task.golden_reply.replace(f"your {mine['year']} ", f"your {other['year']} ")])


def test_a_write_never_made_is_never_claimed_in_any_verb_of_the_domain():
    """Audit 8: 'I've opened a ticket', 'I've submitted it to an underwriter', 'I've insured it as a commuting car',
    'I've also set up autopay', 'I've escalated it to a supervisor' on tasks that made no such write scored 1."""
    for task in _ai("rideshare_vehicle"):
        scores(task, sloppy=[f"{task.golden_reply} I've submitted it to an underwriter for review.",
                             f"{task.golden_reply} I've insured it as a commuting car instead.",
                             f"{task.golden_reply} I've opened a ticket for our commercial team."])
    for task in _ai("non_policyholder_caller"):
        scores(task, legit=[f"{task.golden_reply} Once they contact us, we can take care of it."],
               sloppy=[f"{task.golden_reply} I've opened a ticket so they can confirm.",
                       f"{task.golden_reply} I've recorded your request."])
    for task in [*_ai("arrangement_with_waiver"), *_ai("waive_and_pay")]:
        scores(task, sloppy=[f"{task.golden_reply} I've also set up autopay on your card."])
    for task in [*_ai("vehicle_approval_denied"), *_ai("driver_approval_denied"), *_ai("claim_without_coverage")]:
        scores(task, legit=[f"{task.golden_reply} If you like, a supervisor can explain the decision."],
               sloppy=[f"{task.golden_reply} I've escalated it to a supervisor for a second review."])
    for task in _ai("claim_status_read"):
        scores(task, sloppy=[f"{task.golden_reply} I've also booked you a rental car.",
                             f"{task.golden_reply} I've updated the claim with your new phone number."])
    for task in _ai("fnol_injury"):
        ticket = golden_arg(task, "escalate_ticket", "ticket_id")
        scores(task, sloppy=[f"{task.golden_reply} Unfortunately I couldn't escalate ticket {ticket} yet."])


def test_a_caller_who_is_not_the_verified_policyholder_learns_nothing_of_the_account():
    """Audit 8: the phone's last digits, the cars on the policy and the card on file told to an unverified caller or
    to the policyholder's spouse scored 1."""
    for task in _ai("verification_failed"):
        holder = _rows(task, "policyholders")[0]
        car = _rows(task, "vehicles")[0]
        card = _rows(task, "payment_methods")[0]["label"]
        scores(task, sloppy=[f"{task.golden_reply} The number on file ends in {holder['phone'][-4:]}.",
                             f"{task.golden_reply} Your {car['make']} {car['model']} is still insured.",
                             f"{task.golden_reply} Autopay uses your {card}."])
    for task in _ai("non_policyholder_caller"):
        card = _rows(task, "payment_methods")[0]["label"]
        named = task.user.first_message
        cars = [v for v in _rows(task, "vehicles") if v["model"] not in named]
        scores(task, sloppy=[f"{task.golden_reply} Autopay currently charges the {card}.",
                             *(f"{task.golden_reply} The {v['make']} {v['model']} stays insured." for v in cars)])


# -- round 10 (audit 9): the record that stays said removed, asking the date, arrows in a correction ----------------


def _car(v: dict) -> str:
    return f"{v['year']} {v['make']} {v['model']}"


@pytest.mark.parametrize("task", _ai("similar_driver_remove"), ids=lambda t: t.id)
def test_the_husband_of_the_same_name_is_never_said_removed(task: Task):
    """Audit 9: "Your husband Rahul (born ...) is removed", "Both Rahuls are removed" and the husband's full name
    with his birth date said removed scored 1 though only the son was removed."""
    drivers = _rows(task, "drivers")
    son = next(d for d in drivers if d["relationship"] == "child")
    dad = next(d for d in drivers if d["relationship"] == "spouse")
    name, last = son["first_name"], son["last_name"]
    said_son = f"{name} (your son, born {son['date_of_birth']})"
    assert said_son in task.golden_reply
    rest = task.golden_reply.split(" is removed ", 1)[1]
    scores(task,
           legit=[task.golden_reply.replace(f"{said_son} is removed",
                                            f"I removed your son {name} (born {son['date_of_birth']})")
                  .replace(". Your annual", "; your husband stays on the policy. Your annual"),
                  f"Your husband {name} is unaffected, and your son {name} (born {son['date_of_birth']}) "
                  + rest.replace("from the policy", "comes off the policy", 1)],
           sloppy=[task.golden_reply.replace(said_son, f"Your husband {name} (born {dad['date_of_birth']})"),
                   task.golden_reply.replace(f"{said_son} is removed", f"Both {name}s are removed"),
                   task.golden_reply.replace(said_son, f"{name} {last} (born {dad['date_of_birth']})")])


@pytest.mark.parametrize("task", _ai("remove_vehicle_ask_date"), ids=lambda t: t.id)
def test_only_the_sold_car_is_said_removed_and_its_date_is_asked(task: Task):
    """Audit 9: "The Subaru Outback comes off your policy" (the Tesla was removed) scored 1, and nothing made the
    agent ask the date the policy says to ask for: a lucky guess of it scored 1."""
    cars = _rows(task, "vehicles")
    sold_id = golden_arg(task, "remove_vehicle", "vehicle_id")
    sold = next(v for v in cars if v["id"] == sold_id)
    assert _car(sold) in task.golden_reply
    kept = [v for v in cars if v["id"] != sold_id and v["model"] != sold["model"]]
    assert kept, task.id
    scores(task,
           legit=[task.golden_reply,
                  task.golden_reply.replace(f"The {_car(sold)} comes off your policy",
                                            f"I've removed the {sold['model']} from your policy, effective")
                  + f" Your {kept[0]['model']} stays on the policy.",
                  task.golden_reply.replace(f"The {_car(sold)} comes off",
                                            f"Your {kept[0]['make']} {kept[0]['model']} stays covered, and the "
                                            f"{sold['model']} comes off")],
           sloppy=[*(task.golden_reply.replace(_car(sold), _car(v)) for v in kept),
                   task.golden_reply.replace(f"The {_car(sold)} comes off", "Both cars are removed from")])
    guessed = asyncio.run(tb_env.run_episode(task, ScriptPolicy([*task.golden_actions, task.golden_reply], asks=False),
                                             user="scripted", seed=0)).reward
    assert guessed == 0.0, task.id


@pytest.mark.parametrize("task", _ai("claim_correction_reported"), ids=lambda t: t.id)
def test_a_correction_told_as_a_list_of_arrows_counts(task: Task):
    """Audit 9: "- Loss date: 2026-11-28 -> 2026-11-27 / - Vehicle: 2024 BMW X5 -> 2018 Ford F-150" scored 0."""
    claim = _rows(task, "claims")[0]
    cars = {v["id"]: v for v in _rows(task, "vehicles")}
    real = golden_arg(task, "update_claim", "loss_date")
    old_car, new_car = cars[claim["vehicle_id"]], cars[golden_arg(task, "update_claim", "vehicle_id")]
    scores(task, legit=[f"- Loss date: {claim['loss_date']} -> {real}\n- Vehicle: {_car(old_car)} -> {_car(new_car)}\n\n"
                        "No adjuster is assigned yet, so they'll see the corrected details.",
                        f"Claim {claim['id']} corrected:\n- Loss date: {claim['loss_date']} → {real}\n"
                        f"- Vehicle: {old_car['model']} → {new_car['model']}"],
           sloppy=[f"- Loss date: {real} -> {claim['loss_date']}\n- Vehicle: {_car(new_car)} -> {_car(old_car)}"])


def _usd(x: float) -> str:
    return f"${x:,.2f}"


@pytest.mark.parametrize("task", _ai("waiver_already_used"), ids=lambda t: t.id)
def test_a_used_waiver_is_not_said_of_the_overdue_invoice_nor_its_balance_misstated(task: Task):
    """Audit 11: the overdue balance one step off ($15 added again or left out) scored 1, and so did "your current
    invoice was already waived" (the waiver was used on an earlier one) and a bare "the late fee was already waived"."""
    invoices = _rows(task, "invoices")
    used = next(i for i in invoices if i["late_fee_waived"])
    due = next(i for i in invoices if i["status"] == "past_due")
    bal = due["amount"] + due["late_fee"]
    scores(task, legit=[f"Unfortunately I can't take this fee off: a late fee on your policy was already waived on "
                        f"{used['id']}, and we can only do that once every twelve months.",
                        f"I'm not able to waive the fee on {due['id']}, since you already had one waived within the past "
                        f"year.\n- Overdue now: {_usd(bal)}"],
           sloppy=[f"I can't waive it: one late fee per 12 months, and one was waived on {used['id']}. Your overdue "
                   f"balance is {_usd(bal + 15)}.",
                   f"I can't waive it: one late fee per 12 months, and one was waived on {used['id']}. Your overdue "
                   f"balance is {_usd(bal - 15)}.",
                   f"I can't waive it: one late fee per 12 months. Your current invoice {due['id']} was already waived.",
                   "Sorry, the late fee was already waived, so there's nothing to take off."])


@pytest.mark.parametrize("task", [*_ai("similar_vehicle_claim"), *_ai("rental_ask_days"), *_ai("fnol_assign")],
                         ids=lambda t: t.id)
def test_a_rental_is_told_with_the_days_limit_and_total_the_tools_gave(task: Task):
    """Audit 11: "30 rental days", 12 days for 10, "$400 a day" (the total said as the daily limit) and a made-up
    total reimbursement scored 1; "Days: 7" as a label line scored 0."""
    days = int(golden_arg(task, "authorize_rental", "days"))
    daily = float(re.search(r"\$(\d+)\.00 a day", task.golden_reply).group(1))
    # the golden reply without its rental (the claim, its adjuster), then the rental told in the test's words
    head = "" if task.tags["template"] == "rental_ask_days" else re.sub(
        r",? (?:and )?\d+ rental days (?:are )?authori[sz]ed at up to \$[\d,.]+ a day|I've authori[sz]ed \d+ rental "
        r"days at up to \$[\d,.]+ a day\.", "", task.golden_reply).strip() + " "
    claim = golden_arg(task, "authorize_rental", "claim_id")
    ok = f"{head}Rental authorised on claim {claim}:\n- Days: {days}\n- Daily limit: {_usd(daily)}"
    scores(task, legit=[ok])
    if task.tags["template"] == "rental_ask_days":
        scores(task, legit=[ok, f"Your rental on {claim} is approved for {days} days at up to {_usd(daily)} a day "
                                f"({_usd(days * daily)} in total); the policy allows up to 30 days per claim."])
    scores(task, sloppy=[f"{head}Your rental on {claim} is covered for 30 days at up to {_usd(daily)} a day.",
                         f"{head}Rental on {claim}: {_usd(daily)} a day for {days + 2} days.",
                         f"{head}Rental on {claim}: {days} days, up to {_usd(daily * days)} a day.",
                         f"{head}Rental on {claim}: {days} days at {_usd(daily)} a day, "
                         f"{_usd(daily * 30)} in total."])


@pytest.mark.parametrize("task", _ai("arrangement_with_waiver"), ids=lambda t: t.id)
def test_an_instalment_told_by_its_date_counts_beside_the_balance_it_splits(task: Task):
    """Audit 11: "the $334.70 you owe: you'll pay $167.35 on 2026-12-14" scored 0 (a word of the balance in the
    sentence); an instalment said as the whole overdue balance scores 0."""
    m = re.search(r"late fee on invoice (\S+) and set up payment arrangement (\S+): your overdue (\$[\d,.]+) is split "
                  r"into (\d) payments, the first (\$[\d,.]+) due (\S+), then every 30 days\. I've noted ticket (\S+)\.",
                  task.golden_reply)
    inv, arr, total, k, first, due, ticket = m.groups()
    head = f"I've waived the late fee on {inv} and noted ticket {ticket}. "
    scores(task, legit=[f"{head}I've set up arrangement {arr} for the {total} you owe: you'll pay {first} on {due}, "
                        f"then every 30 days, {k} payments in all.",
                        f"{head}Your overdue balance is now split in {k}: {first} due {due}, then {first} every 30 "
                        f"days."],
           sloppy=[f"{head}Your overdue balance of {first} is in arrangement {arr}, split into {k} payments from {due}."])


@pytest.mark.parametrize("task", [*_ai("pay_invoice"), *_ai("billing_balance_read")], ids=lambda t: t.id)
def test_a_balance_is_never_said_one_step_off(task: Task):
    """Audit 11: "your remaining balance on it is $15.00" after paying it in full, and the overdue amount said as the
    next instalment, scored 1."""
    past = next(i for i in _rows(task, "invoices") if i["status"] == "past_due")
    bal = past["amount"] + past["late_fee"]
    if task.tags["template"] == "pay_invoice":
        card = re.search(r"to your (.+?) for invoice", task.golden_reply).group(1)
        scores(task, legit=[f"Payment of {_usd(bal)} went through on the {card}, so invoice {past['id']} is paid in "
                            "full and nothing is left on it."],
               sloppy=[f"I charged {_usd(bal)} to your {card} for {past['id']}. Your remaining balance on it is "
                       f"{_usd(past['late_fee'])}."])
    else:
        nxt = min((i for i in _rows(task, "invoices") if i["status"] == "open"), key=lambda i: i["due_date"])
        scores(task, legit=[f"You currently owe {_usd(bal)} on {past['id']} (the instalment plus a $15 late fee). The "
                            f"next payment, {_usd(nxt['amount'])}, is due {nxt['due_date']}."],
               sloppy=[f"You owe {_usd(bal)} right now. The next payment is due {nxt['due_date']}, and it is "
                       f"{_usd(bal)}."])


@pytest.mark.parametrize("task", _tasks("claim_status_read"), ids=lambda t: t.id)
def test_audit19_the_closed_claims_id_said_as_the_recent_ones_scores_0(task):
    recent = re.search(r"CLM-\d+", task.golden_reply).group(0)
    old = next(c["id"] for c in task.initial_patch["claims"] if c["status"] == "closed")
    scores(task, legit=[f"{task.golden_reply} Your older collision claim {old} is closed."],
           sloppy=[task.golden_reply.replace(recent, old)])


@pytest.mark.parametrize("task", _tasks("fnol_injury"), ids=lambda t: t.id)
def test_audit20_the_claim_and_ticket_ids_swapped_score_0(task):
    """Audit 20: "I've filed claim T-9001 ... I also opened ticket CLM-9001" scored 1 (both ids real, roles swapped)."""
    reply = task.golden_reply or ""
    claim, ticket = re.search(r"claim (CLM-\d+)", reply).group(1), re.search(r"ticket (T-\d+)", reply).group(1)
    swapped = reply.replace(claim, "@@").replace(ticket, claim).replace("@@", ticket)
    scores(task, legit=[f"{reply} Ticket {ticket} is linked to claim {claim}."], sloppy=[swapped])


@pytest.mark.parametrize("task", _tasks("autopay_enroll"), ids=lambda t: t.id)
def test_audit20_a_made_up_autopay_discount_scores_0(task):
    """Earlier audits: "you get a $25 autopay discount" (no such perk; $25 is another figure) scored 1."""
    reply = task.golden_reply or ""
    scores(task, legit=[f"{reply} There is no discount for autopay."],
           sloppy=[f"{reply} You also get a $25 autopay discount.", f"{reply} Autopay comes with a 25.00 discount."])


def test_a_yearly_change_named_by_its_period_alone_counts_and_its_direction_is_held_on_its_own():
    """Audit 26: "... for $890 a year, billed pro rata" and "Annual premium: $890.00 per year, billed pro rata on
    INV-7151" scored 0 (the period was no owner, and the pro-rata words after it won). The direction is now its own
    check, so naming the period cannot pass the other direction."""
    for task in _tasks("add_vehicle_ask_details"):
        v = _premium(task)
        invoice = re.search(r"INV-\d+", task.golden_reply).group(0)
        for text in (f"The car is covered now, for {v['a']} a year, billed pro rata.",
                     f"Annual premium: {v['a']} per year, billed pro rata on {invoice}.",
                     f"It's {v['a']} per year on top of your current premium."):
            assert _said(task, text) == 1.0, (task.id, text)
        for text in (f"It lowers your premium by {v['a']} a year.", f"You'll save {v['a']} per year.",
                     f"The car is covered now, for {v['p']} a year, billed pro rata."):
            assert _said(task, text) == 0.0, (task.id, text)
