"""`tb-env new-domain NAME`: a working domain pack to start from.

Customers and their items, two item tools, the shared ticketing component
(`tb_env.components.ticketing`), one task template written with the kit
(`generate.py`, which the scaffold runs once to write its tasks) and one hand-written
task beside it. The pack validates, probes included, as soon as it is written, so a
team starts from green and changes one thing at a time.
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path

from tb_env.domain.pack import gym_name
from tb_env.errors import ConfigError

FILES: dict[str, str] = {
    "__init__.py": '''"""The {name} domain pack: schema, seed data, policy, tools and tasks, in this folder."""

from pathlib import Path

from tb_env.domain import Domain, collect_tools

from . import schema, seed, tools
from .tickets import TICKETING

HERE = Path(__file__).parent

domain = Domain(
    name="{name}",
    metadata=schema.Base.metadata,
    seed=seed.build,
    policy=TICKETING.into_policy((HERE / "policy.md").read_text()),
    tools=[*collect_tools(tools), *TICKETING.tools],
    tasks_dir=HERE / "tasks",
    now="2026-11-30T12:00:00Z",
)
''',
    "tickets.py": '''"""Support tickets: tb-env's shared ticketing component, in this desk's words. A ticket is
a customer's and may be about one of their items (one open ticket per item)."""

from tb_env.components.ticketing import Escalation, Link, Party, Ticketing, TicketPolicy

TICKETING = Ticketing(
    party=Party("customer_id", "customers.id", noun="customer", example="C-0001", find_tool="find_customer"),
    links=(Link("item_id", "items.id", noun="item", example="I-0001", one_open_ticket=True),),
    categories=("item", "account", "other"),
    list_tool="list_customer_tickets",
    ticket_example="T-0001",
    escalation=Escalation(to="the support lead", who="the support lead", within="within one business day"),
    policy=TicketPolicy(escalate_when="when the customer asks for a manager"),
)
''',
    "schema.py": '''"""The {name} database: SQLAlchemy models. Add tables here; each needs a one-column key."""

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .tickets import TICKETING


class Base(DeclarativeBase):
    pass


class Customer(Base):
    __tablename__ = "customers"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    email: Mapped[str] = mapped_column(String)


class Item(Base):
    __tablename__ = "items"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"))
    status: Mapped[str] = mapped_column(String, server_default="active")
    # free text is "volatile": the state check ignores it (agents word things differently)
    note: Mapped[str | None] = mapped_column(Text, nullable=True, info={{"volatile": True}})


TICKETING.declare(Base.metadata)  # tickets, ticket_notes
''',
    "seed.py": '''"""Base rows for every episode: deterministic (a fixed seed, no clock, no network)."""

import random


def build() -> dict[str, list[dict]]:
    rng = random.Random(1234)
    names = ["anchor", "beacon", "cobalt", "delta", "ember", "fjord", "granite", "harbor"]
    customers = [{{"id": f"C-{{i:04d}}", "name": f"Customer {{i}}", "email": f"customer{{i}}@example.com"}} for i in range(1, 21)]
    items = [
        {{
            "id": f"I-{{i:04d}}",
            "name": f"{{rng.choice(names)}}-{{i}}",
            "customer_id": f"C-{{1 + i % 20:04d}}",
            "status": rng.choice(["active", "active", "paused"]),
        }}
        for i in range(1, 101)
    ]
    return {{"customers": customers, "items": items}}
''',
    "policy.md": '''# {title} support policy

You help customers with their items. Today is 2026-11-30.

- Find the customer with `find_customer` (by e-mail). Before changing an item, make sure it
  is theirs: the e-mail they give must be the owner's.
- An item can be paused or reactivated at the owner's request; "archived" items cannot change.
- Always tell the customer the item's resulting status. Never invent ids, amounts or dates:
  read them from the tools.
- When you change an item that has an open ticket, add a note to that ticket saying what you did.

{{{{ticketing}}}}
''',
    "tools.py": '''"""The {name} tools. Each is an async function over the episode's database; the docstring
is what the model reads, and `@read` / `@write` says whether it changes state. The ticket
tools come from the shared component (`tickets.py`)."""

from typing import Literal

from tb_env.domain.database import Database
from tb_env.domain.tool import read, write
from tb_env.errors import ToolError


@read
async def find_customer(db: Database, email: str) -> dict:
    """Find a customer by e-mail: their id, name and items.

    Args:
        email: The customer's e-mail address.
    """
    row = await db.one("SELECT id, name FROM customers WHERE LOWER(email) = LOWER(:e)", e=email.strip())
    if row is None:
        raise ToolError(f"No customer with e-mail {{email!r}}.")
    items = await db.all("SELECT id, name, status FROM items WHERE customer_id = :c ORDER BY id", c=row["id"])
    return {{"customer_id": row["id"], "name": row["name"], "items": items}}


@read
async def get_item(db: Database, item_id: str) -> dict:
    """Look up one item: its name, owner and status.

    Args:
        item_id: The item id, like "I-0001".
    """
    row = await db.get("items", item_id.strip())
    if row is None:
        raise ToolError(f"No item {{item_id}}.")
    return row


@write
async def set_item_status(db: Database, item_id: str, owner_email: str, status: Literal["active", "paused"]) -> dict:
    """Pause or reactivate an item. The e-mail must be the item owner's.

    Args:
        item_id: The item id.
        owner_email: The e-mail the customer gave, checked against the owner's.
        status: The new status.
    """
    row = await db.get("items", item_id.strip())
    if row is None:
        raise ToolError(f"No item {{item_id}}.")
    owner = await db.get("customers", row["customer_id"])
    if owner is None or owner["email"].lower() != owner_email.strip().lower():
        raise ToolError("That e-mail is not the owner's; the item was not changed.")
    if row["status"] == "archived":
        raise ToolError("Archived items cannot change.")
    await db.update("items", row["id"], status=status)
    return await db.get("items", row["id"])
''',
    "generate.py": '''"""The {name} task templates, written with tb-env's kit: `python generate.py` writes
tasks/<split>/gen_<template>.yaml; `--check` says whether they are current; `--validate`
runs `tb-env validate`'s contract and probes on them (the pack is registered from this folder)."""

from pathlib import Path

from tb_env.kit import (
    Caller, Golden, Pool, Scene, TaskSpec, Templates, call, drop, exists, fact, outcome, replace, says, unchanged,
)

templates = Templates(
    "{name}",
    Path(__file__).parent / "tasks",
    # ids the seed does not use, and different ranges per split: train and test never share a record
    pool=lambda split: Pool(split, bases={{"C": {{"test": 5000, "train": 6000}}, "I": {{"test": 5000, "train": 6000}},
                                          "T": {{"test": 5000, "train": 6000}}}}),
    generator="generate.py",
)


@templates.template("pause one of two items; the item's open ticket gets a note", counts={{"test": 2, "train": 2}})
def pause_item(s: Scene, n: int) -> TaskSpec:
    first = s.rng.choice(["Sam", "Robin", "Alex", "Kim", "Noor", "Lee"])
    customer = s.add("customers", {{"id": s.pool.id("C"), "name": f"{{first}} Doe", "email": f"{{first.lower()}}{{n}}@example.com"}})
    item, other = (
        s.add("items", {{"id": s.pool.id("I"), "name": name, "customer_id": customer["id"], "status": "active"}})
        for name in ("kettle", "lamp")
    )
    ticket = s.add("tickets", {{
        "id": s.pool.id("T"), "customer_id": customer["id"], "item_id": item["id"], "subject": "Item misbehaving",
        "category": "item", "status": "open", "priority": "normal", "created_at": "2026-11-28T10:00:00Z",
    }})
    g = Golden()
    g.add("find_customer", email=customer["email"])
    k = g.add("set_item_status", item_id=item["id"], owner_email=customer["email"], status="paused")
    note = g.add("add_ticket_note", ticket_id=ticket["id"], note=f"Paused {{item['id']}} at the customer's request.")
    return TaskSpec(
        caller=Caller(
            persona=f"{{customer['name']}}, who owns items {{item['id']}} and {{other['id']}}.",
            goal=f"Pause item {{item['id']}} (not {{other['id']}}) and hear its new status.",
            first_message=f"Hi, please pause my item {{item['id']}} while you look into ticket {{ticket['id']}}.",
            facts={{"email": customer["email"], "item_id": item["id"], "ticket_id": ticket["id"]}},
        ),
        patch=s.patch(),
        golden=g,
        reply=f"Done: item {{item['id']}} is now paused, and I have noted it on ticket {{ticket['id']}}.",
        assertions=[
            exists("items", id=item["id"], status="paused"),
            unchanged("items", other["id"], "status"),
            exists("ticket_notes", ticket_id=ticket["id"]),
            says(fact("paused", "the policy says to tell the customer the item's resulting status")),
            # the reply must not say otherwise ("I couldn't pause it", "the pause is pending"), about this item
            outcome("pause", "done", "the customer asked to pause it, and it was", record=[item["id"]], others=[other["id"]]),
        ],
        wrong=[
            replace({{k: call("set_item_status", item_id=other["id"], owner_email=customer["email"], status="paused")}},
                    "wrong_entity", "pauses the other item"),
            drop(note, note="forgets the note on the item's open ticket"),
            drop(k, note="never pauses the item"),
        ],
        kind="single_write", difficulty="easy", skills=["ownership", "tickets"],
    )


if __name__ == "__main__":
    raise SystemExit(templates.main())
''',
    "tasks/status_question.yaml": """# A hand-written task: the same format the templates write (see docs/adding-a-domain.md).
- id: {name}/item-status-question-001
  split: test
  eval_only: true
  tags: {{difficulty: easy, kind: read_only, template: status-question}}
  user:
    persona: Robin, owner of item I-0007.
    goal: Learn whether item I-0007 is active.
    known_facts: {{item_id: I-0007, email: robin@example.com}}
    first_message: Is my item I-0007 still active?
  initial_patch:
    customers: [{{id: C-0900, name: Robin Roe, email: robin@example.com}}]
    items: [{{id: I-0007, name: ember-7, customer_id: C-0900, status: paused}}]
  golden_actions:
    - {{name: get_item, arguments: {{item_id: I-0007}}}}
  golden_reply: Item I-0007 is currently paused.
  assertions:
    - response_contains:
        facts: [{{fact: paused, aliases: [not active, on hold], why: the customer asked whether the item is active}}]
  wrong_paths:
    - {{tag: wrong_reply, reply: Item I-0007 is active.}}
    - {{tag: extra_write, append: [{{name: set_item_status, arguments: {{item_id: I-0007, owner_email: robin@example.com, status: active}}}}]}}
""",
}


def scaffold(name: str, path: str | Path | None = None) -> Path:
    """Write a new domain pack named `name` into `path` (default: ./NAME), then run its
    generator once so its templated tasks exist."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ConfigError(f"domain name {name!r} must be lower_snake_case (letters, digits, _), starting with a letter")
    folder = Path(path) if path else Path(name)
    if folder.exists() and any(folder.iterdir()):
        raise ConfigError(f"{folder} exists and is not empty; choose another --path")
    title = gym_name(name)
    for rel, text in FILES.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text.format(name=name, title=title))
    runpy.run_path(str(folder / "generate.py"))["templates"].main([])
    return folder
