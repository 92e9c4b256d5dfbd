"""The ticketing component: one ticket desk that every built-in domain, and a team's pack
built here, includes in its own words."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import tb_env
from tb_env.backends.sqlite import SQLiteBackend
from tb_env.components.ticketing import Escalation, Link, Party, Ticketing, TicketPolicy
from tb_env.core.toolserver import invoke_tool
from tb_env.domain.database import Database
from tb_env.domain.tool import read
from tb_env.errors import DomainError
from tb_env.kit.validate import validate_task

BUILT_IN = ("retail", "travel", "auto_insurance", "banking", "consulting")


Call = Callable[..., Awaitable[Any]]


@asynccontextmanager
async def scratch(name: str) -> AsyncIterator[tuple[Database, Call]]:
    """A fresh copy of a domain's seed, and `call(tool, **args)`: the parsed result, or the
    error text (starting "Error:") when the tool refused."""
    domain, backend = tb_env.get_domain(name), SQLiteBackend()
    db = await backend.open_scratch(domain, None)

    async def call(tool: str, **arguments: Any) -> Any:
        outcome = await invoke_tool(domain, db, tool, arguments)
        assert outcome.infra_error is None, outcome.infra_error
        return outcome.text if outcome.is_error else json.loads(outcome.text)

    try:
        yield db, call
    finally:
        await backend.close(db)


def on_copy(name: str, body: Callable[[Database, Call], Awaitable[Any]]) -> Any:
    """Run `body(db, call)` on a fresh copy of the domain `name`."""

    async def main() -> Any:
        async with scratch(name) as (db, call):
            return await body(db, call)

    return asyncio.run(main())


# -- the same behaviour on every desk --------------------------------------------------------

# domain -> (the owner argument, the link argument, SQL for one owner and one record of theirs, the done status)
DESKS = {
    "retail": ("customer_id", "order_id", "SELECT customer_id AS owner, id AS record FROM orders", "closed"),
    "travel": ("traveller_id", "booking_id", "SELECT traveller_id AS owner, id AS record FROM bookings", "closed"),
    "banking": ("customer_id", "dispute_id", "SELECT customer_id AS owner, id AS record FROM disputes", "closed"),
    "consulting": ("employee_id", "linked_ref", "SELECT id AS owner, 'AS-10042' AS record FROM employees", "resolved"),
}


async def free_record(db: Database, name: str) -> dict[str, Any]:
    """An owner and a record of theirs that no ticket is about yet."""
    _, link, pick, _ = DESKS[name]
    row = await db.one(f"{pick} WHERE id NOT IN (SELECT {link} FROM tickets WHERE {link} IS NOT NULL) ORDER BY id")
    assert row is not None
    return row


@pytest.mark.parametrize("name", ["retail", "consulting"])
def test_a_ticket_is_opened_noted_escalated_closed_and_reopened(name):
    owner_arg, link_arg, _, done = DESKS[name]

    async def body(db: Database, call: Call) -> None:
        row = await free_record(db, name)
        opened = await call(
            "create_ticket", **{owner_arg: row["owner"], link_arg: row["record"].lower()},
            subject="Parcel damaged", category="other",
        )
        assert opened["ticket_id"] == "T-9001" and opened[link_arg] == row["record"]
        assert (opened["status"], opened["priority"]) == ("open", "normal")
        assert await call("add_ticket_note", ticket_id="t-9001", note="  Customer sent photos.  ") == {
            "note_id": "N-9001", "ticket_id": "T-9001"}
        assert (await call("add_ticket_note", ticket_id="T-9001", note="  ")).startswith("Error: The note is empty")
        shown = await call("get_ticket", ticket_id="T-9001")
        assert [n["body"] for n in shown["notes"]] == ["Customer sent photos."]
        args = {"team": "it_ops"} if name == "consulting" else {}
        assert (await call("escalate_ticket", ticket_id="T-9001", reason="Asked for a manager.", **args))[
            "status"] == "escalated"
        stored = await db.get("tickets", "T-9001")
        assert (stored["status"], stored["priority"], stored["escalation_reason"]) == (
            "escalated", "high", "Asked for a manager.")
        assert await call("update_ticket_status", ticket_id="T-9001", status=done) == {
            "ticket_id": "T-9001", "status": done}
        refused = await call("escalate_ticket", ticket_id="T-9001", reason="Again.", **args)
        assert refused == f"Error: Ticket T-9001 is {done}; reopen it first or open a new ticket."
        await call("update_ticket_status", ticket_id="T-9001", status="open")
        assert (await call("escalate_ticket", ticket_id="T-9001", reason="Again.", **args))["status"] == "escalated"
        listed = await call(WORDS[name][0], **{owner_arg: row["owner"]})
        assert listed[0]["ticket_id"] == "T-9001"
        assert "Ticket ids look like" in await call("get_ticket", ticket_id="T-0000")

    on_copy(name, body)


@pytest.mark.parametrize("name", ["retail", "travel", "banking"])
def test_a_record_has_one_ticket_that_is_not_done_at_a_time(name):
    owner_arg, link_arg, _, done = DESKS[name]

    async def body(db: Database, call: Call) -> None:
        row = await free_record(db, name)
        args = {owner_arg: row["owner"], link_arg: row["record"], "subject": "s", "category": "other"}
        first = await call("create_ticket", **args)
        again = await call("create_ticket", **args)
        assert again.endswith(f"already has ticket {first['ticket_id']} that is not {done}; use it.")
        await call("update_ticket_status", ticket_id=first["ticket_id"], status=done)
        assert (await call("create_ticket", **args))["ticket_id"] != first["ticket_id"]

    on_copy(name, body)


@pytest.mark.parametrize("name", ["retail", "travel", "banking"])
def test_a_ticket_links_only_records_of_its_owner(name):
    owner_arg, link_arg, _, _ = DESKS[name]

    async def body(db: Database, call: Call) -> None:
        row = await free_record(db, name)
        stranger = await db.scalar(f"SELECT {owner_arg} FROM tickets WHERE {owner_arg} <> :o", o=row["owner"])
        refused = await call("create_ticket", **{owner_arg: stranger, link_arg: row["record"]},
                             subject="s", category="other")
        assert refused.startswith(f"Error: {link_arg.split('_')[0].capitalize()} {row['record']} does not belong to")
        unknown = await call("create_ticket", **{owner_arg: "X-0000"}, subject="s", category="other")
        assert unknown.startswith("Error: No ") and "X-0000" in unknown
        assert await db.scalar("SELECT COUNT(*) FROM tickets WHERE id = 'T-9001'") == 0

    on_copy(name, body)


def test_a_claim_ticket_is_checked_through_the_claims_policy_and_links_that_policy():
    async def body(db: Database, call: Call) -> None:
        claim = await db.one(
            "SELECT c.id, c.policy_id, p.policyholder_id FROM claims c JOIN policies p ON p.id = c.policy_id "
            "WHERE c.id NOT IN (SELECT claim_id FROM tickets WHERE claim_id IS NOT NULL) ORDER BY c.id"
        )
        assert claim is not None
        opened = await call("create_ticket", policyholder_id=claim["policyholder_id"], claim_id=claim["id"],
                            subject="Injury", category="claim")
        assert (opened["claim_id"], opened["policy_id"]) == (claim["id"], claim["policy_id"])
        other = await db.scalar("SELECT id FROM policyholders WHERE id <> :h", h=claim["policyholder_id"])
        refused = await call("create_ticket", policyholder_id=other, claim_id=claim["id"], subject="s",
                             category="claim")
        assert refused == f"Error: Claim {claim['id']} does not belong to policyholder {other}."

    on_copy("auto_insurance", body)


def test_the_service_desk_sets_priority_and_routes_escalations_to_the_team_the_agent_picks():
    async def body(db: Database, call: Call) -> None:
        employee = await db.scalar("SELECT id FROM employees ORDER BY id")
        opened = await call("create_ticket", employee_id=employee, subject="Stolen laptop", category="security",
                            priority="high", linked_ref=" as-10042 ")
        assert (opened["assigned_team"], opened["priority"], opened["linked_ref"]) == (
            "service_desk", "high", "AS-10042")
        first = await call("escalate_ticket", ticket_id="T-9001", team="security", reason="Data exposure.")
        assert first == {"ticket_id": "T-9001", "status": "escalated", "priority": "high", "assigned_team": "security"}
        await call("escalate_ticket", ticket_id="T-9001", team="it_ops", reason="Wrong team.")
        assert (await db.get("tickets", "T-9001"))["assigned_team"] == "it_ops"
        assert (await call("escalate_ticket", ticket_id="T-9001", team="legal", reason="x")).startswith(
            "Error: Invalid arguments for escalate_ticket: team")
        assert (await call("update_ticket_status", ticket_id="T-9001", status="pending"))["status"] == "pending"

    on_copy("consulting", body)


# -- each desk in its own words ----------------------------------------------------------------

WORDS = {  # list tool, owner argument, links, statuses the agent may set, ticket id example
    "retail": ("list_customer_tickets", "customer_id", ["order_id"], ["open", "closed"], "T-2041"),
    "travel": ("list_traveller_tickets", "traveller_id", ["booking_id"], ["open", "closed"], "T-1042"),
    "auto_insurance": ("list_tickets", "policyholder_id", ["policy_id", "claim_id"], ["open", "closed"], "T-2041"),
    "banking": ("list_customer_tickets", "customer_id", ["account_id", "card_id", "dispute_id"], ["open", "closed"],
                "T-1042"),
    "consulting": ("list_employee_tickets", "employee_id", ["linked_ref"], ["open", "pending", "resolved"], "T-1042"),
}


@pytest.mark.parametrize("name", BUILT_IN)
def test_each_domain_publishes_the_ticket_tools_in_its_own_words(name):
    list_tool, owner, links, statuses, example = WORDS[name]
    tools = tb_env.get_domain(name).tools_by_name
    names = {list_tool, "get_ticket", "create_ticket", "add_ticket_note", "update_ticket_status", "escalate_ticket"}
    assert names <= set(tools)
    assert list(tools[list_tool].input_schema["properties"]) == [owner]
    create = tools["create_ticket"].input_schema
    assert set(create["required"]) == {owner, "subject", "category"}
    assert set(create["properties"]) == {owner, "subject", "category", *links} | (
        {"priority"} if name == "consulting" else set())
    assert create["properties"]["category"]["enum"]  # a closed list, not free text
    assert tools["update_ticket_status"].input_schema["properties"]["status"]["enum"] == statuses
    assert example in tools["get_ticket"].input_schema["properties"]["ticket_id"]["description"]
    escalate = tools["escalate_ticket"].input_schema["properties"]
    assert ("team" in escalate) == (name == "consulting")
    assert [tools[n].kind for n in (list_tool, "get_ticket", "create_ticket")] == ["read", "read", "write"]


@pytest.mark.parametrize("name", BUILT_IN)
def test_tickets_are_checked_and_their_notes_and_free_text_are_not(name):
    domain = tb_env.get_domain(name)
    tickets, notes = domain.metadata.tables["tickets"], domain.metadata.tables["ticket_notes"]
    assert tickets in domain.checked_tables() and notes not in domain.checked_tables()
    volatile = {c.name for c in tickets.c if c.info.get("volatile")}
    # the service desk routes on the category, so there it is graded
    assert volatile == {"subject", "escalation_reason", "created_at"} | ({"category"} if name != "consulting" else set())


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_built_in_policy_has_the_ticket_section_once_in_its_words(name):
    domain = tb_env.get_domain(name)
    list_tool = WORDS[name][0]
    assert domain.policy.count("## Support tickets") == 1 and "{{ticketing}}" not in domain.policy
    section = domain.policy.split("## Support tickets")[1].split("\n## ")[0]
    assert f"`{list_tool}`" in section and "`escalate_ticket`" in section


def test_a_policy_without_its_ticketing_mark_is_a_configuration_error():
    desk = Ticketing(party=Party("m", "members.id", noun="member", example="M-1"), categories=("other",),
                     policy=TicketPolicy(escalate_when="when asked"))
    with pytest.raises(DomainError, match=r"\{\{ticketing\}\}"):
        desk.into_policy("# Policy\n\nNo section mark here.\n")


# -- a team's pack includes it too ------------------------------------------------------------------


def _tiny_desk() -> tb_env.Domain:
    """A library desk built here: members, loans, and the shared tickets with a column of its own."""
    metadata = sa.MetaData()
    sa.Table("members", metadata, sa.Column("id", sa.String(16), primary_key=True), sa.Column("name", sa.String(64)))
    sa.Table("loans", metadata, sa.Column("id", sa.String(16), primary_key=True),
             sa.Column("member_id", sa.ForeignKey("members.id")), sa.Column("title", sa.String(64)))
    ticketing = Ticketing(
        party=Party("member_id", "members.id", noun="member", example="M-001"),
        links=(Link("loan_id", "loans.id", noun="loan", example="L-001", one_open_ticket=True),),
        categories=("damaged", "lost", "other"),
        list_tool="list_member_tickets",
        escalation=Escalation(to="the head librarian", who="the head librarian", within="within two days"),
        policy=TicketPolicy(escalate_when="when a member reports a damaged or lost book"),
        extra_columns=(sa.Column("branch", sa.String(16), server_default=sa.text("'central'"), nullable=False),),
    )
    ticketing.declare(metadata)

    @read
    async def list_loans(db: Database, member_id: str) -> list[dict[str, Any]]:
        """A member's loans.

        Args:
            member_id: The member id, like "M-001".
        """
        return await db.all("SELECT * FROM loans WHERE member_id = :m ORDER BY id", m=member_id)

    report = tb_env.Task.model_validate({
        "id": "tiny_desk/report-damaged-book-001",
        "split": "train",
        "user": {
            "persona": "Ada, member M-001.", "goal": "Report that the book on loan L-001 came back damaged.",
            "known_facts": {"member_id": "M-001", "loan_id": "L-001"},
            "first_message": "Hi, I'm M-001: the book on my loan L-001 was damaged when I got it.",
            "scripted_turns": ["Thanks."],
        },
        "golden_actions": [
            {"name": "list_loans", "arguments": {"member_id": "M-001"}},
            {"name": "create_ticket", "arguments": {"member_id": "M-001", "loan_id": "L-001", "subject": "Damaged",
                                                    "category": "damaged"}},
            {"name": "escalate_ticket", "arguments": {"ticket_id": "T-9001", "reason": "Damaged on loan."}},
        ],
        "golden_reply": "I opened ticket T-9001; the head librarian will contact you within two days.",
        "assertions": [{"response_contains": ["T-9001"]}],
        "wrong_paths": [
            {"tag": "missing_step", "drop": [2]},
            {"tag": "wrong_entity", "replace": {1: {"name": "create_ticket", "arguments": {
                "member_id": "M-001", "loan_id": "L-003", "subject": "Damaged", "category": "damaged"}}}},
        ],
    })
    policy = "# Library desk\n\nVerify the member by id.\n\n{{ticketing}}\n"
    return tb_env.Domain(
        name="tiny_desk",
        metadata=metadata,
        seed=lambda: {
            "members": [{"id": "M-001", "name": "Ada"}, {"id": "M-002", "name": "Ben"}],
            "loans": [{"id": "L-001", "member_id": "M-001", "title": "Dune"},
                      {"id": "L-002", "member_id": "M-002", "title": "Emma"},
                      {"id": "L-003", "member_id": "M-001", "title": "Solaris"}],
        },
        policy=ticketing.into_policy(policy),
        tools=[list_loans, *ticketing.tools],
        extra_tasks=[report],
    )


def test_a_pack_built_here_includes_ticketing_registers_and_validates():
    domain = tb_env.register_domain(_tiny_desk(), replace=True)
    assert "list_member_tickets" in domain.tools_by_name
    assert "## Support tickets" in domain.policy and "the head librarian will contact them" in domain.policy
    task = domain.task("tiny_desk/report-damaged-book-001")
    report = asyncio.run(validate_task(task))
    assert report.ok, report.problems
    assert asyncio.run(tb_env.run_episode(task, tb_env.OraclePolicy())).reward == 1.0

    async def body(_: Database, call: Call) -> dict[str, Any]:
        await call("create_ticket", member_id="M-001", subject="Lost", category="lost")
        return await call("get_ticket", ticket_id="T-9001")

    assert on_copy("tiny_desk", body)["branch"] == "central"  # the pack's own column, shown by the shared tools


def test_the_documented_example_of_including_ticketing_runs():
    doc = (Path(__file__).resolve().parents[1] / "docs" / "adding-a-domain.md").read_text()
    section = doc.split("## 4. Support tickets")[1].split("\n## ")[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code, "the section shows its example as a python block"
    out = subprocess.run([sys.executable, "-c", code.group(1)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "'list_member_tickets', 'get_ticket', 'create_ticket'" in out.stdout and "## Support tickets" in out.stdout


@pytest.mark.parametrize(("domain", "customer"), [("retail", "C-0001"), ("banking", "CU-0001")])
def test_the_contact_component_changes_a_phone_number_the_same_way_in_every_pack(domain, customer):
    async def body(db: Database, call: Call) -> None:
        for written in ("(503) 555-0142", "1 503 555 0142", "503.555.0142", "+15035550142"):
            assert await call("update_customer_phone", customer_id=customer, phone=written) == {
                "customer_id": customer, "phone": "503-555-0142"}
        row = await db.one("SELECT phone FROM customers WHERE id = :i", i=customer)
        assert row["phone"] == "503-555-0142"
        refused = await call("update_customer_phone", customer_id=customer, phone="555-0142")
        assert refused.startswith("Error") and "not a 10-digit US phone number" in refused
        unknown = await call("update_customer_phone", customer_id="X-9999", phone="5035550142")
        assert unknown.startswith("Error") and "X-9999" in unknown  # the pack's own lookup message

    on_copy(domain, body)


# -- identity: the same look-up, refusal and record on every desk -----------------------------

# domain -> (find tool, verify tool, id key, table, proof the caller gives, a wrong proof, the method recorded)
IDENTITY = {
    "retail": ("find_customer", "verify_identity", "customer_id", "customers",
               lambda r: {"email": r["email"].upper(), "zip_code": r["zip_code"]},
               lambda r: {"email": "someone.else@example.com", "zip_code": r["zip_code"]}, "email_zip"),
    "banking": ("find_customer", "verify_identity", "customer_id", "customers",
                lambda r: {"date_of_birth": r["date_of_birth"], "zip_code": r["zip_code"]},
                lambda r: {"date_of_birth": "1900-01-01", "zip_code": r["zip_code"]}, "dob_zip"),
    "auto_insurance": ("find_policyholder", "verify_identity", "policyholder_id", "policyholders",
                       lambda r: {"date_of_birth": r["date_of_birth"], "zip_code": r["zip_code"]},
                       lambda r: {"date_of_birth": r["date_of_birth"], "zip_code": "00000"}, "dob_zip"),
    "travel": ("find_traveller", "verify_traveller", "traveller_id", "travellers",
               lambda r: {"email": r["email"], "employee_id": r["employee_id"].lower()},
               lambda r: {"email": r["email"], "employee_id": "E00000"}, "email_employee"),
    "consulting": ("find_employee", "verify_identity", "employee_id", "employees",
                   lambda r: {"date_of_birth": r["date_of_birth"]},
                   lambda r: {"mobile_last4": "0000" if not r["mobile_phone"].endswith("0000") else "1111"},
                   "date_of_birth"),
}


@pytest.mark.parametrize("name", sorted(IDENTITY))
def test_every_desk_finds_by_name_in_any_case_and_records_one_verification(name):
    from tb_env.components.identity import VERIFICATION_FAILED

    find, verify, key, table, proof, wrong, method = IDENTITY[name]

    async def body(db: Database, call: Call) -> None:
        active = " AND account_status != 'disabled'" if name == "consulting" else ""
        person = await db.one(f"SELECT * FROM {table} WHERE id NOT IN "
                              f"(SELECT {key} FROM identity_verifications){active} ORDER BY id")
        found = await call(find, last_name=f"  {person['last_name'].upper()} ", first_name=person["first_name"].lower())
        assert person["id"] in [row[key] for row in found]
        count = f"SELECT COUNT(*) AS n FROM identity_verifications WHERE {key} = :p"

        refused = await call(verify, **{key: person["id"]}, **wrong(person))
        assert refused == f"Error: {VERIFICATION_FAILED}"
        assert (await db.one(count, p=person["id"]))["n"] == 0  # nothing recorded

        for _ in range(2):  # verifying again is harmless: still one row
            assert (await call(verify, **{key: person["id"]}, **proof(person)))["verified"] is True
        row = await db.one(f"SELECT * FROM identity_verifications WHERE {key} = :p", p=person["id"])
        assert row["method"] == method and row["id"].startswith("V-")
        assert (await db.one(count, p=person["id"]))["n"] == 1

    on_copy(name, body)
