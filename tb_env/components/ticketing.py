"""The support-ticket system of a service desk, written once and included by each domain.

Every desk keeps tickets the same way: a ticket belongs to one person (the customer,
traveller, policyholder, employee), may be about a few of their records (an order, a
claim), gets notes, is escalated to people who call back, and is closed (or resolved)
in the end. What differs between desks is vocabulary and a few rules, so a domain
states those once, in a `Ticketing` value, and gets from it:

- the tables, `tickets` and `ticket_notes`, declared on its metadata (`declare`);
- the tools (`tools`): `get_ticket`, the list tool named as the domain likes
  (`list_customer_tickets`), `create_ticket`, `add_ticket_note`,
  `update_ticket_status`, `escalate_ticket`; real `tb_env.domain.tool` tools whose
  schema names the domain's columns, statuses, categories and id formats;
- the "Support tickets" section of its policy (`into_policy` puts it where the
  domain's policy.md says `{{ticketing}}`).

    TICKETING = Ticketing(
        party=Party("customer_id", "customers.id", noun="customer", example="C-0042"),
        links=(Link("order_id", "orders.id", noun="order", example="O-1001", one_open_ticket=True),),
        categories=("shipping", "refund", "other"),
        list_tool="list_customer_tickets",
        policy=TicketPolicy(escalate_when="when the customer explicitly asks for a manager"),
    )
    TICKETING.declare(Base.metadata)                      # schema.py
    Domain(..., tools=[*collect_tools(tools), *TICKETING.tools],
           policy=TICKETING.into_policy(policy_md))       # __init__.py

What the state check sees: ticket status, priority, owner and links are compared;
subject, category (unless `graded_category`), escalation reason and timestamps are
volatile; notes are left out of the check (a task that needs one asserts it).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

import sqlalchemy as sa

from tb_env.domain.database import Database
from tb_env.domain.tool import Param, Tool, compose_tool
from tb_env.errors import DomainError, ToolError

POLICY_MARK = "{{ticketing}}"
VOLATILE = {"volatile": True}


def _or(words: list[str]) -> str:
    """`a`, `a or b`, `a, b or c`."""
    return " or ".join([", ".join(words[:-1]), words[-1]] if len(words) > 2 else words)


def _a(phrase: str) -> str:
    return f"{'an' if phrase[:1].lower() in 'aeiou' else 'a'} {phrase}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Party:
    """Who a ticket is for: the owner column of `tickets` and the table it points to.

    `verified`: the desk serves only people who proved who they are, so the tools say
    "a verified customer"; False where a ticket may be for someone else than the caller
    (a manager opening one for a report). `caller`: how the policy calls the person on
    the line, if not `noun`. `find_tool`: named when an owner id is unknown."""

    column: str  # customer_id
    target: str  # customers.id (the owner table's primary key)
    noun: str  # customer
    example: str  # C-0042
    verified: bool = True
    caller: str = ""
    find_tool: str = ""

    @property
    def table(self) -> str:
        return self.target.split(".")[0]

    @property
    def key(self) -> str:
        return self.target.split(".")[1]


@dataclass(frozen=True)
class Link:
    """A record a ticket may be about: a nullable column of `tickets` and an optional
    argument of `create_ticket`.

    `target` None makes a free reference (any record's id, stored upper-cased, not
    checked). Otherwise the record must exist and belong to the ticket's owner: its
    `owner` column (default: the party's column name) holds the owner id, or a dotted
    path follows a foreign key first (a claim's owner is `policy_id.policyholder_id`).
    `one_open_ticket`: a record has at most one ticket that is not done. `fills`:
    ticket columns taken from the record when the agent did not give them (a claim
    gives the ticket its policy)."""

    column: str  # order_id
    target: str | None  # orders.id
    noun: str  # order
    example: str  # O-1001
    kinds: str = ""  # what a free reference may point to, for the argument's description
    owner: str = ""
    one_open_ticket: bool = False
    fills: tuple[str, ...] = ()

    @property
    def table(self) -> str:
        return (self.target or "").split(".")[0]

    @property
    def key(self) -> str:
        return (self.target or ".").split(".")[1]


@dataclass(frozen=True)
class Escalation:
    """Who takes an escalated ticket, and when they call back (the tool says it, the policy
    has the agent tell the caller). With `teams`, the agent picks the team
    (`escalate_ticket(team=...)`), tickets get an `assigned_team` column that starts as
    `home_team`."""

    to: str = "the specialist team"  # "Hand a ticket to ..."
    who: str = "a specialist"  # "... contacts the customer ..."
    within: str = "within one business day"
    teams: tuple[str, ...] = ()
    home_team: str = "service_desk"


@dataclass(frozen=True)
class TicketPolicy:
    """The domain's own rules for tickets; the shared sentences of the section are built
    around them (see `Ticketing.policy_section`).

    `escalate_when`: "when a manager denies a refund approval, or when ...".
    `note_examples`: the kinds of action that earn a note on a mentioned ticket.
    `create_also`: when else a ticket is opened than to escalate ("where this policy says
    so (injury claims) or"). `keep_open_while`: when a ticket must not be closed even if
    asked. `closing`: the domain's rule for the final status, where not "close it when the
    caller asks or confirms the issue is resolved" (then closing, like escalating, needs
    no note of its own)."""

    escalate_when: str
    note_examples: str = ""
    create_also: str = ""
    keep_open_while: str = ""
    closing: str = ""


@dataclass(frozen=True)
class Ticketing:
    """One domain's ticket desk (see the module docstring).

    Statuses: `open` on creation, `escalated` by `escalate_ticket`, `done` at the end
    (escalation refuses a done ticket; it must be reopened), and `waiting` if the desk
    parks tickets (`pending`). `priorities`: those the agent chooses from when opening a
    ticket; empty, every ticket opens `normal`. Escalation makes it `high` either way.
    `extra_columns`: columns of the domain's own on `tickets` (shown by the tools, set by
    the domain's tools); a Column belongs to one table, so declare once."""

    party: Party
    categories: tuple[str, ...]
    policy: TicketPolicy
    links: tuple[Link, ...] = ()
    list_tool: str = "list_tickets"
    ticket_example: str = "T-1042"
    escalation: Escalation = Escalation()
    done: str = "closed"
    waiting: str | None = None
    priorities: tuple[str, ...] = ()
    graded_category: bool = False
    note_hint: str = ""  # a sentence more for add_ticket_note
    extra_columns: tuple[sa.Column[Any], ...] = ()
    first_new_id: int = 9001  # T-9001, N-9001: ids in golden calls do not depend on the seed
    upper_ids: bool = True  # ids are upper case (T-1042): what the agent types is upper-cased

    # -- tables -------------------------------------------------------------------------

    def declare(self, metadata: sa.MetaData) -> tuple[sa.Table, sa.Table]:
        """Add `tickets` and `ticket_notes` to the domain's metadata."""
        links = [
            sa.Column(link.column, sa.ForeignKey(link.target) if link.target else sa.String(16), nullable=True)
            for link in self.links
        ]
        team = [sa.Column("assigned_team", sa.String(16), server_default=sa.text(f"'{self.escalation.home_team}'"),
                          nullable=False)] if self.escalation.teams else []
        tickets = sa.Table(
            "tickets",
            metadata,
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column(self.party.column, sa.ForeignKey(self.party.target), nullable=False, index=True),
            *links,
            sa.Column("subject", sa.String(256), nullable=False, info=VOLATILE),
            # the agent's triage label: graded only where the desk routes on it
            sa.Column("category", sa.String(16), nullable=False, info={} if self.graded_category else VOLATILE),
            sa.Column("status", sa.String(16), server_default=sa.text("'open'"), nullable=False),
            sa.Column("priority", sa.String(16), server_default=sa.text("'normal'"), nullable=False),
            *team,
            sa.Column("escalation_reason", sa.Text, nullable=True, info=VOLATILE),
            sa.Column("created_at", sa.String(32), nullable=False, info=VOLATILE),
            *self.extra_columns,
        )
        # free-text history: documenting in two notes instead of one is not a mistake
        notes = sa.Table(
            "ticket_notes",
            metadata,
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column("ticket_id", sa.ForeignKey("tickets.id"), nullable=False, index=True),
            sa.Column("author", sa.String(16), nullable=False),  # agent | customer | system | ...
            sa.Column("body", sa.Text, nullable=False),
            sa.Column("created_at", sa.String(32), nullable=False),
            info={"checked": False},
        )
        return tickets, notes

    # -- policy -------------------------------------------------------------------------

    def policy_section(self) -> str:
        """The "Support tickets" section of the domain's policy, in markdown."""
        p, esc = self.policy, self.escalation
        caller = self.party.caller or self.party.noun
        examples = f" ({p.note_examples})" if p.note_examples else ""
        recorded = "Escalating a ticket is" if p.closing else "Closing or escalating a ticket is"
        live = f"open or {self.waiting}" if self.waiting else "open"
        closing = p.closing or (
            f"Close a ticket (`update_ticket_status` with `{self.done}`) only when the {caller} asks "
            "for it or confirms the issue is resolved."
        )
        if p.keep_open_while:
            closing += (
                f" Never set a ticket `{self.done}` while {p.keep_open_while}, even if the {caller} asks: "
                "leave its status as it is, add a note that they asked, and explain why it stays open."
            )
        linked = f", linked to the {_or([link.noun for link in self.links])} it is about" if self.links else ""
        bullets = [
            f"Look at the {caller}'s existing tickets (`{self.list_tool}`, `get_ticket`) when they mention one "
            "or when their issue is already being handled.",
            f"When you act on an issue that has an {live} ticket the {caller} mentioned{examples}, add a note "
            f"to that ticket (`add_ticket_note`) saying what you did. {recorded} recorded by itself and needs "
            "no separate note.",
            "Do not open a new ticket for something you resolve during the conversation. Create a ticket "
            f"only {p.create_also + ' ' if p.create_also else ''}to escalate a case that has no ticket yet.",
            closing,
            f"**Escalate** (`escalate_ticket`) {p.escalate_when}: escalate the {caller}'s existing ticket "
            f"about the case or, if there is none, create one (`create_ticket`{linked}) and escalate it. "
            f"Escalating sets the ticket to `escalated`; tell the {caller} {esc.who} will contact them "
            f"{esc.within}.",
        ]
        body = "\n".join(textwrap.fill(b, 90, initial_indent="- ", subsequent_indent="  ") for b in bullets)
        return f"## Support tickets\n\n{body}\n"

    def into_policy(self, policy: str) -> str:
        """The domain's policy with the ticket section where it says `{{ticketing}}`."""
        if policy.count(POLICY_MARK) != 1:
            raise DomainError(
                f"a policy that includes the ticketing component needs {POLICY_MARK} on a line of its own, "
                f"once, where the 'Support tickets' section goes (found {policy.count(POLICY_MARK)})"
            )
        return policy.replace(POLICY_MARK, self.policy_section().rstrip("\n"))

    # -- tools --------------------------------------------------------------------------

    @cached_property
    def tools(self) -> list[Tool]:
        """The ticket tools, in the words of this domain."""
        party, esc = self.party, self.escalation
        ticket_id = Param("ticket_id", str, f'The ticket id, like "{self.ticket_example}".')
        owner = Param(party.column, str, f'The {party.noun} id, like "{party.example}".')
        whom = _a(f"verified {party.noun}" if party.verified else party.noun)
        nouns = _or([link.noun for link in self.links]) if self.links else ""
        one_open = [link.noun for link in self.links if link.one_open_ticket]
        statuses = ["open", *([self.waiting] if self.waiting else []), self.done]

        create_params = [
            owner,
            Param("subject", str, "A one-line summary of the case."),
            Param("category", Literal[self.categories], "The kind of case."),  # type: ignore[valid-type]
        ]
        if self.priorities:
            create_params.append(Param("priority", Literal[self.priorities], "How urgent it is.", "normal"))  # type: ignore[valid-type]
        for link in self.links:
            kinds = f" ({link.kinds})" if link.kinds else ""
            about = f'The {link.noun} the case is about, if any{kinds}, like "{link.example}".'
            create_params.append(Param(link.column, str | None, about, None))
        escalate_params = [ticket_id]
        to = esc.to
        if esc.teams:
            escalate_params.append(Param("team", Literal[esc.teams], "The team that takes it over."))  # type: ignore[valid-type]
            to += f" ({_or(list(esc.teams))})"
        escalate_params.append(Param("reason", str, f"Why the case needs {esc.who}, in a sentence."))
        waiting = f", `{self.waiting}` while it waits on someone or a later date" if self.waiting else ""

        return [
            compose_tool("read", self.list_tool, f"The support tickets of {whom}, newest first.", [owner], self._list),
            compose_tool(
                "read",
                "get_ticket",
                f"A support ticket{f' with the {nouns} it is linked to,' if nouns else ''} and all its notes, "
                "oldest first.",
                [ticket_id],
                self._get,
            ),
            compose_tool(
                "write",
                "create_ticket",
                f"Open a support ticket for {whom}{f', linked to the {nouns} it is about' if nouns else ''}."
                + (f" Refuses if the {_or(one_open)} already has a ticket that is not {self.done}." if one_open else ""),
                create_params,
                self._create,
            ),
            compose_tool(
                "write",
                "add_ticket_note",
                f"Add a note to a ticket's history: what the {party.caller or party.noun} asked, what you did "
                f"and why.{' ' + self.note_hint if self.note_hint else ''}",
                [ticket_id, Param("note", str, "The note text.")],
                self._note,
            ),
            compose_tool(
                "write",
                "update_ticket_status",
                f"Set a ticket's status: `{self.done}` once the case is done{waiting}, or `open` again to "
                "reopen it.",
                [ticket_id, Param("status", Literal[tuple(statuses)], "The new status.")],  # type: ignore[valid-type]
                self._set_status,
            ),
            compose_tool(
                "write",
                "escalate_ticket",
                f"Hand a ticket to {to}: status `escalated`, priority high. {_cap(esc.who)} contacts the "
                f"{party.noun} {esc.within}.",
                escalate_params,
                self._escalate,
            ),
        ]

    # -- what the tools do ----------------------------------------------------------------

    def _id(self, value: str) -> str:
        return value.strip().upper() if self.upper_ids else value.strip()

    async def _ticket(self, db: Database, ticket_id: str) -> dict[str, Any]:
        row = await db.get("tickets", self._id(ticket_id))
        if row is None:
            raise ToolError(f"No ticket with id {ticket_id!r}. Ticket ids look like '{self.ticket_example}'.")
        return row

    async def _owner(self, db: Database, owner_id: str) -> dict[str, Any]:
        party = self.party
        row = await db.get(party.table, self._id(owner_id))
        if row is None:
            hint = f"Use {party.find_tool} to look up the id." if party.find_tool else (
                f"{_cap(party.noun)} ids look like '{party.example}'."
            )
            raise ToolError(f"No {party.noun} with id {owner_id!r}. {hint}")
        return row

    async def _owner_of(self, db: Database, link: Link, row: dict[str, Any]) -> Any:
        """The owner id of a linked record, following foreign keys along `link.owner`."""
        *hops, column = (link.owner or self.party.column).split(".")
        table = link.table
        for hop in hops:
            table = next(iter(db.table(table).c[hop].foreign_keys)).column.table.name
            row = await db.get(table, row[hop]) or {}
        return row.get(column)

    async def _linked(self, db: Database, link: Link, owner_id: Any, value: str) -> dict[str, Any]:
        """The record a new ticket is about, checked: it exists, is the owner's, and (if the
        desk says so) has no other ticket that is not done."""
        noun = _cap(link.noun)
        row = await db.get(link.table, self._id(value))
        if row is None:
            raise ToolError(f"No {link.noun} with id {value!r}. {noun} ids look like '{link.example}'.")
        key = row[link.key]
        if await self._owner_of(db, link, row) != owner_id:
            raise ToolError(f"{noun} {key} does not belong to {self.party.noun} {owner_id}.")
        if link.one_open_ticket:
            existing = await db.scalar(
                f"SELECT id FROM tickets WHERE {link.column} = :k AND status <> :done ORDER BY id", k=key, done=self.done
            )
            if existing:
                raise ToolError(f"{noun} {key} already has ticket {existing} that is not {self.done}; use it.")
        return row

    def _view(self, t: dict[str, Any]) -> dict[str, Any]:
        return {"ticket_id": t["id"], **{k: v for k, v in t.items() if k not in ("id", "escalation_reason")}}

    async def _list(self, db: Database, **arguments: str) -> list[dict[str, Any]]:
        owner = await self._owner(db, arguments[self.party.column])
        rows = await db.all(
            f"SELECT * FROM tickets WHERE {self.party.column} = :o ORDER BY created_at DESC, id DESC",
            o=owner[self.party.key],
        )
        return [self._view(t) for t in rows]

    async def _get(self, db: Database, ticket_id: str) -> dict[str, Any]:
        t = await self._ticket(db, ticket_id)
        notes = await db.all(
            "SELECT id, author, body, created_at FROM ticket_notes WHERE ticket_id = :t ORDER BY created_at, id",
            t=t["id"],
        )
        return {**self._view(t), "notes": [
            {"note_id": n["id"], "author": n["author"], "body": n["body"], "created_at": n["created_at"]} for n in notes
        ]}

    async def _create(
        self, db: Database, subject: str, category: str, priority: str = "normal", **given: Any
    ) -> dict[str, Any]:
        owner_id = (await self._owner(db, given.pop(self.party.column)))[self.party.key]
        values: dict[str, Any] = {self.party.column: owner_id}
        for link in self.links:
            value = given.get(link.column)
            if not value:
                values.setdefault(link.column, None)
            elif link.target is None:
                values[link.column] = self._id(value)
            else:
                row = await self._linked(db, link, owner_id, value)
                values[link.column] = row[link.key]
                for column in link.fills:
                    if values.get(column) is None:
                        values[column] = row[column]
        ticket = await db.insert(
            "tickets",
            id=await db.next_id("tickets", "T", start=self.first_new_id),
            **values,
            subject=subject,
            category=category,
            status="open",
            priority=priority,
            created_at=db.now,
        )
        return self._view(ticket)

    async def _note(self, db: Database, ticket_id: str, note: str) -> dict[str, Any]:
        t = await self._ticket(db, ticket_id)
        if not note.strip():
            raise ToolError("The note is empty.")
        row = await db.insert(
            "ticket_notes",
            id=await db.next_id("ticket_notes", "N", start=self.first_new_id),
            ticket_id=t["id"],
            author="agent",
            body=note.strip(),
            created_at=db.now,
        )
        return {"note_id": row["id"], "ticket_id": t["id"]}

    async def _set_status(self, db: Database, ticket_id: str, status: str) -> dict[str, Any]:
        t = await self._ticket(db, ticket_id)
        if t["status"] != status:
            await db.update("tickets", t["id"], status=status)
        return {"ticket_id": t["id"], "status": status}

    async def _escalate(self, db: Database, ticket_id: str, reason: str, team: str | None = None) -> dict[str, Any]:
        t = await self._ticket(db, ticket_id)
        if t["status"] == self.done:
            raise ToolError(f"Ticket {t['id']} is {self.done}; reopen it first or open a new ticket.")
        routed = {"assigned_team": team} if team else {}
        if t["status"] != "escalated" or (team and t["assigned_team"] != team):
            await db.update("tickets", t["id"], status="escalated", priority="high", escalation_reason=reason, **routed)
        return {"ticket_id": t["id"], "status": "escalated", "priority": "high", **routed}


# the verbs a reply reports the component's writes in (a domain's `Templates(claims=...)`): "I've escalated it"
# after no escalation is a claim of a write never made (`tb_env.kit.spec.unasked_writes`)
# (a ticket opened or noted for someone is handed on: "I've escalated it to your adjuster" tells it)
CLAIMS: dict[str, tuple[str, ...]] = {"escalate_ticket": ("escalate",), "update_ticket_status": ("close", "resolve"),
                                      "create_ticket": ("escalate",), "add_ticket_note": ("escalate",)}
