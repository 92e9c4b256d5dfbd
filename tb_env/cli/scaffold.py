"""`tb-env new-domain NAME`: a working domain pack to start from.

One table, one read tool, one write tool and two tasks (a read-only question and a
single write), each with wrong paths; the pack validates as soon as it is written, so a
team starts from green and changes one thing at a time.
"""

from __future__ import annotations

import re
from pathlib import Path

from tb_env.domain.pack import gym_name
from tb_env.errors import ConfigError

FILES: dict[str, str] = {
    "__init__.py": '''"""The {name} domain pack: schema, seed data, policy, tools and tasks, in this folder."""

from pathlib import Path

from tb_env.domain import Domain, collect_tools

from . import schema, seed, tools

HERE = Path(__file__).parent

domain = Domain(
    name="{name}",
    metadata=schema.Base.metadata,
    seed=seed.build,
    policy=(HERE / "policy.md").read_text(),
    tools=collect_tools(tools),
    tasks_dir=HERE / "tasks",
    now="2026-11-30T12:00:00Z",
)
''',
    "schema.py": '''"""The {name} database: SQLAlchemy models. Add tables here; each needs a one-column key."""

from sqlalchemy import String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Item(Base):
    __tablename__ = "items"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    owner_email: Mapped[str] = mapped_column(String)
    status: Mapped[str] = mapped_column(String, server_default="active")
    # free text is "volatile": the state check ignores it (agents word things differently)
    note: Mapped[str | None] = mapped_column(Text, nullable=True, info={{"volatile": True}})
''',
    "seed.py": '''"""Base rows for every episode: deterministic (a fixed seed, no clock, no network)."""

import random


def build() -> dict[str, list[dict]]:
    rng = random.Random(1234)
    names = ["anchor", "beacon", "cobalt", "delta", "ember", "fjord", "granite", "harbor"]
    items = [
        {{
            "id": f"I-{{i:04d}}",
            "name": f"{{rng.choice(names)}}-{{i}}",
            "owner_email": f"owner{{i % 20}}@example.com",
            "status": rng.choice(["active", "active", "paused"]),
        }}
        for i in range(1, 101)
    ]
    return {{"items": items}}
''',
    "policy.md": '''# {title} support policy

You help customers with their items. Today is 2026-11-30.

- Before changing an item, confirm that the customer's e-mail matches the item's owner.
- An item can be paused or reactivated at the owner's request; "archived" items cannot change.
- Always tell the customer the item's resulting status.
''',
    "tools.py": '''"""The {name} tools. Each is an async function over the episode's database; the docstring
is what the model reads, and `@read` / `@write` says whether it changes state."""

from typing import Literal

from tb_env.domain.database import Database
from tb_env.errors import ToolError
from tb_env.domain.tool import read, write


@read
async def get_item(db: Database, item_id: str) -> dict:
    """Look up one item: its name, owner e-mail and status.

    Args:
        item_id: The item id, like "I-0001".
    """
    row = await db.get("items", item_id)
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
    row = await db.get("items", item_id)
    if row is None:
        raise ToolError(f"No item {{item_id}}.")
    if row["owner_email"].lower() != owner_email.strip().lower():
        raise ToolError("That e-mail is not the owner's; the item was not changed.")
    if row["status"] == "archived":
        raise ToolError("Archived items cannot change.")
    await db.update("items", item_id, status=status)
    return await db.get("items", item_id)
''',
    "tasks/tasks.yaml": """- id: {name}/item-status-question-001
  split: test
  eval_only: true
  tags: {{difficulty: easy, kind: read_only, template: status-question}}
  user:
    persona: Robin, owner of item I-0007.
    goal: Learn whether item I-0007 is active.
    known_facts: {{item_id: I-0007, email: robin@example.com}}
    first_message: Is my item I-0007 still active?
    scripted_turns: [Thanks, that's all.]
  initial_patch:
    items: [{{id: I-0007, owner_email: robin@example.com, status: paused}}]
  golden_actions:
    - {{name: get_item, arguments: {{item_id: I-0007}}}}
  golden_reply: Item I-0007 is currently paused.
  assertions:
    - response_contains: [paused]
  wrong_paths:
    - {{tag: wrong_reply, reply: Item I-0007 is active.}}
    - {{tag: extra_write, append: [{{name: set_item_status, arguments: {{item_id: I-0007, owner_email: robin@example.com, status: active}}}}]}}

- id: {name}/pause-item-001
  split: train
  tags: {{difficulty: easy, kind: single_write, template: pause-item}}
  user:
    persona: Sam, owner of item I-0012.
    goal: Pause item I-0012.
    known_facts: {{item_id: I-0012, email: sam@example.com}}
    first_message: Please pause my item I-0012. My e-mail is sam@example.com.
    scripted_turns: [Great, thanks.]
  initial_patch:
    items:
      - {{id: I-0012, owner_email: sam@example.com, status: active}}
      - {{id: I-0013, owner_email: sam@example.com, status: active}}
  golden_actions:
    - {{name: set_item_status, arguments: {{item_id: I-0012, owner_email: sam@example.com, status: paused}}}}
  golden_reply: Done, item I-0012 is now paused.
  assertions:
    - response_contains: [paused]
  wrong_paths:
    - {{tag: wrong_entity, replace: {{0: {{name: set_item_status, arguments: {{item_id: I-0013, owner_email: sam@example.com, status: paused}}}}}}}}
    - {{tag: missing_step, drop: [0]}}
""",
}


def scaffold(name: str, path: str | Path | None = None) -> Path:
    """Write a new domain pack named `name` into `path` (default: ./NAME)."""
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
    return folder
