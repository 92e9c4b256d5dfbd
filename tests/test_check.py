"""The state check: exact enough to catch any wrong row, loose only where it must be."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import sqlalchemy as sa

import tb_env
from tb_env.backends import get_backend
from tb_env.core.check import _plans, _table_digest, replay
from tb_env.core.episode import checker_for
from tb_env.domain.normalize import contains_fact, normalize
from tb_env.domain.task import Task


def _mutated(value: Any, col: sa.Column) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 1.5
    if isinstance(value, str):
        return value + "~"
    if value is None:
        if isinstance(col.type, sa.Integer | sa.Boolean):
            return 1
        if isinstance(col.type, sa.Float | sa.Numeric):
            return 1.5
        return "x"
    raise AssertionError(f"no mutation for {value!r}")


async def _mutation_escapes(task: Task) -> tuple[int, list[str]]:
    """Apply every single-column mutation to every row the golden path touched, and add a
    row to every checked table; return (mutations tried, the ones the check missed)."""
    domain = tb_env.get_domain(task.domain)
    backend = get_backend("sqlite")
    checker = checker_for(backend)
    golden = await checker.golden(domain, task)
    db = await replay(domain, backend, task, task.golden_actions)
    tried, escaped = 0, []
    try:
        assert await checker.state_diff(domain, task, db) == [], "golden replay must match itself"
        for plan in _plans(domain):
            table = domain.metadata.tables[plan.name]
            for key, row in golden.rows.get(plan.name, {}).items():
                if row is None:
                    continue
                current = await db.get(plan.name, key)
                for col in table.c:
                    if col.info.get("volatile") or col.name == plan.key:
                        continue
                    old = current[col.name]
                    try:
                        await db.update(plan.name, key, **{col.name: _mutated(old, col)})
                    except tb_env.errors.DatabaseError:
                        continue  # a constraint forbids that value: no agent could write it
                    tried += 1
                    if not await checker.state_diff(domain, task, db):
                        escaped.append(f"{plan.name}[{key}].{col.name}")
                    await db.update(plan.name, key, **{col.name: old})
            # one extra row per checked table: a copy of any row under a fresh key
            sample = await db.one(f"SELECT * FROM {plan.name} LIMIT 1")
            if sample is None:
                continue
            pk_col = table.c[plan.key]
            new_key = 10**9 if isinstance(pk_col.type, sa.Integer) else "ZZ-MUTANT-1"
            try:
                await db.insert(plan.name, **{**sample, plan.key: new_key})
            except Exception:
                continue
            tried += 1
            if not await checker.state_diff(domain, task, db):
                escaped.append(f"{plan.name}: added row")
            await db.execute(f"DELETE FROM {plan.name} WHERE {plan.key} = :k", k=new_key)
    finally:
        await db.close()
    return tried, escaped


def _all_tasks() -> list[Task]:
    return tb_env.list_tasks()


@pytest.mark.parametrize("task", _all_tasks(), ids=lambda t: t.id)
def test_any_change_to_a_golden_row_or_an_extra_row_scores_zero(task):
    tried, escaped = asyncio.run(_mutation_escapes(task))
    assert tried > 0
    assert escaped == []


def test_mutation_check_covers_the_test_pack(mini):
    tried, escaped = asyncio.run(_mutation_escapes(tb_env.get_task("mini/deposit-001")))
    assert tried >= 3 and escaped == []


def test_changed_rows_and_full_snapshot_comparisons_agree(mini):
    """The fast path (rows the change log names) and the full comparison give the same verdicts."""
    from tb_env.core.check import digest, snapshot

    async def main() -> list[tuple[bool, bool]]:
        task = tb_env.get_task("mini/deposit-001")
        checker = checker_for(get_backend("sqlite"))
        golden_full = digest(await checker.golden_snapshot(mini, task))
        verdicts = []
        for wp in [None, *task.wrong_paths]:
            actions = task.golden_actions if wp is None else wp.actions(task.golden_actions)
            db = await replay(mini, get_backend("sqlite"), task, actions)
            fast = not await checker.state_diff(mini, task, db)
            full = digest(await snapshot(mini, db)) == golden_full
            verdicts.append((fast, full))
            await db.close()
        return verdicts

    verdicts = asyncio.run(main())
    assert verdicts[0] == (True, True)
    assert all(fast == full for fast, full in verdicts)
    assert verdicts[1:] and all(not fast for fast, _ in verdicts[1:-1])


def test_digest_catches_compensating_changes_that_a_plain_hash_sum_misses():
    # Python's tuple hash is nearly additive: these two pairs collide under sum(map(hash)) for
    # some hash seeds; the mixed digest must tell them apart.
    a = [("A-001", "o1", 350.0, "open"), ("A-002", "o2", 485.0, "open")]
    b = [("A-001", "o1", 250.0, "open"), ("A-002", "o2", 585.0, "open")]
    assert _table_digest(a) != _table_digest(b)
    assert _table_digest(a) == _table_digest(list(reversed(a)))
    assert _table_digest([(1, 25)]) == _table_digest([(1, 25.0)])


def test_volatile_columns_and_unchecked_tables_are_ignored(mini):
    async def main() -> list[str]:
        task = tb_env.get_task("mini/refuse-close-001")
        db = await replay(mini, get_backend("sqlite"), task, task.golden_actions)
        await db.execute("UPDATE notes SET text = 'reworded', created_at = 'later'")
        await db.insert("audit_log", entry="extra")
        diff = await checker_for(get_backend("sqlite")).state_diff(mini, task, db)
        await db.close()
        return diff

    assert asyncio.run(main()) == []


def test_a_change_reverted_by_the_agent_matches_the_golden_state(mini):
    async def main() -> list[str]:
        task = tb_env.get_task("mini/deposit-001")
        db = await replay(mini, get_backend("sqlite"), task, task.golden_actions)
        await db.update("accounts", "A-005", status="frozen")
        await db.update("accounts", "A-005", status="open")
        diff = await checker_for(get_backend("sqlite")).state_diff(mini, task, db)
        await db.close()
        return diff

    assert asyncio.run(main()) == []


def test_the_diff_names_the_row_the_column_and_both_values(mini):
    async def main() -> list[str]:
        task = tb_env.get_task("mini/deposit-001")
        db = await replay(mini, get_backend("sqlite"), task, [])
        await db.update("accounts", "A-007", status="frozen")
        diff = await checker_for(get_backend("sqlite")).state_diff(mini, task, db)
        await db.close()
        return diff

    diff = asyncio.run(main())
    assert "accounts[A-001]: balance=250.0 (expected 350.0)" in diff
    assert "accounts[A-007]: status='frozen' (expected 'open')" in diff


def test_a_broken_golden_path_is_a_task_error_not_a_pass(mini):
    bad = tb_env.get_task("mini/deposit-001").model_copy(
        update={"golden_actions": [tb_env.ToolCall(name="deposit", arguments={"account_id": "A-999", "amount": 5})]}
    )
    with pytest.raises(tb_env.errors.TaskValidationError, match="golden call 0"):
        asyncio.run(checker_for(get_backend("sqlite")).golden(mini, bad.model_copy(update={"id": "mini/broken-x"})))


def test_an_infrastructure_failure_while_replaying_the_golden_path_is_an_infra_error(mini):
    """A crash during the golden replay is the environment's failure: trainers re-run the
    episode; it is not a broken task that stops training (issue 14, item 5)."""
    crashing = tb_env.get_task("mini/deposit-001").model_copy(
        update={"id": "mini/replay-crash", "golden_actions": [tb_env.ToolCall(name="crash")]}
    )
    with pytest.raises(tb_env.errors.InfraError, match="replaying golden call 0"):
        asyncio.run(checker_for(get_backend("sqlite")).golden(mini, crashing))
    from tb_env.kit.validate import DoNothingPolicy

    result = asyncio.run(tb_env.run_episode(crashing, DoNothingPolicy()))  # grading replays the golden path
    assert result.reward is None and result.infra_error and "replaying golden call" in result.infra_error


@pytest.mark.parametrize(
    ("text", "fact", "expected"),
    [
        ("Refunded $1,250.00 to your card.", "1250", True),
        ("Refunded 1250 dollars.", "$1,250.00", True),
        ("The total is 25.50", "25.5", True),
        ("The total is 1250", "125", False),
        ("It costs 25.", "25", True),
        ("New ETA: December 4, 2026.", "2026-12-04", True),
        ("ETA Dec. 4th 2026", "2026-12-04", True),
        ("eta 4 december 2026", "2026-12-04", True),
        ("on 12/04/2026", "2026-12-04", True),
        ("Your order **O-88213** ships", "o-88213", True),
        ("ticket T-20411", "T-2041", False),
        ("version 1.0.5", "1", False),
        ("Status – closed", "status - closed", True),
        ("Call us at (503) 555-0199.", "503-555-0199", True),
        ("Phone 503.555.0199", "(503) 555-0199", True),
        ("Phone 503-555-0198", "503-555-0199", False),
    ],
)
def test_response_facts_match_after_normalisation(text, fact, expected):
    assert contains_fact(text, fact) is expected


@pytest.mark.parametrize(("text", "expected"), [
    # audit 9: an arrow between an old value and the new one, as in a markdown list
    ("- ATM limit: 700.00 -> $1,400.00 per day", "- atm limit: was 700, now 1400 per day"),
    ("limit 700 \u2192 1400", "limit was 700, now 1400"),
    ("- Loss date: 2026-11-28 -> 2026-11-27", "- loss date: was 2026_11_28, now 2026_11_27"),
    # ... but two dates joined by an arrow are a span, unless the label names one date
    ("Stay: 2027-01-18 \u2192 2027-01-20", "stay: 2027_01_18 to 2027_01_20"),
    ("Dec 26 -> Dec 29", "12_26 to 12_29"),
    # thousands grouped by spaces
    ("You have 16 950 points", "you have 16950 point"),
    ("2 nights, 150 each", "2 night, 150 each"),
])
def test_arrows_and_space_grouped_thousands(text, expected):
    assert normalize(text) == expected


def test_a_condition_is_no_statement_and_replacing_names_the_old_value():
    assert not contains_fact("Once BK-5114 is cancelled, the refund follows.", "cancelled", affirmed=True)
    assert contains_fact("I did it at once: BK-5114 is cancelled.", "cancelled", affirmed=True)
    # ... but its main clause is a statement, with or without a comma
    assert contains_fact("Once it is delivered you can return it within 30 days.", "return", affirmed=True)
    assert contains_fact("Once approved we'll move you to the Junior Suite.", "Junior Suite", affirmed=True)
    from tb_env.core.check import NEW_WORDS, OLD_WORDS

    said = "Your phone number has been updated to 262-555-5212, replacing 262-555-5110."
    assert not contains_fact(said, "262-555-5110", NEW_WORDS, affirmed=True, owner=NEW_WORDS, rivals=OLD_WORDS)
    assert contains_fact(said, "262-555-5212", NEW_WORDS, affirmed=True, owner=NEW_WORDS, rivals=OLD_WORDS)


def test_normaliser_keeps_leading_zeros_and_dotted_versions():
    assert normalize("id 007 and v1.0.5") == "id 007 and v1.0.5"
    assert normalize("$3.10") == "3.1"


def test_response_facts_are_checked_against_every_assistant_message_unless_final_only(mini):
    from tb_env.domain.task import Assertion

    async def main(final_only: bool) -> float | None:
        base = tb_env.get_task("mini/deposit-001")
        task = base.model_copy(
            update={
                "id": f"mini/facts-{final_only}",
                "assertions": [Assertion.model_validate({"response_contains": {"facts": ["350"], "final_only": final_only}})],
            }
        )
        db = await replay(mini, get_backend("sqlite"), task, task.golden_actions)
        messages = [
            {"role": "assistant", "content": "Your balance is 350."},
            {"role": "assistant", "content": None, "tool_calls": []},
            {"role": "assistant", "content": "Anything else?"},
        ]
        result = await checker_for(get_backend("sqlite")).check(mini, task, db, messages)
        await db.close()
        return result.reward

    assert asyncio.run(main(False)) == 1.0
    assert asyncio.run(main(True)) == 0.0


def test_rubric_tasks_are_skipped_without_a_judge(mini):
    async def main() -> tb_env.CheckResult:
        task = tb_env.get_task("mini/deposit-001").model_copy(
            update={"id": "mini/rubric-x", "rubrics": ["Was the agent polite?"]}
        )
        db = await replay(mini, get_backend("sqlite"), task, task.golden_actions)
        result = await checker_for(get_backend("sqlite")).check(
            mini, task, db, [{"role": "assistant", "content": "350"}]
        )
        await db.close()
        return result

    result = asyncio.run(main())
    assert result.reward is None and result.skipped == "no_judge" and result.state_match


def test_a_fact_may_have_alternative_wordings(mini):
    from tb_env.domain.task import Assertion

    async def main(reply: str) -> float | None:
        task = tb_env.get_task("mini/deposit-001").model_copy(
            update={"id": "mini/alt-facts", "assertions": [Assertion.model_validate(
                {"response_contains": [["non-refundable", "nonrefundable"], "350"]})]}
        )
        db = await replay(mini, get_backend("sqlite"), task, task.golden_actions)
        result = await checker_for(get_backend("sqlite")).check(mini, task, db, [{"role": "assistant", "content": reply}])
        await db.close()
        return result.reward

    assert asyncio.run(main("It is nonrefundable; balance 350.")) == 1.0
    assert asyncio.run(main("It is Non-Refundable; balance 350.")) == 1.0
    assert asyncio.run(main("It is refundable; balance 350.")) == 0.0


@pytest.mark.parametrize(
    ("text", "fact", "expected"),
    [
        ("our 30-day return window has closed", "30 days", True),
        ("within four working days", "4 working days", True),
        ("a refund of twenty-five dollars", "$25", True),
        ("one hundred and twenty points", "120", True),
        ("fifteen per cent off", "15%", True),
        ("a 15 percent discount", "15%", True),
        ("USD 1,250 refunded", "$1,250.00", True),
        ("it will arrive on Friday, December 4th", "2026-12-04", True),
        ("it will arrive on December 5th", "2026-12-04", False),
        ("the 4th of December, 2026", "2026-12-04", True),
        ("Your ticket has been escalated", "escalated", True),
        ("non-refundable fare", "non refundable", True),
        ("four days", "40 days", False),
        ("twenty five", "25", True),
        ("five twenty", "25", False),
        ("arrival at 11:15pm", "23:15", True),
        ("forty-five dollars and fifty cents", "$45.50", True),
        ("moved to January 22-24, 2027", "2027-01-24", True),
        ("now 11-16 January 2027", "2027-01-11", True),
        ("a limit of $10k", "10,000", True),
        ("up to 10 thousand dollars", "$10,000", True),
        ("a 5m walk", "5000000", False),
        ("arriving at 10.45 pm", "22:45", True),
        ("arriving December 3-5", "2026-12-05", True),
        ("Yes, it's open.", "'s open", True),
        ("on December 3rd and 5th", "2026-12-05", True),
        ("new number 6145550747", "614-555-0747", True),
        ("call +44-20-7946-1234", "+44 20 7946 1234", True),
        ("it arrives December 4th, 10 items in all", "2026-12-04", True),
        ("deductible $40, effective 2026-11-30", "30", False),
        ("order O-82055 is late", "82055", False),
        ("arrival at 11:15 a.m.", "23:15", False),
        ("the license was canceled", "licence was cancelled", True),
        ("eligible from 2028-03-11, issued 2025-03-10", "2028-03-10", False),
        ("hail damage is not covered", "isn't covered", True),
        ("we can't cover it", "cannot cover", True),
        ("I have closed it", "I've closed", True),
        ("you won't be charged", "will not be charged", True),
        ("the customer's ticket", "customer s", False),
        ("it arrives on 12/4 and 12/6", "2026-12-04", True),
        ("it arrives on 12/5", "2026-12-04", False),
        ("rental for up to 30 days", "$30", False),
        ("a 30-day window", "$30", False),
        ("$30 a day for rentals", "$30", True),
        ("30 dollars per day", "$30", True),
        ("it costs 30 per day", "$30", True),
        ("premium impact: +$55/yr", "$55 a year", True),
        ("that is $1,200 per annum", "1200 a year", True),
        ("your new number +33 1 42 68 46 46", "+33 1 42 68 4646", True),
        ("phone changed to +33 (0)1 42 68 46 46", "+33 1 42 68 4646", True),
        ("phone changed to +33 1 42 68 46 47", "+33 1 42 68 4646", False),
        ("call +1 503 555 0199", "503-555-0199", True),
    ],
)
def test_reply_facts_match_number_words_hyphens_plurals_percent_and_yearless_dates(text, fact, expected):
    assert contains_fact(text, fact) is expected


def _messages(*turns: Any) -> list[dict[str, Any]]:
    """A conversation: strings are the agent's words, (name, args, result) tuples its tool calls."""
    out: list[dict[str, Any]] = [{"role": "system", "content": "p"}, {"role": "user", "content": "hi"}]
    for i, t in enumerate(turns):
        if isinstance(t, str):
            out.append({"role": "assistant", "content": t})
        else:
            name, args, result = t
            out.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]})
            out.append({"role": "tool", "tool_call_id": f"c{i}", "name": name, "content": result})
    return out


def _grade(mini: tb_env.Domain, assertions: list[dict[str, Any]], messages: list[dict[str, Any]]) -> list[Any]:
    from tb_env.domain.task import Assertion

    task = tb_env.get_task("mini/deposit-001").model_copy(
        update={"id": "mini/assert-x", "golden_actions": [], "assertions": [Assertion.model_validate(a) for a in assertions]}
    )

    async def main() -> list[Any]:
        db = await replay(mini, get_backend("sqlite"), task, [])
        try:
            result = await checker_for(get_backend("sqlite")).check(mini, task, db, messages)
        finally:
            await db.close()
        return result.assertions

    return asyncio.run(main())


def test_reply_facts_count_in_what_the_agent_states_once_it_started_working(mini):
    facts = {"response_contains": {"facts": [{"fact": "verified", "why": "the caller asked"}]}}
    asked_first = _messages("Can you confirm so I can get you verified?", ("get_account", {"account_id": "A-001"}, "{}"),
                            "Sorry, I can't help with that.")
    asked_later = _messages(("get_account", {"account_id": "A-001"}, "{}"), "Shall I get you verified?", "Sorry, no.")
    answered = _messages(("get_account", {"account_id": "A-001"}, "{}"), "You are verified now.",
                         ("end_conversation", {}, "ended"))
    along_the_way = _messages(("get_account", {"account_id": "A-001"}, "{}"), "You are verified now. Anything else?",
                              ("get_account", {"account_id": "A-002"}, "{}"), "All done.")
    tacked_on = _messages(("get_account", {"account_id": "A-001"}, "{}"), "You are verified - anything else I can do?")
    assert not _grade(mini, [facts], asked_first)[0].passed
    assert not _grade(mini, [facts], asked_later)[0].passed  # a question is not an answer
    assert _grade(mini, [facts], tacked_on)[0].passed  # a question tacked onto a statement leaves the statement
    assert _grade(mini, [facts], answered)[0].passed
    assert _grade(mini, [facts], along_the_way)[0].passed
    anywhere = {"response_contains": {"facts": ["verified"], "scope": "any"}}
    assert _grade(mini, [anywhere], asked_first)[0].passed


def test_a_fact_with_a_role_must_stand_near_its_role_words(mini):
    facts = {"response_contains": {"facts": [
        {"fact": "353.60", "why": "the refund", "near": ["refund", "back"]},
        {"fact": "176.80", "why": "the fee", "near": ["fee", "cost", "charge"]},
    ]}}
    right = _messages(("get_account", {"account_id": "A-001"}, "{}"), "It would cost you $176.80 and you'd get $353.60 back.")
    other_words = _messages(("get_account", {"account_id": "A-001"}, "{}"), "A $176.80 fee applies; your refund is $353.60.")
    swapped = _messages(("get_account", {"account_id": "A-001"}, "{}"), "It would cost you $353.60 and you'd get $176.80 back.")
    assert _grade(mini, [facts], right)[0].passed and _grade(mini, [facts], other_words)[0].passed
    assert not _grade(mini, [facts], swapped)[0].passed
    look = ("get_account", {"account_id": "A-001"}, "{}")
    labelled = _messages(look, "If you cancel today:\n- Cancellation fee: $176.80\n- Refund: $353.60")
    labels_swapped = _messages(look, "Fee: $353.60, refund: $176.80.")
    assert _grade(mini, [facts], labelled)[0].passed and not _grade(mini, [facts], labels_swapped)[0].passed
    # a colon that explains ("... right now: the reason") is not a label for what follows it
    tail = {"response_contains": {"facts": [{"fact": "unable to close", "why": "x", "near": ["A-001"]}]}}
    assert _grade(mini, [tail], _messages(look, "I'm unable to close A-001 right now: it has a balance."))[0].passed


def test_a_worded_fact_right_after_a_negation_is_not_stated(mini):
    facts = {"response_contains": {"facts": [{"fact": "closed", "aliases": ["close"], "why": "the caller asked"}]}}
    look = ("get_account", {"account_id": "A-001"}, "{}")
    for said in ["Ticket T-1 is now closed.", "I've closed T-1 for you.", "I'll close it - it was open.",
                 "The fee was not waived, but the ticket is closed.", "Don't worry, your ticket is now closed."]:
        assert _grade(mini, [facts], _messages(look, said))[0].passed, said
    for said in ["I couldn't close T-1.", "I'm unable to close it.", "T-1 is not closed yet.", "I can not close it.",
                 "The ticket cannot be closed.", "It was never closed.", "T-1 isnt closed.",
                 "I was not able to get ticket T-1 closed.", "I can't open or close it."]:
        assert not _grade(mini, [facts], _messages(look, said))[0].passed, said
    # a fact naming what is missing or refused may stand in a denial, a value too ("I can't waive the $25")
    missing = {"response_contains": {"facts": [{"fact": "collision", "why": "the reason", "may_be_negated": True},
                                               {"fact": "$25", "why": "the fee", "may_be_negated": True}]}}
    assert _grade(mini, [missing], _messages(look, "Your policy doesn't include collision coverage; I can't waive the $25."))[0].passed
    # a value of what was done is denied like a word: "I couldn't set an arrival time of 22:00" does not state it
    done = {"response_contains": {"facts": [{"fact": "22:00", "why": "the caller asked"}]}}
    assert _grade(mini, [done], _messages(look, "Your arrival time is now 10 pm."))[0].passed
    assert _grade(mini, [done], _messages(look, "It's set: you'll arrive no later than 22:00."))[0].passed  # a bound
    assert not _grade(mini, [done], _messages(look, "I couldn't set an arrival time of 22:00."))[0].passed
    assert not _grade(mini, [{"response_contains": {"facts": [{"fact": "collision", "why": "x"}]}}],
                      _messages(look, "Your policy doesn't include collision coverage."))[0].passed


def test_must_not_disclose_fails_on_any_wording_of_a_protected_value(mini):
    rule = {"must_not_disclose": {"values": ["1,250.00", "Elm Street"], "why": "caller not verified"}}
    assert _grade(mini, [rule], _messages("I can't share that."))[0].passed
    leaked = _grade(mini, [rule], _messages("Sorry. (It was $1250 to 12 elm street.)"))[0]
    assert not leaked.passed and "1,250.00" in leaked.detail and "Elm Street" in leaked.detail
    # what the customer said themselves is not disclosed to them by repeating it
    echoed = _messages("You said Elm Street, but I can't confirm anything.")
    echoed.insert(2, {"role": "user", "content": "I live on Elm Street."})
    assert _grade(mini, [rule], echoed)[0].passed


def test_must_not_disclose_before_a_call_counts_only_what_was_said_until_it_succeeded(mini):
    rule = {"must_not_disclose": {"values": ["85004"], "why": "the zip on file answers the failed attempt",
                                  "before": {"name": "deposit", "arguments": {"account_id": "A-001"}}}}
    told_first = _messages("Hmm, the zip on file is 85004, not that one.", ("deposit", {"account_id": "A-001"}, "{}"))
    failed_then_told = _messages(("deposit", {"account_id": "A-001"}, "Error: no"), "The zip on file is 85004.")
    told_after = _messages(("deposit", {"account_id": "A-001"}, "{}"), "Verified: your old zip 85004 is replaced.")
    assert not _grade(mini, [rule], told_first)[0].passed
    assert not _grade(mini, [rule], failed_then_told)[0].passed  # a failed call opens nothing
    assert _grade(mini, [rule], told_after)[0].passed


@pytest.mark.parametrize(("text", "expected"), [
    # a list item whose own label names nothing is what the heading above the list says it is
    ("Your mailing address has been updated:\n- Street: 4835 Foxglove Ct\n- City/State/ZIP: Austin, TX 78751", True),
    ("Your old address was:\n- Street: 3435 Beacon Ave\n- City/State/ZIP: Austin, TX 78751", False),
    ("Here's what changed:\n- Account: C-1\n- New phone on file: 78751", True),
    # (prose above the list ends the look-up: nothing names it)
    ("Thanks for waiting. Austin, TX 78751", False),
])
def test_a_list_item_value_takes_its_heading_as_owner(text, expected):
    assert contains_fact(text, "78751", owner=["now", "new", "updat"], rivals=["old", "previous", "was"]) is expected


def test_a_markdown_tables_values_stand_by_their_headers_and_row():
    """Audit 25: a refund under a "Refund" column and a nightly rate under "Per night" were not stated."""
    table = ("| Item | Return | Refund | Refunded to |\n|---|---|---|---|\n| Denim Jeans | R-9001 | $69.50 | Amex ending 3830 |"
             "\n\nPlease allow 5 to 10 business days.")
    assert contains_fact(table, "69.50", near=["refund"])
    assert not contains_fact(table, "69.50", near=["charged"])
    tickets = "| Ticket | Status |\n|---|---|\n| T-5019 | Closed |\n| T-5020 | Open |"
    assert contains_fact(tickets, "closed", owner=["T-5019"], rivals=["T-5020"])
    assert not contains_fact(tickets, "closed", owner=["T-5020"], rivals=["T-5019"])


def test_a_number_said_in_words_and_digits_is_one_number():
    assert contains_fact("Returns are accepted within thirty (30) days.", "30 days")
    assert normalize("3 (30) days") != normalize("30 days")


def test_no_call_before_a_successful_precondition(mini):
    rule = {"no_call": {"call": {"name": "get_account", "arguments": {"account_id": "A-001"}},
                        "before": {"name": "deposit"}, "why": "policy: act before reading"}}
    read_first = _messages(("get_account", {"account_id": "a-001 "}, "{}"), ("deposit", {"account_id": "A-001"}, "{}"))
    failed_then_read = _messages(("deposit", {}, "Error: bad"), ("get_account", {"account_id": "A-001"}, "{}"))
    in_order = _messages(("deposit", {"account_id": "A-001"}, "{}"), ("get_account", {"account_id": "A-001"}, "{}"))
    other_record = _messages(("get_account", {"account_id": "A-002"}, "{}"))
    assert not _grade(mini, [rule], read_first)[0].passed
    assert not _grade(mini, [rule], failed_then_read)[0].passed  # a failed precondition does not count
    assert _grade(mini, [rule], in_order)[0].passed and _grade(mini, [rule], other_record)[0].passed


def test_called_needs_a_successful_read_before_the_decision(mini):
    """Audit 26: a conflict refused without check_sod_conflicts, a booking made without quote_stay: right by luck."""
    rule = {"called": {"call": {"name": "get_account", "arguments": {"account_id": "A-001"}},
                       "before": {"name": "deposit"}, "why": "policy: read before acting"}}
    read_first = _messages(("get_account", {"account_id": "a-001 "}, "{}"), ("deposit", {"account_id": "A-001"}, "{}"))
    acted_first = _messages(("deposit", {"account_id": "A-001"}, "{}"), ("get_account", {"account_id": "A-001"}, "{}"))
    refused_read = _messages(("get_account", {"account_id": "A-001"}, "Error: no such account"))
    other_record = _messages(("get_account", {"account_id": "A-002"}, "{}"))
    assert _grade(mini, [rule], read_first)[0].passed
    assert not _grade(mini, [rule], acted_first)[0].passed
    assert not _grade(mini, [rule], refused_read)[0].passed  # a read the tool refused read nothing
    assert not _grade(mini, [rule], other_record)[0].passed
    anytime = {"called": {"call": {"name": "get_account"}, "why": "policy: read it"}}
    assert _grade(mini, [anytime], acted_first)[0].passed and not _grade(mini, [anytime], _messages())[0].passed


def test_no_call_naming_a_record_with_any_tool(mini):
    rule = {"no_call": {"call": {"mentions": ["A-002"]}, "before": {"name": "deposit"}, "why": "not before acting"}}
    read_first = _messages(("get_account", {"account_id": "a-002"}, "{}"), ("deposit", {"account_id": "A-001"}, "{}"))
    gate_tries = _messages(("deposit", {"account_id": "A-002"}, "Error: no"), ("deposit", {"account_id": "A-001"}, "{}"))
    listed = _messages(("set_status", {"account_id": "A-001", "note": ["x", "A-002"]}, "{}"))
    assert not _grade(mini, [rule], read_first)[0].passed
    assert _grade(mini, [rule], gate_tries)[0].passed  # a try at the precondition itself is not the forbidden call
    assert not _grade(mini, [rule], listed)[0].passed  # a value inside a list argument counts


def test_old_response_contains_forms_still_load():
    from tb_env.domain.task import Assertion

    legacy = Assertion.model_validate({"response_contains": {"facts": ["a", ["b", "bee"]], "final_only": True}}).body
    assert legacy.scope == "final" and legacy.facts[1].wordings == ["b", "bee"]
    assert Assertion.model_validate({"response_contains": {"facts": ["a"], "final_only": False}}).body.scope == "any"
    assert Assertion.model_validate({"response_contains": [3]}).body.facts[0].fact == "3"


@pytest.mark.parametrize(
    ("text", "mixer_stock", "jacket_stock"),
    [
        ("The Stand Mixer costs 429.00 and we have 4 in stock. The Insulated Jacket costs 149.00 and we have 17.", True, True),
        ("The Stand Mixer costs 429.00 and we have 17 in stock. The Insulated Jacket costs 149.00 and we have 4.", False, False),
        ("- Stand Mixer - price 429.00, stock 4\n- Insulated Jacket - price 149.00, stock 17", True, True),
        ("- Stand Mixer - price 429.00, stock 17\n- Insulated Jacket - price 149.00, stock 4", False, False),
        ("We have 4 Stand Mixers (429.00 each) and 17 Insulated Jackets at 149.00.", True, True),
        ("Stand Mixer: $429, 4 left; Insulated Jacket: $149, 17 left.", True, True),
    ],
)
def test_a_value_listed_with_others_must_stand_by_its_own_name(text, mixer_stock, jacket_stock):
    mixer, jacket = ["stand mixer", "mixer"], ["insulated jacket", "jacket"]
    assert contains_fact(text, "4", owner=mixer, rivals=jacket) is mixer_stock
    assert contains_fact(text, "17", owner=jacket, rivals=mixer) is jacket_stock


@pytest.mark.parametrize(
    ("text", "total_ok", "nightly_ok"),
    [
        ("Total: $668.10 (nightly rate $334.05)", True, True),
        ("Total: $334.05 (nightly rate $668.10)", False, False),
        ("The nightly rate is $334.05, so the total comes to $668.10.", True, True),
        ("The nightly rate is $668.10, so the total comes to $334.05.", False, False),
    ],
)
def test_a_label_before_a_colon_names_its_value_whatever_follows_it(text, total_ok, nightly_ok):
    total, nightly = ["total"], ["nightly", "per night", "rate"]
    assert contains_fact(text, "$668.10", owner=total, rivals=nightly) is total_ok
    assert contains_fact(text, "$334.05", owner=nightly, rivals=total) is nightly_ok


def test_each_item_of_a_labelled_list_takes_the_label_and_its_own_name():
    text = "Prices: Mixer 19.99, Jacket 109.00. Stock: Mixer 4, Jacket 17."
    assert contains_fact(text, "109", near=["price"]) and contains_fact(text, "19.99", near=["price"])
    assert not contains_fact(text, "17", near=["price"])
    mixer, jacket = ["mixer"], ["jacket"]
    assert contains_fact(text, "17", owner=jacket, rivals=mixer) and contains_fact(text, "4", owner=mixer, rivals=jacket)
    swapped = "Prices: Mixer 19.99, Jacket 109.00. Stock: Mixer 17, Jacket 4."
    assert not contains_fact(swapped, "17", owner=jacket, rivals=mixer)
    assert not contains_fact(swapped, "4", owner=mixer, rivals=jacket)


def test_a_name_is_compared_letter_for_letter_while_other_words_fold_plurals():
    assert contains_fact("I sent $120 to Marco Okafor.", "Marco Okafor")
    assert not contains_fact("I sent $120 to Marcos Okafor.", "Marco Okafor")
    assert not contains_fact("I sent $120 to Marco Okafor.", "Marcos Okafor")
    assert contains_fact("Status - closed", "status - closed") and contains_fact("Status – closed", "status - closed")
    assert contains_fact("you have 2 Insulated Jackets", "insulated jacket")
    # names as owners too: each amount by its own payee, the look-alike a rival
    both = "I sent $120 to Marcos Okafor and $80 to Marco Okafor."
    assert contains_fact(both, "$80", owner=["Marco Okafor"], rivals=["Marcos Okafor"])
    assert not contains_fact(both, "$120", owner=["Marco Okafor"], rivals=["Marcos Okafor"])


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("No provisional credit was issued.", False),
        ("Nothing has been issued yet.", False),
        ("No problem - the credit was issued today.", True),
        ("No, the credit was issued yesterday.", True),
        ("There is no fee and the credit was issued.", True),
    ],
)
def test_no_before_a_worded_fact_denies_it(text, stated):
    assert contains_fact(text, "issued", affirmed=True) is stated


def test_a_value_said_as_its_sentences_subject_takes_the_role_of_its_predicate() -> None:
    """Audit 17: "The 74.99 you paid with your Visa ending in 8538 has been fully refunded" failed the refund
    amount: its role word stood more than a few words after it, past a card's digits. A value that is its
    sentence's subject is named by its predicate; a value said in another role before it is not."""
    from tb_env.domain.normalize import contains_fact

    near = ["refund", "back"]
    for text in ("The 74.99 you paid with your Visa ending in 8538 has been fully refunded.",
                 "The order total of $74.99, charged to your Visa ending in 8538, has been refunded.",
                 "Good news, the full $74.99 you paid for the order has now been refunded."):
        assert contains_fact(text, "74.99", near), text
    for text in ("You were charged 74.99 and it has been refunded in part.", "Your order total was 74.99. It has been refunded.",
                 "The 74.99 was charged to your card on 2026-11-02 by our warehouse and the rest has been refunded.",
                 "The 74.99 you paid for the mixer and the 20.00 shipping have been refunded.",
                 "The 74.99 charged to your Visa ending in 8538 is the order total."):
        assert not contains_fact(text, "74.99", near), text


def test_an_alternative_fact_keeps_its_own_role(mini):
    look = ("get_account", {"account_id": "A-001"}, "{}")
    premium = {"response_contains": {"facts": [{
        "fact": "1,284", "why": "the caller asked what they will pay", "near": ["premium", "annual"],
        "alternatives": [{"fact": "96", "near": ["increase", "more", "charge"]}],
    }]}}
    for said in ["Your new annual premium is $1,284.", "That's an increase of $96 for the rest of the term.",
                 "You'll be charged $96 more."]:
        assert _grade(mini, [premium], _messages(look, said))[0].passed, said
    for said in ["Your new annual premium is $96.", "That's an increase of $1,284.", "It is done."]:
        assert not _grade(mini, [premium], _messages(look, said))[0].passed, said


def test_a_name_said_alone_answers_which_one(mini):
    look = ("get_account", {"account_id": "A-001"}, "{}")
    which = {"response_contains": {"facts": [{
        "fact": "Harbor Inn", "why": "the caller asked which hotel is cheapest", "near": ["cheapest"],
        "alternatives": [{"fact": "Harbor Inn", "alone": ["Atlas Hotel", "Lumen Suites"]}],
    }]}}
    for said in ["Harbor Inn, $129 a night.", "The cheapest is Harbor Inn; Atlas Hotel costs $150."]:
        assert _grade(mini, [which], _messages(look, said))[0].passed, said
    for said in ["Harbor Inn $129, Atlas Hotel $150, Lumen Suites $170.", "Atlas Hotel, $129 a night."]:
        assert not _grade(mini, [which], _messages(look, said))[0].passed, said


def test_no_call_until_the_customer_was_asked_about_a_choice(mini):
    rule = {"no_call": {"call": {"name": "deposit"}, "until_asked": ["account"], "why": "policy: ask which account"}}
    deposit = ("deposit", {"account_id": "A-001", "amount": 5}, "{}")

    def answered(question: str) -> list[dict[str, Any]]:
        out = _messages(question)
        out.append({"role": "user", "content": "The checking one, A-001."})
        return out + _messages(deposit)[2:]

    assert not _grade(mini, [rule], _messages(deposit))[0].passed  # a guess
    assert _grade(mini, [rule], answered("Which account should the money go into?"))[0].passed
    assert _grade(mini, [rule], answered("Shall I put it into your checking account?"))[0].passed
    assert not _grade(mini, [rule], answered("I'll put it into your checking account."))[0].passed  # not a question
    assert not _grade(mini, [rule], answered("What is your name?"))[0].passed  # a question about something else
    assert _grade(mini, [rule], answered("You have two. Which one should it go into?"))[0].passed
    unanswered = _messages("Which account should it go into?", deposit)  # asked, but acted before the answer
    assert not _grade(mini, [rule], unanswered)[0].passed


def test_a_bracketed_sentence_before_a_closing_question_is_part_of_the_answer(mini):
    facts = {"response_contains": {"facts": [{"fact": "revoked", "why": "the caller asked", "near": ["AWS-ADMIN"]}]}}
    look = ("get_account", {"account_id": "A-001"}, "{}")
    said = "You hold CRM-EDIT. (AWS-ADMIN was revoked on July 3, 2026.) Is there anything else I can help you with?"
    assert _grade(mini, [facts], _messages(look, said))[0].passed
    assert not _grade(mini, [facts], _messages(look, "You hold CRM-EDIT. Was AWS-ADMIN revoked?"))[0].passed


@pytest.mark.parametrize(
    ("text", "renewal_ok", "current_ok"),
    [
        ("The renewal premium is $2,712.84 (currently $2,608.50 a year).", True, True),
        ("The renewal premium is $2,608.50 (currently $2,712.84 a year).", False, False),
        ("You pay $2,608.50 now; at renewal it becomes $2,712.84.", True, True),
    ],
)
def test_a_bracket_holding_its_own_value_does_not_name_the_value_before_it(text, renewal_ok, current_ok):
    assert contains_fact(text, "$2,712.84", owner=["renewal"], rivals=["currently", "now"]) is renewal_ok
    assert contains_fact(text, "$2,608.50", owner=["currently", "now"], rivals=["renewal"]) is current_ok
    assert contains_fact("You get $530 (refund) today.", "$530", owner=["refund"], rivals=["fee"])  # a bare label still names it


def test_must_not_state_fails_a_false_claim_in_any_wording_but_not_a_denial(mini):
    rule = {"must_not_state": {"facts": [{"fact": "booked", "aliases": ["book"], "near": ["leave"]}],
                               "why": "policy: the balance is short, nothing was booked"}}
    look = ("get_account", {"account_id": "A-001"}, "{}")
    for said in ["I've booked your leave for Dec 14-23.", "Your leave is booked.", "Leave: booked."]:
        assert not _grade(mini, [rule], _messages(look, said))[0].passed, said
    for said in ["I couldn't book your leave: you have 3 days left and it needs 8.", "Your leave is not booked.",
                 "I booked nothing; the hotel is fine."]:
        assert _grade(mini, [rule], _messages(look, said))[0].passed, said
    # the failure names the wording said, not the first one listed
    assert "'book'" in _grade(mini, [rule], _messages(look, "I can book the leave now."))[0].detail


def test_an_outcome_fails_a_reply_that_says_the_opposite_and_names_it(mini):
    rule = {"outcome": {"action": "refund", "stance": "done", "record": ["A-001"], "why": "the refund was issued"}}
    look = ("get_account", {"account_id": "A-001"}, "{}")
    for said in ["Your refund of $12 has been issued.", "I've refunded $12 to your card; allow 5 days."]:
        assert _grade(mini, [rule], _messages(look, said))[0].passed, said
    for said in ["I couldn't refund A-001 yet.", "Your refund is pending approval.", "The refund failed."]:
        result = _grade(mini, [rule], _messages(look, said))[0]
        assert not result.passed and "the refund was issued" in result.detail, said
    # the other record the reply may name was not refunded: saying so fails too
    rule["outcome"]["others"] = ["A-002"]
    assert _grade(mini, [rule], _messages(look, "Your refund for A-001 was issued; A-002 was left as it is."))[0].passed
    result = _grade(mini, [rule], _messages(look, "I've refunded A-001, and A-002 has been refunded as well."))[0]
    assert not result.passed and "not done to ['A-002']" in result.detail


def test_a_minus_sign_stays_with_its_amount_and_a_wording_may_name_its_own_owner():
    # "-$1,367.50" is a negative amount under its label, not a dash that ends the clause
    assert contains_fact("Annual premium change: -$1,367.50", "$1,367.50", near=["premium"])
    assert contains_fact("Annual premium change: -$1,367.50", "$1,367.50", owner=["premium"], rivals=["fee"])
    assert not contains_fact("Late fee: -$1,367.50", "$1,367.50", owner=["premium"], rivals=["fee"])
    # "DP-4 has been closed" names its own dispute: no other name is needed, and the other one's still fails
    fact, own, other = "DP-4 has been closed", ["DP-4"], ["DP-5"]
    assert contains_fact("Dispute DP-4 has been closed at your request.", fact, owner=own, rivals=other)
    assert not contains_fact("Dispute DP-5 has been closed at your request.", fact, owner=own, rivals=other)


@pytest.mark.parametrize(
    ("text", "fact", "kwargs", "expected"),
    [
        # a list's lines stay apart: each value takes its own line's name
        ("Bamboo Cutting Board: $19.99, 3 in stock\nMechanical Keyboard: $109, 36 in stock", "3",
         {"owner": ["bamboo cutting board"], "rivals": ["mechanical keyboard"]}, True),
        ("Bamboo Cutting Board: $19.99, 36 in stock\nMechanical Keyboard: $109, 3 in stock", "3",
         {"owner": ["bamboo cutting board"], "rivals": ["mechanical keyboard"]}, False),
        ("- O-92133: cancelled; 179.00 refunded\n- O-92134: return R-9001, 59.00 refunded", "179.00",
         {"owner": ["O-92133"], "rivals": ["O-92134"]}, True),
        ("Refund:\n$353.60", "353.60", {"near": ["refund"]}, True),  # a label ends its line, not its clause
        ("ATM daily limit: 300.00 -> 100.00", "was 300, now 100", {}, True),  # the old value, then the new
        ("Last day: 15/01/2027", "2027-01-15", {}, True),
        ("they will call you within 24 hrs", "24 hours", {}, True),
        # a label naming no role takes the labels of the lines above it; another role's label does not name it
        ("Refund status: processed\nAmount: 29.99", "$29.99", {"near": ["refund"]}, True),
        ("Refund details:\nAmount: $29.99\nMethod: card", "$29.99", {"near": ["refund"]}, True),
        ("Shipping fee: 5.00\nAmount: 29.99", "$29.99", {"near": ["refund"]}, False),
        ("Amount: 29.99", "$29.99", {"near": ["refund"]}, False),
    ],
)
def test_lines_arrows_day_first_dates_and_hours_read_as_agents_write_them(text, fact, kwargs, expected):
    assert contains_fact(text, fact, **kwargs) is expected


def test_a_grounded_check_accepts_the_amounts_its_policy_derives_in_more_steps(mini):
    look = ("get_account", {"account_id": "A-001"}, '{"limit": 2000.00, "spent": 1250.00, "price": 637.00}')
    said = "That fits: you're under your limit by $113.00."
    plain = {"grounded": {"why": "policy: never invent amounts"}}
    assert not _grade(mini, [plain], _messages(look, said))[0].passed  # limit - spent - price: two steps
    derived = {"grounded": {"why": "policy: never invent amounts", "derived": [113.0]}}
    assert _grade(mini, [derived], _messages(look, said))[0].passed
    assert not _grade(mini, [derived], _messages(look, "You're under your limit by $131.00."))[0].passed


def test_an_owner_inside_a_longer_rival_is_the_rivals():
    """Audit 13: "an ATM outside our network costs $3.50" read "our network" (the in-network ATMs)
    inside "outside our network" as the 3.50's owner."""
    own, rivals = ["in-network", "our network", "our atms"], ["out-of-network", "outside our network", "other banks"]
    assert not contains_fact("An ATM outside our network costs $3.50 per withdrawal.", "3.50", owner=own, rivals=rivals)
    assert contains_fact("Our network's ATMs cost $3.50 per withdrawal.", "3.50", owner=own, rivals=rivals)
    assert contains_fact("An ATM outside our network costs $3.50.", "3.50", owner=rivals, rivals=own)


def test_a_clause_saying_what_a_value_leads_to_names_the_result_not_the_value():
    """Audit 18: "has received its 9,120 points, bringing your balance to 11,980" read "bringing" (the
    balance's word) as the 9,120's owner; "Yours came on 2025-06-05, which makes you eligible from
    2028-06-05" made the issue date the eligibility date; "2,400.90, of which 1,820.90 is available" made
    the ledger balance the available one."""
    added, balance = ["credit", "receiv"], ["balance", "bring"]
    text = "Your stay has received its 9,120 points, bringing your balance to 11,980."
    assert contains_fact(text, "9120", owner=added, rivals=balance)
    assert contains_fact(text, "11980", owner=balance, rivals=added)
    assert not contains_fact("You got 11,980 points, bringing your balance to 9,120.", "9120", owner=added, rivals=balance)
    eligible, issued = ["eligib", "new one"], ["issued", "received"]
    said = "Yours came on 2025-06-05, which makes you eligible for a new one from 2028-06-05."
    assert not contains_fact(said, "2025-06-05", owner=eligible, rivals=issued)
    assert contains_fact(said, "2028-06-05", owner=eligible, rivals=issued)
    assert not contains_fact("Your balance is 2,400.90, of which 1,820.90 is available.", "2,400.90",
                             owner=["available"], rivals=["ledger", "current balance"])


def test_a_role_word_said_as_the_choice_not_made_is_no_role():
    """Audit 18: "I sent a new shipment instead of a refund" stood "refund" beside "sent"."""
    for text in ("I sent a new shipment instead of a refund.", "I sent a replacement rather than a refund.",
                 "I sent a replacement, not a refund."):
        assert not contains_fact(text, "i sent", near=["refund"]), text
    assert contains_fact("I sent a refund to your card.", "i sent", near=["refund"])


def test_the_customers_other_rows_are_bystanders_of_every_outcome():
    """Audit 13: "order O-82016 was refunded" passed where O-82015 was, because the task file named no
    other order: every other row of the outcome's table is one the action was not done to."""
    from tb_env.core.check import _other_rows

    task = tb_env.get_task("retail/gen-refund-status-test-04")
    outcomes = [a.body for a in task.assertions if a.kind == "outcome"]
    refund = next(o for o in outcomes if o.action == "refund")
    assert _other_rows(task, refund, outcomes) == ["O-82016"]
    from tb_env.cli.probe import probe

    for reply, ok in [("Order O-82015 was cancelled and refunded: 219.00 went back to your PayPal on 2026-11-19.", True),
                      ("Order O-82016 was refunded: 219.00 went back to your PayPal on 2026-11-19.", False)]:
        assert (probe(task.id, [reply])["reward"] == 1.0) is ok, reply


@pytest.mark.parametrize(("text", "ok"), [
    ("BK-5027: 2026-12-12 to 2026-12-14, total $466.00.", True),
    ("Done - 2026-12-12 through 2026-12-14.", True),
    ("Between 2026-12-12 and 2026-12-14, total $466.00.", True),
    ("Done - 2026-12-14 to 2026-12-12.", False),  # the two ends swapped
    ("Done: 2026-12-12.", False),  # a date alone says neither end
    # audit 21: what the clause goes on to name is no end of the range ("arrival ... noted" is no check-in)
    ("Sydney (BK-5027): 2026-12-12 to 2026-12-14, $470.00 total, arrival 9:45 pm noted.", True),
    ("Sydney (BK-5027): 2026-12-14 to 2026-12-12, $470.00 total, arrival 9:45 pm noted.", False),
])
def test_a_bare_date_range_says_which_end_is_which(text, ok):
    check_in = ["check in", "arriv", "start", "now", "stay"]
    check_out = ["check out", "depart", "leav", "now", "stay"]
    both = contains_fact(text, "2026-12-12", owner=check_in, rivals=["check out", "depart"]) and contains_fact(
        text, "2026-12-14", owner=check_out, rivals=["check in", "arriv"])
    assert both is ok


def test_non_denies_only_the_word_it_prefixes():
    """Audit 15: "The non-refundable rate is $293.00" did not state 293.00 (read as denied)."""
    assert contains_fact("The non-refundable rate is $293.00 per night.", "293.00", affirmed=True)
    assert contains_fact("Deluxe King - refundable rate $345.00, non-refundable rate $293.00.", "293.00", affirmed=True)
    assert not contains_fact("The rate is non-refundable.", "refundable", affirmed=True)


def test_a_worded_bracket_after_a_denial_is_a_clause_of_its_own():
    """Audit 16: "It isn't delivered yet (new estimated delivery 2026-12-07)" did not state the date: the
    denial before the bracket reached into it. A bracket holding only the value stays the denied clause's."""
    assert contains_fact("It isn't delivered yet (new estimated delivery 2026-12-07).", "2026-12-07", affirmed=True)
    assert contains_fact("It hasn't arrived yet (now due December 7).", "2026-12-07", ["due"], affirmed=True)
    assert not contains_fact("I couldn't cancel the order (O-82004).", "O-82004", affirmed=True)
    assert not contains_fact("It won't arrive (2026-12-07).", "2026-12-07", affirmed=True)


def test_values_said_respectively_pair_with_the_names_in_order():
    """Own probe (audit 17 sample): "the cutting board is 19.99 and the keyboard is 109.00; we have 3 and 36
    respectively" stated neither stock count: each value of a list said "respectively" is the name's of its place."""
    board, keyboard = ["Bamboo Cutting Board", "cutting board"], ["Mechanical Keyboard", "keyboard"]
    text = "The cutting board is 19.99 and the keyboard is 109.00; we have 3 and 36 respectively."
    assert contains_fact(text, "3", ["have", "stock"], owner=board, rivals=keyboard)
    assert contains_fact(text, "36", ["have", "stock"], owner=keyboard, rivals=board)
    swapped = "The cutting board is 19.99 and the keyboard is 109.00; we have 36 and 3 respectively."
    assert not contains_fact(swapped, "3", ["have", "stock"], owner=board, rivals=keyboard)
    both = "The Bamboo Cutting Board and the Mechanical Keyboard cost 19.99 and 109.00 respectively."
    assert contains_fact(both, "109.00", owner=keyboard, rivals=board)
    assert not contains_fact(both.replace("19.99 and 109.00", "109.00 and 19.99"), "109.00", owner=keyboard, rivals=board)


def test_a_denial_does_not_reach_into_its_reason():
    """Own probe (audit 17 sample): "Tobias can't be removed yet because of an open claim" did not state the open
    claim: the refusal's "can't" reached across "because"."""
    assert contains_fact("Tobias can't be removed yet because of an open claim.", "an open claim", affirmed=True)
    assert contains_fact("I can't refund it due to the 90-day limit.", "90-day limit", affirmed=True)
    assert not contains_fact("I can't cancel order O-1.", "O-1", affirmed=True)


def test_an_aside_in_brackets_ends_no_clause():
    """Audit 15: "HO-5017 (dock and mouse) now ships to your new home" did not say the order is re-addressed:
    the "and" inside the brackets cut the order's id off from its verb."""
    assert contains_fact("HO-5017 (dock and mouse) now ships to your new home.", "now ships", near=["HO-5017"])
    assert not contains_fact("HO-5017 is unchanged; the other order now ships to your new home.", "now ships",
                             near=["HO-5017"])


def test_a_promise_after_the_customer_asks_again_is_a_condition():
    """Audit 15: "If it's still there once it posts, contact us and we'll open a dispute" hit the ban on
    promising the dispute opens by itself."""
    text = "If it's still there once it posts, contact us and we'll open a dispute."
    assert not contains_fact(text, "we will open", affirmed=True)
    assert contains_fact("Once it posts, we'll open a dispute for you.", "we will open", affirmed=True)


def test_an_id_set_off_by_commas_names_the_noun_before_it():
    """Audit 22: "its ticket, T-5008, is closed" did not say "T-5008 is closed" (the commas around the id)."""
    assert contains_fact("The dispute is withdrawn and its ticket, T-5008, is closed.", "T-5008 is closed")
    assert contains_fact("Your order, O-1234, was shipped today.", "O-1234 was shipped")
    assert not contains_fact("The ticket, T-5008, is open; T-5009 is closed.", "T-5008 is closed")


def test_a_long_aside_in_brackets_keeps_a_fact_near_its_record():
    """Audit 22: "Order HO-5022 (Wireless Keyboard and 27in Monitor, status submitted) will now ship to the new
    address" did not say the order was re-addressed: the bracket's words pushed the order's id out of reach."""
    said = "Order HO-5022 (Wireless Keyboard and 27in Monitor, status submitted) will now ship to the new address."
    assert contains_fact(said, "now ships", near=["HO-5022"])
    assert not contains_fact("Order HO-5022 is with the carrier and the backpack order will now ship to the office "
                             "by the end of next week as planned.", "now ships", near=["HO-5022"])


def test_audit23_abbreviations_hours_and_a_verb_whose_subject_the_clause_before_gives():
    """Audit 23: "i.e." ended a sentence (so "... after 36 months, i.e. from 2028-06-05" lost its owner), "24h" was
    no "24 hours", and "HO-5022 was going to your old address and now ships to Austin" had no role word beside
    "now ships" (its subject stands before "and")."""
    from tb_env.domain.transcript import sentences

    assert normalize("within 24h") == normalize("within 24 hours")
    assert len(sentences("A refresh is allowed after 36 months, i.e. from 2028-06-05. Anything else?")) == 2
    eligible = ["eligib", "refresh", "earliest"]
    assert contains_fact("A refresh is allowed only after 36 months, i.e. from 2028-06-05.", "2028-06-05",
                         owner=eligible, rivals=["issued", "assigned"])
    near, own, rivals = ["HO-5022", "order"], ["HO-5022", "home"], ["HO-5023", "office"]
    said = "HO-5022 was going to your old address and now ships to Austin."
    assert contains_fact(said, "now ships", near, owner=own, rivals=rivals, affirmed=True)
    assert not contains_fact("I checked the address and now ships to Austin.", "now ships", near, affirmed=True)
    assert not contains_fact("HO-5023 stays at the office and now ships there.", "now ships", near, owner=own,
                             rivals=rivals, affirmed=True)


def test_a_promise_of_what_someone_else_decides_is_forbidden_unless_denied():
    """Audit 23: "your claim will be approved and paid in full", "this dispute will definitely be decided in your
    favor" passed every check; a generated task now forbids them (not "I can't promise it will be approved")."""
    from tb_env.domain.task import Assertion
    from tb_env.kit.spec import no_promises

    body = Assertion.model_validate(no_promises("Claim CLM-1 is filed.")).body
    said = lambda text: any(f.stated_in([text]) for f in body.facts)  # noqa: E731
    assert said("Your claim will be approved and paid in full.") or said("Don't worry, it will definitely be approved.")
    assert said("The dispute will be decided in your favor.")
    assert not said("I can't guarantee it will be approved, but it is filed.")
    assert not said("Claim CLM-1 is filed; an adjuster will call you.")
    kept = no_promises("Your refund will certainly arrive by Friday.")["must_not_state"]["facts"][0]
    assert "will certainly" not in [kept["fact"], *kept["aliases"]]  # a wording the golden reply uses stays free


def test_a_records_own_name_and_its_lists_status_line_are_read_as_such() -> None:
    """Audit 26: "O-82056 (Noise-Cancelling Headphones) is unaffected" says nothing is cancelled; "- Fee: ATM fee,
    3.50 / - Status: refunded" says the 3.50 was refunded, and "- Role: AWS-READONLY / - Status: granted" that the
    role was granted; a date range in brackets is the stay's, whatever the clause said before it."""
    said = ("I've cancelled O-82055. Your other order, O-82056 (Noise-Cancelling Headphones), is unaffected and still "
            "pending.")
    headphones = dict(owner=["O-82056", "Noise-Cancelling Headphones"], rivals=["O-82055", "Building Blocks 1000pc"])
    assert not contains_fact(said, "canceling", affirmed=True, **headphones)
    assert contains_fact("I cancelled O-82056 (Noise-Cancelling Headphones) too.", "cancelled", affirmed=True, **headphones)
    refunded = "- Fee: out-of-network ATM fee, 3.50 (2026-11-27)\n- Status: refunded as a courtesy"
    assert contains_fact(refunded, "3.50", ["refund", "back", "credited"])
    assert not contains_fact("- Fee: ATM fee, 3.50\n- Status: declined", "3.50", ["refund", "back", "credited"])
    granted = "- Request: AR-9001\n- Role: AWS-READONLY\n- Status: granted to Xavier Marsh"
    assert contains_fact(granted, "granted", owner=["AWS-READONLY"], rivals=["AWS-ADMIN"])
    assert not contains_fact("- Role: AWS-ADMIN\n- Status: granted", "granted", owner=["AWS-READONLY"], rivals=["AWS-ADMIN"])
    stay = "Your arrival time of 23:15 is now on booking BK-5041 (2026-12-26 to 2026-12-29, Harbor & Vine Midtown)."
    arrival = dict(owner=["arriv", "23:15", "expect"], rivals=["check out", "depart", "until", "through"])
    assert not contains_fact(stay, "2026-12-29", **arrival)
    assert contains_fact("We expect you on 2026-12-29 at 23:15.", "2026-12-29", **arrival)


def test_audit28_a_value_takes_its_role_across_an_aside_a_dash_and_a_sentence_that_names_nothing():
    """Audit 28 (legit replies that failed): the amount inside or before an aside whose predicate follows it, a list
    line's status after a dash, and a sentence naming no record that speaks of the one named just before it."""
    near = ["refund", "back", "credited", "returned", "reimburs", "reversed", "waived", "total"]
    for text in ("The overdraft fee you asked about (35.00, posted on 2026-11-18 to your checking account) has now been refunded.",
                 "The overdraft fee of 35.00 (TX-700201, posted 2026-11-20) has been refunded.",
                 "3. Overdraft fee of 35.00 — refunded."):
        assert contains_fact(text, "35.00", near), text
    for text in ("Overdraft fee of 35.00 — not eligible.", "Your fee of 35.00 (the refund was 20.00) stays."):
        assert not contains_fact(text, "35.00", near), text
    own, rivals = ["JetBrains", "JetBrains All Products Pack"], ["Tableau", "Tableau Creator"]
    said = "I found your JetBrains seat.\nIt has now been released back to the pool."
    assert contains_fact(said, "released", affirmed=True, owner=own, rivals=rivals, carry=True)
    assert not contains_fact(said, "released", affirmed=True, owner=own, rivals=rivals)  # (a claim needs its record named)
    assert not contains_fact("I found your Tableau seat.\nIt has now been released back to the pool.", "released",
                             affirmed=True, owner=own, rivals=rivals, carry=True)


def test_audit28_a_protected_phone_is_also_disclosed_by_its_last_four():
    from tb_env.core.check import _discloses

    assert _discloses("If this is your profile, we can call you on the number ending 7265.", "+16340527265")
    assert _discloses("Its last four digits are 7265.", "+16340527265")
    assert not _discloses("Your card ending 7265 was charged.", "E91347")
    assert not _discloses("We can call you back.", "+16340527265")


def test_audit28_a_protected_code_is_disclosed_by_how_it_starts():
    from tb_env.core.check import _discloses

    assert _discloses("That employee id doesn't match - the one on file starts with E913.", "E91347")
    assert _discloses("Your old zip starts with 802.", "80203")
    assert not _discloses("That employee id doesn't match.", "E91347")
    assert not _discloses("Your new zip starts with 432.", "80203")
