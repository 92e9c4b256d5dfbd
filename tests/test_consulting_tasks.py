"""The consulting tasks grade what the agent says, not which words it happens to use: a status
is said of its record in any of its real wordings ("Elif no longer has AWS-DEV", "T-5011 stays
open" or "stays pending", "access will be revoked on 2026-12-11") and a reply that says it did
not happen ("I couldn't grant PBI-VIEW"), that something else happened ("approved by Kofi
Iverson" for a request that waits for him) or that swaps two numbers (the limit and the total)
scores 0; numbers count in words as in digits, and in a labelled line ("Working days: 5")."""

from __future__ import annotations

import pytest

from tb_env.domain.task import Task

from .task_probes import golden_arg as _arg
from .task_probes import instances
from .task_probes import said as _said

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "twenty-one",
         "twenty-two", "twenty-three", "twenty-four", "twenty-five", "twenty-six", "twenty-seven", "twenty-eight",
         "twenty-nine", "thirty"]


def _tasks(template: str) -> list[Task]:
    return instances("consulting", template)


def _facts(task: Task) -> list:
    return [f for a in task.assertions if a.response_contains for f in a.response_contains.facts]


def _employee(task: Task, eid: str) -> dict:
    return next(e for e in task.initial_patch["employees"] if e["id"] == eid)


def _name(e: dict) -> str:
    return f"{e['first_name']} {e['last_name']}"


def _early(task: Task) -> bool:
    return "right away" in task.user.first_message


@pytest.mark.parametrize("task", [t for t in _tasks("offboarding-future") if _early(t)], ids=lambda t: t.id)
def test_access_ending_on_the_last_day_is_said_in_any_wording_and_only_with_the_day(task):
    last = _arg(task, "start_offboarding", "last_day")
    opened = f"I've opened offboarding case LC-9001 with last day {last}."
    for reason in (f"I can't remove their access early: it will be revoked automatically on {last}.",
                   f"Per policy their access ends on {last}; I can't cut it before then.",
                   f"Their account will be deactivated on {last}, so I haven't changed anything now.",
                   "Their access stays in place until their last day, when the leaver process removes it."):
        assert _said(task, f"{opened} {reason}") == 1, reason
    assert _said(task, f"{opened} I can't cut their access early.") == 0
    assert _said(task, f"{opened} Their access stays until HR confirms the leave date.") == 0


@pytest.mark.parametrize("task", _tasks("ticket-resolve-pending"), ids=lambda t: t.id)
def test_a_ticket_that_waits_for_approval_stays_open_or_pending_and_is_not_said_closed(task):
    tk = _arg(task, "get_ticket", "ticket_id")
    owner = next(f.fact for f in _facts(task) if f.near)
    assert _said(task, f"I can't close {tk}: it is still waiting for {owner}'s approval, so it stays open.") == 1
    assert _said(task, f"Ticket {tk} remains pending until {owner} approves the request; I noted that you asked.") == 1
    assert _said(task, f"I'm unable to resolve {tk} while the request awaits approval from {owner}.") == 1
    assert _said(task, f"Done, ticket {tk} is closed. {owner} still needs to approve the request.") == 0
    assert _said(task, f"I can't mark {tk} as resolved yet - {owner} still has to approve the request.") == 1
    assert _said(task, f"I can't close {tk}, sorry.") == 0


@pytest.mark.parametrize("task", _tasks("self-service-role") + _tasks("access-manager-approves"), ids=lambda t: t.id)
def test_a_granted_role_is_said_granted_and_not_refused(task):
    role = _arg(task, "grant_access", "role_id")
    assert _said(task, f"Done - {role} is now active.") == 1
    assert _said(task, f"I've granted the {role} role.") == 1
    assert _said(task, f"I couldn't grant {role}.") == 0
    assert _said(task, f"You'd need {role}; please ask your manager for it.") == 0


@pytest.mark.parametrize("task", _tasks("access-revoke-report"), ids=lambda t: t.id)
def test_a_revoked_role_is_said_gone_in_any_wording(task):
    role = _arg(task, "revoke_access", "role_id")
    who = _employee(task, _arg(task, "revoke_access", "employee_id"))["first_name"]
    assert _said(task, f"Done - {who} no longer has {role}.") == 1
    assert _said(task, f"I've removed {role}; everything else stays.") == 1
    assert _said(task, f"- {role}: revoked") == 1
    assert _said(task, f"I couldn't revoke {role}.") == 0


@pytest.mark.parametrize("task", _tasks("sod-conflict-refusal"), ids=lambda t: t.id)
def test_the_conflicting_role_counts_when_said_in_a_negative_sentence(task):
    wanted = task.user.known_facts["role_wanted"]
    held = task.user.known_facts["role_to_keep"]
    assert _said(task, f"Sorry, you can't hold both {held} and {wanted}: it's a segregation of duties conflict.") == 1
    assert _said(task, f"I can't add {wanted} for you, sorry.") == 0


@pytest.mark.parametrize("task", _tasks("access-owner-pending") + _tasks("sod-swap") + _tasks("hw-over-limit-employee")
                         + _tasks("access-approved-fulfil"), ids=lambda t: t.id)
def test_the_approver_is_said_as_awaited_not_as_having_approved(task):
    who = next(f.fact for f in _facts(task) if f.near and f.may_be_negated and " " in f.fact)
    rest = " ".join(f.fact for f in _facts(task) if f.fact != who and not f.near)
    template = task.tags["template"]
    done = (f"{_arg(task, 'grant_access', 'role_id')} is granted." if template == "access-approved-fulfil" else
            f"I removed {task.user.known_facts['role_to_give_up']}." if template == "sod-swap" else "")
    assert _said(task, f"{rest}. {done} It is awaiting approval from {who}.") == 1
    assert _said(task, f"{rest}. {done} It still needs {who}'s sign-off.") == 1
    assert _said(task, f"{rest}. {done} It was approved by {who}.") == 0


def _leave_tasks() -> list[Task]:
    return [t for name in ("leave-booking", "ask-leave-dates", "verify-retry-leave", "leave-rebook") for t in _tasks(name)]


@pytest.mark.parametrize("task", _leave_tasks(), ids=lambda t: t.id)
def test_working_days_count_in_words_and_in_a_labelled_line(task):
    days = int(next(f.fact for f in _facts(task) if f.fact.isdigit()))
    old = next((f.fact for f in _facts(task) if f.fact.startswith("LR-") and f.fact != "LR-9001"), None)
    cancelled = f"I cancelled {old}. " if old else ""
    assert _said(task, f"{cancelled}Booked LR-9001: {WORDS[days]} working days, pending your manager's approval.") == 1
    assert _said(task, f"{cancelled}Your leave is submitted as LR-9001 ({days} days).") == 1
    assert _said(task, f"{cancelled}- Request: LR-9001\n- Working days: {days}\n- Status: pending approval") == 1
    assert _said(task, f"{cancelled}Booked LR-9001: {days + 2} working days.") == 0
    if old:
        assert _said(task, f"I couldn't cancel {old}, but I booked LR-9001 for {days} working days.") == 0


@pytest.mark.parametrize("task", _tasks("leave-balance") + _tasks("leave-insufficient"), ids=lambda t: t.id)
def test_the_days_available_count_in_words_and_in_a_labelled_line(task):
    available = int(next(f.fact for f in _facts(task) if "days" in f.why))
    assert _said(task, f"You have {WORDS[available]} days of annual leave left.") == 1
    assert _said(task, f"**Available annual leave:** {available} days") == 1
    assert _said(task, f"You have {available + 9} days of annual leave available.") == 0


@pytest.mark.parametrize("task", _tasks("budget-question"), ids=lambda t: t.id)
def test_the_limit_and_the_total_cannot_swap_and_the_verdict_counts(task):
    limit, total = (f.fact for f in _facts(task) if f.near)
    fits = float(total.replace(",", "")) <= float(limit.replace(",", ""))
    verdict, wrong = ("so they fit within your limit", "so they're over your limit") if fits else \
        ("so they exceed your limit and would need your manager's approval", "so they're within your limit")
    assert _said(task, f"Your hardware limit is ${limit}. Those items come to ${total}, {verdict}.") == 1
    assert _said(task, f"Your hardware limit is ${limit}. Those items come to ${total}, {wrong}.") == 0
    assert _said(task, f"Your hardware limit is ${total}. Those items come to ${limit}, {verdict}.") == 0


@pytest.mark.parametrize("task", _tasks("licence-assign") + _tasks("verify-retry-licence") + _tasks("licence-reclaim"),
                         ids=lambda t: t.id)
def test_an_assigned_seat_is_said_assigned_not_unavailable(task):
    product = next(f.fact for f in _facts(task) if f.may_be_negated)
    assert _said(task, f"You're all set - I've assigned you a {product} seat.") == 1
    assert _said(task, f"You now have {product}.") == 1
    assert _said(task, f"Sorry, there are no {product} seats left.") == 0
    assert _said(task, f"I couldn't assign {product}.") == 0


@pytest.mark.parametrize("task", _tasks("licence-release"), ids=lambda t: t.id)
def test_a_released_seat_is_said_released(task):
    product = next(f.fact for f in _facts(task) if f.may_be_negated)
    assert _said(task, f"Done - you no longer have a {product} seat.") == 1
    assert _said(task, f"I've taken back your {product} licence.") == 1
    assert _said(task, f"Your {product} seat is free for others now.") == 1
    assert _said(task, f"I couldn't reclaim your {product} seat.") == 0


@pytest.mark.parametrize("task", _tasks("cancel-order-distractor"), ids=lambda t: t.id)
def test_the_cancelled_order_is_said_cancelled(task):
    oid = _arg(task, "cancel_hardware_order", "order_id")
    assert _said(task, f"Order {oid} has been cancelled.") == 1
    assert _said(task, f"Done, I've cancelled {oid}.") == 1
    assert _said(task, f"- {oid}: cancelled") == 1
    assert _said(task, f"I couldn't cancel {oid}: it has already shipped.") == 0


@pytest.mark.parametrize("task", _tasks("offboarding-today") + _tasks("ask-last-day"), ids=lambda t: t.id)
def test_an_offboarding_done_now_is_said_done(task):
    assert _said(task, "Offboarding case LC-9001 is complete.") == 1
    assert _said(task, "Under LC-9001 I revoked every role, reclaimed the seats, requested the devices back and "
                       "disabled the account.") == 1
    assert _said(task, "I opened LC-9001 but couldn't complete the offboarding.") == 0


@pytest.mark.parametrize("task", _tasks("address-change") + _tasks("address-redirect"), ids=lambda t: t.id)
def test_an_address_change_is_said_done_and_a_readdressed_order_readdressed(task):
    a = next(c.arguments for c in task.golden_actions if c.name == "update_home_address")
    new = f"{a['line1']}, {a['city']}, {a['state']} {a['zip_code']}"
    order = next((c.arguments["order_id"] for c in task.golden_actions if c.name == "update_order_shipping"), None)
    redirected = f" Order {order} will now ship to your new address." if order else ""
    assert _said(task, f"Your home address is updated to {new}.{redirected}") == 1
    assert _said(task, f"Done. New address: {new}.{redirected}") == 1
    assert _said(task, f"I wasn't able to update your address to {new}.{redirected}") == 0
    if order:
        assert _said(task, f"Your home address is updated to {new}. Order {order} will still go to the old one.") == 0


@pytest.mark.parametrize("task", _tasks("hw-over-limit-manager"), ids=lambda t: t.id)
def test_the_managers_own_approval_submits_the_order(task):
    assert _said(task, "I've recorded your approval, so HO-9001 is submitted.") == 1
    assert _said(task, "HO-9001 has been approved and is on its way.") == 1
    assert _said(task, "I placed HO-9001 and recorded your approval as their line manager.") == 1
    assert _said(task, "HO-9001 is pending your approval in the approval system.") == 0
    assert _said(task, "HO-9001 needs to be approved by you before it ships.") == 0


@pytest.mark.parametrize("task", _tasks("premium-licence-self"), ids=lambda t: t.id)
def test_a_premium_licence_is_declined_with_who_must_request_it(task):
    manager = _name(_employee(task, _employee(task, _arg(task, "get_employee", "employee_id"))["manager_id"]))
    assert _said(task, "That's a premium licence, so your line manager needs to request it for you.") == 1
    assert _said(task, f"Premium licences can only be requested by your line manager, {manager}.") == 1
    assert _said(task, "I can't do that, sorry.") == 0
    assert _said(task, f"Your manager {manager} has been notified.") == 0
