"""The banking tasks grade what the agent says, not which status word it happens to use: a reply
that states the opposite ("no provisional credit", "the hold will be released", "you're
verified") scores 0 although it contains the word, a competent wording scores 1; the records
of a namesake or of a caller who failed verification are not read at all, and a caller's own
records only once they are verified."""

from __future__ import annotations

import re

import pytest

import tb_env
from tb_env.domain.task import Task, ToolCall

from .task_probes import golden_arg as _arg
from .task_probes import instances
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
    total = re.search(r"Fees charged: ([\d,.]+)", reply)
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
