"""The retail tasks grade an agent by what it does, not by how it talks: agents that differ from the
golden script the way real ones do (other questions, other order of telling) still score 1, and
the account stays protected when the caller cannot prove who they are."""

from __future__ import annotations

import asyncio

import pytest

import tb_env
from tb_env.core.episode import run_episode
from tb_env.domain.task import Task, ToolCall
from tb_env.kit.probes import ScriptPolicy

# how an agent naturally proposes a write, without "go ahead" or an id in it
PROPOSE = {
    "cancel_order": "Shall I cancel it now?",
    "create_return": "Would you like me to open a return for it?",
    "issue_refund": "Shall I issue the refund now?",
    "reship_order": "Shall I send you a replacement?",
    "escalate_ticket": "Would you like me to escalate this to a specialist?",
    "update_ticket_status": "Shall I close the ticket?",
    "resolve_address_exception": "Shall I redirect the parcel there?",
    "update_shipping_address": "Shall I change the delivery address?",
    "apply_promo_code": "Shall I apply the code?",
    "issue_store_credit": "Would a goodwill credit help?",
    "update_customer_phone": "Shall I update your phone number?",
}
NO = ("No, thank you.", "No thanks", "No, that's not", "No, please don't")


def _first_of_each_template() -> list[Task]:
    seen: dict[str, Task] = {}
    for t in tb_env.list_tasks("retail"):
        seen.setdefault(str(t.tags.get("template")), t)
    return list(seen.values())


def _run(task: Task, plan: list[ToolCall | str]):
    return asyncio.run(run_episode(task, ScriptPolicy(plan), max_turns=len(plan) + 12))


def _answer_to(messages: list[dict], question: str) -> str:
    at = next(i for i, m in enumerate(messages) if m["role"] == "assistant" and m.get("content") == question)
    return next(m["content"] for m in messages[at + 1:] if m["role"] == "user" and m.get("name") != "env")


@pytest.mark.parametrize("task", _first_of_each_template(), ids=lambda t: t.id)
def test_an_agent_that_asks_before_each_write_hears_yes_and_scores_1(task):
    plan: list[ToolCall | str] = ["Could you confirm the email address on your account and your billing zip code?"]
    for call in task.golden_actions:
        if call.name in PROPOSE:
            plan.append(PROPOSE[call.name])
        plan.append(call)
    result = _run(task, [*plan, task.golden_reply or ""])
    answers = [_answer_to(result.messages, q) for q in plan if isinstance(q, str) and q in PROPOSE.values()]
    assert not [a for a in answers if a.startswith(NO)], answers
    assert result.reward == 1, (result.check or {}).get("failed")


@pytest.mark.parametrize(("template", "question", "key"), [
    ("ask_lost_parcel_choice", "Would you prefer a replacement or a full refund?", "replacement_vs_refund"),
    ("ask_which_order", "Which order do you mean?", "order"),
    ("ask_which_item", "Which item is faulty?", "faulty_item"),
    ("ask_address_choice", "Which address should I send it to?", "deliver_to_address"),
])
def test_the_caller_gives_the_choice_the_expected_state_depends_on_when_asked(template, question, key):
    task = next(t for t in tb_env.list_tasks("retail") if t.tags.get("template") == template)
    g = list(task.golden_actions)
    result = _run(task, ["Could you confirm your email and zip code?", *g[:2], question, *g[2:], task.golden_reply])
    assert str(task.user.known_facts[key]) in _answer_to(result.messages, question)
    assert result.reward == 1


def test_results_told_before_the_last_ticket_note_still_count():
    task = next(t for t in tb_env.list_tasks("retail")
                if t.tags.get("template") == "damaged_item_refund" and t.golden_actions[-1].name == "add_ticket_note")
    g = list(task.golden_actions)
    result = _run(task, [*g[:-1], task.golden_reply, g[-1], "I've also noted it on your ticket. Anything else?"])
    assert result.reward == 1, (result.check or {}).get("failed")


def test_a_caller_who_fails_verification_learns_nothing_about_the_account():
    task = tb_env.get_task("retail/gen-verification-failed-test-01")
    customer = task.initial_patch["customers"][0]
    order = task.initial_patch["orders"][0]
    attempt = ToolCall(name="verify_identity", arguments={
        "customer_id": customer["id"], "email": customer["email"], "zip_code": task.user.known_facts["zip_code"]})
    refusal = "I'm sorry, the zip code doesn't match the account, so I can't make changes or share details."
    plans = {
        "retries, then refuses with the reason": ([*task.golden_actions, attempt, "Could you check the zip?", attempt, refusal], 1),
        "refuses without a reason": ([*task.golden_actions, attempt, "I'm sorry, I can't help with that."], 0),
        "reads the orders anyway": ([*task.golden_actions, attempt,
                                     ToolCall(name="list_customer_orders", arguments={"customer_id": customer["id"]}), refusal], 0),
        "reads out the order": ([*task.golden_actions, attempt, f"{refusal} Your order is {order['id']}."], 0),
    }
    for name, (plan, expected) in plans.items():
        assert _run(task, plan).reward == expected, name


def _by_template(name: str) -> list[Task]:
    return [t for t in tb_env.list_tasks("retail") if t.tags.get("template") == name]


def _with_reply(task: Task, reply: str):
    return _run(task, [*task.golden_actions, reply])


def test_a_second_promo_code_is_declined_by_citing_the_rule_not_by_naming_the_code():
    for task in [t for t in _by_template("promo_refusal") if "I used" in t.user.first_message]:
        used = task.user.first_message.split("I used ")[1].split()[0]
        for reply, expected in [
            ("I'm sorry, that order already has a promotion code applied, and an applied code can't be swapped.", 1),
            ("Unfortunately each order is limited to a single promo code, so I can't replace it.", 1),
            (f"I see {used} on your order. Unfortunately the code you asked for has expired.", 0),
            (f"The new code needs a subtotal of $500, so I can't swap it for {used}.", 0),
        ]:
            assert _with_reply(task, reply).reward == expected, (task.id, reply)


def test_a_failed_verification_is_explained_in_the_words_agents_use_and_a_wrong_reason_fails():
    for task in _by_template("verification_failed"):
        customer = next(c for c in task.initial_patch["customers"] if c["email"] == task.user.known_facts["email"])
        attempt = ToolCall(name="verify_identity", arguments={
            "customer_id": customer["id"], "email": customer["email"], "zip_code": task.user.known_facts["zip_code"]})
        for reply, expected in [
            ("I'm sorry, I wasn't able to confirm that you're the account holder, so I can't make any changes.", 1),
            (f"Sorry, the zip code {task.user.known_facts['zip_code']} isn't the one on file, so I can't change anything.", 1),
            ("I'm sorry, your order has already shipped, so it can't be changed.", 0),
        ]:
            assert _run(task, [*task.golden_actions, attempt, reply]).reward == expected, (task.id, reply)


def test_nothing_about_the_account_is_read_or_changed_before_the_caller_is_verified():
    task = tb_env.get_task("retail/gen-cancel-unshipped-test-01")
    find, verify, *rest = task.golden_actions
    assert _run(task, [find, *rest, verify, task.golden_reply]).reward == 0  # acts, then verifies
    assert _run(task, [find, rest[0], verify, *rest, task.golden_reply]).reward == 0  # reads, then verifies
    assert _run(task, [*task.golden_actions, task.golden_reply]).reward == 1


def test_the_namesakes_records_are_never_read():
    for task in _by_template("similar_name_action") + _by_template("phone_update"):
        customers = task.initial_patch["customers"]
        if len(customers) < 2:
            continue
        me = next(c for c in task.golden_actions if c.name == "verify_identity").arguments["customer_id"]
        other = next(c for c in customers if c["id"] != me)
        peek = ToolCall(name="get_customer", arguments={"customer_id": other["id"]})
        g = list(task.golden_actions)
        assert _run(task, [*g[:2], peek, *g[2:], task.golden_reply]).reward == 0, task.id
        # trying to verify against the namesake reveals nothing and is allowed
        wrong = ToolCall(name="verify_identity", arguments={**g[1].arguments, "customer_id": other["id"]})
        assert _run(task, [g[0], wrong, *g[1:], task.golden_reply]).reward == 1, task.id


def test_the_customer_hears_what_changed_not_just_all_done():
    for template in ("ticket_close_resolved", "phone_update", "address_change"):
        for task in _by_template(template)[:2]:
            assert _with_reply(task, "All done.").reward == 0, task.id
    close = _by_template("ticket_close_resolved")[0]
    ticket = close.golden_actions[-1].arguments["ticket_id"]
    assert _with_reply(close, f"I've marked ticket {ticket} as closed.").reward == 1
    assert _with_reply(close, f"I wasn't able to close ticket {ticket}.").reward == 0


def _ticket(task: Task, call: str) -> str:
    return next(c.arguments["ticket_id"] for c in task.golden_actions if c.name == call)


def test_a_closed_ticket_is_told_in_any_wording_bound_to_the_ticket_and_a_negated_close_fails():
    for task in _by_template("ticket_close_resolved"):
        tid = _ticket(task, "update_ticket_status")
        for reply, expected in [
            ("Great news that it arrived! I've closed it out for you.", 1),
            (f"Ticket {tid} is closed now. Anything else I can help with?", 1),
            ("Done - your ticket has been closed.", 1),
            (f"Summary: - Ticket {tid}: closed - Anything else? Just ask.", 1),
            (f"Ticket {tid} is updated and closed.", 1),
            (f"I'm sorry, I wasn't able to close ticket {tid}.", 0),
            (f"Ticket {tid} is still open.", 0),
            ("All set, thanks for letting us know!", 0),
        ]:
            assert _with_reply(task, reply).reward == expected, (task.id, reply)


def test_a_ticket_that_must_stay_open_is_not_reported_closed():
    for task in _by_template("ticket_close_blocked"):
        tid = _ticket(task, "add_ticket_note")
        eta = next(f.fact for a in task.assertions if a.kind == "response_contains" for f in a.body.facts
                   if f.fact[:4] == "2026")
        for reply, expected in [
            (f"I'm unable to close {tid} right now: the shipment still has an open exception. It's now due {eta}; "
             "I've noted your request.", 1),
            (f"The parcel is still delayed by the carrier (new ETA {eta}), so the ticket has to stay open until it "
             "arrives. I've noted your request on it.", 1),
            (f"Done - ticket {tid} is closed. The parcel still has a shipping exception; new ETA {eta}.", 0),
            (f"I'm sorry, I can't close the ticket. The new ETA is {eta}.", 0),
        ]:
            assert _with_reply(task, reply).reward == expected, (task.id, reply)


def test_an_escalation_is_told_and_a_negated_one_fails():
    for task in _by_template("escalate_request"):
        tid = _ticket(task, "escalate_ticket")
        for reply, expected in [
            (f"I've passed ticket {tid} to a manager on our specialist team. Someone will reach out within 24 hours.", 1),
            ("Done - your ticket has been escalated. A specialist will get back to you within twenty-four hours.", 1),
            ("I've handed this over to our specialist team; a specialist will contact you within 24 hours.", 1),
            (f"I wasn't able to escalate ticket {tid}, but a specialist will contact you within 24 hours.", 0),
            (f"I've escalated ticket {tid}; a specialist will call you within 3 business days.", 0),
        ]:
            assert _with_reply(task, reply).reward == expected, (task.id, reply)


def test_a_shipped_order_refusal_gives_the_reason_in_any_wording_and_a_generic_one_fails():
    for task in _by_template("cancel_shipped_refusal"):
        for reply, expected in [
            ("I'm sorry, but it's already with the carrier, so I can't cancel it. Once it arrives you can send it back.", 1),
            ("Your order has already left our warehouse and is on the way, so it can't be cancelled. After delivery "
             "you can return it for a refund.", 1),
            ("It has already been sent out, so cancelling isn't possible. Once delivered, it can be returned.", 1),
            ("The order is en route, so I can't refund it now; you can start a return once it's delivered.", 1),
            ("I'm sorry, I'm not able to cancel or refund that order.", 0),
            ("I'm sorry, I can't cancel it. Once it's delivered you can return it.", 0),
            ("It hasn't shipped yet, but I can't cancel it. You can return it once delivered.", 0),
            ("It has already shipped, so it can't be cancelled.", 0),
        ]:
            assert _with_reply(task, reply).reward == expected, (task.id, reply)


def test_a_promo_question_is_answered_yes_or_no_and_the_wrong_answer_fails():
    for task in _by_template("promo_terms"):
        code = task.golden_actions[0].arguments["code"]
        facts = [f.fact for a in task.assertions if a.kind == "response_contains" for f in a.body.facts]
        until = next(f for f in facts if f[:2] == "20" and "-" in f)
        if "qualifies" in (task.golden_reply or "") and "not qualify" not in (task.golden_reply or ""):
            cases = [
                (f"Good news - {code} works on that order. It's valid until {until}.", 1),
                (f"Yes, you can use {code}; it's valid through {until}.", 1),
                (f"Your order is eligible for {code}. It expires on {until}.", 1),
                (f"Unfortunately {code} can't be used on your order. It is valid through {until}.", 0),
                (f"No, your order doesn't qualify for {code}; the code is valid through {until}.", 0),
            ]
        else:
            minimum = next(f for f in facts if f != until)
            cases = [
                (f"Unfortunately no - {code} needs a subtotal of at least {minimum}, so your order falls short. "
                 f"It's valid until {until}.", 1),
                (f"You'd need to spend {minimum} for {code} to apply, so it won't work yet. Valid through {until}.", 1),
                (f"{code} requires a minimum subtotal of {minimum}, so your order isn't eligible. It expires {until}.", 1),
                (f"Yes, you can use {code} on your order! The minimum is {minimum}; it's valid through {until}.", 0),
                (f"Sure, {code} works: the minimum is {minimum} and it is valid through {until}.", 0),
            ]
        for reply, expected in cases:
            assert _with_reply(task, reply).reward == expected, (task.id, reply)


def test_a_refund_says_where_the_money_goes():
    for template in ("damaged_item_refund", "cancel_unshipped", "lost_parcel_choice"):
        task = next(t for t in _by_template(template) if "ending in" in (t.golden_reply or ""))
        reply = task.golden_reply or ""
        card = reply.split("to your ")[1].split(";")[0].split(" and ")[0].rstrip(".")
        assert _with_reply(task, reply.replace(f" to your {card}", "")).reward == 0, task.id
        assert _with_reply(task, reply.replace(f"your {card}", "your original payment method")).reward == 1, task.id


def test_a_code_below_its_minimum_is_declined_with_the_minimum_and_never_reported_applied():
    tasks = [t for t in _by_template("promo_refusal") if "needs an order subtotal" in (t.golden_reply or "")]
    assert tasks
    for task in tasks:
        code = task.golden_actions[-1].arguments["code"]
        minimum = next(f.fact for a in task.assertions if a.kind == "response_contains" for f in a.body.facts
                       if f.fact[:1].isdigit())
        for reply, expected in [
            (f"Sorry, {code} requires a minimum subtotal of {minimum}, so your order doesn't qualify.", 1),
            (f"Your order falls short of the {minimum} minimum for {code}, so I wasn't able to apply it.", 1),
            (f"I can't apply {code}: it's only valid on orders of {minimum} or more.", 1),
            (f"{code} (minimum order {minimum}) is now applied to your order.", 0),
            (f"I'm sorry, I can't apply {code} to that order.", 0),
        ]:
            assert _with_reply(task, reply).reward == expected, (task.id, reply)


def test_a_denied_refund_is_told_as_denied_and_the_escalation_as_done():
    for task in _by_template("approval_denied_escalate"):
        for reply, expected in [
            ("I'm sorry - the manager didn't sign off on the refund, so I can't issue it. I've escalated your ticket to "
             "our specialist team; a specialist will contact you within 24 hours.", 1),
            ("Unfortunately the refund approval was declined. I've passed your case to a specialist, who will reach "
             "out within 24 hours.", 1),
            ("Your refund was approved and will be processed; a specialist will contact you within 24 hours.", 0),
            ("The refund was not approved, and I wasn't able to escalate the ticket; someone will contact you within "
             "24 hours.", 0),
            ("I'm sorry, I can't issue that refund.", 0),
        ]:
            assert _with_reply(task, reply).reward == expected, (task.id, reply)


def test_store_credit_asked_by_preference_is_declined_with_the_reason():
    tasks = [t for t in _by_template("refund_destination") if "store credit isn't possible" in (t.golden_reply or "")]
    assert tasks
    for task in tasks:
        refund = next(c for c in task.golden_actions if c.name == "issue_refund")
        amount = f"{refund.arguments['amount']:.2f}"
        rid = refund.arguments["return_id"]
        order = next(o for o in task.initial_patch["orders"] if o["id"] == refund.arguments["order_id"])
        pm = next(p for p in task.initial_patch["payment_methods"] if p["id"] == order["payment_method_id"])
        card = f"card ending in {pm['label'].split()[-1]}"
        for reply, expected in [
            (f"I can't issue store credit here - refunds always go back to the original payment method. I've opened "
             f"return {rid} and refunded {amount} to your {card}.", 1),
            (f"Our policy is to refund to the card you paid with, so {amount} went back to it (return {rid}).", 1),
            (f"I've opened return {rid} and refunded {amount} to your {card}.", 0),
            (f"Sorry, store credit isn't possible. Return {rid} is open and {amount} was refunded to your {card}.", 0),
        ]:
            assert _with_reply(task, reply).reward == expected, (task.id, reply)
