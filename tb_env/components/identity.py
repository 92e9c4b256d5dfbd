"""Identity verification as every service desk here does it: look a person up by name,
check the details they give, record once that they proved who they are.

Each pack keeps its own verify tool, because what counts as proof is the domain's (a
date of birth and a zip code at the bank, an email and an order id at the shop); what
repeats is the rest, and it lives here so that a fix is one fix:

- `declare`: the `identity_verifications` table (one row per person, its id, method and
  time volatile, so two agents who verify the same person differently grade alike);
- `name_filter`: the case-insensitive last-name (and first-name) condition of a look-up;
- `check`: the one refusal a failed verification gives, naming nothing about which
  detail was wrong (a caller probing for data learns nothing);
- `record_verification`: the row, written only the first time, so verifying again is
  harmless.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from tb_env.components.ticketing import VOLATILE
from tb_env.domain.database import Database
from tb_env.errors import ToolError

VERIFICATION_FAILED = "Verification failed: the details do not match our records. Nothing was recorded."
TABLE = "identity_verifications"


def declare(metadata: sa.MetaData, column: str, target: str) -> sa.Table:
    """Add `identity_verifications` to the domain's metadata: `column` (like `customer_id`)
    points at `target` (like `customers.id`), unique, so a person is verified once."""
    return sa.Table(
        TABLE,
        metadata,
        sa.Column("id", sa.String(16), primary_key=True, info=VOLATILE),  # V-9001, unreferenced
        sa.Column(column, sa.ForeignKey(target), nullable=False, unique=True),
        sa.Column("method", sa.String(24), nullable=False, info=VOLATILE),  # which proof the caller gave
        sa.Column("verified_at", sa.String(32), nullable=False, info=VOLATILE),
    )


def name_filter(last: str, first: str | None = None, alias: str = "") -> tuple[str, dict[str, Any]]:
    """`(sql, params)` for a WHERE clause on last name and, if given, first name, both
    case-insensitive and stripped (callers type names as they say them)."""
    prefix = f"{alias}." if alias else ""
    sql = f"LOWER({prefix}last_name) = LOWER(:last)"
    params: dict[str, Any] = {"last": last.strip()}
    if first:
        sql += f" AND LOWER({prefix}first_name) = LOWER(:first)"
        params["first"] = first.strip()
    return sql, params


def check(matches: bool) -> None:
    """Refuse a verification whose details did not all match, before anything is written."""
    if not matches:
        raise ToolError(VERIFICATION_FAILED)


async def record_verification(db: Database, column: str, person_id: str, method: str, start: int = 9001) -> None:
    """Record that `person_id` proved who they are by `method`, unless already recorded."""
    if await db.one(f"SELECT id FROM {TABLE} WHERE {column} = :p", p=person_id) is None:
        await db.insert(TABLE, id=await db.next_id(TABLE, "V", start=start), **{column: person_id},
                        method=method, verified_at=db.now)
