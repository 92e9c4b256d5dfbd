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


def _tasks(template: str) -> list[Task]:
    return [t for t in tb_env.list_tasks("banking") if t.tags.get("template") == template]


def _reward(task: Task, plan: list[ToolCall | str]) -> float | None:
    return asyncio.run(run_episode(task, ScriptPolicy(plan), max_turns=len(plan) + 12)).reward


def _said(task: Task, reply: str) -> float | None:
    """The golden calls, then `reply` as the answer."""
    return _reward(task, [*task.golden_actions, reply])


def _arg(task: Task, tool: str, key: str) -> str:
    return next(c.arguments[key] for c in task.golden_actions if c.name == tool)


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
    assert _said(task, f"{rest} I've issued a provisional credit of ${amount} to your account.") == 1


@pytest.mark.parametrize("task", _tasks("release-auth-hold"), ids=lambda t: t.id)
def test_a_hold_that_will_be_released_is_not_one_that_was(task):
    assert _said(task, "The hotel hold will be released automatically on its release date.") == 0
    assert _said(task, "The hotel hold has been lifted; the money is available again.") == 1


@pytest.mark.parametrize("task", _tasks("withdraw-dispute"), ids=lambda t: t.id)
def test_the_ticket_is_said_closed_not_the_dispute(task):
    d, tk = _arg(task, "withdraw_dispute", "dispute_id"), _arg(task, "update_ticket_status", "ticket_id")
    reversed_credit = re.search(r"; the provisional credit of [\d,.]+ has been reversed from your account", task.golden_reply)
    credit = reversed_credit.group(0) if reversed_credit else ""
    assert _said(task, f"I've withdrawn dispute {d}{credit}; that dispute is now closed.") == 0
    assert _said(task, f"I've withdrawn dispute {d}{credit}. Ticket {tk} will be closed automatically.") == 0
    assert _said(task, f"Dispute {d} has been withdrawn{credit}, and I closed ticket {tk}.") == 1


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
