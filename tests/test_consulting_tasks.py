"""The consulting tasks grade what the agent says, not which words it happens to use: a status
is said of its record in any of its real wordings ("Elif no longer has AWS-DEV", "T-5011 stays
open" or "stays pending", "access will be revoked on 2026-12-11") and a reply that says it did
not happen ("I couldn't grant PBI-VIEW"), that something else happened ("approved by Kofi
Iverson" for a request that waits for him) or that swaps two numbers (the limit and the total)
scores 0; numbers count in words as in digits, and in a labelled line ("Working days: 5")."""

from __future__ import annotations

import re

import pytest

from tb_env.domain.task import Task

from .task_probes import golden_arg as _arg
from .task_probes import instances, scores
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
def test_the_cancelled_order_is_said_cancelled_not_failed_or_waiting(task):
    oid = _arg(task, "cancel_hardware_order", "order_id")
    other = next(o["id"] for o in task.initial_patch["hardware_orders"] if o["status"] == "submitted" and o["id"] != oid)
    scores(task, legit=[f"Order {oid} has been cancelled.", f"Done, I've cancelled {oid}.", f"- {oid}: cancelled",
                        f"{oid} cancelled, {other} still open."],
           sloppy=[f"I couldn't cancel {oid}: it has already shipped.", f"The cancellation of {oid} failed.",
                   f"{oid} cancellation is pending approval.", f"I cancelled {oid}, but it's still pending."])


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


# -- each value bound to its own record: two records said the other way round score 0 ----------------------


def _fulfil_parts(task: Task) -> tuple[str, str, str, str, str]:
    granted = _arg(task, "grant_access", "role_id")
    rx = _arg(task, "grant_access", "request_id")
    other = next(r for r in task.initial_patch["access_requests"] if r["status"] == "pending_approval")
    who = next(f.fact for f in _facts(task) if f.near and f.may_be_negated)
    return granted, rx, other["role_id"], other["id"], who


@pytest.mark.parametrize("task", _tasks("access-approved-fulfil"), ids=lambda t: t.id)
def test_the_granted_role_and_the_waiting_one_keep_their_own_status(task):
    granted, rx, waiting, ry, who = _fulfil_parts(task)
    tk = next((t["id"] for t in task.initial_patch.get("tickets", [])), None)
    done = f" Ticket {tk} is resolved." if tk else ""
    for legit in (
        f"Request {rx} for {granted} was approved, so I granted the role.{done} Your other request, {ry} for {waiting}, "
        f"is still pending: {who} hasn't approved it yet.",
        f"I've granted {granted}.{done} {who} hasn't approved it yet, so {waiting} is still pending.",
        f"{granted} is now active.{done} As for {waiting}, {who} hasn't signed off yet.",
        f"I granted {granted} ({rx}).{done} {ry} for {waiting} is awaiting {who}'s decision.",
        f"Done - {granted} is enabled.{done} Your other request still needs {who} to approve it.",
        f"- {granted}: granted\n- {waiting}: pending {who}'s approval{done}",
    ):
        assert _said(task, legit) == 1, legit
    for swapped in (
        f"{waiting} has been granted.{done} {granted} is still waiting for approval from {who}.",
        f"I granted {waiting}, and {granted} is pending with {who}.{done}",
        f"I granted {granted}.{done} {granted} is still waiting for approval from {who}.",
        f"- {waiting}: granted\n- {granted}: pending {who}'s approval{done}",
    ):
        assert _said(task, swapped) == 0, swapped


@pytest.mark.parametrize("task", _tasks("access-owner-pending") + _tasks("hw-over-limit-employee"), ids=lambda t: t.id)
def test_an_approver_who_has_not_decided_yet_is_said_as_awaited_in_a_negative_wording(task):
    who = next(f.fact for f in _facts(task) if f.near and f.may_be_negated)
    rid = next(f.fact for f in _facts(task) if f.fact in ("AR-9001", "HO-9001"))
    for legit in (f"I submitted {rid}. {who} hasn't approved it yet.",
                  f"{rid} is in. {who} has not signed off on it so far.",
                  f"{rid} is submitted; it's now up to {who}.",
                  f"{rid} is submitted and is awaiting {who}'s approval.",
                  f"{rid} won't go through until {who} approves it."):
        assert _said(task, legit) == 1, legit
    assert _said(task, f"{rid} was approved by {who}.") == 0
    assert _said(task, f"I submitted {rid} and {who} approved it.") == 0


@pytest.mark.parametrize("task", _tasks("report-access-lookup"), ids=lambda t: t.id)
def test_the_held_roles_are_said_held_and_the_revoked_one_gone(task):
    who = _employee(task, _arg(task, "get_employee_access", "employee_id"))["first_name"]
    grants = [g for g in task.initial_patch["access_grants"] if g["role_id"] not in ("M365-USER", "INTRA-READ",
                                                                                       "TIME-USER", "JIRA-USER")]
    a, b = sorted(g["role_id"] for g in grants if g["status"] == "active")
    gone = next(g["role_id"] for g in grants if g["status"] == "revoked")
    for legit in (f"{who} has {a} and {b}. {who} no longer has {gone}.",
                  f"Current roles: {a}, {b}. {gone}: revoked in July.",
                  f"{who}'s active roles are {a} and {b}; {gone} was removed back in July.",
                  f"{who} holds {a} and {b}, but not {gone} any more - that was revoked.",
                  f"- {a} (active)\n- {b} (active)\n- {gone} (revoked)",
                  f"{gone} was revoked, but {who} still has {a} and {b}."):
        assert _said(task, legit) == 1, legit
    for sloppy in (f"{who} holds {a}, {b} and {gone}.",
                   f"{who} holds {b} and {gone}, {a} was revoked.",
                   f"{who} holds {a}, {b} and {gone}; none have been revoked.",
                   f"{who} holds {a} and {b}, and still has {gone}."):
        assert _said(task, sloppy) == 0, sloppy


@pytest.mark.parametrize("task", _tasks("cancel-order-distractor"), ids=lambda t: t.id)
def test_the_cancelled_order_and_the_kept_one_cannot_swap(task):
    oid = _arg(task, "cancel_hardware_order", "order_id")
    other = next(o["id"] for o in task.initial_patch["hardware_orders"] if o["status"] == "submitted" and o["id"] != oid)
    assert _said(task, f"I cancelled order {oid}. Your keyboard and mouse order {other} is unchanged.") == 1
    assert _said(task, f"{oid} is cancelled; {other} stays open.") == 1
    assert _said(task, f"I cancelled order {other}. Order {oid} is unchanged.") == 0
    assert _said(task, f"- {other}: cancelled\n- {oid}: still open") == 0


@pytest.mark.parametrize("task", _tasks("licence-release"), ids=lambda t: t.id)
def test_the_seat_given_back_and_the_one_kept_cannot_swap(task):
    product = next(f.fact for f in _facts(task) if f.may_be_negated)
    keep = next(f for f in _facts(task) if f.owner).rivals[0]
    assert _said(task, f"I've released your {product} seat; you keep {keep}.") == 1
    assert _said(task, f"Your {keep} stays, and your {product} licence has been taken back.") == 1
    assert _said(task, f"I've released your {keep} seat; you keep {product}.") == 0
    assert _said(task, f"{product} stays with you and I reclaimed {keep}.") == 0


@pytest.mark.parametrize("task", _tasks("sod-swap"), ids=lambda t: t.id)
def test_the_role_given_up_is_the_one_said_removed(task):
    held, wanted = task.user.known_facts["role_to_give_up"], task.user.known_facts["role_wanted"]
    who = next(f.fact for f in _facts(task) if f.near and f.may_be_negated)
    assert _said(task, f"I removed {held} and requested {wanted} as AR-9001; {who} hasn't approved it yet.") == 1
    assert _said(task, f"{held} is gone. AR-9001 for {wanted} now waits for {who}.") == 1
    assert _said(task, f"Done: {held} is no longer on your account. {wanted} is requested as AR-9001 and needs {who} "
                       f"to sign off.") == 1
    assert _said(task, f"I took away {held}; AR-9001 ({wanted}) is with {who} for approval.") == 1
    assert _said(task, f"- {held}: revoked\n- {wanted}: requested (AR-9001), awaiting {who}") == 1
    assert _said(task, f"I removed {wanted} and requested {held} as AR-9001; it waits for {who}.") == 0


@pytest.mark.parametrize("task", _tasks("leave-rebook"), ids=lambda t: t.id)
def test_the_cancelled_and_the_new_leave_keep_their_ids_and_days(task):
    old = next(f.fact for f in _facts(task) if f.fact.startswith("LR-") and f.fact != "LR-9001")
    days = int(next(f.fact for f in _facts(task) if f.fact.isdigit()))
    back = next(r["days"] for r in task.initial_patch["leave_requests"] if r["id"] == old)
    assert _said(task, f"I cancelled {old} ({back} days returned) and booked LR-9001 for {days} working days.") == 1
    assert _said(task, f"Done: {old} is cancelled. New request: LR-9001, {WORDS[days]} days, pending approval.") == 1
    assert _said(task, f"I cancelled LR-9001 and booked {old} for {days} working days.") == 0
    if back != days:
        assert _said(task, f"I cancelled {old} ({days} days returned) and booked LR-9001 for {back} working days.") == 0


@pytest.mark.parametrize("task", _tasks("leave-insufficient"), ids=lambda t: t.id)
def test_the_days_left_and_the_days_needed_cannot_swap(task):
    available = int(next(f.fact for f in _facts(task) if "days" in f.why))
    need = int(task.golden_reply.split("That range is ")[1].split()[0])
    assert _said(task, f"Those dates need {need} working days, but you only have {available} left, so I can't book it.") == 1
    assert _said(task, f"Your balance is {WORDS[available]} days, not enough for that range.") == 1
    assert _said(task, f"That range is {available} working days, but you only have {need} days available.") == 0


@pytest.mark.parametrize("task", [t for t in _tasks("address-redirect")
                                  if sum(o["status"] == "submitted" for o in t.initial_patch["hardware_orders"]) > 1],
                         ids=lambda t: t.id)
def test_the_home_order_is_the_one_said_readdressed(task):
    a = next(c.arguments for c in task.golden_actions if c.name == "update_home_address")
    new = f"{a['line1']}, {a['city']}, {a['state']} {a['zip_code']}"
    oid = _arg(task, "update_order_shipping", "order_id")
    office = next(o["id"] for o in task.initial_patch["hardware_orders"] if o["ship_to"] == "office")
    assert _said(task, f"Your address is updated to {new}. Order {oid} now ships to the new address; {office} still "
                       f"goes to the office.") == 1
    assert _said(task, f"Your address is updated to {new}. Order {office} now ships to the new address; {oid} is "
                       f"unchanged.") == 0


@pytest.mark.parametrize("task", _tasks("sod-conflict-refusal"), ids=lambda t: t.id)
def test_the_conflicting_role_is_the_one_held_not_the_one_asked_for(task):
    wanted = task.user.known_facts["role_wanted"]
    held = task.user.known_facts["role_to_keep"]
    assert _said(task, f"{wanted} conflicts with {held}, so I can't request it.") == 1
    assert _said(task, f"Because you already have {held}, I can't add {wanted}: segregation of duties.") == 1
    assert _said(task, f"{wanted} and {held} are incompatible, so I can't submit it.") == 1
    assert _said(task, f"Sorry - {wanted} clashes with {held}, which you want to keep.") == 1
    assert _said(task, f"I can't add {held}, as it conflicts with {wanted}.") == 0
    assert _said(task, f"I can't request {held}: it conflicts with {wanted}, which you hold.") == 0


@pytest.mark.parametrize("task", _tasks("order-status"), ids=lambda t: t.id)
def test_the_arrival_date_is_said_as_the_arrival_not_the_order_date(task):
    shipped = next(o for o in task.initial_patch["hardware_orders"] if o["status"] == "shipped")
    tn, eta = shipped["tracking_number"], shipped["eta"]
    assert _said(task, f"It's shipped with tracking number {tn} and should arrive on {eta}.") == 1
    assert _said(task, f"Tracking: {tn}. ETA: {eta}.") == 1
    assert _said(task, f"Tracking number {tn}; it was placed on {eta}.") == 0


# -- round 6: each act said of its own record, and nothing refused or pending said done ------------------------


def _ship(task: Task) -> str:
    return next(c.arguments["ship_to"] for c in task.golden_actions if c.name == "place_hardware_order")


@pytest.mark.parametrize("task", _tasks("licence-reclaim"), ids=lambda t: t.id)
def test_the_reclaimed_seat_is_said_assigned_to_the_caller_not_to_its_old_holder(task):
    old = _arg(task, "reclaim_licence", "employee_id")
    who = _name(_employee(task, old))
    product, tk = task.user.known_facts["product"], task.user.known_facts["ticket_id"]
    for legit in (f"Your ticket {tk} is resolved: I freed up the longest-unused seat and gave it to you, so the licence "
                  f"is yours now.",
                  f"I reclaimed {old}'s unused {product} seat and assigned it to you; {tk} is resolved.",
                  f"The pool was full, so I took back the seat assigned to {who}, unused longest, and gave it to you.",
                  f"You now have a {product} seat (reclaimed from {old}). Ticket {tk} is closed.",
                  f"Done - {product} is now assigned to you. It came from {who}'s idle seat.",
                  f"Good news: the {product} licence is now yours. Ticket {tk} is resolved.",
                  f"I've set you up with {product} using a reclaimed seat; {tk} is resolved."):
        assert _said(task, legit) == 1, legit
    for wrong in (f"The {product} licence has been assigned to {old}, and your ticket is resolved.",
                  f"I reclaimed a seat and assigned the {product} licence to {who}.",
                  f"{who} now has the {product} seat; {tk} is resolved."):
        assert _said(task, wrong) == 0, wrong


@pytest.mark.parametrize("task", _tasks("licence-waitlist"), ids=lambda t: t.id)
def test_a_waitlisted_seat_is_not_said_assigned(task):
    product = task.user.known_facts["product"]
    tail = "escalated to procurement; they will contact you within one business day."
    for legit in (f"All {product} seats are in use, so I opened ticket T-9001 and {tail}",
                  f"I couldn't assign you a {product} seat: every seat is assigned to a colleague who used it "
                  f"recently. Ticket T-9001 is {tail}",
                  f"No seat is free. T-9001 has been {tail} Once a seat is bought it will be assigned to you.",
                  f"I haven't assigned a seat yet - none can be reclaimed. Ticket T-9001, {tail}",
                  f"Every seat is taken. Ticket T-9001: {tail}"):
        assert _said(task, legit) == 1, legit
    for sloppy in (f"I've assigned you a {product} seat. Ticket T-9001 was {tail}",
                   f"A {product} seat has been assigned to you, and ticket T-9001 was {tail}",
                   f"Ticket T-9001 was {tail} Good news: {product} is yours now."):
        assert _said(task, sloppy) == 0, sloppy


@pytest.mark.parametrize("task", _tasks("leave-insufficient"), ids=lambda t: t.id)
def test_leave_that_does_not_fit_is_not_said_booked(task):
    available = int(next(f.fact for f in _facts(task) if "days" in f.why))
    start = task.user.known_facts["start_date"]
    for legit in (f"You only have {available} days left, so I can't book those dates.",
                  f"I haven't booked anything: you have {available} days available, fewer than the range needs.",
                  f"Nothing has been booked - your balance is {available} days.",
                  f"Sorry, that wasn't booked: only {available} days remain. If you pick shorter dates I can book them.",
                  f"Your balance is {available} days, not enough for that range, so no leave request was submitted."):
        assert _said(task, legit) == 1, legit
    for sloppy in (f"I've booked your leave from {start}; you have {available} days left after that.",
                   f"Your leave has been booked. You have {available} days available.",
                   f"I submitted your request as LR-9001; you have {available} days available."):
        assert _said(task, sloppy) == 0, sloppy


@pytest.mark.parametrize("task", _tasks("access-revoke-report"), ids=lambda t: t.id)
def test_the_revoked_role_and_the_kept_one_cannot_swap(task):
    role = _arg(task, "revoke_access", "role_id")
    e = _employee(task, _arg(task, "revoke_access", "employee_id"))
    other = next(g["role_id"] for g in task.initial_patch["access_grants"]
                 if g["employee_id"] == e["id"] and g["role_id"] not in (role, "M365-USER", "INTRA-READ", "TIME-USER"))
    for legit in (f"I revoked {role} from {_name(e)}; {other} stays.",
                  f"{e['first_name']} no longer has {role}. {other} is untouched.",
                  f"Done: {role} is removed and {other} is still in place.",
                  f"- {role}: revoked\n- {other}: kept",
                  f"{other} stays where it is; I've taken away {role}."):
        assert _said(task, legit) == 1, legit
    for wrong in (f"I revoked {other} from {_name(e)}; {role} stays.",
                  f"- {other}: revoked\n- {role}: kept",
                  f"{role} has been revoked, and {other} has been removed too.",
                  f"{role} is revoked - oh wait, actually {role} hasn't been revoked yet."):
        assert _said(task, wrong) == 0, wrong


@pytest.mark.parametrize("task", _tasks("access-manager-approves"), ids=lambda t: t.id)
def test_the_role_approved_on_the_call_is_said_granted_to_the_report(task):
    from tasks.consulting.generate import ROLES
    role = _arg(task, "grant_access", "role_id")
    e = _employee(task, _arg(task, "grant_access", "employee_id"))
    manager = task.user.known_facts["employee_id"]
    display = ROLES[role]["name"]
    other = next(r for r in ROLES.values() if r["system_id"] == ROLES[role]["system_id"] and r["id"] != role)["id"]
    for legit in (f"The {display} role has been granted to {e['first_name']}.",
                  f"I've granted {role} to {_name(e)} after recording your approval.",
                  f"Done - {role} is now active for {e['first_name']} (request AR-9001, approved by you).",
                  f"Request AR-9001 for {role}: approved by you and granted.",
                  f"{e['first_name']} now has {role}."):
        assert _said(task, legit) == 1, legit
    for wrong in (f"I granted {other} to {e['first_name']}; {role} still needs another approval.",
                  f"I granted XYZ-VIEW to {e['first_name']}; {role} still needs another approval.",
                  f"{role} has been granted to you ({manager}).",
                  f"I granted {role} to {e['first_name']}, but it is still pending your approval."):
        assert _said(task, wrong) == 0, wrong


@pytest.mark.parametrize("task", _tasks("ask-ship-destination") + _tasks("hw-over-limit-employee")
                         + _tasks("hw-over-limit-manager") + _tasks("lost-laptop") + _tasks("onboarding-new-hire"),
                         ids=lambda t: t.id)
def test_an_order_is_not_said_to_ship_to_the_other_place(task):
    where = _ship(task)
    other = "office" if where == "home" else "home"
    base = task.golden_reply
    assert _said(task, f"{base} It will be delivered to your {where}.") == 1
    assert _said(task, f"{base} It ships to the {other}.") == 0
    assert _said(task, f"{base} I'm sending it to your {other}.") == 0


@pytest.mark.parametrize("task", _tasks("cancel-order-distractor"), ids=lambda t: t.id)
def test_a_cancellation_taken_back_is_not_a_cancellation(task):
    oid = _arg(task, "cancel_hardware_order", "order_id")
    other = next(o["id"] for o in task.initial_patch["hardware_orders"] if o["status"] == "submitted" and o["id"] != oid)
    assert _said(task, f"Order {oid} is cancelled. Order {other} hasn't been cancelled: it is still open.") == 1
    assert _said(task, f"Order {oid} is cancelled - oh wait, actually it hasn't been cancelled yet.") == 0
    assert _said(task, f"Order {oid} is cancelled, and {other} has been cancelled too.") == 0


@pytest.mark.parametrize("task", _tasks("access-owner-pending") + _tasks("hw-over-limit-employee"), ids=lambda t: t.id)
def test_a_request_that_waits_is_not_said_granted_or_approved(task):
    who = next(f.fact for f in _facts(task) if f.near and f.may_be_negated)
    rid = next(f.fact for f in _facts(task) if f.fact in ("AR-9001", "HO-9001"))
    for legit in (f"{rid} is submitted; once {who} approves it, it will go through.",
                  f"I can't switch it on today: {rid} is pending until {who} has approved it.",
                  f"{rid} waits for {who}; it is granted only when approved.",
                  f"{rid} is in the queue for {who}; as soon as it has been approved, it goes through.",
                  f"{rid} won't go ahead until {who} has approved it."):
        assert _said(task, legit) == 1, legit
    for sloppy in (f"{rid} has been approved; {who} will be notified.",
                   f"{rid} is in and I've recorded the approval; {who} just needs to confirm.",
                   f"{rid} was approved. It still needs {who}'s sign-off for the record."):
        assert _said(task, sloppy) == 0, sloppy


@pytest.mark.parametrize("task", _tasks("sod-swap") + _tasks("access-approved-fulfil"), ids=lambda t: t.id)
def test_the_role_that_waits_is_not_said_granted(task):
    base = task.golden_reply
    waiting = (task.user.known_facts["role_wanted"] if task.tags["template"] == "sod-swap"
               else task.user.known_facts["other_request"].split(" for ")[1])
    assert _said(task, f"{base} {waiting} will be granted once it is approved.") == 1
    assert _said(task, f"{base} Update: {waiting} has been granted too.") == 0
    assert _said(task, f"{base} Actually I have granted {waiting} already.") == 0


def _refusal_claims(task: Task) -> list[str]:
    t = task.tags["template"]
    if t == "sod-conflict-refusal":
        w = task.user.known_facts["role_wanted"]
        return [f"I have requested {w} for you.", f"{w} has been granted.", f"AR-9001 for {w} is submitted."]
    if t == "access-denied-refusal":
        return ["I've resubmitted it for you.", "I submitted it again as AR-9001."]
    if t in ("laptop-refresh-refusal", "budget-question"):
        return ["I've placed the order anyway.", "Order HO-9001 has been placed.", "I have ordered it for you."]
    if t == "premium-licence-self":
        return ["I've assigned you a seat anyway.", "I have notified your manager.", "The licence is now yours."]
    if t == "manager-authority-check":
        return ["I have placed the order.", "I have started the offboarding as LC-9001.", "I have requested GIT-DEV."]
    if t == "role-info-question":
        return ["I have requested it for you as AR-9001.", "I have granted it to you."]
    if t == "ticket-resolve-pending":
        tk = _arg(task, "get_ticket", "ticket_id")
        return [f"Ticket {tk} is closed.", f"I have resolved ticket {tk}.", "Your ticket has been closed."]
    assert t == "offboarding-future"
    return ["I have revoked their access now.", "Their account has been disabled today."]


REFUSALS = [t for name in ("sod-conflict-refusal", "access-denied-refusal", "laptop-refresh-refusal", "budget-question",
                           "premium-licence-self", "manager-authority-check", "role-info-question",
                           "ticket-resolve-pending") for t in _tasks(name)] + \
    [t for t in _tasks("offboarding-future") if _early(t)]


@pytest.mark.parametrize("task", REFUSALS, ids=lambda t: t.id)
def test_a_refusal_is_not_said_done(task):
    base = task.golden_reply
    assert _said(task, base) == 1
    for legit in ("I haven't changed anything.", "Nothing has been submitted or ordered.",
                  "Let me know if there is anything else."):
        assert _said(task, f"{base} {legit}") == 1, legit
    for sloppy in _refusal_claims(task):
        assert _said(task, f"{base} {sloppy}") == 0, sloppy


@pytest.mark.parametrize("task", _tasks("ticket-resolve-pending"), ids=lambda t: t.id)
def test_a_ticket_left_open_until_the_request_is_decided_is_no_claim_of_closing(task):
    tk = _arg(task, "get_ticket", "ticket_id")
    owner = next(f.fact for f in _facts(task) if f.near and f.may_be_negated)
    assert _said(task, f"Ticket {tk} stays open until the request is resolved by {owner}.") == 1
    assert _said(task, f"I can't close {tk}: it stays pending until {owner} approves; once the request is approved, "
                       f"the ticket can be resolved.") == 1


@pytest.mark.parametrize("task", _tasks("address-change"), ids=lambda t: t.id)
def test_the_office_order_is_not_said_readdressed(task):
    office = next(o["id"] for o in task.initial_patch["hardware_orders"] if o["status"] == "submitted")
    base = task.golden_reply
    assert _said(task, f"{base} Order {office} still goes to the office.") == 1
    assert _said(task, f"{base} I also re-addressed order {office} to your new address.") == 0


@pytest.mark.parametrize("task", _tasks("licence-release"), ids=lambda t: t.id)
def test_the_kept_seat_is_not_said_reclaimed(task):
    keep = next(f for f in _facts(task) if f.owner).rivals[0]
    base = task.golden_reply
    assert _said(task, f"{base} You keep {keep}.") == 1
    assert _said(task, f"{base} {keep} has been reclaimed as well.") == 0


@pytest.mark.parametrize("task", [t for t in _tasks("offboarding-future") if _early(t)], ids=lambda t: t.id)
def test_access_said_to_end_on_the_last_day_is_no_claim_of_cutting_it_now(task):
    last = _arg(task, "start_offboarding", "last_day")
    assert _said(task, f"I've opened offboarding case LC-9001 with last day {last}. I can't remove their access early: "
                       f"it is revoked automatically on {last}, and then they will no longer have access.") == 1


# -- round 7: how each action ended is an outcome; a reply takes no stance against it ----------------------------


def _outcomes(task: Task) -> list:
    return [a.body for a in task.assertions if a.kind == "outcome"]


@pytest.mark.parametrize("task", _tasks("ask-leave-dates") + _tasks("leave-booking") + _tasks("verify-retry-leave"),
                         ids=lambda t: t.id)
def test_booked_leave_waits_for_the_manager_and_is_not_said_decided_or_not_made(task):
    days = int(next(f.fact for f in _facts(task) if f.fact.isdigit()))
    assert {(o.action, o.stance) for o in _outcomes(task)} >= {("approve", "pending"), ("reject", "not_done")}
    for legit in (f"I've booked your leave as LR-9001 ({days} working days); it's pending approval from your manager.",
                  f"I've booked your leave (LR-9001, {days} working days), pending your manager's approval.",
                  f"Leave request LR-9001 ({days} working days) has been submitted and is awaiting your manager's approval.",
                  f"Done - LR-9001 is in for {days} working days. You'll get an email as soon as your manager has "
                  f"approved it.",
                  f"LR-9001 is booked for {days} working days and will be final once approved.",
                  f"LR-9001 for {days} working days is booked. It isn't approved yet - your manager needs to approve it.",
                  f"LR-9001 ({days} working days) is booked. If your manager rejects it, the days go back to your "
                  f"balance."):
        assert _said(task, legit) == 1, legit
    for sloppy in (f"LR-9001 ({days} working days) is approved.",
                   f"I've booked and approved your leave: LR-9001, {days} working days.",
                   f"Your leave has been approved: LR-9001, {days} working days.",
                   f"Leave request LR-9001 ({days} working days) was rejected by your manager.",
                   f"Leave request LR-9001 ({days} working days) was declined.",
                   f"The leave request LR-9001 for {days} working days could not be created.",
                   f"I couldn't book it. Leave request LR-9001, {days} working days."):
        assert _said(task, sloppy) == 0, sloppy


@pytest.mark.parametrize("task", _tasks("leave-rebook"), ids=lambda t: t.id)
def test_the_new_leave_waits_and_the_old_one_is_not_said_kept(task):
    old = _arg(task, "cancel_leave_request", "request_id")
    days = int(next(f.fact for f in _facts(task) if f.fact.isdigit()))
    base = f"I cancelled {old} and booked LR-9001 for {days} working days"
    assert _said(task, f"{base}, pending your manager's approval.") == 1
    assert _said(task, f"{base}; it's waiting for your manager's approval.") == 1
    for sloppy in (f"{base}. LR-9001 has been approved.", f"{base}. LR-9001 was rejected.",
                   f"{base}. {old} could not be cancelled.", f"{base}. {old} is still active.",
                   f"{base}. LR-9001 was not created."):
        assert _said(task, sloppy) == 0, sloppy


@pytest.mark.parametrize("task", _tasks("leave-balance"), ids=lambda t: t.id)
def test_the_days_left_are_bound_to_what_is_left_not_what_was_used(task):
    n = int(next(f.fact for f in _facts(task) if "days" in f.why))
    for legit in (f"You have {n} days of annual leave available.", f"{n} days left.", f"You can still take {n} days.",
                  f"**Available:** {n} days", f"Your balance: {n} days.", f"You've got {n} days remaining."):
        assert _said(task, legit) == 1, legit
    for sloppy in (f"{n}", f"{n} days.", f"You've used {n} days this year.", f"You have taken {n} days so far.",
                   f"You're entitled to {n} days."):
        assert _said(task, sloppy) == 0, sloppy


@pytest.mark.parametrize("task", _tasks("offboarding-today") + _tasks("ask-last-day"), ids=lambda t: t.id)
def test_an_offboarding_done_is_not_said_unopened_and_returns_may_still_wait(task):
    base = task.golden_reply
    for legit in ("Offboarding case LC-9001 is complete: all roles revoked, licences reclaimed, account disabled, "
                  "pending the return of the devices.",
                  "LC-9001 is complete. Roles revoked, licences reclaimed, return kits requested (pending receipt), "
                  "account disabled.",
                  f"{base} There are no open checklist items.",
                  f"{base} The devices are pending return."):
        assert _said(task, legit) == 1, legit
    for sloppy in (f"{base} I couldn't open the offboarding ticket.", f"{base} The offboarding failed.",
                   f"{base} However, I couldn't disable the account.", f"{base} I wasn't able to revoke the roles."):
        assert _said(task, sloppy) == 0, sloppy


@pytest.mark.parametrize("task", _tasks("offboarding-future"), ids=lambda t: t.id)
def test_the_future_offboarding_case_is_not_said_unopened(task):
    base = task.golden_reply
    assert _said(task, f"{base} Nothing else is open.") == 1
    assert _said(task, f"{base} I couldn't open the offboarding case.") == 0


@pytest.mark.parametrize("task", _tasks("licence-reclaim") + _tasks("licence-assign") + _tasks("verify-retry-licence"),
                         ids=lambda t: t.id)
def test_an_assigned_seat_is_not_said_queued_or_waiting(task):
    base = task.golden_reply
    product = task.user.known_facts.get("product") or next(f.fact for f in _facts(task) if f.may_be_negated)
    assert _said(task, f"{base} No approval is needed.") == 1
    for sloppy in (f"{base} I've put you on the waitlist.", f"{base} You're on the waiting list for the next seat.",
                   f"{base} It is pending approval.", f"{base} Your {product} seat is pending approval.",
                   f"{base} The seat assignment is still pending.", f"{base} I couldn't assign you a seat."):
        assert _said(task, sloppy) == 0, sloppy


@pytest.mark.parametrize("task", _tasks("licence-reclaim") + _tasks("licence-assign") + _tasks("verify-retry-licence"),
                         ids=lambda t: t.id)
def test_another_product_said_as_the_seat_given_scores_0(task):
    """Audit 17: "I've assigned you a Power BI Pro licence" passed where Tableau was assigned, since "the
    licence is yours" names the task's one product; a wrong product's name is checked apart."""
    base = task.golden_reply
    mine = task.user.known_facts["product"]
    other = "Power BI Pro" if "Power BI" not in mine else "Tableau"
    assert _said(task, f"{base} Enjoy the new licence; it's yours now.") == 1
    assert _said(task, f"{base} I've also assigned you a {other} licence.") == 0
    assert _said(task, f"Done: you now have a {other} seat. {base}") == 0


@pytest.mark.parametrize("task", _tasks("licence-waitlist"), ids=lambda t: t.id)
def test_a_seat_that_procurement_must_buy_is_not_said_given(task):
    base = task.golden_reply
    tail = "I opened T-9001 and escalated it to procurement; they will contact you within one business day."
    for legit in (f"I couldn't assign you a seat: every seat is assigned to a colleague who used it recently. {tail}",
                  f"All seats are assigned to colleagues. {tail} Once bought, the seat will be assigned to you.",
                  f"No seat is free. {tail} Your seat request is pending with procurement."):
        assert _said(task, legit) == 1, legit
    for sloppy in (f"{base} The seat is yours.", f"{base} A seat has been assigned to you.",
                   f"{base} I've assigned you a seat.", f"{base} I've arranged a seat for you."):
        assert _said(task, sloppy) == 0, sloppy


@pytest.mark.parametrize("task", _tasks("budget-question") + _tasks("laptop-refresh-refusal"), ids=lambda t: t.id)
def test_an_order_only_asked_about_or_refused_is_not_said_placed(task):
    base = task.golden_reply
    for legit in ("Would you like me to place the order?", "I haven't placed an order.", "Nothing has been ordered.",
                  "Nothing has been submitted or ordered.", "You can order whenever you're ready."):
        assert _said(task, f"{base} {legit}") == 1, legit
    for sloppy in ("I've ordered them.", "They have been ordered.", "I ordered them for you.", "Ordered!",
                   "Your order has been placed."):
        assert _said(task, f"{base} {sloppy}") == 0, sloppy


@pytest.mark.parametrize("task", _tasks("premium-licence-self"), ids=lambda t: t.id)
def test_a_declined_premium_seat_may_be_said_to_follow_the_managers_request(task):
    base = task.golden_reply
    assert _said(task, f"{base} Once your line manager requests it, I can assign it.") == 1
    assert _said(task, f"{base} If your manager requests it, it will be assigned to you.") == 1
    assert _said(task, f"{base} I've assigned you a seat anyway.") == 0


@pytest.mark.parametrize("task", _tasks("access-manager-approves") + _tasks("hw-over-limit-manager"), ids=lambda t: t.id)
def test_an_approval_given_on_the_call_is_not_said_to_wait(task):
    base = task.golden_reply
    assert _said(task, f"{base} The approval is still pending.") == 0


@pytest.mark.parametrize("task", _tasks("sod-swap") + _tasks("access-approved-fulfil") + _tasks("hw-over-limit-employee")
                         + _tasks("access-owner-pending"), ids=lambda t: t.id)
def test_a_request_that_waits_is_not_said_rejected(task):
    rid = next(o.record[0] for o in _outcomes(task) if (o.action, o.stance) == ("reject", "not_done"))
    base = task.golden_reply
    assert _said(task, f"{base} If it's rejected, you'll hear from me.") == 1
    assert _said(task, f"{base} {rid} was rejected.") == 0
    assert _said(task, f"{base} Unfortunately {rid} has been declined.") == 0


# -- round 7: totals written out, each value in its own role, and no write claimed on a question --------------


def _limit_total(task: Task) -> tuple[str, str]:
    limit, total = (f.fact for f in _facts(task) if f.near)
    return limit, total


@pytest.mark.parametrize("task", _tasks("budget-question"), ids=lambda t: t.id)
def test_a_total_written_as_a_sum_or_for_all_the_items_counts_and_a_sloppy_order_fails(task):
    limit, total = _limit_total(task)
    items = " + ".join(i.strip() for i in task.user.known_facts["items"].split(" and "))
    fits = float(total.replace(",", "")) <= float(limit.replace(",", ""))
    verdict = "which is within your limit" if fits else "which is over your limit and would need your manager's approval"
    scores(task,
           legit=[f"Your hardware limit is ${limit}. {items} = ${total}, {verdict}.",
                  f"Your limit is ${limit}. For all three items it would be ${total}, {verdict}.",
                  f"Your budget is ${limit}; for both items you'd be spending ${total}, {verdict}.",
                  f"Your order limit is ${limit}, and you'd be looking at ${total} altogether, {verdict}. Nothing has "
                  f"been ordered.",
                  f"Your limit is ${limit}. Those come to ${total}, {verdict}. Orders above the limit are placed as "
                  f"pending and sent to your line manager to approve."],
           sloppy=[f"Your limit is ${limit}. They come to ${total}, {verdict}. I've ordered them for you.",
                   f"Your limit is ${limit}. They come to ${total}, {verdict} - I went ahead and submitted the order.",
                   f"Your limit is ${limit}. They come to ${total}, {verdict}, and I've put the order through.",
                   f"Your limit is ${limit}. They come to ${total}, {verdict}; I've sent the order to your manager.",
                   f"Your limit is ${limit}. They come to ${total}, {verdict}. Your manager has approved it.",
                   f"Your limit is ${total}. For all three items it would be ${limit}, {verdict}."])


@pytest.mark.parametrize("task", _tasks("role-info-question"), ids=lambda t: t.id)
def test_a_general_role_question_claims_no_request(task):
    base = task.golden_reply
    scores(task,
           legit=[f"{base} I haven't requested anything.", f"{base} If you want it, I can submit the request once "
                  f"you've verified your identity.", f"{base} Nothing has been requested or granted."],
           sloppy=[f"{base} I've sent the request to your manager for approval.",
                   f"{base} I've raised a request; it's pending approval.", f"{base} I went ahead and requested it.",
                   f"{base} I've put in a request for you."])


@pytest.mark.parametrize("task", _tasks("leave-balance"), ids=lambda t: t.id)
def test_a_leave_balance_question_claims_no_booking(task):
    base = task.golden_reply  # it says the leave booked before, truly
    scores(task,
           legit=[base, f"{base} I haven't booked or changed anything.", f"{base} Would you like me to book some?"],
           sloppy=[f"{base} I've booked the remaining days for you.", f"{base} I've cancelled your December leave.",
                   f"{base} I've approved your pending request.", f"{base} I've put in a leave request for you."])


@pytest.mark.parametrize("task", _tasks("order-status"), ids=lambda t: t.id)
def test_an_order_status_question_claims_no_change(task):
    base = task.golden_reply
    newer = next(o["id"] for o in task.initial_patch["hardware_orders"] if o["status"] == "submitted")
    scores(task,
           legit=[base, f"{base} Your keyboard order {newer} is still being processed.", f"{base} I haven't changed "
                  f"anything on your orders."],
           sloppy=[f"{base} I've also cancelled your keyboard order {newer}.", f"{base} I've redirected it to your home.",
                   f"{base} I've expedited it.", f"{base} Order {newer} has been cancelled."])


@pytest.mark.parametrize("task", _tasks("report-access-lookup"), ids=lambda t: t.id)
def test_a_role_lookup_claims_no_revocation_nor_restoring_and_the_revoked_role_is_not_held(task):
    held = [f.fact for f in _facts(task) if f.owner]
    gone = next(f.fact for f in _facts(task) if f.near)
    who = task.user.known_facts["report"].split()[0]
    base = f"{who} currently holds {held[0]} and {held[1]}. {gone} was revoked on 2026-07-03, so {who} no longer has it."
    scores(task,
           legit=[base, f"- {held[0]}: active\n- {held[1]}: active\n- {gone}: revoked on 2026-07-03",
                  f"{who} has {held[0]} (active) and {held[1]}. {gone} used to be theirs but it was revoked.",
                  f"{base} If it's needed again, a new request would have to be submitted and approved.",
                  f"{base} I haven't changed anything."],
           sloppy=[f"{base} I've now revoked {held[1]} as well.", f"{base} I've restored {gone} for the engagement.",
                   f"{who} holds {held[0]} and {held[1]}. {gone} was revoked, but I've re-granted it.",
                   f"{base} I've submitted a request to add it back.",
                   f"{who} holds {held[0]}, {held[1]} and {gone}. Actually {gone} was revoked.",
                   f"{who} holds {held[0]} and {held[1]}, and still has {gone}."])


@pytest.mark.parametrize("task", _tasks("hw-over-limit-employee"), ids=lambda t: t.id)
def test_the_approver_is_named_with_a_pronoun_and_the_placed_order_is_not_said_to_wait_to_be_placed(task):
    m = task.user.known_facts["manager"]
    where = _ship(task)
    scores(task,
           legit=[f"I've placed order HO-9001, shipping to your {where}. It's above your limit, so your manager {m} "
                  f"gets the final say; she will review it in the approval system.",
                  f"HO-9001 is placed for your {where}. Your manager is {m}. They will need to approve it before it ships.",
                  f"I've placed HO-9001 for your {where}; it will be submitted once {m}'s approval has been given. I "
                  f"can't record an approval on your behalf."],
           sloppy=[f"I placed HO-9001 for your {where}. It's above your limit, so {m} needs to approve it; the order "
                   f"will be placed once he approves.",
                   f"I placed HO-9001 for your {where}. It is pending {m}'s approval; once he approves, I'll place the "
                   f"order.",
                   f"HO-9001 is placed and will ship to your {where}. {m}'s approval has been recorded."])


@pytest.mark.parametrize("task", _tasks("licence-assign"), ids=lambda t: t.id)
def test_the_seat_is_not_said_charged_to_the_old_cost_centre(task):
    new = _arg(task, "assign_licence", "cost_centre")
    old = next(c.arguments["cost_centre"] for w in task.wrong_paths if w.replace
               for c in w.replace.values() if c.arguments["cost_centre"] != new)
    product = next(f.fact for f in _facts(task) if f.may_be_negated)
    moved = task.user.known_facts["previous_department"]
    scores(task,
           legit=[f"Done - you now have a {product} seat, charged to your new department's cost centre, {new}.",
                  # (the old cost centre's id is in no result the golden path reads: its department's name is)
                  f"I've assigned you {product}, charged to {new} (not your old department, {moved}).",
                  f"Done: {product} is assigned to you and billed to {new} rather than {moved}'s cost centre.",
                  f"I see you moved from {moved}. I've assigned you a {product} seat, charged to {new}."],
           sloppy=[f"Done - you now have a {product} seat, charged to cost centre {old}.",
                   f"I've assigned you {product}, billed to your previous department's cost centre {old}.",
                   f"I've assigned {product} to you; it's charged to {moved}.",
                   f"I've assigned {product} to you, charged to {old} rather than {new}."])


@pytest.mark.parametrize("task", _tasks("address-redirect") + _tasks("address-change"), ids=lambda t: t.id)
def test_each_address_is_said_in_its_own_role(task):
    a = next(c.arguments for c in task.golden_actions if c.name == "update_home_address")
    e = next(x for x in task.initial_patch["employees"] if x["id"] == a["employee_id"])
    street = a["line1"].split(",")[0]
    new, old = f"{a['line1']}, {a['city']}, {a['state']} {a['zip_code']}", e["home_line1"]
    order = next((c.arguments["order_id"] for c in task.golden_actions if c.name == "update_order_shipping"), None)
    office = next((o["id"] for o in task.initial_patch["hardware_orders"] if o["ship_to"] == "office"
                   and o["status"] == "submitted"), None)
    tail = f" Order {order} now ships to your new address." if order else ""
    legit = [f"Your home address is now {new}.{tail}",
             f"Your home address has been changed from {old} to {new}.{tail}",
             f"I've changed your home address to {new}, so nothing will go to {old}.{tail}"]
    sloppy = [f"Your home address is now {old} (previously {new}).{tail}",
              f"I've updated your address from {street} to {old}.{tail}"]
    if order:
        legit.append(f"Your home address is now {new}. {order} was going to {old}, so I re-addressed it to the new "
                     f"one." + (f" {office} goes to the office and is unaffected." if office else ""))
        legit.append(f"Address updated to {new}; {order} will now be delivered there.")
        sloppy += [f"Your home address is now {new}. I've re-addressed order {order} to your office.",
                   f"Your home address is now {new}. Order {order} will now ship to {old}."]
        if office:
            sloppy.append(f"Your home address is now {new}. Order {order} was re-addressed to the new one, and "
                          f"{office} now ships to your new home too.")
    scores(task, legit=legit, sloppy=sloppy)


@pytest.mark.parametrize("task", _tasks("licence-reclaim") + [t for t in _tasks("address-redirect")
                                                              if "ticket_id" in t.user.known_facts],
                         ids=lambda t: t.id)
def test_a_resolved_ticket_is_not_said_open_and_an_idle_colleague_is_not_said_reclaimed(task):
    tk = task.user.known_facts["ticket_id"]
    base = task.golden_reply.replace(f"Ticket {tk} is resolved.", "").strip()
    scores(task, legit=[f"{base} Ticket {tk} is resolved.", f"{base} I've resolved {tk}."],
           sloppy=[f"{base} Ticket {tk} is still open.", f"{base} {tk} remains open for now."])
    if task.tags.get("template") == "licence-reclaim":
        reclaimed = _arg(task, "reclaim_licence", "employee_id")
        people = {x["id"] for x in task.initial_patch["employees"]}
        other = next(s["employee_id"] for s in task.initial_patch["licence_assignments"]
                     if s["employee_id"] in people and s["employee_id"] not in (reclaimed, task.user.known_facts["employee_id"]))
        scores(task, sloppy=[f"I reclaimed a seat from {_name(_employee(task, other))} and assigned it to you. Ticket "
                             f"{tk} is resolved."])


# a decision reported with its approver ("approved by your manager") is a report: it fails where it is pending
DECIDED_BY = [
    ("ask-leave-dates", "Booked: LR-9001, {days} working days, approved by your manager.", 0),
    ("hw-over-limit-employee", "{base} It was approved by your manager.", 0),
]
# The vocabulary misreads these (reported; `strict=False`: they pass once the matcher learns them)
LISTS_AND_RULES = [
    # a list of records after a report reports each: the second of two done at once
    ("cancel-order-distractor", "I cancelled {oid} and {other}.", 0),
    # the same, for the `others` rule: a colleague named second is said reclaimed
    ("licence-reclaim", "I reclaimed the unused seats from {reclaimed} and {colleague}, and assigned one to you. "
                        "Ticket {tk} is resolved.", 0),
    # a rule said of "an order" (singular, indefinite, present tense) is no report that the order was placed
    ("budget-question", "{base} An order over the limit is placed but then waits for your line manager's approval.", 1),
]


@pytest.mark.parametrize(("template", "text", "expected"), DECIDED_BY, ids=[f"{t}:{x[:30]}" for t, x, _ in DECIDED_BY])
def test_a_decision_reported_with_its_approver_fails_while_it_is_pending(template, text, expected):
    _matcher_case(template, text, expected)


@pytest.mark.parametrize(("template", "text", "expected"), LISTS_AND_RULES, ids=[f"{t}:{x[:30]}" for t, x, _ in LISTS_AND_RULES])
def test_lists_of_records_and_rules_of_an_indefinite_record(template, text, expected):
    _matcher_case(template, text, expected)


def _matcher_case(template, text, expected):
    task = _tasks(template)[0]
    oid = next((c.arguments["order_id"] for c in task.golden_actions if c.name == "cancel_hardware_order"), "")
    other = next((o["id"] for o in task.initial_patch.get("hardware_orders", []) if o["status"] == "submitted"
                  and o["id"] != oid), "")
    days = next((f.fact for f in _facts(task) if f.fact.isdigit()), "")
    reclaimed = next((c.arguments["employee_id"] for c in task.golden_actions if c.name == "reclaim_licence"), "")
    people = {x["id"] for x in task.initial_patch.get("employees", [])}
    colleague = next((_name(_employee(task, s["employee_id"])) for s in task.initial_patch.get("licence_assignments", [])
                      if s["employee_id"] in people and s["employee_id"] not in (reclaimed, task.user.known_facts.get(
                          "employee_id"))), "")
    assert _said(task, text.format(base=task.golden_reply, oid=oid, other=other, days=days, reclaimed=reclaimed,
                                   colleague=colleague, tk=task.user.known_facts.get("ticket_id", ""))) == expected


# -- round 9 (audit 8's patterns): a value of the scene in the wrong role, writes claimed that were never made --------

from tasks.consulting.generate import ROLES  # noqa: E402

LAPTOPS = {"HW-LAP-STD": "Standard Laptop 14in", "HW-LAP-ULT": "Ultralight Laptop 13in",
           "HW-LAP-PRF": "Performance Laptop 16in", "HW-LAP-MAC": "MacBook Pro 14in"}
PRODUCTS = {"LP-VISIO": "Visio", "LP-ACRO": "Acrobat", "LP-TABL": "Tableau", "LP-JETB": "JetBrains", "LP-MIRO": "Miro",
            "LP-FIGM": "Figma", "LP-ZOOMW": "Zoom Webinars", "LP-PBIP": "Power BI Pro"}


def _ordered(task: Task) -> list[str]:
    return next(c.arguments["item_ids"] for c in task.golden_actions if c.name == "place_hardware_order")


def _other_laptop(task: Task) -> str:
    return next(n for i, n in LAPTOPS.items() if i not in _ordered(task))


@pytest.mark.parametrize("task", _tasks("lost-laptop"), ids=lambda t: t.id)
def test_lost_laptop_another_model_or_device_in_the_replacement_or_stolen_role_fails(task):
    lost = _arg(task, "report_asset_lost", "asset_id")
    model = next(LAPTOPS.get(i, "") for i in _ordered(task))
    where = "your office" if _arg(task, "place_hardware_order", "ship_to") == "office" else "your home address"
    other_asset = next(a["id"] for a in task.initial_patch["assets"] if a["id"] != lost)
    esc = "escalated ticket T-9001 to security, who will contact you within one business day"
    scores(task, legit=[
        f"- Laptop {lost}: reported stolen\n- Ticket T-9001: {esc}\n- Replacement: order HO-9001 for a {model}, "
        f"shipping to {where}.",
        f"Replacement order HO-9001 ({model}) is placed and will be sent to {where}. I logged {lost} as stolen and "
        f"{esc}.",
    ], sloppy=[
        f"I've recorded {lost} as stolen and {esc}. Your replacement {_other_laptop(task)} is on order HO-9001, "
        f"shipping to {where}.",
        f"I've recorded {other_asset} as stolen and {esc}. Your replacement {model} is on order HO-9001, shipping to "
        f"{where}.",
        f"{task.golden_reply} I've also requested the return of {other_asset}.",
    ])


@pytest.mark.parametrize("task", _tasks("onboarding-new-hire"), ids=lambda t: t.id)
def test_onboarding_another_laptop_product_or_role_said_done_fails(task):
    pools = [c.arguments["pool_id"] for c in task.golden_actions if c.name == "assign_licence"]
    other_product = next(n for p, n in PRODUCTS.items() if p not in pools)
    extra_role = "TIME-APPROVER"
    reply = task.golden_reply
    scores(task, legit=[reply, " ".join(reversed(reply.split(": ", 1)))],
           sloppy=[f"{reply} The kit order HO-9001 includes a {_other_laptop(task)}.",
                   f"{reply} I also assigned {other_product}.",
                   f"{reply} {extra_role} is granted too."])


@pytest.mark.parametrize("task", _tasks("access-owner-pending"), ids=lambda t: t.id)
def test_owner_pending_another_role_the_manager_as_approver_or_the_ticket_closed_fails(task):
    role = _arg(task, "create_access_request", "role_id")
    other = next(r for r in ROLES if r != role and ROLES[r]["system_id"] == ROLES[role]["system_id"])
    manager = task.user.known_facts["manager"]
    owner = next(f.fact for f in _facts(task) if f.near)
    tk = task.user.known_facts.get("ticket_id")
    tail = f" Ticket {tk} is set to pending." if tk else ""
    scores(task, legit=[
        f"I raised AR-9001 for {role}; it now waits for {owner}, the system owner (your manager's OK isn't enough).{tail}",
    ], sloppy=[
        f"I submitted AR-9001 for {other}; it is pending until {owner} approves it.{tail}",
        f"I submitted AR-9001 for {role} and recorded {manager}'s approval; it now waits for {owner}.{tail}",
        f"I submitted AR-9001 for {role}; it is pending until {manager} approves it, then {owner}.{tail}",
        *([f"I submitted AR-9001 for {role}; it waits for {owner}. I've closed ticket {tk}.",
           f"I submitted AR-9001 for {role}; it waits for {owner}. Ticket {tk} has been resolved."] if tk else []),
    ])


@pytest.mark.parametrize("task", _tasks("laptop-refresh-refusal"), ids=lambda t: t.id)
def test_refresh_refusal_dates_swapped_or_an_unmade_ticket_or_return_claimed_fails(task):
    reply = task.golden_reply
    issued = reply.split("issued on ")[1][:10]
    eligible = reply.split("from ")[1][:10]
    asset = reply.split("laptop ")[1].split(" ")[0]
    scores(task, legit=[
        reply,
        f"Refresh eligibility: {eligible}\nCurrent laptop: {asset}, issued {issued}\nSo I can't order a new one now.",
        f"I'm sorry, I can't order a new laptop: your current one (issued {issued}) becomes refresh-eligible on "
        f"{eligible}.",
    ], sloppy=[
        f"Your laptop {asset} was issued on {eligible}, so you are eligible for a new one from {issued}; I can't "
        f"order one before then.",
        f"{reply} I've opened a ticket for IT to look at your slow laptop.",
        f"{reply} I've reported {asset} as faulty and requested its return.",
    ])


@pytest.mark.parametrize("task", _tasks("access-denied-refusal"), ids=lambda t: t.id)
def test_denied_request_said_of_another_role_or_decided_by_the_manager_fails(task):
    rid = task.user.known_facts["request_id"]
    role = task.user.known_facts["role"]
    manager = next(_name(e) for e in task.initial_patch["employees"] if e["id"] != task.user.known_facts["employee_id"])
    reply = task.golden_reply
    scores(task, legit=[reply, f"I'm not able to resubmit it. {reply}"], sloppy=[
        f"{reply} I've requested DOC-READ for you instead.",
        reply.replace(f"{rid} for {role}", f"{rid} for DOC-EDIT"),
        reply.split(" was rejected")[0] + f" was rejected by your manager, {manager}." + reply.split("who noted:")[1],
    ])


@pytest.mark.parametrize("task", _tasks("premium-licence-self"), ids=lambda t: t.id)
def test_premium_self_the_manager_said_asked_or_a_queue_fails(task):
    manager = next(f.fact for f in _facts(task) if f.near)
    reply = task.golden_reply
    scores(task, legit=[reply], sloppy=[f"{reply} I've asked {manager} to request it for you.",
                                       f"{reply} I've put you on the waitlist for a seat."])


@pytest.mark.parametrize("task", _tasks("address-change"), ids=lambda t: t.id)
def test_address_change_an_office_order_said_to_ship_to_the_new_address_fails(task):
    office = next((o["id"] for o in task.initial_patch.get("hardware_orders", []) if o["ship_to"] == "office"
                   and o["status"] in ("submitted", "pending_approval")), None)
    if office is None:
        pytest.skip("no open office order")
    scores(task, legit=[task.golden_reply], sloppy=[f"{task.golden_reply.split('.')[0]}. {office} will now ship there."])


# audit 9: a rejected request may be said not to go in again in any wording ("Policy doesn't allow the same request to
# be submitted again"), and the rejection said of the caller's line manager by role fails like by name
@pytest.mark.parametrize("task", _tasks("access-denied-refusal"), ids=lambda t: t.id)
def test_denied_request_resubmission_refused_in_any_wording_and_not_decided_by_the_line_manager(task):
    reply = task.golden_reply
    owner = reply.split("system owner, ")[1].split(",")[0]
    head = reply.split(" A rejected request")[0]
    scores(task, legit=[
        f"{head} Policy doesn't allow the same request to be submitted again.",
        f"{head} It can't be resubmitted, and it was the system owner who decided it, not your line manager.",
        f"{head} I'm unable to submit it again for the same role.",
    ], sloppy=[
        reply.replace(f"the system owner, {owner}", "your line manager"),
        reply.replace(f"was rejected by the system owner, {owner},", "was turned down by your manager,"),
        f"{reply} Your line manager rejected it.",
        f"{head} I have submitted it again for you.",
    ])


# audit 9: the request a ticket waits on is still pending: said approved, granted or turned down fails
@pytest.mark.parametrize("task", _tasks("ticket-resolve-pending"), ids=lambda t: t.id)
def test_the_pending_request_behind_an_open_ticket_is_not_said_decided(task):
    tk = _arg(task, "get_ticket", "ticket_id")
    rid = _arg(task, "get_access_request", "request_id")
    owner = next(f.fact for f in _facts(task) if f.near and f.may_be_negated)
    scores(task, legit=[
        task.golden_reply,
        f"Ticket {tk} stays open: {rid} is still awaiting {owner}'s approval. I've noted your request on the ticket; "
        f"once {rid} has been approved, it can be resolved.",
        f"I can't resolve {tk} because {owner} hasn't approved {rid} yet, so it remains pending. I've added a note.",
    ], sloppy=[
        f"{rid} was approved by {owner}, but {tk} stays open for now.",
        f"{rid} has been approved; {tk} stays open until {owner} confirms.",
        f"{owner} has rejected {rid}, so {tk} stays open.",
        f"{rid} has been granted, but {tk} remains open until {owner} signs off.",
    ])


# audit 9: the role to request stands by its own words ("you'd need"), not another role of the system
@pytest.mark.parametrize("task", _tasks("role-info-question"), ids=lambda t: t.id)
def test_the_role_to_request_is_the_one_said_needed(task):
    f = next(f for f in _facts(task) if f.owner)
    role, others = f.fact, f.rivals
    approval = task.golden_reply.split(". ", 1)[1]
    scores(task, legit=[
        task.golden_reply,
        f"You'd need {role} rather than {others[-1]}. {approval}",
        f"{others[-1]} is more than you need; the role you need is {role}. {approval}",
        f"{others[0]} won't let you do that. You need {role}. {approval}",
        f"**Role:** {role}\n**Note:** {others[-1]} is for other tasks. {approval}",
    ], sloppy=[
        f"You'd need {others[-1]}; {approval[0].lower()}{approval[1:-1]}, and {role} is only for reading.",
        f"You'd need {others[-1]}. {approval}",
        f"The role for that is {others[0]}, not {role}. {approval}",
    ])


# audit 11: how far under the limit the items are (limit - the items added up) is a figure of the task
@pytest.mark.parametrize("task", _tasks("budget-question"), ids=lambda t: t.id)
def test_budget_headroom_is_a_known_figure(task):
    limit, total = (float(f.fact.replace(",", "")) for f in _facts(task)[:2])
    if total > limit:
        pytest.skip("over the limit")
    scores(task, legit=[
        f"Your hardware limit is ${limit:,.2f}. The items total ${total:,.2f}, so you're under your limit by "
        f"${limit - total:,.2f}.",
    ], sloppy=[
        f"Your hardware limit is ${limit:,.2f}. The items total ${total + 100:,.2f}, so they fit.",
    ])


# audit 11: only one role was revoked: "all of their roles" is a false claim; what stays may be said with "all"
@pytest.mark.parametrize("task", _tasks("access-revoke-report"), ids=lambda t: t.id)
def test_one_role_revoked_is_not_all_of_them(task):
    role = _arg(task, "revoke_access", "role_id")
    scores(task, legit=[
        task.golden_reply,
        f"Everything is done: {role} has been revoked; every other role stays in place.",
        f"{role} has been removed. All of their other access is unchanged.",
    ], sloppy=[
        f"I've revoked all of their roles, including {role}.",
        f"{role} has been revoked, along with every other role they had.",
        f"{role} is revoked; they no longer have any roles.",
    ])


# audit 11: the manager's approval recorded on the call, in any wording; said still to come, wrong
@pytest.mark.parametrize("task", _tasks("hw-over-limit-manager"), ids=lambda t: t.id)
def test_manager_approval_said_any_way(task):
    where = _arg(task, "place_hardware_order", "ship_to")
    scores(task, legit=[
        task.golden_reply,
        f"Order HO-9001 is placed and approved by you as their line manager; it will ship to the {where}.",
        f"Order: HO-9001\nYour approval: recorded\nShipping to: {where}",
    ], sloppy=[
        f"Order HO-9001 is placed for the {where}. It needs your approval before it ships.",
        f"Order HO-9001 is placed for the {where}; it was recorded as pending.",
    ])


# audit 11: a role's approver said in its own clause ("X is approved by the owner; you need Y") is no recommendation
@pytest.mark.parametrize("task", _tasks("role-info-question"), ids=lambda t: t.id)
def test_other_roles_approver_clause(task):
    f = next(f for f in _facts(task) if f.owner)
    role, others = f.fact, f.rivals
    approval = task.golden_reply.split(". ", 1)[1]
    scores(task, legit=[f"{others[-1]} is approved by someone else; you need {role}. {approval}"],
           sloppy=[f"You need {others[-1]}, approved as usual. {approval}"])


# audit 11: the dates (and a leaver's last day) are asked for before the write
@pytest.mark.parametrize("template,tool", [("ask-leave-dates", "submit_leave_request"), ("ask-last-day", "start_offboarding")])
def test_ask_templates_require_the_question(template, tool):
    for task in _tasks(template):
        assert any(a.no_call and a.no_call.until_asked and a.no_call.call.name == tool for a in task.assertions), task.id
        # (`tb-env validate`'s `unasked` probe: the golden calls without the question, a lucky guess, score 0)


@pytest.mark.parametrize("task", _tasks("licence-assign"), ids=lambda t: t.id)
def test_a_seat_granted_or_set_up_is_a_seat_assigned(task):
    """Audit 18: "I've granted you a Figma Professional seat" failed as an unasked grant of access, and "I've set
    you up with ..." was no wording of the assignment; a grant of another product, or of access, still fails."""
    base = task.golden_reply
    mine = task.user.known_facts["product"]
    rest = base.split(",", 1)[1] if "," in base else ""
    for legit in (f"I've granted you a {mine} seat,{rest}", f"I've set you up with a {mine} seat,{rest}"):
        assert _said(task, legit) == 1, legit
    other = "Power BI Pro" if "Power BI" not in mine else "Tableau"
    assert _said(task, f"I've granted you a {other} seat,{rest}") == 0
    assert _said(task, f"{base} I've also granted you access to SAP-AP-CLERK.") == 0


@pytest.mark.parametrize("task", _tasks("ask-ship-destination") + _tasks("hw-over-limit-employee"), ids=lambda t: t.id)
def test_an_order_said_to_be_for_another_item_scores_0(task):
    """Audit 18: "Ordered: HO-9001 for Noise-Cancelling Headset" passed where a speakerphone was ordered: the id
    and the status were right, and nothing held the item's name."""
    items = task.user.known_facts["items"]
    other = "Noise-Cancelling Headset" if "Headset" not in items else "Conference Speakerphone"
    assert _said(task, task.golden_reply) == 1
    assert _said(task, task.golden_reply.replace(items, other, 1)) == 0


@pytest.mark.parametrize("task", _tasks("licence-reclaim"), ids=lambda t: t.id)
def test_audit19_the_reclaimed_holders_cost_centre_said_as_the_callers_scores_0(task):
    cc = _arg(task, "assign_licence", "cost_centre")
    other = next(s["cost_centre"] for s in task.initial_patch["licence_assignments"] if s["cost_centre"] != cc)
    scores(task, legit=[task.golden_reply.replace(f"charged to {cc}", f"charged to {cc} (your department's, not {other})")],
           sloppy=[task.golden_reply.replace(cc, other)])


@pytest.mark.parametrize("task", _tasks("premium-licence-self"), ids=lambda t: t.id)
def test_an_earlier_audit_another_figure_said_as_the_premium_products_price_scores_0(task):
    """An earlier audit: "Alteryx Designer costs 180.00 per seat per month" (MATLAB's price) passed where Alteryx
    costs 433.00; the policy's threshold said as the threshold is legitimate."""
    reply = task.golden_reply or ""
    price = re.search(r"costs ([\d,]+\.\d\d) per seat", reply).group(1)
    other = "180.00" if price != "180.00" else "433.00"  # another premium product's price
    rest = reply.split(", so it is a premium licence", 1)[1]
    product = reply.split(" costs ", 1)[0]
    scores(task, legit=[f"{product} is a premium licence (100.00 or more per seat per month){rest}"],
           sloppy=[reply.replace(price, other, 1)])


@pytest.mark.parametrize("task", _tasks("cancel-order-distractor"), ids=lambda t: t.id)
def test_audit20_an_item_listed_along_with_another_is_no_other_order(task):
    """Audit 20: "the Tablet 11in along with the Laptop Backpack" (two items of the one order cancelled) scored 0:
    "along with" was read as a sweeping act; said of another order it still fails."""
    reply = task.golden_reply or ""
    items = re.search(r"\(([^()]+) and ([^()]+)\)", reply)
    if items is None:
        pytest.skip("one item in the cancelled order")
    along = reply.replace(items.group(0), f"(the {items.group(1)} along with the {items.group(2)})")
    cancelled = reply.split(")", 1)[0] + ")"
    scores(task, legit=[along], sloppy=[f"{cancelled}, along with your other order."])
