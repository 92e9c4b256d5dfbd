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
from tests.task_probes import golden_arg, instances, said, scores

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


# -- values bound to their role and their owner (the auditor's sweep) ------------------------------------


def _facts(task: Task) -> list:
    return [f for a in task.assertions if a.kind == "response_contains" for f in a.body.facts]


def _catalog() -> dict:
    from tasks.retail.generate import CATALOG
    return {p.id: p for p in CATALOG}


def test_a_product_lookup_is_read_in_a_compact_list_and_a_swapped_or_sloppy_one_fails():
    catalog = _catalog()
    for task in instances("retail", "product_lookup"):
        stock = {p["id"]: p["stock"] for p in task.initial_patch["products"]}
        ps = [catalog[pid] for pid in stock]
        nm, pr, st = [p.name.lower() for p in ps], [f"{p.price:.2f}" for p in ps], [stock[p.id] for p in ps]
        if len(ps) == 2:
            cases = [
                (f"Prices: {nm[0]} {pr[0]}, {nm[1]} {pr[1]}. Stock: {nm[0]} {st[0]}, {nm[1]} {st[1]}.", 1),
                (f"- {ps[0].name}: ${pr[0]}, {st[0]} in stock\n- {ps[1].name}: ${pr[1]}, {st[1]} in stock", 1),
                (f"The {nm[0]} is {pr[0]} ({st[0]} left) and the {nm[1]} is {pr[1]} ({st[1]} left).", 1),
                (f"Prices: {nm[0]} {pr[1]}, {nm[1]} {pr[0]}. Stock: {nm[0]} {st[0]}, {nm[1]} {st[1]}.", 0),
                (f"Prices: {nm[0]} {pr[0]}, {nm[1]} {pr[1]}. Stock: {nm[0]} {st[1]}, {nm[1]} {st[0]}.", 0),
                (f"- {ps[0].name}: ${pr[1]}, {st[1]} in stock\n- {ps[1].name}: ${pr[0]}, {st[0]} in stock", 0),
            ]
        elif st[0]:
            cases = [
                (f"Price: {pr[0]}. Stock: {st[0]}.", 1),
                (f"There are {st[0]} of the {nm[0]} in stock at {pr[0]} each.", 1),
                (f"The {nm[0]} is {pr[0]}; only {st[0]} remaining.", 1),
                (f"The {nm[0]} costs {st[0]} and we have {pr[0].split('.')[0]} in stock.", 0),
                (f"The {nm[0]} is {pr[0]}.", 0),
            ]
        else:
            cases = [
                (f"Price: {pr[0]}. Stock: 0.", 1),
                (f"We don't have any of the {nm[0]}s in stock right now, sorry. They're {pr[0]}.", 1),
                (f"The {nm[0]} is {pr[0]}, but we're sold out at the moment.", 1),
                (f"Unfortunately there are none left; the {nm[0]} costs {pr[0]}.", 1),
                (f"It's {pr[0]}, but we don't have it in stock right now.", 1),
                (f"The {nm[0]} ({pr[0]}) is currently unavailable.", 1),
                (f"The {nm[0]} is {pr[0]}, and it's in stock.", 0),
                (f"The {nm[0]} is {pr[0]}, and we have 5 in stock.", 0),
                (f"The {nm[0]} is {pr[0]}.", 0),
            ]
        for text, expected in cases:
            assert said(task, text) == expected, (task.id, text)


def _open_tickets(task: Task, but: str) -> list[str]:
    return [t["id"] for t in task.initial_patch["tickets"] if t["id"] != but and t["status"] == "open"]


def test_a_ticket_status_far_from_the_word_ticket_counts_and_the_other_tickets_does_not():
    for task in instances("retail", "ticket_close_resolved"):
        tid = _ticket(task, "update_ticket_status")
        other = _open_tickets(task, tid)[0]
        item = task.initial_patch["order_items"][0]["product_name"]
        for text, expected in [
            (f"Your ticket about the {item} (4) now has status closed.", 1),
            (f"Your support request regarding the delivery of your {item} has now been marked as closed.", 1),
            (f"Ticket {tid} has been closed, and ticket {other} remains open.", 1),
            (f"Ticket {other} is now closed.", 0),
            (f"Ticket {tid} is still open, but {other} is closed.", 0),
        ]:
            assert said(task, text) == expected, (task.id, text)
    for task in instances("retail", "escalate_request"):
        tid = _ticket(task, "escalate_ticket")
        tail = " A specialist will contact you within 24 hours."
        cases = [("Your ticket about the noisy item from last week has now been escalated to a manager." + tail, 1)]
        cases += [(f"I've escalated ticket {o}." + tail, 0) for o in _open_tickets(task, tid)]
        for text, expected in cases:
            assert said(task, text) == expected, (task.id, text)
    for task in instances("retail", "ticket_close_blocked"):
        eta = next(f.fact for f in _facts(task) if f.fact[:4] == "2026")
        text = (f"Your ticket about the late delivery of your order will have to stay open for now, since the parcel "
                f"still has an open shipping exception; new ETA {eta}. I've noted your request.")
        assert said(task, text) == 1, task.id


REFUND_TEMPLATES = ("damaged_item_refund", "received_return_refund", "older_order_return", "ask_which_item",
                    "refund_destination", "lost_parcel_choice", "refund_approval", "lost_refund_approval",
                    "ask_lost_parcel_choice", "return_multi_items_approval", "cancel_unshipped", "ask_which_order",
                    "similar_name_action", "refund_status", "return_changed_mind")


def _refund_amount(task: Task) -> tuple[str, float] | None:
    """The amount the reply must tell as refunded, and the order total (the value an agent could say in its place)."""
    fs = [f for f in _facts(task) if f.near[:1] == ["refund"]]
    if not fs:
        return None
    amount = fs[0].fact
    order = next((c.arguments["order_id"] for c in task.golden_actions if "order_id" in c.arguments
                  and c.name in ("issue_refund", "cancel_order", "create_return", "get_order")), None)
    total = next(o["total"] for o in task.initial_patch["orders"] if o["id"] == order)
    return amount, float(total) if f"{float(total):.2f}" != amount else float(total) + 7


@pytest.mark.parametrize("template", REFUND_TEMPLATES)
def test_a_refunded_amount_must_be_told_as_refunded_not_as_the_total_or_a_charge(template):
    for task in instances("retail", template):
        found = _refund_amount(task)
        if found is None or not task.golden_reply or found[0] not in task.golden_reply:
            continue
        amount, total = found
        rest = task.golden_reply.replace(amount, "the amount")
        # a refund still waiting on the returned item (return_changed_mind) is not yet processed
        pending = any(a.kind == "outcome" and a.body.action == "refund" and a.body.stance == "pending"
                      for a in task.assertions)
        for lead, expected in [
            (f"You'll get ${amount} back.", 1),
            (f"Refund: ${amount}.", 1),
            (f"A refund of {amount} has been processed.", 0 if pending else 1),
            (f"Your order total was ${amount}; ${total:.2f} has been refunded.", 0),
            (f"You were charged ${amount}.", 0),
        ]:
            assert said(task, f"{lead} {rest}") == expected, (task.id, lead)


def test_the_saving_and_the_new_total_are_each_told_in_their_own_role():
    tasks = [t for tpl in ("promo_apply", "ask_which_order", "similar_name_action") for t in instances("retail", tpl)
             if any(c.name == "apply_promo_code" for c in t.golden_actions)]
    assert tasks
    for task in tasks:
        f = next(f for f in _facts(task) if f.alternatives)
        disc, total = f.fact, f.alternatives[0].fact
        for text, expected in [
            (f"Done - the code is applied and you save ${disc}.", 1),
            (f"Applied! Your new total is ${total}.", 1),
            (f"The code knocks ${disc} off, so the order now comes to ${total}.", 1),
            (f"Applied! You save ${total}.", 0),
            (f"Applied! Your new total is ${disc}.", 0),
        ]:
            assert said(task, text) == expected, (task.id, text)


def test_a_codes_minimum_is_told_as_the_minimum_not_as_the_customers_subtotal():
    cases = 0
    for task in instances("retail", "promo_terms") + instances("retail", "promo_refusal"):
        minimum = next((f.fact for f in _facts(task) if f.near and "minimum" in f.near), None)
        if minimum is None:
            continue
        until = next((f.fact for f in _facts(task) if f.fact[:2] == "20" and "-" in f.fact), "")
        code = next(c.arguments["code"] for c in task.golden_actions if c.name == "get_promotion")
        mine = task.user.known_facts.get("planned_subtotal") or f"{task.initial_patch['orders'][0]['subtotal']:.2f}"
        tail = f" It's valid through {until}." if until else ""
        for text, expected in [
            (f"Sorry, {code} requires a minimum subtotal of {minimum}, so your {mine} order doesn't qualify.{tail}", 1),
            (f"Your order falls short of the {minimum} minimum for {code}, so it can't be applied.{tail}", 1),
            (f"Sorry, {code} requires a minimum subtotal of {mine}, so your {minimum} order doesn't qualify.{tail}", 0),
        ]:
            assert said(task, text) == expected, (task.id, text)
        cases += 1
    assert cases


def test_each_orders_eta_must_stand_by_its_own_order():
    for task in instances("retail", "shipments_overview"):
        etas = [(f.owner[0], f.fact) for f in _facts(task) if f.owner]
        (a, ea), (b, eb) = etas[0], etas[1]
        rest = "; ".join(f"{o}: {e}" for o, e in etas[2:])
        assert said(task, f"{a}: {ea}; {b}: {eb}; {rest}.") == 1, task.id
        assert said(task, f"Order {a} arrives {ea}, order {b} on {eb}; {rest}.") == 1, task.id
        if ea != eb:
            assert said(task, f"{a}: {eb}; {b}: {ea}; {rest}.") == 0, task.id
    for task in instances("retail", "two_exceptions"):
        dates = {f.fact for f in _facts(task) if f.owner and f.fact[:4] == "2026"}
        if len(dates) < 2 or not task.golden_reply:
            continue
        first, second = sorted(dates)
        swapped = task.golden_reply.replace(first, "\0").replace(second, first).replace("\0", second)
        assert said(task, swapped) == 0, task.id
        assert said(task, task.golden_reply) == 1, task.id


def test_two_amounts_of_one_long_conversation_said_in_each_others_place_fail():
    checked = 0
    for task in instances("retail", "multi_request_session"):
        reply = task.golden_reply or ""
        amounts = [f.fact for f in _facts(task) if f.owner and "." in f.fact and f.fact in reply]
        amounts = list(dict.fromkeys(amounts))
        if len(amounts) < 2:
            continue
        a, b = amounts[:2]
        swapped = reply.replace(a, "\0").replace(b, a).replace("\0", b)
        assert said(task, swapped) == 0, task.id
        checked += 1
    assert checked


# -- round 6: the wrong record, a refused or pending claim, the wrong kind of remedy ------------------------------
# Each pattern is proved both ways on every instance of its template (and the hand-written tasks that share its tag):
# a legitimate wording scores 1, the sloppy one 0.


def _others(task: Task, table: str = "orders") -> list[str]:
    return [a.body.id for a in task.assertions if a.kind == "row_unchanged" and a.body.table == table]


def _issued_amount(task: Task) -> str:
    from tasks.retail.generate import fmt
    return fmt(next(c.arguments["amount"] for c in task.golden_actions if c.name == "issue_refund"))


@pytest.mark.parametrize("task", instances("retail", "promo_apply"), ids=lambda t: t.id)
def test_promo_apply_binds_the_code_to_its_order_and_the_saving_to_the_card(task):
    target = next(c.arguments["order_id"] for c in task.golden_actions if c.name == "apply_promo_code")
    reply = task.golden_reply or ""
    for other in _others(task):  # the other open order (the hand-written task has none)
        assert said(task, f"{reply} Your other order {other} is unchanged.") == 1
        assert said(task, reply.replace(target, other)) == 0  # the code said to be on the order that must not get it
    assert said(task, reply.split(", refunded")[0] + ", given to you as store credit.") == 0  # it went to the card


@pytest.mark.parametrize("task", [t for tpl in ("refund_approval", "return_multi_items_approval", "lost_refund_approval")
                                  for t in instances("retail", tpl)], ids=lambda t: t.id)
def test_an_approved_and_issued_refund_is_not_said_as_pending_or_refused(task):
    reply, amount = task.golden_reply or "", _issued_amount(task)
    assert said(task, f"{reply} The approval came through, so there is nothing more to wait for.") == 1
    assert said(task, f"{reply} The {amount} refund could not be approved, so nothing has been refunded.") == 0
    assert said(task, f"{reply} The {amount} will be refunded once a manager approves it.") == 0
    assert said(task, f"{reply} The refund is still waiting for approval.") == 0


@pytest.mark.parametrize("task", [t for tpl in ("cancel_unshipped", "similar_name_action") for t in instances("retail", tpl)
                                  if any(c.name == "cancel_order" for c in t.golden_actions)], ids=lambda t: t.id)
def test_a_cancellation_is_not_said_as_refused_nor_said_of_the_other_order(task):
    target = next(c.arguments["order_id"] for c in task.golden_actions if c.name == "cancel_order")
    reply = task.golden_reply or ""
    others = [o for o in _others(task) if o != target]
    if task.tags["template"] == "cancel_unshipped":
        assert said(task, f"{reply} Your other order {others[0]} was not cancelled and ships as planned.") == 1
        assert said(task, reply.replace(target, others[0])) == 0
    assert said(task, f"{reply} Sorry, your order could not be cancelled after all.") == 0
    assert said(task, reply.replace("is cancelled", "could not be cancelled")) == 0


@pytest.mark.parametrize("task", [t for tpl in ("lost_parcel_choice", "ask_lost_parcel_choice", "lost_refund_approval")
                                  for t in instances("retail", tpl)], ids=lambda t: t.id)
def test_a_lost_parcel_gets_one_remedy_never_both(task):
    reply = task.golden_reply or ""
    if any(c.name == "issue_refund" for c in task.golden_actions):
        assert said(task, f"{reply} Since you chose the refund, no replacement will be sent.") == 1
        assert said(task, f"{reply} I've also shipped you a replacement.") == 0
        assert said(task, f"{reply} A replacement is on its way as well.") == 0
    else:
        assert said(task, f"{reply} As you asked, this is a replacement rather than your money back.") == 1
        # (audit 18: the other choice is not what was sent)
        assert said(task, f"{reply} I sent a new shipment instead of a refund, as you asked.") == 1
        assert said(task, f"{reply} I've also refunded the order to your card.") == 0
        assert said(task, f"{reply} I've also sent a refund to your card.") == 0


@pytest.mark.parametrize("task", instances("retail", "goodwill_credit"), ids=lambda t: t.id)
def test_goodwill_is_store_credit_not_a_card_refund(task):
    reply = task.golden_reply or ""
    assert "store credit to your account" in reply
    assert said(task, reply.replace("store credit to your account", "goodwill credit to your account; it is store "
                                    "credit, not a refund to your card")) == 1
    assert said(task, reply.replace("added a", "refunded").replace("store credit to your account", "to your card")) == 0


@pytest.mark.parametrize("task", instances("retail", "ticket_close_blocked"), ids=lambda t: t.id)
def test_a_blocked_ticket_close_needs_the_shipping_reason_not_another(task):
    reply = task.golden_reply or ""
    reason = "has an open shipping exception with the carrier"
    assert reason in reply
    for legit in ("still has an unresolved exception with the carrier", "is still delayed in transit",
                  "has an exception on the shipment that is still open", "hasn't been delivered yet"):
        assert said(task, reply.replace(reason, legit)) == 1, legit
    head, tail = reply.split(":", 1)
    tail = tail.split(".", 1)[1]
    assert said(task, f"{head}: there is an exception - your order's refund is still pending.{tail}") == 0
    assert said(task, f"{reply} It stays open because your refund is still pending.") == 0


@pytest.mark.parametrize("task", [t for tpl in ("damaged_item_refund", "received_return_refund", "older_order_return",
                                                "ask_which_item", "cancel_unshipped")
                                  for t in instances("retail", tpl)], ids=lambda t: t.id)
def test_a_refund_to_the_card_is_not_said_as_store_credit(task):
    reply = task.golden_reply or ""
    assert said(task, f"{reply} It goes back to your card rather than store credit.") == 1
    assert said(task, f"{reply} It was issued to you as store credit.") == 0


# -- round 7: how each asked-for action ended (outcome stance) -------------------------------------------------------
# The audit's rows as patterns: an action done said as not done or waiting, one refused said as done, the other
# remedy promised for later, a ticket escalated said closed, a call-back promised in another time, a stock count
# counted by its product's name. Each legitimate wording scores 1, the sloppy one 0, on every instance.


def _outcomes(task: Task, action: str, stance: str) -> list:
    return [a.body for a in task.assertions if a.kind == "outcome" and a.body.action == action and a.body.stance == stance]


@pytest.mark.parametrize("task", [t for tpl in ("damaged_item_refund", "ask_which_item", "received_return_refund",
                                                "lost_parcel_choice", "refund_status")
                                  for t in instances("retail", tpl) if _outcomes(t, "refund", "done")], ids=lambda t: t.id)
def test_a_refund_made_is_not_said_as_not_made_or_waiting(task):
    reply = task.golden_reply or ""
    assert said(task, f"{reply} No further action is needed on your side.") == 1
    assert said(task, f"{reply} I couldn't refund it yet, though.") == 0
    assert said(task, f"{reply} That said, the refund hasn't been issued yet.") == 0
    assert said(task, f"{reply} I'll refund you once the carrier confirms the loss.") == 0


@pytest.mark.parametrize("task", [t for tpl in ("lost_parcel_choice", "ask_lost_parcel_choice", "two_exceptions")
                                  for t in instances("retail", tpl) if _outcomes(t, "refund", "refused")],
                         ids=lambda t: t.id)
def test_a_replaced_parcel_is_not_refunded_later_either(task):
    reply = task.golden_reply or ""
    order = _outcomes(task, "refund", "refused")[0].record[0]
    assert said(task, f"{reply} Since you chose a replacement, no refund was issued for order {order}.") == 1
    assert said(task, f"{reply} I'll also refund order {order} once the carrier confirms the loss.") == 0
    assert said(task, f"{reply} A refund for order {order} is pending review as well.") == 0


@pytest.mark.parametrize("task", instances("retail", "cancel_shipped_refusal"), ids=lambda t: t.id)
def test_a_shipped_order_is_not_said_cancelled_or_refunded(task):
    reply = task.golden_reply or ""
    assert said(task, f"{reply} You'll get your money back once the warehouse has it.") == 1
    assert said(task, f"{reply} I've refunded it anyway.") == 0
    assert said(task, f"{reply} That said, I went ahead and cancelled it.") == 0


@pytest.mark.parametrize("task", instances("retail", "return_window_refusal"), ids=lambda t: t.id)
def test_a_return_refused_outside_the_window_is_not_said_opened(task):
    reply = task.golden_reply or ""
    assert said(task, f"{reply} Had it arrived within the window, it could have been returned for a full refund.") == 1
    assert said(task, f"{reply} Returns are only accepted within the window, so no return was opened.") == 1
    assert said(task, f"{reply} That said, I've opened a return for it anyway.") == 0
    assert said(task, f"{reply} I've processed your return as an exception.") == 0
    assert said(task, f"{reply} Your return is pending approval.") == 0


@pytest.mark.parametrize("task", instances("retail", "return_changed_mind"), ids=lambda t: t.id)
def test_a_refund_waiting_on_the_returned_item_is_not_said_issued(task):
    reply = task.golden_reply or ""
    assert said(task, reply.replace("Once the warehouse receives it,", "As soon as it is back at our warehouse,")) == 1
    assert said(task, f"{reply} Your refund has been issued.") == 0
    assert said(task, f"{reply} I'm afraid the refund was denied.") == 0


def test_an_address_change_refused_after_shipping_is_not_said_redirected():
    task = tb_env.get_task("retail/address-change-shipped-refusal-001")
    assert said(task, "Sorry, order O-91110 has already shipped, and addresses can only be changed before an order "
                      "ships. It will arrive at your home on 2026-12-01.") == 1
    assert said(task, "Order O-91110 has already shipped, but I've redirected it to your work address.") == 0
    assert said(task, "Order O-91110 has already shipped; I've changed the delivery address to your work address.") == 0


@pytest.mark.parametrize("task", [t for tpl in ("goodwill_credit", "goodwill_refusal") for t in instances("retail", tpl)],
                         ids=lambda t: t.id)
def test_a_goodwill_credit_is_told_as_it_ended(task):
    reply = task.golden_reply or ""
    if _outcomes(task, "add", "done"):
        assert said(task, reply.replace("I've added a", "you now have a")) == 1
        assert said(task, f"{reply} I couldn't add the credit, though.") == 0
        assert said(task, f"{reply} The store credit is pending approval.") == 0
    else:
        assert said(task, f"{reply} That said, I've added a credit as a one-off.") == 0
        assert said(task, f"{reply} I'll add a credit once a manager approves it.") == 0


@pytest.mark.parametrize("task", [t for tpl in ("escalate_request", "approval_denied_escalate")
                                  for t in instances("retail", tpl)], ids=lambda t: t.id)
def test_an_escalated_ticket_is_not_said_closed_nor_promised_another_time(task):
    reply = task.golden_reply or ""
    tid = next(c.arguments["ticket_id"] for c in task.golden_actions if c.name == "escalate_ticket")
    assert said(task, f"{reply} It stays open with the specialists until they resolve it.") == 1
    assert said(task, f"{reply} We aim to resolve it within one day.") == 0
    assert said(task, f"{reply} Someone will respond within one business day.") == 0
    if task.tags["template"] == "escalate_request":
        assert said(task, f"{reply} I've also closed ticket {tid}.") == 0


def test_a_stock_count_counts_its_own_product_whatever_clause_holds_the_stock_word():
    checked = 0
    for task in instances("retail", "product_lookup"):
        catalog = _catalog()
        stock = {p["id"]: p["stock"] for p in task.initial_patch["products"]}
        ps = [catalog[pid] for pid in stock]
        if len(ps) != 2 or not all(stock.values()):
            continue
        (a, b), (sa, sb) = ps, [stock[p.id] for p in ps]
        prices = f"Prices: {a.name} {a.price:.2f}, {b.name} {b.price:.2f}."
        assert said(task, f"In stock: {sa} {a.name}s and {sb} {b.name}s. {prices}") == 1, task.id
        if sa != sb:
            assert said(task, f"In stock: {sb} {a.name}s and {sa} {b.name}s. {prices}") == 0, task.id
        checked += 1
    assert checked


# -- round 8 (audit 7): waiting said for a refund a write made, values in the wrong role, writes claimed on a
# question, phrase lists too narrow. Each pattern on every instance of its templates and the hand-written tasks
# that share their tag: a legitimate wording scores 1, the sloppy one 0.


def _tasks(*templates: str, having: str | None = None) -> list[Task]:
    return [t for tpl in templates for t in instances("retail", tpl)
            if having is None or any(c.name == having for c in t.golden_actions)]


def _reply(task: Task) -> str:
    return task.golden_reply or ""


def _said_after_asking(task: Task, reply: str) -> float | None:
    """`said`, with the clarifying question a `no_call(until_asked=...)` requires asked just before its call."""
    guarded = next((a.body.call.name for a in task.assertions if a.kind == "no_call" and a.body.until_asked), None)
    if guarded is None:
        return said(task, reply)
    plan: list[ToolCall | str] = []
    for c in task.golden_actions:
        if c.name == guarded:
            plan.append("Which order, address or item do you mean - which one should I use?")
        plan.append(c)
    return _run(task, [*plan, reply]).reward


@pytest.mark.parametrize("task", [*_tasks("cancel_unshipped", "ask_which_order", "similar_name_action",
                                          "multi_request_session", having="cancel_order"),
                                  *_tasks("promo_apply", "ask_which_order", "similar_name_action",
                                          "multi_request_session", having="apply_promo_code")], ids=lambda t: t.id)
def test_the_refund_a_cancellation_or_a_code_makes_is_not_said_waiting(task):
    """Pattern A: cancel_order refunds the charge and apply_promo_code the discount, at once; "your refund will be
    issued once a manager approves it" after either is false, also where the reply names no order."""
    reply = _reply(task)
    assert _said_after_asking(task, f"{reply} It usually shows up within 5 to 10 business days.") == 1
    assert _said_after_asking(task, f"{reply} The refund will be issued once a manager approves it.") == 0
    assert _said_after_asking(task, f"{reply} Note that the refund is still pending approval.") == 0


def _phone_change(task: Task) -> tuple[str, str]:
    """The new number (as the state stores it) and the old one."""
    new = next(a.body.where["phone"] for a in task.assertions if a.kind == "row_exists" and "phone" in a.body.where)
    cid = next(c.arguments["customer_id"] for c in task.golden_actions if c.name == "update_customer_phone")
    old = next(r["phone"] for r in task.initial_patch["customers"] if r["id"] == cid)
    return new, old


@pytest.mark.parametrize("task", _tasks("phone_update", "multi_request_session", having="update_customer_phone"),
                         ids=lambda t: t.id)
def test_the_old_and_the_new_phone_number_keep_their_roles(task):
    """Pattern D: the new number said as the one replaced, or the old one as the new, scores 0."""
    new, old = _phone_change(task)
    reply = _reply(task)
    assert said(task, f"{reply} (I changed it from {old} to {new}.)") == 1
    assert said(task, f"{reply} Your old number {old} is no longer on file.") == 1
    assert said(task, f"{reply} (I changed it from {new} to {old}.)") == 0
    assert said(task, f"{reply} To confirm, your new number is {old}.") == 0


def _addresses(task: Task) -> tuple[dict, list[dict]]:
    """The address the order now goes to, and the customer's other saved addresses."""
    call_ = next(c for c in task.golden_actions if c.name in ("update_shipping_address", "resolve_address_exception"))
    rows = task.initial_patch["addresses"]
    new = next(a for a in rows if a["id"] == call_.arguments["address_id"])
    return new, [a for a in rows if a["customer_id"] == new["customer_id"] and a["id"] != new["id"]]


@pytest.mark.parametrize("task", [t for t in _tasks("address_change", "address_exception", "ask_address_choice",
                                                     "two_exceptions")
                                  if any(c.name in ("update_shipping_address", "resolve_address_exception")
                                         for c in t.golden_actions)], ids=lambda t: t.id)
def test_an_order_is_not_said_to_go_to_an_address_it_does_not_go_to(task):
    """Pattern D: the old or the other saved address said as where the order now goes scores 0; the move told
    from the old address to the new one, with the street suffix written out, scores 1 (pattern F)."""
    new, others = _addresses(task)
    oid = next(a.body.where["id"] for a in task.assertions if a.kind == "row_exists" and "address_id" in a.body.where)
    reply = _reply(task)
    spelled = new["line1"].replace(" St", " Street").replace(" Ave", " Avenue").replace(" Rd", " Road")
    assert _said_after_asking(task, f"{reply} Order {oid} now goes to {spelled} instead of {others[0]['line1']}.") == 1
    assert _said_after_asking(task, f"{reply} (I moved it from {others[0]['line1']} to {new['line1']}.)") == 1
    for old in others:
        assert _said_after_asking(task, f"{reply} Order {oid} will now ship to {old['line1']}.") == 0, old["label"]


def _eta(task: Task) -> str:
    return next(f.fact for f in _facts(task) if f.near and "arriv" in f.near)


@pytest.mark.parametrize("task", _tasks("order_eta", "latest_order_status"), ids=lambda t: t.id)
def test_an_eta_is_told_as_when_the_order_arrives_not_as_another_date(task):
    """Pattern D: the estimated delivery date said as the day it shipped, as an estimate it replaced, or as a
    delivery made scores 0; said as the arrival in the ways agents write it, 1."""
    eta = _eta(task)
    tracking = next((f.fact for f in _facts(task) if "tracking" in f.why), "")
    tail = f" Tracking number: {tracking}." if tracking else ""
    for text, expected in [
        (f"It's on its way and should arrive by {eta}.{tail}", 1),
        (f"Estimated delivery: {eta}.{tail}", 1),
        (f"It shipped recently and is now expected on {eta}.{tail}", 1),
        (f"It shipped on {eta}.{tail}", 0),
        (f"It was originally expected on {eta}, but it's running late.{tail}", 0),
        (f"It was delivered on {eta}.{tail}", 0),
    ]:
        assert said(task, text) == expected, (task.id, text)


@pytest.mark.parametrize("task", _tasks("order_eta", "latest_order_status", "shipments_overview"), ids=lambda t: t.id)
def test_a_delivery_question_is_not_answered_with_a_write_that_never_happened(task):
    """Pattern E: nothing was changed; a credit, a refund, a replacement or a cancellation said as done scores 0,
    what could be done if the parcel never arrives scores 1."""
    reply = _reply(task)
    assert said(task, f"{reply} If it doesn't arrive by then, let me know and we can look into a replacement or "
                      "a refund.") == 1
    for claim in ("I've added a $10 goodwill credit to your account for the wait.", "I've refunded the shipping fee.",
                  "I've also sent a replacement, just in case.", "I've cancelled it and refunded you."):
        assert said(task, f"{reply} {claim}") == 0, claim


@pytest.mark.parametrize("task", _tasks("refund_status", "product_lookup"), ids=lambda t: t.id)
def test_a_question_about_a_refund_or_a_product_claims_no_write(task):
    reply = _reply(task)
    if task.tags["template"] == "refund_status":
        assert said(task, f"{reply} No store credit was added; it all went back to your card.") == 1
        assert said(task, f"{reply} For the trouble I've also added a $10 goodwill credit.") == 0
    else:
        assert said(task, f"{reply} I can't reserve items, but you can order any time.") == 1
        assert said(task, f"{reply} I've reserved one for you.") == 0


def test_a_codes_minimum_may_be_cited_as_what_the_order_does_not_meet():
    """Pattern F: "doesn't meet SAVE20's 100.00 minimum" names the minimum; the negation is about the order."""
    cases = 0
    for task in instances("retail", "promo_refusal") + instances("retail", "promo_terms"):
        minimum = next((f.fact for f in _facts(task) if f.near and "minimum" in f.near), None)
        if minimum is None:
            continue
        code = next(c.arguments["code"] for c in task.golden_actions if c.name == "get_promotion")
        until = next((f.fact for f in _facts(task) if f.fact[:2] == "20" and "-" in f.fact), "")
        tail = f" It's valid through {until}." if until else ""
        assert said(task, f"Unfortunately your order doesn't meet {code}'s {minimum} minimum, so the code can't be "
                          f"applied.{tail}") == 1, task.id
        assert said(task, f"Sorry, your order doesn't reach the ${minimum} minimum subtotal for {code}.{tail}") == 1, task.id
        cases += 1
    assert cases


@pytest.mark.parametrize("task", instances("retail", "shipments_overview"), ids=lambda t: t.id)
def test_an_overview_may_name_each_order_by_a_short_product_name(task):
    """Pattern F: "the Dumbbells Dec 7" names the Adjustable Dumbbells; the dates swapped still fail."""
    etas = [(f.owner, f.fact) for f in _facts(task) if f.owner]
    short = [(next(n for n in reversed(owner) if " " not in n and not n.startswith("O-")), eta) for owner, eta in etas]
    text = "Expected: " + ", ".join(f"the {n} {eta}" for n, eta in short) + "."
    assert said(task, text) == 1, text
    (a, ea), (b, eb) = short[:2]
    if ea != eb:
        assert said(task, text.replace(f"the {a} {ea}", "\0").replace(f"the {b} {eb}", f"the {b} {ea}")
                    .replace("\0", f"the {a} {eb}")) == 0


# -- round 9 (audit 8's patterns) ------------------------------------------------------------------------------------

def _claimed(task: Task, text: str) -> bool:
    """Whether a `must_not_state` claim of the task forbids `text` (what the checker reads in the answer)."""
    return any(f.stated_in([text]) for a in task.assertions if a.kind == "must_not_state" for f in a.body.facts)


def _done_actions(task: Task) -> set[str]:
    return {a.body.action for a in task.assertions if a.kind == "outcome" and a.body.stance in ("done", "pending")}


# a write reported in words the kit's verbs miss (its noun, a verb outside the map, the second verb of a compound),
# and what makes it true: a golden call of one of these tools, or an outcome of this action done or pending
UNMADE = [
    ("I've also added a 10.00 goodwill credit to your account.", {"issue_store_credit"}, "add"),
    ("I've issued you a 10.00 store credit.", {"issue_store_credit"}, "add"),
    ("I've also sent you a replacement.", {"reship_order"}, "replace"),
    ("I've reissued the order.", {"reship_order"}, "replace"),
    ("I've also processed a refund for the shipping fee.", {"issue_refund", "cancel_order", "apply_promo_code"}, "refund"),
    ("I reimbursed the shipping fee.", {"issue_refund"}, "refund"),
    ("I've also opened a return for the order.", {"create_return"}, "return"),
    ("I've requested manager approval for a refund.", {"request_manager_approval", "escalate_ticket"}, "approve"),
    ("I've also created a ticket for this.", {"create_ticket"}, "ticket"),
    ("I've also updated your phone number.", {"update_customer_phone"}, "update"),
    ("I've marked your ticket as resolved.", {"update_ticket_status"}, "close"),
    ("I've waived the shipping fee as well.", set(), None),
    ("I've expedited the shipment.", set(), None),
    ("I reported it and escalated it to a specialist.",
     {"escalate_ticket", "request_manager_approval", "create_ticket"}, "escalate"),
]


@pytest.mark.parametrize("task", tb_env.list_tasks("retail"), ids=lambda t: t.id)
def test_a_write_never_made_is_not_claimed_in_any_words(task):
    """Pattern 2, every task (generated and hand-written): "I added a goodwill credit", "I've waived the fee",
    "I reported it and escalated it" fail where the golden path made no such write; a note or a ticket's other
    words stay free."""
    made = {c.name for c in task.golden_actions}
    reply = task.golden_reply or ""
    for text, tools, action in UNMADE:
        if made & tools or action in _done_actions(task) or (action and action[:5] in reply.lower()):
            continue
        assert _claimed(task, text), (task.id, text)
    assert not _claimed(task, reply), task.id
    if "add_ticket_note" in made:
        assert not _claimed(task, "I've added a note to your ticket about this."), task.id


def _handwritten() -> list[dict]:
    import yaml

    from tasks.retail.generate import HERE

    out = []
    for path in sorted((HERE / "tasks").glob("*/*.yaml")):
        text = path.read_text(encoding="utf-8")
        if not text.startswith("# Generated by"):
            out += yaml.safe_load(text)
    return out


def test_hand_written_tasks_carry_the_generated_tasks_implied_claims():
    """The lead's ask: the hand-written tasks forbid unmade writes (and made-up figures) as the generated ones do,
    kept in sync by `python -m tasks.retail.generate` (`sync_handwritten`; `--check` fails when they drift)."""
    from tasks.retail.generate import implied, sync_handwritten

    tasks = _handwritten()
    assert len(tasks) >= 40
    for t in tasks:
        for item in implied(t):
            assert item in t["assertions"], (t["id"], str(item)[:120])
    assert sync_handwritten(check=True) == []


# (generated instances: the hand-written ones carry the kit's implied assertions, not the templates' own rules yet)
@pytest.mark.parametrize("task", [t for t in instances("retail", "cancel_shipped_refusal") + instances("retail", "return_window_refusal")
                                  if "/gen-" in t.id], ids=lambda t: t.id)
def test_the_other_tiers_return_window_is_not_this_customers(task):
    """Pattern 1: "you can return it within 60 days" to a basic member (30), or 30 to a plus member, fails; the
    policy states both, so only the role tells them apart."""
    plus = next(c for c in task.initial_patch["customers"])["membership"] == "plus"
    own, other = ("60 days", "30 days") if plus else ("30 days", "60 days")
    assert own in task.golden_reply
    assert said(task, task.golden_reply) == 1
    assert said(task, task.golden_reply.replace(own, other)) == 0, task.id


@pytest.mark.parametrize("task", [t for t in instances("retail", "refund_destination") if "/gen-" in t.id], ids=lambda t: t.id)
def test_a_store_credit_refund_made_is_not_said_to_wait(task):
    """Pattern 3: the refund went out as store credit; "the store credit will be issued once a manager approves
    it" says it waits (the refund's noun here is the credit)."""
    if not any(c.arguments.get("destination") == "store_credit" for c in task.golden_actions if c.name == "issue_refund"):
        pytest.skip("refunded to a card")
    amount = next(c.arguments["amount"] for c in task.golden_actions if c.name == "issue_refund")
    assert said(task, f"{task.golden_reply} The {amount:.2f} is on your account now.") == 1
    assert said(task, f"I've opened return R-9001; the {amount:.2f} store credit will be issued once a manager "
                      "approves it.") == 0


# the round-9 audit probe: 12 tasks drawn with random.Random(9000 + k); the replies whose verdict was wrong before
PROBE = {
    "retail/gen-refund-destination-train-01": (
        ["- Return: R-9001 (Jigsaw Puzzle 2000pc)\n- Refund: 24.00, issued as store credit since the card you paid "
         "with is closed"],
        ["I've refunded 24.00 as store credit on your account and opened return R-9001. I've also waived the 5.99 "
         "shipping fee.",
         "I've refunded 24.00 as store credit and opened return R-9001. I've also sent you a replacement puzzle.",
         "I've opened return R-9001; the 24.00 store credit will be issued once a manager approves it."]),
    "retail/gen-address-exception-test-01": (
        ["Done. New delivery address: 1641 Sunset Way. New ETA: 2026-12-03. Ticket T-2521 has a note about it."],
        ["Your parcel for O-82118 has been redirected to 1641 Sunset Way, expected 2026-12-03. I've also added a "
         "10.00 goodwill credit for the trouble.",
         "Your parcel for O-82118 has been redirected to 1641 Sunset Way, expected 2026-12-03. I noted and closed "
         "ticket T-2521.",
         "Your parcel for O-82118 has been redirected to 1641 Sunset Way, expected 2026-12-03, and I reported it and "
         "escalated it to a specialist."]),
    "retail/gen-address-change-test-04": (
        ["Order O-82189: delivery address changed from your home (1798 Birch Rd) to your work address at 4225 Maple "
         "Ave. Your other order O-82190 still ships home."],
        ["Order O-82189 will now ship to 4225 Maple Ave, and I've expedited it at no charge."]),
    "retail/gen-two-exceptions-test-04": (
        ["1) O-82141: redirected to your home address at 122 River Rd, new ETA 2026-12-03.\n2) O-82142: full refund "
         "of 79.95 issued to your PayPal."],
        ["Order O-82141 has been redirected to 122 River Rd and should arrive on 2026-12-03; I've refunded 79.95 for "
         "O-82142 to your PayPal and also sent you a replacement."]),
    "retail/gen-ask-lost-parcel-choice-test-01": (
        ["Refund: 164.00 for order O-82109, back to your original payment method (Amex 2512). No replacement will be "
         "sent."],
        ["I've refunded 164.00 to your Amex ending 2512, and I've waived the return shipping fee."]),
    "retail/gen-verification-failed-test-02": (
        ["The zip code you gave doesn't match the one on file, so I can't access or update the order."],
        ["I couldn't verify you, so I've escalated your request to a specialist."]),
    "retail/verification-failed-refusal-001": (
        ["The details you gave don't match what we have on file, so I can't access or change the order."],
        ["I couldn't verify you, so I've opened a support ticket for a specialist to call you."]),
    "retail/gen-cancel-shipped-refusal-test-04": (
        ["Your earbuds are already in transit, so a cancellation isn't possible. After delivery, send them back "
         "within 30 days for a refund."],
        ["O-82069 has shipped, so it can't be cancelled. You can return it within 60 days of delivery.",
         "O-82069 has shipped, so it can't be cancelled. I've started a return for you so you can send it back "
         "when it arrives."]),
}


@pytest.mark.parametrize("task_id", sorted(PROBE))
def test_the_round_9_audit_probe(task_id):
    legit, sloppy = PROBE[task_id]
    scores(next(t for t in tb_env.list_tasks("retail") if t.id == task_id), legit=legit, sloppy=sloppy)


# -- audit 9 ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("task", [t for t in instances("retail", "goodwill_refusal") if "isn't delayed" in
                                  (t.golden_reply or "")], ids=lambda t: t.id)
def test_an_order_on_schedule_said_delayed_by_the_carrier_is_no_reason(task):
    """Pattern 4 (alias collision): "delayed by the carrier" was an alias of the required "isn't delayed" (for
    "credit is only for parcels delayed by the carrier"), so the opposite claim stated the reason."""
    import re

    order = next(c.arguments["order_id"] for c in task.golden_actions if c.name == "get_shipment")
    eta = re.search(r"due on (\d{4}-\d{2}-\d{2})", task.golden_reply or "")
    assert eta
    scores(task, legit=[f"Order {order} isn't delayed, it's due {eta[1]}. Goodwill credit is only for parcels delayed "
                        "by the carrier, so I can't add one.",
                        f"There's no delay on order {order}: it's due to arrive {eta[1]}. Store credit is only given "
                        "when the carrier has delayed the parcel, so I can't offer one."],
           sloppy=[f"Your order is delayed by the carrier, but I can't give credit. It's now due {eta[1]}.",
                   f"Your order {order} has been delayed by the carrier; unfortunately I can't add credit. It's due "
                   f"{eta[1]}."])


@pytest.mark.parametrize("task", instances("retail", "promo_terms"), ids=lambda t: t.id)
def test_a_promotion_code_is_not_said_to_give_another_discount(task):
    """Pattern 5: "FREESHIP gives 10.00 off" (it gives 7.00) passed: nothing checked the discount, and `grounded`
    accepts a policy constant or one step of arithmetic."""
    from tasks.retail.generate import PROMOS

    code = next(c.arguments["code"] for c in task.golden_actions if c.name == "get_promotion")
    p = PROMOS[code]
    reply = task.golden_reply or ""
    v = int(p["value"])
    real, wrong = ((f"${v}", f"{v + 3}.00") if p["kind"] == "fixed" else (f"{v} percent", f"{v + 5}%"))
    scores(task, legit=[reply, f"{reply} In short, {code} takes {real} off."],
           sloppy=[f"{reply} To be clear, {code} gives {wrong} off.", f"{reply} That's a {wrong} discount... I mean "
                   f"{code} takes {wrong} off your order."])


@pytest.mark.parametrize("task", [t for t in instances("retail", "approval_denied_escalate")
                                  if any(r["status"] == "closed" for r in t.initial_patch.get("tickets", []))],
                         ids=lambda t: t.id)
def test_the_customers_old_ticket_is_not_said_escalated(task):
    """Pattern 1: "I've escalated ticket T-2508" (the customer's old, closed ticket; a new one was escalated) passed:
    the escalation's owners took any "ticket"."""
    old = next(r["id"] for r in task.initial_patch["tickets"] if r["status"] == "closed")
    new = next(c.arguments["ticket_id"] for c in task.golden_actions if c.name == "escalate_ticket")
    reply = task.golden_reply or ""
    scores(task, legit=[reply, f"{reply} Your earlier ticket {old} stays closed; it was about another order.",
                        reply.replace(f"I've escalated ticket {new}", f"Your old ticket {old} is closed, so I've opened "
                                      f"case {new} and escalated it")],
           sloppy=[reply.replace(f"ticket {new}", f"ticket {old}"), f"{reply} I've also escalated ticket {old}."])


@pytest.mark.parametrize("task", instances("retail", "return_multi_items_approval"), ids=lambda t: t.id)
def test_the_item_the_customer_keeps_is_not_said_returned(task):
    """Pattern 2: "I've opened return R-9001 for all three items" passed although the customer kept one: the
    outcome's record is the whole order."""
    returned = next(c.arguments["item_ids"] for c in task.golden_actions if c.name == "create_return")
    order = next(c.arguments["order_id"] for c in task.golden_actions if c.name == "create_return")
    items = [i for i in task.initial_patch["order_items"] if i["order_id"] == order]
    kept = next(i["product_name"] for i in items if i["id"] not in returned)
    a, b = (i["product_name"] for i in items if i["id"] in returned)
    reply = task.golden_reply or ""
    listed = next(f"for the {x} and the {y}" for x, y in ((a, b), (b, a)) if f"for the {x} and the {y}" in reply)
    scores(task, legit=[reply, f"{reply} You keep the {kept}.",
                        reply.replace(listed, f"for the two broken items (the {kept} stays with you)")],
           sloppy=[reply.replace(listed, "for all three items"), reply.replace(listed, "for every item"),
                   f"{reply} The {kept} has been returned too.", f"{reply} I've also refunded the {kept}."])


# -- round 11 audit patterns ------------------------------------------------------------------------------------

def _one(template: str, split: str = "test") -> list[Task]:
    return [t for t in instances("retail", template) if t.split == split][:2]


def _tasks(*ids: str) -> dict[str, Task]:
    return {t.id: t for t in tb_env.list_tasks("retail") if t.id in ids}


@pytest.mark.parametrize("task", [t for t in instances("retail", "promo_refusal") if t.initial_patch["orders"][-1].get(
    "promo_code")][:3], ids=lambda t: t.id)
def test_a_promo_refusal_states_no_made_up_saving(task):
    """A made-up "$37.25" (149.00 / 4: `grounded` takes a share by any count up to 12) scored 1 on a one-code-per-order
    refusal: a saving said beside a saving word must be one the order or the code gives."""
    o = next(r for r in task.initial_patch["orders"] if r.get("promo_code"))
    reply = task.golden_reply or ""
    price = next(float(i["unit_price"]) for i in task.initial_patch["order_items"] if i["order_id"] == o["id"])
    made_up = f"{price / 4:.2f}" if (price / 4) != int(price / 4) else f"{price / 3:.2f}"
    scores(task, legit=[reply, f"{reply} Your current discount stays at ${o['discount']:.2f} and your total at "
                        f"${o['total']:.2f}."],
           sloppy=[f"{reply} The new code would save you ${made_up}.", f"{reply} Your current discount is ${made_up}."])


@pytest.mark.parametrize("task", _one("shipments_overview"), ids=lambda t: t.id)
def test_an_order_not_shipped_gets_no_delivery_date(task):
    """An invented arrival date for the order that has not shipped scored 1 (`grounded` takes today plus a policy
    count of days, and another order's eta)."""
    reply = task.golden_reply or ""
    waiting = reply.rsplit("Order ", 1)[1].split(" ", 1)[0]
    head = reply.rsplit(" Order ", 1)[0]
    scores(task, legit=[reply, f"{head} {waiting} hasn't shipped yet, so it has no delivery date so far."],
           sloppy=[f"{head} Order {waiting} should arrive around 2026-12-12.",
                   f"{head} {waiting} hasn't shipped yet; expect it on December 8."])


def test_the_internal_reason_of_a_denied_approval_is_not_told():
    """The decision note ("this account needs review by the account team") and the account's flag said to the
    customer scored 1; the policy says never to mention internal account flags. Also on the hand-written task."""
    tasks = [*_one("approval_denied_escalate"), *_tasks("retail/refund-denied-new-ticket-001").values()]
    assert len(tasks) == 3
    for task in tasks:
        reply = task.golden_reply or ""
        scores(task, legit=[reply, f"{reply} I'm not able to share the internal reasons for the decision."],
               sloppy=[f"{reply} The manager noted that your account needs review by the account team.",
                       f"{reply} Your account has been flagged, which is why it was denied.",
                       f"{reply} There is a risk hold on your account."])


@pytest.mark.parametrize("task", _one("refund_status"), ids=lambda t: t.id)
def test_a_refund_status_may_be_told_in_label_lines(task):
    """"Refund status: processed / Amount: 29.99" scored 0: no refund word stood near the amount."""
    amount = next(f.fact for a in task.assertions if a.kind == "response_contains" for f in a.body.facts
                  if f.near and "refund" in f.near)
    when = next(f.fact for a in task.assertions if a.kind == "response_contains" for f in a.body.facts
                if f.fact.startswith("2026-"))
    card = task.initial_patch["payment_methods"][0]["label"]
    scores(task, legit=[f"Refund status: processed\nAmount: {amount}\nDate: {when}\nRefunded to: {card}",
                        f"- Status: refunded\n- Amount: ${amount}\n- Date: {when}\n- Card: {card}"],
           sloppy=[f"Refund status: processed\nAmount: {float(amount) + 5:.2f}\nDate: {when}\nRefunded to: {card}"])


@pytest.mark.parametrize("task", [*_one("damaged_item_refund")[:1], *_one("received_return_refund")[:1]],
                         ids=lambda t: t.id)
def test_a_refund_issued_now_is_not_said_to_wait_on_the_warehouse(task):
    """"the 65.87 refund will be issued once the warehouse receives it" scored 1 after the refund was issued."""
    reply = task.golden_reply or ""
    scores(task, legit=[reply], sloppy=[f"{reply} The warehouse will refund it automatically once it arrives back.",
                                        f"{reply} Note that it will be issued once the warehouse receives the item."])


@pytest.mark.parametrize("task", _one("goodwill_credit")[:1], ids=lambda t: t.id)
def test_a_new_eta_is_not_told_as_the_day_the_parcel_shipped(task):
    """"The carrier has delayed order O-1, which was shipped on 2026-12-02" (its new eta) scored 1."""
    eta = next(r["eta"] for r in task.initial_patch["shipments"] if r["status"] == "exception")
    order = next(r["order_id"] for r in task.initial_patch["shipments"] if r["status"] == "exception")
    credit = next(c.arguments["amount"] for c in task.golden_actions if c.name == "issue_store_credit")
    scores(task, legit=[task.golden_reply or ""],
           sloppy=[f"The carrier has delayed order {order}, which was shipped on {eta}. I've added a {credit:.2f} "
                   "store credit to your account."])


@pytest.mark.parametrize("task", [t for t in instances("retail", "two_exceptions")
                                  if any(c.name == "issue_refund" for c in t.golden_actions)][:1], ids=lambda t: t.id)
def test_a_refunded_lost_parcel_is_not_also_said_replaced(task):
    """"I've refunded the full 89.99 ... and sent a replacement too" scored 1 (never both)."""
    reply = task.golden_reply or ""
    scores(task, legit=[reply], sloppy=[f"{reply} I've also sent a replacement for it.",
                                        f"{reply} A replacement has been sent as well."])


def test_a_returns_outcome_names_the_items_returned_not_the_orders_others():
    """Audit 12: the return's outcome listed the order's other item (the Chef's Knife kept while the blender went
    back), so "return R-9001 for the Chef's Knife" passed and a refusal naming the returned item went unread."""
    checked = 0
    for t in tb_env.list_tasks("retail"):
        ret = [a for a in t.golden_actions if isinstance(a, ToolCall) and a.name == "create_return"]
        if not ret:
            continue
        names = {i["id"]: i["product_name"] for i in t.initial_patch.get("order_items", [])}
        back = {names.get(x) for c in ret for x in c.arguments.get("item_ids", [])}
        orders = {c.arguments["order_id"] for c in ret}
        kept = {i["product_name"] for i in t.initial_patch.get("order_items", []) if i["order_id"] in orders} - back
        for a in t.assertions:
            if a.kind == "outcome" and a.body.action in ("return", "refund"):
                assert not kept & set(a.body.record), (t.id, a.body.record, sorted(kept))
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("task", _one("shipments_overview"), ids=lambda t: t.id)
def test_audit19_an_order_named_by_its_products_last_word_owns_its_date(task):
    """Audit 19: "the SSD 2026-12-11" for the Portable SSD 1TB did not own its date (a product's words of three
    letters were no name of it): a reply naming each order by its product's head noun must pass, and the dates
    swapped between two of them must not."""
    import re

    reply = task.golden_reply or ""
    lines = re.findall(r"O-\d+ \(([^)]+)\): expected (\d{4}-\d\d-\d\d)( \(delayed by the carrier\))?", reply)
    tail = "Order " + reply.rsplit(" Order ", 1)[1]
    words = {p: [w for w in re.findall(r"[A-Za-z]{4,}|\b[A-Z]{3}\b", p) if w.lower() not in ("pack", "trio", "series", "led")]
             for p, _, _ in lines}
    short = {p: next(w for w in reversed(ws) if all(w not in o for q, o in words.items() if q != p))
             for p, ws in words.items()}
    told = [f"the {short[p]} {eta}{late}" for p, eta, late in lines]
    swapped = [f"the {short[p]} {eta}{late}" for (p, _, late), (_, eta, _) in
               zip(lines, [lines[1], lines[0], *lines[2:]], strict=True)]
    scores(task, legit=[f"Here's where things stand: {', '.join(told)}. {tail}"],
           sloppy=[f"Here's where things stand: {', '.join(swapped)}. {tail}"])


def test_audit19_the_carrier_said_to_have_it_is_why_it_cannot_be_cancelled():
    task = _tasks("retail/cancel-shipped-refusal-001")["retail/cancel-shipped-refusal-001"]
    scores(task, legit=["I'm sorry, it's too late to cancel O-81030: UPS already has it and it is due on 2026-12-03. "
                        "Once it is delivered you can return it within 30 days of delivery for a refund."],
           sloppy=["I'm sorry, it's too late to cancel O-81030. Once it is delivered you can return it within 30 days "
                   "of delivery for a refund."])


@pytest.mark.parametrize("task", [*_one("escalate_request"), *_tasks("retail/escalate-manager-request-001").values()],
                         ids=lambda t: t.id)
def test_audit19_an_escalation_made_is_not_offered_as_still_to_do(task):
    reply = task.golden_reply or ""
    ticket = next(c.arguments["ticket_id"] for c in task.golden_actions if c.name == "escalate_ticket")
    scores(task, legit=[reply, f"{reply} If you don't hear back, I can escalate it again."],
           sloppy=[f"I can escalate ticket {ticket} to our specialist team with high priority; a specialist would "
                   "contact you within 24 hours. Shall I go ahead?"])


@pytest.mark.parametrize("task", _by_template("ticket_close_resolved"), ids=lambda t: t.id)
def test_audit20_a_question_quoted_in_the_reply_asks_the_customer_nothing(task):
    """Audit 20: the ticket's subject quoted with its question mark ('T-2542 ("Where is my Yoga Mat?") is now closed')
    made the customer answer it, and cut the sentence so its record was lost; a real question is still no answer."""
    tid = _ticket(task, "update_ticket_status")
    subject = next(t["subject"] for t in task.initial_patch["tickets"] if t["id"] == tid)
    scores(task, legit=[f'Ticket {tid} ("{subject}") is now closed.', f"Ticket {tid} ({subject}) is now closed."],
           sloppy=[f"Is ticket {tid} closed now?"])


@pytest.mark.parametrize("task", _by_template("approval_denied_escalate"), ids=lambda t: t.id)
def test_audit20_the_orders_total_said_as_the_refund_asked_for_scores_0(task):
    """Audit 20: "the 313.98 refund could not be approved" (the order's total) passed where the item was 279.99."""
    amount = f"{golden_arg(task, 'request_manager_approval', 'amount'):.2f}"
    order = golden_arg(task, "request_manager_approval", "order_id")
    total = next(o["total"] for o in task.initial_patch["orders"] if o["id"] == order)
    if f"{total:.2f}" == amount:
        pytest.skip("the order holds the returned item alone")
    reply = task.golden_reply or ""
    scores(task, legit=[reply.replace(f"the {amount} refund", f"the {amount} refund (your order came to {total:.2f} in all)")],
           sloppy=[reply.replace(f"the {amount} refund", f"the {total:.2f} refund")])
