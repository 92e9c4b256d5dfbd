"""The banking tasks grade what the agent says, not which status word it happens to use: a reply
that states the opposite ("no provisional credit", "the hold will be released", "you're
verified") scores 0 although it contains the word, a competent wording scores 1; the records
of a namesake or of a caller who failed verification are not read at all, and a caller's own
records only once they are verified."""

from __future__ import annotations

import asyncio
import re

import pytest

import tb_env
from tb_env.core.episode import run_episode
from tb_env.domain.task import Task, ToolCall
from tb_env.kit.probes import ScriptPolicy

from .task_probes import golden_arg as _arg
from .task_probes import instances, scores
from .task_probes import reward as _reward
from .task_probes import said as _said


def _tasks(template: str) -> list[Task]:
    return instances("banking", template)


def _credit_tasks() -> list[Task]:
    """Every task whose dispute got a provisional credit, and the reply without its credit sentence."""
    return [t for name in ("unauthorized-charges", "duplicate-charge", "large-unauthorized-approval", "multi-request")
            for t in _tasks(name) if any(c.name == "issue_provisional_credit" for c in t.golden_actions)]


def _without_credit(task: Task) -> tuple[str, str]:
    """(the golden reply with its credit statement left out, the disputed amount as written)."""
    amount = f"{next(c.arguments['amount'] for c in task.golden_actions if c.name == 'create_dispute'):,.2f}"
    stripped = re.sub(r"(Both amounts are|, and [\d,.]+ is|and) credited .*?provisionally|A supervisor approved a "
                      r"provisional credit of [\d,.]+", "", task.golden_reply or "")
    return stripped, amount


@pytest.mark.parametrize("task", _credit_tasks(), ids=lambda t: t.id)
def test_saying_the_provisional_credit_was_not_given_scores_0_and_saying_it_was_scores_1(task):
    rest, amount = _without_credit(task)
    assert _said(task, f"{rest} There is no provisional credit for this dispute; you'll be credited if it is decided "
                       "in your favour.") == 0
    assert _said(task, f"{rest} I wasn't able to issue a provisional credit for it.") == 0
    assert _said(task, f"{rest} The provisional credit could not be approved.") == 0
    for said in (f"I've issued a provisional credit of ${amount} to your account.",
                 f"I've issued a temporary credit of ${amount}.",
                 f"A provisional credit of ${amount} has been applied to your account.",
                 f"You've been credited ${amount} provisionally while we investigate.",
                 "You now have a provisional credit for the full amount in your account. Anything else?"):
        assert _said(task, f"{rest} {said}") == 1, said


@pytest.mark.parametrize("task", _tasks("not-received-dispute") + _tasks("wrong-amount-dispute"), ids=lambda t: t.id)
def test_a_dispute_without_provisional_credit_must_say_so_and_not_claim_one(task):
    d, amount = _arg(task, "add_dispute_evidence", "dispute_id"), f"{_arg(task, 'create_dispute', 'amount'):,.2f}"
    opened = f"I've opened dispute {d} for ${amount} with your evidence."
    assert _said(task, opened) == 0
    assert _said(task, f"{opened} I've also issued a provisional credit of ${amount}.") == 0
    for said in ("This kind of dispute doesn't get a provisional credit; the merchant is asked first.",
                 "There's no provisional credit for this type of dispute.",
                 "You won't receive a temporary credit while the merchant responds."):
        assert _said(task, f"{opened} {said}") == 1, said


def _status_probe(template: str, done: str, failed: str) -> list[tuple[Task, str, str]]:
    return [(t, done, failed) for t in _tasks(template)]


@pytest.mark.parametrize(("task", "done", "failed"), [
    *_status_probe("cancel-scheduled-transfer", "The transfer on {date} has been canceled.", "I couldn't cancel the transfer on {date}."),
    *_status_probe("fee-refund-courtesy", "The ${fee} fee is back in your account.", "I can't refund the ${fee} fee."),
    *_status_probe("kyc-upgrade", "You're now on level {level}.", "I can't upgrade you to level {level}."),
    *_status_probe("card-limit-change", "That daily limit is set to ${limit}.", "I'm unable to change the limit to ${limit}."),
], ids=lambda x: x.id if isinstance(x, Task) else "")
def test_a_write_said_as_failed_scores_0_and_said_in_other_words_scores_1(task, done, failed):
    values = {"date": next((c.arguments["transfer_id"] for c in task.golden_actions if c.name == "cancel_transfer"), ""),
              "fee": "", "level": "", "limit": ""}
    reply = task.golden_reply or ""
    values["date"] = (re.findall(r"scheduled for (\d{4}-\d\d-\d\d)", reply) or [""])[0]
    values["fee"] = (re.findall(r"fee of ([\d,.]+)", reply) or [""])[0]
    values["level"] = next((str(c.arguments["level"]) for c in task.golden_actions if c.name == "upgrade_kyc_level"), "")
    values["limit"] = (re.findall(r"limit of ([\d,.]+)", reply) or [""])[0]
    assert _said(task, failed.format(**values)) == 0
    assert _said(task, done.format(**values)) == 1


@pytest.mark.parametrize("task", _tasks("two-fee-refunds"), ids=lambda t: t.id)
def test_two_refunds_are_each_or_their_total_and_one_alone_is_not_both(task):
    fees = [f"{-row['amount']:,.2f}" for row in task.initial_patch["transactions"]
            if row["id"] in {c.arguments["transaction_id"] for c in task.golden_actions if c.name == "refund_fee"}]
    total = f"{sum(float(f.replace(',', '')) for f in fees):,.2f}"
    assert _said(task, f"I've refunded the ${fees[0]} fee.") == 0
    assert _said(task, f"I couldn't refund ${fees[0]} or ${fees[1]}.") == 0
    assert _said(task, f"Both fees are refunded: ${total} in total is back in your account.") == 1
    assert _said(task, f"I've refunded both fees, ${fees[0]} and ${fees[1]}.") == 1


@pytest.mark.parametrize("task", _tasks("lost-card-replace"), ids=lambda t: t.id)
def test_replacement_fees_are_said_each_or_as_their_total(task):
    reply = task.golden_reply or ""
    new4 = re.search(r"replacement card ending in (\d{4})", reply).group(1)
    speed = "2 business days" if "2 business days" in reply else "5-7 business days"
    base = f"I've reported the card lost; the new card ends in {new4} and arrives in {speed}."
    total = re.search(r"Fees charged: ([\d,]+\.\d\d)", reply)
    if total is None:  # no fee: nothing more to say
        assert _said(task, base) == 1
    elif total.group(1) == "35.00":
        assert _said(task, f"{base} There's a $10 replacement fee and $25 for expedited shipping.") == 1
        assert _said(task, f"{base} Fees: $35.00 in total.") == 1
        assert _said(task, f"{base} There's a $10 replacement fee.") == 0
    else:
        assert _said(task, f"{base} That comes with a ${total.group(1)} fee.") == 1
        assert _said(task, f"{base} There's no fee for this replacement.") == 0


@pytest.mark.parametrize("task", _tasks("release-auth-hold"), ids=lambda t: t.id)
def test_a_hold_that_will_be_released_is_not_one_that_was(task):
    assert _said(task, "The hotel hold will be released automatically on its release date.") == 0
    assert _said(task, "I wasn't able to release the hotel hold.") == 0
    for said in ("The hotel hold has been lifted; the money is available again.", "I removed the hold from the hotel.",
                 "The hotel hold is off your account now."):
        assert _said(task, said) == 1, said


@pytest.mark.parametrize("task", _tasks("withdraw-dispute"), ids=lambda t: t.id)
def test_the_ticket_is_said_closed_not_the_dispute(task):
    d, tk = _arg(task, "withdraw_dispute", "dispute_id"), _arg(task, "update_ticket_status", "ticket_id")
    reversed_credit = re.search(r"; the provisional credit of [\d,.]+ has been reversed from your account", task.golden_reply)
    credit = reversed_credit.group(0) if reversed_credit else ""
    assert _said(task, f"I've withdrawn dispute {d}{credit}; that dispute is now closed.") == 0
    assert _said(task, f"I've withdrawn dispute {d}{credit}. Ticket {tk} will be closed automatically.") == 0
    assert _said(task, f"Dispute {d} has been withdrawn{credit}, and I closed ticket {tk}.") == 1
    assert _said(task, f"I couldn't withdraw dispute {d}{credit}; I closed ticket {tk}.") == 0
    for said in (f"I've cancelled the dispute {d}", f"I withdrew dispute {d}", f"Dispute {d} has been closed at your request"):
        assert _said(task, f"{said}{credit}. Ticket {tk} is closed too.") == 1, said


@pytest.mark.parametrize("task", _tasks("verification-failed"), ids=lambda t: t.id)
def test_a_failed_verification_is_said_as_a_failure_and_nothing_of_the_account_is_read(task):
    cid = task.initial_patch["customers"][0]["id"]
    facts = task.user.known_facts
    attempt = ToolCall(name="verify_identity", arguments={"customer_id": cid, "date_of_birth": facts["date_of_birth"],
                                                         "zip_code": facts["zip_code"]})
    tried = [*task.golden_actions, attempt]
    assert _reward(task, [*tried, "You're verified, but I can't make that change right now."]) == 0
    assert _reward(task, [*tried, "I wasn't able to confirm that you're the account holder, so I can't help with this "
                                  "account until you can."]) == 1
    assert _reward(task, [*tried, "The details you provided are incorrect, so I can't make any changes."]) == 1
    peek = ToolCall(name="get_kyc_status", arguments={"customer_id": cid})
    assert _reward(task, [*tried, peek, task.golden_reply or ""]) == 0


@pytest.mark.parametrize("task", _tasks("verify-by-name-update-phone"), ids=lambda t: t.id)
def test_the_namesakes_records_are_not_read_to_tell_the_two_apart(task):
    me = _arg(task, "verify_identity", "customer_id")
    twin = next(c["id"] for c in task.initial_patch["customers"] if c["id"] != me)
    found = task.golden_actions[0].arguments
    by_name = ToolCall(name="find_customer", arguments={"first_name": found["first_name"], "last_name": found["last_name"]})
    assert _reward(task, [by_name, *task.golden_actions, task.golden_reply or ""]) == 1
    for tool in ("get_customer", "list_cards"):
        peek = ToolCall(name=tool, arguments={"customer_id": twin})
        assert _reward(task, [by_name, peek, *task.golden_actions, task.golden_reply or ""]) == 0, tool


@pytest.mark.parametrize("task", _tasks("close-ticket-open-dispute"), ids=lambda t: t.id)
def test_the_reason_a_ticket_stays_open_is_its_open_dispute(task):
    tk, d = _arg(task, "get_ticket", "ticket_id"), _arg(task, "get_dispute", "dispute_id")
    assert _said(task, f"Ticket {tk} is open and can't be closed from chat; your dispute {d} has been resolved.") == 0
    assert _said(task, f"Sorry, {tk} must stay open until your dispute {d} is resolved; I've left a note on it.") == 1


@pytest.mark.parametrize("task", _tasks("dispute-status"), ids=lambda t: t.id)
def test_a_dispute_no_longer_open_is_not_an_open_one(task):
    d = _arg(task, "get_dispute", "dispute_id")
    assert _said(task, "Your dispute with that merchant was decided in your favour; it is no longer open.") == 0
    assert _said(task, f"Dispute {d} is currently open; no decision yet.") == 1


def _first_verifying_task_of_each_template() -> list[Task]:
    """The first task of each template whose golden path verifies the caller and then reads a record."""
    seen: dict[str, Task] = {}
    for t in tb_env.list_tasks("banking"):
        if _record_read(t) is not None:
            seen.setdefault(str(t.tags.get("template")), t)
    return list(seen.values())


def _record_read(task: Task) -> tuple[int, ToolCall] | None:
    """(where the verification is, the first read after it that names a record)."""
    tools = tb_env.get_domain("banking").tools_by_name
    g = list(task.golden_actions)
    gate = next((i for i, c in enumerate(g) if c.name == "verify_identity"), None)
    if gate is None:
        return None
    read = next((c for c in g[gate + 1:] if not tools[c.name].writes and c.arguments), None)
    return None if read is None else (gate, read)


@pytest.mark.parametrize("task", _first_verifying_task_of_each_template(), ids=lambda t: t.id)
def test_a_record_read_before_the_caller_is_verified_scores_0_and_after_it_1(task):
    gate, read = _record_read(task)
    g = list(task.golden_actions)
    assert _reward(task, [*g[:gate], read, *g[gate:], task.golden_reply or ""]) == 0
    assert _reward(task, [*g, read, task.golden_reply or ""]) == 1


@pytest.mark.parametrize("task", [t for t in _tasks("kyc-blocked-external") if "under review" in (t.golden_reply or "")],
                         ids=lambda t: t.id)
def test_documents_under_review_in_other_words(task):
    assert _said(task, "Sorry, I can't make that transfer right now.") == 0
    assert _said(task, "I can't do that: your documents are under review.") == 0  # the KYC reason is missing
    for said in ("still being looked at", "pending review", "currently being reviewed", "awaiting approval"):
        assert _said(task, f"I can't send that: external transfers need a verified identity (KYC), and your documents "
                           f"are {said}.") == 1, said



# -- reward fidelity: each value bound to its role, each status said in ordinary words (both ways, every instance) --


def _card(task: Task, **where: str) -> dict:
    return next(c for c in task.initial_patch["cards"] if all(c[k] == v for k, v in where.items()))


def _one(pattern: str, text: str) -> str:
    return re.search(pattern, text).group(1)


@pytest.mark.parametrize("task", _tasks("cancel-pending-refusal"), ids=lambda t: t.id)
def test_a_sent_transfer_is_said_sent_in_any_wording_and_not_by_a_bare_refusal(task):
    for why in ("it is already being processed", "it's already on its way", "it has already gone out",
                "it's already been processed", "it's in transit now", "it's too late to stop it",
                "it is already underway", "it was already initiated"):
        assert _said(task, f"Sorry, I can't cancel the transfer you made today: {why}.") == 1, why
    for why in ("I can't cancel it.", "It hasn't been sent yet, but I can't cancel it.",
                "It is not being processed yet, but I can't cancel it."):
        assert _said(task, f"About the transfer you made today: {why}") == 0, why


@pytest.mark.parametrize("task", _tasks("card-limit-over-max"), ids=lambda t: t.id)
def test_the_maximum_is_said_as_the_maximum_not_as_the_amount_asked(task):
    mx = _one(r"the maximum is ([\d,.]+\d)", task.golden_reply or "")
    ask = _one(r"limit to ([\d,.]+\d)", task.golden_reply or "")
    for said in (f"the maximum is {mx} per day", f"your level allows up to ${mx} a day",
                 f"the highest limit I can set is {mx}", f"{mx} is the most your level permits",
                 f"limits are capped at {mx} for your level", f"it can go up to {mx} at most"):
        assert _said(task, f"Sorry, I can't set it to {ask}: {said}.") == 1, said
    for said in (f"Sorry, you asked for {mx} and that isn't possible.", f"Sorry, I can't set your limit to {mx}.",
                 f"The maximum is {ask}; you asked for {mx}."):
        assert _said(task, said) == 0, said


@pytest.mark.parametrize("task", _tasks("external-similar-payee"), ids=lambda t: t.id)
def test_the_payee_is_named_letter_for_letter_not_by_the_look_alike(task):
    payee = _arg(task, "create_transfer", "payee_id")
    target = next(p["name"] for p in task.initial_patch["payees"] if p["id"] == payee)
    other = next(p["name"] for p in task.initial_patch["payees"] if p["id"] != payee)
    amount = f"{_arg(task, 'create_transfer', 'amount'):,.2f}"
    assert _said(task, f"I've sent {amount} to {target}; it's on its way.") == 1
    assert _said(task, f"Done: ${amount} has been transferred to {target}.") == 1
    assert _said(task, f"I've sent {amount} to {other}; it's on its way.") == 0
    assert _said(task, f"I've sent {amount} to {other}, not {target}; it's on its way.") == 0


@pytest.mark.parametrize("task", _tasks("external-similar-payee"), ids=lambda t: t.id)
def test_an_external_transfer_said_pending_as_the_bank_shows_it_is_sent(task):
    """Audit 17: "The transfer is pending today" was read as a send still waiting, where create_transfer
    returned it "pending" (being processed): the bank's status is no wait on anyone. Pending an approval,
    or sent on a later day, still is."""
    payee = _arg(task, "create_transfer", "payee_id")
    target = next(p["name"] for p in task.initial_patch["payees"] if p["id"] == payee)
    amount = f"{_arg(task, 'create_transfer', 'amount'):,.2f}"
    scores(task, legit=[f"I've sent {amount} to {target}. The transfer is pending today and arrives within 1-3 business "
                        "days.", f"Done: {amount} is on its way to {target}; it's pending and should arrive in 1-3 "
                        "business days."],
           sloppy=[f"The {amount} transfer to {target} is pending approval from a supervisor.",
                   f"I've scheduled {amount} to {target}; the transfer is pending and will be sent next week.",
                   f"The {amount} transfer to {target} has arrived."])


def _freeze_cases() -> list[tuple[Task, str, str, str]]:
    """(task, the card changed, the card that stays, the state the changed card is in)"""
    out = []
    for t in _tasks("unfreeze-card"):
        out.append((t, _card(t, kind="physical")["last4"], _card(t, kind="virtual")["last4"], "unfrozen"))
    for t in _tasks("freeze-card"):
        out.append((t, _card(t, kind="physical", status="active")["last4"], _card(t, kind="virtual")["last4"], "frozen"))
    return out


@pytest.mark.parametrize(("task", "mine", "other", "state"), _freeze_cases(), ids=lambda x: x.id if isinstance(x, Task) else "")
def test_the_card_changed_is_the_one_named_with_the_change(task, mine, other, state):
    if state == "unfrozen":
        legit = [f"I've unfrozen the card ending {mine}; the virtual card ending {other} is still frozen.",
                 f"Card {mine} is active again.", "Your physical card is unfrozen and ready to use; the virtual one stays frozen.",
                 f"The freeze on your card ending {mine} has been lifted.",
                 f"Done - card ending {mine} is unlocked. Virtual card {other} remains frozen."]
        sloppy = [f"Your virtual card ending {other} is unfrozen. Your card ending {mine} stays frozen.",
                  "I've unfrozen the virtual card. The physical card stays frozen.",
                  f"Card {other} is unfrozen; card {mine} is still frozen."]
    else:
        legit = [f"I've frozen your card ending {mine}; the virtual card still works.", f"Card {mine} is now locked.",
                 "Your physical card is frozen; your virtual card is not affected.",
                 f"I've put a temporary freeze on the card ending {mine}.",
                 f"Done: card {mine} is frozen. The virtual card ending {other} stays active."]
        sloppy = [f"Your virtual card ending {other} is now frozen. Your card ending {mine} is not affected.",
                  "I've frozen the virtual card; the physical card stays active.",
                  f"Card {other} is frozen; card {mine} still works."]
    for said in legit:
        assert _said(task, said) == 1, said
    for said in sloppy:
        assert _said(task, said) == 0, said


@pytest.mark.parametrize("task", _tasks("lost-card-replace") + _tasks("damaged-card-new-address") + _tasks("unauthorized-charges"),
                         ids=lambda t: t.id)
def test_the_new_cards_digits_are_the_new_cards_and_a_fee_is_charged_not_waived(task):
    reply = task.golden_reply or ""
    old4 = _arg(task, "replace_card", "card_id")
    old4 = next(c["last4"] for c in task.initial_patch["cards"] if c["id"] == old4)
    new4 = _one(r"(?:card ending in|card ends in) (\d{4})(?! is now blocked)(?!\. The new)", reply.split(old4, 1)[1])
    swapped = reply.replace(old4, "@@@@").replace(new4, old4).replace("@@@@", new4)
    assert _said(task, reply) == 1
    assert _said(task, swapped) == 0
    for fee in re.findall(r"for (25\.00)|Fees charged: ([\d,]+\.\d\d)", reply):
        amount = fee[0] or fee[1]
        rest = re.sub(r" for 25\.00| Fees charged: [\d,]+\.\d\d\.", "", reply)
        assert _said(task, f"{rest} There's a ${amount} charge for it.") == 1
        assert _said(task, f"{rest} The ${amount} fee is waived.") == 0


@pytest.mark.parametrize("task", _tasks("unauthorized-charges"), ids=lambda t: t.id)
def test_each_disputed_amount_is_said_with_its_own_dispute(task):
    reply = task.golden_reply or ""
    (d1, a1, m1), (d2, a2, m2) = re.findall(r"(DP-\d+) for ([\d,.]+\d) at ([^,.]+?)(?= and |\. )", reply)
    assert _said(task, reply.replace(f"{d1} for {a1}", f"{d1} for {a2}").replace(f"{d2} for {a2}", f"{d2} for {a1}")) == 0
    paraphrase = reply.replace(f"{d1} for {a1} at {m1} and {d2} for {a2} at {m2}",
                               f"{d2} ({m2}, {a2}) and {d1} ({m1}, {a1})")
    assert _said(task, paraphrase) == 1


@pytest.mark.parametrize("task", _tasks("wrong-amount-dispute"), ids=lambda t: t.id)
def test_the_disputed_difference_is_not_the_price_charged_or_agreed(task):
    d, diff = _arg(task, "create_dispute", "transaction_id"), f"{_arg(task, 'create_dispute', 'amount'):,.2f}"
    d = "DP-" + d.split("-")[1]
    credit = "There's no provisional credit for this type of dispute."
    for said in (f"I've opened dispute {d} for the ${diff} overcharge.", f"Dispute {d} covers the {diff} difference.",
                 f"I'm disputing {diff}, the amount you were overcharged, under {d}."):
        assert _said(task, f"{said} {credit}") == 1, said
    assert _said(task, f"I've opened dispute {d}. You agreed to pay {diff}. {credit}") == 0
    assert _said(task, f"I've opened dispute {d}; the merchant charged you {diff}. {credit}") == 0


@pytest.mark.parametrize("task", [t for t in _tasks("withdraw-dispute") if "reversed" in (t.golden_reply or "")],
                         ids=lambda t: t.id)
def test_a_withdrawn_disputes_credit_is_said_reversed_not_kept(task):
    d, tk = _arg(task, "withdraw_dispute", "dispute_id"), _arg(task, "update_ticket_status", "ticket_id")
    amount = _one(r"provisional credit of ([\d,.]+\d)", task.golden_reply or "")
    base = f"I've withdrawn dispute {d} and closed ticket {tk}."
    for said in (f"The {amount} provisional credit has been reversed.", f"The ${amount} credit was taken back from your account.",
                 f"We've deducted the provisional credit of {amount} again."):
        assert _said(task, f"{base} {said}") == 1, said
    assert _said(task, f"{base} The provisional credit of {amount} stays in your account.") == 0
    assert _said(task, f"{base} You keep the {amount} credit.") == 0


@pytest.mark.parametrize("task", _tasks("balance-holds"), ids=lambda t: t.id)
def test_the_available_amount_is_said_as_available_not_as_the_balance(task):
    reply = task.golden_reply or ""
    bal, held, avail = re.search(r"balance is ([\d,.]+\d), but ([\d,.]+\d) is on hold, so ([\d,.]+\d)", reply).groups()
    rest = reply.split(". ", 1)[1]
    for said in (f"You can spend {avail} right now because {held} is on hold.", f"{avail} is available to use; {held} is held.",
                 f"Your available balance is ${avail}; the rest is on hold."):
        assert _said(task, f"{said} {rest}") == 1, said
    assert _said(task, f"Your balance is {avail}, but {held} is on hold, so {bal} is available. {rest}") == 0


@pytest.mark.parametrize("task", _tasks("hold-too-recent"), ids=lambda t: t.id)
def test_the_release_date_is_not_the_date_the_hold_was_placed(task):
    reply = task.golden_reply or ""
    release = re.findall(r"\d{4}-\d\d-\d\d", reply)[-1]
    placed = next(h["placed_on"] for h in task.initial_patch["holds"])
    rule = reply.split(". ")[0] if "check" in reply else reply.split(" It releases")[0]
    for said in (f"It will drop off by itself on {release}.", f"The money is available again on {release}.",
                 f"It's released automatically on {release}.", f"It stays until {release}."):
        assert _said(task, f"{rule}. {said}") == 1, said
    assert _said(task, f"{rule}. It was placed on {release} and releases on {placed}.") == 0


@pytest.mark.parametrize("task", _tasks("transfer-limit-inquiry"), ids=lambda t: t.id)
def test_what_is_left_today_is_not_what_was_sent(task):
    limit, sent, left = re.findall(r"[\d,]+\.\d\d", task.golden_reply or "")
    for said in (f"You have {left} left for today.", f"You can send another {left} today.",
                 f"Of your {limit} daily limit, {sent} is used, leaving {left}.", f"Remaining today: {left}."):
        assert _said(task, said) == 1, said
    assert _said(task, f"You've already sent {left} today; you can send {sent} more.") == 0


@pytest.mark.parametrize("task", _tasks("transfer-over-limit-approved"), ids=lambda t: t.id)
def test_the_approved_amount_is_the_one_sent_not_the_remaining_limit(task):
    reply = task.golden_reply or ""
    remaining, amount = re.findall(r"[\d,]+\.\d\d", reply)[:2]
    tail = reply.split(f"{amount} to ", 1)[1]
    assert _said(task, f"A supervisor approved it: I've sent {amount} to {tail}") == 1
    assert _said(task, f"Your remaining limit was {remaining}, but a supervisor approved it, so {amount} to {tail}") == 1
    assert _said(task, f"Your remaining limit was {amount}, but a supervisor approved it, so {remaining} to {tail}") == 0


@pytest.mark.parametrize("task", _tasks("cancel-scheduled-transfer"), ids=lambda t: t.id)
def test_the_cancelled_date_is_not_the_one_that_stays(task):
    target, keep = re.findall(r"\d{4}-\d\d-\d\d", task.golden_reply or "")
    for said in (f"The transfer on {target} is cancelled; the one on {keep} stays.", f"I stopped the {target} payment.",
                 f"Cancelled: the {target} transfer. Still scheduled: {keep}.", f"The {target} transfer won't go out."):
        assert _said(task, said) == 1, said
    assert _said(task, f"I've cancelled the transfer on {keep}; the one on {target} is still scheduled.") == 0
    assert _said(task, f"Cancelled: the {keep} transfer. Still scheduled: {target}.") == 0


@pytest.mark.parametrize("task", _tasks("general-question"), ids=lambda t: t.id)
def test_two_limits_asked_for_are_each_said_with_their_own_name(task):
    reply = task.golden_reply or ""
    if "ATM limit" in reply:
        assert _said(task, "The ATM limit can be up to 800 a day; you can send up to 5,000 a day to other banks.") == 1
        assert _said(task, "The ATM limit can be up to 5,000 a day; you can send up to 800 a day to other banks.") == 0
    elif "Premium" in reply:
        assert _said(task, "Premium gives you 4 fee refunds a year and a card spending limit of up to 10,000.") == 1
        assert _said(task, "Premium gives you a card spending limit of up to 4, and 10,000 fee refunds a year.") == 0
    else:
        assert _said(task, reply) == 1


@pytest.mark.parametrize("task", _tasks("verify-by-name-update-phone") + _tasks("verify-after-move"), ids=lambda t: t.id)
def test_the_new_phone_or_zip_is_said_as_the_new_one(task):
    new = _one(r"(\d{3}-555-\d{4}|\d{5})\.$", task.golden_reply or "")
    me = next(c for c in task.initial_patch["customers"] if c["id"] == _arg(task, "verify_identity", "customer_id"))
    old_value = me["phone"] if "-" in new else me["zip_code"]
    for said in (f"I've updated it to {new}.", f"Your new one is {new}, and it's saved.", f"It's now {new}; all updated."):
        assert _said(task, said) == 1, said
    assert _said(task, f"I've updated it; the old one was {new}.") == 0
    assert _said(task, f"It's now {old_value}; I've updated it (it was {new}).") == 0


@pytest.mark.parametrize("task", _tasks("fee-refund-courtesy") + _tasks("fee-refund-over-allowance"), ids=lambda t: t.id)
def test_a_refunded_fee_is_said_refunded_not_only_charged(task):
    amount = _one(r"([\d,]+\.\d\d)", (task.golden_reply or "").split("fee of ", 1)[1])
    for said in (f"The ${amount} fee has been refunded.", f"I've refunded your fee of {amount}.",
                 f"{amount} is back in your account.", f"You've been credited {amount} for that fee."):
        assert _said(task, said) == 1, said
    assert _said(task, f"You were charged {amount} for that fee; I couldn't refund it.") == 0


@pytest.mark.parametrize("task", _tasks("multi-request"), ids=lambda t: t.id)
def test_each_value_of_a_long_request_is_bound_to_its_own_request(task):
    reply = task.golden_reply or ""
    assert _said(task, reply) == 1
    if "frozen" in reply:
        virtual = _one(r"virtual card ending (\d{4})", reply)
        physical = _card(task, kind="physical")["last4"]
        target, keep = re.findall(r"on (\d{4}-\d\d-\d\d)", reply)[:2]
        fee, move = _one(r"the ([\d.]+) overdraft fee", reply), _one(r"; ([\d,.]+\d) moved", reply)
        swaps = [reply.replace(f"virtual card ending {virtual}", f"card ending {physical}"),
                 reply.replace(target, "@").replace(keep, target).replace("@", keep),
                 reply.replace(f"the {fee} overdraft fee", f"the {move} overdraft fee").replace(f"; {move} moved", f"; {fee} moved")]
    else:
        amt, spend, save, send = (_one(r"duplicate ([\d,.]+\d)", reply), _one(r"limit of ([\d,.]+\d)", reply),
                                  _one(r"; ([\d,.]+\d) is scheduled", reply), _one(r"; ([\d,.]+\d) was sent", reply))
        swaps = [reply.replace(f"limit of {spend}", f"limit of {save}").replace(f"; {save} is scheduled", f"; {spend} is scheduled"),
                 reply.replace(f"; {save} is scheduled", f"; {send} is scheduled").replace(f"; {send} was sent", f"; {save} was sent"),
                 reply.replace(f"duplicate {amt}", f"duplicate {send}").replace(f"and {amt} is credited", f"and {send} is credited")
                 .replace(f"; {send} was sent", f"; {amt} was sent")]
    for swapped in swaps:
        assert swapped != reply
        assert _said(task, swapped) == 0, swapped


@pytest.mark.parametrize("task", _credit_tasks(), ids=lambda t: t.id)
def test_no_provisional_credit_was_issued_is_a_denial(task):
    rest, amount = _without_credit(task)
    assert _said(task, f"{rest} No provisional credit was issued.") == 0
    assert _said(task, f"{rest} No provisional credit was issued yet, sorry.") == 0
    assert _said(task, f"{rest} A provisional credit of ${amount} was issued.") == 1


@pytest.mark.parametrize("task", _tasks("not-received-dispute") + _tasks("wrong-amount-dispute"), ids=lambda t: t.id)
def test_no_provisional_credit_was_issued_says_there_is_none(task):
    d, amount = _arg(task, "add_dispute_evidence", "dispute_id"), f"{_arg(task, 'create_dispute', 'amount'):,.2f}"
    opened = f"I've opened dispute {d} for the ${amount} {'overcharge' if 'difference' in task.golden_reply else 'charge'}."
    assert _said(task, f"{opened} No provisional credit was issued for this kind of dispute.") == 1
    assert _said(task, f"{opened} A provisional credit was issued.") == 0


# -- round 6: the wrong record, a refusal said as done, the wrong reason or role (both ways, every instance) --


@pytest.mark.parametrize("task", _tasks("damaged-card-new-address") + _tasks("lost-card-replace"), ids=lambda t: t.id)
def test_the_shipping_fee_is_not_the_replacement_fee_and_not_free(task):
    reply = task.golden_reply or ""
    new4 = _one(r"(?:card ending in|card ends in) (\d{4})(?! is now blocked)(?!\. The new)", reply.split("replacement", 1)[1])
    speed = "2 business days" if "2 business days" in reply else "5-7 business days"
    blocked = "Your old card is blocked. " if task.tags.get("template") == "lost-card-replace" else ""
    base = f"{blocked}Your new card ends in {new4} and arrives in {speed}."
    charged = "25.00" in reply or "35.00" in reply
    if not charged:
        return
    ten = "10.00" in reply or "35.00" in reply
    legit = [f"{base} Expedited shipping costs $25.00.", f"{base} There's a $25 charge for express delivery.",
             f"{base} Fees: $25 for expedited shipping."]
    if ten:
        legit = [f"{base} There's a $10 replacement fee and $25 for expedited shipping.", f"{base} Fees: $35.00 in total."]
    for said in legit:
        assert _said(task, said) == 1, said
    sloppy = [f"{base} There is a 25.00 replacement fee, and expedited shipping is free.",
              f"{base} Expedited shipping is free; the replacement fee is $25."]
    if ten:
        sloppy = [f"{base} There's a $25 replacement fee and $10 for expedited shipping.",
                  f"{base} The replacement fee is $10 and expedited shipping is free."]
    for said in sloppy:
        assert _said(task, said) == 0, said


@pytest.mark.parametrize("task", _tasks("two-fee-refunds"), ids=lambda t: t.id)
def test_a_second_fee_said_refused_or_a_single_amount_as_the_total_scores_0(task):
    fees = [f"{-row['amount']:,.2f}" for row in task.initial_patch["transactions"]
            if row["id"] in {c.arguments["transaction_id"] for c in task.golden_actions if c.name == "refund_fee"}]
    total = f"{sum(float(f.replace(',', '')) for f in fees):,.2f}"
    for said in (f"I've refunded the {fees[0]} fee. The second {fees[1]} fee couldn't be refunded because you've used up "
                 "your courtesy refunds.", f"I've refunded {fees[0]}; the {fees[1]} fee was not refunded.",
                 f"The {fees[0]} fee has been refunded, but the refund of the {fees[1]} fee was denied."):
        assert _said(task, said) == 0, said
    if fees[0] == fees[1]:
        assert _said(task, f"Both fees have been refunded, {fees[0]} in total.") == 0
    for said in (f"Both fees are refunded: {total} in total is back in your account.",
                 f"I've refunded both fees, ${fees[0]} and ${fees[1]}.",
                 f"Good news: both fees have been refunded, {fees[0]} and {fees[1]}, so {total} is back with you.",
                 f"A supervisor approved the second one, so I've refunded both fees ({fees[0]} and {fees[1]})."):
        assert _said(task, said) == 1, said


@pytest.mark.parametrize("task", _tasks("withdraw-dispute"), ids=lambda t: t.id)
def test_the_dispute_that_stays_is_not_said_withdrawn(task):
    d, tk = _arg(task, "withdraw_dispute", "dispute_id"), _arg(task, "update_ticket_status", "ticket_id")
    reply = task.golden_reply or ""
    shop, other = _one(r"with (.+?)[;.]", reply), _one(r"Your dispute with (.+?) continues", reply)
    credit = re.search(r"; the provisional credit of [\d,.]+ has been reversed from your account", reply)
    credit = credit.group(0) if credit else ""
    for said in (f"Your dispute with {other} has been withdrawn{credit}, and ticket {tk} is now closed.",
                 f"I've withdrawn your {other} dispute{credit}. Ticket {tk} is closed.",
                 f"Your {other} dispute has been withdrawn{credit}; ticket {tk} is now closed."):
        assert _said(task, said) == 0, said
    for said in (f"Your dispute with {shop} has been withdrawn{credit}, and ticket {tk} is now closed. The {other} one stays open.",
                 f"I've withdrawn dispute {d}{credit}. Ticket {tk} is closed; your {other} dispute continues.",
                 f"I withdrew the {shop} dispute{credit} and closed ticket {tk}. Your dispute with {other} was not withdrawn."):
        assert _said(task, said) == 1, said


@pytest.mark.parametrize("task", _tasks("card-limit-over-max"), ids=lambda t: t.id)
def test_the_reason_for_the_refused_limit_is_the_level_not_a_frozen_card(task):
    mx = _one(r"the maximum is ([\d,.]+\d)", task.golden_reply or "")
    ask = _one(r"limit to ([\d,.]+\d)", task.golden_reply or "")
    for said in (f"Your current limit is {mx} a day; I can't raise it to {ask} because your card is frozen.",
                 f"I can't set it to {ask}: the maximum is {mx}, and your account has insufficient funds anyway.",
                 f"The maximum is {mx}, so your limit has been raised to {mx}."):
        assert _said(task, said) == 0, said
    for said in (f"I can't raise it to {ask}: your KYC level allows up to {mx} a day. Your card isn't frozen or blocked.",
                 f"Sorry, {ask} is above the {mx} maximum for your level; nothing was changed.",
                 f"I'm not able to go to {ask}. The most your level permits is {mx}."):
        assert _said(task, said) == 1, said


@pytest.mark.parametrize("task", _tasks("transfer-over-limit-approved"), ids=lambda t: t.id)
def test_an_approved_transfer_is_not_said_to_need_no_approval(task):
    reply = task.golden_reply or ""
    remaining, amount = re.findall(r"[\d,]+\.\d\d", reply)[:2]
    tail = reply.split(f"{amount} to ", 1)[1]
    payee = tail.split(" has been")[0].split(" is scheduled")[0]
    for said in (f"I've sent {amount} to {tail} It was within your limit so no approval was needed.",
                 f"{amount} to {tail} No supervisor approval was needed.",
                 f"{amount} to {tail} It went through without approval."):
        assert _said(task, said) == 0, said
    for said in (f"A supervisor approved it, so {amount} to {tail}",
                 f"It was above your {remaining} limit, but it was approved: {amount} to {tail}",
                 f"It wasn't within your remaining limit, so I got a supervisor's approval; {amount} to {tail}"):
        assert _said(task, said) == 1, said
    assert payee


@pytest.mark.parametrize("task", _tasks("dispute-status"), ids=lambda t: t.id)
def test_the_dispute_status_does_not_deny_a_credit_given_or_claim_one_not_given(task):
    d = _arg(task, "get_dispute", "dispute_id")
    reply = task.golden_reply or ""
    credit = re.search(r"provisional credit of ([\d,.]+\d) is already", reply)
    if credit:
        for said in (f"Dispute {d} is still open; no provisional credit has been applied.",
                     f"Dispute {d} is still open, and there's no temporary credit for it."):
            assert _said(task, said) == 0, said
        for said in (f"Dispute {d} is still open; you already have a provisional credit of {credit.group(1)}.",
                     f"Dispute {d} is still pending, and the temporary credit of {credit.group(1)} has been applied."):
            assert _said(task, said) == 1, said
    else:
        assert _said(task, f"Dispute {d} is still open, and I've issued a provisional credit meanwhile.") == 0
        for said in (f"Dispute {d} is still open; this kind of dispute gets no provisional credit.",
                     f"Dispute {d} is still under review. The merchant has been asked to respond."):
            assert _said(task, said) == 1, said


def _refusal_claims() -> list[tuple[Task, str, str]]:
    """(task, a reply saying the refused thing was done, a reply refusing it in other words)."""
    out = []
    for t in _tasks("transfer-over-limit-denied"):
        tid = _one(r"escalated ticket (T-\d+)", t.golden_reply or "")
        base = f"It could not be approved. I've escalated ticket {tid}; a specialist will contact you within one business day."
        out.append((t, f"{base} The transfer has been sent.", f"{base} Nothing was sent, and the transfer wasn't made."))
    for t in _tasks("fee-refund-denied"):
        tid = _one(r"escalated ticket (T-\d+)", t.golden_reply or "")
        base = f"The refund was not approved. I've escalated ticket {tid}; a specialist will contact you within one business day."
        out.append((t, f"{base} The fee has been refunded as a courtesy.", f"{base} The fee was not refunded, sorry."))
    for t in _tasks("fee-refund-too-old"):
        posted = re.findall(r"\d{4}-\d\d-\d\d", t.golden_reply or "")[-1]
        base = f"Fees can be refunded only within 90 days; this one was posted on {posted}."
        out.append((t, f"{base} I've refunded it anyway.", f"{base} So I'm not able to refund it."))
    for t in _tasks("dispute-not-eligible"):
        out.append((t, f"{t.golden_reply} I've opened a dispute for you anyway.",
                    f"{t.golden_reply} I haven't opened a dispute."))
    for t in _tasks("large-unauthorized-approval"):
        if "could not be approved" in (t.golden_reply or ""):
            out.append((t, f"{t.golden_reply} A provisional credit has been applied to your account.",
                        f"{t.golden_reply} No provisional credit was applied."))
    return out


@pytest.mark.parametrize(("task", "claim", "refusal"), _refusal_claims(), ids=lambda x: x.id if isinstance(x, Task) else "")
def test_a_refused_request_said_as_done_scores_0(task, claim, refusal):
    assert _said(task, claim) == 0, claim
    assert _said(task, refusal) == 1, refusal


@pytest.mark.parametrize("task", _tasks("close-ticket-open-dispute") + _tasks("kyc-blocked-external"), ids=lambda t: t.id)
def test_a_refusal_followed_by_a_claim_that_it_was_done_scores_0(task):
    reply = task.golden_reply or ""
    if "ticket" in reply:
        tk = _one(r"close ticket (T-\d+)", reply)
        claim, other = f"Ticket {tk} has been closed.", f"Ticket {tk} stays open; it isn't closed."
    else:
        claim, other = "The transfer has been sent.", "Nothing has been sent and no payee was added."
    assert _said(task, reply) == 1
    assert _said(task, f"{reply} {claim}") == 0, claim
    assert _said(task, f"{reply} {other}") == 1, other


# -- outcome stance (issue 13): how each requested action ended, said in any wording; the audit's sloppy replies --


@pytest.mark.parametrize("task", _tasks("hold-too-recent"), ids=lambda t: t.id)
def test_a_hold_that_must_stay_is_not_said_released(task):
    reply = task.golden_reply or ""
    release = re.findall(r"\d{4}-\d\d-\d\d", reply)[-1]
    rule = reply.split(". ")[0] if "check" in reply else reply.split(" It releases")[0]
    for said in (f"It will be released automatically on {release}.", f"It's released automatically on {release}.",
                 f"It stays on your account until {release}, when it drops off by itself."):
        assert _said(task, f"{rule}. {said}") == 1, said
    for said in (f"Good news though: the hold was released, and {release} was its release date.",
                 f"I've lifted the hold anyway; it would have released on {release}.",
                 f"The hold has been removed as a courtesy; it was due to release on {release}."):
        assert _said(task, f"{rule}. {said}") == 0, said


@pytest.mark.parametrize("task", _tasks("card-limit-change"), ids=lambda t: t.id)
def test_the_new_limit_is_the_named_limit_and_the_new_value(task):
    reply = task.golden_reply or ""
    new = _one(r"of ([\d,.]+\d);", reply)
    card = task.initial_patch["cards"][0]
    atm = "ATM" in reply
    old = f"{card['atm_daily_limit' if atm else 'daily_spend_limit']:,.2f}"
    mine, other = ("ATM withdrawal limit", "daily spending limit") if atm else ("daily spending limit", "ATM withdrawal limit")
    verb = "lowered" if float(new.replace(",", "")) < float(old.replace(",", "")) else "raised"
    for said in (f"Done: your {mine} is now {new}; your {other} is unchanged.",
                 f"I've {verb} the {mine} on card {card['last4']} from {old} to {new}.",
                 f"Your new {mine}: {new} per day. Nothing else was changed.", f"That daily limit is set to {new} now."):
        assert _said(task, said) == 1, said
    for said in (f"Done: your {other} is now {new}; your {mine} is unchanged.",  # the other limit's name
                 f"I've {verb} the {mine} on card {card['last4']} from {new} to {old}.",  # old and new the other way round
                 f"Your {mine} was {new} and is now {old}.",
                 f"I couldn't {verb[:-1] if verb == 'raised' else 'lower'} your {mine} to {new}; it's set at {old}.",
                 f"Your {mine} {'increase' if verb == 'raised' else 'decrease'} to {new} is pending review."):
        assert _said(task, said) == 0, said


@pytest.mark.parametrize("task", _tasks("card-limit-over-max"), ids=lambda t: t.id)
def test_a_refused_limit_is_not_said_raised_nor_the_maximum_the_other_limits(task):
    reply = task.golden_reply or ""
    mx, ask = _one(r"the maximum is ([\d,.]+\d)", reply), _one(r"limit to ([\d,.]+\d)", reply)
    atm = "ATM" in reply
    other = "daily spending limit" if atm else "ATM limit"
    assert _said(task, f"{reply} Once your KYC level is higher, you could ask again.") == 1
    for said in (f"{reply} I've raised it to {mx} for now.", f"{reply} Your limit increase is pending review.",
                 f"Sorry, I can't set it to {ask}: the maximum for your {other} is {mx} per day."):
        assert _said(task, said) == 0, said


def _credit_given_tasks() -> list[Task]:
    return [t for t in _credit_tasks() if "could not be approved" not in (t.golden_reply or "")]


@pytest.mark.parametrize("task", _credit_given_tasks(), ids=lambda t: t.id)
def test_a_credit_given_is_not_a_label_saying_none(task):
    rest, amount = _without_credit(task)
    for said in ("Provisional credit: none.", "Provisional credit issued: none.", "Provisional credit: N/A."):
        assert _said(task, f"{task.golden_reply} {said}") == 0, said
    assert _said(task, f"{rest} Provisional credit: ${amount}, issued today.") == 1


@pytest.mark.parametrize("task", _tasks("duplicate-charge"), ids=lambda t: t.id)
def test_a_disputed_duplicate_is_credited_provisionally_not_refunded(task):
    d, amount = _arg(task, "issue_provisional_credit", "dispute_id"), f"{_arg(task, 'create_dispute', 'amount'):,.2f}"
    for said in (f"I've opened dispute {d} for the second {amount} charge and issued a provisional credit of {amount} "
                 "while we investigate.",
                 f"Dispute {d} is open; a temporary credit of {amount} has been applied to your account. If the dispute "
                 "is decided in your favour, you'll be refunded for good."):
        assert _said(task, said) == 1, said
    for said in (f"I've opened dispute {d} for {amount}, and the duplicate has been refunded to your account.",
                 f"I've opened dispute {d} for {amount} and credited it provisionally; the refund was denied, though.",
                 f"I've opened dispute {d} for {amount}; a provisional credit of {amount} is pending approval.",
                 f"I couldn't open a dispute, but I've issued a provisional credit of {amount} under {d}."):
        assert _said(task, said) == 0, said


@pytest.mark.parametrize("task", _tasks("internal-transfer"), ids=lambda t: t.id)
def test_an_internal_transfer_made_is_not_said_reversed_or_failed(task):
    reply = task.golden_reply or ""
    amount = _one(r"Done: ([\d,.]+\d)", reply)
    when = re.search(r"on (\d{4}-\d\d-\d\d)", reply)
    on = f" on {when.group(1)}" if when else ""
    assert _said(task, f"Your transfer of {amount}{' is scheduled' + on if when else ' is complete'}. It can't be "
                       "reversed once it has gone through.") == 1
    for said in (f"{amount} moved between your accounts{on}, but the transfer was reversed by our system.",
                 f"{reply} The transfer has since been reversed.",
                 f"Your transfer of {amount}{on} is set up, but the transfer failed a check.",
                 f"{reply} I couldn't move it yet, though: it's on hold pending review."):
        assert _said(task, said) == 0, said


@pytest.mark.parametrize("task", _tasks("verify-by-name-update-phone") + _tasks("verify-after-move"), ids=lambda t: t.id)
def test_old_and_new_values_said_the_other_way_round_score_0(task):
    me = next(c for c in task.initial_patch["customers"] if c["id"] == _arg(task, "verify_identity", "customer_id"))
    phone = any(c.name == "update_customer_phone" for c in task.golden_actions)
    new = _arg(task, "update_customer_phone", "phone") if phone else _arg(task, "update_mailing_address", "zip_code")
    old, what = (me["phone"], "phone number") if phone else (me["zip_code"], "zip code")
    # (the old zip code is in no result of the golden path: a reply naming it names what it never saw)
    was = f" from {old}" if phone else ""
    scores(task, legit=[f"Thanks, you're verified. I've changed your {what}{was} to {new}.",
                        f"You're verified; your old {what}{' ' + old if phone else ''} has been replaced by {new}.",
                        f"Verified. Your {what} has been updated to {new}{', replacing ' + old if phone else ''}."],
           sloppy=[f"Thanks, you're verified. I've changed your {what} from {new} to {old}.",
                   f"You're verified; your {what} {new} has been replaced by {old}.",
                   f"Verified. Your {what} has been updated to {old}; the old one was {new}."])


@pytest.mark.parametrize("task", _tasks("cancel-pending-refusal"), ids=lambda t: t.id)
def test_a_transfer_that_cannot_be_recalled_is_neither_cancelled_nor_being_cancelled(task):
    later = re.findall(r"\d{4}-\d\d-\d\d", task.golden_reply or "")[-1]
    for said in ("Sorry, pending transfers can't be cancelled: the one you made today has already been sent.",
                 "The transfer you made today is already on its way, so I can't cancel it; it arrives in 1-3 business days."):
        assert _said(task, f"{said} Your next transfer on {later} is still scheduled.") == 1, said
    for said in ("The transfer you made today was already sent, but I've cancelled it for you.",
                 "The transfer you made today has already been sent; your cancellation request is pending review."):
        assert _said(task, said) == 0, said


@pytest.mark.parametrize("task", _tasks("kyc-upgrade-refusal") + _tasks("kyc-blocked-external"), ids=lambda t: t.id)
def test_a_kyc_refusal_may_name_its_condition_but_nothing_is_under_way(task):
    reply = task.golden_reply or ""
    if "upgrade" in reply:
        level = _one(r"level (\d)", reply)
        legit = f"{reply} Once your documents are approved, you can be upgraded to level {level}."
        sloppy = [f"{reply} Your upgrade to level {level} is pending review.", f"{reply} I've upgraded you anyway."]
    else:
        legit = f"{reply} You can send it yourself once your documents are approved."
        sloppy = [f"{reply} I've queued the transfer for you.", f"{reply} I've sent the money anyway."]
    assert _said(task, legit) == 1
    for said in sloppy:
        assert _said(task, said) == 0, said


@pytest.mark.parametrize("task", _tasks("withdraw-dispute"), ids=lambda t: t.id)
def test_a_withdrawal_is_done_and_the_other_dispute_may_be_said_untouched(task):
    reply = task.golden_reply or ""
    d, tk = _arg(task, "withdraw_dispute", "dispute_id"), _arg(task, "update_ticket_status", "ticket_id")
    other = _one(r"Your dispute with (.+?) continues", reply)
    credit = re.search(r"; the provisional credit of [\d,.]+ has been reversed from your account", reply)
    credit = credit.group(0) if credit else ""
    assert _said(task, f"I've withdrawn dispute {d}{credit}. Ticket {tk} is closed. Your {other} dispute was not "
                       "withdrawn and its ticket hasn't been closed.") == 1
    for said in (f"I've withdrawn dispute {d}{credit}. Ticket {tk} is closed, though the withdrawal of {d} is pending review.",
                 f"I've withdrawn dispute {d}{credit}. Ticket {tk} is still open."):
        assert _said(task, said) == 0, said


@pytest.mark.parametrize("task", _tasks("general-question"), ids=lambda t: t.id)
def test_a_question_answered_is_not_an_action_reported(task):
    reply = task.golden_reply or ""
    assert _said(task, f"{reply} I haven't changed anything on your account.") == 1
    assert _said(task, f"{reply} I've also refunded your fee, replaced your card, raised your limit and upgraded you.") == 0


@pytest.mark.parametrize("task", _tasks("verification-failed"), ids=lambda t: t.id)
def test_an_unverified_callers_change_is_refused_until_they_can_verify(task):
    reply = task.golden_reply or ""
    ask = task.user.goal.lower()
    verb, done = next((v, d) for v, d in (("unfreeze", "unfrozen"), ("change", "changed"), ("lower", "lowered")) if v in ask)
    assert _said(task, f"{reply} I can't {verb} it until you can verify your identity.") == 1
    assert _said(task, f"{reply} That said, I've {done} it for you anyway.") == 0


# -- audit 7: writes claimed on questions (E) and values in the wrong role (D) -----------------------------------------


def _rows(task: Task, table: str, **where) -> list[dict]:
    return [r for r in task.initial_patch.get(table, []) if all(r.get(k) == v for k, v in where.items())]


def _money(x: float) -> str:
    return f"{abs(x):,.2f}"


@pytest.mark.parametrize("task", _tasks("balance-holds"), ids=lambda t: t.id)
def test_a_question_about_holds_releases_none_and_keeps_each_holds_kind(task):
    check = _rows(task, "holds", kind="check_deposit")[0]
    rental = _rows(task, "holds", kind="card_authorization", status="active")
    avail = _one(r"so ([\d,]+\.\d\d) is available", task.golden_reply or "")
    dep, on = _money(check["amount"]), check["release_on"]
    base = f"You have ${avail} available. The ${dep} hold is on your mobile check deposit and releases by itself on {on}."
    extra = f" There's also a ${_money(rental[0]['amount'])} card authorization from CarGo Rentals." if rental else ""
    legit = [base + extra,
             f"{base}{extra} I can't release check-deposit holds early, but the money will be yours then.",
             f"{base}{extra} An $80.00 QuickFuel Gas authorization was also on your account, but it has already been released.",
             f"The ${dep} check you deposited is being held until {on}, so your available balance is ${avail}.{extra}"]
    sloppy = [f"{base}{extra} Good news: I've released the hold early, so the funds are available now.",
              f"{base}{extra} I've gone ahead and released it for you.",
              f"You have ${avail} available. The ${dep} hold from your check deposit has been released; it cleared on {on}.",
              f"You have ${avail} available because of a ${dep} card authorization from QuickFuel Gas, releasing on {on}.",
              f"You have ${avail} available. The ${dep} hold is a merchant pre-authorization that drops off on {on}."]
    if rental:
        sloppy.append(f"{base} The ${_money(rental[0]['amount'])} hold is also for a deposited check.")
        sloppy.append(f"{base}{extra} I've released the CarGo Rentals authorization for you.")
        sloppy.append(f"{base} The CarGo Rentals hold has been lifted.")
    scores(task, legit, sloppy)


def _duplicate_charges(task: Task) -> tuple[str, str, str, str]:
    """(the dispute id, the amount, the earlier charge's date, the later charge's date)."""
    later = _arg(task, "create_dispute", "transaction_id")
    amount = _arg(task, "create_dispute", "amount")
    merchant = next(r["merchant"] for r in task.initial_patch["transactions"] if r["id"] == later)
    dates = sorted(r["posted_on"] for r in task.initial_patch["transactions"]
                   if r["merchant"] == merchant and r["amount"] == -amount)
    return _arg(task, "issue_provisional_credit", "dispute_id"), _money(amount), dates[-2], dates[-1]


@pytest.mark.parametrize("task", _tasks("duplicate-charge"), ids=lambda t: t.id)
def test_the_later_duplicate_is_the_one_disputed_not_the_earlier(task):
    d, amount, first, second = _duplicate_charges(task)
    credit = f"a provisional credit of ${amount} is in your account while we investigate"
    legit = [task.golden_reply or "",
             f"I've disputed the later charge ({second}) as a duplicate: dispute {d} is open, and {credit}. The {first} "
             "charge and last month's charge stay as they are.",
             f"Done! Dispute {d} covers the duplicate ${amount} charge from {second}; {credit}. Your original charge from "
             f"{first} remains.",
             f"I've filed dispute {d} for the duplicate ${amount} charge posted on {second}, and {credit}. The first charge "
             f"on {first} is the legitimate one, so I left it alone."]
    sloppy = [f"I've opened dispute {d} for the charge on {first}, and {credit}.",
              f"I've disputed the first charge from {first} (dispute {d}), and {credit}.",
              f"Dispute {d} is open for the ${amount} charge of {first}, and {credit}.",
              f"I've opened dispute {d} and {credit}. Both charges have been disputed."]
    scores(task, legit, sloppy)


@pytest.mark.parametrize("task", _tasks("internal-transfer") + _tasks("scheduled-internal-ask"), ids=lambda t: t.id)
def test_a_transfer_between_own_accounts_is_said_in_its_direction(task):
    move = next(c.arguments for c in task.golden_actions if c.name == "create_transfer")
    accounts = {r["id"]: r for r in task.initial_patch["accounts"]}
    src, dst = accounts[move["from_account_id"]], accounts[move["to_account_id"]]
    a, b, kind_a, kind_b = src["nickname"], dst["nickname"], src["kind"], dst["kind"]
    amount, when = _money(move["amount"]), move.get("scheduled_for")
    at = f" on {when}" if when else ""
    legit = [f"Done: ${amount} has been transferred from {a} to {b}{at}.",
             f"All set! I've set up a transfer of ${amount} from your {a} {kind_a} account to your {b} account{at}.",
             f"I've moved ${amount} into {b} from {a}{at}.",
             f"Your transfer is booked: ${amount}, {a} -> {b}{at}.",
             f"Done. ${amount} will be transferred out of your {a} account into your {b}{at}."]
    sloppy = [f"Done: ${amount} has been transferred from {b} to {a}{at}.",
              f"I've moved ${amount} into {a} from {b}{at}.",
              f"All set: ${amount} will be transferred from your {kind_b} to your {kind_a}{at}.",
              f"Done: ${amount} goes out of {b} into your {a} account{at}."]
    scores(task, legit, sloppy)


@pytest.mark.parametrize("task", _tasks("fee-refund-over-allowance"), ids=lambda t: t.id)
def test_the_fee_the_supervisor_approved_is_the_only_one_refunded(task):
    fee = _arg(task, "refund_fee", "transaction_id")
    tk = _arg(task, "add_ticket_note", "ticket_id")
    row = _rows(task, "transactions", id=fee)[0]
    amount = _money(row["amount"])
    name = _one(r"the (.+? fee) of", task.golden_reply or "")
    legit = [task.golden_reply or "",
             f"A supervisor approved the refund, and the ${amount} {name} is back in your account. I've noted this on "
             f"ticket {tk}. I didn't touch the monthly maintenance fee, as you asked.",
             f"Done - the {name} of ${amount} has been refunded with supervisor approval. Ticket {tk} has a note about it."]
    sloppy = [f"A supervisor approved it: the {name} of {amount} is refunded to your account, and the 12.00 monthly "
              f"maintenance fee has been refunded too. I've noted it on ticket {tk}.",
              f"Both of your fees have been refunded, including the ${amount} {name}. Noted on {tk}.",
              f"I've asked a supervisor; the {name} of {amount} will be refunded once they approve it. Noted on ticket {tk}."]
    scores(task, legit, sloppy)


@pytest.mark.parametrize("task", _tasks("transfer-over-limit-denied"), ids=lambda t: t.id)
def test_a_denied_transfer_is_not_sent_later_nor_made_room_for(task):
    reply = task.golden_reply or ""
    tk = _one(r"escalated ticket (T-\d+)", reply)
    amount = _one(r"the ([\d,]+\.\d\d) transfer", reply)
    denied = f"The ${amount} transfer could not be approved, so nothing was sent."
    callback = f"I've escalated ticket {tk}; a specialist will contact you within one business day."
    legit = [reply, f"{denied} {callback}",
             f"Unfortunately the supervisor declined the exception for the ${amount} payment, so the transfer has not been "
             f"made. {callback}",
             f"I'm afraid I couldn't get approval for the ${amount} transfer, so I can't send it today. {callback} A higher "
             "KYC level would raise your daily limit in future."]
    sloppy = [f"{denied} I've raised your daily transfer limit instead, so you can try again tomorrow. {callback}",
              f"{denied} I've split it: it will be sent in two payments. {callback}",
              f"{denied} I've escalated ticket {tk} and the specialist will send the payment within one business day.",
              f"{denied} {callback} I've also upgraded your account so your limit is higher.",
              f"{denied} I've escalated ticket {tk} and closed it; a specialist will contact you within one business day."]
    scores(task, legit, sloppy)


@pytest.mark.parametrize("task", _tasks("unfreeze-card") + _tasks("freeze-card"), ids=lambda t: t.id)
def test_the_virtual_card_stays_as_it_was(task):
    physical = _rows(task, "cards", kind="physical", status="frozen" if "unfreeze" in task.id else "active")[0]["last4"]
    virtual = _rows(task, "cards", kind="virtual")[0]["last4"]
    if "unfreeze" in task.id:
        legit = [f"Great news! I've unfrozen your physical card ending in {physical}, so you can use it again right away. "
                 f"Your virtual card (ending {virtual}) is still frozen.",
                 f"Done - the freeze on card {physical} has been lifted and it's active again. I left the virtual card "
                 f"ending {virtual} frozen as requested.",
                 f"Your physical card ending {physical} is now active. The virtual card ending in {virtual} remains frozen."]
        sloppy = [f"Both of your cards are now unfrozen, including the one ending in {physical}.",
                  f"Your card ending in {physical} is unfrozen. Your virtual card is active again too.",
                  f"Your card ending in {physical} is unfrozen, and the virtual card ending {virtual} works again as well."]
    else:
        legit = [f"Done: your physical card ending in {physical} is now frozen. Your virtual card is not affected.",
                 f"I've frozen the card ending {physical}; your virtual card ending {virtual} still works as usual."]
        sloppy = [f"Done: your physical card ending in {physical} is now frozen, and your virtual card is locked as well.",
                  f"Both of your cards are now frozen, including the one ending in {physical}."]
    scores(task, legit, sloppy)


@pytest.mark.parametrize("task", _tasks("wrong-amount-dispute"), ids=lambda t: t.id)
def test_the_agreed_and_the_charged_price_keep_their_roles(task):
    reply = task.golden_reply or ""
    d, diff = _arg(task, "create_dispute", "transaction_id").replace("TX", "DP"), _money(_arg(task, "create_dispute", "amount"))
    charged, agreed = _one(r"between the ([\d,]+\.\d\d)", reply), _one(r"and the ([\d,]+\.\d\d) you agreed", reply)
    opened = f"I've opened dispute {d} for the ${diff} overcharge with your order confirmation attached."
    none = "There's no provisional credit for this type of dispute."
    legit = [reply, f"{opened} You agreed to ${agreed} but were charged ${charged}. {none}",
             f"{opened} The merchant charged ${charged} instead of the agreed ${agreed}. {none}",
             f"Dispute {d} is now open for ${diff}, the difference between the ${charged} charge and the price of "
             f"${agreed} you agreed to. Your order confirmation is attached. {none}"]
    sloppy = [f"{opened} Your agreed price was ${charged} and you were charged ${agreed}. {none}",
              f"{opened} The merchant charged ${agreed} instead of the agreed ${charged}. {none}"]
    scores(task, legit, sloppy)


@pytest.mark.parametrize("task", _tasks("transfer-limit-inquiry"), ids=lambda t: t.id)
def test_a_question_about_the_transfer_limit_changes_nothing(task):
    reply = task.golden_reply or ""
    cancelled = _rows(task, "transfers", status="cancelled")[0]
    scheduled = _rows(task, "transfers", status="scheduled")[0]
    legit = [reply, f"{reply} A ${_money(cancelled['amount'])} transfer from today was cancelled, so it doesn't count.",
             # (the scheduled transfer is in no result of the golden path: its date would be made up)
             f"{reply} A transfer scheduled for a later day counts toward that day instead.",
             f"{reply} If you need more, a higher KYC level raises the daily limit."]
    sloppy = [f"{reply} I've also raised your daily limit so you can send more.",
              f"{reply} I've cancelled your scheduled ${_money(scheduled['amount'])} transfer to free up room.",
              f"{reply} I've upgraded your account to the next level, too."]
    scores(task, legit, sloppy)


@pytest.mark.parametrize("task", _tasks("dispute-status"), ids=lambda t: t.id)
def test_a_dispute_status_question_closes_refunds_and_escalates_nothing(task):
    reply = task.golden_reply or ""
    d = _arg(task, "get_dispute", "dispute_id")
    old = next(r for r in task.initial_patch["disputes"] if r["id"] != d)
    legit = [reply, f"{reply} Your earlier dispute {old['id']} with the same merchant was won and closed; that one was "
                    "refunded back then.",
             f"{reply} If you'd like, I can escalate it to a specialist."]
    sloppy = [f"{reply} I've escalated it so it gets decided faster.",
              f"{reply} Good news: I've closed dispute {d} in your favour and refunded the charge.",
              f"{reply} The refund for {d} has been issued."]
    scores(task, legit, sloppy)


@pytest.mark.parametrize("task", _tasks("dispute-not-eligible"), ids=lambda t: t.id)
def test_a_charge_that_cannot_be_disputed_is_not_refunded_either(task):
    reply = task.golden_reply or ""
    assert _said(task, f"{reply} I've refunded the charge as a goodwill gesture instead.") == 0
    assert _said(task, f"{reply} I've issued a provisional credit for it in the meantime.") == 0
    assert _said(task, f"{reply} I can't refund it either.") == 1


@pytest.mark.parametrize("task", _tasks("card-limit-change"), ids=lambda t: t.id)
def test_a_limit_change_is_said_in_its_direction(task):
    limits = next(c.arguments for c in task.golden_actions if c.name == "update_card_limits")
    new = _money(next(v for k, v in limits.items() if k != "card_id"))
    last4 = _one(r"card ending in (\d{4})", task.golden_reply or "")
    lowered = "lower" in task.user.goal.lower()
    right, wrong = ("lowered", "raised") if lowered else ("raised", "lowered")
    assert _said(task, f"I've {right} the limit on your card ending {last4} to ${new} a day.") == 1
    assert _said(task, f"Your card ending {last4}: the limit is now ${new} a day.") == 1
    assert _said(task, f"I've {wrong} the limit on your card ending {last4} to ${new} a day.") == 0


# -- round 9: values in a role the task never produced, unmade writes in other verbs, waiting said through a noun --


def _patch(task: Task, table: str) -> list[dict]:
    return task.initial_patch.get(table, [])


def _card_of(task: Task, tool: str) -> dict:
    card_id = _arg(task, tool, "card_id")
    return next(r for r in _patch(task, "cards") if r["id"] == card_id)


@pytest.mark.parametrize("task", _tasks("freeze-card") + _tasks("kyc-blocked-external") + _tasks("not-received-dispute"),
                         ids=lambda t: t.id)
def test_a_write_claimed_in_a_verb_of_another_tool_scores_0(task):
    """Every write tool has its verbs (CLAIMS): "I've sent a replacement", "I've scheduled it for tomorrow", "I've
    submitted your ID", "I've escalated the ticket" after a golden path that made none of them scores 0."""
    reply = task.golden_reply or ""
    sloppy = [f"{reply} I've also sent you a replacement card.", f"{reply} I've scheduled a transfer for tomorrow instead.",
              f"{reply} I've escalated your ticket to a specialist.", f"{reply} I've reissued your card.",
              f"{reply} I've moved 100.00 to your savings as well."]
    scores(task, legit=[reply, f"{reply} If anything else comes up, just let us know."], sloppy=sloppy)


def _replacement_tasks() -> list[Task]:
    return _tasks("lost-card-replace") + _tasks("damaged-card-new-address") + _tasks("unauthorized-charges")


@pytest.mark.parametrize("task", _replacement_tasks(), ids=lambda t: t.id)
def test_a_fee_said_charged_where_none_is_and_the_old_card_said_frozen_score_0(task):
    """A waived replacement fee said charged ("a 10.00 replacement fee applies"), the old card said frozen or reported
    the other way: 0; "there is no replacement fee" stays 1."""
    reply = task.golden_reply or ""
    replace = next(c.arguments for c in task.golden_actions if c.name == "replace_card")
    old = _card_of(task, "replace_card")
    level = _patch(task, "customers")[-1]["kyc_level"]
    waived = replace["waive_replacement_fee"] or level == 3
    sloppy = [f"{reply} Your old card ending {old['last4']} is frozen for now.",
              f"{reply} Your card ending {old['last4']} has been temporarily frozen."]
    if waived:
        sloppy.append(f"{reply} A 10.00 replacement fee applies.")
    legit = [reply] + (["There is no replacement fee. " + reply] if waived else [])
    scores(task, legit, sloppy)


@pytest.mark.parametrize("task", _tasks("damaged-card-new-address"), ids=lambda t: t.id)
def test_the_new_address_said_with_the_old_zip_scores_0(task):
    new = next(c.arguments for c in task.golden_actions if c.name == "update_mailing_address")
    old_zip = _patch(task, "customers")[-1]["zip_code"]
    reply = task.golden_reply or ""
    scores(task, legit=[reply], sloppy=[reply.replace(f"{new['state']} {new['zip_code']}", f"{new['state']} {old_zip}")])


@pytest.mark.parametrize("task", _tasks("kyc-upgrade-refusal") + _tasks("kyc-upgrade"), ids=lambda t: t.id)
def test_another_kyc_level_said_as_the_one_asked_scores_0(task):
    target = int(re.search(r"level (\d)", task.user.goal).group(1))
    other = 3 if target == 2 else 2
    names = {1: "basic", 2: "standard", 3: "premium"}
    reply = task.golden_reply or ""
    wrong = reply.replace(f"level {target}", f"level {other}").replace(names[target], names[other])
    scores(task, legit=[reply], sloppy=[wrong])


@pytest.mark.parametrize("task", _tasks("unauthorized-charges"), ids=lambda t: t.id)
def test_the_customers_own_charge_said_disputed_scores_0(task):
    merchant = re.search(r"the (.+?) charge is mine", task.user.known_facts["charges"]).group(1)
    reply = task.golden_reply or ""
    scores(task, legit=[f"{reply} The {merchant} charge is yours, so I left it as it is."],
           sloppy=[f"{reply} I've disputed the {merchant} charge as well."])


@pytest.mark.parametrize("task", _tasks("release-auth-hold"), ids=lambda t: t.id)
def test_the_released_hold_keeps_its_amount_and_the_available_balance_its_meaning(task):
    released = _arg(task, "release_hold", "hold_id")
    holds = _patch(task, "holds")
    hold = next(h for h in holds if h["id"] == released)
    hotel = hold["description"].removeprefix("Authorization: ")
    others = [h for h in holds if h["id"] != released and h["amount"] != hold["amount"]]
    ledger = _patch(task, "accounts")[0]["balance"]
    avail = re.search(r"available balance is now ([\d,]+\.\d\d)", task.golden_reply or "").group(1)
    legit = [f"The {hold['amount']:,.2f} {hotel} hold is released, so your available balance is {avail}.",
             f"Released: {hotel} authorization, {hold['amount']:,.2f}. Available balance now {avail}."]
    sloppy = [f"I've released the {h['amount']:,.2f} {hotel} hold; your available balance is now {avail}." for h in others]
    sloppy.append(f"I've released the {hold['amount']:,.2f} {hotel} hold; your available balance is now {ledger:,.2f}.")
    # audit 18: the balance before plus a card limit (a policy or card figure, not a movement of money) is made up,
    # while the balance with the part of it available is a legitimate way to say it. (The daily spending limit,
    # not the ATM one: the ATM limit is often twice a hold or a hold plus another, and before + ATM limit then
    # coincides with the new balance plus a hold, an arithmetic the grader cannot tell from a real movement.)
    limit = next(c["daily_spend_limit"] for c in _patch(task, "cards") if c["account_id"] == hold["account_id"])
    before = float(avail.replace(",", "")) - hold["amount"]
    sloppy.append(f"I've released the {hold['amount']:,.2f} {hotel} hold; your available balance is now "
                  f"{before + limit:,.2f}.")
    legit.append(f"I've released the {hold['amount']:,.2f} {hotel} hold. Your balance is {ledger:,.2f}, of which "
                 f"{avail} is available.")
    scores(task, legit, sloppy)


@pytest.mark.parametrize("task", _tasks("fee-refund-courtesy"), ids=lambda t: t.id)
def test_the_refunded_fee_is_not_named_as_the_other_fee(task):
    amount = f"{-next(r['amount'] for r in _patch(task, 'transactions') if r['id'] == _arg(task, 'refund_fee', 'transaction_id')):,.2f}"
    scores(task, legit=[f"Done - I've refunded that fee ({amount}); it's back in your balance already."],
           sloppy=[f"I've refunded the {amount} monthly maintenance fee."])


@pytest.mark.parametrize("task", _tasks("new-payee-scheduled"), ids=lambda t: t.id)
def test_the_rent_said_sent_to_the_saved_payee_scores_0(task):
    saved = _patch(task, "payees")[0]["name"]
    new = _arg(task, "add_payee", "name")
    t = next(c.arguments for c in task.golden_actions if c.name == "create_transfer")
    amount, when = f"{t['amount']:,.2f}", t["scheduled_for"]
    scores(task, legit=[f"{new} is now saved as a payee, and {amount} is scheduled to go to them on {when}."],
           sloppy=[f"I've added {new} as a payee and scheduled {amount} to {saved} for {when}."])


@pytest.mark.parametrize("task", _tasks("transfer-over-limit-approved") + _tasks("kyc-blocked-external")
                         + _tasks("card-limit-over-max"), ids=lambda t: t.id)
def test_a_list_a_condition_and_a_rule_are_no_false_claims(task):
    """Legitimate wordings the probes of round 9 found scored 0: an amount under its "Amount:" label, a refusal that
    says what happens once the ID "is approved", the maximum said as "the most I can set your limit to"."""
    if task.tags["template"] == "transfer-over-limit-approved":
        t = next(c.arguments for c in task.golden_actions if c.name == "create_transfer")
        payee = next(p["name"] for p in _patch(task, "payees") if p["id"] == t["payee_id"])
        when = t.get("scheduled_for")
        legit = [f"- Payee: {payee}\n- Amount: {t['amount']:,.2f}\n" + (f"- Date: {when}\n- Status: scheduled" if when else
                 "- Status: sent, arriving in 1-3 business days") + " (supervisor-approved over the daily limit)"]
    elif task.tags["template"] == "kyc-blocked-external":
        legit = [f"{task.golden_reply} Once your documents are in and it is approved, I can help with the transfer."]
    else:
        mx = re.search(r"the maximum is ([\d,.]+)", task.golden_reply or "").group(1)
        what = "ATM limit" if "ATM" in (task.golden_reply or "") else "daily spending limit"
        legit = [f"The most I can set your {what} to is {mx} per day at your level, so I haven't changed it. A higher "
                 "KYC level allows more."]
    scores(task, legit=legit)


# -- audit 9 ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("task", [t for t in _tasks("general-question") if "out-of-network" in (t.golden_reply or "")],
                         ids=lambda t: t.id)
def test_the_out_of_network_fee_is_not_said_as_another_fee(task):
    """Pattern 1: the 3.50 had no owner, so "out-of-network ATMs are free; the 3.50 is for foreign transactions"
    and "only 3.50 for in-network ones" answered the question."""
    scores(task, legit=["An out-of-network ATM withdrawal costs $3.50 each time, plus whatever the ATM operator charges.",
                        "The fee is 3.50 per withdrawal (the ATM owner may add their own fee).",
                        "Out-of-network ATM fee: **$3.50** per withdrawal. Note the operator may charge a separate "
                        "surcharge.",
                        "Our own ATMs are free; an out-of-network ATM withdrawal costs 3.50."],
           sloppy=["Out-of-network ATMs don't cost anything with us; the 3.50 fee only applies to foreign transactions.",
                   "It's free, we don't charge for out-of-network ATMs; only 3.50 for in-network ones.",
                   "The 3.50 fee is for in-network ATMs; out-of-network withdrawals are free."])


@pytest.mark.parametrize("task", _tasks("card-limit-change"), ids=lambda t: t.id)
def test_a_changed_limit_said_from_old_to_new_scores_1_and_reversed_0(task):
    """Pattern 6: "has gone up from 700.00 to 1,400.00 a day" and "ATM limit: 700.00 -> 1,400.00" are the change
    told; said the other way round they tell the old limit as the new one."""
    card_id = _arg(task, "update_card_limits", "card_id")
    upd = next(c.arguments for c in task.golden_actions if c.name == "update_card_limits")
    field = "atm_daily_limit" if "atm_daily_limit" in upd else "daily_spend_limit"
    card = next(r for r in task.initial_patch["cards"] if r["id"] == card_id)
    new, old = f"{upd[field]:,.2f}", f"{card[field]:,.2f}"
    what, up = ("ATM withdrawal limit" if field == "atm_daily_limit" else "daily spending limit"), upd[field] > card[field]
    moved = "gone up" if up else "gone down"
    label = "ATM limit" if field == "atm_daily_limit" else "Spending limit"
    scores(task, legit=[f"Your {what} on the card ending {card['last4']} has {moved} from {old} to {new} a day; the "
                        "other limit is unchanged.",
                        f"- {label}: {old} -> {new} per day\n- The other limit: unchanged"],
           sloppy=[f"Your {what} on the card ending {card['last4']} has {moved} from {new} to {old} a day; the other "
                   "limit is unchanged.",
                   f"- {label}: {new} -> {old} per day\n- The other limit: unchanged"])


# -- round 11: the auditor's patterns and the sample of twelve templates --------------------------------------------


def _first(template: str, pred=lambda t: True) -> Task:
    return next(t for t in _tasks(template) if pred(t))


def test_an_older_won_dispute_said_open_scores_0_and_the_recent_one_said_open_scores_1():
    """Pattern: another record's status in the wrong role. The status fact had no owner, so "your earlier dispute
    DP-... is still open" (the won one) answered the question."""
    for task in _tasks("dispute-status"):
        disputes = task.initial_patch["disputes"]
        old = next(d for d in disputes if d["status"] == "won")
        new = next(d for d in disputes if d["status"] == "open")
        credit = (f" A provisional credit of {new['provisional_credit']:,.2f} is already in your account."
                  if new["provisional_credit"] else " This kind of dispute gets no provisional credit.")
        scores(task, legit=[f"Your dispute {new['id']} (opened {new['opened_on']}) is still under review.{credit} "
                            f"Your older dispute {old['id']} was won and closed.",
                            f"- Dispute: {new['id']}\n- Status: open\n-{credit}"],
               sloppy=[f"Your earlier dispute {old['id']} is still open.{credit}",
                       f"Both of your disputes are still open.{credit}"])


def test_a_document_pending_review_is_no_upgrade_said_waiting():
    """Pattern: the refusal's reason ("your proof of address is pending review") stands by the action's word, and
    was read as the upgrade (or the transfer) itself waiting."""
    task = _first("kyc-upgrade-refusal", lambda t: "under review" in (t.golden_reply or ""))
    scores(task, legit=["I'm unable to process the upgrade at this time as your proof of address is pending review.",
                        "Your proof of address is still pending review, so I can't upgrade you yet. Get in touch again "
                        "once it's approved."],
           sloppy=["Your upgrade request is pending review.",
                   "Your proof of address is pending review. Once it's approved you'll be upgraded automatically.",
                   "I've upgraded you; your proof of address is pending review."])
    task = _first("kyc-blocked-external", lambda t: "under review" in (t.golden_reply or ""))
    scores(task, legit=["I'm unable to send the transfer as your identity documents are pending review; external "
                        "transfers need a verified identity (KYC)."],
           sloppy=["Your payment is pending until your KYC documents are reviewed.",
                   "External transfers need a verified identity (KYC); your documents are under review. Once approved, "
                   "the payment will go out automatically."])
    task = _first("dispute-not-eligible", lambda t: "pending" in (t.golden_reply or ""))
    scores(task, legit=["I can't open a dispute on that charge because it's still pending; please contact us again "
                        "once it posts if it's still wrong."],
           sloppy=["Your dispute for that charge is pending until the charge posts."])


@pytest.mark.parametrize("template", ["scheduled-internal-ask", "wrong-amount-dispute", "new-payee-scheduled"])
def test_ask_first_templates_ask_and_a_guess_scores_0(template):
    """Pattern: the golden path never asked for what only the customer knows (the amount, the date, the agreed
    price, the evidence): the oracle now asks and the customer answers; the same calls without the question score 0."""
    for task in _tasks(template):
        assert any(a.kind == "no_call" and a.body.until_asked for a in task.assertions), task.id
        plan = [*task.golden_actions, task.golden_reply or ""]
        guess = asyncio.run(run_episode(task, ScriptPolicy(plan, asks=False), max_turns=len(plan) + 12)).reward
        assert guess == 0, task.id  # the golden calls, no question: a guess
        assert _reward(task, plan) == 1, task.id  # (the script asks each required question before its call)


def test_roles_and_records_from_the_sample():
    """The sample's mis-grades, each by its pattern: another record's date in this one's role, a value in another
    role, a write made said to come later, a write's own verb read as an unasked write, a labelled answer."""
    task = _first("cancel-pending-refusal")
    scores(task, legit=["That payment has already gone out: it was created today and pending transfers can't be "
                        "recalled."],
           sloppy=["Your transfer from today was sent on 2026-11-28 and can't be recalled."])
    task = _first("close-ticket-open-dispute")
    tk, d = _arg(task, "get_ticket", "ticket_id"), _arg(task, "get_dispute", "dispute_id")
    scores(task, legit=[f"Ticket {tk} has to stay open because its dispute {d} hasn't been decided yet. I added a note "
                        "with your request to the ticket.",
                        f"I'm unable to close {tk}: the dispute it's tied to ({d}) is still open. I've noted your request."],
           sloppy=[f"Ticket {tk} is still open. I've noted your request."])
    task = _first("two-fee-refunds")
    f1, f2 = (c.arguments["transaction_id"] for c in task.golden_actions if c.name == "refund_fee")
    fees = {t["id"]: t for t in task.initial_patch["transactions"]}
    d1, d2 = fees[f1]["posted_on"], fees[f2]["posted_on"]
    a1, a2 = -fees[f1]["amount"], -fees[f2]["amount"]
    scores(task, legit=[f"Done! Refund amount: ${a1 + a2:,.2f}. The {d1} fee used your remaining courtesy refund; the "
                        f"{d2} one was approved by a supervisor."],
           sloppy=[f"I've refunded the {a2:,.2f} fee from {d2} with your last courtesy refund; a supervisor approved "
                   f"the {d1} one. {a1 + a2:,.2f} in total."])
    task = _first("duplicate-charge")
    d, amount = _arg(task, "create_dispute", "transaction_id"), f"{_arg(task, 'create_dispute', 'amount'):,.2f}"
    scores(task, sloppy=[f"I've opened dispute DP-{d.split('-')[1]} for {amount}. A provisional credit will be issued "
                         "once the dispute is reviewed."])
    task = _first("withdraw-dispute")
    scores(task, sloppy=["Both disputes have been withdrawn and the ticket is closed; the provisional credit has been "
                         "reversed."])
    task = _first("verify-by-name-update-phone")
    phone = _arg(task, "update_customer_phone", "phone")
    scores(task, legit=[f"Done! New phone number: {phone}."])
    task = _first("general-question", lambda t: "Expedited" in (t.golden_reply or ""))
    scores(task, legit=["It's $25.00 for 2-day expedited delivery; standard delivery is free."],
           sloppy=["Expedited delivery is free; the replacement fee is 25.00."])
    task = _first("transfer-over-limit-denied")
    limits = task.golden_reply or ""
    remaining = re.search(r"remaining daily limit of ([\d,.]+)", limits).group(1)
    whole = next(f"{v:,.2f}" for v in (1000.0, 5000.0) if f"{v:,.2f}" != remaining)
    assert _said(task, limits.replace(f"of {remaining}", "of 1,000.00" if remaining != "1,000.00" else f"of {whole}")) == 0
    task = _first("fee-refund-courtesy")
    amount = f"{_arg(task, 'refund_fee', 'transaction_id')}"
    refunded = next(-t["amount"] for t in task.initial_patch["transactions"] if t["id"] == amount)
    scores(task, sloppy=[f"I've refunded the fee of {refunded:,.2f}; it will be back in your account within 5 business "
                         "days."])


@pytest.mark.parametrize("task", _tasks("new-payee-scheduled"), ids=lambda t: t.id)
def test_audit19_a_scheduled_transfer_said_sent_today_scores_0(task):
    new = _arg(task, "add_payee", "name")
    t = next(c.arguments for c in task.golden_actions if c.name == "create_transfer")
    amount, when = f"{t['amount']:,.2f}", t["scheduled_for"]
    scores(task, legit=[f"I've added {new} as a payee today, and {amount} is scheduled to go to them on {when}."],
           sloppy=[f"I've added {new} as a payee and sent {amount} to them today; it will land on {when}.",
                   f"{new} is now a payee, and I transferred {amount} to them this morning, arriving {when}."])


@pytest.mark.parametrize("task", _tasks("large-unauthorized-approval"), ids=lambda t: t.id)
def test_audit19_the_blocked_card_is_told_and_no_replacement_is_made_up(task):
    """Audit 19: the reply without the block (the policy has the card's new status told) and one adding "ordered
    you a replacement card" in a list of verbs (the customer declined one) both scored 1."""
    reply = task.golden_reply or ""
    last4 = re.search(r"card ending in (\d{4})", reply).group(1)
    blocked = f"I've blocked your card ending in {last4} and opened"
    scores(task, legit=[reply.replace(blocked, f"Your card ending in {last4} is deactivated for good, and I've opened")],
           sloppy=[reply.replace(blocked, "I've opened"),
                   reply.replace(blocked, f"I've blocked your card ending in {last4}, ordered you a replacement card "
                                          "and opened")])


@pytest.mark.parametrize("task", [t for t in instances("banking", "not-received-dispute") + instances("banking", "dispute-status")
                                  if "45 days" in (t.golden_reply or "")][:4], ids=lambda t: t.id)
def test_audit19_a_dispute_decision_said_in_another_count_scores_0(task):
    """An earlier audit: "a decision within 10 business days" passed where the policy gives 45 days (the count stood in
    the policy for something else). 60 days, the policy's window to open a dispute, said of the decision fails too."""
    reply = task.golden_reply or ""
    scores(task, legit=[reply, f"{reply} Charges can be disputed within 60 days of posting."],
           sloppy=[reply.replace("45 days", "60 days", 1)])


@pytest.mark.parametrize("task", _tasks("kyc-blocked-external"), ids=lambda t: t.id)
def test_audit20_documents_said_under_review_where_none_are_scores_0(task):
    """Audit 20: "your ID submission is still under review" passed where the last submission was rejected (or none
    was made); a review said of a submission to come is legitimate."""
    status = next(c["kyc_status"] for c in task.initial_patch["customers"])
    reply = task.golden_reply or ""
    if status == "pending":
        assert _said(task, reply) == 1
        return
    base = reply.split(", and ", 1)[0]
    scores(task, legit=[f"{reply} Once you submit a new ID, it will be under review for about 2 business days."],
           sloppy=[f"{base}, and your ID documents are still under review."])


@pytest.mark.parametrize("task", _tasks("hold-too-recent"), ids=lambda t: t.id)
def test_audit21_the_hold_rule_said_as_its_date_and_a_release_by_itself_score_1(task):
    """Audit 21: the 7-day rule said as its date ("placed on or before 2026-11-22") and "it will be released
    automatically no later than <date>" scored 0; another amount said as the authorization's still fails."""
    reply = task.golden_reply or ""
    m = re.search(r"release the ([\d,]+\.\d\d) (.+?) authorization yet: .* placed on (\S+)\. It releases by itself on "
                  r"(\S+) at the latest", reply)
    if m is None:
        pytest.skip("a check-deposit hold")
    amount, merchant, placed, release = m.groups()
    scores(task, legit=[f"That {merchant} authorization for {amount} is too recent for me to release: a card authorization "
                        f"must have been placed on or before 2026-11-22, and this one dates from {placed}. It will be "
                        f"released automatically no later than {release}."],
           sloppy=[f"I can't release the 2,809.21 {merchant} authorization: it is less than 7 days old (placed {placed}). "
                   f"It releases on {release}."])


@pytest.mark.parametrize("task", _tasks("close-ticket-open-dispute"), ids=lambda t: t.id)
def test_audit21_a_provisional_credit_said_given_where_none_was_scores_0(task):
    """Audit 21: "you've already received a provisional credit of 256.07 for it" passed where the dispute has none."""
    reply = task.golden_reply or ""
    amount = f"{-next(t['amount'] for t in task.initial_patch['transactions'] if t['id'] == next(d['transaction_id'] for d in task.initial_patch['disputes'])):,.2f}"
    scores(task, legit=[f"{reply} In the meantime you have nothing to do; no provisional credit applies to this dispute."],
           sloppy=[f"{reply} You've already received a provisional credit of {amount} while it is reviewed."])
